r"""Routh's rolling disc: upright rolling at spin Ω and its critical spin, exactly, by frames' own linearisation.

The closed form is derived here by hand, independently of frames. A body of revolution with rim radius ``r``,
mass ``m``, moment ``A`` about a diameter and ``C`` about its axis rolls upright along a straight line at spin
``Ω`` (speed ``rΩ``). Perturb it by a small lean θ and a small yaw rate ψ̇. The contact point stays below the
centre, so the friction has no moment about the vertical through the centre to first order. The spin stays
``Ω`` to first order. Then:

* Yaw (Euler's equation about the vertical). The spin angular momentum ``CΩ`` along the axis tilts with the
  lean, so the vertical component of angular momentum is ``A ψ̇ + CΩ θ``, and it is constant:
  ``A ψ̈ = −C Ω θ̇``.
* Lean (moments about the horizontal line of contact, the disc's direction of travel). Gravity gives
  ``m g r θ``. Turning at rate ψ̇ gives a gyroscopic moment ``C Ω ψ̇``. The centre, at height r, carries the
  centripetal force of the turn, ``m (rΩ) ψ̇``, and its moment is ``m r² Ω ψ̇``. So
  ``(A + m r²) θ̈ = m g r θ + (C + m r²) Ω ψ̇``.

Eliminating ψ̇ (``ψ̇ = −(CΩ/A) θ`` plus a constant) gives
``(A + m r²) θ̈ = (m g r − C (C + m r²) Ω²/A) θ``. With the lean angle, the yaw rate, the lean rate and the
spin as the state, the characteristic polynomial is

``s² (s² − (m g r − C (C + m r²) Ω²/A)/(A + m r²))``,

and upright rolling is (marginally) stable exactly when ``Ω² > A m g r / (C (C + m r²))``. For the uniform thin
disc (``A = m r²/4``, ``C = m r²/2``) this is ``Ω² > g/(3r)``. The signs of the gyroscopic terms depend on the
orientation conventions. The polynomial does not, since Ω enters it squared.

A second, independent check: SymPy's ``KanesMethod.linearize`` of SymPy's own rolling disc.
"""

import numpy as np
import pytest
import sympy as sp
from _sympy_systems import rolling_disc

import frames as fr
from frames.algebra import is_zero
from frames.dynamics import relative_equilibria

S = sp.Symbol("s")
OMEGA = sp.Symbol("Omega")


def _body_of_revolution():
    """The disc with general moments A (a diameter) and C (the axis), built from its constraints."""
    m, r, g, A, C = sp.symbols("m r g A C", positive=True)
    ch = fr.Chart("x y psi theta phi", params=[m, r, g, A, C])
    _x, _y, psi, th, _ph = ch.q
    ux, uy, ups, uth, uph = ch.u
    # the centre at (x + r sin ψ sin θ, y − r cos ψ sin θ, r cos θ), differentiated by hand
    Gx = ux + r * (sp.cos(psi) * sp.sin(th) * ups + sp.sin(psi) * sp.cos(th) * uth)
    Gy = uy + r * (sp.sin(psi) * sp.sin(th) * ups - sp.cos(psi) * sp.cos(th) * uth)
    Gz = -r * sp.sin(th) * uth
    T = m * (Gx**2 + Gy**2 + Gz**2) / 2 + A * (uth**2 + sp.cos(th) ** 2 * ups**2) / 2
    T += C * (sp.sin(th) * ups + uph) ** 2 / 2
    L = fr.Lagrangian(ch, T - m * g * r * sp.cos(th))
    cons = fr.LinearConstraints(ch, [ux - r * sp.cos(psi) * uph, uy - r * sp.sin(psi) * uph])
    return fr.NonholonomicSystem.from_constraints(L, cons), (m, r, g, A, C)


def _upright(nh, r):
    x, y, psi, th, ph = nh.lagrangian.chart.q
    ux, uy, ups, uth, uph = nh.lagrangian.chart.u
    return {x: 0, y: 0, psi: 0, th: 0, ph: 0, ux: r * OMEGA, uy: 0, ups: 0, uth: 0, uph: OMEGA}


