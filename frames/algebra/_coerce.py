r"""The one door from a user's value to a sympy object, and the argument checks of the API.

SymPy's ``sympify``/``parse_expr`` are ``eval``: a string handed to them runs as Python.
Nothing under :mod:`frames` calls them on a user's value. Every public entry point turns
its arguments into sympy objects here:

* :func:`as_expr` — a scalar expression. Strings are refused (text goes through the safe
  parser :func:`frames.parse_expression` with declared symbols); ``nan``, ``zoo``, ``±oo``
  and, unless asked for, ``I`` are refused; booleans, relations, matrices and ``None``
  are refused.
* :func:`as_exprs`, :func:`as_matrix` — the same, entrywise, with the index in the message.
* :func:`as_int`, :func:`as_flag`, :func:`expect` — counts, flags and types of arguments.

Every refusal is an :class:`~frames.errors.InvalidExpressionError` or
:class:`~frames.errors.ArgumentError` (both :class:`~frames.errors.FramesError`) whose
message starts with the argument's name and gives the reason.

``tests/app/test_safe_parser.py`` fails if any other module calls ``sympify``, ``S(…)`` or
``parse_expr`` on a non-constant value.

>>> import sympy as sp
>>> x = sp.Symbol("x")
>>> as_expr(x**2 / 2, name="f")
x**2/2
>>> as_expr("__import__('os').system('echo pwned')", name="f")
Traceback (most recent call last):
...
frames.errors.InvalidExpressionError: f: got the string "__import__('os').system('echo pwned')"; ...
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import sympy as sp
from sympy.core.numbers import ComplexInfinity, ImaginaryUnit, Infinity, NaN, NegativeInfinity

from ..errors import ArgumentError, InvalidExpressionError, ObjectTypeError

__all__ = ["as_expr", "as_exprs", "as_flag", "as_int", "as_matrix", "as_subs", "expect"]

#: the non-finite numbers' classes: one walk of a tree finds them all (``has`` of an object walks it twice)
_NONFINITE_TYPES = (NaN, ComplexInfinity, Infinity, NegativeInfinity)


@lru_cache(maxsize=4096)
def _refused_atoms(e: sp.Expr, refused: tuple[type, ...]) -> frozenset[sp.Basic]:
    """The atoms of ``e`` of the ``refused`` types (remembered: the methods check the same expressions again as
    they pass them on, and a walk of a large expression costs what building it did)."""
    return frozenset(e.atoms(*refused) if not e.is_Atom else ({e} if isinstance(e, refused) else set()))


def _short(x: Any, n: int = 80) -> str:
    r = repr(x)
    return r if len(r) <= n else r[: n - 3] + "..."


def as_expr(
    x: Any,
    *,
    name: str = "expression",
    complex_ok: bool = False,
    finite: bool = True,
) -> sp.Expr:
    """``x`` as a sympy scalar expression, or an error naming ``name``.

    Parameters
    ----------
    x : sympy expression, int, float, Fraction, numpy scalar
        Strings are refused: they are never parsed here.
    name : str
        The argument's name, used in the message.
    complex_ok : bool
        Accept ``I`` (default: refused; every quantity of the library is real).
    finite : bool
        Refuse ``nan``, ``zoo`` and ``±oo`` (default).

    Raises
    ------
    InvalidExpressionError
        If ``x`` is a string, not a scalar expression, not finite or complex.
    """
    if isinstance(x, str | bytes):
        raise InvalidExpressionError(
            f"{name}: got the string {_short(x)}; strings are never parsed here (sympy's parser is eval). "
            "Build the expression from the chart's symbols, or parse text with "
            "frames.parse_expression(text, symbols)"
        )
    if x is None or isinstance(x, bool | np.bool_):
        raise InvalidExpressionError(f"{name}: expected an expression, got {x!r}")
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, Fraction):
        x = sp.Rational(x.numerator, x.denominator)
    if not isinstance(x, sp.Basic | numbers.Number) and not hasattr(x, "_sympy_"):
        raise InvalidExpressionError(f"{name}: expected a sympy expression or a number, got {type(x).__name__}")
    try:
        e = sp.sympify(x, strict=True)
    except (sp.SympifyError, TypeError, ValueError, AttributeError) as exc:
        raise InvalidExpressionError(f"{name}: {_short(x)} is not a sympy expression") from exc
    if not isinstance(e, sp.Expr) or isinstance(e, sp.MatrixBase):
        raise InvalidExpressionError(f"{name}: {_short(x)} is not a scalar expression ({type(e).__name__})")
    refused = (_NONFINITE_TYPES if finite else ()) + (() if complex_ok else (ImaginaryUnit,))
    found = _refused_atoms(e, refused) if refused else frozenset()
    if finite and any(isinstance(a, _NONFINITE_TYPES) for a in found):
        raise InvalidExpressionError(f"{name}: {_short(e)} is not finite (contains nan, zoo or oo)")
    if found:
        raise InvalidExpressionError(f"{name}: {_short(e)} is complex; the library works over the reals")
    return e


def as_exprs(
    xs: Any,
    *,
    name: str = "expressions",
    length: int | None = None,
    complex_ok: bool = False,
    finite: bool = True,
) -> tuple[sp.Expr, ...]:
    """A sequence of scalar expressions (``name[i]`` in messages); ``length`` checked if given."""
    if isinstance(xs, sp.MatrixBase | sp.NDimArray | np.ndarray):
        xs = list(xs)
    if isinstance(xs, str | bytes) or not isinstance(xs, Iterable) or isinstance(xs, dict):
        raise InvalidExpressionError(f"{name}: expected a sequence of expressions, got {_short(xs)}")
    items = list(xs)
    if length is not None and len(items) != length:
        raise InvalidExpressionError(f"{name}: expected {length} entries, got {len(items)}")
    return tuple(as_expr(c, name=f"{name}[{k}]", complex_ok=complex_ok, finite=finite) for k, c in enumerate(items))


def as_matrix(
    x: Any,
    *,
    name: str = "matrix",
    shape: tuple[int | None, int | None] | None = None,
    complex_ok: bool = False,
) -> sp.ImmutableMatrix:
    """A matrix of scalar expressions from rows (sequence of sequences) or a matrix/array."""
    if isinstance(x, sp.MatrixBase):
        rows = x.tolist()
    elif isinstance(x, np.ndarray | sp.NDimArray):
        rows = np.asarray(x, dtype=object).tolist() if isinstance(x, np.ndarray) else x.tolist()
    elif isinstance(x, Sequence) and not isinstance(x, str | bytes):
        rows = [list(r) if isinstance(r, Sequence | sp.MatrixBase) and not isinstance(r, str | bytes) else r for r in x]
    else:
        raise InvalidExpressionError(f"{name}: expected a matrix (rows of expressions), got {_short(x)}")
    if rows and not all(isinstance(r, list) for r in rows):
        if any(isinstance(r, list) for r in rows):
            raise InvalidExpressionError(f"{name}: rows mix scalars and sequences")
        rows = [[r] for r in rows]
    widths = {len(r) for r in rows}
    if len(widths) > 1:
        raise InvalidExpressionError(f"{name}: rows have different lengths {sorted(widths)}")
    ncols = widths.pop() if widths else 0
    if shape is not None:
        nr, nc = shape
        if (nr is not None and len(rows) != nr) or (nc is not None and ncols != nc):
            want = f"{'?' if nr is None else nr}×{'?' if nc is None else nc}"
            raise InvalidExpressionError(f"{name}: expected a {want} matrix, got {len(rows)}×{ncols}")
    entries = [
        [as_expr(c, name=f"{name}[{i},{j}]", complex_ok=complex_ok) for j, c in enumerate(r)]
        for i, r in enumerate(rows)
    ]
    return sp.ImmutableMatrix(len(rows), ncols, [c for r in entries for c in r])


def as_subs(x: Any, *, name: str = "subs", complex_ok: bool = False) -> dict[sp.Basic, sp.Expr]:
    """A substitution mapping ``{symbol or applied function: value}`` with every value through :func:`as_expr`.

    ``expr.subs(mapping)`` sympifies a string value non-strictly (``eval``), so a user's mapping
    must pass here before any ``subs``. Keys must be sympy symbols or expressions (strings are refused:
    use the chart's symbols).
    """
    if x is None:
        return {}
    if not isinstance(x, Mapping):
        if isinstance(x, Iterable) and not isinstance(x, str | bytes):
            try:
                x = dict(x)
            except (TypeError, ValueError) as exc:
                raise InvalidExpressionError(f"{name}: expected a mapping symbol -> value, got {_short(x)}") from exc
        else:
            raise InvalidExpressionError(f"{name}: expected a mapping symbol -> value, got {_short(x)}")
    out: dict[sp.Basic, sp.Expr] = {}
    for k, v in x.items():
        if not isinstance(k, sp.Basic):
            raise InvalidExpressionError(
                f"{name}: key {_short(k)} is not a sympy symbol (strings are never parsed; use the chart's symbols)"
            )
        out[k] = as_expr(v, name=f"{name}[{k}]", complex_ok=complex_ok)
    return out


def as_int(x: Any, *, name: str, min: int | None = None, max: int | None = None) -> int:
    """An integer argument (not a bool, not a float), optionally within ``[min, max]``."""
    if isinstance(x, bool | np.bool_) or not isinstance(x, numbers.Integral | sp.Integer):
        raise ArgumentError(f"{name}: expected an integer, got {_short(x)}")
    n = int(x)
    if min is not None and n < min:
        raise ArgumentError(f"{name}: must be ≥ {min}, got {n}")
    if max is not None and n > max:
        raise ArgumentError(f"{name}: must be ≤ {max}, got {n}")
    return n


def as_flag(x: Any, *, name: str) -> bool:
    """A boolean argument (``True``/``False`` only)."""
    if not isinstance(x, bool | np.bool_):
        raise ArgumentError(f"{name}: expected True or False, got {_short(x)}")
    return bool(x)


def expect(x: Any, types: type | tuple[type, ...], *, name: str, what: str | None = None) -> Any:
    """``x`` unchanged if it is an instance of ``types``, else an :class:`~frames.errors.ObjectTypeError` (an
    :class:`~frames.errors.ArgumentError`) naming ``name``: the library's one type check of an argument.

    >>> expect(3, sp.Symbol, name="f: x")
    Traceback (most recent call last):
    ...
    frames.errors.ObjectTypeError: f: x: expected a Symbol, got int 3
    """
    if not isinstance(x, types):
        if what is None:
            ts = types if isinstance(types, tuple) else (types,)
            what = " or ".join(f"a {t.__name__}" for t in ts)
        raise ObjectTypeError(f"{name}: expected {what}, got {type(x).__name__} {_short(x, 60)}")
    return x
