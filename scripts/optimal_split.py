"""A board's best-first-click rows on a second core: every first click but the corner (issue 20).

``scripts.optimal_table`` searches a board's six rows one after another in
one process: the three corner rows first, then the three best-first-click
rows, whose search tries the corner again (free: the memo has it) and then
every other cell, each only until it cannot beat the best so far.  On a
board that takes hours (8x3x10: about 4,100 CPU s for the corner rows and
3,500 more for the others) the second half can run at the same time, in a
process of its own, over the first clicks other than the corner's orbit
(``run``); ``merge`` then writes the best-first-click rows into the table
from the two: the optimum is the better of the corner row's exact value and
the best value found here.  That is sound because every click tried here is
either exact or proven no better than the best found here (the same cut as
:meth:`satsweeper.optimal.Search.optimum`), and the corner is exact in the
table.  The price: the two processes do not share a memo, so the states
searched add up to more than one process's; the wall time is about halved.

    nice -n 10 python -m scripts.optimal_table --keep --only 8x3x11 --out TABLE --memo-dir DIR ... &
    nice -n 10 python -m scripts.optimal_split run 8x3x11 --memo DIR/8x3x11-split.memo --out SPLIT.json
    python -m scripts.optimal_split merge SPLIT.json --table TABLE

Two more cuts of the wall time.  ``run --table TABLE`` starts each rule
from the corner row's value, so that a click is searched only until it
cannot reach it (measured: 25% fewer views on 5x4x4, where the corner is
best, next to nothing where another click beats it).  ``run --cells``
searches only some first clicks (and their images): two processes share a
board's clicks out, each with its own memo and JSON, and ``merge`` takes
both files (it checks that every click but the corner's was searched once,
from the same corner value):

    python -m scripts.optimal_split run 8x3x11 --table TABLE --cells 0,1 --memo A.memo --out A.json &
    python -m scripts.optimal_split run 8x3x11 --table TABLE --cells 0,2 0,3 1,0 1,1 1,2 1,3 --memo B.memo --out B.json
    python -m scripts.optimal_split merge A.json B.json --table TABLE

``run`` saves its memo every half hour of CPU, on SIGTERM and on Ctrl-C,
and goes on from it next time.  The JSON is rewritten after each first
click: a run whose memo is lost (a machine whose disk does not outlive the
session) goes on from the clicks in its ``--out``, with an empty memo, and
a rule's clicks done in one session need not be searched in the next (keep
the JSON: it is small).  ``merge`` leaves out a rule not finished by
every run.  ``merge`` needs the board's corner rows
in TABLE (stop ``optimal_table`` once they are there, or let it finish:
``merge`` replaces its best-first-click rows with the same values).  The
rows' ``states``, ``CPU s`` and ``peak MB`` are the runs' (added up over their sessions).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import sys
import time
from fractions import Fraction
from typing import NoReturn

from satsweeper.errors import SatsweeperError
from satsweeper.game import FirstClick, Level
from satsweeper.optimal import Search

import sys as _sys
from pathlib import Path as _Path
# the repository on the path, whether run as python scripts/X.py or python -m scripts.X
_sys.path.insert(0, str(_Path(__file__).resolve().parent.parent))
from scripts.optimal_table import allowed_count, board_order, cells_of, line  # noqa: E402

SAVE_EVERY = 1800  # CPU seconds between saves of the memo (as optimal_table's)


class Stopped(Exception):
    """SIGTERM arrived: save the memo and end."""


def fail(message: str) -> NoReturn:
    print(f"optimal_split: {message}", file=sys.stderr)
    raise SystemExit(2)


def images(level: Level, cell: tuple[int, int]) -> set[tuple[int, int]]:
    """``cell`` under the rectangle's reflections (and, on a square, its transposes).

    >>> sorted(images(Level(8, 3, 11), (0, 1)))
    [(0, 1), (0, 6), (2, 1), (2, 6)]
    """
    h, w = level.height, level.width
    r, c = cell
    out = {(r, c), (r, w - 1 - c), (h - 1 - r, c), (h - 1 - r, w - 1 - c)}
    if h == w:
        out |= {(b, a) for a, b in out}
    return out


def split_rules(search: Search, done: dict, save=lambda: None, out: str | None = None,
                floors: dict | None = None, only: list | None = None, carried: tuple = (0.0, 0)) -> dict:
    """Each rule's first clicks other than the corner's orbit, into ``done`` (by rule):
    ``best`` (the best exact value, or None) and ``results`` ([cell, won, count, exact]).

    ``floors`` (rule value -> Fraction) gives the corner's exact value where
    it is known: a click is then searched only until it cannot reach it.
    That is the cut the one-process search gets by trying the corner first;
    without it the first click tried here is searched to the end.
    ``only`` keeps those first clicks (one per orbit), so that two processes
    can share a rule's clicks (``merge`` joins their files).  ``carried``:
    (CPU seconds, states) a memo this search was loaded from holds beyond
    what ``done`` records (work on a click not finished when it was saved),
    counted to the first rule not finished.

    >>> done = split_rules(Search(Level(4, 4, 4)), {})
    >>> done["safe"]["best"], done["safe"]["results"][0]
    ('961/1365', [[0, 1], 961, 1365, True])
    >>> split_rules(Search(Level(4, 4, 4)), {}, floors={"safe": Fraction(1)})["safe"]["best"] is None
    True
    """
    level = search.level
    corner = set(images(level, (0, 0)))
    cells = [divmod(k, level.width) for k in search._first_candidates()]
    cells = [cell for cell in cells if cell not in corner and (only is None or cell in only)]

    def write() -> None:
        if out:
            with open(out, "w") as f:
                json.dump({"level": str(level), "cells": [list(c) for c in cells], "rules": done}, f, indent=1)

    for rule in FirstClick:
        before = done.get(rule.value, {"partial": True, "results": [], "cpu": 0.0, "states": 0})
        if not before.get("partial"):
            continue
        cpu, states = time.process_time() - before["cpu"], search.states - before["states"]
        cpu, states, carried = cpu - carried[0], states - carried[1], (0.0, 0)
        floor = (floors or {}).get(rule.value)
        floor_text = None if floor is None else str(floor)
        if before.get("floor", floor_text) != floor_text:
            fail(f"{out}: expected the {rule.value} clicks kept to come from the corner value {floor}, "
                 f"found {before['floor']} (give another --out, or the --table they came from)")
        results = before["results"]
        kept = {tuple(r[0]) for r in results}  # from an earlier run (its memo may be gone: the results are not)
        found = [Fraction(won, count) for _, won, count, exact in results if exact]
        for cell in cells:
            if cell in kept:
                continue
            best = max(found + ([floor] if floor is not None else []), default=None)
            beat = -1  # as Search.optimum: a tie must be exact, anything worse may stop at a bound
            if best is not None:
                beat = -(-best.numerator * search.allowed(rule, cell).bit_count() // best.denominator) - 1
            won, count = same_as_can_lose(search, done, rule, cell, beat) or search.first_click(rule, cell, beat)
            exact = bool(count) and won > beat
            results.append([list(cell), won, count, exact])
            if exact:
                found.append(Fraction(won, count))
            done[rule.value] = {"best": str(max(found)) if found else None, "results": results, "floor": floor_text,
                                "cpu": time.process_time() - cpu, "states": search.states - states,
                                "mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "partial": True}
            write()  # after each click: a run stopped (its memo lost) goes on from the next click
        done[rule.value] = {**done.get(rule.value, {"best": None, "results": [], "mb": 0.0, "floor": floor_text}),
                            "cpu": time.process_time() - cpu, "states": search.states - states}
        done[rule.value].pop("partial", None)
        save()
        write()
    return done


def same_as_can_lose(search: Search, done: dict, rule: FirstClick, cell, beat: int) -> tuple[int, int] | None:
    """A safe first click's (won, count) from the can-lose search of the same click, where it answers.

    Opening ``cell`` first under can-lose loses the layouts with a mine
    there and splits the rest, the safe rule's layouts, by the number shown:
    the same parts, so the same layouts won.  An exact can-lose value is the
    safe one; a bound answers if it is within ``beat``.  In one process the
    memo gives this anyway; a run that lost its memo would search it again.
    """
    if rule is not FirstClick.SAFE:
        return None
    for kept, won, _, exact in done.get(FirstClick.CAN_LOSE.value, {}).get("results", []):
        if tuple(kept) == cell and (exact or won <= beat):
            return won, search.allowed(rule, cell).bit_count()
    return None


def kept_results(out: str, level: Level, only: list | None) -> dict | None:
    """The rules and clicks a run of the same board and clicks wrote to ``out``, or None."""
    if not os.path.exists(out):
        return None
    with open(out) as f:
        kept = json.load(f)
    if kept.get("level") != str(level):
        fail(f"{out}: expected a run of {level} (or a new file), found one of {kept.get('level')}")
    if only is not None and sorted(map(tuple, kept.get("cells", []))) != sorted(only):
        fail(f"{out}: expected a run of the first clicks {' '.join(f'{r},{c}' for r, c in sorted(only))}, "
             f"found one of {' '.join(f'{r},{c}' for r, c in kept.get('cells', []))}")
    return kept["rules"]


def run(level: Level, memo: str, out: str, floors: dict | None = None, only: list | None = None) -> None:
    """``split_rules`` in this process, its memo kept in ``memo`` and gone on from."""
    asked: list[bool] = []
    signal.signal(signal.SIGTERM, lambda *_: asked.append(True))
    spent, done, saved_at = 0.0, {}, [time.process_time()]

    def save() -> None:
        search.save(memo, {"cpu seconds": spent + time.process_time(), "rules": done})
        saved_at[0] = time.process_time()

    def progress(states: int) -> None:
        if states % 1_000_000 < 10_000:
            print(f"{level}: {states} views, {spent + time.process_time():.0f} s CPU", file=sys.stderr, flush=True)
        if asked:
            raise Stopped
        if time.process_time() - saved_at[0] >= SAVE_EVERY:
            save()

    kept = kept_results(out, level, only)  # first: a wrong --out is refused before a memo of GBs is read
    search = Search(level, progress=progress)
    loaded = os.path.exists(memo)
    if loaded:
        header = search.load(memo)
        spent, done = header["cpu seconds"], header["rules"]
        print(f"{level}: resumed from {memo} ({header['views']} views, {spent:.0f} s CPU before)",
              file=sys.stderr, flush=True)
    if kept is not None:  # written after every click: never behind the memo's header
        done = kept
        print(f"{level}: going on from the clicks in {out}", file=sys.stderr, flush=True)
    # The memo's work no record holds (a click it began): counted once, the JSON never behind it.
    carried = unrecorded(spent, done, search.states) if loaded else (0.0, 0)
    try:
        split_rules(search, done, save, out, floors, only, carried)
    except (Stopped, KeyboardInterrupt):
        save()
        print(f"{level}: stopped; the memo is in {memo}", file=sys.stderr, flush=True)


def unrecorded(spent: float, done: dict, states: int) -> tuple[float, int]:
    """(CPU seconds, states) of a memo's work that the rules recorded do not hold: a click
    begun and not finished when it was saved (its rule then has no record yet, or a partial one
    of the clicks before it).  ``spent``: the memo's CPU seconds; ``done``: the records kept (the
    JSON's, which may be ahead of the memo: then less is carried, never twice); ``states``: the
    search's, the memo just loaded.

    >>> unrecorded(3051.5, {"can-lose": {"cpu": 950.5, "states": 100}}, 900)
    (2101.0, 800)
    """
    rules = done.values()
    return (max(0.0, spent - sum(r.get("cpu", 0.0) for r in rules)),
            max(0, states - sum(r.get("states", 0) for r in rules)))


def merged_row(level: Level, rule: FirstClick, corner: Fraction | None, split: dict) -> dict:
    """The best-first-click row from the corner's exact value and ``split``'s results for ``rule``.

    >>> merged_row(Level(4, 4, 3), FirstClick.SAFE, Fraction(80, 91),
    ...            {"best": "10/13", "results": [[[0, 1], 10, 13, True]], "states": 5, "cpu": 0.1, "mb": 30})["firsts"]
    ((0, 0), (0, 3), (3, 0), (3, 3))
    """
    found = None if split["best"] is None else Fraction(split["best"])
    if corner is None and found is None:
        return {"level": str(level), "rule": rule.value, "mode": "optimal", "none": True}
    value = max(v for v in (corner, found) if v is not None)
    firsts = set(images(level, (0, 0))) if corner == value else set()
    for cell, won, count, exact in split["results"]:
        if exact and Fraction(won, count) == value:
            firsts |= images(level, tuple(cell))
    firsts = tuple(sorted(firsts))
    return {"level": str(level), "rule": rule.value, "mode": "optimal", "value": value, "firsts": firsts,
            "states": split["states"], "cpu": split["cpu"], "mb": split["mb"],
            "layouts": allowed_count(level, rule, firsts[0])}


def corner_values(level: Level, lines: list[str]) -> dict:
    """The table's corner rows of ``level``: rule value -> exact value (None: no layout).

    >>> corner_values(Level(4, 4, 4), ["| 4x4x4 | safe | corner | 961/1365 | 70.40% | 0,0 | 1 | 1 | 0 | 30 | 1365 | - |"])
    {'safe': Fraction(961, 1365)}
    """
    corners = {}
    for text in lines:
        cells = cells_of(text)
        if cells and len(cells) == 12 and cells[0] == str(level) and cells[2] == "corner":
            corners[cells[1]] = None if cells[3] == "no layout" else Fraction(cells[3])
    return corners


def orbit_cells(level: Level) -> list[tuple[int, int]]:
    """One cell per orbit of the rectangle's symmetries (the first in reading order), as the search tries them.

    >>> orbit_cells(Level(4, 3, 2))
    [(0, 0), (0, 1), (1, 0), (1, 1)]
    """
    return sorted({min(images(level, (r, c))) for r in range(level.height) for c in range(level.width)})


def joined(paths: list[str]) -> dict:
    """The runs of ``paths`` (one board, first clicks shared out with ``run --cells``) as one run:
    each rule that every run finished, its results, states and CPU added up.

    >>> import json, tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> for name, cell, won in (("a", [0, 1], 9), ("b", [1, 1], 11)):
    ...     with open(os.path.join(d, name), "w") as f:
    ...         json.dump({"level": "3x3x2", "cells": [cell], "rules": {"safe": {"best": f"{won}/28",
    ...                    "results": [[cell, won, 28, True]], "floor": None, "cpu": 1.0, "states": 10, "mb": 30}}}, f)
    >>> j = joined([os.path.join(d, "a"), os.path.join(d, "b")])
    >>> j["rules"]["safe"]["best"], j["rules"]["safe"]["states"]
    ('11/28', 20)
    """
    runs = []
    for path in paths:
        with open(path) as f:
            runs.append((path, json.load(f)))
    level = Level.parse(runs[0][1]["level"])
    wanted = set(orbit_cells(level)) - {(0, 0)}
    seen: dict = {}
    for path, run_ in runs:
        if run_["level"] != str(level):
            fail(f"{path}: expected a run of {level} (as {runs[0][0]}), found {run_['level']}")
        for cell in map(tuple, run_.get("cells", sorted(wanted))):
            if cell in seen:
                fail(f"{path}: expected first clicks no other run searched, found {cell[0]},{cell[1]} "
                     f"(also in {seen[cell]})")
            seen[cell] = path
    if set(seen) != wanted:
        missing = ", ".join(f"{r},{c}" for r, c in sorted(wanted - set(seen)))
        fail(f"{paths[-1]}: expected runs over every first click but the corner's, found none for {missing}")
    rules = {}
    for rule in FirstClick:
        parts = [run_["rules"].get(rule.value) for _, run_ in runs]
        if any(part is None or part.get("partial") for part in parts):
            continue  # a run has not finished this rule yet
        bests = [Fraction(part["best"]) for part in parts if part["best"] is not None]
        floors = {part.get("floor") for part in parts}
        if len(floors) > 1:
            fail(f"{paths[-1]}: expected every run of {rule.value} to start from the same corner value, "
                 f"found {sorted(map(str, floors))}")
        rules[rule.value] = {"best": str(max(bests)) if bests else None, "floor": floors.pop(),
                             "results": [r for part in parts for r in part["results"]],
                             "states": sum(part["states"] for part in parts),
                             "cpu": sum(part["cpu"] for part in parts), "mb": max(part["mb"] for part in parts)}
    return {"level": str(level), "rules": rules}


def merge(split_paths: list[str], table: str) -> list[str]:
    """Write the best-first-click rows of the runs' board into ``table``; the lines written."""
    split = joined(split_paths)
    split_path = split_paths[-1]
    level = Level.parse(split["level"])
    with open(table) as f:
        lines = f.read().split("\n")
    corners, written = corner_values(level, lines), []
    for rule in FirstClick:
        if rule.value not in split["rules"]:
            continue
        if rule.value not in corners:
            fail(f"{table}: expected the corner row of {level} {rule.value} (run optimal_table first), found none")
        floor = split["rules"][rule.value].get("floor")
        if floor is not None and Fraction(floor) != corners[rule.value]:
            fail(f"{split_path}: expected the {rule.value} run to start from {table}'s corner value "
                 f"{corners[rule.value]}, found {floor} (run it again with this --table)")
        row = line(merged_row(level, rule, corners[rule.value], split["rules"][rule.value]))
        written.append(row)
        old = [i for i, text in enumerate(lines) if (cells_of(text) or [""] * 3)[:3] == [str(level), rule.value, "optimal"]]
        if old:
            lines[old[0]] = row
        else:
            at = next(i for i, text in enumerate(lines)
                      if (cells_of(text) or [""] * 3)[:3] == [str(level), rule.value, "corner"])
            lines.insert(at + 1, row)
    table_rows = [i for i, text in enumerate(lines) if cells_of(text) and len(cells_of(text)) == 12]
    assert [lines[i] for i in table_rows] == sorted((lines[i] for i in table_rows), key=board_order), \
        "the table's rows left their order"
    with open(table, "w") as f:
        f.write("\n".join(lines))
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    go = commands.add_parser("run", help="search the first clicks other than the corner, every rule")
    go.add_argument("board", help="WxHxM")
    go.add_argument("--memo", required=True, help="the search's memo: saved, and gone on from")
    go.add_argument("--out", required=True, help="the results, as JSON (rewritten after each first click; "
                                               "gone on from if it is there)")
    go.add_argument("--table", help="a table with the board's corner rows: each rule's search then only "
                                    "tries to reach the corner's value (less work where the corner is best)")
    go.add_argument("--cells", nargs="+", metavar="R,C", help="only these first clicks (and their images): "
                    "share a board's clicks out among processes, each with its own --memo and --out")
    join = commands.add_parser("merge", help="write the best-first-click rows into the table")
    join.add_argument("split", nargs="+", help="run's JSON (several: runs that shared the clicks out)")
    join.add_argument("--table", required=True, help="docs/optimal.md or a copy, with the board's corner rows")
    args = parser.parse_args()
    if args.command == "run":
        try:
            level = Level.parse(args.board)
        except ValueError as err:
            fail(f"board: {err}")
        for path in (args.memo, args.out):
            if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
                fail(f"{path}: expected a file in an existing directory, found no such directory")
        floors = None
        if args.table:
            if not os.path.isfile(args.table):
                fail(f"{args.table}: expected a readable file, found no such file")
            with open(args.table) as f:
                floors = corner_values(level, f.read().split("\n"))
            if not floors:
                fail(f"{args.table}: expected the corner rows of {level} (run optimal_table first), found none")
        only = None
        if args.cells:
            only = []
            for text in args.cells:
                try:
                    cell = tuple(int(x) for x in text.split(","))
                    level.check_cell(cell)
                except (ValueError, SatsweeperError) as err:
                    fail(f"--cells {text}: expected ROW,COL on the board, found {err}")
                only.append(min(images(level, cell)))
        run(level, args.memo, args.out, floors, only)
    else:
        for path in (*args.split, args.table):
            if not os.path.isfile(path):
                fail(f"{path}: expected a readable file, found no such file")
        for text in merge(args.split, args.table):
            print(text)


if __name__ == "__main__":
    main()
