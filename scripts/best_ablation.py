"""Variants of `best` on the same games: which of its ideas win games.

Every variant plays the same layouts (game i of seed s draws its mines from
the generator seeded by "s:i" before any move), so two variants differ only
where their decisions do.  Prints each variant's wins with a 95% interval
and, against the first variant, the games only one of them won (McNemar's
z: about 2 or more is unlikely to be chance).

    python scripts/best_ablation.py --games 10000 --seed 21 --workers 2
    python scripts/best_ablation.py --level intermediate --games 50000 --seed 1 \
        --variants no-corners,best

Variants: ``exact`` (sure moves, then the lowest probability), ``ties``
(best's look-ahead over exact ties only), ``best`` (the look-ahead over
cells within 10% of the best safety, after far corners),
``no-corners`` (best without opening far corners first), ``best-5``
(at most 5 candidates), ``end-N`` (the exact endgame from N explanations
left, over at most 40, 60, 80 or 100 hidden cells; best's own is end-1000;
end-60 is best's before November 2026; ``end-4000-b20k`` searches up to
20000 positions, not 5000; ``budget-20k``/``budget-50k`` the endgame
from 1000 as best's, searching up to 20000 or 50000 positions), and the experiments of issue 18:
``spread-5``/``spread-15`` (candidates within 5% or 15% of the best safety),
``best-12`` (at most 12 candidates), ``progress-N`` (N/100 added per unit of
P(the number makes some cell safe), after Hill's "progress"; ``-minus-N``
subtracts), ``zero-N`` (N/100 per unit of P(a 0)), ``pseq`` (ties broken by
the chance of a 0, then by information: Tu et al.'s PSEQ order) and
``pockets`` (an isolated region played exactly first), ``corners-early``
(far corners only until the board shows a 0), ``blend`` (the next move
valued by Hill's blended safety: 4/5 the safest cell's, 1/5 the second's;
best's own since issue 18, the same as ``best``; ``no-blend`` is best before),
``fifty`` (an unavoidable 50/50 guessed as soon as it is found, as Hill does),
``risk-N`` (a candidate's score times 1 + N/100 * P(it is the mine of a pair
walled in by mines | it is safe): Hill's "50/50 influence"; ``risk-minus-N``
the opposite), ``deeper-N``
(the candidates within N% of the best look-ahead score, at most 3, scored
again two moves ahead; ``deeper-10-8``: within 10%, at most 8; ``deeper-all``: every
candidate scored, at most 8), ``dominance`` (the guess gives way to a safer cell
that is safe whenever it is: Hill's switch), ``alive`` (a candidate that can show only one
number is passed over while another can show more: Hill's dead cells),
``corner-most-N`` (the far-corner rule only while the safest cell's mine
chance is at most N/1000, N among 190, 200, 205, 210, 215, 220, 230, 250, 300), ``corner-skip-21-33`` (not while it is above 0.21
and at most 0.33), ``farthest`` (of the far corners, the farthest from every
number first), ``blend-2``/``blend-8`` (the blend's weight of the safest cell
against the second safest: 2 or 8, not Hill's 4), ``defer-8`` (a candidate with fewer
than 8 covered cells within reach, over single numbers, passed over while
another is left: Hill's SpaceCounter), ``pull`` (the next move's chances in the components
a number does not touch taken given that number: the total's pull), ``yield-float`` (the
far corner gives way to a floating cell beside the frontier too), ``yield-float-0`` (and to
any cell beside or on the frontier as safe whose number can make a cell safe), ``cascade-N``
(no corner rule: the look-ahead alone weighs the corners against other cells, a 0 credited
N/100 more for the area it opens; N among 5, 10, 20, 40).  Expert, first click
safe at 0,0, unless ``--level``, ``--rule``, ``--first`` say otherwise (the
issue's openings: ``--rule opening --first 3,3``).

    python scripts/best_ablation.py --level 9x9/10 --rule opening --first 3,3 \
        --games 50000 --seed 202 --workers 1 --variants best,pockets --cache /tmp/abl
"""

from __future__ import annotations

import argparse
import multiprocessing
from pathlib import Path
from fractions import Fraction

from satsweeper.experiments import Paired, Summary, play
from satsweeper.game import LEVELS, FirstClick, Level
from satsweeper.strategies import strategy
from satsweeper.strategies.best import Best

