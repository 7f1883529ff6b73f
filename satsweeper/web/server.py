"""The web server: the CLI's JSON contract over HTTP, and the page.

Every ``POST /api/<command>`` takes the board as text (native or ``.mine``,
recognised by content as the CLI does) and answers with the object
``satsweeper <command> --json`` prints; errors are the CLI's error objects
with a 4xx status, never a stack trace.  Requests are checked before any
work: a body or board above :class:`Limits` is refused with 413, and every
query runs in a worker process that is killed when its time limit runs out
(the answer is then the CLI's ``"complete": false`` object with what is
known), when its client hangs up, or when the server is stopped.  Nothing a request says reaches the file system: boards come as
text, gadgets by library name.  The server keeps no games (the client
resends the deal and its moves, :mod:`.play`).

>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app())
>>> client.post("/api/count", json={"board": "1.\\n"}).json()["count"]
'1'
>>> client.post("/api/count", json={"board": "9.\\n"}).json()["expected"]
'a number at most 1, the neighbours of 0,0 on the board'
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from dataclasses import dataclass
from importlib.resources import files
from typing import Annotated, Callable, Literal

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt

from ..board import Board
from ..errors import SatsweeperError
from ..report.contract import envelope, error_object, error_parts
from ..strategies import NAMES
from . import answers
from .play import Deal, draw, first_click, remember, remembered
from .workers import Abandoned, Busy, TimeUp, Workers

SOURCE = "<board>"  # how messages name the board a request sent


@dataclass(frozen=True)
class Limits:
    """What one request may ask for.

    Attributes:
        cells: the largest board (width times height) answered; 413 above.
        body: the largest request body in bytes; 413 above.
        timeout: seconds a query gets when the request names none.
        max_timeout: the most a request may ask for.
        moves: the most moves a game request may replay.
        workers: processes that answer queries at the same time.
        memory: bytes each worker may take beyond the server's (None: no bound); past it a
            query answers 413, out of memory (one request grew a worker to 13 GB).
    """

    cells: int = 1_000_000
    body: int = 8 * 1024 * 1024
    timeout: float = 10.0
    max_timeout: float = 60.0
    moves: int = 20_000
    workers: int = 2
    memory: int | None = None


ROUTE_THREADS = 400  # requests answered at once, most of them waiting for a worker (see create_app)


class BodyTooLarge(HTTPException):
    """A request body longer than :class:`Limits` allows, found while it is read
    (a chunked body declares no length): raised from the body's ``receive``, an
    HTTPException so that FastAPI's body reading passes it on, answered with 413."""

    def __init__(self, limit: int):
        self.expected, self.got = f"a request of at most {limit:,} bytes", f"more than {limit:,} bytes"
        super().__init__(413, f"expected {self.expected} (got {self.got})")


