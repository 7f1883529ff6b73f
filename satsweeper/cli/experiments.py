"""Experiments: bench (a strategy's win rate) and density (win rate against
mine density, critical density)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import click

from ..report.experiments import (asymptote_json, asymptote_words, bench_json, bench_text, journal_words,
                                  size_json, size_line)
from .cluster import backend_of, backend_options
from .contract import (INTERRUPTED, LIMIT, STRATEGIES, InputFile, LevelParam, OutputPath, PlayerParam, SizeParam, UserError,
                       cut, emit, json_option, note_replaced, progress, write_out, write_output)


def require_experiments(command: str, *modules: str) -> None:
    """Bad input (exit 2), not a traceback, when the experiments extra is missing, or one of
    its modules cannot start here (matplotlib with no writable directory for its cache was
    an internal error, once the work was done)."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise UserError(f"{' and '.join(missing)} for {command}: pip install 'satsweeper[experiments]'",
                        f"{', '.join(missing)} missing")
    import logging
    # Its notes on a cache directory made elsewhere (a read-only HOME) are not the command's words.
    logging.getLogger("matplotlib").setLevel(logging.ERROR)
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception as err:  # noqa: BLE001 - whatever stops it, said in one line
            raise UserError(f"{name} able to start for {command} (matplotlib: set MPLCONFIGDIR to a "
                            "writable directory)", f"{type(err).__name__}: {cut(str(err))}") from None


@click.command()
@click.option("--level", type=LevelParam(), default="expert", show_default=True,
              help="beginner, intermediate, expert, or WIDTHxHEIGHTxMINES (e.g. 10x10x10).")
@click.option("--strategy", "strategy_name", type=PlayerParam(), default="exact",
              show_default=True, help="The player: a built-in one, or your own class as MODULE:CLASS "
                                      "(importable from the current directory).")
@click.option("--games", default=1000, show_default=True, type=click.IntRange(1), help="Games to play.")
@click.option("--rule", "--rules", "rules", type=click.Choice(["can-lose", "safe", "opening"]), default="safe",
              show_default=True, help="First click: may lose, is safe, or opens a region.")
@click.option("--first", default="corner", show_default=True, metavar="corner|centre|ROW,COL",
              help="First click: corner, centre, or ROW,COL.")
@click.option("--seed", default=0, show_default=True, type=int,
              help="Game i is drawn from (seed, i): the same games wherever they run.")
@backend_options
@click.option("--out", type=OutputPath(), metavar="FILE",
              help="Journal of the run, written as it goes: a JSON line per finished chunk of "
                   "games, then the summary.")
@click.option("--resume", type=InputFile(journal=True), metavar="FILE",
              help="Continue the run journaled in FILE (its --out), writing on in it (its finished "
                   "games kept, a half-written last line dropped); the final "
                   "summary is the one an uninterrupted run gives.")
