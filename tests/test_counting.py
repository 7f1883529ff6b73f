"""Both counting engines against the brute-force oracle and each other."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satsweeper.board import Board
from satsweeper.components import Components, determined
from satsweeper.constraints import Constraint, Problem, problem_of
from satsweeper.counting import Engine, count, tally
from satsweeper.errors import CellError, InputError
from satsweeper.game import LEVELS, Level
from satsweeper.positions import positions
from satsweeper.tally import Shared
from satsweeper.textio import parse_board

from . import oracle
from .strategies import boards


def assert_matches_oracle(problem: Problem, engine: Engine) -> None:
    found = oracle.explanations(problem)
    got = tally(problem, engine)
    assert got.count == len(found)
    assert got.mines == {c: sum(c in e for e in found) for c in problem.cells}
    if problem.mines is not None and got.frontier:
        frontier = set(problem.constrained_cells())
        rules_only = problem.restricted_to({r.origin for r in problem.constraints})
        arrangements = {frozenset(e & frontier) for e in oracle.explanations(rules_only)}
        by_mines: dict[int, int] = {}
        for a in arrangements:
            by_mines[len(a)] = by_mines.get(len(a), 0) + 1
        assert got.frontier == by_mines


class TestComponents:
    @settings(max_examples=500, deadline=None)
    @given(boards())
    def test_matches_oracle(self, board):
        """Counts and per-cell mine counts equal brute-force enumeration."""
        assert_matches_oracle(problem_of(board), Engine.COMPONENTS)

    @settings(max_examples=400, deadline=None)
    @given(boards(), st.data())
    def test_reveal_matches_the_oracle(self, board, data):
        """Components.reveal: per number a cell may show, the count and the lowest chance by brute force."""
        problem = problem_of(board)
        if not problem.cells:
            return
        components = Components(problem)
        cell = data.draw(st.sampled_from(problem.cells))
        neighbours = data.draw(st.sets(st.sampled_from(problem.cells), max_size=8)) - {cell}
        found = [e for e in oracle.explanations(problem) if cell not in e]
        outcomes = components.reveal(cell, sorted(neighbours))
        want = {}
        for e in found:
            want.setdefault(len(e & neighbours), []).append(e)
        assert sorted(outcomes.counts) == sorted(want)
        elsewhere = {c for c, i in components.component_of.items() if i not in outcomes.touched}
        watched = [c for c in problem.cells if c != cell and c not in elsewhere]
        for k, explained in want.items():
            assert outcomes.counts[k] == len(explained)
            chances = sorted(Fraction(sum(c in e for e in explained), len(explained)) for c in watched) + [1, 1]
            assert outcomes.lowest(k) == chances[0]
            assert outcomes.lowest_two(k) == (chances[0], chances[1])
            # The components the number does not touch, pulled by the total (``best``'s ``pull``).
            assert outcomes.pulled == (problem.mines is not None)
            for j, dp in enumerate(components.dps):
                if j in outcomes.touched or not outcomes.pulled:
                    continue
                cells = [c for box in dp.cells for c in box]
                there = sorted(Fraction(sum(c in e for e in explained), len(explained)) for c in cells) + [1]
                assert outcomes.beyond(k, j) == (there[0], there[1])

    def test_the_totals_pull_on_expert_positions(self):
        """Outcomes.beyond on positions of real expert games, where several components share the
        total: each untouched component's two lowest chances, given the number shown, are those of
        the position with that number written in, counted whole (checked above against brute force)."""
        from dataclasses import replace
        from satsweeper.components import _two_smallest
        checked = moved = 0
        for board in positions(LEVELS["expert"], 30, seed=3):
            problem = problem_of(board)
            components = Components(problem)
            today = components.tally()
            hidden = set(problem.cells)
            frontier = [c for c in problem.cells if c in components.component_of]
            for cell in frontier[:3] + [c for c in problem.cells if c not in components.component_of][:1]:
                outcomes = components.reveal(cell, [n for n in board.neighbours(cell) if n in hidden])
                flagged = sum(n in board.flags for n in board.neighbours(cell))
                for k in outcomes.counts:
                    after = Components(problem_of(replace(board, clues={**board.clues, cell: k + flagged}))).tally()
                    for j, dp in enumerate(components.dps):
                        if j in outcomes.touched:
                            continue
                        values = [(after.scaled_mines[box[0]], len(box)) for box in dp.cells]
                        assert outcomes.beyond(k, j) == _two_smallest(values, after.scaled_count)
                        checked += 1
                        before = [(today.scaled_mines[box[0]], len(box)) for box in dp.cells]
                        moved += outcomes.beyond(k, j) != _two_smallest(before, today.scaled_count)
        # A component holding the same number of mines in every arrangement (a 1 between two
        # cells) feels no pull; about one in six here does.
        assert checked > 500 and moved > checked / 10

    @settings(max_examples=400, deadline=None)
    @given(boards(), st.data())
    def test_count_with_cells_fixed_matches_the_oracle(self, board, data):
        """Components.count_with: explanations with some cells set, by brute force
        (frontier and floating cells alike, sets that contradict the rules, more mines than left)."""
        problem = problem_of(board)
        if not problem.cells:
            return
        cells = data.draw(st.sets(st.sampled_from(problem.cells), max_size=4))
        fixed = {c: data.draw(st.integers(0, 1)) for c in sorted(cells)}
        want = sum(all((c in e) == bool(v) for c, v in fixed.items()) for e in oracle.explanations(problem))
        assert Components(problem).count_with(fixed) == want

    @settings(max_examples=300, deadline=None)
    @given(boards(), st.randoms(use_true_random=False))
    def test_count_alone_and_any_order_match_the_oracle(self, board, rnd):
        """The count-only DP (no mine numbers) and any suggested cell order give the oracle's count."""
        problem = problem_of(board)
        want = len(oracle.explanations(problem))
        order = list(problem.cells)
        rnd.shuffle(order)
        assert count(problem) == count(problem, order=order) == want
        assert tally(problem, order=order).count == want

    def test_long_chain_with_total(self):
        """A 1xn strip of alternating clues: DP over many boxes stays exact."""
        board = parse_board("mines: 12\n" + "." * 30 + "\n" + "1.." * 10 + "\n" + "." * 30 + "\n")
        assert_matches_oracle_by_count(board)


