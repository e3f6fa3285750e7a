r"""The displayed form of a report's expressions: numerator and denominator factored (:func:`display_form`).

Examples
--------
>>> import sympy as sp
>>> x, y = sp.symbols("x y")
>>> display_form((x**2 - y**2) / (2 * x + 2 * y))
(x - y)/2
"""

from __future__ import annotations

import sympy as sp
from sympy.core.mul import _keep_coeff

from ..algebra import RationalFunctions, harmonic_form, op_count
from ..algebra.internal import UnsupportedExpression, as_expr, factor, is_known_tidy

__all__ = ["FACTOR_OPS_LIMIT", "display_form"]

#: expressions with more operations than this are shown with their common factors pulled out
#: (``factor_terms``) instead of fully factored, which keeps reports fast.
FACTOR_OPS_LIMIT = 120


def display_form(expr: object) -> sp.Expr:
    r"""A readable form of ``expr``: trigonometric polynomials recombined into sines and cosines of sums and
    differences of angles where shorter (:func:`~frames.algebra.harmonic_form`), then numerator and denominator
    factored (once, no loops).

    Small expressions are factored with :func:`sympy.factor`; large ones get
    ``factor_terms`` on the numerator (the denominator is always factored).

    Examples
    --------
    >>> import sympy as sp
    >>> a, b = sp.symbols("a b")
    >>> display_form(a**2 * b + a * b**2)
    a*b*(a + b)

    Raises
    ------
    InvalidExpressionError
        If ``expr`` is a string (never parsed) or not a finite scalar expression.
    """
    # a ring normal form written by the library is a finite real expression: its tree is not walked again
    known = isinstance(expr, sp.Expr) and is_known_tidy(expr)
    e = expr if known else as_expr(expr, name="display_form: expr", complex_ok=True)
    if not isinstance(e, sp.Expr) or e.is_Number or e.is_Symbol:
        return e
    e = harmonic_form(e)  # sines and cosines of sums and differences of angles, where shorter
    try:
        if op_count(e, FACTOR_OPS_LIMIT) <= FACTOR_OPS_LIMIT:
            return factor(e)  # sympy.factor's result (FLINT's factorisation when installed)
        large = _display_large(e)
        if large is not None:
            return large
        n, d = sp.fraction(sp.together(e))
        return sp.factor_terms(n) / factor(d)
    except (sp.PolynomialError, NotImplementedError, TypeError):  # pragma: no cover - exotic input
        return e


def _display_large(e: sp.Expr) -> sp.Expr | None:
    """:func:`display_form` of a large rational expression, computed in the polynomial ring.

    The numerator and denominator are built without gcds (as ``together``); the numerator's
    rational content, common monomial and (when every coefficient is negative) sign are pulled
    out (as ``factor_terms`` on an expanded numerator), the denominator is factored. None when
    ``e`` is not a rational function of its generators (the caller falls back to sympy).
    """
    try:
        ctx = RationalFunctions([e], pythagoras=False, exp=True)
    except UnsupportedExpression:
        return None
    f = ctx.from_expr(e)
    atoms = ctx.atoms
    num, den = f.numer, f.denom
    if not num:
        return sp.S.Zero
    c, num = num.primitive()
    if all(x < 0 for x in num.coeffs()):
        c, num = -c, -num
    monom = tuple(min(ks) for ks in zip(*num.monoms(), strict=True))
    if any(monom):
        num = num.ring.from_dict({tuple(a - b for a, b in zip(m, monom, strict=True)): k for m, k in num.terms()})
    lead = sp.Mul(*[a**k for a, k in zip(atoms, monom, strict=True) if k])
    dc, dfactors = ctx.factor_list(den)
    den_e = sp.Mul(*[ctx.to_expr(g) ** k for g, k in dfactors])
    QQ = ctx.ring.domain
    coeff = QQ.to_sympy(c) / QQ.to_sympy(dc)
    # ``e = A/B`` with the numerator unchanged (no content, monomial or sign pulled out): ``A`` is reused
    # (``from_expr`` read ``f.numer`` off it term by term) instead of being written again
    sums = [a for a in e.args if a.is_Add] if e.is_Mul and len(e.args) == 2 else []
    reuse = len(sums) == 1 and any(a.is_Pow and a.exp == -1 for a in e.args) and num == f.numer and not any(monom)
    num_e = sums[0] if reuse else ctx.to_expr(num)
    return _keep_coeff(coeff, lead * num_e) / den_e  # type: ignore[no-any-return]
