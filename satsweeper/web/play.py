"""A game in the browser, replayed from what the client sends.

The server keeps no games: a game is its :class:`Deal` (level, first-click
rule, no-guess or not, seed) and the moves made so far.  The layout is
drawn at the first opening, from the seed, exactly as
:meth:`satsweeper.game.Game.new` or :func:`satsweeper.puzzles.make_layout`
draw it, so the same request always replays the same game.  Layouts are
remembered in a small LRU store (a no-guess expert layout takes a while to
find); losing one costs time, never the game.

So the client holds the seed, and whoever reads the page's requests can
draw the layout too: this is a practice table and an analyser, not a
contest (a contest would keep the seed on the server, by game).

>>> deal = Deal("beginner", "safe", False, 7)
>>> game, _ = replay(deal, [("open", 4, 4)])
>>> game.outcome.value, (4, 4) in game.revealed
('playing', True)
"""

from __future__ import annotations

import random
from collections import OrderedDict
from dataclasses import dataclass

from ..board import Cell
from ..errors import SatsweeperError
from ..game import FirstClick, Game, Level, Outcome, neighbours

ACTIONS = ("open", "flag", "unflag", "chord")


@dataclass(frozen=True)
class Deal:
    """What fixes a game before its first click."""

    level: str
    rule: str = "safe"
    no_guess: bool = False
    seed: int = 0

    def parsed_level(self) -> Level:
        try:
            return Level.parse(self.level)
        except ValueError as err:
            raise SatsweeperError(str(err)) from None


class MoveError(SatsweeperError, ValueError):
    """A move that names no cell of the board or no known action."""


STORE = 256  # layouts remembered; the oldest is forgotten first
_layouts: OrderedDict[tuple[Deal, Cell], frozenset[Cell]] = OrderedDict()


def layout(deal: Deal, first: Cell) -> frozenset[Cell]:
    """The mines of the game ``deal`` after a first click on ``first`` (remembered)."""
    key = (deal, first)
    if key in _layouts:
        _layouts.move_to_end(key)
        return _layouts[key]
    mines = draw(deal, first)
    remember(deal, first, mines)
    return mines


def remembered(deal: Deal, first: Cell) -> frozenset[Cell] | None:
    """The layout kept for this deal and first click, if it is still kept."""
    return _layouts.get((deal, first))


def remember(deal: Deal, first: Cell, mines: frozenset[Cell]) -> None:
    _layouts[(deal, first)] = mines
    while len(_layouts) > STORE:
        _layouts.popitem(last=False)


def first_click(moves) -> Cell | None:
    """The cell of the first opening (where the layout is drawn), if any."""
    return next(((row, col) for action, row, col in moves if action == "open"), None)


def draw(deal: Deal, first: Cell) -> frozenset[Cell]:
    """Draw the layout from the seed, as ``satsweeper play``/``generate`` would."""
    level, rng, rule = deal.parsed_level(), random.Random(deal.seed), FirstClick(deal.rule)
    if deal.no_guess:
        from ..puzzles import Method, generate
        if rule is FirstClick.CAN_LOSE:
            raise SatsweeperError("a first-click rule that keeps the first click safe for a "
                                  "no-guess game (got can-lose)")
        return generate(level, first, rng, Method.PERTURB, rule).mines
    try:
        return Game.new(level, rng, first, rule).mines
    except ValueError as err:  # more mines than the first-click rule leaves room for
        raise SatsweeperError(f"{err} for the first click at {first[0]},{first[1]} "
                              f"({rule.value})") from None


def replay(deal: Deal, moves: list[tuple[str, int, int]],
           mines: frozenset[Cell] | None = None) -> tuple[Game, Cell | None]:
    """The game after ``moves``, and the cell that exploded (if it was lost).

    ``mines``: the layout, when already drawn for this deal and first click.

    Moves after the end of the game change nothing.

    Raises:
        MoveError: a move off the board or an unknown action.
    """
    level = deal.parsed_level()
    game: Game | None = None
    exploded = None
    for index, (action, row, col) in enumerate(moves):
        if action not in ACTIONS:
            raise MoveError(f"one of {', '.join(ACTIONS)} for move {index + 1} (got {action!r})")
        if not (0 <= row < level.height and 0 <= col < level.width):
            raise MoveError(f"a cell inside the {level.width}x{level.height} board for move "
                            f"{index + 1} (got {row},{col})")
        cell = (row, col)
        if game is None:
            if action != "open":
                continue  # flags before the first click: the layout is not drawn yet
            game = Game(level, mines if mines is not None else layout(deal, cell))
        if game.outcome is not Outcome.PLAYING:
            break
        exploded = _apply(game, action, cell) or exploded
    return (game or Game(level, frozenset())), exploded


def _apply(game: Game, action: str, cell: Cell) -> Cell | None:
    """Make one move; the mine opened if it loses."""
    if action == "flag":
        game.flag(cell)
        return None
    if action == "unflag":
        game.flags.discard(cell)
        return None
    targets = [cell]
    if action == "chord" or cell in game.revealed:
        targets = _chorded(game, cell)
    for target in targets:
        if game.open(target) is Outcome.LOST:
            return target
    return None


def _chorded(game: Game, cell: Cell) -> list[Cell]:
    """A revealed number with as many flags around it as it shows opens the
    rest of its neighbours (wrong flags lose, as in the classic game)."""
    if cell not in game.revealed:
        return [cell]
    around = neighbours(game.level, cell)
    if sum(n in game.flags for n in around) != game.revealed[cell]:
        return []
    return [n for n in around if n not in game.revealed and n not in game.flags]
