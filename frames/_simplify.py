"""Deliberate simplification policy.

The library never calls :func:`sympy.simplify` in a loop. Intermediate
results are put in a canonical rational form with :func:`sympy.cancel`, which
treats transcendental sub-expressions such as ``sin(theta)`` as generators.
Trigonometric identities are applied once, on final results only
(:func:`tidy`). Zero tests try the cheap canonical form first and fall back to
a trigonometric simplification only when the cheap test is inconclusive.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.polys.domains import QQ
from sympy.polys.fields import field as _rational_field
from sympy.polys.matrices import DomainMatrix
from sympy.polys.matrices.exceptions import DMNonInvertibleMatrixError
from sympy.polys.orderings import lex

__all__ = [
    "canon",
    "canon_matrix",
    "entries",
    "exact_inverse",
    "exact_solve",
    "RationalFunctions",
    "is_zero",
    "tidy",
    "tidy_matrix",
    "trig_normal",
]


def canon(expr: object) -> sp.Expr:
    """Canonical rational form of ``expr`` (``cancel`` of the expression)."""
    e = sp.sympify(expr)
    if isinstance(e, sp.NDimArray | sp.MatrixBase):
        raise TypeError(f"canon: expected a scalar expression, got the array {e!r}")
    if e.is_Atom:
        return e
    if isinstance(e, sp.Derivative) or isinstance(e, sp.core.function.AppliedUndef):
        return e
    if not _has_denominator(e):
        # a polynomial in its generators: expansion is its canonical form (as cancel's numerator)
        return sp.expand(e)
    return sp.cancel(e)


class UnsupportedExpression(ValueError):
    """An expression outside the class handled by :class:`RationalFunctions` (internal)."""


class RationalFunctions:
    r"""Exact arithmetic on rational functions with the Pythagorean identities.

    The generators are the symbols of the expressions, undefined functions and their
    derivatives (``B0(t)``, ``B0'(t)``: algebraically independent), and for each
    argument ``a`` of a ``sin`` or ``cos`` a pair of generators ``s_a, c_a``. Elements
    live in ``QQ(s_a, c_a, …)`` (lexicographic, each ``s_a`` first); a polynomial is
    reduced modulo the ideal ``(s_a² + c_a² − 1)``, for which these generators form a
    Gröbner basis (the leading monomials ``s_a²`` are pairwise coprime), so the
    reduced numerator of a rational function is zero iff the function vanishes
    identically on the circle(s). Multiple-angle identities are not used: ``sin 2a``
    is a generator of its own, as in :func:`trig_normal`.

    Raises :class:`UnsupportedExpression` for floats, radicals, ``exp``, ``tan`` and
    any other function, for which the expression-level fallbacks are used.
    """

    def __init__(self, exprs: Sequence[Any]) -> None:
        es = [sp.sympify(e) for e in exprs]
        args = sorted({f.args[0] for e in es for f in e.atoms(sp.sin, sp.cos)}, key=sp.default_sort_key)
        rep: dict[sp.Expr, sp.Symbol] = {}
        pairs: list[tuple[sp.Symbol, sp.Symbol]] = []
        for a in args:
            s_a, c_a = sp.Dummy("s"), sp.Dummy("c")
            rep[sp.sin(a)] = s_a
            rep[sp.cos(a)] = c_a
            pairs.append((s_a, c_a))
        funcs: set[sp.Expr] = set()
        syms: set[sp.Symbol] = set()
        for e in es:
            _collect_generators(e, rep, funcs, syms)
        others: list[sp.Symbol] = []
        for f in sorted(funcs, key=sp.default_sort_key):
            d = sp.Dummy("f")
            rep[f] = d
            others.append(d)
        gens = [g for pair in pairs for g in pair] + others + sorted(syms, key=sp.default_sort_key)
        self._rep = rep
        self._back = {v: k for k, v in rep.items()}
        if gens:
            self.field, *_ = _rational_field(gens, QQ, lex)
        else:
            self.field, *_ = _rational_field([sp.Dummy("one")], QQ, lex)
        self.ring = self.field.ring
        self.domain = self.field.to_domain()
        self._ideal = [self.ring(s_a) ** 2 + self.ring(c_a) ** 2 - 1 for s_a, c_a in pairs]

    def from_expr(self, e: Any) -> Any:
        """The field element of ``e`` (an expression over this object's generators)."""
        return self.field.from_expr(sp.sympify(e).xreplace(self._rep))

    def to_expr(self, f: Any) -> sp.Expr:
        """Back to a sympy expression ``numerator/denominator``."""
        return sp.sympify(self.domain.to_sympy(f)).xreplace(self._back)

    def reduce(self, p: Any) -> Any:
        """Normal form of the polynomial ``p`` modulo ``sin² + cos² − 1`` (each pair)."""
        return p.rem(self._ideal) if self._ideal else p

    def normal(self, f: Any) -> Any:
        """Reduce numerator and denominator, then cancel their gcd."""
        num, den = self.reduce(f.numer), self.reduce(f.denom)
        if not den:
            raise ZeroDivisionError("denominator vanishes identically (sin² + cos² = 1)")
        num, den = num.cancel(den)
        return self.field.new(num, den)

    def solve(self, G: sp.MatrixBase, b: sp.MatrixBase) -> tuple[sp.ImmutableMatrix, sp.Expr]:
        """Solve ``G x = b``: constant-pivot elimination if possible, else fraction-free.

        Fraction-free: each row of ``[G | b]`` is multiplied by the lcm of its denominators, the
        polynomial system is solved with ``DomainMatrix.solve_den`` (``G x_num = x_den b``),
        and ``x = x_num / x_den`` is reduced and cancelled entry by entry.
        """
        n = G.rows
        k = b.cols
        elems = [[self.from_expr(x) for x in list(G.row(i)) + list(b.row(i))] for i in range(n)]
        quick = self._constant_pivot_elimination(elems, n)
        if quick is not None:
            return quick
        rows = []
        scale = self.field.one
        for i in range(n):
            row = elems[i]
            m = self.ring.one
            for x in row:
                m = m.lcm(x.denom)
            rows.append([x.numer * m.exquo(x.denom) for x in row])
            scale = scale * m
        R = self.ring.to_domain()
        A = DomainMatrix([r[:n] for r in rows], (n, n), R)
        B = DomainMatrix([r[n:] for r in rows], (n, k), R)
        try:
            xnum, xden = A.solve_den(B, method="rref")
        except DMNonInvertibleMatrixError:
            raise ZeroDivisionError("exact_solve: singular matrix") from None
        den = self.reduce(xden)
        if not den:
            raise ZeroDivisionError("exact_solve: singular matrix (its determinant vanishes by sin² + cos² = 1)")
        x = [
            [self.to_expr(self.field.new(*self.reduce(xnum[i, j].element).cancel(den))) for j in range(k)]
            for i in range(n)
        ]
        det = self.to_expr(self.normal(self.field.new(A.det(), self.ring.one) / scale))
        return sp.ImmutableMatrix(x), det

    def _constant_pivot_elimination(self, elems: list[list[Any]], n: int) -> tuple[sp.ImmutableMatrix, sp.Expr] | None:
        """Gauss–Jordan in the field while a nonzero constant pivot exists in every column.

        Frames are typically a permutation times a unipotent matrix: every pivot is a number,
        the entries stay polynomial and this is much cheaper than the fraction-free solve.
        Returns None as soon as a column has no constant pivot (the caller then solves
        fraction-free from the start).
        """
        aug = [list(r) for r in elems]
        det = self.field.one
        for c in range(n):
            r = next(
                (r for r in range(c, n) if aug[r][c] and aug[r][c].numer.is_ground and aug[r][c].denom.is_ground), None
            )
            if r is None:
                return None
            if r != c:
                aug[c], aug[r] = aug[r], aug[c]
                det = -det
            piv = aug[c][c]
            det = det * piv
            if piv != 1:
                inv = 1 / piv
                aug[c] = [x * inv if x else x for x in aug[c]]
            row_c = aug[c]
            for r2 in range(n):
                f = aug[r2][c]
                if r2 != c and f:
                    aug[r2] = [x - f * y if y else x for x, y in zip(aug[r2], row_c, strict=True)]
        x = sp.ImmutableMatrix([[self.to_expr(self.normal(e)) for e in row[n:]] for row in aug])
        return x, self.to_expr(det)


def _collect_generators(e: sp.Expr, rep: dict[sp.Expr, sp.Symbol], funcs: set[sp.Expr], syms: set[sp.Symbol]) -> None:
    """Check that ``e`` is rational in symbols, sin/cos (already in ``rep``) and undefined functions."""
    if e in rep:
        return
    if e.is_Symbol:
        syms.add(e)
        return
    if e.is_Rational:
        return
    if isinstance(e, AppliedUndef) or (isinstance(e, sp.Derivative) and isinstance(e.expr, AppliedUndef)):
        funcs.add(e)
        return
    if isinstance(e, sp.Add | sp.Mul):
        for a in e.args:
            _collect_generators(a, rep, funcs, syms)
        return
    if isinstance(e, sp.Pow) and e.exp.is_Integer:
        _collect_generators(e.base, rep, funcs, syms)
        return
    raise UnsupportedExpression(f"not a rational function of symbols, sin/cos and undefined functions: {e}")


def _has_denominator(e: sp.Expr) -> bool:
    return any(p.exp.is_negative or not p.exp.is_number for p in e.atoms(sp.Pow))


def _trig_args(e: sp.Expr) -> list[sp.Expr]:
    return sorted({f.args[0] for f in e.atoms(sp.sin, sp.cos)}, key=sp.default_sort_key)


def _reduce_pythagoras(p: sp.Expr, args: list[sp.Expr]) -> sp.Expr:
    """Reduce a polynomial in sin(a), cos(a) modulo sin(a)² + cos(a)² − 1.

    Every power ``sin(a)^k`` with ``k ≥ 2`` is rewritten with ``1 − cos(a)²``;
    the result is at most linear in each ``sin(a)``, a normal form for the ideal.
    """
    gens = [g for a in args for g in (sp.sin(a), sp.cos(a))]
    poly = sp.Poly(sp.expand(p), *gens)
    out = sp.S.Zero
    for monom, coeff in poly.terms():
        term = coeff
        for idx, a in enumerate(args):
            ks, kc = monom[2 * idx], monom[2 * idx + 1]
            term *= sp.sin(a) ** (ks % 2) * sp.cos(a) ** kc * (1 - sp.cos(a) ** 2) ** (ks // 2)
        out += term
    return sp.expand(out)


def trig_normal(expr: object) -> sp.Expr:
    """Rational normal form with ``sin² + cos² = 1`` applied to numerator and denominator.

    Cheap and exact: a rational expression in ``sin(a)``, ``cos(a)`` vanishes
    identically iff the reduced numerator is zero (same-argument identities;
    multiple-angle identities are not used).
    """
    e = canon(expr)
    if e.is_Atom or not e.has(sp.sin, sp.cos):
        return e
    try:
        ctx = RationalFunctions([e])
    except UnsupportedExpression:
        pass
    else:
        return ctx.to_expr(ctx.normal(ctx.from_expr(e)))
    args = _trig_args(e)
    num, den = sp.fraction(sp.together(e))
    try:
        num = _reduce_pythagoras(num, args)
        den = _reduce_pythagoras(den, args)
    except sp.PolynomialError:
        return e
    return sp.cancel(num / den)


def tidy(expr: object) -> sp.Expr:
    """Final-result simplification: ``cancel`` plus the Pythagorean identity when trig is present."""
    e = canon(expr)
    if not e.is_Atom and e.has(sp.sin, sp.cos):
        t = trig_normal(e)
        if sp.count_ops(t) <= sp.count_ops(e):
            e = t
    return e


def is_zero(expr: object) -> bool:
    """Exact test for an identically vanishing expression.

    The canonical rational form decides rational expressions; with ``sin`` and
    ``cos`` the numerator is reduced modulo ``sin² + cos² − 1``. Only when that
    is inconclusive and other transcendental functions are present is
    :func:`sympy.simplify` tried, on this single expression.
    """
    e = canon(expr)
    if e == 0:
        return True
    if e.is_number:
        return bool(sp.simplify(e) == 0)
    if e.has(sp.sin, sp.cos):
        if trig_normal(e) == 0:
            return True
    if e.has(sp.tan, sp.cot, sp.sec, sp.csc, sp.exp, sp.log, sp.sinh, sp.cosh) or any(
        isinstance(p, sp.Pow) and not p.exp.is_Integer for p in e.atoms(sp.Pow)
    ):
        return bool(sp.simplify(e) == 0)
    return False


def canon_matrix(m: Iterable[object] | sp.MatrixBase) -> sp.ImmutableMatrix:
    """Apply :func:`canon` entrywise and freeze."""
    return sp.ImmutableMatrix(sp.Matrix(m).applyfunc(canon))


def tidy_matrix(m: sp.MatrixBase) -> sp.ImmutableMatrix:
    """Apply :func:`tidy` entrywise and freeze."""
    return sp.ImmutableMatrix(sp.Matrix(m).applyfunc(tidy))


def entries(a: sp.NDimArray | sp.MatrixBase) -> list[sp.Expr]:
    """All entries of an array or matrix, flattened (iterating an N-d array yields sub-arrays)."""
    if isinstance(a, sp.MatrixBase):
        return list(a)
    return list(sp.flatten(a.tolist()))


def exact_inverse(M: sp.MatrixBase) -> sp.ImmutableMatrix:
    """Inverse by Gauss–Jordan elimination with :func:`canon` after every step.

    Pivots are chosen among entries that are not identically zero, preferring
    the one with the fewest operations (numbers first), which keeps frames with
    unit or constant pivots polynomial and small. Raises ``ZeroDivisionError``
    if the matrix is singular.
    """
    A = sp.Matrix(M)
    if A.cols != A.rows:
        raise ValueError(f"exact_inverse: matrix is {A.rows}x{A.cols}, not square")
    return exact_solve(A, sp.eye(A.rows))[0]


def exact_solve(G: sp.MatrixBase, b: sp.MatrixBase) -> tuple[sp.ImmutableMatrix, sp.Expr]:
    """Solve ``G x = b`` exactly; return ``(x, det G)``.

    When every entry is a rational function of symbols, undefined functions
    (``B0(t)``, their derivatives) and ``sin``/``cos`` (the usual case), the
    system is solved in that field (:meth:`RationalFunctions.solve`): by
    Gauss–Jordan elimination while every column has a constant pivot (frames),
    otherwise fraction-free over the polynomial ring
    (``sympy.polys.matrices.DomainMatrix``), the numerators and the determinant
    reduced modulo ``sin² + cos² − 1`` before one cancellation per entry. Otherwise it falls
    back to Gauss–Jordan elimination on expressions with :func:`canon` after
    every step. Raises ``ZeroDivisionError`` when ``G`` is singular (its
    determinant vanishes identically, the Pythagorean identity included).

    Examples
    --------
    >>> import sympy as sp
    >>> th = sp.Symbol("theta")
    >>> G = sp.Matrix([[sp.cos(th), -sp.sin(th)], [sp.sin(th), sp.cos(th)]])
    >>> x, det = exact_solve(G, sp.Matrix([1, 0]))
    >>> list(x), det
    ([cos(theta), -sin(theta)], 1)
    """
    A = sp.Matrix(G)
    B = sp.Matrix(b)
    if A.rows != A.cols or B.rows != A.rows:
        raise ValueError(f"exact_solve: shapes {A.shape} and {B.shape} do not match")
    try:
        ctx = RationalFunctions(list(A) + list(B))
    except UnsupportedExpression:
        return _gauss_jordan(A, B)
    return ctx.solve(A, B)


def _gauss_jordan(A: sp.Matrix, B: sp.Matrix) -> tuple[sp.ImmutableMatrix, sp.Expr]:
    """Gauss–Jordan elimination on sympy expressions, :func:`canon` after every step.

    The fallback of :func:`exact_solve` for entries outside :class:`RationalFunctions`
    (floats, radicals, ``exp`` …); pivots are decided by :func:`is_zero`.
    """
    n = A.rows
    aug = A.row_join(B).tolist()
    det: sp.Expr = sp.S.One
    for c in range(n):
        cands = [(sp.count_ops(aug[r][c]), r) for r in range(c, n) if aug[r][c] != 0 and not is_zero(aug[r][c])]
        if not cands:
            raise ZeroDivisionError(f"exact_solve: singular matrix (no pivot in column {c + 1})")
        _, r = min(cands)
        if r != c:
            aug[c], aug[r] = aug[r], aug[c]
            det = -det
        piv = aug[c][c]
        det = canon(det * piv)
        if piv != 1:
            aug[c] = [canon(x / piv) if x != 0 else x for x in aug[c]]
        for r2 in range(n):
            f = aug[r2][c]
            if r2 == c or f == 0:
                continue
            row_c = aug[c]
            aug[r2] = [canon(x - f * y) if y != 0 else x for x, y in zip(aug[r2], row_c, strict=True)]
    return sp.ImmutableMatrix([row[n:] for row in aug]), det
