r"""The exact zero test and its certificates.

Inside the class of :class:`~frames.algebra.RationalFunctions` (rational functions of symbols, undefined
functions, and ``sin``/``cos``/``tan``/…/``exp`` of QQ-linear combinations of atoms) the test is sound and
complete: the canonical form is zero iff the function vanishes identically. A nonzero answer carries a
certificate: a point of the generators (rational values, ``(sin b, cos b)`` on the unit circle at a
Pythagorean triple) where the numerator is nonzero — a ring homomorphism, so the value proves the function
nonzero — and a real point of the variables where the expression, evaluated to 30 digits, is visibly nonzero.

Outside the class (radicals, ``log``, ``Abs``, ``sin(x + √2)``, …) every sub-expression the ring cannot
represent is made an independent generator. An identity of independent generators holds whatever they stand
for, so a zero there is exact; a nonzero is only a hint, and the expression is then evaluated at rational
points to 30 digits: a value far from zero proves it nonzero. Otherwise the test is *undecided*:
:func:`decide_zero` says so with the reason and :func:`~frames.algebra.is_zero` raises
:class:`~frames.errors.UndecidedError` naming the expression. It never answers a silent ``False``, and it
never calls ``sympy.simplify``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import field
from functools import lru_cache
from typing import Any

import sympy as sp
from sympy.core.function import AppliedUndef

from .._value import Record
from ._budget import checkpoint
from ._flint import flint_product
from ._lattice import UnsupportedExpression, _split
from ._ratfunc import RationalFunctions
from ._scan import _is_undefined_derivative
from ._witness import _GENERIC

__all__ = [
    "ZeroDecision",
    "decide_zero",
    "generic_rank",
    "identified_applications",
    "tree_variables",
    "zero_test_form",
    "proved_full_rank",
    "proved_nonsingular",
]

#: digits of the numerical evaluation that certifies a nonzero value outside the ring
DIGITS = 30
#: a value of absolute size above this (at :data:`DIGITS` digits) is a nonzero value
NONZERO = sp.Float(10) ** -12


class ZeroDecision(Record):
    """The outcome of the zero test of one expression.

    Attributes
    ----------
    expr : Expr
        The expression tested.
    is_zero : bool or None
        True if it vanishes identically, False if not, None if undecided.
    witness : dict
        For a False answer inside the ring: rational values of the generators (``sin b``, ``cos b`` on the
        unit circle, symbols, exponentials) at which the numerator of the canonical form is ``value ≠ 0``.
    value : Rational or None
        That value (exact).
    point : dict
        For a False answer: rational values of the free symbols and functions at which ``expr`` evaluates
        (to 30 digits) to ``numeric``, far from zero. Empty if none was found (the exact witness suffices).
    numeric : Float or None
        That value.
    reason : str
        How the answer was reached, or why it is undecided.
    """

    expr: sp.Expr
    is_zero: bool | None
    witness: dict[sp.Expr, sp.Rational] = field(default_factory=dict)
    value: sp.Rational | None = None
    point: dict[sp.Expr, sp.Rational] = field(default_factory=dict)
    numeric: sp.Float | None = None
    reason: str = ""

    def __bool__(self) -> bool:
        raise TypeError("ZeroDecision: use .is_zero (True, False or None for undecided)")


def decide_zero(expr: sp.Expr) -> ZeroDecision:
    """Decide whether ``expr`` vanishes identically, with a certificate for a nonzero answer.

    Examples
    --------
    >>> import sympy as sp
    >>> a, b = sp.symbols("a b")
    >>> decide_zero(sp.sin(a + b) - sp.sin(a) * sp.cos(b) - sp.cos(a) * sp.sin(b)).is_zero
    True
    >>> d = decide_zero(sp.sin(2 * a) - sp.sin(a) * sp.cos(a))
    >>> d.is_zero, d.value != 0, abs(d.numeric) > 0.01
    (False, True, True)
    >>> decide_zero(sp.sqrt(a**2) - a).point  # sqrt(a²) = |a| for real a: not a
    {a: -5/11}
    >>> decide_zero(sp.log(2 * a) - sp.log(a) - sp.log(2)).is_zero is None  # true, but outside the ring
    True
    """
    e = sp.sympify(expr, strict=True)
    if e == 0:
        return ZeroDecision(e, True, reason="the expression is 0")
    try:
        ctx = RationalFunctions([e], exp=True)
    except UnsupportedExpression as exc:
        return _outside(e, str(exc))
    f = ctx.from_expr(e)
    num = ctx.reduce(f.numer)
    if not num:
        return ZeroDecision(e, True, reason="its canonical form is 0")
    moved = identified_applications(ctx.atoms)
    if moved:  # f(x y + x) and f(x (y + 1)): one value
        return decide_zero(e.xreplace(moved))
    if moved is None:
        return _outside(e, "two applications of an undefined function at points not decided equal")
    witness, value = _ring_witness(ctx, num, ctx.reduce(f.denom))
    point, numeric = _numeric_point(e)
    return ZeroDecision(e, False, witness, value, point, numeric, reason="its canonical form is not 0")


def identified_applications(atoms: Sequence[sp.Expr]) -> dict[sp.Expr, sp.Expr] | None:
    """``{f(b): f(a)}`` for the applications of one undefined function among ``atoms`` at points proved equal
    (:func:`decide_zero` of the differences of the arguments): ``f(x y + x)`` and ``f(x (y + 1))`` are one value,
    which the ring, keyed by structure, would otherwise hold independent. None when a pair of points is
    undecided."""
    reps: dict[tuple[Any, int], list[sp.Expr]] = {}
    out: dict[sp.Expr, sp.Expr] = {}
    for a in atoms:
        if not isinstance(a, AppliedUndef):
            continue
        group = reps.setdefault((a.func, len(a.args)), [])
        for r in group:
            same = [decide_zero(x - y).is_zero for x, y in zip(a.args, r.args, strict=True)]
            if None in same and False not in same:
                return None
            if all(same):
                out[a] = r
                break
        else:
            group.append(a)
    return out


def _ring_witness(ctx: RationalFunctions, num: Any, den: Any) -> tuple[dict[sp.Expr, sp.Rational], sp.Rational | None]:
    """A point of the generators where ``num ≠ 0 ≠ den`` (the generic points, then further ones)."""
    for point in ctx.generic_points(4 * len(_GENERIC)):
        n, d = num.evaluate(point), den.evaluate(point)
        if n != 0 and d != 0:
            QQ = ctx.ring.domain
            atoms = dict(zip(ctx.ring.gens, ctx.atoms, strict=True))
            return {atoms[g]: QQ.to_sympy(v) for g, v in point}, QQ.to_sympy(n) / QQ.to_sympy(d)
    return {}, None  # pragma: no cover - a nonzero polynomial is nonzero at one of 80 generic points


def _numeric_point(e: sp.Expr, tries: int = 6) -> tuple[dict[sp.Expr, sp.Rational], sp.Float | None]:
    """Rational values of the variables of ``e`` where it evaluates (to :data:`DIGITS` digits) far from zero."""
    derivs = sorted(e.atoms(sp.Derivative), key=sp.default_sort_key)
    funcs = sorted(e.atoms(AppliedUndef), key=sp.default_sort_key)
    syms = sorted(e.free_symbols, key=sp.default_sort_key)
    for k in range(tries):
        vals = [
            sp.Rational(*_GENERIC[(3 * i + 5 * k + 1) % len(_GENERIC)])
            for i in range(len(derivs) + len(funcs) + len(syms))
        ]
        point = dict(zip([*derivs, *funcs, *syms], vals, strict=True))
        x = e.xreplace(dict(zip(derivs, vals, strict=False)))
        x = x.xreplace(dict(zip(funcs, vals[len(derivs) :], strict=False)))
        x = x.xreplace(dict(zip(syms, vals[len(derivs) + len(funcs) :], strict=False)))
        try:
            v = sp.N(x, DIGITS)
        except (ValueError, TypeError, ZeroDivisionError):  # pragma: no cover - a pole or an evalf failure
            continue
        size = abs(v) if v.is_number else None  # complex values too (a modulus)
        if size is not None and size.is_Number and size.is_finite and size > NONZERO:
            return point, v
    return {}, None


def generic_rank(M: sp.MatrixBase) -> int:
    """A lower bound of the rank of the matrix of functions ``M``: its rank at generic points of the ring
    (:meth:`RationalFunctions.witness_rank`), 0 when an entry is outside the ring. Exact when it equals
    ``min(M.shape)``: ``generic_rank(M) == M.rows == M.cols`` proves ``M`` nonsingular."""
    M = sp.Matrix(M)
    if not M.rows or not M.cols:
        return 0
    try:
        return RationalFunctions(list(M), exp=True).witness_rank(M)
    except UnsupportedExpression:
        return 0


def proved_nonsingular(M: sp.MatrixBase) -> bool:
    """True if the square matrix ``M`` is proved nonsingular at a point (:func:`proved_full_rank`); False proves
    nothing."""
    return M.rows == M.cols and proved_full_rank(M)


def proved_full_rank(M: sp.MatrixBase) -> bool:
    """True if ``M`` is proved to have full rank ``min(M.shape)`` at a point; False proves nothing.

    Inside the ring, exactly: the entries at generic rational points (ring homomorphisms) have that rank
    (:meth:`RationalFunctions.witness_rank`, as :func:`~frames.algebra.generic_rank`). Outside it (radicals …):
    the entries evaluated to :data:`DIGITS` digits at a rational point of the variables give ``det M`` (or the
    determinant of ``M Mᴴ`` or ``Mᴴ M``, the Gram matrix of the shorter side) far from zero.
    """
    if min(M.shape) == 0:
        return True
    try:
        ctx = RationalFunctions(list(M), exp=True)
    except UnsupportedExpression:
        return _numeric_nonsingular(M)
    return ctx.witness_rank(M) == min(M.shape)


def _numeric_nonsingular(M: sp.MatrixBase, tries: int = 3) -> bool:
    for vals in generic_points(list(M), tries):
        try:
            A = [[_value_at(x, vals) for x in M.row(i)] for i in range(M.rows)]
        except (TypeError, ValueError, ZeroDivisionError):  # a pole, or a value that does not evaluate
            continue
        if not all(math.isfinite(abs(x)) for row in A for x in row):  # an overflow or a pole
            continue
        N = sp.Matrix(A)
        if N.rows != N.cols:  # full rank: the Gram matrix of the shorter side is nonsingular
            N = N * N.H if N.rows < N.cols else N.H * N
        det = complex(N.det(method="berkowitz"))
        if not math.isfinite(abs(det)):
            continue
        scale = max(1.0, *(abs(x) for x in N)) ** N.rows
        if abs(det) > 1e-9 * scale:
            return True
    return False


def _value_at(x: sp.Expr, vals: dict[sp.Basic, sp.Rational]) -> complex:
    """``x`` at the point ``vals``, to :data:`DIGITS` digits (the budget checked before each entry)."""
    checkpoint()
    return complex(sp.N(x.xreplace(vals), DIGITS))


def tree_variables(exprs: Sequence[sp.Expr]) -> set[sp.Basic]:
    """The variables of ``exprs``: symbols, applications of undefined functions and their derivatives (those
    found inside a derivative included), walking each shared node once."""
    atoms: set[sp.Basic] = set()
    seen: set[sp.Basic] = set()
    stack = list(exprs)
    while stack:
        e = stack.pop()
        if e in seen:
            continue
        seen.add(e)
        if isinstance(e, sp.Derivative | AppliedUndef) or e.is_Symbol:
            atoms.add(e)
        stack.extend(e.args)
    return atoms


def generic_points(exprs: list[sp.Expr], tries: int) -> list[dict[sp.Basic, sp.Rational]]:
    """Rational points of the variables of ``exprs`` (symbols, undefined functions, derivatives; the library's
    generic values), one per try. The variables are collected walking each shared node once."""
    order = sorted(tree_variables(exprs), key=sp.default_sort_key)
    # the derivatives first: a derivative's value is set on its own, before the function it differentiates
    order = [a for a in order if isinstance(a, sp.Derivative)] + [a for a in order if not isinstance(a, sp.Derivative)]
    return [
        {a: sp.Rational(*_GENERIC[(3 * i + 5 * k + 1) % len(_GENERIC)]) for i, a in enumerate(order)}
        for k in range(tries)
    ]


def _outside(e: sp.Expr, why: str) -> ZeroDecision:
    """The zero test of an expression outside the ring: opaque generators (radicals ``g = P**(1/q)`` reduced by
    ``g**q = P``), then a numerical certificate."""
    memo: dict[sp.Expr, sp.Symbol] = {}
    generic = _zero_test_form(e, memo)
    opaque = tuple(memo)
    roots = {d: sub for sub, d in memo.items() if _is_root(sub)}
    try:
        bases = [roots[d].base for d in roots]
        ctx = RationalFunctions([generic, *bases], exp=True)
        num = ctx.from_expr(generic).numer
        for d, root in roots.items():
            num = _reduce_root(ctx, num, ctx.generator(d), ctx.from_expr(root.base), root.exp.q)
        zero = not ctx.reduce(num)
    except UnsupportedExpression:  # pragma: no cover - zero_test_form leaves only what the ring represents
        zero = False
    if zero:
        relations = "".join(f", {r}**{r.exp.q} = {r.base}" for r in roots.values())
        return ZeroDecision(
            e,
            True,
            reason=f"outside the ring ({why}); 0 with {', '.join(map(str, opaque))} as generators{relations}",
        )
    point, numeric = _numeric_point(e)
    if numeric is not None:
        return ZeroDecision(e, False, point=point, numeric=numeric, reason=f"outside the ring ({why}); nonzero value")
    return ZeroDecision(
        e,
        None,
        reason=(
            f"undecided: outside the ring ({why}); not 0 with {', '.join(map(str, opaque))} as independent "
            f"generators, and no point found where its value is visibly nonzero"
        ),
    )


def zero_test_form(e: sp.Expr) -> tuple[sp.Expr, tuple[sp.Expr, ...]]:
    """``e`` with each maximal sub-expression the ring cannot represent replaced by a fresh symbol, and those
    sub-expressions (radicals, floats, ``log``, ``Abs``, ``π``, ``sin`` of a non-rational shift, …).

    The zero test's form; :func:`frames.algebra._normal.canon_generator_form` is canon's (stable generators)."""
    memo: dict[sp.Expr, sp.Symbol] = {}
    return _zero_test_form(e, memo), tuple(memo)


def _is_root(e: sp.Expr) -> bool:
    """True for ``P**(1/q)``, ``q ≥ 2``, ``P`` in the ring."""
    return isinstance(e, sp.Pow) and e.exp.is_Rational and e.exp.p == 1 and e.exp.q > 1 and _in_ring(e.base)


@lru_cache(maxsize=1024)
def _ring_normal(e: sp.Expr) -> sp.Expr:
    """The ring's normal form of ``e`` (in the ring): one generator for a radicand however it is written."""
    ctx = RationalFunctions([e], exp=True)
    return ctx.to_expr(ctx.normal(ctx.from_expr(e)))


