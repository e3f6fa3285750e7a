"""Loads as a SymPy user writes them (``PointForce``, ``BodyTorque``) against KanesMethod's forcelist (issue 44)."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
import sympy as sp
from _robot_trailer import frames_and_kane, robot_trailer_frames, robot_trailer_kane
from _sympy_systems import rolling_disc
from sympy.physics.mechanics import ReferenceFrame

import frames as fr
from frames.algebra import is_zero
from frames.errors import ArgumentError, FramesError, InvalidExpressionError


@pytest.fixture(scope="module")
def trailer():
    return robot_trailer_frames(), robot_trailer_kane()


def test_robot_with_trailer_accelerations_equal_kanes_method(trailer):
    """Drive force, yaw torque and drag on both axles: frames' natural q̈ = Kane's, to 1e-12, at seeded states."""
    nh, KM = trailer
    ch = nh.frame.chart
    acc = nh.accelerations()
    rng = random.Random(44)
    for _ in range(4):
        vals = {p.name: rng.uniform(0.5, 2.0) for p in ch.params}
        vals |= {"x": rng.uniform(-1, 1), "y": rng.uniform(-1, 1), "theta": rng.uniform(-3, 3)}
        vals["phi"] = rng.uniform(-1.4, 1.4)
        fwd, w = rng.uniform(-2, 2), rng.uniform(-2, 2)
        mine, kane = frames_and_kane(acc, ch, KM, vals, fwd, w)
        assert np.max(np.abs(mine - kane)) <= 1e-12 * max(1.0, np.max(np.abs(kane)))
        assert np.max(np.abs(kane)) > 1e-3


def test_position_and_velocity_forms_give_the_same_one_form():
    a = robot_trailer_frames(velocity_form=True).forces
    b = robot_trailer_frames(velocity_form=False).forces
    assert a is not None and b is not None
    assert all(is_zero(x - y) for x, y in zip(a, b, strict=True))


def test_damped_disc_torque_equals_from_mechanics_forces():
    """The torque −c ω on SymPy's rolling disc: BodyTorque's one-form = from_mechanics' generalised forces, exactly."""
    r, m, g, c = sp.symbols("r m g c", positive=True)
    d = rolling_disc(m, r, g, loads=lambda d: [(d.D, -m * g * d.N.z), (d.R, -c * d.R.ang_vel_in(d.N))])
    imp = fr.app.mechanics_import(d.KM)
    q1, q2, q3 = d.q[:3]
    N = ReferenceFrame("N")  # the disc's angular velocity from its orientation alone, in q̇
    Y = N.orientnew("Y", "Axis", [q1, N.z])
    L = Y.orientnew("L", "Axis", [q2, Y.x])
    R = L.orientnew("R", "Axis", [q3, L.y])
    w = [e.xreplace(dict(imp.names)) for e in R.ang_vel_in(N).to_matrix(N)]
    ch = imp.chart
    cs = imp.params["c"]
    mine = fr.NonholonomicSystem(imp.lagrangian, imp.frame, imp.m, forces=[fr.BodyTorque(w, [-cs * x for x in w])])
    assert mine.forces is not None and imp.forces is not None
    assert all(is_zero(x - y) for x, y in zip(mine.forces, imp.forces, strict=True))
    assert len(mine.forces) == ch.dim


def test_loads_mixed_with_the_one_form_components():
    ch = fr.Chart("x y", params="k F")
    x, y = ch.q
    ux, uy = ch.u
    k, F = ch.params
    L = fr.Lagrangian(ch, (ux**2 + uy**2) / 2)
    push = fr.PointForce([F, 0], position=[x, y])
    nh = fr.NonholonomicSystem.from_constraints(L, fr.LinearConstraints(ch, [uy - x * ux]), forces=[push, -k * ux, 0])
    assert nh.forces == (F - k * ux, 0)
    one = fr.NonholonomicSystem.from_constraints(L, fr.LinearConstraints(ch, [uy - x * ux]), forces=push)
    assert one.forces == (F, 0)


def test_loads_are_immutable_values():
    ch = fr.Chart("x y")
    a = fr.PointForce([1, 2], position=list(ch.q))
    b = fr.PointForce([1, 2], position=list(ch.q))
    assert a == b and hash(a) == hash(b) and a != fr.PointForce([1, 3], position=list(ch.q))
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.force = (sp.S.One,)  # type: ignore[misc]


BAD = [
    (lambda q, u: fr.PointForce([1, 0], position=[q[0], 0], velocity=[u[0], 0]), ArgumentError, "exactly one"),
    (lambda q, u: fr.PointForce([1, 0]), ArgumentError, "exactly one"),
    (lambda q, u: fr.PointForce([1, 0, 0], position=[q[0], 0]), InvalidExpressionError, "2"),
    (lambda q, u: fr.PointForce([1, 0, 0, 0], position=[q[0], 0, 0, 0]), InvalidExpressionError, "1 to 3"),
    (lambda q, u: fr.PointForce("F", position=[q[0]]), ArgumentError, "vector"),
    (lambda q, u: fr.PointForce(["F"], position=[q[0]]), FramesError, "force"),
    (lambda q, u: fr.BodyTorque([u[0]], [1, 2]), InvalidExpressionError, "torque 2"),
]


@pytest.mark.parametrize("make, kind, words", BAD)
def test_malformed_loads_are_refused(make, kind, words):
    ch = fr.Chart("x y")
    with pytest.raises(kind, match=words):
        make(ch.q, ch.u)


def test_loads_checked_on_the_chart():
    ch = fr.Chart("x y")
    x, _y = ch.q
    ux, _ = ch.u
    L = fr.Lagrangian(ch, ux**2 / 2)
    cons = fr.LinearConstraints(ch, [ch.u[1] - x * ux])
    with pytest.raises(InvalidExpressionError, match=r"loads\)\[0\]: PointForce: position\[0\].*fibre"):
        fr.NonholonomicSystem.from_constraints(L, cons, forces=[fr.PointForce([1], position=[ux])])
    with pytest.raises(InvalidExpressionError, match=r"force\[0\].*\['z'\]"):
        fr.NonholonomicSystem.from_constraints(L, cons, forces=[fr.PointForce([sp.Symbol("z")], position=[x])])
    with pytest.raises(InvalidExpressionError, match="besides the loads"):
        fr.NonholonomicSystem.from_constraints(L, cons, forces=[fr.PointForce([1], position=[x]), 1])
