"""The default adapted frame of linear constraints is regular wherever the constraints are (issue 42, part 3).

``LinearConstraints.adapted_frame()`` is ``[X_D; A]``: a basis of D, then the constraint rows. These tests
evaluate its determinant exactly at the special hitch angles of vehicles with trailers, where a generic null
space basis of D degenerates, and check the warning when no candidate basis is regular.
"""

from __future__ import annotations

import itertools
import sys
import warnings
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import frames as fr
from frames.errors import ConstraintError, SingularFrameWarning
from frames.geometry._distribution import _cleared
from frames.strategies import functions_on_Q

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
from compound_angles import car_with_trailers_parts, snakeboard

ANGLES = (0, sp.pi / 2, -sp.pi / 2, sp.pi)


def _trailer(offset: bool, relative: bool = False) -> fr.LinearConstraints:
    """A car (rear axle at (x, y), heading θ) towing a trailer hitched a distance ``b`` behind its axle (``offset``)
    or on it; the trailer's heading is ``θ₁`` (or ``θ + θ₁``, the hitch angle ``θ₁``, when ``relative``)."""
    ch = fr.Chart("x y theta theta1", params="b d")
    _, _, th, t1 = ch.q
    ux, uy, w, w1 = ch.u
    b, d = ch.params
    b = b if offset else 0
    ph, wph = (th + t1, w + w1) if relative else (t1, w1)
    hitch = (ux + b * sp.sin(th) * w, uy - b * sp.cos(th) * w)
    axle = (hitch[0] + d * sp.sin(ph) * wph, hitch[1] - d * sp.cos(ph) * wph)
    rows = [-sp.sin(th) * ux + sp.cos(th) * uy, sp.expand(-sp.sin(ph) * axle[0] + sp.cos(ph) * axle[1])]
    return fr.LinearConstraints(ch, rows)


def _frame(cons: fr.LinearConstraints) -> fr.Frame:
    with warnings.catch_warnings():
        warnings.simplefilter("error", SingularFrameWarning)
        return cons.adapted_frame()


def _value(e: sp.Expr, pt: dict[sp.Symbol, sp.Expr]) -> sp.Expr:
    return sp.simplify(sp.expand(e.xreplace(pt)))  # exact: special angles and rational parameters


def _check_regular(cons: fr.LinearConstraints, F: fr.Frame, pt: dict[sp.Symbol, sp.Expr]) -> None:
    m = F.dim - cons.k
    A = cons.matrix.xreplace(pt).applyfunc(sp.simplify)
    XD = sp.Matrix([list(X.components) for X in F.fields[:m]]).xreplace(pt).applyfunc(sp.simplify)
    assert A.rank() == cons.k, pt
    assert XD.rank() == m, pt  # D's basis spans D there
    assert _value(F.determinant, pt) != 0, pt


def _points(cons: fr.LinearConstraints, headings: dict[sp.Symbol, sp.Expr], hitches: list[sp.Symbol]):
    params = {p: sp.Rational(2 + k, 3 + k) for k, p in enumerate(cons.chart.params)}
    for values in itertools.product(ANGLES, repeat=len(hitches)):
        yield {x: sp.Integer(0) for x in cons.chart.q[:2]} | params | headings | dict(zip(hitches, values))


@pytest.mark.parametrize("heading", [0, sp.pi / 3, sp.pi / 2])
def test_car_with_trailer_on_axle(heading):
    _, cons = car_with_trailers_parts(1)
    F = _frame(cons)
    _, _, th, t1 = cons.chart.q
    for pt in _points(cons, {th: heading}, []):
        for hitch in ANGLES:
            _check_regular(cons, F, pt | {t1: heading + hitch})


@pytest.mark.parametrize("heading", [0, sp.pi / 3, sp.pi / 2])
def test_robot_towing_trailer_relative_hitch_angle(heading):
    cons = _trailer(offset=False, relative=True)
    F = _frame(cons)
    _, _, th, t1 = cons.chart.q
    for pt in _points(cons, {th: heading}, [t1]):
        _check_regular(cons, F, pt)


