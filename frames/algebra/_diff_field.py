"""Exact differential algebra: normal forms and two algebras with ``∂/∂q^j`` (used by :func:`frames.invariant_measure`'s
flag steps and for the drift rows of :class:`~frames.NonholonomicSystem` (``_DriftRing`` differentiates in :class:`_RationalAlgebra`).

:class:`_ExprAlgebra` works on sympy expressions (the fallback); :class:`_RationalAlgebra` in the
polynomial ring ``QQ[q, sin, cos, exp, f(q), f'(q), …]`` with elements ``num/den`` (:class:`PolyFraction`), summed
over the lcm of their denominators and cancelled after each step (with FLINT's gcd at every size; without
python-flint only small elements, large ones carried as computed), and zero tests are a generic-point witness followed, only if needed, by the reduction
modulo ``sin² + cos² − 1`` (:meth:`frames.algebra.RationalFunctions.witness_nonzero`).
"""

from __future__ import annotations

from typing import Any

import sympy as sp
from sympy.core.function import AppliedUndef

from ..errors import UnsupportedExpression
from ._diff import derivative
from ._normal import canon, is_zero, tidy, trig_normal
from ._ratfunc import PolyFraction, RationalFunctions

__all__ = ["_ExprAlgebra", "_RationalAlgebra", "_brief", "_depends", "_norm"]


def _norm(e: Any) -> sp.Expr:
    """Canonical form: ``cancel``, plus ``sin² + cos² = 1`` when trig is present."""
    e = sp.sympify(e, strict=True)
    return trig_normal(e) if e.has(sp.sin, sp.cos) else canon(e)


def _brief(e: sp.Expr, limit: int = 120) -> str:
    """``str(e)``, or a placeholder when ``e`` has more than ``limit`` nodes (printing those is slow)."""
    for k, _ in enumerate(sp.preorder_traversal(e)):
        if k > limit:
            return "<large expression: see .obstruction / .log_form>"
    return str(e)


def _depends(e: sp.Expr, q: tuple[sp.Symbol, ...]) -> bool:
    return bool(e.free_symbols & set(q))


class _ExprAlgebra:
    """Expression-level arithmetic for the flag steps (the fallback): ``_norm`` after every operation."""

    def __init__(self, q: tuple[sp.Symbol, ...]) -> None:
        self.q = q

    def el(self, e: Any) -> Any:
        return _norm(e)

    norm = el

    def apply(self, comps: list[Any], f: Any) -> Any:
        return _norm(sp.Add(*[c * derivative(f, x) for c, x in zip(comps, self.q, strict=True) if c != 0]))

    def zero(self, f: Any) -> bool:
        return f == 0 or is_zero(f)

    def brief(self, f: Any) -> str:
        """A short printed form of the element ``f`` (a placeholder when it is large)."""
        return _brief(self.expr(f))

    def expr(self, f: Any) -> sp.Expr:
        return tidy(f)


