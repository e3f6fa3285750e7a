r"""Linear constraints, distributions, the Frobenius test and adapted frames.

Constraints ``a^a_i(q) u^i = 0`` (rows of a matrix) define the distribution
``D = ker a``; alternatively D is given by spanning fields. An adapted frame has
its first ``m`` fields spanning D (Crampin–Mestdag, section 3).
"""

from __future__ import annotations

import functools
import sys
import warnings
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from types import FrameType
from typing import Any

import numpy as np
import sympy as sp
from sympy.matrices.utilities import dotprodsimp

from .._value import Record, Value
from ..algebra import derivative, expect, is_zero
from ..algebra.internal import canon, canonical_nullspace, lcm_as_sympy
from ..errors import ArgumentError, ConstraintError, SingularFrameWarning
from ._chart import Chart
from ._fields import VectorField
from ._frame import Frame, _field_list, _rank, complete_frame
from ._growth import BracketFlag, bracket_flag
from ._nilpotent import NilpotentApproximation, nilpotent_approximation
from ._regular import regular_basis

#: the warnings of this module point at the first caller outside the package
_PACKAGE_DIR = str(Path(__file__).resolve().parent.parent)

__all__ = ["AdaptedIndices", "Distribution", "FrobeniusResult", "LinearConstraints", "complete_frame"]


class FrobeniusResult(Record):
    """Outcome of the Frobenius test for a distribution.

    Attributes
    ----------
    integrable : bool
        True if every bracket of spanning fields lies in D.
    offending : tuple
        For a non-integrable D, ``(i, j, [X_i, X_j])`` for each pair whose bracket leaves D.
    """

    integrable: bool
    offending: tuple[tuple[int, int, VectorField], ...]

    def __post_init__(self) -> None:
        if not isinstance(self.integrable, bool):
            raise ArgumentError(f"FrobeniusResult: integrable: expected True or False, got {self.integrable!r}")
        off = self.offending
        if isinstance(off, str | bytes) or not isinstance(off, Sequence):
            raise ArgumentError(f"FrobeniusResult: offending: expected a sequence of (i, j, bracket), got {off!r}")
        for k, item in enumerate(off):
            if not (
                isinstance(item, tuple)
                and len(item) == 3
                and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in item[:2])
                and isinstance(item[2], VectorField)
            ):
                raise ArgumentError(
                    f"FrobeniusResult: offending[{k}]: expected (i, j, VectorField) with indices ≥ 0, got {item!r}"
                )
        if self.integrable == bool(off):
            raise ArgumentError(
                f"FrobeniusResult: offending: {len(off)} offending brackets contradict integrable={self.integrable}"
            )
        self.offending = tuple(off)

    def __str__(self) -> str:
        if self.integrable:
            return "D is integrable (holonomic constraints)"
        i, j, B = self.offending[0]
        return f"D is not integrable: [X{i + 1}, X{j + 1}] = {B!r} is not in D"

    def _repr_latex_(self) -> str:
        if self.integrable:
            return r"$\text{D is integrable}$"
        i, j, B = self.offending[0]
        return rf"$[X_{{{i + 1}}}, X_{{{j + 1}}}] = {B._repr_latex_().strip('$')} \notin D$"


