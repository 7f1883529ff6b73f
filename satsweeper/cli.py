"""The ``satsweeper`` command: parse arguments, call the library, print.

Exit codes: 0 yes (consistent / safe / unique / solved), 1 no, 2 bad input
or usage.
"""

from __future__ import annotations

import importlib.util
import json
import random
import re
import sys
from pathlib import Path
from typing import Hashable

import click
from pysat.solvers import SolverNames

from . import report
from .board import Board, Cell
from .constraints import Problem, problem_of
from .counting import Engine, tally
from .encoding import CardinalityEncoding
from .errors import SatsweeperError, TooComplexError
from .experiments import first_cell, run
from .game import LEVELS, FirstClick, Level
from .strategies import NAMES as STRATEGY_NAMES
from .puzzles import Method, make_layout, no_guess
from .reasoning import DEFAULT_SOLVER, Move, Reasoner
from .systems import System, is_system_text, read_system
from .textio import format_board, format_mine, read_board, read_puzzle, write_board

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
    board = subject if flags == "mine" else subject.with_flags_hidden()
    return problem_of(board), report.BoardView(board), board


def reasoner(problem: Problem, solver: str, encoding: str | None) -> Reasoner:
    try:
        return Reasoner(problem, solver=solver,
                        encoding=CardinalityEncoding(encoding) if encoding else None)
    except ValueError as err:
        raise InputError(str(err)) from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="satsweeper")
def main() -> None:
    """Minesweeper reasoning with SAT and #SAT.

    Cells are ROW,COL, 0-based from the top-left.  Exit codes: 0 yes,
    1 no, 2 bad input.
    """


def answer_with(board_file, flags, solver, encoding, as_json, question, to_json, to_text, verdict):
    """The shared body of check, solve and unique: ask, report, exit."""
    problem, view, _ = prepare(board_file, flags)
    with reasoner(problem, solver, encoding) as r:
        answer = question(r)
    emit(as_json, to_json(view, answer), to_text(view, answer), verdict(answer))


@main.command()
@board_options
def check(board_file, as_json, flags, solver, encoding):
    """CONSISTENCY: is there an explanation?  Shows one, or the conflicting clues."""
    answer_with(board_file, flags, solver, encoding, as_json, Reasoner.consistency,
                report.consistency_json, report.consistency_text, lambda a: a.consistent)


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
    answer_with(board_file, flags, solver, encoding, as_json, Reasoner.solution,
                report.solution_json, report.solution_text, lambda a: a.consistent)


@main.command()
@board_options
def unique(board_file, as_json, flags, solver, encoding):
    """SOLUTION: is the explanation unique?  Shows two that differ if not."""
    answer_with(board_file, flags, solver, encoding, as_json, Reasoner.uniqueness,
                report.uniqueness_json, report.uniqueness_text, lambda a: a.unique)


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


def parse_cell(text: str, what: str) -> Cell:
    match = re.fullmatch(r"\s*(\d+)\s*,\s*(\d+)\s*", text)
    if not match:
        raise InputError(f"expected {what} as ROW,COL (got {text!r})")
    return int(match.group(1)), int(match.group(2))


@main.command()
@click.argument("layout_file", metavar="LAYOUT", type=click.Path(dir_okay=False))
@click.option("--start", metavar="ROW,COL", help="First click (default: the file's 'start:').")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def noguess(layout_file, start, as_json):
    """Can LAYOUT be solved from the first click without ever guessing?"""
    try:
        puzzle = read_puzzle(layout_file)
    except SatsweeperError as err:
        raise InputError(str(err)) from None
    board = puzzle.board
    if puzzle.mines is None:
        raise InputError(f"{layout_file}:1:1: expected a layout, '*' for the hidden mines "
                         "(got a position without one)")
    if board.voids:
        raise InputError(f"{layout_file}:1:1: expected a full rectangle for a game (got void squares)")
    cell = parse_cell(start, "a start cell") if start else puzzle.start
    if cell is None:
        raise InputError(f"expected --start ROW,COL or a 'start:' line in {layout_file} (got neither)")
    level = Level(board.width, board.height, len(puzzle.mines))
    try:
        answer = no_guess(level, puzzle.mines, cell)
    except ValueError as err:
        raise InputError(f"expected {err}") from None
    view = report.BoardView(board)
    emit(as_json, report.no_guess_json(view, cell, answer),
         report.no_guess_text(view, cell, answer), answer.solved)


