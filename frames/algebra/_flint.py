r"""Optional C arithmetic for large polynomials: python-flint's ``fmpq_mpoly`` (the ``fast`` extra).

When :mod:`flint` imports (``pip install "frames[fast]"``), the operations whose result is unique hand their
large operands to FLINT: the exact quotient, the product, a sum of fractions reduced modulo ``s² + c² − 1`` and
cancelled (:func:`flint_normal`), and the fraction-free solve ``(adj(A) B, det A)`` (:func:`flint_solve_den`). The results are converted back to sympy's ``PolyElement`` and are *identical* to the pure-Python
ones (a quotient, a product and a normalised cancelled fraction are unique), so every normal form and every
printed result is the same with or without the extra; only the time differs. ``FRAMES_FLINT=0`` in the
environment switches it off.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ..errors import BudgetExceededError
from ._budget import checkpoint, current_budget

__all__ = [
    "enabled",
    "flint_cancel",
    "flint_factor_list",
    "flint_normal",
    "flint_gcd",
    "flint_product",
    "flint_quotient",
    "flint_solve_den",
]

#: operands with fewer terms (both together) stay in Python (conversion costs more than it saves)
MIN_TERMS = 200


@lru_cache(maxsize=1)
def _module() -> Any:
    """python-flint if it is installed in a usable release (0.9: ``fmpq_mpoly`` contexts by name), else None;
    imported on first use, not by ``import frames``."""
    try:  # pragma: no cover - depends on the installed extras
        import flint
    except ImportError:  # pragma: no cover
        return None
    return flint if hasattr(getattr(flint, "fmpq_mpoly_ctx", None), "get") else None


def enabled() -> bool:
    """True if python-flint is installed and not switched off by ``FRAMES_FLINT=0``."""
    if os.environ.get("FRAMES_FLINT", "1") == "0":
        return False
    return _module() is not None


@lru_cache(maxsize=64)
def _context(ngens: int) -> Any:
    return _module().fmpq_mpoly_ctx.get(tuple(f"x{i}" for i in range(ngens)), "lex")


def _to(p: Any, ctx: Any) -> Any:
    checkpoint()  # a conversion is a Python loop over the terms: the budget is checked before each
    fmpq = _module().fmpq
    if len(p) <= _CONVERT_CHUNK:
        return ctx.from_dict({m: fmpq(int(c.numerator), int(c.denominator)) for m, c in p.items()})
    items = list(p.items())
    out = {}
    for i in range(0, len(items), _CONVERT_CHUNK):
        checkpoint()
        out.update({m: fmpq(int(c.numerator), int(c.denominator)) for m, c in items[i : i + _CONVERT_CHUNK]})
    return ctx.from_dict(out)


def _back(f: Any, ring: Any) -> Any:
    checkpoint()
    QQ = ring.domain
    items = list(f.to_dict().items())
    if len(items) <= _CONVERT_CHUNK:
        return ring.from_dict({m: QQ(int(c.p), int(c.q)) for m, c in items})
    out = {}
    for i in range(0, len(items), _CONVERT_CHUNK):  # a large result: the budget is checked between chunks
        checkpoint()
        out.update({m: QQ(int(c.p), int(c.q)) for m, c in items[i : i + _CONVERT_CHUNK]})
    return ring.from_dict(out)


#: terms converted between two checkpoints (a few tens of milliseconds)
_CONVERT_CHUNK = 1 << 15


def flint_factor_list(p: Any) -> tuple[Any, list[tuple[Any, int]]] | None:
    """``p.factor_list()`` of a ``PolyElement`` over QQ or ZZ, the factorisation computed by FLINT; None when FLINT is
    not used (no flint, another domain, or a constant).

    The result is sympy's exactly: the irreducible factors over ZZ are unique up to sign, and both give each one
    primitive with integer coefficients and a positive leading coefficient in the ring's (lex) order, the
    constant ``c`` with ``p = c·Π fᵢ^kᵢ``, and the factors in the order of sympy's ``_sort_factors`` (dense
    representation). Exists because sympy's multivariate factorisation (Wang's algorithm in Python) is most of
    the time of a report's display forms. Property test:
    ``tests/algebra/test_sparse.py::test_flint_factorisation_equals_sympy_factorisation``.
    """
    ring = p.ring
    K = ring.domain
    if not enabled() or ring.ngens == 0 or p.is_ground or not (K.is_QQ or K.is_ZZ):
        return None
    ctx = _context(ring.ngens)
    _c, fs = _to(p, ctx).factor()  # the constant is recomputed from the normalised factors
    out = []
    denom = K.one
    for f, k in fs:
        d = {m: (int(a.p), int(a.q)) for m, a in f.to_dict().items()}
        scale = math.lcm(*(b for _a, b in d.values()))
        ints = {m: a * (scale // b) for m, (a, b) in d.items()}
        g = math.gcd(*ints.values())
        if ints[max(ints)] < 0:
            g = -g
        out.append((ring.from_dict({m: K(a // g) for m, a in ints.items()}), int(k)))
        denom *= K(ints[max(ints)] // g) ** int(k)
    lead = p[max(p.keys())]  # the leading coefficient in lex order (as the factors' signs)
    coeff = K.quo(lead, denom) if K.is_QQ else K.exquo(lead, denom)
    dense = [f.to_dense() for f, _k in out]
    order = sorted(range(len(out)), key=lambda i: (len(dense[i]), out[i][1], dense[i]))  # sympy's _sort_factors
    return coeff, [out[i] for i in order]


#: a conservative rate of FLINT's sparse multiplication (term products per second on one core): a single C call
#: cannot be interrupted, so one that would overrun an open budget is refused before it starts
PRODUCTS_PER_SECOND = 2e7
#: seconds a refused C call may still overrun (as the SIGALRM grace of :func:`~frames.algebra.budget`)
GRACE = 2.0


#: the slowest rate observed in this process (term products per second, :func:`_timed`): large rational
#: coefficients make a product slower than :data:`PRODUCTS_PER_SECOND`; :func:`_afford` uses the slower of the two
_observed_rate = [PRODUCTS_PER_SECOND]


def _timed(products: int, started: float) -> None:
    """Record the rate of a C call of about ``products`` term products that began at ``started`` (monotonic)."""
    elapsed = time.monotonic() - started
    if products >= 100_000 and elapsed > 0.05:
        rate = products / elapsed
        # the estimate follows a slower call at once and recovers slowly
        _observed_rate[0] = min(PRODUCTS_PER_SECOND, rate, 0.8 * _observed_rate[0] + 0.2 * PRODUCTS_PER_SECOND)


def _afford(products: int) -> None:
    """Raise the open budget's :class:`~frames.errors.BudgetExceededError` now if ``products`` term products would
    run past it (the estimate is coarse: the slower of :data:`PRODUCTS_PER_SECOND` and the rate observed,
    :func:`_timed`; without a budget nothing is checked)."""
    b = current_budget()
    if b is not None and products / _observed_rate[0] > b.remaining + GRACE:
        raise BudgetExceededError(
            f"time budget of {b.seconds:g} s would be exceeded during step {b.current!r}: its next polynomial "
            f"product (about {products:.2g} term products, one C call that cannot be interrupted) needs more than "
            f"the {max(b.remaining, 0.0):.1f} s left (steps started: {', '.join(b.steps) or 'none'})",
            step=b.current,
        )


def _afford_gcd(a: Any, b: Any) -> None:
    """:func:`_afford` for one gcd of ``a`` and ``b`` (a single C call): estimated as their product."""
    _afford(len(a) * len(b))


def _use(*ps: Any) -> bool:
    return enabled() and sum(len(p) for p in ps) >= MIN_TERMS and ps[0].ring.ngens > 0


def flint_quotient(p: Any, f: Any) -> tuple[bool, Any]:
    """``(True, p / f or None)`` computed by FLINT, or ``(False, None)`` when not used (small, or no flint)."""
    if not _use(p, f):
        return False, None
    ctx = _context(p.ring.ngens)
    try:
        q = _to(p, ctx) / _to(f, ctx)
    except Exception as exc:  # FLINT's DomainError (flint.utils.flint_exceptions): not exact
        if type(exc).__name__ != "DomainError":
            raise
        return True, None
    return True, _back(q, p.ring)


#: term products of one uninterrupted piece of a large product (a fraction of a second)
PIECE = 2_000_000


def flint_product(p: Any, q: Any) -> Any:
    """``p * q`` (FLINT for large operands). A large product is computed in pieces of about :data:`PIECE`
    term products, with the budget's checkpoint between two pieces (:func:`~frames.algebra.checkpoint`)."""
    if not _use(p, q) or len(p) < 2 or len(q) < 2:
        return p * q
    if len(p) < len(q):
        p, q = q, p
    ctx = _context(p.ring.ngens)
    fq = _to(q, ctx)
    size = max(1, PIECE // len(q))
    if len(p) <= size:
        checkpoint()
        _afford(len(p) * len(q))
        fp = _to(p, ctx)
        started = time.monotonic()
        out = fp * fq
        _timed(len(p) * len(q), started)
        return _back(out, p.ring)
    terms = list(p.items())
    out = ctx.from_dict({})
    for i in range(0, len(terms), size):
        checkpoint()
        _afford(min(size, len(terms) - i) * len(q))
        piece = p.ring.from_dict(dict(terms[i : i + size]))
        out += _to(piece, ctx) * fq
    return _back(out, p.ring)


def flint_normal(parts: list[tuple[Any, Any]], ideal: list[Any], reduce_den: bool = True) -> tuple[Any, Any] | None:
    """``Σ n/d`` over ``parts`` (pairs ``(d, n)``) reduced modulo ``ideal`` and cancelled, computed by FLINT.

    The numerators are added over the lcm of the denominators (a shared factor is not multiplied in
    again: after the reduction modulo the ideal the numerator need no longer be divisible by it), numerator and denominator (unless
    ``reduce_den`` is False) are reduced by division with remainder by each ``s² + c² − 1`` (a Gröbner basis:
    the remainder is the normal form; with no ``ideal``, a plain cancellation), and their gcd is divided out. Returns ``(num, den)`` as ``PolyElement``
    (coprime; contents and sign not yet normalised, see :func:`~frames.algebra._poly.cancel_coprime`), or None
    when FLINT is not used (small operands, or no flint). Raises ``ZeroDivisionError`` if the reduced
    denominator vanishes.
    """
    if not parts or not _use(*(p for pair in parts for p in pair)):
        return None
    ring = parts[0][0].ring
    ctx = _context(ring.ngens)
    num, den = ctx.from_dict({}), ctx.from_dict({(0,) * ring.ngens: 1})
    for d, n in parts:
        if not n:
            continue
        checkpoint()
        fd, fn = _to(d, ctx), _to(n, ctx)
        if fd == den:
            num = num + fn
            continue
        # Over the lcm: a factor shared by two denominators (D and D·f, as two columns of one solve have)
        # multiplied in twice would survive the reduction modulo the ideal below.
        common = den.gcd(fd)
        if not common.is_one():
            fd, fden = fd / common, den / common
        else:
            fden = den
        _afford(len(num) * len(fd) + len(fn) * len(fden))
        num, den = num * fd + fn * fden, den * fd
    gens = [_to(g, ctx) for g in ideal]
    for g in gens:
        checkpoint()
        _afford(2 * (len(num) + len(den)))  # one division by a trinomial: linear in the terms
        num = divmod(num, g)[1]
        if reduce_den:
            den = divmod(den, g)[1]
    if den.is_zero():
        raise ZeroDivisionError("denominator vanishes identically (sin² + cos² = 1)")
    if num.is_zero():
        return ring.zero, ring.one
    _afford_gcd(num, den)
    g = num.gcd(den)
    if not g.is_one():
        num, den = num / g, den / g
    return _back(num, ring), _back(den, ring)


def flint_gcd(a: Any, b: Any) -> Any:
    """``gcd(a, b)`` of two ``PolyElement`` over QQ by FLINT, or None when FLINT is not used."""
    ring = a.ring
    if not enabled() or ring.ngens == 0 or not ring.domain.is_QQ or a.is_ground or b.is_ground:
        return None
    checkpoint()
    ctx = _context(ring.ngens)
    return _back(_to(a, ctx).gcd(_to(b, ctx)), ring)


def flint_cancel(num: Any, den: Any) -> tuple[Any, Any] | None:
    """``num / den`` with the gcd divided out by FLINT, for ``PolyElement`` over QQ of any size: ``(num', den')``
    coprime (contents and sign not yet normalised, see :func:`~frames.algebra._poly.cancel_coprime`), or None when
    FLINT is not used (no flint, another domain, no generators, or a constant denominator).

    Exists because sympy's heuristic gcd, even on polynomials of a few dozen terms, was a fifth of the time of the
    vakonomic and consistency sections of the carriage's report; FLINT's is several times faster at every size.
    """
    ring = num.ring
    if not enabled() or ring.ngens == 0 or not ring.domain.is_QQ or den.is_ground:
        return None
    checkpoint()
    ctx = _context(ring.ngens)
    a, b = _to(num, ctx), _to(den, ctx)
    _afford_gcd(a, b)
    g = a.gcd(b)
    if not g.is_one():
        a, b = a / g, b / g
    return _back(a, ring), _back(b, ring)


def swap_pivot(M: list[list[Any]], c: int, size: Callable[[Any], int], nonzero: Callable[[Any], bool]) -> int:
    """Bring to row ``c`` the row at or below it whose entry in column ``c`` is nonzero and smallest by ``size``
    (the one pivot choice of the fraction-free eliminations): -1 after a swap, 1 without, 0 if there is none."""
    rows = [r for r in range(c, len(M)) if nonzero(M[r][c])]
    if not rows:
        return 0
    r = min(rows, key=lambda i: size(M[i][c]))
    if r == c:
        return 1
    M[c], M[r] = M[r], M[c]
    return -1


def flint_solve_den(A: list[list[Any]], B: list[list[Any]], force: bool = False) -> tuple[list[list[Any]], Any] | None:
    """``(xnum, xden)`` with ``xden = det A`` and ``xnum = adj(A) B`` (so ``A xnum = xden B``), by FLINT.

    Fraction-free Gauss–Jordan elimination on ``[A | B]``: at step ``c`` every other row becomes
    ``(p M_ij − M_ic M_cj) / p_prev`` (an exact division: the entries are minors of ``[A | B]``), so that at the
    end every diagonal entry is ``± det A`` and the right-hand block is ``± adj(A) B``. The pair is unique, hence
    exactly sympy's ``DomainMatrix.solve_den(method="rref")`` (whose denominator is ``det A``). None when FLINT is
    not used (small entries unless ``force``: small entries of a large matrix grow during the elimination; or no
    flint); ``ZeroDivisionError`` if ``A`` is singular. The budget's checkpoint runs before every entry update, and
    an update whose products would run past the budget is refused before it starts (:func:`_afford`).
    """
    entries = [p for row in A for p in row] + [p for row in B for p in row]
    if not entries or not (_use(*entries) or (force and enabled() and entries[0].ring.ngens > 0)):
        return None
    ring = entries[0].ring
    ctx = _context(ring.ngens)
    n, k = len(A), len(B[0]) if B else 0
    M = [[_to(p, ctx) for p in A[i]] + [_to(p, ctx) for p in B[i]] for i in range(n)]
    prev = ctx.from_dict({(0,) * ring.ngens: 1})
    sign = 1
    for c in range(n):
        swap = swap_pivot(M, c, len, lambda x: not x.is_zero())
        if not swap:
            raise ZeroDivisionError("solve_linear: singular matrix")
        sign *= swap
        p, row_c = M[c][c], M[c]
        for i in range(n):
            if i == c:
                continue
            a = M[i][c]
            row = M[i]
            for j in range(n + k):
                if j == c:
                    continue
                checkpoint()  # a budget is honoured between the (C) entry updates
                work = 2 * (len(p) * len(row[j]) + len(a) * len(row_c[j]))  # the products, then the division
                _afford(work)
                started = time.monotonic()
                if a.is_zero():
                    row[j] = row[j] * p / prev
                else:
                    row[j] = (p * row[j] - a * row_c[j]) / prev
                _timed(work, started)
            row[c] = ctx.from_dict({})
        prev = p
    xnum = [[_back(M[i][n + j] if sign > 0 else -M[i][n + j], ring) for j in range(k)] for i in range(n)]
    return xnum, _back(prev if sign > 0 else -prev, ring)
