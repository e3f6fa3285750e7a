r"""Sections ``μ_a = φ_a`` solving consistency conditions, by undetermined coefficients (Crampin–Mestdag section 5).

:func:`find_sections` substitutes an ansatz into the weak or strong conditions, splits them into independent
equations (:func:`split_conditions`) and solves for the unknown coefficients and functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy as sp
from sympy.core.function import AppliedUndef

from .._value import Record
from ..algebra import is_zero, tidy
from ..algebra.internal import as_exprs, budgeted, canon, trig_normal
from ..algebra.internal import short_repr as _short
from ..errors import ArgumentError
from ._checks import check_flag_choice, check_symbols, sequence
from ._consistency import ConsistencyResult, _check_vk, strong_consistency, weak_consistency
from ._vakonomic import VakonomicSystem, _decide

__all__ = ["SectionFamily", "find_sections", "split_conditions"]


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


class SectionFamily(Record):
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
