"""Trajectory like scipy's result: dense output, events, solver options, status.

The knife edge rolling freely from ``q0 = 0`` with ``u0 = (1/2, 1, 0)`` has the closed-form motion
``φ = t/2``, ``x = 2 sin(t/2)``, ``y = 2(1 − cos(t/2))``, ``u_x = cos(t/2)``, so the event times checked
below are known exactly: ``x = 1/2`` at ``t = 2 arcsin(1/4)`` (upwards) and ``2π − 2 arcsin(1/4)``
(downwards), ``u_x = 0`` at ``t = π``.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from scipy.optimize import brentq

import frames as fr
from frames import models

KE = models.knife_edge()
NH = KE.nonholonomic()
P = dict(KE.param_values)
Q0 = [0.0, 0.0, 0.0]
U0 = [0.5, 1.0, 0.0]
A = 2 * math.asin(0.25)  # x = 1/2 upwards
B = 2 * math.pi - A  # x = 1/2 downwards


def x_half(t, q, u):
    return q[1] - 0.5


def run(t_span=(0.0, 10.0), **kw):
    """Integrate the knife edge; scipy methods at ``rtol=1e-11`` unless told (errors ~1e-10 against 1e-8 checks)."""
    if kw.get("method", "RK45") != "lda-midpoint" and kw.get("backend", "numpy") == "numpy":
        kw.setdefault("rtol", 1e-11)
    return fr.integrate(NH, t_span, Q0, U0, params=P, **kw)


def event(fn, terminal=None, direction=None):
    """A fresh copy of ``fn`` carrying solve_ivp's attributes."""

    def ev(t, q, u):
        return fn(t, q, u)

    ev.__name__ = fn.__name__
    if terminal is not None:
        ev.terminal = terminal
    if direction is not None:
        ev.direction = direction
    return ev


# ----------------------------------------------------------------------------- dense output
def test_dense_output_reproduces_the_samples_and_an_independent_run_off_the_grid():
    t_eval = np.linspace(0, 10, 41)
    tr = run(t_eval=t_eval, dense_output=True)
    assert isinstance(tr.sol, fr.numeric._trajectory.DenseOutput)
    assert (tr.sol.t_min, tr.sol.t_max) == (0.0, 10.0)
    np.testing.assert_allclose(tr.sol(t_eval), tr.state, rtol=0, atol=1e-8)
    np.testing.assert_allclose(tr.sol(t_eval[7]), tr.state[7], rtol=0, atol=1e-8)
    q, u = tr.sol.natural(t_eval)
    np.testing.assert_allclose(q, tr.q, rtol=0, atol=1e-8)
    np.testing.assert_allclose(u, tr.u, rtol=0, atol=1e-8)
    ts = 3.14159 * 1.2345  # not a sample, not a step end
    other = run((0.0, ts))
    np.testing.assert_allclose(tr.sol(ts), other.state[-1], rtol=0, atol=1e-8)
    qs, us = tr.sol.natural(ts)
    np.testing.assert_allclose(qs, [ts / 2, 2 * math.sin(ts / 2), 2 * (1 - math.cos(ts / 2))], rtol=0, atol=1e-8)
    np.testing.assert_allclose(us, other.u[-1], rtol=0, atol=1e-8)


def test_dense_output_is_off_by_default_and_does_not_extrapolate():
    assert run((0.0, 1.0)).sol is None
    tr = run((0.0, 1.0), dense_output=True)
    with pytest.raises(fr.errors.ArgumentError, match=r"sol: t = 1.5 outside the integrated interval \[0.0, 1.0\]"):
        tr.sol(1.5)
    with pytest.raises(fr.errors.ArgumentError, match=r"sol: t must be finite"):
        tr.sol(math.nan)


def test_dense_output_of_an_implicit_method_and_a_backward_run():
    tr = run((0.0, 2.0), method="Radau", dense_output=True)
    np.testing.assert_allclose(tr.sol(tr.t), tr.state, rtol=0, atol=1e-12)
    back = fr.integrate(NH, (2.0, 0.0), tr.q[-1], tr.u[-1], params=P, dense_output=True)
    np.testing.assert_allclose(back.sol(1.0), tr.sol(1.0), rtol=0, atol=1e-8)


# ----------------------------------------------------------------------------- events
def test_event_times_are_the_exact_crossings_and_the_roots_of_the_dense_output():
    tr = run(events=x_half, dense_output=True)
    assert tr.status == 0 and len(tr.t_events) == 1
    te = tr.t_events[0]
    np.testing.assert_allclose(te, [A, B], rtol=0, atol=1e-8)
    for k, (lo, hi) in enumerate(((0.1, 1.0), (5.0, 6.0))):
        root = brentq(lambda s: tr.sol.natural(s)[0][1] - 0.5, lo, hi, xtol=1e-14)
        assert abs(te[k] - root) < 1e-8
    ye = tr.y_events[0]
    assert ye.shape == (2, 6)  # rows (q, u)
    np.testing.assert_allclose(ye[:, 1], 0.5, rtol=0, atol=1e-10)
    np.testing.assert_allclose(ye[:, 3:], np.stack(tr.sol.natural(te)[1]), rtol=0, atol=1e-12)
    assert not ye.flags.writeable and not te.flags.writeable


def test_events_see_natural_velocities_not_the_internal_state():
    def ux_zero(t, q, u):
        return u[1]

    for form in ("reduced", "multiplier"):
        tr = run(form=form, events=ux_zero)
        np.testing.assert_allclose(tr.t_events[0], [math.pi, 3 * math.pi], rtol=0, atol=1e-8)


