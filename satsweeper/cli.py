"""The ``satsweeper`` command: parse arguments, call the library, print.

Exit codes: 0 yes (consistent / safe / unique / solved), 1 no, 2 bad input
or usage.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Hashable

import click
from pysat.solvers import SolverNames

from . import report
from .board import Board, Cell
from .constraints import Problem, problem_of
from .counting import Engine, tally
from .encoding import CardinalityEncoding
from .errors import SatsweeperError
from .reasoning import DEFAULT_SOLVER, Move, Reasoner
from .systems import System, is_system_text, read_system
from .textio import read_board

YES, NO, BAD_INPUT = 0, 1, 2
SOLVERS = sorted(n for n in SolverNames.__dict__ if not n.startswith("_"))


class InputError(click.ClickException):
    """Bad input: printed as ``error: ...`` with exit code 2."""

    exit_code = BAD_INPUT

    def format_message(self) -> str:
        return self.message

    def show(self, file=None) -> None:
        click.echo(f"satsweeper: {self.format_message()}", err=True)


def resolve_cell(subject: Board | System, text: str) -> Hashable:
    """``row,col`` (0-based) or the name of a named cell."""
    if isinstance(subject, System):
        cell = next((c for c in subject.problem.cells if str(c) == text.strip()), None)
        if cell is None:
            raise InputError(f"expected a cell of the system such as {subject.problem.cells[0]} "
                             f"(got {text!r})" if subject.problem.cells else
                             f"expected a cell of the system (got {text!r}; it has none)")
        return cell
    board = subject
    match = re.fullmatch(r"\s*(\d+)\s*,\s*(\d+)\s*", text)
    if match:
        cell = (int(match.group(1)), int(match.group(2)))
    else:
        cell = board.cell_by_name(text)
        if cell is None:
            raise InputError(f"expected a cell as ROW,COL or a cell name of the board (got {text!r})")
    if not board.is_hidden(cell):
        raise InputError(f"expected a hidden cell of the {board.height}x{board.width} board "
                         f"(got {cell[0]},{cell[1]}, which is {_what_is(board, cell)})")
    return cell


def _what_is(board: Board, cell: Cell) -> str:
    if not (0 <= cell[0] < board.height and 0 <= cell[1] < board.width):
        return "outside the board"
    if cell in board.voids:
        return "void"
    if cell in board.flags:
        return "a flag (use --flags hidden to ask about it)"
    return f"a revealed {board.clues[cell]}"


def emit(as_json: bool, data: dict, text: str, verdict: bool) -> None:
    click.echo(json.dumps(data) if as_json else text)
    sys.exit(YES if verdict else NO)


def board_options(command):
    """Options every board command shares."""
    command = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(command)
    command = click.option("--flags", type=click.Choice(["mine", "hidden"]), default="mine",
                           show_default=True, help="Treat flags as known mines or as hidden cells.")(command)
    command = click.option("--solver", type=click.Choice(SOLVERS), default=DEFAULT_SOLVER,
                           show_default=True, help="SAT solver from python-sat.")(command)
    command = click.option("--encoding", type=click.Choice([e.value for e in CardinalityEncoding]),
                           default=None, help="Cardinality encoding (default: native where the "
                           "solver has it, else seqcounter; native needs minicard or gluecard).")(command)
    return click.argument("board_file", metavar="BOARD", type=click.Path(dir_okay=False))(command)


def prepare(path: str, flags: str) -> tuple[Problem, report.View, Board | System]:
    """What every command works on: the problem, how to show it, and the subject."""
    subject = load_subject(path)
    if isinstance(subject, System):
        return subject.problem, report.SystemView(subject), subject
    board = with_hidden_flags(subject, flags)
    return problem_of(board), report.BoardView(board), board


def reasoner(problem: Problem, solver: str, encoding: str | None) -> Reasoner:
    try:
        return Reasoner(problem, solver=solver,
                        encoding=CardinalityEncoding(encoding) if encoding else None)
    except ValueError as err:
        raise InputError(str(err)) from None


def with_hidden_flags(board: Board, flags: str) -> Board:
    """The board as the engine sees it (flags hidden if asked)."""
    if flags == "mine":
        return board
    return Board(board.height, board.width, board.clues, frozenset(), board.voids,
                 board.names, board.total_mines)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="satsweeper")
def main() -> None:
    """Minesweeper reasoning with SAT and #SAT.

    Cells are ROW,COL, 0-based from the top-left.  Exit codes: 0 yes,
    1 no, 2 bad input.
    """


@main.command()
@board_options
def check(board_file, as_json, flags, solver, encoding):
    """CONSISTENCY: is there an explanation?  Shows one, or the conflicting clues."""
    problem, view, _ = prepare(board_file, flags)
    with reasoner(problem, solver, encoding) as r:
        answer = r.consistency()
    emit(as_json, report.consistency_json(view, answer), report.consistency_text(view, answer),
         answer.consistent)


@main.command()
@board_options
@click.argument("cell", metavar="CELL")
@click.option("--mine", is_flag=True, help="Ask whether marking CELL as a mine is safe.")
def safe(board_file, cell, mine, as_json, flags, solver, encoding):
    """SAFETY: is opening CELL (or marking it, --mine) right in every explanation?"""
    problem, view, subject = prepare(board_file, flags)
    target = resolve_cell(subject, cell)
    with reasoner(problem, solver, encoding) as r:
        answer = r.safety(target, Move.MARK if mine else Move.OPEN)
    emit(as_json, report.safety_json(view, answer), report.safety_text(view, answer), answer.safe)


@main.command()
@board_options
def solve(board_file, as_json, flags, solver, encoding):
    """Every hidden cell: safe, mine, or undetermined."""
    problem, view, _ = prepare(board_file, flags)
    with reasoner(problem, solver, encoding) as r:
        answer = r.solution()
    emit(as_json, report.solution_json(view, answer), report.solution_text(view, answer),
         answer.consistent)


@main.command()
@board_options
def unique(board_file, as_json, flags, solver, encoding):
    """SOLUTION: is the explanation unique?  Shows two that differ if not."""
    problem, view, _ = prepare(board_file, flags)
    with reasoner(problem, solver, encoding) as r:
        answer = r.uniqueness()
    emit(as_json, report.uniqueness_json(view, answer), report.uniqueness_text(view, answer),
         answer.unique)


def load_subject(path: str):
    """A board, or a constraint system if the file holds equations."""
    try:
        with open(path, "rb") as handle:
            head = handle.read().decode("utf-8", errors="replace")
    except OSError as err:
        raise InputError(f"{path}:1:1: expected a readable file (got {err.strerror})") from None
    try:
        return read_system(path) if is_system_text(head) else read_board(path)
    except SatsweeperError as err:
        raise InputError(str(err)) from None


def counting_options(command):
    command = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(command)
    command = click.option("--flags", type=click.Choice(["mine", "hidden"]), default="mine",
                           show_default=True, help="Treat flags as known mines or as hidden cells.")(command)
    command = click.option("--engine", type=click.Choice([e.value for e in Engine]),
                           default=Engine.COMPONENTS.value, show_default=True,
                           help="Component DP, or the Ganak model counter.")(command)
    return click.argument("file", metavar="FILE", type=click.Path(dir_okay=False))(command)


def count_problem(problem: Problem, engine: str):
    """(tally, conflict); the conflict names clues when there is no explanation."""
    answer = tally(problem, Engine(engine))
    conflict = ()
    if not answer.consistent:
        with Reasoner(problem) as r:
            conflict = r.consistency().conflict
    return answer, conflict


@main.command()
@counting_options
def count(file, as_json, flags, engine):
    """#CONSISTENCY: the exact number of explanations of a board or system."""
    problem, _, _ = prepare(file, flags)
    answer, conflict = count_problem(problem, engine)
    emit(as_json, report.count_json(answer, conflict), report.count_text(answer, conflict),
         answer.consistent)


@main.command()
@counting_options
def probs(file, as_json, flags, engine):
    """Exact probability that each hidden cell is a mine; names the safest."""
    problem, view, subject = prepare(file, flags)
    answer, conflict = count_problem(problem, engine)
    if isinstance(subject, System):
        text = report.system_probabilities_text(subject.names, subject.others, answer, conflict)
    else:
        text = report.board_probabilities_text(view, answer, conflict)
    idents = [view.json(c) for c in answer.cells()]
    emit(as_json, report.probabilities_json(answer, idents, conflict), text, answer.consistent)
