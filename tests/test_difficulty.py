"""The difficulty ladder, against players that know only some of the rules."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from satsweeper.constraints import Constraint, Problem
from satsweeper.difficulty import TOTAL_REASONS, Rung, grade, position_before
from satsweeper.game import Game, Level, Outcome, neighbours, place_mines
from satsweeper.puzzles import generate, no_guess
from satsweeper.textio import read_puzzle

from . import oracle

ROOT = Path(__file__).resolve().parent.parent
LADDER = ROOT / "examples" / "ladder"


def rules(game: Game) -> list[Constraint]:
    """Each number as 'exactly k of its hidden, unflagged neighbours', written afresh here."""
    out = []
    for cell, number in game.revealed.items():
        around = neighbours(game.level, cell)
        hidden = frozenset(n for n in around if n not in game.revealed and n not in game.flags)
        if hidden:
            out.append(Constraint(hidden, number - sum(n in game.flags for n in around), cell))
    return out


def single_moves(game: Game) -> dict:
    moves = {}
    for rule in rules(game):
        if rule.mines in (0, len(rule.cells)):
            moves.update(dict.fromkeys(rule.cells, rule.mines > 0))
    return moves


def pair_moves(game: Game) -> dict:
    moves = {}
    for a, b in itertools.permutations(rules(game), 2):
        if a.cells < b.cells:
            rest, owed = b.cells - a.cells, b.mines - a.mines
            if owed in (0, len(rest)):
                moves.update(dict.fromkeys(rest, owed > 0))
    return moves


def oracle_moves(game: Game, with_total: bool) -> dict:
    local = rules(game)
    if with_total:
        hidden = [(r, c) for r in range(game.level.height) for c in range(game.level.width)
                  if (r, c) not in game.revealed and (r, c) not in game.flags]
        problem = Problem(tuple(hidden), tuple(local), game.level.mines - len(game.flags))
    else:
        frontier = tuple(sorted({c for rule in local for c in rule.cells}))
        problem = Problem(frontier, tuple(local))
    status = oracle.status(problem)
    return {c: s == "mine" for c, s in status.items() if s in ("safe", "mine")}


LADDER_MOVES = [single_moves, pair_moves, lambda g: oracle_moves(g, False),
                lambda g: oracle_moves(g, True)]


def wins_with(level: Level, mines: frozenset, start, highest: int) -> bool:
    """Does a player who knows the rules up to rung ``highest`` win without guessing?"""
    game = Game(level, mines)
    game.open(start)
    while game.outcome is Outcome.PLAYING:
        moves = next((m for find in LADDER_MOVES[:highest] if (m := find(game))), None)
        if not moves:
            return False
        for cell, mine in moves.items():
            if mine:
                game.flag(cell)
            else:
                game.open(cell)
    return game.outcome is Outcome.WON


def drawn_layout(width: int, height: int, data) -> tuple[Level, frozenset, tuple[int, int]]:
    """(level, mines, a safe start) drawn by hypothesis: up to a third of the squares mines."""
    level = Level(width, height, data.draw(st.integers(1, max(1, width * height // 3))))
    start = (data.draw(st.integers(0, height - 1)), data.draw(st.integers(0, width - 1)))
    return level, place_mines(level, random.Random(data.draw(st.integers(0, 10**6))), frozenset({start})), start


class TestGrade:
    @settings(max_examples=80, deadline=None)
    @given(st.integers(2, 4), st.integers(2, 4), st.data())
    def test_rung_is_the_least_set_of_rules_that_wins(self, width, height, data):
        """A player with the rules up to rung r wins exactly when the grade is at most r."""
        level, mines, start = drawn_layout(width, height, data)
        answer = grade(level, mines, start)
        for highest in range(1, 5):
            assert wins_with(level, mines, start, highest) == (answer.solved and answer.rung <= highest)

    @settings(max_examples=60, deadline=None)
    @given(st.integers(2, 4), st.integers(2, 4), st.data())
    def test_path_replays_with_the_rules_of_each_step(self, width, height, data):
        """Each step's cells, replayed in some order, are each a move the rules of its rung
        find (or opened for free by a 0); no easier rung had a move when it began; the
        replay wins and its hardest rung is the grade."""
        level, mines, start = drawn_layout(width, height, data)
        answer = grade(level, mines, start)
        game = Game(level, mines)
        game.open(start)
        for step in answer.path:
            assert not any(find(game) for find in LADDER_MOVES[:step.rung - 1])
            pending = [(c, False) for c in step.opened] + [(c, True) for c in step.flagged]
            while pending:
                moves = LADDER_MOVES[step.rung - 1](game)
                left = [(c, mine) for c, mine in pending if moves.get(c) is not mine
                        and not (not mine and c in game.revealed)]
                assert len(left) < len(pending), (step, left)
                for c, mine in pending:
                    if moves.get(c) is mine:
                        game.flag(c) if mine else game.open(c)
                pending = left
        assert (game.outcome is Outcome.WON) == answer.solved
        assert max((s.rung for s in answer.path), default=Rung.SINGLE) == answer.rung

    @settings(max_examples=80, deadline=None)
    @given(st.integers(2, 5), st.integers(2, 5), st.data())
    def test_each_step_needs_the_numbers_it_names(self, width, height, data):
        """At the position before each pair or several step (position_before, checked against a
        replay here), the numbers it names, alone, force every cell it flags and at least one it
        opens (the brute force over those numbers' rules); a pair step names nested pairs, a
        several step at least as many numbers as it needed at once; a total step the numbers the
        total needs with it; single steps none."""
        level, mines, start = drawn_layout(width, height, data)
        answer = grade(level, mines, start)
        game = Game(level, mines)
        game.open(start)
        for index, step in enumerate(answer.path):
            before = position_before(level, mines, start, answer, index)
            assert (dict(before.clues), before.flags) == (dict(game.revealed), frozenset(game.flags))
            if step.rung is Rung.SINGLE:
                assert step.needs == ()
            elif step.rung is Rung.TOTAL:
                # the total with the numbers it names forces the step's first cell, and every mine
                # it flags when it decides no more cells than it names numbers for (it named the
                # first cell's numbers alone); the brute force over the hidden cells, when few
                assert set(step.needs) <= set(game.revealed)
                hidden = tuple((r, c) for r in range(level.height) for c in range(level.width)
                               if (r, c) not in game.revealed and (r, c) not in game.flags)
                if len(hidden) <= 14:
                    named = tuple(r for r in rules(game) if r.origin in step.needs)
                    problem = Problem(hidden, named, level.mines - len(game.flags))
                    assert any(oracle.forced(problem, c, False) for c in step.opened) or \
                        any(oracle.forced(problem, c, True) for c in step.flagged)
                    if len(step.opened) + len(step.flagged) <= TOTAL_REASONS:
                        assert all(oracle.forced(problem, c, True) for c in step.flagged)
            else:
                assert len(step.needs) >= step.clues >= 2 and set(step.needs) <= set(game.revealed)
                named = [r for r in rules(game) if r.origin in step.needs]
                assert {r.origin for r in named} == set(step.needs)  # each names a number with hidden cells
                cells = tuple(sorted({c for r in named for c in r.cells}))
                problem = Problem(cells, tuple(named))
                assert all(oracle.forced(problem, c, True) for c in step.flagged)
                assert any(oracle.forced(problem, c, False) for c in step.opened) or not step.opened
                if step.rung is Rung.PAIR:
                    assert all(any(a.cells < b.cells or b.cells < a.cells for b in named if b is not a)
                               for a in named)
            for c in step.flagged:
                game.flag(c)
            for c in step.opened:
                game.open(c)

    def test_stuck_names_the_cells_of_the_guess(self):
        """A 1 in the corner with three hidden cells: not solved, the three are where to guess."""
        answer = grade(Level(2, 2, 1), frozenset({(1, 1)}), (0, 0))
        assert not answer.solved
        assert answer.stuck == ((0, 1), (1, 0), (1, 1))

    def test_start_on_a_mine_is_refused(self):
        with pytest.raises(ValueError):
            grade(Level(2, 1, 1), frozenset({(0, 0)}), (0, 0))


class TestLadderExamples:
    @pytest.mark.parametrize("word, rung, moves", [
        ("easy", Rung.SINGLE, {Rung.SINGLE: 3}),      # the 2 flags both, then the 1 opens
        ("medium", Rung.PAIR, {Rung.PAIR: 2}),        # the middle 1 holds each side's 1
        ("hard", Rung.SEVERAL, {Rung.SEVERAL: 1}),    # two disjoint 1s inside the 2
        ("extreme", Rung.TOTAL, {Rung.SINGLE: 1, Rung.TOTAL: 1}),  # the 1 flags, the total opens
    ])
    def test_each_example_is_graded_its_rung(self, word, rung, moves):
        """The README's example for each rung grades exactly that, and no lower player wins it."""
        puzzle = read_puzzle(LADDER / f"{word}.txt")
        level = Level(puzzle.board.width, puzzle.board.height, len(puzzle.mines))
        answer = grade(level, puzzle.mines, puzzle.start)
        assert answer.solved and answer.rung is rung and answer.rung.word == word
        assert dict(answer.moves) == moves
        assert wins_with(level, puzzle.mines, puzzle.start, int(rung))
        assert not wins_with(level, puzzle.mines, puzzle.start, int(rung) - 1) or rung is Rung.SINGLE

    def test_examples_are_in_the_readme(self):
        """Each example board is printed in the README as it is in its file."""
        readme = (ROOT / "README.md").read_text()
        for path in LADDER.glob("*.txt"):
            assert path.read_text() in readme, path.name

    def test_hard_example_needs_three_numbers(self):
        """No two numbers force the hard example's move; the three do (brute force)."""
        puzzle = read_puzzle(LADDER / "hard.txt")
        level = Level(puzzle.board.width, puzzle.board.height, len(puzzle.mines))
        answer = grade(level, puzzle.mines, puzzle.start)
        assert answer.clues == 3
        game = Game(level, puzzle.mines)
        game.open(puzzle.start)
        local = rules(game)

        def forces(subset) -> bool:
            cells = tuple(sorted({c for r in subset for c in r.cells}))
            status = oracle.status(Problem(cells, tuple(subset)))
            return any(s in ("safe", "mine") for s in status.values())

        assert not any(forces(pair) for pair in itertools.combinations(local, 2))
        assert forces(local) and len(local) == 3


class TestGenerateDifficulty:
    @pytest.mark.parametrize("rung", list(Rung))
    def test_generated_layouts_have_exactly_the_grade(self, rung):
        """generate(difficulty=r) gives layouts that rules up to r win and rules below r do not."""
        level, start = Level(5, 4, 5), (2, 2)
        for seed in range(4):
            made = generate(level, start, random.Random(seed), difficulty=rung)
            assert made.grade.rung is rung and len(made.mines) == level.mines
            assert wins_with(level, made.mines, start, int(rung))
            assert rung is Rung.SINGLE or not wins_with(level, made.mines, start, int(rung) - 1)

    @pytest.mark.parametrize("rung", list(Rung))
    def test_expert(self, rung):
        """On expert, every grade (easy is 2% of no-guess layouts) is found and checks out from scratch."""
        level = Level(30, 16, 99)
        made = generate(level, (3, 3), random.Random(2), difficulty=rung)
        assert grade(level, made.mines, (3, 3)).rung is rung
        assert no_guess(level, made.mines, (3, 3)).solved
