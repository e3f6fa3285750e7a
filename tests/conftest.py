import gc
import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# the shared helpers (_bad_input, _sysfile_fuzz_gen) sit here, beside the layer directories that use them
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _budget_clock import BudgetClock, counted_budgets

__all__ = ["BudgetClock", "counted_budgets"]

settings.register_profile(
    "default",
    deadline=None,
    derandomize=True,  # the same examples on every machine: the README's test command is reproducible
    max_examples=int(os.environ.get("FRAMES_HYPOTHESIS_EXAMPLES", "25")),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("slow", deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow])
# random examples, to explore beyond the fixed ones: FRAMES_HYPOTHESIS_PROFILE=explore
settings.register_profile(
    "explore", deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
settings.load_profile(os.environ.get("FRAMES_HYPOTHESIS_PROFILE", "default"))


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):
    """In a pytest-xdist worker: collect the garbage now, then freeze what survives, before the worker reports that it
    has finished.

    Once every worker has reported, the controller ends their gateways, and execnet sends a worker still running
    5 s later a SIGINT. pytest's own collection at exit (``gc.collect()`` in ``pytest_unconfigure``, which looks for
    unraisable exceptions) over the heap of a whole run took that long on a loaded machine: the KeyboardInterrupt
    was then raised inside hypothesis's garbage-collector callback (a ``PytestUnraisableExceptionWarning`` at the
    end of the run). Collected here, the garbage is the same and any unraisable exception is still reported, while
    the collection at exit has nothing left to scan.
    """
    if os.environ.get("PYTEST_XDIST_WORKER"):
        gc.collect()
        gc.freeze()


@pytest.fixture
def budget_clock(monkeypatch) -> BudgetClock:
    """A :class:`BudgetClock` installed as the clock of ``frames.algebra._budget`` for the test."""
    from frames.algebra import _budget

    clock = BudgetClock()
    monkeypatch.setattr(_budget, "time", clock)
    return clock