class _RationalAlgebra(_ExprAlgebra):
    """The same in the field ``QQ(q, sin, cos, f(q), f'(q), …, params)`` (sparse polynomials, fast).

    ``∂/∂q^j`` acts through a table of the derivatives of the generators; undefined functions of q
    come with their derivatives up to :data:`ORDERS` more orders. Raises ``UnsupportedExpression``
    or ``ValueError`` outside that class (the caller then uses :class:`_ExprAlgebra`).
    """

    ORDERS = 4

    def __init__(self, exprs: list[Any], q: tuple[sp.Symbol, ...]) -> None:
        super().__init__(q)
        es = [sp.sympify(e, strict=True) for e in exprs]
        extra = []
        for f in {a for e in es for a in e.atoms(AppliedUndef, sp.Derivative) if _depends(a, q)}:
            base = f.expr if isinstance(f, sp.Derivative) else f
            extra += [sp.Derivative(base, *[(x, k)]) for x in q if base.has(x) for k in range(1, 2 * self.ORDERS)]
        self.ctx = ctx = RationalFunctions(es + extra, exp=True)
        gens = ctx.fractions.gens
        self.table = []
        for x in q:
            row = []
            for g in gens:
                ge = ctx.to_expr(g)
                if not ge.has(x):
                    continue
                try:
                    row.append((g, ctx.from_expr(derivative(ge, x))))
                except ValueError:
                    row.append((g, None))  # beyond the derivatives kept: refused if it is needed
            self.table.append(row)

    def el(self, e: Any) -> Any:
        f = self.ctx.from_expr(e)
        return PolyFraction(f.numer, f.denom)

    #: elements up to this many terms are cancelled after each step (cheap, keeps them small); larger
    #: ones are carried as computed (zero tests need no gcd: a generic-point witness, then reduction)
    CANCEL_TERMS = 300

    def norm(self, f: Any) -> Any:
        if self.size(f) <= self.CANCEL_TERMS or f.den.is_ground or self.ctx.fast_gcd():
            num, den = self.ctx.cancel(f.num, f.den)  # FLINT's gcd, when installed, at every size
            return PolyFraction(num, den)
        return f

    def _d(self, comps: list[Any], p: Any) -> Any:
        """``Σ_j comps_j ∂_j p`` of a polynomial ``p`` (a :class:`PolyFraction`)."""
        out = PolyFraction(p.ring.zero, p.ring.one)
        for c, row in zip(comps, self.table, strict=True):
            if not c:
                continue
            acc = PolyFraction(p.ring.zero, p.ring.one)
            for g, dg in row:
                pg = p.diff(g.numer)  # the ring generator of the field generator g
                if pg:
                    if dg is None:
                        raise UnsupportedExpression("a derivative of an undefined function beyond the orders kept")
                    acc = acc + PolyFraction(pg * dg.numer, dg.denom)
            if acc:
                out = out + c * acc
        return out

    def apply(self, comps: list[Any], f: Any) -> Any:
        # the quotient rule on num/den, without cancellation
        dn = self._d(comps, f.num)
        if f.den.is_ground:
            return self.norm(PolyFraction(dn.num, dn.den * f.den))
        dd = self._d(comps, f.den)
        return self.norm(PolyFraction(dn.num * dd.den * f.den - f.num * dd.num * dn.den, dn.den * dd.den * f.den**2))

    def zero(self, f: Any) -> bool:
        return self.ctx.vanishes(f.num)

    #: above this many terms (numerators and denominators together) a closedness condition is first
    #: decided at generic points (``_measure_flag._closedness_witness``) instead of being formed as one
    #: rational function
    LARGE_TERMS = 400

    def size(self, f: Any) -> int:
        """Number of terms of ``f`` (numerator and denominator)."""
        return int(len(f.num) + len(f.den))

    def points(self, tries: int = 3) -> list[list[tuple[Any, Any]]]:
        """Generic points of the ring (see :meth:`frames.algebra.RationalFunctions.witness_nonzero`)."""
        return list(self.ctx.generic_points(tries))

    def number(self, v: Any) -> sp.Rational:
        """A value at a point (an element of QQ) as a sympy number."""
        return self.ctx.ring.domain.to_sympy(v)  # type: ignore[no-any-return]

    def at(self, f: Any, point: list[tuple[Any, Any]]) -> Any:
        """The value of ``f`` at ``point`` (an element of QQ), or None where its denominator vanishes."""
        d = f.den.evaluate(point)
        return None if d == 0 else f.num.evaluate(point) / d

    def jet(self, p: Any, point: list[tuple[Any, Any]]) -> tuple[Any, list[Any]]:
        """Value and gradient (with respect to the ring generators) of the polynomial ``p`` at ``point``.

        One pass over the terms: a term ``t = c Π x_i^(e_i)`` contributes ``t`` to the value and
        ``e_i t / x_i`` to ``∂p/∂x_i`` (the generic values are nonzero), so the derivative polynomials
        are never formed.
        """
        vals = [v for _, v in point]
        if any(v == 0 for v in vals):  # pragma: no cover - the generic points have no zero coordinate
            raise ValueError("jet: a zero coordinate in the generic point")
        ngen = len(vals)
        pows: list[dict[int, Any]] = [{0: 1} for _ in range(ngen)]
        value = 0
        grad = [0] * ngen
        for mon, c in p.items():
            t = c
            for i, e in enumerate(mon):
                if e:
                    pw = pows[i].get(e)
                    if pw is None:
                        pw = pows[i][e] = vals[i] ** e
                    t *= pw
            value += t
            for i, e in enumerate(mon):
                if e:
                    grad[i] += e * t
        return value, [g / v if g else g for g, v in zip(grad, vals, strict=True)]

    def qjet(self, f: Any, point: list[tuple[Any, Any]]) -> tuple[Any, list[Any]] | None:
        """Value and gradient ``(∂f/∂q^1, …, ∂f/∂q^n)`` of ``f`` at ``point``, or None at a pole.

        The quotient rule on the values and generator gradients of numerator and denominator
        (:meth:`jet`), then the chain rule through the table of ``∂g/∂q^l`` of the generators.
        """
        dv, dgrad = self.jet(f.den, point)
        if dv == 0:
            return None
        nv, ngrad = self.jet(f.num, point)
        index = {g: i for i, (g, _) in enumerate(point)}
        grad = []
        for row in self.table:
            acc = 0
            for g, dg in row:
                k = index[g.numer]
                dn, dd = ngrad[k], dgrad[k]
                if not dn and not dd:
                    continue
                if dg is None:
                    raise UnsupportedExpression("a derivative of an undefined function beyond the orders kept")
                gv = self.at(PolyFraction(dg.numer, dg.denom), point)
                if gv is None:
                    return None
                acc += gv * (dn * dv - nv * dd)
            grad.append(acc / (dv * dv))
        return nv / dv, grad

    def apply_at(self, comps: list[Any], f: Any, point: list[tuple[Any, Any]]) -> Any:
        """``Σ_j comps_j ∂_j f`` at ``point`` (:meth:`qjet` contracted with the components), or None at a pole."""
        jet = self.qjet(f, point)
        if jet is None:
            return None
        out = 0
        for c, d in zip(comps, jet[1], strict=True):
            if c and d:
                cv = self.at(c, point)
                if cv is None:
                    return None
                out += cv * d
        return out

    def point_subs(self, point: list[tuple[Any, Any]]) -> tuple[tuple[sp.Expr, sp.Rational], ...]:
        """``point`` as ``(expression, value)`` pairs: ``sin(θ)``, ``cos(θ)``, ``θ``, parameters … each a rational.

        ``expr.xreplace(dict(pairs))`` evaluates a function of the ring there (``xreplace`` replaces the
        ``sin``/``cos`` atoms whole, so ``θ`` inside them is not substituted twice); an exponential is a
        power of its generator ``exp(r/d)`` (``exp(2q) = exp(q)²``) and is written so before substituting.
        """
        return tuple((self.ctx.to_expr(self.ctx.fractions(g)), self.number(v)) for g, v in point)

    def point_text(self, point: list[tuple[Any, Any]]) -> str:
        """The assignment ``generator = value`` of ``point`` in words (sin/cos pairs on the unit circle)."""
        return ", ".join(f"{e} = {v}" for e, v in self.point_subs(point))

    def brief(self, f: Any) -> str:
        if self.size(f) > 40:
            return f"<large expression: {len(f.num)} terms over {len(f.den)}>"
        return _brief(self.expr(f))

    def expr(self, f: Any) -> sp.Expr:
        # the normal form (reduced by sin² + cos² = 1 and cancelled once): obstructions often collapse there
        return self.ctx.to_expr(self.ctx.normal(self.ctx.fractions.raw_new(f.num, f.den)))
