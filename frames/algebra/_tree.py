r"""Expressions as shared trees: substitution, numerical values and linear solves without normal forms.

The fast path of the dynamics (:meth:`frames.NonholonomicSystem.field` with ``canonical=False``) derives
equations as sympy does in :mod:`sympy.physics.mechanics`: products and sums of derivatives, never expanded
or cancelled. Such expressions are directed acyclic graphs: a sub-expression built once is referenced many
times. The functions here visit every distinct node once.

* :func:`tree_subs` — ``xreplace`` remembered per node (sympy's walks every path of the graph);
* :func:`tree_values` — the values of several expressions at a point, to a given number of digits (mpmath),
  each node evaluated once;
* :func:`_tree_solve` (:func:`~frames.algebra.solve_linear` with ``method="tree"``) — ``A x = B`` by Gaussian elimination on the trees. The pivots are chosen at a rational
  point where the numerical elimination sees every pivot far from zero: a pivot whose value at a point is
  nonzero is not the zero function, so every division is by a nonzero function. Without such a point the
  solve refuses (returns None) and the caller decides exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import mpmath
import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.core.mul import _keep_coeff

from ._budget import checkpoint
from ._normal import op_count
from ._zero import generic_points

__all__ = ["tree_derivative", "tree_gather", "tree_gather_all", "tree_subs", "tree_values", "visibly_nonzero"]

#: digits of the numerical elimination that chooses the pivots
DIGITS = 40
#: a pivot is far from zero when it exceeds this fraction of the largest entry of the matrix being eliminated
PIVOT = 1e-12

_MP = mpmath.MPContext()
_FUNCS: dict[type, str] = {
    sp.sin: "sin",
    sp.cos: "cos",
    sp.tan: "tan",
    sp.cot: "cot",
    sp.sec: "sec",
    sp.csc: "csc",
    sp.exp: "exp",
    sp.log: "log",
    sp.sinh: "sinh",
    sp.cosh: "cosh",
    sp.tanh: "tanh",
    sp.asin: "asin",
    sp.acos: "acos",
    sp.atan: "atan",
    sp.Abs: "fabs",
}


class _NotNumeric(Exception):
    """A node the evaluator does not know, or a pole."""


def _each(exprs: Sequence[Any], fn: Callable[[sp.Basic], Any]) -> list[Any]:
    """``fn`` of each expression (never a string: ``strict``), with a checkpoint between two."""
    out = []
    for e in exprs:
        checkpoint()
        out.append(fn(sp.sympify(e, strict=True)))
    return out


def tree_subs(exprs: Sequence[sp.Expr], mapping: dict[Any, Any]) -> list[sp.Expr]:
    """``[e.xreplace(mapping) for e in exprs]``, each distinct sub-expression visited once.

    Examples
    --------
    >>> x, y = sp.symbols("x y")
    >>> tree_subs([sp.sin(x) * (x + y), x**2], {x: 2 * y})
    [3*y*sin(2*y), 4*y**2]
    """
    memo: dict[sp.Basic, sp.Basic] = dict(mapping)

    def walk(e: sp.Basic) -> sp.Basic:
        hit = memo.get(e)
        if hit is not None:
            return hit
        if not e.args:
            out = e
        else:
            args = [walk(a) for a in e.args]
            out = e.func(*args) if any(a is not b for a, b in zip(args, e.args, strict=True)) else e
        memo[e] = out
        return out

    return _each(exprs, walk)


#: trees up to this many operations get their common factors gathered (:func:`tree_gather`)
GATHER_OPS = 50_000


def tree_gather(e: sp.Expr, most: int | None = GATHER_OPS) -> sp.Expr:
    """``e`` with the common factors of its sums pulled out, inner sums first (through sums, products and powers,
    not into a function's arguments): in each sum, the factors every term
    has (to the least power), the rational content and, when every term can, the sign, where that is no larger
    (:func:`~frames.algebra.op_count`; a tie gathers, so that sums differing by a sign become one factor). What
    :func:`sympy.factor_terms` does, in one pass over the distinct nodes (20–40× faster on the mass-matrix
    trees); no expansion, no cancellation, no trigonometric rewriting. Trees of more than ``most`` operations
    (:func:`~frames.algebra.op_count`) are returned as they are (None: no limit; the pass is linear in the
    distinct nodes).

    Examples
    --------
    >>> x, y, v = sp.symbols("x y v")
    >>> tree_gather(2 * v * sp.sin(x) * y + 4 * v * sp.sin(x))
    2*v*(y + 2)*sin(x)
    >>> tree_gather(-(-x - y) * (x + y))
    (x + y)**2
    """
    if e.is_Atom or (most is not None and op_count(e, limit=most) > most):
        return e
    return tree_gather_all([e])[0]


def tree_gather_all(exprs: Sequence[sp.Expr]) -> list[sp.Expr]:
    """:func:`tree_gather` of each of ``exprs``, whatever their size, the sub-trees they share gathered once."""
    memo: dict[sp.Basic, sp.Basic] = {}
    sizes: dict[sp.Basic, int] = {}

    def size(x: sp.Basic) -> int:  # op_count, each distinct node counted once
        hit = sizes.get(x)
        if hit is None:
            own = 0 if x.is_Atom else len(x.args) - 1 if (x.is_Add or x.is_Mul) else 1
            hit = sizes[x] = own + sum(size(a) for a in x.args)
        return hit

    def walk(x: sp.Basic) -> sp.Basic:
        hit = memo.get(x)
        if hit is not None:
            return hit
        if not (x.is_Add or x.is_Mul or x.is_Pow):  # a function's arguments stay as they are (f(x y + x) and
            return x  # f(x (y + 1)) are different applications to every structural test)
        args = [walk(a) for a in x.args]
        out = x.func(*args) if any(a is not b for a, b in zip(args, x.args, strict=True)) else x
        if out.is_Add and (g := _gathered_sum(out)) is not out and size(g) <= size(out):
            out = g
        memo[x] = out
        return out

    out = []
    for e in exprs:
        checkpoint()
        out.append(walk(e))
    return out


def _factors(t: sp.Expr) -> tuple[sp.Expr, dict[sp.Expr, int]]:
    """A term as its numeric coefficient and ``{base: positive integer power}`` of its other factors."""
    c, rest = t.as_coeff_Mul()
    out: dict[sp.Expr, int] = {}
    for f in rest.args if rest.is_Mul else (rest,):
        b, k = (f.base, int(f.exp)) if f.is_Pow and f.exp.is_Integer and f.exp > 0 else (f, 1)
        if b is not sp.S.One:
            out[b] = out.get(b, 0) + k
    return c, out


def _gathered_sum(s: sp.Expr) -> sp.Expr:
    """``s`` (an Add) as ``g · Π common · Σ rest`` when its terms share factors or a content ``g ≠ 1``; a sum with
    non-commuting factors as it is."""
    if not s.is_commutative:
        return s
    terms = [_factors(t) for t in s.args]
    common = dict(terms[0][1])
    for _, f in terms[1:]:
        common = {b: min(k, f[b]) for b, k in common.items() if b in f}
        if not common:
            break
    g: sp.Expr = sp.S.One
    if all(c.is_Rational for c, _ in terms):
        num, den = 0, 1
        for c, _ in terms:
            num, den = sp.igcd(num, abs(c.p)), sp.ilcm(den, c.q)
        g = sp.Rational(num, den)
        if all(t.could_extract_minus_sign() for t in s.args):
            g = -g
    if not common and g == 1:
        return s
    rest = [
        sp.Mul(c / g, *[b ** (k - common.get(b, 0)) for b, k in f.items() if k != common.get(b, 0)]) for c, f in terms
    ]
    return _keep_coeff(g, sp.Mul(*[b**k for b, k in common.items()], sp.Add(*rest)), sign=True)


def tree_values(exprs: Sequence[sp.Expr], point: dict[Any, Any], digits: int = DIGITS) -> list[Any]:
    """The values (mpmath numbers, ``digits`` digits) of ``exprs`` at ``point`` (symbols, undefined functions and
    derivatives to numbers), each distinct node evaluated once. Raises ``ValueError`` at a pole, or for a node
    it cannot evaluate or a variable missing from the point."""
    ctx = _MP
    memo: dict[sp.Basic, Any] = {}
    with ctx.workdps(digits):
        base = {k: _number(sp.sympify(v, strict=True)) for k, v in point.items()}

        def ev(e: sp.Basic) -> Any:
            hit = memo.get(e)
            if hit is not None:
                return hit
            if e in base:
                val = base[e]
            elif e.is_Number or isinstance(e, sp.NumberSymbol) or e is sp.I:
                val = _number(e)
            elif e.is_Add:
                val = ctx.fsum(ev(a) for a in e.args)
            elif e.is_Mul:
                val = ctx.fprod(ev(a) for a in e.args)
            elif e.is_Pow:
                b, x = e.args
                bv = ev(b)
                if x.is_Integer:
                    if bv == 0 and x < 0:
                        raise _NotNumeric(e)
                    val = bv ** int(x)
                else:
                    val = ctx.power(bv, ev(x))
            elif type(e) in _FUNCS:
                val = getattr(ctx, _FUNCS[type(e)])(*(ev(a) for a in e.args))
            else:
                raise _NotNumeric(e)
            if not ctx.isfinite(val):
                raise _NotNumeric(e)
            memo[e] = val
            return val

        try:
            return _each(exprs, ev)
        except (_NotNumeric, ZeroDivisionError) as exc:
            raise ValueError(f"tree_values: cannot evaluate {exc}") from None


def visibly_nonzero(e: sp.Expr, *, above: float = 1e-12, tries: int = 2) -> bool:
    """True if ``e`` is far from 0 (``|value| > above``, evaluated to 30 digits, each shared node once) at one of
    ``tries`` generic rational points of its variables: it does not vanish identically. False proves nothing (an
    exact test decides); a point where ``e`` does not evaluate (a pole) is skipped."""
    for point in generic_points([e], tries):
        try:
            value = complex(tree_values([e], point, digits=30)[0])
        except (ValueError, TypeError):
            continue
        if abs(value) > above:
            return True
    return False


def _number(e: sp.Basic) -> Any:
    if e.is_Rational:
        return _MP.mpf(int(e.p)) / int(e.q)
    if e.is_Float:
        return _MP.mpf(e._mpf_)
    if e is sp.I:
        return _MP.mpc(0, 1)
    val = sp.N(e, _MP.dps + 5)
    if val.is_Float:
        return _MP.mpf(val._mpf_)
    re, im = val.as_real_imag()
    if re.is_Float and (im.is_Float or im == 0):
        return _MP.mpc(_MP.mpf(re._mpf_), _MP.mpf(sp.Float(im)._mpf_))
    raise _NotNumeric(e)


def tree_derivative(exprs: Sequence[sp.Expr], direction: dict[Any, Any]) -> list[sp.Expr]:
    r"""The directional derivatives ``Σ_x direction[x] ∂e/∂x`` of ``exprs``, forward through the tree: each
    distinct node differentiated once, by the chain rule (sympy's ``diff`` walks every path, once per variable).

    ``direction`` maps symbols to their rates (``{q_l: u_l}`` gives the derivative along ``q̇ = u`` at fixed
    ``u``; ``{x: 1}`` the partial derivative). Nodes other than sums, products, powers and functions of one
    argument are differentiated by sympy.

    Examples
    --------
    >>> x, y, u, w = sp.symbols("x y u w")
    >>> tree_derivative([x * sp.sin(y)], {x: u, y: w})
    [u*sin(y) + w*x*cos(y)]
    """
    direction = {x: sp.sympify(r, strict=True) for x, r in direction.items()}
    vars_ = set(direction)
    memo: dict[sp.Basic, sp.Expr] = {}
    free: dict[sp.Basic, bool] = {}

    def has(e: sp.Basic) -> bool:
        hit = free.get(e)
        if hit is None:
            hit = e in vars_ if not e.args else any(has(a) for a in e.args)
            free[e] = hit
        return hit

    def d(e: sp.Basic) -> sp.Expr:
        hit = memo.get(e)
        if hit is not None:
            return hit
        if not has(e):
            out: sp.Expr = sp.S.Zero
        elif not e.args:
            out = direction[e]
        elif e.is_Add:
            out = sp.Add(*[d(a) for a in e.args])
        elif e.is_Mul:
            args = e.args
            parts = [(i, d(a)) for i, a in enumerate(args) if has(a)]
            out = sp.Add(*[sp.Mul(*args[:i], da, *args[i + 1 :]) for i, da in parts if da != 0])
        elif e.is_Pow and not has(e.args[1]):
            b, x = e.args
            out = x * b ** (x - 1) * d(b)
        elif isinstance(e, sp.Function) and len(e.args) == 1 and not isinstance(e, AppliedUndef):
            out = e.fdiff(1) * d(e.args[0])
        else:
            out = sp.Add(*[sp.diff(e, x) * dx for x, dx in direction.items() if e.has(x)])
        memo[e] = out
        return out

    return _each(exprs, d)


def _tree_solve(A: sp.MatrixBase, B: sp.MatrixBase, pivots: str = "largest") -> sp.ImmutableMatrix | None:
    """The solution ``X`` of ``A X = B`` (``A`` square) by elimination on the trees, or None if no rational
    point shows every pivot far from zero (then ``A`` may be singular: decide exactly).

    The elimination is done twice with the same operations: numerically at the point, to choose the pivot of
    each column (the largest), and on the trees. Each tree pivot takes the numerical pivot's value at the
    point, which is nonzero: it is not the zero function. With ``pivots="simplest"`` each column's pivot is
    instead the smallest tree (fewest operations: a constant first) among the entries far from zero at the point,
    as :meth:`sympy.Matrix.LUsolve` takes a pivot it knows nonzero: a system with constant or small entries
    (constraint rows) is eliminated through them.

    Examples
    --------
    >>> x = sp.Symbol("x")
    >>> _tree_solve(sp.Matrix([[0, 1], [x, 1]]), sp.Matrix([1, 2]))
    Matrix([
    [1/x],
    [  1]])
    >>> _tree_solve(sp.Matrix([[x, x], [1, 1]]), sp.Matrix([1, 2])) is None
    True
    """
    n = A.rows
    if A.cols != n or B.rows != n:
        raise ValueError(f"solve_linear: expected a square system, got {A.shape} and {B.shape}")
    for point in generic_points(list(A), 4):
        try:
            vals = tree_values(list(A), point)
        except ValueError:
            continue
        if pivots == "simplest":
            X = _eliminate_simplest(A, B, vals)
            if X is not None:
                return X
            continue
        perm = _pivots([[vals[i * n + j] for j in range(n)] for i in range(n)])
        if perm is not None:
            return _eliminate(A, B, perm)
    return None


def _eliminate_simplest(A: sp.MatrixBase, B: sp.MatrixBase, vals: list[Any]) -> sp.ImmutableMatrix | None:
    """Elimination on the trees and, alongside, on their values ``vals`` at a point: in each column the pivot is
    the smallest tree among the entries whose value is far from zero (None when a column has none)."""
    n, r = A.rows, B.cols
    N = [[vals[i * n + j] for j in range(n)] for i in range(n)]
    big = max((abs(x) for x in vals), default=0)
    M = [[A[i, j] for j in range(n)] + [B[i, j] for j in range(r)] for i in range(n)]
    for k in range(n):
        checkpoint()
        cand = [i for i in range(k, n) if abs(N[i][k]) > PIVOT * big]
        if not cand:
            return None
        p = min(cand, key=lambda i: (_ops(M[i][k]), -abs(N[i][k]), i))
        M[k], M[p], N[k], N[p] = M[p], M[k], N[p], N[k]
        for i in range(k + 1, n):
            if M[i][k] == 0:
                continue
            f, g = M[i][k] / M[k][k], N[i][k] / N[k][k]
            M[i] = [sp.S.Zero] * (k + 1) + [
                M[i][j] - f * M[k][j] if M[k][j] != 0 else M[i][j] for j in range(k + 1, n + r)
            ]
            N[i] = [0] * (k + 1) + [N[i][j] - g * N[k][j] for j in range(k + 1, n)]
    return _back_substitute(M, n, r)


#: pivots larger than this many operations count as equally large (:func:`_ops` stops there)
SIMPLE_OPS = 2000


def _ops(e: sp.Basic, limit: int = SIMPLE_OPS) -> int:
    """The operations of a tree, counted on every path (:func:`frames.algebra.op_count`'s measure), at most
    ``limit + 1`` (a shared graph has exponentially many paths)."""
    count, stack = 0, [e]
    while stack:
        x = stack.pop()
        if not x.is_Atom:
            count += len(x.args) - 1 if (x.is_Add or x.is_Mul) else 1
            if count > limit:
                return limit + 1
            stack.extend(x.args)
    return count


def _pivots(N: list[list[Any]]) -> list[int] | None:
    """The pivot row of each column in partial-pivoting elimination of the numbers ``N``, or None when a pivot
    is not far from zero."""
    n = len(N)
    N = [row[:] for row in N]
    rows = list(range(n))
    order = []
    for k in range(n):
        col = [abs(N[i][k]) for i in rows]
        best = max(range(len(rows)), key=lambda i: col[i])
        if col[best] <= PIVOT * max(abs(x) for row in N for x in row):  # also a zero column
            return None
        p = rows.pop(best)
        order.append(p)
        for i in rows:
            f = N[i][k] / N[p][k]
            for j in range(k, n):
                N[i][j] -= f * N[p][j]
    return order


def _eliminate(A: sp.MatrixBase, B: sp.MatrixBase, perm: list[int]) -> sp.ImmutableMatrix:
    n, r = A.rows, B.cols
    M = [[A[p, j] for j in range(n)] + [B[p, j] for j in range(r)] for p in perm]
    for k in range(n):
        checkpoint()
        for i in range(k + 1, n):
            if M[i][k] == 0:
                continue
            f = M[i][k] / M[k][k]
            M[i] = [sp.S.Zero] * (k + 1) + [
                M[i][j] - f * M[k][j] if M[k][j] != 0 else M[i][j] for j in range(k + 1, n + r)
            ]
    return _back_substitute(M, n, r)


def _back_substitute(M: list[list[Any]], n: int, r: int) -> sp.ImmutableMatrix:
    X = [[sp.S.Zero] * r for _ in range(n)]
    for k in reversed(range(n)):
        checkpoint()
        for c in range(r):
            s = M[k][n + c] - sp.Add(*[M[k][j] * X[j][c] for j in range(k + 1, n) if M[k][j] != 0 and X[j][c] != 0])
            X[k][c] = s / M[k][k]
    return sp.ImmutableMatrix(X)
