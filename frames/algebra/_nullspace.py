r"""SymPy's null space basis in canonical form, and SymPy's lcm: the same results, computed in the ring.

``Matrix(M).nullspace(iszerofunc=is_zero, simplify=False)`` (without ``dotprodsimp``) eliminates fraction-free
(``row ← p·row − v·pivot row``) and divides by the pivots only at the end: its entries are trees whose values,
multiplied out, are products of pivots times the Schur complements, polynomials that double in degree at every
step. :func:`canon` of them (the default basis of a distribution, :mod:`frames.geometry._distribution`) expanded
those: 35 s for a car with six trailers, where the cancelled entries hold about 1,300 operations.

:func:`canonical_nullspace` returns ``[canon(x) for x in b]`` of that basis, term for term, without expanding a tree:

* the elimination is mirrored step by step: the same pivot search (the first entry from the pivot row down that
  is not zero), the same rows skipped (a zero entry in the pivot column), the same trees built; next to each tree
  row its value in ``QQ[x, sin a, cos a, …]`` (``sin a``, ``cos a`` independent, the field of
  :func:`sympy.cancel`), up to a nonzero factor per row (the products of pivots, and the gcds of the row's
  entries divided out; each factor proved nonzero modulo ``sin² + cos² − 1``). The zero tests are made on the
  values, exactly (:func:`is_zero`, whose answer depends on the function only): they are the tree's;
* an entry of the reduced form is the ratio of two values of one row (the factor cancels); the basis entries'
  :func:`canon` is computed by :func:`canon_of_value` from the tree (every decision of ``canon``) and that ratio.

:func:`lcm_as_sympy` is ``sympy.lcm`` of the denominators (which clears them from the basis), its gcds by FLINT.

:func:`canonical_nullspace` returns None outside the case it covers, and the caller takes SymPy's path: numeric matrices (SymPy uses its
``DomainMatrix`` there), entries outside the ring or with exponentials or ``tan``-like functions, and an entry
of the basis read left of its row's pivot that is not zero (its factor is not tracked).
"""

from __future__ import annotations

import math
from typing import Any

import sympy as sp
from sympy.polys.polytools import parallel_poly_from_expr

from ._budget import checkpoint
from ._flint import _module as _flint_module
from ._flint import enabled as _flint_enabled
from ._flint import flint_gcd
from ._normal import canon_of_value, is_zero, op_count
from ._poly import cancel, lcm, poly_expr, product
from ._ratfunc import RationalFunctions, UnsupportedExpression

__all__ = ["canonical_nullspace", "lcm_as_sympy"]

#: :func:`lcm_as_sympy` leaves polynomials of at most this many operations in all to ``sympy.lcm`` (milliseconds)
SYMPY_LCM_OPS = 1000


class _Outside(Exception):
    """The matrix is outside the mirrored case: the caller takes SymPy's path."""


class _Values:
    """The values of the entries: polynomials of the field of :func:`sympy.cancel` (independent ``sin a``,
    ``cos a``), their exact zero test modulo ``sin² + cos² − 1``."""

    def __init__(self, entries: list[sp.Expr]) -> None:
        self.ctx = RationalFunctions(entries, pythagoras=False, exp=False)
        if self.ctx.has_exponentials or any(e.has(sp.tan, sp.cot, sp.sec, sp.csc) for e in entries):
            raise _Outside
        self.ring = self.ctx.ring

    def expr(self, p: Any) -> sp.Expr:
        return poly_expr(p, self.ctx.atoms)

    def vanishes(self, p: Any) -> bool:
        """True iff the polynomial ``p`` is zero as a function (modulo the Pythagorean identities)."""
        if not p:
            return True
        if p.is_ground:
            return False
        return is_zero(self.expr(p))

    def row(self, entries: list[sp.Expr]) -> list[Any]:
        """The row's values over the lcm of their denominators (a nonzero factor)."""
        fracs = [self.ctx.from_expr(e) for e in entries]
        den = self.ring.one
        for f in fracs:
            den = lcm(den, f.denom)
        if not den.is_ground and self.vanishes(den):
            raise _Outside
        return self.primitive([product(f.numer, _quotient(den, f.denom)) for f in fracs])

    def primitive(self, row: list[Any]) -> list[Any]:
        """``row`` divided by the gcd of its entries, when that gcd is not zero as a function."""
        g = self.ring.zero
        for p in row:
            if p:
                g = p if not g else _gcd(g, p)
                if g.is_ground:
                    return row
        if not g or self.vanishes(g):
            return row
        return [_quotient(p, g) if p else p for p in row]


