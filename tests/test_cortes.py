"""Cortés, de León, Martín de Diego & Martínez (2003), section 6: the comparison algorithm.

Momenta: in an adapted frame whose complement consists of coordinate fields ∂/∂q^a, the
library's multiplier is μ_a = ∂L/∂q̇^a − p_a ([C] (3.3)-(3.5)); CortesComparison works with p.
"""

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import frames as fr
from frames import models
from frames import strategies as fst
from frames.algebra import is_zero, tidy


# ---------------------------------------------------------------- Example 6.6
@pytest.fixture(scope="module")
def penny():
    mdl = models.rolling_penny()
    return mdl, fr.CortesComparison(fr.VakonomicSystem(mdl.lagrangian, mdl.frame, mdl.m))


def test_penny_model_is_the_papers(penny):
    mdl, _ = penny
    _x, _y, _th, ph = mdl.chart.q
    ux, uy, uth, uph = mdl.chart.u
    assert sp.expand(mdl.lagrangian.expr - (ux**2 + uy**2 + uth**2 + uph**2) / 2) == 0
    # constraints ẋ = θ̇ cos φ, ẏ = θ̇ sin φ: the coframe rows a = 3, 4
    assert [mdl.frame.v_in_u[a] for a in (2, 3)] == [ux - sp.cos(ph) * uth, uy - sp.sin(ph) * uth]


def test_penny_g_functions_and_S1(penny):
    mdl, cc = penny
    _x, _y, _th, ph = mdl.chart.q
    v1, v2 = mdl.frame.v[:2]
    px, py = cc.p
    F = px * sp.sin(ph) - py * sp.cos(ph)
    g = cc.g()
    assert is_zero(g[0] + v2 * F) and is_zero(g[1] - v1 * F)  # g_θ = −φ̇F, g_φ = θ̇F
    assert all(e == 0 for e in cc.difference_identity())  # (N6): C̄(q̈_vk − q̈_nh) = g


def test_penny_final_submanifolds(penny):
    mdl, cc = penny
    _x, _y, _th, ph = mdl.chart.q
    v1, v2 = mdl.frame.v[:2]
    px, py = cc.p
    F = px * sp.sin(ph) - py * sp.cos(ph)
    # the algorithm from the branch {F = 0} of S_1: the defect is X_vk(F) = φ̇ (p_x cos φ + p_y sin φ)
    st0 = cc.step(fr.Candidate((F,), (px,)))
    assert st0.in_S1 and not st0.final
    assert is_zero(st0.defects[0] - (v2 * (px * sp.cos(ph) + py * sp.sin(ph))).xreplace(st0.parametrisation))
    # human choices inside {defect = 0}: φ̇ = 0, or p_x cos φ + p_y sin φ = 0
    C1 = cc.step(fr.Candidate((v2, F), (v2, px)))
    C2 = cc.step(fr.Candidate((px, py), (px, py)))
    C3 = cc.step(fr.Candidate((v1, v2), (v1, v2)))
    assert C1.final and C2.final and C3.final
    # The paper prints C_f1 = {φ̇ = 0}: it is not contained in S_1 (erratum CdLMM-2)
    Cf1_printed = cc.step(fr.Candidate((v2,), (v2,)))
    assert not Cf1_printed.in_S1
    # The paper prints C_f2 = {2θ̇ = p_x cos φ + p_y sin φ} and "p_x = 2θ̇ cos φ, p_y = 2θ̇ sin φ".
    # Those points lie in S_1 but X_vk is not tangent: p is conserved ((C3.4)) while 2θ̇ cos φ is not,
    # X_vk(p_x − 2θ̇ cos φ) = 2θ̇φ̇ sin φ. The library's C_f2 is {p_x = p_y = 0}: μ = (θ̇cosφ, θ̇sinφ) = π,
    # the printed values are its image under p ↦ 2π − p (sign slip of (2.4), erratum CdLMM-3).
    printed = cc.step(fr.Candidate((px - 2 * v1 * sp.cos(ph), py - 2 * v1 * sp.sin(ph)), (px, py)))
    assert printed.in_S1 and not printed.final
    assert is_zero(printed.defects[0] - 2 * v1 * v2 * sp.sin(ph))
    mu_on_C2 = [tidy(cc.mu_of_p[mu].xreplace({px: 0, py: 0})) for mu in cc.vk.mu]
    assert mu_on_C2 == [v1 * sp.cos(ph), v1 * sp.sin(ph)]
    # the Bloch–Crouch multipliers hold with the printed (2.4) (L − λΦ, Φ = Ψ − q̇ = −v):
    # λ^(2.4) = p − ∂L/∂q̇. Computed independently from L on D (u = v^α X_α) at p = 0, it must be −μ:
    F_ = mdl.frame
    u_on_D = {uj: sum(F_.fields[a].components[j] * F_.v[a] for a in range(mdl.m)) for j, uj in enumerate(mdl.chart.u)}
    ux, uy = mdl.chart.u[:2]
    lam = [(0 - sp.diff(mdl.lagrangian.expr, w)).xreplace(u_on_D) for w in (ux, uy)]
    assert all(is_zero(la + mu) for la, mu in zip(lam, mu_on_C2, strict=True))
    assert is_zero(lam[0] + v1 * sp.cos(ph)) and is_zero(lam[1] + v1 * sp.sin(ph))


