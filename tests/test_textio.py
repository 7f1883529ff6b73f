"""Reading and writing boards: round trips and every syntax error."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satsweeper import textio
from satsweeper.board import Board, GridClues
from satsweeper.errors import BoardSyntaxError
from satsweeper.textio import (format_board, format_mine, parse_board, parse_mine, parse_mine_puzzle,
                               parse_puzzle, read_board, ARRAY_SQUARES)

from .strategies import boards


class TestParseBoard:
    def test_dense_layout(self):
        """Every square kind in a dense row."""
        b = parse_board("# comment\nmines: 3\n.1F\n-x2\n")
        assert (b.height, b.width, b.total_mines) == (2, 3, 3)
        assert b.clues == {(0, 1): 1, (1, 2): 2}
        assert b.flags == {(0, 2)} and b.voids == {(1, 0)}
        assert b.names == {(1, 1): "x"}

    def test_tokenized_layout(self):
        """Multi-character names such as x' need tokens."""
        b = parse_board("x' 1 t2\n. . .\n")
        assert b.names == {(0, 0): "x'", (0, 2): "t2"}

    @settings(max_examples=300, deadline=None)
    @given(boards())
    def test_round_trip(self, board):
        """parse(format(b)) == b for every board the strategy makes."""
        assert parse_board(format_board(board)) == board

    def test_layout_round_trip(self):
        """A layout with a start survives format_board then parse_puzzle."""
        board = Board(2, 3, {(1, 0): 1}, frozenset({(0, 0)}), total_mines=2)
        mines = frozenset({(0, 0), (1, 2)})
        puzzle = parse_puzzle(format_board(board, mines, (1, 1)))
        assert (puzzle.board, puzzle.mines, puzzle.start) == (board, mines, (1, 1))

    def test_round_trip_with_names(self):
        """Names survive, in tokens when they need more than one character."""
        board = Board(2, 2, {(0, 0): 1}, names={(0, 1): "u'", (1, 1): "x"}, total_mines=1)
        assert parse_board(format_board(board)) == board

    @pytest.mark.parametrize("text, line, column, expected", [
        ("", 1, 1, "at least one row"),
        ("# only a comment\n", 2, 1, "at least one row"),
        ("..\n...\n", 2, 3, "2 squares per row"),          # a long row: its first square too many
        ("...\n..\n", 2, 3, "3 squares per row"),          # a short row: where its next square would go
        ("layout: tokens\n. .\n. 1 2\n", 3, 5, "2 squares per row"),
        (".?\n", 1, 2, "a square"),
        ("9.\n", 1, 1, "a number at most 1"),
        ("4.\n..\n", 1, 1, "a number at most 3"),
        ("mines: 5\n..\n", 1, 8, "a total of 0 to 2"),
        ("mines: -1\n..\n", 1, 8, "'mines: N'"),
        ("mines: 99999999999999999999\n..\n", 1, 8, "'mines: N' with N of at most 12 digits"),
        ("mines: 1\nmines: 1\n..\n", 2, 1, "one 'mines:' line"),
        ("size: 3\n..\n", 1, 1, "a header 'mines:', 'layout:', 'start:'"),
        ("..\nmines: 1\n", 2, 1, "header lines before the grid"),
        ("x.\n.x\n", 2, 2, "a name used once ('x' already at line 1 col 1; a mine is '*')"),
        ("layout: dense\n. .\n", 2, 2, "one character per square"),
        # A stray space in a dense grid: the dense rows outvote it (it made the grid tokenized, and
        # the message was "expected 1 squares per row").
        ("..1F\n.2 1.\n....\n", 2, 3, "one character per square"),
        ("..1 .\n", 1, 1, "one per token: a row with white space between squares makes the grid tokenized"),
        ("layout: sideways\n..\n", 1, 9, "'layout: dense' or 'layout: tokens'"),
        ("mines 4\n.2..0\n..22.\n", 1, 6, "'mines:' (a header needs its colon)"),
        ("# a comment\n  Start 0,0\n..*\n", 2, 8, "'start:' (a header needs its colon)"),
        ("mines: 1\nstart: 0,0\n*.\n..\n", 2, 8, "'start: ROW,COL' on a safe cell (not a mine)"),
        # a void inside the rectangle was "inside the 5x3 board" (it is inside); '1;2' too
        ("mines: 2\nstart: 1,2\n*....\n..-..\n....*\n", 2, 8, "'start: ROW,COL' on a square of the board"),
        ("mines: 2\nstart: 1;2\n*....\n.....\n....*\n", 2, 8, "'start: ROW,COL', two whole numbers"),
        ("mines: 2\nstart: 5,2\n*....\n.....\n....*\n", 2, 8, "'start: ROW,COL' inside the 5x3 board"),
    ])
    def test_errors_say_where_and_what(self, text, line, column, expected):
        """Each malformed file names file, line, column and what was expected."""
        with pytest.raises(BoardSyntaxError) as info:
            parse_board(text, "b.txt")
        err = info.value
        assert (err.line, err.column) == (line, column)
        assert expected in err.expected
        assert str(err).startswith(f"b.txt:{line}:{column}: expected ")

    def test_a_header_word_that_is_a_name_is_still_a_name(self):
        """Only a row that breaks the board is blamed on a missing colon: a tokenized
        grid whose first row starts with a cell called mines reads as before."""
        b = parse_board("mines 1\n. .\n")
        assert b.names == {(0, 0): "mines"} and b.clues == {(0, 1): 1}

    def test_one_square_is_singular(self):
        """A row of one square among longer ones: "got 1 square"."""
        with pytest.raises(BoardSyntaxError) as info:
            parse_board("..\n.\n", "b.txt")
        assert str(info.value).endswith("(got 1 square)")


