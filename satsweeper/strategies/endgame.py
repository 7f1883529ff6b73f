"""Exact play when few explanations remain: the guess with the best chance to win.

With the explanations listed, the chance of winning from here is computed
exactly: opening a cell splits the explanations by the number it would show
(or kills the game in those where it is a mine); a cell safe in every
remaining explanation is opened for free.  The value of a guess is the
chance of surviving it times the value of what it reveals, maximised over
every later guess.  Memoised on the set of explanations left alone: every
cell safe in all of them is opened for free, and a cell opened earlier is
one of those (it showed the same number in all of them), so that set fixes
what the player knows.  Without the total, explanations differ in their
mine counts, and after a move the game of one of them may be over (every
safe cell open, won) while the others go on: it counts as won there.

Only worth it, and only tractable, when the explanations are few (an endgame,
or a small isolated region); :func:`best_guess` returns None otherwise.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Hashable

from ..board import Board
from ..compiled import checkpoint, take_build
from ..constraints import Problem

# Most explanations to enumerate, and hidden cells to reason about.  From
# its first position the endgame plays optimally (later positions are in
# the tree it searched), so a bigger endgame can only win more on average;
# the limit is set by speed.  Paired expert games (docs/best-tuning-2026-11.txt,
# tuning seeds 100 and 101, 5000 games each) against the former 60 over 40:
# from 400 over 60, 26 won only with it against 14 and 18 against 21; from
# 1000 over 80, 27 against 18 and 21 against 25 (z = 1.34 and -0.59: about
# +0.05 points, too small to see in 10000 games).  On small boards it
# closes best's gap to optimal play (5x3 with 3 mines, safe corner first:
# 287 -> 299 of 364 layouts, the optimum); on 8x8 with 10 mines it won 34
# games only with it against 18 (20000 games of seed 100, z = 2.22).
# Speed: 1000 over 80 with the budget below costs best about 11% more time
# per expert game (300 games of seed 3, one core: 9.5 against 8.6 ms; exact
# 4.6 ms; bench_play.py's time ratio to exact 2.05).
LIMIT = 1000
CELLS = 80


def explanations(problem: Problem, limit: int) -> list[frozenset] | None:
    """Every placement of mines satisfying ``problem``, or None if more than ``limit``.

    The constrained cells are placed one rule's neighbourhood after another
    (so a rule is settled soon after its first cell and dead ends die
    early); cells no rule mentions only take the mines the total leaves,
    in every way at once (no dead end among them).

    >>> from satsweeper.constraints import Constraint, Problem
    >>> p = Problem(("a", "b"), (Constraint(frozenset({"a", "b"}), 1, "r"),))
    >>> sorted(sorted(e) for e in explanations(p, 10))
    [['a'], ['b']]
    """
    rules_of: dict[Hashable, list[int]] = {c: [] for c in problem.cells}
    for i, rule in enumerate(problem.constraints):
        for c in rule.cells:
            if c in rules_of:
                rules_of[c].append(i)
    cells = _rule_order(problem, rules_of)
    free = [c for c in problem.cells if not rules_of[c]]
    need = [rule.mines for rule in problem.constraints]
    room = [len(rule.cells) for rule in problem.constraints]
    if any(not 0 <= n <= r for n, r in zip(need, room)):
        return []
    total = problem.mines
    out: list[frozenset] = []
    chosen: list = []

    def place(index: int, placed: int) -> bool:
        if total is not None and (placed > total or placed + len(cells) - index + len(free) < total):
            return True
        if index == len(cells):
            if total is None:
                ways = [()] if not free else (
                    combo for r in range(len(free) + 1) for combo in combinations(free, r))
            else:
                if len(out) + comb(len(free), total - placed) > limit:
                    return False
                ways = combinations(free, total - placed)
            for combo in ways:
                out.append(frozenset(chosen).union(combo))
                if len(out) > limit:
                    return False
            return True
        cell = cells[index]
        rules = rules_of[cell]
        for mine in (False, True):
            if not all(room[r] - 1 >= need[r] - mine >= 0 for r in rules):
                continue
            for r in rules:
                need[r] -= mine
                room[r] -= 1
            if mine:
                chosen.append(cell)
            keep_going = place(index + 1, placed + mine)
            if mine:
                chosen.pop()
            for r in rules:
                need[r] += mine
                room[r] += 1
            if not keep_going:
                return False
        return True

    return out if place(0, 0) and len(out) <= limit else None


def _rule_order(problem: Problem, rules_of: dict) -> list:
    """The constrained cells, each rule's cells together, rules in the order
    a walk from rule to rule through shared cells meets them."""
    order: list = []
    seen: set = set()
    done: set = set()
    for start in range(len(problem.constraints)):
        stack = [start]
        while stack:
            r = stack.pop()
            if r in done:
                continue
            done.add(r)
            for c in sorted(problem.constraints[r].cells & rules_of.keys(), key=repr):
                if c not in seen:
                    seen.add(c)
                    order.append(c)
                    stack.extend(rules_of[c])
    return order


class TooBig(Exception):
    """The search met its node budget: the caller falls back to a heuristic."""


def best_guess(board: Board, problem: Problem, limit: int = None, most_cells: int = None,
               budget: int = None) -> tuple[Hashable, Fraction] | None:
    """The guess that maximises the chance of winning, and that chance; None if
    too big (more than ``limit`` explanations, ``most_cells`` hidden cells, or
    more than ``budget`` positions searched), or if some cell is safe in every
    explanation (open it, no guess).

    Counts are integers throughout: ``win`` is the number of explanations in
    which best play wins, so no fraction is formed until the answer.

    >>> from satsweeper.textio import parse_board
    >>> from satsweeper.constraints import problem_of
    >>> b = parse_board("mines: 1\\n1..\\n")   # one explanation: nothing to guess
    >>> best_guess(b, problem_of(b)) is None
    True
    >>> b = parse_board("mines: 1\\n.1.\\n")   # a true 50/50
    >>> best_guess(b, problem_of(b))[1]
    Fraction(1, 2)
    """
    return Endgame(limit, most_cells, budget).best_guess(board, problem)


class Endgame:
    """One game's exact endgame.  The explanations are enumerated once, at
    the first guess with few enough of them; at later guesses of the same
    game they are the earlier ones that agree with what was revealed since
    (the total is fixed, so none is new), and the search's memo, which
    already holds most of the positions the game can reach, is kept.

    >>> from satsweeper.textio import parse_board
    >>> from satsweeper.constraints import problem_of
    >>> b = parse_board("mines: 1\\n.1.\\n")
    >>> Endgame().best_guess(b, problem_of(b))[1]
    Fraction(1, 2)
    """

    def __init__(self, limit: int = None, most_cells: int = None, budget: int = None):
        self.limit = LIMIT if limit is None else limit
        self.most_cells = CELLS if most_cells is None else most_cells
        self.budget = BUDGET if budget is None else budget
        self.known = None  # (board, cells, mine, shows by number, search) of the enumeration
        self.everyone = 0  # its explanations, as bits

    def __deepcopy__(self, memo: dict) -> Endgame:
        """A copy whose search goes on apart: only the search is copied (its
        memo is a dict of ints); the board, cells and masks are never changed,
        so they are shared.  Why: ``satsweeper.optimal.play_together`` copies
        the player wherever games part, and ``copy.deepcopy``'s generic walk
        over the memo and masks took 108 of 112 CPU s of `best`'s exact value
        on 5x4x5 (safe, corner); with this, 5 s.  (Games that part have
        disjoint sets of explanations left, so they would never meet in a
        shared memo; copying it keeps the copies independent for little.)

        >>> import copy
        >>> e = Endgame()
        >>> e.known = (None, (), [], [], Search([0b01, 0b10], [(0b10,), (0b01,)], 100))
        >>> c = copy.deepcopy(e)
        >>> c.known[4].memo[0b11] = 1  # what the copy learns
        >>> e.known[4].memo, c.known[4].mine is e.known[4].mine, c.known[4].best(0b11)[1]
        ({}, True, 1)
        """
        twin = copy.copy(self)
        if self.known is not None:
            twin.known = (*self.known[:4], copy.copy(self.known[4]))
        return twin

    def best_guess(self, board: Board, problem: Problem, count: int = None
                   ) -> tuple[Hashable, Fraction] | None:
        """As :func:`best_guess`; ``count`` (the number of explanations, if
        known) lets a later guess of the same game reuse the enumeration."""
        alive = self._reuse(board, problem, count) if count is not None else None
        if alive is None:
            key = _fresh_key(self, board, problem)
            if key is not None and key in _FRESH:
                _FRESH.move_to_end(key)
                known, everyone, answer = _FRESH[key]
                if known is not None:  # else the search gave up before enumerating: nothing changed
                    self.known, self.everyone = (*known[:4], copy.copy(known[4])), everyone
                return answer
            before = self.known
            answer = self._fresh(board, problem)
            if key is not None:
                _keep(key, self if self.known is not before else None, answer)
            return answer
        return self._answer(board, problem, alive)

    def _fresh(self, board: Board, problem: Problem) -> tuple[Hashable, Fraction] | None:
        """:meth:`best_guess` from explanations enumerated anew, and a new search."""
        if len(problem.cells) > self.most_cells:
            return None
        found = explanations(problem, self.limit)
        if not found or len(found) < 2:
            return None
        cells = tuple(problem.cells)
        mine, by_number = _masks(board, cells, found)
        ends = len({len(e) for e in found}) > 1  # no total: a game may end while others go on
        self.known = (board, cells, mine, by_number,
                      Search(mine, [tuple(v.values()) for v in by_number], self.budget, ends))
        # int(): compiled, len() is a C integer, and a shift of it would wrap past 63 bits
        alive = self.everyone = (1 << int(len(found))) - 1
        return self._answer(board, problem, alive)

    def _answer(self, board: Board, problem: Problem, alive: int) -> tuple[Hashable, Fraction] | None:
        _, cells, mine, _, search = self.known
        hidden = set(problem.cells)
        if alive & (alive - 1) == 0 or any(not m & alive for c, m in zip(cells, mine) if c in hidden):
            return None  # a cell safe everywhere is no guess: open it first
        search.budget = self.budget
        try:
            k, wins = search.best(alive)
        except TooBig:
            return None
        return (cells[k], Fraction(wins, alive.bit_count())) if k >= 0 else None

    def _reuse(self, board: Board, problem: Problem, count: int) -> int | None:
        """The earlier explanations that agree with ``board``, as bits, if
        they are exactly its explanations (``count`` of them); else None."""
        if self.known is None:
            return None
        old, cells, mine, by_number, _ = self.known
        if (board.total_mines != old.total_mines or board.height != old.height or board.width != old.width
                or not old.flags <= board.flags or any(board.clues.get(c) != v for c, v in old.clues.items())
                or not set(problem.cells) <= set(cells)):
            return None
        alive = self.everyone
        for k, c in enumerate(cells):
            if c in board.flags:
                alive &= mine[k]
            elif c in board.clues:
                fixed = sum(1 for n in board.neighbours(c) if n in old.flags)
                alive &= by_number[k].get(board.clues[c] - fixed, 0)
        return alive if alive.bit_count() == count else None


# A small board's games meet the same positions again and again, and a game's
# first exact search is most of its time (4x4x4, 300 games of `best`: 95% of
# the CPU, 216 of its 234 fresh searches a position an earlier game had
# searched; 5x5x5: 37 of 165; 6x6x8: 1 of 113; 8x8x10 and above none).  So on
# boards of at most SHARED_SQUARES squares the state an Endgame is left in by
# a fresh search (its explanations, masks, the search's memo) is kept by
# position and handed to the next game that searches there afresh: the same
# state, bit for bit, that game would have made itself (the search is
# deterministic, and its budget counts from where each call starts), so every
# game plays as it would alone, in whatever order the games come; only the
# time falls.  Bigger boards never meet again and would pay a memo's copy a
# game: no sharing there.  The store holds at most SHARED_ENTRIES memo
# entries (the least recently used position goes first): about 150 MB more
# at the most (5x5x8 and 8x4x6 reach it in 1,000 games; 4x4x4 holds 41
# positions, 12,000 entries, after 2,000 games).
SHARED_SQUARES = 32
SHARED_ENTRIES = 1_000_000
_FRESH: OrderedDict = OrderedDict()  # position -> (known with its search, everyone, answer)
_SIZES: dict = {}  # position -> memo entries it holds


def _fresh_key(endgame: Endgame, board: Board, problem: Problem) -> tuple | None:
    """What a fresh search's outcome depends on, on a board small enough to share; else None."""
    if board.height * board.width > SHARED_SQUARES:
        return None
    return (board.height, board.width, board.total_mines, frozenset(board.clues.items()), board.flags,
            board.voids, problem, endgame.limit, endgame.most_cells, endgame.budget)


