"""The kinds of error satsweeper raises on purpose: input it cannot use, and problems beyond a limit.

A module with an error of its own subclasses one of these (``gadgets/layout.py``,
``optimal.py``, ``runner.py``, ``web/play.py``), so the command line's exit code follows
from the kind.  The few plain exceptions elsewhere (``journal.JournalBusy``,
``runner.OtherCode``, ``strategies.endgame.TooBig``) are signals between two of our own
functions, caught by name, never shown as they are.

An inconsistent board is *not* an error: it is an answer (see
:mod:`satsweeper.reasoning`), except to a question that has no answer on
it, a strategy's next move (:class:`InconsistentError`).  Errors are for input that cannot be read,
questions that cannot be asked and work beyond a limit (:class:`TooComplexError`),
and every message says what must hold and what was found instead.

Running out of a time the caller set is not among them: :class:`satsweeper.limits.TimeUp`
(and the server's own, :class:`satsweeper.web.workers.TimeUp`) are plain exceptions, so
that an ``except SatsweeperError`` around a step never swallows the time limit meant for
the command around it.  Catch them by name.
"""

from __future__ import annotations


class SatsweeperError(Exception):
    """Base class of every error satsweeper raises on purpose about its input or a limit of
    the work (a time limit excepted: see the module's docstring)."""


class BoardSyntaxError(SatsweeperError, ValueError):
    """A board or constraint file that cannot be read.

    The message has the form ``file:line:col: expected ... (got ...)``, with
    1-based line and column numbers as editors count them.

    >>> str(BoardSyntaxError("b.txt", 3, 5, "a digit 0-8", "'9'"))
    "b.txt:3:5: expected a digit 0-8 (got '9')"
    """

    def __init__(self, source: str, line: int, column: int, expected: str, found: str):
        self.source = source
        self.line = line
        self.column = column
        self.expected = expected
        self.found = shorten(str(found))
        super().__init__(f"{source}:{line}:{column}: expected {expected} (got {self.found})")

    def __reduce__(self):  # pickled whole (errors cross process boundaries)
        return (type(self), (self.source, self.line, self.column, self.expected, self.found))


MOST = 60  # characters of an offending value quoted in a message


def shorten(text: str, most: int = MOST) -> str:
    """``text`` cut to ``most`` characters, saying how long it was.

    A message quotes what it found, but a 100 KB line is not a message.

    >>> shorten("x" * 100, 10)
    'xxxxxxxxx… (100 characters)'
    """
    if len(text) <= most:
        return text
    return f"{text[:most - 1]}… ({len(text)} characters)"


def cut(text: str, most: int = MOST) -> str:
    """``text`` as ``repr`` cut to ``most`` characters, so a message stays one line.

    >>> cut("x" * 100, 10)
    "'xxxxxxxxx…' (100 characters)"
    """
    if len(text) <= most:
        return repr(text)
    return f"{text[:most - 1]!r}"[:-1] + f"…' ({len(text)} characters)"


class InputError(SatsweeperError, ValueError):
    """A value given to the library that it cannot use: a level, a strategy
    name, a start cell, a solver name, a board a format cannot hold.

    The message says what must hold and what was given: ``a level name ...
    or WIDTHxHEIGHTxMINES (got '3x')``.  A ValueError too, for callers that
    catch those.
    """


class CellError(SatsweeperError, ValueError):
    """A cell named in a question that is not a hidden cell of the board."""


class InconsistentError(SatsweeperError, ValueError):
    """A position no layout explains, given where one is needed: a strategy
    has no move on it.  ``conflict`` names a minimal set of rules that
    cannot all hold (clues, the total), as
    :attr:`satsweeper.reasoning.Consistency.conflict` does.

    >>> str(InconsistentError(("the 1 at 0,0", "the 2 at 0,1")))
    'a position some layout explains (got one where the 1 at 0,0 and the 2 at 0,1 cannot all hold)'
    """

    def __init__(self, conflict: tuple = ()):
        self.conflict = tuple(conflict)
        names = [str(rule) for rule in self.conflict]
        named = " and ".join(filter(None, (", ".join(names[:-1]), names[-1]))) if names else ""
        where = f"one where {named} cannot all hold" if named else "one no layout explains"
        super().__init__(f"a position some layout explains (got {where})")

    def __reduce__(self):  # pickled whole (errors cross process boundaries)
        return (type(self), (self.conflict,))


class TooComplexError(SatsweeperError, RuntimeError):
    """An engine gave up on a problem beyond the limit it was given."""
