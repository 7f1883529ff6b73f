"""Counting compiled balanced boards with and without the total: this tree against an older one.

Compiles the same random formulas (seed 500, as scripts/balanced_check.py)
with the balanced set, then times ``count(board, order=...)`` in separate
processes, the older tree and this one interleaved, each board with its
total mine count and without.  The older tree is a copy of the package:

    git archive b7ca66a satsweeper | tar -x -C /tmp/old
    PYTHONPATH=. nice -n 10 python scripts/bench_total.py --old /tmp/old [--boards 7 2 0] [--repeat 2]
"""

from __future__ import annotations

import argparse
import pickle
import random
import subprocess
import sys
import tempfile
from pathlib import Path

TIME_ONE = """
import pickle, sys, time
sys.path.insert(0, sys.argv[1])
from satsweeper.board import Board
from satsweeper.counting import count
board, order = pickle.load(open(sys.argv[2], "rb"))
if sys.argv[3] == "none":
    board = Board(board.height, board.width, board.clues, board.flags, board.voids, board.names, None)
start = time.perf_counter()
n = count(board, order=order)
print(f"{time.perf_counter() - start:.2f} {n}")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="a directory holding the older satsweeper package")
    parser.add_argument("--boards", type=int, nargs="+", default=[7, 2, 0],
                        help="which of the seed-500 formulas (indices)")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    from satsweeper.gadgets.compiler import GateSet, compile_formula
    from satsweeper.gadgets.formula import random_formula
    rng = random.Random(500)
    formulas = [random_formula(rng, rng.randint(1, 6), rng.randint(1, 4)) for _ in range(max(args.boards) + 1)]
    here = str(Path(__file__).resolve().parent.parent)
    with tempfile.TemporaryDirectory() as scratch:
        for index in args.boards:
            compiled = compile_formula(formulas[index], GateSet.BALANCED)
            board, _ = compiled.with_total()
            path = Path(scratch) / f"{index}.pkl"
            path.write_bytes(pickle.dumps((board, compiled.order)))
            for mode in ("total", "none"):
                for _ in range(args.repeat if mode == "total" else 1):
                    old, new = (subprocess.run([sys.executable, "-c", TIME_ONE, tree, str(path), mode],
                                               capture_output=True, text=True, check=True).stdout.split()
                                for tree in (args.old, here))
                    assert old[1] == new[1], "the two trees disagree"
                    print(f"formula {index:2d} hidden {compiled.hidden:6d} {mode:5s} count {new[1]:>4}  "
                          f"old {float(old[0]):7.2f} s  new {float(new[0]):7.2f} s  "
                          f"ratio {float(old[0]) / max(float(new[0]), 1e-3):.2f}", flush=True)


if __name__ == "__main__":
    main()
