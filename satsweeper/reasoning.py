"""SAT answers with evidence: consistency, safety, determined cells, uniqueness.

One :class:`Reasoner` per problem asks every question by assumptions on two
incremental solvers over one CNF, each built when first needed: one with every
rule switched on for good (models, backbones), and one whose rule selectors
switch clues on, built only to name evidence; assumed bound literals (guarded
native constraints or totalizer outputs, see :mod:`satsweeper.encoding`) bound
the frontier count.  :func:`solve` counts instead when the counting engine's DP
stays narrow.  Answers are values that carry their evidence:

* consistent: a witness explanation; inconsistent: a minimal set of clues
  that cannot all hold (dropping any one of them removes the conflict);
* safe: a minimal set of clues that already forces the move; unsafe: a
  counter-example explanation in which the move fails;
* not unique: two different explanations.

An *explanation* is the set of hidden cells that are mines (flags are mines
already and are not repeated).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cache, cached_property
from itertools import islice
from typing import Hashable, Iterable, Mapping, Sequence

from .board import Board, is_whole
from .constraints import Problem, cell_set, problem_of
from .encoding import DEFAULT_CNF_ENCODING, CardinalityEncoding, Encoding
from . import bitboard, components
from .errors import CellError, InputError, TooComplexError
from .limits import interrupts_as_ctrl_c
from .tally import Shared, Tally

DEFAULT_SOLVER = "gluecard4"  # see encoding.DEFAULT_ENCODING for why
COUNT_STATES = 2000  # widest DP layer "auto" lets the counting engine build


@cache
def solver_names() -> tuple[str, ...]:
    """The python-sat solvers this installation can run, sorted (importing
    python-sat on first use).

    python-sat names some it may be built without (cryptosat needs pycryptosat;
    minisatgh is missing from some wheels): offered, they failed only when
    first used, as an internal error.  Making each once costs under 1 ms.

    >>> "gluecard4" in solver_names()
    True
    """
    from pysat.solvers import Solver, SolverNames

    def runs(name: str) -> bool:
        try:
            with Solver(name=name):
                return True
        except Exception:  # noqa: BLE001 - NoSuchSolverError, or a module it needs is missing
            return False
    return tuple(sorted(n for n in SolverNames.__dict__ if not n.startswith("_") and runs(n)))


@cache
def supports_atmost(solver: str) -> bool:
    """Does the solver take native cardinality constraints?  (Asked once per name.)"""
    from pysat.solvers import Solver  # loaded by the first question that needs SAT
    with Solver(name=solver) as probe:
        return probe.supports_atmost()


def default_encoding(solver: str) -> CardinalityEncoding:
    """Native cardinality where the solver has it, else the best CNF encoding."""
    return CardinalityEncoding.NATIVE if supports_atmost(solver) else DEFAULT_CNF_ENCODING


class Status(enum.Enum):
    """What every explanation agrees on about a hidden cell."""

    SAFE = "safe"
    MINE = "mine"
    UNDETERMINED = "undetermined"
    UNKNOWN = "undetermined"  # an alias, the name before the words were made one everywhere


class Move(enum.Enum):
    """A player's move on a hidden cell."""

    OPEN = "open"
    FLAG = "flag"  # the word of hint, --help and the JSON
    MARK = "flag"  # an alias, the name before hint and safe said the same word

    def fails_if_mine(self) -> bool:
        """Opening fails on a mine; flagging fails on a safe cell."""
        return self is Move.OPEN


@dataclass(frozen=True)
class Consistency:
    """Is there an explanation?  Evidence: a witness, or a minimal conflict."""

    consistent: bool
    witness: frozenset | None = None
    conflict: tuple = ()


@dataclass(frozen=True)
class Safety:
    """Is ``move`` on ``cell`` right in every explanation?

    ``reason`` (when safe) is a subset-minimal set of origins (clues, and the
    total if needed) that forces the move; ``counterexample`` (when not safe)
    is an explanation in which the move fails.  An inconsistent problem is
    never called safe: ``consistent`` is False and ``conflict`` says why.
    """

    cell: Hashable
    move: Move
    consistent: bool
    safe: bool
    reason: tuple = ()
    counterexample: frozenset | None = None
    conflict: tuple = ()


