"""The command line through click's CliRunner: exit codes, output, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from satsweeper.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def board_file(tmp_path):
    def write(text: str, name: str = "b.txt") -> Path:
        path = tmp_path / name
        path.write_text(text)
        return path
    return write


class TestCheck:
    def test_consistent_example(self):
        """Exit 0 and a witness picture."""
        result = run("check", EXAMPLES / "expert.txt")
        assert result.exit_code == 0
        assert result.output.startswith("consistent")

    def test_witness_is_not_called_the_only_one(self):
        """guess.txt has many explanations (count says so): check's witness is not 'one explanation'."""
        assert int(json.loads(run("count", EXAMPLES / "guess.txt", "--json").stdout)["count"]) > 1
        result = run("check", EXAMPLES / "guess.txt")
        assert result.exit_code == 0 and "one explanation" not in result.output
        assert result.output.startswith("consistent: an explanation, perhaps one of many")

    def test_conflict_names_the_clues(self):
        """Exit 1 and the minimal conflict in words."""
        result = run("check", EXAMPLES / "conflict.txt")
        assert result.exit_code == 1
        assert result.output.strip() == (
            "inconsistent: the 4 at 1,0, the 4 at 1,3 and the total of 5 mines cannot all hold")

    def test_json(self):
        """--json prints one object with the conflict as data."""
        result = run("check", EXAMPLES / "conflict.txt", "--json")
        data = json.loads(result.stdout)
        assert data["consistent"] is False
        assert {"kind": "total", "mines": 5} in data["conflict"]

    def test_mine_file(self):
        """JSMinesweeper files are read by extension."""
        assert run("check", EXAMPLES / "expert.mine").exit_code == 0


class TestHint:
    def test_rule_in_words(self):
        """A move one number finds says "(found by one number)", as the README and noguess
        word it (it said "found by single number"); --json keeps its rule "single number"."""
        result = run("hint", EXAMPLES / "unique.txt")
        assert result.exit_code == 0 and "(found by one number)" in result.output
        assert json.loads(run("hint", EXAMPLES / "unique.txt", "--json").stdout)["rule"] == "single number"


class TestSafe:
    def test_safe_cell_with_reason(self, board_file):
        """Exit 0 and the clues that force it."""
        result = run("safe", board_file("mines: 1\n1..\n"), "0,2")
        assert result.exit_code == 0
        assert "the 1 at 0,0 and the total of 1 mine force it" in result.output

    def test_unsafe_cell_with_counterexample(self, board_file):
        """Exit 1 and an explanation in which the move fails."""
        result = run("safe", board_file("1..\n"), "0,2")
        assert result.exit_code == 1
        assert "not safe" in result.output

    def test_marking_a_mine(self, board_file):
        """--mine asks about flagging instead of opening."""
        result = run("safe", board_file("mines: 1\n1..\n"), "0,1", "--mine", "--json")
        assert result.exit_code == 0
        assert json.loads(result.stdout)["move"] == "flag"
        # hint names the same sure move with the same word
        hinted = json.loads(run("hint", board_file("mines: 2\n1..\n"), "--json").stdout)
        assert hinted["sure"] and hinted["move"] == "flag"
        text = run("safe", board_file("mines: 1\n1..\n"), "0,1", "--mine").output
        assert text.startswith("flagging 0,1 is safe")  # the word of --help, the README and hint

    def test_named_cell(self, board_file):
        """A cell can be given by its name."""
        result = run("safe", board_file("mines: 1\n1xy\n"), "y")
        assert result.exit_code == 0

    def test_inconsistent_board_is_never_safe(self):
        """No vacuous 'safe': exit 1 and the conflict."""
        result = run("safe", EXAMPLES / "conflict.txt", "0,0")
        assert result.exit_code == 1
        assert "inconsistent" in result.output

    @pytest.mark.parametrize("cell, message", [
        ("5,5", "the 3x1 board (WIDTHxHEIGHT; rows 0-0, columns 0-2) (got 5,5, which is outside the board)"),
        ("3,99999999999999999999", "(got '3,99999999999999999999', which is outside the board)"),
        ("0,0", "a revealed 1"),
        ("zz", "a cell name"),
        ("1;2", "ROW,COL"),
    ])
    def test_bad_cells(self, board_file, cell, message):
        """Cells that are not hidden are bad input (exit 2)."""
        result = run("safe", board_file("1..\n"), cell)
        assert result.exit_code == 2
        assert message in result.output


