r"""Argument checks shared by the dynamics and natural layers.

Everything here is cheap (type tests, lengths, symbol sets) and raises a
:class:`~frames.errors.FramesError` subclass whose message starts with the argument's name.
Expressions go through :func:`frames.algebra.as_expr` (strings are never parsed).
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import sympy as sp

from ..algebra import expect
from ..algebra.internal import as_expr, as_exprs, as_int, canon
from ..algebra.internal import short_repr as _short
from ..errors import ArgumentError, ConstraintError, InvalidExpressionError, ObjectTypeError
from ..geometry import Chart, Frame
from ._loads import is_load, load_one_form

__all__ = [
    "check_forces",
    "ObjectTypeError",
    "check_flag_choice",
    "index_pairs",
    "n_exprs_on_TQ",
    "check_m",
    "check_symbols",
    "exprs_on_TQ",
    "optional_time",
    "prefix_symbols",
    "sequence",
    "symbol_values",
]


def sequence(xs: Any, *, name: str, what: str = "a sequence") -> list[Any]:
    """A list from a sequence argument (strings, mappings and scalars refused)."""
    if isinstance(xs, str | bytes):
        raise InvalidExpressionError(f"{name}: got the string {_short(xs)}; strings are never parsed here")
    if isinstance(xs, Mapping) or not isinstance(xs, Iterable) or (isinstance(xs, sp.Expr) and not xs.is_Matrix):
        raise ArgumentError(f"{name}: expected {what}, got {type(xs).__name__} {_short(xs, 60)}")
    return list(xs)


def check_m(m: Any, n: int, *, name: str) -> int:
    """The rank ``m`` of D: an integer (not a bool) with ``0 < m < n``."""
    if isinstance(m, bool | np.bool_) or not isinstance(m, numbers.Integral | sp.Integer):
        raise ArgumentError(f"{name}: expected an integer with 0 < m < n = {n}, got {type(m).__name__} {m!r}")
    k = int(m)
    if not 0 < k < n:
        raise ConstraintError(f"{name}: m = {k} must be an integer with 0 < m < n = {n}")
    return k


def check_symbols(xs: Any, *, name: str, what: str = "Symbols") -> tuple[sp.Symbol, ...]:
    """A tuple of sympy Symbols (strings refused: use the symbols themselves)."""
    items = sequence(xs, name=name, what=f"a sequence of {what}")
    for k, s in enumerate(items):
        if not isinstance(s, sp.Symbol):
            if isinstance(s, str | bytes):
                raise InvalidExpressionError(f"{name}[{k}]: got the string {_short(s)}; pass a sympy Symbol")
            raise ArgumentError(f"{name}[{k}]: expected a sympy Symbol, got {type(s).__name__} {_short(s, 60)}")
    return tuple(items)


def prefix_symbols(prefix: Any, names: Sequence[str], *, name: str) -> tuple[sp.Symbol, ...]:
    """Symbols ``prefix + s`` for ``s`` in ``names`` from a name prefix, or the given Symbols."""
    if isinstance(prefix, str):
        if not prefix.isidentifier():
            raise InvalidExpressionError(f"{name}: {prefix!r} is not a valid name prefix (an identifier, e.g. 'mu')")
        return tuple(sp.Symbol(f"{prefix}{s}") for s in names)
    syms = check_symbols(prefix, name=name)
    if len(syms) != len(names):
        raise InvalidExpressionError(f"{name}: need {len(names)} symbols, got {len(syms)}: {syms!r}")
    if len(set(syms)) != len(syms):
        raise InvalidExpressionError(f"{name}: repeated symbols in {syms!r}")
    return syms


def optional_time(t: Any, chart: Chart, *, name: str) -> sp.Symbol:
    """The time symbol: ``t`` if given (a Symbol), else the chart's, else ``t``."""
    if t is None:
        return chart.t if chart.t is not None else sp.Symbol("t")
    if not isinstance(t, sp.Symbol):
        if isinstance(t, str | bytes):
            raise InvalidExpressionError(f"{name}: got the string {_short(t)}; pass a sympy Symbol")
        raise ArgumentError(f"{name}: expected a sympy Symbol or None, got {type(t).__name__} {_short(t, 60)}")
    return t


def check_flag_choice(x: Any, choices: Sequence[str], *, name: str) -> str:
    """A keyword value among ``choices``."""
    if not isinstance(x, str) or x not in choices:
        raise ArgumentError(f"{name}: must be one of {', '.join(map(repr, choices))}, got {_short(x, 60)}")
    return x


def exprs_on_TQ(chart: Chart, xs: Any, *, name: str, length: int | None = None) -> tuple[sp.Expr, ...]:
    """Functions of ``(q, u, t)`` and the chart's parameters, ``name[i]`` in messages."""
    items = sequence(xs, name=name, what="a sequence of expressions")
    if length is not None and len(items) != length:
        raise InvalidExpressionError(f"{name}: expected {length} entries, got {len(items)}")
    return tuple(chart.check_on_TQ(x, f"{name}[{k}]") for k, x in enumerate(items))


