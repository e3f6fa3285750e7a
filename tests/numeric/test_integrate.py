"""Library-level tests of frames/numeric/: code generation, integrators, batches, sweeps, bad input."""

from __future__ import annotations

import math
import pickle
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import frames as fr
from frames import models
from frames.dynamics._ode import reduced_ode

# ----------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def sleigh():
    mdl = models.chaplygin_sleigh()
    nh = mdl.nonholonomic()
    nh.field()
    nh.multipliers()
    return mdl, nh


@pytest.fixture(scope="module")
def knife():
    mdl = models.knife_edge()
    return mdl, mdl.nonholonomic()


@pytest.fixture(scope="module")
def carriage():
    mdl = models.two_wheeled_carriage()
    return mdl, mdl.nonholonomic()


def _free_particle_1d(gamma_of, time=False):
    """A one-dimensional coordinate frame and a field q̈ = gamma_of(q, v[, t])."""
    ch = fr.Chart("q1", time=time)
    F = fr.Frame.coordinate(ch)
    args = (ch.q[0], F.v[0]) + ((ch.t,) if time else ())
    return ch, F, fr.SecondOrderField(F, [gamma_of(*args)], time_dependent=time)


# ----------------------------------------------------------------------------- code generation


def test_generated_rhs_matches_sympy_and_batch(sleigh):
    mdl, nh = sleigh
    comp = fr.numeric.CompiledSystem(fr.ode_system(nh))
    S = comp.system
    rng = np.random.default_rng(0)
    Y = rng.normal(size=(S.n_state, 7))
    p = comp.bind(mdl.param_values)
    batch = comp.rhs(0.0, Y, p)
    assert batch.shape == (S.n_state, 7)
    subs_p = dict(zip(S.params, p.tolist(), strict=True))
    for j in range(7):
        one = comp.rhs(0.0, Y[:, j], p)
        np.testing.assert_allclose(one, batch[:, j], rtol=1e-14, atol=1e-15)
        sub = dict(zip(S.states, Y[:, j].tolist(), strict=True)) | subs_p
        exact = [float(e.xreplace(sub)) for e in S.rhs]
        np.testing.assert_allclose(one, exact, rtol=1e-13, atol=1e-15)
    assert "_c" in comp.source or "rhs_one" in comp.source


@settings(max_examples=15)
@given(st.lists(st.floats(-3, 3), min_size=5, max_size=5), st.floats(0.1, 3), st.floats(0.05, 2), st.floats(-1, 1))
def test_multiplier_form_rhs_matches_accelerations(sleigh, y, m, I, a):
    mdl, nh = sleigh
    comp = fr.numeric.CompiledSystem(fr.ode_system(nh, form="multiplier"))
    q = y[:3]
    u = [y[3], y[4], 0.0]
    p = comp.bind({"m": m, "I": I, "a": a})
    acc = nh.field().accelerations()
    ch = mdl.chart
    sub = dict(zip(ch.q, q, strict=True)) | dict(zip(ch.u, u, strict=True))
    sub |= {mdl.params["m"]: m, mdl.params["I"]: I, mdl.params["a"]: a}
    exact = [float(e.xreplace(sub)) for e in acc]
    got = comp.rhs(0.0, np.array(q + u), p)
    np.testing.assert_allclose(got[3:], exact, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got[:3], u)


def test_compiled_system_pickles(sleigh):
    mdl, nh = sleigh
    comp = fr.numeric.CompiledSystem(fr.ode_system(nh))
    comp2 = pickle.loads(pickle.dumps(comp))
    p = comp.bind(mdl.param_values)
    y = np.array([0.3, 0.1, -0.2, 0.7, 1.1])
    np.testing.assert_array_equal(comp.rhs(0.0, y, p), comp2.rhs(0.0, y, p))


def test_undefined_functions_are_rejected():
    mdl = models.abelian_chaplygin(1)
    with pytest.raises(fr.errors.InvalidExpressionError, match="undefined function"):
        fr.numeric.CompiledSystem(fr.ode_system(mdl.nonholonomic()))


