"""Limits on one piece of work: a time limit kept even inside C, a deadline
for Python loops, one budget shared by several steps.

The command line (``--timeout``) and the web server keep their time
limits with these; neither is needed to use them.

>>> within(5, lambda: 6 * 7)
42
"""

from __future__ import annotations

import contextlib
import functools
import gc
import os
import signal
import sys
import threading
import time
from typing import Callable, Iterator


class TimeUp(Exception):
    """Raised when a time limit (``--timeout``, the server's) runs out."""


# Out of time, what the single-number rules settle is still worked out, within
# this much more (the command line and the server say the same).
KNOWN_SECONDS = 2.0


class Clock:
    """One time limit (``--timeout``) for all of a command's steps: each gets what is left.

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
                try:
                    kind, value = receiver.recv()
                    break
                except EOFError:  # it died without a word: click read the EOFError as Ctrl-C
                    child.join()
                    raise _death(child.exitcode) from None
            if not child.is_alive() and not receiver.poll(0):
                raise _death(child.exitcode)
            if end is not None and time.monotonic() >= end:
                raise TimeUp()
    finally:
        if child.is_alive():
            child.kill()
        child.join()
    if kind == "error":
        raise value
    return value


def _death(code: int | None) -> BaseException:
    """Why a child died without an answer, by its exit code: killed (the kernel's answer to
    memory it had not), past the CPU time limit (as the parent's own SIGXCPU is answered:
    a count in a child said only "interrupted"), or else."""
    if code == -signal.SIGKILL:
        return MemoryError()
    if code == -getattr(signal, "SIGXCPU", 0):
        return CpuTimeUp()
    return RuntimeError(f"the worker process ended with code {code}")


def _serve(work: Callable[[], object], sender, memory: int | None = None) -> None:
    """In the child: do the work, send ("value", answer) or ("error", exception)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent answers Ctrl-C
    if memory:
        bound_memory(memory)
    try:
        message = ("value", work())
    except BaseException as err:  # noqa: BLE001 - every failure goes back to the parent
        message = ("error", err)
    try:
        sender.send(message)
    except Exception as err:  # noqa: BLE001 - an answer or error that cannot be pickled
        sender.send(("error", RuntimeError(f"{type(err).__name__}: {err}")))


def bound_memory(extra: int) -> None:
    """Limit this process's address space to what it has now plus ``extra`` bytes.

    The child inherits the parent's mappings (the board it counts, shared
    until written), so the bound is on top of them; past it an allocation
    fails and Python raises MemoryError instead of the machine swapping.
    """
    try:
        import resource
        with open("/proc/self/statm") as statm:  # pages of address space in use
            used = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        # Never above a bound already set (the command line's machine bound, a ulimit).
        limit = min([used + extra] + [b for b in (soft, hard) if b != resource.RLIM_INFINITY])
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, OSError, ValueError):  # not Linux: no bound, as before
        pass


def die_with(parent: int) -> None:
    """SIGKILL this process when ``parent`` dies (Linux's parent-death signal; it belongs to
    the thread that forked this process, which must live as long as ``parent`` does).

    A run or a server killed with ``kill -9`` left its workers alive, holding the journal
    they inherited (``--resume`` was refused) or the server's port (a restart was refused).
    """
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: as before
        return
    if os.getppid() != parent:  # it died before the signal was set: go now
        os._exit(1)


def machine_memory() -> int | None:
    """Bytes this process may still take: the machine's memory and swap not in
    use (MemAvailable, SwapFree), or what its control group (a container) has
    left where that is less; None where unknown.

    >>> free = machine_memory()
    >>> free is None or free > 2**20
    True
    """
    try:
        with open("/proc/meminfo") as meminfo:
            sizes = dict(line.split(":", 1) for line in meminfo if ":" in line)
        free = (int(sizes["MemAvailable"].split()[0]) + int(sizes.get("SwapFree", "0 kB").split()[0])) * 1024
    except (OSError, KeyError, ValueError):  # not Linux
        return None
    try:
        with open("/sys/fs/cgroup/memory.max") as limit, open("/sys/fs/cgroup/memory.current") as current:
            free = min(free, int(limit.read()) - int(current.read()))
    except (OSError, ValueError):  # no cgroup v2, or "max": no lower limit
        pass
    return max(free, 0)


