"""The bracket flag of a distribution: growth vectors from the literature, at points and generically.

References: Montgomery, *A Tour of Subriemannian Geometries* (2002) — Heisenberg (2,3), Engel (2,3,4),
Martinet (2,3) off and (2,2,3) on the surface y = 0, the rolling ball without slipping or twisting
(2,3,5), §1.4, §2.4, §3.4 and §6.
"""

from __future__ import annotations

import sympy as sp
from hypothesis import given, settings
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

    with pytest.raises(fr.errors.InvalidExpressionError, match="point must give every coordinate"):
        HEISENBERG.growth_vector({x: 0})
    with pytest.raises(fr.errors.ArgumentError, match="point must be a mapping"):
        HEISENBERG.growth_vector([0, 0, 0])
    with pytest.raises(fr.errors.InvalidExpressionError, match=r"point\[x\]: got the string"):
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


# ----------------------------------------------------------------------------- nilpotent approximation
# Bellaïche (1996), Jean (2014) ch. 2: privileged coordinates z (nonholonomic order of z_j at p is
# exactly w_j) and the weight −1 parts X̂_i of the generators written in them.

E4 = fr.Chart("x y z w")
ENGEL = _D(E4, [1, 0, E4.q[1], E4.q[2]], [0, 1, 0, 0])
KNIFE = fr.Distribution(models.knife_edge().frame.fields[:2])


def _order_at(fields, f, sub, upto):
    """Nonholonomic order of f at the point: the shortest word X_I with (X_I f)(p) ≠ 0 (None if > upto)."""
    layer = [f]
    for k in range(upto + 1):
        if any(not fr.is_zero(g.xreplace(sub)) for g in layer):
            return k
        layer = [X(g) for X in fields for g in layer]
    return None


def _is_privileged(D, N):
    sub = dict(N.point)
    return all(_order_at(D.fields, zj, sub, wj) == wj for zj, wj in zip(N.privileged, N.weights, strict=True))


def _homogeneous_of_degree_minus_one(N):
    """δ_t^* X̂ = t^{-1} X̂ with δ_t(z) = (t^{w_1} z_1, …): component j of X̂(δ_t z) is t^{w_j − 1} X̂^j(z)."""
    t = sp.Symbol("t", positive=True)
    dil = N.dilation(t)
    return all(
        sp.expand(c.xreplace(dil) * t**-wj - c / t) == 0
        for X in N.fields
        for c, wj in zip(X.components, N.weights, strict=True)
    )


def _pushes_forward_to(N, D):
    """The inverse map z ↦ x carries X̂_i to X_i: J(z) X̂_i(z) = X_i(x(z)) (exact)."""
    J = sp.Matrix(N.inverse).jacobian(N.coordinates)
    back = dict(zip(D.chart.q, N.inverse, strict=True))
    return all(
        all(fr.is_zero(e) for e in J * sp.Matrix(Xh.components) - sp.Matrix(X.components).xreplace(back))
        for Xh, X in zip(N.fields, D.fields, strict=True)
    )


def _brackets_of_length(fields, k):
    layer = list(fields)
    for _ in range(k - 1):
        layer = [X.bracket(Y) for X in fields for Y in layer]
    return layer


def test_nilpotent_heisenberg_at_the_origin_is_heisenberg():
    N = HEISENBERG.nilpotent_approximation({x: 0, y: 0, z: 0})
    z1, z2, z3 = N.coordinates
    assert N.weights == (1, 1, 2) and N.growth == (2, 3) and N.step == 2
    assert N.privileged == (x, y, z) and N.inverse == (z1, z2, z3)
    assert N.fields == (
        fr.VectorField(N.chart, [1, 0, -z2 / 2]),
        fr.VectorField(N.chart, [0, 1, z1 / 2]),
    )
    assert "weights=(1, 1, 2)" in repr(N) and r"\hat X_{1}" in N._repr_latex_()


