"""Deliberate simplification policy.

The library never calls :func:`sympy.simplify` in a loop. Intermediate
results are put in a canonical rational form with :func:`sympy.cancel`, which
treats transcendental sub-expressions such as ``sin(theta)`` as generators.
Trigonometric identities are applied once, on final results only
(:func:`tidy`). Zero tests try the cheap canonical form first and fall back to
a trigonometric simplification only when the cheap test is inconclusive.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, Literal, overload

import sympy as sp
from sympy.polys.polyerrors import GeneratorsError
from sympy.polys.polyutils import _sort_gens

from ..errors import InvalidExpressionError, UndecidedError
from ._budget import attempt, checkpoint
from ._coerce import as_expr
from ._convert import is_known_tidy
from ._poly import cancel, poly_expr
from ._ratfunc import RationalFunctions, UnsupportedExpression
from ._scan import _scan_all
from ._zero import _representable, decide_zero, identified_applications

#: expressions with more operations than this are cancelled in the polynomial ring (:func:`canon`)
RING_CANCEL_OPS = 400
#: results of :func:`canon`, :func:`trig_normal`, :func:`tidy` and :func:`is_zero` memoised per expression
#: (pure functions of an immutable argument; the sections of a report test the same expressions repeatedly)
CACHE_SIZE = 2048

#: results whose exact trees hold at most this many operations in all are written in the canonical form by
#: default (:func:`compact`)
COMPACT_OPS = 400
#: larger results are written in the canonical form only when it is computed within this many seconds (or five
#: times what the trees took, if more) and is no larger than the trees (:func:`compact`)
COMPACT_SECONDS = 1.0
#: trees with more operations than this are kept as they are, without trying their canonical form (:func:`compact`)
COMPACT_TRY_OPS = 20000

__all__ = [
    "COMPACT_OPS",
    "COMPACT_SECONDS",
    "canon",
    "canon_element",
    "canon_of_value",
    "compact",
    "entries",
    "is_zero",
    "op_count",
    "tidy",
    "trig_normal",
]


def op_count(expr: sp.Basic, limit: int | None = None) -> int:
    """The number of operations of ``expr``, as :func:`sympy.count_ops` counts them, estimated cheaply.

    A sum or product of ``k`` terms counts ``k − 1``, a power or a function 1 (signs and the
    ``SUB``/``DIV`` distinctions of ``count_ops`` are not made). With ``limit`` the walk stops as
    soon as the count exceeds it (the result is then ``limit + 1``): deciding "is it large" costs
    at most ``limit`` steps, where ``count_ops`` walks and rebuilds the whole tree.

    Examples
    --------
    >>> import sympy as sp
    >>> x, y = sp.symbols("x y")
    >>> op_count(x*y + sp.sin(x)**2 + 1)
    5
    >>> op_count((x + y)**40 + x, limit=2)
    3
    """
    n = 0
    stack = [expr]
    while stack:
        e = stack.pop()
        if e.is_Atom:
            continue
        args = e.args
        n += len(args) - 1 if (e.is_Add or e.is_Mul) else 1
        if limit is not None and n > limit:
            return limit + 1
        stack.extend(args)
    return n


def _size(exprs: Sequence[sp.Expr], limit: int | None = None) -> int:
    n = 0
    for e in exprs:
        n += op_count(e, None if limit is None else limit - n)
        if limit is not None and n > limit:
            return n
    return n


def compact(
    trees: Sequence[sp.Expr], canonical: Callable[[], Sequence[sp.Expr]], seconds: float | None = COMPACT_SECONDS
) -> list[sp.Expr] | None:
    """The policy of the library's default results: the canonical form when it is small or smaller, else the trees.

    ``trees`` are exact expressions as derived (unexpanded, as SymPy's mechanics derives them); ``canonical``
    computes the same functions in the canonical form, which decides (zero tests, verdicts) but multiplies
    compound angles out. Returns the canonical forms when the trees hold at most :data:`COMPACT_OPS` operations
    in all; otherwise, when the trees hold at most :data:`COMPACT_TRY_OPS`, when ``canonical()`` finishes within
    ``seconds`` (a budget inside the open one; None: not tried; ``math.inf``: its pieces are known, so it is
    computed whatever the trees' size) with no more operations than the trees. Returns None (the caller keeps the trees) otherwise.

    Raises
    ------
    BudgetExceededError
        When the open budget, not this attempt's, is spent.

    Examples
    --------
    >>> x, y = sp.symbols("x y")
    >>> compact([(x + y)**2 - y**2], lambda: [x**2 + 2*x*y])
    [x**2 + 2*x*y]
    >>> compact([sp.Mul(x + 1, x - 1, evaluate=False)] * 300, lambda: [sp.expand((x + y)**40)] * 300) is None
    True
    """
    if _size(trees, COMPACT_OPS) <= COMPACT_OPS:
        return list(canonical())
    if seconds == math.inf:  # the canonical form is cheap (its pieces are known): the smaller of the two
        out = list(canonical())
        size = _size(trees, 10**6)
        return out if _size(out, size) <= size else None
    size = _size(trees, COMPACT_TRY_OPS)
    if seconds is None or size > COMPACT_TRY_OPS:
        return None
    tried = attempt(seconds, lambda: list(canonical()), None)
    return tried if tried is not None and _size(tried, size) <= size else None


def is_large_tidy_form(e: sp.Expr) -> bool:
    """True if ``e`` is a large ring normal form written by the library (reduced modulo ``sin² + cos² − 1`` and
    cancelled, more than :data:`RING_CANCEL_OPS` operations): :func:`tidy`, :func:`trig_normal` and :func:`canon`
    return it unchanged instead of converting it to the ring and back."""
    return is_known_tidy(e) and op_count(e, RING_CANCEL_OPS) > RING_CANCEL_OPS


def canon(expr: object) -> Any:  # an Expr, or an ImmutableMatrix for a matrix
    """Canonical rational form of ``expr`` (``cancel`` of the expression); of a matrix, entrywise (frozen).

    The result is :func:`sympy.cancel`'s, term for term, but computed in the polynomial ring
    ``QQ[x, sin a, cos a, f(t), …]``: numerator and denominator are built without gcds, cancelled
    once, and given sympy's sign convention (positive leading coefficient of the denominator in
    sympy's generator order). With exponentials (ring generators ``exp(r/d)``) and for large
    expressions the ring's own normal form is returned; polynomials are multiplied out as
    :func:`sympy.expand` writes them. Expressions outside the ring (radicals, floats) go to sympy.
    Results are memoised per expression (:data:`CACHE_SIZE`).

    Examples
    --------
    >>> import sympy as sp
    >>> x, th = sp.symbols("x theta")
    >>> canon((x**2 - 1) / (x - 1) + sp.sin(th) / (2 * x))
    (2*x**2 + 2*x + sin(theta))/(2*x)
    """
    if isinstance(expr, sp.MatrixBase):
        return sp.ImmutableMatrix(sp.Matrix(expr).applyfunc(canon))
    checkpoint()
    e = sp.sympify(expr, strict=True)  # internal values only: strict refuses strings (never parsed)
    if isinstance(e, sp.NDimArray | sp.MatrixBase):
        raise TypeError(f"canon: expected a scalar expression, got the array {e!r}")
    if e.is_Atom:
        return e
    if isinstance(e, sp.Derivative) or isinstance(e, sp.core.function.AppliedUndef):
        return e
    if is_large_tidy_form(e) and _has_denominator(e):
        return e  # a large ring normal form is cancelled already: its canonical form is itself
    return _canon(e)


@lru_cache(maxsize=CACHE_SIZE)
def _canon(e: sp.Expr) -> sp.Expr:
    """:func:`canon` of a compound expression (memoised: report sections share their expressions)."""
    try:  # numerator/denominator in the polynomial ring, built without intermediate gcds
        ctx = RationalFunctions([e], pythagoras=False, exp=True)
    except UnsupportedExpression:  # radicals, log …: independent generators, in the ring
        return _canon_outside(e)
    return _canon_in(ctx, e, ctx.from_expr(e))


def canon_of_value(e: sp.Expr, value: sp.Expr) -> sp.Expr:
    """:func:`canon` ``(e)``, given an expression ``value`` of the same rational function of independent
    generators (``sin a``, ``cos a`` independent, as :func:`sympy.cancel` treats them), written over atoms of ``e``.

    Every decision :func:`canon` takes on ``e`` is taken on ``e`` (its size, its denominators, its ring and the
    order of its generators, hence the sign convention); only the conversion of ``e`` to the ring, which
    multiplies out a large tree, is replaced by that of ``value``. The normal forms are unique, so the result
    is ``canon(e)``, term for term, provided ``e`` has no exponential and no ``tan``, ``cot``, ``sec``, ``csc``
    (a fraction written without a denominator); :class:`UnsupportedExpression` otherwise (the caller then
    takes ``canon(e)``).
    """
    checkpoint()
    if e.is_Atom or isinstance(e, sp.Derivative | sp.core.function.AppliedUndef):
        return e
    if e.has(sp.tan, sp.cot, sp.sec, sp.csc):
        raise UnsupportedExpression("canon_of_value: e holds tan, cot, sec or csc (fractions without a denominator)")
    if is_large_tidy_form(e) and _has_denominator(e):
        return e
    ctx = RationalFunctions([e], pythagoras=False, exp=True)
    if ctx.has_exponentials:
        raise UnsupportedExpression("canon_of_value: e holds an exponential")
    return _canon_in(ctx, e, ctx.from_expr(value))


def _canon_in(ctx: RationalFunctions, e: sp.Expr, f: Any) -> sp.Expr:
    """:func:`canon` of ``e``, whose field element in ``ctx`` (the ring of ``e``, without the Pythagorean
    identities) is ``f``."""
    # a polynomial in the generators (tan x = sin x / cos x and tanh x are fractions, though written without one)
    polynomial = not _has_denominator(e) and ctx.is_exp_monomial(f.denom)
    if polynomial:
        # a polynomial in its generators: its expansion (as cancel's numerator), multiplied out in the
        # ring (exponentials of multiples of one argument are powers of one generator, as in sympy)
        return _expanded(ctx, f)
    if ctx.has_exponentials or op_count(e, RING_CANCEL_OPS) > RING_CANCEL_OPS:
        # large, or with exponential generators: cancelled once in the ring, the ring's sign convention
        # (remembered with its ring form: tidy's trig_normal of it, next, re-indexes instead of walking)
        return ctx._remember(ctx.normal(f))
    # sympy's cancel computed in the ring (it spends its time in factor_terms and tree rebuilding)
    out = _cancel_as_sympy(ctx, f)
    return sp.cancel(e) if out is None else out


#: the symbols that stand for the sub-expressions the ring cannot represent (see :func:`_canon_outside`)
_OPAQUE: dict[sp.Expr, sp.Dummy] = {}


def _canon_outside(e: sp.Expr) -> sp.Expr:
    """:func:`canon` of an expression outside the ring: each maximal sub-expression the ring cannot represent
    (a radical ``P**(1/q)``, ``log``, ``Abs`` …, its arguments in canonical form) is a generator of its own,
    ``P**(p/q)`` the ``p``-th power of the generator ``P**(1/q)``; the rest is cancelled in the ring.

    The result is the function itself (an identity that holds for independent generators holds for what they
    stand for), canonical up to the relations among those sub-expressions (``√P² = P`` is not used): so one
    more canon of it returns it unchanged. Floats and the like, which the ring cannot take even so, get
    sympy's ``expand``/``cancel``.
    """
    memo: dict[sp.Expr, sp.Expr] = {}
    generic = canon_generator_form(e, memo)
    if not memo:
        return sp.expand(e) if not _has_denominator(e) else sp.cancel(e)
    try:
        out = canon(generic)
    except UnsupportedExpression:
        return sp.expand(e) if not _has_denominator(e) else sp.cancel(e)
    return out.xreplace({d: sub for sub, d in memo.items()})


def canon_generator_form(e: sp.Expr, memo: dict[sp.Expr, sp.Expr]) -> sp.Expr:
    """``e`` with each sub-expression the ring cannot represent replaced by its generator (a symbol), recorded
    in ``memo`` (sub-expression → symbol); see :func:`_canon_outside`.

    The form :func:`canon` and the solves work on: the generator of a sub-expression is the same symbol in
    every call (so that ``canon`` is a function of its argument), radicands and function arguments are in
    ``canon``'s form, floats stay (the ring then refuses them). The zero test's twin,
    :func:`frames.algebra._zero.zero_test_form`, differs on purpose: fresh generators, radicands in the
    ring's normal form so that ``g**q = P`` is used, constant shifts of angles expanded, floats opaque."""
    return _generic(e, memo, {})


def _generic(e: sp.Expr, memo: dict[sp.Expr, sp.Expr], seen: dict[sp.Expr, sp.Expr]) -> sp.Expr:
    if e.is_Symbol or e.is_Number:
        return e
    out = seen.get(e)
    if out is not None:  # shared sub-trees of a large expression are walked once
        return out
    checkpoint()
    if isinstance(e, sp.Add | sp.Mul):
        out = e.func(*(_generic(a, memo, seen) for a in e.args))
    elif isinstance(e, sp.Pow) and e.exp.is_Integer:
        out = _generic(e.base, memo, seen) ** e.exp
    elif isinstance(e, sp.Pow) and e.exp.is_Rational:  # P**(p/q) = (P**(1/q))**p
        root = sp.Pow(canon(e.base), sp.Rational(1, e.exp.q))
        out = _opaque_symbol(root, memo) ** e.exp.p
    elif _representable(e):
        out = e
    elif e.is_Atom or not e.args:
        out = _opaque_symbol(e, memo)
    else:
        out = _opaque_symbol(e.func(*(canon(a) for a in e.args)), memo)
    seen[e] = out
    return out  # type: ignore[no-any-return]


def _opaque_symbol(sub: sp.Expr, memo: dict[sp.Expr, sp.Expr]) -> sp.Expr:
    if sub.is_Atom or sub.is_Symbol:
        return sub
    d = _OPAQUE.get(sub)
    if d is None:
        if len(_OPAQUE) > CACHE_SIZE:
            _OPAQUE.clear()
        d = _OPAQUE[sub] = sp.Dummy("g")
    memo[sub] = d
    return d


#: field elements with at most this many terms (numerator and denominator) are written and given
#: :func:`canon`'s form of the expression; larger ones are written once, as the ring's normal form
ELEMENT_WRITE_TERMS = 60


def canon_element(ctx: RationalFunctions, parts: dict[Any, Any]) -> sp.Expr:
    """The sum ``Σ num/den`` of ``parts = {den: num}`` (polynomials of ``ctx``), written once.

    When its normal form (:meth:`~frames.algebra.RationalFunctions.normal_sum`) is small, the sum is given
    :func:`canon`'s form (sympy's ``cancel``, term for term, without the Pythagorean identities): the form
    an expression-level computation of the same function gets. A large one is written as its normal form,
    reduced modulo ``sin² + cos² − 1`` and cancelled once (the form of :func:`tidy` and :func:`trig_normal`,
    which return it unchanged), and remembered with its ring form, so that a later conversion of an
    expression containing it re-indexes its terms instead of walking its tree.

    Parameters
    ----------
    ctx : RationalFunctions
        The field; it may reduce modulo ``sin² + cos² − 1`` (the small branch sums without it).
    parts : dict
        ``{denominator: numerator}``, polynomials of ``ctx.ring`` (numerators added over equal denominators).

    Returns
    -------
    Expr
        The sum, written once.

    Examples
    --------
    >>> import sympy as sp
    >>> from frames.algebra import RationalFunctions
    >>> x, th = sp.symbols("x theta")
    >>> ctx = RationalFunctions([x, sp.sin(th)])
    >>> a, b = ctx.from_expr((x**2 - 1) / (x - 1)), ctx.from_expr(sp.sin(th) / (2 * x))
    >>> canon_element(ctx, {a.denom: a.numer, b.denom: b.numer})
    (2*x**2 + 2*x + sin(theta))/(2*x)
    """
    f = ctx.normal_sum(parts)
    if len(f.numer) + len(f.denom) <= ELEMENT_WRITE_TERMS:
        plain = ctx.plain()  # the sum over the lcm of the denominators, without sin² + cos² = 1: cancel's field
        return canon(ctx.to_expr(f if plain is ctx else plain.normal_sum(parts)))
    return ctx._remember(f)


def _expanded(ctx: RationalFunctions, f: object) -> sp.Expr:
    """The expanded sum of terms of ``f = num/den``, ``den`` a monomial (a rational constant, or the
    powers of exponential generators that ``exp(−r)`` contributes): each term of ``num`` with the
    exponents of ``den`` subtracted, as :func:`sympy.expand` writes it."""
    num, den = f.numer, f.denom  # type: ignore[attr-defined]
    if len(den) != 1:  # pragma: no cover - a polynomial expression has a monomial denominator
        return sp.expand(ctx.to_expr(f))
    ((dmon, dc),) = den.terms()
    atoms = [a if a.is_Symbol else sp.expand(a) for a in ctx.atoms]  # expand is deep: sin(2(a + b)) → sin(2a + 2b)
    QQ = ctx.ring.domain
    if not any(dmon):  # a constant denominator: the polynomial num/dc, written term by term without flattening
        return poly_expr(num.quo_ground(dc), atoms)
    c0 = QQ.to_sympy(dc)
    terms = []
    for count, (mon, c) in enumerate(num.terms()):
        if not count % 1024:
            checkpoint()
        factors = [a ** (k - j) for a, k, j in zip(atoms, mon, dmon, strict=True) if k != j]
        terms.append(sp.Mul(QQ.to_sympy(c) / c0, *factors))
    return sp.Add(*terms)


@lru_cache(maxsize=4096)
def _stable_generator(g: sp.Expr) -> bool:
    """True if :func:`sympy.cancel` keeps the generator ``g`` as it is.

    sympy's ``cancel`` first applies ``signsimp`` and ``factor_terms`` to the whole expression,
    arguments of functions included (``sin(x + x y)`` becomes ``sin(x (y + 1))``); a generator
    those leave unchanged appears unchanged in its result. Generators without free symbols
    (``sin(1)``) may become coefficients there and are refused too.
    """
    if g.is_Symbol:
        return True
    if not g.free_symbols:
        return False
    return bool(sp.factor_terms(g, radical=True) == g and sp.signsimp(g) == g)


def _cancel_as_sympy(ctx: RationalFunctions, f: object) -> sp.Expr | None:
    """``sympy.cancel`` of the field element ``f``, computed in the ring of ``ctx`` (no expression-level gcds).

    The result is identical to sympy's (``P/Q`` with ``P, Q`` integer polynomials without common
    factor, integer contents coprime, and the leading coefficient of ``Q`` positive in sympy's
    lexicographic order of the generators, ``sympy.polys.polyutils._sort_gens``): that normal form
    is unique, so only the sign convention has to follow sympy's generator order. None if a
    generator would be rewritten or ordered ambiguously by sympy (the caller then uses sympy).
    """
    num, den = cancel(f.numer, f.denom)  # type: ignore[attr-defined]  # sympy's, the gcd by FLINT when installed
    atoms = list(ctx.atoms)
    used = sorted({i for monom in (*num.monoms(), *den.monoms()) for i, k in enumerate(monom) if k})
    if not all(_stable_generator(atoms[i]) for i in used):
        return None
    if len({str(atoms[i]) for i in used}) != len(used):
        return None  # sympy's order would depend on the order of a set
    if not den.is_ground:
        pos = {a: i for i, a in enumerate(atoms)}
        order = [pos[a] for a in _sort_gens([atoms[i] for i in used])]
        lead = max(den.terms(), key=lambda t: tuple(t[0][i] for i in order))[1]
        if lead < 0:
            num, den = -num, -den
    return num.as_expr(*atoms) / den.as_expr(*atoms)  # type: ignore[no-any-return]


def _has_denominator(e: sp.Expr) -> bool:
    if e.is_Mul and any(a.is_Pow and (a.exp.is_negative or not a.exp.is_number) for a in e.args):
        return True  # ``N/D`` (a normal form): decided at the top, without walking N
    return any(p.exp.is_negative or not p.exp.is_number for p in e.atoms(sp.Pow))


def _trig_args(e: sp.Expr) -> list[sp.Expr]:
    return sorted({f.args[0] for f in e.atoms(sp.sin, sp.cos)}, key=sp.default_sort_key)


def _reduce_pythagoras(p: sp.Expr, args: list[sp.Expr]) -> sp.Expr:
    """Reduce a polynomial in sin(a), cos(a) modulo sin(a)² + cos(a)² − 1.

    Every power ``sin(a)^k`` with ``k ≥ 2`` is rewritten with ``1 − cos(a)²``;
    the result is at most linear in each ``sin(a)``, a normal form for the ideal.
    """
    gens = [g for a in args for g in (sp.sin(a), sp.cos(a))]
    poly = sp.Poly(sp.expand(p), *gens)
    out = sp.S.Zero
    for monom, coeff in poly.terms():
        term = coeff
        for idx, a in enumerate(args):
            ks, kc = monom[2 * idx], monom[2 * idx + 1]
            term *= sp.sin(a) ** (ks % 2) * sp.cos(a) ** kc * (1 - sp.cos(a) ** 2) ** (ks // 2)
        out += term
    return sp.expand(out)


def trig_normal(expr: object) -> sp.Expr:
    """Rational normal form with ``sin² + cos² = 1`` applied to numerator and denominator.

    Cheap and exact: a rational expression in ``sin(a)``, ``cos(a)`` vanishes
    identically iff the reduced numerator is zero (same-argument identities;
    multiple-angle identities are not used). Unevaluated atoms such as ``sin(q + π/2)``
    are evaluated, and arguments differing by a constant (``q``, ``q + π/3``) are
    expanded onto one angle first.
    """
    e = sp.sympify(expr, strict=True)
    if e.is_Atom or not e.has(sp.sin, sp.cos):
        return canon(e)
    if is_large_tidy_form(e):
        return e  # a large ring normal form (reduced, cancelled) is its own normal form
    checkpoint()
    return _trig_normal(e)


def _evaluate_shifts(e: sp.Expr) -> sp.Expr:
    """``e`` with its ``sin``/``cos`` atoms evaluated and arguments shifted by constants expanded.

    An unevaluated ``sin(q + π/2)`` becomes ``cos(q)`` (otherwise ``sin(q)``, ``cos(q)``, ``cos(q)``,
    ``−sin(q)`` would be four generators); when arguments ``b`` and ``b + c`` (``c`` free of symbols)
    both occur, ``sin(b + c) = sin b cos c + cos b sin c`` and ``cos(b + c) = cos b cos c − sin b sin c``,
    so that one pair ``sin b, cos b`` carries the Pythagorean identity.
    """
    fs = {a for a in _scan_all([e])[0] if isinstance(a, sp.sin | sp.cos)}  # the walk the ring's context reuses
    ev = {f: f.func(f.args[0]) for f in fs}
    ev = {f: g for f, g in ev.items() if g != f}
    if ev:
        e = e.xreplace(ev)
        fs = e.atoms(sp.sin, sp.cos)
    groups: dict[sp.Expr, set[sp.Expr]] = {}
    for f in fs:
        a = f.args[0]
        c, b = a.as_independent(*a.free_symbols, as_Add=True) if a.free_symbols else (a, sp.S.Zero)
        groups.setdefault(b, set()).add(c)
    rep: dict[sp.Expr, sp.Expr] = {}
    for b, cs in groups.items():
        if len(cs) < 2 or b == 0:
            continue
        base = min(cs, key=sp.default_sort_key) if 0 not in cs else sp.S.Zero
        for c in cs - {base}:
            d = c - base
            sb, cb = sp.sin(b + base), sp.cos(b + base)
            rep[sp.sin(b + c)] = sb * sp.cos(d) + cb * sp.sin(d)
            rep[sp.cos(b + c)] = cb * sp.cos(d) - sb * sp.sin(d)
    return e.xreplace(rep) if rep else e


def _ratfunc_normal(e: sp.Expr) -> sp.Expr | None:
    """The normal form of ``e`` in the field :class:`RationalFunctions` of its generators, or None outside it."""
    try:
        ctx = RationalFunctions([e], exp=True)
    except UnsupportedExpression:
        return None
    return ctx.to_expr(ctx.normal(ctx.from_expr(e)))


@lru_cache(maxsize=CACHE_SIZE)
def _trig_normal(e: sp.Expr) -> sp.Expr:
    """:func:`trig_normal` of an expression with ``sin``/``cos`` (memoised)."""
    shifted = _evaluate_shifts(e)
    if shifted != e:
        return trig_normal(shifted)
    # the field QQ(x, sin a, cos a, exp r, f(t)): reduce and cancel there, no expression-level cancel
    out = _ratfunc_normal(e)
    if out is not None:
        return out
    memo: dict[sp.Expr, sp.Expr] = {}
    generic = canon_generator_form(e, memo)  # radicals, log …: generators of their own (see _canon_outside)
    if memo and (out := _ratfunc_normal(generic)) is not None:
        return out.xreplace({d: sub for sub, d in memo.items()})
    e = canon(e)
    args = _trig_args(e)
    num, den = sp.fraction(sp.together(e))
    try:
        num = _reduce_pythagoras(num, args)
        den = _reduce_pythagoras(den, args)
    except (sp.PolynomialError, GeneratorsError):
        return e
    return sp.cancel(num / den)


def _scalar_arg(expr: object, name: str) -> sp.Expr:
    """A scalar argument of the public :func:`tidy` / :func:`is_zero` (cheap: no tree walk for a sympy scalar).

    Strings (never parsed), ``None``, booleans, matrices and other objects are refused with an
    :class:`~frames.errors.InvalidExpressionError` naming ``name``; ``I`` and ``±oo``/``zoo`` are accepted
    (a zero test of them is meaningful), ``nan`` is refused after canonicalisation.
    """
    if isinstance(expr, sp.Expr) and not isinstance(expr, sp.MatrixBase | sp.MatrixExpr):
        return expr
    return as_expr(expr, name=name, complex_ok=True, finite=False)


def _refuse_nan(e: sp.Expr, name: str) -> None:
    if e is sp.nan:
        raise InvalidExpressionError(f"{name}: the expression is nan (undefined); nothing to simplify or test")


def tidy(expr: object) -> Any:  # an Expr, or an ImmutableMatrix for a matrix
    """Final-result simplification: ``cancel`` plus the Pythagorean identity when trig is present.

    A sympy matrix is tidied entrywise (and frozen).

    Raises
    ------
    InvalidExpressionError
        If ``expr`` is a string (never parsed), ``None``, a boolean, not an expression, or nan.
    """
    if isinstance(expr, sp.MatrixBase):
        return sp.ImmutableMatrix(sp.Matrix(expr).applyfunc(tidy))
    e = _scalar_arg(expr, "tidy: expr")
    if is_large_tidy_form(e):
        return e  # a large ring normal form (reduced, cancelled): converting it back and forth changes nothing
    e = canon(e)
    _refuse_nan(e, "tidy: expr")
    return e if e.is_Atom else _tidy(e)


@lru_cache(maxsize=CACHE_SIZE)
def _tidy(e: sp.Expr) -> sp.Expr:
    """:func:`tidy` of a canonical compound expression (memoised)."""
    if e.has(sp.sin, sp.cos):
        t = trig_normal(e)
        # sympy's count_ops walks and rebuilds the tree: for large expressions the cheap estimate decides
        size = op_count if op_count(e, RING_CANCEL_OPS) > RING_CANCEL_OPS else sp.count_ops
        if size(t) <= size(e):
            e = t
    return e


@overload
def is_zero(expr: object, *, ring_only: Literal[False] = False) -> bool: ...
@overload
def is_zero(expr: object, *, ring_only: bool) -> bool | None: ...
def is_zero(expr: object, *, ring_only: bool = False) -> bool | None:
    """Exact test for an identically vanishing expression: sound and complete on the library's class.

    The class: rational functions over QQ of symbols, undefined functions, and ``sin``, ``cos``, ``tan``,
    ``cot``, ``sec``, ``csc``, ``exp``, ``sinh``, ``cosh``, ``tanh`` of QQ-linear combinations of atoms
    (``sin(a + b)``, ``sin 2a``, ``exp(x + 1)``). There the expression is put in the canonical form of
    :class:`RationalFunctions` (arguments on a lattice basis, reduced modulo ``sin² + cos² − 1``) and
    vanishes iff its numerator is 0. Outside the class (radicals, ``log``, …) the unsupported
    sub-expressions are made independent generators (a zero there is exact) and a nonzero value at a
    rational point, to 30 digits, proves the expression nonzero; otherwise the test is undecided and raises.
    No ``sympy.simplify``. :func:`decide_zero` gives the same answer with its certificate.

    With ``ring_only=True`` the test is made in ``QQ[x, sin a, cos a, exp r, f(t)]/(sin² + cos² − 1)`` only:
    the answer is None outside that ring (radicals, floats, other functions: the caller decides by other
    means), never :class:`UndecidedError`. The decision is the one ``is_zero`` remembers, so asking both
    costs one reduction.

    Raises
    ------
    InvalidExpressionError
        If ``expr`` is a string (never parsed), ``None``, a boolean, a matrix, not an expression, or nan.
    UndecidedError
        If ``expr`` is outside the class and neither zero as an identity of independent generators nor
        visibly nonzero at a point (the message names the expression).

    Examples
    --------
    >>> import sympy as sp
    >>> a, b = sp.symbols("a b")
    >>> is_zero(sp.sin(a + b) - sp.sin(a) * sp.cos(b) - sp.cos(a) * sp.sin(b))
    True
    >>> is_zero(sp.cos(2 * a) - sp.cos(a) ** 2), is_zero(sp.tan(a) - sp.sin(a) / sp.cos(a))
    (False, True)
    >>> is_zero(sp.sqrt(a), ring_only=True) is None
    True
    """
    if ring_only:
        return _ring_only_is_zero(expr)
    e = _scalar_arg(expr, "is_zero: expr")
    if e == 0:
        return True
    _refuse_nan(e, "is_zero: expr")
    if e.is_number:
        z = e.is_zero  # sympy decides a number by evaluating it with error bounds
        if z is not None:
            return bool(z)
    elif e.is_Atom:
        return False  # a symbol
    decided = _ring_is_zero(e)
    return decided if decided is not None else _outside_is_zero(e)


@lru_cache(maxsize=CACHE_SIZE)
def _outside_is_zero(e: sp.Expr) -> bool:
    """:func:`is_zero` of an expression outside the ring (memoised), or :class:`UndecidedError`."""
    decision = decide_zero(e)
    if decision.is_zero is None:
        shown = str(e) if op_count(e, 60) <= 60 else f"{str(e)[:200]}… ({op_count(e)} operations)"
        raise UndecidedError(f"is_zero: cannot decide whether {shown} vanishes identically: {decision.reason}", e)
    return decision.is_zero


def _ring_only_is_zero(expr: object) -> bool | None:
    """:func:`is_zero` with ``ring_only=True``."""
    e = _scalar_arg(expr, "is_zero: expr")
    if e == 0:
        return True
    if e.is_Atom or e.is_number:
        return False if (e.is_Symbol or e.is_Rational) else None
    return _ring_is_zero(e)


@lru_cache(maxsize=CACHE_SIZE)
def _ring_is_zero(e: sp.Expr) -> bool | None:
    """Decide ``e == 0`` in ``QQ[x, sin a, cos a, exp r, f(t)]/(sin² + cos² − 1)`` without any gcd.

    ``e = num/den`` is built without cancellation; ``e`` vanishes iff ``num`` reduces to zero modulo
    the Pythagorean identities. A generic rational point usually proves ``num ≠ 0`` at the cost of one
    evaluation (:meth:`RationalFunctions.witness_nonzero`); otherwise the reduction decides. None when
    ``e`` is outside that ring (radicals, floats, other functions: the caller's route).
    """
    try:
        ctx = RationalFunctions([e], exp=True)
    except UnsupportedExpression:
        return None
    if ctx.vanishes(ctx.from_expr(e).numer):
        return True
    moved = identified_applications(ctx.atoms)
    if moved is None:
        return None  # two applications of one function at points not decided equal or different
    return _ring_is_zero(e.xreplace(moved)) if moved else False


def entries(a: sp.NDimArray | sp.MatrixBase) -> list[sp.Expr]:
    """All entries of an array or matrix, flattened (iterating an N-d array yields sub-arrays)."""
    if isinstance(a, sp.MatrixBase):
        return list(a)
    return list(sp.flatten(a.tolist()))
