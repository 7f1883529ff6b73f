"""The journal of a long run: what finished, on disk as soon as it finished.

Two kinds of run keep one: ``bench`` (games of one level, in chunks) and
``density`` (one summary per level of its sweep, see :func:`read_levels`).

A journal is JSON lines: first the run's parameters (``{"run": {...}}``, with
``code``, the digest of the code that plays it: :func:`~satsweeper.runner.player_fingerprint`),
then one line per finished chunk of games in order (``{"chunk": {...}}``, see
:class:`~satsweeper.experiments.Chunk`: which games were won, one ``0``/``1``
each, and their guesses), and, once the run is complete, its summary
(``{"summary": {...}}``).  A run stopped by Ctrl-C or a dead machine leaves
every chunk it finished; :func:`read_journal` gives them back and
:func:`~satsweeper.experiments.run` continues after them with the same final
summary as a run that never stopped.  A last line cut off by the stop is
ignored.
"""

from __future__ import annotations

import dataclasses
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from .errors import BoardSyntaxError, TooComplexError
from .experiments import Chunk, Summary, is_count, is_seconds
from .textio import read_text


@dataclass(frozen=True)
class Journal:
    """What a journal file holds."""

    run: dict
    chunks: tuple[Chunk, ...]
    summary: dict | None

    @property
    def games(self) -> int:
        """Games finished, from game 0 on."""
        return self.chunks[-1].stop if self.chunks else 0


def _of_command(run, command: str, name: str):
    """``run`` if it is ``command``'s run line: another command's journal is named
    as such on its first line, not where its entries stop fitting."""
    found = run.get("command") if isinstance(run, dict) else None
    if found not in (None, command):
        raise BoardSyntaxError(name, 1, 1, f"the journal of a {command} run (its --out)",
                               f"the journal of a {found} run")
    return run


def read_journal(path: str | Path) -> Journal:
    """The run, its finished chunks (from game 0, without a gap) and its summary if complete.

    Raises:
        BoardSyntaxError: a line that is not what a journal holds, with its
            ``file:line:col`` (the same class as every unreadable input).
    """
    name = str(path)
    run: dict | None = None
    chunks: list[Chunk] = []
    summary = None
    for number, line, kind, value in _entries(path, "one of run, chunk or summary"):
        if kind == "run" and run is None and number == 1 and isinstance(value, dict):
            run = _of_command(value, "bench", name)
        elif kind == "chunk" and run is not None:
            chunk = _chunk(value, name, number)
            expected = chunks[-1].stop if chunks else 0
            if chunk.start != expected:
                raise BoardSyntaxError(name, number, 1, f"the chunk starting at game {expected}",
                                       f"one starting at {chunk.start}")
            chunks.append(chunk)
        elif kind == "summary" and run is not None:
            summary = value
        else:
            raise BoardSyntaxError(name, number, 1, "a first line {\"run\": ...}" if run is None
                                   else "a chunk or a summary", repr(line[:40]))
    if run is None:
        raise BoardSyntaxError(name, 1, 1, "a journal of a run, starting {\"run\": ...}", "an empty file")
    return Journal(run, tuple(chunks), summary)


def _entries(path: str | Path, kinds: str):
    """``(line number, line, kind, value)`` of each ``{kind: value}`` line of a
    journal; a last line cut off by a stop is dropped, any other bad line raises
    :class:`BoardSyntaxError` (``kinds`` says what was expected)."""
    name, text = journal_text(path)
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            if number == len(lines):
                return  # cut off by the stop: that entry was not finished
            raise BoardSyntaxError(name, number, 1, "a JSON line", repr(line[:40])) from None
        if not isinstance(entry, dict) or len(entry) != 1:
            raise BoardSyntaxError(name, number, 1, kinds, repr(line[:40]))
        kind, value = next(iter(entry.items()))
        yield number, line, kind, value


def journal_text(path: str | Path) -> tuple[str, str]:
    """(the name to quote, the text) of a journal: :func:`~satsweeper.textio.read_text`'s, which
    stops at the first byte no journal holds (a memo given by mistake), but a last line torn by a
    power loss dropped (see _before_torn_tail).  ``--resume`` reads its file so."""
    try:
        return read_text(path)
    except BoardSyntaxError as err:
        return str(path), _before_torn_tail(path, err)


