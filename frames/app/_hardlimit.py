r"""A hard time limit for ``frames analyze``: the analysis in a child process, stopped if it overruns.

The library's budgets are cooperative (:func:`frames.budget`): a computation stops at its next checkpoint,
never inside a signal handler, so no state is left half-updated. A single call that cannot be interrupted
(one sympy or C call on a hostile expression) would still keep a process past its deadline. The console
script therefore runs the analysis in a forked child (:func:`supervise`) and waits for it: the child ends
by itself at its checkpoints (the budget's error, exit 3) or is killed :data:`GRACE` seconds after the
deadline, and the parent then reports the step that was running, which the child publishes as it starts
each one (in shared memory). Output goes straight from the child to the terminal.

Only in the console script, where :func:`available` (a process that can fork: Linux and the BSDs, one
thread); ``frames.app.main`` called in-process keeps the cooperative budget alone. Test:
``tests/algebra/test_budget.py``.
"""

from __future__ import annotations

import math
import mmap
import os
import signal
import sys
import time
from collections.abc import Callable

from ..algebra.internal import publishing_steps
from ._parallel import _die_with_parent, available

__all__ = ["GRACE", "available", "supervise"]

#: seconds after the deadline at which a child that has not stopped at its checkpoints is killed
GRACE = 2.0

_STEP_BYTES = 1024


def supervise(run: Callable[[], int], seconds: float, *, grace: float = GRACE) -> int:
    """Exit status of ``run()`` executed in a forked child, killed ``seconds + grace`` seconds from now.

    Parameters
    ----------
    run : callable
        The work; returns the process's exit status. It runs in the child, whose standard streams are
        the parent's.
    seconds : float
        The budget of the work (``math.inf``: no hard limit; ``run`` is then called in this process).
    grace : float
        Seconds allowed past the budget for the child to stop at a checkpoint.

    Returns
    -------
    int
        The child's exit status, or 3 (the budget's status) when it was killed, after a message on
        stderr naming the step that was running.
    """
    if math.isinf(seconds) or not available():
        return run()
    shared = mmap.mmap(-1, _STEP_BYTES)
    sys.stdout.flush()
    sys.stderr.flush()
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the forked process
        code = 1
        try:
            _die_with_parent()
            with publishing_steps(lambda name: _write_step(shared, name)):
                code = run()
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    code = code or 1
            os._exit(code)
    return _wait(pid, start + seconds + grace, seconds, grace, shared)


def _write_step(shared: mmap.mmap, name: str) -> None:
    data = name.encode("utf-8", "replace")[: _STEP_BYTES - 1]
    shared[: len(data) + 1] = data + b"\0"


def _wait(pid: int, deadline: float, seconds: float, grace: float, shared: mmap.mmap) -> int:
    while True:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return os.waitstatus_to_exitcode(status) if status & 0x7F == 0 else 1
            if time.monotonic() > deadline:
                break
            time.sleep(0.02)
        except KeyboardInterrupt:  # the child received it too: it reports the interruption and ends
            continue
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ChildProcessError, ProcessLookupError):  # pragma: no cover - ended meanwhile
        pass
    step = bytes(shared[:]).split(b"\0", 1)[0].decode("utf-8", "replace") or "start"
    print(
        f"frames: time budget of {seconds:g} s exceeded during step {step!r}: stopped {grace:g} s after the "
        "deadline, inside a computation that could not be interrupted (raise it with --budget)",
        file=sys.stderr,
        flush=True,
    )
    return 3
