"""``satsweeper serve``: the analyser, the game and the gadgets in a browser."""

from __future__ import annotations

import json
from dataclasses import replace

import click

from .contract import INTERRUPTED, Positive, Seconds, UserError, json_option


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (the default answers this machine only).")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the web browser.")
@click.option("--max-cells", default=1_000_000, show_default=True, type=click.IntRange(1),
              help="Largest board (width times height) answered; larger ones get 413.")
@click.option("--timeout", default=10.0, show_default=True, type=Seconds(),
              metavar="SECONDS", help="Time a query gets unless the request asks for less or more "
              "(a request may ask for up to 60 s, or up to this when it is more); then what is known is sent.")
@click.option("--max-memory", type=Positive(), metavar="GB",
              help="Memory each of the two workers may take for a query; past it the query answers 413, "
                   "out of memory (default: a third of what the machine has free when it starts).")
@click.option("--access-log", is_flag=True,
              help="A line per request on stderr: time, client, method, path and status.")
@json_option
def serve(host, port, open_browser, max_cells, timeout, max_memory, access_log, as_json):
    """Serve the page (Analyse, Play, Gadgets) and the JSON API at
    http://HOST:PORT/ until Ctrl-C; the API is described at /api.html.

    \b
    With --json the one object says where it serves, once it can (or the
    error); the server then runs as without it.

    \b
    Examples:
      satsweeper serve
      satsweeper serve --port 9000 --open
      satsweeper serve --json
    """
    try:
        from ..web.server import Limits, serve as run
    except ImportError as err:
        raise UserError("the web extra installed (pip install 'satsweeper[web]')",
                        f"no module {err.name}") from None
    port = _check_free(host, port)
    url = f"http://{f'[{host}]' if ':' in host else host}:{port}/"  # an IPv6 address in brackets
    limits = Limits(cells=max_cells, timeout=timeout, max_timeout=max(60.0, timeout))
    memory = _worker_memory(max_memory, limits.workers)
    limits = replace(limits, memory=memory)
    if as_json:  # for a script that starts the server: where, and with which limits
        from ..report.contract import envelope
        click.echo(json.dumps(envelope("serve", {
            "url": url, "host": host, "port": port, "max_cells": max_cells, "timeout": timeout,
            "max_memory_gb": None if memory is None else round(memory / 2 ** 30, 2)})))
    click.echo(f"satsweeper: serving {url} (Ctrl-C stops)", err=True)
    run(host, port, open_browser, limits, access_log)
    # uvicorn returns only once a signal (Ctrl-C, SIGTERM) stopped it.
    click.echo("satsweeper: interrupted, the server stopped", err=True)
    raise click.exceptions.Exit(INTERRUPTED)


def _worker_memory(gigabytes: float | None, workers: int) -> int | None:
    """Bytes a worker may take: ``gigabytes``, or a share of what the machine has free (the
    server and each worker a share: two queries of one class took 26 GB of a 24 GB machine)."""
    if gigabytes is not None:
        return int(gigabytes * 2 ** 30)
    from ..limits import machine_memory
    free = machine_memory()
    return None if free is None else free // (workers + 1)


def _check_free(host: str, port: int) -> int:
    """The port to serve on: ``port``, or for 0 one the system has free (so that
    the URL said is the one served, not ...:0/).  A port in use is bad usage
    (exit 2), said before the server starts."""
    import socket
    family = socket.AF_INET6 if ":" in host else socket.AF_INET  # ::1 was "address family not supported"
    try:
        with socket.create_server((host, port), family=family) as probe:
            return probe.getsockname()[1]
    except OSError as err:
        raise UserError("an address and port this program may listen on",
                        f"{host}:{port}, {(err.strerror or str(err)).lower()}") from None


COMMANDS = (serve,)