def test_nilpotent_engel_weights_1_1_2_3_homogeneous_step_3_growth_2_3_4():
    for p in ({s: 0 for s in E4.q}, dict(zip(E4.q, (1, 2, 3, 4), strict=True))):
        N = ENGEL.nilpotent_approximation(p)
        assert N.weights == (1, 1, 2, 3)
        assert _homogeneous_of_degree_minus_one(N)
        assert _is_privileged(ENGEL, N)
        assert fr.Distribution(N.fields).growth_vector() == (2, 3, 4)
        assert all(B.is_zero() for B in _brackets_of_length(N.fields, 4))  # nilpotent of step 3
        assert not all(B.is_zero() for B in _brackets_of_length(N.fields, 3))
    # at (1, 2, 3, 4) the privileged coordinates need Jean's quadratic correction: z4 = y4 − y1²
    assert N.privileged[3] == E4.q[3] - E4.q[0] ** 2 - E4.q[0] - 2


def test_nilpotent_martinet_off_the_surface_1_1_2_and_on_it_1_1_3():
    """Off Σ = {y = 0} the approximation is Heisenberg; on Σ it is Martinet itself.

    Compared exactly: at (2, 0, 5) the adapted frame is X1, X2, [X2, [X1, X2]] = −∂z, so the
    privileged coordinates are z = (x − 2, y, −(z − 5)) and X̂ = (∂z1 − (z2²/2)∂z3, ∂z2): the
    Martinet fields (∂x + (y²/2)∂z, ∂y) with the sign of z3 fixed by that normalisation.
    """
    off = MARTINET.nilpotent_approximation({x: 0, y: 1, z: 0})
    assert off.weights == (1, 1, 2)
    _z1, z2, _z3 = off.coordinates
    assert off.fields == (fr.VectorField(off.chart, [1, 0, -z2]), fr.VectorField(off.chart, [0, 1, 0]))
    on = MARTINET.nilpotent_approximation({x: 2, y: 0, z: 5})
    assert on.weights == (1, 1, 3) and on.growth == (2, 2, 3)
    assert on.privileged == (x - 2, y, 5 - z)
    assert on.fields == (fr.VectorField(on.chart, [1, 0, -(z2**2) / 2]), fr.VectorField(on.chart, [0, 1, 0]))
    assert _pushes_forward_to(on, MARTINET)  # Martinet is homogeneous in these coordinates
    for N in (off, on):
        assert _is_privileged(MARTINET, N) and _homogeneous_of_degree_minus_one(N)


def test_nilpotent_grushin_where_the_rank_drops():
    """∂x, x∂y on R²: D(p) is a line on x = 0 (weights (1, 2)); elsewhere D = TQ (weights (1, 1))."""
    c2 = fr.Chart("x y")
    a, b = c2.q
    G = _D(c2, [1, 0], [0, a])
    N = G.nilpotent_approximation({a: 0, b: 7})
    assert N.weights == (1, 2) and N.privileged == (a, b - 7)
    assert N.fields == (fr.VectorField(N.chart, [1, 0]), fr.VectorField(N.chart, [0, N.coordinates[0]]))
    assert G.nilpotent_approximation({a: 1, b: 0}).weights == (1, 1)


def test_nilpotent_knife_edge_is_heisenberg():
    """At a generic (symbolic) point: weights (1, 1, 2), [X̂1, X̂2] a non-zero constant field along
    ∂z3 and every longer bracket zero, growth vector (2, 3): the Heisenberg algebra."""
    phi, px, py = models.knife_edge().chart.q
    p0 = sp.symbols("phi0 x0 y0")
    N = KNIFE.nilpotent_approximation(dict(zip((phi, px, py), p0, strict=True)))
    assert N.weights == (1, 1, 2)
    X1, X2 = N.fields
    B = X1.bracket(X2)
    assert list(B.components[:2]) == [0, 0] and B.components[2].is_number and B.components[2] != 0
    assert all(C.is_zero() for C in _brackets_of_length(N.fields, 3))
    assert fr.Distribution(N.fields).growth_vector() == (2, 3)
    assert _is_privileged(KNIFE, N)


