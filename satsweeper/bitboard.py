"""A small board's determined cells and exact counts, read straight from the grid.

:func:`~satsweeper.reasoning.solve` and :func:`~satsweeper.counting.tally`
on a real position were mostly fixed cost: building a
:class:`~satsweeper.constraints.Problem` (a frozen rule, a frozen clue and a
frozenset per number) and the component engine's bookkeeping (boxes,
components, a plan per box, tuples as DP states) took 0.4-0.7 ms of
``solve`` on expert positions whose DP visits about 85 states.  This module
answers the same questions without those objects:

* the board is read into bytes, a square a byte, of a grid padded by a
  guard column and row; "the flags and hidden squares around every
  number" are a few shifts and additions of that grid as one integer
  (no carry leaves a byte), computed in C, and so is the check that every
  number can hold;
* every set of squares is one Python integer, a bit per square of the same
  padded grid;
* rules, boxes (frontier cells under exactly the same rules) and
  components are small integers and lists; a rule's private box (cells no
  other rule sees) is no step of its own but takes what the rule still
  needs at its last shared box;
* the DP's state (what each open rule still needs) is one integer, six
  bits a rule, so a transition is a subtraction, not a new tuple.

:func:`determined` carries sets of mine numbers and what each box held,
forward only (where the total binds, once more with mine numbers apart),
and answers a :class:`~satsweeper.tally.Shared` mapping;
:func:`tally` carries the component engine's polynomials.  The answers are
those of :func:`~satsweeper.components.determined` and
:func:`~satsweeper.components.tally` on
:func:`~satsweeper.constraints.problem_of` (tested against them and brute
force).  Anything unusual (a contradiction, a DP too wide, a board too big
for whole-board masks to pay) answers None, and the caller takes the
general path, which also names the clues of a contradiction.

Compiled.  ``setup.py`` compiles this file with Cython into
``satsweeper._bitboard_compiled`` when pip installs satsweeper (editable or
not) and a C compiler is there; at its end this module takes the compiled
functions and classes in place of its own, but only while the text they
were built from (carried in the extension as ``_SOURCE``) is this file's,
byte for byte: an edited file runs as Python until the next install, never
as stale compiled code (:mod:`satsweeper.compiled`).  ``SATSWEEPER_PURE=1`` runs it as
Python anyway; :data:`COMPILED` is the compiled module in use, or None.  Why: compiled,
``solve`` spends 0.72-0.88 of the instructions (valgrind, intermediate
positions 643,600 -> 482,700) and determined cells on intermediate
positions went from 1.6-1.95x ms-toollib's time to 1.46-1.56x (median;
docs/peers.txt).  Compiled, the board is read another way: :func:`_scan`
puts every clue, flag and void into a C array of square codes and counts
each number's flags and hidden neighbours by index, under ``if
cython.compiled`` (False as Python, where :func:`_read`'s whole-grid sums
are the faster way; without Cython installed a one-attribute stand-in says
so).  That took a compiled ``solve`` from 468,000 to 330,000 instructions on
intermediate positions (expert 0.72, endgames 0.52 of before; valgrind) and
the ratio to ms-toollib from 1.5 to 1.1-1.2.  The Cython types, all in
annotations Python never evaluates: :func:`_scan`'s squares and codes,
:func:`_forward`'s box and rule numbers, :func:`_group`'s indices; states
and masks stay Python integers of any size.  What is left is object work:
the DP is 46% of a compiled ``solve``, :func:`_scan` 30%, the boxes 8%.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import compress
from math import comb
from operator import mul
from typing import Hashable, Mapping, Sequence

try:  # only Cython reads the types below: annotations of local names are never evaluated
    import cython
except ImportError:  # Cython is needed only to build: as Python, cython.compiled is all this file asks
    from types import SimpleNamespace
    cython = SimpleNamespace(compiled=False)

from .board import Board, grid
from .compiled import take_build
from .components import _mine_ways, _ways, with_total
from .tally import Poly, Shared, Tally, accumulate, combine, frontier_counts, window

# Whole-board masks cost a word per 30 squares in every operation: past this
# many squares the general path (numpy on big boards) is the better one.
MAX_AREA = 4096

_FIELD = 6                # bits per rule in a DP state
_LOW = (1 << _FIELD) - 1  # one field


class _Shape:
    """Per board size, built once: the padded bit layout and its tables.

    Square (r, c) is bit ``(r + 1) * stride + c + 1`` with ``stride = width
    + 1``: column 0 of every padded row is a guard that no mask ever sets,
    so shifting a mask by 1, ``stride`` or ``stride +- 1`` moves every
    square onto its neighbour and never wraps onto another real square.
    """

    __slots__ = ("stride", "cells", "bit", "cell_at", "ring", "offsets", "size", "guards",
                 "template", "codes", "down", "low_nibbles", "bias", "twice_bias", "sevens")

    def __init__(self, height: int, width: int) -> None:
        stride = width + 1
        self.stride = stride
        self.cells = grid(height, width)[0]
        index = {cell: (cell[0] + 1) * stride + cell[1] + 1 for cell in self.cells}
        self.bit = {cell: 1 << i for cell, i in index.items()}
        size = (height + 2) * stride + 1
        self.size = size
        self.guards = size - len(index)
        self.cell_at: list = [None] * size
        for cell, i in index.items():
            self.cell_at[i] = cell
        # Every padded square in bit order, a cell hidden until read, a guard
        # void; guards are keys no board can name.
        self.template = {object() if cell is None else cell: _VOID if cell is None else _HIDDEN
                         for cell in self.cell_at}
        self.codes = bytes(self.template.values())  # the same, as the grid :func:`_scan` starts from
        ones = int.from_bytes(b"\x01" * size, "little")
        self.low_nibbles = 0x0F * ones
        self.bias = 0x40 * ones
        self.twice_bias = 0x80 * ones
        self.sevens = 0x7F * ones
        ring = 0b111 | 0b101 << stride | 0b111 << 2 * stride  # the 8 neighbours of bit stride + 1
        self.down = 8 * stride  # a row down, a byte per square
        # The neighbours of a square p, shifted down by p - stride - 1, lie on
        # ``ring``: a dict of the 256 ways to fill it gives their offsets from p
        # (one lookup; squeezing the ring to 8 bits for a table cost more).
        self.ring = ring
        spots = (0, 1, 2, stride, stride + 2, 2 * stride, 2 * stride + 1, 2 * stride + 2)
        self.offsets = {sum(1 << spot for k, spot in enumerate(spots) if pattern >> k & 1):
                        tuple(spot - stride - 1 for k, spot in enumerate(spots) if pattern >> k & 1)
                        for pattern in range(256)}


@lru_cache(maxsize=16)
def _shape(height: int, width: int) -> _Shape:
    return _Shape(height, width)


def _bits(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``, lowest first.

    A byte at a time through a table: the usual ``mask & -mask`` loop makes
    two whole-board integers per bit, three times slower on 180 bits (and
    faster on a handful, where the bytes would be mostly zeros).
    """
    out = []
    if mask.bit_count() <= 8:
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out
    for i, byte in enumerate(mask.to_bytes((mask.bit_length() + 7) >> 3, "little")):
        if byte:
            i <<= 3
            for b in _BYTE_BITS[byte]:
                out.append(i + b)
    return out