class _BodyLimit:
    """ASGI middleware: counts the bytes of each request body as it arrives and
    stops reading at the limit, whatever the request says of its length."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        seen = 0

        async def counted():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise BodyTooLarge(self.limit)
            return message
        await self.app(scope, counted, send)


class BadRequest(Exception):
    """A request that cannot be answered as sent: 400, in the CLI's words for the
    same input (``<board>:1:1: expected X (got Y)`` when it is about the board)."""

    def __init__(self, expected: str, got: str, file: str | None = None, line: int = 1, col: int = 1):
        self.expected, self.got, self.file = expected, got, file
        self.line, self.col = (line, col) if file else (None, None)
        super().__init__(f"{f'{file}:{line}:{col}: ' if file else ''}expected {expected} (got {got})")


class Malformed(BadRequest):
    """A request whose fields do not make the object described (a cell without its row): 422,
    as a field of the wrong type is."""


class TooLarge(Exception):
    """A request beyond :class:`Limits`: answered with 413."""

    def __init__(self, expected: str, got: str):
        super().__init__(f"expected {expected} (got {got})")
        self.expected, self.got = expected, got


class ErrorAnswer(BaseModel):
    """Every error's body: the CLI's error object (docs/json.md), in the description that
    /openapi.json publishes (it said FastAPI's own {"detail": [...]}, which is never sent)."""
    command: str | None = Field(description="The command asked, null if none.")
    version: int
    error: str = Field(description="The whole message, as the CLI prints it.")
    file: str | None
    line: int | None
    col: int | None
    expected: str | None
    got: str | None


class BusyAnswer(BaseModel):
    """A 503's body: the out-of-time answer of the command asked, no worker having come free."""
    command: str
    version: int
    consistent: None = Field(None, description="For the queries (check ... hint): not known in time.")
    complete: bool = Field(description="false")
    stopped: str = Field(description="Why: the server was busy, and how many workers it has.")
    timeout: float = Field(description="The query's time, in seconds.")


# Published with the endpoints they can come from (422 replaces FastAPI's HTTPValidationError):
# every address may answer 404 or 405; one that reads a body 400, 413 and 422; one that asks
# a worker 503 (/api/board and /api/gadgets, which ask none, listed 503 and /api/gadgets 413).
ERROR_RESPONSES: dict = {
    404: {"model": ErrorAnswer, "description": "No such endpoint."},
    405: {"model": ErrorAnswer, "description": "Another method than the endpoint's (see Allow)."},
}
BODY_RESPONSES: dict = {
    400: {"model": ErrorAnswer, "description": "A request that cannot be answered as sent (the CLI's exit 2)."},
    413: {"model": ErrorAnswer, "description": "A body or board above the server's limits, or one whose "
                                               "worker ran out of memory."},
    422: {"model": ErrorAnswer, "description": "A body that is not the JSON object described."},
}
ASKED_RESPONSES: dict = {
    **BODY_RESPONSES,
    503: {"model": BusyAnswer,
          "description": "No worker came free within the query's time: the out-of-time answer, its "
                         "\"stopped\" saying the server was busy; ask again after Retry-After seconds.",
          "headers": {"Retry-After": {"description": "Seconds to wait before asking again.",
                                      "schema": {"type": "integer"}}}},
}


# ------------------------------------------------------------- requests

class Query(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # Strict types: "1", true or "yes" were read as 1 and True; they are refused (422) as 1.5 is.
    timeout: StrictFloat | None = Field(None, gt=0, allow_inf_nan=False,
                                        description="Seconds for this query from its arrival, waiting for a "
                                        "busy worker included (default: the server's, 10 s; at most its "
                                        "limit, 60 s); on time, what is known with \"complete\": false.")


class BoardQuery(Query):
    board: str = Field(description="The board as text: native format or JSMinesweeper .mine.")
    flags: Literal["mine", "hidden"] = Field("mine", description="Flags as known mines, or as hidden cells.")


class CellQuery(BoardQuery):
    row: StrictInt | None = Field(None, ge=0, description="The cell's row (with col), or name.")
    col: StrictInt | None = Field(None, ge=0)
    name: str | None = Field(None, max_length=200, description="A named cell instead of row and "
                             "col: a cell of a system of equations, or of a board that names it.")
    mine: StrictBool = Field(False, description="Ask whether flagging the cell is right (safe --mine).")


class NoGuessQuery(Query):
    board: str = Field(description="A layout: native with '*' mines, or .mine with M.")
    row: StrictInt | None = Field(None, ge=0, description="The first click (default: the file's start:).")
    col: StrictInt | None = Field(None, ge=0)


Index = Annotated[int, Field(strict=True, ge=0)]  # a row or column: refused (422) below 0, as a cell's row is

Strategy = Literal[NAMES]  # the names the command line takes, not a copy of them


class HintQuery(BoardQuery):
    strategy: Strategy = "best"
    seed: StrictInt = Field(0, ge=0, lt=2 ** 63)


class GameQuery(Query):
    level: str = Field("beginner", max_length=40,
                       description="beginner, intermediate, expert or WIDTHxHEIGHTxMINES.")
    rule: Literal["can-lose", "safe", "opening"] = "safe"
    no_guess: StrictBool = False
    seed: StrictInt = Field(0, ge=0, lt=2 ** 63)
    moves: list[tuple[Literal["open", "flag", "unflag", "chord"], Index, Index]] = []
    hint: StrictBool = Field(False, description="Also the hint (best's move and why) on the position.")
    probs: StrictBool = Field(False, description="Also the exact probabilities on the position (none before "
                        "the first click when the rule keeps it safe: it is safe wherever it is).")


class GadgetQuery(Query):
    name: str = Field(description="A library gadget (GET /api/gadgets lists them).")
    inputs: list[Literal[0, 1]] = Field([], description="One value per input, in order.")


# ------------------------------------------------------------- reading

def read(text: str, limits: Limits, systems: bool = False):
    """(subject, puzzle) from a request's board text; ``puzzle`` is None for a system."""
    from ..systems import System
    from ..textio import read_any
    _check_declared_size(text, limits)
    found = read_any(text, SOURCE)
    if isinstance(found, System):
        if not systems:
            raise BadRequest("a board", "a constraint system (equations)", SOURCE)
        return found, None
    _check_cells(found.board.width, found.board.height, limits)
    return found.board, found


def _check_declared_size(text: str, limits: Limits) -> None:
    """Refuse a huge board before reading it: a ``.mine`` header declares its
    size, and in the native dense layout a row holds one character per cell."""
    import re
    lines = text.lstrip("\ufeff").split("\n")
    first = next((line for line in lines[:8] if line.strip()), "")
    match = re.fullmatch(r"\s*([0-9]{1,12})x([0-9]{1,12})x[0-9]+\s*", first)
    if match:
        _check_cells(int(match.group(1)), int(match.group(2)), limits)
        return
    if re.search(r"^\s*layout\s*:", text, re.MULTILINE):
        return  # tokens: the size is known once read (the body limit bounds the reading)
    rows = [line.strip() for line in lines if line.strip() and ":" not in line
            and not line.lstrip().startswith("#")]
    if rows:
        # Rows of tokens with no header (". . 1", as textio reads them by content) count their
        # tokens: their characters, spaces too, refused a board of 6,000 cells as 11,900.
        tokens = len(rows[0].split())
        _check_cells(tokens if tokens > 1 else len(rows[0]), len(rows), limits)


def _check_cells(width: int, height: int, limits: Limits) -> None:
    if width * height > limits.cells:
        raise TooLarge(f"a board of at most {limits.cells:,} cells (this server's limit)",
                       f"{width}x{height} = {width * height:,} cells")


def _with_flags(board: Board, flags: str) -> Board:
    return board if flags == "mine" else board.with_flags_hidden()


# ------------------------------------------------------------- the app

COMMANDS = {"gadgets": "gadget list", "gadget": "gadget verify"}


def _command(request: Request) -> str | None:
    tail = request.url.path.rstrip("/").rsplit("/", 1)[-1]
    return COMMANDS.get(tail, tail) if request.url.path.startswith("/api/") else None


def _error(request: Request, status: int, message: str, **where) -> JSONResponse:
    return JSONResponse(error_object(_command(request), message, **where), status_code=status)


def create_app(limits: Limits = Limits()) -> FastAPI:
    """The ASGI app: the JSON API under ``/api/`` and the page at ``/``."""
    workers = Workers(limits.workers, limits.memory)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        import anyio.to_thread
        # Sync routes run in threads (40 by default), and a query holds one while it waits for
        # a worker: with 40 waiting, the next request waited for a thread past its own time.
        # A waiting thread costs little; its time counts from its arrival (see _arrived).
        anyio.to_thread.current_default_thread_limiter().total_tokens = ROUTE_THREADS
        workers.start(_warm)
        yield
        workers.close()

    # FastAPI's /docs pages load their scripts from a CDN; static/api.html
    # draws the same description offline.
    app = FastAPI(title="satsweeper", version="1", lifespan=lifespan, docs_url=None, redoc_url=None,
                  responses=ERROR_RESPONSES,
                  description="Minesweeper reasoning with SAT and #SAT: the CLI's JSON contract "
                              "(docs/json.md) over HTTP.")
    app.state.stopping = threading.Event()  # set on Ctrl-C: running queries stop and answer
    _install_errors(app, limits)
    _install_routes(app, limits, workers)
    app.mount("/", _Page(directory=str(files("satsweeper.web") / "static"), html=True), name="page")
    return app


class _Page(StaticFiles):
    """The page's files, the example boards as text: Python's table of file types
    knows no ``.mine`` (JSMinesweeper's format), for which Starlette then says
    application/octet-stream, and a browser opening the link saves it instead of
    showing it."""

    async def get_response(self, path: str, scope):
        """Another method than GET on an address that is no file of the page is 404, as GET
        says (Starlette said 405 with ``Allow: GET, HEAD`` before looking)."""
        if scope["method"] not in ("GET", "HEAD"):
            await super().get_response(path, {**scope, "method": "GET"})  # 404 if there is no such file
            raise StarletteHTTPException(405, headers={"Allow": "GET, HEAD"})
        return await super().get_response(path, scope)

    def file_response(self, full_path, stat_result, scope, status_code=200):
        response = super().file_response(full_path, stat_result, scope, status_code)
        if str(full_path).endswith(".mine") and "content-type" in response.headers:
            response.headers["content-type"] = "text/plain; charset=utf-8"
        return response


def _install_errors(app: FastAPI, limits: Limits) -> None:
    # Innermost of the middleware (added first): its error reaches FastAPI's body reading as it is.
    app.add_middleware(_BodyLimit, limit=limits.body)

    @app.middleware("http")
    async def server_timing(request: Request, call_next):
        """The time spent answering, in the standard Server-Timing header."""
        start = time.perf_counter()
        request.state.arrived = time.monotonic()  # a query's time counts from here (see _run)
        response = await call_next(request)
        response.headers["Server-Timing"] = f"app;dur={(time.perf_counter() - start) * 1000:.2f}"
        return response

    @app.middleware("http")
    async def refuse_big_bodies(request: Request, call_next):  # at once, from the declared length
        length = request.headers.get("content-length", "")
        if length.isdigit() and int(length) > limits.body:
            return _error(request, 413, f"expected a request of at most {limits.body:,} bytes "
                          f"(got {int(length):,} bytes)", expected=f"a request of at most {limits.body:,} bytes",
                          got=f"{int(length):,} bytes")
        return await call_next(request)

    @app.exception_handler(TooLarge)
    async def too_large(request: Request, err: TooLarge):
        return _error(request, 413, str(err), expected=err.expected, got=err.got)

    @app.exception_handler(BadRequest)
    async def bad_request(request: Request, err: BadRequest):
        return _error(request, 422 if isinstance(err, Malformed) else 400, str(err), file=err.file,
                      line=err.line, col=err.col, expected=err.expected, got=err.got)

    @app.exception_handler(SatsweeperError)
    async def library_error(request: Request, err: SatsweeperError):
        shown = error_parts(err)  # as the CLI shows it: "expected X (got Y)", X and Y apart
        return _error(request, 400, shown.pop("message"), **shown)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, err: RequestValidationError):
        # The body, read already: a JSON null and nothing at all both reach here as None.
        body = (await request.body()).strip()
        expected, got = _invalid_words(request, err.errors()[0] if err.errors() else {}, body)
        return _error(request, 422, f"expected {expected} (got {got})", expected=expected, got=got)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, err: StarletteHTTPException):
        """404 and 405 (and any other status Starlette raises) as error objects."""
        where = f"{request.method} {request.url.path}"
        if isinstance(err, BodyTooLarge):
            return _error(request, 413, err.detail, expected=err.expected, got=err.got)
        if err.status_code == 400 and err.detail == UNPARSABLE:  # FastAPI's words for a body json.loads refused
            try:
                body = await request.body()
            except ClientDisconnect:  # gone mid-body: nobody reads the answer (it was a traceback in the log)
                return _error(request, 400, "expected a whole request body (got the client gone)")
            got = _unparsable(body)
            return _error(request, 422, f"expected a JSON object (got {got})", expected="a JSON object", got=got)
        status = err.status_code
        known = getattr(request.app.state, "api_methods", {}).get(request.url.path)
        if status in (404, 405) and request.url.path.startswith("/api/"):
            # A method no route lists (TRACE) reached the page's files: an endpoint's address
            # is 405 with its own Allow, any other 404.
            status = 405 if known else 404
        if status == 404:
            expected = "an endpoint of /api.html or a file of the page"
            response = JSONResponse(error_object(None, f"expected {expected} (got {where}, which is "
                                                 "not one)", expected=expected, got=where), 404)
        headers = dict(err.headers or {}) if status == err.status_code else {}
        if status == 405:
            # A method no route lists (TRACE, a made-up one) reached the page's files, which
            # said GET, HEAD of an endpoint that takes POST: the endpoint's own methods.
            if known:
                headers["Allow"] = ", ".join(sorted(known))
            allowed = headers.get("Allow", "")
            expected = f"{allowed or 'another method'} for {request.url.path}"
            response = _error(request, 405, f"expected {expected} (got {request.method})",
                              expected=expected, got=request.method)
        elif status != 404:
            response = _error(request, status, f"HTTP {status}: {err.detail}")
        for name, value in headers.items():
            response.headers[name] = value
        return response

    @app.exception_handler(MemoryError)
    async def out_of_memory(request: Request, err: MemoryError):
        return _error(request, 413, "expected a problem this machine can hold in memory "
                      "(got one whose worker ran out)", expected="a problem this machine can hold "
                      "in memory", got="one whose worker ran out")

    @app.exception_handler(Exception)
    async def internal(request: Request, err: Exception):  # a bug: one line, no trace
        return _error(request, 500, f"internal error, please report it: {type(err).__name__}")