def test_penny_run_with_choices(penny):
    mdl, cc = penny
    _x, _y, _th, ph = mdl.chart.q
    _v1, v2 = mdl.frame.v[:2]
    px, py = cc.p
    F = px * sp.sin(ph) - py * sp.cos(ph)
    hist = cc.run(fr.Candidate((F,), (px,)), choose=lambda s: fr.Candidate((F, v2), (px, v2)))
    assert [s.final for s in hist] == [False, True]


# ---------------------------------------------------------------- Example 6.7
def _robot(expr_subs=None):
    mdl = models.two_wheeled_carriage()
    ch = mdl.chart
    L = mdl.lagrangian if expr_subs is None else fr.Lagrangian(ch, mdl.lagrangian.expr.subs(expr_subs))
    # [C]'s frame: D fields, then ∂x, ∂y, ∂θ (dependent coordinates)
    F = fr.Frame(list(mdl.frame.fields[:2]) + [fr.VectorField.coordinate(ch, i) for i in (2, 3, 4)])
    return mdl, fr.CortesComparison(fr.VakonomicSystem(L, F, 2))


@pytest.mark.slow
def test_robot_S1_and_final_submanifolds_l_zero_and_special_l():
    mdl, cc = _robot()
    m, m0, l, J, J2, R, c = (mdl.params[k] for k in ("m", "m0", "l", "J", "J2", "R", "c"))
    th = mdl.chart.q[4]
    v1, v2 = cc.vk.frame.v[:2]
    px, py, _pth = cc.p
    K2 = m0 * l * R**2 / (2 * c)
    F = px * sp.sin(th) - py * sp.cos(th) - K2 / R * (v1 - v2)
    g = cc.g()
    assert is_zero(g[0] - R**2 / (2 * c) * v2 * F) and is_zero(g[1] + R**2 / (2 * c) * v1 * F)
    # additional C_f3 = {F = 0, G = 0}
    P = R**2 * (J + m * c**2) / (4 * c**2) + J2
    Q = R**2 * (J - m * c**2) / (4 * c**2)
    G = px * sp.cos(th) + py * sp.sin(th) + K2**2 * (v1 + v2) / (R * (P + Q))
    st3 = cc.step(fr.Candidate((F, G), (px, py)))
    assert st3.in_S1
    K1 = (J2 + m * R**2 / 2) * (J2 + R**2 * J / (2 * c**2))  # R^4-corrected K1 (erratum CdLMM-1)
    assert is_zero(st3.defects[0])
    assert is_zero(st3.defects[1] - (K2 / (2 * c) * (1 - K2**2 / K1) * (v1 - v2) ** 2))
    lsol = sp.solve(sp.numer(sp.together(1 - K2**2 / K1)), l)
    l_cm = sp.sqrt((m * R**2 + 2 * J2) * (R**2 * J + 2 * c**2 * J2)) / (m0 * R**2)
    assert any(is_zero(s - l_cm) for s in lsol)
    # printed C_f3 p_x, p_y agree with the library's when the K1 inside it is read as K1' (CdLMM-1)
    K1p = J2 * (J2 + m * R**2 / 2 + R**2 * J / (2 * c**2))
    px_pr = K2 * (v1 - v2) * sp.sin(th) / R - 2 * K2**2 * (v1 + v2) * sp.cos(th) / (R * (2 * K1p / J2 - m * R**2))
    py_pr = -2 * K2**2 * (v1 + v2) * sp.sin(th) / (R * (2 * K1p / J2 - m * R**2)) - K2 * (v1 - v2) * sp.cos(th) / R
    assert is_zero(st3.parametrisation[px] - px_pr) and is_zero(st3.parametrisation[py] - py_pr)
    K1_printed = J2 * (J2 + m * R**2 / 2 + R**2 * J / (2 * c**2)) + m * R**3 * J / (4 * c**2)
    px_bad = K2 * (v1 - v2) * sp.sin(th) / R - 2 * K2**2 * (v1 + v2) * sp.cos(th) / (
        R * (2 * K1_printed / J2 - m * R**2)
    )
    assert not is_zero(st3.parametrisation[px] - px_bad)
    # l = 0: the three printed final submanifolds
    _, cc0 = _robot({l: 0})
    Fl0 = px * sp.sin(th) - py * sp.cos(th)
    for cand in [
        fr.Candidate((Fl0, v1 - v2), (px, v2)),
        fr.Candidate((px, py), (px, py)),
        fr.Candidate((v1, v2), (v1, v2)),
    ]:
        assert cc0.step(cand).final
    # l ≠ 0, generic: {p_x = p_y = 0} is not final
    assert not cc.step(fr.Candidate((px, py), (px, py))).final


