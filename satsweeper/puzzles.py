"""Puzzle authoring: "solvable without guessing", and no-guess generators.

:func:`no_guess` plays a layout from a first click using only moves that are
provably right: first the obvious single-number rules, then, when they are
stuck, the exact engine (every number and the total mine count at once: the
strongest deduction there is).  It reports whether the game is won that
way, how many deduction rounds it took, which cells needed more than one
number at a time (a simple difficulty measure), the board's 3BV, and, when
stuck, where a guess would be forced.

:func:`generate` draws random no-guess layouts by one of four recipes:

* ``resample``: draw uniform layouts (respecting the first-click rule) until
  one is no-guess.  Rejection sampling, so the result is *uniform over
  no-guess layouts*; slow when few layouts are no-guess (high density).
* ``perturb`` (after Simon Tatham's Mines): when the solver gets stuck, swap
  a third of the stuck frontier cells with undecided cells of the opposite
  kind (from the unexplored interior first) and let the same player go on
  from where it stuck.  Fast, but *biased*: on expert its boards have a
  lower 3BV than uniform no-guess boards.
* ``clear``: the same, but only mines leave the stuck frontier (as in
  Tatham's generator, which clears the squares it is stuck on).  The
  fastest at the highest densities; biased too: fewer mines near the start.
* ``auto`` (the default): ``resample`` for up to :data:`AUTO_DRAWS` layouts,
  then ``clear``.  Uniform wherever uniform draws find a no-guess layout
  quickly (beginner, intermediate, expert), the fast repair only where
  they do not (high density, where no uniform generator finishes).

docs/measured.md (Bias) and docs/puzzles.txt give the measured bias of each recipe
(``scripts/bench_bias.py``).
"""

from __future__ import annotations

import enum
import functools
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Iterable, Iterator

from .board import Board, Cell
from .difficulty import Grade, LadderPlayer, Rung, grade
from .errors import InputError, TooComplexError
from .game import FirstClick, Game, Level, Outcome, neighbours, place_mines
from .reasoning import Status, solve
from .runner import Backend, open_runner
from .propagation import play_sure, propagate


@dataclass(frozen=True)
class NoGuess:
    """The verdict of :func:`no_guess`.

    Attributes:
        solved: the layout is won from the start without a guess.
        rounds: deduction rounds (single-number rules to a standstill, then
            one exact step).
        single_clue: cells decided by one number on its own.
        multi_clue: cells that needed several numbers (or the total) at once.
        multi_clue_cells: those cells, in the order they were found.
        position: the position reached (every safe cell open if solved).
        frontier: when stuck, the undetermined hidden cells next to a number.
        three_bv: the layout's 3BV (fewest clicks to clear it without flags).
    """

    solved: bool
    rounds: int
    single_clue: int
    multi_clue: int
    multi_clue_cells: tuple[Cell, ...]
    position: Board
    frontier: tuple[Cell, ...]
    three_bv: int


def no_guess(level: Level, mines: frozenset[Cell], start: Cell, shown: Iterable[Cell] = (),
             flagged: Iterable[Cell] = ()) -> NoGuess:
    """Can this layout be solved from ``start`` without ever guessing?

    ``shown``: safe cells the puzzle reveals besides the first click (an
    author's given numbers), opened with it; ``flagged``: mines it shows
    flagged (its given flags).

    Raises:
        ValueError: ``start`` is a mine or off the board.

    >>> no_guess(Level(3, 1, 1), frozenset({(0, 2)}), (0, 0)).solved
    True
    >>> stuck = no_guess(Level(2, 2, 1), frozenset({(1, 1)}), (0, 0))  # a 1 and three hidden cells
    >>> stuck.solved, stuck.frontier
    (False, ((0, 1), (1, 0), (1, 1)))
    """
    player = _Player(level, mines, start, shown, flagged)
    player.game.check_count()
    player.advance()
    return player.verdict()


