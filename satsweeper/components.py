"""Exact counting by components: the fast engine for real positions.

The pipeline reads like the best probability solvers do it:

1. **Boxes.**  Frontier cells mentioned by exactly the same rules are
   interchangeable; a box of ``s`` cells holding ``m`` mines stands for
   ``C(s, m)`` placements.
2. **Components.**  Boxes linked through rules form independent components.
3. **Frontier dynamic programming.**  Each component's boxes are taken in a
   breadth-first order from a peripheral box; the state after each step is
   the number of mines still owed by the rules that are open at that point.
   A forward pass gives, per state, the count as a polynomial in the mines
   placed so far; the last layer is the component's count by mine number.
4. **Combination.**  Components multiply as polynomials (a product tree);
   the total mine count weights a frontier holding ``k`` mines by
   ``C(floating, total - k)``.  Walking the product tree back down gives
   every component the weight of the rest of the world as a function of its
   own mine count.
5. **Marginals.**  A backward pass per component, seeded with that weight,
   gives each box's count of explanations with a chosen cell of it a mine.

Everything is an exact Python integer.  Cost is linear in the number of
boxes times the number of DP states, which stays small on real positions
(the frontier of a position is close to one-dimensional).
"""

from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property, reduce
from math import comb
from operator import mul
from typing import Hashable, Mapping, MutableSequence, Sequence

from .compiled import checkpoint, take_build
from .constraints import Constraint, Problem, split_cells
from .errors import TooComplexError
from .limits import collector_paused
from .tally import Poly, Shared, Tally, accumulate, big_numbers, combine, dot, frontier_counts, multiply, rest_weight, window
from .tally import comb as big_comb  # GMP's on big boards


# ---------------------------------------------------------------- structure

@dataclass
class _Structure:
    boxes: list[list[Hashable]]        # box -> its cells
    box_rules: list[tuple[int, ...]]   # box -> rules mentioning it
    rule_boxes: list[list[int]]        # rule -> its boxes
    needs: list[int]                   # rule -> mines it asks for
    floating: Sequence[Hashable]
    impossible: bool                   # some rule can never hold


def _structure(problem: Problem) -> _Structure:
    rules = problem.constraints
    membership: dict[Hashable, list[int]] = defaultdict(list)
    for i, rule in enumerate(rules):
        for cell in rule.cells:
            membership[cell].append(i)
    box_of: dict[tuple[int, ...], int] = {}
    boxes: list[list[Hashable]] = []
    # Most hidden cells of a real position float: sort them out at C speed
    # (a big board's stay compact).
    frontier, floating = split_cells(problem.cells, membership)
    for cell in frontier:
        key = tuple(membership[cell])
        if key not in box_of:
            box_of[key] = len(boxes)
            boxes.append([])
        boxes[box_of[key]].append(cell)
    box_rules = list(box_of)
    rule_boxes: list[list[int]] = [[] for _ in rules]
    for b, key in enumerate(box_rules):
        for r in key:
            rule_boxes[r].append(b)
    impossible = any(not (0 <= rule.mines <= len(rule.cells)) for rule in rules)
    return _Structure(boxes, box_rules, rule_boxes, [r.mines for r in rules], floating, impossible)


def _components(st: _Structure, rank: Mapping[Hashable, int] | None = None,
                toward: int | None = None) -> list[list[int]]:
    """Boxes grouped into independent components, each in a DP-friendly order.

    ``rank`` (cell -> position) overrides the order inside each component:
    boxes go by their first cell's position.  A caller that drew the board
    (the circuit compiler) knows a sweep that keeps the DP's frontier thin
    where a BFS would cut across every branch of a circuit at once.
    ``toward`` (a rule) makes its component's order start from the box
    farthest from that rule, so the rule's boxes come late.

    Our own search, not ``scipy.sparse.csgraph``: its connected_components
    labels the same components 2.7 times slower on expert positions (0.16 ms
    against 0.06 with the order, ``scripts/bench_library.py``) and gives no
    sweep order, which the DP needs.
    """
    linked = [set() for _ in st.boxes]
    for boxes in st.rule_boxes:
        for b in boxes:
            linked[b].update(boxes)
    adjacent = [sorted(near) for near in linked]  # sorted once: every BFS walks them in order
    seen = [False] * len(st.boxes)
    goal = st.rule_boxes[toward][0] if toward is not None and st.rule_boxes[toward] else None
    out = []
    for start in range(len(st.boxes)):
        if seen[start]:
            continue
        members = _bfs(start, adjacent)
        for b in members:
            seen[b] = True
        # Order from a pseudo-peripheral box (the last one a BFS reaches):
        # layers of a BFS from an end of the component stay thin.
        if len(members) <= 2:
            order = members
        elif goal is not None and goal in members:
            order = _bfs(_bfs(goal, adjacent)[-1], adjacent)
        else:
            order = _bfs(members[-1], adjacent)
        if rank is not None:
            late = len(rank)
            order = sorted(members, key=lambda b: min(rank.get(cell, late) for cell in st.boxes[b]))
        out.append(order)
    return out


def _bfs(start: int, adjacent: list[list[int]]) -> list[int]:
    order, queue, seen = [], deque([start]), {start}
    while queue:
        b = queue.popleft()
        order.append(b)
        for n in adjacent[b]:
            if n not in seen:
                seen.add(n)
                queue.append(n)
    return order


# ------------------------------------------------------------- how far it got

