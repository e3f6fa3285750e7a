r"""A second process for a report's sections (``analyze(jobs=2)``, ``frames analyze``).

The sections of a report are independent: each computes what it needs (the anholonomy, the nonholonomic and
vakonomic fields …) through the report's lazily shared :class:`~frames.app._report.Analysis`. :class:`Worker` forks
the process before the first section (nothing is imported again) and the two processes share the list of sections
from its two ends: the parent takes the next one from the front, the child the next one from the back, until they
meet (the claims are two counters in shared memory under a lock). Neither side is planned in advance, so the work
balances itself on any system: on the two-wheeled carriage the child ends up with the Chaplygin, consistency and
(or) vakonomic sections, on a random dense system with fewer. What both processes need they each compute, at the
same time: more CPU, not more time. The report is the serial one, item for item:

* sympy's ``Add``, ``Mul``, ``Pow`` and applied functions are sent as their class and arguments and rebuilt
  unevaluated (:func:`dumps`), so a displayed form such as ``2*(x + y)`` is not distributed again on arrival,
  as plain pickling (which calls ``Mul(2, x + y)``) would do;
* the child runs under the parent's budget (the same deadline and steps), and its steps reach
  the progress callback, prefixed ``[2]``, whenever the parent reports a step of its own or waits; while the parent
  waits, a budget that runs out names the child's step, and a child still running :data:`GRACE` seconds after the
  deadline (inside a call that cannot be interrupted) is stopped;
* warnings raised in the child are issued again in the parent (its filters apply), and what the child writes to
  stdout or stderr is flushed before it ends;
* an exception raised by a section in the child is raised again in the parent, the child's traceback as its
  ``__cause__``; a section the child claimed but could not send (it died, or the section or its exception does
  not pickle and unpickle) is computed by the parent, which then raises the same exception itself;
* on Linux the child is killed if the parent dies.

Only where :func:`available` (Linux and the BSDs, in a process with one thread started by :mod:`threading`: a
thread started by a C extension is not seen, and a lock it holds at the fork would block the child until the
budget runs out); elsewhere, and with ``jobs=1``, everything runs in one process. Test:
``tests/app/test_parallel.py``.
"""

from __future__ import annotations

import collections
import contextlib
import io
import math
import mmap
import os
import pickle
import signal
import struct
import sys
import tempfile
import threading
import traceback
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import sympy as sp

from ..algebra import budget
from ..algebra.internal import current_budget

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows, which has no fork either
    fcntl = None  # type: ignore[assignment]

__all__ = ["Worker", "available", "dumps", "loads"]

#: seconds past the budget after which the parent stops a child that has not ended at its checkpoints
GRACE = 2.0

_HEADER = struct.Struct("<Q")
_ENDS = struct.Struct("<qq")


def available() -> bool:
    """True where a report can fork a worker process: ``os.fork`` exists, the system is not macOS (where a fork
    after system frameworks have loaded is unsafe, and CPython itself defaults to spawning), and this process runs
    one thread (a fork copies only the calling thread, so a lock held by another one would never be released in
    the child: in Jupyter, under pytest-xdist or next to a thread pool the report runs in one process)."""
    return fcntl is not None and hasattr(os, "fork") and sys.platform != "darwin" and threading.active_count() == 1


def _unevaluated(cls: Any, args: tuple[Any, ...]) -> Any:
    return cls(*args, evaluate=False)


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, sp.Add | sp.Mul | sp.Pow) or (isinstance(obj, sp.Function) and obj.args):
            return _unevaluated, (obj.func, obj.args)
        return NotImplemented


def dumps(obj: Any) -> bytes:
    """Pickle ``obj``; sympy sums, products, powers and function values are rebuilt unevaluated by :func:`loads`
    (the identical expression tree)."""
    buf = io.BytesIO()
    _Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    return buf.getvalue()


def loads(data: bytes) -> Any:
    """Inverse of :func:`dumps` (only for data this process's own child wrote)."""
    return pickle.loads(data)  # written by our own forked child, never read from a file


