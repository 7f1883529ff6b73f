"""Shared helpers for the benchmark scripts: timing, statistics, calibration.

Absolute times on shared machines are noisy; every script also reports its
figures as ratios to a fixed pure-Python workload measured in the same run
(the *calibration unit*), which is steadier from run to run.
"""

from __future__ import annotations

import platform
import statistics
import time
from typing import Callable, Sequence


def calibration_ms(repeat: int = 5) -> float:
    """Milliseconds for a fixed pure-Python loop (best of ``repeat``)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        total = 0
        for i in range(200_000):
            total += i * i % 7
        best = min(best, time.perf_counter() - start)
    return best * 1000


def timed(fn: Callable, *args, **kwargs) -> tuple[float, object]:
    """(milliseconds, result) of one call."""
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return (time.perf_counter() - start) * 1000, result


def summary(times: Sequence[float]) -> dict:
    """median, p90 and max of a list of milliseconds."""
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(round(0.9 * (len(ordered) - 1))))]
    return {"n": len(ordered), "median": statistics.median(ordered), "p90": p90, "max": ordered[-1]}


def machine() -> str:
    return f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}"


def row(label: str, times: Sequence[float], unit: float) -> str:
    s = summary(times)
    return (f"{label:<24} {s['n']:>5} {s['median']:>9.2f} {s['p90']:>9.2f} {s['max']:>9.2f}"
            f"   {s['median'] / unit:>7.3f} {s['max'] / unit:>8.3f}")


HEADER = (f"{'positions':<24} {'n':>5} {'median ms':>9} {'p90 ms':>9} {'max ms':>9}"
          f"   {'med/cal':>7} {'max/cal':>8}")


if __name__ == "__main__":
    raise SystemExit("benchmark.py holds the benchmark scripts' shared helpers; run one of them, "
                     "such as python scripts/bench_solve.py --help")
