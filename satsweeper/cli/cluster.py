"""Where bench, density and generate --count run: the options they share.

``--workers N`` processes here; ``--dask`` a Dask LocalCluster of them;
``--scheduler ADDRESS`` a running Dask scheduler and its workers (README,
"Long experiments and clusters").  Results are the same whichever is used.
"""

from __future__ import annotations

import importlib.util

import click

from .contract import UserError


def backend_options(command):
    """``--workers``, ``--dask``, ``--scheduler`` and ``--chunk``."""
    options = [
        click.option("--workers", default=1, show_default=True, type=click.IntRange(1),
                     help="Processes to run in (here, or in the LocalCluster with --dask)."),
        click.option("--dask", "use_dask", is_flag=True,
                     help="Run on a Dask LocalCluster of --workers processes "
                          "(pip install 'satsweeper[cluster]')."),
        click.option("--scheduler", metavar="ADDRESS",
                     help="Run on the Dask scheduler at ADDRESS (e.g. tcp://10.0.0.5:8786) and its "
                          "workers, each with satsweeper installed."),
        click.option("--chunk", type=click.IntRange(1), metavar="N",
                     help="Items per chunk sent to a worker (default: about 16 chunks per worker, "
                          "4 on Dask, at most 100)."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def backend_of(workers: int, use_dask: bool, scheduler: str | None, chunk: int | None):
    """The library's Backend for the options given."""
    from ..runner import Backend
    if use_dask and scheduler:
        raise UserError("one of --dask and --scheduler", "both")
    if scheduler is not None and not scheduler.strip():
        raise UserError("--scheduler ADDRESS such as tcp://10.0.0.5:8786", "an empty address")
    if scheduler and workers != 1:  # it was ignored: the run went to the one worker attached
        raise UserError("--workers alone or with --dask (a --scheduler run plays on the scheduler's own "
                        "workers: start more with dask worker ADDRESS)", f"--workers {workers} with --scheduler")
    if (use_dask or scheduler) and importlib.util.find_spec("distributed") is None:
        # Said here, before --out starts a journal: the runner finds out only
        # once the run begins.
        raise UserError("dask.distributed for a cluster run: pip install 'satsweeper[cluster]'",
                        "no module named 'distributed'")
    if use_dask or scheduler:
        _show_runner_notes()
    return Backend(workers=workers, dask=use_dask, scheduler=scheduler, chunk=chunk)


def _show_runner_notes() -> None:
    """What the runner says while a run waits (no Dask worker attached), on stderr as
    ``satsweeper: ...`` like every other message."""
    import logging

    class Notes(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            # click.echo finds stderr when it writes (a test runner swaps it per command)
            click.echo(f"satsweeper: {record.getMessage()}", err=True)

    log = logging.getLogger("satsweeper.runner")
    if not any(type(h).__name__ == "Notes" for h in log.handlers):
        log.addHandler(Notes())
        log.propagate = False
