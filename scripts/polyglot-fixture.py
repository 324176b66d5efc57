# Makes data/books/performance.first12plies.bin (the entries of performance.bin for the positions
# its book moves reach within 12 plies, unchanged, in file order) and the fixture of
# crates/players/tests/polyglot.rs, with python-chess (pip install chess) as the independent reader.
# Usage: python3 scripts/polyglot-fixture.py OUT.bin OUT.txt [performance.bin]
import chess, chess.polyglot, struct, sys
src = sys.argv[3] if len(sys.argv) > 3 else "/work/shared/data/polyglot/performance.bin"
reader = chess.polyglot.open_reader(src)
# Positions reachable by book moves within DEPTH plies, breadth first.
DEPTH = 12
seen = {}
frontier = [chess.Board()]
for ply in range(DEPTH + 1):
    nxt = []
    for b in frontier:
        k = chess.polyglot.zobrist_hash(b)
        if k in seen: continue
        entries = list(reader.find_all(b))
        seen[k] = (b.fen(), entries)
        if ply < DEPTH:
            for e in entries:
                c = b.copy(); c.push(e.move); nxt.append(c)
    frontier = nxt
keys = set(seen)
# The subset book: every entry of the original whose key is one of those positions, in file order.
data = open(src, "rb").read()
out = bytearray()
for i in range(0, len(data), 16):
    key = struct.unpack(">Q", data[i:i+8])[0]
    if key in keys:
        out += data[i:i+16]
open(sys.argv[1], "wb").write(out)
# The fixture: positions with entries (every 7th, plus the start), python-chess's moves and weights.
lines = []
for n, (k, (fen, entries)) in enumerate(sorted(seen.items(), key=lambda kv: kv[1][0])):
    if entries and True:
        lines.append("%s | %s" % (fen, " ".join("%s:%d" % (e.move.uci(), e.weight) for e in entries)))
open(sys.argv[2], "w").write("# python-chess %s chess.polyglot on performance.bin: FEN | move:weight in file order\n" % chess.__version__ + "\n".join(lines) + "\n")
print(len(out)//16, "entries,", len(seen), "positions,", len(lines), "fixture lines")
