"""The discrete Lagrange–d'Alembert integrator (Cortés–Martínez 2001; McLachlan–Perlmutter 2006).

``method="lda-midpoint"`` of :func:`frames.integrate` (single and batch runs). The long-time
energy tests use the sleigh, the particle and the disk as catalogued (free motion) and in a harmonic potential
``V = (x² + y²)/2`` of the contact point (sleigh, disk) or ``V = (q1² + q2²)/2`` (particle): free, the
sleigh and the particle settle to uniform motion and the disk rolls uniformly, which any integrator
follows without drift; in the potential the motion stays non-trivial for all time.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
import sympy as sp

import frames as fr
from frames import models
from frames.numeric._lda import LDAScheme

SYSTEMS = ("chaplygin-sleigh", "nonholonomic-particle", "vertical-rolling-disk")


def _harmonic(name: str) -> fr.models.Model:
    """The catalogued model with ``L − V``, V the harmonic potential of the module docstring."""
    mdl = models.get(name)
    s = {str(x): x for x in mdl.chart.q}
    x, y = (s["q1"], s["q2"]) if "q1" in s else (s["x"], s["y"])
    L = fr.Lagrangian(mdl.chart, mdl.lagrangian.expr - (x**2 + y**2) / 2)
    return dataclasses.replace(mdl, name=f"{name} (harmonic)", lagrangian=L)


def _model(name: str, harmonic: bool) -> fr.models.Model:
    return _harmonic(name) if harmonic else models.get(name)


def _run(mdl, T, h, q0=None, u0=None):
    return fr.integrate(
        mdl.nonholonomic(),
        (0, T),
        mdl.q0 if q0 is None else q0,
        mdl.u0 if u0 is None else u0,
        params=mdl.param_values,
        method="lda-midpoint",
        step=h,
    )


def _tenths(tr) -> tuple[float, float, float, float]:
    """``max |E − E0|`` over the first tenth of the nodes, over all of them, over the last tenth, and the
    rounding floor ``10³ ε (1 + |q|_∞)/h`` (node velocities are differences of growing coordinates)."""
    err = np.abs(tr.energy - tr.energy[0])
    n = max(1, len(err) // 10)
    floor = 1e3 * np.finfo(float).eps * (1.0 + float(np.max(np.abs(tr.q)))) / tr.info.get("step", 1.0)
    return float(np.max(err[:n])), float(np.max(err)), float(np.max(err[-n:])), floor


def _bounded(tr) -> bool:
    """No drift: the error over [0, T] stays within 3× its maximum over [0, T/10] (linear drift gives 10×)."""
    first, whole, _, floor = _tenths(tr)
    return whole <= 3.0 * first + floor


def _drifts(tr) -> bool:
    """Drift: the error over [0.9 T, T] is at least 5× its maximum over [0, T/10] (linear drift gives 10×)."""
    first, _, last, _ = _tenths(tr)
    return last >= 5.0 * first


def _scheme(mdl):
    nh = mdl.nonholonomic()
    comp = fr.numeric.CompiledSystem(fr.ode_system(nh, form="multiplier"))
    return LDAScheme(mdl.lagrangian, mdl.frame, mdl.m, comp.system.params), comp.bind(mdl.param_values)


# ------------------------------------------------------------------------------------------ the scheme
@pytest.mark.parametrize("name", [*SYSTEMS, "knife-edge"])
def test_lda_constraints_hold_at_the_nodes(name):
    mdl = models.get(name)
    tr = _run(mdl, 5.0, 0.05)
    assert tr.method == "lda-midpoint" and len(tr.t) == 101
    assert np.max(tr.residual) < 1e-10  # the node velocities lie in D
    # the discrete constraints A((q_k + q_{k+1})/2)(q_{k+1} − q_k) = 0 hold to Newton's tolerance
    sch, p = _scheme(mdl)
    for k in range(0, 100, 7):
        mid = (tr.q[k] + tr.q[k + 1]) / 2
        assert np.max(np.abs(sch.A(mid, p) @ (tr.q[k + 1] - tr.q[k]))) < 1e-11
        assert np.max(np.abs(sch.discrete_constraint(tr.q[k], tr.q[k + 1], 0.05, p))) < 1e-10


@pytest.mark.parametrize("name", SYSTEMS)
def test_lda_discrete_lagrangian_and_constraints_are_symmetric(name):
    """McLachlan–Perlmutter's symmetry of the midpoint DLA: ``L_d(q_1, q_0; −h) = −L_d(q_0, q_1; h)`` and the
    discrete constraint is unchanged by ``(q_0, q_1, h) ↦ (q_1, q_0, −h)`` (exact symbolic identities)."""
    sch, _ = _scheme(_harmonic(name))
    a, b, h = sch.symbols
    flip = dict(zip(a, b, strict=True)) | dict(zip(b, a, strict=True)) | {h: -h}
    Ld = sch.discrete_lagrangian
    assert sp.expand(Ld.xreplace(flip) + Ld) == 0
    g = sch.discrete_constraints
    assert (g.xreplace(flip) - g).expand() == sp.zeros(*g.shape)
    # ... which a one-sided discrete Lagrangian h L(q_0, (q_1 − q_0)/h) does not have
    mdl = _harmonic(name)
    ch = mdl.chart
    one = h * mdl.lagrangian.expr.xreplace(
        dict(zip(ch.q, a, strict=True)) | {ui: (bi - ai) / h for ui, ai, bi in zip(ch.u, a, b, strict=True)}
    )  # h L(q_0, (q_1 − q_0)/h)
    point = {s: sp.Rational(i + 1, 7) for i, s in enumerate((*a, *b, h, *mdl.param_values))}
    point |= {k: sp.Rational(str(v)) for k, v in mdl.param_values.items()}
    assert (one.xreplace(flip) + one).xreplace(point).evalf() != 0


def test_lda_is_second_order():
    mdl = models.chaplygin_sleigh()
    ref = fr.integrate(
        mdl.nonholonomic(), (0, 5), mdl.q0, mdl.u0, params=mdl.param_values, t_eval=[5.0], rtol=1e-12, atol=1e-13
    )
    errs = [np.max(np.abs(_run(mdl, 5.0, h).q[-1] - ref.q[-1])) for h in (0.1, 0.05, 0.025)]
    ratios = [errs[0] / errs[1], errs[1] / errs[2]]
    assert all(3.6 < r < 4.4 for r in ratios), ratios


@pytest.mark.parametrize(("name", "harmonic"), [(n, True) for n in SYSTEMS] + [("chaplygin-sleigh", False)])
def test_lda_is_time_reversible(name, harmonic):
    """Forward N steps, flip the velocity, N steps again: the initial state comes back (to 1e-9)."""
    mdl = _model(name, harmonic)
    fwd = _run(mdl, 3.0, 0.05)
    back = _run(mdl, 3.0, 0.05, q0=fwd.q[-1].tolist(), u0=(-fwd.u[-1]).tolist())
    assert np.max(np.abs(back.q[-1] - fwd.q[0])) < 1e-9
    assert np.max(np.abs(back.u[-1] + fwd.u[0])) < 1e-9
    assert np.allclose(back.q[::-1], fwd.q, atol=1e-9)
    assert np.allclose(back.u[::-1], -fwd.u, atol=1e-9)


def test_rk45_is_not_time_reversible():
    """The same round trip with RK45 at a loose tolerance misses the initial state: the test above can fail."""
    mdl = _harmonic("chaplygin-sleigh")
    kw = {"params": mdl.param_values, "rtol": 1e-4, "atol": 1e-7, "t_eval": [3.0]}
    fwd = fr.integrate(mdl.nonholonomic(), (0, 3), mdl.q0, mdl.u0, **kw)
    back = fr.integrate(mdl.nonholonomic(), (0, 3), fwd.q[-1].tolist(), (-fwd.u[-1]).tolist(), **kw)
    assert np.max(np.abs(back.q[-1] - np.array(list(mdl.q0.values())))) > 1e-7


# ------------------------------------------------------------------------------------------ energy
@pytest.mark.parametrize("harmonic", [False, True], ids=["free", "harmonic"])
@pytest.mark.parametrize("name", SYSTEMS)
def test_lda_energy_stays_bounded(name, harmonic):
    """T = 100 at h = 0.1: the energy error is O(h²) and does not grow."""
    mdl = _model(name, harmonic)
    tr = _run(mdl, 100.0, 0.1)
    assert np.max(np.abs(tr.energy - tr.energy[0])) < 1e-2 * max(1.0, abs(tr.energy[0]))
    assert _bounded(tr), _tenths(tr)


def _equal_cost_rk45(mdl, lda):
    """RK45 on the reduced form with at least as many right-hand-side evaluations as LDA's Newton iterations."""
    for rtol in (1e-5, 1e-6, 1e-7, 1e-8):
        rk = fr.integrate(
            mdl.nonholonomic(),
            (lda.t[0], lda.t[-1]),
            mdl.q0,
            mdl.u0,
            params=mdl.param_values,
            rtol=rtol,
            atol=1e-3 * rtol,
            t_eval=lda.t,
            max_steps=10**7,
        )
        if rk.info["nfev"] >= lda.info["newton_iterations"]:
            return rk
    raise AssertionError("no RK45 tolerance reached LDA's cost")


