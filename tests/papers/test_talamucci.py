"""Talamucci: nonlinear constraints, Chetaev equations (52a), vakonomic equations (58), commutation (57).

The paper has no worked example; the constant-speed particle in a vertical plane,
g = ẋ² + ẏ² − c², is solved end to end (extraction notes (N19), (N20)).
"""

import pytest
import sympy as sp

import frames as fr
from frames.algebra import is_zero
from frames.algebra.internal import canon
from frames.natural import DisplacementClasses, compare_chetaev_with_vakonomic


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
    ax, ay = S.qdd
    lam = S.lam[0]
    # (52a): m ẍ = 2λ ẋ, m ÿ + m g = 2λ ẏ
    assert [sp.expand(r) for r in S.residuals()] == [m * ax - 2 * lam * ux, m * ay + m * g - 2 * lam * uy]
    acc, lm = S.accelerations(on_constraint=True), S.multipliers(on_constraint=True)
    assert is_zero(lm[0] - m * g * uy / (2 * c**2))
    assert is_zero(acc[0] - g * ux * uy / c**2)
    # ÿ = −g ẋ²/c² on the constraint (the library's normal form uses ẏ)
    assert is_zero((acc[1] + g * ux**2 / c**2).subs(ux**2, c**2 - uy**2))


def test_vakonomic_equations_constant_speed(speed):
    S, (m, g, c) = speed
    ux, uy = S.chart.u
    K = S.vakonomic()
    lam = K.lam[0]
    qdd, ld = K.accelerations(), K.rates()
    # Talamucci (58) with μ^T = −λ: (m + 2μ)ẍ = −2μ̇ẋ, μ̇ = −m g ẏ/(2c²)
    on = {ux**2: c**2 - uy**2}
    assert is_zero((ld[0] - m * g * uy / (2 * c**2)).subs(ux**2, c**2 - uy**2))
    assert is_zero(sp.together(qdd[0] - m * g * ux * uy / (c**2 * (m - 2 * lam))).subs(on))
    # vakonomic − Chetaev = (−2gμẋẏ, 2gμẋ²)/(c²(m + 2μ)) with μ = −λ: zero iff λ = 0
    acc = S.accelerations()
    d0 = sp.together(qdd[0] - acc[0]).subs(ux**2, c**2 - uy**2)
    assert is_zero(d0 - 2 * g * lam * ux * uy / (c**2 * (m - 2 * lam)))
    assert is_zero(d0.subs(lam, 0))


def test_constant_speed_closed_form_chetaev_motion(speed):
    """ẋ = c sech(kt), ẏ = −c tanh(kt), k = g/c: the Chetaev motion from the top of the arc."""
    S, (_m, g, c) = speed
    t = sp.Symbol("t")
    k = g / c
    vx, vy = c / sp.cosh(k * t), -c * sp.tanh(k * t)
    acc = S.accelerations()
    ux, uy = S.chart.u
    sub = {ux: vx, uy: vy}
    assert sp.simplify(vx**2 + vy**2 - c**2) == 0
    assert sp.simplify(sp.diff(vx, t) - acc[0].xreplace(sub)) == 0
    assert sp.simplify(sp.diff(vy, t) - acc[1].xreplace(sub)) == 0


def test_commutation_condition_57(speed):
    S, (_m, g, _c) = speed
    ux, uy = S.chart.u
    ax, ay = S.qdd
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
    acc, lam = S.accelerations(), S.multipliers()
    qdd, ld = S.vakonomic().accelerations(), S.vakonomic().rates()
    assert all(is_zero(a - b) for a, b in zip(acc, qdd))
    assert is_zero(lam[0] - ld[0])


def test_chetaev_linear_constraint_matches_nonholonomic_system():
    """(52a) with a linear constraint = Proposition 2 in the adapted frame (λ the same)."""
    from frames import models

    mdl = models.nonholonomic_particle()
    S = fr.ChetaevSystem(mdl.lagrangian, [mdl.frame.v_in_u[2]])
    acc, lam = S.accelerations(), S.multipliers()
    nh = mdl.nonholonomic()
    F = mdl.frame
    on_c = {u: F.u_in_v[j].xreplace(nh.on_C) for j, u in enumerate(mdl.chart.u)}
    assert all(is_zero((a - b).xreplace(on_c)) for a, b in zip(acc, nh.accelerations()))
    assert is_zero(lam[0].xreplace(on_c) - nh.multipliers()[0])


