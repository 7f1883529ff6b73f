"""Every reader, fed arbitrary text and bytes, returns a value or raises a SatsweeperError.

Hypothesis draws text from the characters that broke readers before
(non-ASCII digits, form feeds and U+2028, NULs, BOMs, mixed line ends,
parentheses and negations for nesting) and mutates the bundled files; the
long run over many mutations is ``scripts/fuzz.py``.
"""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from satsweeper.errors import SatsweeperError
from satsweeper.gadgets.formula import parse_dimacs, parse_formula
from satsweeper.gadgets.gadget import parse_gadget, verify
from satsweeper.source import decode
from satsweeper.systems import parse_system
from satsweeper.textio import parse_cell, parse_mine_puzzle, parse_puzzle, read_any

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").glob("*.*"))
           + sorted((ROOT / "gadgets").glob("*.txt"))]
ODD = list("0123456789.*F-xyH=+#:,;()~&|^ \t\n\r") + [
    "⁵", "٣", "３", "\x00", "\f", "\u2028", "\x85", "\ufeff", "\r\n", "mines: ", "start: ",
    "other: ", "inputs: x", "outputs: y = ", "layout: tokens\n", "p cnf ", "9" * 4400, "(" * 600, "~" * 600]
READERS = [parse_puzzle, parse_mine_puzzle, parse_system, read_any, parse_gadget, parse_formula,
           parse_dimacs, parse_cell]
FAST = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))

NUMBERS = ["1", "3", "0", "⁵", "٣", "３", "9" * 4400, "1" * 12, "-1", ""]
ENDS = ["\n", "\r\n", "\r", "\f", "\u2028", "\x00"]
line = st.one_of(
    st.tuples(st.sampled_from(["mines: ", "start: 0,", "start: ", "other: ", "a + b = ", "x + y = ",
                               "p cnf 3 ", "p cnf ", "1 -2 ", "3x3x", ""]),
              st.sampled_from(NUMBERS)).map("".join),
    st.lists(st.sampled_from(list(".*F-xyH123") + NUMBERS[3:6]), min_size=1, max_size=6).map("".join),
    st.sampled_from(ODD))
structured = st.lists(st.tuples(line, st.sampled_from(ENDS)).map("".join), max_size=6).map("".join)
texts = structured | st.lists(st.sampled_from(ODD) | st.text(max_size=3), max_size=30).map("".join)


@st.composite
def mutants(draw):
    """A bundled file with a few characters replaced, inserted or deleted."""
    text = draw(st.sampled_from(SAMPLES))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        piece = draw(st.sampled_from(ODD))
        kind = draw(st.sampled_from(["insert", "replace", "delete"]))
        end = at + (1 if kind != "insert" else 0)
        text = text[:at] + ("" if kind == "delete" else piece) + text[end:]
    return text


def value_or_clean_error(reader, text):
    try:
        result = reader(text, "<fuzz>") if reader is not parse_cell else reader(text)
    except SatsweeperError as err:
        assert err.line is None or err.line >= 1
        assert err.got is None or len(err.got) <= 41
        return None
    return result


@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.__name__)
class TestEveryReader:
    @FAST
    @given(text=texts)
    def test_arbitrary_text(self, reader, text):
        """Odd characters, huge numbers and deep nesting never crash a reader."""
        value_or_clean_error(reader, text)

    @FAST
    @given(text=mutants())
    def test_mutated_files(self, reader, text):
        """A bundled file with a few edits is read or cleanly refused."""
        value_or_clean_error(reader, text)


@FAST
@given(data=st.binary(max_size=200) | mutants().map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_bytes(data):
    """Any bytes decode or are refused at the first bad byte, inside the data."""
    try:
        text = decode(data, "<fuzz>")
    except SatsweeperError as err:
        assert 1 <= err.line <= data.count(b"\n") + 1
        return
    value_or_clean_error(read_any, text)


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=mutants())
def test_verify_small_gadgets(text):
    """Verifying a mutated gadget gives a verdict or a clean error."""
    gadget = value_or_clean_error(parse_gadget, text)
    if gadget is not None and len(gadget.board.hidden_cells()) <= 300:
        try:
            verify(gadget, max_inputs=3)
        except SatsweeperError:
            pass
