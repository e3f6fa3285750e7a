r"""The MVM compared with the nonholonomic method: [PGG] Theorem 1, Ansatz 2, the Crampin–Mestdag bridge.

* :func:`compare_mvm_with_nonholonomic` — Theorem 1 (55a–b): the MVM's motions are the nonholonomic
  ones (TNHM, (52)–(54)) iff ``P Wᵀp = 0`` on C;
* :func:`w_from_partial_auxiliaries` — Ansatz 2: W from the constraints, a subset of auxiliaries and
  the conditions of Theorem 1 (a family in free functions ``ϱ``);
* :func:`hamel_transpositional`, :func:`weak_consistency_expression`, :func:`d_block_holonomic` — the
  MVM's W term in the frame dual to (V, F): Hamel's transpositional term, and Theorem 1 as the
  Crampin–Mestdag weak consistency on the section ``φ_a = P_a``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy as sp

from .._value import Record
from ..algebra import derivative, expect, is_zero, solve_linear, tidy
from ..algebra.internal import canon
from ..dynamics import Lagrangian, check_forces
from ..dynamics.internal import exprs_on_TQ, index_pairs
from ..errors import ConstraintError, InvalidExpressionError
from ._mvm import ModifiedVakonomic

__all__ = [
    "MVMEquivalence",
    "PartialAuxiliaries",
    "compare_mvm_with_nonholonomic",
    "d_block_holonomic",
    "hamel_transpositional",
    "weak_consistency_expression",
    "w_from_partial_auxiliaries",
]


class MVMEquivalence(Record):
    r"""[PGG] Theorem 1: equivalence of the MVM and the nonholonomic method (TNHM), :func:`compare_mvm_with_nonholonomic`.

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


