"""Words and JSON for counts and exact probabilities."""

from __future__ import annotations

from fractions import Fraction

from ..tally import Tally
from .contract import fraction_text, integer_text, probability_json
from .views import BoardView, conflict_text, join_words, origin_json

def percent(p: Fraction) -> str:
    """A probability as a short percentage for pictures: ``37%``, ``<1%``."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    value = round(float(p) * 100)
    return "<1%" if value == 0 else ">99%" if value == 100 else f"{value}%"


def frontier_text(frontier: dict[int, int]) -> str:
    if not frontier:
        return ""
    parts = [f"{integer_text(c)} with {k} mine{'s' if k != 1 else ''}" for k, c in sorted(frontier.items())]
    total = sum(frontier.values())
    return f"{integer_text(total)} arrangement{'s' if total != 1 else ''} of the constrained cells ({', '.join(parts)})"


def count_text(answer: Tally, conflict: tuple = ()) -> str:
    if not answer.consistent:
        return "0 explanations: " + conflict_text(conflict) if conflict else "0 explanations"
    lines = [f"{integer_text(answer.count)} explanation{'s' if answer.count != 1 else ''}"]
    if answer.frontier:
        lines.append(frontier_text(answer.frontier))
    return "\n".join(lines)


def count_json(answer: Tally, conflict: tuple = ()) -> dict:
    out = {"consistent": answer.consistent, "count": integer_text(answer.count),
           "frontier": {str(k): integer_text(c) for k, c in sorted(answer.frontier.items())}}
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
        f"{integer_text(answer.count)} explanations; probability that each hidden cell is a mine",
        f"safest ({len(safest)}): {shown}{more} at p = {fraction_text(p)} ({float(p):.2%})"])


def probabilities_json(answer: Tally, cells: list[dict], conflict: tuple = ()) -> dict:
    """``cells`` are the JSON identities of ``answer.cells()``, in order."""
    out = count_json(answer, conflict)
    if answer.consistent:
        out["cells"] = []
        for ident, cell in zip(cells, answer.cells()):
            p = answer.probability(cell)
            out["cells"].append(dict(ident, **probability_json(p)))
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
