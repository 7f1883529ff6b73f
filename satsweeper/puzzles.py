"""Puzzle authoring: "solvable without guessing", and no-guess generators.

:func:`no_guess` plays a layout from a first click using only moves that are
provably right: first the obvious single-number rules, then, when they are
stuck, the exact engine (every number and the total mine count at once: the
strongest deduction there is).  It reports whether the game is won that
way, how many deduction rounds it took, which cells needed more than one
number at a time (a simple difficulty measure), the board's 3BV, and, when
stuck, where a guess would be forced.

:func:`generate` draws random no-guess layouts by one of two recipes:

* ``resample``: draw uniform layouts (respecting the first-click rule) until
  one is no-guess.  Rejection sampling, so the result is *uniform over
  no-guess layouts*; slow when few layouts are no-guess (high density).
* ``perturb`` (after Simon Tatham's Mines): when the solver gets stuck, move
  mines at the undetermined frontier into the unexplored interior (or pull
  an interior mine onto a frontier cell) and try again.  Fast, but *biased*:
  layouts whose stuck patterns are easy to repair are over-represented, and
  mines drift away from wherever the solver got stuck, so mine density near
  the openings is slightly lower than uniform.
"""

from __future__ import annotations

import enum
import functools
import random
from dataclasses import dataclass
from typing import Callable, Iterator

from .board import Board, Cell
from .errors import TooComplexError
from .game import FirstClick, Game, Level, Outcome, neighbours, place_mines
from .reasoning import Status, solve
from .runner import Backend, open_runner
from .singlepoint import propagate


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


def no_guess(level: Level, mines: frozenset[Cell], start: Cell) -> NoGuess:
    """Can this layout be solved from ``start`` without ever guessing?

    Raises:
        ValueError: ``start`` is a mine or off the board.

    >>> no_guess(Level(3, 1, 1), frozenset({(0, 2)}), (0, 0)).solved
    True
    >>> stuck = no_guess(Level(2, 2, 1), frozenset({(1, 1)}), (0, 0))  # a 1 and three hidden cells
    >>> stuck.solved, stuck.frontier
    (False, ((0, 1), (1, 0), (1, 1)))
    """
    if not (0 <= start[0] < level.height and 0 <= start[1] < level.width) or start in mines:
        raise ValueError(f"a safe start cell on the board (got {start[0]},{start[1]}"
                         f"{', a mine' if start in mines else ''})")
    game = Game(level, mines)
    game.open(start)
    work = list(game.revealed)
    rounds = single = 0
    hard: list[Cell] = []
    stuck: tuple[Cell, ...] = ()
    while game.outcome is Outcome.PLAYING:
        rounds += 1
        single += propagate(game, work)
        if game.outcome is not Outcome.PLAYING:
            break
        status = solve(game.board).status
        safe = [c for c, s in status.items() if s is Status.SAFE]
        found = [c for c, s in status.items() if s is Status.MINE]
        if not safe and not found:
            stuck = tuple(c for c, s in status.items()
                          if any(n in game.revealed for n in neighbours(level, c)))
            break
        hard.extend(found + safe)
        work = []
        for cell in found:
            game.flag(cell)
            work.extend(n for n in neighbours(level, cell) if n in game.revealed)
        for cell in safe:
            game.open(cell)
            work.extend(game.recent)
    return NoGuess(game.outcome is Outcome.WON, rounds, single, len(hard), tuple(hard),
                   game.board, stuck, three_bv(level, mines))


def three_bv(level: Level, mines: frozenset[Cell]) -> int:
    """Bechtel's Board Benchmark Value: the fewest clicks that clear the board.

    Each opening (a connected region of 0s, with the numbers around it) takes
    one click; every other safe cell takes one click of its own.

    >>> three_bv(Level(3, 1, 1), frozenset({(0, 2)}))  # 0 1 * : one opening
    1
    >>> three_bv(Level(3, 1, 1), frozenset({(0, 1)}))  # 1 * 1 : two numbers
    2
    """
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


@dataclass(frozen=True)
class Generated:
    """A no-guess layout and what it took to find it."""

    mines: frozenset[Cell]
    start: Cell
    report: NoGuess
    layouts: int          # fresh layouts drawn
    perturbations: int    # perturbation steps (perturb only)


def start_zone(level: Level, start: Cell, rule: FirstClick) -> frozenset[Cell]:
    """Cells the first-click rule keeps free of mines."""
    if rule is FirstClick.OPENING:
        return frozenset([start, *neighbours(level, start)])
    if rule is FirstClick.SAFE:
        return frozenset([start])
    return frozenset()


