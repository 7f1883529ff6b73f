"""Words and JSON for no-guess checks."""

from __future__ import annotations

from ..puzzles import NoGuess
from .views import BoardView

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
