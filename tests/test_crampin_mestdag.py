"""Crampin & Mestdag (2010), "Anholonomic frames in constrained dynamics".

One test per displayed result. The left-hand side of every comparison is
computed by the library; the right-hand side is the printed formula (or, where
the print is wrong, the corrected one with the reason in a comment and in
docs/errata.md). Each geometric result is also cross-checked against a direct
coordinate computation in the test.
"""

import pytest
import sympy as sp

import frames as fr
from frames import models
from frames._simplify import is_zero


def _coordinate_bracket(Y, Z, q):
    """[Y, Z]^k = Y^j ∂_j Z^k − Z^j ∂_j Y^k, computed from scratch."""
    n = len(q)
    return [
        sp.simplify(sum(Y[j] * sp.diff(Z[k], q[j]) - Z[j] * sp.diff(Y[k], q[j]) for j in range(n))) for k in range(n)
    ]


# ------------------------------------------------------------------ 7.1
def test_nonholonomic_particle_bracket():
    """[X1, X2] = −X3 (section 7.1)."""
    mdl = models.nonholonomic_particle()
    X1, X2, X3 = mdl.frame.fields
    B = fr.bracket(X1, X2)
    assert B.equals(-X3)
    direct = _coordinate_bracket(list(X1.components), list(X2.components), mdl.chart.q)
    assert all(is_zero(a - b) for a, b in zip(direct, (-X3).components))
    R = mdl.frame.anholonomy
    assert R[2, 0, 1] == -1 and R[2, 1, 0] == 1


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_class71_bracket(k):
    """[X1, X2] = −Σ_a Δ_a′ X_a with symbolic Δ_a(q1) (section 7.1)."""
    mdl = models.class71(k)
    F = mdl.frame
    D = mdl.extras["deltas"]
    q1 = mdl.chart.q[0]
    expected = sum((-sp.diff(D[a], q1) * F.fields[2 + a] for a in range(k)), fr.VectorField(mdl.chart, [0] * (k + 2)))
    assert fr.bracket(F.fields[0], F.fields[1]).equals(expected)
    direct = _coordinate_bracket(list(F.fields[0].components), list(F.fields[1].components), mdl.chart.q)
    assert all(is_zero(a - b) for a, b in zip(direct, expected.components))
    # the only non-vanishing bracket of the frame
    R = F.anholonomy
    for i in range(k + 2):
        for j in range(k + 2):
            for c in range(k + 2):
                if {i, j} == {0, 1} and c >= 2:
                    sign = 1 if (i, j) == (0, 1) else -1
                    assert is_zero(R[c, i, j] + sign * sp.diff(D[c - 2], q1))
                else:
                    assert R[c, i, j] == 0


# ------------------------------------------------------------------ 7.2
def test_two_wheeled_carriage_bracket():
    """[X1, X2] of section 7.2.

    Erratum CM-1 (docs/errata.md): the paper prints
    ``[X1, X2] = (R²/2c)(sin θ X3 − cos θ X4)``. With the bracket convention
    ``[Y,Z]^k = Y^j ∂_j Z^k − Z^j ∂_j Y^k`` and the printed X1, X2:
    ``[X1,X2]^x = X1(−R/2 cos θ) − X2(−R/2 cos θ) = (X1^θ − X2^θ)(R/2) sin θ
    = −(R/c)(R/2) sin θ``, so the bracket is ``−(R²/2c)(sin θ X3 − cos θ X4)``.
    The direct coordinate computation below confirms the library's sign.
    """
    mdl = models.two_wheeled_carriage()
    F = mdl.frame
    R, c = mdl.params["R"], mdl.params["c"]
    th = mdl.chart.q[4]
    X1, X2, X3, X4, _ = F.fields
    printed = R**2 / (2 * c) * (sp.sin(th) * X3 - sp.cos(th) * X4)
    expected = -printed  # erratum CM-1
    assert fr.bracket(X1, X2).equals(expected)
    assert not fr.bracket(X1, X2).equals(printed)
    direct = _coordinate_bracket(list(X1.components), list(X2.components), mdl.chart.q)
    assert all(is_zero(a - b) for a, b in zip(direct, expected.components))


