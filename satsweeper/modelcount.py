"""Exact counting with a model counter (Ganak, through pyganak).

The general engine: every question becomes "how many models does this CNF
have, projected onto the cell variables" (auxiliary variables of the
cardinality encodings are existentially quantified, so they never inflate a
count).  Floating cells stay out of the CNF as everywhere else, so the total
is never encoded as one big cardinality constraint (model counters choke on
those): the rules split into independent components, each component's count
is split by mine number (with one model count, see
:meth:`_Component.polynomials`), and the components are combined by
:func:`satsweeper.tally.combine`.  Per-cell counts come from
conditioning (one more unit clause); cells that the same rules mention are
interchangeable and share one count.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections import defaultdict
from typing import Hashable, Iterator

from pyganak import Counter
from pysat.formula import IDPool
from pysat.solvers import Solver

from .constraints import Constraint, Problem
from .encoding import exactly
from .limits import interrupts_as_ctrl_c
from .tally import Poly, Tally, combine, dot, frontier_counts


def projected_count(clauses: list[list[int]], projection: list[int]) -> int:
    """The number of assignments of ``projection`` that extend to a model.

    >>> projected_count([[1, 2], [-3]], [1, 2])
    3
    """
    if any(not clause for clause in clauses):
        return 0
    if not projection:
        # Nothing to count over: 1 if satisfiable, else 0.
        with Solver(name="cadical195", bootstrap_with=clauses) as solver, interrupts_as_ctrl_c():
            return int(solver.solve())
    counter = Counter()
    counter.add_clauses(clauses)
    counter.set_sampling_set(projection)
    with _quiet_stdout():
        return counter.count()


@contextlib.contextmanager
def _quiet_stdout() -> Iterator[None]:
    """Silence the C library's own prints to file descriptor 1.

    Ganak reports "c o intermediate count" lines on stdout, which would
    corrupt ``--json`` output; Python-level stdout is untouched.
    """
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "wb") as devnull:
            os.dup2(devnull.fileno(), 1)
            try:
                yield
            finally:
                os.dup2(saved, 1)
    finally:
        os.close(saved)


class _Component:
    """One independent group of rules and the cells they mention."""

    def __init__(self, rules: list[Constraint], order: dict[Hashable, int]):
        self.cells = sorted({c for r in rules for c in r.cells}, key=order.__getitem__)
        self.pool = IDPool()
        self.var = {c: self.pool.id(("cell", c)) for c in self.cells}
        self.clauses = []
        for rule in rules:
            self.clauses.extend(exactly([self.var[c] for c in rule.cells], rule.mines, self.pool))
        membership = defaultdict(list)
        for i, rule in enumerate(rules):
            for c in rule.cells:
                membership[c].append(i)
        self.classes: dict[tuple, list[Hashable]] = defaultdict(list)
        for c in self.cells:
            self.classes[tuple(membership[c])].append(c)

    def count(self, extra: list[list[int]], projection: list[int] = ()) -> int:
        return projected_count(self.clauses + extra, list(self.var.values()) + list(projection))

    def polynomials(self, by_mines: bool) -> tuple[Poly, dict[tuple, Poly]]:
        """The count by mine number, and the same with one cell of each class a mine.

        Splitting by mine number takes one count, not one per number, by
        Kronecker substitution: each cell gets ``B`` extra variables that are
        free when it is a mine and false otherwise, so a placement with ``k``
        mines is counted ``2**(B*k)`` times and the count, written in base
        ``2**B``, lists the counts per ``k`` as its digits.  ``B`` is the bit
        length of the plain count, which bounds every digit.
        """
        plain = self.count([])
        first = {key: [[self.var[members[0]]]] for key, members in self.classes.items()}
        if not by_mines or plain == 0:
            return (0, [plain]), {key: (0, [self.count(unit) if plain else 0])
                                  for key, unit in first.items()}
        digits = plain.bit_length()
        pool = IDPool(start_from=self.pool.top + 1)
        gadget, extra_vars = [], []
        for cell, var in self.var.items():
            for j in range(digits):
                y = pool.id((cell, j))
                gadget.append([var, -y])
                extra_vars.append(y)

        def split(total: int) -> Poly:
            mask = (1 << digits) - 1
            return 0, [(total >> (digits * k)) & mask for k in range(len(self.cells) + 1)]

        whole = split(self.count(gadget, extra_vars))
        support = [k for k, c in enumerate(whole[1]) if c]
        if len(support) == 1:
            # The rules fix this component's mine count: plain counts suffice
            # (and the gadget makes the counter several times slower).
            k = support[0]
            return whole, {key: (k, [self.count(unit)]) for key, unit in first.items()}
        cells = {key: split(self.count(gadget + unit, extra_vars)) for key, unit in first.items()}
        return whole, cells


def _components(problem: Problem) -> list[list[Constraint]]:
    """Rules grouped by shared cells (union-find over cells)."""
    parent: dict[Hashable, Hashable] = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for rule in problem.constraints:
        cells = list(rule.cells)
        for other in cells[1:]:
            parent[find(other)] = find(cells[0])
    groups: dict[Hashable, list[Constraint]] = defaultdict(list)
    for rule in problem.constraints:
        if rule.cells:
            groups[find(next(iter(rule.cells)))].append(rule)
    return list(groups.values())


def tally(problem: Problem) -> Tally:
    """Exact explanation counts by model counting.

    >>> from satsweeper.constraints import Constraint, Problem
    >>> rules = (Constraint(frozenset({"a", "b"}), 1, "r"),)
    >>> t = tally(Problem(("a", "b", "c"), rules, mines=1))
    >>> t.count, t.mines
    (2, {'a': 1, 'b': 1, 'c': 0})
    """
    zero = Tally(0, {c: 0 for c in problem.cells})
    if any(not r.is_satisfiable_alone() for r in problem.constraints):
        return zero
    order = {c: i for i, c in enumerate(problem.cells)}
    components = [_Component(rules, order) for rules in _components(problem)]
    by_mines = problem.mines is not None
    results = [c.polynomials(by_mines) for c in components]
    floating = problem.floating_cells()
    world = combine([whole for whole, _ in results], len(floating), problem.mines)
    mines = {c: world.floating_mines for c in floating}
    for component, (_, cells), weight in zip(components, results, world.weights):
        for key, members in component.classes.items():
            value = int(dot(cells[key], weight)) if world.count else 0
            for c in members:
                mines[c] = value
    # Without a total the components were counted without splitting by mine
    # number, so there is no frontier distribution to report.
    frontier = frontier_counts(world.frontier) if by_mines else {}
    return Tally(world.count, {c: mines[c] for c in problem.cells}, frontier, world.scale)
