r"""Characteristic polynomials of linearisations and their critical values, certified by exact arithmetic.

``det(sI − A)`` is formed by Berkowitz's division-free recurrence (no simplification, the budget checked at
every product), a structural factor ``s^k`` (a state whose row or column of ``A`` vanishes identically: a
conserved or an ignorable direction) taken out first. Along one parameter ``p`` (the others given exact
values) the constant coefficient ``c_n(p)`` and the Hurwitz determinant ``Δ_{n−1}(p)`` are polynomials whose
real roots are the only places where the stability class can change (an eigenvalue through 0, a complex pair
through the imaginary axis). They are found from values of ``A`` at rational nodes: exact rationals when every
number is rational, else real intervals (``mpmath.iv``) of rigorous enclosure; the polynomial is interpolated in
the same arithmetic (its degree is bounded from the degrees of the entries of ``A`` in ``p``), and its roots are
isolated and refined by bisection on the *certified* sign of the polynomial in exact rational interval
arithmetic: every digit returned is proved, never read off a float eigenvalue.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp

from .._value import Value
from ..algebra import is_zero, op_count, tidy
from ..algebra.internal import checkpoint
from ..errors import ArgumentError

__all__ = [
    "CharPoly",
    "CriticalValue",
    "berkowitz",
    "certified_roots",
    "hurwitz_determinant",
    "iv_precision",
]

#: coefficients below this size (operations) are written in the canonical form
_TIDY = 3000


def berkowitz(M: Sequence[Sequence[Any]], one: Any = 1) -> list[Any]:
    r"""The coefficients ``[1, c_1, …, c_n]`` of ``det(sI − M) = s^n + c_1 s^{n−1} + … + c_n``, highest first.

    Berkowitz's recurrence: only sums and products of entries (any ring: sympy trees, rationals, intervals), no
    division, ``O(n⁴)`` products; the budget's checkpoint runs before each.
    """
    n = len(M)
    if n == 0:
        return [one]
    C: list[Any] = [one, -M[0][0]]
    for r in range(1, n):
        row = [M[r][j] for j in range(r)]
        col = [M[i][r] for i in range(r)]
        t: list[Any] = [one, -M[r][r]]
        v = col
        for _ in range(r):
            checkpoint()
            t.append(-_dot(row, v))
            v = [_dot([M[i][j] for j in range(r)], v) for i in range(r)]
        C = [_dot([t[i - j] for j in range(min(i, r) + 1)], C[: min(i, r) + 1]) for i in range(r + 2)]
    return C


def _dot(a: Sequence[Any], b: Sequence[Any]) -> Any:
    terms = [x * y for x, y in zip(a, b, strict=True)]
    out = terms[0] if terms else 0
    for x in terms[1:]:
        out = out + x
    return out


def hurwitz_determinant(c: Sequence[Any], k: int, zero: Any = 0) -> Any:
    r"""``Δ_k`` of the monic polynomial ``s^n + c_1 s^{n−1} + … + c_n`` (``c = [1, c_1, …, c_n]``): the leading
    ``k × k`` minor of the Hurwitz matrix ``H_ij = c_{2j−i}`` (1-based; ``c_m = 0`` outside ``0..n``), by
    division-free Berkowitz (the constant coefficient of the characteristic polynomial of the minor)."""
    n = len(c) - 1

    def h(i: int, j: int) -> Any:
        m = 2 * j - i
        return c[m] if 0 <= m <= n else zero

    if k == 0:
        return c[0]
    H = [[h(i, j) for j in range(1, k + 1)] for i in range(1, k + 1)]
    d = berkowitz(H, one=c[0])[-1]  # c_0 = 1: the ring's one
    return d if k % 2 == 0 else -d


class CharPoly(Value):
    r"""``det(sI − A) = s^k · (s^m + c_1 s^{m−1} + … + c_m)``: the structural factor ``s^k`` and the rest.

    Attributes
    ----------
    s : Symbol
        The variable.
    structural : int
        ``k``: the zero eigenvalues of ``A`` for every value of the parameters, one for each state whose row of
        ``A`` is identically zero (a quantity conserved to first order: the forward speed of a bicycle) or, else,
        whose column is (an ignorable direction: nothing depends on it), then one for each trailing coefficient
        of the rest that vanishes identically (a conserved combination of states: the yaw momentum of a disc).
    zero_states : tuple of (Expr, str)
        The states (or combinations ``w·x`` with ``w A = 0``, None if too large to find) of the factor ``s^k``
        and why (``"conserved"``: zero row; ``"ignorable"``: zero column; ``"conserved combination"``).
    coeffs : tuple of Expr
        ``(1, c_1, …, c_m)`` of the reduced polynomial, exact (canonical when small, else exact trees).
    """

    s: sp.Symbol
    structural: int
    zero_states: tuple[tuple[sp.Symbol, str], ...]
    coeffs: tuple[sp.Expr, ...]

    @property
    def reduced(self) -> sp.Expr:
        """``s^m + c_1 s^{m−1} + … + c_m`` (the factor ``s^k`` left out)."""
        m = len(self.coeffs) - 1
        return sp.Add(*[c * self.s ** (m - i) for i, c in enumerate(self.coeffs)])

    @property
    def expr(self) -> sp.Expr:
        """``s^k`` times the reduced polynomial: ``det(sI − A)``."""
        return self.s**self.structural * self.reduced

    def hurwitz(self, k: int) -> sp.Expr:
        """The Hurwitz determinant ``Δ_k`` of the reduced polynomial (exact, not expanded)."""
        return hurwitz_determinant(list(self.coeffs), k, sp.S.Zero)

    def __repr__(self) -> str:
        zs = ", ".join(f"{x} ({why})" for x, why in self.zero_states)
        return f"CharPoly(s^{self.structural} [{zs}] · degree-{len(self.coeffs) - 1} polynomial)"


def structural_split(A: sp.ImmutableMatrix, states: Sequence[sp.Symbol]) -> tuple[list[int], list[tuple[Any, str]]]:
    """The indices of the states kept and the structural zero states removed, with why; removing a zero row or
    column ``j`` (and its column or row) divides ``det(sI − A)`` by ``s`` exactly, repeated to a fixed point."""
    keep = list(range(A.rows))
    gone: list[tuple[Any, str]] = []
    while True:
        for j in keep:
            if all(_zero(A[j, i]) for i in keep):
                gone.append((states[j], "conserved"))
                break
            if all(_zero(A[i, j]) for i in keep):
                gone.append((states[j], "ignorable"))
                break
        else:
            return keep, gone
        keep.remove(states.index(gone[-1][0]))


def _zero(e: sp.Expr) -> bool:
    return e == 0 or (op_count(e, 400) <= 400 and is_zero(e))


def charpoly_of(A: sp.ImmutableMatrix, states: Sequence[sp.Symbol], s: sp.Symbol) -> CharPoly:
    """The :class:`CharPoly` of ``A`` (see :meth:`Linearization.charpoly`)."""
    keep, gone = structural_split(A, states)
    M = [[A[i, j] for j in keep] for i in keep]
    c = berkowitz(M, one=sp.S.One)
    c = [tidy(e) if op_count(e, _TIDY) <= _TIDY else e for e in c]
    j = 0
    while len(c) > 1 and _zero_for_all(c[-1]):
        c.pop()
        j += 1
    if j:  # zero eigenvalues of the coupled block for every value: conserved combinations (left null vectors)
        gone += [(w, "conserved combination") for w in _conserved(M, [states[i] for i in keep], j)]
    return CharPoly(s, len(gone), tuple(gone), tuple(c))


def _zero_for_all(e: sp.Expr) -> bool:
    """``e`` vanishes identically: 0 at a random rational point is necessary, the zero test decides."""
    if e == 0:
        return True
    free = sorted(e.free_symbols, key=str)
    pt = {x: Fraction(7 + 3 * k, 11 + 2 * k) for k, x in enumerate(free)}
    try:
        with iv_precision(120):
            v = evaluate([e], pt, False)[0]
        if 0 not in v:
            return False
    except (ZeroDivisionError, ArgumentError):
        pass
    return bool(is_zero(e))


def _conserved(M: list[list[sp.Expr]], states: Sequence[sp.Symbol], j: int) -> list[Any]:
    """Up to ``j`` conserved linear combinations ``w·x`` (``w A = 0`` identically), when ``A`` is small enough to
    find them exactly; else ``None`` for each."""
    if all(op_count(e, 200) <= 200 for row in M for e in row):
        ns = sp.Matrix(M).T.nullspace(simplify=False)
        out = [tidy(sp.Add(*[w[i] * x for i, x in enumerate(states)])) for w in ns[:j]]
        if len(out) == j:
            return out
    return [None] * j


# ----------------------------------------------------------------------------- numbers: exact or intervals


@contextlib.contextmanager
def iv_precision(bits: int) -> Iterator[None]:
    """``mpmath.iv`` at ``bits`` bits of working precision inside the block (at least the current one)."""
    old = mpmath.iv.prec
    mpmath.iv.prec = max(old, bits)
    try:
        yield
    finally:
        mpmath.iv.prec = old


class _Inexact(Exception):
    """A node has no exact rational value (a square root, π, a sine): intervals are needed."""


_IV_FUNCS = {
    sp.sin: lambda x: mpmath.iv.sin(x),
    sp.cos: lambda x: mpmath.iv.cos(x),
    sp.tan: lambda x: mpmath.iv.tan(x),
    sp.exp: lambda x: mpmath.iv.exp(x),
    sp.log: lambda x: mpmath.iv.log(x),
    sp.atan: lambda x: mpmath.iv.atan2(x, mpmath.iv.mpf(1)),
    sp.asin: lambda x: mpmath.iv.atan2(x, mpmath.iv.sqrt(1 - x * x)),
    sp.acos: lambda x: mpmath.iv.atan2(mpmath.iv.sqrt(1 - x * x), x),
}


def _to_fraction(x: sp.Basic) -> Fraction:
    if x.is_Rational:
        return Fraction(int(x.p), int(x.q))
    if x.is_Float:
        return _mpf_frac(x._mpf_)  # type: ignore[attr-defined]
    raise _Inexact


def fold_args(e: sp.Basic, ev: Callable[[sp.Basic], Any]) -> Any:
    """The value of a sum or a product from the values ``ev`` of its arguments, combined left to right (the one
    fold of the node-by-node evaluators: intervals, exact fractions, arrays)."""
    val = ev(e.args[0])
    for a in e.args[1:]:
        val = val + ev(a) if e.is_Add else val * ev(a)
    return val


def evaluate(exprs: Sequence[sp.Expr], point: Mapping[sp.Symbol, Any], exact: bool) -> list[Any]:
    """The values of ``exprs`` at the rational ``point``: exact :class:`~fractions.Fraction` s (``exact``; raises
    ``_Inexact`` at an irrational node) or ``mpmath.iv`` intervals at the working precision, each distinct node
    once. A pole raises ``ZeroDivisionError``."""
    memo: dict[sp.Basic, Any] = {}
    iv = mpmath.iv

    def num(q: Any) -> Any:
        if not isinstance(q, Fraction):  # an interval already
            if exact:
                raise _Inexact
            return q
        return q if exact else iv.mpf(q.numerator) / q.denominator

    def ev(e: sp.Basic) -> Any:
        hit = memo.get(e)
        if hit is not None:
            return hit
        if e in point:
            val = num(point[e])
        elif e.is_Rational or e.is_Float:
            val = num(_to_fraction(e))
        elif e is sp.pi:
            if exact:
                raise _Inexact
            val = iv.pi
        elif e.is_Add or e.is_Mul:
            val = fold_args(e, ev)
        elif e.is_Pow:
            b, x = e.args
            bv = ev(b)
            if x.is_Integer:
                if int(x) < 0:
                    if (exact and bv == 0) or (not exact and 0 in bv):
                        raise ZeroDivisionError(f"{b} vanishes")
                    val = (1 / bv) ** (-int(x))
                else:
                    val = bv ** int(x)
            elif exact:
                raise _Inexact
            elif x == sp.S.Half:
                val = iv.sqrt(bv)
            else:
                val = iv.exp(ev(x) * iv.log(bv))
        elif type(e) in _IV_FUNCS and len(e.args) == 1:
            if exact:
                if e.args[0] == 0 and type(e) in (sp.sin, sp.tan, sp.atan, sp.asin):
                    val = Fraction(0)
                elif e.args[0] == 0 and type(e) in (sp.cos, sp.exp):
                    val = Fraction(1)
                else:
                    raise _Inexact
            else:
                val = _IV_FUNCS[type(e)](ev(e.args[0]))
        else:
            raise ArgumentError(f"cannot evaluate {type(e).__name__} nodes ({e!s:.60}) in interval arithmetic")
        memo[e] = val
        return val

    out = []
    for e in exprs:
        checkpoint()
        out.append(ev(sp.sympify(e, strict=True)))
    return out


def _frac_interval(x: Any) -> tuple[Fraction, Fraction]:
    """An exact rational interval containing ``x`` (a Fraction or an ``mpmath.iv`` interval)."""
    if isinstance(x, Fraction):
        return x, x
    a, b = x._mpi_
    return _mpf_frac(a), _mpf_frac(b)


def _mpf_frac(t: tuple[int, int, int, int]) -> Fraction:
    """The exact value of a raw mpmath number ``(sign, mantissa, exponent, bits)``; an infinite end (an
    enclosure that blew up) is a pole of the computation."""
    sign, man, exp, _bc = t
    if not man:
        if t != mpmath.libmp.fzero:
            raise ZeroDivisionError("an unbounded interval")
        return Fraction(0)
    v = Fraction(int(man)) * (Fraction(2) ** int(exp))
    return -v if sign else v


# ----------------------------------------------------------------------------- polynomials with rational intervals

Ball = tuple[Fraction, Fraction]


def _iadd(a: Ball, b: Ball) -> Ball:
    return a[0] + b[0], a[1] + b[1]


def _imul(a: Ball, b: Ball) -> Ball:
    p = (a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1])
    return min(p), max(p)


def poly_at(coeffs: Sequence[Ball], x: Ball) -> Ball:
    """Horner's scheme in exact rational interval arithmetic (``coeffs`` highest first): an enclosure."""
    acc: Ball = (Fraction(0), Fraction(0))
    for c in coeffs:
        acc = _iadd(_imul(acc, x), c)
    return acc


