r"""Independent reference: nonholonomic equations from :mod:`sympy.physics.mechanics`.

The library computes nonholonomic dynamics from an adapted frame (Crampin–Mestdag,
Proposition 2). This module computes the same accelerations the textbook way, with
:class:`sympy.physics.mechanics.LagrangesMethod` and ``nonhol_coneqs``
(Lagrange multipliers in natural coordinates), so that the two can be compared:

    d/dt ∂L/∂q̇^i − ∂L/∂q^i = a^a_i λ_a,    a^a_i(q) q̇^i = 0.

It shares no code with the frame-based route.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import sympy as sp

from .._lazy import LazyModule
from ..algebra import derivative, expect, solve_linear
from ..algebra.internal import as_flag, canon
from ..dynamics import Lagrangian
from ..dynamics.internal import exprs_on_TQ
from ..errors import ConstraintError, InvalidExpressionError
from ..geometry import Chart

if TYPE_CHECKING:
    from sympy.physics import mechanics as me
else:  # imported on first use: sympy.physics loads its units (~0.2 s)
    me = LazyModule("sympy.physics.mechanics")

__all__ = ["from_dynamic", "lagranges_method_accelerations", "to_dynamic"]


def to_dynamic(chart: Chart) -> tuple[dict[sp.Symbol, Any], list[Any], list[Any], sp.Symbol]:
    """Substitution ``q -> q(t)``, ``u -> q̇(t)`` (and the chart's ``t`` -> mechanics time)."""
    expect(chart, Chart, name="to_dynamic: chart")
    t = me.dynamicsymbols._t
    qf = [sp.Function(str(q))(t) for q in chart.q]
    qd = [derivative(x, t) for x in qf]
    sub: dict[sp.Symbol, Any] = dict(zip(chart.q, qf, strict=True)) | dict(zip(chart.u, qd, strict=True))
    if chart.t is not None:
        sub[chart.t] = t
    return sub, qf, qd, t


def from_dynamic(expr: sp.Expr, chart: Chart, qf: Sequence[Any], qd: Sequence[Any], t: sp.Symbol) -> sp.Expr:
    """Inverse of :func:`to_dynamic`: derivatives first, then functions of t."""
    e = expr.subs(dict(zip(qd, chart.u, strict=True)))
    e = e.subs(dict(zip(qf, chart.q, strict=True)))
    if chart.t is not None:
        e = e.subs(t, chart.t)
    return e.doit() if e.has(sp.Subs) else e


def lagranges_method_accelerations(
    lagrangian: Lagrangian, constraints: Sequence[Any], *, full_rhs: bool = False
) -> sp.Matrix:
    r"""``q̈`` of the nonholonomic system from :class:`~sympy.physics.mechanics.LagrangesMethod`.

    Parameters
    ----------
    lagrangian : Lagrangian
    constraints : sequence of expressions
        Constraint functions ``a^a_i(q) u^i``, linear in the natural velocities ``u``.
    full_rhs : bool
        Solve the full first-order system with ``LagrangesMethod.rhs()`` (what a
        typical user does). By default the second-order block (mass matrix with the
        multiplier columns and the differentiated constraints) is solved exactly by
        :func:`solve_linear`.

    Returns
    -------
    Matrix
        ``q̈^i`` as (unsimplified) functions of ``(q, u, t)``, valid on all of TQ
        (the multiplier equations keep the constraints' derivatives zero).

    Examples
    --------
    >>> import frames as fr
    >>> from frames.natural import lagranges_method_accelerations
    >>> mdl = fr.models.nonholonomic_particle()
    >>> acc = lagranges_method_accelerations(mdl.lagrangian, mdl.constraints.functions)
    >>> acc[1]
    -q1*u1*u2/(q1**2 + 1)
    """
    what = "lagranges_method_accelerations"
    expect(lagrangian, Lagrangian, name=f"{what}: lagrangian")
    full_rhs = as_flag(full_rhs, name=f"{what}: full_rhs")
    ch = lagrangian.chart
    V = exprs_on_TQ(ch, constraints, name=f"{what}: constraints")
    if not V:
        raise InvalidExpressionError(f"{what}: constraints: no constraints given")
    us = set(ch.u)
    for k, c in enumerate(V):
        for ui in ch.u:
            if canon(derivative(c, ui)).free_symbols & us:
                raise ConstraintError(
                    f"{what}: constraints[{k}]: {c} is not linear in the velocities {ch.u}; "
                    "LagrangesMethod needs constraints a^a_i(q) u^i"
                )
    sub, qf, qd, t = to_dynamic(ch)
    Lm = lagrangian.expr.xreplace(sub)
    cons = [c.xreplace(sub) for c in V]
    LM = me.LagrangesMethod(Lm, qf, nonhol_coneqs=cons)
    LM.form_lagranges_equations()
    n = ch.dim
    if full_rhs:
        sol = LM.rhs()
        acc = sol[n : 2 * n, 0]
        return sp.Matrix([from_dynamic(a, ch, qf, qd, t) for a in acc])
    k = len(cons)
    M = LM.mass_matrix.col_join(LM._m_cd.row_join(sp.zeros(k, k)))
    f = sp.Matrix(LM.forcing_full[n:, 0])
    M = M.applyfunc(lambda e: from_dynamic(e, ch, qf, qd, t))
    f = f.applyfunc(lambda e: from_dynamic(e, ch, qf, qd, t))
    return sp.Matrix(solve_linear(M, f)[:n, 0])