_ZERO_ONE = bytes.maketrans(b"01", b"\x00\x01")
_BYTE_BITS = tuple(tuple(b for b in range(8) if byte >> b & 1) for byte in range(256))


def _boxes(board: Board):
    """What :func:`determined` and :func:`tally` start from, or None to decline:
    the shape, the hidden squares' mask, the rules (``needs``, ``room``), the
    boxes and their rule keys, the shared boxes, each rule's private box
    (-1: none), the boxes' sizes, each rule's shared boxes, the size of
    its private box (0: none) and the rules no other rule shares a cell with.

    A box under one rule only (its private cells) is no step of the DP:
    the rule's last shared box leaves it whatever the rule still needs.
    """
    if board.height * board.width > MAX_AREA:
        return None
    shape = _shape(board.height, board.width)
    if cython.compiled:  # square by square in C; as Python, _read's whole-grid sums are faster
        scanned = _scan(board, shape)
        if scanned is not None:
            return (shape, scanned[0]) + _group(*scanned[1:])
    read = _read(board, shape)
    if read is None:
        return None
    return (shape, read[0]) + _rules(shape, *read)


def determined(board: Board, max_states: int | None = None,
               words: tuple = (True, False, None)) -> Mapping[Hashable, object] | None:
    """Every hidden cell -> mine, safe or undetermined (``words``), in row-major order:
    a :class:`~satsweeper.tally.Shared` mapping (the cells whose word is the
    floating cells' share it).

    None when this path does not answer: the board is inconsistent, too
    big, or a DP layer would pass ``max_states``.  The caller then asks the
    general engine (same answers, slower; it also names the clues of a
    contradiction).

    >>> from satsweeper.textio import parse_board
    >>> dict(determined(parse_board("mines: 2\\n1..\\n")))
    {(0, 1): True, (0, 2): True}
    >>> dict(determined(parse_board("mines: 1\\n1..\\n")))
    {(0, 1): True, (0, 2): False}
    >>> determined(parse_board("12\\n..\\n")) is None  # no explanation
    True
    """
    found = _boxes(board)
    if found is None:
        return None
    shape, hidden, needs, room, boxes, keys, shared, private_box, sizes, rule_boxes, space, alone = found
    mine, safe, unknown = words
    # A component's DP answers one integer: its marks (see _forward) above
    # ``low``, its mine numbers below (no component has more mines than the
    # frontier has cells).
    low = sum(sizes) + 1
    ones = (1 << low) - 1
    masks, passes = [], []
    # Per rule, shared by the components (each rule is in one): the lowest
    # bit of its field in the DP's states (0: no DP met it), and the cells it
    # has not placed yet.
    bit_of, left_of = [0] * len(needs), room[:]
    seen = [False] * len(keys)  # by box: reached by a search
    for start in shared:
        if seen[start]:
            continue
        seen[start] = True
        order = [start]  # grows as _forward reaches the component's boxes
        forward = _forward(order, keys, sizes, needs, space, private_box, rule_boxes, seen,
                           bit_of, left_of, low, max_states)
        if forward is None:
            return None  # too wide for this path
        mask = forward[0] & ones
        if not mask:
            return None  # no placement satisfies these rules
        masks.append(mask)
        passes.append((order, forward))
    for r in alone:  # a number alone: its hidden neighbours hold exactly its need
        masks.append(1 << needs[r])
    floating = hidden.bit_count() - sum(sizes)
    allowed, floating_status = with_total(
        masks, floating, None if board.total_mines is None else board.total_mines - len(board.flags), words)
    if allowed is None:
        return None
    cell_at = shape.cell_at
    # Only cells whose word differs from the floating cells' get an entry (on
    # a stuck position, the few determined ones); the others share one, and
    # the hidden cells are listed when first asked for (hashing every cell
    # into a dict cost more than the count on expert positions).
    own: dict = {}
    by_seen = (None, mine, safe, unknown)  # held a mine (bit 0), was not full (bit 1)
    for (order, (value, their_boxes, top)), fits, mask in zip(passes, allowed, masks):
        if fits & mask != mask:  # the total takes mine numbers away: again, mine numbers apart
            value, their_boxes, _ = _forward(order[:], keys, sizes, needs, space, private_box, rule_boxes, seen,
                                             [0] * len(needs), room[:], low, None, fits, top)
        value >>= low
        for b in their_boxes:
            verdict = by_seen[value & 3]
            value >>= 2
            if verdict is not floating_status:
                for q in boxes[b]:
                    own[cell_at[q]] = verdict
    for r in alone:
        need = needs[r]
        verdict = safe if need == 0 else mine if need == room[r] else unknown
        if verdict is not floating_status:
            for q in boxes[private_box[r]]:
                own[cell_at[q]] = verdict
    return Shared(_Hidden(hidden, shape), own, floating_status)