def _sign(b: Ball) -> int | None:
    """+1, −1, 0 (exactly zero), or None (the enclosure contains 0 and more)."""
    if b[0] > 0:
        return 1
    if b[1] < 0:
        return -1
    if b[0] == b[1] == 0:
        return 0
    return None


def derivative(coeffs: Sequence[Ball]) -> list[Ball]:
    n = len(coeffs) - 1
    return [(c[0] * (n - i), c[1] * (n - i)) for i, c in enumerate(coeffs[:-1])]


def interpolate(nodes: Sequence[Any], values: Sequence[Any]) -> list[Any]:
    """The coefficients (highest first) of the polynomial through ``(nodes, values)`` (Newton's divided
    differences, in the values' arithmetic: exact for Fractions, enclosing for intervals)."""
    n = len(nodes)
    d = list(values)
    for j in range(1, n):
        for i in range(n - 1, j - 1, -1):
            d[i] = (d[i] - d[i - 1]) / (nodes[i] - nodes[i - j])
    # expand the Newton form: p = d0 + (x − x0)(d1 + (x − x1)(…)), lowest degree first
    coef = [d[n - 1]]
    for i in range(n - 2, -1, -1):
        new = [d[i] + 0 * d[i]] + [0 * d[i]] * len(coef)
        for k, ck in enumerate(coef):
            new[k + 1] = new[k + 1] + ck
            new[k] = new[k] - nodes[i] * ck
        coef = new
    return coef[::-1]


