"""Gadget builders: Kaye's wire, bend and gates, Pedersen's OR and XOR.

A *wire* is a row of hidden cells in the period-3 pattern ``x' x 1`` with a
row of 1s on each side: every revealed cell sees exactly one of each
``x'``/``x`` pair, so the pairs alternate and the whole wire has one free
bit, its value (a mine on the ``x`` squares means true).  Gates are the
figures 3.2-3.6 of Pedersen's "The complexity of Minesweeper and strategies
for game playing" as reconstructed in the repository's ``gadgets/figures/``
(the notes there say what was changed from the printed text); their grids
are kept here as templates so the package needs no data files.

>>> from satsweeper.gadgets import verify
>>> verify(wire(4)).unique, verify(not_gate()).computes
(True, True)
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import Callable

from ..board import Board, Cell
from ..errors import InputError, SatsweeperError
from ..textio import parse_board
from .gadget import Gadget, format_gadget
from .repair import synthesize
from .sketch import DOWN, LEFT, RIGHT, UP, Sketch

__all__ = ["BUILDERS", "TILES", "bend", "build", "corner", "cross", "crossover", "forced_end", "gate_tile", "kaye_and", "mirror",
           "not_gate", "pedersen_or", "pedersen_xor", "phase", "split", "transpose", "wire"]


def wire(periods: int = 3, vertical: bool = False) -> Gadget:
    """A straight wire of ``periods`` pairs, input ``a`` at one end, output ``b``.

    Horizontal wires run left to right; ``vertical=True`` gives the same wire
    running top to bottom.

    >>> w = wire(2); w.board.height, w.board.width, sorted(w.board.names.values())
    (3, 5, ['a', 'b'])
    """
    if periods < 2:
        raise InputError(f"a wire needs at least two x'/x pairs (got {periods})")
    width = 3 * periods - 1
    names = {(1, 1): "a", (1, width - 1): "b"}
    clues: dict[Cell, int] = {}
    for c in range(width):
        clues[(0, c)] = clues[(2, c)] = 1
        if c % 3 == 2:
            clues[(1, c)] = 1
    # drawn across and turned: transpose names the turned wire-h "wire-v" (a gadget
    # called wire-v and turned came out "wire-v-t", the name verify printed)
    gadget = Gadget("wire-h", Board(3, width, clues, names=names), ("a",), {"b": "a"})
    return transpose(gadget) if vertical else gadget


def forced_end() -> Gadget:
    """A wire end that forces its value true: the 1s past the last ``x`` see only it.

    Put it where a circuit's output must hold: it leaves one explanation
    (true) instead of two.
    """
    board = parse_board("layout: tokens\n1 1 1 1 1 1 0\nx' a 1 x'2 b 1 0\n1 1 1 1 1 1 0\n")
    return Gadget("forced-end", board, ("a",), {}, accepts="a")


def transpose(gadget: Gadget) -> Gadget:
    """The same gadget mirrored in the main diagonal (rows become columns).

    Minesweeper's rules are symmetric, so the verdict does not change.
    """
    b = gadget.board
    swap = lambda cells: frozenset((c, r) for r, c in cells)  # noqa: E731
    board = Board(b.width, b.height, {(c, r): n for (r, c), n in b.clues.items()},
                  swap(b.flags), swap(b.voids), {(c, r): n for (r, c), n in b.names.items()},
                  b.total_mines)
    name = gadget.name.replace("-h", "-v") if gadget.name.endswith("-h") else gadget.name + "-t"
    return Gadget(name, board, gadget.inputs, gadget.outputs, gadget.accepts)


def mirror(gadget: Gadget) -> Gadget:
    """The same gadget upside down (rows reversed); the verdict does not change."""
    b = gadget.board
    flip = lambda cell: (b.height - 1 - cell[0], cell[1])  # noqa: E731
    board = Board(b.height, b.width, {flip(c): n for c, n in b.clues.items()},
                  frozenset(map(flip, b.flags)), frozenset(map(flip, b.voids)),
                  {flip(c): n for c, n in b.names.items()}, b.total_mines)
    return Gadget(gadget.name + "-m", board, gadget.inputs, gadget.outputs, gadget.accepts)


def _template(name: str, inputs: tuple[str, ...], outputs: dict[str, str], grid: str) -> Gadget:
    return Gadget(name, parse_board("layout: tokens\n" + grid), inputs, outputs)


def not_gate() -> Gadget:
    """Kaye's NOT (Pedersen, figure 3.3): the centre x' between two 3s."""
    return _template("not", ("x",), {"y": "~x"}, """
