r"""Frames, coframes, objects of anholonomy and quasi-velocities.

Conventions (DESIGN.md):

* a frame ``{X_i}`` is stored as the matrix whose rows are ``X_i^j``;
* the coframe satisfies ``θ^i(X_j) = δ^i_j``;
* the object of anholonomy is ``[X_i, X_j] = R^k_ij X_k``, stored as
  ``R[k, i, j]`` and skew in ``(i, j)``;
* quasi-velocities ``v^i = θ^i_j u^j`` and ``u^j = v^i X_i^j``;
* lifted frame in ``(q, v)``:
  ``X_i^C = X_i^j ∂_{q^j} − R^j_ik v^k ∂_{v^j}`` and ``X_i^V = ∂_{v^i}``
  (Crampin–Mestdag, section 2.2).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field
from functools import cached_property
from typing import Any

import sympy as sp

from .._value import Value
from ..algebra import RationalFunctions, derivative, expect, is_zero, solve_linear
from ..algebra.internal import (
    UnsupportedExpression,
    as_expr,
    as_int,
    as_matrix,
    canon,
    checkpoint,
    determinant,
    entries,
    proved_full_rank,
    proved_nonsingular,
    structure_functions,
)
from ..errors import (
    ArgumentError,
    ChartMismatchError,
    ConstraintError,
    InvalidExpressionError,
    SingularFrameError,
    UndecidedError,
)
from ._chart import Chart
from ._fields import OneForm, VectorField
from ._tangent import TangentVectorField

__all__ = ["Frame", "anholonomy_after_change", "complete_frame"]


def _determinant(M: sp.ImmutableMatrix) -> sp.Expr:
    det = determinant(M)
    if det is None:  # entries with floats
        det = canon(M.det(method="bareiss"))
    return det


def coordinate_generators(ctx: RationalFunctions, q: Sequence[sp.Symbol]) -> frozenset[int]:
    """The indices of the generators of ``ctx`` that depend on the coordinates ``q``."""
    qset = set(q)
    return frozenset(i for i, a in enumerate(ctx.atoms) if a.free_symbols & qset)


def uses_coordinates(p: Any, coord: frozenset[int]) -> bool:
    """True if the polynomial ``p`` involves one of the generators ``coord``."""
    return any(m[i] for m in p.itermonoms() for i in coord)


def positive_polynomial(p: Any) -> bool:
    """True if ``p`` is a positive constant plus even powers of generators with positive coefficients (so it is
    positive at every real point)."""
    const = p.coeff(1) if p else 0
    if not const > 0:
        return False
    return all(c > 0 and all(e % 2 == 0 for e in m) for m, c in p.items() if any(m))


def vanishing_factors(ctx: RationalFunctions, p: Any, coord: frozenset[int]) -> list[Any]:
    """The irreducible factors of the polynomial ``p`` that involve the generators ``coord`` and are not
    :func:`positive_polynomial` (sympy's factorisation; the Pythagorean reduction is the caller's)."""
    if not uses_coordinates(p, coord) or positive_polynomial(p):
        return []
    return [f for f, _ in ctx.factor_list(p)[1] if uses_coordinates(f, coord) and not positive_polynomial(f)]


def _numerically_zero(e: sp.Expr) -> bool:
    """Zero test at a point: numerically when the entry is a number, exactly otherwise (parameters)."""
    try:
        return abs(complex(e)) < 1e-12
    except TypeError:
        return is_zero(e)


def _rank(M: sp.MatrixBase) -> int:
    """The rank of a matrix of functions, exact: full rank proved at a point first (:func:`proved_full_rank`: a
    generic point of the ring, or 30 digits outside it), otherwise sympy's elimination with :func:`is_zero`."""
    M = sp.Matrix(M)
    if _diagonal_minor(M) or proved_full_rank(M):  # also the empty matrix: 0
        return min(M.shape)
    r = _rank_by_minors(M)
    return int(M.rank(iszerofunc=is_zero)) if r is None else r


