"""From a board to rules "exactly k of these cells are mines".

This is where grid knowledge ends.  A :class:`Problem` is a set of unknown
cells (any hashable values), rules over them, and optionally the number of
mines among all of them.  Every engine below (SAT, model counting, component
counting) takes a :class:`Problem`, so gadgets and hand-written constraint
systems reuse all of it.

Each rule remembers its *origin* (a revealed number, the total, a line of a
constraint file) so that answers can say which clues they rest on.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import chain, islice
from typing import Hashable, Sequence

from .board import FLAG_SQUARE, HIDDEN_SQUARE, NEIGHBOUR_OFFSETS, Board, Cell, GridCells
from .compiled import take_build
from .errors import InputError
from .limits import collector_paused


@dataclass(frozen=True)
class Clue:
    """A revealed number on the board: the origin of one rule."""

    cell: Cell
    number: int

    def __str__(self) -> str:
        return f"the {self.number} at {self.cell[0]},{self.cell[1]}"


@dataclass(frozen=True)
class TotalMines:
    """The total mine count: the origin of the global rule."""

    mines: int

    def __str__(self) -> str:
        return f"the total of {self.mines} mine{'s' if self.mines != 1 else ''}"


@dataclass(frozen=True)
class Start:
    """A file's ``start:`` cell, where the game's first click goes: the origin of the
    rule that it is safe (a first click is never a mine: the file's mines avoid it).

    >>> str(Start((4, 4)))
    'the start at 4,4 (a first click is safe)'
    """

    cell: Cell

    def __str__(self) -> str:
        return f"the start at {self.cell[0]},{self.cell[1]} (a first click is safe)"


@dataclass(frozen=True)
class Constraint:
    """Exactly ``mines`` of ``cells`` are mines.

    ``mines`` may be negative or exceed ``len(cells)``: such a rule cannot
    hold, and saying so is the answer, not an error.

    >>> Constraint(frozenset({"a", "b"}), 1, "x")
    Constraint(cells=frozenset({...}), mines=1, origin='x')
    """

    cells: frozenset[Hashable]
    mines: int
    origin: Hashable

    def __repr__(self) -> str:
        return f"Constraint(cells=frozenset({{...}}), mines={self.mines}, origin={self.origin!r})"

    def is_satisfiable_alone(self) -> bool:
        """True if some placement satisfies this rule on its own."""
        return 0 <= self.mines <= len(self.cells)


@dataclass(frozen=True)
class Problem:
    """Unknown cells, local rules over them, and optionally the mines among all.

    Attributes:
        cells: every unknown cell, in a fixed order (a tuple, or a big
            board's compact :class:`~satsweeper.board.GridCells`).  Cells
            mentioned by no rule are *floating*: only the total constrains them.
        constraints: the local rules.
        mines: the number of mines among ``cells`` if known (the board's total
            minus its flags), else None.
        total_origin: what to call the global rule in explanations.
    """

    cells: Sequence[Hashable]
    constraints: tuple[Constraint, ...]
    mines: int | None = None
    total_origin: Hashable = None

    def constrained_cells(self) -> list[Hashable]:
        """Cells that appear in at least one rule (the *frontier*), in order."""
        return self.partition()[0]

    def floating_cells(self) -> Sequence[Hashable]:
        """Cells no rule mentions, in order (compact when the cells are)."""
        return self.partition()[1]

    def partition(self) -> tuple[list[Hashable], Sequence[Hashable]]:
        """(the frontier, the floating cells), each in order.

        >>> Problem(("a", "b", "c"), (Constraint(frozenset({"c", "a"}), 1, "r"),)).partition()
        (['a', 'c'], ['b'])
        """
        seen = set()
        for rule in self.constraints:
            seen.update(rule.cells)
        return split_cells(self.cells, seen)

    def origins(self) -> list[Hashable]:
        """The origin of every rule, the total last if there is one."""
        out = [rule.origin for rule in self.constraints]
        if self.mines is not None:
            out.append(self.total_origin)
        return out

    def restricted_to(self, origins: set) -> "Problem":
        """The same cells under only the rules whose origin is in ``origins``."""
        rules = tuple(r for r in self.constraints if r.origin in origins)
        keep_total = self.mines is not None and self.total_origin in origins
        return Problem(self.cells, rules, self.mines if keep_total else None,
                       self.total_origin if keep_total else None)

    def is_explained_by(self, mines: frozenset) -> bool:
        """True if placing mines exactly on ``mines`` satisfies every rule."""
        if self.mines is not None and len(mines) != self.mines:
            return False
        return all(len(rule.cells & mines) == rule.mines for rule in self.constraints)


def with_start(problem: Problem, start: Cell | None) -> Problem:
    """``problem`` and the rule that a file's ``start`` cell, where the first click goes,
    is safe (no rule when there is no start, or it is not a hidden cell any more).

    >>> p = with_start(problem_of(Board(1, 3, total_mines=1)), (0, 0))
    >>> [(sorted(r.cells), r.mines, str(r.origin)) for r in p.constraints]
    [([(0, 0)], 0, 'the start at 0,0 (a first click is safe)')]
    """
    if start is None or start not in cell_set(problem.cells):
        return problem
    rule = Constraint(frozenset([start]), 0, Start(start))
    return Problem(problem.cells, problem.constraints + (rule,), problem.mines, problem.total_origin)


def split_cells(cells: Sequence[Hashable], chosen) -> tuple[list[Hashable], Sequence[Hashable]]:
    """(the cells in ``chosen``, the others), both in the order of ``cells``.

    Compact cells (:class:`~satsweeper.board.GridCells`) split without
    making a tuple per cell: the floating rest of a big board stays compact.

    >>> split_cells(("a", "b", "c"), {"c"})
    (['c'], ['a', 'b'])
    """
    split = getattr(cells, "split", None)
    if split is not None:
        return split(chosen)
    chosen = chosen if isinstance(chosen, (set, frozenset, dict)) else set(chosen)
    return [c for c in cells if c in chosen], [c for c in cells if c not in chosen]


def cell_set(cells: Sequence[Hashable]):
    """``cells`` as something fast to ask ``in``: a set, or compact cells as they are.

    >>> sorted(cell_set(["a", "b"]))
    ['a', 'b']
    """
    return cells if hasattr(cells, "split") else set(cells)


def problem_of(board: Board, flags_are_mines: bool = True) -> Problem:
    """The rules a board imposes on its hidden cells.

    A revealed ``k`` with ``f`` flagged neighbours says exactly ``k - f`` of
    its hidden neighbours are mines.  A total of ``m`` mines with ``f`` flags
    says exactly ``m - f`` hidden cells are mines.  With
    ``flags_are_mines=False`` flags are treated as hidden cells.

    >>> from satsweeper.board import Board
    >>> p = problem_of(Board(1, 3, {(0, 1): 1}, total_mines=1))
    >>> [sorted(r.cells) for r in p.constraints], p.mines
    ([[(0, 0), (0, 2)]], 1)
    """
    if not isinstance(board, Board):  # text not yet parsed, say: an AttributeError from deep inside
        # a System (an equation file read) carries its rules as .problem: say so
        hint = "; a System's rules are its .problem" if isinstance(getattr(board, "problem", None), Problem) else ""
        raise InputError(f"a Board or a Problem; parse_board makes a Board of text{hint} "
                         f"(got {type(board).__name__})")
    if not flags_are_mines:
        board = board.with_flags_hidden()
    if board.height * board.width > ARRAY_AREA:
        return _problem_of_arrays(board)
    clues, flags, table = board.clues, board.flags, board.neighbour_table
    shown = clues.keys() | flags | board.voids
    hidden = [cell for cell in board.cells() if cell not in shown]
    # Whole-board passes at C speed (chain, set, Counter) and a Python loop
    # only over the numbers next to a hidden cell: on expert positions this
    # took 0.15 ms where a walk cell by cell took 0.19, on endgames 0.10 to 0.21.
    near = table.__getitem__
    touching = set(chain.from_iterable(map(near, hidden)))
    owed = Counter(chain.from_iterable(map(near, flags))).get if flags else {}.get
    rules = [Constraint(frozenset([n for n in table[cell] if n not in shown]),
                        clues[cell] - owed(cell, 0), Clue(cell, clues[cell]))
             for cell in sorted(touching.intersection(clues))]
    # A number with no hidden neighbour says something only if its flags are wrong.
    wrong = [cell for cell, number in clues.items() if number != owed(cell, 0) and cell not in touching]
    if wrong:
        rules += [Constraint(frozenset(), clues[cell] - owed(cell, 0), Clue(cell, clues[cell])) for cell in wrong]
        rules.sort(key=lambda rule: rule.origin.cell)
    if board.total_mines is None:
        return Problem(tuple(hidden), tuple(rules))
    return Problem(tuple(hidden), tuple(rules), board.total_mines - len(flags),
                   TotalMines(board.total_mines))


# Above this many squares problem_of works on numpy grids: a dict of neighbour
# tuples for a million squares alone took 3.7 s to build.
ARRAY_AREA = 40_000


def _problem_of_arrays(board: Board) -> Problem:
    """:func:`problem_of` by vectorised neighbour sums: cost per frontier number, not per square.

    Every square is read once into a byte grid; the numbers that speak (next
    to a hidden square, or not matching their flags) are found by array
    arithmetic, and only they are visited one by one.
    """
    import numpy as np

    height, width = board.height, board.width
    squares = board.squares
    number = np.where(squares <= 8, squares, -1).astype(np.int16)  # -1: not a number
    hidden = np.zeros((height + 2, width + 2), dtype=np.int8)  # padded by a ring of nothing
    flag = np.zeros((height + 2, width + 2), dtype=np.int8)
    hidden[1:-1, 1:-1] = squares == HIDDEN_SQUARE
    flag[1:-1, 1:-1] = squares == FLAG_SQUARE
    near_flags = _neighbour_sum(flag)
    # Which of its eight neighbours are hidden, as bits: one pass per offset over the whole grid.
    bits = np.zeros((height, width), dtype=np.uint8)
    for bit, (dr, dc) in enumerate(NEIGHBOUR_OFFSETS):
        bits |= hidden[1 + dr:1 + dr + height, 1 + dc:1 + dc + width].astype(np.uint8) << bit
    speaking = (number >= 0) & ((bits > 0) | (number != near_flags))
    rows, cols = np.nonzero(speaking)
    rules = []
    with collector_paused():
        for r, c, n, owed, mask in zip(rows.tolist(), cols.tolist(), number[speaking].tolist(),
                                       near_flags[speaking].tolist(), bits[speaking].tolist()):
            cells = frozenset((r + dr, c + dc) for dr, dc in _OFFSETS_OF_BITS[mask])
            rules.append(Constraint(cells, n - owed, Clue((r, c), n)))
    # The hidden cells stay one array (8 bytes a cell, not a tuple each): most of a big board's float.
    cells = GridCells(np.flatnonzero(hidden[1:-1, 1:-1]), width)
    if board.total_mines is None:
        return Problem(cells, tuple(rules))
    return Problem(cells, tuple(rules), board.total_mines - len(board.flags), TotalMines(board.total_mines))


# The neighbour offsets whose bits are set in an 8-bit mask, for every mask.
_OFFSETS_OF_BITS = tuple(tuple(offset for bit, offset in enumerate(NEIGHBOUR_OFFSETS) if mask >> bit & 1)
                         for mask in range(256))


def _neighbour_sum(padded):
    """For each inner square, the sum of its eight neighbours in a zero-padded grid."""
    height, width = padded.shape[0] - 2, padded.shape[1] - 2
    total = padded[1:-1, 1:-1].astype("int16") * 0
    for dr, dc in NEIGHBOUR_OFFSETS:
        total += padded[1 + dr:1 + dr + height, 1 + dc:1 + dc + width]
    return total


class Positions:
    """:func:`problem_of` for the successive positions of one game.

    Between two moves only the rules of numbers next to a newly opened or
    flagged square change, so only those are rebuilt; any other change (a
    number gone, another board) falls back to the full construction.  The
    problems are equal to :func:`problem_of`'s (tested move by move).

    >>> from satsweeper.board import Board
    >>> positions = Positions()
    >>> b = Board(1, 3, {(0, 1): 1}, total_mines=1)
    >>> positions.problem(b) == problem_of(b)
    True
    """

    def __init__(self) -> None:
        self._board: Board | None = None
        self._rules: dict[Cell, Constraint] = {}
        self._hidden: dict[Cell, None] = {}  # an ordered set: dropping keys keeps row-major order
        self._problem: Problem | None = None  # the last board's, asked again as it is

    def known(self, board: Board, problem: Problem) -> None:
        """Take ``problem`` (``problem_of(board)``, built by the caller) as ``board``'s, so that
        the next :meth:`problem` of ``board`` is not built again: a hint builds the problem,
        then asks the strategy, which built it too (3.6 s of a 1000x1000 board's 21).

        >>> positions = Positions()
        >>> b = Board(1, 3, {(0, 1): 1}, total_mines=1)
        >>> built = problem_of(b)
        >>> positions.known(b, built)
        >>> positions.problem(b) is built
        True
        """
        self._board, self._problem = board, problem
        self._rules = {rule.origin.cell: rule for rule in problem.constraints}
        self._hidden = dict.fromkeys(problem.cells)

    def __deepcopy__(self, memo: dict) -> Positions:
        """A copy that follows another game from here: its own tables, holding
        the same boards and rules (frozen, so shared; ``copy.deepcopy``'s
        generic walk through them is what made players slow to copy).

        >>> import copy
        >>> positions = Positions()
        >>> b = Board(1, 3, {(0, 1): 1}, total_mines=1)
        >>> twin = copy.deepcopy(positions)
        >>> _ = positions.problem(b)
        >>> twin.problem(Board(1, 3, {(0, 0): 1}, total_mines=1)) == problem_of(Board(1, 3, {(0, 0): 1}, total_mines=1))
        True
        """
        twin = Positions()
        twin._board, twin._rules, twin._hidden = self._board, self._rules.copy(), self._hidden.copy()
        twin._problem = self._problem
        return twin

    def problem(self, board: Board) -> Problem:
        """``problem_of(board)``, rebuilding only the rules near what changed
        since the last board asked (from scratch when ``board`` does not
        follow it: fewer numbers, another size)."""
        if not isinstance(board, Board):  # text, say: an AttributeError from below
            raise InputError(f"a Board; parse_board makes a Board of text (got {type(board).__name__})")
        if board is self._board and self._problem is not None:  # frozen: the same problem
            return self._problem
        self._problem = self._built(board)
        return self._problem

    def _built(self, board: Board) -> Problem:
        previous, self._board = self._board, board
        # Only numbers with a rule are kept (a closed number drops out until a
        # flag taken back reopens it): the rules are sorted on every call.
        new = None if previous is None or not self._follows(previous, board) else \
            _added(previous.clues, board.clues)
        if new is None:
            # problem_of, not a rule per number: its whole-board passes (arrays on a big board)
            # took 0.4 s where the rules one by one took 9 s (hint on 849,000 numbers).
            problem = problem_of(board)
            self._rules = {rule.origin.cell: rule for rule in problem.constraints}
            self._hidden = dict.fromkeys(problem.cells)
            return problem
        else:
            changed = new | (board.flags ^ previous.flags)
            table, clues = board.neighbour_table, board.clues
            stale = {clue for cell in changed for clue in (cell, *table[cell]) if clue in clues}
            for clue in stale:
                rule = _rule(board, clue)
                if rule is not None:
                    self._rules[clue] = rule
                else:
                    self._rules.pop(clue, None)
            if previous.flags <= board.flags:  # hidden cells only went away
                for cell in changed:
                    self._hidden.pop(cell, None)
            else:
                self._hidden = dict.fromkeys(board.hidden_cells())
        rules = tuple(self._rules[clue] for clue in sorted(self._rules))
        hidden = tuple(self._hidden)
        if board.total_mines is None:
            return Problem(hidden, rules)
        return Problem(hidden, rules, board.total_mines - len(board.flags), TotalMines(board.total_mines))

    @staticmethod
    def _follows(previous: Board, board: Board) -> bool:
        """``board`` has ``previous``'s shape (its numbers are checked by the caller)."""
        return ((previous.height, previous.width, previous.voids, previous.total_mines)
                == (board.height, board.width, board.voids, board.total_mines))


def _added(before: dict, after: dict) -> set | None:
    """The keys ``after`` adds to ``before``, or None if some key of ``before`` is gone.

    A game's boards list their numbers in the order they were revealed, so
    the old ones usually come first, in the same order: comparing the two
    lists is mostly pointer checks, where a set difference would hash
    hundreds of cells on every move.

    >>> _added({1: 0, 2: 0}, {1: 0, 2: 0, 3: 0}), _added({1: 0, 2: 0}, {2: 0, 1: 0, 3: 0})
    ({3}, {3})
    >>> _added({1: 0, 2: 0}, {1: 0, 3: 0, 4: 0}) is None
    True
    """
    if list(islice(after, len(before))) == list(before):
        return set(islice(after, len(before), None))
    new = after.keys() - before.keys()
    # Every old key is still there iff exactly the number added is new.
    return new if len(new) == len(after) - len(before) else None


def _rule(board: Board, clue: Cell) -> Constraint | None:
    """The rule of one number, or None for a satisfied, closed number."""
    number, flags = board.clues[clue], board.flags
    clues = board.clues
    unopened = [near for near in board.neighbour_table[clue] if near not in clues]
    cells = [near for near in unopened if near not in flags] if flags else unopened
    owed = len(unopened) - len(cells)
    if cells or number != owed:
        return Constraint(frozenset(cells), number - owed, Clue(clue, number))
    return None


# setup.py compiles this file with Cython (why: its NAMES); the build serves only while made
# from this very text (satsweeper.compiled).
COMPILED = take_build(globals(), "constraints")
