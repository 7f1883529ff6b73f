"""The balanced gate set on random formulas: counted WITH the total mine count, equal to the models.

Each formula (1-6 variables, 1-4 levels of gates, as in tests/test_compiler.py)
is compiled with ``--gates balanced``; the board must have one mine total,
and the board written with that total (what the ``.mine`` file carries) must
have exactly as many explanations as the formula has models.

    nice -n 10 python scripts/balanced_check.py [--formulas 200] [--seed 500]
"""

from __future__ import annotations

import argparse
import random
import time

from satsweeper.counting import count
from satsweeper.gadgets.compiler import GateSet, compile_formula
from satsweeper.gadgets.formula import random_formula


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--formulas", type=int, default=200)
    parser.add_argument("--seed", type=int, default=500)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    bad = 0
    start = time.perf_counter()
    for k in range(args.formulas):
        f = random_formula(rng, rng.randint(1, 6), rng.randint(1, 4))
        compiled = compile_formula(f, GateSet.BALANCED)
        totals = compiled.mine_totals()
        board, _ = compiled.with_total()
        counted = count(board, order=compiled.order) if totals else 0
        ok = len(totals) <= 1 and counted == f.models()
        bad += not ok
        print(f"{k:4d} {'ok ' if ok else 'BAD'} models {f.models():3d} with total {counted:3d} "
              f"totals {sorted(totals)} hidden {compiled.hidden}  {f}", flush=True)
    print(f"{args.formulas - bad}/{args.formulas} equal; {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
