"""Pastore, Giammarini & Grillo (2024), the modified vakonomic method (MVM): rolling coin and charged skate.

Every quantity is computed by the library and compared exactly with the printed formula (the
expected side). Misprints are listed in docs/errata.md (section "Pastore–Giammarini–Grillo (2024)").
"""

from __future__ import annotations

from functools import cache

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import frames as fr
from frames.algebra import is_zero
from frames.natural import compare_mvm_with_nonholonomic, hamel_transpositional
from frames.natural.internal import d_block_holonomic, weak_consistency_expression
from frames.strategies import frames_on, functions_on_Q

Rat = sp.Rational


def zero(e) -> bool:
    """Exact zero test; multiple-angle trig (analytic solutions) is expanded first."""
    if isinstance(e, sp.MatrixBase):
        return all(zero(x) for x in e)
    e = sp.sympify(e)
    if is_zero(e):
        return True
    return is_zero(sp.expand_trig(sp.expand(e)))


# ------------------------------------------------------------------ fixtures
@cache
def coin():
    mdl = fr.models.rolling_coin_incline()
    R = mdl.params["R"]
    _q1, _q2, _q3, q4 = mdl.chart.q
    u1, u2, u3, u4 = mdl.chart.u
    mvm = fr.ModifiedVakonomic(
        mdl.lagrangian,
        constraints=[u1 - R * sp.sin(q4) * u3, u2 - R * sp.cos(q4) * u3],  # (61a-b)
        auxiliary=[u3, u4],  # (66a-b)
    )
    return mdl, mvm


@cache
def skate(time_dependent: bool):
    mdl = fr.models.charged_skate(time_dependent)
    _q1, _q2, q3 = mdl.chart.q
    u1, u2, u3 = mdl.chart.u
    s, c = sp.sin(q3), sp.cos(q3)
    caseA = fr.ModifiedVakonomic(mdl.lagrangian, [s * u1 - c * u2], [u3, c * u1 + s * u2])  # (98), (104a-b)
    return mdl, caseA


def skate_syms(mdl):
    P = mdl.params
    t = mdl.chart.t
    B0 = mdl.symbols["B0"]
    B0d = sp.diff(B0, t) if t is not None else sp.S.Zero
    return (P["m"], P["ell"], P["sigma"], P["g"], P["alpha"], P["Q"], B0, B0d, mdl.symbols["I3"])


BOTH = pytest.mark.parametrize("td", [False, True], ids=["B0", "B0(t)"])


# ====================================================== the catalogue against TNHM
def test_coin_tnhm_62_and_multipliers():
    """Accelerations and multipliers of the library agree with TNHM (62a-d).

    The library's λ_a are the components of ε on the complement X3 = ∂_x, X4 = ∂_y, whose dual
    coframe rows are exactly the constraint rows (61a-b); hence λ_3 ≡ μ_1 and λ_4 ≡ μ_2 (and,
    since W^T p = 0 on C, μ_α ≡ λ̇_α of the MVM, section 3).
    """
    mdl, _ = coin()
    m, R, g, alpha = (mdl.params[k] for k in ("m", "R", "g", "alpha"))
    _q1, _q2, _q3, q4 = mdl.chart.q
    u1, u2, u3, _u4 = mdl.chart.u
    nh = mdl.nonholonomic()
    a1, a2, a3, a4 = nh.accelerations()
    mu1, mu2 = nh.multipliers_natural()
    onC = {u1: R * sp.sin(q4) * u3, u2: R * sp.cos(q4) * u3}
    printed = [
        -m * a1 + mu1,  # (62a)
        m * g * sp.sin(alpha) - m * a2 + mu2,  # (62b)
        -Rat(1, 2) * m * R**2 * a3 - mu1 * R * sp.sin(q4) - mu2 * R * sp.cos(q4),  # (62c)
        -Rat(1, 4) * m * R**2 * a4,  # (62d)
    ]
    assert all(is_zero(e.xreplace(onC)) for e in printed)
    # the coordinate identity Γ(∂L/∂u^i) − ∂L/∂q^i = θ^a_i λ_a holds on C
    assert all(is_zero(r) for r in nh.coordinate_residuals())
    assert mdl.param_values[R] == 11.625e-3 and mdl.param_values[m] == 7.5e-3


@BOTH
def test_skate_tnhm_100_and_p3(td):
    """(100a-d) and conservation of p3 (101c), with B0 constant and B0(t)."""
    mdl, _ = skate(td)
    m, ell, sigma, g, alpha, Q, B0, B0d, I3 = skate_syms(mdl)
    q1, q2, q3 = mdl.chart.q
    u1, u2, u3 = mdl.chart.u
    s, c = sp.sin(q3), sp.cos(q3)
    nh = mdl.nonholonomic()
    a1, a2, a3 = nh.accelerations()
    (mu1,) = nh.multipliers_natural()  # λ_3 on X3 = s ∂_x − c ∂_y, dual row = (98): λ_3 ≡ μ_1
    onC = {u2: u1 * s / c}
    printed = [
        m * a1 - mu1 * s - (m * g * sp.sin(alpha) + Q * B0 * u2 + Rat(1, 2) * Q * B0d * q2),  # (100a)
        m * a2 + mu1 * c - (-Q * B0 * u1 - Rat(1, 2) * Q * B0d * q1),  # (100b)
        I3 * a3 + Rat(1, 24) * Q * (ell**2 + sigma**2) * B0d,  # (100c)
    ]
    assert all(is_zero(e.xreplace(onC)) for e in printed)
    p3 = I3 * u3 + Q * (ell**2 + sigma**2) * B0 / 24  # (101c)/(102)
    assert sp.expand(p3 - mdl.lagrangian.momenta()[2]) == 0
    dp3 = sp.diff(p3, u3) * a3 + (sp.diff(p3, mdl.chart.t) if td else 0)
    assert is_zero(dp3)


