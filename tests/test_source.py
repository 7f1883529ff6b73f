"""read_any / load (format by content), and hostile input found by scripts/fuzz.py."""

import pytest

from satsweeper import BoardSyntaxError, load, read_any
from satsweeper.gadgets.formula import parse_formula
from satsweeper.gadgets.gadget import parse_gadget
from satsweeper.gadgets.repair import repair


def located(call, *args):
    """The error ``call`` raises, checked to carry a location."""
    with pytest.raises(BoardSyntaxError) as info:
        call(*args)
    err = info.value
    assert err.line >= 1 and err.column >= 1 and err.expected
    return err


class TestReadAny:
    def test_format_by_content(self, tmp_path):
        """A WxHxM first line is .mine whatever the name; '=' a system; else native."""
        path = tmp_path / "noext"
        path.write_text("3x1x1\n1H0\n")
        assert load(path).board.total_mines == 1
        assert type(read_any("x + y = 1\nmines: 1\n")).__name__ == "System"
        assert read_any("mines: 1\n1.\n").board.total_mines == 1
        assert read_any("\ufeff2x1x1\n1H\n").board.width == 2

    def test_extension_breaks_ties(self):
        """A .mine name whose first line is not a header gets the .mine header error."""
        err = located(read_any, "1H0\n", "b.mine", ".mine")
        assert "WIDTHxHEIGHTxMINES" in err.expected
        assert read_any("1.0\n", "b.txt", ".txt").board.width == 3

    def test_unreadable(self, tmp_path):
        """A directory, a missing file and non-UTF-8 bytes are located errors."""
        assert "directory" in located(load, tmp_path).found
        located(load, tmp_path / "missing.txt")
        (tmp_path / "b.txt").write_bytes(b"mines: 1\n.\xff.\n")
        assert (located(load, tmp_path / "b.txt").line, located(load, tmp_path / "b.txt").column) == (2, 2)

    def test_stdin(self, monkeypatch):
        """'-' reads standard input, recognised by content too."""
        import io
        import sys
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"2x1x1\n1H\n")))
        assert load("-").board.total_mines == 1


class TestFormulaNumbers:
    def test_huge_number_is_located(self):
        """A 5000-digit number is refused where it is, not int()'s ValueError (pyeda's lexer)."""
        err = located(parse_formula, "a |\n b | " + "9" * 5000)
        assert (err.line, err.column) == (2, 6) and "9 digits" in err.expected


class TestRepairOfHostileNumbers:
    def test_number_no_neighbour_can_make(self):
        """A printed number with no hidden neighbour that the flags cannot make is a
        repair answer, not pysat's 'Wrong bound' (found by scripts/fuzz.py)."""
        gadget = parse_gadget("gadget: not\ninputs: x\noutputs: y = ~x\nlayout: tokens\n"
                              "x 1 y\n1 1 1\n2 1 1\n", "g.txt")
        assert repair(gadget, attempts=5) is not None
