"""Balanced gadgets: the same number of mines in every explanation, whatever the inputs.

A real position comes with its total number of mines.  Pedersen's OR and XOR
and the crossing built from his XOR hold one mine fewer (or more) for one
input combination, so a compiled board with its total loses the models whose
explanation has the other count, and the total leaks the inputs.

A two-input tile whose count differs on one input corner is balanced here by
a *twin* and a *compensator*:

* the twin is a second copy of the tile, fed the same inputs through
  splits, one of them negated, its outputs left as free capped ends (they
  are forced by the inputs, so the count per input stays one).  The
  tile's surplus ``x & y`` and the twin's ``x & ~y`` add up to ``x``: the
  pair's count depends on one input, linearly;
* the compensator is Kaye's NOT core (:meth:`Layout.tap`) on that input's
  branch: one square that is a mine exactly when the input is false (or
  true), which evens the count out.

Which input is negated for the twin and which way the tap goes are worked
out from the tile's own verdict (its mine counts per input), so the
construction does not depend on which corner is short.  The numbers come
from the layout's balance rule, not from synthesis; :func:`verify` proves
every result (computes, unique, one mine total).

>>> from satsweeper.gadgets import verify
>>> v = verify(balanced_tile("xor"))
>>> v.computes, v.unique, v.constant_mines
(True, True, True)
"""

from __future__ import annotations

import itertools
from functools import lru_cache

from ..errors import SatsweeperError
from .gadget import Gadget, verify
from .layout import Head, Layout, ports
from .library import cross, gate_tile, mirror
from .sketch import DOWN, LEFT, RIGHT, UP

__all__ = ["BALANCED", "balanced_cross", "balanced_gate", "balanced_not", "balanced_tile", "twin"]

GAP = 12     # squares between the tile and its twin: room for the twin's capped outputs
REACH = 54   # squares a branch runs before the twin's port: a flip (21), a tap (2) and a port's junctions


def _reverse(direction):
    return (-direction[0], -direction[1])


def _mines(tile: Gadget) -> dict[tuple[bool, ...], int]:
    """The tile's one mine total per input (it must have exactly one per input)."""
    table = {}
    for case in verify(tile).cases:
        if len(case.mines) != 1:
            raise SatsweeperError(f"tile {tile.name}: input {case.inputs} has several mine totals {case.mines}")
        table[case.inputs] = case.mines[0]
    return table


def _compensation(tile: Gadget, partner: Gadget, mapping: dict[str, str],
                  inverted: dict[str, bool]) -> tuple[dict[str, bool], dict[str, int]]:
    """Which inputs the partner sees negated, and per input the compensator's coefficient.

    ``mapping`` says which partner input each tile input feeds; the tile
    sees its inputs negated where ``inverted`` says.  The pair's count must
    be ``c + sum(k[p] * p)`` with every ``k`` in -1, 0, 1; a tap adds
    ``1 - p`` (k = 1) or ``p`` (k = -1).
    """
    mines, other = _mines(tile), _mines(partner)
    inputs = tile.inputs
    points = list(itertools.product((False, True), repeat=len(inputs)))

    def fed(values, flips):
        by_port = {mapping[p]: v != f for p, v, f in zip(inputs, values, flips)}
        return tuple(by_port[q] for q in partner.inputs)

    main = tuple(inverted.get(p, False) for p in inputs)
    for negated in itertools.product((False, True), repeat=len(inputs)):
        total = {v: mines[tuple(x != n for x, n in zip(v, main))] + other[fed(v, negated)] for v in points}
        base = total[points[0]]
        slope = {p: total[tuple(j == i for j in range(len(inputs)))] - base for i, p in enumerate(inputs)}
        linear = all(total[v] == base + sum(k for k, x in zip(slope.values(), v) if x) for v in points)
        if linear and all(abs(k) <= 1 for k in slope.values()):
            return dict(zip(inputs, negated)), slope
    raise SatsweeperError(f"tile {tile.name}: no way of feeding {partner.name} makes the mine count linear")


def _claim(inputs: tuple[str, ...], table: dict[tuple[bool, ...], bool]) -> str:
    """A short expression with this truth table (literals, one gate, or its negation)."""
    literals = [f"{n}{p}" for p in inputs for n in ("", "~")]
    candidates = list(literals)
    for a, b in itertools.combinations(inputs, 2):
        for na, nb, op in itertools.product(("", "~"), ("", "~"), "&|^"):
            candidates.append(f"{na}{a} {op} {nb}{b}")
    for text in candidates:
        if all(_evaluate(text, inputs, v) == out for v, out in table.items()):
            return text
    return " | ".join("(" + " & ".join(p if x else f"~{p}" for p, x in zip(inputs, v)) + ")"
                      for v, out in table.items() if out) or "0"