class TestInvisible:
    @pytest.mark.parametrize("text, where, code", [
        ("mines: 1\n..1\n\ufeff.1.\n...\n", (3, 1), "U+FEFF"),      # a BOM inside a file
        ("mines: 1\n..1\n.1.\n...\n\x1a", (5, 1), "U+001A"),         # Ctrl-Z at the end
        ("..1\n.1\u200b.\n...\n", (2, 3), "U+200B"),                  # a zero-width space
    ])
    def test_a_character_that_shows_nothing_is_named(self, text, where, code):
        """Counted as a square, it gave "expected 3 squares per row (got 4 squares)" on a row
        that shows 3 (or a one-square row of Ctrl-Z): now its place and code point."""
        with pytest.raises(BoardSyntaxError) as err:
            parse_board(text)
        assert (err.value.line, err.value.column) == where
        assert err.value.found == f"{code}, a character that shows nothing"

    @pytest.mark.parametrize("text, where, found", [
        ("..1\n.\xa01\n", (2, 2), "U+00A0 (NO-BREAK SPACE)"),            # looks like a space
        ("..1\n.\u22171\n", (2, 2), "U+2217 (ASTERISK OPERATOR)"),       # looks like a mine
        (". . 1\n. 1\u2217 1\n", (2, 3), "'1\u2217', with U+2217 (ASTERISK OPERATOR)"),
        (". . 1\n. ? 1\n", (2, 3), "'?'"),                                  # ASCII as before
    ])
    def test_a_look_alike_is_named(self, text, where, found):
        """A character that looks like a space or a square was shown as '\\xa0' or as itself,
        which looks right: now by its code point and Unicode name."""
        with pytest.raises(BoardSyntaxError) as err:
            parse_board(text)
        assert (err.value.line, err.value.column) == where
        assert err.value.found == found
        # what a name may be, said where a letter outside ASCII might have been meant as one
        assert err.value.expected.endswith("(names are ASCII)") == (not found.startswith("'?'"))

    def test_a_name_outside_ascii_is_said_to_be_one(self):
        """'é' read as a name was refused as no square, with no word that names are ASCII."""
        for text in ("\u00e9..\n...\n", "a \u00e9 .\n. . .\n"):
            with pytest.raises(BoardSyntaxError) as err:
                parse_board(text)
            assert err.value.expected.endswith("or a cell name (names are ASCII)")
            assert err.value.found == "U+00E9 (LATIN SMALL LETTER E WITH ACUTE)"

    @pytest.mark.parametrize("text", ["hello world\nfoo bar\n", "abc\n", "layout: tokens\nx y\n"])
    def test_words_are_not_a_board(self, text):
        """Text with no number, hidden square, mine, flag or void was read as a board of named
        hidden cells, and called consistent; a board with one of them and names still reads."""
        with pytest.raises(BoardSyntaxError) as err:
            parse_board(text)
        assert err.value.expected.startswith("a board: numbers") and "not a board?" in err.value.found
        assert parse_board("layout: tokens\nx 1 y\n").names == {(0, 0): "x", (0, 2): "y"}
        assert parse_board("hello .\n").names == {(0, 0): "hello"}

    def test_words_of_any_length_and_a_title_line(self):
        """Words in rows of other lengths said "expected 2 squares per row ... (got 5 squares)";
        a title line above a board "one character per square in a dense row"; a ragged board of
        single letters is still a board with a short row."""
        with pytest.raises(BoardSyntaxError) as err:
            parse_board("hello world\nthis is not a board\n")
        assert "not a board?" in err.value.found
        with pytest.raises(BoardSyntaxError) as err:
            parse_board("This is my puzzle\n..1\n.1.\n")
        assert (err.value.line, err.value.column) == (1, 1) and "comment line starts with '#'" in err.value.expected
        assert err.value.found == "words, 'This' 'is' 'my'..."
        with pytest.raises(BoardSyntaxError) as err:
            parse_board("a b\nc\n")
        assert err.value.found == "1 square"

    @pytest.mark.parametrize("odd", ["\uff11", "\u3000", "\u00a0"])
    def test_a_look_alike_in_a_dense_row_is_named_where_it_is(self, odd):
        """A full-width digit, an ideographic or a no-break space made the row a square too long,
        said at the row's end ("3:4: expected 3 squares per row as in line 2 (got 4 squares)")."""
        with pytest.raises(BoardSyntaxError) as err:
            parse_board(f"mines: 1\n...\n.{odd}1.\n...\n")
        assert (err.value.line, err.value.column) == (3, 2)
        assert err.value.found.startswith(f"U+{ord(odd):04X} (")

    @pytest.mark.parametrize("text", ["hello world\nthis is not a board \u2603\n", "  this puzzle is tr\u00e8s hard\n"])
    def test_words_and_a_symbol_are_not_a_board(self, text):
        """A word that is no name (a snowman) kept the text from being words: it said "expected
        2 squares per row as in line 1 (got 6 squares)" at the 'n' of "not" (the page's garbage)."""
        with pytest.raises(BoardSyntaxError) as err:
            parse_board(text)
        assert "not a board?" in err.value.found and err.value.line == 1
        assert err.value.column == len(text) - len(text.lstrip()) + 1

    def test_a_leading_bom_is_still_read(self):
        assert parse_board("\ufeffmines: 1\n..1\n.1.\n...\n").total_mines == 1


