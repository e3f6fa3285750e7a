"""The method protocol in the natural layer: Kozlov's, Chetaev's and the modified vakonomic method answer
``equations()``, ``accelerations()`` (the ``n`` natural ``q̈``), ``multipliers()`` and ``ode_system()`` like the
frame methods, and ``frames.integrate`` takes each of them."""

import numpy as np
import pytest
import sympy as sp

import frames as fr
from frames.algebra import is_zero


@pytest.fixture(scope="module")
def knife():
    mdl = fr.models.knife_edge()
    phi, _x, _y = mdl.chart.q
    _uphi, ux, uy = mdl.chart.u
    return mdl, -sp.sin(phi) * ux + sp.cos(phi) * uy


def test_chetaev_accelerations_are_the_nonholonomic_ones_for_a_linear_constraint(knife):
    mdl, V = knife
    S = fr.ChetaevSystem(mdl.lagrangian, [V])
    acc = S.accelerations(on_constraint=True)
    assert acc.shape == (3, 1)
    nh = mdl.nonholonomic()
    on_c = {mdl.chart.u[2]: sp.solve(V, mdl.chart.u[2])[0]}
    assert all(is_zero((a - b).xreplace(on_c)) for a, b in zip(acc, nh.accelerations(), strict=True))
    assert len(S.multipliers()) == 1


@pytest.mark.parametrize("kind", ["kozlov", "chetaev", "mvm"])
def test_every_natural_method_answers_the_protocol_and_integrates(knife, kind):
    mdl, V = knife
    L = mdl.lagrangian
    n = mdl.chart.dim
    if kind == "kozlov":
        method = fr.KozlovSystem(L, [V])
        extra = {"lambda": [0.0]}
    elif kind == "chetaev":
        method = fr.ChetaevSystem(L, [V])
        extra = {}
    else:
        method = fr.ModifiedVakonomic(L, constraints=[V], auxiliary=list(mdl.chart.u[:2]))
        extra = {"lambda": [0.0]}
    assert method.accelerations().shape == (n, 1)
    eqs = method.equations()
    assert len(eqs) >= n
    ode = method.ode_system()
    assert ode.states[: 2 * n] == tuple(mdl.chart.q) + tuple(mdl.chart.u)
    assert fr.ode_system(method) == ode
    tr = fr.integrate(method, (0.0, 0.2), mdl.q0, mdl.u0, params=mdl.param_values, extra0=extra or None)
    assert np.all(np.isfinite(tr.q))
    if kind != "chetaev":
        with pytest.raises(fr.errors.NoMultipliersError):
            method.multipliers()
