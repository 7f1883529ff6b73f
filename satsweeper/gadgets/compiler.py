"""Compile a Boolean formula into one Minesweeper board (Kaye's reduction, made parsimonious).

The board's explanations correspond to the formula's satisfying assignments:
one free input wire per variable (named after it), the formula's value
forced true at the end.  With the parsimonious gate set every piece has one
explanation per input, so the board has exactly as many explanations as the
formula has models; with Kaye's AND, each AND gate whose inputs are both
false doubles its explanations.

Layout (all wires run right or down):

* the variables' wires run along rows 45 apart at the top (the *bus*), in
  the order that needs the fewest crossings, each from its variable's first
  leaf to its last (the input wire is named after the variable);
* the formula tree hangs below, planar: each leaf forks its variable's wire
  (or turns it down on its last use) and runs down across the wires below
  it, one ``cross`` tile each; a gate is placed below its right operand,
  which falls straight into it, while the left operand turns right under
  the right one's drawing; the gate's output turns down in its turn;
* NOT costs nothing: a wire's flip (which square of each pair is the mine)
  is tracked, and junctions passed straight through flip it where a gate
  input needs it.

Only the variables' distribution crosses wires, so a formula with one
variable needs no crossing at all.

>>> from satsweeper.gadgets.formula import parse_formula
>>> from satsweeper.counting import count
>>> compiled = compile_formula(parse_formula("a & ~b"))
>>> count(compiled.board)
1
"""

from __future__ import annotations

import enum
import itertools
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from ..board import Board
from ..errors import TooComplexError
from .. import components
from ..components import Progress
from ..constraints import problem_of
from ..tally import frontier_counts
from .formula import MAX_TABLE_VARIABLES, Formula, Gate, Node, Not, Op, Var
from .gadget import Gadget, mine_totals
from .layout import Head, Layout, LayoutError, ports
from .balance import balanced_cross, balanced_tile
from .library import cross, gate_tile, mirror
from .sketch import DOWN, RIGHT

__all__ = ["BoardTooLarge", "Compiled", "GateSet", "Size", "bus_order", "compile_formula", "crossings", "estimate"]

PITCH = 45  # rows between the bus's wires: a cross tile reaches 25 rows above the wire it crosses
ROOM = 32   # squares a wire needs before a port: five junctions (any phase and flip), pairs either side
SPACE = ROOM + 10  # columns between a subtree and the next leaf: the gate's left input runs there


class GateSet(enum.Enum):
    """Which gadget computes AND and OR (the other by De Morgan; XOR is Pedersen's in all).

    ``balanced`` is the parsimonious set with every tile (the crossing too)
    given a twin and a compensator (see :mod:`.balance`): every explanation
    of the board holds the same number of mines, so the count survives the
    total mine count a ``.mine`` file carries.
    """

    PARSIMONIOUS = "parsimonious"  # Pedersen's OR: one explanation per input
    KAYE = "kaye"                  # Kaye's AND: two explanations when both inputs are false
    BALANCED = "balanced"          # Pedersen's OR, one explanation and one mine total per input

    def tile(self, op: Op) -> str:
        if op is Op.XOR:
            return "xor"
        return "and" if self is GateSet.KAYE else "or"

    def gate(self, kind: str) -> Gadget:
        """The gate tile for ``kind`` in this set (as drawn, inputs from the left and below)."""
        return balanced_tile(kind) if self is GateSet.BALANCED else gate_tile(kind)

    def cross(self) -> Gadget:
        """The crossing tile of this set."""
        return balanced_cross() if self is GateSet.BALANCED else cross()


