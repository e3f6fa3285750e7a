r"""Nonlinear constraints ``g_ν(q, u, t) = 0``: Chetaev equations and the commutation test (Talamucci).

Talamucci's Lagrangian derivative ``D^{(q_j)} f = d/dt ∂f/∂u_j − ∂f/∂q_j`` ((T53)).

* Chetaev (Talamucci (52), first group; Lemos (8); Cortés (5.1)):
  ``D^{(q_j)} L = λ_ν ∂g_ν/∂u_j``, ``g_ν = 0``.
* Vakonomic (Talamucci (58) = Kozlov, Lemos (17)): the Euler–Lagrange equations of
  ``L − λ_ν g_ν`` (:class:`~frames.KozlovSystem`; Talamucci's ``μ^T = −λ``).
* Commutation test (T57): ``δq̇ = d/dt δq`` on the Chetaev displacements requires
  ``D^{(q_j)} g_ν = ϱ_{νσ} ∂g_σ/∂u_j``, i.e. every row ``(D g_ν)_j`` lies in the row
  space of ``∂g/∂u`` on ``g = 0`` (Proposition 4).
* ``D_1^{(q_j)} = D^{(q_j)} − ω_{h,j} ∂/∂q̇_h`` (62) with a transpositional matrix Ω (30).

The displacement classes (Talamucci's Propositions 1–3) are in ``_displacements``, the comparison
with the modified vakonomic method ((60)–(66)) in ``_mvm_chetaev``.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from functools import cached_property
from itertools import combinations
from typing import Any

import sympy as sp

from .._value import Multipliers, Record, cached_method
from ..algebra import derivative, expect, is_zero, solve_linear, tidy
from ..algebra.internal import as_expr, as_flag, as_matrix, as_subs, canon
from ..dynamics import DynamicsMethod, Equations, Lagrangian, OdeSystem
from ..dynamics.internal import check_flag_choice, exprs_on_TQ, natural_ode
from ..errors import ArgumentError
from ..geometry import Chart
from ._kozlov import KozlovSystem, check_constrained, multiplier_symbols

__all__ = ["ChetaevSystem", "CommutationTest", "span_minors", "transpositional_matrix"]


def span_minors(J: sp.Matrix, rows: Sequence[Sequence[sp.Expr]], reduce: Any) -> tuple[tuple[sp.Expr, ...], ...]:
    """For each row r, the reduced ``(κ+1)``-minors of ``[J; r]`` (all zero iff r ∈ row space of J)."""
    k, n = J.shape
    out = []
    for r in rows:
        Mx = J.col_join(sp.Matrix([list(r)]))
        out.append(
            tuple(
                reduce(Mx.extract(list(range(k + 1)), list(cols)).det(method="bareiss"))
                for cols in combinations(range(n), k + 1)
            )
        )
    return tuple(out)


class CommutationTest(Record):
    r"""Outcome of :meth:`ChetaevSystem.commutation_test` (Talamucci (57)).

    Attributes
    ----------
    minors : tuple
        For each ν, the ``(κ+1)``-minors of ``[∂g/∂u ; D g_ν]``, reduced modulo the constraints.
    holds : bool
        True if all minors vanish (identically, or along the motions when accelerations were given).
    """

    minors: tuple[tuple[sp.Expr, ...], ...]
    holds: bool


class ChetaevSystem(DynamicsMethod):
    r"""A Lagrangian with constraints ``g_ν(q, u, t) = 0`` of any form.

    Parameters
    ----------
    lagrangian : Lagrangian
    constraints : sequence of expressions in (q, u, t)

    Examples
    --------
    Constant speed in a vertical plane (extraction notes (N19)):

    >>> import frames as fr, sympy as sp
    >>> m, g, c = sp.symbols("m g c", positive=True)
    >>> ch = fr.Chart("x y", params=[m, g, c]); ux, uy = ch.u
    >>> L = fr.Lagrangian(ch, m * (ux**2 + uy**2) / 2 - m * g * ch.q[1])
    >>> S = fr.ChetaevSystem(L, [ux**2 + uy**2 - c**2])
    >>> S.accelerations(on_constraint=True).T, S.multipliers(on_constraint=True)
    (Matrix([[g*u_x*u_y/c**2, (-c**2*g + g*u_y**2)/c**2]]), (g*m*u_y/(2*c**2),))
    """

    lagrangian: Lagrangian
    constraints: tuple[sp.Expr, ...]

    def _latex_rows(self) -> list[tuple[str, str]]:
        rows = [("L", sp.latex(self.lagrangian.expr))]
        rows += [(rf"\phi^{{{a + 1}}}", sp.latex(c) + r" = 0") for a, c in enumerate(self.constraints)]
        return rows

    def __init__(self, lagrangian: Lagrangian, constraints: Sequence[Any]) -> None:
        expect(lagrangian, Lagrangian, name="ChetaevSystem: lagrangian")
        self.lagrangian = lagrangian
        self.constraints = exprs_on_TQ(lagrangian.chart, constraints, name="ChetaevSystem: constraints")

    def __check_init__(self) -> None:
        lams, lamd = multiplier_symbols("lam", len(self.constraints), "ChetaevSystem")
        check_constrained(self.chart, self.constraints, lams, lamd, "ChetaevSystem")

    def __repr__(self) -> str:
        return f"ChetaevSystem(L = {self.lagrangian.expr}, g = {self.constraints})"

    @property
    def chart(self) -> Chart:
        """The natural chart."""
        return self.lagrangian.chart

    @cached_property
    def kozlov(self) -> KozlovSystem:
        r"""The vakonomic equations (Talamucci (58), Lemos (17)): Euler–Lagrange of ``L − λ_ν g_ν``."""
        return KozlovSystem(self.lagrangian, self.constraints, "lam")

    @property
    def qdd(self) -> tuple[sp.Symbol, ...]:
        """Acceleration symbols ``a_<q>``."""
        return self.kozlov.qdd

    @property
    def lam(self) -> tuple[sp.Symbol, ...]:
        """Chetaev multipliers ``λ_ν`` (same symbols as Kozlov's, different meaning)."""
        return self.kozlov.lam

    def lagrangian_derivative(self, f: Any) -> tuple[sp.Expr, ...]:
        r"""``D^{(q_j)} f = d/dt ∂f/∂u_j − ∂f/∂q_j`` for j = 1..n (Talamucci (53))."""
        ch = self.chart
        e = as_expr(f, name="ChetaevSystem.lagrangian_derivative: f")
        return tuple(
            canon(self.kozlov.ddt(derivative(e, u)) - derivative(e, q)) for q, u in zip(ch.q, ch.u, strict=True)
        )

    def residuals(self) -> tuple[sp.Expr, ...]:
        r"""Chetaev equations ``D^{(q_j)} L − λ_ν ∂g_ν/∂u_j`` (Talamucci (52a), Lemos (8))."""
        DL = self.lagrangian_derivative(self.lagrangian.expr)
        J = self.kozlov.jacobian()
        return tuple(
            canon(DL[j] - sp.Add(*[self.lam[k] * J[k, j] for k in range(len(self.lam))])) for j in range(len(DL))
        )

    def vakonomic(self) -> KozlovSystem:
        r"""The vakonomic equations (Talamucci (58), Lemos (17)): Euler–Lagrange of ``L − λ_ν g_ν``."""
        return self.kozlov

    def on_constraint(self, e: sp.Expr) -> sp.Expr:
        """``e`` on ``g = 0``: its numerator reduced modulo the constraints when they are polynomial in u."""
        e = canon(e)
        u = list(self.chart.u)
        try:
            polys = [sp.Poly(g, *u) for g in self.constraints]
        except sp.PolynomialError:
            return tidy(e)
        if any(p.total_degree() < 1 for p in polys):
            return tidy(e)
        num, den = sp.fraction(sp.together(e))
        try:
            G = sp.groebner([p.as_expr() for p in polys], *u, order="grevlex")
            _, rn = sp.reduced(sp.expand(num), list(G.exprs), *u, order="grevlex")
            _, rd = sp.reduced(sp.expand(den), list(G.exprs), *u, order="grevlex")
        except (sp.PolynomialError, sp.GeneratorsNeeded):
            return tidy(e)
        if is_zero(rd):
            return tidy(rn / den)
        return tidy(rn / rd)

    def equations(self) -> Equations:
        r"""The Chetaev equations (52a) as ``residual = 0`` (:meth:`residuals`), then ``g_ν = 0``."""
        return Equations(
            [
                *(sp.Eq(r, 0, evaluate=False) for r in self.residuals()),
                *(sp.Eq(g, 0, evaluate=False) for g in self.constraints),
            ]
        )

    def solution(self, on_constraint: bool = False) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        r"""Deprecated: ``(accelerations(on_constraint=...), multipliers(on_constraint=...))`` as two columns.

        .. deprecated::
            Use :meth:`accelerations` and :meth:`multipliers` (the method base); removed in a later release.
        """
        warnings.warn(
            "ChetaevSystem.solution() is deprecated: use accelerations() and multipliers() (the method base)",
            DeprecationWarning,
            stacklevel=2,
        )
        return self._solved(as_flag(on_constraint, name="ChetaevSystem.solution: on_constraint"))

    @cached_method
    def _solved(self, on_constraint: bool) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        unknowns = list(self.qdd) + list(self.lam)
        eqs = list(self.residuals()) + [canon(self.kozlov.ddt(g)) for g in self.constraints]
        M = sp.Matrix([[derivative(e, s) for s in unknowns] for e in eqs])
        b = -sp.Matrix([e.xreplace(dict.fromkeys(unknowns, 0)) for e in eqs])
        x = solve_linear(M, b, what="ChetaevSystem.solution: lagrangian, constraints: Chetaev equations")
        f = self.on_constraint if on_constraint else tidy
        n = len(self.qdd)
        return sp.ImmutableMatrix([f(e) for e in x[:n]]), sp.ImmutableMatrix([f(e) for e in x[n:]])

    def ode_system(self, *, subs: Mapping[Any, Any] | None = None) -> OdeSystem:
        r"""The Chetaev equations (52a) as a first-order system: state ``(q, u)``, ``u̇ = q̈`` (the method protocol)."""
        return natural_ode(self.chart, self.lagrangian, list(self.accelerations()), form="chetaev", subs=subs)

    def accelerations(self, *, canonical: bool | None = None, on_constraint: bool = False) -> sp.ImmutableMatrix:
        r"""The natural accelerations ``q̈`` (n entries) of the Chetaev motion, functions of ``(q, u, t)`` (the
        Chetaev equations (52a) and ``d/dt g_ν = 0``, solved for ``(q̈, λ)``).

        With ``on_constraint=True`` reduced modulo ``g = 0`` (for constraints polynomial in the velocities).
        ``canonical``: the method computes one (tidied) form, returned for every value.
        """
        return self._solved(as_flag(on_constraint, name="ChetaevSystem.accelerations: on_constraint"))[0]

    def multipliers(self, *, canonical: bool | None = None, on_constraint: bool = False) -> Multipliers:
        r"""The Chetaev multipliers ``λ_ν`` of (52a), functions of ``(q, u, t)`` (solved with :meth:`accelerations`;
        ``on_constraint`` and ``canonical`` as there)."""
        flag = as_flag(on_constraint, name="ChetaevSystem.multipliers: on_constraint")
        return Multipliers(tuple(self._solved(flag)[1]), first=1)

    def commutation_test(self, accelerations: Mapping[sp.Symbol, Any] | str | None = None) -> CommutationTest:
        r"""Talamucci's condition (57): ``D^{(q_j)} g_ν ∈ span_σ ∂g_σ/∂u_j`` on ``g = 0``.

        Parameters
        ----------
        accelerations : mapping, ``"chetaev"`` or None
            For constraints whose ``D g`` contains accelerations: substitute them (``"chetaev"``
            uses the Chetaev motions). None: the test must hold identically.
        """
        what = "ChetaevSystem.commutation_test: accelerations"
        if isinstance(accelerations, str):
            check_flag_choice(accelerations, ("chetaev",), name=what)
            acc = self.accelerations()
            sub: dict[Any, Any] = dict(zip(self.qdd, acc, strict=True))
        else:
            if accelerations is not None and not isinstance(accelerations, Mapping):
                raise ArgumentError(
                    f"{what}: expected a mapping acceleration symbol -> expression, 'chetaev' or None, "
                    f"got {type(accelerations).__name__}"
                )
            sub = as_subs(accelerations, name=what)
        J = sp.Matrix(self.kozlov.jacobian())
        rows = [[canon(x.xreplace(sub)) for x in self.lagrangian_derivative(g)] for g in self.constraints]
        out = span_minors(J, rows, self.on_constraint)
        holds = all(is_zero(x) for row in out for x in row)
        return CommutationTest(out, holds)

    # ------------------------------------------------------- transpositional matrix
    def lagrangian_derivative_1(self, f: Any, omega: Any = None) -> tuple[sp.Expr, ...]:
        r"""``D_1^{(q_j)} f = D^{(q_j)} f − Σ_h ω_{h,j} ∂f/∂u_h`` (Talamucci (62)); ``omega`` n×n, default 0."""
        Om = transpositional_matrix(self, omega, "ChetaevSystem.lagrangian_derivative_1: omega")
        e = as_expr(f, name="ChetaevSystem.lagrangian_derivative_1: f")
        D = self.lagrangian_derivative(e)
        u = self.chart.u
        n = len(u)
        return tuple(canon(D[j] - sp.Add(*[Om[h, j] * derivative(e, u[h]) for h in range(n)])) for j in range(n))


def transpositional_matrix(system: ChetaevSystem, omega: Any, what: str) -> sp.ImmutableMatrix:
    """Ω (30) as an n×n matrix of functions of (q, u, t) and the acceleration symbols (default 0)."""
    ch = system.chart
    n = ch.dim
    if omega is None:
        return sp.ImmutableMatrix(sp.zeros(n, n))
    Om = as_matrix(omega, name=what, shape=(n, n))
    for k, e in enumerate(Om):
        ch.check_on_TQ(e, f"{what}[{k // n},{k % n}]", extra=system.qdd)
    return Om
