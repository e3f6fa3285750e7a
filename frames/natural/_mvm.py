r"""The modified vakonomic method (MVM) of Pastore, Giammarini & Grillo (2024), as a W tensor.

Notation of the paper ([PGG], section 2): constraints ``V^α = a^α_k(q, t) u^k (+ c^α(q, t))``,
α = 1..m, auxiliary quasi-velocities ``F^β`` (β = m+1..n), together the quasi-velocities
``ω = (V, F)`` with Jacobian ``H^i_k = ∂ω^i/∂u^k`` (36). Variations obey the
transpositional relations ``ζ − η̇ = W η`` (15), ``W[h, k] = W^h_k``, and

* ``E_k F = ∂F/∂q^k − d/dt ∂F/∂u^k`` (28a),
* ``D_k F = E_k F + Σ_h (∂F/∂u^h) W^h_k`` (30),
* solvability conditions ``D_k ω^i = 0`` (34)–(35), i.e. ``H W = −[E_k ω^i]`` (40a)–(40b),
* MVM equations ``E_k L + Σ_h p_h W^h_k + Σ_α λ̇_α a^α_k = −Q_k``, ``V^α = 0`` (42)–(43).

This module holds the method itself; W is built in ``_mvm_w`` (two routes), the equivalence with
the nonholonomic motion (Theorem 1) and the Crampin–Mestdag bridge in ``_mvm_equivalence``.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import field
from functools import cached_property
from typing import Any

import sympy as sp

from .._value import Multipliers, cached_method
from ..algebra import derivative, expect, is_zero, solve_linear, tidy
from ..algebra.internal import as_expr, as_exprs, as_int, as_matrix, canon
from ..dynamics import DynamicsMethod, Equations, Lagrangian, OdeSystem, check_forces
from ..dynamics.internal import check_symbols, exprs_on_TQ
from ..errors import ConstraintError, NoMultipliersError, RegularityError
from ..geometry import Chart, Frame, VectorField
from ._mvm_w import jacobian_and_offset, w_from_coordinates, w_from_frame
from ._ode import mvm_ode

__all__ = ["ModifiedVakonomic"]


class ModifiedVakonomic(DynamicsMethod):
    r"""The modified vakonomic method of [PGG] section 2.

    Parameters
    ----------
    lagrangian : Lagrangian
    constraints : sequence of expressions
        ``V^α(q, u, t)``, affine in the velocities (``a^α_k u^k + c^α``).
    auxiliary : sequence of expressions
        Auxiliary quasi-velocities ``F^β``, affine in the velocities; with the constraints
        they must form a coframe (``det H ≠ 0``).
    forces : sequence of expressions or loads, optional
        Polygenic forces ``Q_k(q, u, t)`` of (43a), as :func:`~frames.dynamics.check_forces` reads them (None, an
        empty sequence or all-zero components: no forces, stored as None).
    W : matrix, optional
        Use this W instead of the solution of (40a)–(40b) ([PGG] Ansatz 1; e.g. a family of
        :func:`w_from_partial_auxiliaries`, [PGG] Ansatz 2).
    extra_symbols : sequence of Symbol, optional
        Further symbols W may contain (free functions ``ϱ``).

    Attributes
    ----------
    H : ImmutableMatrix
        The Jacobian ``H^i_k = ∂ω^i/∂u^k`` (36) of the quasi-velocities ``ω = (V, F)``.
    offset : ImmutableMatrix
        The affine parts ``c^i(q, t) = ω^i − H^i_k u^k``.
    W_given : ImmutableMatrix or None
        The W given to the constructor (None: :attr:`W` solves (40a)–(40b)).
    qdd, lam, lamdot, mu : tuple of Symbol
        Symbols of the accelerations ``q̈``, multipliers ``λ_α``, ``λ̇_α`` and TNHM multipliers ``μ_α``.

    Notes
    -----
    The method protocol: :meth:`equations` (42)–(43) as sympy equations, :meth:`accelerations`
    (the ``n`` accelerations ``q̈``; the rates ``λ̇`` are in the equations), :meth:`multipliers` (none: raises
    :class:`~frames.errors.NoMultipliersError`). The equivalence with the nonholonomic motion
    ([PGG] Theorem 1) is :func:`compare_mvm_with_nonholonomic`.

    Examples
    --------
    >>> import frames as fr, sympy as sp
    >>> mdl = fr.models.rolling_coin_incline()
    >>> x, y, phi, th = mdl.chart.q; ux, uy, uphi, uth = mdl.chart.u
    >>> R = mdl.params["R"]
    >>> mvm = fr.ModifiedVakonomic(mdl.lagrangian, constraints=[ux - R*sp.sin(th)*uphi,
    ...     uy - R*sp.cos(th)*uphi], auxiliary=[uphi, uth])
    >>> mvm.W.row(0)
    Matrix([[0, 0, -R*u_theta*cos(theta), R*u_phi*cos(theta)]])
    """

    lagrangian: Lagrangian
    constraints: tuple[sp.Expr, ...]
    auxiliary: tuple[sp.Expr, ...]
    forces: tuple[sp.Expr, ...] | None
    W_given: sp.ImmutableMatrix | None
    extra_symbols: tuple[sp.Symbol, ...]
    H: sp.ImmutableMatrix = field(compare=False, repr=False)
    offset: sp.ImmutableMatrix = field(compare=False, repr=False)
    qdd: tuple[sp.Symbol, ...] = field(compare=False, repr=False)
    lam: tuple[sp.Symbol, ...] = field(compare=False, repr=False)
    lamdot: tuple[sp.Symbol, ...] = field(compare=False, repr=False)
    mu: tuple[sp.Symbol, ...] = field(compare=False, repr=False)

    def _latex_rows(self) -> list[tuple[str, str]]:
        rows = [("L", sp.latex(self.lagrangian.expr))]
        rows += [(rf"V^{{{a + 1}}}", sp.latex(c)) for a, c in enumerate(self.constraints)]
        rows += [(rf"F^{{{self.k + b + 1}}}", sp.latex(c)) for b, c in enumerate(self.auxiliary)]
        return rows

    def __init__(
        self,
        lagrangian: Lagrangian,
        constraints: Sequence[Any],
        auxiliary: Sequence[Any],
        forces: Sequence[Any] | None = None,
        W: Any = None,
        extra_symbols: Sequence[sp.Symbol] = (),
    ) -> None:
        what = "ModifiedVakonomic"
        expect(lagrangian, Lagrangian, name=f"{what}: lagrangian")
        ch = lagrangian.chart
        self.lagrangian = lagrangian
        self.constraints = exprs_on_TQ(ch, constraints, name=f"{what}: constraints")
        self.auxiliary = exprs_on_TQ(ch, auxiliary, name=f"{what}: auxiliary")
        H, c = jacobian_and_offset(ch, self.constraints + self.auxiliary, f"{what}: constraints, auxiliary")
        self.H, self.offset = sp.ImmutableMatrix(H), sp.ImmutableMatrix(c)
        self.forces = check_forces(ch, forces, f"{what}: forces")
        self.extra_symbols = tuple(check_symbols(extra_symbols, name=f"{what}: extra_symbols"))
        self.W_given = (
            None if W is None else sp.ImmutableMatrix(as_matrix(W, name=f"{what}: W", shape=(ch.dim, ch.dim)))
        )
        m = len(self.constraints)
        self.qdd = tuple(sp.Symbol(f"{q.name}_ddot") for q in ch.q)
        self.lam = tuple(sp.Symbol(f"lambda{a + 1}") for a in range(m))
        self.lamdot = tuple(sp.Symbol(f"lambda{a + 1}_dot") for a in range(m))
        self.mu = tuple(sp.Symbol(f"mu{a + 1}") for a in range(m))

    def __check_init__(self) -> None:
        what = "ModifiedVakonomic"
        ch = self.chart
        if not self.constraints:
            raise ConstraintError(f"{what}: constraints: no constraints given")
        if len(self.constraints) + len(self.auxiliary) != ch.dim:
            raise ConstraintError(
                f"{what}: auxiliary: {len(self.constraints)} constraints + {len(self.auxiliary)} auxiliaries "
                f"!= n = {ch.dim}; the pair (V, F) must be a coframe"
            )
        if is_zero(canon(self.H.det(method="bareiss"))):
            raise ConstraintError(
                f"{what}: auxiliary: the Jacobian H = {self.H.tolist()} of (V, F) is singular (36); "
                "choose other auxiliaries"
            )
        if self.W_given is not None:
            for k, e in enumerate(self.W_given):
                ch.check_on_TQ(e, f"{what}: W[{k // ch.dim},{k % ch.dim}]", extra=self.extra_symbols)

    # ------------------------------------------------------------- basics
    @property
    def chart(self) -> Chart:
        """The natural chart of the Lagrangian."""
        return self.lagrangian.chart

    @property
    def n(self) -> int:
        """dim Q."""
        return self.chart.dim

    @property
    def k(self) -> int:
        """Number of constraints ``V^α`` (the paper's m; ``LinearConstraints.k`` likewise).

        The library reserves ``m`` for the rank of D (the Crampin–Mestdag classes), here ``n − k``.
        """
        return len(self.constraints)

    @property
    def omega(self) -> tuple[sp.Expr, ...]:
        """All quasi-velocities ``(V^1..V^m, F^{m+1}..F^n)``."""
        return self.constraints + self.auxiliary

    @property
    def A(self) -> sp.ImmutableMatrix:
        """Constraint matrix ``A^α_k = a^α_k = ∂V^α/∂u^k`` (48e)."""
        return sp.ImmutableMatrix(self.H[: self.k, :])

    @property
    def is_affine(self) -> bool:
        """True if some quasi-velocity has a nonzero affine part (Case C)."""
        return not all(is_zero(x) for x in self.offset)

    def __repr__(self) -> str:
        return (
            f"ModifiedVakonomic(L = {self.lagrangian.expr}, V = {list(self.constraints)}, F = {list(self.auxiliary)})"
        )

    @cached_property
    def X(self) -> sp.ImmutableMatrix:
        r"""Frame matrix (rows ``X_i^h``) dual to the linear part of (V, F): ``(H^{-1})^T``."""
        return sp.ImmutableMatrix(solve_linear(sp.Matrix(self.H), tidy=True).T)

    @cached_property
    def frame(self) -> Frame:
        r"""The frame ``{X_i}`` dual to the linear part of the coframe (V, F): rows of ``(H^{-1})^T``."""
        Xm = self.X
        ch = self.chart
        if ch.t is not None and any(e.has(ch.t) for e in Xm):
            raise ConstraintError("MVM.frame: the coframe depends on t; use w_from_frame (frame on R × Q)")
        return Frame([VectorField(ch, list(Xm.row(i))) for i in range(self.n)])

    # ------------------------------------------------------------------ W
    @cached_property
    def W_coordinate(self) -> sp.ImmutableMatrix:
        """W from the solvability conditions (40a)–(40b) (Ansatz 1)."""
        return w_from_coordinates(self.chart, self.omega)

    @cached_property
    def W_frame(self) -> sp.ImmutableMatrix:
        """W from the object of anholonomy of the frame dual to (V, F) (see module docstring)."""
        return w_from_frame(self.chart, self.omega)

    @property
    def W(self) -> sp.ImmutableMatrix:
        """The transpositional matrix, ``W[h, k] = W^h_k`` (the given one, else the solution of (40a)–(40b), [PGG] Ansatz 1)."""
        if self.W_given is not None:
            return self.W_given
        return self.W_coordinate

    def with_W(self, W: Any, extra_symbols: Sequence[sp.Symbol] = ()) -> ModifiedVakonomic:
        """The same system with another W (e.g. a family of :func:`w_from_partial_auxiliaries`)."""
        return ModifiedVakonomic(
            self.lagrangian, self.constraints, self.auxiliary, self.forces, W=W, extra_symbols=extra_symbols
        )

    # ------------------------------------------------------------ operators
    def ddt(self, f: object) -> sp.Expr:
        """Total time derivative along a curve, with ``q̈`` and ``λ̇`` symbols."""
        return self.chart.total_derivative(
            f, accelerations=self.qdd, extra=dict(zip(self.lam, self.lamdot, strict=True))
        )

    def E(self, f: object, k: int) -> sp.Expr:
        r"""Euler–Lagrange operator (28a): ``E_k f = ∂f/∂q^k − d/dt ∂f/∂u^k`` (0-based k)."""
        e = as_expr(f, name="ModifiedVakonomic.E: f")
        k = as_int(k, name="ModifiedVakonomic.E: k", min=0, max=self.n - 1)
        return sp.expand(derivative(e, self.chart.q[k]) - self.ddt(derivative(e, self.chart.u[k])))

    def D(self, f: object, k: int, W: Any = None) -> sp.Expr:
        r"""MVM operator (30): ``D_k f = E_k f + Σ_h (∂f/∂u^h) W^h_k``."""
        Wm = self.W if W is None else self._check_W(W, "ModifiedVakonomic.D: W")
        e = as_expr(f, name="ModifiedVakonomic.D: f")
        k = as_int(k, name="ModifiedVakonomic.D: k", min=0, max=self.n - 1)
        return sp.expand(self.E(e, k) + sp.Add(*[derivative(e, uh) * Wm[h, k] for h, uh in enumerate(self.chart.u)]))

    def _check_W(self, W: Any, what: str) -> sp.ImmutableMatrix:
        if isinstance(W, sp.ImmutableMatrix) and W.shape == (self.n, self.n) and not W.has(sp.nan, sp.zoo):
            return W  # already a matrix of expressions (e.g. checked by solvability_conditions)
        return as_matrix(W, name=what, shape=(self.n, self.n))

    def solvability_conditions(self, W: Any = None) -> sp.ImmutableMatrix:
        """``D_k ω^i`` (34)–(35), rows i (constraints then auxiliaries), columns k: all zero for a valid W."""
        if W is not None:
            W = self._check_W(W, "ModifiedVakonomic.solvability_conditions: W")
        return sp.ImmutableMatrix(self.n, self.n, lambda i, k: canon(self.D(self.omega[i], k, W)))

    # -------------------------------------------------------------- momenta
    @cached_property
    def p(self) -> sp.ImmutableMatrix:
        """Canonical momenta ``p_h = ∂L/∂u^h`` (41)."""
        return self.lagrangian.momenta()

    @cached_property
    def WTp(self) -> sp.ImmutableMatrix:
        """The covector ``(Wᵀp)_k = Σ_h p_h W^h_k``."""
        return sp.ImmutableMatrix((self.W.T * self.p).applyfunc(tidy))

    @cached_property
    def _Q(self) -> tuple[sp.Expr, ...]:
        """The forces' components ``Q_k``, zeros without forces (``forces is None``: the one spelling)."""
        return self.forces if self.forces is not None else (sp.S.Zero,) * self.n

    # ------------------------------------------------------------- equations
    def residuals(self) -> tuple[sp.Expr, ...]:
        r"""Residuals of the MVM equations (42a)/(43a) and (42b).

        ``E_k L + Σ_h p_h W^h_k + Σ_α λ̇_α a^α_k + Q_k`` (k = 1..n), then ``−V^α`` (α = 1..m), in the
        symbols :attr:`qdd` (``q̈``) and :attr:`lamdot` (``λ̇``).
        """
        L = self.lagrangian.expr
        out = []
        for k in range(self.n):
            e = self.E(L, k) + self.WTp[k] + sp.Add(*[self.lamdot[a] * self.A[a, k] for a in range(self.k)])
            out.append(sp.expand(e + self._Q[k]))
        out += [sp.expand(-V) for V in self.constraints]
        return tuple(out)

    def equations(self) -> Equations:
        r"""The MVM equations (42a)/(43a), (42b) as sympy equations ``residual = 0`` (:meth:`residuals`)."""
        return Equations(sp.Eq(r, 0, evaluate=False) for r in self.residuals())

    def lagrangian_c_equations(self) -> tuple[sp.Expr, ...]:
        r"""``D_k L_c`` with ``L_c = L − λ_α V^α`` (22), (31): equal to (42a) when (34) holds."""
        Lc = self.lagrangian.expr - sp.Add(*[la * V for la, V in zip(self.lam, self.constraints, strict=True)])
        out = []
        for k in range(self.n):
            e = self.D(Lc, k)
            out.append(canon(e + self._Q[k]))
        return tuple(out)

    def tnhm_equations(self) -> tuple[sp.Expr, ...]:
        r"""TNHM (52a–b): ``E_k L + Σ_α μ_α a^α_k + Q_k`` then ``−V^α``."""
        L = self.lagrangian.expr
        out = []
        for k in range(self.n):
            e = self.E(L, k) + sp.Add(*[self.mu[a] * self.A[a, k] for a in range(self.k)])
            out.append(canon(e + self._Q[k]))
        out += [canon(-V) for V in self.constraints]
        return tuple(out)

    # --------------------------------------------------- saddle point (50)
    @cached_property
    def _blocks(self) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix, sp.Matrix]:
        """``M``, ``A``, ``b_q`` (forces included) and ``b_c`` of (48)–(50)."""
        L = self.lagrangian.expr
        zero = dict.fromkeys(self.qdd, 0)
        M = sp.Matrix(self.lagrangian.hessian())
        bq = sp.Matrix([canon(self.E(L, k).xreplace(zero) + self._Q[k]) for k in range(self.n)])
        bc = sp.Matrix([canon(self.ddt(V).xreplace(zero)) for V in self.constraints])
        return M, sp.Matrix(self.A), bq, bc

    def saddle_point(self) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        r"""The saddle-point system (50): ``K (q̈, λ̇) = r``.

        ``K = [[M, −Aᵀ], [−A, 0]]``, ``r = (b_q + Wᵀp, b_c)`` with ``b_q = E_k L|_{q̈=0} + Q_k``
        (``= −M C q̇q̇ + Ω q̇ + F`` of (48)) and ``b_c = d/dt V^α|_{q̈=0}`` (``= Λ q̇q̇ + Θ q̇``).
        """
        M, A, bq, bc = self._blocks
        K = sp.Matrix.vstack(sp.Matrix.hstack(M, -A.T), sp.Matrix.hstack(-A, sp.zeros(self.k, self.k)))
        r = sp.Matrix.vstack(bq + sp.Matrix(self.WTp), bc)
        return sp.ImmutableMatrix(K), sp.ImmutableMatrix(r)

    @cached_property
    def schur_blocks(self) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix, sp.ImmutableMatrix]:
        r"""``(M^{-1}, S^{-1}, P)`` of (51a): ``S = A M^{-1} Aᵀ``, ``P = M^{-1} − M^{-1}Aᵀ S^{-1} A M^{-1}``.

        Raises
        ------
        RegularityError
            If the mass matrix ``M = ∂²L/∂u∂u`` is singular.
        """
        M, A, _, _ = self._blocks
        if is_zero(M.det(method="bareiss")):
            raise RegularityError(f"ModifiedVakonomic: lagrangian: the mass matrix {M.tolist()} is singular")
        Mi = solve_linear(M, tidy=True)
        S = (A * Mi * A.T).applyfunc(tidy)
        Si = solve_linear(S, tidy=True)
        P = (Mi - Mi * A.T * Si * A * Mi).applyfunc(tidy)
        return sp.ImmutableMatrix(Mi), sp.ImmutableMatrix(Si), sp.ImmutableMatrix(P)

    def projector(self) -> sp.ImmutableMatrix:
        """``P = M^{-1} − M^{-1}Aᵀ S^{-1} A M^{-1}``, ``S = A M^{-1} Aᵀ`` (51a)."""
        return self.schur_blocks[2]

    def solution(self) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        r"""Deprecated: ``(accelerations(), rates())``, the Schur-complement solution (51a–b).

        .. deprecated::
            Use :meth:`accelerations` (the method base) and :meth:`rates`; removed in a later release.
        """
        warnings.warn(
            "ModifiedVakonomic.solution() is deprecated: use accelerations() and rates()",
            DeprecationWarning,
            stacklevel=2,
        )
        return self._solved()

    def rates(self) -> sp.ImmutableMatrix:
        r"""The rates ``λ̇`` of (51b), ``−S^{-1}(A M^{-1}(b_q + Wᵀp) + b_c)`` (k entries), functions of ``(q, u, t)``."""
        return self._solved()[1]

    @cached_method
    def _solved(self) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        r"""The Schur-complement solution (51a–b): ``(q̈, λ̇)``, two columns (n and k entries).

        ``q̈ = P (b_q + Wᵀp) − M^{-1}Aᵀ S^{-1} b_c`` and ``λ̇ = −S^{-1}(A M^{-1}(b_q + Wᵀp) + b_c)``.
        """
        _M, A, bq, bc = self._blocks
        Mi, Si, P = self.schur_blocks
        f = bq + sp.Matrix(self.WTp)
        qdd = P * f - Mi * A.T * Si * bc
        lamd = -Si * (A * Mi * f + bc)
        return sp.ImmutableMatrix(qdd.applyfunc(tidy)), sp.ImmutableMatrix(lamd.applyfunc(tidy))

    def ode_system(self, *, subs: Mapping[Any, Any] | None = None, form: str = "mvm") -> OdeSystem:
        r"""The MVM equations (51a–b) as a first-order system: state ``(q, u, λ)`` (the method base).

        ``subs=`` specialises the right-hand sides; ``form`` labels the system. See :func:`frames.ode_system`.
        """
        return mvm_ode(self, subs=subs, form=form)

    def accelerations(self, *, canonical: bool | None = None) -> sp.ImmutableMatrix:
        r"""The ``n`` natural accelerations ``q̈`` of (51a), functions of ``(q, u, t)`` (the method protocol).

        The multipliers ``λ_α`` are states of the method (they never enter the equations, only their rates
        do): the rates ``λ̇_α`` (51b) are in :meth:`equations` and :meth:`rates`. ``canonical``: the method
        computes one (tidied) form, returned for every value. ``q̈ = P (b_q + Wᵀp) − M^{-1}Aᵀ S^{-1} b_c``.
        """
        return self._solved()[0]

    def multipliers(self, *, canonical: bool | None = None) -> Multipliers:
        """The MVM has no algebraic multipliers: ``λ`` are states and ``λ̇`` is :meth:`rates`.

        Raises
        ------
        NoMultipliersError
            Always.
        """
        raise NoMultipliersError(
            "ModifiedVakonomic.multipliers: the MVM's multipliers λ are states; their rates λ̇ are in "
            "equations() and rates()"
        )

    @cached_method
    def tnhm_solution(self) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        r"""TNHM (53)–(54): ``q̈ = P b_q − M^{-1}Aᵀ S^{-1} b_c``, ``μ = −S^{-1}(A M^{-1} b_q + b_c)``."""
        _M, A, bq, bc = self._blocks
        Mi, Si, P = self.schur_blocks
        qdd = P * bq - Mi * A.T * Si * bc
        mu = -Si * (A * Mi * bq + bc)
        return sp.ImmutableMatrix(qdd.applyfunc(tidy)), sp.ImmutableMatrix(mu.applyfunc(tidy))

    # ------------------------------------------------------- constraint set
    @cached_property
    def _on_C(self) -> dict[sp.Symbol, sp.Expr]:
        """``u`` on C: ``u = H^{-1}(w − c)`` with ``w = (0, …, 0, F-values)``; F-values named after u."""
        n, m = self.n, self.k
        # parametrize C by the auxiliary values, named s1..s_{n-m}
        s = sp.symbols(f"s_aux1:{n - m + 1}")
        w = sp.Matrix([0] * m + list(s)) - sp.Matrix(self.offset)
        u = (self.X.T * w).applyfunc(canon)
        # substitute back the auxiliaries in terms of u so results stay in (q, u): solve F = s
        sol = {si: canon(self.auxiliary[b]) for b, si in enumerate(s)}
        return {ui: canon(u[k].xreplace(sol)) for k, ui in enumerate(self.chart.u)}

    def on_constraint(self, expr: object) -> sp.Expr:
        r"""Restrict a function of ``(q, u, t)`` to C: ``u ↦ H^{-1}((0, F) − c)`` (a projection onto C)."""
        return tidy(as_expr(expr, name="ModifiedVakonomic.on_constraint: expr").xreplace(self._on_C))

    def d_basis(self) -> list[sp.Matrix]:
        """A basis ``Y_β`` of ``D = ker A`` (the frame fields dual to the auxiliaries)."""
        Xm = self.X
        return [sp.Matrix(Xm.row(b)).T for b in range(self.k, self.n)]

    def momentum_condition(self) -> bool:
        r"""``Wᵀp = 0`` on C ([PGG] Corollary 1, (56a); Talamucci (64)).

        Sufficient for the equivalence with the nonholonomic motion (:func:`compare_mvm_with_nonholonomic`),
        and then ``λ̇ = μ``.
        """
        return all(is_zero(self.on_constraint(x)) for x in self.WTp)

    # ------------------------------------------------------- canonical flip
    def flip_coefficients(self) -> tuple[sp.ImmutableMatrix, sp.ImmutableDenseNDimArray]:
        r"""Remark 2, (19)–(21): ``W^h_k = C^h_{0k} + C^h_{ℓk} u^ℓ``.

        Returns ``(C0, C)`` with ``C0[h, k] = C^h_{0k}`` and ``C[h, l, k] = C^h_{ℓk} = ∂W^h_k/∂u^ℓ``.

        Raises
        ------
        ConstraintError
            If W is not affine in the velocities.
        """
        n = self.n
        u = self.chart.u
        W = self.W
        C = sp.MutableDenseNDimArray.zeros(n, n, n)
        for h in range(n):
            for k in range(n):
                for l in range(n):
                    d = canon(derivative(W[h, k], u[l]))
                    if d.free_symbols & set(u):
                        raise ConstraintError(f"flip_coefficients: W[{h},{k}] = {W[h, k]} is not affine in u")
                    C[h, l, k] = tidy(d)
        C0 = sp.ImmutableMatrix(n, n, lambda h, k: tidy(W[h, k].xreplace(dict.fromkeys(u, 0))))
        return C0, sp.ImmutableDenseNDimArray(C)

    # ----------------------------------------------- section 2.6 (gyroscopic)
    def split_lagrangian(self) -> tuple[sp.Expr, sp.ImmutableMatrix, sp.Expr]:
        r"""``L = L_2 + Z_h u^h + U`` (44): returns ``(L_0 = L_2 + U, Z, U)`` (58)."""
        L = sp.expand(self.lagrangian.expr)
        u = self.chart.u
        zero = dict.fromkeys(u, 0)
        U = L.xreplace(zero)
        Z = sp.Matrix([derivative(L, ui).xreplace(zero) for ui in u])
        L0 = canon(L - sp.Add(*[Z[h] * u[h] for h in range(self.n)]))
        return L0, sp.ImmutableMatrix(Z), U

    def gyroscopic_forces(self) -> sp.ImmutableMatrix:
        r"""Pseudo-polygenic forces (57): ``Q_k = Σ_h (∂_k Z_h − ∂_h Z_k) u^h − ∂_t Z_k``, so ``E_k L = E_k L_0 + Q_k``."""
        _, Z, _ = self.split_lagrangian()
        q, u, t = self.chart.q, self.chart.u, self.chart.t
        out = []
        for k in range(self.n):
            e = sp.Add(*[(derivative(Z[h], q[k]) - derivative(Z[k], q[h])) * u[h] for h in range(self.n)])
            if t is not None:
                e -= derivative(Z[k], t)
            out.append(canon(e))
        return sp.ImmutableMatrix(out)

    def pseudo_polygenic(self) -> ModifiedVakonomic:
        r"""Section 2.6: the MVM for ``L_0`` with the gyroscopic terms as forces (59a–b).

        The W term is then built from the kinetic momenta ``p0 = ∂L_0/∂u``; (59a) differs
        from (42a) by ``Wᵀ Z``.
        """
        L0, _, _ = self.split_lagrangian()
        Qg = self.gyroscopic_forces()
        # (43a): E_k L0 + … = −Q_k; since E_k L = E_k L0 + Q_k (57), the gyroscopic Q enters as a force
        forces = [Qg[k] + self._Q[k] for k in range(self.n)]
        return ModifiedVakonomic(
            Lagrangian(self.chart, L0),
            self.constraints,
            self.auxiliary,
            forces,
            W=self.W_given,
            extra_symbols=self.extra_symbols,
        )

    # ------------------------------------------------ Crampin–Mestdag bridge
    def frame_components(self, covector: Any) -> sp.ImmutableMatrix:
        """Frame components ``X_j^k ξ_k`` of a covector ξ (frame dual to (V, F))."""
        xi = as_exprs(covector, name="ModifiedVakonomic.frame_components: covector", length=self.n)
        return sp.ImmutableMatrix((self.X * sp.Matrix(xi)).applyfunc(tidy))