@dataclass(frozen=True)
class Solution:
    """The status of every unknown cell (the backbone).

    ``witness`` is one explanation when SAT computed the statuses (None when
    counting did).
    """

    consistent: bool
    status: Mapping[Hashable, Status] = field(default_factory=dict)
    witness: frozenset | None = None
    conflict: tuple = ()

    def cells_with(self, status: Status) -> Sequence:
        """The cells with a given status, in problem order (compact on a big board).

        >>> from satsweeper.textio import parse_board
        >>> solve(parse_board("mines: 1\\n1..\\n")).cells_with(Status.SAFE)
        [(0, 2)]
        """
        if not isinstance(status, Status):  # a plain "safe" matched no cell: an empty list, silently
            raise InputError(f"a Status, such as Status.SAFE (got {status!r})")
        if isinstance(self.status, Shared):
            return self.status.where(lambda s: s is status)
        return [c for c, s in self.status.items() if s is status]


@dataclass(frozen=True)
class Uniqueness:
    """Exactly one explanation?  Evidence: the one, or two that differ."""

    consistent: bool
    unique: bool
    explanations: tuple[frozenset, ...] = ()
    conflict: tuple = ()


class Reasoner:
    """Incremental SAT solvers (two, built when first needed) answering questions about one problem.

    Use as a context manager (the solver holds native memory):

    >>> from satsweeper.textio import parse_board
    >>> with Reasoner(parse_board("mines: 1\\n1..\\n")) as r:
    ...     r.safety((0, 2)).safe, r.safety((0, 1)).safe
    (True, False)
    """

    def __init__(self, problem: Problem | Board, *, solver: str = DEFAULT_SOLVER,
                 encoding: CardinalityEncoding | None = None,
                 flags_are_mines: bool = True):
        if not isinstance(problem, Problem):
            problem = problem_of(problem, flags_are_mines)  # a Board, or a clear error
        if encoding is not None and not isinstance(encoding, CardinalityEncoding):
            # A plain "totalizer" got as far as the first cardinality SAT needed (an AttributeError).
            raise InputError(f"a CardinalityEncoding, such as CardinalityEncoding.SEQCOUNTER (got {encoding!r})")
        if solver not in solver_names():
            raise InputError(f"a solver python-sat can run here, such as cadical195 (got {solver!r})")
        self.problem = problem
        self._cardinality = encoding or default_encoding(solver)
        if self._cardinality is CardinalityEncoding.NATIVE and not supports_atmost(solver):
            # Said now, not when SAT is first needed: the combination is bad input whatever the question.
            raise InputError(f"a solver with native cardinality (minicard or gluecard) for the native "
                             f"encoding (got {solver})")
        self._solver_name = solver
        # The CNF and its solvers are built on the first question that needs
        # SAT: a solution that counting answers (most of them) never pays for
        # an encoding, which cost as much as the count on expert positions.
        self._evidence: _LoadedSolver | None = None
        self._consistency: Consistency | None = None
        self._closed = False

    @cached_property
    def encoding(self) -> Encoding:
        """The problem in CNF (built when first asked)."""
        return Encoding(self.problem, self._cardinality)

    @cached_property
    def _fast(self) -> "_LoadedSolver":
        # Two solvers over the same CNF.  The fast one has every rule switched
        # on for good (selectors as unit clauses), so models and backbones do
        # not re-assume thousands of selectors on every call; the evidence one
        # takes selectors as assumptions and is built only when a conflict or
        # a reason has to be named.
        return _LoadedSolver(self._solver_name, self.encoding, rules_fixed=True)

    @cached_property
    def _floating(self):
        return cell_set(self.encoding.floating)

    def __enter__(self) -> "Reasoner":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Free the solvers.  Questions that need SAT after this are an InputError."""
        self._closed = True
        if "_fast" in self.__dict__:
            self._fast.delete()
        if self._evidence is not None:
            self._evidence.delete()

    # -- low level -------------------------------------------------------

    def _solve(self, assumptions: list[int]) -> list[int] | None:
        """A model of all rules plus ``assumptions``, or None."""
        self._check_open()
        return self._fast.solve(assumptions)

    def _check_open(self) -> None:
        # A freed python-sat solver answers every solve with None, which read
        # as "unsatisfiable": every cell was called safe after the with block.
        if self._closed:
            raise InputError("a Reasoner that is still open: ask inside its with block (got a closed one)")

    def _solve_some(self, assumptions: list[int]) -> bool:
        """Satisfiable with only the rules whose selectors are assumed?"""
        self._check_open()
        if self._evidence is None:
            self._evidence = _LoadedSolver(self._solver_name, self.encoding, rules_fixed=False)
        return self._evidence.solve(assumptions) is not None

    def _groups(self) -> dict[Hashable, list[int]] | None:
        """Assumption literals of every origin; None if the total is impossible.

        The total's bounds are built untrusted (as if some rules were off), so
        that every subset of origins means exactly what it says.
        """
        groups = {origin: [s] for origin, s in self.encoding.selectors.items()}
        bounds = self.encoding.total_bounds()
        if bounds is not None:
            lits = self.encoding.count_bounds(*bounds, trusted=False)
            if lits is None:
                return None
            groups[self.problem.total_origin] = lits
        return groups

    def _base(self) -> list[int] | None:
        """Assumptions for the fast solver: the total's bounds (rules are fixed)."""
        bounds = self.encoding.total_bounds()
        if bounds is None:
            return []
        return self.encoding.count_bounds(*bounds, trusted=True)

    def _minimal_origins(self, extra: list[int], candidates: list[Hashable]) -> tuple:
        """A subset-minimal set of origins that, with ``extra``, is unsatisfiable.

        Deletion-based core minimisation: each candidate is dropped in turn
        and kept out if the rest still conflicts; each UNSAT answer's core
        prunes the candidates further.  Kept rather than python-sat's MUSX,
        which finds sets of the same size 1.5 times slower on broken expert
        positions (median 1.16 ms against 0.73, ``scripts/bench_library.py``)
        and cannot share this solver with the safety reasons.
        """
        groups = self._groups() or {}
        current = list(candidates)

        def lits(origins: Iterable[Hashable]) -> list[int]:
            return [l for o in origins for l in groups.get(o, [])]

        def prune(origins: list[Hashable]) -> list[Hashable]:
            core = set(self._evidence.core())
            return [o for o in origins if o not in groups or any(l in core for l in groups[o])]

        if self._solve_some(extra + lits(current)):
            raise AssertionError("minimal_origins called on a satisfiable set")
        current = prune(current)
        i = 0
        while i < len(current):
            trial = current[:i] + current[i + 1:]
            if not self._solve_some(extra + lits(trial)):
                current = prune(trial)
            else:
                i += 1
        return tuple(current)

    def _explanation(self, model: list[int], put_first: Hashable | None = None,
                     put_last: Hashable | None = None) -> frozenset:
        """A full explanation from a frontier model: floating mines added."""
        mines = set(self.encoding.mines_in(model))
        if self.problem.mines is not None and put_first is None and put_last is None:
            # Any floating cells will do: take the first ones, without listing
            # the millions of a big board.
            mines.update(islice(self.encoding.floating, max(0, self.problem.mines - len(mines))))
        elif self.problem.mines is not None:
            needed = self.problem.mines - len(mines)
            order = [c for c in self.encoding.floating if c not in (put_first, put_last)]
            if put_first is not None:
                order.insert(0, put_first)
            if put_last is not None:
                order.append(put_last)
            mines.update(order[:needed])
        return frozenset(mines)

    def _conflict(self) -> tuple:
        if self._groups() is None:
            return (self.problem.total_origin,)
        return self._minimal_origins([], self.problem.origins())

    # -- questions -------------------------------------------------------

    def consistency(self) -> Consistency:
        """Is there an explanation?  (CONSISTENCY)"""
        if self._consistency is None:
            base = self._base()
            model = None if base is None else self._solve(base)
            if model is None:
                self._consistency = Consistency(False, conflict=self._conflict())
            else:
                self._consistency = Consistency(True, witness=self._explanation(model))
        return self._consistency

    def safety(self, cell: Hashable, move: Move = Move.OPEN) -> Safety:
        """Is ``move`` on ``cell`` right in every explanation?  (SAFETY)"""
        if not isinstance(move, Move):  # a plain "flag" failed deep inside as an AttributeError
            raise InputError(f"a Move, Move.OPEN or Move.FLAG (got {move!r})")
        try:
            known = is_whole(cell) and (cell in self._floating or self.encoding.has_var(cell))
        except TypeError:  # an unhashable "cell" such as a list: a TypeError from a dict
            known = False
        if not known:
            whole = "" if is_whole(cell) else ", its row and column whole numbers"
            # A board's named cell (x in a file) is the command line's word: here it is (row, col).
            named = "; a board's named cell by its (row, col): board.cell_by_name(name) gives it" \
                if isinstance(cell, str) else ""
            raise CellError(f"a hidden cell to {move.value}{whole} (got {cell!r}){named}")
        consistency = self.consistency()
        if not consistency.consistent:
            return Safety(cell, move, False, False, conflict=consistency.conflict)
        fail_mine = move.fails_if_mine()
        if cell in self._floating:
            return self._floating_safety(cell, move, fail_mine)
        lit = self.encoding.var(cell) * (1 if fail_mine else -1)
        model = self._solve(self._base() + [lit])
        if model is not None:
            return Safety(cell, move, True, False, counterexample=self._explanation(model))
        reason = self._minimal_origins([lit], self.problem.origins())
        return Safety(cell, move, True, True, reason=reason)

    def _floating_failure_range(self, fail_mine: bool) -> tuple[int, int] | None:
        """Frontier counts under which a floating cell can be a mine (or safe)."""
        bounds = self.encoding.total_bounds()
        if bounds is None:
            return None
        low, high = bounds
        return (low, high - 1) if fail_mine else (low + 1, high)

    def _floating_safety(self, cell, move: Move, fail_mine: bool) -> Safety:
        failing = self._floating_failure_range(fail_mine)
        if failing is None:  # no total: a floating cell can be anything
            witness = self.consistency().witness
            flipped = witness | {cell} if fail_mine else witness - {cell}
            return Safety(cell, move, True, False, counterexample=flipped)
        query = self.encoding.count_bounds(*failing)
        rules = [r.origin for r in self.problem.constraints]
        if query is not None:
            model = self._solve(query)
            if model is not None:
                first, last = (cell, None) if fail_mine else (None, cell)
                return Safety(cell, move, True, False,
                              counterexample=self._explanation(model, first, last))
        extra = self.encoding.count_bounds(*failing, trusted=False)
        reason = () if extra is None else self._minimal_origins(extra, rules)
        return Safety(cell, move, True, True, reason=reason + (self.problem.total_origin,))

    def solution(self, method: str = "auto") -> Solution:
        """The status of every unknown cell: the backbone of the explanations.

        ``method`` is ``"sat"`` (backbone by SAT calls), ``"count"`` (exact
        counts by components: a cell is determined when it is a mine in none
        or all of the explanations) or ``"auto"``: counting when its DP stays
        narrow (it is much faster when the total binds, where CDCL struggles
        with the cardinality), SAT otherwise.
        """
        _check_method(method)
        if method in ("auto", "count"):
            states = COUNT_STATES if method == "auto" else None
            try:
                if len(self.problem.cells) >= components.SHARED_FLOATING:
                    # A big board: counts share one value among the floating
                    # cells (a status per cell would cost ~100 bytes each).
                    counts = components.tally(self.problem, states)
                    known = _statuses(counts) if counts.consistent else None
                else:  # sets of mine numbers, no big-int marginals: faster on small boards
                    known = components.determined(self.problem, states,
                                                  (Status.MINE, Status.SAFE, Status.UNDETERMINED))
            except TooComplexError:
                pass
            else:
                if known is None:  # only SAT can name the conflicting clues
                    return Solution(False, conflict=self.consistency().conflict)
                return Solution(True, known)
        consistency = self.consistency()
        if not consistency.consistent:
            return Solution(False, conflict=consistency.conflict)
        return self._backbone(consistency)

    def _backbone(self, consistency: Consistency) -> Solution:
        """Statuses by SAT: models rule candidates out.

        A cell stays a candidate for "determined" only while every model
        found so far agrees on it, and one solve per surviving candidate
        confirms it.
        """
        base = self._base()
        witness = consistency.witness
        candidates = {c: (c in witness) for c in self.encoding.frontier}
        floating = _FloatingTracker(self, witness)
        for cell in self.encoding.frontier:
            if cell not in candidates:
                continue
            var = self.encoding.var(cell)
            model = self._solve(base + [-var if candidates[cell] else var])
            if model is None:
                continue
            values = set(model)
            for other in [c for c in candidates if c != cell]:
                if (self.encoding.var(other) in values) != candidates[other]:
                    del candidates[other]
            del candidates[cell]
            floating.see(model)
        floating_status = floating.status() if self._floating else None
        own = {cell: (Status.MINE if candidates[cell] else Status.SAFE) if cell in candidates
               else Status.UNDETERMINED for cell in self.encoding.frontier}
        if len(self._floating) >= components.SHARED_FLOATING:  # one entry for all the floating cells
            return Solution(True, Shared(self.problem.cells, own, floating_status), witness)
        status = {cell: own[cell] if cell in own else floating_status for cell in self.problem.cells}
        return Solution(True, status, witness)

    def uniqueness(self) -> Uniqueness:
        """Is there exactly one explanation?  (SOLUTION)"""
        consistency = self.consistency()
        if not consistency.consistent:
            return Uniqueness(False, False, conflict=consistency.conflict)
        first = consistency.witness
        floating = self.encoding.floating
        spare = [c for c in floating if c not in first]
        used = [c for c in floating if c in first]
        if floating and (self.problem.mines is None or (spare and used)):
            # Floating cells are interchangeable: swap one mine to a free cell.
            second = (first - {used[0]}) | {spare[0]} if used else first | {spare[0]}
            return Uniqueness(True, False, (first, second))
        blocker = self.encoding.pool.id(("block", len(self.encoding.clauses)))
        clause = [-blocker] + [(-1 if c in first else 1) * self.encoding.var(c)
                               for c in self.encoding.frontier]
        self.encoding.clauses.append(clause)
        model = self._solve(self._base() + [blocker])
        self.encoding.clauses.append([-blocker])
        if model is None:
            return Uniqueness(True, True, (first,))
        return Uniqueness(True, False, (first, self._explanation(model)))


