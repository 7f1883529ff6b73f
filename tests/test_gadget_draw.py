"""satsweeper gadget draw: a gadget's picture for a slide, its claim as the
title, its ports outlined, and with --inputs the gadget at work.

Every count, forced output and drawn explanation is checked against the
brute-force oracle (tests/oracle.py) and against the board's own numbers.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from satsweeper.cli import main
from satsweeper.constraints import Constraint, Problem, problem_of
from satsweeper.gadgets import named_gadget

from .oracle import explanations


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def brute(gadget, values):
    """Every explanation of ``gadget`` with its inputs pinned to ``values`` (oracle)."""
    base = problem_of(gadget.board)
    pins = tuple(Constraint(frozenset({gadget.cell(p)}), int(v), f"input {p}") for p, v in zip(gadget.inputs, values))
    return explanations(Problem(base.cells, base.constraints + pins))


def explains(board, mines) -> bool:
    """Every number sees exactly its count of flags and drawn mines (no library code)."""
    return all(sum((r + dr, c + dc) in mines or (r + dr, c + dc) in board.flags
                   for dr in (-1, 0, 1) for dc in (-1, 0, 1)) == n
               for (r, c), n in board.clues.items())


class TestDraw:
    @pytest.mark.parametrize("name", ["not", "xor", "forced-end", "split"])
    def test_every_input_as_the_oracle_says(self, name, tmp_path):
        """Count, forced outputs and the drawn mines agree with brute force; exit 0 when as claimed."""
        g = named_gadget(name)
        for values in itertools.product((0, 1), repeat=len(g.inputs)):
            setting = ",".join(f"{p}={v}" for p, v in zip(g.inputs, values))
            result = run("gadget", "draw", name, "-o", tmp_path / "g.svg", "--inputs", setting, "--json")
            data = json.loads(result.output)
            truth = brute(g, values)
            assert data["explanations"] == str(len(truth)), (name, values)
            for port in g.outputs:
                seen = {g.cell(port) in e for e in truth}
                want = "undetermined" if len(seen) > 1 else "mine" if seen == {True} else "safe"
                assert data["outputs"][port] == want
            drawn = frozenset(map(tuple, data["mines_drawn"]))
            assert (drawn in truth) == bool(truth) and (not truth or explains(g.board, drawn))
            claimed = g.accepted(tuple(map(bool, values)))
            as_claimed = (not truth) if not claimed else bool(truth) and all(
                data["outputs"][p] == ("mine" if v else "safe") for p, v in g.expected(tuple(map(bool, values))).items())
            assert result.exit_code == (0 if as_claimed else 1) and data["correct"] == as_claimed

    def test_a_wrong_claim_exits_1(self, tmp_path):
        """A wire that claims to negate: the picture is drawn, the case is not as claimed, exit 1."""
        path = tmp_path / "liar.txt"
        path.write_text("gadget: liar\ninputs: x\noutputs: y = ~x\nlayout: tokens\n"
                        "x' x 1 x'2 x2 1 y' y\n")
        result = run("gadget", "draw", path, "-o", tmp_path / "liar.png", "--inputs", "x=1")
        assert result.exit_code == 1 and "NOT as claimed" in result.output
        assert (tmp_path / "liar.png").stat().st_size > 0

    def test_a_broken_figure_outlines_its_clash(self, tmp_path, monkeypatch):
        """Pedersen's OR as printed has no explanation for any input: it was drawn as if it
        worked (exit 0). Now exit 1, the clash named and outlined; the oracle: the named numbers'
        rules alone have no explanation, and without any one of them they have one."""
        import satsweeper.render
        from satsweeper.gadgets import read_gadget
        figure = Path(__file__).resolve().parent.parent / "gadgets" / "figures" / "fig-3.5-or-as-printed.txt"
        drawn = []
        monkeypatch.setattr(satsweeper.render, "render", lambda board, path, picture: drawn.append(picture))
        result = run("gadget", "draw", figure, "-o", tmp_path / "or.svg", "--json")
        data = json.loads(result.output)
        assert result.exit_code == 1 and data["conflict"]
        named = {(c["row"], c["col"]) for c in data["conflict"]}
        assert {c for c, k in drawn[0].marks.items() if k == "move"} == named
        assert drawn[0].caption.startswith("inconsistent: ") and "(outlined magenta)" in drawn[0].caption
        rules = [r for r in problem_of(read_gadget(figure).board).constraints if r.origin.cell in named]
        assert len(rules) == len(named)

        def explained(chosen):
            return bool(explanations(Problem(tuple(sorted({c for r in chosen for c in r.cells})), tuple(chosen))))
        assert not explained(rules)
        assert all(explained([r for r in rules if r is not left]) for left in rules)

    def test_a_rejected_input_says_why(self, tmp_path):
        """forced-end rejects a=0 as it claims (exit 0); the numbers and the pinned input that
        clash are named: without the pin the same numbers have an explanation (oracle)."""
        result = run("gadget", "draw", "forced-end", "-o", tmp_path / "f.svg", "--inputs", "a=0", "--json")
        data = json.loads(result.output)
        assert result.exit_code == 0 and data["correct"] and data["explanations"] == "0"
        assert {"kind": "rule", "text": "input a=0"} in data["conflict"]
        g = named_gadget("forced-end")
        clues = {(c["row"], c["col"]) for c in data["conflict"] if c["kind"] == "clue"}
        rules = [r for r in problem_of(g.board).constraints if r.origin.cell in clues]
        pinned = Constraint(frozenset({g.cell("a")}), 0, "a=0")
        cells = tuple(sorted({c for r in rules for c in r.cells} | {g.cell("a")}))
        assert not explanations(Problem(cells, tuple(rules) + (pinned,)))
        assert explanations(Problem(cells, tuple(rules)))
        assert "conflict" not in json.loads(run("gadget", "draw", "forced-end", "-o", tmp_path / "f.svg",
                                                "--inputs", "a=1", "--json").output)

    def test_the_picture_names_the_claim_and_the_ports(self, tmp_path):
        """The SVG's text carries the claim, every port's name and the legend."""
        out = tmp_path / "and.svg"
        assert run("gadget", "draw", "and", "-o", out, "--inputs", "u=0,v=0").exit_code == 0
        svg = out.read_text()
        assert "and: inputs u v; t = u &amp; v" in svg
        assert "2 explanations, one drawn" in svg and len(brute(named_gadget("and"), (0, 0))) == 2
        assert all(f">{p}<" in svg for p in ("u", "v", "t"))
        # the outlines' key, which went when --inputs gave a caption (wrapped: its words, one by one)
        assert all(word in svg for word in ("blue", "outline:", "inputs", "orange", "outputs"))

    def test_an_overview_says_it_draws_no_mines(self, tmp_path):
        """A balanced gadget (158x107) is an overview: its caption in the picture says the
        ports are named and no mine is drawn (it said "drawn (black mines)", and the
        overview left the caption out); the explanation in the JSON satisfies every number."""
        out = tmp_path / "band.svg"
        result = run("gadget", "draw", "balanced-and", "-o", out, "--inputs", "l=1,b=0", "--json")
        data = json.loads(result.output)
        assert result.exit_code == 0 and data["outputs"] == {"t": "safe"}
        assert explains(named_gadget("balanced-and").board, frozenset(map(tuple, data["mines_drawn"])))
        svg = out.read_text()
        assert "1 explanation; too big to draw square by square" in svg and "black mines" not in svg

    def test_a_terminator_has_no_orange_in_its_legend(self, tmp_path):
        """forced-end has no output port: its legend said "orange outline: outputs none"."""
        result = run("gadget", "draw", "forced-end", "-o", tmp_path / "f.svg")
        assert result.exit_code == 0 and not named_gadget("forced-end").outputs
        assert result.output.splitlines()[0] == "blue outline: inputs a; no output port"
        assert "orange" not in (tmp_path / "f.svg").read_text()

    @pytest.mark.parametrize("name", ["balanced-xor", "cross"])
    def test_an_overview_shows_the_ports_and_their_values(self, name, tmp_path):
        """An overview drew every named cell green, inputs and outputs alike, and with
        --inputs the very picture it drew without: each port is now named in its outline's
        colour, and at work with its value, the brute force's for the outputs (a mine, 1)."""
        from satsweeper.render import PORT_TEXT
        g = named_gadget(name)
        plain = tmp_path / "plain.svg"
        assert run("gadget", "draw", name, "-o", plain).exit_code == 0
        svg = plain.read_text()
        assert "blue: inputs; orange: outputs" in svg and "port=1" not in svg
        values = (True, False)
        out = tmp_path / "case.svg"
        setting = ",".join(f"{p}={int(v)}" for p, v in zip(g.inputs, values))
        assert run("gadget", "draw", name, "-o", out, "--inputs", setting).exit_code == 0
        svg = out.read_text()
        (only,) = brute(g, values)  # one explanation: every port's value is that
        for port in g.inputs + tuple(g.outputs):
            value = int(g.cell(port) in only)
            kind = "input" if port in g.inputs else "output"
            assert f"{port}={value}" in svg and f"{port}={1 - value}" not in svg
            assert PORT_TEXT[kind] in svg  # named in its outline's colour
        assert "port=1: a mine there (true)" in svg

    @pytest.mark.parametrize("setting", ["u=1", "u=1,v=2", "u=1,v=0,w=1", "u=1,u=0", "1,0"])
    def test_bad_inputs_exit_2(self, setting, tmp_path):
        """Every input set exactly once to 0 or 1, else a clear error (exit 2) and no picture."""
        result = run("gadget", "draw", "and", "-o", tmp_path / "x.png", "--inputs", setting)
        assert result.exit_code == 2 and "expected every input of and set once, as u=0|1,v=0|1" in result.output
        assert "Traceback" not in result.output and not (tmp_path / "x.png").exists()
