#!/bin/sh
# Measures how fast `eloworld fates` builds a fates table: PGN games (and moves) per second.
# The input is data/pgn/*.pgn repeated ten times (40,270 games, 3.4 million moves), so the
# run takes a few seconds; the table it writes must count all 40,270 games.
# Usage: scripts/bench-fates.sh [path/to/eloworld]   (default: target/release/eloworld)
set -eu
cd "$(dirname "$0")/.."
bin="${1:-${CARGO_TARGET_DIR:-target}/release/eloworld}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for _ in 1 2 3 4 5 6 7 8 9 10; do cat data/pgn/Carlsen.pgn data/pgn/twic0920.pgn; done > "$tmp/ten.pgn"
for threads in 1 2; do
    /usr/bin/env time -f "  (%e s wall, %U s user CPU)" "$bin" fates --pgn "$tmp/ten.pgn" --out "$tmp/f.bin" --threads "$threads" 2>&1 \
        | grep -E "^read|^counted|wall"
done
"$bin" fates --pgn "$tmp/ten.pgn" --out "$tmp/f.bin" | grep -q "counted 40270 games" || { echo "wrong count" >&2; exit 1; }
