"""The simulator: uniform placement, first-click rules, flood fill."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from satsweeper.board import Board
from satsweeper.constraints import Positions, problem_of
from satsweeper.errors import CellError, InputError
from satsweeper.game import LEVELS, FirstClick, Game, Games, Level, Outcome, Placement, neighbours, place_mines
from satsweeper.strategies import strategy

# Chi-square critical value at p = 0.001 for 14 degrees of freedom (15 layouts).
CHI2_CRITICAL_14 = 36.12


def chi_square(counts: Counter, outcomes: list, samples: int) -> float:
    expected = samples / len(outcomes)
    return sum((counts[o] - expected) ** 2 / expected for o in outcomes)


class TestPlacement:
    @pytest.mark.parametrize("method", list(Placement))
    def test_uniform_over_layouts(self, method):
        """Both of Dupuis's methods hit the 15 layouts of 2 mines in 6 cells evenly."""
        level = Level(3, 2, 2)
        cells = [(r, c) for r in range(2) for c in range(3)]
        layouts = [frozenset(pair) for pair in combinations(cells, 2)]
        rng = random.Random(12345)
        samples = 15000
        counts = Counter(place_mines(level, rng, method=method) for _ in range(samples))
        assert set(counts) == set(layouts)
        assert chi_square(counts, layouts, samples) < CHI2_CRITICAL_14

    def test_safe_first_click_is_uniform_over_the_rest(self):
        """'safe' draws uniformly among layouts avoiding the first click."""
        level = Level(7, 1, 2)
        first = (0, 0)
        rng = random.Random(7)
        layouts = [frozenset(p) for p in combinations([(0, c) for c in range(1, 7)], 2)]
        counts = Counter(Game.new(level, rng, first, FirstClick.SAFE).mines for _ in range(15000))
        assert set(counts) == set(layouts)
        assert chi_square(counts, layouts, 15000) < CHI2_CRITICAL_14

    def test_opening_keeps_neighbours_clear(self):
        """'opening' keeps the first click and its neighbours mine-free."""
        level = Level(9, 9, 40)
        for seed in range(50):
            game = Game.new(level, random.Random(seed), (4, 4), FirstClick.OPENING)
            assert not game.mines & {(4, 4), *neighbours(level, (4, 4))}
            assert game.open((4, 4)) is Outcome.PLAYING and game.board.clues[(4, 4)] == 0

    def test_can_lose_allows_a_mine_at_the_first_click(self):
        level = Level(2, 1, 1)
        hits = sum((0, 0) in Game.new(level, random.Random(s), (0, 0), FirstClick.CAN_LOSE).mines
                   for s in range(200))
        assert 50 < hits < 150


class TestOpen:
    def test_flood_fill_reveals_the_region_and_its_border(self):
        """Opening a 0 opens every cell connected through 0s, and the numbers around."""
        level = Level(5, 5, 1)
        game = Game(level, frozenset({(4, 4)}))
        game.open((0, 0))
        assert game.outcome is Outcome.WON  # one mine in a corner: everything else opens
        assert len(game.revealed) == 24

    def test_numbers_are_true(self):
        level = Level(16, 16, 40)
        game = Game(level, place_mines(level, random.Random(3)))
        for cell, number in game.revealed.items():
            assert number == sum(n in game.mines for n in neighbours(level, cell))

    def test_opening_a_mine_loses(self):
        game = Game(Level(2, 1, 1), frozenset({(0, 1)}))
        assert game.open((0, 1)) is Outcome.LOST


