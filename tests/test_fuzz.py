"""Arbitrary input: every reader returns a value or raises a SatsweeperError,
and the CLI answers with an exit code and no traceback.

``scripts/fuzz.py`` does the same at scale on mutated example files.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from satsweeper.cli import main
from satsweeper.errors import BoardSyntaxError, SatsweeperError, TooComplexError
from satsweeper.gadgets import parse_gadget
from satsweeper.gadgets.formula import parse_dimacs, parse_formula
from satsweeper.systems import parse_system
from satsweeper.textio import parse_mine_puzzle, parse_puzzle

READERS = [parse_puzzle, parse_mine_puzzle, parse_system, parse_formula, parse_dimacs, parse_gadget]

# Text that reaches the readers' corners: digits of other scripts, huge numbers,
# NULs, every kind of line break, parentheses, headers and squares.
PIECES = st.sampled_from([
    "mines: ", "start: ", "layout: tokens", "gadget: g", "inputs: a", "outputs: b = a", "accepts: a",
    "other: ", "cells: a b", "p cnf 3 2", "3x2x1", "= 1", " + ", "(", ")", "~", "&", "|", "^", "=>",
    ".", "*", "F", "-", "H", "M", "?", "0", "1", "3", "8", "9", "a", "x'", "x[1]", " ", "\t",
    "\n", "\r\n", "\r", "\f", "\v", "\x00", "\u2028", "\u0085", "\ufeff", "\u00b9", "\u0663", "\uff13",
    "9" * 30, "#", ",", "-1", "0 ",
])
TEXTS = st.one_of(st.text(max_size=120), st.lists(PIECES, max_size=40).map("".join))


class TestReaders:
    @settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(TEXTS, st.sampled_from(READERS))
    def test_a_value_or_a_clean_error(self, text, reader):
        """No reader lets anything but a SatsweeperError escape."""
        try:
            reader(text, "fuzz.txt")
        except SatsweeperError as err:
            if isinstance(err, BoardSyntaxError):
                lines = max(1, text.count("\n") + text.count("\r") + 1)
                assert 1 <= err.line <= lines, "a line number inside the text"
                assert len(str(err)) < 400, "a message of one short line"

    @pytest.mark.parametrize("reader", READERS)
    def test_not_text(self, reader):
        """The Python API given bytes or a number: a clean error too."""
        for value in (b"..\n", 12, None):
            with pytest.raises(SatsweeperError):
                reader(value, "x")


class TestCases:
    @pytest.mark.parametrize("text", ["mines: \u00b9\n..\n", "mines: \u0663\n..\n", "mines: \uff13\n..\n",
                                      ".\u0663.\n", ".\uff13.\n", ".\u00b9.\n", "start: \u0661,0\n..\n"])
    def test_other_scripts_digits_are_not_numbers(self, text):
        """Superscripts, Arabic-Indic and full-width digits are refused, with their place."""
        with pytest.raises(BoardSyntaxError) as found:
            parse_puzzle(text, "b.txt")
        assert found.value.line in (1, 2)

    @pytest.mark.parametrize("text", ["mines: " + "9" * 5000 + "\n..\n", "start: " + "9" * 5000 + ",0\n..\n"])
    def test_huge_numbers(self, text):
        """A number of thousands of digits is refused, quoted short."""
        with pytest.raises(BoardSyntaxError) as found:
            parse_puzzle(text, "b.txt")
        assert len(str(found.value)) < 200

    def test_mine_header_digits(self):
        with pytest.raises(BoardSyntaxError):
            parse_mine_puzzle("\u0663x1x1\nHHH\n", "m")

    def test_only_real_line_breaks_split(self):
        """A form feed or U+2028 stays inside its line: shapes and line numbers hold."""
        with pytest.raises(BoardSyntaxError) as found:
            parse_puzzle("..\n.\u2028\n..\n", "b")
        assert found.value.line == 2
        assert parse_puzzle("\ufeffmines: 1\n1.\n", "b").board.total_mines == 1  # a BOM is skipped

    def test_deep_nesting(self):
        """Deeply nested formulas and gadget claims are refused, not a RecursionError."""
        deep = "(" * 5000 + "a" + ")" * 5000
        with pytest.raises(BoardSyntaxError):
            parse_formula(deep)
        with pytest.raises(BoardSyntaxError):
            parse_gadget(f"gadget: g\ninputs: a\noutputs: b = {deep}\nlayout: tokens\na 1 b\n")

    def test_dimacs_digits_and_bytes(self, tmp_path):
        """DIMACS literals are ASCII integers; a file that is not UTF-8 is a clean error."""
        with pytest.raises(BoardSyntaxError):
            parse_dimacs("p cnf 2 1\n1 \u0663 0\n")
        from satsweeper.gadgets.formula import read_formula
        bad = tmp_path / "f.cnf"
        bad.write_bytes(b"p cnf 2 1\n1 \xff 0\n")
        with pytest.raises(BoardSyntaxError) as found:
            read_formula(str(bad))
        assert found.value.line == 2

    def test_too_many_variables_for_a_truth_table(self):
        """40 variables: refused up front, not a MemoryError."""
        formula = parse_formula(" | ".join(f"v{i}" for i in range(40)))
        with pytest.raises(TooComplexError):
            formula.models()

    def test_other_cells_are_bounded(self):
        with pytest.raises(BoardSyntaxError):
            parse_system("a + b = 1\nother: 99999999999\n")


class TestGadgetVerify:
    def test_the_total_is_a_rule(self):
        """gadget verify does not ignore 'mines:' (the conflict example stays inconsistent)."""
        from pathlib import Path

        from satsweeper.gadgets import verify
        text = (Path(__file__).resolve().parent.parent / "examples" / "conflict.txt").read_text()
        lines = [ln for ln in text.splitlines() if not ln.startswith("#")]
        gadget = parse_gadget("gadget: c\n" + "\n".join(lines) + "\n", "c.txt")
        assert not verify(gadget).cases[0].consistent

    def test_a_plain_board_is_not_a_gadget(self):
        with pytest.raises(BoardSyntaxError):
            parse_gadget("mines: 1\n1.\n", "plain.txt")

    def test_inputs_are_bounded(self):
        from satsweeper.gadgets import verify
        names = [f"i{k}" for k in range(17)]
        gadget = parse_gadget("gadget: g\ninputs: " + " ".join(names) + "\nlayout: tokens\n"
                              + " ".join(names) + "\n", "g.txt")
        with pytest.raises(TooComplexError):
            verify(gadget)


class TestCommandLine:
    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.binary(max_size=80) | TEXTS.map(lambda t: t.encode("utf-8", "surrogatepass")),
           st.sampled_from(["check", "solve", "count", "probs", "hint", "noguess", "unique"]))
    def test_no_traceback_from_stdin(self, data, command):
        """Any bytes on stdin: an exit code of the contract and no traceback."""
        result = CliRunner().invoke(main, [command, "-"], input=data)
        assert result.exit_code in (0, 1, 2, 3), result.output
        assert "Traceback" not in result.output
