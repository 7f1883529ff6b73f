"""The move a strategy would make on a position, and why.

A player asks "what should I click?".  The answer is one move with its
evidence:

* a **sure move** (right in every explanation) comes with the rule that
  finds it first (one number, two nested numbers, or counting with the
  total) and the clues that force it: the rule's own (one number, the
  nested pair), or for counting a minimal set of them, as
  :meth:`~satsweeper.reasoning.Reasoner.safety` finds it;
* a **guess** comes with its exact mine probability, the chance that it
  opens a region (shows 0) and that what it shows makes some cell safe, the
  reason the strategy preferred it (the exact endgame's chance of winning,
  the two-move survival of the look-ahead, a far corner or the cell it gave
  way to, the safest cell)
  and the next best alternatives with the same measures.

The strategy is asked through its public ``decide``; everything else is
measured here with the counting engine, so the numbers shown are exact
whatever the strategy.

>>> from satsweeper.textio import parse_board
>>> h = hint(parse_board("F1.\\n"))
>>> h.sure, h.move.value, h.cell, [str(o) for o in h.reason]
(True, 'open', (0, 2), ['the 1 at 0,1'])
"""

from __future__ import annotations

import heapq
import random
import time
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Hashable

from .board import Board, Cell, is_whole
from .cells import check_inside
from .components import Components, tally as count_all
from .constraints import Positions, Problem, Start, problem_of, with_start
from .errors import CellError, InputError
from .game import FirstClick
from .limits import KNOWN_SECONDS, TimeUp, within
from .reasoning import Move, Reasoner
from .singlepoint import obvious_moves, pair_moves
from .tally import Shared

ALTERNATIVES = 5
MEASURED = 40  # safest cells measured for the alternatives (each costs a look-ahead)


@dataclass(frozen=True)
class Option:
    """A cell a player could open, measured exactly.

    Attributes:
        cell: the cell.
        mine: probability that it is a mine.
        opening: probability that it is safe and shows 0 (opens a region).
        progress: probability that it is safe and what it shows makes some
            cell safe (a sure next move; Hill's "secondary safety" weighs
            guesses by the same event).
    """

    cell: Cell
    mine: Fraction
    opening: Fraction
    progress: Fraction


@dataclass(frozen=True)
class Hint:
    """One move and its evidence (see the module docstring).

    Attributes:
        strategy: the strategy asked.
        consistent: False when no layout explains the position; then
            ``conflict`` names a minimal set of clues that cannot all hold
            and there is no move; None when not proven (:func:`sure_by_rules`).
        cell: the cell to open or flag (None: no hidden cell is left, or no move).
        move: open it or flag it (None with no cell).
        sure: right in every explanation.
        rule: how a sure move is found first: ``"single number"``,
            ``"two nested numbers"`` or ``"counting"``; ``"first click"``
            for a game's first click that its rule keeps safe (:func:`first_click`).
        reason: for a sure move, the clues (and the total) that force it,
            subset-minimal.
        basis: for a guess, why the strategy chose it (``"endgame"``,
            ``"look-ahead"``, ``"corner"``, ``"corner-yield"``, ``"pseudo-50/50"``, ``"safest"``, or
            ``"choice"``).
        value: what that basis scored: the chance of winning the game
            (endgame) or of surviving this move and the next (look-ahead).
        measures: the chosen cell's :class:`Option` (guesses only).
        safest: the lowest mine probability of any hidden cell.
        alternatives: the next safest cells, safest first (guesses only).
        sure_moves: how many hidden cells are determined (safe or mine);
            None when not counted (:func:`sure_by_rules`).
    """

    strategy: str
    consistent: bool | None
    conflict: tuple = ()
    cell: Cell | None = None
    move: Move | None = None
    sure: bool = False
    rule: str = ""
    reason: tuple = ()
    basis: str = ""
    value: Fraction | None = None
    measures: Option | None = None
    safest: Fraction | None = None
    alternatives: tuple[Option, ...] = ()
    sure_moves: int | None = 0