class Progress:
    """How far a count has got: readable while it runs, and after it was stopped.

    Six integers in ``store``: components finished, components in all, layers
    done in the current component, its layers in all, the widest layer so far
    (in DP states) and the states of every layer so far.  ``store`` may be
    shared memory (:meth:`shared`), so that a parent process reads what a
    forked worker had done when it killed it for time or memory.

    >>> from satsweeper.constraints import Constraint, Problem
    >>> p = Progress()
    >>> count(Problem(("a", "b", "c"), (Constraint(frozenset({"a", "b"}), 1, "r"),)), progress=p)
    4
    >>> p.components, p.widest, p.text()
    (1, 1, 'after component 1 of 1; widest DP layer 1 state, 1 state in all')
    """

    FIELDS = ("component", "components", "layer", "layers", "widest", "states")

    def __init__(self, store: MutableSequence[int] | None = None):
        self.store = store if store is not None else [0] * len(self.FIELDS)

    @classmethod
    def shared(cls) -> "Progress":
        """One in shared memory: a process forked after this sees the same numbers."""
        from multiprocessing import sharedctypes
        return cls(sharedctypes.RawArray("q", len(cls.FIELDS)))

    def __getattr__(self, name: str) -> int:
        if name in Progress.FIELDS:
            return self.store[Progress.FIELDS.index(name)]
        raise AttributeError(name)

    def start(self, components: int) -> None:
        self.store[0], self.store[1] = 0, components

    def enter(self, layers: int) -> None:
        """A component's DP begins."""
        self.store[2], self.store[3] = 0, layers

    def layer_done(self, states: int) -> None:
        store = self.store
        store[2] += 1
        store[5] += states
        if states > store[4]:
            store[4] = states
        if store[2] == store[3]:
            store[0] += 1

    def text(self) -> str:
        """Where the count is (to follow "stopped"), its widest layer and its states so far."""
        if not self.layers:
            return "before the first DP layer (reading the rules)"
        if self.components and self.component == self.components:
            where = f"after component {self.component} of {self.components}"
        else:
            where = (f"at component {self.component + 1} of {self.components}, "
                     f"DP layer {self.layer} of {self.layers}")
        return (f"{where}; widest DP layer {_states(self.widest)}, "
                f"{_states(self.states)} in all")

    def json(self) -> dict[str, int]:
        return {name: self.store[i] for i, name in enumerate(self.FIELDS)}


def _states(n: int) -> str:
    return f"{n:,} state" + ("" if n == 1 else "s")


# ---------------------------------------------------------- the DP per component

# A free rule (see _ComponentDP) asks for this many mines and has this much
# room after every box, so its bounds never bind; its slot in the state then
# counts down the mines placed in it.
_FREE = 1 << 20


@dataclass
class _Step:
    """One box of the DP order, with everything its transitions need.

    ``sources`` says where each rule of the box finds what it still needs
    (an index into the state, or -1 for a rule the box opens, with its
    need); ``caps`` is how many cells of that rule come after the box.
    ``layout`` builds the next state: ``(True, j)`` takes the j-th rule of the
    box after placing the box's mines, ``(False, k)`` copies old slot k.
    """

    box: int
    size: int
    sources: list[tuple[int, int]]
    caps: list[int]
    layout: list[tuple[bool, int]]
    weights: list[int]   # C(size, m)


@cache
def _ways(size: int) -> list[int]:
    """C(size, m) for every m (shared between steps: read only)."""
    return [comb(size, m) for m in range(size + 1)]


@cache
def _mine_ways(size: int) -> list[int]:
    """C(size - 1, m - 1): placements of m mines in a box with one given cell a mine."""
    return [0] + [comb(size - 1, m - 1) for m in range(1, size + 1)]


