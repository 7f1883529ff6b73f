"""Pictures of boards that look like Minesweeper (SVG or PNG).

Hidden squares are raised grey tiles, revealed squares flat with their
number in the usual colours (a 0 is left blank), flags drawn as flags, void
squares left out; named cells carry their name.  With probabilities, hidden
squares are coloured on a scale from green (safe) to red (a mine), with a
legend and the percentage on each; a cell safe in every explanation gets a
white ring on green, a colour the scale does not use (so it cannot be taken
for a revealed 0), a certain mine a drawn
mine.  ``marks`` outlines cells (the clues behind a move, a conflict, the
move itself) and ``mines`` draws an explanation's mines.

Boards too big to read square by square (compiled circuits) are drawn as an
overview, a dot of colour per square: wires and gates show as dark lines of
hidden squares on the light revealed background; probabilities colour the
dots on the same scale, and marks are rings around them.

SVG keeps text as ``<text>`` and is deterministic (no date, fixed ids).
Drawn with matplotlib (the ``experiments`` extra).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Mapping

from .board import Board, Cell

NUMBER_COLOURS = {1: "#0000ff", 2: "#007b00", 3: "#ff0000", 4: "#00007b",
                  5: "#7b0000", 6: "#007b7b", 7: "#000000", 8: "#7b7b7b"}
HIDDEN, REVEALED, LIGHT, SHADE, SAFE = "#bdbdbd", "#e8e8e8", "#ffffff", "#7b7b7b", "#2e9e4f"
MARK_COLOURS = {"move": "#d000d0", "reason": "#0060ff", "conflict": "#ff6000",
                "input": "#0050e0", "output": "#f08000"}  # a gadget's ports
# What the squares' drawing of a certain cell means, for captions (an overview says it in its key).
CERTAIN_KEY = "green with a ring: safe in every explanation; a drawn mine: a mine in every one"
OVERVIEW = 64  # a side longer than this: drawn as an overview (squares would be too small to read)
# A gadget's ports in an overview (Picture.marks "input", "output"), filled with the colours
# that outline them square by square; their names written in the same colours.
PORT_COLOURS = {kind: tuple(int(MARK_COLOURS[kind][i:i + 2], 16) / 255 for i in (1, 3, 5))
                for kind in ("input", "output")}
PORT_TEXT = {"input": MARK_COLOURS["input"], "output": "#c06000"}  # the orange darkened to read on white
PORT_KINDS = {"input": 5, "output": 6}
PIXELS = 1600  # longest side of an overview image; bigger boards are pooled into blocks
CELL_INCHES = 0.36
TEXT_INCHES = 3.2  # the least width of a figure with a title or caption
TITLE_CHAR_INCHES = 0.085  # about the widest average character of a 9 pt title (DejaVu Sans)
CAPTION_CHAR_INCHES = 0.07  # likewise at 7.5 pt
LEGEND_INCHES = 1.4  # the least height of the colour scale, its label's length


@dataclass(frozen=True)
class Picture:
    """What to draw over a board.

    Attributes:
        probabilities: hidden cell -> exact mine probability (colour scale).
        marks: cell -> kind of outline (``"move"``, ``"reason"``, ``"conflict"``).
        mines: cells to draw as mines (an explanation).
        title: a line above the board.
        caption: a line below it (a legend for the marks).
    """

    probabilities: Mapping[Cell, Fraction] | None = None
    marks: Mapping[Cell, str] = field(default_factory=dict)
    mines: frozenset[Cell] = frozenset()
    title: str | None = None
    caption: str | None = None


def render(board: Board, path: str, probabilities: Mapping[Cell, Fraction] | None = None,
           title: str | None = None, picture: Picture | None = None) -> None:
    """Draw ``board`` to ``path`` (``.svg`` or ``.png``, by its suffix)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    picture = picture or Picture(probabilities=probabilities, title=title)
    matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "satsweeper"})
    if max(board.height, board.width) > OVERVIEW:
        fig = _overview(board, picture, plt)
    else:
        fig = _squares(board, picture, plt)
    fig.savefig(path, metadata={"Date": None} if str(path).lower().endswith(".svg") else None,
                dpi=110)
    plt.close(fig)


