r"""The general solution of an under- or over-determined linear system (:func:`~frames.algebra.solve_linear`
with ``unknowns=``), and the reduction of affine existence conditions (:func:`reduce_conditions`).

* :func:`_gauss_jordan_general` — exact Gauss–Jordan over the field of functions: free unknowns, existence
  conditions, pivots (the Cartan-form method);
* :func:`_sympy_general` — :func:`sympy.linsolve` with the function atoms frozen as symbols, the independent
  solver of the cross-checks (the MVM's ansatz search).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import sympy as sp

from ..errors import InvalidExpressionError
from ._budget import checkpoint
from ._normal import canon, is_zero

__all__ = ["reduce_conditions"]

_General = tuple[dict[sp.Symbol, sp.Expr], tuple[sp.Symbol, ...], tuple[sp.Expr, ...], tuple[sp.Expr, ...]]


def _general_solution(
    A: sp.Matrix,
    b: sp.Matrix,
    unknowns: list[sp.Symbol],
    simp: Callable[[Any], sp.Expr],
    groups: Sequence[int] | None,
    method: str,
) -> _General:
    """``(solution, free, conditions, pivots)`` of ``A x = b`` (see :func:`~frames.algebra.solve_linear`)."""
    if len(unknowns) != A.cols:
        raise InvalidExpressionError(f"solve_linear: {len(unknowns)} unknowns for {A.cols} columns")
    if b.rows != A.rows:
        raise InvalidExpressionError(f"solve_linear: A, b: shapes {A.shape} and {b.shape} do not match")
    if method == "sympy":
        return _sympy_general(A, b, unknowns)
    return _gauss_jordan_general(A, b, unknowns, simp, groups)


def _gauss_jordan_general(
    A: sp.MatrixBase,
    b: sp.MatrixBase,
    unknowns: Sequence[sp.Symbol],
    simp: Callable[[Any], sp.Expr] = canon,
    groups: Sequence[int] | None = None,
) -> _General:
    r"""General solution of ``A x = b`` over the field of functions (exact Gauss–Jordan).

    Rows are reduced in the order given. In each row the pivot is taken from the
    first column group (``groups[c]``, default all 0) with an entry that does not
    vanish identically, a constant entry if there is one, else the leftmost (for a
    positive definite Hessian these are the positive Schur-complement diagonals); so unknowns in later
    groups are the ones left free.

    Returns
    -------
    solution : dict
        Every unknown → its value in terms of the free unknowns.
    free : tuple of Symbol
        The unknowns left free (the parameters of the general solution).
    conditions : tuple of expressions
        Functions that must vanish for a solution to exist (rows ``0 = c``).
    pivots : tuple of expressions
        The non-constant pivots divided by; the solution holds where they do not vanish.

    ``simp`` normalises every entry after each row operation (default
    :func:`~frames.algebra.canon`; :func:`~frames.algebra.tidy` keeps
    trigonometric entries small).
    """
    M = sp.Matrix(A).row_join(sp.Matrix(b))
    rows, cols = A.shape
    group = list(groups) if groups is not None else [0] * cols
    pivot_of: dict[int, int] = {}
    conditions: list[sp.Expr] = []
    nonconst: list[sp.Expr] = []
    zero_rows: list[int] = []
    for i in range(rows):
        checkpoint()
        cand = [c for c in range(cols) if c not in pivot_of.values() and M[i, c] != 0 and not is_zero(M[i, c])]
        if cand:
            first = min(group[c] for c in cand)
            j: int | None = min((c for c in cand if group[c] == first), key=lambda c: (not M[i, c].is_number, c))
        else:
            j = None
        if j is None:
            zero_rows.append(i)
            continue
        p = M[i, j]
        if not p.is_number:
            nonconst.append(p)
        M[i, :] = (M[i, :] / p).applyfunc(simp)
        for k in range(rows):
            if k != i and M[k, j] != 0:
                f = M[k, j]
                M[k, :] = (M[k, :] - f * M[i, :]).applyfunc(simp)
        pivot_of[i] = j
    for i in zero_rows:
        c = canon(M[i, cols])
        if not is_zero(c):
            conditions.append(c)
    pivot_cols = set(pivot_of.values())
    free = tuple(unknowns[c] for c in range(cols) if c not in pivot_cols)
    sol: dict[sp.Symbol, sp.Expr] = {x: x for x in free}
    for i, j in pivot_of.items():
        val = M[i, cols] - sp.Add(*[M[i, c] * unknowns[c] for c in range(cols) if c not in pivot_cols])
        sol[unknowns[j]] = canon(val)
    return sol, free, tuple(conditions), tuple(nonconst)


def reduce_conditions(
    conds: Sequence[sp.Expr], variables: Sequence[sp.Symbol]
) -> tuple[tuple[sp.Expr, ...], dict[sp.Symbol, sp.Expr]]:
    """Row-reduce conditions that are affine in ``variables``; solve them for pivot variables.

    Returns the reduced conditions and a substitution (pivot variable → value)
    describing the locus; conditions not affine in the variables are kept as
    they are and give no substitution.
    """
    if not conds:
        return (), {}
    affine = []
    other = []
    for c in conds:
        e = sp.expand(sp.numer(sp.together(c)))
        try:
            poly = sp.Poly(e, *variables)
        except sp.PolynomialError:
            other.append(c)
            continue
        if poly.total_degree() <= 1 and any(poly.degree(x) > 0 for x in variables):
            affine.append(e)
        else:
            other.append(c)
    if not affine:
        return tuple(conds), {}
    A = sp.Matrix([[sp.diff(e, x) for x in variables] for e in affine])
    b = sp.Matrix([-e.xreplace(dict.fromkeys(variables, 0)) for e in affine])
    sol, _free, rest, _piv = _gauss_jordan_general(A, b, list(variables))
    locus = {x: v for x, v in sol.items() if v != x}
    reduced = tuple(canon(x - v) for x, v in locus.items()) + tuple(rest) + tuple(other)
    return reduced, locus


def _sympy_general(A: sp.Matrix, b: sp.Matrix, unknowns: list[sp.Symbol]) -> _General:
    """:func:`sympy.linsolve` of ``A x = b`` with the function atoms (sin, cos, B0(t), …) frozen as symbols.

    An inconsistent system gives the empty solution and the one condition ``1``; the pivots are not reported.
    """
    atoms: set[sp.Expr] = set()
    for e in [*A, *b]:
        atoms |= set(sp.sympify(e, strict=True).atoms(sp.Function, sp.Derivative))
    rep = {a: sp.Dummy(f"f{j}") for j, a in enumerate(sorted(atoms, key=sp.default_sort_key, reverse=True))}
    back = {d: a for a, d in rep.items()}
    sol = sp.linsolve((A.subs(rep), b.subs(rep)), unknowns)
    if not sol:
        return {}, (), (sp.S.One,), ()
    (vals,) = list(sol)
    out = {x: x if v == x else canon(sp.cancel(v).xreplace(back)) for x, v in zip(unknowns, vals, strict=True)}
    return out, tuple(x for x, v in zip(unknowns, vals, strict=True) if v == x), (), ()