# ----------------------------------------------------------------------------- single trajectories


def test_knife_edge_closed_form(knife):
    """φ = φ0 + ω t, v² = const: x = x0 + (v/ω)(sin φ − sin φ0), y = y0 − (v/ω)(cos φ − cos φ0)."""
    mdl, nh = knife
    q0 = {"phi": 0.2, "x": 1.0, "y": -0.5}
    w, s = 0.7, 1.3
    u0 = {"u_phi": w, "u_x": s * math.cos(0.2), "u_y": s * math.sin(0.2)}
    te = np.linspace(0, 5, 11)
    tr = fr.integrate(nh, (0, 5), q0, u0, params=mdl.param_values, rtol=1e-11, atol=1e-13, t_eval=te)
    phi = 0.2 + w * te
    np.testing.assert_allclose(tr.q[:, 0], phi, rtol=0, atol=1e-10)
    np.testing.assert_allclose(tr.q[:, 1], 1.0 + s / w * (np.sin(phi) - np.sin(0.2)), atol=1e-9)
    np.testing.assert_allclose(tr.q[:, 2], -0.5 - s / w * (np.cos(phi) - np.cos(0.2)), atol=1e-9)
    # λ = m v1 v2 along the motion, energy constant
    np.testing.assert_allclose(tr.multipliers[:, 0], mdl.param_values[mdl.params["m"]] * w * s, rtol=1e-9)
    assert tr.energy_drift < 1e-10
    assert tr.residual.max() < 1e-14


def test_reduced_and_multiplier_forms_agree_and_residuals(sleigh):
    mdl, nh = sleigh
    te = np.linspace(0, 20, 41)
    red = fr.integrate(nh, (0, 20), mdl.q0, mdl.u0, params=mdl.param_values, rtol=1e-11, atol=1e-13, t_eval=te)
    mul = fr.integrate(
        nh, (0, 20), mdl.q0, mdl.u0, params=mdl.param_values, form="multiplier", rtol=1e-11, atol=1e-13, t_eval=te
    )
    assert red.form == "reduced" and mul.form == "multiplier"
    np.testing.assert_allclose(red.q, mul.q, atol=1e-8)
    np.testing.assert_allclose(red.u, mul.u, atol=1e-8)
    np.testing.assert_allclose(red.multipliers, mul.multipliers, atol=1e-8)
    assert red.residual.max() < 1e-14  # by construction
    assert mul.residual.max() > red.residual.max()  # only up to truncation error
    assert red.energy_drift < 1e-9 and mul.energy_drift < 1e-9
    assert red.state.shape == (41, 5) and mul.state.shape == (41, 6)
    np.testing.assert_allclose(red.v[:, 2], 0.0)


def test_second_order_field_method_and_model_input(sleigh):
    mdl, nh = sleigh
    tr1 = fr.integrate(nh.field(), (0, 1), mdl.q0, mdl.u0, params=mdl.param_values, system=nh)
    tr2 = fr.integrate(mdl, (0, 1), mdl.q0, mdl.u0)  # the model supplies the parameter values
    np.testing.assert_allclose(tr1.q[-1], tr2.q[-1], rtol=1e-12)
    assert tr1.multipliers is not None and tr1.energy is not None
    bare = fr.integrate(nh.field(), (0, 1), mdl.q0, mdl.u0, params=mdl.param_values)
    assert bare.multipliers is None and bare.energy is None


