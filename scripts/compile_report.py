"""How far the circuit compiler goes: formulas of growing size, compiled and counted.

For each formula: variables, leaves, models (truth table), board size, hidden
squares, crossings, compile time, count time (component engine, the layout's
sweep order), whether the count equals the models, and how many
explanations the board keeps once written with its total mine count (a
``.mine`` file; the smallest total when they differ).  Each formula is
compiled with the parsimonious set, the balanced set (with its size and
count time as ratios to the parsimonious board of the same run) and, for
random-4-6, Kaye's.  Families:

* ``random-D-N``: a full tree of depth D (2^D leaves) over N variables, gates
  drawn at random (seeded);
* ``parity-N``: x1 ^ x2 ^ ... ^ xN (one leaf per variable, no crossing);
* ``cnf-N``: a random 3-CNF with N variables and 2N clauses (DIMACS-shaped).

Stops a family when one count takes longer than --budget seconds.  With
--timeout a count is stopped after that long, and the row says how far the
DP got (widest layer, states) and the peak memory of the process counting.

    python scripts/compile_report.py [--budget 120] [--families random parity cnf] [--out docs/compile-report.txt]
    python scripts/compile_report.py --families random --only random-5-6 random-5-8 --timeout 600
"""

from __future__ import annotations

import argparse
import multiprocessing.sharedctypes
import platform
import random
import resource
import time
from pathlib import Path

from satsweeper.limits import TimeUp, within
from satsweeper.components import Progress
from satsweeper.counting import count
from satsweeper.gadgets.compiler import GateSet, compile_formula
from satsweeper.gadgets.formula import Formula, Gate, Op, Var, parse_dimacs


def full_tree(rng: random.Random, depth: int, variables: int) -> Formula:
    names = [f"x{k}" for k in range(1, variables + 1)]

    def grow(level):
        if level == 0:
            return Var(rng.choice(names))
        return Gate(rng.choice(list(Op)), grow(level - 1), grow(level - 1))

    return Formula(grow(depth), tuple(names))


def parity(variables: int) -> Formula:
    names = tuple(f"x{k}" for k in range(1, variables + 1))
    root = Var(names[0])
    for name in names[1:]:
        root = Gate(Op.XOR, root, Var(name))
    return Formula(root, names)


def cnf(rng: random.Random, variables: int) -> Formula:
    lines = [f"p cnf {variables} {2 * variables}"]
    for _ in range(2 * variables):
        chosen = rng.sample(range(1, variables + 1), 3)
        lines.append(" ".join(str(v if rng.random() < 0.5 else -v) for v in chosen) + " 0")
    return parse_dimacs("\n".join(lines))


def leaves(formula: Formula) -> int:
    return sum(formula.occurrences().values())


