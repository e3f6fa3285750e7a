"""Acceptance fuzzing of system files: hostile files are refused cleanly, valid ones round-trip (the time per case
is measured by ``benchmarks/fuzz_sysfile.py``, not asserted here).

The generators live in ``tests/_sysfile_fuzz_gen.py`` (also run over many seeded cases by the stand-alone
``benchmarks/fuzz_sysfile.py``); here hypothesis drives them through ``st.randoms()``, so a failure shrinks to
a small sequence of random choices. For every case:

* nothing is executed — the payloads would create a sentinel file, which must never appear;
* the only exception is :class:`frames.errors.SystemFileError`, and never the reader's safety net
  ("internal error");
* a file that must be refused (code payloads, non-finite values, bounds exceeded, deep nesting) is;
* a file that loads has no non-finite number, and ``loads_model(dumps_model(model)) == model``.
"""

from __future__ import annotations

import math
import os

import _sysfile_fuzz_gen as fuzz
import pytest
from _budget_clock import counted_budgets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

#: seconds the reader's budget (its ``timeout``, 1.5 s) counts per checkpoint in these tests: 1.5 s is 7,500 of the
#: library's checkpoints, whatever the machine's load (about 2 s of work on the reference machine)
TICK = 2e-4


def _run(case, tmp_dir):
    """The case's outcome, the reader's timeout counted in checkpoints (the time per case is the benchmark's,
    ``benchmarks/fuzz_sysfile.py``)."""
    with counted_budgets(TICK):
        return fuzz.run_case(case, tmp_dir, limit=math.inf)


def _check(rnd, tmp_dir) -> None:
    case = fuzz.generate(fuzz.Source(rnd))
    out = _run(case, tmp_dir)
    assert not os.path.exists(fuzz.SENTINEL), f"code was executed by {case.text!r}"
    assert out.kind in ("ok", "clean"), f"[{case.kind}] {out.kind}: {out.detail}\n{case.text!r}"


_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}


@settings(max_examples=1000, **_COMMON)
@given(st.randoms(use_true_random=False))
def test_fuzz_system_files(tmp_path_factory, rnd):
    _check(rnd, tmp_path_factory.getbasetemp())


@pytest.mark.slow
@settings(max_examples=10_000, **_COMMON)
@given(st.randoms(use_true_random=False))
def test_fuzz_system_files_slow(tmp_path_factory, rnd):
    _check(rnd, tmp_path_factory.getbasetemp())


def test_the_generators_cover_every_kind_and_both_outcomes(tmp_path):
    import random

    rnd = random.Random(12345)
    kinds: dict[str, set[str]] = {}
    for _ in range(400):
        case = fuzz.generate(fuzz.Source(rnd))
        kinds.setdefault(case.kind, set()).add(_run(case, tmp_path).kind)
    expected = {"valid", "payload", "extreme", "soup", "nonfinite", "names", "splice", "toml", "deep", "bytes"}
    assert set(kinds) == expected
    assert "ok" in kinds["valid"] and kinds["extreme"] == {"ok"}
    assert kinds["payload"] == {"clean"} and kinds["deep"] == {"clean"} and kinds["bytes"] == {"clean"}
    assert not os.path.exists(fuzz.SENTINEL)


def test_the_summary_prints_its_table(capsys):
    with counted_budgets(TICK):
        assert fuzz.summary(40, seed=3, limit=math.inf, watchdog=False) == 0
    out = capsys.readouterr().out
    for label in ("tried", "clean error", "raw exception", "hang", "silent acceptance", "executed", "corrupted"):
        assert label in out
