r"""``sympy.factor`` of an expression, each polynomial factorised by FLINT when python-flint is installed.

:func:`factor` returns exactly what :func:`sympy.factor` returns (the same expression, structurally): it follows
sympy's own ``_symbolic_factor`` (``together``, then each factor of the product converted to a polynomial with
sympy's generators and domain) and changes one call, the factorisation of a polynomial over ZZ or QQ, which
goes to :func:`~frames.algebra._flint.flint_factor_list` (whose result is sympy's, by the uniqueness of the
factorisation into primitive irreducibles with positive leading coefficients). Without flint, for another
domain, or for an input sympy treats otherwise (a relation, an object with ``_eval_factor``), it *is*
:func:`sympy.factor`.

It exists because a report's display forms (:func:`frames.app.display_form`) spend most of their time in
sympy's multivariate factorisation, Wang's algorithm in Python. The control flow below is sympy's
(``sympy/polys/polytools.py``, ``_symbolic_factor_list``, BSD licence), reduced to ``method="factor"``.
Property test: ``tests/algebra/test_sparse.py::test_factor_equals_sympy_factor``.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import sympy as sp

from ._flint import enabled as _flint_enabled
from ._flint import flint_factor_list

try:  # sympy's private helpers (sympy >= 1.12); without them this module is sympy.factor
    from sympy.core.evalf import pure_complex
    from sympy.core.mul import _keep_coeff
    from sympy.polys import polyoptions as _options
    from sympy.polys.orderings import lex
    from sympy.polys.polyerrors import PolificationFailed
    from sympy.polys.polytools import _poly_from_expr
    from sympy.polys.rationaltools import together
    from sympy.polys.rings import PolyRing

    _PRIVATE = True
except ImportError:  # pragma: no cover - depends on the installed sympy
    _PRIVATE = False

__all__ = ["factor"]


def factor(expr: sp.Expr) -> sp.Expr:
    """:func:`sympy.factor` of ``expr`` (the identical result), with FLINT's factorisation when installed.

    Examples
    --------
    >>> import sympy as sp
    >>> x, y = sp.symbols("x y")
    >>> factor(x**2 * y - y**3)
    y*(x - y)*(x + y)
    >>> factor(x**2 * y - y**3) == sp.factor(x**2 * y - y**3)
    True
    """
    if (
        not (_PRIVATE and _flint_enabled())
        or not isinstance(expr, sp.Expr)
        or hasattr(expr, "_eval_factor")
        or not expr.is_commutative  # sympy's factor_nc
    ):
        return sp.factor(expr)  # type: ignore[no-any-return]
    opt = _options.build_options((), {})
    opt["fraction"] = True
    coeff, factors = _factor_list(together(expr, fraction=True), opt)
    return _keep_coeff(coeff, sp.Mul(*[f.as_expr() ** k for f, k in factors]))  # type: ignore[no-any-return]


def _poly_factor_list(poly: sp.Poly) -> tuple[Any, list[tuple[Any, Any]]]:
    """``poly.factor_list()``: over ZZ or QQ by FLINT, else sympy's."""
    K = poly.domain
    if K.is_ZZ or K.is_QQ:
        ring = PolyRing(poly.gens, K, lex)
        hit = flint_factor_list(ring.from_dict(dict(poly.rep.to_dict())))
        if hit is not None:
            c, fs = hit
            # as Poly in sympy's generators: equal factors from two generator sets stay apart, as in sympy
            return K.to_sympy(c), [(sp.Poly.from_dict(dict(f), *poly.gens, domain=K), sp.Integer(k)) for f, k in fs]
    return poly.factor_list()  # type: ignore[no-any-return]


def _factor_list(expr: sp.Expr, opt: Any) -> tuple[sp.Expr, list[tuple[Any, Any]]]:
    """sympy's ``_symbolic_factor_list(expr, opt, "factor")`` with :func:`_poly_factor_list`."""
    coeff, factors = sp.S.One, []
    args = [i._eval_factor() if hasattr(i, "_eval_factor") else i for i in sp.Mul.make_args(expr)]
    for arg in args:
        if arg.is_Number or (isinstance(arg, sp.Expr) and pure_complex(arg)):
            coeff *= arg
            continue
        elif arg.is_Pow and arg.base != sp.S.Exp1:
            base, exp = arg.args
            if base.is_Number and exp.is_Number:
                coeff *= arg
                continue
            if base.is_Number:
                factors.append((base, exp))
                continue
        else:
            base, exp = arg, sp.S.One
        try:
            poly, _ = _poly_from_expr(base, opt)
        except PolificationFailed as exc:
            factors.append((exc.expr, exp))
        else:
            _coeff, _factors = _poly_factor_list(poly)
            if _coeff is not sp.S.One:
                if exp.is_Integer:
                    coeff *= _coeff**exp
                elif _coeff.is_positive:
                    factors.append((_coeff, exp))
                else:
                    _factors.append((_coeff, sp.S.One))
            if exp is sp.S.One:
                factors.extend(_factors)
            elif exp.is_integer:
                factors.extend([(f, k * exp) for f, k in _factors])
            else:
                other = []
                for f, k in _factors:
                    if f.as_expr().is_positive:
                        factors.append((f, k * exp))
                    else:
                        other.append((f, k))
                factors.append((sp.Mul(*[f.as_expr() ** k for f, k in other]), exp))
    merged: defaultdict[Any, Any] = defaultdict(int)
    for k, v in factors:
        merged[k] += v
    return coeff, list(merged.items())
