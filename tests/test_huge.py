"""Big boards: the compact paths (cells as arrays, numbers one byte a square,
floating cells sharing one value, text read by array operations, JSON written
as it is made) give exactly the answers of the per-cell paths and of brute force."""

from __future__ import annotations

import json
import math
import random
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

import gmpy2
import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from satsweeper import components, constraints, textio
from satsweeper.board import Board, GridCells
from satsweeper.cli import main
from satsweeper.constraints import Problem, problem_of
from satsweeper.counting import count, tally
from satsweeper.errors import BoardSyntaxError
from satsweeper.game import Game, Level, place_mines
from satsweeper.positions import position
from satsweeper.reasoning import Reasoner, Status
from satsweeper.report import contract as report_contract
from satsweeper.report import views
from satsweeper.tally import Shared

from . import oracle
from .forced import Forced
from .strategies import boards


def compact(board: Board, flags_are_mines: bool = True) -> Problem:
    """problem_of on the array path: the cells come as GridCells, however small the board."""
    with Forced(constraints, ARRAY_AREA=0):
        return problem_of(board, flags_are_mines)


def per_cell(board: Board) -> Problem:
    with Forced(constraints, ARRAY_AREA=10 ** 18):
        return problem_of(board)


def shared_tally(problem: Problem):
    with Forced(components, SHARED_FLOATING=0):
        return tally(problem)


def dict_tally(problem: Problem):
    with Forced(components, SHARED_FLOATING=10 ** 18):
        return tally(problem)


def brute_counts(problem: Problem) -> tuple[int, dict]:
    found = oracle.explanations(problem)
    return len(found), {c: sum(c in e for e in found) for c in problem.cells}


class TestGridCells:
    @settings(max_examples=100, deadline=None)
    @given(st.integers(1, 9), st.sets(st.integers(0, 80)), st.sets(st.tuples(st.integers(-1, 10), st.integers(-1, 10))))
    def test_like_a_tuple(self, width, flats, chosen):
        """Iteration, membership, index, slices and split agree with a plain tuple of cells."""
        flat = np.array(sorted(flats), dtype=np.int64)
        cells = GridCells(flat, width)
        plain = tuple(divmod(f, width) for f in sorted(flats))
        assert cells == plain and list(cells) == list(plain) and len(cells) == len(plain)
        assert list(cells[1:4]) == list(plain[1:4]) and cells[::2] == list(plain[::2])
        for cell in list(chosen) + list(plain[:5]):
            assert (cell in cells) == (cell in plain)
            if cell in plain:
                assert cells.index(cell) == plain.index(cell)
        picked, rest = cells.split(chosen)
        assert picked == [c for c in plain if c in chosen] and list(rest) == [c for c in plain if c not in chosen]


class TestCompactBoard:
    @given(boards())
    @settings(max_examples=100, deadline=None)
    def test_hidden_cells_from_the_squares(self, board):
        """A compact board's hidden cells (from its square codes) are the dict board's."""
        compact = Board.from_squares(board.squares, board.total_mines)
        assert compact == board
        assert compact.hidden_cells() == board.hidden_cells()


