r"""Exterior algebra on TQ (and on TQ × R^k) for the method of the Cartan form.

Crampin–Mestdag, section 2.3. A :class:`Form` is a differential form over an
arbitrary tuple of coordinates, typically ``(q, v)`` (base coordinates and the
quasi-velocities of a frame) or ``(q, v, μ)`` for the vakonomic Lagrangian
``L̂ = L − μ_a v^a`` of section 4. It supports the wedge product, the interior
product with a vector, the exterior derivative and evaluation on vectors.

:class:`CartanSystem` builds, for a Lagrangian written in a frame, the Cartan
1-form ``X_i^V(L) θ^i``, the Cartan 2-form ``ω = d(X_i^V(L) θ^i)``, the energy
``E = v^i X_i^V(L) − L`` and the lifted frame ``{X_i^C, X_i^V, ∂/∂μ_a}``, and
solves ``Γ ⌟ ω = −dE`` (:meth:`CartanSystem.solve`) for regular and singular
Lagrangians alike: the answer is the general solution with its free parameters
and the conditions under which a solution exists.

Design note: the forms are stored sparsely (increasing index tuple →
coefficient) and every coefficient is kept in the library's canonical rational
form (:func:`~frames._simplify.canon`). galgebra (a runtime dependency) could
represent the same forms as multivectors of a Euclidean geometric algebra
(``dx^i ↔ e_i``, ``d = ∇∧``, ``Z ⌟ = Z ⌋``), but it simplifies coefficients
internally with ``simplify``/``trigsimp`` and handles a full multivector of
``2^N`` blades, which is slow for the 13 coordinates of the vakonomic
two-wheeled carriage. It is used instead as an independent oracle in the tests
(``tests/test_lagrangian.py``).

Conventions: ``(Z ⌟ ω)(Y) = ω(Z, Y)``; ``(α ∧ β)(X, Y) = α(X)β(Y) − α(Y)β(X)``
(determinant convention), so ``dx^1 ∧ dx^2 (∂_1, ∂_2) = 1``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sympy as sp

from ._errors import ChartMismatchError, InvalidExpressionError
from ._frame import Frame
from ._simplify import canon, is_zero, tidy

if TYPE_CHECKING:
    from ._lagrangian import Lagrangian
    from ._tangent import SecondOrderField

__all__ = ["CartanSolution", "CartanSystem", "Form", "solve_linear_general"]

_Index = tuple[int, ...]


def _coords(coords: Iterable[Any]) -> tuple[sp.Symbol, ...]:
    cs = tuple(coords)
    if not cs or not all(isinstance(c, sp.Symbol) for c in cs):
        raise InvalidExpressionError(f"Form: coordinates must be a non-empty sequence of Symbols, got {cs!r}")
    if len(set(cs)) != len(cs):
        raise InvalidExpressionError(f"Form: repeated coordinates in {cs!r}")
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


@dataclass(frozen=True, eq=False, repr=False)
class Form:
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
        if not isinstance(degree, int) or degree < 0 or degree > len(cs):
            raise InvalidExpressionError(f"Form: degree {degree!r} outside 0..{len(cs)}")
        out: dict[_Index, sp.Expr] = {}
        for idx, c in (terms or {}).items():
            idx = tuple(idx)
            if len(idx) != degree or not all(isinstance(i, int) and 0 <= i < len(cs) for i in idx):
                raise InvalidExpressionError(f"Form: bad index {idx!r} for a {degree}-form over {len(cs)} coordinates")
            sign, key = _sort_sign(idx)
            if sign == 0:
                continue
            out[key] = out.get(key, sp.S.Zero) + sign * sp.sympify(c)
        clean = {k: canon(v) for k, v in out.items()}
        object.__setattr__(self, "coords", cs)
        object.__setattr__(self, "degree", degree)
        object.__setattr__(self, "terms", {k: v for k, v in sorted(clean.items()) if v != 0})

    # ---------------------------------------------------------- constructors
    @classmethod
    def zero(cls, coords: Iterable[Any], degree: int) -> Form:
        """The zero ``degree``-form."""
        return cls(coords, degree, {})

    @classmethod
    def function(cls, coords: Iterable[Any], f: object) -> Form:
        """The 0-form ``f``."""
        return cls(coords, 0, {(): f})

    @classmethod
    def differential(cls, coords: Iterable[Any], x: sp.Symbol) -> Form:
        """``dx`` for one of the coordinates ``x``."""
        cs = _coords(coords)
        if x not in cs:
            raise InvalidExpressionError(f"Form.differential: {x} is not one of the coordinates {cs}")
        return cls(cs, 1, {(cs.index(x),): 1})

    @classmethod
    def exact(cls, coords: Iterable[Any], f: object) -> Form:
        """``df`` for a function ``f`` of the coordinates."""
        return cls.function(coords, f).d()

    @classmethod
    def one_form(cls, coords: Iterable[Any], components: Sequence[Any]) -> Form:
        """``Σ c_i dx^i`` from the list of its components."""
        cs = _coords(coords)
        if len(components) != len(cs):
            raise InvalidExpressionError(f"Form.one_form: {len(components)} components for {len(cs)} coordinates")
        return cls(cs, 1, {(i,): c for i, c in enumerate(components)})

    # ---------------------------------------------------------------- basics
    @property
    def dim(self) -> int:
        """Number of coordinates N."""
        return len(self.coords)

    def _same(self, other: Form, what: str) -> None:
        if not isinstance(other, Form):
            raise InvalidExpressionError(f"{what}: {other!r} is not a Form")
        if other.coords != self.coords:
            raise ChartMismatchError(f"{what}: forms over different coordinates {self.coords} and {other.coords}")

    def coefficient(self, *xs: sp.Symbol) -> sp.Expr:
        """Coefficient of ``dx^{i_1} ∧ …`` (with the sign of the given order)."""
        if len(xs) != self.degree:
            raise InvalidExpressionError(f"Form.coefficient: {len(xs)} coordinates for a {self.degree}-form")
        for x in xs:
            if x not in self.coords:
                raise InvalidExpressionError(f"Form.coefficient: {x} is not a coordinate")
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
        self._same(other, "Form add")
        if other.degree != self.degree:
            raise InvalidExpressionError(f"Form add: degrees {self.degree} and {other.degree} differ")
        t: dict[_Index, Any] = dict(self.terms)
        for k, v in other.terms.items():
            t[k] = t.get(k, 0) + v
        return Form(self.coords, self.degree, t)

    def __neg__(self) -> Form:
        return Form(self.coords, self.degree, {k: -v for k, v in self.terms.items()})

    def __sub__(self, other: Form) -> Form:
        return self + (-other)

    def __mul__(self, f: object) -> Form:
        if isinstance(f, Form):
            return self.wedge(f)
        g = sp.sympify(f)
        return Form(self.coords, self.degree, {k: g * v for k, v in self.terms.items()})

    __rmul__ = __mul__

    def wedge(self, other: Form) -> Form:
        r"""``self ∧ other``."""
        self._same(other, "wedge")
        if self.degree + other.degree > self.dim:
            return Form.zero(self.coords, self.dim)
        t: dict[_Index, Any] = {}
        for I, a in self.terms.items():
            for J, b in other.terms.items():
                sign, key = _sort_sign(I + J)
                if sign:
                    t[key] = t.get(key, 0) + sign * a * b
        return Form(self.coords, self.degree + other.degree, t)

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
                df = sp.diff(f, x)
                if df == 0:
                    continue
                sign, key = _sort_sign((k, *I))
                t[key] = t.get(key, 0) + sign * df
        return Form(self.coords, self.degree + 1, t)

    def _vector(self, Z: Any) -> tuple[sp.Expr, ...]:
        return vector_components(Z, self.coords)

    def interior(self, Z: Any) -> Form:
        r"""``Z ⌟ ω``: ``(Z ⌟ ω)(Y_2, …) = ω(Z, Y_2, …)``.

        ``Z`` is a sequence of components over ``coords``, a mapping
        ``{coordinate: component}``, or a :class:`~frames.TangentVectorField`
        written in frame coordinates ``(q, v)``.
        """
        if self.degree == 0:
            return Form.zero(self.coords, 0)
        z = self._vector(Z)
        t: dict[_Index, Any] = {}
        for I, f in self.terms.items():
            for r, i in enumerate(I):
                if z[i] == 0:
                    continue
                key = I[:r] + I[r + 1 :]
                t[key] = t.get(key, 0) + (-1) ** r * z[i] * f
        return Form(self.coords, self.degree - 1, t)

    def __call__(self, *vectors: Any) -> sp.Expr:
        """Evaluate on ``degree`` vectors: ``ω(Z_1, …, Z_p)``."""
        if len(vectors) != self.degree:
            raise InvalidExpressionError(f"Form: a {self.degree}-form evaluated on {len(vectors)} vectors")
        w: Form = self
        for Z in vectors:
            w = w.interior(Z)
        return w.as_expr()

    def xreplace(self, rule: Mapping[Any, Any]) -> Form:
        """Substitute in the coefficients (e.g. restrict to ``v^a = 0``)."""
        return Form(self.coords, self.degree, {k: v.xreplace(dict(rule)) for k, v in self.terms.items()})

    def simplified(self) -> Form:
        """Coefficients put through :func:`~frames._simplify.tidy`."""
        return Form(self.coords, self.degree, {k: tidy(v) for k, v in self.terms.items()})

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


def vector_components(Z: Any, coords: Sequence[sp.Symbol]) -> tuple[sp.Expr, ...]:
    """Components of a vector over ``coords`` from a sequence, a mapping or a TangentVectorField."""
    from ._tangent import TangentVectorField

    if isinstance(Z, TangentVectorField):
        if not is_zero(Z.time):
            raise InvalidExpressionError("Form: the vector has a ∂/∂t component; forms here live on TQ without t")
        comp = dict(zip(Z.coordinates, list(Z.base) + list(Z.fibre), strict=True))
        missing = [x for x, c in comp.items() if x not in coords and c != 0]
        if missing:
            raise ChartMismatchError(
                f"Form: the vector has components along {missing}, which are not among the coordinates {tuple(coords)}"
            )
        return tuple(comp.get(x, sp.S.Zero) for x in coords)
    if isinstance(Z, Mapping):
        bad = [x for x in Z if x not in coords]
        if bad:
            raise InvalidExpressionError(f"Form: {bad} are not coordinates {tuple(coords)}")
        return tuple(sp.sympify(Z.get(x, 0)) for x in coords)
    if isinstance(Z, str):
        raise InvalidExpressionError(f"Form: {Z!r} is not a vector")
    zs = [sp.sympify(c) for c in list(Z)]
    if len(zs) != len(coords):
        raise InvalidExpressionError(f"Form: a vector with {len(zs)} components over {len(coords)} coordinates")
    return tuple(zs)


# --------------------------------------------------------------------------- linear algebra
def solve_linear_general(
    A: sp.MatrixBase,
    b: sp.MatrixBase,
    unknowns: Sequence[sp.Symbol],
    simp: Any = canon,
    groups: Sequence[int] | None = None,
) -> tuple[dict[sp.Symbol, sp.Expr], tuple[sp.Symbol, ...], tuple[sp.Expr, ...], tuple[sp.Expr, ...]]:
    r"""General solution of ``A x = b`` over the field of functions (exact Gauss–Jordan).

    Rows are reduced in the order given. In each row the pivot is taken from the
    first column group (``groups[c]``, default all 0) with an entry that does not
    vanish identically, a constant entry if there is one, else the leftmost (for a
    positive definite Hessian these are the positive Schur-complement diagonals); so unknowns in later
    groups are the ones left free.

    Returns
    -------
    solution : dict
        Every unknown → its value in terms of the free unknowns.
    free : tuple of Symbol
        The unknowns left free (the parameters of the general solution).
    conditions : tuple of expressions
        Functions that must vanish for a solution to exist (rows ``0 = c``).
    pivots : tuple of expressions
        The non-constant pivots divided by; the solution holds where they do not vanish.

    ``simp`` normalises every entry after each row operation (default
    :func:`~frames._simplify.canon`; :func:`~frames._simplify.tidy` keeps
    trigonometric entries small).
    """
    M = sp.Matrix(A).row_join(sp.Matrix(b))
    rows, cols = A.shape
    group = list(groups) if groups is not None else [0] * cols
    if len(unknowns) != cols:
        raise InvalidExpressionError(f"solve_linear_general: {len(unknowns)} unknowns for {cols} columns")
    pivot_of: dict[int, int] = {}
    conditions: list[sp.Expr] = []
    nonconst: list[sp.Expr] = []
    zero_rows: list[int] = []
    for i in range(rows):
        cand = [c for c in range(cols) if c not in pivot_of.values() and M[i, c] != 0 and not is_zero(M[i, c])]
        if cand:
            first = min(group[c] for c in cand)
            j: int | None = min((c for c in cand if group[c] == first), key=lambda c: (not M[i, c].is_number, c))
        else:
            j = None
        if j is None:
            zero_rows.append(i)
            continue
        p = M[i, j]
        if not p.is_number:
            nonconst.append(p)
        M[i, :] = (M[i, :] / p).applyfunc(simp)
        for k in range(rows):
            if k != i and M[k, j] != 0:
                f = M[k, j]
                M[k, :] = (M[k, :] - f * M[i, :]).applyfunc(simp)
        pivot_of[i] = j
    for i in zero_rows:
        c = canon(M[i, cols])
        if not is_zero(c):
            conditions.append(c)
    pivot_cols = set(pivot_of.values())
    free = tuple(unknowns[c] for c in range(cols) if c not in pivot_cols)
    sol: dict[sp.Symbol, sp.Expr] = {x: x for x in free}
    for i, j in pivot_of.items():
        val = M[i, cols] - sp.Add(*[M[i, c] * unknowns[c] for c in range(cols) if c not in pivot_cols])
        sol[unknowns[j]] = canon(val)
    return sol, free, tuple(conditions), tuple(nonconst)


def _reduce_conditions(
    conds: Sequence[sp.Expr], variables: Sequence[sp.Symbol]
) -> tuple[tuple[sp.Expr, ...], dict[sp.Symbol, sp.Expr]]:
    """Row-reduce conditions that are affine in ``variables``; solve them for pivot variables.

    Returns the reduced conditions and a substitution (pivot variable → value)
    describing the locus; conditions not affine in the variables are kept as
    they are and give no substitution.
    """
    if not conds:
        return (), {}
    affine = []
    other = []
    for c in conds:
        e = sp.expand(sp.numer(sp.together(c)))
        try:
            poly = sp.Poly(e, *variables)
        except sp.PolynomialError:
            other.append(c)
            continue
        if poly.total_degree() <= 1 and any(poly.degree(x) > 0 for x in variables):
            affine.append(e)
        else:
            other.append(c)
    if not affine:
        return tuple(conds), {}
    A = sp.Matrix([[sp.diff(e, x) for x in variables] for e in affine])
    b = sp.Matrix([-e.xreplace(dict.fromkeys(variables, 0)) for e in affine])
    sol, _free, rest, _piv = solve_linear_general(A, b, list(variables))
    locus = {x: v for x, v in sol.items() if v != x}
    reduced = tuple(canon(x - v) for x, v in locus.items()) + tuple(rest) + tuple(other)
    return reduced, locus


# --------------------------------------------------------------------------- Cartan forms
@dataclass(frozen=True, eq=False, repr=False)
class CartanSystem:
    r"""The Cartan forms of a Lagrangian written in a frame (Crampin–Mestdag section 2.3).

    Parameters
    ----------
    frame : Frame
        The anholonomic frame ``{X_i}`` on Q; fibre coordinates are its quasi-velocities ``v``.
    lagrangian : Lagrangian or expression
        A :class:`~frames.Lagrangian` (rewritten in ``(q, v)``), or an expression in
        ``q``, ``v``, the ``extra`` coordinates and the chart's parameters.
    extra : sequence of Symbol, optional
        Further coordinates without velocities, e.g. the multipliers ``μ_a`` of the
        vakonomic Lagrangian ``L̂ = L − μ_a v^a`` on ``TQ × R^{n−m}`` (section 4).
        The frame is augmented by the coordinate fields ``∂/∂μ_a``.

    Notes
    -----
    Coordinates on the (extended) tangent bundle are ``(q, v, μ)``. The pulled-back
    coframe is ``θ^i = θ^i_j dq^j``; the Cartan 1-form is ``X_i^V(L) θ^i``, the
    Cartan 2-form ``ω = d(X_i^V(L) θ^i)``, the energy ``E = v^i X_i^V(L) − L``.
    The lifted frame is ``X_i^C = X_i^j ∂_{q^j} − R^j_ik v^k ∂_{v^j}``,
    ``X_i^V = ∂_{v^i}``, ``∂/∂μ_a``; its dual coframe is
    ``(θ^i, dv^i + R^i_jk v^k θ^j, dμ_a)``.

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.nonholonomic_particle()
    >>> cs = CartanSystem(mdl.frame, mdl.lagrangian)
    >>> sol = cs.solve()
    >>> sol.parameters, sol.conditions
    ((), ())
    >>> sol.as_second_order_field().equals(mdl.lagrangian.euler_lagrange_field(mdl.frame))
    True
    """

    frame: Frame
    L: sp.Expr
    extra: tuple[sp.Symbol, ...]

    def __init__(self, frame: Frame, lagrangian: Any, extra: Sequence[sp.Symbol] = ()) -> None:
        from ._lagrangian import Lagrangian

        if not isinstance(frame, Frame):
            raise InvalidExpressionError(f"CartanSystem: {frame!r} is not a Frame")
        ch = frame.chart
        ex = tuple(extra)
        if not all(isinstance(s, sp.Symbol) for s in ex):
            raise InvalidExpressionError(f"CartanSystem: extra coordinates {ex!r} must be Symbols")
        clash = set(ex) & (set(ch.q) | set(ch.u) | set(frame.v) | set(ch.params))
        if clash or len(set(ex)) != len(ex):
            raise InvalidExpressionError(f"CartanSystem: extra coordinates {ex} clash with chart or frame symbols")
        if isinstance(lagrangian, Lagrangian):
            if lagrangian.chart.q != ch.q or lagrangian.chart.u != ch.u:
                raise ChartMismatchError(f"CartanSystem: Lagrangian on {lagrangian.chart!r}, frame on {ch!r}")
            if lagrangian.time_dependent:
                raise InvalidExpressionError(
                    f"CartanSystem: L = {lagrangian.expr} depends explicitly on t; the Cartan forms here are "
                    "those of an autonomous Lagrangian (use Lagrangian.euler_lagrange_field for time-dependent L)"
                )
            L = lagrangian.in_frame(frame)
            ch = ch.merged(lagrangian.chart, "CartanSystem")
        else:
            L = ch.check_on_TQ(lagrangian, "CartanSystem Lagrangian", extra=(*frame.v, *ex))
            fib = L.free_symbols & set(ch.u)
            if fib:
                raise InvalidExpressionError(
                    f"CartanSystem: the Lagrangian {L} uses natural velocities {sorted(map(str, fib))}; "
                    f"write it in the frame's quasi-velocities {frame.v} or pass a Lagrangian"
                )
            if ch.t is not None and ch.t in L.free_symbols:
                raise InvalidExpressionError(f"CartanSystem: the Lagrangian {L} depends explicitly on t")
        object.__setattr__(self, "frame", frame)
        object.__setattr__(self, "L", sp.expand(L))
        object.__setattr__(self, "extra", ex)
        object.__setattr__(self, "_cache", {})

    @classmethod
    def vakonomic(
        cls, lagrangian: Lagrangian, frame: Frame, m: int, mu: str | Sequence[sp.Symbol] = "mu"
    ) -> CartanSystem:
        r"""``L̂ = L − μ_a v^a`` on ``TQ × R^{n−m}`` (Crampin–Mestdag section 4).

        ``mu`` is a name prefix (symbols ``mu{a}``, a = m+1..n, as in the paper) or the symbols.
        """
        n = frame.dim
        if not isinstance(m, int) or not 0 < m < n:
            raise InvalidExpressionError(f"CartanSystem.vakonomic: m = {m!r} must satisfy 0 < m < n = {n}")
        if isinstance(mu, str):
            mus = tuple(sp.Symbol(f"{mu}{a + 1}") for a in range(m, n))
        else:
            mus = tuple(mu)
            if len(mus) != n - m:
                raise InvalidExpressionError(f"CartanSystem.vakonomic: need {n - m} multiplier symbols, got {mus!r}")
        Lv = lagrangian.in_frame(frame)
        Lhat = Lv - sp.Add(*[mus[k] * frame.v[m + k] for k in range(n - m)])
        if lagrangian.time_dependent:
            raise InvalidExpressionError("CartanSystem.vakonomic: L depends explicitly on t")
        return cls(frame, Lhat, extra=mus)

    # ------------------------------------------------------------ coordinates
    @property
    def n(self) -> int:
        """dim Q."""
        return self.frame.dim

    @property
    def coords(self) -> tuple[sp.Symbol, ...]:
        """``(q, v, extra)``."""
        return self.frame.chart.q + self.frame.v + self.extra

    def theta(self, i: int) -> Form:
        r"""The pulled-back coframe element ``θ^i = θ^i_j dq^j`` (0-based ``i``)."""
        Th = self.frame.coframe_matrix
        return Form(self.coords, 1, {(j,): Th[i, j] for j in range(self.n)})

    def lifted_frame(self) -> tuple[tuple[sp.Expr, ...], ...]:
        r"""``(X_1^C … X_n^C, X_1^V … X_n^V, ∂/∂μ_1 …)`` as component tuples over :attr:`coords`."""
        if "lifted" not in self._cache:  # type: ignore[attr-defined]
            n, k = self.n, len(self.extra)
            F = self.frame
            R = F.anholonomy
            out = []
            for i in range(n):
                fib = [-sp.Add(*[R[j, i, kk] * F.v[kk] for kk in range(n)]) for j in range(n)]
                out.append(tuple(F.matrix[i, :]) + tuple(fib) + (sp.S.Zero,) * k)
            for i in range(n):
                out.append((sp.S.Zero,) * n + tuple(sp.S.One if j == i else sp.S.Zero for j in range(n)) + (0,) * k)
            for a in range(k):
                out.append((sp.S.Zero,) * (2 * n) + tuple(sp.S.One if b == a else sp.S.Zero for b in range(k)))
            self._cache["lifted"] = tuple(tuple(sp.sympify(c) for c in Y) for Y in out)  # type: ignore[attr-defined]
        return self._cache["lifted"]  # type: ignore[attr-defined, no-any-return]

    def lifted_coframe(self) -> tuple[Form, ...]:
        r"""The dual of :meth:`lifted_frame`: ``(θ^i, dv^i + R^i_jk v^k θ^j, dμ_a)``."""
        n = self.n
        R = self.frame.anholonomy
        v = self.frame.v
        th = [self.theta(i) for i in range(n)]
        eta = []
        for i in range(n):
            e = Form.differential(self.coords, v[i])
            for j in range(n):
                c = sp.Add(*[R[i, j, k] * v[k] for k in range(n)])
                if c != 0:
                    e = e + c * th[j]
            eta.append(e)
        dmu = [Form.differential(self.coords, m) for m in self.extra]
        return (*th, *eta, *dmu)

    def basis_names(self) -> tuple[str, ...]:
        """Names of the lifted frame vectors, for display."""
        n = self.n
        return (
            tuple(f"X{i + 1}^C" for i in range(n))
            + tuple(f"X{i + 1}^V" for i in range(n))
            + tuple(f"∂/∂{m}" for m in self.extra)
        )

    def apply(self, Y: Sequence[Any], f: object) -> sp.Expr:
        """Apply the vector ``Y`` (components over :attr:`coords`) to a function."""
        e = sp.sympify(f)
        return sp.Add(*[c * sp.diff(e, x) for c, x in zip(Y, self.coords, strict=True) if c != 0])

    # ------------------------------------------------------------ the forms
    def momenta(self) -> tuple[sp.Expr, ...]:
        """``p_i = X_i^V(L) = ∂L/∂v^i``."""
        return tuple(sp.diff(self.L, vi) for vi in self.frame.v)

    def cartan_one_form(self) -> Form:
        r"""The Cartan 1-form ``X_i^V(L) θ^i``."""
        if "theta_L" not in self._cache:  # type: ignore[attr-defined]
            Th = self.frame.coframe_matrix
            p = self.momenta()
            comps = [sp.Add(*[p[i] * Th[i, j] for i in range(self.n)]) for j in range(self.n)]
            self._cache["theta_L"] = Form(self.coords, 1, {(j,): c for j, c in enumerate(comps)})  # type: ignore[attr-defined]
        return self._cache["theta_L"]  # type: ignore[attr-defined, no-any-return]

    def cartan_two_form(self) -> Form:
        r"""The Cartan 2-form ``ω = d(X_i^V(L) θ^i)``."""
        if "omega" not in self._cache:  # type: ignore[attr-defined]
            self._cache["omega"] = self.cartan_one_form().d()  # type: ignore[attr-defined]
        return self._cache["omega"]  # type: ignore[attr-defined, no-any-return]

    omega = cartan_two_form

    def energy(self) -> sp.Expr:
        r"""``E = v^i X_i^V(L) − L``."""
        return canon(sp.Add(*[vi * p for vi, p in zip(self.frame.v, self.momenta(), strict=True)]) - self.L)

    def omega_matrix(self) -> sp.ImmutableMatrix:
        r"""``W[K, J] = ω(Y_K, Y_J)`` on the lifted frame ``Y`` (:meth:`lifted_frame`)."""
        if "W" not in self._cache:  # type: ignore[attr-defined]
            Om = self.cartan_two_form().matrix()
            B = sp.Matrix([list(Y) for Y in self.lifted_frame()]).T  # columns = Y_K
            self._cache["W"] = sp.ImmutableMatrix((B.T * Om * B).applyfunc(tidy))  # type: ignore[attr-defined]
        return self._cache["W"]  # type: ignore[attr-defined, no-any-return]

    def residual(self, Gamma: Any) -> Form:
        r"""``Γ ⌟ ω + dE`` for a vector ``Γ`` over :attr:`coords` (zero for a solution)."""
        return self.cartan_two_form().interior(Gamma) + Form.exact(self.coords, self.energy())

    # ------------------------------------------------------------ the solver
    def unknowns(self) -> tuple[sp.Symbol, ...]:
        r"""Symbols for the components of Γ on the lifted frame.

        ``k_i`` (along ``X_i^C``), ``Gamma_i`` (along ``X_i^V``) and ``A_a`` (along
        ``∂/∂μ_a``; for a symbol named ``mu3`` the parameter is ``A3``).
        """
        n = self.n
        names = [f"k{i + 1}" for i in range(n)] + [f"Gamma{i + 1}" for i in range(n)]
        for m in self.extra:
            names.append("A" + m.name[2:] if m.name.startswith("mu") and len(m.name) > 2 else f"A_{m.name}")
        taken = {s.name for s in self.coords} | {s.name for s in self.frame.chart.params}
        return tuple(sp.Symbol(nm if nm not in taken else nm + "_") for nm in names)

    def solve(self) -> CartanSolution:
        r"""Solve ``Γ ⌟ ω = −dE`` for ``Γ = k^i X_i^C + Γ^i X_i^V + A_a ∂/∂μ_a``.

        Evaluating the equation on the lifted frame gives ``Σ_K γ^K ω(Y_K, Y_J) = −Y_J(E)``.
        It is reduced in the order ``X_j^V``, ``X_j^C``, ``∂/∂μ_a`` (so for a regular L the
        first n rows give ``θ^j(Γ) = k^j = v^j``), with the unknowns ordered
        ``k, Γ, A`` (so the μ-velocities are the ones left free when there is a choice).

        Returns
        -------
        CartanSolution
            The general solution, its free parameters and the conditions for existence.
        """
        if "solution" in self._cache:  # type: ignore[attr-defined]
            return self._cache["solution"]  # type: ignore[attr-defined, no-any-return]
        n, k = self.n, len(self.extra)
        W = self.omega_matrix()
        Ys = self.lifted_frame()
        E = self.energy()
        order = list(range(n, 2 * n)) + list(range(n)) + list(range(2 * n, 2 * n + k))
        A = sp.Matrix([[W[K, J] for K in range(2 * n + k)] for J in order])
        b = sp.Matrix([-tidy(self.apply(Ys[J], E)) for J in order])
        unknowns = self.unknowns()
        groups = [0] * (2 * n) + [1] * k
        sol, free, conds, pivots = solve_linear_general(A, b, unknowns, simp=tidy, groups=groups)
        reduced, locus = _reduce_conditions(conds, [*self.frame.v, *self.extra])
        comps = tuple(tidy(sol[x]) for x in unknowns)
        out = CartanSolution(self, comps, free, reduced, locus, pivots)
        self._cache["solution"] = out  # type: ignore[attr-defined]
        return out

    def __repr__(self) -> str:
        return f"CartanSystem(L = {self.L}, coordinates {self.coords})"


@dataclass(frozen=True, eq=False, repr=False)
class CartanSolution:
    r"""General solution of ``Γ ⌟ ω = −dE`` on the lifted frame.

    Attributes
    ----------
    system : CartanSystem
    components : tuple of expressions
        Coefficients of ``Γ`` along ``X_1^C … X_n^C, X_1^V … X_n^V, ∂/∂μ_a``, in terms of
        the coordinates and the :attr:`parameters`. Valid on the :attr:`locus`.
    parameters : tuple of Symbol
        Free parameters of the general solution (components left undetermined).
    conditions : tuple of expressions
        Functions that must vanish for a solution to exist (empty: exists everywhere).
    locus : dict
        The conditions solved for some coordinates (e.g. ``{v3: 0}``), when they are affine in
        the fibre coordinates.
    nondegeneracy : tuple of expressions
        Non-constant pivots of the elimination; the solution holds where they do not vanish.
    """

    system: CartanSystem
    components: tuple[sp.Expr, ...]
    parameters: tuple[sp.Symbol, ...]
    conditions: tuple[sp.Expr, ...]
    locus: dict[sp.Symbol, sp.Expr]
    nondegeneracy: tuple[sp.Expr, ...]

    @property
    def exists_everywhere(self) -> bool:
        """True if there are no conditions for existence."""
        return not self.conditions

    @property
    def is_unique(self) -> bool:
        """True if there are no free parameters."""
        return not self.parameters

    def on_locus(self) -> tuple[sp.Expr, ...]:
        """:attr:`components` with :attr:`locus` substituted."""
        return tuple(tidy(c.xreplace(self.locus)) for c in self.components)

    def vector(self, on_locus: bool = False) -> tuple[sp.Expr, ...]:
        """``Γ`` as components over the coordinates ``(q, v, μ)``."""
        comps = self.on_locus() if on_locus else self.components
        Ys = self.system.lifted_frame()
        N = len(self.system.coords)
        return tuple(canon(sp.Add(*[g * Y[I] for g, Y in zip(comps, Ys, strict=True)])) for I in range(N))

    def __call__(self, f: object) -> sp.Expr:
        """``Γ(f)`` for a function of ``(q, v, μ)``, evaluated on the locus."""
        return canon(self.system.apply(self.vector(on_locus=True), f).xreplace(self.locus))

    def second_order_coefficients(self) -> tuple[sp.Expr, ...]:
        """``θ^i(Γ) − v^i``: all zero on the locus iff Γ is of second-order type there."""
        v = self.system.frame.v
        return tuple(tidy((self.components[i] - v[i]).xreplace(self.locus)) for i in range(self.system.n))

    def as_second_order_field(self) -> SecondOrderField:
        """The solution as a :class:`~frames.SecondOrderField` (regular, autonomous L on TQ).

        Raises
        ------
        InvalidExpressionError
            If the solution has parameters, conditions, extra coordinates, or is not of second-order type.
        """
        from ._tangent import SecondOrderField

        s = self.system
        if self.parameters or self.conditions or s.extra:
            raise InvalidExpressionError(
                f"CartanSolution: not a unique field on TQ (parameters {self.parameters}, "
                f"conditions {self.conditions}, extra coordinates {s.extra})"
            )
        if not all(is_zero(c) for c in self.second_order_coefficients()):
            raise InvalidExpressionError("CartanSolution: the solution is not of second-order type")
        return SecondOrderField(s.frame, self.components[s.n : 2 * s.n])

    def equations(self) -> list[sp.Eq]:
        """``component = value`` for every lifted-frame direction, then the conditions ``c = 0``."""
        names = self.system.unknowns()
        return [sp.Eq(x, c) for x, c in zip(names, self.components, strict=True)] + [
            sp.Eq(c, 0) for c in self.conditions
        ]

    def __repr__(self) -> str:
        names = self.system.basis_names()
        parts = [f"({c})*{nm}" for c, nm in zip(self.components, names, strict=True) if c != 0]
        s = "Γ = " + (" + ".join(parts) if parts else "0")
        if self.parameters:
            s += f"; free parameters {self.parameters}"
        if self.conditions:
            s += "; exists only where " + ", ".join(f"{c} = 0" for c in self.conditions)
        return s

    def _repr_latex_(self) -> str:
        n = self.system.n
        names = [rf"X_{{{i + 1}}}^C" for i in range(n)] + [rf"X_{{{i + 1}}}^V" for i in range(n)]
        names += [rf"\frac{{\partial}}{{\partial {sp.latex(m)}}}" for m in self.system.extra]
        parts = [rf"\left({sp.latex(c)}\right) {nm}" for c, nm in zip(self.components, names, strict=True) if c != 0]
        s = r"\Gamma = " + (" + ".join(parts) if parts else "0")
        if self.conditions:
            s += r",\quad " + r",\ ".join(sp.latex(c) + " = 0" for c in self.conditions)
        return "$" + s + "$"
