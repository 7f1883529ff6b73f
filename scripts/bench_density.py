"""No-guess layouts at any density, beside ms-toollib's generators.

For 30x16 with 99 to 190 mines, then Simon Tatham's dense presets 16x16/99
and 9x9/35, first click at 3,3 opening a region, it draws ``--boards``
layouts with each of

* ours, ``auto`` (the default: uniform draws, then ``clear``), ``perturb``
  and ``clear``, within the default budget of 2000 checks: success rate,
  median and max seconds per board;
* ms-toollib's ``laymine_solvable`` (filter: draw until no-guess, at most
  ``--ms-tries`` draws): success, median and max seconds;
* ms-toollib's ``laymine_solvable_adjust`` (adjust the layout until its
  solver is happy): success, median and max seconds, and how many of the
  boards it calls solvable our exact checker finds need a guess.

ms-toollib is an optional extra (``pip install satsweeper[peers]``).  Each of
its calls runs in a forked worker: it can abort the whole interpreter, and a
slow call is cut off after ``--ms-timeout`` seconds (counted as a failure).
It takes no seed, so its rows differ from run to run; ours are fixed by
``--seed``.  Once ``laymine_solvable`` fails every board of a row, denser
rows skip it ("-").

    python scripts/bench_density.py                    # the table of docs/measured.md
    python scripts/bench_density.py --boards 3 --mines 170
"""

from __future__ import annotations

import multiprocessing
import random
import statistics
import time

import click

import sys as _sys
from pathlib import Path as _Path
# benchmark.py beside it, whether run as python scripts/X.py or python -m scripts.X
_sys.path.insert(0, str(_Path(__file__).resolve().parent))
from benchmark import machine  # noqa: E402
from satsweeper.errors import TooComplexError
from satsweeper.game import Level
from satsweeper.puzzles import Method, generate, no_guess

START = (3, 3)
DEFAULT_MINES = (99, 110, 120, 130, 140, 150, 160, 170, 180, 190)
PRESETS = (Level(16, 16, 99), Level(9, 9, 35))


def _peer_child(conn, name: str, args: tuple) -> None:
    import ms_toollib
    began = time.perf_counter()
    board, ok = getattr(ms_toollib, name)(*args)
    seconds = time.perf_counter() - began
    mines = frozenset((r, c) for r, row in enumerate(board) for c, v in enumerate(row) if v == -1)
    conn.send((bool(ok), seconds, mines))


def peer(name: str, args: tuple, timeout: float) -> tuple[bool, float, frozenset | None]:
    """(success, seconds, mines) of one ms-toollib call in a forked worker."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    worker = context.Process(target=_peer_child, args=(send, name, args))
    worker.start()
    answer = receive.recv() if receive.poll(timeout) else None
    worker.join(1)
    if worker.is_alive():
        worker.kill()
        worker.join()
    if answer is None:  # cut off, or the worker died
        return False, timeout, None
    return answer


def ours(level: Level, method: Method, boards: int, seed: int) -> tuple[int, list[float]]:
    ok, seconds = 0, []
    for i in range(boards):
        began = time.perf_counter()
        try:
            generate(level, START, random.Random(seed * 100_000 + i), method)
        except TooComplexError:
            pass
        else:
            ok += 1
        seconds.append(time.perf_counter() - began)
    return ok, seconds


def cell(ok: int, boards: int, seconds: list[float]) -> str:
    if not seconds:
        return "-"
    return f"{ok}/{boards} {statistics.median(seconds):.3f} {max(seconds):.3f}"


@click.command()
@click.option("--boards", default=20, show_default=True, help="Boards per row and generator.")
@click.option("--mines", "mine_counts", multiple=True, type=int, help="30x16 rows (default 99..190).")
@click.option("--presets/--no-presets", default=True, show_default=True, help="Add 16x16/99 and 9x9/35.")
@click.option("--ms-tries", default=100_000, show_default=True, help="laymine_solvable's max_times.")
@click.option("--ms-timeout", default=30.0, show_default=True, help="Seconds before an ms-toollib call is cut off.")
@click.option("--seed", default=1, show_default=True)
def main(boards: int, mine_counts: tuple[int, ...], presets: bool, ms_tries: int, ms_timeout: float,
         seed: int) -> None:
    levels = [Level(30, 16, m) for m in (mine_counts or DEFAULT_MINES)] + (list(PRESETS) if presets else [])
    print(f"machine: {machine()}; first click {START[0]},{START[1]} (opening); {boards} boards per cell;")
    print("cells: successes, median s, max s per board; adjust 'guess': boards it called solvable "
          "that our checker finds need a guess\n")
    print(f"{'level':>10} {'density':>7} | {'auto':>18} | {'perturb':>18} | {'clear':>18} | "
          f"{'ms solvable':>18} | {'ms adjust':>18} {'guess':>5}")
    filter_failed = False
    for level in levels:
        row = [f"{str(level):>10} {level.mines / (level.width * level.height):>7.1%}"]
        for method in (Method.AUTO, Method.PERTURB, Method.CLEAR):
            ok, seconds = ours(level, method, boards, seed)
            row.append(f"{cell(ok, boards, seconds):>18}")
        if filter_failed and level.width == 30:
            row.append(f"{'-':>18}")
        else:
            runs = [peer("laymine_solvable", (level.height, level.width, level.mines, *START, ms_tries),
                         ms_timeout) for _ in range(boards)]
            ok = sum(r[0] for r in runs)
            filter_failed = filter_failed or (ok == 0 and level.width == 30)
            row.append(f"{cell(ok, boards, [r[1] for r in runs]):>18}")
        runs = [peer("laymine_solvable_adjust", (level.height, level.width, level.mines, *START), ms_timeout)
                for _ in range(boards)]
        ok = sum(r[0] for r in runs)
        guess = sum(1 for good, _, mines in runs
                    if good and mines is not None and not no_guess(level, mines, START).solved)
        row.append(f"{cell(ok, boards, [r[1] for r in runs]):>18} {guess:>5}")
        print(" | ".join(row), flush=True)


if __name__ == "__main__":
    main()