class TestSolveAndUnique:
    def test_solve_example(self):
        """The expert example has safe cells the obvious rules miss."""
        result = run("solve", EXAMPLES / "expert.txt", "--json")
        assert result.exit_code == 0
        data = json.loads(result.stdout)
        assert data["safe"] == 10 and data["mine"] == 8

    def test_unique(self):
        """The unique example exits 0, a two-cell tie exits 1 with both."""
        assert run("unique", EXAMPLES / "unique.txt").exit_code == 0

    def test_not_unique(self, board_file):
        """Two explanations are shown when not unique."""
        result = run("unique", board_file("1..\n"), "--json")
        assert result.exit_code == 1
        assert len(json.loads(result.stdout)["explanations"]) == 2

    def test_flags_hidden(self, board_file):
        """--flags hidden turns a wrong flag into an answerable question."""
        path = board_file("mines: 1\nF1.\n")
        assert run("safe", path, "0,2").exit_code == 0
        assert run("safe", path, "0,0", "--flags", "hidden").exit_code == 1

    def test_solver_and_encoding_choice(self):
        """Any python-sat solver; CNF encodings with solvers lacking native cardinality."""
        for args in (["--solver", "cadical195"], ["--solver", "minisat22", "--encoding", "totalizer"]):
            assert run("solve", EXAMPLES / "unique.txt", *args).exit_code == 0

    def test_native_needs_a_native_solver(self):
        """Asking for the impossible combination is bad input."""
        result = run("solve", EXAMPLES / "unique.txt", "--solver", "cadical195", "--encoding", "native")
        assert result.exit_code == 2
        assert "expected a solver with native cardinality (minicard or gluecard)" in result.output


