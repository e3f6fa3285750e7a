r"""The bracket flag of a distribution: growth vector and bracket generation (controllability).

For a distribution D spanned by ``X_1 … X_m`` the flag is

.. math::
    D^1 = D, \qquad D^{k+1} = D^k + [D, D^k],

and the *growth vector* is ``(dim D^1, dim D^2, …, dim D^r)`` up to the step ``r`` where the flag
stops growing. D is *bracket generating* (Chow–Rashevskii: the driftless system
``q̇ = Σ w^α X_α(q)`` is controllable on a connected Q) when ``D^r = TQ``.

Two readings:

* **generic** (``point=None``): dimensions over the field of functions, i.e. on the open dense set
  where every rank is maximal. Since ``[X, fY] = f[X, Y] + X(f) Y``, only the brackets of the
  generators with the fields new at the previous step are needed.
* **at a point** ``p``: ``dim D^k(p)`` is the rank at ``p`` of *all* brackets of length ≤ k of the
  generators (a bracket that vanishes at ``p`` may have a non-vanishing bracket, as on the Martinet
  surface). ``p`` is a regular point when its growth vector is the generic one; otherwise D is not
  equiregular there (:attr:`BracketFlag.equiregular` is False).

Examples: Heisenberg (2, 3); Engel (2, 3, 4); the Martinet distribution (2, 3) generically and
(2, 2, 3) on the surface ``y = 0``; the rolling ball without slipping or twisting (2, 3, 5).

>>> import sympy as sp, frames as fr
>>> ch = fr.Chart("x y z")
>>> x, y, z = ch.q
>>> D = fr.Distribution([fr.VectorField(ch, [1, 0, -y / 2]), fr.VectorField(ch, [0, 1, x / 2])])
>>> D.growth_vector()
(2, 3)
>>> D.is_bracket_generating()
True
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any

import sympy as sp

from .._value import Record
from ..algebra import is_zero, step
from ..algebra.internal import as_expr, as_int, checkpoint
from ..errors import ArgumentError, BudgetExceededError, InvalidExpressionError
from ._chart import Chart
from ._fields import VectorField
from ._frame import _rank

__all__ = ["BracketFlag", "bracket_flag"]

#: At a point, the number of brackets of one length kept before giving up (they grow as m^k).
MAX_BRACKETS = 512


class BracketFlag(Record):
    """The flag ``D ⊂ D² ⊂ …`` of a distribution, generically or at a point.

    Attributes
    ----------
    growth : tuple of int
        ``(dim D^1, …, dim D^r)``, stopping where the flag stops growing (generic), or where it
        reaches ``dim Q`` or ``max_step`` (at a point).
    dim : int
        ``dim Q``.
    point : tuple of (Symbol, value) pairs or None
        The point, or None for the generic flag.
    generic : tuple of int
        The generic growth vector (equal to ``growth`` when ``point`` is None).
    basis : tuple of VectorField
        Generic mode: fields adapted to the flag (the generators, then the brackets new at each
        step); empty at a point.
    """

    growth: tuple[int, ...]
    dim: int
    point: tuple[tuple[sp.Symbol, sp.Expr], ...] | None
    generic: tuple[int, ...]
    basis: tuple[VectorField, ...] = field(default=())

    def __post_init__(self) -> None:
        dim = as_int(self.dim, name="BracketFlag: dim", min=1)
        for name in ("growth", "generic"):
            g = getattr(self, name)
            if not isinstance(g, tuple | list) or not g:
                raise ArgumentError(f"BracketFlag: {name}: expected a non-empty tuple of dimensions, got {g!r}")
            ds = tuple(as_int(d, name=f"BracketFlag: {name}[{k}]", min=1, max=dim) for k, d in enumerate(g))
            if any(b < a for a, b in itertools.pairwise(ds)):
                raise ArgumentError(f"BracketFlag: {name}: the dimensions {ds} must not decrease")
            setattr(self, name, ds)
        if self.point is not None and (
            not isinstance(self.point, tuple)
            or not all(isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], sp.Symbol) for p in self.point)
        ):
            raise ArgumentError(
                f"BracketFlag: point: expected None or a tuple of (Symbol, value) pairs, got {self.point!r}"
            )
        if not isinstance(self.basis, tuple | list):
            raise ArgumentError(f"BracketFlag: basis: expected a tuple of VectorFields, got {self.basis!r}")
        for k, X in enumerate(self.basis):
            if not isinstance(X, VectorField):
                raise ArgumentError(f"BracketFlag: basis[{k}]: expected a VectorField, got {X!r}")
        self.dim = dim
        self.basis = tuple(self.basis)

    @property
    def bracket_generating(self) -> bool:
        """``D^r = TQ`` (at the point, if one was given)."""
        return self.growth[-1] == self.dim

    @property
    def step(self) -> int:
        """``r``: the length of the growth vector (the degree of nonholonomy when bracket generating)."""
        return len(self.growth)

    @property
    def equiregular(self) -> bool:
        """The point is regular: its growth vector is the generic one (always True generically)."""
        return self.growth == self.generic

    @property
    def weights(self) -> tuple[int, ...]:
        """Weights ``w_i = k`` for ``dim D^{k-1} < i ≤ dim D^k`` (privileged-coordinate weights)."""
        out: list[int] = []
        prev = 0
        for k, d in enumerate(self.growth, start=1):
            out += [k] * (d - prev)
            prev = d
        return tuple(out)

    def __repr__(self) -> str:
        where = "" if self.point is None else " at " + ", ".join(f"{s}={v}" for s, v in self.point)
        return f"BracketFlag(growth={self.growth}{where})"

    def _latex_rows(self) -> list[tuple[str, str]]:
        rows = [(r"\text{growth vector}", sp.latex(sp.Tuple(*self.growth)))]
        if self.point is not None:
            rows.append((r"\text{at}", ", ".join(f"{sp.latex(s)} = {sp.latex(v)}" for s, v in self.point)))
        return rows


def _check_point(chart: Chart, point: Any, what: str = "growth_vector") -> dict[sp.Symbol, sp.Expr]:
    """``point`` as ``{symbol: exact value}``; ``what`` (the caller's name) starts every message."""
    if not isinstance(point, Mapping):
        raise ArgumentError(f"{what}: point must be a mapping coordinate -> value, got {point!r}")
    for k, v in point.items():
        as_expr(v, name=f"{what}: point[{k}]")  # strings and non-finite values are refused here
    sub = chart.coordinate_substitution(point)
    missing = [str(q) for q in chart.q if q not in sub]
    extra = [str(s) for s in sub if s not in chart.q and s not in chart.params]
    if missing or extra:
        raise InvalidExpressionError(
            f"{what}: point must give every coordinate {chart.q} (missing {missing}, not coordinates {extra})"
        )
    return {s: as_expr(v, name=f"{what}: point[{s}]") for s, v in sub.items()}


def _matrix(fields: Sequence[VectorField]) -> sp.Matrix:
    return sp.Matrix([list(X.components) for X in fields])


def _generic(gens: Sequence[VectorField], n: int, max_step: int) -> tuple[tuple[int, ...], tuple[VectorField, ...]]:
    basis = list(gens)
    growth = [len(basis)]
    prev = list(gens)
    while len(basis) < n and len(growth) < max_step:
        with step(f"bracket flag D^{len(growth) + 1}"):
            new: list[VectorField] = []
            for X in gens:
                for Y in prev:
                    checkpoint()
                    Z = X.bracket(Y)
                    if all(is_zero(c) for c in Z.components):
                        continue
                    if _rank(_matrix(basis + new + [Z])) > len(basis) + len(new):
                        new.append(Z)
                        if len(basis) + len(new) == n:
                            break
                if len(basis) + len(new) == n:
                    break
        if not new:
            break
        basis += new
        growth.append(len(basis))
        prev = new
    return tuple(growth), tuple(basis)


def _at_point(
    gens: Sequence[VectorField], n: int, sub: Mapping[sp.Symbol, Any], max_step: int
) -> tuple[tuple[int, ...], tuple[tuple[VectorField, ...], ...]]:
    """The growth vector at the point, and the brackets of each length (``layers[k-1]``: length ``k``).

    Length ``k + 1`` brackets are ``[X_α, Y]`` with ``Y`` of length ``k`` (they span all brackets of
    that length by the Jacobi identity); duplicates up to sign and vanishing brackets are dropped.
    """

    def at(fields: Sequence[VectorField]) -> sp.Matrix:
        return _matrix(fields).xreplace(dict(sub))

    layer = list(gens)
    seen = {X.components for X in layer}
    everything = list(layer)
    layers = [tuple(layer)]
    growth = [_rank(at(everything))]
    while growth[-1] < n and len(growth) < max_step:
        with step(f"bracket flag D^{len(growth) + 1}(p)"):
            nxt: list[VectorField] = []
            for X in gens:
                for Y in layer:
                    checkpoint()
                    Z = X.bracket(Y)
                    if Z.components in seen or (-Z).components in seen:
                        continue
                    if all(is_zero(c) for c in Z.components):
                        continue
                    seen.add(Z.components)
                    nxt.append(Z)
            if len(nxt) > MAX_BRACKETS:
                raise BudgetExceededError(
                    f"growth_vector at a point: {len(nxt)} brackets of length {len(growth) + 1} "
                    f"(more than {MAX_BRACKETS}); lower max_step",
                    step=f"bracket flag D^{len(growth) + 1}(p)",
                )
        if not nxt:
            break
        everything += nxt
        layers.append(tuple(nxt))
        growth.append(_rank(at(everything)))
        layer = nxt
    while len(growth) > 1 and growth[-1] == growth[-2]:  # trailing steps that added nothing
        growth.pop()
    return tuple(growth), tuple(layers[: len(growth)])


def bracket_flag(fields: Sequence[VectorField], point: Any = None, *, max_step: int | None = None) -> BracketFlag:
    """The flag of the distribution spanned by ``fields`` (see the module docstring).

    Parameters
    ----------
    fields : sequence of VectorField
        Pointwise independent generators of D (as held by :class:`~frames.Distribution`).
    point : mapping, optional
        Coordinates ``{q: value}`` (symbols or names) of a point; exact values are kept exact.
    max_step : int, optional
        Longest bracket length considered (default ``dim Q`` generically, ``2 dim Q`` at a point).

    Raises
    ------
    ArgumentError, InvalidExpressionError
        For a malformed point or ``max_step``.
    BudgetExceededError
        At a point, when more than ``MAX_BRACKETS`` brackets of one length would be needed, or when
        an open :func:`frames.budget` runs out (the step names the flag level).
    """
    gens = tuple(fields)
    n = gens[0].chart.dim
    if max_step is not None:
        max_step = as_int(max_step, name="growth_vector: max_step", min=1)
    generic, basis = _generic(gens, n, max_step or n)
    if point is None:
        return BracketFlag(generic, n, None, generic, basis)
    sub = _check_point(gens[0].chart, point)
    growth, _layers = _at_point(gens, n, sub, max_step or 2 * n)
    return BracketFlag(growth, n, tuple(sub.items()), generic)
