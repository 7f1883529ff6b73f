"""Perimeter strategy with exact probabilities (seed 000's PS, done exactly).

Sure moves come from the single-number rules when they apply, else from the
exact counting engine with the total mine count (every cell safe or a mine
in all explanations).  When nothing is sure, open a cell of lowest exact
mine probability, ties broken at random.
"""

from __future__ import annotations

import random

from ..board import Board
from ..counting import tally
from ..singlepoint import obvious_moves
from . import Decision


class ExactProbability:
    """Certain moves first; otherwise the least likely mine."""

    name = "exact"

    def decide(self, board: Board, rng: random.Random) -> Decision:
        safe, mines = obvious_moves(board)
        if safe or mines:
            return Decision(opens=tuple(sorted(safe)), flags=tuple(sorted(mines)))
        counts = tally(board)
        if not counts.consistent:
            raise ValueError("a consistent position (got one no layout explains)")
        sure_safe = [c for c, m in counts.scaled_mines.items() if m == 0]
        sure_mines = [c for c, m in counts.scaled_mines.items() if m == counts.scaled_count]
        if sure_safe or sure_mines:
            return Decision(opens=tuple(sure_safe), flags=tuple(sure_mines))
        return Decision(opens=(rng.choice(counts.safest()),), guess=True)