# What FastAPI says (400) when reading the body as JSON failed other than as invalid JSON.
UNPARSABLE = "There was an error parsing the body"


def _unparsable(body: bytes) -> str:
    """Why a body that is not invalid JSON in json's own words could not be read: bytes that are
    not UTF-8, nesting past Python's recursion limit, a number too long to convert (they were
    "HTTP 400: There was an error parsing the body", expected and got null).

    >>> _unparsable(b'{"board": "1\\xff"}'), _unparsable(b"[" * 100000)
    ('bytes that are not UTF-8 (0xff at byte 13)', 'JSON nested too deeply to read')
    """
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as err:
        return f"bytes that are not UTF-8 (0x{body[err.start]:02x} at byte {err.start + 1})"
    try:
        json.loads(text)
    except RecursionError:
        return "JSON nested too deeply to read"
    except ValueError as err:  # a number of more than 4300 digits, say
        return f"JSON that could not be read: {str(err).split(';')[0].lower()}"
    return "a body that could not be read as JSON"


def _invalid_words(request: Request, first: dict, body: bytes = b"") -> tuple[str, str]:
    """(expected, got) for the first thing wrong in a request pydantic refused (``body``: what was sent)."""
    where = [str(p) for p in first.get("loc", ()) if p != "body"]
    value = first.get("input")
    if first.get("type") == "json_invalid":  # loc: ("body", character offset)
        at = int(where[0]) + 1 if where and where[0].isdigit() else None
        why = str((first.get("ctx") or {}).get("error", "not JSON"))
        return "a JSON object", f"invalid JSON{f' at character {at}' if at else ''}: {why[:1].lower()}{why[1:]}"
    if not where and isinstance(value, bytes):  # the body was not sent as JSON: FastAPI kept it raw
        kind = request.headers.get("content-type") or "none"
        return "a JSON object sent with Content-Type: application/json", f"Content-Type: {kind[:60]}"
    if not where and value is None:
        return "a JSON object", "an empty body" if not body else json.dumps(None)
    if first.get("type") == "extra_forbidden" and len(where) == 1:  # "expected cell: extra inputs are not permitted"
        return f"the fields of {request.url.path}: {', '.join(_fields(request))}", f"a field {where[0]!r}"
    got = json.dumps(value, default=str)
    got = got if len(got) <= 60 else got[:59] + "…"
    return f"{'.'.join(where) or 'the request'}: {first.get('msg', 'a valid request').lower()}", got


