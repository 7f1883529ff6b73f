"""Our strongest player: exact certainty first, exact endgames, then a guess
that looks one move ahead.

1. Sure moves come from the single-number rules, else from the pair rule,
   else from exact counting with the total.
2. With at most ``endgame.LIMIT`` (1000) explanations left over at most
   ``endgame.CELLS`` (80) hidden cells, the guess is the one with the
   highest exact chance of winning the game
   (:mod:`satsweeper.strategies.endgame`; one search per game, its memo
   kept from guess to guess).
3. Otherwise, if a corner far from every number (every neighbour hidden,
   no number within two steps) is as safe as the safest cell, it is
   opened.  With three neighbours a corner is the likeliest cell to show 0,
   and the opening a 0 makes is worth more than the look-ahead below
   credits it: there an opening counts as one sure next move, like any
   number that makes a single cell safe.
4. Otherwise the candidates are the cells nearly as safe as the safest
   (safety at least ``1 - SPREAD`` times the best), and the guess is the one
   most likely to survive this move *and the next*: for every number ``k`` a
   candidate may show, the next move is a sure one if the number makes some
   cell safe, else the safest guess then (cells the number cannot reach
   keep today's chance: the total's small pull on them is ignored).  Score =
   sum over k of P(safe and shows k) * (safety of the best next move).
   A cell that can show only one number (it tells nothing) scores no more
   than its own safety times today's best, so it loses to an informative
   cell that is as safe; a slightly riskier cell wins when what it shows is
   likely to end the guessing.

Measured on expert (first click safe in the corner), the same 10000 games
(seed 21; ``docs/best-bench.txt`` says how to rerun): the lowest
probability with ties broken by the chance of a 0 (this module before the
look-ahead) won 38.25%; the look-ahead 39.75% (1239 games won only with it,
1089 only without).  Opening a far corner first, over the look-ahead's
choice, took intermediate from 77.72% to 78.41% (50000 games, seed 1: 3676
won only with it, 3334 only without) and the issue's expert command from
40.33% to 40.78% (818 against 773).
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import floor

from ..board import Board
from ..components import Components
from ..constraints import Positions, Problem
from ..tally import Tally
from . import Decision, certain_decision, endgame
from .endgame import CELLS as ENDGAME_CELLS, LIMIT as ENDGAME_LIMIT, Endgame

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


class Best:
    """Exact certainty, exact endgames, and guesses that look one move ahead."""

    name = "best"

    def __init__(self, spread: Fraction = SPREAD, candidates: int = CANDIDATES, endgame: bool = True,
                 corners: bool = True, limit: int = None, most_cells: int = None, budget: int = None):
        self.spread = Fraction(spread)
        self.candidates = candidates
        self.endgame = endgame
        self.corners = corners
        self.limit = ENDGAME_LIMIT if limit is None else limit
        self.most_cells = ENDGAME_CELLS if most_cells is None else most_cells
        self.positions = Positions()
        self.endgames = Endgame(self.limit, self.most_cells, budget)  # one per game, as positions

    def decide(self, board: Board, rng: random.Random) -> Decision:
        sure, problem, counts, components = certain_decision(board, self.positions)
        if sure:
            return sure
        if self.endgame and counts.count <= self.limit:
            found = self.endgames.best_guess(board, problem, counts.count)
            if found:
                return Decision(opens=(found[0],), guess=True, basis="endgame", value=found[1])
        cell, basis, value = self._guess(board, problem, counts, components, rng)
        return Decision(opens=(cell,), guess=True, basis=basis, value=value)

    def _guess(self, board: Board, problem: Problem, counts: Tally, components: Components,
               rng: random.Random) -> tuple:
        """(the guess, why it was chosen, what that scored or None)."""
        # The component engine's scaled counts are ints: mines[c] / whole =
        # P(c is a mine), and int comparisons are fast.
        mines, whole = counts.scaled_mines, counts.scaled_count
        limit = floor(whole - (whole - min(mines.values())) * (1 - self.spread))
        hidden = set(problem.cells)
        component_of = components.component_of
        near = _candidates(board, hidden, mines, limit, component_of, self.candidates)
        if len(near) == 1:
            return near[0], "safest", None
        corner = self.corners and _far_corner(board, hidden, mines, mines[near[0]], component_of)
        if corner:
            return corner, "corner", None
        total = counts.scaled_count * counts.scale
        # The best guess outside the components a number touches keeps its
        # chance (up to the total's small pull): safest component first.
        # (Cells of a box share their chance: one per box will do.)
        ranked = sorted((min(mines[cells[0]] for cells in dp.cells), i)
                        for i, dp in enumerate(components.dps))
        chances = [1 - Fraction(m, whole) for m, _ in ranked]

        def elsewhere(touched) -> Fraction:
            return next((chances[j] for j, (_, i) in enumerate(ranked) if i not in touched), Fraction(0))

        def score(cell, beat: Fraction) -> Fraction | None:
            """The cell's score, or None once it cannot reach ``beat``."""
            outcomes = components.reveal(cell, [n for n in board.neighbours(cell) if n in hidden])
            left = sum(outcomes.counts.values())  # explanations with the cell safe
            bar = beat * total  # compare counts, not scores
            got = Fraction(0)
            # Likeliest numbers first; each still to come adds at most its count.
            for k, count in sorted(outcomes.counts.items(), key=lambda kc: -kc[1]):
                left -= count
                if got + (count + left) < bar:
                    return None
                got += count * max(1 - outcomes.lowest(k), elsewhere(outcomes.touched))
            return got / total

        # A cell's score is at most its own safety, and ``near`` goes safest
        # first: stop once no cell left can reach the best score, and drop a
        # cell as soon as what it may still gain cannot (same choice as
        # scoring everything, far fewer look-aheads).
        scores: dict = {}
        top = Fraction(-1)
        for c in near:
            if Fraction(whole - mines[c], whole) < top:
                break
            found = score(c, top)
            if found is not None:
                scores[c] = found
                top = max(top, found)
        return rng.choice([c for c, v in scores.items() if v == top]), "look-ahead", top