class TestFloatingShortcut:
    """All hidden: one binomial, one shared probability, trivial determination."""

    @pytest.mark.parametrize("height,width", [(1, 1), (1, 4), (2, 3), (3, 4)])
    def test_all_hidden_against_brute_force(self, height, width):
        n = height * width
        for mines in [None, *range(n + 1)]:
            board = Board(height, width, total_mines=mines)
            problem = compact(board)
            assert isinstance(problem.cells, GridCells) and problem == per_cell(board)
            expected, per = brute_counts(problem)
            assert expected == (2 ** n if mines is None else math.comb(n, mines))
            assert count(problem) == expected == count(per_cell(board))
            general = dict_tally(per_cell(board))
            fast = shared_tally(problem)
            assert isinstance(fast.scaled_mines, Shared)
            assert fast.count == general.count == expected
            assert dict(fast.mines) == dict(general.mines) == per
            for cell in problem.cells:
                assert fast.probability(cell) == general.probability(cell) == Fraction(per[cell], expected)
            assert fast.groups() == dict(Counter(general.probability(c) for c in problem.cells))
            assert list(fast.safest()) == general.safest()
            with Forced(components, SHARED_FLOATING=0):
                with Reasoner(problem) as r:
                    by_count, by_sat = r.solution("count"), r.solution("sat")
                    witness = r.consistency().witness
            assert problem.is_explained_by(witness)
            want = Status.SAFE if mines == 0 else Status.MINE if mines == n else Status.UNDETERMINED
            for solution in (by_count, by_sat):
                assert isinstance(solution.status, Shared)
                assert set(solution.status.values()) == {want}
                assert list(solution.cells_with(want)) == list(problem.cells)

    @settings(max_examples=150, deadline=None)
    @given(boards())
    def test_shared_values_equal_a_dict(self, board):
        """With numbers, voids and flags: the shared-value tally equals the per-cell one and brute force."""
        problem = compact(board)
        fast, general = shared_tally(problem), dict_tally(per_cell(board))
        expected, per = brute_counts(problem)
        assert fast.count == general.count == expected
        if not expected:
            return
        assert fast.scaled_mines == general.scaled_mines and dict(fast.mines) == per
        assert list(fast.safest()) == general.safest()
        assert fast.groups() == dict(Counter(general.probability(c) for c in problem.cells))
        assert fast.expected_mines() == general.expected_mines()
        with Forced(components, SHARED_FLOATING=0):
            with Reasoner(problem) as r:
                statuses = r.solution("count").status
        for cell in problem.cells:
            assert statuses[cell] is (Status.SAFE if per[cell] == 0 else Status.MINE if per[cell] == expected
                                      else Status.UNDETERMINED)


class TestSharedLookups:
    def test_every_cell_asked_walks_the_cells_once(self):
        """Asking a Shared for each of its cells in turn (the probabilities of a
        blank board) goes through its cell tuple once, not once per cell; the
        values are the ones a plain dict gives."""
        class Walked(tuple):
            walks = 0

            def __iter__(self):
                Walked.walks += 1
                return super().__iter__()

            def __contains__(self, item):
                Walked.walks += 1
                return super().__contains__(item)

        order = [(r, c) for r in range(30) for c in range(30)]
        plain = {cell: 1 for cell in order} | {(0, 0): 5, (3, 4): 7}
        shared = Shared(Walked(order), {(0, 0): 5, (3, 4): 7}, 1)
        Walked.walks = 0
        assert [shared[c] for c in order] == [plain[c] for c in order]
        assert all(c in shared for c in order) and (30, 0) not in shared
        with pytest.raises(KeyError):
            shared[(30, 0)]
        assert Walked.walks == 1  # the set of cells made once

    def test_blank_board_probabilities(self):
        """A blank 100x100 board with 1,000 mines: every cell 1/10 (10,000 cells asked)."""
        board = Board(100, 100, total_mines=1000)
        answer = tally(problem_of(board))
        assert {answer.probability(c) for c in board.hidden_cells()} == {Fraction(1, 10)}


class TestArrayReader:
    @staticmethod
    def read_both(text: str):
        with Forced(textio, ARRAY_SQUARES=0):
            fast = textio.parse_puzzle(text, "b.txt")
        with Forced(textio, ARRAY_SQUARES=10 ** 18):
            slow = textio.parse_puzzle(text, "b.txt")
        return fast, slow

    @settings(max_examples=200, deadline=None)
    @given(boards(), st.booleans())
    def test_same_puzzle_as_square_by_square(self, board, with_layout):
        """Boards (and layouts) read by arrays equal those read square by square, and their problems too."""
        mines = None
        if with_layout:  # the flags and some hidden cells as the layout's mines, where the numbers agree
            mines = board.flags | {c for c in board.hidden_cells() if sum(map(ord, str(c))) % 3 == 0}
            if any(sum(n in mines for n in board.neighbours(c)) != k for c, k in board.clues.items()):
                mines = None
        text = textio.format_board(board, mines)
        try:
            fast, slow = self.read_both(text)
        except BoardSyntaxError:
            return  # a total that disagrees with the layout: both refuse (checked below)
        assert fast.board == slow.board and fast.mines == slow.mines and fast.start == slow.start
        assert problem_of(fast.board) == per_cell(slow.board) == compact(slow.board)
        assert np.array_equal(fast.board.squares, slow.board.squares)

    @pytest.mark.parametrize("text", [
        "..1\n..\n", ".9.\n...\n", "..x\n...\n", "..?\n...\n", "mines: 7\n..\n..\n",
        "*1.\n...\n", "mines: 2\n*1.\n...\n", ".1 .\n...\n", "..1\n..é\n", "F8.\n...\n"])
    def test_same_errors(self, text):
        """Bad grids are refused with the same file, line, column and words either way."""
        messages = []
        for squares in (0, 10 ** 18):
            with Forced(textio, ARRAY_SQUARES=squares):
                try:
                    puzzle = textio.parse_puzzle(text, "b.txt")
                    messages.append(("ok", puzzle.board, puzzle.mines))
                except BoardSyntaxError as err:
                    messages.append(str(err))
        assert messages[0] == messages[1]


