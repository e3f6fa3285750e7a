r"""Consistency of nonholonomic and vakonomic dynamics (Crampin–Mestdag section 5).

* Theorem 2 (ii), weak consistency on a section ``μ_a = φ_a``:
  ``φ_a R^a_αβ v^β = 0`` (α = 1..m), i.e. ``Γ_C`` of Proposition 4 is the
  nonholonomic field Γ.
* Corollary 1, strong consistency: in addition
  ``Γ(φ_a) + φ_b R^b_aα v^α = λ_a`` (the vakonomic lift is tangent to ``im φ``).
* Theorem 2 (iii): the vakonomic lift ``Γ̄ = Γ + (λ_a − φ_b R^b_aα v^α) ∂/∂μ_a``.
* Section search by undetermined coefficients (:func:`find_sections`).
* Consistency along a single motion (end of section 5, :func:`consistency_along_motion`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sympy as sp
from sympy.core.function import AppliedUndef

from .._value import Value
from ..algebra import (
    as_expr,
    as_exprs,
    as_flag,
    as_subs,
    budgeted,
    canon,
    derivative,
    is_zero,
    step,
    tidy,
    trig_normal,
)
from ..algebra._coerce import _short
from ..errors import ArgumentError, ConstraintError, UndecidedError
from ._checks import check_flag_choice, check_symbols, expect_obj, optional_time, sequence, symbol_values
from ._pointwise import conditions_at_points
from ._vakonomic import VakonomicField, VakonomicSystem, _decide, _numeric_nonzero

__all__ = [
    "ConsistencyResult",
    "MotionConsistency",
    "SectionFamily",
    "VakonomicLift",
    "consistency_along_motion",
    "dimension_terms",
    "find_sections",
    "is_dimensionally_homogeneous",
    "split_conditions",
    "strong_consistency",
    "vakonomic_lift",
    "weak_consistency",
]


class ConsistencyResult(Value):
    r"""Outcome of a consistency test.

    Attributes
    ----------
    kind : str
        ``"weak"`` (Theorem 2 (ii)) or ``"strong"`` (Corollary 1).
    section : tuple
        The section ``φ_a``.
    conditions : tuple
        Simplified expressions that must all vanish on C: first
        ``φ_a R^a_αβ v^β`` for α = 1..m, then (strong only)
        ``Γ(φ_a) + φ_b R^b_aα v^α − λ_a`` for a = m+1..n.
    holds : bool or None
        True if every condition vanishes identically, False if one does not,
        None if undecidable with exact arithmetic.
    witness : tuple of (Expr, Rational)
        Only for a test asked to decide at generic points (``pointwise=True``) that was decided there:
        the point, as ``(generator, value)`` pairs (``sin θ``, ``cos θ`` on the unit circle, every other
        generator rational). The conditions were then *not* formed: ``conditions`` is empty.
    witness_values : tuple of Rational
        The values of the conditions at :attr:`witness`, in the order of ``conditions`` (the weak ones,
        then for the strong test ``Γ(φ_a) + φ_b R^b_aα v^α − λ_a``); one nonzero value proves its
        condition nonzero exactly, hence ``holds`` is False.
    """

    kind: str
    section: tuple[sp.Expr, ...]
    conditions: tuple[sp.Expr, ...]
    holds: bool | None
    witness: tuple[tuple[sp.Expr, sp.Expr], ...] = ()
    witness_values: tuple[sp.Expr, ...] = ()

    def __bool__(self) -> bool:
        return self.holds is True


def _weak_conditions(vk: VakonomicSystem, phi: Sequence[sp.Expr]) -> list[sp.Expr]:
    ral, _ = vk._phiR(phi)
    return [tidy(x) for x in ral]


def _strong_extra(vk: VakonomicSystem, phi: Sequence[sp.Expr]) -> list[sp.Expr]:
    nh = vk.nonholonomic
    G = nh.field()
    lam = nh.multipliers()
    _, ra = vk._phiR(phi)
    return [tidy(G(phi[k]) + ra[k] - lam[k]) for k in range(vk.n - vk.m)]


def _pointwise(
    vk: VakonomicSystem, phi: Sequence[sp.Expr], sub: dict[Any, Any], pointwise: Any, strong: bool, what: str
) -> tuple[Any, ...] | None:
    """The ``pointwise=`` option of the consistency tests: ``(point, values)`` if a generic point decides."""
    if not as_flag(pointwise, name=f"{what}: pointwise"):
        return None
    if sub:
        raise ArgumentError(f"{what}: pointwise=True decides at generic points; it does not take subs")
    with step(f"{what}: conditions at generic points"):
        return conditions_at_points(vk, phi, strong)


def _check_vk(vk: Any, what: str) -> VakonomicSystem:
    return expect_obj(vk, VakonomicSystem, name=f"{what}: vk")  # type: ignore[no-any-return]


def _specialize(conds: Sequence[sp.Expr], subs: dict[sp.Basic, sp.Expr]) -> tuple[sp.Expr, ...]:
    if not subs:
        return tuple(conds)
    return tuple(tidy(sp.sympify(c, strict=True).subs(subs)) for c in conds)


@budgeted("weak_consistency")
def weak_consistency(
    vk: VakonomicSystem, section: Any, subs: Mapping[Any, Any] | None = None, pointwise: bool = False
) -> ConsistencyResult:
    r"""Weak consistency on ``μ_a = φ_a`` (Theorem 2 (ii)): ``φ_a R^a_αβ v^β = 0``.

    ``subs`` (optional) specializes parameters *after* the conditions are computed with
    symbolic parameters, e.g. ``{J: J_s(l)}`` for a parameter relation; this is much cheaper
    than building the system with the relation substituted.

    ``pointwise=True`` decides at generic points first, without forming the conditions (see
    :func:`strong_consistency`); not combined with ``subs``.

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.nonholonomic_particle()
    >>> vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, m=2)
    >>> fr.weak_consistency(vk, [0]).holds
    True
    >>> r = fr.weak_consistency(vk, [-mdl.chart.q[0] * vk.frame.v[1]]); r.holds, r.conditions
    (False, (q1*v2**2, -q1*v1*v2))
    """
    vk = _check_vk(vk, "weak_consistency")
    phi = vk._section(section, "weak_consistency: section")
    sub = as_subs(subs, name="weak_consistency: subs")
    found = _pointwise(vk, phi, sub, pointwise, strong=False, what="weak_consistency")
    if found is not None:
        return ConsistencyResult("weak", phi, (), False, found[0], found[1])
    conds = _specialize(_weak_conditions(vk, phi), sub)
    return ConsistencyResult("weak", phi, conds, _decide(conds))


@budgeted("strong_consistency")
def strong_consistency(
    vk: VakonomicSystem, section: Any, subs: Mapping[Any, Any] | None = None, pointwise: bool = False
) -> ConsistencyResult:
    r"""Strong consistency on ``μ_a = φ_a`` (Corollary 1).

    ``subs`` specializes parameters after the computation (see :func:`weak_consistency`).

    With ``pointwise=True`` the conditions are first evaluated at generic points of the ring, from the
    data of the nonholonomic field (Proposition 2, solved at the point), without forming the field, the
    multipliers or the conditions (for large systems they are rational functions of 10⁵–10⁶ operations).
    A nonzero value proves the test fails, exactly; the result then carries the point and the values
    (:attr:`ConsistencyResult.witness`) and no conditions. When no point decides, the conditions are
    formed as without it. Not combined with ``subs``.

    Conditions: ``φ_a R^a_αβ v^β = 0`` and ``Γ(φ_a) + φ_b R^b_aα v^α − λ_a = 0``
    with Γ, λ the nonholonomic field and multipliers (Proposition 2).

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.nonholonomic_particle()
    >>> vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, m=2)
    >>> r = fr.strong_consistency(vk, [0]); r.holds, r.conditions
    (False, (0, 0, v1*v2/(q1**2 + 1)))
    """
    vk = _check_vk(vk, "strong_consistency")
    phi = vk._section(section, "strong_consistency: section")
    sub = as_subs(subs, name="strong_consistency: subs")
    found = _pointwise(vk, phi, sub, pointwise, strong=True, what="strong_consistency")
    if found is not None:
        return ConsistencyResult("strong", phi, (), False, found[0], found[1])
    conds = _specialize(_weak_conditions(vk, phi) + _strong_extra(vk, phi), sub)
    return ConsistencyResult("strong", phi, conds, _decide(conds))


# ------------------------------------------------------------ Theorem 2 (iii)
class VakonomicLift(Value):
    r"""The vakonomic lift ``Γ̄ = Γ + (λ_a − φ_b R^b_aα v^α) ∂/∂μ_a`` of Theorem 2 (iii).

    Attributes
    ----------
    field : VakonomicField
        ``Γ̄`` (its ``Γ^i`` are those of the nonholonomic field, ``A_a = λ_a − φ_b R^b_aα v^α``).
    residuals : tuple
        Residuals of the vakonomic equations (Proposition 3) on ``im φ``.
    satisfies : bool or None
        Whether ``Γ̄`` satisfies the vakonomic equations; by Theorem 2 this is
        equivalent to weak consistency.
    tangent_to_section : bool or None
        Whether ``Γ̄`` is tangent to ``im φ`` (strong consistency).
    """

    field: VakonomicField
    residuals: tuple[sp.Expr, ...]
    satisfies: bool | None
    tangent_to_section: bool | None


def vakonomic_lift(vk: VakonomicSystem, section: Any) -> VakonomicLift:
    r"""Theorem 2 (iii): build ``Γ̄`` and test it against the vakonomic equations on ``im φ``."""
    vk = _check_vk(vk, "vakonomic_lift")
    phi = vk._section(section, "vakonomic_lift: section")
    nh = vk.nonholonomic
    G = nh.field()
    lam = nh.multipliers()
    _, ra = vk._phiR(phi)
    A = tuple(tidy(lam[k] - ra[k]) for k in range(vk.n - vk.m))
    fld = VakonomicField(vk, G.Gamma, A, phi)
    res = vk.vakonomic_residuals(G.Gamma, A, phi)
    tang = tuple(tidy(G(phi[k]) - A[k]) for k in range(vk.n - vk.m))
    return VakonomicLift(fld, res, _decide(res), _decide(tang))


# ------------------------------------------------------------ section search
def _q_generators(e: sp.Expr, qs: Sequence[sp.Symbol]) -> list[sp.Expr]:
    gens: list[sp.Expr] = []
    for q in qs:
        if e.has(sp.sin(q)) or e.has(sp.cos(q)):
            gens += [sp.sin(q), sp.cos(q)]
    for q in qs:
        gens.append(q)
    return gens


def split_conditions(
    conditions: Sequence[Any], variables: Sequence[sp.Symbol], functions_of: Sequence[sp.Symbol] = ()
) -> list[sp.Expr]:
    r"""Split conditions into independent equations.

    Each condition is put over a common denominator; its numerator is expanded
    as a polynomial in ``variables`` (e.g. the ``v^α``) and, for each symbol in
    ``functions_of``, in ``sin``, ``cos`` and powers of that symbol (after the
    reduction ``sin² = 1 − cos²``, so the monomials are independent functions).
    The coefficients are returned, without duplicates and zeros.
    """
    conds = as_exprs(sequence(conditions, name="split_conditions: conditions"), name="split_conditions: conditions")
    variables = check_symbols(variables, name="split_conditions: variables")
    functions_of = check_symbols(functions_of, name="split_conditions: functions_of")
    out: list[sp.Expr] = []
    for c in conds:
        e = trig_normal(c)
        if e == 0:
            continue
        num, _ = sp.fraction(sp.together(e))
        num = sp.expand(num)
        gens = list(variables) + _q_generators(num, functions_of)
        try:
            poly = sp.Poly(num, *gens) if gens else None
        except sp.PolynomialError:
            poly = sp.Poly(num, *variables) if variables else None
        coeffs = [num] if poly is None else poly.coeffs()
        for co in coeffs:
            co = canon(co)
            if co != 0 and not any(is_zero(co - x) for x in out):
                out.append(co)
    return out


class SectionFamily(Value):
    r"""A family of sections solving consistency conditions.

    Attributes
    ----------
    section : tuple
        ``φ_a`` with the solved unknowns substituted (remaining unknowns are free).
    solution : dict
        Values of the unknown constants / functions.
    relations : tuple of Eq
        Relations the parameters must satisfy (empty for the generic family).
    free : tuple
        Unknowns left free.
    result : ConsistencyResult
        The consistency test on this family (with the relations substituted).
    """

    section: tuple[sp.Expr, ...]
    solution: dict[Any, sp.Expr]
    relations: tuple[sp.Eq, ...]
    free: tuple[sp.Expr, ...]
    result: ConsistencyResult


def _linear_families(
    eqs: list[sp.Expr], unknowns: Sequence[sp.Symbol]
) -> tuple[list[dict[sp.Symbol, sp.Expr]], list[sp.Expr]]:
    """Solve linear ``eqs`` for ``unknowns``; return (solutions, obstructions).

    Obstructions are the nonzero expressions (in the parameters) left over by the
    elimination when the system is inconsistent for generic parameters.
    """
    if not eqs:
        return [{}], []
    M, b = sp.linear_eq_to_matrix(eqs, list(unknowns))
    obstr = []
    for y in M.T.nullspace(iszerofunc=is_zero, simplify=canon):
        o = canon((y.T * b)[0])
        if not is_zero(o):
            obstr.append(o)
    if obstr:
        return [], obstr
    sol = sp.linsolve((M, b), list(unknowns))
    out = []
    for s in sol:
        out.append({u: canon(x) for u, x in zip(unknowns, s, strict=True) if x != u})
    return out, []


@budgeted("find_sections")
def find_sections(
    vk: VakonomicSystem,
    ansatz: Sequence[Any],
    unknowns: Sequence[Any] = (),
    *,
    kind: str = "strong",
    solve_for: Sequence[sp.Symbol] = (),
    functions: Sequence[Any] = (),
) -> list[SectionFamily]:
    r"""Search for sections ``μ_a = φ_a`` satisfying the weak or strong consistency conditions.

    Parameters
    ----------
    vk : VakonomicSystem
    ansatz : sequence of expressions
        ``φ_a`` containing unknown constants (``unknowns``) and/or unknown
        functions of one variable (``functions``, e.g. ``f(theta)``).
    unknowns : sequence of Symbol
        Unknown constants; the conditions must be linear in them.
    kind : "strong" or "weak"
    solve_for : sequence of Symbol
        Parameters that may be constrained: when the linear system is inconsistent
        for generic parameter values, each irreducible factor of each obstruction
        is solved for the first of these parameters it contains, and the search is
        repeated with that relation substituted (one family per root).
    functions : sequence of applied undefined functions of one variable
        Unknown functions (e.g. ``f(theta)``). The conditions are split over the
        ``v^α`` only; the equations with derivatives are integrated with
        :func:`sympy.dsolve` (their integration constants ``C1, C2, …`` become
        unknown constants), equations without derivatives that are linear in the
        functions are solved for them, and once no function is left the constants
        are found as above (splitting over the coordinates too). Functions that
        cannot be determined are returned in ``free`` with the unsolved equations
        as ``relations``.

    Returns
    -------
    list of SectionFamily
        Every family found, each with the parameter relations it needs.

    Notes
    -----
    The conditions are split with :func:`split_conditions` into coefficients of
    monomials in the ``v^α`` and in ``sin``, ``cos`` and powers of the
    coordinates (the coordinates are skipped when unknown functions are given).
    """
    vk = _check_vk(vk, "find_sections")
    kind = check_flag_choice(kind, ("strong", "weak"), name="find_sections: kind")
    unknowns = check_symbols(unknowns, name="find_sections: unknowns")
    solve_for = check_symbols(solve_for, name="find_sections: solve_for")
    functions = tuple(sequence(functions, name="find_sections: functions"))
    for k, f in enumerate(functions):
        if not isinstance(f, AppliedUndef) or len(f.args) != 1:
            raise ArgumentError(
                f"find_sections: functions[{k}]: expected an unknown function of one variable such as f(theta), "
                f"got {type(f).__name__} {_short(f)}"
            )
    test = strong_consistency if kind == "strong" else weak_consistency
    ans = as_exprs(sequence(ansatz, name="find_sections: ansatz"), name="find_sections: ansatz", length=vk.n - vk.m)
    phi = tuple(canon(p.xreplace(vk.on_C)) for p in ans)
    if functions:
        return _function_families(vk, phi, functions, unknowns, kind, solve_for)
    res = test(vk, phi)
    v_al = [vk.frame.v[i] for i in vk.alpha]
    eqs = split_conditions(res.conditions, v_al, list(vk.frame.chart.q))
    families: list[SectionFamily] = []

    def finish(sol: dict[Any, sp.Expr], rel: tuple[sp.Eq, ...]) -> None:
        sub = {r.lhs: r.rhs for r in rel}
        sec = tuple(tidy(p.xreplace(sub).xreplace(sol)) for p in phi)
        free = tuple(u for u in unknowns if u not in sol and any(s.has(u) for s in sec))
        r = test(vk, sec)
        conds = tuple(tidy(c.xreplace(sub)) for c in r.conditions)
        families.append(SectionFamily(sec, sol, rel, free, ConsistencyResult(r.kind, sec, conds, _decide(conds))))

    sols, obstr = _linear_families(eqs, unknowns)
    for s in sols:
        finish(s, ())
    if sols or not solve_for:
        return families
    seen: list[sp.Eq] = []
    for o in obstr:
        num, _ = sp.fraction(sp.together(o))
        for fac, _mult in sp.factor_list(num)[1]:
            par = next((p for p in solve_for if fac.has(p)), None)
            if par is None:
                continue
            for root in sp.solve(fac, par):
                rel = sp.Eq(par, root)
                if any(is_zero(rel.rhs - x.rhs) and rel.lhs == x.lhs for x in seen):
                    continue
                seen.append(rel)
                eqs2 = [canon(e.xreplace({par: root})) for e in eqs]
                eqs2 = [e for e in eqs2 if not is_zero(e)]
                sols2, _ = _linear_families(eqs2, unknowns)
                for s in sols2:
                    finish(s, (rel,))
    return families


def _function_families(
    vk: VakonomicSystem,
    phi: tuple[sp.Expr, ...],
    functions: Sequence[Any],
    unknowns: Sequence[sp.Symbol],
    kind: str,
    solve_for: Sequence[sp.Symbol],
) -> list[SectionFamily]:
    """Sections with unknown functions of one variable: eliminate the functions one step at a time.

    Each step either integrates the equations that contain derivatives (``sympy.dsolve``,
    a square system in the differentiated functions; the integration constants become
    unknown constants) or solves the equations without derivatives for the functions
    (linear algebra). It then recurses on the substituted ansatz; once no unknown function
    is left, the constants are found by :func:`find_sections` (splitting over the
    coordinates as well). A function that no step can determine is returned free. Every
    step determines at least one function, so the recursion ends.
    """
    test = strong_consistency if kind == "strong" else weak_consistency
    funcs = [f for f in functions if any(p.has(f) for p in phi)]
    if not funcs:
        return find_sections(vk, phi, unknowns, kind=kind, solve_for=solve_for)
    res = test(vk, phi)
    v_al = [vk.frame.v[i] for i in vk.alpha]
    eqs = split_conditions(res.conditions, v_al, [])
    step = _integrate_step(eqs, funcs, phi, vk)
    if step is None:
        step = _algebraic_step(eqs, funcs)
        if step == "inconsistent":
            return []
    if step is None:
        # nothing more can be determined: the remaining functions are free
        rel = tuple(sp.Eq(e, 0) for e in eqs)
        free = tuple(funcs) + tuple(u for u in unknowns if any(p.has(u) for p in phi))
        return [SectionFamily(phi, {}, rel, free, res)]
    sol, consts = step
    phi2 = tuple(tidy(p.subs(sol).doit()) for p in phi)
    rest = [f for f in functions if f not in sol]
    out = []
    for fam in _function_families(vk, phi2, rest, tuple(unknowns) + consts, kind, solve_for):
        full = {f: tidy(e.subs(fam.solution).doit()) for f, e in sol.items()}
        full.update(fam.solution)
        out.append(SectionFamily(fam.section, full, fam.relations, fam.free, fam.result))
    return out


def _integrate_step(
    eqs: list[sp.Expr], funcs: list[Any], phi: tuple[sp.Expr, ...], vk: VakonomicSystem
) -> tuple[dict[Any, sp.Expr], tuple[sp.Symbol, ...]] | None:
    """Solve the differential equations for the derivatives and integrate ``f' = F(f, x)`` with dsolve.

    Returns None unless every derivative is determined; the constants get fresh names ``C<k>``.
    """
    derivs = [e for e in eqs if e.has(sp.Derivative)]
    dvars = sorted({d for e in derivs for d in e.atoms(sp.Derivative) if d.expr in funcs}, key=sp.default_sort_key)
    if not dvars or any(d.derivative_count != 1 for d in dvars):
        return None
    dummies = {d: sp.Dummy("d") for d in dvars}
    try:
        lin = [e.xreplace(dummies) for e in derivs]
        if any(sp.Poly(e, *dummies.values()).total_degree() > 1 for e in lin):
            return None
        M, b = sp.linear_eq_to_matrix(lin, list(dummies.values()))
    except (sp.PolynomialError, ValueError):
        return None
    red, pivots = M.row_join(b).rref(iszerofunc=is_zero, simplify=canon)
    if list(pivots) != list(range(len(dvars))):
        return None  # some derivative is not determined (or the system is inconsistent)
    # explicit first-order system f' = F(f, x); rows without a derivative are re-imposed after integration
    odes = [sp.Eq(d, canon(red[i, len(dvars)])) for i, d in enumerate(dvars)]
    dfuncs = [d.expr for d in dvars]
    try:
        ds = sp.dsolve(odes, dfuncs) if len(dfuncs) > 1 else sp.dsolve(odes[0], dfuncs[0])
    except (NotImplementedError, ValueError, TypeError, KeyError):
        return None
    ds = ds if isinstance(ds, list) else [ds]
    if any(not isinstance(d, sp.Eq) or d.lhs not in dfuncs for d in ds):
        return None
    used = set().union(*[p.free_symbols for p in phi]) | set(vk.frame.chart.params)
    taken = {s.name for s in used}
    consts: list[sp.Symbol] = []
    sol: dict[Any, sp.Expr] = {}
    rename: dict[sp.Symbol, sp.Symbol] = {}
    k = 1
    for d in ds:
        for c in sorted(d.rhs.free_symbols - used, key=sp.default_sort_key):
            if c in rename or not c.name.startswith("C"):
                continue
            while f"C{k}" in taken:
                k += 1
            rename[c] = sp.Symbol(f"C{k}")
            taken.add(f"C{k}")
            consts.append(rename[c])
    for d in ds:
        sol[d.lhs] = d.rhs.xreplace(rename)
    return sol, tuple(consts)


def _algebraic_step(eqs: list[sp.Expr], funcs: list[Any]) -> Any:
    """Solve the equations without derivatives that are linear in the functions."""
    dummies = {f: sp.Dummy(str(f.func)) for f in funcs}
    lin = []
    for e in eqs:
        if e.has(sp.Derivative) or not any(e.has(f) for f in funcs):
            continue
        ed = e.xreplace(dummies)
        try:
            if sp.Poly(ed, *dummies.values()).total_degree() <= 1:
                lin.append(ed)
        except sp.PolynomialError:
            continue
    if not lin:
        return None
    sols, obstr = _linear_families(lin, list(dummies.values()))
    if obstr:
        return "inconsistent"
    back = {d: f for f, d in dummies.items()}
    sol = {back[d]: canon(x).xreplace(back) for d, x in sols[0].items()}
    return (sol, ()) if sol else None


# ------------------------------------------------------------ single motions
class MotionConsistency(Value):
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
    G = nh.field()
    lam = nh.multipliers()
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


# ------------------------------------------------------------ dimensions
def dimension_terms(expr: Any, dims: Mapping[sp.Symbol, Any]) -> list[tuple[sp.Expr, sp.Expr]]:
    r"""The physical dimension of every additive term of ``expr`` (after expansion).

    ``dims`` maps each parameter to a monomial in base-dimension symbols (e.g.
    ``{m: M, R: L, J: M*L**2}``). Numerical factors are dropped.

    Examples
    --------
    >>> import sympy as sp
    >>> m, R, M, L = sp.symbols("m R M L", positive=True)
    >>> dimension_terms(m * R**2 + m, {m: M, R: L})
    [(m, M), (R**2*m, L**2*M)]
    """
    return _dimension_terms(expr, dims, "dimension_terms")


def _dimension_terms(expr: Any, dims: Any, what: str) -> list[tuple[sp.Expr, sp.Expr]]:
    e = sp.expand(as_expr(expr, name=f"{what}: expr"))
    if not isinstance(dims, Mapping):
        raise ArgumentError(f"{what}: dims: expected a mapping parameter -> dimension, got {type(dims).__name__}")
    dmap = as_subs(dims, name=f"{what}: dims")
    terms = e.args if e.is_Add else (e,)
    out = []
    for term in sorted(terms, key=sp.default_sort_key):
        d = sp.powsimp(term.xreplace(dmap), force=True)
        _, mon = d.as_coeff_Mul()
        out.append((term, mon))
    return out


def is_dimensionally_homogeneous(expr: Any, dims: Mapping[sp.Symbol, Any]) -> bool:
    """True if all terms of ``expr`` have the same dimension (see :func:`dimension_terms`)."""
    ds = [d for _, d in _dimension_terms(expr, dims, "is_dimensionally_homogeneous")]
    return all(is_zero(d / ds[0] - 1) for d in ds[1:]) if ds else True
