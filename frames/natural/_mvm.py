r"""The modified vakonomic method (MVM) of Pastore, Giammarini & Grillo (2024), as a W tensor.

Notation of the paper ([PGG], section 2): constraints ``V^α = a^α_k(q, t) u^k (+ c^α(q, t))``,
α = 1..m, auxiliary quasi-velocities ``F^β`` (β = m+1..n), together the quasi-velocities
``ω = (V, F)`` with Jacobian ``H^i_k = ∂ω^i/∂u^k`` (36). Variations obey the
transpositional relations ``ζ − η̇ = W η`` (15), ``W[h, k] = W^h_k``, and

* ``E_k F = ∂F/∂q^k − d/dt ∂F/∂u^k`` (28a),
* ``D_k F = E_k F + Σ_h (∂F/∂u^h) W^h_k`` (30),
* solvability conditions ``D_k ω^i = 0`` (34)–(35), i.e. ``H W = −[E_k ω^i]`` (40a)–(40b),
* MVM equations ``E_k L + Σ_h p_h W^h_k + Σ_α λ̇_α a^α_k = −Q_k``, ``V^α = 0`` (42)–(43).

Frame route (docs/mvm.md): with ``Θ^i = θ^i_k dq^k + c^i dt`` on ``R × Q``, the frame
``{X_0 = ∂_t − c^i X_i, X_i}`` dual to ``(dt, Θ^i)``, its object of anholonomy ``R`` and the
extended velocity ``U = ∂_t + u^k ∂_k = X_0 + ω^i X_i``,

    W^h_k = X_i^h R^i_{jM} Ω^M θ^j_k,     Ω = (1, ω^1, …, ω^n),

the coordinate form of the (1,1) tensor ``Σ_i X_i ⊗ (U ⌟ dΘ^i)``. For a scleronomic linear
coframe only the spatial part survives, ``W = X^T (R·v) Θ``.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from functools import cached_property
from typing import Any

import sympy as sp

from .._value import Value
from ..algebra import (
    as_expr,
    as_exprs,
    as_int,
    as_matrix,
    canon,
    derivative,
    is_zero,
    solve_linear,
    tidy,
)
from ..dynamics._checks import check_symbols, expect_obj, exprs_on_TQ, index_pairs, n_exprs_on_TQ, prefix_symbols
from ..dynamics._lagrangian import Lagrangian
from ..errors import ConstraintError, InvalidExpressionError, RegularityError
from ..geometry._chart import Chart
from ..geometry._fields import VectorField
from ..geometry._frame import Frame

__all__ = [
    "Ansatz2Result",
    "ModifiedVakonomic",
    "Theorem1Result",
    "ansatz2",
    "mvm_w_coordinate",
    "mvm_w_frame",
]


# ------------------------------------------------------------------ helpers
def _jacobian_and_offset(chart: Chart, omegas: Sequence[sp.Expr], what: str) -> tuple[sp.Matrix, sp.Matrix]:
    """``H[i, k] = ∂ω^i/∂u^k`` and ``c^i = ω^i − H^i_k u^k``; raise unless ω is affine in u."""
    u = chart.u
    n = chart.dim
    H = sp.zeros(len(omegas), n)
    c = sp.zeros(len(omegas), 1)
    for i, om in enumerate(omegas):
        for k in range(n):
            h = canon(derivative(om, u[k]))
            if h.free_symbols & set(u):
                raise ConstraintError(
                    f"{what}: quasi-velocity {i + 1}, {om}, is not affine in the velocities "
                    f"(∂/∂{u[k]} = {h} depends on u); the MVM here needs V^α, F^β affine in u"
                )
            H[i, k] = h
        c[i, 0] = canon(om - sum((H[i, k] * u[k] for k in range(n)), sp.S.Zero))
    return H, c


def mvm_w_coordinate(chart: Chart, omegas: Sequence[sp.Expr]) -> sp.ImmutableMatrix:
    r"""W from the solvability conditions (40a)–(40b): ``Σ_h (∂ω^i/∂u^h) W^h_k = −E_k ω^i``.

    Solved exactly as the linear system ``H W = −[E_k ω^i]`` (``H`` the Jacobian (36)).
    ``E_k ω^i = ∂_k ω^i − d/dt(∂ω^i/∂u^k)`` contains no accelerations, since ω is affine in u.

    Raises
    ------
    ConstraintError
        If ω is not affine in u, or ``H`` is singular (the quasi-velocities are dependent).
    """
    omegas = n_exprs_on_TQ(chart, omegas, "mvm_w_coordinate")
    H, _ = _jacobian_and_offset(chart, omegas, "mvm_w_coordinate: omegas")
    n = chart.dim
    det = canon(H.det(method="bareiss"))
    if is_zero(det):
        raise ConstraintError(
            f"mvm_w_coordinate: omegas: the Jacobian H = {H.tolist()} of (V, F) is singular; choose other auxiliaries"
        )
    Emat = sp.Matrix(
        n, n, lambda i, k: derivative(omegas[i], chart.q[k]) - chart.total_derivative(derivative(omegas[i], chart.u[k]))
    )
    # Gauss-Jordan with exact zero tests for pivots (LUsolve may pick a pivot that vanishes: nan)
    W = solve_linear(H, -Emat)
    return sp.ImmutableMatrix(W.applyfunc(tidy))


def _extended(chart: Chart) -> tuple[Chart, dict[Any, Any]]:
    """The chart ``(τ, q)`` on R × Q (τ replaces the time symbol) and the substitution t → τ."""
    tau = sp.Symbol("tau_ext")
    ch = Chart([tau, *chart.q], [sp.Symbol("tau_ext_dot"), *chart.u], params=chart.params)
    return ch, ({chart.t: tau} if chart.t is not None else {})


def mvm_w_frame(chart: Chart, omegas: Sequence[sp.Expr], v: str = "w") -> sp.ImmutableMatrix:
    r"""W from the object of anholonomy of the frame dual to the coframe (V, F).

    Scleronomic linear case: build :class:`~frames.Frame` from the rows of
    ``(H^{-1})^T`` (the fields ``X_i`` with ``θ^i(X_j) = δ^i_j``), take ``R = F.anholonomy`` and

        W^h_k = X_i^h R^i_{jm} v^m θ^j_k,      v = H u.

    Time-dependent or affine case (``ω^i = θ^i_k(q, t) u^k + c^i(q, t)``): the same formula on
    R × Q for the coframe ``(dt, Θ^i = θ^i + c^i dt)``, dual frame ``X_0 = ∂_t − c^i X_i``, ``X_i``,
    with the extended quasi-velocities ``Ω = (1, ω)``:

        W^h_k = X_i^h R^i_{jM} Ω^M θ^j_k        (M = 0..n).
    """
    omegas = n_exprs_on_TQ(chart, omegas, "mvm_w_frame")
    if isinstance(v, str):
        prefix_symbols(v, [], name="mvm_w_frame: v")
    else:
        check_symbols(v, name="mvm_w_frame: v")
    H, c = _jacobian_and_offset(chart, omegas, "mvm_w_frame: omegas")
    n = chart.dim
    if is_zero(canon(H.det(method="bareiss"))):
        raise ConstraintError(
            f"mvm_w_frame: omegas: the Jacobian H = {H.tolist()} of (V, F) is singular; choose other auxiliaries"
        )
    Xm = solve_linear(H, tidy=True).T  # rows X_i^j
    timed = chart.t is not None and (any(e.has(chart.t) for e in list(H) + list(c)) or any(not is_zero(ci) for ci in c))
    u = sp.Matrix(chart.u)
    if not timed and all(is_zero(ci) for ci in c):
        F = Frame([VectorField(chart, list(Xm.row(i))) for i in range(n)], v=v)
        R = F.anholonomy
        vv = H * u
        Rv = sp.Matrix(n, n, lambda i, j: sp.Add(*[R[i, j, m] * vv[m] for m in range(n)]))
        W = Xm.T * Rv * H
        return sp.ImmutableMatrix(W.applyfunc(tidy))
    ext, sub = _extended(chart)
    back = {val: key for key, val in sub.items()}
    X0 = [sp.S.One] + [-sp.Add(*[c[i] * Xm[i, j] for i in range(n)]).xreplace(sub) for j in range(n)]
    fields = [VectorField(ext, X0)] + [
        VectorField(ext, [0] + [Xm[i, j].xreplace(sub) for j in range(n)]) for i in range(n)
    ]
    F = Frame(fields, v=v)
    R = F.anholonomy
    Om = [sp.S.One] + [o.xreplace(sub) for o in omegas]
    Hs = H.xreplace(sub)
    Xs = Xm.xreplace(sub)
    # spatial indices i, j of the extended frame are 1..n; M runs over 0..n
    RO = sp.Matrix(n, n, lambda i, j: sp.Add(*[R[i + 1, j + 1, M] * Om[M] for M in range(n + 1)]))
    W = Xs.T * RO * Hs
    return sp.ImmutableMatrix(W.applyfunc(lambda e: tidy(sp.sympify(e, strict=True).xreplace(back))))


# ------------------------------------------------------------------ results
class Theorem1Result(Value):
    r"""Theorem 1 of [PGG]: equivalence of MVM and TNHM.

    Attributes
    ----------
    projected : Matrix
        (55a) ``P Wᵀp`` with ``P = M^{-1} − M^{-1}Aᵀ S^{-1} A M^{-1}``, on C.
    multiplier_shift : Matrix
        ``S^{-1} A M^{-1} Wᵀp`` on C, so that (55b) reads ``λ̇ = μ − multiplier_shift``.
    d_components : Matrix
        ``(Wᵀp)(Y_β)`` for a basis ``Y_β`` of D, on C (zero iff (55a) holds).
    holds : bool
        True iff (55a) vanishes identically on C.
    """

    projected: sp.ImmutableMatrix
    multiplier_shift: sp.ImmutableMatrix
    d_components: sp.ImmutableMatrix
    holds: bool


class Ansatz2Result(Value):
    r"""W from a subset of auxiliaries plus the Theorem 1 conditions ([PGG] Ansatz 2, Case B).

    Attributes
    ----------
    W : Matrix
        The family of solutions, in the free functions ``free``.
    free : tuple of Symbol
        The free functions (``ϱ`` of [PGG] (116)); symbols standing for arbitrary functions of (q, u, t).
    system : ModifiedVakonomic
        The MVM with this W.
    accelerations_independent : bool
        True iff ``∂q̈/∂ϱ = 0`` identically for the Schur solution (51a).
    """

    W: sp.ImmutableMatrix
    free: tuple[sp.Symbol, ...]
    system: ModifiedVakonomic
    accelerations_independent: bool


# ------------------------------------------------------------------- system
class ModifiedVakonomic(Value):
    r"""The modified vakonomic method of [PGG] section 2.

    Parameters
    ----------
    lagrangian : Lagrangian
    constraints : sequence of expressions
        ``V^α(q, u, t)``, affine in the velocities (``a^α_k u^k + c^α``).
    auxiliary : sequence of expressions
        Auxiliary quasi-velocities ``F^β``, affine in the velocities; with the constraints
        they must form a coframe (``det H ≠ 0``).
    forces : sequence of expressions, optional
        Polygenic forces ``Q_k(q, u, t)`` of (43a).
    W : matrix, optional
        Use this W instead of the Ansatz-1 solution (e.g. the family of Ansatz 2).
    extra_symbols : sequence of Symbol, optional
        Further symbols W may contain (free functions ``ϱ``).

    Attributes
    ----------
    qdd, lam, lamdot, mu : tuple of Symbol
        Accelerations ``q̈``, multipliers ``λ_α``, ``λ̇_α`` and TNHM multipliers ``μ_α``.

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
    extra_symbols: tuple[sp.Symbol, ...]
    qdd: tuple[sp.Symbol, ...]
    lam: tuple[sp.Symbol, ...]
    lamdot: tuple[sp.Symbol, ...]
    mu: tuple[sp.Symbol, ...]

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
        expect_obj(lagrangian, Lagrangian, name=f"{what}: lagrangian")
        ch = lagrangian.chart
        cons = exprs_on_TQ(ch, constraints, name=f"{what}: constraints")
        aux = exprs_on_TQ(ch, auxiliary, name=f"{what}: auxiliary")
        if not cons:
            raise ConstraintError(f"{what}: constraints: no constraints given")
        if len(cons) + len(aux) != ch.dim:
            raise ConstraintError(
                f"{what}: auxiliary: {len(cons)} constraints + {len(aux)} auxiliaries != n = {ch.dim}; "
                "the pair (V, F) must be a coframe"
            )
        H, c = _jacobian_and_offset(ch, cons + aux, f"{what}: constraints, auxiliary")
        det = canon(H.det(method="bareiss"))
        if is_zero(det):
            raise ConstraintError(
                f"{what}: auxiliary: the Jacobian H = {H.tolist()} of (V, F) is singular (36); choose other auxiliaries"
            )
        Q = None
        if forces is not None:
            Q = exprs_on_TQ(ch, forces, name=f"{what}: forces", length=ch.dim)
        extra_symbols = check_symbols(extra_symbols, name=f"{what}: extra_symbols")
        Wm = None
        if W is not None:
            Wm = as_matrix(W, name=f"{what}: W", shape=(ch.dim, ch.dim))
            for k, e in enumerate(Wm):
                ch.check_on_TQ(e, f"{what}: W[{k // ch.dim},{k % ch.dim}]", extra=extra_symbols)
        object.__setattr__(self, "lagrangian", lagrangian)
        object.__setattr__(self, "constraints", cons)
        object.__setattr__(self, "auxiliary", aux)
        object.__setattr__(self, "forces", Q)
        object.__setattr__(self, "_H", sp.ImmutableMatrix(H))
        object.__setattr__(self, "_c", sp.ImmutableMatrix(c))
        object.__setattr__(self, "_W", Wm)
        object.__setattr__(self, "extra_symbols", tuple(extra_symbols))
        m = len(cons)
        object.__setattr__(self, "qdd", tuple(sp.Symbol(f"{q.name}_ddot") for q in ch.q))
        object.__setattr__(self, "lam", tuple(sp.Symbol(f"lambda{a + 1}") for a in range(m)))
        object.__setattr__(self, "lamdot", tuple(sp.Symbol(f"lambda{a + 1}_dot") for a in range(m)))
        object.__setattr__(self, "mu", tuple(sp.Symbol(f"mu{a + 1}") for a in range(m)))

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
    def m(self) -> int:
        """Deprecated: the number of constraints, now :attr:`k` (``m`` means the rank of D elsewhere)."""
        warnings.warn(
            "ModifiedVakonomic.m (number of constraints) is deprecated; use .k. "
            "Elsewhere in frames m is the rank of the constraint distribution.",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.k

    @property
    def omega(self) -> tuple[sp.Expr, ...]:
        """All quasi-velocities ``(V^1..V^m, F^{m+1}..F^n)``."""
        return self.constraints + self.auxiliary

    @property
    def H(self) -> sp.ImmutableMatrix:
        """Jacobian ``H^i_k = ∂ω^i/∂u^k`` (36): the coframe matrix of (V, F)."""
        return self._H  # type: ignore[attr-defined, no-any-return]

    @property
    def A(self) -> sp.ImmutableMatrix:
        """Constraint matrix ``A^α_k = a^α_k = ∂V^α/∂u^k`` (48e)."""
        return sp.ImmutableMatrix(self.H[: self.k, :])

    @property
    def offset(self) -> sp.ImmutableMatrix:
        """The affine parts ``c^i(q, t) = ω^i − H^i_k u^k``."""
        return self._c  # type: ignore[attr-defined, no-any-return]

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
            raise ConstraintError("MVM.frame: the coframe depends on t; use mvm_w_frame (frame on R × Q)")
        return Frame([VectorField(ch, list(Xm.row(i))) for i in range(self.n)])

    # ------------------------------------------------------------------ W
    @cached_property
    def W_coordinate(self) -> sp.ImmutableMatrix:
        """W from the solvability conditions (40a)–(40b) (Ansatz 1)."""
        return mvm_w_coordinate(self.chart, self.omega)

    @cached_property
    def W_frame(self) -> sp.ImmutableMatrix:
        """W from the object of anholonomy of the frame dual to (V, F) (see module docstring)."""
        return mvm_w_frame(self.chart, self.omega)

    @property
    def W(self) -> sp.ImmutableMatrix:
        """The transpositional matrix, ``W[h, k] = W^h_k`` (the given one, else Ansatz 1)."""
        if self._W is not None:  # type: ignore[attr-defined]
            return self._W  # type: ignore[attr-defined, no-any-return]
        return self.W_coordinate

    def with_W(self, W: Any, extra_symbols: Sequence[sp.Symbol] = ()) -> ModifiedVakonomic:
        """The same system with another W (e.g. an Ansatz-2 family)."""
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

    # ------------------------------------------------------------- equations
    def equations(self) -> tuple[sp.Expr, ...]:
        r"""Residuals of the MVM equations (42a)/(43a) and (42b).

        ``E_k L + Σ_h p_h W^h_k + Σ_α λ̇_α a^α_k + Q_k`` (k = 1..n), then ``−V^α`` (α = 1..m).
        """
        L = self.lagrangian.expr
        out = []
        for k in range(self.n):
            e = self.E(L, k) + self.WTp[k] + sp.Add(*[self.lamdot[a] * self.A[a, k] for a in range(self.k)])
            if self.forces is not None:
                e += self.forces[k]
            out.append(sp.expand(e))
        out += [sp.expand(-V) for V in self.constraints]
        return tuple(out)

    def lagrangian_c_equations(self) -> tuple[sp.Expr, ...]:
        r"""``D_k L_c`` with ``L_c = L − λ_α V^α`` (22), (31): equal to (42a) when (34) holds."""
        Lc = self.lagrangian.expr - sp.Add(*[la * V for la, V in zip(self.lam, self.constraints, strict=True)])
        out = []
        for k in range(self.n):
            e = self.D(Lc, k)
            if self.forces is not None:
                e += self.forces[k]
            out.append(canon(e))
        return tuple(out)

    def tnhm_equations(self) -> tuple[sp.Expr, ...]:
        r"""TNHM (52a–b): ``E_k L + Σ_α μ_α a^α_k + Q_k`` then ``−V^α``."""
        L = self.lagrangian.expr
        out = []
        for k in range(self.n):
            e = self.E(L, k) + sp.Add(*[self.mu[a] * self.A[a, k] for a in range(self.k)])
            if self.forces is not None:
                e += self.forces[k]
            out.append(canon(e))
        out += [canon(-V) for V in self.constraints]
        return tuple(out)

    # --------------------------------------------------- saddle point (50)
    @cached_property
    def _blocks(self) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix, sp.Matrix]:
        """``M``, ``A``, ``b_q`` (forces included) and ``b_c`` of (48)–(50)."""
        L = self.lagrangian.expr
        zero = dict.fromkeys(self.qdd, 0)
        M = sp.Matrix(self.lagrangian.hessian())
        bq = sp.Matrix(
            [canon(self.E(L, k).xreplace(zero) + (self.forces[k] if self.forces else 0)) for k in range(self.n)]
        )
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
    def _schur(self) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix]:
        M, A, _, _ = self._blocks
        if is_zero(M.det(method="bareiss")):
            raise RegularityError(f"ModifiedVakonomic: lagrangian: the mass matrix {M.tolist()} is singular")
        Mi = solve_linear(M, tidy=True)
        S = (A * Mi * A.T).applyfunc(tidy)
        Si = solve_linear(S, tidy=True)
        P = (Mi - Mi * A.T * Si * A * Mi).applyfunc(tidy)
        return Mi, Si, P

    def projector(self) -> sp.ImmutableMatrix:
        """``P = M^{-1} − M^{-1}Aᵀ S^{-1} A M^{-1}``, ``S = A M^{-1} Aᵀ`` (51a)."""
        return sp.ImmutableMatrix(self._schur[2])

    def solve(self) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        r"""Schur-complement solution (51a–b): ``(q̈, λ̇)``.

        ``q̈ = P (b_q + Wᵀp) − M^{-1}Aᵀ S^{-1} b_c`` and ``λ̇ = −S^{-1}(A M^{-1}(b_q + Wᵀp) + b_c)``.
        """
        _M, A, bq, bc = self._blocks
        Mi, Si, P = self._schur
        f = bq + sp.Matrix(self.WTp)
        qdd = P * f - Mi * A.T * Si * bc
        lamd = -Si * (A * Mi * f + bc)
        return sp.ImmutableMatrix(qdd.applyfunc(tidy)), sp.ImmutableMatrix(lamd.applyfunc(tidy))

    def tnhm_solve(self) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        r"""TNHM (53)–(54): ``q̈ = P b_q − M^{-1}Aᵀ S^{-1} b_c``, ``μ = −S^{-1}(A M^{-1} b_q + b_c)``."""
        _M, A, bq, bc = self._blocks
        Mi, Si, P = self._schur
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

    # ------------------------------------------------------------ Theorem 1
    def theorem1(self) -> Theorem1Result:
        r"""Theorem 1 (55a–b): MVM ≡ TNHM iff ``P Wᵀp = 0`` on C; then ``λ̇ = μ − S^{-1}AM^{-1}Wᵀp``."""
        Mi, Si, P = self._schur
        _, A, _, _ = self._blocks
        wtp = sp.Matrix(self.WTp)
        proj = (P * wtp).applyfunc(self.on_constraint)
        shift = (Si * A * Mi * wtp).applyfunc(self.on_constraint)
        dcomp = sp.Matrix([self.on_constraint((wtp.T * Y)[0]) for Y in self.d_basis()])
        return Theorem1Result(
            sp.ImmutableMatrix(proj),
            sp.ImmutableMatrix(shift),
            sp.ImmutableMatrix(dcomp),
            all(is_zero(x) for x in proj),
        )

    def corollary1(self) -> bool:
        r"""Corollary 1 (56a): ``Wᵀp = 0`` on C (sufficient for equivalence, then ``λ̇ = μ``)."""
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
        forces = [Qg[k] + (self.forces[k] if self.forces else 0) for k in range(self.n)]
        return ModifiedVakonomic(
            Lagrangian(self.chart, L0),
            self.constraints,
            self.auxiliary,
            forces,
            W=self._W,  # type: ignore[attr-defined]
            extra_symbols=self.extra_symbols,
        )

    # ------------------------------------------------ Crampin–Mestdag bridge
    def frame_components(self, covector: Any) -> sp.ImmutableMatrix:
        """Frame components ``X_j^k ξ_k`` of a covector ξ (frame dual to (V, F))."""
        xi = as_exprs(covector, name="ModifiedVakonomic.frame_components: covector", length=self.n)
        return sp.ImmutableMatrix((self.X * sp.Matrix(xi)).applyfunc(tidy))

    def hamel_transpositional(self) -> sp.ImmutableMatrix:
        r"""Hamel's transpositional term ``P_i R^i_{jk} v^k`` in the frame dual to (V, F), in ``(q, u)``.

        ``P_i = X_i^V L`` are the quasi-momenta and ``v = H u``; equals ``X_j^k (Wᵀp)_k`` for a
        scleronomic linear coframe and the Ansatz-1 W.
        """
        F = self.frame
        R = F.anholonomy
        n = self.n
        P = [F.to_natural(x) for x in self.lagrangian.momenta(F)]
        v = list(self.H * sp.Matrix(self.chart.u))
        out = [
            tidy(sp.Add(*[P[i] * R[i, j, k] * v[k] for i in range(n) for k in range(n) if R[i, j, k] != 0]))
            for j in range(n)
        ]
        return sp.ImmutableMatrix(out)

    def weak_consistency_expression(self) -> sp.ImmutableMatrix:
        r"""Crampin–Mestdag Theorem 2 (ii) on the section ``φ_a = P_a``: ``P_a R^a_{βγ} v^γ`` on C.

        ``a`` runs over the constraint directions (0..m−1 here), ``β, γ`` over the D directions
        (dual to the auxiliaries). Equals the D-components of ``Wᵀp`` on C (Theorem 1, (55a))
        when the D-block ``R^{γ'}_{βγ}`` of the anholonomy vanishes.
        """
        F = self.frame
        R = F.anholonomy
        n, m = self.n, self.k
        P = [F.to_natural(x) for x in self.lagrangian.momenta(F)]
        v = list(self.H * sp.Matrix(self.chart.u))
        out = [
            self.on_constraint(
                sp.Add(*[P[a] * R[a, b, g] * v[g] for a in range(m) for g in range(m, n) if R[a, b, g] != 0])
            )
            for b in range(m, n)
        ]
        return sp.ImmutableMatrix(out)

    def d_block_holonomic(self) -> bool:
        """True if ``R^{γ'}_{βγ} = 0`` for all D indices (then Theorem 1 is CM weak consistency)."""
        R = self.frame.anholonomy
        D = range(self.k, self.n)
        return all(is_zero(R[c, b, g]) for c in D for b in D for g in D)


