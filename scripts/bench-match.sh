#!/usr/bin/env bash
# Plays the same engine match under `eloworld match` and under fastchess, and prints the ratio
# of wall time, of the runner's own CPU time per ply (the runner process alone, not its
# engines: read from /proc while it runs) and of time forfeits.
#
# usage: scripts/bench-match.sh FASTCHESS [ROUNDS] [CONCURRENCY] [LIMIT]
#        scripts/bench-match.sh --fishtest FASTCHESS [ROUNDS] [CONCURRENCY] [TC]
#   FASTCHESS    the fastchess binary (built by you from its public source, outside this repo)
#   ROUNDS       game pairs (default 50; 10 with --fishtest)
#   CONCURRENCY  games at once (default 2)
#   LIMIT        the engines' limit, as both tools write it (default nodes=2000; e.g. tc=2+0.02)
#   TC           --fishtest: the time control (default 10+0.1, fishtest's short one)
# Both play Debian's Stockfish against itself from the same openings (the first ROUNDS of
# data/books/UHO_4060_v4.first2000.epd, in order, each with both colours) with the same seed.
# With --fishtest both run the command line fishtest's worker builds (worker/games.py: a
# random order of the book, 8-move openings, resign and draw adjudication, a PGN with its
# CRC, ratings after every pair).
# eloworld is the quick-profile build (cargo build --profile quick -p eloworld), or the binary
# named by the ELOWORLD environment variable.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
fishtest=false
if [ "${1:-}" = "--fishtest" ]; then
  fishtest=true
  shift
fi
fastchess="${1:?usage: $0 [--fishtest] FASTCHESS [ROUNDS] [CONCURRENCY] [LIMIT]}"
if $fishtest; then rounds="${2:-10}"; else rounds="${2:-50}"; fi
concurrency="${3:-2}"
if $fishtest; then limit="tc=${4:-10+0.1}"; else limit="${4:-nodes=2000}"; fi
eloworld="${ELOWORLD:-$here/target/quick/eloworld}"
[ -x "$eloworld" ] || { echo "build it first: cargo build --profile quick -p eloworld" >&2; exit 2; }
[ -x "$fastchess" ] || { echo "$fastchess: not an executable" >&2; exit 2; }
stockfish="$(command -v stockfish || echo /usr/games/stockfish)"
book="$here/data/books/UHO_4060_v4.first2000.epd"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if $fishtest; then
  # The PGN's name is filled in per tool (PGN).
  common=(-testEnv -recover -repeat -games 2 -rounds "$rounds"
    -ratinginterval 1 -scoreinterval 1 -autosaveinterval 0 -report penta=true
    -pgnout file=PGN append=false -crc32 pgn=true
    -site https://tests.stockfishchess.org/tests/view/bench -event "Batch 0: New vs Base"
    -srand 1 -resign movecount=3 score=600 -draw movenumber=34 movecount=8 score=20
    -variant standard -concurrency "$concurrency"
    -openings "file=$book" format=epd order=random plies=16 start=1 -check-mate-pvs
    -engine name=New-bench "$limit" "cmd=$stockfish" dir=. option.Hash=16
    -engine name=Base-bench "$limit" "cmd=$stockfish" dir=. option.Hash=16
    -each proto=uci option.Threads=1)
else
  common=(-engine "cmd=$stockfish" name=sf_a -engine "cmd=$stockfish" name=sf_b
    -each "$limit" option.Hash=16 option.Threads=1
    -openings "file=$book" format=epd order=sequential
    -games 2 -rounds "$rounds" -repeat -concurrency "$concurrency" -srand 1 -ratinginterval 0
    -pgnout file=PGN)
fi

python3 - "$work" "$eloworld" "$fastchess" "${common[@]}" <<'PY'
import os, re, subprocess, sys, time

work, eloworld, fastchess, common = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
tick = os.sysconf("SC_CLK_TCK")

def own_cpu(pid):
    """User + system seconds of the process itself (not its children), from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick

def run(label, argv):
    start = time.monotonic()
    p = subprocess.Popen(argv, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cpu = 0.0
    while p.poll() is None:
        try:
            cpu = own_cpu(p.pid)
        except (FileNotFoundError, ProcessLookupError, IndexError):
            pass
        time.sleep(0.02)
    wall = time.monotonic() - start
    if p.returncode != 0:
        sys.exit(f"{label} failed with exit code {p.returncode}: {' '.join(argv)}")
    return wall, cpu

def plies_and_forfeits(pgn_path):
    text = open(pgn_path, encoding="utf-8", errors="replace").read()
    forfeits = len(re.findall(r'\[Termination "time[ -]forfeit"\]', text))
    games = re.split(r"\n\n(?=\[)", text)
    plies = 0
    for g in games:
        body = "\n".join(l for l in g.splitlines() if not l.startswith("["))
        body = re.sub(r"\{[^}]*\}", " ", body)
        body = re.sub(r"\d+\.(\.\.)?", " ", body)
        plies += sum(1 for t in body.split() if t not in ("1-0", "0-1", "1/2-1/2", "*"))
    return plies, forfeits, len([g for g in games if g.strip()])

def line(pgn):
    return [a.replace("file=PGN", f"file={pgn}") for a in common]

ours = run("eloworld", [eloworld, "match", *line("eloworld.pgn"), "-db", "bench.sqlite"])
theirs = run("fastchess", [fastchess, *line("fastchess.pgn"), "-recover"])
op, of, og = plies_and_forfeits(os.path.join(work, "eloworld.pgn"))
tp, tf, tg = plies_and_forfeits(os.path.join(work, "fastchess.pgn"))
print(f"{'':10} {'games':>6} {'plies':>7} {'wall s':>8} {'own CPU s':>10} {'CPU ms/ply':>11} {'forfeits':>9}")
for name, (wall, cpu), plies, forfeits, games in (("eloworld", ours, op, of, og), ("fastchess", theirs, tp, tf, tg)):
    print(f"{name:10} {games:>6} {plies:>7} {wall:>8.2f} {cpu:>10.2f} {1000*cpu/max(plies,1):>11.4f} {forfeits:>9}")
ratio = lambda a, b: a / b if b else float("inf") if a else 1.0
print(f"ratio eloworld/fastchess: wall {ratio(ours[0], theirs[0]):.2f}x, "
      f"own CPU per ply {ratio(ours[1]/max(op,1), theirs[1]/max(tp,1)):.2f}x, "
      f"forfeits {of} vs {tf}")
PY
