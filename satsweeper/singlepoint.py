"""The two obvious rules, applied one number at a time.

Seed 000's theorems 1 and 2 (Pedersen's single-point strategy): a number
whose missing mines equal its hidden neighbours makes them all mines; a
number whose flags are complete makes the rest safe.  The rules read only
what a player sees (numbers and flags) and act through the game's open and
flag moves.
"""

from __future__ import annotations

from .board import Cell
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
                    work.extend(game.recent)
        elif missing == len(hidden):
            for n in hidden:
                decided += 1
                game.flag(n)
                work.extend(m for m in neighbours(level, n) if m in game.revealed)
    return decided


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