def certified_roots(
    coeffs: Sequence[Ball], lo: Fraction, hi: Fraction, exact: bool, depth: int = 60
) -> tuple[list[tuple[Fraction, Fraction]], list[tuple[Fraction, Fraction]]]:
    """The real roots of the polynomial in ``[lo, hi]``: isolating intervals, each with a certified sign change
    and a derivative of one sign (a unique simple root), and the intervals left undecided (a double root, or
    an enclosure too wide to decide) after ``depth`` halvings. An exact polynomial must be square-free."""
    dcoef = derivative(coeffs)
    found: list[tuple[Fraction, Fraction]] = []
    open_: list[tuple[Fraction, Fraction]] = []
    stack = [(lo, hi, 0)]
    while stack:
        checkpoint()
        a, b, k = stack.pop()
        whole = poly_at(coeffs, (a, b))
        if _sign(whole) in (1, -1):
            continue
        sa, sb = _sign(poly_at(coeffs, (a, a))), _sign(poly_at(coeffs, (b, b)))
        if exact and sa == 0:
            found.append((a, a))
            if a != b:
                stack.append((a + (b - a) / 2**40, b, k + 1))  # past the exact root
            continue
        if sa is not None and sb is not None and sa * sb < 0 and _sign(poly_at(dcoef, (a, b))) in (1, -1):
            found.append((a, b))
            continue
        if k >= depth:
            if not (sa is not None and sb is not None and sa == sb and exact):
                open_.append((a, b))
            continue
        m = (a + b) / 2
        stack += [(m, b, k + 1), (a, m, k + 1)]
    found = sorted(set(found))
    return found, open_


