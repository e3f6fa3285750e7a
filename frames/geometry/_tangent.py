r"""Vector fields on TQ: lifts and brackets (second-order fields are in :mod:`._second_order`).

A :class:`TangentVectorField` is stored in one of two coordinate systems on
TQ: natural coordinates ``(q, u)`` (``frame is None``) or the coordinates
``(q, v)`` of a frame (``frame`` set). It acts on functions written in its own
coordinates and converts between the two on request (:meth:`~TangentVectorField.in_natural`,
:meth:`~TangentVectorField.in_frame`). A ``∂/∂t`` component is carried for
time-dependent systems.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import sympy as sp

from .._value import Value
from ..algebra import derivative, expect, is_zero
from ..algebra.internal import as_expr, as_exprs, canon
from ..errors import ArgumentError, ChartMismatchError
from ._chart import Chart

__all__ = ["FrameCoordinates", "TangentVectorField", "check_frame_coordinates"]


def _col(x: Any, n: int, what: str) -> sp.ImmutableMatrix:
    """``n`` scalar expressions (strings never parsed; nan, oo, I refused) as a canonical column."""
    return canon(sp.Matrix(as_exprs(x, name=what, length=n)))


class FrameCoordinates(Protocol):
    r"""What a field on TQ needs of a frame ``{X_i}``: its chart, its quasi-velocities ``v`` and the maps between
    ``u`` and ``v`` (``u^j = v^i X_i^j``, ``v^i = θ^i_j u^j``). :class:`~frames.Frame` provides them.

    A field on TQ holds the frame's data through this interface, so this module needs no frame class.
    """

    @property
    def chart(self) -> Chart: ...

    @property
    def v(self) -> tuple[sp.Symbol, ...]: ...

    @property
    def v_in_u(self) -> tuple[sp.Expr, ...]: ...

    @property
    def u_in_v(self) -> tuple[sp.Expr, ...]: ...

    def to_quasi(self, expr: Any) -> sp.Expr: ...

    def to_natural(self, expr: Any) -> sp.Expr: ...


def check_frame_coordinates(frame: Any, what: str) -> FrameCoordinates:
    """``frame`` if it provides :class:`FrameCoordinates` (checked on its class: nothing is computed), else an error."""
    cls = type(frame)
    if not (
        all(hasattr(cls, a) for a in ("chart", "v_in_u", "u_in_v", "to_quasi", "to_natural")) and hasattr(frame, "v")
    ):
        raise ArgumentError(f"{what}: expected a Frame, got {cls.__name__}")
    return frame  # type: ignore[no-any-return]


def derivation(e: sp.Expr, pairs: Sequence[tuple[sp.Expr, sp.Symbol]]) -> sp.Expr:
    r"""``Σ a ∂e/∂x`` over the ``(a, x)`` pairs, forming no zero product.

    A term whose coefficient ``a`` or derivative ``∂e/∂x`` is zero is skipped: ``a*0`` would ask
    sympy's assumptions of ``a`` (is it finite?), a walk of the whole coefficient. Shared by
    :class:`TangentVectorField` and :class:`~frames.VectorField`.
    """
    terms = []
    for a, x in pairs:
        if a != 0:
            d = derivative(e, x)
            if d != 0:
                terms.append(a * d)
    return sp.Add(*terms)


class TangentVectorField(Value):
    r"""A vector field on TQ: ``Z = a^i ∂_{q^i} + b^i ∂_{w^i} (+ c ∂_t)``.

    ``w`` are the natural velocities ``u`` when ``frame`` is None, otherwise the
    frame's quasi-velocities ``v``.
    """

    chart: Chart
    base: sp.ImmutableMatrix
    fibre: sp.ImmutableMatrix
    time: sp.Expr
    frame: FrameCoordinates | None

    def __init__(
        self,
        chart: Chart,
        base: Sequence[Any] | sp.MatrixBase,
        fibre: Sequence[Any] | sp.MatrixBase,
        time: object = 0,
        frame: FrameCoordinates | None = None,
    ) -> None:
        expect(chart, Chart, name="TangentVectorField: chart")
        if frame is not None:
            check_frame_coordinates(frame, "TangentVectorField: frame")
            if frame.chart.q != chart.q:
                raise ChartMismatchError(f"TangentVectorField: frame: frame on {frame.chart!r}, field on {chart!r}")
        n = chart.dim
        self.chart = chart
        self.base = _col(base, n, "TangentVectorField: base")
        self.fibre = _col(fibre, n, "TangentVectorField: fibre")
        self.time = canon(as_expr(time, name="TangentVectorField: time"))
        self.frame = frame

    @classmethod
    def natural(cls, chart: Chart, base: Any, fibre: Any, time: object = 0) -> TangentVectorField:
        """A field in natural coordinates ``(q, u)``."""
        return cls(chart, base, fibre, time, None)

    # --------------------------------------------------------- coordinates
    @property
    def fibre_symbols(self) -> tuple[sp.Symbol, ...]:
        """``u`` (natural) or the frame's ``v``."""
        return self.chart.u if self.frame is None else self.frame.v

    @property
    def coordinates(self) -> tuple[sp.Symbol, ...]:
        """All coordinates ``(q, w)`` on TQ in which the components are written."""
        return self.chart.q + self.fibre_symbols

    def __call__(self, f: object) -> sp.Expr:
        """Apply to a function written in this field's coordinates (and t)."""
        e = as_expr(f, name="TangentVectorField.__call__: f")
        pairs = list(zip(self.base, self.chart.q, strict=True)) + list(zip(self.fibre, self.fibre_symbols, strict=True))
        if self.time != 0 and self.chart.t is not None:
            pairs.append((self.time, self.chart.t))
        return derivation(e, pairs)

    def in_natural(self) -> TangentVectorField:
        r"""The same field written in natural coordinates ``(q, u)``.

        ``Z(u^j) = Z(v^i X_i^j) = a^k ∂_k X_i^j v^i + X_i^j b^i``, then ``v = Θ u``.
        """
        F = self.frame
        if F is None:
            return self
        uj = F.u_in_v
        fib = [F.to_natural(self(uj[j])) for j in range(self.chart.dim)]
        base = [F.to_natural(a) for a in self.base]
        return TangentVectorField(self.chart, base, fib, F.to_natural(self.time), None)

    def in_frame(self, frame: FrameCoordinates) -> TangentVectorField:
        r"""The same field written in the coordinates ``(q, v)`` of ``frame``."""
        check_frame_coordinates(frame, "TangentVectorField.in_frame: frame")
        if frame.chart.q != self.chart.q or frame.chart.u != self.chart.u:
            raise ChartMismatchError(
                f"TangentVectorField.in_frame: frame: frame on {frame.chart!r}, field on {self.chart!r}"
            )
        if self.frame is frame or (self.frame is not None and self.frame == frame):
            return self
        nat = self.in_natural()
        vi = frame.v_in_u
        fib = [frame.to_quasi(nat(vi[i])) for i in range(self.chart.dim)]
        base = [frame.to_quasi(a) for a in nat.base]
        return TangentVectorField(self.chart, base, fib, frame.to_quasi(nat.time), frame)

    # ------------------------------------------------------------- algebra
    def _align(self, other: TangentVectorField, what: str) -> TangentVectorField:
        expect(other, TangentVectorField, name=f"{what}: other", what="a TangentVectorField (a vector field on TQ)")
        if other.chart.q != self.chart.q or other.chart.u != self.chart.u:
            raise ChartMismatchError(f"{what}: other: fields on different charts {self.chart!r} and {other.chart!r}")
        if self.frame is None:
            return other.in_natural()
        return other.in_frame(self.frame)

    def __add__(self, other: TangentVectorField) -> TangentVectorField:
        o = self._align(other, "TangentVectorField.__add__")
        return TangentVectorField(self.chart, self.base + o.base, self.fibre + o.fibre, self.time + o.time, self.frame)

    def __sub__(self, other: TangentVectorField) -> TangentVectorField:
        o = self._align(other, "TangentVectorField.__sub__")
        return TangentVectorField(self.chart, self.base - o.base, self.fibre - o.fibre, self.time - o.time, self.frame)

    def __neg__(self) -> TangentVectorField:
        return TangentVectorField(self.chart, -self.base, -self.fibre, -self.time, self.frame)

    def __mul__(self, f: object) -> TangentVectorField:
        if isinstance(f, TangentVectorField):
            raise ArgumentError("TangentVectorField.__mul__: f: the product of two vector fields is not defined")
        g = as_expr(f, name="TangentVectorField.__mul__: f")
        return TangentVectorField(self.chart, self.base * g, self.fibre * g, self.time * g, self.frame)

    __rmul__ = __mul__

    def bracket(self, other: TangentVectorField) -> TangentVectorField:
        r"""Lie bracket on TQ, ``[Y, Z]^K = Y(Z^K) − Z(Y^K)`` over all coordinates (and t)."""
        o = self._align(other, "TangentVectorField.bracket")
        base = [self(zb) - o(yb) for yb, zb in zip(self.base, o.base, strict=True)]
        fib = [self(zf) - o(yf) for yf, zf in zip(self.fibre, o.fibre, strict=True)]
        tm = self(o.time) - o(self.time)
        return TangentVectorField(self.chart, base, fib, tm, self.frame)

    def equals(self, other: TangentVectorField) -> bool:
        """Identity test across coordinate systems (trig-aware)."""
        o = self._align(other, "TangentVectorField.equals")
        pairs = list(zip(self.base, o.base, strict=True)) + list(zip(self.fibre, o.fibre, strict=True))
        pairs.append((self.time, o.time))
        return all(is_zero(a - b) for a, b in pairs)

    def is_vertical(self) -> bool:
        """True if the field is vertical (``τ_* Z = 0``, no ∂/∂t part)."""
        return all(is_zero(a) for a in self.base) and is_zero(self.time)

    def is_second_order(self) -> bool:
        r"""True if ``τ_* Z = u``: base components equal ``u`` (resp. ``v^i X_i``)."""
        target = self.chart.u if self.frame is None else tuple(self.frame.u_in_v)
        return all(is_zero(a - b) for a, b in zip(self.base, target, strict=True))

    # ------------------------------------------------------------- display
    def __repr__(self) -> str:
        terms = [f"({a})*∂/∂{x}" for a, x in zip(self.base, self.chart.q, strict=True) if a != 0]
        terms += [f"({b})*∂/∂{w}" for b, w in zip(self.fibre, self.fibre_symbols, strict=True) if b != 0]
        if self.time != 0:
            terms.append(f"({self.time})*∂/∂t")
        return " + ".join(terms) if terms else "0"

    def _repr_latex_(self) -> str:
        terms = [
            rf"\left({sp.latex(a)}\right)\frac{{\partial}}{{\partial {sp.latex(x)}}}"
            for a, x in list(zip(self.base, self.chart.q, strict=True))
            + list(zip(self.fibre, self.fibre_symbols, strict=True))
            if a != 0
        ]
        if self.time != 0:
            terms.append(rf"\left({sp.latex(self.time)}\right)\frac{{\partial}}{{\partial t}}")
        return "$" + (" + ".join(terms) if terms else "0") + "$"
