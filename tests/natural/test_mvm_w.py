"""``frames/natural/_mvm_w.py``: W from the solvability conditions and from the frame's anholonomy."""

import pytest
import sympy as sp

import frames as fr
from frames.algebra import is_zero
from frames.natural import w_from_coordinates, w_from_frame
from frames.natural._mvm_w import jacobian_and_offset


def test_the_two_constructions_of_w_agree(knife):
    mdl, V = knife
    omegas = [V, *mdl.chart.u[:2]]
    A, B = w_from_coordinates(mdl.chart, omegas), w_from_frame(mdl.chart, omegas)
    assert A.shape == B.shape == (3, 3)
    assert all(is_zero(a - b) for a, b in zip(A, B, strict=True))


def test_holonomic_coordinates_have_no_w():
    ch = fr.Chart("x y")
    ux, uy = ch.u
    assert w_from_coordinates(ch, [ux + uy, ux - uy]).is_zero_matrix


def test_jacobian_and_offset_split_an_affine_quasi_velocity():
    ch = fr.Chart("x y", params="c")
    ux, uy = ch.u
    (c,) = ch.params
    H, off = jacobian_and_offset(ch, [ux + ch.q[1] * uy + c, uy], "test")
    assert H == sp.Matrix([[1, ch.q[1]], [0, 1]]) and list(off) == [c, 0]


def test_a_quasi_velocity_not_affine_in_u_is_refused():
    ch = fr.Chart("x y")
    ux, uy = ch.u
    with pytest.raises(fr.errors.ConstraintError, match="not affine"):
        w_from_coordinates(ch, [ux**2, uy])
    with pytest.raises(fr.errors.ConstraintError):
        w_from_coordinates(ch, [ux, 2 * ux])  # dependent