def refine(coeffs: Sequence[Ball], a: Fraction, b: Fraction, width: Fraction) -> tuple[Fraction, Fraction]:
    """Halve ``[a, b]`` (a certified sign change) on the certified sign of the polynomial at the midpoint until
    it is narrower than ``width``; stops early where the enclosure of the coefficients cannot decide."""
    if a == b:
        return a, b
    sa = _sign(poly_at(coeffs, (a, a)))
    while b - a > width:
        checkpoint()
        m = (a + b) / 2
        sm = _sign(poly_at(coeffs, (m, m)))
        if sm == 0:
            return m, m
        if sm is None:
            break
        a, b = (m, b) if sm == sa else (a, m)
    return a, b


class CriticalValue(Value):
    r"""A value of a parameter where the stability of a linearisation changes, as a certified real algebraic
    number: a root of an exact polynomial (or of a polynomial known within rational intervals when the
    parameters are irrational) isolated in ``[lo, hi]``.

    Attributes
    ----------
    parameter : Symbol
    kind : str
        ``"real"``: a real eigenvalue crosses 0 (a root of the constant coefficient ``c_m`` of the reduced
        characteristic polynomial); ``"complex"``: a complex pair crosses the imaginary axis (a root of the
        Hurwitz determinant ``Δ_{m−1}``).
    coefficients : tuple of (Fraction, Fraction)
        The polynomial in ``parameter``, highest degree first, each coefficient enclosed in a rational interval
        (equal ends: exact).
    lo, hi : Fraction
        The isolating interval: the polynomial changes sign across it and its derivative keeps one sign on it.
    before, after : str
        The stability class of the reduced state just below and just above the value.
    """

    parameter: sp.Symbol
    kind: str
    coefficients: tuple[tuple[Fraction, Fraction], ...]
    lo: Fraction
    hi: Fraction
    before: str = ""
    after: str = ""

    @property
    def exact(self) -> bool:
        """True if the polynomial is exact (rational coefficients)."""
        return all(a == b for a, b in self.coefficients)

    @property
    def polynomial(self) -> sp.Expr:
        """The polynomial in ``parameter`` (the midpoints of the enclosures when not exact)."""
        x = self.parameter
        n = len(self.coefficients) - 1
        return sp.Add(*[sp.Rational((a + b) / 2) * x ** (n - i) for i, (a, b) in enumerate(self.coefficients)])

    def interval(self, digits: int) -> tuple[sp.Rational, sp.Rational]:
        """An isolating interval of relative width below ``10^-digits``, by exact bisection."""
        if not isinstance(digits, int) or isinstance(digits, bool) or digits < 1:
            raise ArgumentError(f"CriticalValue.interval: digits: expected a positive int, got {digits!r:.40}")
        scale = max(abs(self.lo), abs(self.hi), Fraction(1, 10**digits))
        a, b = refine(self.coefficients, self.lo, self.hi, scale / 10 ** (digits + 2))
        if b - a > scale / 10 ** (digits + 1):
            raise ArgumentError(
                f"CriticalValue.interval: {self.parameter} is known to {self._digits(a, b)} digits only (the "
                "polynomial's coefficients are enclosed too widely; compute it with more digits)"
            )
        return sp.Rational(a.numerator, a.denominator), sp.Rational(b.numerator, b.denominator)

    @staticmethod
    def _digits(a: Fraction, b: Fraction) -> int:
        if b == a:
            return 10**6
        return max(0, int(-math.log10(float((b - a) / max(abs(a), abs(b), Fraction(1, 10**300))))))

    def evalf(self, digits: int = 15) -> sp.Float:
        """The value to ``digits`` significant digits, every one certified (exact rational bisection)."""
        a, b = self.interval(digits)
        return sp.Float((a + b) / 2, digits)

    def __float__(self) -> float:
        return float((self.lo + self.hi) / 2) if self.lo == self.hi else float(self.evalf(17))

    def __repr__(self) -> str:
        return f"CriticalValue({self.parameter} = {self.evalf(15)}, {self.kind}, {self.before} -> {self.after})"