def _fields(request: Request) -> list[str]:
    """The fields the route's request object has (as /api.html lists them)."""
    body = getattr(request.scope.get("route"), "body_field", None)
    model = getattr(getattr(body, "field_info", None), "annotation", None)
    return list(getattr(model, "model_fields", {})) or ["as /api.html lists them"]


def _seconds(query: Query, limits: Limits) -> float:
    seconds = query.timeout or limits.timeout
    if seconds > limits.max_timeout:
        raise Malformed(f"timeout of at most {limits.max_timeout:g} s", f"{seconds:g}")  # 422, as 0 or -1 is
    return seconds


def _client_gone(request: Request) -> Callable[[], bool]:
    """Whether the client of ``request`` has gone away, asked from the thread
    a route runs in (the event loop reads the connection)."""
    import anyio
    import anyio.from_thread

    async def disconnected() -> bool:
        # Not request.is_disconnected(): it gives up at the first pause, and the
        # middleware between it and the server always pauses; a short wait reaches it.
        with anyio.move_on_after(0.02):
            return (await request.receive())["type"] == "http.disconnect"
        return False

    def gone() -> bool:
        if _stopping(request):
            return True
        try:
            return anyio.from_thread.run(disconnected)
        except RuntimeError:  # not called from a thread of the event loop: cannot tell
            return False
    return gone