@main.command()
@click.argument("level_text", metavar="[WxHxM]", required=False)
@click.option("--level", "level_name", type=click.Choice(sorted(LEVELS)), help="A standard level.")
@click.option("--no-guess", "no_guess_only", is_flag=True, help="Only layouts solvable without guessing.")
@click.option("--start", metavar="ROW,COL", help="First click (default: the centre).")
@click.option("--rule", type=click.Choice([FirstClick.OPENING.value, FirstClick.SAFE.value]),
              default=FirstClick.OPENING.value, show_default=True,
              help="The first click opens a region, or is merely safe.")
@click.option("--method", type=click.Choice([m.value for m in Method]), default=Method.PERTURB.value,
              show_default=True, help="resample: uniform but slow; perturb: fast but biased.")
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("--count", default=1, show_default=True, type=click.IntRange(1))
@click.option("--budget", default=2000, show_default=True, type=click.IntRange(1),
              help="No-guess checks allowed per board.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the board here.")
@click.option("--out-dir", type=click.Path(file_okay=False), help="Write boards here, one file each.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def generate(level_text, level_name, no_guess_only, start, rule, method, seed, count, budget,
             output, out_dir, as_json):
    """Random layouts (no-guess ones with --no-guess), written as layout files.

    Native files keep the start cell; a .mine file (-o x.mine) marks mines M
    and has no place for it.
    """
    level = _level(level_text, level_name)
    first = parse_cell(start, "a start cell") if start else (level.height // 2, level.width // 2)
    if not (0 <= first[0] < level.height and 0 <= first[1] < level.width):
        raise InputError(f"expected a start cell inside the {level.width}x{level.height} board "
                         f"(got {first[0]},{first[1]})")
    if count > 1 and not out_dir:
        raise InputError("expected --out-dir DIR for more than one board (got --count "
                         f"{count} without it)")
    rng = random.Random(seed)
    results, texts = [], []
    for index in range(count):
        try:
            made = make_layout(level, first, rng, FirstClick(rule), Method(method), no_guess_only, budget)
        except (TooComplexError, ValueError) as err:
            raise InputError(f"expected {err}" if isinstance(err, ValueError) else str(err)) from None
        path = _destination(output, out_dir, index, count)
        blank = Board(level.height, level.width, total_mines=level.mines)
        text = (format_mine(blank, made.mines) if path and path.suffix.lower() == ".mine"
                else format_board(blank, made.mines, first))
        if path:
            path.write_text(text, encoding="utf-8")
        texts.append(text)
        results.append({"file": str(path) if path else None, "layouts": made.layouts,
                        "perturbations": made.perturbations, "three_bv": made.report.three_bv,
                        "no_guess": made.report.solved})
    summary = {"level": str(level), "start": {"row": first[0], "col": first[1]},
               "method": method if no_guess_only else "uniform", "boards": results}
    if as_json:
        click.echo(json.dumps(summary))
    elif output or out_dir:
        for result in results:
            click.echo(f"{result['file']}: 3BV {result['three_bv']}, {result['layouts']} layouts, "
                       f"{result['perturbations']} perturbations")
    else:
        click.echo(texts[0], nl=False)


def _level(text: str | None, name: str | None) -> Level:
    if text and name:
        raise InputError(f"expected a level or --level, not both (got {text} and --level {name})")
    try:
        return Level.parse(text or name or "expert")
    except ValueError as err:
        raise InputError(f"expected {err}") from None


def _destination(output: str | None, out_dir: str | None, index: int, count: int) -> Path | None:
    if output:
        return Path(output)
    if out_dir:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
        return Path(out_dir) / f"board-{index + 1:0{len(str(count))}d}.txt"
    return None


@main.command()
@click.option("--level", "level_text", default="expert", show_default=True,
              help="beginner, intermediate, expert, or WxHxM (e.g. 10x10x10).")
@click.option("--strategy", "strategy_name", type=click.Choice(STRATEGY_NAMES), default="exact",
              show_default=True)
@click.option("--games", default=1000, show_default=True, type=click.IntRange(1))
@click.option("--rules", type=click.Choice([r.value for r in FirstClick]), default=FirstClick.SAFE.value,
              show_default=True, help="First click: may lose, is safe, or opens a region.")
@click.option("--first", default="corner", show_default=True, help="corner, centre or ROW,COL.")
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1))
@click.option("--out", type=click.Path(dir_okay=False), help="Also write the JSON summary here.")
@click.option("--json", "as_json", is_flag=True, help="Print the JSON summary instead of the table.")
def bench(level_text, strategy_name, games, rules, first, seed, workers, out, as_json):
    """Play many games with a strategy and report its win rate."""
    level = _level(level_text, None)
    try:
        start = first_cell(level, first)
    except ValueError as err:
        raise InputError(f"expected {err}") from None
    with click.progressbar(length=games, label=f"{strategy_name} on {level}", file=sys.stderr,
                           show_pos=True) as bar:
        summary = run(level, strategy_name, games, seed, FirstClick(rules), start, workers,
                      progress=bar.update)
    data = dict(summary.as_json(), rules=rules, first=list(start), seed=seed, workers=workers)
    if out:
        Path(out).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    if as_json:
        click.echo(json.dumps(data))
        return
    low, high = summary.interval()
    click.echo(f"{'strategy':<10} {'level':<10} {'games':>6} {'wins':>6} {'win rate':>9} "
               f"{'95% CI':>15} {'guesses/game':>12} {'games/s':>8}")
    click.echo(f"{strategy_name:<10} {str(level):<10} {summary.games:>6} {summary.wins:>6} "
               f"{summary.rate:>9.2%} {f'{low:.1%}-{high:.1%}':>15} "
               f"{data['guesses_per_game']:>12.2f} {data['games_per_second']:>8.1f}")


