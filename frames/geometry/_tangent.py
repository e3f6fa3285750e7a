r"""Vector fields on TQ: lifts, brackets, second-order fields.

A :class:`TangentVectorField` is stored in one of two coordinate systems on
TQ: natural coordinates ``(q, u)`` (``frame is None``) or the coordinates
``(q, v)`` of a frame (``frame`` set). It acts on functions written in its own
coordinates and converts between the two on request (:meth:`~TangentVectorField.in_natural`,
:meth:`~TangentVectorField.in_frame`). A ``∂/∂t`` component is carried for
time-dependent systems.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import sympy as sp

from .._value import Value
from ..algebra import (
    as_expr,
    as_exprs,
    as_int,
    as_subs,
    budgeted,
    canon,
    canon_matrix,
    derivative,
    expect,
    is_zero,
    replace_atoms,
    tidy,
    tidy_matrix,
)
from ..errors import ArgumentError, ChartMismatchError, InvalidExpressionError
from ._chart import Chart

if TYPE_CHECKING:
    from ._frame import Frame

__all__ = ["SecondOrderField", "TangentVectorField"]


def _col(x: Any, n: int, what: str) -> sp.ImmutableMatrix:
    """``n`` scalar expressions (strings never parsed; nan, oo, I refused) as a canonical column."""
    return canon_matrix(as_exprs(x, name=what, length=n))


# The class Frame (``_frame``, which imports this module) registers itself here for the type checks of
# the arguments ``frame`` (this module may not import ``_frame``).
_FRAME_TYPE: list[type] = []


def register_frame_type(cls: type) -> None:
    """Record :class:`~frames.Frame` for the argument checks of this module (called by ``_frame``)."""
    _FRAME_TYPE[:] = [cls]


def _frame_type() -> type:
    return _FRAME_TYPE[0] if _FRAME_TYPE else object


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


@dataclass(frozen=True, eq=True, repr=False)
class TangentVectorField:
    r"""A vector field on TQ: ``Z = a^i ∂_{q^i} + b^i ∂_{w^i} (+ c ∂_t)``.

    ``w`` are the natural velocities ``u`` when ``frame`` is None, otherwise the
    frame's quasi-velocities ``v``.
    """

    chart: Chart
    base: sp.ImmutableMatrix
    fibre: sp.ImmutableMatrix
    time: sp.Expr
    frame: Frame | None

    def __init__(
        self,
        chart: Chart,
        base: Sequence[Any] | sp.MatrixBase,
        fibre: Sequence[Any] | sp.MatrixBase,
        time: object = 0,
        frame: Frame | None = None,
    ) -> None:
        expect(chart, Chart, name="TangentVectorField: chart")
        if frame is not None:
            expect(frame, _frame_type(), name="TangentVectorField: frame", what="a Frame or None")
            if frame.chart.q != chart.q:
                raise ChartMismatchError(f"TangentVectorField: frame: frame on {frame.chart!r}, field on {chart!r}")
        n = chart.dim
        object.__setattr__(self, "chart", chart)
        object.__setattr__(self, "base", _col(base, n, "TangentVectorField: base"))
        object.__setattr__(self, "fibre", _col(fibre, n, "TangentVectorField: fibre"))
        object.__setattr__(self, "time", canon(as_expr(time, name="TangentVectorField: time")))
        object.__setattr__(self, "frame", frame)

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

    def in_frame(self, frame: Frame) -> TangentVectorField:
        r"""The same field written in the coordinates ``(q, v)`` of ``frame``."""
        expect(frame, _frame_type(), name="TangentVectorField.in_frame: frame", what="a Frame")
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


class SecondOrderField(Value):
    r"""A second-order field ``Γ = v^i X_i^C + Γ^i X_i^V (+ ∂/∂t)`` written in a frame.

    Parameters
    ----------
    frame : Frame
        The frame ``{X_i}``.
    Gamma : sequence of expressions
        The coefficients ``Γ^i`` of ``X_i^V``, functions of ``(q, v, t)``.
    m : int, optional
        If given, the field is defined on the constraint submanifold
        ``C = {v^a = 0, a > m}`` only (nonholonomic or vakonomic fields), and
        ``Γ^a`` for ``a > m`` are its transverse components.
    time_dependent : bool
        Whether the field carries a ``∂/∂t`` term.

    Notes
    -----
    In the coordinates ``(q, v)`` the field reads
    ``Γ = v^i X_i^j ∂_{q^j} + Γ^j ∂_{v^j}`` because ``v^i v^k R^j_ik = 0``:
    the equations of motion are ``q̇ = v^i X_i(q)``, ``v̇ = Γ``.
    """

    frame: Frame
    Gamma: sp.ImmutableMatrix
    m: int | None = None
    time_dependent: bool = False

    def __init__(self, frame: Frame, Gamma: Any, m: int | None = None, time_dependent: bool = False) -> None:
        expect(frame, _frame_type(), name="SecondOrderField: frame", what="a Frame")
        if m is not None:
            m = as_int(m, name="SecondOrderField: m", min=0, max=frame.dim)
        if not isinstance(time_dependent, bool | np.bool_):
            raise ArgumentError(f"SecondOrderField: time_dependent: expected True or False, got {time_dependent!r}")
        object.__setattr__(self, "frame", frame)
        object.__setattr__(self, "Gamma", _col(Gamma, frame.dim, "SecondOrderField: Gamma"))
        object.__setattr__(self, "m", m)
        object.__setattr__(self, "time_dependent", bool(time_dependent))

    @classmethod
    def _trees(cls, frame: Frame, Gamma: Sequence[sp.Expr], m: int | None, time_dependent: bool) -> SecondOrderField:
        """A field whose ``Γ^i`` (exact sympy expressions computed by the library) are kept as they are, not
        canonicalised: the fast path's result (:meth:`canonical` writes them in canonical form)."""
        new = object.__new__(cls)
        object.__setattr__(new, "frame", frame)
        object.__setattr__(new, "Gamma", sp.ImmutableMatrix(list(Gamma)))
        object.__setattr__(new, "m", m)
        object.__setattr__(new, "time_dependent", bool(time_dependent))
        return new

    @property
    def chart(self) -> Chart:
        """The chart of the frame."""
        return self.frame.chart

    @property
    def on_constraint(self) -> dict[sp.Symbol, sp.Expr]:
        """The substitution ``v^a = 0`` defining C (empty for a field on all of TQ)."""
        if self.m is None:
            return {}
        return self.frame.on_constraint(self.m)

    def as_vector_field(self) -> TangentVectorField:
        """The field as a :class:`TangentVectorField` in the frame coordinates ``(q, v)``."""
        return TangentVectorField(
            self.chart, self.frame.u_in_v, self.Gamma, 1 if self.time_dependent else 0, self.frame
        )

    def __call__(self, f: object) -> sp.Expr:
        """``Γ(f)`` for ``f(q, v, t)``, evaluated on C when the field lives there."""
        e = self.as_vector_field()(as_expr(f, name="SecondOrderField.__call__: f"))
        return e.xreplace(self.on_constraint) if self.m is not None else e

    def accelerations(self) -> sp.ImmutableMatrix:
        r"""``q̈`` as functions of ``(q, u, t)`` in natural coordinates.

        ``q̈^j = Γ^i X_i^j + v^i u^k ∂_k X_i^j`` with ``v = Θ u``.
        """
        F = self.frame
        n = F.dim
        u = self.chart.u
        acc = []
        for j in range(n):
            e = sp.Add(*[self.Gamma[i] * F.matrix[i, j] for i in range(n)])
            e += sp.Add(
                *[F.v[i] * u[k] * derivative(F.matrix[i, j], self.chart.q[k]) for i in range(n) for k in range(n)]
            )
            acc.append(tidy(F.to_natural(e)))
        return sp.ImmutableMatrix(acc)

    def in_frame(self, frame: Frame) -> SecondOrderField:
        r"""The same field written in another frame (coefficients of ``Y_i^V``).

        Computed as ``Γ'^i = Γ(w^i)`` with ``w^i = θ'^i_j u^j`` the new quasi-velocities.
        """
        expect(frame, _frame_type(), name="SecondOrderField.in_frame: frame", what="a Frame")
        if frame.chart.q != self.chart.q or frame.chart.u != self.chart.u:
            raise ChartMismatchError(
                f"SecondOrderField.in_frame: frame: frame on {frame.chart!r}, field on {self.chart!r}"
            )
        nat = self.as_vector_field().in_natural()
        Th = frame.coframe_matrix
        u = self.chart.u
        G = []
        for i in range(frame.dim):
            wi = sp.Add(*[Th[i, j] * u[j] for j in range(frame.dim)])
            G.append(frame.to_quasi(nat(wi)))
        m = self.m
        if m is not None:
            on_c = frame.on_constraint(m)
            G = [g.xreplace(on_c) for g in G]
        G = [tidy(g) for g in G]
        return SecondOrderField(frame, G, m=m, time_dependent=self.time_dependent)

    @budgeted("SecondOrderField.canonical")
    def canonical(self) -> SecondOrderField:
        """The same field with every ``Γ^i`` written by :func:`frames.algebra.tidy` (expanded, cancelled, reduced
        by ``sin² + cos² = 1``).

        The fast path (``NonholonomicSystem.field(canonical=False)``) returns exact trees; this writes them in
        the library's normal form (the time it takes is that of expanding and cancelling them). The expressions
        equal the default path's exactly (:func:`frames.algebra.is_zero` of the difference); where a Pythagorean
        identity leaves a choice, their written form may differ.
        """
        return SecondOrderField(self.frame, [tidy(g) for g in self.Gamma], m=self.m, time_dependent=self.time_dependent)

    def equals(self, other: SecondOrderField) -> bool:
        """True if both fields have the same accelerations in natural coordinates.

        For fields on C the comparison is made on C (natural velocities in D).
        """
        expect(other, SecondOrderField, name="SecondOrderField.equals: other")
        if self.chart.q != other.chart.q:
            raise ChartMismatchError("SecondOrderField.equals: other: fields on different charts")
        a, b = self.accelerations(), other.accelerations()
        if self.m is not None:
            F = self.frame
            on_c = F.on_constraint(self.m)
            a = sp.ImmutableMatrix([F.to_quasi(x).xreplace(on_c) for x in a])
            b = sp.ImmutableMatrix([F.to_quasi(x).xreplace(on_c) for x in b])
        return all(is_zero(x - y) for x, y in zip(a, b, strict=True))

    def equations(self) -> list[sp.Eq]:
        """The equations of motion ``q̇ = v^i X_i``, ``v̇^i = Γ^i`` as sympy equations."""
        t = self.chart.t if self.chart.t is not None else sp.Symbol("t")
        qf = [sp.Function(str(q))(t) for q in self.chart.q]
        vf = [sp.Function(str(v))(t) for v in self.frame.v]
        sub = dict(zip(self.chart.q, qf, strict=True)) | dict(zip(self.frame.v, vf, strict=True))
        eqs = [
            sp.Eq(
                sp.Derivative(qf[j], t), self.frame.u_in_v[j].xreplace(self.on_constraint).xreplace(sub), evaluate=False
            )
            for j in range(self.frame.dim)
        ]
        rng = range(self.frame.dim) if self.m is None else range(self.m)
        eqs += [sp.Eq(sp.Derivative(vf[i], t), replace_atoms(self.Gamma[i], sub), evaluate=False) for i in rng]
        return eqs

    def subs(self, values: dict[Any, Any]) -> SecondOrderField:
        r"""The field at specialized parameter values: ``Γ^i`` with ``values`` substituted.

        Keys must be declared parameters of the chart that do not occur in the frame
        (the frame, and with it the meaning of the ``Γ^i``, stays the same).

        Examples
        --------
        >>> import sympy as sp
        >>> import frames as fr
        >>> k = sp.Symbol("k")
        >>> ch = fr.Chart("x", "u", params=[k])
        >>> G = fr.SecondOrderField(fr.Frame.coordinate(ch), [-k * ch.q[0]])
        >>> G.subs({k: 4}).Gamma
        Matrix([[-4*x]])
        """
        if not isinstance(values, Mapping):
            raise ArgumentError(f"SecondOrderField.subs: values: expected a mapping parameter -> value, got {values!r}")
        values = as_subs(values, name="SecondOrderField.subs: values")  # before any subs: strings are never parsed
        bad = [s for s in values if s not in self.chart.params]
        if bad:
            raise InvalidExpressionError(f"SecondOrderField.subs: values: {bad} are not parameters {self.chart.params}")
        in_frame = [s for s in values if self.frame.matrix.has(s)]
        if in_frame:
            raise InvalidExpressionError(
                f"SecondOrderField.subs: values: parameters {in_frame} occur in the frame; change the frame instead"
            )
        return SecondOrderField(
            self.frame, [canon(g.subs(values)) for g in self.Gamma], m=self.m, time_dependent=self.time_dependent
        )

    def simplified(self) -> SecondOrderField:
        """A copy with trig-simplified coefficients."""
        return SecondOrderField(self.frame, tidy_matrix(self.Gamma), self.m, self.time_dependent)

    def __repr__(self) -> str:
        n = self.frame.dim
        rng = range(n) if self.m is None else range(self.m)
        parts = [f"{self.frame.v[i]}*X{i + 1}^C" for i in rng]
        parts += [f"({self.Gamma[i]})*X{i + 1}^V" for i in range(n) if self.Gamma[i] != 0]
        if self.time_dependent:
            parts.append("∂/∂t")
        return "Γ = " + " + ".join(parts)

    def _repr_latex_(self) -> str:
        n = self.frame.dim
        rng = range(n) if self.m is None else range(self.m)
        parts = [rf"{sp.latex(self.frame.v[i])} X_{{{i + 1}}}^C" for i in rng]
        parts += [rf"\left({sp.latex(self.Gamma[i])}\right) X_{{{i + 1}}}^V" for i in range(n) if self.Gamma[i] != 0]
        if self.time_dependent:
            parts.append(r"\frac{\partial}{\partial t}")
        return r"$\Gamma = " + " + ".join(parts) + "$"
