r"""Relative equilibria (steady motions) of a nonholonomic system with symmetry, from its reduced equations.

The reduced state is ``x = (q, v^α)`` with ``q̇^j = v^α X_α^j(q)`` and ``v̇^α = Γ^α(q, v)`` (Crampin–Mestdag
Proposition 2). A coordinate on which the kept right-hand sides do not depend is ignorable and is removed with its
equation, to a fixed point (:func:`~frames.linearize` applies the same rule to the linearised equations). A relative equilibrium is a zero of the
remaining right-hand sides ``f(x) = 0``: an equilibrium, or a steady motion along the removed directions (the
sleigh sliding straight, the disc rolling upright or on a circle). The zeros are found exactly, branch by branch:
each equation's numerator is factorised, and each factor solved for an unknown in which it is linear (with the
branch where the coefficient vanishes), or, for one unknown (or one combined angle such as ``ψ − θ``), by
:func:`sympy.solve`; what is left is returned as an implicit condition.

Parameters of the system (masses, and the inputs of its forces: a drive force or a torque ``τ``) are generic
unless ``known`` gives them values; ``solve_for`` makes inputs unknowns, solved with the states (the torque that
holds a steady turn). A branch that ends in an equation with no zero (a rate that reduces to a nonzero expression in
the parameters, or a factor with no real zero) is recorded as an :class:`EquilibriumObstruction`, so an empty
answer says why.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import sympy as sp

from .._value import Record
from ..algebra import derivative, expect, harmonic_form, is_zero, op_count, tidy
from ..algebra.internal import as_expr, canon, checkpoint, factor, trig_normal
from ..errors import ArgumentError
from ._method import ModelLike
from ._model_of import nonholonomic_of
from ._nonholonomic import NonholonomicSystem

__all__ = [
    "EquilibriumFamilies",
    "EquilibriumObstruction",
    "RelativeEquilibrium",
    "reduced_equations",
    "relative_equilibria",
]

#: a branch with more unknowns solved than this many times is abandoned (a guard against loops)
MAX_DEPTH = 64
#: a factor in several unknowns is handed to :func:`sympy.solve` (in its combined angle) up to this many operations
SOLVE_OPS = 60
#: a rate above this many operations that holds a coordinate is taken to depend on it (not differentiated)
DEPENDS_OPS = 2000
#: the Pythagorean reduction is applied to substituted equations up to this many operations
TRIG_OPS = 2000


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
    qdot = list(F.velocities(m))
    vdot = [G[al] for al in range(m)]
    keep: set[sp.Symbol] = set()
    while True:
        eqs = vdot + [qdot[chart.q.index(q)] for q in keep]
        new = {q for q in chart.q if any(_depends(e, q) for e in eqs)}
        if new <= keep:
            break
        keep |= new
    kept = [q for q in chart.q if q in keep]
    removed = tuple(q for q in chart.q if q not in keep)
    rates = tuple(canon(e) for e in [qdot[chart.q.index(q)] for q in kept] + vdot)
    return (*kept, *F.v[:m]), rates, removed


def _depends(e: sp.Expr, q: sp.Symbol) -> bool:
    """``e`` depends on ``q``: ``q`` occurs in it, and (for an expression small enough to differentiate cheaply) its
    derivative in ``q`` is not identically zero (a large canonical rate that holds ``q`` depends on it)."""
    if q not in e.free_symbols:
        return False
    if op_count(e) > DEPENDS_OPS:
        return True
    return not is_zero(derivative(e, q))


class RelativeEquilibrium(Record):
    r"""A family of relative equilibria: the reduced state ``x = values`` with ``free`` unknowns arbitrary.

    Attributes
    ----------
    system : NonholonomicSystem
    states : tuple of Symbol
        The reduced state ``x`` (the coordinates kept, then ``v^α``).
    values : tuple of Expr
        The value of each state, exact, in the parameters and the ``free`` unknowns (a free one is its own value).
    free : tuple of Symbol
        The unknowns left arbitrary (states, then inputs): the family's parameters (the speed of a steady motion,
        a lean angle …).
    conditions : tuple of Expr
        Equations ``c = 0`` among the free unknowns that the solver left implicit (empty when solved), in compact
        form (sines and cosines of combined angles where shorter).
    nonzero : tuple of Expr
        Expressions assumed nonzero on the family (the coefficients divided by; the family holds where they are
        nonzero and the right-hand sides are defined).
    removed : tuple of Symbol
        The ignorable coordinates removed (their values are arbitrary on the family).
    inputs : tuple of Symbol
        The parameters solved for (``solve_for``), e.g. a torque.
    input_values : tuple of Expr
        Their values on the family (an input that is free is its own value).
    given : tuple of (Symbol, Expr)
        The parameter values imposed by ``known``.
    """

    system: NonholonomicSystem
    states: tuple[sp.Symbol, ...]
    values: tuple[sp.Expr, ...]
    free: tuple[sp.Symbol, ...]
    conditions: tuple[sp.Expr, ...]
    nonzero: tuple[sp.Expr, ...]
    removed: tuple[sp.Symbol, ...]
    inputs: tuple[sp.Symbol, ...] = ()
    input_values: tuple[sp.Expr, ...] = ()
    given: tuple[tuple[sp.Symbol, sp.Expr], ...] = ()

    def __check_init__(self) -> None:
        if len(self.values) != len(self.states):
            raise ArgumentError(
                f"RelativeEquilibrium: values: {len(self.values)} values for the {len(self.states)} states "
                f"{self.states}"
            )
        if len(self.input_values) != len(self.inputs):
            raise ArgumentError(
                f"RelativeEquilibrium: input_values: {len(self.input_values)} values for the inputs {self.inputs}"
            )
        bad = [s for s in self.free if s not in self.states and s not in self.inputs]
        if bad:
            raise ArgumentError(f"RelativeEquilibrium: free: {bad} are neither states nor inputs")

    @property
    def solution(self) -> dict[sp.Symbol, sp.Expr]:
        """The states (then the inputs solved for) as a mapping unknown -> value."""
        return dict(zip((*self.states, *self.inputs), (*self.values, *self.input_values), strict=True))

    def at(self, values: Mapping[Any, Any] | None = None, removed: Mapping[Any, Any] | None = None) -> dict:
        r"""A point of the family in natural coordinates and velocities: the ``at=`` of :func:`~frames.linearize`.

        ``values`` gives values (numbers or expressions in the parameters) to free unknowns, by symbol or name
        (those not given stay symbols); ``removed`` gives values to the removed coordinates (default 0). The
        velocities are ``u = v^α X_α(q)`` there. The inputs' values are :attr:`solution`'s.
        """
        chart, F, m = self.system.lagrangian.chart, self.system.frame, self.system.m
        free = _by_name(values, self.free, "RelativeEquilibrium.at: values")
        rem = _by_name(removed, self.removed, "RelativeEquilibrium.at: removed")
        sol = {s: canon(v.xreplace(free)) if free else v for s, v in self.solution.items()}
        q = {x: sol[x] if x in sol else rem.get(x, sp.S.Zero) for x in chart.q}
        v = {F.v[al]: sol[F.v[al]] for al in range(m)}
        u = {uk: canon(e.xreplace(v).xreplace(q)) for uk, e in zip(chart.u, F.velocities(m), strict=True)}
        return q | u

    def __repr__(self) -> str:
        cond = f", conditions={self.conditions}" if self.conditions else ""
        given = f", given={dict(self.given)}" if self.given else ""
        return f"RelativeEquilibrium({self.solution}, free={self.free}{cond}, nonzero={self.nonzero}{given})"


class EquilibriumObstruction(Record):
    r"""Why a branch of :func:`relative_equilibria` has no relative equilibrium: an equation with no zero there.

    Attributes
    ----------
    rate : Symbol
        The state whose rate ``ẋ`` does not vanish (``v2`` for ``v̇2``).
    residual : Expr
        What the equation reduces to on the branch: an expression in the parameters (and inputs not solved for)
        that is taken nonzero for generic parameters, or a factor with no real zero.
    at : tuple of (Symbol, Expr)
        The unknowns' values on the branch (those imposed by ``known`` and those solved).
    real : bool
        True when ``residual`` has no real zero at all (``d² + sin²(ψ − θ)``); False when it vanishes for special
        parameters only: the branch is a family there (give them in ``known``, or ``solve_for`` an input).
    """

    rate: sp.Symbol
    residual: sp.Expr
    at: tuple[tuple[sp.Symbol, sp.Expr], ...]
    real: bool = False

    @property
    def reason(self) -> str:
        """The obstruction in words."""
        where = ", ".join(f"{k} = {v}" for k, v in self.at) or "every state"
        if self.real:
            return f"d{self.rate}/dt = 0 needs {self.residual} = 0, which has no real solution (at {where})"
        return (
            f"d{self.rate}/dt = {self.residual} at {where}: not zero for generic parameters "
            f"(zero only where {self.residual} = 0)"
        )

    def __repr__(self) -> str:
        return f"EquilibriumObstruction({self.reason})"


class EquilibriumFamilies(tuple):  # type: ignore[type-arg]
    r"""The families of :func:`relative_equilibria` (a tuple of :class:`RelativeEquilibrium`), with the
    obstructions met: why each abandoned branch has no equilibrium, and so why an empty answer is empty.

    Attributes
    ----------
    obstructions : tuple of EquilibriumObstruction
        One per abandoned branch (the same equation and residual once).
    """

    obstructions: tuple[EquilibriumObstruction, ...]

    def __new__(cls, families: Any = (), obstructions: Any = ()) -> EquilibriumFamilies:
        if isinstance(families, str | bytes | Mapping) or not isinstance(families, Iterable):
            raise ArgumentError(f"EquilibriumFamilies: families: expected a sequence, got {type(families).__name__}")
        out = super().__new__(cls, families)
        for k, f in enumerate(out):
            expect(f, RelativeEquilibrium, name=f"EquilibriumFamilies: families[{k}]")
        if isinstance(obstructions, str | bytes) or not isinstance(obstructions, Iterable):
            raise ArgumentError(
                f"EquilibriumFamilies: obstructions: expected a sequence, got {type(obstructions).__name__}"
            )
        obs = tuple(obstructions)
        for k, o in enumerate(obs):
            expect(o, EquilibriumObstruction, name=f"EquilibriumFamilies: obstructions[{k}]")
        out.obstructions = obs
        return out

    @property
    def reason(self) -> str:
        """Why there is no relative equilibrium ('' when there are families)."""
        if self:
            return ""
        if not self.obstructions:
            return "no branch of the reduced equations closes"
        return "no relative equilibrium: " + "; ".join(o.reason for o in self.obstructions)


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


def _parameters(nh: NonholonomicSystem, states: tuple[sp.Symbol, ...]) -> tuple[sp.Symbol, ...]:
    """The system's parameters: the chart's, then the symbols of its forces that are not coordinates (inputs)."""
    chart = nh.lagrangian.chart
    taken = {*chart.q, *chart.u, *nh.frame.v, *states, *([chart.t] if chart.t is not None else [])}
    extra = sorted(
        {s for f in (nh.forces or ()) for s in f.free_symbols if isinstance(s, sp.Symbol)} - taken - set(chart.params),
        key=str,
    )
    return (*chart.params, *extra)


def _solve_for(solve_for: Any, params: tuple[sp.Symbol, ...]) -> tuple[sp.Symbol, ...]:
    if solve_for is None:
        return ()
    if isinstance(solve_for, str | bytes | sp.Basic) or not isinstance(solve_for, Iterable):
        raise ArgumentError(
            f"relative_equilibria: solve_for: expected a sequence of parameters (symbols or names), got {solve_for!r:.60}"
        )
    out = list(_by_name(dict.fromkeys(solve_for, 0), params, "relative_equilibria: solve_for"))
    if len(out) != len(list(solve_for)):
        raise ArgumentError(f"relative_equilibria: solve_for: {list(solve_for)} repeats a parameter")
    return tuple(out)


def relative_equilibria(
    system: NonholonomicSystem | ModelLike, *, known: Mapping[Any, Any] | None = None, solve_for: Any = None
) -> EquilibriumFamilies:
    r"""The relative equilibria of ``system``: the zeros of its reduced right-hand sides, in families.

    The ignorable coordinates are removed (:func:`reduced_equations`); the remaining rates ``f(x) = 0`` are solved
    exactly for the reduced state (and the inputs in ``solve_for``), branch by branch: the numerator of an equation
    is factorised, a factor independent of the unknowns is taken nonzero (generic parameters), and a factor is
    solved for an unknown in which it is linear, ``a x + b = 0`` (with ``a ≠ 0`` recorded, and the branch
    ``a = b = 0``), or, when it depends on one unknown or one combined angle only, by :func:`sympy.solve`
    (principal roots: ``sin θ = 0`` gives ``θ = 0`` and ``θ = π``). A factor the solver cannot split is kept as a
    condition of the family. Each solution is checked: every rate vanishes there, exactly
    (:func:`~frames.algebra.is_zero`), and no denominator vanishes identically. Decisions are taken on canonical
    forms; the values and conditions returned are compact (sines and cosines of combined angles where shorter).

    Parameters
    ----------
    system : NonholonomicSystem
    known : mapping, optional
        Values imposed on some states or parameters (by symbol or name) before solving, e.g.
        ``{"theta": 0, "tau": 0}``.
    solve_for : sequence of Symbol or str, optional
        Parameters (inputs of the forces: a drive force, a torque) solved for with the states.

    Returns
    -------
    EquilibriumFamilies
        A tuple of :class:`RelativeEquilibrium`, one family per branch, the smallest first (``family.at(...)`` is a
        point for :func:`~frames.linearize`); its ``obstructions`` say why the other branches have none, and
        ``reason`` why the answer is empty when it is.

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
    params = _parameters(nh, states)
    inputs = _solve_for(solve_for, params)
    start = _by_name(known, (*states, *params), "relative_equilibria: known")
    clash = [p for p in inputs if p in start]
    if clash:
        raise ArgumentError(f"relative_equilibria: known: {clash} are also in solve_for")
    given = {p: v for p, v in start.items() if p in params}
    start = {s: v for s, v in start.items() if s in states}
    if given:
        # with known states the first branch substitutes and normalises: the large rates are not normalised twice
        rates = tuple(r.xreplace(given) if start else canon(r.xreplace(given)) for r in rates)
    unknowns = (*states, *inputs)
    eqs = [(s, r) for s, r in zip(states, rates, strict=True) if not is_zero(r)]
    found: list[tuple[dict[sp.Symbol, sp.Expr], tuple[sp.Expr, ...], tuple[sp.Expr, ...]]] = []
    obstructions: list[EquilibriumObstruction] = []
    _branch(eqs, list(unknowns), dict(start), (), found, 0, (), obstructions)
    out: list[RelativeEquilibrium] = []
    for sol, lconds, nonzero in found:
        conds = tuple(c for _, c in lconds)
        values = tuple(sol.get(s, s) for s in unknowns)
        if not _holds(rates, unknowns, values, conds):
            continue
        if any(is_zero(canon(nz.xreplace(sol))) for nz in nonzero):
            continue  # a special case of a branch that divided by it
        free = tuple(s for s in unknowns if s not in sol)
        fam = RelativeEquilibrium(
            nh,
            states,
            tuple(_compact(v) for v in values[: len(states)]),
            free,
            conds,
            _nonzero(nonzero, sol),
            removed,
            inputs,
            tuple(_compact(v) for v in values[len(states) :]),
            tuple(given.items()),
        )
        if not any(_same(fam, g) for g in out):
            out.append(fam)
    out = [f for f in out if not any(g is not f and (_within(f, g) or _weaker(f, g)) for g in out)]
    out.sort(key=lambda f: (len(f.free), sum(op_count(v) for v in (*f.values, *f.input_values))))
    return EquilibriumFamilies(out, _distinct(obstructions))


