"""How ``best`` guesses: one frozen value holding its measured defaults and
the strength experiments (each off by default, kept so that the
measurements in docs/strength.md can be run again).

``Best(tuning)`` or ``Best(**fields)`` (the fields of ``Tuning``);
``scripts/best_ablation.py`` names the variants it compares.

>>> Tuning().candidates, Tuning().spread
(8, Fraction(1, 10))
>>> Tuning(blend=False) == Tuning(), Tuning(spread=0.1) == Tuning()
(False, True)
>>> Tuning(candidates=0)
Traceback (most recent call last):
...
ValueError: Tuning.candidates must be at least 1, not 0
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .endgame import CELLS as ENDGAME_CELLS, LIMIT as ENDGAME_LIMIT

# Measured on expert, 10000 games each (seed 21, the same games): candidates
# within 10% of the best safety 39.75% (39.92% with a first version that
# took floating candidates in another order), exact ties only 39.26%; with a
# bonus of 1/4 for a number that makes some cell safe 39.47%; opening a
# detected unavoidable 50/50 before anything else 39.32%.  The chosen cell
# is among the first 5 candidates in 96% of guesses.  Corners opened only
# when exactly as safe as the safest: against the first corner rule (which
# allowed a number two steps away), also taking them when merely within
# SPREAD took intermediate from 78.27% to 77.39% (20000 games, seed 5) and
# expert from 40.90% to 39.79% (10000, seed 1); untouched edge cells too
# (after corners) 78.23% and 40.49%.
SPREAD = Fraction(1, 10)
CANDIDATES = 8
# The far corner gives way to a frontier cell exactly as safe whose number makes some
# cell safe with a chance above this, given it is safe (session 45: expert
# safe corner, 20,000 games each, seed 4201 141 games won only with it against 86,
# z = +3.65; seed 4202 128 against 100, z = +1.85; 0 and 7/10 did as well).  Held out
# (seed 20261123, 100,000 games a row): expert safe corner 696 against 544 (z = +4.32),
# 16x16x40 357 against 276 (+3.22), 8x8x10 281 against 209 (+3.25), the expert opening
# at 3,3 327 against 260 (+2.77); 9x9x10 and the 16x16x40 opening within chance
# (docs/strength.md, "The corner gives way").
CORNER_YIELD = Fraction(1, 2)
# Pseudo 50/50s taken first (session 46: expert safe corner, 20,000 games each,
# seed 4201 119 games won only with them against 94, z = +1.71; seed 4202 146 against
# 102, z = +2.79).  Held out (seed 20261123, 100,000 games a row) the gain shrank to within
# chance: expert safe corner 580 against 553 (z = +0.80), the expert opening 838 against
# 805 (+0.81), 16x16x40 22 against 27 (docs/strength.md, "Walled-in 50/50s first").
PSEUDO = True
DEEPER = 3  # most candidates scored two moves ahead (the ``deeper`` experiment)

_FRACTIONS = ("spread", "progress", "zero", "risk", "deeper", "corner_yield")
_AT_LEAST_ONE = ("candidates", "limit", "most_cells", "deep_most", "blend_weight")


@dataclass(frozen=True)
class Tuning:
    """The options of ``best``; the defaults are how it plays.

    The rules it plays by (``strategies/best.py``'s docstring):

    - ``endgame``: the exact endgame search (``strategies/endgame.py``) once at
      most ``limit`` explanations over at most ``most_cells`` hidden cells
      remain, searching at most ``budget`` positions (None: the endgame's own);
    - ``pseudo``: a cell that is a mine only where it would be the mine of a
      50/50 walled in by mines is guessed first, as David Hill's solver does;
    - ``corners``: an untouched far corner as safe as the safest cell is
      opened, unless ``corner_yield`` (None: never) finds a frontier cell as
      safe whose number makes some cell safe with a chance above it;
    - the look-ahead: among the cells whose safety is at least ``1 - spread``
      times the best (at most ``candidates``), the one most likely to survive
      this move and the next, the next move valued by Hill's blended safety
      (``blend``: (``blend_weight`` * the safest cell's + the second
      safest's) / (``blend_weight`` + 1); off, the safest cell's alone).

    Experiments, off by default; docs/strength.md has what each won:

    - ``progress``: adds that much per unit of P(the number shows and makes
      some cell safe) to a look-ahead score (Hill's "progress"); ``zero``:
      per unit of P(it shows 0);
    - ``tiebreak``: exact ties of the score broken by the chance of a 0, then
      by how many numbers the cell may show (Tu et al.'s PSEQ order);
    - ``pockets``: an isolated region is played exactly first;
    - ``late_corners=False``: far corners only until the board shows a 0;
    - ``fifty``: an unavoidable 50/50 is guessed first;
    - ``risk``: a candidate's score times 1 + risk * (the layouts in which it
      is the mine of a pair walled in by mines) / (those with it safe), after
      Hill's "50/50 influence";
    - ``deeper``: the candidates whose score is within that fraction of the
      best (at most ``deep_most``) are scored again two moves ahead;
    - ``dominance``: the guess gives way to a safer cell that is safe whenever
      it is;
    - ``alive``: a candidate that can show only one number (dead: Hill never
      guesses one while a living cell is left) is passed over unless all are;
    - ``corner_skip`` (low, high): no corner rule while the safest cell's mine
      chance is above low and at most high;
    - ``farthest``: of the far corners, the one farthest from every number;
    - ``defer``: a candidate with fewer than ``defer`` covered cells within
      reach is passed over while one in a larger area is left (Hill's
      SpaceCounter, 8);
    - ``pull``: the next move's chances in the components the number does not
      touch are taken given that number (the total's pull), not today's;
    - ``yield_floating``: the corner gives way (``corner_yield``) to a floating
      cell beside the frontier too, as to a frontier cell (where Hill's solver
      parts from the corner rule after an opening: session 64).
    """

    spread: Fraction = SPREAD
    candidates: int = CANDIDATES
    endgame: bool = True
    limit: int = ENDGAME_LIMIT
    most_cells: int = ENDGAME_CELLS
    budget: int | None = None
    pseudo: bool = PSEUDO
    corners: bool = True
    corner_yield: Fraction | None = CORNER_YIELD
    blend: bool = True
    blend_weight: int = 4
    progress: Fraction = Fraction(0)
    zero: Fraction = Fraction(0)
    tiebreak: bool = False
    pockets: bool = False
    late_corners: bool = True
    fifty: bool = False
    risk: Fraction = Fraction(0)
    deeper: Fraction | None = None
    deep_most: int = DEEPER
    dominance: bool = False
    alive: bool = False
    corner_skip: tuple | None = None
    farthest: bool = False
    defer: int = 0
    pull: bool = False
    yield_floating: bool = False

    def __post_init__(self):
        # Exact arithmetic throughout: a float becomes the decimal it was
        # written as (0.1 -> 1/10, not the binary float's 3602879701896397/2**55).
        for name in _FRACTIONS:
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, Fraction(repr(value) if isinstance(value, float) else value))
        if self.corner_skip is not None:
            object.__setattr__(self, "corner_skip", tuple(Fraction(v) for v in self.corner_skip))
        for name in _AT_LEAST_ONE:
            if getattr(self, name) < 1:
                raise ValueError(f"Tuning.{name} must be at least 1, not {getattr(self, name)}")