def test_lda_no_drift_where_rk45_drifts():
    """T = 300 on the sleigh in the potential, at equal cost: RK45's energy error grows, LDA's does not."""
    mdl = _harmonic("chaplygin-sleigh")
    lda = _run(mdl, 300.0, 0.1)
    rk = _equal_cost_rk45(mdl, lda)
    assert _bounded(lda), _tenths(lda)
    assert _drifts(rk) and not _bounded(rk), _tenths(rk)


@pytest.mark.slow
@pytest.mark.parametrize("harmonic", [False, True], ids=["free", "harmonic"])
@pytest.mark.parametrize("name", SYSTEMS)
def test_lda_energy_bounded_long_time_against_rk45(name, harmonic):
    """T = 10⁴ (10⁵ steps of 0.1): LDA's energy error stays bounded, with no drift; RK45 on the reduced form at
    equal cost (at least as many evaluations) drifts in the potential (its error grows ~linearly in t)."""
    mdl = _model(name, harmonic)
    lda = _run(mdl, 1.0e4, 0.1)
    assert _bounded(lda), _tenths(lda)
    assert np.max(np.abs(lda.energy - lda.energy[0])) < 1e-2 * max(1.0, abs(lda.energy[0]))
    if harmonic:
        rk = _equal_cost_rk45(mdl, lda)
        assert _drifts(rk) and not _bounded(rk), _tenths(rk)


