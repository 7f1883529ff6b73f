"""scripts/second_guess.py: the games it keeps are those whose corner shows the number, and a
forced first guess is that game's only change (oracle: play() with best, and the game itself)."""

from __future__ import annotations

import random

from satsweeper.experiments import play
from satsweeper.game import FirstClick, Game, Level, Placement
from scripts import second_guess

LEVEL = Level(9, 9, 10)


class Recorder(second_guess.Forced):
    """Forced, keeping every decision it made."""

    def __init__(self, cell, number):
        super().__init__(cell, number)
        self.made = []

    def decide(self, board, rng):
        decision = super().decide(board, rng)
        self.made.append((dict(board.clues), decision))
        return decision


def shown_at_corner(index: int) -> int:
    game = Game.new(LEVEL, random.Random(f"5:{index}"), (0, 0), FirstClick.SAFE, Placement.SAMPLE)
    game.open((0, 0))
    return game.revealed[(0, 0)]


def test_the_corner_number_is_the_one_the_game_shows():
    assert [second_guess.corner_number(LEVEL, 5, i) for i in range(40)] == [shown_at_corner(i) for i in range(40)]


def test_nothing_forced_plays_as_best():
    games = [i for i in range(60) if second_guess.corner_number(LEVEL, 5, i) == 1]
    assert len(games) >= 10
    forced = [second_guess.one((LEVEL, 5, i, None, 1)) for i in games]
    assert forced == [play(LEVEL, "best", f"5:{i}").won for i in games]


def test_the_forced_cell_is_the_first_guess_at_that_position_only():
    games = [i for i in range(40) if second_guess.corner_number(LEVEL, 5, i) == 1][:5]
    for i in games:
        player = Recorder((8, 8), 1)
        play(LEVEL, "best", f"5:{i}", player=player)
        guesses = [(clues, d) for clues, d in player.made if d.guess]
        assert guesses[0] == ({(0, 0): 1}, guesses[0][1]) and guesses[0][1].opens == ((8, 8),)
        assert all(d.basis != "forced" for _, d in guesses[1:])
    # a game whose corner shows 0 is never forced
    other = next(i for i in range(40) if second_guess.corner_number(LEVEL, 5, i) == 0)
    player = Recorder((8, 8), 1)
    play(LEVEL, "best", f"5:{other}", player=player)
    assert all(d.basis != "forced" for _, d in player.made)


def test_candidates_are_one_per_mirror_class():
    cells = second_guess.candidates(LEVEL)
    assert len(cells) == 45 - 3  # the cells on and above the diagonal, less the corner and its two
    assert (8, 8) in cells and (8, 0) not in cells and (0, 8) in cells
    assert len(second_guess.candidates(Level(30, 16, 99))) == 30 * 16 - 4  # no mirror fixes the corner
