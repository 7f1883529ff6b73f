"""Hostile input to every reader: a clean located error or the right value, never a crash."""

import pytest

from satsweeper import BoardSyntaxError, LimitError, SatsweeperError, load, parse_cell, read_any
from satsweeper.errors import shown
from satsweeper.gadgets.formula import MAX_DEPTH, parse_dimacs, parse_formula, read_formula
from satsweeper.gadgets.gadget import Gadget, parse_gadget, read_gadget, verify
from satsweeper.source import decode, lines_of
from satsweeper.systems import MAX_OTHERS, parse_system
from satsweeper.textio import format_mine, parse_board, parse_mine, parse_puzzle, read_board
from satsweeper.board import Board

from satsweeper.constraints import problem_of

from .oracle import explanations


def located(call, *args):
    """The error ``call`` raises, checked to carry a location inside the text."""
    with pytest.raises(BoardSyntaxError) as info:
        call(*args)
    err = info.value
    assert err.file and err.line >= 1 and err.col >= 1 and err.expected and err.got is not None
    return err


class TestDigits:
    @pytest.mark.parametrize("digit", ["⁵", "٣", "３", "𝟑", "²"])
    def test_unicode_digit_square_is_refused(self, digit):
        """A square that is a non-ASCII digit is named as found, with its column."""
        err = located(parse_board, f"..\n.{digit}\n", "b.txt")
        assert (err.line, err.col) == (2, 2) and digit in err.got

    @pytest.mark.parametrize("digit", ["⁵", "٣", "３"])
    def test_unicode_digit_in_headers_and_cells(self, digit):
        """mines:, start:, a .mine header and a cell argument accept only 0-9."""
        assert located(parse_board, f"mines: {digit}\n...\n", "b").line == 1
        assert located(parse_puzzle, f"start: 0,{digit}\n...\n", "b").line == 1
        located(parse_mine, f"3x1x{digit}\nHHH\n", "b.mine")
        located(parse_cell, f"1,{digit}")
        located(parse_system, f"a + b = {digit}\n", "s")
        located(parse_system, f"a + b = 1\nother: {digit}\n", "s")
        located(parse_dimacs, f"p cnf 2 1\n1 {digit} 0\n", "f.cnf")

    @pytest.mark.parametrize("text", ["mines: " + "9" * 5000 + "\n...\n", "start: " + "1" * 5000 + ",0\n..\n"])
    def test_huge_numbers_refused_without_int_crash(self, text):
        """Numbers past 9 digits are refused before int() sees them; the message is short."""
        err = located(parse_puzzle, text, "b")
        assert "at most 9 digits" in err.expected and len(str(err)) < 200

    def test_huge_mine_header(self):
        """A .mine header of 5000 digits is an error on line 1."""
        assert located(parse_mine, "1" * 5000 + "x1x1\nH\n", "b.mine").line == 1

    def test_leading_zeros_are_not_digits_too_many(self):
        """Zeros in front do not make a number long."""
        assert parse_board("mines: 0000000000001\n..\n").total_mines == 1


class TestLines:
    def test_only_newlines_end_lines(self):
        """A form feed or U+2028 stays inside its line and is reported there."""
        for odd in ["\f", "\u2028", "\x1c", "\x85"]:
            err = located(parse_board, f"mines: 1\n.{odd}.\n...\n", "b")
            assert (err.line, err.col) == (2, 2)

    def test_mixed_line_ends_agree(self):
        """\\n, \\r\\n and \\r give the same board and line numbers."""
        boards = {parse_board(sep.join(["mines: 1", "1.", ".."]) + sep) for sep in ["\n", "\r\n", "\r"]}
        assert len(boards) == 1
        assert located(parse_board, "..\r\n..\r.x3\n", "b").line == 3

    def test_byte_order_mark_skipped(self):
        """A UTF-8 byte-order mark does not break the first line (board, .mine, system)."""
        assert parse_board("\ufeffmines: 1\n1.\n").total_mines == 1
        assert read_any("\ufeff2x1x1\n1H\n").board.width == 2
        assert decode("\ufeffa + b = 1\n".encode(), "s") == "a + b = 1\n"

    def test_lines_of_matches_splitlines_on_plain_text(self):
        """On text without exotic breaks, the split is str.splitlines'."""
        text = "a\nb\r\nc\rd\n\ne"
        assert lines_of(text) == text.splitlines()

    def test_error_lines_inside_the_file(self):
        """An empty board's error points at its last line, not past it."""
        assert located(parse_board, "# x\r# y\r", "b").line == 2
        assert located(parse_system, "# x\r# y\r", "s").line == 2


class TestReadAny:
    def test_format_by_content(self, tmp_path):
        """A WxHxM first line is .mine whatever the name; '=' a system; else native."""
        path = tmp_path / "noext"
        path.write_text("3x1x1\n1H0\n")
        assert load(path).board.total_mines == 1
        assert type(read_any("x + y = 1\nmines: 1\n")).__name__ == "System"
        assert read_any("mines: 1\n1.\n").board.total_mines == 1

    def test_extension_breaks_ties(self):
        """A .mine name whose first line is not a header gets the .mine header error."""
        err = located(read_any, "1H0\n", "b.mine", ".mine")
        assert "WIDTHxHEIGHTxMINES" in err.expected

    def test_unreadable(self, tmp_path):
        """A directory, a missing file and non-UTF-8 bytes are located errors."""
        located(load, tmp_path)
        located(load, tmp_path / "missing.txt")
        (tmp_path / "b.txt").write_bytes(b"mines: 1\n.\xff.\n")
        assert (located(load, tmp_path / "b.txt").line, located(read_board, tmp_path / "b.txt").col) == (2, 2)