def _statuses(counts: Tally) -> Mapping[Hashable, Status]:
    if isinstance(counts.scaled_mines, Shared):  # a big board: the floating cells share one status
        whole = counts.scaled_count
        return counts.scaled_mines.map(
            lambda m: Status.SAFE if m == 0 else Status.MINE if m == whole else Status.UNDETERMINED)
    out = {}
    for cell, mines in counts.scaled_mines.items():
        out[cell] = (Status.SAFE if mines == 0 else
                     Status.MINE if mines == counts.scaled_count else Status.UNDETERMINED)
    return out


class _LoadedSolver:
    """A python-sat solver kept in step with a growing :class:`Encoding`."""

    def __init__(self, name: str, encoding: Encoding, rules_fixed: bool):
        from pysat.solvers import Solver
        self.solver = Solver(name=name)
        self.encoding = encoding
        if encoding.atmosts and not self.solver.supports_atmost():
            self.solver.delete()
            raise InputError(f"a solver with native cardinality (minicard or gluecard) for the native "
                             f"encoding (got {name})")
        if rules_fixed:
            for s in encoding.selectors.values():
                self.solver.add_clause([s])
        self.clauses = 0
        self.atmosts = 0

    def sync(self) -> None:
        """Load what the encoding added since the last call (totalizers are lazy)."""
        enc = self.encoding
        for clause in enc.clauses[self.clauses:]:
            self.solver.add_clause(clause)
        self.clauses = len(enc.clauses)
        for atmost in enc.atmosts[self.atmosts:]:
            self.solver.add_atmost(list(atmost.lits), atmost.bound)
        self.atmosts = len(enc.atmosts)

    def solve(self, assumptions: list[int]) -> list[int] | None:
        self.sync()
        with interrupts_as_ctrl_c():
            found = self.solver.solve(assumptions=assumptions)
        return self.solver.get_model() if found else None

    def core(self) -> list[int]:
        return self.solver.get_core() or []

    def delete(self) -> None:
        self.solver.delete()