# ================================================================ rolling coin (MVM)
def test_coin_W_68_both_routes():
    mdl, mvm = coin()
    R = mdl.params["R"]
    _q1, _q2, _q3, q4 = mdl.chart.q
    _u1, _u2, u3, u4 = mdl.chart.u
    W68 = sp.Matrix(
        [
            [0, 0, -R * sp.cos(q4) * u4, R * sp.cos(q4) * u3],
            [0, 0, R * sp.sin(q4) * u4, -R * sp.sin(q4) * u3],
            [0, 0, 0, 0],
            [0, 0, 0, 0],
        ]
    )
    assert zero(mvm.W - W68)
    assert zero(mvm.W_frame - W68)
    assert zero(mvm.solvability_conditions())  # (64), (65), (67)
    # Remark 5, (72a-d): C^1_43 = −R cos q4, C^1_34 = R cos q4, C^2_43 = R sin q4, C^2_34 = −R sin q4
    C0, C = mvm.flip_coefficients()
    assert zero(C0)
    assert is_zero(C[0, 3, 2] + R * sp.cos(q4)) and is_zero(C[0, 2, 3] - R * sp.cos(q4))
    assert is_zero(C[1, 3, 2] - R * sp.sin(q4)) and is_zero(C[1, 2, 3] + R * sp.sin(q4))


def test_coin_momentum_condition_and_71():
    """W^T p = 0 on C (Corollary 1, using (70)); MVM equations reduce to (71a-f); equal TNHM (62) with μ ≡ λ̇."""
    mdl, mvm = coin()
    m, R, g, alpha = (mdl.params[k] for k in ("m", "R", "g", "alpha"))
    _q1, _q2, _q3, q4 = mdl.chart.q
    u1, u2, u3, _u4 = mdl.chart.u
    a1, a2, a3, a4 = mvm.qdd
    l1, l2 = mvm.lamdot
    assert is_zero(mvm.on_constraint(u1 * sp.cos(q4) - u2 * sp.sin(q4)))  # (70)
    assert mvm.momentum_condition()
    assert compare_mvm_with_nonholonomic(mvm).holds
    eqs = [mvm.on_constraint(e) for e in mvm.residuals()]
    printed71 = [
        m * a1 - l1,  # (71a)
        m * a2 - l2 - m * g * sp.sin(alpha),  # (71b)
        Rat(1, 2) * m * R**2 * a3 + l1 * R * sp.sin(q4) + l2 * R * sp.cos(q4),  # (71c)
        Rat(1, 4) * m * R**2 * a4,  # (71d)
    ]
    for k in range(4):
        assert is_zero(eqs[k] + printed71[k]), k  # residuals are −(69) = −(71) on C
    assert is_zero(mvm.residuals()[4] + (u1 - R * u3 * sp.sin(q4)))  # (71e)
    assert is_zero(mvm.residuals()[5] + (u2 - R * u3 * sp.cos(q4)))  # (71f)
    # (31) with L_c: D_k L_c = (42a) once (34) holds
    assert all(is_zero(a - b) for a, b in zip(mvm.lagrangian_c_equations(), mvm.residuals()[:4], strict=False))
    # coincidence with TNHM: same q̈ on C and λ̇ = μ (Schur solutions (51) and (54))
    qdd, lamd = mvm.accelerations(), mvm.rates()
    qdd0, mu = mvm.tnhm_solution()
    assert zero((qdd - qdd0).applyfunc(mvm.on_constraint))
    assert zero((lamd - mu).applyfunc(mvm.on_constraint))
    nh = mdl.nonholonomic()
    assert zero((qdd0 - nh.accelerations()).applyfunc(mvm.on_constraint))
    assert zero(sp.Matrix(nh.multipliers_natural()) - mu)
    # (51a-b) = direct solve of (50)
    K, r = mvm.saddle_point()
    sol = K.LUsolve(r)
    assert zero(sol - sp.Matrix.vstack(qdd, lamd))