# ---------------------------------------------------------------- Proposition 6.2
@settings(max_examples=6)
@given(st.data())
def test_proposition_6_2_unconstrained_solutions_in_C(data):
    """Prop. 6.2: an unconstrained motion that stays in C is nonholonomic and vakonomic (μ ≡ 0, p = ∂L/∂q̇).

    At a point of C, every second-order field satisfying the D-rows of Euler–Lagrange has
    Γ^α = Γ_nh^α − g^{αβ}g_βa γ^a for its transverse part γ; its remaining Euler–Lagrange residuals are
    λ_a + S_ab γ^b (S the Schur complement). So the unconstrained field is tangent to C (γ = 0) exactly
    where λ = 0, and then it is Γ_nh; the vakonomic field on the section μ = 0 is Γ_nh with μ̇ = λ = 0,
    and {μ = 0} ⊂ S_1."""
    ch = fr.Chart("q1 q2 q3")
    L = data.draw(fst.quadratic_lagrangians(ch))
    F = data.draw(fst.frames_on(ch))
    vk = fr.VakonomicSystem(L, F, 2)
    nh = vk.nonholonomic
    g, r = vk._terms  # Euler–Lagrange rows of L on C: g Γ = r
    X, S = vk._schur()  # X = g^{αβ} g_βa (the solve g_αβ X = g_αa), S the Schur complement
    gam = sp.Symbol("gamma")
    Gnh = nh.field().Gamma
    GL = [Gnh[al] - X[al, 0] * gam for al in range(2)] + [gam]
    res = [sum(g[i, j] * GL[j] for j in range(3)) - r[i] for i in range(3)]
    lam = nh.multipliers()
    assert is_zero(res[0]) and is_zero(res[1])
    assert is_zero(res[2] - lam[0] - S[0, 0] * gam)
    tf0 = vk.tangent_field([0])
    assert all(is_zero(a - b) for a, b in zip(tf0.Gamma, Gnh))
    assert is_zero(tf0.A[0] - lam[0])  # μ̇ = λ on the section μ = 0
    cc = fr.CortesComparison(vk)
    assert all(is_zero(e.xreplace({cc.p[0]: cc.pi[0]})) for e in cc.g())  # {μ = 0} ⊂ S_1


