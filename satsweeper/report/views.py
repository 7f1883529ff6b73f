"""How answers name cells, clues and explanations, in words and in JSON.

A *view* knows how to label a cell of what was asked about: a board cell is
``ROW,COL`` (or its name), a constraint system's cell is its name.
"""

from __future__ import annotations

import heapq
import json
from typing import Hashable, Iterable, Mapping

from ..board import Board, GridCells
from ..constraints import Clue, TotalMines
from ..systems import System
from ..textio import format_grid
from .contract import STREAMED, JsonList

MINE_MARK = "*"

# Above this many squares a text answer lists and groups cells instead of
# drawing the board (a 2000x2000 picture is 20 MB that nobody reads).
PICTURE_SQUARES = 40_000
# How many cells a list in a text answer names before "and N more".
LISTED = 12


class BoardView:
    """How answers about a board name cells and draw pictures."""

    def __init__(self, board: Board):
        self.board = board

    def json_head(self, cell: Hashable) -> str:
        """``json.dumps(self.json(cell))`` without its closing brace, fast (more keys follow).

        >>> BoardView(Board(1, 2, names={(0, 1): "x"})).json_head((0, 1))
        '{"row": 0, "col": 1, "name": "x"'
        """
        if cell in self.board.names:
            return json.dumps(self.json(cell))[:-1]
        return f'{{"row": {cell[0]}, "col": {cell[1]}'

    def json_template(self) -> str | None:
        """:meth:`json_head` as a ``%`` template of (row, col), or None when cells have names."""
        return None if self.board.names else '{"row": %d, "col": %d'

    def drawable(self) -> bool:
        """Small enough for a picture in a text answer (else cells are listed)."""
        return self.board.height * self.board.width <= PICTURE_SQUARES

    def label(self, cell: Hashable) -> str:
        return self.board.label(cell).replace(" ", "")

    def json(self, cell: Hashable) -> dict:
        """A cell as ``{"row", "col"}`` plus ``"name"`` when it has one."""
        out = {"row": cell[0], "col": cell[1]}
        if cell in self.board.names:
            out["name"] = self.board.names[cell]
        return out

    def picture(self, overlay: Mapping[Hashable, str]) -> str:
        return format_grid(self.board, overlay)


class SystemView:
    """How answers about a constraint system name cells and draw pictures."""

    def __init__(self, system: System):
        self.system = system

    def label(self, cell: Hashable) -> str:
        return str(cell)

    def json(self, cell: Hashable) -> dict:
        return {"name": str(cell)}

    def json_head(self, cell: Hashable) -> str:
        return json.dumps(self.json(cell))[:-1]

    def json_template(self) -> str | None:
        return None

    def drawable(self) -> bool:
        return True

    def picture(self, overlay: Mapping[Hashable, str]) -> str:
        cells = self.system.problem.cells
        width = max(len(str(c)) for c in cells) if cells else 0
        return "\n".join(f"  {str(c):<{width}}  {overlay.get(c, '.')}" for c in cells)


View = BoardView | SystemView


def origin_json(origin: Hashable) -> dict:
    """A rule's origin (a clue, the total, or anything else) as a dict."""
    if isinstance(origin, Clue):
        return {"kind": "clue", "row": origin.cell[0], "col": origin.cell[1], "number": origin.number}
    if isinstance(origin, TotalMines):
        return {"kind": "total", "mines": origin.mines}
    return {"kind": "rule", "text": str(origin)}


def join_words(items: Iterable) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    words = [str(i) for i in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def conflict_text(conflict: tuple) -> str:
    """The sentence that names a minimal conflict.

    >>> conflict_text(("the 1 at 0,0", "the 3 at 0,1"))
    'inconsistent: the 1 at 0,0 and the 3 at 0,1 cannot both hold'
    """
    if len(conflict) == 1:
        return f"inconsistent: {conflict[0]} cannot hold"
    return f"inconsistent: {join_words(conflict)} cannot {'both' if len(conflict) == 2 else 'all'} hold"


def cell_list(view: View, cells, shown: int = LISTED) -> str:
    """The first ``shown`` cells' labels, then how many more (``cells`` a sequence, in order).

    >>> cell_list(SystemView.__new__(SystemView), ["a", "b", "c"], 2)
    'a b and 1 more'
    """
    text = " ".join(view.label(c) for c in cells[:shown]) or "none"
    return text + (f" and {len(cells) - shown} more" if len(cells) > shown else "")


def fast_pieces(view: View, cells, tail: str, special_tails: Mapping | None = None):
    """The pieces of a :class:`JsonList` of ``cells`` (each its identity then ``tail``), made
    in C by compact cells; None where they cannot be (a tuple of cells, named cells)."""
    head = view.json_template()
    if head is None or not hasattr(cells, "formatted"):
        return None
    special = {c: head + t.replace("%", "%%") for c, t in (special_tails or {}).items()}
    template = f"{head}{tail.replace('%', '%%')}"
    return lambda: cells.formatted(template, special)


def explanation_picture(view: View, mines: frozenset) -> str:
    """The cells with an explanation's mines drawn as ``*`` (on a big board, listed)."""
    if not view.drawable():
        first = heapq.nsmallest(LISTED, mines) if isinstance(view, BoardView) else sorted(mines, key=order)
        return f"{len(mines)} mine(s): {cell_list(view, first)}" + \
            (f" and {len(mines) - len(first)} more" if len(mines) > len(first) else "")
    return view.picture({cell: MINE_MARK for cell in mines})


def order(cell):
    """A sort key: board cells in row order ('3,2' before '12,6'); anything else after them, by its text.

    >>> sorted([(12, 6), "a", (3, 2)], key=order)
    [(3, 2), (12, 6), 'a']
    """
    if isinstance(cell, tuple) and len(cell) == 2 and all(isinstance(x, int) for x in cell):
        return (0, *cell)
    return (1, str(cell))


def _compact(view: View, mines: frozenset):
    """A board's mines as compact cells in row order (:class:`~satsweeper.board.GridCells`), so
    their JSON is formatted in C: 600,000 mines sorted by :func:`order` and formatted one by one
    took 4 of the 5 seconds of ``check --json`` on a 2000x2000 board.  None for other views."""
    if not isinstance(view, BoardView) or view.json_template() is None:
        return None
    import numpy as np
    width = view.board.width
    flat = np.fromiter((r * width + c for r, c in mines), dtype=np.int64, count=len(mines))
    flat.sort()
    return GridCells(flat, width)


def explanation_json(view: View, mines: frozenset):
    """The mines as JSON cells; a big board's many written as they are made, in row order
    (sorting hundreds of thousands of cells by their text took seconds)."""
    if len(mines) > STREAMED:
        return JsonList(lambda: sorted(mines, key=order), lambda c: view.json_head(c) + "}", len(mines),
                        fast_pieces(view, _compact(view, mines), "}"))
    return [view.json(c) for c in sorted(mines, key=order)]  # by str, '12,6' came before '3,2
