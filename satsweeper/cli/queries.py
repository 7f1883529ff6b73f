"""Questions about one position: check, safe, solve, unique, count, probs, hint."""

from __future__ import annotations

from pathlib import Path

import click

from ..cells import resolve_cell
from ..limits import KNOWN_SECONDS, Clock, TimeUp, within
from .contract import (LIMIT, NO, OUT_OF_MEMORY, STRATEGIES, YES, CellParam, InputFile, OutputPath, UserError, emit,
                       json_option, refuse_overwriting_input, timed_out, timeout_option, verdict, working)
from .subjects import build_problem, flags_option, prepare, viewed


class LazyChoice(click.Choice):
    """A choice whose list is made when first read: python-sat's solver
    names cost its import, which a command that only counts never needs."""

    def __init__(self, source) -> None:
        self._source = source
        super().__init__(())

    @property
    def choices(self):
        return self._source()

    @choices.setter
    def choices(self, value) -> None:  # click's __init__ sets it; the source decides
        pass


def solver_options(command):
    """The SAT solver and cardinality encoding (the questions SAT answers)."""
    from ..encoding import CardinalityEncoding
    from ..reasoning import DEFAULT_SOLVER, solver_names
    command = click.option("--solver", type=LazyChoice(solver_names), default=DEFAULT_SOLVER,
                           show_default=True, help="SAT solver from python-sat.")(command)
    return click.option("--encoding", type=click.Choice([e.value for e in CardinalityEncoding]),
                        default=None, help="Cardinality encoding (default: native where the solver "
                        "has it, else seqcounter; native needs minicard or gluecard).")(command)


def sat_options(command):
    """What the SAT questions take after their arguments: flags, solver, encoding, a time limit, --json."""
    for option in (json_option, timeout_option, solver_options, flags_option):
        command = option(command)
    return command


def board_argument(command):
    return click.argument("source", metavar="BOARD", type=InputFile(gadgets=True))(command)


def reasoner(problem, solver: str, encoding: str | None):
    from ..encoding import CardinalityEncoding
    from ..reasoning import Reasoner
    try:
        return Reasoner(problem, solver=solver,
                        encoding=CardinalityEncoding(encoding) if encoding else None)
    except ValueError as err:
        raise UserError(str(err).split(" (got")[0], f"--solver {solver} --encoding {encoding}") from None


def ask(problem, solver: str, encoding: str | None, question: str, *args):
    """One question to a fresh reasoner (in a child process when time is limited)."""
    with reasoner(problem, solver, encoding) as r:
        return getattr(r, question)(*args)


def known_after_timeout(problem, basis, view) -> tuple[dict, str]:
    """What the single-number rules settle, worked out within
    :data:`~satsweeper.limits.KNOWN_SECONDS` more (the rules built
    first if the time ran out while they were being built: ``problem``
    None); nothing if that is not enough."""
    # In a forked child killed on time (limits.within), not under a signal: compiled, the rules
    # run in C, where no signal reaches them (count --timeout 5 on a 1000x1000 board took 18 s).
    try:
        return within(KNOWN_SECONDS, lambda: obvious_known(build_problem(basis) if problem is None else problem, view))
    except TimeUp:
        return ({"safe": [], "mine": []},
                f"the single-number rules were not worked out within {KNOWN_SECONDS:g} s more")


def obvious_known(problem, view) -> tuple[dict, str]:
    """What the single-number rules settle: known whatever the time limit."""
    from ..report.queries import settled
    from ..singlepoint import settled_moves
    return settled(view, *settled_moves(problem))


@click.command()
@board_argument
@sat_options
def check(source, flags, solver, encoding, timeout, as_json):
    """CONSISTENCY: is there an explanation?  Shows one, or a minimal set of
    clues that conflict (dropping any one of them removes the conflict).

    \b
    Examples:
      satsweeper check examples/conflict.txt
      cat board.txt | satsweeper check - --json
    """
    from ..report import queries
    clock = Clock(timeout)
    try:
        problem, view, _ = prepare(source, flags, clock.left())
        answer = within(clock.left(), lambda: ask(problem, solver, encoding, "consistency"))
    except TimeUp:
        timed_out("check", as_json, timeout, {}, "")
    emit("check", as_json, queries.consistency_json(view, answer),
         queries.consistency_text(view, answer), verdict(answer.consistent))