def test_coin_analytic_solution_75_77_85():
    """(75), (77)-(82) (Ω ≠ 0) and (83)-(85) (Ω = 0) satisfy the library's MVM equations by substitution."""
    mdl, mvm = coin()
    m, R, g, alpha = (mdl.params[k] for k in ("m", "R", "g", "alpha"))
    t, tin, Om, nu3 = sp.symbols("t t_in Omega nu3_in")
    q1in, q2in, q3in, q4in, l1in, l2in = sp.symbols("q1_in q2_in q3_in q4_in lambda1_in lambda2_in")
    th0s = sp.Symbol("theta0")
    th0 = th0s  # θ0 := q4_in − Ω t_in, defined after (75)
    q4in = th0 + Om * tin
    q4t = Om * t + th0  # (75)
    Phi = 2 * g * sp.sin(alpha) / (3 * R * Om**2)
    Phic, Phis = Phi * sp.cos(th0), Phi * sp.sin(th0)  # (79b)
    q3osc = (
        Phis * (sp.sin(Om * t) - sp.sin(Om * tin))
        - Phic * (sp.cos(Om * t) - sp.cos(Om * tin))
        - Om * (t - tin) * (Phic * sp.sin(Om * tin) + Phis * sp.cos(Om * tin))
    )  # (79a)
    q3t = q3osc + nu3 * (t - tin) + q3in  # (78)
    K = nu3 / Om - Phi * sp.sin(Om * tin + th0)
    q1t = (
        -Rat(1, 4) * R * Phi * (sp.sin(2 * Om * t + 2 * th0) - sp.sin(2 * Om * tin + 2 * th0))
        - R * K * (sp.cos(Om * t + th0) - sp.cos(Om * tin + th0))
        + Rat(1, 2) * R * Om * Phi * (t - tin)
        + q1in
    )  # (81a)
    q2t = (
        -Rat(1, 4) * R * Phi * (sp.cos(2 * Om * t + 2 * th0) - sp.cos(2 * Om * tin + 2 * th0))
        + R * K * (sp.sin(Om * t + th0) - sp.sin(Om * tin + th0))
        + q2in
    )  # (81b)
    l1t = (
        -Rat(1, 2) * m * R * Om * Phi * (sp.cos(2 * Om * t + 2 * th0) - sp.cos(2 * Om * tin + 2 * th0))
        + m * R * (nu3 - Om * Phi * sp.sin(Om * tin + th0)) * (sp.sin(Om * t + th0) - sp.sin(Om * tin + th0))
        + l1in
    )  # (82a)
    l2t = (
        Rat(1, 2) * m * R * Om * Phi * (sp.sin(2 * Om * t + 2 * th0) - sp.sin(2 * Om * tin + 2 * th0))
        + m * R * (nu3 - Om * Phi * sp.sin(Om * tin + th0)) * (sp.cos(Om * t + th0) - sp.cos(Om * tin + th0))
        - m * g * sp.sin(alpha) * (t - tin)
        + l2in
    )  # (82b)
    # (77)
    assert zero(sp.diff(q3t, t, 2) - 2 * g * sp.sin(alpha) / (3 * R) * sp.cos(Om * t + th0))

    # angles as integer combinations of A = Ωt + θ0, B = Ωt_in + θ0 and θ0, so expand_trig stays small
    A, B = sp.symbols("A B")
    angles = {t: (A - th0s) / Om, tin: (B - th0s) / Om}

    def check(qs, ls):
        sub = {}
        for qk, uk, ak, f in zip(mdl.chart.q, mdl.chart.u, mvm.qdd, qs, strict=True):
            sub.update({qk: f, uk: sp.diff(f, t), ak: sp.diff(f, t, 2)})
        sub.update({ld: sp.diff(lf, t) for ld, lf in zip(mvm.lamdot, ls, strict=True)})
        for e in mvm.residuals():
            r = sp.expand(e.xreplace(sub).xreplace(angles) if Om in e.xreplace(sub).free_symbols else e.xreplace(sub))
            assert is_zero(sp.expand(sp.expand_trig(r))), e
        inits = [f.subs(t, tin) for f in qs]
        return inits

    inits = check([q1t, q2t, q3t, q4t], [l1t, l2t])
    assert zero(sp.Matrix(inits) - sp.Matrix([q1in, q2in, q3in, q4in]))
    assert zero(l1t.subs(t, tin) - l1in) and zero(l2t.subs(t, tin) - l2in)
    # Ω = 0: (83)-(85), θ0 = q4_in
    q4in = sp.Symbol("q4_in")
    xi = 2 * g * sp.sin(alpha) * sp.cos(q4in) / (3 * R)
    q3t0 = xi * (t - tin) ** 2 / 2 + nu3 * (t - tin) + q3in  # (83)
    q1t0 = xi * R * sp.sin(q4in) * (t - tin) ** 2 / 2 + nu3 * R * sp.sin(q4in) * (t - tin) + q1in  # (84a)
    q2t0 = xi * R * sp.cos(q4in) * (t - tin) ** 2 / 2 + nu3 * R * sp.cos(q4in) * (t - tin) + q2in  # (84b)
    l1t0 = m * xi * R * sp.sin(q4in) * (t - tin) + l1in  # (85a)
    l2t0 = (m * xi * R * sp.cos(q4in) - m * g * sp.sin(alpha)) * (t - tin) + l2in  # (85b)
    check([q1t0, q2t0, q3t0, q4in + 0 * t], [l1t0, l2t0])


# ================================================================ charged skate, Case A
@BOTH
def test_skate_caseA_W107_and_108(td):
    mdl, A = skate(td)
    m, ell, sigma, g, alpha, Q, B0, B0d, I3 = skate_syms(mdl)
    q1, q2, q3 = mdl.chart.q
    u1, u2, u3 = mdl.chart.u
    s, c = sp.sin(q3), sp.cos(q3)
    W107 = sp.Matrix([[0, u3, -u2], [-u3, 0, u1], [0, 0, 0]])
    assert zero(A.W - W107) and zero(A.W_frame - W107)
    a1, a2, a3 = A.qdd
    (l1,) = A.lamdot
    # (108a-c), with ½ Q Ḃ0 q^2, q^1 (positions): printed "½ Q Ḃ0 q̇^2", "½ Q Ḃ0 q̇^1" is erratum PGG-5
    printed = [
        m * a1 - l1 * s - (m * g * sp.sin(alpha) - m * u2 * u3 + Q * B0 * u2 + Q * B0d * q2 / 2 - Q * B0 * q1 * u3 / 2),
        m * a2 + l1 * c - (m * u1 * u3 - Q * B0 * u1 - Q * B0d * q1 / 2 - Q * B0 * q2 * u3 / 2),
        I3 * a3 - (-Q * (ell**2 + sigma**2) * B0d / 24 + Q * B0 * (q1 * u1 + q2 * u2) / 2),
        s * u1 - c * u2,  # (108d)
    ]
    for e, p in zip(A.residuals(), printed, strict=True):
        assert is_zero(e + p)
    # (109a-b): d/dt p1 = λ̇1 s + m g sin α + ½ Q B0 q̇2 − p2 q̇3, d/dt p2 = −λ̇1 c − ½ Q B0 q̇1 + p1 q̇3
    p1, p2, p3 = A.p
    rhs109 = [l1 * s + m * g * sp.sin(alpha) + Q * B0 * u2 / 2 - p2 * u3, -l1 * c - Q * B0 * u1 / 2 + p1 * u3]
    for k in range(2):
        assert is_zero(A.residuals()[k] + A.ddt(A.p[k]) - rhs109[k]), k
    # (109c): d/dt p3 = ½ Q B0 (q1 u1 + q2 u2) = −p1 u2 + p2 u1
    qdd = A.accelerations()
    dp3 = A.ddt(p3).xreplace(dict(zip(A.qdd, qdd, strict=True)))
    assert is_zero(dp3 - Q * B0 * (q1 * u1 + q2 * u2) / 2)
    assert is_zero(-p1 * u2 + p2 * u1 - Q * B0 * (q1 * u1 + q2 * u2) / 2)
    # (111a-b): the Theorem 1 quantities are nonzero
    wtp = A.WTp
    assert is_zero(A.on_constraint(c * wtp[0] + s * wtp[1]) - A.on_constraint(-Q * B0 * (q1 * c + q2 * s) * u3 / 2))
    assert is_zero(wtp[2] - Q * B0 * (q1 * u1 + q2 * u2) / 2)
    th1 = compare_mvm_with_nonholonomic(A)
    assert not th1.holds and not A.momentum_condition()
    # Remark 7, (112a-d)
    _, C = A.flip_coefficients()
    assert (C[0, 2, 1], C[0, 1, 2], C[1, 2, 0], C[1, 0, 2]) == (1, -1, -1, 1)


