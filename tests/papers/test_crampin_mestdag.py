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
from frames.algebra import is_zero


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
    mdl = models.abelian_chaplygin(k)
    F = mdl.frame
    D = mdl.deltas
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
    sol = vk.solution()
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
    cs = fr.CartanSystem(F, L)
    sol = cs.solution()
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
def _carriage_nh():
    mdl = models.two_wheeled_carriage()
    p = mdl.params
    m, m0, l, J, J2, R, c = (p[k] for k in ("m", "m0", "l", "J", "J2", "R", "c"))
    P = R**2 / (4 * c**2) * (J + m * c**2) + J2
    Q = R**2 / (4 * c**2) * (J - m * c**2)
    K = m0 * l * R**3 / (4 * c**2)
    return mdl, mdl.nonholonomic(), (m, m0, l, J, J2, R, c), P, Q, K


def test_two_wheeled_carriage_constrained_lagrangian():
    """L_c = ½ P (v1² + v2²) − Q v1 v2, P = (R²/4c²)(J + mc²) + J2, Q = (R²/4c²)(J − mc²) (section 7.2)."""
    mdl, nh, _, P, Q, _ = _carriage_nh()
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
    """X_1^C(L), X_2^C(L) on C (section 7.2). Erratum CM-6 (docs/errata.md).

    The paper prints ``X_1^C(L) = −(m0 l R³/4c²)(v1 − v2) v2`` and
    ``X_2^C(L) = (m0 l R³/4c²)(v1 − v2) v1``. On C, ``X_α^C(L) = X_α^C(v^a) p_a`` for the
    terms linear in v3, v4 (the paper's own argument), and with the corrected bracket
    (erratum CM-1) every ``X_α^C(v^a)`` changes sign, so ``X_1^C(L) = +K (v1 − v2) v2`` and
    ``X_2^C(L) = −K (v1 − v2) v1``. Computed below from the full L in the frame with
    ``X_i^C = X_i^j ∂_j − R^j_ik v^k ∂_{v^j}``, and confirmed by the natural-coordinate lift
    ``Z^C = Z^i ∂_{q^i} + u^j ∂_j Z^i ∂_{u^i}`` applied to L(q, u).
    """
    mdl, nh, _, _, _, K = _carriage_nh()
    F = mdl.frame
    v1, v2 = F.v[:2]
    Lv = mdl.lagrangian.in_frame(F)
    printed = (-K * (v1 - v2) * v2, K * (v1 - v2) * v1)
    for al in (0, 1):
        got = F.apply_complete(al, Lv).xreplace(nh.on_C)
        nat = F.to_quasi(F.fields[al].complete_lift()(mdl.lagrangian.expr)).xreplace(nh.on_C)
        assert is_zero(got - nat)
        assert is_zero(got + printed[al])  # erratum CM-6: opposite sign to the print
        assert not is_zero(got - printed[al])


def test_two_wheeled_carriage_nonholonomic_field():
    """Γ_1, Γ_2 with K = m0 l R³/4c² (section 7.2). Erratum CM-6.

    Printed: ``Γ_1 = K/(P²−Q²) (v1−v2)(Q v1 − P v2)``, ``Γ_2 = K/(P²−Q²) (v1−v2)(P v1 − Q v2)``,
    from the printed equations ``P Γ1 − Q Γ2 + K (v1−v2) v2 = 0``, ``−Q Γ1 + P Γ2 − K (v1−v2) v1 = 0``.
    With the corrected X_α^C(L) the K terms change sign, and so do Γ_1, Γ_2. The library's Γ
    agrees with the textbook Lagrange-multiplier equations from sympy.physics.mechanics
    (tests/dynamics/test_nonholonomic.py::test_carriage_agrees_with_sympy_mechanics), here checked through
    the equations of motion: ψ̈_i = Γ_i since v_i = u_ψi.
    """
    mdl, nh, _, P, Q, K = _carriage_nh()
    v1, v2 = mdl.frame.v[:2]
    G = nh.field()
    printed = (
        K / (P**2 - Q**2) * (v1 - v2) * (Q * v1 - P * v2),
        K / (P**2 - Q**2) * (v1 - v2) * (P * v1 - Q * v2),
    )
    assert is_zero(G.Gamma[0] + printed[0]) and is_zero(G.Gamma[1] + printed[1])  # erratum CM-6
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
    mdl, nh, (m, _, _, _, _, R, c), _, _, K = _carriage_nh()
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


