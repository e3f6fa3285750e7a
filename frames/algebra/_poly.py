r"""Polynomial arithmetic under :class:`~frames.algebra.RationalFunctions`: exact division, cancellation, writing back.

* :func:`exact_quotient` — ``p / f`` when ``f`` divides ``p`` (heap division on packed monomials);
* :class:`_Canceller`, :func:`cancel_coprime` — ``num.cancel(den)`` by trial division with the factors of
  ``den``, without a polynomial gcd;
* :func:`poly_expr` — ``p.as_expr(*atoms)``, the identical expression built without ``Mul``/``Add`` flattening;
* with python-flint installed (the ``fast`` extra, :mod:`frames.algebra._flint`), large exact quotients,
  products and cancellations are computed by FLINT, with identical results;
* :func:`exact_domain` — the polynomial ring as a ``DomainMatrix`` domain whose exact division (every
  division of fraction-free elimination and of the Bareiss determinant) is :func:`exact_quotient`.

Each returns exactly what the sympy operation it replaces returns (property tests in
``tests/algebra/test_sparse.py``); they exist because sympy's versions are quadratic in the number of
terms (a leading-term search of the whole remainder at every step) or rebuild every term.
"""

from __future__ import annotations

import heapq
import math
import operator
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import sympy as sp
from sympy.core.basic import Basic, _args_sortkey, ordering_of_classes
from sympy.polys.domains import PolynomialRing
from sympy.polys.orderings import lex
from sympy.polys.polyerrors import ExactQuotientFailed

from ._budget import checkpoint
from ._flint import enabled as _flint_enabled
from ._flint import flint_cancel, flint_product, flint_quotient, swap_pivot

__all__ = ["bareiss", "cancel_coprime", "exact_domain", "exact_quotient", "lcm", "poly_expr"]


class _Canceller:
    """``num.cancel(den)`` for many numerators over one denominator.

    The irreducible factors of a large denominator (a determinant) are found once; each numerator is
    divided by those it contains, after which numerator and denominator are coprime and only their
    integer contents and sign are normalised (:func:`cancel_coprime`, no gcd). The result is
    ``num.cancel(den)`` exactly: ``cancel`` returns the unique normal form of the fraction (coprime,
    integer contents coprime, positive leading coefficient of the denominator).
    """

    #: denominators with fewer terms are cancelled directly, larger ones are not factored (cost)
    MIN_TERMS = 24
    MAX_TERMS = 400
    #: numerator and denominator with more terms in all are cancelled by trial division (see
    #: :meth:`RationalFunctions.cancel`); below, sympy's gcd is fast
    LARGE = 2000

    def __init__(self, den: Any, uses: int = 2, min_terms: int | None = None, factor: Any = None) -> None:
        self.den = den
        self.factors: list[tuple[Any, int]] | None = None
        low = self.MIN_TERMS if min_terms is None else min_terms
        if uses > 1 and low <= len(den) <= self.MAX_TERMS and not den.is_ground and not _flint_enabled():
            fs = (factor or (lambda p: p.factor_list()))(den)[1]
            self.factors = [(f, k) for f, k in fs if not f.is_ground]

    def __call__(self, num: Any) -> tuple[Any, Any]:
        den = self.den
        if self.factors is None:
            return cancel(num, den)
        for f, k in self.factors:
            for _ in range(k):
                checkpoint()
                q = exact_quotient(num, f)
                if q is None:
                    break
                num, den = q, den.exquo(f)
        return cancel_coprime(num, den)


def cancel(num: Any, den: Any) -> tuple[Any, Any]:
    """``num.cancel(den)`` exactly, the gcd computed by FLINT when installed (:func:`~frames.algebra._flint.flint_cancel`,
    the ``fast`` extra; the normal form is unique, so the result is sympy's). Property test:
    ``tests/algebra/test_sparse.py::test_flint_cancel_equals_sympy_cancel``."""
    coprime = flint_cancel(num, den)
    return num.cancel(den) if coprime is None else cancel_coprime(*coprime)  # type: ignore[no-any-return]


