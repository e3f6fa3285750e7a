r"""Kozlov's vakonomic equations in natural coordinates (Lemos 2022, eqs. (16)–(17)).

With constraints ``V^a(q, u, t) = 0`` (linear or not) and multipliers ``λ_a``
treated as extra coordinates, the vakonomic equations are the Euler–Lagrange
equations of ``L̂ = L − λ_a V^a`` ([L] (16)):

    d/dt ∂L/∂u^k − ∂L/∂q^k = λ̇_a ∂V^a/∂u^k + λ_a (d/dt ∂V^a/∂u^k − ∂V^a/∂q^k),   V^a = 0   ([L] (17)).

For the quasi-velocities ``V^a = v^a = θ^a_j u^j`` of an adapted frame these
are the vakonomic equations of Crampin–Mestdag section 4 with ``λ_a = μ_a``
and ``λ̇_a = A_a`` (:func:`kozlov_vs_frame` checks this on any system).
Talamucci's (T58) is the same system with ``μ^T = −λ``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy as sp

from .._value import Value
from ..algebra import as_expr, canon, derivative, is_zero, solve_linear, tidy
from ..dynamics._checks import check_symbols, expect_obj, exprs_on_TQ
from ..dynamics._lagrangian import Lagrangian
from ..dynamics._vakonomic import VakonomicSystem
from ..errors import ConstraintError, InvalidExpressionError, RegularityError
from ..geometry._tangent import SecondOrderField

__all__ = ["KozlovEquations", "KozlovCheck", "kozlov_vs_frame"]


def _names(prefix: str, syms: Sequence[sp.Symbol]) -> tuple[sp.Symbol, ...]:
    return tuple(sp.Symbol(f"{prefix}{s.name}") for s in syms)


class KozlovEquations(Value):
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
    >>> K = fr.KozlovEquations(fr.Lagrangian(ch, (ux**2 + uy**2 + uz**2) / 2), [uz - y * ux])
    >>> K.residuals()[0]
    a_x + lam1*u_y + lamdot1*y
    """

    lagrangian: Lagrangian
    constraints: tuple[sp.Expr, ...]
    lam: tuple[sp.Symbol, ...]
    lamdot: tuple[sp.Symbol, ...]
    acc: tuple[sp.Symbol, ...]

    def _latex_rows(self) -> list[tuple[str, str]]:
        rows = [("L", sp.latex(self.lagrangian.expr))]
        rows += [(rf"\phi^{{{a + 1}}}", sp.latex(c) + r" = 0") for a, c in enumerate(self.constraints)]
        return rows

    def __init__(self, lagrangian: Lagrangian, constraints: Sequence[Any], lam: str | Sequence[sp.Symbol] = "lam"):
        self._build(lagrangian, constraints, lam, "KozlovEquations")

    def _build(self, lagrangian: Any, constraints: Any, lam: Any, what: str) -> None:
        expect_obj(lagrangian, Lagrangian, name=f"{what}: lagrangian")
        ch = lagrangian.chart
        V = exprs_on_TQ(ch, constraints, name=f"{what}: constraints")
        if not V:
            raise InvalidExpressionError(f"{what}: constraints: at least one constraint is required")
        k = len(V)
        if isinstance(lam, str):
            if not lam.isidentifier():
                raise InvalidExpressionError(f"{what}: lam: {lam!r} is not a valid name prefix (an identifier)")
            lams = tuple(sp.Symbol(f"{lam}{i + 1}") for i in range(k))
            lamd = tuple(sp.Symbol(f"{lam}dot{i + 1}") for i in range(k))
        else:
            lams = check_symbols(lam, name=f"{what}: lam")
            if len(lams) != k or len(set(lams)) != k:
                raise InvalidExpressionError(f"{what}: lam: {len(lams)} multiplier symbols for {k} constraints")
            lamd = _names("d", lams)
        acc = _names("a_", ch.q)
        taken = set(ch.q) | set(ch.u) | set(ch.params) | ({ch.t} if ch.t is not None else set())
        clash = (set(lams) | set(lamd) | set(acc)) & taken
        if clash:
            raise InvalidExpressionError(f"{what}: lam: symbols {sorted(map(str, clash))} clash with the chart")
        J = sp.Matrix([[derivative(v, u) for u in ch.u] for v in V])
        if J.rank(iszerofunc=is_zero) < k:
            raise ConstraintError(f"{what}: constraints: {V} are not independent in the velocities (rank ∂V/∂u < {k})")
        object.__setattr__(self, "lagrangian", lagrangian)
        object.__setattr__(self, "constraints", V)
        object.__setattr__(self, "lam", lams)
        object.__setattr__(self, "lamdot", lamd)
        object.__setattr__(self, "acc", acc)

    @property
    def chart(self) -> Any:
        """The natural chart."""
        return self.lagrangian.chart

    def __repr__(self) -> str:
        return f"KozlovEquations(L = {self.lagrangian.expr}, V = {self.constraints})"

    def ddt(self, f: object) -> sp.Expr:
        r"""Total derivative ``u ∂_q + q̈ ∂_u + λ̇ ∂_λ + ∂_t`` of ``f(q, u, λ, t)``."""
        ch = self.chart
        e = as_expr(f, name="KozlovEquations.ddt: f")
        out = sp.Add(*[u * derivative(e, q) for q, u in zip(ch.q, ch.u, strict=True)])
        out += sp.Add(*[a * derivative(e, u) for u, a in zip(ch.u, self.acc, strict=True)])
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

    def solve(self) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        r"""Accelerations ``q̈`` and ``λ̇`` from (17) and ``d/dt V^a = 0``, functions of ``(q, u, λ, t)``.

        Raises
        ------
        RegularityError
            If the saddle-point matrix ``[[∂²L̂/∂u∂u, −J^T], [J, 0]]`` is singular.
        """
        unknowns = list(self.acc) + list(self.lamdot)
        eqs = list(self.residuals()) + [canon(self.ddt(v)) for v in self.constraints]
        M = sp.Matrix([[derivative(e, s) for s in unknowns] for e in eqs])
        b = -sp.Matrix([e.xreplace(dict.fromkeys(unknowns, 0)) for e in eqs])
        try:
            x = solve_linear(M, b, what="lagrangian, constraints: Kozlov equations")
        except RegularityError as exc:
            raise RegularityError(f"KozlovEquations.solve: {exc}") from exc
        n = len(self.acc)
        return sp.ImmutableMatrix([tidy(e) for e in x[:n]]), sp.ImmutableMatrix([tidy(e) for e in x[n:]])


