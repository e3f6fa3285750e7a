"""A stiff system under an explicit method is refused within seconds with a hint to use an implicit method
(:mod:`frames.numeric._stiff`); non-stiff runs and honest budget overruns are not (a finite-time blow-up is
not either: ``tests/numeric/test_integrate.py::test_solver_failure_is_reported_not_truncated``)."""

import numpy as np
import pytest
import sympy as sp

import frames as fr
from frames.numeric._stiff import STABILITY_BOUNDARY, spectral_radius


def _knife(forces):
    """The knife edge with the parameters ``c`` (damping) and ``k`` (spring) and forces built from them."""
    mdl = fr.models.knife_edge()
    c, k = sp.symbols("c k", positive=True)
    L = fr.Lagrangian(mdl.chart, mdl.lagrangian.expr, params=[c, k])
    F = fr.Frame([fr.VectorField(L.chart, X.components) for X in mdl.frame.fields], v=mdl.frame.v)
    nh = fr.NonholonomicSystem(L, F, mdl.m, forces=forces(L.chart, c, k))
    return mdl, nh, c, k


def _damped_spring(ch, c, k):
    """Rayleigh damping ``−c u`` on every coordinate and a spring ``−k (x, y)`` towards the origin."""
    _, x, y = ch.q
    u_phi, u_x, u_y = ch.u
    return [-c * u_phi, -k * x - c * u_x, -k * y - c * u_y]


@pytest.mark.parametrize("method", ["RK45", "RK23", "DOP853"])
def test_a_stiff_damped_oscillator_is_refused_within_seconds_with_the_hint(method):
    mdl, nh, c, k = _knife(_damped_spring)
    params = {**mdl.param_values, c: 1e12, k: 1.0}
    # refused at the stiffness check (err.t < 1e-6 below), not at the end of the budget (600 s, or 10⁶ steps)
    with pytest.raises(fr.errors.StiffnessError, match="method='Radau', 'BDF' or 'LSODA'") as info:
        fr.integrate(nh, (0, 10), [0.0, 0.1, 0.0], [0.5, 1.0, 0.0], params=params, method=method)
    err = info.value
    assert isinstance(err, fr.errors.IntegrationBudgetError) and err.step == "stiffness"
    assert 0 < err.t < 1e-6 and err.state is not None and err.state.shape == (5,)
    beta = STABILITY_BOUNDARY[method]
    assert f"boundary {beta:g}" in str(err) and "ρ ≈ 5e+12" in str(err)  # ρ = c/m + … = c (1/m + 1/J)/… ≈ 5e12
    # the hint is right: an implicit method runs it
    tr = fr.integrate(nh, (0, 10), [0.0, 0.1, 0.0], [0.5, 1.0, 0.0], params=params, method="Radau")
    assert tr.status == 0 and tr.t[-1] == 10


def test_a_stiff_member_stops_a_numpy_batch_and_is_named():
    mdl, nh, c, k = _knife(lambda ch, c, k: [-c * u for u in ch.u])
    params = {**mdl.param_values, c: np.array([1.0, 1e12, 1.0]), k: 0.0}
    q0 = [[0.0, 0.0, 0.0]] * 3
    u0 = [[0.5, 1.0, 0.0]] * 3
    with pytest.raises(fr.errors.StiffnessError, match=r"batch RK45: .*batch member 1.*method='Radau'"):
        fr.integrate(nh, (0, 10), q0, u0, params=params, progress=False)
    # without the stiff member the batch runs
    ok = fr.integrate(nh, (0, 10), q0[:2], u0[:2], params={**params, c: np.array([1.0, 2.0])}, progress=False)
    assert ok.q.shape == (2, 101, 3)


def test_a_budget_overrun_without_stiffness_is_a_plain_budget_error():
    """A long span of a smooth motion: the budget runs out, but the step is held by accuracy, not by stability."""
    mdl = fr.models.knife_edge()
    with pytest.raises(fr.errors.IntegrationBudgetError, match="max_steps = 400") as info:
        fr.integrate(mdl, (0, 1e5), mdl.q0, mdl.u0, max_steps=400)
    assert not isinstance(info.value, fr.errors.StiffnessError)


def test_spectral_radius_of_real_and_oscillatory_linear_systems():
    A = np.array([[-1.0, 0.0, 0.0], [0.0, -1e6, 0.0], [0.0, 0.0, -3.0]])
    assert spectral_radius(lambda t, y: A @ y, 0.0, np.array([1.0, 2.0, 3.0])) == pytest.approx(1e6, rel=1e-3)
    w = 1e5
    B = np.array([[0.0, w, 0.0], [-w, 0.0, 0.0], [0.0, 0.0, -1.0]])
    assert spectral_radius(lambda t, y: B @ y, 0.0, np.ones(3)) == pytest.approx(w, rel=1e-2)
    # a batch (n, B): one estimate per column
    Y = np.ones((3, 2))
    rho = spectral_radius(lambda t, y: np.stack([A @ y[:, 0], B @ y[:, 1]], axis=1), 0.0, Y)
    assert rho.shape == (2,) and rho == pytest.approx([1e6, w], rel=1e-2)


def test_numba_kernel_stops_a_collapsed_step_with_the_hint():
    pytest.importorskip("numba")
    mdl, nh, c, k = _knife(lambda ch, c, k: [-c * u for u in ch.u])
    params = {**mdl.param_values, c: 1e12, k: 0.0}
    with pytest.raises(fr.errors.StiffnessError, match=r"step size has collapsed.*method='Radau'"):
        fr.integrate(nh, (0, 10), mdl.q0, mdl.u0, params=params, backend="numba")


def _undamped_spring(ch, c, k):
    """A spring ``−k (x, y)`` towards the origin, no damping: eigenvalues ``±i √(k/m)``."""
    _, x, y = ch.q
    return [0, -k * x, -k * y]


@pytest.mark.parametrize("method", ["RK45", "DOP853", "Radau"])
def test_an_undamped_stiff_spring_is_refused_early_by_its_spectrum(method):
    """k = 1e12 without damping: no step rejection, no stability boundary reached (the step is set by accuracy
    on the fast oscillation), yet the span needs ~1e9 steps: refused from ρ·span, implicit methods too."""
    mdl, nh, c, k = _knife(_undamped_spring)
    params = {**mdl.param_values, c: 0.0, k: 1e12}
    with pytest.raises(fr.errors.StiffnessError, match=r"of 10 after .*fastest time scale") as info:
        fr.integrate(nh, (0, 10), [0.0, 0.1, 0.0], [0.5, 1.0, 0.0], params=params, method=method, timeout=30)
    err = info.value
    assert err.t < 1e-2 and "1/ρ ≈ 1e-06" in str(err)
