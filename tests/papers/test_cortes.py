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
    st0 = cc.step(fr.natural.Candidate((F,), (px,)))
    assert st0.in_S1 and not st0.final
    assert is_zero(st0.defects[0] - (v2 * (px * sp.cos(ph) + py * sp.sin(ph))).xreplace(st0.parametrisation))
    # human choices inside {defect = 0}: φ̇ = 0, or p_x cos φ + p_y sin φ = 0
    C1 = cc.step(fr.natural.Candidate((v2, F), (v2, px)))
    C2 = cc.step(fr.natural.Candidate((px, py), (px, py)))
    C3 = cc.step(fr.natural.Candidate((v1, v2), (v1, v2)))
    assert C1.final and C2.final and C3.final
    # The paper prints C_f1 = {φ̇ = 0}: it is not contained in S_1 (erratum CdLMM-2)
    Cf1_printed = cc.step(fr.natural.Candidate((v2,), (v2,)))
    assert not Cf1_printed.in_S1
    # The paper prints C_f2 = {2θ̇ = p_x cos φ + p_y sin φ} and "p_x = 2θ̇ cos φ, p_y = 2θ̇ sin φ".
    # Those points lie in S_1 but X_vk is not tangent: p is conserved ((C3.4)) while 2θ̇ cos φ is not,
    # X_vk(p_x − 2θ̇ cos φ) = 2θ̇φ̇ sin φ. The library's C_f2 is {p_x = p_y = 0}: μ = (θ̇cosφ, θ̇sinφ) = π,
    # the printed values are its image under p ↦ 2π − p (sign slip of (2.4), erratum CdLMM-3).
    printed = cc.step(fr.natural.Candidate((px - 2 * v1 * sp.cos(ph), py - 2 * v1 * sp.sin(ph)), (px, py)))
    assert printed.in_S1 and not printed.final
    assert is_zero(printed.defects[0] - 2 * v1 * v2 * sp.sin(ph))
    mu_on_C2 = [tidy(cc.mu_of_p[mu].xreplace({px: 0, py: 0})) for mu in cc.vk.mu]
    assert mu_on_C2 == [v1 * sp.cos(ph), v1 * sp.sin(ph)]
    # The Bloch–Crouch multipliers λ = −θ̇(cos φ, sin φ) hold in the printed (2.4), i.e. the Euler–Lagrange
    # equations of L − λ_x Φ^x − λ_y Φ^y with Φ = Ψ − q̇ (CdLMM-3). Checked along the nonholonomic motions
    # θ = a t, φ = b t (x = (a/b) sin bt, y = −(a/b) cos bt): every residual vanishes with these λ, and
    # not with the opposite sign (the Euler–Lagrange system of L + λΦ that Remark 2.4 names).
    t, a, b = sp.symbols("t a b", nonzero=True)
    x, y, th = mdl.chart.q[:3]
    ux, uy, uth, _uph = mdl.chart.u
    lx, ly = sp.symbols("lambda_x lambda_y")
    Phi = [uth * sp.cos(ph) - ux, uth * sp.sin(ph) - uy]
    motion = {x: a / b * sp.sin(b * t), y: -a / b * sp.cos(b * t), th: a * t, ph: b * t}
    along = {u: sp.diff(motion[q], t) for q, u in zip(mdl.chart.q, mdl.chart.u, strict=True)}
    assert all(is_zero(f.xreplace(along).xreplace(motion)) for f in Phi)  # the motion is in C
    bc = {lx: -a * sp.cos(b * t), ly: -a * sp.sin(b * t)}  # −θ̇(cos φ, sin φ) along it

    def el_residuals(sign):
        Lx = mdl.lagrangian.expr + sign * (lx * Phi[0] + ly * Phi[1])
        out = []
        for q, u in zip(mdl.chart.q, mdl.chart.u, strict=True):
            dLdu = sp.diff(Lx, u).xreplace(along).xreplace(motion).xreplace(bc)
            dLdq = sp.diff(Lx, q).xreplace(along).xreplace(motion).xreplace(bc)
            out.append(sp.diff(dLdu, t) - dLdq)
        return out

    assert all(is_zero(e) for e in el_residuals(-1))  # printed (2.4): L − λΦ
    assert not all(is_zero(e) for e in el_residuals(+1))  # L + λΦ fails