def _gcd(a: Any, b: Any) -> Any:
    g = flint_gcd(a, b)
    return a.gcd(b) if g is None else g


def _quotient(p: Any, f: Any) -> Any:
    if f.is_ground:
        return p.quo_ground(f.LC)
    return RationalFunctions.quotient(p, f)


def canonical_nullspace(M: sp.MatrixBase) -> list[list[sp.Expr]] | None:
    """``[[canon(x) for x in b] for b in Matrix(M).nullspace(iszerofunc=is_zero, simplify=False)]`` (SymPy's
    elimination without ``dotprodsimp``), term for term, or None outside the mirrored case (see the module).

    Parameters
    ----------
    M : Matrix
        A symbolic matrix.

    Returns
    -------
    list of list of Expr, or None
        The basis vectors' entries in :func:`canon`'s form.

    Examples
    --------
    >>> import sympy as sp
    >>> th, d = sp.symbols("theta d")
    >>> canonical_nullspace(sp.Matrix([[-sp.sin(th), sp.cos(th), 0], [0, 0, d]]))
    [[cos(theta)/sin(theta), 1, 0]]
    """
    rows, cols = M.shape
    flat = list(M)
    if not flat or all(e.is_Rational for e in flat):
        return None  # sympy row-reduces over ZZ or QQ there
    try:
        values = _Values(flat)
        return _mirror(values, flat, rows, cols)
    except (_Outside, UnsupportedExpression):
        return None


def _mirror(values: _Values, flat: list[sp.Expr], rows: int, cols: int) -> list[list[sp.Expr]]:
    """sympy's ``_row_reduce_list`` (``normalize_last=True``) and ``_nullspace`` on trees, the values beside."""
    mat = list(flat)  # the trees, as sympy builds them
    val = [values.row(flat[i * cols : (i + 1) * cols]) for i in range(rows)]  # the rows' values, up to a factor
    piv_row, piv_col = 0, 0
    pivot_cols: list[int] = []
    while piv_col < cols and piv_row < rows:
        checkpoint()
        offset = next((i for i in range(piv_row, rows) if not values.vanishes(val[i][piv_col])), None)
        if offset is None:
            piv_col += 1
            continue
        pivot_cols.append(piv_col)
        if offset != piv_row:
            mat[piv_row * cols : (piv_row + 1) * cols], mat[offset * cols : (offset + 1) * cols] = (
                mat[offset * cols : (offset + 1) * cols],
                mat[piv_row * cols : (piv_row + 1) * cols],
            )
            val[piv_row], val[offset] = val[offset], val[piv_row]
        pivot = mat[piv_row * cols + piv_col]
        for row in range(rows):
            if row == piv_row:
                continue
            v = mat[row * cols + piv_col]
            if values.vanishes(val[row][piv_col]):
                continue
            q = (piv_row - row) * cols
            for p in range(row * cols, (row + 1) * cols):
                mat[p] = pivot * mat[p] - v * mat[p + q]
            val[row] = _combined(values, val[piv_row], val[row], piv_col)
        piv_row += 1
    # the normalisation: pivot 1, the entries right of it divided by the pivot (values: ratios in the row)
    ratio: dict[tuple[int, int], tuple[Any, Any]] = {}
    for i, j in enumerate(pivot_cols):
        pivot = mat[i * cols + j]
        mat[i * cols + j] = sp.S.One
        for p in range(j + 1, cols):
            mat[i * cols + p] = mat[i * cols + p] / pivot
            ratio[i, p] = (val[i][p], val[i][j])
    basis = []
    for free in (c for c in range(cols) if c not in pivot_cols):
        vec: list[sp.Expr] = [sp.S.Zero] * cols
        vec[free] = sp.S.One
        out: list[sp.Expr] = [sp.S.Zero] * cols
        out[free] = sp.S.One
        for i, j in enumerate(pivot_cols):
            vec[j] -= mat[i * cols + free]
            if (i, free) in ratio:
                num, den = ratio[i, free]
            elif not val[i][free]:
                num, den = val[i][free], values.ring.one  # zero: its factor does not matter
            else:
                raise _Outside  # read left of the pivot: a value known only up to the row's factor
            if num:
                num, den = cancel(num, den)  # the function's own generators only (the tree's)
            out[j] = canon_of_value(vec[j], -values.expr(num) / values.expr(den))
        basis.append(out)
    return basis


