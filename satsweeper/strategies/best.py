"""Our strongest player: exact certainty first, exact endgames, then a guess
that looks one move ahead.

1. Sure moves come from the single-number rules, else from the pair rule,
   else from exact counting with the total.
2. With at most ``endgame.LIMIT`` (1000) explanations left over at most
   ``endgame.CELLS`` (80) hidden cells, the guess is the one with the
   highest exact chance of winning the game
   (:mod:`satsweeper.strategies.endgame`; one search per game, its memo
   kept from guess to guess).
3. Otherwise, a cell that is a mine only where it is half of a 50/50
   walled in by mines (a pair or a 2x2 box; David Hill's *pseudo
   50/50*) is opened: that coin flip must be taken some day, and taken
   now it loses no more of those layouts, while a number shown when it is
   safe helps at once (see _pseudo_fifty; of several, the best look-ahead
   score).
4. Otherwise, if a corner far from every number (every neighbour hidden,
   no number within two steps) is as safe as the safest cell, it is
   opened.  With three neighbours a corner is the likeliest cell to show 0,
   and the opening a 0 makes is worth more than the look-ahead below
   credits it: there an opening counts as one sure next move, like any
   number that makes a single cell safe.  The corner gives way to a cell
   beside the numbers exactly as safe whose number makes some cell safe
   with a chance above ``tuning.CORNER_YIELD`` (1/2) when it is safe, as David
   Hill's solver plays (see _yielding).
5. Otherwise the candidates are the cells nearly as safe as the safest
   (safety at least ``1 - tuning.SPREAD`` times the best), and the guess is the one
   most likely to survive this move *and the next*: for every number ``k`` a
   candidate may show, the next move is a sure one if the number makes some
   cell safe, else the safest guess then (cells the number cannot reach
   keep today's chance: the total's small pull on them is ignored).  Score =
   sum over k of P(safe and shows k) * (value of the next move), the value
   being David Hill's *blended safety*: (4 * the safest cell's safety + the
   second safest's) / 5 (a cell of 1 if the number makes one safe; a box
   of cells counts each), so a number that leaves a second good guess is
   worth a little more than one that leaves a single one.
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
40.33% to 40.78% (818 against 773).  The blended safety, over the
safest next cell's alone (tuning seeds 400-406,
``docs/best-tuning-2026-11.txt``): expert safe corner 242 games won only
with it against 190 (30000 games, z = 2.50); with 9x9/10, 16x16/40 and
an expert opening, 388 against 318 (z = 2.63).  On the held-out seed
20261123 (100,000 games a row) it won expert safe corner 818 games
against 720 (z = 2.50) and the expert opening at 3,3 931 against 819
(z = 2.68).  It costs about 5% more time (expert, one core: 14.1 against
13.5 ms a game; ``scripts/bench_play.py``: 2.41 times ``exact``'s time).
"""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from fractions import Fraction
from itertools import islice
from math import floor

import numpy as np

from ..board import Board
from ..compiled import take_build
from ..components import Components
from ..components import count as count_explanations
from ..constraints import Constraint, Positions, Problem
from ..tally import Tally
from . import Decision, certain_decision, check_explained, endgame, nothing_hidden
from .endgame import Endgame
from .tuning import Tuning



