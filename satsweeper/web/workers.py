"""Child processes that answer queries, each stopped when its time runs out.

A query can spend seconds inside a SAT solver or a counter written in C,
where no signal reaches it; the only sure way to keep a time limit is to
run it in another process and kill that process.  Forking one per request
(as the CLI's ``--timeout`` does) costs about 20 ms on this machine, as
much as the answer itself; so the server keeps a few workers forked in
advance, sends each query to an idle one, and replaces a worker only when
it had to be killed.

>>> workers = Workers(1)
>>> workers.run(5.0, pow, 2, 10)
1024
>>> workers.close()
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import queue
import signal
import threading
import time
from typing import Callable

from ..limits import bound_memory, die_with


class TimeUp(Exception):
    """The query did not finish within its time (waiting for a worker included)."""


class Busy(TimeUp):
    """The time ran out before any worker was free: every one answered other queries."""


class Abandoned(Exception):
    """Whoever asked no longer waits (the client went away): the query was stopped."""


# How often a running query asks whether its client still waits.
POLL = 0.5


class Workers:
    """``size`` worker processes (forked on first use) and the queue of idle ones.

    Functions and arguments go to the worker pickled: module-level
    functions and plain values.
    """

    def __init__(self, size: int = 2, memory: int | None = None):
        self.size = size
        self.memory = memory  # bytes a worker may take beyond what it is forked with (None: no bound)
        self._idle: queue.Queue = queue.Queue()
        self._started = 0
        self._lock = threading.Lock()

    def run(self, seconds: float, function: Callable, *args,
            cancelled: Callable[[], bool] | None = None, since: float | None = None):
        """``function(*args)`` in a worker; raises :class:`TimeUp` once ``seconds``
        have passed, counted from ``since`` (a ``time.monotonic()``: when the request
        came) or else from the call (time spent waiting for an idle worker counts:
        the caller waits for an answer, not for a worker; :class:`Busy` if no worker
        was free in time), and :class:`Abandoned` when ``cancelled()`` (asked every
        :data:`POLL` seconds) turns true; either way the worker is killed and
        replaced, so that an abandoned query holds no worker.  Otherwise the value
        or the worker's exception."""
        deadline = (time.monotonic() if since is None else since) + seconds
        worker = self._take(deadline, cancelled)
        if time.monotonic() >= deadline:  # its time spent before it came here (reading the board): not sent
            self._give_back(worker)
            raise TimeUp()
        try:
            worker.send((function, args))
            kind = _wait(worker.wait, deadline, cancelled)
            kind, value = worker.receive() if kind == "ready" else (kind, None)
        except (EOFError, OSError):
            kind, value = "ended", None
        except BaseException:  # Ctrl-C, an argument that cannot be pickled: start afresh
            worker.kill()
            self._give_back(worker)
            raise
        # Out of memory at its bound, a worker may keep what it grew to: a fresh one is forked.
        if kind in ("time", "ended", "cancelled") or (kind == "error" and isinstance(value, MemoryError)):
            worker.kill()
        self._give_back(worker)
        if kind == "time":
            raise TimeUp()
        if kind == "cancelled":
            raise Abandoned()
        if kind == "ended":
            raise MemoryError("the worker process ended (out of memory?)")
        if kind == "error":
            raise value
        return value

    def start(self, warm: Callable | None = None) -> None:
        """Fork every worker now (from the main thread, before requests come),
        and run ``warm()`` in each so that its imports are done."""
        with self._lock:
            fresh = [_Worker(self.memory) for _ in range(self.size - self._started)]
            self._started = self.size
        for worker in fresh:
            self._idle.put(worker)
        if warm is not None:
            taken = [self._idle.get() for _ in range(len(fresh))]
            for worker in taken:
                worker.send((warm, ()))
            for worker in taken:
                worker.receive()
                self._idle.put(worker)

    def close(self) -> None:
        """Stop every worker (they are daemons: they also end with the server)."""
        while True:
            try:
                self._idle.get_nowait().kill()
            except queue.Empty:
                return

    def _take(self, deadline: float, cancelled: Callable[[], bool] | None) -> "_Worker":
        """An idle worker (or a new one, up to ``size``); :class:`Busy` if none frees by ``deadline``."""
        with self._lock:
            if self._idle.empty() and self._started < self.size:
                self._started += 1
                return _Worker(self.memory)
        try:
            return self._idle.get_nowait()  # one is idle: not busy, however late it is
        except queue.Empty:
            pass
        taken: list = []

        def wait(seconds: float) -> bool:
            try:
                taken.append(self._idle.get(timeout=seconds))
                return True
            except queue.Empty:
                return False
        kind = _wait(wait, deadline, cancelled)
        if kind == "time":
            raise Busy()
        if kind == "cancelled":
            raise Abandoned()
        return taken[0]

    def _give_back(self, worker: "_Worker") -> None:
        self._idle.put(worker if worker.alive() else _Worker(self.memory))


