r"""Harmonic form: trigonometric polynomials written as sines and cosines of sums and differences of angles.

The ring's canonical form (:class:`~frames.algebra.RationalFunctions`) is a polynomial in ``sin b_k, cos b_k``
of the basis angles, of degree ≤ 1 in each ``sin b_k``. Its products multiply out: ``sin(θ − φ)`` becomes
``sin θ cos φ − cos θ sin φ`` when ``θ`` and ``φ`` are the basis, and a product of a few such factors has
dozens of terms. The harmonic form writes the same polynomial by its Fourier expansion,

.. math:: P = \sum_{k} \big(A_k(x)\cos(k\cdot b) + B_k(x)\sin(k\cdot b)\big),

``k`` running over integer frequency vectors with first nonzero entry positive (and ``k = 0``), ``A_k``,
``B_k`` polynomials in the other generators. It is also canonical (the Fourier coefficients of a function are
unique), and usually much shorter: ``sin(φ−θ)cos(φ+θ) + sin(φ+θ)cos(φ−θ)`` is ``sin 2φ``.

:func:`harmonic_form` writes numerator and denominator each in the shorter of the two forms. It is a display
form, computed once per expression, exact, with no ``simplify``/``trigsimp``.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb
from typing import Any

import sympy as sp
from sympy.polys.domains import QQ
from sympy.polys.orderings import lex
from sympy.polys.rings import ring

from ._budget import checkpoint
from ._lattice import UnsupportedExpression, trig_parts
from ._normal import op_count
from ._poly import poly_expr
from ._ratfunc import RationalFunctions

__all__ = ["harmonic_form"]


def harmonic_form(expr: sp.Expr) -> sp.Expr:
    """``expr`` with its trigonometric polynomials written as sines and cosines of combined angles, where shorter.

    Examples
    --------
    >>> import sympy as sp
    >>> th, ph, x = sp.symbols("theta phi x")
    >>> harmonic_form(sp.sin(ph - th) * sp.cos(ph + th) + sp.sin(ph + th) * sp.cos(ph - th))
    sin(2*phi)
    >>> harmonic_form((sp.sin(th) * sp.cos(ph) - sp.cos(th) * sp.sin(ph)) ** 2)
    1/2 - cos(2*phi - 2*theta)/2
    """
    e = sp.sympify(expr, strict=True)
    if e.is_Atom or not e.has(sp.sin, sp.cos, sp.tan, sp.cot, sp.sec, sp.csc):
        return e  # type: ignore[no-any-return]
    try:
        ctx = RationalFunctions([e], exp=True)
    except UnsupportedExpression:
        return e  # type: ignore[no-any-return]
    if not ctx._pair_index:
        return e  # type: ignore[no-any-return]
    f = ctx.normal(ctx.from_expr(e))
    # numerator and denominator in the angles of one lattice: that of all their frequencies
    accs = [_fourier(ctx, p) if not p.is_ground else {} for p in (f.numer, f.denom)]
    basis = _integer_basis(sorted({k for acc in accs for (_, k) in acc if any(k)}))
    num, den = (_shortest(ctx, p, acc, basis) for p, acc in zip((f.numer, f.denom), accs, strict=True))
    out = num / den
    return out if op_count(out) <= op_count(e) else e  # type: ignore[no-any-return]


def _shortest(ctx: RationalFunctions, p: Any, acc: dict[Any, list[Any]], basis: list[tuple[int, ...]]) -> sp.Expr:
    """The polynomial ``p`` written as the shortest of its expanded form, its harmonic form, and its forms in the
    angles of the frequency lattice ``basis``."""
    plain = poly_expr(p, ctx.atoms)
    if p.is_ground:
        return plain  # type: ignore[no-any-return]
    forms = [plain, _harmonic(ctx, acc)]
    for psi, coords in _angle_bases(ctx, basis):
        forms += _reduced_angles(ctx, acc, psi, coords)
    return min(forms, key=op_count)  # type: ignore[no-any-return]


def _angle_bases(ctx: RationalFunctions, basis: list[tuple[int, ...]]) -> list[tuple[list[sp.Expr], Any]]:
    """Other angles to write a polynomial in, each with the map from a frequency ``k`` (over the ring's basis
    angles ``b``) to its integer coordinates: a basis of the lattice of the frequencies (``θ − φ`` when only that
    difference occurs), and the atoms of the arguments themselves (``φ``, ``θ`` when the ring's basis is
    ``φ, φ − θ``). A basis equal to ``b`` is left out (the ring's own form)."""
    dim = len(ctx._pair_index)
    angles = [ctx.atoms[i_s].args[0] for i_s, _ in ctx._pair_index]
    out: list[tuple[list[sp.Expr], Any]] = []
    if basis and not (len(basis) == dim and all(basis[j][j] == 1 for j in range(dim))):
        psi = [sp.Add(*[f * b for f, b in zip(row, angles, strict=True)]) for row in basis]
        out.append((psi, lambda k: _coordinates_in(basis, k)))
    lat = ctx._trig_lattice
    vectors = lat._vectors
    if len(vectors) == dim and lat.atoms:
        used = [r for r in range(len(lat.atoms)) if any(v[r] for v in vectors)]
        identity = len(used) == dim and all(
            sum(1 for r in used if v[r]) == 1 and max(abs(v[r]) for r in used) == 1 for v in vectors
        )
        if not identity:
            psi = [lat.atoms[r] / lat.den[r] for r in used]
            out.append((psi, lambda k: tuple(sum(kj * v[r] for kj, v in zip(k, vectors, strict=True)) for r in used)))
    return out


def _fourier(ctx: RationalFunctions, p: Any) -> dict[tuple[tuple[int, ...], tuple[int, ...]], list[Any]]:
    """The Fourier coefficients of ``p``: ``{(rest, k): [A, B]}`` (elements of QQ) for ``A cos(k·b) + B sin(k·b)``
    times the monomial ``rest`` of the other generators (``k`` with first nonzero entry positive, or 0).

    Each term ``c Π sin^p b_j cos^q b_j`` is expanded as ``c / 2^(Σ p + q) · Π Σ_f C_f e^{i f b_j}`` with integer
    ``C_f`` (:func:`_one_angle`), so the products are of Python integers and one rational scale per term."""
    pairs = ctx._pair_index
    trig = {i for pair in pairs for i in pair}
    QQ = ctx.ring.domain
    zero = QQ.zero
    acc: dict[tuple[tuple[int, ...], tuple[int, ...]], list[Any]] = {}
    for n, (mon, c) in enumerate(p.terms()):
        if n % 512 == 0:
            checkpoint()
        rest = tuple(0 if i in trig else int(k) for i, k in enumerate(mon))
        series: dict[tuple[int, ...], tuple[int, int]] = {(): (1, 0)}
        degree = 0
        for i_s, i_c in pairs:
            ps, qc = int(mon[i_s]), int(mon[i_c])
            degree += ps + qc
            one = _one_angle(ps, qc)
            series = {
                (*k, f): (a * x - b * y, a * y + b * x) for k, (a, b) in series.items() for f, (x, y) in one.items()
            }
        scale = c / QQ(2**degree)
        for k, (a, b) in series.items():
            first = next((x for x in k if x), 0)
            if first < 0:
                continue  # the conjugate frequency −k carries the same information
            slot = acc.get((rest, k))
            if slot is None:
                slot = acc[(rest, k)] = [zero, zero]
            if first == 0:  # k = 0: the constant term (real)
                slot[0] += scale * a
            else:  # C e^{ik·b} + conj(C) e^{−ik·b} = 2 Re C cos(k·b) − 2 Im C sin(k·b)
                slot[0] += scale * (2 * a)
                slot[1] -= scale * (2 * b)
    return {key: ab for key, ab in acc.items() if ab[0] or ab[1]}


def _q(x: Any) -> sp.Rational:
    return QQ.to_sympy(x)  # type: ignore[no-any-return]


def _monomial(atoms: tuple[sp.Expr, ...], rest: tuple[int, ...]) -> sp.Expr:
    return sp.Mul(*[atoms[i] ** e for i, e in enumerate(rest) if e])


def _harmonic(ctx: RationalFunctions, acc: dict[Any, list[Any]]) -> sp.Expr:
    """``Σ_k A_k cos(k·b) + B_k sin(k·b)``, each ``A_k``, ``B_k`` a polynomial in the other generators."""
    angles = [ctx.atoms[i_s].args[0] for i_s, _ in ctx._pair_index]
    by_k: dict[tuple[int, ...], tuple[list[Any], list[Any]]] = {}
    for (rest, k), (a, b) in acc.items():
        mono = _monomial(ctx.atoms, rest)
        cos_terms, sin_terms = by_k.setdefault(k, ([], []))
        if a:
            cos_terms.append(_q(a) * mono)
        if b:
            sin_terms.append(_q(b) * mono)
    out = []
    for k, (cos_terms, sin_terms) in by_k.items():
        angle = sp.Add(*[f * b for f, b in zip(k, angles, strict=True)])
        if cos_terms:
            out.append(sp.Add(*cos_terms) * sp.cos(angle))
        if sin_terms:
            out.append(sp.Add(*sin_terms) * sp.sin(angle))
    return sp.Add(*out)


def _reduced_angles(
    ctx: RationalFunctions, acc: dict[Any, list[Any]], psi: list[sp.Expr], coords: Any
) -> list[sp.Expr]:
    """``p`` (its Fourier coefficients ``acc``) as a polynomial in ``sin ψ_j, cos ψ_j``, ``coords(k)`` the integer
    coordinates of the frequency ``k`` in the angles ``ψ``, in both Pythagorean normal forms (degree ≤ 1 in each
    ``sin ψ_j``, or in each ``cos ψ_j``)."""
    R, *gens = _ring(len(psi))
    pairs = [(gens[2 * j], gens[2 * j + 1]) for j in range(len(psi))]
    polys: dict[tuple[int, ...], Any] = {}
    for (rest, k), (a, b) in acc.items():
        re, im = trig_parts(coords(k), 0, pairs, R.one)
        term = re * a + im * b
        polys[rest] = polys.get(rest, R.zero) + term
    out = []
    for which in (0, 1):  # reduce sin² (s-form) or cos² (c-form)
        parts = []
        for rest, poly in polys.items():
            red = _pythagoras(poly, len(psi), which)
            if red:
                parts.append((rest, red))
        out.append(_write(ctx, parts, psi))
    return out


def _write(ctx: RationalFunctions, parts: list[tuple[tuple[int, ...], Any]], psi: list[sp.Expr]) -> sp.Expr:
    """``Σ rest · trig(rest)``, grouped by the trigonometric monomial."""
    by_trig: dict[tuple[int, ...], list[sp.Expr]] = {}
    for rest, poly in parts:
        mono = _monomial(ctx.atoms, rest)
        for tm, c in poly.terms():
            by_trig.setdefault(tuple(tm), []).append(poly.ring.domain.to_sympy(c) * mono)
    out = []
    for tm, terms in by_trig.items():
        trig = sp.Mul(*[(sp.sin(x) ** tm[2 * j]) * (sp.cos(x) ** tm[2 * j + 1]) for j, x in enumerate(psi)])
        out.append(sp.Add(*terms) * trig)
    return sp.Add(*out)


@lru_cache(maxsize=16)
def _ring(r: int) -> Any:
    return ring([sp.Dummy(f"{x}{j}") for j in range(r) for x in ("s", "c")], QQ, lex)


def _pythagoras(poly: Any, r: int, which: int) -> Any:
    """``poly`` reduced modulo ``s_j² + c_j² − 1``: degree ≤ 1 in each ``s_j`` (``which = 0``) or ``c_j`` (1)."""
    terms = dict(poly.items())
    for j in range(r):
        i, o = (2 * j, 2 * j + 1) if which == 0 else (2 * j + 1, 2 * j)
        out: dict[tuple[int, ...], Any] = {}
        for mon, c in terms.items():
            k, e = divmod(mon[i], 2)
            base = list(mon)
            base[i] = e
            for t in range(k + 1):  # x^(2k) = (1 − y²)^k
                base[o] = mon[o] + 2 * t
                key = tuple(base)
                out[key] = out.get(key, 0) + c * comb(k, t) * (-1) ** t
        terms = {m: c for m, c in out.items() if c}
    return poly.ring.from_dict(terms) if terms else poly.ring.zero


def _integer_basis(vectors: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """A basis (rows in echelon form, positive pivots) of the integer lattice spanned by ``vectors``."""
    rows = [list(v) for v in vectors]
    basis: list[list[int]] = []
    col = 0
    width = len(rows[0]) if rows else 0
    while rows and col < width:
        live = [r for r in rows if r[col]]
        rows = [r for r in rows if not r[col]]
        while len(live) > 1:
            live.sort(key=lambda r: abs(r[col]))
            pivot = live[0]
            rest: list[list[int]] = []
            for r in live[1:]:
                f = r[col] // pivot[col]
                r = [x - f * y for x, y in zip(r, pivot, strict=True)]
                (rest if r[col] else rows).append(r)
            live = [pivot, *rest]
        if live:
            p = live[0] if live[0][col] > 0 else [-x for x in live[0]]
            basis.append(p)
        rows = [r for r in rows if any(r)]
        col += 1
    return [tuple(r) for r in basis]


def _coordinates_in(basis: list[tuple[int, ...]], k: tuple[int, ...]) -> tuple[int, ...]:
    """Integer coordinates of ``k`` in the echelon ``basis`` (``k`` in its lattice)."""
    v = list(k)
    out = []
    for row in basis:
        p = next(j for j, x in enumerate(row) if x)
        f = v[p] // row[p]
        out.append(f)
        v = [x - f * y for x, y in zip(v, row, strict=True)]
    if any(v):  # pragma: no cover - every frequency is in the lattice it spans
        raise ArithmeticError("harmonic form: a frequency outside its lattice")
    return tuple(out)


@lru_cache(maxsize=1024)
def _one_angle(p: int, q: int) -> dict[int, tuple[int, int]]:
    """``2^(p+q) sin^p b cos^q b = Σ_f C_f e^{i f b}``: ``{f: (Re C_f, Im C_f)}`` (integers), from
    ``sin b = (z − 1/z)/(2i)``, ``cos b = (z + 1/z)/2``."""
    out: dict[int, int] = {}
    for a in range(p + 1):
        for c in range(q + 1):
            f = (p - 2 * a) + (q - 2 * c)
            out[f] = out.get(f, 0) + comb(p, a) * (-1) ** a * comb(q, c)
    unit = [(1, 0), (0, -1), (-1, 0), (0, 1)][p % 4]  # (1/i)^p = (−i)^p
    return {f: (v * unit[0], v * unit[1]) for f, v in out.items() if v}
