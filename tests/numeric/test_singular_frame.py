"""Singular is not stiff: a frame that degenerates along the motion stops the integrators with a
:class:`~frames.errors.SingularFrameError` naming the state and the frame (:mod:`frames.numeric._frame`).

A car towing a trailer (hitch angle ``ψ = θ1 − θ``) is written in explicit adapted frames with ``det F = ±cos ψ``:
singular where the hitch passes ±90°, which the motion below does at ``t ≈ 1.52``. In the frame ``vanishing``,
D's first field is ``cos ψ`` times a regular one (the quasi-velocity ``v1 = w / cos ψ`` blows up: the solvers
crawl, and RK45 used to call the system stiff); in the frame ``tilting`` D's basis is regular and a
complement field turns into D (the motion goes through, the sign of ``det F`` changes). The regular frame
(``det F = −1``) integrates the same motion to the end. Work is bounded by ``max_steps``, never by the clock.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest
import sympy as sp

import frames as fr
from frames.errors import DegenerateFrameError, IntegrationError, SingularFrameError, StiffnessError
from frames.numeric._frame import frame_ratio

PARAMS = {"m": 1.0, "J": 0.5, "d": 1.0, "m_t": 1.0, "J_t": 0.2}
Q0 = [0.0, 0.0, 0.0, 0.3]
U0 = [1.0, 0.0, 2.0, -np.sin(0.3)]  # forward speed 1, turning at 2 rad/s: in D (the trailer's wheels roll)
T_CROSS = 1.5195  # where ψ passes −90° (the regular frame's trajectory)
STEPS = 5000  # every refusal below comes within about 600 accepted steps


def car_with_trailer(frame: str) -> fr.NonholonomicSystem:
    ch = fr.Chart("x y theta theta1", params="m J d m_t J_t")
    _, _, th, th1 = ch.q
    u = ch.u
    m, J, d, mt, Jt = ch.params
    vx, vy = u[0] + d * sp.sin(th1) * u[3], u[1] - d * sp.cos(th1) * u[3]  # the trailer's axle
    L = m / 2 * (u[0] ** 2 + u[1] ** 2) + J / 2 * u[2] ** 2 + mt / 2 * (vx**2 + vy**2) + Jt / 2 * u[3] ** 2
    c = sp.cos(th1 - th)
    forward = [sp.cos(th), sp.sin(th), 0, sp.sin(th - th1) / d]  # the car's forward motion, in D
    side = [-sp.sin(th), sp.cos(th), 0, 0]
    if frame == "vanishing":
        X = [[c * f for f in forward], [0, 0, 1, 0], side, [0, 0, 0, 1]]
    elif frame == "tilting":
        X = [forward, [0, 0, 1, 0], [c * side[0], c * side[1], 0, sp.sin(th1 - th)], [0, 0, 0, 1]]
    else:
        X = [forward, [0, 0, 1, 0], side, [0, 0, 0, 1]]
    F = fr.Frame([fr.VectorField(ch, row) for row in X])
    return fr.NonholonomicSystem(fr.Lagrangian(ch, sp.expand(L)), F, 2)


@pytest.fixture(scope="module")
def vanishing() -> fr.NonholonomicSystem:
    return car_with_trailer("vanishing")


@pytest.fixture(scope="module")
def tilting() -> fr.NonholonomicSystem:
    return car_with_trailer("tilting")


@pytest.fixture(scope="module")
def regular() -> fr.NonholonomicSystem:
    return car_with_trailer("regular")


def _hitch(q: np.ndarray) -> float:
    return float(q[3] - q[2])


def _refused_at_the_hitch(err: DegenerateFrameError, tol: float) -> None:
    """The error names the state (t, q), the frame, and a frame to use instead; it is not stiffness."""
    assert isinstance(err, SingularFrameError) and isinstance(err, IntegrationError)
    assert not isinstance(err, StiffnessError)
    assert abs(err.t - T_CROSS) < 0.02
    assert abs(np.cos(_hitch(err.q))) < tol  # at the singular set: hitch angle ±90°
    msg = str(err)
    assert f"t = {err.t:.12g}" in msg and "(x, y, theta, theta1) = [" in msg
    assert "X1 = (" in msg and "X4 = (0, 0, 0, 1)" in msg  # the frame, by its fields
    assert "frame=" in msg and "complement=" in msg  # a frame regular there
    assert "run out of its budget" not in msg  # stopped by the frame check, not at the step budget
    assert np.allclose(err.state[:4], err.q)


@pytest.mark.parametrize("method", ["RK45", "Radau"])
def test_a_vanishing_field_stops_one_trajectory_as_a_singular_frame_not_as_stiff(vanishing, method):
    with pytest.raises(SingularFrameError, match="the adapted frame degenerates") as info:
        fr.integrate(vanishing, (0, 5), Q0, U0, params=PARAMS, method=method, max_steps=STEPS)
    err = info.value
    _refused_at_the_hitch(err, 0.02)
    assert "step has collapsed as the frame degenerates" in str(err)
    assert abs(err.ratio) < 0.01


def test_a_vanishing_field_stops_the_numpy_batch_and_names_the_member(vanishing):
    q0 = [Q0, Q0]
    u0 = [[0.0, 0.0, 0.0, 0.0], U0]  # member 0 at rest, member 1 through the singular set
    with pytest.raises(SingularFrameError, match=r"batch RK45: .*batch member 1") as info:
        fr.integrate(vanishing, (0, 5), q0, u0, params=PARAMS, max_steps=STEPS)
    _refused_at_the_hitch(info.value, 0.02)


@pytest.mark.parametrize("method", ["RK45", "Radau"])
def test_a_tilting_complement_is_located_where_det_f_changes_sign(tilting, method):
    with pytest.raises(SingularFrameError, match="r changes sign over the step") as info:
        fr.integrate(tilting, (0, 5), Q0, U0, params=PARAMS, method=method, max_steps=STEPS)
    _refused_at_the_hitch(info.value, 1e-8)  # located on the dense output


def test_a_tilting_complement_stops_the_numpy_batch_and_the_lda_scheme(tilting):
    with pytest.raises(SingularFrameError, match=r"batch RK45: .*changes sign") as info:
        fr.integrate(tilting, (0, 5), [Q0], [U0], params=PARAMS, max_steps=STEPS)
    _refused_at_the_hitch(info.value, 1e-8)
    with pytest.raises(SingularFrameError, match=r"batch RK4: .*changes sign") as info:
        fr.integrate(tilting, (0, 2), [Q0], [U0], params=PARAMS, method="RK4", n_steps=400)
    _refused_at_the_hitch(info.value, 0.05)  # fixed steps of 0.005: the step's end
    with pytest.raises(SingularFrameError, match=r"lda-midpoint: .*changes sign") as info:
        fr.integrate(tilting, (0, 2), Q0, U0, params=PARAMS, method="lda-midpoint", step=0.01)
    _refused_at_the_hitch(info.value, 0.05)


def test_a_regular_frame_integrates_the_same_motion_through_the_hitch_at_90_degrees(regular):
    for method in ("RK45", "Radau"):
        tr = fr.integrate(regular, (0, 5), Q0, U0, params=PARAMS, method=method, max_steps=STEPS)
        assert tr.t[-1] == 5
        psi = tr.q[:, 3] - tr.q[:, 2]
        assert psi.min() < -np.pi / 2  # the hitch passed −90°
        assert tr.residual.max() < 1e-8
    batch = fr.integrate(regular, (0, 5), [Q0, Q0], [[0.0] * 4, U0], params=PARAMS, max_steps=STEPS)
    assert np.allclose(batch.q[1, -1], tr.q[-1], atol=1e-3)


def test_a_frame_singular_at_the_start_is_refused_at_once(vanishing):
    with pytest.raises(SingularFrameError, match=r"degenerates at t = 0\b"):
        fr.integrate(vanishing, (0, 1), [0.0, 0.0, 0.0, np.pi / 2], [0.0, 0.0, 1.0, 0.0], params=PARAMS)


def test_the_measure_is_the_hadamard_ratio_with_fields_floored_at_their_size():
    R = np.array([[np.cos(0.3), -np.sin(0.3)], [np.sin(0.3), np.cos(0.3)]])
    assert frame_ratio(R, np.zeros(2)) == pytest.approx(1.0)
    assert frame_ratio(R[::-1], np.zeros(2)) == pytest.approx(-1.0)  # signed
    assert frame_ratio(np.diag([1e-9, 1.0]), np.zeros(2)) == pytest.approx(1.0)  # units of one field: no matter
    assert frame_ratio(np.diag([1e-9, 1.0]), np.ones(2)) == pytest.approx(1e-9)  # a field that vanished
    assert frame_ratio(np.array([[1.0, 0.0], [1.0, 1e-7]]), np.zeros(2)) == pytest.approx(1e-7, rel=1e-6)
    assert np.isnan(frame_ratio(np.array([[np.inf, 0.0], [0.0, 1.0]]), np.zeros(2)))


def test_the_error_pickles_with_its_parts():
    err = DegenerateFrameError("RK45: the adapted frame degenerates", 1.5, [1.0, 2.0], q=[1.0], ratio=1e-7)
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is DegenerateFrameError and str(back) == str(err)
    assert back.t == 1.5 and back.ratio == 1e-7 and back.q.tolist() == [1.0] and back.state.tolist() == [1.0, 2.0]
