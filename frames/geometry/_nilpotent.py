r"""The nilpotent approximation of a distribution at a point: privileged coordinates and weights.

Let D be spanned by ``X_1 … X_m`` and bracket generating at ``p``, with growth vector
``(n_1, …, n_r)`` at ``p`` (:func:`~frames.geometry._growth.bracket_flag`) and weights
``w_i = k`` for ``n_{k-1} < i ≤ n_k``. The construction is the algebraic one of Bellaïche (1996)
in the form given by Jean (2014, chapter 2: the algebraic construction of privileged
coordinates); it works at regular and at singular points alike.

1. **Adapted frame.** ``Y_1 … Y_n``: brackets of the generators, of lengths ``w_1 ≤ … ≤ w_n``,
   whose values at ``p`` are adapted to the flag (``Y_1(p) … Y_{n_k}(p)`` span ``D^k(p)``). They are
   taken greedily: the generators, then the brackets of length 2, 3, … that raise the rank at ``p``.
2. **Linearly adapted coordinates.** ``y = A^{-1}(x − p)``, where ``A`` has the columns ``Y_i(p)``.
3. **Privileged coordinates** (Jean 2014, ch. 2): ``z_j = y_j − Σ_{k=2}^{w_j-1} h_{j,k}``
   with

   .. math::
       h_{j,k}(y_1, …, y_{j-1}) = \sum_{|α| = k,\ w(α) < w_j}
       \bigl(Y_1^{α_1} \cdots Y_{j-1}^{α_{j-1}} (y_j - \textstyle\sum_{q<k} h_{j,q})\bigr)(p)\,
       \frac{y^α}{α!},

   ``|α| = Σ α_i``, ``w(α) = Σ w_i α_i`` (the operators are applied right to left). Then the
   nonholonomic order of ``z_j`` at ``p`` is exactly ``w_j``: the coordinates are privileged.
4. **Nilpotent approximation.** In privileged coordinates every ``X_i = Σ_j a_{ij}(z) ∂_{z_j}`` has
   ``a_{ij}`` of weighted order ``≥ w_j − 1``; its part of weight ``−1``,
   ``X̂_i = Σ_j a_{ij}^{(w_j - 1)}(z) ∂_{z_j}`` (the weighted-homogeneous part of degree ``w_j − 1``
   of the Taylor series), is a polynomial field, homogeneous of degree −1 under the dilations
   ``δ_t(z) = (t^{w_1} z_1, …, t^{w_n} z_n)``: ``δ_t^* X̂_i = t^{-1} X̂_i`` with
   ``δ_t^* X = (δ_t^{-1})_* X``, i.e. component ``j`` of ``X̂_i(δ_t z)`` is ``t^{w_j - 1} X̂_i^j(z)``. The ``X̂_i`` generate a
   nilpotent Lie algebra of step ``r`` and their growth vector at 0 is the growth vector of D at
   ``p``.

Everything is exact: the fields are replaced by their Taylor polynomials of degree ``r − 1`` at
``p`` (enough for every weighted degree below ``r``), and the computation is polynomial algebra.
The construction checks its own result: every monomial of ``a_{ij}`` of weighted degree below
``w_j − 1`` must vanish (that is the definition of privileged coordinates).

>>> import frames as fr
>>> ch = fr.Chart("x y z")
>>> x, y, z = ch.q
>>> D = fr.Distribution([fr.VectorField(ch, [1, 0, -y / 2]), fr.VectorField(ch, [0, 1, x / 2])])
>>> N = D.nilpotent_approximation({x: 0, y: 0, z: 0})
>>> N.weights
(1, 1, 2)
>>> N.fields
(∂/∂z1 - z2/2*∂/∂z3, ∂/∂z2 + z1/2*∂/∂z3)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import field
from typing import Any

import sympy as sp

from .._value import Record
from ..algebra import derivative, expect, is_zero, solve_linear, step, tidy
from ..algebra.internal import as_expr, as_exprs, as_int, canon, checkpoint
from ..errors import ArgumentError, ConstraintError, FramesError, InvalidExpressionError
from ._chart import Chart
from ._fields import VectorField
from ._frame import _rank
from ._growth import _at_point, _check_point

__all__ = ["NilpotentApproximation", "nilpotent_approximation"]

_WHAT = "nilpotent_approximation"


def _growth_of(weights: Sequence[int]) -> tuple[int, ...]:
    return tuple(sum(1 for w in weights if w <= k) for k in range(1, max(weights) + 1))


def _weighted_terms(e: sp.Expr, zs: Sequence[sp.Symbol], weights: Sequence[int]) -> list[tuple[int, sp.Expr]]:
    """``(weighted degree, coefficient)`` of each monomial of the polynomial ``e`` in ``zs``."""
    poly = sp.Poly(e, *zs)
    return [(sum(a * w for a, w in zip(mon, weights, strict=True)), c) for mon, c in poly.terms() if c != 0]


class NilpotentApproximation(Record):
    r"""The nilpotent approximation of a distribution at a point (Bellaïche 1996; Jean 2014, ch. 2).

    Attributes
    ----------
    point : tuple of (Symbol, value) pairs
        The point ``p``, in the order of the original chart's coordinates.
    weights : tuple of int
        ``w_1 ≤ … ≤ w_n``, from the growth vector of D at ``p``.
    chart : Chart
        The chart of the privileged coordinates ``z_1 … z_n`` (where the ``fields`` live).
    privileged : tuple of sympy expressions
        ``z_j`` as exact functions (polynomials) of the original coordinates; ``z(p) = 0``.
    inverse : tuple of sympy expressions
        The original coordinates as polynomials in ``z`` (the inverse map).
    fields : tuple of VectorField
        ``X̂_1 … X̂_m`` on ``chart``: polynomial, weighted homogeneous of degree −1.
    frame : tuple of VectorField
        The adapted frame ``Y_1 … Y_n`` (brackets of the generators) on the original chart.

    Raises
    ------
    ArgumentError
        At construction, for malformed parts or fields that are not homogeneous of degree −1.

    Examples
    --------
    Heisenberg off the origin: the privileged coordinates absorb the translation and the tilt of D(p).

    >>> import frames as fr
    >>> ch = fr.Chart("x y z")
    >>> x, y, z = ch.q
    >>> D = fr.Distribution([fr.VectorField(ch, [1, 0, -y / 2]), fr.VectorField(ch, [0, 1, x / 2])])
    >>> N = D.nilpotent_approximation({x: 1, y: 2, z: 3})
    >>> N.privileged
    (x - 1, y - 2, x - y/2 + z - 3)
    >>> N.fields
    (∂/∂z1 - z2/2*∂/∂z3, ∂/∂z2 + z1/2*∂/∂z3)
    >>> N.growth, N.dilation(2)
    ((2, 3), {z1: 2*z1, z2: 2*z2, z3: 4*z3})
    """

    point: tuple[tuple[sp.Symbol, sp.Expr], ...]
    weights: tuple[int, ...]
    chart: Chart
    privileged: tuple[sp.Expr, ...]
    inverse: tuple[sp.Expr, ...]
    fields: tuple[VectorField, ...]
    frame: tuple[VectorField, ...] = field(default=())

    def __post_init__(self) -> None:
        w = "NilpotentApproximation"
        expect(self.chart, Chart, name=f"{w}: chart")
        n = self.chart.dim
        if (
            not isinstance(self.point, tuple)
            or not self.point
            or not all(isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], sp.Symbol) for p in self.point)
        ):
            raise ArgumentError(f"{w}: point: expected a non-empty tuple of (Symbol, value) pairs, got {self.point!r}")
        point = tuple((s, as_expr(v, name=f"{w}: point[{s}]")) for s, v in self.point)
        if not isinstance(self.weights, tuple | list) or len(self.weights) != n:
            raise ArgumentError(
                f"{w}: weights: expected a tuple of {n} weights (one per coordinate), got {self.weights!r}"
            )
        ws = tuple(as_int(k, name=f"{w}: weights[{i}]", min=1) for i, k in enumerate(self.weights))
        if ws[0] != 1 or any(b < a for a, b in itertools.pairwise(ws)):
            raise ArgumentError(f"{w}: weights: {ws} must start at 1 and not decrease")
        zs = set(self.chart.q)
        priv = as_exprs(self.privileged, name=f"{w}: privileged", length=n)
        for j, e in enumerate(priv):
            if e.free_symbols & zs:
                raise ArgumentError(f"{w}: privileged[{j}]: {e} uses the privileged coordinates {self.chart.q}")
        inv = as_exprs(self.inverse, name=f"{w}: inverse", length=n)
        for j, e in enumerate(inv):
            if not e.is_polynomial(*self.chart.q):
                raise ArgumentError(f"{w}: inverse[{j}]: {e} is not a polynomial in {self.chart.q}")
        for name in ("fields", "frame"):
            fs = getattr(self, name)
            if not isinstance(fs, tuple | list) or (name == "fields" and not fs):
                raise ArgumentError(f"{w}: {name}: expected a tuple of VectorFields, got {fs!r}")
            for i, X in enumerate(fs):
                expect(X, VectorField, name=f"{w}: {name}[{i}]")
        if self.frame and len(self.frame) != n:
            raise ArgumentError(f"{w}: frame: expected {n} fields (an adapted frame), got {len(self.frame)}")
        for i, X in enumerate(self.fields):
            self.chart.require_same(X.chart, f"{w}: fields[{i}]")
            for j, c in enumerate(X.components):
                if not c.is_polynomial(*self.chart.q) or any(
                    d != ws[j] - 1 for d, _ in _weighted_terms(c, self.chart.q, ws)
                ):
                    raise ArgumentError(
                        f"{w}: fields[{i}]: component {j} = {c} is not a weighted-homogeneous polynomial of "
                        f"degree w_{j + 1} - 1 = {ws[j] - 1} (weights {ws}): the field is not of degree -1"
                    )
        self.point = point
        self.weights = ws
        self.privileged = priv
        self.inverse = inv
        self.fields = tuple(self.fields)
        self.frame = tuple(self.frame)

    @property
    def coordinates(self) -> tuple[sp.Symbol, ...]:
        """The privileged coordinates ``z_1 … z_n`` (symbols of :attr:`chart`)."""
        return self.chart.q

    @property
    def growth(self) -> tuple[int, ...]:
        """The growth vector of D at the point (``(dim D^1(p), …, dim D^r(p))``)."""
        return _growth_of(self.weights)

    @property
    def step(self) -> int:
        """``r = w_n``: the step of the nilpotent Lie algebra generated by the ``X̂_i``."""
        return self.weights[-1]

    def dilation(self, t: Any) -> dict[sp.Symbol, sp.Expr]:
        """``δ_t``: the substitution ``z_j ↦ t^{w_j} z_j``."""
        s = as_expr(t, name="NilpotentApproximation.dilation: t")
        return {zj: s**wj * zj for zj, wj in zip(self.chart.q, self.weights, strict=True)}

    def __repr__(self) -> str:
        at = ", ".join(f"{s}={v}" for s, v in self.point)
        fields = ", ".join(repr(X) for X in self.fields)
        return f"NilpotentApproximation(at {at}, weights={self.weights}, fields=({fields}))"

    def _latex_rows(self) -> list[tuple[str, str]]:
        rows = [
            (r"\text{at}", ", ".join(f"{sp.latex(s)} = {sp.latex(v)}" for s, v in self.point)),
            (r"\text{weights}", sp.latex(sp.Tuple(*self.weights))),
        ]
        rows += [(sp.latex(zj), sp.latex(e)) for zj, e in zip(self.chart.q, self.privileged, strict=True)]
        rows += [(rf"\hat X_{{{i + 1}}}", X._repr_latex_().strip("$")) for i, X in enumerate(self.fields)]
        return rows


# ----------------------------------------------------------------------------- the construction
def _exact_point(chart: Chart, point: Any) -> dict[sp.Symbol, sp.Expr]:
    sub = _check_point(chart, point, _WHAT)
    for s, v in sub.items():
        if v.has(sp.Float):
            raise InvalidExpressionError(
                f"{_WHAT}: point[{s}]: {v} is a float; the construction is exact: give exact values "
                "(integers, sympy.Rational, symbols)"
            )
        if v.free_symbols & set(chart.q):
            raise InvalidExpressionError(f"{_WHAT}: point[{s}]: {v} depends on the coordinates {chart.q}")
    return sub


def _at(X: VectorField, sub: dict[sp.Symbol, sp.Expr]) -> list[sp.Expr]:
    vals = [canon(c.xreplace(sub)) for c in X.components]
    for c, v in zip(X.components, vals, strict=True):
        if v.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
            raise InvalidExpressionError(
                f"{_WHAT}: point: the component {c} of {X!r} is not defined there ({v}); "
                "the point must lie in the domain of the fields"
            )
    return vals


def _adapted_frame(
    gens: Sequence[VectorField], sub: dict[sp.Symbol, sp.Expr], max_step: int
) -> tuple[tuple[VectorField, ...], tuple[int, ...]]:
    """Brackets ``Y_1 … Y_n`` adapted to the flag at the point, and their weights (lengths)."""
    n = gens[0].chart.dim
    for X in gens:
        _at(X, sub)
    growth, layers = _at_point(gens, n, sub, max_step)
    if growth[-1] < n:
        where = ", ".join(f"{s}={v}" for s, v in sub.items())
        raise ConstraintError(
            f"{_WHAT}: fields: D is not bracket generating at the point ({where}): its growth vector there is "
            f"{growth}, which stops below dim Q = {n} (brackets up to length {max_step} were tried); "
            "a nilpotent approximation needs D^r(p) = TpQ"
        )
    frame: list[VectorField] = []
    weights: list[int] = []
    values: list[list[sp.Expr]] = []
    for k, layer in enumerate(layers, start=1):
        for Z in layer:
            if len(frame) == growth[k - 1]:
                break
            checkpoint()
            vz = _at(Z, sub)
            if _rank(sp.Matrix([*values, vz])) > len(frame):
                frame.append(Z)
                weights.append(k)
                values.append(vz)
    return tuple(frame), tuple(weights)


def _jet(f: sp.Expr, shift: dict[sp.Symbol, sp.Expr], s: sp.Symbol, order: int) -> sp.Expr:
    """Taylor polynomial of degree ``order`` of ``f(p + A y)`` in ``y`` (``shift``: ``q ↦ p + s A y``)."""
    g = f.xreplace(shift)
    out = sp.S.Zero
    for k in range(order + 1):
        if k:
            g = derivative(g, s)
        out += canon(g.subs(s, 0)) / math.factorial(k)
        if g.is_zero:
            break
    return sp.expand(out)


def _truncate(p: sp.Poly, deg: int) -> sp.Poly:
    """The terms of ordinary degree ``≤ deg``."""
    terms = {m: c for m, c in p.terms() if sum(m) <= deg}
    return sp.Poly.from_dict(terms or {(0,) * len(p.gens): 0}, *p.gens, domain=p.domain)


def _apply(Y: Sequence[sp.Poly], g: sp.Poly) -> sp.Poly:
    """The field with polynomial components ``Y`` applied to the polynomial ``g``."""
    out = g * 0
    for c, yk in zip(Y, g.gens, strict=True):
        if not c.is_zero:
            out += c * g.diff(yk)
    return out


def _privileged(Ys: Sequence[Sequence[sp.Poly]], weights: Sequence[int], ys: Sequence[sp.Symbol]) -> list[sp.Poly]:
    """Jean's recursion: ``z_j = y_j − Σ_{k=2}^{w_j-1} h_{j,k}(y_1 … y_{j-1})`` (module docstring)."""
    zs = []
    for j, wj in enumerate(weights):
        g = sp.Poly(ys[j], *ys)
        for k in range(2, wj):
            checkpoint()
            h = g * 0
            for alpha in itertools.product(range(k + 1), repeat=j):
                if sum(alpha) != k or sum(a * w for a, w in zip(alpha, weights, strict=False)) >= wj:
                    continue
                ops = [i for i in range(j) for _ in range(alpha[i])]  # Y_1^α1 … Y_j-1^αj-1, right to left
                f = g
                for left, i in enumerate(reversed(ops)):
                    f = _truncate(_apply(Ys[i], f), len(ops) - left - 1)
                c = f.coeff_monomial((0,) * len(ys))
                if not is_zero(c):
                    mono = sp.Mul(*[y**a for y, a in zip(ys, alpha, strict=False)])
                    h += sp.Poly(c * mono / sp.Mul(*[math.factorial(a) for a in alpha]), *ys)
            g = g - h
        zs.append(g)
    return zs


