r"""Talamucci's displacement classes: Chetaev (A) and vakonomic (B) variations, transpositional matrix Ω.

Propositions 1–3 (:class:`DisplacementClasses`): class (A) ``α δq = 0`` (6), class (B)
``β δq + γ δq̇ = 0`` (7), transpositional matrix ``δq̇_j − d/dt δq_j = ω_{j,h} δq_h`` (30).
Both classes hold together iff ``P_ν = β_ν − d/dt γ_ν + Ωᵀγ_ν`` lies in the span of the
``α_σ`` ((18)); with (16) ``α = γ`` the (B) equations (32) are then the (A) equations (27)
with ``λ_σ = μ_ν ρ_{νσ} − μ̇_σ`` (Proposition 1, :meth:`DisplacementClasses.compatibility`).
Proposition 2 (:meth:`DisplacementClasses.commutation`): ``γ_ν·Ω δq = 0`` (19) iff
``β_ν − d/dt α_ν ∈ span α`` (20). Proposition 3 (:func:`compare_chetaev_with_vakonomic`) is
Proposition 1 for (43) ``α = γ = ∂g/∂q̇``, ``β = ∂g/∂q``, where ``P_ν = −D_1 g_ν`` with
``D_1^{(q_j)} = D^{(q_j)} − ω_{h,j} ∂/∂q̇_h`` (62).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sympy as sp

from .._value import Record, Value
from ..algebra import derivative, expect, is_zero, solve_linear, tidy
from ..algebra.internal import as_matrix, as_subs, budgeted, canon
from ..dynamics.internal import check_flag_choice, prefix_symbols
from ..errors import ArgumentError, ConstraintError, InvalidExpressionError
from ._chetaev import ChetaevSystem, span_minors, transpositional_matrix

__all__ = ["DisplacementClassTest", "DisplacementClasses", "compare_chetaev_with_vakonomic"]


class DisplacementClassTest(Record):
    r"""Outcome of a test of :class:`DisplacementClasses` (Talamucci's Propositions 1–3, (19)).

    Attributes
    ----------
    rows : Matrix
        κ × n: the rows tested against the span of the ``α_σ``: ``P_ν = β_ν − d/dt γ_ν + Ωᵀγ_ν``
        (:meth:`~DisplacementClasses.compatibility`, Propositions 1, 3), ``β_ν − d/dt α_ν``
        (:meth:`~DisplacementClasses.commutation`, (20)) or ``Ωᵀγ_ν``
        (:meth:`~DisplacementClasses.transpositional_condition`, (19)).
    minors : tuple
        For each ν, the ``(κ+1)``-minors of ``[α; rows_ν]`` on ``g = 0`` (accelerations substituted).
    rho : Matrix or None
        ``ρ[ν, σ]`` with ``rows_ν = Σ_σ ρ[ν, σ] α_σ`` on ``g = 0`` when the rows lie in the span.
    alpha_equals_gamma : bool
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
    alpha_equals_gamma: bool
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
    >>> d = fr.natural.DisplacementClasses(S)
    >>> d.compatibility().holds, d.commutation().holds
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
        expect(system, ChetaevSystem, name=f"{what}: system")
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
        names = [str(i + 1) for i in range(k)]
        mus = prefix_symbols(mu, names, name=f"{what}: mu")
        mud = tuple(sp.Symbol(f"{mu}dot{s}") for s in names) if isinstance(mu, str) else tuple(
            sp.Symbol(f"d{s.name}") for s in mus
        )  # fmt: skip
        self.system = system
        self.alpha, self.beta, self.gamma = mats["alpha"], mats["beta"], mats["gamma"]
        self.omega = transpositional_matrix(system, omega, f"{what}: omega")
        self.mu, self.mudot = mus, mud

    def __check_init__(self) -> None:
        what = "DisplacementClasses"
        S, k = self.system, self._k
        for name in ("alpha", "gamma"):
            M = getattr(self, name)
            if M.rank(iszerofunc=is_zero) < k:
                raise ConstraintError(f"{what}: {name}: {M.tolist()} does not have full rank {k}")
        if len(self.mu) != k or len(set(self.mu)) != k:
            raise InvalidExpressionError(f"{what}: mu: {len(self.mu)} multiplier symbols for {k} constraints")
        ch = S.chart
        taken = set(ch.q) | set(ch.u) | set(ch.params) | set(S.qdd) | set(S.lam)
        clash = (set(self.mu) | set(self.mudot)) & taken
        if clash:
            raise InvalidExpressionError(f"{what}: mu: symbols {sorted(map(str, clash))} clash with the system")

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
        x = self._solve(list(self.residuals_A()), list(S.qdd) + list(S.lam), "DisplacementClasses.solve_A")
        n = len(S.qdd)
        return sp.ImmutableMatrix([tidy(e) for e in x[:n]]), sp.ImmutableMatrix([tidy(e) for e in x[n:]])

    def solve_B(self) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        r"""Accelerations and ``μ̇`` of (32) (``y = 0``) with ``d/dt g = 0``, functions of (q, u, μ, t)."""
        S = self.system
        x = self._solve(list(self.residuals_B()), list(S.qdd) + list(self.mudot), "DisplacementClasses.solve_B")
        n = len(S.qdd)
        return sp.ImmutableMatrix([tidy(e) for e in x[:n]]), sp.ImmutableMatrix([tidy(e) for e in x[n:]])

    @budgeted("DisplacementClasses.acceleration_difference")
    def acceleration_difference(self) -> sp.ImmutableMatrix:
        r"""``q̈_B(q, u, μ) − q̈_A(q, u)`` on ``g = 0``: zero iff the (A) and (B) motions coincide for every μ."""
        qa, _ = self.solve_A()
        qb, _ = self.solve_B()
        return sp.ImmutableMatrix([self.system.on_constraint(b - a) for a, b in zip(qa, qb, strict=True)])

    def _accelerations(self, accelerations: Any, what: str) -> dict[Any, Any]:
        if isinstance(accelerations, str):
            check_flag_choice(accelerations, ("chetaev",), name=what)
            acc, _ = self.solve_A()
            return dict(zip(self.system.qdd, acc, strict=True))
        if accelerations is not None and not isinstance(accelerations, Mapping):
            raise ArgumentError(
                f"{what}: expected a mapping acceleration symbol -> expression, 'chetaev' or None, "
                f"got {type(accelerations).__name__}"
            )
        return as_subs(accelerations, name=what)

    def _test(self, rows: sp.Matrix, sub: dict[Any, Any], with_gamma: bool) -> DisplacementClassTest:
        S = self.system
        A = sp.Matrix(self.alpha)
        k, n = A.shape
        R = sp.Matrix(k, n, lambda v, j: S.on_constraint(rows[v, j].xreplace(sub)))
        minors = span_minors(A, R.tolist(), S.on_constraint)
        in_span = all(is_zero(x) for row in minors for x in row)
        gminors = span_minors(A, self.gamma.tolist(), S.on_constraint)
        g_in = all(is_zero(x) for row in gminors for x in row)
        a_eq_g = all(is_zero(x) for x in (self.alpha - self.gamma))
        rho = mult = None
        if in_span:
            G = A * A.T
            rho = sp.ImmutableMatrix(
                solve_linear(G, A * R.T, what="DisplacementClassTest: α αᵀ").T.applyfunc(S.on_constraint)
            )
            if with_gamma and g_in:
                kap = solve_linear(G, A * sp.Matrix(self.gamma).T, what="DisplacementClassTest: α αᵀ").T.applyfunc(
                    S.on_constraint
                )
                mult = tuple(
                    tidy(sp.Add(*[self.mu[v] * rho[v, s] - self.mudot[v] * kap[v, s] for v in range(k)]))
                    for s in range(k)
                )
        holds = in_span and (g_in or not with_gamma)
        return DisplacementClassTest(sp.ImmutableMatrix(R), minors, rho, a_eq_g, g_in, mult, holds)

    @budgeted("DisplacementClasses.compatibility")
    def compatibility(self, accelerations: Mapping[sp.Symbol, Any] | str | None = "chetaev") -> DisplacementClassTest:
        r"""Both classes together and the (B) equations as (A) equations (Talamucci's Propositions 1 and 3).

        Both (6) and (7) hold for every admissible δq iff ``P_ν`` (:meth:`transpositional_rows`) lies in
        the span of the ``α_σ`` ((18)); with (16) ``y = 0`` solves (14) and (32) becomes (27) with
        ``λ_σ = μ_ν ρ_{νσ} − μ̇_σ``. The library decides the exact condition for that form,
        ``P_ν ∈ span α`` and ``γ_ν ∈ span α`` (``holds``; (16) is the special case ``γ = α``,
        reported as ``alpha_equals_gamma``). ``accelerations``: ``"chetaev"`` (along the (A) motions),
        a mapping, or None (identically).
        """
        sub = self._accelerations(accelerations, "DisplacementClasses.compatibility: accelerations")
        return self._test(sp.Matrix(self.transpositional_rows()), sub, True)

    @budgeted("DisplacementClasses.commutation")
    def commutation(self, accelerations: Mapping[sp.Symbol, Any] | str | None = "chetaev") -> DisplacementClassTest:
        r"""The commutation condition (20) (Talamucci's Proposition 2): ``β_ν − d/dt α_ν ∈ span_σ α_σ``.

        With (16) and both classes in force, (20) holds iff ``γ_ν·(δq̇ − d/dt δq) = 0`` on class (A)
        ((19), :meth:`transpositional_condition`); (20) is necessary for the commutation rule (Corollary 1). For (43)
        it is Proposition 4's (57), ``D g_ν ∈ span ∂g/∂q̇`` (:meth:`ChetaevSystem.commutation_test`).
        """
        sub = self._accelerations(accelerations, "DisplacementClasses.commutation: accelerations")
        k, n = self._k, self.system.chart.dim
        rows = sp.Matrix(k, n, lambda v, j: canon(self.beta[v, j] - self._ddt(self.alpha[v, j])))
        return self._test(rows, sub, False)

    def transpositional_condition(
        self, accelerations: Mapping[sp.Symbol, Any] | str | None = "chetaev"
    ) -> DisplacementClassTest:
        r"""(19) with (30): ``γ_ν·Ω δq = 0`` for every δq of class (A), i.e. ``Ωᵀγ_ν ∈ span α``."""
        sub = self._accelerations(accelerations, "DisplacementClasses.transpositional_condition: accelerations")
        k, n = self._k, self.system.chart.dim
        Om = self.omega
        rows = sp.Matrix(k, n, lambda v, j: canon(sp.Add(*[self.gamma[v, h] * Om[h, j] for h in range(n)])))
        return self._test(rows, sub, False)


@budgeted("compare_chetaev_with_vakonomic")
def compare_chetaev_with_vakonomic(
    system: ChetaevSystem, omega: Any = None, accelerations: Mapping[sp.Symbol, Any] | str | None = "chetaev"
) -> DisplacementClassTest:
    r"""Chetaev (52a) and vakonomic (52b) equations with transpositional matrix Ω (Talamucci's Proposition 3).

    Both displacement conditions (49) hold together iff ``D_1 g_ν ∈ span_σ ∂g_σ/∂q̇`` on
    ``g = 0`` (``P_ν = −D_1 g_ν`` of (18), (55), (62)); then (52b), i.e. (63) with ``y = 0``,
    is (52a) with ``λ_σ = μ_ν ρ_{νσ} − μ̇_σ`` (``−D_1 g_ν = ρ_{νσ} ∂g_σ/∂q̇``). For constraints
    nonlinear in the velocities ``D g`` contains accelerations: ``"chetaev"`` (default) decides the
    condition along the Chetaev motions, which is exactly when the vakonomic accelerations equal
    Chetaev's for every μ (:meth:`DisplacementClasses.acceleration_difference`). With Ω = 0 the
    condition is (57). This is :meth:`DisplacementClasses.compatibility` for the classes (43).

    Examples
    --------
    >>> import frames as fr, sympy as sp
    >>> from frames.natural import compare_chetaev_with_vakonomic
    >>> m, g, c = sp.symbols("m g c", positive=True)
    >>> ch = fr.Chart("x y", params=[m, g, c]); ux, uy = ch.u
    >>> S = fr.ChetaevSystem(fr.Lagrangian(ch, m*(ux**2 + uy**2)/2 - m*g*ch.q[1]), [ux**2 + uy**2 - c**2])
    >>> compare_chetaev_with_vakonomic(S).holds
    False
    >>> k = -g*ux/c**2                        # a skew transpositional matrix that reconciles them
    >>> r = compare_chetaev_with_vakonomic(S, [[0, k], [-k, 0]]); r.holds, r.multipliers
    (True, (-mudot1,))
    """
    return DisplacementClasses(system, omega=omega).compatibility(accelerations)
