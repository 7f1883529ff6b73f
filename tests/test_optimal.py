"""The optimum against a plain minimax, with and without symmetry, and best's endgame."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import lru_cache

import pytest

from satsweeper.board import Board
from satsweeper.constraints import problem_of
from satsweeper.errors import CellError, InputError
from satsweeper.game import FirstClick, Games, Level
from satsweeper.optimal import NoLayout, SearchTooBig, Search, bits_of, optimum, strategy_value
from satsweeper.strategies import endgame


def layouts_for(level: Level, rule: FirstClick, first) -> list[frozenset]:
    """Every layout the rule allows, by filtering all of them (not by building the allowed ones)."""
    cells = [(r, c) for r in range(level.height) for c in range(level.width)]
    near = {(first[0] + dr, first[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    out = []
    for mines in itertools.combinations(cells, level.mines):
        if rule is FirstClick.SAFE and first in mines:
            continue
        if rule is FirstClick.OPENING and near & set(mines):
            continue
        out.append(frozenset(mines))
    return out


def minimax(level: Level, layouts: list[frozenset], opened: tuple = ()) -> int:
    """Layouts won by the best play, trying every hidden cell at every turn (no free moves, no symmetry)."""
    cells = [(r, c) for r in range(level.height) for c in range(level.width)]
    around = {cell: [(cell[0] + dr, cell[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                     if (dr, dc) != (0, 0) and (cell[0] + dr, cell[1] + dc) in set(cells)] for cell in cells}

    def click(mines: frozenset, revealed: frozenset, cell) -> frozenset | None:
        """The revealed cells after opening ``cell`` (flood fill on 0), None on a mine."""
        if cell in mines:
            return None
        seen, stack = set(revealed), [cell]
        while stack:
            here = stack.pop()
            if here in seen:
                continue
            seen.add(here)
            if not any(n in mines for n in around[here]):
                stack.extend(around[here])
        return frozenset(seen)

    def split(alive, revealed, cell) -> dict:
        """Surviving layouts grouped by what the player then sees."""
        parts: dict = {}
        for mines in alive:
            after = click(mines, revealed, cell)
            if after is not None:
                seen = frozenset((c, sum(n in mines for n in around[c])) for c in after)
                parts.setdefault((after, seen), []).append(mines)
        return parts

    def value(after, part) -> int:
        return len(part) if len(after) == len(cells) - level.mines else won(frozenset(part), after)

    @lru_cache(maxsize=None)
    def won(alive: frozenset, revealed: frozenset) -> int:
        return max(sum(value(after, part) for (after, _), part in split(alive, revealed, cell).items())
                   for cell in cells if cell not in revealed)

    if not opened:
        return won(frozenset(layouts), frozenset())
    return sum(value(after, part) for (after, _), part in split(layouts, frozenset(), opened[0]).items())


SMALL = [Level(3, 3, 1), Level(3, 3, 2), Level(3, 3, 3), Level(4, 2, 2), Level(4, 2, 3), Level(3, 2, 2),
         Level(1, 5, 2), Level(3, 3, 6)]


# The search's variants: bounds (default, few layouts listed), bounds with every set a bitset
# (small=1), bounds with every set listed, and the plain search (no bounds, every part exact).
VARIANTS = {"default": {}, "bitsets": {"small": 1}, "listed": {"small": 10**9}, "plain": {"bounds": False, "dead": False},
            "every guess": {"dead": False}, "no bound memo": {"keep_bound": 10**9},
            "bounds solve every listed set": {"small_bound": 10**9}, "bounds only look listed sets up": {"small_bound": 0}}


class TestAgainstMinimax:
    @pytest.mark.parametrize("variant", VARIANTS)
    @pytest.mark.parametrize("level", SMALL, ids=str)
    def test_variants_against_minimax(self, level, variant):
        """Every variant of the search, every rule and first click: the plain minimax's value."""
        search = Search(level, **VARIANTS[variant])
        for rule in FirstClick:
            for first in itertools.product(range(level.height), range(level.width)):
                layouts = layouts_for(level, rule, first)
                if layouts:
                    assert search.first_click(rule, first) == (minimax(level, layouts, (first,)), len(layouts))

    @pytest.mark.parametrize("level", SMALL, ids=str)
    def test_can_lose_best_first_click(self, level):
        """With the first click a free guess, the optimum equals minimax over every first click."""
        result = optimum(level, FirstClick.CAN_LOSE)
        layouts = layouts_for(level, FirstClick.CAN_LOSE, (0, 0))
        assert (result.won, result.layouts) == (minimax(level, layouts), len(layouts))

    @pytest.mark.parametrize("level", SMALL, ids=str)
    @pytest.mark.parametrize("rule", [FirstClick.SAFE, FirstClick.OPENING], ids=lambda r: r.value)
    def test_given_first_click(self, level, rule):
        """Every first click under safe and opening: the optimum equals minimax after that click."""
        search = Search(level)
        for first in itertools.product(range(level.height), range(level.width)):
            layouts = layouts_for(level, rule, first)
            if not layouts:
                continue
            assert search.first_click(rule, first) == (minimax(level, layouts, (first,)), len(layouts))

    def test_best_first_is_among_the_best(self):
        """The best first clicks are those whose value is the maximum."""
        result = Search(Level(3, 3, 2)).optimum(FirstClick.SAFE, every=True)
        values = dict(result.by_first)
        assert len(values) == 9
        assert set(result.firsts) == {c for c, v in values.items() if v == max(values.values())}
        assert result.value == max(values.values())

    @pytest.mark.parametrize("level", [Level(4, 3, 4), Level(5, 2, 3), Level(3, 3, 2)], ids=str)
    @pytest.mark.parametrize("rule", list(FirstClick), ids=lambda r: r.value)
    def test_cut_first_clicks(self, level, rule):
        """Searching worse first clicks only until they lose gives the same value and best clicks."""
        cut, every = Search(level).optimum(rule), Search(level).optimum(rule, every=True)
        assert (cut.value, cut.firsts) == (every.value, every.firsts)
        assert set(cut.by_first) <= set(every.by_first)


