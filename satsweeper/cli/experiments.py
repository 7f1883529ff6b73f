"""Experiments: bench (a strategy's win rate) and density (win rate against
mine density, critical density)."""

from __future__ import annotations

import importlib.util
import json

import click

from .contract import (INTERRUPTED, LevelParam, OutputPath, SizeParam, UserError, emit, json_option,
                       progress, write_output)

STRATEGIES = ("random", "single-point", "basic", "limited", "limited-prob", "exact", "best")


def require_experiments(command: str, *modules: str) -> None:
    """Bad input (exit 2), not a traceback, when the experiments extra is missing."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise UserError(f"{' and '.join(missing)} for {command}: pip install 'satsweeper[experiments]'",
                        f"{', '.join(missing)} missing")


@click.command()
@click.option("--level", type=LevelParam(), default="expert", show_default=True,
              help="beginner, intermediate, expert, or WIDTHxHEIGHTxMINES (e.g. 10x10x10).")
@click.option("--strategy", "strategy_name", type=click.Choice(STRATEGIES), default="exact",
              show_default=True, help="The player.")
@click.option("--games", default=1000, show_default=True, type=click.IntRange(1), help="Games to play.")
@click.option("--rules", type=click.Choice(["can-lose", "safe", "opening"]), default="safe",
              show_default=True, help="First click: may lose, is safe, or opens a region.")
@click.option("--first", default="corner", show_default=True,
              help="First click: corner, centre, or ROW,COL.")
@click.option("--seed", default=0, show_default=True, type=int,
              help="Game i is drawn from (seed, i): the same games for any --workers.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1),
              help="Processes to play in.")
@click.option("--out", type=OutputPath(), help="Also write the JSON summary here.")
@json_option
def bench(level, strategy_name, games, rules, first, seed, workers, out, as_json):
    """Play many games with a strategy and report its win rate (95% Wilson interval).

    \b
    Examples:
      satsweeper bench --level expert --strategy best --games 1000 --seed 1 --workers 2
      satsweeper bench --level beginner --strategy exact --games 200 --json --out run.json
    """
    from ..experiments import first_cell, run
    from ..game import FirstClick
    try:
        start = first_cell(level, first)
    except ValueError as err:
        raise UserError(str(err).split(" (got")[0], first) from None
    with progress(f"{strategy_name} on {level}", games) as advance:
        summary = run(level, strategy_name, games, seed, FirstClick(rules), start, workers,
                      progress=advance)
    data = dict(summary.as_json(), rules=rules, first=list(start), seed=seed, workers=workers)
    note = write_output(out, json.dumps(data, indent=2) + "\n") if out else ""
    low, high = summary.interval()
    text = "\n".join([
        f"{'strategy':<12} {'level':<10} {'games':>6} {'wins':>6} {'win rate':>9} "
        f"{'95% CI':>15} {'guesses/game':>12} {'games/s':>8}",
        f"{strategy_name:<12} {str(level):<10} {summary.games:>6} {summary.wins:>6} "
        f"{summary.rate:>9.2%} {f'{low:.1%}-{high:.1%}':>15} "
        f"{data['guesses_per_game']:>12.2f} {data['games_per_second']:>8.1f}"] + ([note] if note else []))
    emit("bench", as_json, data, text, 0)


@click.command()
@click.option("--size", type=SizeParam(), help="One board size WIDTHxHEIGHT, e.g. 5x5.")
@click.option("--sweep", "sweep_to", type=click.IntRange(3, 30),
              help="Square sizes 3x3 up to NxN, and the asymptotic P*.")
@click.option("--strategy", "strategy_name", type=click.Choice(STRATEGIES), default="best",
              show_default=True, help="The player.")
@click.option("--games", default=1000, show_default=True, type=click.IntRange(1),
              help="Games per mine count.")
@click.option("--seed", default=0, show_default=True, type=int, help="Fixes every game.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1),
              help="Processes to play in.")
@click.option("--plot", "plot_path", type=OutputPath((".png", ".svg", ".pdf")),
              help="Picture of win rate against density (with --sweep, one per size: NAME-WxH.png).")
@json_option
def density(size, sweep_to, strategy_name, games, seed, workers, plot_path, as_json):
    """Win rate against mine density, logistic fit and critical density
    (after Chong, Sim, Ma and Goh, "On the Critical Density of Minesweeper Boards").

    Each size's result is printed (and plotted) as soon as it is known.

    \b
    Examples:
      satsweeper density --size 5x5 --games 1000 --plot density.png
      satsweeper density --sweep 10 --games 300 --workers 2 --json
    """
    from .. import density as critical
    require_experiments("density", "scipy", "matplotlib")
    if bool(size) == bool(sweep_to):
        raise UserError("exactly one of --size WxH and --sweep N", "both" if size else "neither")
    sizes = [(q, q) for q in range(3, sweep_to + 1)] if sweep_to else [size]
    results = []
    # A game costs about its board's area: progress is weighed so, else the
    # ETA, learnt on the small boards, is far too low for the big ones.
    total = sum((w * h - 1) * w * h for w, h in sizes) * games
    label = f"density sweep 3x3..{sweep_to}x{sweep_to}" if sweep_to else f"density {size[0]}x{size[1]}"
    try:
        with progress(label, total) as advance:
            for width, height in sizes:
                points = critical.sweep(width, height, strategy_name, games, seed, workers,
                                        lambda n, area=width * height: advance(n * area))
                fit = critical.fit_logistic(points)
                result = {"size": f"{width}x{height}", "critical_density": fit.critical,
                          "logistic": {"L": fit.height, "k": fit.steepness, "Q": fit.centre, "b": fit.floor},
                          "points": [{"mines": p.mines, "density": p.density, "wins": p.wins,
                                      "games": p.games, "corrected": p.corrected} for p in points]}
                if plot_path:
                    path = plot_path if not sweep_to else plot_path.with_stem(
                        f"{plot_path.stem}-{width}x{height}")
                    title = f"{width}x{height}, {strategy_name}, {games} games per point"
                    result["plot"] = str(path)
                    write_output(path, lambda p: critical.plot(points, fit, str(p), title))
                results.append(result)
                if not as_json:
                    click.echo(_size_line(result))
    except KeyboardInterrupt:
        click.echo(f"interrupted: {len(results)} of {len(sizes)} size(s) finished (above)", err=True)
        if as_json:
            emit("density", as_json, {"complete": False, "sizes": results}, None, INTERRUPTED)
        raise
    data = {"strategy": strategy_name, "games_per_point": games, "seed": seed, "complete": True,
            "sizes": results}
    text = None
    if sweep_to:
        p_star, slope = critical.asymptote({int(r["size"].split("x")[0]): r["critical_density"]
                                            for r in results})
        data["asymptotic_critical_density"] = p_star
        data["reciprocal_fit"] = {"P*": p_star, "a": slope}
        text = (f"asymptotic critical density P* = {p_star:.4f} (fit P(q) = P* + a/q, a = {slope:.4f}); "
                "Chong et al. found 0.159 with their solver")
    emit("density", as_json, data, text, 0)


def _size_line(result: dict) -> str:
    fit = result["logistic"]
    return (f"{result['size']:>7}: critical density P = {result['critical_density']:.4f}  "
            f"(logistic L={fit['L']:.3f} k={fit['k']:.2f} Q={fit['Q']:.4f} b={fit['b']:.3f})"
            + (f"; plot {result['plot']}" if "plot" in result else ""))


COMMANDS = (bench, density)
