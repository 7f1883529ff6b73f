"""Where `best` loses on expert: its guesses by phase and risk, and the guess each lost game died on.

Replays games (safe first click in the corner, as the issue's benchmark)
and, at every guess, asks the counter for the exact chance that the chosen
square is a mine.  Phases: the game's first guess, later mid-game guesses,
and guesses in the exact endgame (at most ``endgame.LIMIT`` explanations).
"Expected deaths" sums those chances: it says where better guessing could
win games back.

    python scripts/best_losses.py --games 1000 --seed 21 --workers 2
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import random

from satsweeper.counting import tally
from satsweeper.game import LEVELS, FirstClick, Game, Outcome
from satsweeper.strategies import endgame, strategy

BANDS = ((0.1, "<0.10"), (0.2, "0.10-0.20"), (0.3, "0.20-0.30"), (0.45, "0.30-0.45"), (0.55, "0.45-0.55"),
         (1.01, ">0.55"))


def replay(args: tuple) -> tuple[bool, list[tuple[float, str]]]:
    """One game: won?, and each guess's risk and phase."""
    seed, index = args
    rng = random.Random(f"{seed}:{index}")
    game = Game.new(LEVELS["expert"], rng, (0, 0), FirstClick.SAFE)
    player = strategy("best")
    game.open((0, 0))
    guesses = []
    while game.outcome is Outcome.PLAYING:
        board = game.board
        decision = player.decide(board, rng)
        if decision.guess:
            counts = tally(board)
            phase = "endgame" if counts.count <= endgame.LIMIT else "first" if not guesses else "mid-game"
            guesses.append((float(counts.probability(decision.opens[0])), phase))
        for cell in decision.flags:
            game.flag(cell)
        for cell in decision.opens:
            if game.open(cell) is not Outcome.PLAYING:
                break
    return game.outcome is Outcome.WON, guesses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    jobs = [(args.seed, i) for i in range(args.games)]
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        results = pool.map(replay, jobs, chunksize=max(1, args.games // (args.workers * 16)))
    wins = sum(won for won, _ in results)
    print(f"best, expert, safe corner start: {wins} of {args.games} won")
    risk: dict = collections.defaultdict(float)
    seen: collections.Counter = collections.Counter()
    died: collections.Counter = collections.Counter()
    for won, guesses in results:
        for p, phase in guesses:
            band = next(name for top, name in BANDS if p < top)
            risk[(phase, band)] += p
            seen[(phase, band)] += 1
        if not won and guesses:
            died[guesses[-1][1]] += 1
    print(f"{'phase':<9} {'mine chance':<11} {'guesses':>8} {'expected deaths':>16}")
    for phase in ("first", "mid-game", "endgame"):
        for _, band in BANDS:
            if seen[(phase, band)]:
                print(f"{phase:<9} {band:<11} {seen[(phase, band)]:>8} {risk[(phase, band)]:>16.1f}")
    print("lost games by the phase of the fatal guess: " + ", ".join(f"{k} {v}" for k, v in died.items()))


if __name__ == "__main__":
    main()
