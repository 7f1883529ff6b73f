"""Puzzles for authors: noguess (is a layout solvable without guessing?) and
generate (random layouts, no-guess ones on request)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import click

from .cluster import backend_of, backend_options
from ..cells import check_inside, check_room
from ..limits import TimeUp, deadline
from .contract import (INTERRUPTED, LIMIT, NO, BoardOutput, CoordParam, InputFile, LevelParam, OutputDir, OutputPath, UserError, emit,
                       json_option, make_directory, progress, refuse_overwriting_input, timeout_option, verdict, write_output)
from .subjects import grid_line, read_puzzle_from, void_error

INTERRUPTED_WORD = "interrupted"  # why a run stopped by Ctrl-C stopped, as the contract says it


@click.command()
@click.argument("source", metavar="LAYOUT", type=InputFile())
@click.option("--start", type=CoordParam(), metavar="ROW,COL",
              help="First click (default: the file's 'start:' line).")
@click.option("--picture", type=OutputPath((".svg", ".png")), metavar="PATH",
              help="Draw the position reached (.svg or .png); when stuck, with each hidden cell's "
                   "chance of a mine.")
@json_option
def noguess(source, start, picture, as_json):
    """Can LAYOUT be solved from the first click without ever guessing?

    LAYOUT is a native file with its mines as '*' (or a .mine file with its
    mines); exit 0 if it is no-guess (with its difficulty: easy, medium,
    hard, extreme), 1 if a guess is forced (shown, with each cell's exact
    chance of a mine).

    \b
    Examples:
      satsweeper noguess examples/layout.txt
      satsweeper generate --seed 3 | satsweeper noguess -
    """
    from ..game import Level
    from ..difficulty import grade
    from ..puzzles import guess_odds, no_guess
    from ..report.puzzles import no_guess_json, no_guess_text, not_a_layout
    from ..textio import format_of
    from ..report.views import BoardView
    puzzle = read_puzzle_from(source)
    board = puzzle.board
    if puzzle.mines is None:  # a hand-made position has no truth to play against
        raise UserError(*not_a_layout(board, format_of(source.text) == "mine"), source.name, grid_line(source))
    if board.voids:
        raise void_error(source, board, "a full rectangle for a game")
    cell = start or puzzle.start
    if cell is None:
        raise UserError("--start ROW,COL (a .mine file has no start: line)" if format_of(source.text) == "mine"
                        else "--start ROW,COL or a 'start:' line", "neither", source.name, grid_line(source))
    check_inside(board, cell, "start cell")
    if cell in puzzle.mines:
        raise UserError("a safe start cell (not a mine)", f"{cell[0]},{cell[1]}, a mine")
    if picture is not None:
        from .pictures import mines_said, require_matplotlib
        require_matplotlib()
        refuse_overwriting_input(picture, source, option="--picture")
    level = Level(board.width, board.height, len(puzzle.mines))
    shown = tuple(board.clues)  # numbers the author gave: open from the start, with the first click
    flagged = tuple(board.flags)  # and the flags: known mines, shown (they were played as hidden)
    answer = no_guess(level, puzzle.mines, cell, shown, flagged)
    graded = grade(level, puzzle.mines, cell, shown=shown, flagged=flagged) if answer.solved else None
    odds = guess_odds(answer)
    view = BoardView(board)
    data = no_guess_json(view, cell, answer, graded, odds)
    text = no_guess_text(view, cell, answer, graded, odds)
    if picture is not None:
        from ..render import Picture, render
        from ..difficulty import Rung, hardest_steps, position_before
        from ..report.puzzles import hardest_phrase
        caption, marks = None, {c: "move" for c in answer.frontier}
        # A won game shows every mine flagged, as Minesweeper does: left hidden,
        # the mines no step had to flag looked like unsolved squares.
        drawn = (replace(answer.position, flags=frozenset(puzzle.mines)) if answer.solved
                 else answer.position)
        if not answer.solved:
            caption = "a guess is forced; outlined: the undetermined cells next to a number; colours: exact mine probability"
        elif graded is not None and hardest_steps(graded):
            # Where the grade comes from: the position before the (first) hardest step,
            # the numbers it needs and the cells it decides, what an author changes.
            hardest = hardest_steps(graded)[0]
            drawn = position_before(level, puzzle.mines, cell, graded, graded.path.index(hardest), shown, flagged)
            marks = {c: "move" for c in hardest.opened + hardest.flagged}
            marks.update({c: "reason" for c in hardest.needs})
            needs = ("with the total, " if not hardest.needs else
                     "with the total and the numbers outlined blue, " if hardest.rung is Rung.TOTAL else
                     "with the numbers outlined blue, ")
            caption = (f"before the hardest step ({hardest_phrase(graded)}): {needs}it opens or flags "
                       f"the cells outlined magenta")
        drawing = Picture(probabilities=odds or None, marks=marks, caption=caption,
                          title=f"{Path(source.name).name}{mines_said(drawn)}: " + (str(graded) if graded else "a guess is forced"))
        text += "\n" + write_output(picture, lambda path: render(drawn, str(path), picture=drawing))
        data["picture"] = str(picture)
    emit("noguess", as_json, data, text, verdict(answer.solved))


MAX_SQUARES = 4_000_000  # generate's default --max-cells: 2000x2000, the big boards the readers were measured on


@click.command()
@click.argument("level", metavar="[LEVEL]", required=False, type=LevelParam())
@click.option("--level", "level_name", type=LevelParam(),
              help="beginner, intermediate, expert or WIDTHxHEIGHTxMINES (as the argument).")
@click.option("--no-guess", "no_guess_only", is_flag=True, help="Only layouts solvable without guessing.")
@click.option("--start", type=CoordParam(), metavar="ROW,COL", help="First click (default: the centre).")
@click.option("--rule", type=click.Choice(["opening", "safe"]), default="opening", show_default=True,
              help="The first click opens a region, or is merely safe.")
@click.option("--method", type=click.Choice(["auto", "resample", "perturb", "clear"]), default="auto",
              show_default=True, help="resample: uniform over no-guess layouts but slow at high density; "
              "perturb, clear: fast repairs, biased; auto: resample, then clear if 30 draws fail "
              "(docs/measured.md, Bias).")
@click.option("--difficulty", type=click.Choice(["easy", "medium", "hard", "extreme"]),
              help="Only no-guess layouts of exactly this grade (implies --no-guess).")
@click.option("--seed", default=0, show_default=True, type=int, help="Fixes every layout drawn.")
@click.option("--count", default=1, show_default=True, type=click.IntRange(1, 1_000_000),
              help="How many boards (more than one needs --out-dir).")
@click.option("--budget", default=2000, show_default=True, type=click.IntRange(1),
              help="No-guess checks allowed per board; exit 3 when it runs out.")
@click.option("-o", "--output", type=BoardOutput(), help="Write the board here (.mine for JSMinesweeper).")
@click.option("--out-dir", type=OutputDir(),
              help="Write boards here (a new directory is made if its parent exists), one file each "
                   "(board-N.txt, numbered after those already "
                   "there; board N is the same for a seed however many runs made the rest).")
@click.option("--max-cells", type=click.IntRange(1), default=MAX_SQUARES, show_default=True, metavar="SQUARES",
              help="Refuse a bigger board before any work (about 450 bytes a square while a "
                   "board is drawn: 2000x2000 takes about 17 s and 1.8 GB).")
@backend_options
@timeout_option
@json_option
def generate(level, level_name, no_guess_only, start, rule, method, difficulty, seed, count, budget,
             output, out_dir, max_cells, workers, use_dask, scheduler, chunk, timeout, as_json):
    """Random layouts (no-guess ones with --no-guess), as layout files.

    Without -o or --out-dir the board is printed (its mines as '*', its
    start cell in a 'start:' line).  Native files keep the start cell; a
    .mine file marks mines M and has no place for it.  Boards are written
    as they are found: an interrupted run keeps them.

    \b
    Examples:
      satsweeper generate --level expert --no-guess --start 3,3 --seed 7 -o puzzle.txt
      satsweeper generate 30x16x99 --no-guess --count 100 --out-dir puzzles/
      satsweeper generate 16x16x99 --difficulty hard -o hard.txt
      satsweeper generate expert --no-guess --count 10000 --out-dir puzzles/ --dask --workers 2
    """
    from ..game import LEVELS
    if level and level_name:
        raise UserError("a level or --level, not both", f"{level} and --level {level_name}")
    level = level or level_name or LEVELS["expert"]
    if level.width * level.height > max_cells:
        # 100000x100000 ran until the kernel killed it (22 GB), --timeout unheard while it was drawn
        raise UserError(f"a board of at most {max_cells:,} squares (--max-cells)",
                        f"{level}, {level.width * level.height:,} squares")
    if count > 1 and output:
        raise UserError("--out-dir DIR for more than one board (-o names one file)",
                        f"--count {count} with -o {output}")
    if output and out_dir:
        raise UserError("one of -o and --out-dir", "both")
    if count > 1 and not out_dir:
        raise UserError("--out-dir DIR for more than one board", f"--count {count} without it")
    backend = backend_of(workers, use_dask, scheduler, chunk)
    first = start or (level.height // 2, level.width // 2)
    check_inside((level.width, level.height), first, "start cell")
    check_room(level, first, rule)
    no_guess_only = no_guess_only or difficulty is not None
    if difficulty not in (None, "easy") and level.mines == 0:
        # The first click opens every square: no budget finds a harder one.
        raise UserError("mines for a grade above easy (a board without mines is solved by its first click)",
                        f"{level} --difficulty {difficulty}")
    if out_dir:
        make_directory(out_dir)
    boards, stopped, exists = _generate_all(level, first, rule, method, no_guess_only, seed, count, budget,
                                    output, out_dir, timeout, backend, difficulty)
    data = {"level": str(level), "start": {"row": first[0], "col": first[1]},
            "method": method if no_guess_only else "uniform", "seed": seed,
            "difficulty": difficulty, "complete": stopped is None or exists is False, "boards": boards}
    if exists is False:  # an answer, not a limit: none exists (exit 1, as for "no")
        data["exists"] = False
    elif stopped:
        data["stopped"] = stopped
    lines = ([b["note"] for b in boards] if output or out_dir or count > 1
             else [boards[0]["layout"].rstrip("\n")] if boards else [])
    if exists is False:
        lines.append(stopped)
    elif stopped:
        lines.append(f"stopped after {len(boards)} of {count} board(s): {stopped}")
    for b in boards:
        b.pop("note")
    code = NO if exists is False else INTERRUPTED if stopped == INTERRUPTED_WORD else LIMIT if stopped else 0
    emit("generate", as_json, data, "\n".join(lines), code)


def _counted(n: int, noun: str) -> str:
    """``1 layout``, ``11 layouts``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _generate_all(level, first, rule, method, no_guess_only, seed, count, budget, output, out_dir,
                  timeout, backend, difficulty=None) -> tuple[list[dict], str | None, bool | None]:
    """Make and write boards as they come, in order; (boards made, why it stopped early or None,
    False where no such layout exists at all, else None).

    Board i draws from its own seed (seed, i), so the boards are the same
    wherever they are made."""
    import contextlib

    from ..board import Board
    from ..difficulty import Rung
    from ..game import FirstClick
    from ..puzzles import Method, make_layouts, no_guess_exists
    from ..report.puzzles import grade_json
    from ..textio import format_board, format_mine
    boards: list[dict] = []
    # Boards already in the directory are an author's earlier work: new ones are
    # numbered after them, never written over them, and drawn as the boards of
    # that number (the same seed again would otherwise repeat boards 1, 2, ...).
    skip, width = _boards_in(out_dir) if out_dir else (0, 0)
    # Numbered as the boards there are (board-0100 then board-0101, not board-101), else
    # padded to this run's count, so that a listing sorts them.
    width = width or len(str(count))
    blank = Board(level.height, level.width, total_mines=level.mines)
    layouts = make_layouts(level, first, seed, FirstClick(rule), Method(method), no_guess_only, count,
                           budget, backend, difficulty=difficulty and Rung.parse(difficulty), first=skip)
    try:
        with deadline(timeout), progress(f"generating {level}", count, "boards") as advance, \
                contextlib.closing(layouts):
            for index, made in enumerate(layouts):
                if made is None:
                    wanted = f" {difficulty}" if difficulty else ""  # as puzzles.generate says it
                    # A small level is tried whole: "a larger budget may find one" is then "none".
                    if no_guess_exists(level, first, FirstClick(rule), difficulty and Rung.parse(difficulty)) is False:
                        return boards, (f"no no-guess{wanted} {level} layout exists with the first click at "
                                        f"{first[0]},{first[1]} ({rule}): every layout was tried"), False
                    return boards, (f"a no-guess{wanted} {level} layout within {budget} "
                                    f"check{'s' if budget != 1 else ''} (got none for board {index + 1}; "
                                    "a larger --budget may find one if there is one: some levels have "
                                    "none, such as a single safe cell beside the first click's number)"), None
                path = output or (out_dir / f"board-{skip + index + 1:0{width}d}.txt" if out_dir else None)
                text = (format_mine(blank, made.mines) if path and path.suffix.lower() == ".mine"
                        else format_board(blank, made.mines, first))
                note = write_output(path, text) if path else ""
                boards.append({"file": str(path) if path else None, "layout": text,
                               "layouts": made.layouts, "perturbations": made.perturbations,
                               "three_bv": made.report.three_bv, "no_guess": made.report.solved,
                               **({"difficulty": grade_json(made.grade)} if made.grade else {}),
                               "note": f"{note}: 3BV {made.report.three_bv}, "
                                       f"{_counted(made.layouts, 'layout')} drawn, "
                                       f"{_counted(made.perturbations, 'perturbation')}"
                                       + (f", {made.grade}" if made.grade else "")
                                       # A .mine file cannot say where the game starts, and
                                       # noguess needs it back (--start).
                                       + (f"; start {first[0]},{first[1]}, not in the file (a .mine "
                                          f"has no place for it): noguess --start {first[0]},{first[1]}, "
                                          f"render --opened --start {first[0]},{first[1]}"
                                          if path and path.suffix.lower() == ".mine" else "")})
                advance(1)
    except TimeUp:
        return boards, f"no more boards within {timeout:g} s (--timeout)", None
    except KeyboardInterrupt as err:
        # Answered like a timeout (every board written is listed), exit 130.
        if str(err):  # why, when it was not Ctrl-C: the CPU time limit
            click.echo(f"satsweeper: interrupted: {err}", err=True)
        return boards, INTERRUPTED_WORD, None
    return boards, None, None


def _boards_in(directory) -> tuple[int, int]:
    """(the highest N of the ``board-N.txt`` files in ``directory``, the digits of the
    longest of their names' numbers): (0, 0) if none."""
    import re
    numbers = [m.group(1) for p in directory.iterdir() if (m := re.fullmatch(r"board-(\d+)\.txt", p.name))]
    return max((int(n) for n in numbers), default=0), max((len(n) for n in numbers), default=0)


COMMANDS = (noguess, generate)
