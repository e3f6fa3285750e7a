r"""Lagrangians and Euler–Lagrange fields relative to any frame.

Crampin–Mestdag, section 2.2, Proposition 1: for a regular Lagrangian there is
a unique second-order field ``Γ = v^i X_i^C + Γ^i X_i^V`` with
``Γ(X_i^V L) − X_i^C L = 0``; in the coordinates ``(q, v)`` of the frame

    g_ij Γ^j = X_i^C(L) − v^j X_j(X_i^V L) − ∂_t X_i^V L,   g_ij = X_i^V X_j^V L.

With the lifted frame in ``(q, v)`` these are Hamel's equations,
``Γ(∂L/∂v^i) − X_i^j ∂L/∂q^j + R^j_ik v^k ∂L/∂v^j = 0``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any

import sympy as sp
from sympy.logic.boolalg import BooleanTrue

from .._value import Value, cached_method
from ..algebra import derivative, expect, hessian, is_zero, solve_linear, tidy
from ..algebra.internal import as_expr, as_flag, budgeted, canon
from ..algebra.internal import short_repr as _short
from ..errors import ArgumentError, FramesError, InvalidExpressionError, RegularityError
from ..geometry import Chart, Frame, SecondOrderField, VectorField
from ._checks import check_forces

__all__ = ["Equations", "Lagrangian", "frame_el_terms"]


class Equations(tuple):  # type: ignore[type-arg]
    """A tuple of sympy equations that prints as an aligned LaTeX block in notebooks.

    Examples
    --------
    >>> import sympy as sp
    >>> x = sp.Symbol("x")
    >>> print(Equations([sp.Eq(x, 1)]).latex())
    \\begin{aligned} x &= 1 \\end{aligned}
    """

    def __new__(cls, eqs: Any = ()) -> Equations:
        if isinstance(eqs, str | bytes):
            raise InvalidExpressionError(f"Equations: eqs: got the string {_short(eqs)}; strings are never parsed here")
        if isinstance(eqs, Mapping | sp.Basic) or not isinstance(eqs, Iterable):
            raise ArgumentError(f"Equations: eqs: expected a sequence of sympy equations, got {type(eqs).__name__}")
        items = tuple(eqs)
        for k, e in enumerate(items):
            if not isinstance(e, sp.Equality | BooleanTrue):
                raise ArgumentError(
                    f"Equations: eqs[{k}]: expected a sympy equation (sympy.Eq), got {type(e).__name__} {_short(e, 60)}"
                )
        return super().__new__(cls, items)

    def latex(self) -> str:
        """The equations as a LaTeX ``aligned`` block."""
        rows = [sp.latex(e.lhs) + " &= " + sp.latex(e.rhs) for e in self]
        return r"\begin{aligned} " + r" \\ ".join(rows) + r" \end{aligned}"

    def _repr_latex_(self) -> str:
        return "$" + self.latex() + "$"


def frame_el_terms(
    Lv: sp.Expr, frame: Frame, rows: Sequence[int], subs: dict[sp.Symbol, Any], t: sp.Symbol | None
) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
    r"""Hessian rows and right-hand sides of ``Γ(X_i^V L) − X_i^C L = 0``.

    Returns ``(g, r)`` with ``g[i, j] = X_i^V X_j^V L`` for ``i`` in ``rows`` and
    all ``j``, and ``r_i = X_i^C(L) − v^j X_j(X_i^V L) − ∂_t X_i^V L``, both
    evaluated with ``subs`` (``v^a = 0`` on a constraint submanifold).
    Then ``Γ(X_i^V L) − X_i^C L = g_ij Γ^j − r_i``.
    """
    n = frame.dim
    v = frame.v
    dLdv = [derivative(Lv, vi) for vi in v]
    g = sp.zeros(len(rows), n)
    r = sp.zeros(len(rows), 1)
    u_in_v = frame.u_in_v
    for a, i in enumerate(rows):
        h = dLdv[i]
        for j in range(n):
            g[a, j] = canon(derivative(h, v[j]).xreplace(subs))
        # d/dt of X_i^V L along the base motion u = v^j X_j (∂_t only for a time-dependent L)
        drift = frame.chart.total_derivative(h, velocities=u_in_v, time=t is not None)
        r[a, 0] = canon((frame.apply_complete(i, Lv) - drift).xreplace(subs))
    return sp.ImmutableMatrix(g), sp.ImmutableMatrix(r)


class Lagrangian(Value):
    r"""A Lagrangian ``L(q, u, t)`` on TQ.

    Parameters
    ----------
    chart : Chart
        The natural chart; ``L`` may use its ``q``, ``u``, ``t`` and declared ``params``.
    expr : sympy expression
        The Lagrangian.
    params : str or sequence of Symbol, optional
        Further declared parameters (added to the chart's).

    Raises
    ------
    InvalidExpressionError
        If ``expr`` uses undeclared symbols.

    Examples
    --------
    >>> import frames as fr
    >>> ch = fr.Chart("q1 q2 q3")
    >>> L = fr.Lagrangian(ch, sum(ui**2 for ui in ch.u) / 2)
    >>> L.hessian()
    Matrix([
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1]])
    """

    chart: Chart
    expr: sp.Expr

    def __init__(self, chart: Chart, expr: object, params: Any = None) -> None:
        expect(chart, Chart, name="Lagrangian: chart")
        if params is not None:
            try:
                chart = chart.with_params(params)
            except FramesError as exc:
                raise type(exc)(f"Lagrangian: params: {exc}") from None
        e = chart.check_on_TQ(expr, "Lagrangian: expr")
        self.chart = chart
        self.expr = e

    @property
    def time_dependent(self) -> bool:
        """True if ``L`` depends explicitly on ``t``."""
        return self.chart.t is not None and self.chart.t in self.expr.free_symbols

    def __repr__(self) -> str:
        return f"L = {self.expr}"

    def _repr_latex_(self) -> str:
        return "$L = " + sp.latex(self.expr) + "$"

    def _check_frame(self, frame: Frame | None, what: str = "Lagrangian: frame") -> Frame:
        if frame is None:
            return self._coordinate_frame
        expect(frame, Frame, name=what, what="a Frame (or None)")
        self.chart.require_same(frame.chart, what)
        return frame

    @cached_property
    def _coordinate_frame(self) -> Frame:
        return Frame.coordinate(self.chart)

    def in_frame(self, frame: Frame | None = None) -> sp.Expr:
        """``L`` written in ``(q, v, t)``: ``u`` replaced by ``v^i X_i``."""
        return self._in_frame(self._check_frame(frame, "Lagrangian.in_frame: frame"))

    @cached_method
    def _in_frame(self, F: Frame) -> sp.Expr:
        return sp.expand(self.expr.xreplace(dict(zip(self.chart.u, F.u_in_v, strict=True))))

    def hessian(self, frame: Frame | None = None) -> sp.ImmutableMatrix:
        r"""``g_ij = X_i^V X_j^V L`` in ``(q, v)`` (natural ``∂²L/∂u^i∂u^j`` when ``frame`` is None)."""
        if frame is None:
            return canon(hessian(self.expr, self.chart.u))
        Lv = self.in_frame(self._check_frame(frame, "Lagrangian.hessian: frame"))
        return canon(hessian(Lv, frame.v))

    def energy(self, frame: Frame | None = None) -> sp.Expr:
        r"""``E = v^i X_i^V(L) − L`` (``u^i ∂L/∂u^i − L`` when ``frame`` is None)."""
        if frame is None:
            return canon(sum((ui * derivative(self.expr, ui) for ui in self.chart.u), sp.S.Zero) - self.expr)
        Lv = self.in_frame(self._check_frame(frame, "Lagrangian.energy: frame"))
        return canon(sum((vi * derivative(Lv, vi) for vi in frame.v), sp.S.Zero) - Lv)

    def hessian_rank(self, frame: Frame | None = None) -> int:
        """Rank of the Hessian (generic rank, exact zero tests)."""
        if frame is not None:
            self._check_frame(frame, "Lagrangian.hessian_rank: frame")
        return int(self.hessian(frame).rank(iszerofunc=is_zero))

    def is_regular(self, frame: Frame | None = None) -> bool:
        """True if the Hessian is nonsingular (generically)."""
        if frame is not None:
            self._check_frame(frame, "Lagrangian.is_regular: frame")
        return not is_zero(self.hessian(frame).det(method="bareiss"))

    def momenta(self, frame: Frame | None = None) -> sp.ImmutableMatrix:
        """Momenta ``p_i = X_i^V(L)`` in ``(q, v)`` (natural ``∂L/∂u^i`` when ``frame`` is None)."""
        if frame is None:
            return sp.ImmutableMatrix([derivative(self.expr, ui) for ui in self.chart.u])
        Lv = self.in_frame(self._check_frame(frame, "Lagrangian.momenta: frame"))
        return sp.ImmutableMatrix([derivative(Lv, vi) for vi in frame.v])

    def euler_lagrange_field(self, frame: Frame | None = None, *, forces: Any = None) -> SecondOrderField:
        r"""The Euler–Lagrange field relative to ``frame`` (Proposition 1), with forces if given.

        With a force one-form ``F = F_i dq^i`` (``forces``: its ``n`` components, functions of ``q, u, t``), the
        field solves ``Γ(X_i^V L) − X_i^C L = F(X_i)`` for every ``i`` (Lagrange's equations with forces).

        Raises
        ------
        RegularityError
            If the Hessian is singular; the message gives its rank.
        """
        F = self._check_frame(frame, "Lagrangian.euler_lagrange_field: frame")
        Fq = check_forces(self.chart, forces, "Lagrangian.euler_lagrange_field: forces")
        Lv = self.in_frame(F)
        g, r = frame_el_terms(Lv, F, range(F.dim), {}, self.chart.t if self.time_dependent else None)
        if Fq is not None:  # F(X_i) = F_j X_i^j in (q, v)
            r = sp.ImmutableMatrix(
                [
                    canon(r[i] + F.to_quasi(sp.Add(*[F.matrix[i, j] * Fq[j] for j in range(F.dim)])))
                    for i in range(F.dim)
                ]
            )
        try:
            G = solve_linear(g, r, what=f"Euler-Lagrange field of {self.expr}")
        except RegularityError:
            rank = sp.Matrix(g).rank(iszerofunc=is_zero)
            raise RegularityError(
                f"Lagrangian {self.expr} is not regular: its Hessian in the frame has rank {rank} < {F.dim}; "
                "Proposition 1 needs a regular Lagrangian (use frames.CartanSystem for singular ones)"
            ) from None
        return SecondOrderField(F, [tidy(x) for x in G], time_dependent=self.time_dependent)

    def epsilon(self, Z: VectorField, Gamma: SecondOrderField) -> sp.Expr:
        r"""``ε(Z) = Γ(Z^V L) − Z^C L`` in the frame coordinates of ``Gamma``.

        ``ε`` is C∞(Q)-linear in ``Z`` (Crampin–Mestdag section 2.2).
        """
        expect(Z, VectorField, name="Lagrangian.epsilon: Z")
        expect(Gamma, SecondOrderField, name="Lagrangian.epsilon: Gamma")
        self.chart.require_same(Z.chart, "Lagrangian.epsilon: Z")
        F = self._check_frame(Gamma.frame, "Lagrangian.epsilon: Gamma")
        Zc = Z.complete_lift().in_frame(F)
        Zv = Z.vertical_lift().in_frame(F)
        Lv = self.in_frame(F)
        return canon(Gamma(Zv(Lv)) - Zc(Lv).xreplace(Gamma.on_constraint))

    @budgeted("Lagrangian.hamel_equations")
    def hamel_equations(self, frame: Frame | None = None, kinematic: bool = False) -> Equations:
        r"""Hamel's equations (Crampin–Mestdag, end of section 2.2).

        ``d/dt ∂L/∂v^i − X_i^j ∂L/∂q^j + R^j_ik v^k ∂L/∂v^j = 0``, i = 1..n,
        returned as sympy equations in functions ``q^j(t)``, ``v^i(t)`` (named like the
        symbols); with ``kinematic=True`` the equations ``q̇^j = v^i X_i^j`` follow.
        The result prints as LaTeX (:class:`Equations`).

        Examples
        --------
        >>> import frames as fr
        >>> ch = fr.Chart("x"); (x,), (u,) = ch.q, ch.u
        >>> (eq,) = fr.Lagrangian(ch, u**2 / 2 - x**2 / 2).hamel_equations()
        >>> t = sp.Symbol("t")
        >>> sp.expand(eq.lhs - sp.Function("v1")(t).diff(t) - sp.Function("x")(t))
        0
        """
        F = self._check_frame(frame, "Lagrangian.hamel_equations: frame")
        kinematic = as_flag(kinematic, name="Lagrangian.hamel_equations: kinematic")
        Lv = self.in_frame(F)
        t = self.chart.t if self.chart.t is not None else sp.Symbol("t")
        n = F.dim
        R = F.anholonomy
        sub = self.chart.in_time(*F.v)
        qf = [sub[q] for q in self.chart.q]
        eqs = []
        for i in range(n):
            dv = derivative(Lv, F.v[i])
            lhs = derivative(dv.xreplace(sub), t)
            lhs -= sp.Add(*[F.matrix[i, j] * derivative(Lv, self.chart.q[j]) for j in range(n)]).xreplace(sub)
            lhs += sp.Add(*[R[j, i, k] * F.v[k] * derivative(Lv, F.v[j]) for j in range(n) for k in range(n)]).xreplace(
                sub
            )
            eqs.append(sp.Eq(lhs, 0))
        if kinematic:
            eqs += [sp.Eq(sp.Derivative(qf[j], t), F.u_in_v[j].xreplace(sub), evaluate=False) for j in range(n)]
        return Equations(eqs)

    def check_regular(self, frame: Frame | None = None) -> None:
        """Raise :class:`RegularityError` (with the rank) unless the Hessian is nonsingular."""
        F = self._check_frame(frame, "Lagrangian.check_regular: frame")
        if not self.is_regular(F):
            raise RegularityError(
                f"Lagrangian {self.expr} is not regular: its Hessian has rank {self.hessian_rank(F)} < {F.dim}"
            )

    def with_expr(self, expr: object) -> Lagrangian:
        """A Lagrangian on the same chart with another expression."""
        return Lagrangian(self.chart, as_expr(expr, name="Lagrangian.with_expr: expr"))