@BOTH
def test_skate_caseA_pseudo_polygenic_113_114(td):
    """Section 2.6 / Remark 8: gyroscopic terms as forces (57) restore equivalence, (113)-(114)."""
    mdl, A = skate(td)
    m, ell, sigma, g, alpha, Q, B0, B0d, I3 = skate_syms(mdl)
    q1, q2, q3 = mdl.chart.q
    u1, u2, u3 = mdl.chart.u
    s, c = sp.sin(q3), sp.cos(q3)
    Qg = A.gyroscopic_forces()
    expected = sp.Matrix(
        [Q * B0 * u2 + Q * B0d * q2 / 2, -Q * B0 * u1 - Q * B0d * q1 / 2, -Q * (ell**2 + sigma**2) * B0d / 24]
    )
    assert zero(Qg - expected)
    pp = A.pseudo_polygenic()
    a1, a2, a3 = pp.qdd
    (l1,) = pp.lamdot
    printed = [
        m * a1 - l1 * s - (-m * u2 * u3 + Q * B0 * u2 + Q * B0d * q2 / 2 + m * g * sp.sin(alpha)),  # (113a)
        m * a2 + l1 * c - (m * u1 * u3 - Q * B0 * u1 - Q * B0d * q1 / 2),  # (113b)
        I3 * a3 - (-Q * (ell**2 + sigma**2) * B0d / 24),  # (113c)
        s * u1 - c * u2,  # (113d)
    ]
    for e, p in zip(pp.residuals(), printed, strict=True):
        assert is_zero(e + p)
    w0 = pp.WTp
    assert is_zero(c * w0[0] + s * w0[1] - m * u3 * (s * u1 - c * u2))  # (114a), zero on C
    assert is_zero(w0[2])  # (114b)
    assert compare_mvm_with_nonholonomic(pp).holds
    # the W term differs from (42a) by W^T Z (section 2.6 changes the dynamics)
    _, Z, _ = A.split_lagrangian()
    assert zero(sp.Matrix(A.residuals()[:3]) - sp.Matrix(pp.residuals()[:3]) - A.W.T * Z)
    # same accelerations as the TNHM of the full L on C (the TNHM itself is checked against
    # NonholonomicSystem in test_skate_tnhm_100_and_p3)
    qdd = pp.accelerations()
    qdd0, _ = A.tnhm_solution()
    assert zero((qdd - qdd0).applyfunc(pp.on_constraint))


# ================================================================ Case B (Ansatz 2)
@cache
def caseB(td):
    mdl, _A = skate(td)
    _q1, _q2, q3 = mdl.chart.q
    u1, u2, u3 = mdl.chart.u
    s, c = sp.sin(q3), sp.cos(q3)
    return fr.natural.w_from_partial_auxiliaries(
        mdl.lagrangian, [s * u1 - c * u2], [u3], [c * u1 + s * u2], free=[(0, 0)]
    )


@BOTH
def test_skate_caseB_116_117_118(td):
    mdl, _A = skate(td)
    m, _ell, _sigma, g, alpha, Q, B0, _B0d, _I3 = skate_syms(mdl)
    _q1, _q2, q3 = mdl.chart.q
    u1, u2, u3 = mdl.chart.u
    s, c = sp.sin(q3), sp.cos(q3)
    res = caseB(td)
    (rho,) = res.free
    B = res.system
    p1, p2, _p3 = B.p
    Dn = p1 * c + p2 * s
    W116 = sp.Matrix(
        [
            [rho, p2 * u3 / (s * Dn) - rho * sp.cot(q3), -p2 * (u1 * c + u2 * s) / Dn],
            [-u3 + rho * sp.tan(q3), -u3 * (p1 * s - p2 * c) / Dn - rho, p1 * (u1 * c + u2 * s) / Dn],
            [0, 0, 0],
        ]
    )
    assert zero(res.W - W116)
    assert res.accelerations_independent  # q̈ does not depend on ϱ
    # (117a-c) as d/dt p_k; E_k L = −ṗ_k + ∂L/∂q^k
    (l1,) = B.lamdot
    rhs117 = [
        l1 * s + m * g * sp.sin(alpha) + Q * B0 * u2 / 2 - p2 * u3 + rho * (p1 + p2 * sp.tan(q3)),
        -l1 * c - Q * B0 * u1 / 2 + p2 * u3 * sp.cot(q3) - rho * (p2 + p1 * sp.cot(q3)),
        0,
    ]
    for k in range(3):
        assert is_zero(B.residuals()[k] + B.ddt(B.p[k]) - rhs117[k]), k
    # (118): with μ1 = λ̇1 − p2 q̇3 csc q3 + ϱ(p1 csc q3 + p2 sec q3) the MVM equations are the TNHM (101a-b)
    mu118 = l1 - p2 * u3 / s + rho * (p1 / s + p2 / c)
    tn = B.tnhm_equations()
    for k in range(2):
        assert is_zero(B.on_constraint(tn[k].xreplace({B.mu[0]: mu118}) - B.residuals()[k])), k
    assert compare_mvm_with_nonholonomic(B).holds