@lru_cache(maxsize=1024)
def _in_ring(e: sp.Expr) -> bool:
    try:
        RationalFunctions([e], exp=True)
    except UnsupportedExpression:
        return False
    return True


def _reduce_root(ctx: RationalFunctions, p: Any, g: Any, base: Any, q: int) -> Any:
    """The numerator ``p`` (a polynomial with the generator ``g = P**(1/q)``), ``g**k`` replaced by
    ``P**(k//q) g**(k%q)``, ``P = base.numer/base.denom``, times ``base.denom**K`` (``K`` the largest ``k//q``): a
    polynomial of degree < q in ``g`` that vanishes iff ``p`` does (on ``g**q = P``)."""
    if g is None or not p:
        return p
    i = ctx.ring.gens.index(g)
    top = int(max(mon[i] for mon in p.monoms())) // int(q)
    if top == 0:
        return p
    parts: dict[int, dict[Any, Any]] = {}
    for mon, c in p.terms():
        k = int(mon[i])
        parts.setdefault(k, {})[(*mon[:i], k % q, *mon[i + 1 :])] = c
    out = ctx.ring.zero
    for k, terms in parts.items():
        checkpoint()
        m = k // int(q)
        out += flint_product(ctx.ring(terms), flint_product(base.numer**m, base.denom ** (top - m)))
    return out