def _combined(values: _Values, pivot_row: list[Any], row: list[Any], col: int) -> list[Any]:
    """The value of ``pivot·row − v·pivot_row`` (``v`` the row's entry in the pivot column), up to a factor."""
    a, b = pivot_row[col], row[col]
    g = _gcd(a, b)
    if not g.is_ground:  # g divides the pivot, which is not zero
        a, b = _quotient(a, g), _quotient(b, g)
    return values.primitive([product(a, r) - product(b, s) for r, s in zip(row, pivot_row, strict=True)])


def lcm_as_sympy(exprs: list[sp.Expr]) -> sp.Expr:
    """``sympy.lcm(exprs)``, the same polynomial: the gcds by FLINT (when installed) instead of SymPy's dense ones.

    SymPy folds ``lcm(f, g) = lcm(cont f, cont g) · f̃ g̃ / gcd(f̃, g̃)`` (``f̃``, ``g̃`` the primitive parts, signs
    kept) with its heuristic gcd, primitive with a positive leading coefficient in the lexicographic order of its
    generators (sorted as SymPy sorts them) when its interpolated candidate divides both (the case met on every
    system tested; a gcd recovered from a cofactor carries the cofactor's sign); FLINT's gcd is normalised so, in
    the same order. The products and quotients of the dense representation in 17 generators (a car with seven
    trailers) took 11 s, 0.1 s here. Small polynomials (:data:`SYMPY_LCM_OPS`), numbers, one generator,
    coefficients outside the integers, or no FLINT: ``sympy.lcm`` itself.

    Examples
    --------
    >>> import sympy as sp
    >>> x, y = sp.symbols("x y")
    >>> lcm_as_sympy([-2 * x - 2 * y, 3 * x * y + 3 * y**2]) == sp.lcm([-2 * x - 2 * y, 3 * x * y + 3 * y**2])
    True
    """
    if not _flint_enabled() or all(e.is_number for e in exprs) or _ops(exprs) <= SYMPY_LCM_OPS:
        return sp.lcm(exprs)
    polys, opt = parallel_poly_from_expr(exprs)
    if len(opt.gens) < 2 or not opt.domain.is_ZZ:
        return sp.lcm(exprs)
    flint = _flint_module()
    ctx = flint.fmpz_mpoly_ctx.get(tuple(f"x{i}" for i in range(len(opt.gens))), "lex")

    def primitive(p: Any) -> tuple[int, Any]:
        f = ctx.from_dict({m: int(c) for m, c in p.as_dict(native=True).items()})
        c = abs(int(f.content()))
        return c, (f if c in (0, 1) else f / c)  # the content is positive: the sign stays with f

    c, result = primitive(polys[0])
    for p in polys[1:]:
        checkpoint()
        gc, g = primitive(p)
        if c == 0 or gc == 0:
            c, result = 0, ctx.from_dict({})
            continue
        if result.is_one():
            result = g
        elif not g.is_one():
            h = result.gcd(g)  # primitive, with a positive leading coefficient
            result = result * g if h.is_one() else result * (g / h)
        c = math.lcm(c, gc)
    out = {m: int(a) * c for m, a in result.to_dict().items()}
    return sp.Poly.from_dict(out, *opt.gens, domain=opt.domain).as_expr()  # type: ignore[no-any-return]


def _ops(exprs: list[sp.Expr]) -> int:
    n = 0
    for e in exprs:
        n += op_count(e, SYMPY_LCM_OPS + 1)
        if n > SYMPY_LCM_OPS:
            break
    return n