def test_skate_caseB_transpositional_119_121():
    """(119a-c), (120a-b), (121a-c): ζ − η̇ = W η for the Case B matrix, on the constraint and with LC.

    With the constraint ``s u1 = c u2`` and Lagrange–Chetaev ``s η1 = c η2`` the free function ϱ drops
    out of ``W η``; the result is (119), and it is the structure-coefficient form (120) with the
    coefficients (121): ``(W η)^i = C^i_jk u^j η^k``, ``C^i_jk = −C^i_kj``.
    """
    mdl, _A = skate(False)
    _q1, _q2, q3 = mdl.chart.q
    u1, u2, u3 = mdl.chart.u
    s, c = sp.sin(q3), sp.cos(q3)
    res = caseB(False)
    B = res.system
    p1, p2, _p3 = B.p
    Dn = p1 * c + p2 * s
    eta = sp.Matrix(sp.symbols("eta1:4"))
    shell = {u1: c * u2 / s, eta[0]: c * eta[1] / s}
    Weta = (res.W * eta).applyfunc(lambda e: sp.sympify(e).xreplace(shell))
    e1, e2, e3 = eta
    p119 = [
        p2 * u3 / (s * Dn) * e2 - p2 * u2 / (s * Dn) * e3,
        -u3 * e1 + (p2 * c - p1 * s) / Dn * u3 * e2 + (u1 * c + u2 * s) / Dn * p1 * e3,
        0,
    ]
    for i in range(3):
        assert zero(Weta[i] - sp.sympify(p119[i]).xreplace(shell)), i
    C = {(0, 2, 1): p2 / (s * Dn), (1, 2, 0): -p1 * c / Dn, (1, 2, 1): -p1 * s / Dn}  # (121a-c), C^i_jk
    u = mdl.chart.u
    form = [
        sum((C.get((i, j, k), 0) - C.get((i, k, j), 0)) * u[j] * eta[k] for j in range(3) for k in range(3))
        for i in range(3)
    ]
    for i in range(3):
        assert zero(Weta[i] - sp.sympify(form[i]).xreplace(shell)), i


@BOTH
def test_remark11_B0_zero(td):
    """Remark 11: B0 = 0 reduces Case A and Case B (ϱ = 0) to (122)-(124)."""
    mdl, _A = skate(td)
    m, _ell, _sigma, g, alpha, _Q, B0, _B0d, I3 = skate_syms(mdl)
    _q1, _q2, q3 = mdl.chart.q
    u1, u2, u3 = mdl.chart.u
    s, c = sp.sin(q3), sp.cos(q3)
    L0 = fr.Lagrangian(mdl.chart, sp.expand(mdl.lagrangian.expr.subs(B0, 0).doit()))
    A0 = fr.ModifiedVakonomic(L0, [s * u1 - c * u2], [u3, c * u1 + s * u2])
    a1, a2, a3 = A0.qdd
    (l1,) = A0.lamdot
    e = A0.residuals()
    assert is_zero(e[0] + m * a1 - (-m * u2 * u3 + m * g * sp.sin(alpha) + l1 * s))  # (122a)
    # (122b) printed "m q̇^2 = −m q̇^1 q̇^3 − λ̇1 cos q^3"; derived +m q̇^1 q̇^3 (erratum PGG-7)
    assert is_zero(e[1] + m * a2 - (m * u1 * u3 - l1 * c))
    assert is_zero(e[2] + I3 * a3)  # (122c)
    # (123): μ1 = λ̇1 − m q̇2 q̇3 csc q3 = λ̇1 − m (q̇1 c + q̇2 s) q̇3 on C; from (55b) μ = λ̇ + shift
    shift = compare_mvm_with_nonholonomic(A0).multiplier_shift[0]
    assert is_zero(A0.on_constraint(shift + m * u2 * u3 / s))
    assert is_zero(A0.on_constraint(shift + m * (u1 * c + u2 * s) * u3))
    # Case B with ϱ = 0 and B0 = 0 equals (107) on C, so (124) ζ − η̇ = W η
    res = caseB(td)
    WB = res.W.xreplace({res.free[0]: 0}).subs(B0, 0)
    W107 = sp.Matrix([[0, u3, -u2], [-u3, 0, u1], [0, 0, 0]])
    assert zero((WB - W107).applyfunc(A0.on_constraint))


