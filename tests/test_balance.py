"""Balanced gadgets and the balanced gate set: one mine total for every input.

Every gadget's verdict (component engine) is recounted per input by Ganak,
and the mine total is checked a second way: the board given that total has
exactly one explanation per input.  Compiled boards are counted with the
total mine count the ``.mine`` file carries and compared with the models
(truth tables, see test_compiler).
"""

from __future__ import annotations

import itertools
import json
import random

import pytest
from click.testing import CliRunner

from satsweeper import components
from satsweeper.board import Board
from satsweeper.cli import main
from satsweeper.constraints import Constraint, Problem, problem_of
from satsweeper.counting import Engine, count, tally
from satsweeper.gadgets import verify
from satsweeper.components import Progress
from satsweeper.gadgets.balance import BALANCED, balanced_cross, balanced_not, balanced_tile
from satsweeper.gadgets.compiler import GateSet, compile_formula
from satsweeper.gadgets.formula import parse_formula, random_formula
from satsweeper.gadgets.gadget import PortValue
from satsweeper.gadgets.layout import Layout
from satsweeper.gadgets.library import build, cross, gate_tile
from satsweeper.textio import format_mine, parse_mine

from .oracle import explanations

# The balanced set: the wire pieces were balanced already; the rest are built here.
SET = sorted(BALANCED) + ["wire-h", "wire-v", "corner", "phase", "split"]


def gadget_of(name):
    return BALANCED[name]() if name in BALANCED else build(name)


def pinned(gadget, values, total=None) -> Problem:
    board = gadget.board
    if total is not None:
        board = Board(board.height, board.width, board.clues, board.flags, board.voids, board.names, total)
    base = problem_of(board)
    rules = tuple(Constraint(frozenset({gadget.cell(p)}), int(v), PortValue(p, v))
                  for p, v in zip(gadget.inputs, values))
    return Problem(base.cells, base.constraints + rules, base.mines, base.total_origin)


class TestBalancedGadgets:
    @pytest.mark.parametrize("name", SET)
    def test_computes_uniquely_with_one_mine_total(self, name):
        """Claimed outputs forced, one explanation per input, the same mines for every input."""
        verdict = verify(gadget_of(name))
        assert verdict.computes and verdict.unique and verdict.constant_mines

    def test_ganak_agrees(self):
        """Ganak (a second counter) recounts every input of the balanced XOR (the others take ~20 s each)."""
        gadget = gadget_of("balanced-xor")
        for case in verify(gadget).cases:
            assert tally(pinned(gadget, case.inputs), Engine.GANAK).count == case.explanations == 1

    @pytest.mark.parametrize("name", sorted(BALANCED))
    def test_the_total_keeps_every_input(self, name):
        """With the board's total mine count fixed, each input still has its one explanation."""
        gadget = gadget_of(name)
        verdict = verify(gadget)
        (total,) = {m for case in verdict.cases for m in case.mines}
        board = gadget.board
        with_total = Board(board.height, board.width, board.clues, board.flags, board.voids, board.names, total)
        for case in verdict.cases:
            rules = tuple(Constraint(frozenset({gadget.cell(p)}), int(v), PortValue(p, v))
                          for p, v in zip(gadget.inputs, case.inputs))
            base = problem_of(with_total)
            assert count(Problem(base.cells, base.constraints + rules, base.mines, base.total_origin)) == 1

    def test_not_by_brute_force(self):
        """The oracle enumerates the balanced NOT: one placement per input, both with the same mines."""
        gadget = balanced_not()
        sizes = set()
        for value in (False, True):
            found = explanations(pinned(gadget, (value,)))
            assert len(found) == 1
            (placement,) = found
            assert (gadget.cell("b") in placement) == (not value)
            sizes.add(len(placement) + len(gadget.board.flags))
        assert len(sizes) == 1

    def test_the_plain_gates_are_not_balanced(self):
        """Why the set exists: Pedersen's OR and XOR and Kaye's NOT hold one mine less for one input."""
        for name in ("or", "xor", "not", "cross", "or-tile", "xor-tile"):
            assert not verify(build(name)).constant_mines

    @pytest.mark.parametrize("flip", [False, True])
    def test_tap_adds_a_mine_for_one_value(self, flip):
        """Kaye's NOT core in a wire: one more mine when the signal is false (flip False) or true."""
        layout = Layout()
        head = layout.start(0, 0, "a")
        head = layout.tap(layout.straight(head, head.at(21), flip=flip))
        end = layout.straight(head, head.at(21), flip=False)
        layout.close(end)
        board = layout.board()
        totals = {}
        for value in (False, True):
            problem = problem_of(board)
            rule = Constraint(frozenset({board.cell_by_name("a")}), int(value), "a")
            counts = tally(Problem(problem.cells, problem.constraints + (rule,)))
            assert counts.count == 1
            (mines,) = [k for k, c in counts.frontier.items() if c]
            totals[value] = mines
        assert totals[True] - totals[False] == (1 if flip else -1)