def _compact(e: sp.Expr) -> sp.Expr:
    """The tidied form, or the harmonic one (sines and cosines of combined angles) when it is a quarter shorter."""
    t = tidy(e)
    if not t.has(sp.sin, sp.cos):
        return t  # type: ignore[no-any-return]
    h = harmonic_form(t)
    return h if 4 * op_count(h) <= 3 * op_count(t) else t  # type: ignore[no-any-return]


def _nonzero(nonzero: tuple[sp.Expr, ...], sol: dict[sp.Symbol, sp.Expr]) -> tuple[sp.Expr, ...]:
    """The expressions divided by, at the family's values (numbers dropped: they are nonzero)."""
    out: list[sp.Expr] = []
    for n in nonzero:
        e = canon(n.xreplace(sol))
        if not e.is_number and not any(is_zero(canon(e - d)) for d in out):
            out.append(_compact(e))
    return tuple(out)


def _distinct(obs: list[EquilibriumObstruction]) -> tuple[EquilibriumObstruction, ...]:
    out: list[EquilibriumObstruction] = []
    for o in obs:
        if not any(o.rate == p.rate and o.at == p.at and is_zero(canon(o.residual - p.residual)) for p in out):
            out.append(o)
    return tuple(out)


def _holds(rates: tuple[sp.Expr, ...], unknowns: tuple, values: tuple, conds: tuple) -> bool:
    """Every rate vanishes at the values (those not decided wait for the conditions), with defined denominators."""
    sub = dict(zip(unknowns, values, strict=True))
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
        and all(
            is_zero(canon(a - b))
            for a, b in zip((*f.values, *f.input_values), (*g.values, *g.input_values), strict=True)
        )
    )


