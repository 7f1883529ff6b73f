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

from fractions import Fraction

VERSION = 1
"""Bumped when a field changes meaning or disappears (adding one does not)."""


def envelope(command: str, data: dict) -> dict:
    """``data`` under the common top level."""
    return {"command": command, "version": VERSION, **data}


def error_object(command: str | None, message: str, *, file: str | None = None,
                 line: int | None = None, col: int | None = None,
                 expected: str | None = None, got: str | None = None) -> dict:
    """An error as JSON: every key present, ``None`` where it does not apply."""
    return {"command": command, "version": VERSION, "error": message, "file": file,
            "line": line, "col": col, "expected": expected, "got": got}


def integer_text(n: int) -> str:
    """All the digits of ``n``, however many (``str`` stops at 4,300).

    gmpy2 converts big integers in quasi-linear time, where Python's own
    conversion is quadratic and, since 3.11, limited.
    """
    if n.bit_length() < 14000:  # about 4,200 digits: the limit's safe side
        return str(n)
    import gmpy2
    return gmpy2.mpz(n).digits(10)


def fraction_text(p: Fraction) -> str:
    """``57/88``, or ``0`` and ``1``; numerators and denominators in full."""
    if p.denominator == 1:
        return integer_text(p.numerator)
    return f"{integer_text(p.numerator)}/{integer_text(p.denominator)}"


def probability_json(p: Fraction) -> dict:
    """A probability: exact ``"probability"`` and a float ``"p"``."""
    return {"probability": fraction_text(p), "p": float(p)}
