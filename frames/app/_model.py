r"""The validated :class:`Model`: a mechanical system with linear constraints and its data.

The catalogue (``_models.py``), system files (``_sysfile.py``) and reports build and read it.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import sympy as sp
from sympy.core.function import UndefinedFunction

from ..algebra import is_zero
from ..dynamics._lagrangian import Lagrangian
from ..dynamics._nonholonomic import NonholonomicSystem
from ..errors import ChartMismatchError, ConstraintError, FramesError, InvalidExpressionError
from ..geometry._chart import Chart
from ..geometry._distribution import LinearConstraints
from ..geometry._frame import Frame

__all__ = ["Model"]


def _frozen_items(d: Mapping[Any, Any]) -> tuple[tuple[Any, Any], ...]:
    """A mapping as a hashable, order-independent tuple (nested mappings frozen too)."""
    return tuple(
        sorted(
            ((k, _frozen_items(v) if isinstance(v, Mapping) else v) for k, v in d.items()),
            key=lambda kv: sp.default_sort_key(sp.sympify(kv[0]) if not isinstance(kv[0], str) else kv[0]),
        )
    )


def _number(x: Any, values: Mapping[Any, Any]) -> float | None:
    """``x`` as a float after substituting parameter values; None when it is not numeric."""
    try:
        v = complex(sp.sympify(x).xreplace(dict(values)))
    except (TypeError, sp.SympifyError):
        return None
    return v.real if v.imag == 0 else None


@dataclass(frozen=True, eq=False)
class Model:
    """A mechanical system with linear constraints: the unit of the catalogue, system files and reports.

    Invariants, checked at construction (the library's own errors, naming the model and the part):
    the Lagrangian, frame and constraints live on ``chart``; ``0 < m < n`` is the rank of D; the
    ``n − m`` constraints annihilate the first ``m`` frame fields (they span D); ``params`` names
    parameter symbols of the chart and ``param_values`` gives finite numbers for some of them;
    ``q0``/``u0`` are keyed by coordinates/velocities and ``u0`` lies in D at ``q0`` (when all the
    numbers needed are known); ``group`` lists distinct transverse frame indices; the structure
    constants refer to group positions; the MVM data have the right lengths.

    Two models are equal when all their parts are equal (structural equality; hashable).

    Attributes
    ----------
    name : str
        Catalogue key, e.g. ``"two-wheeled-carriage"``.
    chart : Chart
    lagrangian : Lagrangian
    frame : Frame
        Adapted frame; its first ``m`` fields span D.
    m : int
        Rank of the constraint distribution D (the number of constraints is ``n − m``).
    constraints : LinearConstraints
        The constraints as printed in the source.
    params : dict
        Parameter name -> Symbol (or an undefined function ``B0`` for a parameter ``B0(t)``).
    q0, u0 : dict
        Default initial conditions (Symbol -> number), with ``u0`` in D.
    param_values : dict
        Default numerical parameter values (Symbol -> number).
    citation, notes : str
    group : tuple of int
        For Chaplygin systems: 0-based indices of the transverse frame fields that are the group
        generators ``Ẽ_a`` (empty otherwise).
    structure_constants : dict
        ``(a, b) -> {c: C^c_ab}`` (0-based frame indices of group fields) with
        ``[Ẽ_a, Ẽ_b] = -C^c_ab Ẽ_c`` (Chaplygin).
    auxiliary : tuple of expressions
        ``m`` auxiliary functions ``F^β(q, u)``, affine in the velocities, which with the constraints
        form a coframe, for the modified vakonomic method
        (``ModifiedVakonomic(L, constraints=model.mvm_constraints or ..., auxiliary=model.auxiliary)``).
    mvm_constraints : tuple of expressions
        The constraints in the form used by the MVM (empty: ``constraints.functions``).
    units : dict
        Parameter name -> unit string (set by system files).
    functions : dict
        Declared undefined functions of a system file: name -> argument names.
    symbols : dict
        Named expressions of the model used by tests and examples (class 7.1's ``deltas``, the
        skate's ``B0`` and ``I3``).
    """

    name: str
    chart: Chart
    lagrangian: Lagrangian
    frame: Frame
    m: int
    constraints: LinearConstraints
    params: dict[str, sp.Symbol]
    q0: dict[sp.Symbol, float] = field(default_factory=dict)
    u0: dict[sp.Symbol, float] = field(default_factory=dict)
    param_values: dict[sp.Symbol, float] = field(default_factory=dict)
    citation: str = ""
    group: tuple[int, ...] = ()
    notes: str = ""
    structure_constants: Mapping[tuple[int, int], Mapping[int, sp.Expr]] = field(default_factory=dict)
    auxiliary: tuple[sp.Expr, ...] = ()
    mvm_constraints: tuple[sp.Expr, ...] = ()
    units: Mapping[str, str] = field(default_factory=dict)
    functions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    symbols: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "group", tuple(self.group))
        object.__setattr__(self, "auxiliary", tuple(sp.sympify(a) for a in self.auxiliary))
        object.__setattr__(self, "mvm_constraints", tuple(sp.sympify(a) for a in self.mvm_constraints))
        self._check()

    # ------------------------------------------------------------------ invariants
    def _fail(self, part: str, reason: str, kind: type[FramesError] = InvalidExpressionError) -> FramesError:
        """An error naming the model and the part (also in its attribute ``part``)."""
        err = kind(f"Model {self.name!r}: {part}: {reason}")
        err.part = part  # type: ignore[attr-defined]
        return err

    def _check(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise InvalidExpressionError(f"Model: name {self.name!r} must be a non-empty string")
        ch = self.chart
        if not isinstance(ch, Chart):
            raise self._fail("chart", f"{ch!r} is not a Chart")
        for part, obj, cls in (
            ("lagrangian", self.lagrangian, Lagrangian),
            ("frame", self.frame, Frame),
            ("constraints", self.constraints, LinearConstraints),
        ):
            if not isinstance(obj, cls):
                raise self._fail(part, f"{obj!r} is not a {cls.__name__}")
            other = obj.chart
            if other.q != ch.q or (part != "frame" and other.u != ch.u):
                raise self._fail(part, f"lives on {other!r}, the model on {ch!r}", ChartMismatchError)
        n = ch.dim
        m = self.m
        if not isinstance(m, int) or isinstance(m, bool) or not 0 < m < n:
            raise self._fail("m", f"{m!r} must be an integer with 0 < m < n = {n} (the rank of D)", ConstraintError)
        if self.constraints.k != n - m:
            raise self._fail(
                "m",
                f"must equal n − (number of constraints) = {n} − {self.constraints.k} = {n - self.constraints.k}",
                ConstraintError,
            )
        A = self.constraints.matrix
        for al in range(m):
            vals = A * self.frame.matrix.row(al).T
            if not all(is_zero(x) for x in vals):
                raise self._fail(
                    f"frame[{al}]",
                    f"field X{al + 1} = {self.frame.fields[al]!r} violates the constraints (the first m = {m} must span D)",
                    ConstraintError,
                )
        if not isinstance(self.params, Mapping):
            raise self._fail("params", "must map names to parameter symbols")
        for pn, sym in self.params.items():
            time_function = isinstance(sym, UndefinedFunction) and ch.t is not None
            if not isinstance(pn, str) or not (sym in ch.params or time_function):
                raise self._fail(
                    "params",
                    f"{pn!r} -> {sym!r} is neither a parameter symbol of the chart {ch.params} "
                    "nor an undefined function of time (on a chart with time)",
                )
        declared = set(self.params.values())
        for sym, val in self.param_values.items():
            if sym not in declared:
                raise self._fail("param_values", f"{sym!r} is not a declared parameter {sorted(map(str, declared))}")
            num = _number(val, {})
            if num is None or not math.isfinite(num):
                raise self._fail("param_values", f"{sym} = {val!r} is not a finite real number")
        for part, vals, allowed in (("q0", self.q0, ch.q), ("u0", self.u0, ch.u)):
            for sym, val in vals.items():
                if sym not in allowed:
                    raise self._fail(part, f"{sym!r} is not one of {allowed}")
                num = _number(val, self.param_values)
                if num is not None and not math.isfinite(num):
                    raise self._fail(part, f"{sym} = {val!r} is not finite")
        self._check_u0_in_D()
        grp = self.group
        if len(set(grp)) != len(grp) or not all(isinstance(g, int) and not isinstance(g, bool) for g in grp):
            raise self._fail("group", f"{grp!r} must be distinct integers")
        for g in grp:
            if not m <= g < n:
                raise self._fail(
                    "group", f"index {g} (field X{g + 1}) must be a transverse frame field, m = {m} ≤ index < n = {n}"
                )
        for (a, b), row in self.structure_constants.items():
            for idx in (a, b, *row):
                if idx not in grp:
                    raise self._fail("structure_constants", f"index {idx} of ({a}, {b}) is not in the group {grp}")
        if self.auxiliary and len(self.auxiliary) != m:
            raise self._fail(
                "auxiliary", f"needs m = {m} functions (with the constraints they form a coframe)", ConstraintError
            )
        if self.mvm_constraints and len(self.mvm_constraints) != n - m:
            raise self._fail("mvm_constraints", f"needs n − m = {n - m} constraints", ConstraintError)

    def _check_u0_in_D(self) -> None:
        if not self.u0:
            return
        ch = self.chart
        point = {q: self.q0.get(q, 0.0) for q in ch.q} | dict(self.param_values)
        u = [_number(self.u0.get(s, 0.0), self.param_values) for s in ch.u]
        if any(x is None for x in u):
            return
        scale = max(1.0, *(abs(x) for x in u if x is not None))
        for a, f in enumerate(self.constraints.matrix.tolist()):
            coeffs = [_number(c, point) for c in f]
            if any(c is None for c in coeffs):
                return  # a parameter without a value: nothing to check numerically
            res = math.fsum(float(c) * float(x) for c, x in zip(coeffs, u, strict=True))  # type: ignore[arg-type]
            if abs(res) > 1e-9 * scale:
                raise self._fail(
                    "u0",
                    f"violates constraint {a + 1} at q0 (residual {res:.3g}); u0 must lie in D",
                    ConstraintError,
                )

    # ------------------------------------------------------------------ equality
    def _key(self) -> tuple[Any, ...]:
        return (
            self.name,
            self.chart,
            self.lagrangian,
            self.frame,
            self.m,
            self.constraints,
            _frozen_items(self.params),
            _frozen_items(self.q0),
            _frozen_items(self.u0),
            _frozen_items(self.param_values),
            self.citation,
            self.group,
            self.notes,
            _frozen_items(self.structure_constants),
            self.auxiliary,
            self.mvm_constraints,
            _frozen_items(self.units),
            _frozen_items(self.functions),
            _frozen_items({k: tuple(v) if isinstance(v, list) else v for k, v in self.symbols.items()}),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Model):
            return NotImplemented
        return self is other or self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    @property
    def extras(self) -> Mapping[str, Any]:
        """Deprecated: the old string-keyed view of the typed parts (``structure_constants``, ``auxiliary`` …)."""
        warnings.warn(
            "Model.extras is deprecated; use the typed fields structure_constants, auxiliary, "
            "mvm_constraints, units, functions and symbols",
            DeprecationWarning,
            stacklevel=2,
        )
        out: dict[str, Any] = dict(self.symbols)
        if self.structure_constants or self.group:
            out["structure_constants"] = dict(self.structure_constants)
        if self.auxiliary:
            out["auxiliary"] = self.auxiliary
        if self.mvm_constraints:
            out["mvm_constraints"] = self.mvm_constraints
        if self.units:
            out["units"] = dict(self.units)
        if self.functions:
            out["functions"] = dict(self.functions)
        return MappingProxyType(out)

    @property
    def n(self) -> int:
        """dim Q."""
        return self.chart.dim

    def nonholonomic(self) -> NonholonomicSystem:
        """The nonholonomic system in the model's adapted frame."""
        return NonholonomicSystem(self.lagrangian, self.frame, self.m)

    @property
    def is_chaplygin(self) -> bool:
        """True if the model declares group generators (a Chaplygin system)."""
        return bool(self.group)

    def __repr__(self) -> str:
        return f"Model({self.name!r}, q={self.chart.q}, m={self.m}, params={list(self.params)})"

    def _repr_latex_(self) -> str:
        r"""LaTeX display for Jupyter: coordinates, Lagrangian and constraints.

        >>> from frames.models import nonholonomic_particle
        >>> print(nonholonomic_particle()._repr_latex_())
        $\begin{aligned}q &= \left(q_{1}, q_{2}, q_{3}\right)\\ L &= \frac{u_{1}^{2}}{2} + \frac{u_{2}^{2}}{2} + \frac{u_{3}^{2}}{2}\\ 0 &= q_{1} u_{2} + u_{3}\end{aligned}$
        """
        rows = [r"q &= \left(" + ", ".join(sp.latex(s) for s in self.chart.q) + r"\right)"]
        rows.append("L &= " + sp.latex(self.lagrangian.expr))
        rows += ["0 &= " + sp.latex(f) for f in self.constraints.functions]
        return r"$\begin{aligned}" + r"\\ ".join(rows) + r"\end{aligned}$"