class _Hidden(Sequence):
    """A read board's hidden cells in row-major order, as a sequence: made into
    tuples when first walked; ``in`` and ``len`` ask the mask.

    >>> cells = _Hidden(0b1000100000, _shape(2, 3))
    >>> list(cells), len(cells), (1, 0) in cells, (0, 1) in cells
    ([(0, 0), (1, 0)], 2, True, False)
    """

    __slots__ = ("mask", "shape", "_cells")

    def __init__(self, mask: int, shape: _Shape) -> None:
        self.mask = mask
        self.shape = shape
        self._cells: list | None = None

    def _list(self) -> list:
        if self._cells is None:
            self._cells = _cells(self.mask, self.shape.cell_at)
        return self._cells

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __getitem__(self, index):
        return self._list()[index]

    def __iter__(self):
        return iter(self._list())

    def __contains__(self, cell) -> bool:
        return bool(self.shape.bit.get(cell, 0) & self.mask)

    def __eq__(self, other) -> bool:
        if isinstance(other, (list, tuple, _Hidden)):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"_Hidden({self._list()!r})"

    def __reduce__(self):  # pickled as the plain list, not the shape's tables
        return list, (self._list(),)


def _forward(order: list[int], keys: list[tuple[int, ...]], sizes: list[int], needs: list[int],
             space: list[int], private_box: list[int], rule_boxes: list[list[int]], seen: list[bool],
             bit_of: list[int], left_of: list[int], low: int, max_states: int | None,
             fits: int | None = None, unit: int = 0) -> tuple[int, list[int], int] | None:
    """The frontier DP of one component over its shared boxes, forward, found
    breadth first as it goes: (one integer, the component's mine numbers in
    its ``low`` bits, what its boxes showed above them; its boxes in the order
    of those marks; the bit above its fields), or None when a layer passes
    ``max_states``.

    ``order`` holds the component's first box, marked in ``seen`` (by box);
    a rule's boxes are queued when the DP first meets the rule, as
    :func:`_bfs` would, so its steps are worked out as it goes: no search,
    no step tuples (building :func:`_plan`'s cost more than the DP on expert
    positions).  A rule closes at its last shared box, where its cells not
    placed yet are its private box's (``space``, 0: none).

    A state is one integer: each open rule has a field of :data:`_FIELD`
    bits holding the mines it still needs.  At a rule's last shared box its
    private box takes what is left, and the field is freed for a later
    rule.  Whether m mines fit in a box is two additions on the whole state
    (see :func:`_plan`).  Each state maps to one integer: below ``low``, its
    mine numbers so far as a bitmask (m more mines: add it times 2**m - 1);
    above, what the boxes so far were on some way to it (bit 2j set if the
    j-th box held a mine, bit 2j + 1 if it was not full).  Ways into a state
    merge by ``|``.  The last layer's one state is every placement.  A
    rule's private box is listed only if it has one (one without adds no
    mines and shows nothing).  ``bit_of`` (the lowest bit of a rule's field,
    0: none yet) and ``left_of`` (cells not placed yet) are per rule, lists,
    updated for the component's rules.

    With ``fits`` (the mine numbers the total leaves the component, and
    ``order`` whole) a state also carries its mines so far times ``unit``
    (the first pass's bit above its fields), and the marks are those of the
    placements whose mine number fits (no walk back).
    """
    free: list[int] = []  # the lowest bits of fields closed rules left
    fresh = 1  # the lowest bit of the next new field
    mark = low  # where the next box's marks go
    ones = (1 << low) - 1
    their_boxes: list[int] = []
    layer = {0: 1}  # no mines yet, no marks
    # Box and rule numbers as C integers when compiled: the lists are indexed
    # without making Python integers (4% fewer instructions per solve).
    b: cython.Py_ssize_t
    r: cython.Py_ssize_t
    other: cython.Py_ssize_t
    for b in order:  # the list grows while it is walked: a queue
        size = sizes[b]
        opened = take = clear = one = at_most = 0
        closing, cleared = [], []
        twice = mark
        mark += 2
        their_boxes.append(b)
        for r in keys[b]:
            bit = bit_of[r]
            if not bit:  # first met: a field, and its boxes queued
                if free:
                    bit = free.pop()
                else:
                    bit = fresh
                    fresh <<= _FIELD
                bit_of[r] = bit
                opened += needs[r] * bit
                for other in rule_boxes[r]:
                    if not seen[other]:
                        seen[other] = True
                        order.append(other)
            left = left_of[r] = left_of[r] - size
            one += bit
            at_most -= left * bit
            if left == space[r]:  # its last shared box
                clear += bit
                cleared.append(bit)
                if left:
                    closing.append((bit.bit_length() - 1, mark, left))
                    their_boxes.append(private_box[r])
                    mark += 2
            else:
                take += bit
        free += cleared  # for a later rule
        guard = one << _FIELD - 1
        at_most += guard - one  # 31 - left a field
        keep = ~(clear * _LOW)
        closes = len(closing)
        nxt: dict[int, int] = {}
        get = nxt.get
        if size == 1 and not closing:  # the commonest step, unrolled: m is 0 or 1, no private box
            empty, full = 2 << twice, 1 << twice
            fill, fit = guard - one, at_most - one
            for state, value in layer.items():
                state += opened
                base = state & keep
                if not state + at_most & guard:
                    nxt[base] = get(base, 0) | value | empty
                if state + fill & guard == guard and not state + fit & guard:
                    base += unit - take
                    nxt[base] = get(base, 0) | value + (value & ones) | full
        elif size == 1:  # m is 0 or 1
            empty, full = 2 << twice, 1 << twice
            fill, fit = guard - one, at_most - one
            for state, value in layer.items():
                state += opened
                left = private = 0
                for shift, at, room in closing:  # what the private boxes take, and show
                    n = state >> shift & _LOW
                    left += n
                    private |= ((n > 0) | (n < room) << 1) << at
                base = state & keep
                if not state + at_most & guard:
                    key = base + left * unit
                    nxt[key] = get(key, 0) | value + (value & ones) * ((1 << left) - 1) | empty | private
                if state + fill & guard == guard and not state + fit & guard:
                    left += 1 - closes  # one mine here, one fewer in each private box
                    base += left * unit - take
                    private = 0
                    for shift, at, room in closing:
                        n = (state >> shift & _LOW) - 1
                        private |= ((n > 0) | (n < room) << 1) << at
                    nxt[base] = get(base, 0) | value + (value & ones) * ((1 << left) - 1) | full | private
        else:
            marks = [(m > 0) << twice | (m < size) << twice + 1 for m in range(size + 1)]
            for state, value in layer.items():
                state += opened
                left = 0
                for shift, _, _ in closing:
                    left += state >> shift & _LOW
                base = state & keep
                mines = value & ones
                for m in range(size + 1):
                    if state + guard - m * one & guard != guard or state + at_most - m * one & guard:
                        continue
                    now = value | marks[m]
                    for shift, at, room in closing:
                        n = (state >> shift & _LOW) - m
                        now |= ((n > 0) | (n < room) << 1) << at
                    placed = left + m - m * closes
                    new = base - m * take + placed * unit
                    nxt[new] = get(new, 0) | now + mines * ((1 << placed) - 1)
        if max_states is not None and len(nxt) > max_states:
            return None
        layer = nxt
    if fits is None:
        return layer.get(0, 0), their_boxes, fresh
    # every state left is a mine number times ``unit``
    value = 0
    for mines in layer.values():
        value |= mines if mines & fits else mines & ones
    return value, their_boxes, fresh


