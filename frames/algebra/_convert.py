r"""Conversion between sympy expressions and :class:`~frames.algebra.RationalFunctions`.

* the generators of an element's ring, found from the expressions (:class:`_Conversion`'s constructor):
  symbols, undefined functions and their derivatives, ``sin``/``cos`` pairs of the basis angles and
  ``exp`` of the basis elements of the argument lattices (:mod:`frames.algebra._lattice`);
* :meth:`_Conversion.from_expr` — an expression as ``numerator/denominator`` in the polynomial ring, built
  without any gcd; :meth:`_Conversion.to_expr` — back to sympy (:func:`~frames.algebra._poly.poly_expr`);
* the memory of the normal forms written back (:data:`_TIDY_FORMS`, :data:`_RING_FORMS`): a large written
  form is not converted again (:func:`is_known_tidy`, :func:`replace_atoms`, the re-indexing in
  :meth:`_Conversion.from_expr`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy as sp
from sympy.polys.domains import QQ
from sympy.polys.fields import field as _fraction_field
from sympy.polys.orderings import lex
from sympy.polys.rings import PolyElement

from ._budget import checkpoint
from ._flint import flint_product
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
from ._poly import _Canceller, exact_quotient, lcm, poly_expr
from ._scan import _scan_all

__all__ = ["is_known_tidy", "replace_atoms"]


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
#: ring forms with fewer terms are not stored (converting the tree is cheap)
_RING_FORMS_MIN_TERMS = 64


def _store_ring_form(e: sp.Expr, atoms: tuple[sp.Expr, ...], num: dict[Any, Any], den: dict[Any, Any]) -> None:
    """Record ``e -> (atoms, num, den)`` in :data:`_RING_FORMS`, the oldest entries dropped beyond its bounds."""
    if e in _RING_FORMS:
        return
    size = len(num) + len(den)
    # only the atoms the form uses: another context (a sum containing the form) need not have the others
    used = [i for i in range(len(atoms)) if any(m[i] for m in num) or any(m[i] for m in den)]
    if len(used) < len(atoms):
        atoms = tuple(atoms[i] for i in used)
        num = {tuple(m[i] for i in used): c for m, c in num.items()}
        den = {tuple(m[i] for i in used): c for m, c in den.items()}
    held = sum(len(n) + len(d) for _, n, d in _RING_FORMS.values())  # at most 256 entries
    while _RING_FORMS and (len(_RING_FORMS) >= _RING_FORMS_MAX or held + size > _RING_FORMS_MAX_TERMS):
        _, old_num, old_den = _RING_FORMS.pop(next(iter(_RING_FORMS)))
        held -= len(old_num) + len(old_den)
    _RING_FORMS[e] = (atoms, num, den)


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
    ring = _fraction_field([sp.Dummy() for _ in atoms] or [sp.Dummy()], QQ, lex)[0].ring
    p, q = ring.from_dict(num), ring.from_dict(den)
    return poly_expr(p, new) / poly_expr(q, new)  # type: ignore[no-any-return]


class _Conversion:
    """The generators of a set of expressions, and conversion of expressions to and from their ring.

    The base of :class:`~frames.algebra.RationalFunctions` (see there for the generators and the options).
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
            self.fractions, *_ = _fraction_field(gens, QQ, lex)
        else:
            self.fractions, *_ = _fraction_field([sp.Dummy("one")], QQ, lex)
        self.ring = self.fractions.ring
        self.domain = self.fractions.to_domain()
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
        return self.fractions.raw_new(num, den)  # not cancelled: :meth:`normal` cancels once

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
                for mon, c in flint_product(n, _Conversion.quotient(den, d)).items():
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
        f = self.fractions.from_expr(e)  # pragma: no cover - other atoms
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


def _exp_argument(a: sp.Expr) -> sp.Expr:
    """The argument of an exponential atom (``exp(x)``, ``sinh x``, …; ``E`` is ``exp(1)``); a complex one
    (``exp(i x)``, algebraic over ``cos x``, ``sin x``) is unsupported."""
    arg = sp.S.One if a is sp.E else a.args[0]
    if arg.has(sp.I):
        raise UnsupportedExpression(f"complex exponential: {a}")
    return arg  # type: ignore[no-any-return]