def _squares(board: Board, picture: Picture, plt):
    from matplotlib.patches import Circle, Polygon, Rectangle
    probabilities = picture.probabilities or {}
    scale = _risk_scale()
    import textwrap
    legend = 1.3 if probabilities else 0
    # A small board's figure is narrower than its title and caption, which
    # were cut off at its edges: text sets a least width, and both wrap to it.
    width = board.width * CELL_INCHES + 0.7 + legend
    if picture.title or picture.caption:
        width = max(width, TEXT_INCHES)
    title = textwrap.wrap(picture.title or "", int((width - 0.2) / TITLE_CHAR_INCHES))
    caption = textwrap.wrap(picture.caption or "", int((width - 0.6) / CAPTION_CHAR_INCHES))
    squares = board.height * CELL_INCHES
    # The colour scale hangs from the board's top: room for it below a short
    # board, above the caption.
    hangs = max(0.0, LEGEND_INCHES - squares) if probabilities else 0.0
    below = 0.25 + hangs + (0.125 * len(caption) + 0.05 if caption else 0)
    above = 0.55 + 0.16 * max(len(title) - 1, 0)
    fig = plt.figure(figsize=(width, squares + below + above))
    ax = fig.add_axes([0.45 / fig.get_figwidth(), below / fig.get_figheight(),
                       board.width * CELL_INCHES / fig.get_figwidth(),
                       squares / fig.get_figheight()])
    font = 10 if board.width <= 40 else 7
    for r, c in board.cells():
        cell = (r, c)
        if cell in board.voids:
            continue
        x, y = c, board.height - 1 - r
        if cell in board.clues:
            ax.add_patch(Rectangle((x, y), 1, 1, facecolor=REVEALED, edgecolor="#a0a0a0", linewidth=0.6))
            number = board.clues[cell]
            if number:
                ax.text(x + .5, y + .47, str(number), ha="center", va="center", fontsize=font,
                        fontweight="bold", color=NUMBER_COLOURS[number], family="DejaVu Sans")
            continue
        p = probabilities.get(cell)
        face = HIDDEN if p is None else SAFE if p == 0 else scale(float(p))
        _tile(ax, x, y, face, Polygon, Rectangle)
        # A named square shares itself with its name: what is drawn on it goes smaller and
        # lower, the name on top (a name over a full-size mine was a 7 pt speck on a box).
        named = cell in board.names
        low = .34 if named else .5
        if cell in board.flags:
            _flag(ax, x, y, Polygon)
        elif cell in picture.mines and p is not None and 0 < p < 1 and not named:
            # An explanation's mine on the heat map keeps its chance beneath it (the mine
            # covered it, and render --probs --reason lost the percentages it drew).
            _mine(ax, x, y, Circle, .62, .64)
            ax.text(x + .5, y + .2, _percent(p), ha="center", va="center", fontsize=font - 5,
                    color="#ffffff" if p > Fraction(3, 5) else "#000000", family="DejaVu Sans")
        elif cell in picture.mines or p == 1:
            _mine(ax, x, y, Circle, .62 if named else 1.0, low)
        elif p == 0:
            ax.add_patch(Circle((x + .5, y + low), 0.24 * (.7 if named else 1), fill=False, edgecolor="#ffffff",
                                linewidth=2.0))
        elif p is not None:
            # as big as ">99%" fits in a square: the number a player reads first
            ax.text(x + .5, y + low, _percent(p), ha="center", va="center", fontsize=font - 2.5,
                    color="#ffffff" if p > Fraction(3, 5) else "#000000", family="DejaVu Sans")
        if named:  # centred on a plain tile, above anything else drawn on it
            plain = p is None and cell not in picture.mines and cell not in board.flags
            name = board.names[cell]
            # never below 6.5 pt: a port's name on a slide (4-6 pt read as specks on big gadgets)
            fits = font + 1 if len(name) <= 2 else font - 1.5 if len(name) <= 3 else font - 3
            size = max(6.5, fits if plain else fits - 1.5)
            ax.text(x + .5, y + (.5 if plain else .78), name, ha="center", va="center", fontsize=size,
                    style="italic", color="#000000", fontweight="bold",
                    # on a mine or a flag the name sits over the drawing: a pale box keeps it readable
                    bbox=None if plain else dict(facecolor="#ffffff", alpha=0.8, edgecolor="none", pad=0.6))
    for cell, kind in picture.marks.items():
        x, y = cell[1], board.height - 1 - cell[0]
        ax.add_patch(Rectangle((x + .06, y + .06), .88, .88, fill=False,
                               edgecolor=MARK_COLOURS.get(kind, "#000000"), linewidth=2.4))
    _axes(ax, board)
    if title:
        ax.set_title("\n".join(title), fontsize=9, pad=14, loc="left" if width > board.width * CELL_INCHES + 0.7 + legend else "center")
    if caption:
        fig.text(0.45 / fig.get_figwidth(), 0.08 / fig.get_figheight(), "\n".join(caption), fontsize=7.5,
                 va="bottom")
    if probabilities:
        _legend(fig, ax, scale, board)
    return fig