class _ComponentDP:
    """Forward and backward passes of the frontier DP over one component."""

    def __init__(self, order: list[int], st: _Structure, max_states: int | None = None,
                 free: int | None = None):
        self.max_states = max_states
        self.free = free
        self.order = order
        self.st = st
        self.cells = [st.boxes[b] for b in order]  # each box's cells, in DP order
        self.steps = self._plan()
        self.layers: list[dict[tuple, Poly]] = []

    def _plan(self) -> list[_Step]:
        st, order = self.st, self.order
        box_rules, boxes = st.box_rules, st.boxes
        first: dict[int, int] = {}
        last: dict[int, int] = {}
        capacity: dict[int, int] = {}
        for i, b in enumerate(order):
            size = len(boxes[b])
            for r in box_rules[b]:
                if r not in first:
                    first[r], capacity[r] = i, 0
                last[r] = i
                capacity[r] += size
        free, needs = self.free, st.needs
        if free is not None:  # a free rule stays open to the end, counting its mines
            last[free] = len(order)
        steps, active = [], []
        # Each active rule's slot in the state: found by list.index, which walked the list,
        # planning a board revealed at random (300 wide, every rule active along a BFS's
        # front) took 5.7 s of the 8.5 its count took; a dict takes 0.3.
        slots: dict[int, int] = {}
        for i, b in enumerate(order):
            size, own = len(boxes[b]), box_rules[b]
            sources, caps = [], []
            for r in own:
                capacity[r] -= size
                slot = slots[r] if first[r] < i else -1
                if r == free:
                    sources.append((slot, _FREE))
                    caps.append(_FREE)
                else:
                    sources.append((slot, needs[r]))
                    caps.append(capacity[r])
            new_active = [r for r in active if last[r] != i] + \
                         [r for r in own if first[r] == i and last[r] != i]
            mine = {r: j for j, r in enumerate(own)}
            layout = [(True, mine[r]) if r in mine else (False, slots[r]) for r in new_active]
            steps.append(_Step(b, size, sources, caps, layout, _ways(size)))
            active = new_active
            slots = {r: j for j, r in enumerate(active)}
        return steps


    def forward(self) -> Poly:
        """The component's count by number of mines."""
        layer: dict[tuple, Poly] = {(): (0, [1])}
        self.layers = [layer]
        self.transitions: list[dict[tuple, list]] = []
        for step in self.steps:
            nxt: dict[tuple, list] = {}
            moves_of = {}
            weights, sources, caps, layout = step.weights, step.sources, step.caps, step.layout
            for tick, (state, (lo, cs)) in enumerate(layer.items()):
                # Compiled, a signal is seen only in a call to Python code: Ctrl-C or kill
                # took 1.3-3.7 s to stop a count of a 60x60 lattice, now 0.15-1.2 (most of
                # it freeing the layers).  Every 1,024 states: 1% of best's time at most
                # (scripts/bench_versions.py, 600 expert games: best 1.010, exact 1.005).
                if not tick & 1023:
                    checkpoint()
                # Every legal number m of mines in the box, and the state after it:
                # each rule of the box bounds m, no more than it still needs and no
                # fewer than it needs beyond the cells left after the box.  Written
                # out here and in reachable (not a function): this loop is the
                # engine's hottest.
                needs = [state[k] if k >= 0 else need for k, need in sources]
                low, high = 0, step.size
                for n, c in zip(needs, caps):
                    if n - c > low:
                        low = n - c
                    if n < high:
                        high = n
                moves = moves_of[state] = [
                    (m, tuple([needs[j] - m if fresh else state[j] for fresh, j in layout]))
                    for m in range(low, high + 1)]
                for m, new_state in moves:
                    w = weights[m]
                    target = nxt.get(new_state)
                    if target is None:
                        # Most boxes are one cell: weight 1, a copy will do.
                        nxt[new_state] = [lo + m, cs[:] if w == 1 else [c * w for c in cs]]
                    else:
                        accumulate(target, lo + m, cs, w)
            if self.max_states is not None and len(nxt) > self.max_states:
                raise TooComplexError(f"a DP layer of at most {self.max_states} states "
                                      f"(got {len(nxt)})")
            # The [lo, coefficients] lists are final now; they serve as Polys.
            layer = nxt
            self.layers.append(layer)
            self.transitions.append(moves_of)
        return layer.get((), (0, [0]))

    def reachable(self) -> int:
        """:meth:`forward` with a set of mine numbers instead of counts: a bitmask, bit k set
        when some placement puts k mines in the component (for :func:`determined`)."""
        layer: dict[tuple, int] = {(): 1}
        self.layers = [layer]
        self.transitions = []
        for step in self.steps:
            nxt: dict[tuple, int] = {}
            moves_of = {}
            sources, caps, layout = step.sources, step.caps, step.layout
            for tick, (state, mask) in enumerate(layer.items()):
                if not tick & 1023:
                    checkpoint()
                # The legal moves, as in forward: solve's determination is this loop.
                needs = [state[k] if k >= 0 else need for k, need in sources]
                low, high = 0, step.size
                for n, c in zip(needs, caps):
                    if n - c > low:
                        low = n - c
                    if n < high:
                        high = n
                moves = moves_of[state] = [
                    (m, tuple([needs[j] - m if fresh else state[j] for fresh, j in layout]))
                    for m in range(low, high + 1)]
                for m, new_state in moves:
                    nxt[new_state] = nxt.get(new_state, 0) | mask << m
            if self.max_states is not None and len(nxt) > self.max_states:
                raise TooComplexError(f"a DP layer of at most {self.max_states} states "
                                      f"(got {len(nxt)})")
            layer = nxt
            self.layers.append(layer)
            self.transitions.append(moves_of)
        return layer.get((), 0)

    def mine_range(self, allowed: int) -> list[tuple[int, int]]:
        """After :meth:`reachable`: per box, the fewest and most mines it holds in a
        placement whose component total is in the bitmask ``allowed`` (-1: any).

        Backward, each state keeps the mine numbers placed before it from which
        an allowed total can still be reached; a move is used by some placement
        iff those meet the numbers the forward pass reached the state with.
        """
        out = [(0, 0)] * len(self.steps)
        after: dict[tuple, int] = {(): allowed}
        for i in range(len(self.steps) - 1, -1, -1):
            before: dict[tuple, int] = {}
            low, high = self.steps[i].size + 1, -1
            moves_of = self.transitions[i]
            for state, reached in self.layers[i].items():
                ok = 0
                for m, new_state in moves_of[state]:
                    later = after.get(new_state)
                    if later is None:
                        continue
                    later >>= m
                    if later & reached:
                        if m < low:
                            low = m
                        if m > high:
                            high = m
                    ok |= later
                if ok:
                    before[state] = ok
            out[i] = (low, high)
            after = before
        return out

    def total(self, progress: "Progress | None" = None) -> int:
        """The component's count alone: :meth:`forward` without mine numbers (for counts without a total)."""
        layer: dict[tuple, int] = {(): 1}
        if progress is not None:
            progress.enter(len(self.steps))
        for step in self.steps:
            nxt: dict[tuple, int] = {}
            weights, sources, caps, layout, size = step.weights, step.sources, step.caps, step.layout, step.size
            for tick, (state, ways) in enumerate(layer.items()):
                if not tick & 1023:
                    checkpoint()
                # The legal moves, as in forward: a compiled board's count is this loop.
                needs = [state[k] if k >= 0 else need for k, need in sources]
                low, high = 0, size
                for n, c in zip(needs, caps):
                    if n - c > low:
                        low = n - c
                    if n < high:
                        high = n
                for m in range(low, high + 1):
                    new_state = tuple([needs[j] - m if fresh else state[j] for fresh, j in layout])
                    nxt[new_state] = nxt.get(new_state, 0) + ways * weights[m]
            layer = nxt
            if progress is not None:
                progress.layer_done(len(layer))
        return layer.get((), 0)

    def by_mines(self, progress: "Progress | None" = None) -> Poly:
        """:meth:`forward` for a count alone: one layer at a time, no transitions kept.

        What a count with a total needs; the memory is one layer's, not
        every layer's, so a board whose DP :meth:`forward` could not hold
        is still counted.
        """
        layer: dict[tuple, list] = {(): [0, [1]]}
        if progress is not None:
            progress.enter(len(self.steps))
        for step in self.steps:
            nxt: dict[tuple, list] = {}
            weights, sources, caps, layout, size = step.weights, step.sources, step.caps, step.layout, step.size
            for tick, (state, (lo, cs)) in enumerate(layer.items()):
                if not tick & 1023:
                    checkpoint()
                needs = [state[k] if k >= 0 else need for k, need in sources]
                low, high = 0, size
                for n, c in zip(needs, caps):
                    if n - c > low:
                        low = n - c
                    if n < high:
                        high = n
                for m in range(low, high + 1):
                    new_state = tuple([needs[j] - m if fresh else state[j] for fresh, j in layout])
                    w = weights[m]
                    target = nxt.get(new_state)
                    if target is None:
                        nxt[new_state] = [lo + m, cs[:] if w == 1 else [c * w for c in cs]]
                    else:
                        accumulate(target, lo + m, cs, w)
            layer = nxt
            if progress is not None:
                progress.layer_done(len(layer))
        lo, cs = layer.get((), (0, [0]))
        return lo, cs

    def by_free_mines(self) -> dict[int, Poly]:
        """After :meth:`forward` with a free rule: mines in the free rule -> the count by mine number."""
        return {_FREE - state[0]: poly for state, poly in self.layers[-1].items()}

    def marginals(self, weight: Poly, free_mines: int | None = None) -> list[int]:
        """Per box (in ``order``): weighted count with one given cell a mine.

        ``weight`` gives the weight of the rest of the world as a function
        of the mines this component holds; with a free rule, only
        placements with ``free_mines`` mines in it count.
        """
        out = [0] * len(self.steps)
        after: dict[tuple, Poly] = {() if free_mines is None else (_FREE - free_mines,): weight}
        for i in range(len(self.steps) - 1, -1, -1):
            step = self.steps[i]
            before: dict[tuple, Poly] = {}
            mine_weight = 0
            moves_of = self.transitions[i]
            weights, size = step.weights, step.size
            ways = _mine_ways(size)
            for tick, (state, (lo, cs)) in enumerate(self.layers[i].items()):
                if not tick & 1023:
                    checkpoint()
                moves = moves_of[state]
                if len(cs) == 1:  # most states hold one mine number: scalars, no lists
                    c0, acc1, reached = cs[0], 0, False
                    for m, new_state in moves:
                        g = after.get(new_state)
                        if g is None:
                            continue
                        reached = True
                        g_lo, g_cs = g
                        j = lo + m - g_lo
                        if 0 <= j < len(g_cs):
                            v = g_cs[j]
                            acc1 += weights[m] * v
                            if m:
                                mine_weight += ways[m] * c0 * v
                    if reached:  # a state with no way to the end carries no weight back
                        before[state] = (lo, [acc1])
                    continue
                acc = None
                n = len(cs)
                for m, new_state in moves:
                    g = after.get(new_state)
                    if g is None:
                        continue
                    w = weights[m]
                    values = window(g, lo + m, n)
                    if acc is None:
                        acc = [w * v for v in values]
                    else:
                        acc = [a + w * v for a, v in zip(acc, values)]
                    if m:
                        mine_weight += ways[m] * sum(map(mul, cs, values))
                if acc is not None:
                    before[state] = (lo, acc)
            out[i] = int(mine_weight)
            after = before
        return out


