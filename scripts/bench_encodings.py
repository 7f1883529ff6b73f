"""Compare cardinality encodings and SAT solvers on ``solve`` by SAT (backbones).

Every combination runs on the same reproducible expert positions (total
known); the table gives median / p90 / max ms, the ratio of the median to
the default configuration's median measured in the same run, and the mean
number of clauses.

    python scripts/bench_encodings.py --count 100
"""

from __future__ import annotations

import statistics

import click

import sys as _sys
from pathlib import Path as _Path
# benchmark.py beside it, whether run as python scripts/X.py or python -m scripts.X
_sys.path.insert(0, str(_Path(__file__).resolve().parent))
from benchmark import machine, summary, timed  # noqa: E402
from satsweeper.constraints import problem_of
from satsweeper.encoding import DEFAULT_CNF_ENCODING, DEFAULT_ENCODING, CardinalityEncoding, Encoding
from satsweeper.game import Level
from satsweeper.positions import positions
from satsweeper.reasoning import DEFAULT_SOLVER, solve

CONFIGS = [(e, "cadical195") for e in CardinalityEncoding if e is not CardinalityEncoding.NATIVE] + [
    (CardinalityEncoding.NATIVE, "minicard"),
    (CardinalityEncoding.NATIVE, "gluecard4"),
    (DEFAULT_CNF_ENCODING, "gluecard4"),
    (DEFAULT_CNF_ENCODING, "glucose4"),
    (DEFAULT_CNF_ENCODING, "minisat22"),
    (DEFAULT_CNF_ENCODING, "cadical153"),
    (DEFAULT_CNF_ENCODING, "maplechrono"),
]


@click.command()
@click.option("--count", default=100, show_default=True, help="Expert positions.")
@click.option("--level", default="expert", show_default=True)
@click.option("--seed", default=0, show_default=True)
def main(count: int, level: str, seed: int) -> None:
    problems = [problem_of(b) for b in positions(Level.parse(level), count, seed)]
    print(f"machine: {machine()}; {count} {level} positions, backbone by SAT with the total known")
    print(f"{'encoding':<12} {'solver':<12} {'median ms':>9} {'p90 ms':>8} {'max ms':>8} {'vs default':>10} {'clauses':>8}")
    baseline = None
    results = []
    for encoding, solver in [(DEFAULT_ENCODING, DEFAULT_SOLVER)] + [
            c for c in CONFIGS if c != (DEFAULT_ENCODING, DEFAULT_SOLVER)]:
        times = [timed(solve, p, "sat", encoding=encoding, solver=solver)[0] for p in problems]
        clauses = statistics.mean(len(Encoding(p, encoding).clauses) for p in problems)
        s = summary(times)
        baseline = baseline or s["median"]
        results.append((encoding, solver, s, clauses))
        print(f"{encoding.value:<12} {solver:<12} {s['median']:>9.2f} {s['p90']:>8.2f} {s['max']:>8.2f}"
              f" {s['median'] / baseline:>10.2f} {clauses:>8.0f}", flush=True)


if __name__ == "__main__":
    main()