def lcm(a: Any, b: Any) -> Any:
    """A least common multiple of the polynomials ``a`` and ``b`` over QQ, up to a constant factor: ``a·(b/g)``,
    ``g = gcd(a, b)`` from :func:`cancel` (FLINT's gcd when installed; sympy's ``lcm`` uses its heuristic gcd,
    minutes on the denominators of a large system)."""
    if b.is_ground or a == b:
        return a
    if a.is_ground:
        return b
    return a * cancel(a, b)[1]


def cancel_coprime(num: Any, den: Any) -> tuple[Any, Any]:
    """``num.cancel(den)`` for polynomials over QQ with no common factor of positive degree (no gcd).

    The same steps as :meth:`PolyElement.cancel` with the polynomial gcd known to be 1: denominators
    cleared, the gcd of the integer contents divided out, the cleared constants cancelled against each
    other, and the sign chosen so that the leading coefficient of the denominator is positive.
    """
    ring = num.ring
    if not num:
        return num, ring.one
    domain = ring.domain
    if not (domain.is_Field and domain.has_assoc_Ring):  # pragma: no cover - the rings here are over QQ
        return num.cancel(den)  # type: ignore[no-any-return]
    ZZ = domain.get_ring()
    zring = ring.clone(domain=ZZ)
    cq, f = num.clear_denoms()
    cp, g = den.clear_denoms()
    f, g = f.set_ring(zring), g.set_ring(zring)
    c = ZZ.gcd(f.content(), g.content())
    if c != 1:
        f, g = f.quo_ground(c), g.quo_ground(c)
    _, cp, cq = ZZ.cofactors(cp, cq)
    p = f.set_ring(ring).mul_ground(cp)
    q = g.set_ring(ring).mul_ground(cq)
    if q.LC < 0:
        p, q = -p, -q
    return p, q


#: polynomials with fewer terms are written by sympy's ``as_expr``
_FAST_EXPR_TERMS = 32

_UNKNOWN_CLASS = len(ordering_of_classes) + 1
_CLASS_KEYS: dict[type, tuple[int, str]] = {}


def _class_key(cls: type) -> tuple[int, str]:
    """The rank of a class in :func:`sympy.core.basic._cmp_name`'s order: its place in
    ``ordering_of_classes``, else after all of them and by name."""
    k = _CLASS_KEYS.get(cls)
    if k is None:
        name = cls.__name__
        k = (ordering_of_classes.index(name), "") if name in ordering_of_classes else (_UNKNOWN_CLASS, name)
        _CLASS_KEYS[cls] = k
    return k


def compare_key(e: Basic, memo: dict[int, Any]) -> Any:
    """A sort key whose order is :meth:`sympy.Basic.compare`'s (the order of ``Add``'s and ``Mul``'s arguments).

    ``compare`` decides by the class (:func:`_class_key`), then the length of the hashable content,
    then its items in turn (sub-expressions recursively, other items by ``<``): the tuple
    ``(class, length, items)`` compares the same way, in C, with each sub-expression's key computed once
    (``memo``, by identity: only for objects alive during one sort). ``TypeError`` for contents it does not
    cover (frozensets); the caller then sorts with ``compare`` itself.
    """
    k = memo.get(id(e))
    if k is None:
        hc = e._hashable_content()
        items = []
        for x in hc:
            if isinstance(x, Basic):
                items.append(compare_key(x, memo))
            elif isinstance(x, frozenset):
                raise TypeError("frozenset content")
            else:
                items.append(x)
        k = memo[id(e)] = (*_class_key(type(e)), len(hc), tuple(items))
    return k


def canonical_sort(args: list[Any], memo: dict[int, Any]) -> None:
    """Sort ``args`` in place in sympy's canonical order (``_args_sortkey``), by :func:`compare_key`."""
    try:
        args.sort(key=lambda a: compare_key(a, memo))
    except TypeError:  # pragma: no cover - contents compare_key does not cover
        args.sort(key=_args_sortkey)