@main.command()
@click.option("--size", metavar="WxH", help="One board size, e.g. 5x5.")
@click.option("--sweep", "sweep_to", type=click.IntRange(3, 30),
              help="Square sizes 3x3 up to NxN, and the asymptotic P*.")
@click.option("--strategy", "strategy_name", type=click.Choice(STRATEGY_NAMES), default="best",
              show_default=True)
@click.option("--games", default=1000, show_default=True, type=click.IntRange(1),
              help="Games per mine count.")
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1))
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False),
              help="PNG of win rate against density (one size; with --sweep, SIZE is added).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def density(size, sweep_to, strategy_name, games, seed, workers, plot_path, as_json):
    """Win rate against mine density, logistic fit and critical density (seed 003)."""
    from . import density as critical
    require_experiments("density", "scipy", "matplotlib")
    if bool(size) == bool(sweep_to):
        raise InputError("expected exactly one of --size WxH and --sweep N (got "
                         f"{'both' if size else 'neither'})")
    sizes = [(q, q) for q in range(3, sweep_to + 1)] if sweep_to else [_size(size)]
    results = []
    total = sum(w * h - 1 for w, h in sizes) * games
    with click.progressbar(length=total, label="density sweep", file=sys.stderr) as bar:
        for width, height in sizes:
            points = critical.sweep(width, height, strategy_name, games, seed, workers, bar.update)
            fit = critical.fit_logistic(points)
            if plot_path:
                path = plot_path if not sweep_to else str(Path(plot_path).with_stem(
                    f"{Path(plot_path).stem}-{width}x{height}"))
                critical.plot(points, fit, path, f"{width}x{height}, {strategy_name}, {games} games per point")
            results.append({"size": f"{width}x{height}", "critical_density": fit.critical,
                            "logistic": {"L": fit.height, "k": fit.steepness, "Q": fit.centre, "b": fit.floor},
                            "points": [{"mines": p.mines, "density": p.density, "wins": p.wins,
                                        "games": p.games, "corrected": p.corrected} for p in points]})
    data = {"strategy": strategy_name, "games_per_point": games, "seed": seed, "sizes": results}
    if sweep_to:
        p_star, slope = critical.asymptote({int(r["size"].split("x")[0]): r["critical_density"]
                                            for r in results})
        data["asymptotic_critical_density"] = p_star
        data["reciprocal_fit"] = {"P*": p_star, "a": slope}
    if as_json:
        click.echo(json.dumps(data))
        return
    for r in results:
        fit = r["logistic"]
        click.echo(f"{r['size']:>7}: critical density P = {r['critical_density']:.4f}  "
                   f"(logistic L={fit['L']:.3f} k={fit['k']:.2f} Q={fit['Q']:.4f} b={fit['b']:.3f})")
    if sweep_to:
        click.echo(f"asymptotic critical density P* = {data['asymptotic_critical_density']:.4f} "
                   f"(fit P(q) = P* + a/q, a = {data['reciprocal_fit']['a']:.4f}); seed 003 found 0.159")