def test_penny_run_with_choices(penny):
    mdl, cc = penny
    _x, _y, _th, ph = mdl.chart.q
    _v1, v2 = mdl.frame.v[:2]
    px, py = cc.p
    F = px * sp.sin(ph) - py * sp.cos(ph)
    hist = cc.run(fr.natural.Candidate((F,), (px,)), choose=lambda s: fr.natural.Candidate((F, v2), (px, v2)))
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
    st3 = cc.step(fr.natural.Candidate((F, G), (px, py)))
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
        fr.natural.Candidate((Fl0, v1 - v2), (px, v2)),
        fr.natural.Candidate((px, py), (px, py)),
        fr.natural.Candidate((v1, v2), (v1, v2)),
    ]:
        assert cc0.step(cand).final
    # l ≠ 0, generic: {p_x = p_y = 0} is not final
    assert not cc.step(fr.natural.Candidate((px, py), (px, py))).final


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
    K = fr.KozlovSystem(mdl.lagrangian, [mdl.frame.v_in_u[2]])
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
    qdd, _mu = mvm.tnhm_solution()
    on_D = sp.solve(V, [uth, ups], dict=True)[0]
    kappa = I / (I + m * r**2)
    assert is_zero(qdd[0].xreplace(on_D) + kappa * Om * uy)
    assert is_zero(qdd[1].xreplace(on_D) - kappa * Om * ux)


def test_ball_on_rotating_table_final_submanifolds(ball):
    """Example 6.8 seen by the weak consistency conditions at φ = p (Theorem 2): all vanish on the printed
    C_f1 = {ẋ = ẏ = 0} (inertial centre at rest); on {ξ³ = Ω} (v³ = ζ³ = ξ³ − Ω = 0) only the first two do,
    the third does not (the printed C_f2 is not a final submanifold: erratum CdLMM-5)."""
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


# ---------------------------------------------------------------- the algorithm of section 6, derived
def _same_set(res, par):
    """The derived final submanifold equal to the set given by ``par`` (None if there is none)."""
    return res.find(par)


def test_penny_derived_final_submanifold(penny):
    """Ex. 6.6 by the library's algorithm: S_1 = {F = 0} ∪ {θ̇ = φ̇ = 0}; S_2 = S_3 gives the three final
    submanifolds of the corrected example (CdLMM-2, CdLMM-3); the printed C_f1, C_f2 are not among them."""
    mdl, cc = penny
    _x, _y, _th, ph = mdl.chart.q
    v1, v2 = mdl.frame.v[:2]
    px, py = cc.p
    seen = []
    res = cc.algorithm(progress=seen.append)
    assert res.closed and not res.empty and res.steps == 2 and not res.unresolved
    assert seen[0] == "CortesComparison.algorithm" and any(s.startswith("S_2") for s in seen)
    F = px * sp.sin(ph) - py * sp.cos(ph)
    S1 = res.S[0]
    assert len(S1) == 2 and not any(b.final for b in S1 if not b.contains({v1: 0, v2: 0}))
    assert any(b.contains({px: py * sp.cos(ph) / sp.sin(ph)}) and len(b.parametrisation) == 1 for b in S1)
    assert any(is_zero(F.xreplace(b.parametrisation)) and len(b.parametrisation) == 1 for b in S1)
    assert len(res.final) == 3
    Cf = [
        _same_set(res, {v2: 0, px: py * sp.cos(ph) / sp.sin(ph)}),  # {φ̇ = 0, F = 0}
        _same_set(res, {px: 0, py: 0}),
        _same_set(res, {v1: 0, v2: 0}),
    ]
    assert all(b is not None and b.final for b in Cf)
    # independent check by the user-candidate route (sympy solve, not the algorithm's solver)
    for e, sf in [((v2, F), (v2, px)), ((px, py), (px, py)), ((v1, v2), (v1, v2))]:
        assert cc.step(fr.natural.Candidate(e, sf)).final
    # printed C_f1 = {φ̇ = 0} and C_f2 = {2θ̇ = p_x cos φ + p_y sin φ} are not derived
    assert _same_set(res, {v2: 0}) is None
    assert _same_set(res, {px: 2 * v1 - py * sp.sin(ph) / sp.cos(ph)}) is None
    assert res.assumptions == (sp.sin(ph),)  # the solve for p_x divides by sin φ (generic)


