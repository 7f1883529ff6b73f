"""What a board argument holds: a position, a layout or a constraint system,
recognised by content (the file name only breaks ties), and the cells named
on the command line checked against it.
"""

from __future__ import annotations

from typing import Hashable

import click

from ..board import Board, Cell
from .contract import CellRef, Source, UserError, cut, deadline


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
    note_lookalikes(found, source.name)
    return found


def read_subject(source: Source):
    """A board (the player's view), or a constraint system."""
    from ..systems import System
    found = read_any(source)
    if isinstance(found, System):
        return found
    note_lookalikes(found, source.name)
    return found.board


LOOKALIKES = {"o": "0", "O": "0", "l": "1", "I": "1"}  # letters a hand-typed number turns into


def note_lookalikes(puzzle, name: str) -> None:
    """Say on stderr when a square reads as a hidden cell named o, O, l or I.

    One letter in a dense row is a named hidden cell, so a 0 typed as o
    makes another board, often still consistent: every answer would be
    about it without a word.  A note, not an error (names are legal);
    gadget files name their ports on purpose and get none.  stdout, and so
    --json's one object, is unchanged.
    """
    if puzzle.extras:
        return
    for cell, called in sorted(puzzle.board.names.items()):
        if called in LOOKALIKES:
            click.echo(f"satsweeper: note: {name}: the square at {cell[0]},{cell[1]} is read as a hidden "
                       f"cell named {called!r} (a typo for {LOOKALIKES[called]}?)", err=True)


def prepare(source: Source, flags: str = "mine", seconds: float | None = None):
    """(problem, view, subject): what the query commands work on; the
    problem built within ``seconds`` (None: no limit), else :class:`TimeUp`."""
    view, subject, basis = viewed(source, flags)
    return build_problem(basis, seconds), view, subject


def viewed(source: Source, flags: str = "mine"):
    """(view, subject, what its problem is built from): the reading, which is quick."""
    from ..report.views import BoardView, SystemView
    from ..systems import System
    subject = read_subject(source)
    if isinstance(subject, System):
        return SystemView(subject), subject, subject
    board = subject if flags == "mine" else subject.with_flags_hidden()
    return BoardView(board), board, board


def build_problem(basis, seconds: float | None = None):
    """The rules of a board, or a system's problem, built within ``seconds``
    (else :class:`TimeUp`): on a 1000x1000 board with 423,000 speaking
    numbers they take 9 s, which ``--timeout`` did not count."""
    from ..constraints import problem_of
    from ..systems import System
    if isinstance(basis, System):
        return basis.problem
    with deadline(seconds):
        return problem_of(basis)


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
    from ..game import neighbours
    row, col = first
    around = len(neighbours(level, first)) + 1  # the click and its neighbours
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

