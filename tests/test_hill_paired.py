"""scripts/hill_paired.py: Hill's solver gets the very games bench plays, a stopped run goes
on where it stopped, and the published comparison is what the kept results say.

Hill's solver itself (Java, another repository) is not run here: a stand-in command that
reads the same lines takes its place."""

from __future__ import annotations

import importlib.util
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from satsweeper import experiments
from satsweeper.game import FirstClick, Level
from satsweeper.journal import read_journal

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("hill_paired", ROOT / "scripts" / "hill_paired.py")
hill = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hill)

# Stands in for the Java driver: reads layout lines, "wins" a game when its first mine is
# even, and counts its mines as guesses.
STAND_IN = [sys.executable, "-c", ("import sys\n"
                                   "for line in sys.stdin:\n"
                                   "    f = line.split()\n"
                                   "    print(f[0], int(int(f[4]) % 2 == 0), len(f) - 4, flush=True)\n")]


def played_layouts(level: Level, seed: int, games: int, monkeypatch, rule=FirstClick.SAFE,
                   first=(0, 0)) -> list[frozenset]:
    """The mines of each game `bench --seed` plays (recorded as experiments.play makes them)."""
    made = []
    real = experiments.Game.new

    def recording(*args, **kwargs):
        game = real(*args, **kwargs)
        made.append(game.mines)
        return game

    monkeypatch.setattr(experiments.Game, "new", recording)
    experiments.run(level, "exact", games, seed=seed, rule=rule, first=first)
    monkeypatch.undo()
    return made


class TestLayouts:
    @pytest.mark.parametrize("level", [Level(9, 9, 10), Level(30, 16, 99), Level(5, 4, 7)])
    def test_each_line_is_the_game_bench_plays(self, level, monkeypatch):
        """Decoded (row * width + column), line i holds the mines of bench's game i: a change
        to how bench seeds or places its games fails here, not in a silently unpaired run."""
        made = played_layouts(level, 11, 6, monkeypatch)
        assert len(made) == 6
        for i, mines in enumerate(made):
            f = hill.layout_line(level, 11, i).split()
            assert f[:4] == [str(i), str(level.width), str(level.height), str(level.mines)]
            assert {divmod(int(m), level.width) for m in f[4:]} == set(mines)
            assert (0, 0) not in mines  # the driver's first click, at 0,0, is safe

    def test_an_opening_elsewhere_is_the_game_bench_plays(self, monkeypatch):
        """With ``--rule opening --first 3,3``, line i holds bench's opening game i: no mine
        in the 3x3 block the driver's first click (at 3,3) opens."""
        level = Level(30, 16, 99)
        made = played_layouts(level, 11, 6, monkeypatch, FirstClick.OPENING, (3, 3))
        for i, mines in enumerate(made):
            f = hill.layout_line(level, 11, i, FirstClick.OPENING, (3, 3)).split()
            assert {divmod(int(m), level.width) for m in f[4:]} == set(mines)
            assert not {(r, c) for r in (2, 3, 4) for c in (2, 3, 4)} & mines
        assert made != played_layouts(level, 11, 6, monkeypatch)  # not the safe rule's games


class TestRun:
    def test_every_game_once_and_a_stopped_run_goes_on(self, tmp_path):
        """Two workers write every game once; cut the file (a stop mid-line included) and the
        same command plays exactly the games lost, to the same lines as one whole run."""
        level, out = Level(9, 9, 10), tmp_path / "hill.txt"
        assert hill.run(STAND_IN, level, 5, 40, out, workers=2) == 40
        whole = hill.finished(out, level, 5)
        assert sorted(whole) == list(range(40))
        for i, (won, guesses) in whole.items():  # the stand-in's answer for game i's layout
            f = hill.layout_line(level, 5, i).split()
            assert (won, guesses) == (int(f[4]) % 2 == 0, 10)
        lines = out.read_text().splitlines()
        out.write_text("\n".join(lines[:15]) + "\n" + lines[15][:3])  # 14 games and half a line
        assert hill.run(STAND_IN, level, 5, 40, out, workers=2) == 26
        assert hill.finished(out, level, 5) == whole

    def test_another_seed_is_refused_before_anything_runs(self, tmp_path, capsys):
        out = tmp_path / "hill.txt"
        hill.run(STAND_IN, Level(9, 9, 10), 5, 4, out, workers=1)
        kept = out.read_bytes()
        with pytest.raises(SystemExit) as stop:
            hill.run(STAND_IN, Level(9, 9, 10), 6, 4, out, workers=1)
        assert stop.value.code == 2
        assert re.search(r"hill.txt:1:1: expected .*seed 6", capsys.readouterr().err)
        assert out.read_bytes() == kept

    def test_a_broken_line_is_named(self, tmp_path, capsys):
        out = tmp_path / "hill.txt"
        out.write_text(hill.header(Level(9, 9, 10), 5) + "\n0 1 3\nseven\n2 0 1\n")
        with pytest.raises(SystemExit) as stop:
            hill.finished(out, Level(9, 9, 10), 5)
        assert stop.value.code == 2
        assert "hill.txt:3:1: expected 'index won guesses', found 'seven'" in capsys.readouterr().err

    def test_compare_names_a_file_that_is_not_a_run(self, capsys):
        with pytest.raises(SystemExit) as stop:
            hill.compare(ROOT / "README.md", ROOT / "docs" / "strength-36" / "expert.jsonl")
        assert stop.value.code == 2
        assert "README.md:1:1: expected the first line of a `run --out` file, found '# satsweeper'" in \
            capsys.readouterr().err