def _rank_by_minors(M: sp.MatrixBase) -> int | None:
    """The rank ``r`` of ``M`` at a generic point, proved to be its rank: the ``r × r`` minor nonzero there is a
    nonzero function, and every other row is the combination of the minor's rows that its pivot entries give
    (solved exactly), on every column. None if the point gives nothing or a row is not such a combination (then
    sympy decides).
    """
    try:
        ctx = RationalFunctions(list(M), exp=True)
    except UnsupportedExpression:
        return None
    fr = [ctx.from_expr(e) for e in M]
    for point in ctx.generic_points(1):
        vals = ctx.values_at(fr, point)
        if vals is None:
            return None
        A = sp.Matrix(M.rows, M.cols, [ctx.ring.domain.to_sympy(v) for v in vals])
        rows = A.T.rref()[1]  # a basis of the row space at the point
        if not rows:
            return 0 if all(is_zero(e) for e in M) else None
        cols = A.extract(list(rows), list(range(M.cols))).rref()[1]
        G = M.extract(list(rows), list(cols)).T  # nonzero at the point: invertible
        others = [i for i in range(M.rows) if i not in rows]
        if not others:
            return len(rows)
        coeffs = solve_linear(G, M.extract(others, list(cols)).T)  # row i = Σ_a c_ai (row a) on the pivot columns
        for k, i in enumerate(others):
            checkpoint()
            for j in (j for j in range(M.cols) if j not in cols):  # ... and on the others too
                resid = M[i, j] - sp.Add(*[coeffs[a, k] * M[r, j] for a, r in enumerate(rows)])
                if not is_zero(resid):
                    return None
        return len(rows)
    return None


def _diagonal_minor(M: sp.MatrixBase) -> bool:
    """True if the rows of ``M`` (no more rows than columns) have a diagonal minor with nonzero entries: each row
    has a column, its own, where it alone is not 0 (the free columns of a null-space basis). Its determinant is the
    product of those entries, which is not the zero function."""
    if M.rows > M.cols:
        return False
    own = set()
    for i in range(M.rows):
        cols = [j for j in range(M.cols) if M[i, j] != 0 and all(M[k, j] == 0 for k in range(M.rows) if k != i)]
        j = next((j for j in cols if M[i, j].is_Number), None)
        if j is None:
            j = next((j for j in cols if not is_zero(M[i, j])), None)
        if j is None or j in own:
            return False
        own.add(j)
    return True


def _quasi_symbols(prefix: str | Sequence[sp.Symbol], n: int, what: str = "Frame: v") -> tuple[sp.Symbol, ...]:
    if isinstance(prefix, str):
        if not prefix.isidentifier():
            raise InvalidExpressionError(
                f"{what}: {prefix!r} is not a valid name prefix for the quasi-velocities (an identifier, e.g. 'v')"
            )
        return tuple(sp.Symbol(f"{prefix}{i + 1}") for i in range(n))
    if isinstance(prefix, bytes | Mapping) or not isinstance(prefix, Iterable):
        raise ArgumentError(f"{what}: expected a name prefix or a sequence of {n} Symbols, got {prefix!r}")
    syms = tuple(prefix)
    if len(syms) != n or not all(isinstance(s, sp.Symbol) for s in syms):
        raise InvalidExpressionError(f"{what}: need {n} quasi-velocity symbols, got {syms!r}")
    if len(set(syms)) != n:
        raise InvalidExpressionError(f"{what}: repeated quasi-velocity symbols in {syms!r}")
    return syms


def _field_list(fields: Any, what: str) -> list[VectorField]:
    """A list of VectorFields from a sequence (a Distribution is read through its ``fields``)."""
    if isinstance(fields, str | bytes | Mapping) or not isinstance(fields, Iterable):
        raise ArgumentError(f"{what}: expected a sequence of VectorFields, got {type(fields).__name__} {fields!r}")
    out = list(fields)
    for k, X in enumerate(out):
        expect(X, VectorField, name=f"{what}[{k}]")
    return out


def _index(i: Any, n: int, what: str) -> int:
    """A 0-based field index in ``-n..n-1`` (a negative index counts from the end, as for tuples)."""
    k = as_int(i, name=what, min=-n, max=n - 1)
    return k % n


def _change_matrix(chart: Chart, A: Any, n: int, what: str) -> sp.Matrix:
    """An ``n×n`` matrix of functions on Q (entries checked before any Matrix constructor)."""
    M = as_matrix(A, name=what)
    if M.shape != (n, n):
        raise SingularFrameError(f"{what}: the matrix must be {n}x{n}, got {M.shape[0]}x{M.shape[1]}")
    return sp.Matrix(n, n, [chart.check_on_Q(x, f"{what}[{k // n},{k % n}]") for k, x in enumerate(M)])


