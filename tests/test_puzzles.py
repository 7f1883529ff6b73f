"""No-guess checks and generators, against an oracle-driven player."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from satsweeper.cli import main
from satsweeper.constraints import problem_of
from satsweeper.difficulty import Rung, grade
from satsweeper.errors import CellError, InputError
from satsweeper.game import FirstClick, Game, Level, Outcome, place_mines
from satsweeper.puzzles import AUTO_DRAWS, Method, generate, guess_odds, no_guess, start_zone, three_bv
from satsweeper.propagation import propagate
from satsweeper.textio import parse_puzzle

from . import oracle

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
LADDER = EXAMPLES / "ladder"


def oracle_no_guess(level: Level, mines: frozenset, start, shown=(), flagged=()) -> bool:
    """Open every cell the brute-force oracle proves safe until won or stuck
    (``shown``: safe cells open from the start besides ``start``; ``flagged``: mines
    shown flagged from the start)."""
    game = Game(level, mines)
    for cell in (start, *shown):
        game.open(cell)
    for cell in flagged:
        game.flag(cell)
    while game.outcome is Outcome.PLAYING:
        status = oracle.status(problem_of(game.board))
        safe = [c for c, s in status.items() if s == "safe"]
        if not safe:
            return False
        for cell in safe:
            game.open(cell)
    return game.outcome is Outcome.WON


class TestNoGuess:
    @settings(max_examples=60, deadline=None)
    @given(st.integers(2, 5), st.integers(2, 5), st.data())
    def test_matches_the_oracle_player(self, width, height, data):
        """Solved exactly when a brute-force player never needs to guess."""
        level = Level(width, height, data.draw(st.integers(1, max(1, width * height // 3))))
        start = (data.draw(st.integers(0, height - 1)), data.draw(st.integers(0, width - 1)))
        rng = random.Random(data.draw(st.integers(0, 10**6)))
        mines = place_mines(level, rng, frozenset({start}))
        assert no_guess(level, mines, start).solved == oracle_no_guess(level, mines, start)

    @settings(max_examples=60, deadline=None)
    @given(st.integers(2, 5), st.integers(2, 4), st.data())
    def test_given_numbers_are_used(self, width, height, data):
        """A layout file's revealed numbers are open from the start (they were ignored:
        the check and the grade began from the first click alone): the verdict is the
        oracle player's from the same position, and the grade finishes exactly when it does."""
        level = Level(width, height, data.draw(st.integers(1, max(1, width * height // 3))))
        start = (data.draw(st.integers(0, height - 1)), data.draw(st.integers(0, width - 1)))
        rng = random.Random(data.draw(st.integers(0, 10**6)))
        mines = place_mines(level, rng, frozenset({start}))
        safe = [(r, c) for r in range(height) for c in range(width) if (r, c) not in mines]
        shown = tuple(rng.sample(safe, min(len(safe), data.draw(st.integers(1, 3)))))
        solved = no_guess(level, mines, start, shown).solved
        assert solved == oracle_no_guess(level, mines, start, shown)
        assert grade(level, mines, start, shown=shown).solved == solved
        with pytest.raises(InputError):
            no_guess(level, mines, start, (next(iter(mines)),))

    @settings(max_examples=60, deadline=None)
    @given(st.integers(2, 5), st.integers(2, 4), st.data())
    def test_given_flags_are_used(self, width, height, data):
        """A layout file's flags are mines the player is shown (they were played as hidden
        mines, a position a player with the flags solves called stuck): the verdict is the
        oracle player's with the same flags, and the grade finishes exactly when it does."""
        level = Level(width, height, data.draw(st.integers(1, max(1, width * height // 3))))
        start = (data.draw(st.integers(0, height - 1)), data.draw(st.integers(0, width - 1)))
        rng = random.Random(data.draw(st.integers(0, 10**6)))
        mines = place_mines(level, rng, frozenset({start}))
        flagged = tuple(rng.sample(sorted(mines), data.draw(st.integers(1, len(mines)))))
        solved = no_guess(level, mines, start, flagged=flagged).solved
        assert solved == oracle_no_guess(level, mines, start, flagged=flagged)
        assert grade(level, mines, start, flagged=flagged).solved == solved
        safe = next(c for c in ((r, c) for r in range(height) for c in range(width)) if c not in mines)
        with pytest.raises(InputError):
            no_guess(level, mines, start, flagged=(safe,))

    def test_the_cli_shows_the_given_flags(self, tmp_path):
        """A probe's puzzle: four of its five mines flagged; with the flags shown single
        numbers solve it (it said "stuck after 4 rounds; a guess is forced", exit 1)."""
        path = tmp_path / "flags.txt"
        path.write_text("mines: 5\nstart: 4,4\n.....\n.F..F\n.....\n*F...\nF....\n")
        puzzle = parse_puzzle(path.read_text())
        assert oracle_no_guess(Level(5, 5, 5), puzzle.mines, (4, 4), flagged=tuple(puzzle.board.flags))
        result = CliRunner().invoke(main, ["noguess", str(path)])
        assert result.exit_code == 0 and result.output.startswith("no-guess: yes")
        assert "difficulty: easy" in result.output

    def test_the_cli_opens_the_given_numbers(self, tmp_path):
        """noguess and render --opened on a layout that shows a 1 at 0,0: the 1 is on the
        board they start from (noguess listed 0,0 among the cells to guess, at 1/3)."""
        layout = tmp_path / "given.txt"
        layout.write_text("mines: 3\nstart: 2,3\n1 . . .\n. * . .\n. . * .\n* . . .\n")
        data = json.loads(CliRunner().invoke(main, ["noguess", str(layout), "--json"]).stdout)
        assert {"row": 0, "col": 0} not in [{"row": c["row"], "col": c["col"]} for c in data["frontier"]]
        plain = layout.read_text().replace("1 . . .", ". . . .")
        status = oracle.status(problem_of(Game(Level(4, 4, 3), parse_puzzle(plain).mines).opened_with(
            (2, 3), [(0, 0)]).board))
        assert {(c["row"], c["col"]) for c in data["frontier"]} <= {c for c, s in status.items() if s == "undetermined"}

    def test_stuck_reports_the_frontier(self):
        """A 1 in the corner with three hidden cells around it forces a guess."""
        answer = no_guess(Level(2, 2, 1), frozenset({(1, 1)}), (0, 0))
        assert not answer.solved
        assert answer.frontier == ((0, 1), (1, 0), (1, 1))

    def test_multi_clue_deductions_are_counted(self):
        """Where single numbers get stuck, the exact engine's cells count as multi-clue."""
        layout = parse_puzzle("mines: 4\nstart: 3,0\n.*...\n...*.\n..**.\n.....\n")
        level = Level(5, 4, 4)
        game = Game(level, layout.mines)
        game.open(layout.start)
        propagate(game, list(game.revealed))
        assert game.outcome is Outcome.PLAYING  # the single-number rules alone are stuck
        answer = no_guess(level, layout.mines, layout.start)
        assert answer.solved and answer.single_clue > 0 and answer.multi_clue > 0

    def test_start_on_a_mine_is_refused(self):
        with pytest.raises(ValueError):
            no_guess(Level(2, 1, 1), frozenset({(0, 0)}), (0, 0))


class TestGuessOdds:
    @settings(max_examples=60, deadline=None)
    @given(st.integers(2, 4), st.integers(2, 4), st.data())
    def test_odds_match_brute_force(self, width, height, data):
        """Where a guess is forced, each hidden cell's chance is the share of explanations with a mine there."""
        level = Level(width, height, data.draw(st.integers(1, max(1, width * height // 3))))
        start = (data.draw(st.integers(0, height - 1)), data.draw(st.integers(0, width - 1)))
        mines = place_mines(level, random.Random(data.draw(st.integers(0, 10**6))), frozenset({start}))
        answer = no_guess(level, mines, start)
        odds = guess_odds(answer)
        if answer.solved:
            assert odds == {}
            return
        found = oracle.explanations(problem_of(answer.position))
        assert set(odds) == set(answer.position.hidden_cells()) >= set(answer.frontier)
        for cell, p in odds.items():
            assert p == Fraction(sum(cell in e for e in found), len(found))
        assert all(0 < odds[c] < 1 for c in answer.frontier)


class TestThreeBV:
    @pytest.mark.parametrize("rows, expected", [
        (["..."], 1),              # one opening covers everything
        ([".*."], 2),              # two isolated numbers
        (["....", ".*..", "...."], 6),   # one opening (right), five numbers on the left
        (["*....", ".....", "....*"], 1),  # every number borders the one opening
    ])
    def test_known_values(self, rows, expected):
        """Openings count once; numbers outside openings count one each."""
        mines = frozenset((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "*")
        assert three_bv(Level(len(rows[0]), len(rows), len(mines)), mines) == expected

    def test_three_bv_clears_the_board(self):
        """Clicking the 3BV cells (one per opening, every other safe cell) wins."""
        level = Level(16, 16, 40)
        mines = place_mines(level, random.Random(3))
        game = Game(level, mines)
        clicks = 0
        for cell in sorted(c for c in ((r, c) for r in range(16) for c in range(16)) if c not in mines):
            if cell not in game.revealed and game.number(cell) == 0:
                game.open(cell)
                clicks += 1
        for cell in sorted((r, c) for r in range(16) for c in range(16)):
            if cell not in mines and cell not in game.revealed:
                game.open(cell)
                clicks += 1
        assert game.outcome is Outcome.WON
        assert clicks == three_bv(level, mines)


class TestGenerate:
    @pytest.mark.parametrize("method", list(Method))
    @pytest.mark.parametrize("level, start", [(Level(9, 9, 10), (4, 4)), (Level(30, 16, 99), (3, 3))])
    def test_boards_pass_the_recheck(self, method, level, start):
        """Every generated layout is no-guess, has the right mines and a clear start."""
        for seed in range(3):
            made = generate(level, start, random.Random(seed), method)
            assert len(made.mines) == level.mines
            assert not made.mines & start_zone(level, start, FirstClick.OPENING)
            assert no_guess(level, made.mines, start).solved

    def test_high_density_by_perturbation(self):
        """25% on expert size still succeeds with perturbation."""
        level = Level(30, 16, 120)
        made = generate(level, (3, 3), random.Random(0), Method.PERTURB)
        assert no_guess(level, made.mines, (3, 3)).solved

    def test_densest_preset(self):
        """Simon Tatham's 9x9 with 35 mines (43%) with the default method: no-guess layouts."""
        level = Level(9, 9, 35)
        for seed in range(2):
            made = generate(level, (4, 4), random.Random(seed))
            assert len(made.mines) == 35 and no_guess(level, made.mines, (4, 4)).solved

    def test_auto_is_resample_while_draws_succeed(self):
        """auto returns resample's (uniform) layout when one of its first 30 draws is no-guess."""
        level = Level(30, 16, 99)
        for seed in range(5):
            uniform = generate(level, (3, 3), random.Random(seed), Method.RESAMPLE)
            assert uniform.layouts <= AUTO_DRAWS
            auto = generate(level, (3, 3), random.Random(seed), Method.AUTO)
            assert auto.mines == uniform.mines and auto.perturbations == 0

    def test_auto_repairs_at_high_density(self):
        """Where uniform draws fail (16x16 with 99 mines), auto repairs and still succeeds."""
        level = Level(16, 16, 99)
        made = generate(level, (3, 3), random.Random(0), Method.AUTO)
        assert made.layouts > AUTO_DRAWS and made.perturbations > 0
        assert no_guess(level, made.mines, (3, 3)).solved

    def test_deterministic(self):
        """The same seed gives the same layout."""
        level = Level(16, 16, 40)
        a = generate(level, (8, 8), random.Random(5))
        b = generate(level, (8, 8), random.Random(5))
        assert a.mines == b.mines


    @pytest.mark.parametrize("level, start, rule", [
        (Level(3, 3, 4), (1, 1), FirstClick.SAFE), (Level(3, 3, 1), (1, 1), FirstClick.SAFE),
        (Level(3, 3, 1), (0, 0), FirstClick.SAFE), (Level(2, 2, 2), (1, 1), FirstClick.SAFE),
        (Level(4, 3, 3), (0, 0), FirstClick.OPENING), (Level(4, 2, 3), (0, 0), FirstClick.SAFE)])
    def test_whether_any_layout_exists_is_the_oracles(self, level, start, rule):
        """no_guess_exists against the brute-force player over every layout; a search that found
        nothing said only "a larger --budget may find one" (3x3x4 with a safe centre has none)."""
        from itertools import combinations
        from satsweeper.puzzles import no_guess_exists
        zone = start_zone(level, start, rule)
        free = [(r, c) for r in range(level.height) for c in range(level.width) if (r, c) not in zone]
        want = any(oracle_no_guess(level, frozenset(m), start) for m in combinations(free, level.mines))
        assert no_guess_exists(level, start, rule) is want
        assert no_guess_exists(level, start, rule, most=1) is None  # more layouts than that: not tried

    def test_generate_says_none_exists(self):
        result = run("generate", "3x3x4", "--rule", "safe", "--no-guess", "--json")
        answer = json.loads(result.stdout)
        assert result.exit_code == 1 and answer["exists"] is False and answer["boards"] == [] and answer["complete"]
        said = run("generate", "3x3x4", "--rule", "safe", "--no-guess").output
        assert said == "no no-guess 3x3x4 layout exists with the first click at 1,1 (safe): every layout was tried\n"
        found = run("generate", "3x3x1", "--rule", "safe", "--start", "0,0", "--no-guess", "--json")
        assert found.exit_code == 0 and "exists" not in json.loads(found.stdout)


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


class TestBadArguments:
    """A library caller's slips are named errors (they were a KeyError, a TypeError, an
    AttributeError, or for three_bv a wrong count)."""

    LEVEL = Level(5, 5, 3)

    @pytest.mark.parametrize("start", [(9, 9), (0, 5), (-1, 0), "0,0", [0, 0]])
    def test_generate_start_off_the_board(self, start):
        with pytest.raises(InputError, match=r"a start cell \(row, col\) on the 5x5x3 board"):
            generate(self.LEVEL, start, random.Random(1))

    @pytest.mark.parametrize("options", [{"rule": "opening"}, {"method": "auto"}, {"rng": 1}])
    def test_generate_words_and_seeds(self, options):
        arguments = {"rng": random.Random(1), **options}
        with pytest.raises(InputError, match="a FirstClick, a Method and a random.Random"):
            generate(self.LEVEL, (0, 0), **arguments)

    @pytest.mark.parametrize("ask", [no_guess, grade])
    @pytest.mark.parametrize("start", ["0,0", [0, 0], (5, 0)])
    def test_no_guess_and_grade_start(self, ask, start):
        with pytest.raises(InputError, match="a safe start cell on the board"):
            ask(self.LEVEL, frozenset({(1, 1)}), start)

    def test_grade_start_on_a_mine_is_an_input_error(self):
        """The same error as no_guess (grade's was a plain ValueError), in the CLI's words."""
        with pytest.raises(InputError, match=r"a safe start cell on the board \(got 1,1, a mine\)"):
            grade(self.LEVEL, frozenset({(1, 1)}), (1, 1))
        with pytest.raises(InputError, match="a difficulty"):
            Rung.parse("impossible")

    @pytest.mark.parametrize("call, match", [
        (lambda: generate(Level(9, 9, 10), (0, 0), random.Random(1), difficulty="hard"), "a Rung for the difficulty"),
        (lambda: grade(Level(3, 3, 1), frozenset({(1, 1)}), (0, 0), highest="easy"), "a Rung for the highest rung"),
        (lambda: generate((9, 9, 10), (0, 0), random.Random(1)), r"a Level, such as Level\(9, 9, 10\)"),
        (lambda: no_guess(Level(3, 3, 1), frozenset({(1, 1), (2, 2)}), (0, 0)), r"1 mine\(s\), as the level 3x3x1"),
        (lambda: grade(Level(3, 3, 1), frozenset({(1, 1), (2, 2)}), (0, 0)), r"1 mine\(s\), as the level 3x3x1"),
        (lambda: no_guess(Level(3, 3, 1), [[1, 1]], (0, 0)), r"mines as \(row, col\) tuples"),
        (lambda: guess_odds("x"), "a NoGuess, as no_guess returns it"),
    ], ids=["difficulty-word", "highest-word", "level-tuple", "no-guess-count", "grade-count", "mines-lists",
            "odds-of-text"])
    def test_a_callers_slips_are_named(self, call, match):
        """A word for a Rung, a tuple for a Level, a mine count the level contradicts, lists
        for cells: named errors (a TypeError, an AttributeError, or played as given)."""
        with pytest.raises(InputError, match=match):
            call()

    def test_three_bv_mine_off_the_board(self):
        """A mine off the board counted nowhere: 3BV 1 for a board with no mine on it at all."""
        with pytest.raises(CellError):
            three_bv(self.LEVEL, frozenset({(9, 9)}))


class TestCli:
    def test_a_grade_no_board_without_mines_has_is_refused(self):
        """5x5x0 --difficulty hard ran its whole budget and said "a larger --budget may find
        one": a board without mines is solved by its first click, graded easy."""
        result = CliRunner().invoke(main, ["generate", "5x5x0", "--difficulty", "hard"])
        assert result.exit_code == 2 and "a board without mines is solved by its first click" in result.stderr
        easy = CliRunner().invoke(main, ["generate", "5x5x0", "--difficulty", "easy", "--json"])
        assert easy.exit_code == 0 and json.loads(easy.stdout)["boards"][0]["difficulty"]["word"] == "easy"

    def test_a_huge_board_is_refused_before_the_work(self, tmp_path):
        """generate 100000x100000x1 grew to 22 GB until the kernel killed it, its --timeout
        unheard: refused at once (exit 2), nothing written; --max-cells moves the limit."""
        import time
        began = time.monotonic()
        result = CliRunner().invoke(main, ["generate", "100000x100000x1", "-o", str(tmp_path / "h.txt")])
        assert result.exit_code == 2 and time.monotonic() - began < 5
        assert "expected a board of at most 4,000,000 squares (--max-cells)" in result.stderr
        assert "10,000,000,000 squares" in result.stderr and list(tmp_path.iterdir()) == []
        assert CliRunner().invoke(main, ["generate", "3x3x1", "--rule", "safe", "--max-cells", "8"]).exit_code == 2
        made = CliRunner().invoke(main, ["generate", "3x3x1", "--rule", "safe", "--max-cells", "9"])
        assert made.exit_code == 0 and parse_puzzle(made.stdout).mines is not None

    def test_generate_then_check(self, tmp_path):
        """generate -o writes a layout that noguess confirms (exit 0)."""
        path = tmp_path / "p.txt"
        assert run("generate", "--level", "expert", "--no-guess", "--start", "3,3",
                   "--seed", "7", "-o", path).exit_code == 0
        result = run("noguess", path, "--json")
        assert result.exit_code == 0
        assert json.loads(result.stdout)["no_guess"] is True

    def test_the_note_counts_what_was_drawn(self, tmp_path):
        """The line after writing counts layouts drawn and perturbations as the JSON
        does, in the singular for one ("1 layouts" before)."""
        args = ("generate", "9x9x10", "--no-guess", "--seed", "4", "-o", tmp_path / "p.txt")
        data = json.loads(run(*args, "--json").stdout)["boards"][0]
        text = run(*args).output
        drawn = data["layouts"]
        assert f"{drawn} layout{'s' if drawn != 1 else ''} drawn" in text
        assert "1 layouts" not in run("generate", "9x9x10", "-o", tmp_path / "q.txt").output

    def test_out_dir(self, tmp_path):
        """--count with --out-dir writes one file per board."""
        result = run("generate", "9x9x10", "--no-guess", "--count", "3", "--out-dir", tmp_path, "--json")
        assert result.exit_code == 0
        boards = json.loads(result.stdout)["boards"]
        assert len(boards) == 3
        for board in boards:
            assert run("noguess", board["file"]).exit_code == 0

    def test_out_dir_is_made_in_an_existing_directory(self, tmp_path, monkeypatch):
        """The README's and --help's `--out-dir puzzles/` runs as written in a fresh
        clone: a new directory in an existing one is made, as gadget write makes
        its own (it was refused); one whose parent is missing is still refused,
        and nothing is made when the run is refused for another reason."""
        monkeypatch.chdir(tmp_path)
        result = run("generate", "4x4x2", "--count", "2", "--out-dir", "puzzles/")
        assert result.exit_code == 0, result.output
        assert sorted(p.name for p in (tmp_path / "puzzles").iterdir()) == ["board-1.txt", "board-2.txt"]
        refused = run("generate", "4x4x2", "--count", "2", "--out-dir", "no/such/")
        assert refused.exit_code == 2 and "'no' does not exist" in refused.output
        assert not (tmp_path / "no").exists()
        refused = run("generate", "4x4x20", "--count", "2", "--out-dir", "later/")
        assert refused.exit_code == 2 and not (tmp_path / "later").exists()

    def test_out_dir_keeps_earlier_boards(self, tmp_path):
        """A second run into the same directory numbers its boards after the
        ones there: every earlier file is left byte for byte."""
        assert run("generate", "4x4x2", "--count", "2", "--out-dir", tmp_path).exit_code == 0
        (tmp_path / "board-7.txt").write_text("an author's own board\n")
        before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
        result = run("generate", "4x4x2", "--count", "3", "--seed", "9", "--out-dir", tmp_path, "--json")
        assert result.exit_code == 0
        files = [Path(b["file"]).name for b in json.loads(result.stdout)["boards"]]
        # numbered as the boards there (board-08 beside board-1 sorted with neither)
        assert files == ["board-8.txt", "board-9.txt", "board-10.txt"]
        assert all((tmp_path / name).read_bytes() == data for name, data in before.items())
        assert len(list(tmp_path.iterdir())) == 6
        padded = tmp_path / "padded"
        padded.mkdir()
        (padded / "board-0100.txt").write_text("a board of a run of thousands, stopped\n")
        result = run("generate", "4x4x2", "--count", "2", "--out-dir", padded, "--json")
        assert [Path(b["file"]).name for b in json.loads(result.stdout)["boards"]] == ["board-0101.txt", "board-0102.txt"]

    def test_out_dir_grown_in_runs_repeats_no_board(self, tmp_path):
        """Two runs of 2 boards into one directory, same seed, make the 4 boards
        one run of 4 makes (board N drawn as board N), so no board repeats."""
        grown, once = tmp_path / "grown", tmp_path / "once"
        grown.mkdir(), once.mkdir()
        for _ in range(2):
            assert run("generate", "9x9x10", "--no-guess", "--count", "2", "--out-dir", grown).exit_code == 0
        assert run("generate", "9x9x10", "--no-guess", "--count", "4", "--out-dir", once).exit_code == 0
        boards = {p.name: p.read_text() for p in grown.iterdir()}
        assert boards == {p.name: p.read_text() for p in once.iterdir()}
        assert len(set(boards.values())) == 4

    def test_path_opens_every_safe_cell_and_flags_every_mine(self):
        """noguess --json's path, with what the first click opens, covers the layout's
        safe cells once each and flags exactly its mines; a stuck layout has none."""
        puzzle = parse_puzzle((EXAMPLES / "layout.txt").read_text())
        data = json.loads(run("noguess", EXAMPLES / "layout.txt", "--json").stdout)
        game = Game(Level(puzzle.board.width, puzzle.board.height, len(puzzle.mines)), puzzle.mines)
        game.open(puzzle.start)
        opened = [(c["row"], c["col"]) for step in data["path"] for c in step["open"]]
        flagged = {(c["row"], c["col"]) for step in data["path"] for c in step["flag"]}
        assert len(set(opened)) == len(opened) and not set(opened) & set(game.revealed)
        assert set(opened) | set(game.revealed) == {(r, c) for r in range(9) for c in range(9)} - puzzle.mines
        assert flagged <= puzzle.mines
        stuck = json.loads(run("noguess", EXAMPLES / "layout.txt", "--start", "0,0", "--json").stdout)
        assert stuck["no_guess"] or "path" not in stuck

    def test_mine_file_says_its_start(self, tmp_path):
        """A .mine file drops the start cell: generate says it, and with it noguess
        confirms the board (without it noguess refuses, exit 2)."""
        out = tmp_path / "p.mine"
        said = run("generate", "9x9x10", "--no-guess", "--start", "2,3", "-o", out).output
        assert "start 2,3" in said and "--start" in said
        assert run("noguess", out, "--start", "2,3").exit_code == 0
        assert run("noguess", out).exit_code == 2
        assert "start" not in run("generate", "9x9x10", "-o", tmp_path / "p.txt").output.split(":", 1)[1]

    def test_stuck_exit_1(self, tmp_path):
        path = tmp_path / "l.txt"
        path.write_text("start: 0,0\n..\n.*\n")
        result = run("noguess", path)
        assert result.exit_code == 1
        assert "marked ?" in result.output

    def test_stuck_odds_are_in_order_with_the_cells_next_to_no_number(self, tmp_path):
        """5x3, mines at 0,0 and 1,1, start 2,2 (shows 1): by brute force over the 14
        hidden cells with 2 mines, each of the 5 around the 1 is a mine with chance 1/5
        and each of the 9 others 1/9, so a cell next to no number is the safest guess.
        It was listed last, under "safest first"."""
        import itertools
        hidden = [(r, c) for r in range(3) for c in range(5) if (r, c) != (2, 2)]
        around = {(1, 1), (1, 2), (1, 3), (2, 1), (2, 3)}
        layouts = [set(m) for m in itertools.combinations(hidden, 2) if len(set(m) & around) == 1]
        chance = {cell: Fraction(sum(cell in m for m in layouts), len(layouts)) for cell in hidden}
        assert {chance[c] for c in around} == {Fraction(1, 5)}
        assert {chance[c] for c in set(hidden) - around} == {Fraction(1, 9)}
        path = tmp_path / "l.txt"
        path.write_text("mines: 2\nstart: 2,2\n*....\n.*...\n.....\n")
        result = run("noguess", path)
        assert result.exit_code == 1
        listed = result.output.split("safest first:\n")[1].splitlines()
        assert listed[0] == "  any of 9 cells next to no number: 1/9 (11.11%)"
        assert listed[1:] == [f"  {r},{c}: 1/5 (20.00%)" for r, c in sorted(around)]

    @pytest.mark.parametrize("text, args, message", [
        ("..\n..\n", [], "expected a layout"),
        ("*.\n..\n", [], "l.txt:1:1: expected --start ROW,COL or a 'start:' line (got neither)"),
        ("start: 0,0\n*.\n..\n", [], "l.txt:1:8: expected 'start: ROW,COL' on a safe cell (not a mine) (got 0,0"),
        ("*.\n..\n", ["--start", "0,0"], "a safe start cell"),
        ("*2\n..\n", ["--start", "1,1"], "the layout's mines around 0,1"),
        ("mines: 3\n*.\n..\n", ["--start", "1,1"], "'mines: 1'"),
    ])
    def test_bad_layouts(self, tmp_path, text, args, message):
        """Missing layout or start, a mine at the start, numbers that disagree: exit 2."""
        path = tmp_path / "l.txt"
        path.write_text(text)
        result = run("noguess", path, *args)
        assert result.exit_code == 2
        assert message in result.output

    def test_noguess_reports_the_difficulty(self):
        """noguess names the grade and counts the moves of each kind (the README's hard example)."""
        result = run("noguess", LADDER / "hard.txt")
        assert result.exit_code == 0
        assert "difficulty: hard (rung 3, 3 numbers at once)" in result.output
        data = json.loads(run("noguess", LADDER / "hard.txt", "--json").output)
        assert data["difficulty"]["word"] == "hard" and data["difficulty"]["clues"] == 3
        assert data["difficulty"]["moves"] == {"single": 0, "pair": 0, "several": 1, "total": 0}

    def test_the_check_and_the_grade_count_apart(self):
        """The check's counts (exact engine where single numbers stick) and the grade's
        (easiest move each time) differ, so the text names each; it used to call both
        "single" with different numbers.  The README's hard example: one step of 3 numbers."""
        text = run("noguess", LADDER / "hard.txt").output
        data = json.loads(run("noguess", LADDER / "hard.txt", "--json").output)
        assert (f"the check: single numbers decided {data['single_clue']} cells; where they were "
                f"stuck, the exact engine {data['multi_clue']} more") in text
        assert ("taking the easiest move each time, cells decided: 0 by one number, 0 by two nested "
                "numbers, 1 by several numbers at once, 0 by the total (cells a 0 opened for free are not "
                "counted, so the sum may differ from the check's line above)") in text

    @pytest.mark.parametrize("word", ["easy", "medium", "hard", "extreme"])
    def test_generate_difficulty(self, tmp_path, word):
        """generate --difficulty WORD writes layouts that noguess grades WORD."""
        result = run("generate", "9x9x10", "--difficulty", word, "--count", "2", "--out-dir", tmp_path,
                     "--seed", "1", "--json")
        assert result.exit_code == 0, result.output
        for board in json.loads(result.stdout)["boards"]:  # stderr may carry a progress line
            assert board["difficulty"]["word"] == word
            checked = json.loads(run("noguess", board["file"], "--json").output)
            assert checked["no_guess"] and checked["difficulty"]["word"] == word

    def test_stuck_gives_the_odds(self, tmp_path):
        """A forced guess lists each cell's exact chance: three cells, one mine, 1/3 each."""
        path = tmp_path / "l.txt"
        path.write_text("start: 0,0\n..\n.*\n")
        data = json.loads(run("noguess", path, "--json").output)
        assert [c["probability"] for c in data["frontier"]] == ["1/3", "1/3", "1/3"]
        assert "1,1: 1/3 (33.33%)" in run("noguess", path).output

    def test_stuck_json_lists_the_odds_safest_first_and_the_cells_next_to_no_number(self, tmp_path):
        """The JSON listed the frontier in board order and had no chance for the cells next to no
        number, which the text gives (README promised both): each checked against brute force
        over the position the check was stuck in."""
        path = tmp_path / "l.txt"
        path.write_text("mines: 3\nstart: 0,0\n1.....\n.*....\n..*...\n....*.\n")
        data = json.loads(run("noguess", path, "--json").output)
        assert data["no_guess"] is False
        level, puzzle = Level(6, 4, 3), parse_puzzle(path.read_text())
        answer = no_guess(level, puzzle.mines, (0, 0))
        found = oracle.explanations(problem_of(answer.position))
        chance = {c: Fraction(sum(c in e for e in found), len(found)) for c in answer.position.hidden_cells()}
        listed = [((c["row"], c["col"]), Fraction(c["probability"])) for c in data["frontier"]]
        assert all(chance[cell] == p for cell, p in listed)
        assert [p for _, p in listed] == sorted(p for _, p in listed)
        near = {n for c in answer.position.clues for n in answer.position.neighbours(c)}
        away = [c for c in answer.position.hidden_cells() if c not in near]
        assert away and {chance[c] for c in away} == {Fraction(data["elsewhere"]["probability"])}
        assert data["elsewhere"]["cells"] == len(away)
        path.write_text("start: 0,0\n..\n.*\n")  # every hidden cell is next to the number
        assert json.loads(run("noguess", path, "--json").output)["elsewhere"] is None

    def test_a_won_picture_flags_every_mine(self, tmp_path, monkeypatch):
        """A solved layout is drawn won: every mine of the file flagged (mines no step
        had to flag were drawn as hidden squares, which looked unsolved)."""
        import satsweeper.render
        drawn = []
        monkeypatch.setattr(satsweeper.render, "render", lambda board, path, picture: drawn.append(board))
        layout = tmp_path / "easy.txt"  # the first click opens every safe cell: no mine flagged
        layout.write_text("start: 0,0\n....\n....\n..*.\n...*\n")
        assert run("noguess", layout, "--picture", tmp_path / "won.svg").exit_code == 0
        assert set(drawn[0].flags) == {(2, 2), (3, 3)} and drawn[0].hidden_cells() == []

    @pytest.mark.parametrize("word, line", [
        ("medium", "hardest step (medium, two nested numbers): opens 0,0 0,2 (from nested pairs among the numbers at 1,0 1,1 1,2)"),
        ("hard", "hardest step (hard, 3 numbers at once): opens 0,2 1,2 0,1 (from the numbers at 1,0 1,1 2,1)"),
        ("extreme", "hardest step (extreme, the total): opens 0,3"),
    ])
    def test_the_hardest_step_is_named_and_outlined(self, tmp_path, monkeypatch, word, line):
        """noguess names the cells the hardest step decides (with what a 0 they show
        opens) and the numbers it needs, and draws the position before it with both
        outlined: the README's ladder examples, whose hard cells are worked out by hand
        there (medium: 0,2 and 0,0 from the pairs 1,0 in 1,1 and 1,2 in 1,1; hard: 0,2,
        a 0 that opens 1,2 and 0,1, from the 1, 2 and 1 at 1,0 1,1 2,1; extreme: 0,3).
        It gave only counts, then the cells on the won board: an author could not see why
        a puzzle is hard.  A pair step of two pairs says so: "from the numbers at" three
        cells read as three numbers at once under "two nested numbers"."""
        result = run("noguess", LADDER / f"{word}.txt")
        assert result.exit_code == 0 and line in result.output.splitlines()
        import satsweeper.render
        drawn = []
        monkeypatch.setattr(satsweeper.render, "render",
                            lambda board, path, picture: drawn.append((board, picture)))
        assert run("noguess", LADDER / f"{word}.txt", "--picture", tmp_path / "p.png").exit_code == 0
        board, picture = drawn[0]
        cells = lambda words: {tuple(map(int, c.split(","))) for c in words.split()}  # noqa: E731
        named = cells(line.split("opens ")[1].split(" (")[0])
        needs = cells(line.rsplit("numbers at ", 1)[1].rstrip(")")) if "from " in line else set()
        assert {c for c, k in picture.marks.items() if k == "move"} == named
        assert {c for c, k in picture.marks.items() if k == "reason"} == needs
        assert "before the hardest step" in picture.caption
        # The position before it: what it decides still hidden, what it needs shown.
        assert named <= set(board.hidden_cells()) and needs <= set(board.clues)

    def test_an_easy_layout_names_no_hardest_step(self):
        """Every step of an easy layout is one number: no line for it."""
        assert "hardest" not in run("noguess", LADDER / "easy.txt").output

    def test_stuck_picture(self, tmp_path):
        """--picture draws the stuck position to an SVG."""
        path, picture = tmp_path / "l.txt", tmp_path / "stuck.svg"
        path.write_text("start: 0,0\n..\n.*\n")
        result = run("noguess", path, "--picture", picture)
        assert result.exit_code == 1
        assert picture.read_text().lstrip().startswith("<?xml")

    @pytest.mark.parametrize("level", ["3x3x0", "1x1x0", "5x2x0"])
    def test_a_layout_without_mines_reads_back(self, tmp_path, level):
        """generate writes a level of no mines as 'mines: 0' and dots (no '*' to write); noguess
        and render --opened read it back as that layout (they refused it as "a position
        without one"). Oracle: with no mine, the first click opens every square."""
        path = tmp_path / "zero.txt"
        assert run("generate", level, "-o", path).exit_code == 0
        assert "*" not in path.read_text() and "mines: 0" in path.read_text()
        result = run("noguess", path, "--json")
        assert result.exit_code == 0 and json.loads(result.stdout)["no_guess"] is True
        opened = tmp_path / "opened.txt"
        assert run("render", path, "-o", opened, "--opened").exit_code == 0
        assert set(opened.read_text().split("\n", 1)[1].replace("\n", "")) == {"0"}
        # A 1 shown beside 'mines: 0' is no layout (and no position either): still refused.
        path.write_text("mines: 0\nstart: 0,1\n1.\n")
        assert run("noguess", path).exit_code == 2

    def test_a_position_is_refused_at_its_first_row(self, tmp_path):
        """noguess and render --opened refuse a position where its grid begins, not at 1:1
        (a comment line there); the JSON says the same line."""
        path = tmp_path / "position.txt"
        path.write_text("# my puzzle\nmines: 1\n\n..\n.1\n")
        said = run("noguess", path)
        assert said.exit_code == 2 and f"{path}:4:1: expected a layout" in said.output
        answer = json.loads(run("noguess", path, "--json").stdout)
        assert (answer["line"], answer["col"]) == (4, 1)
        assert f"{path}:4:1: expected a layout" in run("render", path, "-o", tmp_path / "x.png", "--opened").output
        # Mines written as flags: said (F is a flag the player placed, '*' a hidden mine).
        path.write_text("mines: 2\nstart: 0,0\n2F.\nF..\n")
        assert "its 2 F squares are flags the player has placed: write a hidden mine '*'" in run("noguess", path).output
        # A game's position with some flags placed (48 of expert's 99) is just a position.
        assert "F squares" not in run("noguess", EXAMPLES / "expert.txt").output

    def test_mine_layout_round_trip(self, tmp_path):
        """A layout written as .mine (M for mines) reads back and checks out."""
        path = tmp_path / "x.mine"
        assert run("generate", "9x9x10", "--no-guess", "--start", "4,4", "-o", path).exit_code == 0
        assert "M" in path.read_text()
        result = run("noguess", path, "--start", "4,4")
        assert result.exit_code == 0


class TestNoGuessWords:
    def test_solved_by_the_first_click_and_stuck_at_once(self, tmp_path):
        """"solved ... in 0 rounds" and "stuck after 1 round" where nothing was decided read
        oddly: the first says the first click opens every safe cell (its 0 floods all but the
        mine, by hand); the second that the first click's numbers decide no cell (brute force
        over the 455 ways to place 3 mines with the 2 at 0,0 holding)."""
        import itertools
        layout = tmp_path / "z.txt"
        layout.write_text("mines: 1\nstart: 0,0\n...\n...\n..*\n")
        assert CliRunner().invoke(main, ["noguess", str(layout)]).output.startswith(
            "no-guess: yes, solved from 0,0 by its first click alone (it opens every safe cell) without a guess\n")
        layout.write_text("mines: 3\nstart: 0,0\n.*..\n*...\n....\n...*\n")
        hidden = [(r, c) for r in range(4) for c in range(4) if (r, c) != (0, 0)]
        fits = [set(m) for m in itertools.combinations(hidden, 3) if len(set(m) & {(0, 1), (1, 0), (1, 1)}) == 2]
        assert not any(all(c in m for m in fits) or all(c not in m for m in fits) for c in hidden)
        assert CliRunner().invoke(main, ["noguess", str(layout)]).output.startswith(
            "no-guess: no, stuck at once: the first click's numbers decide no cell; a guess is forced")


def test_a_several_step_of_cells_needing_other_numbers_says_how_many_at_a_time():
    """noguess hard.txt said "hardest step (hard, 2 numbers at once): ... (from the numbers at"
    eight cells): each of its cells needs two of them, which the words now say."""
    from satsweeper.difficulty import Step
    from satsweeper.report.puzzles import _needs_phrase
    several = Step(Rung.SEVERAL, 2, ((0, 0), (5, 5)), (), ((1, 0), (1, 1), (6, 4), (7, 4)))
    assert _needs_phrase(several) == "from 2 at a time among the numbers at 1,0 1,1 6,4 7,4"
    one = Step(Rung.SEVERAL, 3, ((0, 0),), (), ((1, 0), (1, 1), (2, 1)))
    assert _needs_phrase(one) == "from the numbers at 1,0 1,1 2,1"
