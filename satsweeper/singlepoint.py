"""The two obvious rules, applied one number at a time, and the pair rule.

Fowler and Young's theorems 1 and 2 (Pedersen's single-point strategy): a number
whose missing mines equal its hidden neighbours makes them all mines; a
number whose flags are complete makes the rest safe.  The rules read only
what a player sees, a :class:`~satsweeper.constraints.Problem`, and return
the moves they make; :mod:`satsweeper.propagation` plays them through a
game.  The pair rule (:func:`pair_moves`) compares two numbers whose
hidden cells nest.
"""

from __future__ import annotations

from .compiled import take_build
from .constraints import Problem


def obvious_moves(problem: Problem) -> tuple[set, set]:
    """(safe cells, mines) that some single rule decides on its own.

    A rule that needs no more mines makes its cells safe; a rule that needs
    all of its cells makes them mines.  On a board's problem these are the
    two single-number rules.

    >>> from satsweeper.board import Board
    >>> from satsweeper.constraints import problem_of
    >>> obvious_moves(problem_of(Board(1, 3, {(0, 0): 1})))
    (set(), {(0, 1)})
    """
    safe: set = set()
    mines: set = set()
    for rule in problem.constraints:
        if rule.mines == 0:
            safe.update(rule.cells)
        elif rule.mines == len(rule.cells):
            mines.update(rule.cells)
    return safe - mines, mines - safe


def settled_moves(problem: Problem) -> tuple[set, set]:
    """(safe cells, mines) the single rules decide when what each decides is
    fed back into the others until nothing changes: what a player who only
    flags by the single-number rules knows (no cell is opened: its number is
    not known).  What a timed-out query can still say.

    >>> from satsweeper.board import Board
    >>> from satsweeper.constraints import problem_of
    >>> p = problem_of(Board(1, 4, {(0, 0): 1, (0, 2): 1}))
    >>> obvious_moves(p), settled_moves(p)
    ((set(), {(0, 1)}), ({(0, 3)}, {(0, 1)}))
    """
    rules = [(frozenset(rule.cells), rule.mines) for rule in problem.constraints]
    safe: set = set()
    mines: set = set()
    changed = True
    while changed:
        changed = False
        for cells, need in rules:
            open_cells = cells - safe - mines
            if not open_cells:
                continue
            left = need - len(cells & mines)
            if left == 0:
                safe |= open_cells
                changed = True
            elif left == len(open_cells):
                mines |= open_cells
                changed = True
    return safe - mines, mines - safe


def pair_moves(problem: Problem) -> tuple[set, set]:
    """(safe cells, mines) that two nested rules decide together.

    If rule A's cells lie inside rule B's, the cells of B outside A hold
    ``B.mines - A.mines`` mines: none makes them safe, as many as there
    are cells makes them mines.  Cheap and local: a player asks this
    before counting everything.

    >>> from satsweeper.board import Board
    >>> from satsweeper.constraints import problem_of
    >>> safe, mines = pair_moves(problem_of(Board(2, 3, {(0, 0): 1, (0, 1): 1})))
    >>> sorted(safe), sorted(mines)
    ([(0, 2), (1, 2)], [])
    """
    rules_of: dict = {}
    for rule in problem.constraints:
        for cell in rule.cells:
            rules_of.setdefault(cell, []).append(rule)
    safe: set = set()
    mines: set = set()
    for a in problem.constraints:
        if not a.cells:
            continue
        # Every B containing A shares A's cells: look among one cell's rules.
        for b in rules_of[next(iter(a.cells))]:
            if b is a or len(b.cells) <= len(a.cells) or not a.cells <= b.cells:
                continue
            outside, owed = b.cells - a.cells, b.mines - a.mines
            if owed == 0:
                safe.update(outside)
            elif owed == len(outside):
                mines.update(outside)
    return safe - mines, mines - safe


# setup.py compiles this file with Cython (why: its NAMES); the build serves only while made
# from this very text (satsweeper.compiled).
COMPILED = take_build(globals(), "singlepoint")