class TestSettledFirst:
    """components.tally takes out the cells the single rules fix before its DP (_settle)."""

    @settings(max_examples=400, deadline=None)
    @given(boards())
    def test_what_the_rules_fix_is_counted_as_the_oracle_says(self, board):
        """Only positions where the rules fix something: the lifted counts, per cell, and the
        arrangements by mines (the frontier, fixed mines included) are the oracle's."""
        from hypothesis import assume
        from satsweeper.components import _settle
        problem = problem_of(board)
        settled = _settle(problem)
        assume(settled is not None)
        fixed, rest = settled
        found = oracle.explanations(problem)
        assert all((cell in e) == bool(mine) for e in found for cell, mine in fixed.items())
        assert_matches_oracle(problem, Engine.COMPONENTS)
        got = tally(problem)
        assert list(got.mines) == list(problem.cells)  # the problem's order, fixed cells in place

    def test_a_board_revealed_at_random_is_counted_without_its_fixed_cells(self):
        """On a board whose numbers are revealed at random nearly every hidden cell is fixed, and
        all of them touched one component whose DP carried a rule per column: a 300x300 board
        took 8.5 s to count, the rest of it 0.1 s.  Timed against the full DP on the same
        problem in this run (the two answers equal)."""
        import time
        problem = problem_of(random_reveal(120, seed=4))
        began = time.perf_counter()
        fast = tally(problem)
        settled = time.perf_counter() - began
        began = time.perf_counter()
        full = Components(problem).tally()
        whole = time.perf_counter() - began
        assert (fast.count, fast.mines, fast.frontier) == (full.count, full.mines, full.frontier)
        assert settled < whole / 3, (settled, whole)  # about 18 times less here

    def test_taking_out_the_fixed_cells_is_linear(self):
        """A lattice (a number on every other row and column) leaves most rules with fixed cells
        and many without: building the rest copied every fixed cell for each touched rule, 16 s
        of 17 on 300x300.  Timed against building the problem in the same run (about 3 times
        now, 200 times before); the rest is checked against the rules themselves."""
        import time
        from satsweeper.components import _settle
        from satsweeper.textio import parse_board
        from .test_limits import crowded
        board = parse_board(crowded(300)[0])
        began = time.perf_counter()
        problem = problem_of(board)
        built = time.perf_counter() - began
        began = time.perf_counter()
        fixed, rest = _settle(problem)
        took = time.perf_counter() - began
        assert took < 15 * built, (took, built)
        kept = {r.origin: r for r in rest.constraints}
        for rule in problem.constraints:  # each rule minus its fixed cells, or gone when all are
            left = {c for c in rule.cells if c not in fixed}  # (rule.cells - fixed.keys() copies fixed)
            assert (rule.origin in kept) == bool(left)
            if left:
                assert kept[rule.origin].cells == left
                assert kept[rule.origin].mines == rule.mines - sum(fixed.get(c, 0) for c in rule.cells)