# ------------------------------------------------------------------ the engine

# From this many floating cells on, a tally keeps one value for all of them
# (a :class:`~satsweeper.tally.Shared` mapping) rather than one entry each:
# 4 million entries took 7 s and 1 GB on an all-hidden 2000x2000 board.
SHARED_FLOATING = 10_000

def tally(problem: Problem, max_states: int | None = None, order: Sequence[Hashable] | None = None) -> Tally:
    """Exact explanation counts by components.

    Raises:
        TooComplexError: a DP layer would exceed ``max_states`` states (the
            frontier is too wide for this engine; ask the SAT or model
            counting engines instead).

    >>> from satsweeper.constraints import Constraint, Problem
    >>> rules = (Constraint(frozenset({"a", "b"}), 1, "r"),)
    >>> t = tally(Problem(("a", "b", "c"), rules, mines=1))
    >>> t.count, t.mines
    (2, {'a': 1, 'b': 1, 'c': 0})
    """
    with collector_paused():  # a big board's rules and tables are many small objects, no cycles
        settled = None if order is not None else _settle(problem)
        if settled is None:
            return Components(problem, max_states, order).tally()
        fixed, rest = settled
        return _lift(problem, fixed, Components(rest, max_states).tally())


def _settle(problem: Problem) -> tuple[dict[Hashable, int], Problem] | None:
    """(cell -> 1 or 0 for the cells the single rules fix, what is left to count), or
    None where they fix nothing (or find the rules or the total broken: the full
    count says so, with its usual answer).

    A number whose missing mines equal its open cells, or that has them all, fixes
    them; fed back until nothing changes (:func:`satsweeper.singlepoint.settled_moves`,
    here with a work list: a big board has a million rules).  Every explanation
    agrees on the fixed cells, so the count is the rest's, the fixed mines taken
    from the total.  Why: on a board whose numbers are revealed at random, nearly
    every hidden cell is fixed, yet all of them touch one component whose DP
    carries a rule per column of the board (a 300x300 board took 8.5 s to count,
    the rest of it 0.1 s).

    >>> from satsweeper.constraints import Constraint, Problem
    >>> rules = (Constraint(frozenset({"a"}), 1, "r"), Constraint(frozenset({"a", "b", "c"}), 2, "s"))
    >>> fixed, rest = _settle(Problem(("a", "b", "c", "d"), rules, mines=2))
    >>> fixed, rest.cells, rest.constraints[0].mines, rest.mines
    ({'a': 1}, ['b', 'c', 'd'], 1, 1)
    """
    rules = problem.constraints
    need = [rule.mines for rule in rules]
    left = [len(rule.cells) for rule in rules]
    if any(not 0 <= n <= k for n, k in zip(need, left)):
        return None
    of: dict[Hashable, list[int]] = defaultdict(list)
    for i, rule in enumerate(rules):
        for cell in rule.cells:
            of[cell].append(i)
    fixed: dict[Hashable, int] = {}
    work = [i for i in range(len(rules)) if left[i] and (need[i] == 0 or need[i] == left[i])]
    while work:
        i = work.pop()
        if not left[i] or 0 < need[i] < left[i]:
            continue
        value = 1 if need[i] else 0
        for cell in rules[i].cells:
            if cell in fixed:
                continue
            fixed[cell] = value
            for j in of[cell]:
                left[j] -= 1
                need[j] -= value
                if need[j] < 0 or need[j] > left[j]:
                    return None  # the rules cannot all hold
                if left[j] and (need[j] == 0 or need[j] == left[j]):
                    work.append(j)
    if not fixed:
        return None
    mines = problem.mines
    if mines is not None:
        mines -= sum(fixed.values())
        if mines < 0:  # the total is broken: the full count's answer lists the arrangements
            return None
    # A rule none of whose cells is fixed still has them all: asking ``fixed.keys() &
    # rule.cells`` copied every fixed cell for each rule (16 s of a lattice board's 17).
    kept = tuple(rule if left[i] == len(rule.cells) else
                 Constraint(frozenset(c for c in rule.cells if c not in fixed), need[i], rule.origin)
                 for i, rule in enumerate(rules) if left[i])
    _, cells = split_cells(problem.cells, fixed)
    return fixed, Problem(cells, kept, mines, problem.total_origin)