def test_two_wheeled_carriage_complete_lifts_of_quasi_velocities():
    """X_α^C(v3), X_α^C(v4) on C (section 7.2).

    The paper prints X_1^C(v3) = −(R²/2c) sin θ v2, X_1^C(v4) = (R²/2c) cos θ v2,
    X_2^C(v3) = (R²/2c) sin θ v1, X_2^C(v4) = −(R²/2c) cos θ v1. These follow from
    X_α^C(v^a) = −R^a_αβ v^β with the printed (sign-flipped, erratum CM-1) bracket;
    with the correct bracket every value changes sign. Both the frame formula and
    the natural-coordinate lift Z^C(v_θ) agree on the corrected values.
    """
    mdl = models.two_wheeled_carriage()
    F = mdl.frame
    R, c = mdl.params["R"], mdl.params["c"]
    th = mdl.chart.q[4]
    v = F.v
    k = -(R**2) / (2 * c)  # erratum CM-1: the printed values carry the opposite sign
    expected = {
        (0, 2): -k * sp.sin(th) * v[1],
        (0, 3): k * sp.cos(th) * v[1],
        (1, 2): k * sp.sin(th) * v[0],
        (1, 3): -k * sp.cos(th) * v[0],
    }
    on_C = {v[2]: 0, v[3]: 0, v[4]: 0}
    for (al, a), val in expected.items():
        # frame route: X_α^C = X_α^j ∂_j − R^j_αk v^k ∂_{v^j}
        got = F.apply_complete(al, v[a]).xreplace(on_C)
        assert is_zero(got - val)
        # natural-coordinate route: Z^C(v_θ) with v^a = θ^a_j u^j
        nat = F.fields[al].complete_lift()(F.v_in_u[a])
        assert is_zero(F.to_quasi(nat).xreplace(on_C) - val)
    # the other derivatives of quasi-velocities along X_α^C vanish on C
    for al in (0, 1):
        for b in (0, 1, 4):
            assert is_zero(F.apply_complete(al, v[b]).xreplace(on_C))


def test_nonholonomic_particle_field():
    """Γ = v1 X1^C + v2 X2^C − q1 v1 v2/(1+q1²) X2^V (section 7.1)."""
    mdl = models.nonholonomic_particle()
    nh = fr.NonholonomicSystem(mdl.lagrangian, mdl.frame, m=2)
    G = nh.field()
    q1 = mdl.chart.q[0]
    v1, v2, _ = mdl.frame.v
    assert is_zero(G.Gamma[0])
    assert is_zero(G.Gamma[1] - (-q1 * v1 * v2 / (1 + q1**2)))
    assert G.Gamma[2] == 0


