"""``satsweeper serve``: the analyser, the game and the gadgets in a browser."""

from __future__ import annotations

import json

import click

from .contract import INTERRUPTED, Seconds, UserError, json_option


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
              "(at most 60 s); then what is known is sent.")
@json_option
def serve(host, port, open_browser, max_cells, timeout, as_json):
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
    url = f"http://{host}:{port}/"
    if as_json:  # for a script that starts the server: where, and with which limits
        from ..report.contract import envelope
        click.echo(json.dumps(envelope("serve", {"url": url, "host": host, "port": port,
                                                 "max_cells": max_cells, "timeout": timeout})))
    click.echo(f"satsweeper: serving {url} (Ctrl-C stops)", err=True)
    run(host, port, open_browser, Limits(cells=max_cells, timeout=timeout, max_timeout=max(60.0, timeout)))
    # uvicorn returns only once a signal (Ctrl-C, SIGTERM) stopped it.
    click.echo("satsweeper: interrupted, the server stopped", err=True)
    raise click.exceptions.Exit(INTERRUPTED)


def _check_free(host: str, port: int) -> int:
    """The port to serve on: ``port``, or for 0 one the system has free (so that
    the URL said is the one served, not ...:0/).  A port in use is bad usage
    (exit 2), said before the server starts."""
    import socket
    try:
        with socket.create_server((host, port)) as probe:
            return probe.getsockname()[1]
    except OSError as err:
        raise UserError("an address and port this program may listen on",
                        f"{host}:{port}, {(err.strerror or str(err)).lower()}") from None


COMMANDS = (serve,)