def tally(board: Board) -> Tally | None:
    """Exact counts of a small board, read from its grid: what
    :func:`satsweeper.components.tally` gives on its problem, in the same
    order and scale, without the rule objects.

    The count runs over the same steps as :func:`determined`'s DP (private
    boxes folded into their rule's last shared box, one-int states), with a
    polynomial in the mines placed so far per state, as the component engine
    keeps them; :func:`~satsweeper.tally.combine` then weighs the components
    and the floating cells.  None where :func:`determined` declines, and on a
    board without explanation: the general path gives those.

    >>> from satsweeper.textio import parse_board
    >>> t = tally(parse_board("mines: 1\\n1..\\n"))
    >>> t.count, t.probability((0, 1)), t.probability((0, 2))
    (1, Fraction(1, 1), Fraction(0, 1))
    """
    found = _boxes(board)
    if found is None:
        return None
    shape, hidden, needs, room, boxes, keys, shared, private_box, sizes, rule_boxes, _, _ = found
    shift_of, last = [-1] * len(needs), [0] * len(needs)
    counts = [_Count(order, _plan(order, keys, sizes, needs, room, private_box, shift_of, last))
              for order in _components(shared, keys, rule_boxes)]
    alone = [r for r, shift in enumerate(shift_of) if shift < 0]  # a number whose cells no other sees
    polys = [dp.poly for dp in counts] + [(needs[r], [comb(room[r], needs[r])]) for r in alone]
    if not all(cs and any(cs) for _, cs in polys):
        return None
    total = board.total_mines
    world = combine(polys, hidden.bit_count() - sum(sizes),
                    None if total is None else total - len(board.flags))
    if not world.count:
        return None
    # As in Components.tally: a floating cell's value is a fraction of the
    # count; scaling every value by its denominator keeps them ints.
    floating = Fraction(world.floating_mines)
    d = floating.denominator
    cell_at = shape.cell_at
    values = dict.fromkeys(_cells(hidden, cell_at), floating.numerator)
    mines: dict[int, int] = {}  # box -> explanations with a given cell of it a mine
    for dp, weight in zip(counts, world.weights):
        dp.marginals(weight, mines)
    for r, weight in zip(alone, world.weights[len(counts):]):
        k = needs[r]
        mines[private_box[r]] = comb(room[r] - 1, k - 1) * window(weight, k, 1)[0] if k else 0
    for b, value in mines.items():
        value *= d
        for q in boxes[b]:
            values[cell_at[q]] = value
    return Tally(world.count * d, values, frontier_counts(world.frontier), world.scale / d)


