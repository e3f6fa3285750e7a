"""The bracket flag of a distribution: growth vectors from the literature, at points and generically.

References: Montgomery, *A Tour of Subriemannian Geometries* (2002) — Heisenberg (2,3), Engel (2,3,4),
Martinet (2,3) off and (2,2,3) on the surface y = 0, the rolling ball without slipping or twisting
(2,3,5), §1.4, §2.4, §3.4 and §6.
"""

from __future__ import annotations

import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

import frames as fr
from frames import models

C3 = fr.Chart("x y z")
x, y, z = C3.q


def _D(chart, *rows):
    return fr.Distribution([fr.VectorField(chart, r) for r in rows])


HEISENBERG = _D(C3, [1, 0, -y / 2], [0, 1, x / 2])
MARTINET = _D(C3, [1, 0, y**2 / 2], [0, 1, 0])


def test_heisenberg_growth_2_3():
    assert HEISENBERG.growth_vector() == (2, 3)
    assert HEISENBERG.growth_vector({x: 0, y: 0, z: 0}) == (2, 3)
    assert HEISENBERG.is_bracket_generating()
    assert HEISENBERG.bracket_flag().weights == (1, 1, 2)


def test_engel_growth_2_3_4():
    c4 = fr.Chart("x y z w")
    _x, y4, z4, _w = c4.q
    E = _D(c4, [1, 0, y4, z4], [0, 1, 0, 0])
    assert E.growth_vector() == (2, 3, 4)
    assert E.growth_vector({s: 0 for s in c4.q}) == (2, 3, 4)
    assert E.bracket_flag().weights == (1, 1, 2, 3)


def test_martinet_2_3_off_and_2_2_3_on_the_surface():
    assert MARTINET.growth_vector() == (2, 3)
    assert MARTINET.growth_vector({x: 1, y: 1, z: 0}) == (2, 3)
    on = MARTINET.bracket_flag({x: 0, y: 0, z: 5})
    assert on.growth == (2, 2, 3)
    assert not on.equiregular and on.bracket_generating
    assert MARTINET.bracket_flag({x: 0, y: sp.Rational(1, 3), z: 0}).equiregular


def test_rolling_ball_without_slipping_or_twisting_2_3_5():
    c5 = fr.Chart("x y phi theta psi")
    ux, uy, uph, uth, ups = c5.u
    _x, _y, ph, th, _ps = c5.q
    wx = uth * sp.cos(ph) + ups * sp.sin(th) * sp.sin(ph)  # spatial angular velocity, ZXZ Euler angles
    wy = uth * sp.sin(ph) - ups * sp.sin(th) * sp.cos(ph)
    wz = uph + ups * sp.cos(th)
    D = fr.LinearConstraints(c5, [ux - wy, uy + wx, wz]).distribution()  # unit ball: ẋ = ω_y, ẏ = −ω_x, ω_z = 0
    assert D.growth_vector() == (2, 3, 5)
    assert D.is_bracket_generating()


def test_catalogue_growth_vectors():
    """The knife edge, sleigh and particle are (2,3); the penny and disk (2,3,4) on 4-dim Q. The
    two-wheeled carriage is (2,3,4) on 5-dim Q: not bracket generating, since θ − r(ψ1 − ψ2)/(2l)
    (up to the model's sign convention) is a first integral of D (a holonomic combination)."""
    expect = {
        "knife_edge": (2, 3),
        "chaplygin_sleigh": (2, 3),
        "nonholonomic_particle": (2, 3),
        "rolling_penny": (2, 3, 4),
        "vertical_rolling_disk": (2, 3, 4),
        "two_wheeled_carriage": (2, 3, 4),
    }
    for name, growth in expect.items():
        mdl = getattr(models, name)()
        D = fr.Distribution(mdl.frame.fields[: mdl.m])
        assert D.growth_vector() == growth, name
        assert D.is_bracket_generating() == (growth[-1] == mdl.n), name


def test_integrable_distribution_is_not_bracket_generating():
    D = _D(C3, [1, 0, 0], [0, 1, 0])
    assert D.growth_vector() == (2,)
    assert not D.is_bracket_generating()


def test_bad_point_is_a_clear_error():
    import pytest

    with pytest.raises(fr.InvalidExpressionError, match="point must give every coordinate"):
        HEISENBERG.growth_vector({x: 0})
    with pytest.raises(fr.ArgumentError, match="point must be a mapping"):
        HEISENBERG.growth_vector([0, 0, 0])
    with pytest.raises(fr.InvalidExpressionError, match=r"point\[x\]: got the string"):
        HEISENBERG.growth_vector({x: "__import__('os')", y: 0, z: 0})


@given(
    a=st.integers(-3, 3).filter(bool),
    b=st.integers(-3, 3),
    c=st.integers(-3, 3),
    d=st.integers(-3, 3).filter(bool),
    k=st.integers(0, 2),
)
def test_growth_vector_is_invariant_under_a_change_of_frame_of_D(a, b, c, d, k):
    """Y_1 = a X_1 + b x^k X_2, Y_2 = c X_1 + d X_2 (invertible where a d − b c x^k ≠ 0) spans the same D."""
    for D in (HEISENBERG, MARTINET):
        X1, X2 = D.fields
        if sp.expand(a * d - b * c * x**k) == 0:
            continue
        Y = fr.Distribution([X1 * a + X2 * (b * x**k), X1 * c + X2 * d])
        assert Y.growth_vector() == D.growth_vector()
