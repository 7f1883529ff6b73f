"""Strategies see only the player's board; runs are reproducible."""

from __future__ import annotations

import dataclasses
import json
import math
import random
from fractions import Fraction

import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

from satsweeper.board import Board
from satsweeper.cli import main
from satsweeper.constraints import Problem, problem_of
from satsweeper.experiments import Paired, compare, play, player_name, run
from satsweeper.game import LEVELS, Level
from satsweeper.hint import hint
from satsweeper.singlepoint import obvious_moves, pair_moves
from satsweeper.counting import tally
from satsweeper.errors import CellError, InconsistentError, InputError
from satsweeper.strategies import NAMES, Decision, endgame, strategy
from satsweeper.textio import parse_board

from . import oracle
from .strategies import boards


def far_corners(board: Board, problem, safety: dict) -> list:
    """The cells best's corner rule may open: as safe as the safest, at most
    three neighbours, all hidden, and no hidden cell next to a number within
    two steps."""
    touched = {n for clue in board.clues for n in board.neighbours(clue) if n in safety}
    return [c for c in problem.cells if safety[c] == max(safety.values())
            and len(board.neighbours(c)) <= 3 and all(n in safety for n in board.neighbours(c))
            and not any(m in touched for n in board.neighbours(c) for m in board.neighbours(n))]


