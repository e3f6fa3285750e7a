"""The linear equations of the invariant-measure ansatz over ``QQ(params)``, kept in the ring and solved exactly.

``X_α(log N) = −c_α`` with ``log N = Σ e_k log P_k + Σ d_m M_m`` gives, per monomial of the q-dependent generators,
one linear equation in the unknowns ``e_k, d_m`` whose coefficients are polynomials in the parameters
(:func:`_linear_rows_field`). There are thousands for a large system and few unknowns: :func:`_rref_solve` solves
the rows independent at a rational point of the parameters and checks every other row exactly in the ring.
"""

from __future__ import annotations

from typing import Any

import sympy as sp
from sympy.polys.domains import QQ
from sympy.polys.matrices import DomainMatrix

from ..algebra import RationalFunctions, UnsupportedExpression, checkpoint, exact_solve, op_count
from ._measure_algebra import _depends

__all__ = ["_linear_rows_field", "_rref_solve"]

#: rows with at most this many operations in all are solved by the reduced echelon form over ``QQ(params)`` (its
#: gcds are cheap on small entries; the fraction-free square solve then cancels large determinants, minutes
#: without FLINT)
SMALL_OPS = 5000


class _Rows:
    """The linear equations ``Σ_k x_k r[k+1] + r[0] = 0`` of the ansatz, each entry a polynomial of ``ctx`` in the
    generators free of q (the parameters): kept in the ring, written as expressions only where needed."""

    def __init__(self, ctx: RationalFunctions, rows: list[list[Any]]) -> None:
        self.ctx = ctx
        self.rows = rows

    def exprs(self, i: int) -> list[sp.Expr]:
        return [self.ctx.to_expr(p) for p in self.rows[i]]

    def at_point(self) -> list[list[Any]]:
        """The rows at a rational point of the parameters (a ring homomorphism to QQ)."""
        vals = [v for _, v in next(self.ctx.generic_points(1))]
        powers: dict[tuple[int, int], Any] = {}

        def value(p: Any) -> Any:  # Σ c Π v_i^e_i, the powers shared (PolyElement.evaluate rebuilds rings)
            total = QQ.zero
            for mon, c in p.items():
                t = c
                for i, e in enumerate(mon):
                    if e:
                        key = (i, e)
                        pw = powers.get(key)
                        if pw is None:
                            pw = powers[key] = vals[i] ** e
                        t *= pw
                total += t
            return total

        return [[value(p) for p in r] for r in self.rows]


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
    the reduced echelon form of ``[A | −b]`` over ``QQ(params)``.

    Solving only the rows independent at a rational point (then checking the others exactly) is in
    :func:`_solve_through_a_point`; it is not used yet: its square solve is fast on a car with a trailer and
    minutes on other systems (a size heuristic was not robust)."""
    if not table.rows:
        return [sp.S.Zero] * n, [[sp.S.One if i == j else sp.S.Zero for i in range(n)] for j in range(n)]
    return _rref_small([[table.ctx.to_expr(p) for p in r] for r in table.rows], n)


def _solve_through_a_point(table: _Rows, n: int) -> tuple[list[sp.Expr], list[list[sp.Expr]]] | None:
    """:func:`_rref_solve` through the rows independent at a rational point of the parameters (at most ``n``),
    every other row then checked exactly, in the ring, against the particular solution and the null space. A row
    that fails on the null space raises the rank (the point was special): it joins the solved rows and the check
    starts again. A row that fails only on the particular solution makes the system inconsistent.
    """
    if not table.rows:
        return [sp.S.Zero] * n, [[sp.S.One if i == j else sp.S.Zero for i in range(n)] for j in range(n)]
    at = table.at_point()
    _, pivots = DomainMatrix([r[1:] for r in at], (len(at), n), QQ).transpose().rref()
    chosen = list(pivots)
    while True:
        checkpoint()
        solved = _rref_solve_small([table.exprs(i) for i in chosen], n, [at[i] for i in chosen])
        if solved is None:
            return None  # a subsystem without solution
        x, null = solved
        xs = _Vector(table.ctx, x)
        zs = [_Vector(table.ctx, z) for z in null]
        bad = next(
            (i for i, r in enumerate(table.rows) if i not in chosen and not _satisfied(r, xs, zs)),
            None,
        )
        if bad is None:
            return x, null
        if all(z.vanishes_on(table.rows[bad], homogeneous=True) for z in zs):
            return None  # the row is a combination of the solved ones on the left, not on the right
        chosen = [*chosen, bad]


class _Vector:
    """A vector of field elements over one denominator (``x_k = n_k / D``), to test rows against it in the ring."""

    def __init__(self, ctx: RationalFunctions, xs: list[sp.Expr]) -> None:
        self.ctx = ctx
        els = [ctx.from_expr(v) for v in xs]
        den = ctx.ring.one
        for e in els:
            den = ctx.lcm(den, e.denom)
        self.den = den
        self.nums = [e.numer * ctx.quotient(den, e.denom) if e.numer else e.numer for e in els]

    def vanishes_on(self, row: list[Any], homogeneous: bool = False) -> bool:
        """True if ``Σ_k x_k r[k+1] (+ r[0])`` vanishes identically (reduced modulo ``sin² + cos² − 1``)."""
        total = self.ctx.ring.zero if homogeneous else row[0] * self.den
        for n_k, r in zip(self.nums, row[1:], strict=True):
            if n_k and r:
                total += n_k * r
        return self.ctx.vanishes(total)


def _satisfied(row: list[Any], x: _Vector, null: list[_Vector]) -> bool:
    """True if every solution ``x + Σ t_j null_j`` of the solved rows satisfies ``row`` (exact)."""
    return x.vanishes_on(row) and all(z.vanishes_on(row, homogeneous=True) for z in null)


def _rref_solve_small(
    rows: list[list[sp.Expr]], n: int, at: list[list[Any]]
) -> tuple[list[sp.Expr], list[list[sp.Expr]]] | None:
    """:func:`_rref_solve` of a few rows (``at``: their values at a rational point of the parameters).

    When the coefficient block has full row rank at the point, the square block of its pivot columns there is
    nonsingular generically: for large entries (over :data:`SMALL_OPS` operations in all) ``A_P [x_P | N] = [−b | −A_F]``
    is solved at once by
    :func:`~frames.algebra.exact_solve` (fraction-free, FLINT when installed) for the particular solution
    (free unknowns 0) and the null space (one free unknown 1); otherwise by the reduced echelon form of
    ``[A | −b]`` over ``QQ(params)``."""
    if not rows:
        return [sp.S.Zero] * n, [[sp.S.One if i == j else sp.S.Zero for i in range(n)] for j in range(n)]
    _, pivots = DomainMatrix([r[1:] for r in at], (len(rows), n), QQ).rref()
    if len(pivots) == len(rows) and sum(op_count(e, SMALL_OPS) for r in rows for e in r) > SMALL_OPS:
        return _square_solve(rows, n, list(pivots))
    return _rref_small(rows, n)


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


def _square_solve(rows: list[list[sp.Expr]], n: int, pivots: list[int]) -> tuple[list[sp.Expr], list[list[sp.Expr]]]:
    """The particular solution and the null space through the square block ``A_P`` (see :func:`_rref_solve_small`)."""
    free = [j for j in range(n) if j not in pivots]
    G = sp.Matrix([[r[1 + p] for p in pivots] for r in rows])
    rhs = sp.Matrix([[-r[0], *(-r[1 + f] for f in free)] for r in rows])
    X, _ = exact_solve(G, rhs)
    x = [sp.S.Zero] * n
    for i, p in enumerate(pivots):
        x[p] = X[i, 0]
    basis = []
    for k, f in enumerate(free):
        z = [sp.S.Zero] * n
        z[f] = sp.S.One
        for i, p in enumerate(pivots):
            z[p] = X[i, 1 + k]
        basis.append(z)
    return x, basis