class Frame(Value):
    r"""A local frame ``{X_1, …, X_n}`` on Q with its coframe and anholonomy.

    Parameters
    ----------
    fields : sequence of VectorField
        ``n`` vector fields on one chart of dimension ``n``.
    v : str or sequence of Symbol, default ``"v"``
        Quasi-velocity symbols, or a name prefix (``v1, v2, …``).

    Raises
    ------
    SingularFrameError
        If the number of fields is not the dimension, or the fields are
        dependent (the message gives the determinant).
    ChartMismatchError
        If the fields live on different charts.

    Examples
    --------
    >>> import frames as fr
    >>> ch = fr.Chart("q1 q2 q3"); q1, q2, q3 = ch.q
    >>> F = fr.Frame([fr.VectorField(ch, [1, 0, 0]), fr.VectorField(ch, [0, 1, -q1]),
    ...               fr.VectorField(ch, [0, 0, 1])])
    >>> F.anholonomy[2, 0, 1]          # [X1, X2] = -X3
    -1
    >>> F.to_quasi(ch.u[2])            # u3 in quasi-velocities
    -q1*v2 + v3
    """

    fields: tuple[VectorField, ...]
    v: tuple[sp.Symbol, ...]
    matrix: sp.ImmutableMatrix = field(init=False)
    _det: sp.Expr | None = field(default=None, init=False, compare=False, repr=False)
    _coframe: sp.ImmutableMatrix | None = field(default=None, init=False, compare=False, repr=False)

    def __init__(self, fields: Sequence[VectorField], v: str | Sequence[sp.Symbol] = "v") -> None:
        fields = tuple(_field_list(fields, "Frame: fields"))
        if not fields:
            raise SingularFrameError("Frame: fields: no vector fields given")
        chart = fields[0].chart
        for k, X in enumerate(fields[1:], start=2):
            if X.chart.q != chart.q or X.chart.u != chart.u or X.chart.t != chart.t:
                raise ChartMismatchError(
                    f"Frame: fields: field {k} lives on {X.chart!r} but field 1 lives on {chart!r}"
                )
            chart = chart.merged(X.chart, "Frame")
        n = chart.dim
        if len(fields) != n:
            raise SingularFrameError(
                f"Frame: fields: {len(fields)} fields given on a chart of dimension {n} {chart.q}; "
                f"a frame needs exactly {n}"
            )
        fields = tuple(VectorField._raw(chart, X.components) for X in fields)
        vs = _quasi_symbols(v, n)
        clash = set(vs) & (set(chart.q) | set(chart.u) | set(chart.params) | ({chart.t} if chart.t else set()))
        if clash:
            raise InvalidExpressionError(
                f"Frame: v: quasi-velocity symbols {sorted(map(str, clash))} clash with chart symbols"
            )
        M = sp.ImmutableMatrix([list(X.components) for X in fields])
        det = None
        if not proved_nonsingular(M):  # a point where det ≠ 0 suffices; otherwise the determinant decides
            det = _determinant(M)
            if is_zero(det):
                raise SingularFrameError(
                    f"Frame: fields: the fields {list(fields)} are linearly dependent; "
                    f"determinant of the frame matrix = {det}"
                )
        self.fields = fields
        self.v = vs
        self.matrix = M
        self._det = det
        self._coframe = None

    # ---------------------------------------------------------------- basics
    @property
    def chart(self) -> Chart:
        """The chart the frame lives on."""
        return self.fields[0].chart

    @property
    def dim(self) -> int:
        """n = dim Q."""
        return len(self.fields)

    def singular_set(self) -> tuple[sp.Expr, ...]:
        """The factors of :attr:`determinant`'s numerator that may vanish on Q: the frame is singular exactly where
        one of them is zero (and where a denominator of its fields has a pole).

        Factors free of the coordinates (conditions on the parameters) and factors that are a positive constant
        plus even powers with positive coefficients (positive at every real point) are left out; an empty tuple
        means the frame is regular on all of Q (for the parameter values where it is a frame at all).

        Raises
        ------
        UndecidedError
            If the determinant is outside the ring of :class:`~frames.algebra.RationalFunctions` (radicals …).

        Examples
        --------
        >>> import sympy as sp, frames as fr
        >>> ch = fr.Chart("phi x y")
        >>> phi = ch.q[0]
        >>> F = fr.Frame([fr.VectorField(ch, [1, 0, 0]), fr.VectorField(ch, [0, sp.cos(phi), sp.sin(phi)]),
        ...               fr.VectorField(ch, [0, 0, 1])])
        >>> F.singular_set()
        (cos(phi),)
        """
        try:
            ctx = RationalFunctions([self.determinant], exp=True)
        except UnsupportedExpression:
            raise UndecidedError(
                f"Frame.singular_set: the determinant {self.determinant} is outside the exact ring", self.determinant
            ) from None
        num = ctx.reduce(ctx.normal(ctx.from_expr(self.determinant)).numer)
        coord = coordinate_generators(ctx, self.chart.q)
        return tuple(canon(ctx.to_expr(f)) for f in vanishing_factors(ctx, num, coord))

    @cached_property
    def determinant(self) -> sp.Expr:
        """Determinant of the frame matrix (nonzero by construction; computed on first use)."""
        return self._det if self._det is not None else _determinant(self.matrix)

    def __getitem__(self, i: int) -> VectorField:
        if isinstance(i, slice):
            return self.fields[i]  # type: ignore[return-value]
        return self.fields[_index(i, self.dim, "Frame.__getitem__: i")]

    def __len__(self) -> int:
        return len(self.fields)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.fields)

    def __repr__(self) -> str:
        return "Frame(\n" + "\n".join(f"  X{i + 1} = {X!r}" for i, X in enumerate(self.fields)) + "\n)"

    def _repr_latex_(self) -> str:
        rows = [rf"X_{{{i + 1}}} &= {X._repr_latex_().strip('$')}" for i, X in enumerate(self.fields)]
        return r"$\begin{aligned}" + r"\\ ".join(rows) + r"\end{aligned}$"

    # --------------------------------------------------------------- coframe
    @cached_property
    def coframe_matrix(self) -> sp.ImmutableMatrix:
        r"""Matrix ``Θ`` with rows ``θ^i_j``: ``Θ = (X^T)^{-1}``, so ``θ^i(X_j) = δ^i_j``."""
        return self._coframe if self._coframe is not None else solve_linear(self.matrix.T)

    @property
    def known_coframe(self) -> sp.ImmutableMatrix | None:
        """The coframe matrix ``Θ`` if it is known (given by :meth:`with_coframe` or computed), else ``None``."""
        return self._coframe if self._coframe is not None else self.computed("coframe_matrix")

    @property
    def given_coframe(self) -> sp.ImmutableMatrix | None:
        """The coframe matrix ``Θ`` if it was given (:meth:`with_coframe`), else ``None`` (not the computed one: what
        is derived from it does not depend on what was computed before)."""
        return self._coframe

    @classmethod
    def from_coframe(cls, chart: Chart, coframe: Any, v: str | Sequence[sp.Symbol] = "v") -> Frame:
        r"""The frame dual to a coframe ``Θ`` (rows ``θ^i`` on ``chart``): ``X = (Θ^{-1})^T``, told its coframe.

        The inverse is exact (:func:`~frames.algebra.solve_linear`, entries tidied), so the frame is regular
        wherever ``Θ`` is invertible and dual to it by construction: neither is proved again, as
        ``Frame(...).with_coframe(Θ)`` does (the import of a ``KanesMethod``: the speeds and the velocity
        constraints are the coframe).

        Raises
        ------
        RegularityError
            If ``Θ`` is singular.

        Examples
        --------
        >>> import frames as fr
        >>> ch = fr.Chart("x y")
        >>> F = fr.Frame.from_coframe(ch, [[1, ch.q[0]], [0, 1]])
        >>> F.matrix
        Matrix([
        [ 1, 0],
        [-x, 1]])
        """
        if not isinstance(chart, Chart):
            raise InvalidExpressionError(f"Frame.from_coframe: chart: expected a Chart, got {type(chart).__name__}")
        n = chart.dim
        Th = sp.ImmutableMatrix(as_matrix(coframe, name="Frame.from_coframe: coframe", shape=(n, n)))
        X = sp.ImmutableMatrix(solve_linear(Th, what="Frame.from_coframe: coframe", tidy=True).T)
        vs = _quasi_symbols(v, n)
        clash = set(vs) & (set(chart.q) | set(chart.u) | set(chart.params) | ({chart.t} if chart.t else set()))
        if clash:
            raise InvalidExpressionError(
                f"Frame.from_coframe: v: quasi-velocity symbols {sorted(map(str, clash))} clash with chart symbols"
            )
        fields = tuple(VectorField._raw(chart, sp.ImmutableMatrix(list(X.row(i)))) for i in range(n))
        return cls._from_fields(  # type: ignore[no-any-return]
            fields=fields, v=vs, matrix=X, _det=None, _coframe=Th
        )

    def with_coframe(self, coframe: Any) -> Frame:
        r"""This frame, told its dual coframe ``Θ`` (rows ``θ^i``, ``Θ = (X^T)^{-1}``) instead of inverting it.

        Useful when the coframe is the data — constraint one-forms and the speeds of
        :mod:`sympy.physics.mechanics` — and the frame its inverse: the coframe is then as small as the data, and
        the derivatives the dynamics takes of it are cheap. Checked exactly: ``Θ X^T = I``.

        Raises
        ------
        SingularFrameError
            If ``Θ X^T`` is not the identity.

        Examples
        --------
        >>> import frames as fr
        >>> ch = fr.Chart("x y")
        >>> F = fr.Frame([fr.VectorField(ch, [1, 0]), fr.VectorField(ch, [-ch.q[0], 1])])
        >>> F.with_coframe([[1, ch.q[0]], [0, 1]]).coframe_matrix
        Matrix([
        [1, x],
        [0, 1]])
        """
        Th = as_matrix(coframe, name="Frame.with_coframe: coframe", shape=(self.dim, self.dim))
        X = self.matrix
        for i in range(self.dim):
            for j in range(self.dim):
                checkpoint()  # entry by entry (large entries: a product of the matrices is one long sympy call)
                pij = sp.Add(*[Th[i, k] * X[j, k] for k in range(self.dim) if Th[i, k] != 0 and X[j, k] != 0])
                if not is_zero(pij - (1 if i == j else 0)):
                    raise SingularFrameError(
                        f"Frame.with_coframe: coframe: row {i + 1} paired with field {j + 1} gives {pij}, "
                        f"not {1 if i == j else 0}: not the dual coframe of {self!r}"
                    )
        return Frame._from_fields(  # type: ignore[no-any-return]
            fields=self.fields, v=self.v, matrix=self.matrix, _det=self._det, _coframe=sp.ImmutableMatrix(Th)
        )

    @cached_property
    def coframe(self) -> tuple[OneForm, ...]:
        r"""The dual coframe ``(θ^1, …, θ^n)``."""
        Th = self.coframe_matrix
        return tuple(OneForm._raw(self.chart, sp.ImmutableMatrix(Th.row(i).T)) for i in range(self.dim))

    # ------------------------------------------------------------ anholonomy
    @cached_property
    def brackets(self) -> dict[tuple[int, int], VectorField]:
        """The brackets ``[X_i, X_j]`` for ``i < j`` (0-based)."""
        return {(i, j): self.fields[i].bracket(self.fields[j]) for i in range(self.dim) for j in range(i + 1, self.dim)}

    @cached_property
    def anholonomy(self) -> sp.ImmutableDenseNDimArray:
        r"""Object of anholonomy ``R[k, i, j] = R^k_ij`` with ``[X_i, X_j] = R^k_ij X_k``.

        ``R^k_ij = θ^k([X_i, X_j])``. When every component of the frame and coframe is a
        rational function of symbols, ``sin``/``cos`` and undefined functions of
        non-coordinates (the usual case), only the non-zero brackets and products are
        computed, in sympy's sparse polynomial ring
        (:func:`frames.algebra.structure_functions`); otherwise from
        :attr:`brackets` with expressions. Both give the same canonical entries
        (:func:`~frames.algebra.canon`).
        """
        n = self.dim
        fast = structure_functions(self.matrix, self.chart.q, self.coframe_matrix)
        if fast is None:
            return self._anholonomy_from_brackets()
        flat: list[sp.Expr] = [sp.S.Zero] * n**3  # R[k, i, j] at (k n + i) n + j
        for (k, i, j), r in fast.items():
            flat[(k * n + i) * n + j] = r
            flat[(k * n + j) * n + i] = -r
        return sp.ImmutableDenseNDimArray(flat, (n, n, n))

    def _anholonomy_from_brackets(self) -> sp.ImmutableDenseNDimArray:
        """The object of anholonomy from the brackets as expressions (the general path)."""
        n = self.dim
        Th = self.coframe_matrix
        R = sp.MutableDenseNDimArray.zeros(n, n, n)
        for (i, j), B in self.brackets.items():
            if all(c == 0 for c in B.components):
                continue
            comps = Th * B.components
            for k in range(n):
                r = canon(comps[k])
                R[k, i, j] = r
                R[k, j, i] = -r
        return sp.ImmutableDenseNDimArray(R)

    def is_holonomic(self) -> bool:
        """True if the object of anholonomy vanishes (a coordinate frame, locally)."""
        return all(is_zero(r) for r in entries(self.anholonomy))

    # -------------------------------------------------------- quasi-velocities
    def velocities(self, m: int | None = None) -> tuple[sp.Expr, ...]:
        r"""``u^j = v^α X_α^j`` (α = 1..m): the natural velocities from the quasi-velocities.

        The one place where this sum is written; with ``m`` the sum runs over the first ``m`` fields (on the
        constraint submanifold C, ``v^a = 0``). The sums are not normalised (:attr:`u_in_v` is, for all ``n``).

        Parameters
        ----------
        m : int, optional
            The number of fields summed over; all ``n`` when None.

        Returns
        -------
        tuple of sympy.Expr
            ``(u^1, …, u^n)`` in terms of ``q`` and ``v^1 … v^m``.

        Examples
        --------
        >>> import frames as fr
        >>> fr.Frame.coordinate(fr.Chart("x y")).velocities(1)
        (v1, 0)
        """
        m = self.dim if m is None else m
        if not (isinstance(m, int) and not isinstance(m, bool) and 0 <= m <= self.dim):
            raise InvalidExpressionError(f"Frame.velocities: m: {m!r} is not an integer in 0..{self.dim}")
        X = self.matrix
        return tuple(sp.Add(*[self.v[al] * X[al, j] for al in range(m)]) for j in range(self.dim))

    @cached_property
    def u_in_v(self) -> sp.ImmutableMatrix:
        """``u^j = v^i X_i^j`` as a column, in terms of ``v`` (:meth:`velocities`, normalised)."""
        return canon(sp.ImmutableMatrix(self.velocities()))

    def on_constraint(self, m: int) -> dict[sp.Symbol, sp.Expr]:
        r"""The substitution ``v^a = 0`` (a = m+1..n) that restricts a function of ``(q, v)`` to C.

        When the first ``m`` fields span D, ``C = {v^a = 0}`` is the constraint submanifold
        (DESIGN conventions). The one place where this substitution is built.

        >>> import frames as fr
        >>> fr.Frame.coordinate(fr.Chart("x y z")).on_constraint(2)
        {v3: 0}
        """
        if not (isinstance(m, int) and not isinstance(m, bool) and 0 <= m <= self.dim):
            raise InvalidExpressionError(f"Frame.on_constraint: m: {m!r} is not an integer in 0..{self.dim}")
        return {self.v[a]: sp.S.Zero for a in range(m, self.dim)}

    @cached_property
    def v_in_u(self) -> sp.ImmutableMatrix:
        """``v^i = θ^i_j u^j`` as a column, in terms of ``u``."""
        return canon(self.coframe_matrix * sp.Matrix(self.chart.u))

    def to_quasi(self, expr: object) -> sp.Expr:
        """Rewrite a function of ``(q, u)`` in ``(q, v)``: substitute ``u = X^T v``."""
        return canon(
            as_expr(expr, name="Frame.to_quasi: expr").xreplace(dict(zip(self.chart.u, self.u_in_v, strict=True)))
        )

    def to_natural(self, expr: object) -> sp.Expr:
        """Rewrite a function of ``(q, v)`` in ``(q, u)``: substitute ``v = Θ u``."""
        return canon(as_expr(expr, name="Frame.to_natural: expr").xreplace(dict(zip(self.v, self.v_in_u, strict=True))))

    # --------------------------------------------------- lifted frame (q, v)
    def apply_complete(self, i: int, f: object) -> sp.Expr:
        r"""``X_i^C(f)`` for ``f(q, v)``: ``X_i^j ∂f/∂q^j − R^j_ik v^k ∂f/∂v^j``."""
        i = _index(i, self.dim, "Frame.apply_complete: i")
        e = as_expr(f, name="Frame.apply_complete: f")
        R = self.anholonomy
        out = self.fields[i](e)
        n = self.dim
        for j in range(n):
            coeff = sp.Add(*[R[j, i, k] * self.v[k] for k in range(n) if R[j, i, k] != 0])
            if coeff != 0:
                out -= coeff * derivative(e, self.v[j])
        return out

    def apply_vertical(self, i: int, f: object) -> sp.Expr:
        r"""``X_i^V(f) = ∂f/∂v^i`` for ``f(q, v)``."""
        i = _index(i, self.dim, "Frame.apply_vertical: i")
        return derivative(as_expr(f, name="Frame.apply_vertical: f"), self.v[i])

    def complete_lift(self, i: int) -> TangentVectorField:
        r"""``X_i^C`` as a vector field on TQ in the frame coordinates ``(q, v)``."""
        i = _index(i, self.dim, "Frame.complete_lift: i")
        n = self.dim
        R = self.anholonomy
        fib = [-sp.Add(*[R[j, i, k] * self.v[k] for k in range(n)]) for j in range(n)]
        return TangentVectorField(self.chart, self.fields[i].components, fib, frame=self)

    def vertical_lift(self, i: int) -> TangentVectorField:
        r"""``X_i^V = ∂/∂v^i`` as a vector field on TQ in the frame coordinates."""
        i = _index(i, self.dim, "Frame.vertical_lift: i")
        fib = [1 if k == i else 0 for k in range(self.dim)]
        return TangentVectorField(self.chart, [0] * self.dim, fib, frame=self)

    def lifted(self) -> tuple[tuple[TangentVectorField, ...], tuple[TangentVectorField, ...]]:
        r"""The lifted frame ``({X_i^C}, {X_i^V})`` on TQ, in ``(q, v)`` coordinates."""
        return (
            tuple(self.complete_lift(i) for i in range(self.dim)),
            tuple(self.vertical_lift(i) for i in range(self.dim)),
        )

    # -------------------------------------------------------- change of frame
    def change(self, A: Any, v: str | Sequence[sp.Symbol] = "w") -> Frame:
        r"""The frame ``Y_i = A_i^j X_j`` (``A`` an invertible matrix of functions on Q)."""
        n = self.dim
        A = _change_matrix(self.chart, A, n, "Frame.change: A")
        Y = A * self.matrix
        _quasi_symbols(v, n, "Frame.change: v")
        try:
            return Frame([VectorField(self.chart, list(Y.row(i))) for i in range(n)], v=v)
        except SingularFrameError as exc:
            raise SingularFrameError(f"Frame.change: A: the matrix {A.tolist()} is singular ({exc})") from None

    def components_of(self, Z: VectorField) -> sp.ImmutableMatrix:
        """Frame components ``Z^i = θ^i(Z)`` of a vector field."""
        expect(Z, VectorField, name="Frame.components_of: Z")
        self.chart.require_same(Z.chart, "Frame.components_of: Z")
        return canon(self.coframe_matrix * Z.components)

    @classmethod
    def coordinate(cls, chart: Chart, v: str | Sequence[sp.Symbol] = "v") -> Frame:
        """The coordinate frame ``{∂/∂q^i}``."""
        expect(chart, Chart, name="Frame.coordinate: chart")
        return cls([VectorField.coordinate(chart, i) for i in range(chart.dim)], v=v)

    @classmethod
    def adapted(
        cls,
        distribution: Sequence[VectorField],
        complement: Sequence[VectorField] | None = None,
        v: str | Sequence[sp.Symbol] = "v",
    ) -> Frame:
        """An adapted frame: the given fields spanning D first, then a complement.

        When ``complement`` is omitted the frame is completed with coordinate
        fields ``∂/∂q^i``, chosen greedily in order so that the result is a frame.
        """
        return complete_frame(distribution, complement, v=v)


