"""``frames/natural/_chetaev.py``: Chetaev's method for constraints nonlinear in the velocities."""

import pytest
import sympy as sp
from _natural_protocol import check_protocol

import frames as fr
from frames.algebra import is_zero
from frames.algebra.internal import canon
from frames.natural._chetaev import span_minors


def test_chetaev_accelerations_are_the_nonholonomic_ones_for_a_linear_constraint(knife):
    mdl, V = knife
    S = fr.ChetaevSystem(mdl.lagrangian, [V])
    acc = S.accelerations(on_constraint=True)
    assert acc.shape == (3, 1)
    nh = mdl.nonholonomic()
    on_c = {mdl.chart.u[2]: sp.solve(V, mdl.chart.u[2])[0]}
    assert all(is_zero((a - b).xreplace(on_c)) for a, b in zip(acc, nh.accelerations(), strict=True))
    assert len(S.multipliers()) == 1


def test_chetaev_answers_the_protocol_with_multipliers(knife):
    mdl, V = knife
    S = fr.ChetaevSystem(mdl.lagrangian, [V])
    check_protocol(S, mdl, None)
    assert len(S.multipliers()) == 1


def test_a_constant_speed_keeps_the_speed():
    """``u_x² + u_y² = c²`` under gravity: the accelerations are tangent to the constraint."""
    m, g, c = sp.symbols("m g c", positive=True)
    ch = fr.Chart("x y", params=[m, g, c])
    ux, uy = ch.u
    S = fr.ChetaevSystem(fr.Lagrangian(ch, m * (ux**2 + uy**2) / 2 - m * g * ch.q[1]), [ux**2 + uy**2 - c**2])
    ax, ay = S.accelerations(on_constraint=True)
    assert is_zero(canon((ux * ax + uy * ay).xreplace({ux: sp.sqrt(c**2 - uy**2)})))


def test_span_minors_vanish_exactly_on_the_row_space():
    x = sp.Symbol("x")
    J = sp.Matrix([[1, x, 0]])
    inside, outside = span_minors(J, [[2, 2 * x, 0], [0, 0, 1]], canon)
    assert all(is_zero(e) for e in inside)
    assert not all(is_zero(e) for e in outside)


def test_a_transpositional_matrix_of_the_wrong_shape_is_refused(knife):
    mdl, V = knife
    with pytest.raises(fr.errors.FramesError):
        fr.natural.DisplacementClasses(fr.ChetaevSystem(mdl.lagrangian, [V]), omega=[[0]])
