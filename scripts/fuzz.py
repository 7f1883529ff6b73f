"""Mutate the bundled examples and gadgets at scale; count tracebacks and slow runs.

Every mutated file goes to every reader (a value or a SatsweeperError is
fine) and to the commands that read boards (an exit code of the contract is
fine: 0, 1, 2, 3).  A traceback (exit 70, "internal error", or an exception
escaping a reader) or a run past the time limit is counted and its cause
(exception type and the last frame) is listed once.

    python scripts/fuzz.py [--files 500] [--seed 1] [--limit 20]
"""

from __future__ import annotations

import collections
import random
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

import click
from click.testing import CliRunner

from satsweeper.cli import main as cli
from satsweeper.errors import SatsweeperError
from satsweeper.gadgets import parse_gadget
from satsweeper.gadgets.formula import parse_dimacs, parse_formula
from satsweeper.systems import parse_system
from satsweeper.textio import parse_mine_puzzle, parse_puzzle

ROOT = Path(__file__).resolve().parent.parent
READERS = [parse_puzzle, parse_mine_puzzle, parse_system, parse_formula, parse_dimacs, parse_gadget]
COMMANDS = [["check"], ["solve"], ["unique"], ["count"], ["probs"], ["hint"], ["noguess"],
            ["safe", "0,0"], ["gadget", "verify"], ["render", "-o", "OUT.svg"], ["repair"],
            ["compile", "--no-count"]]
INSERTS = ["\u00b9", "\u0663", "\uff13", "\x00", "\f", "\u2028", "\r", "\ufeff", "9" * 5000, "(" * 3000,
           "mines: ", "start: 99,99", "other: 99999999999", "=", "x[1]", "F", "*", "-", "8", " ", "\t"]


class Slow(Exception):
    pass


def mutate(text: str, rng: random.Random) -> str:
    """One to three random edits: insert a nasty piece, delete, duplicate or swap lines, flip a byte."""
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(5)
        at = rng.randrange(len(text) + 1)
        if kind == 0:
            text = text[:at] + rng.choice(INSERTS) + text[at:]
        elif kind == 1 and text:
            text = text[:at] + text[at + rng.randint(1, 5):]
        elif kind == 2:
            lines = text.split("\n")
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i] * rng.choice([1, 2, 50]))
            text = "\n".join(lines)
        elif kind == 3:
            lines = text.split("\n")
            rng.shuffle(lines)
            text = "\n".join(lines)
        else:
            text = text[:at] + chr(rng.randrange(1, 0x3000)) + text[at:]
    return text


def timed(seconds: float, work):
    def ring(signum, frame):
        raise Slow()
    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return work()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def cause(err: BaseException) -> str:
    frame = traceback.extract_tb(err.__traceback__)[-1] if err.__traceback__ else None
    where = f"{Path(frame.filename).name}:{frame.lineno}" if frame else "?"
    return f"{type(err).__name__} at {where}"


@click.command()
@click.option("--files", default=500, show_default=True, help="Mutated files to make.")
@click.option("--seed", default=1, show_default=True, help="Fixes the mutations.")
@click.option("--limit", default=20.0, show_default=True, help="Seconds a run may take.")
def main(files: int, seed: int, limit: float) -> None:
    rng = random.Random(seed)
    sources = sorted(p for p in [*ROOT.glob("examples/*"), *ROOT.glob("gadgets/*.txt"),
                                 *ROOT.glob("gadgets/figures/*.txt")] if p.is_file())
    texts = [(p.name, p.read_text(encoding="utf-8", errors="replace")) for p in sources]
    runs, tracebacks, slow = 0, collections.Counter(), collections.Counter()
    runner = CliRunner()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        for index in range(files):
            name, original = rng.choice(texts)
            text = mutate(original, rng)
            path = Path(scratch) / f"{index}-{name}"
            path.write_text(text, encoding="utf-8", errors="surrogatepass")
            for reader in READERS:
                runs += 1
                try:
                    timed(limit, lambda: reader(text, path.name))
                except SatsweeperError:
                    pass
                except Slow:
                    slow[f"{reader.__name__} on {name}"] += 1
                except Exception as err:  # noqa: BLE001 - what we are counting
                    tracebacks[f"{reader.__name__}: {cause(err)}"] += 1
            for command in COMMANDS:
                runs += 1
                args = [a.replace("OUT", str(Path(scratch) / "out")) for a in command]
                args = args[:2] + [str(path)] if command[0] == "gadget" else args[:1] + [str(path)] + args[1:]
                try:
                    result = timed(limit, lambda: runner.invoke(cli, args))
                except Slow:
                    slow[f"{' '.join(command[:2])} on {name}"] += 1
                    continue
                if result.exit_code not in (0, 1, 2, 3) or "Traceback" in result.output:
                    why = cause(result.exception) if result.exception else result.output.strip()[-120:]
                    tracebacks[f"{' '.join(command[:2])}: exit {result.exit_code}: {why}"] += 1
            if (index + 1) % 100 == 0:
                print(f"{index + 1} files, {runs} runs, {sum(tracebacks.values())} tracebacks, "
                      f"{sum(slow.values())} slow, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    print(f"{files} mutated files, {runs} runs: {sum(tracebacks.values())} tracebacks "
          f"({len(tracebacks)} causes), {sum(slow.values())} runs past {limit:g} s")
    for what, n in tracebacks.most_common():
        print(f"  traceback x{n}: {what}")
    for what, n in slow.most_common():
        print(f"  slow x{n}: {what}")


if __name__ == "__main__":
    main()
