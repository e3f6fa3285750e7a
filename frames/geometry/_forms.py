r"""Exterior algebra on TQ (and on TQ × R^k) for the method of the Cartan form.

Crampin–Mestdag, section 2.3. A :class:`Form` is a differential form over an
arbitrary tuple of coordinates, typically ``(q, v)`` (base coordinates and the
quasi-velocities of a frame) or ``(q, v, μ)`` for the vakonomic Lagrangian
``L̂ = L − μ_a v^a`` of section 4. It supports the wedge product, the interior
product with a vector, the exterior derivative and evaluation on vectors.

The Cartan forms of a Lagrangian are built from these in the dynamics layer
(:class:`~frames.CartanSystem`, ``frames/dynamics/_cartan.py``).

Design note: the forms are stored sparsely (increasing index tuple →
coefficient) and every coefficient is kept in the library's canonical rational
form (:func:`~frames.algebra.canon`). galgebra (a runtime dependency) could
represent the same forms as multivectors of a Euclidean geometric algebra
(``dx^i ↔ e_i``, ``d = ∇∧``, ``Z ⌟ = Z ⌋``), but it simplifies coefficients
internally with ``simplify``/``trigsimp`` and handles a full multivector of
``2^N`` blades, which is slow for the 13 coordinates of the vakonomic
two-wheeled carriage. It is used instead as an independent oracle in the tests
(``tests/dynamics/test_lagrangian.py``).

Conventions: ``(Z ⌟ ω)(Y) = ω(Z, Y)``; ``(α ∧ β)(X, Y) = α(X)β(Y) − α(Y)β(X)``
(determinant convention), so ``dx^1 ∧ dx^2 (∂_1, ∂_2) = 1``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import sympy as sp

from .._value import Value
from ..algebra import derivative, expect, is_zero, tidy
from ..algebra.internal import as_expr, as_exprs, as_int, as_subs, canon
from ..errors import ArgumentError, ChartMismatchError, InvalidExpressionError
from ._tangent import TangentVectorField

__all__ = ["Form", "vector_components"]

_Index = tuple[int, ...]


def _coords(coords: Iterable[Any], what: str = "Form: coords") -> tuple[sp.Symbol, ...]:
    if isinstance(coords, str | bytes | Mapping) or not isinstance(coords, Iterable):
        raise ArgumentError(f"{what}: expected a sequence of Symbols, got {type(coords).__name__} {coords!r}")
    cs = tuple(coords)
    if not cs or not all(isinstance(c, sp.Symbol) for c in cs):
        raise InvalidExpressionError(f"{what}: coordinates must be a non-empty sequence of Symbols, got {cs!r}")
    if len(set(cs)) != len(cs):
        raise InvalidExpressionError(f"{what}: repeated coordinates in {cs!r}")
    return cs


def _sort_sign(idx: Sequence[int]) -> tuple[int, _Index]:
    """Sign of the permutation sorting ``idx`` and the sorted tuple (sign 0 if an index repeats)."""
    if len(set(idx)) != len(idx):
        return 0, ()
    arr = list(idx)
    sign = 1
    for i in range(len(arr)):  # insertion sort, counting transpositions
        j = i
        while j > 0 and arr[j - 1] > arr[j]:
            arr[j - 1], arr[j] = arr[j], arr[j - 1]
            sign = -sign
            j -= 1
    return sign, tuple(arr)


class Form(Value):
    r"""A differential ``p``-form ``Σ_{I} f_I dx^{i_1} ∧ … ∧ dx^{i_p}`` over ``coords``.

    Parameters
    ----------
    coords : sequence of Symbol
        The coordinates ``x^1..x^N`` (e.g. ``q + v`` or ``q + v + μ``).
    degree : int
        ``p``.
    terms : mapping
        Strictly increasing index tuples (0-based, length ``p``) → coefficients.
        Unsorted tuples are sorted with the permutation sign.

    Examples
    --------
    >>> import sympy as sp
    >>> x, y, z = sp.symbols("x y z")
    >>> dx, dy, dz = (Form.differential((x, y, z), c) for c in (x, y, z))
    >>> w = (x * dy) ^ dz
    >>> w.d()
    dx∧dy∧dz
    >>> w.interior([0, 1, 0])
    x*dz
    >>> w([0, 1, 0], [0, 0, 1])
    x
    """

    coords: tuple[sp.Symbol, ...]
    degree: int
    terms: Mapping[_Index, sp.Expr]

    def __init__(self, coords: Iterable[Any], degree: int, terms: Mapping[Any, Any] | None = None) -> None:
        cs = _coords(coords)
        degree = as_int(degree, name="Form: degree", min=0, max=len(cs))
        if terms is None:
            terms = {}
        expect(terms, Mapping, name="Form: terms", what="a mapping index tuple -> coefficient")
        checked: list[tuple[_Index, sp.Expr]] = []
        for idx, c in terms.items():
            if isinstance(idx, int) and not isinstance(idx, bool):
                idx = (idx,)
            if not isinstance(idx, tuple | list) or not all(
                isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(cs) for i in idx
            ):
                raise InvalidExpressionError(
                    f"Form: terms: bad index {idx!r} (expected a tuple of integers in 0..{len(cs) - 1})"
                )
            idx = tuple(idx)
            if len(idx) != degree:
                raise InvalidExpressionError(
                    f"Form: terms: index {idx!r} has length {len(idx)}, not the degree {degree}"
                )
            checked.append((idx, as_expr(c, name=f"Form: terms[{idx}]")))
        self._set(cs, degree, checked)

    def _set(self, cs: tuple[sp.Symbol, ...], degree: int, terms: Iterable[tuple[_Index, Any]]) -> None:
        out: dict[_Index, sp.Expr] = {}
        for idx, c in terms:
            sign, key = _sort_sign(idx)
            if sign == 0:
                continue
            out[key] = out.get(key, sp.S.Zero) + sign * sp.sympify(c, strict=True)
        clean = {k: canon(v) for k, v in out.items()}
        self.coords = cs
        self.degree = degree
        self.terms = {k: v for k, v in sorted(clean.items()) if v != 0}

    @classmethod
    def _make(cls, cs: tuple[sp.Symbol, ...], degree: int, terms: Mapping[_Index, Any]) -> Form:
        """A form from internal values (coordinates, degree and indices already valid)."""
        obj = object.__new__(cls)
        obj._set(cs, degree, terms.items())
        return obj

    # ---------------------------------------------------------- constructors
    @classmethod
    def zero(cls, coords: Iterable[Any], degree: int) -> Form:
        """The zero ``degree``-form."""
        return cls(_coords(coords, "Form.zero: coords"), degree, {})

    @classmethod
    def function(cls, coords: Iterable[Any], f: object) -> Form:
        """The 0-form ``f``."""
        return cls(_coords(coords, "Form.function: coords"), 0, {(): as_expr(f, name="Form.function: f")})

    @classmethod
    def differential(cls, coords: Iterable[Any], x: sp.Symbol) -> Form:
        """``dx`` for one of the coordinates ``x``."""
        cs = _coords(coords, "Form.differential: coords")
        if not isinstance(x, sp.Symbol) or x not in cs:
            raise InvalidExpressionError(f"Form.differential: x: {x!r} is not one of the coordinates {cs}")
        return cls(cs, 1, {(cs.index(x),): 1})

    @classmethod
    def exact(cls, coords: Iterable[Any], f: object) -> Form:
        """``df`` for a function ``f`` of the coordinates."""
        cs = _coords(coords, "Form.exact: coords")
        return cls.function(cs, as_expr(f, name="Form.exact: f")).d()

    @classmethod
    def one_form(cls, coords: Iterable[Any], components: Sequence[Any]) -> Form:
        """``Σ c_i dx^i`` from the list of its components."""
        cs = _coords(coords, "Form.one_form: coords")
        comps = as_exprs(components, name="Form.one_form: components")
        if len(comps) != len(cs):
            raise InvalidExpressionError(
                f"Form.one_form: components: {len(comps)} components for {len(cs)} coordinates"
            )
        return cls._make(cs, 1, {(i,): c for i, c in enumerate(comps)})

    # ---------------------------------------------------------------- basics
    @property
    def dim(self) -> int:
        """Number of coordinates N."""
        return len(self.coords)

    def _same(self, other: Form, what: str) -> None:
        expect(other, Form, name=f"{what}: other")
        if other.coords != self.coords:
            raise ChartMismatchError(
                f"{what}: other: forms over different coordinates {self.coords} and {other.coords}"
            )

    def coefficient(self, *xs: sp.Symbol) -> sp.Expr:
        """Coefficient of ``dx^{i_1} ∧ …`` (with the sign of the given order)."""
        if len(xs) != self.degree:
            raise InvalidExpressionError(f"Form.coefficient: xs: {len(xs)} coordinates for a {self.degree}-form")
        for x in xs:
            if not isinstance(x, sp.Symbol) or x not in self.coords:
                raise InvalidExpressionError(f"Form.coefficient: xs: {x!r} is not a coordinate {self.coords}")
        sign, key = _sort_sign([self.coords.index(x) for x in xs])
        return sign * self.terms.get(key, sp.S.Zero) if sign else sp.S.Zero

    def as_expr(self) -> sp.Expr:
        """The coefficient of a 0-form."""
        if self.degree != 0:
            raise InvalidExpressionError(f"Form.as_expr: a {self.degree}-form is not a function")
        return self.terms.get((), sp.S.Zero)

    def matrix(self) -> sp.ImmutableMatrix:
        """For a 2-form: the skew matrix ``Ω[I, J] = ω(∂_I, ∂_J)``."""
        if self.degree != 2:
            raise InvalidExpressionError(f"Form.matrix: defined for 2-forms, this is a {self.degree}-form")
        N = self.dim
        M = sp.zeros(N, N)
        for (i, j), c in self.terms.items():
            M[i, j] = c
            M[j, i] = -c
        return sp.ImmutableMatrix(M)

    # ---------------------------------------------------------------- algebra
    def __add__(self, other: Form) -> Form:
        self._same(other, "Form.__add__")
        if other.degree != self.degree:
            raise InvalidExpressionError(f"Form.__add__: other: degrees {self.degree} and {other.degree} differ")
        t: dict[_Index, Any] = dict(self.terms)
        for k, v in other.terms.items():
            t[k] = t.get(k, 0) + v
        return Form._make(self.coords, self.degree, t)

    def __neg__(self) -> Form:
        return Form._make(self.coords, self.degree, {k: -v for k, v in self.terms.items()})

    def __sub__(self, other: Form) -> Form:
        self._same(other, "Form.__sub__")
        return self + (-other)

    def __mul__(self, f: object) -> Form:
        if isinstance(f, Form):
            return self.wedge(f)
        g = as_expr(f, name="Form.__mul__: f")
        return Form._make(self.coords, self.degree, {k: g * v for k, v in self.terms.items()})

    __rmul__ = __mul__

    def wedge(self, other: Form) -> Form:
        r"""``self ∧ other``."""
        self._same(other, "Form.wedge")
        if self.degree + other.degree > self.dim:
            return Form.zero(self.coords, self.dim)
        t: dict[_Index, Any] = {}
        for I, a in self.terms.items():
            for J, b in other.terms.items():
                sign, key = _sort_sign(I + J)
                if sign:
                    t[key] = t.get(key, 0) + sign * a * b
        return Form._make(self.coords, self.degree + other.degree, t)

    __xor__ = wedge

    def d(self) -> Form:
        r"""Exterior derivative ``d(f dx^I) = Σ_k ∂_k f dx^k ∧ dx^I``."""
        if self.degree == self.dim:
            return Form.zero(self.coords, self.dim)
        t: dict[_Index, Any] = {}
        for I, f in self.terms.items():
            for k, x in enumerate(self.coords):
                if k in I:
                    continue
                df = derivative(f, x)
                if df == 0:
                    continue
                sign, key = _sort_sign((k, *I))
                t[key] = t.get(key, 0) + sign * df
        return Form._make(self.coords, self.degree + 1, t)

    def _vector(self, Z: Any, what: str = "Form.interior: Z") -> tuple[sp.Expr, ...]:
        return vector_components(Z, self.coords, what)

    def interior(self, Z: Any) -> Form:
        r"""``Z ⌟ ω``: ``(Z ⌟ ω)(Y_2, …) = ω(Z, Y_2, …)``.

        ``Z`` is a sequence of components over ``coords``, a mapping
        ``{coordinate: component}``, or a :class:`~frames.TangentVectorField`
        written in frame coordinates ``(q, v)``.
        """
        z = self._vector(Z)
        if self.degree == 0:
            return Form.zero(self.coords, 0)
        t: dict[_Index, Any] = {}
        for I, f in self.terms.items():
            for r, i in enumerate(I):
                if z[i] == 0:
                    continue
                key = I[:r] + I[r + 1 :]
                t[key] = t.get(key, 0) + (-1) ** r * z[i] * f
        return Form._make(self.coords, self.degree - 1, t)

    def __call__(self, *vectors: Any) -> sp.Expr:
        """Evaluate on ``degree`` vectors: ``ω(Z_1, …, Z_p)``."""
        if len(vectors) != self.degree:
            raise InvalidExpressionError(
                f"Form.__call__: vectors: a {self.degree}-form evaluated on {len(vectors)} vectors"
            )
        for k, Z in enumerate(vectors):
            self._vector(Z, f"Form.__call__: vectors[{k}]")
        w: Form = self
        for Z in vectors:
            w = w.interior(Z)
        return w.as_expr()

    def xreplace(self, rule: Mapping[Any, Any]) -> Form:
        """Substitute in the coefficients (e.g. restrict to ``v^a = 0``)."""
        if not isinstance(rule, Mapping):
            raise ArgumentError(f"Form.xreplace: rule: expected a mapping symbol -> value, got {rule!r}")
        r = as_subs(rule, name="Form.xreplace: rule")  # values checked before they reach any coefficient
        return Form._make(self.coords, self.degree, {k: v.xreplace(r) for k, v in self.terms.items()})

    def simplified(self) -> Form:
        """Coefficients put through :func:`~frames.algebra.tidy`."""
        return Form._make(self.coords, self.degree, {k: tidy(v) for k, v in self.terms.items()})

    def is_zero(self) -> bool:
        """True if every coefficient vanishes identically."""
        return all(is_zero(v) for v in self.terms.values())

    def equals(self, other: Form) -> bool:
        """Identity test (trig-aware)."""
        self._same(other, "Form.equals")
        return other.degree == self.degree and (self - other).is_zero()

    # ---------------------------------------------------------------- display
    def _basis_str(self, I: _Index, latex: bool = False) -> str:
        if not I:
            return ""
        if latex:
            return r" \wedge ".join(rf"d{sp.latex(self.coords[i])}" for i in I)
        return "∧".join(f"d{self.coords[i]}" for i in I)

    def __repr__(self) -> str:
        if not self.terms:
            return "0"
        parts = []
        for I, c in self.terms.items():
            b = self._basis_str(I)
            if not b:
                parts.append(str(c))
            elif c == 1:
                parts.append(b)
            elif c == -1:
                parts.append("-" + b)
            else:
                parts.append(f"({c})*{b}" if c.is_Add else f"{c}*{b}")
        return " + ".join(parts).replace("+ -", "- ")

    def _repr_latex_(self) -> str:
        if not self.terms:
            return "$0$"
        parts = []
        for I, c in self.terms.items():
            b = self._basis_str(I, latex=True)
            parts.append(rf"\left({sp.latex(c)}\right) {b}" if b else sp.latex(c))
        return "$" + " + ".join(parts) + "$"


def vector_components(Z: Any, coords: Sequence[sp.Symbol], what: str = "Form: Z") -> tuple[sp.Expr, ...]:
    """Components of a vector over ``coords`` from a sequence, a mapping or a TangentVectorField.

    Entries are checked (strings are never parsed; nan, oo and I are refused); ``what`` names the argument.
    """
    if isinstance(Z, TangentVectorField):
        if not is_zero(Z.time):
            raise InvalidExpressionError(f"{what}: the vector has a ∂/∂t component; forms here live on TQ without t")
        comp = dict(zip(Z.coordinates, list(Z.base) + list(Z.fibre), strict=True))
        missing = [x for x, c in comp.items() if x not in coords and c != 0]
        if missing:
            raise ChartMismatchError(
                f"{what}: the vector has components along {missing}, which are not among the coordinates "
                f"{tuple(coords)}"
            )
        return tuple(comp.get(x, sp.S.Zero) for x in coords)
    if isinstance(Z, Mapping):
        bad = [x for x in Z if x not in coords]
        if bad:
            raise InvalidExpressionError(f"{what}: {bad} are not coordinates {tuple(coords)}")
        return tuple(as_expr(Z.get(x, 0), name=f"{what}[{x}]") for x in coords)
    if isinstance(Z, str | bytes) or not isinstance(Z, Iterable):
        raise InvalidExpressionError(
            f"{what}: {Z!r} is not a vector (a sequence of components, a mapping or a TangentVectorField)"
        )
    zs = as_exprs(Z, name=what)
    if len(zs) != len(coords):
        raise InvalidExpressionError(f"{what}: a vector with {len(zs)} components over {len(coords)} coordinates")
    return zs
