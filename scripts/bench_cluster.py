"""What running on Dask costs and gains: the same games on every backend.

Plays the same ``--games`` games (one seed) in this process, in ``--workers
2`` forked processes, and on a Dask LocalCluster of 1 and 2 processes, with
the default chunk size and, on Dask, with other chunk sizes.  Prints, for
each, the seconds to start the backend, the seconds to play, games/s, and
the ratio to this process measured in the same run (the machine is shared:
absolute numbers drift, ratios less).  Every backend must give the same
wins and guesses, or the script stops.

    nice -n 10 python scripts/bench_cluster.py --games 600 --rounds 2
"""

from __future__ import annotations

import functools
import os
import time

import click

from satsweeper.experiments import play_range
from satsweeper.game import FirstClick, Level
from satsweeper.runner import Backend, open_runner


def timed(backend: Backend, work, games: int) -> tuple[float, float, tuple[int, int]]:
    """(seconds to start, seconds to play, (wins, guesses))."""
    start = time.perf_counter()
    with open_runner(backend) as runner:
        ready = time.perf_counter()
        if backend.dask:  # the workers import satsweeper on their first task: not the runs' cost
            list(runner.stream(work, backend.workers))
            ready = time.perf_counter()
        results = [r for _, rs in runner.stream(work, games) for r in rs]
        done = time.perf_counter()
    return ready - start, done - ready, (sum(r.won for r in results), sum(r.guesses for r in results))


@click.command()
@click.option("--level", default="expert", show_default=True)
@click.option("--strategy", default="exact", show_default=True)
@click.option("--games", default=600, show_default=True)
@click.option("--seed", default=21, show_default=True)
@click.option("--rounds", default=2, show_default=True, help="Best of this many runs each.")
def main(level, strategy, games, seed, rounds):
    level = Level.parse(level)
    work = functools.partial(play_range, (level,), strategy, games, seed, FirstClick.SAFE, (0, 0))
    backends = {
        "this process": Backend(),
        "--workers 2": Backend(workers=2),
        "--dask --workers 1": Backend(workers=1, dask=True),
        "--dask --workers 2": Backend(workers=2, dask=True),
        "--dask --workers 2 --chunk 1": Backend(workers=2, dask=True, chunk=1),
        "--dask --workers 2 --chunk 100": Backend(workers=2, dask=True, chunk=100),
    }
    best: dict[str, tuple[float, float]] = {}
    answers = set()
    for _ in range(rounds):  # rounds interleaved, so load changes hit every backend alike
        for name, backend in backends.items():
            startup, seconds, answer = timed(backend, work, games)
            answers.add(answer)
            old = best.get(name, (startup, seconds))
            best[name] = (min(old[0], startup), min(old[1], seconds))
    if len(answers) != 1:
        raise SystemExit(f"backends disagree: {answers}")
    wins, guesses = answers.pop()
    base = best["this process"][1]
    click.echo(f"{games} {level} games, {strategy}, seed {seed}: {wins} wins, {guesses} guesses on "
               f"every backend; best of {rounds}; load average {os.getloadavg()[0]:.1f} on "
               f"{os.cpu_count()} cores")
    click.echo(f"| {'backend':<30} | start s | play s | games/s | speed-up |")
    click.echo(f"|{'-' * 32}|---------|--------|---------|----------|")
    for name, (startup, seconds) in best.items():
        click.echo(f"| {name:<30} | {startup:7.2f} | {seconds:6.2f} | {games / seconds:7.1f} | "
                   f"{base / seconds:8.2f} |")


if __name__ == "__main__":
    main()