@dataclass(frozen=True)
class Compiled:
    """A compiled formula: the board and what it is made of."""

    formula: Formula
    gates: GateSet
    board: Board
    crossings: int
    tiles: dict[str, int] = field(default_factory=dict)
    order: tuple = ()  # the hidden cells in a good order to count them (Layout.order)

    @cached_property
    def models(self) -> int | None:
        """The formula's models by its truth table; None beyond MAX_TABLE_VARIABLES variables."""
        return self.formula.models() if len(self.formula.variables) <= MAX_TABLE_VARIABLES else None

    @cached_property
    def hidden(self) -> int:
        """Hidden squares of the board (counted once: a large board has millions of squares)."""
        return len(self.board.hidden_cells())

    def explanations(self, progress: Progress | None = None) -> int:
        """The board's explanations, counted by the component engine (in the layout's sweep order)."""
        return components.count(problem_of(self.board), self.order, progress)

    def mine_totals(self, progress: Progress | None = None) -> dict[int, int]:
        """Mines on the board (flags included) -> explanations with that many (one forward pass)."""
        frontier, floating = components.by_mines(problem_of(self.board), self.order, progress)
        if frontier is None:
            return {}
        flags = len(self.board.flags)
        totals = mine_totals(frontier_counts(frontier) or {0: 1}, floating)
        return {flags + k: n for k, n in totals.items() if n}

    def with_total(self, totals: dict[int, int] | None = None) -> tuple[Board, str]:
        """The board with a total mine count (a ``.mine`` file needs one), and what the total means.

        The total is the one every explanation has, when they agree; else
        the smallest one's (the count then drops to the explanations with
        that many mines).  ``totals``: :meth:`mine_totals`, if the caller
        has it already (it costs a count).
        """
        totals = self.mine_totals() if totals is None else totals
        b = self.board
        if not totals:
            total, why = len(b.flags), "no explanation exists; the total is the flags"
        elif len(totals) == 1:
            total, why = next(iter(totals)), "every explanation has this many mines"
        else:
            total = min(totals)
            why = (f"explanations differ in mines ({', '.join(f'{k}: {n}' for k, n in totals.items())}); "
                   f"the total is the smallest, which keeps {totals[total]} of them")
        return Board(b.height, b.width, b.clues, b.flags, b.voids, b.names, total), why


# What a board costs, per gate set: columns per leaf and per crossing (fitted
# by least squares on 25 formulas: random formulas, full trees, parity,
# 3-CNF); rows a gate adds below its right operand and below its left one,
# and rows below the tree (from chains of 8 variables nested right and
# left); hidden squares per leaf and per crossing (fitted as the columns).
# A bus wire live for one leaf costs 2/3 of that leaf's columns in hidden
# squares, and a leaf's drop 2/3 of the pitch per bus wire it passes.
_COST = {
    "parsimonious": ((77.9, 59.2), (40, 5, 50), (37.3, 596.5)),
    "kaye": ((71.7, 57.0), (40, 5, 50), (38.4, 586.9)),
    "balanced": ((193.0, 64.2), (120, 10, 130), (353.7, 920.5)),
}
# The estimate's error (tests/test_compile_limits.py): cells within a factor
# of 3 of the drawn board's either way, hidden squares within 4.  A board is refused before
# drawing only when even the smallest size the estimate allows is too big.
ESTIMATE_FACTOR = 3.0
# Peak memory per square of compiling and writing a .mine: 914 MB for a
# 13503x552 board (7.45 million squares; /usr/bin/time -v, a random 3-CNF of
# 6 variables and 24 clauses, --no-count -o x.mine, November 2026; 2.0 GB
# before the board kept its squares compactly).  The board keeps a number
# for every revealed square.
BYTES_PER_SQUARE = 125
# The default --max-cells: about 3.1 GB at the rate above, and about two
# minutes of drawing (39 s for the board above), so that a 24 GB machine
# shared with other work neither swaps nor waits long.
MAX_CELLS = 25_000_000


@dataclass(frozen=True)
class Size:
    """A board's size: squares (cells), hidden squares and rough peak memory.

    >>> Size(100, 200, 900, exact=True).text()
    '200x100 (WIDTHxHEIGHT) = 20,000 squares, 900 hidden, about 2.5 MB'
    """

    height: int
    width: int
    hidden: int
    exact: bool = False

    @property
    def cells(self) -> int:
        return self.height * self.width

    @property
    def memory(self) -> int:
        """Rough peak bytes of compiling it and writing it out (:data:`BYTES_PER_SQUARE`)."""
        return self.cells * BYTES_PER_SQUARE

    def text(self) -> str:
        about = "" if self.exact else "about "
        return (f"{about}{self.width}x{self.height} (WIDTHxHEIGHT) = {self.cells:,} squares, "
                f"{about}{self.hidden:,} hidden, about {_bytes(self.memory)}")

    def json(self) -> dict:
        return {"height": self.height, "width": self.width, "cells": self.cells, "hidden": self.hidden,
                "memory": self.memory, "exact": self.exact}


def _bytes(n: int) -> str:
    for unit, size in (("GB", 10 ** 9), ("MB", 10 ** 6)):
        if n >= size:
            return f"{n / size:.1f} {unit}".replace(".0 ", " ")
    return f"{n // 1000} kB"


