"""The grid fast paths (determined cells, counts) against brute force and the general engine.

Each ``engine`` test runs twice: on bitboard as imported (its compiled build where one is
built and current, see tests/test_compiled.py) and on its source as plain Python."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from satsweeper import bitboard, components
from satsweeper.board import Board
from satsweeper.constraints import problem_of
from satsweeper.counting import tally
from satsweeper.game import LEVELS, Level
from satsweeper.positions import position
from satsweeper.reasoning import Status, solve
from satsweeper.textio import parse_board

from . import oracle
from .pure import PURE
from .strategies import boards

MANY = settings(max_examples=700, deadline=None)  # each test runs twice: compiled and as Python
WORDS = ("mine", "safe", "undetermined")  # the oracle's words


@pytest.fixture(scope="module", params=["as imported", "Python"])
def engine(request):
    """bitboard as imported, then bitboard.py as plain Python (the same, when nothing compiled is in use)."""
    if request.param == "Python" and bitboard.COMPILED is None:
        pytest.skip("bitboard runs as Python already")
    return bitboard if request.param == "as imported" else PURE


def raw(*args, **parts) -> Board:
    """A board as Board would refuse it (cells off it, a square of two kinds): made unchecked."""
    return Board(*args, check=False, **parts)


MALFORMED = [
    raw(1, 3, {(0, 0): 10}), raw(1, 3, {(0, 0): 11}),  # the grid's own codes for flag and void
    raw(1, 3, {(0, 0): 9}, flags={(0, 2)}), raw(1, 3, {(0, 0): 12}), raw(2, 2, {(0, 0): 200}),
    raw(1, 3, {(0, 0): "1"}), raw(1, 3, {(0, 0): 300}),
    raw(1, 3, {(0, 0): 1}, flags={(0, 0)}), raw(1, 3, {(0, 10 ** 30): 1}), raw(1, 3, {(0,): 1}),
    raw(1, 3, {(0, 0): 0}, voids={(0, 0)}), raw(1, 3, flags={(0, 1)}, voids={(0, 1)}),
    raw(1, 3, flags={(1, 0)}), raw(1, 3, voids={(0, 3)}), raw(1, 3, {(-1, 0): 0}),
    raw(2, 2, {(0, 0): 2}, flags={(0, 1)}, voids={(1, 0), (1, 1)}),
    raw(1, 3, {(0, 0): 3}, flags={(0, 1)}),  # more flags and hidden cells needed than there are
]


class TestDetermined:
    @MANY
    @given(boards())
    def test_matches_oracle(self, engine, board):
        """Every hidden cell's status is the brute-force one, in row-major order; None iff no explanation."""
        want = oracle.status(problem_of(board))
        got = engine.determined(board, words=WORDS)
        if want is None:
            assert got is None
        else:
            assert got == want
            assert list(got) == board.hidden_cells()

    @settings(max_examples=300, deadline=None)
    @given(boards(max_hidden=40), st.booleans())
    def test_matches_component_engine(self, engine, board, with_total):
        """Wider boards than the oracle takes: the same answer as the component engine on the problem."""
        if not with_total:
            board = Board(board.height, board.width, board.clues, board.flags, board.voids)
        assert engine.determined(board) == components.determined(problem_of(board))

    @pytest.mark.parametrize("level", ["beginner", "intermediate", "expert"])
    def test_real_positions_match_component_engine(self, engine, level):
        """Stuck positions of real games (those the benchmark times): the component engine's answer."""
        found = 0
        for seed in range(60):
            board = position(LEVELS[level], seed, None if seed % 2 else 0.0)
            if board is None:
                continue
            found += 1
            want = components.determined(problem_of(board))
            got = engine.determined(board)
            assert got == want and list(got) == list(want)
        assert found > 20

    @pytest.mark.parametrize("level", [Level(40, 40, 320), Level(64, 64, 800)])
    def test_big_positions_match_component_engine(self, engine, level):
        """Boards up to MAX_AREA squares, many components: the component engine's answer."""
        for seed in range(4):
            board = position(level, seed, 0.5)
            if board is not None:
                assert engine.determined(board) == components.determined(problem_of(board))

    def test_total_that_binds_matches_oracle(self, engine):
        """Random full boards with few floating cells, where the total takes mine numbers from components."""
        import random
        rng = random.Random(7)
        binding = 0
        for _ in range(300):
            height, width = rng.randint(2, 5), rng.randint(2, 6)
            cells = [(r, c) for r in range(height) for c in range(width)]
            mines = set(rng.sample(cells, rng.randint(1, len(cells) // 2)))
            shown = {c for c in cells if c not in mines and rng.random() < 0.55}
            hidden = [c for c in cells if c not in shown]
            if len(hidden) > 14:
                continue
            clues = {(r, c): sum((r + dr, c + dc) in mines for dr in (-1, 0, 1) for dc in (-1, 0, 1))
                     for r, c in shown}
            total = len(mines) + rng.choice((0, 0, 1, -1))  # now and then a total no layout meets
            board = Board(height, width, clues, total_mines=total)
            want = oracle.status(problem_of(board))
            assert engine.determined(board, words=WORDS) == want
            free = engine.determined(Board(height, width, clues), words=WORDS)
            binding += want is not None and free is not None and dict(free) != dict(want)
        assert binding > 20  # the total decided cells the numbers alone leave open

    def test_private_and_shared_boxes(self, engine):
        """A chain of numbers with cells of their own and shared ones, with and without the total."""
        text = "1.1.2.1\n.......\n"
        for mines in (None, 2, 3, 4, 5):
            board = parse_board(text if mines is None else f"mines: {mines}\n{text}")
            want = oracle.status(problem_of(board))
            assert engine.determined(board, words=WORDS) == want

    def test_declines_what_it_cannot_answer(self, engine):
        """Contradictions, bad numbers, boards too big and layers too wide answer None."""
        assert engine.determined(parse_board("12\n..\n")) is None  # two numbers disagree
        assert engine.determined(parse_board("3.\n00\n")) is None  # a number without room
        assert engine.determined(Board(1, 2, {(0, 0): 9})) is None  # not a number
        assert engine.determined(Board(1, 2, {(0, 0): -1})) is None
        assert engine.determined(raw(1, 2, {(0, 5): 1})) is None  # off the board
        assert engine.determined(Board(2, 2, {(0, 0): 1, (0, 1): 0, (1, 0): 0, (1, 1): 0})) is None  # closed, wrong
        assert engine.determined(parse_board("mines: 4\n1.\n..\n")) is None  # more mines than hidden cells
        big = Board(100, 100, {(0, 0): 1}, total_mines=10)
        assert engine.determined(big) is None and solve(big).consistent
        wide = parse_board("." * 12 + "\n" + "1" * 12 + "\n" + "." * 12 + "\n")
        assert engine.determined(wide, max_states=1) is None
        assert engine.determined(wide) == components.determined(problem_of(wide))

    @pytest.mark.parametrize("board", MALFORMED)
    def test_declines_malformed_grids(self, engine, board):
        """A square of two kinds, a value that is no number, a cell off the board: None (the general
        path's business).  Board refuses most of these; unchecked boards (check=False) still get here."""
        assert engine.determined(board) is None
        assert engine.tally(board) is None


class TestScan:
    """_scan (the compiled build's reader, square by square) against _read and _rules (whole-grid sums)."""

    @staticmethod
    def same_reading(engine, board: Board) -> None:
        shape = engine._shape(board.height, board.width)
        read, scanned = engine._read(board, shape), engine._scan(board, shape)
        if scanned is None:  # declined: only what _read refuses, or clues of another kind
            assert read is None or type(board.clues) is not dict
            return
        assert read is not None and scanned[0] == read[0]
        assert engine._group(*scanned[1:]) == engine._rules(shape, *read)

    @MANY
    @given(boards())
    def test_reads_what_read_reads(self, engine, board):
        """The same hidden squares, rules, boxes (in the same order) as the whole-grid reader."""
        self.same_reading(engine, board)

    @pytest.mark.parametrize("level", ["beginner", "intermediate", "expert"])
    def test_real_positions(self, engine, level):
        for seed in range(20):
            board = position(LEVELS[level], seed, None if seed % 2 else 0.0)
            if board is not None:
                self.same_reading(engine, board)

    @pytest.mark.parametrize("board", MALFORMED)
    def test_declines_malformed_grids(self, engine, board):
        assert engine._scan(board, engine._shape(board.height, board.width)) is None


class TestSolveUsesIt:
    @settings(max_examples=500, deadline=None)
    @given(boards())
    def test_same_solution_as_from_the_problem(self, board):
        """solve(board) answers as solve(problem_of(board)), conflicts included."""
        fast, general = solve(board), solve(problem_of(board))
        assert fast.consistent == general.consistent
        assert dict(fast.status) == dict(general.status)
        assert list(fast.status) == list(general.status)
        assert fast.conflict == general.conflict

    def test_solution_pickles_and_reads_the_same(self):
        """The fast path's answer (its hidden cells listed lazily) survives pickling, as worker pools need."""
        import pickle
        board = position(LEVELS["expert"], 3, 0.0)
        fast = solve(board)
        back = pickle.loads(pickle.dumps(fast))
        assert list(back.status.items()) == list(fast.status.items()) == list(solve(problem_of(board)).status.items())
        assert len(pickle.dumps(fast)) < 20 * len(board.hidden_cells())  # the cells, not the shape's tables

    def test_options_take_the_general_path(self):
        """Solver options and flags read as hidden cells are not the fast path's business."""
        board = parse_board("mines: 1\n1F\n..\n")
        assert solve(board, flags_are_mines=False).status == solve(problem_of(board, False)).status
        assert solve(board, "sat").status == solve(board).status
        assert solve(board).status[(1, 0)] is Status.SAFE


class TestTallyUsesIt:
    @settings(max_examples=500, deadline=None)
    @given(boards())
    def test_same_tally_as_from_the_problem(self, board):
        """tally(board) reads the boxes from the grid: the same counts as from problem_of, in the same order."""
        fast, general = tally(board), components.tally(problem_of(board))
        assert fast.count == general.count
        assert list(fast.mines.items()) == list(general.mines.items())
        assert fast.frontier == general.frontier

    @settings(max_examples=300, deadline=None)
    @given(boards())
    def test_counts_match_oracle(self, board):
        """Explanations in all and per cell, against brute force."""
        problem = problem_of(board)
        explanations = oracle.explanations(problem)
        counted = tally(board)
        assert counted.count == len(explanations)
        if explanations:
            for cell in problem.cells:
                assert counted.probability(cell) == Fraction(sum(cell in e for e in explanations), len(explanations))

    @pytest.mark.parametrize("level", [LEVELS["intermediate"], LEVELS["expert"], Level(40, 40, 320)])
    def test_real_positions_match_component_engine(self, engine, level):
        """Stuck positions of real games: the component engine's counts, cell by cell, in its order."""
        for seed in range(12):
            board = position(level, seed, None)
            if board is None:
                continue
            want, got = components.tally(problem_of(board)), engine.tally(board)
            assert got.count == want.count and got.frontier == want.frontier
            assert list(got.mines.items()) == list(want.mines.items())

    def test_declines_boards_without_explanation(self, engine):
        """No explanation (a rule, the total, a closed number): None, and tally(board) still answers 0."""
        for text in ("12\n..\n", "mines: 4\n1.\n..\n", "1F.\n00.\n"):
            board = parse_board(text)
            assert engine.tally(board) is None
            assert tally(board).count == 0 == components.tally(problem_of(board)).count