class TestCounting:
    def test_seed_example_count(self):
        """Fowler & Young's system: T = 2,558,160 and the frontier split."""
        result = run("count", EXAMPLES / "fowler-young-6x6.txt", "--json")
        assert result.exit_code == 0
        data = json.loads(result.stdout)
        assert data["count"] == "2558160"
        assert data["frontier"] == {"3": "4", "4": "15"}

    @pytest.mark.parametrize("engine", ["components", "ganak"])
    def test_probs_json(self, engine):
        """Exact fractions per cell, identical for both engines."""
        result = run("probs", EXAMPLES / "fowler-young-6x6.txt", "--json", "--engine", engine)
        data = json.loads(result.stdout)
        x10 = next(c for c in data["cells"] if c["name"] == "x10")
        assert x10["probability"] == "57/88"
        assert [c["name"] for c in data["safest"]] == ["x1", "x2", "x3"]

    def test_board_probs(self):
        """A board gets a picture with percentages and the safest cells."""
        result = run("probs", EXAMPLES / "expert.txt")
        assert result.exit_code == 0
        assert "safest (10)" in result.output

    def test_words_for_boards_with_nothing_to_weigh(self, tmp_path):
        """Every hidden cell a mine: probs said "safest (6): ... at p = 1"; no cell next to a
        number: count said "1 arrangement of the constrained cells (1 with 0 mines)". The counts
        by hand: 2x3 squares with no number hold 2**6 explanations, C(6, 2) = 15 with 2 mines."""
        board = tmp_path / "b.txt"
        board.write_text("mines: 6\n...\n...\n")
        assert run("probs", board).output.rstrip().endswith("\nevery hidden cell is a mine (p = 1)")
        for header, count, fixed in (("", 64, ""), ("mines: 2\n", 15, ", the total fixing how many are mines")):
            board.write_text(header + "...\n...\n")
            assert run("count", board).output == (f"{count} explanations\nno hidden cell is next to a number: "
                                                   f"the 6 hidden cells are free{fixed}\n")
        board.write_text("0..\n...\n")  # cells next to a 0: one arrangement, no mine, as before
        assert "1 arrangement of the constrained cells (1 with 0 mines)" in run("count", board).output
        # A layout's start is a rule (safe), but no number: C(8, 2) = 28 with the start kept safe.
        board.write_text("mines: 2\nstart: 1,1\n*..\n...\n..*\n")
        assert run("count", board).output == ("28 explanations\nno hidden cell is next to a number: the 8 hidden "
                                              "cells besides the start (safe) are free, the total fixing how "
                                              "many are mines\n")

    def test_board_probs_one_explanation(self, tmp_path):
        """A board with a single explanation says so in the singular (the 1 leaves
        its one hidden neighbour no choice: a mine, by hand)."""
        board = tmp_path / "one.txt"
        board.write_text("mines: 1\n1.\n")
        result = run("probs", board)
        assert result.exit_code == 0
        assert "1 explanation; probability" in result.output

    def test_board_probs_with_nothing_hidden(self, tmp_path):
        """No hidden cell: said so, not "safest (0): none at p = 0 (0.00%)"."""
        board = tmp_path / "done.txt"
        board.write_text("1F\n")
        result = run("probs", board)
        assert result.exit_code == 0 and "no hidden cell is left" in result.output
        assert "safest" not in result.output

    def test_the_total_rules_out_what_it_rules_out(self):
        """The constrained cells' arrangements are counted before the total; the text
        says which mine numbers the total rules out ("240 with 6 mines" beside
        "mines: 5" read as explanations).  Brute force: a mine number is ruled out
        exactly when no explanation puts that many mines on the constrained cells."""
        import random
        import re

        from satsweeper.constraints import problem_of
        from satsweeper.textio import parse_board

        from . import oracle
        rng, ruled_out_seen = random.Random(5), 0
        for _ in range(400):
            width, height = rng.randint(2, 4), rng.randint(1, 3)
            mines = {(r, c) for r in range(height) for c in range(width) if rng.random() < 0.35}
            cells = [(r, c) for r in range(height) for c in range(width)]
            opened = [c for c in cells if c not in mines and rng.random() < 0.4]
            rows = ["".join(str(sum((r + dr, c + dc) in mines for dr in (-1, 0, 1) for dc in (-1, 0, 1)))
                            if (r, c) in opened else "." for c in range(width)) for r in range(height)]
            text = f"mines: {len(mines)}\n" + "\n".join(rows) + "\n"
            problem = problem_of(parse_board(text))
            if not problem.constrained_cells():
                continue
            frontier = set(problem.constrained_cells())
            reached = {len(e & frontier) for e in oracle.explanations(problem)}
            out = CliRunner().invoke(main, ["count", "-"], input=text).output
            said = re.search(r"arrangements? of the constrained cells \((.*)\)$", out, re.M).group(1)
            ruled = said.split("; ")[1] if "rules out" in said else ""
            named = {int(k) for k in re.findall(r"with (\d+) mines?", said)}
            out_named = {int(k) for k in re.findall(r"with (\d+) mines?", ruled)}
            assert named - out_named == reached & named, (text, out)
            ruled_out_seen += bool(out_named)
        assert ruled_out_seen >= 5  # the test sees the case at all

    def test_inconsistent_count(self):
        """Zero explanations, exit 1, and the reason."""
        result = run("count", EXAMPLES / "conflict.txt")
        assert result.exit_code == 1
        assert "cannot all hold" in result.output


class TestSystems:
    def test_solve_and_safe_on_a_system(self, board_file):
        """SAT commands read equation files too."""
        path = board_file("a + b = 1\nb + c = 2\nother: 1\nmines: 2\n", "s.txt")
        result = run("solve", path, "--json")
        assert result.exit_code == 0
        status = {c["name"]: c["status"] for c in json.loads(result.stdout)["cells"]}
        assert status == {"a": "safe", "b": "mine", "c": "mine", "other#1": "safe"}
        result = run("safe", path, "other#1")
        assert result.exit_code == 0
        assert "the total of 2 mines" in result.output

    def test_check_on_the_seed_system(self):
        """Fowler and Young's example is consistent; the picture lists its cells."""
        result = run("check", EXAMPLES / "fowler-young-6x6.txt")
        assert result.exit_code == 0
        assert "x12" in result.output


