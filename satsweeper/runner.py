"""Where long experiments run: here, in forked processes, or on a Dask cluster.

An experiment is ``total`` numbered items (games, boards) and a *work*
function ``work(lo, hi)`` that computes items ``lo .. hi-1`` and returns one
result per item.  Item ``i`` must depend on ``i`` alone (game ``i`` of a run
with seed ``s`` draws from its own generator seeded by ``(s, i)``), so the
results are the same whatever runs them and however the items are cut into
chunks.  :meth:`Runner.stream` hands the chunks back **in order**, so a caller
can show progress, write what finished, and resume from the first item that
did not.

Backends, chosen by :class:`Backend`:

* in this process (``workers=1``, the default);
* ``workers=N`` forked processes on this machine;
* ``dask=True``: a ``LocalCluster`` of ``workers`` processes;
* ``scheduler=ADDRESS``: an existing ``dask.distributed`` scheduler, whose
  workers may be on other machines (each with satsweeper installed).

Dask is imported only by the last two.  On a cluster a worker that dies
loses only the chunks it held: the scheduler gives them to another worker.

While a run streams, SIGTERM (``kill``, a batch system's stop) stops it as
Ctrl-C does: KeyboardInterrupt in the main thread, so the caller keeps the
chunks that finished (``bench`` prints their summary and the ``--resume``
line) instead of the process dying with nothing said.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import hashlib
import logging
import math
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import CancelledError
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence

from .errors import InputError, SatsweeperError, TooComplexError
from .limits import AS_INTERRUPT, CpuTimeUp, die_with, is_terminate_interrupt, terminate_as_interrupt

Work = Callable[[int, int], Sequence]

#: Most items in one chunk: with ``best`` at ~60 expert games/s a chunk is a
#: couple of seconds, so progress and the ``--out`` journal stay fresh.
LARGEST_CHUNK = 100
#: Chunks per worker over a run when the run is small: enough to balance
#: uneven games and to show progress in steps of a few percent.
CHUNKS_PER_WORKER = 16
#: The same on Dask, where a task costs about 8 ms of CPU between the
#: scheduler, this process and the worker (scripts/bench_cluster.py): 200
#: expert games of ``exact`` on 2 workers go in tasks of 25 games, not 7.
DASK_CHUNKS_PER_WORKER = 4
#: Seconds of waiting for a chunk before asking whether any worker is left to play it.
WAIT_NOTICE = 5.0

log = logging.getLogger(__name__)


class ClusterError(SatsweeperError, RuntimeError):
    """A Dask scheduler that cannot be reached, or Dask not installed.

    >>> str(ClusterError("a Dask scheduler at tcp://h:1", "no answer"))
    'expected a Dask scheduler at tcp://h:1 (got no answer)'
    """

    def __init__(self, expected: str, found: str):
        self.expected, self.found = expected, found
        super().__init__(f"expected {expected} (got {found})")


@dataclass(frozen=True)
class Backend:
    """How to run an experiment.

    Attributes:
        workers: processes (here, or in the LocalCluster with ``dask``).
        dask: start a Dask ``LocalCluster`` of ``workers`` processes.
        scheduler: address of a running Dask scheduler (``tcp://host:8786``).
        chunk: items per chunk; None chooses from the run's size.
        timeout: seconds allowed to reach the scheduler.

    >>> Backend(workers=2, dask=True).describe()
    'Dask LocalCluster of 2 processes'
    """

    workers: int = 1
    dask: bool = False
    scheduler: str | None = None
    chunk: int | None = None
    timeout: float = 5.0

    def __post_init__(self):
        # InputError (a ValueError): the library's own error for a caller's slip, as everywhere.
        if self.workers < 1:
            raise InputError(f"at least one worker (got {self.workers})")
        if self.chunk is not None and self.chunk < 1:
            raise InputError(f"a chunk of at least one item (got {self.chunk})")
        if self.dask and self.scheduler:
            raise InputError("either a LocalCluster or a scheduler address, not both")
        if self.scheduler is not None and not self.scheduler.strip():
            # --scheduler "$ADDRESS" with the variable unset ran here, on one core, unsaid
            raise InputError("a scheduler address such as tcp://10.0.0.5:8786 (got an empty one)")

    def describe(self) -> str:
        if self.scheduler:
            return f"Dask scheduler {self.scheduler}"
        if self.dask:
            return f"Dask LocalCluster of {self.workers} process{'es' if self.workers != 1 else ''}"
        return "this process" if self.workers == 1 else f"{self.workers} processes"


def chunk_size(items: int, parallel: int, per_worker: int = CHUNKS_PER_WORKER,
               largest: int = LARGEST_CHUNK) -> int:
    """Items per chunk: about ``per_worker`` chunks per worker, at most ``largest`` items.

    >>> chunk_size(200, 2), chunk_size(10, 4), chunk_size(10 ** 6, 8), chunk_size(200, 2, 4)
    (7, 1, 100, 25)
    """
    return max(1, min(largest, math.ceil(items / (parallel * per_worker))))


def chunks(start: int, total: int, size: int) -> list[tuple[int, int]]:
    """``[lo, hi)`` ranges of at most ``size`` items covering ``start .. total-1``.

    >>> chunks(3, 10, 4)
    [(3, 7), (7, 10)]
    """
    return [(lo, min(lo + size, total)) for lo in range(start, total, size)]


class Runner:
    """Runs chunks of an experiment; :func:`open_runner` makes one."""

    #: workers available, which sets the chunk size
    parallel: int = 1
    #: chunks per worker when a run is small
    per_worker: int = CHUNKS_PER_WORKER

    def __init__(self, backend: Backend):
        self.backend = backend

    def stream(self, work: Work, total: int, start: int = 0,
               largest: int = LARGEST_CHUNK) -> Iterator[tuple[int, list]]:
        """``(lo, results of items lo ..)`` for every chunk from ``start``, in order.

        Chunks hold at most ``largest`` items unless the backend sets a size:
        fewer for items that take long (a board, not a game).

        >>> with open_runner(Backend()) as runner:
        ...     list(runner.stream(_squares, 5, start=1))
        [(1, [1]), (2, [4]), (3, [9]), (4, [16])]
        """
        size = self.backend.chunk or chunk_size(total - start, self.parallel, self.per_worker,
                                                largest)
        yield from self._stream(work, chunks(start, total, size))

    def _stream(self, work: Work, ranges: list[tuple[int, int]]) -> Iterator[tuple[int, list]]:
        for lo, hi in ranges:
            yield lo, list(work(lo, hi))


def _squares(lo: int, hi: int) -> list[int]:
    return [i * i for i in range(lo, hi)]


class RunLost(TooComplexError):
    """What ran the chunks went away mid-run: the chunks handed back before
    are kept, the run stops (a limit of the machines: the CLI exits 3)."""


class WorkerLost(RunLost):
    """A worker process died mid-chunk (killed by the operating system, most
    often for memory).

    >>> str(WorkerLost(-9))
    'expected every worker process to finish its chunk (got one killed by signal 9; out of memory, a hard CPU time limit or kill -9?)'
    >>> str(WorkerLost(-24))
    'expected every worker process to finish its chunk (got one killed by signal 24; past its CPU time limit, ulimit -t)'
    """

    def __init__(self, exitcode: int | None):
        signum = -exitcode if exitcode and exitcode < 0 else None
        how = (f"killed by signal {signum}" if signum
               else f"ended with exit code {exitcode}" if exitcode else "gone")
        # SIGKILL is the kernel's answer to memory and to a hard CPU limit alike ("out of memory?"
        # alone misled under ulimit -t); SIGXCPU is the soft CPU limit.
        why = {signal.SIGKILL: "out of memory, a hard CPU time limit or kill -9?",
               getattr(signal, "SIGXCPU", None): "past its CPU time limit, ulimit -t"}.get(signum, "out of memory?")
        super().__init__(f"expected every worker process to finish its chunk (got one {how}; {why})")


class ClusterLost(RunLost):
    """The Dask scheduler went away mid-run, or killed workers made it give a chunk up.

    >>> str(ClusterLost("the Dask scheduler at tcp://h:1 to stay up", "the connection lost"))
    'expected the Dask scheduler at tcp://h:1 to stay up (got the connection lost)'
    """

    def __init__(self, expected: str, found: str):
        super().__init__(f"expected {expected} (got {found})")


class ProcessRunner(Runner):
    """Forked processes on this machine; Ctrl-C reaches only this process.

    A pool from concurrent.futures, not multiprocessing.Pool: when the
    operating system kills a worker, multiprocessing.Pool starts another and
    waits for the lost chunk for ever; this pool breaks, and the run stops
    with :class:`WorkerLost` after the chunks that finished (a limit of
    the machine: the CLI exits 3, as for any limit reached).
    """

    def __init__(self, backend: Backend):
        super().__init__(backend)
        self.parallel = backend.workers

    def _stream(self, work, ranges):
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool
        pool = ProcessPoolExecutor(self.parallel, multiprocessing.get_context("fork"),
                                   initializer=_worker_signals, initargs=(os.getpid(),))
        pending: collections.deque = collections.deque()
        todo = iter(ranges)
        finished = False
        broken = False
        try:
            while True:
                # A window of chunks in flight keeps every worker busy
                # without queueing a million at once.
                for lo, hi in todo if not broken else ():
                    try:
                        pending.append((lo, pool.submit(_call, (work, lo, hi))))
                    except BrokenProcessPool:
                        broken = True  # what finished before the break is still handed back
                        break
                    if len(pending) >= 4 * self.parallel:
                        break
                if not pending:
                    finished = not broken
                    if broken:
                        raise WorkerLost(_lost_exitcode(pool))
                    return
                lo, future = pending.popleft()
                try:
                    results = future.result()
                except BrokenProcessPool:
                    raise WorkerLost(_lost_exitcode(pool)) from None
                yield lo, results
        finally:
            if not finished:
                # Interrupted or broken: stop the workers now rather than
                # wait for the chunks they hold.
                for process in list(getattr(pool, "_processes", {}).values()):
                    process.terminate()
            manager = getattr(pool, "_executor_manager_thread", None)
            pool.shutdown(wait=finished, cancel_futures=True)
            if not finished and manager is not None:
                # With the workers gone the pool's thread ends at once; wait for it here.
                # Left running, it closes its wake-up pipe while Python's exit hook
                # writes to it (CPython 3.11 takes no lock there), and a stopped run
                # printed "OSError: Bad file descriptor" and a traceback on exit: one
                # SIGTERM in 15 under load in tests/test_runner.py.  Bounded: a thread
                # that hangs must not keep the user's Ctrl-C from returning.
                manager.join(timeout=10)


def _lost_exitcode(pool) -> int | None:
    processes = list(getattr(pool, "_processes", {}).values())
    for process in processes:  # the pool may not have reaped the dead one yet
        process.join(timeout=2)
    # The pool's own thread joins them too, and the one of two threads whose waitpid finds the
    # child already reaped reads no exit code until the other has stored it: one run in 25 of
    # tests/test_runner.py's killed worker named the pool's SIGTERM, not the SIGKILL, under load.
    deadline = time.monotonic() + 5
    while any(process.exitcode is None for process in processes) and time.monotonic() < deadline:
        time.sleep(0.01)
    codes = [p.exitcode for p in processes if p.exitcode]
    # The pool sends SIGTERM to the others once one dies, and a worker whose pipe the broken pool
    # closes exits 1: name the death that broke it, a signal other than SIGTERM (the kernel's
    # SIGKILL for memory) before an exit code (under load the test saw 1 named for a SIGKILL).
    codes.sort(key=lambda code: (code == -signal.SIGTERM, code > 0))
    return codes[0] if codes else None


def _worker_signals(parent: int | None = None) -> None:
    """A forked worker's signals: Ctrl-C ignored (below), and SIGTERM's default
    action back (the fork copied this process's handler, which would make the
    pool's own terminate() a KeyboardInterrupt and a traceback in the worker);
    and it ends with ``parent``, the run's process (:func:`~satsweeper.limits.die_with`)."""
    for sig in AS_INTERRUPT:  # SIGXCPU's default too: a worker past its CPU time is named so (WorkerLost)
        signal.signal(sig, signal.SIG_DFL)
    _ignore_interrupt()
    if parent is not None:
        die_with(parent)


def _ignore_interrupt() -> None:
    # Ctrl-C goes to the whole process group: the parent stops the pool and
    # keeps what finished; a worker's own KeyboardInterrupt would only print
    # a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _call(job: tuple) -> list:
    work, lo, hi = job
    return list(work(lo, hi))


class DaskRunner(Runner):
    """Chunks as Dask tasks, a few per worker in flight, collected in order."""

    per_worker = DASK_CHUNKS_PER_WORKER

    def __init__(self, backend: Backend, client):
        super().__init__(backend)
        self.client = client
        self.code = code_fingerprint()
        self.parallel = self._threads() or backend.workers

    def _threads(self) -> int:
        return sum(self.client.nthreads().values())

    def _stream(self, work, ranges):
        from distributed import KilledWorker
        pending: collections.deque = collections.deque()
        todo = iter(ranges)
        try:
            while True:
                try:
                    # A window of tasks keeps every worker busy (workers that
                    # join later are counted) without handing the scheduler a
                    # million futures at once.
                    window = 4 * max(1, self._threads())
                    for lo, hi in todo:
                        pending.append((lo, self.client.submit(_checked, self.code, work, lo, hi,
                                                               pure=False)))
                        if len(pending) >= window:
                            break
                    if not pending:
                        return
                    lo, future = pending.popleft()
                    results = list(self._result(future))
                except (CancelledError, OSError) as err:
                    # The client cancels every future the moment it loses the scheduler
                    # (a traceback and 'internal error' before); asking it how many
                    # threads the workers have may meet the loss first, as Dask's
                    # CommClosedError or, while it tries to reconnect, a plain OSError
                    # ('Timed out trying to connect'), seen on a loaded machine.
                    pending.clear()
                    why = getattr(err, "reason", None) or (_first_line(err) if str(err).strip() else "its connection closed")
                    raise ClusterLost(f"the Dask scheduler {self._where()} to stay up",
                                      f"the connection to it lost ({why}); what finished is kept") from None
                except OtherCode as err:
                    raise ClusterError(f"satsweeper's code as here ({self.code}) on every Dask worker",
                                       f"{err.args[0]} on the worker at {err.args[1]}") from None
                except KilledWorker as err:
                    raise ClusterLost("a Dask worker to finish every chunk",
                                      f"{_first_line(err)}; out of memory?") from None
                yield lo, results
        finally:
            if pending and self.client.status == "running":
                self.client.cancel([future for _, future in pending])

    def _where(self) -> str:
        return f"at {self.backend.scheduler}" if self.backend.scheduler else "of the LocalCluster"

    def _result(self, future):
        """The future's result; while no worker is attached to the scheduler the
        run would wait for ever unsaid, so it says (once a wait) what it waits for."""
        said = False
        while True:
            try:
                return _result(future, WAIT_NOTICE)
            except TimeoutError:
                if not said and not self._threads():
                    hint = (f" (start one: dask worker {self.backend.scheduler} --nthreads 1)"
                            if self.backend.scheduler else "")
                    log.warning(f"waiting for a Dask worker: none is attached to the scheduler "
                                f"{self._where()}{hint}")
                    said = True


class OtherCode(Exception):
    """Raised on a Dask worker whose satsweeper is not the client's: (its code, its address)."""


@functools.cache
def code_fingerprint() -> str:
    """A digest of this satsweeper's Python source.

    Game ``i`` is the same wherever it is played only if every machine plays it with the
    same code, and the version cannot tell: every commit is 0.1.0 (a worker two commits
    behind mixed its games into a run unsaid). Hence the source itself.

    >>> len(code_fingerprint())
    12
    """
    root = Path(__file__).parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def player_fingerprint(name: str) -> str:
    """:func:`code_fingerprint`, and for a player of your own (``MODULE:CLASS``) a digest of
    its module's file too: what a journal keeps, so that a run goes on with the code that
    began it (a resumed run once counted 1,000 games of one version of a player and 2,000
    of the next as one run, unsaid).

    >>> player_fingerprint("best") == code_fingerprint()
    True
    """
    if ":" not in name:
        return code_fingerprint()
    import importlib
    import sys
    module = importlib.import_module(name.split(":")[0])  # as the player was (the caller imported it)
    path = getattr(module, "__file__", None)
    if not path:
        return f"{code_fingerprint()}+no-file"
    # The module and what it imported from its own folder (a helper module beside it was
    # edited between a stop and a resume, unseen); not installed packages.
    root = Path(path).resolve().parent
    files = sorted({found for found in (Path(f).resolve() for f in (getattr(m, "__file__", None) for m in
                                                                       list(sys.modules.values())) if f)
                    if found.is_relative_to(root) and found.suffix == ".py"
                    and not {"site-packages", "dist-packages"} & set(found.parts)})
    digest = hashlib.sha256()
    for found in files:
        digest.update(found.relative_to(root).as_posix().encode() + b"\0" + found.read_bytes())
    return f"{code_fingerprint()}+{digest.hexdigest()[:12]}"


def _checked(code: str, work: Work, lo: int, hi: int) -> list:
    """``work(lo, hi)`` on a Dask worker, refused where satsweeper is not the client's: a
    worker that joins mid-run is checked as well as those there at the start."""
    if code_fingerprint() != code:
        from distributed import get_worker
        raise OtherCode(code_fingerprint(), get_worker().address)
    return list(work(lo, hi))


def _result(future, timeout: float | None = None):
    try:
        return future.result(timeout)
    except RuntimeError as err:
        # The scheduler unpickles every task: one whose satsweeper lacks the
        # work function (another version) refuses the whole graph.
        if "deserializ" in str(err):
            # Your own player's module missing on a worker fails the same way (Dask's words blame
            # "different environments" and broke off mid-sentence at their line's end).
            raise ClusterError("satsweeper installed alike on the scheduler, every worker and here, and a "
                               "player of your own importable on every worker (its module on their path)",
                               _first_sentence(err)) from None
        raise


@contextlib.contextmanager
def open_runner(backend: Backend) -> Iterator[Runner]:
    """A runner for ``backend``; a LocalCluster it started is closed on exit.

    Raises:
        ClusterError: Dask is not installed, or the scheduler does not answer
            within ``backend.timeout`` seconds.
    """
    if not (backend.dask or backend.scheduler):
        with terminate_as_interrupt():
            yield ProcessRunner(backend) if backend.workers > 1 else Runner(backend)
        return
    with _client(backend) as client, terminate_as_interrupt():
        # Inside the client: SIGTERM while a LocalCluster starts or stops keeps its default.
        yield DaskRunner(backend, client)


@contextlib.contextmanager
def _client(backend: Backend):
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError("dask.distributed for a cluster run: pip install 'satsweeper[cluster]'",
                           "no module named 'distributed'") from None
    if backend.scheduler:
        # quiet outside the client: closing it after a lost scheduler logs a traceback
        with _dask_quiet(), _connect(Client, backend.scheduler, backend.timeout) as client:
            _check_versions(client, backend.scheduler)
            yield client
        return
    with contextlib.ExitStack() as stack:
        try:
            with _interrupt_ignored():
                # Dask's own messages would come as tracebacks (a worker's heartbeat failing
                # while the cluster closes); what matters reaches this process as an exception.
                cluster = stack.enter_context(LocalCluster(
                    n_workers=backend.workers, threads_per_worker=1, processes=True,
                    dashboard_address=None, silence_logs=logging.CRITICAL))
                client = stack.enter_context(Client(cluster, set_as_default=False))
                # Registered with the scheduler, so a worker restarted after a crash
                # runs it too.
                client.register_plugin(_ignoring_interrupt(), name="satsweeper-ignore-interrupt")
            yield client
        finally:
            with interrupts_held():
                stack.close()


@contextlib.contextmanager
def _interrupt_ignored():
    """Ctrl-C ignored while a LocalCluster starts (1-5 s).

    Ctrl-C reaches the whole process group: mid-start it reached the workers still
    importing Dask (a traceback each) and left a half-made cluster that Python's exit spent
    10 s closing. An ignored SIGINT stays ignored in the processes spawned meanwhile (a
    handler or a blocked mask would not survive their exec), so the workers never see it;
    this process loses a Ctrl-C pressed then, and answers the next.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def interrupts_held():
    """Ctrl-C (and SIGTERM, where a run made it one) held back until the block is done,
    then raised: for work that must not be cut in two.

    While a LocalCluster stops: interrupted mid-stop, the cluster was left to Python's
    exit, which spent 10 s closing it.  While ``bench --out`` journals a chunk and counts
    it: a SIGTERM during the journal's fsync was raised between the two, and the summary
    said 24 games ran where the journal kept 32.  A handler that notes the signal, not a
    blocked mask: the kernel hands a process's SIGINT to any thread that does not block
    it (Dask's client has several), and Python then raised it in the main thread all the
    same.

    >>> with interrupts_held():
    ...     "not cut in two"
    'not cut in two'
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pressed: list[int] = []
    held = [signal.SIGINT] + [sig for sig in AS_INTERRUPT if is_terminate_interrupt(signal.getsignal(sig))]
    previous = {sig: signal.signal(sig, lambda signum, frame: pressed.append(signum)) for sig in held}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if pressed:
        raise CpuTimeUp if getattr(signal, "SIGXCPU", None) in pressed else KeyboardInterrupt


@contextlib.contextmanager
def _dask_quiet():
    """Dask's log records, often tracebacks (a lost scheduler's reconnection), kept off
    stderr: the runner turns what matters into an exception of its own."""
    handlers = [h for h in logging.getLogger("distributed").handlers if isinstance(h, logging.StreamHandler)]
    levels = [h.level for h in handlers]
    for handler in handlers:
        handler.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for handler, level in zip(handlers, levels):
            handler.setLevel(level)


def _ignoring_interrupt():
    """A Dask worker plugin: Ctrl-C reaches the LocalCluster's processes too
    (one process group), but only this process should answer it."""
    from distributed import WorkerPlugin

    class IgnoreInterrupt(WorkerPlugin):
        def setup(self, worker) -> None:
            _ignore_interrupt()

    return IgnoreInterrupt()


def _connect(client_class, address: str, timeout: float):
    """A client of the scheduler at ``address``, or ClusterError within about ``timeout`` s."""
    try:
        kind = asyncio.run(asyncio.wait_for(_identity(address, timeout), timeout + 1))
    except (OSError, ValueError, TypeError, asyncio.TimeoutError) as err:
        # Something accepted the connection and said nothing Dask understands, in time.
        got = _first_line(err) if str(err) else (f"no answer after {timeout:g} s: another service on that port, "
                                                 "or a scheduler too busy to answer?")
        raise ClusterError(f"a Dask scheduler answering at {address}", got) from None
    except Exception:  # noqa: BLE001 - whatever a stranger's bytes make of Dask's reader
        # Another service there (ssh, a web proxy) answers in its own protocol: Dask read its
        # first bytes as a frame length and asked for exabytes (MemoryError: "out of memory").
        raise ClusterError(f"a Dask scheduler at {address}",
                           "an answer in another protocol: another service on that port?") from None
    if kind != "Scheduler":
        raise ClusterError(f"a Dask scheduler at {address}", f"a {kind}")
    return client_class(address, timeout=timeout, set_as_default=False)


def _check_versions(client, address: str) -> None:
    """The scheduler and the workers must run this satsweeper, or results could differ."""
    package = "satsweeper"
    found = client.get_versions(packages=[package])
    here = found["client"]["packages"].get(package)
    there = {"the scheduler": found["scheduler"]["packages"].get(package)}
    there.update((f"worker {name}", info["packages"].get(package))
                 for name, info in found["workers"].items())
    wrong = {where: version for where, version in there.items() if version != here}
    if wrong:
        where, version = next(iter(wrong.items()))
        raise ClusterError(f"satsweeper {here} on every machine of the cluster at {address}",
                           f"{version or 'none'} on {where}")


async def _identity(address: str, timeout: float) -> str:
    # Dask's own timeout covers the TCP connection but not the handshake
    # that follows: a port that accepts and never answers would hang a
    # Client for ever.  This probe is bounded by the caller's wait_for.
    from distributed.comm import connect
    comm = await connect(address, timeout=timeout)
    try:
        await comm.write({"op": "identity"})
        return str((await comm.read()).get("type"))
    finally:
        comm.abort()


def _first_sentence(err: Exception) -> str:
    """An error's first sentence, whatever its line breaks (at most 200 characters).

    >>> _first_sentence(RuntimeError("Error during deserialization of the task graph. This frequently\\noccurs if ..."))
    'Error during deserialization of the task graph.'
    """
    text = " ".join(str(err).split())
    end = text.find(". ")
    return (text[:end + 1] if end >= 0 else text)[:200] or type(err).__name__


def _first_line(err: Exception) -> str:
    text = str(err).strip().splitlines()
    return (text[0] if text else type(err).__name__)[:200]