@st.composite
def mine_texts(draw) -> str:
    """``.mine`` texts, most well formed, some not: any square, total, row length."""
    height, width = draw(st.integers(1, 5)), draw(st.integers(1, 6))
    squares = st.sampled_from("0123H" if draw(st.booleans()) else "0123456789HFM?x")
    rows = ["".join(draw(st.lists(squares, min_size=width, max_size=width))) for _ in range(height)]
    if draw(st.integers(0, 9)) == 0:
        rows[draw(st.integers(0, height - 1))] += "H"  # a ragged row
    marked = sum(row.count(ch) for row in rows for ch in "FM?")
    total = draw(st.sampled_from([marked, marked, 0, height * width, height * width + 1]))
    return f"{width}x{height}x{total}\n" + "\n".join(rows) + "\n" + draw(st.sampled_from(["", "\n", "HH\n"]))


class TestArrayMineReader:
    @settings(max_examples=400, deadline=None)
    @given(mine_texts())
    def test_same_as_square_by_square(self, text):
        """Big .mine files are read by arrays: the same puzzle, or the same error, as square by square."""
        answers = []
        for squares in (0, 10 ** 18):
            with Forced(textio, ARRAY_SQUARES=squares):
                try:
                    puzzle = textio.parse_mine_puzzle(text, "b.mine")
                    answers.append((puzzle.board, puzzle.mines, puzzle.board.hidden_cells()))
                except BoardSyntaxError as err:
                    answers.append(str(err))
        assert answers[0] == answers[1]

    def test_layouts_of_games(self):
        """Whole layouts written by format_mine (hidden mines as M) come back with their mines."""
        level = Level(9, 7, 12)
        for seed in range(20):
            rng = random.Random(seed)
            game = Game(level, place_mines(level, rng))
            for _ in range(seed):
                game.open(rng.choice([(r, c) for r in range(7) for c in range(9) if (r, c) not in game.mines]))
            mines = game.mines
            board = game.board if seed % 2 else Board(7, 9, {}, mines, total_mines=12)  # odd: all flagged
            text = textio.format_mine(board, mines)
            with Forced(textio, ARRAY_SQUARES=0):
                fast = textio.parse_mine_puzzle(text)
            assert fast.board == board and fast.mines == mines


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


class TestStreamedJson:
    @pytest.mark.parametrize("command", ["probs", "solve", "check", "unique"])
    def test_streamed_equals_built(self, command, tmp_path):
        """The JSON written item by item is the JSON of the built dicts (the mines of an explanation in row order)."""
        board = Path(__file__).resolve().parent.parent / "examples" / "expert.txt"
        result = run(command, board, "--json")
        built = json.loads(result.stdout)
        assert result.exit_code == (1 if command == "unique" else 0) and built["consistent"]  # not unique
        from satsweeper.report import counts, queries
        with Forced(report_contract, STREAMED=0), Forced(views, STREAMED=0), \
                Forced(counts, STREAMED=0), Forced(queries, STREAMED=0):
            streamed = json.loads(run(command, board, "--json").stdout)
            # and with compact cells sharing a value: their lists formatted a chunk at a time
            with Forced(constraints, ARRAY_AREA=0), Forced(components, SHARED_FLOATING=0):
                compact_streamed = json.loads(run(command, board, "--json").stdout)
        if command not in ("check", "unique"):
            assert compact_streamed == built
        key = lambda c: (c["row"], c["col"])  # noqa: E731
        if command == "check":
            assert streamed["explanation"] == sorted(streamed["explanation"], key=key)  # row order
            assert streamed.pop("explanation") == sorted(built.pop("explanation"), key=key)
        if command == "unique":  # each explanation streamed inside the list (it failed to print)
            assert [sorted(e, key=key) for e in streamed.pop("explanations")] == \
                [sorted(e, key=key) for e in built.pop("explanations")]
        assert streamed == built


