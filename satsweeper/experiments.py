"""Whole games and win-rate experiments.

:func:`play` runs one game: the :class:`~satsweeper.game.Game` owns the
layout, the strategy sees only ``game.board``.  :func:`run` plays many games,
here, in processes or on a Dask cluster (:mod:`satsweeper.runner`); game
``i`` of a run with seed ``s`` draws its layout and its guesses from its own
generator seeded by ``(s, i)``, so results do not depend on where the games
ran, nor on whether the run was interrupted and resumed.

A player is a strategy's name (:data:`~satsweeper.strategies.NAMES`) or
your own: anything that makes a fresh :class:`~satsweeper.strategies.Strategy`
when called with no argument, such as its class.  :func:`compare` plays
several players on the same games and pairs their results.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import numbers
import pickle
import random
import statistics
import time
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from .board import Cell
from .game import FirstClick, Game, Level, Outcome, Placement
from .runner import Backend, open_runner
from .strategies import NAMES, Decision, Strategy, strategy
from .errors import InputError, SatsweeperError
from .limits import TimeUp

#: A strategy's name, or what makes a fresh player for each game (its class, say).
Player = str | Callable[[], Strategy]

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
        # Exact at the ends, where centre - half is 0 (or centre + half 1) but for rounding (2.8e-17).
        return (0.0 if self.wins == 0 else max(0.0, centre - half),
                1.0 if self.wins == n else min(1.0, centre + half))

    def adding(self, chunk: Chunk) -> Summary:
        """This summary with the games of ``chunk`` added."""
        return dataclasses.replace(self, games=self.games + len(chunk.won),
                                   wins=self.wins + sum(chunk.won),
                                   guesses=self.guesses + chunk.guesses,
                                   seconds=self.seconds + chunk.seconds)

    def as_json(self) -> dict:
        low, high = self.interval()
        # No game played (a run stopped before its first chunk): no rate, not 0%.
        return {"strategy": self.strategy, "level": self.level, "games": self.games,
                "wins": self.wins, "win_rate": self.rate if self.games else None, "ci95": [low, high],
                "guesses_per_game": self.guesses / self.games if self.games else None,
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


def play(level: Level, strategy_name: Player, seed: int | str, rule: FirstClick = FirstClick.SAFE,
         first: Cell | None = (0, 0), placement: Placement = Placement.SAMPLE,
         player: Strategy | None = None) -> GameResult:
    """Play one game; the first click is given (random if None), every later move is the strategy's.

    ``strategy_name`` is a strategy's name or a :data:`Player` that makes
    one; ``player`` plays instead (a variant built with other settings) and
    must be new for each game.  The layout is drawn from the seed before
    any move, so every player meets the same layout for the same seed; the
    player draws its guesses from the same generator (a seed replays a game
    exactly), whose state could be rewound to the layout: a fair player only
    draws from it.

    >>> play(Level(9, 9, 10), "exact", seed=1).won in (True, False)
    True

    A decision that opens nothing new and flags nothing new would be asked
    for again for ever; it is refused:

    >>> from satsweeper.strategies import Decision
    >>> class Idle:
    ...     name = "idle"
    ...     def decide(self, board, rng):
    ...         return Decision()
    >>> play(Level(9, 9, 10), Idle, seed=1)
    Traceback (most recent call last):
    ...
    satsweeper.errors.InputError: a Decision that opens or flags a hidden cell (got Decision(opens=(), flags=(), guess=False, basis='', value=None) from idle)
    """
    _check_level(level)
    if isinstance(seed, bool) or not isinstance(seed, (numbers.Integral, str)):
        # (7, 3) played a game of its own: game 3 of a run seeded 7 is "7:3" (play_range)
        raise InputError(f"a whole number or text seed; game i of a run of seed s is 's:i' (got {seed!r})")
    rng = random.Random(str(seed))
    if first is None:
        first = (rng.randrange(level.height), rng.randrange(level.width))
    game = Game.new(level, rng, first, rule, placement)
    if isinstance(player, type):  # the class, not a player: one made for this game
        player = _make(player)
    if player is None:
        player = strategy(strategy_name) if isinstance(strategy_name, str) else _make(strategy_name)
        if hasattr(player, "check_consistency"):  # a built-in class, or one derived from it
            # A game's positions are explained by its layout: a check per move would
            # triple what basic spends.
            player.check_consistency = False
    guesses = 0
    game.open(first)
    own = not type(player).__module__.startswith("satsweeper.")
    while game.outcome is Outcome.PLAYING:
        try:
            decision = player.decide(game.board, rng)
        except Exception as err:
            # Ours (an InconsistentError from a built-in it asked), a limit or a time: as they are.
            if not own or isinstance(err, (SatsweeperError, MemoryError, RecursionError, TimeUp)):
                raise
            # Your player's bug, not ours ("internal error, please report it", exit 70), and the
            # seed that replays the game where it happened.
            raise InputError(f"a player whose decide runs (got {type(err).__name__}: {err}, from "
                             f"{_name_of(player)}.decide in the game of seed {str(seed)!r}: "
                             f"play(level, player, {str(seed)!r}) replays it)") from err
        if not isinstance(decision, Decision):  # a list of cells, say: an AttributeError below
            raise InputError(f"a Decision from {_name_of(player)}.decide (got {type(decision).__name__})")
        guesses += decision.guess
        before = len(game.revealed), len(game.flags)
        try:
            _apply(game, decision)
        except SatsweeperError as err:
            if not own:
                raise
            # A cell off the board (or "0,1", read a character at a time): said with the player
            # and the seed that replays it, as a decide that raises is.
            expected, _, got = str(err).partition(" (got ")  # the cell's own words, not one message in another
            raise InputError(f"a Decision naming {expected} (got {got[:-1] if got else 'none'}, from "
                             f"{_name_of(player)}.decide in the game of seed {str(seed)!r}: "
                             f"play(level, player, {str(seed)!r}) replays it)") from err
        if game.outcome is Outcome.PLAYING and (len(game.revealed), len(game.flags)) == before:
            # Opens and flags only add squares: nothing added, the next board is this one.
            raise InputError(f"a Decision that opens or flags a hidden cell (got {decision!r} "
                             f"from {_name_of(player)})")
    return GameResult(game.outcome is Outcome.WON, guesses)


def _apply(game: Game, decision: Decision) -> None:
    """Play a decision's flags, then its opens until the game ends."""
    for cell in decision.flags:
        game.flag(cell)
    for cell in decision.opens:
        # Opening a cell it flagged takes its own flag back (a Decision cannot unflag): a
        # wrong flag opened later is the player's game to lose, not a refused decision.
        game.unflag(cell)
        if game.open(cell) is not Outcome.PLAYING:
            break