def _within(f: RelativeEquilibrium, g: RelativeEquilibrium) -> bool:
    """``f`` is a special case of the larger family ``g``: ``g``'s nonzero expressions do not vanish at ``f``,
    ``g`` at ``f``'s values of its free unknowns is ``f``, and ``g``'s conditions hold there."""
    if f.conditions or len(f.free) >= len(g.free):
        return False
    fs = f.solution
    if any(_vanishes(n.xreplace(fs)) for n in g.nonzero):
        return False
    here = {s: fs[s] for s in g.free}
    for a, b in zip((*f.values, *f.input_values), (*g.values, *g.input_values), strict=True):
        if _vanishes(b.xreplace(here) - a) is not True:
            return False
    return all(_vanishes(c.xreplace(fs)) is True for c in g.conditions)


def _weaker(f: RelativeEquilibrium, g: RelativeEquilibrium) -> bool:
    """``f`` is ``g`` with more conditions (the same values and free unknowns): a part of ``g``."""
    if f.free != g.free or len(f.conditions) <= len(g.conditions):
        return False
    if not all(
        is_zero(canon(a - b)) for a, b in zip(f.values + f.input_values, g.values + g.input_values, strict=True)
    ):
        return False
    return all(any(is_zero(canon(c - d)) for d in f.conditions) for c in g.conditions)