def hint(board: Board, strategy: str = "best", seed: int = 0,
         alternatives: int = ALTERNATIVES, start: Cell | None = None) -> Hint:
    """The move ``strategy`` would make on ``board``, with its evidence.

    ``seed`` fixes the strategy's tie-breaks, so a hint is reproducible.
    ``start``: a file's ``start:`` cell; while it is hidden it is the move, safe
    as a game's first click is (:func:`~satsweeper.constraints.with_start`).

    >>> h = hint(Board(3, 3, total_mines=2), start=(1, 1))
    >>> h.sure, h.cell, h.rule, [str(o) for o in h.reason]
    (True, (1, 1), 'first click', ['the start at 1,1 (a first click is safe)'])

    Raises:
        InputError: an unknown strategy name, or fewer than 0 alternatives.
        CellError: a ``start`` that is not a (row, col) of the board.
    """
    if not isinstance(alternatives, int) or alternatives < 0:  # -1 silently dropped the last one
        raise InputError(f"a number of alternatives, 0 or more (got {alternatives!r})")
    _check_start(board, start)
    from .strategies import strategy as make_strategy
    player = make_strategy(strategy, check_consistency=False)  # checked here, with the counts it needs
    problem = with_start(problem_of(board), start)
    started = any(isinstance(r.origin, Start) for r in problem.constraints)  # the start is hidden
    counts = count_all(problem)  # the cells the single rules fix taken out first: see _settle
    if not counts.consistent:
        with Reasoner(problem) as reasoner:
            return Hint(strategy, False, conflict=reasoner.consistency().conflict)  # no move: move None
    if not problem.cells:
        return Hint(strategy, True)
    whole = counts.scaled_count
    groups = _value_counts(counts)
    determined = sum(n for m, n in groups.items() if m in (0, whole))  # the start among them
    if started:  # the game begins there
        return Hint(strategy, True, cell=start, move=Move.OPEN, sure=True, rule="first click",
                    reason=(Start(start),), sure_moves=determined)
    positions = getattr(player, "positions", None)  # best's: its problem built once, here
    if isinstance(positions, Positions):
        positions.known(board, problem)
    decision = player.decide(board, random.Random(seed))
    if decision.guess and counts.scaled_mines[decision.opens[0]] == 0:
        # A strategy that does not look for sure moves (random) may still open a safe cell:
        # it is a sure move, with its reason ("a guess ... mine probability 0" was said).
        decision = replace(decision, guess=False)
    if not decision.guess:
        if not decision.opens:  # the strategy's sure moves are flags: a player would rather click
            decision = _sure_open(problem, counts) or decision
        return _sure(strategy, board, problem, decision, determined)
    cell = decision.opens[0]
    hidden = set(problem.cells)
    parts = Components(problem)  # the look-ahead recounts its parts: only a guess needs them
    chosen = _measure(board, hidden, parts, counts, cell)
    return Hint(strategy, True, cell=cell, move=Move.OPEN, basis=_basis(decision, chosen, counts),
                value=decision.value, measures=chosen,
                safest=Fraction(min(groups), whole),
                alternatives=_alternatives(board, hidden, parts, counts, chosen, alternatives),
                sure_moves=determined)


def _check_start(board: Board, start) -> None:
    """A start off the board or not a (row, col) was dropped without a word (a mistyped one
    changed the answer); one already opened is no rule, as a game's first click once made."""
    if start is None:
        return
    if not (isinstance(start, tuple) and len(start) == 2 and is_whole(start)):
        raise CellError(f"a start cell (row, col), its row and column whole numbers (got {start!r})")
    check_inside(board, start, "start cell")


def sure_by_rules(board: Board, strategy: str = "best", start: Cell | None = None, *,
                  proven: bool = True) -> Hint | None:
    """A sure move found without counting, for a position too big to count
    (:func:`hint` ran out of time or memory): the file's start while it is
    hidden, else a cell one number or two nested numbers settle (an open
    before a flag), with those numbers as its reason; None if they settle
    none.  The SAT solver proves the position consistent first (else the
    answer is its conflict); with ``proven`` False it is not asked, and the
    hint's ``consistent`` is None: the move is right in every explanation, if
    there is one (:func:`sure_by_rules_within`).  ``sure_moves`` is None: not counted.

    >>> from satsweeper.textio import parse_board
    >>> h = sure_by_rules(parse_board("F1.\\n"))
    >>> h.cell, h.rule, [str(o) for o in h.reason], h.sure_moves
    ((0, 2), 'single number', ['the 1 at 0,1'], None)
    >>> sure_by_rules(parse_board("1.\\n..\\n")) is None  # a 1 among three cells settles none
    True
    >>> sure_by_rules(parse_board("F1.\\n"), proven=False).consistent is None
    True
    """
    _check_start(board, start)
    problem = with_start(problem_of(board), start)
    consistent = None
    if proven:
        with Reasoner(problem) as reasoner:
            answer = reasoner.consistency()
        if not answer.consistent:
            return Hint(strategy, False, conflict=answer.conflict)
        consistent = True
    if not problem.cells:
        return Hint(strategy, consistent, sure_moves=None)
    if any(isinstance(r.origin, Start) for r in problem.constraints):
        return Hint(strategy, consistent, cell=start, move=Move.OPEN, sure=True, rule="first click",
                    reason=(Start(start),), sure_moves=None)
    found = (("single number", obvious_moves(problem), _single),
             ("two nested numbers", pair_moves(problem), _nested_pair))
    for side, move in ((0, Move.OPEN), (1, Move.FLAG)):  # a player would rather click
        for rule, moves, settle in found:
            for cell in sorted(moves[side]):
                reason = settle(problem, cell)
                if reason is not None:
                    return Hint(strategy, consistent, cell=cell, move=move, sure=True, rule=rule,
                                reason=reason, sure_moves=None)
    return None


