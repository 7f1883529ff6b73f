"""The Minesweeper position as a player sees it.

A :class:`Board` is a rectangle of squares.  Each square is one of

* hidden (optionally carrying a *name*, as the cells of gadget figures do),
* revealed, showing the number of mines among its on-board neighbours,
* a flag: a square known to be a mine,
* void: not part of the board at all (no mine, no number; figure fragments
  use it to cut a gadget out of a larger board).

Cells are ``(row, col)`` tuples, 0-based from the top-left.  The board may
also carry the total number of mines, flags included.  The engines never
see the grid: :mod:`satsweeper.constraints` turns a board into rules over
opaque cells, and only :mod:`satsweeper.bitboard` reads a small board's grid
straight for speed.  What plays, draws or builds boards (the game, the
strategies, rendering, gadgets) knows grids too, and so do the hint (a
first click's room, a guess's neighbours) and the difficulty grade (the
position without its total), through :class:`Board`'s own methods.
"""

from __future__ import annotations

from dataclasses import InitVar, dataclass, field
from functools import cached_property, lru_cache
from collections.abc import Set
from typing import Iterable, Iterator, Mapping, Sequence

from .compiled import take_build
from .errors import InputError

Cell = tuple[int, int]


def is_whole(cell) -> bool:
    """False for a tuple that holds anything but whole numbers: ``(3.0, 12)`` and
    ``(True, 1)`` equal ``(3, 12)`` and ``(1, 1)`` as dict keys, and would be
    answered, and kept, as cells (NumPy's integers are whole).

    >>> is_whole((3, 12)), is_whole((3.0, 12)), is_whole((True, 1)), is_whole("a")
    (True, False, False, True)
    """
    return not isinstance(cell, tuple) or all(
        hasattr(type(x), "__index__") and not isinstance(x, bool) for x in cell)

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
    # The neighbours are the same tuple objects as ``cells``: a dict keyed by
    # cells met through neighbours (a game's revealed numbers) then finds its
    # keys in another such dict by identity, without comparing tuples.
    near = {(r, c): tuple(cells[(r + dr) * width + c + dc] for dr, dc in NEIGHBOUR_OFFSETS
                          if 0 <= r + dr < height and 0 <= c + dc < width)
            for r, c in cells}
    return cells, near


