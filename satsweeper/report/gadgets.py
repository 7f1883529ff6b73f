"""Words and JSON for gadgets: verdicts, repairs, compiled formulas."""

from __future__ import annotations

from ..gadgets.gadget import Verdict
from ..gadgets.repair import Repair
from ..reasoning import Status

def _bits(values) -> str:
    return " ".join(str(int(v)) for v in values)


def _status_bit(status: Status) -> str:
    return {Status.MINE: "1", Status.SAFE: "0"}.get(status, "?")


def listing_json(gadgets) -> list[dict]:
    """One row per gadget (name, size, ports, claim): ``gadget list --json``."""
    rows = []
    for name, g in gadgets:
        claim = "; ".join(f"{p} = {c}" for p, c in g.outputs.items()) or f"accepts {g.accepts}"
        rows.append({"name": name, "width": g.board.width, "height": g.board.height,
                     "inputs": list(g.inputs), "outputs": {p: str(c) for p, c in g.outputs.items()},
                     "accepts": str(g.accepts) if g.accepts is not None else None, "claim": claim})
    return rows


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
    if not mines:
        # Not one input has an explanation: the board itself is broken, which
        # 'check' explains (it names the clashing numbers) and 'repair' mends.
        lines.append(f"computes its claim: {'yes' if verdict.computes else 'no'}; "
                     "no input has an explanation: the board is inconsistent "
                     "(satsweeper check names the clash; satsweeper repair finds the fewest numbers to change)")
        return "\n".join(lines)
    lines.append(f"computes its claim: {'yes' if verdict.computes else 'no'}; "
                 f"unique: {'yes' if verdict.unique else 'no' + _not_unique(verdict)}; "
                 f"same number of mines for every input: "
                 f"{'yes (' + str(mines[0]) + ')' if verdict.constant_mines else 'no (' + ', '.join(map(str, mines)) + ')'}")
    return "\n".join(lines)


def _not_unique(verdict: Verdict) -> str:
    """Why a gadget is not unique: " (an input without any)" read as "several" before."""
    accepted = [case for case in verdict.cases if case.accepted]
    none = sum(case.explanations == 0 for case in accepted)
    several = sum(case.explanations > 1 for case in accepted)
    said = [f"{n} accepted input{'s' if n != 1 else ''} with {what}"
            for n, what in ((several, "several explanations"), (none, "none")) if n]
    return f" ({', '.join(said)})"


def verdict_json(verdict: Verdict) -> dict:
    return {"gadget": verdict.gadget, "inputs": list(verdict.inputs),
            "computes": verdict.computes, "unique": verdict.unique,
            "constant_mines": verdict.constant_mines,
            "cases": [{"inputs": [int(v) for v in case.inputs], "accepted": case.accepted,
                       "consistent": case.consistent, "explanations": str(case.explanations),
                       "outputs": {p: s.value for p, s in case.outputs.items()},
                       "expected": {p: int(v) for p, v in case.expected.items()},
                       "mines": list(case.mines), "correct": case.correct}
                      for case in verdict.cases]}


def repair_text(result: Repair, unique: bool = False) -> str:
    if result.gadget is None:
        return "repair: no change of numbers makes this board work (hidden squares or flags are wrong)"
    if not result.verdict.computes:
        if result.complete:
            return "repair: no change of numbers makes the board compute its claim (every choice tried)"
        return (f"repair: none of the {result.attempts} best sets of number changes makes the "
                f"board compute its claim (--attempts tries more)")
    lines = _changes_lines(result)
    if unique and not result.verdict.unique:
        # The best that computes is shown, but it is not what was asked for.
        lines = [_no_unique_repair(result) + "; the fewest that make it work:"] + (lines[1:] or ["  none: it works as printed"])
    return "\n".join(lines + [verdict_text(result.verdict)])


def board_repair_text(result: Repair, unique: bool = False) -> str:
    """What ``repair`` found for a plain board (a gadget without ports)."""
    if result.gadget is None:
        return ("repair: no change of numbers makes this board consistent "
                "(its hidden squares, flags or total are wrong)")
    case = result.verdict.cases[0]
    count = f"{case.explanations} explanation{'s' if case.explanations != 1 else ''}"
    state = f"consistent, {count}" + (", unique" if result.verdict.unique else "")
    lines = _changes_lines(result)
    if unique and not result.verdict.unique:
        lines = [_no_unique_repair(result) + "; the fewest that make it consistent:"] + (
            lines[1:] or ["  none: it is consistent as printed"])
    if result.changes:
        lines.append(f"the repaired board: {state}")
    elif len(lines) == 1:
        lines[0] = f"repair: nothing to change; the board is {state}"
    else:
        lines.append(f"the board: {state}")
    return "\n".join(lines)


def _no_unique_repair(result: Repair) -> str:
    """Why ``--unique`` found nothing: proved (every choice of numbers ruled out), or a limit."""
    if result.complete:
        some = " of some input" if result.verdict.inputs else ""
        return (f"repair: no change of numbers makes it unique (proved: every choice of numbers leaves two "
                f"explanations{some}; reveal a hidden cell, and see 'satsweeper unique' for two that differ)")
    return (f"repair: no change of numbers that makes it unique found in {result.attempts} attempts "
            f"(--attempts tries more)")


def _changes_lines(result: Repair) -> list[str]:
    if not result.changes:
        return ["repair: nothing to change; the board already works"]
    lines = [f"repair: change {len(result.changes)} number{'s' if len(result.changes) != 1 else ''} "
             f"(the fewest that work):"]
    return lines + [f"  {c.cell[0]},{c.cell[1]}: {c.printed} -> {c.repaired}" for c in result.changes]


