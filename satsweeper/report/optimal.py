"""Words and JSON for optimal play on a small board and a strategy's exact chance beside it.

>>> from satsweeper.game import FirstClick, Level
>>> from satsweeper.optimal import Search
>>> data, text = optimum_report(Search(Level(4, 4, 4)).optimum(FirstClick.CAN_LOSE))
>>> print(text.splitlines()[0]); data["best_first"][:2]
4x4x4 can-lose: optimal play wins 961 of 1820 layouts (52.80%)
[{'row': 0, 'col': 1}, {'row': 0, 'col': 2}]
"""

from __future__ import annotations

from .contract import cell_json, fraction_text, probability_json


def optimum_report(best) -> tuple[dict, str]:
    """(JSON, text) of an :class:`satsweeper.optimal.Optimum`."""
    data = {"level": str(best.level), "rule": best.rule.value, "won": best.won, "layouts": best.layouts,
            **probability_json(best.value), "best_first": [cell_json(c) for c in best.firsts],
            "states": best.states, "seconds": best.seconds, "cpu_seconds": best.cpu_seconds}
    firsts = " ".join(f"{r},{c}" for r, c in best.firsts)
    text = (f"{best.level} {best.rule.value}: optimal play wins {best.won} of {best.layouts} "
            f"layout{'' if best.layouts == 1 else 's'} "
            f"({float(best.value):.2%})\n"
            f"first click: {firsts}\n"
            f"states: {best.states}, {best.cpu_seconds:.2f} s CPU ({best.seconds:.2f} s)")
    return data, text


def strategy_report(played, best, first_chosen: bool) -> tuple[dict, str]:
    """(JSON, text) of a strategy played on every allowed layout (``played``) beside the
    optimum ``best``; ``first_chosen``: its first click is the optimum's, not the user's."""
    gap = best.value - played.value
    where = f"{played.first[0]},{played.first[1]}"
    data = {"name": played.strategy, "first": cell_json(played.first), "won": played.won,
            "layouts": played.layouts, **probability_json(played.value), "seed": played.seed,
            "gap": probability_json(gap), "seconds": played.seconds}
    text = (f"{played.strategy} (first click {where}{', an optimal one' if first_chosen else ''}, "
            f"seed {played.seed}): wins {played.won} of {played.layouts} "
            f"({float(played.value):.2%}); gap to optimal {fraction_text(gap)} ({float(gap):.2%})")
    return data, text