# ------------------------------------------------------------------ sections 4-7: vakonomic, consistency, Chaplygin
def _particle_vk():
    mdl = models.nonholonomic_particle()
    return mdl, fr.VakonomicSystem(mdl.lagrangian, mdl.frame, m=2)


def test_particle_vakonomic_field_A_arbitrary():
    """Proposition 3 for the nonholonomic particle (section 7.1), A arbitrary.

    Erratum CM-2: the paper prints
    ``Γ̂ = v1X1^C + v2X2^C − μ q2 X1^V + (μ v1 + q1 A) X2^V + ((1+q1²)A + v1v2 − μ q1 v1) X3^V + A ∂/∂μ``.
    Derivation: on C, X_1^V L = v1, X_2^V L = (1+q1²)v2 − q1 v3, X_3^V L = v3 − q1 v2, and
    R^3_12 = −1. The α = 1 equation reads Γ^1 − X_1^C L = μ R^3_12 v2 with
    X_1^C L = −R^3_12 v2 ∂L/∂v3 = −q1 v2²·0… = 0 on C, so Γ^1 = −μ v2 (a function on C cannot contain q2
    in this q2-invariant problem). Solving the remaining two equations gives the X3^V coefficient
    (1+q1²)A + v1v2 + μ q1 v1 (sign of the μ term opposite to the print). The residuals of the
    vakonomic equations vanish identically for the library's field.
    """
    mdl, vk = _particle_vk()
    q1, q2, _ = mdl.chart.q
    v1, v2, _ = mdl.frame.v
    (mu,), (A,) = vk.mu, vk.A
    G = vk.field()
    assert all(is_zero(r) for r in G.residuals())
    printed = (-mu * q2, mu * v1 + q1 * A, (1 + q1**2) * A + v1 * v2 - mu * q1 * v1)
    derived = (-mu * v2, mu * v1 + q1 * A, (1 + q1**2) * A + v1 * v2 + mu * q1 * v1)
    assert all(is_zero(g - d) for g, d in zip(G, derived))
    assert not is_zero(G[0] - printed[0]) and not is_zero(G[2] - printed[2])
    assert is_zero(G[1] - printed[1])
    # the printed field violates the α = 1 vakonomic equation
    assert not all(is_zero(r) for r in vk.vakonomic_residuals(printed, (A,), (mu,)))


def test_particle_tangent_A():
    """Proposition 4: the A making Γ_C tangent to C (section 7.1).

    Erratum CM-3: printed ``A = (μ q1 v1 − v1 v2)/(1 + q1²)``; from the (corrected) X3^V coefficient
    (1+q1²)A + v1v2 + μ q1 v1 = 0 the library derives ``A = −(μ q1 v1 + v1 v2)/(1 + q1²)``.
    """
    mdl, vk = _particle_vk()
    q1 = mdl.chart.q[0]
    v1, v2, _ = mdl.frame.v
    (mu,) = vk.mu
    tf = vk.tangent_field()
    assert is_zero(tf.A[0] + (mu * q1 * v1 + v1 * v2) / (1 + q1**2))
    assert not is_zero(tf.A[0] - (mu * q1 * v1 - v1 * v2) / (1 + q1**2))
    # with this A the transverse coefficient of Proposition 3 vanishes
    assert is_zero(vk.field(A=tf.A)[2])
    # A_a = Λ_a − φ_b R^b_aα v^α (here R^3_3α = 0, so A = Λ)
    assert is_zero(tf.A[0] - tf.Lambda[0])


