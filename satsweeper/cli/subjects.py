"""What a board argument holds: a position, a layout or a constraint system,
recognised by content (the file name only breaks ties), and the cells named
on the command line checked against it.
"""

from __future__ import annotations

from typing import Hashable

import click

from ..board import Board, Cell
from .contract import CellRef, Source, UserError, cut


def read_any(source: Source):
    """What a source holds, recognised by content (textio decides; the file
    name's extension only breaks ties): a Puzzle or a System."""
    from pathlib import Path

    from ..textio import read_any as read
    return read(source.text, source.name, Path(source.name).suffix)


def read_puzzle_from(source: Source):
    """The :class:`~satsweeper.textio.Puzzle` a source holds (not a system)."""
    from ..systems import System
    found = read_any(source)
    if isinstance(found, System):
        raise UserError("a board", "a constraint system (equations)", source.name)
    return found


def read_subject(source: Source):
    """A board (the player's view), or a constraint system."""
    from ..systems import System
    found = read_any(source)
    return found if isinstance(found, System) else found.board


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


def check_room(level, first: Cell, rule: str) -> None:
    """Raise unless the mines fit outside the cells the first-click ``rule`` keeps
    free (said before any game, in the user's words, not as the placer's
    "excluded cells")."""
    row, col = first
    around = sum(1 for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)
                 if 0 <= r < level.height and 0 <= c < level.width)
    kept, why = {"can-lose": (0, "may be a mine"), "safe": (1, "is safe"),
                 "opening": (around, "opens a region: it and its neighbours are free")}[rule]
    room = level.width * level.height - kept
    if level.mines > room:
        raise UserError(f"at most {room} mines on {level.width}x{level.height}, whose first click at "
                        f"{row},{col} {why}", f"{level.mines} mines")


def what_is(board: Board, cell: Cell) -> str:
    if not (0 <= cell[0] < board.height and 0 <= cell[1] < board.width):
        return "outside the board"
    if cell in board.voids:
        return "void"
    if cell in board.flags:
        return "a flag (use --flags hidden to ask about it)"
    return f"a revealed {board.clues[cell]}"