def _keep(key: tuple, endgame: Endgame | None, answer) -> None:
    """Keep a copy of the state ``endgame`` is in after a fresh search (its game searches on);
    None: the search gave up before it enumerated anything (the state is as it was)."""
    known = None if endgame is None else (*endgame.known[:4], copy.copy(endgame.known[4]))
    size = 0 if known is None else len(known[4].memo)
    if size > SHARED_ENTRIES:
        return
    _FRESH[key], _SIZES[key] = (known, None if endgame is None else endgame.everyone, answer), size
    total = sum(_SIZES.values())
    while total > SHARED_ENTRIES:
        old, _ = _FRESH.popitem(last=False)
        total -= _SIZES.pop(old)


def _masks(board: Board, cells: tuple, found: list) -> tuple[list[int], list[dict[int, int]]]:
    """Explanations as bits of an int.  mine[k]: those with cell k a mine;
    shows[k][v]: those with cell k safe and showing v plus its flagged
    neighbours (a flag adds one to every number: it splits nothing).

    The numbers are counted bit-parallel: exactly[v] holds the explanations
    with v mines among the neighbours seen so far, updated one neighbour at a
    time (a few big-int operations per cell, not one sum per explanation).

    >>> from satsweeper.textio import parse_board
    >>> b = parse_board("mines: 1\\n.1.\\n")
    >>> _masks(b, ((0, 0), (0, 2)), [frozenset({(0, 0)}), frozenset({(0, 2)})])
    ([1, 2], [{0: 2}, {0: 1}])
    """
    index = {c: k for k, c in enumerate(cells)}
    mine = [0] * len(cells)
    for i, e in enumerate(found):
        bit = 1 << i
        for c in e:
            mine[index[c]] |= bit
    everyone = (1 << int(len(found))) - 1  # int(): as in Endgame.best_guess
    shows = []
    for k, c in enumerate(cells):
        exactly = [everyone & ~mine[k]]
        for n in board.neighbours(c):
            if n in index:
                m = mine[index[n]]
                exactly = [(exactly[v] if v < len(exactly) else 0) & ~m
                           | (exactly[v - 1] & m if v else 0) for v in range(len(exactly) + 1)]
        shows.append({v: x for v, x in enumerate(exactly) if x})
    return mine, shows


