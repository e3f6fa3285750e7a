"""The linear equations of the invariant-measure ansatz over ``QQ(params)``, kept in the ring and solved exactly.

``X_α(log N) = −c_α`` with ``log N = Σ e_k log P_k + Σ d_m M_m`` gives, per monomial of the q-dependent generators,
one linear equation in the unknowns ``e_k, d_m`` whose coefficients are polynomials in the parameters
(:func:`_linear_rows_field`, built in the ring: FLINT's lcm and quotients, one ``Add`` per coefficient);
:func:`_rref_solve` solves them by the reduced echelon form over ``QQ(params)``.
"""

from __future__ import annotations

from typing import Any

import sympy as sp
from sympy.polys.matrices import DomainMatrix

from ..algebra import RationalFunctions, UnsupportedExpression, checkpoint
from ._measure_algebra import _depends

__all__ = ["_linear_rows_field", "_rref_solve"]


class _Rows:
    """The linear equations ``Σ_k x_k r[k+1] + r[0] = 0`` of the ansatz, each entry a polynomial of ``ctx`` in the
    generators free of q (the parameters): kept in the ring, written as expressions only where needed."""

    def __init__(self, ctx: RationalFunctions, rows: list[list[Any]]) -> None:
        self.ctx = ctx
        self.rows = rows


def _linear_rows_field(terms: list[list[sp.Expr]], q: tuple[sp.Symbol, ...]) -> _Rows | None:
    """Coefficient rows of ``Σ_k x_k terms[α][k] = 0`` (``terms[α][0]`` is the constant term).

    Every term is put in the field ``QQ(q, sin, cos, params)``; the equation is multiplied by the lcm
    of the denominators and reduced modulo ``sin² + cos² − 1``; the coefficient of each monomial in the
    q-dependent generators (a polynomial in the parameters) gives one linear equation. None if a term
    is not a rational function of symbols, sin/cos and undefined functions.
    """
    try:
        ctx = RationalFunctions([t for row in terms for t in row])
    except UnsupportedExpression:
        return None
    gens = [ctx.to_expr(g) for g in ctx.field.gens]
    var = [i for i, g in enumerate(gens) if _depends(g, q)]
    ngens = ctx.ring.ngens
    out: list[list[Any]] = []
    for row in terms:
        checkpoint()
        els = [ctx.normal(ctx.from_expr(t)) for t in row]
        den = ctx.ring.one
        for x in els:
            den = ctx.lcm(den, x.denom)
        parts: dict[tuple[int, ...], list[dict[tuple[int, ...], Any]]] = {}
        for k, x in enumerate(els):
            if not x:
                continue
            checkpoint()
            num = ctx.reduce(x.numer * ctx.quotient(den, x.denom))
            for monom, coeff in num.terms():
                key = tuple(monom[i] for i in var)
                par = tuple(0 if i in var else monom[i] for i in range(ngens))
                cell = parts.setdefault(key, [{} for _ in row])[k]
                cell[par] = cell.get(par, 0) + coeff
        out += [[ctx.ring.from_dict(cell) for cell in cols] for cols in parts.values()]
    return _Rows(ctx, out)


def _rref_solve(table: _Rows, n: int) -> tuple[list[sp.Expr], list[list[sp.Expr]]] | None:
    """Solve ``Σ_k x_k r[k+1] = −r[0]`` exactly: ``(particular x with free = 0, null-space basis)`` or None, by
    the reduced echelon form of ``[A | −b]`` over ``QQ(params)``."""
    if not table.rows:
        return [sp.S.Zero] * n, [[sp.S.One if i == j else sp.S.Zero for i in range(n)] for j in range(n)]
    ctx = table.ctx
    picked = _independent_rows(table, n)
    if picked is not None and len(picked) < len(table.rows):
        sub = _rref_small([[ctx.to_expr(p) for p in table.rows[i]] for i in picked], n)
        if sub is None:  # some of the equations are inconsistent: so are all of them
            return None
        if _satisfies(table, sub):  # every equation holds for the solution and its null space: exact
            return sub
    return _rref_small([[ctx.to_expr(p) for p in r] for r in table.rows], n)


def _independent_rows(table: _Rows, n: int) -> list[int] | None:
    """Rows of ``[A | −b]`` independent at a rational point of the parameters (a basis of the row space there),
    or None. At a generic point they span the rows over ``QQ(params)``; :func:`_satisfies` checks that exactly."""
    ctx = table.ctx
    # the smallest rows first: the basis picked greedily is then the simplest one (small pivots, small fractions)
    order = sorted(range(len(table.rows)), key=lambda i: sum(len(p) for p in table.rows[i]))
    for point in ctx.generic_points(2):
        vals = [v for _, v in point]
        rows = []
        for i in order:
            checkpoint()
            rows.append([_value(p, vals) for p in table.rows[i]])
        cols = [[rows[i][k] for i in range(len(rows))] for k in [*range(1, n + 1), 0]]
        _, pivots = DomainMatrix(cols, (n + 1, len(rows)), sp.QQ).rref()
        if pivots:
            return sorted(order[j] for j in pivots)
    return None


def _value(p: Any, vals: list[Any]) -> Any:
    """The polynomial ``p`` at the point ``vals`` (a value per generator), term by term."""
    total = 0
    for monom, c in p.terms():
        for v, e in zip(vals, monom, strict=True):
            if e:
                c *= v**e
        total += c
    return total


def _satisfies(table: _Rows, solution: tuple[list[sp.Expr], list[list[sp.Expr]]]) -> bool:
    """True if the particular solution and every null-space vector satisfy every row, exactly (in the ring:
    ``Σ_k r[k+1] N_k (D/D_k) + r[0] D = 0`` over the common denominator ``D``)."""
    ctx = table.ctx
    x, basis = solution
    for vec, affine in [(x, True), *((z, False) for z in basis)]:
        fr_ = [ctx.from_expr(e) for e in vec]
        den = ctx.ring.one
        for f in fr_:
            den = ctx.lcm(den, f.denom)
        nums = [f.numer * ctx.quotient(den, f.denom) for f in fr_]
        for r in table.rows:
            checkpoint()
            total = sum((r[k + 1] * nums[k] for k in range(len(nums)) if r[k + 1] and nums[k]), ctx.ring.zero)
            if affine:
                total += r[0] * den
            if ctx.reduce(total):
                return False
    return True


def _rref_small(rows: list[list[sp.Expr]], n: int) -> tuple[list[sp.Expr], list[list[sp.Expr]]] | None:
    """The reduced echelon form of ``[A | −b]`` over ``QQ(params)``: the particular solution and the null space."""
    M = sp.Matrix([[*r[1:], -r[0]] for r in rows])
    R_, pivots = DomainMatrix.from_Matrix(M).to_field().rref()
    R = R_.to_Matrix()
    if n in pivots:
        return None
    x = [sp.S.Zero] * n
    for i, p in enumerate(pivots):
        x[p] = R[i, n]
    basis = []
    for f in (j for j in range(n) if j not in pivots):
        z = [sp.S.Zero] * n
        z[f] = sp.S.One
        for i, p in enumerate(pivots):
            z[p] = -R[i, f]
        basis.append(z)
    return x, basis