# ====================================================================== Propositions 1–4, (60)–(66)
# The library decides each proposition's condition (DisplacementClasses, compare_chetaev_with_vakonomic);
# the tests check, by solving both systems of equations, that the Chetaev (A) and vakonomic (B)
# accelerations coincide for every μ exactly when the condition holds.
from frames.natural import compare_mvm_with_chetaev  # noqa: E402


def _speed(gravity=True):
    m, g, c = sp.symbols("m g c", positive=True)
    ch = fr.Chart("x y", params=[m, g, c])
    ux, uy = ch.u
    L = fr.Lagrangian(ch, m * (ux**2 + uy**2) / 2 - (m * g * ch.q[1] if gravity else 0))
    return fr.ChetaevSystem(L, [ux**2 + uy**2 - c**2]), (m, g, c)


def _space(constraint, potential=0, time=False):
    ch = fr.Chart("x y z", time=time)
    L = fr.Lagrangian(ch, sum(u**2 for u in ch.u) / 2 - potential(ch) if potential else sum(u**2 for u in ch.u) / 2)
    return fr.ChetaevSystem(L, [constraint(ch)])


def _rank_one_omega(S):
    """Ω = γᵀ(γγᵀ)⁻¹ D g: makes D_1 g = 0 (62), the nonlinear analogue of the MVM's solvability (34)."""
    G = sp.Matrix(S.kozlov.jacobian())
    Dg = sp.Matrix([list(S.lagrangian_derivative(g)) for g in S.constraints])
    return (G.T * (G * G.T).inv() * Dg).applyfunc(sp.cancel)


def _cases():
    """(name, system, Ω, expected) for Proposition 3: condition ⇔ the motions coincide."""
    Sg, (_m, g, c) = _speed()
    ux = Sg.chart.u[0]
    k = -g * ux / c**2
    S0, _ = _speed(gravity=False)
    particle = _space(lambda ch: ch.u[2] - ch.q[1] * ch.u[0])
    W = fr.ModifiedVakonomic(particle.lagrangian, particle.constraints, [particle.chart.u[0], particle.chart.u[1]]).W
    exact = _space(lambda ch: ch.total_derivative(ch.q[0] * ch.q[1] + ch.q[2]), potential=lambda ch: ch.q[2])
    intf = _space(lambda ch: ch.total_derivative(ch.q[0] * ch.q[1] ** 2 + sp.sin(ch.q[2])) / (1 + ch.q[0] ** 2))
    # the paper's affine class g = ℓ(q, t)·q̇ + p(q, t) (remark after Proposition 4)
    affine = _space(lambda ch: ch.u[2] - ch.q[1] * ch.u[0] - ch.t * ch.q[0], time=True)
    return [
        ("speed-omega0", Sg, None, False),
        ("speed-skew-reconciling", Sg, [[0, k], [-k, 0]], True),
        ("speed-skew-constant", Sg, [[0, 1], [-1, 0]], False),
        ("speed-rank-one-solvability", Sg, _rank_one_omega(Sg), True),
        ("speed-no-gravity-omega0", S0, None, True),
        ("linear-omega0", particle, None, False),
        ("linear-omega-W-of-MVM", particle, W, True),
        ("affine-rheonomic-omega0", affine, None, False),
        ("exact-omega0", exact, None, True),
        ("integrating-factor-omega0", intf, None, True),
    ]


CASES = _cases()


@pytest.mark.parametrize(("name", "S", "omega", "expected"), CASES, ids=[c[0] for c in CASES])
def test_proposition3_condition_iff_chetaev_equals_vakonomic(name, S, omega, expected):
    r"""Proposition 3: (52a) ≡ (52b) iff −D_1 g_ν = ρ_νσ ∂g_σ/∂q̇ on g = 0 (along the Chetaev motions)."""
    res = compare_chetaev_with_vakonomic(S, omega)
    d = DisplacementClasses(S, omega=omega)
    diff = d.acceleration_difference()
    assert res.holds is expected
    assert all(is_zero(x) for x in diff) is expected, diff
    if expected:
        # (52b) = (52a) with λ_σ = μ_ν ρ_νσ − μ̇_σ, along the Chetaev motions
        acc, _ = d.solve_A()
        sub = dict(zip(S.qdd, acc, strict=True)) | dict(zip(S.lam, res.multipliers, strict=True))
        for a, b in zip(d.residuals_A(), d.residuals_B(), strict=True):
            assert is_zero(S.on_constraint(canon(a.xreplace(sub) - b.xreplace(sub))))
    else:
        assert res.rho is None and res.multipliers is None


