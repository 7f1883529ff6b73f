"""Exact play when few explanations remain: the guess with the best chance to win.

With the explanations listed, the chance of winning from here is computed
exactly: opening a cell splits the explanations by the number it would show
(or kills the game in those where it is a mine); a cell safe in every
remaining explanation is opened for free.  The value of a guess is the
chance of surviving it times the value of what it reveals, maximised over
every later guess.  Memoised on (explanations left, cells opened).

Only worth it, and only tractable, when the explanations are few (an endgame,
or a small isolated region); :func:`best_guess` returns None otherwise.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Hashable

from ..board import Board
from ..constraints import Problem

LIMIT = 60          # most explanations to enumerate
CELLS = 40          # most hidden cells to reason about


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


def best_guess(board: Board, problem: Problem) -> tuple[Hashable, Fraction] | None:
    """The guess that maximises the chance of winning, and that chance; None if too big.

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
    if len(problem.cells) > CELLS:
        return None
    found = explanations(problem, LIMIT)
    if not found or len(found) < 2:
        return None
    cells = tuple(problem.cells)
    flags = board.flags
    # The number each cell would show in each explanation.
    shows = {c: tuple(sum(1 for n in board.neighbours(c) if n in e or n in flags) for e in found)
             for c in cells}
    mine_in = {c: tuple(c in e for e in found) for c in cells}

    @lru_cache(maxsize=None)
    def win(alive: frozenset, opened: frozenset) -> int:
        """Explanations among ``alive`` in which best play from here wins."""
        if len(alive) == 1:
            return 1
        free = [c for c in cells if c not in opened and not any(mine_in[c][i] for i in alive)]
        if free:
            parts: dict[tuple, set] = {}
            for i in alive:
                parts.setdefault(tuple(shows[c][i] for c in free), set()).add(i)
            now = opened | frozenset(free)
            if len(parts) == 1:
                return guess(alive, now)[1]
            return sum(win(frozenset(p), now) for p in parts.values())
        return guess(alive, opened)[1]

    def guess(alive: frozenset, opened: frozenset) -> tuple[Hashable, int]:
        best_cell, best = None, -1
        for c in cells:
            if c in opened:
                continue
            parts: dict[int, set] = {}
            for i in alive:
                if not mine_in[c][i]:
                    parts.setdefault(shows[c][i], set()).add(i)
            if not parts:
                continue
            value = sum(win(frozenset(p), opened | {c}) for p in parts.values())
            if value > best:
                best_cell, best = c, value
        return best_cell, best

    cell, wins = guess(frozenset(range(len(found))), frozenset())
    return cell, Fraction(wins, len(found))
