"""backend="numba": the jitted right-hand side and integrators agree with the NumPy path and with exact motion.

The jitted driver is compiled once per process (for every system); each model adds a small
right-hand-side compilation. The models are built once per module.
"""

from __future__ import annotations

import math
import subprocess
import sys
from functools import cache

import numpy as np
import pytest

import frames as fr
from frames import models

numba = pytest.importorskip("numba")

from frames.numeric import _numba as nbm  # noqa: E402

MODELS = ["chaplygin_sleigh", "knife_edge", "two_wheeled_carriage", "rolling_coin_incline"]


@cache
def _model(name):
    mdl = getattr(models, name)()
    return mdl, mdl.nonholonomic()


def _batch(mdl, n, seed):
    """Random natural initial data (the velocities are projected onto D by the integrators: project=True)."""
    rng = np.random.default_rng(seed)
    return 0.5 * rng.normal(size=(n, mdl.chart.dim)), rng.normal(size=(n, mdl.chart.dim))


def _close(a, b, tol):
    return float(np.max(np.abs(np.asarray(a) - np.asarray(b)))) <= tol


@pytest.mark.parametrize("name", MODELS)
def test_numba_rk4_equals_numpy_rk4(name):
    mdl, nh = _model(name)
    q0, u0 = _batch(mdl, 6, 1)
    te = np.linspace(0, 2, 7)  # 1/3, 2/3, ... fall inside steps: Hermite output
    kw = dict(params=mdl.param_values, method="RK4", n_steps=200, t_eval=te, project=True)
    a = fr.integrate(nh, (0, 2), q0, u0, **kw)
    b = fr.integrate(nh, (0, 2), q0, u0, backend="numba", **kw)
    scale = max(1.0, float(np.max(np.abs(a.state))))
    assert _close(a.state, b.state, 1e-12 * scale)  # the same arithmetic, member by member
    assert _close(a.q, b.q, 1e-12 * scale) and b.info["backend"] == "numba" and b.method == "RK4"
    assert b.info["nfev"] == (4 * 200 + 1) * 6


@pytest.mark.parametrize("name", MODELS)
def test_numba_rk45_equals_numpy_rk45_at_tight_tolerance(name):
    mdl, nh = _model(name)
    q0, u0 = _batch(mdl, 6, 2)
    te = np.linspace(0, 3, 8)
    kw = dict(params=mdl.param_values, rtol=1e-12, atol=1e-13, t_eval=te, project=True)
    a = fr.integrate(nh, (0, 3), q0, u0, **kw)  # lock-step step control
    b = fr.integrate(nh, (0, 3), q0, u0, backend="numba", **kw)  # per-member step control
    assert _close(a.state, b.state, 1e-10 * max(1.0, float(np.max(np.abs(a.state)))))  # relative to the state's size
    assert b.info["steps"] <= a.info["steps"]  # no member needs more steps than the batch's worst


@pytest.mark.parametrize("name", ["chaplygin_sleigh", "two_wheeled_carriage"])
def test_numba_single_trajectory_is_a_batch_of_one_and_matches_solve_ivp(name):
    mdl, nh = _model(name)
    q0, u0 = _batch(mdl, 4, 3)
    te = np.linspace(0, 4, 9)
    kw = dict(params=mdl.param_values, rtol=1e-12, atol=1e-13, t_eval=te, project=True)
    b = fr.integrate(nh, (0, 4), q0, u0, backend="numba", **kw)
    one = fr.integrate(nh, (0, 4), q0[2], u0[2], backend="numba", **kw)
    ref = fr.integrate(nh, (0, 4), q0[2], u0[2], **kw)  # scipy's RK45 with the generated Python RHS
    assert one.method == "RK45" and one.info["backend"] == "numba" and one.info["steps"] > 0
    assert _close(one.state, b.state[2], 1e-14)  # the same kernel, the same member
    assert _close(one.state, ref.state, 1e-10) and _close(one.u, ref.u, 1e-10)
    assert one.info["nfev"] == ref.info["nfev"]  # scipy's step control, step for step
    assert one.residual.max() < 1e-12  # reduced form: on D to rounding


