"""Answers as text for people and as JSON-ready dicts for programs.

The library returns values (:mod:`satsweeper.reasoning`); this module turns
them into words and pictures, and the CLI only prints what it returns.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Hashable, Iterable, Mapping

from .board import Board
from .constraints import Clue, TotalMines
from .gadgets.gadget import Verdict
from .gadgets.repair import Repair
from .puzzles import NoGuess
from .reasoning import Consistency, Move, Safety, Solution, Status, Uniqueness
from .systems import System
from .tally import Tally
from .textio import format_grid

MINE_MARK = "*"
STATUS_MARK = {Status.SAFE: "o", Status.MINE: "*", Status.UNKNOWN: "?"}


class BoardView:
    """How answers about a board name cells and draw pictures."""

    def __init__(self, board: Board):
        self.board = board

    def label(self, cell: Hashable) -> str:
        return self.board.label(cell).replace(" ", "")

    def json(self, cell: Hashable) -> dict:
        """A cell as ``{"row", "col"}`` plus ``"name"`` when it has one."""
        out = {"row": cell[0], "col": cell[1]}
        if cell in self.board.names:
            out["name"] = self.board.names[cell]
        return out

    def picture(self, overlay: Mapping[Hashable, str]) -> str:
        return format_grid(self.board, overlay)


class SystemView:
    """How answers about a constraint system name cells and draw pictures."""

    def __init__(self, system: System):
        self.system = system

    def label(self, cell: Hashable) -> str:
        return str(cell)

    def json(self, cell: Hashable) -> dict:
        return {"name": str(cell)}

    def picture(self, overlay: Mapping[Hashable, str]) -> str:
        cells = self.system.problem.cells
        width = max(len(str(c)) for c in cells) if cells else 0
        return "\n".join(f"  {str(c):<{width}}  {overlay.get(c, '.')}" for c in cells)


View = BoardView | SystemView


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


def explanation_picture(view: View, mines: frozenset) -> str:
    """The cells with an explanation's mines drawn as ``*``."""
    return view.picture({cell: MINE_MARK for cell in mines})


def explanation_json(view: View, mines: frozenset) -> list[dict]:
    return [view.json(c) for c in sorted(mines, key=str)]


# -- per question ---------------------------------------------------------

def consistency_text(view: View, answer: Consistency) -> str:
    if not answer.consistent:
        return conflict_text(answer.conflict)
    return "consistent: one explanation (* = mine):\n" + explanation_picture(view, answer.witness)


def consistency_json(view: View, answer: Consistency) -> dict:
    out = {"consistent": answer.consistent}
    if answer.consistent:
        out["witness"] = explanation_json(view, answer.witness)
    else:
        out["conflict"] = [origin_json(o) for o in answer.conflict]
    return out


def safety_text(view: View, answer: Safety) -> str:
    verb = "opening" if answer.move is Move.OPEN else "marking"
    where = view.label(answer.cell)
    if not answer.consistent:
        return f"{verb} {where}: no answer, the position is {conflict_text(answer.conflict)}"
    if answer.safe:
        return f"{verb} {where} is safe: {join_words(answer.reason)} force it"
    what = "a mine" if answer.move is Move.OPEN else "safe"
    return (f"{verb} {where} is not safe: in this explanation it is {what} (* = mine):\n"
            + explanation_picture(view, answer.counterexample))


def safety_json(view: View, answer: Safety) -> dict:
    out = {"cell": view.json(answer.cell), "move": answer.move.value,
           "consistent": answer.consistent, "safe": answer.safe}
    if not answer.consistent:
        out["conflict"] = [origin_json(o) for o in answer.conflict]
    elif answer.safe:
        out["reason"] = [origin_json(o) for o in answer.reason]
    else:
        out["counterexample"] = explanation_json(view, answer.counterexample)
    return out


