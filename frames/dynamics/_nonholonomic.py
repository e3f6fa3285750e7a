r"""Nonholonomic dynamics: Proposition 2 of Crampin–Mestdag.

With an adapted frame (``X_α``, α = 1..m, span D; ``C = {v^a = 0}``), the
nonholonomic field is the unique second-order field tangent to C,
``Γ = v^α X_α^C + Γ^α X_α^V``, with

    Γ(X_α^V L) − X_α^C L = 0   on C,

and the multipliers are ``λ_a = Γ(X_a^V L) − X_a^C L``. In coordinates
``Γ(∂L/∂u^i) − ∂L/∂q^i = θ^a_i λ_a`` (the constraints are ``θ^a_i u^i = 0``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cached_property
from typing import Any

import sympy as sp

from .._value import Multipliers, cached_method
from ..algebra import (
    compact,
    derivative,
    expect,
    generic_rank,
    harmonic_form,
    is_zero,
    op_count,
    solve_linear,
    step,
    tidy,
)
from ..algebra.internal import (
    COMPACT_OPS,
    COMPACT_SECONDS,
    COMPACT_TRY_OPS,
    UnsupportedExpression,
    as_flag,
    attempt,
    budgeted,
    canon,
    cramer_size_bound,
    tidy_affine,
    tree_gather_all,
    tree_subs,
    trig_normal,
)
from ..errors import BudgetExceededError, ConstraintError, RegularityError
from ..geometry import Distribution, Frame, FrobeniusResult, LinearConstraints, SecondOrderField, complete_frame
from ..geometry.internal import AdaptedIndices, natural_accelerations
from ._checks import check_forces, check_m
from ._drift import _DriftRing
from ._frame_change import _change_of_adapted_frame, transform_field, transform_multipliers
from ._lagrangian import Equations, Lagrangian
from ._mass_matrix import MassMatrixForm
from ._method import DynamicsMethod, motion_equations, natural_constraints
from ._ode import OdeSystem, nonholonomic_ode

__all__ = ["NonholonomicSystem", "check_adapted"]

#: above this many operations the default field tries the canonical form of its trees only for
#: :data:`FIELD_TRY_SECONDS` (:meth:`NonholonomicSystem.field`)
FIELD_TRY_OPS = 2000
#: the short attempt at the canonical form of large trees: on the random systems and the car with two trailers of
#: ``benchmarks/swell.py`` the canonical form is the larger and the attempt is refused, on the ball on a rotating
#: table (8,122 operations of trees) it takes 0.07 s and holds 38 operations
FIELD_TRY_SECONDS = 0.3
#: the canonical linear system of the field is the normal form of the mass-matrix rows up to this many operations
ROWS_NORMAL_OPS = 5_000


def _normal_many(exprs: Any) -> list[sp.Expr]:
    """Canonical forms of several expressions: :func:`~frames.algebra.trig_normal` of each, the ring's
    normal form (Pythagorean when ``sin``/``cos`` occur), computed with the budget's checkpoints."""
    return [trig_normal(sp.sympify(e, strict=True)) for e in exprs]


def check_adapted(lagrangian: Any, frame: Any, m: Any, what: str) -> int:
    """Validate a Lagrangian, a frame on its chart and the rank ``0 < m < n``; return ``m``."""
    expect(lagrangian, Lagrangian, name=f"{what}: lagrangian")
    expect(frame, Frame, name=f"{what}: frame")
    lagrangian.chart.require_same(frame.chart, f"{what}: frame")
    return check_m(m, frame.dim, name=f"{what}: m")