def _check_level(level) -> None:
    """A level's name was an AttributeError from inside Game.new."""
    if not isinstance(level, Level):
        raise InputError(f"a Level, such as Level.parse('beginner') or Level(9, 9, 10) (got {level!r})")


def is_count(value) -> bool:
    """A count as a journal holds it: a whole number, 0 or more (not 1.5, not true)."""
    return type(value) is int and value >= 0


def is_seconds(value) -> bool:
    """A duration as a journal holds it: a finite number, 0 or more (not true, not "x")."""
    return not isinstance(value, bool) and isinstance(value, (int, float)) and 0 <= value < float("inf")


def _check_seed(seed) -> None:
    """A seed is a whole number, as the command line and journals take it: 1.5 and "a"
    ran (seeded by their text), and True played other games than 1."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise InputError(f"a whole number seed (got {seed!r})")


def _check_rule(rule) -> None:
    """A plain "safe" was refused from inside the first game, naming what was not passed."""
    if not isinstance(rule, FirstClick):
        raise InputError(f"a FirstClick, such as FirstClick.SAFE (got {rule!r})")


def _make(maker: Callable[[], Strategy]) -> Strategy:
    """A fresh player from ``maker``, checked to have a ``decide`` method."""
    if not callable(maker):  # a player itself, not what makes one: it was "'Off' object is not callable"
        raise InputError(f"a strategy's name, or a class or function that makes a new player for each game; "
                         f"a player itself goes in player= (got {type(maker).__name__}, not callable)")
    made = maker()
    if not callable(getattr(made, "decide", None)):
        raise InputError(f"a Strategy, with a decide(board, rng) method, from {maker!r} "
                         f"(got {type(made).__name__})")
    return made


def _name_of(player: Strategy) -> str:
    return str(getattr(player, "name", type(player).__name__))


def player_name(player: Player) -> str:
    """The name results give ``player``: its own, or the ``name`` of what it makes.

    Refuses what is neither a strategy's name nor a maker of strategies.

    >>> from satsweeper.strategies.exact import ExactProbability
    >>> player_name("best"), player_name(ExactProbability)
    ('best', 'exact')
    """
    if isinstance(player, str):
        strategy(player)  # an unknown name is refused here
        return player
    if not callable(player):
        raise InputError(f"a strategy name ({', '.join(NAMES)}) or a callable that makes a Strategy, "
                         f"such as its class (got {player!r})")
    made = _make(player)
    return str(getattr(made, "name", getattr(player, "__name__", type(made).__name__)))


def _portable(player: Player, backend: Backend) -> None:
    """Worker processes are handed ``player`` pickled: a lambda or a nested class
    failed there, as a PicklingError from inside the pool."""
    if isinstance(player, str) or backend.workers == 1 or backend.dask or backend.scheduler:
        return  # no pickling here; Dask pickles its own way (cloudpickle) and names the task
    try:
        pickle.dumps(player)
    except Exception as err:  # PicklingError, AttributeError, TypeError, by Python version
        raise InputError(f"a player defined at the top level of a module (a class or a def), so "
                         f"worker processes can load it, or workers=1 (got {player!r}: {err})") from None


def play_range(levels: tuple[Level, ...], strategy_name: Player, games: int, seed: int,
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
        if not isinstance(data, dict) or set(data) != {"start", "stop", "wins", "won", "guesses", "seconds"}:
            found = sorted(data) if isinstance(data, dict) else type(data).__name__
            raise ValueError(f"fields {found}")
        start, stop, wins, won, guesses, seconds = (data[k] for k in ("start", "stop", "wins", "won",
                                                                      "guesses", "seconds"))
        if not all(map(is_count, (start, stop, wins, guesses))):
            # bool and float are refused too: a hand-edited 1.5 or true is not a count
            raise ValueError(f"start {start!r}, stop {stop!r}, wins {wins!r}, guesses {guesses!r}")
        if not isinstance(won, str) or set(won) - {"0", "1"} or stop - start != len(won):
            raise ValueError(f"won {won[:20]!r}" if isinstance(won, str) else f"won {won!r}"[:40])
        if wins != won.count("1"):
            raise ValueError(f"wins {wins} where won has {won.count('1')} ones")
        if not is_seconds(seconds):
            raise ValueError(f"seconds {seconds!r}")
        return cls(start, tuple(bit == "1" for bit in won), guesses, float(seconds))


def run(level: Level, strategy_name: Player, games: int, seed: int = 0,
        rule: FirstClick = FirstClick.SAFE, first: Cell | None = (0, 0), workers: int = 1,
        progress: Callable[[int], None] | None = None, *, backend: Backend | None = None,
        done: Sequence[Chunk] = (), on_chunk: Callable[[Chunk, Summary], None] | None = None
        ) -> Summary:
    """Play ``games`` games and summarise.

    Args:
        strategy_name: a strategy's name, or a :data:`Player` of your own
            (with ``workers`` > 1, defined at the top level of a module).
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
    _check_level(level)
    _check_rule(rule)
    _check_seed(seed)
    name = player_name(strategy_name)  # fail early on a bad name
    backend = backend or Backend(workers)
    _portable(strategy_name, backend)
    if not isinstance(games, int) or games < 0:  # -3 games was "at most -3 finished games to resume"
        raise InputError(f"a number of games, 0 or more (got {games!r})")
    summary = Summary(name, str(level), 0, 0, 0, 0.0)
    for chunk in done:
        if chunk.start != summary.games:
            raise InputError(f"finished chunks from game 0 on without a gap (got a chunk at "
                             f"{chunk.start} after {summary.games} games)")
        summary = summary.adding(chunk)
    if summary.games > games:
        raise InputError(f"at most {games} finished games to resume (got {summary.games})")
    work = functools.partial(play_range, (level,), strategy_name, games, seed, rule, first)
    with open_runner(backend) as runner:
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


