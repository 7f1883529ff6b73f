"""A game of Minesweeper: the hidden layout and the rules of play.

The :class:`Game` owns the truth (where the mines are).  Players and
strategies see only :attr:`Game.board`, the position a player sees: revealed
numbers, their own flags and the total mine count.

Mine placement is uniform over all layouts (Dupuis gives two methods, both
offered); first-click rules decide which layouts are allowed:

* ``can-lose``: any layout; the first click may hit a mine.
* ``safe``: uniform over layouts without a mine on the first click.
* ``opening``: uniform over layouts without a mine on the first click or its
  neighbours, so the first click opens a region.
"""

from __future__ import annotations

import enum
import functools
import itertools
import random
import re
from dataclasses import dataclass
from typing import Iterable

from .board import Board, Cell, grid, is_whole
from .errors import CellError, InputError, cut, shorten


class FirstClick(enum.Enum):
    """Which layouts a first click may meet."""

    CAN_LOSE = "can-lose"
    SAFE = "safe"
    OPENING = "opening"


class Placement(enum.Enum):
    """Two uniform ways to place mines (Dupuis)."""

    SAMPLE = "sample"          # draw cells without replacement
    SEQUENTIAL = "sequential"  # one pass, mine with probability mines_left / cells_left


class Outcome(enum.Enum):
    """Where a game stands: won when every safe cell is open, lost on a mine."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


@dataclass(frozen=True)
class Level:
    """Board size and mine count.

    >>> Level.parse("expert")
    Level(width=30, height=16, mines=99)
    >>> Level.parse("10x10x10")
    Level(width=10, height=10, mines=10)
    >>> Level.parse("Expert") == Level.parse("30X16X99")  # as people type them
    True
    """

    width: int
    height: int
    mines: int

    def __post_init__(self) -> None:
        # Said here, not as an IndexError or a silently empty game later on.
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in (self.width, self.height, self.mines)):
            raise InputError(f"whole numbers for the width, height and mines "
                             f"(got {self.width!r}, {self.height!r}, {self.mines!r})")
        if self.width < 1 or self.height < 1 or not 0 <= self.mines <= self.width * self.height:
            raise InputError(f"at least 1x1 and 0 to WIDTH*HEIGHT mines "
                             f"(got {self.width}x{self.height}x{self.mines})")

    def contains(self, cell) -> bool:
        """Is ``cell`` a (row, col) of the board?

        >>> Level(3, 2, 1).contains((1, 2)), Level(3, 2, 1).contains((2, 0)), Level(3, 2, 1).contains("1,2")
        (True, False, False)
        """
        return isinstance(cell, tuple) and is_whole(cell) and cell in grid(self.height, self.width)[1]

    def check_cell(self, cell: Cell) -> Cell:
        """``cell`` if it lies on the board, else a :class:`CellError` saying so.

        >>> Level(3, 2, 1).check_cell((1, 2))
        (1, 2)
        >>> Level(3, 2, 1).check_cell((2, 0))
        Traceback (most recent call last):
        ...
        satsweeper.errors.CellError: a cell (row, col) of the 3x2x1 board (got (2, 0))
        """
        if not self.contains(cell):
            whole = "" if is_whole(cell) else " in whole numbers"
            raise CellError(f"a cell (row, col){whole} of the {self} board (got {cell!r})")
        return cell

    @classmethod
    def parse(cls, text: str) -> "Level":
        if text.strip().lower() in LEVELS:
            return LEVELS[text.strip().lower()]
        match = re.fullmatch(r"([0-9]{1,9})[xX]([0-9]{1,9})[xX/]([0-9]{1,12})", text.strip())
        if not match:
            if re.fullmatch(r"[0-9]+[xX][0-9]+[xX/][0-9]+", text.strip()):  # well formed, too many digits
                raise InputError(f"WIDTHxHEIGHTxMINES with at most 9 digits a side and 12 for the mines "
                                 f"(got {cut(text.strip())})")
            raise InputError(f"a level name ({', '.join(LEVELS)}) or WIDTHxHEIGHTxMINES (got {text!r})")
        width, height, mines = (int(g) for g in match.groups())
        if width < 1 or height < 1:
            raise InputError(f"a width and height of at least 1 (got {text.strip()!r})")
        if mines > width * height:
            raise InputError(f"at most {width * height} mines on {width}x{height}, its number of squares (got {mines})")
        return cls(width, height, mines)

    def __str__(self) -> str:
        return f"{self.width}x{self.height}x{self.mines}"


LEVELS = {
    "beginner": Level(9, 9, 10),
    "intermediate": Level(16, 16, 40),
    "expert": Level(30, 16, 99),
}


def place_mines(level: Level, rng: random.Random, excluded: frozenset[Cell] = frozenset(),
                method: Placement = Placement.SAMPLE) -> frozenset[Cell]:
    """A uniformly random layout of ``level.mines`` mines avoiding ``excluded``.

    >>> sorted(place_mines(Level(3, 1, 2), random.Random(1)))
    [(0, 0), (0, 2)]
    """
    cells = [(r, c) for r in range(level.height) for c in range(level.width) if (r, c) not in excluded]
    if level.mines > len(cells):
        raise InputError(f"at most {len(cells)} mines outside the excluded cells (got {level.mines})")
    if method is Placement.SAMPLE:
        return frozenset(rng.sample(cells, level.mines))
    mines, left = [], level.mines
    for i, cell in enumerate(cells):
        if rng.random() * (len(cells) - i) < left:
            mines.append(cell)
            left -= 1
    return frozenset(mines)


def kept_free(level: Level, rule: FirstClick, first: Cell) -> frozenset[Cell]:
    """The cells ``rule`` keeps free of mines for a first click at ``first``.

    >>> sorted(kept_free(Level(3, 3, 1), FirstClick.OPENING, (0, 0)))
    [(0, 0), (0, 1), (1, 0), (1, 1)]
    """
    if rule is FirstClick.SAFE:
        return frozenset({first})
    if rule is FirstClick.OPENING:
        return frozenset([first, *neighbours(level, first)])
    return frozenset()


def neighbours(level: Level, cell: Cell) -> tuple[Cell, ...]:
    """The on-board neighbours of ``cell`` (from the board module's cached table)."""
    return grid(level.height, level.width)[1][cell]


class Game:
    """One game: the layout, what is revealed, what is flagged.

    >>> g = Game(Level(3, 2, 1), frozenset({(0, 2)}))
    >>> g.open((1, 0))
    <Outcome.PLAYING: 'playing'>
    >>> sorted(g.board.clues.items())
    [((0, 0), 0), ((0, 1), 1), ((1, 0), 0), ((1, 1), 1)]
    >>> g.open((1, 2))
    <Outcome.WON: 'won'>
    """

    def __init__(self, level: Level, mines: frozenset[Cell]):
        self.level = level
        try:
            self.mines = frozenset(mines)
        except TypeError:  # [[1, 1]]: "unhashable type: 'list'" said nothing of cells
            raise InputError(f"mines as (row, col) tuples (got {shorten(repr(mines))})") from None
        if not self.mines <= grid(level.height, level.width)[1].keys():
            # A mine off the board would never be met, and the game never won.
            level.check_cell(min(self.mines - grid(level.height, level.width)[1].keys(), key=repr))
        self.revealed: dict[Cell, int] = {}
        self.flags: set[Cell] = set()
        self.outcome = Outcome.PLAYING
        self.recent: list[Cell] = []  # cells the last open() revealed
        self._safe_left = level.width * level.height - len(self.mines)

    @classmethod
    def new(cls, level: Level, rng: random.Random, first: Cell,
            rule: FirstClick = FirstClick.SAFE, method: Placement = Placement.SAMPLE) -> "Game":
        """A game whose layout respects ``rule`` for a first click at ``first``."""
        level.check_cell(first)
        # A plain "safe" would otherwise fall through to can-lose; a seed was an AttributeError.
        for value, kind, name, example in ((rng, random.Random, "random.Random", "random.Random(7)"),
                                           (rule, FirstClick, "FirstClick", "FirstClick.SAFE"),
                                           (method, Placement, "Placement", "Placement.SAMPLE")):
            if not isinstance(value, kind):  # only what is wrong is named, not what the caller never passed
                raise InputError(f"a {name}, such as {example} (got {value!r})")
        return cls(level, place_mines(level, rng, kept_free(level, rule, first), method))

    def number(self, cell: Cell) -> int:
        """How many mines touch ``cell`` (the truth; a player learns it by opening)."""
        self.level.check_cell(cell)
        return self._number(cell)

    def _number(self, cell: Cell) -> int:
        """:meth:`number` of a cell known to be on the board (flood fill's, unchecked)."""
        return len(self.mines.intersection(neighbours(self.level, cell)))

    @property
    def board(self) -> Board:
        """What the player sees."""
        # Not checked again: open and flag took only cells of the board, and
        # checking every move's board slowed the fast strategies by a quarter.
        return Board(self.level.height, self.level.width, self.revealed, frozenset(self.flags),
                     total_mines=self.level.mines, check=False)

    def check_count(self) -> None:
        """Raise unless the mines are as many as the level says (a caller's slip:
        2 mines on a 1-mine level were played, and graded, as given)."""
        if len(self.mines) != self.level.mines:
            raise InputError(f"{self.level.mines} mine(s), as the level {self.level} says (got {len(self.mines)})")

    def opened_with(self, start: Cell, shown: Iterable[Cell] = (), flagged: Iterable[Cell] = ()) -> Game:
        """This game with ``start`` opened, then the safe cells ``shown`` (a puzzle's
        given numbers) and the mines ``flagged`` (its given flags): the position a
        puzzle's player begins from.

        >>> g = Game(Level(4, 1, 1), frozenset({(0, 1)})).opened_with((0, 0), [(0, 3)], [(0, 1)])
        >>> sorted(g.revealed), sorted(g.flags)
        ([(0, 0), (0, 2), (0, 3)], [(0, 1)])
        """
        self.open(start)
        for cell in shown:
            if cell in self.mines:
                raise InputError(f"safe cells shown (got {cell[0]},{cell[1]}, a mine)")
            self.open(cell)
        for cell in flagged:
            if cell not in self.mines:
                raise InputError(f"mines flagged (got {cell[0]},{cell[1]}, a safe cell)")
            self.flag(cell)
        return self

    def open(self, cell: Cell) -> Outcome:
        """Open a hidden cell; a 0 opens its whole region (flood fill)."""
        self.level.check_cell(cell)
        self.recent = []
        if self.outcome is not Outcome.PLAYING or cell in self.revealed or cell in self.flags:
            return self.outcome
        if cell in self.mines:
            self.outcome = Outcome.LOST
            return self.outcome
        stack = [cell]
        while stack:
            current = stack.pop()
            if current in self.revealed:
                continue
            number = self._number(current)
            self.revealed[current] = number
            self.recent.append(current)
            self._safe_left -= 1
            self.flags.discard(current)
            if number == 0:
                stack.extend(n for n in neighbours(self.level, current) if n not in self.revealed)
        if self._safe_left == 0:
            self.outcome = Outcome.WON
        return self.outcome

    def move_mines(self, removed: frozenset[Cell], added: frozenset[Cell]) -> list[Cell]:
        """Change the layout under hidden cells (a generator's perturbation).

        Mines leave ``removed`` and go to ``added``; the count stays the
        same.  Returns the revealed cells whose number changed.

        >>> g = Game(Level(4, 1, 1), frozenset({(0, 2)}))
        >>> _ = g.open((0, 0))  # 0 1 . .
        >>> g.move_mines(frozenset({(0, 2)}), frozenset({(0, 3)})), g.revealed[(0, 1)]
        ([(0, 1)], 0)
        """
        if len(removed) != len(added) or not removed <= self.mines or added & self.mines:
            raise ValueError(f"as many new mines as removed ones, from mines to safe cells "
                             f"(got {sorted(removed)} -> {sorted(added)})")
        for cell in added:  # removed ones are mines, on the board already
            self.level.check_cell(cell)
        if any(c in self.revealed for c in removed | added):
            raise ValueError("hidden cells to move mines between (got a revealed one)")
        self.mines = (self.mines - removed) | added
        changed = {n for c in removed | added for n in neighbours(self.level, c) if n in self.revealed}
        for cell in changed:
            self.revealed[cell] = self._number(cell)
        return sorted(changed)

    def flag(self, cell: Cell) -> None:
        """Mark a hidden cell as a mine (the player's claim; not checked).

        Flags never end a game: it is won when every safe cell is open.
        """
        self.level.check_cell(cell)
        if cell not in self.revealed:
            self.flags.add(cell)

    def unflag(self, cell: Cell) -> None:
        """Take a flag back (:meth:`open` leaves a flagged cell alone, as a game's click does).

        >>> g = Game(Level(2, 1, 1), frozenset({(0, 1)}))
        >>> g.flag((0, 0)); g.unflag((0, 0)); g.open((0, 0)).name
        'WON'
        """
        self.level.check_cell(cell)
        self.flags.discard(cell)


class Games:
    """Games that show the player one view, played as one: the revealed numbers and flags
    they share, and each game's layout as a bit mask (bit ``row * width + col`` is a mine).

    :func:`satsweeper.optimal.play_together` plays every layout of a small board so.  Why
    not a :class:`Game` each: a Game costs 5-12 KB (its dicts and sets), 7 GB for 8x8 with 4
    mines' 595,665 layouts; a mask costs about 40 bytes, and the view is kept once.

    >>> games = Games.of(Level(3, 2, 1), [frozenset({(0, 2)}), frozenset({(1, 2)})])
    >>> won, lost, parts = games.move(opens=[(1, 0)])  # both show 0 0 1 / 0 1 . with (1, 2) hidden
    >>> won, lost, len(parts), len(parts[0])
    (0, 0, 1, 2)
    >>> parts[0].move(opens=[(1, 2)])[:2]  # won where the mine is at (0, 2), lost where it is here
    (1, 1)
    """

    __slots__ = ("level", "layouts", "revealed", "flags")

    def __init__(self, level: Level, layouts: list[int], revealed: dict[Cell, int] | None = None,
                 flags: frozenset[Cell] = frozenset()):
        self.level = level
        self.layouts = layouts
        self.revealed = {} if revealed is None else revealed
        self.flags = flags

    @classmethod
    def of(cls, level: Level, layouts) -> "Games":
        """Games of these layouts (each a set of mine cells of ``level.mines`` cells), none opened."""
        bit = {cell: 1 << i for i, cell in enumerate(grid(level.height, level.width)[0])}
        masks = []
        for mines in layouts:
            if len(mines) != level.mines or not bit.keys() >= mines:
                raise InputError(f"layouts of {level.mines} cells of the {level} board (got {sorted(mines)})")
            masks.append(sum(map(bit.__getitem__, mines)))
        return cls(level, masks)

    @classmethod
    def allowed(cls, level: Level, rule: FirstClick, first: Cell) -> "Games":
        """A game of every layout ``rule`` allows for a first click at ``first``, none opened.

        Why not :meth:`of` the sets of mines: the masks straight from the cells' bits took
        0.04 s for 5x4x10's 184,756 layouts, the sets and then their masks 1.05 s.

        >>> len(Games.allowed(Level(3, 3, 2), FirstClick.SAFE, (0, 0)))
        28
        """
        free = kept_free(level, rule, first)
        bits = [1 << (r * level.width + c) for r, c in grid(level.height, level.width)[0] if (r, c) not in free]
        return cls(level, list(map(sum, itertools.combinations(bits, level.mines))))

    def __len__(self) -> int:
        return len(self.layouts)

    @property
    def board(self) -> Board:
        """What the player sees in each of these games."""
        return Board(self.level.height, self.level.width, self.revealed, self.flags,
                     total_mines=self.level.mines, check=False)

    def move(self, flags=(), opens=()) -> tuple[int, int, list["Games"]]:
        """Flag ``flags``, then open ``opens`` until a game ends, in every game (as
        :meth:`Game.flag` and :meth:`Game.open` would): how many were won, how many lost,
        and the rest as new :class:`Games`, one for each view they now show."""
        level = self.level
        for cell in (*flags, *opens):
            level.check_cell(cell)
        width, revealed = level.width, self.revealed
        flagged = self.flags | {cell for cell in flags if cell not in revealed}
        near = grid(level.height, width)[1]
        around = _masks(level.height, width)
        safe = level.width * level.height - level.mines - len(revealed)
        won = lost = 0
        parts: dict[tuple, list[int]] = {}
        for mask in self.layouts:
            new: dict[Cell, int] = {}
            ended = False
            for cell in opens:
                if cell in revealed or cell in new or cell in flagged:
                    continue
                if mask >> (cell[0] * width + cell[1]) & 1:
                    lost += 1
                    ended = True
                    break
                stack = [cell]
                while stack:  # the flood fill of Game.open, in its order
                    current = stack.pop()
                    if current in revealed or current in new:
                        continue
                    number = new[current] = (mask & around[current]).bit_count()
                    if number == 0:
                        stack.extend(n for n in near[current] if n not in revealed and n not in new)
                if len(new) == safe:
                    won += 1
                    ended = True
                    break
            if not ended:
                # The games that showed one view show one view again exactly when they revealed
                # the same numbers in the same order (the flood fill is a function of them).
                parts.setdefault(tuple(new.items()), []).append(mask)
        after = []
        for key, masks in parts.items():
            opened = dict(key)
            after.append(Games(level, masks, {**revealed, **opened}, flagged.difference(opened)))
        return won, lost, after


@functools.lru_cache(maxsize=None)
def _masks(height: int, width: int) -> dict[Cell, int]:
    """Each cell's neighbours as a bit mask (bit ``row * width + col``)."""
    return {cell: sum(1 << (r * width + c) for r, c in near)
            for cell, near in grid(height, width)[1].items()}
