r"""The invariant-measure test at generic points, for a system whose nonholonomic field is not formed.

When the Cramer numerators of ``Γ^α`` are too large to write out (``NonholonomicSystem.field_size_bound``),
:func:`frames.invariant_measure` ``(..., pointwise=True)`` decides what it can from the *data* of
``g_αβ Γ^β = r_α`` (Proposition 2) at generic points of the drift's field, never forming ``Γ``.

For a Lagrangian quadratic in the velocities ``g_αβ = X_α^V X_β^V L`` on C is free of ``v`` and ``r_α`` is a
polynomial of degree at most 2 in ``v``, so, with ``G = (g_αβ)^{-1}``,

.. math::

    \operatorname{div} Γ = Σ_β G^{βγ} ∂r_γ/∂v^β + v^α \operatorname{div}_0 X_α ,\qquad
    c_α = ∂(\operatorname{div} Γ)/∂v^α = Σ_{β,γ} G^{βγ} ∂²r_γ/∂v^α∂v^β + \operatorname{div}_0 X_α ,

``div Γ`` is affine in ``v`` and the ``c_α`` are functions of ``q``. Its value at ``v = 0`` vanishes: with
``L = ½ g_ij v^i v^j + Z_i v^i − V`` the part of ``r_γ`` linear in ``v`` is ``dZ(X_γ, X_β) v^β``
(``X_γ(Z_β) − X_β(Z_γ) − R^j_γβ Z_j``), skew in ``γ, β``, so its trace with the symmetric ``G`` is zero. So
``div Γ = c_α(q) v^α`` exactly, and only the flag steps remain.
At a generic point ``P`` the 2-jets (value, gradient, Hessian in ``q``) of ``g`` and of the coefficients
``∂²r_γ/∂v^α∂v^β`` give the 2-jet of ``c_α`` (``∂G = −G ∂g G``, ``∂∂G = G(∂g G ∂g + ∂g G ∂g − ∂∂g)G``),
and the flag steps of :func:`~frames.dynamics._measure_flag._flag_from_jets` run on those numbers. A nonzero
residual of the compatibility equations or a nonzero ``dω(X_i, X_j)`` at ``P`` proves exactly that no basic
density exists (evaluation is a ring homomorphism); zeros prove nothing, and the answer is then "undecided"
(for ``m = 1``: a basic density exists locally, ``X_1(log N) = −c_1`` being one equation along a field).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy as sp

from ..algebra import derivative, generic_rank, is_zero, step
from ..algebra.internal import PolyFraction, UnsupportedExpression, _RationalAlgebra, canon, checkpoint, entries
from ..errors import BudgetExceededError, RegularityError
from ._measure_flag import _Flag, _flag_from_jets, _transverse_coefficients
from ._nonholonomic import NonholonomicSystem

__all__ = ["PointwiseMeasure", "analyse_pointwise", "pointwise_measure"]

#: a jet: value, gradient (n) and Hessian (n × n) in q at a point, entries in QQ
Jet = tuple[Any, list[Any], list[list[Any]]]


class PointwiseMeasure:
    """What the generic points decided: ``flag`` (a :class:`_Flag` with obstructions, and the point), or None
    (nothing proved). ``alg`` is the field of the points, ``c_jets(point)`` the jets of ``c_α`` there (as
    :func:`_flag_from_jets` takes them), ``free`` the number of components ``w_a`` the compatibility equations on
    D∧D leave free."""

    def __init__(self, alg: _RationalAlgebra, c_jets: Any) -> None:
        self.alg, self.c_jets = alg, c_jets
        self.flag: _Flag | None = None
        self.free = 0


def _inverse(M: list[list[Any]]) -> list[list[Any]] | None:
    """The inverse of a square matrix over QQ (Gauss–Jordan), or None if it is singular."""
    k = len(M)
    A = [[*row, *(1 if i == j else 0 for j in range(k))] for i, row in enumerate(M)]
    for col in range(k):
        r = next((i for i in range(col, k) if A[i][col] != 0), None)
        if r is None:
            return None
        A[col], A[r] = A[r], A[col]
        piv = A[col][col]
        A[col] = [x / piv for x in A[col]]
        for i in range(k):
            if i != col and A[i][col] != 0:
                f = A[i][col]
                A[i] = [x - f * y for x, y in zip(A[i], A[col], strict=True)]
    return [row[k:] for row in A]


def _mul(A: list[list[Any]], B: list[list[Any]]) -> list[list[Any]]:
    return [[sum(A[i][t] * B[t][j] for t in range(len(B))) for j in range(len(B[0]))] for i in range(len(A))]


def _inverse_jet(g: list[list[Jet]], n: int) -> list[list[Jet]] | None:
    """The 2-jet of ``G = g^{-1}`` from the 2-jets of the entries of ``g``."""
    k = len(g)
    G0 = _inverse([[g[i][j][0] for j in range(k)] for i in range(k)])
    if G0 is None:
        return None
    d = [[[g[i][j][1][a] for j in range(k)] for i in range(k)] for a in range(n)]  # ∂_a g
    dG = [[[-x for x in row] for row in _mul(_mul(G0, d[a]), G0)] for a in range(n)]
    hG: list[list[Any]] = [[None] * n for _ in range(n)]
    for a in range(n):
        for b in range(a, n):
            dd = [[g[i][j][2][a][b] for j in range(k)] for i in range(k)]
            inner = _mul(_mul(d[a], G0), d[b])
            inner2 = _mul(_mul(d[b], G0), d[a])
            mid = [[inner[i][j] + inner2[i][j] - dd[i][j] for j in range(k)] for i in range(k)]
            hG[a][b] = hG[b][a] = _mul(_mul(G0, mid), G0)
    return [
        [
            (G0[i][j], [dG[a][i][j] for a in range(n)], [[hG[a][b][i][j] for b in range(n)] for a in range(n)])
            for j in range(k)
        ]
        for i in range(k)
    ]


def _jet_mul(x: Jet, y: Jet, n: int) -> Jet:
    (a, ga, ha), (b, gb, hb) = x, y
    return (
        a * b,
        [ga[i] * b + a * gb[i] for i in range(n)],
        [[ha[i][j] * b + ga[i] * gb[j] + ga[j] * gb[i] + a * hb[i][j] for j in range(n)] for i in range(n)],
    )


def _jet_add(x: Jet, y: Jet, n: int) -> Jet:
    return (
        x[0] + y[0],
        [x[1][i] + y[1][i] for i in range(n)],
        [[x[2][i][j] + y[2][i][j] for j in range(n)] for i in range(n)],
    )


class _Jets:
    """2-jets in q at points of ``alg`` of a list of field elements (their first derivatives formed once)."""

    def __init__(self, alg: _RationalAlgebra, fs: list[Any], n: int) -> None:
        self.alg, self.fs, self.n = alg, fs, n
        self._d: list[list[Any]] | None = None

    def at(self, point: list[tuple[Any, Any]]) -> list[Jet] | None:
        alg, n = self.alg, self.n
        if self._d is None:
            units = [[alg.el(1 if k == l else 0) for k in range(n)] for l in range(n)]
            self._d = []
            for f in self.fs:
                checkpoint()
                self._d.append([alg.apply(units[l], f) for l in range(n)])
        out = []
        for f, ds in zip(self.fs, self._d, strict=True):
            checkpoint()
            j0 = alg.qjet(f, point)
            j1 = [alg.qjet(d, point) for d in ds]
            if j0 is None or None in j1:
                return None
            out.append((j0[0], j0[1], [j[1] for j in j1]))  # type: ignore[index]
        return out


def pointwise_measure(nh: NonholonomicSystem, extra: Sequence[sp.Expr] = ()) -> PointwiseMeasure | str:
    """Decide at generic points what the data of the nonholonomic field prove about a basic density.

    ``extra``: expressions the field of the points must also hold (a test compares the jets with those of the
    symbolic ``c_α`` there).

    Returns a :class:`PointwiseMeasure` (with an obstruction, or with nothing proved), or a string saying why
    the test does not apply (a Lagrangian not quadratic in the velocities, data outside the drift's field,
    a time-dependent system).
    """
    m = nh.m
    gD = nh.hessian_D()
    if generic_rank(gD) < m and is_zero(canon(gD.det(method="bareiss"))):
        raise RegularityError(
            f"invariant_measure: system: L = {nh.lagrangian.expr} is not regular with respect to D: "
            f"g_αβ = {gD.tolist()} is singular on C (the nonholonomic field does not exist)"
        )
    t = nh.frame.chart.t
    if t is not None and (nh.frame.matrix.has(t) or any(x.has(t) for x in entries(nh.frame.anholonomy))):
        return "the frame depends on time (div Γ and the c_α may depend on t)"
    ring = nh.drift_ring
    if ring is None:
        return "the data are outside the drift's field (or time-dependent)"
    if ring.v_inside:
        return "a generator of the data other than v^α involves a velocity"
    n = nh.n
    F = nh.frame
    q = F.chart.q
    R = F.anholonomy
    div0 = [sp.Add(*[derivative(F.matrix[al, j], q[j]) for j in range(n)]) for al in range(m)]
    try:
        ring = ring.extended([*entries(R), *div0, *extra])
    except BudgetExceededError:
        raise
    except (UnsupportedExpression, ValueError):
        return "the object of anholonomy is outside the drift's field"
    alg = ring.alg
    vg = [f.num for f in ring.v]
    if any(len(x) != 1 or not f.den.is_ground for x, f in zip(vg, ring.v, strict=True)):
        return "the quasi-velocities are not generators of the drift's field"  # pragma: no cover - by construction

    def v_free(p: Any) -> bool:
        return not any(p.diff(x) for x in vg)

    zero = PolyFraction(alg.ctx.ring.zero, alg.ctx.ring.one)
    g = []
    for al in range(m):
        p = ring.p[al]
        if not v_free(p.den):
            return "the momenta have denominators that depend on v (L is not quadratic in the velocities)"
        row = [PolyFraction(p.num.diff(vg[be]), p.den) for be in range(m)]
        if not all(v_free(x.num) for x in row):
            return "g_αβ depends on v (L is not quadratic in the velocities)"
        g.append(row)
    # r_γ = Σ num/den over its parts: ∂²r_γ/∂v^α∂v^β (the part linear in v has a zero trace with G, see above)
    quad: list[list[list[Any]]] = [[[zero for _ in range(m)] for _ in range(m)] for _ in range(m)]
    for ga in range(m):
        for den, num in ring.parts(ga).items():
            checkpoint()
            if not v_free(den):
                return "the drift has denominators that depend on v"
            for be in range(m):
                d1 = num.diff(vg[be])
                for al in range(be, m):
                    d2 = d1.diff(vg[al])
                    if not v_free(d2):
                        return "the drift is not quadratic in v (L is not quadratic in the velocities)"
                    quad[ga][al][be] = quad[ga][al][be] + PolyFraction(d2, den)
                    quad[ga][be][al] = quad[ga][al][be]
    flat_g = [x for row in g for x in row]
    pairs = [(ga, al, be) for ga in range(m) for al in range(m) for be in range(al, m)]
    flat_q = [quad[ga][al][be] for ga, al, be in pairs]
    pos = {key: k for k, key in enumerate(pairs)} | {(ga, be, al): k for k, (ga, al, be) in enumerate(pairs)}
    gj = _Jets(alg, flat_g, n)
    qj = _Jets(alg, flat_q, n)
    dj = _Jets(alg, [alg.el(x) for x in div0], n)
    cache: dict[tuple[Any, ...], Any] = {}

    def c_jets(point: list[tuple[Any, Any]]) -> tuple[list[Any], list[list[Any]]] | None:
        key = tuple(x for _, x in point)
        if key not in cache:
            cache[key] = _c_jets(point)
        return cache[key]  # type: ignore[no-any-return]

    def _c_jets(point: list[tuple[Any, Any]]) -> tuple[list[Any], list[list[Any]]] | None:
        gs, qs, ds = gj.at(point), qj.at(point), dj.at(point)
        if gs is None or qs is None or ds is None:
            return None
        G = _inverse_jet([gs[i * m : (i + 1) * m] for i in range(m)], n)
        if G is None:
            return None
        cj, ch = [], []
        for al in range(m):
            acc = ds[al]
            for be in range(m):
                for ga in range(m):
                    acc = _jet_add(acc, _jet_mul(G[be][ga], qs[pos[ga, al, be]], n), n)
            cj.append((acc[0], acc[1]))
            ch.append([(acc[1][l], acc[2][l]) for l in range(n)])
        return cj, ch

    out = PointwiseMeasure(alg, c_jets)
    if m >= 2:
        out.free = _transverse_coefficients(lambda k, i, j: alg.el(R[k, i, j]), m, n, alg)[2]
    out.flag = _flag_from_jets(nh, R, alg, c_jets)
    return out


def analyse_pointwise(nh: NonholonomicSystem, out: dict[str, Any]) -> None:
    """Fill ``out`` (the fields of :class:`~frames.dynamics._measure.InvariantMeasure`) from the tests at generic
    points: the field is not formed, so only an obstruction can be proved (or, for m = 1, local existence)."""
    with step("invariant_measure: at generic points"):
        res = pointwise_measure(nh)
    not_formed = "the nonholonomic field is not formed (pointwise=True)"
    if isinstance(res, str):
        out.update(exists=None, reason=f"undecided: {not_formed}, and the test at generic points does not apply: {res}")
        return
    flag = res.flag
    if flag is not None and (flag.conds or flag.obs):
        out["witness_point"] = flag.point
        proof = (
            f"evaluated at the generic point {flag.witness} (each sin/cos pair on the unit circle, the other "
            "generators independent: a ring homomorphism, so a nonzero value proves the function nonzero)"
        )
        values = flag.conds or tuple(e for _, e in flag.obs)
        labels = flag.cond_labels or tuple(lab for lab, _ in flag.obs)
        what = (
            "the compatibility equations X_α(w_β) − X_β(w_α) − R^k_αβ w_k = 0 have no solution w_a"
            if flag.conds
            else "the first step of the bracket flag fixes d log N = w_i θ^i and it is not closed"
        )
        out.update(
            exists=False,
            obstruction=tuple(values),
            obstruction_labels=tuple(labels),
            reason=(
                f"{not_formed}; c_α = ∂(div Γ)/∂v^α and its first and second derivatives from the data g, r "
                f"(w_α = −c_α); {what}: the listed values, {proof}, are not zero, so no basic density exists "
                "(Fedorov–García-Naranjo–Marrero 2015)"
            ),
        )
        return
    affine = "(L is quadratic in the velocities: the part of r_α linear in v is skew, dZ(X_α, X_β) v^β)"
    if nh.m == 1:
        out.update(
            exists=True,
            reason=(
                f"{not_formed}; div Γ = c_1(q) v^1 {affine}, and X_1(log N) = −c_1 (one linear first-order equation "
                "along a nonvanishing field) has local solutions: a basic density exists locally; no closed form"
            ),
        )
        return
    why = (
        f"the compatibility equations on D∧D leave {res.free} of the {nh.n - nh.m} transverse components w_a of "
        "d log N free, and the higher steps of the bracket flag are not taken at points"
        if res.free
        else "the compatibility and closedness tests found no obstruction there, and zeros at points prove nothing"
    )
    out.update(
        exists=None,
        reason=(
            f"undecided: {not_formed}; div Γ = c_α(q) v^α {affine}; {why} (invariant_measure(nh) forms the field "
            "and tries the exact ansatz for log N)"
        ),
    )