class _Count:
    """:func:`_forward`'s steps with counts: per state, the placements so far as a
    polynomial in their mines ``[lo, coefficients]`` (as the component engine
    keeps them); ``poly`` is the component's, by its number of mines."""

    __slots__ = ("order", "steps", "layers", "poly")

    def __init__(self, order: list[int], steps: list[tuple]) -> None:
        self.order = order
        self.steps = steps
        layer: dict[int, list] = {0: [0, [1]]}
        layers = [layer]
        for size, opened, keep, take, closing, guard, at_most, one, _ in steps:
            nxt: dict[int, list] = {}
            get = nxt.get
            ways = _ways(size)
            if size == 1 and not closing:  # the common step, unrolled: weights 1, m is 0 or 1
                for state, (lo, cs) in layer.items():
                    state += opened
                    base = state & keep
                    if not state + at_most & guard:
                        target = get(base)
                        if target is None:
                            nxt[base] = [lo, cs[:]]
                        else:
                            accumulate(target, lo, cs, 1)
                    if state + guard - one & guard == guard and not state + at_most - one & guard:
                        base -= take
                        target = get(base)
                        if target is None:
                            nxt[base] = [lo + 1, cs[:]]
                        else:
                            accumulate(target, lo + 1, cs, 1)
                layer = nxt
                layers.append(layer)
                continue
            for state, (lo, cs) in layer.items():
                state += opened
                base = state & keep
                for m in range(size + 1):
                    if state + guard - m * one & guard != guard or state + at_most - m * one & guard:
                        continue
                    w, placed = ways[m], m
                    for shift, _, room, _ in closing:  # the private boxes take what their rules still need
                        left = (state >> shift & _LOW) - m
                        w *= _ways(room)[left]
                        placed += left
                    new = base - m * take
                    target = get(new)
                    if target is None:
                        nxt[new] = [lo + placed, cs[:] if w == 1 else [c * w for c in cs]]
                    else:
                        accumulate(target, lo + placed, cs, w)
            layer = nxt
            layers.append(layer)
        self.layers = layers
        lo, cs = layer.get(0, (0, [0]))
        self.poly = (lo, cs)

    def marginals(self, weight: Poly, out: dict[int, int]) -> None:
        """Into ``out``, box -> the weighted count of placements with one given cell of
        it a mine, ``weight`` being the rest of the world's by this component's mines;
        for its shared boxes and its rules' private boxes."""
        after: dict[int, Poly] = {0: weight}
        layers, steps, order = self.layers, self.steps, self.order
        for i in range(len(steps) - 1, -1, -1):
            size, opened, keep, take, closing, guard, at_most, one, _ = steps[i]
            ways, mine_ways = _ways(size), _mine_ways(size)
            before: dict[int, Poly] = {}
            box_mine = 0
            private_mine = [0] * len(closing)
            for state, (lo, cs) in layers[i].items():
                s = state + opened
                base = s & keep
                n = len(cs)
                acc = None
                for m in range(size + 1):
                    if s + guard - m * one & guard != guard or s + at_most - m * one & guard:
                        continue
                    g = after.get(base - m * take)
                    if g is None:
                        continue
                    w, placed = 1, m
                    if closing:
                        lefts = [(s >> shift & _LOW) - m for shift, _, _, _ in closing]
                        for (_, _, room, _), left in zip(closing, lefts):
                            w *= _ways(room)[left]
                            placed += left
                    if n == 1:  # most states hold one mine number: scalars, no lists
                        g_lo, g_cs = g
                        j = lo + placed - g_lo
                        v = g_cs[j] if 0 <= j < len(g_cs) else 0
                        acc = [ways[m] * w * v] if acc is None else [acc[0] + ways[m] * w * v]
                        both = cs[0] * v
                    else:
                        values = window(g, lo + placed, n)
                        acc = [ways[m] * w * v for v in values] if acc is None else \
                            [a + ways[m] * w * v for a, v in zip(acc, values)]
                        both = sum(map(mul, cs, values))  # ways in and out through this move
                    if m:
                        box_mine += mine_ways[m] * w * both
                    if closing:
                        for j, ((_, _, room, _), left) in enumerate(zip(closing, lefts)):
                            if left:
                                private_mine[j] += ways[m] * w // _ways(room)[left] * _mine_ways(room)[left] * both
                if acc is not None:
                    before[state] = (lo, acc)
            out[order[i]] = box_mine
            for (_, _, _, b), mines in zip(closing, private_mine):
                if b >= 0:
                    out[b] = mines
            after = before


