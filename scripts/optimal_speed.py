"""The optimal search's speed: the plain search against the bounded one, interleaved in one run.

For each board (rule safe, first click 0,0): the plain search (every part
searched exactly, ``bounds=False``) and the default one (bounds, few
layouts listed, re-indexed bitsets), each in a fresh child process with a
cap on its CPU seconds.  Prints a Markdown table: states, CPU seconds and
the ratios; a capped run shows the states reached when it was stopped.

    nice -n 10 python -m scripts.optimal_speed --cap 120 4x4x4 5x4x4 5x5x3 5x5x4 5x5x5
"""

from __future__ import annotations

import argparse
import multiprocessing
import signal
import time

from satsweeper.game import FirstClick, Level
from satsweeper.optimal import Search


class OutOfTime(Exception):
    pass


def measure(level: Level, bounds: bool, cap: float, send) -> None:
    """In a child: (won, layouts or None if capped, states, CPU seconds)."""
    def stop(*_):
        raise OutOfTime
    signal.signal(signal.SIGVTALRM, stop)
    start = time.process_time()
    search = Search(level, bounds=bounds)
    signal.setitimer(signal.ITIMER_VIRTUAL, cap)
    try:
        won, count = search.first_click(FirstClick.SAFE, (0, 0))
    except OutOfTime:
        won = count = None
    signal.setitimer(signal.ITIMER_VIRTUAL, 0)
    send.send((won, count, search.states, time.process_time() - start))


def run(level: Level, bounds: bool, cap: float) -> tuple:
    receiver, sender = multiprocessing.Pipe(duplex=False)
    child = multiprocessing.get_context("fork").Process(target=measure, args=(level, bounds, cap, sender))
    child.start()
    found = receiver.recv()
    child.join()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("levels", nargs="+")
    parser.add_argument("--cap", type=float, default=120, help="CPU seconds per search")
    args = parser.parse_args()
    print("| board | value | plain states | plain CPU s | bounded states | bounded CPU s | states ratio | CPU ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for text in args.levels:
        level = Level.parse(text)
        pw, pc, ps, pt = run(level, False, args.cap)
        bw, bc, bs, bt = run(level, True, args.cap)
        if pw is not None and bw is not None:
            assert (pw, pc) == (bw, bc), (text, pw, bw)
        value = f"{bw}/{bc}" if bw is not None else "?"
        more = "" if pw is not None else ">"  # the plain search was stopped: at least this much
        print(f"| {text} | {value} | {more}{ps} | {more}{pt:.1f} | {bs} | {bt:.1f} | {more}{ps / bs:.0f}x "
              f"| {more}{pt / bt:.1f}x |", flush=True)


if __name__ == "__main__":
    main()