class BoardTooLarge(TooComplexError):
    """The board would not fit: its (estimated or drawn) size is over the limit."""

    def __init__(self, size: Size, limit: int):
        self.size, self.limit = size, limit
        when = "drawn layout" if size.exact else "estimate, before drawing"
        super().__init__(f"a board of at most {limit:,} squares (--max-cells; "
                         f"the {when}: {size.text()})")


def _rows(node: Node, right: float, left: float) -> float:
    """Rows the tree hangs below the bus: a gate sits below its right operand, its left one turns in."""
    if isinstance(node, Not):
        return _rows(node.arg, right, left)
    if isinstance(node, Gate):
        return max(_rows(node.right, right, left) + right, _rows(node.left, right, left) + left)
    return 0


def estimate(formula: Formula, gates: GateSet = GateSet.PARSIMONIOUS) -> Size:
    """The board's size from the formula alone, before anything is drawn.

    Width from the leaves and the crossings the bus order costs, height
    from the bus (one wire per variable) and the tree's shape, hidden
    squares from the leaves, crossings, how long bus wires stay live and
    how far leaves drop (constants per gate set, see :data:`_COST`; within
    a factor of about 3 either way, :data:`ESTIMATE_FACTOR`).

    >>> from satsweeper.gadgets.formula import parse_formula
    >>> e = estimate(parse_formula("a ^ b"))
    >>> e.exact, 100 < e.width < 400, 50 < e.height < 300
    (False, True, True)
    """
    root = formula.root
    if isinstance(root, bool):
        return Size(1, 1, 0)
    (per_leaf, per_cross), (right, left, below), (h_leaf, h_cross) = _COST[gates.value]
    leaves = _leaf_order(root)
    order = bus_order(formula.variables, leaves)
    crossed = crossings(order, leaves)
    position = {name: k for k, name in enumerate(order)}
    first, last = {}, {}
    for i, name in enumerate(leaves):
        first.setdefault(name, i)
        last[name] = i
    live = sum(last[v] - first[v] for v in first)
    drops = sum(len(order) - 1 - position[v] for v in leaves)
    pitch = _spacing(gates)[1]
    width = per_leaf * len(leaves) + per_cross * crossed
    height = pitch * (len(formula.variables) - 1) + _rows(root, right, left) + below
    hidden = h_leaf * len(leaves) + h_cross * crossed + (per_leaf * live + pitch * drops) * 2 / 3
    return Size(max(1, round(height)), max(1, round(width)), max(1, round(hidden)))


@dataclass
class _Line:
    """A bus wire: mines on second squares = the variable's value XOR head.flip."""

    head: Head
    name: str

    @property
    def row(self) -> int:
        return self.head.cell[0]


def _polarity(tile: Gadget, op: Op) -> tuple[bool, bool, bool]:
    """(a, b, c) with t = op(l ^ a, b ^ b') ^ c for the tile's claim, found by evaluating it."""
    gate = {Op.AND: lambda x, y: x and y, Op.OR: lambda x, y: x or y, Op.XOR: lambda x, y: x != y}[op]
    for a, b, c in itertools.product((False, True), repeat=3):
        if all(tile.expected((x, y))["t"] == (gate(x != a, y != b) != c)
               for x, y in itertools.product((False, True), repeat=2)):
            return a, b, c
    raise LayoutError(f"tile {tile.name} does not compute {op.name} under any negations")


def _leaf_order(node: Node) -> list[str]:
    if isinstance(node, Var):
        return [node.name]
    if isinstance(node, Not):
        return _leaf_order(node.arg)
    if isinstance(node, Gate):
        return _leaf_order(node.left) + _leaf_order(node.right)
    return []


def crossings(order: tuple[str, ...], leaves: list[str]) -> int:
    """Crossings a bus in ``order`` (top first) costs.

    A variable's wire lives from its first leaf to its last; each leaf
    crosses the live wires below its variable's.

    >>> crossings(("a", "b"), ["b", "a", "b"]), crossings(("b", "a"), ["b", "a", "b"])
    (1, 0)
    """
    first, last = {}, {}
    for i, name in enumerate(leaves):
        first.setdefault(name, i)
        last[name] = i
    position = {name: k for k, name in enumerate(order)}
    return sum(1 for i, name in enumerate(leaves) for other in first
               if position[other] > position[name] and first[other] < i < last[other])


