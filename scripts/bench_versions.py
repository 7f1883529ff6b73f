"""One strategy's time per game from two source trees, on the same games, in the same run.

``bench_play.py``'s calibration units compare runs made at different
moments, and on this shared machine they drift by a quarter with the load
(the pure-Python calibration loop and the games do not slow down alike).
To ask "is today's code slower than last week's?", run both in one go: two
worker processes, one importing ``satsweeper`` from each tree, take turns
on the same chunks of games (the order alternating from chunk to chunk), each
chunk is timed ``--rounds`` times and its best time kept.  The ratio
new/old is the figure; the wins are printed too, since a change meant only
for speed keeps every decision.

    git worktree add /tmp/old cd52750      # a compiled build needs, in it:
    (cd /tmp/old && python setup.py build_ext --inplace)   # (trees that have setup.py)
    python scripts/bench_versions.py /tmp/old --strategy exact --games 600

A worker plays every chunk in one process, as ``bench`` does: what a player
keeps between games (the endgame's store of positions on boards of at most
32 squares) serves later chunks, and the same chunk again in a later round.
On such boards give ``--rounds 1``, so that no game is timed twice.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import click

CHUNK = 50
HERE = Path(__file__).resolve()


def serve(level: str, strategy: str) -> None:
    """The worker: read "start stop" lines, play those games, answer "seconds wins"."""
    from satsweeper.experiments import play
    from satsweeper.game import LEVELS, FirstClick, Level

    board = LEVELS[level] if level in LEVELS else Level.parse(level)
    for line in sys.stdin:
        start, stop, seed = line.split()
        began = time.perf_counter()
        won = sum(play(board, strategy, f"{seed}:{i}", FirstClick.SAFE, (0, 0)).won
                  for i in range(int(start), int(stop)))
        print(time.perf_counter() - began, won, flush=True)


def worker(tree: Path, level: str, strategy: str) -> subprocess.Popen:
    # cwd outside both trees, so that only PYTHONPATH decides which satsweeper is imported
    return subprocess.Popen([sys.executable, str(HERE), "/", "--worker", "--level", level, "--strategy", strategy],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd="/",
                            env={**os.environ, "PYTHONPATH": str(tree)})


@click.command()
@click.argument("old", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("new", type=click.Path(exists=True, file_okay=False, path_type=Path), default=HERE.parent.parent)
@click.option("--strategy", default="exact", show_default=True)
@click.option("--level", default="expert", show_default=True, help="A level's name or WxHxM.")
@click.option("--games", default=600, show_default=True)
@click.option("--seed", default=3, show_default=True)
@click.option("--rounds", default=3, show_default=True, help="Times each chunk is played; its best time counts.")
@click.option("--worker", "is_worker", is_flag=True, hidden=True)
def main(old: Path, new: Path, strategy: str, level: str, games: int, seed: int, rounds: int,
         is_worker: bool) -> None:
    if is_worker:
        serve(level, strategy)
        return
    trees = [old.resolve(), new.resolve()]
    procs = [worker(tree, level, strategy) for tree in trees]
    starts = list(range(0, games, CHUNK))
    best = [[float("inf")] * len(starts) for _ in trees]
    wins = [0, 0]
    for round_ in range(rounds):
        for chunk, start in enumerate(starts):
            order = (0, 1) if (round_ + chunk) % 2 == 0 else (1, 0)  # neither always goes first
            for side in order:
                procs[side].stdin.write(f"{start} {min(games, start + CHUNK)} {seed}\n")
                procs[side].stdin.flush()
                answer = procs[side].stdout.readline().split()
                if not answer:
                    raise click.ClickException(f"the worker for {trees[side]} stopped (can it import satsweeper?)")
                best[side][chunk] = min(best[side][chunk], float(answer[0]))
                if round_ == 0:
                    wins[side] += int(answer[1])
    for proc in procs:
        proc.stdin.close()
        proc.wait()
    click.echo(f"{strategy}, {level}, {games} games of seed {seed}, first click safe in the corner, "
               f"best of {rounds} rounds per chunk of {CHUNK}, chunks interleaved")
    for label, tree, times, won in zip(("old", "new"), trees, best, wins):
        click.echo(f"{label}  {tree}  {1000 * sum(times) / games:8.2f} ms/game  {won} won")
    click.echo(f"time ratio new/old: {sum(best[1]) / sum(best[0]):.3f}")


if __name__ == "__main__":
    main()
