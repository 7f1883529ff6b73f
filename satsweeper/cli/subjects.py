"""What a board argument holds: a position, a layout or a constraint system,
recognised by content (the file name only breaks ties), and the cells named
on the command line checked against it.
"""

from __future__ import annotations

import re
from typing import Hashable

import click

from ..board import Board, Cell
from .contract import CellRef, Source, UserError, cut

_MINE_HEADER = re.compile(r"\s*[0-9]+x[0-9]+x[0-9]+\s*\Z")


def kind_of(source: Source) -> str:
    """``"mine"`` (JSMinesweeper), ``"system"`` (equations) or ``"native"``.

    A first line ``WxHxM`` is a ``.mine`` file whatever its name; ``=`` on a
    line that is not a comment means equations.

    >>> kind_of(Source("noext", "3x1x1\\n1HH\\n")), kind_of(Source("s", "a + b = 1\\n"))
    ('mine', 'system')
    """
    from ..systems import is_system_text
    first = next((line for line in source.text.lstrip("\ufeff").split("\n") if line.strip()), "")
    if _MINE_HEADER.match(first):
        return "mine"
    if source.name.lower().endswith(".mine") and not is_system_text(source.text):
        return "mine"
    return "system" if is_system_text(source.text) else "native"


def read_puzzle_from(source: Source):
    """The :class:`~satsweeper.textio.Puzzle` a source holds (not a system)."""
    from ..textio import parse_mine_puzzle, parse_puzzle
    kind = kind_of(source)
    if kind == "system":
        raise UserError("a board", "a constraint system (equations)", source.name)
    text = source.text.lstrip("\ufeff")
    return parse_mine_puzzle(text, source.name) if kind == "mine" else parse_puzzle(text, source.name)


def read_subject(source: Source):
    """A board (the player's view), or a constraint system."""
    from ..systems import parse_system
    if kind_of(source) == "system":
        return parse_system(source.text.lstrip("\ufeff"), source.name)
    return read_puzzle_from(source).board


def prepare(source: Source, flags: str = "mine"):
    """(problem, view, subject): what the query commands work on."""
    from ..constraints import problem_of
    from ..report.views import BoardView, SystemView
    from ..systems import System
    subject = read_subject(source)
    if isinstance(subject, System):
        return subject.problem, SystemView(subject), subject
    board = subject if flags == "mine" else subject.with_flags_hidden()
    return problem_of(board), BoardView(board), board


def flags_option(command):
    return click.option("--flags", type=click.Choice(["mine", "hidden"]), default="mine",
                        show_default=True,
                        help="Treat flags as known mines, or as hidden cells (to question a flag).")(command)


def resolve_cell(subject, ref: CellRef) -> Hashable:
    """The hidden cell ``ref`` names on ``subject`` (a board or a system)."""
    from ..systems import System
    if isinstance(subject, System):
        cell = next((c for c in subject.problem.cells if str(c) == ref.text.strip()), None)
        if cell is None:
            example = f" such as {subject.problem.cells[0]}" if subject.problem.cells else ""
            raise UserError(f"a cell of the system{example}", cut(ref.text))
        return cell
    board: Board = subject
    cell = ref.cell if ref.cell is not None else board.cell_by_name(ref.text)
    if cell is None:
        raise UserError("a cell as ROW,COL or a cell name of the board", cut(ref.text))
    if not board.is_hidden(cell):
        raise UserError(f"a hidden cell of the {board.width}x{board.height} board (WIDTHxHEIGHT)",
                        f"{cell[0]},{cell[1]}, which is {what_is(board, cell)}")
    return cell


def check_inside(board_or_size, cell: Cell, what: str = "cell") -> None:
    """Raise unless ``cell`` lies on a WIDTHxHEIGHT rectangle (a board or (width, height))."""
    width, height = ((board_or_size.width, board_or_size.height) if isinstance(board_or_size, Board)
                     else board_or_size)
    if not (0 <= cell[0] < height and 0 <= cell[1] < width):
        raise UserError(f"a {what} inside the {width}x{height} board (WIDTHxHEIGHT; rows 0-{height - 1}, "
                        f"columns 0-{width - 1})", f"{cell[0]},{cell[1]}")


def what_is(board: Board, cell: Cell) -> str:
    if not (0 <= cell[0] < board.height and 0 <= cell[1] < board.width):
        return "outside the board"
    if cell in board.voids:
        return "void"
    if cell in board.flags:
        return "a flag (use --flags hidden to ask about it)"
    return f"a revealed {board.clues[cell]}"