class Distribution(Value):
    """A distribution D on Q spanned by ``m`` pointwise independent vector fields."""

    fields: tuple[VectorField, ...]

    def __init__(self, fields: Sequence[VectorField]) -> None:
        fields = tuple(_field_list(fields, "Distribution: fields"))
        if not fields:
            raise ConstraintError("Distribution: fields: no spanning fields given")
        for k, X in enumerate(fields):
            fields[0].chart.require_same(X.chart, f"Distribution: fields[{k}]")
        M = sp.Matrix([list(X.components) for X in fields])
        r = _rank(M)
        if r != len(fields):
            raise ConstraintError(
                f"Distribution: fields: the {len(fields)} spanning fields have rank {r}; they must be independent"
            )
        self.fields = fields

    @property
    def chart(self) -> Chart:
        """The chart of the spanning fields."""
        return self.fields[0].chart

    @property
    def rank(self) -> int:
        """m = dim D."""
        return len(self.fields)

    def contains(self, Z: VectorField) -> bool:
        """True if ``Z`` lies in D (exact rank test)."""
        expect(Z, VectorField, name="Distribution.contains: Z")
        self.chart.require_same(Z.chart, "Distribution.contains: Z")
        M = sp.Matrix([list(X.components) for X in self.fields] + [list(Z.components)])
        return _rank(M) == self.rank

    def frobenius(self) -> FrobeniusResult:
        """Frobenius test: which brackets of spanning fields leave D."""
        bad = []
        for i in range(self.rank):
            for j in range(i + 1, self.rank):
                B = self.fields[i].bracket(self.fields[j])
                if not self.contains(B):
                    bad.append((i, j, B))
        return FrobeniusResult(not bad, tuple(bad))

    def is_integrable(self) -> bool:
        """True if D is involutive (holonomic)."""
        return self.frobenius().integrable

    def adapted_frame(self, complement: Sequence[VectorField] | None = None, v: Any = "v") -> Frame:
        """Adapted frame: these fields, then ``complement`` (or coordinate fields)."""
        return complete_frame(self.fields, complement, v=v)

    def bracket_flag(self, point: Any = None, *, max_step: int | None = None) -> BracketFlag:
        """The flag ``D ⊂ D² ⊂ …`` generically, or at ``point`` (see :func:`frames.geometry.bracket_flag`)."""
        return bracket_flag(self.fields, point, max_step=max_step)

    def growth_vector(self, point: Any = None) -> tuple[int, ...]:
        """``(dim D^1, dim D^2, …)`` generically, or at ``point`` (a mapping ``{q: value}``)."""
        return self.bracket_flag(point).growth

    def nilpotent_approximation(
        self, point: Any, *, names: Any = "z", max_step: int | None = None
    ) -> NilpotentApproximation:
        """Privileged coordinates, weights and the nilpotent approximation at ``point`` (Bellaïche).

        Parameters
        ----------
        point : mapping
            ``{q: value}`` for every coordinate, exact values.
        names : str or sequence
            Prefix (default ``"z"``) or names of the privileged coordinates.
        max_step : int, optional
            Longest bracket tried at the point (default ``2 dim Q``).

        Returns
        -------
        NilpotentApproximation
            See :mod:`frames.geometry._nilpotent` (the algorithm); works at singular points too.

        Examples
        --------
        >>> import frames as fr
        >>> ch = fr.Chart("x y z")
        >>> x, y, z = ch.q
        >>> D = Distribution([fr.VectorField(ch, [1, 0, -y / 2]), fr.VectorField(ch, [0, 1, x / 2])])
        >>> D.nilpotent_approximation({x: 0, y: 0, z: 0}).weights
        (1, 1, 2)
        """
        return nilpotent_approximation(self.fields, point, names=names, max_step=max_step)

    def is_bracket_generating(self) -> bool:
        """True if the iterated brackets of D span TQ at generic points (Chow–Rashevskii)."""
        return self.bracket_flag().bracket_generating

    def __repr__(self) -> str:
        return "Distribution(" + ", ".join(repr(X) for X in self.fields) + ")"


