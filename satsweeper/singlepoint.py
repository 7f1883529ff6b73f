"""The two obvious rules, applied one number at a time, and the pair rule.

Fowler and Young's theorems 1 and 2 (Pedersen's single-point strategy): a number
whose missing mines equal its hidden neighbours makes them all mines; a
number whose flags are complete makes the rest safe.  The rules read only
what a player sees (numbers and flags) and act through the game's open and
flag moves.  The pair rule (:func:`pair_moves`) compares two numbers whose
hidden cells nest.
"""

from __future__ import annotations

from .board import Cell
from .compiled import take_build
from .constraints import Problem
from .game import Game, neighbours


def propagate(game: Game, work: list[Cell]) -> int:
    """Apply the rules from the numbers in ``work`` until they are stuck.

    Returns how many cells the rules decided (cells a 0 opened for free do
    not count).

    >>> from satsweeper.game import Level
    >>> g = Game(Level(3, 1, 1), frozenset({(0, 1)}))
    >>> _ = g.open((0, 0))
    >>> propagate(g, [(0, 0)]), sorted(g.flags)
    (1, [(0, 1)])
    """
    level, decided = game.level, 0
    while work:
        cell = work.pop()
        number = game.revealed.get(cell)
        if number is None:
            continue
        around = neighbours(level, cell)
        hidden = [n for n in around if n not in game.revealed and n not in game.flags]
        if not hidden:
            continue
        missing = number - sum(1 for n in around if n in game.flags)
        if missing == 0:
            for n in hidden:
                if n not in game.revealed:
                    decided += 1
                    game.open(n)
                    work.extend(touched(game, game.recent))
        elif missing == len(hidden):
            for n in hidden:
                decided += 1
                game.flag(n)
                work.extend(touched(game, [n]))
    return decided


def touched(game: Game, changed: list[Cell]) -> list[Cell]:
    """The numbers to look at again after ``changed`` cells were opened or flagged.

    The new numbers themselves, and every number next to a changed cell (it
    lost a hidden neighbour, so a rule may now apply to it).

    >>> from satsweeper.game import Level
    >>> g = Game(Level(3, 1, 1), frozenset({(0, 2)}))
    >>> _ = g.open((0, 1))
    >>> g.flag((0, 2)); touched(g, [(0, 2)])
    [(0, 1)]
    """
    seen = dict.fromkeys(c for c in changed if c in game.revealed)
    for cell in changed:
        for n in neighbours(game.level, cell):
            if n in game.revealed:
                seen[n] = None
    return list(seen)


def play_sure(game: Game, mines, safe) -> list[Cell]:
    """Flag ``mines`` and open ``safe`` (all sure); the numbers to look at again.

    >>> from satsweeper.game import Level
    >>> g = Game(Level(3, 1, 1), frozenset({(0, 2)}))
    >>> _ = g.open((0, 0))  # a 0: opens the 1 at (0, 1) too
    >>> play_sure(g, [(0, 2)], [])  # the 1 beside the new flag is looked at again
    [(0, 1)]
    """
    work: list[Cell] = []
    for cell in mines:
        game.flag(cell)
        work.extend(touched(game, [cell]))
    for cell in safe:
        game.open(cell)
        work.extend(touched(game, game.recent))
    return work


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
