"""The Minesweeper position as a player sees it.

A :class:`Board` is a rectangle of squares.  Each square is one of

* hidden (optionally carrying a *name*, as the cells of gadget figures do),
* revealed, showing the number of mines among its on-board neighbours,
* a flag: a square known to be a mine,
* void: not part of the board at all (no mine, no number; figure fragments
  use it to cut a gadget out of a larger board).

Cells are ``(row, col)`` tuples, 0-based from the top-left.  The board may
also carry the total number of mines, flags included.  Only this module and
:mod:`satsweeper.textio` know about grids; everything downstream sees
constraints over opaque cells.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Iterator, Mapping

Cell = tuple[int, int]

NEIGHBOUR_OFFSETS: tuple[Cell, ...] = tuple(
    (dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)
)


@lru_cache(maxsize=64)
def grid(height: int, width: int) -> tuple[tuple[Cell, ...], dict[Cell, tuple[Cell, ...]]]:
    """Every cell of a rectangle in row-major order, and each cell's neighbours.

    Computed once per size: strategies rebuild positions every move, and
    neighbour arithmetic was a large share of their time.

    >>> cells, near = grid(2, 2)
    >>> cells, near[(0, 0)]
    (((0, 0), (0, 1), (1, 0), (1, 1)), ((0, 1), (1, 0), (1, 1)))
    """
    cells = tuple((r, c) for r in range(height) for c in range(width))
    near = {(r, c): tuple((r + dr, c + dc) for dr, dc in NEIGHBOUR_OFFSETS
                          if 0 <= r + dr < height and 0 <= c + dc < width)
            for r, c in cells}
    return cells, near


# Above this many squares, a sparse board's neighbours are worked out on demand rather than tabled.
LARGE = 40_000


class _Neighbours(Mapping):
    """A board's neighbour table computed cell by cell (see Board.neighbour_table)."""

    def __init__(self, board: "Board") -> None:
        self.board = board

    def __getitem__(self, cell: Cell) -> tuple[Cell, ...]:
        r, c = cell
        if not self.board.contains(cell):
            raise KeyError(cell)
        return tuple((r + dr, c + dc) for dr, dc in NEIGHBOUR_OFFSETS if self.board.contains((r + dr, c + dc)))

    def get(self, cell, default=None):
        return self[cell] if self.board.contains(cell) else default

    def __iter__(self):
        return self.board.cells()

    def __len__(self) -> int:
        return self.board.height * self.board.width - len(self.board.voids)


@dataclass(frozen=True, eq=True)
class Board:
    """An immutable Minesweeper position.

    Args:
        height, width: size of the rectangle.
        clues: revealed cells and the number each shows.
        flags: cells known to be mines.
        voids: cells that are not part of the board.
        names: names of some hidden cells (``{(0, 2): "x"}``).
        total_mines: mines on the whole board, flags included, if known.

    Every cell not in ``clues``, ``flags`` or ``voids`` is hidden.

    >>> b = Board(1, 3, clues={(0, 0): 1})
    >>> b.hidden_cells()
    [(0, 1), (0, 2)]
    >>> b.neighbours((0, 0))
    [(0, 1)]
    """

    height: int
    width: int
    clues: Mapping[Cell, int] = field(default_factory=dict)
    flags: frozenset[Cell] = frozenset()
    voids: frozenset[Cell] = frozenset()
    names: Mapping[Cell, str] = field(default_factory=dict)
    total_mines: int | None = None

    def __post_init__(self) -> None:
        # Freeze the mappings we were given so a Board really is a value.
        object.__setattr__(self, "clues", dict(self.clues))
        object.__setattr__(self, "flags", frozenset(self.flags))
        object.__setattr__(self, "voids", frozenset(self.voids))
        object.__setattr__(self, "names", dict(self.names))

    def __hash__(self) -> int:
        return hash((self.height, self.width, frozenset(self.clues.items()),
                     self.flags, self.voids, frozenset(self.names.items()),
                     self.total_mines))

    def cells(self) -> Iterator[Cell]:
        """Every position of the rectangle, row by row."""
        if self.sparse:
            return ((r, c) for r in range(self.height) for c in range(self.width))
        return iter(grid(self.height, self.width)[0])

    @cached_property
    def sparse(self) -> bool:
        """A large board with few hidden squares (a compiled circuit): no full neighbour table for it."""
        area = self.height * self.width
        hidden = area - len(self.clues) - len(self.flags) - len(self.voids)
        return area > LARGE and 8 * hidden < area

    @cached_property
    def neighbour_table(self) -> Mapping[Cell, tuple[Cell, ...]]:
        """cell -> its on-board, non-void neighbours (shared between boards of one size without voids).

        A large board (a compiled circuit) gets a table that works each
        cell's neighbours out when asked: most of its squares are never asked.
        """
        if self.sparse:
            return _Neighbours(self)
        near = grid(self.height, self.width)[1]
        if not self.voids:
            return near
        voids = self.voids
        return {cell: tuple(n for n in ns if n not in voids) for cell, ns in near.items()}

    def contains(self, cell: Cell) -> bool:
        """True if ``cell`` lies inside the rectangle and is not void."""
        r, c = cell
        return 0 <= r < self.height and 0 <= c < self.width and cell not in self.voids

    def corners(self) -> list[Cell]:
        """The cells with at most three neighbours on the board, in row-major order.

        On a rectangle of two or more rows and columns these are its four
        corners; voids and single rows make more (a corner's few neighbours
        are what make it the likeliest cell to show 0).

        >>> Board(2, 3, {}).corners(), Board(1, 3, {}).corners()
        ([(0, 0), (0, 2), (1, 0), (1, 2)], [(0, 0), (0, 1), (0, 2)])
        >>> Board(3, 3, {}, voids=frozenset({(0, 2), (2, 2)})).corners()  # a notch
        [(0, 0), (1, 2), (2, 0)]
        """
        table = self.neighbour_table
        return [c for c in self.cells() if c not in self.voids and len(table[c]) <= 3]

    def is_hidden(self, cell: Cell) -> bool:
        """True if ``cell`` is on the board and neither revealed nor flagged."""
        return self.contains(cell) and cell not in self.clues and cell not in self.flags

    def hidden_cells(self) -> list[Cell]:
        """All hidden cells in row-major order."""
        shown = self.clues.keys() | self.flags | self.voids
        return [cell for cell in self.cells() if cell not in shown]

    def neighbours(self, cell: Cell) -> list[Cell]:
        """The (up to 8) on-board, non-void neighbours of ``cell``."""
        near = self.neighbour_table.get(cell)
        if near is not None:
            return list(near)
        r, c = cell  # a cell outside the rectangle still has neighbours inside it
        return [(r + dr, c + dc) for dr, dc in NEIGHBOUR_OFFSETS
                if self.contains((r + dr, c + dc))]

    def cell_by_name(self, name: str) -> Cell | None:
        """The hidden cell carrying ``name``, or None."""
        for cell, n in self.names.items():
            if n == name:
                return cell
        return None

    def label(self, cell: Cell) -> str:
        """How messages refer to a cell: ``3,7`` or ``x (3,7)`` if named."""
        text = f"{cell[0]},{cell[1]}"
        name = self.names.get(cell)
        return f"{name} ({text})" if name else text

    def with_flags_hidden(self) -> "Board":
        """The same position with every flag turned back into a hidden cell.

        >>> Board(1, 2, {(0, 0): 1}, frozenset({(0, 1)})).with_flags_hidden().hidden_cells()
        [(0, 1)]
        """
        return Board(self.height, self.width, self.clues, frozenset(), self.voids,
                     self.names, self.total_mines)