class TestSymmetry:
    @pytest.mark.parametrize("level", [Level(4, 3, 3), Level(3, 3, 2), Level(5, 2, 3), Level(4, 4, 2)], ids=str)
    @pytest.mark.parametrize("rule", list(FirstClick), ids=lambda r: r.value)
    def test_same_values(self, level, rule):
        """Symmetry cuts the states, never changes a value."""
        for variant in ({}, {"small": 1}):  # small=1: every set through the symmetric memo
            plain, folded = Search(level, symmetry=False, **variant), Search(level, **variant)
            for first in itertools.product(range(level.height), range(level.width)):
                assert plain.first_click(rule, first) == folded.first_click(rule, first)
        # Fewer views, unless no view needed a guess (4x4x2, opening: every part settles by free cells)
        assert len(folded.memo) < len(plain.memo) or len(plain.memo) == 0

    def test_published_4x4(self):
        """4x4 with 4 mines, first click may lose: 961 of 1820 layouts (the issue's worked example)."""
        assert optimum(Level(4, 4, 4), FirstClick.CAN_LOSE).value == Fraction(961, 1820)


class TestPruning:
    """The bounds, the listing of few layouts and the re-indexed bitsets never change a value."""

    @pytest.mark.parametrize("level", [Level(4, 3, 3), Level(5, 2, 4), Level(4, 3, 5), Level(6, 2, 3),
                                       Level(4, 3, 7)], ids=str)
    def test_same_as_plain_search(self, level):
        """10-12 cells, every rule and first click: each variant gives the plain search's value."""
        searches = {name: Search(level, **kw) for name, kw in VARIANTS.items()}
        for rule in FirstClick:
            for first in itertools.product(range(level.height), range(level.width)):
                values = {name: s.first_click(rule, first) for name, s in searches.items()}
                assert len(set(values.values())) == 1, (rule, first, values)

    @pytest.mark.parametrize("level", [Level(7, 2, 3), Level(5, 3, 4), Level(4, 4, 4), Level(6, 2, 6)], ids=str)
    def test_dead_cells_never_needed(self, level):
        """Trying only live cells (two numbers possible) while there is one: the plain search trying
        every cell gives the same value, every rule and first click; and it does cut the states."""
        every, live = Search(level, bounds=False, dead=False), Search(level, bounds=False)
        for rule in FirstClick:
            for first in itertools.product(range(level.height), range(level.width)):
                assert every.first_click(rule, first) == live.first_click(rule, first), (rule, first)
        assert len(live.memo) < len(every.memo)

    def test_dead(self):
        """A cell is dead when every layout where it is safe shows the same number there."""
        search = Search(Level(3, 1, 1))  # one row of three cells, one mine
        everyone = (1 << search.layouts) - 1
        assert not Search._dead(everyone, 0, search.shows)  # the end: 1 (mine beside) or 0
        assert Search._dead(everyone, 1, search.shows)  # the middle: 1 wherever it is safe
        assert Search._dead(everyone & ~search.mine[0] & ~search.mine[2], 0, search.shows)  # one layout left: every cell dead

    def test_bounds_cut_the_states(self):
        """The bounds are not idle: far fewer views searched than by the plain search."""
        bounded, plain = Search(Level(4, 4, 4)), Search(Level(4, 4, 4), bounds=False)
        assert bounded.first_click(FirstClick.SAFE, (0, 0)) == plain.first_click(FirstClick.SAFE, (0, 0))
        assert 10 * len(bounded.memo) < len(plain.memo)

    @pytest.mark.parametrize("level", [Level(4, 3, 4), Level(3, 3, 3)], ids=str)
    def test_beat_contract(self, level):
        """won(.., beat) is exact above beat, else an upper bound no more than beat: from views
        reached by random clicks, beats from -1 to the set's size, on a fresh search each time."""
        import random
        rng = random.Random(5)
        exact = Search(level, bounds=False, dead=False)
        searches = [Search(level), Search(level, small=1), Search(level, keep_bound=10**9),
                    Search(level, small_bound=0), Search(level, small_bound=10**9)]
        everyone = (1 << exact.layouts) - 1
        for _ in range(12):
            alive, view = everyone, bytearray([9] * exact.size)
            for k in rng.sample(range(exact.size), rng.randint(1, 3)):
                safe = alive & ~exact.mine[k]
                numbers = [v for v in range(9) if safe & exact.shows[k][v]]
                if not numbers or view[k] != 9:
                    continue
                v = rng.choice(numbers)
                alive, view[k] = alive & exact.shows[k][v], v
            truth = exact.won(alive, bytearray(view))
            size = alive.bit_count()  # every beat near the truth and at the ends, a few others
            beats = {-1, 0, 1, truth - 2, truth - 1, truth, truth + 1, size}
            beats |= set(rng.sample(range(size + 1), min(3, size + 1)))
            for beat in sorted(b for b in beats if -1 <= b <= size):
                for search in searches:
                    search.memo.clear()  # fresh: no value remembered from another beat
                    search.small_memo.clear()
                    got = search.won(alive, bytearray(view), beat)
                    assert got == truth if got > beat else truth <= got <= beat, (beat, got, truth)

    def test_universe_masks(self):
        """A re-indexed universe's masks are the global masks restricted to its layouts, in order."""
        import random
        search = Search(Level(4, 4, 3))
        ids = tuple(sorted(random.Random(2).sample(range(search.layouts), 77)))
        local = search.universe(ids)
        for k in range(search.size):
            assert bits_of(local.mine[k]) == [j for j, i in enumerate(ids) if search.mine[k] >> i & 1]
            for v in range(9):
                assert bits_of(local.shows[k][v]) == [j for j, i in enumerate(ids) if search.shows[k][v] >> i & 1]
        assert local.ids_of(local.mine[0]) == tuple(i for i in ids if search.mine[0] >> i & 1)

    def test_bits_of(self):
        """Set bits, ascending, for sparse and dense ints (the two ways it reads them)."""
        import random
        rng = random.Random(1)
        for count in (0, 1, 5, 64, 65, 300):
            bits = sorted(rng.sample(range(5000), count))
            assert bits_of(sum(1 << b for b in bits)) == bits


