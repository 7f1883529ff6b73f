"""Whole games and win-rate experiments.

:func:`play` runs one game: the :class:`~satsweeper.game.Game` owns the
layout, the strategy sees only ``game.board``.  :func:`run` plays many games,
here, in processes or on a Dask cluster (:mod:`satsweeper.runner`); game
``i`` of a run with seed ``s`` draws its layout and its guesses from its own
generator seeded by ``(s, i)``, so results do not depend on where the games
ran, nor on whether the run was interrupted and resumed.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
import statistics
import time
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from .board import Cell
from .game import FirstClick, Game, Level, Outcome, Placement
from .runner import Backend, open_runner
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

    def adding(self, chunk: Chunk) -> Summary:
        """This summary with the games of ``chunk`` added."""
        return dataclasses.replace(self, games=self.games + len(chunk.won),
                                   wins=self.wins + sum(chunk.won),
                                   guesses=self.guesses + chunk.guesses,
                                   seconds=self.seconds + chunk.seconds)

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


def play_range(levels: tuple[Level, ...], strategy_name: str, games: int, seed: int,
               rule: FirstClick, first: Cell | None, lo: int, hi: int) -> list[GameResult]:
    """Games ``lo .. hi-1`` of a run over ``levels``, ``games`` games each.

    Game ``k`` is game ``k % games`` of level ``k // games``, seeded
    ``(seed, k % games)`` as :func:`run` seeds it: the runner's work.

    >>> levels = (Level(3, 1, 1), Level(3, 1, 2))  # both won from a safe corner
    >>> play_range(levels, "exact", 2, 0, FirstClick.SAFE, (0, 0), 1, 3)
    [GameResult(won=True, guesses=0), GameResult(won=True, guesses=0)]
    """
    return [play(levels[k // games], strategy_name, f"{seed}:{k % games}", rule, first)
            for k in range(lo, hi)]


@dataclass(frozen=True)
class Chunk:
    """Games ``start .. stop-1`` of a run: which were won, and their guesses."""

    start: int
    won: tuple[bool, ...]
    guesses: int
    seconds: float

    @property
    def stop(self) -> int:
        return self.start + len(self.won)

    def as_json(self) -> dict:
        return {"start": self.start, "stop": self.stop, "wins": sum(self.won),
                "won": "".join("1" if w else "0" for w in self.won),
                "guesses": self.guesses, "seconds": self.seconds}

    @classmethod
    def from_json(cls, data: dict) -> Chunk:
        """The inverse of :meth:`as_json`.

        >>> c = Chunk(4, (True, False), 3, 0.5)
        >>> Chunk.from_json(c.as_json()) == c
        True
        """
        won = tuple(bit == "1" for bit in data["won"])
        if set(data["won"]) - {"0", "1"} or data["stop"] - data["start"] != len(won):
            raise ValueError(f"one 0/1 per game of a chunk (got {data['won'][:40]!r})")
        return cls(int(data["start"]), won, int(data["guesses"]), float(data["seconds"]))


def run(level: Level, strategy_name: str, games: int, seed: int = 0,
        rule: FirstClick = FirstClick.SAFE, first: Cell | None = (0, 0), workers: int = 1,
        progress: Callable[[int], None] | None = None, *, backend: Backend | None = None,
        done: Sequence[Chunk] = (), on_chunk: Callable[[Chunk, Summary], None] | None = None
        ) -> Summary:
    """Play ``games`` games and summarise.

    Args:
        backend: where to play (default: ``workers`` processes here).
        done: chunks of an interrupted run of the same games, from game 0 on
            without a gap; play resumes after them, and the summary is the
            one an uninterrupted run gives (but for the seconds).
        progress: told the number of games of each chunk as it finishes.
        on_chunk: given each new chunk, in order, and the summary so far: a
            caller that keeps the last one has the partial result when the
            run is interrupted.

    >>> whole = run(Level(9, 9, 10), "exact", 20, seed=3)
    >>> first = []  # the first 8 games, as an interrupted run left them
    >>> _ = run(Level(9, 9, 10), "exact", 8, seed=3, on_chunk=lambda c, s: first.append(c))
    >>> resumed = run(Level(9, 9, 10), "exact", 20, seed=3, done=first)
    >>> (resumed.games, resumed.wins, resumed.guesses) == (whole.games, whole.wins, whole.guesses)
    True
    """
    strategy(strategy_name)  # fail early on a bad name
    if not isinstance(games, int) or games < 0:  # -3 games was "at most -3 finished games to resume"
        raise InputError(f"a number of games, 0 or more (got {games!r})")
    summary = Summary(strategy_name, str(level), 0, 0, 0, 0.0)
    for chunk in done:
        if chunk.start != summary.games:
            raise InputError(f"finished chunks from game 0 on without a gap (got a chunk at "
                             f"{chunk.start} after {summary.games} games)")
        summary = summary.adding(chunk)
    if summary.games > games:
        raise InputError(f"at most {games} finished games to resume (got {summary.games})")
    work = functools.partial(play_range, (level,), strategy_name, games, seed, rule, first)
    with open_runner(backend or Backend(workers)) as runner:
        start = time.perf_counter()
        for lo, results in runner.stream(work, games, summary.games):
            now = time.perf_counter()
            chunk = Chunk(lo, tuple(r.won for r in results), sum(r.guesses for r in results),
                          now - start)
            start = now
            summary = summary.adding(chunk)
            if progress:
                progress(len(results))
            if on_chunk:
                on_chunk(chunk, summary)
    return summary


def run_levels(levels: Sequence[Level], strategy_name: str, games: int, seed: int = 0,
               rule: FirstClick = FirstClick.SAFE, first: Cell | None = (0, 0),
               backend: Backend = Backend(), progress: Callable[[int], None] | None = None,
               weight: Callable[[Level], int] = lambda level: 1) -> Iterator[Summary]:
    """``games`` games on each level, one summary per level as soon as its games are done.

    Game ``i`` of every level is seeded ``(seed, i)``, as :func:`run` seeds
    it; chunks may span levels, so a cluster stays busy across them.
    ``progress`` is told ``weight(level)`` per finished game of ``level``
    (a game's cost grows with its board: weights keep an ETA honest).

    >>> [s.wins for s in run_levels([Level(3, 1, 1), Level(3, 1, 2)], "exact", 4)]
    [4, 4]
    """
    strategy(strategy_name)
    levels = tuple(levels)
    work = functools.partial(play_range, levels, strategy_name, games, seed, rule, first)
    current: list[GameResult] = []
    start = time.perf_counter()
    with open_runner(backend) as runner:
        for lo, results in runner.stream(work, games * len(levels)):
            if progress:
                progress(sum(weight(levels[k // games]) for k in range(lo, lo + len(results))))
            for k, result in enumerate(results, lo):
                current.append(result)
                if len(current) == games:
                    now = time.perf_counter()
                    yield Summary(strategy_name, str(levels[k // games]), games,
                                  sum(r.won for r in current), sum(r.guesses for r in current),
                                  now - start)
                    start, current = now, []
