"""The one progress reporter of the library's long integrations: the bar (:mod:`tqdm`) of ``frames simulate``,
batches and ``integrate(progress=True)``, and the heartbeat lines of the work before the first step (code
generation), at least one every :data:`HEARTBEAT` seconds."""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any, TextIO

__all__ = ["HEARTBEAT", "ProgressBar", "heartbeat", "reporting"]

#: Seconds between two heartbeat lines of a long step (code generation) while a run reports its progress.
HEARTBEAT = 5.0

#: Where the heartbeat lines of the current run go (None: the run does not report).
_REPORTER: ContextVar[Callable[[str], None] | None] = ContextVar("frames_progress_reporter", default=None)


@contextlib.contextmanager
def reporting(report: Callable[[str], None] | None) -> Iterator[None]:
    """Within the block, :func:`heartbeat` lines go to ``report`` (None: nowhere)."""
    token = _REPORTER.set(report)
    try:
        yield
    finally:
        _REPORTER.reset(token)


@contextlib.contextmanager
def heartbeat(label: str, every: float | None = None) -> Iterator[None]:
    """A line ``"<label>: still running after N s"`` every ``every`` seconds while the block runs, to the reporter
    of the current run (:func:`reporting`); nothing when the run does not report or the block is quick."""
    report = _REPORTER.get()
    if report is None:
        yield
        return
    period = HEARTBEAT if every is None else every
    done = threading.Event()
    start = time.monotonic()

    def beat() -> None:
        while not done.wait(period):
            report(f"{label}: still running after {time.monotonic() - start:.0f} s")

    thread = threading.Thread(target=beat, name="frames-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


#: the display of a bar in model time
_TIME_FORMAT = "{l_bar}{bar}| t = {n:g}/{total:g} [{elapsed}<{remaining}]"


class ProgressBar:
    """A :mod:`tqdm` bar over ``total`` (model time, or members of a batch); a context manager; a no-op when off.

    Parameters
    ----------
    total : float
        The length of the bar: model time (``unit="t"``) or a count.
    enabled : bool or None, default None
        ``True`` always, ``None`` only when the stream is a terminal (tqdm's ``disable=None``), ``False``
        never (tqdm is then not imported).
    desc : str, optional
        The bar's label.
    unit : str, default "t"
        ``"t"``: the bar runs in model time and :meth:`update` takes the time reached; another unit counts
        (:meth:`advance`).
    stream : text stream, optional
        Where the bar is drawn (default stderr).
    start : float, default 0
        The model time at which the bar starts (``update(t)`` moves it to ``|t − start|``).

    On a clean exit of the ``with`` block the bar is completed; :meth:`close` closes it as it is.

    >>> import io
    >>> s = io.StringIO(); bar = ProgressBar(10.0, stream=s, enabled=True); bar.update(5.0); bar.close()
    >>> "5/10" in s.getvalue() and "50%" in s.getvalue()
    True
    """

    def __init__(
        self,
        total: float,
        *,
        enabled: bool | None = None,
        desc: str | None = None,
        unit: str = "t",
        stream: TextIO | None = None,
        start: float = 0.0,
    ) -> None:
        self.total = total if total else 1.0
        self.unit, self.start = unit, start
        self.bar: Any = None
        if enabled is not False:
            from tqdm import tqdm  # the optional dependency, imported only when a bar may be shown

            bar = tqdm(
                total=self.total,
                desc=desc,
                unit=unit,
                file=stream if stream is not None else sys.stderr,
                disable=None if enabled is None else False,
                bar_format=_TIME_FORMAT if unit == "t" else None,
                leave=True,
            )
            self.bar = None if bar.disable else bar

    @classmethod
    def for_batch(cls, progress: bool | None, in_time: bool, nb: int, t0: float, t1: float) -> ProgressBar:
        """The bar of a batch integration: in model time over ``[t0, t1]`` (the lock-step NumPy paths), else
        counting the ``nb`` members."""
        if in_time:
            return cls(abs(t1 - t0), enabled=progress, desc="integrate", start=t0)
        return cls(nb, enabled=progress, desc="integrate", unit="member")

    @classmethod
    def for_run(cls, progress: Any, in_time: bool, nb: int, t0: float, t1: float) -> ProgressBar:
        """The bar of a run: ``progress`` itself when it is a bar (the caller's, e.g. ``frames simulate``'s: moved
        here, closed by its owner), else :meth:`for_batch`."""
        if isinstance(progress, ProgressBar):
            lent = object.__new__(_Lent)
            lent.__dict__.update(progress.__dict__)
            return lent
        return cls.for_batch(progress, in_time, nb, t0, t1)

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            if exc[0] is None and self.bar.n < self.bar.total:
                self.bar.update(self.bar.total - self.bar.n)
            self.bar.close()

    def update(self, done: float) -> None:
        """The model time ``done`` is reached."""
        if self.bar is not None:
            pos = min(max(abs(float(done) - self.start), 0.0), float(self.total))
            self.bar.update(pos - self.bar.n)

    def advance(self, k: int = 1) -> None:
        """``k`` more members are done."""
        if self.bar is not None:
            self.bar.update(k)

    def write(self, line: str) -> None:
        """A line above the bar (a heartbeat); nothing when the bar is not shown."""
        if self.bar is not None:
            from tqdm import tqdm

            tqdm.write(line, file=self.bar.fp)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()

    @property
    def on_step(self) -> Callable[[float], None] | None:
        """:meth:`update` for a bar in model time that is shown, else None (the kernels' ``on_step``)."""
        return self.update if self.bar is not None and self.unit == "t" else None


class _Lent(ProgressBar):
    """A caller's bar driven by a run: the ``with`` block neither completes nor closes it."""

    def __exit__(self, *exc: object) -> None:
        return None
