"""The first guess after a first click that shows a number, by paired games:
which cell should ``best`` open there?

After the safe first click in the corner shows k (no opening), every game of
that kind is the same position: one number in the corner.  This plays the same
games (game i of seed s, as ``bench`` and ``best_ablation.py`` draw them) once
per candidate cell, that cell opened as the first guess and ``best`` playing on,
and once with ``best``'s own guess; it prints each candidate's wins and, against
``best``'s own, the games only one of them won (McNemar's z).  Cells that are
images of each other under the board's symmetries that fix the corner are one
candidate (the position is symmetric).

    python scripts/second_guess.py --level 9x9x10 --number 1 --games 40000 --seed 7001 --workers 1

Only the games whose corner shows ``--number`` are played (``--games`` counts
all games drawn, most of which open an area and are skipped).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random

from satsweeper.experiments import Paired, play
from satsweeper.game import FirstClick, Game, Level, Placement, neighbours
from satsweeper.strategies import Decision
from satsweeper.strategies.best import Best

CORNER = (0, 0)


class Forced:
    """``best``, but its first guess in the position "the corner shows k" is ``cell``."""

    name = "forced"

    def __init__(self, cell, number: int):
        self.best, self.cell, self.number, self.asked = Best(), cell, number, False
        self.best.check_consistency = False

    def decide(self, board, rng) -> Decision:
        decision = self.best.decide(board, rng)
        if decision.guess and not self.asked:
            self.asked = True
            if self.cell is not None and board.clues == {CORNER: self.number} and board.is_hidden(self.cell):
                return Decision(opens=(self.cell,), guess=True, basis="forced", value=None)
        return decision


def corner_number(level: Level, seed: int, index: int) -> int:
    """The number the first click shows in game ``index`` (drawn as ``play`` draws it)."""
    game = Game.new(level, random.Random(f"{seed}:{index}"), CORNER, FirstClick.SAFE, Placement.SAMPLE)
    return sum(1 for n in neighbours(level, CORNER) if n in game.mines)


def one(job) -> bool:
    level, seed, index, cell, number = job
    return play(level, "best", f"{seed}:{index}", FirstClick.SAFE, CORNER, player=Forced(cell, number)).won


def candidates(level: Level) -> list:
    """One cell per class of cells the square's symmetries fixing the corner map together
    (on a square board the diagonal mirror), the corner's neighbours left out."""
    near = set(neighbours(level, CORNER)) | {CORNER}
    cells = []
    for r in range(level.height):
        for c in range(level.width):
            if (r, c) in near or (level.height == level.width and r > c):
                continue
            cells.append((r, c))
    return cells


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", default="9x9x10")
    parser.add_argument("--number", type=int, default=1)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=7001)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cells", default=None, help="candidates r,c;r,c;... (default: every class)")
    args = parser.parse_args()
    level = Level.parse(args.level)
    games = [i for i in range(args.games) if corner_number(level, args.seed, i) == args.number]
    cells = ([tuple(int(x) for x in p.split(",")) for p in args.cells.split(";")] if args.cells
             else candidates(level))
    print(f"{args.level}, corner shows {args.number}: {len(games)} of {args.games} games of seed {args.seed}", flush=True)
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        def wins(cell):
            jobs = [(level, args.seed, i, cell, args.number) for i in games]
            return pool.map(one, jobs, chunksize=max(1, len(jobs) // (args.workers * 8)))
        base = wins(None)
        print(f"best's own  {sum(base):>6} won  {100 * sum(base) / len(games):6.2f}%", flush=True)
        rows = []
        for cell in cells:
            won = wins(cell)
            pair = Paired.of(won, base)
            rows.append((pair.z, cell, sum(won), pair))
            print(f"{cell[0]},{cell[1]:<6} {sum(won):>6} won  {100 * sum(won) / len(games):6.2f}%  "
                  f"{pair.only_first} only here, {pair.only_second} only with best's, z = {pair.z:+.2f}", flush=True)
    print("best candidates:", ", ".join(f"{r},{c} (z {z:+.2f})" for z, (r, c), _, _ in sorted(rows, reverse=True)[:5]))


if __name__ == "__main__":
    main()
