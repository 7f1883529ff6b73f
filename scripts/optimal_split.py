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

``run`` saves its memo every half hour of CPU, on SIGTERM and on Ctrl-C,
and goes on from it next time (the rules finished are kept in it too); the
JSON is rewritten after each rule.  ``merge`` needs the board's corner rows
in TABLE (stop ``optimal_table`` once they are there, or let it finish:
``merge`` replaces its best-first-click rows with the same values).  The
rows' ``states``, ``CPU s`` and ``peak MB`` are this process's.
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

from satsweeper.game import FirstClick, Level
from satsweeper.optimal import Search

from scripts.optimal_table import allowed_count, board_order, cells_of, line

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


def split_rules(search: Search, done: dict, save=lambda: None, out: str | None = None) -> dict:
    """Each rule's first clicks other than the corner's orbit, into ``done`` (by rule):
    ``best`` (the best exact value, or None) and ``results`` ([cell, won, count, exact]).

    >>> done = split_rules(Search(Level(4, 4, 4)), {})
    >>> done["safe"]["best"], done["safe"]["results"][0]
    ('961/1365', [[0, 1], 961, 1365, True])
    """
    level = search.level
    corner = set(images(level, (0, 0)))
    cells = [divmod(k, level.width) for k in search._first_candidates()]
    cells = [cell for cell in cells if cell not in corner]
    for rule in FirstClick:
        if rule.value in done:
            continue
        cpu, states = time.process_time(), search.states
        best, results = None, []
        for cell in cells:
            beat = -1  # as Search.optimum: a tie must be exact, anything worse may stop at a bound
            if best is not None:
                beat = -(-best.numerator * search.allowed(rule, cell).bit_count() // best.denominator) - 1
            won, count = search.first_click(rule, cell, beat)
            exact = bool(count) and won > beat
            results.append([list(cell), won, count, exact])
            if exact:
                best = max(best or Fraction(0), Fraction(won, count))
        done[rule.value] = {"best": None if best is None else str(best), "results": results,
                            "cpu": time.process_time() - cpu, "states": search.states - states,
                            "mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
        save()
        if out:
            with open(out, "w") as f:
                json.dump({"level": str(level), "rules": done}, f, indent=1)
    return done


def run(level: Level, memo: str, out: str) -> None:
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

    search = Search(level, progress=progress)
    if os.path.exists(memo):
        header = search.load(memo)
        spent, done = header["cpu seconds"], header["rules"]
        print(f"{level}: resumed from {memo} ({header['views']} views, {spent:.0f} s CPU before)",
              file=sys.stderr, flush=True)
    try:
        split_rules(search, done, save, out)
    except (Stopped, KeyboardInterrupt):
        save()
        print(f"{level}: stopped; the memo is in {memo}", file=sys.stderr, flush=True)


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


def merge(split_path: str, table: str) -> list[str]:
    """Write the best-first-click rows of ``split_path``'s board into ``table``; the lines written."""
    with open(split_path) as f:
        split = json.load(f)
    level = Level.parse(split["level"])
    with open(table) as f:
        lines = f.read().split("\n")
    corners, written = {}, []
    for text in lines:
        cells = cells_of(text)
        if cells and len(cells) == 12 and cells[0] == str(level) and cells[2] == "corner":
            corners[cells[1]] = None if cells[3] == "no layout" else Fraction(cells[3])
    for rule in FirstClick:
        if rule.value not in split["rules"]:
            continue
        if rule.value not in corners:
            fail(f"{table}: expected the corner row of {level} {rule.value} (run optimal_table first), found none")
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
    go.add_argument("--out", required=True, help="the results, as JSON (rewritten after each rule)")
    join = commands.add_parser("merge", help="write the best-first-click rows into the table")
    join.add_argument("split", help="run's JSON")
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
        run(level, args.memo, args.out)
    else:
        for path in (args.split, args.table):
            if not os.path.isfile(path):
                fail(f"{path}: expected a readable file, found no such file")
        for text in merge(args.split, args.table):
            print(text)


if __name__ == "__main__":
    main()
