"""Errors raised for input the user gave us.

An inconsistent board is *not* an error: it is an answer (see
:mod:`satsweeper.reasoning`).  Errors are for input that cannot be read or
questions that cannot be asked, and every message says what must hold and
what was found instead.

Every error carries the same five attributes, ``file``, ``line``, ``col``,
``expected`` and ``got`` (None where they do not apply), so a front end can
report any of them the same way (the CLI's JSON errors use these names).
"""

from __future__ import annotations

# Offending values are echoed in messages; a 100 KB line is no help to anyone.
SHOWN = 40


def shown(value: str, limit: int = SHOWN) -> str:
    """``value`` cut to ``limit`` characters, with an ellipsis if it was longer.

    >>> shown("x" * 50)
    'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'
    """
    return value if len(value) <= limit else value[:limit] + "…"


class SatsweeperError(Exception):
    """Base class of every error satsweeper raises on purpose.

    Attributes:
        file: the file or source name the input came from, if any.
        line, col: 1-based position in it, if known.
        expected: what must hold, if stated apart from the message.
        got: what was found instead (cut to a readable length).
    """

    file: str | None = None
    line: int | None = None
    col: int | None = None
    expected: str | None = None
    got: str | None = None


class BoardSyntaxError(SatsweeperError, ValueError):
    """A board, constraint, gadget or formula text that cannot be read.

    The message has the form ``file:line:col: expected ... (got ...)``, with
    1-based line and column numbers as editors count them.  What was found
    is cut to 40 characters.

    >>> str(BoardSyntaxError("b.txt", 3, 5, "a digit 0-8", "'9'"))
    "b.txt:3:5: expected a digit 0-8 (got '9')"
    """

    def __init__(self, source: str, line: int, column: int, expected: str, found: str):
        found = shown(found)
        self.source = self.file = source
        self.line = line
        self.column = self.col = column
        self.expected = expected
        self.found = self.got = found
        super().__init__(f"{source}:{line}:{column}: expected {expected} (got {found})")


class LimitError(SatsweeperError, ValueError):
    """An input beyond a limit the library sets to bound its work or memory.

    >>> e = LimitError("at most 16 inputs", "18 inputs")
    >>> str(e), e.expected, e.got
    ('expected at most 16 inputs (got 18 inputs)', 'at most 16 inputs', '18 inputs')
    """

    def __init__(self, expected: str, found: str, source: str | None = None):
        self.file = source
        self.expected = expected
        self.got = shown(found)
        where = f"{source}: " if source else ""
        super().__init__(f"{where}expected {expected} (got {self.got})")


class UnwritableError(SatsweeperError, ValueError):
    """A board that the chosen file format cannot carry (void squares in a ``.mine`` file ...)."""

    def __init__(self, expected: str, found: str):
        self.expected, self.got = expected, shown(found)
        super().__init__(f"expected {expected} (got {self.got})")


class CellError(SatsweeperError, ValueError):
    """A cell named in a question that is not a hidden cell of the board."""


class TooComplexError(SatsweeperError, RuntimeError):
    """An engine gave up on a problem beyond the limit it was given."""