def _before_torn_tail(path: str | Path, err: BoardSyntaxError) -> str:
    """The lines before the last, when ``err`` (a byte that is no text) is in the last line:
    a machine that lost power can leave it NULs or half a character, as a stop leaves it
    half a line (that refused the whole journal); ``err`` raised again anywhere else."""
    if not os.path.isfile(path):  # /dev/zero given by mistake: read whole, it never ends
        raise err
    try:
        with open(path, "rb") as stream:
            data = stream.read()
    except OSError:
        raise err from None
    head = data[:data.rfind(b"\n") + 1]
    if err.line != head.count(b"\n") + 1:
        raise err
    return head.decode("utf-8")


def _chunk(value, name: str, number: int) -> Chunk:
    try:
        return Chunk.from_json(value)
    except ValueError as err:
        raise BoardSyntaxError(name, number, 1, "a chunk with start, stop, wins, won (one 0/1 a game, "
                               "wins of them 1), guesses and seconds, as the run wrote it", str(err)[:80]) from None


def _level(value, name: str, number: int) -> Summary:
    """A ``{"level": ...}`` line's summary; a hand-edited count (1.5, -3, more wins
    than games) is refused, as a chunk's is, not summed into the fit."""
    fields = sorted(f.name for f in dataclasses.fields(Summary))
    if not isinstance(value, dict) or sorted(value) != fields:
        found = f"fields {sorted(value)}" if isinstance(value, dict) else type(value).__name__
    elif not all(isinstance(value[k], str) for k in ("strategy", "level")):
        found = f"strategy {value['strategy']!r}, level {value['level']!r}"
    elif not all(is_count(value[k]) for k in ("games", "wins", "guesses")):
        found = ", ".join(f"{k} {value[k]!r}" for k in ("games", "wins", "guesses"))
    elif value["wins"] > value["games"]:
        found = f"wins {value['wins']} of {value['games']} games"
    elif not is_seconds(value["seconds"]):
        found = f"seconds {value['seconds']!r}"
    else:
        return Summary(**value)
    raise BoardSyntaxError(name, number, 1, "a level with strategy, level, games, wins (at most the games), "
                           "guesses and seconds, as the run wrote it", found[:80])


@dataclass(frozen=True)
class LevelJournal:
    """What a ``density`` journal holds: its run, and each finished level's summary."""

    run: dict
    levels: dict[str, Summary]
    lines: dict[str, int] = dataclasses.field(default_factory=dict)  # each level's line, for messages


def read_levels(path: str | Path) -> LevelJournal:
    """A ``density`` journal: ``{"run": ...}``, then ``{"level": ...}`` lines
    (a :class:`~satsweeper.experiments.Summary` each), a cut-off last line ignored.

    Raises:
        BoardSyntaxError: a line that is not what such a journal holds.
    """
    name = str(path)
    run: dict | None = None
    levels: dict[str, Summary] = {}
    lines: dict[str, int] = {}
    for number, line, kind, value in _entries(path, "one of run or level"):
        if kind == "run" and run is None and number == 1 and isinstance(value, dict):
            run = _of_command(value, "density", name)
        elif kind == "level" and run is not None:
            summary = _level(value, name, number)
            if summary.level in levels:  # a run writes each level once: the later line won, silently
                raise BoardSyntaxError(name, number, 1, f"each level once ({summary.level} is at line "
                                       f"{lines[summary.level]})", f"{summary.level} again")
            levels[summary.level], lines[summary.level] = summary, number
        else:
            raise BoardSyntaxError(name, number, 1, "a first line {\"run\": ...}" if run is None
                                   else "a level", repr(line[:40]))
    if run is None:
        raise BoardSyntaxError(name, 1, 1, "a journal of a run, starting {\"run\": ...}", "an empty file")
    return LevelJournal(run, levels, lines)


class JournalUnwritable(TooComplexError):
    """The journal could not be written (a full disk): the run stops there, a limit of the
    machine (exit 3); the lines written before stand, a half-written last one is ignored on
    ``--resume``."""


