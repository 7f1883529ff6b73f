"""Words and JSON for no-guess checks, difficulty grades and forced guesses."""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from ..board import Cell
from ..difficulty import Grade, Rung, hardest_steps
from ..puzzles import NoGuess
from .contract import fraction_text, probability_json
from .views import BoardView

MOVE_WORDS = {Rung.SINGLE: "single", Rung.PAIR: "pair", Rung.SEVERAL: "several", Rung.TOTAL: "total"}
MOVE_PHRASES = {Rung.SINGLE: "by one number", Rung.PAIR: "by two nested numbers",
                Rung.SEVERAL: "by several numbers at once", Rung.TOTAL: "by the total"}
SHOWN_ODDS = 10  # frontier cells listed in the text report, safest first


def voids_found(board) -> tuple[str, tuple[int, int]]:
    """(got, the first void square) for a layout with void squares where a game needs a full
    rectangle: the error points at that square (it pointed at the grid's first line).

    >>> from satsweeper.board import Board
    >>> voids_found(Board(2, 3, voids=frozenset({(1, 2), (0, 2)})))
    ('2 void squares, the first at 0,2', (0, 2))
    """
    first, count = min(board.voids), len(board.voids)
    return f"{count} void square{'s' if count != 1 else ''}, the first at {first[0]},{first[1]}", first


def not_a_layout(board, mine: bool = False) -> tuple[str, str]:
    """(expected, got) for a position given where a layout is wanted (noguess): what
    answers a position instead, and every mine written F (the flags as many as the
    total) named as the likely slip; a game's position with some flags is just a position.

    >>> from satsweeper.board import Board
    >>> not_a_layout(Board(1, 2, {(0, 0): 1}, frozenset({(0, 1)}), total_mines=1))[1].endswith("write a hidden mine '*'")
    True
    """
    # ``mine``: the text is a .mine file, whose hidden mines are M (or ?), not *.
    code = "'M'" if mine else "'*'"
    flags = f"; its {len(board.flags)} F squares are flags the player has placed: write a hidden mine {code}" \
        if board.flags and board.total_mines == len(board.flags) else ""
    return (f"a layout, {code} for the hidden mines", "a position without one; for a position, 'satsweeper unique' "
            f"says whether its numbers decide every cell and 'satsweeper solve' which they decide{flags}")


def rounds(n: int) -> str:
    """``2 rounds (a round: single numbers until stuck, then one step of exact counting)``: a player
    met "in 2 rounds" with nothing to say what a round is."""
    return f"{n} round{'s' if n != 1 else ''} (a round: single numbers until stuck, then one step of exact counting)"


def no_guess_text(view: BoardView, start, answer: NoGuess, grade: Grade | None = None,
                  odds: Mapping[Cell, Fraction] | None = None) -> str:
    where = view.label(start)
    # Two players, two counts: the check lets the exact engine decide every
    # determined cell once single numbers stick; the grade (below) takes the
    # easiest move each time, so its counts differ and are said apart.
    cells = f"{answer.single_clue} cell{'' if answer.single_clue == 1 else 's'}"
    stats = (f"the check: single numbers decided {cells}; where they were stuck, "
             f"the exact engine {answer.multi_clue} more; 3BV {answer.three_bv}")
    if answer.solved:
        how = f"in {rounds(answer.rounds)}" if answer.rounds else "by its first click alone (it opens every safe cell)"
        lines = [f"no-guess: yes, solved from {where} {how} without a guess", stats]
        if grade is not None:
            lines.append(grade_text(grade))
            lines += hardest_text(view, grade)
        return "\n".join(lines)
    overlay = {c: "?" for c in answer.frontier}
    # a round that decided nothing was still a round: "stuck after 1 round" read as progress
    after = f"after {rounds(answer.rounds)}" if answer.single_clue or answer.multi_clue else \
        "at once: the first click's numbers decide no cell"
    lines = [f"no-guess: no, stuck {after}; a guess is forced (the "
             f"{len(answer.frontier)} undetermined cells next to a number are marked ?)",
             BoardView(answer.position).picture(overlay), stats]
    if odds:
        ranked = sorted(answer.frontier, key=lambda c: (odds[c], c))
        shown = [(odds[c], f"  {view.label(c)}: {fraction_text(odds[c])} ({float(odds[c]):.2%})")
                 for c in ranked[:SHOWN_ODDS]]
        elsewhere = [c for c in odds if c not in overlay]
        if elsewhere:
            # Every cell next to no number has the same chance; it is often the
            # safest guess, so it takes its place in the order (it came last).
            chance = odds[elsewhere[0]]
            many = f"any of {len(elsewhere)} cells" if len(elsewhere) > 1 else "a cell"
            at = sum(1 for p, _ in shown if p <= chance)
            shown.insert(at, (chance, f"  {many} next to no number: {fraction_text(chance)} ({float(chance):.2%})"))
        lines.append("chance of a mine, safest first:")
        lines += [line for _, line in shown]
        if len(ranked) > SHOWN_ODDS:
            lines.append(f"  ... and {len(ranked) - SHOWN_ODDS} more (--json lists all)")
    return "\n".join(lines)