# ------------------------------------------------------------------------------------------ batch, options
def test_lda_batch_equals_single_runs():
    mdl = models.chaplygin_sleigh()
    nh = mdl.nonholonomic()
    q0 = np.array([[0.0, 0.0, 0.0], [0.3, 1.0, -1.0], [-0.5, 0.2, 0.1]])
    th = q0[:, 0]
    u0 = np.stack([np.array([0.5, -0.2, 1.0]), np.cos(th), np.sin(th)], axis=1)
    b = fr.integrate(nh, (0, 2), q0, u0, params=mdl.param_values, method="lda-midpoint", step=0.05)
    assert b.method == "lda-midpoint" and b.q.shape == (3, 41, 3)
    for j in range(3):
        one = fr.integrate(nh, (0, 2), q0[j], u0[j], params=mdl.param_values, method="lda-midpoint", step=0.05)
        assert np.max(np.abs(one.q - b.q[j])) < 1e-13 and np.max(np.abs(one.u - b.u[j])) < 1e-13
    # a parameter sweep: one LDA run per member with its own parameters
    sweep = fr.integrate(
        nh,
        (0, 1),
        q0[:2],
        u0[:2],
        params={"m": 1.0, "I": np.array([0.1, 0.3]), "a": 0.5},
        method="lda-midpoint",
        step=0.1,
    )
    two = fr.integrate(nh, (0, 1), q0[1], u0[1], params={"m": 1.0, "I": 0.3, "a": 0.5}, method="lda-midpoint", step=0.1)
    assert np.max(np.abs(sweep.q[1] - two.q)) < 1e-13


def test_lda_step_divides_the_interval():
    mdl = models.chaplygin_sleigh()
    tr = _run(mdl, 1.0, 0.3)  # ceil(1/0.3) = 4 steps of 0.25
    assert tr.info["nsteps"] == 4 and math.isclose(tr.info["step"], 0.25) and np.allclose(tr.t, np.linspace(0, 1, 5))
    assert tr.info["newton_iterations"] >= 4


def test_lda_needs_an_autonomous_lagrangian():
    mdl = models.charged_skate(time_dependent=True)
    with pytest.raises(fr.errors.OptionError, match=r"autonomous Lagrangian"):
        fr.integrate(
            mdl.nonholonomic(), (0, 1), mdl.q0, mdl.u0, params=dict(mdl.param_values), method="lda-midpoint", step=0.1
        )


SL = models.chaplygin_sleigh()
NH = SL.nonholonomic()
P = SL.param_values
Q0, U0 = [0.0, 0.0, 0.0], [1.0, 1.0, 0.0]


def _one(**kw):
    args = {"params": P, "method": "lda-midpoint"} | kw
    return fr.integrate(
        args.pop("system", NH), args.pop("t_span", (0, 1)), args.pop("q0", Q0), args.pop("u0", U0), **args
    )