def _closed_form(m, r, g, A, C):
    """The hand-derived characteristic polynomial and critical spin (module docstring)."""
    k = (m * g * r - C * (C + m * r**2) * OMEGA**2 / A) / (A + m * r**2)
    return S**2 * (S**2 - k), A * m * g * r / (C * (C + m * r**2))


def test_upright_rolling_of_a_body_of_revolution_has_the_hand_derived_characteristic_polynomial():
    """frames' A about upright rolling (the position and the heading and spin angles removed as ignorable) has
    the characteristic polynomial derived by hand, exactly, for general A and C; the critical spin follows."""
    nh, (m, r, g, A, C) = _body_of_revolution()
    lin = fr.linearize(nh, _upright(nh, r))
    assert {s.name for s in lin.removed} == {"x", "y", "psi", "phi"}
    poly, crit = _closed_form(m, r, g, A, C)
    assert is_zero(sp.expand(lin.A.charpoly(S).as_expr() - poly))
    # the nonzero eigenvalues are purely imaginary exactly when their square, s² = k, is negative
    k = sp.Poly(lin.A.charpoly(S).as_expr(), S).coeff_monomial(S**2) * -1
    (om2,) = sp.solve(k, OMEGA**2)
    assert is_zero(om2 - crit)
    assert not is_zero(om2 - crit / 2)  # the test can fail


def _kane_disc(m, r, g, A, C):
    """SymPy's own rolling disc (its test suite's: yaw, lean, spin; speeds in the lean frame), under gravity."""
    d = rolling_disc(m, r, g, A, C)
    d.KM.kanes_equations()
    u2, u4 = d.u[1], d.u[3]  # spin about the axle; the contact point runs along N.x
    xs = [*d.q, *d.u]
    op = {x: 0 for x in xs} | {u2: OMEGA, u4: r * OMEGA} | {x.diff(): 0 for x in xs}
    return d.KM.linearize(op_point=op, A_and_B=True, simplify=False)[0]


def test_sympys_kanes_method_linearize_agrees():
    """SymPy's ``KanesMethod.linearize`` of its own disc (8 states: five coordinates, three speeds) has the
    characteristic polynomial ``s⁴`` times frames' (the four removed coordinates add ``s⁴``), exactly."""
    nh, (m, r, g, A, C) = _body_of_revolution()
    ours = fr.linearize(nh, _upright(nh, r)).A.charpoly(S).as_expr()
    theirs = _kane_disc(m, r, g, A, C).charpoly(S).as_expr()
    assert is_zero(sp.cancel(theirs - S**4 * ours))


def test_the_uniform_disc_of_the_catalogue_is_stable_upright_above_omega_squared_g_over_3r():
    mdl = fr.models.rolling_disc()
    m, r, g = (mdl.params[k] for k in "m r g".split())
    nh = mdl.nonholonomic()
    lin = fr.linearize(nh, _upright(nh, r))
    poly, crit = _closed_form(m, r, g, m * r**2 / 4, m * r**2 / 2)
    assert is_zero(sp.expand(lin.A.charpoly(S).as_expr() - poly))
    assert is_zero(crit - g / (3 * r))
    # numerically: unstable below, marginal (purely imaginary lean mode) above, the change at sqrt(g/3r)
    vals = {"m": 1.0, "r": 0.5, "g": 9.81}
    exact = float(sp.sqrt(crit).subs({g: 9.81, r: 0.5}))
    assert lin.stability(vals | {OMEGA: 0.9 * exact}) == "unstable"
    assert lin.stability(vals | {OMEGA: 1.1 * exact}) == "marginal"
    (crit_num,) = lin.critical_values(OMEGA, np.linspace(0.5, 5, 10), vals)  # unstable -> marginal
    assert abs(crit_num - exact) < 1e-10
    assert np.allclose(lin.critical_values(OMEGA, np.linspace(-5, 5, 11), vals), [-exact, exact], atol=1e-10)
    eig = lin.sweep(OMEGA, [1.1 * exact], vals)[0]
    np.testing.assert_allclose(np.real(eig), 0.0, atol=1e-12)


