"""Which first guess wins most, once the first click's corner shows a given number.

The first click is safe, in the corner (0, 0).  In the games where it shows
``--shows`` and opens nothing else, the player's first guess is replaced by
each cell given; every other move is the player's: `best`, or with
``--no-corners`` `best` without its far-corner rule.  All variants play
the same layouts, so each is compared game by game with the player's own
choice (McNemar's z: about 2 or more is unlikely to be chance).  The
experiment that led `best` to open far corners first:

    python scripts/first_guess.py --level intermediate --games 20000 --seed 7 --shows 1 \\
        --no-corners --cells 0,15,15,15,0,2,2,2,7,7
"""

from __future__ import annotations

import argparse
import multiprocessing
import random

from satsweeper.board import Board, Cell
from satsweeper.experiments import Paired, Summary, play
from satsweeper.game import FirstClick, Level
from satsweeper.strategies import Decision
from satsweeper.strategies.best import Best

CORNER = (0, 0)


class Forced(Best):
    """`best`, except that its first guess after the corner showed ``shows`` is ``cell``."""

    def __init__(self, shows: int, cell: Cell | None, corners: bool) -> None:
        super().__init__(corners=corners)
        self.shows, self.cell = shows, cell
        self.relevant: bool | None = None  # decided at the first guess

    def decide(self, board: Board, rng: random.Random) -> Decision:
        decision = super().decide(board, rng)
        if decision.guess and self.relevant is None:
            self.relevant = dict(board.clues) == {CORNER: self.shows}
            if self.relevant and self.cell is not None:
                return Decision(opens=(self.cell,), guess=True)
        return decision


def one(job: tuple) -> str:
    """'-' for a game the forcing does not concern, else '1' won / '0' lost."""
    level, seed, index, shows, cell, corners = job
    player = Forced(shows, cell, corners)
    won = play(level, "best", f"{seed}:{index}", FirstClick.SAFE, CORNER, player=player).won
    return "1" if won and player.relevant else "0" if player.relevant else "-"


def cells_of(text: str) -> list[Cell]:
    """'0,15,7,7' -> [(0, 15), (7, 7)]."""
    numbers = [int(part) for part in text.split(",")]
    if len(numbers) % 2:
        raise SystemExit(f"--cells takes ROW,COL pairs (got {text!r})")
    return list(zip(numbers[::2], numbers[1::2]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", default="intermediate")
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--shows", type=int, default=1, help="the number the corner shows")
    parser.add_argument("--cells", default="0,15", help="ROW,COL pairs, comma separated")
    parser.add_argument("--no-corners", action="store_true", help="the player is best without the corner rule")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    level = Level.parse(args.level)
    variants = [None, *cells_of(args.cells)]
    results = {}
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        for cell in variants:
            jobs = [(level, args.seed, i, args.shows, cell, not args.no_corners) for i in range(args.games)]
            results[cell] = pool.map(one, jobs, chunksize=max(1, args.games // (args.workers * 16)))
    base = results[None]
    relevant = [i for i, r in enumerate(base) if r != "-"]
    player = "best without corners" if args.no_corners else "best"
    print(f"{player}, {level}, corner shows {args.shows}: {len(relevant)} of {args.games} games (seed {args.seed})")
    for cell, marks in results.items():
        won = [marks[i] == "1" for i in relevant]
        low, high = Summary("best", str(level), len(won), sum(won), 0, 1.0).interval() if won else (0, 0)
        name = "own choice" if cell is None else f"{cell[0]},{cell[1]}"
        line = f"{name:<11} {sum(won):>6} won  {100 * sum(won) / max(1, len(won)):6.2f}%  ({100 * low:.1f}-{100 * high:.1f})"
        if cell is not None:
            pair = Paired.of(won, [base[i] == "1" for i in relevant])
            line += f"  vs own choice: {pair.only_first} won only here, {pair.only_second} only there, z = {pair.z:.2f}"
        print(line)


if __name__ == "__main__":
    main()
