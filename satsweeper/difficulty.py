"""How hard a no-guess layout is: the hardest step a careful player must take.

The player always takes the easiest sure move there is, on a fixed ladder:

1. ``SINGLE``: one number on its own (all its hidden cells are mines, or
   its flags are complete and the rest is safe);
2. ``PAIR``: two numbers whose hidden cells nest (the pair rule: the cells
   of the larger outside the smaller hold the difference);
3. ``SEVERAL``: several numbers at once.  How many is measured by the
   reason SAT gives for the move: a set of numbers that forces it, from
   which no number can be dropped (subset-minimal; the smallest such set
   among the moves available at that step);
4. ``TOTAL``: the numbers only decide it with the total mine count.

The grade is the highest rung any step needs (for ``SEVERAL``, with the
most numbers needed at once), and the moves of each kind are counted: a
layout of grade 3 that needs one three-number step is easier than one
that needs twenty.
"""

from __future__ import annotations

import enum
import itertools
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from .board import Board, Cell
from .constraints import Clue, problem_of
from .errors import InputError
from .game import Game, Level, Outcome, neighbours
from .reasoning import Move, Reasoner, Status, solve
from .propagation import play_sure, propagate
from .singlepoint import pair_moves


class Rung(enum.IntEnum):
    """A rung of the difficulty ladder (higher is harder)."""

    SINGLE = 1
    PAIR = 2
    SEVERAL = 3
    TOTAL = 4

    @property
    def word(self) -> str:
        """The difficulty a puzzle author asks for: easy, medium, hard, extreme."""
        return DIFFICULTY_WORDS[self]

    @classmethod
    def parse(cls, text: str) -> "Rung":
        """A rung from its word or number.

        >>> Rung.parse("hard"), Rung.parse("4")
        (<Rung.SEVERAL: 3>, <Rung.TOTAL: 4>)
        """
        for rung, word in DIFFICULTY_WORDS.items():
            if text.strip().lower() in (word, str(int(rung)), rung.name.lower()):
                return rung
        raise InputError(f"a difficulty: {', '.join(DIFFICULTY_WORDS.values())} or 1-4 (got {text!r})")


DIFFICULTY_WORDS = {Rung.SINGLE: "easy", Rung.PAIR: "medium", Rung.SEVERAL: "hard",
                    Rung.TOTAL: "extreme"}


@dataclass(frozen=True)
class Step:
    """One step of the grading player: what it decided, and on which rung.

    Attributes:
        rung: the rung the step needed (``SINGLE``: single numbers applied
            until they stick, several cells at once).
        clues: numbers needed at once (1 for ``SINGLE``, 2 for ``PAIR``, the
            reason's size for ``SEVERAL``, 0 for ``TOTAL``).
        opened: the cells the step opened, in order, with those a 0 opened
            for free.
        flagged: the cells the step flagged.
        needs: the numbers (their cells) the step's moves needed: for
            ``PAIR`` the nested pairs, for ``SEVERAL`` the reasons, for
            ``TOTAL`` those the total needs with it for the first
            :data:`TOTAL_REASONS` cells it decides (often none); none for
            ``SINGLE`` (any number that fired).
    """

    rung: Rung
    clues: int
    opened: tuple[Cell, ...]
    flagged: tuple[Cell, ...]
    needs: tuple[Cell, ...] = ()


@dataclass(frozen=True)
class Grade:
    """The difficulty of a layout from its first click.

    Attributes:
        solved: won without a guess (if not, the rest describes the play
            up to where it stuck).
        rung: the hardest rung a step needed (``SINGLE`` when the first
            click or single numbers alone win).
        clues: for ``SEVERAL``, the most numbers one step needed at once
            (each step counted by its easiest move); 0 when no step needed
            several numbers.
        moves: cells decided on each rung (cells a 0 opened for free do not
            count).
        steps: how many times the player had to climb to each rung above
            the first.
        stuck: when not solved, the undetermined cells where a guess is
            forced.
        position: the position reached.
        path: the steps in order from the first click's position, so the
            solution can be replayed (and each step checked).
    """

    solved: bool
    rung: Rung
    clues: int
    moves: Mapping[Rung, int] = field(default_factory=dict)
    steps: Mapping[Rung, int] = field(default_factory=dict)
    stuck: tuple[Cell, ...] = ()
    position: Board | None = None
    path: tuple[Step, ...] = ()

    def __str__(self) -> str:
        extra = f", {self.clues} numbers at once" if self.rung is Rung.SEVERAL else ""
        return f"{self.rung.word} (rung {int(self.rung)}{extra})"