@json_option
@click.pass_context
def bench(ctx, level, strategy_name, games, rules, first, seed, workers, use_dask, scheduler, chunk,
          out, resume, as_json):
    """Play many games with a strategy and report its win rate (95% Wilson interval).

    Ctrl-C (or kill, SIGTERM) stops the run and prints the summary of the
    games that finished (exit 130); with --out they are on disk, and --resume
    goes on from there.

    \b
    Examples:
      satsweeper bench --level expert --strategy best --games 1000 --seed 1 --workers 2
      satsweeper bench --level expert --games 100000 --out run.jsonl --dask --workers 2
      satsweeper bench --resume run.jsonl --scheduler tcp://10.0.0.5:8786
    """
    from ..experiments import Summary, run
    from ..game import FirstClick
    from ..journal import JournalUnwritable
    from ..runner import RunLost, interrupts_held
    from ..cells import check_room
    backend = backend_of(workers, use_dask, scheduler, chunk)
    params = {"strategy": strategy_name, "level": str(level), "rules": rules, "first": first,
              "seed": seed, "games": games}
    done = ()
    if resume is not None:
        if out is not None:
            raise UserError("one of --out and --resume (a resumed run goes on in its own file)", "both")
        params, done, out = _resumed(ctx, resume, params)
    else:
        params["first"] = list(_first_of(level, first))
        params["code"] = _code_of(strategy_name)
    level, strategy_name, rules, start, seed, games = _run_of(params, done[-1].stop if done else 0)
    check_memory(level)  # first: check_room's neighbour table is as big as the board
    check_room(level, start, rules)
    replaced = resume is None and _replacing(out, "bench")
    journal = _journal(out, params, done) if out else None
    so_far = Summary(strategy_name, str(level), 0, 0, 0, 0.0)
    for chunk in done:
        so_far = so_far.adding(chunk)
    finished = [so_far]  # what Ctrl-C reports: at least the resumed games, maybe none

    def record(chunk, summary):
        with interrupts_held():  # journaled and counted, or neither: the summary says what the journal keeps
            if journal:
                journal.chunk(chunk)
            finished[0] = summary

    try:
        played = done[-1].stop if done else 0
        after = f" after the journal's {played}" if played else ""  # else "4500 of 4500" read as the whole run
        with progress(f"{strategy_name} on {level}{after}", games - played, "games") as advance:
            summary = run(level, strategy_name, games, seed, FirstClick(rules), start,
                          progress=advance, backend=backend, done=done, on_chunk=record)
    except KeyboardInterrupt as err:
        if str(err):  # why, when it was not Ctrl-C: the CPU time limit
            click.echo(f"satsweeper: interrupted: {err}", err=True)
        _report_bench(finished[0], params, backend, games, journal, replaced, as_json, INTERRUPTED, "interrupted")
    except (RunLost, JournalUnwritable) as err:  # a worker process or the Dask scheduler gone, a full disk
        click.echo(f"satsweeper: {err}", err=True)
        _report_bench(finished[0], params, backend, games, journal, replaced, as_json, LIMIT, str(err))
    _report_bench(summary, params, backend, games, journal, replaced, as_json, 0)


SQUARE_BYTES = 450  # a game's memory per square: bench --level 1000x1000x1 peaks at 448 MB, 300x300x1 at 70 MB


def check_memory(level, what: str = "level") -> None:
    """Bad input (exit 2) when one game of ``level`` needs more memory than the machine has:
    a typo such as 100000x100000x1 otherwise grows until the kernel kills some process,
    maybe another long run's.  ``what``: "size" for density's (named WIDTHxHEIGHT)."""
    import os
    try:
        have = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # not POSIX: no check
        return
    need = level.width * level.height * SQUARE_BYTES
    if need > have:
        named = f"{level.width}x{level.height}" if what == "size" else str(level)
        raise UserError(f"a {what} whose game fits in this machine's {have / 1e9:.1f} GB of memory",
                        f"{named}, about {need / 1e9:,.1f} GB a game")


def _journal_to_resume(source, read):
    """``--resume FILE`` read by ``read`` (a bench or density journal reader);
    standard input (nothing to append to) and unreadable lines are user errors."""
    from ..errors import BoardSyntaxError
    import os
    import stat
    if source.name == "<stdin>":
        raise UserError("a journal file to go on writing", "standard input")
    if not stat.S_ISREG(os.stat(source.name).st_mode):  # /dev/zero was read until memory ran out
        raise UserError("a journal file to go on writing", f"{source.name}, which is not a regular file")
    try:
        return read(source.name)
    except BoardSyntaxError as err:
        raise UserError(err.expected, err.found, err.source, err.line, err.column) from None