def require_experiments(command: str, *modules: str) -> None:
    """Bad input (exit 2), not a traceback, when the experiments extra is missing."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise InputError(f"expected {' and '.join(missing)} for {command}: pip install "
                         f"'satsweeper[experiments]' (got {', '.join(missing)} missing)")


def _size(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d+)x(\d+)\s*", text)
    if not match or int(match.group(1)) * int(match.group(2)) < 2:
        raise InputError(f"expected a board size WxH of at least 2 cells (got {text!r})")
    return int(match.group(1)), int(match.group(2))


@main.command(name="render")
@click.argument("board_file", metavar="BOARD", type=click.Path(dir_okay=False))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="Picture to write: .svg or .png.")
@click.option("--probs", "with_probs", is_flag=True, help="Shade hidden cells by exact mine probability.")
@click.option("--flags", type=click.Choice(["mine", "hidden"]), default="mine", show_default=True)
def render_command(board_file, output, with_probs, flags):
    """Draw a board (numbers, flags, hidden and named cells), optionally as a heat map."""
    from .render import render
    if Path(output).suffix.lower() not in (".svg", ".png"):
        raise InputError(f"expected an output file ending in .svg or .png (got {output!r})")
    require_experiments("render", "matplotlib")
    problem, view, subject = prepare(board_file, flags)
    if isinstance(subject, System):
        raise InputError(f"{board_file}:1:1: expected a board to draw (got a constraint system)")
    probabilities = None
    if with_probs:
        counts, conflict = count_problem(problem, Engine.COMPONENTS.value)
        if not counts.consistent:
            raise InputError(f"expected a consistent board for --probs (got {report.conflict_text(conflict)})")
        probabilities = {c: counts.probability(c) for c in counts.cells()}
    render(subject, output, probabilities, Path(board_file).name)
    click.echo(f"wrote {output}")


# -- gadgets --------------------------------------------------------------

def load_gadget(name_or_file: str):
    """A library gadget by name, or a gadget file."""
    from .gadgets import library, read_gadget
    if name_or_file in library.BUILDERS:
        return library.build(name_or_file)
    if not Path(name_or_file).exists():
        raise InputError(f"expected a gadget name ({', '.join(library.BUILDERS)}) or a gadget file "
                         f"(got {name_or_file!r})")
    try:
        return read_gadget(name_or_file)
    except SatsweeperError as err:
        raise InputError(str(err)) from None


@main.group()
def gadget() -> None:
    """Gadgets: boards whose named cells carry Boolean signals."""


@gadget.command(name="list")
def gadget_list():
    """The library's gadgets and their claims."""
    from .gadgets import library
    for name in library.BUILDERS:
        g = library.build(name)
        claim = "; ".join(f"{p} = {c}" for p, c in g.outputs.items()) or f"accepts {g.accepts}"
        click.echo(f"{name:<11} {g.board.height}x{g.board.width:<3} inputs {' '.join(g.inputs):<4} {claim}")