class _RemoteTraceback(Exception):
    """The ``__cause__`` of an exception raised in the child: its traceback there (as :mod:`concurrent.futures`)."""

    def __init__(self, tb: str) -> None:
        super().__init__(tb)
        self.tb = tb

    def __str__(self) -> str:
        return f"\nin the report's second process:\n{self.tb}"


_DONE = object()  # no task left to claim


def _die_with_parent() -> None:  # pragma: no cover - runs in the forked process
    """Linux: the child receives SIGKILL when the parent dies (``prctl(PR_SET_PDEATHSIG)``); elsewhere nothing."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError):
        pass


def _write(fd: int, kind: str, payload: Any) -> None:
    try:
        data = dumps((kind, payload))
    except Exception:  # does not pickle: not sent (the parent does a task whose result or error is missing)
        return
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


class Worker:
    """A forked child sharing the tasks ``sids`` with the parent from the other end (see the module docstring): a
    report's sections (:func:`~frames.app._report.analyze`), or the equations a format writes
    (:meth:`~frames.app._report.Report.format`).

    :meth:`run_all` returns every result: the parent does its claims (:meth:`claims`, front first) and then
    collects the child's (:meth:`result`); ``run(sid)`` returns a picklable result or raises.
    """

    def __init__(self, sids: Sequence[Any], run: Callable[[Any], Any]) -> None:
        self.sids = tuple(sids)
        self._run = run
        self._buf = bytearray()
        self._chunks: collections.deque[bytes] = collections.deque()
        self._messages: list[tuple[str, Any]] = []
        self._eof = False
        self.last_step = ""
        # the claims: (next from the front, end of the back) in memory shared with the child, under a POSIX record
        # lock on a temporary file (per process, and released by the system if the child dies holding it)
        self._ends = mmap.mmap(-1, _ENDS.size)
        self._lockfile = tempfile.TemporaryFile()
        _ENDS.pack_into(self._ends, 0, 0, len(self.sids))
        for stream in (sys.stdout, sys.stderr):  # nothing buffered is written twice
            try:
                stream.flush()
            except Exception:  # pragma: no cover - a closed or exotic stream
                pass
        parent = os.getpid()
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            os.close(r)
            self._child(w, parent)
        os.close(w)
        self.pid: int | None = pid
        self._fd = r
        self._reader = threading.Thread(target=self._drain, name="frames-report-pipe", daemon=True)
        self._reader.start()

    def _claim(self, front: bool) -> Any:
        fd = self._lockfile.fileno()
        fcntl.lockf(fd, fcntl.LOCK_EX)
        try:
            lo, hi = _ENDS.unpack_from(self._ends)
            if lo >= hi:
                return _DONE
            if front:
                _ENDS.pack_into(self._ends, 0, lo + 1, hi)
                return self.sids[lo]
            _ENDS.pack_into(self._ends, 0, lo, hi - 1)
            return self.sids[hi - 1]
        finally:
            fcntl.lockf(fd, fcntl.LOCK_UN)

    def claims(self) -> Iterator[Any]:
        """The tasks the parent does: the next unclaimed one from the front, until the two ends meet."""
        while (sid := self._claim(front=True)) is not _DONE:
            yield sid

    # ------------------------------------------------------------------ child
    def _child(self, fd: int, parent: int) -> None:  # pragma: no cover - runs in the forked process
        code = 0
        try:
            _die_with_parent()
            if os.getppid() != parent:  # the parent died before the line above
                os._exit(1)

            def send_step(name: str) -> None:
                _write(fd, "step", name)

            b = current_budget()  # the parent's, copied by the fork: the same deadline and steps
            with warnings.catch_warnings(record=True) as caught, contextlib.ExitStack() as stack:
                warnings.simplefilter("always")  # every warning goes to the parent, whose filters decide
                if b is None:
                    stack.enter_context(budget(math.inf, progress=send_step))
                else:
                    b.progress = send_step
                while (sid := self._claim(front=False)) is not _DONE:
                    result = self._run(sid)
                    for w in caught:
                        _write(fd, "warning", (w.message, w.category, w.filename, w.lineno))
                    caught.clear()
                    _write(fd, "result", (sid, result))
        except BaseException as exc:
            try:
                tb = "".join(traceback.format_exception(exc))
                _write(fd, "error", (exc, tb))
            except BaseException:
                code = 1
        finally:
            try:
                for stream in (sys.stdout, sys.stderr):
                    try:
                        stream.flush()
                    except BaseException:
                        pass
                os.close(fd)
            finally:
                os._exit(code)

    # ----------------------------------------------------------------- parent
    def _drain(self) -> None:
        """The reader thread: the pipe's bytes as they come (a child never waits for the parent to read), until its
        end. Messages are decoded by the main thread (:meth:`_parse`)."""
        while True:
            try:
                chunk = os.read(self._fd, 1 << 20)
            except OSError:  # pragma: no cover - closed under it
                break
            if not chunk:
                break
            self._chunks.append(chunk)

    def _parse(self) -> None:
        while self._chunks:
            self._buf += self._chunks.popleft()
        while len(self._buf) >= _HEADER.size:
            (n,) = _HEADER.unpack_from(self._buf)
            if len(self._buf) < _HEADER.size + n:
                break
            data = bytes(self._buf[_HEADER.size : _HEADER.size + n])
            del self._buf[: _HEADER.size + n]
            try:
                self._messages.append(loads(data))
            except Exception:  # pickled but does not unpickle here: as if unsent (the parent computes the task)
                continue

    def forward(self, progress: Callable[[str], Any] | None) -> None:
        """Pass the child's steps and warnings reported so far to ``progress`` and :mod:`warnings` (no waiting)."""
        self._parse()
        keep = []
        for kind, payload in self._messages:
            if kind == "step":
                self.last_step = payload
                if progress is not None:
                    progress(f"[2] {payload}")
            elif kind == "warning":
                message, category, filename, lineno = payload
                warnings.warn_explicit(message, category, filename, lineno)
            else:
                keep.append((kind, payload))
        self._messages = keep

    def run_all(self, progress: Callable[[str], Any] | None = None) -> dict[Any, Any]:
        """Every task's result, by task: the parent's claims done here, then the child's collected
        (:meth:`result`, which passes its steps to ``progress``)."""
        try:
            done = {sid: self._run(sid) for sid in self.claims()}
            done.update(self.result(progress))
            return done
        finally:
            self.close()

    def result(self, progress: Callable[[str], Any] | None = None) -> dict[Any, Any]:
        """Wait for the child; the results it sent, by task. Raises what a task raised in the child; the tasks it
        claimed but did not send (it died, or they or their exception do not pickle) are done here."""
        b = current_budget()
        previous = b.current if b is not None else ""
        try:
            while self._reader.is_alive():
                self._reader.join(timeout=0.1)
                self.forward(progress)
                if b is not None and self.last_step:
                    b.current = f"[2] {self.last_step}"  # a budget running out now names the child's step
                if b is not None and b.remaining < -GRACE:  # the child missed its checkpoints: stopped (close)
                    raise b.exceeded()
            self._eof = True
            self.forward(progress)
        finally:
            if b is not None:
                b.current = previous
            self.close()
        got: dict[Any, Any] = {}
        for kind, payload in self._messages:
            if kind == "error":
                exc, tb = payload
                exc.__cause__ = _RemoteTraceback(tb)
                raise exc
            if kind == "result":
                got[payload[0]] = payload[1]
        _lo, hi = _ENDS.unpack_from(self._ends)
        for sid in self.sids[hi:]:  # the child's claims, from the back
            if sid not in got:
                got[sid] = self._run(sid)
        return got

    def close(self) -> None:
        """Stop the child (if still running), reap it and end the reader thread."""
        if self.pid is None:
            return
        try:
            if not self._eof:  # stopped early (an error or an interrupt in the parent): the child's work is not wanted
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)  # after the end of the pipe, the child is exiting
        except (ChildProcessError, ProcessLookupError):  # pragma: no cover - already gone
            pass
        self.pid = None
        self._reader.join()  # the pipe has ended: the child is gone
        os.close(self._fd)
        self._lockfile.close()