def test_particle_consistency():
    """No strong consistency on μ = p; weak consistency on μ = 0 where Γ_C = Γ (section 7.1)."""
    mdl, vk = _particle_vk()
    q1 = mdl.chart.q[0]
    v1, v2, _ = mdl.frame.v
    p = vk.nonholonomic.momenta()[2:]
    assert is_zero(p[0] + q1 * v2)
    s = fr.strong_consistency(vk, p)
    assert s.holds is False
    assert is_zero(s.conditions[0] - q1 * v2**2) and is_zero(s.conditions[1] + q1 * v1 * v2)
    w = fr.weak_consistency(vk, [0])
    assert w.holds is True
    assert vk.tangent_field([0]).field.equals(vk.nonholonomic.field())
    # Theorem 2 (iii): the zero-section lift Γ + λ ∂/∂μ is vakonomic
    lift = fr.vakonomic_lift(vk, [0])
    assert lift.satisfies is True
    assert is_zero(lift.field.A[0] - vk.nonholonomic.multipliers()[0])
    # ... but not on μ = p, where weak consistency fails
    assert fr.vakonomic_lift(vk, p).satisfies is False
    # N = (1 + q1²)^(-1/2) (density w.r.t. dq ∧ dp) is not constant
    X1, X2, X3 = mdl.frame.fields
    N = fr.ChaplyginSystem(mdl.lagrangian, [X1, X2], [X3]).invariant_measure_density()
    assert sp.diff(N, q1) != 0
    assert is_zero(sp.diff(N * sp.sqrt(1 + q1**2), q1))


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_class71_consistency_and_routhian(k):
    """Section 7.1 class: consistency at φ = p ⇔ Σ I_a Δ_a Δ_a′ = 0; L̃ as printed."""
    mdl = models.abelian_chaplygin(k)
    ch = fr.ChaplyginSystem.from_model(mdl)
    q, u, v = mdl.chart.q, mdl.chart.u, mdl.frame.v
    D = mdl.deltas
    I = [mdl.params[f"I{i}"] for i in range(1, k + 3)]
    S = sum(I[2 + a] * D[a] * sp.diff(D[a], q[0]) for a in range(k))
    p = ch.momenta()
    assert all(is_zero(p[a] + I[2 + a] * D[a] * v[1]) for a in range(k))
    vk = ch.vakonomic()
    res = fr.strong_consistency(vk, p)
    # printed: (Σ I_a Δ_a Δ_a′) v2² = 0 and (Σ I_a Δ_a Δ_a′) v1 v2 = 0; the library gets −v1v2 for α = 2
    assert is_zero(res.conditions[0] - S * v[1] ** 2)
    assert is_zero(res.conditions[1] + S * v[1] * v[0])
    assert all(is_zero(c) for c in res.conditions[2:])  # Γ(p_a) = λ_a
    assert res.holds is False  # symbolic Δ_a: Σ I_a Δ_a Δ_a′ ≠ 0 identically
    Ninv2 = I[1] + sum(I[2 + a] * D[a] ** 2 for a in range(k))
    Lt_v = (I[0] * v[0] ** 2 + Ninv2 * v[1] ** 2 - sum(I[2 + a] * v[2 + a] ** 2 for a in range(k))) / 2
    assert is_zero(ch.routhian_in_frame() - Lt_v)
    Lt_u = (I[0] * u[0] ** 2 + I[1] * u[1] ** 2 - sum(I[2 + a] * u[2 + a] ** 2 for a in range(k))) / 2 - sum(
        D[a] * I[2 + a] * u[2 + a] * u[1] for a in range(k)
    )
    assert is_zero(ch.routhian().expr - Lt_u)


@pytest.mark.parametrize("k", [1, 2])
def test_class71_invariant_measure(k):
    """N(q1) = (I2 + Σ I_a Δ_a²)^(-1/2), up to a constant factor (section 7.1).

    The library's density is relative to dq ∧ dp_α (p_α = ∂L_c/∂v^α), as in [4]; relative to
    dq ∧ dv^α the invariant density is 1/N (times a constant).
    """
    mdl = models.abelian_chaplygin(k)
    ch = fr.ChaplyginSystem.from_model(mdl)
    q = mdl.chart.q
    D = mdl.deltas
    I = [mdl.params[f"I{i}"] for i in range(1, k + 3)]
    printed = 1 / sp.sqrt(I[1] + sum(I[2 + a] * D[a] ** 2 for a in range(k)))
    N = ch.invariant_measure_density()
    ratio = sp.simplify(N / printed)
    assert all(sp.diff(ratio, x) == 0 for x in q)
    assert ch.is_invariant_density(N)
    assert ch.is_invariant_density(printed)
    assert not ch.is_invariant_density(1 / printed)


def test_class71_constant_N_consistent():
    """Σ I_a Δ_a Δ_a′ = 0 (here Δ3 = cos q1, Δ4 = sin q1, I3 = I4) gives consistency and Corollary 2."""
    mdl = models.abelian_chaplygin(2, deltas=[sp.cos(sp.Symbol("q1")), sp.sin(sp.Symbol("q1"))])
    I3, I4 = mdl.params["I3"], mdl.params["I4"]
    L = mdl.lagrangian.with_expr(mdl.lagrangian.expr.subs(I4, I3))
    X = mdl.frame.fields
    ch = fr.ChaplyginSystem(L, X[:2], X[2:])
    assert fr.strong_consistency(ch.vakonomic(), ch.momenta()).holds is True
    assert ch.routhian_agreement() == (True, True)
    N = ch.invariant_measure_density()
    assert all(sp.diff(N, x) == 0 for x in mdl.chart.q)