class TestBadInput:
    @pytest.mark.parametrize("text, where", [
        ("", "b.txt:1:1"),
        ("..\n...\n", "b.txt:2:3"),
        (".?\n", "b.txt:1:2"),
        ("9.\n", "b.txt:1:1"),
        ("mines: 99\n..\n", "b.txt:1:8"),
        ("  mines:   x\n..\n", "b.txt:1:12"),
        ("start: 5,5\n..\n", "b.txt:1:8"),
        ("layout: wide\n..\n", "b.txt:1:9"),
    ])
    def test_board_errors_exit_2(self, board_file, text, where):
        """file:line:col and exit 2, never a traceback."""
        for command in ("check", "solve", "unique", "count", "probs"):
            result = run(command, board_file(text))
            assert result.exit_code == 2, command
            assert where in result.output
            assert "Traceback" not in result.output

    def test_missing_file(self, tmp_path):
        """A missing file is reported, exit 2."""
        result = run("check", tmp_path / "nope.txt")
        assert result.exit_code == 2
        assert "nope.txt:1:1: expected a readable file" in result.output
        assert "library gadget" not in result.output

    @pytest.mark.parametrize("args", [["check", ""], ["gadget", "verify", ""], ["repair", ""],
                                      ["noguess", ""], ["render", "", "-o", "x.png"]])
    def test_an_empty_file_name(self, args, tmp_path, monkeypatch):
        """An empty name ('' from an unset shell variable) was read as '.', "expected a
        readable file (got a directory)" naming a file never given."""
        monkeypatch.chdir(tmp_path)
        result = run(*args)
        assert result.exit_code == 2
        assert "expected a file name, or - for standard input (got an empty name)" in result.stderr
        assert ".:1:1" not in result.stderr

    @pytest.mark.parametrize("name", ["and", "balanced-not"])
    def test_a_board_command_takes_a_gadgets_name(self, name, tmp_path, monkeypatch):
        """'count and' said only "no such file", then how to write the file: the board commands
        take a library gadget's name as gadget verify and repair do, and read what gadget write
        writes (counted independently: the brute force over the gadget's hidden cells)."""
        monkeypatch.chdir(tmp_path)
        from satsweeper.gadgets import named_gadget
        from satsweeper import problem_of
        from tests.oracle import explanations
        counted = json.loads(run("count", name, "--json").stdout)["count"]
        assert run("gadget", "write", "g", name).exit_code == 0
        assert counted == json.loads(run("count", f"g/{name}.txt", "--json").stdout)["count"]
        if name == "and":  # few hidden cells: the brute force is quick
            assert int(counted) == len(explanations(problem_of(named_gadget(name).board)))
        assert run("check", name).exit_code == 0
        assert run("render", name, "-o", "g.svg").exit_code == 0 and (tmp_path / "g.svg").exists()

    def test_a_file_comes_before_a_gadgets_name(self, tmp_path, monkeypatch):
        """A file called 'and' is read, not the gadget; a layout command still asks for a file."""
        monkeypatch.chdir(tmp_path)
        (tmp_path / "and").write_text("mines: 1\n1.\n")
        assert json.loads(run("count", "and", "--json").stdout)["count"] == "1"
        (tmp_path / "and").unlink()
        result = run("noguess", "and")
        assert result.exit_code == 2 and ("and is a library gadget: satsweeper gadget write DIR and writes its "
                                          "file (DIR/and.txt)") in result.stderr

    def test_system_errors(self, board_file):
        """Equation files get positions too."""
        result = run("count", board_file("a + b = x\n", "s.txt"))
        assert result.exit_code == 2
        assert "s.txt:1:" in result.output and "a whole number" in result.output

    def test_bad_system_cell(self):
        """A system cell must be one of its names."""
        result = run("safe", EXAMPLES / "fowler-young-6x6.txt", "x99")
        assert result.exit_code == 2
        assert "a cell of the system" in result.output

    def test_unknown_command_is_usage_error(self):
        assert run("frobnicate").exit_code == 2


