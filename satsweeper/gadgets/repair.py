"""The fewest changes to printed numbers that make a figure work.

Figures extracted from papers lose and shift cells.  :func:`repair` asks a
MaxSAT solver (RC2 from python-sat) for the smallest set of revealed numbers
to change so that the board is consistent and, for a gadget, every input
combination has an explanation in which the outputs take their claimed
values.  One copy of the cells per input combination shares one choice of
numbers; each number keeps its printed value as a soft clause.

Consistency with the claimed outputs does not yet mean the outputs are
*forced*: each optimum found is verified, and the next optimum tried, until
one computes the claimed function (or ``attempts`` run out).

Uniqueness is a "for all" (no second explanation), which one MaxSAT call
cannot ask.  :func:`repair` asks it by refutation.  When the numbers found
leave some input two explanations X and Y, let D be the squares where they
differ.  Both explain the same numbers, so every number sees as many of X's
mines in D as of Y's: under *any* numbers, an explanation that agrees with X
on D stays one when its D part is swapped for Y's.  So no unique board has an
explanation that agrees with X, or with Y, on D, and each copy's explanation
is told so (two clauses), besides blocking those numbers.  Every unique
choice of numbers survives, so the first unique one found is still a
fewest-changes one, and MaxSAT running out of choices proves that none
exists.  (Blocking one choice of numbers at a time, as before, took 70
attempts on a 5x4 board that needs three changes; ``--attempts`` 20 missed it.)
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass

from pysat.card import CardEnc, EncType
from pysat.examples.rc2 import RC2
from pysat.formula import WCNF, IDPool

from ..board import Board, Cell
from ..limits import interrupts_as_ctrl_c, pysat_handler_off
from .gadget import Gadget, Verdict, verify


@dataclass(frozen=True)
class Change:
    """One revealed number changed."""

    cell: Cell
    printed: int
    repaired: int

    def __str__(self) -> str:
        return f"{self.cell[0]},{self.cell[1]}: {self.printed} -> {self.repaired}"


@dataclass(frozen=True)
class Repair:
    """The result: the changes, the repaired gadget, and its verdict.

    ``gadget`` is None when no set of number changes makes the board work
    (the printed hidden cells and flags themselves are wrong).
    """

    changes: tuple[Change, ...]
    gadget: Gadget | None
    verdict: Verdict | None
    attempts: int
    complete: bool = True  # False: attempts ran out before an answer (a limit, not a "no")


def repair(gadget: Gadget, attempts: int = 20, unique: bool = False) -> Repair:
    """Fewest number changes making ``gadget`` consistent and correct (and, with ``unique``, unique).

    Optima are tried cheapest first, so with ``unique`` the first unique
    one found is a fewest-changes unique variant (within ``attempts``).

    >>> from satsweeper.textio import parse_board
    >>> g = Gadget("not", parse_board("layout: tokens\\nx 2 y\\n"), ("x",), {"y": "~x"})
    >>> r = repair(g)
    >>> [str(c) for c in r.changes], r.verdict.computes
    (['0,1: 2 -> 1'], True)
    """
    return _search(gadget, attempts, keep_printed=True, want_unique=unique)


def repair_board(board: Board, attempts: int = 20, unique: bool = False) -> Repair:
    """Fewest number changes making a plain board consistent (with ``unique``, with one explanation).

    A plain board is a gadget without ports: its claim is only that it has an
    explanation.  The total (``mines:``) is kept; only numbers change, so a
    board whose hidden cells leave two explanations whatever the numbers say
    (a 50/50 with nothing around it) has no unique repair.

    >>> from satsweeper.textio import parse_board
    >>> r = repair_board(parse_board("mines: 1\\n.2.\\n"))
    >>> [str(c) for c in r.changes], r.verdict.computes
    (['0,1: 2 -> 1'], True)
    """
    return repair(Gadget("board", board, ()), attempts, unique)


def repaired_layout(board: Board, mines: frozenset[Cell]) -> frozenset[Cell] | None:
    """The layout to keep with a repaired plain ``board`` read from a layout
    file (``mines``: every mine, hidden ``*`` and flags).

    A layout file's numbers must be its mines' (:mod:`satsweeper.textio`
    refuses it otherwise), so: ``mines`` while they still fit the repaired
    numbers, flags and total (no number changed, or the changes happen to fit);
    else the repaired board's explanation when it has exactly one (``--unique``
    changed numbers, and the mines they describe are that one); else None
    (the board is written as a position).

    >>> from satsweeper.textio import parse_puzzle
    >>> before = parse_puzzle("12*\\n*..\\n")
    >>> repaired_layout(before.board, before.mines) == before.mines
    True
    >>> sorted(repaired_layout(parse_puzzle("02.\\n...\\n").board, before.mines))
    [(0, 2), (1, 2)]
    """
    if _fits(board, mines):
        return mines
    from ..reasoning import uniqueness
    answer = uniqueness(board)
    return answer.explanations[0] | board.flags if answer.unique else None


def _fits(board: Board, mines: frozenset[Cell]) -> bool:
    """Whether ``mines`` explain ``board``: its flags among them, the rest hidden,
    its numbers and its total theirs."""
    return (board.flags <= mines and all(board.is_hidden(c) for c in mines - board.flags)
            and (board.total_mines is None or board.total_mines == len(mines))
            and all(sum(n in mines for n in board.neighbours(c)) == k for c, k in board.clues.items()))


def synthesize(gadget: Gadget, attempts: int = 20, keep: frozenset = frozenset()) -> Repair:
    """Numbers for a gadget drawn as hidden cells and flags only.

    The printed numbers are ignored: every revealed cell gets the number that
    lets each accepted input have an explanation with the claimed outputs.
    Solutions are tried until one computes the claim with a unique
    explanation per input (else the first that computes is returned).  This
    is how composite gadgets are built: draw the wires, let SAT count.
    Numbers on the cells in ``keep`` stay as printed (a stamped gate whose
    own numbers are the point, such as Kaye's non-unique AND).

    >>> from satsweeper.textio import parse_board
    >>> g = Gadget("not", parse_board("layout: tokens\\nx 0 y\\n"), ("x",), {"y": "~x"})
    >>> synthesize(g).gadget.board.clues
    {(0, 1): 1}
    """
    return _search(gadget, attempts, keep_printed=False, want_unique=True, keep=keep)


def _search(gadget: Gadget, attempts: int, keep_printed: bool, want_unique: bool,
            keep: frozenset = frozenset()) -> Repair:
    board = gadget.board
    with pysat_handler_off():  # python-sat's encoders' own Ctrl-C handler could hang the process
        wcnf, choice, copies = _encode(gadget, keep_printed, keep)
    first = None
    attempt, complete, free_tied = 0, False, False
    with RC2(wcnf) as solver:
        while attempt < attempts:
            with interrupts_as_ctrl_c():
                model = solver.compute()
            if model is None:
                complete = True  # every choice of numbers tried or refuted
                break
            attempt += 1
            true = {lit for lit in model if lit > 0}
            numbers = {clue: next(k for k, v in opts.items() if v in true) for clue, opts in choice.items()}
            fixed = _with_numbers(gadget, numbers)
            verdict = verify(fixed)
            changes = tuple(Change(c, board.clues[c], k) for c, k in sorted(numbers.items())
                            if k != board.clues[c])
            result = Repair(changes, fixed, verdict, attempt)
            if verdict.computes and (verdict.unique or not want_unique):
                return result
            if verdict.computes and first is None:
                first = result
            pair = _two_explanations(fixed, verdict) if verdict.computes and keep_printed else None
            if pair is not None and not free_tied:
                free_tied = True
                for clause in _free_cells_tied(gadget, copies):
                    solver.add_clause(clause)
            if pair is not None:  # no explanation that a swap on D turns into another (module docstring)
                x, y = pair
                differ = sorted(x ^ y)
                for index in range(len(copies)):
                    for e in pair:
                        solver.add_clause([-copies[index][d] if d in e else copies[index][d] for d in differ])
            # Block this choice of numbers and look for the next best one.
            solver.add_clause([-choice[c][k] for c, k in numbers.items() if len(choice[c]) > 1])
    if first is not None:
        return dataclasses.replace(first, attempts=attempt, complete=complete)
    return Repair((), None, None, attempt, complete)


def _free_cells_tied(gadget: Gadget, copies: list) -> list[list[int]]:
    """What every unique board's explanations hold on its free cells (hidden, next to no
    number, no port): all mines or all safe, else a mine and a safe one swap; and, without
    the total, none at all (a free cell may always be either: an empty clause).  The
    refutations would learn this a pair at a time (hundreds of attempts on expert)."""
    board = gadget.board
    ports = {gadget.cell(p) for p in (*gadget.inputs, *gadget.outputs)}
    free = sorted(c for c in board.hidden_cells() if c not in ports
                  and not any(n in board.clues for n in board.neighbours(c)))
    if not free:
        return []
    if board.total_mines is None:
        return [[]]
    return [clause for copy in copies for a, b in zip(free, free[1:])
            for clause in ([-copy[a], copy[b]], [copy[a], -copy[b]])]


def _two_explanations(gadget: Gadget, verdict: Verdict) -> tuple[frozenset, frozenset] | None:
    """Two explanations (mines among the hidden cells) of one accepted input of
    ``gadget``, which ``verdict`` found has more than one; None if none has."""
    from ..constraints import problem_of
    from ..reasoning import uniqueness
    from .gadget import _pinned
    case = next((c for c in verdict.cases if c.accepted and c.explanations > 1), None)
    if case is None:
        return None
    answer = uniqueness(_pinned(gadget, problem_of(gadget.board), case.inputs))
    return answer.explanations if len(answer.explanations) == 2 else None


def _encode(gadget: Gadget, keep_printed: bool, keep: frozenset = frozenset()) -> tuple[WCNF, dict, list]:
    """One copy of the cells per accepted input, one shared choice of numbers:
    the clauses, each number's choice (value -> variable), and each copy's
    variables (hidden cell -> variable)."""
    board = gadget.board
    pool = IDPool()
    wcnf = WCNF()
    combos = [v for v in itertools.product((False, True), repeat=len(gadget.inputs))
              if gadget.accepted(v)]
    hidden = set(board.hidden_cells())
    choice = {}
    for clue, printed in sorted(board.clues.items()):
        near = [n for n in board.neighbours(clue) if n in hidden]
        flags = sum(1 for n in board.neighbours(clue) if n in board.flags)
        # A number with no hidden neighbour can only be its flag count: a
        # printed number that is not must change (it used to be kept, and
        # the whole board called beyond repair).
        values = range(flags, flags + len(near) + 1)
        if clue in keep:
            values = [printed]
        options = [pool.id(("value", clue, k)) for k in values]
        choice[clue] = dict(zip(values, options))
        wcnf.extend(CardEnc.equals(options, 1, vpool=pool, encoding=EncType.pairwise).clauses)
        if keep_printed and printed in choice[clue]:
            wcnf.append([choice[clue][printed]], weight=1)
        for index, k in itertools.product(range(len(combos)), values):
            lits = [pool.id((index, n)) for n in near]
            guard = -choice[clue][k]
            if not 0 <= k - flags <= len(near):
                # A kept printed number its neighbours cannot make (pysat
                # refuses such a bound): that choice is impossible.
                wcnf.append([guard])
                continue
            for clause in CardEnc.equals(lits, k - flags, vpool=pool, encoding=EncType.seqcounter).clauses:
                wcnf.append(clause + [guard])
    if board.total_mines is not None:
        # The total is part of the board, not a number to change: each copy holds it.
        need = board.total_mines - len(board.flags)
        cells = sorted(hidden)
        if not 0 <= need <= len(cells):  # no copy can hold it: no repair
            wcnf.extend([[pool.id("no total")], [-pool.id("no total")]])
        elif cells:
            for index in range(len(combos)):
                lits = [pool.id((index, n)) for n in cells]
                wcnf.extend(CardEnc.equals(lits, need, vpool=pool, encoding=EncType.seqcounter).clauses)
    for index, values in enumerate(combos):
        for port, value in zip(gadget.inputs, values):
            wcnf.append([pool.id((index, gadget.cell(port))) * (1 if value else -1)])
        for port, value in gadget.expected(values).items():
            wcnf.append([pool.id((index, gadget.cell(port))) * (1 if value else -1)])
    copies = [{n: pool.id((index, n)) for n in sorted(hidden)} for index in range(len(combos))]
    return wcnf, choice, copies


def _with_numbers(gadget: Gadget, numbers: dict[Cell, int]) -> Gadget:
    b = gadget.board
    board = Board(b.height, b.width, numbers, b.flags, b.voids, b.names, b.total_mines)
    return Gadget(gadget.name, board, gadget.inputs, gadget.outputs, gadget.accepts)
