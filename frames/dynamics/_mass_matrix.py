r"""Proposition 2 in mass-matrix form, derived on trees: the fast path of the nonholonomic dynamics.

With ``u = v^α X_α`` on C, the fundamental equations ``Γ(X_i^V L) − X_i^C L = λ_i`` (``λ_α = 0``) read

.. math::

    X_i^k H_{kl} X_β^l\, Γ^β = X_i^k E_k, \qquad
    E_k = \Big(\frac{∂L}{∂q^k} − u^l \frac{∂^2 L}{∂q^l ∂u^k} − \frac{∂^2 L}{∂t ∂u^k}\Big)\Big|_C − H_{kl} a^l,

with ``H_kl = ∂²L/∂u^k∂u^l`` on C and ``a^l = u̇^l − Γ^α X_α^l``, the part of the acceleration the frame's
variation gives. From ``v^j = θ^j_k u^k``, ``v̇^a = 0`` on C and ``v̇^α = Γ^α``:

.. math::

    a^l = −X_j^l\, u^s u^k\, ∂_s θ^j_k \quad (\text{the coframe's derivatives}) \;=\;
    v^α u^s ∂_s X_α^l \quad (\text{the frame's}).

The coframe's form is used when the coframe was given (:meth:`Frame.with_coframe`: it is often the constraints
themselves, small), the frame's otherwise; never by whether it was computed before, so the trees do not depend on
the order of the calls. Only derivatives of the Lagrangian in natural coordinates and of the (co)frame are taken,
as :class:`sympy.physics.mechanics.KanesMethod` does; nothing is expanded or cancelled (the common factors of
the sums in ``H_kl`` and ``E_k`` are gathered, :func:`frames.algebra.internal.tree_gather`: 12–25 % fewer
operations in the field and the multipliers of random compound systems; when L is quadratic in the velocities,
``E_k`` is collected in ``u`` before ``u = v^α X_α`` is substituted, so that each dependent velocity, a sum on C,
occurs a few times rather than in every term: 25–30 % fewer), and the field is
solved by :func:`frames.algebra.solve_linear` (``method="tree"``). The result is exact but not canonical: canonicalise on request
(:func:`frames.algebra.trig_normal`, :meth:`SecondOrderField.canonical <frames.SecondOrderField.canonical>`).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import sympy as sp

from ..algebra import is_zero, op_count, solve_linear
from ..algebra.internal import checkpoint, tree_derivative, tree_gather, tree_subs, tree_variables
from ..geometry import Frame
from ._lagrangian import Lagrangian

__all__ = ["MassMatrixForm"]

#: ``E_k`` (and ``L``) larger than this many operations (``E_k`` on C: five times as many) are substituted on C as
#: they are, not first collected
COLLECT_OPS = 20_000


class MassMatrixForm:
    """The pieces of the mass-matrix form of a Lagrangian system with an adapted frame (see the module).

    Parameters
    ----------
    lagrangian : Lagrangian
    frame : Frame
        Adapted: its first ``m`` fields span D.
    m : int
        Rank of D.
    """

    def __init__(self, lagrangian: Lagrangian, frame: Frame, m: int) -> None:
        self.lagrangian, self.frame, self.m = lagrangian, frame, m
        ch = lagrangian.chart
        n = frame.dim
        self.n = n
        self.q, self.u = list(ch.q), list(ch.u)
        self.on_C = dict(zip(self.u, frame.velocities(m), strict=True))
        L = lagrangian.expr
        self.dLdu = [tree_derivative([L], {uk: 1})[0] for uk in self.u]
        self._H: dict[tuple[int, int], sp.Expr] = {}
        self._Hnat: dict[tuple[int, int], sp.Expr] = {}
        self._E: dict[int, sp.Expr] = {}
        self._Enat: dict[int, sp.Expr] = {}

    def H(self, k: int, l: int) -> sp.Expr:
        """``∂²L/∂u^k∂u^l`` on C."""
        key = (min(k, l), max(k, l))
        if key not in self._H:
            checkpoint()
            self._H[key] = tree_gather(tree_subs([self._hessian(*key)], self.on_C)[0])
        return self._H[key]

    def _hessian(self, k: int, l: int) -> sp.Expr:
        """``∂²L/∂u^k∂u^l`` in natural coordinates ``(q, u)``, ``k ≤ l`` (taken once: :meth:`H` and
        :attr:`_quadratic` read it)."""
        if (k, l) not in self._Hnat:
            self._Hnat[(k, l)] = tree_derivative([self.dLdu[k]], {self.u[l]: 1})[0]
        return self._Hnat[(k, l)]

    @cached_property
    def _variation(self) -> tuple[bool, dict[tuple[int, int, int], sp.Expr]]:
        """``(True, {(j, k, s): ∂_s θ^j_k})`` when the coframe is known, else ``(False, {(α, l, s): ∂_s X_α^l})``;
        the nonzero derivatives only, each taken once."""
        F, n = self.frame, self.n
        Th = F.given_coframe
        M, rows = (Th, range(n)) if Th is not None else (F.matrix, range(self.m))
        d: dict[tuple[int, int, int], sp.Expr] = {}
        for j in rows:
            for k in range(n):
                if M[j, k].free_symbols & set(self.q):
                    checkpoint()
                    for s in range(n):
                        if (x := tree_derivative([M[j, k]], {self.q[s]: 1})[0]) != 0:
                            d[(j, k, s)] = x
        return Th is not None, d

    @cached_property
    def _v_in_u(self) -> list[sp.Expr]:
        """``v^α`` in the natural velocities, on C: from the given coframe (``θ^α_k u^k``), else from a column only
        ``X_α`` has (``u^j / X_α^j``), else from the frame's inverse on trees."""
        F = self.frame
        if F.given_coframe is not None:
            return list(F.v_in_u)
        X, m = F.matrix, self.m
        # on C, u = v^β X_β: where only X_α has a component along q^j, v^α = u^j / X_α^j (valid on C, as is
        # everything this form gives in natural coordinates); the smallest such column for each α
        on_C: list[sp.Expr] = []
        for al in range(m):
            cols = [j for j in range(self.n) if X[al, j] != 0 and all(X[b, j] == 0 for b in range(m) if b != al)]
            if not cols:
                break
            j = min(cols, key=lambda j: (X[al, j].count_ops(), j))
            on_C.append(self.u[j] / X[al, j])
        else:
            return on_C
        Th = solve_linear(sp.Matrix(F.matrix.T), sp.eye(self.n), method="tree")
        if Th is None:  # no point shows the frame nonsingular to 40 digits: the exact inverse
            return list(F.v_in_u)
        return [sp.Add(*[Th[al, k] * self.u[k] for k in range(self.n) if Th[al, k] != 0]) for al in range(self.m)]

    def acceleration_drift(self, natural: bool = False) -> list[sp.Expr]:
        r"""``a^l``: the acceleration ``u̇^l`` minus ``Γ^α X_α^l`` (module docstring), in ``(q, v^α)`` with ``u``
        on C, or in the natural ``(q, u)`` (``u`` in D) when ``natural``."""
        F, n = self.frame, self.n
        u = self.u if natural else [self.on_C[x] for x in self.u]
        by_coframe, d = self._variation
        if by_coframe:
            quad: dict[int, list[sp.Expr]] = {}
            for (j, k, s), x in d.items():
                quad.setdefault(j, []).append(u[s] * u[k] * x)
            return [-sp.Add(*[F.matrix[j, l] * sp.Add(*t) for j, t in quad.items()]) for l in range(n)]
        v = self._v_in_u if natural else F.v
        terms: dict[int, list[sp.Expr]] = {}
        for (al, l, s), x in d.items():
            terms.setdefault(l, []).append(v[al] * u[s] * x)
        return [sp.Add(*terms.get(l, [])) for l in range(n)]

    @cached_property
    def _drift_on_C(self) -> list[sp.Expr]:
        return self.acceleration_drift()

    def natural_force(self, k: int) -> sp.Expr:
        r"""``∂L/∂q^k − u^l ∂²L/∂q^l∂u^k − ∂²L/∂t∂u^k`` on C: ``E_k`` without the frame's part ``H_kl a^l``."""
        if k not in self._Enat:
            checkpoint()
            L, q, u = self.lagrangian.expr, self.q, self.u
            e = tree_derivative([L], {q[k]: 1})[0] - tree_derivative([self.dLdu[k]], dict(zip(q, u, strict=True)))[0]
            t = self.lagrangian.chart.t
            if t is not None and self.lagrangian.time_dependent:
                e -= sp.diff(self.dLdu[k], t)
            self._Enat[k] = self._on_C(e)
        return self._Enat[k]

    @cached_property
    def _quadratic(self) -> bool:
        """Whether ``L`` is at most quadratic in ``u`` (every ``∂²L/∂u^k∂u^l`` free of ``u``): then ``E_k`` is a
        polynomial of degree ≤ 2 in ``u``, equal to its Taylor expansion at ``u = 0``."""
        u = set(self.u)
        if op_count(self.lagrangian.expr, COLLECT_OPS) > COLLECT_OPS:
            return False
        second = [self._hessian(k, l) for k in range(self.n) for l in range(k, self.n)]
        return not any(x.free_symbols & u for x in tree_variables(second))

    def _on_C(self, e: sp.Expr) -> sp.Expr:
        """``e`` (a function of ``(q, u)``, at most quadratic in ``u`` when :attr:`_quadratic`) on C, its sums'
        common factors gathered: the smaller of ``e`` with ``u = v^α X_α`` substituted and of ``e`` first
        collected in the velocities, ``c + u^l (c_l + Σ_{s≥l} c_ls u^s)`` (each dependent velocity, a sum on C,
        then occurs at most ``n + 1`` times, where a derivative of ``½|J u|²`` repeats it in every term: 40–60 %
        fewer operations in ``E_k`` of random compound systems)."""
        direct = tree_gather(tree_subs([e], self.on_C)[0])
        if not self._quadratic or op_count(e, COLLECT_OPS) > COLLECT_OPS:
            return direct
        size = op_count(direct, 5 * COLLECT_OPS)  # a count walks every path: a larger tree is not compared
        if size > 5 * COLLECT_OPS:
            return direct
        u, zero = self.u, {x: 0 for x in self.u}
        parts = [tree_subs([e], zero)[0]]
        for l in range(self.n):
            checkpoint()
            d = tree_derivative([e], {u[l]: 1})[0]
            if d == 0:
                continue
            inner = [tree_subs([d], zero)[0]]
            for s in range(l, self.n):
                if (c := tree_derivative([d], {u[s]: 1})[0]) != 0:
                    inner.append((c / 2 if s == l else c) * u[s])
            parts.append(u[l] * tree_gather(sp.Add(*inner)))
        collected = tree_gather(tree_subs([sp.Add(*parts)], self.on_C)[0])
        return collected if op_count(collected, size) < size else direct

    def E(self, k: int) -> sp.Expr:
        r"""``E_k`` (module docstring), on C."""
        if k not in self._E:
            a = self._drift_on_C
            e = self.natural_force(k)
            self._E[k] = e - sp.Add(*[h * a[l] for l in range(self.n) if a[l] != 0 and (h := self.H(k, l)) != 0])
        return self._E[k]

    @cached_property
    def _annihilator(self) -> tuple[list[list[sp.Expr]], sp.Matrix] | None:
        r"""Covectors ``Â^c`` spanning the annihilator of D and ``P`` with ``Â^c = P_cb θ^b`` (b > m), or None.

        The coframe's last rows when the coframe was given (``P = 1``); else the components of the fields
        ``X_a`` when each is orthogonal to D in the coordinates (the default complement of
        :meth:`LinearConstraints.adapted_frame <frames.LinearConstraints.adapted_frame>`, the constraint rows:
        ``P_cb = X_c · X_b``, their Gram matrix)."""
        F, n, m = self.frame, self.n, self.m
        t = self.lagrangian.chart.t
        if t is not None and any(t in x.free_symbols for x in F.matrix):
            return None
        r = n - m
        Th = F.given_coframe
        if Th is not None:
            return [[Th[m + c, k] for k in range(n)] for c in range(r)], sp.eye(r)
        X = F.matrix
        for a in range(m, n):
            for al in range(m):
                checkpoint()
                if not is_zero(sp.Add(*[X[a, k] * X[al, k] for k in range(n)])):
                    return None
        P = sp.Matrix(r, r, lambda c, b: sp.Add(*[X[m + c, k] * X[m + b, k] for k in range(n)]))
        return [[X[m + c, k] for k in range(n)] for c in range(r)], P

    def multipliers(self, forces: Any = None) -> list[sp.Expr] | None:
        r"""The multipliers ``λ_a`` as :class:`sympy.physics.mechanics.LagrangesMethod` gets them, or None.

        With covectors ``Â^c`` spanning the annihilator of D (:attr:`_annihilator`), Lagrange's equations
        ``H q̈ = E' + F + Âᵀ λ̂`` and the constraints ``Â q̈ = −∂_s Â_k u^s u^k`` are one linear system in
        ``(q̈, λ̂)``, eliminated on the trees through the simplest pivots (the constraint rows' entries first,
        as ``LUsolve`` does): ``λ̂`` comes out of the back substitution first, without ``q̈``. The multipliers of
        the frame are ``λ_a = P_ca λ̂_c``. ``forces``: the natural components ``F_k`` on C, or None. None when no
        such covectors are known or no point proves the pivots."""
        ann = self._annihilator
        if ann is None:
            return None
        A, P = ann
        n, r = self.n, len(A)
        u = [self.on_C[x] for x in self.u]
        K = sp.zeros(n + r, n + r)
        for k in range(n):
            for l in range(n):
                K[k, l] = self.H(k, l)
        for c in range(r):
            for k in range(n):
                K[k, n + c], K[n + c, k] = -A[c][k], A[c][k]
        rhs = [self.natural_force(k) + (forces[k] if forces is not None else 0) for k in range(n)]
        for c in range(r):
            checkpoint()
            d = [
                u[s] * u[k] * x
                for k in range(n)
                if A[c][k].free_symbols & set(self.q)
                for s in range(n)
                if (x := tree_derivative([A[c][k]], {self.q[s]: 1})[0]) != 0
            ]
            rhs.append(-sp.Add(*d))
        sol = solve_linear(K, sp.Matrix(rhs), method="tree", pivots="simplest")
        if sol is None:
            return None
        lam = [sol[n + c, 0] for c in range(r)]
        return [sp.Add(*[P[c, b] * lam[c] for c in range(r) if P[c, b] != 0]) for b in range(r)]

    @staticmethod
    def smallest(*candidates: list[sp.Expr] | None, most: int = 200_000) -> list[sp.Expr]:
        """The candidate with the fewest operations (:func:`~frames.algebra.op_count`, counted up to ``most``: the
        count walks every path of a shared graph), the first on a tie."""
        best: list[sp.Expr] | None = None
        size = 0
        for c in candidates:
            if c is None:
                continue
            if best is None:
                best, size = c, 0
                for e in c:
                    size += op_count(e, most - size)
                    if size > most:
                        break
                continue
            k = 0
            for e in c:
                k += op_count(e, size - k)
                if k > size:
                    break
            if k < size:
                best, size = c, k
        assert best is not None
        return best

    def rows(self, rows: list[int]) -> tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]:
        """``(M, f)``: ``M[r, β] = X_i^k H_kl X_β^l`` and ``f[r] = X_i^k E_k`` for ``i = rows[r]``, β ≤ m."""
        X, n, m = self.frame.matrix, self.n, self.m
        HX = [
            [sp.Add(*[h * X[b, l] for l in range(n) if X[b, l] != 0 and (h := self.H(k, l)) != 0]) for b in range(m)]
            for k in range(n)
        ]
        M = [
            [sp.Add(*[X[i, k] * HX[k][b] for k in range(n) if X[i, k] != 0 and HX[k][b] != 0]) for b in range(m)]
            for i in rows
        ]
        f = [sp.Add(*[X[i, k] * self.E(k) for k in range(n) if X[i, k] != 0]) for i in rows]
        return sp.ImmutableMatrix(M), sp.ImmutableMatrix(f)

    def accelerations(self, Gamma: Any) -> list[sp.Expr]:
        r"""``q̈^l = Γ^α X_α^l + a^l`` in natural coordinates ``(q, u)`` (``v^α = θ^α_k u^k``), valid on C."""
        F, n, m = self.frame, self.n, self.m
        G = tree_subs(list(Gamma[:m]), {F.v[al]: self._v_in_u[al] for al in range(m)})
        a = self.acceleration_drift(natural=True)
        return [
            sp.Add(*[G[al] * F.matrix[al, l] for al in range(m) if F.matrix[al, l] != 0 and G[al] != 0]) + a[l]
            for l in range(n)
        ]
