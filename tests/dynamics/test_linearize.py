"""Linearisation on C about an equilibrium or a steady motion (``frames.linearize``), exact in the parameters."""

import numpy as np
import pytest
import sympy as sp

import frames as fr
from frames.algebra import is_zero


def _sleigh_at(V):
    mdl = fr.models.chaplygin_sleigh()
    th, x, y = mdl.chart.q
    ut, ux, uy = mdl.chart.u
    return mdl, {th: 0, x: 0, y: 0, ut: 0, ux: V, uy: 0}


def test_sleigh_straight_motion_has_the_eigenvalue_minus_aVm_over_I_plus_a2m():
    """The Chaplygin sleigh moving straight at speed V: the ignorable θ, x, y are removed and the turning rate
    decays with the eigenvalue −aVm/(I + a²m), exactly; the forward speed gives 0 (the energy)."""
    V = sp.Symbol("V")
    mdl, at = _sleigh_at(V)
    lin = fr.linearize(mdl.nonholonomic(), at)
    m, I, a = (mdl.params[k] for k in ("m", "I", "a"))
    assert set(lin.removed) == set(mdl.chart.q)
    eig = lin.A.eigenvals()
    assert len(eig) == 2 and 0 in eig
    assert any(is_zero(e + a * V * m / (I + a**2 * m)) for e in eig)
    vals = {"m": 1.0, "I": 0.5, "a": 0.3}
    assert lin.stability(vals | {V: 2.0}) == "marginal"  # the energy direction: no asymptotic stability
    assert lin.stability(vals | {V: -2.0}) == "unstable"  # backwards: the sleigh turns round
    ev = np.sort(np.real(lin.eigenvalues(vals | {V: 2.0})))
    np.testing.assert_allclose(ev, [-0.3 * 2.0 * 1.0 / (0.5 + 0.09), 0.0], atol=1e-14)


def test_linearize_refuses_a_point_that_is_not_steady_or_not_on_C():
    mdl, at = _sleigh_at(1)
    nh = mdl.nonholonomic()
    ut, _ux, uy = mdl.chart.u
    with pytest.raises(fr.errors.ConstraintError, match="not in D"):
        fr.linearize(nh, at | {uy: 1})
    with pytest.raises(fr.errors.StateError, match="not an equilibrium or a steady motion"):
        fr.linearize(nh, at | {ut: 1})  # turning while moving: the forward speed changes


def test_linearize_agrees_with_a_finite_difference_of_the_field():
    """``A`` is the Jacobian of the reduced right-hand sides: a central difference of the field agrees."""
    mdl = fr.models.knife_edge()
    nh = mdl.nonholonomic()
    phi, x, y = mdl.chart.q
    up, ux, uy = mdl.chart.u
    lin = fr.linearize(nh, {phi: 0, x: 0, y: 0, up: 0, ux: 0, uy: 0})
    G = nh.field().Gamma
    vals = dict(mdl.param_values)
    f = [*(sp.Add(*[nh.frame.v[al] * nh.frame.matrix[al, j] for al in range(nh.m)]) for j in range(3)), *G[: nh.m]]
    rows = [f[list(mdl.chart.q).index(q)] for q in lin.states if q in mdl.chart.q] + list(f[3:])
    h = 1e-6
    num = np.zeros((len(lin.states), len(lin.states)))
    for j, s in enumerate(lin.states):
        for i, e in enumerate(rows):
            plus = {x_: (h if x_ == s else 0) for x_ in lin.states} | vals
            minus = {x_: (-h if x_ == s else 0) for x_ in lin.states} | vals
            num[i, j] = (float(e.subs(plus)) - float(e.subs(minus))) / (2 * h)
    np.testing.assert_allclose(np.array(lin.A.subs(vals).tolist(), dtype=float), num, atol=1e-8)


def test_the_sweep_finds_where_the_sleigh_changes_stability():
    """The turning eigenvalue −aVm/(I + a²m) crosses zero at V = 0: the sweep's critical value, to 1e-12."""
    V = sp.Symbol("V")
    mdl, at = _sleigh_at(V)
    lin = fr.linearize(mdl.nonholonomic(), at)
    vals = {"m": 1.0, "I": 0.5, "a": 0.3}
    speeds = np.linspace(-1.0, 1.3, 24)
    eig = lin.sweep(V, speeds, vals)
    assert eig.shape == (24, 2)
    np.testing.assert_allclose(np.real(eig[:, 0]).min(), -0.3 * 1.3 / 0.59, rtol=1e-12)
    (crit,) = lin.critical_values(V, speeds, vals)
    assert abs(crit) < 1e-12