class TestStrategies:
    @pytest.mark.parametrize("name", NAMES)
    @settings(max_examples=60, deadline=None)
    @given(board=boards(perturb=False))
    def test_moves_are_legal_and_sure_moves_are_right(self, name, board):
        """Only hidden cells are touched; a move not marked as a guess is right in every explanation."""
        problem = problem_of(board)
        if not problem.cells:
            return
        decision = strategy(name).decide(board, random.Random(0))
        hidden = set(problem.cells)
        assert set(decision.opens) <= hidden and set(decision.flags) <= hidden
        assert decision.opens or decision.flags
        if not decision.guess:
            status = oracle.status(problem)
            assert all(status[c] == "safe" for c in decision.opens)
            assert all(status[c] == "mine" for c in decision.flags)

    @settings(max_examples=300, deadline=None)
    @given(board=boards(perturb=False))
    def test_pair_moves_are_sure(self, board):
        """The pair rule's safe cells and mines are so in every explanation (oracle)."""
        problem = problem_of(board)
        safe, mines = pair_moves(problem)
        status = oracle.status(problem)
        assert all(status[c] == "safe" for c in safe)
        assert all(status[c] == "mine" for c in mines)

    def test_pair_moves_find_what_single_numbers_miss(self):
        """The 1-1 on an edge opens the cells beyond; the 1-2-2 flags one."""
        for text, want in (("...\n11.\n", ({(0, 2), (1, 2)}, set())),
                           ("....\n122.\n", (set(), {(0, 2)}))):
            problem = problem_of(parse_board(text))
            assert obvious_moves(problem) == (set(), set())
            assert pair_moves(problem) == want

    @settings(max_examples=150, deadline=None)
    @given(board=boards(perturb=False))
    def test_exact_guesses_a_least_likely_cell(self, board):
        """With nothing sure, the exact strategy opens a cell of lowest probability (oracle)."""
        problem = problem_of(board)
        if not problem.cells:
            return
        decision = strategy("exact").decide(board, random.Random(0))
        if decision.guess:
            found = oracle.explanations(problem)
            mines = {c: sum(c in e for e in found) for c in problem.cells}
            assert mines[decision.opens[0]] == min(mines.values())

    @settings(max_examples=150, deadline=None)
    @given(board=boards(perturb=False))
    # Hypothesis found it: voids give (1, 4) two neighbours, a corner the
    # rectangle's four corners missed.
    @example(board=Board(3, 5, {(2, 0): 1, (0, 0): 2}, flags=frozenset({(0, 1)}),
                         voids=frozenset({(0, 4), (1, 3), (2, 1), (2, 2), (2, 4)})))
    def test_best_guesses_the_cell_most_likely_to_survive_two_moves(self, board):
        """best plays endgames exactly; otherwise it opens a corner far from every
        number if one is as safe as the safest cell (brute force), else,
        among the cells nearly as safe as the safest, one with the highest
        chance of surviving this move and the best next one.  Without a total the
        components are independent, so the look-ahead is exact and must agree."""
        from satsweeper.strategies.best import Best
        from satsweeper.strategies.tuning import SPREAD
        board = dataclasses.replace(board, total_mines=None)
        problem = problem_of(board)
        if not problem.cells:
            return
        # The bare safety of the best next guess (the blended one: tests/test_best.py).
        decision = Best(candidates=10 ** 6, blend=False).decide(board, random.Random(0))
        if not decision.guess:
            return
        found = oracle.explanations(problem)
        exact = endgame.best_guess(board, problem) if len(found) <= endgame.LIMIT else None
        if exact:
            assert decision.opens[0] == exact[0]
            return
        safety = {c: Fraction(sum(c not in e for e in found), len(found)) for c in problem.cells}
        corners = far_corners(board, problem, safety)
        if corners:
            assert decision.opens[0] in corners
            return
        near = [c for c in problem.cells if safety[c] >= max(safety.values()) * (1 - SPREAD)]

        def two_moves(cell):
            around = {n for n in board.neighbours(cell) if n in safety}
            shown: dict[int, list] = {}
            for e in found:
                if cell not in e:
                    shown.setdefault(len(e & around), []).append(e)
            return sum(max((sum(x not in e for e in es) for x in problem.cells if x != cell), default=0)
                       for es in shown.values())

        assert decision.opens[0] in near
        assert two_moves(decision.opens[0]) == max(two_moves(c) for c in near)

    @settings(max_examples=150, deadline=None)
    @given(board=boards(perturb=False), progress=st.sampled_from([0, Fraction(1, 5), Fraction(-1, 10)]),
           zero=st.sampled_from([0, Fraction(1, 10)]), tiebreak=st.booleans())
    def test_best_variants_score_as_they_say(self, board, progress, zero, tiebreak):
        """best's experimental scores (issue 18), brute force: the look-ahead
        score plus ``progress`` times P(the number makes some cell safe) plus
        ``zero`` times P(it shows 0 around hidden cells); with ``tiebreak``,
        ties go to the likelier 0, then to more possible numbers."""
        from satsweeper.strategies.best import Best
        from satsweeper.strategies.tuning import SPREAD
        board = dataclasses.replace(board, total_mines=None)  # independent components: exact
        problem = problem_of(board)
        if not problem.cells:
            return
        player = Best(candidates=10 ** 6, endgame=False, corners=False, blend=False, pseudo=False, progress=progress,
                      zero=zero, tiebreak=tiebreak)
        decision = player.decide(board, random.Random(0))
        if not decision.guess:
            return
        found = oracle.explanations(problem)
        safety = {c: Fraction(sum(c not in e for e in found), len(found)) for c in problem.cells}
        near = [c for c in problem.cells if safety[c] >= max(safety.values()) * (1 - SPREAD)]

        def key(cell):
            around = {n for n in board.neighbours(cell) if n in safety}
            shown: dict[int, list] = {}
            for e in found:
                if cell not in e:
                    shown.setdefault(len(e & around), []).append(e)
            score = Fraction(0)
            for k, es in shown.items():
                best_next = max((sum(x not in e for e in es) for x in problem.cells if x != cell), default=0)
                sure = any(all(x not in e for e in es) for x in problem.cells if x != cell)
                score += best_next + len(es) * (progress * sure + zero * (k == 0 and bool(around)))
            if not tiebreak:
                return (score,)
            return score, len(shown.get(0, ())) if around else 0, len(shown)

        assert decision.opens[0] in near
        if len(near) > 1:
            assert key(decision.opens[0]) == max(key(c) for c in near)

    @settings(max_examples=200, deadline=None)
    @given(board=boards(perturb=False))
    def test_a_pocket_is_played_exactly(self, board):
        """A pocket (a component no other hidden cell touches, its explanations
        all with the same mines) is guessed with the best chance to clear it:
        the brute-force game value of its own explanations."""
        from satsweeper.components import Components
        from satsweeper.strategies.best import _pocket
        problem = problem_of(board)
        if not problem.cells or oracle.status(problem) is None:
            return
        found = _pocket(board, problem, Components(problem), 1000, 80)
        if found is None:
            return
        cell, chance = found
        pocket = {cell}  # the cells linked to the guess by rules
        while True:
            grown = pocket | {c for rule in problem.constraints if rule.cells & pocket for c in rule.cells}
            if grown == pocket:
                break
            pocket = grown
        hidden = set(problem.cells)
        assert all(n in pocket for c in pocket for n in board.neighbours(c) if n in hidden)
        layouts = sorted({e & pocket for e in oracle.explanations(problem)}, key=sorted)
        assert len({len(e) for e in layouts}) == 1
        assert chance == _game_value(board, tuple(sorted(pocket)), layouts) < 1

    @settings(max_examples=40, deadline=None)
    @given(data=st.data())
    def test_best_opens_a_far_corner_when_it_is_among_the_safest(self, data):
        """Early in a game (too many explanations for the endgame), best opens a
        corner far from every number whenever such a corner is exactly as safe
        as the safest cell (brute force); otherwise it chooses as it would
        without the rule (``corners=False``: the look-ahead)."""
        from satsweeper.strategies.best import Best
        height, width = 4, data.draw(st.integers(4, 5))
        cells = [(r, c) for r in range(height) for c in range(width)]
        mines = set(data.draw(st.lists(st.sampled_from(cells), min_size=2, max_size=5, unique=True)))
        safe = [c for c in cells if c not in mines]
        shown = data.draw(st.lists(st.sampled_from(safe), min_size=1, max_size=2, unique=True))
        clues = {c: sum(n in mines for n in Board(height, width).neighbours(c)) for c in shown}
        board = Board(height, width, clues, total_mines=len(mines))
        problem = problem_of(board)
        found = oracle.explanations(problem)
        decision = Best().decide(board, random.Random(0))
        if not decision.guess or len(found) <= endgame.LIMIT:
            return
        safety = {c: sum(c not in e for e in found) for c in problem.cells}
        corners = far_corners(board, problem, safety)
        if corners:
            assert decision.opens[0] in corners
        else:
            assert decision == Best(corners=False).decide(board, random.Random(0))
        # late_corners=False (issue 18): the rule only until the board shows a 0.
        early = Best(late_corners=False).decide(board, random.Random(0))
        assert early == Best(corners=0 not in board.clues.values()).decide(board, random.Random(0))

    def test_best_finds_a_far_corner_that_a_near_one_hides(self):
        """Hypothesis found it: the look-ahead keeps one floating cell per crowd,
        and the near corner (0, 0) stood for the far ones; the rule looks at
        the board's corners itself."""
        from satsweeper.strategies.best import Best
        board = Board(4, 5, {(3, 0): 1}, total_mines=3)
        problem = problem_of(board)
        found = oracle.explanations(problem)
        assert len(found) > 60  # too many for an endgame limited to 60: the corner rule plays
        safety = {c: sum(c not in e for e in found) for c in problem.cells}
        decision = Best(limit=60).decide(board, random.Random(0))
        assert far_corners(board, problem, safety) == [(0, 4), (3, 4)]
        assert decision.guess and decision.opens[0] in [(0, 4), (3, 4)]

    def test_limited_prob_rates_a_cell_beside_no_number_by_the_density(self):
        """A 1 in the corner of a 5x5 board with 2 mines: its three cells hold a
        mine with probability 1/3, every other cell 1/21 (brute force).  The
        zone estimate for a cell next to no number is the density 2/24, so
        limited-prob guesses away from the 1 (with Pedersen's literal 1/2 it
        guessed beside it)."""
        from satsweeper.strategies.limited import zone_estimates
        board = Board(5, 5, {(0, 0): 1}, total_mines=2)
        problem = problem_of(board)
        found = oracle.explanations(problem)
        mines = {c: sum(c in e for e in found) for c in problem.cells}
        assert (mines[(1, 1)], mines[(4, 4)], len(found)) == (21, 3, 63)
        _, _, estimate = zone_estimates(board)
        assert (estimate[(1, 1)], estimate[(4, 4)]) == (Fraction(1, 3), Fraction(1, 12))
        decision = strategy("limited-prob").decide(board, random.Random(0))
        assert decision.guess and mines[decision.opens[0]] == min(mines.values())

    def test_strategies_receive_only_a_board(self, monkeypatch):
        """The interface gives a Board: there is no layout to peek at."""
        seen = []

        class Spy:
            name = "spy"

            def decide(self, board, rng):
                seen.append(board)
                return strategy("basic").decide(board, rng)

        monkeypatch.setattr("satsweeper.experiments.strategy", lambda name: Spy())
        play(Level(9, 9, 10), "spy", seed=3)
        assert seen and all(type(b) is Board for b in seen)
        assert all(not hasattr(b, "mines") for b in seen)


