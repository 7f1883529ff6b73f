"""The cells a question names, checked against what it is asked of: a hidden
cell of a board or a system, a cell inside a rectangle, a first click that
leaves the mines room.

Each check raises :class:`~satsweeper.errors.CellError` or
:class:`~satsweeper.errors.InputError` with the words "what must hold (got
what)", which the command line and the web server both show as ``expected
... (got ...)``.

>>> from satsweeper.board import Board
>>> board = Board(1, 3, {(0, 0): 1}, total_mines=1)
>>> resolve_cell(board, CellRef("0,2", (0, 2)))
(0, 2)
>>> resolve_cell(board, CellRef("0,0", (0, 0)))
Traceback (most recent call last):
...
satsweeper.errors.CellError: a hidden cell of the 3x1 board (WIDTHxHEIGHT) (got 0,0, which is a revealed 1)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Hashable

from .board import Board, Cell
from .errors import CellError, InputError, cut


@dataclass(frozen=True)
class CellRef:
    """A cell as the user wrote it: ``ROW,COL`` (``cell`` set) or a name
    (``cell`` None), checked against the board by :func:`resolve_cell`."""

    text: str
    cell: tuple[int, int] | None

    def __str__(self) -> str:
        return self.text


def resolve_cell(subject, ref: CellRef) -> Hashable:
    """The hidden cell ``ref`` names on ``subject`` (a board or a system)."""
    from .systems import System
    if isinstance(subject, System):
        cell = next((c for c in subject.problem.cells if str(c) == ref.text.strip()), None)
        if cell is None:
            example = f" such as {subject.problem.cells[0]}" if subject.problem.cells else ""
            raise CellError(f"a cell of the system{example} (got {cut(ref.text)})")
        return cell
    board: Board = subject
    cell = ref.cell if ref.cell is not None else board.cell_by_name(ref.text)
    if cell is None and re.fullmatch(r"\s*[0-9]+\s*,\s*[0-9]+\s*", ref.text):  # ROW,COL, too many digits
        raise CellError(f"a hidden cell of the {_ranges(board.width, board.height)} (got {cut(ref.text)}, "
                        "which is outside the board)")
    if cell is None:
        raise CellError(f"a cell as ROW,COL or a cell name of the board (got {cut(ref.text)})")
    if not board.is_hidden(cell):
        what = what_is(board, cell)
        where = _ranges(board.width, board.height) if what == "outside the board" else (
            f"{board.width}x{board.height} board (WIDTHxHEIGHT)")
        raise CellError(f"a hidden cell of the {where} (got {cell[0]},{cell[1]}, which is {what})")
    return cell


def _ranges(width: int, height: int) -> str:
    """``30x16 board (WIDTHxHEIGHT; rows 0-15, columns 0-29)``: said where a cell is off it."""
    return f"{width}x{height} board (WIDTHxHEIGHT; rows 0-{height - 1}, columns 0-{width - 1})"


def check_inside(board_or_size, cell: Cell, what: str = "cell") -> None:
    """Raise unless ``cell`` lies on a WIDTHxHEIGHT rectangle (a board or (width, height))."""
    width, height = ((board_or_size.width, board_or_size.height) if isinstance(board_or_size, Board)
                     else board_or_size)
    if not (0 <= cell[0] < height and 0 <= cell[1] < width):
        raise CellError(f"a {what} inside the {_ranges(width, height)} (got {cell[0]},{cell[1]})")


def check_room(level, first: Cell, rule: str, anywhere: bool = False) -> None:
    """Raise unless the mines fit outside the cells the first-click ``rule`` keeps
    free (said before any game, in the user's words, not as the placer's
    "excluded cells").  ``anywhere``: ``first`` is a corner, the cell with the
    fewest neighbours, asked for a game not yet clicked (no first click can work)."""
    from .game import neighbours
    row, col = first
    where = "even in a corner" if anywhere else f"at {row},{col}"
    around = len(neighbours(level, first)) + 1  # the click and its neighbours
    kept, why = {"can-lose": (0, "may be a mine"), "safe": (1, "is safe"),
                 "opening": (around, "opens a region: it and its neighbours are free")}[rule]
    room = level.width * level.height - kept
    if level.mines > room:
        raise InputError(f"at most {room} mines on {level.width}x{level.height}, whose first click "
                         f"{where} {why} (got {level.mines})")


def what_is(board: Board, cell: Cell) -> str:
    """What a square that is not a hidden cell is, in words."""
    if not (0 <= cell[0] < board.height and 0 <= cell[1] < board.width):
        return "outside the board"
    if cell in board.voids:
        return "void"
    if cell in board.flags:
        return "a flag (use --flags hidden to ask about it)"
    return f"a revealed {board.clues[cell]}"
