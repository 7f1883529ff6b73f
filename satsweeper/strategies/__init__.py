"""Strategies: players that see only the player's board.

A strategy looks at a :class:`~satsweeper.board.Board` (revealed numbers, its
own flags, the total mine count; never the layout) and returns a
:class:`Decision`: moves it is sure of, or one guess.  The game
(:mod:`satsweeper.game`) owns the truth and the experiment runner
(:mod:`satsweeper.experiments`) applies the moves.  A class of your own with
a ``name`` and a ``decide`` is a strategy too: pass the class where a
strategy's name goes (``experiments.run(level, MyPlayer, 1000)``), or its
name ``MODULE:CLASS`` where only a name can go (the command line, a journal).

A built-in strategy has no move on a position no layout explains: its
``decide`` raises :class:`~satsweeper.errors.InconsistentError` naming the
clues that conflict.  It checks by counting first, unless
``check_consistency`` is off (:func:`strategy`): a game's own positions,
which its layout explains, need no check, and the cheap players (the check
costs basic three times its own time) stay cheap where they play games.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from ..board import Board, Cell
from ..errors import InconsistentError, InputError
from ..constraints import Positions, Problem, problem_of
from ..components import Components
from ..singlepoint import obvious_moves, pair_moves
from ..tally import Shared, Tally


@dataclass(frozen=True)
class Decision:
    """What a strategy does next: sure moves, or one guess (an open).

    A guess may say why it was chosen (``basis``: ``"endgame"``, ``"corner"``,
    ``"corner-yield"``, ``"pseudo-50/50"``, ``"look-ahead"``, ``"safest"``, ...) and
    what that basis scored (``value``: a chance of winning the game, of surviving two
    moves, ...);
    :mod:`satsweeper.hint` shows both to the player.
    """

    opens: tuple[Cell, ...] = ()
    flags: tuple[Cell, ...] = ()
    guess: bool = False
    basis: str = ""
    value: Fraction | None = None


class Strategy(Protocol):
    """Anything with a name and a ``decide`` method."""

    name: str

    def decide(self, board: Board, rng: random.Random) -> Decision:
        """The next moves on ``board``; ``rng`` breaks ties and picks guesses.

        ``board`` has a hidden cell (else :class:`~satsweeper.errors.InputError`)
        and some layout explains it (else a built-in strategy raises
        :class:`~satsweeper.errors.InconsistentError`).
        """


def check_explained(board: Board) -> None:
    """Raise :class:`~satsweeper.errors.InconsistentError`, naming the clues that
    conflict, unless some layout explains ``board``.

    >>> from satsweeper.textio import parse_board
    >>> check_explained(parse_board("12\\n..\\n"))
    Traceback (most recent call last):
    ...
    satsweeper.errors.InconsistentError: a position some layout explains (got one where the 1 at 0,0 and the 2 at 0,1 cannot all hold)
    """
    from ..counting import tally
    if not tally(board).consistent:  # a small board straight from its grid
        raise inconsistent(problem_of(board))


def inconsistent(problem: Problem) -> InconsistentError:
    """The error for ``problem``, known to have no explanation: counting cannot
    name the clues that conflict, SAT does (as :func:`satsweeper.hint.hint`)."""
    from ..reasoning import Reasoner
    with Reasoner(problem) as reasoner:
        return InconsistentError(reasoner.consistency().conflict)


def obvious_decision(problem: Problem) -> Decision | None:
    """The single-number rules' sure moves, or None if they have none."""
    safe, mines = obvious_moves(problem)
    if safe or mines:
        return Decision(opens=tuple(sorted(safe)), flags=tuple(sorted(mines)))
    return None


def certain_decision(board: Board, positions: Positions | None = None
                     ) -> tuple[Decision | None, Problem, Tally | None, Components | None]:
    """Sure moves from the single-number rules, else the pair rule, else exact counting.

    ``positions`` (one per game) rebuilds the problem incrementally.
    Returns (decision or None, the board's problem, its exact counts and
    the components that gave them, when they were computed): a strategy
    that must guess reuses both.
    """
    problem = positions.problem(board) if positions else problem_of(board)
    obvious = obvious_decision(problem)
    if obvious:
        return obvious, problem, None, None
    # Two nested numbers often settle what a full count would: the same
    # sure moves end up played before any guess, only in another order.
    safe, mines = pair_moves(problem)
    if safe or mines:
        return Decision(opens=tuple(sorted(safe)), flags=tuple(sorted(mines))), problem, None, None
    components = Components(problem)
    counts = components.tally()
    if not counts.consistent:
        raise inconsistent(problem)
    values, whole = counts.scaled_mines, counts.scaled_count
    if isinstance(values, Shared):  # a big board's floating cells share a value: asked once, not a cell at a time
        safe, mines = tuple(values.where(lambda m: m == 0)), tuple(values.where(lambda m: m == whole))
    else:
        safe = tuple(c for c, m in values.items() if m == 0)
        mines = tuple(c for c, m in values.items() if m == whole)
    return (Decision(opens=safe, flags=mines) if safe or mines else None), problem, counts, components