def test_a_terminal_event_stops_the_run_at_its_time_with_status_1():
    tr = run(events=event(x_half, terminal=True), dense_output=True)
    assert tr.status == 1 and tr.message == "A termination event occurred."
    assert tr.t[-1] == tr.t_events[0][0]
    assert abs(tr.t[-1] - A) < 1e-8
    assert abs(tr.q[-1, 1] - 0.5) < 1e-10
    assert tr.sol.t_max == tr.t[-1]
    two = run(events=event(x_half, terminal=2))
    assert two.status == 1 and abs(two.t[-1] - B) < 1e-8 and len(two.t_events[0]) == 2
    sampled = run(events=event(x_half, terminal=True), t_eval=np.linspace(0, 10, 11))
    np.testing.assert_array_equal(sampled.t, [0.0])  # the samples stop before the event (solve_ivp)
    none = run(events=event(x_half, terminal=True), t_eval=[5.0, 10.0])
    assert none.status == 1 and len(none) == 0 and abs(none.t_events[0][0] - A) < 1e-8
    assert "N=0" in repr(none) and ("t", "[]") in none._summary_rows()


def test_event_direction_selects_the_crossings():
    up = run(events=event(x_half, direction=1))
    down = run(events=event(x_half, direction=-1.0))
    np.testing.assert_allclose(up.t_events[0], [A], rtol=0, atol=1e-8)
    np.testing.assert_allclose(down.t_events[0], [B], rtol=0, atol=1e-8)
    both = run(events=[event(x_half, direction=1), event(x_half, direction=-1, terminal=True)])
    assert both.status == 1 and abs(both.t[-1] - B) < 1e-8
    assert [len(te) for te in both.t_events] == [1, 1]


def test_an_event_that_fails_is_an_integration_error_naming_it():
    def boom(t, q, u):
        if t > 1:
            raise ZeroDivisionError("no")
        return 1.0

    with pytest.raises(
        fr.errors.IntegrationError, match=r"events\[1\] \(boom\) raised ZeroDivisionError at t = "
    ) as info:
        run(events=[x_half, boom])
    assert info.value.t > 1 and info.value.state is not None

    def vector(t, q, u):
        return q

    with pytest.raises(fr.errors.IntegrationError, match=r"events\[0\] \(vector\) returned .*one finite real number"):
        run(events=vector)


# ----------------------------------------------------------------------------- solver options, status
def test_solver_options_reach_the_solver():
    base = run((0.0, 2.0))
    tiny = run((0.0, 2.0), solver_options={"first_step": 1e-7})
    assert tiny.info["solver_options"] == {"first_step": 1e-7}
    assert tiny.info["nfev"] > base.info["nfev"]  # the step has to grow from 1e-7
    np.testing.assert_allclose(tiny.q[-1], base.q[-1], rtol=0, atol=1e-8)
    lsoda = run((0.0, 2.0), method="LSODA", solver_options={"min_step": 0.0})
    np.testing.assert_allclose(lsoda.q[-1], base.q[-1], rtol=0, atol=1e-7)


def test_status_and_message_of_every_path():
    tr = run((0.0, 1.0))
    assert (tr.status, tr.message) == (0, "The solver successfully reached the end of the integration interval.")
    assert tr.t_events is None and tr.y_events is None
    assert ("status", "0") in tr._summary_rows()
    lda = run((0.0, 1.0), method="lda-midpoint", step=0.1)
    assert lda.status == 0 and "lda-midpoint" in lda.message and lda.sol is None and lda.t_events is None
    with pytest.raises(fr.errors.OptionError, match=r"dense_output=True needs one of scipy's methods"):
        run((0.0, 1.0), method="lda-midpoint", step=0.1, dense_output=True)


@pytest.mark.slow  # the first jitted call compiles the kernels: about 6 s per process
def test_status_and_message_of_the_numba_backend():
    pytest.importorskip("numba")
    nb = run((0.0, 1.0), backend="numba")
    assert nb.status == 0 and "numba" in nb.message and nb.sol is None and nb.t_events is None
    with pytest.raises(fr.errors.OptionError, match=r"events need one of scipy's methods.*backend='numba'"):
        run((0.0, 1.0), backend="numba", events=x_half)


def test_trajectory_stays_frozen_with_identity_equality():
    tr = run((0.0, 1.0), dense_output=True, events=x_half)
    with pytest.raises(dataclasses.FrozenInstanceError):
        tr.sol = None
    assert tr == tr and tr != run((0.0, 1.0), dense_output=True, events=x_half)
    assert isinstance(hash(tr), int)
    tb = fr.integrate(NH, (0.0, 1.0), [Q0], [U0], params=P, progress=False)
    assert tb[0].sol is None and tb[0].status == 0


# ----------------------------------------------------------------------------- batch progress
def test_batch_progress_bar_only_when_asked(capfd):
    q0, u0 = [Q0, Q0], [U0, U0]
    quiet = fr.integrate(NH, (0.0, 1.0), q0, u0, params=P, progress=False)
    assert capfd.readouterr().err == ""
    loud = fr.integrate(NH, (0.0, 1.0), q0, u0, params=P, progress=True)
    err = capfd.readouterr().err
    assert "integrate" in err and "100%" in err
    np.testing.assert_array_equal(loud.state, quiet.state)
    fr.integrate(NH, (0.0, 1.0), q0, u0, params=P, method="RK4", n_steps=20, progress=True)
    assert "100%" in capfd.readouterr().err
    fr.integrate(NH, (0.0, 1.0), q0, u0, params=P, method="lda-midpoint", step=0.25, progress=True)
    err = capfd.readouterr().err
    assert "2/2" in err and "member" in err
    fr.integrate(NH, (0.0, 1.0), q0, u0, params=P)  # None: stderr is not a terminal here
    assert capfd.readouterr().err == ""