class TestNothingHidden:
    @pytest.mark.parametrize("name", NAMES)
    def test_decide_on_a_finished_board(self, name):
        """Every square open or flagged: an InputError saying so (an IndexError or min()'s ValueError)."""
        for text in ("mines: 1\n1F\n", "mines: 0\n00\n", "1F\n"):
            with pytest.raises(InputError, match="a board with a hidden cell to move on"):
                strategy(name).decide(parse_board(text), random.Random(1))
        one_left = parse_board("mines: 1\n1.\n")  # one hidden cell: still a move
        decision = strategy(name).decide(one_left, random.Random(1))
        assert (0, 1) in decision.opens + decision.flags


class TestInconsistent:
    @pytest.mark.parametrize("name", NAMES)
    def test_no_move_on_a_board_no_layout_explains(self, name):
        """The 1 and the 2 above the same two cells: every strategy proposed a move
        (flags, opens, a guess); now an InconsistentError names both clues."""
        board = parse_board("12\n..\n")
        assert oracle.explanations(problem_of(board)) == []
        with pytest.raises(InconsistentError) as raised:
            strategy(name).decide(board, random.Random(0))
        assert sorted(str(rule) for rule in raised.value.conflict) == ["the 1 at 0,0", "the 2 at 0,1"]
        assert "cannot all hold" in str(raised.value)

    @pytest.mark.parametrize("name", NAMES)
    @settings(max_examples=40, deadline=None)
    @given(board=boards(perturb=True))
    def test_moves_exactly_when_explained(self, name, board):
        """A move when the oracle finds an explanation; else the error, whose conflict
        is made of the board's own rules and has no explanation by itself (oracle)."""
        problem = problem_of(board)
        if not problem.cells:
            return
        if oracle.explanations(problem):
            decision = strategy(name).decide(board, random.Random(0))
            assert decision.opens or decision.flags
            return
        with pytest.raises(InconsistentError) as raised:
            strategy(name).decide(board, random.Random(0))
        conflict = set(raised.value.conflict)
        rules = tuple(r for r in problem.constraints if r.origin in conflict)
        total = problem.total_origin in conflict
        assert conflict == {r.origin for r in rules} | ({problem.total_origin} if total else set())
        alone = Problem(problem.cells, rules, problem.mines if total else None)
        assert oracle.explanations(alone) == []

    @pytest.mark.parametrize("name", NAMES)
    def test_unchecked_for_a_game(self, name):
        """check_consistency=False (a game's positions): the same moves on an explained board."""
        board = parse_board("mines: 2\n1..\n.2.\n")
        checked = strategy(name).decide(board, random.Random(0))
        assert strategy(name, check_consistency=False).decide(board, random.Random(0)) == checked


