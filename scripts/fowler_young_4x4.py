"""Fowler and Young's experiment: Basic Strategy vs Perimeter Strategy on 4x4 boards.

1000 games for every mine count (the first click, at a random square, never
loses), BS = ``basic`` and PS = ``exact`` (perimeter probabilities, done
exactly).  Writes a PNG of wins against mines and prints the table and the
ratio of PS wins to BS wins (Fowler and Young report "about 4 times" on average).
With a safe first click 16 mines cannot be placed, so counts go to 15.

    python scripts/fowler_young_4x4.py --games 1000 --plot docs/fowler-young-4x4.png
"""

from __future__ import annotations

import click

from satsweeper.experiments import run
from satsweeper.game import FirstClick, Level


@click.command()
@click.option("--games", default=1000, show_default=True)
@click.option("--seed", default=0, show_default=True)
@click.option("--workers", default=2, show_default=True)
@click.option("--plot", "plot_path", default="fowler-young-4x4.png", show_default=True)
def main(games: int, seed: int, workers: int, plot_path: str) -> None:
    rows = []
    print(f"{'mines':>5} {'BS wins':>8} {'PS wins':>8} {'PS/BS':>7}")
    for mines in range(0, 16):
        level = Level(4, 4, mines)
        bs = run(level, "basic", games, seed, FirstClick.SAFE, None, workers).wins
        ps = run(level, "exact", games, seed, FirstClick.SAFE, None, workers).wins
        rows.append((mines, bs, ps))
        ratio = f"{ps / bs:.2f}" if bs else "-"
        print(f"{mines:>5} {bs:>8} {ps:>8} {ratio:>7}", flush=True)
    ratios = [ps / bs for _, bs, ps in rows if bs]
    print(f"total wins: BS {sum(r[1] for r in rows)}, PS {sum(r[2] for r in rows)}; "
          f"PS/BS over all games {sum(r[2] for r in rows) / sum(r[1] for r in rows):.2f}, "
          f"mean of per-count ratios {sum(ratios) / len(ratios):.2f}")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot([r[0] for r in rows], [r[1] / games for r in rows], "o-", label="Basic Strategy")
    ax.plot([r[0] for r in rows], [r[2] / games for r in rows], "s-", label="Perimeter Strategy (exact)")
    ax.set_xlabel("mines on a 4x4 board")
    ax.set_ylabel("win rate")
    ax.set_title(f"Fowler & Young's experiment, {games} games per count")
    ax.legend()
    fig.tight_layout()
    fig.savefig(plot_path, dpi=120)
    print(f"plot written to {plot_path}")


if __name__ == "__main__":
    main()
