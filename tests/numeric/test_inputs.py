"""Inputs as callables (``integrate(..., params={"tau": law})``) and lazily generated observables.

The driven knife edge: heading φ, contact point (x, y), no sideways slip, a torque τ on the blade. The φ equation
decouples, ``J φ̈ = τ``, so ``τ = sin t`` gives ``φ(t) = φ0 + ω0 t + (t − sin t)/J`` in closed form, and the same
system with the torque written as the explicit function ``sin t`` of the time gives the same motion."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
import sympy as sp

import frames as fr
from frames.errors import ArgumentError, OptionError, ParameterError

M, J = 1.3, 0.4
Q0 = [0.2, 0.0, 0.0]
U0 = [0.5, math.cos(0.2), math.sin(0.2)]  # rolling along φ0 at unit speed
TIGHT = {"rtol": 1e-12, "atol": 1e-12}


def _knife(torque=None, time=False):
    """The knife edge with the generalised force ``(torque, 0, 0)``; ``torque`` defaults to the parameter τ."""
    ch = fr.Chart("phi x y", time=time or None, params="m J tau")
    phi, _, _ = ch.q
    uphi, ux, uy = ch.u
    m, Jp, tau = ch.params
    L = fr.Lagrangian(ch, m * (ux**2 + uy**2) / 2 + Jp * uphi**2 / 2)
    F = fr.Frame(
        [
            fr.VectorField(ch, [1, 0, 0]),
            fr.VectorField(ch, [0, sp.cos(phi), sp.sin(phi)]),
            fr.VectorField(ch, [0, -sp.sin(phi), sp.cos(phi)]),
        ]
    )
    torque = tau if torque is None else torque(ch)
    return fr.NonholonomicSystem(L, F, 2, forces=[torque, 0, 0])


def _closed_phi(t):
    return Q0[0] + U0[0] * t + (t - np.sin(t)) / J


def test_a_time_law_matches_the_closed_form_and_the_explicit_force():
    nh = _knife()
    te = np.linspace(0, 5, 51)
    tr = fr.integrate(nh, (0, 5), Q0, U0, params={"m": M, "J": J, "tau": lambda t: math.sin(t)}, t_eval=te, **TIGHT)
    np.testing.assert_allclose(tr.q[:, 0], _closed_phi(te), atol=1e-8)
    assert tr.info["inputs"] == {"tau": "t"} and "tau" not in tr.params
    # the same torque written into the system as a function of the time
    nh_t = _knife(lambda ch: sp.sin(ch.t), time=True)
    ref = fr.integrate(nh_t, (0, 5), Q0, U0, params={"m": M, "J": J, "tau": 0.0}, t_eval=te, **TIGHT)
    np.testing.assert_allclose(tr.q, ref.q, atol=1e-8)
    np.testing.assert_allclose(tr.u, ref.u, atol=1e-8)
    # the observables the input enters are evaluated with it: the multipliers agree, and the energy's rate is
    # the torque's power, E(t) − E(0) = ∫ τ φ̇ dt (checked by the trapezoid rule on a fine grid)
    np.testing.assert_allclose(tr.multipliers, ref.multipliers, atol=1e-7)
    np.testing.assert_allclose(tr.energy, ref.energy, atol=1e-8)


def test_a_numpy_ufunc_is_a_time_law():
    nh = _knife()
    te = np.linspace(0, 2, 5)
    tr = fr.integrate(nh, (0, 2), Q0, U0, params={"m": M, "J": J, "tau": np.sin}, t_eval=te, **TIGHT)
    np.testing.assert_allclose(tr.q[:, 0], _closed_phi(te), atol=1e-8)


def test_a_feedback_law_damps_the_spin():
    """``τ = −k φ̇``: ``φ̇(t) = ω0 e^{−k t / J}``, and the forward motion keeps its speed."""
    k = 0.8
    nh = _knife()
    te = np.linspace(0, 4, 41)
    law = lambda t, q, u: -k * u[0]  # noqa: E731 -- a feedback law
    tr = fr.integrate(nh, (0, 4), Q0, U0, params={"m": M, "J": J, "tau": law}, t_eval=te, **TIGHT)
    np.testing.assert_allclose(tr.u[:, 0], U0[0] * np.exp(-k * te / J), atol=1e-8)
    assert abs(tr.u[-1, 0]) < abs(tr.u[0, 0]) * math.exp(-k * 4 / J) * 1.0001
    np.testing.assert_allclose(np.hypot(tr.u[:, 1], tr.u[:, 2]), 1.0, atol=1e-9)
    assert tr.info["inputs"] == {"tau": "(t, q, u)"}
    # the energy decays: the spin's kinetic energy is dissipated by the feedback
    assert np.all(np.diff(tr.energy) <= 1e-12)


def test_the_multiplier_form_takes_a_feedback_law():
    k = 0.8
    te = np.linspace(0, 2, 11)
    tr = fr.integrate(
        _knife(),
        (0, 2),
        Q0,
        U0,
        params={"m": M, "J": J, "tau": lambda t, q, u: -k * u[0]},
        form="multiplier",
        t_eval=te,
        **TIGHT,
    )
    np.testing.assert_allclose(tr.u[:, 0], U0[0] * np.exp(-k * te / J), atol=1e-8)


def test_a_batch_takes_time_and_feedback_laws():
    nh = _knife()
    q0 = np.array([Q0, [0.0, 1.0, 0.0]])
    u0 = np.array([U0, [0.3, 1.0, 0.0]])
    te = np.linspace(0, 2, 11)
    b = fr.integrate(nh, (0, 2), q0, u0, params={"m": M, "J": J, "tau": lambda t: math.sin(t)}, t_eval=te, **TIGHT)
    for j in range(2):
        np.testing.assert_allclose(b.q[j, :, 0], q0[j, 0] + u0[j, 0] * te + (te - np.sin(te)) / J, atol=1e-7)
    k = np.array([0.8, 0.2])  # a gain per member: the law returns one value per column
    fb = fr.integrate(nh, (0, 2), q0, u0, params={"m": M, "J": J, "tau": lambda t, q, u: -k * u[0]}, t_eval=te, **TIGHT)
    for j in range(2):
        np.testing.assert_allclose(fb.u[j, :, 0], u0[j, 0] * np.exp(-k[j] * te / J), atol=1e-7)
    assert fb.info["inputs"] == {"tau": "(t, q, u)"}
    assert fb.multipliers.shape == (2, 11, 1) and np.all(np.isfinite(fb.multipliers))
    assert fb[1].energy.shape == (11,)


@pytest.mark.parametrize(
    ("law", "match"),
    [
        (lambda t: float("nan"), r"params\['tau'\].*nan"),
        (lambda t: math.inf, r"params\['tau'\].*inf"),
        (lambda t: [1.0, 2.0], r"params\['tau'\].*shape \(2,\)"),
        (lambda t: "a", r"params\['tau'\].*not a number"),
        (lambda t: 1 / 0, r"params\['tau'\].*ZeroDivisionError"),
        (lambda t, q: 0.0, r"params\['tau'\].*2 positional"),
        (lambda *args: 0.0, r"params\['tau'\].*0 positional"),
    ],
)
def test_a_bad_law_is_refused_naming_the_parameter(law, match):
    with pytest.raises(ArgumentError, match=match):
        fr.integrate(_knife(), (0, 1), Q0, U0, params={"m": M, "J": J, "tau": law})


def test_a_bad_law_in_a_batch_is_refused_naming_the_parameter():
    q0, u0 = np.array([Q0, Q0]), np.array([U0, U0])
    with pytest.raises(ArgumentError, match=r"params\['tau'\].*shape \(3,\) for a batch of 2"):
        fr.integrate(_knife(), (0, 1), q0, u0, params={"m": M, "J": J, "tau": lambda t: np.zeros(3)})


def test_engines_taking_numbers_only_refuse_a_law_naming_the_route():
    law = {"m": M, "J": J, "tau": lambda t: 0.0}
    with pytest.raises(OptionError, match=r"params\['tau'\].*backend='numba'.*numpy backend"):
        fr.integrate(_knife(), (0, 1), Q0, U0, params=law, backend="numba")
    with pytest.raises(OptionError, match=r"params\['tau'\].*lda-midpoint"):
        fr.integrate(_knife(), (0, 1), Q0, U0, params=law, method="lda-midpoint", step=0.1)


def test_a_law_for_a_parameter_of_the_constraints_is_refused():
    mdl = fr.models.knife_edge()
    with pytest.raises(ParameterError, match=r"params\['m'\].*enters"):
        fr.integrate(mdl, (0, 1), mdl.q0, mdl.u0, params={"m": lambda t: 1.0}, form="multiplier")


# ----------------------------------------------------------------------------- lazy observables
def test_observables_are_generated_when_first_read():
    nh = _knife()
    comp = fr.numeric.CompiledSystem(fr.ode_system(nh))
    assert comp.compiled_functions == ()
    tr = fr.integrate(comp, (0, 1), Q0, U0, params={"m": M, "J": J, "tau": 0.0})
    done = set(comp.compiled_functions)
    assert "rhs/math" in done and not any("multipliers" in f or "energy" in f for f in done)
    assert tr.multipliers.shape == (len(tr.t), 1)
    assert "obs:multipliers/numpy" in comp.compiled_functions
    assert "obs:energy/numpy" not in comp.compiled_functions
    assert tr.energy.shape == (len(tr.t),) and "obs:energy/numpy" in comp.compiled_functions
    assert tr.multipliers is tr.multipliers  # evaluated once, then kept
    with pytest.raises(AttributeError):
        tr.energy = None  # type: ignore[misc]
    fresh = fr.numeric.CompiledSystem(fr.ode_system(nh)).compile_all()
    assert {"rhs/math", "rhs/numpy", "obs:multipliers/numpy", "obs:energy/numpy", "D/numpy"} <= set(
        fresh.compiled_functions
    )


def test_a_trajectory_with_lazy_observables_pickles():
    tr = fr.integrate(_knife(), (0, 1), Q0, U0, params={"m": M, "J": J, "tau": lambda t: math.sin(t)})
    back = pickle.loads(pickle.dumps(tr))  # the observables are evaluated for pickling (the law is not pickled)
    np.testing.assert_array_equal(back.energy, tr.energy)
    np.testing.assert_array_equal(back.multipliers, tr.multipliers)
    np.testing.assert_array_equal(back.residual, tr.residual)


def test_wide_sums_compile():
    """A sum of thousands of terms (a multiplier in natural coordinates can have them) is generated through
    partial results: Python's compiler refuses a chain ``a + b + ...`` that long."""
    xs = sp.symbols("x0:3000")
    ch = fr.Chart("q", params=list(xs))
    (q,) = ch.q
    (u,) = ch.u
    expr = sp.Add(*[x * q**i for i, x in enumerate(xs)])
    ode = fr.OdeSystem(
        states=(q, u),
        rhs=(u, expr),
        params=tuple(xs),
        time=sp.Symbol("t"),
        chart=ch,
        initial=(q, u),
        observables={"q": (q,), "u": (u,), "v": (u,)},
    )
    comp = fr.numeric.CompiledSystem(ode)
    p = np.full(3000, 1e-4)
    np.testing.assert_allclose(comp.rhs(0.0, np.array([0.5, 0.0]), p)[1], 1e-4 * (1 - 0.5**3000) / 0.5)