# ------------------------------------------------------------------ 2.2-2.3 and 4: Cartan forms
def _section4_check(L, F, m):
    """Solve Γ̂ ⌟ ω̂ = −dÊ for L̂ = L − μ_a v^a and check the section 4 statements."""
    vk = fr.CartanSystem.vakonomic(L, F, m)
    sol = vk.solve()
    n = F.dim
    v = F.v
    mu = vk.extra
    R = F.anholonomy
    # "the coefficient of the term in dμ_a must vanish, whence θ^a(Γ̂) = 0 = v^a":
    # a solution exists only on C × R^{n−m}, and θ^i(Γ̂) = v^i (second-order type)
    assert sol.locus == {v[a]: 0 for a in range(m, n)}
    assert set(sol.conditions) == {v[a] for a in range(m, n)}
    assert all(is_zero(c) for c in sol.second_order_coefficients())
    assert all(is_zero(sol.on_locus()[a]) for a in range(m, n))  # θ^a(Γ̂) = 0
    # "Γ_μ is completely undetermined": the μ-velocities A_a are the free parameters
    A = sol.parameters
    assert len(A) == n - m and sol.components[2 * n :] == A
    Lv = L.in_frame(F)
    on_C = sol.locus
    for al in range(m):
        lhs = sol(sp.diff(Lv, v[al])) - F.apply_complete(al, Lv).xreplace(on_C)
        rhs = sum((mu[a - m] * R[a, al, be] * v[be] for a in range(m, n) for be in range(m)), sp.S.Zero)
        assert is_zero(lhs - rhs)
    for a in range(m, n):
        lhs = sol(sp.diff(Lv, v[a])) - F.apply_complete(a, Lv).xreplace(on_C)
        rhs = sum((mu[b - m] * R[b, a, al] * v[al] for b in range(m, n) for al in range(m)), sp.S.Zero)
        rhs += sol(mu[a - m])  # Γ̂(μ_a)
        assert is_zero(lhs - rhs)
        assert sol(mu[a - m]) == A[a - m]
    # the solution satisfies Γ̂ ⌟ ω̂ = −dÊ on C × R^{n−m}, checked in coordinates (q, v, μ)
    assert vk.residual(sol.vector(on_locus=True)).xreplace(on_C).is_zero()
    # Ê = E (the energy of L)
    assert is_zero(vk.energy() - L.energy(F))
    return sol


def test_cartan_route_reproduces_prop1_nonholonomic_particle():
    """Section 2.3: Γ ⌟ ω = −dE gives θ^j(Γ) = v^j and Γ(X_i^V L) − X_i^C L = 0 (Proposition 1)."""
    mdl = models.nonholonomic_particle()
    L, F = mdl.lagrangian, mdl.frame
    cs = L.cartan(F)
    sol = cs.solve()
    assert sol.is_unique and sol.exists_everywhere
    G = sol.as_second_order_field()
    assert G.equals(L.euler_lagrange_field(F))
    assert G.equals(L.euler_lagrange_field())
    # the pair of equations obtained by evaluating on X_i^V and X_i^C: for an arbitrary vector
    # Γ = k^i X_i^C + Γ^i X_i^V, (Γ ⌟ ω + dE)(X_i^V) = −g_ij (k^j − v^j)
    k = sp.symbols("k1:4")
    Gs = sp.symbols("G1:4")
    Ys = cs.lifted_frame()
    vec = [sum(c * Y[I] for c, Y in zip(list(k) + list(Gs), Ys)) for I in range(6)]
    res = cs.residual(vec)
    g = L.hessian(F)
    for i in range(3):
        expected = -sum(g[i, j] * (k[j] - F.v[j]) for j in range(3))
        assert is_zero(res(Ys[3 + i]) - expected)
    # the Cartan 2-form in the frame: X_i^C ⌟ dθ^j = −R^j_ik θ^k, e.g. dθ^3 = −dq1 ∧ dq2... = θ^1 ∧ θ^2
    th3 = cs.theta(2)
    assert th3.d().equals(cs.theta(0) ^ cs.theta(1))


def test_vakonomic_cartan_equations_nonholonomic_particle():
    """Section 4 for L̂ = L − μ3 v3 on the nonholonomic particle ([X1, X2] = −X3)."""
    mdl = models.nonholonomic_particle()
    sol = _section4_check(mdl.lagrangian, mdl.frame, mdl.m)
    v1, v2, _ = mdl.frame.v
    (mu3,) = sol.system.extra
    (A3,) = sol.parameters
    q1 = mdl.chart.q[0]
    # explicit: Γ̂ = v^α X_α^C − μ3 v2 X1^V + (μ3 v1 + q1 A3) X2^V + (…) X3^V + A3 ∂/∂μ3 on C
    on = sol.on_locus()
    assert is_zero(on[3] + mu3 * v2)
    assert is_zero(on[4] - (mu3 * v1 + q1 * A3))


