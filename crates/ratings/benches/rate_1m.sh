#!/bin/sh
# The rating benchmark of issue 3: 1,000,000 synthetic games among 50 players whose true
# strengths are drawn from N(0, 200²), written as PGN and rated by `eloworld rate` (reading
# the PGN included). Prints wall time, CPU time and peak memory of every method together and
# of each method alone, and mle's RMS error against the true strengths. With ORDO set to an
# Ordo binary, Ordo rates the same file for comparison (whole process, file read included).
#
#   sh crates/ratings/benches/rate_1m.sh [WORKDIR]      (from the repository root)
#   PROFILE=quick ORDO=/path/to/ordo sh crates/ratings/benches/rate_1m.sh
set -eu
dir=${1:-/tmp/eloworld-rate-bench}
profile=${PROFILE:-release}
target=${CARGO_TARGET_DIR:-target}
cargo build --profile "$profile" -p eloworld
bin="$target/$profile/eloworld"
mkdir -p "$dir"
if [ ! -f "$dir/synth1m.pgn" ]; then
    "$bin" synth --players 50 --games 1000000 --spread 200 --seed 1 --out "$dir/synth1m.pgn"
fi
cat "$dir/synth1m.pgn" > /dev/null  # warm the page cache
for method in all mle elo-world uscf rollason markov; do
    /usr/bin/time -f "$method: %e s wall, %U s user + %S s system CPU, %M KB peak" \
        "$bin" rate --pgn "$dir/synth1m.pgn" --method "$method" > "$dir/$method.txt"
done
if [ -n "${ORDO:-}" ]; then
    /usr/bin/time -f "ordo: %e s wall, %U s user + %S s system CPU, %M KB peak" \
        "$ORDO" -p "$dir/synth1m.pgn" -o "$dir/ordo.txt" > /dev/null
fi
/usr/bin/time -f "mle with 200 bootstrap samples: %e s wall, %U s user CPU" \
    "$bin" rate --pgn "$dir/synth1m.pgn" --method mle --bootstrap 200 > "$dir/mle-bootstrap.txt"
"$bin" rate --pgn "$dir/synth1m.pgn" --method mle --truth "$dir/synth1m.truth.csv" | tail -4
