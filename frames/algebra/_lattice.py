r"""Arguments of ``sin``, ``cos``, ``tan``, … and ``exp`` on a lattice basis: the independent generators of the ring.

The class of expressions the library decides exactly: rational functions over QQ of symbols, undefined
functions, and ``sin``, ``cos``, ``tan``, ``cot``, ``sec``, ``csc``, ``exp``, ``sinh``, ``cosh``, ``tanh`` whose
arguments are QQ-linear combinations of *atoms*: terms without a numeric coefficient (``x``, ``x y``,
``q(t)``), and the constant ``1``; a trigonometric argument may also be shifted by a multiple of ``π/2``.

Each argument ``a = Σ_r c_r r`` (``c_r`` rational) is a vector of QQ^atoms. Scaled by ``d_r`` (the lcm of the
denominators of the coefficients of ``r`` over all arguments) every argument is an integer vector, so all
arguments lie in the lattice with basis ``r/d_r``. A basis ``b_1 … b_k`` of a lattice containing every argument
gives the generators: ``sin b_k, cos b_k`` (trigonometric) or ``exp b_k``; every function of an argument is a
polynomial in them, ``e^{i a} = i^s Π_k (cos b_k + i sin b_k)^{n_k}`` for ``a = Σ n_k b_k + s π/2``.

Why this is complete: the basis angles are linearly independent over QQ, with the constant ``1`` among the
atoms, so by the theorems of Lindemann–Weierstrass (constants) and Ax (functions) their exponentials
``e^{i b_k}``, and the real ``e^{b_k}``, are algebraically independent over ``QQ(x, …)``; the only relations
left are ``sin² b_k + cos² b_k = 1``. Reduced modulo those, a function vanishes identically iff its numerator
is the zero polynomial.

The basis is chosen to keep what the user wrote: when a subset of the arguments themselves is a basis of the
lattice they span (``θ`` and ``θ − φ``), those arguments are the basis (``sin(θ − φ)`` stays one generator);
otherwise the basis is ``r/d_r`` (``sin(a + b)`` next to ``sin a`` and ``sin b`` is expanded).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache
from math import lcm
from typing import Any

import sympy as sp

from ..errors import UnsupportedExpression

__all__ = ["Lattice", "UnsupportedExpression", "identity_lattice", "lattice", "trig_parts"]


class Lattice:
    """A basis of the arguments' lattice: ``basis`` (expressions ``b_k``), and for each argument ``a`` its integer
    coordinates ``coords[a]`` and its shift ``shifts[a]`` in quarter turns (``a = Σ n_k b_k + s π/2``).

    :meth:`locate` finds the coordinates of an argument met later (``exp(2 q)`` written by sympy from
    ``exp(q)²``), or None if it is not in the lattice.
    """

    __slots__ = ("_vectors", "atoms", "basis", "coords", "den", "shifts", "trig")

    def __init__(
        self,
        basis: tuple[sp.Expr, ...],
        coords: dict[sp.Expr, tuple[int, ...]],
        shifts: dict[sp.Expr, int],
        atoms: tuple[sp.Expr, ...] = (),
        den: tuple[int, ...] = (),
        vectors: tuple[tuple[int, ...], ...] = (),
        trig: bool = True,
    ) -> None:
        self.basis = basis
        self.coords = coords
        self.shifts = shifts
        self.atoms = atoms
        self.den = den
        self._vectors = vectors  # the basis as integer vectors over atoms[j]/den[j]
        self.trig = trig

    def locate(self, a: sp.Expr) -> tuple[tuple[int, ...], int] | None:
        """``(coordinates, shift)`` of the argument ``a`` in the basis, or None if ``a`` is not in the lattice."""
        if a in self.coords:
            return self.coords[a], self.shifts[a]
        if not self._vectors and self.basis:
            return None  # an identity lattice (each argument its own generator): nothing else is in it
        try:
            terms, shift = _split(a, self.trig)
        except UnsupportedExpression:
            return None
        index = {r: j for j, r in enumerate(self.atoms)}
        if any(r not in index for r in terms):
            return None
        v = [Fraction(0)] * len(self.atoms)
        for r, c in terms.items():
            v[index[r]] = c * self.den[index[r]]
        x = _solve_integer(self._vectors, v)
        if x is None:
            return None
        self.coords[a], self.shifts[a] = x, shift
        return x, shift


def _solve_integer(vectors: tuple[tuple[int, ...], ...], v: list[Fraction]) -> tuple[int, ...] | None:
    """Integer ``x`` with ``Σ x_k vectors[k] = v`` (the vectors independent), or None."""
    rows: list[list[Fraction]] = []
    pivots: list[int] = []
    combos: list[list[Fraction]] = []
    k = len(vectors)
    for i, w in enumerate(vectors):
        r, c = _reduce([Fraction(x) for x in w], rows, pivots, combos, k)
        c[i] = Fraction(1)
        p = next(j for j, x in enumerate(r) if x)
        inv = 1 / r[p]
        rows.append([x * inv for x in r])
        combos.append([x * inv for x in c])
        pivots.append(p)
    r, c = _reduce(v, rows, pivots, combos, k)
    if any(r) or any(x.denominator != 1 for x in c):
        return None
    return tuple(int(-x) for x in c)


def _split(a: sp.Expr, trig: bool) -> tuple[dict[sp.Expr, Fraction], int]:
    """``a = Σ c_r r + s π/2``: the rational coefficients ``{r: c_r}`` (``r = 1`` for a constant) and ``s mod 4``."""
    terms: dict[sp.Expr, Fraction] = {}
    quarter = 0
    for t in sp.Add.make_args(sp.expand(a)):
        c, r = t.as_coeff_Mul()
        if not c.is_Rational:
            raise UnsupportedExpression(f"argument {a}: the term {t} has a coefficient that is not rational")
        if r.free_symbols:
            if r.has(sp.Float):
                raise UnsupportedExpression(f"argument {a}: the term {t} has a floating-point number")
            terms[r] = terms.get(r, Fraction(0)) + Fraction(int(c.p), int(c.q))
        elif r == 1:
            terms[sp.S.One] = terms.get(sp.S.One, Fraction(0)) + Fraction(int(c.p), int(c.q))
        elif trig and r is sp.pi and (2 * c).is_Integer:
            quarter += int(2 * c)
        else:
            raise UnsupportedExpression(f"argument {a}: the constant {t} is not rational (or a multiple of π/2)")
    return {r: c for r, c in terms.items() if c}, quarter % 4


def _key(e: sp.Expr) -> Any:
    return sp.default_sort_key(e)


@lru_cache(maxsize=4096)
def lattice(args: frozenset[sp.Expr], trig: bool = True, prefer_arguments: bool = True) -> Lattice:
    """The lattice basis of the arguments ``args`` of trigonometric (``trig``) or exponential functions.

    Raises :class:`UnsupportedExpression` if an argument is not a QQ-linear combination of atoms (a float, a
    constant such as ``√2`` or ``π/3``).
    """
    split = {a: _split(a, trig) for a in sorted(args, key=_key)}
    atoms = sorted({r for terms, _ in split.values() for r in terms}, key=_key)
    den = {r: lcm(*(terms[r].denominator for terms, _ in split.values() if r in terms)) for r in atoms}
    vec = {a: tuple(int(terms.get(r, 0) * den[r]) for r in atoms) for a, (terms, _) in split.items()}
    shifts = {a: s for a, (_, s) in split.items()}
    live = [a for a in vec if any(vec[a])]
    chosen = _argument_basis(live, vec) if prefer_arguments else None
    dens = tuple(den[r] for r in atoms)
    if chosen is not None:
        basis_args, coords = chosen
        basis = tuple(_variable_part(a, split[a][0]) for a in basis_args)
        coords = coords | {a: (0,) * len(basis) for a in vec if a not in coords}
        vectors = tuple(vec[a] for a in basis_args)
        return Lattice(basis, coords, shifts, tuple(atoms), dens, vectors, trig)
    used = [j for j, _ in enumerate(atoms) if any(vec[a][j] for a in live)]
    basis = tuple(atoms[j] / den[atoms[j]] for j in used)
    vectors = tuple(tuple(int(i == j) for i in range(len(atoms))) for j in used)
    return Lattice(basis, {a: tuple(vec[a][j] for j in used) for a in vec}, shifts, tuple(atoms), dens, vectors, trig)


def _variable_part(a: sp.Expr, terms: dict[sp.Expr, Fraction]) -> sp.Expr:
    """``a`` without its multiple of ``π/2`` (``a`` itself when it has none)."""
    b = sp.Add(*(sp.Rational(c.numerator, c.denominator) * r for r, c in terms.items()))
    return a if sp.expand(a - b) == 0 else b


def _argument_basis(
    live: list[sp.Expr], vec: dict[sp.Expr, tuple[int, ...]]
) -> tuple[list[sp.Expr], dict[sp.Expr, tuple[int, ...]]] | None:
    """A subset of the arguments that is a basis of the lattice they span, with every argument's integer
    coordinates in it; None if the greedy choice (simplest arguments first) is not such a basis."""
    order = sorted(live, key=lambda a: (sum(1 for x in vec[a] if x), sum(abs(x) for x in vec[a]), _key(a)))
    rows: list[list[Fraction]] = []  # reduced echelon rows of the chosen vectors, with their combinations
    pivots: list[int] = []
    combos: list[list[Fraction]] = []
    chosen: list[sp.Expr] = []
    for a in order:
        r, c = _reduce([Fraction(x) for x in vec[a]], rows, pivots, combos, len(order))
        if any(r):
            p = next(j for j, x in enumerate(r) if x)
            c[len(chosen)] = Fraction(1)  # r = vec[a] − Σ (…) chosen: record a's own coefficient
            inv = 1 / r[p]
            rows.append([x * inv for x in r])
            combos.append([x * inv for x in c])
            pivots.append(p)
            chosen.append(a)
    coords: dict[sp.Expr, tuple[int, ...]] = {}
    k = len(chosen)
    for a in live:
        x = _coordinates([Fraction(v) for v in vec[a]], rows, pivots, combos, len(order))[:k]
        if any(v.denominator != 1 for v in x):
            return None
        coords[a] = tuple(int(v) for v in x)
    return chosen, coords


def _reduce(
    v: list[Fraction], rows: list[list[Fraction]], pivots: list[int], combos: list[list[Fraction]], size: int
) -> tuple[list[Fraction], list[Fraction]]:
    """``v`` reduced by the echelon rows, and minus the combination of chosen vectors subtracted from it."""
    c = [Fraction(0)] * size
    for row, p, comb in zip(rows, pivots, combos, strict=True):
        f = v[p]
        if f:
            v = [x - f * y for x, y in zip(v, row, strict=True)]
            c = [x - f * y for x, y in zip(c, comb, strict=True)]
    return v, c


def _coordinates(
    v: list[Fraction], rows: list[list[Fraction]], pivots: list[int], combos: list[list[Fraction]], size: int
) -> list[Fraction]:
    """The coordinates of ``v`` (in the span of the chosen vectors) in the chosen vectors."""
    r, c = _reduce(v, rows, pivots, combos, size)
    if any(r):  # pragma: no cover - every argument is in the span of a maximal independent subset
        raise ArithmeticError("lattice: an argument outside the span of the chosen basis")
    return [-x for x in c]


def trig_parts(coords: Iterable[int], shift: int, pairs: list[tuple[object, object]], one: object) -> tuple:
    """``(cos a, sin a)`` as polynomials: ``e^{i a} = i^shift Π (c_k + i s_k)^{n_k}`` for the pairs ``(s_k, c_k)``
    of the basis (``(c − i s)`` for a negative ``n``, the inverse on the circle)."""
    re, im = one, 0 * one  # type: ignore[operator]
    for n, (s, c) in zip(coords, pairs, strict=True):
        if not n:
            continue
        zr, zi = c, (s if n > 0 else -s)  # type: ignore[operator]
        pr, pi_ = _complex_pow(zr, zi, abs(n), one)
        re, im = re * pr - im * pi_, re * pi_ + im * pr  # type: ignore[operator]
    for _ in range(shift):
        re, im = -im, re  # type: ignore[operator]
    return re, im


def _complex_pow(zr: object, zi: object, n: int, one: object) -> tuple[object, object]:
    """``(zr + i zi)^n`` by squaring."""
    rr, ri = one, 0 * one  # type: ignore[operator]
    while n:
        if n & 1:
            rr, ri = rr * zr - ri * zi, rr * zi + ri * zr  # type: ignore[operator]
        n >>= 1
        if n:
            zr, zi = zr * zr - zi * zi, 2 * zr * zi  # type: ignore[operator]
    return rr, ri


def identity_lattice(args: frozenset[sp.Expr]) -> Lattice:
    """Each argument its own basis angle (sympy's ``cancel``: ``sin a`` and ``sin 2a`` independent)."""
    basis = tuple(sorted(args, key=sp.default_sort_key))
    n = len(basis)
    return Lattice(
        basis, {a: tuple(int(i == k) for i in range(n)) for k, a in enumerate(basis)}, dict.fromkeys(basis, 0)
    )


_TRIG_TYPES = (sp.sin, sp.cos, sp.tan, sp.cot, sp.sec, sp.csc)
_EXP_TYPES = (sp.exp, sp.sinh, sp.cosh, sp.tanh)
_HYPERBOLIC = (sp.sinh, sp.cosh, sp.tanh)
#: ``(numerator, denominator)`` of each trigonometric function from ``cos a = re``, ``sin a = im``
_TRIG_PARTS = {
    sp.sin: lambda re, im, one: (im, one),
    sp.cos: lambda re, im, one: (re, one),
    sp.tan: lambda re, im, one: (im, re),
    sp.cot: lambda re, im, one: (re, im),
    sp.sec: lambda re, im, one: (one, re),
    sp.csc: lambda re, im, one: (one, im),
}
#: ``(numerator, denominator)`` of each hyperbolic function from ``exp a = n/d``
_HYPERBOLIC_PARTS = {
    sp.sinh: lambda n, d: (n * n - d * d, 2 * n * d),
    sp.cosh: lambda n, d: (n * n + d * d, 2 * n * d),
    sp.tanh: lambda n, d: (n * n - d * d, n * n + d * d),
}