# The share of the machine's free memory a command may take (bound_to_machine).  All of it was
# too much: a probs of a 150x150 lattice grew to 20.7 GB of this 23 GB machine while other
# programs grew beside it, and the kernel's out-of-memory killer ended it first (exit 137, no
# answer) where the bound would have said "out of memory".  A quarter is left to the others.
SHARE = 3 / 4


def bound_to_machine(free: int | None = None) -> None:
    """Past ``SHARE`` of what the machine has free now (``free`` bytes more than this
    process holds, :func:`machine_memory` by default) an allocation here raises
    :class:`MemoryError`.

    Without it a count too big for the machine grows until the kernel kills
    the process (exit 137, no answer, minutes of swapping first, or another
    program killed in its place); with it the command line answers "out of
    memory", exit 3, its JSON object included.  The bound is on address
    space, which is at least what is in memory, so it comes first.  A limit
    already set (``ulimit -v``) is kept.
    """
    free = machine_memory() if free is None else free
    try:
        import resource
    except ImportError:  # not Unix: no bound
        return
    if free is not None and resource.getrlimit(resource.RLIMIT_AS)[0] == resource.RLIM_INFINITY:
        bound_memory(int(free * SHARE))


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a big structure is built.

    A DP keeps hundreds of thousands of small tuples and lists alive, and a
    big board's rules are a million small objects; none point back at each
    other, and the collector walks them again and again for nothing.  On
    compiled boards that tripled the time of a DP pass (13.4 s against 4.9 s
    on a 15,126-square balanced board), and building the rules of a
    1000x1000 board took 4.8 s against 1.4.

    >>> import gc
    >>> with collector_paused():
    ...     gc.isenabled()
    False
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@contextlib.contextmanager
def interrupts_as_ctrl_c() -> Iterator[None]:
    """python-sat answers Ctrl-C inside its C code with its own exception
    (``pysolvers.error: Caught keyboard interrupt``, :func:`is_pysat_interrupt`): raised as KeyboardInterrupt, so that a
    query stopped by Ctrl-C says "interrupted", exit 130 (it was "internal error", exit 70).

    >>> try:
    ...     with interrupts_as_ctrl_c():
    ...         raise type("error", (Exception,), {"__module__": "pysolvers"})("Caught keyboard interrupt")
    ... except KeyboardInterrupt:
    ...     print("Ctrl-C")
    Ctrl-C
    """
    try:
        yield
    except Exception as err:
        if is_pysat_interrupt(err):
            raise KeyboardInterrupt from None
        raise


@contextlib.contextmanager
def pysat_handler_off() -> Iterator[None]:
    """python-sat's cardinality encoders (``pycard``) called without their own Ctrl-C handler:
    Python's raises KeyboardInterrupt once the call returns (a few seconds at most).

    Why: their handler jumps out of the C++ code it interrupts, which may hold the allocator's
    lock or leave its heap half changed. Ctrl-C while a totalizer was built left the process
    hung for good (3 of 10 tries) or aborting at exit ("malloc_consolidate(): invalid chunk
    size"). python-sat installs it only on the main thread, as it tells by
    ``pysat._utils.MainThread.check``, which says otherwise within this block.

    >>> from pysat._utils import MainThread
    >>> with pysat_handler_off():
    ...     MainThread.check()
    False
    >>> MainThread.check()
    True
    """
    from pysat import _utils
    check = _utils.MainThread.__dict__["check"]
    _utils.MainThread.check = staticmethod(lambda: False)
    try:
        yield
    finally:
        _utils.MainThread.check = check


def is_pysat_interrupt(err: BaseException) -> bool:
    """Is ``err`` python-sat's word for Ctrl-C in its C code: its solvers' (``pysolvers``)
    or its cardinality encoders' (``pycard``; ours run them without it: :func:`pysat_handler_off`)?

    >>> is_pysat_interrupt(type("error", (Exception,), {"__module__": "pycard"})("Caught keyboard interrupt"))
    True
    >>> is_pysat_interrupt(ValueError("Caught keyboard interrupt"))
    False
    """
    return type(err).__module__ in ("pysolvers", "pycard") and "keyboard interrupt" in str(err).lower()


#: Seconds between the rings of :func:`deadline` after the first.
RING_AGAIN = 0.5