# ================================================================ Case C (affine constraint)
@BOTH
def test_skate_caseC_128_132(td):
    mdl, A = skate(td)
    m, ell, sigma, g, alpha, Q, B0, _B0d, _I3 = skate_syms(mdl)
    q1, q2, q3 = mdl.chart.q
    u1, u2, u3 = mdl.chart.u
    s, c = sp.sin(q3), sp.cos(q3)
    chi = Q * B0 / (2 * m)
    Vn = s * (u1 - chi * q2) - c * (u2 + chi * q1)  # (125)
    F2n = u3 + chi  # (126a)
    F3n = c * (u1 - chi * q2) + s * (u2 + chi * q1)  # (126b)
    C = fr.ModifiedVakonomic(mdl.lagrangian, [Vn], [F2n, F3n])
    assert C.is_affine
    p1, p2, p3 = C.p
    assert is_zero(Vn - (s * p1 / m - c * p2 / m)) and is_zero(F2n - 12 * p3 / (m * (ell**2 + sigma**2)))
    # (128): printed first row "(q̇3+χ) − (q̇2+χq1)" runs entries (1,2) and (1,3) together
    W128 = sp.Matrix([[0, u3 + chi, -(u2 + chi * q1)], [-(u3 + chi), 0, u1 - chi * q2], [0, 0, 0]])
    assert zero(C.W - W128)
    assert zero(C.W_frame - W128)  # frame route on R × Q (docs/mvm.md)
    Wmag = chi * sp.Matrix([[0, 1, -q1], [-1, 0, -q2], [0, 0, 0]])  # (129)
    assert zero(C.W - A.W - Wmag)
    wtp = C.WTp
    assert is_zero(c * wtp[0] + s * wtp[1] - 12 * p3 / (ell**2 + sigma**2) * (s * p1 / m - c * p2 / m))  # (130a)
    assert is_zero(wtp[2])  # (130b)
    (l1,) = C.lamdot
    rhs131 = [
        l1 * s + m * g * sp.sin(alpha) + Q * B0 * u2 / 2 - p2 * (u3 + chi),
        -l1 * c - Q * B0 * u1 / 2 + p1 * (u3 + chi),
        0,
    ]
    for k in range(3):
        assert is_zero(C.residuals()[k] + C.ddt(C.p[k]) - rhs131[k]), k  # (131a-c)
    # (132) with q̇^3 (printed "(q^3 + χ)", erratum PGG-8), relative to the TNHM with (125)
    mu132 = l1 - (p1 * c + p2 * s) * (u3 + chi)
    tn = C.tnhm_equations()
    for k in range(2):
        assert is_zero(C.on_constraint(tn[k].xreplace({C.mu[0]: mu132}) - C.residuals()[k])), k
    assert compare_mvm_with_nonholonomic(C).holds


# ================================================================ bridge to Crampin–Mestdag
def test_bridge_WTp_is_hamel_transpositional_term():
    """X_j^k (W^T p)_k = P_i R^i_jk v^k (Hamel's transpositional term) for the coin and skate Case A."""
    for mvm in (coin()[1], skate(False)[1]):
        assert zero(mvm.frame_components(mvm.WTp) - hamel_transpositional(mvm))


def test_bridge_theorem1_is_weak_consistency_on_p_section():
    """D-components of W^T p on C = P_a R^a_βγ v^γ (CM Theorem 2 (ii) with φ_a = P_a), D-block of R being zero."""
    for mvm, vanishes in ((coin()[1], True), (skate(False)[1], False)):
        assert d_block_holonomic(mvm)
        wc = weak_consistency_expression(mvm)
        assert zero(wc - compare_mvm_with_nonholonomic(mvm).d_components)
        assert zero(wc) == vanishes


# ================================================================ property-based
def _W_routes_agree(chart, omegas):
    Wc = fr.natural.w_from_coordinates(chart, omegas)
    Wf = fr.natural.w_from_frame(chart, omegas)
    return zero(Wc - Wf)


@settings(max_examples=15)
@given(data=st.data(), n=st.sampled_from([3, 4]), m=st.integers(1, 2))
def test_W_coordinate_equals_frame_route(data, n, m):
    ch = fr.Chart(" ".join(f"q{i + 1}" for i in range(n)))
    F = data.draw(frames_on(ch, trig=True))
    u = sp.Matrix(ch.u)
    omegas = list(F.coframe_matrix * u)
    assert _W_routes_agree(ch, omegas)
    # Ansatz-1 W satisfies (34)-(35)
    L = fr.Lagrangian(ch, sum(x**2 for x in ch.u) / 2)
    mvm = fr.ModifiedVakonomic(L, omegas[:m], omegas[m:])
    assert zero(mvm.solvability_conditions())


@settings(max_examples=10)
@given(data=st.data(), n=st.sampled_from([3, 4]))
def test_W_routes_agree_rheonomic_affine(data, n):
    """Time-dependent coframe with affine parts: frame route on R × Q = solution of (40)."""
    ch = fr.Chart(" ".join(f"q{i + 1}" for i in range(n)), time=True)
    t = ch.t
    F = data.draw(frames_on(fr.Chart(ch.q), trig=False))
    H = sp.Matrix(F.coframe_matrix)
    i = data.draw(st.integers(0, n - 1))
    H[i, :] = H[i, :] * (1 + t**2)
    cvec = [data.draw(functions_on_Q(fr.Chart(ch.q), trig=False, max_terms=2)) * t for _ in range(n)]
    omegas = [sp.expand((H.row(k) * sp.Matrix(ch.u))[0] + cvec[k]) for k in range(n)]
    assert _W_routes_agree(ch, omegas)


def _exact_case(data, n, timed):
    """V = d/dt f(q, t), F = d/dt g(q, t) (holonomic): W = 0 by both routes."""
    ch = fr.Chart(" ".join(f"q{i + 1}" for i in range(n)), time=True if timed else None)
    chq = fr.Chart(ch.q)
    q = ch.q
    phis = []
    for i in range(n):
        later = fr.Chart(q[i + 1 :]) if i + 1 < n else None  # triangular: dφ is invertible
        f = q[i] + sum((data.draw(functions_on_Q(later, trig=False, max_terms=1)) * q[j] for j in range(i + 1, n)), 0)
        if timed:
            f += ch.t * data.draw(functions_on_Q(chq, trig=False, max_terms=1))
        phis.append(f)
    omegas = [ch.total_derivative(f) for f in phis]
    assert zero(fr.natural.w_from_coordinates(ch, omegas))
    assert zero(fr.natural.w_from_frame(ch, omegas))


@settings(max_examples=8)
@given(data=st.data(), n=st.sampled_from([3, 4]))
def test_exact_quasi_velocities_give_W_zero(data, n):
    _exact_case(data, n, False)


