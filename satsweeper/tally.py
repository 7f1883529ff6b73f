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

from collections.abc import ItemsView, ValuesView
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, reduce
import math
from math import gcd
from operator import mul
from typing import Callable, Hashable, Iterator, Mapping, Sequence
from .compiled import take_build
from .errors import CellError, InputError

# GMP multiplies the huge counts of large boards ~15x faster than int, but
# importing gmpy2 costs ~50 ms (it reads package metadata), more than a whole
# expert position: it is imported only when numbers get big.
GMP_CELLS = 2000  # floating cells above which counts are worth GMP's numbers


def _gmp():
    """The gmpy2 module, or None without it (exact all the same, slower on big boards)."""
    try:
        import gmpy2
    except ImportError:  # pragma: no cover - gmpy2 is a dependency
        return None
    return gmpy2


def comb(n: int, k: int) -> int:
    """C(n, k) as a Python int: GMP's for large n (math.comb(4e6, 6e5) takes 17 s, GMP's 0.04 s).

    >>> comb(5, 2), comb(2, 5), comb(10_000, 3) == math.comb(10_000, 3)
    (10, 0, True)
    """
    gmp = _gmp() if n > GMP_CELLS else None
    if gmp is None:
        return math.comb(n, k) if 0 <= k else 0
    return int(gmp.comb(n, k))


def big_numbers(cells: int):
    """The integer type for counts over ``cells`` floating cells: GMP's on big boards, else int."""
    gmp = _gmp() if cells > GMP_CELLS else None
    return int if gmp is None else gmp.mpz


Poly = tuple[int, list[int]]


_ABSENT = object()


class Shared(Mapping):
    """cell -> value where most cells share one value (the floating cells).

    ``own`` holds the cells with a value of their own (the frontier); every
    other cell of ``cells`` has ``shared``.  A big board's millions of
    floating cells so cost one entry, and its answers group them.

    >>> m = Shared(("a", "b", "c"), {"b": 5}, 1)
    >>> dict(m), m.groups(), m.where(lambda v: v < 5)
    ({'a': 1, 'b': 5, 'c': 1}, {5: 1, 1: 2}, ['a', 'c'])
    >>> m.map(lambda v: v * 2) == {"a": 2, "b": 10, "c": 2}
    True
    """

    def __init__(self, cells: Sequence[Hashable], own: Mapping[Hashable, object], shared: object) -> None:
        self.cells = cells
        self.own = own
        self.shared = shared
        self._members = None  # cells as a set, made on the first question

    def _has(self, cell) -> bool:
        # ``in`` on a tuple of cells walks it: asking every cell of a 200x200
        # board in turn took 50 s (probabilities of a blank board).
        if self._members is None:
            from .constraints import cell_set
            self._members = cell_set(self.cells)
        try:
            return cell in self._members
        except TypeError:  # an unhashable "cell"
            return False

    def __getitem__(self, cell):
        value = self.own.get(cell, _ABSENT)  # no exception per floating cell: most cells are
        if value is not _ABSENT:
            return value
        if self._has(cell):
            return self.shared
        raise KeyError(cell)

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self.cells)

    def __len__(self) -> int:
        return len(self.cells)

    def __contains__(self, cell) -> bool:
        return cell in self.own or self._has(cell)

    def __repr__(self) -> str:
        return f"Shared({len(self.cells)} cells, {len(self.own)} own values, the rest {self.shared!r})"

    def items(self) -> "_SharedItems":
        """As a dict's, walked in order without asking each cell (Mapping's asked each cell's
        value, a search among a big board's cells: best's guess on a 500x500 board spent
        most of its time there)."""
        return _SharedItems(self)

    def values(self) -> "_SharedValues":
        return _SharedValues(self)

    def pairs(self) -> Iterator[tuple[Hashable, object]]:
        """(cell, value) in order, fast (``items()`` asks cell by cell)."""
        own, shared = self.own, self.shared
        for cell in self.cells:
            yield cell, own.get(cell, shared)

    def groups(self) -> dict:
        """value -> how many cells have it."""
        out: dict = {}
        for value in self.own.values():
            out[value] = out.get(value, 0) + 1
        rest = len(self.cells) - len(self.own)
        if rest:
            out[self.shared] = out.get(self.shared, 0) + rest
        return out

    def where(self, test: Callable[[object], bool]) -> Sequence[Hashable]:
        """The cells whose value passes ``test``, in order (compact where the cells are)."""
        from .constraints import split_cells
        if not test(self.shared):
            return split_cells(self.cells, {c for c, v in self.own.items() if test(v)})[0]
        return split_cells(self.cells, {c for c, v in self.own.items() if not test(v)})[1]

    def map(self, function: Callable[[object], object]) -> "Shared":
        """The same cells with ``function`` applied to every value."""
        return Shared(self.cells, {c: function(v) for c, v in self.own.items()}, function(self.shared))