def test_nilpotent_rolling_ball_2_3_5():
    c5 = fr.Chart("x y phi theta psi")
    ux, uy, uph, uth, ups = c5.u
    _x, _y, ph, th, _ps = c5.q
    wx = uth * sp.cos(ph) + ups * sp.sin(th) * sp.sin(ph)
    wy = uth * sp.sin(ph) - ups * sp.sin(th) * sp.cos(ph)
    D = fr.LinearConstraints(c5, [ux - wy, uy + wx, uph + ups * sp.cos(th)]).distribution()
    N = D.nilpotent_approximation({s: sp.pi / 3 if s == th else 0 for s in c5.q})
    assert N.weights == (1, 1, 2, 3, 3)
    assert fr.Distribution(N.fields).growth_vector() == (2, 3, 5)
    assert _homogeneous_of_degree_minus_one(N) and _is_privileged(D, N)


_change = {
    "a": st.integers(-3, 3).filter(bool),
    "b": st.integers(-3, 3),
    "c": st.integers(-3, 3),
    "d": st.integers(-3, 3).filter(bool),
    "k": st.integers(0, 2),
}
_POINTS = (  # (D, point, the weights of D there)
    (HEISENBERG, {x: 1, y: 2, z: 3}, (1, 1, 2)),
    (MARTINET, {x: 0, y: 0, z: 0}, (1, 1, 3)),
    (MARTINET, {x: 1, y: 1, z: 0}, (1, 1, 2)),
)


def _changed(D, p, a, b, c, d, k):
    """Y_1 = a X_1 + b x^k X_2, Y_2 = c X_1 + d X_2, or None where that is not invertible at p."""
    X1, X2 = D.fields
    if sp.expand(a * d - b * c * x**k).xreplace(p) == 0:
        return None
    return fr.Distribution([X1 * a + X2 * (b * x**k), X1 * c + X2 * d])


@settings(max_examples=12, deadline=None)
@given(**_change)
def test_nilpotent_weights_are_invariant_under_a_change_of_frame_of_D(a, b, c, d, k):
    assert all(D.nilpotent_approximation(p).weights == w for D, p, w in _POINTS)
    for D, p, weights in _POINTS:
        Y = _changed(D, p, a, b, c, d, k)
        if Y is not None:
            assert Y.nilpotent_approximation(p).weights == weights


@settings(max_examples=12, deadline=None)
@given(**_change)
def test_nilpotent_fields_are_homogeneous_of_degree_minus_one(a, b, c, d, k):
    for D, p, _weights in _POINTS:
        Y = _changed(D, p, a, b, c, d, k)
        if Y is not None:
            N = Y.nilpotent_approximation(p)
            assert _homogeneous_of_degree_minus_one(N) and _is_privileged(Y, N)


_coef = st.integers(-2, 2)


@settings(max_examples=15, deadline=None)
@given(a=_coef, b=_coef, c=_coef, d=_coef, e=_coef, f=_coef, g=_coef)
def test_nilpotent_approximation_of_a_homogeneous_system_is_itself(a, b, c, d, e, f, g):
    """Fields of degree −1 for the weights (1, 1, 2) on R³ or (1, 1, 2, 3) on R⁴, at 0."""
    X, Y, Z, _W = E4.q
    heis = _D(C3, [1, 0, a * y], [0, 1, b * x])
    engel = _D(E4, [1, 0, a * Y, c * Z + d * X * Y + e * Y**2], [0, 1, b * X, f * Z + g * X**2])
    for D, w in ((heis, (1, 1, 2)), (engel, (1, 1, 2, 3))):
        p = {s: 0 for s in D.chart.q}
        if D.growth_vector(p) != tuple(range(2, D.chart.dim + 1)):
            continue
        N = D.nilpotent_approximation(p)
        assert N.weights == w
        assert all(zj.is_polynomial() and sp.Poly(zj, *D.chart.q).is_linear for zj in N.privileged)
        assert _pushes_forward_to(N, D)