class Best:
    """Exact certainty, exact endgames, and guesses that look one move ahead."""

    name = "best"
    check_consistency = True  # see strategies/__init__.py

    def __init__(self, tuning: Tuning = Tuning(), **changes):
        """``Best()`` plays as measured; ``Best(Tuning(...))`` or
        ``Best(field=value, ...)`` (the fields of ``Tuning``) plays a variant.

        >>> Best(blend=False).tuning == Tuning(blend=False)
        True
        """
        self.tuning = replace(tuning, **changes) if changes else tuning
        self.positions = Positions()
        self.endgames = Endgame(self.tuning.limit, self.tuning.most_cells, self.tuning.budget)  # one per game, as positions

    def __deepcopy__(self, memo: dict) -> Best:
        """A player that goes on from here in another game: the options (a
        frozen ``Tuning``) shared, the game's positions and endgame copied.
        Why: ``satsweeper.optimal.play_together`` copies the player wherever
        games part, and the generic walk over the options was a quarter of the
        time there (6x4x5).  ``tests/test_best.py`` holds every other attribute
        to an immutable type.

        >>> import copy
        >>> p = Best()
        >>> twin = copy.deepcopy(p)
        >>> twin.tuning is p.tuning, twin.endgames is p.endgames
        (True, False)
        """
        twin = copy.copy(self)
        twin.positions, twin.endgames = copy.deepcopy(self.positions, memo), copy.deepcopy(self.endgames, memo)
        return twin

    def decide(self, board: Board, rng: random.Random) -> Decision:
        t = self.tuning
        if self.check_consistency:
            check_explained(board)
        sure, problem, counts, components = certain_decision(board, self.positions)
        if sure:
            return sure
        if not problem.cells:
            raise nothing_hidden()
        if t.endgame and counts.count <= t.limit:
            found = self.endgames.best_guess(board, problem, counts.count)
            if found:
                return Decision(opens=(found[0],), guess=True, basis="endgame", value=found[1])
        if t.fifty:
            found = _fifty_fifty(board, problem, counts)
            if found:
                return Decision(opens=(found,), guess=True, basis="50/50", value=Fraction(1, 2))
        if t.pseudo:
            found = _pseudo_fifty(board, problem, counts, components)
            if found:
                look = _Lookahead(self, board, set(problem.cells), counts, components)
                scores, top = look.scores(found, problem)
                cell = min(c for c, v in scores.items() if v == top) if scores else found[0]
                return Decision(opens=(cell,), guess=True, basis="pseudo-50/50", value=None)
        if t.pockets:
            found = _pocket(board, problem, components, t.limit, t.most_cells)
            if found:
                return Decision(opens=(found[0],), guess=True, basis="pocket", value=found[1])
        cell, basis, value = self._guess(board, problem, counts, components, rng)
        return Decision(opens=(cell,), guess=True, basis=basis, value=value)

    def _guess(self, board: Board, problem: Problem, counts: Tally, components: Components,
               rng: random.Random, inner: bool = False) -> tuple:
        """(the guess, why it was chosen, what that scored or None).

        ``inner``: for a look-ahead two moves deep, the best one-move score
        (no corner rule, the score even of a lone candidate), nothing deeper.
        """
        # The component engine's scaled counts are ints: mines[c] / whole =
        # P(c is a mine), and int comparisons are fast.
        t = self.tuning
        mines, whole = counts.scaled_mines, counts.scaled_count
        limit = floor(whole - (whole - min(mines.values())) * (1 - t.spread))
        hidden = set(problem.cells)
        component_of = components.component_of
        near = _candidates(board, hidden, mines, limit, component_of, t.candidates)
        if t.defer and not inner:
            near = _undeferred(board, hidden, mines, limit, component_of, t.candidates, near, t.defer)
        if len(near) == 1 and not inner:
            return near[0], "safest", None
        corners = not inner and t.corners and (t.late_corners or 0 not in board.clues.values())
        if corners and t.corner_skip is not None:
            corners = not t.corner_skip[0] < Fraction(mines[near[0]], whole) <= t.corner_skip[1]
        corner = corners and _far_corner(board, hidden, mines, mines[near[0]], component_of, t.farthest)
        look = _Lookahead(self, board, hidden, counts, components)
        if corner:
            found = None if t.corner_yield is None else _yielding(look, near, problem, mines[corner], t.corner_yield,
                                                                  t.yield_floating)
            return (found, "corner-yield", None) if found is not None else (corner, "corner", None)
        scores, top = look.scores(near, problem)
        if inner:
            return None, "inner", top
        if t.deeper is not None and len(scores) > 1:
            bar = top * (1 - t.deeper)
            close = sorted((c for c, v in scores.items() if v >= bar), key=lambda c: -scores[c])[:t.deep_most]
            if len(close) > 1:
                deep = {c: self._two_moves(board, hidden, components, look.total, c, rng) for c in close}
                best_deep = max(deep.values())
                return rng.choice([c for c in close if deep[c] == best_deep]), "two moves", best_deep
        tied = [c for c, v in scores.items() if v == top]
        if t.tiebreak and len(tied) > 1:
            first = max(look.keys[c] for c in tied)
            tied = [c for c in tied if look.keys[c] == first]
        cell = rng.choice(tied)
        if t.dominance:
            safer = _dominating(problem, components, counts.scaled_mines, cell)
            if safer is not None:
                return safer, "dominance", None
        return cell, "look-ahead", top

    def _two_moves(self, board: Board, hidden: set, components: Components, total, cell, rng) -> Fraction:
        """Like the look-ahead's score, one move deeper: for every number
        ``k`` the cell may show, 1 if it makes some cell safe, else the best
        one-move look-ahead score on the board where the cell shows ``k``
        (instead of the bare safety of the best next guess there)."""
        around = [n for n in board.neighbours(cell) if n in hidden]
        outcomes = components.reveal(cell, around)
        flagged = sum(1 for n in board.neighbours(cell) if n in board.flags)
        got = Fraction(0)
        for k, count in outcomes.counts.items():
            if outcomes.lowest(k) == 0:
                got += count
                continue
            after = replace(board, clues={**board.clues, cell: k + flagged})
            sure, problem, counts, parts = certain_decision(after)
            while sure is not None and not sure.opens:  # mines only: flag them and look again
                after = replace(after, flags=after.flags | frozenset(sure.flags))
                sure, problem, counts, parts = certain_decision(after)
            if sure is not None or not problem.cells:  # a sure move, or nothing left to open
                got += count
                continue
            got += count * self._guess(after, problem, counts, parts, rng, inner=True)[2]
        return got / total