def solution_text(view: View, answer: Solution) -> str:
    if not answer.consistent:
        return conflict_text(answer.conflict)
    overlay = {c: STATUS_MARK[s] for c, s in answer.status.items()}
    lines = [view.picture(overlay), "(o = safe, * = mine, ? = undetermined)"]
    for status in (Status.SAFE, Status.MINE):
        cells = answer.cells_with(status)
        listed = " ".join(view.label(c) for c in cells) or "none"
        lines.append(f"{status.value} ({len(cells)}): {listed}")
    lines.append(f"undetermined: {len(answer.cells_with(Status.UNKNOWN))}")
    return "\n".join(lines)


def solution_json(view: View, answer: Solution) -> dict:
    out = {"consistent": answer.consistent}
    if not answer.consistent:
        out["conflict"] = [origin_json(o) for o in answer.conflict]
        return out
    out["cells"] = [dict(view.json(c), status=s.value) for c, s in answer.status.items()]
    for status in Status:
        out[status.value] = len(answer.cells_with(status))
    return out


def uniqueness_text(view: View, answer: Uniqueness) -> str:
    if not answer.consistent:
        return conflict_text(answer.conflict)
    if answer.unique:
        return "unique: exactly one explanation (* = mine):\n" + explanation_picture(view, answer.explanations[0])
    first, second = answer.explanations
    differ = sorted(first ^ second, key=str)
    return "\n".join([
        f"not unique: two explanations differ at {join_words(view.label(c) for c in differ)}",
        "first (* = mine):", explanation_picture(view, first),
        "second (* = mine):", explanation_picture(view, second)])


def uniqueness_json(view: View, answer: Uniqueness) -> dict:
    out = {"consistent": answer.consistent, "unique": answer.unique}
    if not answer.consistent:
        out["conflict"] = [origin_json(o) for o in answer.conflict]
    else:
        out["explanations"] = [explanation_json(view, e) for e in answer.explanations]
    return out


# -- counting -------------------------------------------------------------