@settings(max_examples=10, deadline=None)
@given(
    coeffs=st.lists(st.integers(-2, 2), min_size=6, max_size=6),
    p=st.tuples(st.integers(-1, 1), st.integers(-1, 1), st.integers(-1, 1)),
)
def test_nilpotent_privileged_coordinates_have_order_w_j(coeffs, p):
    """Random quadratic perturbations of Engel at random points: ord_p z_j = w_j (checked by words)."""
    X, Y, Z, _W = E4.q
    c1, c2, c3, c4, c5, c6 = coeffs
    D = _D(E4, [1, 0, Y + c1 * X**2 + c2 * X * Y, Z + c3 * Y**2 + c4 * X * Z], [0, 1, c5 * X**2, c6 * Y * X])
    pt = dict(zip(E4.q, (*p, 0), strict=True))
    if D.growth_vector(pt)[-1] != 4:
        return
    N = D.nilpotent_approximation(pt)
    assert _is_privileged(D, N) and _homogeneous_of_degree_minus_one(N)
    assert fr.Distribution(N.fields).growth_vector({s: 0 for s in N.coordinates}) == N.growth


def test_nilpotent_bad_input_is_a_clear_error():
    import pytest

    origin = {x: 0, y: 0, z: 0}
    with pytest.raises(
        fr.errors.InvalidExpressionError, match=r"nilpotent_approximation: point must give every coordinate"
    ):
        HEISENBERG.nilpotent_approximation({x: 0, y: 0})
    with pytest.raises(fr.errors.InvalidExpressionError, match=r"nilpotent_approximation: point\[x\]: got the string"):
        HEISENBERG.nilpotent_approximation({x: "__import__('os')", y: 0, z: 0})
    with pytest.raises(fr.errors.ArgumentError, match=r"nilpotent_approximation: point must be a mapping"):
        HEISENBERG.nilpotent_approximation([0, 0, 0])
    with pytest.raises(fr.errors.InvalidExpressionError, match=r"nilpotent_approximation: point\[x\]: .* is a float"):
        HEISENBERG.nilpotent_approximation({x: 0.5, y: 0, z: 0})
    with pytest.raises(
        fr.errors.ConstraintError, match=r"nilpotent_approximation: fields: D is not bracket generating"
    ):
        _D(C3, [1, 0, 0], [0, 1, 0]).nilpotent_approximation(origin)
    with pytest.raises(fr.errors.InvalidExpressionError, match=r"nilpotent_approximation: point: .* is not defined"):
        _D(C3, [1, 0, -y / 2], [0, 1, 1 / x]).nilpotent_approximation(origin)
    with pytest.raises(fr.errors.ArgumentError, match=r"nilpotent_approximation: names: .* clash"):
        _D(fr.Chart("z1 z2 z3"), [1, 0, 0], [0, 1, sp.Symbol("z1")]).nilpotent_approximation(
            {"z1": 0, "z2": 0, "z3": 0}
        )
    N = HEISENBERG.nilpotent_approximation(origin)
    with pytest.raises(fr.errors.ArgumentError, match=r"NilpotentApproximation: fields\[0\]: .* not of degree -1"):
        type(N)(N.point, N.weights, N.chart, N.privileged, N.inverse, (N.fields[0] * 2 * N.coordinates[0],))
    with pytest.raises(fr.errors.ArgumentError, match=r"NilpotentApproximation: weights"):
        type(N)(N.point, (2, 1, 1), N.chart, N.privileged, N.inverse, N.fields)