class _Lookahead:
    """One guess's look-ahead (step 4 of the module's docstring): each
    candidate's score, the chance that this move and the next survive.

    Built per guess from the position's counts; ``keys`` collects Tu's PSEQ
    tie-break keys (the ``tiebreak`` experiment) as cells are scored.
    """

    def __init__(self, player: Best, board: Board, hidden: set, counts: Tally, components: Components):
        self.player, self.board, self.hidden, self.components = player, board, hidden, components
        self.mines, self.whole = counts.scaled_mines, counts.scaled_count
        self.scale = counts.scale
        self.total = counts.scaled_count * counts.scale
        # The best guess outside the components a number touches keeps its
        # chance (up to the total's small pull): safest component first.
        # (Cells of a box share their chance: one per box will do.)
        mines, whole = self.mines, self.whole
        self.ranked = sorted((min(mines[cells[0]] for cells in dp.cells), i)
                             for i, dp in enumerate(components.dps))
        self.chances = [1 - Fraction(m, whole) for m, _ in self.ranked]
        if player.tuning.blend:
            # Per component, its two lowest scaled mine counts (a box of n cells counting n times).
            self.pairs = [_two_lowest((mines[cells[0]], len(cells)) for cells in dp.cells)
                          for dp in components.dps]
            self.outside_of: dict = {}  # the touched components -> the two lowest chances outside them
        # the most one explanation can add to a score
        self.most = 1 + max(player.tuning.progress, 0) + max(player.tuning.zero, 0)
        self.keys: dict = {}

    def elsewhere(self, touched) -> Fraction:
        """The safest guess in a component the number does not touch."""
        return next((self.chances[j] for j, (_, i) in enumerate(self.ranked) if i not in touched), Fraction(0))

    def next_value(self, outcomes, k) -> Fraction:
        """Hill's blended safety of the next move after the number ``k``:
        1 - (4 * the lowest mine chance + the second lowest) / 5."""
        touched = outcomes.touched
        if self.player.tuning.pull and outcomes.pulled:
            # The untouched components' chances given k (the total's pull), not today's.
            outside = [v for _, i in islice((r for r in self.ranked if r[1] not in touched), 2)
                       for v in outcomes.beyond(k, i)]
        else:
            outside = self.outside_of.get(touched)
        if outside is None:
            # The first two components outside (ranked by their lowest) hold the two lowest.
            near = [m for _, i in islice((r for r in self.ranked if r[1] not in touched), 2) for m in self.pairs[i]]
            outside = self.outside_of[touched] = [Fraction(m, self.whole) for m in sorted(near)[:2]]
        first, second = sorted([*outcomes.lowest_two(k), *outside])[:2]
        w = self.player.tuning.blend_weight
        return 1 - (w * first + second) / (w + 1)

    def score(self, cell, beat: Fraction, skip_dead: bool) -> Fraction | None:
        """The cell's score, or None once it cannot reach ``beat`` (or it is
        dead, with ``skip_dead``)."""
        player = self.player
        around = [n for n in self.board.neighbours(cell) if n in self.hidden]
        outcomes = self.components.reveal(cell, around)
        if skip_dead and len(outcomes.counts) <= 1:  # dead: its number tells nothing
            return None
        left = sum(outcomes.counts.values())  # explanations with the cell safe
        bar = beat * self.total  # compare counts, not scores
        got = Fraction(0)
        most, progress, zero, blend = self.most, player.tuning.progress, player.tuning.zero, player.tuning.blend
        # Likeliest numbers first; each still to come adds at most its count.
        for k, count in sorted(outcomes.counts.items(), key=lambda kc: -kc[1]):
            left -= count
            if got + (count + left) * most < bar:
                return None
            if blend:
                got += count * self.next_value(outcomes, k)
                low = outcomes.lowest(k)
            else:
                low = outcomes.lowest(k)
                got += count * max(1 - low, self.elsewhere(outcomes.touched))
            if progress and low == 0:
                got += count * progress
            if zero and k == 0 and around:
                got += count * zero
        if player.tuning.tiebreak:
            self.keys[cell] = (outcomes.counts.get(0, 0) if around else 0, len(outcomes.counts))
        return got / self.total

    def scores(self, near: list, problem: Problem) -> tuple[dict, Fraction]:
        """The candidates' scores (those that could still win) and the best.

        A cell's score is at most its own safety, and ``near`` goes safest
        first: stop once no cell left can reach the best score, and drop a
        cell as soon as what it may still gain cannot (same choice as
        scoring everything, far fewer look-aheads).
        """
        mines, whole, most = self.mines, self.whole, self.most
        risk = self.player.tuning.risk
        scores: dict = {}
        top = Fraction(-1)
        # ``alive``: dead cells are scored only if every candidate is dead.
        skip_dead = self.player.tuning.alive
        for c in near:
            if Fraction(whole - mines[c], whole) * most * max(1, 1 + risk) < top:
                break
            factor = 1
            if risk:
                walled = _walled_pairs(self.board, problem, self.hidden, c)
                if walled:
                    safe = (whole - mines[c]) * self.scale  # layouts with c safe
                    factor = 1 + risk * min(Fraction(walled) / safe, Fraction(mines[c], whole - mines[c]), 1)
                if Fraction(whole - mines[c], whole) * most * factor < top:
                    continue
            found = self.score(c, top / factor, skip_dead)
            if found is not None:
                found *= factor
                scores[c] = found
                top = max(top, found)
        if skip_dead and not scores:
            for c in near:
                found = self.score(c, top, False)
                if found is not None:
                    scores[c] = found
                    top = max(top, found)
        return scores, top