class GridCells(Sequence):
    """Cells of a grid in row-major order, kept as one array of flat indices.

    A tuple of ``(row, col)`` tuples costs about 110 bytes a cell; this costs
    8, and the cells are made only when asked for.  The hidden cells of a big
    board come so (a 2000x2000 board has 4 million of them, and most float:
    only their number matters).  It is a sequence of ``(row, col)`` tuples
    like any other, equal to the tuple of the same cells.

    >>> import numpy as np
    >>> cells = GridCells(np.array([1, 2, 5]), width=3)
    >>> list(cells), (1, 2) in cells, (0, 0) in cells, cells[-1]
    ([(0, 1), (0, 2), (1, 2)], True, False, (1, 2))
    >>> picked, rest = cells.split({(0, 2), (9, 9)})
    >>> picked, rest
    ([(0, 2)], GridCells([(0, 1), (1, 2)]))
    """

    __slots__ = ("flat", "width")
    CHUNK = 1 << 16  # cells made at a time while iterating: bounded memory

    def __init__(self, flat, width: int) -> None:
        self.flat = flat  # sorted ascending: row * width + col
        self.width = width

    def __len__(self) -> int:
        return len(self.flat)

    def __getitem__(self, index):
        if isinstance(index, slice):
            if index.step not in (None, 1):
                return [self[i] for i in range(*index.indices(len(self)))]
            return GridCells(self.flat[index], self.width)
        return divmod(int(self.flat[index]), self.width)

    def __iter__(self) -> Iterator[Cell]:
        for start in range(0, len(self.flat), self.CHUNK):
            rows, cols = divmod(self.flat[start:start + self.CHUNK], self.width)
            yield from zip(rows.tolist(), cols.tolist())

    def _flat_of(self, cell) -> int | None:
        try:
            r, c = cell
        except (TypeError, ValueError):
            return None
        if not (isinstance(r, int) and isinstance(c, int) and 0 <= c < self.width and r >= 0):
            return None
        return r * self.width + c

    def __contains__(self, cell) -> bool:
        import numpy as np
        flat = self._flat_of(cell)
        if flat is None:
            return False
        i = int(np.searchsorted(self.flat, flat))
        return i < len(self.flat) and int(self.flat[i]) == flat

    def index(self, cell, start: int = 0, stop: int | None = None) -> int:
        import numpy as np
        flat = self._flat_of(cell)
        i = -1 if flat is None else int(np.searchsorted(self.flat, flat))
        stop = len(self.flat) if stop is None else stop
        if flat is None or not (start <= i < stop) or int(self.flat[i]) != flat:
            raise ValueError(f"{cell!r} is not among the cells")
        return i

    def split(self, chosen: Iterable[Cell]) -> tuple[list[Cell], "GridCells"]:
        """The ``chosen`` cells that are among these, in order, and the others (still compact)."""
        import numpy as np
        flats = [f for f in map(self._flat_of, chosen) if f is not None]
        picked = np.isin(self.flat, np.array(flats, dtype=self.flat.dtype)) if flats else \
            np.zeros(len(self.flat), dtype=bool)
        return list(GridCells(self.flat[picked], self.width)), GridCells(self.flat[~picked], self.width)

    def formatted(self, template: str, special: Mapping[Cell, str] | None = None) -> Iterator[str]:
        """``template % (row, col)`` for every cell, joined by ``", "`` a chunk at a time;
        a cell in ``special`` takes its own template.  Formatting a chunk at
        once runs in C: a big board's JSON lists millions of cells.

        >>> list(GridCells(__import__("numpy").array([1, 3]), 2).formatted("[%d %d]", {(1, 1): "<%d %d>"}))
        ['[0 1], <1 1>']
        """
        import numpy as np
        special = special or {}
        marked = np.array(sorted(r * self.width + c for r, c in special), dtype=self.flat.dtype)
        for start in range(0, len(self.flat), self.CHUNK):
            flat = self.flat[start:start + self.CHUNK]
            rows, cols = divmod(flat, self.width)
            if len(marked) and np.isin(flat, marked).any():
                yield ", ".join(special.get(cell, template) % cell for cell in zip(rows.tolist(), cols.tolist()))
                continue
            pairs = np.empty(2 * len(flat), dtype=np.int64)
            pairs[0::2], pairs[1::2] = rows, cols
            yield ", ".join([template] * len(flat)) % tuple(pairs.tolist())

    def __eq__(self, other) -> bool:
        if isinstance(other, GridCells):
            import numpy as np
            return self.width == other.width and np.array_equal(self.flat, other.flat)
        if isinstance(other, (tuple, list)):
            return len(self) == len(other) and tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))  # equal to the tuple of its cells, so hashed as one

    def __repr__(self) -> str:
        shown = ", ".join(map(str, self[:6]))
        more = f", ... {len(self) - 6} more" if len(self) > 6 else ""
        return f"GridCells([{shown}{more}])"


class GridClues(Mapping):
    """A big board's revealed numbers, one byte a square (-1: no number there).

    A dict of ``(row, col) -> number`` costs about 150 bytes a number; a
    1000x1000 board in mid-game shows 850,000 of them.  This mapping reads
    the same and costs one byte a square; the board readers build it for big
    boards, and :func:`~satsweeper.constraints.problem_of` works on the array.

    >>> import numpy as np
    >>> clues = GridClues(np.array([[1, -1], [-1, 0]], dtype=np.int8))
    >>> dict(clues), (0, 1) in clues, len(clues)
    ({(0, 0): 1, (1, 1): 0}, False, 2)
    """

    __slots__ = ("numbers", "_len")

    def __init__(self, numbers) -> None:
        numbers.flags.writeable = False  # shared by boards: a Board is a value
        self.numbers = numbers
        self._len: int | None = None

    def __getitem__(self, cell) -> int:
        try:
            r, c = cell
        except (TypeError, ValueError):
            raise KeyError(cell) from None
        height, width = self.numbers.shape
        if not (isinstance(r, int) and isinstance(c, int) and 0 <= r < height and 0 <= c < width):
            raise KeyError(cell)
        number = int(self.numbers[r, c])
        if number < 0:
            raise KeyError(cell)
        return number

    def __contains__(self, cell) -> bool:
        try:
            self[cell]
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[Cell]:
        import numpy as np
        return iter(GridCells(np.flatnonzero(self.numbers >= 0), self.numbers.shape[1]))

    def __len__(self) -> int:
        if self._len is None:
            self._len = int((self.numbers >= 0).sum())
        return self._len

    def __hash__(self) -> int:
        return hash(frozenset(self.items()))

    def __eq__(self, other) -> bool:
        if isinstance(other, GridClues):
            import numpy as np
            return np.array_equal(self.numbers, other.numbers)
        return super().__eq__(other)