class LinearConstraints(Value):
    r"""Constraints ``a^a_i(q) u^i = 0``, given by the rows ``a^a``.

    Parameters
    ----------
    chart : Chart
    rows : matrix or sequence of rows, or sequence of expressions linear in ``u``
        Either coefficient rows, or the constraint functions themselves (which
        must be linear and homogeneous in the velocities).
    """

    chart: Chart
    matrix: sp.ImmutableMatrix

    def __init__(self, chart: Chart, rows: Any) -> None:
        expect(chart, Chart, name="LinearConstraints: chart")
        n = chart.dim
        if isinstance(rows, sp.MatrixBase):
            rows_l: list[Any] = rows.tolist()
        elif isinstance(rows, np.ndarray):
            rows_l = rows.tolist()
        elif isinstance(rows, str | bytes | Mapping) or not isinstance(rows, Iterable):
            raise ArgumentError(
                "LinearConstraints: rows: expected a matrix, a sequence of coefficient rows or of constraint "
                f"expressions, got {type(rows).__name__} {rows!r}"
            )
        else:
            rows_l = list(rows)
        if not rows_l:
            raise ConstraintError("LinearConstraints: rows: no constraints given")
        mat = []
        for k, r in enumerate(rows_l):
            if isinstance(r, list | tuple | sp.MatrixBase | np.ndarray):
                r = list(r)
                if len(r) != n:
                    raise ConstraintError(f"LinearConstraints: rows[{k}] has {len(r)} entries, chart has dimension {n}")
                mat.append([chart.check_on_Q(c, f"LinearConstraints: rows[{k}][{j}]") for j, c in enumerate(r)])
            else:
                e = chart.check_on_TQ(r, f"LinearConstraints: rows[{k}]")
                coeffs = [derivative(e, ui) for ui in chart.u]
                resid = canon(e - sum((c * ui for c, ui in zip(coeffs, chart.u, strict=True)), sp.S.Zero))
                if not is_zero(resid) or any(c.free_symbols & set(chart.u) for c in coeffs):
                    raise ConstraintError(
                        f"LinearConstraints: rows[{k}]: the constraint {e} = 0 is not linear and homogeneous "
                        f"in the velocities {chart.u}"
                    )
                mat.append([chart.check_on_Q(c, f"LinearConstraints: rows[{k}]") for c in coeffs])
        M = canon(sp.Matrix(mat))
        r = _rank(M)
        if r != M.rows:
            raise ConstraintError(
                f"LinearConstraints: rows: the {M.rows} constraint rows have rank {r} (deficient); "
                "remove dependent rows"
            )
        if M.rows >= n:
            raise ConstraintError(
                f"LinearConstraints: rows: {M.rows} independent constraints on {n} velocities leave no motion"
            )
        self.chart = chart
        self.matrix = M

    @property
    def k(self) -> int:
        """Number of constraints ``n − m``."""
        return int(self.matrix.rows)

    @property
    def functions(self) -> tuple[sp.Expr, ...]:
        """The constraint functions ``a^a_i u^i``."""
        return tuple(canon((self.matrix.row(a) * sp.Matrix(self.chart.u))[0]) for a in range(self.k))

    def complement_fields(self) -> tuple[VectorField, ...]:
        r"""The constraint rows as vector fields, ``Z_a = a^a_j ∂/∂q^j``: a complement of D.

        They are Euclidean-orthogonal (in the coordinates) to D = ker a, so D ⊕ span(Z_a) = TQ
        wherever the rows are independent: ``[X_D; a][X_Dᵀ aᵀ] = diag(X_D X_Dᵀ, a aᵀ)``.
        """
        return tuple(VectorField(self.chart, list(self.matrix.row(a))) for a in range(self.k))

    def adapted_frame(self, complement: Sequence[VectorField] | None = None, v: Any = "v") -> Frame:
        """Adapted frame: a basis of D (:meth:`distribution`), then ``complement`` (default
        :meth:`complement_fields`).

        With the default complement ``det(F)² = det(X_D X_Dᵀ) det(A Aᵀ)``: the frame is regular wherever the
        constraint rows ``A`` are independent iff D's basis ``X_D`` is. :meth:`distribution` chooses a basis
        proved to be so when one of its candidates is, and otherwise warns (:class:`~frames.errors.SingularFrameWarning`)
        naming the singular set (then pass a frame of your own).

        >>> import frames as fr
        >>> mdl = fr.models.knife_edge()
        >>> F = mdl.constraints.adapted_frame()
        >>> fr.tidy(F.determinant)
        1
        """
        return complete_frame(self.distribution(), self.complement_fields() if complement is None else complement, v=v)

    def distribution(self) -> Distribution:
        r"""D = ker a, spanned by a basis regular wherever the constraints are, when one is found; computed once.

        The candidates (:mod:`frames.geometry._regular`): the null space basis (cleared of denominators), then for
        each choice ``S`` of ``k`` dependent columns with a minor ``M_S ≢ 0`` the Cramer basis
        ``X_β = M_S e_β − Σ_{s∈S} det(a_S, column s ← a_β) e_s``, each field divided by the gcd of its
        components, smallest first. The first proved regular is taken: ``det [X_D; a]`` is, up to factors of
        ``det(a aᵀ)``, free of the coordinates or a positive constant plus even powers (an exact test). When none
        is, the null space basis is kept and a :class:`~frames.errors.SingularFrameWarning` names its singular
        set and a point of it where the constraints are regular. Constraints outside the exact ring, or with
        more than eight coordinates, keep the null space basis untested.

        Examples
        --------
        A trailer hitched a distance ``b`` behind a car's axle: every straight configuration (``θ₁ = θ``)
        is regular for this basis, though a generic null space basis has rank 1 there.

        >>> import sympy as sp, frames as fr
        >>> ch = fr.Chart("x y theta theta1", params="b d")
        >>> x, y, th, t1 = ch.q
        >>> ux, uy, w, w1 = ch.u
        >>> b, d = ch.params
        >>> rows = [-sp.sin(th) * ux + sp.cos(th) * uy,
        ...         -sp.sin(t1) * ux + sp.cos(t1) * uy - b * sp.cos(th - t1) * w - d * w1]
        >>> D = fr.LinearConstraints(ch, rows).distribution()
        >>> fr.algebra.generic_rank(sp.Matrix([X.components.T for X in D.fields]).subs(t1, th))
        2
        """
        return self._distribution

    @cached_property
    def _distribution(self) -> Distribution:
        nullspace = [_clear_denominators(b) for b in _canonical_nullspace(self.matrix)]
        chosen = regular_basis(self.matrix, nullspace, self.chart.q, self.chart.params)
        if chosen.regular is False:
            warnings.warn(_singular_message(self, chosen), SingularFrameWarning, stacklevel=_outside_level())
        return Distribution([VectorField(self.chart, b) for b in chosen.fields])

    def __repr__(self) -> str:
        return "LinearConstraints(" + ", ".join(f"{f} = 0" for f in self.functions) + ")"

    def _repr_latex_(self) -> str:
        r"""The constraints ``a^a_i u^i = 0`` as a LaTeX ``aligned`` block.

        >>> import frames as fr
        >>> print(fr.models.nonholonomic_particle().constraints._repr_latex_())
        $\begin{aligned}q_{1} u_{2} + u_{3} &= 0\end{aligned}$
        """
        rows = [sp.latex(f) + " &= 0" for f in self.functions]
        return r"$\begin{aligned}" + r"\\ ".join(rows) + r"\end{aligned}$"