class _FloatingTracker:
    """What the models seen so far say about the floating cells.

    With a total, floating cells are interchangeable, so one status covers
    them all: a model whose frontier leaves ``r`` mines for ``nf`` floating
    cells shows they can be mines (r > 0) and can be safe (r < nf).
    """

    def __init__(self, reasoner: Reasoner, witness: frozenset):
        self.reasoner = reasoner
        enc = reasoner.encoding
        self.total = reasoner.problem.mines
        self.nf = len(enc.floating)
        self.can_mine = self.total is None
        self.can_safe = self.total is None
        if self.total is not None:
            self._note(len(witness & set(enc.frontier)))

    def _note(self, frontier_mines: int) -> None:
        left = self.total - frontier_mines
        self.can_mine |= left > 0
        self.can_safe |= left < self.nf

    def see(self, model: list[int]) -> None:
        if self.total is not None and not (self.can_mine and self.can_safe):
            self._note(len(self.reasoner.encoding.mines_in(model)))

    def status(self) -> Status:
        """Settle the floating cells' status, solving only where models did not."""
        if self.can_mine and self.can_safe:
            return Status.UNDETERMINED
        if self.can_mine and not self._possible(fail_mine=False):
            return Status.MINE
        if self.can_safe and not self._possible(fail_mine=True):
            return Status.SAFE
        return Status.UNDETERMINED

    def _possible(self, fail_mine: bool) -> bool:
        """Is some explanation's floating cell a mine (fail_mine) or safe?"""
        r = self.reasoner
        failing = r._floating_failure_range(fail_mine)
        query = r.encoding.count_bounds(*failing)
        if query is None:
            return False
        model = r._solve(query)
        if model is not None:
            self._note(len(r.encoding.mines_in(model)))
            return True
        return False


