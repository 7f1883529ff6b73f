"""satsweeper beside ms-toollib (Rust, PyPI) on the same positions.

Both engines see the same positions, generated once here: expert and
intermediate states from :mod:`satsweeper.positions` (every other one the
first point where the obvious rules get stuck, the others a random mid-game
stop), endgame positions with 1 to 4 hidden cells (every other square
opened or flagged), and NxN boards at 15-20%.  Position by position the two
engines run interleaved, best of ``--repeat`` each, and every workload
prints median / p90 / max of each engine and of the ratio
satsweeper / ms-toollib (below 1: we are faster).

Workloads:

* ``probs``: every hidden cell's mine probability.  ms-toollib's
  ``cal_probability_onboard(board, total)`` (floats) against our
  ``tally(board)`` (exact counts: probability = mines / count).
* ``determined``: the cells that are safe or mines in every explanation.
  ms-toollib's ``get_all_not_and_is_mine_on_board(board)`` (which ignores
  the total mine count) against our ``solve(board)`` (with the total).
* ``cold``: the whole process for one expert board, ``python -c 'import
  ms_toollib; ...'`` against ``python -m satsweeper probs FILE --json``,
  with bytecode cached as after ``pip install`` (a warm-up run fills it).

ms-toollib takes its own input, a list of rows (0-8 numbers, 10 hidden,
11 flag), built before the clock starts; we take a :class:`Board`, built
before the clock too.  What is timed: for ms-toollib the call alone (its
reading of the rows included); for us ``solve(board)`` / ``tally(board)``
whole, reading the Board's dict of numbers and flags included, nothing
cached between calls on the same board.  The boards come from
:class:`~satsweeper.game.Game`, whose cells are the tuples of
:func:`~satsweeper.board.grid`, so our reader matches most of them by
identity; the same boards with tuples of their own (as parsed from text)
took 1-3% longer in ``solve``.  ``solve``'s answer maps every hidden cell to its status,
but only the cells whose status differs from the floating cells' get an
entry of their own; the list of hidden cells is made when first walked
(not timed; ms-toollib answers with the lists of safe cells and mines).
ms-toollib runs in a forked worker process (it aborts the interpreter on
contradictory boards); the worker times its own call, so the pipe costs
nothing.

Answers are compared where both are defined: probabilities agree to 1e-9
(both use the total); ms-toollib's determined cells are among those we find
without the total, which are among those we find with it; the script counts
the positions where ms-toollib misses some that the numbers alone decide,
and those where the total decides more (``--no-check`` skips this).

Needs the ``peers`` extra: ``pip install 'satsweeper[peers]'``.

    PYTHONPATH=. python scripts/bench_peers.py               # the whole table
    PYTHONPATH=. python scripts/bench_peers.py --quick       # 50 positions, no 500x500
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import click

import sys as _sys
from pathlib import Path as _Path
# benchmark.py beside it, whether run as python scripts/X.py or python -m scripts.X
_sys.path.insert(0, str(_Path(__file__).resolve().parent))
from benchmark import machine, summary  # noqa: E402
from satsweeper import bitboard
from satsweeper.board import Board
from satsweeper.counting import tally
from satsweeper.game import LEVELS, Game, Level, neighbours
from satsweeper.positions import position
from satsweeper.reasoning import Status, solve
from satsweeper.textio import format_board

HIDDEN, FLAG = 10, 11


def matrix(board: Board) -> list[list[int]]:
    """ms-toollib's view of a board: rows of 0-8, 10 (hidden), 11 (flag)."""
    rows = [[HIDDEN] * board.width for _ in range(board.height)]
    for (r, c), n in board.clues.items():
        rows[r][c] = n
    for r, c in board.flags:
        rows[r][c] = FLAG
    return rows


# ------------------------------------------------------------------ positions

def states(level: Level, count: int, seed: int) -> list[Board]:
    """Every other position the first stuck point of its game, the others a random stop."""
    out, game = [], seed
    while len(out) < count:
        board = position(level, game, 0.0 if len(out) % 2 == 0 else None)
        game += 1
        if board is not None:
            out.append(board)
    return out