@gadget.command(name="verify")
@click.argument("gadget_ref", metavar="NAME|FILE")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def gadget_verify(gadget_ref, as_json):
    """Every input combination: consistent?, outputs forced, explanations, mines."""
    from .gadgets import verify
    verdict = verify(load_gadget(gadget_ref))
    emit(as_json, report.verdict_json(verdict), report.verdict_text(verdict), verdict.computes)


@gadget.command(name="write")
@click.argument("directory", type=click.Path(file_okay=False))
def gadget_write(directory):
    """Write every library gadget to DIRECTORY as NAME.txt (the repository's gadgets/)."""
    from .gadgets import library
    written = library.write_all(directory)
    click.echo(f"wrote {len(written)} gadgets to {directory}")


@main.command(name="repair")
@click.argument("gadget_ref", metavar="NAME|FILE")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the repaired gadget here.")
@click.option("--attempts", default=20, show_default=True, type=click.IntRange(1),
              help="Optimal change sets to try before giving up.")
@click.option("--unique", is_flag=True, help="Also make it unique: one explanation per input.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def repair_command(gadget_ref, output, attempts, unique, as_json):
    """Fewest changes of numbers that make a figure consistent and compute its claim (MaxSAT)."""
    from .gadgets import format_gadget
    from .gadgets.repair import repair
    result = repair(load_gadget(gadget_ref), attempts, unique)
    ok = bool(result.gadget and result.verdict.computes and (result.verdict.unique or not unique))
    if ok and output:
        note = "\n".join(f"repaired {c}" for c in result.changes)
        Path(output).write_text(format_gadget(result.gadget, note), encoding="utf-8")
    emit(as_json, report.repair_json(result), report.repair_text(result), ok)


@main.command(name="compile")
@click.argument("formula")
@click.option("--gates", type=click.Choice(["parsimonious", "kaye"]), default="parsimonious", show_default=True,
              help="Pedersen's OR (one explanation per model) or Kaye's AND (two when both inputs are false).")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Write the board here: .mine for JSMinesweeper (with a total mine count), else native.")
@click.option("--no-count", is_flag=True, help="Do not count the board's explanations (big formulas).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def compile_command(formula, gates, output, no_count, as_json):
    """Compile FORMULA (pyeda syntax, or a DIMACS .cnf file) into one board.

    The board's explanations are the formula's models: one free wire per
    variable, named after it, and the formula forced true.
    """
    from .gadgets.compiler import GateSet, compile_formula
    from .gadgets.formula import read_formula
    try:
        parsed = read_formula(formula)
    except SatsweeperError as err:
        raise InputError(str(err)) from None
    compiled = compile_formula(parsed, GateSet(gates))
    explanations = None if no_count else compiled.explanations()
    written = None
    if output:
        board, why = (compiled.with_total() if Path(output).suffix.lower() == ".mine"
                      else (compiled.board, ""))
        write_board(board, output)
        written = (output, board.total_mines, why)
    emit(as_json, report.compile_json(compiled, explanations, written),
         report.compile_text(compiled, explanations, written),
         explanations is None or compiled.gates is GateSet.KAYE or explanations == parsed.models())
