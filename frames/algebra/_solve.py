r"""The one family of exact linear solves.

Every linear system of the library goes through this module:

* :func:`exact_solve` ``(G, b) -> (x, det G)`` — the engine: elimination in
  :class:`~frames.algebra.RationalFunctions` (constant pivots first, fraction-free
  otherwise), with an expression-level Gauss–Jordan fallback;
* :func:`exact_inverse` — ``exact_solve(M, I)``; :func:`tidy_inverse` tidies the entries;
* :func:`solve_linear` — ``exact_solve`` raising :class:`~frames.RegularityError` that
  names the singular matrix (Hessians, Schur complements); :func:`solve_affine` — the same for a
  right-hand side affine in some symbols (multipliers), one elimination without them;
* :func:`solve_rational` — the same over sympy's sparse rational-function domain, for
  systems with many transcendental atoms (transformation rules);
* :func:`solve_linear_general` — the general solution of an under- or over-determined
  system: free unknowns, existence conditions, pivots (the Cartan-form method);
* :func:`solve_exact`, :func:`linsolve_frozen` — the independent solvers used by the
  cross-checks against ``sympy.physics.mechanics`` and the MVM's ansatz search.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import sympy as sp
from sympy.polys.matrices import DomainMatrix
from sympy.polys.matrices.exceptions import DMNonInvertibleMatrixError

from ..errors import InvalidExpressionError, RegularityError
from ._budget import checkpoint
from ._field import RationalFunctions, UnsupportedExpression
from ._flint import flint_product
from ._normal import canon, generic_form, is_large_tidy_form, is_zero, tidy

__all__ = [
    "cramer_size_bound",
    "exact_inverse",
    "exact_solve",
    "linsolve_frozen",
    "solve_affine",
    "solve_exact",
    "solve_linear",
    "solve_linear_general",
    "solve_rational",
    "tidy_affine",
    "tidy_inverse",
]


def tidy_affine(M: Any, x: Sequence[Any], b: Sequence[Any]) -> list[sp.Expr]:
    r"""``tidy(Σ_j M_ij x_j + b_i)`` for every row, computed in one polynomial ring.

    Each entry is converted to the ring once; terms over the same denominator (the ``x_j`` of one
    linear solve share theirs) are added as numerators, and each row is reduced modulo
    ``sin² + cos² − 1`` and cancelled once, then written back (:meth:`RationalFunctions.normal_expr`).
    Outside the ring (radicals, floats) the expression-level :func:`tidy` of the sum is returned.
    """
    M = sp.Matrix(M)
    x = list(x)
    b = list(b)
    try:
        ctx = RationalFunctions([*M, *x, *b], exp=True)
    except UnsupportedExpression:
        return [tidy(sp.Add(*[M[i, j] * x[j] for j in range(len(x))], b[i])) for i in range(M.rows)]
    X = [ctx.from_expr(e) for e in x]
    zero = ctx.ring.zero
    out = []
    for i in range(M.rows):
        checkpoint()
        parts: dict[Any, Any] = {}
        for j, xj in enumerate(X):
            if M[i, j] == 0 or not xj.numer:
                continue
            c = ctx.from_expr(M[i, j])
            den = c.denom * xj.denom
            parts[den] = parts.get(den, zero) + flint_product(c.numer, xj.numer)
        if b[i] != 0:
            f = ctx.from_expr(b[i])
            parts[f.denom] = parts.get(f.denom, zero) + f.numer
        e = ctx.normal_sum_expr(parts)
        if e == 0:
            out.append(sp.S.Zero)
            continue
        # a large normal form is final (tidy returns it unchanged); a small one gets tidy's exact form
        out.append(e if is_large_tidy_form(e) else tidy(e))
    return out


def exact_inverse(M: sp.MatrixBase) -> sp.ImmutableMatrix:
    """Inverse by Gauss–Jordan elimination with :func:`canon` after every step.

    Pivots are chosen among entries that are not identically zero, preferring
    the one with the fewest operations (numbers first), which keeps frames with
    unit or constant pivots polynomial and small. Raises ``ZeroDivisionError``
    if the matrix is singular.
    """
    A = sp.Matrix(M)
    if A.cols != A.rows:
        raise InvalidExpressionError(f"exact_inverse: M: matrix is {A.rows}x{A.cols}, not square")
    return exact_solve(A, sp.eye(A.rows))[0]


def exact_solve(G: sp.MatrixBase, b: sp.MatrixBase) -> tuple[sp.ImmutableMatrix, sp.Expr]:
    """Solve ``G x = b`` exactly; return ``(x, det G)``.

    When every entry is a rational function of symbols, undefined functions
    (``B0(t)``, their derivatives) and ``sin``/``cos`` (the usual case), the
    system is solved in that field (:meth:`RationalFunctions.solve`): by
    Gauss–Jordan elimination while every column has a constant pivot (frames),
    otherwise fraction-free over the polynomial ring
    (``sympy.polys.matrices.DomainMatrix``), the numerators and the determinant
    reduced modulo ``sin² + cos² − 1`` before one cancellation per entry. Otherwise it falls
    back to Gauss–Jordan elimination on expressions with :func:`canon` after
    every step. Raises ``ZeroDivisionError`` when ``G`` is singular (its
    determinant vanishes identically, the Pythagorean identity included).

    Examples
    --------
    >>> import sympy as sp
    >>> th = sp.Symbol("theta")
    >>> G = sp.Matrix([[sp.cos(th), -sp.sin(th)], [sp.sin(th), sp.cos(th)]])
    >>> x, det = exact_solve(G, sp.Matrix([1, 0]))
    >>> list(x), det
    ([cos(theta), -sin(theta)], 1)
    """
    A = sp.Matrix(G)
    B = sp.Matrix(b)
    if A.rows != A.cols or B.rows != A.rows:
        raise InvalidExpressionError(f"exact_solve: G, b: shapes {A.shape} and {B.shape} do not match")
    try:
        ctx = RationalFunctions(list(A) + list(B), exp=True)
    except UnsupportedExpression:
        return _solve_outside(A, B)
    return ctx.solve(A, B)


def _solve_outside(A: sp.Matrix, B: sp.Matrix) -> tuple[sp.ImmutableMatrix, sp.Expr]:
    """:func:`exact_solve` for entries outside :class:`RationalFunctions` (radicals, ``log`` …).

    Each sub-expression the ring cannot represent becomes an independent generator (as in :func:`canon`) and
    the system is solved in the ring. A solution of the generic system is a solution of the given one where
    its determinant does not vanish; that determinant, with the sub-expressions put back (``√P² = P`` may make
    it vanish), is decided by :func:`is_zero`. Floats and the like, which the ring cannot take even so, go to
    Gauss–Jordan elimination on expressions.
    """
    memo: dict[sp.Expr, sp.Expr] = {}
    gA, gB = A.applyfunc(lambda e: generic_form(e, memo)), B.applyfunc(lambda e: generic_form(e, memo))
    try:
        ctx = RationalFunctions(list(gA) + list(gB), exp=True)
    except UnsupportedExpression:
        return _gauss_jordan(A, B)
    x, det = ctx.solve(gA, gB)
    back = {d: sub for sub, d in memo.items()}
    det = det.xreplace(back)
    if is_zero(det):
        raise ZeroDivisionError(f"exact_solve: singular matrix (its determinant {det} vanishes)")
    return x.xreplace(back), det


def _gauss_jordan(A: sp.Matrix, B: sp.Matrix) -> tuple[sp.ImmutableMatrix, sp.Expr]:
    """Gauss–Jordan elimination on sympy expressions, :func:`canon` after every step.

    The fallback of :func:`exact_solve` for entries outside :class:`RationalFunctions`
    (floats, radicals, ``exp`` …); pivots are decided by :func:`is_zero`.
    """
    n = A.rows
    aug = A.row_join(B).tolist()
    det: sp.Expr = sp.S.One
    for c in range(n):
        checkpoint()
        cands = [(sp.count_ops(aug[r][c]), r) for r in range(c, n) if aug[r][c] != 0 and not is_zero(aug[r][c])]
        if not cands:
            raise ZeroDivisionError(f"exact_solve: singular matrix (no pivot in column {c + 1})")
        _, r = min(cands)
        if r != c:
            aug[c], aug[r] = aug[r], aug[c]
            det = -det
        piv = aug[c][c]
        det = canon(det * piv)
        if piv != 1:
            aug[c] = [canon(x / piv) if x != 0 else x for x in aug[c]]
        for r2 in range(n):
            f = aug[r2][c]
            if r2 == c or f == 0:
                continue
            row_c = aug[c]
            aug[r2] = [canon(x - f * y) if y != 0 else x for x, y in zip(aug[r2], row_c, strict=True)]
    return sp.ImmutableMatrix([row[n:] for row in aug]), det


def solve_linear(G: sp.MatrixBase, b: sp.MatrixBase, what: str) -> sp.ImmutableMatrix:
    """Solve ``G x = b`` exactly, raising :class:`RegularityError` if ``G`` is singular.

    Gauss–Jordan elimination with the canonical form after every step
    (:func:`frames.algebra.exact_solve`), which avoids the expression swell
    of a plain LU solve on symbolic matrices.
    """
    G = sp.Matrix(G)
    if G.shape[0] == 0:
        return sp.ImmutableMatrix(0, 1, [])
    try:
        x, _ = exact_solve(G, b)
    except ZeroDivisionError:
        rank = G.rank(iszerofunc=is_zero)
        raise RegularityError(f"{what}: the matrix {G.tolist()} is singular (rank {rank} < {G.shape[0]})") from None
    return x


def solve_affine(G: sp.MatrixBase, b: sp.MatrixBase, symbols: Sequence[sp.Symbol], what: str) -> list[sp.Expr]:
    r"""``tidy`` of the solution of ``G x = b`` when ``b = b_0 + Σ_k c_k b_k`` is affine in the ``symbols``
    ``c_k`` and ``G`` does not involve them (a single column ``b``).

    ``x = x_0 + Σ_k c_k x_k`` with ``G [x_0 | x_1 …] = [b_0 | b_1 …]``: one elimination over the ring
    without the ``c_k`` (fewer generators, smaller intermediate polynomials), the columns combined in
    the ring at the end (:func:`tidy_affine`). The result is the same as ``tidy`` of
    ``solve_linear(G, b, what)``, which is used when ``b`` is not affine in the symbols.

    Raises
    ------
    RegularityError
        If ``G`` is singular; the message names ``what``.
    """
    B = sp.Matrix(b)
    G = sp.Matrix(G)
    used = set().union(*(x.free_symbols for x in B)) if B else set()
    cs = [c for c in symbols if c in used]
    if B.cols != 1 or not cs or any(c in x.free_symbols for x in G for c in cs):
        return [tidy(x) for x in solve_linear(G, B, what)]
    cols = [B.xreplace(dict.fromkeys(cs, 0))] + [B.diff(c) for c in cs]
    if any(c in x.free_symbols for col in cols[1:] for x in col for c in cs):  # not affine in the symbols
        return [tidy(x) for x in solve_linear(G, B, what)]
    X = solve_linear(G, sp.Matrix.hstack(*cols), what)
    row = sp.Matrix([cs])
    return [tidy_affine(row, list(X[j, 1:]), [X[j, 0]])[0] for j in range(G.rows)]


def solve_rational(M: sp.MatrixBase, b: sp.MatrixBase, what: str) -> sp.ImmutableMatrix:
    r"""Solve ``M x = b`` exactly over the field of rational functions.

    In :class:`RationalFunctions` (``exp=True``) when the entries allow it: ``sin``/``cos``
    pairs reduced modulo ``s² + c² − 1``, exponentials as powers of one generator per
    exponent, elimination by constant pivots or fraction-free (``solve_den`` over the
    polynomial ring) and one cancellation per entry at the end. Otherwise the remaining
    transcendental atoms become polynomial generators of sympy's domain and the system is
    solved fraction-free there (:func:`_domain_solve`). Results are in canonical (cancelled) form.

    Raises
    ------
    RegularityError
        If ``M`` is singular; the message names ``what``.
    """
    M = sp.Matrix(M)
    b = sp.Matrix(b)
    if M.rows == 0:
        return sp.ImmutableMatrix(0, b.cols, [])
    try:
        ctx = RationalFunctions(list(M) + list(b), exp=True)
    except UnsupportedExpression:
        return sp.ImmutableMatrix(_domain_solve(M, b, what))
    try:
        return ctx.solve(M, b)[0]
    except ZeroDivisionError:
        raise RegularityError(
            f"{what}: the matrix {M.tolist()} is singular (rank {M.rank(iszerofunc=is_zero)} < {M.rows})"
        ) from None


def solve_linear_general(
    A: sp.MatrixBase,
    b: sp.MatrixBase,
    unknowns: Sequence[sp.Symbol],
    simp: Any = canon,
    groups: Sequence[int] | None = None,
) -> tuple[dict[sp.Symbol, sp.Expr], tuple[sp.Symbol, ...], tuple[sp.Expr, ...], tuple[sp.Expr, ...]]:
    r"""General solution of ``A x = b`` over the field of functions (exact Gauss–Jordan).

    Rows are reduced in the order given. In each row the pivot is taken from the
    first column group (``groups[c]``, default all 0) with an entry that does not
    vanish identically, a constant entry if there is one, else the leftmost (for a
    positive definite Hessian these are the positive Schur-complement diagonals); so unknowns in later
    groups are the ones left free.

    Returns
    -------
    solution : dict
        Every unknown → its value in terms of the free unknowns.
    free : tuple of Symbol
        The unknowns left free (the parameters of the general solution).
    conditions : tuple of expressions
        Functions that must vanish for a solution to exist (rows ``0 = c``).
    pivots : tuple of expressions
        The non-constant pivots divided by; the solution holds where they do not vanish.

    ``simp`` normalises every entry after each row operation (default
    :func:`~frames.algebra.canon`; :func:`~frames.algebra.tidy` keeps
    trigonometric entries small).
    """
    M = sp.Matrix(A).row_join(sp.Matrix(b))
    rows, cols = A.shape
    group = list(groups) if groups is not None else [0] * cols
    if len(unknowns) != cols:
        raise InvalidExpressionError(f"solve_linear_general: {len(unknowns)} unknowns for {cols} columns")
    pivot_of: dict[int, int] = {}
    conditions: list[sp.Expr] = []
    nonconst: list[sp.Expr] = []
    zero_rows: list[int] = []
    for i in range(rows):
        checkpoint()
        cand = [c for c in range(cols) if c not in pivot_of.values() and M[i, c] != 0 and not is_zero(M[i, c])]
        if cand:
            first = min(group[c] for c in cand)
            j: int | None = min((c for c in cand if group[c] == first), key=lambda c: (not M[i, c].is_number, c))
        else:
            j = None
        if j is None:
            zero_rows.append(i)
            continue
        p = M[i, j]
        if not p.is_number:
            nonconst.append(p)
        M[i, :] = (M[i, :] / p).applyfunc(simp)
        for k in range(rows):
            if k != i and M[k, j] != 0:
                f = M[k, j]
                M[k, :] = (M[k, :] - f * M[i, :]).applyfunc(simp)
        pivot_of[i] = j
    for i in zero_rows:
        c = canon(M[i, cols])
        if not is_zero(c):
            conditions.append(c)
    pivot_cols = set(pivot_of.values())
    free = tuple(unknowns[c] for c in range(cols) if c not in pivot_cols)
    sol: dict[sp.Symbol, sp.Expr] = {x: x for x in free}
    for i, j in pivot_of.items():
        val = M[i, cols] - sp.Add(*[M[i, c] * unknowns[c] for c in range(cols) if c not in pivot_cols])
        sol[unknowns[j]] = canon(val)
    return sol, free, tuple(conditions), tuple(nonconst)


def _reduce_conditions(
    conds: Sequence[sp.Expr], variables: Sequence[sp.Symbol]
) -> tuple[tuple[sp.Expr, ...], dict[sp.Symbol, sp.Expr]]:
    """Row-reduce conditions that are affine in ``variables``; solve them for pivot variables.

    Returns the reduced conditions and a substitution (pivot variable → value)
    describing the locus; conditions not affine in the variables are kept as
    they are and give no substitution.
    """
    if not conds:
        return (), {}
    affine = []
    other = []
    for c in conds:
        e = sp.expand(sp.numer(sp.together(c)))
        try:
            poly = sp.Poly(e, *variables)
        except sp.PolynomialError:
            other.append(c)
            continue
        if poly.total_degree() <= 1 and any(poly.degree(x) > 0 for x in variables):
            affine.append(e)
        else:
            other.append(c)
    if not affine:
        return tuple(conds), {}
    A = sp.Matrix([[sp.diff(e, x) for x in variables] for e in affine])
    b = sp.Matrix([-e.xreplace(dict.fromkeys(variables, 0)) for e in affine])
    sol, _free, rest, _piv = solve_linear_general(A, b, list(variables))
    locus = {x: v for x, v in sol.items() if v != x}
    reduced = tuple(canon(x - v) for x, v in locus.items()) + tuple(rest) + tuple(other)
    return reduced, locus


def tidy_inverse(M: sp.MatrixBase) -> sp.Matrix:
    """Exact inverse, entries tidied (diagonal matrices inverted entrywise)."""
    if M.is_diagonal():
        return sp.diag(*[tidy(1 / M[i, i]) for i in range(M.shape[0])])
    return sp.Matrix(exact_inverse(M)).applyfunc(tidy)


def linsolve_frozen(eqs: Sequence[sp.Expr], unknowns: Sequence[sp.Symbol]) -> dict[sp.Symbol, sp.Expr] | None:
    """Solve a linear system exactly, with function atoms (sin, cos, B0(t), …) frozen as symbols."""
    atoms: set[sp.Expr] = set()
    for e in eqs:
        atoms |= {a for a in sp.sympify(e, strict=True).atoms(sp.Function, sp.Derivative)}
    rep = {a: sp.Dummy(f"f{j}") for j, a in enumerate(sorted(atoms, key=sp.default_sort_key, reverse=True))}
    back = {d: a for a, d in rep.items()}
    frozen = [sp.sympify(e, strict=True).subs(rep) for e in eqs]
    Amat, b = sp.linear_eq_to_matrix(frozen, list(unknowns))
    sol = sp.linsolve((Amat, b), list(unknowns))
    if not sol:
        return None
    (vals,) = list(sol)
    return {x: canon(sp.cancel(v).xreplace(back)) for x, v in zip(unknowns, vals, strict=True) if v != x}


def solve_exact(M: sp.MatrixBase, b: sp.MatrixBase) -> sp.Matrix:
    """Solve ``M x = b`` over the field of rational functions (transcendental atoms as generators).

    Faster and smaller than ``LUsolve`` on expressions with ``sin``, ``cos`` or undefined
    functions, which sympy otherwise treats in the slow ``EX`` domain. A square system in the ring of
    :class:`~frames.algebra.RationalFunctions` is solved there (:func:`exact_solve`); others fraction-free
    over sympy's polynomial domain.
    """
    M, b = sp.Matrix(M), sp.Matrix(b)
    if M.rows == M.cols == b.rows:
        try:  # in the ring (FLINT's fraction-free solve when installed, one cancellation per entry)
            return sp.Matrix(exact_solve(M, b)[0])
        except ZeroDivisionError:  # singular: the domain solve names the rank
            pass
    return _domain_solve(M, b, None)


def _domain_solve(M: sp.Matrix, b: sp.Matrix, what: str | None) -> sp.Matrix:
    """Fraction-free solve with transcendental atoms frozen as polynomial generators.

    Each row of ``[M | b]`` is cleared of denominators, the polynomial system is solved by
    ``DomainMatrix.solve_den`` (no gcd during the elimination: the heuristic gcd of sympy's
    fraction field is what made a dense 3-dof system take minutes), and each entry
    ``x_num / x_den`` is cancelled once. A singular ``M`` raises
    :class:`~frames.RegularityError` naming ``what``. Domains other than ZZ, QQ and their
    polynomial rings / fraction fields (floats, ``EX``) get sympy's LU solve.
    """
    aug = M.row_join(b)
    atoms: set[Any] = set()
    for e in aug:
        atoms |= sp.sympify(e, strict=True).atoms(sp.Function, sp.Derivative, sp.Subs)
    dummies = {g: sp.Dummy(f"g{k}") for k, g in enumerate(sorted(atoms, key=sp.default_sort_key))}
    A = DomainMatrix.from_Matrix(aug.xreplace(dummies))
    K = A.domain
    if not (K.is_ZZ or K.is_QQ or K.is_PolynomialRing or K.is_FractionField):  # floats, EX: plain LU
        A = A.to_field()
        A_M, A_b = A[:, : M.cols], A[:, M.cols :]
        if what is not None and A_M.det() == A_M.domain.zero:
            raise RegularityError(f"{what}: the matrix {M.tolist()} is singular (rank {M.rank(iszerofunc=is_zero)})")
        return A_M.lu_solve(A_b).to_Matrix().xreplace({d: g for g, d in dummies.items()})
    # fraction-free: clear each row's denominators, solve over the polynomial ring, cancel once
    R = K.get_ring() if K.is_Field else K
    n = M.cols
    rows = []
    for i in range(A.shape[0]):
        row = [A[i, j].element for j in range(A.shape[1])]
        den = R.one
        for x in row:
            den = R.lcm(den, K.denom(x))
        rows.append([K.numer(x) * R.exquo(den, K.denom(x)) for x in row])
    P = DomainMatrix(rows, A.shape, R)
    P_M, P_b = P[:, :n], P[:, n:]
    checkpoint()
    try:
        xnum, xden = P_M.solve_den(P_b)
    except DMNonInvertibleMatrixError:
        raise RegularityError(
            f"{what or 'solve_exact'}: the matrix {M.tolist()} is singular (rank {M.rank(iszerofunc=is_zero)} < {n})"
        ) from None
    back = {d: g for g, d in dummies.items()}

    def entry(x: Any) -> sp.Expr:
        checkpoint()
        _, num, den = R.cofactors(x, xden)
        lc = den.LC if R.is_PolynomialRing else den
        if (R.dom if R.is_PolynomialRing else R).is_negative(lc):  # sympy's sign: positive leading coefficient
            num, den = -num, -den
        return R.to_sympy(num) / R.to_sympy(den)

    sol = sp.Matrix(n, P_b.shape[1], lambda i, j: entry(xnum[i, j].element))
    return sol.xreplace(back)


def cramer_size_bound(G: sp.MatrixBase, b: Sequence[Any]) -> int:
    r"""A bound on the terms of the numerators of the solution of ``G x = b`` by Cramer's rule, before solving.

    ``x_i = det G_(i) / det G`` with ``b`` in column ``i``. With ``t(e)`` the number of terms of the numerator
    of ``e`` times that of its denominator, a determinant of polynomial entries has at most ``perm(t)`` terms
    before any cancellation (the permanent of the matrix of the ``t``); the result is the largest of these
    permanents over ``i`` (``∏_i Σ_j t_ij`` for ``n > 7``). The terms are counted on the written form, as
    if expanded (sums add, products and powers multiply): for the library's normal forms (an expanded numerator
    over a denominator) that is their number in the ring. A strict bound for polynomial entries, an estimate
    of the same growth with denominators. Cheap: one walk, no conversion, no product.

    Examples
    --------
    >>> import sympy as sp
    >>> x, y = sp.symbols("x y")
    >>> cramer_size_bound(sp.Matrix([[1 + x, y], [0, 1]]), [x + y + 1, 2])  # perm [[3, 1], [1, 1]]
    4
    """
    G = sp.Matrix(G)
    n = G.rows
    sizes = [0 if e == 0 else _terms_of(sp.fraction(e)) for e in [*G, *b]]
    t = [sizes[i * n : (i + 1) * n] for i in range(n)]
    tb = sizes[n * n :]
    return max(
        (_permanent_bound([[*row[:k], tb[i], *row[k + 1 :]] for i, row in enumerate(t)]) for k in range(n)), default=0
    )


def _terms_of(nd: tuple[sp.Expr, sp.Expr]) -> int:
    """Terms of a numerator times terms of its denominator, once expanded (:func:`_expanded_terms`)."""
    return _expanded_terms(nd[0]) * _expanded_terms(nd[1])


def _expanded_terms(e: sp.Expr) -> int:
    """A bound on the terms of ``expand(e)`` without expanding: sums add, products and integer powers multiply."""
    if e.is_Add:
        return sum(_expanded_terms(a) for a in e.args)
    if e.is_Mul:
        return math.prod(_expanded_terms(a) for a in e.args)
    if e.is_Pow and e.exp.is_Integer and e.exp > 0 and e.base.is_Add:
        return _expanded_terms(e.base) ** int(e.exp)
    return 1


def _permanent_bound(t: list[list[int]]) -> int:
    """The permanent of a nonnegative integer matrix (``n ≤ 7``), else the larger ``∏_i Σ_j t_ij``."""
    n = len(t)
    if n > 7:
        return math.prod(sum(row) for row in t)
    return sum(math.prod(t[i][p[i]] for i in range(n)) for p in itertools.permutations(range(n)))