def _cells(mask: int, cell_at: list) -> list:
    """The cells of ``mask``, in row-major order."""
    if mask.bit_count() > 32:  # a bit per square, as bytes 0 or 1, picks the cells at C speed
        return list(compress(cell_at, bin(mask)[:1:-1].encode().translate(_ZERO_ONE)))
    return list(map(cell_at.__getitem__, _bits(mask)))


def _read(board: Board, shape: _Shape) -> tuple[int, int, bytes] | None:
    """(hidden squares, numbers next to a hidden square, each square's need) or None if
    some number is not 0-8, lies off the board or on a flag, or sees more flags
    than its number or fewer hidden squares than it still needs.

    A square's need (its number less its flags) is byte ``p`` of ``needs``,
    biased by ``0x40``.  The board is read by updating a dict of every padded
    square in bit order: ``dict.update`` reuses the hashes the clue dict
    already holds, where a lookup per number hashes its (row, col) tuple
    again (three times the cost).  Its values, as bytes, are the grid; the
    counts of flags and hidden squares around every square are then a few
    additions of whole grids a byte per square (no carry leaves a byte).
    """
    squares = shape.template.copy()
    squares.update(board.clues)
    flags, voids = board.flags, board.voids
    if flags:
        squares.update(dict.fromkeys(flags, _FLAG))
    if voids:
        squares.update(dict.fromkeys(voids, _VOID))
    if len(squares) != shape.size:  # a key that is no square of the board
        return None
    try:
        grid = bytearray(squares.values())  # faster to make than bytes
    except (TypeError, ValueError):  # not a small int
        return None
    # Every flag and void its own square and every clue a number: two kinds
    # on one square, or a clue 9-11 (the codes below), leaves some count
    # wrong; a clue of 12 or more fails the test of the needs below.
    hidden = int(grid.translate(_HIDDEN_BIT)[::-1], 2)
    if (hidden.bit_count() != len(shape.cells) - len(board.clues) - len(flags) - len(voids)
            or grid.count(_FLAG) != len(flags) or grid.count(_VOID) != shape.guards + len(voids)):
        return None
    near = int.from_bytes(grid.translate(_FLAG_HIDDEN), "little")  # a flag 1, a hidden square 16
    # Sums over each 3x3 block, a row then a column: a number's own square
    # adds nothing, and no byte passes 9 * 16 + 9.
    row = near + (near << 8) + (near >> 8)
    around = row + (row << shape.down) + (row >> shape.down)
    seen_flags = around & shape.low_nibbles
    seen_hidden = around >> 4 & shape.low_nibbles
    numbers = int.from_bytes(grid.translate(_VALUE), "little")  # 0x40 + number at numbers, 0x20 elsewhere
    need = numbers - seen_flags                   # 0x40 + need, 0x38-0x48 at numbers: no borrow
    slack = seen_hidden + shape.twice_bias - need  # 0x40 + hidden - need, 0x38-0x50
    at_numbers = numbers & shape.bias  # 0x40 at each number
    if need & slack & at_numbers != at_numbers:  # need < 0 or need > hidden at some number
        return None
    speaking = (seen_hidden + shape.sevens & at_numbers << 1).to_bytes(shape.size, "little")  # 0x80: speaks
    return hidden, int(speaking.translate(_TOP_BIT)[::-1], 2), need.to_bytes(shape.size, "little")