def sure_by_rules_within(board: Board, strategy: str = "best", start: Cell | None = None,
                         seconds: float = KNOWN_SECONDS) -> Hint | None:
    """:func:`sure_by_rules` within ``seconds``, each part in a forked process: the move
    first, unproven, then the SAT proof in the time left.  None when neither a move nor a
    conflict is found in time; a move whose proof did not finish has ``consistent`` None.

    Why two parts: on a board whose total binds one component across the whole grid
    (a 300x300 board showing a number on every other row and column) the rules find a
    move in 0.3 s and the proof with the total takes 23 s; asked together, no move came.

    >>> from satsweeper.textio import parse_board
    >>> sure_by_rules_within(parse_board("F1.\\n")).consistent
    True
    """
    end = time.monotonic() + seconds
    try:
        moved = within(seconds, lambda: sure_by_rules(board, strategy, start, proven=False))
    except (TimeUp, MemoryError):
        return None
    try:  # asked even where the rules found no move: an inconsistent position's answer is its conflict
        proof = within(max(0.01, end - time.monotonic()),
                       lambda: sure_by_rules(board, strategy, start))
    except (TimeUp, MemoryError):
        return moved
    return proof if proof is not None else moved


@dataclass(frozen=True)
class FirstClickRule:
    """A game's first-click rule as the reason of a sure first move."""

    rule: FirstClick

    def __str__(self) -> str:
        return ("the first click is safe and opens a region" if self.rule is FirstClick.OPENING
                else "the first click is safe")


def first_click(board: Board, rule: FirstClick, strategy: str = "best", seed: int = 0) -> Hint:
    """The hint on a game not yet started, whose first click ``rule`` governs.

    A game drawn by :meth:`~satsweeper.game.Game.new` places its mines after
    the first click, away from it (and from its neighbours for ``OPENING``),
    so whichever cell the strategy opens first is safe in every layout the
    game can deal, though the position alone gives it the density's chance.
    Under ``CAN_LOSE`` that chance is right and the hint is :func:`hint`'s.

    >>> h = first_click(Board(3, 3, total_mines=2), FirstClick.SAFE)
    >>> h.sure, h.move.value, h.rule, [str(o) for o in h.reason]
    (True, 'open', 'first click', ['the first click is safe'])
    >>> first_click(Board(3, 3, total_mines=2), FirstClick.CAN_LOSE).sure
    False
    """
    if rule is FirstClick.CAN_LOSE or board.clues:
        return hint(board, strategy, seed)
    from .strategies import strategy as make_strategy
    decision = make_strategy(strategy).decide(board, random.Random(seed))
    cell = (decision.opens or board.hidden_cells())[0]
    if not _room(board, cell, rule):  # the game would refuse it: the mines do not fit around it
        cell = min((c for c in board.hidden_cells() if _room(board, c, rule)),
                   key=lambda c: (len(board.neighbours(c)), c), default=None)
        if cell is None:
            fewest = min((len(board.neighbours(c)) for c in board.hidden_cells()), default=0)
            room = _squares(board) - 1 - (fewest if rule is FirstClick.OPENING else 0)
            what = "opens a region" if rule is FirstClick.OPENING else "is safe"
            raise InputError(f"at most {room} mines on {board.width}x{board.height}, whose first click "
                             f"even in a corner {what} (got {board.total_mines})")
        decision = None
    return Hint(strategy, True, cell=cell, move=Move.OPEN, sure=True, rule="first click",
                reason=(FirstClickRule(rule),), basis=(decision.basis or "") if decision else "")