def random_reveal(size: int, seed: int, density: float = 0.16, shown: float = 0.95) -> Board:
    """A size x size board with a share ``shown`` of its safe squares' numbers revealed at random."""
    import random
    rng = random.Random(seed)
    mines = set(rng.sample([(r, c) for r in range(size) for c in range(size)], int(size * size * density)))
    clues = {(r, c): sum((r + dr, c + dc) in mines for dr in (-1, 0, 1) for dc in (-1, 0, 1))
             for r in range(size) for c in range(size) if (r, c) not in mines and rng.random() < shown}
    return Board(size, size, clues, total_mines=len(mines))


def assert_matches_oracle_by_count(board) -> None:
    """Too many cells for the oracle: check against the model counter instead."""
    problem = problem_of(board)
    a, b = tally(problem, Engine.COMPONENTS), tally(problem, Engine.GANAK)
    assert (a.count, a.mines, a.frontier) == (b.count, b.mines, b.frontier)


class TestGanak:
    @settings(max_examples=150, deadline=None)
    @given(boards())
    def test_matches_oracle(self, board):
        """The model-counter engine gives the oracle's counts too."""
        assert_matches_oracle(problem_of(board), Engine.GANAK)

    def test_auxiliary_variables_do_not_inflate(self):
        """Exactly 2 of 5 cells: C(5,2)=10 models, whatever the encoding adds."""
        problem = Problem(tuple("abcde"), (Constraint(frozenset("abcde"), 2, "r"),))
        assert count(problem, Engine.GANAK) == 10


class TestSeedExample:
    """Fowler & Young (Fowler and Young) section III.3: the 6x6 board with 11 mines."""

    RULES = ((1, 2, 3, 4, 5, 7), 1), ((4, 5, 7, 9, 10, 11), 3), ((5, 6, 8, 10, 11, 12), 2)

    def problem(self) -> Problem:
        cells = tuple(f"x{i}" for i in range(1, 13)) + tuple(f"o{i}" for i in range(21))
        rules = tuple(Constraint(frozenset(f"x{i}" for i in members), k, n)
                      for n, (members, k) in enumerate(self.RULES))
        return Problem(cells, rules, 11, "total")

    def test_arrangements_and_total(self):
        """19 perimeter arrangements (4 with 3 mines, 15 with 4); T = 2,558,160."""
        for engine in Engine:
            t = tally(self.problem(), engine)
            assert t.frontier == {3: 4, 4: 15}
            assert t.count == 2_558_160

    def test_probability_table(self):
        """P(x10) = (3 C(21,8) + 9 C(21,7)) / T, and the printed table to 3 figures."""
        t = tally(self.problem())
        assert t.probability("x10") == Fraction(3 * 203490 + 9 * 116280, 2_558_160)
        printed = [0.0454, 0.0454, 0.0454, 0.352, 0.159, 0.182, 0.352, 0.182, 0.841, 0.648, 0.648, 0.182]
        for i, p in enumerate(printed, start=1):
            assert abs(float(t.probability(f"x{i}")) - p) < 0.0005 * max(1, p * 10)