def poly_expr(p: Any, atoms: Sequence[sp.Expr]) -> sp.Expr:
    """``p.as_expr(*atoms)``, the identical expression, built without sympy's ``Mul``/``Add`` flattening.

    Each term is assembled as ``Mul``'s canonical form (the coefficient first, the factors ``a**k`` in
    sympy's canonical order) and the sum as ``Add``'s (the terms in canonical order, a constant first);
    the monomials of a polynomial are distinct, so no term combines with another. A term with more than
    one exponential factor (which ``Mul`` merges, ``exp(a) exp(b) = exp(a + b)``) is built by ``Mul``.
    """
    if len(p) < _FAST_EXPR_TERMS:
        return p.as_expr(*atoms)  # type: ignore[no-any-return]
    to_sympy = p.ring.domain.to_sympy
    memo: dict[int, Any] = {}
    powers: dict[tuple[int, int], sp.Expr] = {}
    is_exp = [isinstance(a, sp.exp) for a in atoms]
    terms: list[sp.Expr] = []
    constant = sp.S.Zero
    for count, (mon, c) in enumerate(p.items()):
        if not count % 4096:
            checkpoint()
        coeff = to_sympy(c)
        factors = []
        exps = 0
        for i, k in enumerate(mon):
            if k:
                f = powers.get((i, k))
                if f is None:
                    f = powers[(i, k)] = atoms[i] if k == 1 else sp.Pow(atoms[i], k)
                factors.append(f)
                exps += is_exp[i]
        if not factors:
            constant = coeff
            continue
        if exps > 1 or any(not f.is_commutative or f.is_Number or f.is_Mul or f.is_Add for f in factors):
            terms.append(sp.Mul(coeff, *factors))
            continue
        if len(factors) == 1 and coeff is sp.S.One:
            terms.append(factors[0])
            continue
        canonical_sort(factors, memo)
        if coeff is not sp.S.One:
            factors.insert(0, coeff)
        terms.append(sp.Mul._from_args(factors))
    if len(terms) == 1 and constant is sp.S.Zero:
        return terms[0]
    canonical_sort(terms, memo)
    if constant is not sp.S.Zero:
        terms.insert(0, constant)
    return sp.Add._from_args(terms)