def _resumed(ctx, source, params: dict):
    """The journaled run's parameters, its finished chunks, and its path; options
    given on the command line must agree with it (but --games may change the plan, not below
    the games already played)."""
    from pathlib import Path

    from ..journal import read_journal
    journal = _journal_to_resume(source, read_journal)
    kept = {k: v for k, v in journal.run.items() if k not in ("command", "version")}
    level = _run_of(kept, journal.games, source.name)[0]
    if ctx.get_parameter_source("first").name == "COMMANDLINE":
        # centre and ROW,COL are cells of the journal's level, not of --level's default (expert)
        params["first"] = list(_first_of(level, params["first"]))
    for key in ("strategy", "level", "rules", "first", "seed"):
        option = {"strategy": "strategy_name"}.get(key, key)
        if ctx.get_parameter_source(option).name == "COMMANDLINE" and params[key] != kept.get(key):
            said = {"rules": "rule"}.get(key, key)  # the option is --rule (--rules its old name)
            asked, journaled = (",".join(map(str, v)) if key == "first" else v for v in (params[key], kept[key]))
            raise UserError(f"--{said} as in the journal ({journaled})", str(asked), source.name)
    _same_code(kept, source.name)
    if ctx.get_parameter_source("games").name == "COMMANDLINE":
        if params["games"] < journal.games:
            raise UserError(f"--games of at least the {journal.games} already played",
                            str(params["games"]), source.name)
        kept["games"] = params["games"]
    return kept, journal.chunks, Path(source.name)


def _code_of(strategy_name: str) -> str | None:
    """The fingerprint of the code a run's games are played with (its journal keeps it)."""
    from ..errors import InputError
    from ..runner import player_fingerprint
    from ..strategies import strategy
    try:
        strategy(strategy_name)  # imported as a run imports it: from the current folder too
        return player_fingerprint(strategy_name)
    except (ImportError, OSError, InputError):  # a player the run refuses by name, with its own words
        return None


def _same_code(kept: dict, source: str) -> None:
    """A journal's games go on with the code that played them: satsweeper's source and a
    player of your own, as :func:`~satsweeper.runner.player_fingerprint` digests them.  A
    journal written before it kept one (no ``code``) is taken as it is."""
    journaled = kept.get("code")
    if journaled is None:
        return
    now = _code_of(str(kept.get("strategy")))
    if now != journaled:
        raise UserError(f"the code that played the journal's games (code {journaled}): satsweeper and "
                        "the player unchanged since it began, or a new run (--out)", f"code {now}", source)


def _first_of(level, first: str):
    """The cell ``--first`` names on ``level`` (bad input: exit 2)."""
    from ..experiments import first_cell
    try:
        return first_cell(level, first)
    except ValueError as err:
        raise UserError(str(err).split(" (got")[0], first) from None


def _run_of(params: dict, played: int, source: str | None = None):
    """The run's level, strategy, rules, first click, seed and games, checked: a
    damaged journal (``source``, whose first line holds them) is bad input (exit 2),
    not an internal error once it is played, nor a run of other games."""
    from ..game import FirstClick, Level
    wanted = "a journal whose run has strategy, level, rules, first, seed and games"

    def bad(found: str, what: str = wanted):
        return UserError(what, found, source)  # a file's place is its first line (UserError's default)

    def shown(value) -> str:  # as the file writes it
        text = json.dumps(value)
        return text if len(text) <= 40 else text[:39] + "…"

    missing = [key for key in ("strategy", "level", "rules", "first", "seed", "games") if key not in params]
    if missing:
        raise bad(f"no {', '.join(missing)}")
    first, seed, games = params["first"], params["seed"], params["games"]
    whole = [n for n in (seed, games, *(first if isinstance(first, list) else ())) if type(n) is not int]
    if whole or not isinstance(first, list):  # a hand-edited 1.5 would draw other games than the run's
        raise bad(f"seed {shown(seed)}, games {shown(games)}, first {shown(first)}",
                  f"{wanted}: seed, games and first of whole numbers")
    try:
        level, rules = Level.parse(str(params["level"])), FirstClick(params["rules"]).value
    except ValueError:
        raise bad(f"level {shown(params['level'])}, rules {shown(params['rules'])}",
                  f"{wanted}: a level WIDTHxHEIGHTxMINES and rules one of "
                  f"{', '.join(r.value for r in FirstClick)}") from None
    first = tuple(first)
    _importable_here(params["strategy"], source)
    if not _known_player(params["strategy"]) or len(first) != 2 or not (0 <= first[0] < level.height
                                                                       and 0 <= first[1] < level.width):
        raise bad(f"strategy {cut(str(params['strategy']))}, first click {first} on {level}")
    if games < max(played, 1):
        least = f"the {played} finished" if played else "1"
        raise bad(f"{games} games", f"{wanted}, games at least {least}")
    return level, params["strategy"], rules, first, seed, games