-  - - -  -  1 1 1 -  -  - -  -
1  1 1 1  1  2 F 2 1  1  1 1  1
x' x 1 x'2 x2 3 c 3 x3 x'3 1 x4 y
1  1 1 1  1  2 F 2 1  1  1 1  1
-  - - -  -  1 1 1 -  -  - -  -
""")


def kaye_and() -> Gadget:
    """Kaye's AND (Pedersen, figure 3.4); two explanations when both inputs are false."""
    return _template("and", ("u", "v"), {"t": "u & v"}, """
-  1   u'0 1   -   -   -   -   -   -   -   -   -   -   -   -   -   -   -   -   -   -
-  1   u   1   -   -   -   -   -   -   -   -   -   -   -   -   -   -   -   -   -   -
-  1   1   1   -   -   1   2   2   1   -   1   1   1   -   1   1   1   -   -   -   -
-  1   u'  1   -   -   2   F   F   3   2   3   F   2   1   2   F   3   2   1   -   -
-  1   u1  1   1   2   4   F   s   x   y   z   t'  3   t1  t'2 3   F   F   2   -   -
1  2   2   1   1   F   F   4   F   3   2   3   F   2   1   1   2   t2  F   2   -   -
2  F   u'2 2   2   4   s'  3   1   1   0   1   1   1   0   0   1   2   2   1   -   -
2  F   F   3   u2  u'3 s2  2   1   1   1   1   1   1   1   1   1   t'3 1   1   1   1
2  4   5   F   4   F   4   t3  t'4 1   t4  t'5 1   t5  t'6 1   t6  2   t7  1   t'7 t
2  F   F   3   v2  v'  r   2   1   1   1   1   1   1   1   1   1   t'8 1   1   1   1
2  F   v'2 2   2   4   r'  3   1   1   0   1   1   1   0   0   1   2   2   1   -   -
1  2   2   1   1   F   F   4   F   3   2   3   F   2   1   1   2   t9  F   2   -   -
-  1   v1  1   1   2   4   F   r2  a   b   c   t'9 3   t10 t'10 3  F   F   2   -   -
-  1   v'3 1   -   -   2   F   F   3   2   3   F   2   1   2   F   3   2   1   -   -
-  1   1   1   -   -   1   2   2   1   -   1   1   1   -   1   1   1   -   -   -   -
-  1   v   1   -   -   -   -   -   -   -   -   -   -   -   -   -   -   -   -   -   -
-  1   v'0 1   -   -   -   -   -   -   -   -   -   -   -   -   -   -   -   -   -   -
""")


def bend() -> Gadget:
    """A wire turning from downwards to rightwards, negating its value.

    Cut from Kaye's AND (figure 3.4): the U input's turn, with the flags that
    hold it, continued as a plain horizontal wire; the numbers along the cut
    are recomputed.  Rotate or mirror it for the other three corners, and
    follow it with a NOT where the value must not flip.
    """
    return _template("bend", ("a",), {"b": "~a"}, """
0 1 . 1 0 0 0 0 0 0 0 0 0 0 0
0 1 a 1 0 0 0 0 0 0 0 0 0 0 0
0 1 1 1 0 0 0 0 0 0 0 0 0 0 0
0 1 . 1 0 0 0 0 0 0 0 0 0 0 0
0 1 . 1 1 1 1 0 0 0 0 0 0 0 0
1 2 2 1 1 F 1 0 0 0 0 0 0 0 0
2 F . 2 2 2 2 1 1 1 1 1 1 1 1
2 F F 3 . . 2 . . 1 . . 1 . b
1 2 3 F 3 F 2 1 1 1 1 1 1 1 1
0 0 1 1 2 1 1 0 0 0 0 0 0 0 0
""")