class TestGames:
    """Many layouts played as one (what optimal.play_together plays) against a Game for each."""

    @pytest.mark.parametrize("level", [Level(3, 3, 2), Level(4, 3, 3), Level(5, 2, 2), Level(4, 4, 5)], ids=str)
    def test_moves_as_a_game_per_layout(self, level):
        """Random moves (flags, and opens of hidden, open and flagged cells alike) split the
        games into the same wins, losses and views as each layout played alone."""
        rng, moves, ends = random.Random(str(level)), 0, Counter()
        cells = [(r, c) for r in range(level.height) for c in range(level.width)]
        layouts = [frozenset(m) for m in combinations(cells, level.mines)]
        alone = {sum(1 << (r * level.width + c) for r, c in m): Game(level, m) for m in layouts}
        waiting = [Games.of(level, layouts)]
        while waiting:
            games = waiting.pop()
            assert len({alone[mask].board for mask in games.layouts}) == 1
            assert alone[games.layouts[0]].board == games.board
            assert all(list(alone[mask].revealed.items()) == list(games.revealed.items()) for mask in games.layouts)
            flags = tuple(rng.sample(cells, rng.randint(0, 2)))
            # ... and one open of a hidden unflagged cell at least: every move makes progress.
            free = [c for c in cells if c not in games.revealed and c not in games.flags and c not in flags]
            opens = (*rng.sample(cells, rng.randint(0, 2)), *rng.sample(free, bool(free)))
            won, lost, parts = games.move(flags, opens)
            outcomes = Counter()
            for mask in games.layouts:
                game = alone[mask]
                for cell in flags:
                    game.flag(cell)
                for cell in opens:
                    if game.open(cell) is not Outcome.PLAYING:
                        break
                outcomes[game.outcome] += 1
            assert (won, lost) == (outcomes[Outcome.WON], outcomes[Outcome.LOST])
            ends.update(outcomes)
            assert sum(map(len, parts)) == outcomes[Outcome.PLAYING]
            # Flags never go, so a part may be stuck with every safe cell flagged: not played on.
            waiting.extend(part for part in parts if len(part.revealed) > len(games.revealed))
            moves += 1
        assert moves > 10 and ends[Outcome.WON] and ends[Outcome.LOST]

    @pytest.mark.parametrize("rule", list(FirstClick), ids=lambda r: r.value)
    def test_allowed_layouts(self, rule):
        """Games.allowed holds every layout the rule allows, once: those Game.new draws (by
        brute force over every set of cells, kept when no mine is where the rule forbids)."""
        level, first = Level(4, 3, 3), (1, 1)
        forbidden = {first} if rule is FirstClick.SAFE else {first, *neighbours(level, first)} \
            if rule is FirstClick.OPENING else set()
        cells = [(r, c) for r in range(level.height) for c in range(level.width)]
        brute = [frozenset(m) for m in combinations(cells, level.mines) if not forbidden & set(m)]
        allowed = Games.allowed(level, rule, first).layouts
        assert sorted(allowed) == sorted(Games.of(level, brute).layouts) and len(set(allowed)) == len(allowed)
        drawn = {sum(1 << (r * level.width + c) for r, c in Game.new(level, random.Random(s), first, rule).mines)
                 for s in range(300)}
        assert drawn <= set(allowed)

    def test_layouts_of_the_level(self):
        """A layout with the wrong number of mines, or one off the board, is refused."""
        with pytest.raises(InputError, match="layouts of 1 cells of the 3x2x1 board"):
            Games.of(Level(3, 2, 1), [frozenset({(0, 0), (0, 1)})])
        with pytest.raises(InputError):
            Games.of(Level(3, 2, 1), [frozenset({(2, 0)})])
        with pytest.raises(CellError):
            Games.of(Level(3, 2, 1), []).move(opens=[(2, 0)])


