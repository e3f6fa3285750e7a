r"""Dimensional analysis of expressions: the physical dimension of each term, and homogeneity."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy as sp

from ..algebra import is_zero
from ..algebra.internal import as_expr, as_subs
from ..errors import ArgumentError

__all__ = ["dimension_terms", "is_dimensionally_homogeneous"]


def dimension_terms(expr: Any, dims: Mapping[sp.Symbol, Any]) -> list[tuple[sp.Expr, sp.Expr]]:
    r"""The physical dimension of every additive term of ``expr`` (after expansion).

    ``dims`` maps each parameter to a monomial in base-dimension symbols (e.g.
    ``{m: M, R: L, J: M*L**2}``). Numerical factors are dropped.

    Examples
    --------
    >>> import sympy as sp
    >>> m, R, M, L = sp.symbols("m R M L", positive=True)
    >>> dimension_terms(m * R**2 + m, {m: M, R: L})
    [(m, M), (R**2*m, L**2*M)]
    """
    return _dimension_terms(expr, dims, "dimension_terms")


def _dimension_terms(expr: Any, dims: Any, what: str) -> list[tuple[sp.Expr, sp.Expr]]:
    e = sp.expand(as_expr(expr, name=f"{what}: expr"))
    if not isinstance(dims, Mapping):
        raise ArgumentError(f"{what}: dims: expected a mapping parameter -> dimension, got {type(dims).__name__}")
    dmap = as_subs(dims, name=f"{what}: dims")
    terms = e.args if e.is_Add else (e,)
    out = []
    for term in sorted(terms, key=sp.default_sort_key):
        d = sp.powsimp(term.xreplace(dmap), force=True)
        _, mon = d.as_coeff_Mul()
        out.append((term, mon))
    return out


def is_dimensionally_homogeneous(expr: Any, dims: Mapping[sp.Symbol, Any]) -> bool:
    """True if all terms of ``expr`` have the same dimension (see :func:`dimension_terms`)."""
    ds = [d for _, d in _dimension_terms(expr, dims, "is_dimensionally_homogeneous")]
    return all(is_zero(d / ds[0] - 1) for d in ds[1:]) if ds else True