def test_vertical_rolling_disk():
    """Vertical rolling disk: N constant and the dynamics consistent (section 7.1)."""
    mdl = models.vertical_rolling_disk()
    ch = fr.ChaplyginSystem.from_model(mdl)
    N = ch.invariant_measure_density()
    assert all(sp.diff(N, x) == 0 for x in mdl.chart.q)
    assert fr.strong_consistency(ch.vakonomic(), ch.momenta()).holds is True
    assert fr.weak_consistency(ch.vakonomic(), ch.momenta()).holds is True
    assert ch.routhian_agreement() == (True, True)


def _carriage(l_value=None):
    mdl = models.two_wheeled_carriage()
    L = mdl.lagrangian
    if l_value is not None:
        L = L.with_expr(L.expr.subs(mdl.params["l"], l_value))
    return mdl, fr.VakonomicSystem(L, mdl.frame, m=2)


def _carriage_special_J(mdl):
    """J solving R²(P² − Q²) = 4c²K² (linear in J), so the special l is l itself."""
    m, m0, l, J, J2, R, c = (mdl.params[s] for s in "m m0 l J J2 R c".split())
    P = R**2 / (4 * c**2) * (J + m * c**2) + J2
    Q = R**2 / (4 * c**2) * (J - m * c**2)
    K = m0 * l * R**3 / (4 * c**2)
    (Js,) = sp.solve(R**2 * (P**2 - Q**2) - 4 * c**2 * K**2, J)
    return Js


def test_carriage_pR12():
    """p_a R^a_12 for the two-wheeled carriage (section 7.2).

    Erratum CM-4: printed ``p_a R^a_12 = (R²/2c)(sin θ p3 − cos θ p4) = K (v1 − v2)``. With the
    correct bracket (CM-1) ``R^3_12 = −(R²/2c) sin θ``, ``R^4_12 = (R²/2c) cos θ``, so
    ``p_a R^a_12 = −(R²/2c)(sin θ p3 − cos θ p4) = −K (v1 − v2)``; p3, p4 agree with the print.
    """
    mdl, vk = _carriage()
    m, m0, l, R, c = (mdl.params[s] for s in "m m0 l R c".split())
    th = mdl.chart.q[4]
    v1, v2 = mdl.frame.v[:2]
    K = m0 * l * R**3 / (4 * c**2)
    p = vk.nonholonomic.momenta()
    p3 = -m * R * (v1 + v2) * sp.cos(th) / 2 + 2 * c * K / R**2 * (v1 - v2) * sp.sin(th)
    p4 = -m * R * (v1 + v2) * sp.sin(th) / 2 - 2 * c * K / R**2 * (v1 - v2) * sp.cos(th)
    assert is_zero(p[2] - p3) and is_zero(p[3] - p4)
    Rr = mdl.frame.anholonomy
    pR = sum(p[a] * Rr[a, 0, 1] for a in (2, 3, 4))
    assert is_zero(pR + K * (v1 - v2))
    assert not is_zero(pR - K * (v1 - v2))


@pytest.mark.slow
def test_carriage_strong_consistency_at_p_iff_l_zero():
    """Strong consistency with φ = p holds iff l = 0 (section 7.2)."""
    for lv, expect in ((0, True), (None, False)):
        _mdl, vk = _carriage(lv)
        p = vk.nonholonomic.momenta()[2:]
        assert fr.strong_consistency(vk, p).holds is expect


