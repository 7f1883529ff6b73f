"""singlepoint.settled_moves: the single rules fed back into each other until nothing changes.
Oracles: brute force over every layout (what it settles is so in every explanation), a fixpoint
written apart (rules flagged on a board, one number at a time), and the example file's header."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

from satsweeper.board import Board
from satsweeper.constraints import problem_of
from satsweeper.singlepoint import obvious_moves, settled_moves
from satsweeper.textio import parse_board

ROOT = Path(__file__).resolve().parent.parent


def explanations(board: Board) -> list[frozenset]:
    hidden = [(r, c) for r in range(board.height) for c in range(board.width) if (r, c) not in board.clues]
    found = []
    for bits in itertools.product((0, 1), repeat=len(hidden)):
        mines = frozenset(c for c, b in zip(hidden, bits) if b)
        if board.total_mines is not None and len(mines) != board.total_mines:
            continue
        if all(sum((r + dr, c + dc) in mines for dr in (-1, 0, 1) for dc in (-1, 0, 1)) == n
               for (r, c), n in board.clues.items()):
            found.append(mines)
    return found


def flagging(board: Board) -> tuple[set, set]:
    """The single-number rules played on the grid, flag by flag, until stuck (no cell opened)."""
    safe, mines = set(), set()
    while True:
        before = (len(safe), len(mines))
        for (r, c), n in board.clues.items():
            around = {(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                      if (dr or dc) and 0 <= r + dr < board.height and 0 <= c + dc < board.width} - set(board.clues)
            unknown = around - safe - mines
            if unknown and n - len(around & mines) == 0:
                safe |= unknown
            elif unknown and n - len(around & mines) == len(unknown):
                mines |= unknown
        if (len(safe), len(mines)) == before:
            return safe, mines


def random_board(rng: random.Random) -> Board:
    h, w = rng.randint(2, 4), rng.randint(2, 4)
    cells = [(r, c) for r in range(h) for c in range(w)]
    layout = set(rng.sample(cells, rng.randint(1, len(cells) // 2)))
    shown = rng.sample([c for c in cells if c not in layout], rng.randint(1, len(cells) - len(layout)))
    clues = {(r, c): sum((r + dr, c + dc) in layout for dr in (-1, 0, 1) for dc in (-1, 0, 1)) for r, c in shown}
    return Board(h, w, clues)


def test_what_it_settles_is_so_in_every_explanation():
    rng, settled_more = random.Random(11), 0
    for _ in range(300):
        board = random_board(rng)
        safe, mines = settled_moves(problem_of(board))
        every = explanations(board)
        assert every and all(not (safe & m) and mines <= m for m in every)
        assert (safe, mines) == flagging(board)
        first = obvious_moves(problem_of(board))
        assert first[0] <= safe and first[1] <= mines
        settled_more += len(safe) + len(mines) > len(first[0]) + len(first[1])
    assert settled_more > 10  # the feeding back matters on these boards


def test_the_expert_example_header():
    """examples/expert.txt says single numbers settle 14 of its hidden cells."""
    board = parse_board((ROOT / "examples" / "expert.txt").read_text())
    safe, mines = settled_moves(problem_of(board))
    assert (len(safe), len(mines)) == (7, 7)
    assert (len(obvious_moves(problem_of(board))[0]), len(obvious_moves(problem_of(board))[1])) == (0, 4)