def _yielding(look: _Lookahead, near: list, problem: Problem, safest: int, bar: Fraction,
              floating: bool = False):
    """A candidate some number touches, with ``safest`` scaled mines, whose
    own number makes some other cell safe with chance above ``bar`` given
    it is safe (the best look-ahead score among them, the first on ties);
    or None.

    Such a cell is as safe as the far corner and, opened, most likely
    leads straight on; David Hill's solver opens it where our corner rule
    would open the corner.  Below, after 0,0 opened a small area, 2,0 is as
    safe as the far corners, and once it is safe the numbers make 2,1 a
    mine and so 2,3 safe, whatever 2,0 shows:

    >>> from satsweeper.strategies import certain_decision
    >>> clues = {(0, 0): 0, (0, 1): 0, (0, 2): 1, (1, 0): 1, (1, 1): 2, (1, 2): 3}
    >>> b = Board(16, 30, clues, flags=frozenset({(2, 2)}), total_mines=99)
    >>> sure, problem, counts, parts = certain_decision(b)
    >>> look = _Lookahead(Best(), b, set(problem.cells), counts, parts)
    >>> m = counts.scaled_mines
    >>> near = sorted(c for c in problem.cells if m[c] == m[(0, 29)])
    >>> _yielding(look, near, problem, m[(0, 29)], Fraction(1, 2))
    (2, 0)
    """
    able = []
    component_of, table = look.components.component_of, look.board.neighbour_table
    for c in near:
        # (``floating``, an experiment: a floating cell beside the frontier may yield too.)
        if look.mines[c] != safest or (c not in component_of and not (
                floating and any(n in component_of for n in table[c]))):
            continue
        around = [n for n in look.board.neighbours(c) if n in look.hidden]
        outcomes = look.components.reveal(c, around)
        safe = sum(outcomes.counts.values())
        sure = sum(n for k, n in outcomes.counts.items() if outcomes.lowest(k) == 0)
        if safe and sure > bar * safe:
            able.append(c)
    if not able:
        return None
    scores, top = look.scores(able, problem)
    return min(c for c, v in scores.items() if v == top)


