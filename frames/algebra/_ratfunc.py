r"""The rational functions ``QQ(x, sin a, cos a, f(t), …)`` modulo ``sin² + cos² − 1``: reduction and cancellation.

:class:`RationalFunctions` is the exact arithmetic under the library's normal forms
(:func:`~frames.algebra.trig_normal`) and linear solves (:func:`~frames.algebra.solve_linear`). Its
generators and the conversion from and to expressions are in :mod:`frames.algebra._convert`, its
generic points (witnesses of nonzero values and of rank) in :mod:`frames.algebra._witness`.
"""

from __future__ import annotations

import copy
from typing import Any

import sympy as sp

from ._budget import checkpoint
from ._flint import enabled as flint_enabled
from ._flint import flint_cancel, flint_factor_list, flint_gcd, flint_normal, flint_product
from ._lattice import UnsupportedExpression
from ._poly import _binomials, _Canceller, cancel_coprime, exact_quotient, lcm, product
from ._witness import _Witnesses

__all__ = ["PolyFraction", "RationalFunctions", "UnsupportedExpression"]

#: factorizations of :meth:`RationalFunctions.factor_list`: ``(atoms, terms) -> (content, [(terms, multiplicity)])``
_FACTORS: dict[tuple[Any, ...], tuple[Any, list[tuple[dict[Any, Any], int]]]] = {}
_FACTORS_MAX = 256