class TestSweep:
    def test_balanced_tiles_have_their_own_sweep_the_plain_ones_not(self):
        """Gadget.sweep: breadth first where it at least halves the tile's widest DP layer."""
        for name in ("or", "xor"):
            assert balanced_tile(name).sweep is not None
            assert sorted(balanced_tile(name).sweep) == sorted(balanced_tile(name).board.hidden_cells())
        assert balanced_cross().sweep is not None
        assert gate_tile("or").sweep is None and cross().sweep is None

    def test_compiled_order_counts_the_same_with_a_thinner_dp(self):
        """The compiler's order (tiles in their sweeps) against a plain column sweep of the
        same board: the same count, the widest layer at most a quarter, fewer states."""
        compiled = compile_formula(parse_formula("(a | ~b) ^ (b & c)"), GateSet.BALANCED)
        problem = problem_of(compiled.board)
        columns = sorted(compiled.board.hidden_cells(), key=lambda cell: cell[1])
        swept, plain = Progress(), Progress()
        assert components.count(problem, compiled.order, swept) == components.count(problem, columns, plain) \
            == compiled.formula.models()
        assert 4 * swept.widest <= plain.widest and swept.states < plain.states


def random_formulas(seed: int, how_many: int, variables: int = 6, levels: int = 4, fewest: int = 1):
    rng = random.Random(seed)
    return [random_formula(rng, rng.randint(fewest, variables), rng.randint(1, levels)) for _ in range(how_many)]


class TestBalancedCompiler:
    def test_counted_with_the_total_they_equal_the_models(self):
        """40 random formulas (2-5 variables, 1-3 levels), each compiled with the balanced set,
        written as the ``.mine`` the compiler writes (its total: the one every explanation
        has) and read back: counted with that total, the models (truth table).

        The longer run (1-6 variables, 1-4 levels; and 200 of these took 2 minutes of the
        suite) is scripts/balanced_check.py.
        """
        satisfiable = 0
        for f in random_formulas(500, 40, 5, 3, fewest=2):
            compiled = compile_formula(f, GateSet.BALANCED)
            totals = compiled.mine_totals()
            assert sum(totals.values()) == f.models(), str(f)
            assert len(totals) <= 1, str(f)
            board, _ = compiled.with_total(totals)
            written = parse_mine(format_mine(board))
            assert written.total_mines == board.total_mines
            assert count(written, order=compiled.order) == f.models(), str(f)
            satisfiable += f.models() > 0
        assert satisfiable >= 20

    def test_end_to_end_through_the_cli(self, tmp_path):
        """``compile --gates balanced -o x.mine`` then ``count x.mine``: the models, total included."""
        for text, models in (("a | b", 3), ("(a | ~b) & (b ^ c)", 3)):
            path = tmp_path / "x.mine"
            made = CliRunner().invoke(main, ["compile", text, "--gates", "balanced", "-o", str(path), "--json"])
            assert made.exit_code == 0, made.stdout
            written = json.loads(made.stdout)["output"]
            assert written["why"] == "every explanation has this many mines"
            counted = CliRunner().invoke(main, ["count", str(path), "--json"])
            assert counted.exit_code == 0
            assert json.loads(counted.stdout)["count"] == str(models)
            assert parse_mine(path.read_text()).total_mines == written["mines"]

    def test_parsimonious_set_loses_models_with_the_total(self):
        """The reason: with Pedersen's OR, a | b written with its total keeps 1 of its 3 models."""
        compiled = compile_formula(parse_formula("a | b"))
        board, _ = compiled.with_total()
        assert compiled.explanations() == 3 and count(board, order=compiled.order) == 1
        balanced = compile_formula(parse_formula("a | b"), GateSet.BALANCED)
        board, _ = balanced.with_total()
        assert count(board, order=balanced.order) == 3

    def test_pinned_inputs_leave_one_explanation_per_model(self):
        """With the total and the inputs pinned: one explanation for a model, none otherwise."""
        f = parse_formula("(a | ~b) & (b ^ c)")
        compiled = compile_formula(f, GateSet.BALANCED)
        board, _ = compiled.with_total()
        problem = problem_of(board)
        for bits in itertools.product((False, True), repeat=3):
            pins = tuple(Constraint(frozenset({board.cell_by_name(v)}), int(b), v)
                         for v, b in zip(f.variables, bits))
            pinned_problem = Problem(problem.cells, problem.constraints + pins, problem.mines, problem.total_origin)
            assert count(pinned_problem, order=compiled.order) == int(f.value(dict(zip(f.variables, bits))))
