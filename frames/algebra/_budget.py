r"""Time budgets and progress for long symbolic computations.

A budget is opened with :func:`budget` (a context manager, also used by the ``budget=`` arguments of
the library's long computations and by ``frames analyze --budget``). Inside it

* :func:`step` names the step that is running and reports it to the progress callback;
* :func:`checkpoint` raises :class:`~frames.errors.BudgetExceededError`, naming the step, once the budget is
  spent. The normal forms of this layer (:func:`~frames.algebra.canon`, :func:`~frames.algebra.tidy`,
  :func:`~frames.algebra.is_zero`) and the elimination loops call it, so every symbolic computation of
  the library is interruptible between two of its elementary operations;
* while a step runs, the checkpoints report it again to the progress callback every
  :data:`HEARTBEAT` seconds (``"<step> (running, 12 s)"``), so a long step is never silent.

The budget is cooperative: it is never raised from a signal handler or another thread, so no state is
left half-updated and no deadline is lost in a callback (a garbage-collector callback swallows an
exception). A single C or sympy call that cannot be interrupted is kept short instead: polynomial
products that would run past the deadline are refused before they start (at the slower of a fixed rate and
the rate observed), large products and conversions are split, fraction-free solves and determinants are the
library's own Bareiss elimination with a checkpoint before every entry update (not one ``DomainMatrix`` call),
and expressions are built and scanned with checkpoints. ``benchmarks/budgets.py --calls`` measures the overrun
and the largest silent gap on hostile systems. ``frames analyze`` adds a hard limit: the
analysis runs in a child process that is stopped if it overruns its budget by more than
:data:`~frames.app._hardlimit.GRACE` seconds.

Budgets nest: an inner budget cannot outlive an outer one. Without an open budget the checks cost
one context-variable look-up.

>>> import frames as fr
>>> with fr.budget(60, progress=lambda name: None) as b:
...     with fr.algebra.step("anholonomy"):
...         R = fr.models.nonholonomic_particle().frame.anholonomy
>>> b.steps
['anholonomy']
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import math
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..errors import BudgetExceededError, OptionError

__all__ = ["Budget", "attempt", "budget", "budgeted", "checkpoint", "current_budget", "publishing_steps", "step"]

_CURRENT: ContextVar[Budget | None] = ContextVar("frames_budget", default=None)

#: told the name of every step that starts (the hard limit of ``frames analyze`` publishes it to its parent)
_PUBLISH: ContextVar[Callable[[str], Any] | None] = ContextVar("frames_publish_steps", default=None)


@contextlib.contextmanager
def publishing_steps(callback: Callable[[str], Any]) -> Iterator[None]:
    """Inside the block, ``callback(name)`` is told the name of every step that starts, whatever budget is open.

    Independent of a budget's ``progress``: the hard limit of ``frames analyze`` publishes the step reached to
    its parent process with it.
    """
    token = _PUBLISH.set(callback)
    try:
        yield
    finally:
        _PUBLISH.reset(token)


@dataclass
class Budget:
    """An open time budget: its deadline, the step running, the steps seen (for progress)."""

    seconds: float
    deadline: float
    progress: Callable[[str], Any] | None = None
    current: str = "start"
    steps: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    beat: float = field(default_factory=time.monotonic)

    @property
    def remaining(self) -> float:
        """Seconds left (negative once spent)."""
        return self.deadline - time.monotonic()

    def exceeded(self) -> BudgetExceededError:
        return BudgetExceededError(
            f"time budget of {self.seconds:g} s exceeded during step {self.current!r} "
            f"(steps started: {', '.join(self.steps) or 'none'})",
            step=self.current,
        )


def current_budget() -> Budget | None:
    """The innermost open budget, or None."""
    return _CURRENT.get()


#: seconds between two reports of a step that is still running (see :func:`checkpoint`): below 5 s, so that with
#: checkpoints less than a second apart no step is silent for 5 s
HEARTBEAT = 4.0


def checkpoint() -> None:
    """Raise :class:`~frames.errors.BudgetExceededError` if the open budget is spent (cheap otherwise).

    Every :data:`HEARTBEAT` seconds it also reports the running step to the progress callback, as
    ``"<step> (running, <seconds since the budget opened> s)"``.
    """
    b = _CURRENT.get()
    if b is None:
        return
    now = time.monotonic()
    if now > b.deadline:
        raise b.exceeded()
    if now - b.beat > HEARTBEAT and b.progress is not None:
        b.beat = now
        b.progress(f"{b.current} (running, {now - b.started:.0f} s)")


@contextlib.contextmanager
def step(name: str, *, budget: float | None = None, progress: Callable[[str], Any] | None = None) -> Iterator[None]:
    """The block is the step ``name``: reported to the budget's progress callback, named by a spent budget.

    Parameters
    ----------
    name : str
        The step's name.
    budget : float, optional
        Open a new budget of this many seconds for the block (inside the open one, if any).
    progress : callable, optional
        Called with the name of every step started inside the block (a new budget of ``math.inf``
        seconds when ``budget`` is not given).

    With neither, the step runs under the budget already open, if any. This is what the
    ``budget=``/``progress=`` arguments of the library's long computations do (:func:`budgeted`).
    """
    if budget is None and progress is None:
        with _step(name):
            yield
        return
    with _budget(math.inf if budget is None else budget, progress=progress), _step(name):
        yield


@contextlib.contextmanager
def _step(name: str) -> Iterator[None]:
    """:func:`step` under the budget already open."""
    if not isinstance(name, str):
        raise OptionError(f"step: name must be a str, got {name!r}")
    publish = _PUBLISH.get()
    if publish is not None:
        publish(name)
    b = _CURRENT.get()
    if b is None:
        yield
        return
    previous = b.current
    b.current = name
    b.steps.append(name)
    b.beat = time.monotonic()
    if b.progress is not None:
        b.progress(name)
    try:
        checkpoint()  # a spent budget names the step it stopped at
        yield
    finally:
        b.current = previous


def _check_seconds(seconds: Any) -> float:
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or math.isnan(seconds) or seconds <= 0:
        raise OptionError(f"budget: seconds={seconds!r} must be a positive number of seconds (math.inf for none)")
    return float(seconds)


@contextlib.contextmanager
def budget(seconds: float | None, *, progress: Callable[[str], Any] | None = None) -> Iterator[Budget | None]:
    """Open a time budget of ``seconds`` for the block (``None``: no budget, the block just runs).

    Parameters
    ----------
    seconds : float or None
        Wall-clock seconds. Exceeding them raises :class:`~frames.errors.BudgetExceededError` naming the
        step that was running.
    progress : callable, optional
        Called with the name of every step started inside the block (see :func:`step`), and every
        :data:`HEARTBEAT` seconds with the step still running (see :func:`checkpoint`).
    """
    if progress is not None and not callable(progress):
        raise OptionError(f"budget: progress must be callable (it receives each step's name), got {progress!r}")
    if seconds is None:
        yield None
        return
    secs = _check_seconds(seconds)
    outer = _CURRENT.get()
    deadline = time.monotonic() + secs
    if outer is not None:
        deadline = min(deadline, outer.deadline)
    b = Budget(secs, deadline, progress if progress is not None else (outer.progress if outer else None))
    token = _CURRENT.set(b)
    try:
        yield b
    finally:
        _CURRENT.reset(token)


_budget = budget  # the argument ``budget`` of step shadows the function there

_T = TypeVar("_T")
_U = TypeVar("_U")


def attempt(seconds: float, fn: Callable[[], _T], otherwise: _U) -> _T | _U:
    """``fn()`` tried within a budget of ``seconds`` inside the open one; ``otherwise`` when this attempt's budget
    is spent.

    Raises
    ------
    BudgetExceededError
        When the open budget, not this attempt's, is spent.

    Examples
    --------
    >>> attempt(1.0, lambda: 2 + 2, None)
    4
    """
    outer = _CURRENT.get()
    try:
        with budget(seconds):
            return fn()
    except BudgetExceededError:
        if outer is not None and outer.remaining <= 0:
            raise
        return otherwise


_BUDGET_DOC = """
        budget : float, optional (keyword only)
            Wall-clock seconds for this call; exceeding them raises
            :class:`~frames.errors.BudgetExceededError` naming the step reached. Default: the budget already
            open (:func:`frames.budget`), if any.
        progress : callable, optional (keyword only)
            Called with the name of each step as it starts (this call is the step ``{name}``).