def percent(p: Fraction) -> str:
    """A probability as a short percentage for pictures: ``37%``, ``<1%``."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    value = round(float(p) * 100)
    return "<1%" if value == 0 else ">99%" if value == 100 else f"{value}%"


def fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}" if p.denominator != 1 else str(p.numerator)


def frontier_text(frontier: dict[int, int]) -> str:
    if not frontier:
        return ""
    parts = [f"{c} with {k} mine{'s' if k != 1 else ''}" for k, c in sorted(frontier.items())]
    return f"{sum(frontier.values())} arrangements of the constrained cells ({', '.join(parts)})"


def count_text(answer: Tally, conflict: tuple = ()) -> str:
    if not answer.consistent:
        return "0 explanations: " + conflict_text(conflict) if conflict else "0 explanations"
    lines = [f"{answer.count} explanation{'s' if answer.count != 1 else ''}"]
    if answer.frontier:
        lines.append(frontier_text(answer.frontier))
    return "\n".join(lines)


def count_json(answer: Tally, conflict: tuple = ()) -> dict:
    out = {"consistent": answer.consistent, "count": str(answer.count),
           "frontier": {str(k): str(c) for k, c in sorted(answer.frontier.items())}}
    if conflict:
        out["conflict"] = [origin_json(o) for o in conflict]
    return out


def board_probabilities_text(view: BoardView, answer: Tally, conflict: tuple = ()) -> str:
    if not answer.consistent:
        return count_text(answer, conflict)
    overlay = {c: percent(answer.probability(c)) for c in answer.cells()}
    safest = answer.safest()
    p = answer.probability(safest[0]) if safest else Fraction(0)
    shown = " ".join(view.label(c) for c in safest[:12])
    more = f" and {len(safest) - 12} more" if len(safest) > 12 else ""
    return "\n".join([
        view.picture(overlay),
        f"{answer.count} explanations; probability that each hidden cell is a mine",
        f"safest ({len(safest)}): {shown}{more} at p = {fraction_text(p)} ({float(p):.2%})"])


def probabilities_json(answer: Tally, cells: list[dict], conflict: tuple = ()) -> dict:
    """``cells`` are the JSON identities of ``answer.cells()``, in order."""
    out = count_json(answer, conflict)
    if answer.consistent:
        out["cells"] = []
        for ident, cell in zip(cells, answer.cells()):
            p = answer.probability(cell)
            out["cells"].append(dict(ident, probability=fraction_text(p), p=float(p)))
        safest = set(answer.safest())
        out["safest"] = [ident for ident, cell in zip(cells, answer.cells()) if cell in safest]
    return out


def system_probabilities_text(names: tuple, others: int, answer: Tally, conflict: tuple = ()) -> str:
    if not answer.consistent:
        return count_text(answer, conflict)
    width = max([len(n) for n in names] + [5])
    lines = [count_text(answer), f"{'cell':<{width}}  probability"]
    for name in names:
        p = answer.probability(name)
        lines.append(f"{name:<{width}}  {fraction_text(p)} ({float(p):.4f})")
    if others:
        cell = next(c for c in answer.cells() if not isinstance(c, str))
        p = answer.probability(cell)
        lines.append(f"each of the {others} other cells: {fraction_text(p)} ({float(p):.4f})")
    safest = answer.safest()
    lines.append("safest: " + join_words(str(c) if isinstance(c, str) else "the other cells"
                                         for c in dict.fromkeys(c if isinstance(c, str) else None
                                                                for c in safest)))
    return "\n".join(lines)


# -- puzzles --------------------------------------------------------------

def rounds(n: int) -> str:
    return f"{n} round{'s' if n != 1 else ''}"


def no_guess_text(view: BoardView, start, answer: NoGuess) -> str:
    where = view.label(start)
    stats = (f"deductions: {answer.single_clue} cells by a single number, {answer.multi_clue} "
             f"that needed several numbers (or the total) at once; 3BV {answer.three_bv}")
    if answer.solved:
        return (f"no-guess: yes, solved from {where} in {rounds(answer.rounds)} without a guess\n"
                + stats)
    overlay = {c: "?" for c in answer.frontier}
    return "\n".join([
        f"no-guess: no, stuck after {rounds(answer.rounds)}; a guess is forced among the "
        f"{len(answer.frontier)} undetermined cells marked ?",
        BoardView(answer.position).picture(overlay), stats])


def no_guess_json(view: BoardView, start, answer: NoGuess) -> dict:
    return {"no_guess": answer.solved, "start": view.json(start), "rounds": answer.rounds,
            "single_clue": answer.single_clue, "multi_clue": answer.multi_clue,
            "multi_clue_cells": [view.json(c) for c in answer.multi_clue_cells],
            "three_bv": answer.three_bv,
            "frontier": [view.json(c) for c in answer.frontier]}


# -- gadgets --------------------------------------------------------------

def _bits(values) -> str:
    return " ".join(str(int(v)) for v in values)


def _status_bit(status: Status) -> str:
    return {Status.MINE: "1", Status.SAFE: "0"}.get(status, "?")


def verdict_text(verdict: Verdict) -> str:
    """One line per input combination, then the verdict."""
    outputs = list(verdict.cases[0].expected) if verdict.cases else []
    head = " ".join(verdict.inputs) or "(no inputs)"
    lines = [f"gadget {verdict.gadget}: inputs {head}" + (f" -> outputs {' '.join(outputs)}" if outputs else "")]
    for case in verdict.cases:
        if not case.consistent:
            got = "inconsistent" + ("" if case.accepted else " (as claimed)")
        else:
            forced = " ".join(_status_bit(case.outputs[p]) for p in outputs)
            want = " ".join(str(int(case.expected[p])) for p in outputs)
            got = (f"outputs {forced} (claimed {want}), " if outputs else "consistent, ") + \
                f"{case.explanations} explanation{'s' if case.explanations != 1 else ''}, " \
                f"mines {'/'.join(map(str, case.mines))}"
            if not case.accepted:
                got += " (claimed inconsistent)"
        mark = "ok " if case.correct else "BAD"
        lines.append(f"  {mark} {_bits(case.inputs) or '-':<{max(len(head), 1)}}  {got}")
    mines = sorted({m for case in verdict.cases for m in case.mines})
    lines.append(f"computes its claim: {'yes' if verdict.computes else 'no'}; "
                 f"unique: {'yes' if verdict.unique else 'no'}; "
                 f"same number of mines for every input: "
                 f"{'yes (' + str(mines[0]) + ')' if verdict.constant_mines else 'no (' + ', '.join(map(str, mines)) + ')'}")
    return "\n".join(lines)


def verdict_json(verdict: Verdict) -> dict:
    return {"gadget": verdict.gadget, "inputs": list(verdict.inputs),
            "computes": verdict.computes, "unique": verdict.unique,
            "constant_mines": verdict.constant_mines,
            "cases": [{"inputs": [int(v) for v in case.inputs], "accepted": case.accepted,
                       "consistent": case.consistent, "explanations": case.explanations,
                       "outputs": {p: s.value for p, s in case.outputs.items()},
                       "expected": {p: int(v) for p, v in case.expected.items()},
                       "mines": list(case.mines), "correct": case.correct}
                      for case in verdict.cases]}


def repair_text(result: Repair) -> str:
    if result.gadget is None:
        return "repair: no change of numbers makes this board work (hidden squares or flags are wrong)"
    if not result.verdict.computes:
        return (f"repair: none of the {result.attempts} best sets of number changes makes the "
                f"board compute its claim")
    if not result.changes:
        return "repair: nothing to change; the board already works\n" + verdict_text(result.verdict)
    lines = [f"repair: change {len(result.changes)} number{'s' if len(result.changes) != 1 else ''} "
             f"(the fewest that work):"]
    lines += [f"  {c.cell[0]},{c.cell[1]}: {c.printed} -> {c.repaired}" for c in result.changes]
    return "\n".join(lines + [verdict_text(result.verdict)])


def repair_json(result: Repair) -> dict:
    return {"repaired": bool(result.gadget and result.verdict.computes),
            "changes": [{"row": c.cell[0], "col": c.cell[1], "printed": c.printed,
                         "repaired": c.repaired} for c in result.changes],
            "attempts": result.attempts,
            "verdict": verdict_json(result.verdict) if result.verdict else None}


def compile_text(compiled, explanations: int | None, written) -> str:
    """What ``satsweeper compile`` found: the formula, its models, the board and its count."""
    f = compiled.formula
    models = f.models()
    tiles = ", ".join(f"{k} {n}" for k, n in sorted(compiled.tiles.items())) or "none"
    lines = [f"formula: {f}",
             f"variables: {' '.join(f.variables) or '(none)'}; models: {models} (truth table)",
             f"board: {compiled.board.height}x{compiled.board.width}, {compiled.hidden} hidden squares; "
             f"gates: {compiled.gates.value}; tiles: {tiles}"]
    if explanations is not None:
        if explanations == models:
            verdict = "equal to the models: parsimonious"
        else:
            verdict = f"{explanations - models:+d} against the models"
        lines.append(f"explanations: {explanations} ({verdict})")
    if written:
        path, total, why = written
        lines.append(f"wrote {path}" + (f" (mines: {total}: {why})" if total is not None else ""))
    return "\n".join(lines)


def compile_json(compiled, explanations: int | None, written) -> dict:
    f = compiled.formula
    return {"formula": str(f), "variables": list(f.variables), "models": f.models(),
            "gates": compiled.gates.value, "height": compiled.board.height, "width": compiled.board.width,
            "hidden": compiled.hidden, "crossings": compiled.crossings, "tiles": compiled.tiles,
            "explanations": explanations,
            "output": None if not written else {"path": written[0], "mines": written[1], "why": written[2]}}