VARIANTS = {
    "exact": lambda: strategy("exact"),
    "ties": lambda: Best(spread=Fraction(0)),
    "best": Best,
    "no-corners": lambda: Best(corners=False),
    "best-5": lambda: Best(candidates=5),
    "end-60": lambda: Best(limit=60, most_cells=40),
    "end-400": lambda: Best(limit=400, most_cells=60),
    "end-1000": lambda: Best(limit=1000, most_cells=80),
    "end-4000": lambda: Best(limit=4000, most_cells=100),
    "end-4000-b20k": lambda: Best(limit=4000, most_cells=100, budget=20000),
    "budget-20k": lambda: Best(budget=20000),
    "pull": lambda: Best(pull=True),
    "yield-float": lambda: Best(yield_floating=True),
    "yield-float-0": lambda: Best(yield_floating=True, corner_yield=Fraction(0)),
    "budget-50k": lambda: Best(budget=50000),
    "spread-5": lambda: Best(spread=Fraction(1, 20)),
    "spread-15": lambda: Best(spread=Fraction(3, 20)),
    "best-12": lambda: Best(candidates=12),
    "best-16": lambda: Best(candidates=16),
    "best-40": lambda: Best(candidates=40),
    "progress-5": lambda: Best(progress=Fraction(1, 20)),
    "progress-10": lambda: Best(progress=Fraction(1, 10)),
    "progress-20": lambda: Best(progress=Fraction(1, 5)),
    "zero-5": lambda: Best(zero=Fraction(1, 20)),
    "zero-10": lambda: Best(zero=Fraction(1, 10)),
    **{f"cascade-{n}": (lambda n=n: Best(corners=False, zero=Fraction(n, 100))) for n in (5, 10, 20, 40)},
    "pseq": lambda: Best(tiebreak=True),
    "pockets": lambda: Best(pockets=True),
    "corners-early": lambda: Best(late_corners=False),
    "progress-minus-5": lambda: Best(progress=Fraction(-1, 20)),
    "progress-minus-10": lambda: Best(progress=Fraction(-1, 10)),
    "blend": lambda: Best(blend=True),
    "no-blend": lambda: Best(blend=False),
    "fifty": lambda: Best(fifty=True),
    "risk-50": lambda: Best(risk=Fraction(1, 2)),
    "risk-90": lambda: Best(risk=Fraction(9, 10)),
    "risk-fifty": lambda: Best(risk=Fraction(9, 10), fifty=True),
    "risk-minus-50": lambda: Best(risk=Fraction(-1, 2)),
    "deeper-2": lambda: Best(deeper=Fraction(2, 100)),
    "deeper-5": lambda: Best(deeper=Fraction(5, 100)),
    "alive": lambda: Best(alive=True),
    "defer-8": lambda: Best(defer=8),
    "deeper-10-8": lambda: Best(deeper=Fraction(1, 10), deep_most=8),
    "deeper-all": lambda: Best(deeper=Fraction(1), deep_most=8),
    "dominance": lambda: Best(dominance=True),
    **{f"corner-most-{t}": (lambda t=t: Best(corner_skip=(Fraction(t, 1000), 1)))
       for t in (190, 200, 205, 210, 215, 220, 230, 250, 300)},
    "corner-skip-21-33": lambda: Best(corner_skip=(Fraction(21, 100), Fraction(33, 100))),
    "farthest": lambda: Best(farthest=True),
    "blend-2": lambda: Best(blend_weight=2),
    "blend-8": lambda: Best(blend_weight=8),
    "yield-50": lambda: Best(corner_yield=Fraction(1, 2)),
    "no-yield": lambda: Best(corner_yield=None),
    "yield-30": lambda: Best(corner_yield=Fraction(3, 10)),
    "yield-0": lambda: Best(corner_yield=Fraction(0)),
    "yield-70": lambda: Best(corner_yield=Fraction(7, 10)),
    "pseudo": lambda: Best(pseudo=True),
    "no-pseudo": lambda: Best(pseudo=False),
}


def one(job: tuple) -> bool:
    level, name, seed, index, rule, first = job
    return play(level, name, f"{seed}:{index}", rule, first, player=VARIANTS[name]()).won


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", default="expert", help=f"one of {', '.join(LEVELS)}, or WxH/M")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--variants", default="exact,ties,best", help=f"among {', '.join(VARIANTS)}")
    parser.add_argument("--rule", default="safe", choices=[r.value for r in FirstClick],
                        help="which layouts the first click may meet (safe: the issue's safe corner)")
    parser.add_argument("--first", default="0,0", help="the first click, row,column (the issue's opening: 3,3)")
    parser.add_argument("--cache", default=None,
                        help="a folder keeping each variant's wins, so a later run against the same "
                             "baseline plays only the new variants (the code must not change between runs)")
    args = parser.parse_args()
    names = args.variants.split(",")
    level = Level.parse(args.level)
    rule = FirstClick(args.rule)
    first = tuple(int(x) for x in args.first.split(","))
    results = {}
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        for name in names:
            saved = args.cache and Path(args.cache) / (
                f"{args.level.replace('/', 'm')}-{args.rule}-{first[0]}_{first[1]}-{args.seed}-{args.games}-{name}.txt")
            if saved and saved.exists():
                results[name] = [c == "1" for c in saved.read_text().strip()]
                continue
            jobs = [(level, name, args.seed, i, rule, first) for i in range(args.games)]
            results[name] = pool.map(one, jobs, chunksize=max(1, args.games // (args.workers * 16)))
            if saved:
                saved.parent.mkdir(parents=True, exist_ok=True)
                saved.write_text("".join("1" if w else "0" for w in results[name]) + "\n")
    base = names[0]
    print(f"{args.level}, {args.rule} first click at {args.first}, {args.games} games, seed {args.seed}")
    for name in names:
        won = results[name]
        low, high = Summary(name, args.level, args.games, sum(won), 0, 1.0).interval()
        line = f"{name:<10} {sum(won):>6} won  {100 * sum(won) / args.games:6.2f}%  ({100 * low:.1f}-{100 * high:.1f})"
        if name != base:
            pair = Paired.of(won, results[base])
            line += f"  vs {base}: {pair.only_first} won only here, {pair.only_second} only there, z = {pair.z:.2f}"
        print(line)


if __name__ == "__main__":
    main()