def _inverse(zpolys: Sequence[sp.Poly], ys: Sequence[sp.Symbol], zsym: Sequence[sp.Symbol]) -> list[sp.Expr]:
    """``y(z)``: ``y_j = z_j + (y_j − z_j(y))`` solved forwards (the correction uses ``y_1 … y_{j-1}``)."""
    out: list[sp.Expr] = []
    for j, p in enumerate(zpolys):
        corr = ys[j] - p.as_expr()
        out.append(sp.expand(zsym[j] + corr.xreplace(dict(zip(ys[:j], out, strict=True)))))
    return out


def nilpotent_approximation(
    fields: Sequence[VectorField], point: Any, *, names: Any = "z", max_step: int | None = None
) -> NilpotentApproximation:
    """The nilpotent approximation at ``point`` of the distribution spanned by ``fields``.

    Parameters
    ----------
    fields : sequence of VectorField
        Generators of D (they may be dependent at the point).
    point : mapping
        ``{q: value}`` for every coordinate; exact values (integers, rationals, symbols).
    names : str or sequence
        The privileged coordinates: a prefix (``"z"`` gives ``z1 … zn``) or ``n`` names or Symbols.
    max_step : int, optional
        Longest bracket tried at the point (default ``2 dim Q``).

    Returns
    -------
    NilpotentApproximation

    Raises
    ------
    ArgumentError, InvalidExpressionError
        A malformed point (not a mapping, a missing coordinate, a string, a float, a value outside
        the domain of the fields), or ``names`` that clash with the chart's symbols.
    ConstraintError
        D is not bracket generating at the point.

    Examples
    --------
    The Martinet distribution on its singular surface ``y = 0``: weights ``(1, 1, 3)``, and the
    approximation is the Martinet distribution itself (with ``z3 = −(z − 5)``).

    >>> import frames as fr
    >>> ch = fr.Chart("x y z")
    >>> x, y, z = ch.q
    >>> D = fr.Distribution([fr.VectorField(ch, [1, 0, y**2 / 2]), fr.VectorField(ch, [0, 1, 0])])
    >>> N = nilpotent_approximation(D.fields, {x: 0, y: 0, z: 5})
    >>> N.weights, N.privileged
    ((1, 1, 3), (x, y, 5 - z))
    >>> N.fields
    (∂/∂z1 - z2**2/2*∂/∂z3, ∂/∂z2)
    """
    gens = tuple(fields)
    if not gens:
        raise ConstraintError(f"{_WHAT}: fields: no generators given")
    for k, X in enumerate(gens):
        expect(X, VectorField, name=f"{_WHAT}: fields[{k}]")
        gens[0].chart.require_same(X.chart, f"{_WHAT}: fields[{k}]")
    chart = gens[0].chart
    n = chart.dim
    sub = _exact_point(chart, point)
    ms = 2 * n if max_step is None else as_int(max_step, name=f"{_WHAT}: max_step", min=1)
    zchart = _privileged_chart(chart, sub, names, n)
    with step("nilpotent approximation: adapted frame at the point"):
        frame, weights = _adapted_frame(gens, sub, ms)
    p = [sub[q] for q in chart.q]
    A = sp.Matrix([_at(Y, sub) for Y in frame]).T  # columns Y_i(p)
    Ainv = solve_linear(A)
    ys = sp.symbols(f"_y0:{n}", cls=sp.Dummy)
    s = sp.Dummy("s")
    Ay = A * sp.Matrix(ys)
    shift = {q: p[i] + s * Ay[i] for i, q in enumerate(chart.q)}
    shift.update({k: v for k, v in sub.items() if k not in chart.q})  # parameters fixed by the point
    order = weights[-1] - 1

    def in_y(X: VectorField, deg: int) -> list[sp.Poly]:
        jets = sp.Matrix([_jet(c, shift, s, deg) for c in X.components])
        return [sp.Poly(sp.expand(e), *ys) for e in Ainv * jets]

    with step("nilpotent approximation: privileged coordinates"):
        Ys = [in_y(Y, max(order - 1, 0)) for Y, w in zip(frame, weights, strict=True) if w < weights[-1]]
        zpoly = _privileged(Ys, weights, ys)
    zsym = zchart.q
    yz = _inverse(zpoly, ys, zsym)
    to_z = dict(zip(ys, yz, strict=True))
    hats = []
    with step("nilpotent approximation: homogeneous parts"):
        for i, X in enumerate(gens):
            Xy = in_y(X, order)
            comps = []
            for j, zj in enumerate(zpoly):
                checkpoint()
                a = sp.expand(_apply(Xy, zj).as_expr().xreplace(to_z))
                keep: list[sp.Expr] = []
                for mon, c in sp.Poly(a, *zsym).terms():
                    d = sum(e * w for e, w in zip(mon, weights, strict=True))
                    if d < weights[j] - 1 and not is_zero(c):
                        raise FramesError(  # pragma: no cover - a bug of the construction, not a user error
                            f"{_WHAT}: internal check failed (please report): component {j} of fields[{i}] has a term of weighted "
                            f"degree {d} < {weights[j] - 1}; the coordinates are not privileged"
                        )
                    if d == weights[j] - 1:
                        keep.append(tidy(c) * sp.Mul(*[z**e for z, e in zip(zsym, mon, strict=True)]))
                comps.append(sp.Add(*keep))
            hats.append(VectorField(zchart, comps))
    xq = [q - pq for q, pq in zip(chart.q, p, strict=True)]
    y_of_x = dict(zip(ys, Ainv * sp.Matrix(xq), strict=True))
    privileged = tuple(tidy(sp.expand(z.as_expr().xreplace(y_of_x))) for z in zpoly)
    x_of_z = A * sp.Matrix(yz)
    inverse = tuple(tidy(sp.expand(p[i] + x_of_z[i])) for i in range(n))
    return NilpotentApproximation(
        tuple((q, sub[q]) for q in chart.q), weights, zchart, privileged, inverse, tuple(hats), frame
    )


