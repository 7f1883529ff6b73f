"""What running on Dask costs and gains: the same games on every backend.

Plays the same ``--games`` games (one seed) in this process, in ``--workers
2`` forked processes, and on a Dask LocalCluster of 1 and 2 processes, with
the default chunk size and, on Dask, with other chunk sizes.  Prints, for
each, the seconds to start the backend, the seconds to play, games/s, and
the ratio to this process measured in the same run, and the CPU seconds of
every process taking part (the overhead: on a shared machine wall-clock
speed-ups follow the other jobs' load, CPU seconds much less).  Every backend must give the same
wins and guesses, or the script stops.

    nice -n 10 python scripts/bench_cluster.py --games 600 --rounds 2
"""

from __future__ import annotations

import functools
import os
import resource
import time

import click

from satsweeper.experiments import play_range
from satsweeper.game import FirstClick, Level
from satsweeper.runner import Backend, open_runner


def cpu(scope) -> float:
    usage = resource.getrusage(scope)
    return usage.ru_utime + usage.ru_stime


def worker_cpu(runner) -> float:
    """CPU seconds of the Dask workers so far (0 for other runners)."""
    client = getattr(runner, "client", None)
    if client is None:
        return 0.0
    return sum(client.run(cpu, resource.RUSAGE_SELF).values())


def timed(backend: Backend, work, games: int) -> tuple[float, float, float, tuple[int, int]]:
    """(seconds to start, seconds to play, CPU seconds to play, (wins, guesses)).

    CPU seconds count every process that took part: this one (with the
    LocalCluster's scheduler), the forked processes, the Dask workers, but
    not the start-up of any of them; unlike seconds they hardly depend on
    what else the machine runs, so they show the overhead."""
    start = time.perf_counter()
    children = cpu(resource.RUSAGE_CHILDREN)
    with open_runner(backend) as runner:
        ready = time.perf_counter()
        if backend.dask:  # the workers import satsweeper on their first task: not the runs' cost
            runner.client.run(work, 0, 2)
            ready = time.perf_counter()
        here, there = cpu(resource.RUSAGE_SELF), worker_cpu(runner)
        results = [r for _, rs in runner.stream(work, games) for r in rs]
        done = time.perf_counter()
        spent = cpu(resource.RUSAGE_SELF) - here + worker_cpu(runner) - there
    if not backend.dask:  # forked processes: reaped when the pool closed
        spent += cpu(resource.RUSAGE_CHILDREN) - children
    return (ready - start, done - ready, spent,
            (sum(r.won for r in results), sum(r.guesses for r in results)))


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
        "--dask --workers 2 --chunk 7": Backend(workers=2, dask=True, chunk=7),
        "--dask --workers 2 --chunk 100": Backend(workers=2, dask=True, chunk=100),
    }
    best: dict[str, tuple[float, float, float]] = {}
    answers = set()
    for _ in range(rounds):  # rounds interleaved, so load changes hit every backend alike
        for name, backend in backends.items():
            *measured, answer = timed(backend, work, games)
            answers.add(answer)
            best[name] = tuple(min(a, b) for a, b in zip(best.get(name, measured), measured))
    if len(answers) != 1:
        raise SystemExit(f"backends disagree: {answers}")
    wins, guesses = answers.pop()
    _, base, base_cpu = best["this process"]
    click.echo(f"{games} {level} games, {strategy}, seed {seed}: {wins} wins, {guesses} guesses on "
               f"every backend; best of {rounds}; load average {os.getloadavg()[0]:.1f} on "
               f"{os.cpu_count()} cores")
    click.echo(f"| {'backend':<30} | start s | play s | games/s | speed-up | CPU s | CPU overhead |")
    click.echo(f"|{'-' * 32}|---------|--------|---------|----------|-------|--------------|")
    for name, (startup, seconds, spent) in best.items():
        click.echo(f"| {name:<30} | {startup:7.2f} | {seconds:6.2f} | {games / seconds:7.1f} | "
                   f"{base / seconds:8.2f} | {spent:5.2f} | {spent / base_cpu - 1:+12.1%} |")


if __name__ == "__main__":
    main()
