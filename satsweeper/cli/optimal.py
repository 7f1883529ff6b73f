"""optimal: the exact chance of winning a small board with perfect play, and a strategy's beside it."""

from __future__ import annotations

import sys
import time

import click

from ..limits import TimeUp, deadline, within
from ..report.optimal import optimum_report, strategy_report
from .contract import (INTERRUPTED, LIMIT, STRATEGIES, CoordParam, LevelParam, OutputPath, UserError, cut, emit,
                       json_option, timeout_option, working)


def states_on_terminal():
    """A progress callback that redraws the states searched on stderr, only on a terminal."""
    stream = sys.stderr
    if not stream.isatty():
        return None

    def show(states: int) -> None:
        stream.write(f"\rsearching: {states} states")
        stream.flush()
    return show


@click.command()
@click.argument("level", type=LevelParam())
@click.option("--rule", type=click.Choice(["can-lose", "safe", "opening"]), default="safe",
              show_default=True, help="First click: may lose, is safe, or opens a region.")
@click.option("--first", type=CoordParam(), help="The first click ROW,COL (default: the best one).")
@click.option("--strategy", "strategy_name", type=click.Choice(STRATEGIES),
              help="Also play this strategy on every allowed layout: its exact chance and the gap.")
@click.option("--seed", default=0, show_default=True, type=int,
              help="Fixes the strategy's tie-breaks (drawn from the seed and the position it sees).")
@click.option("--memo", "memo_path", type=OutputPath(), metavar="FILE",
              help="Keep the search in FILE: go on from it if it exists; saved when the search ends, "
                   "runs out of --timeout or is stopped with Ctrl-C (a big board over several runs).")
@timeout_option
@json_option
def optimal(level, rule, first, strategy_name, seed, memo_path, timeout, as_json):
    """The best possible chance of winning LEVEL (WIDTHxHEIGHTxMINES, small boards).

    Searches every set of layouts the player can know, with free opening of
    cells safe in all of them; exact (a fraction of the layouts allowed).

    \b
    Examples:
      satsweeper optimal 4x4x4 --rule can-lose
      satsweeper optimal 5x5x5 --rule safe --first 0,0
      satsweeper optimal 4x4x4 --strategy best --json
      satsweeper optimal 5x5x7 --memo 5x5x7.memo --timeout 600   # again: goes on
    """
    from ..game import FirstClick
    from ..optimal import optimum, strategy_value
    if first and not (0 <= first[0] < level.height and 0 <= first[1] < level.width):
        raise UserError(f"--first inside the {level.width}x{level.height} board", f"{first[0]},{first[1]}")
    chosen = FirstClick(rule)
    progress = states_on_terminal()
    began = time.monotonic()
    if memo_path:
        best, before = kept_search(level, chosen, first, progress, memo_path, timeout, as_json)
    else:
        try:
            best = within(timeout, lambda: optimum(level, chosen, first, progress=progress))
        except TimeUp:
            emit("optimal", as_json, {"complete": False, "timeout": timeout},
                 f"no answer within {timeout:g} s (--timeout)", LIMIT)
    if progress:
        click.echo("\r\033[K", nl=False, err=True)
    data, text = optimum_report(best)
    if memo_path:  # the states count the loaded memo's too; the CPU is this run's
        data["memo"] = {"path": str(memo_path), "cpu_seconds_before": before}
        text += f"\nmemo: {memo_path} (went on from {before:.2f} s CPU of earlier runs)" if before else \
            f"\nmemo: {memo_path}"
    if strategy_name:
        start = first or best.firsts[0]
        # The same --timeout covers both searches: playing the strategy on
        # every layout can take far longer than the optimum (5x3x5 best: 8 CPU s, the optimum 0.3).
        left = None if timeout is None else max(timeout - (time.monotonic() - began), 0.001)
        try:
            with working(f"playing {strategy_name} on {best.layouts} layouts"):
                played = within(left, lambda: strategy_value(level, strategy_name, chosen, start, seed))
        except TimeUp:
            data.update(strategy={"name": strategy_name, "complete": False}, complete=False, timeout=timeout)
            emit("optimal", as_json, data,
                 text + f"\n{strategy_name}: not played out within {timeout:g} s (--timeout)", LIMIT)
        data["strategy"], more = strategy_report(played, best, first is None)
        text += "\n" + more
    emit("optimal", as_json, data, text, 0)