def _stopping(request: Request) -> bool:
    """Whether the server is stopping (Ctrl-C): it waits for the answers under way."""
    stopping = getattr(request.app.state, "stopping", None)
    return stopping is not None and stopping.is_set()


def _abandoned(command: str, request: Request) -> dict:
    why = "the server is stopping" if _stopping(request) else "the client went away"
    return envelope(command, dict(complete=False, stopped=why))


def _run(request: Request, workers: Workers, command: str, seconds: float,
         known: Callable[[], dict], function: Callable, *args,
         left: float | None = None) -> JSONResponse:
    """``function(*args)`` in a worker process killed after ``seconds`` (or
    ``left``, what remains of them after earlier work); on time, the CLI's
    answer for a reached limit: ``complete: false`` and what is known.  A
    client that goes away stops its query (the worker is freed for the next one)."""
    try:
        answer = workers.run(seconds if left is None else left, function, *args,
                             cancelled=_client_gone(request), since=None if left is not None else _arrived(request))
    except Busy:
        return _busy(command, seconds, workers)
    except TimeUp:
        found = known()
        if found.get("consistent") is False:  # what was known in time proves a conflict: the answer
            answer = envelope(command, found)
        else:  # the CLI's answer out of time: a query's verdict null, and why it stopped
            said = (dict(consistent=None, complete=False, stopped=f"no answer within {seconds:g} s (--timeout)")
                    if command in QUERIES else dict(complete=False))
            answer = envelope(command, {**said, "timeout": seconds, **found})
    except Abandoned:
        answer = _abandoned(command, request)
    # Sent as it is: FastAPI's own encoder walks every value again (a third of the time).
    return JSONResponse(answer)


def _arrived(request: Request) -> float | None:
    """When the request came (``time.monotonic()``; None if no middleware saw it): its time
    counts from there.  From the route instead, a query waited unseen for one of the
    threads sync routes run in, all held by queries waiting for a worker (45 slow queries
    at once: a 2 s query answered after 20 s)."""
    return getattr(request.state, "arrived", None)


def _busy(command: str, seconds: float, workers: Workers) -> JSONResponse:
    """Out of time before a worker was free: 503 and Retry-After, the out-of-time answer's
    shape, and words that tell a busy server from a hard board (where asking again helps)."""
    said = {"consistent": None} if command in QUERIES else {}
    stopped = (f"no answer within {seconds:g} s: the server was busy (its {workers.size} worker(s) "
               "answering other queries); ask again")
    return JSONResponse(envelope(command, {**said, "complete": False, "stopped": stopped, "timeout": seconds}),
                        status_code=503, headers={"Retry-After": "1"})


# The commands whose out-of-time answer says "consistent": null and "stopped", as the CLI's do.
QUERIES = frozenset({"check", "safe", "solve", "unique", "count", "probs", "hint"})


def _nothing() -> dict:
    return {}


def _rules(subject, strategy: str, start=None, words: bool = False) -> Callable[[], dict]:
    """A hint out of time: :func:`~satsweeper.web.answers.rules_hint` within
    :data:`~satsweeper.limits.KNOWN_SECONDS` more, in forked processes (as :func:`_obvious`); nothing else."""
    def known() -> dict:
        return answers.rules_hint(subject, strategy, start, words)
    return known


def _warm() -> None:
    """A first small question in a new worker, so that it has imported what queries use."""
    answers.analyse(read("mines: 1\n1.\n..\n", Limits())[0])


