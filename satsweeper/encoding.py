"""From rules to CNF: one variable pool, cardinality encodings, selectors.

Every rule "exactly k of these cells" becomes CNF through a python-sat
cardinality encoding.  Each rule's clauses carry the negation of a *selector*
variable, so a solver can be asked about any subset of the rules by assuming
their selectors; the failed assumptions of an UNSAT answer then name the
clues behind it.

The total mine count is handled the way component counters do it: cells that
touch no clue (*floating* cells) get no variable at all.  With ``T`` mines
left and ``nf`` floating cells, an explanation exists for a frontier
assignment with ``F`` mines iff ``T - nf <= F <= T``, so the total becomes a
pair of bounds on the frontier count: assumption literals on the outputs of
two incremental totalizers (one over the frontier, one over its negation),
or guarded native constraints with ``NATIVE``, built only when a bound can
bind.  The same literals let reasoning ask "can
the frontier hold between lo and hi mines?", which is how questions about
floating cells are answered.  Totalizers are added lazily, so callers load
``clauses`` into their solver again after asking for bounds.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Hashable, Iterable

from typing import TYPE_CHECKING

# python-sat is imported where it is used: a command that only counts
# (probs, count) never loads it.
if TYPE_CHECKING:
    from pysat.card import ITotalizer
    from pysat.formula import IDPool

from .constraints import Constraint, Problem
from .errors import InputError
from .limits import pysat_handler_off


class CardinalityEncoding(enum.Enum):
    """The CNF encodings of "exactly k" that python-sat offers, plus native.

    ``NATIVE`` keeps cardinality constraints as such; it needs a solver with
    native support (Minicard, Gluecard).
    """

    SEQCOUNTER = "seqcounter"
    TOTALIZER = "totalizer"
    KMTOTALIZER = "kmtotalizer"
    MTOTALIZER = "mtotalizer"
    SORTNETWRK = "sortnetwrk"
    CARDNETWRK = "cardnetwrk"
    NATIVE = "native"

    @property
    def enc_type(self) -> int:
        from pysat.card import EncType
        return getattr(EncType, self.value)


# Chosen by measurement (scripts/bench_encodings.py, docs/measured.md): native
# constraints in Gluecard are the fastest, mostly because the total costs
# O(n) there; seqcounter is the best CNF encoding for solvers without them.
DEFAULT_ENCODING = CardinalityEncoding.NATIVE
DEFAULT_CNF_ENCODING = CardinalityEncoding.SEQCOUNTER


def exactly(lits: list[int], k: int, pool: IDPool,
            encoding: CardinalityEncoding = DEFAULT_CNF_ENCODING) -> list[list[int]]:
    """CNF for "exactly ``k`` of ``lits`` are true" (auxiliaries from ``pool``).

    >>> from pysat.formula import IDPool
    >>> exactly([1, 2], 3, IDPool(start_from=3))
    [[]]
    >>> exactly([1, 2], 0, IDPool(start_from=3))
    [[-1], [-2]]
    """
    n = len(lits)
    if k < 0 or k > n:
        return [[]]
    if k == 0:
        return [[-x] for x in lits]
    if k == n:
        return [[x] for x in lits]
    if encoding is CardinalityEncoding.NATIVE:
        raise InputError("native cardinality has no CNF (got encoding=native)")
    from pysat.card import CardEnc
    with pysat_handler_off():  # its Ctrl-C handler could leave the process hung: see there
        return CardEnc.equals(lits=lits, bound=k, vpool=pool, encoding=encoding.enc_type).clauses


@dataclass(frozen=True)
class AtMost:
    """A native cardinality constraint: at most ``bound`` of ``lits`` are true."""

    lits: tuple[int, ...]
    bound: int


class Encoding:
    """The CNF of a :class:`~satsweeper.constraints.Problem`.

    Attributes:
        problem: what was encoded.
        pool: the one :class:`pysat.formula.IDPool` every variable comes from.
        frontier: cells with a variable, in problem order.
        floating: cells without one (only the total constrains them).
        clauses: the CNF, selectors included.
        atmosts: native cardinality constraints (``NATIVE`` only).
        selectors: origin -> selector variable, one per rule.

    >>> from satsweeper.constraints import Constraint, Problem
    >>> p = Problem(("a", "b", "c"), (Constraint(frozenset({"a", "b"}), 1, "r"),), 1, "T")
    >>> e = Encoding(p)
    >>> e.frontier, e.floating
    (['a', 'b'], ['c'])
    """

    def __init__(self, problem: Problem, encoding: CardinalityEncoding = DEFAULT_CNF_ENCODING):
        self.problem = problem
        self.encoding = encoding
        from pysat.formula import IDPool
        self.pool = IDPool()
        self.frontier = problem.constrained_cells()
        self.floating = problem.floating_cells()
        self.clauses: list[list[int]] = []
        self.atmosts: list[AtMost] = []
        self._var = {cell: self.pool.id(("cell", cell)) for cell in self.frontier}
        self._cell = {v: c for c, v in self._var.items()}
        self.selectors: dict[Hashable, int] = {}
        for rule in problem.constraints:
            self._add_rule(rule)
        self._upper: ITotalizer | None = None
        self._lower: ITotalizer | None = None
        self._known_bounds: tuple[int, int] | None = None
        self._native_bounds: dict[tuple, int] = {}

    # -- variables -----------------------------------------------------

    def var(self, cell: Hashable) -> int:
        """The variable of a frontier cell (true = mine)."""
        return self._var[cell]

    def has_var(self, cell: Hashable) -> bool:
        """True for frontier cells."""
        return cell in self._var

    def cell(self, var: int) -> Hashable | None:
        """The cell of a variable, or None for auxiliary variables."""
        return self._cell.get(var)

    def cell_vars(self) -> list[int]:
        """Variables of all frontier cells: the projection set for counting."""
        return [self._var[c] for c in self.frontier]

    def mines_in(self, model: Iterable[int]) -> frozenset:
        """The frontier cells that are mines in a model."""
        return frozenset(self._cell[v] for v in model if v > 0 and v in self._cell)

    # -- rules ---------------------------------------------------------

    def _selector(self, origin: Hashable) -> int:
        if origin in self.selectors:
            raise InputError(f"each rule needs its own origin (got {origin!r} twice)")
        self.selectors[origin] = self.pool.id(("selector", origin))
        return self.selectors[origin]

    def _add_rule(self, rule: Constraint) -> None:
        s = self._selector(rule.origin)
        lits = sorted(self._var[c] for c in rule.cells)
        self._add_exactly(s, lits, rule.mines)

    def _add_exactly(self, s: int, lits: list[int], k: int) -> None:
        if self.encoding is CardinalityEncoding.NATIVE and 0 < k < len(lits):
            self._add_native(s, lits, k)
            self._add_native(s, [-x for x in lits], len(lits) - k)
        else:
            self.clauses.extend([-s] + clause for clause in exactly(lits, k, self.pool, self.encoding))

    def _add_native(self, s: int, lits: list[int], k: int) -> None:
        # s -> sum(lits) <= k, written as sum(lits) + (n - k) copies of s <= n;
        # the copies are implied by s and free otherwise.
        copies = [self.pool.id(("copy", s, len(self.atmosts), i)) for i in range(len(lits) - k)]
        self.clauses.extend([-s, c] for c in copies)
        self.atmosts.append(AtMost(tuple(lits + copies), len(lits)))

    # -- the frontier count (the total, and questions about floating cells)

    def count_bounds(self, low: int, high: int, trusted: bool = True) -> list[int] | None:
        """Assumption literals forcing ``low <= frontier mines <= high``.

        With ``trusted`` the caller promises that every rule is assumed too,
        so bounds the rules already imply need no literal (on large boards
        the total rarely binds, and then no totalizer is ever built).

        Returns None if the range is empty within ``0..len(frontier)``.
        """
        n = len(self.frontier)
        low, high = max(low, 0), min(high, n)
        if low > high:
            return None
        known_low, known_high = self.frontier_bounds() if trusted else (0, n)
        lits = []
        if high < known_high:
            lits.append(self._at_most(high, upper=True))
        if low > known_low:
            lits.append(self._at_most(n - low, upper=False))
        return lits

    def _at_most(self, bound: int, upper: bool) -> int:
        """A literal that, assumed, bounds the frontier mines (upper) or safes."""
        if self.encoding is CardinalityEncoding.NATIVE:
            # One guarded native constraint per bound: O(n) instead of the
            # totalizer's O(n * bound) clauses.
            key = ("count", upper, bound)
            if key not in self._native_bounds:
                guard = self.pool.id(key)
                lits = self.cell_vars() if upper else [-v for v in self.cell_vars()]
                self._add_native(guard, lits, bound)
                self._native_bounds[key] = guard
            return self._native_bounds[key]
        if upper:
            return -self._totalizer_upper(bound).rhs[bound]
        return -self._totalizer_lower(bound).rhs[bound]

    def total_bounds(self) -> tuple[int, int] | None:
        """The range of frontier mines the total allows, or None without a total."""
        if self.problem.mines is None:
            return None
        return self.problem.mines - len(self.floating), self.problem.mines

    def frontier_bounds(self) -> tuple[int, int]:
        """Cheap valid bounds on the mines the frontier holds when all rules hold.

        A greedy packing of disjoint rules gives a lower bound; assigning each
        cell to one rule that mentions it gives an upper bound.
        """
        if self._known_bounds is None:
            lower, used = 0, set()
            upper, owned = 0, set()
            for rule in self.problem.constraints:
                if rule.cells and used.isdisjoint(rule.cells):
                    used |= rule.cells
                    lower += max(rule.mines, 0)
                mine = rule.cells - owned
                owned |= mine
                upper += max(0, min(rule.mines, len(mine)))
            n = len(self.frontier)
            self._known_bounds = (min(lower, n), min(upper, n))
        return self._known_bounds

    def _totalizer_upper(self, bound: int) -> ITotalizer:
        if self._upper is None or len(self._upper.rhs) <= bound:
            self._upper = self._totalizer(self.cell_vars(), bound)
        return self._upper

    def _totalizer_lower(self, bound: int) -> ITotalizer:
        if self._lower is None or len(self._lower.rhs) <= bound:
            self._lower = self._totalizer([-v for v in self.cell_vars()], bound)
        return self._lower

    def _totalizer(self, lits: list[int], bound: int) -> ITotalizer:
        # ITotalizer numbers its own variables from top_id; reserve them in
        # the pool so nothing else is given the same numbers.  Build one
        # output past the bound asked for: neighbouring queries then reuse it.
        from pysat.card import ITotalizer
        ubound = min(len(lits), bound + 1)
        with pysat_handler_off():  # its Ctrl-C handler could leave the process hung: see there
            tot = ITotalizer(lits=lits, ubound=ubound, top_id=self.pool.top)
        self.pool.occupy(self.pool.top + 1, tot.top_id)
        self.pool.top = tot.top_id
        self.clauses.extend(tot.cnf.clauses)
        return tot
