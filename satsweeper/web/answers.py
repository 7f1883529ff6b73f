"""The answers the web API gives, as the CLI's JSON objects.

Each function takes what a request named, already read and checked, and
returns the object the matching ``satsweeper ... --json`` command prints
(built by the same :mod:`satsweeper.report` functions), so a program can
switch between the command line and HTTP without changing its parser.
They return plain dicts: the server runs them in a child process under a
time limit and the answer comes back pickled.

>>> from satsweeper.textio import parse_puzzle
>>> answer = probs(parse_puzzle("F1.\\n").board)
>>> answer["command"], answer["cells"][0]["probability"]
('probs', '0')
"""

from __future__ import annotations

from typing import Hashable

from ..board import Board, Cell
from ..limits import KNOWN_SECONDS
from ..report.contract import envelope
from ..textio import grid_rows


def board_json(board: Board, mines: frozenset[Cell] | None = None) -> dict:
    """A board as the page draws it: one string per row (``0``-``8`` a
    number, ``.`` hidden, ``F`` a flag, ``-`` void), names, and the layout's
    mines when the text gave one.

    >>> board_json(Board(1, 3, {(0, 0): 1}, frozenset({(0, 1)}), total_mines=1))["rows"]
    ['1F.']
    """
    out = {"width": board.width, "height": board.height, "total_mines": board.total_mines,
           "rows": grid_rows(board),
           "names": [{"row": c[0], "col": c[1], "name": n} for c, n in sorted(board.names.items())]}
    if mines is not None:
        out["mines"] = [{"row": r, "col": c} for r, c in sorted(mines)]
    return out


def _plain(data: dict) -> dict:
    """``data`` with its streamed lists (:class:`~satsweeper.report.contract.JsonList`,
    made above 40,000 cells) as plain lists: the answer comes back pickled, and
    their encoders are closures (a 300x300 board's check answered 500)."""
    import json

    from ..report.contract import JsonList
    return {key: json.loads("[" + "".join(value.chunks()) + "]") if isinstance(value, JsonList) else value
            for key, value in data.items()}


def _view(subject):
    from ..report.views import BoardView, SystemView
    return BoardView(subject) if isinstance(subject, Board) else SystemView(subject)


def cell_json(subject, cell: Hashable) -> dict:
    """A cell as the answers write it: row and col (and name) on a board, name in a system."""
    return _view(subject).json(cell)


def _problem(subject, start=None):
    """The rules of a board (and of its file's ``start:`` cell: safe), or a system's."""
    from ..constraints import problem_of, with_start
    return with_start(problem_of(subject), start) if isinstance(subject, Board) else subject.problem


def probs(subject, start=None) -> dict:
    """``satsweeper probs --json``."""
    from ..reasoning import tally_with_conflict
    from ..report.counts import probabilities_json
    view = _view(subject)
    answer, conflict = tally_with_conflict(_problem(subject, start))
    idents = [view.json(c) for c in answer.cells()]
    return envelope("probs", probabilities_json(answer, idents, conflict))


def count(subject, start=None) -> dict:
    """``satsweeper count --json``."""
    from ..reasoning import tally_with_conflict
    from ..report.counts import count_json
    answer, conflict = tally_with_conflict(_problem(subject, start))
    return envelope("count", count_json(answer, conflict))


def _ask(subject, start, question: str, *args):
    from ..reasoning import Reasoner
    with Reasoner(_problem(subject, start)) as reasoner:
        return getattr(reasoner, question)(*args)


def check(subject, start=None) -> dict:
    """``satsweeper check --json``."""
    from ..report.queries import consistency_json
    return envelope("check", _plain(consistency_json(_view(subject), _ask(subject, start, "consistency"))))


def safe(subject, cell: Hashable, mine: bool = False, start=None) -> dict:
    """``satsweeper safe BOARD CELL [--mine] --json``."""
    from ..reasoning import Move
    from ..report.queries import safety_json
    from ..hint import simplest_reason
    from ..reasoning import Reasoner
    problem = _problem(subject, start)  # once: the question, and the clues the hint names (as the CLI)
    with Reasoner(problem) as reasoner:
        answer = simplest_reason(problem, reasoner.safety(cell, Move.FLAG if mine else Move.OPEN))
    return envelope("safe", _plain(safety_json(_view(subject), answer)))


def solve(subject, start=None) -> dict:
    """``satsweeper solve --json``."""
    from ..report.queries import solution_json
    return envelope("solve", _plain(solution_json(_view(subject), _ask(subject, start, "solution"))))


def unique(subject, start=None) -> dict:
    """``satsweeper unique --json``."""
    from ..report.queries import uniqueness_json
    return envelope("unique", _plain(uniqueness_json(_view(subject), _ask(subject, start, "uniqueness"))))


def hint(board: Board, strategy: str = "best", seed: int = 0, start=None) -> dict:
    """``satsweeper hint --json``."""
    return _hint(board, strategy, seed, start=start)[0]


def _hint(board: Board, strategy: str = "best", seed: int = 0, rule=None, start=None) -> tuple[dict, str]:
    """The hint as JSON and as the CLI's words (the page shows both); ``rule``:
    the first-click rule of a game not yet started (its first click may be sure)."""
    from ..hint import first_click, hint as make_hint
    from ..report.hints import hint_json, hint_text
    from ..report.views import BoardView
    view = BoardView(board)
    answer = (make_hint(board, strategy, seed, start=start) if rule is None
              else first_click(board, rule, strategy, seed))
    return envelope("hint", hint_json(view, answer)), hint_text(view, answer)