def grade(level: Level, mines: frozenset[Cell], start: Cell, highest: Rung = Rung.TOTAL,
          shown: Iterable[Cell] = (), flagged: Iterable[Cell] = ()) -> Grade:
    """Play from ``start`` taking always the easiest sure move; grade the hardest.

    ``shown``: safe cells the puzzle reveals besides the first click, opened with it;
    ``flagged``: mines it shows flagged.

    With ``highest`` below ``TOTAL`` the player knows only the rungs up to
    it and is stuck where a harder step would be needed.

    Raises:
        InputError: ``start`` is a mine or off the board (a ValueError too).

    >>> g = grade(Level(3, 1, 1), frozenset({(0, 2)}), (0, 0))  # 0 1 *: nothing to deduce
    >>> g.solved, g.rung.word, dict(g.moves)
    (True, 'easy', {})
    >>> g = grade(Level(4, 1, 1), frozenset({(0, 2)}), (0, 0))  # 0 1 * .: the total opens 0,3
    >>> str(g), g.moves[Rung.TOTAL]
    ('extreme (rung 4)', 1)
    >>> grade(Level(4, 1, 1), frozenset({(0, 2)}), (0, 0), highest=Rung.SEVERAL).stuck
    ((0, 3),)
    """
    if not isinstance(highest, Rung):  # "easy" was a TypeError deep inside
        raise InputError(f"a Rung for the highest rung, such as Rung.parse('hard') (got {highest!r})")
    player = LadderPlayer(level, mines, start, highest, shown, flagged)
    player.game.check_count()
    player.advance()
    return player.verdict()


def hardest_steps(graded: Grade) -> tuple[Step, ...]:
    """The steps of ``graded.path`` that set its grade: where an author looks to
    make a puzzle easier or to see why it is hard (none when it is easy).

    >>> g = grade(Level(4, 1, 1), frozenset({(0, 2)}), (0, 0))  # 0 1 * .: the total opens 0,3
    >>> [(str(s.rung.word), s.opened, s.flagged) for s in hardest_steps(g)]
    [('extreme', ((0, 3),), ())]
    """
    if graded.rung is Rung.SINGLE:
        return ()
    return tuple(step for step in graded.path if step.rung is graded.rung
                 and (graded.rung is not Rung.SEVERAL or step.clues == graded.clues))


def position_before(level: Level, mines: frozenset[Cell], start: Cell, graded: Grade, index: int,
                    shown: Iterable[Cell] = (), flagged: Iterable[Cell] = ()) -> Board:
    """The position the grading player saw before step ``index`` of ``graded.path``
    (its first click, ``shown`` and ``flagged`` as given to :func:`grade`): where an
    author looks at the numbers a hard step needed.

    >>> mines = frozenset({(0, 0), (2, 2)})  # examples/ladder/hard.txt
    >>> g = grade(Level(3, 3, 2), mines, (2, 0))
    >>> g.path[0].needs, sorted(position_before(Level(3, 3, 2), mines, (2, 0), g, 0).clues)
    (((1, 0), (1, 1), (2, 1)), [(1, 0), (1, 1), (2, 0), (2, 1)])
    """
    game = Game(level, mines).opened_with(start, tuple(shown), tuple(flagged))
    for step in graded.path[:index]:
        play_sure(game, step.flagged, step.opened)
    return game.board


class LadderPlayer:
    """The grading player, able to go on after the layout changes under undecided cells.

    The same interface as the no-guess checker's player (``advance``,
    ``move_mines``, ``stuck``), so the perturbing generator can aim at a
    difficulty by perturbing where a harder step would be needed.
    """

    def __init__(self, level: Level, mines: frozenset[Cell], start: Cell,
                 highest: Rung = Rung.TOTAL, shown: Iterable[Cell] = (), flagged: Iterable[Cell] = ()):
        if not level.contains(start) or start in mines:  # a "0,0" or a list too, not a TypeError
            where = f"{start[0]},{start[1]}" if isinstance(start, tuple) and len(start) == 2 else repr(start)
            raise InputError(f"a safe start cell on the board (got {where}"
                             f"{', a mine' if level.contains(start) and start in mines else ''})")
        self.level, self.start, self.highest = level, start, highest
        self.game = Game(level, mines).opened_with(start, shown, flagged)
        self.work = list(self.game.revealed)
        self.moves: Counter = Counter()
        self.steps: Counter = Counter()
        self.hardest, self.clues = Rung.SINGLE, 0
        self.stuck: tuple[Cell, ...] = ()
        self.path: list[Step] = []
        self.seen = (len(self.game.revealed), set(self.game.flags))

    def _record(self, rung: Rung, clues: int, needs: tuple[Cell, ...] = ()) -> None:
        """The cells opened and flagged since the last step, as a step of ``rung``."""
        game, (known, flags) = self.game, self.seen
        # revealed is a dict in the order cells opened, and cells never close.
        opened = tuple(itertools.islice(game.revealed, known, None))
        flagged = tuple(sorted(game.flags - flags))
        if opened or flagged:
            self.path.append(Step(rung, clues, opened, flagged, needs))
        self.seen = (len(game.revealed), set(game.flags))

    def advance(self) -> bool:
        """Deduce until won (True) or stuck (False, ``stuck`` names where to guess)."""
        game, level = self.game, self.level
        self.stuck = ()
        while game.outcome is Outcome.PLAYING:
            self.moves[Rung.SINGLE] += propagate(game, self.work)
            self._record(Rung.SINGLE, 1)
            if game.outcome is not Outcome.PLAYING:
                break
            rung, safe, found, needed, needs = _easiest_step(game, self.highest)
            if rung is None:
                # Nothing this player knows decides a cell: every hidden cell
                # next to a number is a guess (all of them, if flags wall the
                # numbers in).
                hidden = game.board.hidden_cells()
                self.stuck = tuple(c for c in hidden
                                   if any(n in game.revealed for n in neighbours(level, c))) \
                    or tuple(hidden)
                return False
            self.steps[rung] += 1
            self.moves[rung] += len(safe) + len(found)
            if (rung, needed) > (self.hardest, self.clues):
                self.hardest, self.clues = rung, needed
            self.work = play_sure(game, found, safe)
            self._record(rung, needed, needs)
        return game.outcome is Outcome.WON

    def move_mines(self, removed: frozenset[Cell], added: frozenset[Cell]) -> None:
        """Change undecided hidden cells; the numbers that changed are looked at again."""
        self.work.extend(self.game.move_mines(removed, added))

    def verdict(self) -> Grade:
        game = self.game
        return Grade(game.outcome is Outcome.WON, self.hardest, self.clues, _plain(self.moves),
                     _plain(self.steps), self.stuck, game.board, tuple(self.path))