# ---------------------------------------------------------------- Ansatz 2
def ansatz2(
    lagrangian: Lagrangian,
    constraints: Sequence[Any],
    auxiliary: Sequence[Any],
    completion: Sequence[Any],
    free: Sequence[tuple[int, int]] = (),
    forces: Sequence[Any] | None = None,
    names: str = "varrho",
) -> Ansatz2Result:
    r"""Ansatz 2 of [PGG]: W from the constraints, a subset of auxiliaries and Theorem 1.

    The unknown ``W^h_k`` satisfy ``D_k V^α = 0`` (34), ``D_k F^β = 0`` for the given
    auxiliaries (35), and the Theorem 1 conditions ``(Wᵀp)(Y_β) = 0`` for a basis of D
    (e.g. (115a–b)). The solution family is returned with its free functions.

    Parameters
    ----------
    completion : sequence of expressions
        Auxiliary quasi-velocities that complete the coframe (used only to define the
        system's frame, basis of D and ``on_constraint``; they impose no condition on W).
    free : sequence of (h, k)
        Entries of W preferred as free functions (they are ordered last in the elimination).
    names : str
        Prefix of the free-function symbols (``varrho``, ``varrho2``, …).
    """
    what = "ansatz2"
    expect_obj(lagrangian, Lagrangian, name=f"{what}: lagrangian")
    ch0 = lagrangian.chart
    cons0 = exprs_on_TQ(ch0, constraints, name=f"{what}: constraints")
    aux0 = exprs_on_TQ(ch0, auxiliary, name=f"{what}: auxiliary")
    comp0 = exprs_on_TQ(ch0, completion, name=f"{what}: completion")
    if forces is not None:
        forces = exprs_on_TQ(ch0, forces, name=f"{what}: forces", length=ch0.dim)
    if not isinstance(names, str) or not names.isidentifier():
        raise InvalidExpressionError(f"{what}: names: {names!r} is not a valid name prefix (an identifier)")
    free = index_pairs(free, ch0.dim, f"{what}: free")
    base = ModifiedVakonomic(lagrangian, cons0, aux0 + comp0, forces)
    n, m = base.n, base.k
    fixed = m + len(auxiliary)  # rows of Z = H W fixed by (34)-(35): Z_i = −E ω^i
    ch = base.chart
    om = base.omega
    Z = sp.zeros(n, n)
    zs: list[sp.Symbol] = []
    for i in range(n):
        for k in range(n):
            if i < fixed:
                Z[i, k] = -(derivative(om[i], ch.q[k]) - ch.total_derivative(derivative(om[i], ch.u[k])))
            else:
                z = sp.Symbol(f"z_{i + 1}_{k + 1}")
                zs.append(z)
                Z[i, k] = z
    X = sp.Matrix(base.X)  # rows X_i; X^T = H^{-1}
    P = (X * sp.Matrix(base.p)).applyfunc(canon)  # quasi-momenta P_i = X_i^h p_h
    # Theorem 1 (55a): (W^T p)(Y_β) = Σ_i P_i (Z Y_β)_i = 0 for the D basis Y_β = X_β (β ≥ m)
    eqs = [sp.expand(sum((P[i] * (Z.row(i) * X.row(b).T)[0] for i in range(n)), sp.S.Zero)) for b in range(m, n)]
    sol, _, inconsistent, _ = solve_linear(*sp.linear_eq_to_matrix(eqs, zs), unknowns=zs, method="sympy")
    if inconsistent:
        raise ConstraintError("ansatz2: the conditions (34), (35) and Theorem 1 have no solution for W")
    W = (X.T * Z.xreplace(sol)).applyfunc(canon)
    params = sorted(set().union(*[e.free_symbols for e in W]) & set(zs), key=zs.index)
    rhos = tuple(sp.Symbol(names if j == 0 else f"{names}{j + 1}") for j in range(len(params)))
    if free:
        if len(free) != len(params):
            raise ConstraintError(
                f"ansatz2: {len(free)} preferred free entries but the family has {len(params)} parameters"
            )
        conds = [W[h, k] - r for (h, k), r in zip(free, rhos, strict=True)]
        sol2, _, inconsistent, _ = solve_linear(*sp.linear_eq_to_matrix(conds, params), unknowns=params, method="sympy")
        if inconsistent:
            raise ConstraintError(f"ansatz2: the entries {list(free)} cannot serve as the free functions")
        W = W.xreplace(sol2)
    else:
        W = W.xreplace(dict(zip(params, rhos, strict=True)))
    Wt = sp.ImmutableMatrix(W.applyfunc(tidy))
    system = base.with_W(Wt, extra_symbols=rhos)
    # (51a): q̈ depends on W only through P W^T p, so ∂q̈/∂ϱ = P ∂(W^T p)/∂ϱ
    Pj = system.projector()
    dW = [Pj * (Wt.T * sp.Matrix(base.p)).diff(r) for r in rhos]
    indep = all(is_zero(x) for d in dW for x in d)
    return Ansatz2Result(Wt, rhos, system, indep)