def _vanishes(e: sp.Expr) -> bool | None:
    """True if ``e`` is zero, False if not, None if it is undefined (a division by zero)."""
    e = canon(e)
    if e.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        return None
    return is_zero(e)


def _branch(
    eqs: list[tuple[sp.Symbol, sp.Expr]],
    unknowns: list[sp.Symbol],
    sol: dict[sp.Symbol, sp.Expr],
    nonzero: tuple[sp.Expr, ...],
    found: list,
    depth: int,
    conds: tuple[tuple[sp.Symbol, sp.Expr], ...],
    obstructions: list[EquilibriumObstruction],
) -> None:
    """Solve ``eqs = 0`` (each labelled by the state whose rate it is) for ``unknowns`` given ``sol`` (and the
    implicit ``conds``), appending ``(solution, conditions, nonzero)`` to ``found`` and, for a branch that ends in
    an equation with no zero, an :class:`EquilibriumObstruction` to ``obstructions``."""
    checkpoint()
    if depth > MAX_DEPTH:
        return
    todo: list[tuple[sp.Symbol, sp.Expr]] = []
    for lab, e in eqs:
        if sol:
            e = e.xreplace(sol)
            if e.has(sp.zoo, sp.nan):
                return  # a division by zero: outside the domain of the equations
            e = _normal(e)
        if is_zero(e):
            continue
        if not (e.free_symbols & set(unknowns)) - set(sol):
            # a nonzero expression in the parameters: no solution for generic parameters
            obstructions.append(EquilibriumObstruction(lab, _compact(sp.fraction(e)[0]), _at(sol, unknowns)))
            return
        todo.append((lab, e))
    if not todo:
        kept: tuple[tuple[sp.Symbol, sp.Expr], ...] = ()
        for lab_c, c in conds:
            c = _normal(c.xreplace(sol))
            if not is_zero(c) and _independent(c, set(unknowns) - set(sol)):
                obstructions.append(EquilibriumObstruction(lab_c, _compact(sp.fraction(c)[0]), _at(sol, unknowns)))
                return  # a condition on the parameters only: generic parameters miss it
            kept = _add_condition(kept, lab_c, c)
        found.append((dict(sol), kept, nonzero))
        return
    todo.sort(key=lambda le: op_count(le[1]))
    (lab, e), rest = todo[0], todo[1:]
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
            _branch(rest, unknowns, new, nonzero + keep_nz, found, depth + 1, conds, obstructions)
            if keep_nz:  # the branch where the coefficient vanishes too
                _branch(
                    [(lab, a), (lab, b), *rest], unknowns, dict(sol), nonzero, found, depth + 1, conds, obstructions
                )
            continue
        roots, real = _roots(f, open_)
        for x, r in roots:
            new = {k: canon(v.xreplace({x: r})) for k, v in sol.items()} | {x: r}
            _branch(rest, unknowns, new, nonzero, found, depth + 1, conds, obstructions)
        if not roots and not real:  # f = 0 has no real solution: the branch ends here
            obstructions.append(EquilibriumObstruction(lab, _compact(f), _at(sol, unknowns), True))
        elif not roots:  # f = 0 is kept: solve the others, then f again if they solved something
            inner: list = []
            _branch(rest, unknowns, dict(sol), nonzero, inner, depth + 1, conds, obstructions)
            for s_, c, nz in inner:
                left = _normal(f.xreplace(s_))
                if is_zero(left):
                    found.append((s_, c, nz))
                elif len(s_) > len(sol) or _independent(left, set(unknowns) - set(s_)):
                    _branch([(lab, left)], unknowns, s_, nz, found, depth + 1, c, obstructions)
                else:
                    found.append((s_, _add_condition(c, lab, left), nz))