SAVE_EVERY = 1800.0  # CPU seconds between saves of --memo in a long search: a kill -9 loses at most this


def kept_search(level, rule, first, progress, path, timeout, as_json):
    """The optimum searched in this process with its memo kept in ``path``; (optimum, CPU seconds of
    earlier runs).

    Not in a child as ``within`` does: the memo must outlive a timeout.  The
    search is Python, so the timeout's signal, Ctrl-C and SIGTERM stop it
    between two steps (every value in the memo is then exact or a true
    bound), and it is saved.  It is also saved every ``SAVE_EVERY`` CPU
    seconds, between two steps of the search.
    """
    import signal

    from ..optimal import Search
    before = 0.0
    cpu = time.process_time()
    saved_at = [cpu]

    def save() -> None:
        search.save(str(path), {"cpu seconds": before + time.process_time() - cpu})
        saved_at[0] = time.process_time()

    def step(states: int) -> None:
        if progress:
            progress(states)
        if time.process_time() - saved_at[0] >= SAVE_EVERY:
            save()

    def terminate(signum, frame):  # kill or a shutdown: as Ctrl-C, the memo saved if the search began
        raise KeyboardInterrupt()

    previous = signal.signal(signal.SIGTERM, terminate)  # while the search runs, then as it was
    search, loaded = None, False
    try:
        # The clock counts the whole search, reading the memo included (for
        # 5x5x8, building the layouts and reading 700 MB take a minute).
        with deadline(timeout):
            search = Search(level, progress=step)
            if path.exists() and path.stat().st_size:  # an empty file (touch m.memo) is a new memo, as --out's is
                try:
                    before = search.load(str(path)).get("cpu seconds", 0.0)
                except OSError as err:  # a wrong or damaged file is the library's SatsweeperError: exit 2 too
                    raise UserError("a memo we may read", f"{path}, {(err.strerror or str(err)).lower()}") from None
                if isinstance(before, bool) or not isinstance(before, (int, float)):  # its header edited by hand
                    raise UserError('a memo whose "cpu seconds" is a number', f"{path}, {cut(repr(before))}")
            loaded = True
            best = search.optimum(rule, first)
        save()
    except (TimeUp, KeyboardInterrupt) as stop:
        if progress:
            click.echo("\r\033[K", nl=False, err=True)
        timed_out = isinstance(stop, TimeUp)
        why = f"within {timeout:g} s (--timeout)" if timed_out else f"(interrupted{': ' + str(stop) if str(stop) else ''})"
        if as_json and not timed_out and str(stop):  # the text says why (the CPU time limit); the object cannot
            click.echo(f"satsweeper: interrupted: {stop}", err=True)
        # Ctrl-C and kill are exit 130 with what finished, as bench's are (docs/json.md), not a limit (3).
        stopped = {"timeout": timeout} if timed_out else {"stopped": "interrupted"}
        if loaded:
            save()
            text = (f"no answer {why}; the search so far ({search.states} states) is in {path}: "
                    f"run the same command again to go on")
        else:  # stopped while the board's layouts were made or the memo read: the file is as it was
            before = None if path.exists() else 0.0  # the CPU of earlier runs was not read
            kept = f"{path} is unchanged" if path.exists() else f"no memo was written to {path}"
            text = (f"no answer {why}: stopped before the search began (making the layouts"
                    f"{' and reading the memo' if path.exists() else ''}); {kept}")
        # "memo" has the shape of a finished run's, so a script reads it the same way either way.
        emit("optimal", as_json, {"complete": False, **stopped, "states": search.states if loaded else 0,
                                  "memo": {"path": str(path), "cpu_seconds_before": before}},
             text, LIMIT if timed_out else INTERRUPTED)
    finally:
        signal.signal(signal.SIGTERM, previous)
    return best, before


COMMANDS = (optimal,)