def _batch(**kw):
    args = {"params": P, "method": "lda-midpoint"} | kw
    return fr.integrate(NH, args.pop("t_span", (0, 1)), [args.pop("q0", Q0)], [U0], **args)


O, St = fr.errors.OptionError, fr.errors.StateError
BAD = [
    # (row id, bad call, error class, pattern naming the offending argument)
    ("step-missing", lambda: _one(), O, r"needs the fixed step: pass step="),
    ("step-zero", lambda: _one(step=0.0), O, r"step=0.0 must be a positive finite number"),
    ("step-negative", lambda: _one(step=-0.1), O, r"step=-0.1 must be a positive finite number"),
    ("step-nan", lambda: _one(step=float("nan")), O, r"step=nan must be a positive finite number"),
    ("step-inf", lambda: _one(step=float("inf")), O, r"step=inf must be a positive finite number"),
    ("step-str", lambda: _one(step="0.1"), O, r"step='0.1' must be a positive finite number"),
    ("step-bool", lambda: _one(step=True), O, r"step=True must be a positive finite number"),
    ("step-array", lambda: _one(step=np.array([0.1])), O, r"step=array\(\[0.1\]\) must be a positive finite number"),
    (
        "step-with-rk45",
        lambda: _one(step=0.1, method="RK45"),
        O,
        r"step=0.1 is the fixed step of method='lda-midpoint'",
    ),
    ("t_eval", lambda: _one(step=0.1, t_eval=[0, 1]), O, r"t_eval is not supported"),
    ("backend", lambda: _one(step=0.1, backend="numba"), O, r"has no backend='numba'"),
    ("max_steps-type", lambda: _one(step=0.1, max_steps="x"), O, r"max_steps='x' must be a positive integer"),
    ("max_steps-exceeded", lambda: _one(step=1e-3, max_steps=10), fr.errors.IntegrationBudgetError, r"max_steps=10"),
    ("timeout", lambda: _one(step=0.1, timeout=-1), O, r"timeout=-1"),
    ("t_span-backwards", lambda: _one(step=0.1, t_span=(1, 0)), St, r"t_span=\(1\.0, 0\.0\) must be increasing"),
    ("t_span-nan", lambda: _one(step=0.1, t_span=(0, float("nan"))), St, r"t_span must be two distinct finite"),
    ("q0-nan", lambda: _one(step=0.1, q0=[float("nan"), 0, 0]), St, r"q0: not finite"),
    ("u0-inf", lambda: _one(step=0.1, u0=[1.0, float("inf"), 0.0]), St, r"u0: not finite"),
    ("u0-not-in-D", lambda: _one(step=0.1, u0=[1.0, 0.0, 1.0]), fr.errors.InconsistentInitialDataError, r"u0 = "),
    (
        "param-nan",
        lambda: _one(step=0.1, params={"m": math.nan, "I": 0.1, "a": 0.5}),
        fr.errors.ParameterError,
        r"'m' is not finite",
    ),
    ("field-only", lambda: _one(step=0.1, system=NH.field()), O, r"needs a NonholonomicSystem or a Model"),
    ("ode", lambda: _one(step=0.1, system=fr.ode_system(NH.field(), system=NH)), O, r"needs a system .*not an ODE"),
    ("batch-step-missing", lambda: _batch(), O, r"integrate: method='lda-midpoint' needs the fixed step"),
    ("batch-step-zero", lambda: _batch(step=0), O, r"integrate: step=0 must be a positive finite number"),
    ("batch-step-nan", lambda: _batch(step=float("nan")), O, r"integrate: step=nan must be a positive"),
    ("batch-step-rk45", lambda: _batch(step=0.1, method="RK45"), O, r"integrate: step=0.1 is the fixed step"),
    ("batch-t_eval", lambda: _batch(step=0.1, t_eval=[0, 1]), O, r"integrate: .*t_eval is not supported"),
    ("batch-backend", lambda: _batch(step=0.1, backend="numba"), O, r"integrate: .*has no backend='numba'"),
    ("batch-q0-nan", lambda: _batch(step=0.1, q0=[np.nan, 0, 0]), St, r"q0: non-finite values in batch members \[0\]"),
]


@pytest.mark.parametrize(("row", "call", "exc", "pattern"), BAD, ids=[r[0] for r in BAD])
def test_lda_bad_input_is_a_library_error(row, call, exc, pattern):
    with pytest.raises(exc, match=pattern) as info:
        call()
    assert isinstance(info.value, fr.FramesError)
