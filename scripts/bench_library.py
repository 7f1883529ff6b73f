"""Our own code against the library call that could replace it, in one run.

Each pair computes the same thing; the script checks they agree and prints
the time of each and the ratio (ours / library).  Where ours is kept, the code
says why with these numbers.

* Wilson interval: ``Summary.interval`` against ``scipy.stats.binomtest(...).proportion_ci(method="wilson")``.
* Minimal conflict (MUS by deletion): ``Reasoner.consistency().conflict``
  against python-sat's ``MUSX`` on the same rules (sequential-counter CNF,
  one soft unit per clue's selector), on expert positions made inconsistent
  by changing one number, without the total.
* Components of the frontier: our breadth-first search (``components._components``)
  against ``scipy.sparse.csgraph.connected_components`` on the same box graph.
* All probabilities on big mid-game boards (500x500 and 1000x1000 at 15%,
  ``positions.position(level, 0, 0.5)``): ``tally(problem_of(board))`` on the
  generator's board (numbers in a dict) and on the same board read from its
  text (numbers one byte a square); ``--baseline DIR`` also times another
  checkout's package on the dict board in a child process, for before/after.

    python scripts/bench_library.py [--positions 100] [--big/--no-big] [--baseline DIR]
"""

from __future__ import annotations

import random
import statistics
import time

import click

from satsweeper.board import Board
from satsweeper.constraints import Problem, problem_of
from satsweeper.encoding import CardinalityEncoding, Encoding
from satsweeper.experiments import Summary
from satsweeper.game import LEVELS
from satsweeper.positions import positions
from satsweeper.reasoning import Reasoner


def best_of(function, rounds: int = 3) -> tuple[float, object]:
    best, value = float("inf"), None
    for _ in range(rounds):
        start = time.perf_counter()
        value = function()
        best = min(best, time.perf_counter() - start)
    return best * 1000, value


def wilson() -> None:
    from scipy.stats import binomtest
    cases = [(n, k) for n in (10, 100, 1000, 100000) for k in (0, n // 7, n // 2, n)]

    def ours():
        return [Summary("s", "l", n, k, 0, 1.0).interval() for n, k in cases]

    def library():
        return [tuple(binomtest(k, n).proportion_ci(method="wilson")) for n, k in cases]

    a_ms, a = best_of(ours)
    b_ms, b = best_of(library)
    agree = all(abs(x - y) < 1e-9 for p, q in zip(a, b) for x, y in zip(p, q))
    print(f"Wilson interval, {len(cases)} cases: ours {a_ms:.3f} ms, scipy {b_ms:.3f} ms, "
          f"ratio {a_ms / b_ms:.3f}, agree: {agree}")


def broken(board: Board, rng: random.Random) -> Board | None:
    """``board`` with one number changed so that no layout explains it, or None."""
    for _ in range(20):
        cell = rng.choice(sorted(board.clues))
        clues = dict(board.clues)
        clues[cell] = rng.choice([n for n in range(9) if n != clues[cell]
                                  and n <= len(board.neighbours(cell))])
        changed = Board(board.height, board.width, clues, board.flags, board.voids, board.names, None)
        with Reasoner(problem_of(changed)) as r:
            if not r.consistency().consistent:
                return changed
    return None


def musx(problem: Problem) -> tuple:
    from pysat.examples.musx import MUSX
    from pysat.formula import WCNF
    encoding = Encoding(problem, CardinalityEncoding.SEQCOUNTER)
    formula = WCNF()
    for clause in encoding.clauses:
        formula.append(clause)
    origins = list(encoding.selectors)
    for origin in origins:
        formula.append([encoding.selectors[origin]], weight=1)
    with MUSX(formula, verbosity=0) as finder:
        found = finder.compute()
    return tuple(sorted((origins[i - 1] for i in found), key=str))


def conflicts(count: int) -> None:
    rng = random.Random(5)
    boards = [b for b in (broken(Board(p.height, p.width, p.clues, p.flags, p.voids, p.names, None), rng)
                          for p in positions(LEVELS["expert"], count, 3)) if b]
    ours_ms, theirs_ms, same_size = [], [], 0
    for board in boards:
        problem = problem_of(board)

        def ours():
            with Reasoner(problem) as r:
                return tuple(sorted(r.consistency().conflict, key=str))

        a_ms, a = best_of(ours)
        b_ms, b = best_of(lambda: musx(problem))
        ours_ms.append(a_ms)
        theirs_ms.append(b_ms)
        same_size += len(a) == len(b)
        for found in (a, b):  # both minimal: dropping any clue leaves a consistent rest
            for origin in found:
                rest = tuple(r for r in problem.constraints if r.origin in found and r.origin != origin)
                with Reasoner(Problem(problem.cells, rest)) as r:
                    assert r.consistency().consistent, "not minimal"
    ratios = [a / b for a, b in zip(ours_ms, theirs_ms)]
    print(f"minimal conflicts on {len(boards)} broken expert positions: ours median "
          f"{statistics.median(ours_ms):.2f} ms, MUSX {statistics.median(theirs_ms):.2f} ms, "
          f"ratio median {statistics.median(ratios):.2f} (p90 {sorted(ratios)[int(0.9 * len(ratios))]:.2f}); "
          f"both minimal on every one; same size on {same_size}")


def components(count: int) -> None:
    import numpy as np
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    from satsweeper.components import _components, _structure
    boards = positions(LEVELS["expert"], count, 4)
    structures = [_structure(problem_of(b)) for b in boards]
    ours_ms, theirs_ms = [], []
    for st in structures:
        a_ms, a = best_of(lambda: _components(st))
        edges = [(b, c) for b, rules in enumerate(st.box_rules) for r in rules for c in st.rule_boxes[r]]

        def library():
            n = len(st.boxes)
            rows, cols = zip(*edges) if edges else ((), ())
            graph = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n))
            return connected_components(graph, directed=False)[0]

        b_ms, b = best_of(library)
        assert len(a) <= b  # ours leaves out the floating boxes, which scipy counts alone
        ours_ms.append(a_ms)
        theirs_ms.append(b_ms)
    ratios = [a / b for a, b in zip(ours_ms, theirs_ms)]
    print(f"frontier components + BFS order on {len(structures)} expert positions: ours median "
          f"{statistics.median(ours_ms):.3f} ms (with the DP's sweep order), scipy connected_components "
          f"{statistics.median(theirs_ms):.3f} ms (labels only), ratio median {statistics.median(ratios):.2f}")


