"""Exact play when few explanations remain: the guess with the best chance to win.

With the explanations listed, the chance of winning from here is computed
exactly: opening a cell splits the explanations by the number it would show
(or kills the game in those where it is a mine); a cell safe in every
remaining explanation is opened for free.  The value of a guess is the
chance of surviving it times the value of what it reveals, maximised over
every later guess.  Memoised on the set of explanations left alone: every
cell safe in all of them is opened for free, and a cell opened earlier is
one of those (it showed the same number in all of them), so that set fixes
what the player knows.

Only worth it, and only tractable, when the explanations are few (an endgame,
or a small isolated region); :func:`best_guess` returns None otherwise.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Hashable

from ..board import Board
from ..constraints import Problem

# Most explanations to enumerate, and hidden cells to reason about.  400
# over 60 cells (possible since the memo keys on the explanations left) won
# more on the tuning seed (1500 expert games of seed 100: 10 won only with
# it, 2 only without, z = 2.31) and not on the held-out seed (1000 games of
# seed 900001: 3 against 7, z = -1.26), and may cost speed: no evidence
# either way, so the limits every published figure of best was measured
# with stay (Best(limit=400, most_cells=60) plays the bigger endgame).
LIMIT = 60
CELLS = 40


def explanations(problem: Problem, limit: int) -> list[frozenset] | None:
    """Every placement of mines satisfying ``problem``, or None if more than ``limit``.

    >>> from satsweeper.constraints import Constraint, Problem
    >>> p = Problem(("a", "b"), (Constraint(frozenset({"a", "b"}), 1, "r"),))
    >>> sorted(sorted(e) for e in explanations(p, 10))
    [['a'], ['b']]
    """
    cells = list(problem.cells)
    rules_of: dict[Hashable, list[int]] = {c: [] for c in cells}
    for i, rule in enumerate(problem.constraints):
        for c in rule.cells:
            rules_of[c].append(i)
    need = [rule.mines for rule in problem.constraints]
    room = [len(rule.cells) for rule in problem.constraints]
    total = problem.mines
    out: list[frozenset] = []
    chosen: list = []

    def place(index: int, placed: int) -> bool:
        if total is not None and (placed > total or placed + len(cells) - index < total):
            return True
        if index == len(cells):
            if all(n == 0 for n in need):
                out.append(frozenset(chosen))
            return len(out) <= limit
        cell = cells[index]
        rules = rules_of[cell]
        for mine in (False, True):
            ok = all(room[r] - 1 >= need[r] - mine >= 0 for r in rules)
            if not ok:
                continue
            for r in rules:
                need[r] -= mine
                room[r] -= 1
            if mine:
                chosen.append(cell)
            keep_going = place(index + 1, placed + mine)
            if mine:
                chosen.pop()
            for r in rules:
                need[r] += mine
                room[r] += 1
            if not keep_going:
                return False
        return True

    return out if place(0, 0) and len(out) <= limit else None


def best_guess(board: Board, problem: Problem, limit: int = None, most_cells: int = None
               ) -> tuple[Hashable, Fraction] | None:
    """The guess that maximises the chance of winning, and that chance; None if
    too big, or if some cell is safe in every explanation (open it, no guess).

    Counts are integers throughout: ``win`` is the number of explanations in
    which best play wins, so no fraction is formed until the answer.

    >>> from satsweeper.textio import parse_board
    >>> from satsweeper.constraints import problem_of
    >>> b = parse_board("mines: 1\\n1..\\n")   # one explanation: nothing to guess
    >>> best_guess(b, problem_of(b)) is None
    True
    >>> b = parse_board("mines: 1\\n.1.\\n")   # a true 50/50
    >>> best_guess(b, problem_of(b))[1]
    Fraction(1, 2)
    """
    if len(problem.cells) > (CELLS if most_cells is None else most_cells):
        return None
    found = explanations(problem, LIMIT if limit is None else limit)
    if not found or len(found) < 2:
        return None
    cells = tuple(problem.cells)
    flags = board.flags
    # Explanations are bits of an int.  mine[k]: those with cell k a mine;
    # shows[k][v]: those with cell k safe and showing v.
    mine = [0] * len(cells)
    shows: list[dict[int, int]] = [{} for _ in cells]
    for i, e in enumerate(found):
        bit = 1 << i
        for k, c in enumerate(cells):
            if c in e:
                mine[k] |= bit
            else:
                v = sum(1 for n in board.neighbours(c) if n in e or n in flags)
                shows[k][v] = shows[k].get(v, 0) | bit
    everyone = (1 << len(found)) - 1
    if not all(mine):
        return None  # a cell safe everywhere is no guess: open it first

    @lru_cache(maxsize=None)
    def win(alive: int) -> int:
        """Explanations among ``alive`` in which best play from here wins."""
        if alive & (alive - 1) == 0:  # one explanation left: everything is known
            return 1
        parts = [alive]
        for k in range(len(cells)):  # opening the free cells splits by what they show
            if not mine[k] & alive:
                parts = [p & m for p in parts for m in shows[k].values() if p & m]
        if len(parts) == 1:
            return guess(alive)[1]
        return sum(win(p) for p in parts)

    def guess(alive: int) -> tuple[int, int]:
        best_k, best = -1, -1
        # Most likely safe first: a guess can win at most where it survives.
        # A cell that is a mine nowhere was opened already; one that shows
        # the same number wherever it is safe tells nothing: it is only
        # worth its survival, so it is tried after the cells that inform.
        order = []
        for k in range(len(cells)):
            if mine[k] & alive:
                lives = alive & ~mine[k]
                dead = sum(1 for m in shows[k].values() if alive & m) <= 1
                order.append((dead, -lives.bit_count(), k))
        order.sort()
        for dead, lives, k in order:
            if -lives <= best:
                if dead:
                    break
                continue
            value = sum(win(alive & m) for m in shows[k].values() if alive & m)
            if value > best:
                best_k, best = k, value
        return best_k, best

    k, wins = guess(everyone)
    return cells[k], Fraction(wins, len(found))