@pytest.mark.slow
@settings(max_examples=8)
@given(data=st.data(), n=st.sampled_from([3, 4]))
def test_exact_rheonomic_quasi_velocities_give_W_zero(data, n):
    _exact_case(data, n, True)


def test_bad_input():
    mdl, _ = coin()
    u1, u2, u3, u4 = mdl.chart.u
    with pytest.raises(fr.errors.ConstraintError):
        fr.ModifiedVakonomic(mdl.lagrangian, [u1 * u2], [u2, u3, u4])  # not affine in u
    with pytest.raises(fr.errors.ConstraintError):
        fr.ModifiedVakonomic(mdl.lagrangian, [u1, u2], [u1 + u2, u4])  # singular H
    with pytest.raises(fr.errors.ConstraintError):
        fr.ModifiedVakonomic(mdl.lagrangian, [u1], [u2])  # not a coframe


# ================================================================ small Ω (92), continuity (87)
def _trunc(e, Om, order):
    """The Taylor polynomial of degree < order in Ω of a polynomial in Ω (exact truncation)."""
    P = sp.Poly(sp.expand(e), Om)
    return sp.Add(*[c * Om**k for (k,), c in P.terms() if k < order])


def _integrate_twice(e, t):
    """∫_0^t ∫_0^s e ds' ds for a polynomial e in t (zero initial data)."""
    P = sp.Poly(sp.expand(e), t).integrate().integrate()
    return P.as_expr()


def test_coin_small_omega_expansion_92():
    """(92a–b) from the library's MVM accelerations (51a) on C, solved as a power series in Ω (θ0 = 0, data 0).

    q1 = (1/3) R Φ Ω³ t³ + o(Ω) = (2/9) g sin α Ω t³ + O(Ω³) and q2 = (1/2) R Φ Ω² t² + o(1) = (1/3) g sin α t² + O(Ω²),
    Φ = 2 g sin α/(3RΩ²) (79b); the series also agree with those of the closed form (91a–b) to O(Ω⁶)."""
    mdl, mvm = coin()
    R, g, alpha = (mdl.params[k] for k in ("R", "g", "alpha"))
    _q1, _q2, _q3, q4 = mdl.chart.q
    _u1, _u2, u3, u4 = mdl.chart.u
    t, Om = sp.symbols("t Omega")
    N = 6
    acc = [mvm.on_constraint(e) for e in mvm.accelerations()]
    assert is_zero(acc[3])  # q̈4 = 0: q4 = Ωt (75)
    S = sum((-1) ** j * (Om * t) ** (2 * j + 1) / sp.factorial(2 * j + 1) for j in range(N))
    C = sum((-1) ** j * (Om * t) ** (2 * j) / sp.factorial(2 * j) for j in range(N))

    def along(e, extra=None):
        e = e.xreplace({sp.sin(q4): S, sp.cos(q4): C, u4: Om} | (extra or {}))
        return _trunc(e, Om, N)

    q3 = _integrate_twice(along(acc[2]), t)
    sub = {u3: sp.diff(q3, t)}
    q1 = _trunc(_integrate_twice(along(acc[0], sub), t), Om, N)
    q2 = _trunc(_integrate_twice(along(acc[1], sub), t), Om, N)
    Phi = 2 * g * sp.sin(alpha) / (3 * R * Om**2)
    c1 = sp.Poly(q1, Om)
    c2 = sp.Poly(q2, Om)
    # (92a): no Ω⁰ or Ω² term, Ω¹ term (1/3) R Φ Ω³ t³ = (2/9) g sin α Ω t³
    assert is_zero(c1.coeff_monomial(1)) and is_zero(c1.coeff_monomial(Om**2))
    assert is_zero(c1.coeff_monomial(Om) * Om - Rat(1, 3) * R * Phi * Om**3 * t**3)
    assert is_zero(c1.coeff_monomial(Om) - Rat(2, 9) * g * sp.sin(alpha) * t**3)
    # (92b): Ω⁰ term (1/2) R Φ Ω² t² = (1/3) g sin α t², no Ω¹ term
    assert is_zero(c2.coeff_monomial(1) - Rat(1, 2) * R * Phi * Om**2 * t**2)
    assert is_zero(c2.coeff_monomial(1) - Rat(1, 3) * g * sp.sin(alpha) * t**2)
    assert is_zero(c2.coeff_monomial(Om))
    # the closed form (91a–b) has the same series
    q1_91 = -Rat(1, 4) * R * Phi * sp.sin(2 * Om * t) + Rat(1, 2) * R * Om * Phi * t
    q2_91 = -Rat(1, 4) * R * Phi * (sp.cos(2 * Om * t) - 1)
    assert is_zero(sp.series(q1_91, Om, 0, N).removeO() - q1)
    assert is_zero(sp.series(q2_91, Om, 0, N).removeO() - q2)


