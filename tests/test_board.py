"""Board: what no position can be is refused when the board is made."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings

from satsweeper.board import Board
from satsweeper.errors import InputError
from satsweeper.game import Game, Level, Outcome
from satsweeper.reasoning import solve
from satsweeper.strategies import strategy

from .strategies import boards


class TestRefused:
    """A caller's slip is an InputError naming it, not a KeyError, a TypeError or a wrong answer."""

    @pytest.mark.parametrize("size", [(0, 3), (-1, 3), (3, 0), ("1", 3), (1, 3.0), (True, 3)])
    def test_sizes(self, size):
        """A -1 by 3 board was answered "consistent, nothing hidden"; a "1" was a TypeError."""
        with pytest.raises(InputError, match="a height and width that are whole numbers, at least 1"):
            Board(*size)

    @pytest.mark.parametrize("total", [-1, 1.0, "1", False])
    def test_totals(self, total):
        """A negative total was answered as an inconsistency; a float or a word was a TypeError."""
        with pytest.raises(InputError, match="a total of mines that is a whole number, 0 or more"):
            Board(1, 3, {(0, 0): 1}, total_mines=total)

    @pytest.mark.parametrize("part, cell", [
        ("clues", (0, 3)), ("clues", (1, 0)), ("clues", (-1, 0)), ("clues", "ab"), ("clues", (0, 1, 2)),
        ("flags", (0, 9)), ("voids", (2, 2)), ("names", (5, 5)),
    ])
    def test_cells_off_the_board(self, part, cell):
        """A flag off the board was a KeyError in every question; a number off it, a made-up conflict.
        Board(height, width) is 3 wide: the message says WIDTHxHEIGHT, as everything else does."""
        parts = {"clues": {}, "flags": frozenset(), "voids": frozenset(), "names": {}}
        parts[part] = {cell: 1} if part == "clues" else {cell: "x"} if part == "names" else frozenset({cell})
        with pytest.raises(InputError, match=r"cell \(row, col\) on the 3x1 board \(WIDTHxHEIGHT; rows 0-0, columns 0-2\) \(got "):
            Board(1, 3, parts["clues"], parts["flags"], parts["voids"], parts["names"])

    def test_numbers_that_are_not_numbers(self):
        with pytest.raises(InputError, match=r"a revealed number that is a whole number \(got '1' at \(0, 0\)\)"):
            Board(1, 3, {(0, 0): "1"})

    @pytest.mark.parametrize("flags, voids", [({(0, 0)}, set()), (set(), {(0, 0)}), ({(0, 1)}, {(0, 1)})])
    def test_two_things_on_one_square(self, flags, voids):
        """A number and a flag on one square was answered as a conflict with the total."""
        with pytest.raises(InputError, match="at most one of number, flag and void on a square"):
            Board(1, 3, {(0, 0): 1}, frozenset(flags), frozenset(voids), total_mines=1)


class TestAccepted:
    @settings(max_examples=300, deadline=None)
    @given(boards())
    def test_every_drawn_board(self, board):
        """Boards made from real layouts (perturbed numbers included) are made again unchanged."""
        again = Board(board.height, board.width, board.clues, board.flags, board.voids,
                      board.names, board.total_mines)
        assert again == board

    def test_numbers_past_their_neighbours_are_an_answer(self):
        """A 9, or a 2 with one neighbour, is not refused: the answer names it as the conflict."""
        for clues in ({(0, 0): 9}, {(0, 0): 2}):
            answer = solve(Board(1, 2, clues))
            assert not answer.consistent and [c.cell for c in answer.conflict] == [(0, 0)]

    def test_numpy_integers(self):
        """Cells and numbers read from numpy arrays (a screen-reading bot's) are whole numbers."""
        row, col = np.int64(0), np.int64(0)
        board = Board(np.int64(1), 3, {(row, col): np.int8(1)}, total_mines=np.int64(1))
        assert solve(board).status[(0, 2)].value == "safe"

    def test_a_games_unchecked_boards_are_good(self):
        """Game.board skips the checks (every move); the boards it makes pass them all the same."""
        player = strategy("basic")
        for seed in range(5):
            rng = random.Random(seed)
            game = Game.new(Level(9, 9, 10), rng, (4, 4))
            game.open((4, 4))
            while game.outcome is Outcome.PLAYING:
                board = game.board
                Board(board.height, board.width, board.clues, board.flags, board.voids,
                      board.names, board.total_mines)  # checked
                decision = player.decide(board, rng)
                for cell in decision.flags:
                    game.flag(cell)
                for cell in decision.opens:
                    if game.open(cell) is not Outcome.PLAYING:
                        break