class GridSquareSet(Set):
    """The cells of a grid of square codes that hold one code: a big board's flags or voids.

    A frozenset of ``(row, col)`` tuples costs about 150 bytes a cell; a
    1000x1000 board in mid-game has 150,000 flags.  This set is a view of the
    board's own grid (:attr:`Board.squares`), so it costs nothing more, and
    it reads, compares and hashes like the frozenset of the same cells.
    Set operations with it give frozensets.

    >>> import numpy as np
    >>> flags = GridSquareSet(np.array([[9, 0], [9, 9]], dtype=np.int8), 9)
    >>> sorted(flags), (1, 0) in flags, (0, 1) in flags, len(flags)
    ([(0, 0), (1, 0), (1, 1)], True, False, 3)
    >>> flags == {(0, 0), (1, 0), (1, 1)}, hash(flags) == hash(frozenset(flags))
    (True, True)
    >>> flags - {(1, 1)} == frozenset({(0, 0), (1, 0)}), type(flags | {(0, 1)}).__name__
    (True, 'frozenset')
    """

    __slots__ = ("squares", "code", "_len")

    def __init__(self, squares, code: int) -> None:
        self.squares = squares  # read-only: shared with the board
        self.code = code
        self._len: int | None = None

    @classmethod
    def _from_iterable(cls, cells) -> frozenset:
        return frozenset(cells)

    def flat(self):
        """The cells as ascending flat indices ``row * width + col`` (a numpy array)."""
        import numpy as np
        return np.flatnonzero(self.squares == self.code)

    def __contains__(self, cell) -> bool:
        try:
            r, c = cell
        except (TypeError, ValueError):
            return False
        height, width = self.squares.shape
        return (isinstance(r, int) and isinstance(c, int) and 0 <= r < height and 0 <= c < width
                and self.squares[r, c] == self.code)

    def __iter__(self) -> Iterator[Cell]:
        return iter(GridCells(self.flat(), self.squares.shape[1]))

    def __len__(self) -> int:
        if self._len is None:
            self._len = int((self.squares == self.code).sum())
        return self._len

    def __hash__(self) -> int:
        return self._hash()  # the frozenset algorithm: equal sets hash alike

    def __reduce__(self):
        return GridSquareSet, (self.squares, self.code)

    def __repr__(self) -> str:
        shown = ", ".join(map(str, GridCells(self.flat()[:6], self.squares.shape[1])))
        more = f", ... {len(self) - 6} more" if len(self) > 6 else ""
        return f"GridSquareSet({{{shown}{more}}})"


def _whole(n) -> bool:
    """An int (a numpy integer too), not a bool."""
    return hasattr(type(n), "__index__") and not isinstance(n, bool)


def _off_grid(cells: Iterable, height: int, width: int) -> tuple | None:
    """The first of ``cells`` that is not a (row, col) of the rectangle, in a 1-tuple; else None."""
    for cell in cells:
        try:
            row, col = cell
            if 0 <= row < height and 0 <= col < width and (
                    type(row) is int and type(col) is int or _whole(row) and _whole(col)):
                continue
        except (TypeError, ValueError):
            pass
        return (cell,)
    return None


# The codes of Board.squares other than the numbers 0-8.
HIDDEN_SQUARE, FLAG_SQUARE, VOID_SQUARE = -1, 9, 10