class _SharedItems(ItemsView):
    """:meth:`Shared.items`: a view whose walk is :meth:`Shared.pairs`."""

    def __iter__(self) -> Iterator[tuple[Hashable, object]]:
        return self._mapping.pairs()


class _SharedValues(ValuesView):
    """:meth:`Shared.values`: each cell's value in order, floating cells' the shared one."""

    def __iter__(self) -> Iterator[object]:
        own, shared = self._mapping.own, self._mapping.shared
        for cell in self._mapping.cells:
            yield own.get(cell, shared)


@dataclass(frozen=True)
class Tally:
    """Exact counts for a problem.

    Counts on large boards are huge integers (tens of thousands of digits)
    that share a huge common factor, the binomial weight of the floating
    cells.  The engines work with that factor taken out: ``scaled_count``
    and ``scaled_mines`` times ``scale`` are the true counts.  Probabilities
    need only the scaled values; :attr:`count` and :attr:`mines` give the
    true integers, computed on first use.

    Attributes:
        scaled_count, scaled_mines: the counts divided by ``scale``.
        frontier: mines k -> placements of the constrained cells with k mines
            that satisfy the rules (before weighting by the floating cells);
            empty where an engine did not compute it.
        scale: the common factor.

    >>> t = Tally(4, {"a": 1, "b": 3})
    >>> t.probability("a"), t.safest(), t.count
    (Fraction(1, 4), ['a'], 4)
    """

    scaled_count: int
    scaled_mines: Mapping[Hashable, int | Fraction]
    frontier: Mapping[int, int] = field(default_factory=dict)
    scale: Fraction = Fraction(1)

    @cached_property
    def count(self) -> int:
        """The number of explanations (placements satisfying everything)."""
        return _exact(self.scaled_count * self.scale)

    @cached_property
    def mines(self) -> Mapping[Hashable, int]:
        """cell -> number of explanations in which it is a mine."""
        if isinstance(self.scaled_mines, Shared):
            return self.scaled_mines.map(lambda v: _exact(v * self.scale))
        return {c: _exact(v * self.scale) for c, v in self.scaled_mines.items()}

    @property
    def consistent(self) -> bool:
        return self.scaled_count > 0

    def probability(self, cell: Hashable) -> Fraction:
        """Exact probability that ``cell`` is a mine (uniform over explanations).

        Raises:
            CellError: ``cell`` is not one of the problem's hidden cells.
            InputError: the problem is inconsistent (no explanation).
        """
        self._need_consistent()
        try:
            mines = self.scaled_mines[cell]
        except (KeyError, TypeError):  # TypeError: an unhashable "cell" such as a list
            raise CellError(f"a hidden cell of the problem (got {cell!r})") from None
        return Fraction(mines) / self.scaled_count

    def _need_consistent(self) -> None:
        if not self.scaled_count:
            raise InputError("an inconsistent problem has no probabilities (count is 0)")

    def cells(self) -> Sequence:
        """The cells, in problem order (a list, or a big board's compact cells)."""
        if isinstance(self.scaled_mines, Shared):
            return self.scaled_mines.cells
        return list(self.scaled_mines)

    def safest(self) -> Sequence:
        """The cells least likely to be mines, in problem order."""
        self._need_consistent()
        if not self.scaled_mines:
            return []
        if isinstance(self.scaled_mines, Shared):
            low = min(self.scaled_mines.groups())
            return self.scaled_mines.where(lambda m: m == low)
        low = min(self.scaled_mines.values())
        return [c for c, m in self.scaled_mines.items() if m == low]

    def probabilities(self) -> dict[Hashable, Fraction]:
        """cell -> its exact mine probability, every cell, in problem order.

        Each distinct value is divided once: a Fraction per cell costs a gcd of
        numbers of thousands of digits on a big board (render --probs on a 1000x1000
        position took 148 s this way against 2.6 s for probs).

        >>> Tally(4, {"a": 1, "b": 3, "c": 1}).probabilities()
        {'a': Fraction(1, 4), 'b': Fraction(3, 4), 'c': Fraction(1, 4)}
        """
        self._need_consistent()
        values = self.scaled_mines
        pairs = values.pairs() if isinstance(values, Shared) else values.items()
        found: dict = {}
        out: dict[Hashable, Fraction] = {}
        for cell, value in pairs:
            p = found.get(value)
            if p is None:
                p = found[value] = Fraction(value) / self.scaled_count
            out[cell] = p
        return out

    def groups(self) -> dict[Fraction, int]:
        """probability -> how many cells have it (a big board's answer at a glance).

        >>> Tally(4, {"a": 1, "b": 3, "c": 1}).groups()
        {Fraction(1, 4): 2, Fraction(3, 4): 1}
        """
        self._need_consistent()
        values = self.scaled_mines
        counts = values.groups() if isinstance(values, Shared) else _count_values(values.values())
        out: dict[Fraction, int] = {}
        for value, n in counts.items():
            p = Fraction(value) / self.scaled_count
            out[p] = out.get(p, 0) + n
        return out

    def expected_mines(self) -> Fraction:
        """Expected number of mines among the cells (sum of probabilities)."""
        self._need_consistent()
        values = self.scaled_mines
        counts = values.groups() if isinstance(values, Shared) else _count_values(values.values())
        return sum((Fraction(v) * n for v, n in counts.items()), Fraction(0)) / self.scaled_count