def symbol_values(
    values: Any, *, name: str, required: Sequence[sp.Symbol] = (), allowed: Iterable[sp.Symbol] | None = None
) -> dict[sp.Symbol, sp.Expr]:
    """A mapping ``Symbol -> expression`` (every value through :func:`as_expr`).

    ``required`` symbols must be keys; with ``allowed`` no other key is accepted.
    """
    if not isinstance(values, Mapping):
        raise ArgumentError(f"{name}: expected a mapping symbol -> expression, got {type(values).__name__}")
    ok = None if allowed is None else set(allowed) | set(required)
    out: dict[sp.Symbol, sp.Expr] = {}
    for key, val in values.items():
        if not isinstance(key, sp.Symbol):
            raise ArgumentError(f"{name}: key {_short(key, 60)} is not a sympy Symbol (strings are never parsed)")
        if ok is not None and key not in ok:
            raise ArgumentError(f"{name}: unknown key {key}; expected keys among {sorted(map(str, ok))}")
        out[key] = as_expr(val, name=f"{name}[{key}]")
    missing = [s for s in required if s not in out]
    if missing:
        raise InvalidExpressionError(f"{name}: gives no value for {missing}")
    return out


def frame_arg(x: Any, *, name: str) -> Frame:
    """A :class:`~frames.Frame` argument."""
    return expect(x, Frame, name=name)  # type: ignore[no-any-return]


def exprs(xs: Any, *, name: str, length: int | None = None) -> tuple[sp.Expr, ...]:
    """:func:`as_exprs` with the sequence test of :func:`sequence` (a scalar is refused)."""
    return as_exprs(sequence(xs, name=name, what="a sequence of expressions"), name=name, length=length)


def n_exprs_on_TQ(chart: Any, xs: Any, what: str) -> tuple[sp.Expr, ...]:
    """``chart`` a Chart and ``xs`` exactly ``n`` functions on its TQ (quasi-velocities)."""
    expect(chart, Chart, name=f"{what}: chart")
    om = exprs_on_TQ(chart, xs, name=f"{what}: omegas")
    if len(om) != chart.dim:
        raise ConstraintError(
            f"{what}: omegas: {len(om)} quasi-velocities given on a chart of dimension {chart.dim}; "
            f"need exactly {chart.dim}"
        )
    return om


def index_pairs(pairs: Any, n: int, what: str) -> tuple[tuple[int, int], ...]:
    """Pairs ``(h, k)`` of matrix indices in ``0..n-1``."""
    out = []
    for j, pair in enumerate(sequence(pairs, name=what, what="a sequence of index pairs (h, k)")):
        if isinstance(pair, str | bytes) or not isinstance(pair, Sequence) or len(pair) != 2:
            raise ArgumentError(f"{what}[{j}]: expected an index pair (h, k), got {_short(pair, 60)}")
        h, k = (as_int(i, name=f"{what}[{j}]", min=0, max=n - 1) for i in pair)
        out.append((h, k))
    return tuple(out)


def check_forces(chart: Chart, forces: Any, what: str) -> tuple[sp.Expr, ...] | None:
    r"""The components ``F_i(q, u, t)`` of a force one-form ``F = F_i dq^i`` (one per coordinate), or None.

    None is the library's one spelling of "no forces": ``None``, an empty sequence and a one-form whose
    components are all exactly zero are all returned as None, so that every system tests ``forces is None``
    and two systems without forces are equal however the absence was written.

    ``forces`` is the one-form's ``n`` components, or loads (:class:`~frames.PointForce`,
    :class:`~frames.BodyTorque`: a load or a sequence of them, possibly with the ``n`` components among them),
    turned into the one-form exactly (:func:`~frames.dynamics._loads.load_one_form`).

    Strings are never parsed; each component may use the chart's ``q``, ``u``, ``t`` and declared parameters
    (inputs are parameters, or undefined functions of ``t``).
    """
    if forces is None or (isinstance(forces, Sequence) and not isinstance(forces, str | bytes) and not forces):
        return None
    items = [forces] if is_load(forces) else forces
    if isinstance(items, Sequence) and not isinstance(items, str | bytes) and any(is_load(x) for x in items):
        # loads (PointForce, BodyTorque), with the one-form's n components among them if any
        loads = [x for x in items if is_load(x)]
        rest = [x for x in items if not is_load(x)]
        if rest and len(rest) != chart.dim:
            raise InvalidExpressionError(
                f"{what}: {len(rest)} components besides the loads; give none or the one-form's {chart.dim} "
                "components F_i (one per coordinate)"
            )
        total = load_one_form(chart, loads, f"{what} (loads)")
        if rest:
            comps = as_exprs(rest, name=what, length=chart.dim)
            extra = [chart.check_on_TQ(c, f"{what}[{i}]") for i, c in enumerate(comps)]
            total = tuple(a + b for a, b in zip(total, extra, strict=True))
        return _none_if_zero(tuple(canon(c) for c in total))
    comps = as_exprs(forces, name=what, length=chart.dim)
    return _none_if_zero(tuple(canon(chart.check_on_TQ(c, f"{what}[{i}]")) for i, c in enumerate(comps)))


def _none_if_zero(comps: tuple[sp.Expr, ...]) -> tuple[sp.Expr, ...] | None:
    """None (no forces) for a one-form whose canonical components are all exactly zero."""
    return None if all(c == 0 for c in comps) else comps
