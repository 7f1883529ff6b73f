"""satsweeper: Minesweeper reasoning with SAT and #SAT.

>>> from satsweeper import parse_board, solve, Status
>>> solve(parse_board("mines: 1\\n1..\\n")).status[(0, 2)] is Status.SAFE
True

A game's successive positions cost only what each move changed: one
:class:`Positions` per game rebuilds the rules of the numbers next to the
new squares and answers the same problem as :func:`problem_of`.

>>> from satsweeper import Board, Positions, problem_of, tally
>>> positions = Positions()
>>> before = Board(1, 4, {}, total_mines=1)
>>> after = Board(1, 4, {(0, 0): 1}, total_mines=1)      # one move later
>>> [str(tally(positions.problem(b)).probability((0, 3))) for b in (before, after)]
['1/4', '0']
>>> positions.problem(after) == problem_of(after)
True

Names are imported on first use (PEP 562), so importing the package
loads none of its modules and ``python -m satsweeper`` only what its
command needs.  ``tally`` is also a submodule's name; it stays the function
whichever module was imported first.

>>> import satsweeper.tally, satsweeper.counting
>>> satsweeper.tally is satsweeper.counting.tally
True
"""

import sys as _sys
from importlib import import_module as _import_module
from types import ModuleType as _ModuleType


class _Package(_ModuleType):
    """This package's module object: importing the submodule ``tally`` does not
    bind it over the function ``tally``.

    The import system binds each submodule as an attribute of its package;
    the function of the same name is found by :func:`__getattr__` when
    first asked for.  Binding it at once instead would import the counting
    engine with the package, and the console script imports the package
    before :func:`satsweeper.__main__.run` can catch a Ctrl-C.
    """

    def __setattr__(self, name: str, value) -> None:
        if name == "tally" and isinstance(value, _ModuleType):
            return
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package

# public name -> the module that defines it
_HOME = {
    "Board": "board", "Cell": "board",
    "Clue": "constraints", "Constraint": "constraints", "Positions": "constraints", "Problem": "constraints",
    "TotalMines": "constraints", "problem_of": "constraints",
    "CardinalityEncoding": "encoding", "Encoding": "encoding",
    "BoardSyntaxError": "errors", "CellError": "errors", "InconsistentError": "errors", "InputError": "errors",
    "SatsweeperError": "errors", "TooComplexError": "errors",
    "Consistency": "reasoning", "Move": "reasoning", "Reasoner": "reasoning", "Safety": "reasoning",
    "Solution": "reasoning", "Status": "reasoning", "Uniqueness": "reasoning", "check": "reasoning",
    "safety": "reasoning", "solve": "reasoning", "uniqueness": "reasoning",
    "Engine": "counting", "count": "counting", "tally": "counting",
    "Method": "puzzles", "NoGuess": "puzzles", "generate": "puzzles", "guess_odds": "puzzles",
    "no_guess": "puzzles", "three_bv": "puzzles",
    "Grade": "difficulty", "Rung": "difficulty", "grade": "difficulty",
    "Tally": "tally",
    "Puzzle": "textio", "format_board": "textio", "format_mine": "textio", "load": "textio",
    "read_any": "textio", "parse_board": "textio", "parse_mine": "textio", "parse_puzzle": "textio",
    "read_board": "textio", "read_puzzle": "textio", "write_board": "textio",
}

__all__ = [
    "Board", "Cell",
    "Clue", "Constraint", "Positions", "Problem", "TotalMines", "problem_of",
    "CardinalityEncoding", "Encoding",
    "BoardSyntaxError", "CellError", "InconsistentError", "InputError", "SatsweeperError", "TooComplexError",
    "Consistency", "Move", "Reasoner", "Safety", "Solution", "Status", "Uniqueness",
    "check", "safety", "solve", "uniqueness",
    "Engine", "Tally", "count", "tally",
    "Method", "NoGuess", "generate", "guess_odds", "no_guess", "three_bv",
    "Grade", "Rung", "grade",
    "Puzzle", "format_board", "format_mine", "load", "read_any", "parse_board", "parse_mine", "parse_puzzle",
    "read_board", "read_puzzle", "write_board",
]


def __getattr__(name: str):
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'satsweeper' has no attribute {name!r}")
    value = getattr(_import_module(f".{home}", __name__), name)
    globals()[name] = value  # the next look-up is a plain global
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