def test_comparison_algorithm_budget_and_unclosed(penny, budget_clock):
    """The iteration stops at max_steps with closed=False; a spent budget raises naming the step."""
    _mdl, cc = penny
    res = cc.algorithm(max_steps=1)
    assert not res.closed and not res.empty and res.steps == 1
    assert [b.final for b in res.S[0]].count(False) == 1
    _mdl_r, ccr = _robot()
    budget_clock.tick = 0.01  # the budget counts checkpoints (20), whatever the machine's speed
    with pytest.raises(fr.errors.BudgetExceededError) as ei:
        ccr.algorithm(budget=0.2)
    # the innermost step reached is named (an algorithm step or a library step inside it), and the chain
    # of steps started shows the algorithm's own
    assert ei.value.step and ei.value.step in str(ei.value)
    assert "CortesComparison.algorithm" in str(ei.value) and "S_1" in str(ei.value)
    with pytest.raises(fr.errors.ArgumentError, match="max_steps"):
        cc.algorithm(max_steps=0)


def test_comparison_algorithm_finds_the_free_motions():
    """Gravity along x on the nonholonomic particle (ż = y ẋ): the degenerate case of a solve (divisor
    φ̇-type velocity = 0) is a branch; the final submanifold is {y = 0, ẏ = 0, p_z = 0}: free fall
    along x in C, the unconstrained motions of Proposition 6.2."""
    g = sp.Symbol("g", positive=True)
    ch = fr.Chart("x y z", params=[g])
    x, y, _z = ch.q
    ux, uy, uz = ch.u
    L = fr.Lagrangian(ch, (ux**2 + uy**2 + uz**2) / 2 - g * x)
    F = fr.Frame([fr.VectorField(ch, [1, 0, y]), fr.VectorField(ch, [0, 1, 0]), fr.VectorField(ch, [0, 0, 1])])
    cc = fr.CortesComparison(fr.VakonomicSystem(L, F, 2))
    v1, v2 = F.v[:2]
    (pz,) = cc.p
    res = cc.algorithm()
    assert res.closed and len(res.final) == 1
    assert res.find({y: 0, v2: 0, pz: 0}) is not None
    assert res.assumptions == (g,)
    # without gravity: {v = 0}, {v2 = 0, p_z = y v1} (lines along x) and {v1 = 0, p_z = 0} (lines along y)
    cc0 = fr.CortesComparison(fr.VakonomicSystem(fr.Lagrangian(ch, (ux**2 + uy**2 + uz**2) / 2), F, 2))
    res0 = cc0.algorithm()
    assert len(res0.final) == 3
    assert all(res0.find(p) is not None for p in ({v1: 0, v2: 0}, {v2: 0, pz: y * v1}, {v1: 0, pz: 0}))


def _K1_minus_K2sq_numerator(mdl):
    m, m0, l, J, J2, R, c = (mdl.params[k] for k in ("m", "m0", "l", "J", "J2", "R", "c"))
    K1 = (J2 + m * R**2 / 2) * (J2 + R**2 * J / (2 * c**2))  # corrected (CdLMM-1)
    K2 = m0 * l * R**2 / (2 * c)
    return sp.numer(sp.together(K1 - K2**2))