def test_proposition3_with_zero_omega_is_57():
    """Ω = 0: the condition is (57); Proposition 2 on (43) is Proposition 4 (= commutation_test)."""
    for _name, S, omega, _exp in CASES:
        if omega is not None:
            continue
        d = DisplacementClasses(S)
        p1, p2 = d.compatibility(), d.commutation()
        ct = S.commutation_test("chetaev")
        assert p1.holds == p2.holds == ct.holds
        # P_ν = −D g_ν, the rows of (57), minors equal up to sign
        assert all(is_zero(a + b) for a, b in zip(p1.minors[0], ct.minors[0]))


def test_D1_is_62_and_the_rank_one_omega_solves_it():
    S, (_m, g, _c) = _speed()
    Om = _rank_one_omega(S)
    assert all(is_zero(x) for x in S.lagrangian_derivative_1(S.constraints[0], Om))
    ux, uy = S.chart.u
    ax, ay = S.qdd
    k = g  # any function of (q, u, t) and the parameters
    # D_1 g = D g − Σ_h ω_{h,j} ∂g/∂q̇_h = (2ẍ + 2k ẏ, 2ÿ − 2k ẋ) for Ω = [[0, k], [−k, 0]]
    assert [sp.expand(e) for e in S.lagrangian_derivative_1(S.constraints[0], [[0, k], [-k, 0]])] == [
        2 * ax + 2 * k * uy,
        2 * ay - 2 * k * ux,
    ]


def test_proposition1_condition_16_and_its_extension():
    """Proposition 1: with (16) α = γ and P_ν ∈ span α, (B) is (A) with λ_σ = μ_ν ρ_νσ − μ̇_σ.

    The library decides the exact condition: P_ν and γ_ν in the span of α (γ = 2α, i.e. the Chetaev
    displacements of g and the vakonomic ones of 2g, violates (16) literally and still coincides);
    γ outside the span breaks the equivalence."""
    S, (_m, g, c) = _speed()
    ux, uy = S.chart.u
    k = -g * ux / c**2
    Om = [[0, k], [-k, 0]]
    alpha = sp.Matrix([[2 * ux, 2 * uy]])
    for gamma, beta, c16, holds in (
        (alpha, [[0, 0]], True, True),
        (2 * alpha, [[0, 0]], False, True),
        (alpha + sp.Matrix([[0, 1]]), [[0, 0]], False, False),
    ):
        d = DisplacementClasses(S, alpha=alpha, beta=beta, gamma=gamma, omega=Om)
        r = d.compatibility()
        assert (r.alpha_equals_gamma, r.holds) == (c16, holds)
        assert all(is_zero(x) for x in d.acceleration_difference()) is holds
        if holds:
            acc, _ = d.solve_A()
            sub = dict(zip(S.qdd, acc, strict=True)) | dict(zip(S.lam, r.multipliers, strict=True))
            assert all(
                is_zero(S.on_constraint(canon(a.xreplace(sub) - b.xreplace(sub))))
                for a, b in zip(d.residuals_A(), d.residuals_B(), strict=True)
            )
    assert is_zero(
        DisplacementClasses(S, gamma=2 * alpha, omega=Om).compatibility().multipliers[0] + 2 * sp.Symbol("mudot1")
    )