def _scan(board: Board, shape: _Shape) -> tuple | None:
    """(hidden squares, each rule's need, each rule's room, each frontier square's rules)
    as :func:`_read` and :func:`_rules` find them, or None: read square by square
    into a C array of the grid's codes, for the compiled build (as Python,
    :func:`_read`'s whole-grid sums are faster).  None also where the board is
    not the usual kind (clues in a dict keyed by tuples of two ints, numbers
    ints): :func:`_read` then decides.

    >>> from satsweeper.textio import parse_board
    >>> board = parse_board("mines: 2\\n1..\\n.F.\\n")
    >>> hidden, needs, room, rules_of = _scan(board, _shape(2, 3))
    >>> _cells(hidden, _shape(2, 3).cell_at), needs, room, rules_of
    ([(0, 1), (0, 2), (1, 0), (1, 2)], [0], [2], {6: (0,), 9: (0,)})
    """
    clues = board.clues
    if type(clues) is not dict:
        return None
    height: cython.Py_ssize_t = board.height
    width: cython.Py_ssize_t = board.width
    stride: cython.Py_ssize_t = width + 1
    size: cython.Py_ssize_t = shape.size
    r: cython.Py_ssize_t
    c: cython.Py_ssize_t
    n: cython.Py_ssize_t
    p: cython.Py_ssize_t
    q: cython.Py_ssize_t
    i: cython.Py_ssize_t
    code: cython.Py_ssize_t
    flags: cython.Py_ssize_t
    hidden: cython.Py_ssize_t
    hidden_code: cython.uchar = _HIDDEN  # C constants, not the module's Python ints
    flag_code: cython.uchar = _FLAG
    codes = bytearray(shape.codes)  # hidden at every square, void at the guards
    grid: cython.p_uchar = codes  # a C pointer into it (indices are checked by hand)
    cell: tuple
    try:  # a coordinate too big for a C integer: OverflowError
        for key, value in clues.items():
            if type(key) is not tuple or type(value) is not int:
                return None
            cell = key
            if len(cell) != 2 or type(cell[0]) is not int or type(cell[1]) is not int:
                return None
            r, c, n = cell[0], cell[1], value
            if r < 0 or r >= height or c < 0 or c >= width or n < 0 or n > 8:
                return None
            p = (r + 1) * stride + c + 1
            if grid[p] != hidden_code:
                return None
            grid[p] = n
        for cells, code in ((board.flags, _FLAG), (board.voids, _VOID)):
            for key in cells:
                if type(key) is not tuple:
                    return None
                cell = key
                if len(cell) != 2 or type(cell[0]) is not int or type(cell[1]) is not int:
                    return None
                r, c = cell[0], cell[1]
                if r < 0 or r >= height or c < 0 or c >= width:
                    return None
                p = (r + 1) * stride + c + 1
                if grid[p] != hidden_code:  # two kinds on one square
                    return None
                grid[p] = code
    except OverflowError:
        return None
    # Every number in row-major order (a guard's code is no number; a real
    # square's neighbours all lie inside the padded grid): its need, and a
    # rule if some neighbour is hidden, meeting those neighbours in order.
    needs: list = []
    room: list = []
    rule_at = [None] * size  # the rule at each number that speaks
    met = bytearray(size)
    seen: cython.p_uchar = met
    frontier: list = []  # in the order the rules meet them
    for p in range(stride + 1, size - stride - 1):
        code = grid[p]
        if code > 8:
            continue
        flags = hidden = 0
        for i in range(3):  # a row of three, without branches
            q = p + (i - 1) * stride - 1
            hidden += (grid[q] == hidden_code) + (grid[q + 1] == hidden_code) + (grid[q + 2] == hidden_code)
            flags += (grid[q] == flag_code) + (grid[q + 1] == flag_code) + (grid[q + 2] == flag_code)
        n = code - flags
        if n < 0 or n > hidden:  # too many flags, or too few hidden squares
            return None
        if hidden:
            rule_at[p] = len(needs)
            needs.append(n)
            room.append(hidden)
            for i in range(3):
                q = p + (i - 1) * stride - 1
                for q in range(q, q + 3):
                    if grid[q] == hidden_code and not seen[q]:
                        seen[q] = 1
                        frontier.append(q)
    rules_of: dict = {}
    for q in frontier:  # its rules ascending: its numbers in row-major order
        key = []
        for i in range(3):
            p = q + (i - 1) * stride - 1
            for p in range(p, p + 3):
                rule = rule_at[p]
                if rule is not None:
                    key.append(rule)
        rules_of[q] = tuple(key)
    mask = bytearray((size + 7) >> 3)
    bits: cython.p_uchar = mask
    for p in range(size):
        if grid[p] == hidden_code:
            bits[p >> 3] |= 1 << (p & 7)
    return int.from_bytes(mask, "little"), needs, room, rules_of


# The grid's byte codes: 0-8 a number, then these.
_HIDDEN, _FLAG, _VOID = 9, 10, 11
_FLAG_HIDDEN = bytes(1 if i == _FLAG else 16 if i == _HIDDEN else 0 for i in range(256))
# A number is 0x40 + its value, any other square 0x20 (bit 6 marks the
# numbers).  A code past _VOID (no number: a bad clue) is 0x60 and checked as
# a number: its slack byte, 0x20 + hidden + flags, lacks bit 6, so it fails.
_VALUE = bytes(0x40 + i if i < 9 else 0x60 if i > _VOID else 0x20 for i in range(256))
_HIDDEN_BIT = bytes(0x31 if i == _HIDDEN else 0x30 for i in range(256))
_TOP_BIT = bytes(0x31 if i & 0x80 else 0x30 for i in range(256))


def _rules(shape: _Shape, hidden: int, speaking: int, need_of: bytes) -> tuple:
    """(each rule's need, each rule's hidden squares, each box's squares, each box's rules,
    the shared boxes, each rule's private box and its size, the boxes' sizes, each rule's
    shared boxes, the rules alone): see :func:`_boxes`.

    Rules are numbered in row-major order of their numbers; a box's key is
    the tuple of its rules, ascending.
    """
    offsets = shape.offsets
    corner, ring = shape.stride + 1, shape.ring
    needs: list[int] = []
    room: list[int] = []
    rules_of: dict[int, tuple[int, ...]] = {}
    get = rules_of.get
    for r, p in enumerate(_bits(speaking)):
        cells = offsets[hidden >> p - corner & ring]  # the hidden neighbours' offsets
        needs.append(need_of[p] - 0x40)
        room.append(len(cells))
        for d in cells:
            q = p + d
            rules_of[q] = get(q, ()) + (r,)
    return _group(needs, room, rules_of)