def _evaluate(text: str, inputs: tuple[str, ...], values: tuple[bool, ...]) -> bool:
    from pyeda.boolalg.expr import expr as pyeda_expr, exprvar
    point = {exprvar(p): int(x) for p, x in zip(inputs, values)}
    return pyeda_expr(text).restrict(point).is_one()


def twin(tile: Gadget, name: str, inverted: dict[str, bool] | None = None, partner: Gadget | None = None) -> Gadget:
    """A two-input padded tile made balanced by a twin and a compensator (see the module).

    The tile needs one input on its left edge and one on its top or bottom
    edge, outputs elsewhere.  ``inverted`` negates ports of the result
    (inputs and outputs) relative to the tile's own, as NOTs for free.
    The result is padded the same way, its ports on the same sides, so the
    compiler places it where it placed the tile.
    """
    inverted = inverted or {}
    where = ports(tile)
    side = {p: where[p].direction for p in tile.inputs}
    x = next(p for p in tile.inputs if side[p] == LEFT)
    y = next(p for p in tile.inputs if side[p] in (UP, DOWN))
    ydir = _reverse(side[y])                      # the way y's wire runs into the tile
    partner = partner or tile
    around = ports(partner)
    mapping = {x: next(q for q in partner.inputs if around[q].direction == LEFT),
               y: next(q for q in partner.inputs if around[q].direction == side[y])}
    negated, slope = _compensation(tile, partner, mapping, inverted)
    height, width = partner.board.height, partner.board.width
    twin_top = tile.board.height + GAP if ydir == UP else -(height + GAP)
    twin_left = -(width + GAP)
    layout = Layout()
    main = layout.place(tile, 0, 0)
    placed = layout.place(partner, twin_top, twin_left)
    other = {p: placed[q] for p, q in mapping.items()}
    heads = {}
    # x comes in from the left, forks, and its branch turns towards the twin.
    xrow = where[x].cell[0]
    xcol = twin_left - REACH - 12
    heads[x] = _input(layout, (xrow, xcol), RIGHT, x)
    trunk, branch = layout.split(layout.straight(heads[x], heads[x].at(3)), _reverse(ydir))
    layout.enter(trunk, main[x], inverted.get(x, False))
    target = other[x].cell[0]
    branch = layout.straight(branch, (target - _reverse(ydir)[0], branch.cell[1]))
    branch = layout.corner(branch, RIGHT)
    layout.enter(_tapped(layout, branch, slope[x]), other[x], negated[x])
    # y comes in across the twin's side of the tile, forks, and its branch turns left to the twin.
    ycol = where[y].cell[1]
    far = twin_top + height - 1 + REACH + 12 if ydir == UP else twin_top - REACH - 12
    heads[y] = _input(layout, (far, ycol), ydir, y)
    trunk, branch = layout.split(layout.straight(heads[y], heads[y].at(3)), LEFT)
    layout.enter(trunk, main[y], inverted.get(y, False))
    branch = layout.straight(branch, (branch.cell[0], other[y].cell[1] + 1))
    branch = layout.corner(branch, ydir)
    layout.enter(_tapped(layout, branch, slope[y]), other[y], negated[y])
    # The tile's outputs leave through stubs; the twin's are capped (forced by its inputs anyway).
    outputs = [p for p in tile.outputs]
    for port in outputs:
        out = layout.straight(layout.leave(main[port], inverted.get(port, False)),
                              _ahead(layout.leave(main[port]).cell, main[port].direction, 15), flip=False)
        layout.sketch.run(out.cell, out.direction, 1)
        layout.sketch.name(out.at(1), port)
    for port in partner.outputs:
        capped = layout.leave(placed[port])
        layout.close(layout.straight(capped, capped.at(3)))
    sides = {side[p] for p in tile.inputs} | {where[p].direction for p in outputs}
    board = layout.board(frozenset(sides))
    gadget = Gadget(name, board, tile.inputs, {p: "0" for p in outputs})
    claims = {}
    for port in outputs:
        table = {}
        for values in itertools.product((False, True), repeat=len(tile.inputs)):
            seen = tuple(v != inverted.get(p, False) for p, v in zip(tile.inputs, values))
            table[values] = tile.expected(seen)[port] != inverted.get(port, False)
        claims[port] = _claim(tile.inputs, table)
    return Gadget(name, gadget.board, tile.inputs, claims)