class _Player:
    """A player who never guesses, and who can go on after the layout changes.

    The perturbing generator moves mines only among hidden cells the player
    has not decided, so what the player knows stays true and the play goes on
    from where it stuck instead of from the first click.
    """

    def __init__(self, level: Level, mines: frozenset[Cell], start: Cell, shown: Iterable[Cell] = (),
                 flagged: Iterable[Cell] = ()):
        if not level.contains(start) or start in mines:  # a "0,0" or a list too, not a TypeError
            where = f"{start[0]},{start[1]}" if isinstance(start, tuple) and len(start) == 2 else repr(start)
            raise InputError(f"a safe start cell on the board (got {where}"
                             f"{', a mine' if level.contains(start) and start in mines else ''})")
        self.level, self.start = level, start
        self.game = Game(level, mines).opened_with(start, shown, flagged)
        self.work = list(self.game.revealed)
        self.rounds = self.single = 0
        self.hard: list[Cell] = []
        self.stuck: tuple[Cell, ...] = ()

    def advance(self) -> bool:
        """Deduce until won (True) or stuck (False, ``stuck`` names the frontier)."""
        game, level = self.game, self.level
        self.stuck = ()
        while game.outcome is Outcome.PLAYING:
            self.rounds += 1
            self.single += propagate(game, self.work)
            if game.outcome is not Outcome.PLAYING:
                break
            status = solve(game.board).status
            safe = [c for c, s in status.items() if s is Status.SAFE]
            found = [c for c, s in status.items() if s is Status.MINE]
            if not safe and not found:
                # Next to a number, else (the numbers walled in by flags) anywhere.
                self.stuck = tuple(c for c, s in status.items()
                                   if any(n in game.revealed for n in neighbours(level, c))) \
                    or tuple(status)
                return False
            self.hard.extend(found + safe)
            self.work = play_sure(game, found, safe)
        return game.outcome is Outcome.WON

    def move_mines(self, removed: frozenset[Cell], added: frozenset[Cell]) -> None:
        """Change undecided hidden cells; the numbers that changed are looked at again."""
        self.work.extend(self.game.move_mines(removed, added))

    def verdict(self) -> NoGuess:
        game = self.game
        return NoGuess(game.outcome is Outcome.WON, self.rounds, self.single, len(self.hard),
                       tuple(self.hard), game.board, self.stuck, three_bv(self.level, game.mines))


def guess_odds(answer: NoGuess) -> dict[Cell, Fraction]:
    """Where a guess is forced: each hidden cell's exact chance of being a mine.

    Counted over every layout that agrees with what the stuck player sees
    (numbers, flags, the total), so the safest guess is the smallest value.
    Empty when the layout is no-guess.

    >>> stuck = no_guess(Level(2, 2, 1), frozenset({(1, 1)}), (0, 0))
    >>> {c: str(p) for c, p in guess_odds(stuck).items()}
    {(0, 1): '1/3', (1, 0): '1/3', (1, 1): '1/3'}
    """
    if not isinstance(answer, NoGuess):  # an AttributeError ('solved') before
        raise InputError(f"a NoGuess, as no_guess returns it (got {type(answer).__name__})")
    if answer.solved:
        return {}
    from .counting import tally
    counts = tally(answer.position)
    return {c: counts.probability(c) for c in answer.position.hidden_cells()}


def three_bv(level: Level, mines: frozenset[Cell]) -> int:
    """Bechtel's Board Benchmark Value: the fewest clicks that clear the board.

    Each opening (a connected region of 0s, with the numbers around it) takes
    one click; every other safe cell takes one click of its own.

    >>> three_bv(Level(3, 1, 1), frozenset({(0, 2)}))  # 0 1 * : one opening
    1
    >>> three_bv(Level(3, 1, 1), frozenset({(0, 1)}))  # 1 * 1 : two numbers
    2
    """
    for cell in mines:  # a mine off the board was left out of the count
        level.check_cell(cell)
    def number(cell):
        return sum(n in mines for n in neighbours(level, cell))

    safe = [(r, c) for r in range(level.height) for c in range(level.width) if (r, c) not in mines]
    zero = {cell for cell in safe if number(cell) == 0}
    covered: set[Cell] = set()
    clicks = 0
    for cell in safe:
        if cell in zero and cell not in covered:
            clicks += 1
            stack = [cell]
            while stack:
                current = stack.pop()
                if current in covered:
                    continue
                covered.add(current)
                if current in zero:
                    stack.extend(n for n in neighbours(level, current) if n not in covered)
    return clicks + sum(1 for cell in safe if cell not in covered)


