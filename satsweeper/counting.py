"""#CONSISTENCY and exact mine probabilities: the public face of counting.

Two engines give the same exact answers:

* ``components`` (default): boxes, components and frontier dynamic
  programming (:mod:`satsweeper.components`); fast on real positions.
  :func:`tally` of a :class:`~satsweeper.board.Board` of at most 4096
  squares counts straight from its grid (:mod:`satsweeper.bitboard`, the
  same DP on whole-board ints) when it can be, with no rules made;
  :func:`count`, and a :class:`~satsweeper.constraints.Problem`, always go
  through :mod:`satsweeper.components`.
* ``ganak``: the Ganak model counter on CNF, projected onto the cell
  variables (:mod:`satsweeper.modelcount`); general and slower.

Who answers what (so that a change is tried where it runs): the commands
``probs`` and ``solve`` (and :func:`satsweeper.reasoning.solve`) on a board
read from text go through :mod:`satsweeper.bitboard`, falling back to
:mod:`satsweeper.components` on a board it cannot take; every strategy's
moves, ``hint`` and the look-ahead use :class:`satsweeper.components.Components`
on the position's rules (a strategy's check that its board is consistent,
``check_consistency``, is a :func:`tally` of the board, so the bitboard's); ``--engine ganak`` uses :mod:`satsweeper.modelcount`.

``order`` suggests in which order the component engine should take the
cells (see :func:`satsweeper.components.tally`); the answer is the same.

With a total mine count every explanation of the whole board counts once;
without one every unknown cell is free (floating cells double the count).
"""

from __future__ import annotations

import enum
from typing import Hashable, Sequence

from . import bitboard, components
from .board import Board
from .constraints import Problem, problem_of
from .errors import InputError
from .tally import Tally


class Engine(enum.Enum):
    """Which counter answers."""

    COMPONENTS = "components"
    GANAK = "ganak"


def _check_engine(engine) -> None:
    """A plain "ganak" was answered by the components engine, silently."""
    if not isinstance(engine, Engine):
        raise InputError(f"an Engine, Engine.COMPONENTS or Engine.GANAK (got {engine!r})")


def tally(subject: Problem | Board, engine: Engine = Engine.COMPONENTS,
          flags_are_mines: bool = True, order: Sequence[Hashable] | None = None) -> Tally:
    """Exact counts: explanations in all and per cell.

    >>> from satsweeper.textio import parse_board
    >>> t = tally(parse_board("mines: 1\\n1..\\n"))
    >>> t.count, t.probability((0, 1)), t.probability((0, 2))
    (1, Fraction(1, 1), Fraction(0, 1))
    """
    _check_engine(engine)
    if engine is Engine.COMPONENTS and isinstance(subject, Board) and flags_are_mines and order is None:
        counted = bitboard.tally(subject)  # a small board straight from its grid, no rule objects
        if counted is not None:
            return counted
    problem = subject if isinstance(subject, Problem) else problem_of(subject, flags_are_mines)
    if engine is Engine.GANAK:
        from . import modelcount  # pysat and Ganak load only for this engine
        return modelcount.tally(problem)
    return components.tally(problem, order=order)


def count(subject: Problem | Board, engine: Engine = Engine.COMPONENTS,
          flags_are_mines: bool = True, order: Sequence[Hashable] | None = None) -> int:
    """#CONSISTENCY: the number of explanations.

    >>> from satsweeper.textio import parse_board
    >>> count(parse_board("1.\\n..\\n"))  # one mine among three cells
    3
    """
    _check_engine(engine)
    if engine is Engine.COMPONENTS:
        problem = subject if isinstance(subject, Problem) else problem_of(subject, flags_are_mines)
        return components.count(problem, order)
    return tally(subject, engine, flags_are_mines, order).count
