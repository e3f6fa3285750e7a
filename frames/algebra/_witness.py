r"""Generic points of :class:`~frames.algebra.RationalFunctions`: exact witnesses of nonzero values and of rank.

Each ``(sin a, cos a)`` pair goes to a rational point of the unit circle and every other generator to a
rational number: a ring homomorphism to ``QQ``, so a nonzero value there proves an element nonzero, and a
rank there is a lower bound of the rank, with no reduction or gcd.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import sympy as sp
from sympy.polys.domains import QQ
from sympy.polys.matrices import DomainMatrix

from ._convert import _Conversion

__all__: list[str] = []


#: the rational values of a "generic" point (distinct, no small-integer coincidences)
_GENERIC = (
    (7, 13), (-5, 11), (3, 17), (11, 19), (-13, 23), (17, 29), (19, 31), (-2, 37), (23, 41), (29, 43),
    (-31, 47), (37, 53), (41, 59), (-43, 61), (47, 67), (53, 71), (-59, 73), (61, 79), (67, 83), (71, 89),
)  # fmt: skip


class _Witnesses(_Conversion):
    """Evaluation of elements at generic points (the base of :class:`~frames.algebra.RationalFunctions`)."""

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
