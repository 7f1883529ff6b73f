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
from functools import cached_property
from math import comb
from operator import mul
from typing import Hashable, Mapping, Sequence

from .constraints import Constraint, Problem
from .errors import TooComplexError
from .tally import Poly, Tally, accumulate, combine, frontier_counts, window


# ---------------------------------------------------------------- structure

@dataclass
class _Structure:
    boxes: list[list[Hashable]]        # box -> its cells
    box_rules: list[tuple[int, ...]]   # box -> rules mentioning it
    rule_boxes: list[list[int]]        # rule -> its boxes
    needs: list[int]                   # rule -> mines it asks for
    floating: list[Hashable]
    impossible: bool                   # some rule can never hold


def _structure(problem: Problem) -> _Structure:
    rules = problem.constraints
    membership: dict[Hashable, list[int]] = defaultdict(list)
    for i, rule in enumerate(rules):
        for cell in rule.cells:
            membership[cell].append(i)
    box_of: dict[tuple[int, ...], int] = {}
    boxes: list[list[Hashable]] = []
    floating = []
    for cell in problem.cells:
        key = tuple(membership.get(cell, ()))
        if not key:
            floating.append(cell)
            continue
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


def _components(st: _Structure, rank: Mapping[Hashable, int] | None = None) -> list[list[int]]:
    """Boxes grouped into independent components, each in a DP-friendly order.

    ``rank`` (cell -> position) overrides the order inside each component:
    boxes go by their first cell's position.  A caller that drew the board
    (the circuit compiler) knows a sweep that keeps the DP's frontier thin
    where a BFS would cut across every branch of a circuit at once.
    """
    adjacent = [set() for _ in st.boxes]
    for boxes in st.rule_boxes:
        for b in boxes:
            adjacent[b].update(boxes)
    seen = [False] * len(st.boxes)
    out = []
    for start in range(len(st.boxes)):
        if seen[start]:
            continue
        members = _bfs(start, adjacent)
        for b in members:
            seen[b] = True
        # Order from a pseudo-peripheral box (the last one a BFS reaches):
        # layers of a BFS from an end of the component stay thin.
        order = _bfs(members[-1], adjacent) if len(members) > 2 else members
        if rank is not None:
            late = len(rank)
            order = sorted(members, key=lambda b: min(rank.get(cell, late) for cell in st.boxes[b]))
        out.append(order)
    return out


def _bfs(start: int, adjacent: list[set[int]]) -> list[int]:
    order, queue, seen = [], deque([start]), {start}
    while queue:
        b = queue.popleft()
        order.append(b)
        for n in sorted(adjacent[b]):
            if n not in seen:
                seen.add(n)
                queue.append(n)
    return order


# ---------------------------------------------------------- the DP per component

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


class _ComponentDP:
    """Forward and backward passes of the frontier DP over one component."""

    def __init__(self, order: list[int], st: _Structure, max_states: int | None = None):
        self.max_states = max_states
        self.order = order
        self.st = st
        self.steps = self._plan()
        self.layers: list[dict[tuple, Poly]] = []

    def _plan(self) -> list[_Step]:
        st, position = self.st, {b: i for i, b in enumerate(self.order)}
        rules = sorted({r for b in self.order for r in st.box_rules[b]})
        last = {r: max(position[b] for b in st.rule_boxes[r]) for r in rules}
        first = {r: min(position[b] for b in st.rule_boxes[r]) for r in rules}
        capacity = {r: sum(len(st.boxes[b]) for b in st.rule_boxes[r]) for r in rules}
        steps, active = [], []
        for i, b in enumerate(self.order):
            size, own = len(st.boxes[b]), st.box_rules[b]
            sources, caps = [], []
            for r in own:
                capacity[r] -= size
                sources.append((active.index(r) if first[r] < i else -1, st.needs[r]))
                caps.append(capacity[r])
            new_active = [r for r in active if last[r] != i] + \
                         [r for r in own if first[r] == i and last[r] != i]
            layout = [(True, own.index(r)) if r in own else (False, active.index(r))
                      for r in new_active]
            steps.append(_Step(b, size, sources, caps, layout,
                               [comb(size, m) for m in range(size + 1)]))
            active = new_active
        return steps

    @staticmethod
    def _moves(step: _Step, state: tuple) -> list[tuple[int, tuple]]:
        """(mines in the box, next state) for every legal choice.

        Each rule of the box bounds the box's mines m: no more than it still
        needs, and no fewer than it needs beyond the cells left after the box.
        """
        needs = [state[k] if k >= 0 else need for k, need in step.sources]
        low = max([0] + [n - c for n, c in zip(needs, step.caps)])
        high = min([step.size] + needs)
        layout = step.layout
        return [(m, tuple([needs[j] - m if fresh else state[j] for fresh, j in layout]))
                for m in range(low, high + 1)]

    def forward(self) -> Poly:
        """The component's count by number of mines."""
        layer: dict[tuple, Poly] = {(): (0, [1])}
        self.layers = [layer]
        self.transitions: list[dict[tuple, list]] = []
        for step in self.steps:
            nxt: dict[tuple, list] = {}
            moves_of = {}
            for state, (lo, cs) in layer.items():
                moves = moves_of[state] = self._moves(step, state)
                for m, new_state in moves:
                    w = step.weights[m]
                    target = nxt.get(new_state)
                    if target is None:
                        nxt[new_state] = [lo + m, [c * w for c in cs]]
                    else:
                        accumulate(target, lo + m, cs, w)
            if self.max_states is not None and len(nxt) > self.max_states:
                raise TooComplexError(f"a DP layer of at most {self.max_states} states "
                                      f"(got {len(nxt)})")
            layer = {k: (v[0], v[1]) for k, v in nxt.items()}
            self.layers.append(layer)
            self.transitions.append(moves_of)
        return layer.get((), (0, [0]))

    def total(self) -> int:
        """The component's count alone: :meth:`forward` without mine numbers (for counts without a total)."""
        layer: dict[tuple, int] = {(): 1}
        for step in self.steps:
            nxt: dict[tuple, int] = {}
            weights = step.weights
            for state, ways in layer.items():
                for m, new_state in self._moves(step, state):
                    nxt[new_state] = nxt.get(new_state, 0) + ways * weights[m]
            layer = nxt
        return layer.get((), 0)

    def marginals(self, weight: Poly) -> list[int]:
        """Per box (in ``order``): weighted count with one given cell a mine.

        ``weight`` gives the weight of the rest of the world as a function
        of the mines this component holds.
        """
        out = [0] * len(self.steps)
        after: dict[tuple, Poly] = {(): weight}
        for i in range(len(self.steps) - 1, -1, -1):
            step = self.steps[i]
            before: dict[tuple, Poly] = {}
            mine_weight = 0
            moves_of = self.transitions[i]
            for state, (lo, cs) in self.layers[i].items():
                acc = [0] * len(cs)
                for m, new_state in moves_of[state]:
                    g = after.get(new_state)
                    if g is None:
                        continue
                    values = window(g, lo + m, len(cs))
                    w = step.weights[m]
                    for p, v in enumerate(values):
                        acc[p] += w * v
                    if m:
                        mine_weight += comb(step.size - 1, m - 1) * sum(map(mul, cs, values))
                before[state] = (lo, acc)
            out[i] = int(mine_weight)
            after = before
        return out