def _importable_here(name, source: str | None) -> None:
    """A journal's player of your own whose module is not importable from here is said so:
    resumed from another folder, the journal was called malformed."""
    if source is None or not isinstance(name, str) or name.count(":") != 1 or name in STRATEGIES:
        return
    from ..errors import InputError
    from ..strategies import own_player
    try:
        own_player(name)  # as the run imports it: from the current folder too
    except InputError as err:
        if "importable from here" in str(err):
            raise UserError(f"the journal's player {name} importable here: run from the folder of its "
                            "module, or put that folder on PYTHONPATH", f"no module named {name.split(':')[0]!r}",
                            source) from None


def _known_player(name) -> bool:
    """A journal's strategy: a built-in name, or a MODULE:CLASS importable here and now."""
    if name in STRATEGIES:
        return True
    if not isinstance(name, str) or ":" not in name:
        return False
    from ..errors import InputError
    from ..strategies import strategy
    try:
        strategy(name)
    except InputError:
        return False
    return True


def _replacing(out, command: str) -> bool:
    """Whether ``--out`` replaces a file.  A journal that holds finished work
    is refused before anything runs: it may be hours of games, and
    ``--resume`` is what goes on with it."""
    if out is None or not out.exists():
        return False
    if out.stat().st_size == 0:
        return True  # nothing in it to lose, but the user named a file that was there: say so
    found = _finished(out)
    if found is None:  # a board, a memo, a picture: something the user made, not our journal
        raise UserError("an --out file that is new, empty, or a journal of a run (remove it first to replace it)",
                        "a file that is not a journal", str(out))
    finished, owner = found
    if finished:
        # Its own command goes on with it: 'bench --resume' refuses a density journal.
        raise UserError(f"an --out file that holds no finished work (go on with: satsweeper "
                        f"{owner} --resume {out}; or remove the file)", finished, str(out))
    return True


def _finished(path) -> tuple[str, str] | None:
    """(what a journal at ``path`` has finished, in words ("" when nothing), the command
    that wrote it), or None (no journal)."""
    from ..errors import BoardSyntaxError
    from ..journal import read_journal, read_levels
    for read, count, unit, owner in ((read_journal, lambda j: j.games, "games of bench", "bench"),
                                     (read_levels, lambda j: len(j.levels), "mine counts of density", "density")):
        try:
            done = count(read(path))
        except (BoardSyntaxError, OSError, UnicodeDecodeError):
            continue
        return (f"a journal of {done} finished {unit}" if done else "", owner)
    return None


def _journal(path, params: dict, done):
    return _writer(path, dict(command="bench", version=1, **params), chunks=tuple(done))


def _writer(path, run: dict, **kept):
    """The journal's writer; a file another run is writing now is bad input (its
    games would be lost under ours), said before any game is played."""
    from ..journal import JournalBusy, JournalWriter
    try:
        return JournalWriter(path, run, **kept)
    except JournalBusy:
        raise UserError("a journal no other run is writing (wait for it, or name another file)",
                        f"{path}, which another satsweeper run is writing now") from None
    except OSError as err:  # --resume in a place that cannot be written (--out was checked before)
        from .contract import check_writable
        check_writable(Path(path))  # says why in the words --out's check uses
        raise UserError("a journal we may write", f"{path}, {(err.strerror or str(err)).lower()}") from None