class Method(enum.Enum):
    """How :func:`generate` finds a no-guess layout."""

    RESAMPLE = "resample"
    PERTURB = "perturb"
    CLEAR = "clear"
    AUTO = "auto"


AUTO_DRAWS = 30
"""Uniform draws ``auto`` makes before it repairs: on expert (17% of uniform
layouts are no-guess from 3,3: 218 of 1,300, ``scripts/bench_puzzles.py --layouts 1300
--boards 0``) all 30 fail for about 1 board in 250."""


@dataclass(frozen=True)
class Generated:
    """A no-guess layout and what it took to find it."""

    mines: frozenset[Cell]
    start: Cell
    report: NoGuess
    layouts: int          # fresh layouts drawn
    perturbations: int    # perturbation steps (perturb and clear only)
    grade: Grade | None = None  # when a difficulty was asked for


def start_zone(level: Level, start: Cell, rule: FirstClick) -> frozenset[Cell]:
    """Cells the first-click rule keeps free of mines."""
    if rule is FirstClick.OPENING:
        return frozenset([start, *neighbours(level, start)])
    if rule is FirstClick.SAFE:
        return frozenset([start])
    return frozenset()


def generate(level: Level, start: Cell, rng: random.Random, method: Method = Method.AUTO,
             rule: FirstClick = FirstClick.OPENING, budget: int = 2000,
             difficulty: Rung | None = None) -> Generated:
    """A random layout that is no-guess from ``start`` (of exactly ``difficulty`` if given).

    ``budget`` bounds the no-guess checks (for ``perturb``: the solver runs
    between two perturbations).  Perturbation restarts from a fresh layout
    after ``level.mines`` fruitless steps.  With a difficulty the player
    knows only the rungs up to it, so perturbation repairs the places where
    a harder step would be needed; a layout that turns out easier than asked
    is dropped.

    Raises:
        TooComplexError: no such layout was found within the budget.

    >>> g = generate(Level(9, 9, 10), (4, 4), random.Random(1))
    >>> g.report.solved, len(g.mines)
    (True, 10)
    >>> generate(Level(9, 9, 10), (4, 4), random.Random(1), difficulty=Rung.PAIR).grade.rung.word
    'medium'
    """
    if not isinstance(level, Level):  # a (9, 9, 10) tuple was an AttributeError
        raise InputError(f"a Level, such as Level(9, 9, 10) (got {level!r})")
    if not level.contains(start):  # the start's neighbours were a KeyError
        raise InputError(f"a start cell (row, col) on the {level} board (got {start!r})")
    if not isinstance(rule, FirstClick) or not isinstance(method, Method) or not isinstance(rng, random.Random):
        raise InputError(f"a FirstClick, a Method and a random.Random (got {rule!r}, {method!r}, "
                         f"{type(rng).__name__})")
    if difficulty is not None and not isinstance(difficulty, Rung):  # "hard" was a TypeError deep inside
        raise InputError(f"a Rung for the difficulty, such as Rung.parse('hard') (got {difficulty!r})")
    zone = start_zone(level, start, rule)
    if rule is FirstClick.CAN_LOSE:
        raise InputError("a first-click rule that keeps the start safe (got can-lose)")

    def new_player(mines: frozenset[Cell]):
        return _Player(level, mines, start) if difficulty is None else \
            LadderPlayer(level, mines, start, difficulty)

    layouts = perturbations = checks = 0
    while checks < budget:
        player = new_player(place_mines(level, rng, zone))
        layouts += 1
        # auto: uniform draws first; only when they keep failing, repair.
        repair = method in (Method.PERTURB, Method.CLEAR) or \
            (method is Method.AUTO and layouts > AUTO_DRAWS)
        for _ in range(max(1, level.mines) if repair else 1):
            checks += 1
            if player.advance():
                # The play may have gone on across perturbations: a layout
                # must also be won by a player starting from the first click.
                fresh = new_player(player.game.mines) if repair else player
                if fresh.advance():
                    if difficulty is None:
                        return Generated(fresh.game.mines, start, fresh.verdict(), layouts, perturbations)
                    graded = fresh.verdict()
                    if graded.rung is difficulty:
                        mines = fresh.game.mines
                        return Generated(mines, start, no_guess(level, mines, start), layouts,
                                         perturbations, graded)
                    break  # easier than asked: draw afresh
                player = fresh
            if not repair or checks >= budget:
                break
            moved = _perturb(player, zone, rng, method is not Method.PERTURB, new_player)
            if moved is None:
                break
            player = moved
            perturbations += 1
    wanted = "" if difficulty is None else f" {difficulty.word}"
    raise TooComplexError(f"a no-guess{wanted} {level} layout within {budget} check{'s' if budget != 1 else ''} "
                          f"(got none after {layouts} layouts; a larger budget may find one)")


