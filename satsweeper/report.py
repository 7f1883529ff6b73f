"""Answers as text for people and as JSON-ready dicts for programs.

The library returns values (:mod:`satsweeper.reasoning`); this module turns
them into words and pictures, and the CLI only prints what it returns.
"""

from __future__ import annotations

from typing import Hashable, Iterable

from .board import Board
from .constraints import Clue, TotalMines
from .reasoning import Consistency, Move, Safety, Solution, Status, Uniqueness
from .textio import format_grid

MINE_MARK = "*"
STATUS_MARK = {Status.SAFE: "o", Status.MINE: "*", Status.UNKNOWN: "?"}


def cell_json(board: Board, cell: Hashable) -> dict:
    """A cell as ``{"row", "col"}`` plus ``"name"`` when it has one."""
    out = {"row": cell[0], "col": cell[1]}
    if cell in board.names:
        out["name"] = board.names[cell]
    return out


def origin_json(origin: Hashable) -> dict:
    """A rule's origin (a clue, the total, or anything else) as a dict."""
    if isinstance(origin, Clue):
        return {"kind": "clue", "row": origin.cell[0], "col": origin.cell[1], "number": origin.number}
    if isinstance(origin, TotalMines):
        return {"kind": "total", "mines": origin.mines}
    return {"kind": "rule", "text": str(origin)}


def join_words(items: Iterable) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    words = [str(i) for i in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def conflict_text(conflict: tuple) -> str:
    """The sentence that names a minimal conflict."""
    if len(conflict) == 1:
        return f"inconsistent: {conflict[0]} cannot hold"
    return f"inconsistent: {join_words(conflict)} cannot all hold"


def explanation_picture(board: Board, mines: frozenset) -> str:
    """The board with an explanation's mines drawn as ``*``."""
    return format_grid(board, {cell: MINE_MARK for cell in mines})


def explanation_json(board: Board, mines: frozenset) -> list[dict]:
    return [cell_json(board, c) for c in sorted(mines)]


# -- per question ---------------------------------------------------------

def consistency_text(board: Board, answer: Consistency) -> str:
    if not answer.consistent:
        return conflict_text(answer.conflict)
    return "consistent: one explanation (* = mine):\n" + explanation_picture(board, answer.witness)


def consistency_json(board: Board, answer: Consistency) -> dict:
    out = {"consistent": answer.consistent}
    if answer.consistent:
        out["witness"] = explanation_json(board, answer.witness)
    else:
        out["conflict"] = [origin_json(o) for o in answer.conflict]
    return out


def safety_text(board: Board, answer: Safety) -> str:
    verb = "opening" if answer.move is Move.OPEN else "marking"
    where = board.label(answer.cell)
    if not answer.consistent:
        return f"{verb} {where}: no answer, the board is {conflict_text(answer.conflict)}"
    if answer.safe:
        return f"{verb} {where} is safe: {join_words(answer.reason)} force it"
    what = "a mine" if answer.move is Move.OPEN else "safe"
    return (f"{verb} {where} is not safe: in this explanation it is {what} (* = mine):\n"
            + explanation_picture(board, answer.counterexample))


def safety_json(board: Board, answer: Safety) -> dict:
    out = {"cell": cell_json(board, answer.cell), "move": answer.move.value,
           "consistent": answer.consistent, "safe": answer.safe}
    if not answer.consistent:
        out["conflict"] = [origin_json(o) for o in answer.conflict]
    elif answer.safe:
        out["reason"] = [origin_json(o) for o in answer.reason]
    else:
        out["counterexample"] = explanation_json(board, answer.counterexample)
    return out


def solution_text(board: Board, answer: Solution) -> str:
    if not answer.consistent:
        return conflict_text(answer.conflict)
    overlay = {c: STATUS_MARK[s] for c, s in answer.status.items()}
    lines = [format_grid(board, overlay), "(o = safe, * = mine, ? = undetermined)"]
    for status in (Status.SAFE, Status.MINE):
        cells = answer.cells_with(status)
        listed = " ".join(board.label(c).replace(" ", "") for c in cells) or "none"
        lines.append(f"{status.value} ({len(cells)}): {listed}")
    lines.append(f"undetermined: {len(answer.cells_with(Status.UNKNOWN))}")
    return "\n".join(lines)


def solution_json(board: Board, answer: Solution) -> dict:
    out = {"consistent": answer.consistent}
    if not answer.consistent:
        out["conflict"] = [origin_json(o) for o in answer.conflict]
        return out
    out["cells"] = [dict(cell_json(board, c), status=s.value) for c, s in answer.status.items()]
    for status in Status:
        out[status.value] = len(answer.cells_with(status))
    return out


def uniqueness_text(board: Board, answer: Uniqueness) -> str:
    if not answer.consistent:
        return conflict_text(answer.conflict)
    if answer.unique:
        return "unique: exactly one explanation (* = mine):\n" + explanation_picture(board, answer.explanations[0])
    first, second = answer.explanations
    differ = sorted(first ^ second)
    return "\n".join([
        f"not unique: two explanations differ at {join_words(board.label(c) for c in differ)}",
        "first (* = mine):", explanation_picture(board, first),
        "second (* = mine):", explanation_picture(board, second)])


def uniqueness_json(board: Board, answer: Uniqueness) -> dict:
    out = {"consistent": answer.consistent, "unique": answer.unique}
    if not answer.consistent:
        out["conflict"] = [origin_json(o) for o in answer.conflict]
    else:
        out["explanations"] = [explanation_json(board, e) for e in answer.explanations]
    return out
