"""What the engine scripts read from the repository: a .params file's options, the bench
positions, the release build of eloworld-engine."""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(HERE, "..", "crates", "engine", "src", "bench.rs")
ENGINE = os.path.join(HERE, "..", "target", "release", "eloworld-engine")


def release_engine(script):
    """The path of target/release/eloworld-engine, or of the build ELOWORLD_ENGINE names (to
    measure another build, e.g. a copy of the one before a change); `script` exits naming the
    build if it is absent."""
    other = os.environ.get("ELOWORLD_ENGINE")
    if other:
        if not os.access(other, os.X_OK):
            sys.exit(f"scripts/{script}: ELOWORLD_ENGINE={other} is not an executable file")
        return other
    if not os.path.exists(ENGINE):
        sys.exit(f"scripts/{script}: no {ENGINE}: cargo build --release -p eloworld-engine")
    return ENGINE


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
