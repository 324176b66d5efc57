#!/bin/sh
# Engine-vs-engine throughput of our runner (issue 5's benchmark): Stockfish against
# Stockfish at nodes=1000 and at nodes=10000, GAMES games each (default 200) from an EPD
# opening suite with colours swapped, 2 concurrent games, threefold/fifty-move draws as
# cutechess and fastchess play them. Prints games/s and the runner's own CPU time per ply:
# the CPU of the eloworld process itself, without its engine children's.
#
#   scripts/bench-engines.sh            # builds target/release/eloworld if needed
#   GAMES=50 ELOWORLD=target/quick/eloworld scripts/bench-engines.sh
#
# How the CPU is read: the runner is started by a small Python harness that, when it exits,
# reads /proc/PID/stat of the not-yet-reaped process (waitid with WNOWAIT): utime+stime are
# the runner's own threads, cutime+cstime the engines it reaped.
set -eu
cd "$(dirname "$0")/.."
games=${GAMES:-200}
exe=${ELOWORLD:-${CARGO_TARGET_DIR:-target}/release/eloworld}
openings=${OPENINGS:-data/books/UHO_4060_v4.first2000.epd}
command -v stockfish >/dev/null 2>&1 || [ -x /usr/games/stockfish ] || {
    echo "stockfish is not installed: apt-get install stockfish" >&2
    exit 1
}
if [ ! -x "$exe" ]; then
    cargo build --release -p eloworld
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-7s %6s %8s %8s %8s %12s %14s\n' nodes games wall_s games/s plies our_cpu_s our_ms/ply
for nodes in 1000 10000; do
    python3 - "$exe" "$work/bench-$nodes.sqlite" "$nodes" "$games" "$openings" <<'PY'
import os, sqlite3, subprocess, sys, time

exe, db, nodes, games, openings = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
per_pair = games // 2
cmd = [exe, "tournament", "--name", f"bench-{nodes}",
       "--players", f"stockfish:nodes={nodes},stockfish{nodes // 1000}k",
       "--games-per-pair", str(per_pair), "--openings", openings, "--openings-limit", str(per_pair),
       "--threads", "2", "--draw-rules", "claimed", "--db", db, "--quiet"]
t0 = time.monotonic()
p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)
wall = time.monotonic() - t0
with open(f"/proc/{p.pid}/stat") as f:
    fields = f.read().rsplit(")", 1)[1].split()
tick = os.sysconf("SC_CLK_TCK")
own = (int(fields[11]) + int(fields[12])) / tick
children = (int(fields[13]) + int(fields[14])) / tick
status = p.wait()
if status != 0:
    sys.exit(f"{' '.join(cmd)} failed with status {status}")
con = sqlite3.connect(db)
n, plies = con.execute("SELECT count(*), sum(plies) FROM games").fetchone()
faults = con.execute("SELECT count(*) FROM games WHERE termination LIKE 'engine-%' OR termination = 'illegal-move'").fetchone()[0]
print(f"{nodes:<7} {n:>6} {wall:>8.1f} {n / wall:>8.2f} {plies:>8} {own:>12.2f} {1000 * own / plies:>14.4f}"
      f"   (engines {children:.1f} s CPU, {faults} faults)")
PY
done
