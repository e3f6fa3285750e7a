"""Crampin & Mestdag section 6 on a non-abelian group: the two-wheeled carriage, a Chaplygin system for
SE(2) (generators ∂_x, ∂_y, −y∂_x + x∂_y + ∂_θ, structure constants C^c_ab ≠ 0)."""

from __future__ import annotations

import pytest
import sympy as sp

import frames as fr
from frames import models
from frames.algebra import is_zero


@pytest.fixture(scope="module")
def carriage():
    mdl = models.two_wheeled_carriage()
    return mdl, fr.ChaplyginSystem.from_model(mdl)


def test_carriage_group_is_non_abelian(carriage):
    _mdl, ch = carriage
    nonzero = {(c, a, b) for c in range(3) for a in range(3) for b in range(3) if ch.C[c, a, b] != 0}
    assert nonzero  # [Ẽ_1, Ẽ_3] and [Ẽ_2, Ẽ_3] are not zero: SE(2)
    assert all(ch.C[c, a, b] == -ch.C[c, b, a] for c in range(3) for a in range(3) for b in range(3))


def test_carriage_proposition5(carriage):
    """L̃ = L − p_a v^a: its Hessian is regular on C, Ẽ_a^C(L̃) = 0 and its field is tangent to C."""
    _mdl, ch = carriage
    p5 = ch.proposition5()
    assert p5.regular and p5.invariant and p5.tangent and p5.holds
    # the Hessian on C has the block form (g_αβ, 0; 0, −g_ab) with g_ab the group block of L's Hessian
    m = ch.m
    H = p5.hessian_on_C
    assert all(is_zero(H[i, j]) for i in range(m) for j in range(m, ch.n))


def test_carriage_gamma_p_equals_lambda(carriage):
    """Γ(p_a) = λ_a on C (the multiplier equation of section 6)."""
    _mdl, ch = carriage
    assert all(is_zero(x) for x in ch.multiplier_identity())


def test_carriage_coadjoint_identities(carriage):
    """Ẽ_a^C(p_b) + C^c_ab p_c = 0 on TQ and Ẽ_a^C(λ_b) + C^c_ab λ_c = 0 on C: the C-terms are needed."""
    _mdl, ch = carriage
    assert all(is_zero(x) for x in ch.coadjoint_momenta())
    assert all(is_zero(x) for x in ch.coadjoint_multipliers())
    # without the structure-constant terms (the abelian formula) the identity fails on SE(2)
    p = ch.momenta(on_C=False)
    plain = [ch.frame.apply_complete(ch.m + a, p[b]) for a in range(3) for b in range(3)]
    assert not all(is_zero(x) for x in plain)


def test_carriage_proposition6(carriage):
    """Proposition 6: Γ̃|_C = Γ exactly when R^a_αβ v^β p_a = 0 on C: both fail for l m0 ≠ 0, both hold at l = 0."""
    mdl, ch = carriage
    assert ch.proposition6() == (False, False)
    R, l, m0, c = (mdl.params[k] for k in ("R", "l", "m0", "c"))
    v1, v2 = mdl.frame.v[:2]
    cond = ch.proposition6_conditions()
    assert is_zero(cond[0] - R**3 * l * m0 * v2 * (v2 - v1) / (4 * c**2))
    assert is_zero(cond[1] - R**3 * l * m0 * v1 * (v1 - v2) / (4 * c**2))
    L0 = mdl.lagrangian.with_expr(mdl.lagrangian.expr.subs(l, 0))
    ch0 = fr.ChaplyginSystem(L0, list(mdl.frame.fields[: mdl.m]), list(ch.generators))
    assert ch0.proposition6() == (True, True)


def test_carriage_routhian_is_invariant_and_consistent_with_momenta(carriage):
    """Ẽ_a^C(L̃) = 0, and L̃ = L − p_a v^a has no momentum along the group on C: Ẽ_a^V(L̃) = 0 there."""
    _mdl, ch = carriage
    Lt = ch.routhian_in_frame()
    assert all(is_zero(ch.frame.apply_complete(a, Lt)) for a in ch.a)
    assert all(is_zero(sp.diff(Lt, ch.frame.v[a]).xreplace(ch.on_C)) for a in ch.a)
    assert not all(is_zero(p) for p in ch.momenta())  # while L's own momenta p_a are not zero


def test_carriage_p_minus_mu_conserved_by_every_vakonomic_field(carriage):
    """Γ̂(p_a − μ_a) = Γ̂(p_a) − A_a = 0 on C for every vakonomic field (A and μ free): p − μ is conserved,
    so every level set of μ − p, im(μ = p) among them, is invariant."""
    mdl, ch = carriage
    vk = ch.vakonomic()
    G = tuple(vk.field())
    F = mdl.frame
    p = ch.momenta(on_C=False)
    for k, _a in enumerate(ch.a):
        flow = sum(F.v[al] * F.fields[al](p[k]) for al in ch.alpha) + sum(
            G[i] * sp.diff(p[k], F.v[i]) for i in range(ch.n)
        )
        assert is_zero(flow.xreplace(ch.on_C) - vk.A[k])
        assert vk.A[k] in flow.free_symbols  # the identity holds for every A, not for one choice


def test_carriage_lifted_generators_leave_Lhat_invariant(carriage):
    """e_a(L̂) = 0 for L̂ = L − μ_b v^b, with the generators lifted to μ by Ẽ_a^(1)(μ_b) = −C^c_ab μ_c
    (the coadjoint action); with the opposite sign the identity fails on SE(2)."""
    mdl, ch = carriage
    vk = ch.vakonomic()
    F, mu = mdl.frame, vk.mu
    for a in range(3):
        ia = ch.m + a
        EL = F.apply_complete(ia, ch._Lv)
        Ev = [F.apply_complete(ia, F.v[ch.m + b]) for b in range(3)]
        for sign, zero in ((-1, True), (1, False)):
            e1mu = [sign * sum(ch.C[c, a, b] * mu[c] for c in range(3)) for b in range(3)]
            total = EL - sum(e1mu[b] * F.v[ch.m + b] + mu[b] * Ev[b] for b in range(3))
            assert is_zero(total) is zero