def rules_hint(board: Board, strategy: str = "best", start=None, words: bool = False,
               seconds: float = KNOWN_SECONDS) -> dict:
    """``hint --json``'s fields out of time: a sure move the single numbers or a nested pair
    find within ``seconds`` (:func:`~satsweeper.hint.sure_by_rules_within`, in forked
    processes), or nothing; with ``words``, as the Analyse page takes it: ``{"hint", "hint_text"}``."""
    from ..hint import sure_by_rules_within
    from ..report.hints import hint_json, hint_text
    from ..report.views import BoardView
    answer = sure_by_rules_within(board, strategy, start, seconds)
    if answer is None:
        return {}
    view = BoardView(board)
    return {"hint": hint_json(view, answer), "hint_text": hint_text(view, answer)} if words \
        else hint_json(view, answer)


def analyse(board: Board, mines: frozenset[Cell] | None = None, notes: tuple[str, ...] = (),
            start: Cell | None = None) -> dict:
    """What the Analyse page shows at once: the board, ``probs``, ``hint``
    and the hint in words; ``notes``: what the CLI would say on stderr (a square
    read as a cell named ``o``)."""
    advice, words = _hint(board, start=start)
    return envelope("analyse", {"board": board_json(board, mines), "probs": probs(board, start),
                                "hint": advice, "hint_text": words, "notes": list(notes)})


def noguess(board: Board, mines: frozenset[Cell], start: Cell) -> dict:
    """``satsweeper noguess --json`` (the layout and start already checked)."""
    from ..difficulty import grade
    from ..game import Level
    from ..puzzles import guess_odds, no_guess
    from ..report.puzzles import grade_text, hardest_text, no_guess_json, no_guess_text
    from ..report.views import BoardView
    level = Level(board.width, board.height, len(mines))
    shown = tuple(board.clues)  # as the CLI: the numbers the layout shows are given with the start,
    flagged = tuple(board.flags)  # and its flags
    answer = no_guess(level, mines, start, shown, flagged)
    graded = grade(level, mines, start, shown=shown, flagged=flagged) if answer.solved else None  # as the CLI
    view = BoardView(board)
    out = envelope("noguess", no_guess_json(view, start, answer, graded, guess_odds(answer)))
    # The page's own (the CLI's JSON has the rest): the position reached, drawn with each hidden
    # cell's chance when stuck; the grade and its hardest step in the CLI's words when solved.
    out["position"] = board_json(answer.position)
    if answer.solved:
        # The CLI's first two lines (its head, and the check's counts the grade's line refers to
        # as "the check's line above": the page left it out), then the grade and its hardest step.
        out["head_text"] = no_guess_text(view, start, answer).splitlines()[:2]
        out["grade_text"] = [grade_text(graded), *hardest_text(view, graded)]
    else:
        out["position_probs"] = probs(answer.position)
    return out


def gadget(name: str, values: tuple[bool, ...]) -> dict:
    """``satsweeper gadget verify NAME --json``, plus the gadget drawn and,
    for the inputs ``values``, the outputs forced and up to two explanations
    (two that differ show that the case is not unique)."""
    from ..constraints import Constraint, Problem, problem_of
    from ..gadgets.gadget import PortValue
    from ..reasoning import Reasoner
    from ..report.gadgets import verdict_json
    from ..report.queries import uniqueness_json
    from ..report.views import BoardView
    from .library import built, verdict
    g = built(name)
    base = problem_of(g.board)
    pinned = tuple(Constraint(frozenset({g.cell(port)}), int(v), PortValue(port, v))
                   for port, v in zip(g.inputs, values))
    problem = Problem(base.cells, base.constraints + pinned)
    with Reasoner(problem) as reasoner:
        answer = reasoner.uniqueness()
    case = next(c for c in verdict(name).cases if c.inputs == values)
    ports = {p: {"row": g.cell(p)[0], "col": g.cell(p)[1]} for p in g.ports()}
    return envelope("gadget verify", dict(
        verdict_json(verdict(name)), board=board_json(g.board), ports=ports,
        outputs_claimed={p: str(c) for p, c in g.outputs.items()}, accepts=str(g.accepts),
        case={"inputs": [int(v) for v in values], "accepted": case.accepted,
              "outputs": {p: s.value for p, s in case.outputs.items()},
              "expected": {p: int(v) for p, v in case.expected.items()},
              "count": str(case.explanations), "correct": case.correct,  # a count: its digits, as every count
              **uniqueness_json(BoardView(g.board), answer)}))


def game(deal, moves, with_hint: bool = False, with_probs: bool = False, mines=None) -> dict:
    """A game replayed (:mod:`.play`): what the player sees, the outcome, the
    mines once it is over, and on request the hint and probabilities."""
    from ..game import FirstClick, Outcome
    from .play import first_click, replay
    played, exploded = replay(deal, [tuple(m) for m in moves], mines)
    board = played.board
    over = played.outcome is not Outcome.PLAYING
    # Before the first click its layout is not drawn: the deal's rule may make any click safe.
    started = first_click([tuple(m) for m in moves]) is not None
    rule = None if started else FirstClick(deal.rule)
    # The position's chances then are the density's, which a rule that keeps the first click
    # safe makes wrong for whichever cell is clicked: no probabilities until it is made.
    chances = with_probs and not over and (rule is None or rule is FirstClick.CAN_LOSE)
    out = {"level": str(played.level), "rule": deal.rule, "no_guess": deal.no_guess,
           "seed": deal.seed, "outcome": played.outcome.value, "moves": len(moves),
           "board": board_json(board, played.mines if over else None),
           "exploded": None if exploded is None else {"row": exploded[0], "col": exploded[1]},
           "hint": None, "hint_text": None,
           "probs": probs(board) if chances else None}
    if with_hint and not over:
        out["hint"], out["hint_text"] = _hint(board, rule=rule)
    return envelope("game", out)
