r"""Kozlov's vakonomic equations in natural coordinates (Lemos 2022, eqs. (16)–(17)).

With constraints ``V^a(q, u, t) = 0`` (linear or not) and multipliers ``λ_a``
treated as extra coordinates, the vakonomic equations are the Euler–Lagrange
equations of ``L̂ = L − λ_a V^a`` ([L] (16)):

    d/dt ∂L/∂u^k − ∂L/∂q^k = λ̇_a ∂V^a/∂u^k + λ_a (d/dt ∂V^a/∂u^k − ∂V^a/∂q^k),   V^a = 0   ([L] (17)).

For the quasi-velocities ``V^a = v^a = θ^a_j u^j`` of an adapted frame these
are the vakonomic equations of Crampin–Mestdag section 4 with ``λ_a = μ_a``
and ``λ̇_a = A_a`` (:func:`~frames.natural.compare_kozlov_with_frame`, module ``_kozlov_frame``,
checks this on any system). Talamucci's (T58) is the same system with ``μ^T = −λ``.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any

import sympy as sp

from .._value import Multipliers, cached_method
from ..algebra import derivative, expect, is_zero, solve_linear, tidy
from ..algebra.internal import as_expr, canon
from ..dynamics import DynamicsMethod, Equations, Lagrangian, OdeSystem
from ..dynamics.internal import check_symbols, exprs_on_TQ, natural_ode
from ..errors import ConstraintError, InvalidExpressionError, NoMultipliersError, RegularityError
from ..geometry import Chart

__all__ = ["KozlovSystem"]


def _names(prefix: str, syms: Sequence[sp.Symbol]) -> tuple[sp.Symbol, ...]:
    return tuple(sp.Symbol(f"{prefix}{s.name}") for s in syms)


def acceleration_symbols(chart: Chart) -> tuple[sp.Symbol, ...]:
    """The symbols ``a_<q>`` of the natural accelerations ``q̈`` (Kozlov's and Chetaev's equations)."""
    return _names("a_", chart.q)


def multiplier_symbols(lam: Any, k: int, what: str) -> tuple[tuple[sp.Symbol, ...], tuple[sp.Symbol, ...]]:
    """``(λ, λ̇)`` symbols from a prefix (``lam1``, ``lamdot1``, …) or given symbols (``λ̇`` named ``d<λ>``)."""
    if isinstance(lam, str):
        if not lam.isidentifier():
            raise InvalidExpressionError(f"{what}: lam: {lam!r} is not a valid name prefix (an identifier)")
        return tuple(sp.Symbol(f"{lam}{i + 1}") for i in range(k)), tuple(
            sp.Symbol(f"{lam}dot{i + 1}") for i in range(k)
        )
    lams = check_symbols(lam, name=f"{what}: lam")
    return lams, _names("d", lams)


def check_constrained(
    chart: Chart, V: tuple[sp.Expr, ...], lams: tuple[sp.Symbol, ...], lamd: tuple[sp.Symbol, ...], what: str
) -> None:
    """The checks of a Lagrangian with constraints ``V`` and multipliers ``λ``: at least one constraint,
    one multiplier each, no clash with the chart, ``rank ∂V/∂u`` maximal."""
    if not V:
        raise InvalidExpressionError(f"{what}: constraints: at least one constraint is required")
    k = len(V)
    if len(lams) != k or len(set(lams)) != k:
        raise InvalidExpressionError(f"{what}: lam: {len(lams)} multiplier symbols for {k} constraints")
    taken = set(chart.q) | set(chart.u) | set(chart.params) | ({chart.t} if chart.t is not None else set())
    clash = (set(lams) | set(lamd) | set(acceleration_symbols(chart))) & taken
    if clash:
        raise InvalidExpressionError(f"{what}: lam: symbols {sorted(map(str, clash))} clash with the chart")
    J = sp.Matrix([[derivative(v, u) for u in chart.u] for v in V])
    if J.rank(iszerofunc=is_zero) < k:
        raise ConstraintError(f"{what}: constraints: {V} are not independent in the velocities (rank ∂V/∂u < {k})")


class KozlovSystem(DynamicsMethod):
    r"""The Euler–Lagrange equations of ``L − λ_a V^a`` with ``λ`` as extra coordinates ([L] (17)).

    Parameters
    ----------
    lagrangian : Lagrangian
    constraints : sequence of expressions
        ``V^a(q, u, t)``; any smooth functions with ``rank ∂V/∂u`` maximal.
    lam : str or sequence of Symbol
        Prefix (``"lam"`` gives ``lam1, lam2, …``) or the multiplier symbols.

    Attributes
    ----------
    acc : tuple
        Symbols for ``q̈^k`` (``a_<q>``); ``lamdot`` the symbols for ``λ̇_a``.

    Examples
    --------
    >>> import frames as fr
    >>> ch = fr.Chart("x y z")
    >>> x, y, z = ch.q; ux, uy, uz = ch.u
    >>> K = fr.KozlovSystem(fr.Lagrangian(ch, (ux**2 + uy**2 + uz**2) / 2), [uz - y * ux])
    >>> K.residuals()[0]
    a_x + lam1*u_y + lamdot1*y
    """

    lagrangian: Lagrangian
    constraints: tuple[sp.Expr, ...]
    lam: tuple[sp.Symbol, ...]
    lamdot: tuple[sp.Symbol, ...] = field(compare=False, repr=False)
    qdd: tuple[sp.Symbol, ...] = field(compare=False, repr=False)

    def _latex_rows(self) -> list[tuple[str, str]]:
        rows = [("L", sp.latex(self.lagrangian.expr))]
        rows += [(rf"\phi^{{{a + 1}}}", sp.latex(c) + r" = 0") for a, c in enumerate(self.constraints)]
        return rows

    def __init__(self, lagrangian: Lagrangian, constraints: Sequence[Any], lam: str | Sequence[sp.Symbol] = "lam"):
        what = "KozlovSystem"
        expect(lagrangian, Lagrangian, name=f"{what}: lagrangian")
        self.lagrangian = lagrangian
        self.constraints = exprs_on_TQ(lagrangian.chart, constraints, name=f"{what}: constraints")
        self.lam, self.lamdot = multiplier_symbols(lam, len(self.constraints), what)
        self.qdd = acceleration_symbols(lagrangian.chart)

    def __check_init__(self) -> None:
        check_constrained(self.chart, self.constraints, self.lam, self.lamdot, "KozlovSystem")

    @property
    def chart(self) -> Any:
        """The natural chart."""
        return self.lagrangian.chart

    def __repr__(self) -> str:
        return f"KozlovSystem(L = {self.lagrangian.expr}, V = {self.constraints})"

    def ddt(self, f: object) -> sp.Expr:
        r"""Total derivative ``u ∂_q + q̈ ∂_u + λ̇ ∂_λ + ∂_t`` of ``f(q, u, λ, t)``."""
        ch = self.chart
        e = as_expr(f, name="KozlovSystem.ddt: f")
        out = sp.Add(*[u * derivative(e, q) for q, u in zip(ch.q, ch.u, strict=True)])
        out += sp.Add(*[a * derivative(e, u) for u, a in zip(ch.u, self.qdd, strict=True)])
        out += sp.Add(*[d * derivative(e, lm) for lm, d in zip(self.lam, self.lamdot, strict=True)])
        if ch.t is not None:
            out += derivative(e, ch.t)
        return out

    def lagrangian_hat(self) -> sp.Expr:
        r"""``L̂ = L − λ_a V^a`` ([L] (16))."""
        return self.lagrangian.expr - sp.Add(*[lm * v for lm, v in zip(self.lam, self.constraints, strict=True)])

    def residuals(self) -> tuple[sp.Expr, ...]:
        r"""``d/dt ∂L̂/∂u^k − ∂L̂/∂q^k`` for k = 1..n (each vanishes along a vakonomic motion)."""
        ch = self.chart
        Lh = self.lagrangian_hat()
        return tuple(canon(self.ddt(derivative(Lh, u)) - derivative(Lh, q)) for q, u in zip(ch.q, ch.u, strict=True))

    def jacobian(self) -> sp.ImmutableMatrix:
        r"""``∂V^a/∂u^k`` (k × n)."""
        return sp.ImmutableMatrix([[derivative(v, u) for u in self.chart.u] for v in self.constraints])

    def equations(self) -> Equations:
        r"""The vakonomic equations ([L] (17)) as ``residual = 0`` (:meth:`residuals`), then ``V^a = 0``."""
        return Equations(
            [
                *(sp.Eq(r, 0, evaluate=False) for r in self.residuals()),
                *(sp.Eq(v, 0, evaluate=False) for v in self.constraints),
            ]
        )

    def solution(self) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        r"""Deprecated: ``(accelerations(), rates())``.

        .. deprecated::
            Use :meth:`accelerations` (the method base) and :meth:`rates`; removed in a later release.
        """
        warnings.warn(
            "KozlovSystem.solution() is deprecated: use accelerations() and rates()", DeprecationWarning, stacklevel=2
        )
        return self._solved()

    def rates(self) -> sp.ImmutableMatrix:
        r"""The rates ``λ̇_a`` of the multiplier states, functions of ``(q, u, λ, t)`` (solved with
        :meth:`accelerations` from (17) and ``d/dt V^a = 0``).

        Raises
        ------
        RegularityError
            If the saddle-point matrix ``[[∂²L̂/∂u∂u, −J^T], [J, 0]]`` is singular.
        """
        return self._solved()[1]

    @cached_method
    def _solved(self) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        """``(q̈, λ̇)`` from (17) and ``d/dt V^a = 0``: one linear solve."""
        unknowns = list(self.qdd) + list(self.lamdot)
        eqs = list(self.residuals()) + [canon(self.ddt(v)) for v in self.constraints]
        M = sp.Matrix([[derivative(e, s) for s in unknowns] for e in eqs])
        b = -sp.Matrix([e.xreplace(dict.fromkeys(unknowns, 0)) for e in eqs])
        try:
            x = solve_linear(M, b, what="lagrangian, constraints: Kozlov equations")
        except RegularityError as exc:
            raise RegularityError(f"KozlovSystem.solution: {exc}") from exc
        n = len(self.qdd)
        return sp.ImmutableMatrix([tidy(e) for e in x[:n]]), sp.ImmutableMatrix([tidy(e) for e in x[n:]])

    def ode_system(self, *, subs: Mapping[Any, Any] | None = None) -> OdeSystem:
        r"""Kozlov's equations (17) as a first-order system: state ``(q, u, λ)`` (the method protocol).

        ``u̇ = q̈`` and ``λ̇`` from :meth:`accelerations`; initial ``λ`` is the extra input ``"lambda"``.
        """
        qdd, lamd = self._solved()
        return natural_ode(
            self.chart, self.lagrangian, list(qdd), extra=self.lam, rates=list(lamd), form="kozlov", subs=subs
        )

    def accelerations(self, *, canonical: bool | None = None) -> sp.ImmutableMatrix:
        r"""The ``n`` natural accelerations ``q̈``, functions of ``(q, u, λ, t)`` (the method base).

        The multipliers ``λ_a`` are states of the method: their rates ``λ̇_a`` are in :meth:`equations` and
        :meth:`rates`. ``canonical``: the method computes one (tidied) form, returned for every value.

        Raises
        ------
        RegularityError
            If the saddle-point matrix ``[[∂²L̂/∂u∂u, −J^T], [J, 0]]`` is singular.
        """
        return self._solved()[0]

    def multipliers(self, *, canonical: bool | None = None) -> Multipliers:
        """Kozlov's multipliers ``λ`` are states, not functions of ``(q, u)``: none to return.

        Raises
        ------
        NoMultipliersError
            Always; the rates ``λ̇`` are in :meth:`equations` and :meth:`rates`.
        """
        raise NoMultipliersError(
            "KozlovSystem.multipliers: Kozlov's multipliers λ are states; their rates λ̇ are in equations() and rates()"
        )
