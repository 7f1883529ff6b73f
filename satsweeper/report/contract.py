"""The JSON contract every command keeps (``docs/json.md`` describes it).

Every answer is one object whose top level carries ``"command"`` and the
schema ``"version"``; an error is an object of the same kind with
``"error"`` and where it was found.  Integers that can grow without bound
(counts) are strings of their full decimal digits, probabilities exact
fractions as strings beside a float.

>>> envelope("count", {"count": integer_text(10 ** 5000)})["count"][:4]
'1000'
>>> error_object("check", "expected a digit 0-8", file="b.txt", line=2, col=3, got="'9'")["line"]
2
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Callable, Iterable, Iterator

VERSION = 1
"""Bumped when a field changes meaning or disappears (adding one does not)."""


def envelope(command: str, data: dict) -> dict:
    """``data`` under the common top level."""
    return {"command": command, "version": VERSION, **data}


def cell_json(cell) -> dict:
    """A cell (row, col) as the JSON contract names it.

    >>> cell_json((2, 5))
    {'row': 2, 'col': 5}
    """
    return {"row": cell[0], "col": cell[1]}


def error_object(command: str | None, message: str, *, file: str | None = None,
                 line: int | None = None, col: int | None = None,
                 expected: str | None = None, got: str | None = None) -> dict:
    """An error as JSON: every key present, ``None`` where it does not apply."""
    return {"command": command, "version": VERSION, "error": message, "file": file,
            "line": line, "col": col, "expected": expected, "got": got}


def error_parts(err: Exception) -> dict:
    """A library error (:mod:`satsweeper.errors`) as answers show it: the message
    and the fields of :func:`error_object` (``None`` where one does not apply).

    The library says what must hold and what it got, ``X (got Y)``; answers
    say ``expected X (got Y)`` with X and Y apart.  A syntax error keeps its
    file, line and column; a problem beyond a limit is its message alone.

    >>> from satsweeper.errors import InputError
    >>> error_parts(InputError("a level name (got '3x')"))["message"]
    "expected a level name (got '3x')"
    """
    from ..errors import BoardSyntaxError, TooComplexError
    parts = dict(message=str(err), file=None, line=None, col=None, expected=None, got=None)
    if isinstance(err, TooComplexError):
        return parts
    if not isinstance(err, BoardSyntaxError):
        must, cut_at, got = str(err).rpartition(" (got ")
        if cut_at and got.endswith(")") and not must.startswith("expected "):
            return dict(parts, message=f"expected {must} (got {got[:-1]})", expected=must, got=got[:-1])
    return dict(parts, file=getattr(err, "source", None), line=getattr(err, "line", None),
                col=getattr(err, "column", None), expected=getattr(err, "expected", None),
                got=getattr(err, "found", None))


def integer_text(n: int) -> str:
    """All the digits of ``n``, however many (``str`` stops at 4,300).

    gmpy2 converts big integers in quasi-linear time, where Python's own
    conversion is quadratic and, since 3.11, limited.
    """
    if n.bit_length() < 14000:  # about 4,200 digits: the limit's safe side
        return str(n)
    import gmpy2
    return gmpy2.mpz(n).digits(10)


# Text answers show an integer in full up to Python's own limit for str(int);
# a longer one (the count of a big board: 734,000 digits on 2000x2000) by its
# ends and its length.  JSON always has every digit.
TEXT_DIGITS = 4300


def integer_words(n: int) -> str:
    """An integer for a text answer: in full, or its first and last digits and how many.

    >>> integer_words(12345), integer_words(7 ** 6000)
    ('12345', '3874717868...7683600001 (5,071 digits; --json gives them all)')
    """
    digits = integer_text(n)
    if len(digits) <= TEXT_DIGITS:
        return digits
    return f"{digits[:10]}...{digits[-10:]} ({len(digits):,} digits; --json gives them all)"


def fraction_text(p: Fraction) -> str:
    """``57/88``, or ``0`` and ``1``; numerators and denominators in full."""
    if p.denominator == 1:
        return integer_text(p.numerator)
    return f"{integer_text(p.numerator)}/{integer_text(p.denominator)}"


def probability_json(p: Fraction) -> dict:
    """A probability: exact ``"probability"`` and a float ``"p"``."""
    return {"probability": fraction_text(p), "p": float(p)}


# Per-cell lists longer than this are written as they are made (a JsonList):
# 4 million dicts for a 2000x2000 board took minutes and gigabytes.
STREAMED = 40_000


class JsonList:
    """A long JSON list made while it is written, item by item.

    ``items()`` gives the items afresh, ``encode(item)`` each one's JSON text.
    A big board's answer lists millions of cells; as dicts they cost
    gigabytes, as text written in chunks only the text.  :func:`write_json`
    writes objects holding one.

    >>> rows = JsonList(lambda: range(3), lambda i: f'{{"n": {i}}}', 3)
    >>> pieces = []
    >>> write_json({"command": "x", "cells": rows}, pieces.append)
    >>> "".join(pieces)
    '{"command": "x", "cells": [{"n": 0}, {"n": 1}, {"n": 2}]}'
    >>> len(rows)
    3
    """

    def __init__(self, items: Callable[[], Iterable], encode: Callable[[object], str], length: int,
                 pieces: Callable[[], Iterable[str]] | None = None) -> None:
        self.items = items
        self.encode = encode
        self.length = length
        self.pieces = pieces  # a faster way to the same text: joined items, a chunk at a time

    def __len__(self) -> int:
        return self.length

    def chunks(self, size: int = 4096) -> Iterator[str]:
        """The list's JSON text in pieces of ``size`` items."""
        if self.pieces is not None:
            first = True
            for piece in self.pieces():
                if piece:
                    yield piece if first else ", " + piece
                    first = False
            return
        batch: list[str] = []
        first = True
        for item in self.items():
            batch.append(self.encode(item))
            if len(batch) == size:
                yield ("" if first else ", ") + ", ".join(batch)
                first, batch = False, []
        if batch:
            yield ("" if first else ", ") + ", ".join(batch)


def write_json(data: dict, write: Callable[[str], object]) -> None:
    """``json.dumps(data)`` handed to ``write`` in pieces, top-level :class:`JsonList` values streamed."""
    streams = {key: value for key, value in data.items() if isinstance(value, JsonList)}
    marks = {key: f"\x00{key}\x00" for key in streams}
    text = json.dumps({key: marks.get(key, value) for key, value in data.items()})
    for key, rows in streams.items():
        before, text = text.split(json.dumps(marks[key]), 1)
        write(before + "[")
        for chunk in rows.chunks():
            write(chunk)
        write("]")
    write(text)
