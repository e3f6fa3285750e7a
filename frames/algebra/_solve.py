r"""The exact linear solver: :func:`solve_linear` and the algorithms it selects.

Every linear system of the library goes through :func:`solve_linear`. Its options select:

* the default — elimination in :class:`~frames.algebra.RationalFunctions` (:func:`_ratfunc_solve`:
  constant pivots first, fraction-free otherwise, one cancellation per entry), sub-expressions outside the
  field as independent generators (:func:`_solve_outside`), floats by Gauss–Jordan on expressions
  (:func:`_gauss_jordan`); ``b`` omitted gives the inverse, ``det=True`` the determinant too;
* ``method="domain"`` — outside the field, sympy's polynomial domain with the atoms frozen as generators,
  fraction-free (:func:`_domain_solve`): systems with many transcendental atoms;
* ``method="tree"`` — elimination on expression trees, no normal forms (:func:`frames.algebra._tree._tree_solve`);
* ``affine_in=`` — a right-hand side affine in some symbols (multipliers): one elimination without them,
  the columns combined in the ring (:func:`tidy_affine`);
* ``unknowns=`` — the general solution of an under- or over-determined system (:mod:`frames.algebra._solve_general`).

:func:`cramer_size_bound` bounds the size of a solution before solving.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Sequence
from typing import Any

import sympy as sp
from sympy.polys.matrices import DomainMatrix

from ..errors import InvalidExpressionError, OptionError, RegularityError
from ._budget import checkpoint
from ._flint import flint_normal, flint_product, flint_solve_den
from ._normal import canon, canon_generator_form, is_large_tidy_form, is_zero, tidy
from ._poly import _Canceller, bareiss, cancel_coprime, lcm, product
from ._ratfunc import RationalFunctions, UnsupportedExpression
from ._solve_general import _general_solution
from ._tree import _tree_solve

__all__ = ["cramer_size_bound", "solve_linear", "tidy_affine"]

#: the algorithms :func:`solve_linear` selects by ``method``
METHODS = ("rational", "domain", "tree", "sympy")


def solve_linear(
    A: Any,
    b: Any = None,
    *,
    what: str | None = None,
    method: str = "rational",
    det: bool = False,
    tidy: bool = False,
    affine_in: Sequence[sp.Symbol] = (),
    unknowns: Sequence[sp.Symbol] | None = None,
    groups: Sequence[int] | None = None,
    pivots: str = "largest",
) -> Any:
    r"""Solve ``A x = b`` exactly: the library's one linear solver.

    Parameters
    ----------
    A : Matrix
        The matrix of the system: square, unless ``unknowns`` is given.
    b : Matrix, optional
        The right-hand side (one or more columns). Omitted: the identity, so the result is ``A⁻¹``.
    what : str, optional
        Names the system in the error raised when ``A`` is singular (the message then also gives
        ``A`` and its rank, which costs a rank computation).
    method : {"rational", "domain", "tree", "sympy"}, default "rational"
        ``"rational"``: elimination in :class:`~frames.algebra.RationalFunctions` (the field
        ``QQ(x, sin a, cos a, exp r, f(t), …)`` modulo ``sin² + cos² − 1``): Gauss–Jordan while every
        column has a constant pivot (frames), otherwise fraction-free over the polynomial ring, numerators
        and determinant reduced before one cancellation per entry. Sub-expressions outside the field
        (radicals, ``log``) are independent generators, the determinant then decided by
        :func:`~frames.algebra.is_zero` with them put back; floats go to Gauss–Jordan on expressions with
        :func:`~frames.algebra.canon` after every step.
        ``"domain"``: the field when every entry is in it, otherwise sympy's polynomial domain with the
        transcendental atoms frozen as generators, fraction-free (Bareiss elimination, checkpointed), one
        cancellation per entry (systems with many atoms outside the field, transformation rules).
        ``"tree"``: elimination on the expression trees without normal forms (the fast path): the pivots
        are chosen at a rational point where each is far from zero, so each is a nonzero function; the
        result is exact but not canonical, and ``None`` when no point shows every pivot far from zero
        (``A`` may be singular: decide by another method).
        ``"sympy"`` (with ``unknowns``): :func:`sympy.linsolve` with the function atoms frozen as symbols,
        an independent solver for cross-checks.
    pivots : {"largest", "simplest"}, default "largest"
        With ``method="tree"``: the pivot of each column is the entry largest at the point (``"largest"``), or
        the smallest tree among those far from zero there (``"simplest"``: constants first, as
        :meth:`sympy.Matrix.LUsolve` eliminates through entries it knows nonzero).
    det : bool, default False
        Also return ``det A``: the result is ``(x, det A)`` (methods ``"rational"`` only).
    tidy : bool, default False
        :func:`~frames.algebra.tidy` the entries of the solution (a diagonal ``A`` without ``b`` is inverted
        entrywise). With ``unknowns``: ``tidy`` after every row operation instead of ``canon``.
    affine_in : sequence of Symbol, optional
        Symbols ``c_k`` in which ``b = b_0 + Σ_k c_k b_k`` is affine and that ``A`` does not involve (a
        single column ``b``): one elimination of ``[b_0 | b_1 …]`` without them, the columns combined in the
        ring at the end (:func:`tidy_affine`). The entries are tidied (as ``tidy=True``); when ``b`` is not
        affine in them the plain solve is tidied, with the same result.
    unknowns : sequence of Symbol, optional
        The unknowns, one per column of ``A``: the general solution of an under- or over-determined system
        by Gauss–Jordan elimination, rows in the order given; in each row the pivot is taken from the first
        column group (``groups``) with an entry that does not vanish identically, a constant one if
        possible, else the leftmost, so unknowns in later groups are the ones left free.
    groups : sequence of int, optional
        With ``unknowns``: the group of each column (default all 0).

    Returns
    -------
    Matrix or tuple or None
        ``x`` (an ``ImmutableMatrix``, ``A⁻¹`` without ``b``); ``(x, det A)`` with ``det=True``;
        ``None`` when ``method="tree"`` finds no point proving the pivots. With ``unknowns``, the tuple
        ``(solution, free, conditions, pivots)``: every unknown → its value in terms of the free unknowns
        (a free unknown maps to itself), the free unknowns, the functions that must vanish for a solution to
        exist (rows ``0 = c``; an inconsistent system under ``"sympy"`` gives the condition ``1``), and the
        non-constant pivots divided by (the solution holds where they do not vanish; ``()`` under ``"sympy"``).

    Raises
    ------
    RegularityError
        If ``A`` is singular (its determinant vanishes identically, the Pythagorean identity included); the
        message names ``what``.
    InvalidExpressionError
        If the shapes of ``A`` and ``b`` do not match, or ``A`` is not square (without ``unknowns``).
    OptionError
        For an unknown ``method`` or options that do not go together.

    Examples
    --------
    >>> import sympy as sp
    >>> th = sp.Symbol("theta")
    >>> G = sp.Matrix([[sp.cos(th), -sp.sin(th)], [sp.sin(th), sp.cos(th)]])
    >>> x, det = solve_linear(G, sp.Matrix([1, 0]), det=True)
    >>> list(x), det
    ([cos(theta), -sin(theta)], 1)
    >>> solve_linear(sp.Matrix([[2, 0], [0, th]]), tidy=True)
    Matrix([
    [1/2,       0],
    [  0, 1/theta]])
    >>> x, y = sp.symbols("x y")
    >>> solve_linear(sp.Matrix([[1, 1]]), sp.Matrix([th]), unknowns=[x, y])
    ({y: y, x: theta - y}, (y,), (), ())
    """
    name = what or "solve_linear"
    if method not in METHODS:
        raise OptionError(f"{name}: method={method!r}; expected one of {', '.join(METHODS)}")
    M = sp.Matrix(A)
    B = sp.eye(M.rows) if b is None else sp.Matrix(b)
    if unknowns is not None:
        if det or affine_in or method in ("domain", "tree"):
            raise OptionError(f"{name}: unknowns= takes method 'rational' or 'sympy', and no det= or affine_in=")
        return _general_solution(M, B, list(unknowns), simp=_tidy if tidy else canon, groups=groups, method=method)
    if method == "sympy" or groups is not None:
        raise OptionError(f"{name}: method='sympy' and groups= need unknowns= (the general solution)")
    if M.rows != M.cols or B.rows != M.rows:
        raise InvalidExpressionError(f"{name}: A, b: shapes {M.shape} and {B.shape} do not match (A square)")
    if method == "tree":
        if det or tidy or affine_in:
            raise OptionError(f"{name}: method='tree' takes no det=, tidy= or affine_in=")
        if pivots not in ("largest", "simplest"):
            raise OptionError(f"{name}: pivots={pivots!r}; expected 'largest' or 'simplest'")
        return _tree_solve(M, B, pivots)
    if det and method != "rational":
        raise OptionError(f"{name}: det=True needs method='rational'")
    if M.rows == 0:
        x = sp.ImmutableMatrix(0, max(B.cols, 1), [])
        return (x, sp.S.One) if det else x
    if affine_in:
        return _solve_affine(M, B, affine_in, what, method)
    if tidy and b is None and M.is_diagonal() and not any(is_zero(M[i, i]) for i in range(M.rows)):
        x = sp.ImmutableMatrix(sp.diag(*[_tidy(1 / M[i, i]) for i in range(M.rows)]))
        return (x, _tidy(sp.Mul(*M.diagonal()))) if det else x
    x, d = _square(M, B, method, what)
    if tidy:
        x = x.applyfunc(_tidy)
    return (x, d) if det else x


_tidy = tidy  # the option ``tidy`` shadows the function in solve_linear


def _square(M: sp.Matrix, B: sp.Matrix, method: str, what: str | None) -> tuple[sp.ImmutableMatrix, Any]:
    """``(x, det M)`` of a square system by ``method`` ("rational" or "domain"; the latter gives no det)."""
    try:
        try:
            ctx = RationalFunctions(list(M) + list(B), exp=True)
        except UnsupportedExpression:
            if method == "domain":
                return sp.ImmutableMatrix(_domain_solve(M, B, what)), None
            return _solve_outside(M, B)
        return _ratfunc_solve(ctx, M, B)
    except ZeroDivisionError as exc:
        raise _singular(M, what, str(exc)) from None


def _singular(M: sp.Matrix, what: str | None, why: str) -> RegularityError:
    """The error for a singular ``M``: with ``what``, the matrix and its rank (a rank computation)."""
    if what is None:
        return RegularityError(why if why.startswith("solve_linear") else f"solve_linear: {why}")
    return RegularityError(
        f"{what}: the matrix {M.tolist()} is singular (rank {M.rank(iszerofunc=is_zero)} < {M.rows})"
    )


def _solve_affine(
    G: sp.Matrix, B: sp.Matrix, symbols: Sequence[sp.Symbol], what: str | None, method: str
) -> sp.ImmutableMatrix:
    r"""The option ``affine_in`` of :func:`solve_linear`: ``x = x_0 + Σ_k c_k x_k`` with
    ``G [x_0 | x_1 …] = [b_0 | b_1 …]``, one elimination over the ring without the ``c_k`` (fewer generators,
    smaller intermediate polynomials), the columns combined by :func:`tidy_affine`; the same result as the
    tidied plain solve, which is used when ``b`` is not affine in the symbols."""
    used = set().union(*(x.free_symbols for x in B)) if B else set()
    cs = [c for c in symbols if c in used]

    def plain() -> sp.ImmutableMatrix:
        return _square(G, B, method, what)[0].applyfunc(_tidy)  # type: ignore[no-any-return]

    if B.cols != 1 or not cs or any(c in x.free_symbols for x in G for c in cs):
        return plain()
    cols = [B.xreplace(dict.fromkeys(cs, 0))] + [B.diff(c) for c in cs]
    if any(c in x.free_symbols for col in cols[1:] for x in col for c in cs):  # not affine in the symbols
        return plain()
    X, _ = _square(G, sp.Matrix.hstack(*cols), method, what)
    row = sp.Matrix([cs])
    return sp.ImmutableMatrix([tidy_affine(row, list(X[j, 1:]), [X[j, 0]])[0] for j in range(G.rows)])


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


def _ratfunc_solve(ctx: RationalFunctions, G: sp.MatrixBase, b: sp.MatrixBase) -> tuple[sp.ImmutableMatrix, sp.Expr]:
    """Solve ``G x = b``: constant-pivot elimination if possible, else fraction-free.

    Fraction-free: each row of ``[G | b]`` is multiplied by the lcm of its denominators, the
    polynomial system is solved by Bareiss elimination (``G x_num = x_den b``, ``x_den = det G``: FLINT's when
    installed, :func:`~frames.algebra._flint.flint_solve_den`, else :func:`~frames.algebra._poly.bareiss`, the
    result of ``DomainMatrix.solve_den`` with the budget's checkpoint before every entry update),
    and ``x = x_num / x_den`` is reduced and cancelled entry by entry. When ``b`` is much larger
    than ``G`` the elimination runs on ``[G | I]`` only (the same pivots, hence the
    same ``x_den``, with ``G N = x_den I``) and ``x_num = N b``; the common denominator is factored once and its
    factors divided out of each numerator before the final cancellation (:class:`_Canceller`).
    """
    n = G.rows
    k = b.cols
    elems = [[ctx.from_expr(x) for x in list(G.row(i)) + list(b.row(i))] for i in range(n)]
    quick = _constant_pivot_elimination(ctx, elems, n)
    if quick is not None:
        return quick
    rows = []
    scale = ctx.fractions.one
    for i in range(n):
        checkpoint()
        row = elems[i]
        m = ctx.ring.one
        for x in row:
            m = lcm(m, x.denom)
        rows.append([x.numer * m.exquo(x.denom) for x in row])
        scale = scale * m
    A = [r[:n] for r in rows]
    B = [r[n:] for r in rows]
    zero = ctx.ring.zero
    if sum(map(len, itertools.chain.from_iterable(B))) > 2 * sum(map(len, itertools.chain.from_iterable(A))):
        # a large right-hand side: eliminate on [A | I] only (the same pivots, hence the same
        # denominator as on [A | B]) and multiply, instead of carrying B through the elimination
        eye = [[ctx.ring.one if i == j else zero for j in range(n)] for i in range(n)]
        inv, xden = _bareiss_solve(A, eye, ctx)
        numerators = [[_dot(inv[i], [B[r][j] for r in range(n)], zero) for j in range(k)] for i in range(n)]
    else:
        numerators, xden = _bareiss_solve(A, B, ctx)
    return _finish_solve(ctx, numerators, xden, xden, scale, n, k)


def _bareiss_solve(A: list[list[Any]], B: list[list[Any]], ctx: RationalFunctions) -> tuple[list[list[Any]], Any]:
    """``(adj(A) B, det A)`` by fraction-free elimination, checkpointed: FLINT's when installed, else in Python."""
    fast = flint_solve_den(A, B, force=True)  # FLINT (the ``fast`` extra)
    if fast is not None:
        return fast
    return bareiss(A, B, one=ctx.ring.one)


def _dot(row: list[Any], col: list[Any], zero: Any) -> Any:
    """``Σ row_r col_r`` of polynomials, each product in checkpointed pieces (:func:`~frames.algebra._poly.product`)."""
    out = zero
    for x, y in zip(row, col, strict=True):
        if x and y:
            checkpoint()
            out = out + product(x, y)
    return out


def _finish_solve(
    ctx: RationalFunctions, xnum: list[list[Any]], xden: Any, det: Any, scale: Any, n: int, k: int
) -> tuple[sp.ImmutableMatrix, sp.Expr]:
    """``x = xnum / xden`` reduced and cancelled entry by entry, and ``det A / scale``, as expressions."""
    den = ctx.reduce(xden)
    if not den:
        raise ZeroDivisionError("solve_linear: singular matrix (its determinant vanishes by sin² + cos² = 1)")
    cancel = _Canceller(den, uses=n * k, factor=ctx.factor_list)

    def entry(num: Any) -> sp.Expr:
        fast = flint_normal([(den, num)], ctx._ideal, reduce_den=False)  # reduction and gcd in C
        pair = cancel_coprime(*fast) if fast is not None else cancel(ctx.reduce(num))
        return ctx._remember(ctx.fractions.raw_new(*pair))

    x = [[entry(xnum[i][j]) for j in range(k)] for i in range(n)]
    return sp.ImmutableMatrix(x), ctx.normal_expr(ctx.fractions.new(det, ctx.ring.one) / scale)


def _constant_pivot_elimination(
    ctx: RationalFunctions, elems: list[list[Any]], n: int
) -> tuple[sp.ImmutableMatrix, sp.Expr] | None:
    """Gauss–Jordan in the field while a nonzero constant pivot exists in every column.

    Frames are typically a permutation times a unipotent matrix: every pivot is a number,
    the entries stay polynomial and this is much cheaper than the fraction-free solve.
    Returns None as soon as a column has no constant pivot (the caller then solves
    fraction-free from the start).
    """
    aug = [list(r) for r in elems]
    det = ctx.fractions.one
    for c in range(n):
        checkpoint()
        r = next(
            (r for r in range(c, n) if aug[r][c] and aug[r][c].numer.is_ground and aug[r][c].denom.is_ground), None
        )
        if r is None:
            return None
        if r != c:
            aug[c], aug[r] = aug[r], aug[c]
            det = -det
        piv = aug[c][c]
        det = det * piv
        if piv != 1:
            inv = 1 / piv
            aug[c] = [x * inv if x else x for x in aug[c]]
        row_c = aug[c]
        for r2 in range(n):
            f = aug[r2][c]
            if r2 != c and f:
                aug[r2] = [x - f * y if y else x for x, y in zip(aug[r2], row_c, strict=True)]
    x = sp.ImmutableMatrix([[ctx.normal_expr(e) for e in row[n:]] for row in aug])
    return x, ctx.to_expr(det)


def _solve_outside(A: sp.Matrix, B: sp.Matrix) -> tuple[sp.ImmutableMatrix, sp.Expr]:
    """:func:`solve_linear` for entries outside :class:`RationalFunctions` (radicals, ``log`` …).

    Each sub-expression the ring cannot represent becomes an independent generator (as in :func:`canon`) and
    the system is solved in the ring. A solution of the generic system is a solution of the given one where
    its determinant does not vanish; that determinant, with the sub-expressions put back (``√P² = P`` may make
    it vanish), is decided by :func:`is_zero`. Floats and the like, which the ring cannot take even so, go to
    Gauss–Jordan elimination on expressions.
    """
    memo: dict[sp.Expr, sp.Expr] = {}
    gA, gB = A.applyfunc(lambda e: canon_generator_form(e, memo)), B.applyfunc(lambda e: canon_generator_form(e, memo))
    try:
        ctx = RationalFunctions(list(gA) + list(gB), exp=True)
    except UnsupportedExpression:
        return _gauss_jordan(A, B)
    x, det = _ratfunc_solve(ctx, gA, gB)
    back = {d: sub for sub, d in memo.items()}
    det = det.xreplace(back)
    if is_zero(det):
        raise ZeroDivisionError(f"solve_linear: singular matrix (its determinant {det} vanishes)")
    return x.xreplace(back), det


def _gauss_jordan(A: sp.Matrix, B: sp.Matrix) -> tuple[sp.ImmutableMatrix, sp.Expr]:
    """Gauss–Jordan elimination on sympy expressions, :func:`canon` after every step.

    The fallback of :func:`solve_linear` for entries outside :class:`RationalFunctions`
    (floats, radicals, ``exp`` …); pivots are decided by :func:`is_zero`.
    """
    n = A.rows
    aug = A.row_join(B).tolist()
    det: sp.Expr = sp.S.One
    for c in range(n):
        checkpoint()
        cands = [(sp.count_ops(aug[r][c]), r) for r in range(c, n) if aug[r][c] != 0 and not is_zero(aug[r][c])]
        if not cands:
            raise ZeroDivisionError(f"solve_linear: singular matrix (no pivot in column {c + 1})")
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


def _domain_solve(M: sp.Matrix, b: sp.Matrix, what: str | None) -> sp.Matrix:
    """Fraction-free solve with transcendental atoms frozen as polynomial generators.

    Each row of ``[M | b]`` is cleared of denominators, the polynomial system is solved by
    Bareiss elimination (:func:`~frames.algebra._poly.bareiss`, as ``DomainMatrix.solve_den`` but with the budget's
    checkpoint before every entry update; no gcd during the elimination: the heuristic gcd of sympy's
    fraction field is what made a dense 3-dof system take minutes), and each entry
    ``x_num / x_den`` is cancelled once. A singular ``M`` raises
    :class:`~frames.errors.RegularityError` naming ``what``. Domains other than ZZ, QQ and their
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
    checkpoint()
    mul: Callable[[Any, Any], Any] = operator.mul
    exquo: Callable[[Any, Any], Any] | None = R.exquo
    if R.is_PolynomialRing and R.dom.is_QQ:  # checkpointed products and divisions (FLINT for large ones)
        mul, exquo = product, None
    try:
        # Bareiss elimination with the budget's checkpoint before every entry update: (adj(M) b, det M), the
        # result of DomainMatrix.solve_den after the cancellation below
        xnum, xden = bareiss([r[:n] for r in rows], [r[n:] for r in rows], one=R.one, mul=mul, exquo=exquo)
    except ZeroDivisionError:
        raise RegularityError(
            f"{what or 'solve_linear'}: the matrix {M.tolist()} is singular (rank {M.rank(iszerofunc=is_zero)} < {n})"
        ) from None
    back = {d: g for g, d in dummies.items()}

    def entry(x: Any) -> sp.Expr:
        checkpoint()
        _, num, den = R.cofactors(x, xden)
        lc = den.LC if R.is_PolynomialRing else den
        if (R.dom if R.is_PolynomialRing else R).is_negative(lc):  # sympy's sign: positive leading coefficient
            num, den = -num, -den
        return R.to_sympy(num) / R.to_sympy(den)

    sol = sp.Matrix(n, b.cols, lambda i, j: entry(xnum[i][j]))
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
