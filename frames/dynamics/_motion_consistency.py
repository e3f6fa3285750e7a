r"""Consistency of nonholonomic and vakonomic dynamics along one motion (end of Crampin–Mestdag section 5).

Along a closed-form integral curve of the nonholonomic field, the ψ equations are solved and
``ψ_a R^a_αβ v^β = 0`` is tested (:func:`consistency_along_motion`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sympy as sp

from .._value import Record
from ..algebra import derivative, is_zero, tidy
from ..algebra.internal import as_exprs
from ..errors import ConstraintError, UndecidedError
from ._checks import optional_time, sequence, symbol_values
from ._consistency import _check_vk
from ._vakonomic import VakonomicSystem, _numeric_nonzero

__all__ = ["MotionConsistency", "consistency_along_motion"]


class MotionConsistency(Record):
    r"""Consistency along one integral curve γ of Γ (end of section 5).

    Attributes
    ----------
    psi : tuple
        ``ψ_a(t)`` solving ``ψ̇_a + ψ_b R^b_aα v^α = λ_a``, ``ψ_a(0) = ψ_a^0``.
    tests : tuple
        ``ψ_a R^a_αβ v^β`` along γ (α = 1..m); all vanish for all t iff
        ``(γ, ψ)`` solves the vakonomic problem.
    initial : tuple
        The tests at t = 0 (``ψ^0`` must make them vanish).
    curve_residuals : tuple
        Residuals of ``q̇ = v^α X_α``, ``v̇^α = Γ^α`` along the given curve (all zero for an integral curve).
    holds : bool or None
    """

    psi: tuple[sp.Expr, ...]
    tests: tuple[sp.Expr, ...]
    initial: tuple[sp.Expr, ...]
    curve_residuals: tuple[sp.Expr, ...]
    holds: bool | None


def consistency_along_motion(
    vk: VakonomicSystem, curve: Mapping[sp.Symbol, Any], psi0: Sequence[Any], t: sp.Symbol | None = None
) -> MotionConsistency:
    r"""Solve the ψ equations along a closed-form integral curve and test ``ψ_a R^a_αβ v^β = 0``.

    Parameters
    ----------
    curve : mapping
        ``q^j -> q^j(t)`` for every coordinate and ``v^α -> v^α(t)`` for α = 1..m.
    psi0 : sequence
        Initial values ``ψ_a(0)``.
    t : Symbol, optional
        The time symbol (default: the chart's, else ``t``).
    """
    vk = _check_vk(vk, "consistency_along_motion")
    F = vk.frame
    ch = F.chart
    t = optional_time(t, ch, name="consistency_along_motion: t")
    need = list(ch.q) + [F.v[i] for i in vk.alpha]
    cur = symbol_values(curve, name="consistency_along_motion: curve", required=need, allowed=[*ch.q, *F.v])
    k = vk.n - vk.m
    p0 = list(
        as_exprs(sequence(psi0, name="consistency_along_motion: psi0"), name="consistency_along_motion: psi0", length=k)
    )
    for a in vk.a:
        if F.v[a] in cur and not is_zero(cur[F.v[a]]):
            raise ConstraintError(
                f"consistency_along_motion: curve: {F.v[a]} = {cur[F.v[a]]} ≠ 0; the curve must lie on C "
                f"(v^a = 0 for a > m = {vk.m})"
            )
    cur = {s: cur[s] for s in need}
    res = []
    for j, q in enumerate(ch.q):
        res.append(tidy(derivative(cur[q], t) - F.u_in_v[j].xreplace(vk.on_C).xreplace(cur)))
    for j, r in enumerate(res):
        if not is_zero(r) and _numeric_nonzero(r):
            raise ConstraintError(
                f"consistency_along_motion: curve: d{ch.q[j]}/dt − (v^α X_α)^{j + 1} = {r} ≠ 0; the motion is not "
                "tangent to D (its velocity is not v^α X_α): it leaves the constraint"
            )
    nh = vk.nonholonomic
    G = nh.field(canonical=True)
    lam = nh.multipliers(canonical=True)
    for i in vk.alpha:
        res.append(tidy(derivative(cur[F.v[i]], t) - G.Gamma[i].xreplace(cur)))
    R = F.anholonomy
    v = F.v
    ia = list(vk.a)
    Mx = sp.Matrix(k, k, lambda ra, rb: sp.Add(*[R[ia[rb], ia[ra], al] * v[al] for al in vk.alpha]).xreplace(cur))
    lam_t = [sp.sympify(x, strict=True).xreplace(cur) for x in lam]
    s = sp.Dummy("s")
    if all(is_zero(x) for x in Mx):
        psi = [p0[i] + sp.integrate(lam_t[i].xreplace({t: s}), (s, 0, t)) for i in range(k)]
    else:
        fs = [sp.Function(f"psi{a + 1}")(t) for a in ia]
        odes = [sp.Eq(derivative(fs[i], t), lam_t[i] - sum(fs[j] * Mx[i, j] for j in range(k))) for i in range(k)]
        sol = sp.dsolve(
            odes if k > 1 else odes[0], fs if k > 1 else fs[0], ics={f.subs(t, 0): x for f, x in zip(fs, p0)}
        )
        sol = sol if isinstance(sol, list) else [sol]
        psi = [next(x.rhs for x in sol if x.lhs == f) for f in fs]
    psi = [tidy(x) for x in psi]
    tests = []
    for al in vk.alpha:
        e = sp.Add(*[psi[ka] * R[a, al, be].xreplace(cur) * cur[v[be]] for ka, a in enumerate(ia) for be in vk.alpha])
        tests.append(tidy(e))
    initial = tuple(tidy(x.subs(t, 0)) for x in tests)
    holds = _all_zero(tests) if _all_zero(res) else None
    return MotionConsistency(tuple(psi), tuple(tests), initial, tuple(res), holds)


def _all_zero(xs: Sequence[sp.Expr]) -> bool | None:
    """True if every expression vanishes identically, False if one does not, None if a zero test is undecided
    (an expression outside the canonical class, :class:`~frames.errors.UndecidedError`)."""
    try:
        return all(is_zero(x) for x in xs)
    except UndecidedError:
        return None