def _report_bench(summary, params: dict, backend, games: int, journal, replaced: bool, as_json: bool,
                  code: int, stopped: str | None = None):
    data = bench_json(summary, params, backend.describe(), games)
    if stopped and not data["complete"]:
        data["stopped"] = stopped  # why it is not complete, as every stopped answer says
    said = None
    if journal:
        if data["complete"]:
            from ..journal import JournalUnwritable
            try:
                journal.summary(data)
            except JournalUnwritable as err:  # every game is in it: --resume plays none and writes it
                click.echo(f"satsweeper: {err}; its games are all there (--resume {journal.path} "
                           "adds the summary)", err=True)
                code = LIMIT
        journal.close()
        said = journal_words(journal.path, replaced, data["complete"])
        if replaced:
            note_replaced(journal.path)
    emit("bench", as_json, data, bench_text(summary, data, games, said), code)


@click.command()
@click.option("--size", type=SizeParam(), help="One board size WIDTHxHEIGHT, e.g. 5x5.")
@click.option("--sweep", "sweep_to", type=click.IntRange(4, 30),
              help="Square sizes 3x3 up to NxN (N at least 4: P* is fitted to two sizes or more), "
                   "and the asymptotic P*.")
@click.option("--strategy", "strategy_name", type=PlayerParam(), default="best",
              show_default=True, help="The player: a built-in one, or your own class as MODULE:CLASS "
                                      "(importable from the current directory).")
@click.option("--games", default=1000, show_default=True, type=click.IntRange(1),
              help="Games per mine count.")
@click.option("--seed", default=0, show_default=True, type=int, help="Fixes every game.")
@backend_options
@click.option("--plot", "plot_path", type=OutputPath((".png", ".svg", ".pdf")),
              help="Picture of win rate against density (with --sweep, one per size, its size added to the "
                   "name: --plot d.png writes d-3x3.png, d-4x4.png, ...).")
@click.option("--out", type=OutputPath(), metavar="FILE",
              help="Journal of the sweep, written as it goes: a JSON line per finished mine count.")
@click.option("--resume", type=InputFile(journal=True), metavar="FILE",
              help="Continue the sweep journaled in FILE (its --out), writing on in it (its finished "
                   "mine counts kept); the result "
                   "is the one an uninterrupted sweep gives.")
