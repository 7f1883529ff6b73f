"""Input text: bytes to text, text to lines, digits to numbers, each with its location.

Every reader (boards, ``.mine`` files, constraint systems, gadgets, DIMACS)
goes through these few functions so that they agree on what a line, a digit
and a number are:

- a file is UTF-8; a byte-order mark at the start is skipped;
- lines end at ``\\n``, ``\\r\\n`` or ``\\r`` only.  ``str.splitlines`` also
  splits at form feeds, U+2028 and others, which changed boards' shapes and
  moved line numbers in messages; here such characters stay inside their
  line, where the reader reports them;
- a digit is ``0``-``9`` only (``str.isdigit`` accepts superscripts, which
  ``int`` rejects, and ``int`` reads Arabic-Indic and full-width digits);
- a number has at most 9 digits: every count in a file is far smaller, and
  ``int`` of more than 4,300 digits raises.
"""

from __future__ import annotations

import re

from .errors import BoardSyntaxError

BOM = "\ufeff"
MAX_DIGITS = 9
_LINE_END = re.compile(r"\r\n|\r|\n")
_NUMBER = re.compile(r"[0-9]+\Z")


def decode(data: bytes, source: str) -> str:
    """``data`` as UTF-8 text, without a leading byte-order mark.

    Raises:
        BoardSyntaxError: the bytes are not UTF-8 (with the line and column
            of the first bad byte).

    >>> decode(b"\\xef\\xbb\\xbfmines: 1\\n", "b.txt")
    'mines: 1\\n'
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        before = data[:err.start]
        line = before.count(b"\n") + 1
        column = len(before.rsplit(b"\n", 1)[-1].decode("utf-8", errors="replace")) + 1
        raise BoardSyntaxError(source, line, column, "UTF-8 text",
                               f"byte 0x{data[err.start]:02x} at offset {err.start}") from None
    return text[1:] if text.startswith(BOM) else text


def lines_of(text: str) -> list[str]:
    """The lines of ``text``, split at ``\\n``, ``\\r\\n`` and ``\\r`` only.

    A byte-order mark at the start is dropped; as with ``splitlines``, a
    final line end does not start an empty line.

    >>> lines_of("a\\fb\\r\\nc\\rd\\n")
    ['a\\x0cb', 'c', 'd']
    """
    if text.startswith(BOM):
        text = text[1:]
    lines = _LINE_END.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def is_number(text: str) -> bool:
    """Whether ``text`` is a whole number written with ASCII digits.

    >>> is_number("12"), is_number("\u2075"), is_number("\uff13"), is_number("-1")
    (True, False, False, False)
    """
    return bool(_NUMBER.match(text))


def number(text: str, source: str, line: int, column: int, what: str,
           digits: int = MAX_DIGITS) -> int:
    """``text`` as a whole number, or an error saying ``what`` was expected.

    Raises:
        BoardSyntaxError: not ASCII digits, or more than ``digits`` of them.

    >>> number("42", "b.txt", 1, 8, "'mines: N'")
    42
    >>> number("\u0663", "b.txt", 1, 8, "'mines: N'")
    Traceback (most recent call last):
    ...
    satsweeper.errors.BoardSyntaxError: b.txt:1:8: expected 'mines: N' with N written in digits 0-9 (got '\u0663')
    """
    if not is_number(text):
        raise BoardSyntaxError(source, line, column, f"{what} with N written in digits 0-9", repr(text))
    if len(text.lstrip("0")) > digits:
        raise BoardSyntaxError(source, line, column, f"{what} with N of at most {digits} digits",
                               f"{len(text)} digits")
    return int(text)