def _fifty_fifty(board: Board, problem: Problem, counts: Tally):
    """A cell of an unavoidable 50/50, or None.

    Two hidden cells ``a`` and ``b`` with exactly one mine between them in
    every explanation, in the same numbers' rules, and with no hidden cell
    next to one but not the other (flagged mines aside): swapping their
    contents turns every explanation into another that agrees with every
    number shown or yet to be shown (each counts both or neither) and
    with the total, so nothing will ever tell them apart.  (Same rules
    matters: a number next to ``b`` only ties it to cells that may be
    resolved elsewhere.)  One of them must be guessed at even odds sooner
    or later; guessed now, its number may help elsewhere (Hill: always
    correct to guess these at the earliest opportunity).

    >>> from satsweeper.textio import parse_board
    >>> from satsweeper.constraints import problem_of
    >>> from satsweeper.components import Components
    >>> def fifty(text):
    ...     b = parse_board(text)
    ...     p = problem_of(b)
    ...     return _fifty_fifty(b, p, Components(p).tally())
    >>> fifty("mines: 1\\n..\\n11\\n")       # walled in by the 1s
    (0, 0)
    >>> fifty("mines: 1\\n...\\n11.\\n") is None   # (0, 2) can still tell them apart
    True
    """
    mines, whole = counts.scaled_mines, counts.scaled_count
    halves = sorted(c for c in problem.cells if 2 * mines[c] == whole)
    if len(halves) < 2:
        return None
    hidden = set(problem.cells)
    table = board.neighbour_table
    around = {c: hidden.intersection(table[c]) for c in halves}
    rules = {c: frozenset(i for i, rule in enumerate(problem.constraints) if c in rule.cells) for c in halves}
    for i, a in enumerate(halves):
        for b in halves[i + 1:]:
            if rules[a] != rules[b] or around[a] - {b} != around[b] - {a}:
                continue
            both = Problem(problem.cells, problem.constraints + (Constraint(frozenset({a, b}), 2, "both"),),
                           problem.mines)
            if count_explanations(both) == 0:  # never both mines; each in half: exactly one
                return a
    return None