def test_coin_continuity_87():
    """(87): lim_{Ω→0} q̂3(t; Ω) = q̂3(t; 0), uniformly on [t_in, t_fin]: (78)–(79a) minus (83) is Ω times a
    polynomial in (t, t_in) plus O(Ω²), with θ0 = q4_in − Ω t_in (75) and q4_in fixed."""
    mdl, _mvm = coin()
    R, g, alpha = (mdl.params[k] for k in ("R", "g", "alpha"))
    t, tin, Om, nu3, q3in, q4in = sp.symbols("t t_in Omega nu3_in q3_in q4_in")
    th0 = q4in - Om * tin
    Phi = 2 * g * sp.sin(alpha) / (3 * R * Om**2)
    Phic, Phis = Phi * sp.cos(th0), Phi * sp.sin(th0)
    q3osc = (
        Phis * (sp.sin(Om * t) - sp.sin(Om * tin))
        - Phic * (sp.cos(Om * t) - sp.cos(Om * tin))
        - Om * (t - tin) * (Phic * sp.sin(Om * tin) + Phis * sp.cos(Om * tin))
    )  # (79a)
    q3 = q3osc + nu3 * (t - tin) + q3in  # (78)
    xi = 2 * g * sp.sin(alpha) * sp.cos(q4in) / (3 * R)
    q30 = xi * (t - tin) ** 2 / 2 + nu3 * (t - tin) + q3in  # (83), θ0 = q4_in at Ω = 0
    # Taylor polynomials of the trigonometric functions of Ωt, Ωt_in (θ0 expanded by the angle formulas)
    e = sp.expand_trig(sp.expand((q3 - q30) * Om**2))
    taylor = {}
    for a in (t, tin):
        taylor[sp.sin(Om * a)] = sum((-1) ** j * (Om * a) ** (2 * j + 1) / sp.factorial(2 * j + 1) for j in range(3))
        taylor[sp.cos(Om * a)] = sum((-1) ** j * (Om * a) ** (2 * j) / sp.factorial(2 * j) for j in range(3))
    P = sp.Poly(sp.expand(e.xreplace(taylor)), Om)  # Ω² (q̂3(t; Ω) − q̂3(t; 0)) to O(Ω⁵)
    assert all(is_zero(P.coeff_monomial(Om**k)) for k in range(3))  # the limit (87): the difference is O(Ω)
    lin = P.coeff_monomial(Om**3)
    assert lin.free_symbols & {t, tin} and sp.Poly(lin, t, tin).total_degree() == 3  # bounded on compacts
    assert is_zero(lin + g * sp.sin(alpha) * sp.sin(q4in) * (t - tin) ** 3 / (9 * R))


# ================================================================ Case C: (133), Remark 12
@cache
def caseC(td):
    mdl, _A = skate(td)
    P = mdl.params
    q1, q2, q3 = mdl.chart.q
    u1, u2, u3 = mdl.chart.u
    s, c = sp.sin(q3), sp.cos(q3)
    chi = P["Q"] * mdl.symbols["B0"] / (2 * P["m"])
    V = s * (u1 - chi * q2) - c * (u2 + chi * q1)  # (125)
    return fr.ModifiedVakonomic(mdl.lagrangian, [V], [u3 + chi, c * (u1 - chi * q2) + s * (u2 + chi * q1)]), chi


@BOTH
def test_skate_caseC_133_transpositional_relations_in_normalized_momenta(td):
    """(133a–c): ζ − η̇ = W_new η in the normalized momenta π (the 'effective velocities'), and Remark 12:
    W_new^h_k = C^h_ℓk π^ℓ with the canonical-flip coefficients of Case A, Remark 7 (112a–d)."""
    mdl, A = skate(td)
    m, ell, sigma, *_ = skate_syms(mdl)
    C, chi = caseC(td)
    q1, q2, q3 = mdl.chart.q
    u1, u2, u3 = mdl.chart.u
    p1, p2, p3 = C.p
    pi = [p1 / m, p2 / m, 12 * p3 / (m * (ell**2 + sigma**2))]
    # the underbraces of (126a–b): π¹ = q̇¹ − χq², π² = q̇² + χq¹, π³ = q̇³ + χ
    assert zero(sp.Matrix(pi) - sp.Matrix([u1 - chi * q2, u2 + chi * q1, u3 + chi]))
    eta = sp.Matrix(sp.symbols("eta1:4"))
    rhs = C.W * eta  # ζ − η̇ = W η (15)
    assert zero(rhs[0] - (pi[2] * eta[1] - pi[1] * eta[2]))  # (133a)
    assert zero(rhs[1] - (-pi[2] * eta[0] + pi[0] * eta[2]))  # (133b)
    assert zero(rhs[2])  # (133c)
    _, CA = A.flip_coefficients()
    assert (CA[0, 2, 1], CA[0, 1, 2], CA[1, 2, 0], CA[1, 0, 2]) == (1, -1, -1, 1)  # (112a–d)
    assert zero(C.W - sp.Matrix(3, 3, lambda h, k: sum(CA[h, l, k] * pi[l] for l in range(3))))
    # printed (133a) with positions (q³ + χ), (q² + χq¹): not W η (erratum PGG-8)
    assert not zero(rhs[0] - ((q3 + chi) * eta[1] - (q2 + chi * q1) * eta[2]))


# ================================================================ Talamucci's comparison (60)–(66), Case B
@pytest.mark.slow  # Ansatz 2 for the skate: ~8 s when caseB(False) is not cached in this worker
def test_skate_caseB_talamucci_64_fails_while_theorem1_holds():
    """Case B (ϱ = 0): D_1 V = 0 (65) and (60) is the MVM, but (64) p_h ω_hj = 0 fails on C: the MVM has the
    TNHM's accelerations (Theorem 1) with λ̇ ≠ λ_Chetaev ((55b)); (64) is sufficient, not necessary, for the motions."""
    from frames.natural import compare_mvm_with_chetaev

    res = caseB(False)
    B = res.system.with_W(res.W.xreplace({res.free[0]: 0}))
    r = compare_mvm_with_chetaev(B)
    assert r.d1_constraints.is_zero_matrix and all(is_zero(x) for x in r.mvm_identity)
    assert not r.momentum_condition and not B.momentum_condition()
    assert compare_mvm_with_nonholonomic(B).holds
    S = fr.ChetaevSystem(B.lagrangian, B.constraints)
    acc, lam = S.accelerations(), S.multipliers()
    qdd, lamd = B.accelerations(), B.rates()
    assert all(is_zero(B.on_constraint(a - b)) for a, b in zip(acc, qdd, strict=True))
    assert not is_zero(B.on_constraint(lam[0] - lamd[0]))
