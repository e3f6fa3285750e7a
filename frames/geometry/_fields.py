r"""Vector fields and 1-forms on Q.

Conventions (DESIGN.md): ``Z = Z^i ∂/∂q^i``; the bracket is
``[Y, Z](f) = Y(Z f) − Z(Y f)``, so ``[Y,Z]^k = Y^j ∂_j Z^k − Z^j ∂_j Y^k``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import sympy as sp

from .._value import Value
from ..algebra import derivative, expect, is_zero
from ..algebra.internal import as_expr, as_int, canon
from ..errors import ArgumentError, ChartMismatchError, InvalidExpressionError
from ._chart import Chart
from ._tangent import TangentVectorField, derivation

__all__ = ["OneForm", "VectorField", "bracket"]


def _components(chart: Chart, comps: Any, what: str) -> sp.ImmutableMatrix:
    """``comps`` checked entry by entry (functions on Q, finite, real; strings never parsed) before any Matrix."""
    if isinstance(comps, sp.MatrixBase | np.ndarray):
        comps = list(comps)
    if isinstance(comps, str | bytes) or not isinstance(comps, Sequence | sp.NDimArray):
        raise InvalidExpressionError(f"{what}: components must be a sequence of expressions, got {comps!r}")
    comps = list(comps)
    if len(comps) != chart.dim:
        raise InvalidExpressionError(
            f"{what}: components: {len(comps)} components given on a chart of dimension {chart.dim} {chart.q}"
        )
    checked = [chart.check_on_Q(c, f"{what}: components[{k}]") for k, c in enumerate(comps)]
    return canon(sp.Matrix(checked))


class VectorField(Value):
    r"""A vector field ``Z = Z^i ∂/∂q^i`` on the chart's domain of Q.

    Components are functions of q (and of t and declared parameters); they
    are stored in canonical rational form, so equality is structural
    equality after ``cancel``. Use :meth:`equals` for an identity test that
    also knows trigonometric identities.

    Examples
    --------
    >>> from frames import Chart, VectorField, bracket
    >>> ch = Chart("q1 q2 q3"); q1, q2, q3 = ch.q
    >>> X1 = VectorField(ch, [1, 0, 0]); X2 = VectorField(ch, [0, 1, -q1])
    >>> bracket(X1, X2)
    -∂/∂q3
    >>> X2(q1 * q3)
    -q1**2
    """

    chart: Chart
    components: sp.ImmutableMatrix

    def __init__(self, chart: Chart, components: Any) -> None:
        expect(chart, Chart, name="VectorField: chart")
        self.chart = chart
        self.components = _components(chart, components, "VectorField")

    @classmethod
    def _raw(cls, chart: Chart, components: sp.ImmutableMatrix) -> VectorField:
        return cls._from_fields(chart=chart, components=components)  # type: ignore[no-any-return]

    @classmethod
    def coordinate(cls, chart: Chart, i: int) -> VectorField:
        """The coordinate field ``∂/∂q^i`` (0-based ``i``)."""
        expect(chart, Chart, name="VectorField.coordinate: chart")
        i = as_int(i, name="VectorField.coordinate: i", min=0, max=chart.dim - 1)
        return cls._raw(chart, sp.ImmutableMatrix([1 if k == i else 0 for k in range(chart.dim)]))

    # -------------------------------------------------------------- action
    def __call__(self, f: object) -> sp.Expr:
        """Apply the field to a function: ``Z(f) = Z^i ∂f/∂q^i``."""
        e = as_expr(f, name="VectorField.__call__: f")
        return derivation(e, list(zip(self.components, self.chart.q, strict=True)))

    # ---------------------------------------------------------- arithmetic
    def _other(self, other: object, op: str) -> VectorField:
        expect(other, VectorField, name=f"VectorField.{op}: other")
        self.chart.require_same(other.chart, f"VectorField.{op}: other")  # type: ignore[attr-defined]
        return other  # type: ignore[return-value]

    def __add__(self, other: object) -> VectorField:
        o = self._other(other, "__add__")
        return VectorField._raw(
            self.chart.merged(o.chart, "VectorField.__add__: other"), canon(self.components + o.components)
        )

    def __sub__(self, other: object) -> VectorField:
        o = self._other(other, "__sub__")
        return VectorField._raw(
            self.chart.merged(o.chart, "VectorField.__sub__: other"), canon(self.components - o.components)
        )

    def __neg__(self) -> VectorField:
        return VectorField._raw(self.chart, sp.ImmutableMatrix(-self.components))

    def __mul__(self, f: object) -> VectorField:
        if isinstance(f, VectorField):
            raise ArgumentError("VectorField.__mul__: f: the product of two vector fields is not defined (use bracket)")
        g = self.chart.check_on_Q(f, "VectorField.__mul__: f")
        return VectorField._raw(self.chart, canon(self.components * g))

    __rmul__ = __mul__

    def __truediv__(self, f: object) -> VectorField:
        g = self.chart.check_on_Q(f, "VectorField.__truediv__: f")
        if is_zero(g):
            raise InvalidExpressionError(f"VectorField.__truediv__: f: division of {self!r} by zero")
        return VectorField._raw(self.chart, canon(self.components / g))

    # ----------------------------------------------------------- geometry
    def bracket(self, other: VectorField) -> VectorField:
        r"""Lie bracket ``[self, other]^k = Y^j ∂_j Z^k − Z^j ∂_j Y^k``."""
        expect(other, VectorField, name="VectorField.bracket: other", what="a VectorField on Q")
        chart = self.chart.merged(other.chart, "VectorField.bracket: other")
        comps = [canon(self(zk) - other(yk)) for yk, zk in zip(self.components, other.components, strict=True)]
        return VectorField._raw(chart, sp.ImmutableMatrix(comps))

    def complete_lift(self) -> TangentVectorField:
        r"""Complete lift ``Z^C = Z^i ∂_{q^i} + u^j (∂_j Z^i) ∂_{u^i}`` (natural coordinates)."""
        ch = self.chart
        fib = [canon(ch.total_derivative(zi, time=False)) for zi in self.components]
        return TangentVectorField.natural(ch, self.components, fib)

    def vertical_lift(self) -> TangentVectorField:
        r"""Vertical lift ``Z^V = Z^i ∂_{u^i}`` (natural coordinates)."""
        return TangentVectorField.natural(self.chart, [0] * self.chart.dim, self.components)

    def equals(self, other: VectorField) -> bool:
        """Identity test that also knows trigonometric identities."""
        expect(other, VectorField, name="VectorField.equals: other")
        self.chart.require_same(other.chart, "VectorField.equals: other")
        return all(is_zero(a - b) for a, b in zip(self.components, other.components, strict=True))

    def is_zero(self) -> bool:
        """True if every component vanishes identically."""
        return all(is_zero(c) for c in self.components)

    # ------------------------------------------------------------ display
    def __repr__(self) -> str:
        terms = []
        for c, x in zip(self.components, self.chart.q, strict=True):
            if c == 0:
                continue
            d = f"∂/∂{x}"
            if c == 1:
                terms.append(d)
            elif c == -1:
                terms.append(f"-{d}")
            elif c.is_Add:
                terms.append(f"({c})*{d}")
            else:
                terms.append(f"{c}*{d}")
        return " + ".join(terms).replace("+ -", "- ") if terms else "0"

    def _repr_latex_(self) -> str:
        terms = []
        for c, x in zip(self.components, self.chart.q, strict=True):
            if c == 0:
                continue
            d = r"\frac{\partial}{\partial " + sp.latex(x) + "}"
            coeff = sp.latex(c)
            if c == 1:
                terms.append(d)
            elif c == -1:
                terms.append("-" + d)
            else:
                terms.append((rf"\left({coeff}\right)" if c.is_Add else coeff) + " " + d)
        body = " + ".join(terms).replace("+ -", "- ") if terms else "0"
        return f"${body}$"


def bracket(Y: Any, Z: Any) -> Any:
    r"""Lie bracket ``[Y, Z]`` of two vector fields on Q, or of two fields on TQ.

    Raises
    ------
    ChartMismatchError
        If the fields live on different charts.
    """
    if isinstance(Y, VectorField) and isinstance(Z, VectorField):
        Y.chart.require_same(Z.chart, "bracket: Y, Z")
        return Y.bracket(Z)
    if isinstance(Y, TangentVectorField) and isinstance(Z, TangentVectorField):
        return Y.bracket(Z)
    fields = (VectorField, TangentVectorField)
    expect(Y, fields, name="bracket: Y", what="a VectorField or a TangentVectorField")
    expect(Z, fields, name="bracket: Z", what="a VectorField or a TangentVectorField")
    raise ChartMismatchError(f"bracket: Y, Z: {Y!r} and {Z!r} are not both vector fields on Q or both on TQ")


class OneForm(Value):
    r"""A 1-form ``θ = θ_i dq^i`` on Q.

    Examples
    --------
    >>> from frames import Chart, VectorField, OneForm
    >>> ch = Chart("x y"); x, y = ch.q
    >>> th = OneForm(ch, [y, 0])
    >>> th(VectorField(ch, [1, 1]))
    y
    >>> th.fibre_function()
    u_x*y
    """

    chart: Chart
    components: sp.ImmutableMatrix

    def __init__(self, chart: Chart, components: Any) -> None:
        expect(chart, Chart, name="OneForm: chart")
        self.chart = chart
        self.components = _components(chart, components, "OneForm")

    @classmethod
    def _raw(cls, chart: Chart, components: sp.ImmutableMatrix) -> OneForm:
        return cls._from_fields(chart=chart, components=components)  # type: ignore[no-any-return]

    def __call__(self, Z: VectorField) -> sp.Expr:
        """Evaluate on a vector field: ``θ(Z) = θ_i Z^i``."""
        expect(Z, VectorField, name="OneForm.__call__: Z")
        self.chart.require_same(Z.chart, "OneForm.__call__: Z")
        return canon(sum((a * b for a, b in zip(self.components, Z.components, strict=True)), sp.S.Zero))

    def __add__(self, other: OneForm) -> OneForm:
        expect(other, OneForm, name="OneForm.__add__: other")
        self.chart.require_same(other.chart, "OneForm.__add__: other")
        return OneForm._raw(self.chart, canon(self.components + other.components))

    def __sub__(self, other: OneForm) -> OneForm:
        expect(other, OneForm, name="OneForm.__sub__: other")
        self.chart.require_same(other.chart, "OneForm.__sub__: other")
        return OneForm._raw(self.chart, canon(self.components - other.components))

    def __mul__(self, f: object) -> OneForm:
        if isinstance(f, OneForm):
            raise ArgumentError("OneForm.__mul__: f: the product of two 1-forms is not defined here (use Form.wedge)")
        g = self.chart.check_on_Q(f, "OneForm.__mul__: f")
        return OneForm._raw(self.chart, canon(self.components * g))

    __rmul__ = __mul__

    def lie_derivative(self, Z: VectorField) -> OneForm:
        r"""``(L_Z θ)_i = Z^j ∂_j θ_i + θ_j ∂_i Z^j``."""
        expect(Z, VectorField, name="OneForm.lie_derivative: Z")
        self.chart.require_same(Z.chart, "OneForm.lie_derivative: Z")
        q = self.chart.q
        comps = [
            canon(
                Z(self.components[i])
                + sum((self.components[j] * derivative(Z.components[j], q[i]) for j in range(len(q))), sp.S.Zero)
            )
            for i in range(len(q))
        ]
        return OneForm._raw(self.chart, sp.ImmutableMatrix(comps))

    def exterior_derivative(self) -> sp.ImmutableMatrix:
        r"""``dθ`` as the skew matrix ``(dθ)_{ij} = ∂_i θ_j − ∂_j θ_i``.

        ``dθ(Y, Z) = (dθ)_{ij} Y^i Z^j = Y(θ(Z)) − Z(θ(Y)) − θ([Y, Z])``.
        """
        q = self.chart.q
        n = len(q)
        return sp.ImmutableMatrix(
            n, n, lambda i, j: canon(derivative(self.components[j], q[i]) - derivative(self.components[i], q[j]))
        )

    def fibre_function(self) -> sp.Expr:
        r"""The fibre-linear function ``v_θ = θ_i u^i`` on TQ."""
        return sp.Add(*[a * b for a, b in zip(self.components, self.chart.u, strict=True)])

    def is_closed(self) -> bool:
        """True if ``dθ = 0``."""
        return all(is_zero(x) for x in self.exterior_derivative())

    def __repr__(self) -> str:
        terms = [f"({c})*d{x}" for c, x in zip(self.components, self.chart.q, strict=True) if c != 0]
        return " + ".join(terms) if terms else "0"

    def _repr_latex_(self) -> str:
        terms = [
            rf"\left({sp.latex(c)}\right) d{sp.latex(x)}"
            for c, x in zip(self.components, self.chart.q, strict=True)
            if c != 0
        ]
        return "$" + (" + ".join(terms) if terms else "0") + "$"
