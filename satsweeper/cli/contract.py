"""What every command promises (``docs/json.md``): exit codes, JSON, errors,
inputs from anywhere, outputs checked before the work, progress, time limits.

Exit codes: 0 yes, 1 no, 2 bad input or usage, 3 a limit was reached (with
what is known), 130 interrupted, 70 an internal error (a bug: one line, never
a traceback).  With ``--json`` a command prints exactly one JSON object on
stdout, errors included.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import stat
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import click

from ..cells import CellRef
from ..errors import BoardSyntaxError, SatsweeperError, TooComplexError, cut
from ..limits import is_pysat_interrupt
from ..report.contract import envelope, error_object, error_parts, write_json

YES, NO, BAD_INPUT, LIMIT, INTERNAL, INTERRUPTED = 0, 1, 2, 3, 70, 130
CLOSED = 128 + 13  # standard output closed (| head): what a shell reports for a filter SIGPIPE stopped

# The built-in strategies' names, for --strategy: satsweeper.strategies.NAMES, written out
# because importing the strategies (the counting engine with them) would slow every command's
# start; tests/test_contract.py keeps the two equal.
STRATEGIES = ("random", "single-point", "basic", "limited", "limited-prob", "exact", "best")


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


# Said where an allocation failed: past the machine's free memory (limits.bound_to_machine) or a ulimit.
OUT_OF_MEMORY = "out of memory: the problem needs more memory than this machine has free"


class LimitReached(click.ClickException):
    """A budget or time limit ran out: exit 3; what is known was already reported."""

    exit_code = LIMIT


class StdoutUnwritable(LimitReached):
    """Standard output refused the answer (a full disk, /dev/full, an I/O error): exit 3, said
    on standard error (a traceback and exit 1, "no", when its JSON error was tried there too)."""

    def __init__(self, err: OSError):
        super().__init__(f"could not write the answer to standard output: {err.strerror or err}")


# ------------------------------------------------------------- the group

# Whether this invocation's JSON answer has begun: Ctrl-C after that adds no second object.
_ANSWERED = [False]
# The files this invocation replaced: the text answers say so where they name the file,
# the JSON answer in one "replaced" list (emit), whichever command wrote them.
_REPLACED: list[str] = []

class Group(click.Group):
    """The command group that keeps the contract for every command below it.

    Errors become one line on stderr (or one JSON object on stdout with
    ``--json``) and an exit code; Ctrl-C exits 130; an unexpected exception
    is reported as an internal error in one line, exit 70.
    """

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        args = list(sys.argv[1:] if args is None else args)
        as_json = "--json" in args
        # Named at once, without importing it (Ctrl-C while its module imports said "command": null).
        command = next((a for a in args if not a.startswith("-") and a in self.commands), None)
        _ANSWERED[0] = False
        _REPLACED.clear()
        try:
            # Inside: naming the command imports its module, which Ctrl-C may interrupt.
            command = self._named(args)
            with _terminate_as_interrupt(command):
                code = super().main(args, prog_name or "satsweeper", complete_var,
                                    standalone_mode=False, **extra)
            code = code if isinstance(code, int) else YES
        except click.exceptions.Exit as done:
            code = done.exit_code
        except click.Abort as abort:  # click's word for a KeyboardInterrupt, which is its cause
            code = _interrupted(as_json, command, abort.__cause__)
        except click.ClickException as err:
            code = _report_error(err, as_json, command)
        except SatsweeperError as err:
            code = _report_error(as_click(err), as_json, command)
        except KeyboardInterrupt as err:
            code = _interrupted(as_json, command, err)
        except RecursionError:
            code = _report_error(UserError("input nested less deeply", "nesting too deep to follow"),
                                 as_json, command)
        except MemoryError:
            code = _report_error(LimitReached(OUT_OF_MEMORY),
                                 as_json, command)
        except Exception as err:  # noqa: BLE001 - a bug, but the user sees one line
            refused = _too_long(err)
            if is_pysat_interrupt(err):  # Ctrl-C inside python-sat's C code, wherever it is called
                code = _interrupted(as_json, command, KeyboardInterrupt())
            elif refused:
                code = _report_error(refused, as_json, command)
            else:
                code = _report_error(click.ClickException(
                    f"internal error, please report it: {type(err).__name__}: {cut(str(err))}"), as_json, command, INTERNAL)
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
        # Past an option's value written before the command ('--timeout 3 probs'): the first command.
        words = words[next((i for i, w in enumerate(words) if w in self.commands), 0):]
        if words[0] not in self.commands:  # no command of ours ("command": "nosuchcmd" named one)
            return None
        group = self.commands.get(words[0])
        if isinstance(group, click.Group) and len(words) > 1 and words[1] in group.commands:
            return f"{words[0]} {words[1]}"
        return words[0]


# Commands that handle SIGTERM themselves: the server (uvicorn stops on it) and the runs of
# games, whose runner raises it as Ctrl-C except while a LocalCluster starts or stops.
_OWN_SIGTERM = {"serve", "bench", "density"}


@contextlib.contextmanager
def _terminate_as_interrupt(command: str | None) -> Iterator[None]:
    """``kill`` (SIGTERM) answered as Ctrl-C is, around the command
    (:func:`satsweeper.limits.terminate_as_interrupt`): a query's JSON says "interrupted" (it
    ended with nothing, exit 143, under ``timeout``, a batch system's stop or a tool's own time
    limit).  Not for the commands of :data:`_OWN_SIGTERM`.
    """
    if command in _OWN_SIGTERM:
        yield
        return
    from ..limits import terminate_as_interrupt
    with terminate_as_interrupt():
        yield


def _too_long(err: Exception) -> UserError | None:
    """A path the system refuses as too long, as bad input: any check of a file or output
    name (``Path.exists`` raises it) was an internal error, and a formula of 300 characters
    typed for ``compile`` met it first."""
    import errno
    if not (isinstance(err, OSError) and err.errno == errno.ENAMETOOLONG):
        return None
    name = os.fsdecode(err.filename) if err.filename is not None else "a name"
    return UserError(f"a file name of at most {NAME_MAX} bytes a part (of a path at most {PATH_MAX})",
                     f"{cut(name)}, {len(os.fsencode(name)):,} bytes")


NAME_MAX, PATH_MAX = 255, 4096  # Linux's: what ENAMETOOLONG means


def _interrupted(as_json: bool, command: str | None, err: BaseException | None) -> int:
    """Ctrl-C: one line on stderr (which says why if the CPU time limit raised it), and with
    ``--json`` still one object on stdout (unless the command's own answer has begun:
    bench's partial summary)."""
    why = str(err) if err is not None and str(err) else ""
    click.echo(f"satsweeper: interrupted{': ' + why if why else ''}", err=True)
    if as_json and not _ANSWERED[0]:
        _try_out(json.dumps(envelope(command, {"complete": False, "stopped": "interrupted"})) + "\n")
    return INTERRUPTED


def as_click(err: SatsweeperError) -> click.ClickException:
    """A library error as the CLI shows it (:func:`~satsweeper.report.contract.error_parts`),
    keeping its location."""
    if isinstance(err, TooComplexError):
        return LimitReached(str(err))
    parts = error_parts(err)
    found = UserError.__new__(UserError)
    click.ClickException.__init__(found, parts["message"])
    found.file, found.line, found.col = parts["file"], parts["line"], parts["col"]
    found.expected, found.got = parts["expected"], parts["got"]
    return found


def usage_words(err: click.UsageError, command: str | None) -> tuple[str, str]:
    """A mistake on the command line as (expected, got), the words of every other
    bad input, from click's exception (its own sentence, "Missing argument 'CELL'.",
    said neither)."""
    import re
    hint = None
    if isinstance(err, click.BadParameter):
        hint = err.param_hint
        if hint is None and err.param is not None:
            hint = err.param.get_error_hint(err.ctx)
        if isinstance(hint, (list, tuple)):
            hint = " / ".join(hint)
    if isinstance(err, click.MissingParameter):
        if isinstance(err.param, click.Argument):
            return f"the argument {err.param.make_metavar(err.ctx)}", "none"
        return f"the option {hint}", "none"
    if isinstance(err, click.BadParameter):
        # IntRange, FloatRange, Choice: "0 is not in the range x>=1." / "'x' is not one of 'a', 'b'."
        said = re.fullmatch(r"(.*?) is not ((?:in the range|one of) .*?)\.?", err.message, re.S)
        if said:
            return f"{hint} {said.group(2)}", said.group(1)
        # click's "'x' is not a valid float range." names its type, not what a user types
        kind = re.fullmatch(r"(.*?) is not a valid (float|integer)(?: range)?\.?", err.message, re.S)
        if kind:
            return f"{hint}: {'a number' if kind.group(2) == 'float' else 'a whole number'}", kind.group(1)
        return f"a valid {hint}", err.message.rstrip(".")
    if isinstance(err, click.NoSuchOption):
        near = f"; did you mean {' or '.join(err.possibilities)}?" if err.possibilities else ""
        if command and _misplaced(err, command):
            # 'satsweeper --json check B': the group read it, before the command was reached.
            return (f"options after the command: satsweeper {command} ... {err.option_name}",
                    f"{err.option_name!r} before '{command}'")
        if _anyones(err):  # 'satsweeper --json': an option of the commands, and none named
            return (f"a command before its options: satsweeper COMMAND ... {err.option_name}",
                    f"{err.option_name!r} before any command")
        if _takes_cell(err) and re.fullmatch(r"-\d+", err.option_name):  # 'safe b.txt -1,0': off the board
            return ("a cell as ROW,COL, counted from 0 at the top-left",
                    f"{err.option_name!r}, a negative number, read as an option")
        if not command or _before_command(err):  # only the group's own options are there
            return "--help or --version (the other options follow a command)", f"{err.option_name!r}{near}"
        return f"an option of satsweeper {command} (see --help)", f"{err.option_name!r}{near}"
    unknown = re.match(r"No such command '(.*)'", err.message)
    if unknown and err.ctx is not None and isinstance(err.ctx.command, click.Group):
        group = err.ctx.command_path.replace("main", "satsweeper", 1)
        return f"a command of {group}: {', '.join(err.ctx.command.commands)}", repr(unknown.group(1))
    if isinstance(err, click.BadOptionUsage) and err.message.endswith("requires an argument."):
        return f"a value after {repr(err.option_name)}", "none"
    usage = err.ctx.get_usage().removeprefix("Usage: ") if err.ctx else "the usage line"
    usage = usage.replace("main ", "satsweeper ", 1)
    return f"the arguments of: {usage}", err.message.rstrip(".").replace("Got ", "", 1).lower()


def _takes_cell(err: click.NoSuchOption) -> bool:
    """Whether the command refusing the option takes a CELL argument (``safe``)."""
    return err.ctx is not None and any(isinstance(p, click.Argument) and p.name == "cell"
                                       for p in err.ctx.command.params)


def _before_command(err: click.NoSuchOption) -> bool:
    """Whether the top group refused the option: it came before any command."""
    return err.ctx is not None and err.ctx.parent is None and isinstance(err.ctx.command, click.Group)


def _anyones(err: click.NoSuchOption) -> bool:
    """Whether the top group refused an option some command of it takes."""
    if not _before_command(err):
        return False
    found, seen = [err.ctx.command], []
    while found:
        command = found.pop()
        if isinstance(command, click.Group):
            found += command.commands.values()
        else:
            seen += [o for p in command.params for o in p.opts]
    return err.option_name in seen


def _misplaced(err: click.NoSuchOption, command: str) -> bool:
    """Whether the group refused an option that belongs to ``command``, named after it."""
    if not _before_command(err):
        return False
    found = err.ctx.command
    for word in command.split():
        found = found.commands.get(word) if isinstance(found, click.Group) else None
    return found is not None and any(err.option_name in p.opts for p in found.params)


def _report_error(err: click.ClickException, as_json: bool, command: str | None,
                  code: int | None = None) -> int:
    code = err.exit_code if code is None else code
    if isinstance(err, click.UsageError) and type(err).__name__ != "NoArgsIsHelpError":
        if err.ctx is not None and not as_json:
            click.echo(err.ctx.get_usage(), err=True)
        err = UserError(*usage_words(err, command))
    message = err.format_message()
    if type(err).__name__ == "NoArgsIsHelpError" and not as_json:
        # 'satsweeper' or 'satsweeper gadget' alone (click 8.2+): the help, once,
        # not the usage line followed by the help prefixed "satsweeper: ".
        click.echo(message, err=True)
        return code
    if isinstance(err, click.UsageError) and err.ctx is not None and not as_json:
        click.echo(err.ctx.get_usage(), err=True)
    if as_json and not isinstance(err, StdoutUnwritable) and _try_out(json.dumps(error_object(
            command, message, file=getattr(err, "file", None), line=getattr(err, "line", None),
            col=getattr(err, "col", None), expected=getattr(err, "expected", None),
            got=getattr(err, "got", None))) + "\n"):
        return code
    click.echo(f"satsweeper: {message}", err=True)
    return code


def _try_out(text: str) -> bool:
    """Whether ``text`` went to standard output (else it is for standard error to say)."""
    try:
        write_out(text)
    except StdoutUnwritable:
        return False
    return True


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
        if _REPLACED:
            data = {**data, "replaced": list(_REPLACED)}
        # Piece by piece: a big board's per-cell lists are written as they are made.
        with _finishing():
            write_json(envelope(command, data), write_out)
            write_out("\n")
    elif text is not None:
        write_out(text + "\n")
    raise click.exceptions.Exit(code)


@contextlib.contextmanager
def _finishing() -> Iterator[None]:
    """A first Ctrl-C (or kill, or SIGXCPU) while the JSON answer is written waits for its end; a
    second stops at once.

    The work is done and its object is the answer: cut, it was no JSON at all (a 300x300
    board's probs stopped after 280 KB at ``"p": 0.``, exit 130).  Writing it takes well
    under a second unless the reader stops reading, and then the second Ctrl-C is there.
    """
    import signal
    import threading
    from ..limits import AS_INTERRUPT, is_terminate_interrupt
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pressed: list[int] = []
    # kill's SIGTERM and a CPU limit's SIGXCPU are answered as Ctrl-C: held as it is (a kill
    # cut a 1.1 MB answer at 64 KB, its pipe's size, exit 130 and no object).
    held = [signal.SIGINT] + [sig for sig in AS_INTERRUPT if is_terminate_interrupt(signal.getsignal(sig))]

    def note(signum, frame):
        if pressed:
            handler = previous[signum]
            if callable(handler):  # as the signal is answered elsewhere (SIGXCPU says why)
                handler(signum, frame)
            raise KeyboardInterrupt
        pressed.append(signum)

    previous = {sig: signal.signal(sig, note) for sig in held}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def write_out(text: str) -> None:
    """Write ``text`` to standard output: all of it, or BrokenPipeError.

    Why not ``click.echo``: with ``PYTHONUNBUFFERED=1`` (common in containers)
    ``sys.stdout`` writes straight to the file descriptor, and a pipe closed part
    way (``| head``) cuts that write short without an error: the rest was lost
    and the command said 0.  Looping on what was written makes the next write
    fail, so the exit says 141 (:data:`CLOSED`) whatever the buffering.
    """
    out = sys.stdout
    raw = getattr(out, "buffer", None)
    try:
        if not isinstance(raw, io.RawIOBase):  # buffered (it loops itself), or a test's StringIO
            out.write(text)
            out.flush()
            return
        out.flush()
        view = memoryview(text.encode(out.encoding or "utf-8", out.errors or "strict"))
        while view:
            view = view[raw.write(view):]
    except BrokenPipeError:
        raise
    except OSError as err:  # /dev/full, an I/O error: not "| head", and not our bug
        raise StdoutUnwritable(err) from None


def verdict(yes: bool) -> int:
    return YES if yes else NO


# ------------------------------------------------------------- inputs

@dataclass(frozen=True)
class Source:
    """What the user gave: text and the name to quote in messages."""

    name: str
    text: str


class Positive(click.FloatRange):
    """A number above 0 (seconds, gigabytes): click's FloatRange lets ``nan``
    through (every comparison with it is false), which then limits nothing.

    >>> Positive().convert("2.5", None, None)
    2.5
    """

    def __init__(self):
        super().__init__(min=0, min_open=True)

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if number != number:  # nan
            self.fail(f"{value} is not in the range x>0.", param, ctx)
        return number


class Seconds(Positive):
    """A time limit in seconds above 0; one past :data:`LONGEST` (``inf``, ``1e10``) is
    :data:`LONGEST`: the platform's timers stop at 2**63 nanoseconds, and ``check --timeout
    1e10`` was an internal error ("timestamp out of range for platform time_t").

    >>> Seconds().convert("inf", None, None) == LONGEST, Seconds().convert("0.5", None, None)
    (True, 0.5)
    """

    def convert(self, value, param, ctx):
        return min(super().convert(value, param, ctx), LONGEST)


LONGEST = 1e9  # seconds (31 years): a limit that never comes, within every timer's range


class InputFile(click.ParamType):
    """A file to read, or ``-`` for standard input; its text, decoded as UTF-8
    (:func:`satsweeper.textio.read_text`: a byte no text holds is an error
    at once).  With ``gadgets``, a board argument: a library gadget's name where
    no such file exists reads the gadget's file (``count and``, as ``gadget
    verify and`` and ``repair and`` take it).

    >>> InputFile(gadgets=True).convert("not", None, None).text.splitlines()[3]
    'gadget: not'
    """

    name = "FILE"

    def __init__(self, gadgets: bool = False, journal: bool = False):
        self.gadgets = gadgets
        self.journal = journal  # a journal (--resume): a last line a power loss tore is dropped, not an error

    def convert(self, value, param, ctx) -> Source:
        from ..textio import read_text
        if isinstance(value, Source):
            return value
        try:
            if self.journal:
                from ..journal import journal_text
                return Source(*journal_text(value))
            return Source(*read_text(value))
        except BoardSyntaxError as err:
            found = err.found
            if found.startswith("no such file"):
                from ..gadgets import gadget_names, gadget_text  # only on this path: it loads pyeda
                if value in gadget_names():
                    if self.gadgets:  # a file of that name comes first: it was read above
                        return Source(value, gadget_text(value))
                    found += (f"; {value} is a library gadget: satsweeper gadget write DIR {value} writes its "
                              f"file (DIR/{value}.txt)")
            raise UserError(err.expected, found, err.source, err.line, err.column) from None


CELL = re.compile(r"\s*([0-9]{1,9})\s*,\s*([0-9]{1,9})\s*")


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


class PlayerParam(click.Choice):
    """A built-in strategy's name, or ``MODULE:CLASS``: a player of your own (the commands
    that play many games: bench, density), imported and started once here, so that a
    typo is refused before any game (:func:`satsweeper.strategies.own_player`).

    >>> PlayerParam().convert("satsweeper.strategies.exact:ExactProbability", None, None)
    'satsweeper.strategies.exact:ExactProbability'
    """

    def __init__(self):
        super().__init__(STRATEGIES)

    def get_metavar(self, param, *args, **kwargs) -> str:
        return "[" + "|".join(STRATEGIES) + "|MODULE:CLASS]"

    def convert(self, value, param, ctx):
        if isinstance(value, str) and ":" in value:
            from ..strategies import strategy
            strategy(value)  # its InputError says what is wrong in the player's own words
            return value
        return super().convert(value, param, ctx)


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
        if not value.strip():  # Path("") is ".": "got '.', a directory"
            raise UserError("a file to write", "an empty name")
        path = Path(value)
        if self.suffixes and path.suffix.lower() not in self.suffixes:
            raise UserError(f"a file name ending in {' or '.join(self.suffixes)}", cut(value))
        check_writable(path)
        return path


# Output names a command that writes a board refuses: they say another format.
NOT_BOARDS = {".cnf": "the name of a DIMACS CNF", ".dimacs": "the name of a DIMACS CNF",
              ".png": "the name of a picture", ".svg": "the name of a picture", ".pdf": "the name of a picture"}


class BoardOutput(OutputPath):
    """A board file to write (native text, or .mine by its suffix): a picture's or
    a CNF's name is refused before the work (``generate -o x.png`` wrote text there)."""

    def convert(self, value, param, ctx) -> Path:
        path = super().convert(value, param, ctx)
        if path.suffix.lower() in NOT_BOARDS:
            raise UserError("a board file: .mine for JSMinesweeper, else native text such as .txt",
                            f"{cut(str(path))}, {NOT_BOARDS[path.suffix.lower()]}")
        return path


class OutputDir(click.ParamType):
    """A directory to write into: an existing one, or a new one in an existing
    directory (as ``gadget write`` takes), which the command makes with
    :func:`make_directory` once its own checks pass, so that a refused run
    leaves nothing behind.  A missing parent is refused: a typo there would
    otherwise grow a tree of directories."""

    name = "DIR"

    def convert(self, value, param, ctx) -> Path:
        if isinstance(value, Path):
            return value
        if value == "-":  # else a directory called "-" appears where stdout was meant
            raise UserError("a directory to write into ('-' stands for standard input only)", "'-'")
        path = Path(value)
        if path.exists() and not path.is_dir():
            raise UserError("a directory", f"{cut(value)}, a file")
        if path.is_dir():
            refused = cannot_create_in(path)
            if refused:
                raise UserError("a directory we may write to", f"{cut(value)}, {refused}")
            return path
        parent = path.parent if str(path.parent) else Path(".")
        if not parent.is_dir():
            raise UserError("a directory, or a new one in an existing directory",
                            f"{cut(value)}: {cut(str(parent))} does not exist")
        refused = cannot_create_in(parent)
        if refused:
            raise UserError("a directory we may create", f"{cut(value)}, {refused}")
        return path


def make_directory(path: Path) -> None:
    """Make an :class:`OutputDir`'s directory if it is new (its parent was checked)."""
    try:
        path.mkdir(exist_ok=True)
    except OSError as err:
        raise UserError("a directory we may create", f"{cut(str(path))}, "
                        f"{(err.strerror or str(err)).lower()}") from None


def check_writable(path: Path) -> None:
    """Raise :class:`UserError` unless ``path`` can be written (before any work is done)."""
    # A link is written through (write_output): its target's directory is the one written.
    parent = Path(os.path.realpath(path)).parent
    if path.is_dir():
        raise UserError("a file to write", f"{cut(str(path))}, a directory")
    if path.exists() and not path.is_file():
        # A device or a pipe: the atomic write renames a new file over it (as root,
        # /dev/null becomes a plain file), and a journal or memo there is read first
        # (/dev/zero: without end).
        raise UserError("a regular file to write", f"{cut(str(path))}, a device, pipe or socket")
    if not parent.is_dir():
        # 'exist.txt/x.txt': the parent is there, a file ("does not exist" was wrong)
        raise UserError("an output file in an existing directory",
                        f"{cut(str(path))}: {cut(str(shown_parent(path, parent)))} "
                        + ("is a file, not a directory" if parent.exists() else "does not exist"))
    refused = cannot_create_in(parent)
    if refused or (path.exists() and not os.access(path, os.W_OK)):
        raise UserError("an output file we may write", f"{cut(str(path))}, {refused or 'not writable'}")


def shown_parent(path: Path, real: Path) -> Path:
    """The directory of ``path`` as the user wrote it, unless a link leads elsewhere
    (``real``, the directory written): a long absolute path was cut to its start."""
    return path.parent if not path.is_symlink() and str(path.parent) not in ("", ".") else real


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


def refuse_overwriting_input(output: Path | None, *inputs: Source | str | None, option: str = "-o") -> None:
    """An output may not replace what was read: it would be lost.  ``option``: the
    option that named the output, as the user gave it (``--render``, ``--picture``)."""
    if output is None:
        return
    for given in inputs:
        name = given.name if isinstance(given, Source) else given
        # os.path: a formula given as text may be too long for a file name (Path.exists raises).
        if name and name != "<stdin>" and os.path.exists(name) and output.exists() \
                and output.resolve() == Path(name).resolve():
            raise UserError("an output file other than the input",
                            f"{option} {cut(str(output))}, which would replace the input")
        if name in ("<stdin>", "-") and _is_stdin(output):  # render - -o lay.txt < lay.txt lost the layout
            raise UserError("an output file other than the input",
                            f"{option} {cut(str(output))}, which would replace the input (standard input is that file)")


def _is_stdin(path: Path) -> bool:
    """Whether ``path`` is the very file standard input reads (``- < file``)."""
    try:
        read, there = os.fstat(sys.stdin.fileno()), os.stat(path)
    except (OSError, ValueError, AttributeError):  # none there, or no file behind stdin
        return False
    return stat.S_ISREG(read.st_mode) and (read.st_dev, read.st_ino) == (there.st_dev, there.st_ino)


def write_output(path: Path, content: str | bytes | Callable[[Path], None]) -> str:
    """Write atomically (a temporary file, then a rename): an interrupted write
    leaves the old file or none, never half a file.  Returns what to tell the user.

    ``content`` may be a function that writes the file at the path it is given.
    A symbolic link is written through (its target replaced, the link kept), and a
    replaced file keeps its permissions; a new one gets the umask's, as ``open`` gives.
    """
    target = Path(os.path.realpath(path))
    existed = target.exists()
    mode = stat.S_IMODE(target.stat().st_mode) if existed else 0o666 & ~_umask()
    # The name's first 100 bytes: a name of 241-255 bytes, which the system allows, made a
    # temporary name it refused, once the work was done.
    short = os.fsencode(target.name)[:100].decode("utf-8", "ignore")
    # The name as given ends the temporary one: a picture's format follows it (a link
    # pic.svg -> notes.txt made matplotlib refuse 'txt', after the work was done).
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{short}.", suffix=path.suffix)
    os.close(handle)
    try:
        if callable(content):
            content(Path(temporary))
        elif isinstance(content, bytes):
            Path(temporary).write_bytes(content)
        else:
            Path(temporary).write_text(content, encoding="utf-8")
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except OSError as err:  # a full disk, a quota: the machine's limit, the old file kept
        kept = " (the file that was there is kept)" if existed else ""
        raise LimitReached(f"could not write {path}: {err.strerror or err}{kept}") from None
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    if existed:
        note_replaced(path)
    return f"wrote {path}" + (" (replaced the file that was there)" if existed else "")


def note_replaced(path: Path) -> None:
    """Say in the JSON answer (``"replaced"``) that ``path``, which was there, was replaced."""
    _REPLACED.append(str(path))


def _umask() -> int:
    """The process's umask (read by setting it: there is no other way)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


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

        failed = False
        try:
            yield update
        except Exception:
            failed = True  # an error (not Ctrl-C, which keeps its "600 of 2000"): said by its own line
            raise
        finally:
            spent = time.perf_counter() - start
            if spent >= 1.0 and not (failed and not done[0]):
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


def timed_out(command: str, as_json: bool, seconds: float | None, known: dict, known_text: str,
              stopped: str | None = None) -> None:
    """Report what is known when ``--timeout`` ran out (or memory: ``stopped`` says so), and exit 3."""
    stopped = stopped or f"no answer within {seconds:g} s (--timeout)"
    text = stopped + (f"; {known_text}" if known_text else "")
    # The keys every answer of the command has are there, null: not known in time.
    emit(command, as_json, dict(consistent=None, complete=False, stopped=stopped, timeout=seconds, **known),
         text, LIMIT)


def timeout_option(command):
    """``--timeout SECONDS``: stop a hard query, report what is known, exit 3."""
    return click.option("--timeout", type=Seconds(), metavar="SECONDS",
                        help="Give up after SECONDS, report what is known, exit 3.")(command)