class TestBadArguments:
    """A library caller's mistakes are named errors, not a KeyError or a silently other game."""

    @pytest.mark.parametrize("cell", [(2, 0), (0, 3), (-1, 0), (0, -1), "a", [0, 0], (0,)])
    def test_a_cell_off_the_board(self, cell):
        """open, flag and number refuse a cell that is not (row, col) on the board."""
        game = Game(Level(3, 2, 1), frozenset({(0, 2)}))
        for act in (game.open, game.flag, game.number):
            with pytest.raises(CellError, match=r"a cell \(row, col\) of the 3x2x1 board"):
                act(cell)
        assert game.board.flags == frozenset() and game.revealed == {}  # nothing was recorded

    def test_mines_off_the_board(self):
        """A layout with a mine outside the rectangle is refused (it could never be found)."""
        with pytest.raises(CellError):
            Game(Level(3, 2, 1), frozenset({(5, 5)}))

    def test_first_click_off_the_board(self):
        with pytest.raises(CellError):
            Game.new(Level(2, 2, 1), random.Random(1), (5, 5))

    def test_a_rule_given_as_a_word(self):
        """rule="safe" used to place mines under the first click (can-lose); now it is refused."""
        with pytest.raises(InputError, match="FirstClick"):
            Game.new(Level(2, 1, 1), random.Random(1), (0, 0), "safe")

    def test_a_seed_for_the_generator(self):
        """An int where the random.Random goes was an AttributeError ('int' has no 'sample')."""
        with pytest.raises(InputError, match=r"^a random.Random, such as random.Random\(7\) \(got 1\)$"):
            Game.new(Level(2, 1, 1), 1, (0, 0))

    @pytest.mark.parametrize("size", [(0, 3, 1), (-1, 3, 2), (2, 2, 5), (2, 2, -1), (2.0, 2, 1), ("3", 3, 1)])
    def test_impossible_levels(self, size):
        """A Level is at least 1x1 with 0 to width*height mines, as Level.parse says."""
        with pytest.raises(InputError):
            Level(*size)

    @pytest.mark.parametrize("text, words", [
        ("5x5x30", "at most 25 mines on 5x5, its number of squares (got 30)"),
        ("0x5x3", "a width and height of at least 1 (got '0x5x3')"),
        ("5x0x0", "a width and height of at least 1 (got '5x0x0')"),
        # Well formed but too long: the digits are the trouble (it said "a level name or WIDTHxHEIGHTxMINES").
        ("99999999999999999999x2x1", "WIDTHxHEIGHTxMINES with at most 9 digits a side and 12 for the mines "
                                     "(got '99999999999999999999x2x1')")])
    def test_impossible_level_text_says_the_limit(self, text, words):
        """The level typed is refused with its own numbers (it said 'at most
        WIDTH*HEIGHT mines', leaving the user to do the sum)."""
        with pytest.raises(InputError) as refused:
            Level.parse(text)
        assert str(refused.value) == words

    def test_extreme_levels_are_fine(self):
        assert Level(1, 1, 1).mines == 1 and Level(1, 1, 0).mines == 0


class TestPositions:
    def test_incremental_problems_equal_full_ones(self):
        """Positions.problem equals problem_of after every move of real games (flags included)."""
        for seed in range(6):
            rng = random.Random(seed)
            game = Game.new(LEVELS["intermediate"], rng, (0, 0), FirstClick.SAFE)
            game.open((0, 0))
            positions, player, moves = Positions(), strategy("basic"), 0
            while game.outcome is Outcome.PLAYING and moves < 200:
                board = game.board
                assert positions.problem(board) == problem_of(board)
                decision = player.decide(board, rng)
                for cell in decision.flags:
                    game.flag(cell)
                for cell in decision.opens:
                    if game.open(cell) is not Outcome.PLAYING:
                        break
                moves += 1

    def test_falls_back_on_an_unrelated_board(self):
        """A board that does not follow the last one is built from scratch."""
        positions = Positions()
        a, b = Board(1, 3, {(0, 0): 1}), Board(1, 3, {(0, 2): 0})
        assert positions.problem(a) == problem_of(a)
        assert positions.problem(b) == problem_of(b)
        # More numbers than before, but one of the old ones gone.
        c = Board(1, 4, {(0, 0): 1, (0, 1): 1}, total_mines=1)
        d = Board(1, 4, {(0, 1): 1, (0, 2): 1, (0, 3): 0}, total_mines=1)
        assert positions.problem(c) == problem_of(c)
        assert positions.problem(d) == problem_of(d)

    def test_a_flag_taken_back(self):
        """Removing a flag brings its cell back among the hidden ones, in order."""
        positions = Positions()
        for flags in ((), ((0, 1),), ()):
            board = Board(1, 4, {(0, 0): 1}, frozenset(flags))
            assert positions.problem(board) == problem_of(board)
