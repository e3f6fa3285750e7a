r"""Out to :mod:`sympy.physics.mechanics`: a model as a ``LagrangesMethod`` or a ``KanesMethod`` (``Model.to_mechanics``).

``kind="lagrange"``: ``LagrangesMethod(L, q, nonhol_coneqs=constraints)``. ``kind="kane"``: a ``KanesMethod``
in the model's frame (speeds = the quasi-velocities, the transverse ones dependent with ``v^a = 0``); the inertia
is carried by particles built from the LDLᵀ factorisation of ``∂²L/∂q̇²``, and the rest of the Euler–Lagrange
expressions by generalized forces. The way in is :func:`frames.from_mechanics` (:mod:`._interop`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sympy as sp

from .._lazy import LazyModule
from ..algebra import is_zero, tidy
from ..dynamics import is_model
from ..errors import ArgumentError, RegularityError
from ..natural.internal import to_dynamic

if TYPE_CHECKING:
    from sympy.physics import mechanics as me
else:  # imported on first use: sympy.physics loads its units (~0.2 s)
    me = LazyModule("sympy.physics.mechanics")

__all__ = ["to_mechanics"]

_KINDS = ("lagrange", "kane")


def _ldl(M: sp.Matrix, variables: set[sp.Symbol], what: str) -> tuple[sp.Matrix, list[sp.Expr]]:
    """``M = Gᵀ diag(D) G``: symmetric elimination, simplest pivot first (no square roots).

    ``variables`` (coordinates, time) make a pivot less simple than a constant one.

    Pivoting on the constant diagonal entries first keeps the masses and velocities short (the
    Chaplygin sleigh gives ``m, m, I`` instead of a pivot ``I + m a² cos² θ``).
    """
    n = M.rows
    A = sp.Matrix(M)
    G = sp.zeros(n, n)
    D: list[sp.Expr] = []
    left = list(range(n))
    for row in range(n):
        cands = [i for i in left if not is_zero(A[i, i])]
        if not cands:
            raise RegularityError(
                f"{what}: the Hessian ∂²L/∂q̇² = {M.tolist()} has no nonzero pivot left; kind='kane' needs an "
                "LDLᵀ factorisation (kind='lagrange' does not)"
            )
        i = min(cands, key=lambda j: (bool(A[j, j].free_symbols & variables), sp.count_ops(A[j, j]), j))
        d = tidy(A[i, i])
        D.append(d)
        left.remove(i)
        G[row, i] = 1
        for j in left:
            G[row, j] = tidy(A[i, j] / d)
        for r in left:
            for c in left:
                A[r, c] = tidy(A[r, c] - A[r, i] * A[i, c] / d)
    return G, D


def _kane_from_model(model: Any, what: str) -> me.KanesMethod:
    ch, F, m = model.chart, model.frame, model.m
    n = ch.dim
    sub, qf, qd, _t = to_dynamic(ch)
    L = model.lagrangian.expr
    H = model.lagrangian.hessian()
    if H.free_symbols & set(ch.u):
        raise RegularityError(f"{what}: L = {L} is not quadratic in the velocities; kind='kane' needs it")
    variables = set(ch.q) | ({ch.t} if ch.t is not None else set())
    K, D = _ldl(sp.Matrix(H), variables, what)
    # e = Euler–Lagrange expressions without the q̈ terms; the particles carry M q̈ + Kᵀ(Ḋ K + D K̇) q̇
    u = ch.u
    e = [
        sp.Add(*[sp.diff(L, ui, qj) * uj for qj, uj in zip(ch.q, u, strict=True)])
        + (sp.diff(L, ui, ch.t) if ch.t is not None else 0)
        - sp.diff(L, qi)
        for ui, qi in zip(u, ch.q, strict=True)
    ]
    Dd = [ch.total_derivative(d) for d in D]
    Kd = K.applyfunc(ch.total_derivative)
    Mq = (sp.diag(*Dd) * K + sp.diag(*D) * Kd) * sp.Matrix(u)
    forces = list(model.force_form or [0] * n)  # with the loads; None: no forces
    gen = [tidy(x) for x in (K.T * Mq - sp.Matrix(e) + sp.Matrix(forces))]
    N = me.ReferenceFrame("N")
    O = me.Point("O")
    O.set_vel(N, 0)
    constant = not any(x.free_symbols & variables for x in (*K, *D))
    bodies, loads = [], []
    w = K.xreplace(sub) * sp.Matrix(qd)
    for i in range(n):
        # inertia particle i: velocity w_i N.x (a true position when K is constant), mass D_i
        P = O.locatenew(f"P{i + 1}", (K.row(i) * sp.Matrix(qf))[0] * N.x) if constant else me.Point(f"P{i + 1}")
        P.set_vel(N, w[i] * N.x)
        bodies.append(me.Particle(f"m{i + 1}", P, D[i].xreplace(sub)))
        if gen[i] != 0:
            Q = O.locatenew(f"Q{i + 1}", qf[i] * N.y)
            Q.set_vel(N, qd[i] * N.y)
            loads.append((Q, gen[i].xreplace(sub) * N.y))
    speeds = [me.dynamicsymbols(s.name) for s in F.v]
    # q̇ = Xᵀ v (u = Θ q̇ solved for q̇: sympy's linear solve of the kinematics is then trivial)
    X = F.matrix.xreplace(sub)
    kd = [qd[j] - sum((X[i, j] * speeds[i] for i in range(n)), sp.S.Zero) for j in range(n)]
    return me.KanesMethod(
        N,
        q_ind=qf,
        u_ind=speeds[:m],
        kd_eqs=kd,
        u_dependent=speeds[m:],
        velocity_constraints=speeds[m:],
        bodies=bodies,
        forcelist=loads or None,
    )


def to_mechanics(model: Any, kind: str = "lagrange") -> Any:
    r"""The model as a :mod:`sympy.physics.mechanics` method (not yet formed).

    ``kind="lagrange"``: ``LagrangesMethod(L, q, nonhol_coneqs=constraints)``; call
    ``form_lagranges_equations()`` and ``rhs()``. ``kind="kane"``: a ``KanesMethod`` in the
    model's frame (speeds ``v1, …`` = the quasi-velocities, the transverse ones dependent with
    ``v^a = 0``); the inertia is carried by particles built from the LDLᵀ factorisation of
    ``∂²L/∂q̇²`` and the rest of the Euler–Lagrange expressions by generalized forces (module
    docstring); call ``kanes_equations()`` and ``rhs()``. Coordinates keep the chart's names.

    Raises
    ------
    ArgumentError
        If ``model`` is not a Model or ``kind`` is neither ``"lagrange"`` nor ``"kane"``.
    RegularityError
        ``kind="kane"`` with a Lagrangian that is not quadratic in the velocities, or whose Hessian has
        no LDLᵀ factorisation in the chart's order.
    """
    what = "to_mechanics"
    if not is_model(model):
        raise ArgumentError(f"{what}: model: expected a frames Model, got {type(model).__name__}")
    if not isinstance(kind, str) or kind not in _KINDS:
        raise ArgumentError(f"{what}: kind: expected 'lagrange' or 'kane', got {kind!r}")
    if kind == "kane":
        return _kane_from_model(model, f"{what}: model {model.name!r}")
    sub, qf, qd, _t = to_dynamic(model.chart)
    cons = [c.xreplace(sub) for c in model.constraints.functions]
    forces = model.force_form  # loads included; None: no forces
    if forces is None:
        return me.LagrangesMethod(model.lagrangian.expr.xreplace(sub), qf, nonhol_coneqs=cons)
    # the generalised force F_i acts on q_i alone: a massless point Q_i moving as q̇_i N.y, with the load F_i N.y
    N = me.ReferenceFrame("N")
    O = me.Point("O")
    O.set_vel(N, 0)
    loads = []
    for i, f in enumerate(forces):
        if f != 0:
            Q = O.locatenew(f"Q{i + 1}", qf[i] * N.y)
            Q.set_vel(N, qd[i] * N.y)
            loads.append((Q, f.xreplace(sub) * N.y))
    return me.LagrangesMethod(model.lagrangian.expr.xreplace(sub), qf, nonhol_coneqs=cons, forcelist=loads, frame=N)
