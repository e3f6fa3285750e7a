"""Numerics never hang and never leak a solver's error: budgets, option checks, singularities with state."""

from __future__ import annotations

import numpy as np
import pytest

import frames as fr


def _oscillator(k=1.0):
    """q̈ = −k q (stiff for large k)."""
    import sympy as sp

    ch = fr.Chart("x", "u")
    x, u = ch.q[0], ch.u[0]
    L = fr.Lagrangian(ch, u**2 / 2 - sp.Float(k) * x**2 / 2)
    return L.euler_lagrange_field()


def _variable_mass():
    """L = x u²/2: the Hessian ``x`` vanishes at x = 0, which the motion from x = 1, u = −1 reaches."""
    ch = fr.Chart("x", "u")
    x, u = ch.q[0], ch.u[0]
    L = fr.Lagrangian(ch, x * u**2 / 2)
    return L, L.euler_lagrange_field()


def test_max_steps_caps_a_run_to_t_1e9():
    G = _oscillator(1e6)
    with pytest.raises(fr.errors.IntegrationBudgetError, match="max_steps = 2000") as info:
        fr.integrate(G, (0.0, 1e9), [1.0], [0.0], max_steps=2000)
    err = info.value
    assert isinstance(err, fr.errors.IntegrationError) and isinstance(err, fr.errors.BudgetExceededError)
    assert err.t is not None and 0 < err.t < 1e9 and err.state is not None and err.state.shape == (2,)


def test_timeout_stops_a_stiff_run():
    G = _oscillator(1e6)
    # an undamped ω = 1e3 over 1e9 s: refused from its spectrum before the timeout, naming it (issue 44)
    with pytest.raises(fr.errors.IntegrationBudgetError, match=r"timeout of 0\.3 s|timeout = 0\.3 s") as info:
        fr.integrate(G, (0.0, 1e9), [1.0], [0.0], timeout=0.3)
    assert info.value.state is not None and np.all(np.isfinite(info.value.state))


def test_batch_budget():
    G = _oscillator(1e4)
    with pytest.raises(fr.errors.IntegrationBudgetError, match="max_steps = 50") as info:
        fr.integrate(G, (0.0, 1e3), [[1.0], [0.5]], [[0.0], [0.0]], max_steps=50)
    assert info.value.state is not None
    with pytest.raises(fr.errors.IntegrationBudgetError, match="timeout"):
        fr.integrate(G, (0.0, 1e9), [[1.0], [0.5]], [[0.0], [0.0]], timeout=0.2)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"method": "bogus"}, "method"),
        ({"max_step": 0}, "max_step"),
        ({"max_step": -1.0}, "max_step"),
        ({"t_eval": [float("nan")]}, "t_eval"),
        ({"t_eval": [0.0, 5.0]}, "t_eval"),
        ({"t_eval": [0.5, 0.1]}, "t_eval"),
        ({"rtol": -1}, "rtol"),
        ({"atol": float("nan")}, "atol"),
        ({"max_steps": 0}, "max_steps"),
        ({"max_steps": True}, "max_steps"),
        ({"timeout": -2.0}, "timeout"),
    ],
)
def test_bad_solver_options_name_the_argument(kwargs, name):
    G = _oscillator()
    with pytest.raises(fr.errors.OptionError, match=name):
        fr.integrate(G, (0.0, 1.0), [1.0], [0.0], **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"method": "DOP853"}, "method"),
        ({"rtol": 0}, "rtol"),
        ({"t_eval": [np.inf]}, "t_eval"),
        ({"timeout": 0}, "timeout"),
    ],
)
def test_bad_batch_options_name_the_argument(kwargs, name):
    G = _oscillator()
    with pytest.raises(fr.errors.OptionError, match=name):
        fr.integrate(G, (0.0, 1.0), [[1.0]], [[0.0]], **kwargs)


def test_every_scipy_method_and_backward_time():
    G = _oscillator()
    for method in ("RK23", "RK45", "DOP853", "Radau", "BDF", "LSODA"):
        tr = fr.integrate(G, (0.0, 1.0), [1.0], [0.0], method=method, t_eval=[0.0, 0.5, 1.0], rtol=1e-10, atol=1e-12)
        assert tr.q[-1, 0] == pytest.approx(np.cos(1.0), abs=1e-6), method
    back = fr.integrate(G, (1.0, 0.0), [np.cos(1.0)], [-np.sin(1.0)], t_eval=[1.0, 0.5, 0.0], rtol=1e-10, atol=1e-12)
    assert back.q[-1, 0] == pytest.approx(1.0, abs=1e-7)


def test_singular_hessian_is_a_singularity_error_with_state():
    L, G = _variable_mass()
    with pytest.raises(fr.errors.SingularityError) as info:
        fr.integrate(G, (0.0, 5.0), [1.0], [-1.0], lagrangian=L)
    err = info.value
    assert err.t is not None and 0 < err.t < 5 and err.state is not None
    assert abs(err.state[0]) < 1e-6  # stopped where the Hessian x vanishes
    with pytest.raises(fr.errors.SingularityError) as binfo:
        fr.integrate(G, (0.0, 5.0), [[1.0], [2.0]], [[-1.0], [-1.0]], lagrangian=L)
    assert binfo.value.state is not None and binfo.value.t is not None


def test_frame_singular_where_D_is_regular_is_blamed_on_the_frame():
    """Knife edge completed with ∂/∂x: singular at φ = 0. The error names the frame, not the data."""
    mdl = fr.models.knife_edge()
    F = fr.complete_frame(mdl.constraints.distribution())
    assert F.fields[2] == fr.VectorField(mdl.chart, [0, 1, 0])
    nh = fr.NonholonomicSystem(mdl.lagrangian, F, mdl.m)
    q0 = {"phi": 0.0, "x": 0.0, "y": 0.0}
    u0 = {"u_phi": 0.3, "u_x": 1.0, "u_y": 0.0}
    with pytest.raises(fr.errors.SingularFrameError, match="frame is singular at q0") as info:
        fr.integrate(nh, (0.0, 1.0), q0, u0, params=mdl.param_values)
    assert "not at fault" in str(info.value) and "adapted_frame" in str(info.value)
    with pytest.raises(fr.errors.SingularFrameError, match="batch member 0"):
        fr.integrate(nh, (0.0, 1.0), [[0.0, 0.0, 0.0]], [[0.3, 1.0, 0.0]], params=mdl.param_values)
    # the remedies: a completion regular at the point, or the constraint rows as complement
    for G in (fr.complete_frame(mdl.constraints.distribution(), at=q0), mdl.constraints.adapted_frame()):
        tr = fr.integrate(fr.NonholonomicSystem(mdl.lagrangian, G, mdl.m), (0.0, 1.0), q0, u0, params=mdl.param_values)
        assert tr.q[-1, 0] == pytest.approx(0.3)
    nh2 = fr.NonholonomicSystem.from_constraints(mdl.lagrangian, mdl.constraints)
    assert fr.tidy(nh2.frame.determinant) == 1
    with pytest.raises(fr.errors.InvalidExpressionError, match="no value for"):
        fr.complete_frame(mdl.constraints.distribution(), at={"phi": 0.0})