def test_proposition_6_2_concrete_motion():
    """Nonholonomic particle: the straight line q = (t, 0, 0) solves the free Euler–Lagrange equations
    and the constraint; it is nonholonomic and vakonomic with λ = 0 (p = ∂L/∂q̇)."""
    mdl = models.nonholonomic_particle()
    t = sp.Symbol("t")
    q1, q2, q3 = mdl.chart.q
    K = fr.KozlovEquations(mdl.lagrangian, [mdl.frame.v_in_u[2]])
    res = fr.compare_motion(K, {q1: t, q2: 0, q3: 0}, t)
    assert res.vakonomic and res.solutions == ({res.constants[0]: 0},)
    # a free straight line in C through q1 = 0 along X2: also vakonomic
    res2 = fr.compare_motion(K, {q1: 0, q2: t, q3: 0}, t)
    assert res2.vakonomic is True
    # a motion in C that is not free (q1 = t²/2): the constraint holds but it is not vakonomic
    res3 = fr.compare_motion(K, {q1: t**2 / 2, q2: 0, q3: 0}, t)
    assert res3.vakonomic is False


# ---------------------------------------------------------------- Example 6.8: ball on a rotating table
@pytest.fixture(scope="module")
def ball():
    mdl = models.ball_on_rotating_table()
    return mdl, mdl.nonholonomic()


def _ball_on_D(mdl):
    """u_θ, u_ψ from the rolling constraints, given u_X, u_Y (u_φ free)."""
    _X, _Y, _ph, _th, _ps = mdl.chart.q
    _uX, _uY, _uph, uth, ups = mdl.chart.u
    return sp.solve(list(mdl.constraints.functions), [uth, ups], dict=True)[0]


def test_ball_on_rotating_table_centre_circles(ball):
    """Lewis–Murray: in the inertial frame the centre's velocity w turns at the rate κΩ, κ = I/(I + m r²)."""
    mdl, nh = ball
    X, Y = mdl.chart.q[:2]
    uX, uY = mdl.chart.u[:2]
    m, r, I, Om = (mdl.params[k] for k in ("m", "r", "I", "Omega"))
    acc = nh.accelerations()
    on_D = _ball_on_D(mdl)
    Z, Zd = X + sp.I * Y, uX + sp.I * uY
    Zdd = acc[0].xreplace(on_D) + sp.I * acc[1].xreplace(on_D)
    # inertial position z = e^{iΩt} Z: velocity w = e^{iΩt}(Ż + iΩZ), acceleration e^{iΩt}(Z̈ + 2iΩŻ − Ω²Z)
    kappa = I / (I + m * r**2)
    assert is_zero(sp.expand(Zdd + 2 * sp.I * Om * Zd - Om**2 * Z - sp.I * kappa * Om * (Zd + sp.I * Om * Z)))
    # the homogeneous ball, I = 2 m r²/5: the rate 2Ω/7 (and κ ≠ 2/7 for another inertia)
    assert kappa.subs(I, sp.Rational(2, 5) * m * r**2) == sp.Rational(2, 7)
    assert kappa.subs(I, m * r**2) == sp.Rational(1, 2)


