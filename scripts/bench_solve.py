"""Benchmark ``solve`` (all determined cells, total mine count known).

Positions come from :mod:`satsweeper.positions` (play from the centre with the
obvious rules until stuck, at a drawn stage of the game), reproducibly from
the seed.  Prints median / p90 / max per level, in ms and in calibration units.

    python scripts/bench_solve.py                 # 200 positions per level + 100x100
    python scripts/bench_solve.py --count 50 --big 0
"""

from __future__ import annotations

import click

import sys as _sys
from pathlib import Path as _Path
# benchmark.py beside it, whether run as python scripts/X.py or python -m scripts.X
_sys.path.insert(0, str(_Path(__file__).resolve().parent))
from benchmark import HEADER, calibration_ms, machine, row, timed  # noqa: E402
from satsweeper.game import LEVELS, Level
from satsweeper.positions import positions
from satsweeper.reasoning import solve


@click.command()
@click.option("--count", default=200, show_default=True, help="Positions per standard level.")
@click.option("--big", default=5, show_default=True, help="Positions of 100x100 at 20%.")
@click.option("--seed", default=0, show_default=True)
def main(count: int, big: int, seed: int) -> None:
    unit = calibration_ms()
    print(f"machine: {machine()}; calibration unit {unit:.1f} ms")
    print(HEADER)
    plan = [(name, LEVELS[name], count) for name in ("beginner", "intermediate", "expert")]
    if big:
        plan.append(("100x100/2000", Level(100, 100, 2000), big))
    for name, level, n in plan:
        boards = positions(level, n, seed)
        times = []
        for board in boards:
            ms, answer = timed(solve, board)
            assert answer.consistent
            times.append(ms)
        print(row(name, times, unit), flush=True)


if __name__ == "__main__":
    main()
