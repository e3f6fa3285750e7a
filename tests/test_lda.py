"""The discrete Lagrange–d'Alembert integrator (Cortés–Martínez 2001; McLachlan–Perlmutter 2006)."""

from __future__ import annotations

import numpy as np
import pytest

import frames as fr
from frames import models
from frames.numeric._lda import LDAScheme


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


@pytest.mark.parametrize("name", ["chaplygin-sleigh", "nonholonomic-particle", "vertical-rolling-disk", "knife-edge"])
def test_lda_constraints_hold_at_the_nodes(name):
    mdl = models.get(name)
    tr = _run(mdl, 5.0, 0.05)
    assert tr.method == "lda-midpoint" and len(tr.t) == 101
    assert np.max(tr.residual) < 1e-10  # the node velocities lie in D
    # the discrete constraints A((q_k + q_{k+1})/2)(q_{k+1} − q_k) = 0 hold to Newton's tolerance
    nh = mdl.nonholonomic()
    comp = fr.compile_system(nh.field(), "multiplier", system=nh)
    p = comp.bind(mdl.param_values)
    sch = LDAScheme(mdl.lagrangian, mdl.frame, mdl.m, comp.system.params)
    for k in range(0, 100, 7):
        mid = (tr.q[k] + tr.q[k + 1]) / 2
        assert np.max(np.abs(sch.A(mid, p) @ (tr.q[k + 1] - tr.q[k]))) < 1e-11


def test_lda_is_second_order():
    mdl = models.chaplygin_sleigh()
    ref = fr.integrate(
        mdl.nonholonomic(), (0, 5), mdl.q0, mdl.u0, params=mdl.param_values, t_eval=[5.0], rtol=1e-12, atol=1e-13
    )
    errs = [np.max(np.abs(_run(mdl, 5.0, h).q[-1] - ref.q[-1])) for h in (0.1, 0.05, 0.025)]
    ratios = [errs[0] / errs[1], errs[1] / errs[2]]
    assert all(3.6 < r < 4.4 for r in ratios), ratios


@pytest.mark.parametrize("name", ["chaplygin-sleigh", "vertical-rolling-disk"])
def test_lda_is_time_reversible(name):
    mdl = models.get(name)
    fwd = _run(mdl, 3.0, 0.05)
    back = _run(mdl, 3.0, 0.05, q0=fwd.q[-1].tolist(), u0=(-fwd.u[-1]).tolist())
    assert np.max(np.abs(back.q[-1] - fwd.q[0])) < 1e-9
    assert np.max(np.abs(back.u[-1] + fwd.u[0])) < 1e-9
    assert np.allclose(back.q[::-1], fwd.q, atol=1e-9)


@pytest.mark.parametrize("name", ["chaplygin-sleigh", "nonholonomic-particle", "vertical-rolling-disk"])
def test_lda_energy_stays_bounded(name):
    """T = 200 at h = 0.1: the energy error oscillates, it does not grow (last tenth vs first tenth)."""
    mdl = models.get(name)
    tr = _run(mdl, 200.0, 0.1)
    err = np.abs(tr.energy - tr.energy[0])
    n = len(err) // 10
    assert np.max(err) < 1e-2 * max(1.0, abs(tr.energy[0]))
    assert np.max(err[-n:]) <= 2.0 * np.max(err[:n]) + 1e-12


@pytest.mark.slow
def test_lda_energy_bounded_long_time():
    """T = 10⁴ on the sleigh at h = 0.1: LDA's energy error stays bounded (no drift over 10⁵ steps)."""
    mdl = models.chaplygin_sleigh()
    tr = _run(mdl, 1.0e4, 0.1)
    err = np.abs(tr.energy - tr.energy[0])
    n = len(err) // 10
    assert np.max(err[-n:]) <= 2.0 * np.max(err[:n]) + 1e-12


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({}, r"needs the fixed step: pass step="),
        ({"step": 0.0}, r"step=0.0 must be a positive finite number"),
        ({"step": float("nan")}, r"step=nan must be a positive finite number"),
        ({"step": "0.1"}, r"step='0.1' must be a positive finite number"),
        ({"step": 0.1, "t_eval": [0, 1]}, r"t_eval is not supported"),
    ],
)
def test_lda_bad_options_are_option_errors(kwargs, pattern):
    mdl = models.chaplygin_sleigh()
    with pytest.raises(fr.OptionError, match=pattern):
        fr.integrate(
            mdl.nonholonomic(), (0, 1), mdl.q0, mdl.u0, params=mdl.param_values, method="lda-midpoint", **kwargs
        )
    with pytest.raises(fr.OptionError, match=r"step=0.1 is the fixed step of method='lda-midpoint'"):
        fr.integrate(mdl.nonholonomic(), (0, 1), mdl.q0, mdl.u0, params=mdl.param_values, step=0.1)


def test_lda_needs_an_autonomous_lagrangian():
    mdl = models.charged_skate(time_dependent=True)
    with pytest.raises(fr.OptionError, match=r"autonomous Lagrangian"):
        fr.integrate(
            mdl.nonholonomic(), (0, 1), mdl.q0, mdl.u0, params=dict(mdl.param_values), method="lda-midpoint", step=0.1
        )


def test_lda_batch_equals_single_runs():
    mdl = models.chaplygin_sleigh()
    nh = mdl.nonholonomic()
    q0 = np.array([[0.0, 0.0, 0.0], [0.3, 1.0, -1.0], [-0.5, 0.2, 0.1]])
    th = q0[:, 0]
    u0 = np.stack([np.array([0.5, -0.2, 1.0]), np.cos(th), np.sin(th)], axis=1)
    b = fr.integrate_batch(nh, (0, 2), q0, u0, params=mdl.param_values, method="lda-midpoint", step=0.05)
    assert b.method == "lda-midpoint" and b.q.shape == (3, 41, 3)
    for j in range(3):
        one = fr.integrate(nh, (0, 2), q0[j], u0[j], params=mdl.param_values, method="lda-midpoint", step=0.05)
        assert np.max(np.abs(one.q - b.q[j])) < 1e-13 and np.max(np.abs(one.u - b.u[j])) < 1e-13
    with pytest.raises(fr.OptionError, match=r"integrate_batch: method='lda-midpoint' needs the fixed step"):
        fr.integrate_batch(nh, (0, 2), q0, u0, params=mdl.param_values, method="lda-midpoint")
    with pytest.raises(fr.OptionError, match=r"max_steps='x' must be a positive integer"):
        fr.integrate(nh, (0, 2), q0[0], u0[0], params=mdl.param_values, method="lda-midpoint", step=0.1, max_steps="x")
