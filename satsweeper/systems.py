"""Constraint systems as text: named cells and linear equations.

Researchers write a position as equations over 0/1 variables (Fowler and Young:
``x1 + x2 + x3 = 1``).  A system file holds such equations, optionally the
total number of mines and a number of *other* cells that no equation
mentions::

    # Fowler and Young, section III.3
    x1 + x2 + x3 + x4 + x5 + x7 = 1
    x4 + x5 + x7 + x9 + x10 + x11 = 3
    x5 + x6 + x8 + x10 + x11 + x12 = 2
    other: 21
    mines: 11

Optional ``cells: a b c`` lists the cells in the order answers use (and may
name cells no equation mentions); otherwise cells appear in order of first
mention.  Every cell is 0 or 1; a cell may appear once per equation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .constraints import Constraint, Problem, TotalMines
from .errors import BoardSyntaxError
from .textio import is_number, split_lines

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_']*")
MAX_OTHERS = 1_000_000  # anonymous cells are objects each: a bound, not a memory error
_HEADER = re.compile(r"\s*(mines|other|cells)\s*:\s*(.*?)\s*\Z")


@dataclass(frozen=True)
class Other:
    """One of the anonymous cells that no equation mentions."""

    index: int

    def __str__(self) -> str:
        return f"other#{self.index + 1}"


@dataclass(frozen=True)
class Equation:
    """An equation of a system file: the origin of one rule."""

    line: int
    text: str

    def __str__(self) -> str:
        return f"the equation on line {self.line} ({self.text})"


@dataclass(frozen=True)
class System:
    """A constraint system read from text.

    Attributes:
        problem: the rules, with named cells (str) and :class:`Other` cells.
        names: the named cells in answer order.
        others: how many anonymous cells there are.
    """

    problem: Problem
    names: tuple[str, ...]
    others: int


_GADGET_HEADER = re.compile(r"\s*(outputs|accepts)\s*:", re.IGNORECASE)


def is_system_text(text: str) -> bool:
    """True if ``text`` looks like a system file (it has an equation).

    A gadget's ``outputs: t = u | v`` header is not an equation.

    >>> is_system_text("a + b = 1\\n"), is_system_text("outputs: t = u\\nx 1 t\\n")
    (True, False)
    """
    return any("=" in line for line in split_lines(text)
               if not line.lstrip().startswith("#") and not _GADGET_HEADER.match(line))


def parse_system(text: str, source: str = "<string>") -> System:
    """Parse a system.

    >>> s = parse_system("a + b = 1\\nmines: 1\\nother: 2\\n")
    >>> s.names, s.others, s.problem.mines
    (('a', 'b'), 2, 1)
    """
    order: list[str] = []
    declared: list[str] | None = None
    rules: list[Constraint] = []
    settings: dict[str, tuple[int, int]] = {}
    if not isinstance(text, str):
        raise BoardSyntaxError(source, 1, 1, "text (a str)", type(text).__name__)
    for number, line in enumerate(split_lines(text), start=1):
        body = line.split("#", 1)[0]
        if not body.strip():
            continue
        header = _HEADER.match(body)
        if header:
            key, value = header.groups()
            if key in settings or (key == "cells" and declared is not None):
                raise BoardSyntaxError(source, number, 1, f"one '{key}:' line", "a second one")
            if key == "cells":
                declared = _names(value, number, body.index(":") + 2, source)
                settings[key] = (0, number)
            else:
                if not is_number(value):
                    raise BoardSyntaxError(source, number, body.index(":") + 2,
                                           f"'{key}: N' with N a whole number", repr(value))
                if key == "other" and int(value) > MAX_OTHERS:
                    raise BoardSyntaxError(source, number, body.index(":") + 2,
                                           f"at most {MAX_OTHERS:,} other cells", value)
                settings[key] = (int(value), number)
            continue
        rule = _equation(body, number, source, len(rules))
        rules.append(rule)
        for cell in sorted(rule.cells, key=lambda c: body.index(c)):
            if cell not in order:
                order.append(cell)
    if not rules and declared is None:
        raise BoardSyntaxError(source, max(1, text.count("\n")), 1, "at least one equation",
                               "none")
    names = _ordered(declared, order, source, settings.get("cells", (0, 1))[1])
    others = settings.get("other", (0, 0))[0]
    cells = tuple(names) + tuple(Other(i) for i in range(others))
    mines = None
    if "mines" in settings:
        mines, number = settings["mines"]
        if mines > len(cells):
            raise BoardSyntaxError(source, number, 1, f"a total of 0 to {len(cells)} mines (the cells)",
                                   str(mines))
    total = TotalMines(mines) if mines is not None else None
    return System(Problem(cells, tuple(rules), mines, total), tuple(names), others)


def _names(value: str, number: int, column: int, source: str) -> list[str]:
    names = value.split()
    for name in names:
        if not _NAME.fullmatch(name):
            raise BoardSyntaxError(source, number, column + value.index(name), "a cell name", repr(name))
    if len(set(names)) != len(names):
        raise BoardSyntaxError(source, number, column, "each cell listed once", "a repeated name")
    return names


def _ordered(declared, order, source, line) -> list[str]:
    if declared is None:
        return order
    missing = [n for n in order if n not in declared]
    if missing:
        raise BoardSyntaxError(source, line, 1, "every cell of the equations in 'cells:'",
                               f"no {missing[0]!r}")
    return declared


def _equation(body: str, number: int, source: str, index: int) -> Constraint:
    """``name + name + ... = k``."""
    if body.count("=") != 1:
        raise BoardSyntaxError(source, number, 1, "an equation 'a + b + ... = k' or a header",
                               repr(body.strip()))
    left, right = body.split("=")
    column = len(left) + 2
    if not is_number(right.strip()):
        raise BoardSyntaxError(source, number, column + len(right) - len(right.lstrip()),
                               "a whole number after '='", repr(right.strip()))
    cells: list[str] = []
    position = 0
    for term in left.split("+"):
        name = term.strip()
        col = position + (len(term) - len(term.lstrip())) + 1
        if not _NAME.fullmatch(name):
            raise BoardSyntaxError(source, number, col, "a cell name", repr(name) if name else "nothing")
        if name in cells:
            raise BoardSyntaxError(source, number, col, "each cell once per equation", repr(name))
        cells.append(name)
        position += len(term) + 1
    text = " + ".join(cells) + f" = {int(right)}"
    return Constraint(frozenset(cells), int(right), Equation(number, text))