def _lift(problem: Problem, fixed: dict[Hashable, int], rest: Tally) -> Tally:
    """``rest`` (the tally of what :func:`_settle` left) with the fixed cells put
    back: a fixed mine is one in every explanation, and the arrangements of the
    constrained cells carry the fixed mines too."""
    whole = rest.scaled_count
    values = {cell: whole if mine else 0 for cell, mine in fixed.items()}
    placed = sum(fixed.values())
    frontier = {k + placed: n for k, n in rest.frontier.items()}
    got = rest.scaled_mines
    if isinstance(got, Shared):
        values = Shared(problem.cells, {**got.own, **values}, got.shared)
    else:
        values = {cell: values[cell] if cell in values else got[cell] for cell in problem.cells}
    return Tally(whole, values, frontier, rest.scale)


def count(problem: Problem, order: Sequence[Hashable] | None = None, progress: Progress | None = None) -> int:
    """The number of explanations, and nothing else: faster than :func:`tally` on large boards.

    Without a total mine count the components are independent and each
    floating cell doubles the count; with one, mine numbers matter: each
    component's placements by mine number (:func:`by_mines`, a forward pass
    only), weighed by the floating cells.  ``progress`` is kept up to date
    layer by layer (see :class:`Progress`).

    >>> from satsweeper.constraints import Constraint, Problem
    >>> count(Problem(("a", "b", "c"), (Constraint(frozenset({"a", "b"}), 1, "r"),)))
    4
    """
    if problem.mines is not None and not problem.constraints:
        # Every cell floats: one binomial, no per-cell table (4 million cells cost 7 s).
        return big_comb(len(problem.cells), problem.mines) if problem.mines >= 0 else 0
    if problem.mines is not None:
        frontier, floating = by_mines(problem, order, progress)
        if frontier is None:
            return 0
        world = combine([frontier], floating, problem.mines)
        return Tally(world.count, {}, scale=world.scale).count
    st = _structure(problem)
    if st.impossible:
        return 0
    rank = None if order is None else {cell: i for i, cell in enumerate(order)}
    total = 1 << int(len(st.floating))  # int(): compiled, len() is a C integer (setup.py's TYPED)
    orders = _components(st, rank)
    if progress is not None:
        progress.start(len(orders))
    with collector_paused():
        for boxes in orders:
            total *= _ComponentDP(boxes, st).total(progress)
            if not total:
                break
    return total


def determined(problem: Problem, max_states: int | None = None,
               words: tuple = (True, False, None)) -> dict[Hashable, object] | None:
    """Which cells every explanation agrees on: cell -> True (a mine), False (safe)
    or None (undetermined), in problem order; None when there is no explanation.
    ``words`` replaces (True, False, None) (the caller's own statuses, at no cost).

    The same answer as reading :func:`tally`'s counts (0 or all), from sets of
    mine numbers instead of counts: bitmasks where the tally multiplies big
    integers, and no marginal counts.  With the total, a component may hold k
    mines iff the others and the floating cells can make up the rest.

    Raises:
        TooComplexError: as :func:`tally`.

    >>> from satsweeper.constraints import Constraint, Problem
    >>> rules = (Constraint(frozenset({"a", "b"}), 1, "r"),)
    >>> determined(Problem(("a", "b", "c"), rules, mines=1))
    {'a': None, 'b': None, 'c': False}
    >>> determined(Problem(("a", "b", "c"), rules, mines=2))
    {'a': None, 'b': None, 'c': True}
    """
    st = _structure(problem)
    if st.impossible:
        return None
    dps = [_ComponentDP(order, st, max_states) for order in _components(st)]
    masks = [dp.reachable() for dp in dps]
    if not all(masks):
        return None
    # False: the floating cells are safe, True: mines, None: either.
    allowed, floating_status = with_total(masks, len(st.floating), problem.mines, (True, False, None))
    if allowed is None:
        return None
    mine, safe, unknown = words
    out = dict.fromkeys(problem.cells, mine if floating_status else unknown if floating_status is None else safe)
    for dp, fits in zip(dps, allowed):
        for cells, step, (low, high) in zip(dp.cells, dp.steps, dp.mine_range(fits)):
            verdict = safe if high == 0 else mine if low == step.size else unknown
            for cell in cells:
                out[cell] = verdict
    return out


