"""Talamucci: nonlinear constraints, Chetaev equations (52a), vakonomic equations (58), commutation (57).

The paper has no worked example; the constant-speed particle in a vertical plane,
g = ẋ² + ẏ² − c², is solved end to end (extraction notes (N19), (N20)).
"""

import pytest
import sympy as sp

import frames as fr
from frames.algebra import is_zero


@pytest.fixture(scope="module")
def speed():
    m, g, c = sp.symbols("m g c", positive=True)
    ch = fr.Chart("x y", params=[m, g, c])
    ux, uy = ch.u
    L = fr.Lagrangian(ch, m * (ux**2 + uy**2) / 2 - m * g * ch.q[1])
    return fr.ChetaevSystem(L, [ux**2 + uy**2 - c**2]), (m, g, c)


def test_chetaev_equations_constant_speed(speed):
    S, (m, g, c) = speed
    ux, uy = S.chart.u
    ax, ay = S.acc
    lam = S.lam[0]
    # (52a): m ẍ = 2λ ẋ, m ÿ + m g = 2λ ẏ
    assert [sp.expand(r) for r in S.residuals()] == [m * ax - 2 * lam * ux, m * ay + m * g - 2 * lam * uy]
    acc, lm = S.solve(on_constraint=True)
    assert is_zero(lm[0] - m * g * uy / (2 * c**2))
    assert is_zero(acc[0] - g * ux * uy / c**2)
    # ÿ = −g ẋ²/c² on the constraint (the library's normal form uses ẏ)
    assert is_zero((acc[1] + g * ux**2 / c**2).subs(ux**2, c**2 - uy**2))


def test_vakonomic_equations_constant_speed(speed):
    S, (m, g, c) = speed
    ux, uy = S.chart.u
    K = S.vakonomic()
    lam = K.lam[0]
    qdd, ld = K.solve()
    # Talamucci (58) with μ^T = −λ: (m + 2μ)ẍ = −2μ̇ẋ, μ̇ = −m g ẏ/(2c²)
    on = {ux**2: c**2 - uy**2}
    assert is_zero((ld[0] - m * g * uy / (2 * c**2)).subs(ux**2, c**2 - uy**2))
    assert is_zero(sp.together(qdd[0] - m * g * ux * uy / (c**2 * (m - 2 * lam))).subs(on))
    # vakonomic − Chetaev = (−2gμẋẏ, 2gμẋ²)/(c²(m + 2μ)) with μ = −λ: zero iff λ = 0
    acc, _ = S.solve()
    d0 = sp.together(qdd[0] - acc[0]).subs(ux**2, c**2 - uy**2)
    assert is_zero(d0 - 2 * g * lam * ux * uy / (c**2 * (m - 2 * lam)))
    assert is_zero(d0.subs(lam, 0))


def test_constant_speed_closed_form_chetaev_motion(speed):
    """ẋ = c sech(kt), ẏ = −c tanh(kt), k = g/c: the Chetaev motion from the top of the arc."""
    S, (_m, g, c) = speed
    t = sp.Symbol("t")
    k = g / c
    vx, vy = c / sp.cosh(k * t), -c * sp.tanh(k * t)
    acc, _ = S.solve()
    ux, uy = S.chart.u
    sub = {ux: vx, uy: vy}
    assert sp.simplify(vx**2 + vy**2 - c**2) == 0
    assert sp.simplify(sp.diff(vx, t) - acc[0].xreplace(sub)) == 0
    assert sp.simplify(sp.diff(vy, t) - acc[1].xreplace(sub)) == 0


def test_commutation_condition_57(speed):
    S, (_m, g, _c) = speed
    ux, uy = S.chart.u
    ax, ay = S.acc
    # identically in the accelerations: ẋÿ − ẍẏ = 0 required (acceleration parallel to velocity)
    ident = S.commutation_test()
    assert not ident.holds and is_zero(ident.minors[0][0] - 4 * (ux * ay - uy * ax))
    # along the Chetaev motions: −4 g ẋ ≠ 0 (fails unless ẋ = 0)
    along = S.commutation_test("chetaev")
    assert not along.holds and is_zero(along.minors[0][0] + 4 * g * ux)
    # without gravity the Chetaev motions are straight lines and (57) holds along them
    _x, _y = S.chart.q
    S0 = fr.ChetaevSystem(fr.Lagrangian(S.chart, S.lagrangian.expr.subs(g, 0)), S.constraints)
    assert S0.commutation_test("chetaev").holds


def test_commutation_fails_for_linear_nonholonomic_and_holds_for_exact():
    ch = fr.Chart("x y z")
    x, y, z = ch.q
    ux, uy, uz = ch.u
    L = fr.Lagrangian(ch, (ux**2 + uy**2 + uz**2) / 2)
    # nonholonomic particle g = ż − y ẋ: D g = (−ẏ, ẋ, 0) is not a multiple of ∂g/∂q̇ = (−y, 0, 1)
    nh = fr.ChetaevSystem(L, [uz - y * ux])
    assert [sp.expand(e) for e in nh.lagrangian_derivative(uz - y * ux)] == [-uy, ux, 0]
    assert not nh.commutation_test().holds
    # exact constraint g = d/dt f: D g ≡ 0, (57) holds with ϱ = 0
    f = x * y**2 + sp.sin(z)
    gex = ch.total_derivative(f)
    ex = fr.ChetaevSystem(L, [gex])
    assert all(e == 0 for e in ex.lagrangian_derivative(gex))
    assert ex.commutation_test().holds
    # integrating factor g = ḟ/(1 + x²): D g ≠ 0 but (57) holds on g = 0
    gif = gex / (1 + x**2)
    assert ex.commutation_test().holds and fr.ChetaevSystem(L, [gif]).commutation_test().holds
    assert any(not is_zero(e) for e in fr.ChetaevSystem(L, [gif]).lagrangian_derivative(gif))


def test_chetaev_equals_vakonomic_for_exact_constraint():
    """(L18)-(L21), (T58) for g = ḟ: Kozlov's equations are Chetaev's with λ_Chetaev = λ̇_Kozlov."""
    ch = fr.Chart("x y z")
    x, y, z = ch.q
    ux, uy, uz = ch.u
    L = fr.Lagrangian(ch, (ux**2 + uy**2 + uz**2) / 2 - z)
    gex = ch.total_derivative(x * y + z)
    S = fr.ChetaevSystem(L, [gex])
    acc, lam = S.solve()
    qdd, ld = S.vakonomic().solve()
    assert all(is_zero(a - b) for a, b in zip(acc, qdd))
    assert is_zero(lam[0] - ld[0])


def test_chetaev_linear_constraint_matches_nonholonomic_system():
    """(52a) with a linear constraint = Proposition 2 in the adapted frame (λ the same)."""
    from frames import models

    mdl = models.nonholonomic_particle()
    S = fr.ChetaevSystem(mdl.lagrangian, [mdl.frame.v_in_u[2]])
    acc, lam = S.solve()
    nh = mdl.nonholonomic()
    F = mdl.frame
    on_c = {u: F.u_in_v[j].xreplace(nh.on_C) for j, u in enumerate(mdl.chart.u)}
    assert all(is_zero((a - b).xreplace(on_c)) for a, b in zip(acc, nh.accelerations()))
    assert is_zero(lam[0].xreplace(on_c) - nh.multipliers()[0])
