"""Variants of `best` played on every layout of small boards: exact wins, no sampling.

The exact counterpart of ``scripts/best_ablation.py`` (same variant names): each
variant is played on every layout the rule allows (``satsweeper.optimal.play_together``,
tie-breaks seeded by the position seen), so two variants' wins differ only by what
their decisions are worth, to the last layout.  Prints per board each variant's
wins and, against the first variant, the difference.  The optimum of each board
is in docs/optimal.md.

    nice -n 10 python -m scripts.best_exact 6x3x5,8x3x6 --variants best,corner-most-210 --workers 2
    python -m scripts.best_exact 5x5x5 --variants best,farthest --rule opening
"""

from __future__ import annotations

import argparse
import multiprocessing

from satsweeper.errors import SatsweeperError
from satsweeper.game import FirstClick, Games, Level
from satsweeper.optimal import play_together

import sys as _sys
from pathlib import Path as _Path
# the repository on the path, whether run as python scripts/X.py or python -m scripts.X
_sys.path.insert(0, str(_Path(__file__).resolve().parent.parent))
from scripts.best_ablation import VARIANTS  # noqa: E402
from scripts.optimal_misplays import _cell  # noqa: E402


def wins(job: tuple) -> tuple[int, int]:
    """(layouts won, layouts) of ``level`` for variant ``name`` from ``first``."""
    level, rule, first, name, seed = job
    games = Games.allowed(level, rule, first)

    def player():
        p = VARIANTS[name]()
        p.check_consistency = False  # every position comes from a layout
        return p
    layouts = len(games)  # before play_together takes the games apart
    return play_together(games, first, player, seed), layouts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("boards", help="WxHxM levels, comma-separated (5x5x6,8x3x6)")
    parser.add_argument("--variants", default="best,no-corners", help=f"among {', '.join(VARIANTS)}")
    parser.add_argument("--rule", default="safe", choices=[r.value for r in FirstClick])
    parser.add_argument("--first", default="0,0", help="the first click, row,column")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    names = args.variants.split(",")
    unknown = [n for n in names if n not in VARIANTS]
    if unknown:
        parser.error(f"unknown variant {unknown[0]!r}: expected one of {', '.join(VARIANTS)}")
    rule = FirstClick(args.rule)
    try:
        first = _cell(args.first)
        levels = [Level.parse(b) for b in args.boards.split(",")]
        for level in levels:
            level.check_cell(first)
    except SatsweeperError as e:
        parser.error(str(e))
    jobs = [(level, rule, first, name, args.seed) for level in levels for name in names]
    print(f"{rule.value} first click at {args.first}, seed {args.seed}: layouts won", flush=True)
    # Each board's line as soon as its variants are played: a stopped run keeps the boards done.
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        found = pool.imap(wins, jobs, chunksize=1)
        try:
            for level in levels:
                print(_line(level, names, [next(found) for _ in names]), flush=True)
        except KeyboardInterrupt:
            pool.terminate()
            raise SystemExit("stopped: the boards above are complete") from None


def _line(level: Level, names: list, found: list) -> str:
    """One board's wins, each variant's against the first's."""
    layouts = found[0][1]
    line = f"{str(level):<8} {layouts:>9} layouts:"
    for name, (won, _) in zip(names, found):
        line += f"  {name} {won} ({100 * won / layouts:.2f}%)"
        if name != names[0]:
            line += f" {won - found[0][0]:+d}"
    return line

if __name__ == "__main__":
    main()