@contextlib.contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Raise :class:`TimeUp` in this (main) thread after ``seconds`` (None: never).

    For loops of short steps in Python that must keep what they made
    (``generate --count`` writes each board as it comes): a signal stops
    them at the next bytecode.  Long calls into C need :func:`within`.

    The signal rings again every :data:`RING_AGAIN` seconds until the block
    ends: a ring that lands in a ``__del__`` or a weakref callback raises
    where Python can only print the error (seen in a test run), and a
    single ring would then be lost and the block run on.
    """
    if not seconds or not hasattr(signal, "setitimer"):
        yield
        return

    def ring(signum, frame):
        raise TimeUp()

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds, RING_AGAIN)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class CpuTimeUp(KeyboardInterrupt):
    """SIGXCPU, past a soft CPU time limit (``ulimit -t``, a batch system's), raised as Ctrl-C
    is (:func:`terminate_as_interrupt`): whatever keeps finished work on Ctrl-C keeps it here."""

    def __str__(self) -> str:
        return "the CPU time limit (ulimit -t) was reached"


# Signals answered as Ctrl-C by terminate_as_interrupt: kill's SIGTERM, and SIGXCPU, which the
# kernel sends past a soft CPU time limit (each second until the hard one's SIGKILL); the default
# action of both ends the process with nothing kept or said (exit 143, 152).
AS_INTERRUPT = tuple(sig for sig in (signal.SIGTERM, getattr(signal, "SIGXCPU", None)) if sig is not None)


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (and SIGXCPU, as :class:`CpuTimeUp`) raised as KeyboardInterrupt in the main
    thread, as Ctrl-C is, within the block.

    Only where the signal has its default action (which ends the process with
    nothing kept or said): a program that handles or ignores it keeps its
    choice, and a thread other than the main one cannot set a handler.  A
    second signal once the block is left has the default action again.  The command line
    sets it around a command, the runner around a run.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    ours = [sig for sig in AS_INTERRUPT if signal.getsignal(sig) is signal.SIG_DFL]
    for sig in ours:
        signal.signal(sig, functools.partial(_interrupt, os.getpid()))
    hook = sys.unraisablehook
    sys.unraisablehook = functools.partial(_interrupt_again, hook)
    try:
        yield
    finally:
        sys.unraisablehook = hook
        for sig in ours:
            signal.signal(sig, signal.SIG_DFL)


def _interrupt_again(hook, unraisable) -> None:
    """An interrupt raised inside a finalizer, where Python prints it ("Exception ignored in")
    and goes on: raised again in the main thread at its next step.  A kill during a Dask run
    was once lost so (the run played to its end, exit 0, a traceback on stderr)."""
    err = unraisable.exc_value
    if isinstance(err, KeyboardInterrupt) and threading.current_thread() is threading.main_thread():
        import _thread
        # From another thread, a moment later: called here, it was raised in the hook (ignored again).
        # Ctrl-C's signal, unless Python does not handle it: a process started in the background
        # of a script (``satsweeper bench ... &``) ignores SIGINT, and interrupt_main did nothing
        # (a kill there was lost); then kill's SIGTERM, whose handler is ours.
        signum = getattr(signal, "SIGXCPU") if isinstance(err, CpuTimeUp) else \
            signal.SIGINT if callable(signal.getsignal(signal.SIGINT)) else signal.SIGTERM
        timer = threading.Timer(0.1, _thread.interrupt_main, args=(signum,))
        timer.daemon = True
        timer.start()
        return
    hook(unraisable)


def _interrupt(owner: int, signum, frame):
    """Ctrl-C's KeyboardInterrupt in the process that set this handler.  A forked worker
    inherits it until its initializer resets the signal, and the pool may terminate it in
    between: there it ends the process, as the signal's default does (it raised, and the
    worker printed a traceback on the user's terminal; tests/test_runner.py's SIGTERM
    test saw it once in about 25 runs under load)."""
    if os.getpid() != owner:
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    raise CpuTimeUp if signum == getattr(signal, "SIGXCPU", None) else KeyboardInterrupt


def is_terminate_interrupt(handler) -> bool:
    """Whether ``handler`` is the one :func:`terminate_as_interrupt` sets (a block that holds
    Ctrl-C back holds SIGTERM too, then)."""
    return getattr(handler, "func", None) is _interrupt