def _pseudo_fifty(board: Board, problem: Problem, counts: Tally, components: Components) -> list:
    """Cells that are mines only where they are the mine of a 50/50 walled
    in by mines (David Hill's pseudo 50/50s); [] if none.

    A pair of hidden cells side by side, or a 2x2 box, is walled in when
    every square that sees a different number of its two halves (the two
    cells; the box's two diagonals) is a mine: the halves then agree with
    every number shown or yet to be shown and with the total, so nothing
    will ever tell them apart, and any play loses half of those layouts
    (it opens one half first, blind).  A cell that is a mine only in such
    layouts loses no more than that when opened now, and when it is safe
    its number helps at once.  Not a theorem about the whole game (what
    else is opened first can matter): on small boards, played exactly,
    opening it first was as good as best play in all but 3 of 362 cases
    (tests/test_best.py).  As Hill's solver looks: walls with at most one
    square not yet a known mine and none showing a number; pairs first,
    then boxes; a dead cell (one number only) is never taken.

    >>> from satsweeper.textio import parse_board
    >>> from satsweeper.constraints import problem_of
    >>> def pseudo(text):
    ...     b = parse_board(text)
    ...     p = problem_of(b)
    ...     parts = Components(p)
    ...     return _pseudo_fifty(b, p, parts.tally(), parts)
    >>> pseudo("mines: 3\\nF2.\\n2..\\n1..\\n")  # 2,2 is a mine only with 1,1, 1,2 and 2,1 safe
    [(2, 2)]
    >>> pseudo("mines: 1\\n..\\n11\\n")  # a true 50/50, but both cells are dead (each shows 1)
    []
    """
    hidden = set(problem.cells)
    whole = counts.scaled_count
    mines = counts.scaled_mines
    # By the values' walk, not a question per cell: a big board's shared values answer a walk fast.
    known = board.flags | {c for c, m in mines.items() if m == whole}
    left = (board.total_mines - len(board.flags)) if board.total_mines is not None else None
    open_ = hidden - known

    # What a wall square costs: 1 hidden, not known to be a mine; 3 (too
    # many) shows a number; 0 anything else (a known mine, off the board),
    # on the grid padded by two.  The walls of every shape are summed at
    # once by numpy, np.nonzero giving them in row-major (sorted) order: the
    # shapes are scanned at every guess.  Compiled, on the 188 guesses of 60
    # expert games: 0.33 ms a guess, 0.14 of it this scan, against 1.21 ms
    # for a loop over the cells building each shape's walls and counting
    # the whole board for each shape that passes (commit 87e0a99).
    h, w = board.height, board.width
    pad = w + 4
    cost = np.zeros((h + 4, pad), dtype=np.int8)
    for squares, value in ((open_, 1), (board.clues, 3)):  # flat indices: twice as fast as np.array(list)
        cost.ravel()[np.fromiter([(r + 2) * pad + c + 2 for r, c in squares], np.intp, len(squares))] = value
    free = cost == 1
    column = cost[:-2] + cost[1:-1] + cost[2:]  # [r + 1, c + 2]: the squares r-1 .. r+1 of column c
    row = cost[:, :-2] + cost[:, 1:-1] + cost[:, 2:]  # [r + 2, c + 1]: the squares c-1 .. c+1 of row r
    most = 1 if left is None else min(1, left - 1)  # the walls left hidden, with the shape's own mine
    # A pair side by side: its ends are the columns of three left and right
    # of it; one above the other: the rows of three above and below.
    beside = free[2:h + 2, 2:w + 1] & free[2:h + 2, 3:w + 2] & (column[1:h + 1, 1:w] + column[1:h + 1, 4:w + 3] <= most)
    above = free[2:h + 1, 2:w + 2] & free[3:h + 2, 2:w + 2] & (row[1:h, 1:w + 1] + row[4:h + 3, 1:w + 1] <= most)
    most = 1 if left is None else min(1, left - 2)
    boxes = (free[2:h + 1, 2:w + 1] & free[2:h + 1, 3:w + 2] & free[3:h + 2, 2:w + 1] & free[3:h + 2, 3:w + 2]
             & (cost[1:h, 1:w] + cost[1:h, 4:w + 3] + cost[4:h + 3, 1:w] + cost[4:h + 3, 4:w + 3] <= most))

    def unknown(squares):
        """The walls that are hidden and not known mines (at most one)."""
        return [s for s in squares if free[s[0] + 2, s[1] + 2]]

    def check(shape, mine_cells, safe_cells, missing):
        walled = components.count_with({**dict.fromkeys((*missing, *mine_cells), 1), **dict.fromkeys(safe_cells, 0)})
        found = []
        for c in shape:
            if mines[c] and walled == mines[c] * counts.scale:
                around = [n for n in board.neighbours(c) if n in hidden]
                if len(components.reveal(c, around).counts) > 1:  # a dead cell tells nothing (Hill)
                    found.append(c)
        return found

    for r, c in zip(*map(np.ndarray.tolist, np.nonzero(beside))):
        a, b = (r, c), (r, c + 1)
        found = check((a, b), (a,), (b,), unknown([(r + x, c + y) for y in (-1, 2) for x in (-1, 0, 1)]))
        if found:
            return found
    for r, c in zip(*map(np.ndarray.tolist, np.nonzero(above))):
        a, b = (r, c), (r + 1, c)
        found = check((a, b), (a,), (b,), unknown([(r + x, c + y) for x in (-1, 2) for y in (-1, 0, 1)]))
        if found:
            return found
    for r, c in zip(*map(np.ndarray.tolist, np.nonzero(boxes))):
        box = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
        found = check(box, (box[0], box[3]), (box[1], box[2]),
                      unknown([(r - 1, c - 1), (r - 1, c + 2), (r + 2, c - 1), (r + 2, c + 2)]))
        if found:
            return found
    return []