class TestSolvers:
    def test_every_offered_solver_answers(self):
        """Each --solver the help offers runs and gives the brute-force answer on a small
        board (cryptosat and minisatgh were offered, then failed as internal errors)."""
        from satsweeper.constraints import problem_of
        from satsweeper.reasoning import solver_names
        from satsweeper.textio import parse_board

        from . import oracle
        truth = oracle.status(problem_of(parse_board((EXAMPLES / "unique.txt").read_text())))
        for name in solver_names():
            result = run("solve", EXAMPLES / "unique.txt", "--solver", name, "--json")
            assert result.exit_code == 0, (name, result.output)
            got = {(c["row"], c["col"]): c["status"] for c in json.loads(result.stdout)["cells"]}
            assert got == truth, name


class TestLookalikes:
    TYPO = "mines: 4\n.2..0\n..22.\n1..1o\n1..10\n"  # examples/unique.txt with 0 typed as o

    def test_a_letter_for_a_digit_is_noted(self, tmp_path):
        """'o' where 0 was meant reads as a hidden cell named o, and the board stays
        consistent: the answer comes with a note on stderr naming the square (row 2 of
        the grid, column 4, counted by hand); stdout and the exit code are unchanged."""
        board = tmp_path / "typo.txt"
        board.write_text(self.TYPO)
        result = run("solve", board)
        assert result.exit_code == 0
        assert "the square at 2,4 is read as a hidden cell named 'o' (a typo for 0?)" in result.stderr
        assert "note" not in result.stdout
        data = json.loads(run("solve", board, "--json").stdout)  # still exactly one object
        assert data["command"] == "solve"

    def test_a_lower_case_flag_is_noted(self, tmp_path):
        """'f' where a flag F was meant (it read as a hidden cell named f, silently)."""
        board = tmp_path / "typo.txt"
        board.write_text("mines: 1\n1f\n..\n")
        result = run("solve", board)
        assert result.exit_code == 0
        assert "the square at 0,1 is read as a hidden cell named 'f' (a typo for F?)" in result.stderr

    def test_names_on_purpose_are_not_noted(self, tmp_path):
        """Other names, and a gadget's ports (or-tile's input is called l), get no note."""
        board = tmp_path / "named.txt"
        board.write_text("mines: 1\n1xy\n")
        assert "note" not in run("safe", board, "y").stderr
        assert "note" not in run("check", EXAMPLES.parent / "gadgets" / "or-tile.txt").stderr
        board.write_text("layout: tokens\n1 o\n. .\n")  # tokenized rows, as compile writes them
        assert "note" not in run("safe", board, "o").stderr
        board.write_text("1o\n..\n")  # the same board typed dense is noted
        assert "typo for 0?" in run("safe", board, "o").stderr


def test_count_says_the_flags_come_on_top(tmp_path):
    """count's arrangements leave the flags out, and say so with their number.

    Oracle: brute-force enumeration of the board's explanations; every one's
    mines among hidden cells plus the flags is the board's whole mine count.
    """
    import re

    from satsweeper.constraints import problem_of
    from satsweeper.textio import read_board

    from .oracle import explanations

    path = tmp_path / "b.txt"
    path.write_text("F3.\nF3.\n")  # no floating cell: every explanation is an arrangement
    board = read_board(path)
    found = explanations(problem_of(board))
    output = run("count", str(path)).output
    said = re.search(r"\((\d+) with (\d+) mines?; the (\d+) flags? comes? on top\)", output)
    assert said, output
    assert int(said.group(1)) == len(found)
    assert {int(said.group(2))} == {len(e) for e in found}
    assert int(said.group(3)) == len(board.flags) == 2
    assert "on top" not in run("count", str(path), "--flags", "hidden").output



