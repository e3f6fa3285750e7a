"""The default results of the nonholonomic method are compact and exact: they equal the canonical forms.

``field()``, ``accelerations()`` and ``multipliers()`` hold exact trees derived in mass-matrix form (written in the
canonical form only when that is small, :func:`frames.algebra.compact`); the canonical form is on request
(``canonical=True``) and decides. These tests compare the two with the exact zero test, on random systems whose
metric and frame mix compound angles, and check that a large canonical form is not what the default returns.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import frames as fr
from frames import strategies as fst
from frames.algebra import compact, is_zero, op_count
from frames.algebra.internal import COMPACT_OPS

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def _size(exprs) -> int:
    return sum(op_count(e) for e in exprs)


def _equal_on_C(nh: fr.NonholonomicSystem) -> None:
    """Default results equal the canonical ones (accelerations compared on C, where both are valid)."""
    F, Fc = nh.field(), nh.field(canonical=True)
    assert all(is_zero(a - b) for a, b in zip(F.Gamma, Fc.Gamma, strict=True))
    on_C = nh.u_on_C
    acc, acc_c = nh.accelerations(), nh.accelerations(canonical=True)
    assert all(is_zero((a - b).xreplace(on_C)) for a, b in zip(acc, acc_c, strict=True))
    lam, lam_c = nh.multipliers(), nh.multipliers(canonical=True)
    assert all(is_zero(a - b) for a, b in zip(lam, lam_c, strict=True))


@st.composite
def compound_systems(draw):
    ch = fr.Chart("q1 q2 q3")
    F = draw(fst.frames_on(ch, compound=True))
    L = draw(fst.quadratic_lagrangians(ch, gyroscopic=draw(st.booleans())))
    return fr.NonholonomicSystem(L, F, m=2)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(compound_systems())
def test_default_results_equal_the_canonical_ones_on_random_compound_systems(nh):
    _equal_on_C(nh)


def test_a_large_result_is_held_as_trees_and_equals_the_canonical_form():
    from benchmarks.engine import random_system

    L, cons, _m, _pos, _V = random_system(3)
    nh = fr.NonholonomicSystem.from_constraints(L, cons)
    # (equality with the canonical form: the property test above, and tests/systems against KanesMethod)
    # Cramer's bound on the canonical field's terms exceeds the trees' operations: the default keeps the trees
    # without solving the canonical field
    default = nh.field()
    assert nh.computed("_canonical_field") is None and default == nh.field(canonical=False)
    assert nh.field_size_bound() > _size(default.Gamma) > COMPACT_OPS
    # the canonical field multiplies the angles out: larger than the trees indeed
    assert _size(nh.field(canonical=True).Gamma) > _size(nh.field().Gamma)
    assert _size(nh.accelerations(canonical=True)) > _size(nh.accelerations())


@pytest.mark.parametrize(
    "name",
    ["nonholonomic-particle", "knife-edge", "chaplygin-sleigh", "two-wheeled-carriage", "ball-on-rotating-table"],
)
def test_small_results_are_the_canonical_forms(name, budget_clock):
    # the clock stands still (budget_clock): the attempt at the canonical form is never cut short by the machine's load.
    # The ball's trees hold 8,122 operations, its canonical field 38: large trees are tried too (briefly)
    nh = fr.models.get(name).nonholonomic()
    assert nh.field() == nh.field(canonical=True)
    assert nh.accelerations() == nh.accelerations(canonical=True)
    assert tuple(nh.multipliers()) == tuple(nh.multipliers(canonical=True))


def test_compact_keeps_small_canonical_forms_and_refuses_large_ones():
    x, y = sp.symbols("x y")
    assert compact([x * (x + y)], lambda: [x**2 + x * y]) == [x**2 + x * y]
    big = [sp.Mul(*[(x + k) for k in range(40)], evaluate=False)] * 20  # > COMPACT_OPS operations
    assert _size(big) > COMPACT_OPS
    # a canonical form larger than the trees is refused; a smaller one is taken
    assert compact(big, lambda: [sp.expand(big[0])] * 20) is None
    assert compact(big, lambda: [x] * 20) == [x] * 20
    # not tried at all when asked so (seconds=None)
    assert compact(big, lambda: [x] * 20, None) is None
