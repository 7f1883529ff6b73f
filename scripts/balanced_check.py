"""The balanced gate set on random formulas: counted WITH the total mine count, equal to the models.

Each formula (1-6 variables, 1-4 levels of gates, as in tests/test_compiler.py)
is compiled with ``--gates balanced``; the board must have one mine total,
and the board with that total (what ``compile -o x.mine`` writes) must have
exactly as many explanations as the formula has models (truth table).
Boards of at most --read-back squares (by default all of them) are also
written as ``.mine`` text and read back through :mod:`satsweeper.textio`
before counting, as tests/test_balance.py does with 200 smaller formulas
(2-5 variables, 1-3 levels).

    nice -n 10 python scripts/balanced_check.py [--formulas 200] [--seed 500] [--read-back SQUARES]
"""

from __future__ import annotations

import argparse
import random
import time

from satsweeper.counting import count
from satsweeper.gadgets.compiler import GateSet, compile_formula
from satsweeper.gadgets.formula import random_formula
from satsweeper.textio import format_mine, parse_mine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--formulas", type=int, default=200)
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--read-back", type=int, default=10 ** 9,
                        help="round-trip boards of at most this many squares through the .mine text")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    bad = read = 0
    start = time.perf_counter()
    for k in range(args.formulas):
        f = random_formula(rng, rng.randint(1, 6), rng.randint(1, 4))
        began = time.perf_counter()
        compiled = compile_formula(f, GateSet.BALANCED)
        totals = compiled.mine_totals()
        board, _ = compiled.with_total(totals)
        if board.height * board.width <= args.read_back:
            board, how = parse_mine(format_mine(board)), ".mine"
            read += 1
        else:
            how = "board"
        counted = count(board, order=compiled.order)
        ok = len(totals) <= 1 and counted == f.models()
        bad += not ok
        print(f"{k:4d} {'ok ' if ok else 'BAD'} models {f.models():3d} {how:>5} count {counted:3d} "
              f"totals {sorted(totals)} hidden {compiled.hidden} {time.perf_counter() - began:5.1f} s  {f}",
              flush=True)
    print(f"{args.formulas - bad}/{args.formulas} equal ({read} read back from .mine text); "
          f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