class TestRuns:
    def test_independent_of_workers(self):
        """Results depend on the seed only, not on how games are spread over processes."""
        one = run(LEVELS["beginner"], "exact", 40, seed=5, workers=1)
        two = run(LEVELS["beginner"], "exact", 40, seed=5, workers=2)
        assert (one.wins, one.guesses) == (two.wins, two.guesses)

    def test_ordering_of_strategies(self):
        """random < single point < limited search < exact on beginner (Pedersen's ordering)."""
        rates = {name: run(LEVELS["beginner"], name, 150, seed=2).rate for name in NAMES}
        assert rates["random"] < rates["basic"] < rates["exact"]
        assert rates["random"] < rates["single-point"] < rates["limited"] < rates["exact"]

    def test_bench_command(self, tmp_path):
        """bench prints a table, journals the run (its last line the summary), and honours --json."""
        out = tmp_path / "r.jsonl"
        result = CliRunner().invoke(main, ["bench", "--level", "8x8x10", "--strategy", "basic",
                                           "--games", "20", "--seed", "1", "--out", str(out), "--json"])
        assert result.exit_code == 0
        data = json.loads(result.output.strip().splitlines()[-1])
        last = json.loads(out.read_text().splitlines()[-1])["summary"]
        assert data["games"] == 20 and last["wins"] == data["wins"]

    def test_bad_first_click(self):
        result = CliRunner().invoke(main, ["bench", "--first", "99,99", "--games", "1"])
        assert result.exit_code == 2

    def test_a_negative_number_of_games(self):
        """run(..., -3) said "at most -3 finished games to resume"; 0 games is an empty summary."""
        with pytest.raises(InputError, match=r"a number of games, 0 or more \(got -3\)"):
            run(LEVELS["beginner"], "exact", -3)
        assert run(LEVELS["beginner"], "exact", 0).games == 0

    def test_a_first_click_off_the_board(self):
        """play from a cell off the board was a KeyError from the game's neighbour table."""
        with pytest.raises(CellError, match=r"a cell \(row, col\) of the 9x9x10 board \(got \(9, 9\)\)"):
            play(LEVELS["beginner"], "exact", 1, first=(9, 9))

    def test_a_level_bigger_than_memory_is_refused(self, monkeypatch):
        """A level whose game needs more memory than the machine has is bad input (exit 2)
        before any game (100000x100000x1 grew until the kernel killed a process); one that
        fits is played.  The machine is made to have 16 MB: 300x300 needs about 40 MB."""
        import os
        real = os.sysconf
        monkeypatch.setattr(os, "sysconf", lambda name: 4096 if name == "SC_PHYS_PAGES" else real(name))
        assert real("SC_PAGE_SIZE") == 4096
        result = CliRunner().invoke(main, ["bench", "--level", "300x300x1", "--games", "1"])
        assert result.exit_code == 2 and "fits in this machine's 0.0 GB" in result.stderr, result.output
        result = CliRunner().invoke(main, ["bench", "--level", "30x30x1", "--games", "1", "--json"])
        assert result.exit_code == 0 and json.loads(result.stdout)["games"] == 1
        # density's size too: 99999x99999 grew to 24 GB listing its levels before the kernel's kill
        result = CliRunner().invoke(main, ["density", "--size", "99999x99999", "--games", "1", "--json"])
        assert result.exit_code == 2 and json.loads(result.stdout)["expected"].startswith("a size whose game fits")
        assert json.loads(result.stdout)["got"].startswith("99999x99999, about")
        result = CliRunner().invoke(main, ["density", "--size", "2x2", "--games", "1", "--json"])
        assert result.exit_code == 0 and json.loads(result.stdout)["sizes"]


_OWN_MODULE = """
from satsweeper.strategies import strategy


class Again:
    name = "again"

    def __init__(self):
        self.inner = strategy("exact")

    def decide(self, board, rng):
        return self.inner.decide(board, rng)


class Raising(Again):
    def decide(self, board, rng):
        raise RuntimeError("my bug")
"""


