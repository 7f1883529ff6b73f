"""Drawing whole circuits: wires that know their phase, tiles, and numbers for every square.

A :class:`Layout` draws on a :class:`~satsweeper.gadgets.sketch.Sketch` with
*heads*: the open end of a wire, which knows where its next ``x'``/``x`` pair
must start, which way it runs, and its *flip* (whether the second square of
each pair holds a mine when the signal is true or when it is false).  Wires
run straight, turn and fork through Kaye's junction, and enter and leave
*tiles*: padded gadgets (see ``Sketch.gadget(padded=True)``) stamped with
their own numbers.

Two facts about the period-3 wire make routing mechanical:

* a straight wire needs its length to be a multiple of 3; a junction passed
  straight through adds 4 squares (so it fixes the length mod 3) and swaps
  the roles of ``x`` and ``x'`` (so it flips the wire); six junctions give
  every combination of length residue and flip;
* every revealed square next to a wire or a junction sees as many ``x`` as
  ``x'`` squares, so its number is its flags plus half its hidden
  neighbours, whatever the signals.  Only a tile's own squares (which keep
  the tile's numbers) and a forced end (which shows the value it forces)
  differ.

That is how :meth:`Layout.board` numbers a board of any size without
solving anything; counting the board (the compiler's tests) proves it.

>>> layout = Layout()
>>> a = layout.start(0, 0, "a")
>>> layout.force(layout.straight(a, (0, 12)))
>>> board = layout.board()
>>> from satsweeper.counting import count
>>> count(board)                  # only a = true explains the forced end
1
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import FLAG_SQUARE, HIDDEN_SQUARE, LARGE, NEIGHBOUR_OFFSETS as NEIGHBOURS, Board, Cell
from ..errors import SatsweeperError
from .gadget import Gadget
from .sketch import DOWN, LEFT, RIGHT, UP, Direction, Sketch

__all__ = ["Head", "Layout", "LayoutError", "Port", "ports"]


class LayoutError(SatsweeperError):
    """Pieces that do not fit: too little room to route, or pieces too close."""


@dataclass(frozen=True)
class Head:
    """The open end of a wire being drawn.

    Attributes:
        cell: where the next pair's first square would go (the square
            before it is the gap after the last pair).
        direction: which way the wire runs.
        flip: False if the second square of each pair (in running order)
            holds a mine exactly when the signal is true; True if when false.
    """

    cell: Cell
    direction: Direction
    flip: bool = False

    def at(self, steps: int) -> Cell:
        """The square ``steps`` squares ahead of :attr:`cell`."""
        return _ahead(self.cell, self.direction, steps)


@dataclass(frozen=True)
class Port:
    """A tile's port placed on the board: its outermost square and the way out."""

    cell: Cell
    direction: Direction


def _ahead(cell: Cell, direction: Direction, steps: int) -> Cell:
    return (cell[0] + steps * direction[0], cell[1] + steps * direction[1])


def _turned(direction: Direction) -> Direction:
    return (direction[1], direction[0])


def _reverse(direction: Direction) -> Direction:
    return (-direction[0], -direction[1])


def ports(tile: Gadget) -> dict[str, Port]:
    """Each port of a padded tile: its named square, on the box's edge, and the edge's side.

    >>> from satsweeper.gadgets.library import gate_tile
    >>> ports(gate_tile("xor"))["l"]
    Port(cell=(2, 0), direction=(0, -1))
    """
    b = tile.board
    out = {}
    for name in tile.ports():
        r, c = tile.cell(name)
        sides = [d for d, on in ((UP, r == 0), (DOWN, r == b.height - 1), (LEFT, c == 0), (RIGHT, c == b.width - 1)) if on]
        if len(sides) != 1:
            raise LayoutError(f"tile {tile.name}: port {name} is not on exactly one edge of its box")
        out[name] = Port((r, c), sides[0])
    return out