class TestMine:
    def test_reads_jsminesweeper(self):
        """0-8 revealed, F flag, H and anything else hidden."""
        b = parse_mine("4x2x3\n1FH?\n12HH\n")
        assert (b.width, b.height, b.total_mines) == (4, 2, 3)
        assert b.clues == {(0, 0): 1, (1, 0): 1, (1, 1): 2}
        assert b.flags == {(0, 1)}
        assert b.hidden_cells() == [(0, 2), (0, 3), (1, 2), (1, 3)]

    def test_round_trip(self):
        """format_mine then parse_mine gives the board back."""
        board = Board(2, 3, {(0, 0): 1, (1, 2): 0}, frozenset({(0, 1)}), total_mines=2)
        assert parse_mine(format_mine(board)) == board

    @pytest.mark.parametrize("text, line, expected", [
        ("", 1, "a first line WIDTHxHEIGHTxMINES"),
        ("3x2\nHHH\nHHH\n", 1, "a first line WIDTHxHEIGHTxMINES"),
        # the shape right, the size not: the limit said (it asked for the shape it had)
        ("99999999999x9x1\nH\n", 1, "WIDTHxHEIGHTxMINES with at most 9 digits a side and 12 for the mines"),
        ("3x2x1\nHHH\n", 3, "2 rows after the header"),
        ("3x2x1\nHHH\nHH\n", 3, "3 characters per row"),
        ("3x2x9\nHHH\nHHH\n", 1, "a total of 0 to 6"),
        ("2x1x0\n2H\n", 2, "a number at most 1"),
        ("2x1x0\nHH\nHH\n", 3, "only 1 rows"),
        ("3x2x1\nHHH\nHH9\n", 3, "a number at most 3"),  # a 9 is not "any other character": it was read as hidden
    ])
    def test_errors(self, text, line, expected):
        """Malformed .mine files are reported with their line."""
        with pytest.raises(BoardSyntaxError) as info:
            parse_mine(text, "b.mine")
        assert info.value.line == line
        assert expected in info.value.expected

    @pytest.mark.parametrize("width", [3, 300])  # square by square, and by arrays past ARRAY_SQUARES
    def test_white_space_an_editor_leaves_after_a_row(self, width):
        """Spaces or a tab after a .mine row were refused ("3 characters per row (got 4)") where a
        native row keeps them out; a row of the header's length keeps a space as a square."""
        rows = ["1" + "H" * (width - 2) + "M", "F" + "H" * (width - 1)] + ["H" * width] * (width - 2)
        plain = f"{width}x{width}x2\n" + "\n".join(rows) + "\n"
        messy = f"{width}x{width}x2  \n" + "\n".join(row + (" \t" if i % 2 else "  ") for i, row in enumerate(rows)) + "\n"
        assert parse_mine_puzzle(messy) == parse_mine_puzzle(plain)
        assert parse_mine("3x1x0\nHH \n").hidden_cells() == [(0, 0), (0, 1), (0, 2)]

    def test_layout_as_jsminesweeper_reads_it(self):
        """F, M and ? count as mines when they are as many as the header says."""
        puzzle = parse_mine_puzzle("3x2x2\nM2?\nHH1\n", "l.mine")
        assert puzzle.mines == {(0, 0), (0, 2)}
        assert puzzle.board.clues == {(0, 1): 2, (1, 2): 1}

    def test_layout_numbers_must_agree(self):
        """A number the layout contradicts is reported where it stands."""
        with pytest.raises(BoardSyntaxError) as info:
            parse_mine_puzzle("3x1x1\n2HM\n", "l.mine")
        assert (info.value.line, info.value.column) == (2, 1)

    def test_flags_only_position_is_not_forced_into_a_layout(self):
        """All mines flagged but numbers not matching: just a position."""
        assert parse_mine_puzzle("3x2x1\n1H0\nFH1\n").mines is None

    def test_cannot_write_voids(self):
        """The format has no void squares: refuse rather than change the board."""
        with pytest.raises(ValueError):
            format_mine(Board(1, 2, voids=frozenset({(0, 0)}), total_mines=0))

    @pytest.mark.parametrize("seed", range(16))
    def test_big_files_read_by_arrays_as_square_by_square(self, seed, monkeypatch):
        """Above ARRAY_SQUARES a .mine grid is read by array operations: the same board, or
        the same error at the same place, as the square-by-square reader (the oracle)."""
        rng = random.Random(seed)
        height, width = rng.randint(150, 260), rng.randint(160, 300)
        cells = [(r, c) for r in range(height) for c in range(width)]
        marks = rng.sample(cells, rng.randint(0, 30))
        # Seeds 0, 4, ...: a position (more mines than marks), read by arrays; the others
        # fall back to the square-by-square reader: a layout, a total too big, a ragged row, a number too big.
        total = [len(marks) + rng.randint(1, 50), len(marks), height * width + 1][seed % 4 == 3 and seed // 4 % 2 + 1]
        if seed in (4, 8, 12):  # flags as many as the total: a layout if the numbers count them
            marks = marks[:len(marks) // 2]
            total = len(marks)
        inside = lambda r, c: 0 < r < height - 1 and 0 < c < width - 1  # noqa: E731
        symbols = [rng.choice("0001112345678HHHx" if inside(r, c) else "000111223HHHx") for r, c in cells]
        for cell in marks:
            symbols[cell[0] * width + cell[1]] = "F" if seed in (4, 8, 12) else rng.choice("FFM?")
        if seed in (8, 12):  # every number counts its flags
            flagged = set(marks)
            symbols = ["F" if (r, c) in flagged else
                       str(sum((r + dr, c + dc) in flagged for dr in (-1, 0, 1) for dc in (-1, 0, 1)))
                       for r, c in cells]
        if seed == 12:  # and one M more than the total: marks beyond it, a position after all
            symbols[symbols.index("0")] = "M"
        rows = ["".join(symbols[r * width:(r + 1) * width]) for r in range(height)]
        if seed % 4 == 1:
            rows[rng.randrange(height)] += "H"          # a ragged row
        if seed % 4 == 2:
            rows[0] = "6" + rows[0][1:]                 # a number too big for its corner
        text = f"{width}x{height}x{total}\n" + "\n".join(rows) + "\n"
        outcomes = []
        for limit in (ARRAY_SQUARES, 10 ** 12):
            monkeypatch.setattr(textio, "ARRAY_SQUARES", limit)
            try:
                puzzle = parse_mine_puzzle(text, "big.mine")
                outcomes.append((puzzle.board, puzzle.mines))
            except BoardSyntaxError as error:
                outcomes.append((error.line, error.column, error.expected))
        assert outcomes[0] == outcomes[1]
        if seed % 4 == 0:  # the arrays read it (one byte a square), the flags a layout when they fit
            assert isinstance(outcomes[0][0].clues, GridClues)
            assert outcomes[0][1] == (frozenset(marks) if seed == 8 else None)

    @given(boards())
    @settings(max_examples=150, deadline=None)
    def test_writes_what_a_square_by_square_writer_writes(self, board):
        """format_mine (array codes) against the format written out square by square."""
        board = Board(board.height, board.width, board.clues, board.flags, frozenset(),
                      total_mines=len(board.flags) + 1)
        mines = frozenset(board.hidden_cells()[::2])
        expected = [f"{board.width}x{board.height}x{board.total_mines}"]
        for r in range(board.height):
            expected.append("".join(str(board.clues[(r, c)]) if (r, c) in board.clues else
                                    "F" if (r, c) in board.flags else "M" if (r, c) in mines else "H"
                                    for c in range(board.width)))
        assert format_mine(board, mines) == "\n".join(expected) + "\n"


class TestReadBoard:
    def test_missing_file(self, tmp_path):
        """A missing file is a syntax-style error, not a traceback."""
        with pytest.raises(BoardSyntaxError) as info:
            read_board(tmp_path / "nope.txt")
        assert "a readable file" in str(info.value)

    def test_not_utf8(self, tmp_path):
        """Binary junk is reported as such."""
        path = tmp_path / "junk.txt"
        path.write_bytes(b"\xff\xfe..\n")
        with pytest.raises(BoardSyntaxError) as info:
            read_board(path)
        assert "UTF-8" in str(info.value)


def test_a_dimacs_formula_given_as_a_board_points_to_compile(tmp_path):
    """A .cnf file where a board was expected is named for what it is (not 'expected 17 squares per row')."""
    from satsweeper.textio import load
    path = tmp_path / "f.cnf"
    path.write_text("c two clauses\nc over two variables\np cnf 2 2\n1 -2 0\n2 0\n")
    with pytest.raises(BoardSyntaxError) as caught:
        load(path)
    assert (caught.value.line, caught.value.column) == (3, 1)
    assert "compile" in str(caught.value) and "'p cnf'" in str(caught.value)


class TestFormatBoard:
    def test_a_layout_written_is_the_layout_given(self):
        """A mine off the board was dropped silently (the file written held another layout);
        text where a Board goes was an AttributeError. Both are named; a layout on the board
        reads back equal."""
        from satsweeper.errors import InputError
        with pytest.raises(InputError, match=r"mines on the 2x2 board \(got \(9, 9\)\)"):
            format_board(Board(2, 2), frozenset({(9, 9)}))
        with pytest.raises(InputError, match="a Board"):
            format_board("1.\n")
        read = parse_puzzle(format_board(Board(2, 2, total_mines=1), frozenset({(1, 1)})))
        assert read.mines == frozenset({(1, 1)})

    @pytest.mark.parametrize("board, said", [
        (Board(1, 3, {(0, 1): 9}), r"a number 0 to 2 at 0,1, as a file can hold it \(got 9;"),
        (Board(3, 3, {(1, 1): -1}), r"a number 0 to 8 at 1,1, as a file can hold it \(got -1;"),
        (Board(1, 3, {(0, 1): 1}, total_mines=7), r"a total of 0 to 3 mines, as a file can hold it \(got 7;"),
    ])
    def test_what_no_file_can_hold_is_refused(self, board, said):
        """A Board may hold a number no square can show (the library answers it inconsistent);
        format_board wrote it as text parse_board then refused ('.9.', '-1', 'mines: 7')."""
        from satsweeper.errors import InputError
        from satsweeper.reasoning import check
        assert not check(board).consistent
        with pytest.raises(InputError, match=said):
            format_board(board)

    @settings(max_examples=300, deadline=None)
    @given(rows=st.integers(1, 7), cols=st.integers(1, 7), seed=st.integers(0, 10**6),
           tokenized=st.booleans())
    def test_a_board_kept_as_arrays_is_written_as_any_other(self, rows, cols, seed, tokenized):
        """A board of arrays (a compiled circuit's) is written from its arrays (a dict of every
        square's token took 3.7 minutes and 5.7 GB on 24.6 million squares): the same text, or
        the same refusal, as the same board kept as dicts, names, mines and bad numbers included."""
        import numpy as np
        from satsweeper.board import FLAG_SQUARE, VOID_SQUARE
        from satsweeper.errors import InputError
        rng = random.Random(seed)
        squares = np.array([[rng.choice([-1, -1, 0, 1, 2, 3, 5, 8, FLAG_SQUARE, VOID_SQUARE])
                             for _ in range(cols)] for _ in range(rows)], dtype=np.int8)
        hidden = [(r, c) for r in range(rows) for c in range(cols) if squares[r, c] == -1]
        picked = rng.sample(hidden, min(len(hidden), rng.randint(0, 2)))
        names = dict(zip(picked, rng.sample(["a", "x1", "b[2]", "q'", "z", "F"], len(picked))))
        arrays = Board.from_squares(squares, total_mines=rng.choice([None, 1, 60]), names=names)
        dicts = Board(rows, cols, dict(arrays.clues), frozenset(arrays.flags), frozenset(arrays.voids),
                      names, arrays.total_mines)
        mines = frozenset(rng.sample(hidden, min(len(hidden), rng.randint(0, 2))))

        def written(board):
            try:
                return format_board(board, mines, tokenized=tokenized)
            except InputError as err:
                return str(err)
        assert written(arrays) == written(dicts)

    @settings(max_examples=200, deadline=None)
    @given(rows=st.integers(1, 4), cols=st.integers(1, 4), seed=st.integers(0, 10**6))
    def test_written_or_refused_never_unreadable(self, rows, cols, seed):
        """Any numbers from -1 to 9 and any total: format_board refuses, or parse_board reads it back equal."""
        from satsweeper.errors import InputError
        rng = random.Random(seed)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        clues = {cell: rng.randint(-1, 9) for cell in rng.sample(cells, rng.randint(0, len(cells)))}
        board = Board(rows, cols, clues, total_mines=rng.choice([None, rng.randint(0, rows * cols + 1)]))
        try:
            text = format_board(board)
        except InputError:
            assert any(not 0 <= n <= len(board.neighbours(c)) for c, n in clues.items()) or not (
                0 <= board.total_mines <= rows * cols)
        else:
            assert parse_board(text) == board