class TestHugeBoard:
    def test_all_hidden_million_squares(self, tmp_path):
        """1000x1000, all hidden, 150,000 mines: check, count, probs, solve answer in seconds, exactly."""
        path = tmp_path / "huge.txt"
        path.write_text("mines: 150000\n" + ("." * 1000 + "\n") * 1000)
        start = time.perf_counter()
        data = json.loads(run("count", path, "--json").stdout)
        assert data["count"] == gmpy2.comb(10 ** 6, 150000).digits(10)
        assert "digits; --json gives them all" in run("count", path).stdout
        result = run("probs", path)
        assert result.exit_code == 0 and "p = 3/20 (15.00%): 1000000 cells" in result.stdout
        result = run("solve", path)
        assert result.exit_code == 0 and "undetermined: 1000000" in result.stdout
        result = run("check", path)
        assert result.exit_code == 0 and "150000 mine(s): 0,0 0,1" in result.stdout
        assert time.perf_counter() - start < 20

    @pytest.mark.parametrize("mines,status", [(0, "safe"), (250_000, "mine")])
    def test_determined_all_at_once(self, tmp_path, mines, status):
        """No mine left: every cell safe; as many mines as cells: every cell a mine."""
        path = tmp_path / "huge.txt"
        path.write_text(f"mines: {mines}\n" + ("." * 500 + "\n") * 500)
        result = run("solve", path, "--json")
        data = json.loads(result.stdout)
        assert result.exit_code == 0 and data[status] == 250_000 and len(data["cells"]) == 250_000
        assert {c["status"] for c in data["cells"]} == {status}
        assert data["cells"][-1] == {"row": 499, "col": 499, "status": status}

    def test_mid_game_board_read_compact(self, tmp_path):
        """A 250x200 mid-game board read from text: numbers one byte a square, the same answers."""
        board = position(Level(250, 200, 9000), 1, 0.5)
        path = tmp_path / "mid.txt"
        textio.write_board(board, path)
        read = textio.read_board(path)
        assert type(read.clues).__name__ == "GridClues" and read == board
        assert problem_of(read) == per_cell(board)
        fast, general = tally(problem_of(read)), dict_tally(per_cell(board))
        assert fast.count == general.count and fast.scaled_mines == general.scaled_mines

    def test_settled_squares_cost_bytes_not_objects(self):
        """A 300x300 board, every mine flagged and every other square a number:
        the board read from text keeps a few bytes a square (a frozenset of
        flag tuples kept about 30), and its flags are still the flags."""
        import tracemalloc

        rng = np.random.default_rng(7)
        mines = rng.random((300, 300)) < 0.2
        layout = {(int(r), int(c)) for r, c in zip(*np.nonzero(mines))}
        board = Board(300, 300, {cell: 0 for cell in np.ndindex(300, 300) if cell not in layout},
                      frozenset(layout))
        board = Board(300, 300, {cell: sum(n in layout for n in board.neighbours(cell)) for cell in board.clues},
                      frozenset(layout))
        text = textio.format_board(board)
        tracemalloc.start()
        try:
            read = textio.parse_board(text)
            kept, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert kept / 300 ** 2 < 4
        assert read == board and read.flags == layout and hash(read.flags) == hash(frozenset(layout))
        assert len(read.flags) == len(layout) and all(cell in read.flags for cell in layout)
        assert (0, 300) not in read.flags and read.flags - layout == frozenset()
        assert per_cell(read) == per_cell(board)