def _wait(wait: Callable[[float], bool], deadline: float,
          cancelled: Callable[[], bool] | None) -> str:
    """``wait(seconds)`` (true once ready) until ``deadline``, in slices of
    :data:`POLL` seconds when there is ``cancelled()`` to ask between them:
    "ready", "time" or "cancelled"."""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return "time"
        if wait(left if cancelled is None else min(left, POLL)):
            return "ready"
        if cancelled is not None and cancelled():
            return "cancelled"


class _Spawner:
    """The one thread that forks the workers, for the server's whole life: a worker ends when
    the thread that forked it ends (Linux's parent-death signal belongs to the thread), and a
    worker replaced from a route's thread died with that thread, idle or not."""

    _thread: threading.Thread | None = None
    _requests: queue.Queue = queue.Queue()
    _lock = threading.Lock()

    @classmethod
    def fork(cls, memory: int | None) -> tuple:
        with cls._lock:
            if cls._thread is None or not cls._thread.is_alive():
                cls._thread = threading.Thread(target=cls._loop, name="satsweeper-workers", daemon=True)
                cls._thread.start()
        reply: queue.Queue = queue.Queue(1)
        cls._requests.put((memory, reply))
        kind, value = reply.get()
        if kind == "error":
            raise value
        return value

    @classmethod
    def _loop(cls) -> None:
        context = multiprocessing.get_context("fork")
        while True:
            memory, reply = cls._requests.get()
            try:
                pipe, child = context.Pipe()
                process = context.Process(target=_serve, args=(child, os.getpid(), memory), daemon=True)
                process.start()
                child.close()
                reply.put(("value", (pipe, process)))
            except BaseException as err:  # noqa: BLE001 - said to the caller (a full process table, say)
                reply.put(("error", err))


class _Worker:
    """One forked process and the pipe to it."""

    def __init__(self, memory: int | None = None):
        self._pipe, self._process = _Spawner.fork(memory)

    def send(self, message) -> None:
        self._pipe.send(message)

    def wait(self, seconds: float) -> bool:
        return self._pipe.poll(seconds)

    def receive(self):
        return self._pipe.recv()

    def alive(self) -> bool:
        return self._process.is_alive()

    def kill(self) -> None:
        if self._process.is_alive():
            self._process.kill()
        self._process.join()
        self._pipe.close()


def _serve(pipe, server: int, memory: int | None = None) -> None:
    """In the worker: answer (function, args) messages until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server answers Ctrl-C
    # uvicorn's SIGTERM handler, inherited, kept a worker alive when the server stopped it (a
    # second Ctrl-C then hung the server for good, joining workers that would not end).
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with(server)  # killed with kill -9, the server left its workers running, one holding its port
    _close_network_sockets()
    if memory:
        bound_memory(memory)  # past it a query's allocation fails: MemoryError, 413, a fresh worker
    while True:
        try:
            function, args = pipe.recv()
        except (EOFError, OSError):
            return
        try:
            message = ("value", function(*args))
        except Exception as err:  # noqa: BLE001 - every failure goes back to the server
            message = ("error", _portable(err))
        try:
            pipe.send(message)
        except Exception as err:  # noqa: BLE001 - an answer that cannot be pickled
            pipe.send(("error", RuntimeError(f"{type(err).__name__}: {err}")))


def _close_network_sockets() -> None:
    """Close the server's network sockets, which a forked worker inherits: a listening one
    left behind kept the port from the next server, and a client's connection kept open
    here never closed for the client (a query's answer sent with ``Connection: close`` left
    the socket in CLOSE-WAIT, held by the worker forked after it, for as long as that lived).
    The pipe to the server (a Unix socket) stays."""
    import socket
    try:
        descriptors = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:  # no /proc: the workers end with the server (limits.die_with)
        return
    for fd in descriptors:
        try:
            sock = socket.socket(fileno=fd)
        except OSError:  # not a socket
            continue
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.close()
        else:
            sock.detach()  # the pipe to the server, and any other: left as it was


def _portable(err: Exception) -> Exception:
    """``err`` if it survives pickling (some exceptions cannot be rebuilt), else its words."""
    try:
        pickle.loads(pickle.dumps(err))
        return err
    except Exception:  # noqa: BLE001
        return RuntimeError(f"{type(err).__name__}: {err}")