@click.command()
@board_argument
@click.argument("cell", type=CellParam())
@click.option("--mine", is_flag=True, help="Ask whether flagging CELL as a mine is right.")
@sat_options
def safe(source, cell, mine, flags, solver, encoding, timeout, as_json):
    """SAFETY: is opening CELL (or flagging it, --mine) right in every
    explanation?  Names the clues that force it, or shows a counter-example.

    \b
    Examples:
      satsweeper safe examples/unique.txt 1,0
      satsweeper safe examples/unique.txt 1,0 --mine --json
    """
    from ..reasoning import Move
    from ..report import queries
    clock = Clock(timeout)
    view, subject, basis = viewed(source, flags)
    target = resolve_cell(subject, cell)
    try:
        problem = build_problem(basis, clock.left())
        answer = within(clock.left(), lambda: ask(problem, solver, encoding, "safety", target,
                                                  Move.FLAG if mine else Move.OPEN))
    except TimeUp:
        # The question's keys stay (docs/json.md: "move" is always there), the answer's are null.
        timed_out("safe", as_json, timeout, {"cell": view.json(target), "move": (Move.FLAG if mine else Move.OPEN).value,
                                              "safe": None}, "")
    from ..hint import simplest_reason
    answer = simplest_reason(problem, answer)  # the clues hint names for the same move
    code = NO if not answer.consistent else verdict(answer.safe)
    emit("safe", as_json, queries.safety_json(view, answer), queries.safety_text(view, answer), code)


@click.command()
@board_argument
@sat_options
def solve(source, flags, solver, encoding, timeout, as_json):
    """Every hidden cell: safe (o), mine (*) or undetermined (?).

    \b
    Examples:
      satsweeper solve examples/expert.txt
      satsweeper solve examples/expert.txt --json
    """
    from ..report import queries
    clock = Clock(timeout)
    view, _, basis = viewed(source, flags)
    problem = None
    try:
        problem = build_problem(basis, clock.left())
        with working(f"solving ({len(problem.cells)} hidden cells)"):
            answer = within(clock.left(), lambda: ask(problem, solver, encoding, "solution"))
    except TimeUp:
        known, text = known_after_timeout(problem, basis, view)
        timed_out("solve", as_json, timeout, known, text)
    emit("solve", as_json, queries.solution_json(view, answer), queries.solution_text(view, answer),
         verdict(answer.consistent))


@click.command()
@board_argument
@click.option("--render", "picture", metavar="FILE", type=OutputPath((".svg", ".png")),
              help="Also draw the answer (.svg or .png): an explanation's mines, and the cells where "
                   "a second one differs outlined (or the clues that conflict).")
@sat_options
def unique(source, picture, flags, solver, encoding, timeout, as_json):
    """SOLUTION: is the explanation unique?  Shows two that differ if not.

    \b
    Examples:
      satsweeper unique examples/unique.txt
      satsweeper unique gadgets/figures/fig-3.7-puzzle.txt --json
      satsweeper unique examples/guess.txt --render why.png
    """
    from ..report import queries
    from ..systems import System
    if picture:
        from .pictures import require_matplotlib
        require_matplotlib()  # before the work, not after it
        refuse_overwriting_input(picture, source, option="--render")
    clock = Clock(timeout)
    try:
        problem, view, subject = prepare(source, flags, clock.left())
        if picture and isinstance(subject, System):
            raise UserError("a board to draw (--render)", "a constraint system", source.name)
        answer = within(clock.left(), lambda: ask(problem, solver, encoding, "uniqueness"))
    except TimeUp:
        timed_out("unique", as_json, timeout, {"unique": None}, "")
    code = NO if not answer.consistent else verdict(answer.unique)
    data, text = queries.uniqueness_json(view, answer), queries.uniqueness_text(view, answer)
    if picture:
        from .pictures import draw_uniqueness
        text += "\n" + draw_uniqueness(subject, answer, picture, Path(source.name).name)
        data["picture"] = str(picture)
    emit("unique", as_json, data, text, code)


def engine_option(command):
    return click.option("--engine", type=click.Choice(["components", "ganak"]), default="components",
                        show_default=True,
                        help="Our component DP, or the Ganak model counter (projected onto the cells).")(command)


def counting_options(command):
    """What count and probs take: a board or system, flags, the engine, a time limit, --json."""
    for option in (json_option, timeout_option, engine_option, flags_option,
                   click.argument("source", metavar="FILE", type=InputFile(gadgets=True))):
        command = option(command)
    return command


def counted(command: str, source, flags: str, engine: str, timeout: float | None, as_json: bool):
    """(problem, view, subject, tally, conflict) for count and probs; on
    ``--timeout``, what the single-number rules know, and exit 3."""
    from ..reasoning import tally_with_conflict
    clock = Clock(timeout)
    view, subject, basis = viewed(source, flags)
    problem = None
    try:
        problem = build_problem(basis, clock.left())
        with working(f"counting ({engine}, {len(problem.cells)} hidden cells)"):
            answer, conflict = within(clock.left(), lambda: tally_with_conflict(problem, engine),
                                      isolate=engine == "ganak")  # Ganak ignores Ctrl-C: a child does not
    except (TimeUp, MemoryError) as err:
        # Out of memory, the count's tables are freed by now: the single-number rules fit.
        known, text = known_after_timeout(problem, basis, view)
        timed_out(command, as_json, timeout, known, text, None if isinstance(err, TimeUp) else OUT_OF_MEMORY)
    return problem, view, subject, answer, conflict


