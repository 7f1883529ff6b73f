"""Words and JSON for counts and exact probabilities."""

from __future__ import annotations

import json
from fractions import Fraction

from ..tally import Shared, Tally
from .contract import STREAMED, JsonList, fraction_text, integer_text, integer_words, probability_json
from .views import BoardView, cell_list, fast_pieces, conflict_text, join_words, origin_json

def percent(p: Fraction) -> str:
    """A probability as a short percentage for pictures: ``37%``, ``<1%``."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    value = round(float(p) * 100)
    return "<1%" if value == 0 else ">99%" if value == 100 else f"{value}%"


def frontier_text(frontier: dict[int, int], flags: int = 0, room: tuple[int, int] | None = None) -> str:
    """The constrained cells' arrangements by mines; ``flags`` known mines come on top.

    Saying so matters where totals are compared: a compiled board's .mine total
    (and compile's report) counts its flags, these counts do not.  They are
    counted before the total: with ``room`` = (mines left, floating cells), the
    mine numbers the total rules out are set apart and said to be (listed with
    the rest, they read as possible).

    >>> frontier_text({883: 1, 884: 1}, flags=667)
    '2 arrangements of the constrained cells (1 with 883 mines, 1 with 884 mines; the 667 flags come on top)'
    >>> frontier_text({1: 1, 2: 2}, room=(1, 0))
    '3 arrangements of the constrained cells (1 with 1 mine; 2 with 2 mines, which the total rules out)'
    """
    if not frontier:
        return ""

    def said(items) -> str:
        return ", ".join(f"{integer_words(c)} with {k} mine{'s' if k != 1 else ''}" for k, c in items)

    fits = sorted(frontier.items())
    if room is not None:
        left, floating = room
        fits = [(k, c) for k, c in fits if left - floating <= k <= left]
    out = [(k, c) for k, c in sorted(frontier.items()) if (k, c) not in fits]
    # Not "the total of N": with flags, the mines left are not the total the file gives.
    parts = "; ".join(filter(None, [said(fits), said(out) + (", which the total rules out" if out else "")]))
    total = sum(frontier.values())
    on_top = f"; the {integer_words(flags)} flag{'s come' if flags != 1 else ' comes'} on top" if flags else ""
    return (f"{integer_words(total)} arrangement{'s' if total != 1 else ''} of the constrained cells "
            f"({parts}{on_top})")


def count_text(answer: Tally, conflict: tuple = (), flags: int = 0, room: tuple[int, int] | None = None,
               free: int | None = None, start: int = 0) -> str:
    """The count, and the constrained cells' arrangements (:func:`frontier_text`);
    ``free``: the number of hidden cells when none is next to a number (there is
    then no arrangement to speak of: "1 arrangement (1 with 0 mines)" said nothing),
    ``start`` of them besides the file's start, which is safe.

    >>> print(count_text(Tally(64, {}, {0: 1}), free=6))
    64 explanations
    no hidden cell is next to a number: the 6 hidden cells are free
    >>> print(count_text(Tally(28, {}, {0: 1}), room=(2, 8), free=8, start=1))
    28 explanations
    no hidden cell is next to a number: the 8 hidden cells besides the start (safe) are free, the total fixing how many are mines
    """
    if not answer.consistent:
        return "0 explanations: " + conflict_text(conflict) if conflict else "0 explanations"
    lines = [f"{integer_words(answer.count)} explanation{'s' if answer.count != 1 else ''}"]
    if free:
        fixed = ", the total fixing how many are mines" if room is not None else ""
        besides = " besides the start (safe)" if start else ""
        lines.append(f"no hidden cell is next to a number: the {integer_words(free)} hidden cell"
                     f"{'s' if free != 1 else ''}{besides} {'are' if free != 1 else 'is'} free{fixed}")
    elif answer.frontier:
        lines.append(frontier_text(answer.frontier, flags, room))
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
    safest = answer.safest()
    p = answer.probability(safest[0]) if safest else Fraction(0)
    picture = view.picture({c: percent(p) for c, p in answer.probabilities().items()}) \
        if view.drawable() else probability_groups_text(view, answer)
    return "\n".join([
        picture,
        f"{integer_words(answer.count)} explanation{'s' if answer.count != 1 else ''}; "
        "probability that each hidden cell is a mine",
        # the safest cell a mine for sure: every hidden cell is one ("safest ... at p = 1" read oddly)
        "every hidden cell is a mine (p = 1)" if safest and p == 1 else
        f"safest ({len(safest)}): {cell_list(view, safest)} at p = {fraction_text(p)} ({float(p):.2%})"
        if safest else "no hidden cell is left"])


# How many probabilities a big board's text answer shows (the lowest first).
GROUPS_SHOWN = 20


def probability_groups_text(view, answer: Tally) -> str:
    """A big board's probabilities as groups of cells sharing one, lowest first.

    Most cells of a big board float and share one probability; the frontier
    adds a few hundred more values.
    """
    groups = sorted(answer.groups().items())
    values = answer.scaled_mines
    lines = [f"{len(answer.cells())} hidden cells with {len(groups)} different probabilities "
             f"(too many squares to draw; --json lists every cell):"]
    for p, n in groups[:GROUPS_SHOWN]:
        cells = _cells_at(values, p * answer.scaled_count)
        lines.append(f"  p = {fraction_text(p)} ({float(p):.2%}): {n} cell{'s' if n != 1 else ''}: "
                     f"{cell_list(view, cells)}")
    if len(groups) > GROUPS_SHOWN:
        lines.append(f"  and {len(groups) - GROUPS_SHOWN} more probabilities")
    return "\n".join(lines)


def _cells_at(values, value) -> list:
    """The first cells whose scaled count is ``value`` (enough to list), and a length."""
    if isinstance(values, Shared):
        return values.where(lambda v: v == value)
    return [c for c, v in values.items() if v == value]


def view_probabilities_json(view, answer: Tally, conflict: tuple = ()) -> dict:
    """:func:`probabilities_json` with cells named by ``view``; a big board's lists streamed.

    Each cell's JSON text is its identity and its probability's text, made
    once per distinct probability (a big board has few: most cells float).
    """
    if not answer.consistent or len(answer.cells()) <= STREAMED:
        return probabilities_json(answer, [view.json(c) for c in answer.cells()], conflict)
    out = count_json(answer, conflict)
    values, whole = answer.scaled_mines, answer.scaled_count
    tails: dict = {}

    def tail(value) -> str:
        """A probability's JSON keys and the closing brace, made once per value."""
        text = tails.get(value)
        if text is None:
            text = tails[value] = json.dumps(probability_json(Fraction(value) / whole))[1:]
        return text

    def encode(item) -> str:
        return f"{view.json_head(item[0])}, {tail(item[1])}"

    pairs = values.pairs if isinstance(values, Shared) else values.items
    pieces = fast_pieces(view, values.cells, ", " + tail(values.shared),
                         {c: ", " + tail(v) for c, v in values.own.items()}) \
        if isinstance(values, Shared) else None
    out["cells"] = JsonList(pairs, encode, len(values), pieces)
    safest = answer.safest()
    out["safest"] = JsonList(lambda: safest, lambda cell: view.json_head(cell) + "}", len(safest),
                             fast_pieces(view, safest, "}"))
    return out


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
        lines.append(f"{name:<{width}}  {fraction_text(p)} ({float(p):.2%})")  # as a board's
    if others:
        cell = next(c for c in answer.cells() if not isinstance(c, str))
        p = answer.probability(cell)
        lines.append(f"each of the {others} other cells: {fraction_text(p)} ({float(p):.2%})")
    safest = answer.safest()
    low = answer.probability(safest[0]) if safest else Fraction(0)
    lines.append("safest: " + join_words(str(c) if isinstance(c, str) else "the other cells"
                                         for c in dict.fromkeys(c if isinstance(c, str) else None
                                                                for c in safest))
                 + f" at p = {fraction_text(low)} ({float(low):.2%})")
    return "\n".join(lines)