def test_carriage_l_zero_is_uniform_and_generic_l_conserves_energy(carriage):
    """At l = 0 Γ^α = 0: v constant, θ = θ0 + R(v2 − v1)/(2c) t, the centre moves on a circle."""
    mdl, nh = carriage
    pv = {k.name: v for k, v in mdl.param_values.items()}
    R, c = pv["R"], pv["c"]
    v1, v2 = 1.0, 0.5
    q0 = [0.0, 0.0, 0.0, 0.0, 0.3]
    th0 = 0.3
    u0 = [v1, v2, -R / 2 * math.cos(th0) * (v1 + v2), -R / 2 * math.sin(th0) * (v1 + v2), R / (2 * c) * (v2 - v1)]
    te = np.linspace(0, 20, 201)
    tr = fr.integrate(nh, (0, 20), q0, u0, params=pv | {"l": 0.0}, rtol=1e-11, atol=1e-13, t_eval=te)
    w = R / (2 * c) * (v2 - v1)
    th = th0 + w * te
    sp_ = -R / 2 * (v1 + v2)
    np.testing.assert_allclose(tr.q[:, 4], th, atol=1e-9)
    np.testing.assert_allclose(tr.q[:, 2], sp_ / w * (np.sin(th) - np.sin(th0)), atol=1e-9)
    np.testing.assert_allclose(tr.q[:, 3], -sp_ / w * (np.cos(th) - np.cos(th0)), atol=1e-9)
    np.testing.assert_allclose(tr.v[:, :2], np.tile([v1, v2], (len(te), 1)), atol=1e-12)
    gen = fr.integrate(nh, (0, 20), q0, u0, params=pv, rtol=1e-11, atol=1e-13, t_eval=te)
    assert gen.energy_drift < 1e-10
    assert gen.residual.max() < 1e-14
    assert np.max(np.abs(gen.q - tr.q)) > 1e-3  # the offset of the centre of mass matters


def test_time_dependent_field():
    """q̈ = sin t: q = q0 + (u0 + 1) t − sin t."""
    _ch, _F, G = _free_particle_1d(lambda q, v, t: sp.sin(t), time=True)
    te = np.linspace(0, 3, 7)
    tr = fr.integrate(G, (0, 3), [0.5], [0.2], rtol=1e-12, atol=1e-14, t_eval=te)
    np.testing.assert_allclose(tr.q[:, 0], 0.5 + 1.2 * te - np.sin(te), atol=1e-10)


# ----------------------------------------------------------------------------- initial data and projection


def test_inconsistent_initial_data_raises_or_projects(sleigh):
    mdl, nh = sleigh
    q0 = [0.4, 0.0, 0.0]
    u0 = [1.0, 1.0, 1.0]  # not in D at θ = 0.4
    pv = mdl.param_values
    with pytest.raises(fr.errors.InconsistentInitialDataError, match="violate the constraints"):
        fr.integrate(nh, (0, 1), q0, u0, params=pv)
    A = np.array([[0.0, -math.sin(0.4), math.cos(0.4)]])
    for how in ("kinetic", "euclidean", "frame"):
        tr = fr.integrate(nh, (0, 1), q0, u0, params=pv, project=how)
        assert tr.projection is not None and tr.projection["method"] == how
        up = tr.projection["u0_used"]
        assert abs(float((A @ up)[0])) < 1e-14
        np.testing.assert_allclose(tr.u[0], up, atol=1e-14)
        assert tr.residual.max() < 1e-14
        du = np.array(u0) - up
        if how == "euclidean":  # u0 − u_p ⟂ D (Euclidean)
            np.testing.assert_allclose(du, (A.T @ np.linalg.lstsq(A.T, du, rcond=None)[0]), atol=1e-14)
        if how == "kinetic":  # M (u0 − u_p) ∈ range Aᵀ: the velocity after an ideal constraint impulse
            M = np.array(
                sp.hessian(mdl.lagrangian.expr, mdl.chart.u)
                .xreplace({mdl.chart.q[0]: 0.4} | dict(pv.items()))
                .evalf()
                .tolist(),
                dtype=float,
            )
            r = M @ du
            np.testing.assert_allclose(r, A.T @ np.linalg.lstsq(A.T, r, rcond=None)[0], atol=1e-13)
    assert fr.integrate(nh, (0, 1), q0, u0, params=pv, project=True).projection["method"] == "kinetic"
    with pytest.raises(fr.FramesError, match="needs the Lagrangian"):
        fr.integrate(nh.field(), (0, 1), q0, u0, params=pv, project="kinetic")