def test_ball_on_rotating_table_affine_route_agrees():
    """The paper's inertial formulation: affine constraints ẋ = r ξ² − Ω y, ẏ = −r ξ¹ + Ω x, handled on
    R × Q (MVM Case C frame, TNHM equations): ẍ = −κΩẏ, ÿ = κΩẋ directly."""
    m, r, I, Om = sp.symbols("m r I Omega", positive=True)
    ch = fr.Chart("x y phi theta psi", params=[m, r, I, Om])
    x, y, ph, th, _ps = ch.q
    ux, uy, uph, uth, ups = ch.u
    xi1 = -sp.sin(ph) * uth + sp.cos(ph) * sp.cos(th) * ups
    xi2 = sp.cos(ph) * uth + sp.sin(ph) * sp.cos(th) * ups
    xi3 = uph - sp.sin(th) * ups
    L = fr.Lagrangian(ch, m * (ux**2 + uy**2) / 2 + I * (xi1**2 + xi2**2 + xi3**2) / 2)
    V = [ux - r * xi2 + Om * y, uy + r * xi1 - Om * x]
    mvm = fr.ModifiedVakonomic(L, constraints=V, auxiliary=[xi1, xi2, xi3])
    assert mvm.is_affine
    qdd, _mu = mvm.tnhm_solve()
    on_D = sp.solve(V, [uth, ups], dict=True)[0]
    kappa = I / (I + m * r**2)
    assert is_zero(qdd[0].xreplace(on_D) + kappa * Om * uy)
    assert is_zero(qdd[1].xreplace(on_D) - kappa * Om * ux)


def test_ball_on_rotating_table_final_submanifolds(ball):
    """Example 6.8's final constraint submanifolds, seen by the weak consistency conditions at φ = p
    (Theorem 2): they vanish on C_f1 = {ẋ = ẏ = 0} (inertial centre at rest) and, except the one
    for the direction X3 = ∂_φ, on C_f2 = {ξ³ = Ω} (v³ = ζ³ = ξ³ − Ω = 0, the ball spinning with the table)."""
    mdl, nh = ball
    X, Y = mdl.chart.q[:2]
    v1, v2, v3 = mdl.frame.v[:3]
    _m, r, _I, Om = (mdl.params[k] for k in ("m", "r", "I", "Omega"))
    vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, mdl.m)
    p = nh.momenta()
    phi_p = [p[a] for a in nh.a]
    res = fr.weak_consistency(vk, phi_p)
    assert res.holds is False
    # inertial velocity in the table's axes: (Ẋ − ΩY, Ẏ + ΩX) = (r v2 − ΩY, −r v1 + ΩX)
    at_rest = {v1: Om * X / r, v2: Om * Y / r}
    assert all(is_zero(c.xreplace(at_rest)) for c in res.conditions)
    spin = [c.xreplace({v3: 0}) for c in res.conditions]
    assert is_zero(spin[0]) and is_zero(spin[1]) and not is_zero(spin[2])


def test_ball_on_rotating_table_integrated_circle():
    """Integrated in the table's frame and mapped to the inertial one: a circle run at 2Ω/7."""
    np = pytest.importorskip("numpy")
    mdl = models.ball_on_rotating_table()
    Om = float(mdl.param_values[mdl.params["Omega"]])
    T = 2 * np.pi / (2 * Om / 7)  # one revolution of the centre
    t = np.linspace(0, T, 201)
    tr = fr.integrate(
        mdl.nonholonomic(), (0, T), mdl.q0, mdl.u0, params=mdl.param_values, t_eval=t, rtol=1e-11, atol=1e-12
    )
    z = np.exp(1j * Om * t) * (tr.q[:, 0] + 1j * tr.q[:, 1])
    w = np.exp(1j * Om * t) * (tr.u[:, 0] + 1j * tr.u[:, 1] + 1j * Om * (tr.q[:, 0] + 1j * tr.q[:, 1]))
    # centre of the circle c = z − w/(iκΩ); constant radius and rate
    kappa = 2 / 7
    c = z - w / (1j * kappa * Om)
    assert np.max(np.abs(c - c[0])) < 1e-8
    assert np.max(np.abs(np.abs(z - c[0]) - abs(z[0] - c[0]))) < 1e-8
    rate = np.diff(np.unwrap(np.angle(z - c[0]))) / np.diff(t)
    assert np.max(np.abs(rate - kappa * Om)) < 1e-6
    assert abs(z[-1] - z[0]) < 1e-7  # back after one period 7π/Ω
