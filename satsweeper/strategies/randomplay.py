"""Level 0 of Fowler and Young: open a random hidden cell every move."""

from __future__ import annotations

import random

from ..board import Board
from . import Decision, guess_uniformly


class RandomPlay:
    """Every move is a uniform guess among the hidden cells."""

    name = "random"

    def decide(self, board: Board, rng: random.Random) -> Decision:
        return guess_uniformly(board, rng)
