"""The strength table of issue 18: `best` on every level, journaled, and before/after.

``run`` plays every row with ``satsweeper bench --out`` into a directory (one
journal per row; run it again after a stop and each row goes on with
``--resume`` where it stopped).  ``table`` reads such directories and prints
the README's Markdown table: games, seed, wins, win rate with its 95%
interval, the target, and, given a ``--before`` directory of the same rows
and seed, the earlier code's rate on the same games and McNemar's z (games
only one of the two won).

    nice -n 5 python scripts/strength.py run docs/strength-45 --seed 20261123 --games 100000 --workers 2
    python scripts/strength.py table docs/strength-45 --before docs/strength-36

Seed 20261123 is held out: no idea in `best` was tuned on it (tuning used
seeds below 10000).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from satsweeper.experiments import Paired, Summary
from satsweeper.journal import read_journal

#: name -> (level, rules, first click, target win rate, best published and who)
ROWS = {
    "expert": ("expert", "safe", "corner", 0.413, "41.13% (Hill, JSMinesweeper, 1e7)"),
    "expert-open": ("expert", "opening", "3,3", 0.550, "53.45% (Tu et al., PSEQ-D256, 1e8); Hill 54.3%"),
    "16x16": ("16x16x40", "safe", "corner", 0.786, "78.23% (Tu et al., 1e8)"),
    "16x16-open": ("16x16x40", "opening", "3,3", 0.893, "89.08% (Tu et al., 1e8)"),
    "9x9": ("9x9x10", "safe", "corner", 0.920, "91.69% (Tu et al., 1e8)"),
    "9x9-open": ("9x9x10", "opening", "3,3", 0.973, "97.17% (Tu et al., 1e8)"),
    "8x8": ("8x8x10", "safe", "corner", 0.820, "81.77% (Tu et al., 1e8)"),
}


def run(directory: Path, seed: int, games: int, rows: list[str], workers: int) -> int:
    """Play the rows; bench's exit code if one fails (0 when all are done)."""
    directory.mkdir(exist_ok=True)
    for name in rows:
        level, rules, first, _, _ = ROWS[name]
        journal = directory / f"{name}.jsonl"
        if journal.exists():
            done = read_journal(journal)
            if done.summary is not None and done.run.get("games") == games and done.run.get("seed") == seed:
                continue
            # --games and --seed too: bench grows the row to the games asked and refuses
            # another seed, where the journal's own options used to win without a word.
            args = ["--resume", str(journal), "--games", str(games), "--seed", str(seed)]
        else:
            args = ["--level", level, "--rules", rules, "--first", first, "--strategy", "best",
                    "--games", str(games), "--seed", str(seed), "--out", str(journal)]
        code = subprocess.run([sys.executable, "-m", "satsweeper", "bench", *args,
                               "--workers", str(workers)]).returncode
        if code:
            return code
    return 0


def outcomes(path: Path) -> tuple[dict, list[bool]]:
    """The run's parameters and, game by game, whether it was won."""
    journal = read_journal(path)
    return journal.run, [bool(w) for chunk in journal.chunks for w in chunk.won]


def summary_of(path: Path) -> Summary:
    journal = read_journal(path)
    total = Summary(journal.run["strategy"], journal.run["level"], 0, 0, 0, 0.0)
    for chunk in journal.chunks:
        total = total.adding(chunk)
    return total


def table(directory: Path, before: Path | None) -> str:
    head = "| level | rules, first click | games | seed | won | win rate (95% CI) | target | best published |"
    rule = "|---|---|---|---|---|---|---|---|"
    if before:
        head += " before, same games | only after / only before | z |"
        rule += "---|---|---|"
    lines = [head, rule]
    for name, (level, rules, first, target, published) in ROWS.items():
        path = directory / f"{name}.jsonl"
        if not path.exists():
            continue
        params, won = outcomes(path)
        # The journal says where the first click was (a directory may hold a
        # row played at another cell, as Tu et al.'s 2,2 openings).
        rules, at = params["rules"], tuple(params["first"])
        first = "corner" if first == "corner" and at == (0, 0) else f"{at[0]},{at[1]}"
        s = summary_of(path)
        low, high = s.interval()
        met = "met" if s.rate >= target else f"short by {100 * (target - s.rate):.2f} points"
        row = (f"| {level} | {rules}, {first} | {s.games:,} | {params['seed']} | {s.wins:,} | "
               f"**{s.rate:.2%}** ({low:.2%}-{high:.2%}) | {target:.1%}: {met} | {published} |")
        if before and (before / f"{name}.jsonl").exists():
            bparams, bwon = outcomes(before / f"{name}.jsonl")
            for key in ("seed", "level", "rules", "first"):
                if bparams[key] != params[key]:
                    raise SystemExit(f"{name}: the before run has {key} {bparams[key]}, not {params[key]}")
            n = min(len(won), len(bwon))
            paired = Paired.of(won[:n], bwon[:n])
            row += (f" {sum(bwon[:n]) / n:.2%} ({n:,}) | {paired.only_first} / {paired.only_second} | "
                    f"{paired.z:+.2f} |")
        lines.append(row)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    r = sub.add_parser("run", help="play the rows (resumable)")
    r.add_argument("directory", type=Path)
    r.add_argument("--seed", type=int, default=20261123)
    r.add_argument("--games", type=int, default=100_000)
    r.add_argument("--rows", default=",".join(ROWS), help="comma-separated, of: " + ", ".join(ROWS))
    r.add_argument("--workers", type=int, default=1)
    t = sub.add_parser("table", help="print the Markdown table")
    t.add_argument("directory", type=Path)
    t.add_argument("--before", type=Path)
    args = parser.parse_args()
    if args.what == "run":
        try:
            sys.exit(run(args.directory, args.seed, args.games, args.rows.split(","), args.workers))
        except KeyboardInterrupt:  # bench has said what it kept; no traceback over it
            sys.exit(130)
    else:
        print(table(args.directory, args.before))


if __name__ == "__main__":
    main()