@dataclass(frozen=True)
class Comparison:
    """Players on the same games: each one's summary and, game by game, its wins."""

    summaries: tuple[Summary, ...]
    won: tuple[tuple[bool, ...], ...]

    def paired(self, first: int = 0, second: int = 1) -> Paired:
        """The games only one of two players (by position) won, and McNemar's z."""
        if not all(isinstance(i, int) and 0 <= i < len(self.won) for i in (first, second)):
            # one player compared with a second was an IndexError from the tuple
            if len(self.won) < 2:
                raise InputError(f"two players to pair (this comparison has {len(self.won)}: compare "
                                 f"them in one compare() call)")
            raise InputError(f"two players' positions, 0 to {len(self.won) - 1} (got {first!r} and {second!r})")
        return Paired.of(list(self.won[first]), list(self.won[second]))


def compare(level: Level, players: Sequence[Player], games: int, seed: int = 0,
            rule: FirstClick = FirstClick.SAFE, first: Cell | None = (0, 0), workers: int = 1,
            *, backend: Backend | None = None) -> Comparison:
    """Every one of ``players`` on the same ``games`` games, as :func:`run` plays them.

    Game ``i`` has the same layout for every player (drawn from the seed
    ``(seed, i)`` before any move), so two players differ only where their
    decisions do, and :meth:`Comparison.paired` compares them game by game.

    >>> c = compare(Level(5, 5, 5), ["exact", "single-point"], 40, seed=2)
    >>> [s.wins for s in c.summaries], c.paired()
    ([24, 11], Paired(only_first=16, only_second=3))
    """
    if isinstance(players, str) or not isinstance(players, Sequence) or not players:
        # "best" was read as players b, e, s, t; [] compared nothing and said so with an empty answer
        raise InputError(f"a list of players, such as ['best', 'exact'] (got {players!r})")
    for player in players:  # every name checked before any game is played
        player_name(player)
    summaries, won = [], []
    for player in players:
        chunks: list[Chunk] = []
        summaries.append(run(level, player, games, seed, rule, first, workers, backend=backend,
                             on_chunk=lambda chunk, _: chunks.append(chunk)))
        won.append(tuple(w for chunk in chunks for w in chunk.won))
    return Comparison(tuple(summaries), tuple(won))


def run_levels(levels: Sequence[Level], strategy_name: Player, games: int, seed: int = 0,
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
    name = player_name(strategy_name)
    _portable(strategy_name, backend)
    levels = tuple(levels)
    for level in levels:
        _check_level(level)
    _check_seed(seed)
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
                    yield Summary(name, str(levels[k // games]), games,
                                  sum(r.won for r in current), sum(r.guesses for r in current),
                                  now - start)
                    start, current = now, []
