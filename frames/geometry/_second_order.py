r"""Second-order fields ``Γ = v^i X_i^C + Γ^i X_i^V (+ ∂/∂t)`` written in a frame (Crampin–Mestdag section 2.2)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import sympy as sp

from .._value import Value
from ..algebra import derivative, expect, is_zero, tidy
from ..algebra.internal import as_expr, as_int, as_subs, budgeted, canon, checkpoint, replace_atoms
from ..errors import ArgumentError, ChartMismatchError, InvalidExpressionError
from ._chart import Chart
from ._frame import Frame
from ._tangent import TangentVectorField, _col

__all__ = ["SecondOrderField", "natural_accelerations"]


def natural_accelerations(frame: Frame, m: int, gamma: Sequence[sp.Expr]) -> list[sp.Expr]:
    r"""``q̈^j = Γ^α X_α^j + v^α u^k ∂_k X_α^j`` with ``v^α = θ^α_k u^k`` (α = 1..m): a field on C in natural form.

    ``gamma`` holds the ``Γ^α`` in ``(q, v)`` (further symbols, e.g. multipliers, are carried through).
    """
    chart = frame.chart
    q, u = chart.q, chart.u
    alpha = range(m)
    sub = {frame.v[al]: frame.v_in_u[al] for al in alpha}
    gam = []
    for al in alpha:  # each Γ^α (large) rewritten once, the budget checked between them
        checkpoint()
        gam.append(sp.sympify(gamma[al], strict=True).xreplace(sub))
    out = []
    for j in range(frame.dim):
        checkpoint()
        e = sp.Add(*[gam[al] * frame.matrix[al, j] for al in alpha])
        e += sp.Add(
            *[frame.v[al] * u[k] * derivative(frame.matrix[al, j], q[k]) for al in alpha for k in range(frame.dim)]
        ).xreplace(sub)
        out.append(e)
    return out


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
        expect(frame, Frame, name="SecondOrderField: frame", what="a Frame")
        if m is not None:
            m = as_int(m, name="SecondOrderField: m", min=0, max=frame.dim)
        if not isinstance(time_dependent, bool | np.bool_):
            raise ArgumentError(f"SecondOrderField: time_dependent: expected True or False, got {time_dependent!r}")
        self.frame = frame
        self.Gamma = _col(Gamma, frame.dim, "SecondOrderField: Gamma")
        self.m = m
        self.time_dependent = bool(time_dependent)

    @classmethod
    def _trees(cls, frame: Frame, Gamma: Sequence[sp.Expr], m: int | None, time_dependent: bool) -> SecondOrderField:
        """A field whose ``Γ^i`` (exact sympy expressions computed by the library) are kept as they are, not
        canonicalised: the fast path's result (:meth:`canonical` writes them in canonical form)."""
        return cls._from_fields(  # type: ignore[no-any-return]
            frame=frame, Gamma=sp.ImmutableMatrix(list(Gamma)), m=m, time_dependent=bool(time_dependent)
        )

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
        return sp.ImmutableMatrix([tidy(canon(x)) for x in natural_accelerations(F, F.dim, list(self.Gamma))])

    def in_frame(self, frame: Frame) -> SecondOrderField:
        r"""The same field written in another frame (coefficients of ``Y_i^V``).

        Computed as ``Γ'^i = Γ(w^i)`` with ``w^i = θ'^i_j u^j`` the new quasi-velocities.
        """
        expect(frame, Frame, name="SecondOrderField.in_frame: frame", what="a Frame")
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
        sub = self.chart.in_time(*self.frame.v)
        qf = [sub[q] for q in self.chart.q]
        vf = [sub[v] for v in self.frame.v]
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
        return SecondOrderField(self.frame, tidy(self.Gamma), self.m, self.time_dependent)

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
