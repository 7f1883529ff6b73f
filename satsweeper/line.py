"""One-dimensional Minesweeper: consistency in linear time (Pedersen, 3.3.2).

A 1 x n board is a word over ``0 1 2 b *``: revealed numbers, ``b`` a blank
(hidden) square, ``*`` a known mine.  Pedersen shows 1-CONSISTENCY is decided
by a finite automaton; his table 3.1 is kept here as printed
(:data:`PEDERSEN_TABLE`, run by :func:`pedersen_accepts`).

:func:`is_consistent` is our own automaton, built from first principles: after
each square it keeps the set of possible (previous square is a mine, this
square is a mine) pairs that satisfy every number already closed.  At most
four pairs, so at most sixteen states: a DFA by the subset construction,
linear in the length.  The tests compare both with the SAT engine.
"""

from __future__ import annotations

from .board import Board
from .errors import InputError

ALPHABET = "012b*"

# Table 3.1 of Pedersen as printed: state -> symbol -> next state.  The word is
# wrapped as s...s; ST is the start state, OK the only accepting state.
PEDERSEN_TABLE: dict[str, dict[str, str]] = {
    state: dict(zip("012b*s", row.split()))
    for state, row in {
        "ST": "E E E E E S",
        "S": "Z S1 E Sb M OK",
        "Sb": "Z b1 T bb M OK",
        "S1": "E E E M M E",
        "Z": "Z 01 E 0b E OK",
        "T": "E E E M M E",
        "M": "E *1 T *b M OK",
        "01": "E E E M M E",
        "*1": "Z 01 E 0b E OK",
        "b1": "Z 01 E bb M OK",
        "bb": "Z b1 T bb M OK",
        "0b": "Z 01 E bb M OK",
        "*b": "Z b1 T bb M OK",
        "E": "E E E E E E",
        "OK": "E E E E E E",
    }.items()
}


def _check(word: str) -> None:
    bad = [ch for ch in word if ch not in ALPHABET]
    if bad:
        raise InputError(f"a word over {' '.join(ALPHABET)} (got {bad[0]!r} in {word!r})")


def pedersen_accepts(word: str) -> bool:
    """Run Pedersen's automaton (table 3.1 as printed) on ``s + word + s``.

    >>> pedersen_accepts("1*b2b0")  # Pedersen's figure 3.8
    False
    >>> pedersen_accepts("1*1")
    True
    """
    _check(word)
    state = "ST"
    for symbol in "s" + word + "s":
        state = PEDERSEN_TABLE[state][symbol]
    return state == "OK"


def is_consistent(word: str) -> bool:
    """Does some placement of mines on the blanks explain every number?

    >>> is_consistent("1*b2b0"), is_consistent("1*1"), is_consistent("*1b2")
    (False, True, False)
    """
    _check(word)
    # Pairs (previous is a mine, current is a mine), starting before the board:
    # the square left of the board is no mine and shows no number.
    states = {(False, False)}
    previous = None  # the symbol of the current square
    for symbol in word + "|":  # '|' is the edge right of the board: no mine
        options = (True,) if symbol == "*" else (False,) if symbol in "012|" else (False, True)
        following = set()
        for before, current in states:
            for mine in options:
                if previous is not None and previous.isdigit() and before + mine != int(previous):
                    continue  # the number on the current square is now closed: it must hold
                following.add((current, mine))
        states, previous = following, symbol
        if not states:
            return False
    return True


def board_of(word: str) -> Board:
    """The 1 x n board a word describes (``b`` hidden, ``*`` a flag).

    >>> sorted(board_of("1*b").clues.items()), sorted(board_of("1*b").flags)
    ([((0, 0), 1)], [(0, 1)])
    """
    _check(word)
    clues = {(0, i): int(ch) for i, ch in enumerate(word) if ch.isdigit()}
    flags = frozenset((0, i) for i, ch in enumerate(word) if ch == "*")
    return Board(1, len(word), clues, flags)