@pytest.mark.parametrize(
    ("kwargs", "exc", "pattern"),
    [
        ({"q0": [0.0, 0.0]}, fr.errors.StateError, "expected 3 values"),
        ({"u0": [1.0, 1.0, 0.0, 0.0]}, fr.errors.StateError, "expected 3 values"),
        ({"q0": [0.0, float("nan"), 0.0]}, fr.errors.StateError, "not finite"),
        ({"u0": [float("inf"), 1.0, 0.0]}, fr.errors.StateError, "not finite"),
        ({"q0": {"theta": 0.0, "x": 0.0}}, fr.errors.StateError, "missing values"),
        ({"q0": {"theta": 0.0, "x": 0.0, "y": 0, "z": 1}}, fr.errors.StateError, "unknown keys"),
        ({"params": {"m": 1.0, "I": 0.1}}, fr.errors.ParameterError, "missing values for parameters"),
        ({"params": {"m": 1.0, "I": 0.1, "a": 0.5, "b": 2}}, fr.errors.ParameterError, "unknown parameter"),
        ({"params": {"m": 1.0, "I": float("nan"), "a": 0.5}}, fr.errors.ParameterError, "not finite"),
        ({"params": {"m": 1.0, "I": "heavy", "a": 0.5}}, fr.errors.ParameterError, "not a number"),
        ({"t_span": (0.0, 0.0)}, fr.errors.StateError, "t_span"),
        ({"mu0": [1.0]}, fr.errors.StateError, "unknown extra initial data"),
    ],
)
def test_bad_input(sleigh, kwargs, exc, pattern):
    _mdl, nh = sleigh
    args = {"t_span": (0.0, 1.0), "q0": [0.0, 0.0, 0.0], "u0": [1.0, 1.0, 0.0], "params": {"m": 1, "I": 0.1, "a": 0.5}}
    args |= kwargs
    with pytest.raises(exc, match=pattern) as info:
        fr.integrate(nh, args.pop("t_span"), args.pop("q0"), args.pop("u0"), **args)
    assert isinstance(info.value, fr.FramesError)


# ----------------------------------------------------------------------------- failures along the way


def test_singular_hessian_along_the_motion_is_reported():
    """L = ½(u1² + q1 u2²): the Hessian is singular at q1 = 0, reached at t = 1 from q1 = 1, u1 = −1."""
    ch = fr.Chart("q1 q2")
    q1, _ = ch.q
    u1, u2 = ch.u
    L = fr.Lagrangian(ch, (u1**2 + q1 * u2**2) / 2)
    G = L.euler_lagrange_field()
    with pytest.raises(fr.errors.SingularityError, match="singular") as info:
        fr.integrate(G, (0, 2), [1.0, 0.0], [-1.0, 0.0], lagrangian=L)
    assert info.value.t == pytest.approx(1.0, abs=1e-8)
    assert info.value.state[0] == pytest.approx(0.0, abs=1e-8)
    with pytest.raises(fr.errors.SingularityError, match="initial point"):
        fr.integrate(G, (0, 2), [0.0, 0.0], [1.0, 0.0])
    assert isinstance(info.value, fr.errors.RegularityError)


def test_non_finite_rhs_is_reported():
    """q̈ = sqrt(q): undefined once q < 0 (no denominators, so only the RHS check sees it)."""
    _, _, G = _free_particle_1d(lambda q, v: sp.sqrt(q))
    with pytest.raises(fr.errors.SingularityError, match="not defined") as info:
        fr.integrate(G, (0, 5), [1.0], [-2.0])
    assert info.value.t is not None and 0 < info.value.t < 5


def test_solver_failure_is_reported_not_truncated():
    """q̈ = q̇²: q = −log(1 − t) blows up at t = 1."""
    _, _, G = _free_particle_1d(lambda q, v: v**2)
    with pytest.raises(fr.errors.IntegrationError, match=r"RK45 failed at t = 0\.99") as info:
        fr.integrate(G, (0, 2), [0.0], [1.0])
    assert not isinstance(info.value, fr.errors.SingularityError)
    assert info.value.state is not None


# ----------------------------------------------------------------------------- trajectory object


