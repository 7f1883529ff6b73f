"""Hypothesis strategies: small boards made from real mine layouts.

A board is drawn as a layout (where the mines are), a set of revealed cells
showing their true numbers, some correct flags and some void squares; so it is
consistent by construction.  ``perturbed`` boards change one number (or the
total) and may become inconsistent: the tests then compare with the oracle.
"""

from __future__ import annotations

from hypothesis import strategies as st

from satsweeper.board import Board

MAX_HIDDEN = 16


@st.composite
def boards(draw, perturb: bool | None = None, max_hidden: int = MAX_HIDDEN) -> Board:
    height = draw(st.integers(1, 6))
    width = draw(st.integers(1, 7))
    cells = [(r, c) for r in range(height) for c in range(width)]
    voids = {c for c in cells if draw(st.integers(0, 9)) == 0}
    squares = [c for c in cells if c not in voids]
    mines = {c for c in squares if draw(st.integers(0, 99)) < draw(st.sampled_from([15, 25, 40]))}
    safe = [c for c in squares if c not in mines]
    reveal_percent = draw(st.sampled_from([30, 50, 70]))
    revealed = {c for c in safe if draw(st.integers(0, 99)) < reveal_percent}
    flags = {c for c in mines if draw(st.integers(0, 3)) == 0}
    # Keep the oracle fast: reveal more until few cells are hidden.
    hidden = [c for c in squares if c not in revealed and c not in flags]
    while len(hidden) > max_hidden:
        pick = hidden.pop(draw(st.integers(0, len(hidden) - 1)))
        (flags if pick in mines else revealed).add(pick)
    board_cells = set(squares)

    def number(cell):
        r, c = cell
        return sum((r + dr, c + dc) in mines for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                   if (dr, dc) != (0, 0) and (r + dr, c + dc) in board_cells)

    clues = {c: number(c) for c in revealed}
    total = len(mines) if draw(st.booleans()) else None
    board = Board(height, width, clues, frozenset(flags), frozenset(voids), total_mines=total)
    if perturb is None:
        perturb = draw(st.integers(0, 3)) == 0
    if perturb:
        board = draw(_perturbed(board))
    return board


@st.composite
def _perturbed(draw, board: Board) -> Board:
    """Change one clue (within its neighbourhood) or the total."""
    targets = sorted(board.clues)
    if board.total_mines is not None:
        targets.append(None)
    if not targets:
        return board
    target = draw(st.sampled_from(targets))
    if target is None:
        squares = sum(1 for c in board.cells() if board.contains(c))
        total = draw(st.integers(0, squares))
        return Board(board.height, board.width, board.clues, board.flags, board.voids,
                     board.names, total)
    clues = dict(board.clues)
    clues[target] = draw(st.integers(0, len(board.neighbours(target))))
    return Board(board.height, board.width, clues, board.flags, board.voids,
                 board.names, board.total_mines)