class NonholonomicSystem(AdaptedIndices, DynamicsMethod):
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
    forces: tuple[sp.Expr, ...] | None = None

    def _latex_rows(self) -> list[tuple[str, str]]:
        F = self.frame
        rows = [("L", sp.latex(self.lagrangian.expr))]
        if self.forces is not None:
            q = self.lagrangian.chart.q
            rows.append(
                ("F", " + ".join(f"({sp.latex(c)})\\,d{sp.latex(x)}" for c, x in zip(self.forces, q) if c != 0))
            )
        rows += [(rf"X_{{{i + 1}}}", F.fields[i]._repr_latex_().strip("$")) for i in range(F.dim)]
        rows.append((r"D", r"\operatorname{span}\{" + ", ".join(f"X_{{{i + 1}}}" for i in range(self.m)) + r"\}"))
        rows.append((r"C", ", ".join(f"{sp.latex(F.v[a])} = 0" for a in range(self.m, F.dim)) or r"\text{TQ}"))
        return rows

    def __init__(self, lagrangian: Lagrangian, frame: Frame, m: int, *, forces: Any = None) -> None:
        m = check_adapted(lagrangian, frame, m, "NonholonomicSystem")
        self.lagrangian = lagrangian
        self.frame = frame
        self.m = m
        self.forces = check_forces(lagrangian.chart, forces, "NonholonomicSystem: forces")

    # ---------------------------------------------------------- constructors
    @classmethod
    def from_constraints(
        cls,
        lagrangian: Lagrangian,
        constraints: LinearConstraints | Distribution,
        complement: Any = None,
        v: Any = "v",
        *,
        forces: Any = None,
    ) -> NonholonomicSystem:
        """Build the adapted frame from constraints (or a distribution) and a complement (``forces`` as in the
        constructor)."""
        expect(lagrangian, Lagrangian, name="NonholonomicSystem.from_constraints: lagrangian")
        expect(
            constraints,
            (LinearConstraints, Distribution),
            name="NonholonomicSystem.from_constraints: constraints",
            what="LinearConstraints or a Distribution",
        )
        lagrangian.chart.require_same(constraints.chart, "NonholonomicSystem.from_constraints: constraints")
        if isinstance(constraints, LinearConstraints):
            # the constraint rows complete D to a frame regular wherever D is
            F = constraints.adapted_frame(complement, v=v)
            return cls(lagrangian, F, constraints.chart.dim - constraints.k, forces=forces)
        F = complete_frame(constraints, complement, v=v)
        return cls(lagrangian, F, constraints.rank, forces=forces)

    # ---------------------------------------------------------------- basics
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
        """True if D is integrable (``R^a_αβ = 0`` for all a, α, β)."""
        return all(is_zero(self._R(a, al, be)) for a in self.a for al in self.alpha for be in self.alpha)

    def __repr__(self) -> str:
        return f"NonholonomicSystem(L = {self.lagrangian.expr}, m = {self.m}, n = {self.n})"

    # --------------------------------------------------------------- pieces
    @cached_property
    def u_on_C(self) -> dict[sp.Symbol, sp.Expr]:
        r"""The natural velocities on C: ``u^k = v^α X_α^k`` (α ≤ m), as a substitution."""
        return dict(zip(self.lagrangian.chart.u, self.frame.velocities(self.m), strict=True))

    @cached_property
    def _on_C(self) -> tuple[sp.Expr, tuple[sp.Expr, ...]]:
        r"""``L_c`` and the momenta ``p_i = X_i^V(L)`` on C, as functions of ``(q, v^α, t)``.

        Everything the fundamental equations need on C: with ``u = v^α X_α`` on C,
        ``p_i|_C = X_i^k (∂L/∂u^k)|_C`` and ``(∂L/∂q^k)|_{v fixed}`` restricted to C equals
        ``∂L_c/∂q^k``. The Lagrangian is never expanded in all ``n`` quasi-velocities.
        """
        F = self.frame
        ch = self.lagrangian.chart
        sub = self.u_on_C
        L = self.lagrangian.expr
        dLdu = [derivative(L, uk).xreplace(sub) for uk in ch.u]
        Lc, *p = _normal_many(
            [L.xreplace(sub)] + [sp.Add(*[F.matrix[i, k] * dLdu[k] for k in range(self.n)]) for i in range(self.n)]
        )
        return Lc, tuple(p)

    def _R(self, j: int, i: int, be: int) -> sp.Expr:
        r"""``R^j_iβ`` for β ≤ m, from the brackets ``[X_i, X_β]`` only (``m n`` brackets, not ``n(n−1)/2``)."""
        F = self.frame
        if (R := F.computed("anholonomy")) is not None:  # already computed by the frame
            return R[j, i, be]  # type: ignore[no-any-return]
        return self._R_column(i, be)[j]  # type: ignore[no-any-return]

    @cached_method
    def _R_column(self, i: int, be: int) -> sp.Matrix:
        """``(R^j_iβ)_j``: the coframe components of ``[X_i, X_β]`` (remembered; skew in ``i, β`` on D)."""
        F = self.frame
        if i == be:
            return sp.zeros(self.n, 1)
        if be < i < self.m:
            return -self._R_column(be, i)  # type: ignore[no-any-return]
        B = F.fields[i].bracket(F.fields[be])
        if all(c == 0 for c in B.components):
            return sp.zeros(self.n, 1)
        return (F.coframe_matrix * B.components).applyfunc(canon)

    def _time_derivative(self, f: sp.Expr) -> sp.Expr:
        t = self.lagrangian.chart.t
        return derivative(f, t) if (t is not None and self.lagrangian.time_dependent) else sp.S.Zero

    def _drift(self, i: int) -> sp.Expr:
        r"""``ε_i`` without its ``Γ^β`` part: ``v^β X_β(p_i) + ∂_t p_i − X_i(L_c) + R^j_iβ v^β p_j`` on C, ``−r_i``."""
        return -self._rhs(i)

    @cached_method
    def _rhs(self, i: int) -> sp.Expr:
        r"""``r_i = X_i^C(L) − v^β X_β(X_i^V L) − ∂_t X_i^V L`` on C, minus the drift (remembered).

        When the data (``L_c``, the momenta, the frame and the ``R^j_iβ``) are rational functions of the
        coordinates, their sin/cos and exponentials, undefined functions of q and the velocities, the
        derivatives act on the generators of that field (:class:`_DriftRing`): no expression tree is
        differentiated or rebuilt, and the sum is cancelled once; it is written in :func:`canon`'s form
        when small, as its Pythagorean normal form when large (:func:`frames.algebra.canon_element`).
        Otherwise sympy differentiates the expressions and :func:`canon` writes the result.
        """
        ring = self.drift_ring
        r = canon(-self._drift_of(i)) if ring is None else ring.rhs(i)
        return r if self.forces is None else canon(r + self._force(i))

    @cached_method
    def _force(self, i: int) -> sp.Expr:
        r"""``F(X_i) = F_j X_i^j`` on C, in ``(q, v)``: the force along the frame field ``X_i``."""
        F = self.frame
        assert self.forces is not None
        e = sp.Add(*[F.matrix[i, j] * f for j, f in enumerate(self.forces) if f != 0 and F.matrix[i, j] != 0])
        return canon(F.to_quasi(e).xreplace(self.on_C))

    def _mass_rows(self, rows: list[int]) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        """The mass-matrix form's rows (on trees), with the forces ``F(X_i)`` added to the right-hand side."""
        M, f = self._mass_matrix.rows(rows)
        if self.forces is not None:
            f = sp.ImmutableMatrix([f[k] + self._force(i) for k, i in enumerate(rows)])
        return M, f

    @cached_property
    def drift_ring(self) -> _DriftRing | None:
        """The drift's field (:class:`_DriftRing`), or None when the data are outside it (or time-dependent)."""
        if self.lagrangian.time_dependent and self.lagrangian.chart.t is not None:
            return None
        try:
            F, n = self.frame, self.n
            Lc, p = self._on_C
            R = {
                (j, i, be): e for i in range(n) for be in self.alpha for j in range(n) if (e := self._R(j, i, be)) != 0
            }
            X = [[F.matrix[i, k] for k in range(n)] for i in range(n)]
            return _DriftRing(Lc, p, X, R, [F.v[be] for be in self.alpha], tuple(self.lagrangian.chart.q))
        except BudgetExceededError:  # a FramesError, hence a ValueError: not "outside the field" (and not cached)
            raise
        except (UnsupportedExpression, ValueError):
            return None

    def _drift_of(self, i: int) -> sp.Expr:
        F = self.frame
        Lc, p = self._on_C
        e = sp.Add(*[F.v[be] * F.fields[be](p[i]) for be in self.alpha]) + self._time_derivative(p[i])
        e -= F.fields[i](Lc)
        e += sp.Add(*[self._R(j, i, be) * F.v[be] * p[j] for j in range(self.n) for be in self.alpha])
        return e

    @cached_property
    def _hessian_rows(self) -> sp.ImmutableMatrix:
        """``∂p_i/∂v^β`` on C for all i and β ≤ m (the columns of the Hessian that act on Γ^β)."""
        _, p = self._on_C
        flat = _normal_many([derivative(p[i], self.frame.v[be]) for i in range(self.n) for be in self.alpha])
        return sp.ImmutableMatrix(self.n, self.m, flat)

    def hessian_D(self) -> sp.ImmutableMatrix:
        """The block ``g_αβ = X_α^V X_β^V L`` on C."""
        return sp.ImmutableMatrix(self._hessian_rows[: self.m, :])

    def constrained_lagrangian(self) -> sp.Expr:
        """``L_c``: L restricted to C, in ``(q, v^α)``."""
        return tidy(self._on_C[0])

    def momenta(self) -> sp.ImmutableMatrix:
        """``p_i = X_i^V(L)`` on C, in ``(q, v^α)``."""
        return sp.ImmutableMatrix([tidy(x) for x in self._on_C[1]])

    # --------------------------------------------------------- Proposition 2
    @budgeted("NonholonomicSystem.field")
    def field(self, canonical: bool | None = None) -> SecondOrderField:
        r"""The nonholonomic field ``Γ = v^α X_α^C + Γ^α X_α^V`` (Proposition 2).

        Solves ``g_αβ Γ^β = X_α^C(L) − v^β X_β(X_α^V L) − ∂_t X_α^V L`` on C.

        Parameters
        ----------
        canonical : bool, optional
            None (default): the compact form. The field is derived on trees, in mass-matrix form, as
            :class:`sympy.physics.mechanics.KanesMethod` derives its equations (:mod:`~frames.dynamics._mass_matrix`:
            derivatives of L and of the frame, solved by elimination with pivots proved nonzero, never expanded);
            when those trees are small the canonical form is returned instead, or when it is no larger (tried
            within a second, and not tried for large trees when L or the frame has compound angles, which the
            canonical form multiplies out, nor for trees of more than 2,000 operations, whose canonical form is
            larger; :func:`frames.algebra.compact`). Exact either way. True: every ``Γ^α`` in the library's
            canonical form (computed from ``L_c`` and the momenta on C, :meth:`momenta`; on compound angles it
            multiplies the angles out, and can be many times larger and slower). False: the trees, whatever
            their size (for numerical work).

        Raises
        ------
        RegularityError
            If L is not regular with respect to D (``g_αβ`` singular on C); the message
            gives the block.
        """
        if canonical is None:
            return self._compact_field
        if not as_flag(canonical, name="NonholonomicSystem.field: canonical"):
            return self._raw_field()
        return self._canonical_field

    @cached_property
    def _compact_field(self) -> SecondOrderField:
        raw: SecondOrderField = self._raw_field()
        if raw is self._canonical_or_none():
            return raw
        seconds = self._attempt_budget(raw)
        if seconds is not None and self._canonical_predicted_larger(raw, seconds):
            return raw
        G = compact(list(raw.Gamma), lambda: list(self._canonical_field.Gamma), seconds)
        return raw if G is None else self._canonical_field

    def _canonical_predicted_larger(self, raw: SecondOrderField, seconds: float) -> bool:
        """Whether Cramer's bound on the terms of the canonical field (:meth:`field_size_bound`, from the canonical
        linear system, within ``seconds``) exceeds the operations of the trees ``raw``, each term being at least one
        operation: the canonical field is then not solved (it is 4–13 times the trees on the engine's random
        systems, whose bounds exceed the trees; the catalogue's bounds are 1–10 terms). Only for trees that
        :func:`~frames.algebra.compact` would try: of more than ``COMPACT_OPS`` operations (fewer are always
        written canonically) and at most ``COMPACT_TRY_OPS``. A linear system not derived within ``seconds``
        predicts larger."""
        size = sum(op_count(g, COMPACT_TRY_OPS) for g in raw.Gamma)
        if not COMPACT_OPS < size <= COMPACT_TRY_OPS:  # canonical, or not tried (:func:`~frames.algebra.compact`)
            return False
        return attempt(seconds, lambda: self.field_size_bound() > size, True)

    @cached_property
    def _compound_arguments(self) -> bool:
        """Whether L or the frame has a sine, cosine or exponential of a compound argument (``sin(q1 − q3)``,
        ``sin 2q``, ``exp(q/2)``): the canonical form multiplies those out, so the compact policy keeps large trees
        without trying it (:meth:`field`)."""
        exprs = [self.lagrangian.expr, *self.frame.matrix]
        funcs = (sp.sin, sp.cos, sp.tan, sp.exp, sp.sinh, sp.cosh, sp.tanh)
        return any(not f.args[0].is_Symbol for e in exprs for f in e.atoms(*funcs))

    def _attempt_budget(self, raw: SecondOrderField) -> float | None:
        """The seconds the compact policy spends on the canonical form of the field's trees: none with compound
        angles (:attr:`_compound_arguments`: the canonical form multiplies them out), :data:`FIELD_TRY_SECONDS` for
        trees of more than :data:`FIELD_TRY_OPS` operations (where the canonical form is usually the larger: 3 to
        10 times the trees on the random systems and the car with two trailers of ``benchmarks/swell.py``, but
        not always: the ball on a rotating table), else :data:`~frames.algebra.COMPACT_SECONDS`."""
        if self._compound_arguments:
            return None
        if sum(op_count(g, FIELD_TRY_OPS) for g in raw.Gamma) > FIELD_TRY_OPS:
            return FIELD_TRY_SECONDS
        return COMPACT_SECONDS

    def _canonical_or_none(self) -> SecondOrderField | None:
        return self.computed("_canonical_field")

    def _attempt_seconds(self) -> float | None:
        """Whether the compact policy tries the canonical form of a large result (:func:`frames.algebra.compact`): the
        field decides (its own attempt, :meth:`field`); when it kept the trees (the canonical field was too slow or
        larger) the accelerations and multipliers keep theirs, else their canonical form is compared with them."""
        if self._compact_field is self._canonical_or_none():
            return math.inf  # the canonical field is known and small: the canonical result costs little
        return None

    @cached_property
    def _canonical_field(self) -> SecondOrderField:
        with step("NonholonomicSystem.field: the linear system g Γ = b on C"):
            gD, rhs = self._linear_system()
        try:
            with step("NonholonomicSystem.field: the exact solve"):
                G = solve_linear(gD, rhs, what="nonholonomic field", method="domain")
        except RegularityError as exc:
            raise RegularityError(
                f"NonholonomicSystem.field: lagrangian: L = {self.lagrangian.expr} is not regular with respect to D: the block "
                f"g_αβ = X_α^V X_β^V L on C, {sp.Matrix(gD).tolist()}, is singular "
                f"(rank {sp.Matrix(gD).rank(iszerofunc=is_zero)} < m = {self.m})"
            ) from exc
        Gam = [tidy(x) if x.has(sp.sin, sp.cos) else x for x in G] + [sp.S.Zero] * (self.n - self.m)
        return SecondOrderField(self.frame, Gam, m=self.m, time_dependent=self.lagrangian.time_dependent)

    @cached_property
    def _mass_matrix(self) -> MassMatrixForm:
        return MassMatrixForm(self.lagrangian, self.frame, self.m)

    @cached_method
    def _raw_field(self) -> SecondOrderField:
        M, f = self._mass_rows(list(self.alpha))
        G = solve_linear(M, f, method="tree")
        if G is None:  # no point proves the block nonsingular: the exact solve decides (or raises)
            return self._canonical_field
        return SecondOrderField._trees(
            self.frame,
            [*tree_gather_all(list(G)), *[sp.S.Zero] * (self.n - self.m)],
            self.m,
            self.lagrangian.time_dependent,
        )

    @cached_method
    def _linear_system(self) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        """``(g_αβ, b_α)`` in the canonical form: of the mass-matrix form's rows when those trees hold at most
        :data:`ROWS_NORMAL_OPS` operations (the same functions; 5–50 times faster than the lifts' derivation on
        the random systems and the cars of ``benchmarks/swell.py``, and cancelled where the drift's large
        Pythagorean form is not), else :meth:`hessian_D` and the drift."""
        M, f = self._mass_rows(list(self.alpha))
        if sum(op_count(x, ROWS_NORMAL_OPS) for x in (*M, *f)) <= ROWS_NORMAL_OPS:
            return sp.ImmutableMatrix(self.m, self.m, _normal_many(list(M))), sp.ImmutableMatrix(_normal_many(list(f)))
        rhs = sp.ImmutableMatrix(_normal_many([-self._drift(al) for al in self.alpha]))
        return (self.hessian_D(), rhs)

    def linear_system(self, canonical: bool = True) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        r"""Proposition 2 as the linear system ``g_αβ Γ^β = b_α`` whose unique solution is :meth:`field`.

        With ``canonical=False``, the same system derived on trees (the fast path of :meth:`field`), not
        checked for regularity.

        ``g_αβ = X_α^V X_β^V L`` on C (:meth:`hessian_D`) and
        ``b_α = X_α^C(L) − v^β X_β(X_α^V L) − ∂_t X_α^V L`` on C: the field's *mass-matrix form*, as
        :mod:`sympy.physics.mechanics` gives equations of motion. It is exact and as small as the data
        when the explicit field (Cramer's rule) is too large to be worth writing out; see
        :meth:`field_size_bound`. The multipliers are then ``λ_a = g_aβ Γ^β − b_a`` with
        ``g_aβ = X_a^V X_β^V L`` and ``b_a`` the same expression for ``a``.

        Raises
        ------
        RegularityError
            If ``g_αβ`` is singular on C.

        Examples
        --------
        >>> import frames as fr
        >>> mdl = fr.models.nonholonomic_particle()
        >>> nh = fr.NonholonomicSystem(mdl.lagrangian, mdl.frame, m=2)
        >>> g, b = nh.linear_system()
        >>> q1 = mdl.chart.q[0]
        >>> v1, v2 = nh.frame.v[:2]
        >>> g == sp.Matrix([[1, 0], [0, q1**2 + 1]]), sp.expand(b[0]), sp.expand(b[1] + q1 * v1 * v2)
        (True, 0, 0)
        >>> [sp.simplify(x - y) for x, y in zip(g.LUsolve(b), nh.field().Gamma)]
        [0, 0]
        """
        if not canonical:
            return self._mass_rows(list(self.alpha))
        gD, rhs = self._linear_system()
        if generic_rank(gD) < self.m:  # not proved nonsingular at a generic point:
            self.field(canonical=True)  # the exact solve decides (and raises the library's RegularityError)
        return gD, rhs

    def field_size_bound(self) -> int:
        """A bound on the terms of the numerators of the explicit :meth:`field` by Cramer's rule, before it is
        computed (:func:`frames.algebra.cramer_size_bound` of :meth:`linear_system`).

        Examples
        --------
        >>> import frames as fr
        >>> mdl = fr.models.nonholonomic_particle()
        >>> fr.NonholonomicSystem(mdl.lagrangian, mdl.frame, m=2).field_size_bound()
        1
        """
        gD, rhs = self._linear_system()
        return cramer_size_bound(gD, list(rhs))

    def _epsilon(self, i: int) -> sp.Expr:
        G = self._canonical_field.Gamma
        return sp.Add(*[self._hessian_rows[i, be] * G[be] for be in self.alpha]) + self._drift(i)

    @budgeted("NonholonomicSystem.multipliers")
    @cached_method
    def multipliers(self, *, canonical: bool | None = None) -> Multipliers:
        r"""``λ_a = Γ(X_a^V L) − X_a^C L − F(X_a)`` on C, a = m+1..n (the components of ε in the coframe; ``F`` the
        forces, if any), in ``(q, v^α)``.

        Parameters
        ----------
        canonical : bool, optional
            None (default): the compact form, as :meth:`field`: trees, the smaller of ``Y_aα f_α − f_a`` of the
            mass-matrix form (``Y = M_aα M_αα⁻¹``, ``M_aβ = X_a^k H_kl X_β^l``, ``f_a = X_a^k E_k + F(X_a)``) and
            Lagrange's elimination of ``(q̈, λ)`` through the constraint rows
            (:meth:`~frames.dynamics._mass_matrix.MassMatrixForm.multipliers`), written in the canonical form when
            small. True: the canonical form. False: the trees, whatever their size (what compiled code needs).
        """
        if canonical is None:
            trees = self._tree_multipliers()
            can = compact(trees, lambda: self.multipliers(canonical=True), self._attempt_seconds())
            if can is None:
                return Multipliers(trees, first=self.m + 1)
            return self.multipliers(canonical=True)
        if not as_flag(canonical, name="NonholonomicSystem.multipliers: canonical"):
            return Multipliers(self._tree_multipliers(), first=self.m + 1)
        G = self._canonical_field.Gamma
        with step("NonholonomicSystem.multipliers: g_aβ Γ^β − b_a"):
            rows = sp.Matrix([[self._hessian_rows[a, be] for be in self.alpha] for a in self.a])
            eps = tidy_affine(rows, [G[be] for be in self.alpha], [self._drift(a) for a in self.a])
        return Multipliers(eps, first=self.m + 1, display=harmonic_form)

    @cached_method
    def _tree_multipliers(self) -> list[sp.Expr]:
        """The multipliers on trees: the smaller of ``λ_a = Y_aα f_α − f_a`` with ``Y = M_aα M_αα⁻¹`` (the mass-matrix
        rows; each ``f_α`` occurs once, where ``M_aβ Γ^β`` repeats it in every ``Γ^β``) and Lagrange's
        elimination (:meth:`MassMatrixForm.multipliers`)."""
        mm = self._mass_matrix
        Ma, fa = self._mass_rows(list(self.a))
        Mal, fal = self._mass_rows(list(self.alpha))
        Y = solve_linear(sp.Matrix(Mal).T, sp.Matrix(Ma).T, method="tree")
        if Y is None:  # no point proves the block nonsingular: the exact solve decides (or raises)
            G = self.field(canonical=False).Gamma
            by_rows = [
                sp.Add(*[Ma[r, be] * G[be] for be in self.alpha if Ma[r, be] != 0 and G[be] != 0]) - fa[r]
                for r in range(len(self.a))
            ]
        else:
            by_rows = [
                sp.Add(*[Y[be, r] * fal[be] for be in self.alpha if Y[be, r] != 0 and fal[be] != 0]) - fa[r]
                for r in range(len(self.a))
            ]
        forces = None if self.forces is None else tree_subs(list(self.forces), mm.on_C)
        return tree_gather_all(mm.smallest(by_rows, mm.multipliers(forces)))

    def epsilon_components(self) -> tuple[sp.Expr, ...]:
        """All components ``ε_i = Γ(X_i^V L) − X_i^C L − F(X_i)`` on C (zero for i ≤ m)."""
        return tuple(tidy(self._epsilon(i)) for i in range(self.n))

    def coordinate_residuals(self) -> tuple[sp.Expr, ...]:
        r"""Residuals of ``Γ(∂L/∂u^i) − ∂L/∂q^i − θ^a_i λ_a − F_i`` on C (all should vanish).

        ``θ^a_i`` are the coframe components (the paper's ``X̄_i^a``).
        """
        F = self.frame
        L = self.lagrangian
        G = self.field(canonical=True).as_vector_field()
        lam = self.multipliers(canonical=True)
        Th = F.coframe_matrix
        out = []
        for i, (qi, ui) in enumerate(zip(L.chart.q, L.chart.u, strict=True)):
            dLdu = F.to_quasi(derivative(L.expr, ui))
            dLdq = F.to_quasi(derivative(L.expr, qi))
            e = G(dLdu) - dLdq - sum((Th[a, i] * lam[a - self.m] for a in self.a), sp.S.Zero)
            if self.forces is not None:
                e -= F.to_quasi(self.forces[i])
            out.append(tidy(e.xreplace(self.on_C)))
        return tuple(out)

    def hamel_equations(self) -> list[sp.Eq]:
        r"""Hamel form ``d/dt ∂L/∂v^α − X_α^i ∂L/∂q^i + R^i_αβ v^β ∂L/∂v^i = F(X_α)`` on C, as sympy equations.

        Written in functions ``q^j(t)``, ``v^α(t)`` with ``v^a = 0`` (Crampin–Mestdag, end of section 3).
        """
        eqs = self.lagrangian.hamel_equations(self.frame)[: self.m]
        fun = self.lagrangian.chart.in_time(*self.frame.v)
        sub = {fun[self.frame.v[a]]: 0 for a in self.a}
        if self.forces is None:
            return [sp.Eq(e.lhs.subs(sub).doit(), 0) for e in eqs]
        return [
            sp.Eq(e.lhs.subs(sub).doit(), self._force(al).xreplace(fun)) for al, e in zip(self.alpha, eqs, strict=True)
        ]

    def hamel_residuals(self) -> tuple[sp.Expr, ...]:
        r"""Residuals of the Hamel form along the field, ``Γ(∂L/∂v^α) − X_α^i ∂L/∂q^i + R^i_αβ v^β ∂L/∂v^i`` on C.

        All vanish for the nonholonomic field (an identity check of Proposition 2).
        """
        F = self.frame
        R = F.anholonomy
        Lv = self.lagrangian.in_frame(F)
        G = self.field(canonical=True)
        q = self.lagrangian.chart.q
        out = []
        for al in self.alpha:
            e = G(derivative(Lv, F.v[al]))
            e -= sp.Add(*[F.matrix[al, i] * derivative(Lv, q[i]) for i in range(self.n)]).xreplace(self.on_C)
            e += sp.Add(
                *[R[i, al, be] * F.v[be] * derivative(Lv, F.v[i]) for i in range(self.n) for be in self.alpha]
            ).xreplace(self.on_C)
            if self.forces is not None:
                e -= self._force(al)
            out.append(tidy(e))
        return tuple(out)

    def constrained_equations(self) -> tuple[sp.Expr, ...]:
        r"""Residuals of ``Γ(X_α^V L_c) − X̄_α^C L_c + R^a_αβ v^β X_a^V L`` (all vanish on C).

        ``X̄_α^C = X_α^C + R^a_αβ v^β X_a^V`` is tangent to C.
        """
        F = self.frame
        R = F.anholonomy
        Lv = self.lagrangian.in_frame(F)
        Lc = Lv.xreplace(self.on_C)
        Gv = self.field(canonical=True)
        out = []
        for al in self.alpha:
            Xbar = F.apply_complete(al, Lc)  # X_α^C(L_c); the X_a^V part kills L_c
            Xbar = Xbar.xreplace(self.on_C)
            rhs = sum(
                (R[a, al, be] * F.v[be] * derivative(Lv, F.v[a]) for a in self.a for be in self.alpha), sp.S.Zero
            ).xreplace(self.on_C)
            force = self._force(al) if self.forces is not None else 0
            out.append(tidy(Gv(derivative(Lc, F.v[al])) - Xbar + rhs - force))
        return tuple(out)

    def in_frame(self, frame: Frame) -> NonholonomicSystem:
        """The same system in another adapted frame (first m fields must span the same D)."""
        expect(frame, Frame, name="NonholonomicSystem.in_frame: frame")
        self.frame.chart.require_same(frame.chart, "NonholonomicSystem.in_frame: frame")
        D = self.distribution
        for k, X in enumerate(frame.fields[: self.m]):
            if not D.contains(X):
                raise ConstraintError(
                    f"NonholonomicSystem.in_frame: frame: field {k + 1} of the new frame, {X!r}, is not in D"
                )
        return NonholonomicSystem(self.lagrangian, frame, self.m, forces=self.forces)

    def transformed(self, frame: Frame) -> tuple[SecondOrderField, tuple[sp.Expr, ...]]:
        r"""Field and multipliers in another adapted frame, by the transformation rules (no re-solving).

        See :func:`transform_field` and :func:`transform_multipliers`; compare with
        ``self.in_frame(frame).field()`` and ``.multipliers()``, which recompute them.
        """
        expect(frame, Frame, name="NonholonomicSystem.transformed: frame")
        _change_of_adapted_frame(self.frame, frame, self.m, "NonholonomicSystem.transformed", "frame")
        return (
            transform_field(self.field(canonical=True), frame),
            transform_multipliers(self.multipliers(canonical=True), self.frame, frame, self.m),
        )

    @budgeted("NonholonomicSystem.accelerations")
    @cached_method
    def accelerations(self, *, canonical: bool | None = None) -> sp.ImmutableMatrix:
        r"""``q̈`` in natural coordinates ``(q, u)``, valid on C.

        ``q̈^j = Γ^α X_α^j + v^α u^k ∂_k X_α^j`` with ``v^α = θ^α_k u^k``.

        Parameters
        ----------
        canonical : bool, optional
            None (default): the compact form, as :meth:`field`: ``Γ^α X_α + a`` on trees from the fast path's field,
            ``v^α`` written in the natural velocities on C (``u^j / X_α^j`` where only ``X_α`` moves ``q^j``),
            written in the canonical form when small. True: the canonical form. False: the trees, whatever their
            size.
        """
        if canonical is None:
            trees = self._tree_accelerations()
            can = compact(list(trees), lambda: list(self.accelerations(canonical=True)), self._attempt_seconds())
            return trees if can is None else sp.ImmutableMatrix(can)
        if not as_flag(canonical, name="NonholonomicSystem.accelerations: canonical"):
            return self._tree_accelerations()
        G = list(self._canonical_field.Gamma)
        with step("NonholonomicSystem.accelerations: the natural form"):
            acc = natural_accelerations(self.frame, self.m, G)
            return sp.ImmutableMatrix([tidy(x) if x.has(sp.sin, sp.cos) else x for x in _normal_many(acc)])

    @cached_method
    def _tree_accelerations(self) -> sp.ImmutableMatrix:
        """The natural accelerations on trees: ``Γ^α X_α + a`` from the fast path's field, with ``v^α`` written in the
        natural velocities on C (:meth:`MassMatrixForm.accelerations`)."""
        return sp.ImmutableMatrix(tree_gather_all(self._mass_matrix.accelerations(self.field(canonical=False).Gamma)))

    def equations(self) -> Equations:
        r"""The equations of motion: ``q̈^j(t) = f^j`` (:meth:`accelerations`), then the constraints ``θ^a(q̇) = 0``.

        In functions of time (the method protocol, :mod:`frames.dynamics._method`).

        Examples
        --------
        >>> import frames as fr
        >>> eqs = fr.models.knife_edge().nonholonomic().equations()
        >>> len(eqs)
        4
        """
        return motion_equations(
            self.lagrangian.chart, list(self.accelerations()), constraints=natural_constraints(self.frame, self.m)
        )

    def ode_system(self, *, subs: Mapping[Any, Any] | None = None, form: str = "reduced", **options: Any) -> OdeSystem:
        r"""The first-order system of the nonholonomic motion (the method protocol).

        ``form="reduced"``: state ``(q, v^α)``, ``q̇ = v^α X_α``, ``v̇^α = Γ^α`` (the constraints hold by
        construction); ``form="multiplier"``: state ``(q, u)`` with ``q̈`` from :meth:`accelerations`. The
        multipliers and the energy are recorded along the motion. See :func:`frames.ode_system`.
        """
        return nonholonomic_ode(self, form, subs=subs, **options)

    def multipliers_natural(self) -> tuple[sp.Expr, ...]:
        """The multipliers ``λ_a`` written in natural coordinates ``(q, u)``."""
        out: list[sp.Expr] = []
        for lam in self.multipliers():
            x: sp.Expr = self.frame.to_natural(lam)
            can = compact([x], lambda: [canon(x)])  # noqa: B023 (called at once)
            out.append(x if can is None else can[0])
        return tuple(out)