def with_total(masks: list[int], floating: int, total: int | None,
                words: tuple) -> tuple[list[int] | None, object]:
    """Which mine numbers each component may hold given the total, and the floating cells' word.

    ``masks[i]``: bit k set when component i can hold k mines.  A component
    may hold k mines iff the others and the ``floating`` cells can make up
    the rest; the floating cells' word is ``words`` = (mine, safe, unknown)
    as they must be.  (None, None) when the total cannot be met.  Shared by
    :func:`determined` and :mod:`satsweeper.bitboard`.

    >>> with_total([0b11, 0b10], floating=0, total=1, words=("mine", "safe", "?"))
    ([1, 2], 'safe')
    """
    mine, safe, unknown = words
    if total is None:
        return [-1] * len(masks), unknown
    if total < 0:
        return None, None
    least = max(0, total - floating)
    # The commonest case first: the fewest and the most mines the components
    # can hold (each its fewest, each its most) both fit, so every total in
    # between does; the floating cells are undetermined unless the two meet.
    fewest = most = 0
    for mask in masks:
        if not mask:  # a component without placements: none at all
            return None, None
        fewest += (mask & -mask).bit_length()
        most += mask.bit_length()
    fewest -= len(masks)
    most -= len(masks)
    if least <= fewest and most <= total and fewest < most:
        return [-1] * len(masks), unknown
    window = ((1 << (total + 1)) - 1) >> least << least
    prefix = [1]
    for mask in masks:
        prefix.append(_sumset(prefix[-1], mask))
    sums = prefix[-1] & window
    if not sums:
        return None, None
    floating_status = (safe if sums == 1 << total else
                       mine if total >= floating and sums == 1 << (total - floating) else unknown)
    if sums == prefix[-1]:  # every frontier total fits: the total restricts no component
        return [-1] * len(masks), floating_status
    suffix = [1]
    for mask in reversed(masks):
        suffix.append(_sumset(suffix[-1], mask))
    suffix.reverse()
    allowed = []
    for i, mask in enumerate(masks):
        others, fits = _sumset(prefix[i], suffix[i + 1]), 0
        while mask:
            low = mask & -mask
            k = low.bit_length() - 1
            start = max(0, least - k)
            if total >= k and others >> start & ((1 << (total - k - start + 1)) - 1):
                fits |= low
            mask ^= low
        allowed.append(fits)
    return allowed, floating_status


def _sumset(a: int, b: int) -> int:
    """The bitmask of every i + j with bit i of ``a`` and bit j of ``b`` set."""
    if a.bit_count() > b.bit_count():
        a, b = b, a
    out = 0
    while a:
        low = a & -a
        out |= b << (low.bit_length() - 1)
        a ^= low
    return out


def by_mines(problem: Problem, order: Sequence[Hashable] | None = None,
             progress: Progress | None = None) -> tuple[Poly | None, int]:
    """The constrained cells' placements by number of mines, and how many cells float.

    The total mine count is left aside: with it, the count is this
    polynomial weighed by the floating cells' binomials.  One forward pass
    per component, one layer in memory at a time, no per-cell counts (what
    :func:`tally` adds with a backward pass).  ``None`` when no placement
    satisfies the rules.

    >>> from satsweeper.constraints import Constraint, Problem
    >>> by_mines(Problem(("a", "b", "c"), (Constraint(frozenset({"a", "b"}), 1, "r"),)))
    ((1, [2]), 1)
    """
    st = _structure(problem)
    if st.impossible:
        return None, len(st.floating)
    rank = None if order is None else {cell: i for i, cell in enumerate(order)}
    orders = _components(st, rank)
    if progress is not None:
        progress.start(len(orders))
    polys: list[Poly] = []
    big = big_numbers(len(problem.cells))  # GMP's products on compiled boards, plain ints on small ones
    with collector_paused():
        for boxes in orders:
            lo, cs = _ComponentDP(boxes, st).by_mines(progress)
            if not any(cs):
                return None, len(st.floating)
            polys.append((lo, [big(c) for c in cs]))
    # A product tree, as tally.combine multiplies: a real position has
    # thousands of small components.
    while len(polys) > 1:
        polys = [multiply(polys[i], polys[i + 1]) if i + 1 < len(polys) else polys[i]
                 for i in range(0, len(polys), 2)]
    lo, cs = polys[0] if polys else (0, [1])
    return (lo, [int(c) for c in cs]), len(st.floating)


