"""What the engine scripts read from the repository: a .params file's options, the bench positions."""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(HERE, "..", "crates", "engine", "src", "bench.rs")


def params(path):
    """A .params file's NAME = VALUE lines as UCI options."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if "=" in line:
                name, value = line.split("=", 1)
                out[name.strip()] = int(value)
    return out


def bench_fens():
    """The FENs of eloworld-engine's bench positions (crates/engine/src/bench.rs)."""
    text = open(BENCH, encoding="utf-8").read()
    block = text.split("BENCH_FENS", 1)[1].split("];", 1)[0]
    return re.findall(r'"([^"]+)"', block)