@pytest.mark.slow
def test_carriage_section_search_special_l_and_H():
    """Section search k = f1(θ)v1 + f2(θ)v2, f linear in cos θ, sin θ (section 7.2).

    Finds l = 0 and l = ±√((mR² + 2J2)(R²J + 2c²J2))/(m0R²) (the printed special l is the positive root).
    Erratum CM-5: at the special l the library's k3 = −K̂ sin θ (v1 − v2) + H cos θ (v1 + v2),
    k4 = K̂ cos θ (v1 − v2) + H sin θ (v1 + v2) (the printed first lines) with
    ``H = +(mR² + 2J2)/(2R)``; the paper prints ``H = −(mR² + 2J2)/(2R)``. The sign follows from CM-1:
    Γ_1, Γ_2 change sign with K, hence P̂, Q̂ and H = −K̂(P̂ − Q̂) do. The printed expanded line for k4,
    ``(K̂ cos θ − H sin θ) v2``, also contradicts the printed first line (it should be ``(−K̂ cos θ + H sin θ) v2``).
    """
    mdl, vk = _carriage()
    m, m0, l, J, J2, R, c = (mdl.params[s] for s in "m m0 l J J2 R c".split())
    th = mdl.chart.q[4]
    v1, v2 = mdl.frame.v[:2]
    p = vk.nonholonomic.momenta()[2:]
    a = sp.symbols("a1:5")
    b = sp.symbols("b1:5")
    k3 = (a[0] * sp.cos(th) + a[1] * sp.sin(th)) * v1 + (a[2] * sp.cos(th) + a[3] * sp.sin(th)) * v2
    k4 = (b[0] * sp.cos(th) + b[1] * sp.sin(th)) * v1 + (b[2] * sp.cos(th) + b[3] * sp.sin(th)) * v2
    fams = fr.find_sections(vk, [p[0] + k3, p[1] + k4, p[2]], a + b, solve_for=[l])
    l_special = sp.sqrt((m * R**2 + 2 * J2) * (R**2 * J + 2 * c**2 * J2)) / (m0 * R**2)
    roots = [f.relations[0].rhs for f in fams]
    assert len(fams) == 3 and all(f.result.holds for f in fams)
    assert any(r == 0 for r in roots)
    assert any(is_zero(r - l_special) for r in roots) and any(is_zero(r + l_special) for r in roots)
    fam = next(f for f in fams if is_zero(f.relations[0].rhs - l_special))
    Khat = m0 * l_special * R / (2 * c)
    H = (m * R**2 + 2 * J2) / (2 * R)  # library; printed: −(mR² + 2J2)/(2R)
    k3e = -Khat * sp.sin(th) * (v1 - v2) + H * sp.cos(th) * (v1 + v2)
    k4e = Khat * sp.cos(th) * (v1 - v2) + H * sp.sin(th) * (v1 + v2)
    assert is_zero(fam.section[0] - (p[0].subs(l, l_special) + k3e))
    assert is_zero(fam.section[1] - (p[1].subs(l, l_special) + k4e))


@pytest.mark.slow
def test_carriage_special_section_true_and_half_false():
    """With the section of 7.2: strong consistency holds at the special l, fails at half of it.

    The special relation is linear in J; with J = J_s(l) the value l is special, with J = J_s(2l) it is
    half the special value. The conditions are computed with symbolic parameters and then specialized
    (``subs=``), keeping everything exact and rational.
    """
    mdl, vk = _carriage()
    m, m0, l, J, J2, R, c = (mdl.params[s] for s in "m m0 l J J2 R c".split())
    th = mdl.chart.q[4]
    v1, v2 = mdl.frame.v[:2]
    Js = _carriage_special_J(mdl)
    Khat = m0 * l * R / (2 * c)
    H = (m * R**2 + 2 * J2) / (2 * R)
    k3 = -Khat * sp.sin(th) * (v1 - v2) + H * sp.cos(th) * (v1 + v2)
    k4 = Khat * sp.cos(th) * (v1 - v2) + H * sp.sin(th) * (v1 + v2)
    p = vk.nonholonomic.momenta()[2:]
    sec = [p[0] + k3, p[1] + k4, p[2]]
    assert fr.strong_consistency(vk, sec, subs={J: Js}).holds is True
    assert fr.strong_consistency(vk, sec, subs={J: Js.subs(l, 2 * l)}).holds is False
    assert fr.strong_consistency(vk, sec).holds is False  # generic l
    # printed H = −(mR²+2J2)/(2R) fails (erratum CM-5)
    k3p = -Khat * sp.sin(th) * (v1 - v2) - H * sp.cos(th) * (v1 + v2)
    k4p = Khat * sp.cos(th) * (v1 - v2) - H * sp.sin(th) * (v1 + v2)
    assert fr.strong_consistency(vk, [p[0] + k3p, p[1] + k4p, p[2]], subs={J: Js}).holds is False

    # Corollary 2 / Theorem 1 at the special l: Γ_C of Proposition 4 is Euler–Lagrange for
    # L̃ = L − (p_a + k_a) v^a, and the restriction to C of the Euler–Lagrange field of L̃ equals the
    # nonholonomic field; at half the special l the section is not tangent and Theorem 1 fails.
    th1 = vk.variational_check(sec, subs={J: Js})
    assert th1.holds is True and th1.restriction_equal is True
    assert th1.el_field is not None and th1.el_field.equals(vk.nonholonomic.field().subs({J: Js}))
    th_half = vk.variational_check(sec, subs={J: Js.subs(l, 2 * l)})
    assert th_half.holds is False and th_half.restriction_equal is False


