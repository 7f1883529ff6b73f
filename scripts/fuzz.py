"""Mutate the bundled examples and gadgets; run every reader and every CLI command on them.

    nice -n 10 python -m scripts.fuzz --files 300 --seed 1 --limit 10

Each mutant (a few characters inserted, replaced or deleted; odd digits,
huge numbers, NULs, form feeds, byte-order marks, line ends swapped, deep
nesting, stray bytes) is written to a temporary file and given to every
library reader and to every command (in process, through click's
CliRunner, as ``python -m satsweeper`` would run it).  A library reader
must return a value or raise a SatsweeperError; a command must exit 0-3
(or 130), never 70 ("internal error", what the CLI prints instead of a
traceback) nor raise.  Runs past ``--limit`` seconds are stopped and
counted.  Prints the counts and each distinct cause with one example.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

from click.testing import CliRunner

from satsweeper.cli import main as cli
from satsweeper.errors import SatsweeperError
from satsweeper.gadgets.formula import parse_dimacs, parse_formula, read_formula
from satsweeper.gadgets.gadget import parse_gadget, read_gadget, verify
from satsweeper.source import decode
from satsweeper.systems import parse_system, read_system
from satsweeper.textio import load, parse_cell, parse_mine_puzzle, parse_puzzle, read_any, read_board

ROOT = Path(__file__).resolve().parent.parent
PIECES = ["⁵", "٣", "３", "²", "\x00", "\f", "\u2028", "\x85", "\ufeff", "\r", "\r\n", "\n", " ", "\t",
          "9" * 4400, "1" * 12, "0", "8", "9", "F", "*", "-", ".", "x", "=", "+", "#", ":", ",", ";",
          "(" * 3000, "~" * 3000, "mines: ", "start: ", "other: 99999999999\n", "inputs: ",
          "outputs: ", "é", "p cnf "]
TEXT_READERS = [parse_puzzle, parse_mine_puzzle, parse_system, read_any, parse_gadget, parse_formula,
                parse_dimacs]
FILE_READERS = [load, read_board, read_system, read_gadget, read_formula]


class TimeLimit(BaseException):
    """Raised by the alarm; a BaseException so that no `except Exception` swallows it."""


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 5)):
        at = rng.randint(0, len(text))
        kind = rng.choice(["insert", "replace", "delete", "line", "ends"])
        if kind == "line":
            lines = text.split("\n")
            k = rng.randrange(len(lines))
            lines.insert(k, lines[k] * rng.choice([1, 2, 50]))
            text = "\n".join(lines)
        elif kind == "ends":
            text = text.replace("\n", rng.choice(["\r\n", "\r", "\f", "\u2028", "\n\n"]))
        else:
            piece = "" if kind == "delete" else rng.choice(PIECES)
            text = text[:at] + piece + text[at + (kind != "insert"):]
    return text


def commands(path: str, rng: random.Random) -> list[list[str]]:
    cell = rng.choice(["0,0", "1,1", "0,٣", "１,0", "9" * 50 + ",0", "x", "a"])
    out = os.path.join(tempfile.gettempdir(), f"fuzz-out-{os.getpid()}")
    runs = [["check", path], ["solve", path], ["unique", path], ["count", path], ["probs", path],
            ["safe", path, cell], ["hint", path], ["noguess", path], ["gadget", "verify", path],
            ["render", path, "-o", out + ".svg"], ["repair", path, "--attempts", "50"],
            ["compile", path, "--no-count"]]
    return [run + ["--json"] if rng.random() < 0.5 else run for run in runs]


def cause_of(err: BaseException) -> str:
    frame = traceback.extract_tb(err.__traceback__)[-1] if err.__traceback__ else None
    where = f" at {Path(frame.filename).name}:{frame.lineno}" if frame else ""
    return f"{type(err).__name__}{where}: {str(err)[:70]}"


def keep(path: Path, directory: str | None) -> str:
    """Where the mutant can be found after the run (the scratch directory goes)."""
    if not directory:
        return str(path)
    Path(directory).mkdir(parents=True, exist_ok=True)
    target = Path(directory) / path.name
    target.write_bytes(path.read_bytes())
    return str(target)


def timed(limit: float, call, *args):
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        return call(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=300, help="How many mutants.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=10.0, help="Seconds per run before it counts as too long.")
    parser.add_argument("--no-cli", action="store_true", help="Only the library readers.")
    parser.add_argument("--keep", metavar="DIR", help="Copy each mutant that caused a traceback here.")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeLimit()))
    rng = random.Random(args.seed)
    samples = [p for p in sorted((ROOT / "examples").iterdir()) + sorted((ROOT / "gadgets").glob("*.txt"))
               + sorted((ROOT / "gadgets" / "figures").glob("*.txt")) if p.is_file()]
    runner = CliRunner()
    counts, causes, slow = Counter(), {}, Counter()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        for index in range(args.files):
            sample = rng.choice(samples)
            text = mutate(sample.read_text(encoding="utf-8"), rng)
            path = Path(scratch) / f"m{index}{sample.suffix if rng.random() < 0.7 else ''}"
            data = text.encode("utf-8", "surrogatepass")
            if rng.random() < 0.1:
                at = rng.randint(0, len(data))
                data = data[:at] + bytes([rng.choice([0x80, 0xff, 0xc3, 0xfe])]) + data[at:]
            path.write_bytes(data)
            jobs = [(f"lib {r.__name__}", r, (text, str(path))) for r in TEXT_READERS]
            jobs += [(f"lib {r.__name__}", r, (str(path),)) for r in FILE_READERS]
            jobs += [("lib decode", decode, (data, str(path))), ("lib parse_cell", parse_cell, (text[:20],))]
            for name, reader, call_args in jobs:
                counts["runs"] += 1
                try:
                    value = timed(args.limit, reader, *call_args)
                    if reader is parse_gadget:
                        timed(args.limit, verify, value)
                except SatsweeperError:
                    pass
                except TimeLimit:
                    slow[name] += 1
                except Exception as err:  # noqa: BLE001 - counting them is the point
                    counts["tracebacks"] += 1
                    causes.setdefault(f"{name}: {cause_of(err)}", keep(path, args.keep))
            if args.no_cli:
                continue
            for run in commands(str(path), rng):
                counts["runs"] += 1
                name = "cli " + " ".join(run[:2] if run[0] == "gadget" else run[:1])
                try:
                    result = timed(args.limit, runner.invoke, cli, run)
                except TimeLimit:
                    slow[name] += 1
                    continue
                if result.exit_code not in (0, 1, 2, 3, 130) or (
                        result.exception and not isinstance(result.exception, SystemExit)):
                    counts["tracebacks"] += 1
                    err = result.exception
                    why = cause_of(err) if err and not isinstance(err, SystemExit) else \
                        f"exit {result.exit_code}: {result.output.strip().splitlines()[-1][:110] if result.output.strip() else ''}"
                    causes.setdefault(f"{name}: {why}", " ".join(run).replace(str(path), keep(path, args.keep)))
    elapsed = time.perf_counter() - start
    print(f"{args.files} mutants, {counts['runs']} runs in {elapsed:.0f} s: "
          f"{counts['tracebacks']} tracebacks ({len(causes)} distinct causes), "
          f"{sum(slow.values())} runs past {args.limit:g} s")
    for cause, example in sorted(causes.items()):
        print(f"  {cause}\n      e.g. {example}")
    for name, n in slow.most_common():
        print(f"  slow: {name}: {n}")


if __name__ == "__main__":
    main()
