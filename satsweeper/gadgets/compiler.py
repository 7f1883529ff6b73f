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
from ..constraints import problem_of
from ..counting import count, tally
from .formula import Formula, Gate, Node, Not, Op, Var
from .gadget import Gadget, mine_totals
from .layout import Head, Layout, LayoutError, ports
from .balance import balanced_cross, balanced_tile
from .library import cross, gate_tile, mirror
from .sketch import DOWN, RIGHT

__all__ = ["Compiled", "GateSet", "bus_order", "compile_formula", "crossings"]

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
    def hidden(self) -> int:
        """Hidden squares of the board (counted once: a large board has millions of squares)."""
        return len(self.board.hidden_cells())

    def explanations(self) -> int:
        """The board's explanations, counted by the component engine (in the layout's sweep order)."""
        return count(self.board, order=self.order)

    def mine_totals(self) -> dict[int, int]:
        """Mines on the board (flags included) -> explanations with that many."""
        problem = problem_of(self.board)
        counts = tally(problem, order=self.order)
        if not counts.consistent:
            return {}
        flags = len(self.board.flags)
        totals = mine_totals(counts.frontier or {0: 1}, len(problem.floating_cells()))
        return {flags + k: n for k, n in totals.items() if n}

    def with_total(self) -> tuple[Board, str]:
        """The board with a total mine count (a ``.mine`` file needs one), and what the total means.

        The total is the one every explanation has, when they agree; else
        the smallest one's (the count then drops to the explanations with
        that many mines).
        """
        totals = self.mine_totals()
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

    def run(self) -> Board:
        root = self.formula.root
        if isinstance(root, bool):
            return self._constant(root)
        head, negated = self._node(root)
        self.layout.force(self.layout.straight(head, head.at(6)), value=not negated)
        return self.layout.board()

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
        drawn = self.layout.sketch.hidden | self.layout.sketch.flags
        return max((c for _, c in drawn), default=0) + SPACE + self.spread

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
            return Board(1, 1, {(0, 0): 0 if value else 1})
        board = self.layout.board()
        if value:
            return board
        clues = dict(board.clues)
        clues[(0, 0)] = 1  # a corner square that sees nothing and claims a mine
        return Board(board.height, board.width, clues, board.flags, board.voids, board.names)


def compile_formula(formula: Formula, gates: GateSet = GateSet.PARSIMONIOUS) -> Compiled:
    """One board whose explanations are the formula's models (see the module's docstring)."""
    compiler = _Compiler(formula, gates)
    board = compiler.run()
    return Compiled(formula, gates, board, compiler.crossings, dict(compiler.tiles), tuple(compiler.layout.order()))