def _drawn(sketch: Sketch, name: str, inputs: tuple[str, ...], outputs: dict[str, str]) -> Gadget:
    """A sketch with its numbers synthesized; it must compute its claim uniquely."""
    result = synthesize(sketch.gadget(name, inputs, outputs))
    if result.gadget is None or not (result.verdict.computes and result.verdict.unique):
        raise SatsweeperError(f"gadget {name}: the drawing does not compute its claim uniquely")
    return result.gadget


def split() -> Gadget:
    """Fan-out: a wire entering from the left leaves to the right and downwards.

    Kaye's junction: a revealed square with one wire square on each side;
    the unused upward arm is capped with flags.
    """
    s = Sketch()
    s.junction((0, 7), {LEFT: 2, RIGHT: 2, DOWN: 2})
    s.name((0, 1), "a"), s.name((0, 13), "b"), s.name((7, 7), "c")
    return _drawn(s, "split", ("a",), {"b": "a", "c": "a"})


def corner() -> Gadget:
    """A wire entering from the left turns downwards (a junction with two arms capped)."""
    s = Sketch()
    s.junction((0, 7), {LEFT: 2, DOWN: 2})
    s.name((0, 1), "a"), s.name((7, 7), "b")
    return _drawn(s, "corner", ("a",), {"b": "a"})


def phase() -> Gadget:
    """A straight junction: the wire goes on, its period-3 pattern shifted by one square.

    Composite layouts need it where two pieces' patterns would not meet.
    """
    s = Sketch()
    s.junction((0, 7), {LEFT: 2, RIGHT: 2})
    s.name((0, 1), "a"), s.name((0, 13), "b")
    return _drawn(s, "phase", ("a",), {"b": "a"})


def crossover() -> Gadget:
    """Two wires cross: a (row of a) leaves on the row of b and vice versa.

    Kaye's construction from three XORs, with Pedersen's unique XOR:
    c = a ^ b, then a ^ c = b and c ^ b = a.  The inputs fan out with
    junctions, corners bring branches into the XORs, and straight junctions
    shift patterns where pieces would not line up.  Unique, so crossings
    keep a compiled circuit parsimonious.
    """
    xor, drop = pedersen_xor(), {"u": None, "v": None, "t": None}
    s = Sketch()
    s.junction((6, 7), {LEFT: 2, DOWN: 0, RIGHT: 8})    # a fans out
    s.junction((10, 7), {UP: 0, DOWN: 0})                # phase
    s.junction((14, 7), {UP: 0, RIGHT: 1})               # corner into XOR 1
    s.junction((27, 10), {LEFT: 3, UP: 2, RIGHT: 7})     # b fans out
    s.junction((17, 10), {DOWN: 0, RIGHT: 0})            # corner into XOR 1
    s.stamp(xor, 12, 13, drop)                           # c = a ^ b
    s.junction((16, 27), {LEFT: 0, UP: 1, DOWN: 0})      # c fans out
    s.junction((9, 27), {DOWN: 0, RIGHT: 0})             # corner
    s.junction((9, 31), {LEFT: 0, RIGHT: 0})             # phase
    s.stamp(xor, 4, 34, drop)                            # a ^ c = b
    s.junction((20, 27), {UP: 0, DOWN: 0})               # phase
    s.junction((24, 27), {UP: 0, RIGHT: 0})              # corner
    s.junction((24, 31), {LEFT: 0, RIGHT: 0})            # phase
    s.stamp(xor, 22, 34, drop)                           # c ^ b = a
    s.hwire(8, 47, 1), s.hwire(26, 47, 1)
    s.name((6, 1), "a"), s.name((27, 1), "b"), s.name((8, 48), "p"), s.name((26, 48), "q")
    return _drawn(s, "crossover", ("a", "b"), {"p": "b", "q": "a"})


