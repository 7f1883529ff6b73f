"""Games per second on one core: ``best`` against ``exact`` on the same games.

The issue's speed target is for ``best`` on expert, one core.  Absolute
games/s drift with the machine's load, so the two players take turns on the
same chunks of games, each chunk is timed ``--rounds`` times and its best
time kept, and the script prints the ratio best/exact and ms per game in
calibration units (see ``benchmark.py``) as the figures to compare from run
to run.  The wins are printed too: a speed change that keeps the decisions
keeps them.  Calibration units drift with the load too (a quarter within an hour
on this machine): to compare two versions of the code, time both in one run with
``scripts/bench_versions.py``.

    python scripts/bench_play.py --games 600 --seed 3 --rounds 3
"""

from __future__ import annotations

import time

import click

import sys as _sys
from pathlib import Path as _Path
# benchmark.py beside it, whether run as python scripts/X.py or python -m scripts.X
_sys.path.insert(0, str(_Path(__file__).resolve().parent))
from benchmark import calibration_ms, machine  # noqa: E402
from satsweeper.experiments import play
from satsweeper.game import LEVELS, FirstClick

CHUNK = 50


@click.command()
@click.option("--level", default="expert", show_default=True)
@click.option("--games", default=600, show_default=True)
@click.option("--seed", default=3, show_default=True)
@click.option("--rounds", default=3, show_default=True, help="Times each chunk is played; its best time counts.")
@click.option("--strategies", "names", default="exact,best", show_default=True,
              help="The first is the baseline of the ratios.")
def main(level: str, games: int, seed: int, rounds: int, names: str) -> None:
    board, players = LEVELS[level], names.split(",")
    before = calibration_ms()
    best_time = {name: [float("inf")] * ((games + CHUNK - 1) // CHUNK) for name in players}
    wins = dict.fromkeys(players, 0)
    for round_ in range(rounds):
        for chunk, start in enumerate(range(0, games, CHUNK)):
            for name in players:
                began = time.perf_counter()
                won = sum(play(board, name, f"{seed}:{i}", FirstClick.SAFE, (0, 0)).won
                          for i in range(start, min(games, start + CHUNK)))
                best_time[name][chunk] = min(best_time[name][chunk], time.perf_counter() - began)
                if round_ == 0:
                    wins[name] += won
    unit = min(before, calibration_ms())  # the quieter of two moments
    print(f"machine: {machine()}; calibration unit {unit:.1f} ms; {level}, {games} games, seed {seed}, "
          f"first click safe in the corner, one core, best of {rounds} rounds per chunk of {CHUNK}")
    base = sum(best_time[players[0]])
    print(f"{'strategy':<10} {'games':>6} {'wins':>6} {'games/s':>8} {'ms/game':>8} {'per cal':>8} {'time ratio':>10}")
    for name in players:
        seconds = sum(best_time[name])
        ms = 1000 * seconds / games
        print(f"{name:<10} {games:>6} {wins[name]:>6} {games / seconds:>8.1f} {ms:>8.2f} {ms / unit:>8.3f} "
              f"{seconds / base:>10.3f}")


if __name__ == "__main__":
    main()