def test_unique_lists_differing_cells_in_reading_order(tmp_path):
    """The cells where two explanations differ come in reading order (it was string order).

    Oracle: two hidden cells, columns 2 and 11, and a total of one mine: the two
    explanations differ at both, and 2 comes before 11.
    """
    path = tmp_path / "b.txt"
    path.write_text("mines: 1\n--.--------.-\n")
    said = run("unique", str(path)).output.splitlines()[0]
    assert said == "not unique: two explanations differ at 0,2 and 0,11"


class TestStart:
    """A file's ``start:`` cell is where the first click goes, so it is safe: the queries
    called a no-guess layout's start "not safe (10/81)", drew a mine there and hinted at a
    corner, while noguess played the same file from it.  The oracle: every placement of the
    total's mines on the hidden cells that the numbers allow and that leaves the start
    safe, enumerated here square by square."""

    BOARDS = ["mines: 2\nstart: 2,2\n1..\n...\n...\n",     # a position with a number
              "mines: 2\nstart: 1,1\n*..\n..*\n...\n",     # a layout, its start among its mines' neighbours
              "mines: 3\nstart: 0,3\n....\n.*..\n**..\n"]  # a layout on a 4x3 board

    @staticmethod
    def oracle(text: str) -> tuple[list[frozenset], tuple[int, int]]:
        from itertools import combinations
        lines = [line for line in text.splitlines() if line and ":" not in line]
        total = int(text.split("mines: ")[1].split("\n")[0])
        start = tuple(int(x) for x in text.split("start: ")[1].split("\n")[0].split(","))
        height, width = len(lines), len(lines[0])
        hidden = [(r, c) for r in range(height) for c in range(width) if lines[r][c] in ".*"]
        numbers = {(r, c): int(lines[r][c]) for r in range(height) for c in range(width) if lines[r][c].isdigit()}
        near = lambda r, c: {(r + i, c + j) for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) != (0, 0)}
        found = [frozenset(m) for m in combinations(hidden, total) if start not in m
                 and all(len(near(*cell) & set(m)) == n for cell, n in numbers.items())]
        return found, start

    @pytest.mark.parametrize("text", BOARDS)
    def test_every_query_knows_the_start_is_safe(self, text, tmp_path):
        from fractions import Fraction
        layouts, start = self.oracle(text)
        path = tmp_path / "b.txt"
        path.write_text(text)
        where = f"{start[0]},{start[1]}"
        data = json.loads(run("count", path, "--json").stdout)
        assert int(data["count"]) == len(layouts)
        cells = json.loads(run("probs", path, "--json").stdout)["cells"]
        for c in cells:
            expected = Fraction(sum((c["row"], c["col"]) in m for m in layouts), len(layouts))
            assert Fraction(c["probability"]) == expected, c
        data = json.loads(run("safe", path, where, "--json").stdout)
        assert data["safe"] is True and data["reason"] == [
            {"kind": "rule", "text": f"the start at {where} (a first click is safe)"}]
        data = json.loads(run("hint", path, "--json").stdout)
        assert data["sure"] is True and (data["cell"]["row"], data["cell"]["col"]) == start
        assert data["rule"] == "first click"
        assert run("hint", path).output.startswith(f"open {where}: the file's start")
        unique = json.loads(run("unique", path, "--json").stdout)["unique"]
        assert unique == (len(layouts) == 1)

    def test_the_hint_picture_draws_the_start_safe(self, tmp_path, monkeypatch):
        """hint --render drew the start at the density's 12% and captioned "blue: the clues
        that force it and the total mine count": the picture's chances came without the rule."""
        from fractions import Fraction
        import satsweeper.render
        drawn = {}
        monkeypatch.setattr(satsweeper.render, "render",
                            lambda board, path, picture: drawn.update(picture=picture) or Path(path).write_text("x"))
        result = run("hint", EXAMPLES / "layout.txt", "--render", tmp_path / "h.png")
        assert result.exit_code == 0, result.output
        picture = drawn["picture"]
        assert picture.probabilities[(4, 4)] == 0 and picture.probabilities[(0, 0)] == Fraction(1, 8)
        assert picture.caption.startswith("magenta: open this cell, the file's start") and "total" not in picture.caption