def _privileged_chart(chart: Chart, sub: dict[sp.Symbol, sp.Expr], names: Any, n: int) -> Chart:
    """The chart of ``z``: its parameters are the chart's and the symbols in the point's values."""
    if isinstance(names, str) and names.isidentifier():
        spec: Any = [f"{names}{i + 1}" for i in range(n)]
    else:
        spec = names
    if isinstance(spec, str | bytes) or not isinstance(spec, Sequence):
        raise ArgumentError(f"{_WHAT}: names: expected a name prefix or a sequence of {n} names, got {names!r}")
    if len(spec) != n:
        raise ArgumentError(f"{_WHAT}: names: expected {n} names (one per coordinate), got {len(spec)}")
    extra: set[sp.Symbol] = set()
    for v in sub.values():
        extra |= v.free_symbols
    params = list(chart.params) + sorted(extra - set(chart.params), key=str)
    taken = set(chart.q) | set(chart.u) | set(params) | ({chart.t} if chart.t is not None else set())
    try:
        zchart = Chart(spec, time=chart.t, params=params)
    except InvalidExpressionError as e:
        raise ArgumentError(f"{_WHAT}: names: {e}") from e
    clash = sorted(str(z) for z in set(zchart.q) & taken)
    if clash:
        raise ArgumentError(
            f"{_WHAT}: names: the privileged coordinates {clash} clash with the symbols of the chart or the "
            "point; choose another prefix (names=...)"
        )
    return zchart