class Layout:
    """A board being drawn from heads, junctions and tiles."""

    def __init__(self) -> None:
        self.sketch = Sketch()
        self._tiles: list[tuple[Gadget, int, int]] = []
        self._forced: dict[Cell, int] = {}

    # Wires ----------------------------------------------------------------

    def start(self, row: int, col: int, name: str) -> Head:
        """A free input wire running right: flags close its left end, its first ``x`` is named."""
        self.sketch.cap((row, col - 1), RIGHT)
        self.sketch.run((row, col), RIGHT, 1)
        self.sketch.name((row, col + 1), name)
        return Head((row, col + 3), RIGHT)

    def close(self, head: Head) -> None:
        """End a wire with flags: its value stays free."""
        self.sketch.cap(head.at(-1), head.direction)

    def force(self, head: Head, value: bool = True) -> None:
        """End a wire where it must carry ``value``: the squares past its last pair show that.

        The gap after the last pair and the two squares beside it see only
        the pair's second square, so their number says whether it is a mine.
        """
        if head.at(-2) not in self.sketch.hidden:
            raise LayoutError(f"no wire ends at {head.cell}")
        mine = int(value != head.flip)
        across = _turned(head.direction)
        for side in (-1, 0, 1):
            self._forced[_ahead(head.at(-1), across, side)] = mine

    def straight(self, head: Head, target: Cell, flip: bool | None = None) -> Head:
        """Run ``head`` straight on to ``target`` (where the next pair must start).

        Junctions passed straight through fix the length mod 3 and, when
        ``flip`` is given, make the wire arrive with that flip.
        """
        d = head.direction
        length = (target[0] - head.cell[0]) * d[0] + (target[1] - head.cell[1]) * d[1]
        if _ahead(head.cell, d, length) != target or length < 0:
            raise LayoutError(f"{target} is not straight ahead of {head.cell}")
        junctions = next(j for j in range(6) if j % 3 == length % 3
                         and (flip is None or (j % 2 == 1) == (flip != head.flip)))
        if length < 4 * junctions:
            raise LayoutError(f"{length} squares from {head.cell} to {target} cannot hold {junctions} junctions")
        # Junctions go in the middle, away from whatever the wire leaves or enters.
        pairs = (length - 4 * junctions) // 3
        cell = self.sketch.run(head.cell, d, pairs // 2)
        for _ in range(junctions):
            centre = _ahead(cell, d, 1)
            self.sketch.junction(centre, {_reverse(d): 0, d: 0})
            cell = _ahead(centre, d, 3)
        self.sketch.run(cell, d, pairs - pairs // 2)
        return Head(target, d, head.flip != (junctions % 2 == 1))

    def corner(self, head: Head, turn: Direction) -> Head:
        """Turn the wire (Kaye's junction with two arms); the flip is kept."""
        centre = head.at(1)
        self.sketch.junction(centre, {_reverse(head.direction): 0, turn: 0})
        return Head(_ahead(centre, turn, 3), turn, head.flip)

    def split(self, head: Head, turn: Direction) -> tuple[Head, Head]:
        """Fork the wire: one branch straight on (flipped), one turned (not)."""
        centre = head.at(1)
        d = head.direction
        self.sketch.junction(centre, {_reverse(d): 0, d: 0, turn: 0})
        return Head(_ahead(centre, d, 3), d, not head.flip), Head(_ahead(centre, turn, 3), turn, head.flip)

    def tap(self, head: Head) -> Head:
        """Kaye's NOT core in the wire: one square between two revealed squares, flags on both sides.

        The core square holds a mine exactly when the square before it (the
        last pair's second) does not, so it adds one mine when the signal
        is false (``head.flip`` False) or true (``head.flip`` True): a
        *compensator* for a piece whose mine count depends on that signal.
        The wire goes on flipped, two squares further on (every square
        around the core is balanced, so :meth:`board` numbers it).
        """
        if head.at(-2) not in self.sketch.hidden:
            raise LayoutError(f"no wire ends at {head.cell}")
        self.sketch.hide(head.cell)
        across = _turned(head.direction)
        for side in (-1, 1):
            self.sketch.flag(_ahead(head.cell, across, side))
        return Head(head.at(2), head.direction, not head.flip)

    # Tiles ----------------------------------------------------------------

    def place(self, tile: Gadget, top: int, left: int) -> dict[str, Port]:
        """Stamp a padded tile with its numbers; its ports on the board."""
        self.sketch.stamp(tile, top, left, {p: None for p in tile.ports()})
        self._tiles.append((tile, top, left))
        return {name: Port((top + p.cell[0], left + p.cell[1]), p.direction) for name, p in ports(tile).items()}

    def enter(self, head: Head, port: Port, inverted: bool | None = None) -> bool:
        """Run ``head`` into an input port; whether the tile sees the signal inverted.

        The port's square is the first of a pair for a wire coming in, so
        the tile sees the signal as is when the wire arrives flipped.
        With ``inverted`` given, the wire is made to arrive so.
        """
        if head.direction != _reverse(port.direction):
            raise LayoutError(f"a wire running {head.direction} cannot enter a port facing {port.direction}")
        arrived = self.straight(head, port.cell, None if inverted is None else not inverted)
        return not arrived.flip

    @staticmethod
    def leave(port: Port, inverted: bool = False) -> Head:
        """The head of the wire leaving an output port (whose square is the second of its pair)."""
        return Head(_ahead(port.cell, port.direction, 2), port.direction, inverted)

    # Numbers --------------------------------------------------------------

    def board(self, open_sides: frozenset = frozenset()) -> Board:
        """The drawing as a board, every revealed square numbered (see the module's docstring).

        A ring of revealed squares surrounds the drawing, but on ``open_sides``
        (directions), where wires end open on the edge: a tile's ports.  A
        board of more than :data:`~satsweeper.board.LARGE` squares keeps its
        numbers one byte a square (:meth:`Board.from_squares`): a compiled
        circuit is 98% zeros, and a dict of them took most of compiling.
        """
        import numpy as np

        s = self.sketch
        top, left, bottom, right = s.box()
        top, left = top - (UP not in open_sides), left - (LEFT not in open_sides)
        height = bottom - top + 1 + (DOWN not in open_sides)
        width = right - left + 1 + (RIGHT not in open_sides)
        shift = lambda cell: (cell[0] - top, cell[1] - left)  # noqa: E731
        # Grids padded by one square on every side (index = board square + 1):
        # wire squares' neighbours beyond an open side fall there and are dropped.
        weight = np.zeros((height + 2, width + 2), dtype=np.int16)  # 1 a hidden square, 2 a flag
        for cells, w in ((s.hidden, 1), (s.flags, 2)):
            if cells:
                rows, cols = np.array(list(cells)).T
                weight[rows - top + 1, cols - left + 1] = w
        owner, printed = self._owners(shift, weight > 0)
        # Each wire square adds its weight to the halves of its neighbours,
        # but within a tile: the tile's own numbers count its squares already.
        halves = np.zeros_like(weight)
        inner_h, inner_w = height + 2, width + 2
        for dr, dc in NEIGHBOURS:
            src = (slice(max(0, -dr), inner_h - max(0, dr)), slice(max(0, -dc), inner_w - max(0, dc)))
            dst = (slice(max(0, dr), inner_h - max(0, -dr)), slice(max(0, dc), inner_w - max(0, -dc)))
            mine_owner = owner[src]
            halves[dst] += weight[src] * ((mine_owner < 0) | (owner[dst] != mine_owner))
        for cell, v in self._forced.items():
            r, c = shift(cell)
            if 0 <= r < height and 0 <= c < width:
                halves[r + 1, c + 1] += 2 * v - 1  # its one hidden neighbour counts fully or not at all
        halves, printed, weight = halves[1:-1, 1:-1], printed[1:-1, 1:-1], weight[1:-1, 1:-1]
        shown = weight == 0
        odd = shown & (halves % 2 == 1)
        if odd.any():
            cell = tuple(int(x) for x in np.argwhere(odd)[0])
            raise LayoutError(f"square {cell} sees an odd number of wire squares: pieces too close")
        numbers = printed + halves // 2
        names = {shift(c): n for c, n in s.names.items()}
        if height * width > LARGE:
            squares = np.where(weight == 2, FLAG_SQUARE, np.where(shown, numbers, HIDDEN_SQUARE))
            return Board.from_squares(squares.astype(np.int8), names=names)
        rows, cols = np.nonzero(shown)
        clues = dict(zip(zip(rows.tolist(), cols.tolist()), numbers[shown].tolist()))
        flags = frozenset(shift(c) for c in s.flags)
        return Board(height, width, clues, flags, frozenset(), names)

    def order(self) -> list[Cell]:
        """The hidden squares of :meth:`board` in a good order to count them: a sweep, column by column.

        Each junction's squares go together (with its centre's column) and
        otherwise squares go in drawing order; counting in this order keeps
        the DP's frontier to the wires a vertical line crosses.
        """
        if not self.sketch.drawn:
            return []
        top, left, _, _ = self.sketch.box()
        return [(r - top + 1, c - left + 1) for _, _, (r, c) in sorted(self.sketch.drawn)]

    def _owners(self, shift, drawn):
        """Which tile owns each square (-1: none) and the tiles' printed numbers, as grids
        padded like ``drawn`` (the wire squares) by one square on every side.

        Nothing but a tile's own squares may lie in its box or the ring
        around it: the tile's numbers were made for a board with nothing
        there.
        """
        import numpy as np

        owner = np.full(drawn.shape, -1, dtype=np.int32)
        printed = np.zeros(drawn.shape, dtype=np.int16)
        boxes = []
        for index, (tile, top, left) in enumerate(self._tiles):
            b = tile.board
            t, l = shift((top, left))
            box = (slice(t + 1, t + 1 + b.height), slice(l + 1, l + 1 + b.width))
            taken = owner[box]
            if (taken >= 0).any():
                other = self._tiles[int(taken[taken >= 0][0])][0]
                raise LayoutError(f"tiles {tile.name} and {other.name} overlap")
            owner[box] = index
            numbers = b.squares
            printed[box] = np.where(numbers > 0, np.where(numbers <= 8, numbers, 0), 0)
            boxes.append((index, tile, t, l))
        for index, tile, t, l in boxes:
            b = tile.board
            ring = (slice(t, t + 2 + b.height), slice(l, l + 2 + b.width))
            stray = drawn[ring] & (owner[ring] != index)
            if stray.any():
                r, c = (int(x) for x in np.argwhere(stray)[0])
                raise LayoutError(f"square {(t - 1 + r, l - 1 + c)} is drawn inside tile {tile.name}'s box or next to it")
        return owner, printed
