#!/usr/bin/env bash
# CPU time of `eloworld serve` while a browser watches a running tournament (the issue's
# "under 2% of a core"): a tournament of slow players runs, the page is open in headless
# Chromium (receiving every update), and the server's user+system CPU time is read from
# /proc over SECS seconds. CPU time, not wall time: it holds on a loaded machine.
#   bash crates/serve/benches/idle_cpu.sh [SECS]    (default 30)
# ELOWORLD_BIN=PATH measures that binary instead of building the `quick` profile.
set -euo pipefail
secs=${1:-30}
cd "$(dirname "$0")/../../.."
if [ -n "${ELOWORLD_BIN:-}" ]; then
  bin=$(realpath "$ELOWORLD_BIN")
else
  cargo build -q --profile quick -p eloworld
  bin=$PWD/target/quick/eloworld
fi
dir=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"' EXIT
cd "$dir"
"$bin" tournament --name watched --players random_move:delay_ms=20,first_move,pacifist \
  --games-per-pair 200 --max-plies 80 --threads 1 --db live.sqlite --quiet &
while [ ! -s live.sqlite ] || ! "$bin" results --db live.sqlite >/dev/null 2>&1; do sleep 0.5; done
"$bin" serve --db live.sqlite --bind 127.0.0.1:18466 2>serve.log &
server=$!
sleep 2
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$dir/profile" --remote-debugging-port=0 \
  http://127.0.0.1:18466/t/watched >/dev/null 2>&1 &
sleep 5
ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
hz=$(getconf CLK_TCK)
before=$(ticks)
sleep "$secs"
after=$(ticks)
awk -v a="$before" -v b="$after" -v hz="$hz" -v s="$secs" \
  'BEGIN { printf "server CPU while watched: %.2f s over %d s = %.2f%% of a core\n", (b-a)/hz, s, 100*(b-a)/hz/s }'