@json_option
@click.pass_context
def density(ctx, size, sweep_to, strategy_name, games, seed, workers, use_dask, scheduler, chunk, plot_path,
            out, resume, as_json):
    """Win rate against mine density, logistic fit and critical density
    (after Chong, Sim, Ma and Goh, "On the Critical Density of Minesweeper Boards").

    Each size's result is printed (and plotted) as soon as it is known.
    With --out every finished mine count is on disk as it finishes; after
    Ctrl-C or a lost machine, --resume FILE plays only what is missing.

    \b
    Examples:
      satsweeper density --size 5x5 --games 1000 --plot density.png
      satsweeper density --sweep 10 --games 300 --workers 2 --json
      satsweeper density --sweep 20 --games 1000 --out sweep.jsonl --scheduler tcp://10.0.0.5:8786
      satsweeper density --resume sweep.jsonl --workers 2
    """
    from .. import density as critical
    from ..journal import JournalUnwritable
    from ..runner import RunLost
    require_experiments("density", "scipy", "matplotlib")
    backend = backend_of(workers, use_dask, scheduler, chunk)
    params = {"strategy": strategy_name, "games": games, "seed": seed,
              "size": list(size) if size else None, "sweep": sweep_to}
    done = {}
    if resume is not None:
        if out is not None:
            raise UserError("one of --out and --resume (a resumed sweep goes on in its own file)", "both")
        params, done, out = _resumed_sweep(ctx, resume, params)
        strategy_name, games, seed, sweep_to = params["strategy"], params["games"], params["seed"], params["sweep"]
        size = tuple(params["size"]) if params["size"] else None
    else:
        params["code"] = _code_of(strategy_name)
    if bool(size) == bool(sweep_to):
        raise UserError("exactly one of --size WxH and --sweep N", "both" if size else "neither")
    sizes = [(q, q) for q in range(3, sweep_to + 1)] if sweep_to else [size]
    from ..game import Level
    for width, height in sizes:  # first: the sweep's list of levels is as long as the board is big
        check_memory(Level(width, height, 1), "size")
    replaced = resume is None and _replacing(out, "density")
    journal = _sweep_journal(out, params, done, sizes) if out else None
    results, levels = [], []  # finished sizes; finished mine counts of the size under way

    def finished_level(summary) -> None:
        levels.append(summary)
        if journal:
            journal.level(summary)
    # A game costs about its board's area: progress is weighed so, else the
    # ETA, learnt on the small boards, is far too low for the big ones.
    total = sum(level.width * level.height for level in critical.levels_of(sizes)
                if str(level) not in done) * games
    label = f"density sweep 3x3..{sweep_to}x{sweep_to}" if sweep_to else f"density {size[0]}x{size[1]}"
    try:
        # Counted in squares, not games: "60000 of 60000" after --games 100 needs its unit.
        with progress(label, total, "squares played (games x mine counts x squares per board)") as advance:
            # One run over every size keeps a cluster busy from one size to
            # the next; each size comes back (and is shown) when it is done.
            for (width, height), points in critical.sweeps(sizes, strategy_name, games, seed,
                                                           backend, advance, done, finished_level):
                levels.clear()
                fit = critical.fit_logistic(points)
                result = size_json(width, height, points, fit)
                said = ""
                if plot_path:
                    path = plot_path if not sweep_to else plot_path.with_stem(
                        f"{plot_path.stem}-{width}x{height}")
                    title = f"{width}x{height}, {strategy_name}, {games} games per point"
                    result["plot"] = str(path)
                    said = write_output(path, lambda p: critical.plot(points, fit, str(p), title))
                results.append(result)
                if not as_json:
                    write_out(size_line(result, said) + "\n")
    except (KeyboardInterrupt, RunLost, JournalUnwritable) as err:
        kept = f"; every finished mine count is in {journal.path} (go on with: satsweeper density " \
               f"--resume {journal.path})" if journal else ""
        if str(err):  # a worker process or the Dask scheduler gone, a full disk, the CPU time limit
            click.echo(f"satsweeper: {'interrupted: ' if isinstance(err, KeyboardInterrupt) else ''}{err}", err=True)
        above = " (above)" if results and not as_json else ""
        partly = f", and {len(levels)} mine count(s) of the size under way" if levels else ""
        click.echo(f"{'interrupted' if isinstance(err, KeyboardInterrupt) else 'stopped'}: "
                   f"{len(results)} of {len(sizes)} size(s) finished{above}{partly}{kept}", err=True)
        # The answer, with what finished (a size's finished mine counts too), and no second line.
        stopped = "interrupted" if isinstance(err, KeyboardInterrupt) else str(err)
        emit("density", as_json, {"complete": False, "stopped": stopped, "sizes": results,
                                  "levels": [level.as_json() for level in levels]}, None,
             INTERRUPTED if isinstance(err, KeyboardInterrupt) else LIMIT)
    finally:
        if journal:
            journal.close()
    data = {"strategy": strategy_name, "games_per_point": games, "seed": seed, "complete": True,
            "sizes": results}
    text = None
    if sweep_to:
        found = critical.extrapolate({int(r["size"].split("x")[0]): r["critical_density"] for r in results})
        if found.density is not None:
            data.update(asymptote_json(found.density, found.slope, found.error))
            text = asymptote_words(found.density, found.slope, found.error)
        else:  # too few games for the small boards to fall through 1/2: nothing to extrapolate
            data["asymptotic_critical_density"] = None
            text = f"no asymptotic critical density: {found.placed} size(s) place a critical density, two are needed"
    if replaced:  # as bench says it: the run's lines are above, this is the file's
        text = "\n".join(filter(None, [text, journal_words(journal.path, True, True, "density")]))
        note_replaced(journal.path)
    emit("density", as_json, data, text, 0)


