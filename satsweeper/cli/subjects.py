"""What a board argument holds: a position, a layout or a constraint system,
recognised by content (the file name only breaks ties), and its rules built
within a time limit.  The cells named on the command line are checked
against it by :mod:`satsweeper.cells`, which the web server shares.
"""

from __future__ import annotations

import click

from ..limits import deadline
from .contract import Source, UserError


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


def grid_line(source: Source) -> int:
    """The line of the source's first row of squares (:func:`satsweeper.textio.grid_line`)."""
    from ..textio import grid_line as first_row
    return first_row(source.text)


def void_error(source: Source, board, expected: str) -> UserError:
    """``expected`` (a full rectangle) where ``board`` has void squares, at the first one."""
    from ..report.puzzles import voids_found
    from ..textio import square_place
    got, first = voids_found(board)
    return UserError(expected, got, source.name, *square_place(source.text, first))


def read_subject(source: Source):
    """(a board, the player's view, or a constraint system; the file's ``start:`` cell or None)."""
    from ..systems import System
    found = read_any(source)
    if isinstance(found, System):
        return found, None
    note_lookalikes(found, source.name)
    return found.board, found.start


def note_lookalikes(puzzle, name: str) -> None:
    """Say on stderr when a square reads as a hidden cell named o, O, l, I or f
    (:func:`~satsweeper.textio.lookalikes`); stdout, and so --json's one object, is unchanged."""
    from ..textio import lookalike_note, lookalikes
    for found in lookalikes(puzzle):
        click.echo(f"satsweeper: note: {name}: {lookalike_note(*found)}", err=True)


def prepare(source: Source, flags: str = "mine", seconds: float | None = None):
    """(problem, view, subject): what the query commands work on; the
    problem built within ``seconds`` (None: no limit), else :class:`TimeUp`."""
    view, subject, basis = viewed(source, flags)
    return build_problem(basis, seconds), view, subject


def viewed(source: Source, flags: str = "mine"):
    """(view, subject, what its problem is built from): the reading, which is quick.

    A board's problem is built from ``(board, start)``: a file's ``start:`` cell is
    safe, as a game's first click is (:func:`~satsweeper.constraints.with_start`)."""
    from ..report.views import BoardView, SystemView
    from ..systems import System
    subject, start = read_subject(source)
    if isinstance(subject, System):
        return SystemView(subject), subject, subject
    board = subject if flags == "mine" else subject.with_flags_hidden()
    return BoardView(board), board, (board, start)


def build_problem(basis, seconds: float | None = None):
    """The rules of a board, or a system's problem, built within ``seconds``
    (else :class:`TimeUp`): on a 1000x1000 board with 423,000 speaking
    numbers they take 9 s, which ``--timeout`` did not count."""
    from ..constraints import problem_of, with_start
    from ..systems import System
    if isinstance(basis, System):
        return basis.problem
    board, start = basis
    with deadline(seconds):
        return with_start(problem_of(board), start)


def flags_option(command):
    return click.option("--flags", type=click.Choice(["mine", "hidden"]), default="mine",
                        show_default=True,
                        help="Treat flags as known mines, or as hidden cells (to question a flag).")(command)
