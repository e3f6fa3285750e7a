r"""Kozlov's equations against the vakonomic field of Crampin–Mestdag section 4 (Lemos 2022; CM §4).

For the quasi-velocities ``V^a = v^a = θ^a_j u^j`` of an adapted frame, Kozlov's equations ([L] (17),
:class:`~frames.KozlovSystem`) are Propositions 3–4 of Crampin–Mestdag written in natural coordinates,
with ``λ_a = μ_a`` and ``λ̇_a = A_a``: :func:`compare_kozlov_with_frame` checks it on any system.
"""

from __future__ import annotations

import sympy as sp

from .._value import Record
from ..algebra import expect, is_zero, tidy
from ..algebra.internal import canon
from ..dynamics import VakonomicSystem
from ..geometry import SecondOrderField
from ._kozlov import KozlovSystem

__all__ = ["KozlovFrameComparison", "compare_kozlov_with_frame"]


class KozlovFrameComparison(Record):
    r"""Outcome of :func:`compare_kozlov_with_frame`.

    Attributes
    ----------
    frame_identity : tuple
        For symbolic ``Γ^i`` and ``A_a``: the Kozlov residual ``E_k`` ([L] (17), ``q̈`` of
        ``Γ = v^α X_α^C + Γ^i X_i^V``, ``λ = μ``, ``λ̇ = A``) minus ``θ^i_k`` times the
        residual of the i-th equation of Proposition 3, on C. All vanish: (17) is
        Proposition 3 written in coordinates.
    tangent_residuals : tuple
        Kozlov residuals and ``d/dt V^a`` for the Proposition 4 field (``Γ^a = 0``,
        ``λ̇ = A`` of Proposition 4), on C.
    holds : bool
        True if all of them vanish identically.
    """

    frame_identity: tuple[sp.Expr, ...]
    tangent_residuals: tuple[sp.Expr, ...]
    holds: bool


def compare_kozlov_with_frame(vk: VakonomicSystem) -> KozlovFrameComparison:
    r"""Check that Kozlov's equations are the section 4 vakonomic field written in coordinates.

    ``vk`` is a :class:`~frames.VakonomicSystem`; the constraints are ``V^a = θ^a_j u^j``
    (the coframe rows a = m+1..n) and the multipliers ``λ_a = μ_a``. No equation is solved:
    the natural-coordinate residuals are compared with the frame residuals of Proposition 3
    for symbolic ``Γ^i`` (so every vakonomic field of Proposition 3, whatever ``A``, solves
    (17), and conversely), and the Proposition 4 field is substituted into (17) and
    ``d/dt V^a = 0``.

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.nonholonomic_particle()
    >>> fr.compare_kozlov_with_frame(fr.VakonomicSystem(mdl.lagrangian, mdl.frame, mdl.m)).holds
    True
    """
    expect(vk, VakonomicSystem, name="compare_kozlov_with_frame: vk")
    F = vk.frame
    ch = vk.lagrangian.chart
    n = F.dim
    V = [F.v_in_u[a] for a in vk.a]
    K = KozlovSystem(vk.lagrangian, V, lam=vk.mu)
    on_c = {u: F.u_in_v[j].xreplace(vk.on_C) for j, u in enumerate(ch.u)}
    lamd = dict(zip(K.lamdot, vk.A, strict=True))
    E = K.residuals()
    # Proposition 3, Γ^i and A symbolic
    Gs = sp.symbols(f"Gamma_kz1:{n + 1}")
    acc = SecondOrderField(F, list(Gs), m=vk.m, time_dependent=vk.lagrangian.time_dependent).accelerations()
    sub = dict(zip(K.qdd, acc, strict=True)) | lamd
    fres = vk.vakonomic_residuals(Gs, vk.A, vk.mu)
    Th = F.coframe_matrix
    ident = []
    for k in range(n):
        lhs = canon(E[k].xreplace(sub)).xreplace(on_c)
        rhs = sp.Add(*[Th[i, k] * fres[i] for i in range(n)])
        ident.append(tidy(lhs - rhs))
    # Proposition 4
    tf = vk.tangent_field()
    acc4 = tf.field.accelerations()
    sub4 = dict(zip(K.qdd, acc4, strict=True)) | dict(zip(K.lamdot, tf.A, strict=True))
    tres = [tidy(canon(e.xreplace(sub4)).xreplace(on_c)) for e in E]
    tres += [tidy(canon(K.ddt(v).xreplace(sub4)).xreplace(on_c)) for v in V]
    holds = all(is_zero(e) for e in (*ident, *tres))
    return KozlovFrameComparison(tuple(ident), tuple(tres), holds)