def bus_order(variables: tuple[str, ...], leaves: list[str]) -> tuple[str, ...]:
    """The bus order with the fewest crossings (every order up to 7 variables, else by first use)."""
    used = [v for v in dict.fromkeys(leaves)]
    unused = tuple(v for v in variables if v not in used)
    if len(used) > 7:
        return unused + tuple(used)
    best = min(itertools.permutations(used), key=lambda order: crossings(order, leaves))
    return unused + best


@lru_cache(maxsize=None)
def _gate_tile(kind: str, gates: GateSet) -> tuple[Gadget, dict, tuple[bool, bool, bool]]:
    """A gate tile upside down (input b enters from above), its ports and its negations."""
    tile = mirror(gates.gate(kind))
    return tile, ports(tile), _polarity(tile, Op[kind.upper()])


@lru_cache(maxsize=None)
def _spacing(gates: GateSet) -> tuple[int, int]:
    """Extra columns between subtrees and rows between bus wires that the set's tiles need.

    A tile reaches left of the wire it is placed under by its upper input's
    column (the crossing's ``a``, a gate's ``b``); the plain tiles were
    drawn with that at most 4, and the 45 rows between bus wires hold the
    plain crossing with room to spare (13 rows below it).
    """
    crossing = ports(gates.cross())
    reach = max([crossing["a"].cell[1]] + [ports(gates.gate(kind))["b"].cell[1] for kind in ("or", "xor", "and")
                                          if gates is GateSet.KAYE or kind != "and"])
    return max(0, reach - 4), max(PITCH, gates.cross().board.height + 13)


class _Compiler:
    def __init__(self, formula: Formula, gates: GateSet) -> None:
        self.formula = formula
        self.gates = gates
        self.layout = Layout()
        self.crossings = 0
        self.tiles: dict[str, int] = {}
        leaves = _leaf_order(formula.root)
        self.remaining = {v: leaves.count(v) for v in formula.variables}
        # A variable's wire starts at its first leaf and ends at its last (or
        # is a closed stub on the left if the variable does not occur).
        self.bus: dict[str, _Line] = {}
        self.spread, pitch = _spacing(gates)
        self.rows = {name: index * pitch for index, name in enumerate(bus_order(formula.variables, leaves))}
        for name, row in self.rows.items():
            if self.remaining[name] == 0:
                head = self.layout.start(row, 0, name)
                self.layout.close(self.layout.straight(head, head.at(3)))

    def run(self, max_cells: int | None = None) -> Board:
        """Draw the formula; with ``max_cells``, refuse (:class:`BoardTooLarge`) before numbering
        the squares of a board that has more."""
        root = self.formula.root
        if isinstance(root, bool):
            return self._constant(root)
        self.lay_out()
        if max_cells is not None:
            drawn = self.drawn_size()
            if drawn.cells > max_cells:
                raise BoardTooLarge(drawn, max_cells)
        return self.layout.board()

    def lay_out(self) -> None:
        """Draw every wire and tile, the formula's value forced true; no square numbered yet."""
        head, negated = self._node(self.formula.root)
        self.layout.force(self.layout.straight(head, head.at(6)), value=not negated)

    def drawn_size(self) -> Size:
        """The size of the board the drawing will make (its box and the ring around it)."""
        sketch = self.layout.sketch
        top, left, bottom, right = sketch.box()
        return Size(bottom - top + 3, right - left + 3, len(sketch.hidden), exact=True)

    def _node(self, node: Node) -> tuple[Head, bool]:
        """Draw a subtree; the head of its output wire (running down) and whether it carries the negation."""
        if isinstance(node, Var):
            return self._leaf(node.name), False
        if isinstance(node, Not):
            head, negated = self._node(node.arg)
            return head, not negated
        left = self._node(node.left)
        right = self._node(node.right)
        return self._gate(node.op, left, right), False

    def _frontier(self) -> int:
        """The first free column right of everything drawn."""
        right = self.layout.sketch.right
        return (0 if right is None else right) + SPACE + self.spread

    def _leaf(self, name: str) -> Head:
        row = self.rows[name]
        crossed = sorted((line for line in self.bus.values() if line.row > row), key=lambda l: l.row)
        x = max([self._frontier()] + [line.head.cell[1] + ROOM + self.spread for line in crossed])
        if name not in self.bus:
            self.bus[name] = _Line(self.layout.start(row, x - 3, name), name)
        source = self.bus[name]
        self.remaining[name] -= 1
        head = self.layout.straight(source.head, (row, max(x, source.head.cell[1])))
        if self.remaining[name]:
            source.head, drop = self.layout.split(head, DOWN)
        else:
            drop = self.layout.corner(head, DOWN)
            del self.bus[name]
        for line in crossed:
            drop = self._cross(drop, line)
        return drop

    def _cross(self, drop: Head, line: _Line) -> Head:
        """Take a falling wire across a bus wire; the falling wire's new head."""
        tile = self.gates.cross()
        where = ports(tile)
        top = line.row - where["b"].cell[0]
        left = drop.cell[1] - where["a"].cell[1]
        placed = self.layout.place(tile, top, left)
        down = self.layout.enter(drop, placed["a"])
        across = self.layout.enter(line.head, placed["b"])
        line.head = self.layout.leave(placed["q"], across)
        self.crossings += 1
        self._count("cross")
        return self.layout.leave(placed["p"], down)

    def _gate(self, op: Op, left: tuple[Head, bool], right: tuple[Head, bool]) -> Head:
        """A gate below its right operand; the left operand turns in under it.  Its output, running down."""
        (lhead, lneg), (rhead, rneg) = left, right
        kind = self.gates.tile(op)
        tile, where, (a, b, c) = _gate_tile(kind, self.gates)
        morgan = op is not Op.XOR and kind != op.name.lower()  # AND from OR, or OR from AND
        column = rhead.cell[1] - where["b"].cell[1]
        if column < lhead.cell[1] + ROOM + 4:
            raise LayoutError("no room between the operands of a gate")
        top = max(rhead.cell[0] + ROOM, lhead.cell[0] + ROOM - where["l"].cell[0])
        placed = self.layout.place(tile, top, column)
        self.layout.enter(rhead, placed["b"], rneg ^ morgan ^ b)
        row = placed["l"].cell[0]
        turn = self.layout.corner(self.layout.straight(lhead, (row - 1, lhead.cell[1])), RIGHT)
        self.layout.enter(turn, placed["l"], lneg ^ morgan ^ a)
        out = self.layout.leave(placed["t"], morgan ^ c)
        self._count(kind)
        # Away from the tile before turning: junctions on the way down must not touch its ring.
        return self.layout.corner(self.layout.straight(out, out.at(6)), DOWN)

    def _count(self, kind: str) -> None:
        self.tiles[kind] = self.tiles.get(kind, 0) + 1

    def _constant(self, value: bool) -> Board:
        """A constant formula: free wires only (true), or a number no explanation meets (false)."""
        for line in list(self.bus.values()):
            self.layout.close(self.layout.straight(line.head, line.head.at(3)))
        if not self.formula.variables:
            # false: a 1 whose one neighbour is a revealed 0 (a lone 1 on a 1x1 board is no board:
            # a number may not exceed its neighbours, and the file could not be read back)
            return Board(1, 1, {(0, 0): 0}) if value else Board(1, 2, {(0, 0): 1, (0, 1): 0})
        board = self.layout.board()
        return board if value else _impossible(board)


