r"""The field of rational functions ``QQ(x, sin a, cos a, f(t), …)`` modulo ``sin² + cos² − 1``.

:class:`RationalFunctions` is the exact arithmetic under the library's normal forms
(:func:`~frames.algebra.trig_normal`) and linear solves (:func:`~frames.algebra.exact_solve`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from typing import Any

import sympy as sp
from sympy.polys.domains import QQ
from sympy.polys.fields import field as _rational_field
from sympy.polys.matrices import DomainMatrix
from sympy.polys.matrices.exceptions import DMNonInvertibleMatrixError
from sympy.polys.orderings import lex
from sympy.polys.rings import PolyElement

from ._budget import checkpoint
from ._flint import enabled as flint_enabled
from ._flint import flint_cancel, flint_factor_list, flint_gcd, flint_normal, flint_product, flint_solve_den
from ._lattice import (
    _EXP_TYPES,
    _HYPERBOLIC,
    _HYPERBOLIC_PARTS,
    _TRIG_PARTS,
    _TRIG_TYPES,
    UnsupportedExpression,
    identity_lattice,
    lattice,
    trig_parts,
)
from ._poly import _binomials, _Canceller, cancel_coprime, exact_domain, exact_quotient, lcm, poly_expr
from ._scan import _scan_all

__all__ = ["RationalFunctions", "UnsupportedExpression", "generic_rank", "replace_atoms"]


#: Expressions known to be in the final normal form of :func:`~frames.algebra.tidy`: ring normal forms
#: (reduced modulo ``sin² + cos² − 1`` and cancelled) written by :meth:`RationalFunctions.normal_expr`.
#: ``tidy`` returns a large one of them unchanged instead of converting it to the ring and back.
_TIDY_FORMS: dict[sp.Expr, None] = {}
_TIDY_FORMS_MAX = 4096


def is_known_tidy(e: sp.Expr) -> bool:
    """True if ``e`` was written as a ring normal form (see :data:`_TIDY_FORMS`)."""
    return e in _TIDY_FORMS


#: Large ring normal forms written back as expressions, with their ring form:
#: ``expr -> (atoms, numerator terms, denominator terms)``. :meth:`RationalFunctions.from_expr` of an
#: expression containing one of them (a result of an earlier solve, the Γ of a report's later sections)
#: re-indexes the stored terms onto its own generators instead of walking the expression tree again.
_RING_FORMS: dict[sp.Expr, tuple[tuple[sp.Expr, ...], dict[Any, Any], dict[Any, Any]]] = {}
_RING_FORMS_MAX = 256
#: and at most this many terms in all (memory: a term is an exponent tuple and a rational)
_RING_FORMS_MAX_TERMS = 1_000_000
_RING_FORMS_TERMS = 0
#: factorizations of :meth:`RationalFunctions.factor_list`: ``(atoms, terms) -> (content, [(terms, multiplicity)])``
_FACTORS: dict[tuple[Any, ...], tuple[Any, list[tuple[dict[Any, Any], int]]]] = {}
_FACTORS_MAX = 256
#: ring forms with fewer terms are not stored (converting the tree is cheap)
_RING_FORMS_MIN_TERMS = 64


def _store_ring_form(e: sp.Expr, atoms: tuple[sp.Expr, ...], num: dict[Any, Any], den: dict[Any, Any]) -> None:
    """Record ``e -> (atoms, num, den)`` in :data:`_RING_FORMS`, the oldest entries dropped beyond its bounds."""
    global _RING_FORMS_TERMS
    if e in _RING_FORMS:
        return
    size = len(num) + len(den)
    # only the atoms the form uses: another context (a sum containing the form) need not have the others
    used = [i for i in range(len(atoms)) if any(m[i] for m in num) or any(m[i] for m in den)]
    if len(used) < len(atoms):
        atoms = tuple(atoms[i] for i in used)
        num = {tuple(m[i] for i in used): c for m, c in num.items()}
        den = {tuple(m[i] for i in used): c for m, c in den.items()}
    while _RING_FORMS and (len(_RING_FORMS) >= _RING_FORMS_MAX or _RING_FORMS_TERMS + size > _RING_FORMS_MAX_TERMS):
        _, old_num, old_den = _RING_FORMS.pop(next(iter(_RING_FORMS)))
        _RING_FORMS_TERMS -= len(old_num) + len(old_den)
    _RING_FORMS[e] = (atoms, num, den)
    _RING_FORMS_TERMS += size


def replace_atoms(e: sp.Expr, sub: dict[Any, Any]) -> sp.Expr:
    """``e.xreplace(sub)`` for ``sub`` mapping symbols to expressions (``q -> q(t)``, say).

    A large ring normal form (:data:`_RING_FORMS`) is written again from its stored terms over the
    substituted atoms (:func:`poly_expr`, the canonical ``Add``/``Mul`` built directly) instead of
    rebuilding its tree node by node; any other expression goes through ``xreplace``.
    """
    stored = _RING_FORMS.get(e)
    if stored is None:
        return e.xreplace(sub)
    atoms, num, den = stored
    new = [a.xreplace(sub) for a in atoms]
    ring = _rational_field([sp.Dummy() for _ in atoms] or [sp.Dummy()], QQ, lex)[0].ring
    p, q = ring.from_dict(num), ring.from_dict(den)
    return poly_expr(p, new) / poly_expr(q, new)  # type: ignore[no-any-return]


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


class RationalFunctions:
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

    def __init__(self, exprs: Sequence[Any], *, exp: bool = False, pythagoras: bool = True) -> None:
        es = [sp.sympify(e, strict=True) for e in exprs]
        # one walk of each tree: the trigonometric, exponential and function atoms, the symbols, the shape
        found, funcs, syms, bad = _scan_all(es)
        if bad is not None:
            raise UnsupportedExpression(f"not a rational function of symbols, sin/cos and undefined functions: {bad}")
        exp_atoms = {a for a in found if isinstance(a, _EXP_TYPES) or a is sp.E}
        if exp_atoms and not exp:
            raise UnsupportedExpression(f"exponential {next(iter(exp_atoms))} (exp=False)")
        trig_atoms = [a for a in found if isinstance(a, _TRIG_TYPES)]
        # the arguments on a lattice basis (``_lattice``): with the Pythagorean identities the basis angles are
        # independent, so the normal form is canonical; without them (sympy's cancel) each argument is its own
        self._trig_lattice = (
            lattice(frozenset(a.args[0] for a in trig_atoms), trig=True, prefer_arguments=True)
            if pythagoras
            else identity_lattice(frozenset(a.args[0] for a in trig_atoms))
        )
        self._exp_lattice = lattice(frozenset(_exp_argument(a) for a in exp_atoms), trig=False, prefer_arguments=False)
        rep: dict[sp.Expr, sp.Symbol] = {}
        pairs: list[tuple[sp.Symbol, sp.Symbol]] = []
        for b in self._trig_lattice.basis:
            s_b, c_b = sp.Dummy("s"), sp.Dummy("c")
            rep[sp.sin(b)] = s_b
            rep[sp.cos(b)] = c_b
            pairs.append((s_b, c_b))
        exp_back = {sp.Dummy("E"): sp.exp(b) for b in self._exp_lattice.basis}
        exp_gens = list(exp_back)
        others: list[sp.Symbol] = []
        for f in sorted(funcs, key=sp.default_sort_key):
            d = sp.Dummy("f")
            rep[f] = d
            others.append(d)
        gens = [g for pair in pairs for g in pair] + others + exp_gens + sorted(syms, key=sp.default_sort_key)
        self._back = {v: k for k, v in rep.items()} | exp_back
        if gens:
            self.field, *_ = _rational_field(gens, QQ, lex)
        else:
            self.field, *_ = _rational_field([sp.Dummy("one")], QQ, lex)
        self.ring = self.field.ring
        self.domain = self.field.to_domain()
        self._gen_of = gen_of = dict(zip(self.ring.symbols, self.ring.gens, strict=True))
        one = self.ring.one
        #: expression -> (numerator, denominator) of a generator (sin a, cos a, f(t), exponentials, symbols)
        self._elem = {a: (gen_of[d], one) for a, d in rep.items()} | {g: (gen_of[g], one) for g in gens}
        self._exp_pows = [gen_of[g] for g in exp_gens]
        for a in exp_atoms:  # exp(Σ n_k b_k) = Π E_k^(n_k) (sinh, cosh, tanh from it), entered in _elem
            n, d = self._exp_monomial(_exp_argument(a))
            self._elem[a] = _HYPERBOLIC_PARTS[type(a)](n, d) if isinstance(a, _HYPERBOLIC) else (n, d)
        self._all_pairs = pairs
        ring_pairs = [(gen_of[s_b], gen_of[c_b]) for s_b, c_b in pairs]
        for a in trig_atoms:  # e^{i a} = i^s Π (cos b_k + i sin b_k)^(n_k), entered in _elem
            if a not in self._elem:
                arg = a.args[0]
                re, im = trig_parts(*self._trig_lattice.locate(arg), ring_pairs, one)  # type: ignore[misc, call-arg]
                self._elem[a] = _TRIG_PARTS[type(a)](re, im, one)
        #: the expressions the generators stand for, in the ring's order
        self._atoms = tuple(self._back.get(g, g) for g in self.ring.symbols)
        self._atom_index = {a: i for i, a in enumerate(self._atoms)}
        self._ideal = [self.ring(s_a) ** 2 + self.ring(c_a) ** 2 - 1 for s_a, c_a in pairs] if pythagoras else []
        self._pairs = pairs if pythagoras else []
        self._trig = bool(pairs)
        index = {g: i for i, g in enumerate(self.ring.symbols)}
        self._pair_index = [(index[s_a], index[c_a]) for s_a, c_a in self._pairs]
        #: factored denominators of :meth:`cancel`
        self._cancellers: dict[Any, _Canceller] = {}

    def from_expr(self, e: Any) -> Any:
        """The field element of ``e`` (an expression over this object's generators)."""
        e = sp.sympify(e, strict=True)
        num, den = self._fraction(e, {})
        return self.field.raw_new(num, den)  # not cancelled: :meth:`normal` cancels once

    def _fraction(self, e: sp.Expr, memo: dict[sp.Expr, tuple[Any, Any]]) -> tuple[Any, Any]:
        """``(numerator, denominator)`` in the polynomial ring, built without any gcd.

        A sum is taken over the lcm of its terms' denominators (``(a + c)/b`` when they agree),
        a product multiplies numerators and denominators: the only gcds are those of
        denominators, and the one cancellation of the numerator is left to :meth:`normal`
        (sympy's field conversion cancels, with a gcd of the numerators, after every operation).
        """
        R = self.ring
        g = self._elem.get(e)
        if g is not None:
            return g
        if e.is_Rational:
            return R(e.p), R(e.q)
        if e.is_Symbol:
            return R(e), R.one
        if e in memo:  # shared sub-expressions of a large tree are converted once
            return memo[e]
        checkpoint()
        stored = _RING_FORMS.get(e)
        out = self._reindexed(*stored) if stored is not None else None
        memo[e] = out = self._fraction_node(e, memo) if out is None else out
        return out

    def _reindexed(
        self, atoms: tuple[sp.Expr, ...], num: dict[Any, Any], den: dict[Any, Any]
    ) -> tuple[Any, Any] | None:
        """A stored ring form (:data:`_RING_FORMS`) on this ring's generators, or None if an atom is not one of
        them (an exponential written over another generator, say): the exponent vectors are re-indexed."""
        p, q = self._moved(atoms, num), self._moved(atoms, den)
        return None if p is None or q is None else (p, q)

    def _moved(self, atoms: Sequence[sp.Expr], terms: dict[Any, Any]) -> Any:
        """The polynomial with ``terms`` (exponent vectors over ``atoms``) in this ring, or None if an atom
        is not one of its generators."""
        pairs: list[tuple[int, int]] = []
        for j, a in enumerate(atoms):
            i = self._atom_index.get(a)
            if i is None:
                return None
            pairs.append((j, i))
        n = self.ring.ngens
        out = {}
        for mon, c in terms.items():
            new = [0] * n
            for j, i in pairs:
                new[i] = mon[j]
            out[tuple(new)] = c
        return self.ring.from_dict(out)

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

    def _fraction_node(self, e: sp.Expr, memo: dict[sp.Expr, tuple[Any, Any]]) -> tuple[Any, Any]:
        """:meth:`_fraction` of a sum, product or integer power."""
        R = self.ring
        if e.is_Add:
            terms: dict[Any, Any] = {}
            for a in e.args:
                n, d = self._fraction(a, memo)
                terms[d] = terms[d] + n if d in terms else n
            if len(terms) == 1:
                ((d, n),) = terms.items()
                return n, d
            den = R.one
            for d in terms:
                den = lcm(den, d) if not d.is_ground else den * d  # gcds of denominators only
            acc: dict[Any, Any] = {}  # the sum of the products, term by term (adding polynomials copies them)
            for d, n in terms.items():
                checkpoint()
                for mon, c in flint_product(n, self.quotient(den, d)).items():
                    acc[mon] = acc[mon] + c if mon in acc else c
            return R.from_dict({mon: c for mon, c in acc.items() if c}), den
        if e.is_Mul:
            num, den = R.one, R.one
            for a in e.args:
                n, d = self._fraction(a, memo)
                num, den = flint_product(num, n), flint_product(den, d)
            return num, den
        if e.is_Pow and e.exp.is_Integer:
            n, d = self._fraction(e.base, memo)
            k = int(e.exp)
            return (n**k, d**k) if k >= 0 else (d ** (-k), n ** (-k))
        if isinstance(e, (*_TRIG_TYPES, *_EXP_TYPES)) or e is sp.E:  # an argument of the lattice not seen when built
            out = self._function_of_lattice(e)
            if out is not None:
                self._elem[e] = out
                return out
        f = self.field.from_expr(e)  # pragma: no cover - other atoms
        return f.numer, f.denom

    def _function_of_lattice(self, e: sp.Expr) -> tuple[Any, Any] | None:
        """``(numerator, denominator)`` of a trigonometric or exponential atom whose argument lies in this
        context's lattice (met after it was built), or None."""
        if isinstance(e, _TRIG_TYPES):
            at = self._trig_lattice.locate(e.args[0])
            if at is None:
                return None
            pairs = [(self._gen_of[s_b], self._gen_of[c_b]) for s_b, c_b in self._all_pairs]
            re, im = trig_parts(at[0], at[1], pairs, self.ring.one)
            return _TRIG_PARTS[type(e)](re, im, self.ring.one)  # type: ignore[no-any-return]
        arg = _exp_argument(e)
        if self._exp_lattice.locate(arg) is None:
            return None
        n, d = self._exp_monomial(arg)
        return _HYPERBOLIC_PARTS[type(e)](n, d) if isinstance(e, _HYPERBOLIC) else (n, d)

    def _exp_monomial(self, arg: sp.Expr) -> tuple[Any, Any]:
        """``exp(arg) = Π E_k^(n_k)`` (numerator, denominator) in this context's exponential generators."""
        at = self._exp_lattice.locate(arg)
        if at is None:
            raise UnsupportedExpression(f"exp({arg}) is not a power of this context's exponential generators")
        coords = at[0]
        num, den = self.ring.one, self.ring.one
        for g, k in zip(self._exp_pows, coords, strict=True):
            if k > 0:
                num *= g**k
            elif k < 0:
                den *= g ** (-k)
        return num, den

    def normal_expr(self, f: Any) -> sp.Expr:
        """``to_expr(normal(f))``, remembered as a normal form of :func:`~frames.algebra.tidy`."""
        return self._remember(self.normal(f))

    def normal_sum_expr(self, parts: dict[Any, Any]) -> sp.Expr:
        """``to_expr(normal_sum(parts))``, remembered as a normal form of :func:`~frames.algebra.tidy`."""
        return self._remember(self.normal_sum(parts))

    def _remember(self, f: Any) -> sp.Expr:
        """``to_expr(f)`` of a normal form ``f``, recorded in :data:`_TIDY_FORMS` (with the Pythagorean
        identities applied, or with no sin/cos at all) and, when large, with its ring form in :data:`_RING_FORMS`:
        the whole quotient, and its numerator and denominator sums on their own (``−λ``, ``Γ(φ) + … − λ``
        contain those as they are, not the quotient)."""
        num, den = f.numer, f.denom
        num_e, den_e = poly_expr(num, self._atoms), poly_expr(den, self._atoms)
        e = num_e / den_e  # as :meth:`to_expr`
        if self._pairs or not self._trig:
            if len(_TIDY_FORMS) >= _TIDY_FORMS_MAX:
                _TIDY_FORMS.pop(next(iter(_TIDY_FORMS)))
            _TIDY_FORMS[e] = None
        if len(num) + len(den) >= _RING_FORMS_MIN_TERMS and not e.is_Atom:
            one = {(0,) * self.ring.ngens: self.ring.domain.one}
            _store_ring_form(e, self._atoms, dict(num.items()), dict(den.items()))
            if num_e is not e and num_e.is_Add and len(num) >= _RING_FORMS_MIN_TERMS:
                _store_ring_form(num_e, self._atoms, dict(num.items()), one)
            if den_e.is_Add and len(den) >= _RING_FORMS_MIN_TERMS:
                _store_ring_form(den_e, self._atoms, dict(den.items()), one)
        return e

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
        unreduced fraction: no gcd; equal denominators are not multiplied again."""
        num, den = self.ring.zero, self.ring.one
        for d, n in parts.items():
            if n:
                if d == den:
                    num = num + n
                else:
                    num, den = num * d + n * den, den * d
        return self.field.raw_new(num, den)

    def normal_sum(self, parts: dict[Any, Any]) -> Any:
        """:meth:`normal` of :meth:`add_over_denominators` ``(parts)``, exactly, summed over the lcm of the
        denominators when each is small enough to factor (their common factors are not multiplied in again:
        after the reduction modulo the Pythagorean ideal the numerator need no longer be divisible by
        them, and the fraction would stay larger than needed); the large numerator is then cancelled by
        trial division with the lcm's factors (:class:`_Canceller`)."""
        fast = flint_normal([(d, n) for d, n in parts.items()], self._ideal, reduce_den=True)
        if fast is not None:  # FLINT (the ``fast`` extra): the sum, the reduction and the gcd in C
            return self.field.raw_new(*cancel_coprime(*fast))
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
            num += n * cofactor
        num = self.reduce(num)
        if not num:
            return self.field.zero
        if len(num) + len(lcm) <= _Canceller.LARGE:
            return self.normal(self.field.raw_new(num, lcm))
        canceller = _Canceller(lcm, uses=0)
        canceller.factors = list(mult.items())
        return self.field.raw_new(*canceller(num))

    def _canceller(self, den: Any) -> _Canceller:
        """The factored denominator ``den`` (cached on this object)."""
        canceller = self._cancellers.get(den)
        if canceller is None:
            if len(self._cancellers) > 64:
                self._cancellers.clear()
            canceller = self._cancellers[den] = _Canceller(den, uses=2, min_terms=1, factor=self.factor_list)
        return canceller

    def to_expr(self, f: Any) -> sp.Expr:
        """Back to a sympy expression ``numerator/denominator``."""
        if isinstance(f, PolyElement):
            return poly_expr(f, self._atoms)
        return poly_expr(f.numer, self._atoms) / poly_expr(f.denom, self._atoms)

    @property
    def atoms(self) -> tuple[sp.Expr, ...]:
        """The expressions the ring's generators stand for, in order (``sin(a)`` for ``s_a``; symbols themselves)."""
        return self._atoms

    @staticmethod
    def quotient(p: Any, f: Any) -> Any:
        """``p / f`` for a polynomial ``f`` that divides ``p`` (heap division, FLINT when installed)."""
        q = p.quo_ground(f.LC) if f.is_ground else exact_quotient(p, f)
        if q is None:  # pragma: no cover - the callers divide multiples
            raise ArithmeticError(f"quotient: {f} does not divide the polynomial")
        return q

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

    def is_exp_monomial(self, p: Any) -> bool:
        """True if the polynomial ``p`` is a constant times powers of exponential generators (the denominator of a
        polynomial expression, ``exp(−x)``), not a fraction such as ``tan x = sin x / cos x``."""
        if len(p) != 1:
            return False
        exp_index = {self.ring.gens.index(g) for g in self._exp_pows}
        ((mon, _),) = p.terms()
        return all(i in exp_index for i, k in enumerate(mon) if k)

    def generator(self, x: sp.Symbol) -> Any:
        """The ring generator of the symbol ``x``, or None if ``x`` does not occur."""
        return self._gen_of.get(x)

    @property
    def has_exponentials(self) -> bool:
        """True if some generator is an exponential ``exp(b)``."""
        return bool(self._exp_pows)

    def vanishes(self, p: Any) -> bool:
        """True iff the polynomial ``p`` is zero modulo ``sin² + cos² − 1``: a generic point usually proves
        ``p ≠ 0`` with one evaluation (:meth:`witness_nonzero`); only otherwise is ``p`` reduced."""
        if not p:
            return True
        if self.witness_nonzero(p):
            return False
        return not self.reduce(p)

    def witness_nonzero(self, p: Any, tries: int = 2) -> bool:
        """True if the polynomial ``p`` is proved nonzero by evaluation at a generic rational point.

        Each ``(sin a, cos a)`` pair goes to a rational point of the unit circle
        ``(2t/(1+t²), (1−t²)/(1+t²))``, every other generator (symbols, exponentials, undefined
        functions) to a rational number. That assignment is a ring homomorphism of
        ``QQ[gens]/(sin² + cos² − 1)`` to ``QQ`` (the generators are algebraically independent up to
        the Pythagorean relations), so a nonzero value proves ``p`` nonzero modulo the identities —
        exactly, with no reduction or gcd. A zero value proves nothing (False): the caller reduces.
        """
        return any(p.evaluate(point) != 0 for point in self.generic_points(tries))

    def witness_nonsingular(self, M: sp.MatrixBase, tries: int = 2) -> bool:
        """True if the square matrix ``M`` (entries in this context) is proved nonsingular at a generic point.

        The entries are evaluated at the points of :meth:`witness_nonzero` where no denominator
        vanishes; ``det M(point) = (det M)(point) ≠ 0`` proves ``det M ≠ 0`` exactly. False proves nothing.
        """
        return self.witness_rank(M, tries) == M.rows == M.cols

    def witness_rank(self, M: sp.MatrixBase, tries: int = 2) -> int:
        """A lower bound of the rank of ``M`` (entries in this context): its largest rank at generic points.

        Specialising at a point is a ring homomorphism, so a nonzero minor there is a nonzero minor of
        ``M``: the rank at a point never exceeds the rank of ``M``. Points where a denominator vanishes are
        skipped. When the bound equals ``min(M.shape)`` it is the rank, exactly.
        """
        fr = [self.from_expr(e) for e in M]
        rows, cols = M.shape
        best = 0
        for point in self.generic_points(tries):
            vals = self.values_at(fr, point)
            if vals is not None:
                A = DomainMatrix([vals[i * cols : (i + 1) * cols] for i in range(rows)], (rows, cols), QQ)
                best = max(best, A.rank())
                if best == min(rows, cols):
                    break
        return best

    @staticmethod
    def values_at(fracs: Sequence[Any], point: list[tuple[Any, Any]]) -> list[Any] | None:
        """The values in QQ of the field elements ``fracs`` at ``point`` (:meth:`generic_points`), or None if a
        denominator vanishes there."""
        vals = []
        for f in fracs:
            d = f.denom.evaluate(point)
            if d == 0:
                return None
            vals.append(f.numer.evaluate(point) / d)
        return vals

    def generic_points(self, tries: int) -> Iterator[list[tuple[Any, Any]]]:
        """Assignments ``[(generator, value)]``: sin/cos pairs on the unit circle, the rest rational."""
        syms = self.ring.symbols
        pos = {g: i for i, g in enumerate(syms)}
        for k in range(tries):
            shift = k // len(_GENERIC)  # beyond the table's period: shifted values, so every point is new
            point: list[Any] = [QQ(*_GENERIC[(7 * i + 3 * k) % len(_GENERIC)]) + shift for i in range(len(syms))]
            for j, (s_a, c_a) in enumerate(self._pairs):
                t = QQ(*_GENERIC[(5 * j + k + 1) % len(_GENERIC)]) + shift
                point[pos[s_a]] = 2 * t / (1 + t * t)
                point[pos[c_a]] = (1 - t * t) / (1 + t * t)
            yield list(zip(self.ring.gens, point, strict=True))

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
            return self.field.raw_new(*cancel_coprime(*fast))
        num, den = self.reduce(f.numer), self.reduce(f.denom)
        if not den:
            raise ZeroDivisionError("denominator vanishes identically (sin² + cos² = 1)")
        num, den = self.cancel(num, den)
        return self.field.raw_new(num, den)

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

    def solve(self, G: sp.MatrixBase, b: sp.MatrixBase) -> tuple[sp.ImmutableMatrix, sp.Expr]:
        """Solve ``G x = b``: constant-pivot elimination if possible, else fraction-free.

        Fraction-free: each row of ``[G | b]`` is multiplied by the lcm of its denominators, the
        polynomial system is solved with ``DomainMatrix.solve_den`` (``G x_num = x_den b``),
        and ``x = x_num / x_den`` is reduced and cancelled entry by entry. When ``b`` is much larger
        than ``G`` the elimination runs on ``[G | I]`` only (``inv_den``: the same pivots, hence the
        same ``x_den``, with ``G N = x_den I``) and ``x_num = N b``; the common denominator is factored once and its
        factors divided out of each numerator before the final cancellation (:class:`_Canceller`).
        """
        n = G.rows
        k = b.cols
        elems = [[self.from_expr(x) for x in list(G.row(i)) + list(b.row(i))] for i in range(n)]
        quick = self._constant_pivot_elimination(elems, n)
        if quick is not None:
            return quick
        rows = []
        scale = self.field.one
        for i in range(n):
            row = elems[i]
            m = self.ring.one
            for x in row:
                m = lcm(m, x.denom)
            rows.append([x.numer * m.exquo(x.denom) for x in row])
            scale = scale * m
        fast = flint_solve_den([r[:n] for r in rows], [r[n:] for r in rows])  # FLINT (the ``fast`` extra)
        if fast is not None:
            return self._finish_solve(fast[0], fast[1], fast[1], scale, n, k)
        R = exact_domain(self.ring)
        A = DomainMatrix([r[:n] for r in rows], (n, n), R)
        B = DomainMatrix([r[n:] for r in rows], (n, k), R)
        try:
            if sum(map(len, B.to_flat_nz()[0])) > 2 * sum(map(len, A.to_flat_nz()[0])):
                # a large right-hand side: eliminate on [A | I] only (the same pivots, hence the same
                # denominator as on [A | B]) and multiply, instead of carrying B through the elimination
                inv, xden = A.inv_den(method="rref")
                xnum = inv * B
            else:
                xnum, xden = A.solve_den(B, method="rref")
        except DMNonInvertibleMatrixError:
            raise ZeroDivisionError("exact_solve: singular matrix") from None
        numerators = [[xnum[i, j].element for j in range(k)] for i in range(n)]
        return self._finish_solve(numerators, xden, A.det(), scale, n, k)

    def _finish_solve(
        self, xnum: list[list[Any]], xden: Any, det: Any, scale: Any, n: int, k: int
    ) -> tuple[sp.ImmutableMatrix, sp.Expr]:
        """``x = xnum / xden`` reduced and cancelled entry by entry, and ``det A / scale``, as expressions."""
        den = self.reduce(xden)
        if not den:
            raise ZeroDivisionError("exact_solve: singular matrix (its determinant vanishes by sin² + cos² = 1)")
        cancel = _Canceller(den, uses=n * k, factor=self.factor_list)

        def entry(num: Any) -> sp.Expr:
            fast = flint_normal([(den, num)], self._ideal, reduce_den=False)  # reduction and gcd in C
            pair = cancel_coprime(*fast) if fast is not None else cancel(self.reduce(num))
            return self._remember(self.field.raw_new(*pair))

        x = [[entry(xnum[i][j]) for j in range(k)] for i in range(n)]
        return sp.ImmutableMatrix(x), self.normal_expr(self.field.new(det, self.ring.one) / scale)

    def _constant_pivot_elimination(self, elems: list[list[Any]], n: int) -> tuple[sp.ImmutableMatrix, sp.Expr] | None:
        """Gauss–Jordan in the field while a nonzero constant pivot exists in every column.

        Frames are typically a permutation times a unipotent matrix: every pivot is a number,
        the entries stay polynomial and this is much cheaper than the fraction-free solve.
        Returns None as soon as a column has no constant pivot (the caller then solves
        fraction-free from the start).
        """
        aug = [list(r) for r in elems]
        det = self.field.one
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
        x = sp.ImmutableMatrix([[self.normal_expr(e) for e in row[n:]] for row in aug])
        return x, self.to_expr(det)


#: the rational values of a "generic" point (distinct, no small-integer coincidences)
_GENERIC = (
    (7, 13), (-5, 11), (3, 17), (11, 19), (-13, 23), (17, 29), (19, 31), (-2, 37), (23, 41), (29, 43),
    (-31, 47), (37, 53), (41, 59), (-43, 61), (47, 67), (53, 71), (-59, 73), (61, 79), (67, 83), (71, 89),
)  # fmt: skip


def _exp_argument(a: sp.Expr) -> sp.Expr:
    """The argument of an exponential atom (``exp(x)``, ``sinh x``, …; ``E`` is ``exp(1)``); a complex one
    (``exp(i x)``, algebraic over ``cos x``, ``sin x``) is unsupported."""
    arg = sp.S.One if a is sp.E else a.args[0]
    if arg.has(sp.I):
        raise UnsupportedExpression(f"complex exponential: {a}")
    return arg  # type: ignore[no-any-return]