# ----------------------------------------------------------------------------- the drivers


def degree_in(e: sp.Basic, p: sp.Symbol, memo: dict[sp.Basic, int | None] | None = None) -> int | None:
    """The degree of ``e`` as a polynomial in ``p`` (an upper bound: no cancellation is looked for), or None if
    ``p`` enters otherwise (a denominator, a function)."""
    memo = {} if memo is None else memo
    hit = memo.get(e, -1)
    if hit != -1:
        return hit
    out: int | None
    if e == p:
        out = 1
    elif not e.args or p not in e.free_symbols:
        out = 0
    elif e.is_Add or e.is_Mul:
        ds = [degree_in(a, p, memo) for a in e.args]
        out = None if None in ds else (max if e.is_Add else sum)(ds)  # type: ignore[arg-type, type-var]
    elif e.is_Pow and e.args[1].is_Integer and int(e.args[1]) >= 0:
        d = degree_in(e.args[0], p, memo)
        out = None if d is None else d * int(e.args[1])
    else:
        out = None
    memo[e] = out
    return out


def _ring(exact: bool) -> tuple[Any, Any]:
    """The zero and one of the arithmetic."""
    return (Fraction(0), Fraction(1)) if exact else (mpmath.iv.mpf(0), mpmath.iv.mpf(1))