def _tile(ax, x, y, face, Polygon, Rectangle) -> None:
    """A raised square: light top-left bevel, dark bottom-right bevel."""
    b = 0.12
    ax.add_patch(Polygon([(x, y), (x, y + 1), (x + 1, y + 1), (x + 1 - b, y + 1 - b), (x + b, y + 1 - b),
                          (x + b, y + b)], closed=True, facecolor=LIGHT, edgecolor="none"))
    ax.add_patch(Polygon([(x, y), (x + 1, y), (x + 1, y + 1), (x + 1 - b, y + 1 - b), (x + 1 - b, y + b),
                          (x + b, y + b)], closed=True, facecolor=SHADE, edgecolor="none"))
    ax.add_patch(Rectangle((x + b, y + b), 1 - 2 * b, 1 - 2 * b, facecolor=face, edgecolor="none"))


def _flag(ax, x, y, Polygon) -> None:
    ax.add_patch(Polygon([(x + .52, y + .82), (x + .52, y + .48), (x + .24, y + .65)], closed=True,
                         facecolor="#e00000", edgecolor="none"))
    ax.plot([x + .52, x + .52], [y + .25, y + .82], color="#000000", linewidth=1.3)
    ax.add_patch(Polygon([(x + .3, y + .2), (x + .74, y + .2), (x + .68, y + .28), (x + .36, y + .28)],
                         closed=True, facecolor="#000000", edgecolor="none"))


def _mine(ax, x, y, Circle, size: float = 1.0, centre: float = .5) -> None:
    """A mine, ``size`` times the full one, its centre ``centre`` up the square."""
    cx, cy = x + .5, y + centre
    for dx, dy in ((.3, 0), (0, .3), (.21, .21), (.21, -.21)):
        ax.plot([cx - dx * size, cx + dx * size], [cy - dy * size, cy + dy * size], color="#000000",
                linewidth=1.2 * size)
    ax.add_patch(Circle((cx, cy), .2 * size, facecolor="#000000", edgecolor="none"))
    ax.add_patch(Circle((cx - .06 * size, cy + .06 * size), .05 * size, facecolor="#ffffff", edgecolor="none"))


def _percent(p: Fraction) -> str:
    value = float(p) * 100
    return "<1%" if value < 1 else ">99%" if value > 99 else f"{round(value)}%"


def _axes(ax, board: Board) -> None:
    ax.set_xlim(0, board.width)
    ax.set_ylim(0, board.height)
    ax.set_aspect("equal")
    step = 1 if board.width <= 40 else 5
    ax.set_xticks([c + .5 for c in range(0, board.width, step)], [str(c) for c in range(0, board.width, step)],
                  fontsize=6.5)
    ax.set_yticks([board.height - 1 - r + .5 for r in range(0, board.height, step)],
                  [str(r) for r in range(0, board.height, step)], fontsize=6.5)
    ax.xaxis.tick_top()
    ax.tick_params(length=0, pad=2)
    for spine in ax.spines.values():
        spine.set_visible(False)


def _legend(fig, ax, scale, board: Board) -> None:
    """The colour scale, with what the marks mean."""
    import matplotlib as mpl
    box = ax.get_position()
    height = min(max(box.height, LEGEND_INCHES / fig.get_figheight()), 2.6 / fig.get_figheight())
    cax = fig.add_axes([box.x1 + 0.25 / fig.get_figwidth(), box.y1 - height, 0.14 / fig.get_figwidth(), height])
    bar = fig.colorbar(mpl.cm.ScalarMappable(norm=mpl.colors.Normalize(0, 100), cmap=scale), cax=cax)
    bar.set_ticks([0, 25, 50, 75, 100], labels=["0%", "25%", "50%", "75%", "100%"])
    bar.ax.tick_params(labelsize=6.5, length=2)
    bar.set_label("mine probability", fontsize=7)


