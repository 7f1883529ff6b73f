"""What every command promises (``docs/json.md``): exit codes, JSON, errors,
inputs from anywhere, outputs checked before the work, progress, time limits.

Exit codes: 0 yes, 1 no, 2 bad input or usage, 3 a limit was reached (with
what is known), 130 interrupted, 70 an internal error (a bug: one line, never
a traceback).  With ``--json`` a command prints exactly one JSON object on
stdout, errors included.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import click

from ..errors import BoardSyntaxError, SatsweeperError, TooComplexError
from ..report.contract import envelope, error_object, write_json

YES, NO, BAD_INPUT, LIMIT, INTERNAL, INTERRUPTED = 0, 1, 2, 3, 70, 130
CLOSED = 128 + 13  # standard output closed (| head): what a shell reports for a filter SIGPIPE stopped
CUT = 60  # longest piece of an offending value echoed in a message


def cut(text: str, most: int = CUT) -> str:
    """``text`` as ``repr`` cut to ``most`` characters, so a message stays one line.

    >>> cut("x" * 100, 10)
    "'xxxxxxxxx…' (100 characters)"
    """
    if len(text) <= most:
        return repr(text)
    return f"{text[:most - 1]!r}"[:-1] + f"…' ({len(text)} characters)"


class UserError(click.ClickException):
    """Bad input or usage: exit 2, ``expected ... (got ...)`` with where it was found."""

    exit_code = BAD_INPUT

    def __init__(self, expected: str, got: str, file: str | None = None, line: int | None = None,
                 col: int | None = None):
        self.expected, self.got = expected, got
        if file:  # a place in a file: the JSON says the line and column the message says
            line, col = line or 1, col or 1
        self.file, self.line, self.col = file, line, col
        where = f"{file}:{line}:{col}: " if file else ""
        super().__init__(f"{where}expected {expected} (got {got})")


class LimitReached(click.ClickException):
    """A budget or time limit ran out: exit 3; what is known was already reported."""

    exit_code = LIMIT


# ------------------------------------------------------------- the group

# Whether this invocation's JSON answer has begun: Ctrl-C after that adds no second object.
_ANSWERED = [False]

class Group(click.Group):
    """The command group that keeps the contract for every command below it.

    Errors become one line on stderr (or one JSON object on stdout with
    ``--json``) and an exit code; Ctrl-C exits 130; an unexpected exception
    is reported as an internal error in one line, exit 70.
    """

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        args = list(sys.argv[1:] if args is None else args)
        as_json = "--json" in args
        command = self._named(args)
        _ANSWERED[0] = False
        try:
            code = super().main(args, prog_name or "satsweeper", complete_var,
                                standalone_mode=False, **extra)
            code = code if isinstance(code, int) else YES
        except click.exceptions.Exit as done:
            code = done.exit_code
        except click.Abort:
            code = _interrupted(as_json, command)
        except click.ClickException as err:
            code = _report_error(err, as_json, command)
        except SatsweeperError as err:
            code = _report_error(as_click(err), as_json, command)
        except KeyboardInterrupt:
            code = _interrupted(as_json, command)
        except RecursionError:
            code = _report_error(UserError("input nested less deeply", "nesting too deep to follow"),
                                 as_json, command)
        except MemoryError:
            code = _report_error(LimitReached("out of memory: the problem is too big for this machine"),
                                 as_json, command)
        except Exception as err:  # noqa: BLE001 - a bug, but the user sees one line
            message = f"internal error, please report it: {type(err).__name__}: {cut(str(err))}"
            code = _report_error(click.ClickException(message), as_json, command, INTERNAL)
        if standalone_mode:
            sys.exit(code)
        return code

    def invoke(self, ctx):
        """The command, and its output closed early (``| head``): exit 141 quietly.

        Click's own answer to a broken pipe is exit 1, which here means "no".
        Not SIGPIPE's default action, as ``cat`` has it: ``serve`` must
        outlive a browser that closes its socket.
        """
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            # What is still buffered would fail again at exit ("Exception ignored ..."): to /dev/null.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise click.exceptions.Exit(CLOSED) from None

    def _named(self, args: list[str]) -> str | None:
        """The command the arguments name, as answers name it: ``gadget verify``
        for a subcommand (so that its errors say the same as its answers)."""
        words = [a for a in args if not a.startswith("-")]
        if not words:
            return None
        group = self.commands.get(words[0])
        if isinstance(group, click.Group) and len(words) > 1 and words[1] in group.commands:
            return f"{words[0]} {words[1]}"
        return words[0]


def _interrupted(as_json: bool, command: str | None) -> int:
    """Ctrl-C: one line on stderr, and with ``--json`` still one object on stdout
    (unless the command's own answer has begun: bench's partial summary)."""
    click.echo("satsweeper: interrupted", err=True)
    if as_json and not _ANSWERED[0]:
        click.echo(json.dumps(envelope(command, {"complete": False, "stopped": "interrupted"})))
    return INTERRUPTED


def as_click(err: SatsweeperError) -> click.ClickException:
    """A library error as the CLI shows it, keeping its location."""
    if isinstance(err, TooComplexError):
        return LimitReached(str(err))
    if not isinstance(err, BoardSyntaxError):
        # The library says what must hold and what it got, "X (got Y)"
        # (errors.py); the user reads the contract's "expected X (got Y)".
        must, cut_at, got = str(err).rpartition(" (got ")
        if cut_at and got.endswith(")") and not must.startswith("expected "):
            return UserError(must, got[:-1])
    found = UserError.__new__(UserError)
    click.ClickException.__init__(found, str(err))
    found.file = getattr(err, "source", None)
    found.line = getattr(err, "line", None)
    found.col = getattr(err, "column", None)
    found.expected = getattr(err, "expected", None)
    found.got = getattr(err, "found", None)
    return found


def _report_error(err: click.ClickException, as_json: bool, command: str | None,
                  code: int | None = None) -> int:
    code = err.exit_code if code is None else code
    message = err.format_message()
    if type(err).__name__ == "NoArgsIsHelpError" and not as_json:
        # 'satsweeper' or 'satsweeper gadget' alone (click 8.2+): the help, once,
        # not the usage line followed by the help prefixed "satsweeper: ".
        click.echo(message, err=True)
        return code
    if isinstance(err, click.UsageError) and err.ctx is not None and not as_json:
        click.echo(err.ctx.get_usage(), err=True)
    if as_json:
        click.echo(json.dumps(error_object(
            command, message, file=getattr(err, "file", None), line=getattr(err, "line", None),
            col=getattr(err, "col", None), expected=getattr(err, "expected", None),
            got=getattr(err, "got", None))))
    else:
        click.echo(f"satsweeper: {message}", err=True)
    return code


# ------------------------------------------------------------- answers

def json_option(command):
    """``--json``: print one JSON object instead of text."""
    return click.option("--json", "as_json", is_flag=True,
                        help="Print one JSON object (docs/json.md) instead of text.")(command)


def emit(command: str, as_json: bool, data: dict, text: str | None, code: int) -> None:
    """Print the answer (text, or ``data`` in the JSON envelope) and exit with ``code``.

    ``text`` None: everything was already printed as it came.
    """
    if as_json:
        _ANSWERED[0] = True
        # Piece by piece: a big board's per-cell lists are written as they are made.
        out = sys.stdout
        write_json(envelope(command, data), out.write)
        out.write("\n")
        out.flush()
    elif text is not None:
        click.echo(text)
    raise click.exceptions.Exit(code)


def verdict(yes: bool) -> int:
    return YES if yes else NO


# ------------------------------------------------------------- inputs

@dataclass(frozen=True)
class Source:
    """What the user gave: text and the name to quote in messages."""

    name: str
    text: str


class InputFile(click.ParamType):
    """A file to read, or ``-`` for standard input; its text, decoded as UTF-8
    (:func:`satsweeper.textio.read_text`: a byte no text holds is an error
    at once)."""

    name = "FILE"

    def convert(self, value, param, ctx) -> Source:
        from ..textio import read_text
        if isinstance(value, Source):
            return value
        try:
            return Source(*read_text(value))
        except BoardSyntaxError as err:
            raise UserError(err.expected, err.found, err.source, err.line, err.column) from None


CELL = re.compile(r"\s*([0-9]{1,9})\s*,\s*([0-9]{1,9})\s*")


@dataclass(frozen=True)
class CellRef:
    """A cell as the user wrote it: ``ROW,COL`` or a name (checked against the board later)."""

    text: str
    cell: tuple[int, int] | None

    def __str__(self) -> str:
        return self.text


class CellParam(click.ParamType):
    """``ROW,COL`` (0-based, ASCII digits) or a cell name."""

    name = "ROW,COL"

    def convert(self, value, param, ctx) -> CellRef:
        if isinstance(value, CellRef):
            return value
        match = CELL.fullmatch(value)
        if match:
            return CellRef(value, (int(match.group(1)), int(match.group(2))))
        name = value.strip()
        if name and len(name) <= 200 and name.isprintable() and not any(ch.isspace() for ch in name):
            return CellRef(name, None)  # a named cell; the board says whether it has it
        raise UserError("a cell as ROW,COL (0-based) or a cell name", cut(value))


class CoordParam(CellParam):
    """``ROW,COL`` only (a cell of a board that has no names yet)."""

    def convert(self, value, param, ctx) -> tuple[int, int]:
        if isinstance(value, tuple):
            return value
        match = CELL.fullmatch(value)
        if not match:
            # An option by its flag, as the user typed it (--first, not "first").
            named = (param.opts[0] if isinstance(param, click.Option) else param.human_readable_name
                     ) if param else "a cell"
            raise UserError(f"{named} as ROW,COL (0-based, digits 0-9)", cut(value))
        return int(match.group(1)), int(match.group(2))


class SizeParam(click.ParamType):
    """``WIDTHxHEIGHT``, as the levels and JSMinesweeper write sizes."""

    name = "WxH"

    def convert(self, value, param, ctx) -> tuple[int, int]:
        if isinstance(value, tuple):
            return value
        match = re.fullmatch(r"\s*([0-9]{1,5})x([0-9]{1,5})\s*", value)
        if not match or int(match.group(1)) * int(match.group(2)) < 2:
            raise UserError("a board size WIDTHxHEIGHT of at least 2 cells", cut(value))
        return int(match.group(1)), int(match.group(2))


class LevelParam(click.ParamType):
    """beginner, intermediate, expert, or ``WIDTHxHEIGHTxMINES``."""

    name = "LEVEL"

    def convert(self, value, param, ctx):
        from ..game import Level
        if isinstance(value, Level):
            return value
        try:
            return Level.parse(value)
        except ValueError as err:
            raise UserError(str(err).split(" (got")[0], cut(value)) from None


# ------------------------------------------------------------- outputs

class OutputPath(click.ParamType):
    """A file to write, checked before any work: its directory exists and is writable."""

    name = "FILE"

    def __init__(self, suffixes: tuple[str, ...] = ()):
        self.suffixes = suffixes

    def convert(self, value, param, ctx) -> Path:
        if isinstance(value, Path):
            return value
        if value == "-":  # else a file called "-" appears where stdout was meant
            raise UserError("a file to write ('-' stands for standard input only)", "'-'")
        path = Path(value)
        if self.suffixes and path.suffix.lower() not in self.suffixes:
            raise UserError(f"a file name ending in {' or '.join(self.suffixes)}", cut(value))
        check_writable(path)
        return path


class OutputDir(click.ParamType):
    """A directory to write into: it must exist (nothing is created silently)."""

    name = "DIR"

    def convert(self, value, param, ctx) -> Path:
        if isinstance(value, Path):
            return value
        path = Path(value)
        if not path.is_dir():
            raise UserError("an existing directory", f"{cut(value)}, "
                            f"{'a file' if path.exists() else 'which does not exist'}")
        refused = cannot_create_in(path)
        if refused:
            raise UserError("a directory we may write to", f"{cut(value)}, {refused}")
        return path


def check_writable(path: Path) -> None:
    """Raise :class:`UserError` unless ``path`` can be written (before any work is done)."""
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise UserError("a file to write", f"{cut(str(path))}, a directory")
    if path.exists() and not path.is_file():
        # A device or a pipe: the atomic write renames a new file over it (as root,
        # /dev/null becomes a plain file), and a journal or memo there is read first
        # (/dev/zero: without end).
        raise UserError("a regular file to write", f"{cut(str(path))}, a device, pipe or socket")
    if not parent.is_dir():
        raise UserError("an output file in an existing directory",
                        f"{cut(str(path))}: {cut(str(parent))} does not exist")
    refused = cannot_create_in(parent)
    if refused or (path.exists() and not os.access(path, os.W_OK)):
        raise UserError("an output file we may write", f"{cut(str(path))}, {refused or 'not writable'}")


def cannot_create_in(directory: Path) -> str | None:
    """Why no file can be made in ``directory`` (None: one can).

    Tried, not asked: ``os.access`` says yes to root everywhere, and to
    anyone on a read-only mount or in /proc, where the write after the
    work would then fail.  The probe is the temporary file
    :func:`write_output` makes there, removed at once.
    """
    try:
        handle, probe = tempfile.mkstemp(dir=directory, prefix=".satsweeper-probe-")
    except OSError as err:
        return f"no file can be made in {cut(str(directory))} ({(err.strerror or str(err)).lower()})"
    os.close(handle)
    os.unlink(probe)
    return None


def refuse_overwriting_input(output: Path | None, *inputs: Source | str | None) -> None:
    """An output may not replace what was read: it would be lost."""
    if output is None:
        return
    for given in inputs:
        name = given.name if isinstance(given, Source) else given
        if name and name != "<stdin>" and Path(name).exists() and output.exists() \
                and output.resolve() == Path(name).resolve():
            raise UserError("an output file other than the input",
                            f"-o {cut(str(output))}, which would replace the input")


def write_output(path: Path, content: str | bytes | Callable[[Path], None]) -> str:
    """Write atomically (a temporary file, then a rename): an interrupted write
    leaves the old file or none, never half a file.  Returns what to tell the user.

    ``content`` may be a function that writes the file at the path it is given.
    """
    existed = path.exists()
    handle, temporary = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".",
                                         prefix=f".{path.name}.", suffix=path.suffix)
    os.close(handle)
    try:
        if callable(content):
            content(Path(temporary))
        elif isinstance(content, bytes):
            Path(temporary).write_bytes(content)
        else:
            Path(temporary).write_text(content, encoding="utf-8")
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return f"wrote {path}" + (" (replaced the file that was there)" if existed else "")


# ------------------------------------------------------------- progress and limits

@contextlib.contextmanager
def progress(label: str, length: int, unit: str = "") -> Iterator[Callable[[int], None]]:
    """A bar on stderr when it is a terminal, else one plain line at the end
    (for runs of a second or more: short ones stay quiet).

    Yields ``update(n)``: ``n`` more units done; ``unit`` names them in the
    line ("1000 of 1000 games").
    """
    start = time.perf_counter()
    stream = sys.stderr
    if stream.isatty():
        with click.progressbar(length=length, label=label, file=stream, show_pos=True,
                               show_eta=True) as bar:
            yield bar.update
    else:
        done = [0]

        def update(n: int) -> None:
            done[0] += n

        try:
            yield update
        finally:
            spent = time.perf_counter() - start
            if spent >= 1.0:
                click.echo(f"{label}: {done[0]} of {length}{' ' + unit if unit else ''} in {spent:.1f} s",
                           err=True)


@contextlib.contextmanager
def working(label: str) -> Iterator[None]:
    """Progress for one long computation with no steps to count: the time
    spent, redrawn on a terminal; one plain line at the end otherwise (for
    a second or more)."""
    import threading
    start = time.perf_counter()
    stream = sys.stderr
    done = threading.Event()
    painter = None
    if stream.isatty():
        def paint() -> None:
            while not done.wait(0.5):
                stream.write(f"\r{label}: {time.perf_counter() - start:.0f} s")
                stream.flush()
        painter = threading.Thread(target=paint, daemon=True)
        painter.start()
    finished = False
    try:
        yield
        finished = True
    finally:
        done.set()
        spent = time.perf_counter() - start
        if painter is not None:
            painter.join()
            if spent >= 0.5:
                stream.write("\r\033[K")
        if spent >= 1.0:  # a timeout or Ctrl-C is said by the command, not called done
            click.echo(f"{label}: {'done in' if finished else 'stopped after'} {spent:.1f} s", err=True)


def timeout_option(command):
    """``--timeout SECONDS``: stop a hard query, report what is known, exit 3."""
    return click.option("--timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
                        help="Give up after SECONDS, report what is known, exit 3.")(command)


class TimeUp(Exception):
    """Raised when ``--timeout`` runs out."""


KNOWN_SECONDS = 2.0  # out of time, what the single-number rules settle is worked out within this much more


class Clock:
    """One ``--timeout`` for all of a command's steps: each gets what is left.

    >>> Clock(None).left() is None, 0 < Clock(5).left() <= 5
    (True, True)
    """

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.end = None if not seconds else time.monotonic() + seconds

    def left(self) -> float | None:
        """Seconds left (a moment at least, so that a step spent runs out at once), None: no limit."""
        return None if self.end is None else max(0.001, self.end - time.monotonic())


def within(seconds: float | None, work: Callable[[], object], *, isolate: bool = False,
           memory: int | None = None):
    """``work()``, given at most ``seconds`` (None: no limit); raises :class:`TimeUp`.

    With a limit (or ``isolate``) the work runs in a forked child process, so
    that a long call into C (a SAT solver, Ganak), which neither a signal nor
    Ctrl-C interrupts until it returns, is stopped on time: the child is
    killed.  Its answer comes back pickled.  Without either, it runs here.
    ``memory`` (bytes) bounds what the child may allocate beyond what it
    inherits: past it, :class:`MemoryError` is raised here.
    """
    if not seconds and not isolate and not memory:
        return work()
    import multiprocessing
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_serve, args=(work, sender, memory), daemon=True)
    child.start()
    sender.close()
    end = time.monotonic() + seconds if seconds else None
    try:
        while True:
            wait = 0.1 if end is None else max(0.0, min(0.1, end - time.monotonic()))
            if receiver.poll(wait):
                kind, value = receiver.recv()
                break
            if not child.is_alive() and not receiver.poll(0):
                raise MemoryError() if child.exitcode == -9 else RuntimeError(
                    f"the worker process ended with code {child.exitcode}")
            if end is not None and time.monotonic() >= end:
                raise TimeUp()
    finally:
        if child.is_alive():
            child.kill()
        child.join()
    if kind == "error":
        raise value
    return value


def _serve(work: Callable[[], object], sender, memory: int | None = None) -> None:
    """In the child: do the work, send ("value", answer) or ("error", exception)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent answers Ctrl-C
    if memory:
        _bound_memory(memory)
    try:
        message = ("value", work())
    except BaseException as err:  # noqa: BLE001 - every failure goes back to the parent
        message = ("error", err)
    try:
        sender.send(message)
    except Exception as err:  # noqa: BLE001 - an answer or error that cannot be pickled
        sender.send(("error", RuntimeError(f"{type(err).__name__}: {err}")))


def _bound_memory(extra: int) -> None:
    """Limit this process's address space to what it has now plus ``extra`` bytes.

    The child inherits the parent's mappings (the board it counts, shared
    until written), so the bound is on top of them; past it an allocation
    fails and Python raises MemoryError instead of the machine swapping.
    """
    try:
        import resource
        with open("/proc/self/statm") as statm:  # pages of address space in use
            used = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = used + extra if hard == resource.RLIM_INFINITY else min(hard, used + extra)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, OSError, ValueError):  # not Linux: no bound, as before
        pass


@contextlib.contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Raise :class:`TimeUp` in this (main) thread after ``seconds`` (None: never).

    For loops of short steps in Python that must keep what they made
    (``generate --count`` writes each board as it comes): a signal stops
    them at the next bytecode.  Long calls into C need :func:`within`.
    """
    if not seconds or not hasattr(signal, "setitimer"):
        yield
        return

    def ring(signum, frame):
        raise TimeUp()

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
