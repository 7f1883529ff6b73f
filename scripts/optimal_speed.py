"""The optimal search's speed: the plain search against the bounded one, interleaved in one run.

For each board (rule safe, first click 0,0): the plain search (every part
searched exactly, every cell tried: ``bounds=False, dead=False``) and the default one (bounds, few
layouts listed, re-indexed bitsets), each in a fresh child process with a
cap on its CPU seconds.  Prints a Markdown table: states, CPU seconds,
peak memory, the search's bytes a state (peak memory less the memory once
the layouts' masks are built, over the states) and the ratios; a capped run shows the states reached when it
was stopped.  With ``--against REV`` the default search of git revision
REV stands in for the plain one (today's code against an older one).

    nice -n 10 python -m scripts.optimal_speed --cap 120 4x4x4 5x4x4 5x5x3 5x5x4 5x5x5
    nice -n 10 python -m scripts.optimal_speed --against 498de87 5x5x4 7x3x6 5x5x5
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing
import resource
import signal
import subprocess
import sys
import tempfile
import time

from satsweeper.game import FirstClick, Level
import satsweeper
from satsweeper.optimal import Search


class OutOfTime(Exception):
    pass


def searcher(rev: str):
    """The ``Search`` class of ``satsweeper/optimal.py`` at git revision ``rev`` (imported inside the package)."""
    source = subprocess.run(["git", "show", f"{rev}:satsweeper/optimal.py"], capture_output=True, text=True,
                            check=True, cwd=satsweeper.__path__[0]).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location("satsweeper._optimal_then", f.name)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module.Search


def measure(level: Level, bounds: bool, cap: float, send, against: str | None = None) -> None:
    """In a child: (won, layouts or None if capped, states, CPU seconds, peak MB, MB before the search)."""
    def stop(*_):
        raise OutOfTime
    signal.signal(signal.SIGVTALRM, stop)
    start = time.process_time()
    search = searcher(against)(level) if against else Search(level, bounds=bounds, dead=bounds)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    signal.setitimer(signal.ITIMER_VIRTUAL, cap)
    try:
        won, count = search.first_click(FirstClick.SAFE, (0, 0))
    except OutOfTime:
        won = count = None
    signal.setitimer(signal.ITIMER_VIRTUAL, 0)
    send.send((won, count, search.states, time.process_time() - start,
               resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, before))


def run(level: Level, bounds: bool, cap: float, against: str | None = None) -> tuple:
    receiver, sender = multiprocessing.Pipe(duplex=False)
    child = multiprocessing.get_context("fork").Process(target=measure, args=(level, bounds, cap, sender, against))
    child.start()
    found = receiver.recv()
    child.join()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("levels", nargs="+")
    parser.add_argument("--cap", type=float, default=120, help="CPU seconds per search")
    parser.add_argument("--against", help="a git revision whose search stands in for the plain one")
    args = parser.parse_args()
    old = args.against or "plain"
    print(f"| board | value | {old} states | {old} CPU s | {old} MB | {old} B/state | states | CPU s | MB | B/state "
          "| states ratio | CPU ratio | memory ratio | B/state ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for text in args.levels:
        level = Level.parse(text)
        pw, pc, ps, pt, pm, p0 = run(level, False, args.cap, args.against)
        bw, bc, bs, bt, bm, b0 = run(level, True, args.cap)
        pb, bb = (pm - p0) * 2 ** 20 / ps, (bm - b0) * 2 ** 20 / bs  # bytes a state
        if pw is not None and bw is not None:
            assert (pw, pc) == (bw, bc), (text, pw, bw)
        value = f"{bw}/{bc}" if bw is not None else "?"
        more = "" if pw is not None else ">"  # the first search was stopped: at least this much
        print(f"| {text} | {value} | {more}{ps} | {more}{pt:.1f} | {more}{pm:.0f} | {pb:.0f} | {bs} | {bt:.1f} "
              f"| {bm:.0f} | {bb:.0f} | {more}{ps / bs:.1f}x | {more}{pt / bt:.2f}x | {more}{pm / bm:.2f}x "
              f"| {pb / bb:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