class Components:
    """One problem's components, each counted once, so that variants can reuse them.

    :meth:`tally` gives the usual answer; :meth:`reveal` looks one move
    ahead by recounting only the components a cell's number would touch.

    >>> from satsweeper.constraints import Constraint, Problem
    >>> rules = (Constraint(frozenset({"a", "b"}), 1, "r"),)
    >>> c = Components(Problem(("a", "b", "c"), rules, mines=1))
    >>> c.tally().count
    2
    """

    def __init__(self, problem: Problem, max_states: int | None = None, order: Sequence[Hashable] | None = None):
        self.problem = problem
        self.max_states = max_states
        self.st = _structure(problem)
        rank = None if order is None else {cell: i for i, cell in enumerate(order)}
        orders = [] if self.st.impossible else _components(self.st, rank)
        self.dps = [_ComponentDP(order, self.st, max_states) for order in orders]
        self.polys = [dp.forward() for dp in self.dps]
        self._products: dict[frozenset[int], Poly | None] = {}  # see _product_without

    def tally(self) -> Tally:
        problem, st = self.problem, self.st
        shared = len(st.floating) >= SHARED_FLOATING
        if st.impossible:
            return Tally(0, Shared(problem.cells, {}, 0) if shared else {c: 0 for c in problem.cells})
        world = combine(self.polys, len(st.floating), problem.mines)
        # A floating cell's count is a fraction of the scaled count (it is
        # shared among the floating cells): scale everything by that
        # denominator so every value is an int, which callers compare fast.
        floating = Fraction(world.floating_mines)
        d = floating.denominator
        own: dict[Hashable, int] = {}  # the frontier's values
        if world.count:
            for dp, weight in zip(self.dps, world.weights):
                for cells, w in zip(dp.cells, dp.marginals(weight)):
                    for cell in cells:
                        own[cell] = w * d
        value = floating.numerator if world.count else 0
        if shared:  # one entry for all the floating cells, not one each
            values = Shared(problem.cells, own, value)
        else:  # every cell in problem order at C speed, then the frontier's own values
            values = dict.fromkeys(problem.cells, value)
            values.update(own)
        return Tally(world.count * d, values, frontier_counts(world.frontier), world.scale / d)

    @cached_property
    def component_of(self) -> dict[Hashable, int]:
        """frontier cell -> index of its component (built once, asked per guess)."""
        return {cell: index for index, dp in enumerate(self.dps)
                for cells in dp.cells for cell in cells}

    @cached_property
    def _floating(self) -> set:
        return set(self.st.floating)

    def _product_without(self, touched: frozenset[int]) -> Poly | None:
        """The product of the components not in ``touched`` (None if there are none)."""
        if touched not in self._products:
            others = [p for i, p in enumerate(self.polys) if i not in touched]
            self._products[touched] = reduce(multiply, others) if others else None
        return self._products[touched]

    def count_with(self, fixed: Mapping[Hashable, int]) -> int:
        """Explanations with the cells of ``fixed`` set (1 a mine, 0 safe).

        Only the components those cells belong to are counted again; the
        others enter as the product :meth:`reveal` also keeps.  The same
        number as counting the problem with a unit rule per cell, about 3
        times faster on expert positions (0.09 ms against 0.25, compiled,
        three cells set at each guess of 40 games); a pseudo 50/50's walls
        are checked this way at every guess of ``best``.

        >>> from satsweeper.constraints import Constraint, Problem
        >>> rules = (Constraint(frozenset({"a", "b"}), 1, "r"),)
        >>> c = Components(Problem(("a", "b", "c", "d"), rules, mines=2))
        >>> c.count_with({"a": 1}), c.count_with({"a": 1, "c": 1}), c.count_with({"a": 1, "b": 1})
        (2, 1, 0)
        """
        if self.st.impossible:
            return 0
        st, component_of, floating_cells = self.st, self.component_of, self._floating
        touched = frozenset(component_of[c] for c in fixed if c in component_of)
        rules = []
        for rule, boxes in zip(self.problem.constraints, st.rule_boxes):
            if boxes and component_of[st.boxes[boxes[0]][0]] in touched:
                gone = rule.cells & fixed.keys()
                rules.append(Constraint(rule.cells - gone, rule.mines - sum(fixed[c] for c in gone), rule.origin)
                             if gone else rule)
        inside = [c for i in sorted(touched) for cells in self.dps[i].cells for c in cells if c not in fixed]
        sub = _structure(Problem(tuple(inside), tuple(rules)))
        if sub.impossible:
            return 0
        floating = len(st.floating) - sum(c in floating_cells for c in fixed) + len(sub.floating)
        total = self.problem.mines
        if total is not None:
            total -= sum(fixed.values())
            if total < 0:
                return 0
        others = self._product_without(touched)
        polys = ([others] if others else []) + [_ComponentDP(order, sub, self.max_states).forward()
                                                for order in _components(sub)]
        world = combine(polys, floating, total)
        return Tally(world.count, {}, scale=world.scale).count

    # ------------------------------------------------------------ look-ahead
    def reveal(self, cell: Hashable, neighbours) -> "Outcomes":
        """What opening ``cell`` may show, for a player looking one move ahead.

        For each number ``k`` of mines among ``neighbours`` (the cell's hidden
        neighbours), with ``cell`` safe: how many explanations remain, and
        (computed when asked) the lowest mine probability among the cells
        whose chances the number can change beyond the total: those of the
        components it touches and the floating cells.  Only those components
        are recounted, and the one the new number joins is counted once for
        all ``k`` together: its rule is *free* (no bound, open to the end),
        so the DP's last layer holds the count for each number of mines in it.

        >>> from satsweeper.constraints import Constraint, Problem
        >>> c = Components(Problem(("a", "b", "c"), (Constraint(frozenset({"a", "b"}), 1, "r"),)))
        >>> o = c.reveal("c", ["b"])
        >>> o.counts, o.lowest(0), o.lowest(1)
        ({0: 1, 1: 1}, Fraction(0, 1), Fraction(0, 1))
        """
        if self.st.impossible:
            return Outcomes({}, frozenset(), {})
        st, component_of = self.st, self.component_of
        neighbours = [n for n in neighbours if n != cell]
        touched = frozenset(component_of[c] for c in (cell, *neighbours) if c in component_of)
        rules = [Constraint(rule.cells - {cell}, rule.mines, rule.origin) if cell in rule.cells else rule
                 for rule, boxes in zip(self.problem.constraints, st.rule_boxes)
                 if boxes and component_of[st.boxes[boxes[0]][0]] in touched]
        look = len(rules)
        rules.append(Constraint(frozenset(neighbours), 0, "the new number"))
        joining = [n for n in neighbours if n in self._floating]
        inside = [c for i in sorted(touched) for cells in self.dps[i].cells for c in cells if c != cell]
        sub = _structure(Problem(tuple(inside + joining), tuple(rules)))
        if sub.impossible:  # the cell is a mine in every explanation
            return Outcomes({}, touched, {})
        floating = len(st.floating) - len(joining) - (cell in self._floating) + len(sub.floating)
        fixed, looking = [], None
        # The free rule's slot lives from its first box to the end: sweep
        # toward it, so that stretch is short.
        for order in _components(sub, toward=look):
            if any(look in sub.box_rules[b] for b in order):
                looking = _ComponentDP(order, sub, self.max_states, free=look)
            else:
                fixed.append(_ComponentDP(order, sub, self.max_states))
        # The untouched components enter every k alike: multiply them once
        # (and once for every cell that touches the same components).
        others = self._product_without(touched)
        polys = ([others] if others else []) + [dp.forward() for dp in fixed]
        if looking is None:  # no hidden neighbours: the cell can only show what is known
            by_mines = {0: None}
        else:
            looking.forward()  # once for every k: the free rule counts the mines around the cell
            by_mines = looking.by_free_mines()
        # The counts alone need only the weight of the rest for the mines
        # around the cell: one correlation for every k.  The full combination
        # (weights per component) waits until lowest(k) is asked for.
        if not by_mines:  # no explanation has the cell safe
            return Outcomes({}, touched, {})
        low = min(0 if p is None else p[0] for p in by_mines.values())
        high = max(0 if p is None else p[0] + len(p[1]) for p in by_mines.values())
        total = self.problem.mines
        span = max(1, high - low)
        rest, scale = rest_weight(polys, floating, total, low, span)

        @cache
        def rest_with_mine() -> Poly:
            return rest_weight(polys, floating, total, low, span, floating_mine=True)[0]

        counts, later = {}, {}
        for k in sorted(by_mines):
            poly = by_mines[k]
            scaled = dot((0, [1]) if poly is None else poly, rest)
            count, remainder = divmod(scaled * scale.numerator, scale.denominator)
            assert not remainder, "counts are whole numbers"
            if not count:
                continue
            counts[k] = int(count)
            if k == 0 and len(neighbours) > 1:  # a 0: its neighbours are safe, nothing to look for
                later[k] = (Fraction(0), Fraction(0))
                continue

            def lowest(k=k, poly=poly, whole=scaled) -> tuple[Fraction, Fraction]:
                # (lowest, second lowest) mine probability, a box of n cells
                # counting n times (a second is what Hill's blended safety asks).
                # Counts over one denominator: ints compare fast.
                if poly is not None and not fixed and total is not None:
                    # The looking component's weight is ``rest`` for every
                    # k: no combination needed, and every value shares its
                    # scale (``whole`` is this k's count in it).
                    marginals = looking.marginals(rest, free_mines=k)
                    if not floating:
                        return _two_smallest(zip(marginals, map(len, looking.cells)), whole)
                    found = [(m * floating, len(box)) for box, m in zip(looking.cells, marginals)]
                    found.append((dot(poly, rest_with_mine()), floating))
                    return _two_smallest(found, floating * whole)
                world = combine(polys if poly is None else polys + [poly], floating, total)
                mine = Fraction(world.floating_mines)  # a Fraction in general: scale all by its denominator
                d = mine.denominator
                found = [(mine.numerator, floating)]
                weights = world.weights[len(polys) - len(fixed):]
                for dp, weight in zip(fixed, weights):
                    found.extend((m * d, len(box)) for box, m in zip(dp.cells, dp.marginals(weight)))
                if poly is not None:
                    found.extend((m * d, len(box)) for box, m in
                                 zip(looking.cells, looking.marginals(weights[-1], free_mines=k)))
                return _two_smallest(found, world.count * d)

            later[k] = lowest

        def beyond(k: int, j: int) -> tuple[Fraction, Fraction]:
            # Component j (untouched) given the number k: the total's pull,
            # the rest of the world counted again with the new number in it.
            poly = by_mines[k]
            rest = self._product_without(touched | {j})
            parts = (([rest] if rest else []) + polys[1 if others else 0:]
                     + ([] if poly is None else [poly]) + [self.polys[j]])
            world = combine(parts, floating, total)
            dp = self.dps[j]
            return _two_smallest(zip(dp.marginals(world.weights[-1]), map(len, dp.cells)), world.count)

        return Outcomes(counts, touched, later, beyond if total is not None else None)


