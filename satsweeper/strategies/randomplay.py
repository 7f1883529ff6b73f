"""Level 0 of Fowler and Young: open a random hidden cell every move."""

from __future__ import annotations

import random

from ..board import Board
from . import Decision, check_explained, guess_uniformly


class RandomPlay:
    """Every move is a uniform guess among the hidden cells."""

    name = "random"
    check_consistency = True  # see strategies/__init__.py

    def decide(self, board: Board, rng: random.Random) -> Decision:
        if self.check_consistency:
            check_explained(board)
        return guess_uniformly(board, rng)
