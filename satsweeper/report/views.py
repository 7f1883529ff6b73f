"""How answers name cells, clues and explanations, in words and in JSON.

A *view* knows how to label a cell of what was asked about: a board cell is
``ROW,COL`` (or its name), a constraint system's cell is its name.
"""

from __future__ import annotations

from typing import Hashable, Iterable, Mapping

from ..board import Board
from ..constraints import Clue, TotalMines
from ..systems import System
from ..textio import format_grid

MINE_MARK = "*"

class BoardView:
    """How answers about a board name cells and draw pictures."""

    def __init__(self, board: Board):
        self.board = board

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
    """The sentence that names a minimal conflict."""
    if len(conflict) == 1:
        return f"inconsistent: {conflict[0]} cannot hold"
    return f"inconsistent: {join_words(conflict)} cannot all hold"


def explanation_picture(view: View, mines: frozenset) -> str:
    """The cells with an explanation's mines drawn as ``*``."""
    return view.picture({cell: MINE_MARK for cell in mines})


def explanation_json(view: View, mines: frozenset) -> list[dict]:
    return [view.json(c) for c in sorted(mines, key=str)]