@pytest.mark.slow
def test_carriage_theorem1_l_zero():
    """Corollary 2 at l = 0: Γ is the restriction to C of the EL field of L̃ = L − p_a v^a."""
    _mdl, vk = _carriage(0)
    p = vk.nonholonomic.momenta()[2:]
    th1 = vk.variational_check(p)
    assert th1.holds is True and th1.restriction_equal is True
    assert vk.tangent_field(p).field.equals(vk.nonholonomic.field())


def test_cortes_example_6_7_dimensions():
    """Cortés et al. (2003) Example 6.7: K1 = K2² is dimensionally inconsistent as printed (erratum CdLMM-1).

    Printed: K1 = J2(J2 + mR²/2 + R²J/(2c²)) + mR³J/(4c²), K2 = m0 l R²/(2c). The last term of K1 has
    dimension M²L³, the others M²L⁴. With R³ → R⁴, K1 = (J2 + mR²/2)(J2 + R²J/(2c²)) = P² − Q² and
    K2 = 2cK/R, so K1 = K2² is R²(P² − Q²) = 4c²K², the condition of CM section 7.2.
    """
    m, m0, l, J, J2, R, c = sp.symbols("m m0 l J J2 R c", positive=True)
    M, Ld = sp.symbols("M L", positive=True)
    dims = {m: M, m0: M, l: Ld, J: M * Ld**2, J2: M * Ld**2, R: Ld, c: Ld}
    K1p = J2 * (J2 + m * R**2 / 2 + R**2 * J / (2 * c**2)) + m * R**3 * J / (4 * c**2)
    K2 = m0 * l * R**2 / (2 * c)
    assert not fr.dynamics.is_dimensionally_homogeneous(K1p, dims)
    assert fr.dynamics.is_dimensionally_homogeneous(K2**2, dims)
    K1 = J2 * (J2 + m * R**2 / 2 + R**2 * J / (2 * c**2)) + m * R**4 * J / (4 * c**2)  # R³ -> R⁴
    assert fr.dynamics.is_dimensionally_homogeneous(K1, dims)
    P = R**2 / (4 * c**2) * (J + m * c**2) + J2
    Q = R**2 / (4 * c**2) * (J - m * c**2)
    K = m0 * l * R**3 / (4 * c**2)
    assert is_zero(K1 - (P**2 - Q**2))
    assert is_zero(R**2 * (P**2 - Q**2) - 4 * c**2 * K**2 - R**2 * (K1 - K2**2))
    # the library's carriage model reproduces P, Q (L_c = ½P(v1² + v2²) − Q v1 v2)
    mdl = models.two_wheeled_carriage()
    Lc = mdl.nonholonomic().constrained_lagrangian()
    v1, v2 = mdl.frame.v[:2]
    sub = {mdl.params[s.name]: s for s in (m, m0, l, J, J2, R, c)}
    assert is_zero(Lc.xreplace(sub) - (P * (v1**2 + v2**2) / 2 - Q * v1 * v2))


def test_carriage_invariant_measure_density_non_abelian():
    """The carriage as a Chaplygin system for the non-abelian SE(2): the density is found by the
    terminating method (no integration) and passes the library's independent check div(N Γ) = 0; it is
    exp(−R³ l m0 (ψ1 + ψ2)/(2(J R² + 2 J2 c²))) w.r.t. dq ∧ dv, constant exactly when l m0 = 0."""
    mdl = models.two_wheeled_carriage()
    ch = fr.ChaplyginSystem.from_model(mdl)
    R, l, m0, J, J2, c = (mdl.params[k] for k in ("R", "l", "m0", "J", "J2", "c"))
    psi1, psi2 = (s for s in mdl.chart.q if s.name in ("psi1", "psi2"))
    Nv = ch.invariant_measure_density(volume="velocities")
    assert ch.is_invariant_density(Nv, volume="velocities")
    expected = sp.exp(-(R**3) * l * m0 * (psi1 + psi2) / (2 * (J * R**2 + 2 * J2 * c**2)))
    assert is_zero(sp.expand_log(sp.log(Nv / expected), force=True))
    N = ch.invariant_measure_density()
    assert ch.is_invariant_density(N)
    assert not ch.is_invariant_density(N * sp.exp(psi1))
    assert all(sp.diff(N.subs(l, 0), x) == 0 for x in mdl.chart.q)
