"""Huge boards as processes: wall time and peak memory of check, count, probs, solve.

Writes a native text board of SIZE x SIZE squares, all hidden, with a total of
MINES (by default the 2000x2000 board with 600,000 mines of issue 22), then
runs each command as its own process (``python -m satsweeper COMMAND FILE``,
text and ``--json``) and prints one row per run: wall time, peak resident
memory of that process (``os.wait4``'s rusage), exit code and size of the
output.  ``--baseline DIR`` runs the same commands with another checkout's
package first (``PYTHONPATH=DIR``), interleaved, for before/after figures.

    PYTHONPATH=. python scripts/bench_huge.py                  # docs/huge.txt
    PYTHONPATH=. python scripts/bench_huge.py --size 1000 --mines 150000
    PYTHONPATH=. python scripts/bench_huge.py --baseline /tmp/old --timeout 400
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import click

COMMANDS = ("check", "count", "probs", "solve")


def write_board(path: Path, size: int, mines: int) -> None:
    row = "." * size + "\n"
    with path.open("w", encoding="utf-8") as out:
        out.write(f"mines: {mines}\n")
        for _ in range(size):
            out.write(row)


def run(package: str, command: str, board: Path, as_json: bool, timeout: float) -> dict:
    """One process: seconds, peak MB, exit code and output bytes."""
    env = dict(os.environ, PYTHONPATH=package)
    args = [sys.executable, "-m", "satsweeper", command, str(board)] + (["--json"] if as_json else [])
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        # cwd away from any checkout: python -m puts the working directory first on sys.path.
        child = subprocess.Popen(args, stdout=out, stderr=subprocess.PIPE, env=env, cwd=board.parent)
        deadline = start + timeout
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                child.kill()
                pid, status, usage = os.wait4(child.pid, 0)
                break
            time.sleep(0.01)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        error = child.stderr.read().decode("utf-8", "replace").strip().splitlines()
        child.stderr.close()
        size = out.seek(0, 2)
    return {"seconds": seconds, "mb": usage.ru_maxrss / 1024, "code": child.returncode,
            "bytes": size, "error": error[-1] if error and child.returncode not in (0, 1) else ""}


@click.command()
@click.option("--size", default=2000, show_default=True, help="Rows and columns of the board.")
@click.option("--mines", default=600_000, show_default=True, help="Total mines.")
@click.option("--baseline", type=click.Path(exists=True, file_okay=False),
              help="Also run another checkout's package (a directory holding satsweeper/).")
@click.option("--timeout", default=120.0, show_default=True, help="Seconds before a run is killed.")
@click.option("--json/--no-json", "with_json", default=True, show_default=True, help="Also run with --json.")
def main(size: int, mines: int, baseline: str | None, timeout: float, with_json: bool) -> None:
    here = str(Path(__file__).resolve().parent.parent)
    packages = ([("before", baseline)] if baseline else []) + [("now", here)]
    with tempfile.TemporaryDirectory() as work:
        board = Path(work) / f"hidden-{size}x{size}.txt"
        write_board(board, size, mines)
        print(f"{size}x{size} board, all {size * size:,} squares hidden, mines: {mines:,} "
              f"({board.stat().st_size:,} bytes); python {sys.version.split()[0]}")
        print(f"{'command':<14} {'version':<7} {'seconds':>8} {'peak MB':>8} {'exit':>4} {'output bytes':>13}")
        for command in COMMANDS:
            for as_json in (False, True) if with_json else (False,):
                for name, package in packages:
                    r = run(package, command, board, as_json, timeout)
                    label = command + (" --json" if as_json else "")
                    note = "  killed (timeout)" if r["seconds"] >= timeout else \
                        f"  {r['error'][:60]}" if r["error"] else ""
                    print(f"{label:<14} {name:<7} {r['seconds']:>8.2f} {r['mb']:>8.0f} {r['code']:>4} "
                          f"{r['bytes']:>13,}{note}", flush=True)


if __name__ == "__main__":
    main()
