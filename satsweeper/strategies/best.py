"""Our strongest player: exact certainty first, then a guess that also
looks one step ahead.

Sure moves come from the single-number rules, else from exact counting with
the total.  When a guess is forced, the candidates are the cells whose exact
mine probability is within ``TOLERANCE`` of the lowest; among them it picks
the one with the best chance of being safe *and* showing a 0 (which opens
a region for free, the usual way out of a guessing spot), weighted against
its risk: score = P(safe) * (1 + ZERO_WEIGHT * P(0 | safe)).
Measured against plain lowest-probability guessing in scripts/strategies.py.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

from ..board import Board
from ..constraints import Constraint
from ..counting import tally
from . import Decision, certain_decision

TOLERANCE = Fraction(1, 20)
ZERO_WEIGHT = 1
CANDIDATES = 12


class Best:
    """Exact certainty; guesses by safety and the chance of an opening."""

    name = "best"

    def decide(self, board: Board, rng: random.Random) -> Decision:
        sure, problem, counts = certain_decision(board)
        if sure:
            return sure
        risk = {c: counts.probability(c) for c in counts.cells()}
        low = min(risk.values())
        near = sorted((c for c, p in risk.items() if p <= low + TOLERANCE), key=lambda c: (risk[c], c))
        total = counts.scaled_count * counts.scale
        hidden = set(problem.cells)

        def score(cell) -> Fraction:
            # P(safe) * (1 + w * P(0 | safe)) = P(safe) + w * P(cell and its hidden neighbours safe)
            quiet = frozenset([cell, *(n for n in board.neighbours(cell) if n in hidden)])
            opening = replace(problem, constraints=problem.constraints + (Constraint(quiet, 0, "opening"),))
            zero = tally(opening)
            return 1 - risk[cell] + ZERO_WEIGHT * zero.scaled_count * zero.scale / total

        scores = {c: score(c) for c in near[:CANDIDATES]}
        top = max(scores.values())
        return Decision(opens=(rng.choice([c for c, v in scores.items() if v == top]),), guess=True)
