"""David Hill's Java solver and `best` on the same games (issue 18).

Issue 18's target on expert (safe first click in the corner) is Hill's
published 41.13%: his solver's rate on games it drew itself.  This script
plays his solver on *our* games instead: game i of seed s gets the mines of
game i of ``satsweeper bench --seed s`` (first click safe at 0,0, where his
bulk runs click first too), so the two players can be compared game by game
(McNemar's z over the games only one of them won), and a gap between the
rates is the players', not the games'.

It needs a JDK (``javac``, ``java``) and a checkout of Hill's repository,
which is not part of ours (measured at its commit 0806bb8 of 2025-10-06):

    git clone https://github.com/DavidNHill/Minesweeper /tmp/hill-minesweeper
    python scripts/hill_paired.py run --hill /tmp/hill-minesweeper --seed 20261123 \\
        --games 100000 --workers 2 --out docs/strength-hill/expert.txt
    python scripts/hill_paired.py compare docs/strength-hill/expert.txt docs/strength-45/expert.jsonl

``--rule opening --first 3,3`` plays bench's games of that rule instead (the driver's first
click goes there, ``setStartLocation``), against a journal of the same rule and cell.

``run`` compiles Hill's solver with ``scripts/hill/SatsweeperHill.java``
(our driver: it plays each game as his ``MinesweeperBulk`` does, with the
SMALL_ANALYSIS settings and no flags) and writes one line per game,
"index won guesses", as games finish; run it again after a stop and it plays
only the games missing.  ``compare`` prints both rates with their 95%
intervals and the games only one side won, against a ``bench --out``
journal of the same seed.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import NoReturn

from satsweeper.errors import SatsweeperError
from satsweeper.experiments import Paired, Summary
from satsweeper.game import FirstClick, Game, Level
from satsweeper.journal import read_journal

DRIVER = Path(__file__).with_name("hill") / "SatsweeperHill.java"
# Hill's sources the driver needs (the solver, its game states, its thread helpers).
SOURCES = ("MineSweeperSolver/src", "MinesweeperGameState/src", "Asynchronous/src")


def fail(message: str) -> NoReturn:
    """Bad input: say where and what, exit 2 (as satsweeper's commands do)."""
    print(message, file=sys.stderr)
    raise SystemExit(2)


def layout_line(level: Level, seed: int, index: int, rule: FirstClick = FirstClick.SAFE,
                first: tuple[int, int] = (0, 0)) -> str:
    """Game ``index`` of ``bench --seed seed`` (by default a safe first click at 0,0) as the
    driver reads it: "index width height mines" and each mine as row * width + column.

    >>> layout_line(Level(4, 3, 2), 7, 0)
    '0 4 3 2 1 7'
    """
    game = Game.new(level, random.Random(f"{seed}:{index}"), first, rule)
    mines = sorted(r * level.width + c for r, c in game.mines)
    return " ".join(map(str, (index, level.width, level.height, level.mines, *mines)))


def header(level: Level, seed: int, rule: FirstClick = FirstClick.SAFE, first: tuple[int, int] = (0, 0)) -> str:
    return f"# SatsweeperHill {level} seed {seed} {rule.value} {first[0]},{first[1]}: index won guesses"


def finished(out: Path, level: Level, seed: int, rule: FirstClick = FirstClick.SAFE,
             first: tuple[int, int] = (0, 0)) -> dict[int, tuple[bool, int]]:
    """The games already in ``out`` (index -> (won, guesses)); refuses another run's file."""
    if not out.exists():
        return {}
    lines = out.read_text().splitlines()
    if not lines or lines[0] != header(level, seed, rule, first):
        fail(f"{out}:1:1: expected {header(level, seed, rule, first)!r}, "
             f"found {lines[0][:70] if lines else 'an empty file'!r}"
             " (another level, seed or first click: give another --out)")
    games = {}
    for number, line in enumerate(lines[1:], 2):
        parts = line.split()
        if len(parts) != 3 or not all(p.isdigit() for p in parts) or parts[1] not in ("0", "1"):
            if number == len(lines):  # the last line of a stopped run may be cut short
                break
            fail(f"{out}:{number}:1: expected 'index won guesses', found {line[:40]!r}")
        games[int(parts[0])] = (parts[1] == "1", int(parts[2]))
    return games


def build(hill: Path, into: Path) -> Path:
    """Compile Hill's solver and the driver into ``into`` (once); the classes' folder."""
    classes = into / "classes"
    driver = classes / "SatsweeperHill.class"
    if driver.exists() and driver.stat().st_mtime >= DRIVER.stat().st_mtime:
        return classes
    for tool in ("javac", "java"):
        if shutil.which(tool) is None:
            fail(f"expected a JDK ({tool} on PATH), found none: on Debian, apt-get install default-jdk-headless")
    missing = [s for s in SOURCES if not (hill / s).is_dir()]
    if missing:
        fail(f"{hill}: expected a checkout of github.com/DavidNHill/Minesweeper, found no {missing[0]}")
    files = [str(p) for s in SOURCES for p in sorted((hill / s).rglob("*.java"))] + [str(DRIVER)]
    classes.mkdir(parents=True, exist_ok=True)
    compiled = subprocess.run(["javac", "-nowarn", "-encoding", "UTF-8", "-d", str(classes), *files],
                              capture_output=True, text=True, check=False)
    if compiled.returncode:
        fail(f"javac failed:\n{compiled.stderr}")
    return classes


def run(command: list[str], level: Level, seed: int, games: int, out: Path, workers: int,
        rule: FirstClick = FirstClick.SAFE, first: tuple[int, int] = (0, 0)) -> int:
    """Play the games missing from ``out`` with ``command`` (one process per worker, each
    reading layout lines and printing "index won guesses"); returns how many were played."""
    done = finished(out, level, seed, rule, first)
    todo = [i for i in range(games) if i not in done]
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(header(level, seed, rule, first) + "\n")
    text = out.read_text()
    if not text.endswith("\n"):  # a stop cut the last game's line: it is played again
        out.write_text(text[:text.rindex("\n") + 1])
    lock = threading.Lock()
    played = [0]

    def worker(share: list[int]) -> None:
        with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as proc:
            def feed() -> None:
                for i in share:
                    proc.stdin.write(layout_line(level, seed, i, rule, first) + "\n")
                proc.stdin.close()
            threading.Thread(target=feed, daemon=True).start()
            with out.open("a") as sink:
                for line in proc.stdout:
                    with lock:  # whole lines only: a stopped run leaves every finished game
                        sink.write(line)
                        sink.flush()
                        played[0] += 1

    threads = [threading.Thread(target=worker, args=(todo[w::workers],)) for w in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return played[0]


def compare(results: Path, journal: Path) -> str:
    """Hill's games against a bench journal of the same games: rates, intervals, McNemar."""
    if not results.is_file():
        fail(f"{results}:1:1: expected a readable file (got no such file)")
    head = (results.read_text().splitlines() or [""])[0].split()
    shape = re.fullmatch(r"# SatsweeperHill (\S+) seed (\d+) (safe|opening) (\d+),(\d+): index won guesses",
                         (results.read_text().splitlines() or [""])[0])
    if shape is None:
        fail(f"{results}:1:1: expected the first line of a `run --out` file, found {' '.join(head)[:60]!r}")
    level, seed = Level.parse(shape[1]), int(shape[2])
    rule, first = FirstClick(shape[3]), (int(shape[4]), int(shape[5]))
    hill = finished(results, level, seed, rule, first)
    try:
        j = read_journal(journal)
    except (SatsweeperError, OSError) as e:  # not a journal, or no such file: say which, no traceback
        fail(str(e))
    theirs_first = (j.run.get("rules", "safe"), tuple(j.run.get("first", (0, 0))))
    if (int(j.run["seed"]) != seed or str(Level.parse(j.run["level"])) != str(level)
            or theirs_first != (rule.value, first)):
        fail(f"{journal}: expected a run of {level}, seed {seed}, {rule.value} first click at {first[0]},{first[1]} "
             f"(found {j.run['level']}, seed {j.run['seed']}, {theirs_first[0]} at "
             f"{','.join(map(str, theirs_first[1]))})")
    best = [w for chunk in j.chunks for w in chunk.won]
    common = sorted(i for i in hill if i < len(best))
    ours = [best[i] for i in common]
    theirs = [hill[i][0] for i in common]
    n = len(common)
    rows = []
    for name, won in ((j.run.get("strategy", "bench"), ours), ("Hill (Java, SMALL_ANALYSIS)", theirs)):
        s = Summary(name, str(level), n, sum(won), 0, 0.0)
        low, high = s.interval()
        rows.append(f"{name}: {s.wins:,} of {n:,} won, {100 * s.rate:.2f}% ({100 * low:.2f}%-{100 * high:.2f}%)")
    p = Paired.of(theirs, ours)
    half = 1.96 * math.sqrt(p.only_first + p.only_second) / n if n else 0.0
    diff = (p.only_first - p.only_second) / n if n else 0.0
    rows.append(f"only Hill won {p.only_first:,}, only {j.run.get('strategy', 'bench')} won {p.only_second:,}: "
                f"z = {p.z:+.2f}; Hill - {j.run.get('strategy', 'bench')} = {100 * diff:+.2f} points "
                f"(95%: {100 * (diff - half):+.2f} to {100 * (diff + half):+.2f})")
    return (f"{level}, seed {seed}, {rule.value} first click at {first[0]},{first[1]}, the same {n:,} games\n"
            + "\n".join(rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="play Hill's solver on bench's games")
    r.add_argument("--hill", type=Path, required=True, help="a checkout of github.com/DavidNHill/Minesweeper")
    r.add_argument("--build", type=Path, default=Path("build/hill"), help="where to compile it")
    r.add_argument("--level", default="expert")
    r.add_argument("--seed", type=int, default=20261123)
    r.add_argument("--games", type=int, default=100000)
    r.add_argument("--workers", type=int, default=2)
    r.add_argument("--rule", default="safe", choices=[r.value for r in FirstClick],
                   help="the first click's rule, as bench's --rule (the issue's openings: opening)")
    r.add_argument("--first", default="0,0", help="the first click, row,column (the issue's openings: 3,3)")
    r.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("compare", help="Hill's results against a bench journal of the same games")
    c.add_argument("results", type=Path)
    c.add_argument("journal", type=Path)
    args = parser.parse_args()
    if args.command == "compare":
        print(compare(args.results, args.journal))
        return
    level, rule = Level.parse(args.level), FirstClick(args.rule)
    try:
        first = tuple(int(x) for x in args.first.split(","))
    except ValueError:
        first = ()
    if len(first) != 2 or not (0 <= first[0] < level.height and 0 <= first[1] < level.width):
        fail(f"--first: expected ROW,COLUMN on the {level} board, found {args.first!r}")
    finished(args.out, level, args.seed, rule, first)  # a wrong --out fails before the build
    classes = build(args.hill, args.build)
    start = [] if first == (0, 0) else [str(first[0]), str(first[1])]  # (0,0) is Hill's own book click
    try:
        played = run(["java", "-cp", str(classes), "SatsweeperHill", *start], level, args.seed, args.games,
                     args.out, args.workers, rule, first)
    except KeyboardInterrupt:
        print(f"stopped; {args.out} keeps every finished game: run the same command to go on", file=sys.stderr)
        raise SystemExit(130) from None
    print(f"{played:,} games played; {args.out}")


if __name__ == "__main__":
    main()
