r"""A basis of ``D = ker A`` whose adapted frame is regular wherever the constraints are.

The default frame of linear constraints ``A u = 0`` (``k`` rows, ``n`` velocities, ``m = n − k``) is
``F = [X_D; A]``: a basis ``X_D`` of D, then the constraint rows. The rows of ``X_D`` are Euclidean-orthogonal to
those of ``A``, so ``det(F)² = det(X_D X_Dᵀ) · det(A Aᵀ)``: ``F`` is regular wherever ``A`` has full rank iff the
Gram determinant of ``X_D`` vanishes nowhere else. A null space basis (pivots chosen generically) can fail
this although D is regular (a trailer hitched behind the car's axle: rank 1 on every straight configuration).

The candidates, tried in this order:

* the null space basis (kept when it is proved regular: the results of existing systems stay as they were);
* for each choice ``S`` of ``k`` dependent columns whose minor ``M_S`` is not identically zero, the Cramer basis
  ``X_β = M_S e_β − Σ_{s∈S} det(A_S with column s replaced by A_β) e_s`` (``β`` the free columns), each field
  divided by the gcd of its components (polynomials in the generators of
  :class:`~frames.algebra.RationalFunctions`) and reduced by ``sin² + cos² = 1``; smallest first.

The test (:func:`_singular_factors`) is exact and sufficient: ``det F`` is divided by the factors of
``det(A Aᵀ)`` (where the rows are dependent); what is left must be free of the coordinates (a factor of the
parameters alone, such as a hitch length ``d``: it only excludes parameter values) or a positive constant plus
even powers with positive coefficients (real parameters). The factors left over are the candidate's singular
set. A Cramer basis whose entries ``M_S / gcd`` on the free columns are all free of the coordinates is proved
without a determinant (its minor there is a nonzero constant). Everything here is polynomial arithmetic in one
ring; the search is capped (:data:`MAX_SUBSETS` column choices, :data:`MAX_TESTS` determinant tests,
:data:`MAX_TERMS` terms per polynomial, :data:`MAX_WORK` term products per elimination step, :data:`MAX_DIM`
coordinates), and a system outside the ring, or too large, keeps the null space basis untested (no warning).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, NamedTuple

import sympy as sp

from ..algebra import RationalFunctions
from ..algebra.internal import UnsupportedExpression, canon, checkpoint, tree_values
from ._frame import coordinate_generators, vanishing_factors
from ._frame import positive_polynomial as _positive
from ._frame import uses_coordinates as _uses

__all__ = ["RegularBasis", "regular_basis"]

#: at most this many choices of dependent columns are tried
MAX_SUBSETS = 60
#: at most this many determinants of candidate frames are computed
MAX_TESTS = 8
#: a polynomial (an entry of an elimination, a determinant) above this many terms stops its candidate's test
MAX_TERMS = 3000
#: an elimination step whose two products would take more term multiplications than this stops its test
MAX_WORK = 250_000
#: above this dimension the determinant test is not attempted (the null space basis is kept)
MAX_DIM = 8
#: the special angles tried for a sample point of a singular set
_ANGLES = (sp.S.Zero, sp.pi / 2, -sp.pi / 2, sp.pi)


class RegularBasis(NamedTuple):
    """The chosen basis of D: its fields' components, and the verdict.

    Attributes
    ----------
    fields : list of list of Expr
        The components of the basis fields.
    regular : bool or None
        True if the frame ``[fields; A]`` is proved regular wherever ``A`` has full rank; False if no candidate
        was proved so (``singular`` names the chosen candidate's singular set); None if not tested (outside
        the ring of the exact test, or beyond its size caps).
    singular : tuple of Expr
        The factors of the frame's determinant that may vanish where the constraints are regular.
    sample : dict or None
        A point (coordinates at special angles) where a factor of ``singular`` vanishes and ``A`` has full rank.
    """

    fields: list[list[sp.Expr]]
    regular: bool | None
    singular: tuple[sp.Expr, ...] = ()
    sample: dict[sp.Symbol, sp.Expr] | None = None


class _Undecided(Exception):
    """A polynomial grew past :data:`MAX_TERMS`: the candidate is not tested."""


def regular_basis(
    rows: sp.MatrixBase, nullspace: list[list[sp.Expr]], q: Sequence[sp.Symbol], params: Sequence[sp.Symbol] = ()
) -> RegularBasis:
    """A basis of ``ker rows`` whose frame ``[basis; rows]`` is regular wherever ``rows`` has full rank.

    Parameters
    ----------
    rows : Matrix
        The ``k × n`` constraint matrix, of full rank ``k`` generically.
    nullspace : list of lists
        The null space basis (components), the fallback and the first candidate.
    q : sequence of Symbol
        The coordinates (a factor free of them is a condition on the parameters, not a singular set on Q).
    params : sequence of Symbol
        The parameters (given generic values when a sample point of the singular set is sought).

    Returns
    -------
    RegularBasis
    """
    k, n = rows.shape
    if n > MAX_DIM:
        return RegularBasis(nullspace, None)
    try:
        ctx = RationalFunctions([*rows, *(c for b in nullspace for c in b)], exp=True)
    except UnsupportedExpression:
        return RegularBasis(nullspace, None)
    coord = coordinate_generators(ctx, q)
    try:
        A = [_cleared_row(ctx, list(rows.row(a))) for a in range(k)]
        old = [_cleared_row(ctx, b) for b in nullspace]
        gram = [[_dot(A[a], A[b]) for b in range(k)] for a in range(k)]
        P = ctx.reduce(_det(ctx, gram))
        if not P:
            return RegularBasis(nullspace, None)
        p_factors = [f for f, _ in ctx.factor_list(P)[1] if _uses(f, coord)]
    except _Undecided:
        return RegularBasis(nullspace, None)
    tests = 0

    def bad_factors(X: list[list[Any]]) -> list[Any] | None:
        nonlocal tests
        tests += 1
        try:
            return _singular_factors(ctx, _det(ctx, X + A), p_factors, coord)
        except _Undecided:
            return None

    first = bad_factors(old)
    if first == []:
        return RegularBasis(nullspace, True)
    candidates = sorted(_cramer_bases(ctx, A, n, k, coord), key=lambda c: (c[0], c[1]))
    for _size, _S, X, diagonal_free in candidates:
        checkpoint()
        if diagonal_free:  # an m × m minor of X_D is a nonzero function of the parameters alone
            return RegularBasis(_exprs(ctx, X), True)
        if tests >= MAX_TESTS:
            break
        if bad_factors(X) == []:
            return RegularBasis(_exprs(ctx, X), True)
    if first is None:
        return RegularBasis(nullspace, None)
    singular = tuple(canon(ctx.to_expr(f)) for f in first)
    return RegularBasis(nullspace, False, singular, _sample_point(singular, ctx.to_expr(P), q, params))


def _cleared_row(ctx: RationalFunctions, row: Sequence[sp.Expr]) -> list[Any]:
    """The entries of ``row`` as polynomials: the row times the lcm of its denominators (the same kernel)."""
    fr = [ctx.normal(ctx.from_expr(e)) for e in row]
    den = ctx.ring.one
    for f in fr:
        den = ctx.lcm(den, f.denom)
    return [ctx.reduce(RationalFunctions.quotient(den, f.denom) * f.numer) for f in fr]


def _dot(a: list[Any], b: list[Any]) -> Any:
    out = a[0] * b[0]
    for x, y in zip(a[1:], b[1:], strict=True):
        if x and y:
            out += x * y
    return out


def _det(ctx: RationalFunctions, M: list[list[Any]], reduced: bool = True) -> Any:
    """Determinant of a square matrix of polynomials: Bareiss' fraction-free elimination (exact divisions in the
    polynomial ring, no reduction by ``sin² + cos² = 1`` until the end, and none with ``reduced=False``)."""
    R = ctx.ring
    n = len(M)
    if n == 0:
        return R.one
    a = [list(r) for r in M]
    sign = 1
    prev = R.one
    for i in range(n - 1):
        checkpoint()
        piv = next((r for r in range(i, n) if a[r][i]), None)
        if piv is None:
            return R.zero
        if piv != i:
            a[i], a[piv] = a[piv], a[i]
            sign = -sign
        for r in range(i + 1, n):
            for c in range(i + 1, n):
                if len(a[r][c]) * len(a[i][i]) + len(a[r][i]) * len(a[i][c]) > MAX_WORK:
                    raise _Undecided
                x = a[r][c] * a[i][i] - a[r][i] * a[i][c]
                x = RationalFunctions.quotient(x, prev) if x and prev != R.one else x
                if len(x) > MAX_TERMS:
                    raise _Undecided
                a[r][c] = x
        prev = a[i][i]
    d = a[n - 1][n - 1] if sign > 0 else -a[n - 1][n - 1]
    return ctx.reduce(d) if reduced else d


def _singular_factors(ctx: RationalFunctions, det: Any, p_factors: list[Any], coord: frozenset[int]) -> list[Any]:
    """The factors of ``det`` (reduced) that are not proved nonzero where the factors ``p_factors`` of
    ``det(A Aᵀ)`` are: an empty list proves the frame regular wherever ``A`` has full rank.

    Sound: each division is exact in the polynomial ring, so ``det = Π p_factors^e · rest`` as functions, and a
    zero of ``det`` outside the zeros of ``det(A Aᵀ)`` is a zero of a factor of ``rest``.
    """
    rest = ctx.reduce(det)
    if not rest:
        raise _Undecided  # pragma: no cover - the rows and a basis of their kernel are independent
    for f in p_factors:
        while _uses(rest, coord):
            checkpoint()
            qt, r = rest.div(f)
            if r:
                break
            rest = ctx.reduce(qt)
    if not _uses(rest, coord) or _positive(rest):
        return []
    if len(rest) > MAX_TERMS:
        raise _Undecided
    return vanishing_factors(ctx, rest, coord)


def _cramer_bases(
    ctx: RationalFunctions, A: list[list[Any]], n: int, k: int, coord: frozenset[int]
) -> list[tuple[int, int, list[list[Any]], bool]]:
    """``(size, order, fields, proved)`` for each Cramer basis: ``proved`` when every free column's entry
    ``M_S / gcd`` is free of the coordinates (the fields' minor on the free columns is then a nonzero constant)."""
    out = []
    for order, S in enumerate(itertools.islice(itertools.combinations(range(n), k), MAX_SUBSETS)):
        checkpoint()
        AS = [[A[a][s] for s in S] for a in range(k)]
        try:
            M = _det(ctx, AS, reduced=False)
        except _Undecided:
            continue
        if not ctx.reduce(M):
            continue
        fields = []
        proved = True
        for beta in (j for j in range(n) if j not in S):
            comps = [ctx.ring.zero] * n
            comps[beta] = M
            try:
                for t, s in enumerate(S):
                    Ms = [[A[a][beta] if c == t else AS[a][c] for c in range(k)] for a in range(k)]
                    comps[s] = -_det(ctx, Ms, reduced=False)  # common factors are seen before the reduction
            except _Undecided:
                break
            comps = _primitive(ctx, comps)
            proved = proved and not _uses(comps[beta], coord)
            fields.append(comps)
        else:
            size = sum(len(c) for X in fields for c in X)
            out.append((size, order, fields, proved))
    return out


def _primitive(ctx: RationalFunctions, comps: list[Any]) -> list[Any]:
    """The field divided by the gcd of its components (before and after ``sin² + cos² = 1``), with integer
    coefficients of content 1."""
    for _ in range(2):
        g = None
        for c in comps:
            if c:
                g = c if g is None else g.gcd(c)
        if g is not None and not g.is_ground:
            comps = [RationalFunctions.quotient(c, g) if c else c for c in comps]
        comps = [ctx.reduce(c) for c in comps]
    den = 1
    for c in comps:
        for x in c.coeffs() if c else ():
            den = sp.ilcm(den, sp.Rational(x).q)
    comps = [c * den for c in comps]
    cont = 0
    for c in comps:
        for x in c.coeffs() if c else ():
            cont = sp.igcd(cont, int(sp.Rational(x).p))
    return [c.quo_ground(cont) if cont > 1 else c for c in comps]


def _exprs(ctx: RationalFunctions, X: list[list[Any]]) -> list[list[sp.Expr]]:
    return [[canon(ctx.to_expr(c)) for c in comps] for comps in X]


def _sample_point(
    singular: tuple[sp.Expr, ...], P: sp.Expr, q: Sequence[sp.Symbol], params: Sequence[sp.Symbol]
) -> dict[sp.Symbol, sp.Expr] | None:
    """A point with the coordinates at the special angles 0, ±π/2, π (those not inside a sine or cosine at 0 or 1)
    and the parameters at generic values where a factor of ``singular`` vanishes and ``P = det(A Aᵀ)`` does not."""
    angles = {a for arg in _trig_args(singular) for a in arg.free_symbols}
    choices = [_ANGLES if x in angles else (sp.S.Zero, sp.S.One) for x in q]
    fixed = {p: sp.Rational(k + 2, k + 3) for k, p in enumerate(params)}
    for vals in itertools.islice(itertools.product(*choices), 1024):
        checkpoint()
        pt = fixed | dict(zip(q, vals, strict=True))
        if any(_vanishes(f, pt) for f in singular) and not _vanishes(P, pt):
            return {x: pt[x] for x in q}
    return None


#: a value at a point above this (to 40 digits) is not zero; below it the exact value decides
_CLEARLY_NONZERO = 1e-15


def _vanishes(f: sp.Expr, pt: dict[sp.Symbol, sp.Expr]) -> bool:
    """Whether ``f`` is zero at the exact point ``pt``: its value to 40 digits when that is far from zero (each
    shared node evaluated once), else the expanded exact value."""
    try:
        (val,) = tree_values([f], pt)
        if abs(val) > _CLEARLY_NONZERO:
            return False
    except ValueError:  # a pole or a node that does not evaluate: the exact value decides
        pass
    return bool(sp.expand(f.xreplace(pt)) == 0)


def _trig_args(exprs: Sequence[sp.Expr]) -> list[sp.Expr]:
    return [a.args[0] for e in exprs for a in e.atoms(sp.sin, sp.cos)]
