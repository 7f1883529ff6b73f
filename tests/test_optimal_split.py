"""scripts/optimal_split.py: the best-first-click rows from a second process, merged with the
corner rows, against the one-process search (Search.optimum) as the oracle."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from satsweeper.game import FirstClick, Level
from satsweeper.optimal import NoLayout, Search
from scripts import optimal_split
from scripts.optimal_table import HEAD, cells_of, line

ROOT = Path(__file__).resolve().parent.parent


def corner_table(path: Path, level: Level) -> None:
    """A table holding only ``level``'s three corner rows, as optimal_table writes them."""
    search, rows = Search(level), []
    for rule in (FirstClick.CAN_LOSE, FirstClick.SAFE, FirstClick.OPENING):
        try:
            found = search.optimum(rule, (0, 0))
        except NoLayout:
            rows.append(line({"level": str(level), "rule": rule.value, "mode": "corner", "none": True}))
            continue
        rows.append(line({"level": str(level), "rule": rule.value, "mode": "corner", "value": found.value,
                          "firsts": found.firsts, "states": found.states, "cpu": 0.0, "mb": 1.0}))
    path.write_text(f"# a table\n\n{HEAD}\n" + "\n".join(rows) + "\n\n- a note\n")


def table_rows(path: Path) -> dict[tuple[str, str], list[str]]:
    return {(cells[1], cells[2]): cells for cells in map(cells_of, path.read_text().split("\n"))
            if cells and len(cells) == 12}


# 4x4x3 and 5x3x3: the corner is the only best first click (safe); 4x4x4: it is not;
# 3x3x6: no layout from any first click under the opening rule.
# floored: each rule's search starts from the table's corner value (run --table);
# shared: and the first clicks are shared out between two runs (run --cells), merged from both files.
@pytest.mark.parametrize("how", ["alone", "floored", "shared"])
@pytest.mark.parametrize("name", ["4x4x3", "4x4x4", "5x3x3", "5x3x4", "3x3x6"])
def test_merged_rows_are_the_one_process_optimum(tmp_path: Path, name: str, how: str) -> None:
    level = Level.parse(name)
    table, split = tmp_path / "optimal.md", tmp_path / "split.json"
    corner_table(table, level)
    floors = optimal_split.corner_values(level, table.read_text().split("\n")) if how != "alone" else None
    if how == "shared":
        cells = optimal_split.orbit_cells(level)[1:]
        files = [str(tmp_path / "a.json"), str(tmp_path / "b.json")]
        optimal_split.split_rules(Search(level), {}, out=files[0], floors=floors, only=cells[:1])
        optimal_split.split_rules(Search(level), {}, out=files[1], floors=floors, only=cells[1:])
    else:
        files = [str(split)]
        optimal_split.split_rules(Search(level), {}, out=str(split), floors=floors)
    optimal_split.merge(files, str(table))
    rows, oracle = table_rows(table), Search(level)
    assert len(rows) == 6
    for rule in FirstClick:
        cells = rows[rule.value, "optimal"]
        try:
            found = oracle.optimum(rule)
        except NoLayout:
            assert cells[3] == "no layout"
            continue
        assert Fraction(cells[3]) == found.value
        shown = found.firsts[:4]
        assert cells[5] == " ".join(f"{r},{c}" for r, c in shown) + (" …" if len(found.firsts) > 4 else "")
    # merged again: the rows are replaced, not added
    before = table.read_text()
    optimal_split.merge(files, str(table))
    assert table.read_text() == before


def test_run_keeps_its_memo_and_goes_on(tmp_path: Path) -> None:
    memo, out = tmp_path / "4x4x4.memo", tmp_path / "split.json"
    command = [sys.executable, "-m", "scripts.optimal_split", "run", "4x4x4", "--memo", str(memo), "--out", str(out)]
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True)
    first = json.loads(out.read_text())
    assert first["level"] == "4x4x4" and first["rules"]["safe"]["best"] == "961/1365"
    again = subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True)
    assert "resumed from" in again.stderr
    assert json.loads(out.read_text()) == first  # every rule was done: nothing searched again


def test_the_corner_floor_saves_work_where_the_corner_is_best() -> None:
    """5x4x4: the corner is the best safe first click; from its value the other clicks stop early
    (16,892 views against 22,612), and none of them is left exact."""
    level = Level(5, 4, 4)
    floors = {rule.value: Search(level).optimum(rule, (0, 0)).value for rule in FirstClick}
    plain, floored = Search(level), Search(level)
    optimal_split.split_rules(plain, {})
    done = optimal_split.split_rules(floored, {}, floors=floors)
    assert floored.states < plain.states
    assert done["safe"]["best"] is None and done["safe"]["floor"] == str(floors["safe"])
    assert not any(exact for *_, exact in done["safe"]["results"])