def test_numba_t_eval_exact_knife_edge_closed_form():
    """Free knife edge: φ̇ = ω, speed v along (cos φ, sin φ): x = (v/ω) sin ωt, y = (v/ω)(1 − cos ωt)."""
    mdl, nh = _model("knife_edge")
    w, v = float(mdl.u0[mdl.chart.u[0]]), float(mdl.u0[mdl.chart.u[1]])
    T = 7.0
    te = np.sort(np.random.default_rng(4).uniform(0, T, 13))
    te = np.concatenate([[0.0], te, [T]])
    kw = dict(params=mdl.param_values, rtol=1e-12, atol=1e-13)
    tr = fr.integrate(nh, (0, T), mdl.q0, mdl.u0, backend="numba", t_eval=te, **kw)
    assert np.array_equal(tr.t, te)  # output at t_eval exactly (dense output, no interpolation in time)
    phi, x, y = tr.q.T
    assert _close(phi, w * te, 1e-10)
    assert _close(x, v / w * np.sin(w * te), 1e-10) and _close(y, v / w * (1 - np.cos(w * te)), 1e-10)
    # t_eval does not change the steps: the state at T is the same to the last bit
    end = fr.integrate(nh, (0, T), mdl.q0, mdl.u0, backend="numba", t_eval=[T], **kw)
    assert np.array_equal(end.state[-1], tr.state[-1]) and end.info["steps"] == tr.info["steps"]
    # default output: 101 equally spaced times
    assert len(fr.integrate(nh, (0, T), mdl.q0, mdl.u0, backend="numba", **kw).t) == 101


def test_numba_parameter_sweep_arrays():
    mdl, nh = _model("chaplygin_sleigh")
    n = 5
    q0 = np.tile([0.2, 0.0, 0.0], (n, 1))
    u0 = np.tile([1.0, math.cos(0.2), math.sin(0.2)], (n, 1))
    pv = {k.name: float(v) for k, v in mdl.param_values.items()}
    a_values = np.linspace(0.1, 0.9, n)
    sweep = pv | {"a": a_values}
    kw = dict(rtol=1e-12, atol=1e-13, t_eval=[0, 1.5, 3])
    a = fr.integrate(nh, (0, 3), q0, u0, params=sweep, **kw)
    b = fr.integrate(nh, (0, 3), q0, u0, params=sweep, backend="numba", **kw)
    assert _close(a.state, b.state, 1e-10)
    for j in (0, n - 1):
        one = fr.integrate(nh, (0, 3), q0[j], u0[j], params=pv | {"a": a_values[j]}, backend="numba", **kw)
        assert _close(one.state, b.state[j], 1e-14)
    assert np.max(np.abs(b.state[0, -1] - b.state[-1, -1])) > 1e-2  # the sweep reaches the kernel


def test_numba_rhs_source_is_the_systems_rhs():
    rng = np.random.default_rng(5)
    for name in MODELS:
        mdl, nh = _model(name)
        comp = fr.numeric.CompiledSystem(fr.ode_system(nh))
        ns: dict = {"math": math}
        exec(nbm.rhs_source(comp), ns)
        p = comp.bind(mdl.param_values)
        for _ in range(3):
            y = rng.normal(size=comp.system.n_state)
            out = np.empty_like(y)
            ns["_rhs"](0.3, y, p, out)
            ref = comp.rhs(0.3, y, p)
            assert _close(out, ref, 1e-13 * max(1.0, float(np.max(np.abs(ref))))), name


def test_numba_budget_and_singular_errors():
    mdl, nh = _model("chaplygin_sleigh")
    q0, u0 = _batch(mdl, 3, 6)
    pv = mdl.param_values
    for backend in ("numpy", "numba"):
        with pytest.raises(fr.errors.IntegrationBudgetError, match="max_steps = 5"):
            fr.integrate(nh, (0, 5), q0, u0, params=pv, project=True, max_steps=5, backend=backend)
    with pytest.raises(fr.errors.IntegrationBudgetError, match="max_steps = 5"):
        fr.integrate(nh, (0, 5), q0[0], u0[0], params=pv, project=True, max_steps=5, backend="numba")
    # I = −m a²: the reduced equations divide by m a² + I = 0
    bad = {k.name: float(v) for k, v in pv.items()} | {"I": -1.0 * 0.5**2}
    for backend in ("numpy", "numba"):
        with pytest.raises(fr.errors.SingularityError, match=r"not finite|singular"):
            fr.integrate(nh, (0, 1), q0, u0, params=bad, project="euclidean", backend=backend)