def test_proposition2_19_iff_20_when_both_classes_hold():
    """Proposition 2: with (16) and both classes in force, γ_ν·Ω δq = 0 (19) iff β_ν − α̇_ν ∈ span α (20)."""
    Sg, (_m, g, c) = _speed()
    k = -g * Sg.chart.u[0] / c**2
    S0, _ = _speed(gravity=False)
    exact = _space(lambda ch: ch.total_derivative(ch.q[0] * ch.q[1] + ch.q[2]), potential=lambda ch: ch.q[2])
    gam = sp.Matrix(exact.kozlov.jacobian())
    w = sp.Matrix([1, exact.chart.q[0], 0])
    particle = _space(lambda ch: ch.u[2] - ch.q[1] * ch.u[0])
    W = fr.ModifiedVakonomic(particle.lagrangian, particle.constraints, [particle.chart.u[0], particle.chart.u[1]]).W
    seen = set()
    for S, Om, both in (
        (S0, None, True),
        (Sg, [[0, k], [-k, 0]], False),
        (Sg, _rank_one_omega(Sg), False),
        (exact, None, True),
        (exact, w * gam, True),  # Ωᵀγ = (γ·w) γ ∈ span γ
        (particle, W, False),
    ):
        d = DisplacementClasses(S, omega=Om)
        assert d.compatibility().holds  # both classes compatible
        p2, c19 = d.commutation(), d.transpositional_condition()
        assert p2.holds == c19.holds == both
        seen.add(both)
    assert seen == {True, False}


def test_transpositional_relation_54():
    r"""(54): δ^{(v)}g − d/dt δ^{(c)}g = Σ ∂g/∂q̇_j (δq̇_j − d/dt δq_j) − Σ D^{(q_j)}g δq_j, for any δq(t), δq̇(t)."""
    S, _ = _speed()
    t = sp.Symbol("t")
    ch = S.chart
    qs = [sp.Function(f"q{j}")(t) for j in range(2)]
    dq = [sp.Function(f"dq{j}")(t) for j in range(2)]
    dqd = [sp.Function(f"dqdot{j}")(t) for j in range(2)]
    curve = {**dict(zip(ch.q, qs)), **dict(zip(ch.u, [sp.diff(x, t) for x in qs]))}
    curve |= dict(zip(S.qdd, [sp.diff(x, t, 2) for x in qs]))
    g = S.constraints[0]
    gq = [sp.diff(g, x).xreplace(curve) for x in ch.q]
    gu = [sp.diff(g, x).xreplace(curve) for x in ch.u]
    lhs = sum(gq[j] * dq[j] + gu[j] * dqd[j] for j in range(2)) - sp.diff(sum(gu[j] * dq[j] for j in range(2)), t)
    Dg = [e.xreplace(curve) for e in S.lagrangian_derivative(g)]
    rhs = sum(gu[j] * (dqd[j] - sp.diff(dq[j], t)) for j in range(2)) - sum(Dg[j] * dq[j] for j in range(2))
    assert sp.expand(lhs - rhs) == 0


def test_mvm_comparison_60_66_coin_and_skate():
    """(60)–(66): Ω = W gives D_1 g_ν = 0 singly (65); (60) is the MVM (42a); (64) p_h ω_{h,j} = 0 on C holds
    exactly when the MVM is the Chetaev system with λ_Chetaev = λ̇ (same accelerations and multipliers)."""
    coin = fr.models.rolling_coin_incline()
    R = coin.params["R"]
    th = coin.chart.q[3]
    ux, uy, uph, uth = coin.chart.u
    sk = fr.models.charged_skate()
    q3 = sk.chart.q[2]
    u1, u2, u3 = sk.chart.u
    s, c = sp.sin(q3), sp.cos(q3)
    for mvm, expected in (
        (
            fr.ModifiedVakonomic(coin.lagrangian, [ux - R * sp.sin(th) * uph, uy - R * sp.cos(th) * uph], [uph, uth]),
            True,
        ),
        (fr.ModifiedVakonomic(sk.lagrangian, [s * u1 - c * u2], [u3, c * u1 + s * u2]), False),  # Case A
    ):
        r = compare_mvm_with_chetaev(mvm)
        assert r.d1_constraints.is_zero_matrix
        assert all(is_zero(x) for x in r.mvm_identity)
        assert r.momentum_condition is expected
        assert r.momentum_condition == mvm.momentum_condition()  # (64) is Pastore's Corollary 1
        S = fr.ChetaevSystem(mvm.lagrangian, mvm.constraints)
        acc, lam = S.accelerations(), S.multipliers()
        qdd, lamd = mvm.accelerations(), mvm.rates()
        same = all(is_zero(mvm.on_constraint(a - b)) for a, b in [*zip(acc, qdd), *zip(lam, lamd)])
        assert same is expected