def test_robot_derived_final_submanifold_generic_l():
    """Ex. 6.7, l ≠ 0, K1 ≠ K2² by the library's algorithm: the paper's C_f1 = {F = 0, ψ̇1 = ψ̇2} (where
    F = p_x sinθ − p_y cosθ) and C_f2 = {ψ̇1 = ψ̇2 = 0}; {p = 0} is not final; the special-l condition
    K1 = K2² is the parameter factor the result assumes nonzero."""
    mdl, cc = _robot()
    th = mdl.chart.q[4]
    v1, v2 = cc.vk.frame.v[:2]
    px, py, _pth = cc.p
    res = cc.algorithm()
    assert res.closed and len(res.final) == 2 and not res.unresolved
    assert res.find({v1: v2, px: py * sp.cos(th) / sp.sin(th)}) is not None
    assert res.find({v1: 0, v2: 0}) is not None
    assert res.find({px: 0, py: 0}) is None
    special = _K1_minus_K2sq_numerator(mdl)
    assert any(is_zero(a - special) or is_zero(a + special) for a in res.assumptions)
    # l = 0: the three printed final submanifolds, {p = 0} among them
    l = mdl.params["l"]
    _, cc0 = _robot({l: 0})
    res0 = cc0.algorithm()
    assert len(res0.final) == 3
    assert all(
        res0.find(p) is not None for p in ({v1: v2, px: py * sp.cos(th) / sp.sin(th)}, {px: 0, py: 0}, {v1: 0, v2: 0})
    )


def test_robot_derived_final_submanifold_special_l():
    """Ex. 6.7 at K1 = K2² (Crampin–Mestdag's special l; imposed rationally by solving the condition for J):
    the algorithm adds C_f3, whose p_x, p_y are the printed ones with K1 read as K1' (CdLMM-4)."""
    mdl = models.two_wheeled_carriage()
    m, m0, l, J, J2, R, c = (mdl.params[k] for k in ("m", "m0", "l", "J", "J2", "R", "c"))
    (Jspecial,) = sp.solve(_K1_minus_K2sq_numerator(mdl), J)
    # the same condition as l = l_cm of tests/papers/test_crampin_mestdag.py
    l_cm = sp.sqrt((m * R**2 + 2 * J2) * (R**2 * J + 2 * c**2 * J2)) / (m0 * R**2)
    assert is_zero(sp.expand(l_cm**2 - l**2).xreplace({J: Jspecial}))
    _, cc = _robot({J: Jspecial})
    th = mdl.chart.q[4]
    v1, v2 = cc.vk.frame.v[:2]
    px, py, _pth = cc.p
    res = cc.algorithm()
    assert res.closed and len(res.final) == 3
    K2 = m0 * l * R**2 / (2 * c)
    den = R * (2 * J2 + R**2 * Jspecial / c**2)  # R(2K1'/J2 − mR²)
    printed = {
        px: K2 * (v1 - v2) * sp.sin(th) / R - 2 * K2**2 * (v1 + v2) * sp.cos(th) / den,
        py: -2 * K2**2 * (v1 + v2) * sp.sin(th) / den - K2 * (v1 - v2) * sp.cos(th) / R,
    }
    Cf3 = res.find(printed)
    assert Cf3 is not None and Cf3.final
    assert res.find({v1: v2, px: py * sp.cos(th) / sp.sin(th)}) is not None
    assert res.find({v1: 0, v2: 0}) is not None
    assert not any(is_zero(a - _K1_minus_K2sq_numerator(mdl)) for a in res.assumptions)


