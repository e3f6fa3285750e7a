r"""The discrete Lagrange–d'Alembert integrator, midpoint rule (``method="lda-midpoint"``).

Cortés & Martínez (2001), *Non-holonomic integrators*, Nonlinearity 14; in the form of
McLachlan & Perlmutter (2006), *Integrators for nonholonomic mechanical systems*, J. Nonlinear
Sci. 16 (a DLA scheme with the midpoint discrete Lagrangian and midpoint discrete constraints).

With ``L(q, u)`` autonomous, the constraints ``A(q) u = 0`` (the rows ``θ^a`` of the coframe,
``a > m``) and a fixed step ``h``:

* discrete Lagrangian ``L_d(q_0, q_1) = h L((q_0 + q_1)/2, (q_1 − q_0)/h)``;
* discrete constraint ``A((q_k + q_{k+1})/2) (q_{k+1} − q_k)/h = 0``;
* discrete Lagrange–d'Alembert equations
  ``D_2 L_d(q_{k−1}, q_k) + D_1 L_d(q_k, q_{k+1}) + h A(q_k)^T λ_k = 0``,

solved for ``(q_{k+1}, λ_k)`` by Newton's method with the exact (symbolically generated, CSE'd)
Jacobian. The first step replaces ``D_2 L_d(q_{−1}, q_0)`` by the momentum ``∂L/∂u(q_0, u_0)``.
The scheme is symmetric: for ``L`` even in ``u``, ``L_d(q_1, q_0; −h) = −L_d(q_0, q_1; h)`` and the
discrete constraint is unchanged by ``(q_0, q_1, h) ↦ (q_1, q_0, −h)``, so the equations are
invariant under ``k ↦ −k``, ``h ↦ −h`` (``λ ↦ −λ``); the discrete constraints hold at every step to
the Newton tolerance. Velocities at the nodes are
recovered from the discrete momentum ``p_k = D_2 L_d(q_{k−1}, q_k)`` by the constrained Legendre
transform ``∂L/∂u(q_k, u_k) = p_k + A(q_k)^T ν``, ``A(q_k) u_k = 0`` (the component of ``p_k``
along the annihilator is free, so ``u_k`` lies in ``D`` exactly and does not depend on which of
the two one-sided momenta is used).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import sympy as sp

from ..errors import IntegrationBudgetError, IntegrationError, OptionError
from ._frame import FrameMonitor

__all__ = ["LDAScheme", "lda_midpoint"]

NEWTON_TOL = 1e-13
NEWTON_MAXITER = 30


class LDAScheme:
    """Generated numeric functions of the midpoint DLA scheme for one Lagrangian and constraints."""

    def __init__(self, lagrangian: Any, frame: Any, m: int, params: tuple[sp.Symbol, ...]) -> None:
        ch = lagrangian.chart
        L = lagrangian.expr
        if lagrangian.time_dependent or (ch.t is not None and L.has(ch.t)):
            raise OptionError(
                "integrate: method='lda-midpoint' needs an autonomous Lagrangian (L depends on t); "
                "use method='RK45' or another scipy solver"
            )
        n = ch.dim
        q, u = list(ch.q), list(ch.u)
        extra = L.free_symbols - set(q) - set(u) - set(params)
        if extra:
            raise OptionError(
                f"integrate: method='lda-midpoint': L has symbols {sorted(map(str, extra))} without values"
            )
        a = sp.symbols(f"_lda_a0:{n}")
        b = sp.symbols(f"_lda_b0:{n}")
        h = sp.Symbol("_lda_h")
        mid = {qi: (ai + bi) / 2 for qi, ai, bi in zip(q, a, b, strict=True)}
        vel = {ui: (bi - ai) / h for ui, ai, bi in zip(u, a, b, strict=True)}
        Ld = h * L.xreplace(mid | vel)
        D1 = sp.Matrix([sp.diff(Ld, ai) for ai in a])
        D2 = sp.Matrix([sp.diff(Ld, bi) for bi in b])
        A = sp.Matrix(frame.coframe_matrix)[m:, :]
        k = A.rows
        Aa = A.xreplace(dict(zip(q, a, strict=True)))
        g = A.xreplace(mid) * sp.Matrix([(bi - ai) / h for ai, bi in zip(a, b, strict=True)])
        pm = sp.Matrix(sp.symbols(f"_lda_pm0:{n}"))
        lam = sp.Matrix(sp.symbols(f"_lda_l0:{k}")) if k else sp.zeros(0, 1)
        # [J | F] of the DLA step, unknowns (q_1, λ_0): F = (p⁻ + D_1 L_d + h A(q_0)ᵀλ, A(q_½)(q_1 − q_0)/h)
        F = pm + D1 + h * Aa.T * lam
        if k:
            F = F.col_join(g)
        JF = D1.jacobian(b).row_join(h * Aa.T).col_join(g.jacobian(b).row_join(sp.zeros(k, k))) if k else D1.jacobian(b)
        JF = JF.row_join(F)
        # [J | F] of the constrained Legendre transform, unknowns (u, ν): (∂L/∂u − p_k − Aᵀν, A u)
        pL = sp.Matrix([sp.diff(L, ui) for ui in u])
        M = pL.jacobian(u)
        pk = sp.Matrix(sp.symbols(f"_lda_pk0:{n}"))
        nu = sp.Matrix(sp.symbols(f"_lda_n0:{k}")) if k else sp.zeros(0, 1)
        Uu = sp.Matrix(u)
        G = pL - pk - A.T * nu
        if k:
            G = G.col_join(A * Uu)
        JG = (M.row_join(-A.T).col_join(A.row_join(sp.zeros(k, k))) if k else M).row_join(G)
        self.n, self.k = n, k
        #: the symbolic discrete Lagrangian ``L_d`` and discrete constraints ``A(q_½)(q_1 − q_0)/h`` in the
        #: symbols ``(a, b, h)`` standing for ``(q_0, q_1, h)``
        self.discrete_lagrangian, self.discrete_constraints, self.symbols = Ld, g, (a, b, h)
        #: the Legendre transform is linear in u (L quadratic in u): one solve, no iteration
        self.linear_legendre = not (M.free_symbols & set(u))
        self._JF = sp.lambdify((a, b, h, params, list(pm), list(lam)), JF, cse=True, modules="numpy")
        self._D2 = sp.lambdify((a, b, h, params), D2, cse=True, modules="numpy")
        self._JG = sp.lambdify((q, u, params, list(pk), list(nu)), JG, cse=True, modules="numpy")
        self._A = sp.lambdify((a, params), Aa, cse=True, modules="numpy")
        self._g = sp.lambdify((a, b, h, params), g, cse=True, modules="numpy")
        self._p = sp.lambdify((q, u, params), pL, cse=True, modules="numpy")

    # ------------------------------------------------------------------ pieces
    def momentum(self, q: np.ndarray, u: np.ndarray, p: np.ndarray) -> np.ndarray:
        """``∂L/∂u(q, u)``."""
        return np.asarray(self._p(q, u, p), dtype=float).reshape(self.n)

    def A(self, q: np.ndarray, p: np.ndarray) -> np.ndarray:
        """The constraint matrix ``A(q)`` (rows ``θ^a``, ``a > m``)."""
        return np.asarray(self._A(q, p), dtype=float).reshape(self.k, self.n)

    def discrete_constraint(self, q0: np.ndarray, q1: np.ndarray, h: float, p: np.ndarray) -> np.ndarray:
        """``A((q_0 + q_1)/2)(q_1 − q_0)/h``."""
        return np.asarray(self._g(q0, q1, h, p), dtype=float).reshape(self.k)

    def D2(self, q0: np.ndarray, q1: np.ndarray, h: float, p: np.ndarray) -> np.ndarray:
        """``D_2 L_d(q_0, q_1)``."""
        return np.asarray(self._D2(q0, q1, h, p), dtype=float).reshape(self.n)

    def step(
        self, pminus: np.ndarray, q0: np.ndarray, guess: np.ndarray, h: float, p: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, int]:
        """Solve the DLA equations for ``(q_1, λ_0)`` given ``p_0^− = D_2 L_d(q_{−1}, q_0)``.

        Newton's method on ``F(q_1, λ_0) = 0`` with the exact Jacobian. With quadratic convergence
        the error left after the update ``δ_i`` is about ``|δ_i|³/|δ_{i−1}|²``; it stops when that
        estimate (or, at the first iteration, ``|δ_1|``) is below ``NEWTON_TOL (1 + |q_1|)``.
        """
        n, k = self.n, self.k
        z = np.concatenate([np.asarray(guess, dtype=float), np.zeros(k)])
        prev = np.inf
        for it in range(1, NEWTON_MAXITER + 1):
            JF = np.asarray(self._JF(q0, z[:n], h, p, pminus, z[n:]), dtype=float)
            if not np.all(np.isfinite(JF)):
                raise IntegrationError("lda-midpoint: non-finite residual or Jacobian (singular point?)")
            dz = np.linalg.solve(JF[:, :-1], -JF[:, -1])
            z += dz
            d = float(np.abs(dz[:n]).max())
            left = d if it == 1 else (d**3 / prev**2 if d < prev else np.inf)
            if left <= NEWTON_TOL * (1.0 + float(np.abs(z[:n]).max())):
                return z[:n], z[n:], it
            prev = d
        raise IntegrationError(f"lda-midpoint: Newton's method did not converge in {NEWTON_MAXITER} iterations")

    def velocity(self, q: np.ndarray, pk: np.ndarray, guess: np.ndarray, p: np.ndarray) -> np.ndarray:
        """``u`` in ``D_q`` with ``∂L/∂u(q, u) − p_k`` in the annihilator (Newton; one solve if L is quadratic in u)."""
        n, k = self.n, self.k
        z = np.concatenate([np.asarray(guess, dtype=float), np.zeros(k)])
        for _ in range(NEWTON_MAXITER):
            JG = np.asarray(self._JG(q, z[:n], p, pk, z[n:]), dtype=float)
            dz = np.linalg.solve(JG[:, :-1], -JG[:, -1])
            z += dz
            if self.linear_legendre or float(np.abs(dz[:n]).max()) <= NEWTON_TOL * (1.0 + float(np.abs(z[:n]).max())):
                return z[:n]
        raise IntegrationError("lda-midpoint: the constrained Legendre transform did not converge")


def lda_midpoint(
    scheme: LDAScheme,
    t0: float,
    t1: float,
    q0: np.ndarray,
    u0: np.ndarray,
    p: np.ndarray,
    step: float,
    *,
    max_steps: int,
    timeout: float | None,
    frame: FrameMonitor | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
    """Run the scheme from ``(q0, u0)`` over ``[t0, t1]``; return ``(t, q, u, info)`` at the nodes.

    The step actually used is ``h = (t1 − t0)/N`` with ``N = ceil((t1 − t0)/step)``, so the last node is
    ``t1`` and ``h ≤ step``. ``info`` has ``step`` (that ``h``), ``nsteps``, ``newton_iterations`` (residual
    and Jacobian evaluations of the DLA step, the cost measure of ``benchmarks/lda.py``), ``message``
    and ``status``. ``frame`` (:mod:`frames.numeric._frame`; its state is ``(q, u)``) is checked after every step:
    the constraint rows are the coframe's, which blows up where the frame degenerates.

    Raises
    ------
    IntegrationBudgetError
        More than ``max_steps`` steps needed, or ``timeout`` seconds exceeded.
    IntegrationError
        Newton's method failed (singular Jacobian, non-finite values, no convergence); carries ``t``
        and the state at the last node.
    DegenerateFrameError
        The adapted frame degenerates along the motion (or is ill-conditioned where Newton's method fails).
    """
    T = t1 - t0
    N = max(1, int(np.ceil(T / step - 1e-12)))
    if N > max_steps:
        raise IntegrationBudgetError(
            f"lda-midpoint: {N} steps of {T / N:g} needed for t_span, more than max_steps={max_steps}", t0, None
        )
    h = T / N
    ts = t0 + h * np.arange(N + 1)
    Q = np.empty((N + 1, scheme.n))
    U = np.empty((N + 1, scheme.n))
    Q[0], U[0] = q0, u0
    pminus = scheme.momentum(q0, u0, p)
    start = time.monotonic()
    newton = 0
    for k in range(N):
        if timeout is not None and time.monotonic() - start > timeout:
            raise IntegrationBudgetError(
                f"lda-midpoint: timeout of {timeout:g} s exceeded at t = {ts[k]:g}",
                float(ts[k]),
                np.concatenate([Q[k], U[k]]),
            )
        guess = Q[k] + h * U[k] if k == 0 else 2 * Q[k] - Q[k - 1]
        try:
            Q[k + 1], _lam, it = scheme.step(pminus, Q[k], guess, h, p)
        except (IntegrationError, np.linalg.LinAlgError) as exc:
            if frame is not None:
                frame.refuse_if_ill(float(ts[k]), np.concatenate([Q[k], U[k]]), "a failure of Newton's method")
            raise IntegrationError(f"{exc} at t = {ts[k]:g}", float(ts[k]), np.concatenate([Q[k], U[k]])) from None
        newton += it
        pminus = scheme.D2(Q[k], Q[k + 1], h, p)
        try:
            U[k + 1] = scheme.velocity(Q[k + 1], pminus, U[k], p)
        except (IntegrationError, np.linalg.LinAlgError) as exc:
            if frame is not None:
                frame.refuse_if_ill(float(ts[k + 1]), np.concatenate([Q[k + 1], U[k]]), "a failure of Newton's method")
            raise IntegrationError(
                f"{exc} at t = {ts[k + 1]:g}", float(ts[k + 1]), np.concatenate([Q[k + 1], U[k]])
            ) from None
        if frame is not None:
            frame.check(float(ts[k + 1]), np.concatenate([Q[k + 1], U[k + 1]]), float(ts[k]))
    info = {"step": h, "nsteps": N, "newton_iterations": newton, "message": "lda-midpoint: done", "status": 0}
    return ts, Q, U, info