def anholonomy_after_change(frame: Frame, A: Any) -> sp.ImmutableDenseNDimArray:
    r"""Object of anholonomy of ``Y_i = A_i^p X_p`` computed from that of ``X``.

    ``[Y_i, Y_j] = A_i^p A_j^q R^r_pq X_r + (Y_i(A_j^r) − Y_j(A_i^r)) X_r``, hence
    ``R'^k_ij = Ā_r^k (A_i^p A_j^q R^r_pq + Y_i(A_j^r) − Y_j(A_i^r))`` where
    ``Ā = A^{-1}`` (``X_r = Ā_r^k Y_k``). Crampin–Mestdag, section 3.
    """
    expect(frame, Frame, name="anholonomy_after_change: frame")
    n = frame.dim
    A = _change_matrix(frame.chart, A, n, "anholonomy_after_change: A")
    if is_zero(A.det(method="bareiss")):
        raise SingularFrameError(f"anholonomy_after_change: A: the matrix {A.tolist()} is singular (determinant 0)")
    Ainv = A.inv(method="LU")
    R = frame.anholonomy
    Y = [
        sum(
            (A[i, p] * frame.fields[p] for p in range(n) if A[i, p] != 0),
            VectorField._raw(frame.chart, sp.zeros(n, 1).as_immutable()),
        )
        for i in range(n)
    ]
    out = sp.MutableDenseNDimArray.zeros(n, n, n)
    for i in range(n):
        for j in range(i + 1, n):
            c = [
                sp.Add(*[A[i, p] * A[j, qq] * R[r, p, qq] for p in range(n) for qq in range(n)])
                + Y[i](A[j, r])
                - Y[j](A[i, r])
                for r in range(n)
            ]
            for k in range(n):
                val = canon(sp.Add(*[c[r] * Ainv[r, k] for r in range(n)]))
                out[k, i, j] = val
                out[k, j, i] = -val
    return sp.ImmutableDenseNDimArray(out)