class TestProgress:
    def test_told_once_per_block_of_views(self, monkeypatch):
        """progress hears the views remembered once in each block of REPORT_EVERY it reaches (bounds
        add views between calls, so not every multiple is seen exactly).  Blocks of 100 on 5x4x4's
        1,036 views: the same walk as 10,000 on a board of 100,000, in a fraction of the time."""
        monkeypatch.setattr(Search, "REPORT_EVERY", 100)
        seen = []
        search = Search(Level(5, 4, 4), progress=seen.append)
        search.first_click(FirstClick.SAFE, (0, 0))
        blocks = [n // 100 for n in seen]
        assert len(blocks) >= 5 and blocks == list(range(1, len(search.memo) // 100 + 1))
        assert seen == sorted(seen) and seen[-1] <= len(search.memo)


class TestEndgame:
    @pytest.mark.parametrize("level", [Level(3, 3, 1), Level(3, 3, 2), Level(4, 2, 2), Level(5, 2, 2),
                                       Level(3, 2, 3), Level(3, 3, 7)], ids=str)
    def test_endgame_from_every_layout(self, level):
        """best's endgame search, given the untouched board (every layout possible), finds the optimum."""
        board = Board(level.height, level.width, {}, total_mines=level.mines)
        cell, value = endgame.best_guess(board, problem_of(board))
        assert value == optimum(level, FirstClick.CAN_LOSE).value
        assert cell in optimum(level, FirstClick.CAN_LOSE).firsts

    @pytest.mark.parametrize("level", [Level(4, 4, 4), Level(6, 3, 3), Level(4, 4, 3)], ids=str)
    def test_big_endgame_from_every_layout(self, level):
        """From up to 1820 layouts (4x4x4: the published 961/1820) the search still finds the optimum."""
        board = Board(level.height, level.width, {}, total_mines=level.mines)
        cell, value = endgame.Endgame(limit=2000, most_cells=20, budget=10**7).best_guess(board, problem_of(board))
        assert value == optimum(level, FirstClick.CAN_LOSE).value
        assert cell in optimum(level, FirstClick.CAN_LOSE).firsts

    def test_budget_gives_up(self):
        """A search that needs more positions than its budget answers None (the caller guesses otherwise)."""
        level = Level(4, 4, 4)
        board = Board(level.height, level.width, {}, total_mines=level.mines)
        assert endgame.Endgame(limit=2000, most_cells=20, budget=10).best_guess(board, problem_of(board)) is None

    @pytest.mark.parametrize("level", [Level(3, 5, 3), Level(2, 6, 3)], ids=str)
    def test_best_with_the_endgame_plays_optimally(self, level):
        """best whose endgame covers the whole board after the first click wins exactly the optimum's
        layouts: its enumeration and memo, reused from guess to guess of a game, stay right."""
        from satsweeper.optimal import allowed_layouts, play_layout
        from satsweeper.strategies.best import Best
        won = sum(play_layout(level, mines, (0, 0), Best(limit=1000, most_cells=40, budget=10**7))
                  for mines in allowed_layouts(level, FirstClick.SAFE, (0, 0)))
        assert won == optimum(level, FirstClick.SAFE, (0, 0)).won

    def test_reused_search_agrees_with_a_fresh_one(self):
        """At every endgame guess of best's games, the search carried over from the game's earlier
        guesses (explanations filtered, memo kept) gives the value a fresh search gives."""
        import random
        from satsweeper.game import Game, Outcome
        from satsweeper.optimal import allowed_layouts
        from satsweeper.strategies.best import Best
        level, checked = Level(4, 4, 4), 0
        for n, mines in enumerate(allowed_layouts(level, FirstClick.SAFE, (0, 0))):
            if n % 25:
                continue
            guesses = 0
            game, player = Game(level, mines), Best(limit=1000, most_cells=40, budget=10**7)
            game.open((0, 0))
            while game.outcome is Outcome.PLAYING:
                decision = player.decide(game.board, random.Random(n))
                if decision.basis == "endgame":
                    fresh = endgame.best_guess(game.board, problem_of(game.board), 1000, 40, 10**7)
                    assert fresh[1] == decision.value
                    checked += guesses > 0  # the first guess of a game searches afresh anyway
                    guesses += 1
                for cell in decision.flags:
                    game.flag(cell)
                for cell in decision.opens:
                    if game.open(cell) is not Outcome.PLAYING:
                        break
        assert checked >= 10


class TestStrategyValue:
    def test_exact_on_every_layout(self):
        """A strategy never beats the optimum, and wins every layout of a board with one mine and an opening."""
        level = Level(4, 3, 2)
        played = strategy_value(level, "exact", FirstClick.SAFE, (0, 0))
        assert played.layouts == len(layouts_for(level, FirstClick.SAFE, (0, 0)))
        assert played.value <= optimum(level, FirstClick.SAFE, (0, 0)).value

    @pytest.mark.parametrize("level,rule,name", [
        (Level(3, 4, 3), FirstClick.SAFE, "best"), (Level(4, 3, 4), FirstClick.CAN_LOSE, "random"),
        (Level(4, 4, 3), FirstClick.OPENING, "exact"), (Level(2, 6, 4), FirstClick.SAFE, "single-point")], ids=str)
    def test_played_together_as_one_by_one(self, level, rule, name):
        """strategy_value plays the layouts together (one decision per view); each layout played
        alone by a fresh player (play_layout) wins the same ones."""
        from satsweeper.optimal import allowed_layouts, play_layout
        from satsweeper.strategies import strategy
        alone = sum(play_layout(level, mines, (0, 0), strategy(name, check_consistency=False), 5)
                    for mines in allowed_layouts(level, rule, (0, 0)))
        assert strategy_value(level, name, rule, (0, 0), seed=5).won == alone

    def test_a_player_with_a_memory_is_copied_where_games_part(self):
        """A player whose guesses depend on everything it has seen (best's endgame keeps its search
        from guess to guess; this one counts its guesses and the numbers it saw) plays together
        as alone: a player shared between games that part, or copied after it decided, would not."""
        from satsweeper.optimal import allowed_layouts, play_layout, play_together
        from satsweeper.strategies import Decision

        class Recalling:
            name = "recalling"

            def __init__(self):
                self.seen = 0

            def decide(self, board, rng):
                self.seen += 1 + sum(board.clues.values())
                hidden = board.hidden_cells()
                return Decision(opens=(hidden[self.seen % len(hidden)],), guess=True)

        level = Level(3, 4, 3)
        layouts = list(allowed_layouts(level, FirstClick.SAFE, (0, 0)))
        alone = [play_layout(level, mines, (0, 0), Recalling()) for mines in layouts]
        assert play_together(Games.of(level, layouts), (0, 0), Recalling) == sum(alone)
        assert 0 < sum(alone) < len(layouts)

    def test_best_with_a_short_endgame_budget_is_copied_apart(self):
        """best's endgame keeps its search (explanations and memo) from guess to guess, and with
        a small budget what it solved at one guess decides whether the next one runs out: the
        copies made where games part (Endgame's and Positions' own __deepcopy__, which share
        what never changes) must carry the search on, as the player alone does."""
        from satsweeper.optimal import allowed_layouts, play_layout, play_together
        from satsweeper.strategies.best import Best

        # 5x3x5 with a budget of 20 positions: a copy that forgot the search (a fresh Endgame)
        # wins 770 layouts, not 771 (measured when this test was written).
        level = Level(5, 3, 5)
        layouts = list(allowed_layouts(level, FirstClick.SAFE, (0, 0)))
        alone = sum(play_layout(level, mines, (0, 0), Best(budget=20), 3) for mines in layouts)
        assert play_together(Games.of(level, layouts), (0, 0), lambda: Best(budget=20), 3) == alone

    def test_watch_sees_every_move_of_every_game(self):
        """play_together's watch is told each decision once with the games it was made in:
        they add up to the moves of every layout played alone, guesses to its guesses."""
        import random
        from collections import Counter
        from satsweeper.game import Game, Outcome
        from satsweeper.optimal import _move, _view, allowed_layouts, play_together
        from satsweeper.strategies import strategy

        level = Level(4, 3, 3)
        layouts = list(allowed_layouts(level, FirstClick.SAFE, (0, 0)))
        alone = Counter()
        for mines in layouts:
            game, player = Game(level, mines), strategy("best", check_consistency=False)
            game.open((0, 0))
            while game.outcome is Outcome.PLAYING:
                decision = player.decide(game.board, random.Random(_view(game.board, 0)))
                alone[decision.guess] += 1
                _move(game, decision)
        together = Counter()

        def watch(board, decision, games):
            together[decision.guess] += games

        play_together(Games.of(level, layouts), (0, 0), lambda: strategy("best", check_consistency=False),
                      watch=watch)
        assert together == alone and alone[True] and alone[False]

    def test_misplays_script(self):
        """scripts/optimal_misplays.py (played together) reports best's and the optimum's
        wins as strategy_value and the search give them, and a guess that costs layouts."""
        import subprocess
        import sys
        from pathlib import Path
        level = Level(4, 4, 5)
        out = subprocess.run([sys.executable, "-m", "scripts.optimal_misplays", str(level), "--rule", "safe"],
                             capture_output=True, text=True, check=True,
                             cwd=Path(__file__).resolve().parent.parent).stdout
        played = strategy_value(level, "best", FirstClick.SAFE, (0, 0))
        best = optimum(level, FirstClick.SAFE, (0, 0))
        assert out.splitlines()[0].endswith(f"{played.won}/{played.layouts}; optimal {best.won}/{best.layouts}")
        assert played.won < best.won and "layouts lost" in out

    def test_exact_ablation_script(self):
        """scripts/best_exact.py: best's wins as strategy_value gives them, and a variant that
        skips the corner rule on 6x3x5 wins exactly the optimum (the exact search's)."""
        import subprocess
        import sys
        from pathlib import Path
        level = Level(6, 3, 5)
        out = subprocess.run([sys.executable, "-m", "scripts.best_exact", str(level),
                              "--variants", "best,corner-most-210"],
                             capture_output=True, text=True, check=True,
                             cwd=Path(__file__).resolve().parent.parent).stdout
        played = strategy_value(level, "best", FirstClick.SAFE, (0, 0))
        top = optimum(level, FirstClick.SAFE, (0, 0))
        line = out.splitlines()[1].split()
        assert line[:2] == [str(level), str(played.layouts)]
        assert int(line[4]) == played.won and int(line[7]) == top.won > played.won

    def test_same_seed_same_value(self):
        """Tie-breaks come from the seed: the value is reproducible."""
        level = Level(3, 3, 2)
        assert strategy_value(level, "random", seed=3).won == strategy_value(level, "random", seed=3).won


class TestErrors:
    def test_no_layout(self):
        """A rule that leaves no layout is a clear error."""
        with pytest.raises(NoLayout):
            optimum(Level(3, 3, 3), FirstClick.OPENING, (1, 1))

    def test_no_layout_for_the_first_click_names_it(self):
        """3x3x1 opening at 1,1 said "a level where the rule opening allows some layout (got
        3x3x1)": the level is fine (a corner leaves room), the click is what keeps all nine free."""
        said = r"^at most 0 mines on 3x3, whose first click at 1,1 opens a region: .* \(got 1\)$"
        with pytest.raises(NoLayout, match=said):
            optimum(Level(3, 3, 1), FirstClick.OPENING, (1, 1))
        with pytest.raises(NoLayout, match=said):
            strategy_value(Level(3, 3, 1), "exact", FirstClick.OPENING, (1, 1))
        assert optimum(Level(3, 3, 1), FirstClick.OPENING, (0, 0)).layouts == 5  # 9 cells less the corner's 4
        with pytest.raises(NoLayout, match=r"^a level where the rule safe allows some layout \(got 3x3x9\)$"):
            optimum(Level(3, 3, 9), FirstClick.SAFE)  # no first click works: the level is named

    @pytest.mark.parametrize("first", [(0, 3), (1, 3), (3, 0), (-1, 0), "0,0"])
    def test_a_first_click_off_the_board(self, first):
        """(0, 3) on a 3-wide board was searched as (1, 0), the next row's first cell, silently."""
        assert Search(Level(3, 3, 2)).optimum(FirstClick.SAFE, (1, 0)).value == Fraction(6, 7)  # by minimax
        with pytest.raises(CellError, match=r"a cell \(row, col\) of the 3x3x2 board"):
            optimum(Level(3, 3, 2), FirstClick.SAFE, first)

    def test_a_rule_given_as_a_word(self):
        """"safe" was searched as "opening" (anything but the two other members)."""
        with pytest.raises(InputError, match="a FirstClick"):
            optimum(Level(3, 3, 2), "safe", (0, 0))

    def test_strategy_value_checks_its_arguments_too(self):
        """strategy_value with "safe" played every layout, can-lose's 36 instead of safe's 28."""
        assert strategy_value(Level(3, 3, 2), "exact", FirstClick.SAFE, (0, 0)).layouts == 28
        with pytest.raises(InputError, match="a FirstClick"):
            strategy_value(Level(3, 3, 2), "exact", "safe", (0, 0))
        with pytest.raises(CellError):
            strategy_value(Level(3, 3, 2), "exact", FirstClick.SAFE, (0, 3))

    def test_too_big(self):
        """Boards with more layouts than the search can hold are refused up front."""
        with pytest.raises(SearchTooBig):
            optimum(Level(16, 16, 40))


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a running process has used, from /proc."""
    import os
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class TestCommand:
    def run(self, *args):
        import json
        from click.testing import CliRunner
        from satsweeper.cli import main
        result = CliRunner().invoke(main, ["optimal", *args, "--json"])
        return result.exit_code, json.loads(result.stdout)  # stderr may carry a progress line

    def test_published_value(self):
        """The command reports 961/1820 and the eight best first clicks of 4x4x4."""
        code, data = self.run("4x4x4", "--rule", "can-lose")
        assert code == 0 and data["command"] == "optimal" and data["version"] == 1
        assert data["probability"] == "961/1820" and len(data["best_first"]) == 8

    def test_text_counts_layouts_as_words(self):
        """The text line agrees with the JSON, and one layout is "1 layout" (it said "1 of 1 layouts")."""
        from click.testing import CliRunner
        from satsweeper.cli import main
        for level, line in (("4x4x0", "optimal play wins 1 of 1 layout (100.00%)"),
                            ("3x3x1", "optimal play wins 8 of 8 layouts (100.00%)")):
            code, data = self.run(level)
            assert code == 0 and f"wins {data['won']} of {data['layouts']} " in line
            assert line in CliRunner().invoke(main, ["optimal", level]).stdout

    def test_strategy_gap(self):
        """With --strategy the gap is the optimum minus the strategy's exact value."""
        code, data = self.run("4x3x3", "--first", "0,0", "--strategy", "exact")
        played = strategy_value(Level(4, 3, 3), "exact", FirstClick.SAFE, (0, 0))
        best = optimum(Level(4, 3, 3), FirstClick.SAFE, (0, 0)).value
        assert Fraction(data["strategy"]["probability"]) == played.value
        assert Fraction(data["strategy"]["gap"]["probability"]) == best - played.value

    def test_bad_input(self):
        """A first click off the board, or a board too big, is bad input (exit 2) in JSON."""
        for args in (["3x3x2", "--first", "3,0"], ["9x9x10"], ["3x3x3", "--rule", "opening", "--first", "1,1"]):
            code, data = self.run(*args)
            assert code == 2 and data["error"]

    def test_timeout_covers_the_strategy_too(self, monkeypatch):
        """--timeout stops --strategy's play as well (it used to run on, 50 s for 4x4x4 best):
        exit 3, with the optimum, which was found in time, reported."""
        import time

        import satsweeper.optimal

        def slow(*args, **kwargs):
            time.sleep(60)
        monkeypatch.setattr(satsweeper.optimal, "strategy_value", slow)
        began = time.monotonic()
        code, data = self.run("3x3x2", "--strategy", "exact", "--timeout", "2")
        assert time.monotonic() - began < 30
        best = optimum(Level(3, 3, 2), FirstClick.SAFE)
        assert code == 3 and data["complete"] is False and data["strategy"]["complete"] is False
        assert Fraction(data["probability"]) == best.value

    def test_memo_goes_on_after_a_timeout(self, tmp_path):
        """--memo: a search stopped by --timeout (exit 3) keeps its memo; the same command again
        goes on from it and gives the value of a search run through (every rule's first clicks)."""
        path = tmp_path / "5x3x6.memo"
        code, data = self.run("5x3x6", "--memo", str(path), "--timeout", "0.4")
        assert code == 3 and data["complete"] is False and path.exists()
        assert data["memo"] == {"path": str(path), "cpu_seconds_before": 0.0}  # as a finished run's
        saved = Search(Level(5, 3, 6))
        assert saved.load(str(path))["views"] == len(saved.memo) > 0
        code, data = self.run("5x3x6", "--memo", str(path))
        truth = optimum(Level(5, 3, 6), FirstClick.SAFE)
        assert code == 0 and Fraction(data["probability"]) == truth.value
        assert [(c["row"], c["col"]) for c in data["best_first"]] == list(truth.firsts)
        assert data["memo"] == {"path": str(path), "cpu_seconds_before": pytest.approx(data["memo"]["cpu_seconds_before"])}
        assert data["memo"]["cpu_seconds_before"] > 0

    def test_memo_kept_on_ctrl_c(self, tmp_path, monkeypatch):
        """--memo and Ctrl-C part way: exit 130 (interrupted, as docs/json.md says; it was 3,
        a limit) with "stopped", the memo saved; the same command again finishes it with the
        value of a search run through."""
        calls = []
        original = Search._opened

        def stopping(self, *args, **kwargs):
            calls.append(1)
            if len(calls) == 300:
                raise KeyboardInterrupt
            return original(self, *args, **kwargs)
        monkeypatch.setattr(Search, "_opened", stopping)
        path = tmp_path / "5x3x6.memo"
        code, data = self.run("5x3x6", "--memo", str(path))
        assert len(calls) >= 300
        assert code == 130 and data["complete"] is False and data["stopped"] == "interrupted"
        assert data["memo"]["path"] == str(path) and Search(Level(5, 3, 6)).load(str(path))["views"] > 0
        monkeypatch.setattr(Search, "_opened", original)
        code, data = self.run("5x3x6", "--memo", str(path))
        assert code == 0 and Fraction(data["probability"]) == optimum(Level(5, 3, 6), FirstClick.SAFE).value

    def test_memo_unchanged_when_stopped_before_the_search(self, tmp_path, monkeypatch):
        """Ctrl-C while the memo is read, or --timeout while the layouts are made: the answer
        has "states" and "memo" as any stopped run's (it had neither), and the memo is left
        byte for byte (saving the half-made search would replace it with an empty one)."""
        import time
        path = tmp_path / "5x3x6.memo"
        code, _ = self.run("5x3x6", "--memo", str(path))  # a whole search: a timeout could stop it
        assert code == 0                                    # before its first state on a busy machine
        kept = path.read_bytes()

        def interrupted(self, where):
            raise KeyboardInterrupt
        with monkeypatch.context() as patch:
            patch.setattr(Search, "load", interrupted)
            code, data = self.run("5x3x6", "--memo", str(path))
        assert code == 130 and data["complete"] is False and data["stopped"] == "interrupted"
        assert data["states"] == 0 and data["memo"] == {"path": str(path), "cpu_seconds_before": None}
        assert path.read_bytes() == kept

        made = Search.__init__

        def slow(self, *args, **kwargs):  # making the layouts of a big board takes this long
            made(self, *args, **kwargs)
            time.sleep(20)
        monkeypatch.setattr(Search, "__init__", slow)
        began = time.monotonic()
        code, data = self.run("5x3x6", "--memo", str(path), "--timeout", "1")
        assert time.monotonic() - began < 10  # the clock counts the setup
        assert code == 3 and data["states"] == 0 and data["timeout"] == 1
        assert path.read_bytes() == kept
        fresh = tmp_path / "new.memo"
        code, data = self.run("5x3x6", "--memo", str(fresh), "--timeout", "1")
        assert code == 3 and data["memo"] == {"path": str(fresh), "cpu_seconds_before": 0.0}
        assert not fresh.exists()

    def test_an_empty_memo_file_is_a_new_memo(self, tmp_path):
        """An empty file (touch m.memo) was refused as "an empty file" where bench --out
        replaces one: it is a new memo, and the answer is the one without a memo."""
        path = tmp_path / "m.memo"
        path.write_bytes(b"")
        code, data = self.run("3x3x2", "--memo", str(path))
        _, without = self.run("3x3x2")
        assert code == 0 and (data["won"], data["layouts"]) == (without["won"], without["layouts"]), data
        assert path.stat().st_size > 0 and Search(Level(3, 3, 2)).load(str(path)) is not None

    def test_memo_whose_cpu_seconds_is_not_a_number(self, tmp_path):
        """A memo whose header says "cpu seconds": "abc" or null is bad input (exit 2), not an
        internal error (exit 70) once the search is done and its CPU added up."""
        for bad in ("abc", None, True):
            path = tmp_path / "3x3x2.memo"
            Search(Level(3, 3, 2)).save(str(path), {"cpu seconds": bad})
            code, data = self.run("3x3x2", "--memo", str(path))
            assert code == 2 and data["error"].startswith('expected a memo whose "cpu seconds" is a number'), data

    def test_stopped_before_the_search_says_what_became_of_the_memo(self, tmp_path, monkeypatch):
        """--timeout running out while the layouts are made: a memo that was there is unchanged,
        and one that was not is not written (it said "m.memo is unchanged" of a file never there)."""
        from click.testing import CliRunner
        import satsweeper.optimal
        from satsweeper.cli import main
        from satsweeper.limits import TimeUp

        class Slow:
            def __init__(self, *args, **kwargs):
                raise TimeUp()
        path = tmp_path / "m.memo"
        code, _ = self.run("3x3x2", "--memo", str(path))
        kept = path.read_bytes()
        monkeypatch.setattr(satsweeper.optimal, "Search", Slow)
        for memo, said in ((path, f"; {path} is unchanged\n"), (tmp_path / "new.memo", "; no memo was written to ")):
            result = CliRunner().invoke(main, ["optimal", "3x3x2", "--memo", str(memo), "--timeout", "5"])
            assert result.exit_code == 3 and "stopped before the search began" in result.stdout
            assert said in result.stdout
        assert path.read_bytes() == kept and not (tmp_path / "new.memo").exists()

    def test_memo_of_another_board(self, tmp_path):
        """A memo of another board, or a file that is not one, is bad input (exit 2), and is not replaced."""
        path = tmp_path / "a.memo"
        code, _ = self.run("3x3x2", "--memo", str(path))
        assert code == 0 and path.exists()
        kept = path.read_bytes()
        code, data = self.run("3x3x3", "--memo", str(path))
        assert code == 2 and data["error"] == (f"{path}:1:1: expected a memo of 3x3x3 saved by the optimal search "
                                               "(version 1) (got a memo of 3x3x2, version 1)")
        assert path.read_bytes() == kept
        damaged = bytearray(kept)
        damaged[-1] ^= 1  # a bit of the last table's last entry
        path.write_bytes(bytes(damaged))
        code, data = self.run("3x3x2", "--memo", str(path))
        assert code == 2 and data["error"].startswith(f"{path}:1:1: expected a memo of 3x3x2 ")
        assert data["got"].startswith("a damaged memo: ") and data["got"].endswith(" entries failing their checksum")
        path.write_bytes(kept[:-5])
        code, data = self.run("3x3x2", "--memo", str(path))
        assert code == 2 and data["got"].startswith("a damaged memo: cut short, "), data
        path.write_bytes(kept)
        path.write_text("p cnf 3 1\n1 2 0\n")
        code, data = self.run("3x3x3", "--memo", str(path))
        assert code == 2 and data["error"] == (f"{path}:1:1: expected a memo of 3x3x3 saved by the optimal search "
                                               "(version 1) (got 'p cnf 3 1')")

    def test_memo_saved_as_it_goes(self, tmp_path, monkeypatch):
        """--memo is saved between steps of a long search (every SAVE_EVERY CPU seconds), not only at
        the end: a saved file loads, and the answer is the search's without a memo."""
        import satsweeper.cli.optimal as command
        from satsweeper.optimal import Search as Searched
        saves = []
        real = Searched.save

        def counted(search, path, notes=None):
            saves.append(len(search.memo))
            real(search, path, notes)
        monkeypatch.setattr(command, "SAVE_EVERY", 0.0)
        monkeypatch.setattr(Searched, "save", counted)
        monkeypatch.setattr(Searched, "REPORT_EVERY", 500)  # the CLI saves when progress is told
        path = tmp_path / "5x4x4.memo"
        code, data = self.run("5x4x4", "--first", "0,0", "--memo", str(path))
        assert code == 0 and Fraction(data["probability"]) == optimum(Level(5, 4, 4), first=(0, 0)).value
        assert len(saves) >= 3 and saves[0] < saves[-1]  # in between, then the last at the end
        assert Searched(Level(5, 4, 4)).load(str(path))["views"] == saves[-1]

    def test_memo_saved_on_sigterm(self, tmp_path):
        """kill (SIGTERM) during a search with --memo: exit 130 with what is known, the memo saved
        (it loads, with the states said), no traceback."""
        import json
        import signal
        import subprocess
        import sys
        import time
        path = tmp_path / "5x5x5.memo"
        child = subprocess.Popen([sys.executable, "-m", "satsweeper", "optimal", "5x5x5", "--memo", str(path),
                                  "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # Imports and the layouts' masks take under a second of CPU, the search 50 s or more:
        # wait for 3 s of the child's CPU (5 s of wall time was too short on a loaded machine,
        # and the kill came before the search began: exit 130 and no memo, rightly).
        began = time.monotonic()
        while cpu_seconds(child.pid) < 3 and time.monotonic() - began < 300:
            time.sleep(0.2)
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=120)
        data = json.loads(out)
        assert child.returncode == 130 and data["complete"] is False and "Traceback" not in err
        assert Search(Level(5, 5, 5)).load(str(path))["views"] > 0 and data["states"] > 0
        assert data["stopped"] == "interrupted" and data["memo"]["path"] == str(path)
