r"""The discrete Lagrange–d'Alembert integrator, midpoint rule (``method="lda-midpoint"``).

Cortés & Martínez (2001), *Non-holonomic integrators*, Nonlinearity 14; in the form of
McLachlan & Perlmutter (2006), *Integrators for nonholonomic mechanical systems*, J. Nonlinear
Sci. 16, section 4 (the "DLA" scheme with a midpoint discrete Lagrangian and midpoint discrete
constraints).

With ``L(q, u)`` autonomous, the constraints ``A(q) u = 0`` (the rows ``θ^a`` of the coframe,
``a > m``) and a fixed step ``h``:

* discrete Lagrangian ``L_d(q_0, q_1) = h L((q_0 + q_1)/2, (q_1 − q_0)/h)``;
* discrete constraint ``A((q_k + q_{k+1})/2) (q_{k+1} − q_k)/h = 0``;
* discrete Lagrange–d'Alembert equations
  ``D_2 L_d(q_{k−1}, q_k) + D_1 L_d(q_k, q_{k+1}) + h A(q_k)^T λ_k = 0``,

solved for ``(q_{k+1}, λ_k)`` by Newton's method with the exact (symbolically generated, CSE'd)
Jacobian. The first step replaces ``D_2 L_d(q_{−1}, q_0)`` by the momentum ``∂L/∂u(q_0, u_0)``.
The scheme is symmetric: the equations are invariant under ``k ↦ −k`` with ``h ↦ −h``; the
discrete constraints hold at every step to the Newton tolerance. Velocities at the nodes are
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
        J11 = D1.jacobian(b)
        J21 = g.jacobian(b) if k else sp.zeros(0, n)
        pL = sp.Matrix([sp.diff(L, ui) for ui in u])
        M = pL.jacobian(u)
        args = (a, b, h, params)
        self.n, self.k = n, k
        self._D1 = sp.lambdify(args, D1, cse=True, modules="numpy")
        self._D2 = sp.lambdify(args, D2, cse=True, modules="numpy")
        self._J11 = sp.lambdify(args, J11, cse=True, modules="numpy")
        self._g = sp.lambdify(args, g, cse=True, modules="numpy")
        self._J21 = sp.lambdify(args, J21, cse=True, modules="numpy")
        self._A = sp.lambdify((a, params), Aa, cse=True, modules="numpy")
        self._p = sp.lambdify((q, u, params), pL, cse=True, modules="numpy")
        self._M = sp.lambdify((q, u, params), M, cse=True, modules="numpy")

    # ------------------------------------------------------------------ pieces
    def momentum(self, q: np.ndarray, u: np.ndarray, p: np.ndarray) -> np.ndarray:
        return np.asarray(self._p(q, u, p), dtype=float).reshape(self.n)

    def A(self, q: np.ndarray, p: np.ndarray) -> np.ndarray:
        return np.asarray(self._A(q, p), dtype=float).reshape(self.k, self.n)

    def D2(self, q0: np.ndarray, q1: np.ndarray, h: float, p: np.ndarray) -> np.ndarray:
        return np.asarray(self._D2(q0, q1, h, p), dtype=float).reshape(self.n)

    def step(
        self, pminus: np.ndarray, q0: np.ndarray, guess: np.ndarray, h: float, p: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, int]:
        """Solve the DLA equations for ``(q_1, λ_0)`` given ``p_0^− = D_2 L_d(q_{−1}, q_0)``."""
        n, k = self.n, self.k
        A0 = self.A(q0, p)
        q1 = np.array(guess, dtype=float)
        lam = np.zeros(k)
        for it in range(1, NEWTON_MAXITER + 1):
            F1 = pminus + np.asarray(self._D1(q0, q1, h, p), dtype=float).reshape(n) + h * A0.T @ lam
            F2 = np.asarray(self._g(q0, q1, h, p), dtype=float).reshape(k)
            F = np.concatenate([F1, F2])
            J = np.zeros((n + k, n + k))
            J[:n, :n] = np.asarray(self._J11(q0, q1, h, p), dtype=float).reshape(n, n)
            J[:n, n:] = h * A0.T
            J[n:, :n] = np.asarray(self._J21(q0, q1, h, p), dtype=float).reshape(k, n)
            if not np.all(np.isfinite(F)) or not np.all(np.isfinite(J)):
                raise IntegrationError("lda-midpoint: non-finite residual or Jacobian (singular point?)")
            dz = np.linalg.solve(J, -F)
            q1 = q1 + dz[:n]
            lam = lam + dz[n:]
            scale = 1.0 + np.max(np.abs(q1))
            if np.max(np.abs(dz[:n])) <= NEWTON_TOL * scale and np.max(np.abs(F)) <= 1e-10 * (
                1.0 + np.max(np.abs(pminus))
            ):
                return q1, lam, it
        raise IntegrationError(f"lda-midpoint: Newton's method did not converge in {NEWTON_MAXITER} iterations")

    def velocity(self, q: np.ndarray, pk: np.ndarray, guess: np.ndarray, p: np.ndarray) -> np.ndarray:
        """``u`` in ``D_q`` with ``∂L/∂u(q, u) − p_k`` in the annihilator (Newton; one step if L is quadratic)."""
        n, k = self.n, self.k
        A = self.A(q, p)
        u = np.array(guess, dtype=float)
        nu = np.zeros(k)
        for _ in range(NEWTON_MAXITER):
            F = np.concatenate([self.momentum(q, u, p) - pk - A.T @ nu, A @ u])
            J = np.zeros((n + k, n + k))
            J[:n, :n] = np.asarray(self._M(q, u, p), dtype=float).reshape(n, n)
            J[:n, n:] = -A.T
            J[n:, :n] = A
            dz = np.linalg.solve(J, -F)
            u, nu = u + dz[:n], nu + dz[n:]
            if np.max(np.abs(dz[:n])) <= NEWTON_TOL * (1.0 + np.max(np.abs(u))):
                return u
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
) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
    """Run the scheme from ``(q0, u0)`` over ``[t0, t1]``; return ``(t, q, u, info)`` at the nodes.

    The step actually used is ``h = (t1 − t0)/N`` with ``N = ceil((t1 − t0)/step)``, so the last node is
    ``t1`` and ``h ≤ step``.
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
            raise IntegrationError(f"{exc} at t = {ts[k]:g}", float(ts[k]), np.concatenate([Q[k], U[k]])) from None
        newton += it
        pminus = scheme.D2(Q[k], Q[k + 1], h, p)
        U[k + 1] = scheme.velocity(Q[k + 1], pminus, U[k], p)
    info = {"step": h, "nsteps": N, "newton_iterations": newton, "message": "lda-midpoint: done", "status": 0}
    return ts, Q, U, info
