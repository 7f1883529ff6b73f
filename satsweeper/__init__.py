"""satsweeper: Minesweeper reasoning with SAT and #SAT.

>>> from satsweeper import parse_board, solve, Status
>>> solve(parse_board("mines: 1\\n1..\\n")).status[(0, 2)] is Status.SAFE
True
"""

from .board import Board, Cell
from .constraints import Clue, Constraint, Problem, TotalMines, problem_of
from .encoding import CardinalityEncoding, Encoding
from .errors import BoardSyntaxError, CellError, SatsweeperError
from .reasoning import (Consistency, Move, Reasoner, Safety, Solution, Status, Uniqueness,
                        check, safety, solve, uniqueness)
from .textio import format_board, format_mine, parse_board, parse_mine, read_board, write_board

__all__ = [
    "Board", "Cell",
    "Clue", "Constraint", "Problem", "TotalMines", "problem_of",
    "CardinalityEncoding", "Encoding",
    "BoardSyntaxError", "CellError", "SatsweeperError",
    "Consistency", "Move", "Reasoner", "Safety", "Solution", "Status", "Uniqueness",
    "check", "safety", "solve", "uniqueness",
    "format_board", "format_mine", "parse_board", "parse_mine", "read_board", "write_board",
]