class RationalFunctions(_Witnesses):
    r"""Exact arithmetic on rational functions of symbols, sines, cosines and exponentials: a canonical form.

    The generators are the symbols of the expressions, undefined functions and their derivatives
    (``B0(t)``, ``B0'(t)``: algebraically independent), a pair ``s_b = sin b, c_b = cos b`` for each
    basis angle ``b`` of the lattice of the trigonometric arguments, and ``E_b = exp b`` for each basis
    element of the lattice of the exponential arguments (:mod:`frames.algebra._lattice`): ``sin(a + b)``,
    ``sin 2a``, ``tan a``, ``sec a``, ``sin(x + 1)`` are polynomials or quotients in the pairs,
    ``exp(x + y)``, ``exp(−q/2)``, ``sinh x`` in the ``E_b``. Elements live in ``QQ(s_b, c_b, E_b, x, …)``
    (lexicographic, each ``s_b`` first); a polynomial is reduced modulo the ideal ``(s_b² + c_b² − 1)``,
    for which these generators form a Gröbner basis (the leading monomials ``s_b²`` are pairwise coprime).
    The basis elements are linearly independent over QQ (the constant ``1`` among the atoms), so the only
    algebraic relations among the generators are the Pythagorean ones (Lindemann–Weierstrass, Ax): the
    reduced numerator of a rational function is zero iff the function vanishes identically. The zero test
    is sound and complete on this class.

    The exponential basis is ``r/d_r`` per atom ``r`` (``exp(2 q)``, ``exp(q)`` and ``exp(−q/2)`` are powers of
    the one generator ``exp(q/2)``); the trigonometric basis keeps the user's arguments when they form one
    (``θ`` and ``θ − φ``). A non-rational coefficient (``exp(I q)``, ``sin(√2 + q)``) is unsupported.

    With ``pythagoras=False`` each trigonometric argument is its own pair and ``sin a``, ``cos a`` are
    independent generators (plain cancellation, the form of :func:`sympy.cancel`); not a canonical form.

    Raises :class:`UnsupportedExpression` for floats, radicals, ``exp`` (unless ``exp=True``) and any
    other function, for which the expression-level fallbacks are used.
    """

    def factor_list(self, p: Any) -> tuple[Any, list[tuple[Any, int]]]:
        """``p.factor_list()``, remembered across contexts (:data:`_FACTORS`, keyed by the atoms ``p`` uses):
        a determinant is factored once for the solve, the multipliers, the divergence and the display."""
        mons = list(p.itermonoms())
        used = [i for i in range(self.ring.ngens) if any(m[i] for m in mons)]
        atoms = tuple(self._atoms[i] for i in used)
        key = (atoms, frozenset((tuple(m[i] for i in used), c) for m, c in p.items()))
        hit = _FACTORS.get(key)
        if hit is None:
            c, fs = flint_factor_list(p) or p.factor_list()  # FLINT's when installed: the same result
            hit = (c, [({tuple(m[i] for i in used): a for m, a in f.items()}, k) for f, k in fs])
            if len(_FACTORS) >= _FACTORS_MAX:
                _FACTORS.pop(next(iter(_FACTORS)))
            _FACTORS[key] = hit
        c, fs = hit
        return c, [(self._moved(atoms, d), k) for d, k in fs]

    def normal_expr(self, f: Any) -> sp.Expr:
        """``to_expr(normal(f))``, remembered as a normal form of :func:`~frames.algebra.tidy`."""
        return self._remember(self.normal(f))

    def normal_sum_expr(self, parts: dict[Any, Any]) -> sp.Expr:
        """``to_expr(normal_sum(parts))``, remembered as a normal form of :func:`~frames.algebra.tidy`."""
        return self._remember(self.normal_sum(parts))

    def plain(self) -> RationalFunctions:
        """The same field without the reduction modulo ``sin² + cos² − 1`` (``sin a``, ``cos a`` independent, as
        :func:`sympy.cancel` treats them): the same ring and generators, so its elements are this object's."""
        if not self._pairs:
            return self
        other = copy.copy(self)
        other._ideal, other._pairs, other._pair_index, other._cancellers = [], [], [], {}
        return other

    def add_over_denominators(self, parts: dict[Any, Any]) -> Any:
        """``Σ num/den`` of ``{den: num}`` (numerators already added over each shared denominator) as one
        unreduced fraction: no gcd; equal denominators are not multiplied again. The products are taken in
        checkpointed pieces (:func:`~frames.algebra._poly.product`)."""
        num, den = self.ring.zero, self.ring.one
        for d, n in parts.items():
            if n:
                checkpoint()
                if d == den:
                    num = num + n
                else:
                    num, den = product(num, d) + product(n, den), product(den, d)
        return self.fractions.raw_new(num, den)

    def normal_sum(self, parts: dict[Any, Any]) -> Any:
        """:meth:`normal` of :meth:`add_over_denominators` ``(parts)``, exactly, summed over the lcm of the
        denominators when each is small enough to factor (their common factors are not multiplied in again:
        after the reduction modulo the Pythagorean ideal the numerator need no longer be divisible by
        them, and the fraction would stay larger than needed); the large numerator is then cancelled by
        trial division with the lcm's factors (:class:`_Canceller`)."""
        fast = flint_normal([(d, n) for d, n in parts.items()], self._ideal, reduce_den=True)
        if fast is not None:  # FLINT (the ``fast`` extra): the sum, the reduction and the gcd in C
            return self.fractions.raw_new(*cancel_coprime(*fast))
        live = {d: n for d, n in parts.items() if n}
        dens = [d for d in live if not d.is_ground]
        mult: dict[Any, int] = {}
        if len(dens) >= 2 and all(len(d) <= _Canceller.MAX_TERMS for d in dens):
            for d in dens:
                fs = self._canceller(d).factors
                if fs is None:  # not factored: the plain normal form of the sum over the product
                    mult = {}
                    break
                for f, k in fs:
                    mult[f] = max(mult.get(f, 0), k)
        lcm = self.ring.one
        for f, k in mult.items():
            lcm *= f**k
        if not mult or self.reduce(lcm) != lcm:
            return self.normal(self.add_over_denominators(live))
        num = self.ring.zero
        for d, n in live.items():
            checkpoint()
            cofactor = lcm.quo_ground(d.LC) if d.is_ground else exact_quotient(lcm, d)
            if cofactor is None:  # pragma: no cover - d = c Π f^k divides the lcm Π f^max k
                raise ArithmeticError(f"normal_sum: a denominator does not divide the lcm of its factors: {d}")
            num += product(n, cofactor)
        num = self.reduce(num)
        if not num:
            return self.fractions.zero
        if len(num) + len(lcm) <= _Canceller.LARGE:
            return self.normal(self.fractions.raw_new(num, lcm))
        canceller = _Canceller(lcm, uses=0)
        canceller.factors = list(mult.items())
        return self.fractions.raw_new(*canceller(num))

    def _canceller(self, den: Any) -> _Canceller:
        """The factored denominator ``den`` (cached on this object)."""
        canceller = self._cancellers.get(den)
        if canceller is None:
            if len(self._cancellers) > 64:
                self._cancellers.clear()
            canceller = self._cancellers[den] = _Canceller(den, uses=2, min_terms=1, factor=self.factor_list)
        return canceller

    @staticmethod
    def fast_gcd() -> bool:
        """True if :meth:`cancel` takes FLINT's gcd (the ``fast`` extra): cheap at every size."""
        return flint_enabled()

    @staticmethod
    def product(p: Any, q: Any) -> Any:
        """``p * q`` for two polynomials of this ring: a large product in pieces, with the budget's checkpoint
        between them (FLINT when installed)."""
        return flint_product(p, q)

    @staticmethod
    def lcm_cofactors(a: Any, b: Any) -> tuple[Any, Any]:
        """``(a/g, b/g)`` with ``g = gcd(a, b)`` (FLINT's gcd when installed): ``lcm = a·(b/g) = b·(a/g)``."""
        g = flint_gcd(a, b)
        if g is None:
            g = a.gcd(b)
        if g.is_ground:
            return a, b
        return RationalFunctions.quotient(a, g), RationalFunctions.quotient(b, g)

    @staticmethod
    def lcm(a: Any, b: Any) -> Any:
        """A least common multiple of two polynomials of this ring, up to a constant (FLINT's gcd when installed)."""
        return lcm(a, b)

    def vanishes(self, p: Any) -> bool:
        """True iff the polynomial ``p`` is zero modulo ``sin² + cos² − 1``: a generic point usually proves
        ``p ≠ 0`` with one evaluation (:meth:`witness_nonzero`); only otherwise is ``p`` reduced."""
        if not p:
            return True
        if self.witness_nonzero(p):
            return False
        return not self.reduce(p)

    def reduce(self, p: Any) -> Any:
        """Normal form of the polynomial ``p`` modulo ``sin² + cos² − 1`` (each pair).

        The relations have the coprime leading terms ``s_a²`` (lex, ``s_a`` before ``c_a``), so they are
        a Gröbner basis and the normal form is the unique representative of degree ≤ 1 in every
        ``s_a``: it is computed in one pass per pair by ``s^(2k+e) = s^e (1 − c²)^k`` (binomial
        expansion), which is what :meth:`PolyElement.rem` returns, without its repeated leading-term
        searches (quadratic in the number of terms).
        """
        if not self._ideal or not p:
            return p
        terms = dict(p.items())
        for i_s, i_c in self._pair_index:
            if all(m[i_s] < 2 for m in terms):
                continue
            out: dict[tuple[int, ...], Any] = {}
            for i, (mon, c) in enumerate(terms.items()):
                if not i % 4096:  # a large polynomial: the budget is checked inside one reduction
                    checkpoint()
                k, e = divmod(mon[i_s], 2)
                if k == 0:
                    out[mon] = out.get(mon, 0) + c
                    continue
                base = list(mon)
                base[i_s] = e
                for j, b in enumerate(_binomials(k)):
                    base[i_c] = mon[i_c] + 2 * j
                    key = tuple(base)
                    out[key] = out.get(key, 0) + (c * b if j % 2 == 0 else -c * b)
            terms = {m: c for m, c in out.items() if c}
        return self.ring.from_dict(terms) if terms else self.ring.zero

    def normal(self, f: Any) -> Any:
        """Reduce numerator and denominator, then cancel their gcd."""
        fast = flint_normal([(f.denom, f.numer)], self._ideal)
        if fast is not None:  # FLINT (the ``fast`` extra): the reduction and the gcd in C
            return self.fractions.raw_new(*cancel_coprime(*fast))
        num, den = self.reduce(f.numer), self.reduce(f.denom)
        if not den:
            raise ZeroDivisionError("denominator vanishes identically (sin² + cos² = 1)")
        num, den = self.cancel(num, den)
        return self.fractions.raw_new(num, den)

    def cancel(self, num: Any, den: Any) -> tuple[Any, Any]:
        """``num.cancel(den)``, exactly; for large polynomials by trial division with the factors of ``den``.

        sympy's ``cancel`` computes a gcd by the heuristic algorithm, whose trial divisions search the
        whole remainder for its leading term at every step (quadratic in the terms of ``num``: minutes for
        a numerator of 10⁴–10⁵ terms). When ``num`` is large and ``den`` small enough to factor, the
        irreducible factors of ``den`` (found once per denominator, :class:`_Canceller`) are divided out
        of ``num`` (:func:`exact_quotient`, which stops at the first leading term that does not divide);
        what is left is coprime, and only the integer contents and the sign are normalised
        (:func:`cancel_coprime`).
        """
        if not den.is_ground:
            coprime = flint_cancel(num, den)  # FLINT's gcd when installed (the ``fast`` extra)
            if coprime is not None:
                return cancel_coprime(*coprime)
        if den.is_ground or len(num) + len(den) <= _Canceller.LARGE or len(den) > _Canceller.MAX_TERMS:
            return num.cancel(den)  # type: ignore[no-any-return]
        return self._canceller(den)(num)