def test_merge_refuses_a_run_from_another_corner_value(tmp_path: Path) -> None:
    split, table = tmp_path / "split.json", tmp_path / "optimal.md"
    corner_table(table, Level(4, 4, 4))
    optimal_split.split_rules(Search(Level(4, 4, 4)), {}, out=str(split), floors={"safe": Fraction(1, 2)})
    done = subprocess.run([sys.executable, "-m", "scripts.optimal_split", "merge", str(split), "--table", str(table)],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2
    assert "expected the safe run to start from" in done.stderr and "Traceback" not in done.stderr


def test_a_run_whose_memo_is_lost_goes_on_from_the_clicks_it_wrote(tmp_path: Path) -> None:
    """The JSON is written after every click; a run stopped in the middle of a rule, its memo
    gone (as /work between sessions), goes on from the next click, and ends as a run that never
    stopped did.  Until the rule is finished merge leaves it out."""
    level, out = Level(5, 3, 4), tmp_path / "split.json"
    whole = optimal_split.split_rules(Search(level), {})
    stopping = Search(level)
    calls, real = [], stopping.first_click

    def first_click(*args):
        if len(calls) == 4:  # can-lose's 5 clicks: stop before its last
            raise KeyboardInterrupt
        calls.append(args)
        return real(*args)
    stopping.first_click = first_click
    with pytest.raises(KeyboardInterrupt):
        optimal_split.split_rules(stopping, {}, out=str(out))
    kept = optimal_split.kept_results(str(out), level, None)
    assert kept["can-lose"]["partial"] and len(kept["can-lose"]["results"]) == 4
    table = tmp_path / "optimal.md"
    corner_table(table, level)
    assert optimal_split.merge([str(out)], str(table)) == []  # nothing finished: nothing written
    again = Search(level)
    done = optimal_split.split_rules(again, kept, out=str(out))
    assert done["safe"]["states"] == 0  # every safe click answered by the can-lose search of it
    for rule in FirstClick:
        assert done[rule.value]["results"] == whole[rule.value]["results"]
        assert done[rule.value]["best"] == whole[rule.value]["best"] and "partial" not in done[rule.value]
    assert len(optimal_split.merge([str(out)], str(table))) == 3


def test_a_resumed_memo_counts_the_work_no_click_recorded(tmp_path: Path) -> None:
    """Stopped before its first click was recorded (8x3x11's 0,1 in session 50: 2,054 CPU s), a
    run's memo holds work no rule records; going on from the memo counts it to the rule (its
    rows said 950 CPU s, this session's alone).  The states then add up to an uninterrupted
    run's, exactly."""
    level, memo = Level(5, 3, 4), tmp_path / "split.memo"
    whole = optimal_split.split_rules(Search(level), {})
    stopping = Search(level)
    real = stopping.first_click

    def first_click(*args):
        real(*args)  # the click searched to the end, stopped before it is recorded
        raise KeyboardInterrupt
    stopping.first_click = first_click
    with pytest.raises(KeyboardInterrupt):
        optimal_split.split_rules(stopping, {})
    stopping.save(str(memo), {"cpu seconds": 100.0, "rules": {}})
    again = Search(level)
    header = again.load(str(memo))
    carried = optimal_split.unrecorded(header["cpu seconds"], header["rules"], again.states)
    assert carried == (100.0, stopping.states) and stopping.states > 0
    done = optimal_split.split_rules(again, {}, carried=carried)
    assert done["can-lose"]["states"] == whole["can-lose"]["states"] and done["can-lose"]["cpu"] >= 100.0
    assert done["safe"]["cpu"] < 100.0  # carried once, to the first rule not finished
    assert done["can-lose"]["results"] == whole["can-lose"]["results"]


def test_merge_needs_every_click_once(tmp_path: Path) -> None:
    level = Level(4, 4, 4)  # first clicks but the corner's: 0,1 and 1,1
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    optimal_split.split_rules(Search(level), {}, out=str(a), only=[(0, 1)])
    optimal_split.split_rules(Search(level), {}, out=str(b), only=[(0, 1), (1, 1)])
    table = tmp_path / "optimal.md"
    corner_table(table, level)
    merge = [sys.executable, "-m", "scripts.optimal_split", "merge"]
    alone = subprocess.run(merge + [str(a), "--table", str(table)], cwd=ROOT, capture_output=True, text=True)
    assert alone.returncode == 2 and "found none for 1,1" in alone.stderr
    twice = subprocess.run(merge + [str(a), str(b), "--table", str(table)], cwd=ROOT, capture_output=True, text=True)
    assert twice.returncode == 2 and "found 0,1 (also in" in twice.stderr and "Traceback" not in twice.stderr


def test_merge_needs_the_corner_rows(tmp_path: Path) -> None:
    split, table = tmp_path / "split.json", tmp_path / "optimal.md"
    optimal_split.split_rules(Search(Level(4, 4, 4)), {}, out=str(split))
    table.write_text(f"{HEAD}\n")
    done = subprocess.run([sys.executable, "-m", "scripts.optimal_split", "merge", str(split), "--table", str(table)],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2
    assert "expected the corner row of 4x4x4 can-lose" in done.stderr and "Traceback" not in done.stderr


def test_bad_board_and_missing_directory_exit_2(tmp_path: Path) -> None:
    base = [sys.executable, "-m", "scripts.optimal_split", "run"]
    bad = subprocess.run(base + ["8x3", "--memo", str(tmp_path / "m"), "--out", str(tmp_path / "o")],
                         cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 2 and "WIDTHxHEIGHTxMINES" in bad.stderr
    gone = subprocess.run(base + ["4x4x4", "--memo", str(tmp_path / "no" / "m"), "--out", str(tmp_path / "o")],
                          cwd=ROOT, capture_output=True, text=True)
    assert gone.returncode == 2 and "no such directory" in gone.stderr
    off = subprocess.run(base + ["4x4x4", "--memo", str(tmp_path / "m"), "--out", str(tmp_path / "o"), "--cells", "4,0"],
                         cwd=ROOT, capture_output=True, text=True)
    assert off.returncode == 2 and "--cells 4,0: expected ROW,COL on the board" in off.stderr
    assert "Traceback" not in off.stderr


def test_doctests() -> None:
    assert doctest.testmod(optimal_split).failed == 0
