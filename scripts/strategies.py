"""Win rates of every strategy on Pedersen's three levels (Pedersen, tables 5.1-5.3).

First click safe, in the corner, as in Pedersen's thesis.  Prints games, wins, win
rate with its 95% Wilson interval, guesses per game and games per second,
and Pedersen's published win rate for comparison.

    python scripts/strategies.py --games 1000 --workers 2
"""

from __future__ import annotations

import click

from satsweeper.experiments import run
from satsweeper.game import FirstClick, Level

LEVELS = {"10x10/10": Level(10, 10, 10), "16x16/40": Level(16, 16, 40), "30x16/99": Level(30, 16, 99)}
# Pedersen: single point (table 5.1), limited search (5.2), with probabilities (5.3).
PUBLISHED = {"single-point": (77.4, 29.1, 0.5), "limited": (91.7, 64.3, 17.0), "limited-prob": (92.5, 67.7, 25.0)}
ORDER = ("random", "single-point", "basic", "limited", "limited-prob", "exact", "best")


@click.command()
@click.option("--games", default=1000, show_default=True)
@click.option("--expert-games", default=None, type=int, help="Fewer games on 30x16/99 (slow strategies).")
@click.option("--workers", default=2, show_default=True)
@click.option("--seed", default=1, show_default=True)
@click.option("--strategies", "names", default=",".join(ORDER), show_default=True)
def main(games: int, expert_games: int | None, workers: int, seed: int, names: str) -> None:
    print(f"{'strategy':<13} {'level':<9} {'games':>6} {'wins':>6} {'win %':>7} {'95% CI':>13} "
          f"{'guesses':>8} {'games/s':>8} {'Pedersen %':>10}")
    for name in names.split(","):
        for column, (label, level) in enumerate(LEVELS.items()):
            n = expert_games if (expert_games and level.mines == 99) else games
            s = run(level, name, n, seed, FirstClick.SAFE, (0, 0), workers)
            low, high = s.interval()
            published = PUBLISHED.get(name, ("",) * 3)[column]
            print(f"{name:<13} {label:<9} {s.games:>6} {s.wins:>6} {100 * s.rate:>7.1f} "
                  f"{f'{100 * low:.1f}-{100 * high:.1f}':>13} {s.guesses / s.games:>8.2f} "
                  f"{s.games / s.seconds:>8.1f} {published:>10}", flush=True)


if __name__ == "__main__":
    main()
