"""Benchmark exact mine probabilities for every hidden cell.

Times ``problem_of`` + the counting engine per position (what ``satsweeper
probs`` does apart from printing), on positions from
:mod:`satsweeper.positions`.  Then compares the Ganak engine with the
component engine on the first expert positions (same answers required).

    python scripts/bench_probs.py                    # the full table
    python scripts/bench_probs.py --quick            # expert and 100x100 only
"""

from __future__ import annotations

import click

import sys as _sys
from pathlib import Path as _Path
# benchmark.py beside it, whether run as python scripts/X.py or python -m scripts.X
_sys.path.insert(0, str(_Path(__file__).resolve().parent))
from benchmark import HEADER, calibration_ms, machine, row, summary, timed  # noqa: E402
from satsweeper.constraints import problem_of
from satsweeper.counting import Engine, tally
from satsweeper.game import LEVELS, Level
from satsweeper.positions import position, positions

BIG = [("100x100 20%", Level(100, 100, 2000), 5),
       ("200x200 15%", Level(200, 200, 6000), 3),
       ("300x300 15%", Level(300, 300, 13500), 3),
       ("500x500 15%", Level(500, 500, 37500), 2),
       ("1000x1000 15%", Level(1000, 1000, 150000), 1)]


def probabilities(board, engine=Engine.COMPONENTS):
    return tally(problem_of(board), engine)


@click.command()
@click.option("--count", default=200, show_default=True, help="Expert positions.")
@click.option("--ganak", "ganak_count", default=20, show_default=True,
              help="Expert positions for the model-counter comparison.")
@click.option("--quick", is_flag=True, help="Skip boards larger than 100x100.")
@click.option("--seed", default=0, show_default=True)
def main(count: int, ganak_count: int, quick: bool, seed: int) -> None:
    unit = calibration_ms()
    print(f"machine: {machine()}; calibration unit {unit:.1f} ms")
    print(HEADER + f" {'hidden':>9} {'ms/1k hidden':>12}")
    expert = positions(LEVELS["expert"], count, seed)
    plan = [("expert", expert)]
    for name, level, n in BIG[:1] if quick else BIG:
        # Mid-game: half of the safe cells open when the rules get stuck.
        boards = [b for b in (position(level, seed + i, 0.5) for i in range(n)) if b is not None]
        plan.append((name, boards))
    for name, boards in plan:
        times = []
        for board in boards:
            ms, answer = timed(probabilities, board)
            assert answer.consistent
            times.append(ms)
        hidden = sum(len(b.hidden_cells()) for b in boards) / len(boards)
        med = summary(times)["median"]
        print(row(name, times, unit) + f" {hidden:>9.0f} {1000 * med / hidden:>12.3f}", flush=True)
    if ganak_count:
        fast, slow = [], []
        for board in expert[:ganak_count]:
            ms_fast, a = timed(probabilities, board)
            ms_slow, b = timed(probabilities, board, Engine.GANAK)
            assert a.count == b.count and a.mines == b.mines
            fast.append(ms_fast)
            slow.append(ms_slow)
        f, s = summary(fast), summary(slow)
        print(f"\nganak vs components on {len(fast)} expert positions (identical answers):")
        print(row("components", fast, unit))
        print(row("ganak", slow, unit))
        print(f"ganak / components, median: {s['median'] / f['median']:.0f}x")


if __name__ == "__main__":
    main()
