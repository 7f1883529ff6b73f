"""Where a strategy loses to optimal play: the positions whose guess costs layouts.

Plays the strategy on every allowed layout (as ``satsweeper optimal
--strategy`` does) and, at each guess, asks the exact search what the
guess is worth against the best guess from the same position.  Prints
each misplayed position once: the board, the guess and why the strategy
chose it (its basis: "endgame", "look-ahead", "corner"...; under 1,000
layouts anything but "endgame" means best's exact search gave up at its
budget), an optimal guess, the
layouts reaching it and the layouts lost there (summed over those layouts).

    nice -n 10 python -m scripts.optimal_misplays 4x4x4 --rule can-lose --first 0,1
"""

from __future__ import annotations

import argparse

from satsweeper.errors import InputError, SatsweeperError
from satsweeper.game import FirstClick, Games, Level
from satsweeper.optimal import Search, play_together
from satsweeper.strategies import strategy


def _cell(text: str) -> tuple[int, int]:
    """``row,col`` as a cell."""
    try:
        row, col = (int(x) for x in text.split(","))
    except ValueError:
        raise InputError(f"a cell as row,col such as 0,0 (got {text!r})") from None
    return row, col


def picture(board, guess, better) -> str:
    rows = []
    for r in range(board.height):
        row = ""
        for c in range(board.width):
            row += ("G" if (r, c) == guess else "B" if (r, c) in better else
                    str(board.clues[(r, c)]) if (r, c) in board.clues else "F" if (r, c) in board.flags else ".")
        rows.append("    " + row)
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("level")
    parser.add_argument("--rule", default="safe", choices=[r.value for r in FirstClick])
    parser.add_argument("--first", default="0,0")
    parser.add_argument("--strategy", default="best")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    try:
        level, rule = Level.parse(args.level), FirstClick(args.rule)
        first = _cell(args.first)
        level.check_cell(first)
        search = Search(level)
        strategy(args.strategy)
    except SatsweeperError as e:
        parser.error(str(e))
    seen: dict[tuple, list] = {}

    def judge(board, decision, games: int) -> None:
        """Value every guess of a position once, against every other guess from there."""
        if not decision.guess:
            return
        key = (tuple(sorted(board.clues.items())), decision.opens[0])
        if key not in seen:
            values = search.guesses(board)
            seen[key] = [board, decision.opens[0], values, max(values.values()), 0, decision.basis]
        seen[key][4] += games

    # Played as `satsweeper optimal --strategy` plays: the layouts together, one decision per view.
    together = Games.allowed(level, rule, first)
    games = len(together)
    won = play_together(together, first, lambda: strategy(args.strategy, check_consistency=False),
                        args.seed, watch=judge)
    optimum = search.optimum(rule, first)
    print(f"{args.strategy} on {level} {rule.value}, first {args.first}, seed {args.seed}: "
          f"{won}/{games}; optimal {optimum.won}/{optimum.layouts}")
    misplays = [(v[3] - v[2][v[1]], key, v) for key, v in seen.items() if v[2][v[1]] < v[3]]
    for lost, key, (board, guess, values, top, visits, basis) in sorted(misplays, key=lambda m: -m[0]):
        better = [c for c, x in values.items() if x == top]
        layouts = search.knowledge(board)[0].bit_count()
        print(f"\n{layouts} layouts here (reached in {visits} games): guess {guess} ({basis}) wins {values[guess]}, "
              f"optimal {better} win {top}: {lost} layouts lost")
        print(picture(board, guess, better))


if __name__ == "__main__":
    main()