BIG_SNIPPET = """
import sys, time
from satsweeper.board import Board
from satsweeper.constraints import problem_of
from satsweeper.counting import tally
from satsweeper.textio import read_board
read = read_board(sys.argv[1])
board = Board(read.height, read.width, dict(read.clues), read.flags, read.voids, total_mines=read.total_mines)
best = float("inf")
for _ in range(3):
    start = time.perf_counter()
    answer = tally(problem_of(board))
    best = min(best, time.perf_counter() - start)
print(best * 1000, answer.count % 1000003)
"""


def big(baseline: str | None) -> None:
    import os
    import subprocess
    import sys
    import tempfile

    from satsweeper.counting import tally
    from satsweeper.game import Level
    from satsweeper.positions import position
    from satsweeper.textio import read_board, write_board
    with tempfile.TemporaryDirectory() as work:
        for size in (500, 1000):
            board = position(Level(size, size, size * size * 15 // 100), 0, 0.5)
            path = f"{work}/mid-{size}.txt"
            write_board(board, path)
            read = read_board(path)
            # A fresh board each round (a board keeps its grid of squares once
            # built), its numbers in a dict in row order as the baseline reads them.
            fresh = iter([Board(read.height, read.width, dict(read.clues), read.flags, read.voids,
                                total_mines=read.total_mines) for _ in range(3)])
            dict_ms, a = best_of(lambda: tally(problem_of(next(fresh))))
            fresh = iter([read_board(path) for _ in range(3)])
            grid_ms, b = best_of(lambda: tally(problem_of(next(fresh))))
            assert a.count == b.count and a.scaled_mines == b.scaled_mines
            line = (f"all probabilities, {size}x{size} at 15% ({len(board.hidden_cells())} hidden, "
                    f"{len(board.clues)} numbers): board with a dict {dict_ms:.0f} ms, "
                    f"read from text (one byte a square) {grid_ms:.0f} ms")
            if baseline:
                env = dict(os.environ, PYTHONPATH=baseline)
                out = subprocess.run([sys.executable, "-c", BIG_SNIPPET, path], env=env, cwd=work,
                                     capture_output=True, text=True, check=True).stdout.split()
                assert int(out[1]) == a.count % 1000003
                line += f"; baseline {float(out[0]):.0f} ms (ratio now/baseline {dict_ms / float(out[0]):.2f})"
            print(line, flush=True)


@click.command()
@click.option("--positions", "count", default=100, show_default=True, help="Positions per comparison.")
@click.option("--big/--no-big", "big_boards", default=True, show_default=True,
              help="Also time all probabilities on 500x500 and 1000x1000 mid-game boards.")
@click.option("--baseline", type=click.Path(exists=True, file_okay=False),
              help="Another checkout (a directory holding satsweeper/) to time on the big boards.")
def main(count: int, big_boards: bool, baseline: str | None) -> None:
    wilson()
    conflicts(count)
    components(count)
    if big_boards:
        big(baseline)


if __name__ == "__main__":
    main()