@click.command()
@counting_options
def count(source, flags, engine, timeout, as_json):
    """#CONSISTENCY: the exact number of explanations of a board or a system
    of equations (a Python integer, printed in full).

    \b
    Examples:
      satsweeper count examples/expert.txt
      satsweeper count examples/fowler-young-6x6.txt --json
    """
    from ..report import counts
    problem, view, _, answer, conflict = counted("count", source, flags, engine, timeout, as_json)
    # Flags taken as mines are not among the counted cells: say how many come on top.
    board = getattr(view, "board", None)
    known = len(board.flags) if board is not None and flags == "mine" else 0
    # The arrangements are counted before the total: the text says which it rules out.
    room = (problem.mines, len(problem.floating_cells())) if problem.mines is not None else None
    floating = len(problem.floating_cells())
    # No cell next to a number: a file's start (safe, a rule of its own) is no arrangement either
    # ("1 arrangement of the constrained cells (1 with 0 mines)" was the start alone).
    from ..constraints import Start
    started = sum(isinstance(rule.origin, Start) for rule in problem.constraints)
    free = floating if floating + started == len(problem.cells) and started == len(problem.constraints) else None
    emit("count", as_json, counts.count_json(answer, conflict),
         counts.count_text(answer, conflict, known, room, free, started), verdict(answer.consistent))

@click.command()
@counting_options
def probs(source, flags, engine, timeout, as_json):
    """Exact probability that each hidden cell is a mine; names the safest.

    \b
    Examples:
      satsweeper probs examples/expert.txt
      satsweeper probs examples/fowler-young-6x6.txt --json
    """
    from ..report import counts
    from ..systems import System
    problem, view, subject, answer, conflict = counted("probs", source, flags, engine, timeout, as_json)
    if isinstance(subject, System):
        text = counts.system_probabilities_text(subject.names, subject.others, answer, conflict)
    else:
        text = counts.board_probabilities_text(view, answer, conflict)
    emit("probs", as_json, counts.view_probabilities_json(view, answer, conflict), text,
         verdict(answer.consistent))


@click.command()
@board_argument
@click.option("--strategy", "strategy_name", default="best", show_default=True,
              type=click.Choice(STRATEGIES),
              help="Whose move to show.")
@click.option("--seed", default=0, show_default=True, type=int,
              help="Fixes the strategy's tie-breaks, so the hint is reproducible.")
@click.option("--render", "picture", metavar="FILE",
              type=OutputPath((".svg", ".png")),
              help="Also draw the board with the move and its reason (.svg or .png).")
@flags_option
@timeout_option
@json_option
def hint(source, strategy_name, seed, picture, flags, timeout, as_json):
    """What to click, and why: a sure move with the clues that force it, or
    the guess a strategy makes with its exact chances and the alternatives.

    \b
    Examples:
      satsweeper hint examples/expert.txt
      satsweeper hint examples/expert.txt --json --render hint.svg
    """
    from ..hint import hint as make_hint
    from ..report import hints
    from ..systems import System
    if picture:
        from .pictures import require_matplotlib
        require_matplotlib()  # before the work, not after it
        refuse_overwriting_input(picture, source, option="--render")  # a board named .svg was replaced
    view, subject, basis = viewed(source, flags)  # the hint builds what it needs: no problem here
    if isinstance(subject, System):
        raise UserError("a board (a hint needs neighbours)", "a constraint system", source.name)
    stopped = None
    try:
        answer = within(timeout, lambda: make_hint(subject, strategy_name, seed, start=basis[1]))
    except (TimeUp, MemoryError) as err:
        stopped = f"no answer within {timeout:g} s (--timeout)" if isinstance(err, TimeUp) else OUT_OF_MEMORY
        answer = _rules_hint(subject, strategy_name, basis[1], timeout)
        if answer is None and isinstance(err, TimeUp):
            timed_out("hint", as_json, timeout, {}, "")
        if answer is None:
            raise
    data, text = hints.hint_json(view, answer), hints.hint_text(view, answer)
    code = NO if answer.consistent is False else YES
    if stopped and answer.consistent is not False:  # too big to count: what the rules alone found, exit 3
        data.update(complete=False, stopped=stopped, timeout=timeout)
        text = f"{stopped}; found without counting:\n{text}"
        code = LIMIT
    if picture:
        from .pictures import draw_hint
        note = draw_hint(subject, answer, picture, Path(source.name).name, basis[1])
        data["picture"] = str(picture)
        text += f"\n{note}"
    emit("hint", as_json, data, text, code)


def _rules_hint(subject, strategy_name, start, timeout):
    """:func:`~satsweeper.hint.sure_by_rules_within` (within :data:`KNOWN_SECONDS` more after
    a ``--timeout``); None if it found neither a move nor a conflict in time."""
    from ..hint import sure_by_rules, sure_by_rules_within
    if not timeout:  # out of memory, no time limit: as long as it takes
        try:
            return sure_by_rules(subject, strategy_name, start)
        except MemoryError:
            return None
    return sure_by_rules_within(subject, strategy_name, start, KNOWN_SECONDS)


COMMANDS = (check, safe, solve, unique, count, probs, hint)
