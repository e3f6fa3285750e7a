"""The budget clock the tests move themselves (imported by name: ``from _budget_clock import ...``; a module named
``conftest`` is ambiguous once two directories have one)."""

import contextlib
import time
from collections.abc import Iterator

import pytest


class BudgetClock:
    """The clock of the library's budgets (:func:`frames.budget`), moved only by the test.

    A test that checks what a spent budget does (the error names the step, the result says "undecided") spends
    it with :meth:`advance` at the step it chooses, instead of a budget of a fraction of a second that a loaded
    machine spends earlier, or a fast one never: the outcome does not depend on the machine's speed. A bound on
    time itself belongs to ``benchmarks/``.
    """

    def __init__(self) -> None:
        self.now = time.monotonic()
        #: readings of the clock so far: one per checkpoint of the library under an open budget (a count of work)
        self.readings = 0
        #: seconds the clock moves at each reading (0: only :meth:`advance` moves it): the budget then counts the
        #: library's checkpoints, a measure of work that does not depend on the machine's speed
        self.tick = 0.0

    def monotonic(self) -> float:
        self.readings += 1
        self.now += self.tick
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@contextlib.contextmanager
def counted_budgets(tick: float) -> Iterator[BudgetClock]:
    """Inside the block the library's budgets run on a :class:`BudgetClock` that moves ``tick`` seconds at each
    reading: a budget (the reader's ``timeout``, a ``budget=``) is then a count of checkpoints, and a test's outcome
    does not depend on the machine's load (for a test that cannot take the ``budget_clock`` fixture: hypothesis)."""
    from frames.algebra import _budget

    clock = BudgetClock()
    clock.tick = tick
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_budget, "time", clock)
        yield clock