def endgames(level: Level, count: int, seed: int) -> list[Board]:
    """Positions with 1 to 4 hidden cells around one spot: everything else opened or flagged."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = Game.new(level, rng, (level.height // 2, level.width // 2))
        spot = (rng.randrange(level.height), rng.randrange(level.width))
        near = list(neighbours(level, spot))
        rng.shuffle(near)
        hidden = {spot, *near[:rng.randrange(4)]}
        clues = {(r, c): game.number((r, c)) for r in range(level.height) for c in range(level.width)
                 if (r, c) not in hidden and (r, c) not in game.mines}
        flags = game.mines - hidden
        out.append(Board(level.height, level.width, clues, flags, total_mines=level.mines))
    return out


# ------------------------------------------------------------------ ms-toollib worker

def _serve(conn) -> None:
    import ms_toollib
    while True:
        job = conn.recv()
        if job is None:
            return
        name, rows, args = job
        began = time.perf_counter()
        answer = getattr(ms_toollib, name)(rows, *args)
        seconds = time.perf_counter() - began
        conn.send((seconds, answer))


class Peer:
    """ms-toollib in a forked process, restarted if a call kills it."""

    def __init__(self) -> None:
        self._start()

    def _start(self) -> None:
        context = multiprocessing.get_context("fork")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child,), daemon=True)
        self.process.start()

    def call(self, name: str, rows: list, *args) -> tuple[float, object] | None:
        """(milliseconds, answer) of one call on a fresh copy of ``rows``, or None if it died."""
        try:
            self.conn.send((name, [row[:] for row in rows], args))
            seconds, answer = self.conn.recv()
            return seconds * 1000, answer
        except (EOFError, BrokenPipeError, ConnectionResetError):
            self.process.join()
            self._start()
            return None

    def close(self) -> None:
        self.conn.send(None)
        self.process.join()


def ours_ms(fn, board, repeat: int) -> tuple[float, object]:
    best, answer = float("inf"), None
    for _ in range(repeat):
        began = time.perf_counter()
        answer = fn(board)
        best = min(best, time.perf_counter() - began)
    return best * 1000, answer


# ------------------------------------------------------------------ answers

def agree_probs(board: Board, theirs, ours) -> bool:
    probabilities = theirs[0]
    return all(abs(probabilities[r][c] - ours.mines[(r, c)] / ours.count) < 1e-9
               for r, c in board.hidden_cells())


def determined(solution) -> tuple[set, set]:
    return set(solution.cells_with(Status.SAFE)), set(solution.cells_with(Status.MINE))


def agree_determined(board: Board, theirs, ours) -> tuple[bool, bool]:
    """(ms-toollib's cells are among ours, ours with the total find more)."""
    _, safe, mines = theirs
    their_safe, their_mines = set(map(tuple, safe)), set(map(tuple, mines))
    our_safe, our_mines = determined(ours)
    free_safe, free_mines = determined(solve(Board(board.height, board.width, board.clues, board.flags)))
    assert their_safe <= free_safe and their_mines <= free_mines, "ms-toollib found a cell we did not"
    assert free_safe <= our_safe and free_mines <= our_mines, "the total took a cell away"
    complete = (their_safe, their_mines) == (free_safe, free_mines)
    return complete, (our_safe, our_mines) != (free_safe, free_mines)


# ------------------------------------------------------------------ workloads

def probs(board: Board):
    return tally(board)


def compare(peer: Peer, workload: str, boards: list[Board], repeat: int, check: bool) -> dict:
    theirs_t, ours_t, ratios, notes = [], [], [], {"disagree": 0, "died": 0, "incomplete": 0, "total helps": 0}
    if boards:
        # One untimed call first, as ms-toollib's worker is started and imported before it
        # is timed: otherwise a workload run alone (the 500x500, one call) times numpy's import.
        # On a copy, so that the timed board's cached grids are not already made.
        b = boards[0]
        ours_ms(probs if workload == "probs" else solve,
                Board(b.height, b.width, b.clues, b.flags, b.voids, b.names, b.total_mines), 1)
    for board in boards:
        rows = matrix(board)
        if workload == "probs":
            name, args, fn = "cal_probability_onboard", (board.total_mines,), probs
        else:
            name, args, fn = "get_all_not_and_is_mine_on_board", (), solve
        best_theirs, their_answer, best_ours, our_answer = float("inf"), None, float("inf"), None
        for _ in range(repeat):  # interleaved: one of theirs, one of ours
            got = peer.call(name, rows, *args)
            if got is None:
                break
            best_theirs, their_answer = min(best_theirs, got[0]), got[1]
            ms, our_answer = ours_ms(fn, board, 1)
            best_ours = min(best_ours, ms)
        if their_answer is None:
            notes["died"] += 1
            continue
        theirs_t.append(best_theirs)
        ours_t.append(best_ours)
        ratios.append(best_ours / best_theirs)
        if check and workload == "probs":
            if not agree_probs(board, their_answer, our_answer):
                notes["disagree"] += 1
                notes.setdefault("example", "; ".join(
                    f"{r},{c}: ms-toollib {their_answer[0][r][c]:.4g}, ours {our_answer.probability((r, c))}"
                    for r, c in board.hidden_cells()) + f" ({board.total_mines - len(board.flags)} mines left)")
        elif check:
            complete, helps = agree_determined(board, their_answer, our_answer)
            notes["incomplete"] += not complete
            notes["total helps"] += helps
    return {"theirs": theirs_t, "ours": ours_t, "ratio": ratios, "notes": notes}


def cold(runs: int) -> dict:
    """Process times: import + first call, one expert position, interleaved."""
    board = states(LEVELS["expert"], 1, 4)[0]
    with tempfile.TemporaryDirectory() as tmp:
        board_file = os.path.join(tmp, "expert.txt")
        rows_file = os.path.join(tmp, "expert.json")
        with open(board_file, "w") as out:
            out.write(format_board(board))
        with open(rows_file, "w") as out:
            json.dump(matrix(board), out)
        theirs_cmd = [sys.executable, "-c",
                      "import json, sys, ms_toollib; "
                      f"print(ms_toollib.cal_probability_onboard(json.load(open(sys.argv[1])), {board.total_mines})[1])",
                      rows_file]
        ours_cmd = [sys.executable, "-m", "satsweeper", "probs", board_file, "--json"]
        bare_cmd = [sys.executable, "-c", "pass"]
        # Bytecode cached as an installed package has it (pip compiles it): a
        # PYTHONDONTWRITEBYTECODE environment would otherwise time our compiler,
        # not our start.  One run of each fills the cache first.
        env = dict(os.environ, PYTHONPATH=os.getcwd(), PYTHONPYCACHEPREFIX=os.path.join(tmp, "pycache"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for cmd in (theirs_cmd, ours_cmd, bare_cmd):
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
        times = {"theirs": [], "ours": [], "bare": [], "ratio": []}
        for _ in range(runs):
            one = {}
            for key, cmd in (("theirs", theirs_cmd), ("ours", ours_cmd), ("bare", bare_cmd)):
                began = time.perf_counter()
                subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
                one[key] = (time.perf_counter() - began) * 1000
                times[key].append(one[key])
            times["ratio"].append(one["ours"] / one["theirs"])
        return times


# ------------------------------------------------------------------ printing

def line(label: str, result: dict) -> str:
    t, o, r = (summary(result[k]) for k in ("theirs", "ours", "ratio"))
    return (f"{label:<30} {t['n']:>4} | {t['median']:>9.3f} {t['p90']:>9.3f} {t['max']:>9.3f} | "
            f"{o['median']:>9.3f} {o['p90']:>9.3f} {o['max']:>9.3f} | "
            f"{r['median']:>6.2f} {r['p90']:>6.2f} {r['max']:>6.2f}")


HEADER = (f"{'workload':<30} {'n':>4} | {'ms-toollib ms: median':>29} | {'satsweeper ms: median':>29} | "
          f"{'ratio: median':>20}\n{'':<30} {'':>4} | {'':>9} {'p90':>9} {'max':>9} | {'':>9} {'p90':>9} {'max':>9} | "
          f"{'':>6} {'p90':>6} {'max':>6}")


@click.command()
@click.option("--count", default=200, show_default=True, help="Positions per expert / intermediate set.")
@click.option("--endgames", "endgame_count", default=200, show_default=True, help="Endgame positions.")
@click.option("--repeat", default=3, show_default=True, help="Best of this many calls per position.")
@click.option("--seed", default=0, show_default=True)
@click.option("--huge/--no-huge", default=True, show_default=True, help="Also 500x500 (about 45 s per ms-toollib call).")
@click.option("--cold-runs", default=10, show_default=True, help="Process pairs for the cold start.")
@click.option("--check/--no-check", default=True, show_default=True, help="Compare the answers.")
@click.option("--quick", is_flag=True, help="50 positions per set, no 500x500, 5 cold runs.")
@click.option("--only", multiple=True, help="Run only workloads whose label contains this.")
def main(count: int, endgame_count: int, repeat: int, seed: int, huge: bool, cold_runs: int,
         check: bool, quick: bool, only: tuple[str, ...]) -> None:
    if quick:
        count, endgame_count, huge, cold_runs = 50, 50, False, 5
    import ms_toollib  # noqa: F401  (fail early without the peers extra)
    from importlib.metadata import version
    # Which build of bitboard.py runs (see its docstring): a stale or missing one runs as Python.
    print(f"machine: {machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; "
          f"ms-toollib {version('ms-toollib')}; bitboard {'compiled' if bitboard.COMPILED else 'as Python'}")
    print(f"command: python scripts/bench_peers.py {' '.join(sys.argv[1:])}".rstrip())
    sets = {name: states(LEVELS[name], count, seed) for name in ("expert", "intermediate")}
    ends = endgames(LEVELS["expert"], endgame_count, seed)
    big = [("100x100 20%", Level(100, 100, 2000), 3, repeat)]
    if huge:
        big.append(("500x500 15%", Level(500, 500, 37500), 1, 1))
    plan = [(f"{w} {name}", w, boards) for w in ("probs", "determined") for name, boards in sets.items()]
    plan += [(f"{w} endgame 1-4 hidden", w, ends) for w in ("probs", "determined")]
    for label, level, n, times in big:
        boards = [b for b in (position(level, seed + i, 0.5) for i in range(n)) if b is not None]
        plan.append((f"probs {label}", "probs", boards, times))
    plan = [p if len(p) == 4 else (*p, repeat) for p in plan]
    print(HEADER, flush=True)
    peer = Peer()
    notes = []
    try:
        for label, workload, boards, times in plan:
            if only and not any(o in label for o in only):
                continue
            result = compare(peer, workload, boards, times, check)
            print(line(label, result), flush=True)
            notes.append((label, result["notes"]))
    finally:
        peer.close()
    if cold_runs and (not only or any(o in "cold start" for o in only)):
        result = cold(cold_runs)
        print(line("cold start probs expert", result), flush=True)
        bare = statistics.median(result["bare"])
        print(f"  (python -c pass alone: median {bare:.1f} ms)")
    if check:
        print("\nanswers:")
        for label, n in notes:
            if label.startswith("probs"):
                print(f"  {label}: probabilities differ by more than 1e-9 on {n['disagree']} positions"
                      + (f"; ms-toollib died on {n['died']}" if n["died"] else "")
                      + (f"\n    first: {n['example']}" if "example" in n else ""))
            else:
                print(f"  {label}: ms-toollib's cells always among ours; it misses cells that the numbers "
                      f"alone decide on {n['incomplete']} positions; the total decides more cells on "
                      f"{n['total helps']}" + (f"; ms-toollib died on {n['died']}" if n["died"] else ""))


if __name__ == "__main__":
    main()
