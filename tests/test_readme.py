"""README's Python examples run, and show what their comments say."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def block_after(heading: str) -> str:
    """The first ```python block after ``heading``."""
    start = README.index(f"\n{heading}\n")
    begin = README.index("```python\n", start) + len("```python\n")
    return README[begin:README.index("```", begin)]


def shows(value, comment: str, namespace: dict) -> bool:
    """Does ``comment`` show ``value``: its repr or str (up to a ``...``), a literal
    equal to it (before any words after it), or the names of its items' types?"""
    if "..." in comment:
        return repr(value).startswith(comment[:comment.index("...")])
    if isinstance(value, tuple) and comment == ", ".join(type(v).__name__ for v in value):
        return True
    for end in range(len(comment), 0, -1):  # the longest prefix that is the value
        claim = comment[:end]
        if claim in (repr(value), str(value)):
            return True
        try:
            if eval(claim, dict(namespace)) == value:
                return True
        except Exception:  # not an expression: a shorter prefix may be
            continue
    return False


def run_lines(code: str, namespace: dict) -> list[tuple[str, object, str]]:
    """Run ``code`` statement by statement; (expression, value, comment) of every
    expression statement that carries a comment."""
    lines = code.splitlines()
    shown = []
    for statement in ast.parse(code).body:
        source = ast.get_source_segment(code, statement)
        line = lines[statement.end_lineno - 1]
        comment = line.split("  # ", 1)[1].strip() if "  # " in line else ""
        if isinstance(statement, ast.Expr):
            value = eval(compile(ast.Expression(statement.value), "README", "eval"), namespace)
            if comment:
                shown.append((source, value, comment))
        else:
            exec(compile(ast.Module([statement], []), "README", "exec"), namespace)
    return shown


class TestFromPython:
    def test_every_value_shown_is_the_value(self, monkeypatch):
        """The names of "From Python" exist, and each commented expression has the value its comment shows."""
        monkeypatch.chdir(ROOT)  # the block reads examples/expert.txt
        namespace: dict = {}
        shown = run_lines(block_after("## From Python"), namespace)
        assert len(shown) == 6
        wrong = [(source, value, comment) for source, value, comment in shown
                 if not shows(value, comment, namespace)]
        assert not wrong

    def test_shows_is_not_fooled(self):
        """The checker itself refuses a value its comment does not show."""
        assert shows([1, 2], "[1, 2]: the first two", {}) and not shows([1, 3], "[1, 2]: the first two", {})
        assert not shows((1, 2), "int, Fraction", {}) and shows((1, 2), "int, int", {})
        assert not shows([(3, 12), (3, 25)], "[(3, 12), (3, 24), ...]", {})


class TestYourOwnPlayer:
    def test_the_player_plays_and_compares_game_by_game(self, tmp_path):
        """The block runs as a script, as written (2,000 games, workers=2, which must load its
        class); the game ends as shown, the wins, the pairs and z are what its comments say, and
        compare's games are the games play() plays one by one (the first 200 of them)."""
        code = block_after("### Your own player")
        assert "2000, seed=7, workers=2)" in code and "game.outcome  " in code

        def comment(start: str) -> str:
            return next(line for line in code.splitlines() if line.startswith(start)).split("# ", 1)[1].strip()

        script = tmp_path / "player.py"
        script.write_text(code + (
            "\nimport json\nfrom satsweeper.experiments import play\n"
            "alone = [[play(Level(9, 9, 10), p, f'7:{i}').won for i in range(200)] for p in (Safest, 'best')]\n"
            "print(json.dumps({'outcome': repr(game.outcome), 'won': [w[:200] for w in c.won], 'alone': alone,\n"
            "                  'wins': [s.wins for s in c.summaries], 'paired': repr(c.paired()),\n"
            "                  'z': c.paired().z, 'names': [s.strategy for s in c.summaries]}))\n"))
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env,
                              timeout=600)
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout.splitlines()[-1])
        assert result["outcome"] == comment("game.outcome  ")
        assert result["names"] == ["safest", "best"]
        assert [list(map(bool, w)) for w in result["won"]] == result["alone"]
        # "[1825, 1839]: the same ...", "Paired(only_first=122, only_second=136)", "-0.87...: McNemar's z"
        assert comment("[s.wins for s in c.summaries]").startswith(f"{result['wins']}: ")
        assert comment("c.paired() ") == result["paired"]
        assert comment("c.paired().z").startswith(f"{result['z']:.2f}...: ")


class TestNativeBoard:
    def test_the_example_file_is_a_board(self, tmp_path):
        """The example under "Native boards" reads as a board (its headers once carried
        words after their values, and 10 mines on 10 squares, so that typed in it was refused)."""
        start = README.index("\n### Native boards\n")
        begin = README.index("```\n", start) + len("```\n")
        (tmp_path / "b.txt").write_text(README[begin:README.index("```", begin)])
        from satsweeper.textio import read_board
        board = read_board(tmp_path / "b.txt")
        assert (board.height, board.width, board.total_mines) == (2, 5, 3)
        assert board.names and board.flags and board.voids  # it shows a name, a flag and a void


class TestFileExamples:
    @staticmethod
    def block(heading: str) -> str:
        start = README.index(f"\n{heading}\n")
        begin = README.index("```\n", start) + len("```\n")
        return README[begin:README.index("```", begin)]

    def test_the_gadget_file_is_the_not_gadget(self):
        """The gadget file shown under "Gadgets" ended in '...' and carried a note inside a header
        line, so a reader who copied it had a file nothing read: it is gadgets/not.txt's gadget."""
        from satsweeper.gadgets import parse_gadget, read_gadget, verify
        shown = parse_gadget(self.block("### Gadgets"), "README")
        assert shown == read_gadget(ROOT / "gadgets" / "not.txt") and verify(shown).computes

    def test_the_system_is_fowler_and_young(self):
        """The equations shown under "Constraint systems" carried notes ("optional: ...") that read
        as cell names; as comments the block reads as examples/fowler-young-6x6.txt, with the count
        and the chance of x10 the README quotes."""
        from fractions import Fraction
        from satsweeper.counting import tally
        from satsweeper.systems import parse_system
        block = self.block("### Constraint systems")
        assert block.startswith("x1 + x2 + x3")
        counted = tally(parse_system(block).problem)
        assert counted.count == 2_558_160 and counted.probability("x10") == Fraction(57, 88)
        assert "T = 2,558,160; P(x10) = 57/88" in README
