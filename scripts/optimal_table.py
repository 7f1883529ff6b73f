"""The table of optimal play on small boards (docs/optimal.md), and best's and exact's gap to it.

For each board and mine count, under each first-click rule, with the first
click in the corner (0,0) and chosen optimally: the exact optimum
(:mod:`satsweeper.optimal`), the best first clicks, the states searched and
the CPU time; then ``best`` and ``exact`` played on every allowed layout
(tie-breaks seeded by ``--seed`` and the position they see) and their gap.

Boards are taken in order of their number of layouts; each board runs in a
child process with ``--budget`` seconds of wall time and is stopped after
that, keeping the rows it finished.  The file is rewritten after every row,
so an interrupted run keeps what finished.  With ``--memo-dir`` a board's
search itself survives: its memo is saved when the budget is spent (and
every half hour of CPU), and the next run goes on from it, so a board too
big for one sitting is solved over several.  Slow on purpose: run it niced.

    nice -n 10 python -m scripts.optimal_table --out docs/optimal.md --budget 600 --total 3600
"""

from __future__ import annotations

import argparse
import json
import math
import os
import multiprocessing
import resource
import signal
import sys
import time
from fractions import Fraction
from pathlib import Path

from satsweeper.game import FirstClick, Level
from satsweeper.optimal import NoLayout, Search, SearchTooBig, strategy_value
from satsweeper.game import neighbours

RULES = list(FirstClick)


def boards(most_layouts: int) -> list[Level]:
    """3x3, 4x4, 5x5, 2xN and 3xN strips (N up to 8), then 6x6 and 8x8 with few mines."""
    sizes = [(3, 3), (4, 4), (5, 5)] + [(n, h) for h in (2, 3) for n in range(2, 9) if n >= h]
    levels = {Level(w, h, m) for w, h in sizes for m in range(1, w * h)}
    levels |= {Level(6, 6, m) for m in range(1, 8)} | {Level(8, 8, m) for m in range(1, 6)}
    levels = [lv for lv in levels if math.comb(lv.width * lv.height, lv.mines) <= most_layouts]
    return sorted(levels, key=lambda lv: (math.comb(lv.width * lv.height, lv.mines), lv.width, lv.mines))


ORDER = [(FirstClick.SAFE, "corner"), (FirstClick.CAN_LOSE, "corner"), (FirstClick.OPENING, "corner"),
         (FirstClick.SAFE, "optimal"), (FirstClick.CAN_LOSE, "optimal"), (FirstClick.OPENING, "optimal")]


STRATEGIES = ("best", "exact")


def played_key(level: Level, rule: FirstClick, first: tuple[int, int], seed: int) -> str:
    """The cache's key of the strategies played on every layout from one first click."""
    return f"{level} {rule.value} {first[0]},{first[1]} {seed}"


def load_cache(path: str | None) -> dict[str, dict[str, Fraction]]:
    """Strategy values played earlier (``--cache``): playing them is most of a small board's time."""
    if not path or not os.path.exists(path):
        return {}
    with open(path) as f:
        return {key: {name: Fraction(v) for name, v in values.items()} for key, values in json.load(f).items()}


def save_cache(path: str | None, cache: dict[str, dict[str, Fraction]]) -> None:
    if path:
        with open(path, "w") as f:
            json.dump({key: {name: str(v) for name, v in values.items()} for key, values in sorted(cache.items())},
                      f, indent=0)


def values_of(level: Level, rule: FirstClick, first: tuple[int, int], seed: int) -> dict[str, Fraction]:
    """best's and exact's values from ``first``, played on every layout."""
    return {name: strategy_value(level, name, rule, first, seed).value for name in STRATEGIES}


def play(level: Level, rule: FirstClick, first: tuple[int, int], seed: int, cache: dict) -> dict[str, Fraction]:
    """best's and exact's values from ``first``: the cache's, or played on every layout now."""
    key = played_key(level, rule, first, seed)
    if key not in cache:
        cache[key] = values_of(level, rule, first, seed)
    return cache[key]


class Stopped(Exception):
    """The parent asked the child to stop (SIGTERM): save the memo and leave."""


SAVE_EVERY = 1800  # CPU seconds between saves of a board's memo (a machine that vanishes loses at most this)


