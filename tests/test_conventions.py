"""One name for one idea: the total derivative, the restriction to C, the meaning of ``m``."""

from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import frames as fr
from frames import strategies as fst
from frames.algebra import is_zero


def test_total_derivative_all_terms():
    """``ḟ = q̇·∂_q f + q̈·∂_u f + ẋ ∂_x f + ∂_t f``, each term switchable."""
    t = sp.Symbol("t")
    ch = fr.Chart("x y", time=t)
    x, y = ch.q
    ux, uy = ch.u
    lam, lamdot, a1, a2, w1, w2 = sp.symbols("lam lamdot a1 a2 w1 w2")
    f = x**2 * uy + sp.sin(y) * ux * t + lam * x
    full = ch.total_derivative(f, accelerations=(a1, a2), extra={lam: lamdot})
    expected = (
        ux * sp.diff(f, x) + uy * sp.diff(f, y) + a1 * sp.diff(f, ux) + a2 * sp.diff(f, uy) + lamdot * x + sp.diff(f, t)
    )
    assert is_zero(full - expected)
    assert is_zero(ch.total_derivative(f) - (ux * sp.diff(f, x) + uy * sp.diff(f, y) + sp.diff(f, t)))
    assert is_zero(ch.total_derivative(f, time=False) - (ux * sp.diff(f, x) + uy * sp.diff(f, y)))
    along = ch.total_derivative(f, velocities=(w1, w2), time=False)
    assert is_zero(along - (w1 * sp.diff(f, x) + w2 * sp.diff(f, y)))


@settings(max_examples=10, deadline=None)
@given(st.data())
def test_complete_lift_fibre_is_the_autonomous_total_derivative(data):
    """``Z^C = Z^i ∂_{q^i} + u^j ∂_j Z^i ∂_{u^i}``: its fibre part is ``Chart.total_derivative(Z^i, time=False)``."""
    ch = data.draw(fst.charts(min_dim=1, max_dim=3))
    Z = data.draw(fst.vector_fields(ch))
    ZC = Z.complete_lift()
    for i in range(ch.dim):
        assert is_zero(ZC.fibre[i] - ch.total_derivative(Z.components[i], time=False))


def test_frame_on_constraint_is_the_one_restriction_to_C():
    mdl = fr.models.nonholonomic_particle()
    F = mdl.frame
    assert F.on_constraint(2) == {F.v[2]: 0}
    assert F.on_constraint(3) == {}
    nh = mdl.nonholonomic()
    assert nh.on_C == F.on_constraint(mdl.m)
    assert nh.field().on_constraint == F.on_constraint(mdl.m)
    for bad in (4, -1, True, 1.5):
        with pytest.raises(fr.errors.InvalidExpressionError, match="on_constraint"):
            F.on_constraint(bad)


def test_mvm_counts_constraints_with_k():
    """In the MVM the paper's m (number of constraints) is ``k``; ``m`` means rank D everywhere else (no alias)."""
    mdl = fr.models.nonholonomic_particle()
    ch = mdl.chart
    q1, _q2, _q3 = ch.q
    u1, u2, u3 = ch.u
    mvm = fr.ModifiedVakonomic(mdl.lagrangian, constraints=[q1 * u2 + u3], auxiliary=[u1, u2])
    assert mvm.k == 1 == mdl.constraints.k == mdl.n - mdl.m
    assert not hasattr(mvm, "m")


def test_a_field_is_integrated_by_the_one_door():
    """The geometry layer does not reach numerics: no ``SecondOrderField.integrate``, ``frames.integrate(field)``."""
    assert not hasattr(fr.SecondOrderField, "integrate")
    mdl = fr.models.knife_edge()
    tr = fr.integrate(mdl.nonholonomic().field(), (0.0, 0.5), mdl.q0, mdl.u0, params=mdl.param_values)
    assert isinstance(tr, fr.results.Trajectory) and tr.t[-1] == pytest.approx(0.5)