def repair_json(result: Repair, unique: bool = False) -> dict:
    ok = bool(result.gadget and result.verdict.computes and (result.verdict.unique or not unique))
    return {"repaired": ok,
            "changes": [{"row": c.cell[0], "col": c.cell[1], "printed": c.printed,
                         "repaired": c.repaired} for c in result.changes],
            "attempts": result.attempts, "complete": result.complete,
            "verdict": verdict_json(result.verdict) if result.verdict else None}


def compile_text(compiled, explanations: int | None, written, said: str | None = None) -> str:
    """What ``satsweeper compile`` found: the formula, its models, the board and its count."""
    f = compiled.formula
    models = compiled.models
    tiles = ", ".join(f"{k} {n}" for k, n in sorted(compiled.tiles.items())) or "none"
    table = "(truth table)" if models is not None else "(too many variables for a truth table)"
    lines = [f"formula: {f}",
             f"variables: {' '.join(f.variables) or '(none)'}; models: {models if models is not None else '?'} {table}",
             f"board: {compiled.board.width}x{compiled.board.height} (WIDTHxHEIGHT), {compiled.hidden} hidden squares; "
             f"gates: {compiled.gates.value}; tiles: {tiles}"]
    if explanations is not None:
        if models is None:
            verdict = "no truth table to compare with"
        elif explanations == models:
            verdict = "equal to the models: one explanation per model"
        else:
            verdict = f"{explanations - models:+d} against the models"
        lines.append(f"explanations: {explanations} ({verdict})")
    if written:
        path, total, why = written
        # ``said``: what writing it told (e.g. that a file was replaced).
        lines.append((said or f"wrote {path}") + (f" (mines: {total}: {why})" if total is not None else ""))
    return "\n".join(lines)


def compile_json(compiled, explanations: int | None, written) -> dict:
    f = compiled.formula
    digits = lambda n: None if n is None else str(n)  # noqa: E731 (a count: docs/json.md)
    return {"formula": str(f), "variables": list(f.variables), "models": digits(compiled.models),
            "gates": compiled.gates.value, "height": compiled.board.height, "width": compiled.board.width,
            "hidden": compiled.hidden, "crossings": compiled.crossings, "tiles": compiled.tiles,
            "explanations": digits(explanations),
            "output": None if not written else {"path": written[0], "mines": written[1], "why": written[2]}}


MODELS_SHOWN = 64     # rows of a truth table printed as text
MODELS_LISTED = 4096  # models listed in JSON


def satisfying(formula, most: int) -> list[dict[str, int]]:
    """Up to ``most`` models, in truth-table order (variable k is bit k of the row)."""
    table, names, found = formula.table(), formula.variables, []
    row = 0
    while table and len(found) < most:
        if table & 1:
            found.append({name: (row >> k) & 1 for k, name in enumerate(names)})
        table >>= 1
        row += 1
    return found


def models_text(formula) -> str:
    """The true rows of the truth table, one line each."""
    total = formula.models()
    rows = satisfying(formula, MODELS_SHOWN)
    lines = [f"models ({total}): " + (" ".join(formula.variables) or "(no variables)")]
    if formula.variables:  # without variables the one model is an empty row: the header says it
        lines += ["  " + " ".join(str(m[v]).rjust(len(v)) for v in formula.variables) for m in rows]
    if total > len(rows):
        lines.append(f"  ... and {total - len(rows)} more")
    return "\n".join(lines)


def models_json(formula) -> list[dict[str, int]]:
    return satisfying(formula, MODELS_LISTED)


def claim_title(g) -> str:
    """A picture's title: the gadget and what it claims.

    >>> from satsweeper.gadgets import named_gadget
    >>> claim_title(named_gadget("and"))
    'and: inputs u v; t = u & v'
    """
    claim = "; ".join(f"{p} = {c}" for p, c in g.outputs.items()) or f"accepts {g.accepts}"
    return f"{g.name}: inputs {' '.join(g.inputs)}; {claim}"


def case_caption(g, case, drawn: bool) -> str:
    """One input combination in words, as a picture's caption.

    >>> from satsweeper.gadgets import named_gadget
    >>> from satsweeper.gadgets.gadget import case
    >>> g = named_gadget("and")
    >>> case_caption(g, case(g, (False, False))[0], True)
    'u=0 v=0: t is 0 (safe; claimed 0); 2 explanations, one drawn (black mines)'
    """
    setting = " ".join(f"{p}={int(v)}" for p, v in zip(g.inputs, case.inputs))
    if not case.consistent:
        return f"{setting}: no explanation ({'as claimed' if not case.accepted else 'NOT as claimed'})"
    words = {"mine": "1 (a mine", "safe": "0 (safe", "undetermined": "undetermined ("}
    outputs = "; ".join(f"{p} is {words[s.value]}{'' if s.value == 'undetermined' else '; '}claimed "
                        f"{int(case.expected[p])})" for p, s in case.outputs.items())
    count = "1 explanation" if case.explanations == 1 else f"{case.explanations} explanations"
    if drawn:
        count += ", drawn (black mines)" if case.explanations == 1 else ", one drawn (black mines)"
    verdict = "" if case.correct else " - NOT as claimed"
    return f"{setting}: {outputs or 'consistent'}{'; ' if outputs else ''}{count}{verdict}"