@pytest.mark.slow
def test_ball_on_rotating_table_derived_final_submanifolds():
    """Ex. 6.8 by the library's algorithm (co-rotating frame, ~1 min). C_f1 = {ẋ = ẏ = p_x = p_y = 0} is
    derived (centre at rest in the inertial frame: v1 = ΩX/r, v2 = ΩY/r). The printed C_f2 = {ξ³ = Ω}
    is not in S_1 (g_3 = −r(v1(p_X − π_X) + v2(p_Y − π_Y)) does not vanish on it); the derived final
    submanifolds inside it are the centre circling the table's axis at κΩ, κ = I/(I + m r²), with
    p = (IΩ/r²)(−Y, X), and the ball at rest on the axis (any p) (erratum CdLMM-5)."""
    mdl = models.ball_on_rotating_table()
    X, Y = mdl.chart.q[:2]
    v1, v2, v3 = mdl.frame.v[:3]
    _m, r, I, Om = (mdl.params[k] for k in ("m", "r", "I", "Omega"))
    m = mdl.params["m"]
    cc = fr.CortesComparison(fr.VakonomicSystem(mdl.lagrangian, mdl.frame, mdl.m))
    pX, pY = cc.p
    res = cc.algorithm(budget=600)
    assert res.closed and len(res.final) == 3 and not res.unresolved
    assert res.find({v1: Om * X / r, v2: Om * Y / r, pX: 0, pY: 0}) is not None
    kap = I / (I + m * r**2)
    circ = res.find(
        {v3: 0, v1: Om * X * (1 - kap) / r, v2: Om * Y * (1 - kap) / r, pX: -I * Om * Y / r**2, pY: I * Om * X / r**2}
    )
    assert circ is not None
    # inertial centre velocity (r v2 − ΩY, −r v1 + ΩX) = κΩ(−Y, X) on it: circles about the axis at κΩ
    w = [(r * v2 - Om * Y).xreplace(circ.parametrisation), (-r * v1 + Om * X).xreplace(circ.parametrisation)]
    assert is_zero(w[0] + kap * Om * Y) and is_zero(w[1] - kap * Om * X)
    assert res.find({v1: 0, v2: 0, v3: 0, X: 0, Y: 0}) is not None
    assert not cc.step(fr.natural.Candidate((v3,), (v3,))).in_S1  # printed C_f2
    for b in res.final:  # independent: the user-candidate route agrees
        st = cc.step(fr.natural.Candidate(b.equations, tuple(b.parametrisation)))
        assert st.in_S1 and st.final


# ---------------------------------------------------------------- Proposition 6.5
def test_proposition_6_5():
    """Prop. 6.5 on an abelian Chaplygin system (the nonholonomic particle, u3 = −q1 u2; L, Ψ free of q3):
    a nonholonomic motion c(t) satisfies g(c(t), p0) ≡ 0 iff (c(t), p0) is a vakonomic motion.

    (3.4) gives ṗ = 0 for such systems, and by (N6) the vakonomic and nonholonomic accelerations differ
    by H^{-1}g. Nonholonomic motions: q1 = a + bt, v2 = k/√(1 + q1²). For b = 0 the multiplier
    p0 = −a k/√(1 + a²) makes g ≡ 0 and the lift vakonomic; another p0 does neither; for b ≠ 0 no p0 does."""
    mdl = models.nonholonomic_particle()
    vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, mdl.m)
    cc = fr.CortesComparison(vk)
    (p,) = cc.p
    q1, _q2, _q3 = mdl.chart.q
    v1, v2 = mdl.frame.v[:2]
    assert cc.X(p) == 0  # (3.4): ṗ = 0 on W_1
    assert all(e == 0 for e in cc.difference_identity())
    Gnh = vk.nonholonomic.field().Gamma
    Gvk = [tidy(e.xreplace(cc.mu_of_p)) for e in vk.tangent_field().Gamma]
    t, a, b, k, p0 = sp.symbols("t a b k p0", real=True)

    def check(b_val, p0_val):
        s = a + b_val * t
        curve = {q1: s, v1: b_val, v2: k / sp.sqrt(1 + s**2), p: p0_val}
        # c(t) is nonholonomic: v̇ = Γ_nh along it
        assert all(is_zero(sp.diff(curve[v], t) - Gnh[i].xreplace(curve)) for i, v in enumerate((v1, v2)))
        g_along = [sp.simplify(e.xreplace(curve)) for e in cc.g()]
        vak = all(is_zero(sp.simplify(sp.diff(curve[v], t) - Gvk[i].xreplace(curve))) for i, v in enumerate((v1, v2)))
        return all(e == 0 for e in g_along), vak

    assert check(0, -a * k / sp.sqrt(1 + a**2)) == (True, True)
    assert check(0, 0) == (False, False)
    # b ≠ 0: p0 + q1 v2 is not constant along c, so g ≢ 0 whatever p0; and the lift is not vakonomic
    s = a + b * t
    assert not is_zero(sp.simplify(sp.diff(s * k / sp.sqrt(1 + s**2), t)))
    assert check(b, p0) == (False, False)


