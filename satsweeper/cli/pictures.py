"""Pictures: render a board, optionally with probabilities or the reason for a move."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import click

from .contract import (OUT_OF_MEMORY, CellParam, CoordParam, InputFile, OutputPath, UserError, cut, emit,
                       json_option, refuse_overwriting_input, timed_out, timeout_option, write_output)
from ..cells import resolve_cell
from ..limits import Clock, TimeUp, within
from .subjects import build_problem, flags_option, viewed


def require_matplotlib() -> None:
    from .experiments import require_experiments
    require_experiments("pictures", "matplotlib")


@click.command(name="render")
@click.argument("source", metavar="BOARD", type=InputFile(gadgets=True))
@click.option("-o", "--output", required=True, type=OutputPath((".svg", ".png", ".txt", ".mine")),
              help="Picture to write: .svg or .png; with --opened also .txt or .mine, the position as a "
                   "board file (the puzzle to hand a player, its mines not in it).")
@click.option("--probs", "with_probs", is_flag=True,
              help="Colour hidden cells by exact mine probability (with a legend).")
@click.option("--reason", type=CellParam(), metavar="ROW,COL",
              help="Outline the clues that decide this hidden cell (safe or mine), or draw a counter-example.")
@click.option("--opened", is_flag=True,
              help="For a layout (mines as '*', a 'start:' line): draw the position its first "
                   "click opens, the puzzle as a player first sees it.")
@click.option("--start", type=CoordParam(), metavar="ROW,COL",
              help="With --opened: the first click (default: the file's 'start:' line; a .mine has none).")
@flags_option
@timeout_option
@json_option
def render_board(source, output, with_probs, reason, opened, start, flags, timeout, as_json):
    """Draw a board as Minesweeper shows it: numbers, flags, hidden and named
    cells; with --probs a probability heat map, with --reason why a move is right.

    \b
    Examples:
      satsweeper render examples/expert.txt -o board.svg --probs
      satsweeper render examples/unique.txt -o why.png --reason 1,0
      satsweeper render examples/layout.txt -o puzzle.png --opened
      satsweeper render board.mine -o puzzle.png --opened --start 4,4
      satsweeper render examples/layout.txt -o puzzle.txt --opened
    """
    from ..systems import System
    text = output.suffix.lower() in (".txt", ".mine")
    if text and not opened:  # a board copied as text is no drawing: only the opened position is new
        raise UserError("a .svg or .png picture (a .txt or .mine board with --opened: the position a "
                        "layout's first click opens)", cut(str(output)))
    if not text:
        require_matplotlib()
    refuse_overwriting_input(output, source)
    if start is not None and not opened:
        raise UserError("--start with --opened (the first click of a layout)", "--start alone")
    if opened:
        view, subject, basis = _opened(source, start)
    else:
        view, subject, basis = viewed(source, flags)
    if text:
        if with_probs or reason is not None:
            raise UserError("--probs and --reason with a picture (.svg or .png)", cut(str(output)))
        from ..textio import format_board, format_mine
        content = format_mine(subject) if output.suffix.lower() == ".mine" else format_board(subject)
        emit("render", as_json, {"output": str(output), "consistent": None},
             write_output(output, content), 0)
        return
    if isinstance(subject, System):
        raise UserError("a board to draw", "a constraint system", source.name)
    from ..render import CERTAIN_KEY, Picture, render
    from ..report.views import conflict_text, origin_json
    # A plain drawing asks no question: whether the board is consistent is
    # then not known (null), not claimed.
    data = {"output": str(output), "consistent": None}
    picture = Picture(title=Path(source.name).name + mines_said(subject))
    conflict = ()
    clock = Clock(timeout)
    try:
        if with_probs or reason is not None:  # a plain drawing needs no rules (9 s on a 1000x1000 board)
            problem = build_problem(basis, clock.left())
        if with_probs:
            from ..reasoning import tally_with_conflict
            counts, conflict = within(clock.left(), lambda: tally_with_conflict(problem, "components"))
            if counts.consistent:
                picture = Picture(probabilities=counts.probabilities(),
                                  title=picture.title,
                                  caption=CERTAIN_KEY)
        if reason is not None and not conflict:
            picture, data["reason"], conflict, why = within(
                clock.left(), lambda: _reason_picture(problem, view, subject, reason, picture))
    except (TimeUp, MemoryError) as err:  # no picture of half an answer: nothing is drawn
        asked = {"reason": None} if reason is not None else {}  # the keys a finished answer has, null
        timed_out("render", as_json, timeout, {"output": None, **asked}, "no picture written",
                  None if isinstance(err, TimeUp) else OUT_OF_MEMORY)
    if with_probs or reason is not None:
        data["consistent"] = not conflict
    said = why if reason is not None and not conflict else ""  # the answer in words, as safe says it
    if conflict:  # an answer like every command's: the conflict named, drawn, exit 1
        said = conflict_text(conflict)
        data["conflict"] = [origin_json(o) for o in conflict]
        data.pop("reason", None)
        picture = Picture(title=said, marks=_conflict_marks(conflict), caption="orange: the clues that conflict")
    note = write_output(output, lambda path: render(subject, str(path), picture=picture))
    emit("render", as_json, data, "\n".join(filter(None, [said, note])), 1 if conflict else 0)


def _opened(source, start=None):
    """(view, board, what its problem is built from) of the position a layout's first
    click (``start``, else its 'start:' line) opens."""
    from ..game import Game, Level
    from ..report.views import BoardView
    from ..cells import check_inside
    from .subjects import grid_line, read_puzzle_from, void_error
    puzzle = read_puzzle_from(source)
    if puzzle.mines is None:
        raise UserError("a layout, '*' for the hidden mines (--opened)", "a position without one", source.name, grid_line(source))
    if start is not None:
        puzzle = replace(puzzle, start=start)
    if puzzle.start is None:
        raise UserError("a 'start:' line, or --start ROW,COL (--opened)", "none", source.name, grid_line(source))
    check_inside(puzzle.board, puzzle.start, "start cell")
    if puzzle.board.voids:  # the game that opens it is a full rectangle
        raise void_error(source, puzzle.board, "a layout without void squares ('-') for --opened")
    if puzzle.start in puzzle.mines:
        raise UserError("a safe start cell", f"{puzzle.start[0]},{puzzle.start[1]}, a mine")
    game = Game(Level(puzzle.board.width, puzzle.board.height, len(puzzle.mines)), puzzle.mines)
    # The author's given numbers and flags too: the puzzle noguess judged (the flags were lost).
    board = game.opened_with(puzzle.start, puzzle.board.clues, puzzle.board.flags).board
    return BoardView(board), board, (board, None)


def _conflict_marks(conflict) -> dict:
    from ..constraints import Clue
    return {o.cell: "conflict" for o in conflict if isinstance(o, Clue)}


def _reason_picture(problem, view, board, reason, picture):
    """Outline what decides ``reason``'s cell: forcing clues, or a counter-example's mines.

    Returns (picture, what decides it, the conflict: empty unless the board is
    inconsistent, the answer in words).
    """
    from ..constraints import Clue
    from ..reasoning import Move, Reasoner
    from ..render import Picture
    from ..report.queries import forces
    from ..report.views import join_words, origin_json
    cell = resolve_cell(board, reason)
    with Reasoner(problem) as r:
        opening, marking = r.safety(cell, Move.OPEN), r.safety(cell, Move.FLAG)
    if not opening.consistent:
        return picture, None, opening.conflict, ""
    where = view.label(cell)
    if opening.safe or marking.safe:
        answer, word = (opening, "safe") if opening.safe else (marking, "a mine")
        marks = {o.cell: "reason" for o in answer.reason if isinstance(o, Clue)}
        total = any(not isinstance(o, Clue) for o in answer.reason)
        marks[cell] = "move"
        caption = (f"{where} is {word}: forced by the outlined (blue) clues"
                   + (" and the total mine count" if total else ""))
        return (Picture(picture.probabilities, marks, title=picture.title, caption=caption),
                {"cell": view.json(cell), "status": "safe" if opening.safe else "mine",
                 "reason": [origin_json(o) for o in answer.reason], "total": total}, (),
                f"{where} is {word}: {join_words(answer.reason)} {forces(answer.reason)} it")
    caption = f"{where} is undetermined: in this explanation (mines drawn) it is a mine"
    return (Picture(picture.probabilities, {cell: "move"}, opening.counterexample, picture.title, caption),
            {"cell": view.json(cell), "status": "undetermined",
             "explanation": [view.json(c) for c in sorted(opening.counterexample)]}, (),
            f"{where} is undetermined: a mine in one explanation (drawn), safe in another")


def draw_hint(board, answer, output: Path, name: str = "", start=None) -> str:
    """Draw ``answer`` (a :class:`~satsweeper.hint.Hint`) on ``board``, titled with the
    board file's ``name`` as every other picture is; ``start``: the file's start cell."""
    from ..constraints import Clue, Start, TotalMines, problem_of, with_start
    from ..counting import tally
    from ..render import CERTAIN_KEY, Picture, render
    require_matplotlib()
    if answer.consistent is False:
        picture = Picture(marks=_conflict_marks(answer.conflict), title=f"{name}: inconsistent" if name else "inconsistent",
                          caption="orange: the clues that conflict")
    else:
        # A hint found without counting (sure_moves None: the count ran out of time or
        # memory) is drawn without the chances: counting them again would run out too.
        probabilities = ({} if answer.sure_moves is None
                         else tally(with_start(problem_of(board), start)).probabilities())
        marks = {o.cell: "reason" for o in answer.reason if isinstance(o, Clue)}
        if answer.cell is not None:
            marks[answer.cell] = "move"
        # The total has no square to outline: said in words when it is part of the reason.
        total = " and the total mine count" if any(isinstance(o, TotalMines) for o in answer.reason) else ""
        if answer.cell is None:  # no hidden cell left: no move to draw (its verb was asked of None)
            caption = "no hidden cell: no move"
        elif answer.sure and any(isinstance(o, Start) for o in answer.reason):
            caption = f"magenta: {answer.move.value} this cell, the file's start (a first click is safe)"
        elif answer.sure:
            caption = f"magenta: {answer.move.value} this cell; blue: the clues that force it{total}"
        else:
            from ..report.hints import BASIS_SHORT
            caption = f"magenta: the guess ({BASIS_SHORT.get(answer.basis, answer.basis)}); colours: exact mine probability"
        if any(p in (0, 1) for p in probabilities.values()):  # drawn as render --probs says
            caption += f"; {CERTAIN_KEY}"
        picture = Picture(probabilities, marks, title=(f"{name}: hint" if name else "hint") + mines_said(board),
                          caption=caption)
    return write_output(output, lambda path: render(board, str(path), picture=picture))


def mines_said(board) -> str:
    """A picture title's " (99 mines)": the total is part of the puzzle (an extreme one needs
    it, a hint's reason may name it) and no square shows it; "" without one."""
    total = getattr(board, "total_mines", None)
    return "" if total is None else f" ({total} mine{'s' if total != 1 else ''})"


def draw_uniqueness(board, answer, output: Path, name: str) -> str:
    """Draw ``answer`` (a :class:`~satsweeper.reasoning.Uniqueness`): the one
    explanation, or one of two with the cells where the other differs
    outlined, or the clues that conflict."""
    from ..render import Picture, render
    if not answer.consistent:
        picture = Picture(marks=_conflict_marks(answer.conflict), title=f"{name}: inconsistent",
                          caption="orange: the clues that conflict")
    elif answer.unique:
        picture = Picture(mines=answer.explanations[0], title=f"{name}: unique",
                          caption="drawn mines: the one explanation")
    else:
        first, second = answer.explanations
        picture = Picture(mines=first, marks={c: "move" for c in first ^ second}, title=f"{name}: not unique",
                          caption="drawn mines: one explanation; outlined: the cells where a second one "
                                  "differs (a mine in one, safe in the other)")
    return write_output(output, lambda path: render(board, str(path), picture=picture))


COMMANDS = (render_board,)