"""

_F = TypeVar("_F", bound=Callable[..., Any])


def budgeted(name: str) -> Callable[[_F], _F]:
    """Give a long computation the keyword-only arguments ``budget=`` and ``progress=``.

    The decorated call runs as :func:`step` ``(name, budget=budget, progress=progress)``: it is the step
    ``name`` of the open budget, under a new budget when ``budget`` is given, reporting its steps to
    ``progress`` when that is given. The two arguments are added to the signature and documented.
    """
    if not isinstance(name, str) or not name:
        raise OptionError(f"budgeted: name must be a non-empty str, got {name!r}")

    def deco(fn: _F) -> _F:
        @functools.wraps(fn)
        def wrapper(
            *args: Any, budget: float | None = None, progress: Callable[[str], Any] | None = None, **kw: Any
        ) -> Any:
            with step(name, budget=budget, progress=progress):
                return fn(*args, **kw)

        sig = inspect.signature(fn)
        extra = [
            inspect.Parameter("budget", inspect.Parameter.KEYWORD_ONLY, default=None, annotation="float | None"),
            inspect.Parameter(
                "progress", inspect.Parameter.KEYWORD_ONLY, default=None, annotation="Callable[[str], Any] | None"
            ),
        ]
        params = list(sig.parameters.values())
        cut = next((i for i, p in enumerate(params) if p.kind is inspect.Parameter.VAR_KEYWORD), len(params))
        wrapper.__signature__ = sig.replace(parameters=params[:cut] + extra + params[cut:])  # type: ignore[attr-defined]
        if fn.__doc__:
            wrapper.__doc__ = _with_budget_doc(inspect.cleandoc(fn.__doc__), name)
        return wrapper  # type: ignore[return-value]

    return deco


def _with_budget_doc(doc: str, name: str) -> str:
    """Insert the ``budget``/``progress`` entries at the end of the Parameters section (or add one)."""
    entry = inspect.cleandoc(_BUDGET_DOC.format(name=name)).splitlines()
    lines = doc.splitlines()
    if "Parameters" in [ln.strip() for ln in lines]:
        start = [ln.strip() for ln in lines].index("Parameters") + 2
        end = next(
            (i for i in range(start, len(lines) - 1) if lines[i].strip() and set(lines[i + 1].strip()) == {"-"}),
            len(lines),
        )
        while end > start and not lines[end - 1].strip():
            end -= 1
        lines[end:end] = entry
    else:
        lines += ["", "Parameters", "----------", *entry]
    return "\n".join(lines)