def generate(level: Level, start: Cell, rng: random.Random, method: Method = Method.PERTURB,
             rule: FirstClick = FirstClick.OPENING, budget: int = 2000) -> Generated:
    """A random layout that is no-guess from ``start``.

    ``budget`` bounds the no-guess checks.  Perturbation restarts from a
    fresh layout after ``level.mines`` fruitless steps.

    Raises:
        TooComplexError: no no-guess layout was found within the budget.

    >>> g = generate(Level(9, 9, 10), (4, 4), random.Random(1))
    >>> g.report.solved, len(g.mines)
    (True, 10)
    """
    zone = start_zone(level, start, rule)
    if rule is FirstClick.CAN_LOSE:
        raise ValueError("a first-click rule that keeps the start safe (got can-lose)")
    layouts = perturbations = checks = 0
    while checks < budget:
        mines = place_mines(level, rng, zone)
        layouts += 1
        for _ in range(max(1, level.mines) if method is Method.PERTURB else 1):
            report = no_guess(level, mines, start)
            checks += 1
            if report.solved:
                return Generated(mines, start, report, layouts, perturbations)
            if method is Method.RESAMPLE or checks >= budget:
                break
            moved = _perturb(level, mines, report, zone, rng)
            if moved is None:
                break
            mines = moved
            perturbations += 1
    raise TooComplexError(f"a no-guess {level} layout within {budget} checks "
                          f"(got none after {layouts} layouts)")


def _perturb(level: Level, mines: frozenset[Cell], report: NoGuess, zone: frozenset[Cell],
             rng: random.Random) -> frozenset[Cell] | None:
    """Move mines at the stuck frontier; None if nothing can move.

    Each chosen frontier cell swaps its content with a cell of the opposite
    kind in the unexplored interior (hidden cells touching no number),
    falling back to any other hidden cell outside the frontier.
    """
    seen = report.position
    hidden = [c for c in seen.hidden_cells() if c not in zone]
    frontier = set(report.frontier)
    interior = [c for c in hidden if c not in frontier and
                not any(n in seen.clues for n in neighbours(level, c))]
    others = [c for c in hidden if c not in frontier]
    pool = interior if interior else others
    chosen = list(report.frontier)
    rng.shuffle(chosen)
    result = set(mines)
    moved = False
    for cell in chosen[:max(1, len(chosen) // 3)]:
        if cell in zone:
            continue
        wanted = [c for c in pool if (c in result) != (cell in result)]
        if not wanted:
            continue
        other = rng.choice(wanted)
        if cell in result:
            result.discard(cell)
            result.add(other)
        else:
            result.discard(other)
            result.add(cell)
        moved = True
    return frozenset(result) if moved else None


def make_layout(level: Level, start: Cell, rng: random.Random, rule: FirstClick,
                method: Method, no_guess_only: bool, budget: int = 2000) -> Generated:
    """A layout for ``generate``: no-guess if asked, else uniform under the rule."""
    if no_guess_only:
        return generate(level, start, rng, method, rule, budget)
    mines = place_mines(level, rng, start_zone(level, start, rule))
    return Generated(mines, start, no_guess(level, mines, start), 1, 0)


#: Most boards in one chunk of :func:`make_layouts`.
BOARDS_PER_CHUNK = 5


def make_layouts(level: Level, start: Cell, seed: int, rule: FirstClick, method: Method,
                 no_guess_only: bool, count: int, budget: int = 2000, backend: Backend = Backend(),
                 progress: Callable[[int], None] | None = None) -> Iterator[Generated | None]:
    """``count`` layouts as :func:`make_layout` makes them, in order as they finish.

    Layout ``i`` draws from its own generator seeded by ``(seed, i)``, so the
    layouts do not depend on the backend; None stands for a layout not found
    within the budget.

    >>> [len(g.mines) for g in make_layouts(Level(9, 9, 10), (4, 4), 1, FirstClick.OPENING,
    ...                                     Method.PERTURB, True, 2)]
    [10, 10]
    """
    work = functools.partial(layout_range, level, start, seed, rule, method, no_guess_only, budget)
    with open_runner(backend) as runner:
        # A no-guess expert board takes 20-50 games' time: small chunks keep
        # boards coming (and written) steadily.
        for _, made in runner.stream(work, count, largest=BOARDS_PER_CHUNK):
            if progress:
                progress(len(made))
            yield from made


def layout_range(level: Level, start: Cell, seed: int, rule: FirstClick, method: Method,
                 no_guess_only: bool, budget: int, lo: int, hi: int) -> list[Generated | None]:
    """Layouts ``lo .. hi-1`` of :func:`make_layouts` (the runner's work)."""
    made: list[Generated | None] = []
    for index in range(lo, hi):
        try:
            made.append(make_layout(level, start, random.Random(f"{seed}:{index}"), rule, method,
                                    no_guess_only, budget))
        except TooComplexError:
            made.append(None)
    return made
