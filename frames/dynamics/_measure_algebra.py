"""Exact arithmetic for :func:`frames.invariant_measure`: normal forms and the two algebras of its flag steps.

:class:`_ExprAlgebra` works on sympy expressions (the fallback); :class:`_FieldAlgebra` in the
polynomial ring ``QQ[q, sin, cos, exp, f(q), f'(q), …]`` with elements ``num/den`` (:class:`_Frac`)
whose arithmetic takes no gcd: small elements are cancelled after each step, large ones carried as
computed, and zero tests are a generic-point witness followed, only if needed, by the reduction
modulo ``sin² + cos² − 1`` (:meth:`frames.algebra.RationalFunctions.witness_nonzero`).
"""

from __future__ import annotations

from typing import Any

import sympy as sp
from sympy.core.function import AppliedUndef

from ..algebra import RationalFunctions, UnsupportedExpression, canon, is_zero, tidy, trig_normal

__all__ = ["_ExprAlgebra", "_FieldAlgebra", "_Frac", "_brief", "_depends", "_norm"]


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
        return _norm(sp.Add(*[c * sp.diff(f, x) for c, x in zip(comps, self.q, strict=True) if c != 0]))

    def zero(self, f: Any) -> bool:
        return f == 0 or is_zero(f)

    def brief(self, f: Any) -> str:
        """A short printed form of the element ``f`` (a placeholder when it is large)."""
        return _brief(self.expr(f))

    def expr(self, f: Any) -> sp.Expr:
        return tidy(f)


class _FieldAlgebra(_ExprAlgebra):
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
        gens = ctx.field.gens
        self.table = []
        for x in q:
            row = []
            for g in gens:
                ge = ctx.to_expr(g)
                if not ge.has(x):
                    continue
                try:
                    row.append((g, ctx.from_expr(sp.diff(ge, x))))
                except ValueError:
                    row.append((g, None))  # beyond the derivatives kept: refused if it is needed
            self.table.append(row)

    def el(self, e: Any) -> Any:
        f = self.ctx.from_expr(e)
        return _Frac(f.numer, f.denom)

    #: elements up to this many terms are cancelled after each step (cheap, keeps them small); larger
    #: ones are carried as computed (zero tests need no gcd: a generic-point witness, then reduction)
    CANCEL_TERMS = 300

    def norm(self, f: Any) -> Any:
        if len(f.num) + len(f.den) <= self.CANCEL_TERMS:
            num, den = f.num.cancel(f.den)
            return _Frac(num, den)
        return f

    def _d(self, comps: list[Any], p: Any) -> Any:
        """``Σ_j comps_j ∂_j p`` of a polynomial ``p`` (a :class:`_Frac`)."""
        out = _Frac(p.ring.zero, p.ring.one)
        for c, row in zip(comps, self.table, strict=True):
            if not c:
                continue
            acc = _Frac(p.ring.zero, p.ring.one)
            for g, dg in row:
                pg = p.diff(g.numer)  # the ring generator of the field generator g
                if pg:
                    if dg is None:
                        raise UnsupportedExpression("a derivative of an undefined function beyond the orders kept")
                    acc = acc + _Frac(pg * dg.numer, dg.denom)
            if acc:
                out = out + c * acc
        return out

    def apply(self, comps: list[Any], f: Any) -> Any:
        # the quotient rule on num/den, without cancellation
        dn = self._d(comps, f.num)
        if f.den.is_ground:
            return self.norm(_Frac(dn.num, dn.den * f.den))
        dd = self._d(comps, f.den)
        return self.norm(_Frac(dn.num * dd.den * f.den - f.num * dd.num * dn.den, dn.den * dd.den * f.den**2))

    def zero(self, f: Any) -> bool:
        return self.ctx.vanishes(f.num)

    def brief(self, f: Any) -> str:
        if len(f.num) + len(f.den) > 40:
            return f"<large expression: {len(f.num)} terms over {len(f.den)}>"
        return _brief(self.expr(f))

    def expr(self, f: Any) -> sp.Expr:
        # the normal form (reduced by sin² + cos² = 1 and cancelled once): obstructions often collapse there
        return self.ctx.to_expr(self.ctx.normal(self.ctx.field.raw_new(f.num, f.den)))


class _Frac:
    """``num/den`` over a polynomial ring, with arithmetic that never takes a gcd (see :class:`_FieldAlgebra`)."""

    __slots__ = ("den", "num")

    def __init__(self, num: Any, den: Any) -> None:
        self.num, self.den = num, den

    def __bool__(self) -> bool:
        return bool(self.num)

    def __add__(self, o: Any) -> _Frac:
        if not o.num:
            return self
        if not self.num:
            return o
        if self.den == o.den:
            return _Frac(self.num + o.num, self.den)
        return _Frac(self.num * o.den + o.num * self.den, self.den * o.den)

    def __neg__(self) -> _Frac:
        return _Frac(-self.num, self.den)

    def __sub__(self, o: Any) -> _Frac:
        return self + (-o)

    def __mul__(self, o: Any) -> _Frac:
        return _Frac(self.num * o.num, self.den * o.den)

    def __rtruediv__(self, one: Any) -> _Frac:
        if one != 1:  # pragma: no cover - only 1/x is used
            raise TypeError("only 1/x")
        if not self.num:
            raise ZeroDivisionError("division by a zero rational function")
        return _Frac(self.den, self.num)
