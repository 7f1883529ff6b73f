"""Reproducible realistic positions for benchmarks and tests.

A position is what a player sees after playing from a first click with the
two obvious rules (Fowler and Young's theorems 1 and 2: a number whose missing mines
equal its hidden neighbours flags them all; a number whose flags are complete
opens the rest) until they get stuck.  To reach mid-game positions the
generator may then open a random *safe* cell (it knows the layout: it is a
generator, not a player) and carry on, until a drawn share of the safe cells
is open.
"""

from __future__ import annotations

import random
from typing import Iterator

from .board import Board, Cell
from .game import FirstClick, Game, Level, Outcome
from .propagation import propagate, touched


def stuck_games(level: Level, seed: int, first: Cell | None = None,
                rule: FirstClick = FirstClick.OPENING) -> Iterator[tuple[Game, float]]:
    """Every point where the obvious rules get stuck in one game.

    Yields (game, share of safe cells open); the game is live, so read what
    you need before asking for the next point.  Between points a random safe
    cell is opened.  Deterministic for a given seed.
    """
    rng = random.Random(seed)
    first = first or (level.height // 2, level.width // 2)
    game = Game.new(level, rng, first, rule)
    game.open(first)
    safe_total = level.width * level.height - level.mines
    while game.outcome is Outcome.PLAYING:
        # After a random open, the numbers beside the opened cells too: one of
        # them may now have as many hidden cells as missing mines.
        propagate(game, touched(game, list(game.recent)) if game.recent else list(game.revealed))
        if game.outcome is not Outcome.PLAYING:
            return
        yield game, len(game.revealed) / safe_total
        game.open(_closed_safe_cell(game, rng))


def _closed_safe_cell(game: Game, rng: random.Random) -> Cell:
    """A uniformly random unopened safe cell (rejection sampling, then a scan)."""
    level = game.level
    for _ in range(64):
        cell = (rng.randrange(level.height), rng.randrange(level.width))
        if cell not in game.revealed and cell not in game.mines:
            return cell
    closed = [(r, c) for r in range(level.height) for c in range(level.width)
              if (r, c) not in game.revealed and (r, c) not in game.mines]
    return rng.choice(closed)


def position(level: Level, seed: int, progress: float | None = None) -> Board | None:
    """One stuck position, at least ``progress`` of the way through its game.

    ``progress`` (share of safe cells open) is drawn from [0, 0.9) by the
    seed when not given.  Returns None if the game ends first (the rules
    alone solved it).

    >>> b = position(Level(9, 9, 10), seed=3)
    >>> b is None or b.total_mines == 10
    True
    """
    if progress is None:
        progress = random.Random(seed * 7919 + 1).random() * 0.9
    for game, share in stuck_games(level, seed):
        if share >= progress:
            return game.board
    return None


def positions(level: Level, count: int, seed: int = 0) -> list[Board]:
    """``count`` stuck positions from consecutive seeds (games the rules win are skipped)."""
    out, game_seed = [], seed
    while len(out) < count:
        board = position(level, game_seed)
        game_seed += 1
        if board is not None:
            out.append(board)
    return out