class TestRealPositions:
    """Positions too large for the oracle: a second method and an invariant."""

    def test_engines_agree_on_expert_positions(self):
        """Component DP and Ganak give identical counts on real expert positions."""
        for board in positions(LEVELS["expert"], 3, seed=0):
            problem = problem_of(board)
            a, b = tally(problem, Engine.COMPONENTS), tally(problem, Engine.GANAK)
            assert (a.count, a.mines) == (b.count, b.mines)

    def test_probabilities_sum_to_the_mines_left(self):
        """With a total, the expected number of mines among hidden cells is exact."""
        for board in positions(LEVELS["expert"], 20, seed=1) + positions(Level(60, 40, 480), 3, seed=2):
            problem = problem_of(board)
            assert tally(problem).expected_mines() == problem.mines

    def test_determined_cells_read_from_the_counts(self):
        """components.determined (sets of mine numbers) = the cells whose count is 0 or all,
        with and without the total, on real positions of every size of frontier."""
        boards_ = positions(LEVELS["expert"], 40, seed=3) + positions(LEVELS["intermediate"], 40, seed=3)
        for board in boards_ + [Board(b.height, b.width, b.clues, b.flags) for b in boards_[::4]]:
            problem = problem_of(board)
            counts = tally(problem)
            want = {c: None if 0 < n < counts.scaled_count else n != 0 for c, n in counts.scaled_mines.items()}
            assert determined(problem) == want

    @settings(max_examples=600, deadline=None)
    @given(st.data())
    def test_determined_cells_of_any_system_match_the_oracle(self, data):
        """components.determined on systems no board makes: overlapping rules, impossible
        needs, totals too small or too large, no total; brute force decides."""
        n = data.draw(st.integers(0, 8))
        cells = tuple(range(n))
        rules = []
        for i in range(data.draw(st.integers(0, 4)) if n else 0):
            members = frozenset(data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=4)))
            rules.append(Constraint(members, data.draw(st.integers(-1, len(members) + 1)), f"r{i}"))
        total = data.draw(st.none() | st.integers(-1, n + 1))
        problem = Problem(cells, tuple(rules), total, None if total is None else "T")
        want = oracle.status(problem)
        got = determined(problem)
        words = {True: "mine", False: "safe", None: "undetermined"}
        assert (got and {c: words[v] for c, v in got.items()}) == want or (got is None and want is None)

    @settings(max_examples=300, deadline=None)
    @given(boards(perturb=False))
    def test_expected_mines_on_small_boards(self, board):
        """The same invariant on every consistent small board with a total."""
        problem = problem_of(board)
        if problem.mines is not None and problem.cells:
            assert tally(problem).expected_mines() == problem.mines


class TestAllFloating:
    def test_count_is_one_binomial(self):
        """With no rules, count equals the oracle (and the full tally) for every total, impossible ones too."""
        for n in range(5):
            for mines in range(-1, 7):
                problem = Problem(tuple(range(n)), (), mines)
                assert count(problem) == len(oracle.explanations(problem)) == tally(problem).count


