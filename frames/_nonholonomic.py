r"""Nonholonomic dynamics: Proposition 2 of Crampin–Mestdag.

With an adapted frame (``X_α``, α = 1..m, span D; ``C = {v^a = 0}``), the
nonholonomic field is the unique second-order field tangent to C,
``Γ = v^α X_α^C + Γ^α X_α^V``, with

    Γ(X_α^V L) − X_α^C L = 0   on C,

and the multipliers are ``λ_a = Γ(X_a^V L) − X_a^C L``. In coordinates
``Γ(∂L/∂u^i) − ∂L/∂q^i = θ^a_i λ_a`` (the constraints are ``θ^a_i u^i = 0``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import sympy as sp

from ._constraints import Distribution, FrobeniusResult, LinearConstraints, complete_frame
from ._errors import ChartMismatchError, ConstraintError, InvalidExpressionError, RegularityError
from ._frame import Frame
from ._lagrangian import Lagrangian, frame_el_terms, solve_linear
from ._simplify import canon, is_zero, tidy
from ._tangent import SecondOrderField

__all__ = ["NonholonomicSystem"]


@dataclass(frozen=True, eq=False, repr=False)
class NonholonomicSystem:
    r"""A Lagrangian system with linear nonholonomic constraints, in an adapted frame.

    Parameters
    ----------
    lagrangian : Lagrangian
    frame : Frame
        Adapted frame: its first ``m`` fields span the constraint distribution D.
    m : int
        Rank of D (``0 < m < n``).

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.nonholonomic_particle()
    >>> nh = fr.NonholonomicSystem(mdl.lagrangian, mdl.frame, m=2)
    >>> nh.field().Gamma.T
    Matrix([[0, -q1*v1*v2/(q1**2 + 1), 0]])
    """

    lagrangian: Lagrangian
    frame: Frame
    m: int
    _cache: dict[str, Any] = field(default_factory=dict, compare=False)

    def __init__(self, lagrangian: Lagrangian, frame: Frame, m: int) -> None:
        if not isinstance(lagrangian, Lagrangian):
            raise InvalidExpressionError(f"NonholonomicSystem: {lagrangian!r} is not a Lagrangian")
        if not isinstance(frame, Frame):
            raise InvalidExpressionError(f"NonholonomicSystem: {frame!r} is not a Frame")
        if frame.chart.q != lagrangian.chart.q or frame.chart.u != lagrangian.chart.u:
            raise ChartMismatchError(
                f"NonholonomicSystem: Lagrangian on {lagrangian.chart!r}, frame on {frame.chart!r}"
            )
        if not isinstance(m, int) or not 0 < m < frame.dim:
            raise ConstraintError(f"NonholonomicSystem: m = {m!r} must be an integer with 0 < m < n = {frame.dim}")
        object.__setattr__(self, "lagrangian", lagrangian)
        object.__setattr__(self, "frame", frame)
        object.__setattr__(self, "m", m)
        object.__setattr__(self, "_cache", {})

    # ---------------------------------------------------------- constructors
    @classmethod
    def from_constraints(
        cls, lagrangian: Lagrangian, constraints: LinearConstraints | Distribution, complement: Any = None, v: Any = "v"
    ) -> NonholonomicSystem:
        """Build the adapted frame from constraints (or a distribution) and a complement."""
        D = constraints.distribution() if isinstance(constraints, LinearConstraints) else constraints
        F = complete_frame(D, complement, v=v)
        return cls(lagrangian, F, D.rank)

    # ---------------------------------------------------------------- basics
    @property
    def n(self) -> int:
        """dim Q."""
        return self.frame.dim

    @property
    def alpha(self) -> range:
        """Indices (0-based) of the fields spanning D."""
        return range(self.m)

    @property
    def a(self) -> range:
        """Indices (0-based) of the complementary fields."""
        return range(self.m, self.n)

    @property
    def on_C(self) -> dict[sp.Symbol, sp.Expr]:
        """The substitution ``v^a = 0`` defining C."""
        return {self.frame.v[a]: sp.S.Zero for a in self.a}

    @property
    def distribution(self) -> Distribution:
        """D, spanned by the first m frame fields."""
        return Distribution(self.frame.fields[: self.m])

    @property
    def constraints(self) -> LinearConstraints:
        """The constraints ``θ^a(u) = 0``."""
        return LinearConstraints(self.frame.chart, self.frame.coframe_matrix[self.m :, :])

    def frobenius(self) -> FrobeniusResult:
        """Frobenius test of D (``R^a_αβ = 0`` for all a, α, β iff D integrable)."""
        return self.distribution.frobenius()

    @property
    def is_holonomic(self) -> bool:
        """True if D is integrable."""
        R = self.frame.anholonomy
        return all(is_zero(R[a, al, be]) for a in self.a for al in self.alpha for be in self.alpha)

    def __repr__(self) -> str:
        return f"NonholonomicSystem(L = {self.lagrangian.expr}, m = {self.m}, n = {self.n})"

    # --------------------------------------------------------------- pieces
    @cached_property
    def _terms(self) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        L = self.lagrangian
        return frame_el_terms(
            L.in_frame(self.frame), self.frame, range(self.n), self.on_C, L.chart.t if L.time_dependent else None
        )

    def hessian_D(self) -> sp.ImmutableMatrix:
        """The block ``g_αβ = X_α^V X_β^V L`` on C."""
        g, _ = self._terms
        return sp.ImmutableMatrix(g[: self.m, : self.m])

    def constrained_lagrangian(self) -> sp.Expr:
        """``L_c``: L restricted to C, in ``(q, v^α)``."""
        return tidy(self.lagrangian.in_frame(self.frame).xreplace(self.on_C))

    def momenta(self) -> sp.ImmutableMatrix:
        """``p_i = X_i^V(L)`` on C."""
        Lv = self.lagrangian.in_frame(self.frame)
        return sp.ImmutableMatrix([tidy(sp.diff(Lv, v).xreplace(self.on_C)) for v in self.frame.v])

    # --------------------------------------------------------- Proposition 2
    def field(self) -> SecondOrderField:
        r"""The nonholonomic field ``Γ = v^α X_α^C + Γ^α X_α^V`` (Proposition 2).

        Raises
        ------
        RegularityError
            If L is not regular with respect to D (``g_αβ`` singular on C).
        """
        if "field" not in self._cache:
            g, r = self._terms
            gD = g[: self.m, : self.m]
            try:
                G = solve_linear(gD, r[: self.m, :], "nonholonomic field")
            except RegularityError as exc:
                raise RegularityError(
                    f"L = {self.lagrangian.expr} is not regular with respect to D: the block "
                    f"g_αβ = X_α^V X_β^V L on C, {sp.Matrix(gD).tolist()}, is singular"
                ) from exc
            Gam = [tidy(x) for x in G] + [sp.S.Zero] * (self.n - self.m)
            self._cache["field"] = SecondOrderField(
                self.frame, Gam, m=self.m, time_dependent=self.lagrangian.time_dependent
            )
        return self._cache["field"]  # type: ignore[no-any-return]

    def multipliers(self) -> tuple[sp.Expr, ...]:
        r"""``λ_a = Γ(X_a^V L) − X_a^C L`` on C, a = m+1..n."""
        if "mult" not in self._cache:
            g, r = self._terms
            G = sp.Matrix(self.field().Gamma)
            lam = g[self.m :, :] * G - r[self.m :, :]
            self._cache["mult"] = tuple(tidy(x) for x in lam)
        return self._cache["mult"]  # type: ignore[no-any-return]

    def epsilon_components(self) -> tuple[sp.Expr, ...]:
        """All components ``ε_i = Γ(X_i^V L) − X_i^C L`` on C (zero for i ≤ m)."""
        g, r = self._terms
        G = sp.Matrix(self.field().Gamma)
        return tuple(tidy(x) for x in (g * G - r))

    def coordinate_residuals(self) -> tuple[sp.Expr, ...]:
        r"""Residuals of ``Γ(∂L/∂u^i) − ∂L/∂q^i − θ^a_i λ_a`` on C (all should vanish).

        ``θ^a_i`` are the coframe components (the paper's ``X̄_i^a``).
        """
        F = self.frame
        L = self.lagrangian
        G = self.field().as_vector_field()
        lam = self.multipliers()
        Th = F.coframe_matrix
        out = []
        for i, (qi, ui) in enumerate(zip(L.chart.q, L.chart.u, strict=True)):
            dLdu = F.to_quasi(sp.diff(L.expr, ui))
            dLdq = F.to_quasi(sp.diff(L.expr, qi))
            e = G(dLdu) - dLdq - sum((Th[a, i] * lam[a - self.m] for a in self.a), sp.S.Zero)
            out.append(tidy(e.xreplace(self.on_C)))
        return tuple(out)

    def hamel_equations(self) -> list[sp.Eq]:
        r"""Hamel form ``Γ(∂L/∂v^α) − X_α^i ∂L/∂q^i + R^i_αβ v^β ∂L/∂v^i = 0`` on C."""
        eqs = self.lagrangian.hamel_equations(self.frame)[: self.m]
        t = self.lagrangian.chart.t if self.lagrangian.chart.t is not None else sp.Symbol("t")
        sub = {sp.Function(str(self.frame.v[a]))(t): 0 for a in self.a}
        return [sp.Eq(sp.simplify(e.lhs.subs(sub).doit()), 0) for e in eqs]

    def constrained_equations(self) -> tuple[sp.Expr, ...]:
        r"""Residuals of ``Γ(X_α^V L_c) − X̄_α^C L_c + R^a_αβ v^β X_a^V L`` (all vanish on C).

        ``X̄_α^C = X_α^C + R^a_αβ v^β X_a^V`` is tangent to C.
        """
        F = self.frame
        R = F.anholonomy
        Lv = self.lagrangian.in_frame(F)
        Lc = Lv.xreplace(self.on_C)
        Gv = self.field()
        out = []
        for al in self.alpha:
            Xbar = F.apply_complete(al, Lc)  # X_α^C(L_c); the X_a^V part kills L_c
            Xbar = Xbar.xreplace(self.on_C)
            rhs = sum(
                (R[a, al, be] * F.v[be] * sp.diff(Lv, F.v[a]) for a in self.a for be in self.alpha), sp.S.Zero
            ).xreplace(self.on_C)
            out.append(tidy(Gv(sp.diff(Lc, F.v[al])) - Xbar + rhs))
        return tuple(out)

    def in_frame(self, frame: Frame) -> NonholonomicSystem:
        """The same system in another adapted frame (first m fields must span the same D)."""
        D = self.distribution
        for k, X in enumerate(frame.fields[: self.m]):
            if not D.contains(X):
                raise ConstraintError(f"in_frame: field {k + 1} of the new frame, {X!r}, is not in D")
        return NonholonomicSystem(self.lagrangian, frame, self.m)

    def accelerations(self) -> sp.ImmutableMatrix:
        """``q̈`` in natural coordinates on C."""
        return self.field().accelerations()

    def multipliers_natural(self) -> tuple[sp.Expr, ...]:
        """The multipliers ``λ_a`` written in natural coordinates ``(q, u)``."""
        return tuple(canon(self.frame.to_natural(x)) for x in self.multipliers())