def _far_corner(board: Board, hidden: set, mines: dict, safest: int, component_of: dict):
    """A corner far from every number with ``safest`` scaled mines (the
    fewest of any cell), the least crowded first; or None.

    Far: every neighbour hidden, and no cell within two steps of the corner
    next to a number (the region a 0 there would open is still unknown).
    Closer corners lose: on 4x4 with 4 mines, allowing a number two steps
    away took best from 68.86% to 65.26% (5000 games, seed 1).  The corners
    are looked up on the board, not among the look-ahead's candidates, which
    keep one floating cell of each crowd (a near corner can stand for them).

    >>> b = Board(3, 5, {(0, 0): 1}, total_mines=2)
    >>> frontier = {(0, 1): 0, (1, 0): 0, (1, 1): 0}  # cell -> its component
    >>> hidden = set(b.hidden_cells())
    >>> mines = dict.fromkeys(hidden, 1)
    >>> _far_corner(b, hidden, mines, 1, frontier)  # (2, 0) is beside (1, 0)
    (0, 4)
    >>> _far_corner(b, hidden, {**mines, (2, 4): 2, (0, 4): 2}, 1, frontier) is None  # riskier
    True
    >>> b = Board(3, 4, {(0, 0): 1}, total_mines=2)  # (0, 1) and (1, 1) are two steps from (0, 3), (2, 3)
    >>> _far_corner(b, set(b.hidden_cells()), mines, 1, frontier) is None
    True
    """
    table = board.neighbour_table
    found = []
    for c in board.corners():
        if c not in hidden or mines[c] != safest:
            continue
        around = table[c]
        if all(n in hidden for n in around) and not any(m in component_of for n in around for m in table[n]):
            found.append((len(around), c))
    return min(found)[1] if found else None


def _candidates(board: Board, hidden: set, mines: dict, limit: int, component_of: dict, most: int) -> list:
    """Up to ``most`` cells with at most ``limit`` scaled mines, safest first.

    Floating cells all tie: the least crowded (corners, edges) come first,
    and of the floating cells amid floating cells, which differ only in how
    many neighbours they have, one of each kind is enough to score.
    """
    table = board.neighbour_table
    frontier = component_of.keys()
    beside = {n for c in frontier for n in table[c]}
    # Cells go by chance first, then by crowd.
    groups: dict[int, list] = {}
    for c, m in mines.items():
        if m <= limit:
            groups.setdefault(m, []).append(c)
    near = []
    for m in sorted(groups):
        # A cell at or beside the frontier is a kind of its own; a floating
        # cell amid floating cells is of the kind of its crowd (all floating
        # cells share one chance, so kinds by crowd live in one group).
        first: dict = {}  # kind -> (crowd, cell) of its first cell
        for c in groups[m]:
            crowd = len(hidden.intersection(table[c]))
            kind = c if c in frontier or c in beside else crowd
            if kind not in first or (crowd, c) < first[kind]:
                first[kind] = (crowd, c)
        near.extend(c for _, c in sorted(first.values()))
        if len(near) >= most:
            return near[:most]
    return near
