"""The exact limit: the best possible chance of winning a small board.

The player's knowledge is the set of layouts still possible.  Each layout is
an int bitset of its mine cells; a set of layouts is an int bitset over the
layouts' indices, so splitting it is one ``&``.  From a set of layouts:

* a cell safe in every layout of the set is opened for free; the number it
  shows may split the set (and a 0 opens its neighbours the same way, as
  they are then safe in every layout of each part);
* one layout left: every safe cell is known, the game is won;
* otherwise the player guesses a cell: the layouts with a mine there are
  lost, the rest split by the number shown.  The value is the best guess's.

Values are counts (layouts won under optimal play), so the answer is the
exact Fraction ``won / layouts``.  The state is keyed by what the player
sees (every opened cell and its number: the set of layouts is exactly those
consistent with it), so one memo serves every first click and every rule,
and the rectangle's rotations and reflections map a view to a canonical one.

First-click rules (as in :mod:`satsweeper.game`): ``can-lose`` counts every
layout and the first click is a guess; ``safe`` only layouts with no mine on
it; ``opening`` only layouts with no mine on it or its neighbours.
"""

from __future__ import annotations

import itertools
import json
import math
import os
from array import array
import operator
import re
import tempfile
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from .board import Cell
from .compiled import checkpoint, take_build
from .errors import BoardSyntaxError, InputError, SatsweeperError, cut
from .game import FirstClick, Level
from .memo import Memo

MEMO_FORMAT = "satsweeper optimal-search memo"  # the first line of a saved memo (see Search.save)
MEMO_VERSION = 1  # bumped when the layouts' order or the keys change: an old file would answer wrongly
MOST_LAYOUTS = 5_300_000  # masks and numbers of every layout: 5x5x15 (3,268,760 layouts) takes 0.54 GB, 23 s; every 5x5 board fits (5x5x12: 5,200,300)
SMALL = 16  # sets of at most this many layouts are solved by listing them (no bitsets)
KEEP_BOUND = 32  # bounds of sets of fewer layouts are not remembered (cheap to find again; 5x5x5: -20% memory)
SMALL_BOUND = 16  # a bound solves sets of at most this many layouts (exactly: listed sets are cheap to solve)
SHRINK = 4  # a set this many times smaller than its bitsets' universe gets a universe of its own


class SearchTooBig(SatsweeperError, ValueError):
    """The board has more layouts than the search can hold."""


def _about(n: int) -> str:
    """``n`` in full up to 15 digits, else its first digits and its size
    (expert's 10^105 layouts are not a message).

    >>> _about(254186856), _about(10 ** 20 + 5 * 10 ** 18)
    ('254,186,856', 'about 1.05e20')
    """
    digits = str(n)
    return f"{n:,}" if len(digits) <= 15 else f"about {digits[0]}.{digits[1:3]}e{len(digits) - 1}"


class NoLayout(SatsweeperError, ValueError):
    """The rule allows no layout for this first click (too many mines)."""


def _check_room(level: Level, first: Cell | None, rule: FirstClick) -> None:
    """:class:`NoLayout` naming the first click when it is what leaves the mines no
    room (3x3x1 opening at 1,1; another click would do), not the level."""
    if first is not None:
        from .cells import check_room
        try:
            check_room(level, first, rule.value)
        except InputError as err:
            raise NoLayout(str(err)) from None


@dataclass(frozen=True)
class Optimum:
    """Optimal play on one level under one first-click rule.

    ``won`` of ``layouts`` layouts are won by optimal play after the best
    first click(s) ``firsts`` (the given one, if one was given).  ``states``
    is the number of views and small sets of layouts remembered so far (the
    memo is shared between calls on one :class:`Search`); ``cpu_seconds`` is this process's CPU
    time, a steadier figure than ``seconds`` on a shared machine.
    """

    level: Level
    rule: FirstClick
    firsts: tuple[Cell, ...]
    won: int
    layouts: int
    states: int
    seconds: float
    cpu_seconds: float
    by_first: tuple[tuple[Cell, Fraction], ...] = ()  # exact values of the clicks searched to the end

    @property
    def value(self) -> Fraction:
        return Fraction(self.won, self.layouts)


_DIGITS = bytes(48 + v if v < 10 else 0 for v in range(256))  # a number 0-9 -> its digit
_ONLY = [bytes(49 if byte == v else 48 for byte in range(256)) for v in range(10)]  # a number -> "1", others "0"


def bits_of(alive: int) -> list[int]:
    """The indices of the set bits of ``alive``, ascending.

    >>> bits_of(0b100110)
    [1, 2, 5]
    """
    if alive.bit_count() <= 64:
        out = []
        while alive:  # from the top bit down: the int shrinks as it goes (cheaper than the low bit)
            top = alive.bit_length() - 1
            out.append(top)
            alive ^= 1 << top
        return out[::-1]
    text = bin(alive)[:1:-1]  # least significant bit first
    return [found.start() for found in re.finditer("1", text)]