def _outside_level() -> int:
    """The ``stacklevel`` of a warning that points at the first caller outside the package (and functools)."""
    level = 2
    f: FrameType | None = sys._getframe(2)
    while f is not None and (
        f.f_code.co_filename.startswith(_PACKAGE_DIR) or f.f_code.co_filename == functools.__file__
    ):
        level, f = level + 1, f.f_back
    return level


def _singular_message(cons: LinearConstraints, chosen: Any) -> str:
    """The warning of a default basis of D not proved regular where the constraints are."""
    where = " = 0, ".join(str(f) for f in chosen.singular) + " = 0"
    at = ""
    if chosen.sample is not None:
        at = (
            f", for instance at {chosen.sample}, where the {cons.k} constraint rows are independent (D has rank "
            f"{cons.chart.dim - cons.k})"
        )
    return (
        f"{cons!r}: no basis of D among the null space and the Cramer bases was proved regular wherever the "
        f"constraints are; the default frame (D's null space basis, then the constraint rows) is singular where "
        f"{where}{at}. Give a frame of your own: NonholonomicSystem(L, frame, m), `frame:` in a system file, or "
        "a Distribution of fields regular there (with complement=)"
    )


def _canonical_nullspace(M: sp.MatrixBase) -> list[list[sp.Expr]]:
    """SymPy's null space basis of ``M`` (the zero test :func:`~frames.algebra.is_zero`, no intermediate
    simplification), each entry in :func:`canon`'s form: computed in the ring when it can be
    (:func:`~frames.algebra.internal.canonical_nullspace`, the same entries), else by SymPy."""
    fast = canonical_nullspace(M)
    if fast is not None:
        return fast
    with dotprodsimp(False):  # sympy's intermediate simplification: the zero test decides, canon writes
        basis = sp.Matrix(M).nullspace(iszerofunc=is_zero, simplify=False)
    return [[canon(x) for x in b] for b in basis]


def _cleared(b: list[sp.Expr]) -> list[sp.Expr]:
    """The vector ``b`` times the lcm of its entries' denominators, cancelled."""
    return _clear_denominators([canon(x) for x in b])


def _clear_denominators(b: list[sp.Expr]) -> list[sp.Expr]:
    """The vector ``b`` (entries in :func:`canon`'s form) times the lcm of its entries' denominators, cancelled."""
    den = lcm_as_sympy([sp.fraction(sp.together(x))[1] for x in b])
    return [canon(x * den) for x in b]


class AdaptedIndices:
    """Index ranges of an adapted frame whose first ``m`` fields span D.

    Mixed into the systems built on an adapted frame (nonholonomic, vakonomic,
    Chaplygin); they provide the attributes ``frame`` and ``m``.
    """

    frame: Frame
    m: int

    @property
    def n(self) -> int:
        """dim Q."""
        return self.frame.dim

    @property
    def alpha(self) -> range:
        """0-based indices ``α`` of the fields spanning D."""
        return range(self.m)

    @property
    def a(self) -> range:
        """0-based indices ``a`` of the complementary fields."""
        return range(self.m, self.n)

    @property
    def on_C(self) -> dict[sp.Symbol, sp.Expr]:
        """The substitution ``v^a = 0`` defining the constraint submanifold C."""
        return self.frame.on_constraint(self.m)
