"""Compile a Boolean formula into one Minesweeper board (Kaye's reduction, made parsimonious).

The board's explanations correspond to the formula's satisfying assignments:
one free input wire per variable (named after it), the formula's value
forced true at the end.  With the parsimonious gate set every piece has one
explanation per input, so the board has exactly as many explanations as the
formula has models; with Kaye's AND, each AND gate whose inputs are both
false doubles its explanations.

Layout (all wires run right or down):

* the variables' wires run along rows 45 apart at the top (the *bus*), the
  most used variable lowest;
* the formula is evaluated as by a stack machine, deeper operand first: a
  leaf forks its variable's wire (or turns it down on its last use), runs
  down across every wire in between (a ``cross`` tile each) and turns right
  on a new row below everything (a stack entry); a gate takes the two
  lowest rows, the upper straight in, the lower turned up into it;
* NOT costs nothing: a wire's flip (which square of each pair is the mine)
  is tracked, and junctions passed straight through flip it where a gate
  input needs it.

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

from ..board import Board
from .formula import Formula, Gate, Node, Not, Op, Var
from .gadget import Gadget
from .layout import Head, Layout, LayoutError, ports
from .library import cross, gate_tile
from .sketch import DOWN, RIGHT, UP

__all__ = ["Compiled", "GateSet", "compile_formula"]

PITCH = 45  # rows between wires: a cross tile reaches 25 rows above the wire it crosses
ROOM = 24   # squares a wire needs before a port: five junctions fix any phase and flip


class GateSet(enum.Enum):
    """Which gadget computes AND and OR (the other by De Morgan; XOR is Pedersen's in both)."""

    PARSIMONIOUS = "parsimonious"  # Pedersen's OR: one explanation per input
    KAYE = "kaye"                  # Kaye's AND: two explanations when both inputs are false

    def tile(self, op: Op) -> str:
        if op is Op.XOR:
            return "xor"
        return "or" if self is GateSet.PARSIMONIOUS else "and"


@dataclass(frozen=True)
class Compiled:
    """A compiled formula: the board and what it is made of."""

    formula: Formula
    gates: GateSet
    board: Board
    crossings: int
    tiles: dict[str, int] = field(default_factory=dict)

    @property
    def hidden(self) -> int:
        return len(self.board.hidden_cells())


@dataclass
class _Line:
    """A wire on the board carrying a node's value (mines on second squares = value XOR head.flip)."""

    head: Head
    node: Node

    @property
    def row(self) -> int:
        return self.head.cell[0]


@dataclass(frozen=True)
class _Operand:
    line: _Line
    negated: bool  # NOTs above the line's node


def _polarity(tile: Gadget, op: Op) -> tuple[bool, bool, bool]:
    """(a, b, c) with t = op(l ^ a, b ^ b') ^ c for the tile's claim, found by evaluating it."""
    gate = {Op.AND: lambda x, y: x and y, Op.OR: lambda x, y: x or y, Op.XOR: lambda x, y: x != y}[op]
    for a, b, c in itertools.product((False, True), repeat=3):
        if all(tile.expected((x, y))["t"] == (gate(x != a, y != b) != c)
               for x, y in itertools.product((False, True), repeat=2)):
            return a, b, c
    raise LayoutError(f"tile {tile.name} does not compute {op.name} under any negations")


def _need(node: Node) -> int:
    """Stack entries the subtree needs (Sethi-Ullman): evaluating the needier side first keeps it low."""
    if isinstance(node, Var):
        return 1
    if isinstance(node, Not):
        return _need(node.arg)
    a, b = _need(node.left), _need(node.right)
    return max(a, b) if a != b else a + 1


class _Compiler:
    def __init__(self, formula: Formula, gates: GateSet) -> None:
        self.formula = formula
        self.gates = gates
        self.layout = Layout()
        self.crossings = 0
        self.tiles: dict[str, int] = {}
        uses = formula.occurrences()
        self.remaining = dict(uses)
        order = sorted(formula.variables, key=lambda v: (uses[v], formula.variables.index(v)))
        self.bus: dict[str, _Line] = {}
        for index, name in enumerate(order):
            head = self.layout.start(index * PITCH, 0, name)
            if uses[name] == 0:
                self.layout.close(self.layout.straight(head, head.at(3)))
            else:
                self.bus[name] = _Line(head, Var(name))
        self.stack: list[_Operand] = []
        self.next_row = len(order) * PITCH

    # The stack machine -------------------------------------------------------------

    def run(self) -> Board:
        root = self.formula.root
        if isinstance(root, bool):
            return self._constant(root)
        self._evaluate(root)
        (last,) = self.stack
        head = self.layout.straight(last.line.head, last.line.head.at(6))
        self.layout.force(head, value=not last.negated)
        return self.layout.board()

    def _evaluate(self, node: Node) -> None:
        if isinstance(node, Var):
            self._leaf(node.name)
        elif isinstance(node, Not):
            self._evaluate(node.arg)
            top = self.stack.pop()
            self.stack.append(_Operand(top.line, not top.negated))
        else:
            first, second = (node.left, node.right) if _need(node.left) >= _need(node.right) else (node.right, node.left)
            self._evaluate(first)
            self._evaluate(second)
            self._gate(node.op, node)

    def _frontier(self) -> int:
        """The first column right of everything drawn: each step gets columns of its own."""
        return max(c for _, c in self.layout.sketch.hidden | self.layout.sketch.flags) + 6

    def _alive(self) -> list[_Line]:
        return list(self.bus.values()) + [o.line for o in self.stack]

    def _leaf(self, name: str) -> None:
        source = self.bus[name]
        self.remaining[name] -= 1
        target = max([line.row for line in self._alive()] + [self.next_row - PITCH]) + PITCH
        crossed = sorted((line for line in self._alive() if source.row < line.row < target), key=lambda l: l.row)
        x = max([self._frontier(), source.head.cell[1]] + [line.head.cell[1] + ROOM for line in crossed])
        head = self.layout.straight(source.head, (source.row, x))
        if self.remaining[name]:
            source.head, drop = self.layout.split(head, DOWN)
        else:
            drop = self.layout.corner(head, DOWN)
            del self.bus[name]
        for line in crossed:
            drop = self._cross(drop, line)
        drop = self.layout.straight(drop, (target - 1, drop.cell[1]))
        self.stack.append(_Operand(_Line(self.layout.corner(drop, RIGHT), Var(name)), False))

    def _cross(self, drop: Head, line: _Line) -> Head:
        """Take a falling wire across a horizontal one; the falling wire's new head."""
        tile = cross()
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

    def _gate(self, op: Op, node: Gate) -> None:
        lower, upper = self.stack.pop(), self.stack.pop()
        if lower.line.row < upper.line.row:
            lower, upper = upper, lower
        kind = self.gates.tile(op)
        tile = gate_tile(kind)
        where = ports(tile)
        a, b, c = _polarity(tile, {"or": Op.OR, "and": Op.AND, "xor": Op.XOR}[kind])
        morgan = op is not Op.XOR and kind != op.name.lower()  # AND from OR or OR from AND
        top = upper.line.row - where["l"].cell[0]
        below = where["b"].cell
        left = max(self._frontier(), upper.line.head.cell[1] + ROOM,
                   lower.line.head.cell[1] + ROOM + 4 - below[1])
        placed = self.layout.place(tile, top, left)
        self.layout.enter(upper.line.head, placed["l"], upper.negated ^ morgan ^ a)
        # The lower wire turns up into the tile; junctions on the way up flip it too.
        column = placed["b"].cell[1]
        rise = lower.line.row - 3 - placed["b"].cell[0]
        want = lower.negated ^ morgan ^ b
        arrive_flip = (not want) ^ (rise % 3 % 2 == 1)
        head = self.layout.straight(lower.line.head, (lower.line.row, column - 1), arrive_flip)
        seen = self.layout.enter(self.layout.corner(head, UP), placed["b"])
        assert seen == want, "the lower input arrived with the wrong flip"
        out = self.layout.leave(placed["t"], morgan ^ c)
        self.stack.append(_Operand(_Line(out, node), False))
        self._count(kind)

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
    return Compiled(formula, gates, board, compiler.crossings, dict(compiler.tiles))
