"""scripts/strength.py: a row already on disk goes on with the games and seed asked; the
published held-out tables are what the journals in docs/ say."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from satsweeper.experiments import run
from satsweeper.game import FirstClick, Level
from satsweeper.journal import read_journal

ROOT = Path(__file__).resolve().parent.parent


def strength(directory: Path, *args) -> int:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "strength.py"), "run", str(directory),
                           "--rows", "9x9", *map(str, args)], env=env, capture_output=True).returncode


class TestRun:
    def test_a_finished_row_grows_to_the_games_asked(self, tmp_path):
        """A row finished at 20 games, run again with --games 40, has 40 games, won as one
        run of 40 wins them; it used to be skipped (the journal's 20 kept without a word)."""
        assert strength(tmp_path, "--games", 20, "--seed", 7) == 0
        assert read_journal(tmp_path / "9x9.jsonl").games == 20
        assert strength(tmp_path, "--games", 40, "--seed", 7) == 0
        journal = read_journal(tmp_path / "9x9.jsonl")
        whole = run(Level(9, 9, 10), "best", 40, 7, FirstClick.SAFE, (0, 0))
        assert journal.games == 40 and journal.summary["wins"] == whole.wins

    def test_another_seed_is_refused(self, tmp_path):
        """A row on disk with seed 7, run with --seed 8: bench refuses (exit 2) and the journal
        is unchanged; it used to be skipped as if seed 8's games had been played."""
        assert strength(tmp_path, "--games", 10, "--seed", 7) == 0
        kept = (tmp_path / "9x9.jsonl").read_bytes()
        assert strength(tmp_path, "--games", 10, "--seed", 8) == 2
        assert (tmp_path / "9x9.jsonl").read_bytes() == kept


class TestTables:
    @pytest.mark.parametrize("page, directory, before", [
        ("README.md", "docs/strength-46", "docs/strength-45"),
        ("docs/strength.md", "docs/strength-45", "docs/strength-36"),
        ("docs/strength.md", "docs/strength-36", "docs/strength"),
        ("docs/strength.md", "docs/strength", "docs/strength-before"),
        ("docs/strength.md", "docs/strength-opening-2-2", "docs/strength-opening-2-2-before"),
    ])
    def test_each_published_table_is_what_its_journals_say(self, page, directory, before):
        """The held-out tables in README and docs/strength.md are, to the letter,
        what `scripts/strength.py table` prints from the journals kept in docs/:
        a figure typed by hand, or left from an older run, fails."""
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        printed = subprocess.run([sys.executable, str(ROOT / "scripts" / "strength.py"), "table",
                                  directory, "--before", before], cwd=ROOT, env=env,
                                 capture_output=True, text=True, check=True).stdout.strip()
        assert printed.count("\n") >= 4  # a header, its rule and rows
        assert printed in (ROOT / page).read_text()