def test_numba_and_the_batch_read_the_lazy_observables_as_the_scipy_path():
    """The numba backend (one member and a batch) and the NumPy batch fill the same lazy fields."""
    pytest.importorskip("numba")
    mdl = fr.models.chaplygin_sleigh()
    nh = mdl.nonholonomic()
    te = np.linspace(0, 1, 11)
    kw = {"params": mdl.param_values, "t_eval": te, "rtol": 1e-11, "atol": 1e-12}
    ref = fr.integrate(nh, (0, 1), mdl.q0, mdl.u0, **kw)
    one = fr.integrate(nh, (0, 1), mdl.q0, mdl.u0, backend="numba", **kw)
    np.testing.assert_allclose(one.multipliers, ref.multipliers, atol=1e-8)
    np.testing.assert_allclose(one.energy, ref.energy, atol=1e-9)
    np.testing.assert_allclose(one.reactions, ref.reactions, atol=1e-8)
    q0 = np.array([[float(mdl.q0[s]) for s in mdl.chart.q]] * 2)
    u0 = np.array([[float(mdl.u0[s]) for s in mdl.chart.u]] * 2)
    for backend in ("numba", "numpy"):
        b = fr.integrate(nh, (0, 1), q0, u0, backend=backend, **kw)
        np.testing.assert_allclose(b.multipliers[1], ref.multipliers, atol=1e-8)
        np.testing.assert_allclose(b.energy[0], ref.energy, atol=1e-9)
        np.testing.assert_allclose(b[1].multipliers, ref.multipliers, atol=1e-8)
        assert b.residual.shape == (2, 11)
