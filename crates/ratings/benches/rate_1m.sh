#!/bin/sh
# The rating benchmark of issue 3: 1,000,000 synthetic games among 50 players whose true
# strengths are drawn from N(0, 200²), written as PGN and rated by `eloworld rate` (reading
# the PGN included). Prints wall time, CPU time and peak memory per method, and mle's RMS
# error against the true strengths.
#
#   sh crates/ratings/benches/rate_1m.sh [WORKDIR]      (from the repository root)
#
# To compare with Ordo on the same file: ordo -p WORKDIR/synth1m.pgn -o ordo.txt
set -eu
dir=${1:-/tmp/eloworld-rate-bench}
target=${CARGO_TARGET_DIR:-target}
cargo build --release -p eloworld
bin="$target/release/eloworld"
mkdir -p "$dir"
if [ ! -f "$dir/synth1m.pgn" ]; then
    "$bin" synth --players 50 --games 1000000 --spread 200 --seed 1 --out "$dir/synth1m.pgn"
fi
cat "$dir/synth1m.pgn" > /dev/null  # warm the page cache
for method in mle elo-world uscf rollason markov; do
    /usr/bin/time -f "$method: %e s wall, %U s user + %S s system CPU, %M KB peak" \
        "$bin" rate --pgn "$dir/synth1m.pgn" --method "$method" > "$dir/$method.txt"
done
/usr/bin/time -f "mle with 200 bootstrap samples: %e s wall, %U s user CPU" \
    "$bin" rate --pgn "$dir/synth1m.pgn" --method mle --bootstrap 200 > "$dir/mle-bootstrap.txt"
"$bin" rate --pgn "$dir/synth1m.pgn" --method mle --truth "$dir/synth1m.truth.csv" | tail -4