def test_numba_bad_options(monkeypatch):
    mdl, nh = _model("chaplygin_sleigh")
    q0, u0 = _batch(mdl, 2, 7)
    kw = dict(params=mdl.param_values, project=True)
    with pytest.raises(fr.errors.OptionError, match=r"backend='cuda' is not one of \['numpy', 'numba'\]"):
        fr.integrate(nh, (0, 1), q0, u0, backend="cuda", **kw)
    with pytest.raises(fr.errors.OptionError, match=r"backend=5 is not one of \['numpy', 'numba'\]"):
        fr.integrate(nh, (0, 1), q0[0], u0[0], backend=5, **kw)
    with pytest.raises(fr.errors.OptionError, match=r"method='LSODA' is not one of \['RK45'\]"):
        fr.integrate(nh, (0, 1), q0[0], u0[0], backend="numba", method="LSODA", **kw)
    with pytest.raises(fr.errors.OptionError, match=r"max_step=-1 must be positive"):
        fr.integrate(nh, (0, 1), q0[0], u0[0], backend="numba", max_step=-1, **kw)
    with pytest.raises(fr.errors.OptionError, match=r"no backend='numba'"):
        fr.integrate(nh, (0, 1), q0[0], u0[0], backend="numba", method="lda-midpoint", step=0.1, **kw)
    with pytest.raises(fr.errors.OptionError, match=r"n_steps=0 must be a positive integer"):
        fr.integrate(nh, (0, 1), q0, u0, backend="numba", method="RK4", n_steps=0, **kw)
    with pytest.raises(fr.errors.OptionError, match=r"n_steps=50 exceeds max_steps=10"):
        fr.integrate(nh, (0, 1), q0, u0, backend="numba", method="RK4", n_steps=50, max_steps=10, **kw)
    # max_step bounds the jitted steps
    few = fr.integrate(nh, (0, 1), q0[0], u0[0], backend="numba", **kw)
    many = fr.integrate(nh, (0, 1), q0[0], u0[0], backend="numba", max_step=0.01, **kw)
    assert many.info["steps"] >= 100 > few.info["steps"]
    # numba absent: a clean error naming the extra
    monkeypatch.setitem(sys.modules, "numba", None)
    with pytest.raises(fr.errors.OptionalDependencyError, match=r"pip install 'frames\[numba\]'"):
        fr.integrate(nh, (0, 1), q0, u0, backend="numba", **kw)
    with pytest.raises(fr.errors.OptionalDependencyError, match=r"pip install 'frames\[numba\]'"):
        fr.integrate(nh, (0, 1), q0[0], u0[0], backend="numba", **kw)
    assert nbm.numba_available() is False


def test_import_frames_does_not_import_numba():
    code = "import sys, frames; frames.integrate; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "False"


def test_numba_single_trajectories_from_threads_agree_with_sequential():
    from concurrent.futures import ThreadPoolExecutor

    mdl, nh = _model("knife_edge")
    q0, u0 = _batch(mdl, 4, 8)
    kw = dict(params=mdl.param_values, project=True, backend="numba", t_eval=[0, 1, 2])

    def one(j):
        return fr.integrate(nh, (0, 2), q0[j], u0[j], **kw).state

    seq = [one(j) for j in range(4)]
    with ThreadPoolExecutor(4) as ex:
        par = list(ex.map(one, range(4)))
    assert all(np.array_equal(a, b) for a, b in zip(seq, par, strict=True))


def test_numba_rhs_without_a_scalar_form_is_refused():
    import types

    import sympy as sp

    x, t = sp.symbols("x t")
    fake = types.SimpleNamespace(states=(x,), params=(), time=t, rhs=(sp.besselj(0, x),))
    with pytest.raises(fr.errors.InvalidExpressionError, match=r"besselj"):
        nbm.rhs_source(types.SimpleNamespace(system=fake))


def test_numba_timeout_between_chunks_of_members():
    mdl, nh = _model("knife_edge")
    n = 3000  # more than the first chunk (2048 members)
    rng = np.random.default_rng(9)
    phi = rng.uniform(-np.pi, np.pi, n)
    q0 = np.stack([phi, np.zeros(n), np.zeros(n)], axis=1)
    u0 = np.stack([rng.uniform(-1, 1, n), np.cos(phi), np.sin(phi)], axis=1)  # along the blade: in D
    with pytest.raises(fr.errors.IntegrationBudgetError, match=r"timeout of 1e-09 s reached after 2048 of 3000"):
        fr.integrate(nh, (0, 1), q0, u0, params=mdl.param_values, backend="numba", timeout=1e-9)
    ok = fr.integrate(nh, (0, 1), q0, u0, params=mdl.param_values, backend="numba", t_eval=[0, 1])
    assert ok.state.shape == (n, 2, 5) and np.all(np.isfinite(ok.state))