def _squares(board: Board) -> int:
    return board.width * board.height - len(board.voids)


def _room(board: Board, cell: Cell, rule: FirstClick) -> bool:
    """Do the board's mines fit away from a first click on ``cell`` (and its neighbours, for
    ``OPENING``)?  On a crowded board an edge cell opens no region where a corner does."""
    kept = 1 + (len(board.neighbours(cell)) if rule is FirstClick.OPENING else 0)
    return board.total_mines is None or board.total_mines <= _squares(board) - kept


def _value_counts(counts) -> dict:
    """Scaled mine count -> how many cells have it; a big board's floating cells as one entry."""
    values = counts.scaled_mines
    if isinstance(values, Shared):
        return values.groups()
    found: dict = {}
    for m in values.values():
        found[m] = found.get(m, 0) + 1
    return found


def _safest(counts, leave_out: Cell, limit: int) -> list:
    """The ``limit`` safest cells but ``leave_out``, by (scaled mines, cell), never a certain mine.

    A big board's floating cells share one value: of them only the first ``limit`` + 1 in
    cell order can be among these (asking each of a 1000x1000 board's cells its value and
    sorting them took 16 of a hint's 29 s).
    """
    values, whole = counts.scaled_mines, counts.scaled_count
    if isinstance(values, Shared):
        own = values.own
        floating = heapq.nsmallest(limit + 1, (c for c in values.cells if c not in own))
        pool = [(m, c) for c, m in own.items()] + [(values.shared, c) for c in floating]
    else:
        pool = [(m, c) for c, m in values.items()]
    return [c for m, c in heapq.nsmallest(limit + 1, pool) if c != leave_out and m != whole][:limit]


def _alternatives(board: Board, hidden: set, components: Components, counts, chosen: Option,
                  most: int) -> tuple[Option, ...]:
    """The next safest cells, the most informative first among equally safe
    ones, one of each kind (cells alike in all three chances show once); never
    a cell that is a mine in every explanation (offered to open, it loses)."""
    looked = _safest(counts, chosen.cell, MEASURED)
    options = sorted((_measure(board, hidden, components, counts, c) for c in looked),
                     key=lambda o: (o.mine, -o.progress, -o.opening, o.cell))
    seen = {(chosen.mine, chosen.opening, chosen.progress)}
    kept = []
    for option in options:
        kind = (option.mine, option.opening, option.progress)
        if kind not in seen:
            seen.add(kind)
            kept.append(option)
    return tuple(kept[:most])


def _sure(strategy: str, board: Board, problem: Problem, decision, determined: int) -> Hint:
    """A sure move of ``decision``: its minimal reason and the first rule that finds it."""
    cell, move = ((decision.opens[0], Move.OPEN) if decision.opens
                  else (decision.flags[0], Move.FLAG))
    rule = _rule(problem, cell)
    # The clues the rule named used: the solver's deletion finds *a* minimal set, which was
    # at times two clues beside "single number" or three beside "two nested numbers".
    reason = (_single(problem, cell) if rule == "single number"
              else _nested_pair(problem, cell) if rule == "two nested numbers" else None)
    if reason is None:
        with Reasoner(problem) as reasoner:
            reason = reasoner.safety(cell, move).reason
    return Hint(strategy, True, cell=cell, move=move, sure=True, rule=rule,
                reason=reason, sure_moves=determined)


def simplest_reason(problem: Problem, answer):
    """A safe :class:`~satsweeper.reasoning.Safety` with the reason :func:`hint` gives the
    same move: one number or a nested pair where one settles the cell (both minimal), else
    the solver's minimal set as it was.  ``safe`` and the page's cell click named another
    set of clues than the hint for the same cell (the solver finds *a* minimal set).

    >>> from satsweeper.textio import parse_board
    >>> from satsweeper.reasoning import safety
    >>> problem = problem_of(parse_board("11.\\n...\\n"))
    >>> [str(o) for o in simplest_reason(problem, safety(problem, (1, 2))).reason]
    ['the 1 at 0,0', 'the 1 at 0,1']
    """
    if not (answer.consistent and answer.safe):
        return answer
    reason = _single(problem, answer.cell) or _nested_pair(problem, answer.cell)
    return replace(answer, reason=reason) if reason else answer


