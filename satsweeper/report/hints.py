"""Words and JSON for a hint: the move to make and why."""

from __future__ import annotations

from fractions import Fraction

from ..constraints import Start
from ..game import FirstClick
from ..hint import Hint, Option
from ..reasoning import Move
from .contract import fraction_text, probability_json
from .queries import forces
from .views import BoardView, conflict_text, join_words, origin_json

BASIS_TEXT = {
    "endgame": "it gives the best chance of winning the game from here, exactly over the "
               "explanations left: {value}",
    "look-ahead": "of the cells nearly as safe as the safest, it is the likeliest to survive "
                  "this move and the next: {value}",
    "corner": "an untouched corner as safe as the safest cell: the likeliest cell to show 0 "
              "and open a region",
    "corner-yield": "as safe as an untouched corner, and once it is safe its number makes some "
                    "cell safe with probability above 1/2: it leads on where a corner only may",
    "pseudo-50/50": "it is a mine only where it is half of a 50/50 walled in by mines, a coin "
                    "flip lost either way: taken now, it loses no more of those layouts, and "
                    "when it is safe its number helps at once",
    "safest": "it is the safest cell",
    # The reasons of Best's experiments (options off by default; scripts/best_ablation.py):
    "50/50": "it is half of a 50/50 nothing will ever tell apart: a coin flip that must be taken "
             "some day, taken now",
    "pocket": "the best guess of a region walled in by numbers, played exactly on its own: "
              "it clears the region with probability {value}",
    "two moves": "of the cells nearly as safe as the safest, it is the likeliest to survive "
                 "this move and the next two: {value}",
    "dominance": "safe wherever the look-ahead's choice is safe, and safer: opening it first "
                 "costs nothing",
    "random": "a hidden cell drawn at random (this strategy guesses uniformly)",
    "choice": "the strategy's own choice (it does not say why)",
}


# A guess's reason in a picture's caption: BASIS_TEXT's, short ("the guess (endgame)" said
# the strategy's label, which the text never uses).
BASIS_SHORT = {
    "endgame": "the best chance of winning from here", "look-ahead": "the likeliest to survive this move and the next",
    "corner": "an untouched corner, as safe as the safest cell", "corner-yield": "as safe as a corner, and it leads on",
    "pseudo-50/50": "a walled-in 50/50, taken now", "safest": "the safest cell", "50/50": "a 50/50, taken now",
    "pocket": "the best guess of a walled-in region", "two moves": "the likeliest to survive the next two moves",
    "dominance": "safe wherever the look-ahead's choice is, and safer", "random": "a cell drawn at random",
    "choice": "the strategy's own choice",
}


# The rule in words, as the README and noguess say it (JSON keeps "single number").
RULE_TEXT = {"single number": "one number"}


def _rule_text(answer) -> str:
    """The rule in words; "counting" says whether the total was needed (it read as if always)."""
    if answer.rule != "counting":
        return RULE_TEXT.get(answer.rule, answer.rule)
    from ..constraints import TotalMines
    total = any(isinstance(r, TotalMines) for r in answer.reason)
    return "counting the explanations, with the total" if total else "counting the explanations of these numbers"


def _percent(p: Fraction) -> str:
    return f"{float(p):.2%}"


def _exact(p: Fraction) -> str:
    return f"{fraction_text(p)} ({_percent(p)})"


def hint_text(view: BoardView, answer: Hint) -> str:
    if answer.consistent is False:
        return f"no hint: the position is {conflict_text(answer.conflict)}"
    if answer.cell is None:
        return "no hint: no hidden cell is left"
    where = view.label(answer.cell)
    if answer.rule == "first click" and isinstance(answer.reason[0], Start):
        return f"open {where}: the file's start, where the first click goes (a first click is safe)"
    if answer.rule == "first click":
        # Under "opens a region" every first click shows 0; under "is safe" the corner's
        # three neighbours make it the likeliest to.
        corner = answer.basis == "corner" and answer.reason[0].rule is FirstClick.SAFE
        why = ("\n  why this cell: a corner has the fewest neighbours, so it is the likeliest "
               "to show 0 and open a region") if corner else ""
        return f"open {where}: {join_words(answer.reason)}, whichever cell it is (the game's first-click rule){why}"
    if answer.sure:
        verb = answer.move.value
        what = "safe" if answer.move is Move.OPEN else "a mine"
        text = (f"{verb} {where}: it is {what} in every explanation; {join_words(answer.reason)} "
                f"{forces(answer.reason)} it (found by {_rule_text(answer)})\n"
                + (f"{answer.sure_moves} hidden cell{'s are' if answer.sure_moves != 1 else ' is'} determined"
                   if answer.sure_moves is not None else "the cells determined were not counted"))
        if answer.consistent is None:
            text += "; whether any layout explains the position was not proven in time"
        return text
    m = answer.measures
    why = BASIS_TEXT.get(answer.basis, BASIS_TEXT["choice"]).format(
        value=_exact(answer.value) if answer.value is not None else "")
    # A weak strategy guesses where moves are sure (random looks for none): not "no move is sure".
    sure = ("no move is sure" if not answer.sure_moves else
            f"it guessed, though {answer.sure_moves} hidden cell{'s are' if answer.sure_moves != 1 else ' is'} "
            f"determined (best would make a sure move)")
    lines = [f"guess {where} ({answer.strategy}): {sure}",
             f"  mine probability {_exact(m.mine)}; the safest cell's is {_percent(answer.safest)}",
             f"  shows 0 (opens a region) with probability {_percent(m.opening)}; "
             f"makes some cell safe with probability {_percent(m.progress)}",
             f"  why: {why}"]
    if answer.alternatives:
        width = max(len(view.label(o.cell)) for o in answer.alternatives)
        lines.append(f"alternatives: {'cell':<{width}}  {'mine':>7}  {'opens':>7}  {'progress':>8}")
        for o in answer.alternatives:
            lines.append(f"              {view.label(o.cell):<{width}}  {_percent(o.mine):>7}  "
                         f"{_percent(o.opening):>7}  {_percent(o.progress):>8}")
    return "\n".join(lines)


def option_json(view: BoardView, option: Option) -> dict:
    return {"cell": view.json(option.cell), "mine": probability_json(option.mine),
            "opening": probability_json(option.opening), "progress": probability_json(option.progress)}


def hint_json(view: BoardView, answer: Hint) -> dict:
    out = {"consistent": answer.consistent, "strategy": answer.strategy}
    if answer.consistent is False:
        out["conflict"] = [origin_json(o) for o in answer.conflict]
        return out
    if answer.cell is None:  # nothing left to open: no move, and nothing sure or guessed
        out.update(cell=None, move=None)
        return out
    out.update(cell=view.json(answer.cell), move=answer.move.value,
               sure=answer.sure, sure_moves=answer.sure_moves)
    if answer.sure:
        out.update(rule=answer.rule, reason=[origin_json(o) for o in answer.reason])
        return out
    out.update(basis=answer.basis,
               value=None if answer.value is None else probability_json(answer.value),
               **{k: v for k, v in option_json(view, answer.measures).items() if k != "cell"},
               safest=probability_json(answer.safest),
               alternatives=[option_json(view, o) for o in answer.alternatives])
    return out