@pytest.mark.slow
def test_vakonomic_cartan_equations_two_wheeled_carriage():
    """Section 4 for L̂ = L − μ_a v^a on the two-wheeled carriage (a = 3, 4, 5).

    The parameters are given their default rational values (the fully symbolic
    13-coordinate elimination takes over 10 minutes); the frame, its object of
    anholonomy and the checks are those of the general case.
    """
    mdl = models.two_wheeled_carriage()
    vals = {s: sp.Rational(str(x)) for s, x in mdl.param_values.items()}
    ch = fr.Chart(mdl.chart.q, mdl.chart.u)
    L = fr.Lagrangian(ch, mdl.lagrangian.expr.xreplace(vals))
    F = fr.Frame([fr.VectorField(ch, [c.xreplace(vals) for c in X.components]) for X in mdl.frame.fields])
    # the bracket with the library's sign (erratum CM-1): R^3_12 = −(R²/2c) sin θ
    th = ch.q[4]
    assert is_zero(F.anholonomy[2, 0, 1] + vals[mdl.params["R"]] ** 2 / (2 * vals[mdl.params["c"]]) * sp.sin(th))
    _section4_check(L, F, mdl.m)


# ------------------------------------------------- 7.2: nonholonomic dynamics of the carriage
def _carriage():
    mdl = models.two_wheeled_carriage()
    p = mdl.params
    m, m0, l, J, J2, R, c = (p[k] for k in ("m", "m0", "l", "J", "J2", "R", "c"))
    P = R**2 / (4 * c**2) * (J + m * c**2) + J2
    Q = R**2 / (4 * c**2) * (J - m * c**2)
    K = m0 * l * R**3 / (4 * c**2)
    return mdl, mdl.nonholonomic(), (m, m0, l, J, J2, R, c), P, Q, K


def test_two_wheeled_carriage_constrained_lagrangian():
    """L_c = ½ P (v1² + v2²) − Q v1 v2, P = (R²/4c²)(J + mc²) + J2, Q = (R²/4c²)(J − mc²) (section 7.2)."""
    mdl, nh, _, P, Q, _ = _carriage()
    v1, v2 = mdl.frame.v[:2]
    Lc = nh.constrained_lagrangian()
    assert is_zero(Lc - (P * (v1**2 + v2**2) / 2 - Q * v1 * v2))
    # independent route: L with u = v1 X1 + v2 X2 substituted directly
    X1, X2 = mdl.frame.fields[:2]
    direct = mdl.lagrangian.expr.xreplace(dict(zip(mdl.chart.u, v1 * X1.components + v2 * X2.components)))
    assert is_zero(Lc - direct)
    # the printed coefficients are constants
    assert not (P.free_symbols | Q.free_symbols) & set(mdl.chart.q)


def test_two_wheeled_carriage_complete_lifts_of_L():
    """X_1^C(L), X_2^C(L) on C (section 7.2). Erratum CM-2 (docs/errata.md).

    The paper prints ``X_1^C(L) = −(m0 l R³/4c²)(v1 − v2) v2`` and
    ``X_2^C(L) = (m0 l R³/4c²)(v1 − v2) v1``. On C, ``X_α^C(L) = X_α^C(v^a) p_a`` for the
    terms linear in v3, v4 (the paper's own argument), and with the corrected bracket
    (erratum CM-1) every ``X_α^C(v^a)`` changes sign, so ``X_1^C(L) = +K (v1 − v2) v2`` and
    ``X_2^C(L) = −K (v1 − v2) v1``. Computed below from the full L in the frame with
    ``X_i^C = X_i^j ∂_j − R^j_ik v^k ∂_{v^j}``, and confirmed by the natural-coordinate lift
    ``Z^C = Z^i ∂_{q^i} + u^j ∂_j Z^i ∂_{u^i}`` applied to L(q, u).
    """
    mdl, nh, _, _, _, K = _carriage()
    F = mdl.frame
    v1, v2 = F.v[:2]
    Lv = mdl.lagrangian.in_frame(F)
    printed = (-K * (v1 - v2) * v2, K * (v1 - v2) * v1)
    for al in (0, 1):
        got = F.apply_complete(al, Lv).xreplace(nh.on_C)
        nat = F.to_quasi(F.fields[al].complete_lift()(mdl.lagrangian.expr)).xreplace(nh.on_C)
        assert is_zero(got - nat)
        assert is_zero(got + printed[al])  # erratum CM-2: opposite sign to the print
        assert not is_zero(got - printed[al])


