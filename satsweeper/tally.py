"""Exact counts of explanations, and how the parts of a problem combine.

Both counting engines (:mod:`satsweeper.components` and
:mod:`satsweeper.modelcount`) split the constrained cells into independent
components and describe each by a polynomial: coefficient ``k`` is the
number of its placements with ``k`` mines.  This module multiplies them, weighs
a frontier holding ``k`` mines by the placements of the floating cells
(``C(floating, total - k)`` with a total, ``2**floating`` without), and hands
each component the weight of the rest of the world as a function of its own
mine count, so the engines can finish their per-cell counts.

A polynomial is ``(lowest exponent, coefficients from there on)``: counts are
non-zero only in a narrow band of mine numbers, and storing the band alone
keeps the arithmetic small.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Hashable, Mapping

Poly = tuple[int, list[int]]


@dataclass(frozen=True)
class Tally:
    """Exact counts for a problem.

    Attributes:
        count: the number of explanations (placements satisfying everything).
        mines: cell -> number of explanations in which it is a mine.
        frontier: mines k -> placements of the constrained cells with k mines
            that satisfy the rules (before weighting by the floating cells);
            empty where an engine did not compute it.

    >>> t = Tally(4, {"a": 1, "b": 3})
    >>> t.probability("a"), t.safest()
    (Fraction(1, 4), ['a'])
    """

    count: int
    mines: Mapping[Hashable, int]
    frontier: Mapping[int, int] = field(default_factory=dict)

    @property
    def consistent(self) -> bool:
        return self.count > 0

    def probability(self, cell: Hashable) -> Fraction:
        """Exact probability that ``cell`` is a mine (uniform over explanations)."""
        if not self.count:
            raise ValueError("an inconsistent problem has no probabilities (count is 0)")
        return Fraction(self.mines[cell], self.count)

    def safest(self) -> list:
        """The cells least likely to be mines, in problem order."""
        if not self.mines:
            return []
        low = min(self.mines.values())
        return [c for c, m in self.mines.items() if m == low]

    def expected_mines(self) -> Fraction:
        """Expected number of mines among the cells (sum of probabilities)."""
        return Fraction(sum(self.mines.values()), self.count)


# ---------------------------------------------------------------- arithmetic

def accumulate(target: list, lo: int, cs: list[int], w: int) -> None:
    """target (a mutable ``[lo, coeffs]``) += w * x**lo * cs."""
    t_lo, t = target
    if lo < t_lo:
        t[:0] = [0] * (t_lo - lo)
        target[0] = t_lo = lo
    end = lo - t_lo + len(cs)
    if end > len(t):
        t.extend([0] * (end - len(t)))
    base = lo - t_lo
    for i, c in enumerate(cs):
        t[base + i] += c * w


def window(poly: Poly, start: int, length: int) -> list[int]:
    """Coefficients of ``poly`` at exponents start .. start+length-1.

    >>> window((2, [5, 6]), 1, 4)
    [0, 5, 6, 0]
    """
    lo, cs = poly
    out = [0] * length
    first, last = max(start, lo), min(start + length, lo + len(cs))
    if first < last:
        out[first - start:last - start] = cs[first - lo:last - lo]
    return out


def multiply(a: Poly, b: Poly) -> Poly:
    """The product of two polynomials.

    >>> multiply((1, [1, 1]), (0, [1, 2]))
    (1, [1, 3, 2])
    """
    (la, ca), (lb, cb) = a, b
    if len(ca) < len(cb):
        ca, cb = cb, ca
    out = [0] * (len(ca) + len(cb) - 1)
    for j, y in enumerate(cb):
        if y:
            for i, x in enumerate(ca):
                out[i + j] += x * y
    return la + lb, out


def correlate(a: Poly, r: Poly, like: Poly) -> Poly:
    """out(j) = sum_k a(k) * r(j + k), for j over the exponents of ``like``."""
    la, ca = a
    lo, cs = like
    values = window(r, lo + la, len(cs) + len(ca) - 1)
    return lo, [sum(map(int.__mul__, ca, values[j:j + len(ca)])) for j in range(len(cs))]


def dot(a: Poly, b: Poly) -> int:
    """sum_k a(k) * b(k)."""
    lo, cs = a
    return sum(map(int.__mul__, cs, window(b, lo, len(cs))))


# ------------------------------------------------------------------ the world

@dataclass(frozen=True)
class World:
    """How components combine with the floating cells and the total.

    Attributes:
        count: explanations in all.
        weights: per component, the weight of everything else as a function
            of that component's mine count (a Poly over its exponents).
        floating_mines: explanations with one given floating cell a mine.
        frontier: the product of the components' polynomials.
    """

    count: int
    weights: list[Poly]
    floating_mines: int
    frontier: Poly


def combine(polys: list[Poly], floating: int, total: int | None) -> World:
    """Multiply component polynomials and weigh them by the floating cells.

    A product tree multiplies the polynomials; walking it back down, a
    child's weight correlates its sibling with its parent's weight, so every
    component learns the weight of all the others at the cost of the product.

    >>> w = combine([(0, [1, 2])], floating=2, total=1)  # 1 + 2x, 2 floating, 1 mine
    >>> w.count, w.weights, w.floating_mines
    (4, [(0, [2, 1])], 1)
    """
    def outside(product: Poly) -> Poly:
        lo, cs = product
        if total is None:
            return lo, [2 ** floating] * len(cs)
        return lo, [comb(floating, total - k) if 0 <= total - k <= floating else 0
                    for k in range(lo, lo + len(cs))]

    levels = [polys or [(0, [1])]]
    while len(levels[-1]) > 1:
        below = levels[-1]
        levels.append([multiply(below[i], below[i + 1]) if i + 1 < len(below) else below[i]
                       for i in range(0, len(below), 2)])
    product = levels[-1][0]
    weights = [outside(product)]
    count = dot(product, weights[0])
    for depth in range(len(levels) - 2, -1, -1):
        nodes, new = levels[depth], []
        for i, poly in enumerate(nodes):
            parent, sibling = weights[i // 2], i ^ 1
            new.append(correlate(nodes[sibling], parent, poly) if sibling < len(nodes) else parent)
        weights = new
    lo, cs = product
    if total is None:
        floating_mines = count // 2 if floating else 0
    else:
        floating_mines = sum(p * comb(floating - 1, total - k - 1) for k, p in enumerate(cs, start=lo)
                             if 0 <= total - k - 1 <= floating - 1)
    return World(count, weights if polys else [], floating_mines, product)


def frontier_counts(product: Poly) -> dict[int, int]:
    """A polynomial as {mines: count}, zero counts left out."""
    lo, cs = product
    return {k: c for k, c in enumerate(cs, start=lo) if c}