def _count_values(values) -> dict:
    out: dict = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return out


def _exact(value: Fraction | int) -> int:
    value = Fraction(value)
    if value.denominator != 1:
        raise ArithmeticError(f"a whole count (got {value})")
    return value.numerator


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
    return lo, [sum(map(mul, ca, values[j:j + len(ca)])) for j in range(len(cs))]


def dot(a: Poly, b: Poly) -> int:
    """sum_k a(k) * b(k)."""
    lo, cs = a
    return sum(map(mul, cs, window(b, lo, len(cs))))


# ------------------------------------------------------------------ the world

@dataclass(frozen=True)
class World:
    """How components combine with the floating cells and the total.

    All weights are divided by ``scale`` (see :class:`Tally`).

    Attributes:
        count: explanations in all (scaled).
        weights: per component, the weight of everything else as a function
            of that component's mine count (a Poly over its exponents).
        floating_mines: explanations with one given floating cell a mine
            (scaled; a Fraction in general).
        frontier: the product of the components' polynomials.
        scale: the factor taken out of every weight.
    """

    count: int
    weights: list[Poly]
    floating_mines: int | Fraction
    frontier: Poly
    scale: Fraction


def floating_weights(lo: int, length: int, floating: int, total: int | None) -> tuple[list[int], Fraction]:
    """Placements of the floating cells when the frontier holds k mines.

    Returns ``(w, scale)`` with ``w[i] * scale`` the number of placements for
    ``k = lo + i``: ``C(floating, total - k)``, or ``2**floating`` without a
    total.  Adjacent binomials differ by a small ratio, so the list is built
    by products of small numbers (``math.comb`` on each would cost
    milliseconds apiece on large boards), and the common factor is taken out.

    >>> w, scale = floating_weights(0, 3, 4, 2)   # C(4,2), C(4,1), C(4,0)
    >>> [x * scale for x in w]
    [Fraction(6, 1), Fraction(4, 1), Fraction(1, 1)]
    """
    if total is None:
        return [1] * length, Fraction(2 ** floating)
    # m = total - k floating mines; valid for 0 <= m <= floating.
    m_low = max(0, total - (lo + length - 1))
    m_high = min(floating, total - lo)
    if m_low > m_high:
        return [0] * length, Fraction(1)
    # C(f, m) = C(f, m_low) * prod_{i<m} (f - i) / prod_{i<m} (i + 1), i from m_low;
    # multiply through by prod_{i<m_high} (i + 1) to stay in integers.
    span = m_high - m_low
    rising = [1] * (span + 1)     # prod_{i=m_low}^{m-1} (f - i)
    for j in range(span):
        rising[j + 1] = rising[j] * (floating - m_low - j)
    falling = [1] * (span + 1)    # prod_{i=m}^{m_high-1} (i + 1)
    for j in range(span - 1, -1, -1):
        falling[j] = falling[j + 1] * (m_low + j + 1)
    values = [r * f for r, f in zip(rising, falling)]
    common = reduce(gcd, values)
    scale = Fraction(comb(floating, m_low) * common, falling[0])
    out = [0] * length
    for j, v in enumerate(values):
        out[total - (m_low + j) - lo] = v // common
    return out, scale