def _walled_pairs(board: Board, problem: Problem, hidden: set, cell, most_missing: int = 3) -> int:
    """Layouts in which ``cell`` is the mine of a 50/50 in the making: a pair
    of it and a hidden cell beside it (in a row or a column) with ``cell``
    a mine, the other safe, and every square at the pair's two ends a
    mine (the board's edge walls too).  The ends are the only squares that
    see one of the pair and not the other: walled in by mines, the pair is
    a coin flip the player must take some day, so dying on ``cell`` now
    in those layouts costs about half what it seems (Hill's "50/50
    influence", his long-term risk).  Only pairs whose ends show no number
    and hold at most ``most_missing`` hidden squares are counted.

    >>> from satsweeper.constraints import problem_of
    >>> def walled(board, cell):
    ...     p = problem_of(board)
    ...     return _walled_pairs(board, p, set(p.cells), cell)
    >>> walled(Board(1, 2, {}, total_mines=1), (0, 0))  # the board's edges wall the pair in
    1
    >>> walled(Board(1, 4, {}, total_mines=2), (0, 1))  # only mines (0, 1), (0, 2): (0, 1)-(0, 2) needs 3
    1
    >>> walled(Board(1, 4, {(0, 3): 1}, total_mines=1), (0, 1))  # (0, 3) shows a number
    0
    """
    r, c = cell
    total = 0
    for dr, dc in ((0, 1), (1, 0)):
        for first in ((r, c), (r - dr, c - dc)):
            second = (first[0] + dr, first[1] + dc)
            if first not in hidden or second not in hidden:
                continue
            # The two ends: across the pair's line, one step before the first, one after the second.
            ends = [(first[0] - dr + i * dc, first[1] - dc + i * dr) for i in (-1, 0, 1)]
            ends += [(second[0] + dr + i * dc, second[1] + dc + i * dr) for i in (-1, 0, 1)]
            ends = [e for e in ends if board.contains(e)]
            if any(e in board.clues for e in ends):
                continue
            missing = [e for e in ends if e in hidden]
            if len(missing) > most_missing:
                continue
            other = second if first == cell else first
            rules = tuple(Constraint(frozenset({e}), 1, "wall") for e in missing) + (
                Constraint(frozenset({cell}), 1, "pair"), Constraint(frozenset({other}), 0, "pair"))
            total += count_explanations(Problem(problem.cells, problem.constraints + rules, problem.mines))
    return total


def _two_lowest(found) -> tuple:
    """The two lowest of (value, how many cells have it); a single cell's value once.

    >>> _two_lowest([(5, 1), (3, 2)]), _two_lowest([(3, 1), (5, 4)]), _two_lowest([(3, 1)])
    ((3, 3), (3, 5), (3,))
    """
    values = []
    for value, times in found:
        values.extend([value] * min(times, 2))
    return tuple(sorted(values)[:2])


def _pocket(board: Board, problem: Problem, components: Components, limit: int, most_cells: int):
    """The exact best guess in an isolated pocket, and its chance to clear
    the pocket; or None.

    A pocket is a component of the frontier that no hidden cell outside it
    touches (walled in by numbers and the board's edge) and whose
    explanations all hold the same number of mines: then nothing played
    elsewhere can tell anything about it, nor it about the rest (not even
    through the total), so the game is won iff both are, and the pocket
    may be played now, and exactly, at no cost elsewhere.

    >>> from satsweeper.textio import parse_board
    >>> from satsweeper.constraints import problem_of
    >>> b = parse_board("mines: 1\\n..\\n11\\n")   # a 50/50 walled in by the 1s
    >>> p = problem_of(b)
    >>> _pocket(b, p, Components(p), 1000, 80)[1]
    Fraction(1, 2)
    """
    hidden = set(problem.cells)
    table = board.neighbour_table
    for dp, (_, by_mines) in zip(components.dps, components.polys):
        cells = [c for box in dp.cells for c in box]
        if len(cells) > most_cells or sum(1 for n in by_mines if n) != 1:
            continue
        region = set(cells)
        if any(n in hidden and n not in region for c in cells for n in table[c]):
            continue
        rules = tuple(rule for rule in problem.constraints if rule.cells & region)
        found = endgame.best_guess(board, Problem(tuple(cells), rules), limit, most_cells)
        if found:
            return found
    return None


def _dominating(problem: Problem, components: Components, mines: dict, cell):
    """A cell strictly safer than ``cell`` and safe in every explanation with
    ``cell`` safe (the safest such cell, and again from it), or None.

    Opening it first never costs: the player then survives every layout in
    which ``cell`` is safe, can still open ``cell`` after it, and knows one
    number more (David Hill's solver makes this switch).  Only the rules of
    ``cell``'s component are asked (without the total, which could only
    rule out explanations): a cell found safe there is safe.

    >>> from satsweeper.constraints import Constraint, Problem
    >>> rules = (Constraint(frozenset("ab"), 1, "r"), Constraint(frozenset("bcd"), 1, "s"))
    >>> p = Problem(tuple("abcd"), rules)
    >>> c = Components(p)
    >>> t = c.tally()
    >>> _dominating(p, c, t.scaled_mines, "a")  # a safe: b is the mine, so c and d are safe
    'c'
    >>> _dominating(p, c, t.scaled_mines, "c") is None  # c safe: b or d, a unknown
    True
    """
    found = None
    while True:
        index = components.component_of.get(cell)
        if index is None:  # a floating cell: being safe settles nothing else
            return found
        cells = [c for box in components.dps[index].cells for c in box]
        inside = set(cells)
        rules = tuple(r for r in problem.constraints if r.cells & inside)
        given = Components(Problem(tuple(cells), rules + (Constraint(frozenset({cell}), 0, "the guess"),))).tally()
        if not given.scaled_count:  # a mine in every explanation (never best's guess)
            return found
        safer = [c for c in cells if given.scaled_mines[c] == 0 and mines[c] < mines[cell]]
        if not safer:
            return found
        found = cell = min(safer, key=lambda c: (mines[c], c))


