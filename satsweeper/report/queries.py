"""Words and JSON for the SAT questions: consistency, safety, solution, uniqueness."""

from __future__ import annotations

import json

from ..reasoning import Consistency, Move, Safety, Solution, Status, Uniqueness
from ..tally import Shared
from .contract import STREAMED, JsonList
from .views import (View, cell_list, conflict_text, explanation_json, explanation_picture, fast_pieces, join_words, order,
                    origin_json)

STATUS_MARK = {Status.SAFE: "o", Status.MINE: "*", Status.UNDETERMINED: "?"}

def consistency_text(view: View, answer: Consistency) -> str:
    if not answer.consistent:
        return conflict_text(answer.conflict)
    # "one explanation" read as "exactly one" on boards with thousands: check
    # finds an example only; unique and count say how many.
    return (f"consistent: an explanation, perhaps one of many{_key(view)}:\n"
            + explanation_picture(view, answer.witness))


def consistency_json(view: View, answer: Consistency) -> dict:
    out = {"consistent": answer.consistent}
    if answer.consistent:
        out["explanation"] = explanation_json(view, answer.witness)
    else:
        out["conflict"] = [origin_json(o) for o in answer.conflict]
    return out


def safety_text(view: View, answer: Safety) -> str:
    verb = "opening" if answer.move is Move.OPEN else "flagging"  # as hint says "flag", and --help
    where = view.label(answer.cell)
    if not answer.consistent:
        return f"{verb} {where}: no answer, the position is {conflict_text(answer.conflict)}"
    if answer.safe:
        return f"{verb} {where} is safe: {join_words(answer.reason)} {forces(answer.reason)} it"
    what = "a mine" if answer.move is Move.OPEN else "safe"
    return (f"{verb} {where} is not safe: in this explanation it is {what}{_key(view)}:\n"
            + explanation_picture(view, answer.counterexample))


def safety_json(view: View, answer: Safety) -> dict:
    out = {"cell": view.json(answer.cell), "move": answer.move.value,
           "consistent": answer.consistent, "safe": answer.safe}
    if not answer.consistent:
        out["conflict"] = [origin_json(o) for o in answer.conflict]
    elif answer.safe:
        out["reason"] = [origin_json(o) for o in answer.reason]
    else:
        out["explanation"] = explanation_json(view, answer.counterexample)
    return out


def solution_text(view: View, answer: Solution) -> str:
    if not answer.consistent:
        return conflict_text(answer.conflict)
    if view.drawable():
        overlay = {c: STATUS_MARK[s] for c, s in answer.status.items()}
        lines = [view.picture(overlay), "(o = safe, * = mine, ? = undetermined)"]
    else:  # a big board: the cells listed, not drawn
        lines = [f"{len(answer.status)} hidden cells (too many squares to draw; --json lists every cell)"]
    for status in (Status.SAFE, Status.MINE):
        cells = answer.cells_with(status)
        listed = (" ".join(view.label(c) for c in cells) or "none") if view.drawable() else cell_list(view, cells)
        lines.append(f"{status.value} ({len(cells)}): {listed}")
    lines.append(f"undetermined: {len(answer.cells_with(Status.UNDETERMINED))}")
    return "\n".join(lines)


def solution_json(view: View, answer: Solution) -> dict:
    out = {"consistent": answer.consistent}
    if not answer.consistent:
        out["conflict"] = [origin_json(o) for o in answer.conflict]
        return out
    status = answer.status
    if len(status) > STREAMED:  # written as it is made
        pairs = status.pairs if isinstance(status, Shared) else status.items
        tails = {s: json.dumps({"status": s.value})[1:] for s in Status}
        pieces = fast_pieces(view, status.cells, ", " + tails[status.shared],
                             {c: ", " + tails[s] for c, s in status.own.items()}) \
            if isinstance(status, Shared) else None
        out["cells"] = JsonList(pairs, lambda item: f"{view.json_head(item[0])}, {tails[item[1]]}", len(status),
                                pieces)
    else:
        out["cells"] = [dict(view.json(c), status=s.value) for c, s in status.items()]
    for s in Status:
        out[s.value] = len(answer.cells_with(s))
    return out


def uniqueness_text(view: View, answer: Uniqueness) -> str:
    if not answer.consistent:
        return conflict_text(answer.conflict)
    if answer.unique:
        return f"unique: exactly one explanation{_key(view)}:\n" + explanation_picture(view, answer.explanations[0])
    first, second = answer.explanations
    # Board cells in reading order (as tuples: by str, '10,6' came before '2,6'); named cells of a system by name.
    differ = sorted(first ^ second, key=order)
    return "\n".join([
        f"not unique: two explanations differ at {join_words(view.label(c) for c in differ)}",
        f"first{_key(view)}:", explanation_picture(view, first),
        f"second{_key(view)}:", explanation_picture(view, second)])


def uniqueness_json(view: View, answer: Uniqueness) -> dict:
    out = {"consistent": answer.consistent, "unique": answer.unique}
    if not answer.consistent:
        out["conflict"] = [origin_json(o) for o in answer.conflict]
    else:
        out["explanations"] = _lists([explanation_json(view, e) for e in answer.explanations])
    return out


def _lists(lists: list) -> list | JsonList:
    """A list of explanations, streamed when one is (above 40,000 mines): only a
    top-level value is written as it is made, and a list holding one failed to print."""
    if not any(isinstance(one, JsonList) for one in lists):
        return lists
    return JsonList(lambda: lists, lambda one: "[" + "".join(one.chunks()) + "]" if isinstance(one, JsonList)
                    else json.dumps(one), len(lists))


def settled(view: View, safe, mines) -> tuple[dict, str]:
    """What the single-number rules settle (:func:`satsweeper.singlepoint.settled_moves`'s
    safe cells and mines), as the fields of an answer out of time and in words."""
    return ({"safe": [view.json(c) for c in sorted(safe, key=order)],
             "mine": [view.json(c) for c in sorted(mines, key=order)]},
            f"the single-number rules settle {len(safe)} safe cell(s) and {len(mines)} mine(s)")


def forces(reason: tuple) -> str:
    """The verb agrees with the reason: one clue forces, two clues force.

    >>> forces(("the 1 at 0,0",)), forces(("the 1 at 0,0", "the total"))
    ('forces', 'force')
    """
    return "forces" if len(reason) == 1 else "force"


def _key(view: View) -> str:
    """What a picture's marks mean; a big board's explanations are listed, not drawn."""
    return " (* = mine)" if view.drawable() else ""