def test_the_catalogue_disc_equals_the_body_of_revolution_built_from_its_constraints():
    """The registry model and the ``from_constraints`` build have the same field (the uniform disc's moments)."""
    mdl = fr.models.rolling_disc()
    nh, (m, r, g, A, C) = _body_of_revolution()
    sub = {A: m * r**2 / 4, C: m * r**2 / 2}
    names = {s.name: s for s in mdl.nonholonomic().lagrangian.chart.params}
    ren = {m: names["m"], r: names["r"], g: names["g"]}
    G1 = mdl.nonholonomic().field().Gamma
    G2 = nh.field().Gamma
    v1, v2 = mdl.frame.v, nh.frame.v
    # both frames: v1 = ψ̇, v2 = θ̇, v3 = φ̇ on D (checked through the natural velocities)
    for a in range(3):
        e = G2[a].xreplace(sub).xreplace(ren).xreplace(dict(zip(v2, v1, strict=False)))
        e = e.xreplace({q2: q1 for q2, q1 in zip(nh.lagrangian.chart.q, mdl.chart.q, strict=True)})
        assert is_zero(G1[a] - e), a


@pytest.fixture(scope="module")
def disc_families():
    mdl = fr.models.rolling_disc()
    return mdl, relative_equilibria(mdl.nonholonomic())


def test_relative_equilibria_of_the_disc_are_upright_rolling_and_the_steady_circles(disc_families):
    """Upright rolling at any spin v3 (and its upside-down mirror θ = π), and the two-parameter family of steady
    circular motions at lean θ and turning rate v1: ``4 g sin θ + 5 r v1² sin θ cos θ + 6 r v1 v3 cos θ = 0``."""
    mdl, fams = disc_families
    th = mdl.chart.q[3]
    v1, v2, v3 = mdl.frame.v[:3]
    r, g = mdl.params["r"], mdl.params["g"]
    upright = [f for f in fams if f.free == (v3,)]
    assert {f.solution[th] for f in upright} == {0, sp.pi}
    assert all(f.solution[v1] == 0 and f.solution[v2] == 0 for f in upright)
    (circles,) = [f for f in fams if len(f.free) == 2]
    assert set(circles.free) == {th, v1} and circles.solution[v2] == 0
    steady = 4 * g * sp.sin(th) + 5 * r * v1**2 * sp.sin(th) * sp.cos(th) + 6 * r * v1 * v3 * sp.cos(th)
    assert is_zero(steady.xreplace({v3: circles.solution[v3]}))
    assert len(fams) == 3


def test_a_family_is_a_point_for_linearize(disc_families):
    """``family.at`` gives natural coordinates and velocities in D; linearize accepts them (it checks that the
    kept rates vanish), for upright rolling at spin Ω and for a steady circle at symbolic lean and turning rate."""
    mdl, fams = disc_families
    nh = mdl.nonholonomic()
    r = mdl.params["r"]
    up = next(f for f in fams if f.solution[mdl.chart.q[3]] == 0 and len(f.free) == 1)
    at = up.at({"v3": OMEGA})
    assert at == _upright(nh, r) | {}
    lin = fr.linearize(nh, at)
    assert is_zero(lin.A.charpoly(S).as_expr() - S**2 * (S**2 - 4 * mdl.params["g"] / (5 * r) + 12 * OMEGA**2 / 5))
    circles = next(f for f in fams if len(f.free) == 2)
    lin = fr.linearize(nh, circles.at(removed={"psi": sp.Rational(1, 3)}))
    assert lin.A.shape == (4, 4)
    with pytest.raises(fr.errors.ArgumentError, match="not one of"):
        up.at({"theta": 1})