# ---------------------------------------------------------------- Example 3.7
def test_example_3_7():
    """The closed von Neumann system (n = 2): maximise ∫K̇2 dt subject to K̇1 = Ψ = (K1^{2α1}K2^{2α2} − K̇2²)^{1/2}.

    With the library's vakonomic equations for nonlinear constraints (KozlovSystem, L − λV with
    V = K̇1 − Ψ, so [C]'s P^1 = −λ): the W_1 constraint P² = 1 + P¹K̇2/Ψ (3.2), (3.10) for Ṗ¹ and for
    i = 2, the determinant (3.7) = P¹(Ψ² + K̇2²)/Ψ³ = H_{W1}/Ψ² (3.11), and the conservation of H_{W1}
    and of the Noether quantity Φ = P¹(K1Ψ + K2K̇2)/Ψ of Y = K_j ∂/∂K_j."""
    a1 = sp.Rational(1, 3)
    a2 = 1 - a1
    ch = fr.Chart("K1 K2")
    K1, K2 = ch.q
    u1, u2 = ch.u
    Psi = sp.sqrt(K1 ** (2 * a1) * K2 ** (2 * a2) - u2**2)
    Kz = fr.KozlovSystem(fr.Lagrangian(ch, u2), [u1 - Psi])
    lam = Kz.lam[0]
    P1 = sp.Symbol("P1")
    toP = {lam: -P1}
    Lh = Kz.lagrangian_hat()
    assert is_zero(sp.diff(Lh, u1).xreplace(toP) - P1)  # P^1 is [C]'s p_1
    P2 = sp.diff(Lh, u2).xreplace(toP)
    assert is_zero(P2 - (1 + P1 * u2 / Psi))  # (3.2)
    qdd, lamd = Kz.accelerations(), Kz.rates()
    on = {u1: Psi}
    P1dot = (-lamd[0]).xreplace(toP).xreplace(on)
    G = 1 / Psi
    assert is_zero(P1dot + P1 * a1 * K1 ** (2 * a1 - 1) * K2 ** (2 * a2) * G)  # (3.10), first line

    def D(f):  # total derivative along the vakonomic motions
        return (u1 * sp.diff(f, K1) + u2 * sp.diff(f, K2) + qdd[0] * sp.diff(f, u1) + qdd[1] * sp.diff(f, u2)).xreplace(
            toP
        ) + P1dot * sp.diff(f, P1)

    K2dd = qdd[1].xreplace(toP).xreplace(on)
    second = P1dot * u2 * G + P1 * ((K2dd + a2 * K1 ** (2 * a1) * K2 ** (2 * a2 - 1)) * G + u2 * D(G).xreplace(on))
    assert is_zero(sp.simplify(second))  # (3.10), i = 2
    det = -P1 * sp.diff(Psi, u2, 2)  # (3.7): ∂²L̃/∂K̇2² − P¹∂²Ψ/∂K̇2²
    H = P2 * u2 + P1 * Psi - u2  # H_{W1}
    assert is_zero(sp.simplify(det - P1 * (Psi**2 + u2**2) / Psi**3))
    assert is_zero(sp.simplify(det - H / Psi**2))  # (3.11)
    Phi = P1 * (K1 * Psi + K2 * u2) / Psi
    assert is_zero(sp.simplify(D(H).xreplace(on)))
    assert is_zero(sp.simplify(D(Phi).xreplace(on)))
    assert not is_zero(sp.simplify(D(P1 * K1).xreplace(on)))  # the check can fail
