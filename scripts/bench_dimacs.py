"""DIMACS reading: pysat's CNF(from_string=...) against satsweeper's scanner.

    nice -n 10 python scripts/bench_dimacs.py [--clauses 40000]

Prints the time of each on a random 3-CNF (seed 1) and of the whole parse
(scanner plus formula tree), and the ratios, measured in the same run.
"""

import argparse
import random
import time

from pysat.formula import CNF

from satsweeper.gadgets.formula import dimacs_clauses, parse_dimacs


def best_of(runs, function, *args):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clauses", type=int, default=40000)
    parser.add_argument("--variables", type=int, default=5000)
    args = parser.parse_args()
    rng = random.Random(1)
    lines = [f"p cnf {args.variables} {args.clauses}"] + [
        " ".join(str(rng.choice((-1, 1)) * rng.randint(1, args.variables)) for _ in range(3)) + " 0"
        for _ in range(args.clauses)]
    text = "\n".join(lines) + "\n"
    pysat = best_of(3, lambda t: CNF(from_string=t), text)
    ours = best_of(3, dimacs_clauses, text)
    whole = best_of(1, parse_dimacs, text)
    print(f"{args.clauses} clauses: pysat {pysat:.3f} s, ours {ours:.3f} s ({ours / pysat:.1f}x), "
          f"whole parse with the tree {whole:.3f} s ({whole / pysat:.1f}x pysat)")


if __name__ == "__main__":
    main()