def _zero_test_form(e: sp.Expr, memo: dict[sp.Expr, sp.Symbol], seen: dict[sp.Expr, sp.Expr] | None = None) -> sp.Expr:
    if e.is_Symbol or e.is_Rational:
        return e
    if isinstance(e, sp.Add | sp.Mul):  # shared sub-trees of a large expression are walked once
        seen = {} if seen is None else seen
        out = seen.get(e)
        if out is None:
            checkpoint()
            out = seen[e] = e.func(*(_zero_test_form(a, memo, seen) for a in e.args))
        return out
    if isinstance(e, sp.Pow) and e.exp.is_Integer:
        return _zero_test_form(e.base, memo, seen) ** e.exp  # type: ignore[no-any-return]
    if isinstance(e, sp.Pow) and e.exp.is_Rational and _in_ring(e.base):  # P**(p/q) = (P**(1/q))**p
        root = sp.Pow(_ring_normal(e.base), sp.Rational(1, e.exp.q), evaluate=False)
        if root not in memo:
            memo[root] = sp.Dummy("root")
        return memo[root] ** e.exp.p  # type: ignore[no-any-return]
    if _representable(e):
        return e
    shifted = _expand_constant_shift(e)
    if shifted is not None:
        return _zero_test_form(shifted, memo, seen)
    if e not in memo:
        memo[e] = sp.Dummy("opaque")
    return memo[e]