def _normal(e: sp.Expr) -> sp.Expr:
    """The canonical form, with ``sin² + cos² = 1`` applied when it is small enough (a substituted angle, ``ψ = θ``,
    leaves identities the canonical form keeps: ``d³τ`` written with ``θ`` in it)."""
    c = canon(e)
    if c.has(sp.sin, sp.cos) and op_count(c) <= TRIG_OPS:
        return trig_normal(c)
    return c


def _independent(e: sp.Expr, open_: set[sp.Symbol]) -> bool:
    """``e`` does not depend on the open unknowns: no derivative in one of them survives the zero test (the
    canonical form of a rational function of sines and cosines can keep a symbol it does not depend on)."""
    return all(is_zero(canon(derivative(e, x))) for x in e.free_symbols & open_)


def _at(sol: dict[sp.Symbol, sp.Expr], unknowns: list[sp.Symbol]) -> tuple[tuple[sp.Symbol, sp.Expr], ...]:
    return tuple((u, _compact(sol[u])) for u in unknowns if u in sol)


def _roots(f: sp.Expr, open_: list[sp.Symbol]) -> tuple[list[tuple[sp.Symbol, sp.Expr]], bool]:
    """Real roots ``(x, value)`` of ``f = 0`` by :func:`sympy.solve`, when ``f`` depends on one unknown, or on
    unknowns that enter through one combined angle ``A`` only (``sin(ψ − θ)``): then ``A = r`` is solved for its
    last unknown. The flag is False when ``sympy.solve`` found roots and every one is complex (no real zero)."""
    inside = [u for u in open_ if f.has(u)]
    target: sp.Expr | None = None
    g = f
    if len(inside) == 1:
        target = inside[0]
    elif op_count(f) <= SOLVE_OPS:
        target, g = _one_angle(harmonic_form(f), inside)
    if target is None:
        return [], True
    z = target if target.is_Symbol else sp.Dummy("z", real=True)
    if not target.is_Symbol:
        g = g.xreplace({target: z})
    try:
        found = sp.solve(g, z, dict=False)
    except (NotImplementedError, ValueError, TypeError):  # pragma: no cover - sympy gave up
        return [], True
    real = [r for r in found if not r.has(sp.I) and z not in r.free_symbols]
    if found and not real:
        return [], False
    if target.is_Symbol:
        return [(target, r) for r in real], True
    out = []
    for r in real:  # A = r, A linear in its last unknown
        x = [u for u in inside if target.has(u)][-1]
        a = derivative(target, x)
        out.append((x, canon((r - (target - a * x)) / a)))
    return out, True


