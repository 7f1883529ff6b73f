"""Our strongest player: exact certainty first, exact endgames, then a guess
that also looks one step ahead.

When no move is sure and at most ``endgame.LIMIT`` explanations remain, the
guess is the one with the highest exact chance of winning the game
(:mod:`satsweeper.strategies.endgame`).  Paired on the same expert games
that raised the win rate from 38.6% to 40.2% (1000 games, seed 7) and from
36.6% to 38.5% (3000 games, seed 21; 214 games won only with it, 159 only
without); with an opening start 50.8% -> 52.5% (2000 games); on 16x16/40 no
change (76.5% vs 76.2%).  A limit of 300 won 3 more games of 1000 at half
the speed.

Sure moves come from the single-number rules, else from exact counting with
the total.  When a guess is forced, the candidates are the cells whose exact
mine probability is lowest (within ``TOLERANCE``); among them it picks the
one with the best chance of being safe *and* showing a 0 (which opens a
region for free, the usual way out of a guessing spot):
score = P(safe) * (1 + ZERO_WEIGHT * P(0 | safe)).
"""

from __future__ import annotations

import heapq
from math import lcm
import random
from fractions import Fraction

from ..board import Board
from ..components import Components
from ..constraints import Positions
from . import Decision, certain_decision, endgame

# Measured on expert, first click safe in the corner, same games for each
# variant.  1000 games (seed 7): lowest probability 37.0%; ties broken by the
# chance of an opening 40.8%; accepting 1, 2 or 5 points more risk for it
# 40.6%, 40.9%, 39.9%: extra risk buys nothing, so only ties are broken.
# 3000 games (seed 21): lowest probability 35.2%; ties broken, candidates
# taken least crowded first 36.6%, in board order 34.8%.
TOLERANCE = Fraction(0)
ZERO_WEIGHT = 1
CANDIDATES = 12


class Best:
    """Exact certainty; guesses by safety and the chance of an opening."""

    name = "best"

    def __init__(self, tolerance: Fraction = TOLERANCE, zero_weight: Fraction | int = ZERO_WEIGHT,
                 candidates: int = CANDIDATES, edges_first: bool = True, endgame: bool = True):
        self.edges_first = edges_first
        self.endgame = endgame
        self.tolerance = Fraction(tolerance)
        self.zero_weight = zero_weight
        self.candidates = candidates
        self.positions = Positions()

    def decide(self, board: Board, rng: random.Random) -> Decision:
        sure, problem, counts = certain_decision(board, self.positions)
        if sure:
            return sure
        if self.endgame and counts.count <= endgame.LIMIT:
            found = endgame.best_guess(board, problem)
            if found:
                return Decision(opens=(found[0],), guess=True)
        # Compare scaled counts, not probabilities, as integers: floating
        # cells carry a Fraction, so bring everything to its denominator once.
        mines = _integers(counts.scaled_mines)
        limit = min(mines.values())
        if self.tolerance:  # Fraction arithmetic only when asked for: it is slow
            limit += self.tolerance * counts.scaled_count * _denominator(counts.scaled_mines)
        hidden = set(problem.cells)

        def crowd(cell) -> int:
            return sum(1 for n in board.neighbours(cell) if n in hidden) if self.edges_first else 0

        # Many cells tie (all floating cells do): score the least crowded
        # first, corners and edges, whose chance of a 0 is highest.
        near = heapq.nsmallest(self.candidates, (c for c, m in mines.items() if m <= limit),
                               key=lambda c: (mines[c], crowd(c), c))
        if len(near) == 1:  # nothing to break
            return Decision(opens=(near[0],), guess=True)
        total = counts.scaled_count * counts.scale
        # Each score recounts only the components its cells touch.
        components = Components(problem)

        def score(cell) -> Fraction:
            # P(safe) * (1 + w * P(0 | safe)) = P(safe) + w * P(cell and its hidden neighbours safe)
            quiet = [cell, *(n for n in board.neighbours(cell) if n in hidden)]
            return 1 - counts.probability(cell) + self.zero_weight * components.count_safe(quiet) / total

        scores = {c: score(c) for c in near}
        top = max(scores.values())
        return Decision(opens=(rng.choice([c for c, v in scores.items() if v == top]),), guess=True)


def _denominator(values) -> int:
    return lcm(*{v.denominator for v in values.values() if isinstance(v, Fraction)})


def _integers(values: dict) -> dict:
    """The same values times a common denominator: integers compare fast."""
    den = _denominator(values)
    if den == 1:
        return {c: int(v) for c, v in values.items()}
    return {c: (v * den if isinstance(v, int) else v.numerator * (den // v.denominator))
            for c, v in values.items()}
