"""Fowler and Young's Basic Strategy: theorems 1 and 2, else a random guess.

Theorem 1 flags the hidden neighbours of a number that needs all of them;
theorem 2 opens the hidden neighbours of a number whose flags are complete.
When neither applies, open a random hidden cell.
"""

from __future__ import annotations

import random

from ..board import Board
from ..constraints import Positions
from . import Decision, guess_uniformly, obvious_decision


class BasicStrategy:
    """Single numbers first, random guesses otherwise."""

    name = "basic"

    def __init__(self) -> None:
        self.positions = Positions()

    def decide(self, board: Board, rng: random.Random) -> Decision:
        return obvious_decision(self.positions.problem(board)) or guess_uniformly(board, rng)