def guess_uniformly(board: Board, rng: random.Random) -> Decision:
    """Open a hidden, unflagged cell chosen uniformly at random (basis ``"random"``:
    a hint must not call it the safest cell when it merely ties with it)."""
    hidden = board.hidden_cells()
    if not hidden:
        raise nothing_hidden()
    return Decision(opens=(rng.choice(hidden),), guess=True, basis="random")


def nothing_hidden() -> InputError:
    """What ``decide`` raises on a board with no hidden cell (a finished game): it was an
    IndexError or a ValueError from ``min`` (:func:`~satsweeper.hint.hint` answers no cell)."""
    return InputError("a board with a hidden cell to move on (got none: every square is open or flagged)")


def strategy(name: str, check_consistency: bool = True) -> Strategy:
    """The strategy called ``name`` (see :data:`NAMES`), or a player of your own named
    ``MODULE:CLASS`` (:func:`own_player`).

    ``check_consistency``: its ``decide`` first checks that some layout
    explains the board (else :class:`~satsweeper.errors.InconsistentError`);
    off for boards known to be explained, a game's own positions.

    >>> strategy("basic").name
    'basic'
    >>> strategy("satsweeper.strategies.exact:ExactProbability").name
    'exact'
    """
    from . import basic, best, exact, limited, randomplay, single  # imported here: they import this module
    table = {"random": randomplay.RandomPlay, "basic": basic.BasicStrategy,
             "single-point": single.SinglePoint,
             "limited": limited.LimitedSearch, "limited-prob": limited.LimitedSearchWithProbabilities,
             "exact": exact.ExactProbability, "best": best.Best}
    if isinstance(name, str) and ":" in name:
        maker = own_player(name)
    elif name in table:
        maker = table[name]
    else:
        raise InputError(f"a strategy among {', '.join(NAMES)}, or MODULE:CLASS (got {name!r})")
    try:
        player = maker()
    except Exception as err:  # a player of one's own that fails to start: its error, named
        raise InputError(f"a player {name} that starts (got {type(err).__name__}: {err})") from err
    if not callable(getattr(player, "decide", None)):
        raise InputError(f"a player with a decide(board, rng) method (got {name}, a {type(player).__name__})")
    if hasattr(player, "check_consistency") or maker in table.values():
        player.check_consistency = check_consistency
    return player


def own_player(name: str) -> type:
    """The class ``MODULE:CLASS`` names: a player of your own, given by name where only a
    name can go (``satsweeper bench --strategy myplayers:Safest``, a journal, another
    process).  The module is imported as ``python -m`` would find it, the current
    directory first (as uvicorn finds ``module:app``).

    >>> own_player("satsweeper.strategies.exact:ExactProbability").__name__
    'ExactProbability'
    >>> own_player("no_such_module_here:Player")
    Traceback (most recent call last):
    ...
    satsweeper.errors.InputError: a player MODULE:CLASS importable from here (got 'no_such_module_here:Player': No module named 'no_such_module_here')
    """
    import importlib
    import os
    import sys
    module_name, _, attribute = name.partition(":")
    if not module_name or not attribute:
        raise InputError(f"a player MODULE:CLASS, both named (got {name!r})")
    here = os.getcwd()
    if here not in sys.path:
        sys.path.insert(0, here)
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise InputError(f"a player MODULE:CLASS importable from here (got {name!r}: {err})") from None
    except Exception as err:  # noqa: BLE001 - the player's module itself fails: say how, not a traceback
        raise InputError(f"a player module that imports (got {module_name}: {type(err).__name__}: {err})") from err
    found = module
    for part in attribute.split("."):
        found = getattr(found, part, None)
    if not callable(found):
        raise InputError(f"a player class {attribute} in {module_name} (got {'none' if found is None else type(found).__name__})")
    return found


NAMES = ("random", "single-point", "basic", "limited", "limited-prob", "exact", "best")