# ------------------------------------------------------------------ the engine

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
    return Components(problem, max_states, order).tally()


def count(problem: Problem, order: Sequence[Hashable] | None = None) -> int:
    """The number of explanations, and nothing else: faster than :func:`tally` on large boards.

    Without a total mine count the components are independent and each
    floating cell doubles the count; with one, mine numbers matter and
    :func:`tally` answers.

    >>> from satsweeper.constraints import Constraint, Problem
    >>> count(Problem(("a", "b", "c"), (Constraint(frozenset({"a", "b"}), 1, "r"),)))
    4
    """
    if problem.mines is not None:
        return tally(problem, order=order).count
    st = _structure(problem)
    if st.impossible:
        return 0
    rank = None if order is None else {cell: i for i, cell in enumerate(order)}
    total = 1 << len(st.floating)
    for boxes in _components(st, rank):
        total *= _ComponentDP(boxes, st).total()
        if not total:
            break
    return total


class Components:
    """One problem's components, each counted once, so that variants can reuse them.

    :meth:`tally` gives the usual answer; :meth:`count_safe` counts the
    explanations in which some cells are all safe by recounting only the
    components those cells touch (a strategy scoring a dozen guesses asks
    this a dozen times per position).

    >>> from satsweeper.constraints import Constraint, Problem
    >>> rules = (Constraint(frozenset({"a", "b"}), 1, "r"),)
    >>> c = Components(Problem(("a", "b", "c"), rules, mines=1))
    >>> c.tally().count, c.count_safe({"a"}), c.count_safe({"c"})
    (2, 1, 2)
    """

    def __init__(self, problem: Problem, max_states: int | None = None, order: Sequence[Hashable] | None = None):
        self.problem = problem
        self.max_states = max_states
        self.st = _structure(problem)
        rank = None if order is None else {cell: i for i, cell in enumerate(order)}
        orders = [] if self.st.impossible else _components(self.st, rank)
        self.dps = [_ComponentDP(order, self.st, max_states) for order in orders]
        self.polys = [dp.forward() for dp in self.dps]

    def tally(self) -> Tally:
        problem, st = self.problem, self.st
        if st.impossible:
            return Tally(0, {c: 0 for c in problem.cells})
        world = combine(self.polys, len(st.floating), problem.mines)
        mines: dict[Hashable, int] = {c: world.floating_mines for c in st.floating}
        if world.count:
            for dp, weight in zip(self.dps, world.weights):
                for b, w in zip(dp.order, dp.marginals(weight)):
                    for cell in st.boxes[b]:
                        mines[cell] = w
        return Tally(world.count, {c: mines.get(c, 0) for c in problem.cells},
                     frontier_counts(world.frontier), world.scale)

    def count_safe(self, cells) -> int:
        """Explanations in which every cell of ``cells`` is safe (an exact int)."""
        if self.st.impossible:
            return 0
        cells = set(cells)
        st, component_of = self.st, self._component_of
        touched = {component_of[c] for c in cells if c in component_of}
        floating = len(st.floating) - sum(1 for c in cells if c in self._floating)
        rules = [rule for rule, boxes in zip(self.problem.constraints, st.rule_boxes)
                 if boxes and component_of[st.boxes[boxes[0]][0]] in touched]
        inside = [c for i in sorted(touched) for b in self.dps[i].order for c in st.boxes[b] if c not in cells]
        sub = Components(Problem(tuple(inside), tuple(Constraint(r.cells - cells, r.mines, r.origin)
                                                      for r in rules)), self.max_states)
        if sub.st.impossible:
            return 0
        polys = [p for i, p in enumerate(self.polys) if i not in touched] + sub.polys
        world = combine(polys, floating + len(sub.st.floating), self.problem.mines)
        count = world.count * world.scale
        assert count.denominator == 1, "counts are whole numbers"
        return int(count)

    @cached_property
    def _component_of(self) -> dict[Hashable, int]:
        """frontier cell -> index of its component (built once, asked per guess)."""
        return {cell: index for index, dp in enumerate(self.dps)
                for b in dp.order for cell in self.st.boxes[b]}

    @cached_property
    def _floating(self) -> set:
        return set(self.st.floating)
