r"""Nonlinear constraints ``g_ν(q, u, t) = 0``: Chetaev and vakonomic equations, commutation test.

Talamucci's Lagrangian derivative ``D^{(q_j)} f = d/dt ∂f/∂u_j − ∂f/∂q_j`` ((T53)).

* Chetaev (Talamucci (52), first group; Lemos (8); Cortés (5.1)):
  ``D^{(q_j)} L = λ_ν ∂g_ν/∂u_j``, ``g_ν = 0``.
* Vakonomic (Talamucci (58) = Kozlov, Lemos (17)): the Euler–Lagrange equations of
  ``L − λ_ν g_ν`` (:class:`~frames.KozlovEquations`; Talamucci's ``μ^T = −λ``).
* Commutation test (T57): ``δq̇ = d/dt δq`` on the Chetaev displacements requires
  ``D^{(q_j)} g_ν = ϱ_{νσ} ∂g_σ/∂u_j``, i.e. every row ``(D g_ν)_j`` lies in the row
  space of ``∂g/∂u`` on ``g = 0`` (Proposition 4).
* Propositions 1–3 (:class:`DisplacementClasses`): class (A) ``α δq = 0`` (6), class (B)
  ``β δq + γ δq̇ = 0`` (7), transpositional matrix ``δq̇_j − d/dt δq_j = ω_{j,h} δq_h`` (30).
  Both classes hold together iff ``P_ν = β_ν − d/dt γ_ν + Ωᵀγ_ν`` lies in the span of the
  ``α_σ`` ((18)); with (16) ``α = γ`` the (B) equations (32) are then the (A) equations (27)
  with ``λ_σ = μ_ν ρ_{νσ} − μ̇_σ`` (Proposition 1). Proposition 2: ``γ_ν·Ω δq = 0`` (19) iff
  ``β_ν − d/dt α_ν ∈ span α`` (20). Proposition 3 is Proposition 1 for (43)
  ``α = γ = ∂g/∂q̇``, ``β = ∂g/∂q``, where ``P_ν = −D_1 g_ν`` with
  ``D_1^{(q_j)} = D^{(q_j)} − ω_{h,j} ∂/∂q̇_h`` (62).
* The modified vakonomic method (Talamucci (60)–(66), :func:`talamucci_mvm`): with ``Ω = W``
  of Pastore et al., ``D_1 g_ν = 0`` singly ((65), their (34)), and (60) differs from the
  vakonomic (52b) by ``p_h ω_{h,j}``; (64) ``p_h ω_{h,j} = 0`` makes the MVM the Chetaev
  equations with ``λ = −μ̇``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

import sympy as sp

from .._value import Value
from ..algebra import as_expr, as_flag, as_matrix, as_subs, budgeted, canon, derivative, is_zero, solve_linear, tidy
from ..dynamics._checks import check_flag_choice, expect_obj, prefix_symbols
from ..dynamics._lagrangian import Lagrangian
from ..errors import ArgumentError, ConstraintError, InvalidExpressionError
from ._kozlov import KozlovEquations
from ._mvm import ModifiedVakonomic

__all__ = [
    "ChetaevSystem",
    "CommutationTest",
    "DisplacementClasses",
    "MVMComparison",
    "PropositionTest",
    "talamucci_mvm",
]


def _span_minors(J: sp.Matrix, rows: Sequence[Sequence[sp.Expr]], reduce: Any) -> tuple[tuple[sp.Expr, ...], ...]:
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
        M = sp.Matrix([[derivative(e, s) for s in unknowns] for e in eqs])
        b = -sp.Matrix([e.xreplace(dict.fromkeys(unknowns, 0)) for e in eqs])
        x = solve_linear(M, b, what="ChetaevSystem.solve: lagrangian, constraints: Chetaev equations")
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
        rows = [[canon(x.xreplace(sub)) for x in self.lagrangian_derivative(g)] for g in self.constraints]
        out = _span_minors(J, rows, self._reduce)
        holds = all(is_zero(x) for row in out for x in row)
        return CommutationTest(out, holds)

    # ------------------------------------------------------- Propositions 1–4
    def lagrangian_derivative_1(self, f: Any, omega: Any = None) -> tuple[sp.Expr, ...]:
        r"""``D_1^{(q_j)} f = D^{(q_j)} f − Σ_h ω_{h,j} ∂f/∂u_h`` (Talamucci (62)); ``omega`` n×n, default 0."""
        Om = _omega(self, omega, "ChetaevSystem.lagrangian_derivative_1: omega")
        e = as_expr(f, name="ChetaevSystem.lagrangian_derivative_1: f")
        D = self.lagrangian_derivative(e)
        u = self.chart.u
        n = len(u)
        return tuple(canon(D[j] - sp.Add(*[Om[h, j] * derivative(e, u[h]) for h in range(n)])) for j in range(n))

    def displacements(self, omega: Any = None) -> DisplacementClasses:
        r"""The displacement classes (43) of the constraints: ``α = γ = ∂g/∂q̇``, ``β = ∂g/∂q``, with Ω (30)."""
        return DisplacementClasses(self, omega=omega)

    @budgeted("ChetaevSystem.proposition3")
    def proposition3(
        self, omega: Any = None, accelerations: Mapping[sp.Symbol, Any] | str | None = "chetaev"
    ) -> PropositionTest:
        r"""Talamucci's Proposition 3: Chetaev (52a) and vakonomic (52b) equations with transpositional matrix Ω.

        Both displacement conditions (49) hold together iff ``D_1 g_ν ∈ span_σ ∂g_σ/∂q̇`` on
        ``g = 0`` (``P_ν = −D_1 g_ν`` of (18), (55), (62)); then (52b), i.e. (63) with ``y = 0``,
        is (52a) with ``λ_σ = μ_ν ρ_{νσ} − μ̇_σ`` (``−D_1 g_ν = ρ_{νσ} ∂g_σ/∂q̇``). For constraints
        nonlinear in the velocities ``D g`` contains accelerations: ``"chetaev"`` (default) decides the
        condition along the Chetaev motions, which is exactly when the vakonomic accelerations equal
        Chetaev's for every μ (:meth:`DisplacementClasses.acceleration_difference`). With Ω = 0 the
        condition is (57).

        Examples
        --------
        >>> import frames as fr, sympy as sp
        >>> m, g, c = sp.symbols("m g c", positive=True)
        >>> ch = fr.Chart("x y", params=[m, g, c]); ux, uy = ch.u
        >>> S = fr.ChetaevSystem(fr.Lagrangian(ch, m*(ux**2 + uy**2)/2 - m*g*ch.q[1]), [ux**2 + uy**2 - c**2])
        >>> S.proposition3().holds
        False
        >>> k = -g*ux/c**2                        # a skew transpositional matrix that reconciles them
        >>> r = S.proposition3([[0, k], [-k, 0]]); r.holds, r.multipliers
        (True, (-mudot1,))
        """
        return DisplacementClasses(self, omega=omega).proposition1(accelerations)


def _omega(system: ChetaevSystem, omega: Any, what: str) -> sp.ImmutableMatrix:
    """Ω (30) as an n×n matrix of functions of (q, u, t) and the acceleration symbols (default 0)."""
    ch = system.chart
    n = ch.dim
    if omega is None:
        return sp.ImmutableMatrix(sp.zeros(n, n))
    Om = as_matrix(omega, name=what, shape=(n, n))
    for k, e in enumerate(Om):
        ch.check_on_TQ(e, f"{what}[{k // n},{k % n}]", extra=system.acc)
    return Om


class PropositionTest(Value):
    r"""Outcome of Talamucci's Propositions 1–3 (:class:`DisplacementClasses`).

    Attributes
    ----------
    rows : Matrix
        κ × n: the rows tested against the span of the ``α_σ``: ``P_ν = β_ν − d/dt γ_ν + Ωᵀγ_ν``
        (Propositions 1, 3), ``β_ν − d/dt α_ν`` (20) or ``Ωᵀγ_ν`` (19).
    minors : tuple
        For each ν, the ``(κ+1)``-minors of ``[α; rows_ν]`` on ``g = 0`` (accelerations substituted).
    rho : Matrix or None
        ``ρ[ν, σ]`` with ``rows_ν = Σ_σ ρ[ν, σ] α_σ`` on ``g = 0`` when the rows lie in the span.
    condition_16 : bool
        Talamucci's (16), ``α = γ`` (identically).
    gamma_in_span : bool
        The rows of γ lie in the span of the ``α_σ`` (with (16) trivially; then ``y = 0`` satisfies (14)).
    multipliers : tuple or None
        Proposition 1: the (A) multipliers ``λ_σ = Σ_ν μ_ν ρ[ν, σ] − Σ_ν μ̇_ν κ[ν, σ]`` (``γ = κ α``)
        for which the (B) equations (32) with ``y = 0`` are the (A) equations (27).
    holds : bool
        The proposition's condition: rows in the span, and (Propositions 1, 3) γ in the span.
    """

    rows: sp.ImmutableMatrix
    minors: tuple[tuple[sp.Expr, ...], ...]
    rho: sp.ImmutableMatrix | None
    condition_16: bool
    gamma_in_span: bool
    multipliers: tuple[sp.Expr, ...] | None
    holds: bool


class DisplacementClasses(Value):
    r"""Talamucci's displacement classes (24) for a constrained Lagrangian, with transpositional matrix Ω.

    Class (A) (Chetaev): ``Σ_j α_{ν,j} δq_j = 0`` (6); class (B) (vakonomic):
    ``Σ_j (β_{ν,j} δq_j + γ_{ν,j} δq̇_j) = 0`` (7); ``δq̇_j − d/dt δq_j = Σ_h ω_{j,h} δq_h`` (30).
    The equations of motion are (27) ``D L = λ_ν α_ν`` and (32) with ``y = 0``
    ``D L = Σ_ν μ_ν(β_ν − d/dt γ_ν + Ωᵀγ_ν) − μ̇_ν γ_ν``, each closed by ``d/dt g_ν = 0``.

    Parameters
    ----------
    system : ChetaevSystem
        The Lagrangian and the constraints ``g_ν``.
    alpha, beta, gamma : κ × n matrices, optional
        Functions of (q, u, t); default (43): ``α = γ = ∂g/∂q̇``, ``β = ∂g/∂q``.
    omega : n × n matrix, optional
        ``Ω[h, j] = ω_{h,j}``, functions of (q, u, t) and the acceleration symbols; default 0 (commutation).
    mu : str or sequence of Symbol
        The (B) multipliers (prefix ``"mu"`` gives ``mu1``, …, and ``mudot1``, … for ``μ̇``).

    Examples
    --------
    >>> import frames as fr
    >>> ch = fr.Chart("x y z"); x, y, z = ch.q; ux, uy, uz = ch.u
    >>> S = fr.ChetaevSystem(fr.Lagrangian(ch, (ux**2 + uy**2 + uz**2)/2), [uz - y*ux])
    >>> d = S.displacements()
    >>> d.proposition1().holds, d.proposition2().holds
    (False, False)
    """

    system: ChetaevSystem
    alpha: sp.ImmutableMatrix
    beta: sp.ImmutableMatrix
    gamma: sp.ImmutableMatrix
    omega: sp.ImmutableMatrix
    mu: tuple[sp.Symbol, ...]
    mudot: tuple[sp.Symbol, ...]

    def __init__(
        self, system: ChetaevSystem, alpha: Any = None, beta: Any = None, gamma: Any = None, omega: Any = None,
        mu: str | Sequence[sp.Symbol] = "mu",
    ) -> None:  # fmt: skip
        what = "DisplacementClasses"
        expect_obj(system, ChetaevSystem, name=f"{what}: system")
        ch = system.chart
        k, n = len(system.constraints), ch.dim
        J = sp.ImmutableMatrix(system.kozlov.jacobian())
        dq = sp.ImmutableMatrix([[derivative(g, q) for q in ch.q] for g in system.constraints])
        mats = {}
        for name, val, default in (("alpha", alpha, J), ("beta", beta, dq), ("gamma", gamma, J)):
            if val is None:
                mats[name] = default
                continue
            M = as_matrix(val, name=f"{what}: {name}", shape=(k, n))
            for i, e in enumerate(M):
                ch.check_on_TQ(e, f"{what}: {name}[{i // n},{i % n}]")
            mats[name] = M
        for name in ("alpha", "gamma"):
            if mats[name].rank(iszerofunc=is_zero) < k:
                raise ConstraintError(f"{what}: {name}: {mats[name].tolist()} does not have full rank {k}")
        names = [str(i + 1) for i in range(k)]
        mus = prefix_symbols(mu, names, name=f"{what}: mu")
        if len(mus) != k or len(set(mus)) != k:
            raise InvalidExpressionError(f"{what}: mu: {len(mus)} multiplier symbols for {k} constraints")
        mud = tuple(sp.Symbol(f"{mu}dot{s}") for s in names) if isinstance(mu, str) else tuple(
            sp.Symbol(f"d{s.name}") for s in mus
        )  # fmt: skip
        taken = set(ch.q) | set(ch.u) | set(ch.params) | set(system.acc) | set(system.lam)
        clash = (set(mus) | set(mud)) & taken
        if clash:
            raise InvalidExpressionError(f"{what}: mu: symbols {sorted(map(str, clash))} clash with the system")
        object.__setattr__(self, "system", system)
        object.__setattr__(self, "alpha", mats["alpha"])
        object.__setattr__(self, "beta", mats["beta"])
        object.__setattr__(self, "gamma", mats["gamma"])
        object.__setattr__(self, "omega", _omega(system, omega, f"{what}: omega"))
        object.__setattr__(self, "mu", mus)
        object.__setattr__(self, "mudot", mud)

    def __repr__(self) -> str:
        return f"DisplacementClasses({self.system!r}, Ω = {self.omega.tolist()})"

    @property
    def _k(self) -> int:
        return len(self.system.constraints)

    def _ddt(self, e: sp.Expr) -> sp.Expr:
        """``d/dt`` on (q, u, μ, t): accelerations ``a_q``, ``μ̇``."""
        K = self.system.kozlov
        out = K.ddt(e)
        out += sp.Add(*[d * derivative(e, m) for m, d in zip(self.mu, self.mudot, strict=True)])
        return out

    def transpositional_rows(self) -> sp.ImmutableMatrix:
        r"""``P_ν = β_ν − d/dt γ_ν + Ωᵀγ_ν`` (18): both classes hold iff ``P_ν δq = 0`` on class (A)."""
        k, n = self._k, self.system.chart.dim
        b, c, Om = self.beta, self.gamma, self.omega
        return sp.ImmutableMatrix(
            k, n, lambda v, j: canon(b[v, j] - self._ddt(c[v, j]) + sp.Add(*[c[v, h] * Om[h, j] for h in range(n)]))
        )

    def residuals_A(self) -> tuple[sp.Expr, ...]:
        r"""(27): ``D^{(q_j)} L − Σ_ν λ_ν α_{ν,j}`` (λ the system's symbols ``lam1``, …)."""
        S = self.system
        DL = S.lagrangian_derivative(S.lagrangian.expr)
        return tuple(
            canon(DL[j] - sp.Add(*[S.lam[v] * self.alpha[v, j] for v in range(self._k)])) for j in range(len(DL))
        )

    def residuals_B(self) -> tuple[sp.Expr, ...]:
        r"""(32) with ``y = 0``: ``D^{(q_j)} L − Σ_ν (μ_ν P_{ν,j} − μ̇_ν γ_{ν,j})``."""
        S = self.system
        DL = S.lagrangian_derivative(S.lagrangian.expr)
        P = self.transpositional_rows()
        k = self._k
        return tuple(
            canon(DL[j] - sp.Add(*[self.mu[v] * P[v, j] - self.mudot[v] * self.gamma[v, j] for v in range(k)]))
            for j in range(len(DL))
        )

    def _solve(self, eqs: list[sp.Expr], unknowns: list[sp.Symbol], what: str) -> sp.Matrix:
        eqs = eqs + [canon(self.system.kozlov.ddt(g)) for g in self.system.constraints]
        M = sp.Matrix([[derivative(e, s) for s in unknowns] for e in eqs])
        if any(x.free_symbols & set(unknowns) for x in M):
            raise ConstraintError(f"{what}: omega: the equations are not linear in {unknowns} (Ω depends on them)")
        b = -sp.Matrix([e.xreplace(dict.fromkeys(unknowns, 0)) for e in eqs])
        return sp.Matrix(solve_linear(M, b, what=f"{what}: the equations of motion"))

    def solve_A(self) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        r"""Accelerations and multipliers λ of (27) with ``d/dt g = 0``."""
        S = self.system
        x = self._solve(list(self.residuals_A()), list(S.acc) + list(S.lam), "DisplacementClasses.solve_A")
        n = len(S.acc)
        return sp.ImmutableMatrix([tidy(e) for e in x[:n]]), sp.ImmutableMatrix([tidy(e) for e in x[n:]])

    def solve_B(self) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        r"""Accelerations and ``μ̇`` of (32) (``y = 0``) with ``d/dt g = 0``, functions of (q, u, μ, t)."""
        S = self.system
        x = self._solve(list(self.residuals_B()), list(S.acc) + list(self.mudot), "DisplacementClasses.solve_B")
        n = len(S.acc)
        return sp.ImmutableMatrix([tidy(e) for e in x[:n]]), sp.ImmutableMatrix([tidy(e) for e in x[n:]])

    @budgeted("DisplacementClasses.acceleration_difference")
    def acceleration_difference(self) -> sp.ImmutableMatrix:
        r"""``q̈_B(q, u, μ) − q̈_A(q, u)`` on ``g = 0``: zero iff the (A) and (B) motions coincide for every μ."""
        qa, _ = self.solve_A()
        qb, _ = self.solve_B()
        return sp.ImmutableMatrix([self.system._reduce(b - a) for a, b in zip(qa, qb, strict=True)])

    def _accelerations(self, accelerations: Any, what: str) -> dict[Any, Any]:
        if isinstance(accelerations, str):
            check_flag_choice(accelerations, ("chetaev",), name=what)
            acc, _ = self.solve_A()
            return dict(zip(self.system.acc, acc, strict=True))
        if accelerations is not None and not isinstance(accelerations, Mapping):
            raise ArgumentError(
                f"{what}: expected a mapping acceleration symbol -> expression, 'chetaev' or None, "
                f"got {type(accelerations).__name__}"
            )
        return as_subs(accelerations, name=what)

    def _test(self, rows: sp.Matrix, sub: dict[Any, Any], with_gamma: bool) -> PropositionTest:
        S = self.system
        A = sp.Matrix(self.alpha)
        k, n = A.shape
        R = sp.Matrix(k, n, lambda v, j: S._reduce(rows[v, j].xreplace(sub)))
        minors = _span_minors(A, R.tolist(), S._reduce)
        in_span = all(is_zero(x) for row in minors for x in row)
        gminors = _span_minors(A, self.gamma.tolist(), S._reduce)
        g_in = all(is_zero(x) for row in gminors for x in row)
        c16 = all(is_zero(x) for x in (self.alpha - self.gamma))
        rho = mult = None
        if in_span:
            G = A * A.T
            rho = sp.ImmutableMatrix(solve_linear(G, A * R.T, what="PropositionTest: α αᵀ").T.applyfunc(S._reduce))
            if with_gamma and g_in:
                kap = solve_linear(G, A * sp.Matrix(self.gamma).T, what="PropositionTest: α αᵀ").T.applyfunc(S._reduce)
                mult = tuple(
                    tidy(sp.Add(*[self.mu[v] * rho[v, s] - self.mudot[v] * kap[v, s] for v in range(k)]))
                    for s in range(k)
                )
        holds = in_span and (g_in or not with_gamma)
        return PropositionTest(sp.ImmutableMatrix(R), minors, rho, c16, g_in, mult, holds)

    @budgeted("DisplacementClasses.proposition1")
    def proposition1(self, accelerations: Mapping[sp.Symbol, Any] | str | None = "chetaev") -> PropositionTest:
        r"""Proposition 1: both classes together, (16), and the (B) equations as (A) equations.

        Both (6) and (7) hold for every admissible δq iff ``P_ν`` (:meth:`transpositional_rows`) lies in
        the span of the ``α_σ`` ((18)); with (16) ``y = 0`` solves (14) and (32) becomes (27) with
        ``λ_σ = μ_ν ρ_{νσ} − μ̇_σ``. The library decides the exact condition for that form,
        ``P_ν ∈ span α`` and ``γ_ν ∈ span α`` (``holds``; (16) is the special case ``γ = α``,
        reported as ``condition_16``). ``accelerations``: ``"chetaev"`` (along the (A) motions),
        a mapping, or None (identically).
        """
        sub = self._accelerations(accelerations, "DisplacementClasses.proposition1: accelerations")
        return self._test(sp.Matrix(self.transpositional_rows()), sub, True)

    @budgeted("DisplacementClasses.proposition2")
    def proposition2(self, accelerations: Mapping[sp.Symbol, Any] | str | None = "chetaev") -> PropositionTest:
        r"""Proposition 2's condition (20): ``β_ν − d/dt α_ν ∈ span_σ α_σ``.

        With (16) and both classes in force, (20) holds iff ``γ_ν·(δq̇ − d/dt δq) = 0`` on class (A)
        ((19), :meth:`condition19`); (20) is necessary for the commutation rule (Corollary 1). For (43)
        it is Proposition 4's (57), ``D g_ν ∈ span ∂g/∂q̇`` (:meth:`ChetaevSystem.commutation_test`).
        """
        sub = self._accelerations(accelerations, "DisplacementClasses.proposition2: accelerations")
        k, n = self._k, self.system.chart.dim
        rows = sp.Matrix(k, n, lambda v, j: canon(self.beta[v, j] - self._ddt(self.alpha[v, j])))
        return self._test(rows, sub, False)

    def condition19(self, accelerations: Mapping[sp.Symbol, Any] | str | None = "chetaev") -> PropositionTest:
        r"""(19) with (30): ``γ_ν·Ω δq = 0`` for every δq of class (A), i.e. ``Ωᵀγ_ν ∈ span α``."""
        sub = self._accelerations(accelerations, "DisplacementClasses.condition19: accelerations")
        k, n = self._k, self.system.chart.dim
        Om = self.omega
        rows = sp.Matrix(k, n, lambda v, j: canon(sp.Add(*[self.gamma[v, h] * Om[h, j] for h in range(n)])))
        return self._test(rows, sub, False)


class MVMComparison(Value):
    r"""Talamucci's comparison (60)–(66) of the modified vakonomic method with (52), :func:`talamucci_mvm`.

    Attributes
    ----------
    omega : Matrix
        ``Ω = W`` (``ω_{h,j} = W^h_j``; Pastore's ``ζ − η̇ = W η`` is (30)).
    d1_constraints : Matrix
        ``D_1^{(q_j)} V^α`` (62) with ``Ω = W``; all zero: the solvability conditions (34) of Pastore
        et al. are ``D_1 g_ν = 0`` singly (65).
    identity_60 : tuple
        (60) with ``μ = −λ``, ``μ̇ = −λ̇`` plus the MVM equations (42a): zero (the MVM is (60)).
    momentum_term : Matrix
        ``Σ_h p_h ω_{h,j}`` on C, the difference of (60) and the vakonomic (52b).
    condition_64 : bool
        (64): the momentum term vanishes on C. Then (66) is the Chetaev system (52a) with
        ``λ_Chetaev = λ̇`` (Pastore's Corollary 1).
    """

    omega: sp.ImmutableMatrix
    d1_constraints: sp.ImmutableMatrix
    identity_60: tuple[sp.Expr, ...]
    momentum_term: sp.ImmutableMatrix
    condition_64: bool


@budgeted("talamucci_mvm")
def talamucci_mvm(mvm: ModifiedVakonomic) -> MVMComparison:
    r"""Talamucci's (60)–(66) for a :class:`~frames.ModifiedVakonomic` (no forces).

    (60): ``D L = −μ D g − μ̇ ∂g/∂q̇ + μ ∂g/∂q̇_h ω_{h,j} + p_h ω_{h,j}``, i.e. (61)
    ``D_1 L = −μ D_1 g − μ̇ ∂g/∂q̇``; with ``D_1 g = 0`` (65) it is (66) ``D_1 L = −μ̇ ∂g/∂q̇``.

    Examples
    --------
    >>> import frames as fr, sympy as sp
    >>> mdl = fr.models.rolling_coin_incline(); R = mdl.params["R"]
    >>> th = mdl.chart.q[3]; ux, uy, uph, uth = mdl.chart.u
    >>> mvm = fr.ModifiedVakonomic(mdl.lagrangian, [ux - R*sp.sin(th)*uph, uy - R*sp.cos(th)*uph], [uph, uth])
    >>> r = talamucci_mvm(mvm); r.condition_64, r.d1_constraints.is_zero_matrix
    (True, True)
    """
    expect_obj(mvm, ModifiedVakonomic, name="talamucci_mvm: mvm")
    if mvm.forces is not None:
        raise ArgumentError("talamucci_mvm: mvm: polygenic forces are not part of Talamucci's (60); pass forces=None")
    L = mvm.lagrangian
    S = ChetaevSystem(L, mvm.constraints)
    W = sp.ImmutableMatrix(mvm.W)
    ch = S.chart
    n = ch.dim
    if any(x.free_symbols - (set(ch.q) | set(ch.u) | set(ch.params) | ({ch.t} if ch.t is not None else set()))
           for x in W):  # fmt: skip
        raise ArgumentError("talamucci_mvm: mvm: W contains free functions; substitute them first")
    d1 = sp.ImmutableMatrix([list(S.lagrangian_derivative_1(g, W)) for g in mvm.constraints]).applyfunc(tidy)
    p = [derivative(L.expr, u) for u in ch.u]
    pw = [canon(sp.Add(*[p[h] * W[h, j] for h in range(n)])) for j in range(n)]
    # (60) with Talamucci's μ = −λ, μ̇ = −λ̇ (λ the MVM's multipliers); the MVM's q̈ symbols → the system's
    acc = dict(zip(mvm.qdd, S.acc, strict=True))
    DL = S.lagrangian_derivative(L.expr)
    J = S.kozlov.jacobian()
    ident = []
    for j in range(n):
        r60 = (
            DL[j] + sp.Add(*[-mvm.lam[a] * d1[a, j] - mvm.lamdot[a] * J[a, j] for a in range(mvm.k)]) - pw[j]
        )  # D L + μ D_1 g + μ̇ γ − p Ω  with μ = −λ, μ̇ = −λ̇
        ident.append(tidy(canon(r60 + mvm.equations()[j].xreplace(acc))))
    mom = sp.ImmutableMatrix([mvm.on_constraint(x) for x in pw])
    return MVMComparison(W, d1, tuple(ident), mom, all(is_zero(x) for x in mom))
