"""Perimeter strategy with exact probabilities (Fowler and Young's PS, done exactly).

Sure moves come from the single-number rules when they apply, else from the
pair rule (two nested numbers), else from the exact counting engine with the
total mine count (every cell safe or a mine in all explanations).  When
nothing is sure, open a cell of lowest exact mine probability, ties broken
at random.
"""

from __future__ import annotations

import random

from ..board import Board
from ..constraints import Positions
from . import Decision, certain_decision, check_explained, nothing_hidden


class ExactProbability:
    """Certain moves first; otherwise the least likely mine."""

    name = "exact"
    check_consistency = True  # see strategies/__init__.py

    def __init__(self) -> None:
        self.positions = Positions()

    def decide(self, board: Board, rng: random.Random) -> Decision:
        if self.check_consistency:
            check_explained(board)
        sure, problem, counts, _ = certain_decision(board, self.positions)
        if sure:
            return sure
        if not problem.cells:
            raise nothing_hidden()
        return Decision(opens=(rng.choice(counts.safest()),), guess=True)
