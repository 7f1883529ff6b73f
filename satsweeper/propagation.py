"""The single-point rules played through a game, number by number, as a
player who sees only the numbers and flags would play them (the game's own
open and flag moves; a 0 opens its area).  The players of ``difficulty.py``
and ``puzzles.py`` and the positions of ``positions.py`` are made so.

Apart from :mod:`satsweeper.singlepoint`, which reads a ``Problem`` only:
the strategies import that one, and never see a ``Game``, which holds the
mines (tests/test_layout.py checks it).  Compiled with Cython as
singlepoint.py was (``setup.py``'s ``NAMES``): the difficulty ladder calls
these for every move.
"""

from __future__ import annotations

from .board import Cell
from .compiled import take_build
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


# setup.py compiles this file with Cython (why: its NAMES); the build serves only while made
# from this very text (satsweeper.compiled).
COMPILED = take_build(globals(), "propagation")