def pedersen_or() -> Gadget:
    """Pedersen's OR (Pedersen, figure 3.5, three misprinted numbers repaired); unique."""
    return _template("or", ("u", "v"), {"t": "u | v"}, """
-   -   -   -   -   1   2   2   1   -   1   2   3   2   1   -   -
1   1   1   1   1   2   F   F   3   1   1   F   F   F   1   -   -
u'0 u0  1   u'  u   3   u'2 F   F   2   2   3   t'  3   2   1   1
2   2   2   2   2   3   F   6   t1  t'2 2   t2  2   t3  1   t'3 t
v'0 v0  1   v'  v   3   v'2 F   s   F   5   4   t'4 2   1   1   1
1   1   1   1   1   2   F   F   6   F   F   F   F   3   1   -   -
-   -   -   -   -   1   4   F   s'  5   b   c   t5  F   2   -   -
-   -   -   -   -   -   2   F   F   a   4   4   F   F   2   -   -
-   -   -   -   -   -   1   3   F   F   F   2   2   2   1   -   -
-   -   -   -   -   -   -   1   2   3   2   1   -   -   -   -   -
""")


def pedersen_xor() -> Gadget:
    """Pedersen's XOR (Pedersen, figure 3.6); unique."""
    return _template("xor", ("u", "v"), {"t": "u ^ v"}, """
-   -   -   -   1   2   2   1   -   -   -   -
1   1   1   1   2   F   F   3   1   -   -   -
v'0 v0  1   v'  v   5   F   F   2   1   1   -
1   1   1   1   3   F   v'2 5   4   F   2   1
1   1   1   1   4   F   v2  F   F   4   t'  t
u'0 u0  1   u'  u   F   u'2 6   t2  F   3   1
1   1   1   1   3   4   F   s   s2  F   2   -
-   -   -   -   2   F   6   F   F   4   2   -
-   -   -   -   3   F   s'  F   s'2 F   2   -
-   -   -   -   2   F   6   s3  6   F   2   -
-   -   -   -   1   2   F   F   F   2   1   -
-   -   -   -   -   1   2   3   2   1   -   -
""")


# The compiler's tiles.  Each is padded (see Sketch.gadget): nothing but its
# ports touches the edge of its box, and each port is named on its outermost
# square.  Gates take one input from the left (l), one from below (b) and
# give their output to the right (t); which negations a drawing computes is
# whatever its numbers can be made to compute, so each tile tries the eight
# ways of negating inputs and output and keeps the first that works.

GATES = {"or": "|", "and": "&", "xor": "^"}


def _claimed(sketch: Sketch, name: str, kind: str) -> Gadget:
    """Synthesize a gate tile: the first negation pattern its drawing computes (uniquely, but for AND)."""
    op = GATES[kind]
    for nl, nb, nt in itertools.product(("", "~"), repeat=3):
        claim = f"{nt}({nl}l {op} {nb}b)"
        drawing = sketch.gadget(name, ("l", "b"), {"t": claim}, padded=True)
        result = synthesize(drawing, keep=sketch.printed_cells(padded=True))
        if result.gadget is not None and result.verdict.computes and (result.verdict.unique or kind == "and"):
            return result.gadget
    raise SatsweeperError(f"tile {name}: no negation pattern of {kind.upper()} can be synthesized")


@lru_cache(maxsize=None)
def gate_tile(kind: str) -> Gadget:
    """The compiler's tile for an OR, AND or XOR gate: inputs ``l`` (left) and ``b`` (below), output ``t``.

    * ``or``: Pedersen's OR; its lower input arrives through the bend cut
      from Kaye's AND, upside down (the OR's inputs are two rows apart, too
      close for a junction's flags).
    * ``xor``: Pedersen's XOR, its lower input turned in by a junction.
    * ``and``: Kaye's AND, its upper input turned down by a junction.

    >>> from satsweeper.gadgets import verify
    >>> verify(gate_tile("xor")).unique
    True
    """
    s = Sketch()
    drop = {"u": None, "v": None, "t": None}
    if kind == "or":
        s.stamp(mirror(bend()), 2, 0, {"a": None, "b": None})
        s.stamp(pedersen_or(), 0, 16, drop)
        left, below, out = ((2, 14), LEFT), ((13, 2), DOWN), ((3, 34), RIGHT)
    elif kind == "xor":
        s.stamp(pedersen_xor(), 0, 9, drop)
        s.junction((5, 3), {DOWN: 0, RIGHT: 1})
        left, below, out = ((2, 7), LEFT), ((8, 3), DOWN), ((4, 22), RIGHT)
    elif kind == "and":
        s.junction((3, 4), {LEFT: 0, DOWN: 0})
        s.stamp(kaye_and(), 6, 2, drop, numbers=True)  # Kaye's numbers, not unique ones
        left, below, out = ((3, 1), LEFT), ((24, 4), DOWN), ((14, 25), RIGHT)
    else:
        raise InputError(f"no gate tile for {kind!r} (expected one of {', '.join(GATES)})")
    for port, (start, direction) in zip("lbt", (left, below, out)):
        s.name(s.poke(start, direction), port)
    return _claimed(s, f"{kind}-tile", kind)


