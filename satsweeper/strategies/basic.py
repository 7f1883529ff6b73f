"""Fowler and Young's Basic Strategy: theorems 1 and 2, else a random guess.

Theorem 1 flags the hidden neighbours of a number that needs all of them;
theorem 2 opens the hidden neighbours of a number whose flags are complete.
When neither applies, open a random hidden cell.
"""

from __future__ import annotations

import random

from ..board import Board
from ..constraints import Positions
from . import Decision, check_explained, guess_uniformly, obvious_decision


class BasicStrategy:
    """Single numbers first, random guesses otherwise."""

    name = "basic"
    check_consistency = True  # see strategies/__init__.py

    def __init__(self) -> None:
        self.positions = Positions()

    def decide(self, board: Board, rng: random.Random) -> Decision:
        if self.check_consistency:
            check_explained(board)
        return obvious_decision(self.positions.problem(board)) or guess_uniformly(board, rng)