def _perturb(player, zone: frozenset[Cell], rng: random.Random, clear: bool, new_player):
    """Move mines at the stuck frontier; the player to go on with, None if nothing can move.

    Each chosen frontier cell swaps its content with an undecided hidden
    cell of the opposite kind, from the unexplored interior (touching no
    number) if it has one, else from the other undecided cells off the
    frontier.  Decided cells do not change, so the same player goes on.
    Only when no undecided cell fits are decided cells used: the layout
    then changes under what the player knows, and a new player (made by
    ``new_player``) starts from the first click.
    """
    game, level = player.game, player.level
    frontier = set(player.stuck)
    undecided = [c for c in game.board.hidden_cells() if c not in zone and c not in frontier]
    interior = [c for c in undecided if not any(n in game.revealed for n in neighbours(level, c))]
    swap = _swaps(player.stuck, game.mines, [interior, undecided], rng, clear)
    if swap:
        player.move_mines(*swap)
        return player
    decided = [c for c in list(game.revealed) + sorted(game.flags) if c not in zone]
    swap = _swaps(player.stuck, game.mines, [decided], rng, clear)
    if not swap:
        return None
    fresh = new_player((game.mines - swap[0]) | swap[1])
    fresh.advance()
    return fresh


def _swaps(stuck: tuple[Cell, ...], mines: frozenset[Cell], pools: list[list[Cell]],
           rng: random.Random, clear: bool) -> tuple[frozenset[Cell], frozenset[Cell]] | None:
    """(mines to remove, cells to fill) for a third of the stuck cells, or None.

    Each stuck cell takes a partner of the opposite kind from the first
    pool that has one.  With ``clear`` only the stuck mines are chosen.
    """
    chosen = list(stuck)
    rng.shuffle(chosen)
    removed: set[Cell] = set()
    added: set[Cell] = set()
    if clear:
        # Only mines leave the stuck cells (safe ones stay safe) while any is there.
        chosen = [c for c in chosen if c in mines] or chosen
    for cell in chosen[:max(1, len(chosen) // 3)]:
        if cell in removed or cell in added:
            continue
        for pool in pools:
            wanted = [c for c in pool if (c in mines) != (cell in mines)
                      and c not in removed and c not in added]
            if wanted:
                other = rng.choice(wanted)
                mine, free = (cell, other) if cell in mines else (other, cell)
                removed.add(mine)
                added.add(free)
                break
    return (frozenset(removed), frozenset(added)) if removed else None


def make_layout(level: Level, start: Cell, rng: random.Random, rule: FirstClick,
                method: Method, no_guess_only: bool, budget: int = 2000,
                difficulty: Rung | None = None) -> Generated:
    """A layout for ``generate``: no-guess (of a difficulty) if asked, else uniform under the rule."""
    if no_guess_only or difficulty is not None:
        return generate(level, start, rng, method, rule, budget, difficulty)
    mines = place_mines(level, rng, start_zone(level, start, rule))
    return Generated(mines, start, no_guess(level, mines, start), 1, 0)


#: Most layouts :func:`no_guess_exists` tries one by one (about 2 ms each on small boards).
EXHAUSTIVE_LAYOUTS = 3000


def no_guess_exists(level: Level, start: Cell, rule: FirstClick, difficulty: Rung | None = None,
                    most: int = EXHAUSTIVE_LAYOUTS) -> bool | None:
    """Whether some layout of ``level`` whose first click at ``start`` is kept as ``rule``
    keeps it is solved without a guess (graded ``difficulty`` exactly, if given): every
    layout is tried where there are at most ``most``; None where there are more.

    What a search that found nothing within its budget cannot say: that there is none
    (3x3x4 with a safe centre has 70 layouts, and none is no-guess).

    >>> no_guess_exists(Level(3, 3, 4), (1, 1), FirstClick.SAFE), no_guess_exists(Level(3, 3, 1), (0, 0), FirstClick.SAFE)
    (False, True)
    >>> no_guess_exists(Level(30, 16, 99), (0, 0), FirstClick.SAFE) is None
    True
    """
    from itertools import combinations
    from math import comb
    zone = start_zone(level, start, rule)
    free = [(r, c) for r in range(level.height) for c in range(level.width) if (r, c) not in zone]
    if comb(len(free), level.mines) > most:
        return None
    for placed in combinations(free, level.mines):
        mines = frozenset(placed)
        if difficulty is None:
            if no_guess(level, mines, start).solved:
                return True
        elif (graded := grade(level, mines, start)).solved and graded.rung is difficulty:
            return True
    return False


#: Most boards in one chunk of :func:`make_layouts`.
BOARDS_PER_CHUNK = 5


def make_layouts(level: Level, start: Cell, seed: int, rule: FirstClick, method: Method,
                 no_guess_only: bool, count: int, budget: int = 2000, backend: Backend = Backend(),
                 progress: Callable[[int], None] | None = None,
                 difficulty: Rung | None = None, first: int = 0) -> Iterator[Generated | None]:
    """``count`` layouts as :func:`make_layout` makes them, in order as they finish.

    Layout ``i`` draws from its own generator seeded by ``(seed, first + i)``,
    so the layouts do not depend on the backend, and ``count`` layouts from
    ``first`` are the ones a longer run from 0 makes there (a collection
    grown in several runs gets no repeats); None stands for a layout not
    found within the budget.

    >>> [len(g.mines) for g in make_layouts(Level(9, 9, 10), (4, 4), 1, FirstClick.OPENING,
    ...                                     Method.PERTURB, True, 2)]
    [10, 10]
    >>> def mines(first, count):
    ...     return [g.mines for g in make_layouts(Level(9, 9, 10), (4, 4), 1, FirstClick.OPENING,
    ...                                           Method.PERTURB, True, count, first=first)]
    >>> mines(0, 3)[2] == mines(2, 1)[0] != mines(0, 1)[0]
    True
    """
    work = functools.partial(layout_range, level, start, seed, rule, method, no_guess_only, budget,
                             difficulty, first)
    with open_runner(backend) as runner:
        # A no-guess expert board takes 20-50 games' time: small chunks keep
        # boards coming (and written) steadily.
        for _, made in runner.stream(work, count, largest=BOARDS_PER_CHUNK):
            if progress:
                progress(len(made))
            yield from made


def layout_range(level: Level, start: Cell, seed: int, rule: FirstClick, method: Method,
                 no_guess_only: bool, budget: int, difficulty: Rung | None, first: int, lo: int,
                 hi: int) -> list[Generated | None]:
    """Layouts ``lo .. hi-1`` of :func:`make_layouts` (the runner's work), drawn as
    layouts ``first + lo`` .. of the seed."""
    made: list[Generated | None] = []
    for index in range(first + lo, first + hi):
        try:
            made.append(make_layout(level, start, random.Random(f"{seed}:{index}"), rule, method,
                                    no_guess_only, budget, difficulty))
        except TooComplexError:
            made.append(None)
    return made
