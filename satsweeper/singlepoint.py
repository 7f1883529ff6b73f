"""The two obvious rules, applied one number at a time.

Seed 000's theorems 1 and 2 (Pedersen's single-point strategy): a number
whose missing mines equal its hidden neighbours makes them all mines; a
number whose flags are complete makes the rest safe.  The rules read only
what a player sees (numbers and flags) and act through the game's open and
flag moves.
"""

from __future__ import annotations

from .board import Board, Cell
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


def obvious_moves(board: Board) -> tuple[set[Cell], set[Cell]]:
    """(safe cells, mines) that some single number decides on a player's board.

    >>> from satsweeper.board import Board
    >>> obvious_moves(Board(1, 3, {(0, 0): 1}))
    (set(), {(0, 1)})
    """
    safe: set[Cell] = set()
    mines: set[Cell] = set()
    hidden_of = {}
    for cell in board.hidden_cells():
        for n in board.neighbours(cell):
            if n in board.clues:
                hidden_of.setdefault(n, []).append(cell)
    for clue, hidden in hidden_of.items():
        missing = board.clues[clue] - sum(1 for n in board.neighbours(clue) if n in board.flags)
        if missing == 0:
            safe.update(hidden)
        elif missing == len(hidden):
            mines.update(hidden)
    return safe - mines, mines - safe