def _plain(counts: Counter) -> dict[Rung, int]:
    return {rung: counts[rung] for rung in Rung if counts[rung]}


def _easiest_step(game: Game, highest: Rung) -> tuple[Rung | None, list[Cell], list[Cell], int, tuple[Cell, ...]]:
    """(rung, safe cells, mines, numbers needed at once, the numbers' cells) of the easiest
    sure moves up to ``highest``.

    Single numbers are stuck when this is called.
    """
    board = game.board
    none: tuple = (None, [], [], 0, ())
    if highest < Rung.PAIR:
        return none
    local = problem_of(Board(board.height, board.width, board.clues, board.flags))
    safe, found = pair_moves(local)
    if safe or found:
        return Rung.PAIR, sorted(safe), sorted(found), 2, _pair_numbers(local, safe | found)
    if highest < Rung.SEVERAL:
        return none
    status = solve(local).status
    decided = [(c, s) for c, s in status.items() if s is not Status.UNDETERMINED]
    if decided:
        with Reasoner(local) as reasoner:
            reasons = {c: reasoner.safety(c, Move.OPEN if s is Status.SAFE else Move.FLAG).reason
                       for c, s in decided}
        least = min(len(r) for r in reasons.values())
        easiest = [(c, s) for c, s in decided if len(reasons[c]) == least]
        needs = sorted({clue.cell for c, _ in easiest for clue in reasons[c]})  # Clues: no total here
        return (Rung.SEVERAL, [c for c, s in easiest if s is Status.SAFE],
                [c for c, s in easiest if s is Status.MINE], least, tuple(needs))
    if highest < Rung.TOTAL:
        return none
    problem = problem_of(board)
    status = solve(problem).status
    safe = [c for c, s in status.items() if s is Status.SAFE]
    found = [c for c, s in status.items() if s is Status.MINE]
    if safe or found:
        # The numbers the total works with, for the first cells decided (a minimal reason is a
        # SAT call per number; the total's steps come at the end, few, and most decide a cell or two;
        # the first cell's alone named numbers that did not touch the others).
        decided = [(c, Move.OPEN) for c in safe] + [(c, Move.FLAG) for c in found]
        with Reasoner(problem) as reasoner:
            needs = {o.cell for c, move in decided[:TOTAL_REASONS]
                     for o in reasoner.safety(c, move).reason if isinstance(o, Clue)}
        return Rung.TOTAL, safe, found, 0, tuple(sorted(needs))
    return none


TOTAL_REASONS = 8  # cells of a total step whose numbers are named (report.puzzles names 8 cells)


def _pair_numbers(problem, decided: set) -> tuple[Cell, ...]:
    """The numbers of the nested pairs that decide ``decided`` (as
    :func:`~.singlepoint.pair_moves` finds them): what an author looks at.

    Here, not in singlepoint: pair_moves is on the strategies' hot path and
    needs no reasons; this runs once a pair step.
    """
    rules_of: dict = {}
    for rule in problem.constraints:
        for cell in rule.cells:
            rules_of.setdefault(cell, []).append(rule)
    needs: set = set()
    for b in {id(r): r for d in decided for r in rules_of.get(d, ())}.values():
        for a in {id(r): r for c in b.cells for r in rules_of[c]}.values():
            if a is b or not a.cells or len(b.cells) <= len(a.cells) or not a.cells <= b.cells:
                continue
            outside, owed = b.cells - a.cells, b.mines - a.mines
            if (owed == 0 or owed == len(outside)) and outside & decided:
                needs.update((a.origin.cell, b.origin.cell))
    return tuple(sorted(needs))