class TestYourOwnPlayerOnTheCommandLine:
    """bench and density take your player as MODULE:CLASS (it was Python only: no journal,
    no --resume, no Ctrl-C summary for your own players)."""

    @staticmethod
    def bench(folder, *args) -> tuple[int, dict]:
        import subprocess
        done = subprocess.run(["satsweeper", "bench", *map(str, args), "--json"], cwd=folder,
                              capture_output=True, text=True, timeout=300)
        return done.returncode, json.loads(done.stdout)

    def test_bench_plays_it_as_the_builtin_it_copies(self, tmp_path):
        """From the current directory, with 1 and 2 workers and through a journal resumed: the
        same wins as the built-in whose moves it makes, on the same games."""
        (tmp_path / "mine.py").write_text(_OWN_MODULE)
        level = ["--level", "9x9x10", "--seed", 3]
        truth = run(Level(9, 9, 10), "exact", 60, seed=3).wins
        for workers in (1, 2):
            code, answer = self.bench(tmp_path, "--strategy", "mine:Again", "--games", 60, "--workers", workers, *level)
            assert code == 0 and answer["wins"] == truth and answer["strategy"] == "mine:Again"
        code, _ = self.bench(tmp_path, "--strategy", "mine:Again", "--games", 25, "--out", "run.jsonl", *level)
        assert code == 0
        code, answer = self.bench(tmp_path, "--resume", "run.jsonl", "--games", 60)
        assert code == 0 and answer["wins"] == truth and answer["games"] == 60

    def test_a_resume_refuses_a_player_changed_since(self, tmp_path):
        """A run goes on only with the code that began it: the player's module edited between a
        stop and --resume is refused (exit 2), where 25 games of one version and 35 of the next
        were counted as one run unsaid. Unchanged, it goes on; a journal from before the code was
        kept (no "code") is taken as it is."""
        (tmp_path / "mine.py").write_text(_OWN_MODULE)
        level = ["--level", "9x9x10", "--seed", 3]
        code, _ = self.bench(tmp_path, "--strategy", "mine:Again", "--games", 25, "--out", "run.jsonl", *level)
        header = json.loads((tmp_path / "run.jsonl").read_text().splitlines()[0])["run"]
        assert code == 0 and "+" in header["code"]  # satsweeper's digest, and the module's
        kept = (tmp_path / "run.jsonl").read_text()
        (tmp_path / "mine.py").write_text(_OWN_MODULE + "\n# edited\n")
        code, answer = self.bench(tmp_path, "--resume", "run.jsonl", "--games", 60)
        assert code == 2 and answer["got"].startswith("code ") and header["code"] in answer["expected"]
        assert (tmp_path / "run.jsonl").read_text() == kept  # the journal untouched
        (tmp_path / "mine.py").write_text(_OWN_MODULE)
        code, answer = self.bench(tmp_path, "--resume", "run.jsonl", "--games", 40)
        assert code == 0 and answer["games"] == 40
        lines = (tmp_path / "run.jsonl").read_text().splitlines()
        old = json.loads(lines[0])
        del old["run"]["code"]
        (tmp_path / "old.jsonl").write_text("\n".join([json.dumps(old)] + [l for l in lines[1:] if '"summary"' not in l]) + "\n")
        (tmp_path / "mine.py").write_text(_OWN_MODULE + "\n# edited\n")
        code, answer = self.bench(tmp_path, "--resume", "old.jsonl", "--games", 60)
        assert code == 0 and answer["games"] == 60
        # Resumed from another folder, where its module is not importable: said so (the journal
        # was called malformed).
        (tmp_path / "elsewhere").mkdir()
        code, answer = self.bench(tmp_path / "elsewhere", "--resume", "../run.jsonl", "--games", 60)
        assert code == 2 and answer["got"] == "no module named 'mine'" and "PYTHONPATH" in answer["expected"], answer
        # A module the player imports from beside it is its code too (it was not digested).
        (tmp_path / "helper.py").write_text("PICK = 0\n")
        (tmp_path / "mine2.py").write_text("import helper\n" + _OWN_MODULE)
        code, _ = self.bench(tmp_path, "--strategy", "mine2:Again", "--games", 25, "--out", "run2.jsonl", *level)
        assert code == 0
        (tmp_path / "helper.py").write_text("PICK = 1\n")
        code, answer = self.bench(tmp_path, "--resume", "run2.jsonl", "--games", 60)
        assert code == 2 and answer["got"].startswith("code "), answer

    @pytest.mark.parametrize("name, got", [
        ("nomodule:Again", "'nomodule:Again': No module named 'nomodule'"),
        ("mine:Nope", "none"),
        ("mine:", "'mine:'"),
        ("mine:Raising", "RuntimeError: my bug, from again.decide in the game of seed '0:0'"),
    ])
    def test_what_is_wrong_with_it_is_said(self, tmp_path, name, got):
        """Exit 2, its words; a player's own exception was "internal error, please report it" (70)."""
        (tmp_path / "mine.py").write_text(_OWN_MODULE)
        code, answer = self.bench(tmp_path, "--strategy", name, "--games", 2, "--level", "9x9x10")
        assert code == 2 and answer["got"].startswith(got), answer

    def test_density_takes_it_too(self, tmp_path):
        import subprocess
        (tmp_path / "mine.py").write_text(_OWN_MODULE)
        done = subprocess.run(["satsweeper", "density", "--size", "3x3", "--games", "5", "--strategy", "mine:Again",
                               "--json"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
        built = CliRunner().invoke(main, ["density", "--size", "3x3", "--games", "5", "--strategy", "exact", "--json"])
        mine, exact = json.loads(done.stdout), json.loads(built.stdout)
        assert done.returncode == 0 and mine["sizes"][0]["points"] == exact["sizes"][0]["points"]


class ExactAgain:
    """A player of one's own (at the top level, so worker processes can load it): exact's moves."""

    name = "exact-again"

    def __init__(self):
        self.inner = strategy("exact")

    def decide(self, board, rng):
        return self.inner.decide(board, rng)


class Idle:
    """Decides nothing: without the check the game asked it again for ever."""

    name = "idle"

    def __init__(self):
        self.calls = 0

    def decide(self, board, rng):
        self.calls += 1
        assert self.calls < 100, "asked for ever"
        return Decision(opens=tuple(board.clues)[:1])  # an open square: nothing new


class Cells(ExactAgain):
    name = "cells"

    def decide(self, board, rng):
        return list(super().decide(board, rng).opens)  # not a Decision


class FlagThenOpen:
    """Flags the first hidden cell, then opens it (a player that takes back a wrong flag)."""

    name = "flag-then-open"

    def decide(self, board, rng):
        if board.flags:
            return Decision(opens=(min(board.flags),), guess=True)
        return Decision(flags=(min(c for c in board.hidden_cells() if c not in board.flags),))


class Broken(ExactAgain):
    """Exact's first click made, then its own bug."""

    name = "broken"

    def decide(self, board, rng):
        return 1 / 0


class TestYourOwnPlayer:
    """A player of one's own goes where a strategy's name goes: play, run, compare."""

    @pytest.mark.parametrize("seed", [1.5, "a", True, None])
    def test_a_seed_is_a_whole_number(self, seed):
        """run took 1.5 and "a" (seeded by their text; True played other games than 1), which the
        command line and journals refuse."""
        for call in (lambda: run(Level(4, 4, 2), "exact", 2, seed=seed),
                     lambda: compare(Level(4, 4, 2), ["exact", "random"], 2, seed=seed)):
            with pytest.raises(InputError, match="a whole number seed"):
                call()

    def test_compare_needs_players(self):
        """compare(level, [], n) answered an empty comparison."""
        with pytest.raises(InputError, match="a list of players"):
            compare(Level(4, 4, 2), [], 2)

    def test_opening_a_cell_it_flagged_is_its_move(self):
        """A Decision cannot unflag, and Game.open leaves a flagged cell alone: opening it was
        refused as "a Decision that opens or flags nothing", which ended the whole run.  Now
        the flag is taken back and the cell opened; the oracle: on a 6x1 strip the player opens
        cells left to right after its first click, so it wins unless a mine lies left of the
        last safe cell (simulated here without the library, from the game's own mines)."""
        import random as random_module
        from satsweeper.game import FirstClick, Game
        level = Level(6, 1, 2)
        for i in range(40):
            result = play(level, FlagThenOpen, f"5:{i}", first=(0, 5))
            mines = Game.new(level, random_module.Random(f"5:{i}"), (0, 5), FirstClick.SAFE).mines
            columns = sorted(c for _, c in mines)
            opened = {5}  # the first click, and what its 0s open leftwards
            c = 5
            while c - 1 >= 0 and not any(abs(m - c) <= 1 for m in columns):
                c -= 1
                opened.add(c)
            last_safe = max(c for c in range(6) if c not in columns and c not in opened) \
                if len(opened) + len(columns) < 6 else -1
            assert result.won == (last_safe < 0 or all(m > last_safe for m in columns)), (i, columns)

    @pytest.mark.parametrize("workers", [1, 2])
    def test_a_class_plays_as_the_strategy_it_copies(self, workers):
        """run(level, ExactAgain) is run(level, "exact") game for game, under its own name."""
        mine = run(LEVELS["beginner"], ExactAgain, 30, seed=4, workers=workers)
        named = run(LEVELS["beginner"], "exact", 30, seed=4)
        assert (mine.strategy, mine.games, mine.wins, mine.guesses) == \
            ("exact-again", named.games, named.wins, named.guesses)

    def test_compare_pairs_the_games_play_plays_one_by_one(self):
        """Game i of every player is the game play() plays with seed "s:i"; paired counts follow."""
        level, games, seed = Level(6, 6, 7), 30, 9
        c = compare(level, ["exact", ExactAgain, "single-point"], games, seed=seed)
        alone = {name: [play(level, name, f"{seed}:{i}").won for i in range(games)]
                 for name in ("exact", "single-point")}
        assert c.won == (tuple(alone["exact"]), tuple(alone["exact"]), tuple(alone["single-point"]))
        assert [s.wins for s in c.summaries] == [sum(alone["exact"])] * 2 + [sum(alone["single-point"])]
        only_exact = sum(a and not b for a, b in zip(alone["exact"], alone["single-point"]))
        only_single = sum(b and not a for a, b in zip(alone["exact"], alone["single-point"]))
        assert c.paired(0, 2) == Paired(only_exact, only_single) and c.paired(0, 1) == Paired(0, 0)
        assert only_exact > only_single  # the comparison can tell two players apart

    def test_play_takes_the_class_as_player_and_refuses_a_tuple_seed(self):
        """player=Safest (the class) was a TypeError from decide; seed (7, 3) played a game of its
        own, not game 3 of a run of seed 7, which is "7:3" (the same games as run's)."""
        assert play(LEVELS["beginner"], "exact", "7:1", player=ExactAgain) == \
            play(LEVELS["beginner"], "exact", "7:1")
        assert sum(play(LEVELS["beginner"], "exact", f"7:{i}").won for i in range(40)) == \
            run(LEVELS["beginner"], "exact", 40, seed=7).wins
        for seed in ((7, 3), 7.0, True):
            with pytest.raises(InputError, match="game i of a run of seed s is 's:i'"):
                play(LEVELS["beginner"], "exact", seed)

    def test_a_player_that_raises_is_named_with_its_game(self):
        """Your player's exception came back bare (the CLI called it our internal error, exit 70):
        now an InputError naming it and the seed that replays the game."""
        with pytest.raises(InputError, match=r"a player whose decide runs \(got ZeroDivisionError: "
                                             r"division by zero, from broken.decide in the game of seed '5:0'") as err:
            run(LEVELS["beginner"], Broken, 4, seed=5)
        assert isinstance(err.value.__cause__, ZeroDivisionError)
        with pytest.raises(InputError, match="seed '5:3'"):
            play(LEVELS["beginner"], Broken, "5:3")

    @pytest.mark.parametrize("opens", [((99, 99),), "0,1"])
    def test_a_players_illegal_move_is_named_with_its_game(self, opens):
        """A cell off the board (or "0,1", read a character at a time) came back as a bare
        CellError, naming neither the player nor the game: now as a player that raises."""
        from satsweeper.errors import CellError

        class OffBoard:
            name = "offboard"

            def decide(self, board, rng):
                return Decision(opens=opens)
        from satsweeper.report.contract import error_parts
        with pytest.raises(InputError, match=r"a Decision naming a cell \(row, col\) of the 9x9x10 board \(got "
                                             r".*, from offboard\.decide in the game of seed '3:0'") as err:
            play(LEVELS["beginner"], OffBoard, "3:0")
        assert isinstance(err.value.__cause__, CellError)
        # one expected, one got (a message inside a message split the JSON's fields mid-way)
        parts = error_parts(err.value)
        assert parts["expected"] == "a Decision naming a cell (row, col) of the 9x9x10 board"
        assert parts["got"].startswith(("(99, 99), from", "'0', from"))

    def test_a_player_given_where_its_maker_goes_is_told_where_it_goes(self):
        """play(level, Safest(), seed): "'Safest' object is not callable", a TypeError."""
        from satsweeper.strategies.exact import ExactProbability
        with pytest.raises(InputError, match="a player itself goes in player="):
            play(LEVELS["beginner"], ExactProbability(), 1)
        assert play(LEVELS["beginner"], "exact", 1, player=ExactProbability()) == play(LEVELS["beginner"], "exact", 1)

    def test_a_lambda_is_refused_before_workers_fail_to_load_it(self):
        """With worker processes a lambda was a PicklingError from inside the pool; here it plays."""
        with pytest.raises(InputError, match="defined at the top level of a module"):
            run(LEVELS["beginner"], lambda: ExactAgain(), 4, workers=2)
        assert run(LEVELS["beginner"], lambda: ExactAgain(), 4, seed=4).wins == \
            run(LEVELS["beginner"], "exact", 4, seed=4).wins

    def test_a_decision_that_changes_nothing_is_refused(self):
        """Opening an open square again was asked for again for ever; now an InputError."""
        with pytest.raises(InputError, match="a Decision that opens or flags a hidden cell .* from idle"):
            play(LEVELS["beginner"], Idle, seed=1)

    def test_what_is_not_a_decision_is_refused(self):
        """A list of cells from decide was an AttributeError ('list' has no 'guess')."""
        with pytest.raises(InputError, match=r"a Decision from cells.decide \(got list\)"):
            play(LEVELS["beginner"], Cells, seed=1)

    @pytest.mark.parametrize("player", [42, "nope", int])
    def test_what_makes_no_strategy_is_refused(self, player):
        """A number, an unknown name, or a maker of something without decide."""
        with pytest.raises(InputError, match="strateg|Strategy"):
            player_name(player)
        with pytest.raises(InputError):
            compare(LEVELS["beginner"], ["exact", player], 1)

    def test_paired_names_two_players_of_the_comparison(self):
        """paired() of a one-player comparison was an IndexError; (0, 0) is a player with itself."""
        c = compare(Level(3, 3, 1), ["exact"], 3)
        assert c.paired(0, 0) == Paired(0, 0)
        with pytest.raises(InputError, match=r"two players to pair \(this comparison has 1"):
            c.paired()  # said "two players' positions, 0 to 0 (got 0 and 1)"
        with pytest.raises(InputError, match=r"two players' positions, 0 to 1 \(got 0 and 2\)"):
            compare(Level(3, 3, 1), ["exact", "random"], 3).paired(0, 2)

    def test_a_level_name_is_refused(self):
        """play("beginner", ...) was an AttributeError from inside Game.new."""
        for call in (lambda: play("beginner", "exact", 1), lambda: run("beginner", "exact", 1)):
            with pytest.raises(InputError, match=r"a Level, such as Level.parse\('beginner'\)"):
                call()

    def test_a_rule_or_players_given_as_a_string_are_named(self):
        """run(rule="safe") blamed "a random.Random, a FirstClick and a Placement", two of
        which the caller never passed; compare(level, "best") played players b, e, s, t."""
        level = Level(9, 9, 10)
        with pytest.raises(InputError, match=r"^a FirstClick, such as FirstClick.SAFE \(got 'safe'\)$"):
            run(level, "best", 2, rule="safe")
        with pytest.raises(InputError, match=r"^a list of players, such as \['best', 'exact'\] \(got 'best'\)$"):
            compare(level, "best", 2)
        import random as _random
        from satsweeper.game import FirstClick, Game
        with pytest.raises(InputError, match=r"^a random.Random, such as random.Random\(7\) \(got 3\)$"):
            Game.new(level, 3, (0, 0))
        with pytest.raises(InputError, match=r"^a FirstClick, such as FirstClick.SAFE \(got 'safe'\)$"):
            Game.new(level, _random.Random(1), (0, 0), "safe")
        assert Game.new(level, _random.Random(1), (0, 0), FirstClick.SAFE).number((0, 0)) >= 0

    @pytest.mark.parametrize("cell", [(2.0, 2), (True, 1), (1, False)])
    def test_a_cell_of_floats_or_bools_is_refused(self, cell):
        """(2.0, 2) and (True, 1) equal (2, 2) and (1, 1) as keys: game.open((2.0, 2)) put the
        key (2.0, 2) into the board's clues, and safety() answered for (3.0, 12)."""
        import random as _random
        import numpy as np
        from satsweeper import safety
        from satsweeper.game import Game
        game = Game.new(Level(9, 9, 10), _random.Random(1), (0, 0))
        with pytest.raises(CellError, match=r"a cell \(row, col\) in whole numbers of the 9x9x10 board"):
            game.open(cell)
        board = parse_board("mines: 1\n1..\n...\n")
        with pytest.raises(CellError, match=r"its row and column whole numbers"):
            safety(board, (1.0, 2) if cell[0] == 2.0 else cell)
        # NumPy's integers are whole: a cell from np.argwhere is still a cell
        assert safety(board, (np.int64(1), np.int64(2))).cell == (1, 2)
        assert game.level.contains((np.int64(1), 2))


class TestEndgame:
    @settings(max_examples=300, deadline=None)
    @given(board=boards())
    def test_explanations_are_the_oracles(self, board):
        """The endgame's enumeration lists exactly the brute-force explanations (or gives up)."""
        problem = problem_of(board)
        want = set(oracle.explanations(problem))
        got = endgame.explanations(problem, 64)
        if len(want) <= 64:
            assert got is not None and set(got) == want and len(got) == len(want)
        else:
            assert got is None

    @settings(max_examples=200, deadline=None)
    @given(board=boards(perturb=False))
    def test_winning_chance_is_bounded_by_the_first_guess(self, board):
        """Best play cannot win more often than its first guess survives, nor less than 1/|E|."""
        problem = problem_of(board)
        found = endgame.best_guess(board, problem)
        if found is None:
            return
        cell, chance = found
        counts = tally(problem)
        safest = 1 - min(counts.probability(c) for c in problem.cells)
        assert Fraction(1, counts.count) <= chance <= safest
        assert chance <= 1 - counts.probability(cell)

    @settings(max_examples=150, deadline=None)
    @given(board=boards(perturb=False))
    def test_winning_chance_is_the_brute_force_game_value(self, board):
        """The endgame's chance is the value of the game tree played out on layouts, by brute force."""
        problem = problem_of(board)
        found = endgame.best_guess(board, problem)
        if found is None:
            return
        layouts = oracle.explanations(problem)
        want = _game_value(board, tuple(problem.cells), layouts)
        cell, chance = found
        assert chance == want
        # The guess it names achieves that value.
        safe = [e for e in layouts if cell not in e]
        by_number: dict = {}
        for e in safe:
            by_number.setdefault(_shows(board, cell, e), []).append(e)
        got = sum(len(g) * _game_value(board, tuple(problem.cells), g, {cell}) for g in by_number.values())
        assert Fraction(got, len(layouts)) == want

    def test_a_fifty_fifty(self):
        """Two cells, one mine, nothing to learn: one half."""
        board = parse_board("mines: 1\n.1.\n")
        assert endgame.best_guess(board, problem_of(board))[1] == Fraction(1, 2)

    @pytest.mark.parametrize("text, value", [("...\n", Fraction(1, 2)), ("...\n...\n", Fraction(14, 64)),
                                             ("....\n....\n", Fraction(9, 64))])
    def test_without_the_total_a_game_ends_when_its_safe_cells_are_open(self, text, value):
        """No total: the explanations have different mine counts, and a game is over, won,
        as soon as its own safe cells are open. On "..." (eight explanations) opening 0,0
        survives four; if it shows 1, 0,1 is a mine and either 0,2 is one too (the game is
        over) or it is safe (open it): 1/2, where the search said 3/8 (2x3: 13/64, 2x4:
        8/64). The values are the brute-force game tree's, and a puzzle author's."""
        board = parse_board(text)
        problem = problem_of(board)
        assert _game_value(board, tuple(problem.cells), oracle.explanations(problem)) == value
        assert endgame.best_guess(board, problem)[1] == value
        assert hint(board).value == value


def _shows(board: Board, cell, layout: frozenset) -> int:
    return sum(1 for n in board.neighbours(cell) if n in layout or n in board.flags)


def _game_value(board: Board, cells: tuple, layouts: list, opened: frozenset = frozenset(),
                memo: dict | None = None) -> Fraction:
    """Chance of winning with best play when ``layouts`` are equally likely and
    ``opened`` cells are open: the plain game tree (open any cell not opened,
    lose in the layouts where it is a mine, split the rest by the number it
    shows), won once every safe cell of the layout is open.  Memoised on the
    layouts left (the cells open are those every layout left agrees on, so
    they add nothing to the key): without it, a board of 16 hidden cells
    drawn by hypothesis ran for 20 minutes."""
    memo = {} if memo is None else memo
    key = frozenset(layouts), bool(opened)  # the first position is valued apart: no game has ended there
    if key not in memo:
        memo[key] = _game_value_of(board, cells, layouts, opened, memo)
    return memo[key]


def _game_value_of(board: Board, cells: tuple, layouts: list, opened: frozenset, memo: dict) -> Fraction:
    if not layouts:
        return Fraction(0)
    if opened:  # after a move: a layout whose every safe cell is open has ended, won
        ended = [e for e in layouts if all(c in opened or c in e for c in cells)]
        if ended:
            rest = [e for e in layouts if e not in ended]
            value = len(ended) + len(rest) * _game_value(board, cells, rest, opened, memo)
            return Fraction(value, len(layouts))
    if len(layouts) == 1:
        return Fraction(1)  # nothing left unknown: open the safe cells
    best = Fraction(0)
    for c in cells:
        if c in opened or all(c in e for e in layouts):
            continue
        groups: dict = {}
        for e in layouts:
            if c not in e:
                groups.setdefault(_shows(board, c, e), []).append(e)
        value = sum(len(g) * _game_value(board, cells, g, opened | {c}, memo) for g in groups.values())
        best = max(best, Fraction(value, len(layouts)))
    return best


def test_paired_comparison_matches_a_published_mcnemar_example():
    # Armitage and Berry (1994, p. 127), as worked by StatsDirect: 50 specimens on
    # two culture media, 20 grew on both, 12 only on A, 2 only on B, 16 on neither;
    # McNemar's chi-square with Yates' correction is 5.785714.
    a = [True] * 20 + [True] * 12 + [False] * 2 + [False] * 16
    b = [True] * 20 + [False] * 12 + [True] * 2 + [False] * 16
    pair = Paired.of(a, b)
    assert (pair.only_first, pair.only_second) == (12, 2)
    discordant = pair.only_first + pair.only_second
    corrected = (abs(pair.z) * math.sqrt(discordant) - 1) ** 2 / discordant
    assert corrected == pytest.approx(5.785714, abs=1e-6)
    assert Paired.of(b, a).z == pytest.approx(-pair.z)
    with pytest.raises(ValueError, match="the same games"):
        Paired.of(a, b[:-1])
