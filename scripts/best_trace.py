"""Every guess `best` and its variants make on fixed games, to show that a
refactor changed nothing: the same cells, reasons and scores, the same games won.

Win rates in the README come from runs of 100,000 games; a change meant to
be behaviour-neutral (a function split, a loop made faster) should leave
every decision as it was, which a few thousand traced decisions show in a
minute, where win rates could not tell a small change from chance.

    python scripts/best_trace.py --out /tmp/before.json        # on the old code
    python scripts/best_trace.py --against /tmp/before.json    # on the new: exit 1 on a difference

Each game: the guesses (cells opened, the basis such as "look-ahead" or
"endgame", the score as an exact fraction), then whether it was won and how
many guesses it took.  Eight variants (best, and the experiments of
issue 18 that change the guess: pseq, risk, deeper, no-blend, alive,
fifty with pockets, no endgame and no corners), on 9x9/10, 16x16/40 and
30x16/99 with both first-click rules.
"""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction

from satsweeper.experiments import play
from satsweeper.game import FirstClick, Level
from satsweeper.strategies.best import Best

VARIANTS = {
    "best": {},
    "pseq": dict(tiebreak=True, progress=Fraction(1, 20), zero=Fraction(1, 20)),
    "risk": dict(risk=Fraction(9, 10)),
    "deeper": dict(deeper=Fraction(5, 100)),
    "no-blend": dict(blend=False),
    "alive": dict(alive=True),
    "fifty-pockets": dict(fifty=True, pockets=True),
    "no-endgame": dict(endgame=False, corners=False),
}
LEVELS = ((Level(9, 9, 10), 120), (Level(16, 16, 40), 40), (Level(30, 16, 99), 25))


class Traced:
    """A player that notes every guess it makes in ``log``."""

    def __init__(self, player, log: list) -> None:
        self.player, self.log, self.name = player, log, player.name

    def decide(self, board, rng):
        decision = self.player.decide(board, rng)
        if decision.guess:
            self.log.append([[list(c) for c in decision.opens], decision.basis, str(decision.value)])
        return decision


def trace(scale: float) -> dict:
    """Every variant's guesses and results, by "variant level rule"."""
    out = {}
    for name, options in VARIANTS.items():
        for level, games in LEVELS:
            for rule in (FirstClick.SAFE, FirstClick.OPENING):
                log: list = []
                for i in range(max(1, round(games * scale))):
                    result = play(level, "best", seed=str(i), rule=rule, player=Traced(Best(**options), log))
                    log.append([result.won, result.guesses])
                out[f"{name} {level} {rule.value}"] = log
        print(f"{name}: done", file=sys.stderr)
    return out


def differences(old: dict, new: dict) -> list[str]:
    """Where two traces part: the first differing entry of each run."""
    found = []
    for key in sorted(old.keys() | new.keys()):
        a, b = old.get(key), new.get(key)
        if a is None or b is None:
            found.append(f"{key}: only in the {'new' if a is None else 'old'} trace")
            continue
        at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
        if at is None and len(a) != len(b):
            at = min(len(a), len(b))
        if at is not None:
            was = a[at] if at < len(a) else "(end)"
            now = b[at] if at < len(b) else "(end)"
            found.append(f"{key}: entry {at}: {was} then, {now} now")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", help="write the trace here")
    parser.add_argument("--against", help="compare with a trace written before; exit 1 if they differ")
    parser.add_argument("--scale", type=float, default=1.0, help="games per run times this (default 1)")
    args = parser.parse_args()
    if not args.out and not args.against:
        parser.error("give --out, --against or both")
    old = None
    if args.against:
        with open(args.against) as src:  # read first: a wrong path fails before a minute of play
            old = json.load(src)
    new = trace(args.scale)
    if args.out:
        with open(args.out, "w") as out:
            json.dump(new, out)
    if old is not None:
        found = differences(old, new)
        decisions = sum(len(log) for log in new.values())
        print("\n".join(found) if found else f"the same: {decisions} guesses and results in {len(new)} runs")
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