# Positions the search may visit before it gives up (best_guess returns None
# and best guesses as it would without the endgame; the positions solved so
# far stay in the memo for the next guess).  A bigger budget cannot lose on
# average: a call that succeeds with the smaller one succeeds the same way
# (same search, same memo), and where only the bigger one succeeds the game
# is played optimally from there.  Where best fell short of optimal play on
# small boards (docs/optimal.md), the misplayed positions were mostly ones
# under 1,000 explanations whose search gave up at 5,000 positions (e.g.
# 5x3x5 after a 1 in the corner: 990 explanations, 20,000 positions; 5x5x3
# after a 1: 630, 50,000); the look-ahead or the far-corner rule answered
# instead (scripts/optimal_misplays.py; docs/best-tuning-2026-11.txt, session
# 36).  On expert the search gives up in few games (9 calls of 110 in 200
# games at 5,000, 1 at 50,000), so 50,000 costs best about 3% more time
# (expert seed 3, 300 games: 1.48 against 1.43 times exact's CPU time).
BUDGET = 50000


class Search:
    """Best play on explanations as bits: ``win(alive)`` counts the explanations
    among ``alive`` in which best play wins.

    >>> s = Search([0b01, 0b10], [(0b10,), (0b01,)], 100)  # a 50/50: two cells, one mine
    >>> s.best(0b11)[1]  # either cell wins one of the two explanations
    1
    """

    def __init__(self, mine: list[int], shows: list[tuple[int, ...]], budget: int, ends: bool = False):
        self.mine, self.shows, self.budget, self.ends = mine, shows, budget, ends
        self.memo: dict[int, int] = {}

    def __copy__(self) -> Search:
        """A search that goes on apart from this one: its own memo (a copy),
        the masks (never changed) shared."""
        twin = Search(self.mine, self.shows, self.budget, self.ends)
        twin.memo = self.memo.copy()
        return twin

    def _ended(self, alive: int, cells) -> int:
        """The explanation of ``alive`` (as its bit, or 0) whose every cell still in
        doubt is a mine: its safe cells are all open, so its game has ended, won.
        Only ``ends`` searches look (explanations of different mine counts, a board
        without its total): with the total every explanation has as many mines, and
        one with all the doubtful cells mines is the only one left."""
        full = alive
        for k in cells:
            m = self.mine[k] & alive
            if m:
                full &= m
        return full

    def best(self, alive: int) -> tuple[int, int]:
        """(the cell to guess, the explanations it wins) when no cell is free."""
        useful = self._useful(alive, range(len(self.mine)))
        return self._guess(alive, useful) if isinstance(useful, list) else (-1, 0)

    def _useful(self, alive: int, cells):
        """The cells that still matter in ``alive`` (a mine in some
        explanations and safe in others), or, as soon as one is found, the
        parts a free cell (safe in all) splits ``alive`` into by its number
        (a tuple: open it first).  A cell that is a mine in all, or safe in
        all and showing one number, never matters again below."""
        mine, shows = self.mine, self.shows
        out = []
        for k in cells:
            m = mine[k] & alive
            if m == alive:
                continue
            if not m:
                parts = tuple(x for x in (s & alive for s in shows[k]) if x)
                if len(parts) > 1:
                    return parts
                continue
            out.append(k)
        return out

    def win(self, alive: int, cells: list[int]) -> int:
        if alive & (alive - 1) == 0:  # one explanation left: everything is known
            return 1
        got = self.memo.get(alive)
        if got is not None:
            return got
        self.budget -= 1
        if self.budget < 0:
            raise TooBig
        if not self.budget & 1023:
            checkpoint()  # compiled, Ctrl-C and a deadline are seen only here (satsweeper.compiled)
        if self.ends:
            # After a move, a game whose every safe cell is open is over and won: that
            # explanation wins, and the player, still playing, knows it is not the one.
            # (Not at the first position, best(): the guess asked for is made there,
            # and it loses where it is a mine, as its mine probability says.)
            done = self._ended(alive, cells)
            if done:
                rest = alive & ~done
                value = 1 + (1 if rest & (rest - 1) == 0 else self.win(rest, cells))
                self.memo[alive] = value
                return value
        useful = self._useful(alive, cells)
        if isinstance(useful, tuple):  # a free cell that tells something is opened first
            value = sum(self.win(p, cells) for p in useful)
        else:
            value = self._guess(alive, useful)[1] if useful else 1
        self.memo[alive] = value
        return value

    def _guess(self, alive: int, useful: list[int]) -> tuple[int, int]:
        mine, shows, memo = self.mine, self.shows, self.memo
        # Most likely safe first: a guess wins at most where it survives, so
        # the search stops at the first cell that cannot beat the best (its
        # parts are only formed once it is tried).
        order = sorted((((alive & ~mine[k]).bit_count(), k) for k in useful), reverse=True)
        best_k, best = -1, 0
        for left, k in order:
            if left <= best:
                break
            parts = sorted((x for x in (s & alive for s in shows[k]) if x), key=int.bit_count, reverse=True)
            value = 0
            for p in parts:  # biggest first; each part wins at most its size
                size = p.bit_count()
                left -= size
                value += 1 if size == 1 else memo[p] if p in memo else self.win(p, useful)
                if value + left <= best:
                    break
            else:
                if value > best:
                    best_k, best = k, value
        return best_k, best


# setup.py compiles this file with Cython (why: its NAMES); the build serves only while made
# from this very text (satsweeper.compiled).
COMPILED = take_build(globals(), "endgame")