def grade_text(grade: Grade) -> str:
    """``difficulty: hard (rung 3, 2 numbers at once); taking the easiest move each time: ...``"""
    moves = ", ".join(f"{grade.moves.get(r, 0)} {MOVE_PHRASES[r]}" for r in Rung)
    # Its total differs from the check's: in another order, 0s open other cells for free.
    return (f"difficulty: {grade}; taking the easiest move each time, cells decided: {moves} "
            f"(cells a 0 opened for free are not counted, so the sum may differ from the check's line above)")


def _needs_phrase(step) -> str:
    """Where a step's numbers are: ``from the numbers at 1,0 1,1``; for a pair step of
    more than one pair, ``from nested pairs among the numbers at 1,0 1,1 1,2`` (two
    nested numbers, not three at once); for a several step whose cells need different
    numbers, ``from 2 at a time among the numbers at ...``."""
    places = " ".join(f"{r},{c}" for r, c in step.needs)
    if step.rung is Rung.TOTAL:
        return f"the total, with the numbers at {places}"
    if step.rung is Rung.PAIR and len(step.needs) > 2:
        return f"from nested pairs among the numbers at {places}"
    if step.rung is Rung.SEVERAL and len(step.needs) > step.clues:
        # "2 numbers at once" beside eight numbers read as a contradiction: each cell needs 2 of them
        return f"from {step.clues} at a time among the numbers at {places}"
    return f"from the numbers at {places}"


def hardest_phrase(grade: Grade) -> str:
    """``extreme, the total``; ``hard, 3 numbers at once``: what the hardest step needs."""
    if grade.rung is Rung.SEVERAL:
        return f"{grade.rung.word}, {grade.clues} numbers at once"
    return f"{grade.rung.word}, {MOVE_PHRASES[grade.rung].removeprefix('by ')}"


SHOWN_CELLS = 8  # cells of one hardest step named in the text report


def hardest_text(view: BoardView, grade: Grade) -> list[str]:
    """Where the grade comes from: each hardest step's cells (none for an easy layout).

    ``hardest step (extreme, the total): opens 0,3``;
    ``hardest step (hard, 3 numbers at once): opens 0,2 1,2 0,1 (from the numbers at 1,0 1,1 2,1)``
    """
    steps = hardest_steps(grade)
    if not steps:
        return []

    def cells(kind: str, found) -> str:
        named = " ".join(view.label(c) for c in found[:SHOWN_CELLS])
        return f"{kind} {named}" + (f" and {len(found) - SHOWN_CELLS} more" if len(found) > SHOWN_CELLS else "")

    how = hardest_phrase(grade)
    head = (f"hardest step ({how}): " if len(steps) == 1
            else f"hardest steps ({len(steps)} of them; {how}):")
    # With the numbers it needed (a pair step's nested pairs, a several step's reasons).
    said = ["; ".join(cells(kind, found) for kind, found in (("opens", step.opened), ("flags", step.flagged))
                      if found) + (f" ({_needs_phrase(step)})" if step.needs else "")
            for step in steps[:SHOWN_ODDS]]
    if len(steps) == 1:
        return [head + said[0]]
    more = [f"  ... and {len(steps) - SHOWN_ODDS} more (--json: the path)"] if len(steps) > SHOWN_ODDS else []
    return [head] + [f"  {line}" for line in said] + more


def grade_json(grade: Grade) -> dict:
    return {"word": grade.rung.word, "rung": int(grade.rung), "clues": grade.clues,
            "moves": {MOVE_WORDS[r]: grade.moves.get(r, 0) for r in Rung},
            "steps": {MOVE_WORDS[r]: grade.steps.get(r, 0) for r in Rung}}


def no_guess_json(view: BoardView, start, answer: NoGuess, grade: Grade | None = None,
                  odds: Mapping[Cell, Fraction] | None = None) -> dict:
    data = {"no_guess": answer.solved, "start": view.json(start), "rounds": answer.rounds,
            "single_clue": answer.single_clue, "multi_clue": answer.multi_clue,
            "multi_clue_cells": [view.json(c) for c in answer.multi_clue_cells],
            "three_bv": answer.three_bv,
            # safest first, as the text lists them (README says so; it was the frontier's order)
            "frontier": [{**view.json(c), **(probability_json(odds[c]) if odds else {})}
                         for c in (sorted(answer.frontier, key=lambda c: (odds[c], c)) if odds
                                   else answer.frontier)]}
    # The cells next to no number, one chance for all (the text gave it, the JSON did not).
    elsewhere = [c for c in odds or () if c not in set(answer.frontier)]
    data["elsewhere"] = {"cells": len(elsewhere), **probability_json(odds[elsewhere[0]])} if elsewhere else None
    if grade is not None:
        data["difficulty"] = grade_json(grade)
        # The solution, step by step, for an author to replay and check.
        data["path"] = [{"rung": int(step.rung), "word": step.rung.word, "clues": step.clues,
                         "open": [view.json(c) for c in step.opened],
                         "flag": [view.json(c) for c in step.flagged],
                         "needs": [view.json(c) for c in step.needs]} for step in grade.path]
    return data
