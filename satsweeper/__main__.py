"""``python -m satsweeper`` and the ``satsweeper`` command: :func:`run`."""

import io
import sys


def run() -> None:
    """The command line: exit 130 quietly on Ctrl-C at any time this function
    can see it.

    The command group answers Ctrl-C during a command (one line, exit 130,
    the JSON object with ``--json``); this also covers the moments around it:
    while the command line's modules import (click alone takes a tenth of a
    second, before the group exists) and while a first Ctrl-C or an error is
    being reported.  The console script points here, not at the group, so
    that importing click happens inside the ``try``.  (Importing the
    ``satsweeper`` package comes before any of its code can catch anything,
    so the package imports none of its modules; what Python does before
    that, such as the ``.pth`` files of ``site``, is Python's.)
    """
    _usable_streams()
    try:
        from .cli import main
        from .limits import bound_to_machine
    except KeyboardInterrupt:
        _interrupted_early()
    try:
        if _bounded(sys.argv[1:]):
            bound_to_machine()  # a count too big: "out of memory", exit 3, not the kernel's kill
        try:
            main()
        except SystemExit as done:
            _said_into_a_closed_stdout(done)
            raise
    except KeyboardInterrupt:
        # Another Ctrl-C while the first, an error or the answer was being
        # reported: what could be said was said; no traceback, no second answer.
        sys.exit(130)


def _usable_streams() -> None:
    """Standard streams a command can use whatever it was started with.

    One closed (``2>&-``, ``<&-``, ``>&-``) is None in Python, or a stream that fails: an
    error or a progress line on a closed stderr made any command exit 1 ("no"), a closed stdin was an internal error
    for ``-``, a closed stdout one for every answer.  Each reads or writes the null device
    instead (a closed stdin reads as empty, bad input for ``-``; the outputs a command
    writes to files are still written), and an answer that went to a closed stdout is
    said lost at the end, as on a full one (:func:`_said_into_a_closed_stdout`).  A character the output's encoding lacks
    (``PYTHONIOENCODING=ascii``, a path with 'é') is written escaped: the file was written,
    then saying so was an internal error.
    """
    import os
    try:
        import fcntl
    except ImportError:  # not POSIX: a closed stream is None there, and that is all we can tell
        fcntl = None
    for name, mode, fd in (("stdin", "r", 0), ("stdout", "w", 1), ("stderr", "w", 2)):
        try:
            # Closed at the start, its number may be another file's by now (one Python opened,
            # read-only), under a stream that fails: the mode says.
            flags = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE if fcntl else None
            closed = getattr(sys, name) is None or flags == (os.O_WRONLY if mode == "r" else os.O_RDONLY)
        except OSError:
            closed = True
        if closed and name == "stdout":
            sys.stdout = io.TextIOWrapper(io.BufferedWriter(_Nowhere(os.devnull, "w")), encoding="utf-8")
        elif closed:
            setattr(sys, name, open(os.devnull, mode, encoding="utf-8"))
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError):  # not a text file of ours (a test's capture)
            pass


class _Nowhere(io.FileIO):
    """The null device in place of a closed standard output, knowing whether anything was
    written to it (the command's answer, lost)."""

    lost = False

    def write(self, data) -> int:
        if len(data):
            _Nowhere.lost = True
        return super().write(data)


def _said_into_a_closed_stdout(done: SystemExit) -> None:
    """An answer printed to a closed standard output (``>&-``): one line on stderr and exit
    3, as for a full one (``> /dev/full``).  It was exit 0 with nothing said, the answer lost;
    ``/bin/echo`` says "Bad file descriptor" there and exits 1.  A worse exit (bad input,
    interrupted...) stays, and files the command wrote are kept."""
    buffer = getattr(sys.stdout, "buffer", None)
    if not isinstance(getattr(buffer, "raw", None), _Nowhere):
        return
    sys.stdout.flush()
    if _Nowhere.lost and done.code in (0, 1, None):
        sys.stderr.write("satsweeper: could not write the answer to standard output: it is closed\n")
        done.code = 3


def _bounded(args: list[str]) -> bool:
    """Whether the command runs under the machine's free memory (:func:`~satsweeper.limits.bound_to_machine`).

    Not the page (it may open a browser), the runs of games, nor anything with worker
    processes: pools and Dask workers reserve far more address space than they use (819 MB
    for 64 MB with ``--dask``), and bench checks a level's size itself.

    >>> _bounded(["probs", "b.txt"]), _bounded(["bench"]), _bounded(["generate", "--workers", "2"])
    (True, False, False)
    """
    if set(args[:1]) & {"serve", "bench", "density"}:
        return False
    return not any(a in ("--dask", "--scheduler", "--workers") or a.startswith(("--scheduler=", "--workers="))
                   for a in args)


def _interrupted_early() -> None:
    """Ctrl-C before any command ran: the group's words, exit 130."""
    sys.stderr.write("satsweeper: interrupted\n")
    if "--json" in sys.argv[1:]:  # still one JSON object, as docs/json.md promises
        try:
            import json

            from .report.contract import envelope
            print(json.dumps(envelope(None, {"complete": False, "stopped": "interrupted"})))
        except KeyboardInterrupt:
            pass
    sys.exit(130)


if __name__ == "__main__":  # pytest's doctest collection imports this module too
    run()