def rows_of(level: Level, strategy_layouts: int, seed: int, send, cache: dict | None = None,
            memory_gb: float = 0, memo_path: str | None = None) -> None:
    """In a child: one row per (rule, first-click mode), sent as it finishes.

    Safe with the corner click first, on an empty memo: its states and CPU
    are those of one search from scratch (the other rows reuse its memo).
    A row carries the strategies' values under "played" (for the parent's cache).
    With ``memory_gb`` the child's address space is capped there: a search
    that needs more ends the child (a MemoryError, not a wrong row).

    With ``memo_path`` the search outlives the child: the memo, the rows
    finished and the CPU spent are saved there every ``SAVE_EVERY`` CPU
    seconds, when the parent sends SIGTERM (the budget is spent) and at the
    end; a later run on the same file sends the finished rows again and goes
    on from the saved memo.  A row's CPU is then the sum over the runs.
    """
    if memory_gb:
        cap = int(memory_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    cache = {} if cache is None else cache
    asked = []  # set by SIGTERM; the search is stopped at its next progress call, between two views
    signal.signal(signal.SIGTERM, lambda *_: asked.append(True))
    spent, done = 0.0, []  # CPU seconds of earlier runs; rows finished (as saved)
    saved_at = [time.process_time()]

    def progress(states: int) -> None:
        report(level, states)
        if asked:
            raise Stopped
        if memo_path and time.process_time() - saved_at[0] >= SAVE_EVERY:
            keep()

    def keep() -> None:
        search.save(memo_path, {"cpu seconds": spent + time.process_time(), "rows": done})
        saved_at[0] = time.process_time()

    search = Search(level, progress=progress)
    if memo_path and os.path.exists(memo_path):
        header = search.load(memo_path)
        spent, done = header["cpu seconds"], header["rows"]
        print(f"{level}: resumed from {memo_path} ({header['views']} views, {spent:.0f} s CPU before)",
              file=sys.stderr, flush=True)
    for rule, mode in ORDER:
        earlier = next((row for row in done if (row["rule"], row["mode"]) == (rule.value, mode)), None)
        if earlier:
            send.send(row_from_json(earlier))
            continue
        cpu, states = spent + time.process_time(), search.states
        try:
            found = search.optimum(rule, (0, 0) if mode == "corner" else None)
        except NoLayout as err:  # no layout for this rule: a row that says so
            row = {"level": str(level), "rule": rule.value, "mode": mode, "none": str(err)}
        except Stopped:
            if memo_path:
                keep()
            return
        else:
            row = {"level": str(level), "rule": rule.value, "mode": mode, "value": found.value,
                   "firsts": found.firsts, "states": found.states - states,
                   "cpu": spent + time.process_time() - cpu, "layouts": found.layouts,
                   "mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
        done.append(row_to_json(row))
        if memo_path:
            keep()
        if "value" in row and found.layouts <= strategy_layouts:
            values = play(level, rule, found.firsts[0], seed, cache)
            row.update(values)
            row["played"] = (played_key(level, rule, found.firsts[0], seed), values)
        send.send(row)


def row_to_json(row: dict) -> dict:
    """A row as the memo file keeps it (Fractions as text)."""
    return {key: str(value) if isinstance(value, Fraction) else value for key, value in row.items()}


def row_from_json(row: dict) -> dict:
    """A row the memo file kept, as :func:`rows_of` sends it.

    >>> row_from_json(row_to_json({"value": Fraction(1, 3), "firsts": ((0, 0),), "cpu": 2.5}))
    {'value': Fraction(1, 3), 'firsts': ((0, 0),), 'cpu': 2.5}
    """
    out = dict(row)
    if "value" in out:
        out["value"] = Fraction(out["value"])
        out["firsts"] = tuple(tuple(cell) for cell in out["firsts"])
    return out


def report(level: Level, states: int) -> None:
    """Every million views remembered: the views, CPU seconds and peak MB so far (to stderr)."""
    if states % 1_000_000 < 10_000:
        print(f"{level}: {states} views, {time.process_time():.0f} s CPU, "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB", file=sys.stderr, flush=True)


GRACE = 600  # seconds a stopped child may take to save its memo (5x5x8's 1 GB: about a minute)


def run_board(level: Level, budget: float, strategy_layouts: int, seed: int,
              cache: dict | None = None, memory_gb: float = 0,
              memo_path: str | None = None) -> tuple[list[dict], str]:
    """The rows one board finished within ``budget`` seconds, and why it stopped (or "").

    With ``memo_path`` the child is asked to stop (SIGTERM) and given
    ``GRACE`` seconds to save its memo there before it is killed.
    """
    receiver, sender = multiprocessing.Pipe(duplex=False)
    child = multiprocessing.get_context("fork").Process(target=rows_of,
                                                        args=(level, strategy_layouts, seed, sender, cache,
                                                              memory_gb, memo_path))
    child.start()
    sender.close()
    rows, end = [], time.monotonic() + budget
    while True:
        if receiver.poll(max(0.0, min(1.0, end - time.monotonic()))):
            try:
                rows.append(receiver.recv())
                continue
            except EOFError:
                break
        if not child.is_alive() and not receiver.poll(0):
            break
        if time.monotonic() >= end:
            if memo_path:
                child.terminate()
                child.join(GRACE)
            child.kill()
            child.join()
            saved = f"; its memo is in {memo_path}" if memo_path and child.exitcode == 0 else ""
            return rows, f"stopped after {budget:g} s wall time{saved}"
    child.join()
    return rows, "" if child.exitcode == 0 else f"child ended with code {child.exitcode} (memory?)"


def percent(p: Fraction | None) -> str:
    return "" if p is None else f"{float(p):.2%}"


def line(row: dict) -> str:
    if "line" in row:  # kept from the file as it was
        return row["line"]
    if "none" in row:
        return f"| {row['level']} | {row['rule']} | {row['mode']} | no layout | | | | | | | | |"
    firsts = " ".join(f"{r},{c}" for r, c in row["firsts"][:4]) + (" …" if len(row["firsts"]) > 4 else "")
    best, exact = row.get("best"), row.get("exact")
    gap = "" if best is None else f"{row['value'] - best} ({percent(row['value'] - best)})"
    return (f"| {row['level']} | {row['rule']} | {row['mode']} | {row['value']} | {percent(row['value'])} "
            f"| {firsts} | {row['states']} | {row['cpu']:.2f} | {row['mb']:.0f} | {percent(best)} | {percent(exact)} "
            f"| {gap} |")


HEAD = ("| board | rule | first | optimal | % | best first clicks | states | CPU s | peak MB | best | exact | "
        "optimal - best |\n|---|---|---|---|---|---|---|---|---|---|---|---|")
RULE_ORDER = {rule.value: i for i, rule in enumerate(RULES)}


def board_order(row: str) -> tuple:
    """Rows by board (height, width, mines), then rule, then corner before optimal."""
    cells = [x.strip() for x in row.split("|")]
    w, h, m = (int(x) for x in cells[1].split("x"))
    return h != w, h, w, m, RULE_ORDER[cells[2]], cells[3] != "corner"


def growth(rows: list[dict]) -> str:
    """The safe-corner rows of square boards, at most half mines, >= 1000 layouts: how the search grows."""
    def square(row: dict) -> bool:
        w, h, m = (int(x) for x in row["level"].split("x"))
        return w == h and 2 * m <= w * h
    chosen = sorted((r for r in rows if r.get("rule") == "safe" and r.get("mode") == "corner"
                     and "none" not in r and r["layouts"] >= 1000 and square(r)), key=lambda r: r["layouts"])
    lines = [f"| {r['level']} | {r['layouts']} | {r['states']} | {r['cpu']:.2f} | {r['mb']:.0f} |" for r in chosen]
    return ("## How the search grows\n\nRule safe, first click 0,0, from an empty memo (square boards, at "
            "most half of the cells mines, at least 1000 allowed layouts). `states`: views stored (exact "
            "values and bounds) and sets of at most 16 layouts solved by listing them. CPU on a shared, "
            "loaded machine.\n\n"
            "| board | layouts | states | CPU s | peak MB |\n|---|---|---|---|---|\n" + "\n".join(lines) + "\n")


def write(path: str, command: str, rows: list[dict], notes: list[str]) -> None:
    lines = sorted((line(r) for r in rows), key=board_order)
    text = (f"# Optimal play on small boards\n\nRegenerate: `{command}`\n\n"
            "Exact values (layouts won by optimal play / layouts the rule allows); `first` corner = "
            "first click at 0,0, optimal = the best first click (all best ones listed, up to 4). "
            "`states`: views the row added to the board's memo (the rows of a board share one; the "
            "safe corner row runs first, on an empty memo, so the other rows are often nearly free); "
            "`CPU s`: CPU time of the row on a shared machine; `peak MB`: the board's process so far. "
            "`best`/`exact`: the strategy played on every allowed layout from the row's first click "
            "(the first best one), tie-breaks seeded by the seed and the position seen; empty when "
            "there are too many layouts for that. The search: `satsweeper/optimal.py`.\n\n"
            f"{HEAD}\n" + "\n".join(lines) + "\n\n" + "\n".join(f"- {n}" for n in notes) + "\n\n"
            + growth(rows))
    with open(path, "w") as out:
        out.write(text)


def allowed_count(level: Level, rule: FirstClick, first: tuple[int, int]) -> int:
    """How many layouts ``rule`` allows after ``first`` (as :func:`satsweeper.optimal.allowed_layouts` lists)."""
    n = level.width * level.height
    excluded = {FirstClick.CAN_LOSE: 0, FirstClick.SAFE: 1,
                FirstClick.OPENING: 1 + len(neighbours(level, first))}[rule]
    return math.comb(n - excluded, level.mines)


def cells_of(line: str) -> list[str] | None:
    """A table row's cells, or None for any other line."""
    if not line.startswith("| ") or line.startswith("| board"):
        return None
    return [x.strip() for x in line.split("|")[1:-1]]


def refresh_strategies(path: str, strategy_layouts: int, seed: int, cache: dict, cache_path: str | None,
                       end: float, workers: int = 1) -> None:
    """Play best and exact again on the rows of ``path`` with at most ``strategy_layouts`` layouts.

    The optimal columns are kept; the first clicks not in ``cache`` are
    played smallest first, ``workers`` at a time (each in a process of its
    own), and the cache and the file rewritten as each ends, so a run
    stopped by ``end`` (no click is started after it; those under way
    finish) or by Ctrl-C keeps what finished.
    """
    with open(path) as f:
        lines = f.read().split("\n")
    rows: dict[str, list] = {}  # the rows of each first click played (rows may share one)
    for i, text in enumerate(lines):
        cells = cells_of(text)
        if not cells or len(cells) != 12 or cells[3] == "no layout":
            continue
        level, rule = Level.parse(cells[0]), FirstClick(cells[1])
        first = tuple(int(x) for x in cells[5].split()[0].split(","))
        count = allowed_count(level, rule, first)
        if count <= strategy_layouts:
            rows.setdefault(played_key(level, rule, first, seed), []).append(
                (count, i, level, rule, first, Fraction(cells[3])))

    def fill(key: str) -> None:
        values = cache[key]
        for _, i, _, _, _, value in rows[key]:
            cells = cells_of(lines[i])
            cells[9:12] = [percent(values["best"]), percent(values["exact"]),
                           f"{value - values['best']} ({percent(value - values['best'])})"]
            lines[i] = "| " + " | ".join(cells) + " |"

    def write() -> None:
        with open(path, "w") as f:
            f.write("\n".join(lines))

    for key in rows:
        if key in cache:
            fill(key)
    write()
    todo = sorted((entries[0][:2], key) for key, entries in rows.items() if key not in cache)
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        running: dict = {}
        while todo or running:
            while todo and len(running) < workers and time.monotonic() <= end:
                key = todo.pop(0)[1]
                _, _, level, rule, first, _ = rows[key][0]
                running[key] = pool.apply_async(values_of, (level, rule, first, seed))
            if not running:
                break
            done = [key for key, result in running.items() if result.ready()]
            if not done:
                time.sleep(0.2)
            for key in done:
                cache[key] = running.pop(key).get()
                save_cache(cache_path, cache)
                fill(key)
                write()


def summary(path: str, most: int = 5) -> str:
    """How far ``best`` is from the optimum over the rows of ``path`` that have its value:
    the rows where it is optimal, those where it falls short, and the largest gaps (README's
    figures, as ``--summary`` prints them; tests/test_optimal_table.py has an example).
    """
    played, short, solved = 0, [], 0
    with open(path) as f:
        for text in f.read().split("\n"):
            cells = cells_of(text)
            if not cells or len(cells) != 12 or cells[3] == "no layout":
                continue
            solved += 1
            if not cells[11]:
                continue
            played += 1
            gap = Fraction(cells[11].split()[0])
            if gap:
                short.append((gap, " ".join(cells[:3]), cells[11]))
    short.sort(key=lambda found: -found[0])
    gaps = "; ".join(f"{where} {shown}" for _, where, shown in short[:most])
    return (f"best played on {played} of {solved} solved rows: optimal on {played - len(short)}, "
            f"short on {len(short)}\nlargest gaps: {gaps or 'none'}")


def kept_row(text: str, cells: list[str]) -> dict:
    """A row kept from the file: its line as it was, and what :func:`growth` reads."""
    row = {"line": text, "level": cells[0], "rule": cells[1], "mode": cells[2]}
    if cells[3] == "no layout":
        return row | {"none": True}
    level, rule = Level.parse(cells[0]), FirstClick(cells[1])
    first = tuple(int(x) for x in cells[5].split()[0].split(","))
    return row | {"states": int(cells[6]), "cpu": float(cells[7]), "mb": float(cells[8]),
                  "layouts": allowed_count(level, rule, first)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/optimal.md")
    parser.add_argument("--budget", type=float, default=600, help="wall seconds per board")
    parser.add_argument("--total", type=float, default=0, help="wall seconds for the run (0: no limit)")
    parser.add_argument("--most-layouts", type=int, default=3_300_000)
    parser.add_argument("--strategy-layouts", type=int, default=3000,
                        help="play best and exact only where the rule allows at most this many layouts")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", nargs="*", help="levels to run (WxHxM), default all")
    parser.add_argument("--cache", help="a JSON file of strategy values played (read, and extended)")
    parser.add_argument("--summary", action="store_true",
                        help="only print how far best is from the optimum over the rows of --out")
    parser.add_argument("--strategies-only", action="store_true",
                        help="only play best and exact again on the rows already in --out")
    parser.add_argument("--workers", type=int, default=1,
                        help="with --strategies-only: first clicks played at once, each in a process")
    parser.add_argument("--memory", type=float, default=0,
                        help="GB of address space a board's process may take (0: no cap)")
    parser.add_argument("--memo-dir", help="keep each board's search in DIR/WxHxM.memo, saved when its budget "
                        "is spent, and go on from it next time (5x5x8 needs several runs)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the rows (and notes) of --out for the boards this run does not run")
    args = parser.parse_args()
    if args.workers < 1:
        parser.error(f"--workers: expected at least 1 (got {args.workers})")
    if args.strategies_only and not os.path.isfile(args.out):
        parser.error(f"--out: expected the table to play again, a readable file (got {args.out!r}: no such file)")
    if args.summary:
        if not os.path.isfile(args.out):
            parser.error(f"--out: expected a table to sum up, a readable file (got {args.out!r}: no such file)")
        print(summary(args.out))
        return
    cache = load_cache(args.cache)
    if args.strategies_only:
        refresh_strategies(args.out, args.strategy_layouts, args.seed, cache, args.cache,
                           time.monotonic() + args.total if args.total else float("inf"), args.workers)
        return
    command = ("nice -n 10 python -m scripts.optimal_table " + f"--budget {args.budget:g} --total {args.total:g} "
               f"--strategy-layouts {args.strategy_layouts} --most-layouts {args.most_layouts} --seed {args.seed}")
    if args.cache:
        command += f" --cache {args.cache}"
    if args.memory:
        command += f" --memory {args.memory:g}"
    if args.memo_dir:
        os.makedirs(args.memo_dir, exist_ok=True)
        command += f" --memo-dir {args.memo_dir}"
    if args.only:
        command += f" --out {args.out} --only {' '.join(args.only)}"
    levels = [Level.parse(x) for x in args.only] if args.only else boards(args.most_layouts)
    rows: list[dict] = []
    notes: list[str] = []
    if args.keep:  # the old rows and notes of boards not run again
        command += " --keep"
        rerun = {str(lv) for lv in levels}
        # A first run with --keep has no table yet: nothing to keep, not an error.
        kept = Path(args.out).read_text() if Path(args.out).exists() else ""
        for text in kept.split("\n"):
            cells = cells_of(text)
            if cells and len(cells) == 12 and cells[0] not in rerun:
                rows.append(kept_row(text, cells))
            elif text.startswith("- ") and text[2:].split(":")[0] not in rerun:
                notes.append(text[2:])
    end = time.monotonic() + args.total if args.total else float("inf")
    for i, level in enumerate(levels):
        left = end - time.monotonic()
        if left < 10:
            rest = ", ".join(str(lv) for lv in levels[i:])
            notes.append(f"not tried (the run's --total {args.total:g} s was spent): {rest}")
            write(args.out, command, rows, notes)
            break
        try:
            memo_path = os.path.join(args.memo_dir, f"{level}.memo") if args.memo_dir else None
            found, why = run_board(level, min(args.budget, left), args.strategy_layouts, args.seed, cache,
                                   args.memory, memo_path)
            for row in found:
                if "played" in row:
                    key, values = row.pop("played")
                    cache[key] = values
            save_cache(args.cache, cache)
        except SearchTooBig as err:
            found, why = [], str(err)
        rows += found
        if why:
            notes.append(f"{level}: {why} ({len(found)} of {2 * len(RULES)} rows done; "
                         f"{math.comb(level.width * level.height, level.mines)} layouts)")
        write(args.out, command, rows, notes)


if __name__ == "__main__":
    main()