def exact_quotient(p: Any, f: Any) -> Any:
    """``p / f`` if ``f`` divides the polynomial ``p`` exactly, else None (``f ≠ 0``, same ring, lex order).

    Division by one polynomial with the remainder's leading terms taken from a heap (lazy deletion),
    instead of :meth:`PolyElement.div`'s search of the whole remainder at every step (quadratic in
    the number of terms). It stops at the first leading term that ``LT(f)`` does not divide: if
    ``f | p`` then ``p = q f`` and ``LT(p) = LT(q) LT(f)``, for every remainder of the division; and
    at the first quotient term of degree above ``deg_i p − deg_i f`` in some generator.

    Monomials are packed into integers, one field per generator with a guard bit, the first generator
    most significant: lex comparison is integer comparison, a product of monomials is a sum, and
    ``LT(f)`` divides ``m`` iff ``m − LM(f)`` sets no guard bit (no borrow). The degree bound keeps every
    monomial of the division within the fields (``deg_i`` of a remainder term ``≤ deg_i p``).
    """
    ring = p.ring
    if not p:
        return ring.zero
    used, q = flint_quotient(p, f)  # FLINT's exact division when installed and the operands are large
    if used:
        return q
    if ring.order != lex:  # pragma: no cover - the rings of this module are lexicographic
        q, r = p.div(f)
        return None if r else q
    if any(a < b for a, b in zip(p.LM, f.LM, strict=True)):
        return None  # LT(f) does not divide LT(p)
    n = ring.ngens
    pdeg = list(map(max, zip(*p.itermonoms(), strict=True)))
    fdeg = list(map(max, zip(*f.itermonoms(), strict=True)))
    if any(a < b for a, b in zip(pdeg, fdeg, strict=True)):
        return None
    widths = [d.bit_length() + 1 for d in pdeg]
    shifts = [0] * n
    for i in range(n - 2, -1, -1):
        shifts[i] = shifts[i + 1] + widths[i + 1]
    guard = sum(1 << (s + w - 1) for s, w in zip(shifts, widths, strict=True))

    def pack(m: Sequence[int]) -> int:
        return sum(map(operator.lshift, m, shifts))

    qlim = pack([a - b for a, b in zip(pdeg, fdeg, strict=True)])
    fm = pack(f.LM)
    fc = f.LC
    rest = [(pack(m), c) for m, c in f.items() if pack(m) != fm]
    every = max(1, min(1024, _CHECK_WORK // max(1, len(rest))))  # quotient terms between two checkpoints
    rem = {pack(m): c for m, c in p.items()}
    heap = [-k for k in rem]
    heapq.heapify(heap)
    quot: dict[int, Any] = {}
    while heap:
        m = -heapq.heappop(heap)
        c = rem.pop(m, None)
        if c is None or not c:
            continue  # stale (already cancelled)
        qm = m - fm
        if qm & guard or (qlim - qm) & guard:  # LM(f) does not divide m, or the quotient's degree is too high
            return None
        qc = c / fc
        quot[qm] = qc
        if not len(quot) % every:
            checkpoint()  # a budget is honoured inside a long division (fraction-free elimination's steps)
        for fk, fcoef in rest:
            mm = qm + fk
            old = rem.get(mm)
            if old is None:
                rem[mm] = -qc * fcoef
                heapq.heappush(heap, -mm)
            else:
                new = old - qc * fcoef
                if new:
                    rem[mm] = new
                else:
                    del rem[mm]
    masks = [(1 << w) - 1 for w in widths]
    return ring.from_dict(
        {tuple((k >> s) & mk for s, mk in zip(shifts, masks, strict=True)): c for k, c in quot.items()}
    )


#: term operations between two checkpoints of a long division or product (a few milliseconds in Python)
_CHECK_WORK = 1 << 16


def product(p: Any, q: Any) -> Any:
    """``p * q`` for two polynomials of one ring: FLINT for large operands (:func:`~frames.algebra._flint.flint_product`),
    else in pieces of about :data:`_CHECK_WORK` term products with the budget's checkpoint between two pieces, so
    that no single product of growing polynomials runs past a budget. The result is ``p * q`` exactly."""
    if len(p) < 2 or len(q) < 2:
        return p * q
    if _flint_enabled():
        return flint_product(p, q)
    if len(p) < len(q):
        p, q = q, p
    size = max(1, _CHECK_WORK // len(q))
    if len(p) <= size:
        return p * q
    ring = p.ring
    terms = list(p.items())
    out: dict[Any, Any] = {}
    for i in range(0, len(terms), size):
        checkpoint()
        for m, c in (ring.from_dict(dict(terms[i : i + size])) * q).items():
            out[m] = out.get(m, 0) + c
    return ring.from_dict({m: c for m, c in out.items() if c})


def bareiss(
    A: Sequence[Sequence[Any]],
    B: Sequence[Sequence[Any]] = (),
    *,
    one: Any,
    mul: Any = None,
    exquo: Any = None,
    jordan: bool = True,
) -> tuple[list[list[Any]], Any]:
    r"""Fraction-free (Bareiss) elimination on ``[A | B]`` over an integral domain: ``(adj(A) B, det A)``.

    At step ``c`` the pivot ``p`` is the nonzero entry of column ``c`` with fewest terms, and every other row
    (``jordan``; only the rows below without it, which gives the determinant alone) becomes
    ``(p M_ij − M_ic M_cj) / p_prev``, an exact division (the entries are minors of ``[A | B]``). At the end every
    diagonal entry is ``± det A`` and the right-hand block ``± adj(A) B``; the sign of the row swaps is put back.
    The pair is unique, so it is exactly what ``DomainMatrix.solve_den(method="rref")`` and ``DomainMatrix.det``
    give after cancellation; unlike those single calls, the budget's checkpoint runs before every entry update
    and inside the products and divisions of large entries (:func:`product`, :func:`exact_quotient`).

    Parameters
    ----------
    A, B : sequences of rows
        ``A`` square (``n × n``), ``B`` ``n × k`` (or empty: ``k = 0``), entries in one integral domain.
    one : element
        The domain's one.
    mul, exquo : callable, optional
        Product and exact division of two entries (default :func:`product` and :func:`exact_quotient`, for
        polynomials of one lexicographic ring over QQ).
    jordan : bool, default True
        Gauss–Jordan (the solution) or triangular (the determinant only: ``B`` is ignored and the first
        element of the result is ``[]``).

    Raises
    ------
    ZeroDivisionError
        If ``A`` is singular (with ``jordan``; without, the determinant is zero).
    """
    mul = mul or product

    def div(p: Any, q: Any) -> Any:
        if exquo is not None:
            return exquo(p, q)
        if q == one:
            return p
        out = exact_quotient(p, q)
        if out is None:  # pragma: no cover - the entries of fraction-free elimination are minors
            raise ArithmeticError("bareiss: an entry is not divisible by the previous pivot")
        return out

    n = len(A)
    k = len(B[0]) if (B and jordan) else 0
    M = [list(A[i]) + (list(B[i]) if k else []) for i in range(n)]
    prev, sign = one, 1
    size = (lambda x: len(x)) if n and hasattr(M[0][0], "__len__") else (lambda x: 0)
    for c in range(n):
        checkpoint()
        swap = swap_pivot(M, c, size, bool)
        if not swap:
            if not jordan:
                return [], M[c][c] - M[c][c]  # the domain's zero: det A = 0
            raise ZeroDivisionError("solve_linear: singular matrix")
        sign *= swap
        p, row_c = M[c][c], M[c]
        for i in range(n) if jordan else range(c + 1, n):
            if i == c:
                continue
            a, row = M[i][c], M[i]
            for j in range(c + 1 if not jordan else 0, n + k):
                if j == c:
                    continue
                checkpoint()
                x, y = row[j], row_c[j]
                if not a or not y:
                    row[j] = div(mul(p, x), prev) if x else x
                elif not x:
                    row[j] = div(-mul(a, y), prev)
                else:
                    row[j] = div(mul(p, x) - mul(a, y), prev)
            row[c] = M[i][c] - M[i][c]  # the domain's zero
        prev = p
    if not n:
        return [], one
    if not jordan:
        return [], prev if sign > 0 else -prev
    xnum = [[M[i][n + j] if sign > 0 else -M[i][n + j] for j in range(k)] for i in range(n)]
    return xnum, prev if sign > 0 else -prev


@lru_cache(maxsize=64)
def _binomials(k: int) -> tuple[int, ...]:
    """``C(k, j)`` for ``j = 0..k``."""
    return tuple(math.comb(k, j) for j in range(k + 1))


class _ExactPolynomialRing(PolynomialRing):  # type: ignore[misc]
    """sympy's polynomial-ring domain with :func:`exact_quotient` as its exact division.

    ``Ring.exquo`` computes ``a % b`` and then ``a // b``, two divisions each quadratic in the terms of
    ``a``; fraction-free elimination (``DomainMatrix.rref_den``, ``inv_den``, ``solve_den``) and the Bareiss
    determinant divide exactly at every step. Equal to the plain domain of the same ring.
    """

    def exquo(self, a: Any, b: Any) -> Any:
        q = exact_quotient(a, b)
        if q is None:
            raise ExactQuotientFailed(a, b, self)
        return q


def exact_domain(ring: Any) -> Any:
    """``ring.to_domain()`` with exact division by :func:`exact_quotient` (see :class:`_ExactPolynomialRing`)."""
    return _ExactPolynomialRing(ring)
