"""The one home of each state conversion: ``Chart.in_time`` (q → q(t), u → q̇(t)) and ``Frame.velocities``
(u = v^α X_α)."""

import pytest
import sympy as sp

import frames as fr
from frames.algebra import is_zero
from frames.errors import InvalidExpressionError


def test_in_time_writes_coordinates_velocities_and_extras_as_functions_of_time():
    ch = fr.Chart("x y")
    (x, y), (ux, uy) = ch.q, ch.u
    w = sp.Symbol("w")
    t = sp.Symbol("t")
    sub = ch.in_time(w)
    X, Y = sp.Function("x")(t), sp.Function("y")(t)
    assert sub == {x: X, y: Y, ux: sp.Derivative(X, t), uy: sp.Derivative(Y, t), w: sp.Function("w")(t)}
    tau = sp.Symbol("tau")
    assert fr.Chart("x", time=tau).in_time()[sp.Symbol("x")] == sp.Function("x")(tau)


def test_in_time_rejects_a_non_symbol():
    with pytest.raises(InvalidExpressionError, match=r"Chart\.in_time: extra"):
        fr.Chart("x").in_time("v1")  # type: ignore[arg-type]


def test_velocities_is_the_sum_u_equals_v_alpha_x_alpha():
    ch = fr.Chart("x y th")
    th = ch.q[2]
    rows = [[sp.cos(th), sp.sin(th), 0], [0, 0, 1], [-sp.sin(th), sp.cos(th), 0]]
    F = fr.Frame([fr.VectorField(ch, r) for r in rows])
    v1, v2, v3 = F.v
    assert F.velocities(2) == (v1 * sp.cos(th), v1 * sp.sin(th), v2)
    full = F.velocities()
    assert all(is_zero(a - b) for a, b in zip(full, F.u_in_v, strict=True))
    assert is_zero(full[0] - (v1 * sp.cos(th) - v3 * sp.sin(th)))
    with pytest.raises(InvalidExpressionError, match=r"Frame\.velocities: m"):
        F.velocities(4)
