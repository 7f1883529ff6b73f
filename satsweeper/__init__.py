"""satsweeper: Minesweeper reasoning with SAT and #SAT.

>>> from satsweeper import parse_board, solve, Status
>>> solve(parse_board("mines: 1\\n1..\\n")).status[(0, 2)] is Status.SAFE
True
"""

from .board import Board, Cell
from .constraints import Clue, Constraint, Problem, TotalMines, problem_of
from .encoding import CardinalityEncoding, Encoding
from .errors import BoardSyntaxError, CellError, InputError, SatsweeperError, TooComplexError
from .reasoning import (Consistency, Move, Reasoner, Safety, Solution, Status, Uniqueness,
                        check, safety, solve, uniqueness)
from .counting import Engine, count, tally
from .puzzles import Method, NoGuess, generate, guess_odds, no_guess, three_bv
from .difficulty import Grade, Rung, grade
from .tally import Tally
from .textio import (Puzzle, format_board, format_mine, load, read_any, parse_board, parse_mine, parse_puzzle,
                     read_board, read_puzzle, write_board)

__all__ = [
    "Board", "Cell",
    "Clue", "Constraint", "Problem", "TotalMines", "problem_of",
    "CardinalityEncoding", "Encoding",
    "BoardSyntaxError", "CellError", "InputError", "SatsweeperError", "TooComplexError",
    "Consistency", "Move", "Reasoner", "Safety", "Solution", "Status", "Uniqueness",
    "check", "safety", "solve", "uniqueness",
    "Engine", "Tally", "count", "tally",
    "Method", "NoGuess", "generate", "guess_odds", "no_guess", "three_bv",
    "Grade", "Rung", "grade",
    "Puzzle", "format_board", "format_mine", "load", "read_any", "parse_board", "parse_mine", "parse_puzzle",
    "read_board", "read_puzzle", "write_board",
]