def complete_frame(
    distribution: Sequence[VectorField] | Any,
    complement: Sequence[VectorField] | None = None,
    v: Any = "v",
    *,
    at: Mapping[Any, Any] | None = None,
) -> Frame:
    """Build an adapted frame: spanning fields of D first, then the complement.

    With ``complement=None`` coordinate fields ``∂/∂q^i`` are appended greedily in order while
    they increase the rank. Such a frame can be singular at points where D is regular (the knife
    edge completed with ``∂/∂x`` is singular at φ = 0). Give ``at`` (coordinate symbol or name ->
    value) to append only coordinate fields that keep the frame regular at that point, or use
    :meth:`LinearConstraints.adapted_frame`: its complement (the constraint rows) completes any basis of D
    wherever that basis and the rows are independent, and its basis of D is chosen regular wherever the
    constraints are (or a :class:`~frames.errors.SingularFrameWarning` names its singular set).

    Raises
    ------
    SingularFrameError
        If no completion by coordinate fields is regular at ``at``.
    """
    # a Distribution (from frames.geometry) or a sequence of fields
    if isinstance(getattr(distribution, "fields", None), tuple):
        distribution = getattr(distribution, "fields")  # noqa: B009 - a Distribution (or a Frame)
    fields = _field_list(distribution, "complete_frame: distribution")
    if not fields:
        raise ConstraintError("complete_frame: distribution: no spanning fields for D")
    chart = fields[0].chart
    for k, X in enumerate(fields[1:], start=1):
        if X.chart.q != chart.q or X.chart.u != chart.u:
            raise ChartMismatchError(
                f"complete_frame: distribution[{k}]: field on {X.chart!r}, distribution[0] on {chart!r}"
            )
    n = chart.dim
    _quasi_symbols(v, n, "complete_frame: v")
    if complement is not None:
        comp = _field_list(complement, "complete_frame: complement")
        for k, Z in enumerate(comp):
            if Z.chart.q != chart.q:
                raise ChartMismatchError(f"complete_frame: complement[{k}]: field on {Z.chart!r}, D on {chart!r}")
        if len(fields) + len(comp) != n:
            raise SingularFrameError(
                f"complete_frame: complement: {len(fields)} fields for D plus {len(comp)} complement fields "
                f"!= dimension {n}"
            )
        try:
            return Frame(fields + comp, v=v)
        except SingularFrameError as exc:
            raise SingularFrameError(
                f"complete_frame: complement: D and the complement do not form a frame ({exc})"
            ) from None
    point: dict[sp.Symbol, Any] | None = None
    if at is not None:
        expect(at, Mapping, name="complete_frame: at", what="a mapping coordinate -> value")
        checked = {k: as_expr(x, name=f"complete_frame: at[{k}]") for k, x in at.items()}
        point = chart.coordinate_substitution(checked)
    if point is not None and not set(chart.q) <= set(point):
        missing = [str(x) for x in chart.q if x not in point]
        raise InvalidExpressionError(f"complete_frame: at: the point {dict(at or {})} gives no value for {missing}")
    rows = [list(X.components) for X in fields]

    def rank(M: list[list[Any]]) -> int:
        if point is None:
            return _rank(sp.Matrix(M))
        return int(sp.Matrix(M).xreplace(point).evalf().rank(iszerofunc=_numerically_zero))

    r = rank(rows)
    if point is not None and r < len(rows):
        raise SingularFrameError(f"complete_frame: distribution: the fields spanning D are dependent at {dict(point)}")
    for i in range(n):
        if r == n:
            break
        e = [1 if k == i else 0 for k in range(n)]
        r2 = rank([*rows, e])
        if r2 > r:
            rows.append(e)
            fields.append(VectorField.coordinate(chart, i))
            r = r2
    if r < n:
        raise SingularFrameError(
            f"complete_frame: distribution: no coordinate fields complete D to a frame regular at {dict(point or {})}"
        )
    return Frame(fields, v=v)
