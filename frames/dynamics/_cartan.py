r"""The method of the Cartan form (Crampin–Mestdag, section 2.3).

:class:`CartanSystem` builds, for a Lagrangian written in a frame, the Cartan
1-form ``X_i^V(L) θ^i``, the Cartan 2-form ``ω = d(X_i^V(L) θ^i)``, the energy
``E = v^i X_i^V(L) − L`` and the lifted frame ``{X_i^C, X_i^V, ∂/∂μ_a}``, and
solves ``Γ ⌟ ω = −dE`` (:meth:`CartanSystem.solution`) for regular and singular
Lagrangians alike: the answer is the general solution with its free parameters
and the conditions under which a solution exists. The forms themselves are the
geometry layer's :class:`~frames.Form`.

The Lagrangian is a :class:`~frames.Lagrangian` (written in the frame) or an expression already in the
frame's quasi-velocities.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sympy as sp

from .._value import Record, cached_method, latex_of
from ..algebra import derivative, expect, is_zero, solve_linear, tidy
from ..algebra.internal import as_expr, as_exprs, as_flag, as_int, canon, reduce_conditions
from ..errors import InvalidExpressionError
from ..geometry import Form, Frame, SecondOrderField, TangentVectorField
from ._checks import check_m, check_symbols, prefix_symbols
from ._lagrangian import Equations, Lagrangian
from ._method import DynamicsMethod, motion_equations
from ._ode import OdeSystem, natural_ode

__all__ = ["CartanSolution", "CartanSystem"]


class CartanSystem(DynamicsMethod):
    r"""The Cartan forms of a Lagrangian written in a frame (Crampin–Mestdag section 2.3).

    Parameters
    ----------
    frame : Frame
        The anholonomic frame ``{X_i}`` on Q; fibre coordinates are its quasi-velocities ``v``.
    lagrangian : Lagrangian or expression
        A :class:`~frames.Lagrangian` (rewritten in ``(q, v)``), or an expression in
        ``q``, ``v``, the ``extra`` coordinates and the chart's parameters.
    extra : sequence of Symbol, optional
        Further coordinates without velocities, e.g. the multipliers ``μ_a`` of the
        vakonomic Lagrangian ``L̂ = L − μ_a v^a`` on ``TQ × R^{n−m}`` (section 4).
        The frame is augmented by the coordinate fields ``∂/∂μ_a``.

    Notes
    -----
    Coordinates on the (extended) tangent bundle are ``(q, v, μ)``. The pulled-back
    coframe is ``θ^i = θ^i_j dq^j``; the Cartan 1-form is ``X_i^V(L) θ^i``, the
    Cartan 2-form ``ω = d(X_i^V(L) θ^i)``, the energy ``E = v^i X_i^V(L) − L``.
    The lifted frame is ``X_i^C = X_i^j ∂_{q^j} − R^j_ik v^k ∂_{v^j}``,
    ``X_i^V = ∂_{v^i}``, ``∂/∂μ_a``; its dual coframe is
    ``(θ^i, dv^i + R^i_jk v^k θ^j, dμ_a)``.

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.nonholonomic_particle()
    >>> cs = CartanSystem(mdl.frame, mdl.lagrangian)
    >>> sol = cs.solution()
    >>> sol.parameters, sol.conditions
    ((), ())
    >>> sol.as_second_order_field().equals(mdl.lagrangian.euler_lagrange_field(mdl.frame))
    True
    """

    frame: Frame
    L: sp.Expr
    extra: tuple[sp.Symbol, ...]

    def _latex_rows(self) -> list[tuple[str, str]]:
        rows = [("L", sp.latex(self.L))]
        rows += [(rf"X_{{{i + 1}}}", X._repr_latex_().strip("$")) for i, X in enumerate(self.frame.fields)]
        if self.extra:
            rows.append((r"\text{extra}", latex_of(self.extra)))
        return rows

    def __init__(self, frame: Frame, lagrangian: Any, extra: Sequence[sp.Symbol] = ()) -> None:
        expect(frame, Frame, name="CartanSystem: frame")
        ch = frame.chart
        ex = check_symbols(extra, name="CartanSystem: extra")
        clash = set(ex) & (set(ch.q) | set(ch.u) | set(frame.v) | set(ch.params))
        if clash or len(set(ex)) != len(ex):
            raise InvalidExpressionError(
                f"CartanSystem: extra: the coordinates {ex} clash with chart or frame symbols or repeat"
            )
        if isinstance(lagrangian, Lagrangian):
            ch.require_same(lagrangian.chart, "CartanSystem: lagrangian")
            if lagrangian.time_dependent:
                raise InvalidExpressionError(
                    f"CartanSystem: L = {lagrangian.expr} depends explicitly on t; the Cartan forms here are "
                    "those of an autonomous Lagrangian (use Lagrangian.euler_lagrange_field for time-dependent L)"
                )
            L = lagrangian.in_frame(frame)
            ch = ch.merged(lagrangian.chart, "CartanSystem")
        else:
            L = ch.check_on_TQ(lagrangian, "CartanSystem: lagrangian", extra=(*frame.v, *ex))
            fib = L.free_symbols & set(ch.u)
            if fib:
                raise InvalidExpressionError(
                    f"CartanSystem: lagrangian: {L} uses natural velocities {sorted(map(str, fib))}; "
                    f"write it in the frame's quasi-velocities {frame.v} or pass a Lagrangian"
                )
            if ch.t is not None and ch.t in L.free_symbols:
                raise InvalidExpressionError(f"CartanSystem: lagrangian: {L} depends explicitly on t")
        self.frame = frame
        self.L = sp.expand(L)
        self.extra = ex

    @classmethod
    def vakonomic(
        cls, lagrangian: Lagrangian, frame: Frame, m: int, mu: str | Sequence[sp.Symbol] = "mu"
    ) -> CartanSystem:
        r"""``L̂ = L − μ_a v^a`` on ``TQ × R^{n−m}`` (Crampin–Mestdag section 4).

        ``mu`` is a name prefix (symbols ``mu{a}``, a = m+1..n, as in the paper) or the symbols.
        """
        expect(lagrangian, Lagrangian, name="CartanSystem.vakonomic: lagrangian")
        expect(frame, Frame, name="CartanSystem.vakonomic: frame")
        lagrangian.chart.require_same(frame.chart, "CartanSystem.vakonomic: frame")
        n = frame.dim
        m = check_m(m, n, name="CartanSystem.vakonomic: m")
        mus = prefix_symbols(mu, [str(a + 1) for a in range(m, n)], name="CartanSystem.vakonomic: mu")
        if lagrangian.time_dependent:
            raise InvalidExpressionError("CartanSystem.vakonomic: lagrangian: L depends explicitly on t")
        Lv = lagrangian.in_frame(frame)
        Lhat = Lv - sp.Add(*[mus[k] * frame.v[m + k] for k in range(n - m)])
        return cls(frame, Lhat, extra=mus)

    # ------------------------------------------------------------ coordinates
    @property
    def n(self) -> int:
        """dim Q."""
        return self.frame.dim

    @property
    def coords(self) -> tuple[sp.Symbol, ...]:
        """``(q, v, extra)``."""
        return self.frame.chart.q + self.frame.v + self.extra

    def theta(self, i: int) -> Form:
        r"""The pulled-back coframe element ``θ^i = θ^i_j dq^j`` (0-based ``i``)."""
        i = as_int(i, name="CartanSystem.theta: i", min=0, max=self.n - 1)
        Th = self.frame.coframe_matrix
        return Form(self.coords, 1, {(j,): Th[i, j] for j in range(self.n)})

    @cached_method
    def lifted_frame(self) -> tuple[tuple[sp.Expr, ...], ...]:
        r"""``(X_1^C … X_n^C, X_1^V … X_n^V, ∂/∂μ_1 …)`` as component tuples over :attr:`coords`."""
        n, k = self.n, len(self.extra)
        F = self.frame
        R = F.anholonomy
        out = []
        for i in range(n):
            fib = [-sp.Add(*[R[j, i, kk] * F.v[kk] for kk in range(n)]) for j in range(n)]
            out.append(tuple(F.matrix[i, :]) + tuple(fib) + (sp.S.Zero,) * k)
        for i in range(n):
            out.append((sp.S.Zero,) * n + tuple(sp.S.One if j == i else sp.S.Zero for j in range(n)) + (0,) * k)
        for a in range(k):
            out.append((sp.S.Zero,) * (2 * n) + tuple(sp.S.One if b == a else sp.S.Zero for b in range(k)))
        return tuple(tuple(sp.sympify(c, strict=True) for c in Y) for Y in out)

    def lifted_coframe(self) -> tuple[Form, ...]:
        r"""The dual of :meth:`lifted_frame`: ``(θ^i, dv^i + R^i_jk v^k θ^j, dμ_a)``."""
        n = self.n
        R = self.frame.anholonomy
        v = self.frame.v
        th = [self.theta(i) for i in range(n)]
        eta = []
        for i in range(n):
            e = Form.differential(self.coords, v[i])
            for j in range(n):
                c = sp.Add(*[R[i, j, k] * v[k] for k in range(n)])
                if c != 0:
                    e = e + c * th[j]
            eta.append(e)
        dmu = [Form.differential(self.coords, m) for m in self.extra]
        return (*th, *eta, *dmu)

    def basis_names(self) -> tuple[str, ...]:
        """Names of the lifted frame vectors, for display."""
        n = self.n
        return (
            tuple(f"X{i + 1}^C" for i in range(n))
            + tuple(f"X{i + 1}^V" for i in range(n))
            + tuple(f"∂/∂{m}" for m in self.extra)
        )

    def apply(self, Y: Sequence[Any], f: object) -> sp.Expr:
        """Apply the vector ``Y`` (components over :attr:`coords`) to a function."""
        Y = as_exprs(Y, name="CartanSystem.apply: Y", length=len(self.coords))
        e = as_expr(f, name="CartanSystem.apply: f")
        return sp.Add(*[c * derivative(e, x) for c, x in zip(Y, self.coords, strict=True) if c != 0])

    # ------------------------------------------------------------ the forms
    def momenta(self) -> tuple[sp.Expr, ...]:
        """``p_i = X_i^V(L) = ∂L/∂v^i``."""
        return tuple(derivative(self.L, vi) for vi in self.frame.v)

    @cached_method
    def cartan_one_form(self) -> Form:
        r"""The Cartan 1-form ``X_i^V(L) θ^i``."""
        Th = self.frame.coframe_matrix
        p = self.momenta()
        comps = [sp.Add(*[p[i] * Th[i, j] for i in range(self.n)]) for j in range(self.n)]
        return Form(self.coords, 1, {(j,): c for j, c in enumerate(comps)})

    @cached_method
    def cartan_two_form(self) -> Form:
        r"""The Cartan 2-form ``ω = d(X_i^V(L) θ^i)``."""
        return self.cartan_one_form().d()

    omega = cartan_two_form

    def energy(self) -> sp.Expr:
        r"""``E = v^i X_i^V(L) − L``."""
        return canon(sp.Add(*[vi * p for vi, p in zip(self.frame.v, self.momenta(), strict=True)]) - self.L)

    @cached_method
    def omega_matrix(self) -> sp.ImmutableMatrix:
        r"""``W[K, J] = ω(Y_K, Y_J)`` on the lifted frame ``Y`` (:meth:`lifted_frame`)."""
        Om = self.cartan_two_form().matrix()
        B = sp.Matrix([list(Y) for Y in self.lifted_frame()]).T  # columns = Y_K
        return sp.ImmutableMatrix((B.T * Om * B).applyfunc(tidy))

    def residual(self, Gamma: Any) -> Form:
        r"""``Γ ⌟ ω + dE`` for a vector ``Γ`` over :attr:`coords` (zero for a solution)."""
        if not isinstance(Gamma, Mapping | TangentVectorField):
            Gamma = as_exprs(Gamma, name="CartanSystem.residual: Gamma", length=len(self.coords))
        return self.cartan_two_form().interior(Gamma) + Form.exact(self.coords, self.energy())

    # ------------------------------------------------------------ the solver
    def unknowns(self) -> tuple[sp.Symbol, ...]:
        r"""Symbols for the components of Γ on the lifted frame.

        ``k_i`` (along ``X_i^C``), ``Gamma_i`` (along ``X_i^V``) and ``A_a`` (along
        ``∂/∂μ_a``; for a symbol named ``mu3`` the parameter is ``A3``).
        """
        n = self.n
        names = [f"k{i + 1}" for i in range(n)] + [f"Gamma{i + 1}" for i in range(n)]
        for m in self.extra:
            names.append("A" + m.name[2:] if m.name.startswith("mu") and len(m.name) > 2 else f"A_{m.name}")
        taken = {s.name for s in self.coords} | {s.name for s in self.frame.chart.params}
        return tuple(sp.Symbol(nm if nm not in taken else nm + "_") for nm in names)

    @cached_method
    def solution(self) -> CartanSolution:
        r"""Solve ``Γ ⌟ ω = −dE`` for ``Γ = k^i X_i^C + Γ^i X_i^V + A_a ∂/∂μ_a``.

        Evaluating the equation on the lifted frame gives ``Σ_K γ^K ω(Y_K, Y_J) = −Y_J(E)``.
        It is reduced in the order ``X_j^V``, ``X_j^C``, ``∂/∂μ_a`` (so for a regular L the
        first n rows give ``θ^j(Γ) = k^j = v^j``), with the unknowns ordered
        ``k, Γ, A`` (so the μ-velocities are the ones left free when there is a choice).

        Returns
        -------
        CartanSolution
            The general solution, its free parameters and the conditions for existence.
        """
        n, k = self.n, len(self.extra)
        W = self.omega_matrix()
        Ys = self.lifted_frame()
        E = self.energy()
        order = list(range(n, 2 * n)) + list(range(n)) + list(range(2 * n, 2 * n + k))
        A = sp.Matrix([[W[K, J] for K in range(2 * n + k)] for J in order])
        b = sp.Matrix([-tidy(self.apply(Ys[J], E)) for J in order])
        unknowns = self.unknowns()
        groups = [0] * (2 * n) + [1] * k
        sol, free, conds, pivots = solve_linear(A, b, unknowns=unknowns, tidy=True, groups=groups)
        reduced, locus = reduce_conditions(conds, [*self.frame.v, *self.extra])
        comps = tuple(tidy(sol[x]) for x in unknowns)
        out = CartanSolution(self, comps, free, reduced, locus, pivots)
        return out

    def accelerations(self, *, canonical: bool | None = None) -> sp.ImmutableMatrix:
        r"""``q̈`` in natural coordinates from the unique solution of ``Γ ⌟ ω = −dE`` (regular, autonomous L on TQ).

        ``q̈^j = Γ^i X_i^j + v^i u^k ∂_k X_i^j`` with ``v^i = θ^i_k u^k`` (the method protocol).

        Raises
        ------
        InvalidExpressionError
            If the solution is not a unique second-order field on TQ (see :meth:`CartanSolution.as_second_order_field`).
        """
        return self.solution().as_second_order_field().accelerations()

    def ode_system(self, *, subs: Mapping[Any, Any] | None = None) -> OdeSystem:
        r"""The unique solution of ``Γ ⌟ ω = −dE`` as a first-order system: state ``(q, u)`` (the method protocol)."""
        return natural_ode(self.frame.chart, None, list(self.accelerations()), form="cartan", subs=subs)

    def equations(self) -> Equations:
        r"""``q̈^j(t) = f^j`` in functions of time (the method protocol; see :meth:`accelerations`)."""
        return motion_equations(self.frame.chart, list(self.accelerations()))

    def __repr__(self) -> str:
        return f"CartanSystem(L = {self.L}, coordinates {self.coords})"


class CartanSolution(Record):
    r"""General solution of ``Γ ⌟ ω = −dE`` on the lifted frame.

    Attributes
    ----------
    system : CartanSystem
    components : tuple of expressions
        Coefficients of ``Γ`` along ``X_1^C … X_n^C, X_1^V … X_n^V, ∂/∂μ_a``, in terms of
        the coordinates and the :attr:`parameters`. Valid on the :attr:`locus`.
    parameters : tuple of Symbol
        Free parameters of the general solution (components left undetermined).
    conditions : tuple of expressions
        Functions that must vanish for a solution to exist (empty: exists everywhere).
    locus : dict
        The conditions solved for some coordinates (e.g. ``{v3: 0}``), when they are affine in
        the fibre coordinates.
    nondegeneracy : tuple of expressions
        Non-constant pivots of the elimination; the solution holds where they do not vanish.
    """

    system: CartanSystem
    components: tuple[sp.Expr, ...]
    parameters: tuple[sp.Symbol, ...]
    conditions: tuple[sp.Expr, ...]
    locus: dict[sp.Symbol, sp.Expr]
    nondegeneracy: tuple[sp.Expr, ...]

    @property
    def exists_everywhere(self) -> bool:
        """True if there are no conditions for existence."""
        return not self.conditions

    @property
    def is_unique(self) -> bool:
        """True if there are no free parameters."""
        return not self.parameters

    def on_locus(self) -> tuple[sp.Expr, ...]:
        """:attr:`components` with :attr:`locus` substituted."""
        return tuple(tidy(c.xreplace(self.locus)) for c in self.components)

    def vector(self, on_locus: bool = False) -> tuple[sp.Expr, ...]:
        """``Γ`` as components over the coordinates ``(q, v, μ)``."""
        on_locus = as_flag(on_locus, name="CartanSolution.vector: on_locus")
        comps = self.on_locus() if on_locus else self.components
        Ys = self.system.lifted_frame()
        N = len(self.system.coords)
        return tuple(canon(sp.Add(*[g * Y[I] for g, Y in zip(comps, Ys, strict=True)])) for I in range(N))

    def __call__(self, f: object) -> sp.Expr:
        """``Γ(f)`` for a function of ``(q, v, μ)``, evaluated on the locus."""
        f = as_expr(f, name="CartanSolution: f")
        return canon(self.system.apply(self.vector(on_locus=True), f).xreplace(self.locus))

    def second_order_coefficients(self) -> tuple[sp.Expr, ...]:
        """``θ^i(Γ) − v^i``: all zero on the locus iff Γ is of second-order type there."""
        v = self.system.frame.v
        return tuple(tidy((self.components[i] - v[i]).xreplace(self.locus)) for i in range(self.system.n))

    def as_second_order_field(self) -> SecondOrderField:
        """The solution as a :class:`~frames.SecondOrderField` (regular, autonomous L on TQ).

        Raises
        ------
        InvalidExpressionError
            If the solution has parameters, conditions, extra coordinates, or is not of second-order type.
        """
        s = self.system
        if self.parameters or self.conditions or s.extra:
            raise InvalidExpressionError(
                f"CartanSolution: not a unique field on TQ (parameters {self.parameters}, "
                f"conditions {self.conditions}, extra coordinates {s.extra})"
            )
        if not all(is_zero(c) for c in self.second_order_coefficients()):
            raise InvalidExpressionError("CartanSolution: the solution is not of second-order type")
        return SecondOrderField(s.frame, self.components[s.n : 2 * s.n])

    def equations(self) -> list[sp.Eq]:
        """``component = value`` for every lifted-frame direction, then the conditions ``c = 0``."""
        names = self.system.unknowns()
        return [sp.Eq(x, c) for x, c in zip(names, self.components, strict=True)] + [
            sp.Eq(c, 0) for c in self.conditions
        ]

    def __repr__(self) -> str:
        names = self.system.basis_names()
        parts = [f"({c})*{nm}" for c, nm in zip(self.components, names, strict=True) if c != 0]
        s = "Γ = " + (" + ".join(parts) if parts else "0")
        if self.parameters:
            s += f"; free parameters {self.parameters}"
        if self.conditions:
            s += "; exists only where " + ", ".join(f"{c} = 0" for c in self.conditions)
        return s

    def _repr_latex_(self) -> str:
        n = self.system.n
        names = [rf"X_{{{i + 1}}}^C" for i in range(n)] + [rf"X_{{{i + 1}}}^V" for i in range(n)]
        names += [rf"\frac{{\partial}}{{\partial {sp.latex(m)}}}" for m in self.system.extra]
        parts = [rf"\left({sp.latex(c)}\right) {nm}" for c, nm in zip(self.components, names, strict=True) if c != 0]
        s = r"\Gamma = " + (" + ".join(parts) if parts else "0")
        if self.conditions:
            s += r",\quad " + r",\ ".join(sp.latex(c) + " = 0" for c in self.conditions)
        return "$" + s + "$"