def test_trajectory_is_frozen_and_exports(sleigh, tmp_path, monkeypatch):
    mdl, nh = sleigh
    tr = fr.integrate(nh, (0, 2), mdl.q0, mdl.u0, params=mdl.param_values, t_eval=np.linspace(0, 2, 5))
    with pytest.raises(ValueError, match="read-only"):
        tr.q[0, 0] = 1.0
    with pytest.raises(AttributeError):
        tr.t = None  # type: ignore[misc]
    assert tr.q.shape == (5, 3) and tr.u.shape == (5, 3) and tr.v.shape == (5, 3)
    cols = tr.columns()
    assert {"t", "theta", "x", "y", "u_theta", "v1", "energy", "lambda3", "residual"} <= set(cols)
    out = tr.plot(tmp_path / "sleigh.png")
    assert out.exists() and out.stat().st_size > 1000
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(fr.errors.OptionalDependencyError, match="pandas"):
        tr.to_dataframe()


def test_to_dataframe(sleigh):
    pd = pytest.importorskip("pandas")
    mdl, nh = sleigh
    tr = fr.integrate(nh, (0, 1), mdl.q0, mdl.u0, params=mdl.param_values, t_eval=[0, 0.5, 1])
    df = tr.to_dataframe()
    assert isinstance(df, pd.DataFrame) and len(df) == 3
    np.testing.assert_array_equal(df["x"].to_numpy(), tr.q[:, 1])


# ----------------------------------------------------------------------------- batches


def _sleigh_batch_data(mdl, n):
    rng = np.random.default_rng(1)
    th = rng.uniform(-1, 1, n)
    q0 = np.stack([th, rng.normal(size=n), rng.normal(size=n)], axis=1)
    w, s = rng.uniform(-1, 1, n), rng.uniform(0.2, 2, n)
    u0 = np.stack([w, s * np.cos(th), s * np.sin(th)], axis=1)
    return q0, u0


def test_batch_rk45_matches_solve_ivp(sleigh):
    from scipy.integrate import solve_ivp

    mdl, nh = sleigh
    q0, u0 = _sleigh_batch_data(mdl, 12)
    te = np.linspace(0, 5, 11)
    b = fr.integrate(nh, (0, 5), q0, u0, params=mdl.param_values, rtol=1e-10, atol=1e-12, t_eval=te)
    assert b.q.shape == (12, 11, 3) and b.residual.max() < 1e-14 and len(b) == 12
    comp = fr.numeric.CompiledSystem(fr.ode_system(nh))
    p = comp.bind(mdl.param_values)
    for j in (0, 5, 11):
        y0 = comp.initial_state(0.0, q0[j], u0[j], np.zeros(0), p)
        sol = solve_ivp(comp.fun(p), (0, 5), y0, rtol=1e-10, atol=1e-12, t_eval=te)
        np.testing.assert_allclose(b.state[j], sol.y.T, atol=1e-8)
        one = b[j]
        assert isinstance(one, fr.results.Trajectory) and one.q.shape == (11, 3)
    assert np.max(np.abs(b.energy - b.energy[:, :1])) < 1e-9


def test_batch_rk4_converges_at_fourth_order(sleigh):
    mdl, nh = sleigh
    q0, u0 = _sleigh_batch_data(mdl, 4)
    ref = fr.integrate(nh, (0, 2), q0, u0, params=mdl.param_values, rtol=1e-12, atol=1e-14, t_eval=[0, 2])
    errs = []
    for n in (40, 80):
        b = fr.integrate(nh, (0, 2), q0, u0, params=mdl.param_values, method="RK4", n_steps=n, t_eval=[0, 2])
        errs.append(np.max(np.abs(b.state[:, -1] - ref.state[:, -1])))
    assert 12 < errs[0] / errs[1] < 20