@lru_cache(maxsize=None)
def cross() -> Gadget:
    """Two wires cross at right angles: ``a`` enters at the top and leaves at the bottom as ``p``,
    ``b`` enters on the left and leaves on the right as ``q``, on the same row.

    The crossover turned into a crossing: ``a`` turns into the crossover's
    upper input, its output turns down; ``b``'s value leaves the crossover
    on the upper row and is brought back down to ``b``'s row.  The vertical
    wire leaves 54 columns right of where it entered.
    """
    x = crossover()
    s = Sketch()
    top, left = 2, 6
    s.stamp(x, top, left, {"a": None, "b": None, "p": None, "q": None})
    up = s.junction((top + 2, left - 3), {UP: 0, RIGHT: 0})[UP]         # a turns into the crossover
    s.hwire(top + 4, left + 50, 2)                                        # b's value, one row down...
    s.junction((top + 4, left + 57), {LEFT: 0, DOWN: 5})
    right = s.junction((top + 23, left + 57), {UP: 0, RIGHT: 0})[RIGHT]  # ... back on b's row
    down = s.junction((top + 22, left + 51), {LEFT: 0, DOWN: 0})[DOWN]   # a's value turns down
    ports = (("a", up, UP), ("b", (top + 23, left - 2), LEFT), ("p", down, DOWN), ("q", right, RIGHT))
    for port, start, direction in ports:
        s.name(s.poke(start, direction), port)
    for pa, pb in itertools.product(("a", "~a"), ("b", "~b")):
        result = synthesize(s.gadget("cross", ("a", "b"), {"p": pa, "q": pb}, padded=True))
        if result.gadget is not None and result.verdict.computes and result.verdict.unique:
            return result.gadget
    raise SatsweeperError("tile cross: the drawing does not cross its wires uniquely")


TILES = ("cross", "or-tile", "xor-tile", "and-tile")

BUILDERS: dict[str, Callable[[], Gadget]] = {
    "wire-h": lambda: wire(5),
    "wire-v": lambda: wire(5, vertical=True),
    "forced-end": forced_end,
    "bend": bend,
    "corner": corner,
    "phase": phase,
    "split": split,
    "crossover": crossover,
    "not": not_gate,
    "and": kaye_and,
    "or": pedersen_or,
    "xor": pedersen_xor,
    "cross": cross,
    "or-tile": lambda: gate_tile("or"),
    "xor-tile": lambda: gate_tile("xor"),
    "and-tile": lambda: gate_tile("and"),
}


def build(name: str) -> Gadget:
    """The library gadget called ``name`` (see :data:`BUILDERS`).

    Raises:
        KeyError: no gadget has that name.
    """
    return BUILDERS[name]()


def gadget_files() -> dict[str, str]:
    """Every library gadget as the file ``gadget write`` makes: ``{"NAME.txt": text}``
    (the caller writes them; the library does not touch the disk).

    >>> gadget_files()["not.txt"].startswith("# Written by")
    True
    """
    return {f"{name}.txt": format_gadget(build(name), HEADER) for name in BUILDERS}


HEADER = "Written by `satsweeper gadget write gadgets` from satsweeper/gadgets/library.py;\n" \
         "the tests check that this file and the builder agree.  Check it with\n" \
         "`satsweeper gadget verify FILE`."