def _obvious(subject, start=None) -> Callable[[], dict]:
    """What the single-number rules settle (with the file's ``start`` safe, as
    in every answer), known whatever the time limit:
    worked out within :data:`~satsweeper.limits.KNOWN_SECONDS` more, as
    the CLI does (else nothing is known), in a process forked for it, not a
    worker: the workers may all be busy, and the query that ran out of time
    may have waited for one.  In the server's thread, a 1000x1000 board's
    423,000 rules took 9 s to build after a 5 s limit."""
    def known() -> dict:
        from ..limits import KNOWN_SECONDS, TimeUp as Late, within
        try:
            return within(KNOWN_SECONDS, lambda: _obvious_json(subject, start))
        except Late:
            return {"safe": [], "mine": []}
    return known


def _obvious_json(subject, start=None) -> dict:
    from ..constraints import problem_of, with_start
    from ..report.queries import settled
    from ..report.views import BoardView, SystemView
    from ..singlepoint import settled_moves
    if isinstance(subject, Board):
        problem, view = with_start(problem_of(subject), start), BoardView(subject)
    else:
        problem, view = subject.problem, SystemView(subject)
    return settled(view, *settled_moves(problem))[0]


def _install_routes(app: FastAPI, limits: Limits, workers: Workers) -> None:
    """Every /api/ address: the questions on a board, a game, the gadget library; then,
    last, 404 or 405 for every other address under /api/."""
    _question_routes(app, limits, workers)
    _game_route(app, limits, workers)
    _gadget_routes(app, limits, workers)
    _elsewhere_route(app)


def _question_routes(app: FastAPI, limits: Limits, workers: Workers) -> None:
    """The commands' questions on a board or system (check ... noguess) and the Analyse page's."""
    def board_route(command: str, work, systems: bool = True, known: bool = False):
        def route(query: BoardQuery, request: Request) -> dict:
            subject, puzzle = read(query.board, limits, systems)
            if isinstance(subject, Board):
                subject = _with_flags(subject, query.flags)
            start = puzzle.start if puzzle else None
            return _run(request, workers, command, _seconds(query, limits),
                        _obvious(subject, start) if known else _nothing, work, subject, start)
        route.__name__ = command
        route.__doc__ = work.__doc__ or f"``satsweeper {command} --json``."  # which says so (it was said twice)
        app.post(f"/api/{command}", summary=f"satsweeper {command}", responses=ASKED_RESPONSES)(route)

    board_route("check", answers.check)
    board_route("solve", answers.solve, known=True)
    board_route("unique", answers.unique)
    board_route("count", answers.count, known=True)
    board_route("probs", answers.probs, known=True)

    @app.post("/api/analyse", summary="the board, probs and hint at once (the Analyse page)", responses=ASKED_RESPONSES)
    def analyse(query: BoardQuery, request: Request) -> dict:
        """What the Analyse page draws at once: the board read, ``probs``' object and ``hint``'s with
        its words; out of time, the board and what the single-number rules settle."""
        from ..textio import lookalike_note, lookalikes
        subject, puzzle = read(query.board, limits, systems=True)
        if puzzle is None:  # the page's other questions do take one
            raise BadRequest("a board to draw (equations: ask Consistent?, Unique? or Count)",
                            "a constraint system (equations)", SOURCE)
        subject = _with_flags(subject, query.flags)
        obvious, rules = _obvious(subject, puzzle.start), _rules(subject, "best", puzzle.start, words=True)

        notes = tuple(lookalike_note(*found) for found in lookalikes(puzzle))

        def known() -> dict:  # out of time: the page still draws the board, what is sure and a sure move
            return {"board": answers.board_json(subject, puzzle.mines), "notes": list(notes), **obvious(), **rules()}
        return _run(request, workers, "analyse", _seconds(query, limits), known,
                    answers.analyse, subject, puzzle.mines, notes, puzzle.start)

    @app.post("/api/board", summary="the board read, as native text and .mine", responses=BODY_RESPONSES)
    def board(query: BoardQuery) -> dict:
        from ..textio import format_board, format_mine
        from ..errors import InputError
        subject, puzzle = read(query.board, limits)
        try:
            mine, refused = format_mine(subject, puzzle.mines), None
        except InputError as err:  # voids or no total: the native text is still wanted
            mine, refused = None, f"expected {err}"
        return envelope("board", {"board": answers.board_json(subject, puzzle.mines),
                                  "native": format_board(subject, puzzle.mines, puzzle.start),
                                  "mine": mine, "mine_refused": refused})

    @app.post("/api/safe", summary="satsweeper safe", responses=ASKED_RESPONSES)
    def safe(query: CellQuery, request: Request) -> dict:
        from ..cells import CellRef, resolve_cell
        subject, puzzle = read(query.board, limits, systems=True)
        if isinstance(subject, Board):
            subject = _with_flags(subject, query.flags)
        at = (query.row, query.col)
        if query.name is not None:
            if at != (None, None):
                raise Malformed("a cell: row and col, or name", "both")
            ref = CellRef(query.name, None)
        elif None in at:
            raise Malformed("a cell: row and col, or name",
                           "neither" if at == (None, None) else "only one of row and col")
        else:
            ref = CellRef(f"{at[0]},{at[1]}", at)
        cell = resolve_cell(subject, ref)
        return _run(request, workers, "safe", _seconds(query, limits),
                    lambda: {"cell": answers.cell_json(subject, cell), "move": "flag" if query.mine else "open",
                             "safe": None},  # as the CLI: the question's keys stay, the answer's null
                    answers.safe, subject, cell, query.mine, puzzle.start if puzzle else None)

    @app.post("/api/hint", summary="satsweeper hint", responses=ASKED_RESPONSES)
    def hint(query: HintQuery, request: Request) -> dict:
        subject, puzzle = read(query.board, limits, systems=True)
        if puzzle is None:  # the CLI's words
            raise BadRequest("a board (a hint needs neighbours)", "a constraint system", SOURCE)
        subject = _with_flags(subject, query.flags)
        return _run(request, workers, "hint", _seconds(query, limits), _rules(subject, query.strategy, puzzle.start),
                    answers.hint, subject, query.strategy, query.seed, puzzle.start)

    @app.post("/api/noguess", summary="satsweeper noguess", responses=ASKED_RESPONSES)
    def noguess(query: NoGuessQuery, request: Request) -> dict:
        from ..cells import check_inside
        from ..report.puzzles import not_a_layout, voids_found
        from ..textio import grid_line, square_place
        subject, puzzle = read(query.board, limits, systems=False)
        if puzzle.mines is None:  # the CLI's words, at the grid's first row (1:1 was often a comment)
            raise BadRequest(*not_a_layout(subject), SOURCE, grid_line(query.board))
        if subject.voids:  # the CLI's words, at the first void square
            got, first = voids_found(subject)
            raise BadRequest("a full rectangle for a game", got, SOURCE, *square_place(query.board, first))
        if (query.row is None) != (query.col is None):  # a half-given cell was ignored silently
            raise Malformed("a first click: row and col, or neither (the file's start:)", "only one of row and col")
        start = (query.row, query.col) if query.row is not None else puzzle.start
        if start is None:
            raise BadRequest("a first click (row and col) or a 'start:' line", "neither")
        check_inside(subject, start, "start cell")
        if start in puzzle.mines:
            raise BadRequest("a safe start cell (not a mine)", f"{start[0]},{start[1]}, a mine")
        return _run(request, workers, "noguess", _seconds(query, limits), _nothing,
                    answers.noguess, subject, puzzle.mines, start)