class TestTallyQuestions:
    """A Tally's methods say what is wrong with a question, as named errors."""

    @pytest.mark.parametrize("cell", [(0, 0), (5, 5), (-1, 1), "a", [0, 1]])
    def test_probability_of_a_cell_that_is_not_hidden(self, cell):
        """A revealed, off-board or malformed cell is a CellError (was a bare KeyError or TypeError)."""
        answer = tally(parse_board("mines: 1\n1..\n"))
        with pytest.raises(CellError, match=r"a hidden cell of the problem \(got "):
            answer.probability(cell)
        assert answer.probability((0, 1)) == 1  # the hidden cells still answer

    def test_probability_of_a_cell_off_a_big_board(self):
        """The same on a board big enough for shared floating values."""
        answer = tally(Board(120, 100, {(0, 0): 0}, total_mines=10))
        assert isinstance(answer.scaled_mines, Shared)
        with pytest.raises(CellError):
            answer.probability((120, 0))
        assert answer.probability((0, 1)) == 0

    @given(boards())
    @settings(max_examples=60, deadline=None)
    def test_probabilities_are_the_oracles(self, board):
        """Every cell's probability at once, each value divided once: the brute force's."""
        problem = problem_of(board)
        found = oracle.explanations(problem)
        answer = tally(problem)
        if not found:
            return
        assert answer.probabilities() == {c: Fraction(sum(c in e for e in found), len(found))
                                          for c in problem.cells}
        assert list(answer.probabilities()) == list(problem.cells)

    def test_probabilities_of_a_big_board(self):
        """A big board's shared floating value, and its frontier's own: as asked cell by cell."""
        answer = tally(Board(120, 100, {(0, 0): 1, (5, 5): 2}, total_mines=10))
        assert isinstance(answer.scaled_mines, Shared)
        assert answer.probabilities() == {c: answer.probability(c) for c in answer.cells()}
        assert len(set(answer.probabilities().values())) == 3  # 0,0's cells, 5,5's cells, the floating

    @pytest.mark.parametrize("ask", ["probability", "safest", "groups", "expected_mines"])
    def test_inconsistent_problems_have_no_probabilities(self, ask):
        """Each probability question on an inconsistent board is an InputError (expected_mines
        divided by zero; safest called every cell safest)."""
        answer = tally(parse_board("12\n..\n"))
        args = [(1, 0)] if ask == "probability" else []
        with pytest.raises(InputError, match="inconsistent"):
            getattr(answer, ask)(*args)

    @pytest.mark.parametrize("ask", [tally, count])
    def test_an_engine_given_as_a_word(self, ask):
        """A plain "ganak" was answered by the components engine without a word."""
        with pytest.raises(InputError, match=r"an Engine, Engine.COMPONENTS or Engine.GANAK \(got 'ganak'\)"):
            ask(parse_board("mines: 1\n1..\n"), engine="ganak")


class TestSharedValues:
    def test_walks_are_a_dicts(self):
        """Shared.items() and values() walk the cells in order without a search per cell (a
        guess on a 500x500 board made 750,000 of them); the views answer as a dict's do."""
        from satsweeper.board import GridCells
        import numpy as np
        cells = GridCells(np.array([0, 1, 5, 7, 8]), 3)
        shared = Shared(cells, {(1, 2): 5, (2, 2): 0}, 1)
        plain = {cell: shared[cell] for cell in cells}  # the oracle: a value asked per cell
        assert list(shared.items()) == list(plain.items()) and list(shared.values()) == list(plain.values())
        assert len(shared.items()) == len(shared.values()) == 5
        assert ((1, 2), 5) in shared.items() and ((1, 2), 1) not in shared.items() and 0 in shared.values()
        assert dict(shared.items()) == plain


class TestPublicName:
    @pytest.mark.parametrize("first", ["import satsweeper.tally", "import satsweeper.counting",
                                       "from satsweeper import tally", "import satsweeper",
                                       "from satsweeper.tally import Shared"])
    def test_tally_is_the_function_whichever_module_comes_first(self, first):
        """satsweeper.tally, also a submodule's name, is counting.tally after any first import,
        and stays so when the submodule is imported later (a fresh interpreter for each order)."""
        import os
        import subprocess
        import sys
        from pathlib import Path
        root = Path(__file__).resolve().parent.parent
        code = (f"{first}\nimport satsweeper, satsweeper.tally, satsweeper.counting, inspect\n"
                "from satsweeper import tally\n"
                "print(inspect.isfunction(satsweeper.tally), satsweeper.tally is satsweeper.counting.tally,"
                " tally is satsweeper.counting.tally)")
        process = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                                 env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                                     filter(None, [str(root), os.environ.get("PYTHONPATH")]))))
        assert process.stdout.split() == ["True", "True", "True"], process.stderr

    def test_the_package_lists_only_its_names(self):
        """dir(satsweeper) held sys, import_module and ModuleType, the package's own imports:
        every public name it lists is in __all__ or a submodule."""
        import types
        import satsweeper
        public = [name for name in dir(satsweeper) if not name.startswith("_")]
        strays = [name for name in public if name not in satsweeper.__all__
                  and not isinstance(getattr(satsweeper, name), types.ModuleType)]
        assert strays == [] and set(satsweeper.__all__) <= set(public)
