"""Words and JSON for many games: ``bench``'s win rate and ``density``'s sweep.

>>> from satsweeper.experiments import Summary
>>> s = Summary("best", "9x9x10", 100, 92, 40, 2.0)
>>> data = bench_json(s, {"rules": "safe", "first": [0, 0], "seed": 1}, "this process", 100)
>>> data["win_rate"], data["first"], data["complete"]
(0.92, {'row': 0, 'col': 0}, True)
>>> print(bench_text(s, data, 100, None))
strategy     level       games   wins  win rate          95% CI guesses/game  games/s
best         9x9x10        100     92    92.00%     85.0%-95.9%         0.40     50.0
"""

from __future__ import annotations

from .contract import cell_json


def bench_json(summary, params: dict, backend: str, games: int) -> dict:
    """The JSON of a bench run (:class:`satsweeper.experiments.Summary`) of ``games`` planned;
    ``complete`` is false, with ``planned_games``, when fewer were played."""
    complete = summary.games == games
    data = dict(summary.as_json(), rules=params["rules"], first=cell_json(params["first"]),
                seed=params["seed"], backend=backend, complete=complete)
    if not complete:
        data["planned_games"] = games
    return data


def journal_words(path, replaced: bool, complete: bool, command: str = "bench") -> str:
    """The line that says where a run's journal is (and how to go on with it)."""
    return (f"journal {path}" + (" (replaced the file that was there)" if replaced else "")
            + ("" if complete else f" (go on with: satsweeper {command} --resume {path})"))


def bench_text(summary, data: dict, games: int, journal: str | None) -> str:
    """The table of a bench run, the journal's line (``journal``) and a word if it stopped short."""
    low, high = summary.interval()
    wide = max(12, len(summary.strategy))  # a player of your own, myplayers:Safest, pushed the row out
    lines = [
        f"{'strategy':<{wide}} {'level':<10} {'games':>6} {'wins':>6} {'win rate':>9} "
        f"{'95% CI':>15} {'guesses/game':>12} {'games/s':>8}",
        f"{summary.strategy:<{wide}} {summary.level:<10} {summary.games:>6} {summary.wins:>6} "
        + (f"{summary.rate:>9.2%} {f'{low:.1%}-{high:.1%}':>15} {data['guesses_per_game']:>12.2f} "
           if summary.games else f"{'-':>9} {'-':>15} {'-':>12} ")  # no game: no rate
        + f"{data['games_per_second']:>8.1f}"]
    if journal:
        lines.append(journal)
    if summary.games != games:
        lines.append(f"interrupted: {summary.games} of {games} games ran")
    return "\n".join(lines)


def size_json(width: int, height: int, points, fit) -> dict:
    """One board size of a density sweep: its critical density, the logistic fit
    (:class:`satsweeper.density.LogisticFit`) and every mine count's point."""
    from ..density import FIT_PARAMETERS, no_critical
    why = no_critical(points, fit)
    # Through fewer points than its parameters any curve fits (2x2: a height of 2.0, no win rate): none.
    fitted = len(points) >= FIT_PARAMETERS
    return {"size": f"{width}x{height}", "critical_density": None if why else fit.critical,
            **({"no_critical_density": why} if why else {}),
            "logistic": {"L": fit.height, "k": fit.steepness, "Q": fit.centre, "b": fit.floor} if fitted else None,
            "points": [{"mines": p.mines, "density": p.density, "wins": p.wins,
                        "games": p.games, "corrected": p.corrected} for p in points]}


def size_line(result: dict, said: str) -> str:
    """One size's result (:func:`size_json`); ``said``: what writing its plot told (or nothing)."""
    fit = result["logistic"]
    found = f"critical density P = {result['critical_density']:.4f}" if result["critical_density"] is not None \
        else f"no critical density ({result['no_critical_density']})"
    fitted = f"  (logistic L={fit['L']:.3f} k={fit['k']:.2f} Q={fit['Q']:.4f} b={fit['b']:.3f})" \
        if result["critical_density"] is not None else ""  # no critical density: the fit means nothing (--json keeps it)
    return f"{result['size']:>7}: {found}{fitted}" + (f"; {said}" if said else "")


def asymptote_json(p_star: float, slope: float, error: float | None) -> dict:
    """The sweep's P(q) = P* + a/q fit, as the JSON has it."""
    return {"asymptotic_critical_density": p_star,
            "reciprocal_fit": {"P*": p_star, "a": slope, "standard_error": error}}


def asymptote_words(p_star: float, slope: float, error: float | None) -> str:
    """The sweep's last line: P*, its standard error, and a doubt where it cannot be a density.

    >>> print(asymptote_words(-0.2, 0.4, None).split("; ")[1])
    outside 0..1: too few games per point or sizes to extrapolate
    """
    spread = f" +- {error:.4f} (the fit's standard error)" if error is not None else \
        " (two sizes fix the line: no error to give)"
    # A density is in [0, 1]; a P* outside says the points are too few or too noisy to extrapolate.
    doubt = "" if 0 <= p_star <= 1 else "; outside 0..1: too few games per point or sizes to extrapolate"
    return (f"asymptotic critical density P* = {p_star:.4f}{spread} (fit P(q) = P* + a/q, a = {slope:.4f})"
            f"{doubt}; Chong et al. found 0.159 with their solver")