def test_batch_parameter_sweep_in_one_run(sleigh):
    mdl, nh = sleigh
    q0, u0 = _sleigh_batch_data(mdl, 3)
    a = np.array([0.1, 0.5, 0.9])
    b = fr.integrate(nh, (0, 3), q0, u0, params={"m": 1.0, "I": 0.1, "a": a}, rtol=1e-10, atol=1e-12)
    for j in range(3):
        one = fr.integrate(nh, (0, 3), q0[j], u0[j], params={"m": 1.0, "I": 0.1, "a": a[j]}, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(b.q[j, -1], one.q[-1], atol=1e-8)
        assert b[j].params["a"] == a[j]


def test_batch_bad_input(sleigh):
    mdl, nh = sleigh
    q0, u0 = _sleigh_batch_data(mdl, 3)
    with pytest.raises(fr.errors.StateError, match="shape"):
        fr.integrate(nh, (0, 1), q0[:, :2], u0, params=mdl.param_values)
    u0b = u0.copy()
    u0b[1, 0] = np.nan
    with pytest.raises(fr.errors.StateError, match=r"batch members \[1\]"):
        fr.integrate(nh, (0, 1), q0, u0b, params=mdl.param_values)
    with pytest.raises(fr.errors.ParameterError, match="2 values for a batch of 3"):
        fr.integrate(nh, (0, 1), q0, u0, params={"m": 1.0, "I": 0.1, "a": [0.1, 0.2]})
    u0c = u0.copy()
    u0c[2, 2] += 1.0
    with pytest.raises(fr.errors.InconsistentInitialDataError, match=r"batch members \[2\]"):
        fr.integrate(nh, (0, 1), q0, u0c, params=mdl.param_values)
    with pytest.raises(fr.errors.OptionError, match="n_steps"):
        fr.integrate(nh, (0, 1), q0, u0, params=mdl.param_values, method="RK4")


def test_batch_blow_up_is_reported():
    _, _, G = _free_particle_1d(lambda q, v: v**2)
    with pytest.raises(fr.FramesError, match="batch RK45"):
        fr.integrate(G, (0, 2), [[0.0], [0.0]], [[0.5], [1.0]])


# ----------------------------------------------------------------------------- sweeps


@pytest.fixture(scope="module")
def sweep_job(sleigh):
    mdl, nh = sleigh
    comp = fr.numeric.CompiledSystem(fr.ode_system(nh))
    return fr.numeric.IntegrateJob(
        comp, (0.0, 2.0), mdl.q0, mdl.u0, params={"m": 1.0}, options={"rtol": 1e-9, "atol": 1e-12}, final_only=True
    )


GRID = {"I": [0.05, 0.1, 0.2, 0.4], "a": [-0.5, 0.1, 0.3, 0.7]}


def test_grid_points():
    pts = fr.numeric.grid_points(GRID)
    assert len(pts) == 16 and pts[0] == {"I": 0.05, "a": -0.5} and pts[1] == {"I": 0.05, "a": 0.1}
    assert fr.numeric.grid_points([1, 2]) == [1, 2]


def test_sweep_default_executor_matches_serial(sweep_job):
    ref = [sweep_job(pt) for pt in fr.numeric.grid_points(GRID)]
    res = fr.sweep(sweep_job, GRID)  # process pool
    assert len(res) == 16
    for r, s in zip(res, ref, strict=True):
        np.testing.assert_array_equal(r, s)
    with ThreadPoolExecutor(2) as ex:
        res2 = fr.sweep(sweep_job, GRID, executor=ex)
    for r, s in zip(res2, ref, strict=True):
        np.testing.assert_array_equal(r, s)


def test_sweep_dask_local_cluster(sweep_job):
    distributed = pytest.importorskip("distributed")
    ref = fr.sweep(sweep_job, GRID)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl,
        distributed.Client(cl) as client,
    ):
        res = fr.sweep(sweep_job, GRID, executor=client.get_executor())
    for r, s in zip(res, ref, strict=True):
        np.testing.assert_array_equal(r, s)


# ----------------------------------------------------------------------------- plug-in interface