def _game_route(app: FastAPI, limits: Limits, workers: Workers) -> None:
    """The Play page's game: its layout drawn (and remembered) in a worker, then replayed."""

    @app.post("/api/game", summary="a game replayed from its deal and moves", responses=ASKED_RESPONSES)
    def game(query: GameQuery, request: Request) -> dict:
        deal = Deal(query.level, query.rule, query.no_guess, query.seed)
        level = deal.parsed_level()
        _check_cells(level.width, level.height, limits)
        if len(query.moves) > limits.moves:
            raise TooLarge(f"at most {limits.moves:,} moves", f"{len(query.moves):,}")
        seconds = _seconds(query, limits)
        deadline = (_arrived(request) or time.monotonic()) + seconds  # for the layout and the replay together
        first = first_click(query.moves)
        mines = None
        from ..cells import check_room
        if first is None:  # dealt "playing" before, though no first click could start it
            check_room(level, (0, 0), query.rule, anywhere=True)  # a corner: the fewest neighbours
        elif 0 <= first[0] < level.height and 0 <= first[1] < level.width:
            check_room(level, first, query.rule)  # the CLI's words for too many mines
            mines = remembered(deal, first)
            if mines is None:  # drawn once (a no-guess layout can take seconds), then kept
                try:
                    mines = workers.run(seconds, draw, deal, first, cancelled=_client_gone(request),
                                        since=_arrived(request))
                except Busy:
                    return _busy("game", seconds, workers)
                except TimeUp:
                    return envelope("game", {"complete": False, "timeout": seconds,
                                             "stopped": f"no layout found within {seconds:g} s"})
                except Abandoned:
                    return _abandoned("game", request)
                remember(deal, first, mines)
        return _run(request, workers, "game", seconds, _nothing, answers.game, deal, query.moves,
                    query.hint, query.probs, mines, left=max(0.0, deadline - time.monotonic()))


