r"""Structure functions and determinants of derivations, sparse and in a polynomial domain.

The derivations are ``X_i = M_i^j ∂/∂x^j`` (the rows of a square matrix ``M``). Their
structure functions ``C^k_ij`` are defined by ``[X_i, X_j] = C^k_ij X_k``, so
``C^k_ij = Θ^k_l [X_i, X_j]^l`` with ``Θ = (M^T)^{-1}``, and
``[X_i, X_j]^l = X_i(X_j^l) − X_j(X_i^l)``.

Here every entry is an element of sympy's sparse polynomial ring ``QQ[x, sin a, cos a, f(t), …]``
(the generators of :class:`~frames.algebra.RationalFunctions`) or, when an entry has a
denominator, a fraction of two such polynomials, cancelled once at the end. ``sin a`` and
``cos a`` are independent generators, exactly as :func:`sympy.cancel` treats them, so each
result is the expression that :func:`~frames.algebra.canon` gives for the expression-level
computation (no ``sin² + cos² = 1``). Only non-zero entries are touched: a bracket component
takes the derivatives along the non-zero components of the frame only, and ``Θ [X_i, X_j]`` is
a sparse dot product. Expressions are built once, at the end.

Entries outside that class (floats, radicals, ``exp``, an undefined function of a coordinate,
…) make these functions return ``None``; the callers then use the expression-level code.
:func:`determinant` also takes exponentials (generators ``exp(r/d)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from typing import Any

import sympy as sp
from sympy.polys.domains import QQ

from ._budget import checkpoint
from ._flint import flint_product
from ._normal import canon, canon_generator_form
from ._poly import bareiss, cancel, lcm
from ._ratfunc import PolyFraction, RationalFunctions, UnsupportedExpression

__all__ = ["determinant", "structure_functions"]


class _Elements:
    """Conversion between expressions and one polynomial ring (elements, or :class:`PolyFraction` fractions)."""

    def __init__(self, exprs: Sequence[sp.Expr]) -> None:
        self.ctx = RationalFunctions(exprs)  # raises UnsupportedExpression outside the class
        ring = self.ctx.ring
        self.ring = ring
        self.zero, self.one = ring.zero, ring.one
        self.gen_exprs = [self.ctx.to_expr(g) for g in ring.gens]
        self.rep = {e: s for e, s in zip(self.gen_exprs, ring.symbols, strict=True) if e != s}
        self.back = {s: e for e, s in self.rep.items()}
        # the generator order of sympy.cancel (that of Poly), for the sign of a denominator
        where = {e: k for k, e in enumerate(self.gen_exprs)}
        order = sp.Poly(sp.Add(*self.gen_exprs)).gens
        if sorted(map(str, order)) != sorted(map(str, self.gen_exprs)) or not set(order) <= set(where):
            raise UnsupportedExpression(f"generators {self.gen_exprs} are not the generators of a Poly")
        self.cancel_order = [where[g] for g in order]

    def poly(self, e: sp.Expr) -> Any:
        """``e`` in the polynomial ring; ``ValueError`` if it is not a polynomial in the generators."""
        if e == 0:
            return self.zero
        return self.ring.from_expr(e.xreplace(self.rep))

    def frac(self, e: sp.Expr) -> PolyFraction:
        """``e`` as a fraction; ``ValueError`` if it is not rational in the generators."""
        if e == 0:
            return PolyFraction(self.zero, self.one)
        num, den = sp.fraction(e)
        try:
            return PolyFraction(self.poly(num), self.poly(den))
        except ValueError:
            f = self.ctx.fractions.from_expr(e.xreplace(self.rep))
            return PolyFraction(f.numer, f.denom)

    def _expr(self, p: Any) -> sp.Expr:
        e = p.as_expr()
        return e.xreplace(self.back) if self.back else e

    def expr(self, f: Any) -> sp.Expr:
        """The canonical expression of a polynomial or a :class:`PolyFraction`.

        The same expression as :func:`~frames.algebra.canon` of any expression of that value:
        a polynomial is expanded; a fraction is ``P/Q`` as :func:`sympy.cancel` writes it (``P``,
        ``Q`` coprime with integer coefficients, the leading coefficient of ``Q`` positive in
        ``cancel``'s order of the generators).
        """
        if not isinstance(f, PolyFraction):
            return self._expr(f)
        p, q = cancel(f.num, f.den)
        if q.is_ground:
            return self._expr(p.quo_ground(q.LC))
        cp, p = p.clear_denoms()
        cq, q = q.clear_denoms()
        p, q = p.mul_ground(cq), q.mul_ground(cp)
        g = reduce(QQ.gcd, list(p.values()) + list(q.values()))
        p, q = p.quo_ground(g), q.quo_ground(g)
        lead = max(q.terms(), key=lambda t: tuple(t[0][k] for k in self.cancel_order))[1]
        if lead < 0:
            p, q = -p, -q
        return self._expr(p) / self._expr(q)


def _convert(el: _Elements, rows: Sequence[Sequence[sp.Expr]]) -> tuple[list[list[Any]], bool] | None:
    """All entries as polynomials if they are, else as fractions; None if unsupported."""
    try:
        return [[el.poly(x) for x in row] for row in rows], True
    except ValueError:
        pass
    try:
        return [[el.frac(x) for x in row] for row in rows], False
    except ValueError:
        return None


def _derivation_table(
    el: _Elements, coords: Sequence[sp.Symbol], polynomial: bool
) -> list[list[tuple[int, Any]]] | None:
    """For each coordinate ``x^m`` the pairs ``(g, ∂g/∂x^m)`` over the generators ``g`` that depend on it.

    ``∂(sin a)/∂x = cos a · ∂a/∂x`` and the like are converted back into the domain; None if a
    derivative leaves it (``f(x)``, ``sin(exp x)``) or, for ``polynomial``, is not a polynomial.
    """
    conv = el.poly if polynomial else el.frac
    table: list[list[tuple[int, Any]]] = []
    for x in coords:
        row = []
        for g, e in enumerate(el.gen_exprs):
            if x not in e.free_symbols:
                continue
            try:
                row.append((g, conv(sp.diff(e, x))))
            except ValueError:
                return None
        table.append(row)
    return table


def _generators_in(f: Any) -> set[int]:
    """Indices of the generators that occur in a polynomial or a :class:`PolyFraction`."""
    polys = [f.num, f.den] if isinstance(f, PolyFraction) else [f]
    return {g for p in polys for monom in p.itermonoms() for g, k in enumerate(monom) if k}


def _sum(terms: list[Any], zero: Any) -> Any:
    return sum(terms[1:], terms[0]) if terms else zero


def structure_functions(
    rows: sp.MatrixBase, coords: Sequence[sp.Symbol], inverse: sp.MatrixBase
) -> dict[tuple[int, int, int], sp.Expr] | None:
    r"""Non-zero structure functions ``C^k_ij`` (``i < j``) of the derivations ``X_i = M_i^j ∂/∂x^j``.

    Parameters
    ----------
    rows : Matrix
        The ``n×n`` matrix ``M`` whose rows are the components of the ``X_i``; entries are
        functions of ``coords`` (and of other symbols, which are constants here).
    coords : sequence of Symbol
        The ``n`` coordinates ``x^j``.
    inverse : Matrix
        ``Θ = (M^T)^{-1}`` (rows ``θ^k``, ``θ^k(X_j) = δ^k_j``), as the caller has it.

    Returns
    -------
    dict or None
        ``(k, i, j) -> C^k_ij`` for ``i < j`` and ``C^k_ij ≠ 0``, each the expression that
        :func:`~frames.algebra.canon` gives for the expression-level product ``Θ [X_i, X_j]``;
        ``None`` when an entry is outside the rational functions of symbols, ``sin``/``cos``
        and undefined functions of non-coordinates.

    Examples
    --------
    >>> import sympy as sp
    >>> x, y, z = sp.symbols("x y z")
    >>> M = sp.Matrix([[1, 0, 0], [0, 1, -x], [0, 0, 1]])
    >>> structure_functions(M, (x, y, z), M.T.inv())
    {(2, 0, 1): -1}
    """
    n = rows.rows
    M = [list(rows.row(i)) for i in range(n)]
    Th = [list(inverse.row(i)) for i in range(n)]
    entries = [x for r in M + Th for x in r]
    symbols = set(coords).union(*(x.free_symbols for x in entries))  # those inside sin(…) too, for ∂
    try:
        el = _Elements(entries + sorted(symbols, key=sp.default_sort_key))
    except UnsupportedExpression:
        return None
    converted = _convert(el, M + Th)
    if converted is None:
        return None
    elems, polynomial = converted
    table = _derivation_table(el, coords, polynomial)
    if table is None and polynomial:  # e.g. ∂ sin(1/x) / ∂x: go over to fractions
        elems, polynomial = [[PolyFraction(x, el.one) for x in r] for r in elems], False
        table = _derivation_table(el, coords, polynomial)
    if table is None:
        return None
    X, T = elems[:n], elems[n:]
    zero = el.zero if polynomial else PolyFraction(el.zero, el.one)

    # dX[j][l] = {m: ∂X_j^l/∂x^m ≠ 0}, the chain rule through the generators the entry contains
    dX: list[list[dict[int, Any]]] = []
    for j in range(n):
        checkpoint()
        row = []
        for f in X[j]:
            d: dict[int, Any] = {}
            if f:
                occurs = _generators_in(f)
                for m, pairs in enumerate(table):
                    if s := _sum([f.diff(g) * dg for g, dg in pairs if g in occurs], zero):
                        d[m] = s
            row.append(d)
        dX.append(row)
    support = [[(m, f) for m, f in enumerate(X[i]) if f] for i in range(n)]
    theta = [[(l, t) for l, t in enumerate(T[k]) if t] for k in range(n)]

    def along(i: int, j: int, l: int) -> Any:
        """``X_i(X_j^l)``: derivatives along the non-zero components of ``X_i`` only."""
        d = dX[j][l]
        return _sum([f * d[m] for m, f in support[i] if m in d], zero)

    out: dict[tuple[int, int, int], sp.Expr] = {}
    for i in range(n):
        checkpoint()
        for j in range(i + 1, n):
            B = {l: b for l in range(n) if (b := along(i, j, l) - along(j, i, l))}
            if not B:
                continue
            for k in range(n):
                if r := _sum([t * B[l] for l, t in theta[k] if l in B], zero):
                    out[k, i, j] = el.expr(r)
    return out


def determinant(M: sp.MatrixBase) -> sp.Expr | None:
    r"""Determinant of a square matrix of rational functions, in canonical form.

    Computed fraction-free over sympy's polynomial ring (Bareiss elimination with the budget's checkpoint
    before every entry update, :func:`~frames.algebra._poly.bareiss`: ``DomainMatrix.det``'s value; rows with
    denominators are first multiplied by them); ``sin a`` and ``cos a`` are independent
    generators, so the result is :func:`~frames.algebra.canon` of the expression-level
    determinant (no ``sin² + cos² = 1``: a zero test must still use
    :func:`~frames.algebra.is_zero`).

    Parameters
    ----------
    M : Matrix
        A square matrix.

    Returns
    -------
    Expr or None
        ``canon(det M)``; ``None`` when an entry has a float (the caller then uses an expression-level method).
        Radicals and other functions the ring cannot represent are independent generators.

    Examples
    --------
    >>> import sympy as sp
    >>> x, y = sp.symbols("x y")
    >>> determinant(sp.Matrix([[x, y], [1, x]]))
    x**2 - y
    >>> determinant(sp.Matrix([[1 / x, 0], [0, 2]]))
    2/x
    """
    n = M.rows
    rows = [list(M.row(i)) for i in range(n)]
    try:
        el = _Elements([x for r in rows for x in r])
    except UnsupportedExpression:
        return _exp_determinant(rows)
    converted = _convert(el, rows)
    if converted is None:
        return None
    elems, polynomial = converted
    scale = el.one
    if not polynomial:
        elems, scale = _cleared([[(f.num, f.den) for f in row] for row in elems], el.one)
    det = bareiss(elems, one=el.one, jordan=False)[1]  # Bareiss, checkpointed (DomainMatrix.det's value)
    return el.expr(det if polynomial else PolyFraction(det, scale))


def _exp_determinant(rows: list[list[sp.Expr]]) -> sp.Expr | None:
    """:func:`determinant` of entries with exponentials (generators ``exp(r/d)``, see
    :class:`~frames.algebra.RationalFunctions`), or None outside that field: fraction-free over the polynomial
    ring, each row multiplied by the lcm of its denominators, the quotient cancelled once and given
    :func:`~frames.algebra.canon`'s form."""
    try:
        ctx = RationalFunctions([x for r in rows for x in r], exp=True, pythagoras=False)
    except UnsupportedExpression:
        return _generic_determinant(rows)
    fracs = [[ctx.from_expr(x) for x in row] for row in rows]
    polys, scale = _cleared([[(f.numer, f.denom) for f in row] for row in fracs], ctx.ring.one)
    det = bareiss(polys, one=ctx.ring.one, jordan=False)[1]  # Bareiss, checkpointed (DomainMatrix.det's value)
    return canon(ctx.to_expr(ctx.normal(ctx.fractions.raw_new(ctx.ring(det), scale))))


def _generic_determinant(rows: list[list[sp.Expr]]) -> sp.Expr | None:
    """:func:`determinant` of entries outside the ring (radicals, ``log`` …): each sub-expression the ring
    cannot represent is an independent generator (:func:`~frames.algebra._normal.canon_generator_form`), put back in the
    determinant of the generic matrix (an identity of independent generators holds for what they stand for)."""
    memo: dict[sp.Expr, sp.Expr] = {}
    generic = [[canon_generator_form(x, memo) for x in row] for row in rows]
    if not memo:
        return None
    det = determinant(sp.Matrix(generic))
    return None if det is None else det.xreplace({d: sub for sub, d in memo.items()})


def _cleared(rows: list[list[tuple[Any, Any]]], one: Any) -> tuple[list[list[Any]], Any]:
    """Rows of ``(numerator, denominator)`` pairs, each row multiplied by the lcm of its denominators, and the
    product of those lcms (``det`` of the rows over it is the determinant of the fractions)."""
    scale = one
    polys = []
    for row in rows:
        checkpoint()
        m = reduce(lcm, [d for _, d in row], one)
        polys.append([flint_product(num, RationalFunctions.quotient(m, d)) for num, d in row])
        scale = flint_product(scale, m)
    return polys, scale