class PartialAuxiliaries(Record):
    r"""W from a subset of auxiliaries plus the equivalence conditions ([PGG] Ansatz 2, Case B).

    The outcome of :func:`w_from_partial_auxiliaries`.

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


def compare_mvm_with_nonholonomic(mvm: ModifiedVakonomic) -> MVMEquivalence:
    r"""[PGG] Theorem 1 (55a–b): the MVM ≡ the nonholonomic method (TNHM) iff ``P Wᵀp = 0`` on C.

    Then ``λ̇ = μ − S^{-1}AM^{-1}Wᵀp``; ``Wᵀp = 0`` on C (Corollary 1,
    :meth:`ModifiedVakonomic.momentum_condition`) suffices.

    Examples
    --------
    >>> import frames as fr, sympy as sp
    >>> from frames.natural import compare_mvm_with_nonholonomic
    >>> mdl = fr.models.rolling_coin_incline(); R = mdl.params["R"]
    >>> th = mdl.chart.q[3]; ux, uy, uph, uth = mdl.chart.u
    >>> mvm = fr.ModifiedVakonomic(mdl.lagrangian, [ux - R*sp.sin(th)*uph, uy - R*sp.cos(th)*uph], [uph, uth])
    >>> compare_mvm_with_nonholonomic(mvm).holds
    True
    """
    expect(mvm, ModifiedVakonomic, name="compare_mvm_with_nonholonomic: mvm")
    Mi, Si, P = mvm.schur_blocks
    A = sp.Matrix(mvm.A)
    wtp = sp.Matrix(mvm.WTp)
    proj = (P * wtp).applyfunc(mvm.on_constraint)
    shift = (Si * A * Mi * wtp).applyfunc(mvm.on_constraint)
    dcomp = sp.Matrix([mvm.on_constraint((wtp.T * Y)[0]) for Y in mvm.d_basis()])
    return MVMEquivalence(
        sp.ImmutableMatrix(proj),
        sp.ImmutableMatrix(shift),
        sp.ImmutableMatrix(dcomp),
        all(is_zero(x) for x in proj),
    )


# ------------------------------------------------ Crampin–Mestdag bridge
def hamel_transpositional(mvm: ModifiedVakonomic) -> sp.ImmutableMatrix:
    r"""Hamel's transpositional term ``P_i R^i_{jk} v^k`` in the frame dual to (V, F), in ``(q, u)``.

    ``P_i = X_i^V L`` are the quasi-momenta and ``v = H u``; equals ``X_j^k (Wᵀp)_k`` for a
    scleronomic linear coframe and the Ansatz-1 W.
    """
    expect(mvm, ModifiedVakonomic, name="hamel_transpositional: mvm")
    F = mvm.frame
    R = F.anholonomy
    n = mvm.n
    P = [F.to_natural(x) for x in mvm.lagrangian.momenta(F)]
    v = list(mvm.H * sp.Matrix(mvm.chart.u))
    out = [
        tidy(sp.Add(*[P[i] * R[i, j, k] * v[k] for i in range(n) for k in range(n) if R[i, j, k] != 0]))
        for j in range(n)
    ]
    return sp.ImmutableMatrix(out)


def weak_consistency_expression(mvm: ModifiedVakonomic) -> sp.ImmutableMatrix:
    r"""Crampin–Mestdag Theorem 2 (ii) on the section ``φ_a = P_a``: ``P_a R^a_{βγ} v^γ`` on C.

    ``a`` runs over the constraint directions (0..m−1 here), ``β, γ`` over the D directions
    (dual to the auxiliaries). Equals the D-components of ``Wᵀp`` on C (:func:`compare_mvm_with_nonholonomic`, (55a))
    when the D-block ``R^{γ'}_{βγ}`` of the anholonomy vanishes.
    """
    expect(mvm, ModifiedVakonomic, name="weak_consistency_expression: mvm")
    F = mvm.frame
    R = F.anholonomy
    n, m = mvm.n, mvm.k
    P = [F.to_natural(x) for x in mvm.lagrangian.momenta(F)]
    v = list(mvm.H * sp.Matrix(mvm.chart.u))
    out = [
        mvm.on_constraint(sp.Add(*[P[a] * R[a, b, g] * v[g] for a in range(m) for g in range(m, n) if R[a, b, g] != 0]))
        for b in range(m, n)
    ]
    return sp.ImmutableMatrix(out)


def d_block_holonomic(mvm: ModifiedVakonomic) -> bool:
    """True if ``R^{γ'}_{βγ} = 0`` for all D indices (then [PGG] Theorem 1 is Crampin–Mestdag weak consistency)."""
    expect(mvm, ModifiedVakonomic, name="d_block_holonomic: mvm")
    R = mvm.frame.anholonomy
    D = range(mvm.k, mvm.n)
    return all(is_zero(R[c, b, g]) for c in D for b in D for g in D)


# ---------------------------------------------------------------- Ansatz 2
def w_from_partial_auxiliaries(
    lagrangian: Lagrangian,
    constraints: Sequence[Any],
    auxiliary: Sequence[Any],
    completion: Sequence[Any],
    free: Sequence[tuple[int, int]] = (),
    forces: Sequence[Any] | None = None,
    names: str = "varrho",
) -> PartialAuxiliaries:
    r"""W from the constraints, a subset of auxiliaries and the equivalence conditions ([PGG] Ansatz 2).

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
    what = "w_from_partial_auxiliaries"
    expect(lagrangian, Lagrangian, name=f"{what}: lagrangian")
    ch0 = lagrangian.chart
    cons0 = exprs_on_TQ(ch0, constraints, name=f"{what}: constraints")
    aux0 = exprs_on_TQ(ch0, auxiliary, name=f"{what}: auxiliary")
    comp0 = exprs_on_TQ(ch0, completion, name=f"{what}: completion")
    forces = check_forces(ch0, forces, f"{what}: forces")
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
        raise ConstraintError(f"{what}: the conditions (34), (35) and Theorem 1 have no solution for W")
    W = (X.T * Z.xreplace(sol)).applyfunc(canon)
    params = sorted(set().union(*[e.free_symbols for e in W]) & set(zs), key=zs.index)
    rhos = tuple(sp.Symbol(names if j == 0 else f"{names}{j + 1}") for j in range(len(params)))
    if free:
        if len(free) != len(params):
            raise ConstraintError(
                f"{what}: {len(free)} preferred free entries but the family has {len(params)} parameters"
            )
        conds = [W[h, k] - r for (h, k), r in zip(free, rhos, strict=True)]
        sol2, _, inconsistent, _ = solve_linear(*sp.linear_eq_to_matrix(conds, params), unknowns=params, method="sympy")
        if inconsistent:
            raise ConstraintError(f"{what}: the entries {list(free)} cannot serve as the free functions")
        W = W.xreplace(sol2)
    else:
        W = W.xreplace(dict(zip(params, rhos, strict=True)))
    Wt = sp.ImmutableMatrix(W.applyfunc(tidy))
    system = base.with_W(Wt, extra_symbols=rhos)
    # (51a): q̈ depends on W only through P W^T p, so ∂q̈/∂ϱ = P ∂(W^T p)/∂ϱ
    Pj = system.projector()
    dW = [Pj * (Wt.T * sp.Matrix(base.p)).diff(r) for r in rhos]
    indep = all(is_zero(x) for d in dW for x in d)
    return PartialAuxiliaries(Wt, rhos, system, indep)