def measure(name: str, formula: Formula, gates: GateSet, baseline: tuple[int, float] | None = None,
            timeout: float | None = None) -> tuple[str, float, int]:
    """One row; ``baseline`` (hidden squares, count time of the parsimonious set) adds the ratios.

    With ``timeout`` the counts run in a forked child (the CLI's ``within``),
    killed after that many seconds: the row then says where the DP was (its
    widest layer and states so far) and the child's peak memory.
    """
    start = time.perf_counter()
    compiled = compile_formula(formula, gates)
    built = time.perf_counter() - start
    progress = Progress.shared()
    first = multiprocessing.sharedctypes.RawArray("d", 2)  # the first count and its time, once done

    def counts():
        began = time.perf_counter()
        explanations = compiled.explanations(progress)
        counted = time.perf_counter() - began
        first[0], first[1] = explanations, counted
        # What the .mine file keeps: the board with its total (the smallest one if they differ).
        board, _ = compiled.with_total()
        kept = count(board, order=compiled.order) if explanations else 0
        return explanations, counted, kept

    b = compiled.board
    head = (f"{name:<14} {gates.value[:5]:<6} {len(formula.variables):>4} {leaves(formula):>6} {formula.models():>7} "
            f"{b.height:>5}x{b.width:<6} {compiled.hidden:>7} {compiled.crossings:>5} {built:>8.2f}")
    began = time.perf_counter()
    try:
        explanations, counted, kept = within(timeout, counts, isolate=timeout is not None)
    except TimeUp:
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1e6  # kB -> GB (Linux)
        stopped = time.perf_counter() - began
        if first[1]:  # the explanations were counted; the count with the total was not
            verdict = "equal" if first[0] == formula.models() else f"{int(first[0]) - formula.models():+d}"
            line = (f"{head} {first[1]:>8.2f}  {verdict:<6} {'-':>7}  count with the total stopped after "
                    f"{stopped - first[1]:.0f} s; peak memory {peak:.1f} GB")
            if baseline:
                line += f"; x{compiled.hidden / baseline[0]:.1f} hidden, x{first[1] / max(baseline[1], 1e-3):.1f} count"
            return line, first[1], compiled.hidden
        return (f"{head}  stopped after {stopped:.0f} s: {progress.text()}; "
                f"peak memory {peak:.1f} GB", float("inf"), compiled.hidden)
    models = formula.models()
    verdict = "equal" if explanations == models else f"{explanations - models:+d}"
    line = f"{head} {counted:>8.2f}  {verdict:<6} {kept:>7}"
    if baseline:
        line += f"  x{compiled.hidden / baseline[0]:.1f} hidden, x{counted / max(baseline[1], 1e-3):.1f} count"
    return line, counted, compiled.hidden


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--budget", type=float, default=120.0, help="stop a family after a count this slow (s)")
    parser.add_argument("--out", type=Path, default=None, help="also write the table here")
    parser.add_argument("--families", nargs="+", default=["random", "parity", "cnf"],
                        help="which families to run (random, parity, cnf)")
    parser.add_argument("--only", nargs="+", default=None, metavar="NAME",
                        help="measure only these formulas (the others are still drawn, so each is the same)")
    parser.add_argument("--gates", nargs="+", default=None, choices=[g.value for g in GateSet],
                        help="only these gate sets (default: parsimonious, balanced, and kaye on random-4-6)")
    parser.add_argument("--timeout", type=float, default=None,
                        help="stop a count after this many seconds and say where it was (forked child)")
    args = parser.parse_args()
    rng = random.Random(1)
    header = (f"{'formula':<14} {'gates':<6} {'vars':>4} {'leaves':>6} {'models':>7} {'board':>12} "
              f"{'hidden':>7} {'cross':>5} {'compile':>8} {'count':>8}  {'vs models':<6} {'w/total':>7}  balanced vs parsimonious")
    lines = [f"# {platform.machine()}, Python {platform.python_version()}; times in seconds", header]
    print("\n".join(lines), flush=True)
    families = [
        ("random", [(f"random-{d}-{n}", lambda d=d, n=n: full_tree(rng, d, n))
                    for d, n in [(2, 3), (3, 4), (4, 6), (5, 6), (5, 8), (6, 8), (6, 10)]]),
        ("parity", [(f"parity-{n}", lambda n=n: parity(n)) for n in (4, 8, 12, 16)]),
        ("cnf", [(f"cnf-{n}", lambda n=n: cnf(rng, n)) for n in (4, 6, 8, 10)]),
    ]
    for family, cases in families:
        if family not in args.families:
            continue
        for name, make in cases:
            formula = make()
            if args.only is not None and name not in args.only:
                continue
            gate_sets = [GateSet.PARSIMONIOUS] + [GateSet.KAYE] * name.startswith("random-4") + [GateSet.BALANCED]
            if args.gates is not None:
                gate_sets = [g for g in gate_sets if g.value in args.gates]
            slow, baseline = False, None
            for gates in gate_sets:
                line, counted, hidden = measure(name, formula, gates, baseline if gates is GateSet.BALANCED else None,
                                                args.timeout)
                if gates is GateSet.PARSIMONIOUS:
                    baseline = (hidden, counted)
                print(line, flush=True)
                lines.append(line)
                slow = slow or counted > args.budget
            if slow:
                break
    if args.out:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