class TestSystems:
    def test_other_is_capped(self):
        """'other:' beyond the cap is refused at once, not allocated."""
        err = located(parse_system, "a + b = 1\nother: 99999999999\n", "s")
        assert "9 digits" in err.expected
        err = located(parse_system, f"a + b = 1\nother: {MAX_OTHERS + 1}\n", "s")
        assert str(MAX_OTHERS) in err.expected
        assert parse_system(f"a + b = 1\nother: {MAX_OTHERS}\n").others == MAX_OTHERS


class TestFormulas:
    def test_deep_nesting_is_a_located_error(self):
        """Deep parentheses or negations give a BoardSyntaxError, not RecursionError."""
        located(parse_formula, "(" * 5000 + "a" + ")" * 5000)
        located(parse_formula, "~" * 50000 + "a")
        assert parse_formula("(" * 20 + "a" + ")" * 20).variables == ("a",)

    def test_non_utf8_dimacs(self, tmp_path):
        """A DIMACS file with a stray byte is an error at its position."""
        path = tmp_path / "f.cnf"
        path.write_bytes(b"p cnf 2 1\n1 \xe9 0\n")
        err = located(read_formula, str(path))
        assert (err.line, err.col) == (2, 3)

    def test_directory_is_not_a_formula(self, tmp_path):
        """A directory name is refused, not compiled as a variable."""
        located(read_formula, str(tmp_path))

    def test_dimacs_header_bounds(self):
        """Huge or non-ASCII header numbers are refused."""
        located(parse_dimacs, "p cnf 99999999999 1\n1 0\n")
        located(parse_dimacs, "p cnf ３ 1\n1 0\n")
        located(parse_dimacs, "p cnf 2 1\n1 " + "2" * 20 + " 0\n")


GADGET = "gadget: not\ninputs: x\noutputs: y = ~x\nlayout: tokens\n"


class TestGadgets:
    def test_total_is_a_rule(self):
        """A total no explanation meets makes every case inconsistent (as check says)."""
        board = parse_board("layout: tokens\nx 1 y\n")
        assert explanations(problem_of(parse_board("mines: 2\nlayout: tokens\nx 1 y\n"))) == []
        assert len(explanations(problem_of(parse_board("mines: 1\nlayout: tokens\nx 1 y\n")))) == 2
        assert verify(parse_gadget("mines: 2\n" + GADGET + "x 1 y\n")).computes is False
        assert all(c.explanations == 0 for c in verify(parse_gadget("mines: 2\n" + GADGET + "x 1 y\n")).cases)
        assert verify(parse_gadget("mines: 1\n" + GADGET + "x 1 y\n")).computes
        assert board.total_mines is None

    def test_conflict_example_refused_as_plain_board(self):
        """examples/conflict.txt has no gadget header: refused, not 'computes its claim'."""
        err = located(read_gadget, "examples/conflict.txt")
        assert "gadget" in err.expected

    def test_input_limit(self):
        """More inputs than the limit is a LimitError before any work."""
        names = [f"i{k}" for k in range(17)]
        board = parse_board("layout: tokens\n" + " ".join(n + " 1" for n in names) + "\n")
        with pytest.raises(LimitError) as info:
            verify(Gadget("wide", board, tuple(names)))
        assert "16" in info.value.expected and info.value.got == "17 inputs"

    def test_deep_claim(self):
        """A claim nested thousands deep is a located error."""
        located(parse_gadget, "gadget: g\ninputs: x\noutputs: y = " + "(" * 3000 + "x" + ")" * 3000
                + "\nlayout: tokens\nx 1 y\n", "g.txt")


class TestErrors:
    def test_long_values_cut(self):
        """The offending value is cut at 40 characters with an ellipsis."""
        err = located(parse_board, "mines: " + "x" * 1000 + "\n..\n", "b")
        assert len(err.got) <= 41 + 2 and err.got.endswith("…")
        assert shown("abc") == "abc"

    def test_format_mine_refusal_is_a_satsweeper_error(self):
        """A board .mine cannot hold raises a SatsweeperError (still a ValueError)."""
        with pytest.raises(SatsweeperError):
            format_mine(Board(1, 2, {}, voids=frozenset({(0, 0)}), total_mines=0))


class TestRepairOfHostileNumbers:
    def test_number_no_neighbour_can_make(self):
        """A printed number with no hidden neighbour that the flags cannot make is a
        repair answer, not pysat's 'Wrong bound' (found by scripts/fuzz.py)."""
        from satsweeper.gadgets.repair import repair
        gadget = parse_gadget(GADGET + "x 1 y\n1 1 1\n2 1 1\n", "g.txt")
        result = repair(gadget, attempts=5)
        assert result is not None