class KozlovCheck(Value):
    r"""Outcome of :func:`kozlov_vs_frame`.

    Attributes
    ----------
    frame_identity : tuple
        For symbolic ``Γ^i`` and ``A_a``: the Kozlov residual ``E_k`` ([L] (17), ``q̈`` of
        ``Γ = v^α X_α^C + Γ^i X_i^V``, ``λ = μ``, ``λ̇ = A``) minus ``θ^i_k`` times the
        residual of the i-th equation of Proposition 3, on C. All vanish: (17) is
        Proposition 3 written in coordinates.
    tangent_residuals : tuple
        Kozlov residuals and ``d/dt V^a`` for the Proposition 4 field (``Γ^a = 0``,
        ``λ̇ = A`` of Proposition 4), on C.
    holds : bool
        True if all of them vanish identically.
    """

    frame_identity: tuple[sp.Expr, ...]
    tangent_residuals: tuple[sp.Expr, ...]
    holds: bool


def kozlov_vs_frame(vk: Any) -> KozlovCheck:
    r"""Check that Kozlov's equations are the section 4 vakonomic field written in coordinates.

    ``vk`` is a :class:`~frames.VakonomicSystem`; the constraints are ``V^a = θ^a_j u^j``
    (the coframe rows a = m+1..n) and the multipliers ``λ_a = μ_a``. No equation is solved:
    the natural-coordinate residuals are compared with the frame residuals of Proposition 3
    for symbolic ``Γ^i`` (so every vakonomic field of Proposition 3, whatever ``A``, solves
    (17), and conversely), and the Proposition 4 field is substituted into (17) and
    ``d/dt V^a = 0``.

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.nonholonomic_particle()
    >>> fr.kozlov_vs_frame(fr.VakonomicSystem(mdl.lagrangian, mdl.frame, mdl.m)).holds
    True
    """
    expect_obj(vk, VakonomicSystem, name="kozlov_vs_frame: vk")
    F = vk.frame
    ch = vk.lagrangian.chart
    n = F.dim
    V = [F.v_in_u[a] for a in vk.a]
    K = KozlovEquations(vk.lagrangian, V, lam=vk.mu)
    on_c = {u: F.u_in_v[j].xreplace(vk.on_C) for j, u in enumerate(ch.u)}
    lamd = dict(zip(K.lamdot, vk.A, strict=True))
    E = K.residuals()
    # Proposition 3, Γ^i and A symbolic
    Gs = sp.symbols(f"Gamma_kz1:{n + 1}")
    acc = SecondOrderField(F, list(Gs), m=vk.m, time_dependent=vk.lagrangian.time_dependent).accelerations()
    sub = dict(zip(K.acc, acc, strict=True)) | lamd
    fres = vk.vakonomic_residuals(Gs, vk.A, vk.mu)
    Th = F.coframe_matrix
    ident = []
    for k in range(n):
        lhs = canon(E[k].xreplace(sub)).xreplace(on_c)
        rhs = sp.Add(*[Th[i, k] * fres[i] for i in range(n)])
        ident.append(tidy(lhs - rhs))
    # Proposition 4
    tf = vk.tangent_field()
    acc4 = tf.field.accelerations()
    sub4 = dict(zip(K.acc, acc4, strict=True)) | dict(zip(K.lamdot, tf.A, strict=True))
    tres = [tidy(canon(e.xreplace(sub4)).xreplace(on_c)) for e in E]
    tres += [tidy(canon(K.ddt(v).xreplace(sub4)).xreplace(on_c)) for v in V]
    holds = all(is_zero(e) for e in (*ident, *tres))
    return KozlovCheck(tuple(ident), tuple(tres), holds)
