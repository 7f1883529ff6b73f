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
from collections import Counter
from dataclasses import dataclass, field
from typing import Mapping

from .board import Board, Cell
from .constraints import problem_of
from .game import Game, Level, Outcome, neighbours
from .reasoning import Move, Reasoner, Status, solve
from .singlepoint import pair_moves, propagate, touched


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
        raise ValueError(f"a difficulty: {', '.join(DIFFICULTY_WORDS.values())} or 1-4 (got {text!r})")


DIFFICULTY_WORDS = {Rung.SINGLE: "easy", Rung.PAIR: "medium", Rung.SEVERAL: "hard",
                    Rung.TOTAL: "extreme"}


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
    """

    solved: bool
    rung: Rung
    clues: int
    moves: Mapping[Rung, int] = field(default_factory=dict)
    steps: Mapping[Rung, int] = field(default_factory=dict)
    stuck: tuple[Cell, ...] = ()
    position: Board | None = None

    def __str__(self) -> str:
        extra = f", {self.clues} numbers at once" if self.rung is Rung.SEVERAL else ""
        return f"{self.rung.word} (rung {int(self.rung)}{extra})"


def grade(level: Level, mines: frozenset[Cell], start: Cell) -> Grade:
    """Play from ``start`` taking always the easiest sure move; grade the hardest.

    Raises:
        ValueError: ``start`` is a mine or off the board.

    >>> g = grade(Level(3, 1, 1), frozenset({(0, 2)}), (0, 0))  # 0 1 *: nothing to deduce
    >>> g.solved, g.rung.word, dict(g.moves)
    (True, 'easy', {})
    >>> g = grade(Level(3, 2, 2), frozenset({(0, 2), (1, 2)}), (0, 0))  # two 2s: both mines
    >>> str(g), g.moves[Rung.SINGLE]
    ('easy (rung 1)', 2)
    """
    if not (0 <= start[0] < level.height and 0 <= start[1] < level.width) or start in mines:
        raise ValueError(f"a safe start cell on the board (got {start[0]},{start[1]}"
                         f"{', a mine' if start in mines else ''})")
    game = Game(level, mines)
    game.open(start)
    work = list(game.revealed)
    moves: Counter = Counter()
    steps: Counter = Counter()
    hardest, clues = Rung.SINGLE, 0
    while game.outcome is Outcome.PLAYING:
        moves[Rung.SINGLE] += propagate(game, work)
        if game.outcome is not Outcome.PLAYING:
            break
        rung, safe, found, needed = _easiest_step(game)
        if rung is None:
            status = solve(game.board).status
            stuck = tuple(c for c in status if any(n in game.revealed for n in neighbours(level, c)))
            return Grade(False, hardest, clues, _plain(moves), _plain(steps),
                         stuck or tuple(status), game.board)
        steps[rung] += 1
        moves[rung] += len(safe) + len(found)
        if (rung, needed) > (hardest, clues):
            hardest, clues = rung, needed
        work = []
        for cell in found:
            game.flag(cell)
            work.extend(touched(game, [cell]))
        for cell in safe:
            game.open(cell)
            work.extend(touched(game, game.recent))
    return Grade(game.outcome is Outcome.WON, hardest, clues, _plain(moves), _plain(steps),
                 (), game.board)


def _plain(counts: Counter) -> dict[Rung, int]:
    return {rung: counts[rung] for rung in Rung if counts[rung]}


def _easiest_step(game: Game) -> tuple[Rung | None, list[Cell], list[Cell], int]:
    """(rung, safe cells, mines, numbers needed) of the easiest sure moves.

    Single numbers are stuck when this is called.
    """
    board = game.board
    local = problem_of(Board(board.height, board.width, board.clues, board.flags))
    safe, found = pair_moves(local)
    if safe or found:
        return Rung.PAIR, sorted(safe), sorted(found), 2
    status = solve(local).status
    decided = [(c, s) for c, s in status.items() if s is not Status.UNKNOWN]
    if decided:
        with Reasoner(local) as reasoner:
            sizes = {c: len(reasoner.safety(c, Move.OPEN if s is Status.SAFE else Move.MARK).reason)
                     for c, s in decided}
        least = min(sizes.values())
        easiest = [(c, s) for c, s in decided if sizes[c] == least]
        return (Rung.SEVERAL, [c for c, s in easiest if s is Status.SAFE],
                [c for c, s in easiest if s is Status.MINE], least)
    status = solve(board).status
    safe = [c for c, s in status.items() if s is Status.SAFE]
    found = [c for c, s in status.items() if s is Status.MINE]
    if safe or found:
        return Rung.TOTAL, safe, found, 0
    return None, [], [], 0