def _overview(board: Board, picture: Picture, plt):
    """One pixel per square (pooled into blocks on big boards, a block as dark
    as its darkest square so one-square wires stay visible): hidden squares
    dark blue, named inputs green, flags red, revealed numbers light grey,
    voids white.  With probabilities, hidden squares take the colour scale
    (a block its likeliest square's), certain-safe ones green, flags and
    certain mines black; marks (a move, its clues, a conflict) are rings
    around their squares, large enough to find on any board."""
    block = -(-max(board.height, board.width) // PIXELS)
    image = overview_image(board, picture, block)
    probabilities = bool(picture.probabilities)
    longest = max(board.width, board.height)
    inches = min(14.0, max(5.0, longest / 40))
    import textwrap
    bar = 0.9 if probabilities else 0.0  # inches at the right for the colour scale
    width = inches * board.width / longest + 0.6 + bar
    said = (picture.caption or "").replace(f"; {CERTAIN_KEY}", "").replace(CERTAIN_KEY, "")  # the key says it
    caption = textwrap.wrap(said, max(40, int(width * 15)))
    below = 0.45 + 0.13 * len(caption)  # inches for the legend's two lines and the caption's
    height = inches * board.height / longest + 0.55 + below
    fig = plt.figure(figsize=(width, height))
    ax = fig.add_axes([0.3 / width, below / height, (width - 0.6 - bar) / width, 1 - (below + 0.4) / height])
    ax.imshow(image, interpolation="nearest", aspect="equal")
    ax.set_xticks([])
    ax.set_yticks([])
    _overview_marks(ax, board, picture, block, inches / longest)
    title = picture.title or ""
    scale_said = f"a dot per {block}x{block} block" if block > 1 else "a dot per square"
    fig.suptitle(f"{title}{': ' if title else ''}{board.width}x{board.height} squares, {scale_said}", fontsize=8)
    if len(board.names) <= 40:  # the inputs by name, where they start
        for cell, name in board.names.items():
            kind = picture.marks.get(cell)
            # An explanation's ports' values are the point (a mine at a port is true).
            shown = f"{name}={int(cell in picture.mines)}" if picture.mines and kind in PORT_COLOURS else name
            # on a pale box: a name at the board's edge sat on the frame's line; left of the
            # cell, but right of it near the left edge ('b=0' at column 0 was cut off)
            left = cell[1] < board.width / 8
            ax.annotate(shown, (cell[1] / block, cell[0] / block), xytext=(6 if left else -6, 4),
                        textcoords="offset points", fontsize=9, color=PORT_TEXT.get(kind, "#0a6e0a"),
                        ha="left" if left else "right", fontweight="bold",
                        bbox=dict(facecolor="#ffffff", alpha=0.85, edgecolor="none", pad=0.8))
    fig.text(0.3 / width, 0.015, _overview_key(board, picture, probabilities)
             + "".join(f"\n{line}" for line in caption), fontsize=7)
    if probabilities:
        _legend(fig, ax, _risk_scale(), board)
    return fig


def overview_image(board: Board, picture: Picture, block: int = 1):
    """The overview's pixels, an RGB array of one pixel per ``block`` x ``block``
    squares (a block as dark as its darkest square, its likeliest with probabilities).

    >>> from fractions import Fraction
    >>> image = overview_image(Board(1, 3, {(0, 0): 1}), Picture(probabilities={(0, 1): Fraction(1), (0, 2): Fraction(0)}))
    >>> [tuple(round(float(v), 2) for v in image[0, c]) for c in range(3)]
    [(0.92, 0.92, 0.92), (0.1, 0.1, 0.1), (0.18, 0.62, 0.31)]
    """
    import numpy as np
    kinds = np.ones((board.height, board.width), dtype=np.uint8)  # revealed numbers
    for cell in board.voids:
        kinds[cell] = 0
    for cell in board.flags:
        kinds[cell] = 2
    for cell in board.hidden_cells():
        kinds[cell] = 3
    for cell in board.names:
        kinds[cell] = PORT_KINDS.get(picture.marks.get(cell), 4)
    risk = _overview_risk(board, picture.probabilities, block) if picture.probabilities else None
    if block > 1:
        rows, cols = -(-board.height // block) * block, -(-board.width // block) * block
        padded = np.zeros((rows, cols), dtype=np.uint8)
        padded[:board.height, :board.width] = kinds
        kinds = padded.reshape(rows // block, block, cols // block, block).max(axis=(1, 3))
    flag = (0.1, 0.1, 0.1) if risk is not None else (0.85, 0.1, 0.1)  # red is the scale's with probabilities
    # Beside an explanation's black mines the hidden squares go a paler blue (dark blue on black hid them).
    hidden = (0.55, 0.6, 0.9) if picture.mines and risk is None else (0.12, 0.12, 0.4)
    palette = np.array([(1, 1, 1), (0.92, 0.92, 0.92), flag, hidden,
                        (0.1, 0.65, 0.1), PORT_COLOURS["input"], PORT_COLOURS["output"]])
    image = palette[kinds]
    if risk is not None:
        scale = _risk_scale()
        known = ~np.isnan(risk) & (kinds < 5)  # ports keep their colour; a name says which square it is
        image[known] = scale(np.nan_to_num(risk[known]))[:, :3]
        image[known & (risk == 0)] = _rgb(SAFE)
        image[known & (risk == 1)] = (0.1, 0.1, 0.1)
    if picture.mines:  # an explanation's mines, black over the rest (a port's colour kept), as squares draw them
        mined = np.zeros((board.height, board.width), dtype=bool)
        for cell in picture.mines:
            mined[cell] = cell not in board.names or picture.marks.get(cell) not in PORT_COLOURS
        if block > 1:
            mined = np.pad(mined, ((0, kinds.shape[0] * block - board.height), (0, kinds.shape[1] * block - board.width)))
            mined = mined.reshape(kinds.shape[0], block, kinds.shape[1], block).any(axis=(1, 3))
        image[mined] = (0.0, 0.0, 0.0)
    return image


def _overview_risk(board: Board, probabilities: Mapping[Cell, Fraction], block: int):
    """Each hidden square's chance of a mine as a float grid (NaN elsewhere), pooled
    to the overview's blocks by their likeliest square (a mine is what to avoid)."""
    import numpy as np
    risk = np.full((board.height, board.width), np.nan)
    for cell, p in probabilities.items():
        risk[cell] = float(p)
    if block == 1:
        return risk
    rows, cols = -(-board.height // block) * block, -(-board.width // block) * block
    padded = np.full((rows, cols), np.nan)
    padded[:board.height, :board.width] = risk
    pooled = np.nan_to_num(padded, nan=-1.0).reshape(rows // block, block, cols // block, block).max(axis=(1, 3))
    pooled[pooled < 0] = np.nan  # a block with no hidden square
    return pooled


def _overview_marks(ax, board: Board, picture: Picture, block: int, inches_per_square: float) -> None:
    """The marks that are not ports, as square rings around their squares: a few (a
    move and its clues) at least 8 points across, so that they are found on a board of a
    million squares; many (where two explanations differ) just around their squares."""
    rings = [cell for cell, kind in picture.marks.items() if kind not in PORT_COLOURS]
    square = inches_per_square * 72 * block  # points
    side = max(8.0, 1.8 * square) if len(rings) <= 20 else max(2.0, 1.1 * square)
    for kind in ("reason", "conflict", "move"):  # the move drawn last, on top
        cells = [cell for cell, k in picture.marks.items() if k == kind]
        if cells:
            ax.scatter([c / block for _, c in cells], [r / block for r, _ in cells], s=side ** 2, marker="s",
                       facecolors="none", edgecolors=MARK_COLOURS.get(kind, "#000000"),
                       linewidths=1.6 if side >= 8 else 0.8, clip_on=False)  # a ring at the edge whole


def _overview_key(board: Board, picture: Picture, probabilities: bool) -> str:
    """The overview's key: what each colour is (wires and names only where the board has names)."""
    ports = {picture.marks.get(cell) for cell in board.names} & set(PORT_COLOURS)
    green = "" if probabilities else "; green: named cells"  # with probabilities they take the scale
    named = ("; blue: inputs; orange: outputs" + ("" if len(ports) == len(board.names) else green)
             if ports else green if board.names else "")
    values = "; port=1: a mine there (true)" if picture.mines and ports else ""
    if probabilities:
        first = "hidden squares by their chance of a mine (the scale); green: safe in every explanation"
        second = "black: flags and certain mines"
    else:
        first = ("light blue" if picture.mines else "dark blue") + ": hidden squares" + (" (wires and gates)" if board.names else "")
        second = "red: flags"
    if picture.mines:
        second += "; black: the explanation's mines"
    # What a ring means is the caption's to say (a move, its clues, a second explanation's cells).
    return f"{first}{named};\n{second}; grey: revealed numbers{values}"


def _risk_scale():
    """Pale yellow (unlikely) to dark red (likely): certain-safe cells are
    green, a colour the scale never uses, so they stand out."""
    from matplotlib.colors import LinearSegmentedColormap
    return LinearSegmentedColormap.from_list("risk", ["#fff5c0", "#fdae61", "#e0402a", "#8b0000"])


def _rgb(colour: str) -> tuple:
    return tuple(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