class Outcomes:
    """The numbers a cell may show (see :meth:`Components.reveal`).

    Attributes:
        counts: mines among the cell's hidden neighbours -> explanations with
            the cell safe and that many mines around it.
        touched: indices of the components the new number touches.

    :meth:`lowest` costs a backward pass of the DP, so a caller that can stop
    early (a bound already decided) asks for only the numbers it needs.
    """

    def __init__(self, counts: dict[int, int], touched: frozenset[int], lowest: dict, beyond=None):
        self.counts = counts
        self.touched = touched
        self._lowest = lowest
        self._beyond = beyond

    @property
    def pulled(self) -> bool:
        """Whether the total ties the components together (:meth:`beyond` answers)."""
        return self._beyond is not None

    def beyond(self, mines: int, component: int) -> tuple[Fraction, Fraction] | None:
        """Given ``mines`` around the cell: the lowest and second lowest mine
        probability in ``component``, one the number does not touch, pulled by
        the total (None without a total: its chances do not move)."""
        return None if self._beyond is None else self._beyond(mines, component)

    def lowest(self, mines: int) -> Fraction:
        """Given ``mines`` around the cell: the lowest mine probability among the
        floating cells and the cells of the touched components."""
        return self.lowest_two(mines)[0]

    def lowest_two(self, mines: int) -> tuple[Fraction, Fraction]:
        """The lowest and the second lowest mine probability among the cells of
        :meth:`lowest` (a box of n cells counts n times; 1 if no second cell)."""
        found = self._lowest[mines]
        if callable(found):
            found = self._lowest[mines] = found()
        return found


def _two_smallest(found, whole: int) -> tuple[Fraction, Fraction]:
    """The two smallest of (count, how many cells have it), as fractions of
    ``whole`` (1 for a missing one).

    >>> _two_smallest([(2, 1), (1, 2)], 4)
    (Fraction(1, 4), Fraction(1, 4))
    >>> _two_smallest([(1, 1), (2, 0)], 3)
    (Fraction(1, 3), Fraction(1, 1))
    """
    first = second = whole
    for value, times in found:
        if times <= 0:
            continue
        if value < first:
            first, second = value, (value if times > 1 else first)
        elif value < second:
            second = value
    return Fraction(first, whole), Fraction(second, whole)


# setup.py compiles this file with Cython (why: its NAMES); the build serves only while made
# from this very text (satsweeper.compiled).
COMPILED = take_build(globals(), "components")