def _expand_constant_shift(e: sp.Expr) -> sp.Expr | None:
    """``sin(b + c) = sin b cos c + cos b sin c`` (and ``cos``, ``tan``, …) for a constant ``c`` the lattice does not
    take (``π/3``, ``√2``), ``b`` a representable argument; None otherwise. ``sin c``, ``cos c`` stay as sympy
    evaluates them (``√3/2``)."""
    if not isinstance(e, sp.sin | sp.cos | sp.tan | sp.cot | sp.sec | sp.csc):
        return None
    a = e.args[0]
    c, b = a.as_independent(*a.free_symbols, as_Add=True) if a.free_symbols else (a, sp.S.Zero)
    if c == 0 or b == 0 or not _representable(sp.sin(b)):
        return None
    s = sp.sin(b) * sp.cos(c) + sp.cos(b) * sp.sin(c)
    k = sp.cos(b) * sp.cos(c) - sp.sin(b) * sp.sin(c)
    return {sp.sin: s, sp.cos: k, sp.tan: s / k, sp.cot: k / s, sp.sec: 1 / k, sp.csc: 1 / s}[type(e)]


@lru_cache(maxsize=4096)
def _representable(e: sp.Expr) -> bool:
    """True if the ring represents the function atom ``e`` itself."""
    if e is sp.E:
        return True
    if isinstance(e, AppliedUndef) or _is_undefined_derivative(e):
        return True
    trig = isinstance(e, sp.sin | sp.cos | sp.tan | sp.cot | sp.sec | sp.csc)
    if not (trig or isinstance(e, sp.exp | sp.sinh | sp.cosh | sp.tanh)):
        return False
    a = e.args[0]
    if a.has(sp.I) or (not trig and type(e)(a) != e):
        return False
    try:
        _split(a, trig)
    except UnsupportedExpression:
        return False
    return True
