r"""The W tensor of the modified vakonomic method (Pastore, Giammarini & Grillo 2024), two routes.

Constraints ``V^α`` and auxiliaries ``F^β``, affine in the velocities, form the quasi-velocities
``ω = (V, F)`` with Jacobian ``H^i_k = ∂ω^i/∂u^k`` ([PGG] (36)). Variations obey
``ζ − η̇ = W η`` (15), ``W[h, k] = W^h_k``.

* :func:`w_from_coordinates` — the solvability conditions (40a)–(40b), ``H W = −[E_k ω^i]``
  (Ansatz 1 of [PGG]);
* :func:`w_from_frame` — the object of anholonomy of the frame dual to the coframe ``(V, F)``
  (docs/mvm.md): with ``Θ^i = θ^i_k dq^k + c^i dt`` on ``R × Q``, the frame
  ``{X_0 = ∂_t − c^i X_i, X_i}`` dual to ``(dt, Θ^i)``, its object of anholonomy ``R`` and the
  extended velocity ``U = ∂_t + u^k ∂_k = X_0 + ω^i X_i``,

      W^h_k = X_i^h R^i_{jM} Ω^M θ^j_k,     Ω = (1, ω^1, …, ω^n),

  the coordinate form of the (1,1) tensor ``Σ_i X_i ⊗ (U ⌟ dΘ^i)``. For a scleronomic linear
  coframe only the spatial part survives, ``W = X^T (R·v) Θ``.

W from a subset of auxiliaries and the equivalence conditions (Ansatz 2) is
:func:`~frames.natural.w_from_partial_auxiliaries` (module ``_mvm_equivalence``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy as sp

from ..algebra import derivative, is_zero, solve_linear, tidy
from ..algebra.internal import canon
from ..dynamics.internal import check_symbols, n_exprs_on_TQ, prefix_symbols
from ..errors import ConstraintError
from ..geometry import Chart, Frame, VectorField

__all__ = ["jacobian_and_offset", "w_from_coordinates", "w_from_frame"]


def jacobian_and_offset(chart: Chart, omegas: Sequence[sp.Expr], what: str) -> tuple[sp.Matrix, sp.Matrix]:
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


def w_from_coordinates(chart: Chart, omegas: Sequence[sp.Expr]) -> sp.ImmutableMatrix:
    r"""W from the solvability conditions (40a)–(40b): ``Σ_h (∂ω^i/∂u^h) W^h_k = −E_k ω^i``.

    Solved exactly as the linear system ``H W = −[E_k ω^i]`` (``H`` the Jacobian (36)).
    ``E_k ω^i = ∂_k ω^i − d/dt(∂ω^i/∂u^k)`` contains no accelerations, since ω is affine in u.

    Raises
    ------
    ConstraintError
        If ω is not affine in u, or ``H`` is singular (the quasi-velocities are dependent).
    """
    omegas = n_exprs_on_TQ(chart, omegas, "w_from_coordinates")
    H, _ = jacobian_and_offset(chart, omegas, "w_from_coordinates: omegas")
    n = chart.dim
    det = canon(H.det(method="bareiss"))
    if is_zero(det):
        raise ConstraintError(
            f"w_from_coordinates: omegas: the Jacobian H = {H.tolist()} of (V, F) is singular; choose other auxiliaries"
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


def w_from_frame(chart: Chart, omegas: Sequence[sp.Expr], v: str = "w") -> sp.ImmutableMatrix:
    r"""W from the object of anholonomy of the frame dual to the coframe (V, F).

    Scleronomic linear case: build :class:`~frames.Frame` from the rows of
    ``(H^{-1})^T`` (the fields ``X_i`` with ``θ^i(X_j) = δ^i_j``), take ``R = F.anholonomy`` and

        W^h_k = X_i^h R^i_{jm} v^m θ^j_k,      v = H u.

    Time-dependent or affine case (``ω^i = θ^i_k(q, t) u^k + c^i(q, t)``): the same formula on
    R × Q for the coframe ``(dt, Θ^i = θ^i + c^i dt)``, dual frame ``X_0 = ∂_t − c^i X_i``, ``X_i``,
    with the extended quasi-velocities ``Ω = (1, ω)``:

        W^h_k = X_i^h R^i_{jM} Ω^M θ^j_k        (M = 0..n).
    """
    omegas = n_exprs_on_TQ(chart, omegas, "w_from_frame")
    if isinstance(v, str):
        prefix_symbols(v, [], name="w_from_frame: v")
    else:
        check_symbols(v, name="w_from_frame: v")
    H, c = jacobian_and_offset(chart, omegas, "w_from_frame: omegas")
    n = chart.dim
    if is_zero(canon(H.det(method="bareiss"))):
        raise ConstraintError(
            f"w_from_frame: omegas: the Jacobian H = {H.tolist()} of (V, F) is singular; choose other auxiliaries"
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
