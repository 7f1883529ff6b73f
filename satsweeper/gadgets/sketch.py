"""Drawing composite gadgets: place hidden cells and flags, let SAT find the numbers.

A :class:`Sketch` is a sparse drawing: wires (period-3 runs of hidden
cells), junctions, caps and stamped copies of library gadgets.  Its numbers
are not drawn: :meth:`Sketch.gadget` leaves every other cell of the bounding
box revealed with a placeholder, and :func:`~satsweeper.gadgets.repair.synthesize`
chooses numbers under which every input has an explanation with the claimed
outputs; :func:`~satsweeper.gadgets.gadget.verify` then proves the result
(unique or not) by counting.  Nothing here needs to know which squares are
``x`` and which ``x'``.

>>> s = Sketch()
>>> s.hwire(0, 0, 2)                     # x' x 1 x' x
>>> s.name((0, 1), "a"); s.name((0, 4), "b")
>>> g = s.gadget("wire", ("a",), {"b": "a"})
>>> g.board.height, g.board.width
(1, 5)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..board import Board, Cell
from .gadget import Gadget
from ..errors import InputError

Direction = tuple[int, int]
RIGHT, LEFT, DOWN, UP = (0, 1), (0, -1), (1, 0), (-1, 0)


@dataclass
class Sketch:
    """Hidden cells (some named) and flags on an unbounded grid."""

    hidden: set = field(default_factory=set)
    flags: set = field(default_factory=set)
    names: dict = field(default_factory=dict)
    printed: dict = field(default_factory=dict)
    # Each hidden cell with the column it belongs to (a junction's cells go
    # with its centre), in drawing order: a sweep over these is a good order
    # in which to count a long drawing (see elimination_order).
    drawn: list = field(default_factory=list)
    _anchor: int | None = None
    # The rightmost column drawn, kept as cells come: the compiler asks for
    # it at every leaf, and a max over every cell made compiling quadratic
    # (16 of 22 s on a 3-CNF of 8 variables).
    right: int | None = None

    def hide(self, cell: Cell) -> None:
        if cell in self.flags:
            raise InputError(f"{cell} is already a flag")
        if cell not in self.hidden:
            self.drawn.append((self._anchor if self._anchor is not None else cell[1], len(self.drawn), cell))
        self.hidden.add(cell)
        if self.right is None or cell[1] > self.right:
            self.right = cell[1]

    def flag(self, cell: Cell) -> None:
        if cell in self.hidden:
            raise InputError(f"{cell} is already hidden")
        self.flags.add(cell)
        if self.right is None or cell[1] > self.right:
            self.right = cell[1]

    def name(self, cell: Cell, name: str) -> None:
        if cell not in self.hidden:
            raise InputError(f"only hidden cells carry names ({cell} is not hidden)")
        self.names[cell] = name

    def run(self, start: Cell, direction: Direction, pairs: int) -> Cell:
        """``pairs`` x'/x pairs from ``start`` with a gap after each; the cell after the last gap."""
        (r, c), (dr, dc) = start, direction
        for k in range(pairs):
            self.hide((r + 3 * k * dr, c + 3 * k * dc))
            self.hide((r + (3 * k + 1) * dr, c + (3 * k + 1) * dc))
        return (r + 3 * pairs * dr, c + 3 * pairs * dc)

    def poke(self, start: Cell, direction: Direction) -> Cell:
        """Pairs from ``start`` until the wire sticks out past everything drawn; its outer square.

        A port of a padded gadget (see :meth:`gadget`) must be alone on its
        edge of the box, one square beyond the rest of the drawing.
        """
        (dr, dc) = direction
        reach = max(r * dr + c * dc for r, c in self.hidden | self.flags)
        pairs = 1
        while (start[0] + (3 * pairs - 2) * dr) * dr + (start[1] + (3 * pairs - 2) * dc) * dc <= reach:
            pairs += 1
        self.run(start, direction, pairs)
        return (start[0] + (3 * pairs - 2) * dr, start[1] + (3 * pairs - 2) * dc)

    def hwire(self, row: int, col: int, pairs: int) -> None:
        """A horizontal wire whose first pair starts at ``row, col``."""
        self.run((row, col), RIGHT, pairs)

    def cap(self, cell: Cell, direction: Direction) -> None:
        """Flags across a wire end at ``cell`` (the square after its last pair).

        Revealed squares past a flagged end see no wire square, so the end
        is free: the wire's value stays whatever the rest decides.
        """
        (r, c), (dr, dc) = cell, direction
        for side in (-1, 0, 1):
            self.flag((r + side * dc, c + side * dr))

    def junction(self, centre: Cell, arms: dict[Direction, int | None]) -> dict[Direction, Cell]:
        """A revealed square with a wire arm in each of the four directions.

        Kaye's fan-out (the AND of figure 3.4 splits its output this way):
        each arm is one hidden square next to the centre; ``arms[d]`` pairs
        follow it, each after a gap; ``None`` (or a missing direction) caps
        the arm with flags right after its square.  Two arms make a corner,
        two opposite arms a straight piece that shifts the wire's phase by
        one, three or four arms a split.  Returns, per open direction, the
        square after the arm's last gap (where the next piece starts).
        """
        r, c = centre
        ends = {}
        self._anchor = c
        for (dr, dc) in (RIGHT, LEFT, DOWN, UP):
            self.hide((r + dr, c + dc))
        self._anchor = None
        for (dr, dc) in (RIGHT, LEFT, DOWN, UP):
            pairs = arms.get((dr, dc))
            if pairs is None:
                self.cap((r + 2 * dr, c + 2 * dc), (dr, dc))
            else:
                ends[(dr, dc)] = self.run((r + 3 * dr, c + 3 * dc), (dr, dc), pairs)
        return ends

    def stamp(self, gadget: Gadget, top: int, left: int, rename: dict[str, str] | None = None,
              numbers: bool = False) -> None:
        """Copy a gadget's hidden cells and flags (not its numbers) at ``top, left``.

        Its ports keep their names, or take the names in ``rename``; names
        mapped to None are dropped.  With ``numbers`` the numbers inside the
        gadget (not on its edge) are copied too, as printed values
        (:attr:`printed`) that synthesis can be asked to keep.
        """
        rename = rename or {}
        board = gadget.board
        ports = set(gadget.ports())
        # A tile with a sweep of its own (Gadget.sweep) goes whole at its
        # left edge's column, in that order: counted square by square with
        # the rest, column by column, a balanced board's DP had 1.6 to 5 times
        # the states, its widest layer 5 to 20 times.
        sweep = gadget.sweep
        self._anchor = None if sweep is None else left
        for cell in board.hidden_cells() if sweep is None else sweep:
            here = (top + cell[0], left + cell[1])
            self.hide(here)
            name = board.names.get(cell)
            if name in ports:
                name = rename.get(name, name)
                if name:
                    self.names[here] = name
        self._anchor = None
        for r, c in board.flags:
            self.flag((top + r, left + c))
        if numbers:
            for (r, c), n in board.clues.items():
                if 0 < r < board.height - 1 and 0 < c < board.width - 1:
                    self.printed[(top + r, left + c)] = n

    def box(self, padded: bool = False) -> tuple[int, int, int, int]:
        """Top, left, bottom and right of the drawing's box (see :meth:`gadget`)."""
        cells = self.hidden | self.flags
        top = min(r for r, _ in cells)
        left = min(c for _, c in cells)
        bottom = max(r for r, _ in cells)
        right = max(c for _, c in cells)
        if not padded:
            return top, left, bottom, right
        sides = [lambda c: c[0] == top, lambda c: c[1] == left, lambda c: c[0] == bottom, lambda c: c[1] == right]
        grow = []
        for on in sides:
            edge = [c for c in cells if on(c)]
            grow.append(0 if len(edge) == 1 and edge[0] in self.names else 1)
        return top - grow[0], left - grow[1], bottom + grow[2], right + grow[3]

    def printed_cells(self, padded: bool = False) -> frozenset:
        """The squares with :attr:`printed` numbers, in the coordinates of :meth:`gadget`'s board."""
        top, left, _, _ = self.box(padded)
        return frozenset((r - top, c - left) for r, c in self.printed)

    def gadget(self, name: str, inputs: tuple[str, ...], outputs: dict[str, str], accepts: str = "1",
               padded: bool = False) -> Gadget:
        """The drawing as a gadget: its bounding box, every other square revealed.

        Wire ends on the box's edge are free (nothing lies beyond them); ends
        inside need a :meth:`cap`.  Every revealed square holds 0 until numbers
        are synthesized (or its :attr:`printed` number).  ``padded`` adds a ring of revealed squares on every
        side without a port, so that the box's edges hold nothing but ports:
        such a gadget can be placed in a larger board, its neighbours' numbers
        seeing only its wires (the circuit compiler's tiles).
        """
        top, left, bottom, right = self.box(padded)
        height = bottom - top + 1
        width = right - left + 1
        shift = lambda cell: (cell[0] - top, cell[1] - left)  # noqa: E731
        hidden = {shift(c) for c in self.hidden}
        flags = frozenset(shift(c) for c in self.flags)
        clues = {(r, c): self.printed.get((r + top, c + left), 0) for r in range(height) for c in range(width)
                 if (r, c) not in hidden and (r, c) not in flags}
        names = {shift(c): n for c, n in self.names.items()}
        return Gadget(name, Board(height, width, clues, flags, frozenset(), names), inputs, outputs, accepts)