class TestCompare:
    def test_counts_against_the_journal(self, tmp_path):
        """The rates and the games only one side won, counted here game by game."""
        journal = tmp_path / "bench.jsonl"
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        subprocess.run([sys.executable, "-m", "satsweeper", "bench", "--level", "9x9x10", "--games", "60",
                        "--seed", "3", "--strategy", "exact", "--out", str(journal)], env=env, check=True,
                       capture_output=True)
        ours = [w for chunk in read_journal(journal).chunks for w in chunk.won]
        rng = random.Random(1)
        theirs = {i: rng.random() < 0.5 for i in range(50)}  # 50 of the 60 games
        results = tmp_path / "hill.txt"
        results.write_text(hill.header(Level(9, 9, 10), 3) + "\n"
                           + "".join(f"{i} {int(w)} 2\n" for i, w in theirs.items()))
        text = hill.compare(results, journal)
        only_hill = sum(theirs[i] and not ours[i] for i in theirs)
        only_ours = sum(ours[i] and not theirs[i] for i in theirs)
        assert "the same 50 games" in text
        assert f"exact: {sum(ours[:50]):,} of 50 won" in text
        assert f"Hill (Java, SMALL_ANALYSIS): {sum(theirs.values()):,} of 50 won" in text
        assert f"only Hill won {only_hill}, only exact won {only_ours}:" in text

    def test_compare_refuses_a_journal_of_another_first_click(self, tmp_path, capsys):
        """Results of the opening at 3,3 against the safe corner's journal: not the same games."""
        results = tmp_path / "hill.txt"
        results.write_text(hill.header(Level(30, 16, 99), 20261123, FirstClick.OPENING, (3, 3)) + "\n0 1 2\n")
        with pytest.raises(SystemExit) as stop:
            hill.compare(results, ROOT / "docs" / "strength-46" / "expert.jsonl")
        assert stop.value.code == 2
        assert ("expected a run of 30x16x99, seed 20261123, opening first click at 3,3 "
                "(found 30x16x99, seed 20261123, safe at 0,0)") in capsys.readouterr().err

    def test_compare_names_a_journal_that_is_not_one(self, capsys):
        with pytest.raises(SystemExit) as stop:
            hill.compare(ROOT / "docs" / "strength-hill" / "expert.txt", ROOT / "README.md")
        assert stop.value.code == 2
        assert "README.md:1:1: expected a JSON line" in capsys.readouterr().err

    @pytest.mark.parametrize("results, journal", [
        ("expert", "docs/strength-36/expert.jsonl"), ("expert", "docs/strength-45/expert.jsonl"),
        ("expert", "docs/strength-46/expert.jsonl"), ("9x9", "docs/strength-46/9x9.jsonl"),
        ("16x16", "docs/strength-46/16x16.jsonl"), ("expert-open", "docs/strength-46/expert-open.jsonl")])
    def test_the_published_comparison_is_what_the_results_say(self, results, journal):
        """docs/strength.md quotes, to the letter, what compare prints from the kept results
        (expert against `best` of sessions 36, 45 and 46; 9x9x10 and 16x16x40 of session 50; the
        expert opening at 3,3 of session 64)."""
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        printed = subprocess.run([sys.executable, str(ROOT / "scripts" / "hill_paired.py"), "compare",
                                  f"docs/strength-hill/{results}.txt", journal],
                                 cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout.strip()
        assert printed.count("\n") == 3
        assert printed in (ROOT / "docs" / "strength.md").read_text()