def _single(problem: Problem, cell: Hashable) -> tuple | None:
    """The origin of one rule that settles ``cell`` alone (all its cells safe, or all
    mines), as a one-item reason; None if none does.

    >>> from satsweeper.textio import parse_board
    >>> [str(o) for o in _single(problem_of(parse_board("1.\\n")), (0, 1))]
    ['the 1 at 0,0']
    """
    for r in problem.constraints:
        if cell in r.cells and r.mines in (0, len(r.cells)):
            return (r.origin,)
    return None


def _nested_pair(problem: Problem, cell: Hashable) -> tuple | None:
    """The origins of two nested rules that settle ``cell`` (as
    :func:`~satsweeper.singlepoint.pair_moves` finds it), in the problem's
    order; None if no pair does.  No single rule settles it when this is
    asked, so the two are a minimal reason.

    >>> from satsweeper.textio import parse_board
    >>> problem = problem_of(parse_board("11.\\n...\\n"))  # the 1s' cells nested: 0,2 and 1,2 safe
    >>> [str(o) for o in _nested_pair(problem, (1, 2))]
    ['the 1 at 0,0', 'the 1 at 0,1']
    """
    rules = problem.constraints
    # The larger rule holds the cell: a few of them, each compared with every rule (all pairs
    # of a 300x300 board's 17,617 rules took 18 s); the first pair in the problem's order.
    outer = [(j, b) for j, b in enumerate(rules) if cell in b.cells]
    found = min(((i, j, a, b) for j, b in outer for i, a in enumerate(rules)
                 if cell not in a.cells and a.cells < b.cells and b.mines - a.mines in (0, len(b.cells - a.cells))),
                key=lambda f: f[:2], default=None)
    if found is None:
        return None
    i, j, a, b = found
    return (a.origin, b.origin) if i < j else (b.origin, a.origin)


def _sure_open(problem: Problem, counts):
    """A cell safe in every explanation, found by the simplest rule that finds one,
    as a decision to open it; None when no cell is sure to be safe.

    A strategy makes all of its sure moves, in an order that changes nothing;
    ``best`` flags the mines the single numbers find before counting finds
    safe cells.  Asked what to click, the hint names a click.

    >>> from satsweeper.textio import parse_board
    >>> problem = problem_of(parse_board("mines: 1\\n1..\\n"))  # 0,1 a mine, so 0,2 safe
    >>> _sure_open(problem, Components(problem).tally()).opens
    ((0, 2),)
    """
    safe = sorted(c for c, m in counts.scaled_mines.items() if m == 0)
    if not safe:
        return None
    from .strategies import Decision
    for found, _ in (obvious_moves(problem), pair_moves(problem)):
        simple = sorted(set(found) & set(safe))
        if simple:
            return Decision(opens=(simple[0],))
    return Decision(opens=(safe[0],))


def _rule(problem: Problem, cell: Hashable) -> str:
    """The simplest rule that settles ``cell`` (it is known to be settled)."""
    if any(cell in found for found in obvious_moves(problem)):
        return "single number"
    if any(cell in found for found in pair_moves(problem)):
        return "two nested numbers"
    return "counting"


def _basis(decision, chosen: Option, counts) -> str:
    if decision.basis:
        return decision.basis
    lowest = Fraction(min(counts.scaled_mines.values()), counts.scaled_count)
    return "safest" if chosen.mine == lowest else "choice"


def _measure(board: Board, hidden: set, components: Components, counts, cell: Cell) -> Option:
    """Exact mine, opening and progress chances of opening ``cell`` (``hidden``: the problem's cells)."""
    whole = counts.scaled_count * counts.scale
    mine = Fraction(counts.scaled_mines[cell], counts.scaled_count)
    around = [n for n in board.neighbours(cell) if n in hidden]
    flagged = any(n in board.flags for n in board.neighbours(cell))
    outcomes = components.reveal(cell, around)
    opening = Fraction(0 if flagged else outcomes.counts.get(0, 0), 1) / whole
    # A number settles some cell when the lowest chance it leaves is 0 (a
    # safe cell); a 0 opens its neighbours, which is progress too.
    settles = sum(n for k, n in outcomes.counts.items() if outcomes.lowest(k) == 0)
    return Option(cell, mine, opening, Fraction(settles) / whole)
