"""Pictures of boards (SVG or PNG), so gadget figures can be looked at.

Hidden squares are grey, revealed ones white with their number in the usual
colours, flags red, void squares left out; named cells show their name.
With probabilities, hidden squares are shaded from white (safe) to red (a
mine) and carry their percentage.  Drawn with matplotlib (the
``experiments`` extra); the format follows the file name.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from .board import Board, Cell

NUMBER_COLOURS = {1: "#0000ff", 2: "#008000", 3: "#ff0000", 4: "#000080",
                  5: "#800000", 6: "#008080", 7: "#000000", 8: "#808080", 0: "#b0b0b0"}


def render(board: Board, path: str, probabilities: Mapping[Cell, Fraction] | None = None,
           title: str | None = None) -> None:
    """Draw ``board`` to ``path`` (``.svg`` or ``.png``)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    size = 0.45
    fig, ax = plt.subplots(figsize=(max(2.0, board.width * size + 0.8), max(1.5, board.height * size + 0.8)))
    for r, c in board.cells():
        cell = (r, c)
        if cell in board.voids:
            continue
        x, y = c, board.height - 1 - r
        if cell in board.clues:
            ax.add_patch(Rectangle((x, y), 1, 1, facecolor="white", edgecolor="#999999"))
            number = board.clues[cell]
            ax.text(x + .5, y + .5, str(number), ha="center", va="center", fontsize=11,
                    fontweight="bold", color=NUMBER_COLOURS[number])
            continue
        shade = "#c8c8c8"
        if probabilities is not None and cell in probabilities:
            p = float(probabilities[cell])
            shade = (1.0, 1 - 0.85 * p, 1 - 0.85 * p)
        ax.add_patch(Rectangle((x, y), 1, 1, facecolor=shade, edgecolor="#808080"))
        if cell in board.flags:
            ax.text(x + .5, y + .5, "F", ha="center", va="center", fontsize=11, fontweight="bold", color="red")
        elif probabilities is not None and cell in probabilities:
            ax.text(x + .5, y + .5, f"{round(100 * float(probabilities[cell]))}", ha="center",
                    va="center", fontsize=7)
        if cell in board.names:
            ax.text(x + .5, y + .82, board.names[cell], ha="center", va="center", fontsize=7,
                    style="italic", color="#303030")
    ax.set_xlim(0, board.width)
    ax.set_ylim(0, board.height)
    ax.set_aspect("equal")
    ax.set_xticks([c + .5 for c in range(board.width)], [str(c) for c in range(board.width)], fontsize=6)
    ax.set_yticks([board.height - 1 - r + .5 for r in range(board.height)],
                  [str(r) for r in range(board.height)], fontsize=6)
    ax.tick_params(length=0)
    if title:
        ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
