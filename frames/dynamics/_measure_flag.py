"""The flag steps of :func:`frames.invariant_measure`: symbolic (:func:`_flag_steps`) and at generic points.

Step 1 solves the compatibility equations ``R^a_αβ w_a = X_α(w_β) − X_β(w_α) − R^γ_αβ w_γ`` on D∧D for
the transverse components ``w_a`` of ``d log N``; step 2 tests ``dω(X_i, X_j) = 0``. For large systems
both are first decided at generic points of the ring (:func:`_pointwise_flag`), where only numbers are
computed; a nonzero value there is an exact proof that no basic density exists.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from ..algebra import step
from ..algebra.internal import _ExprAlgebra, _RationalAlgebra, checkpoint
from ._nonholonomic import NonholonomicSystem

__all__ = ["_Flag", "_flag_from_jets", "_flag_steps", "_pointwise_flag"]


@dataclass
class _Flag:
    """Outcome of the compatibility and closedness steps (expressions)."""

    conds: tuple[sp.Expr, ...] = ()
    free: int = 0
    integrable: bool = False
    w: tuple[str, ...] = ()  # brief printed forms of w_i (the reason text)
    obs: list[tuple[str, sp.Expr]] = field(default_factory=list)
    omega: tuple[sp.Expr, ...] | None = None
    witness: str = ""  # the generic point at which an obstruction was evaluated (large cases)
    point: tuple[tuple[sp.Expr, sp.Rational], ...] = ()
    cond_labels: tuple[str, ...] = ()


def _gauss(rows: list[list[Any]], k: int, alg: _ExprAlgebra) -> tuple[dict[int, Any], list[Any], int]:
    """Gauss–Jordan on ``[A | b]`` (``k`` unknowns): ``(pivot column → value if no free, conditions, #free)``."""
    rows = [list(r) for r in rows]
    pivots: list[tuple[int, int]] = []
    used: set[int] = set()
    for col in range(k):
        r = next((i for i in range(len(rows)) if i not in used and not alg.zero(rows[i][col])), None)
        if r is None:
            continue
        checkpoint()
        used.add(r)
        inv = 1 / rows[r][col]
        rows[r] = [alg.norm(x * inv) for x in rows[r]]
        for i in range(len(rows)):
            if i != r and not alg.zero(rows[i][col]):
                fct = rows[i][col]
                rows[i] = [alg.norm(x - fct * y) for x, y in zip(rows[i], rows[r], strict=True)]
        pivots.append((r, col))
    conds = [rows[i][k] for i in range(len(rows)) if i not in used and not alg.zero(rows[i][k])]
    return {col: rows[r][k] for r, col in pivots}, conds, k - len(pivots)


def _transverse_coefficients(
    r: Callable[[int, int, int], Any], m: int, n: int, alg: _ExprAlgebra
) -> tuple[list[list[Any]], int, int]:
    """The coefficients ``R^a_αβ = r(a, α, β)`` (ring elements) of the unknowns ``w_a`` in the compatibility equations (one row per pair
    ``α < β``, a zero right-hand side), with the number of pivot rows and of free unknowns: the rank alone
    decides whether those equations can impose a condition or fix the ``w_a``."""
    zero = alg.el(0)
    rows = [[r(m + a, al, be) for a in range(n - m)] + [zero] for al, be in itertools.combinations(range(m), 2)]
    pivoted, _, free = _gauss(rows, n - m, alg)
    return rows, len(pivoted), free


def _flag_steps(nh: NonholonomicSystem, c: list[sp.Expr], R: Any, alg: _ExprAlgebra) -> _Flag:
    r"""Steps 1 and 2: solve ``R^a_αβ w_a = X_α(w_β) − X_β(w_α) − R^γ_αβ w_γ``; if fixed, test ``dω = 0``."""
    F = nh.frame
    m, n = nh.m, nh.n
    Xc = [[alg.el(x) for x in F.matrix.row(i)] for i in range(n)]
    Rel: dict[tuple[int, int, int], Any] = {}

    def r(k: int, i: int, j: int) -> Any:
        if (k, i, j) not in Rel:
            Rel[(k, i, j)] = alg.el(R[k, i, j])
        return Rel[(k, i, j)]

    w: list[Any] = [alg.el(-x) for x in c] + [None] * (n - m)
    with step("invariant_measure: compatibility on D"):
        pairs = list(itertools.combinations(range(m), 2))
        coefficients, pivots, free = _transverse_coefficients(r, m, n, alg)
        if free and pivots == len(pairs):
            # every equation has a pivot in R^a_αβ and some w_a stay free: whatever the right-hand sides
            # X_α(w_β) − X_β(w_α) − R^γ_αβ w_γ are, there is no condition and no fixed ω; they are not formed
            return _Flag((), free, all(alg.zero(x) for row in coefficients for x in row[:-1]))
        rows = []
        for al, be in pairs:
            rhs = alg.apply(Xc[al], w[be]) - alg.apply(Xc[be], w[al])
            for g in range(m):
                if not alg.zero(r(g, al, be)):
                    rhs -= r(g, al, be) * w[g]
            rows.append([r(m + a, al, be) for a in range(n - m)] + [alg.norm(rhs)])
        sol, conds, free = _gauss(rows, n - m, alg)
        integrable = all(alg.zero(x) for row in rows for x in row[:-1])
        out = _Flag(tuple(alg.expr(x) for x in conds), free, integrable)
    if conds or free:
        return out
    for a in range(m, n):
        w[a] = sol[a - m]
    out.w = tuple(alg.brief(x) for x in w)  # for the reason text only: large entries are not converted
    with step("invariant_measure: closedness"):
        for i, j in itertools.combinations(range(n), 2):
            if j < m:
                continue
            checkpoint()
            label = f"dω(X{i + 1}, X{j + 1})"
            if isinstance(alg, _RationalAlgebra) and alg.size(w[i]) + alg.size(w[j]) > alg.LARGE_TERMS:
                found = _closedness_witness(alg, Xc, w, r, R, i, j)
                if found is not None:  # proved nonzero without forming the (large) rational function
                    value, point = found
                    out.obs.append((f"{label} at the generic point", alg.number(value)))
                    out.witness = alg.point_text(point)
                    out.point = alg.point_subs(point)
                    continue
            e = alg.apply(Xc[i], w[j]) - alg.apply(Xc[j], w[i])
            for k in range(n):
                if R[k, i, j] != 0:
                    e -= r(k, i, j) * w[k]
            if not alg.zero(e):
                out.obs.append((label, alg.expr(e)))
        if out.obs:
            return out
        Th = [[alg.el(x) for x in F.coframe_matrix.row(k)] for k in range(n)]
        out.omega = tuple(alg.expr(sum((w[k] * Th[k][j] for k in range(1, n)), w[0] * Th[0][j])) for j in range(n))
    return out


def _closedness_witness(
    alg: _RationalAlgebra, Xc: list[list[Any]], w: list[Any], r: Any, R: Any, i: int, j: int
) -> tuple[Any, list[tuple[Any, Any]]] | None:
    r"""``dω(X_i, X_j) = X_i(w_j) − X_j(w_i) − R^k_ij w_k`` at generic points: ``(value, point)`` for the first
    nonzero value, else None (nothing is proved; the caller forms the function).

    Every term is evaluated separately (derivatives by the chain rule on the generators), so the cost
    is linear in the sizes of the ``w_k``; a nonzero value proves the function nonzero exactly
    (evaluation at the point is a ring homomorphism that commutes with the derivations, since each
    ``∂/∂q^j`` is applied symbolically to a generator before evaluation).
    """
    n = len(w)
    for point in alg.points():
        checkpoint()
        a = alg.apply_at(Xc[i], w[j], point)
        b = alg.apply_at(Xc[j], w[i], point)
        if a is None or b is None:
            continue
        val = a - b
        for k in range(n):
            if R[k, i, j] != 0:
                rk, wk = alg.at(r(k, i, j), point), alg.at(w[k], point)
                if rk is None or wk is None:
                    break
                val -= rk * wk
        else:
            if val != 0:
                return val, point
    return None


def _qq_solve(A: list[list[Any]], rhs: list[list[Any]]) -> tuple[list[int], list[list[Any]]] | None:
    """Rows ``S`` of ``A`` (``len(S)`` = #columns, independent) and ``A_S^{-1} rhs_S`` (columns of ``rhs``), or None
    if ``A`` (rational numbers) has a smaller rank than its number of columns."""
    k = len(A[0]) if A else 0
    aug = [list(a) + list(b) for a, b in zip(A, rhs, strict=True)]
    order = list(range(len(aug)))
    rows: list[int] = []
    for col in range(k):
        piv = next((i for i in order if i not in rows and aug[i][col] != 0), None)
        if piv is None:
            return None
        rows.append(piv)
        inv = 1 / aug[piv][col]
        aug[piv] = [x * inv for x in aug[piv]]
        for i in order:
            if i != piv and aug[i][col] != 0:
                f = aug[i][col]
                aug[i] = [x - f * y for x, y in zip(aug[i], aug[piv], strict=True)]
    return rows, [aug[r][k:] for r in rows]


def _pointwise_flag(nh: NonholonomicSystem, c: list[sp.Expr], R: Any, alg: _RationalAlgebra) -> _Flag | None:
    r"""Steps 1 and 2 decided at generic points, for large systems: a :class:`_Flag` whose obstructions are
    nonzero *values*, or None when nothing was proved (the caller then runs :func:`_flag_steps`).

    The jets of ``c_α`` at a point come from the symbolic ``c_α`` (their first derivatives are formed once);
    :func:`_flag_from_jets` does the rest.
    """
    n = nh.n
    cs = [alg.el(x) for x in c]
    dc: list[list[Any]] = []

    def c_jets(point: list[tuple[Any, Any]]) -> tuple[list[Any], list[list[Any]]] | None:
        if not dc:
            units = [[alg.el(1 if k == l else 0) for k in range(n)] for l in range(n)]
            dc.extend([alg.apply(units[l], ca) for l in range(n)] for ca in cs)  # ∂_l c_α, symbolic
        cj = [alg.qjet(x, point) for x in cs]
        ch = [[alg.qjet(d, point) for d in row] for row in dc]
        if None in cj or any(x is None for row in ch for x in row):
            return None
        return cj, ch

    return _flag_from_jets(nh, R, alg, c_jets)


def _flag_from_jets(
    nh: NonholonomicSystem,
    R: Any,
    alg: _RationalAlgebra,
    c_jets: Callable[[list[tuple[Any, Any]]], tuple[list[Any], list[list[Any]]] | None],
) -> _Flag | None:
    r"""Steps 1 and 2 at generic points of ``alg`` from the jets of ``c_α`` there: ``c_jets(point)`` gives
    ``([(c_α, ∇c_α)], [[(∂_l c_α, ∇∂_l c_α)]])`` (values in QQ), or None at a pole.

    At a point ``P`` only numbers are computed: the values, gradients and Hessians of ``w_α = −c_α``,
    the values and gradients of the frame and of ``R``; the unknown ``w_a`` and their gradients solve
    ``A w = b`` and ``A ∂_k w = ∂_k b − (∂_k A) w`` on ``n − m`` independent rows, ``A = (R^a_αβ)``,
    ``b = X_α(w_β) − X_β(w_α) − R^γ_αβ w_γ`` (the derivative of the compatibility equations). If a
    basic density ``e^f`` exists, ``w_a = X_a(f)`` solves every row identically and ``dω = 0``
    identically; so a nonzero residual of a remaining row, or a nonzero ``dω(X_i, X_j)``, at ``P``
    proves that none exists. Evaluation at ``P`` is a ring homomorphism (sin/cos pairs on the unit
    circle), so the proof is exact; a zero value proves nothing.
    """
    m, n = nh.m, nh.n
    F = nh.frame
    pairs = list(itertools.combinations(range(m), 2))
    if not pairs:
        return None
    if _transverse_coefficients(lambda k, i, j: alg.el(R[k, i, j]), m, n, alg)[2]:
        return None  # the equations leave some w_a free (rank of R^a_αβ < n − m): nothing to decide at a point
    Xc = [[alg.el(x) for x in F.matrix.row(i)] for i in range(n)]
    nonzero = {(k, i, j): alg.el(R[k, i, j]) for k in range(n) for i in range(n) for j in range(n) if R[k, i, j] != 0}
    for point in alg.points(2):
        checkpoint()
        X = [[alg.qjet(x, point) for x in row] for row in Xc]
        Rj = {key: alg.qjet(x, point) for key, x in nonzero.items()}
        if any(x is None for row in X for x in row) or None in Rj.values():
            continue
        jets = c_jets(point)
        if jets is None:
            continue
        cj, ch = jets
        wv: list[Any] = [-v for v, _ in cj] + [None] * (n - m)  # type: ignore[misc]
        wg: list[Any] = [[-d for d in g] for _, g in cj] + [None] * (n - m)  # type: ignore[misc]
        wh = [[[-d for d in ch[al][l][1]] for l in range(n)] for al in range(m)]  # type: ignore[index]
        zero = [0] * n

        def rv(k: int, i: int, j: int, Rj: dict[Any, Any] = Rj, zero: list[Any] = zero) -> tuple[Any, list[Any]]:
            return Rj.get((k, i, j)) or (0, zero)  # type: ignore[no-any-return]

        A, rhs = [], []
        for al, be in pairs:
            b = sum(X[al][l][0] * wg[be][l] - X[be][l][0] * wg[al][l] for l in range(n))  # type: ignore[index]
            b -= sum(rv(g, al, be)[0] * wv[g] for g in range(m))
            db = []
            for k in range(n):
                d = sum(
                    X[al][l][1][k] * wg[be][l]  # type: ignore[index]
                    + X[al][l][0] * wh[be][l][k]  # type: ignore[index]
                    - X[be][l][1][k] * wg[al][l]  # type: ignore[index]
                    - X[be][l][0] * wh[al][l][k]  # type: ignore[index]
                    for l in range(n)
                )
                d -= sum(rv(g, al, be)[1][k] * wv[g] + rv(g, al, be)[0] * wg[g][k] for g in range(m))
                db.append(d)
            A.append([rv(m + a, al, be)[0] for a in range(n - m)])
            rhs.append([b, *db])
        solved = _qq_solve(A, [[r[0]] for r in rhs])
        if solved is None:
            return None  # the transverse components are not all fixed here: the symbolic steps decide
        rows, sol = solved
        w_tr = [s[0] for s in sol]
        residual = [
            (idx, rhs[idx][0] - sum(a * x for a, x in zip(A[idx], w_tr, strict=True)))
            for idx in range(len(pairs))
            if idx not in rows
        ]
        out = _Flag()
        out.witness = alg.point_text(point)
        out.point = alg.point_subs(point)
        bad = [(idx, r) for idx, r in residual if r != 0]
        if bad:
            out.conds = tuple(alg.number(r) for _, r in bad)
            out.cond_labels = tuple(
                f"compatibility on D∧D, X{pairs[i][0] + 1}∧X{pairs[i][1] + 1}, at the generic point" for i, _ in bad
            )
            return out
        # gradients of w_a: A_S ∂_k w = ∂_k b_S − (∂_k A_S) w
        cols = [
            [rhs[idx][1 + k] - sum(rv(m + a, *pairs[idx])[1][k] * w_tr[a] for a in range(n - m)) for k in range(n)]
            for idx in rows
        ]
        _, grads = _qq_solve([A[idx] for idx in rows], cols)  # type: ignore[misc]  # one solve, n right-hand sides
        for a in range(n - m):
            wv[m + a] = w_tr[a]
            wg[m + a] = grads[a]
        for i, j in itertools.combinations(range(n), 2):
            if j < m:
                continue
            val = sum(X[i][l][0] * wg[j][l] - X[j][l][0] * wg[i][l] for l in range(n))  # type: ignore[index]
            val -= sum(rv(k, i, j)[0] * wv[k] for k in range(n))
            if val != 0:
                out.obs.append((f"dω(X{i + 1}, X{j + 1}) at the generic point", alg.number(val)))
        if out.obs:
            out.w = tuple("(large)" for _ in range(n))
            return out
    return None
