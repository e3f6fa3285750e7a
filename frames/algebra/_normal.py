"""Deliberate simplification policy.

The library never calls :func:`sympy.simplify` in a loop. Intermediate
results are put in a canonical rational form with :func:`sympy.cancel`, which
treats transcendental sub-expressions such as ``sin(theta)`` as generators.
Trigonometric identities are applied once, on final results only
(:func:`tidy`). Zero tests try the cheap canonical form first and fall back to
a trigonometric simplification only when the cheap test is inconclusive.
"""

from __future__ import annotations

from collections.abc import Iterable

import sympy as sp

from ..errors import InvalidExpressionError
from ._budget import checkpoint
from ._coerce import as_expr
from ._field import RationalFunctions, UnsupportedExpression

#: expressions with more operations than this are cancelled in the polynomial ring (:func:`canon`)
RING_CANCEL_OPS = 400

__all__ = ["canon", "canon_matrix", "entries", "is_zero", "tidy", "tidy_matrix", "trig_normal"]


def canon(expr: object) -> sp.Expr:
    """Canonical rational form of ``expr`` (``cancel`` of the expression)."""
    checkpoint()
    e = sp.sympify(expr, strict=True)  # internal values only: strict refuses strings (never parsed)
    if isinstance(e, sp.NDimArray | sp.MatrixBase):
        raise TypeError(f"canon: expected a scalar expression, got the array {e!r}")
    if e.is_Atom:
        return e
    if isinstance(e, sp.Derivative) or isinstance(e, sp.core.function.AppliedUndef):
        return e
    if not _has_denominator(e):
        # a polynomial in its generators: expansion is its canonical form (as cancel's numerator)
        return sp.expand(e)
    if sp.count_ops(e) > RING_CANCEL_OPS:
        # large: convert to numerator/denominator in the polynomial ring without intermediate gcds
        # and cancel once there (sympy's cancel spends its time rebuilding expression trees)
        try:
            ctx = RationalFunctions([e], pythagoras=False)
        except UnsupportedExpression:
            pass
        else:
            return ctx.to_expr(ctx.normal(ctx.from_expr(e)))
    return sp.cancel(e)


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
    e = sp.sympify(expr, strict=True)
    if e.is_Atom or not e.has(sp.sin, sp.cos):
        return canon(e)
    checkpoint()
    try:  # the field QQ(x, sin a, cos a, exp r, f(t)): reduce and cancel there, no expression-level cancel
        ctx = RationalFunctions([e], exp=True)
    except UnsupportedExpression:
        pass
    else:
        return ctx.to_expr(ctx.normal(ctx.from_expr(e)))
    e = canon(e)
    args = _trig_args(e)
    num, den = sp.fraction(sp.together(e))
    try:
        num = _reduce_pythagoras(num, args)
        den = _reduce_pythagoras(den, args)
    except sp.PolynomialError:
        return e
    return sp.cancel(num / den)


def _scalar_arg(expr: object, name: str) -> sp.Expr:
    """A scalar argument of the public :func:`tidy` / :func:`is_zero` (cheap: no tree walk for a sympy scalar).

    Strings (never parsed), ``None``, booleans, matrices and other objects are refused with an
    :class:`~frames.InvalidExpressionError` naming ``name``; ``I`` and ``±oo``/``zoo`` are accepted
    (a zero test of them is meaningful), ``nan`` is refused after canonicalisation.
    """
    if isinstance(expr, sp.Expr) and not isinstance(expr, sp.MatrixBase | sp.MatrixExpr):
        return expr
    return as_expr(expr, name=name, complex_ok=True, finite=False)


def _refuse_nan(e: sp.Expr, name: str) -> None:
    if e is sp.nan:
        raise InvalidExpressionError(f"{name}: the expression is nan (undefined); nothing to simplify or test")


def tidy(expr: object) -> sp.Expr:
    """Final-result simplification: ``cancel`` plus the Pythagorean identity when trig is present.

    Raises
    ------
    InvalidExpressionError
        If ``expr`` is a string (never parsed), ``None``, a boolean, a matrix, not an expression, or nan.
    """
    e = canon(_scalar_arg(expr, "tidy: expr"))
    _refuse_nan(e, "tidy: expr")
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

    Raises
    ------
    InvalidExpressionError
        If ``expr`` is a string (never parsed), ``None``, a boolean, a matrix, not an expression, or nan.
    """
    e = canon(_scalar_arg(expr, "is_zero: expr"))
    if e == 0:
        return True
    _refuse_nan(e, "is_zero: expr")
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
