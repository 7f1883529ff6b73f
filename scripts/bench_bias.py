"""What the fast no-guess generators change, measured against uniform ones.

``resample`` draws uniform layouts until one is no-guess, so its boards are
uniform over no-guess layouts: the reference.  ``perturb`` and ``clear``
repair layouts instead, and ``auto`` (the default) repairs only after 30
uniform draws failed; this script measures how their boards differ, on
levels where ``resample`` still works:

* mine density on the ring just outside the start's opening (cells at
  distance 2 from the first click) and along the border;
* 3BV (mean, and the two-sample Kolmogorov-Smirnov p-value against
  ``resample``);
* the difficulty grade (share of easy / medium / hard / extreme, and the
  chi-square p-value against ``resample``).

A ``uniform`` column (any layout, no-guess or not, same first-click rule)
shows what asking for no-guess changes by itself; ``--method ms-adjust``
adds ms-toollib's ``laymine_solvable_adjust`` (the ``peers`` extra; its
boards are drawn unseeded).  Needs scipy (the ``experiments`` extra).

    python scripts/bench_bias.py                       # the table of docs/measured.md
    python scripts/bench_bias.py --boards 50 --level 9x9x10
    python scripts/bench_bias.py --level 30x16x120 --boards 150   # the README's dense row
"""

from __future__ import annotations

import math
import random
import statistics

import click

from satsweeper.difficulty import Rung, grade
from satsweeper.game import FirstClick, Level, place_mines
from satsweeper.puzzles import Method, generate, start_zone, three_bv

DEFAULT_LEVELS = ("9x9x10", "16x16x40", "30x16x99")


def ring(level: Level, start, distance: int) -> list:
    return [(r, c) for r in range(level.height) for c in range(level.width)
            if max(abs(r - start[0]), abs(c - start[1])) == distance]


def border(level: Level, zone) -> list:
    return [(r, c) for r in range(level.height) for c in range(level.width)
            if (r in (0, level.height - 1) or c in (0, level.width - 1)) and (r, c) not in zone]


def layouts(level: Level, start, method: str, boards: int, seed: int) -> list[frozenset]:
    zone = start_zone(level, start, FirstClick.OPENING)
    out = []
    for i in range(boards):
        # Independent streams per method: the samples share no layouts.
        rng = random.Random(f"{seed}-{method}-{i}")
        if method == "uniform":  # any layout, no-guess or not
            out.append(place_mines(level, rng, zone))
        elif method == "ms-adjust":  # ms-toollib's laymine_solvable_adjust (unseeded)
            from bench_density import peer
            ok, _, mines = peer("laymine_solvable_adjust", (level.height, level.width, level.mines, *start), 60)
            if ok and mines is not None:
                out.append(mines)
        else:
            out.append(generate(level, start, rng, Method(method), budget=100_000).mines)
    return out


def mean_ci(values: list[float]) -> str:
    m = statistics.mean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{m:.3f}±{half:.3f}"


def describe(level: Level, start, boards: list[frozenset]) -> dict:
    zone = start_zone(level, start, FirstClick.OPENING)
    near, edge = ring(level, start, 2), border(level, zone)
    grades = [grade(level, mines, start) for mines in boards]
    return {
        "near": [sum(c in mines for c in near) / len(near) for mines in boards] if near else [0.0],
        "border": [sum(c in mines for c in edge) / len(edge) for mines in boards],
        "3bv": [three_bv(level, mines) for mines in boards],
        "grade": [g.rung if g.solved else None for g in grades],
    }


@click.command()
@click.option("--level", "level_texts", multiple=True, help="Levels (default 9x9x10, 16x16x40, 30x16x99).")
@click.option("--boards", default=300, show_default=True, help="Boards per level and method.")
@click.option("--method", "methods", multiple=True,
              type=click.Choice(["uniform", "resample", "auto", "perturb", "clear", "ms-adjust"]),
              help="Only these columns (default all; resample is always drawn as the reference).")
@click.option("--seed", default=1, show_default=True)
def main(level_texts: tuple[str, ...], boards: int, methods: tuple[str, ...], seed: int) -> None:
    from scipy.stats import chi2_contingency, ks_2samp
    for text in level_texts or DEFAULT_LEVELS:
        level = Level.parse(text)
        start = (level.height // 2, level.width // 2) if level.width < 30 else (3, 3)
        expected = level.mines / (level.width * level.height - len(start_zone(level, start, FirstClick.OPENING)))
        print(f"\n{level}, first click {start[0]},{start[1]} (opening), {boards} boards each; "
              f"mine density off the opening {expected:.3f}")
        print(f"{'method':<9} {'ring at 2':>12} {'border':>12} {'3BV':>14} {'KS p':>6} "
              f"{'easy':>5} {'medium':>6} {'hard':>5} {'extr.':>5} {'guess':>5} {'chi2 p':>6}")
        wanted = ("uniform", "resample", "auto", "perturb", "clear", "ms-adjust")
        data = {m: describe(level, start, layouts(level, start, m, boards, seed))
                for m in wanted if m in methods or m == "resample" or (not methods and m != "ms-adjust")}
        reference = data["resample"]
        for method, d in data.items():
            shares = [sum(g == r for g in d["grade"]) for r in Rung] + [sum(g is None for g in d["grade"])]
            ks = ks_2samp(d["3bv"], reference["3bv"]).pvalue
            table = [[sum(g == r for g in x["grade"]) for r in Rung] for x in (d, reference)]
            keep = [i for i in range(len(Rung)) if table[0][i] + table[1][i] > 0]
            chi = (chi2_contingency([[row[i] for i in keep] for row in table]).pvalue
                   if method not in ("resample", "uniform") and len(keep) > 1 else float("nan"))
            print(f"{method:<9} {mean_ci(d['near']):>12} {mean_ci(d['border']):>12} "
                  f"{mean_ci(d['3bv']):>14} {ks:>6.3f} "
                  + " ".join(f"{s / len(d['grade']):>{w}.2f}" for s, w in zip(shares, (5, 6, 5, 5, 5)))
                  + f" {chi:>6.3f}", flush=True)


if __name__ == "__main__":
    main()
