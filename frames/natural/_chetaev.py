r"""Nonlinear constraints ``g_ν(q, u, t) = 0``: Chetaev and vakonomic equations, commutation test.

Talamucci's Lagrangian derivative ``D^{(q_j)} f = d/dt ∂f/∂u_j − ∂f/∂q_j`` ((T53)).

* Chetaev (Talamucci (52), first group; Lemos (8); Cortés (5.1)):
  ``D^{(q_j)} L = λ_ν ∂g_ν/∂u_j``, ``g_ν = 0``.
* Vakonomic (Talamucci (58) = Kozlov, Lemos (17)): the Euler–Lagrange equations of
  ``L − λ_ν g_ν`` (:class:`~frames.KozlovEquations`; Talamucci's ``μ^T = −λ``).
* Commutation test (T57): ``δq̇ = d/dt δq`` on the Chetaev displacements requires
  ``D^{(q_j)} g_ν = ϱ_{νσ} ∂g_σ/∂u_j``, i.e. every row ``(D g_ν)_j`` lies in the row
  space of ``∂g/∂u`` on ``g = 0``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import sympy as sp

from .._value import Value
from ..algebra import as_expr, as_flag, as_subs, canon, is_zero, solve_linear, tidy
from ..dynamics._checks import check_flag_choice
from ..dynamics._lagrangian import Lagrangian
from ..errors import ArgumentError
from ._kozlov import KozlovEquations

__all__ = ["ChetaevSystem", "CommutationTest"]


@dataclass(frozen=True, eq=False)
class CommutationTest(Value):
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


@dataclass(frozen=True, eq=False, repr=False)
class ChetaevSystem(Value):
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
    >>> acc, lam = S.solve(on_constraint=True)
    >>> acc.T, lam.T
    (Matrix([[g*u_x*u_y/c**2, (-c**2*g + g*u_y**2)/c**2]]), Matrix([[g*m*u_y/(2*c**2)]]))
    """

    lagrangian: Lagrangian
    constraints: tuple[sp.Expr, ...]
    kozlov: KozlovEquations

    def _latex_rows(self) -> list[tuple[str, str]]:
        rows = [("L", sp.latex(self.lagrangian.expr))]
        rows += [(rf"\phi^{{{a + 1}}}", sp.latex(c) + r" = 0") for a, c in enumerate(self.constraints)]
        return rows

    def __init__(self, lagrangian: Lagrangian, constraints: Sequence[Any]) -> None:
        K = KozlovEquations.__new__(KozlovEquations)
        K._build(lagrangian, constraints, "lam", "ChetaevSystem")
        object.__setattr__(self, "lagrangian", lagrangian)
        object.__setattr__(self, "constraints", K.constraints)
        object.__setattr__(self, "kozlov", K)

    def __repr__(self) -> str:
        return f"ChetaevSystem(L = {self.lagrangian.expr}, g = {self.constraints})"

    @property
    def chart(self) -> Any:
        """The natural chart."""
        return self.lagrangian.chart

    @property
    def acc(self) -> tuple[sp.Symbol, ...]:
        """Acceleration symbols ``a_<q>``."""
        return self.kozlov.acc

    @property
    def lam(self) -> tuple[sp.Symbol, ...]:
        """Chetaev multipliers ``λ_ν`` (same symbols as Kozlov's, different meaning)."""
        return self.kozlov.lam

    def lagrangian_derivative(self, f: Any) -> tuple[sp.Expr, ...]:
        r"""``D^{(q_j)} f = d/dt ∂f/∂u_j − ∂f/∂q_j`` for j = 1..n (Talamucci (53))."""
        ch = self.chart
        e = as_expr(f, name="ChetaevSystem.lagrangian_derivative: f")
        return tuple(canon(self.kozlov.ddt(sp.diff(e, u)) - sp.diff(e, q)) for q, u in zip(ch.q, ch.u, strict=True))

    def residuals(self) -> tuple[sp.Expr, ...]:
        r"""Chetaev equations ``D^{(q_j)} L − λ_ν ∂g_ν/∂u_j`` (Talamucci (52a), Lemos (8))."""
        DL = self.lagrangian_derivative(self.lagrangian.expr)
        J = self.kozlov.jacobian()
        return tuple(
            canon(DL[j] - sp.Add(*[self.lam[k] * J[k, j] for k in range(len(self.lam))])) for j in range(len(DL))
        )

    def vakonomic(self) -> KozlovEquations:
        r"""The vakonomic equations (Talamucci (58), Lemos (17)): Euler–Lagrange of ``L − λ_ν g_ν``."""
        return self.kozlov

    def _reduce(self, e: sp.Expr) -> sp.Expr:
        """Reduce the numerator of ``e`` modulo the constraints when they are polynomial in u."""
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

    def solve(self, on_constraint: bool = False) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        r"""Accelerations and Chetaev multipliers from (52a) and ``d/dt g_ν = 0``.

        With ``on_constraint=True`` the results are reduced modulo ``g = 0``
        (for constraints polynomial in the velocities).
        """
        on_constraint = as_flag(on_constraint, name="ChetaevSystem.solve: on_constraint")
        unknowns = list(self.acc) + list(self.lam)
        eqs = list(self.residuals()) + [canon(self.kozlov.ddt(g)) for g in self.constraints]
        M = sp.Matrix([[sp.diff(e, s) for s in unknowns] for e in eqs])
        b = -sp.Matrix([e.xreplace(dict.fromkeys(unknowns, 0)) for e in eqs])
        x = solve_linear(M, b, "ChetaevSystem.solve: lagrangian, constraints: Chetaev equations")
        f = self._reduce if on_constraint else tidy
        n = len(self.acc)
        return sp.ImmutableMatrix([f(e) for e in x[:n]]), sp.ImmutableMatrix([f(e) for e in x[n:]])

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
            acc, _ = self.solve()
            sub: dict[Any, Any] = dict(zip(self.acc, acc, strict=True))
        else:
            if accelerations is not None and not isinstance(accelerations, Mapping):
                raise ArgumentError(
                    f"{what}: expected a mapping acceleration symbol -> expression, 'chetaev' or None, "
                    f"got {type(accelerations).__name__}"
                )
            sub = as_subs(accelerations, name=what)
        J = sp.Matrix(self.kozlov.jacobian())
        k, n = J.shape
        out = []
        for g in self.constraints:
            Dg = [canon(x.xreplace(sub)) for x in self.lagrangian_derivative(g)]
            Mx = J.col_join(sp.Matrix([Dg]))
            minors = []
            for cols in combinations(range(n), k + 1):
                minors.append(self._reduce(Mx.extract(list(range(k + 1)), list(cols)).det(method="bareiss")))
            out.append(tuple(minors))
        holds = all(is_zero(x) for row in out for x in row)
        return CommutationTest(tuple(out), holds)
