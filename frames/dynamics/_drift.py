r"""The nonholonomic drift ``r_i`` computed in the field of the system's data (the fast exact route of Proposition 2).

:class:`_DriftRing` holds ``L_c``, the momenta on C, the frame and the nonzero ``R^j_iβ`` in
``QQ(q, sin, cos, exp, f(q), …, v^α)`` and differentiates along the frame through the generators' derivatives.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy as sp

from ..algebra.internal import PolyFraction, UnsupportedExpression, _RationalAlgebra, canon_element
from ..errors import BudgetExceededError

__all__ = ["_DriftRing"]


class _DriftRing:
    r"""The drift rows ``r_i`` of :class:`NonholonomicSystem` computed in the field of its data.

    The field is ``QQ(q, sin, cos, exp, f(q), f'(q), …, v^α)``. ``X_β(f) = X_β^k ∂f/∂q^k`` acts through the
    derivatives of the generators (:class:`~frames.algebra._diff_field._RationalAlgebra`), and
    ``r_i = X_i(L_c) − v^β X_β(p_i) − R^j_iβ v^β p_j`` is summed over its denominators and cancelled once
    (:func:`frames.algebra.canon_element`: :func:`canon`'s form when small, the Pythagorean normal form when large).
    Raises ``UnsupportedExpression`` or ``ValueError`` outside that field.
    """

    def __init__(
        self,
        Lc: sp.Expr,
        p: Sequence[sp.Expr],
        X: Sequence[Sequence[sp.Expr]],
        R: dict[tuple[int, int, int], sp.Expr],
        v: Sequence[sp.Symbol],
        q: tuple[sp.Symbol, ...],
        extra: Sequence[sp.Expr] = (),
    ) -> None:
        """The data: ``L_c``, the momenta ``p_i`` on C, the frame's rows ``X_i^k``, the nonzero ``R^j_iβ``
        (β ≤ m), the velocities ``v^α`` and the coordinates; ``extra``: further expressions the field holds."""
        self._data = (Lc, p, X, R, v, q)
        self._build(extra)

    def _build(self, extra: Sequence[sp.Expr]) -> None:
        Lc, p, X, R, v, q = self._data
        self.alg = alg = _RationalAlgebra([Lc, *p, *(x for row in X for x in row), *R.values(), *v, *extra], q)
        self.Lc, self.p = alg.el(Lc), [alg.el(x) for x in p]
        self.X = [[alg.el(x) for x in row] for row in X]
        self.R = {k: alg.el(e) for k, e in R.items()}
        self.v = [alg.el(x) for x in v]
        self.n, self.alpha = len(p), list(range(len(v)))
        # a generator of the data whose q-derivative the field does not hold (f(x − y), a mixed partial of
        # f(x, y)): refused now, not when a row needs it
        used: set[Any] = set()
        for f in [self.Lc, *self.p, *(x for row in self.X for x in row), *self.R.values()]:
            for poly in (f.num, f.den):
                used.update(g for mon in poly.itermonoms() for g, k in zip(alg.ctx.ring.gens, mon, strict=True) if k)
        missing = [g for row in alg.table for g, dg in row if dg is None and g.numer in used]
        if missing:
            raise UnsupportedExpression(f"the derivative of {alg.ctx.to_expr(missing[0])} is not in the field")
        #: the ring's generators other than the velocities v^α that involve a velocity (sin(v1), exp(x v1)):
        #: their v-derivatives are not in the field's tables
        vs = set(v)
        self.v_inside = any(a not in vs and bool(a.free_symbols & vs) for a in alg.ctx.atoms)
        self._parts: dict[int, dict[Any, Any]] = {}
        self._values: dict[tuple[Any, ...], list[Any] | None] = {}
        self._extended: dict[tuple[sp.Expr, ...], _DriftRing] = {}

    def extended(self, exprs: Sequence[sp.Expr]) -> _DriftRing:
        """This field, or a larger one that also holds ``exprs`` (the rows computed so far moved onto its
        generators, not recomputed). Raises ``UnsupportedExpression`` or ``ValueError`` outside every such field."""
        if any(e.has(sp.Float) for e in exprs):
            raise UnsupportedExpression("a float (the field is exact)")
        try:
            for e in exprs:
                self.alg.el(e)
            return self
        except BudgetExceededError:  # a FramesError, hence a ValueError: not "outside the field"
            raise
        except (UnsupportedExpression, ValueError):
            pass
        key = tuple(exprs)
        if key in self._extended:
            return self._extended[key]
        new = _DriftRing(*self._data, extra=exprs)
        ctx, atoms = new.alg.ctx, self.alg.ctx.atoms
        for i, parts in self._parts.items():
            moved = {ctx._moved(atoms, dict(d.items())): ctx._moved(atoms, dict(u.items())) for d, u in parts.items()}
            if None not in moved and None not in moved.values():
                new._parts[i] = moved
        if len(self._extended) >= 8:
            self._extended.clear()
        self._extended[key] = new
        return new

    def parts(self, i: int) -> dict[Any, Any]:
        """``r_i`` as ``{denominator: numerator}`` (numerators added over equal denominators; remembered)."""
        if i not in self._parts:
            alg = self.alg
            zero = alg.ctx.ring.zero
            parts: dict[Any, Any] = {}

            def add(f: PolyFraction, sign: int) -> None:
                if f:
                    parts[f.den] = parts.get(f.den, zero) + (f.num if sign > 0 else -f.num)

            add(alg.apply(self.X[i], self.Lc), 1)
            for k, be in enumerate(self.alpha):
                add(self.v[k] * alg.apply(self.X[be], self.p[i]), -1)
                for j in range(self.n):
                    Rj = self.R.get((j, i, be))
                    if Rj is not None:
                        add(Rj * self.v[k] * self.p[j], -1)
            self._parts[i] = parts
        return self._parts[i]

    def rhs(self, i: int) -> sp.Expr:
        """``r_i``, written by :func:`frames.algebra.canon_element`."""
        return canon_element(self.alg.ctx, self.parts(i))

    def values_at(self, point: list[tuple[Any, Any]]) -> list[Any] | None:
        """``(r_1, …, r_n)`` at a generic point of the field (exact rationals, remembered per point), or None
        where a denominator of the data vanishes."""
        key = tuple(x for _, x in point)
        if key not in self._values:
            vals: list[Any] | None = []
            for i in range(self.n):
                total = 0
                for den, num in self.parts(i).items():
                    d = den.evaluate(point)
                    if d == 0:
                        vals = None
                        break
                    total += num.evaluate(point) / d
                if vals is None:
                    break
                vals.append(total)
            self._values[key] = vals
        return self._values[key]