def test_two_wheeled_carriage_nonholonomic_field():
    """Γ_1, Γ_2 with K = m0 l R³/4c² (section 7.2). Erratum CM-2.

    Printed: ``Γ_1 = K/(P²−Q²) (v1−v2)(Q v1 − P v2)``, ``Γ_2 = K/(P²−Q²) (v1−v2)(P v1 − Q v2)``,
    from the printed equations ``P Γ1 − Q Γ2 + K (v1−v2) v2 = 0``, ``−Q Γ1 + P Γ2 − K (v1−v2) v1 = 0``.
    With the corrected X_α^C(L) the K terms change sign, and so do Γ_1, Γ_2. The library's Γ
    agrees with the textbook Lagrange-multiplier equations from sympy.physics.mechanics
    (tests/test_nonholonomic.py::test_carriage_agrees_with_sympy_mechanics), here checked through
    the equations of motion: ψ̈_i = Γ_i since v_i = u_ψi.
    """
    mdl, nh, _, P, Q, K = _carriage()
    v1, v2 = mdl.frame.v[:2]
    G = nh.field()
    printed = (
        K / (P**2 - Q**2) * (v1 - v2) * (Q * v1 - P * v2),
        K / (P**2 - Q**2) * (v1 - v2) * (P * v1 - Q * v2),
    )
    assert is_zero(G.Gamma[0] + printed[0]) and is_zero(G.Gamma[1] + printed[1])  # erratum CM-2
    assert not is_zero(G.Gamma[0] - printed[0])
    assert all(G.Gamma[i] == 0 for i in (2, 3, 4))
    # the fundamental equations with the library's K-terms: P Γ1 − Q Γ2 − K (v1−v2) v2 = 0, ...
    assert is_zero(P * G.Gamma[0] - Q * G.Gamma[1] - K * (v1 - v2) * v2)
    assert is_zero(-Q * G.Gamma[0] + P * G.Gamma[1] + K * (v1 - v2) * v1)
    # l = 0: the wheels spin at constant speeds (printed remark, sign-independent)
    l = mdl.params["l"]
    assert all(is_zero(g.subs(l, 0)) for g in G.Gamma)


def test_two_wheeled_carriage_momenta_on_C():
    """p_3, p_4 on C (section 7.2): printed values confirmed.

    ``p_3 = −½ m R (v1+v2) cos θ + (2cK/R²)(v1−v2) sin θ``,
    ``p_4 = −½ m R (v1+v2) sin θ − (2cK/R²)(v1−v2) cos θ``. These do not involve the bracket, so
    erratum CM-1 does not affect them. Checked also from ``X_a^V L = X_a^k ∂L/∂u^k``.
    """
    mdl, nh, (m, _, _, _, _, R, c), _, _, K = _carriage()
    F = mdl.frame
    v1, v2 = F.v[:2]
    th = mdl.chart.q[4]
    p = nh.momenta()
    p3 = -m * R / 2 * (v1 + v2) * sp.cos(th) + 2 * c * K / R**2 * (v1 - v2) * sp.sin(th)
    p4 = -m * R / 2 * (v1 + v2) * sp.sin(th) - 2 * c * K / R**2 * (v1 - v2) * sp.cos(th)
    assert is_zero(p[2] - p3) and is_zero(p[3] - p4)
    Lv = mdl.lagrangian.in_frame(F)
    assert is_zero(sp.diff(Lv, F.v[2]).xreplace(nh.on_C) - p3)
    assert is_zero(sp.diff(Lv, F.v[3]).xreplace(nh.on_C) - p4)
