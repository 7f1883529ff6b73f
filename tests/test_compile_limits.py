"""compile's limits: the size estimate, the refusal of boards too big, and counts
that stop for time or memory saying how far the DP got.

The estimate is checked against the drawing it predicts (the drawn layout's
box, which the board then fills square for square); the DP's progress
against the layers of an independent forward pass.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from satsweeper.cli import main
from satsweeper.components import Progress, _ComponentDP, _components, _structure, count
from satsweeper.constraints import problem_of
from satsweeper.gadgets.compiler import (ESTIMATE_FACTOR, BoardTooLarge, GateSet, _Compiler, compile_formula,
                                         estimate)
from satsweeper.gadgets.formula import parse_dimacs, parse_formula, random_formula


ROOT = str(Path(__file__).resolve().parent.parent)


def cnf_text(rng: random.Random, variables: int, clauses: int) -> str:
    """A random 3-CNF in DIMACS (scripts/compile_report.py's family)."""
    lines = [f"p cnf {variables} {clauses}"]
    for _ in range(clauses):
        chosen = rng.sample(range(1, variables + 1), 3)
        lines.append(" ".join(str(v if rng.random() < 0.5 else -v) for v in chosen) + " 0")
    return "\n".join(lines) + "\n"


def cnf(rng: random.Random, variables: int):
    return parse_dimacs(cnf_text(rng, variables, 2 * variables))


def parity(variables: int):
    return parse_formula(" ^ ".join(f"x{k}" for k in range(1, variables + 1)))


def formulas():
    """Formulas the estimate's constants were not fitted on (seed 3), of every shape."""
    rng = random.Random(3)
    found = [random_formula(rng, rng.randint(1, 8), rng.randint(1, 5)) for _ in range(8)]
    found += [parity(10), cnf(rng, 5), parse_formula(" & ".join(f"(x{i} | ~x{i + 1})" for i in range(1, 20)))]
    return [f for f in found if not isinstance(f.root, bool)]


def drawn(formula, gates):
    """The drawing's size, laid out but not numbered (what compile_formula checks)."""
    compiler = _Compiler(formula, gates)
    compiler.lay_out()
    return compiler.drawn_size()


class TestEstimate:
    @pytest.mark.parametrize("gates", [GateSet.PARSIMONIOUS, GateSet.BALANCED])
    def test_within_the_stated_factor(self, gates):
        """Cells within ESTIMATE_FACTOR (3) of the drawing's either way, hidden squares within 4."""
        for f in formulas():
            guess, real = estimate(f, gates), drawn(f, gates)
            assert 1 / ESTIMATE_FACTOR <= guess.cells / real.cells <= ESTIMATE_FACTOR, str(f)
            assert 1 / 4 <= guess.hidden / real.hidden <= 4, str(f)
            assert not guess.exact and real.exact

    def test_drawn_size_is_the_boards(self):
        """The size checked before numbering is the board's, square for square."""
        f = parse_formula("(a | ~b) & (b ^ c)")
        compiled = compile_formula(f)
        size = drawn(f, GateSet.PARSIMONIOUS)
        board = compiled.board
        assert (size.height, size.width, size.hidden) == (board.height, board.width, compiled.hidden)
        # Exactly at the limit it is drawn; one square less and it is refused, with the drawn size.
        assert compile_formula(f, max_cells=size.cells).board.width == board.width
        with pytest.raises(BoardTooLarge) as refused:
            compile_formula(f, max_cells=size.cells - 1)
        assert refused.value.size == size


class TestRefusal:
    def test_a_huge_formula_is_refused_before_drawing(self):
        """A 3-CNF of 40 variables and 160 clauses: about 900 million squares, refused at once."""
        f = parse_dimacs(cnf_text(random.Random(1), 40, 160))
        with pytest.raises(BoardTooLarge) as refused:
            compile_formula(f, max_cells=25_000_000)
        assert not refused.value.size.exact and refused.value.size.cells > 75_000_000

    def test_the_cli_refuses_in_one_line_exit_3(self, tmp_path):
        path = tmp_path / "big.cnf"
        path.write_text(cnf_text(random.Random(1), 40, 160))
        result = CliRunner().invoke(main, ["compile", str(path)])
        assert result.exit_code == 3
        assert "Traceback" not in result.stdout
        assert len(result.stdout.strip().splitlines()) == 1
        assert result.stdout.startswith("refused: a board of at most 25,000,000 squares (--max-cells")
        result = CliRunner().invoke(main, ["compile", str(path), "--max-cells", "1000", "--json"])
        data = json.loads(result.stdout)
        assert result.exit_code == 3 and data["complete"] is False and data["max_cells"] == 1000
        assert data["size"]["cells"] == data["size"]["height"] * data["size"]["width"] > 1000

    def test_the_drawn_size_refuses_too(self):
        """An estimate under the limit times its error, the drawing over it: refused before numbering."""
        f = parse_formula("(a | ~b) & (b ^ c)")
        limit = drawn(f, GateSet.PARSIMONIOUS).cells - 1
        assert estimate(f).cells <= limit * ESTIMATE_FACTOR
        result = CliRunner().invoke(main, ["compile", "(a | ~b) & (b ^ c)", "--max-cells", str(limit), "--json"])
        data = json.loads(result.stdout)
        assert result.exit_code == 3 and data["size"]["exact"] is True


class TestProgress:
    def test_widest_layer_and_states(self):
        """Progress agrees with the layers of an independent forward pass (with the total: by_mines)."""
        compiled = compile_formula(parse_formula("(a | b) & ~c"), GateSet.BALANCED)
        board, _ = compiled.with_total()
        for subject in (compiled.board, board):
            problem = problem_of(subject)
            progress = Progress()
            assert count(problem, compiled.order, progress) == 3
            st = _structure(problem)
            rank = {cell: i for i, cell in enumerate(compiled.order)}
            dps = [_ComponentDP(order, st) for order in _components(st, rank)]
            for dp in dps:
                dp.forward()
            sizes = [len(layer) for dp in dps for layer in dp.layers[1:]]
            assert progress.widest == max(sizes) and progress.states == sum(sizes)
            assert progress.component == progress.components == len(dps)
            assert progress.text().startswith(f"after component {len(dps)} of {len(dps)}")

    def test_timeout_says_how_far_it_got(self):
        """--timeout stops the count: exit 3, the board, and where the DP was (text and JSON)."""
        # 11,181 hidden squares, about 2 s to count at idle (the three-clause one
        # counted within 0.5 s once the balanced tiles kept their own sweep).
        formula = "(a | ~b) & (b ^ c) & (c | d) & (d ^ e) & (a | ~e)"
        result = CliRunner().invoke(main, ["compile", formula, "--gates", "balanced", "--timeout", "0.5"])
        assert result.exit_code == 3, result.stdout
        last = result.stdout.strip().splitlines()[-1]
        assert last.startswith("no count within 0.5 s (--timeout); stopped ")
        assert "widest DP layer" in last or "before the first DP layer" in last
        result = CliRunner().invoke(main, ["compile", formula, "--gates", "balanced", "--timeout", "0.5", "--json"])
        data = json.loads(result.stdout)
        assert result.exit_code == 3 and data["complete"] is False and data["timeout"] == 0.5
        assert set(data["progress"]) == set(Progress.FIELDS) and data["explanations"] is None

    def test_memory_bound(self):
        """--max-memory: the forked count fails to allocate, and the answer says so (exit 3)."""
        # A fresh process: a test process's own freed memory would serve the child's first megabytes.
        # 11,181 hidden squares: the three-clause board's count fits in a megabyte since its
        # numbers stay one byte a square and its tiles' sweeps keep the DP thin.
        formula = "(a | ~b) & (b ^ c) & (c | d) & (d ^ e) & (a | ~e)"
        result = subprocess.run([sys.executable, "-m", "satsweeper", "compile", formula,
                                 "--gates", "balanced", "--max-memory", "0.001"],
                                capture_output=True, text=True, timeout=120, env=dict(os.environ, PYTHONPATH=ROOT))
        assert result.returncode == 3, result.stdout + result.stderr
        assert "the count needs more than 0.001 GB (--max-memory); stopped " in result.stdout
        assert "Traceback" not in result.stderr


class TestTruthTable:
    def test_many_variables_few_clauses_in_a_moment(self):
        """The truth table of 24 variables (its largest) is built in about a second, not minutes
        (22 variables took 55 s when each column was or-ed together period by period)."""
        formula = parse_dimacs("p cnf 24 2\n1 2 0\n-3 24 0\n")
        started = time.monotonic()
        models = formula.models()
        assert time.monotonic() - started < 10
        assert models == 3 * 3 * 2**20  # (x1 | x2) and (~x3 | x24): 3/4 of the rows, twice over

    def test_the_table_is_every_rows_value(self):
        """Bit i of the table is the formula's value under assignment i (oracle: evaluating each row)."""
        rng = random.Random(5)
        for _ in range(30):
            formula = random_formula(rng, rng.randint(1, 7), 4)
            table = formula.table()
            for i in range(1 << len(formula.variables)):
                row = {v: bool(i >> k & 1) for k, v in enumerate(formula.variables)}
                assert (table >> i & 1) == int(formula.value(row))
