"""scripts/optimal_table.py --strategies-only: best's and exact's columns filled again,
several first clicks at once (--workers), as the table and strategy_value say."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

from satsweeper.game import FirstClick, Level
from satsweeper.optimal import strategy_value

ROOT = Path(__file__).resolve().parent.parent
# Rows of docs/optimal.md: 4x3x3, where exact falls short of best (the columns differ), and
# 3x3x2; the can-lose corner and optimal rows of 4x3x3 share the first click 0,0.
ROWS = [line for line in (ROOT / "docs" / "optimal.md").read_text().splitlines()
        if line.startswith(("| 4x3x3 | ", "| 3x3x2 | safe"))]


def blank(line: str) -> str:
    cells = line.split("|")
    cells[10:13] = ["  ", "  ", "  "]
    return "|".join(cells)


def refresh(tmp_path: Path, *args) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "scripts.optimal_table", "--strategies-only",
                           "--out", str(tmp_path / "table.md"), "--cache", str(tmp_path / "played.json"),
                           *args], env=env, capture_output=True, text=True, cwd=ROOT)


class TestStrategiesOnly:
    def test_two_workers_fill_the_columns_as_published(self, tmp_path):
        """The columns blanked and filled again by two workers are the published ones, and the
        cache holds strategy_value's own values, one entry per first click."""
        assert len(ROWS) == 8
        (tmp_path / "table.md").write_text("\n".join(blank(line) for line in ROWS))
        done = refresh(tmp_path, "--workers", "2")
        assert done.returncode == 0, done.stderr
        assert (tmp_path / "table.md").read_text().splitlines() == ROWS
        played = json.loads((tmp_path / "played.json").read_text())
        assert len(played) == 6  # 4x3x3's can-lose rows share 0,0 (and so do its safe ones)
        value = strategy_value(Level(4, 3, 3), "exact", FirstClick.OPENING, (0, 0)).value
        assert Fraction(played["4x3x3 opening 0,0 0"]["exact"]) == value

    def test_no_worker_is_refused(self, tmp_path):
        (tmp_path / "table.md").write_text("\n".join(ROWS))
        done = refresh(tmp_path, "--workers", "0")
        assert done.returncode == 2 and "--workers: expected at least 1 (got 0)" in done.stderr
        assert "Traceback" not in done.stderr


def summed(*args) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "scripts.optimal_table", "--summary", *args], env=env,
                          capture_output=True, text=True, cwd=ROOT)


class TestSummary:
    def test_counts_and_largest_gaps(self, tmp_path):
        """--summary counts the rows with best's value, those at the optimum (a gap of 0) and the
        others, largest gap first; rows without best's value or without a layout are solved but
        not played."""
        table = tmp_path / "table.md"
        table.write_text(
            "| board | rule | first | optimal | % | best first clicks | states | CPU s | peak MB | best | exact | gap |\n"
            "| 3x3x2 | safe | corner | 1/2 | 50.00% | 0,0 | 9 | 0.00 | 20 | 50.00% | 40.00% | 0 (0.00%) |\n"
            "| 4x3x3 | safe | corner | 3/4 | 75.00% | 0,0 | 9 | 0.00 | 20 | 70.00% | 60.00% | 1/20 (5.00%) |\n"
            "| 4x3x5 | safe | corner | 1/4 | 25.00% | 0,0 | 9 | 0.00 | 20 | 15.00% | 10.00% | 1/10 (10.00%) |\n"
            "| 4x3x4 | safe | corner | 3/4 | 75.00% | 0,0 | 9 | 0.00 | 20 |  |  |  |\n"
            "| 8x3x21 | opening | corner | no layout | | | | | | | | |\n")
        done = summed("--out", str(table))
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == [
            "best played on 3 of 4 solved rows: optimal on 1, short on 2",
            "largest gaps: 4x3x5 safe corner 1/10 (10.00%); 4x3x3 safe corner 1/20 (5.00%)"]

    def test_the_published_table_is_summed(self):
        """The published table: every solved row has best's value (README says so)."""
        done = summed()
        first = done.stdout.splitlines()[0]
        played, solved = first.split("best played on ")[1].split(" solved rows")[0].split(" of ")
        assert done.returncode == 0 and played == solved
        # README's figures are the table's: they said 1,110 and 307 after three rows came.
        optimal, short = re.search(r"optimal on (\d+), short on (\d+)", first).groups()
        readme = " ".join((ROOT / "README.md").read_text().split())
        assert (f"Of the {int(solved):,} solved rows, `best` is optimal on {int(optimal):,} and short on "
                f"{int(short):,}") in readme


def run(tmp_path: Path, *args) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "scripts.optimal_table", "--out", str(tmp_path / "table.md"),
                           "--cache", str(tmp_path / "played.json"), *args],
                          env=env, capture_output=True, text=True, cwd=ROOT)


class TestKeep:
    def test_a_first_run_with_keep_makes_the_table(self, tmp_path):
        """--keep on a table not yet written keeps nothing (it crashed on the missing file), and a
        second run keeps the first one's rows beside its own; each board's rows are the published ones."""
        first = run(tmp_path, "--keep", "--only", "3x3x2")
        assert first.returncode == 0, first.stderr
        second = run(tmp_path, "--keep", "--only", "4x3x3")
        assert second.returncode == 0, second.stderr
        published = [line for line in (ROOT / "docs" / "optimal.md").read_text().splitlines()
                     if line.startswith(("| 3x3x2 | ", "| 4x3x3 | "))]
        rows = [line for line in (tmp_path / "table.md").read_text().splitlines()
                if line.startswith(("| 3x3x2 | ", "| 4x3x3 | "))]
        # The states, CPU seconds and peak memory are this run's own (states fall as the search improves).
        assert len(rows) == len(published) == 12
        assert sorted(drop_times(r) for r in rows) == sorted(drop_times(r) for r in published)


def drop_times(line: str) -> str:
    cells = line.split("|")
    cells[7:10] = ["", "", ""]
    return "|".join(cells)


def test_readmes_largest_boards_are_the_tables():
    """README's table of the largest boards solved (rule safe) against docs/optimal.md's rows: the
    corner's value, and the best first click's where it is not the corner, which two rows left out
    (5x5x7 from 0,1: 37.46%; 8x3x9 from 0,1: 16.43%)."""
    readme = (ROOT / "README.md").read_text()
    table = (ROOT / "docs" / "optimal.md").read_text()
    rows = re.findall(r"^\| (\d+)x(\d+), (\d+) mines \| (\d+/\d+) = ([\d.]+)%(?: \(from (\d+,\d+): ([\d.]+)%\))? \| all \|$",
                      readme, re.M)
    assert len(rows) >= 15
    for width, height, mines, corner, percent, first, best_percent in rows:
        level = f"{width}x{height}x{mines}"
        found = {}
        for kind in ("corner", "optimal"):
            line = re.search(rf"^\| {level} \| safe \| {kind} \| (\d+/\d+) \| ([\d.]+)% \| ([^|]*) \|", table, re.M)
            assert line, (level, kind)
            found[kind] = line.groups()
        assert (corner, percent) == found["corner"][:2], level
        if Fraction(found["optimal"][0]) == Fraction(corner):
            assert not first, level  # the corner is a best first click
        else:
            assert first in found["optimal"][2].split() and best_percent == found["optimal"][1], level
