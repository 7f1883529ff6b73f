"""Benchmark the no-guess check and the no-guess generators.

1. ``noguess`` on uniform random expert layouts (first click at 3,3 opening a
   region): median / p90 / max ms, and the share that is no-guess.
2. ``generate --no-guess`` on 30x16 boards from 10% to 25% mine density,
   both methods: success rate within the budget, seconds per board, layouts
   drawn and perturbations made.

    python scripts/bench_puzzles.py
    python scripts/bench_puzzles.py --layouts 50 --boards 5
"""

from __future__ import annotations

import random
import statistics
import time

import click

import sys as _sys
from pathlib import Path as _Path
# benchmark.py beside it, whether run as python scripts/X.py or python -m scripts.X
_sys.path.insert(0, str(_Path(__file__).resolve().parent))
from benchmark import HEADER, calibration_ms, machine, row  # noqa: E402
from satsweeper.errors import TooComplexError
from satsweeper.game import LEVELS, FirstClick, Level, place_mines
from satsweeper.puzzles import Method, generate, no_guess, start_zone

START = (3, 3)


@click.command()
@click.option("--layouts", default=200, show_default=True, help="Expert layouts for noguess.")
@click.option("--boards", default=20, show_default=True, help="Boards per density and method.")
@click.option("--budget", default=300, show_default=True, help="No-guess checks per board.")
@click.option("--seed", default=0, show_default=True)
def main(layouts: int, boards: int, budget: int, seed: int) -> None:
    unit = calibration_ms()
    print(f"machine: {machine()}; calibration unit {unit:.1f} ms\n")
    level = LEVELS["expert"]
    times, solved = [], 0
    for i in range(layouts):
        mines = place_mines(level, random.Random(seed + i), start_zone(level, START, FirstClick.OPENING))
        start = time.perf_counter()
        solved += no_guess(level, mines, START).solved
        times.append((time.perf_counter() - start) * 1000)
    print(HEADER)
    print(row("noguess expert", times, unit))
    print(f"{solved}/{layouts} uniform expert layouts are no-guess from {START[0]},{START[1]} (opening)\n")
    if not boards:  # --boards 0, as README runs it for the first figure alone (it ended in a traceback)
        return
    print(f"generate --no-guess on 30x16, start {START[0]},{START[1]} opening, budget {budget} checks per board")
    print(f"{'mines':>5} {'density':>7} {'method':<9} {'ok':>6} {'median s':>9} {'max s':>8} "
          f"{'layouts':>8} {'perturb':>8}")
    for mines in (48, 60, 72, 84, 96, 99, 108, 120):
        board = Level(30, 16, mines)
        for method in Method:
            ok, seconds, drawn, moved = 0, [], [], []
            for i in range(boards):
                start = time.perf_counter()
                try:
                    made = generate(board, START, random.Random(seed * 1000 + i), method, budget=budget)
                except TooComplexError:
                    pass
                else:
                    ok += 1
                    drawn.append(made.layouts)
                    moved.append(made.perturbations)
                seconds.append(time.perf_counter() - start)
            print(f"{mines:>5} {mines / 480:>7.1%} {method.value:<9} {ok:>3}/{boards:<2} "
                  f"{statistics.median(seconds):>9.3f} {max(seconds):>8.3f} "
                  f"{statistics.mean(drawn) if drawn else 0:>8.1f} {statistics.mean(moved) if moved else 0:>8.1f}",
                  flush=True)


if __name__ == "__main__":
    main()
