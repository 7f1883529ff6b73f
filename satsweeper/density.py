"""Critical density (Chong et al.): where the win rate collapses as mines grow.

For a board of ``p x q`` cells, play ``games`` games at every mine count
``0 < m < pq`` (first click safe, in the corner, as Chong et al. do), apply the
Chong et al.'s *W-correction* (near full boards a lucky run of guesses wins; once the
win rate has hit 0, or starts rising again past density 0.75, it is taken to
be 0), fit the logistic ``W(rho) = L / (1 + exp(k (rho - Q))) + b`` (with the
certain ``W(0) = 1`` added to the points) by least
squares with a dogleg trust region (scipy's ``dogbox``, standing in for the
Chong et al.'s Powell dog-leg), and call ``P = clamp(Q, 0, 1)`` the critical density:
the inflection point, where the curve falls fastest.

Over square boards ``q x q`` the critical densities are fitted by
``P(q) = P* + a / q``; ``P*`` is the asymptotic critical density.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass
from typing import Callable, Iterator, Mapping, Sequence

from .errors import InputError
from .experiments import Summary, run_levels
from .game import FirstClick, Level
from .runner import Backend


@dataclass(frozen=True)
class DensityPoint:
    """The measured and W-corrected win rate at one mine count."""

    mines: int
    density: float
    games: int
    wins: int
    corrected: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class LogisticFit:
    """``W(rho) = L / (1 + exp(k (rho - Q))) + b`` and the critical density."""

    height: float
    steepness: float
    centre: float
    floor: float

    @property
    def critical(self) -> float:
        return min(1.0, max(0.0, self.centre))

    def __call__(self, rho: float) -> float:
        z = max(-700.0, min(700.0, self.steepness * (rho - self.centre)))
        return self.height / (1 + math.exp(z)) + self.floor


def w_correct(points: Sequence[tuple[int, float, float]]) -> list[float]:
    """Chong et al.'s W-correction of (mines, density, win rate) in mine order.

    >>> w_correct([(1, .2, .9), (2, .4, 0.0), (3, .6, .1), (4, .8, .2)])
    [0.9, 0.0, 0.0, 0.0]
    >>> w_correct([(1, .5, .5), (2, .8, .1), (3, .9, .3)])
    [0.5, 0.1, 0.0]
    """
    out: list[float] = []
    for i, (_, density, rate) in enumerate(points):
        if out and out[-1] == 0.0:
            rate = 0.0  # strategy 1: once lost for good, lost for good
        elif i and points[i - 1][1] > 0.75 and out[-1] < rate:
            rate = 0.0  # strategy 2: a rise near full boards is luck
        out.append(rate)
    return out


def levels_of(sizes: Sequence[tuple[int, int]]) -> list[Level]:
    """Every level a sweep of ``sizes`` plays: each mine count 0 < m < width*height.

    >>> [str(level) for level in levels_of([(3, 1)])]
    ['3x1x1', '3x1x2']
    """
    return [Level(w, h, m) for w, h in sizes for m in range(1, w * h)]


def sweeps(sizes: Sequence[tuple[int, int]], strategy: str, games: int, seed: int = 0,
           backend: Backend = Backend(), progress: Callable[[int], None] | None = None,
           done: Mapping[str, Summary] = {}, finished: Callable[[Summary], None] | None = None,
           ) -> Iterator[tuple[tuple[int, int], list[DensityPoint]]]:
    """``(size, points)`` for each ``(width, height)`` in turn, as soon as its games are done.

    All sizes' games form one run, so a cluster stays busy from one size to
    the next; game ``i`` at every mine count is seeded ``(seed, i)``.
    ``progress`` is told each finished game's board area (its cost).
    Levels in ``done`` (summaries by level name, from a journal) are not
    played again: game ``i`` of a level is the same whenever it is played,
    so a resumed sweep ends as one that never stopped.  ``finished`` is told
    each level as soon as its games are done (to journal it).

    >>> [(size, [p.wins for p in points]) for size, points in sweeps([(2, 1), (3, 1)], "exact", 5)]
    [((2, 1), [5]), ((3, 1), [5, 5])]
    """
    to_play = [level for level in levels_of(sizes) if str(level) not in done]
    summaries = run_levels(to_play, strategy, games, seed, FirstClick.SAFE, (0, 0), backend, progress,
                           weight=lambda level: level.width * level.height)

    def summary_of(level: Level) -> Summary:
        if str(level) in done:
            return done[str(level)]
        summary = next(summaries)
        if finished:
            finished(summary)
        return summary

    with contextlib.closing(summaries):  # a caller that stops early stops the cluster too
        for width, height in sizes:
            cells = width * height
            raw = [(m, m / cells, summary_of(Level(width, height, m))) for m in range(1, cells)]
            corrected = w_correct([(m, d, s.rate) for m, d, s in raw])
            yield (width, height), [DensityPoint(m, d, games, s.wins, c)
                                    for (m, d, s), c in zip(raw, corrected)]


def fit_logistic(points: Sequence[DensityPoint]) -> LogisticFit:
    """Least-squares logistic through the corrected win rates."""
    import numpy as np
    from scipy.optimize import least_squares

    # An empty board is always won: anchoring W(0) = 1 keeps the fit sane on
    # tiny boards, whose few points leave the curve's top undetermined.
    rho = np.array([0.0] + [p.density for p in points])
    win = np.array([1.0] + [p.corrected for p in points])

    def residuals(theta):
        height, steepness, centre, floor = theta
        z = np.clip(steepness * (rho - centre), -700, 700)
        return height / (1 + np.exp(z)) + floor - win

    # Start at the first density where the win rate falls below half.
    below = [p.density for p in points if p.corrected < 0.5]
    start = [1.0, 20.0, below[0] if below else 0.5, 0.0]
    fit = least_squares(residuals, start, method="dogbox",
                        bounds=([0, 0, -1, -1], [2, 1000, 2, 1]))
    return LogisticFit(*(float(x) for x in fit.x))


FIT_PARAMETERS = 4  # L, k, Q, b: the fewest mine counts a logistic is fitted through


def no_critical(points: Sequence[DensityPoint], fit: LogisticFit | None = None) -> str | None:
    """Why ``points`` place no critical density, or None when they do.

    The logistic has four parameters: with fewer mine counts than that
    (3x1, 2x2) any curve fits and its inflection means nothing; and a board
    whose every mine count is won at least half the time has no density where
    the win rate falls through 1/2 (3x1: a safe first click wins every game);
    nor does a ``fit`` that stays above 1/2 or below it (5x1's four points, won
    100%, 64%, 48%, 100%, fit a curve from 1.0 down to 0.71).

    >>> print(no_critical([DensityPoint(m, m / 3, 10, 10, 1.0) for m in (1, 2)]))
    too few mine counts (2) for the logistic's four parameters
    """
    if len(points) < FIT_PARAMETERS:
        return f"too few mine counts ({len(points)}) for the logistic's four parameters"
    if all(p.corrected >= 0.5 for p in points):
        return "every mine count won at least half its games: the win rate never falls through 1/2"
    if fit is not None and not fit.floor < 0.5 < fit.floor + fit.height:
        return (f"the fitted logistic runs from {fit.floor + fit.height:.2f} to {fit.floor:.2f}: "
                "it never falls through 1/2")
    return None


@dataclass(frozen=True)
class Asymptote:
    """Where the critical density of ever larger boards goes: ``P(q) = P* + a/q`` fitted
    to the sizes that place one (:func:`extrapolate`).

    Attributes:
        density: P*, None with fewer than two sizes placed (nothing to extrapolate).
        slope: a.
        error: P*'s standard error, None with fewer than three sizes.
        placed: how many sizes placed a critical density.
    """

    density: float | None
    slope: float | None
    error: float | None
    placed: int


def extrapolate(critical: Mapping[int, float | None]) -> Asymptote:
    """The asymptote of a sweep's critical densities (q -> its critical density, None where
    the win rate never fell through 1/2, as too few games leave a small board).

    >>> extrapolate({3: 0.2 + 1 / 3, 4: 0.2 + 1 / 4, 5: 0.4, 6: None}).placed
    3
    >>> extrapolate({3: 0.5, 4: None})
    Asymptote(density=None, slope=None, error=None, placed=1)
    """
    for q, p in critical.items():  # a bare ZeroDivisionError (size 0) or TypeError ("3") before
        if isinstance(q, bool) or not isinstance(q, int) or q < 1:
            raise InputError(f"board sizes q (q x q boards) as whole numbers of at least 1 (got {q!r})")
        if p is not None and (isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1):
            raise InputError(f"critical densities between 0 and 1, or None (got {p!r} for size {q})")
    placed = {q: p for q, p in critical.items() if p is not None}
    if len(placed) < 2:
        return Asymptote(None, None, None, len(placed))
    density, slope = asymptote(placed)
    return Asymptote(density, slope, asymptote_error(placed), len(placed))


def asymptote(critical: dict[int, float]) -> tuple[float, float]:
    """Fit ``P(q) = P* + a/q`` to critical densities of q x q boards; (P*, a).

    >>> [round(x, 6) for x in asymptote({3: 0.2 + 1 / 3, 4: 0.2 + 1 / 4, 5: 0.4})]
    [0.2, 1.0]
    """
    xs = [1 / q for q in critical]
    ys = list(critical.values())
    n = len(xs)
    mean_x, mean_y = sum(xs) / n, sum(ys) / n
    spread = sum((x - mean_x) ** 2 for x in xs)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / spread if spread else 0.0
    return mean_y - slope * mean_x, slope


def asymptote_error(critical: dict[int, float]) -> float | None:
    """The standard error of :func:`asymptote`'s P* (the intercept of the least-squares
    line), from the scatter of the sizes about the line; None with fewer than three sizes
    (two points fix the line and say nothing of its error).

    >>> asymptote_error({3: 0.2 + 1 / 3, 4: 0.2 + 1 / 4, 5: 0.4})
    0.0
    >>> asymptote_error({3: 0.5, 4: 0.4}) is None
    True
    """
    n = len(critical)
    if n < 3:
        return None
    p_star, slope = asymptote(critical)
    xs = [1 / q for q in critical]
    mean_x = sum(xs) / n
    spread = sum((x - mean_x) ** 2 for x in xs)
    scatter = sum((y - p_star - slope * x) ** 2 for x, y in zip(xs, critical.values())) / (n - 2)
    return round(math.sqrt(scatter * (1 / n + mean_x ** 2 / spread)), 12)


def plot(points: Sequence[DensityPoint], fit: LogisticFit, path: str, title: str) -> None:
    """Win rate against density with the fitted logistic, as a PNG (its critical
    density marked where the points place one: :func:`no_critical`; no curve
    through fewer points than its parameters)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rho = [p.density for p in points]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(rho, [p.rate for p in points], "o", ms=3, color="0.6", label="measured")
    ax.plot(rho, [p.corrected for p in points], "o", ms=3, label="W-corrected")
    grid = [i / 400 for i in range(401)]
    placed = no_critical(points, fit) is None
    if len(points) >= FIT_PARAMETERS:  # through fewer, any curve fits: none is drawn
        ax.plot(grid, [fit(x) for x in grid], "-",
                label=f"logistic, P = {fit.critical:.3f}" if placed else "logistic (no critical density)")
    if placed:
        ax.axvline(fit.critical, ls=":", color="k")
    ax.set_xlabel("mine density")
    ax.set_ylabel("win rate")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