def _ahead(cell, direction, steps):
    return (cell[0] + steps * direction[0], cell[1] + steps * direction[1])


def _input(layout: Layout, cell, direction, name: str) -> Head:
    """An open input wire at the edge: its port is the first square of its first pair."""
    layout.sketch.run(cell, direction, 1)
    layout.sketch.name(cell, name)
    return Head(_ahead(cell, direction, 3), direction, True)


def _tapped(layout: Layout, head: Head, slope: int) -> Head:
    """The branch with a compensator cancelling ``slope`` mines per unit of its signal (if any)."""
    if slope == 0:
        return head
    # A tap adds 1 - signal with the flip False, the signal with it True.
    return layout.tap(layout.straight(head, head.at(21), flip=slope < 0))


@lru_cache(maxsize=None)
def balanced_tile(kind: str) -> Gadget:
    """The compiler's balanced tile for ``or`` or ``xor``: :func:`gate_tile`'s tile with a twin.

    Same ports, sides and claim as the tile; one mine total for every input.
    """
    return _checked(twin(gate_tile(kind), f"balanced-{kind}-tile", partner=gate_tile("xor")))


@lru_cache(maxsize=None)
def balanced_cross() -> Gadget:
    """The crossing (``a`` top to ``p`` bottom, ``b`` left to ``q`` right on one row), balanced."""
    return _checked(twin(cross(), "balanced-cross", partner=mirror(gate_tile("xor"))))


GATE_TILES = {"and": "or", "or": "or", "xor": "xor"}
FUNCTIONS = {"and": lambda x, y: x and y, "or": lambda x, y: x or y, "xor": lambda x, y: x != y}


@lru_cache(maxsize=None)
def balanced_gate(kind: str) -> Gadget:
    """A balanced AND, OR or XOR: ``t = l & b`` (``|``, ``^``), ports as in the tiles.

    Built from the OR tile (AND and OR, by negating ports) or the XOR tile.
    """
    tile = gate_tile(GATE_TILES[kind])
    want = FUNCTIONS[kind]
    for nl, nb, nt in itertools.product((False, True), repeat=3):
        if all((tile.expected((l != nl, b != nb))["t"] != nt) == want(l, b)
               for l, b in itertools.product((False, True), repeat=2)):
            return _checked(twin(tile, f"balanced-{kind}", {"l": nl, "b": nb, "t": nt}, gate_tile("xor")))
    raise SatsweeperError(f"the {GATE_TILES[kind]} tile computes no negation of {kind.upper()}")


@lru_cache(maxsize=None)
def balanced_not() -> Gadget:
    """NOT as Kaye's wire gives it for free: a plain wire read on the other square of its pair.

    An input port is the first square of its pair, an output port the second
    (as in every tile), and the two squares of a pair are opposite, so a
    plain wire between ports negates; one mine per pair whatever the input.
    Kaye's NOT core holds one more mine for one input (that is why it makes
    a compensator, :meth:`Layout.tap`).
    """
    layout = Layout()
    head = _input(layout, (0, 0), RIGHT, "a")
    head = layout.straight(head, head.at(9), flip=True)
    layout.sketch.run(head.cell, RIGHT, 1)
    layout.sketch.name(head.at(1), "b")
    board = layout.board(frozenset({LEFT, RIGHT}))
    return _checked(Gadget("balanced-not", board, ("a",), {"b": "~a"}))


def _checked(gadget: Gadget) -> Gadget:
    verdict = verify(gadget)
    if not (verdict.computes and verdict.unique and verdict.constant_mines):
        raise SatsweeperError(f"gadget {gadget.name}: not a unique, balanced gadget computing its claim")
    return gadget


BALANCED = {
    "balanced-not": balanced_not,
    "balanced-and": lambda: balanced_gate("and"),
    "balanced-or": lambda: balanced_gate("or"),
    "balanced-xor": lambda: balanced_gate("xor"),
    "balanced-or-tile": lambda: balanced_tile("or"),
    "balanced-xor-tile": lambda: balanced_tile("xor"),
    "balanced-cross": balanced_cross,
}
