"""Whole games and win-rate experiments.

:func:`play` runs one game: the :class:`~satsweeper.game.Game` owns the
layout, the strategy sees only ``game.board``.  :func:`run` plays many games,
optionally in parallel processes; game ``i`` of a run with seed ``s`` draws
its layout and its guesses from its own generator seeded by ``(s, i)``, so
results do not depend on the number of workers.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import statistics
import time
from dataclasses import dataclass
from typing import Callable, Iterator

from .board import Cell
from .game import FirstClick, Game, Level, Outcome, Placement
from .strategies import Strategy, strategy
from .errors import InputError

Z95 = statistics.NormalDist().inv_cdf(0.975)  # 1.959963984540054


@dataclass(frozen=True)
class GameResult:
    """One game: won or lost, and how many guesses it took."""

    won: bool
    guesses: int


@dataclass(frozen=True)
class Summary:
    """Many games of one strategy on one level."""

    strategy: str
    level: str
    games: int
    wins: int
    guesses: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self, z: float = Z95) -> tuple[float, float]:
        """Wilson score interval for the win rate (95% by default).

        The same numbers as ``scipy.stats.binomtest(wins, games)
        .proportion_ci(method="wilson")`` (to 1e-12), 150 times faster
        (``scripts/bench_library.py``) and without scipy, which is optional.

        >>> [round(x, 3) for x in Summary("s", "l", 100, 40, 0, 1.0).interval()]
        [0.309, 0.498]
        """
        n, p = self.games, self.rate
        if n == 0:
            return 0.0, 1.0
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def as_json(self) -> dict:
        low, high = self.interval()
        return {"strategy": self.strategy, "level": self.level, "games": self.games,
                "wins": self.wins, "win_rate": self.rate, "ci95": [low, high],
                "guesses_per_game": self.guesses / self.games if self.games else 0.0,
                "seconds": self.seconds,
                "games_per_second": self.games / self.seconds if self.seconds else 0.0}


@dataclass(frozen=True)
class Paired:
    """Two players on the same games: the games only one of them won.

    Games both won or both lost say nothing about which player is better;
    McNemar's ``z`` compares the rest.  About 2 or more (in absolute value)
    is unlikely to be chance.  (scipy has no McNemar test; statsmodels'
    would be a new dependency for one line of arithmetic.)

    >>> p = Paired.of([True, True, True, False], [False, True, False, True])
    >>> p.only_first, p.only_second, round(p.z, 3)
    (2, 1, 0.577)
    """

    only_first: int
    only_second: int

    @classmethod
    def of(cls, first: list[bool], second: list[bool]) -> Paired:
        """Game by game: ``first[i]`` and ``second[i]`` are the same game."""
        if len(first) != len(second):
            raise InputError(f"the same games for both players (got {len(first)} and {len(second)})")
        return cls(sum(a and not b for a, b in zip(first, second)),
                   sum(b and not a for a, b in zip(first, second)))

    @property
    def z(self) -> float:
        differ = self.only_first + self.only_second
        return (self.only_first - self.only_second) / math.sqrt(differ) if differ else 0.0


def first_cell(level: Level, where: str) -> Cell:
    """``corner`` (0,0), ``centre``/``center``, or ``ROW,COL``.

    >>> first_cell(Level(30, 16, 99), "centre")
    (8, 15)
    """
    if where == "corner":
        return 0, 0
    if where in ("centre", "center"):
        return level.height // 2, level.width // 2
    try:
        row, col = (int(x) for x in where.split(","))
    except ValueError:
        raise InputError(f"corner, centre or ROW,COL (got {where!r})") from None
    if not (0 <= row < level.height and 0 <= col < level.width):
        raise InputError(f"a first click inside the {level} board (got {where})")
    return row, col


def play(level: Level, strategy_name: str, seed: int | str, rule: FirstClick = FirstClick.SAFE,
         first: Cell | None = (0, 0), placement: Placement = Placement.SAMPLE,
         player: Strategy | None = None) -> GameResult:
    """Play one game; the first click is given (random if None), every later move is the strategy's.

    ``player`` plays instead of a fresh ``strategy(strategy_name)`` (a variant
    built with other settings); it must be new for each game.

    >>> play(Level(9, 9, 10), "exact", seed=1).won in (True, False)
    True
    """
    rng = random.Random(str(seed))
    if first is None:
        first = (rng.randrange(level.height), rng.randrange(level.width))
    game = Game.new(level, rng, first, rule, placement)
    player = player or strategy(strategy_name)
    guesses = 0
    game.open(first)
    while game.outcome is Outcome.PLAYING:
        decision = player.decide(game.board, rng)
        guesses += decision.guess
        for cell in decision.flags:
            game.flag(cell)
        for cell in decision.opens:
            if game.open(cell) is not Outcome.PLAYING:
                break
    return GameResult(game.outcome is Outcome.WON, guesses)


def _play_indexed(args: tuple) -> GameResult:
    level, name, seed, index, rule, first = args
    return play(level, name, f"{seed}:{index}", rule, first)


def run(level: Level, strategy_name: str, games: int, seed: int = 0,
        rule: FirstClick = FirstClick.SAFE, first: Cell | None = (0, 0), workers: int = 1,
        progress: Callable[[int], None] | None = None) -> Summary:
    """Play ``games`` games and summarise; ``progress(n)`` is told of each finished game."""
    strategy(strategy_name)  # fail early on a bad name
    jobs = [(level, strategy_name, seed, i, rule, first) for i in range(games)]
    start = time.perf_counter()
    wins = guesses = 0
    for result in _results(jobs, workers):
        wins += result.won
        guesses += result.guesses
        if progress:
            progress(1)
    return Summary(strategy_name, str(level), games, wins, guesses, time.perf_counter() - start)


def _results(jobs: list[tuple], workers: int) -> Iterator[GameResult]:
    if workers <= 1:
        yield from map(_play_indexed, jobs)
        return
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield from pool.imap(_play_indexed, jobs, chunksize=max(1, len(jobs) // (workers * 16)))
