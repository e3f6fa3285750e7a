r"""Closed-form motions against Kozlov's vakonomic equations (Lemos 2022).

:func:`compare_motion` — given a motion ``q(t)`` known in closed form (possibly a family with
symbolic constants), do multiplier histories ``λ(t)`` exist that make it a solution of Kozlov's
vakonomic equations ([L] (17))? The motion is substituted, the multiplier derivatives are
eliminated (the ``λ̇``-free combinations are the contractions with the null space of ``∂V/∂u``; the
other equations give ``λ̇ = M(t) λ + h(t)``, integrated with constants ``c_a``), and the residual
conditions are reported as functions of t.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

import sympy as sp

from .._value import Record
from ..algebra import derivative, expect, is_zero, tidy
from ..algebra.internal import as_expr, canon
from ..dynamics.internal import optional_time, symbol_values
from ..errors import ArgumentError, ConstraintError, InvalidExpressionError
from ._kozlov import KozlovSystem

__all__ = ["MotionComparison", "compare_motion"]


def _time_coefficients(expr: Any, t: sp.Symbol) -> list[sp.Expr]:
    r"""Coefficients of ``expr`` in the functions ``t^k exp(ω t)``.

    Trigonometric and hyperbolic functions are rewritten as exponentials, the numerator
    is expanded, every ``exp(ω t + b)`` becomes ``exp(b) E_ω`` and the result is read as a
    polynomial in ``t`` and the ``E_ω``. For distinct nonzero rates ``ω`` these functions
    are linearly independent, so ``expr ≡ 0`` in t iff every coefficient vanishes (each
    coefficient is returned without its rational content: an equation ``c = 0`` up to scale)
    (generically in the parameters: special values, e.g. a rate becoming 0, must be
    studied as separate families).

    Examples
    --------
    >>> import sympy as sp
    >>> t, a, b, w = sp.symbols("t a b w")
    >>> sorted(_time_coefficients(a * sp.cos(w * t) + b * t, t), key=str)
    [a, a, b]
    """
    e = as_expr(expr, name="time_coefficients: expr")
    if not isinstance(t, sp.Symbol):
        raise ArgumentError(f"time_coefficients: t: expected a sympy Symbol, got {type(t).__name__} {t!r}")
    if t not in e.free_symbols:
        return [canon(e)] if not is_zero(e) else []
    trig = (sp.sin, sp.cos, sp.tan, sp.sinh, sp.cosh, sp.tanh, sp.sec, sp.csc, sp.sech, sp.csch)
    e = e.replace(lambda f: isinstance(f, trig) and t in f.free_symbols, lambda f: f.rewrite(sp.exp))
    num, _ = sp.fraction(sp.together(e))
    num = sp.expand(num, power_exp=True, mul=True, multinomial=True)
    gens: dict[sp.Expr, sp.Symbol] = {}

    def _rep(arg: sp.Expr) -> sp.Expr:
        arg = sp.expand(arg)
        rate = derivative(arg, t)
        if t in rate.free_symbols or rate == 0:
            return sp.exp(arg)
        rest = sp.expand(arg - rate * t)
        if rate not in gens:
            gens[rate] = sp.Dummy(f"E{len(gens)}")
        return sp.exp(rest) * gens[rate]

    num = num.replace(sp.exp, _rep)
    num = sp.expand(num)
    poly = sp.Poly(num, t, *gens.values())
    out = []
    for c in poly.coeffs():
        c = canon(sp.expand(c.replace(sp.exp, lambda a: sp.exp(a).rewrite(sp.cos))))
        if not is_zero(c):
            # each coefficient is an equation c = 0: drop its rational content, so the result does
            # not depend on which common denominator the numerator was taken over
            out.append(c.as_content_primitive()[1])
    return out


class MotionComparison(Record):
    r"""Outcome of :func:`compare_motion`.

    Attributes
    ----------
    multipliers : tuple
        ``λ_a(t)`` solving the ``λ̇``-equations along the motion, with integration constants.
    constants : tuple
        The integration constants ``c_a`` (free multiplier data).
    conditions : tuple
        The ``λ̇``-free residual conditions (functions of t and the constants); the motion is
        vakonomic with these multipliers iff all vanish for all t.
    equations : tuple
        Their coefficients in ``t^k exp(ω t)`` (``_time_coefficients``), linear in the constants.
    obstructions : tuple
        Coefficient equations free of the constants that do not vanish: no multiplier data helps.
    solutions : tuple of dict
        Values of the constants making every condition vanish identically (empty if none).
    vakonomic : bool
        True if some multiplier data works (generically in the parameters).
    """

    multipliers: tuple[sp.Expr, ...]
    constants: tuple[sp.Symbol, ...]
    conditions: tuple[sp.Expr, ...]
    equations: tuple[sp.Expr, ...]
    obstructions: tuple[sp.Expr, ...]
    solutions: tuple[dict[sp.Symbol, sp.Expr], ...]
    vakonomic: bool


def compare_motion(
    kozlov: KozlovSystem, motion: Mapping[sp.Symbol, Any], t: sp.Symbol | None = None, constants: str = "c"
) -> MotionComparison:
    r"""Can the motion ``q(t)`` be a vakonomic motion for some multiplier history?

    Parameters
    ----------
    kozlov : KozlovSystem
        The vakonomic equations ([L] (17)) with the constraints ``V^a``.
    motion : mapping
        ``q^j -> q^j(t)`` for every coordinate (closed form; symbolic constants allowed).
    t : Symbol, optional
        The time symbol (default: the chart's, else ``t``).
    constants : str
        Prefix of the integration constants of ``λ``.

    Raises
    ------
    ConstraintError
        If the motion violates the constraints.

    Examples
    --------
    >>> import frames as fr, sympy as sp
    >>> ch = fr.Chart("x y z"); x, y, z = ch.q; ux, uy, uz = ch.u
    >>> K = fr.KozlovSystem(fr.Lagrangian(ch, (ux**2 + uy**2 + uz**2) / 2), [uz - y * ux])
    >>> t = sp.Symbol("t")
    >>> res = fr.compare_motion(K, {x: t, y: 0, z: 0}, t)   # a straight line in D: free motion
    >>> res.vakonomic, res.solutions
    (True, ({c1: 0},))
    """
    expect(kozlov, KozlovSystem, name="compare_motion: kozlov")
    ch = kozlov.chart
    t = optional_time(t, ch, name="compare_motion: t")
    if not isinstance(constants, str) or not constants.isidentifier():
        raise InvalidExpressionError(f"compare_motion: constants: {constants!r} is not a valid name prefix")
    qt = symbol_values(motion, name="compare_motion: motion", required=ch.q, allowed=ch.q)
    for q in ch.q:
        if qt[q].free_symbols & set(ch.u):
            raise InvalidExpressionError(
                f"compare_motion: motion[{q}]: {qt[q]} uses the velocity symbols; give q(t) as a function of {t}"
            )
    sub: dict[sp.Symbol, sp.Expr] = dict(qt)
    sub |= {u: derivative(qt[q], t) for q, u in zip(ch.q, ch.u, strict=True)}
    sub |= {a: sp.diff(qt[q], t, 2) for q, a in zip(ch.q, kozlov.qdd, strict=True)}
    if ch.t is not None and ch.t != t:
        sub[ch.t] = t
    for v in kozlov.constraints:
        r = v.xreplace(sub)
        if not is_zero(r):
            raise ConstraintError(
                f"compare_motion: motion: the motion violates the constraint {v} = 0 (along it, {v} = {canon(r)})"
            )
    k = len(kozlov.lam)
    n = ch.dim
    # the first n of the method's equations are (17), residual = 0
    E = sp.Matrix([e.lhs - e.rhs for e in kozlov.equations()[:n]])
    J = sp.Matrix(kozlov.jacobian())
    # λ̇-free combinations: E = J^T λ̇ + (terms in λ, q, u, q̈)
    null = []
    for w in J.nullspace(iszerofunc=is_zero):
        den = sp.lcm([sp.fraction(sp.together(e))[1] for e in w])
        null.append((w * den).applyfunc(canon))
    conds = [sp.Add(*[w[i] * E[i] for i in range(n)]) for w in null]
    rows = next(
        (
            list(I)
            for I in combinations(range(n), k)
            if not is_zero(J.extract(list(range(k)), list(I)).det(method="bareiss").xreplace(sub))
        ),
        None,
    )
    if rows is None:  # pragma: no cover - excluded by KozlovSystem
        raise ConstraintError("compare_motion: ∂V/∂u has no invertible k×k minor")
    ld = list(kozlov.lamdot)
    lam = list(kozlov.lam)
    Er = sp.Matrix([E[i] for i in rows])
    B = Er.jacobian(ld)
    rest = Er - B * sp.Matrix(ld)
    P = rest.jacobian(lam)
    h = rest - P * sp.Matrix(lam)
    # λ̇ = −B^{-1}(P λ + h) along the motion
    Binv = B.inv()
    Mt = (-Binv * P).applyfunc(lambda e: tidy(e.xreplace(sub)))
    ht = (-Binv * h).applyfunc(lambda e: tidy(e.xreplace(sub)))
    cs = tuple(sp.Symbol(f"{constants}{i + 1}") for i in range(k))
    if all(is_zero(x) for x in Mt):
        lam_t = [cs[i] + sp.integrate(ht[i], t, conds="none") for i in range(k)]
    else:
        fs = [sp.Function(f"lam{i + 1}")(t) for i in range(k)]
        odes = [sp.Eq(derivative(fs[i], t), sum(Mt[i, j] * fs[j] for j in range(k)) + ht[i]) for i in range(k)]
        sol = sp.dsolve(odes if k > 1 else odes[0])
        sol = sol if isinstance(sol, list) else [sol]
        lam_t = [next(s.rhs for s in sol if s.lhs == f) for f in fs]
        csyms = sorted({s for x in lam_t for s in x.free_symbols if s.name.startswith("C")}, key=str)
        lam_t = [x.xreplace(dict(zip(csyms, cs, strict=False))) for x in lam_t]
    lam_t = [tidy(x) for x in lam_t]
    lsub = dict(zip(lam, lam_t, strict=True)) | {d: derivative(x, t) for d, x in zip(ld, lam_t, strict=True)}
    cond_t = [sp.factor(tidy(c.xreplace(sub).xreplace(lsub))) for c in conds]
    eqs: list[sp.Expr] = []
    for c in cond_t:
        eqs += _time_coefficients(c, t)
    obstructions = tuple(e for e in eqs if not (set(cs) & e.free_symbols))
    sols: tuple[dict[sp.Symbol, sp.Expr], ...] = ()
    if not obstructions:
        lin = [e for e in eqs if set(cs) & e.free_symbols]
        if not lin:
            sols = ({},)
        else:
            ls = sp.linsolve(lin, list(cs))
            sols = tuple(
                {c: tidy(v) for c, v in zip(cs, s, strict=True) if c != v or c in {x for e in lin for x in [c]}}
                for s in ls
            )
            sols = tuple({c: v for c, v in s.items() if v != c} for s in sols)
    return MotionComparison(
        tuple(lam_t), cs, tuple(cond_t), tuple(eqs), obstructions, sols, bool(sols) and not obstructions
    )