@pytest.mark.parametrize("relative", [False, True])
def test_car_with_off_axle_trailer_regular_on_straight_configurations(relative):
    cons = _trailer(offset=True, relative=relative)
    _, _, th, t1 = cons.chart.q
    # the generic null space basis (the old default) has rank 1 on every straight configuration
    old = sp.Matrix([_cleared(list(b)) for b in sp.Matrix(cons.matrix).nullspace()])
    straight = {t1: 0} if relative else {t1: th}
    assert old.xreplace(straight).applyfunc(sp.simplify).rank() == 1
    F = _frame(cons)
    for heading in (0, sp.pi / 3, sp.pi / 2, sp.pi):
        for pt in _points(cons, {th: heading}, [t1] if relative else []):
            if not relative:
                for hitch in ANGLES:
                    _check_regular(cons, F, pt | {t1: heading + hitch})
            else:
                _check_regular(cons, F, pt)


def test_cars_with_two_trailers():
    _, cons = car_with_trailers_parts(2)
    F = _frame(cons)
    t1, t2 = cons.chart.q[3:]
    for h1, h2 in itertools.product(ANGLES, repeat=2):
        pt = {q: sp.Integer(0) for q in cons.chart.q[:3]} | {t1: h1, t2: h1 + h2}
        pt |= {p: sp.Rational(2 + k, 3 + k) for k, p in enumerate(cons.chart.params)}
        _check_regular(cons, F, pt)


def test_car_with_six_trailers_basis_of_D():
    """The null space basis of nine coordinates is computed in the ring (SymPy's trees, multiplied out by canon,
    took 35 s): its fields are annihilated by the constraints, and the basis is the one SymPy's elimination gives
    (``tests/algebra/test_nullspace.py`` compares the two up to four trailers)."""
    from frames.algebra.internal import canonical_nullspace

    _, cons = car_with_trailers_parts(6)
    assert canonical_nullspace(cons.matrix) is not None
    D = cons.distribution()
    assert D.rank == 2
    for X in D.fields:
        assert all(fr.algebra.is_zero(e) for e in cons.matrix * X.components)


def test_snakeboard_frame_singular_only_where_the_constraints_are():
    nh = snakeboard()
    cons = fr.LinearConstraints(nh.frame.chart, [list(X.components) for X in nh.frame.fields[nh.m :]])
    F = nh.frame
    _, _, th, _, ph = F.chart.q
    params = {p: sp.Rational(2 + k, 3 + k) for k, p in enumerate(F.chart.params)}
    for t, f in itertools.product(ANGLES, (*ANGLES, sp.pi / 3, sp.pi / 4)):
        pt = {q: sp.Integer(0) for q in F.chart.q} | params | {th: t, ph: f}
        A = cons.matrix.xreplace(pt).applyfunc(sp.simplify)
        if A.rank() == cons.k:  # the wheels not both across the board (φ ≠ ±π/2)
            _check_regular(cons, F, pt)
        else:
            assert f in (sp.pi / 2, -sp.pi / 2)


def test_no_regular_candidate_warns_and_names_the_singular_set():
    # D = the tangent planes of the spheres about 0: no two fields span it on all of R³ ∖ 0 (hairy ball)
    ch = fr.Chart("x y z")
    x, y, z = ch.q
    cons = fr.LinearConstraints(ch, [[x, y, z]])
    with pytest.warns(SingularFrameWarning, match=r"singular where x = 0, for instance at \{x: 0, y: 0, z: 1\}.*frame"):
        F = cons.adapted_frame()
    assert F.determinant.xreplace({x: 0, y: 0, z: 1}) == 0
    assert set(F.singular_set()) == {x, x**2 + y**2 + z**2}  # the second: where the constraint is singular