def _far_corner(board: Board, hidden: set, mines: dict, safest: int, component_of: dict, farthest: bool = False):
    """A corner far from every number with ``safest`` scaled mines (the
    fewest of any cell), the least crowded first; or None.

    Far: every neighbour hidden, and no cell within two steps of the corner
    next to a number (the region a 0 there would open is still unknown).
    Closer corners lose: on 4x4 with 4 mines, allowing a number two steps
    away took best from 68.86% to 65.26% (5000 games, seed 1).  The corners
    are looked up on the board, not among the look-ahead's candidates, which
    keep one floating cell of each crowd (a near corner can stand for them).
    With ``farthest`` (an experiment, see Best) the corner farthest from every
    number comes first.

    >>> b = Board(3, 5, {(0, 0): 1}, total_mines=2)
    >>> frontier = {(0, 1): 0, (1, 0): 0, (1, 1): 0}  # cell -> its component
    >>> hidden = set(b.hidden_cells())
    >>> mines = dict.fromkeys(hidden, 1)
    >>> _far_corner(b, hidden, mines, 1, frontier)  # (2, 0) is beside (1, 0)
    (0, 4)
    >>> _far_corner(b, hidden, mines, 1, frontier, farthest=True)
    (2, 4)
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
            if farthest:
                away = min(((c[0] - r[0]) ** 2 + (c[1] - r[1]) ** 2 for r in board.clues), default=0)
                found.append((-away, len(around), c))
            else:
                found.append((len(around), c))
    return min(found)[-1] if found else None


def _undeferred(board: Board, hidden: set, mines: dict, limit: int, component_of: dict, most: int,
                near: list, threshold: int) -> list:
    """``near`` without its cells in small areas (see _small_area), taken again
    from the cells in large ones; ``near`` itself if every candidate is small."""
    covered = hidden | board.flags
    large: set = set()
    if not any(_small_area(board, covered, c, threshold, large) for c in near):
        return near
    kept = {c: m for c, m in mines.items() if m <= limit and not _small_area(board, covered, c, threshold, large)}
    return _candidates(board, hidden, kept, limit, component_of, most) if kept else near


def _small_area(board: Board, covered: set, cell, threshold: int, large: set) -> bool:
    """Whether fewer than ``threshold`` covered cells can be reached from
    ``cell``, stepping to a covered neighbour or over one number to the
    covered cells beside it (David Hill's SpaceCounter).  Nothing played
    elsewhere can tell much about such an area, so a guess needed there is
    needed later too: deferring it costs little, and by then the total may
    settle it.  ``large`` collects cells known to lie in a large area (a
    search that meets one is large too).

    >>> from satsweeper.textio import parse_board
    >>> b = parse_board("mines: 2\\n..101....\\n11101....\\n00001....\\n")
    >>> covered = set(b.hidden_cells())
    >>> _small_area(b, covered, (0, 0), 8, set()), _small_area(b, covered, (0, 5), 8, set())
    (True, False)
    >>> b = parse_board("mines: 2\\n..1....\\n111....\\n")  # over one number into the rest
    >>> _small_area(b, set(b.hidden_cells()), (0, 0), 8, set())
    False
    """
    table, clues = board.neighbour_table, board.clues
    seen = {cell}
    todo = [cell]
    for here in todo:
        for n in table[here]:
            for m in (n,) if n in covered else table[n] if n in clues else ():
                if m in covered and m not in seen:
                    if m in large:
                        large |= seen
                        return False
                    seen.add(m)
                    todo.append(m)
        if len(seen) >= threshold:
            large |= seen
            return False
    return True


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


# setup.py compiles this file with Cython (why: its NAMES); the build serves only while made
# from this very text (satsweeper.compiled).
COMPILED = take_build(globals(), "best")