class PolyFraction:
    """A fraction ``num/den`` of two polynomials of one ring, not cancelled (one cancellation at the end).

    Sums are taken over the lcm of the denominators (a shared factor once; no gcd when a denominator is a
    constant), products and derivatives as they come, without any gcd of numerators; large products in
    pieces with the budget's checkpoint (FLINT when installed). ``den`` is never zero, so the value is zero
    iff ``num`` is. The cancellation is the caller's (:meth:`RationalFunctions.normal`, :func:`cancel`).
    """

    __slots__ = ("den", "num")

    def __init__(self, num: Any, den: Any) -> None:
        self.num, self.den = num, den

    def __bool__(self) -> bool:
        return bool(self.num)

    def __add__(self, o: PolyFraction) -> PolyFraction:
        if not o.num:
            return self
        if not self.num:
            return o
        if self.den == o.den:
            return PolyFraction(self.num + o.num, self.den)
        if self.den.is_ground or o.den.is_ground:
            return PolyFraction(_mul(self.num, o.den) + _mul(o.num, self.den), _mul(self.den, o.den))
        a, b = RationalFunctions.lcm_cofactors(self.den, o.den)  # over the lcm: a shared factor once
        return PolyFraction(_mul(self.num, b) + _mul(o.num, a), _mul(self.den, b))

    def __neg__(self) -> PolyFraction:
        return PolyFraction(-self.num, self.den)

    def __sub__(self, o: PolyFraction) -> PolyFraction:
        return self + (-o)

    def __mul__(self, o: PolyFraction) -> PolyFraction:
        return PolyFraction(_mul(self.num, o.num), _mul(self.den, o.den))

    def __rtruediv__(self, one: Any) -> PolyFraction:
        if one != 1:  # pragma: no cover - only 1/x is used
            raise TypeError("only 1/x")
        if not self.num:
            raise ZeroDivisionError("division by a zero rational function")
        return PolyFraction(self.den, self.num)

    def diff(self, g: int) -> PolyFraction:
        """``∂/∂g`` for the generator of index ``g``."""
        dd = self.den.diff(g)
        if not dd:
            return PolyFraction(self.num.diff(g), self.den)
        return PolyFraction(_mul(self.num.diff(g), self.den) - _mul(self.num, dd), _mul(self.den, self.den))


def _mul(p: Any, q: Any) -> Any:
    """``p * q``: a large product in pieces with checkpoints (FLINT when installed), a small one directly."""
    return product(p, q)  # FLINT when installed, else pieces with checkpoints between them