def test_linearize_about_straight_motion_on_the_default_frame():
    # the car with an off-axle trailer: the old default frame gave nan here (issue 42)
    ch = fr.Chart("x y theta theta1", params="m J d b m_t J_t V")
    x, y, th, t1 = ch.q
    ux, uy, w, w1 = ch.u
    m, J, d, b, mt, Jt, V = ch.params
    hitch = (ux + b * sp.sin(th) * w, uy - b * sp.cos(th) * w)
    axle = (hitch[0] + d * sp.sin(t1) * w1, hitch[1] - d * sp.cos(t1) * w1)
    L = m / 2 * (ux**2 + uy**2) + J / 2 * w**2 + mt / 2 * (axle[0] ** 2 + axle[1] ** 2) + Jt / 2 * w1**2
    rows = [-sp.sin(th) * ux + sp.cos(th) * uy, sp.expand(-sp.sin(t1) * axle[0] + sp.cos(t1) * axle[1])]
    with warnings.catch_warnings():
        warnings.simplefilter("error", SingularFrameWarning)
        nh = fr.NonholonomicSystem.from_constraints(fr.Lagrangian(ch, sp.expand(L)), fr.LinearConstraints(ch, rows))
    lin = fr.linearize(nh, {x: 0, y: 0, th: 0, t1: 0, ux: V, uy: 0, w: 0, w1: 0})
    vals = {m: 1, J: 1, d: 1, b: sp.Rational(1, 2), mt: 1, Jt: 1, V: 1}
    A = sp.Matrix(lin.A).xreplace(vals).applyfunc(sp.simplify)
    assert all(a.is_finite for a in A)
    # the same eigenvalues on a frame chosen by hand: forward speed and turning rate, then the constraint rows
    X1 = fr.VectorField(ch, [sp.cos(th), sp.sin(th), 0, sp.sin(th - t1) / d])
    X2 = fr.VectorField(ch, [0, 0, 1, -b * sp.cos(th - t1) / d])
    cons = fr.LinearConstraints(ch, rows)
    nh2 = fr.NonholonomicSystem(nh.lagrangian, fr.Frame([X1, X2, *cons.complement_fields()]), 2)
    A2 = sp.Matrix(fr.linearize(nh2, {x: 0, y: 0, th: 0, t1: 0, ux: V, uy: 0, w: 0, w1: 0}).A).xreplace(vals)
    lam = sp.symbols("lam")
    assert sp.simplify(A.charpoly(lam).as_expr() - A2.charpoly(lam).as_expr()) == 0


def test_system_file_without_frame_uses_the_regular_default():
    text = """
coordinates = ["x", "y", "theta", "theta1"]
lagrangian = "u_x**2/2 + u_y**2/2 + u_theta**2/2 + u_theta1**2/2"
constraints = ["-sin(theta)*u_x + cos(theta)*u_y",
               "-sin(theta1)*u_x + cos(theta1)*u_y - b*cos(theta - theta1)*u_theta - d*u_theta1"]

[parameters]
b = 0.5
d = 1.0
"""
    with warnings.catch_warnings():
        warnings.simplefilter("error", SingularFrameWarning)
        mdl = fr.loads_model(text)
    _, _, th, t1 = mdl.chart.q
    F = mdl.frame
    params = {mdl.params[p]: sp.Rational(2 + k, 3 + k) for k, p in enumerate(sorted(mdl.params))}
    for heading in (0, sp.pi / 2):
        pt = {q: sp.Integer(0) for q in mdl.chart.q} | params | {th: heading, t1: heading}
        assert _value(F.determinant, pt) != 0


@st.composite
def _constraints(draw):
    n = draw(st.integers(min_value=2, max_value=4))
    k = draw(st.integers(min_value=1, max_value=min(2, n - 1)))
    ch = fr.Chart(" ".join(f"q{i}" for i in range(1, n + 1)))
    rows = [[draw(functions_on_Q(ch, compound=True, max_terms=2)) for _ in range(n)] for _ in range(k)]
    try:
        return fr.LinearConstraints(ch, rows)
    except ConstraintError:  # dependent rows
        return None


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_constraints(), st.lists(st.tuples(*[st.integers(-3, 3)] * 4), min_size=3, max_size=3))
def test_default_frame_regular_where_the_constraints_are_or_warned(cons, points):
    if cons is None:
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        F = cons.adapted_frame()
    if any(issubclass(w.category, SingularFrameWarning) for w in caught):
        return
    A = sp.Matrix(cons.matrix)
    for vals in points:
        pt = {x: sp.Rational(v, 2) for x, v in zip(cons.chart.q, vals)}
        gram = (A * A.T).xreplace(pt).det()
        if abs(sp.N(gram, 50)) < sp.Float("1e-30"):
            continue  # the constraints are singular there
        assert abs(sp.N(F.determinant.xreplace(pt), 50)) > sp.Float("1e-30"), (cons, pt)


def test_constraints_outside_the_exact_ring_keep_the_null_space_basis_without_a_warning():
    ch = fr.Chart("x y z")
    x = ch.q[0]
    cons = fr.LinearConstraints(ch, [[sp.sqrt(1 + x**2), 0, 1]])  # a radical: the exact test does not apply
    with warnings.catch_warnings():
        warnings.simplefilter("error", SingularFrameWarning)
        F = cons.adapted_frame()
    assert F.dim == 3