def _one_angle(h: sp.Expr, inside: list[sp.Symbol]) -> tuple[sp.Expr | None, sp.Expr]:
    """``(A, h)`` when the unknowns ``inside`` enter ``h`` only through ``sin``/``cos`` of one argument ``A`` (up to
    sign), which is linear in them; else ``(None, h)``."""
    args = {t.args[0] for t in h.atoms(sp.sin, sp.cos) if t.args[0].free_symbols & set(inside)}
    if not args:
        return None, h
    A = min(args, key=sp.default_sort_key)
    if any(not is_zero(canon(a - A)) and not is_zero(canon(a + A)) for a in args):
        return None, h
    if not all(derivative(A, u).is_number for u in inside):
        return None, h
    h = h.xreplace({sp.sin(-A): -sp.sin(A), sp.cos(-A): sp.cos(A)})
    z = sp.Dummy("A")
    rest = h.xreplace({A: z})
    if rest.free_symbols & set(inside):
        return None, h
    return A, h


def _add_condition(
    conds: tuple[tuple[sp.Symbol, sp.Expr], ...], lab: sp.Symbol, c: sp.Expr
) -> tuple[tuple[sp.Symbol, sp.Expr], ...]:
    """``conds`` and ``c = 0`` (labelled by the rate it comes from; compact), unless ``c`` vanishes or is ``± `` one
    of them."""
    if is_zero(c) or any(is_zero(canon(c - d)) or is_zero(canon(c + d)) for _, d in conds):
        return conds
    return (*conds, (lab, _compact(c)))


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