def test_reduced_ode_with_extra_states(knife):
    """A plug-in system with extra states (as a vakonomic field adds μ): ż = −z v¹ (so z = z0 e^{−(φ−φ0)})."""
    mdl, nh = knife
    F = mdl.frame
    z = sp.Symbol("z")
    G = nh.field()
    ode = reduced_ode(
        F,
        2,
        list(G.Gamma[:2]),
        lagrangian=mdl.lagrangian,
        multipliers=nh.multipliers(),
        extra_states={"mu": ((z,), (-z * F.v[0],))},
        extra_observables={"twice_mu": (2 * z,)},
        form="vakonomic-like",
    )
    te = np.linspace(0, 2, 5)
    tr = fr.integrate(
        ode, (0, 2), mdl.q0, mdl.u0, params=mdl.param_values, mu0=[1.5], rtol=1e-11, atol=1e-13, t_eval=te
    )
    assert tr.form == "vakonomic-like"
    np.testing.assert_allclose(tr.extras["mu"][:, 0], 1.5 * np.exp(-(tr.q[:, 0] - tr.q[0, 0])), rtol=1e-9)
    np.testing.assert_allclose(tr.extras["twice_mu"][:, 0], 2 * tr.extras["mu"][:, 0])
    assert tr.multipliers is not None and tr.energy is not None and tr.residual.max() < 1e-14
    with pytest.raises(fr.errors.StateError, match="missing initial data mu0"):
        fr.integrate(ode, (0, 2), mdl.q0, mdl.u0, params=mdl.param_values)
    b = fr.integrate(ode, (0, 2), [list(mdl.q0.values())] * 2, [list(mdl.u0.values())] * 2,
                     params=mdl.param_values, extra0={"mu": [[1.5], [3.0]]}, t_eval=te)  # fmt: skip
    np.testing.assert_allclose(b.extras["mu"][1, :, 0], 2 * b.extras["mu"][0, :, 0], rtol=1e-8)


@pytest.mark.parametrize("name", ["knife_edge", "chaplygin_sleigh", "nonholonomic_particle"])
def test_v0_gives_the_same_motion_as_the_natural_velocities_it_stands_for(name):
    """``v0`` (the independent quasi-velocities) is ``u0 = v0^α X_α(q0)``: the same trajectory, to rounding."""
    mdl = getattr(fr.models, name)()
    nh = mdl.nonholonomic()
    v0 = [0.3 * (k + 1) for k in range(nh.m)]
    at = {q: x for q, x in mdl.q0.items()} | dict(mdl.param_values)
    u0 = [float(sum(v0[al] * nh.frame.matrix[al, j].subs(at) for al in range(nh.m))) for j in range(nh.n)]
    a = fr.integrate(nh, (0.0, 1.0), mdl.q0, u0, params=mdl.param_values, rtol=1e-11, atol=1e-13)
    b = fr.integrate(nh, (0.0, 1.0), mdl.q0, v0=v0, params=mdl.param_values, rtol=1e-11, atol=1e-13)
    np.testing.assert_allclose(b.q, a.q, rtol=1e-12, atol=1e-12)
    with pytest.raises(fr.errors.StateError, match="give the initial velocities once"):
        fr.integrate(nh, (0.0, 1.0), mdl.q0, u0, v0=v0, params=mdl.param_values)
    with pytest.raises(fr.errors.StateError, match=r"^v0: expected"):
        fr.integrate(nh, (0.0, 1.0), mdl.q0, v0=[*v0, 1.0], params=mdl.param_values)
    with pytest.raises(fr.errors.OptionError, match="v0 needs a system with an adapted frame"):
        fr.integrate(fr.ode_system(nh), (0.0, 1.0), mdl.q0, v0=v0, params=mdl.param_values)


def test_an_absurd_span_is_refused_at_the_door_in_the_api_and_the_cli(capsys):
    """``t_end = 1e300`` is refused at once (it used to run until the 600 s budget), by ``integrate`` and by
    ``frames simulate``."""
    from frames.app import main

    mdl = fr.models.knife_edge()
    with pytest.raises(fr.errors.StateError, match="a span beyond 1e\\+09 time units is refused"):
        fr.integrate(mdl, (0.0, 1e300), mdl.q0, mdl.u0)
    assert main(["simulate", "knife-edge", "--t-end", "1e300"]) == 2
    assert "beyond 1e+09 time units" in capsys.readouterr().err
