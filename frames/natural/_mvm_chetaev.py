r"""The modified vakonomic method against the Chetaev equations (Talamucci (60)–(66)).

With ``Ω = W`` of Pastore et al., ``D_1 g_ν = 0`` singly ((65), their (34)), and (60) differs from the
vakonomic (52b) by ``p_h ω_{h,j}``; (64) ``p_h ω_{h,j} = 0`` makes the MVM the Chetaev equations
with ``λ = −μ̇`` (:func:`compare_mvm_with_chetaev`).
"""

from __future__ import annotations

import sympy as sp

from .._value import Record
from ..algebra import derivative, expect, is_zero, tidy
from ..algebra.internal import budgeted, canon
from ..errors import ArgumentError
from ._chetaev import ChetaevSystem
from ._mvm import ModifiedVakonomic

__all__ = ["MVMChetaevComparison", "compare_mvm_with_chetaev"]


class MVMChetaevComparison(Record):
    r"""Talamucci's comparison (60)–(66) of the modified vakonomic method with (52), :func:`compare_mvm_with_chetaev`.

    Attributes
    ----------
    omega : Matrix
        ``Ω = W`` (``ω_{h,j} = W^h_j``; Pastore's ``ζ − η̇ = W η`` is (30)).
    d1_constraints : Matrix
        ``D_1^{(q_j)} V^α`` (62) with ``Ω = W``; all zero: the solvability conditions (34) of Pastore
        et al. are ``D_1 g_ν = 0`` singly (65).
    mvm_identity : tuple
        (60) with ``μ = −λ``, ``μ̇ = −λ̇`` plus the MVM equations (42a): zero (the MVM is (60)).
    momentum_term : Matrix
        ``Σ_h p_h ω_{h,j}`` on C, the difference of (60) and the vakonomic (52b).
    momentum_condition : bool
        (64): the momentum term vanishes on C. Then (66) is the Chetaev system (52a) with
        ``λ_Chetaev = λ̇`` (Pastore's Corollary 1, :meth:`ModifiedVakonomic.momentum_condition`).
    """

    omega: sp.ImmutableMatrix
    d1_constraints: sp.ImmutableMatrix
    mvm_identity: tuple[sp.Expr, ...]
    momentum_term: sp.ImmutableMatrix
    momentum_condition: bool


@budgeted("compare_mvm_with_chetaev")
def compare_mvm_with_chetaev(mvm: ModifiedVakonomic) -> MVMChetaevComparison:
    r"""Talamucci's (60)–(66) for a :class:`~frames.ModifiedVakonomic` (no forces).

    (60): ``D L = −μ D g − μ̇ ∂g/∂q̇ + μ ∂g/∂q̇_h ω_{h,j} + p_h ω_{h,j}``, i.e. (61)
    ``D_1 L = −μ D_1 g − μ̇ ∂g/∂q̇``; with ``D_1 g = 0`` (65) it is (66) ``D_1 L = −μ̇ ∂g/∂q̇``.

    Examples
    --------
    >>> import frames as fr, sympy as sp
    >>> mdl = fr.models.rolling_coin_incline(); R = mdl.params["R"]
    >>> th = mdl.chart.q[3]; ux, uy, uph, uth = mdl.chart.u
    >>> mvm = fr.ModifiedVakonomic(mdl.lagrangian, [ux - R*sp.sin(th)*uph, uy - R*sp.cos(th)*uph], [uph, uth])
    >>> r = fr.compare_mvm_with_chetaev(mvm); r.momentum_condition, r.d1_constraints.is_zero_matrix
    (True, True)
    """
    expect(mvm, ModifiedVakonomic, name="compare_mvm_with_chetaev: mvm")
    if mvm.forces is not None:
        raise ArgumentError(
            "compare_mvm_with_chetaev: mvm: polygenic forces are not part of Talamucci's (60); pass forces=None"
        )
    L = mvm.lagrangian
    S = ChetaevSystem(L, mvm.constraints)
    W = sp.ImmutableMatrix(mvm.W)
    ch = S.chart
    n = ch.dim
    if any(x.free_symbols - (set(ch.q) | set(ch.u) | set(ch.params) | ({ch.t} if ch.t is not None else set()))
           for x in W):  # fmt: skip
        raise ArgumentError("compare_mvm_with_chetaev: mvm: W contains free functions; substitute them first")
    d1 = sp.ImmutableMatrix([list(S.lagrangian_derivative_1(g, W)) for g in mvm.constraints]).applyfunc(tidy)
    p = [derivative(L.expr, u) for u in ch.u]
    pw = [canon(sp.Add(*[p[h] * W[h, j] for h in range(n)])) for j in range(n)]
    # (60) with Talamucci's μ = −λ, μ̇ = −λ̇ (λ the MVM's multipliers); the MVM's q̈ symbols → the system's
    acc = dict(zip(mvm.qdd, S.qdd, strict=True))
    DL = S.lagrangian_derivative(L.expr)
    J = S.kozlov.jacobian()
    mvm_res = [e.lhs - e.rhs for e in mvm.equations()]  # (42a) first, then the constraints
    ident = []
    for j in range(n):
        r60 = (
            DL[j] + sp.Add(*[-mvm.lam[a] * d1[a, j] - mvm.lamdot[a] * J[a, j] for a in range(mvm.k)]) - pw[j]
        )  # D L + μ D_1 g + μ̇ γ − p Ω  with μ = −λ, μ̇ = −λ̇
        ident.append(tidy(canon(r60 + mvm_res[j].xreplace(acc))))
    mom = sp.ImmutableMatrix([mvm.on_constraint(x) for x in pw])
    return MVMChetaevComparison(W, d1, tuple(ident), mom, all(is_zero(x) for x in mom))