def check(subject: Problem | Board, **options) -> Consistency:
    """CONSISTENCY of a board or problem (options as for :class:`Reasoner`).

    >>> from satsweeper.textio import parse_board
    >>> check(parse_board("11\\n..\\n")).consistent
    True
    >>> [str(o) for o in check(parse_board("12\\n..\\n")).conflict]
    ['the 1 at 0,0', 'the 2 at 0,1']
    """
    with Reasoner(subject, **options) as r:
        return r.consistency()


def safety(subject: Problem | Board, cell: Hashable, move: Move = Move.OPEN, **options) -> Safety:
    """SAFETY of one move (see :meth:`Reasoner.safety`)."""
    with Reasoner(subject, **options) as r:
        return r.safety(cell, move)


METHODS = ("auto", "count", "sat")


def _check_method(method: str) -> None:
    """Another word ran the SAT backbone as if it were "sat"; say so instead."""
    if method not in METHODS:
        raise InputError(f"a method among {', '.join(METHODS)} (got {method!r})")


_WORDS = (Status.MINE, Status.SAFE, Status.UNDETERMINED)  # what bitboard.determined answers


def solve(subject: Problem | Board, method: str = "auto", **options) -> Solution:
    """Every unknown cell's status: safe, mine, or unknown (see :meth:`Reasoner.solution`).

    A board of up to :data:`~satsweeper.bitboard.MAX_AREA` squares is read
    straight from its grid by :func:`satsweeper.bitboard.determined` (the
    same answers, without building a problem); anything it declines (a
    contradiction, a DP too wide, solver options) takes the general path.

    >>> from satsweeper.textio import parse_board
    >>> s = solve(parse_board("mines: 2\\n1..\\n"))
    >>> [s.status[c].value for c in [(0, 1), (0, 2)]]
    ['mine', 'mine']
    """
    _check_method(method)
    if isinstance(subject, Board) and method in ("auto", "count") and (
            not options or options.get("flags_are_mines", True) and options.keys() <= {"flags_are_mines"}):
        # A small board straight from its grid: no rule objects, no solver.
        known = bitboard.determined(subject, COUNT_STATES if method == "auto" else None, _WORDS)
        if known is not None:
            return Solution(True, known)
    with Reasoner(subject, **options) as r:
        return r.solution(method)


def uniqueness(subject: Problem | Board, **options) -> Uniqueness:
    """SOLUTION: is the explanation unique?  Evidence either way."""
    with Reasoner(subject, **options) as r:
        return r.uniqueness()


def tally_with_conflict(problem: Problem, engine="components") -> tuple[Tally, tuple]:
    """(exact counts, conflict): the counting engine's answer
    (:func:`satsweeper.counting.tally`), and when there is no explanation the
    minimal set of rules that conflict, named by SAT (counting cannot name
    them); ``()`` otherwise.  ``engine``: an :class:`~satsweeper.counting.Engine`
    or its value.

    >>> from satsweeper.constraints import problem_of
    >>> from satsweeper.textio import parse_board
    >>> counts, conflict = tally_with_conflict(problem_of(parse_board("12\\n..\\n")))
    >>> counts.consistent, [str(rule) for rule in conflict]
    (False, ['the 1 at 0,0', 'the 2 at 0,1'])
    """
    from .counting import Engine, tally
    answer = tally(problem, Engine(engine))
    conflict = ()
    if not answer.consistent:
        with Reasoner(problem) as r:
            conflict = r.consistency().conflict
    return answer, conflict