class Universe:
    """Layouts a bitset indexes: bit j is layout ``ids[j]`` (all layouts in order if ``ids`` is None).

    ``mine[k]``: the layouts with a mine on cell k; ``shows[k][v]``: those where k shows v.
    """

    __slots__ = ("ids", "mine", "shows", "count")

    def __init__(self, ids: tuple[int, ...] | None, mine: list[int], shows: list[list[int]]):
        self.ids, self.mine, self.shows = ids, mine, shows
        self.count = len(ids) if ids is not None else None

    def ids_of(self, alive: int) -> tuple[int, ...]:
        """The layouts (global indices, ascending) of the bitset ``alive``."""
        found = bits_of(alive)
        return tuple(found) if self.ids is None else tuple(self.ids[j] for j in found)


class Search:
    """The memoised search for one level (shared by every first click and rule).

    ``bounds=False`` is the plain reference search; ``small``: sets of at
    most this many layouts are listed; ``keep_bound``: bounds of smaller
    sets are not remembered; ``small_bound``: a bound solves listed sets
    of at most this many layouts (bigger ones only if remembered); ``dead=False`` tries dead cells too (see
    :meth:`_dead`).

    >>> s = Search(Level(4, 4, 4))
    >>> s.optimum(FirstClick.CAN_LOSE).value
    Fraction(961, 1820)
    """

    REPORT_EVERY = 10_000  # views remembered between calls of progress (and saves of optimal --memo)

    def __init__(self, level: Level, symmetry: bool = True,
                 progress: Callable[[int], None] | None = None, bounds: bool = True,
                 small: int = SMALL, keep_bound: int = KEEP_BOUND,
                 dead: bool = True, small_bound: int = SMALL_BOUND):
        self.level = level
        self.bounds = bounds
        self.size = level.width * level.height
        self.layouts = math.comb(self.size, level.mines)
        if self.layouts > MOST_LAYOUTS:
            raise SearchTooBig(f"a board of at most {MOST_LAYOUTS:,} layouts "
                               f"(got {level}, which has {_about(self.layouts)} layouts)")
        self.progress = progress
        self.next_report = self.REPORT_EVERY  # views remembered at the next call of progress
        self.visits = 0  # views looked up in the memo, for checkpoint()
        self.neighbours = [self._neighbours(k) for k in range(self.size)]
        self.symmetries = self._symmetries() if symmetry else [tuple(range(self.size))]
        self.mine, self.shows = self._masks()
        self.around = [sum(1 << j for j in near) for near in self.neighbours]
        self.small = small
        self.keep_bound = keep_bound
        self.small_bound = small_bound
        self.dead = dead
        self.everything = Universe(None, self.mine, self.shows)
        self.everything.count = self.layouts
        # Compact tables, not dicts: 21-29 bytes a state, not 108-131 (memory, not time, stops the search).
        self.small_memo = Memo(value_bytes=1 if small < 128 else 4)  # a set of few layouts (_small_key) -> won
        self.images = [operator.itemgetter(*perm) for perm in self.symmetries]
        self.memo = Memo(value_bytes=4)  # view (see _key) -> won, or ~bound
        self.key_bytes = ((10 ** self.size - 1).bit_length() + 7) // 8
        self.id_bytes = next(n for n in (2, 3, 4) if self.layouts <= 1 << 8 * n)  # a layout's index
        # Chosen once, not tested at each call:
        self._small_key = {2: self._two_byte_ids, 3: self._three_byte_ids, 4: self._four_byte_ids}[self.id_bytes]

    # -- a search that outlives its process ------------------------------

    def save(self, path: str | os.PathLike, notes: dict | None = None) -> None:
        """Write both memos, and ``notes`` (JSON), to ``path``; a search
        that :meth:`load` s it goes on where this one stopped.

        Every entry is an exact value or a true upper bound of its view,
        whatever was being searched when the process stopped, so a saved
        memo is never half right.  Written to a temporary file of its own
        beside ``path`` and renamed: a process killed while writing leaves
        the last whole file, and two searches saving to one path (two runs
        given the same ``--memo``) each write a whole file, the later one
        kept (one ``path.part`` for both interleaved them into a file that
        failed its checksum: both searches lost).
        """
        header = {"format": MEMO_FORMAT, "version": MEMO_VERSION, "level": str(self.level),
                  "views": len(self.memo), "small sets": len(self.small_memo), **(notes or {})}
        path = os.fspath(path)  # a pathlib.Path too, as load and open take
        handle, part = tempfile.mkstemp(dir=os.path.dirname(path) or ".",
                                        prefix=f".{os.path.basename(path)}.", suffix=".part")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(json.dumps(header).encode() + b"\n")
                self.memo.write(out)
                self.small_memo.write(out)
            os.chmod(part, 0o644)  # mkstemp makes it 0600; the file a plain open made was 0644
            os.replace(part, path)
        finally:
            if os.path.exists(part):
                os.unlink(part)

    def load(self, path: str | os.PathLike) -> dict:
        """Take the memos :meth:`save` wrote to ``path`` (for this level); its notes.

        >>> import os, tempfile
        >>> first = Search(Level(4, 4, 4))
        >>> won = first.optimum(FirstClick.SAFE, (0, 0)).won
        >>> path = os.path.join(tempfile.mkdtemp(), "4x4x4.memo")
        >>> first.save(path, {"cpu seconds": 0.5})
        >>> again = Search(Level(4, 4, 4))
        >>> again.load(path)["cpu seconds"], again.states == first.states
        (0.5, True)
        >>> again.optimum(FirstClick.SAFE, (0, 0)).won == won
        True
        """
        with open(path, "rb") as src:
            line = src.readline()
            try:
                header = json.loads(line)
            except ValueError:
                header = None
            wanted = f"a memo of {self.level} saved by the optimal search (version {MEMO_VERSION})"
            if not isinstance(header, dict) or header.get("format") != MEMO_FORMAT:
                found = line.decode("utf-8", "replace").rstrip("\r\n")
                raise BoardSyntaxError(os.fspath(path), 1, 1, wanted, cut(found, 30) if found else "an empty file")
            if header.get("version") != MEMO_VERSION or header.get("level") != str(self.level):
                raise BoardSyntaxError(os.fspath(path), 1, 1, wanted,
                                       f"a memo of {header.get('level')}, version {header.get('version')}")
            try:
                memo, small_memo = Memo.read(src), Memo.read(src)
            except ValueError as err:
                raise BoardSyntaxError(os.fspath(path), 1, 1, wanted, f"a damaged memo: {err}") from None
        self.memo, self.small_memo = memo, small_memo
        self.next_report = len(self.memo) // self.REPORT_EVERY * self.REPORT_EVERY + self.REPORT_EVERY
        return header

    # -- the board --------------------------------------------------------

    def _neighbours(self, k: int) -> tuple[int, ...]:
        w, h = self.level.width, self.level.height
        r, c = divmod(k, w)
        return tuple(rr * w + cc for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
                     if 0 <= rr < h and 0 <= cc < w and (rr, cc) != (r, c))

    def _symmetries(self) -> list[tuple[int, ...]]:
        """Cell permutations of the rectangle: 8 for a square, else 4."""
        w, h = self.level.width, self.level.height
        maps = [lambda r, c: (r, c), lambda r, c: (h - 1 - r, c), lambda r, c: (r, w - 1 - c),
                lambda r, c: (h - 1 - r, w - 1 - c)]
        if w == h:
            maps += [lambda r, c: (c, r), lambda r, c: (w - 1 - c, r), lambda r, c: (c, h - 1 - r),
                     lambda r, c: (w - 1 - c, h - 1 - r)]
        perms = {tuple(f(*divmod(k, w))[0] * w + f(*divmod(k, w))[1] for k in range(self.size))
                 for f in maps}
        return sorted(perms)

    def _masks(self) -> tuple[list[int], list[list[int]]]:
        """Per cell: the layouts with a mine there; per cell and number: those showing it."""
        n = self.size
        mine_bits = [bytearray((self.layouts + 7) // 8) for _ in range(n)]
        show_bits = [[bytearray((self.layouts + 7) // 8) for _ in range(9)] for _ in range(n)]
        self.layout = []  # per layout: its mine cells as a bitset over the cells
        self.grid = []  # per layout: the number each cell shows, 9 on a mine
        for index, mines in enumerate(itertools.combinations(range(n), self.level.mines)):
            if not index & 4095:
                checkpoint()  # compiled, Ctrl-C and a deadline are seen only here (satsweeper.compiled)
            self.layout.append(sum(1 << k for k in mines))
            byte, bit = index >> 3, 1 << (index & 7)
            is_mine = [False] * n
            for k in mines:
                is_mine[k] = True
                mine_bits[k][byte] |= bit
            grid = bytearray([9] * n)
            for k in range(n):
                if not is_mine[k]:
                    v = grid[k] = sum(is_mine[j] for j in self.neighbours[k])
                    show_bits[k][v][byte] |= bit
            self.grid.append(bytes(grid))
        mine = [int.from_bytes(b, "little") for b in mine_bits]
        shows = [[m for m in (int.from_bytes(b, "little") for b in row)] for row in show_bits]
        return mine, shows

    # -- the search -------------------------------------------------------

    def _key(self, view: bytearray) -> bytes:
        """The view up to symmetry, its digits read as one decimal int, in bytes (11 for 25 cells, not 25)."""
        return int(bytes(min(image(view) for image in self.images)).translate(_DIGITS)).to_bytes(
            self.key_bytes, "little")

    # _small_key(ids): the small memo's key for the layouts ``ids``, ``id_bytes`` bytes each.

    @staticmethod
    def _two_byte_ids(ids: tuple[int, ...]) -> bytes:
        return array("H", ids).tobytes()

    @staticmethod
    def _three_byte_ids(ids: tuple[int, ...]) -> bytes:
        """Their low bytes, then their middle bytes, then their top bytes (three slices, in C)."""
        packed = array("I", ids).tobytes()
        return packed[0::4] + packed[1::4] + packed[2::4]

    @staticmethod
    def _four_byte_ids(ids: tuple[int, ...]) -> bytes:
        return array("I", ids).tobytes()  # more than 2 ** 24 layouts: not with MOST_LAYOUTS today

    def won(self, alive: int, view: bytearray, beat: int = -1, among: Universe | None = None) -> int:
        """Layouts of ``alive`` won by optimal play from ``view``.

        ``view[k]`` is the number opened cell ``k`` shows, 9 if hidden;
        ``alive`` is exactly the layouts consistent with it (bits of
        ``among``, by default every layout).  Exact if more than ``beat``;
        otherwise an upper bound no more than ``beat`` (the caller only
        needed to know the value cannot beat it).
        """
        among = among or self.everything
        if not self.bounds:
            return self._remembered(view, beat, lambda: self._plain_value(alive, view))
        count = alive.bit_count()
        if count <= self.small:
            return self._small(among.ids_of(alive))

        def search() -> int:
            here, bits = among, alive
            if count * SHRINK <= among.count:  # index these layouts afresh: shorter bitsets below
                here = self.universe(among.ids_of(alive))
                bits = (1 << count) - 1
            return self._value(bits, view, beat, here)
        return self._remembered(view, beat, search)

    def _remembered(self, view: bytearray, beat: int, search: Callable[[], int]) -> int:
        """The memo's value for ``view`` if it answers ``beat``, else ``search()``'s, kept."""
        self.visits += 1
        if not self.visits & 255:
            checkpoint()  # compiled, Ctrl-C and a deadline are seen only here (satsweeper.compiled)
        key = self._key(view)
        found = self.memo.get(key)
        if found is not None:
            if found >= 0:
                return found
            if ~found <= beat:  # a bound stored by an earlier, failed search
                return ~found
        value = search()
        self.memo[key] = value if value > beat else ~value
        if self.progress and len(self.memo) >= self.next_report:  # bounds add views too: not every count is seen
            every = self.REPORT_EVERY
            self.next_report = len(self.memo) // every * every + every
            self.progress(len(self.memo))
        return value

    def universe(self, ids: tuple[int, ...]) -> Universe:
        """The layouts ``ids`` (ascending) indexed 0..n-1, with their cells' masks."""
        rows = b"".join(self.grid[i] for i in ids)
        mine, shows = [], []
        for k in range(self.size):
            column = rows[k::self.size][::-1]  # int(..., 2) reads the last layout first
            mine.append(int(column.translate(_ONLY[9]), 2))
            shows.append([int(column.translate(_ONLY[v]), 2) for v in range(9)])
        return Universe(ids, mine, shows)

    def _value(self, alive: int, view: bytearray, beat: int, among: Universe) -> int:
        """The best guess's value (exact if above ``beat``, else a bound no more than ``beat``)."""
        if alive & (alive - 1) == 0:
            return 1
        order = []
        for k in range(self.size):
            if view[k] == 9:
                mine = among.mine[k] & alive
                if not mine:  # safe everywhere: open it
                    return self._opened(alive, view, k, beat, among)
                # The safest guess first: the best so far rises early.  Among equally safe ones,
                # the one with fewer numbers to show first: fewer parts to search to the end
                # (8x3x5: -36% states, 7x3x6: -9%).
                order.append(((alive ^ mine).bit_count(), -sum(1 for m in among.shows[k] if m & alive), k))
        order.sort(reverse=True)
        live = [(s, k) for s, numbers, k in order if numbers < -1] if self.dead else None  # see _dead
        order = live or [(s, k) for s, _, k in order]
        best = bound = 0
        for survivors, k in order:
            if survivors <= max(best, beat):
                bound = max(bound, survivors)  # a guess wins at most the layouts it survives
                break
            value = self._opened(alive, view, k, max(best, beat), among)
            if value > max(best, beat):
                best = value
            else:
                bound = max(bound, value)
        return max(best, bound)

    @staticmethod
    def _dead(alive: int, k: int, shows: list[list[int]]) -> bool:
        """Whether ``k`` shows the same number in every layout of ``alive`` where it is safe.

        Guessing such a dead cell only loses the layouts with a mine there;
        while some cell is live (two numbers possible) the dead ones need
        not be tried.  Why: a play that opens dead ``d`` first and then
        plays T does no better than one that plays T's moves without ``d``
        (the number ``d`` would show tells nothing) and opens ``d`` last,
        which wins every layout T won.  Repeating this along T's first
        moves while they are dead reaches a live first move, unless all of
        them are dead down to one layout: that play wins 1 layout, and any
        live guess at least 2 (two numbers, two parts, each won at least
        once), so it was not optimal.  The tests check it against the
        search that tries every cell.
        """
        seen = False
        for mask in shows[k]:
            if alive & mask:
                if seen:
                    return False
                seen = True
        return True

    def _opened(self, alive: int, view: bytearray, k: int, beat: int = -1,
                among: Universe | None = None) -> int:
        """Layouts won after opening ``k`` (lost where it is a mine).

        Exact if more than ``beat``; otherwise an upper bound no more than
        ``beat``.  Each part (a number ``k`` may show) first gets a cheap
        upper bound; a part is then searched only as far as it must be for
        the sum to beat ``beat`` given the others' bounds.
        """
        if not self.bounds:
            return self._plain_opened(alive, view, k, beat)
        among = among or self.everything
        parts = []  # [bound, order, part, cells opened with it]
        total = 0
        for v, shows in enumerate(among.shows[k]):
            part = alive & shows
            if not part:
                continue
            if part & (part - 1) == 0:
                total += 1  # one layout left: everything is known, won
                continue
            view[k] = v
            total += self._settle(part, view, among, ((k, v),), parts)
        view[k] = 9
        if beat >= 0 and total > beat:
            # Each part's size is a bound; tighten them, the biggest first, only while the
            # sum still beats ``beat`` (wanted exactly, no beat: every part is searched anyway).
            parts.sort(reverse=True)
            for entry in parts:
                size, _, part, cells = entry
                if size <= self.small and size <= self.small_bound:
                    entry[0] = self._small(among.ids_of(part))
                    entry[3] = None  # its bound is its value: not searched again below
                else:
                    for j, v in cells:
                        view[j] = v
                    entry[0] = self._bound(part, view, among)
                    for j, _ in cells:
                        view[j] = 9
                total -= size - entry[0]
                if total <= beat:
                    break
        if total > beat:
            parts.sort(reverse=True)
            for bound, _, part, cells in parts:
                rest = total - bound
                if cells is None:  # solved exactly by its bound (and the sum still beats beat)
                    continue
                for j, v in cells:
                    view[j] = v
                value = self.won(part, view, beat - rest, among)
                for j, _ in cells:
                    view[j] = 9
                total = rest + value
                if value <= beat - rest:
                    break  # this part cannot lift the guess above beat
        return total

    def _settle(self, alive: int, view: bytearray, among: Universe, cells: tuple, parts: list) -> int:
        """Open every cell safe in all of ``alive``, again in each part the numbers shown split it
        into, until none is left; put each final part (more than one layout) in ``parts``
        as ``[size, order, part, cells opened]``.  The layouts in parts of one.

        Why: the value of ``alive`` is the sum of its final parts' values (free cells cost
        nothing), and only views with no free cell are then remembered: on 5x5x4 two thirds of
        the views searched had one, each a memo entry and a scan of the cells of its own.
        """
        if alive.bit_count() > self.small:
            for k in range(self.size):
                if view[k] == 9 and not among.mine[k] & alive:
                    won = 0
                    for v, shows in enumerate(among.shows[k]):
                        part = alive & shows
                        if not part:
                            continue
                        if part & (part - 1) == 0:
                            won += 1
                            continue
                        view[k] = v
                        won += self._settle(part, view, among, cells + ((k, v),), parts)
                    view[k] = 9
                    return won
        size = alive.bit_count()
        parts.append([size, len(parts), alive, cells])
        return size

    def _bound(self, alive: int, view: bytearray, among: Universe) -> int:
        """A cheap upper bound on ``won(alive, view)``: the memo's, or the best guess's survivors.

        Cells safe in every layout are opened first (their parts bounded
        alike): a guess then wins at most the layouts where it is safe.
        Few layouts are solved exactly (cheap, and a much tighter bound).
        """
        count = alive.bit_count()
        if count <= self.small:
            if count <= self.small_bound or count == 1:
                return self._small(among.ids_of(alive))
            ids = among.ids_of(alive)
            found = self.small_memo.get(self._small_key(ids))
            if found is not None:
                return found
        else:
            key = self._key(view)
            found = self.memo.get(key)
            if found is not None:
                return found if found >= 0 else ~found
        most = 0
        for k in range(self.size):
            if view[k] == 9:
                mine = among.mine[k] & alive
                if not mine:
                    most = 0
                    for v, shows in enumerate(among.shows[k]):
                        part = alive & shows
                        if part:
                            view[k] = v
                            most += self._bound(part, view, among)
                    view[k] = 9
                    break
                most = max(most, (alive ^ mine).bit_count())
        if count >= self.keep_bound and count > self.small:
            self.memo[key] = ~most  # kept: the search may later need no more than this
        return most

    # -- few layouts: listed, not bitsets ---------------------------------

    def _small(self, ids: tuple[int, ...]) -> int:
        """``won`` for a few layouts (by index), exact.

        The value depends only on the set of layouts (the cells safe in all
        of them are open or free to open, the others hidden), so the memo is
        keyed by the set itself, without symmetry.
        """
        if len(ids) <= 2:  # two: won both if some cell safe in both tells them apart (not remembered)
            return 1 if len(ids) == 1 else 1 + any(x != y and x != 9 != y for x, y in
                                                   zip(self.grid[ids[0]], self.grid[ids[1]]))
        key = self._small_key(ids)
        found = self.small_memo.get(key)
        if found is not None:
            return found
        grids = [self.grid[i] for i in ids]
        size = self.size
        rows = b"".join(grids)
        columns = [rows[k::size] for k in range(size)]  # per cell, the number it shows in each layout (C slices)
        value = 0
        safe = [k for k in range(size) if 9 not in columns[k]]
        if safe:  # open every cell safe in all of them: the numbers shown split the set
            groups: dict = {}
            shown = operator.itemgetter(*safe)
            for i, grid in zip(ids, grids):
                groups.setdefault(shown(grid), []).append(i)
            if len(groups) > 1:
                value = sum(self._small(tuple(g)) for g in groups.values())
        if not value:
            order = []
            for k in range(size):
                column = columns[k]
                if 9 in column:
                    numbers = set(column)
                    # dead (one number where safe) last: see _dead
                    order.append((len(numbers) > 2 or not self.dead, len(ids) - column.count(9), k))
            order.sort(reverse=True)
            live = order[0][0]  # while some cell is live, dead ones are not tried
            for alive, survivors, k in order:
                if survivors <= value or alive != live:
                    break  # a guess wins at most the layouts it survives
                parts: dict[int, list[int]] = {}
                for i, v in zip(ids, columns[k]):
                    if v != 9:
                        parts.setdefault(v, []).append(i)
                won, left = 0, survivors
                for part in parts.values():
                    won += 1 if len(part) == 1 else self._small(tuple(part))
                    left -= len(part)
                    if won + left <= value:
                        break  # cannot beat the best guess so far
                value = max(value, won)
        self.small_memo[key] = value
        return value

    # -- the plain search (no bounds: every part searched exactly) ---------

    def _plain_value(self, alive: int, view: bytearray) -> int:
        for k in range(self.size):
            if view[k] == 9 and not self.mine[k] & alive:  # safe everywhere: open it
                return self._plain_opened(alive, view, k)
        if alive & (alive - 1) == 0:
            return 1
        best = 0
        order = sorted(((alive & ~self.mine[k]).bit_count(), k) for k in range(self.size)
                       if view[k] == 9)
        if self.dead:
            order = [(s, k) for s, k in order if not self._dead(alive, k, self.shows)] or order
        for survivors, k in reversed(order):
            if survivors <= best:
                break  # a guess wins at most the layouts it survives
            best = max(best, self._plain_opened(alive, view, k, best))
        return best

    def _plain_opened(self, alive: int, view: bytearray, k: int, beat: int = -1) -> int:
        total = 0
        left = (alive & ~self.mine[k]).bit_count()
        for v, shows in enumerate(self.shows[k]):
            part = alive & shows
            if part & (part - 1) == 0:
                total += part != 0  # one layout left: everything is known, won
                left -= part != 0
                continue
            view[k] = v
            total += self.won(part, view)
            left -= part.bit_count()
            if total + left <= beat:
                break
        view[k] = 9
        return total

    # -- answers ----------------------------------------------------------

    def allowed(self, rule: FirstClick, first: Cell) -> int:
        """The layouts ``rule`` allows for a first click at ``first``."""
        k = first[0] * self.level.width + first[1]
        everyone = (1 << self.layouts) - 1
        if rule is FirstClick.CAN_LOSE:
            return everyone
        excluded = [k] if rule is FirstClick.SAFE else [k, *self.neighbours[k]]
        for j in excluded:
            everyone &= ~self.mine[j]
        return everyone

    def first_click(self, rule: FirstClick, first: Cell, beat: int = -1) -> tuple[int, int]:
        """(layouts won, layouts allowed) after opening ``first`` under ``rule``.

        The layouts won are exact if more than ``beat``, else a bound no more than ``beat``.
        """
        alive = self.allowed(rule, first)
        count = alive.bit_count()
        if not count:
            return 0, 0
        view = bytearray([9] * self.size)
        return self._opened(alive, view, first[0] * self.level.width + first[1], beat), count

    def knowledge(self, board) -> tuple[int, bytearray]:
        """The layouts consistent with ``board``'s numbers (a set of layouts), and the search's view of it."""
        w = self.level.width
        alive = (1 << self.layouts) - 1
        view = bytearray([9] * self.size)
        for (r, c), v in board.clues.items():
            alive &= self.shows[r * w + c][v]
            view[r * w + c] = v
        return alive, view

    def guesses(self, board) -> dict[Cell, int]:
        """What opening each hidden cell of ``board`` is worth: the layouts optimal play then wins
        (a cell with a mine in every layout left is no guess and left out).

        >>> from .board import Board
        >>> Search(Level(4, 1, 1)).guesses(Board(1, 4, {(0, 0): 0}, total_mines=1))  # the mine: 0,2 or 0,3
        {(0, 1): 2, (0, 2): 1, (0, 3): 1}
        """
        alive, view = self.knowledge(board)
        w = self.level.width
        return {divmod(k, w): self._opened(alive, view, k) for k in range(self.size)
                if view[k] == 9 and self.mine[k] & alive != alive}

    def optimum(self, rule: FirstClick, first: Cell | None = None, every: bool = False) -> Optimum:
        """The value of optimal play; the first click given or the best one.

        With ``every``, each first click's value is exact in ``by_first``;
        otherwise a click is searched only until it is known to be worse
        than the best so far (and left out of ``by_first``).

        Raises:
            CellError: ``first`` is not a cell of the board (one past the
                right edge was the first cell of the next row, silently).
            InputError: ``rule`` is not a :class:`FirstClick`.
        """
        if first is not None:
            self.level.check_cell(first)
        if not isinstance(rule, FirstClick):
            raise InputError(f"a FirstClick, such as FirstClick.SAFE (got {rule!r})")
        start, cpu = time.perf_counter(), time.process_time()
        w = self.level.width
        cells = [first] if first else [divmod(k, w) for k in self._first_candidates()]
        results = []  # (cell, won, count), exact
        best = None
        for cell in cells:
            beat = -1
            if best is not None and not every:  # a tie needs won/count >= best
                beat = -(-best.numerator * self.allowed(rule, cell).bit_count() // best.denominator) - 1
            won, count = self.first_click(rule, cell, beat)
            if count and won > beat:
                results.append((cell, won, count))
                best = max(best or 0, Fraction(won, count))
        if not results:
            _check_room(self.level, first, rule)
            raise NoLayout(f"a level where the rule {rule.value} allows some layout (got {self.level})")
        by_first = tuple((cell, Fraction(won, count)) for cell, won, count in results)
        if not first:  # symmetric images of a tried click are as good
            by_first = self._spread(by_first)
        firsts = tuple(sorted(cell for cell, value in by_first if value == best))
        won, count = next((won, count) for cell, won, count in results if Fraction(won, count) == best)
        return Optimum(self.level, rule, firsts, won, count, self.states,
                       time.perf_counter() - start, time.process_time() - cpu, tuple(sorted(by_first)))

    @property
    def states(self) -> int:
        """Views remembered (exact values and bounds) and small sets of layouts solved."""
        return len(self.memo) + len(self.small_memo)

    def _first_candidates(self) -> list[int]:
        """One cell per orbit of the rectangle's symmetries."""
        return sorted({min(perm[k] for perm in self.symmetries) for k in range(self.size)})

    def _spread(self, by_first: tuple) -> tuple:
        w = self.level.width
        out = {}
        for (r, c), value in by_first:
            for perm in self.symmetries:
                out[divmod(perm[r * w + c], w)] = value
        return tuple(out.items())


def optimum(level: Level, rule: FirstClick = FirstClick.SAFE, first: Cell | None = None,
            symmetry: bool = True, progress: Callable[[int], None] | None = None) -> Optimum:
    """The exact chance of winning ``level`` with perfect play.

    Args:
        level: the board size and mine count (small: every layout is listed).
        rule: which layouts the first click may meet.
        first: the first click, or None for the best one.
        symmetry: use the rectangle's rotations and reflections (same values, less work).
        progress: told the number of views remembered, every ``Search.REPORT_EVERY`` (10,000) or so.

    Raises:
        SearchTooBig: more than ``MOST_LAYOUTS`` layouts.

    >>> o = optimum(Level(4, 4, 4), FirstClick.CAN_LOSE)
    >>> o.value, o.won, o.layouts
    (Fraction(961, 1820), 961, 1820)
    """
    return Search(level, symmetry, progress).optimum(rule, first)


@dataclass(frozen=True)
class StrategyValue:
    """A strategy's exact chance of winning: played once on every allowed layout."""

    strategy: str
    level: Level
    rule: FirstClick
    first: Cell
    won: int
    layouts: int
    seed: int
    seconds: float

    @property
    def value(self) -> Fraction:
        return Fraction(self.won, self.layouts)


def allowed_layouts(level: Level, rule: FirstClick, first: Cell):
    """Every layout (a frozenset of mine cells) ``rule`` allows for a first click at ``first``.

    >>> len(list(allowed_layouts(Level(3, 3, 2), FirstClick.SAFE, (0, 0))))
    28
    """
    from .game import kept_free
    excluded = kept_free(level, rule, first)
    cells = [(r, c) for r in range(level.height) for c in range(level.width) if (r, c) not in excluded]
    return (frozenset(mines) for mines in itertools.combinations(cells, level.mines))


def _view(board, seed: int) -> str:
    """What seeds a player's tie-breaks: ``seed`` and what it sees, so that they are a
    function of the view (a generator seeded per layout would let the random choices
    depend on the hidden mines, and beat the optimum)."""
    return f"{seed}:{sorted(board.clues.items())}:{sorted(board.flags)}"


def _move(game, decision) -> None:
    """Play ``decision`` in ``game``: its flags, then its opens until the game ends."""
    from .game import Outcome
    for cell in decision.flags:
        game.flag(cell)
    for cell in decision.opens:
        if game.open(cell) is not Outcome.PLAYING:
            break


def play_layout(level: Level, mines: frozenset[Cell], first: Cell, player, seed: int = 0) -> bool:
    """Whether ``player`` wins the game with these mines, opening ``first`` first.

    Its tie-breaks are drawn afresh at each move from a generator seeded by
    ``seed`` and what the player sees (see :func:`_view`).

    >>> from .strategies import strategy
    >>> play_layout(Level(3, 3, 1), frozenset({(2, 2)}), (0, 0), strategy("exact"))
    True
    """
    import random
    from .game import Game, Outcome
    game = Game(level, mines)
    game.open(first)
    while game.outcome is Outcome.PLAYING:
        board = game.board
        _move(game, player.decide(board, random.Random(_view(board, seed))))
    return game.outcome is Outcome.WON


def play_together(games, first: Cell, make_player: Callable[[], object], seed: int = 0,
                  progress: Callable[[int], None] | None = None,
                  watch: Callable[[object, object, int], None] | None = None) -> int:
    """How many of ``games`` (a :class:`~satsweeper.game.Games`, none opened yet), opened at
    ``first``, fresh players from ``make_player`` win, each game played as :func:`play_layout` plays it.

    Played together: a deterministic player's decision, and what it carries from move
    to move, are functions of the views it has seen (its tie-breaks are seeded by them),
    so the games showing the same view (one :class:`~satsweeper.game.Games`) get one
    decision, and the player is copied where they part.  Why: `best`'s exact value on
    5x3x5 (safe, corner, 2,002 layouts) took 253 CPU s played layout by layout, 7.9 s
    together; 4x4x4 74 s and 4.1 s (the same wins; ``tests/test_optimal.py`` checks both
    ways agree).  The copies are cheap because the players copy only what a game changes
    (``Best.__deepcopy__``, ``Endgame``'s, ``Positions``'): `best` on 5x5x5 (safe, corner)
    took 64.2 s with ``copy.deepcopy``'s generic walk, 14.8 s now.  ``progress`` is told
    how many games end, as they end; ``watch`` of each decision: the board, the decision
    and in how many games it was made (``scripts/optimal_misplays.py`` judges the guesses).

    >>> from .game import Games
    >>> from .strategies import strategy
    >>> games = Games.of(Level(3, 3, 1), [frozenset({(1, 1)}), frozenset({(2, 2)})])
    >>> play_together(games, (0, 0), lambda: strategy("exact"))
    2
    """
    import copy
    import random

    won, lost, parts = games.move(opens=(first,))
    if progress and won + lost:
        progress(won + lost)
    # Each part waits with the player that saw the view it parted from (None: a fresh
    # player), copied only when the part is played, and its games are bit masks, not Game
    # objects: best on 6x4x5 (safe, corner) peaked at 139 MB with a Game per layout and a
    # copy per waiting part, 30 MB so, in the same time.  The part that keeps the player
    # itself is pushed first, so played last, after its siblings took their copies.
    stack = [(part, None, True) for part in parts]
    while stack:
        games, player, owner = stack.pop()
        board = games.board
        own = make_player() if player is None else player if owner else copy.deepcopy(player)
        decision = own.decide(board, random.Random(_view(board, seed)))
        if watch:
            watch(board, decision, len(games))
        ended, lost, parts = games.move(decision.flags, decision.opens)
        won += ended
        if progress and ended + lost:
            progress(ended + lost)
        stack.extend((part, own, i == 0) for i, part in enumerate(parts))
    return won


def strategy_value(level: Level, name: str, rule: FirstClick = FirstClick.SAFE, first: Cell = (0, 0),
                   seed: int = 0, progress: Callable[[int], None] | None = None) -> StrategyValue:
    """Play strategy ``name`` on every layout ``rule`` allows: its exact chance of winning.

    No sampling: the strategy's own tie-breaks are a fixed function of
    ``seed`` and the position it sees (see :func:`play_layout`), so the
    value is exact for that seed.  The games are played together
    (:func:`play_together`).  ``progress`` is told how many games end, as they end.

    >>> strategy_value(Level(3, 3, 1), "exact", FirstClick.SAFE, (0, 0)).value
    Fraction(1, 1)
    """
    from .game import Games
    from .strategies import strategy
    strategy(name)  # fail early on a bad name
    level.check_cell(first)
    if not isinstance(rule, FirstClick):  # "safe" played every layout, as can-lose
        raise InputError(f"a FirstClick, such as FirstClick.SAFE (got {rule!r})")
    start = time.perf_counter()
    games = Games.allowed(level, rule, first)
    if not games:
        _check_room(level, first, rule)
        raise NoLayout(f"a level where the rule {rule.value} allows some layout after {first} (got {level})")
    layouts = len(games)  # before play_together takes the games apart
    # A game's positions are explained by its layout: no consistency check per move.
    won = play_together(games, first, lambda: strategy(name, check_consistency=False), seed, progress)
    return StrategyValue(name, level, rule, first, won, layouts, seed, time.perf_counter() - start)


# Only as satsweeper.optimal: the compiled module runs this same source under its own
# name, and scripts/optimal_speed.py loads older versions of this file under another.
# Why compiled: the search is Python-level work on ints, lists and bytes, which Cython's
# C runs faster (5x5x4, safe corner: 1.2-1.4 times less CPU, same states).
COMPILED = take_build(globals(), "optimal")
