"""One-dimensional consistency: our automaton, Pedersen's table, and SAT agree."""

from __future__ import annotations

import random
from itertools import product

import pytest

from satsweeper.line import ALPHABET, board_of, is_consistent, pedersen_accepts
from satsweeper.reasoning import check


def words(up_to: int):
    for n in range(1, up_to + 1):
        for letters in product(ALPHABET, repeat=n):
            yield "".join(letters)


class TestAutomaton:
    def test_agrees_with_sat_on_every_short_word(self):
        """All 3,905 words of length 1-5 against the SAT engine (length 7 in
        scripts/line_automaton.py; the random long words below)."""
        for word in words(5):
            assert is_consistent(word) == check(board_of(word)).consistent, word

    def test_agrees_with_sat_on_random_long_words(self):
        """Random words of length 20-60, with blanks frequent enough to be interesting."""
        rng = random.Random(4)
        verdicts = set()
        for _ in range(300):
            word = "".join(rng.choice("0112bbbb*") for _ in range(rng.randint(20, 60)))
            verdict = is_consistent(word)
            assert verdict == check(board_of(word)).consistent, word
            verdicts.add(verdict)
        assert verdicts == {True, False}  # both answers occur: the test can fail

    def test_seed_table_as_printed_is_right(self):
        """Table 3.1 accepts exactly the consistent words (length 1-7 here; 10 in the script)."""
        for word in words(7):
            assert pedersen_accepts(word) == is_consistent(word), word

    def test_rejects_other_symbols(self):
        with pytest.raises(ValueError):
            is_consistent("1x")
