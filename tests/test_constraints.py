"""problem_of's two constructions (per cell, and numpy grids for big boards) agree."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from satsweeper import constraints
from satsweeper.board import Board
from satsweeper.constraints import problem_of
from satsweeper.counting import Engine, count, tally
from satsweeper.errors import InputError
from satsweeper.game import Level
from satsweeper.hint import hint
from satsweeper.reasoning import check, safety, solve, uniqueness
from satsweeper.positions import position
from satsweeper.strategies import strategy

from . import oracle
from .forced import Forced
from .strategies import boards


def by_arrays(board: Board, flags_are_mines: bool = True):
    """problem_of forced onto the numpy construction, whatever the board's size."""
    with Forced(constraints, ARRAY_AREA=0):
        return problem_of(board, flags_are_mines)


def by_cells(board: Board, flags_are_mines: bool = True):
    """problem_of forced onto the per-cell construction."""
    with Forced(constraints, ARRAY_AREA=10 ** 18):
        return problem_of(board, flags_are_mines)


class TestProblemOf:
    @settings(max_examples=300, deadline=None)
    @given(boards())
    def test_arrays_equal_cells(self, board):
        """On small boards (voids, wrong flags, contradictions) both constructions give the same Problem."""
        assert by_arrays(board) == by_cells(board)
        assert by_arrays(board, False) == by_cells(board, False)

    @settings(max_examples=100, deadline=None)
    @given(boards())
    def test_arrays_match_oracle(self, board):
        """Counts from the numpy construction equal brute-force enumeration."""
        problem = by_arrays(board)
        assert tally(problem, Engine.COMPONENTS).count == len(oracle.explanations(problem))

    def test_big_board_mid_game(self):
        """A 250x200 mid-game board with stray flags and voids: both constructions agree."""
        board = position(Level(250, 200, 9000), 1, 0.5)
        hidden = sorted(board.hidden_cells())
        flags = set(random.Random(1).sample(hidden, 50))
        voids = frozenset(random.Random(2).sample(hidden, 30)) - flags
        board = Board(board.height, board.width, board.clues, board.flags | flags,
                      voids=voids, total_mines=board.total_mines)
        assert board.height * board.width > constraints.ARRAY_AREA
        assert problem_of(board) == by_cells(board)
        assert problem_of(board, False) == by_cells(board, False)


class TestNotABoard:
    @pytest.mark.parametrize("ask", [problem_of, tally, count, check, solve, uniqueness, hint,
                                     lambda subject: safety(subject, (0, 1))])
    @pytest.mark.parametrize("subject", ["mines: 1\n1..\n", None, [[1, None, None]]])
    def test_text_or_anything_else(self, ask, subject):
        """Text not yet parsed was an AttributeError from deep inside; now every question names what it wants."""
        with pytest.raises(InputError, match=r"a Board or a Problem; parse_board makes a Board of text \(got "):
            ask(subject)

    @pytest.mark.parametrize("ask", [problem_of, tally, count, check, solve])
    def test_a_system_points_to_its_rules(self, ask):
        """An equation file read (a System) said only "(got System)": its rules are its .problem,
        which the same question answers (two explanations of a + b = 1)."""
        from satsweeper.systems import parse_system
        system = parse_system("a + b = 1\n")
        with pytest.raises(InputError, match=r"a System's rules are its \.problem \(got System\)"):
            ask(system)
        assert count(system.problem) == 2

    @pytest.mark.parametrize("subject", ["mines: 1\n1..\n", None])
    def test_a_games_positions_and_a_strategy(self, subject):
        """Positions.problem, and so a strategy's decide, was an AttributeError ('str' has no 'clues')."""
        with pytest.raises(InputError, match=r"a Board; parse_board makes a Board of text \(got "):
            constraints.Positions().problem(subject)
        with pytest.raises(InputError, match=r"parse_board makes a Board of text"):
            strategy("exact").decide(subject, random.Random(1))