def _coordinates(cells):
    """Row and column arrays of a collection of (row, col) cells."""
    import numpy as np
    from itertools import chain

    flat = np.fromiter(chain.from_iterable(cells), dtype=np.int64, count=2 * len(cells))
    return flat[0::2], flat[1::2]


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
        check: refuse what no position can be (an InputError for a cell off
            the board, a square both number and flag, a negative total);
            False only for parts known to be good.

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
    check: InitVar[bool] = True

    def __post_init__(self, check: bool) -> None:
        # Freeze the mappings we were given so a Board really is a value.
        if not isinstance(self.clues, GridClues):  # already a value, one byte a square
            object.__setattr__(self, "clues", dict(self.clues))
        for name in ("flags", "voids"):
            if not isinstance(getattr(self, name), GridSquareSet):  # already a value, a view of a grid
                object.__setattr__(self, name, frozenset(getattr(self, name)))
        object.__setattr__(self, "names", dict(self.names))
        if check:  # False only from code whose parts are good by construction (a game's view, every move)
            self._check()

    def _check(self) -> None:
        """Refuse what no position can be, here rather than as a KeyError, a
        TypeError or a wrong answer from deep inside a question.

        A number no layout can show (a 9, a 4 in a corner) is not refused:
        the board is then inconsistent, and saying so is the answer.

        >>> Board(2, 3, {(0, 3): 1})  # Board(height, width): a board 3 wide
        Traceback (most recent call last):
        ...
        satsweeper.errors.InputError: a revealed number's cell (row, col) on the 3x2 board (WIDTHxHEIGHT; rows 0-1, columns 0-2) (got (0, 3))
        """
        height, width, total = self.height, self.width, self.total_mines
        if not (_whole(height) and _whole(width) and height >= 1 and width >= 1):
            raise InputError(f"a height and width that are whole numbers, at least 1 (got {height!r} and {width!r})")
        if total is not None and not (_whole(total) and total >= 0):
            raise InputError(f"a total of mines that is a whole number, 0 or more, or None (got {total!r})")
        if isinstance(self.clues, GridClues):  # made from a grid of squares: on the board by construction
            return
        for what, cells in (("a revealed number's", self.clues), ("a flag's", self.flags),
                            ("a void's", self.voids), ("a name's", self.names)):
            off = _off_grid(cells, height, width)
            if off is not None:
                raise InputError(f"{what} cell (row, col) on the {width}x{height} board (WIDTHxHEIGHT; rows 0-{height - 1}, "
                                 f"columns 0-{width - 1}) (got {off[0]!r})")
        if not all(type(number) is int or _whole(number) for number in self.clues.values()):
            cell, number = next((c, n) for c, n in self.clues.items() if not _whole(n))
            raise InputError(f"a revealed number that is a whole number (got {number!r} at {cell!r})")
        both = self.clues.keys() & self.flags or (self.clues.keys() | self.flags) & self.voids
        if both:
            raise InputError(f"at most one of number, flag and void on a square (got two on {min(both)!r})")

    @classmethod
    def from_squares(cls, squares, total_mines: int | None = None,
                     names: Mapping[Cell, str] | None = None) -> "Board":
        """A board from a numpy grid of :attr:`squares` codes, kept compact.

        Its numbers stay one byte a square (a :class:`GridClues`), and its
        flags and voids are views of the grid (:class:`GridSquareSet`): a
        settled square costs a byte or two, not objects.  The big-board
        readers and the circuit compiler build boards so.

        >>> import numpy as np
        >>> b = Board.from_squares(np.array([[1, -1], [9, 10]], dtype=np.int8), total_mines=1)
        >>> dict(b.clues), b.flags, b.voids, b.hidden_cells()
        ({(0, 0): 1}, GridSquareSet({(1, 0)}), GridSquareSet({(1, 1)}), [(0, 1)])
        >>> b == Board(2, 2, {(0, 0): 1}, frozenset({(1, 0)}), frozenset({(1, 1)}), total_mines=1)
        True
        """
        import numpy as np
        height, width = squares.shape
        numbers = np.where(squares <= 8, squares, HIDDEN_SQUARE).astype(np.int8)
        squares = squares.astype(np.int8)
        squares.flags.writeable = False
        board = cls(height, width, GridClues(numbers), GridSquareSet(squares, FLAG_SQUARE),
                    GridSquareSet(squares, VOID_SQUARE), names or {}, total_mines)
        board.__dict__["squares"] = squares  # the cached property, already known
        return board

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
    def squares(self):
        """The board as a numpy grid of one byte a square: -1 hidden, 0-8 a
        number, :data:`FLAG_SQUARE`, :data:`VOID_SQUARE`.

        What array code (:func:`~satsweeper.constraints.problem_of` on big
        boards) reads; a board read from a big text file comes with it.

        >>> Board(1, 3, {(0, 0): 2}, frozenset({(0, 2)})).squares.tolist()
        [[2, -1, 9]]
        """
        import numpy as np
        if isinstance(self.clues, GridClues):
            grid = self.clues.numbers.copy()
        else:
            grid = np.full((self.height, self.width), HIDDEN_SQUARE, dtype=np.int8)
            if self.clues:
                rows, cols = _coordinates(self.clues)
                grid[rows, cols] = np.fromiter(self.clues.values(), dtype=np.int8, count=len(self.clues))
        for cells, code in ((self.flags, FLAG_SQUARE), (self.voids, VOID_SQUARE)):
            if isinstance(cells, GridSquareSet):
                grid.flat[cells.flat()] = code
            elif cells:
                rows, cols = _coordinates(cells)
                grid[rows, cols] = code
        grid.flags.writeable = False
        return grid

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
        if isinstance(self.clues, GridClues):
            # From the square codes: a set of every shown square took 9 GB on a
            # 44-million-square compiled board.
            import numpy as np
            return list(GridCells(np.flatnonzero(self.squares == HIDDEN_SQUARE), self.width))
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


# setup.py compiles this file with Cython (why: its NAMES); the build serves only while made
# from this very text (satsweeper.compiled).
COMPILED = take_build(globals(), "board")
