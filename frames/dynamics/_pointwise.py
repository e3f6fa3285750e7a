"""The consistency conditions of Crampin–Mestdag at generic points (``pointwise=True``).

:func:`conditions_at_points` evaluates the weak conditions ``φ_a R^a_αβ v^β`` (Theorem 2 (ii)) and the strong ones
``Γ(φ_a) + φ_b R^b_aα v^α − λ_a`` (Corollary 1) at generic rational points, from the data only: no condition,
field or multiplier is formed as a function. A point is a ring homomorphism of
``QQ[q, sin, cos, exp, …]/(sin² + cos² − 1)`` to ``QQ``, so one nonzero value proves a condition nonzero.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy as sp
from sympy.polys.matrices import DomainMatrix

from ..algebra import RationalFunctions, derivative
from ..algebra.internal import UnsupportedExpression
from ..geometry import derivation
from ._vakonomic import VakonomicSystem

__all__ = ["conditions_at_points"]


def conditions_at_points(
    vk: VakonomicSystem, phi: Sequence[sp.Expr], strong: bool, tries: int = 3
) -> tuple[Any, ...] | None:
    r"""``(point, values)``: the consistency conditions evaluated at a generic point where one is nonzero.

    The values are those of the weak conditions ``φ_a R^a_αβ v^β`` (α ≤ m) and, when ``strong``, then of
    ``Γ(φ_a) + φ_b R^b_aα v^α − λ_a`` (Corollary 1), in the order of :attr:`ConsistencyResult.conditions`.
    Only the data are evaluated: ``g_iβ`` and ``r_i`` on C (:meth:`VakonomicSystem.hessian`, shared with the
    vakonomic field), ``φ_a R^a_iβ v^β``, ``v^β X_β(φ_a) (+ ∂_t φ_a)`` and ``∂φ_a/∂v^β``. At the point the
    nonholonomic field solves ``g_αβ Γ^β = r_α`` (Proposition 2) and ``λ_a = g_aβ Γ^β − r_a``, in exact rational
    arithmetic; no condition, field or multiplier is formed as a function. The assignment of a generic point is
    a ring homomorphism (see :meth:`~frames.algebra.RationalFunctions.witness_nonzero`), so a nonzero value
    proves a condition nonzero. None when the ring does not hold the data or no point proves one nonzero.

    The data are evaluated in the field of the nonholonomic system's drift when it has one (its ``r_i``, the
    momenta, the frame and the ``R^j_iβ`` are already there: ``X_β(φ_a)`` and ``g_iβ = ∂p_i/∂v^β`` come from
    the value and gradient of one pass over the terms at the point); otherwise from the expressions.
    """
    for route in (_points_in_drift_field, _points_from_expressions):
        found = route(vk, phi, strong, tries)
        if found is None:
            continue
        try:
            return _first_nonzero(vk, len(phi), strong, *found)
        except UnsupportedExpression:  # a derivative the field does not keep (f(x − y)): the next route
            continue
    return None


def _first_nonzero(vk: VakonomicSystem, k: int, strong: bool, ctx: Any, points: Any) -> tuple[Any, ...] | None:
    """The first point of ``points`` where a condition is nonzero, with the values there (see
    :func:`conditions_at_points`), or None."""
    QQ = ctx.ring.domain
    m = vk.m
    for point, W, data in points:
        out = list(W)
        if strong:
            S, D, G, R = data
            A = DomainMatrix([G[i][:m] for i in range(m)], (m, m), QQ)
            if A.det() == 0:
                continue
            gam = A.lu_solve(DomainMatrix([[x] for x in R[:m]], (m, 1), QQ)).to_list_flat()
            lam = [sum(G[a][b] * gam[b] for b in range(m)) - R[a] for a in vk.a]
            out += [S[a] + sum(gam[b] * D[a][b] for b in range(m)) - lam[a] for a in range(k)]
        if any(out):
            subs = tuple((ctx.to_expr(ctx.fractions(gen)), QQ.to_sympy(x)) for gen, x in point)
            return subs, tuple(QQ.to_sympy(x) for x in out)
    return None


class _Pole(Exception):
    """A denominator vanishes at the point tried (the next point is taken)."""


def _points_in_drift_field(vk: VakonomicSystem, phi: Sequence[sp.Expr], strong: bool, tries: int) -> Any:
    """The data of :func:`conditions_at_points` at generic points of the drift's field, or None when the
    system has no such field or a section is outside it."""
    ring = vk.nonholonomic.drift_ring
    if ring is None:
        return None
    try:
        ring = ring.extended(phi)
        alg = ring.alg
        phis = [alg.el(x) for x in phi]
    except (UnsupportedExpression, ValueError):
        return None
    if ring.v_inside:  # ∂/∂v^β below is the derivative along the generator v^β alone
        return None
    gens = list(alg.ctx.ring.gens)
    vpos = [gens.index(v.num) for v in ring.v]
    m = vk.m
    ia, al = list(vk.a), list(vk.alpha)

    def points() -> Any:
        for point in alg.points(tries):

            def at(f: Any, point: Any = point) -> Any:
                x = alg.at(f, point)
                if x is None:
                    raise _Pole
                return x

            def dv(f: Any, point: Any = point) -> list[Any]:  # (∂f/∂v^β)_β at the point
                den, dgrad = alg.jet(f.den, point)
                if den == 0:
                    raise _Pole
                num, ngrad = alg.jet(f.num, point)
                return [(ngrad[j] * den - num * dgrad[j]) / (den * den) for j in vpos]

            try:
                v = [at(x) for x in ring.v]
                R = {key: at(f) for key, f in ring.R.items()}
                ph = [at(f) for f in phis]
                W = [sum(ph[c] * R.get((a, i, b), 0) * v[b] for c, a in enumerate(ia) for b in al) for i in al]
                data = None
                if strong:
                    r = ring.values_at(point)
                    if r is None:
                        raise _Pole
                    G = [dv(p) for p in ring.p]
                    X = [[at(x) for x in row] for row in ring.X[:m]]
                    S, D = [], []
                    for c, a in enumerate(ia):
                        jet = alg.qjet(phis[c], point)
                        if jet is None:
                            raise _Pole
                        grad = jet[1]
                        S.append(
                            sum(v[b] * sum(x * d for x, d in zip(X[b], grad, strict=True)) for b in al)
                            + sum(ph[e] * R.get((b, a, i), 0) * v[i] for e, b in enumerate(ia) for i in al)
                        )
                        D.append(dv(phis[c]))
                    data = (S, D, G, r)
            except _Pole:
                continue
            yield point, W, data

    return alg.ctx, points()


def _points_from_expressions(vk: VakonomicSystem, phi: Sequence[sp.Expr], strong: bool, tries: int) -> Any:
    """The data of :func:`conditions_at_points` at generic points of the field of their expressions, or None."""
    n, m, k = vk.n, vk.m, len(phi)
    F = vk.frame
    ral, ra = vk._phiR(phi)
    exprs = list(ral)
    if strong:
        g, r = vk._terms
        pairs = list(zip(F.u_in_v, F.chart.q, strict=True))
        t = vk.lagrangian.chart.t
        if vk.lagrangian.time_dependent and t is not None:
            pairs.append((sp.S.One, t))
        exprs += [derivation(phi[a], pairs).xreplace(vk.on_C) + ra[a] for a in range(k)]
        exprs += [derivative(phi[a], F.v[be]) for a in range(k) for be in vk.alpha]
        exprs += [g[i, be] for i in range(n) for be in range(m)] + list(r)
    try:
        ctx = RationalFunctions(exprs, exp=True)
    except UnsupportedExpression:
        return None
    fr = [ctx.from_expr(e) for e in exprs]

    def points() -> Any:
        for point in ctx.generic_points(tries):
            vals = ctx.values_at(fr, point)
            if vals is None:
                continue
            data = None
            if strong:
                S, D = vals[m : m + k], vals[m + k : m + k + k * m]
                G = vals[m + k + k * m : m + k + k * m + n * m]
                data = (
                    S,
                    [D[a * m : (a + 1) * m] for a in range(k)],
                    [G[i * m : (i + 1) * m] for i in range(n)],
                    vals[m + k + k * m + n * m :],
                )
            yield point, vals[:m], data

    return ctx, points()