def combine(polys: list[Poly], floating: int, total: int | None) -> World:
    """Multiply component polynomials and weigh them by the floating cells.

    A product tree multiplies the polynomials; walking it back down, a
    child's weight correlates its sibling with its parent's weight, so every
    component learns the weight of all the others at the cost of the product.

    >>> w = combine([(0, [1, 2])], floating=2, total=1)  # 1 + 2x, 2 floating, 1 mine
    >>> w.count * w.scale, [int(x) * w.scale for x in w.weights[0][1]], w.floating_mines * w.scale
    (Fraction(4, 1), [Fraction(2, 1), Fraction(1, 1)], Fraction(1, 1))
    """
    big = big_numbers(floating)
    if big is int:
        levels = [list(polys) or [(0, [1])]]
    else:
        levels = [[(lo, [big(c) for c in cs]) for lo, cs in polys] or [(0, [big(1)])]]
    while len(levels[-1]) > 1:
        below = levels[-1]
        levels.append([multiply(below[i], below[i + 1]) if i + 1 < len(below) else below[i]
                       for i in range(0, len(below), 2)])
    product = levels[-1][0]
    lo, cs = product
    outside, scale = floating_weights(lo, len(cs), floating, total)
    if big is not int:
        outside = [big(w) for w in outside]
    weights = [(lo, outside)]
    count = dot(product, weights[0])
    for depth in range(len(levels) - 2, -1, -1):
        nodes, new = levels[depth], []
        for i, poly in enumerate(nodes):
            parent, sibling = weights[i // 2], i ^ 1
            new.append(correlate(nodes[sibling], parent, poly) if sibling < len(nodes) else parent)
        weights = new
    if not floating:
        floating_mines: int | Fraction = 0
    elif total is None:
        floating_mines = Fraction(int(count), 2)
    else:
        # C(f-1, m-1) = C(f, m) * m / f for the m = total - k floating mines.
        floating_mines = Fraction(int(sum(p * w * (total - k) for k, (p, w) in enumerate(zip(cs, outside), start=lo))),
                                  floating)
    return World(int(count), weights if polys else [], floating_mines,
                 (lo, [int(c) for c in cs]), scale)


def rest_weight(polys: list[Poly], floating: int, total: int | None, lo: int, length: int,
                floating_mine: bool = False) -> tuple[Poly, Fraction]:
    """The weight of ``polys`` and the floating cells together, as a function
    of the mines ``lo .. lo+length-1`` held by one more component.

    Returns ``(weight, scale)``: that component's count with the rest is
    ``dot(its poly, weight) * scale``.  One correlation serves every poly
    the component may have (a look-ahead asks for one per number shown).

    >>> weight, scale = rest_weight([(0, [1, 2])], floating=2, total=1, lo=0, length=2)
    >>> [w * scale for w in weight[1]]   # 0 mines: C(2,1) + 2*C(2,0); 1 mine: C(2,0)
    [Fraction(4, 1), Fraction(1, 1)]
    >>> weight, scale = rest_weight([(0, [1, 2])], 2, 1, 0, 2, floating_mine=True)
    >>> [w * scale / 2 for w in weight[1]]   # a given floating cell a mine: C(1,0), none
    [Fraction(1, 1), Fraction(0, 1)]
    """
    product = reduce(multiply, polys, (0, [1]))
    p_lo, cs = product
    w, scale = floating_weights(p_lo + lo, len(cs) + length - 1, floating, total)
    if floating_mine:  # k frontier mines leave total - k floating ones
        w = [x * (total - k) for k, x in enumerate(w, start=p_lo + lo)]
    return correlate(product, (p_lo + lo, w), (lo, [0] * length)), scale


def frontier_counts(product: Poly) -> dict[int, int]:
    """A polynomial as {mines: count}, zero counts left out."""
    lo, cs = product
    return {k: c for k, c in enumerate(cs, start=lo) if c}


# setup.py compiles this file with Cython (why: its NAMES); the build serves only while made
# from this very text (satsweeper.compiled).
COMPILED = take_build(globals(), "tally")