def _resumed_sweep(ctx, source, params: dict):
    """The journaled sweep's parameters, its finished levels and its path;
    options given on the command line must agree with the journal."""
    from pathlib import Path

    from ..journal import read_levels
    journal = _journal_to_resume(source, read_levels)
    kept = {k: v for k, v in journal.run.items() if k not in ("command", "version")}
    if journal.run.get("command") != "density" or set(kept) - {"code"} != set(params):
        raise UserError("the journal of a density sweep (its --out)", f"a {journal.run.get('command')} run",
                        source.name)
    size, sweep = kept["size"], kept["sweep"]
    # As the command line takes them: a size of 2 cells or more, a sweep to 4..30.
    sized = (isinstance(size, list) and len(size) == 2 and all(type(n) is int and n > 0 for n in size)
             and size[0] * size[1] >= 2 and sweep is None) or \
        (size is None and type(sweep) is int and 4 <= sweep <= 30)
    if not (sized and type(kept["games"]) is int and type(kept["seed"]) is int and kept["games"] > 0
            and _known_player(kept["strategy"])):
        raise UserError("a density journal whose run has a strategy, whole games and seed, and a size "
                        "[WIDTH, HEIGHT] or a sweep", json.dumps(kept)[:80], source.name)
    # a size as the user writes it, 5x5 (the journal keeps [5, 5])
    journaled = f"--size {size[0]}x{size[1]}" if size else f"--sweep {sweep}"
    for key, option in (("strategy", "strategy_name"), ("games", "games"), ("seed", "seed"),
                        ("size", "size"), ("sweep", "sweep_to")):
        if ctx.get_parameter_source(option).name == "COMMANDLINE" and params[key] != kept[key]:
            asked = "x".join(map(str, params[key])) if key == "size" else params[key]
            expected = f"the journal's {journaled}" if key in ("size", "sweep") else \
                f"--{key} as in the journal ({kept[key]})"
            raise UserError(expected, f"--{key} {asked}", source.name)
    _check_levels(journal, kept, source.name)
    _same_code(kept, source.name)
    return kept, journal.levels, Path(source.name)


def _check_levels(journal, kept: dict, name: str) -> None:
    """Each finished level is one the run plays, by its strategy and games: a line edited
    by hand (another strategy, more games, a level of another size) was summed into the fit."""
    from .. import density as critical
    sizes = [tuple(kept["size"])] if kept["size"] else [(q, q) for q in range(3, kept["sweep"] + 1)]
    planned = {str(level) for level in critical.levels_of(sizes)}
    for level, summary in journal.levels.items():
        found = (f"level {level}, not one of the run's" if level not in planned else
                 f"strategy {summary.strategy!r}" if summary.strategy != kept["strategy"] else
                 f"{summary.games} games" if summary.games != kept["games"] else None)
        if found:
            raise UserError(f"a level of the run's sweep, by {kept['strategy']}, {kept['games']} games "
                            f"(as the run line says)", found, name, journal.lines[level], 1)


def _sweep_journal(path, params: dict, done: dict, sizes):
    from .. import density as critical
    kept = tuple(done[str(level)] for level in critical.levels_of(sizes) if str(level) in done)
    return _writer(path, dict(command="density", version=1, **params), levels=kept)


COMMANDS = (bench, density)
