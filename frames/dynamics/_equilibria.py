r"""Relative equilibria (steady motions) of a nonholonomic system with symmetry, from its reduced equations.

The reduced state is ``x = (q, v^α)`` with ``q̇^j = v^α X_α^j(q)`` and ``v̇^α = Γ^α(q, v)`` (Crampin–Mestdag
Proposition 2). A coordinate on which the kept right-hand sides do not depend is ignorable and is removed with its
equation, to a fixed point (:func:`~frames.linearize` applies the same rule to the linearised equations). A relative equilibrium is a zero of the
remaining right-hand sides ``f(x) = 0``: an equilibrium, or a steady motion along the removed directions (the
sleigh sliding straight, the disc rolling upright or on a circle). The zeros are found exactly, branch by branch:
each equation's numerator is factorised, and each factor solved for an unknown in which it is linear (with the
branch where the coefficient vanishes), or, for one unknown, by :func:`sympy.solve`; what is left is returned
as an implicit condition.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy as sp

from .._value import Value
from ..algebra import as_expr, canon, checkpoint, derivative, factor, is_zero, op_count, tidy
from ..errors import ArgumentError
from ._method import ModelLike
from ._model_of import nonholonomic_of
from ._nonholonomic import NonholonomicSystem

__all__ = ["RelativeEquilibrium", "reduced_equations", "relative_equilibria"]

#: a branch with more unknowns solved than this many times is abandoned (a guard against loops)
MAX_DEPTH = 64


def reduced_equations(
    system: NonholonomicSystem | ModelLike,
) -> tuple[tuple[sp.Symbol, ...], tuple[sp.Expr, ...], tuple[sp.Symbol, ...]]:
    r"""``(states, rates, removed)``: the reduced state ``x``, its right-hand sides ``ẋ = f(x)``, the ignorable
    coordinates removed.

    ``x`` is the coordinates kept (in chart order) then ``v^1, …, v^m``; a coordinate is kept when a kept
    right-hand side depends on it (the ``v̇`` equations always are kept), to a fixed point.

    Examples
    --------
    >>> import frames as fr
    >>> states, rates, removed = reduced_equations(fr.models.chaplygin_sleigh().nonholonomic())
    >>> states, removed
    ((v1, v2), (theta, x, y))
    >>> rates
    (-a*m*v1*v2/(I + a**2*m), a*v1**2)
    """
    nh = nonholonomic_of(system, "reduced_equations: system")
    chart, F, m = nh.lagrangian.chart, nh.frame, nh.m
    G = nh.field(canonical=True).Gamma
    qdot = [sp.Add(*[F.v[al] * F.matrix[al, j] for al in range(m)]) for j in range(F.dim)]
    vdot = [G[al] for al in range(m)]
    keep: set[sp.Symbol] = set()
    while True:
        eqs = vdot + [qdot[chart.q.index(q)] for q in keep]
        new = {q for q in chart.q if any(derivative(e, q) != 0 for e in eqs)}
        if new <= keep:
            break
        keep |= new
    kept = [q for q in chart.q if q in keep]
    removed = tuple(q for q in chart.q if q not in keep)
    rates = tuple(canon(e) for e in [qdot[chart.q.index(q)] for q in kept] + vdot)
    return (*kept, *F.v[:m]), rates, removed


class RelativeEquilibrium(Value):
    r"""A family of relative equilibria: the reduced state ``x = values`` with ``free`` states arbitrary.

    Attributes
    ----------
    system : NonholonomicSystem
    states : tuple of Symbol
        The reduced state ``x`` (the coordinates kept, then ``v^α``).
    values : tuple of Expr
        The value of each state, exact, in the parameters and the ``free`` states (a free state is its own value).
    free : tuple of Symbol
        The states left arbitrary: the family's parameters (the speed of a steady motion, a lean angle …).
    conditions : tuple of Expr
        Equations ``c = 0`` among the free states that the solver left implicit (empty when solved).
    nonzero : tuple of Expr
        Expressions assumed nonzero on the family (the coefficients divided by; the family holds where they are
        nonzero and the right-hand sides are defined).
    removed : tuple of Symbol
        The ignorable coordinates removed (their values are arbitrary on the family).
    """

    system: NonholonomicSystem
    states: tuple[sp.Symbol, ...]
    values: tuple[sp.Expr, ...]
    free: tuple[sp.Symbol, ...]
    conditions: tuple[sp.Expr, ...]
    nonzero: tuple[sp.Expr, ...]
    removed: tuple[sp.Symbol, ...]

    def __check_init__(self) -> None:
        if len(self.values) != len(self.states):
            raise ArgumentError(
                f"RelativeEquilibrium: {len(self.values)} values for the {len(self.states)} states {self.states}"
            )

    @property
    def solution(self) -> dict[sp.Symbol, sp.Expr]:
        """The states as a mapping state -> value."""
        return dict(zip(self.states, self.values, strict=True))

    def at(self, values: Mapping[Any, Any] | None = None, removed: Mapping[Any, Any] | None = None) -> dict:
        r"""A point of the family in natural coordinates and velocities: the ``at=`` of :func:`~frames.linearize`.

        ``values`` gives values (numbers or expressions in the parameters) to free states, by symbol or name
        (those not given stay symbols); ``removed`` gives values to the removed coordinates (default 0). The
        velocities are ``u = v^α X_α(q)`` there.
        """
        chart, F, m = self.system.lagrangian.chart, self.system.frame, self.system.m
        free = _by_name(values, self.free, "RelativeEquilibrium.at: values")
        rem = _by_name(removed, self.removed, "RelativeEquilibrium.at: removed")
        sol = {s: canon(v.xreplace(free)) if free else v for s, v in self.solution.items()}
        q = {x: sol[x] if x in sol else rem.get(x, sp.S.Zero) for x in chart.q}
        v = {F.v[al]: sol[F.v[al]] for al in range(m)}
        u = {
            chart.u[k]: canon(sp.Add(*[v[F.v[al]] * F.matrix[al, k] for al in range(m)]).xreplace(q))
            for k in range(F.dim)
        }
        return q | u

    def __repr__(self) -> str:
        cond = f", conditions={self.conditions}" if self.conditions else ""
        return f"RelativeEquilibrium({self.solution}, free={self.free}{cond}, nonzero={self.nonzero})"


def _by_name(given: Mapping[Any, Any] | None, allowed: tuple[sp.Symbol, ...], name: str) -> dict[sp.Symbol, sp.Expr]:
    if given is not None and not isinstance(given, Mapping):
        raise ArgumentError(f"{name}: expected a mapping of states to values, got {given!r:.60}")
    out: dict[sp.Symbol, sp.Expr] = {}
    for k, val in (given or {}).items():
        sym = next((s for s in allowed if s == k or s.name == str(k)), None)
        if sym is None:
            raise ArgumentError(f"{name}: {k!r} is not one of {list(allowed)}")
        out[sym] = as_expr(val, name=f"{name}[{sym.name}]")
    return out


def relative_equilibria(
    system: NonholonomicSystem | ModelLike, *, known: Mapping[Any, Any] | None = None
) -> tuple[RelativeEquilibrium, ...]:
    r"""The relative equilibria of ``system``: the zeros of its reduced right-hand sides, in families.

    The ignorable coordinates are removed (:func:`reduced_equations`); the remaining rates ``f(x) = 0`` are solved
    exactly for the reduced state, branch by branch: the numerator of an equation is factorised, a factor
    independent of the states is taken nonzero (generic parameters), and a factor is solved for a state in which
    it is linear, ``a x + b = 0`` (with ``a ≠ 0`` recorded, and the branch ``a = b = 0``), or, when it depends on
    one state only, by :func:`sympy.solve` (principal roots: ``sin θ = 0`` gives ``θ = 0`` and ``θ = π``). A
    factor the solver cannot split is kept as a condition of the family. Each solution is checked: every rate
    vanishes there, exactly (:func:`~frames.algebra.is_zero`), and no denominator vanishes identically.

    Parameters
    ----------
    system : NonholonomicSystem
    known : mapping, optional
        Values imposed on some states before solving (by symbol or name), e.g. ``{"theta": 0}``.

    Returns
    -------
    tuple of RelativeEquilibrium
        One family per branch, the smallest first; ``family.at(...)`` is a point for :func:`~frames.linearize`.

    Examples
    --------
    The Chaplygin sleigh slides straight at any speed ``v2`` (``v1`` is its turning rate):

    >>> import frames as fr
    >>> (fam,) = relative_equilibria(fr.models.chaplygin_sleigh().nonholonomic())
    >>> fam.solution, fam.free
    ({v1: 0, v2: v2}, (v2,))
    """
    nh = nonholonomic_of(system, "relative_equilibria: system")
    states, rates, removed = reduced_equations(nh)
    start = _by_name(known, states, "relative_equilibria: known")
    eqs = [r for r in rates if not is_zero(r)]
    found: list[tuple[dict[sp.Symbol, sp.Expr], tuple[sp.Expr, ...], tuple[sp.Expr, ...]]] = []
    _branch(eqs, list(states), dict(start), (), found, 0)
    out: list[RelativeEquilibrium] = []
    for sol, conds, nonzero in found:
        values = tuple(sol.get(s, s) for s in states)
        if not _holds(rates, states, values, conds):
            continue
        if any(is_zero(canon(nz.xreplace(sol))) for nz in nonzero):
            continue  # a special case of a branch that divided by it
        free = tuple(s for s in states if s not in sol)
        fam = RelativeEquilibrium(nh, states, values, free, conds, nonzero, removed)
        if not any(_same(fam, g) for g in out):
            out.append(fam)
    out = [f for f in out if not any(g is not f and _within(f, g) for g in out)]
    out.sort(key=lambda f: (len(f.free), sum(op_count(v) for v in f.values)))
    return tuple(out)


def _holds(rates: tuple[sp.Expr, ...], states: tuple, values: tuple, conds: tuple) -> bool:
    """Every rate vanishes at the values (those not decided wait for the conditions), with defined denominators."""
    sub = dict(zip(states, values, strict=True))
    for r in rates:
        num, den = sp.fraction(r)
        d = canon(den.xreplace(sub))
        if d.has(sp.zoo, sp.nan) or is_zero(d):
            return False
        n = canon(num.xreplace(sub))
        if n.has(sp.zoo, sp.nan):
            return False
        if not conds and not is_zero(n):
            return False
    return True


def _same(f: RelativeEquilibrium, g: RelativeEquilibrium) -> bool:
    return (
        f.free == g.free
        and f.conditions == g.conditions
        and all(is_zero(a - b) for a, b in zip(f.values, g.values, strict=True))
    )


def _within(f: RelativeEquilibrium, g: RelativeEquilibrium) -> bool:
    """``f`` is a special case of the larger family ``g``: ``g``'s nonzero expressions do not vanish at ``f``,
    ``g`` at ``f``'s values of its free states is ``f``, and ``g``'s conditions hold there."""
    if f.conditions or len(f.free) >= len(g.free):
        return False
    if any(_vanishes(n.xreplace(f.solution)) for n in g.nonzero):
        return False
    here = {s: f.solution[s] for s in g.free}
    for a, b in zip(f.values, g.values, strict=True):
        if _vanishes(b.xreplace(here) - a) is not True:
            return False
    return all(_vanishes(c.xreplace(f.solution)) is True for c in g.conditions)


def _vanishes(e: sp.Expr) -> bool | None:
    """True if ``e`` is zero, False if not, None if it is undefined (a division by zero)."""
    e = canon(e)
    if e.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        return None
    return is_zero(e)


def _branch(
    eqs: list[sp.Expr],
    unknowns: list[sp.Symbol],
    sol: dict[sp.Symbol, sp.Expr],
    nonzero: tuple[sp.Expr, ...],
    found: list,
    depth: int,
    conds: tuple[sp.Expr, ...] = (),
) -> None:
    """Solve ``eqs = 0`` for ``unknowns`` given ``sol`` (and the implicit ``conds``), appending
    ``(solution, conditions, nonzero)`` to ``found``."""
    checkpoint()
    if depth > MAX_DEPTH:
        return
    todo: list[sp.Expr] = []
    for e in eqs:
        if sol:
            e = e.xreplace(sol)
            if e.has(sp.zoo, sp.nan):
                return  # a division by zero: outside the domain of the equations
            e = canon(e)
        if is_zero(e):
            continue
        if not (e.free_symbols & set(unknowns)) - set(sol):
            return  # a nonzero expression in the parameters: no solution for generic parameters
        todo.append(e)
    if not todo:
        kept: tuple[sp.Expr, ...] = ()
        for c in conds:
            kept = _add_condition(kept, canon(c.xreplace(sol)))
        found.append((dict(sol), kept, nonzero))
        return
    todo.sort(key=op_count)
    e, rest = todo[0], todo[1:]
    open_ = [u for u in unknowns if u not in sol]
    num, _den = sp.fraction(e)
    facs = [
        f.base if isinstance(f, sp.Pow) and f.exp.is_Integer and f.exp > 0 else f for f in sp.Mul.make_args(factor(num))
    ]
    facs = [f for f in facs if f.free_symbols & set(open_)]
    for f in facs:
        lin = _linear_in(f, open_)
        if lin is not None:
            x, a, b = lin
            val = canon(-b / a)
            new = {k: canon(v.xreplace({x: val})) for k, v in sol.items()} | {x: val}
            keep_nz = () if not (a.free_symbols & set(open_)) else (tidy(a),)
            _branch(rest, unknowns, new, nonzero + keep_nz, found, depth + 1, conds)
            if keep_nz:  # the branch where the coefficient vanishes too
                _branch([a, b, *rest], unknowns, dict(sol), nonzero, found, depth + 1, conds)
            continue
        inside = [u for u in open_ if f.has(u)]
        roots: list[sp.Expr] = []
        if len(inside) == 1:
            try:
                roots = sp.solve(f, inside[0], dict=False)
            except (NotImplementedError, ValueError, TypeError):  # pragma: no cover - sympy gave up
                roots = []
            roots = [r for r in roots if not r.has(sp.I) and inside[0] not in r.free_symbols]
        for r in roots:
            x = inside[0]
            new = {k: canon(v.xreplace({x: r})) for k, v in sol.items()} | {x: r}
            _branch(rest, unknowns, new, nonzero, found, depth + 1, conds)
        if not roots:  # f = 0 is kept: solve the others, then f again if they solved something
            inner: list = []
            _branch(rest, unknowns, dict(sol), nonzero, inner, depth + 1, conds)
            for s_, c, nz in inner:
                left = canon(f.xreplace(s_))
                if is_zero(left):
                    found.append((s_, c, nz))
                elif len(s_) > len(sol):
                    _branch([left], unknowns, s_, nz, found, depth + 1, c)
                else:
                    found.append((s_, _add_condition(c, left), nz))


def _add_condition(conds: tuple[sp.Expr, ...], c: sp.Expr) -> tuple[sp.Expr, ...]:
    """``conds`` and ``c = 0`` (tidied), unless ``c`` vanishes or is ``± `` one of them."""
    if is_zero(c) or any(is_zero(c - d) or is_zero(c + d) for d in conds):
        return conds
    return (*conds, tidy(c))


def _linear_in(f: sp.Expr, unknowns: list[sp.Symbol]) -> tuple[sp.Symbol, sp.Expr, sp.Expr] | None:
    """``(x, a, b)`` with ``f = a x + b``, ``a, b`` free of ``x`` and ``a ≠ 0``, for the last such unknown."""
    for x in reversed(unknowns):
        if not f.has(x):
            continue
        a = canon(derivative(f, x))
        if is_zero(a) or a.has(x):
            continue
        b = canon(f - a * x)
        if b.has(x):
            continue
        return x, a, b
    return None