def coefficients_at(M: Sequence[Sequence[sp.Expr]], point: Mapping[sp.Symbol, Any], exact: bool) -> list[Any]:
    """``[1, c_1, …, c_m]`` of ``det(sI − M)`` at ``point`` (symbol -> Fraction or interval), in exact or
    interval arithmetic."""
    m = len(M)
    vals = evaluate([e for row in M for e in row], point, exact)
    return berkowitz([vals[i * m : (i + 1) * m] for i in range(m)], one=_ring(exact)[1])


def exact_point(subs: Mapping[sp.Symbol, sp.Expr]) -> tuple[dict[sp.Symbol, Any], bool]:
    """``subs`` as Fractions (floats by their exact binary value) where rational, else as intervals at the
    working precision; and whether all are rational."""
    out: dict[sp.Symbol, Any] = {}
    exact = True
    for k, v in subs.items():
        try:
            out[k] = _to_fraction(v)
        except _Inexact:
            out[k] = evaluate([v], {}, False)[0]
            exact = False
    return out, exact


def classify(c: Sequence[Any], exact: bool, tol: float | None = None) -> tuple[str, int]:
    """The stability class of the monic polynomial ``c`` (values at a point): ``"asymptotically stable"``,
    ``"unstable"`` or ``"marginal"``, and the number of its zero roots (trailing coefficients that are zero:
    exactly, or within their enclosures).

    Asymptotic stability is decided exactly (every Hurwitz determinant certified positive); otherwise the roots
    are found at 60 digits from the (exact or enclosed) coefficients, and one with real part above ``tol``
    (default ``1e-12`` of the roots' scale, well above the splitting of a multiple root) makes it unstable."""
    ivals = [_frac_interval(x) for x in c]
    zeros = 0
    while len(ivals) > 1 and ivals[-1][0] <= 0 <= ivals[-1][1]:
        ivals.pop()
        zeros += 1
    n = len(ivals) - 1
    if n == 0:
        return ("marginal" if zeros else "asymptotically stable"), zeros
    if not zeros and all(_sign(_hurwitz_ball(ivals, k)) == 1 for k in range(1, n + 1)):
        return "asymptotically stable", 0
    with mpmath.workdps(60):
        co = [mpmath.mpf((a + b).numerator) / (2 * (a + b).denominator) for a, b in ivals]
        try:
            roots = mpmath.polyroots(co, maxsteps=200, extraprec=200)
        except mpmath.NoConvergence:  # a multiple root: the companion matrix's eigenvalues
            comp = mpmath.zeros(n, n)
            for k in range(n):
                comp[0, k] = -co[k + 1] / co[0]
                if k:
                    comp[k, k - 1] = 1
            roots = list(mpmath.eig(comp, left=False, right=False))
        scale = max([abs(r) for r in roots] + [mpmath.mpf(1)])
        band = mpmath.mpf(tol) if tol is not None else scale * mpmath.mpf(10) ** -12
        re = [mpmath.re(r) for r in roots]
    if any(x > band for x in re):
        return "unstable", zeros
    if zeros or any(x >= -band for x in re):
        return "marginal", zeros
    return "asymptotically stable", zeros