def _impossible(board: Board) -> Board:
    """``board`` with a revealed 0 that sees only revealed squares made a 1: no explanation.

    The corner square was used, but a variable's wire begins with a flag next
    to it, which that 1 saw: 'a & 0' compiled to a board with 2 explanations.
    """
    for cell in sorted(board.clues):
        near = board.neighbours(cell)
        if board.clues[cell] == 0 and near and all(n in board.clues for n in near):
            clues = dict(board.clues)
            clues[cell] = 1
            return Board(board.height, board.width, clues, board.flags, board.voids, board.names)
    raise LayoutError("no revealed square away from every wire to make the formula false")


def compile_formula(formula: Formula, gates: GateSet = GateSet.PARSIMONIOUS,
                    max_cells: int | None = None) -> Compiled:
    """One board whose explanations are the formula's models (see the module's docstring).

    With ``max_cells``, a board of more squares is refused with its size
    (:class:`BoardTooLarge`): before anything is drawn when the
    :func:`estimate` is over the limit by more than its error, else once the
    drawing is laid out, before every square is numbered (what costs the
    memory: the layout holds only the hidden squares, 1-2% of the board).
    """
    if max_cells is not None:
        guess = estimate(formula, gates)
        if guess.cells > max_cells * ESTIMATE_FACTOR:
            raise BoardTooLarge(guess, max_cells)
    compiler = _Compiler(formula, gates)
    board = compiler.run(max_cells)
    return Compiled(formula, gates, board, compiler.crossings, dict(compiler.tiles), tuple(compiler.layout.order()))
