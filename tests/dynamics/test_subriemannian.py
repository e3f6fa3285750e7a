"""Sub-Riemannian geodesics as vakonomic motions (Montgomery, A Tour of Subriemannian Geometries, §1.4, §3.4)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp

import frames as fr

CH = fr.Chart("x y z")
x, y, z = CH.q
HEIS = [fr.VectorField(CH, [1, 0, -y / 2]), fr.VectorField(CH, [0, 1, x / 2])]
DZ = fr.VectorField(CH, [0, 0, 1])


def test_heisenberg_normal_geodesic_field_is_a_rotation_with_constant_multiplier():
    """With X_3 = ∂z = [X_1, X_2]: v̇^1 = μ v^2, v̇^2 = −μ v^1, μ̇ = 0 (Montgomery §1.4; μ = −p_z)."""
    vk = fr.subriemannian(HEIS, complement=[DZ])
    tf = vk.tangent_field()
    mu = vk.mu[0]
    v1, v2 = vk.frame.v[:2]
    assert sp.simplify(tf.field.Gamma[0] - mu * v2) == 0
    assert sp.simplify(tf.field.Gamma[1] + mu * v1) == 0
    assert tf.A == (0,)


def test_heisenberg_geodesics_are_helices_over_circles_with_the_area_law():
    """Over one period 2π/μ the projection closes on a circle of radius |v|/μ and z gains the enclosed
    area π r² (the isoperimetric/area law of the Heisenberg group)."""
    for complement in ([DZ], None):
        vk = fr.subriemannian(HEIS, complement=complement)
        ode = fr.ode_system(vk)
        mu0 = 2.0 if complement else 4.0  # the default complement X_3 = y∂x − x∂y + 2∂z: μ_3 = 2 μ_z at the origin
        speed = 0.5
        T = 2 * math.pi / 2.0
        tr = fr.integrate(ode, (0, T), [0.0, 0.0, 0.0], [speed, 0.0, 0.0], mu0=[mu0], rtol=1e-11, atol=1e-13)
        xy = tr.q[:, :2]
        r = speed / 2.0
        coef = np.linalg.lstsq(np.c_[xy, np.ones(len(xy))], -(xy**2).sum(axis=1), rcond=None)[0]
        centre = -coef[:2] / 2  # algebraic circle fit x² + y² + D x + E y + F = 0
        np.testing.assert_allclose(np.hypot(*(xy - centre).T), r, atol=1e-8)
        np.testing.assert_allclose(tr.q[-1, :2], [0.0, 0.0], atol=1e-8)
        assert abs(abs(tr.q[-1, 2]) - math.pi * r**2) < 1e-8


def test_martinet_abnormal_is_the_line_field_on_the_surface():
    """D = span{∂x + y²/2 ∂z, ∂y}: Σ = {y = 0}, and the abnormal curves are the lines y = 0, z = const
    (Montgomery §3.4, the strictly abnormal minimiser)."""
    ab = fr.martinet_abnormals([fr.VectorField(CH, [1, 0, y**2 / 2]), fr.VectorField(CH, [0, 1, 0])])
    assert sp.simplify(ab.surface / y) != 0 and sp.solve(ab.surface, y) == [0]
    on = [c.subs(y, 0) for c in ab.direction.components]
    assert on[1] == 0 and on[2] == 0 and on[0] != 0


def test_heisenberg_has_no_martinet_surface():
    ab = fr.martinet_abnormals(HEIS)
    assert ab.surface.is_number and ab.surface != 0


def test_bad_input():
    with pytest.raises(fr.errors.ArgumentError, match="subriemannian: fields"):
        fr.subriemannian(["x"])
    with pytest.raises(fr.errors.RegularityError, match="not positive definite"):
        fr.subriemannian(HEIS, metric=[[1, 0], [0, -1]])
    with pytest.raises(fr.errors.RegularityError, match="not symmetric"):
        fr.subriemannian(HEIS, metric=[[1, 1], [0, 1]])
    with pytest.raises(fr.errors.InvalidExpressionError, match=r"metric\[0,0\]: got the string"):
        fr.subriemannian(HEIS, metric=[["__import__('os')", 0], [0, 1]])
    c4 = fr.Chart("a b c d")
    with pytest.raises(fr.errors.ConstraintError, match="rank-2 distribution on a 3-manifold"):
        fr.martinet_abnormals([fr.VectorField(c4, [1, 0, 0, 0]), fr.VectorField(c4, [0, 1, 0, 0])])