def _hurwitz_ball(ivals: Sequence[Ball], k: int) -> Ball:
    """An enclosure of ``Δ_k`` from coefficient enclosures (exact rational interval arithmetic)."""

    def neg(a: Ball) -> Ball:
        return -a[1], -a[0]

    class _B:
        __slots__ = ("v",)

        def __init__(self, v: Ball) -> None:
            self.v = v

        def __add__(self, o: _B) -> _B:
            return _B(_iadd(self.v, o.v))

        def __mul__(self, o: _B) -> _B:
            return _B(_imul(self.v, o.v))

        def __neg__(self) -> _B:
            return _B(neg(self.v))

    zero = _B((Fraction(0), Fraction(0)))
    return hurwitz_determinant([_B(v) for v in ivals], k, zero).v


def critical_search(
    M: Sequence[Sequence[sp.Expr]], parameter: sp.Symbol, lo: Fraction, hi: Fraction,
    point: Mapping[sp.Symbol, sp.Expr], digits: int, deflate: int = 0,
) -> list[CriticalValue]:  # fmt: skip
    """The certified critical values of ``parameter`` in ``[lo, hi]`` for the reduced matrix ``M`` (structural
    zero states removed; ``deflate`` more trailing coefficients of its polynomial vanish identically), the other
    symbols at ``point`` (exact values). See :meth:`Linearization.certified_critical_values`."""
    m = len(M) - deflate
    memo: dict[sp.Basic, int | None] = {}
    degs = [degree_in(sp.sympify(e, strict=True), parameter, memo) for row in M for e in row]
    if None in degs:
        raise ArgumentError(
            f"Linearization.certified_critical_values: parameter: A is not polynomial in {parameter} (it enters a "
            "denominator or a function); certified values need a polynomial dependence"
        )
    d = max([0, *(x for x in degs if x is not None)])
    with iv_precision(int(digits * 3.33 * 2) + 256):
        pt, exact = exact_point(point)
        bounds = {"real": m * d, "complex": d * m * (m - 1) // 2}
        npts = max(bounds.values()) + 1
        # Chebyshev-like rational nodes on [lo, hi] (exact: any nodes; intervals: well spread)
        nodes = [lo + (hi - lo) * Fraction(round((1 - math.cos(math.pi * (2 * k + 1) / (2 * npts))) * 2**30), 2**31)
                 for k in range(npts)]  # fmt: skip
        nodes = sorted(set(nodes))
        values: dict[str, list[Any]] = {"real": [], "complex": []}
        for x in nodes:
            try:
                c = coefficients_at(M, pt | {parameter: x}, exact)
            except _Inexact:
                exact = False
                return critical_search_iv(M, parameter, lo, hi, point, digits, bounds, deflate)
            values["real"].append(c[m])
            values["complex"].append(hurwitz_determinant(c[: m + 1], m - 1, _ring(exact)[0]) if m >= 2 else c[0] * 0)
        return _from_values(M, parameter, lo, hi, pt, exact, bounds, nodes, values, deflate)


def critical_search_iv(
    M: Sequence[Sequence[sp.Expr]], parameter: sp.Symbol, lo: Fraction, hi: Fraction,
    point: Mapping[sp.Symbol, sp.Expr], digits: int, bounds: Mapping[str, int], deflate: int = 0,
) -> list[CriticalValue]:  # fmt: skip
    """:func:`critical_search` in interval arithmetic (some value is irrational)."""
    m = len(M) - deflate
    pt, _exact = exact_point(point)
    npts = max(bounds.values()) + 1
    nodes = sorted({lo + (hi - lo) * Fraction(round((1 - math.cos(math.pi * (2 * k + 1) / (2 * npts))) * 2**30), 2**31)
                    for k in range(npts)})  # fmt: skip
    values: dict[str, list[Any]] = {"real": [], "complex": []}
    zero = mpmath.iv.mpf(0)
    for x in nodes:
        c = coefficients_at(M, pt | {parameter: x}, False)
        values["real"].append(c[m])
        values["complex"].append(hurwitz_determinant(c[: m + 1], m - 1, zero) if m >= 2 else zero)
    return _from_values(M, parameter, lo, hi, pt, False, bounds, nodes, values, deflate)


def _from_values(
    M: Sequence[Sequence[sp.Expr]], parameter: sp.Symbol, lo: Fraction, hi: Fraction, pt: Mapping[sp.Symbol, Any],
    exact: bool, bounds: Mapping[str, int], nodes: Sequence[Fraction], values: Mapping[str, list[Any]],
    deflate: int = 0,
) -> list[CriticalValue]:  # fmt: skip
    cands: list[tuple[Fraction, Fraction, str, tuple[Ball, ...]]] = []
    for kind in ("real", "complex"):
        deg = bounds[kind]
        xs = nodes[: deg + 1]
        if exact:
            co = interpolate(xs, values[kind][: deg + 1])
        else:
            ivx = [mpmath.iv.mpf(x.numerator) / x.denominator for x in xs]
            co = interpolate(ivx, values[kind][: deg + 1])
        balls: list[Ball] = [_frac_interval(x) for x in co]
        while balls and balls[0] == (0, 0):
            balls.pop(0)
        if len(balls) <= 1:  # a constant (or identically zero: no crossing of this kind)
            continue
        narrow = (hi - lo) / 2**40  # disjoint unless the same root: a point between two roots is a cell's sample
        if exact:  # the rational roots exactly (linear factors), the others isolated in each irreducible factor
            x = sp.Symbol("x")
            P = sp.Poly([sp.Rational(a.numerator, a.denominator) for a, _b in balls], x, domain="QQ")
            for f, _mult in P.factor_list()[1]:
                fb = tuple((Fraction(int(r.p), int(r.q)),) * 2 for r in (sp.Rational(c) for c in f.all_coeffs()))
                if f.degree() == 1:
                    r = -fb[1][0] / fb[0][0]
                    if lo <= r <= hi:
                        cands.append((r, r, kind, fb))
                    continue
                found, _open = certified_roots(fb, lo, hi, True)
                cands += [(*refine(fb, a, b, narrow), kind, fb) for a, b in found]
            continue
        found, _open = certified_roots(balls, lo, hi, exact)
        cands += [(*refine(balls, a, b, narrow), kind, tuple(balls)) for a, b in found]
    cands.sort(key=lambda t: (t[0], t[1]))
    # a root of both polynomials (an eigenvalue 0 that is also ...) counted once: overlapping intervals merged
    merged: list[tuple[Fraction, Fraction, str, tuple[Ball, ...]]] = []
    for cand in cands:
        if merged and cand[0] <= merged[-1][1]:
            continue
        merged.append(cand)
    # the class between consecutive candidates
    cuts = [lo] + [x for a, b, _k, _c in merged for x in (a, b)] + [hi]
    samples = [(cuts[2 * i] + cuts[2 * i + 1]) / 2 for i in range(len(merged) + 1)]
    m = len(M) - deflate
    classes = []
    for x in samples:
        cx = coefficients_at(M, dict(pt) | {parameter: x}, exact)[: m + 1]
        classes.append(classify(cx, exact)[0] if m else "marginal")
    out = []
    for i, (a, b, kind, poly) in enumerate(merged):
        if classes[i] != classes[i + 1]:
            out.append(CriticalValue(parameter, kind, poly, a, b, classes[i], classes[i + 1]))
    return out
