"""Pedersen's single point strategy (algorithm 1).

It keeps a queue S of sure moves, without repeats.  After every move it
looks only around the square just opened or flagged: a 0 makes all its
neighbours safe;
otherwise each revealed neighbour n whose flags complete its number makes
n's other neighbours safe (queued at the back), and each whose hidden
neighbours are exactly the mines it still needs makes them mines (queued at
the front: a mine is the rarer, more informative fact).  With S empty it
opens a random unopened square.

Unlike ``basic``, which re-reads every number each turn, this strategy only
reasons next to the squares it has just seen revealed, as Pedersen's does;
our simulator opens a 0's region at once, so every square revealed since the
last turn counts as just revealed.  The queue is the only memory: the board
is still all it sees.
"""

from __future__ import annotations

import random
from collections import OrderedDict

from ..board import Board, Cell
from . import Decision, check_explained, guess_uniformly


class SinglePoint:
    """Sure moves found next to the last revealed squares, in queue order."""

    name = "single-point"
    check_consistency = True  # see strategies/__init__.py

    def __init__(self) -> None:
        self.queue: OrderedDict[Cell, bool] = OrderedDict()  # cell -> is a mine
        self.seen: set[Cell] = set()

    def decide(self, board: Board, rng: random.Random) -> Decision:
        if self.check_consistency:
            check_explained(board)
        fresh = [cell for cell in (*board.clues, *board.flags) if cell not in self.seen]
        self.seen.update(fresh)
        for cell in sorted(fresh):
            self._look_around(board, cell)
        while self.queue:
            cell, mine = self.queue.popitem(last=False)
            if board.is_hidden(cell):
                return Decision(flags=(cell,)) if mine else Decision(opens=(cell,))
        return guess_uniformly(board, rng)

    def _look_around(self, board: Board, x: Cell) -> None:
        """Algorithm 1 after the move at ``x`` (an opened square or a flag)."""
        if board.clues.get(x) == 0:
            self._queue(board.neighbours(x), board, mine=False)
            return
        for n in board.neighbours(x):
            if n not in board.clues:
                continue
            near = board.neighbours(n)
            flags = sum(1 for c in near if c in board.flags)
            hidden = [c for c in near if board.is_hidden(c)]
            if board.clues[n] == flags:
                self._queue(hidden, board, mine=False)
            elif board.clues[n] == flags + len(hidden):
                self._queue(hidden, board, mine=True)

    def _queue(self, cells, board: Board, mine: bool) -> None:
        for cell in cells:
            if board.is_hidden(cell) and cell not in self.queue:
                self.queue[cell] = mine
                if mine:
                    self.queue.move_to_end(cell, last=False)
