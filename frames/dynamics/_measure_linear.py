"""The linear equations of the invariant-measure ansatz over ``QQ(params)``, kept in the ring and solved exactly.

``X_α(log N) = −c_α`` with ``log N = Σ e_k log P_k + Σ d_m M_m`` gives, per monomial of the q-dependent generators,
one linear equation in the unknowns ``e_k, d_m`` whose coefficients are polynomials in the parameters
(:func:`_linear_rows_ratfunc`, built in the ring: FLINT's lcm and quotients, one ``Add`` per coefficient);
:func:`_rref_solve` solves them by the reduced echelon form over ``QQ(params)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import sympy as sp
from sympy.polys.matrices import DomainMatrix

from ..algebra import RationalFunctions
from ..algebra.internal import UnsupportedExpression, _depends, checkpoint

__all__ = ["_in_ratfunc", "_linear_rows_ratfunc", "_rref_solve", "_sampled_solve"]


class _Rows:
    """The linear equations ``Σ_k x_k r[k+1] + r[0] = 0`` of the ansatz, each entry a polynomial of ``ctx`` in the
    generators free of q (the parameters): kept in the ring, written as expressions only where needed."""

    def __init__(self, ctx: RationalFunctions, rows: list[list[Any]]) -> None:
        self.ctx = ctx
        self.rows = rows


class _Terms:
    """The terms of the ansatz's equations in the field ``QQ(q, sin, cos, params)`` (cancelled), with the indices
    of the generators that depend on q; converted once for both ways of solving (samples, coefficient table)."""

    def __init__(self, ctx: RationalFunctions, rows: list[list[Any]], var: list[int]) -> None:
        self.ctx, self.rows, self.var = ctx, rows, var


def _in_ratfunc(terms: list[list[sp.Expr]], q: tuple[sp.Symbol, ...]) -> _Terms | None:
    """:class:`_Terms` of ``terms``, or None if a term is not a rational function of symbols, sin/cos and
    undefined functions."""
    try:
        ctx = RationalFunctions([t for row in terms for t in row])
    except UnsupportedExpression:
        return None
    var = [i for i, g in enumerate(ctx.fractions.gens) if _depends(ctx.to_expr(g), q)]
    rows = []
    for row in terms:
        checkpoint()
        rows.append([ctx.normal(ctx.from_expr(t)) for t in row])
    return _Terms(ctx, rows, var)


def _linear_rows_ratfunc(terms: list[list[sp.Expr]] | _Terms, q: tuple[sp.Symbol, ...]) -> _Rows | None:
    """Coefficient rows of ``Σ_k x_k terms[α][k] = 0`` (``terms[α][0]`` is the constant term).

    Every term is put in the field ``QQ(q, sin, cos, params)``; the equation is multiplied by the lcm
    of the denominators and reduced modulo ``sin² + cos² − 1``; the coefficient of each monomial in the
    q-dependent generators (a polynomial in the parameters) gives one linear equation. None if a term
    is not a rational function of symbols, sin/cos and undefined functions.
    """
    field = terms if isinstance(terms, _Terms) else _in_ratfunc(terms, q)
    if field is None:
        return None
    ctx, var = field.ctx, field.var
    ngens = ctx.ring.ngens
    out: list[list[Any]] = []
    for els in field.rows:
        checkpoint()
        den = ctx.ring.one
        for x in els:
            den = ctx.lcm(den, x.denom)
        parts: dict[tuple[int, ...], list[dict[tuple[int, ...], Any]]] = {}
        for k, x in enumerate(els):
            if not x:
                continue
            checkpoint()
            num = ctx.reduce(ctx.product(x.numer, ctx.quotient(den, x.denom)))
            for t, (monom, coeff) in enumerate(num.terms()):
                if not t % 4096:
                    checkpoint()
                key = tuple(monom[i] for i in var)
                par = tuple(0 if i in var else monom[i] for i in range(ngens))
                cell = parts.setdefault(key, [{} for _ in els])[k]
                cell[par] = cell.get(par, 0) + coeff
        for cols in parts.values():
            checkpoint()
            out.append([ctx.ring.from_dict(cell) for cell in cols])
    return _Rows(ctx, out)


def _sampled_solve(field: _Terms, n: int) -> tuple[list[sp.Expr], list[list[sp.Expr]]] | bool:
    """Solve ``Σ_k x_k terms[α][k+1] = −terms[α][0]`` (constant ``x`` over ``QQ(params)``) from samples: the
    solution ``(x, null-space basis)``, or False if there is none, or True if undecided here (then form the
    coefficient table, :func:`_linear_rows_ratfunc`).

    At generic rational points of the q-dependent generators every equation gives one linear equation over
    ``QQ(params)`` with small entries; a solution of all equations solves these samples. The samples are first
    solved modulo a prime at a rational point of the parameters. The unknowns that the null space there (and the
    solution, if the samples are consistent there) use are kept, the samples are solved for those exactly (a few
    unknowns, a few rows), and each null vector (and the solution) is checked on the equations exactly, with only
    the terms its nonzero entries take. If a check fails, or the exact null space is smaller, True.

    Once the null vectors hold, the equations have rank at most the samples' rank at the point, which is at most
    the samples' rank over ``QQ(params)``, which is at most the equations' rank (a solution of the equations solves
    the samples): all are equal. So samples inconsistent at the point are inconsistent: False, exactly.
    """
    ctx, fracs = field.ctx, field.rows
    var = [ctx.ring.gens[i] for i in field.var]
    samples: list[list[Any]] = []  # each: [−b, A entries] as field elements in the parameters
    need = 2 * (n + 1) + 4
    for point in ctx.generic_points(4 * need):
        checkpoint()
        at = [(g, v) for g, v in point if g in var]
        values = [[(f.numer.subs(at), f.denom.subs(at)) for f in row] for row in fracs]
        if all(d for row in values for _, d in row):  # no pole at this point
            samples += [[ctx.fractions(a) / ctx.fractions(d) for a, d in row] for row in values]
        if len(samples) >= need:
            break
    try:
        pvals = [_mod(v) for _, v in next(iter(ctx.generic_points(1)))]
        mod = [[*(_value_mod_frac(x, pvals) for x in r[1:]), -_value_mod_frac(r[0], pvals) % _PRIME] for r in samples]
    except ZeroDivisionError:  # a pole of the parameters at this point
        return True
    if len(samples) < need:
        return True
    _, echelon = _greedy_basis(mod, n + 1)  # all samples: their reduced echelon form, pivot column -> row
    consistent = n not in echelon
    free = [j for j in range(n) if j not in echelon]
    keep = set(free) | {p for p, row in echelon.items() if p < n and any(row[f] for f in free)}
    if consistent:
        keep |= {p for p, row in echelon.items() if row[n]}
    cols = sorted(keep)
    b = [r[n] if consistent else 0 for r in mod]
    picked, _ = _greedy_basis(([r[j] for j in cols] + [b[i]] for i, r in enumerate(mod)), len(cols) + 1)
    sub = [
        [ctx.to_expr(samples[i][0]) if consistent else sp.S.Zero, *(ctx.to_expr(samples[i][j + 1]) for j in cols)]
        for i in picked
    ]
    solved = _rref_small(sub, len(cols)) if sub else ([sp.S.Zero] * len(cols), [])
    if solved is None or len(solved[1]) != len(free):
        return True

    def full(v: list[sp.Expr]) -> list[sp.Expr]:
        out = [sp.S.Zero] * n
        for j, x in zip(cols, v, strict=True):
            out[j] = x
        return out

    x, basis = full(solved[0]), [full(z) for z in solved[1]]
    for vec, affine in [*((z, False) for z in basis), *([(x, True)] if consistent else [])]:
        for row in fracs:
            checkpoint()
            parts: dict[Any, Any] = {}
            for k, v in enumerate(vec):
                if v != 0 and row[k + 1]:
                    c = ctx.from_expr(v)
                    den = c.denom * row[k + 1].denom
                    parts[den] = parts.get(den, ctx.ring.zero) + c.numer * row[k + 1].numer
            if affine and row[0]:
                parts[row[0].denom] = parts.get(row[0].denom, ctx.ring.zero) + row[0].numer
            if parts and ctx.normal_sum(parts).numer:
                return True
    # the null vectors hold, as many as at the point: the samples' rank is the rank at the point (docstring)
    return (x, basis) if consistent else False


def _minus(row: list[int], f: int, other: list[int]) -> list[int]:
    """``row − f · other`` modulo :data:`_PRIME`."""
    return [(x - f * y) % _PRIME for x, y in zip(row, other, strict=True)] if f else row


def _greedy_basis(rows: Iterable[list[int]], ncols: int) -> tuple[list[int], dict[int, list[int]]]:
    """Indices of the rows (modulo :data:`_PRIME`, taken in order, computed lazily) that are independent of the
    ones before them, a basis of their span (it stops at ``ncols`` rows), and the reduced echelon form of the rows
    (pivot column → row, normalised there; every other row is zero in that column, and zero before its own pivot)."""
    basis: dict[int, list[int]] = {}  # pivot column -> row reduced, normalised there; the others zero there
    picked = []
    for i, row in enumerate(rows):
        checkpoint()
        for col, b in basis.items():
            row = _minus(row, row[col], b)
        c = next((k for k, x in enumerate(row) if x), None)
        if c is None:
            continue
        inv = pow(row[c], -1, _PRIME)
        row = [x * inv % _PRIME for x in row]
        basis = {k: _minus(b, b[c], row) for k, b in basis.items()}
        basis[c] = row
        picked.append(i)
        if len(basis) == ncols:
            break
    return picked, basis


def _rref_solve(table: _Rows, n: int) -> tuple[list[sp.Expr], list[list[sp.Expr]]] | None:
    """Solve ``Σ_k x_k r[k+1] = −r[0]`` exactly: ``(particular x with free = 0, null-space basis)`` or None, by
    the reduced echelon form of ``[A | −b]`` over ``QQ(params)``."""
    if not table.rows:
        return [sp.S.Zero] * n, [[sp.S.One if i == j else sp.S.Zero for i in range(n)] for j in range(n)]
    ctx = table.ctx
    picked = _independent_rows(table, n)
    if picked is not None and len(picked) < len(table.rows):
        sub = _rref_small([[ctx.to_expr(p) for p in table.rows[i]] for i in picked], n)
        if sub is None:  # some of the equations are inconsistent: so are all of them
            return None
        if _satisfies(table, sub):  # every equation holds for the solution and its null space: exact
            return sub
    return _rref_small([[ctx.to_expr(p) for p in r] for r in table.rows], n)


def _independent_rows(table: _Rows, n: int) -> list[int] | None:
    """Rows of ``[A | −b]`` independent at a rational point of the parameters (a basis of the row space there,
    modulo a large prime), or None. Rows independent modulo the prime are independent over ``QQ`` at the point,
    hence over ``QQ(params)``; whether they span every row, :func:`_satisfies` checks exactly."""
    ctx = table.ctx
    # the smallest rows first: the basis picked greedily is then the simplest one (small pivots, small fractions)
    order = sorted(range(len(table.rows)), key=lambda i: sum(len(p) for p in table.rows[i]))
    for point in ctx.generic_points(2):
        try:
            vals = [_mod(v) for _, v in point]
            picked, _ = _greedy_basis(([_value_mod(p, vals) for p in table.rows[i]] for i in order), n + 1)
        except ZeroDivisionError:  # pragma: no cover - a denominator divisible by the prime: the next point
            continue
        if picked:
            return sorted(order[j] for j in picked)
    return None


#: the prime of the eliminations at a point (:func:`_independent_rows`, :func:`_sampled_solve`)
_PRIME = 2**61 - 1


def _mod(v: Any) -> int:
    """The rational ``v`` modulo :data:`_PRIME`; ``ZeroDivisionError`` when its denominator is divisible by it."""
    num, den = int(v.numerator), int(v.denominator)
    if den % _PRIME == 0:
        raise ZeroDivisionError(f"{v}: denominator divisible by the prime")
    return num * pow(den, -1, _PRIME) % _PRIME


def _value_mod(p: Any, vals: list[int]) -> int:
    """The polynomial ``p`` (coefficients in ``QQ``) at the point ``vals`` modulo :data:`_PRIME`, term by term."""
    total = 0
    for t, (monom, c) in enumerate(p.terms()):
        if not t % 4096:
            checkpoint()
        x = _mod(c)
        for v, e in zip(vals, monom, strict=True):
            if e:
                x = x * pow(v, e, _PRIME) % _PRIME
        total = (total + x) % _PRIME
    return total


def _value_mod_frac(f: Any, vals: list[int]) -> int:
    """The field element ``f`` at the point ``vals`` modulo :data:`_PRIME`; ``ZeroDivisionError`` at a pole."""
    den = _value_mod(f.denom, vals)
    if not den:
        raise ZeroDivisionError("a pole at the point")
    return _value_mod(f.numer, vals) * pow(den, -1, _PRIME) % _PRIME


def _satisfies(table: _Rows, solution: tuple[list[sp.Expr], list[list[sp.Expr]]]) -> bool:
    """True if the particular solution and every null-space vector satisfy every row, exactly (in the ring:
    ``Σ_k r[k+1] N_k (D/D_k) + r[0] D = 0`` over the common denominator ``D``)."""
    ctx = table.ctx
    x, basis = solution
    for vec, affine in [(x, True), *((z, False) for z in basis)]:
        fr_ = [ctx.from_expr(e) for e in vec]
        den = ctx.ring.one
        for f in fr_:
            den = ctx.lcm(den, f.denom)
        nums = [f.numer * ctx.quotient(den, f.denom) for f in fr_]
        for r in table.rows:
            checkpoint()
            total = sum((r[k + 1] * nums[k] for k in range(len(nums)) if r[k + 1] and nums[k]), ctx.ring.zero)
            if affine:
                total += r[0] * den
            if ctx.reduce(total):
                return False
    return True


def _rref_small(rows: list[list[sp.Expr]], n: int) -> tuple[list[sp.Expr], list[list[sp.Expr]]] | None:
    """The reduced echelon form of ``[A | −b]`` over ``QQ(params)``: the particular solution and the null space."""
    M = sp.Matrix([[*r[1:], -r[0]] for r in rows])
    R_, pivots = DomainMatrix.from_Matrix(M).to_field().rref()
    R = R_.to_Matrix()
    if n in pivots:
        return None
    x = [sp.S.Zero] * n
    for i, p in enumerate(pivots):
        x[p] = R[i, n]
    basis = []
    for f in (j for j in range(n) if j not in pivots):
        z = [sp.S.Zero] * n
        z[f] = sp.S.One
        for i, p in enumerate(pivots):
            z[p] = -R[i, f]
        basis.append(z)
    return x, basis
