r"""``sympy.diff(e, x)`` for a symbol ``x``, the identical expression built without sympy's derivative dispatch.

The library differentiates sums of products by symbols all the time: a vector field applied to a function
(``X^j ∂f/∂q^j``), the momenta ``∂L/∂v^i``, a Hessian, a total derivative. sympy creates a ``Derivative``
for every term and every factor, with assumption queries on the way; on the two-wheeled carriage's report
that was a sixth of the time. :func:`derivative` differentiates a term ``c·a`` in which one factor ``a`` depends on
``x`` directly when ``a`` is ``x``, ``x^k``, ``sin x``, ``cos x`` or an integer power of these, and hands
every other term to :func:`sympy.diff`. The result is sympy's expression exactly: sympy's ``Mul`` rule for
one dependent factor is ``a′ · Mul(c)`` and its ``Add`` rule is ``Add(terms′)``, both canonical (property
test ``tests/algebra/test_sparse.py::test_derivative_equals_sympy_diff``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy as sp

__all__ = ["derivative", "hessian"]


def derivative(e: sp.Expr, x: sp.Symbol) -> sp.Expr:
    """``∂e/∂x`` for a symbol ``x``: :func:`sympy.diff`'s result, faster on sums of products.

    Examples
    --------
    >>> import sympy as sp
    >>> x, y = sp.symbols("x y")
    >>> derivative(3 * x**2 * y + y * sp.sin(x) - x / y, x)
    6*x*y + y*cos(x) - 1/y
    """
    if not isinstance(x, sp.Symbol) or not isinstance(e, sp.Expr) or not (e.is_commutative and x.is_commutative):
        return sp.diff(e, x)  # type: ignore[no-any-return]  # (matrix expressions are not commutative either)
    if e.is_Add:
        return sp.Add(*[_term(t, x) for t in e.args])
    return _term(e, x)


def _term(t: sp.Expr, x: sp.Symbol) -> sp.Expr:
    if t == x:
        return sp.S.One
    if t.is_Mul:
        dep = [i for i, a in enumerate(t.args) if x in a.free_symbols]
        if not dep:
            return sp.S.Zero
        if len(dep) == 1:
            i = dep[0]
            da = _factor(t.args[i], x)
            if da is not None:
                return sp.Mul(da, *t.args[:i], *t.args[i + 1 :])
        return sp.diff(t, x)  # type: ignore[no-any-return]
    if x not in t.free_symbols:
        return sp.S.Zero
    da = _factor(t, x)
    return sp.diff(t, x) if da is None else da  # type: ignore[no-any-return]


def _factor(a: sp.Expr, x: sp.Symbol) -> sp.Expr | None:
    """``da/dx`` for ``a`` = ``x``, ``sin x``, ``cos x`` or an integer power of one of these; None otherwise."""
    if a == x:
        return sp.S.One
    if isinstance(a, sp.sin) and a.args[0] == x:
        return sp.cos(x)
    if isinstance(a, sp.cos) and a.args[0] == x:
        return -sp.sin(x)
    if a.is_Pow and a.exp.is_Integer:
        b, k = a.args
        db = _factor(b, x) if (b == x or isinstance(b, (sp.sin, sp.cos))) else None
        if db is not None:
            return k * b ** (k - 1) * db  # type: ignore[no-any-return]
    return None


def hessian(f: sp.Expr, xs: Sequence[Any]) -> sp.Matrix:
    """:func:`sympy.hessian` of ``f`` in the symbols ``xs`` (the identical matrix): ``∂²f/∂x_i∂x_j``, the first
    derivative in ``x_i`` taken once per row, entries below the diagonal mirrored, as sympy does.

    Examples
    --------
    >>> import sympy as sp
    >>> x, y = sp.symbols("x y")
    >>> hessian(x**2 * y + y**3, [x, y])
    Matrix([
    [2*y, 2*x],
    [2*x, 6*y]])
    """
    xs = list(xs)
    n = len(xs)
    out = sp.zeros(n, n)
    for i in range(n):
        fi = derivative(f, xs[i])
        for j in range(i, n):
            out[i, j] = out[j, i] = derivative(fi, xs[j])
    return out