def _gadget_routes(app: FastAPI, limits: Limits, workers: Workers) -> None:
    """The Gadgets page: the library, and one gadget verified with one input case drawn."""

    @app.get("/api/gadgets", summary="satsweeper gadget list")
    def gadgets() -> dict:
        from .library import listing
        return listing()

    # HEAD too, as every address of the page's files answers it (it was 405); left out of
    # /openapi.json, where it would repeat GET's operation.
    app.add_api_route("/api/gadgets", gadgets, methods=["HEAD"], include_in_schema=False)

    @app.post("/api/gadget", summary="satsweeper gadget verify, and one input case drawn", responses=ASKED_RESPONSES)
    def gadget(query: GadgetQuery, request: Request) -> dict:
        from .library import built, names
        if query.name not in names():
            raise BadRequest(f"a gadget name ({', '.join(names())})", repr(query.name[:60]))
        wanted = len(built(query.name).inputs)
        if len(query.inputs) != wanted:
            raise BadRequest(f"{wanted} input value(s) for {query.name}", f"{len(query.inputs)}")
        values = tuple(bool(v) for v in query.inputs)
        return _run(request, workers, "gadget verify", _seconds(query, limits), _nothing,
                    answers.gadget, query.name, values)


def _elsewhere_route(app: FastAPI) -> None:
    """Every other /api/ address is 404 (no endpoint) or 405 (another method), rather
    than a file the page's static files do not have: installed after every endpoint."""
    endpoints: dict[str, set[str]] = {}
    for route in app.routes:
        if getattr(route, "path", "").startswith("/api/"):
            endpoints.setdefault(route.path, set()).update(route.methods or ())
    app.state.api_methods = endpoints  # the 405 handler's Allow for methods no route lists

    @app.api_route("/api/{rest:path}", methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE",
                                                "OPTIONS"], include_in_schema=False)
    def elsewhere(request: Request, rest: str):
        methods = endpoints.get(request.url.path)
        if methods is None:
            raise StarletteHTTPException(404)
        raise StarletteHTTPException(405, headers={"Allow": ", ".join(sorted(methods))})


def serve(host: str = "127.0.0.1", port: int = 8765, open_browser: bool = False,
          limits: Limits = Limits(), access_log: bool = False) -> None:
    """Run the server until interrupted (uvicorn); open the page if asked; with
    ``access_log`` a line per request on stderr (:func:`_log_requests`)."""
    import threading
    import webbrowser

    import uvicorn
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    _more_descriptors()
    # Idle connections kept past uvicorn's 5 s: a request Chromium sent just as
    # the server closed one was seen to hang (the browser tests).  Past CONNECTIONS at once
    # (idle ones too: uvicorn closes none that never sent a request) a new one answers 503.
    # On Ctrl-C the queries under way answer at once; a client still sending its body held
    # the server 37 s (a second Ctrl-C then hung it): past 3 s such connections are dropped.
    config = uvicorn.Config(create_app(limits), host=host, port=port, log_level="warning",
                            timeout_keep_alive=75, limit_concurrency=CONNECTIONS, timeout_graceful_shutdown=3)
    if access_log:
        _log_requests()
    _quiet_server(config).run()


def _log_requests() -> None:
    """uvicorn's access log (client, request line, status) on stderr with the time: its own
    goes to stdout, where ``serve --json`` has said its one object, and is off under
    ``log_level="warning"``, which keeps uvicorn's start-up lines out of the CLI's words."""
    import logging
    import sys

    from uvicorn.logging import AccessFormatter
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(AccessFormatter('%(asctime)s %(client_addr)s "%(request_line)s" %(status_code)s',
                                         datefmt="%Y-%m-%d %H:%M:%S", use_colors=False))
    logger = logging.getLogger("uvicorn.access")
    logger.handlers, logger.propagate = [handler], False
    logger.setLevel(logging.INFO)


#: Connections and requests the server holds at once; more are answered 503 at once.
CONNECTIONS = 1000


def _more_descriptors() -> None:
    """Raise this process's open-file limit to what the system allows (at most 65,536): at
    the common 1,024, 1,100 idle connections left a quick query waiting 11 s while accept()
    failed and filled the log (27 MB in 12 s)."""
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
        if soft != resource.RLIM_INFINITY and soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ImportError, OSError, ValueError):  # not Unix, or not allowed: the limit as it was
        pass


def _quiet_server_class():
    """uvicorn's Server, stopping on Ctrl-C or SIGTERM without raising the
    signal again once it has shut down (which printed a traceback of the
    app's lifespan task); the CLI then exits 130."""
    import contextlib
    import signal

    import uvicorn

    class QuietServer(uvicorn.Server):
        def handle_exit(self, sig, frame):
            # uvicorn waits for the requests under way: their queries stop now
            # (answering "complete": false), not when their time limits run out.
            super().handle_exit(sig, frame)
            stopping = getattr(getattr(self.config.app, "state", None), "stopping", None)
            if stopping is not None:
                stopping.set()

        @contextlib.contextmanager
        def capture_signals(self):
            stops = (signal.SIGINT, signal.SIGTERM)
            previous = {sig: signal.signal(sig, self.handle_exit) for sig in stops}
            try:
                yield
            finally:
                for sig, handler in previous.items():
                    signal.signal(sig, handler)

    return QuietServer


def _quiet_server(config):  # built lazily: uvicorn is imported only to serve
    return _quiet_server_class()(config)