def _group(needs: list[int], room: list[int], rules_of: dict[int, tuple[int, ...]]) -> tuple:
    """:func:`_rules`' answer from each rule's need and room and each frontier square's
    rules (a tuple, ascending), the squares in the order rules first met them."""
    r: cython.Py_ssize_t  # list indices as C integers when compiled
    b: cython.Py_ssize_t
    rules = len(needs)
    box_of: dict[tuple[int, ...], list[int]] = {}
    shared, private = [], []
    private_box = [-1] * rules
    rule_boxes: list[list[int]] = [[] for _ in range(rules)]
    for q, key in rules_of.items():
        members = box_of.get(key)
        if members is None:
            b = len(box_of)
            box_of[key] = [q]
            if len(key) > 1:
                shared.append(b)
                for r in key:
                    rule_boxes[r].append(b)
            else:
                private_box[key[0]] = b
                private.append(key[0])
        else:
            members.append(q)
    boxes = list(box_of.values())
    space = [0] * rules
    alone = []
    for r in private:
        space[r] = len(boxes[private_box[r]])
        if not rule_boxes[r]:
            alone.append(r)
    return (needs, room, boxes, list(box_of), shared, private_box, list(map(len, boxes)), rule_boxes, space,
            alone)


def _components(shared: Sequence[int], keys: list[tuple[int, ...]],
                rule_boxes: list[list[int]]) -> list[list[int]]:
    """The boxes of ``shared`` in independent components, each in breadth-first
    order from a far end, for :func:`tally`.

    A first search starts from the component's first box, which holds a
    cell of its first number in row-major order; a component of more than
    two boxes is searched again from the last box reached, a far end (what
    :func:`satsweeper.components._components` does): that pays for a
    polynomial per state.  (:func:`determined` keeps the first order: the
    second search cost about what it saved.)
    """
    rules = len(rule_boxes)
    seen = [False] * len(keys)  # by box; a second search gets its own
    out = []
    for start in shared:
        if seen[start]:
            continue
        order = _bfs(start, keys, rule_boxes, seen, [False] * rules)
        if len(order) > 2:
            order = _bfs(order[-1], keys, rule_boxes, [False] * len(keys), [False] * rules)
        out.append(order)
    return out


def _bfs(start: int, keys: list[tuple[int, ...]], rule_boxes: list[list[int]], seen: list[bool],
         used: list[bool]) -> list[int]:
    """The boxes reached from ``start`` in breadth-first order, marked in ``seen`` (by box);
    ``used`` marks the rules whose boxes were queued."""
    order = [start]
    seen[start] = True
    for b in order:  # the list grows while it is walked: a queue
        for r in keys[b]:
            if not used[r]:
                used[r] = True
                for other in rule_boxes[r]:
                    if not seen[other]:
                        seen[other] = True
                        order.append(other)
    return order


_GUARD = 1 << _FIELD - 1  # the top bit of a field: needs and rooms stay below it


def _plan(order: list[int], keys: list[tuple[int, ...]], sizes: list[int], needs: list[int],
          room: list[int], private_box: list[int], shift_of: list[int], last: list[int]) -> list[tuple]:
    """One step per box of ``order``: (size, what opening rules add to the state,
    the fields kept after it, what one mine takes from the kept fields, the rules
    it closes, then ``guard``, ``at_most`` and ``one``, the masks that bound its
    mines, and what m mines in it show, for each m: see :func:`_forward`).

    A box may hold m mines iff each of its rules still needs at least m and
    at most m more than its room after the box (later boxes and its private
    box).  Over the box's fields, ``guard`` has the top bit of each and
    ``one`` a 1 in each; adding ``guard - m * one`` (32 - m a field) keeps
    the top bit iff need >= m, adding ``at_most - m * one`` (31 - room - m a
    field) sets it iff need > room + m.  Needs and rooms are at most 8, so
    no sum leaves its field.  A closing rule is (its field's shift, where its
    private box's marks go, that box's size, the box or -1).

    ``room`` (each rule's cells not placed yet), ``shift_of`` (-1: no field
    yet) and ``last`` are per rule, shared by the components and updated here.
    """
    for i, b in enumerate(order):
        for r in keys[b]:
            last[r] = i
    free: list[int] = []
    top = 0
    steps = []
    mark = 2 * len(order)  # where the next private box's marks go
    for i, b in enumerate(order):
        size = sizes[b]
        opened = take = clear = guard = at_most = 0
        closing = ()
        for r in keys[b]:
            shift = shift_of[r]
            if shift < 0:
                if free:
                    shift = free.pop()
                else:
                    shift = top
                    top += _FIELD
                shift_of[r] = shift
                opened += needs[r] << shift
            left = room[r] = room[r] - size
            guard += _GUARD << shift
            at_most += _GUARD - 1 - left << shift
            if last[r] == i:
                clear |= _LOW << shift
                p = private_box[r]
                closing += ((shift, mark if p >= 0 else 0, left, p),)
                mark += 2 if p >= 0 else 0
            else:
                take += 1 << shift
        for c in closing:  # cleared after this box: free for a later rule
            free.append(c[0])
        marks = ((2 << 2 * i, 1 << 2 * i) if size == 1 else
                 tuple((m > 0) << 2 * i | (m < size) << 2 * i + 1 for m in range(size + 1)))
        steps.append((size, opened, ~clear, take, closing, guard, at_most, guard >> _FIELD - 1, marks))
    return steps


# Only as satsweeper.bitboard: the compiled module runs this same source under
# its own name, and a test loads this file under another to get the pure path.
COMPILED = take_build(globals(), "bitboard")
