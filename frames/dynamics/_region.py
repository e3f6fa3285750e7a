r"""Stability regions in a plane of two parameters: the exact boundary curves and the class of each cell.

The stability class of a linearisation can change only where an eigenvalue crosses 0 (the constant coefficient
``c_m`` of the reduced characteristic polynomial vanishes), where a complex pair crosses the imaginary axis (the
Hurwitz determinant ``Δ_{m−1}`` vanishes) or where ``A`` has a pole (a denominator of its entries vanishes: the
leading coefficient of ``det(D sI − D A)``). These three are kept as exact expressions in the two parameters
(the other symbols at exact values). Their signs on a grid of the box split it into connected cells of one sign
pattern; each cell's class is decided once, at a sample point, on the exact (or rigorously enclosed)
characteristic polynomial (:func:`~frames.dynamics._charpoly.classify`). The grid only finds the cells (a cell
thinner than its spacing can be missed); the boundaries drawn are the zero sets of the exact polynomials.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import sympy as sp

from .._value import Value
from ..algebra.internal import checkpoint, tree_subs
from ..errors import ArgumentError
from ._charpoly import _Inexact, berkowitz, classify, coefficients_at, fold_args, hurwitz_determinant, iv_precision

__all__ = ["StabilityCell", "StabilityRegion", "region_of"]

_FUNCS = {sp.sin: np.sin, sp.cos: np.cos, sp.tan: np.tan, sp.exp: np.exp, sp.log: np.log, sp.atan: np.arctan,
          sp.asin: np.arcsin, sp.acos: np.arccos}  # fmt: skip


class StabilityCell(Value):
    """One connected cell of the parameter box: its class, decided at ``sample``, and its share of the grid."""

    stability: str
    sample: tuple[float, float]
    area: float


class StabilityRegion(Value):
    r"""The stability map of a linearisation over a box of two parameters.

    Attributes
    ----------
    parameters : (Symbol, Symbol)
    box : ((float, float), (float, float))
    curves : tuple of (str, Expr)
        The exact boundary expressions in the two parameters: ``("real", c_m)``, ``("complex", Δ_{m−1})`` and,
        where ``A`` has poles in the box, ``("leading", d)`` for each denominator ``d``.
    cells : tuple of StabilityCell
        The connected cells of one sign pattern of the curves, each with its class (``"asymptotically
        stable"``, ``"unstable"``, ``"marginal"``; of the reduced state: structural zeros set aside).
    grid : tuple
        ``(xs, ys, values, labels)``: the grid, the curves' values on it (one array each, for contours) and the
        cell index of each grid point (not part of the value's identity).
    """

    parameters: tuple[sp.Symbol, sp.Symbol]
    box: tuple[tuple[float, float], tuple[float, float]]
    curves: tuple[tuple[str, sp.Expr], ...]
    cells: tuple[StabilityCell, ...]
    grid: tuple[Any, ...] = dataclasses.field(default=(), compare=False)

    def classify(self, point: Mapping[Any, float]) -> str:
        """The class of the cell containing the grid point nearest to ``point`` (parameter name -> value)."""
        xs, ys, _values, labels = self.grid
        names = [p.name for p in self.parameters]
        try:
            x, y = (float(point[n] if n in point else point[p]) for n, p in zip(names, self.parameters, strict=True))
        except (KeyError, TypeError, ValueError):
            raise ArgumentError(f"StabilityRegion.classify: point: expected values for {names}") from None
        i, j = int(np.argmin(np.abs(ys - y))), int(np.argmin(np.abs(xs - x)))
        return self.cells[int(labels[i, j])].stability

    def __repr__(self) -> str:
        cl = ", ".join(f"{c.stability} at {c.sample} ({c.area:.0%})" for c in self.cells)
        return f"StabilityRegion({self.parameters[0]}, {self.parameters[1]}: {cl})"


def evaluate_array(exprs: Sequence[sp.Expr], point: Mapping[sp.Symbol, Any]) -> list[np.ndarray]:
    """The values of ``exprs`` on arrays (symbol -> ndarray or number), node by node in float64 (for the curves'
    contours and the cells' sign patterns)."""
    memo: dict[sp.Basic, Any] = {}

    def ev(e: sp.Basic) -> Any:
        hit = memo.get(e)
        if hit is not None:
            return hit
        if e in point:
            val = point[e]
        elif e.is_Number or isinstance(e, sp.NumberSymbol):
            val = float(e)
        elif e.is_Add or e.is_Mul:
            val = fold_args(e, ev)
        elif e.is_Pow:
            b, x = e.args
            val = (
                np.power(ev(b), int(x))
                if x.is_Integer and int(x) >= 0
                else np.power(np.asarray(ev(b), float), float(x))
            )
        elif type(e) in _FUNCS and len(e.args) == 1:
            val = _FUNCS[type(e)](ev(e.args[0]))
        else:
            raise ArgumentError(f"Linearization.stability_region: cannot evaluate {type(e).__name__} nodes")
        memo[e] = val
        return val

    with np.errstate(all="ignore"):
        return [np.asarray(ev(sp.sympify(e, strict=True)), dtype=float) for e in exprs]


def _denominators(M: Sequence[Sequence[sp.Expr]], params: set[sp.Symbol]) -> list[sp.Expr]:
    """The bases of the negative powers in ``M`` that depend on ``params`` (where ``A`` can have poles)."""
    seen: set[sp.Basic] = set()
    out: list[sp.Expr] = []

    def walk(e: sp.Basic) -> None:
        if e in seen or not e.args:
            return
        seen.add(e)
        if e.is_Pow and e.args[1].is_number and e.args[1] < 0 and e.args[0].free_symbols & params:
            if e.args[0] not in out:
                out.append(e.args[0])
        for a in e.args:
            walk(a)

    for row in M:
        for e in row:
            walk(sp.sympify(e, strict=True))
    return out


def _one_sign(v: np.ndarray) -> bool:
    return bool(np.all(np.isfinite(v)) and (np.all(v > 0) or np.all(v < 0)))


def _label(signs: np.ndarray) -> tuple[np.ndarray, int]:
    """Connected components (4-neighbours) of equal sign patterns: ``signs`` is ``(ny, nx, k)``."""
    ny, nx, _k = signs.shape
    labels = -np.ones((ny, nx), dtype=int)
    n = 0
    for i0 in range(ny):
        for j0 in range(nx):
            if labels[i0, j0] >= 0:
                continue
            checkpoint()
            labels[i0, j0] = n
            stack = [(i0, j0)]
            while stack:
                i, j = stack.pop()
                for a, b in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
                    if 0 <= a < ny and 0 <= b < nx and labels[a, b] < 0 and np.array_equal(signs[a, b], signs[i, j]):
                        labels[a, b] = n
                        stack.append((a, b))
            n += 1
    return labels, n


def region_of(
    M: Sequence[Sequence[sp.Expr]], params: tuple[sp.Symbol, sp.Symbol], box: tuple[tuple[Fraction, Fraction], ...],
    at: Mapping[sp.Symbol, sp.Expr], deflate: int, n: int,
) -> StabilityRegion:  # fmt: skip
    """The :class:`StabilityRegion` of the reduced matrix ``M`` (see :meth:`Linearization.stability_region`)."""
    p, q = params
    Mx = [list(row) for row in M]
    if at:
        flat = tree_subs([e for row in Mx for e in row], dict(at))
        k = len(Mx)
        Mx = [flat[i * k : (i + 1) * k] for i in range(k)]
    m = len(Mx) - deflate
    c = berkowitz(Mx, one=sp.S.One)[: m + 1]
    curves: list[tuple[str, sp.Expr]] = [("real", c[m])]
    if m >= 2:
        curves.append(("complex", hurwitz_determinant(c, m - 1, sp.S.Zero)))
    curves += [("leading", d) for d in _denominators(Mx, {p, q})]
    (x0, x1), (y0, y1) = box
    xs = np.linspace(float(x0), float(x1), n)
    ys = np.linspace(float(y0), float(y1), n)
    X, Y = np.meshgrid(xs, ys)
    values = evaluate_array([e for _k, e in curves], {p: X, q: Y})
    # a denominator of one strict sign on the whole grid has no pole in the box: not a boundary
    kept = [k for k, (kind, _e) in enumerate(curves) if kind != "leading" or not _one_sign(values[k])]
    curves, values = [curves[k] for k in kept], [values[k] for k in kept]
    signs = np.stack([np.sign(np.nan_to_num(v, nan=0.0)) for v in values], axis=-1)
    labels, ncell = _label(signs)
    cells = []
    exact = True
    with iv_precision(200):
        for k in range(ncell):
            ii, jj = np.nonzero(labels == k)
            mid = len(ii) // 2  # a grid point of the cell (not on a curve unless the cell is one)
            i, j = int(ii[mid]), int(jj[mid])
            x = Fraction(float(xs[j])).limit_denominator(10**12)
            y = Fraction(float(ys[i])).limit_denominator(10**12)
            try:
                try:
                    cx = coefficients_at(Mx, {p: x, q: y}, exact)
                    ex = exact
                except _Inexact:
                    exact = ex = False
                    cx = coefficients_at(Mx, {p: x, q: y}, False)
                cls = classify(cx[: m + 1], ex)[0]
            except ZeroDivisionError:
                cls = "undefined"
            cells.append(StabilityCell(cls, (float(x), float(y)), len(ii) / labels.size))
    box_f = ((float(x0), float(x1)), (float(y0), float(y1)))
    return StabilityRegion((p, q), box_f, tuple(curves), tuple(cells), (xs, ys, tuple(values), labels))