class JournalBusy(Exception):
    """Another process is writing the journal (it holds the file's lock)."""


def _lock(handle) -> bool:
    """Take ``handle``'s exclusive lock without waiting; False if another process holds it.
    (No ``fcntl``, as on Windows: no lock, and True.)"""
    try:
        import fcntl
    except ImportError:
        return True
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _check_free(path: Path) -> None:
    """Raise :class:`JournalBusy` if a running writer holds ``path``'s lock."""
    try:
        handle = open(path, "rb")
    except OSError:
        return  # no file yet, or one we cannot read: opening it for writing says why
    with handle:
        if not _lock(handle):
            raise JournalBusy(str(path))


def _claimed(temporary: Path, journal: Path) -> IO[str]:
    """``temporary`` (the journal's ``.part``) opened and locked by this run, emptied only once
    locked; :class:`JournalBusy` if another run holds it or, since, the journal itself.

    Locked before it takes the journal's name, for as long as the run writes it: a second run
    given the same file finds the lock (_check_free) instead of replacing the file under the
    first.  Opened without truncating: two runs started together both passed _check_free, and
    the second emptied the first's ``.part`` while it was being written (a journal of 2,000
    games came out with two runs' lines run together).
    """
    handle = open(os.open(temporary, os.O_RDWR | os.O_CREAT, 0o666), "w", encoding="utf-8")
    if not _lock(handle):  # another run's .part, being written: not ours to empty or remove
        handle.close()
        raise JournalBusy(str(journal))
    try:
        _check_free(journal)  # a run that renamed its .part to the journal since we looked
    except JournalBusy:
        if os.path.exists(temporary) and os.stat(temporary).st_ino == os.fstat(handle.fileno()).st_ino:
            os.unlink(temporary)  # ours (locked): no .part left behind
        handle.close()
        raise
    handle.truncate(0)
    return handle


class JournalWriter:
    """Writes a journal line by line, each flushed to disk before the next game.

    Resuming rewrites the kept part first (to a temporary file, then a
    rename), which drops a half-written last line.  The file stays locked
    while the run writes it: a second writer raises :class:`JournalBusy`.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "run.jsonl")
    >>> with JournalWriter(path, {"games": 2}) as journal:
    ...     journal.chunk(Chunk(0, (True, False), 1, 0.5))
    >>> read_journal(path).games
    2
    """

    def __init__(self, path: str | Path, run: dict, chunks: tuple[Chunk, ...] = (),
                 levels: tuple[Summary, ...] = ()):
        self.path = Path(path)
        _check_free(self.path)
        # As every output: a symbolic link is written through (the rename replaced the link
        # with a file, its target left stale), and a journal replaced keeps its permissions.
        target = Path(os.path.realpath(self.path))
        temporary = target.with_name(f".{target.name}.part")
        handle = _claimed(temporary, self.path)
        try:
            if target.exists():
                os.chmod(temporary, stat.S_IMODE(target.stat().st_mode))
            self._write(handle, {"run": run})
            for chunk in chunks:
                self._write(handle, {"chunk": chunk.as_json()})
            for summary in levels:
                self._write(handle, {"level": dataclasses.asdict(summary)})
            os.replace(temporary, target)
        except BaseException:  # a full disk before the first game: no empty .part left behind
            handle.close()
            temporary.unlink(missing_ok=True)
            raise
        self.handle: IO[str] = handle

    def chunk(self, chunk: Chunk) -> None:
        self._write(self.handle, {"chunk": chunk.as_json()})

    def level(self, summary: Summary) -> None:
        """One finished level of a ``density`` sweep."""
        self._write(self.handle, {"level": dataclasses.asdict(summary)})

    def summary(self, data: dict) -> None:
        self._write(self.handle, {"summary": data})

    def _write(self, handle: IO[str], entry: dict) -> None:
        try:
            handle.write(json.dumps(entry) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        except OSError as err:  # a full disk: the run stops, what the journal holds kept
            raise JournalUnwritable(f"could not write the journal {self.path}: {err.strerror or err}") from None

    def close(self) -> None:
        try:
            self.handle.close()
        except OSError:  # the line a full disk refused, still buffered: refused again (JournalUnwritable said it)
            pass

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
