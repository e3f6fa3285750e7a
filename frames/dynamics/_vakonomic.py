r"""Vakonomic systems: Propositions 3 and 4 and Theorem 1 of Crampin–Mestdag (section 4).

The vakonomic Lagrangian is ``L̂ = L − μ_a v^a`` on ``TQ × R^{n−m}``. Its
Euler–Lagrange fields live on ``C × R^{n−m}`` only; writing
``Γ̂ = Γ_C + A_a ∂/∂μ_a`` with ``Γ_C = v^α X_α^C + Γ^i X_i^V`` the equations are
(Proposition 3)

    Γ_C(X_α^V L) − X_α^C L = μ_a R^a_αβ v^β,
    Γ_C(X_a^V L) − X_a^C L = μ_b R^b_aα v^α + A_a,

with ``A_a`` arbitrary. Proposition 4 fixes ``A_a`` so that ``Γ_C`` is tangent
to C (``Γ^a = 0``); then ``Λ_a := Γ_C(X_a^V L) − X_a^C L`` and
``A_a = Λ_a − φ_b R^b_aα v^α``. On a section ``μ_a = φ_a(q, v^α)`` the field
``Γ̂`` is tangent to the image of the section iff

    Γ_C(φ_a) + φ_b R^b_aα v^α = Λ_a           (tangency condition).

Theorem 1: this holds iff ``Γ_C`` satisfies, on C, the Euler–Lagrange equations
of ``L̃ = L − Φ_a v^a`` for any extension ``Φ_a`` of ``φ_a``.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import field
from functools import cached_property
from typing import Any

import sympy as sp

from .._value import Multipliers, Record, cached_method
from ..algebra import compact, expect, generic_rank, hessian, is_zero, op_count, solve_linear, step, tidy
from ..algebra.internal import (
    COMPACT_SECONDS,
    as_expr,
    as_exprs,
    as_flag,
    as_subs,
    budgeted,
    canon,
    cramer_size_bound,
    tidy_affine,
)
from ..errors import ConstraintError, InvalidExpressionError, RegularityError, UndecidedError
from ..geometry import Frame, SecondOrderField
from ..geometry.internal import AdaptedIndices, natural_accelerations
from ._checks import prefix_symbols, sequence
from ._lagrangian import Equations, Lagrangian, frame_el_terms
from ._method import DynamicsMethod, motion_equations, natural_constraints
from ._nonholonomic import NonholonomicSystem, check_adapted
from ._ode import OdeSystem, vakonomic_ode

__all__ = ["VariationalCheck", "VakonomicField", "VakonomicSystem", "VakonomicTangentField"]


class VakonomicField(Record):
    r"""A vakonomic field ``Γ̂ = v^α X_α^C + Γ^i X_i^V + A_a ∂/∂μ_a`` on ``C × R^{n−m}`` (Proposition 3).

    Behaves as the tuple of the coefficients ``Γ^i`` (``field[i]``, iteration, ``len``).

    Attributes
    ----------
    Gamma : ImmutableMatrix
        The ``n`` coefficients ``Γ^i`` of ``X_i^V``, functions of ``(q, v^α)``, ``μ`` (or the
        section) and ``A``.
    A : tuple
        The coefficients ``A_a`` of ``∂/∂μ_a`` (symbols when arbitrary).
    mu : tuple
        The values of ``μ_a`` (the symbols, or the section ``φ_a``).
    """

    system: VakonomicSystem
    Gamma: sp.ImmutableMatrix
    A: tuple[sp.Expr, ...]
    mu: tuple[sp.Expr, ...]

    def _latex_rows(self) -> list[tuple[str, str]]:
        F = self.system.frame
        m = self.system.m
        parts = [rf"{sp.latex(F.v[i])} X_{{{i + 1}}}^C" for i in range(m)]
        parts += [rf"\left({sp.latex(g)}\right) X_{{{i + 1}}}^V" for i, g in enumerate(self.Gamma) if g != 0]
        parts += [
            rf"{sp.latex(a)} \frac{{\partial}}{{\partial {sp.latex(mu)}}}"
            for a, mu in zip(self.A, self.mu, strict=True)
        ]
        return [
            (r"\Gamma", " + ".join(parts) or "0"),
            ("C", ", ".join(f"{sp.latex(F.v[a])} = 0" for a in range(m, F.dim))),
        ]

    def __iter__(self) -> Iterator[sp.Expr]:
        return iter(self.Gamma)

    def __getitem__(self, i: int) -> sp.Expr:
        return self.Gamma[i]  # type: ignore[no-any-return]

    def __len__(self) -> int:
        return len(self.Gamma)

    def as_second_order_field(self) -> SecondOrderField:
        """``Γ_C`` as a :class:`SecondOrderField` on C (its ``Γ^a`` are the transverse parts)."""
        vk = self.system
        return SecondOrderField(vk.frame, list(self.Gamma), m=vk.m, time_dependent=vk.lagrangian.time_dependent)

    def residuals(self) -> tuple[sp.Expr, ...]:
        """Residuals of the vakonomic equations of Proposition 3 (all vanish)."""
        return self.system.vakonomic_residuals(self.Gamma, self.A, self.mu)

    def __repr__(self) -> str:
        vk = self.system
        parts = [f"{vk.frame.v[i]}*X{i + 1}^C" for i in vk.alpha]
        parts += [f"({g})*X{i + 1}^V" for i, g in enumerate(self.Gamma) if g != 0]
        parts += [f"({A})*∂/∂{mu}" for A, mu in zip(self.A, vk.mu, strict=True) if A != 0]
        return "Γ̂ = " + " + ".join(parts)


class VakonomicTangentField(Record):
    r"""Proposition 4: the vakonomic field on the image of a section with ``Γ_C`` tangent to C.

    Attributes
    ----------
    field : SecondOrderField
        ``Γ_C = v^α X_α^C + Γ^α X_α^V`` (``Γ^a = 0``).
    A : tuple
        ``A_a = g_aα g^{αβ} Y_β − Y_a``, the ``∂/∂μ_a`` components.
    Lambda : tuple
        ``Λ_a = Γ_C(X_a^V L) − X_a^C L``; ``A_a = Λ_a − φ_b R^b_aα v^α``.
    section : tuple
        ``φ_a`` (the symbols ``μ_a`` when no section was given).
    """

    system: VakonomicSystem
    field: SecondOrderField
    A: tuple[sp.Expr, ...]
    Lambda: tuple[sp.Expr, ...]
    section: tuple[sp.Expr, ...]

    @property
    def Gamma(self) -> sp.ImmutableMatrix:
        """The coefficients ``Γ^i`` (``Γ^a = 0``)."""
        return self.field.Gamma

    def __iter__(self) -> Iterator[sp.Expr]:
        return iter(self.field.Gamma)

    def __getitem__(self, i: int) -> sp.Expr:
        return self.field.Gamma[i]  # type: ignore[no-any-return]

    def __len__(self) -> int:
        return len(self.field.Gamma)

    def tangency_conditions(self) -> tuple[sp.Expr, ...]:
        r"""``Γ_C(φ_a) + φ_b R^b_aα v^α − Λ_a`` (all vanish iff ``Γ̂`` is tangent to ``im φ``)."""
        vk = self.system
        R = vk.frame.anholonomy
        v = vk.frame.v
        out = []
        for k, a in enumerate(vk.a):
            e = self.field(self.section[k]) - self.Lambda[k]
            e += sum(
                (self.section[kb] * R[b, a, al] * v[al] for kb, b in enumerate(vk.a) for al in vk.alpha), sp.S.Zero
            )
            out.append(tidy(e))
        return tuple(out)

    def is_tangent_to_section(self) -> bool | None:
        """True/False if the tangency condition holds identically or not (None: undecided)."""
        return _decide(self.tangency_conditions())

    def __repr__(self) -> str:
        return f"VakonomicTangentField({self.field!r}, A = {self.A})"


class VariationalCheck(Record):
    r"""Outcome of Theorem 1 for a section ``φ`` and the extension ``Φ``.

    Attributes
    ----------
    lagrangian : Lagrangian
        ``L̃ = L − Φ_a θ^a(u)`` in natural coordinates.
    residuals : tuple
        ``Γ_C(X_i^V L̃) − X_i^C L̃`` on C for i = 1..n (Γ_C of Proposition 4).
    tangency : tuple
        The tangency conditions of Proposition 4; Theorem 1 says ``residuals[a] = −tangency[a]``.
    holds : bool or None
        Whether ``Γ_C`` satisfies the Euler–Lagrange equations of ``L̃`` on C.
    el_field : SecondOrderField or None
        The restriction to C of the Euler–Lagrange field of ``L̃`` (Proposition 1, solved on C; its
        ``Γ̃^a`` are the transverse components). None if ``L̃`` is singular on C or not requested.
    restriction_equal : bool or None
        Whether ``el_field`` is tangent to C (``Γ̃^a = 0``) and equals ``Γ_C`` there.
    """

    lagrangian: Lagrangian
    residuals: tuple[sp.Expr, ...]
    tangency: tuple[sp.Expr, ...]
    holds: bool | None
    el_field: SecondOrderField | None = None
    restriction_equal: bool | None = None


def _numeric_nonzero(e: sp.Expr) -> bool:
    """True if ``e`` is shown to be nonzero by evaluation at a few rational points."""
    if e.atoms(sp.core.function.AppliedUndef) or e.atoms(sp.Derivative):
        return False
    syms = sorted(e.free_symbols, key=str)
    for k in range(3):
        pt = {s: sp.Rational(3 + 2 * j + 5 * k, 7 + j + k) for j, s in enumerate(syms)}
        try:
            val = complex(e.xreplace(pt).evalf(30))
        except (TypeError, ValueError):
            continue
        if abs(val) > 1e-12:
            return True
    return False


def _decide(conds: Sequence[sp.Expr]) -> bool | None:
    """True if all conditions vanish identically, False if one does not, None if a zero test is undecided.

    Each condition goes to the exact zero test (:func:`~frames.algebra.is_zero`: complete on rational
    functions of symbols, sines, cosines and exponentials of QQ-linear arguments). Outside that class a
    condition is decided if it is an identity of independent generators or visibly nonzero at a rational
    point; otherwise the verdict is None, never a silent False.
    """
    undecided = False
    for c in conds:
        in_ring = is_zero(c, ring_only=True)  # exact in the canonical ring; None outside
        if in_ring is False:
            return False
        if in_ring:
            continue
        try:
            if not is_zero(c):
                return False
        except UndecidedError:
            undecided = True
    return None if undecided else True


#: :meth:`VakonomicSystem.linear_system` puts entries of ``b`` up to this many operations in canonical form
CANON_OPS = 5000


class VakonomicSystem(AdaptedIndices, DynamicsMethod):
    r"""The vakonomic problem ``L̂ = L − μ_a v^a`` in an adapted frame (Crampin–Mestdag section 4).

    Parameters
    ----------
    lagrangian : Lagrangian
        A regular Lagrangian L.
    frame : Frame
        Adapted frame; its first ``m`` fields span D.
    m : int
        Rank of D.
    mu, A : str or sequence of Symbol
        Names (prefixes) of the multiplier symbols ``μ_a`` and of the arbitrary
        components ``A_a`` of ``Γ_μ = A_a ∂/∂μ_a``; indices run a = m+1..n.

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.nonholonomic_particle()
    >>> vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, m=2)
    >>> vk.mu, vk.A
    ((mu3,), (A3,))
    >>> tuple(vk.field())
    (-mu3*v2, A3*q1 + mu3*v1, A3*q1**2 + A3 + mu3*q1*v1 + v1*v2)
    >>> vk.tangent_field().A
    ((-mu3*q1*v1 - v1*v2)/(q1**2 + 1),)
    """

    lagrangian: Lagrangian
    frame: Frame
    m: int
    mu: tuple[sp.Symbol, ...]
    A: tuple[sp.Symbol, ...]
    nonholonomic: NonholonomicSystem = field(compare=False, repr=False)

    def _latex_rows(self) -> list[tuple[str, str]]:
        F = self.frame
        mu_v = " - ".join(
            f"{sp.latex(mu)} {sp.latex(F.v[a])}" for mu, a in zip(self.mu, range(self.m, F.dim), strict=True)
        )
        rows = [(r"\hat L", f"L - {mu_v}"), ("L", sp.latex(self.lagrangian.expr))]
        rows += [(rf"X_{{{i + 1}}}", F.fields[i]._repr_latex_().strip("$")) for i in range(F.dim)]
        rows.append((r"C", ", ".join(f"{sp.latex(F.v[a])} = 0" for a in range(self.m, F.dim))))
        return rows

    def __init__(
        self,
        lagrangian: Lagrangian,
        frame: Frame,
        m: int,
        mu: str | Sequence[sp.Symbol] = "mu",
        A: str | Sequence[sp.Symbol] = "A",
        *,
        nonholonomic: NonholonomicSystem | None = None,
    ) -> None:
        m = check_adapted(lagrangian, frame, m, "VakonomicSystem")
        nh = nonholonomic if nonholonomic is not None else NonholonomicSystem(lagrangian, frame, m)
        idx = [str(a + 1) for a in range(m, frame.dim)]
        mus = prefix_symbols(mu, idx, name="VakonomicSystem: mu")
        As = prefix_symbols(A, idx, name="VakonomicSystem: A")
        ch = frame.chart
        taken = set(ch.q) | set(ch.u) | set(ch.params) | set(frame.v) | ({ch.t} if ch.t is not None else set())
        taken |= set(lagrangian.chart.params)
        clash = (set(mus) | set(As)) & taken
        if clash or set(mus) & set(As):
            raise InvalidExpressionError(
                f"VakonomicSystem: mu, A: multiplier symbols {sorted(map(str, set(mus) | set(As)))} clash with "
                f"chart, frame or each other ({sorted(map(str, clash))})"
            )
        self.lagrangian = lagrangian
        self.frame = frame
        self.m = m
        self.mu = mus
        self.A = As
        self.nonholonomic = nh  # the nonholonomic system with the same data (Proposition 2); shares its results

    @classmethod
    def from_nonholonomic(cls, nh: NonholonomicSystem, **kw: Any) -> VakonomicSystem:
        """The vakonomic problem with the same Lagrangian, frame and constraints."""
        expect(nh, NonholonomicSystem, name="VakonomicSystem.from_nonholonomic: nh")
        if nh.forces is not None:
            raise ConstraintError(
                "VakonomicSystem.from_nonholonomic: nh: the system has forces; the vakonomic method (a variational "
                "principle with constraints) has no theory with nonconservative forces"
            )
        return cls(nh.lagrangian, nh.frame, nh.m, **kw, nonholonomic=nh)  # shares its results on C

    # ---------------------------------------------------------------- basics

    def __repr__(self) -> str:
        return f"VakonomicSystem(L = {self.lagrangian.expr}, m = {self.m}, n = {self.n}, mu = {self.mu})"

    def lagrangian_hat(self) -> sp.Expr:
        r"""``L̂ = L − μ_a v^a`` in ``(q, v, μ)``."""
        Lv = self.lagrangian.in_frame(self.frame)
        return Lv - sum((mu * self.frame.v[a] for mu, a in zip(self.mu, self.a, strict=True)), sp.S.Zero)

    @cached_property
    def _terms(self) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        r"""``(g, r)`` on C as in :func:`~frames.dynamics._lagrangian.frame_el_terms`, computed on C.

        ``r_i = X_i^C(L) − v^β X_β(X_i^V L) − ∂_t X_i^V L`` on C is minus the nonholonomic
        system's drift (its momenta ``p_i`` and ``L_c`` on C, restricted before differentiating:
        ``v^a = 0`` commutes with the base derivatives ``X_β``), shared with
        :attr:`nonholonomic`; ``g_ij = X_i^k X_j^l ∂²L/∂u^k∂u^l`` at ``u = v^α X_α``. The
        Lagrangian is never written in all ``n`` quasi-velocities.
        """
        nh = self.nonholonomic
        r = sp.Matrix([nh._rhs(i) for i in range(self.n)])
        return self._g, sp.ImmutableMatrix(r)

    def hessian(self) -> sp.ImmutableMatrix:
        """``g_ij = X_i^V X_j^V L`` on C."""
        return self._terms[0]

    def section(self, phi: Any = None) -> tuple[sp.Expr, ...]:
        """Validate a section ``μ_a = φ_a(q, v^α)`` (``None``: the free symbols ``μ_a``).

        Raises
        ------
        InvalidExpressionError
            If the length is wrong or an entry uses a natural velocity ``u``.
        """
        return self._section(phi, "VakonomicSystem.section: phi")

    def _section(self, phi: Any, what: str) -> tuple[sp.Expr, ...]:
        """:meth:`section` with ``what`` (the argument's name) in the messages."""
        if phi is None:
            return tuple(self.mu)
        k = self.n - self.m
        if isinstance(phi, str | bytes | sp.Basic | numbers.Number) and not isinstance(phi, sp.MatrixBase):
            phis = (as_expr(phi, name=what),)
        else:
            phis = as_exprs(sequence(phi, name=what, what="a sequence of functions φ_a"), name=what)
        if len(phis) != k:
            raise InvalidExpressionError(f"{what}: expected {k} functions φ_a, got {len(phis)}")
        for i, p in enumerate(phis):
            bad = p.free_symbols & set(self.lagrangian.chart.u)
            if bad:
                raise InvalidExpressionError(
                    f"{what}[{i}]: {p} uses natural velocities {sorted(map(str, bad))}; write it in q and {self.frame.v}"
                )
        return tuple(canon(p.xreplace(self.on_C)) for p in phis)

    def _phiR(self, phi: Sequence[sp.Expr]) -> tuple[list[sp.Expr], list[sp.Expr]]:
        """``(φ_a R^a_αβ v^β)_α`` and ``(φ_b R^b_aα v^α)_a``."""
        R = self.frame.anholonomy
        v = self.frame.v
        ia = list(self.a)
        rows_al = [
            sp.Add(*[phi[k] * R[a, al, be] * v[be] for k, a in enumerate(ia) for be in self.alpha]) for al in self.alpha
        ]
        rows_a = [sp.Add(*[phi[kb] * R[b, a, al] * v[al] for kb, b in enumerate(ia) for al in self.alpha]) for a in ia]
        return rows_al, rows_a

    # --------------------------------------------------------- Proposition 3
    @budgeted("VakonomicSystem.field")
    def field(self, section: Any = None, A: Any = None, canonical: bool | None = None) -> VakonomicField:
        r"""The vakonomic field of Proposition 3, ``A_a`` arbitrary.

        Solves ``g_ij Γ^j = r_i + μ_a R^a_iα v^α + A_a δ^a_i`` on C (``r_i`` as in
        :func:`~frames.dynamics._lagrangian.frame_el_terms`).

        Parameters
        ----------
        section : sequence, optional
            ``φ_a``; by default ``μ_a`` stays free.
        A : sequence, optional
            Values of ``A_a``; by default the symbols :attr:`A`.
        canonical : bool, optional
            None (default): the compact form, as :meth:`NonholonomicSystem.field`. The system is derived on trees
            in mass-matrix form (the Hessian ``X_i^k H_kl X_j^l`` and ``X_i^k E_k`` of
            :class:`~frames.dynamics._mass_matrix.MassMatrixForm`, shared with the nonholonomic system), ``g⁻¹`` in
            canonical form (the metric is small) applied to ``r`` on trees and to each ``R^a_iα v^α`` and
            ``δ^a_i``, combined with ``φ_a`` and ``A_a`` at the end; the canonical form is returned instead when
            the trees are small, or when it is no larger (tried within a second, and not tried for large trees when
            L or the frame has compound angles, which the canonical form multiplies out;
            :func:`frames.algebra.compact`). Exact either way. True: every ``Γ^i`` in the library's canonical
            form (an exact solve of :meth:`linear_system`; on compound angles it can be many times larger and
            slower). False: the trees, whatever their size.

        Raises
        ------
        RegularityError
            If the Hessian of L is singular on C.
        """
        phi = self._section(section, "VakonomicSystem.field: section")
        As = self._A(A, "VakonomicSystem.field: A")
        if canonical is None:
            return self._compact_field(phi, As)
        if as_flag(canonical, name="VakonomicSystem.field: canonical"):
            return self._canonical_field(phi, As)
        trees = self._tree_field(phi, As)
        return self._canonical_field(phi, As) if trees is None else trees

    @cached_method
    def _compact_field(self, phi: tuple[sp.Expr, ...], As: tuple[sp.Expr, ...]) -> VakonomicField:
        """The default field (:meth:`field`): the trees, or the canonical field when small or no larger."""
        trees = self._tree_field(phi, As)
        if trees is None:  # no point proves g nonsingular: the exact solve decides (or raises)
            return self._canonical_field(phi, As)
        seconds = None if self.nonholonomic._compound_arguments else COMPACT_SECONDS
        with step("VakonomicSystem.field: compact form"):
            G = compact(list(trees.Gamma), lambda: list(self._canonical_field(phi, As).Gamma), seconds)
        return trees if G is None else self._canonical_field(phi, As)

    @cached_method
    def _canonical_field(self, phi: tuple[sp.Expr, ...], As: tuple[sp.Expr, ...]) -> VakonomicField:
        with step("VakonomicSystem.field: the linear system g Γ = b on C"):
            g, rhs = self._linear_system(phi, As)
        try:  # affine in μ_a, A_a: one elimination without them, the columns combined at the end
            with step("VakonomicSystem.field: the exact solve"):
                G = solve_linear(g, rhs, affine_in=[*self.mu, *self.A], what="vakonomic field")
        except RegularityError as exc:
            raise RegularityError(
                f"VakonomicSystem.field: lagrangian: L = {self.lagrangian.expr} is not regular on C (Hessian {sp.Matrix(g).tolist()})"
            ) from exc
        return VakonomicField(self, sp.ImmutableMatrix(G), As, phi)

    @cached_property
    def _tree_system(self) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        r"""``(g, [r | c_1 … c_k])``: ``g`` in canonical form (:attr:`_g`, small), ``r_i = X_i^k E_k`` of the
        mass-matrix form on trees (:class:`~frames.dynamics._mass_matrix.MassMatrixForm`, the nonholonomic
        system's), and the columns ``(c_a)_i = R^a_iβ v^β`` of the multipliers (β ≤ m)."""
        nh = self.nonholonomic
        mm = nh._mass_matrix
        F, n, m = self.frame, self.n, self.m
        X = F.matrix
        with step("VakonomicSystem.field: the mass-matrix form on trees"):
            r = [sp.Add(*[X[i, k] * mm.E(k) for k in range(n) if X[i, k] != 0]) for i in range(n)]
            cols = [[sp.Add(*[nh._R(a, i, be) * F.v[be] for be in range(m)]) for a in self.a] for i in range(n)]
            g = self._g
        return sp.ImmutableMatrix(g), sp.ImmutableMatrix([[r[i], *cols[i]] for i in range(n)])

    @cached_property
    def _g(self) -> sp.ImmutableMatrix:
        """``g_ij = X_i^k X_j^l ∂²L/∂u^k∂u^l`` at ``u = v^α X_α``, in canonical form (small: the metric)."""
        nh = self.nonholonomic
        Hn = hessian(self.lagrangian.expr, self.lagrangian.chart.u).xreplace(nh.u_on_C)
        M = sp.Matrix(self.frame.matrix)
        return sp.ImmutableMatrix((M * Hn * M.T).applyfunc(canon))

    @cached_method
    def _inverse(self, m: int) -> tuple[sp.ImmutableMatrix, sp.Expr] | None:
        """``(adj, det)`` of the block ``g[:m, :m]`` in canonical form, ``g⁻¹ = adj / det`` (None when singular: the
        exact solve decides). The common denominator is written once per result, not once per entry of ``g⁻¹``."""
        try:
            with step("VakonomicSystem.field: the inverse of the metric"):
                X, d = solve_linear(sp.Matrix(self._g[:m, :m]), det=True)
        except RegularityError:
            return None
        return sp.ImmutableMatrix(sp.Matrix(X).applyfunc(lambda e: canon(e * d))), d

    @cached_method
    def _tree_solution(self) -> tuple[sp.ImmutableMatrix, sp.Expr] | None:
        """``(N, det g)`` with ``g⁻¹ [r | c_1 … c_k | e_{m+1} … e_n] = N / det g``: the adjugate of ``g`` in canonical
        form (the metric is small) applied to the mass-matrix form's ``r`` on trees, ``Σ_j adj_ij r_j`` (no
        elimination on the trees: nested tree pivots grow exponentially), and to the columns ``c_a = R^a_iβ v^β``
        and ``e_a``, as sums. None when ``g`` is singular."""
        inv = self._inverse(self.n)
        if inv is None:
            return None
        adj, det = inv
        _, rc = self._tree_system
        n, k = self.n, self.n - self.m
        with step("VakonomicSystem.field: g⁻¹ b on trees"):
            cols = [
                [sp.Add(*[adj[i, j] * rc[j, 0] for j in range(n) if adj[i, j] != 0 and rc[j, 0] != 0])]
                for i in range(n)
            ]
            for c in range(k):
                for i in range(n):
                    cols[i].append(sp.Add(*[adj[i, j] * rc[j, 1 + c] for j in range(n) if rc[j, 1 + c] != 0]))
            for a in self.a:
                for i in range(n):
                    cols[i].append(adj[i, a])
        return sp.ImmutableMatrix(cols), det

    def _tree_linear_system(
        self, phi: Sequence[sp.Expr], As: Sequence[sp.Expr]
    ) -> tuple[sp.ImmutableMatrix, sp.Matrix]:
        """``(g, b)`` on trees: ``b_i = r_i + φ_a (c_a)_i + A_a δ^a_i`` (:attr:`_tree_system`)."""
        g, rc = self._tree_system
        b = [
            rc[i, 0] + sp.Add(*[p * rc[i, 1 + j] for j, p in enumerate(phi) if p != 0 and rc[i, 1 + j] != 0])
            for i in range(self.n)
        ]
        for j, a in enumerate(self.a):
            b[a] += As[j]
        return g, sp.Matrix(b)

    @cached_method
    def _tree_field(self, phi: tuple[sp.Expr, ...], As: tuple[sp.Expr, ...]) -> VakonomicField | None:
        """The field on trees: ``Γ = (adj r + φ_a adj c_a + A_a adj e_a) / det g`` (None when ``g`` is singular)."""
        sol = self._tree_solution()
        if sol is None:
            return None
        X, det = sol
        k = self.n - self.m
        G = [
            (
                X[i, 0]
                + sp.Add(*[p * X[i, 1 + j] for j, p in enumerate(phi) if p != 0 and X[i, 1 + j] != 0])
                + sp.Add(*[c * X[i, 1 + k + j] for j, c in enumerate(As) if c != 0 and X[i, 1 + k + j] != 0])
            )
            / det
            for i in range(self.n)
        ]
        return VakonomicField(self, sp.ImmutableMatrix(G), As, phi)

    def _A(self, A: Any, what: str) -> tuple[sp.Expr, ...]:
        return tuple(self.A) if A is None else as_exprs(A, name=what, length=self.n - self.m)

    def _linear_system(self, phi: Sequence[sp.Expr], As: Sequence[sp.Expr]) -> tuple[sp.ImmutableMatrix, sp.Matrix]:
        g, r = self._terms
        ral, ra = self._phiR(list(phi))
        return g, sp.Matrix(r) + sp.Matrix(ral + [x + y for x, y in zip(ra, As, strict=True)])

    @budgeted("VakonomicSystem.linear_system")
    def linear_system(
        self, section: Any = None, A: Any = None, canonical: bool = True
    ) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        r"""Proposition 3 as the linear system ``g Γ̂ = b`` whose unique solution is :meth:`field`.

        ``g_ij = X_i^V X_j^V L`` on C (:meth:`hessian`) and
        ``b_i = r_i + μ_a R^a_iα v^α + A_a δ^a_i``, with ``r_i`` as in
        :func:`~frames.dynamics._lagrangian.frame_el_terms` (``μ_a`` replaced by the section when one
        is given). This is the field's *mass-matrix form*, as :mod:`sympy.physics.mechanics` gives
        equations of motion: it is exact and small when the explicit field (Cramer's rule, a ratio
        of determinants of ``g``) is too large to be worth writing out; see
        :meth:`field_size_bound`.

        Parameters
        ----------
        section, A : sequence, optional
            As for :meth:`field`.
        canonical : bool, default True
            False: ``b`` derived on trees (the mass-matrix form's ``r``, never put in canonical form; ``g`` is the
            metric, small, in canonical form): the system the default :meth:`field` solves.

        Returns
        -------
        (g, b) : tuple of ImmutableMatrix
            The ``n × n`` matrix ``g`` and the column ``b``; entries of ``b`` with more than
            :data:`CANON_OPS` operations are left as the canonical ``r_i`` plus the small terms.

        Raises
        ------
        RegularityError
            If ``g`` is singular on C (the field is then not determined).

        Examples
        --------
        >>> import frames as fr
        >>> mdl = fr.models.nonholonomic_particle()
        >>> vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, m=2)
        >>> g, b = vk.linear_system()
        >>> sp.simplify(g * sp.Matrix(vk.field().Gamma) - b) == sp.zeros(3, 1)
        True
        """
        phi = self._section(section, "VakonomicSystem.linear_system: section")
        As = self._A(A, "VakonomicSystem.linear_system: A")
        tree = not as_flag(canonical, name="VakonomicSystem.linear_system: canonical")
        g, b = self._tree_linear_system(phi, As) if tree else self._linear_system(phi, As)
        _require_nonsingular(
            g,
            lambda: (
                f"VakonomicSystem.linear_system: lagrangian: L = {self.lagrangian.expr} is not regular on C "
                f"(Hessian {sp.Matrix(g).tolist()})"
            ),
        )
        if tree:
            return g, sp.ImmutableMatrix(b)
        # canonical entries, except the very large ones (kept as a canonical r_i plus small terms: canon of such a
        # sum costs seconds and changes nothing a reader of a 10⁵-term expression would see)
        return g, sp.ImmutableMatrix(b.applyfunc(lambda e: canon(e) if op_count(e, CANON_OPS) <= CANON_OPS else e))

    def field_size_bound(self, section: Any = None, canonical: bool = True) -> int:
        r"""A bound on the terms in the numerators of the explicit :meth:`field`, before it is computed.

        By Cramer's rule ``Γ^i = det g_{(i)} / det g``, with ``b`` in column ``i``. Write ``t(e)`` for
        the number of terms of the numerator of ``e`` times that of its denominator, counted on the written
        form as if expanded (:func:`frames.algebra.cramer_size_bound`). When the entries are polynomials
        (the usual mechanical case: a polynomial frame and metric), a determinant has at most ``perm(t)``
        terms before any cancellation (the permanent of the matrix of the entries' ``t``), and the result
        is the largest of these permanents over ``i``: a strict bound. With denominators it is an estimate
        of the same growth (a common denominator can add factors). For ``n > 7`` the permanent is
        replaced by the larger ``∏_i Σ_j t_ij``. It is cheap (one walk, no product) and deterministic,
        so a caller can choose between :meth:`field` and :meth:`linear_system` before a long computation:
        the catalogue's systems stay below 4·10⁴, a random dense system with ``n = 4`` is near 3·10⁸.

        With ``canonical=False`` the same count on the system derived on trees (``linear_system(canonical=False)``,
        the mass-matrix form the default :meth:`field` solves): an estimate of the same growth that needs no
        canonical form (no ``r_i`` of the drift written out), as cheap as the trees.

        Examples
        --------
        >>> import frames as fr
        >>> mdl = fr.models.nonholonomic_particle()
        >>> fr.VakonomicSystem(mdl.lagrangian, mdl.frame, m=2).field_size_bound()
        6
        """
        phi = self._section(section, "VakonomicSystem.field_size_bound: section")
        tree = not as_flag(canonical, name="VakonomicSystem.field_size_bound: canonical")
        g, b = (self._tree_linear_system if tree else self._linear_system)(phi, tuple(self.A))
        return cramer_size_bound(g, list(b))

    def vakonomic_residuals(self, Gamma: Sequence[Any], A: Sequence[Any], phi: Sequence[Any]) -> tuple[sp.Expr, ...]:
        r"""Residuals ``Γ_C(X_i^V L) − X_i^C L − φ_a R^a_iα v^α − A_a δ^a_i`` on C (Proposition 3)."""
        k = self.n - self.m
        Gamma = as_exprs(Gamma, name="VakonomicSystem.vakonomic_residuals: Gamma", length=self.n)
        A = as_exprs(A, name="VakonomicSystem.vakonomic_residuals: A", length=k)
        phi = as_exprs(phi, name="VakonomicSystem.vakonomic_residuals: phi", length=k)
        g, r = self._terms
        ral, ra = self._phiR(list(phi))
        G = sp.Matrix(list(Gamma))
        lhs = sp.Matrix(g) * G - sp.Matrix(r)
        rhs = ral + [x + y for x, y in zip(ra, A, strict=True)]
        return tuple(tidy(lhs[i] - rhs[i]) for i in range(self.n))

    # --------------------------------------------------------- Proposition 4
    def check_regularity(self) -> None:
        r"""Raise :class:`RegularityError` unless L is regular w.r.t. D and D^⊥ on C.

        Regular w.r.t. D: ``(g_αβ)`` nonsingular; w.r.t. D^⊥: the Schur complement
        ``g_ab − g_aα g^{αβ} g_bβ`` nonsingular. Since ``det g = det g_αβ · det S``, both are first
        proved at a generic point (``g_αβ`` and ``g`` nonsingular there), without forming ``S``; otherwise
        the exact solves decide.
        """
        g = self._terms[0]
        if _witness_nonsingular(g[: self.m, : self.m]) and _witness_nonsingular(g):
            return
        self._schur()

    @cached_method
    def _schur(self) -> tuple[sp.Matrix, sp.Matrix]:
        """``(X, S)`` with ``g_αβ X = g_αb`` and the Schur complement ``S = g_ab − g_aα X``.

        Both regularity tests are exact solves in the rational-function field (fraction-free,
        ``sin² + cos² = 1`` included): a singular block raises :class:`RegularityError`.
        """
        g = sp.Matrix(self._terms[0])
        m = self.m
        gD = g[:m, :m]
        try:
            X = sp.Matrix(solve_linear(gD, g[:m, m:]))
        except RegularityError:
            raise RegularityError(
                f"VakonomicSystem: lagrangian: L = {self.lagrangian.expr} is not regular with respect to D: g_αβ = {gD.tolist()} is singular on C"
            ) from None
        S = (g[m:, m:] - g[m:, :m] * X).applyfunc(canon)
        _require_nonsingular(
            S,
            lambda: (
                f"VakonomicSystem: lagrangian: L = {self.lagrangian.expr} is not regular with respect to D^⊥: "
                f"g_ab − g_aα g^αβ g_bβ = {S.tolist()} is singular on C"
            ),
        )
        return X, S

    @cached_method
    def accelerations(self, *, canonical: bool | None = None) -> sp.ImmutableMatrix:
        r"""``q̈`` in natural coordinates ``(q, u)`` on C, in terms of the multipliers ``μ`` (Proposition 4).

        From :meth:`tangent_field` with the multipliers free (``μ`` is a state of the vakonomic motion):
        ``q̈^j = Γ^α X_α^j + v^α u^k ∂_k X_α^j`` with ``v^α = θ^α_k u^k``; its rates ``μ̇_a = A_a`` are in
        :meth:`equations`.
        """
        tf = self.tangent_field(canonical=True)
        acc = natural_accelerations(self.frame, self.m, list(tf.Gamma))
        return sp.ImmutableMatrix([tidy(canon(x)) for x in acc])

    def equations(self) -> Equations:
        r"""``q̈^j(t) = f^j(q, q̇, μ)``, ``μ̇_a(t) = A_a``, then the constraints ``θ^a(q̇) = 0`` (Proposition 4).

        The method protocol (:mod:`frames.dynamics._method`), in functions of time.
        """
        A = [tidy(canon(self.frame.to_natural(a))) for a in self.tangent_field(canonical=True).A]
        return motion_equations(
            self.lagrangian.chart,
            list(self.accelerations()),
            rates=list(zip(self.mu, A, strict=True)),
            constraints=natural_constraints(self.frame, self.m),
        )

    def ode_system(self, *, subs: Mapping[Any, Any] | None = None) -> OdeSystem:
        r"""The vakonomic field of Proposition 4 on ``C × R^{n−m}``: state ``(q, v^α, μ_a)`` (the method protocol).

        ``q̇ = v^α X_α``, ``v̇^α = Γ^α(q, v, μ)``, ``μ̇_a = A_a(q, v, μ)``; ``subs=`` specialises the right-hand
        sides. See :func:`frames.ode_system`.
        """
        return vakonomic_ode(self, subs=subs)

    def multipliers(self, *, canonical: bool | None = None) -> Multipliers:
        r"""The vakonomic multipliers ``(μ_{m+1}, …, μ_n)``: states of the motion, so their symbols."""
        return Multipliers(self.mu, first=self.m + 1, symbol=r"\mu")

    @budgeted("VakonomicSystem.tangent_field")
    def tangent_field(self, section: Any = None, canonical: bool | None = None) -> VakonomicTangentField:
        r"""Proposition 4: the unique ``Γ̂`` on ``im φ`` whose projection ``Γ_C`` is tangent to C.

        ``Γ^α = g^{αβ} Y_β`` with ``Y_α = r_α + φ_a R^a_αβ v^β``, and
        ``A_a = g_aα g^{αβ} Y_β − Y_a`` with ``Y_a = r_a + φ_b R^b_aα v^α``.

        Parameters
        ----------
        section : sequence, optional
            ``φ_a``; by default ``μ_a`` stays free.
        canonical : bool, optional
            None (default): the compact form, as :meth:`field` (``g_αβ⁻¹`` in canonical form applied to the rows of
            the mass-matrix form on trees; the canonical form when small or no larger). True: the canonical
            form (exact solves in the rational-function field). False: the trees, whatever their size.

        Raises
        ------
        RegularityError
            If L is not regular with respect to D or D^⊥.
        """
        phi = self._section(section, "VakonomicSystem.tangent_field: section")
        if canonical is None:
            return self._compact_tangent_field(phi)
        if as_flag(canonical, name="VakonomicSystem.tangent_field: canonical"):
            return self._tangent_field(phi)
        trees = self._tree_tangent_field(phi)
        return self._tangent_field(phi) if trees is None else trees

    @cached_method
    def _compact_tangent_field(self, phi: tuple[sp.Expr, ...]) -> VakonomicTangentField:
        trees = self._tree_tangent_field(phi)
        if trees is None:
            return self._tangent_field(phi)
        seconds = None if self.nonholonomic._compound_arguments else COMPACT_SECONDS

        def canonical() -> list[sp.Expr]:
            tf = self._tangent_field(phi)
            return [*tf.Gamma, *tf.A, *tf.Lambda]

        with step("VakonomicSystem.tangent_field: compact form"):
            out = compact([*trees.Gamma, *trees.A, *trees.Lambda], canonical, seconds)
        return trees if out is None else self._tangent_field(phi)

    @cached_method
    def _tree_tangent_field(self, phi: tuple[sp.Expr, ...]) -> VakonomicTangentField | None:
        """Proposition 4 on trees (None when ``g_αβ`` is singular: the exact solves raise)."""
        self.check_regularity()
        m, n = self.m, self.n
        _, Y = self._tree_linear_system(phi, [sp.S.Zero] * (n - m))
        g = self._g
        r = self._tree_system[1][:, 0]
        inv = self._inverse(m)
        if inv is None:
            return None
        adj, det = inv
        with step("VakonomicSystem.tangent_field: g_αβ⁻¹ Y_β on trees"):
            Gal = [
                sp.Add(*[adj[al, be] * Y[be] for be in range(m) if adj[al, be] != 0 and Y[be] != 0]) / det
                for al in range(m)
            ]
        gG = [sp.Add(*[g[a, al] * Gal[al] for al in range(m) if g[a, al] != 0 and Gal[al] != 0]) for a in self.a]
        Lam = tuple(x - r[a] for x, a in zip(gG, self.a, strict=True))
        A = tuple(x - Y[a] for x, a in zip(gG, self.a, strict=True))
        fld = SecondOrderField._trees(self.frame, [*Gal, *[sp.S.Zero] * (n - m)], m, self.lagrangian.time_dependent)
        return VakonomicTangentField(self, fld, A, Lam, phi)

    @cached_method
    def _tangent_field(self, phi: tuple[sp.Expr, ...]) -> VakonomicTangentField:
        self.check_regularity()  # w.r.t. D and D^⊥: proved at a generic point, else by the exact solves
        g, r = self._terms
        g = sp.Matrix(g)
        m = self.m
        ral, ra = self._phiR(phi)
        Yal = sp.Matrix([r[al] + ral[al] for al in self.alpha])
        Ya = sp.Matrix([r[a] + ra[k] for k, a in enumerate(self.a)])
        Gal = sp.Matrix(solve_linear(g[:m, :m], Yal)).applyfunc(tidy)
        Lam = sp.Matrix(tidy_affine(g[m:, :m], list(Gal), [-x for x in r[m:, :]]))
        A = sp.Matrix(tidy_affine(g[m:, :m], list(Gal), [-x for x in Ya]))
        fld = SecondOrderField(
            self.frame, list(Gal) + [0] * (self.n - m), m=m, time_dependent=self.lagrangian.time_dependent
        )
        return VakonomicTangentField(self, fld, tuple(A), tuple(Lam), phi)

    def tangency_conditions(self, section: Any = None) -> tuple[sp.Expr, ...]:
        r"""``Γ_C(φ_a) + φ_b R^b_aα v^α − Λ_a`` for the field of Proposition 4."""
        phi = self._section(section, "VakonomicSystem.tangency_conditions: section")
        return self.tangent_field(phi, canonical=True).tangency_conditions()

    # ------------------------------------------------------------- Theorem 1
    def extension(self, section: Any = None) -> tuple[sp.Expr, ...]:
        """The extension ``Φ_a`` of ``φ_a`` off C independent of ``v^a``, in natural coordinates."""
        phi = self._section(section, "VakonomicSystem.extension: section")
        return tuple(self.frame.to_natural(p) for p in phi)

    def variational_lagrangian(self, section: Any = None, extension: Sequence[Any] | None = None) -> Lagrangian:
        r"""``L̃ = L − Φ_a v^a`` (Theorem 1), as a :class:`Lagrangian` in natural coordinates.

        ``v^a = θ^a_j u^j``; ``Φ_a`` defaults to :meth:`extension`. A user-supplied
        extension (functions of ``(q, u)``) must restrict to the section on C.
        Symbols of the section that are not chart symbols are declared as parameters.
        """
        return self._variational_lagrangian(section, extension, "VakonomicSystem.variational_lagrangian")

    def _variational_lagrangian(self, section: Any, extension: Any, what: str) -> Lagrangian:
        phi = self._section(section, f"{what}: section")
        if extension is None:
            sub_v = dict(zip(self.frame.v, self.frame.v_in_u, strict=True))
            Phi = tuple(p.xreplace(sub_v) for p in phi)
        else:
            Phi = as_exprs(sequence(extension, name=f"{what}: extension"), name=f"{what}: extension", length=len(phi))
            v_set = set(self.frame.v)
            for k, (P, p) in enumerate(zip(Phi, phi, strict=True)):
                if P.free_symbols & v_set:
                    raise InvalidExpressionError(
                        f"{what}: extension[{k}]: {P} uses quasi-velocities; write Φ_a in natural coordinates (q, u)"
                    )
                if not is_zero(self.frame.to_quasi(P).xreplace(self.on_C) - p):
                    raise ConstraintError(f"{what}: extension[{k}]: {P} does not restrict to the section {p} on C")
        ch = self.lagrangian.chart
        va = [self.frame.v_in_u[a] for a in self.a]
        expr = self.lagrangian.expr - sum((P * x for P, x in zip(Phi, va, strict=True)), sp.S.Zero)
        known = set(ch.q) | set(ch.u) | set(ch.params) | ({ch.t} if ch.t is not None else set())
        extra = sorted(sp.sympify(expr, strict=True).free_symbols - known, key=str)
        if extra:
            ch = ch.with_params(extra)
        return Lagrangian(ch, sp.expand(expr))

    @budgeted("VakonomicSystem.variational_check")
    def variational_check(
        self,
        section: Any = None,
        extension: Sequence[Any] | None = None,
        el_field: bool = True,
        subs: dict[Any, Any] | None = None,
    ) -> VariationalCheck:
        r"""Check Theorem 1 for ``φ``: is ``Γ_C`` (Proposition 4) Euler–Lagrange for ``L̃`` on C?

        Computes the residuals ``Γ_C(X_i^V L̃) − X_i^C L̃`` on C (they vanish for
        ``i = α`` and equal ``−`` the tangency conditions for ``i = a``). With
        ``el_field=True`` and ``L̃`` regular on C, the restriction to C of the Euler–Lagrange
        field of ``L̃`` (Proposition 1) is computed as well and compared with ``Γ_C``.
        ``subs`` specializes parameters: in the residuals after their computation with
        symbolic parameters, and in ``g̃``, ``r̃`` and ``Γ_C`` before the Euler–Lagrange field
        of the specialized ``L̃`` is solved for.
        """
        phi = self._section(section, "VakonomicSystem.variational_check: section")
        el_field = as_flag(el_field, name="VakonomicSystem.variational_check: el_field")
        sub = as_subs(subs, name="VakonomicSystem.variational_check: subs")
        Lt = self._variational_lagrangian(phi, extension, "VakonomicSystem.variational_check")
        tf = self.tangent_field(phi, canonical=True)
        F2 = self.frame
        t = Lt.chart.t if Lt.time_dependent else None
        with step("Euler-Lagrange terms of L~ on C"):
            if extension is None:
                # Φ_a = φ_a (independent of v^a): L̃ = L − φ_a v^a in the frame coordinates. The terms are
                # linear in the Lagrangian: those of L on C (shared with the vakonomic field, computed on C)
                # plus those of the small −φ_a v^a
                lin = -sum((p * F2.v[a] for p, a in zip(phi, self.a, strict=True)), sp.S.Zero)
                g0, r0 = self._terms
                g1, r1 = frame_el_terms(lin, F2, range(self.n), self.on_C, t)
                g = sp.ImmutableMatrix((sp.Matrix(g0) + sp.Matrix(g1)).applyfunc(canon))
                r = sp.ImmutableMatrix((sp.Matrix(r0) + sp.Matrix(r1)).applyfunc(canon))
            else:
                g, r = frame_el_terms(Lt.in_frame(F2), F2, range(self.n), self.on_C, t)
        with step("Theorem 1 residuals"):
            res = tuple(tidy(x.subs(sub)) for x in (sp.Matrix(g) * sp.Matrix(tf.Gamma) - sp.Matrix(r)))
            tang = tuple(tidy(sp.sympify(x, strict=True).subs(sub)) for x in tf.tangency_conditions())
        holds = _decide(res)
        elf = None
        same = None
        if el_field:
            # The Euler–Lagrange field of L̃ is defined pointwise by g̃ Γ̃ = r̃; its restriction to C
            # is therefore obtained by solving the same system with v^a = 0 (Proposition 1 on C).
            # Parameters are specialized before the solve: the field of the specialized L̃.
            try:
                with step("Euler-Lagrange field of L~"):
                    Gt = solve_linear(
                        sp.Matrix(g).subs(sub), sp.Matrix(r).subs(sub), what=f"Euler-Lagrange field of L̃ = {Lt.expr}"
                    )
            except RegularityError:
                Gt = None
            if Gt is not None:
                elf = SecondOrderField(F2, [tidy(x) for x in Gt], m=self.m, time_dependent=Lt.time_dependent)
                diff = [canon(Gt[i] - tf.Gamma[i].subs(sub)) for i in range(self.n)]
                same = _decide(diff)
        return VariationalCheck(Lt, res, tang, holds, elf, same)


def _require_nonsingular(M: sp.MatrixBase, message: Callable[[], str]) -> None:
    """Raise :class:`RegularityError` with ``message()`` unless ``M`` is nonsingular: a generic point usually proves
    it (:func:`_witness_nonsingular`); otherwise the exact solve decides."""
    try:
        if not _witness_nonsingular(M):
            solve_linear(M, sp.zeros(M.rows, 1))
    except RegularityError:
        raise RegularityError(message()) from None


def _witness_nonsingular(S: sp.MatrixBase) -> bool:
    """True if ``S`` is proved nonsingular by evaluation at a generic point (False proves nothing)."""
    return generic_rank(S) == S.rows == S.cols
