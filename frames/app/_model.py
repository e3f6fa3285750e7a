r"""The validated :class:`Model`: a mechanical system with linear constraints and its data.

The catalogue (``_models.py``), system files (``_sysfile.py``) and reports build and read it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import field
from functools import cached_property, partial
from typing import Any, ClassVar

import sympy as sp
from sympy.core.function import UndefinedFunction

from .._value import Value
from ..algebra import is_zero
from ..dynamics import Lagrangian, NonholonomicSystem, load_one_form
from ..dynamics.internal import Load
from ..errors import (
    ChartMismatchError,
    ConstraintError,
    FramesError,
    InconsistentInitialDataError,
    InvalidExpressionError,
    ParameterError,
    StateError,
)
from ..geometry import Chart, Frame, LinearConstraints
from ._to_mechanics import to_mechanics

__all__ = ["MAX_UNIT_LENGTH", "Model", "unit_label_error"]

#: The longest unit label (``[units]``, ``parameters.*.unit``, ``Model(units=...)``).
MAX_UNIT_LENGTH = 40

#: relative tolerance of the numerical check that ``u0`` lies in D at ``q0``
U0_TOLERANCE = 1e-9


def _frozen_items(d: Mapping[Any, Any]) -> tuple[tuple[Any, Any], ...]:
    """A mapping as a hashable, order-independent tuple (nested mappings frozen too)."""
    return tuple(
        sorted(
            ((k, _frozen_items(v) if isinstance(v, Mapping) else v) for k, v in d.items()),
            key=lambda kv: sp.default_sort_key(sp.sympify(kv[0], strict=True) if not isinstance(kv[0], str) else kv[0]),
        )
    )


def _number(x: Any, values: Mapping[Any, Any]) -> float | None:
    """``x`` as a float after substituting ``values``.

    None when it is no expression or still depends on symbols or undefined functions (nothing to check
    numerically); NaN when it is a number but not a real one.
    """
    try:
        e = sp.sympify(sp.sympify(x, strict=True).xreplace(dict(values)), strict=True)  # a value may be a float
    except (TypeError, sp.SympifyError):
        return None
    if not isinstance(e, sp.Expr) or e.free_symbols:
        return None
    try:
        v = complex(e)
    except (TypeError, ValueError):
        return None
    return v.real if v.imag == 0 else math.nan


#: a unit label: atoms (a unit name, a number, ``°``, ``%``) with optional exponents (``^2``, ``^-1``, ``²``),
#: separated by spaces, ``*``, ``·`` or ``/``, with balanced parentheses; never parsed beyond this check
_UNIT_TOKEN = re.compile(r"(?:[^\W\d_]+|°|%|\d+(?:\.\d+)?)(?:\^[-+]?\d+(?:/\d+)?|⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)?")
_UNIT_SEP = re.compile(r"\s*[*·/]\s*|\s+")
#: known labels of one dimension: label -> (dimension, scale to SI)
_KNOWN_UNITS = {
    "m": ("L", 1.0), "km": ("L", 1e3), "cm": ("L", 1e-2), "mm": ("L", 1e-3), "µm": ("L", 1e-6), "μm": ("L", 1e-6),
    "rad": ("A", 1.0), "deg": ("A", math.pi / 180), "°": ("A", math.pi / 180),
    "s": ("T", 1.0), "ms": ("T", 1e-3), "min": ("T", 60.0), "h": ("T", 3600.0),
}  # fmt: skip


def unit_label_error(unit: object) -> str | None:
    """Why ``unit`` is not a unit label, or None: a short printable string of unit names, numbers and exponents
    separated by spaces, ``*``, ``·`` or ``/`` (``"kg m^2"``, ``"m/s"``, ``"rad s^-1"``, ``"N·m"``)."""
    if not isinstance(unit, str):
        return f'must be a string (a unit label such as "m" or "kg m^2"), got {type(unit).__name__}'
    if not unit.strip() or len(unit) > MAX_UNIT_LENGTH:
        return f"{unit!r:.60}: a unit is a non-empty label of at most {MAX_UNIT_LENGTH} characters"
    if not unit.isprintable():
        return f"{unit!r:.60}: a unit is one line of printable characters"
    depth, flat = 0, []
    for ch in unit:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            break
        flat.append(" " if ch in "()" else ch)
    tokens = _UNIT_SEP.split("".join(flat).strip())
    if depth != 0 or not all(_UNIT_TOKEN.fullmatch(t) for t in tokens):
        return (
            f"{unit!r:.60}: not a unit label; use unit names, numbers and exponents separated by spaces, *, · or / "
            '(e.g. "kg m^2", "m/s", "rad s^-1")'
        )
    return None


def _velocity_unit_error(name: str, vel: str, coord: str, time: str) -> str | None:
    """Why the velocity label ``vel`` contradicts ``coord`` per ``time`` (known SI-style labels only), or None."""
    num, sep, den = vel.partition("/")
    known = _KNOWN_UNITS
    if not sep or any(x.strip() not in known for x in (num, den)) or coord not in known or time not in known:
        return None
    (dn, sn), (dd, sd), (dq, sq), (dt, st) = (known[x.strip()] for x in (num, den, coord, time))
    if dd != "T" or dt != "T" or dn != dq or not math.isclose(sn / sd, sq / st, rel_tol=1e-12):
        return f"the velocity {name} is in {vel!r} but its coordinate is in {coord!r} and time in {time!r} (expected {coord}/{time})"
    return None


def _is_index(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


class Model(Value):
    """A mechanical system with linear constraints: the unit of the catalogue, system files and reports.

    Invariants, checked at construction with cheap exact tests (no ``simplify``); a violation raises
    the library's own error (a :class:`~frames.FramesError`), whose message names the model, the part
    and the reason (the part is also the error's attribute ``part``):

    * the Lagrangian, frame and constraints live on ``chart`` (same q, u and t):
      :class:`~frames.errors.ChartMismatchError`;
    * ``m`` is an int with ``0 < m < n`` (there is at least one constraint), the constraints have
      ``n − m`` rows and annihilate the first ``m`` frame fields, which therefore span D
      (:func:`frames.algebra.is_zero`): :class:`~frames.errors.ConstraintError`;
    * ``params`` maps each name to the chart's parameter symbol of that name (or, on a chart with
      time, to an undefined function of that name); the keys of ``param_values`` are declared
      parameters and its values finite real numbers: :class:`~frames.errors.ParameterError`;
    * the keys of ``q0`` are coordinates and those of ``u0`` velocities, the values finite:
      :class:`~frames.errors.StateError`; ``u0`` lies in D at ``q0`` (missing entries are 0, as the
      ``frames`` command uses them) within a relative ``1e-9`` whenever the constraint
      coefficients are numbers there: :class:`~frames.errors.InconsistentInitialDataError`;
    * ``group`` lists distinct transverse frame indices (``m ≤ index < n``), the indices of
      ``structure_constants`` are group indices: :class:`~frames.errors.InvalidExpressionError`;
    * ``auxiliary`` (when given) has ``m`` functions and ``mvm_constraints`` (when given) ``n − m``,
      so that together they form the ``n`` quasi-velocities of the MVM; ``deltas`` (when given) has
      ``n − m`` entries: :class:`~frames.errors.ConstraintError`; these expressions and ``symbols`` are
      sympy expressions on the chart: :class:`~frames.errors.InvalidExpressionError`.

    Two models are equal when all their parts are equal (mappings compared as sorted items, sympy
    objects structurally), and equal models have equal hashes.

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
        Default initial conditions (Symbol -> number, or an expression in the parameters), with
        ``u0`` in D.
    param_values : dict
        Default numerical parameter values (Symbol -> number).
    citation, notes : str
    group : tuple of int
        For Chaplygin systems: 0-based indices of the transverse frame fields that are the group
        generators ``Ẽ_a`` (empty otherwise).
    structure_constants : mapping
        ``(a, b) -> {c: C^c_ab}`` (0-based frame indices of group fields) with
        ``[Ẽ_a, Ẽ_b] = -C^c_ab Ẽ_c`` (Chaplygin).
    auxiliary : tuple of expressions
        ``m`` auxiliary functions ``F^β(q, u)``, affine in the velocities, which with the constraints
        form a coframe, for the modified vakonomic method
        (``ModifiedVakonomic(L, constraints=model.mvm_constraints or ..., auxiliary=model.auxiliary)``).
    mvm_constraints : tuple of expressions
        The constraints in the form used by the MVM (empty: ``constraints.functions``).
    units : mapping
        Name -> unit string, for parameters, coordinates, velocities and time (set by system files: the
        ``[units]`` table and ``parameters.*.unit``); labels only, never parsed. Plots put them on their
        axes (a velocity without its own unit gets ``coordinate unit / time unit``).
    functions : mapping
        Declared undefined functions of a system file: name -> argument names.
    deltas : tuple of expressions
        The functions ``Δ_a(q1)`` of the [CM] section 7.1 class (constraints
        ``u_a + Δ_a(q1) u2 = 0``), one per constraint; empty for other models.
    symbols : mapping
        Named expressions of the model used by tests and examples (the skate's ``B0`` and ``I3``).
    plane : tuple of str
        The coordinates ``(x, y)`` of a planar vehicle's position, for the path panel of plots (empty:
        coordinates named ``x`` and ``y``, ``X`` and ``Y`` or ``x_G`` and ``y_G`` are found by name).
    forces : tuple of Expr
        The components ``F_i(q, u, t)`` of a force one-form ``F = F_i dq^i`` (empty: no forces); the
        nonholonomic system of the model takes them (:class:`~frames.NonholonomicSystem`).
    loads : tuple of PointForce or BodyTorque
        Loads as a SymPy user writes them (a system file's ``[[loads]]``); their one-form is added to
        ``forces`` in :meth:`nonholonomic` (:attr:`force_form`). Their symbols are checked on the chart:
        :class:`~frames.errors.InvalidExpressionError`.
    inputs : tuple of str
        Names of parameters of the forces that are inputs (a torque ``τ``), for ``frames linearize`` and the
        stability section: :class:`~frames.errors.ParameterError` if one is not a parameter of the forces.
    operating_point : mapping
        Coordinate, velocity or input symbol -> value (a number or an expression in the parameters): the point
        ``frames linearize`` and the stability section linearise about. When every coordinate and velocity is
        given the velocities must lie in D there (exactly): :class:`~frames.errors.ConstraintError`.
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
    deltas: tuple[sp.Expr, ...] = ()
    symbols: Mapping[str, sp.Expr] = field(default_factory=dict)
    forces: tuple[sp.Expr, ...] = ()
    plane: tuple[str, ...] = ()
    loads: tuple[Load, ...] = ()
    inputs: tuple[str, ...] = ()
    operating_point: Mapping[sp.Symbol, sp.Expr] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._normalise()
        self._check()

    def _normalise(self) -> None:
        """Own copies of the mutable parts (a model never aliases its caller's dicts); tuples for sequences."""
        put = partial(setattr, self)
        for part in ("params", "q0", "u0", "param_values", "units", "operating_point"):
            val = getattr(self, part)
            if not isinstance(val, Mapping):
                raise self._fail(part, f"{val!r} must be a mapping", self._KIND.get(part, InvalidExpressionError))
            put(part, dict(val))
        sc = self.structure_constants
        if not isinstance(sc, Mapping) or not all(isinstance(row, Mapping) for row in sc.values()):
            raise self._fail("structure_constants", "must map pairs (a, b) to mappings {c: C^c_ab}")
        put("structure_constants", {k: dict(row) for k, row in sc.items()})
        funcs = self.functions
        if not isinstance(funcs, Mapping) or not all(
            isinstance(fn, str) and isinstance(args, Iterable) and not isinstance(args, str)
            for fn, args in funcs.items()
        ):
            raise self._fail("functions", f"{funcs!r} must map function names to sequences of argument names")
        put("functions", {fn: tuple(args) for fn, args in funcs.items()})
        if not all(isinstance(a, str) for args in self.functions.values() for a in args):
            raise self._fail("functions", f"{funcs!r}: the argument names must be strings")
        if not isinstance(self.symbols, Mapping):
            raise self._fail("symbols", "must map names to expressions")
        put("symbols", dict(self.symbols))
        for part in ("group", "auxiliary", "mvm_constraints", "deltas", "plane", "loads", "inputs"):
            val = getattr(self, part)
            if isinstance(val, str | Mapping) or not isinstance(val, Iterable):
                raise self._fail(part, f"{val!r} must be a sequence")
            put(part, tuple(val))

    # ------------------------------------------------------------------ invariants
    #: the error class of each part's invariants (InvalidExpressionError otherwise)
    _KIND: ClassVar[dict[str, type[FramesError]]] = {
        "params": ParameterError,
        "param_values": ParameterError,
        "units": ParameterError,
        "q0": StateError,
        "u0": StateError,
        "inputs": ParameterError,
        "operating_point": StateError,
    }

    def _fail(self, part: str, reason: str, kind: type[FramesError] = InvalidExpressionError) -> FramesError:
        """An error naming the model and the part (also in its attribute ``part``)."""
        err = kind(f"Model {self.name!r}: {part}: {reason}")
        err.part = part  # type: ignore[attr-defined]
        return err

    def _check(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise InvalidExpressionError(f"Model: name {self.name!r} must be a non-empty string")
        for part in ("citation", "notes"):
            if not isinstance(getattr(self, part), str):
                raise self._fail(part, "must be a string")
        self._check_charts()
        self._check_rank()
        self._check_params()
        self._check_initial_data()
        self._check_group()
        self._check_plane()
        self._check_expressions()
        self._check_loads()
        self._check_operating_point()

    def _check_charts(self) -> None:
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
            if other.q != ch.q or other.u != ch.u or other.t != ch.t:
                raise self._fail(part, f"lives on {other!r}, the model on {ch!r}", ChartMismatchError)

    def _check_rank(self) -> None:
        n, m, k = self.chart.dim, self.m, self.constraints.k
        if not _is_index(m) or not 0 < m < n:
            raise self._fail(
                "m",
                f"{m!r} must be an integer with 0 < m < n = {n} (the rank of D; one constraint at least)",
                ConstraintError,
            )
        if k != n - m:
            raise self._fail("m", f"must equal n − (number of constraints) = {n} − {k} = {n - k}", ConstraintError)
        A = self.constraints.matrix
        Th = self.frame.given_coframe  # dual to the frame (by construction or checked): θ^i(X_α) = δ^i_α
        if Th is not None and Th[m:, :] == A:
            return  # the constraints are the coframe's last k rows: they vanish on X_1 … X_m
        for al in range(m):
            vals = A * self.frame.matrix.row(al).T
            if not all(is_zero(x) for x in vals):
                raise self._fail(
                    f"frame[{al}]",
                    f"field X{al + 1} = {self.frame.fields[al]!r} violates the constraints (the first m = {m} must span D)",
                    ConstraintError,
                )

    def _check_params(self) -> None:
        ch = self.chart
        for pn, sym in self.params.items():
            time_function = isinstance(sym, UndefinedFunction) and ch.t is not None
            if not isinstance(pn, str) or not (sym in ch.params or time_function):
                raise self._fail(
                    "params",
                    f"{pn!r} -> {sym!r} is neither a parameter symbol of the chart {ch.params} "
                    "nor an undefined function of time (on a chart with time)",
                    ParameterError,
                )
            if getattr(sym, "name", getattr(sym, "__name__", None)) != pn:
                raise self._fail("params", f"the name {pn!r} is given to the parameter {sym}", ParameterError)
        named = {s.name for s in (*ch.q, *ch.u)} | {ch.t.name if ch.t is not None else "t"}
        for pn, unit in self.units.items():
            if (pn not in self.params and pn not in named) or not isinstance(unit, str):
                raise self._fail(
                    "units",
                    f"{pn!r} -> {unit!r} is not a unit string of a declared parameter, coordinate, velocity or time",
                    ParameterError,
                )
        for pn, unit in self.units.items():
            why = unit_label_error(unit)
            if why is not None:
                raise self._fail("units", f"{pn}: {why}", ParameterError)
        tname = ch.t.name if ch.t is not None else "t"
        for q, u in zip(ch.q, ch.u, strict=True):
            if u.name in self.units and q.name in self.units and tname in self.units:
                why = _velocity_unit_error(u.name, self.units[u.name], self.units[q.name], self.units[tname])
                if why is not None:
                    raise self._fail("units", why, ParameterError)
        declared = set(self.params.values())
        for sym, val in self.param_values.items():
            if sym not in declared:
                raise self._fail(
                    "param_values", f"{sym!r} is not a declared parameter {sorted(map(str, declared))}", ParameterError
                )
            num = _number(val, {})
            if num is None or not math.isfinite(num):
                raise self._fail("param_values", f"{sym} = {val!r} is not a finite real number", ParameterError)

    def _parameter_expr(self, part: str, sym: sp.Symbol, val: Any) -> sp.Expr:
        """``val`` as an expression in the parameters (a number or an expression), else a :class:`StateError`
        naming ``part`` and ``sym``: the one check of the values of initial data and operating points."""
        try:
            e = sp.sympify(val, strict=True)
        except (sp.SympifyError, TypeError):
            e = None
        if not isinstance(e, sp.Expr) or not e.free_symbols <= set(self.chart.params):
            raise self._fail(
                part, f"{sym} = {val!r} is neither a number nor an expression in the parameters", StateError
            )
        return e

    def _check_initial_data(self) -> None:
        ch = self.chart
        for part, vals, allowed, what in (("q0", self.q0, ch.q, "coordinates"), ("u0", self.u0, ch.u, "velocities")):
            for sym, val in vals.items():
                if sym not in allowed:
                    raise self._fail(part, f"{sym!r} is not one of the {what} {allowed}", StateError)
                e = self._parameter_expr(part, sym, val)
                num = _number(e, self.param_values)
                if num is not None and not math.isfinite(num):
                    raise self._fail(part, f"{sym} = {val!r} is not finite", StateError)
        if not self.u0:
            return
        point = {q: self.q0.get(q, 0.0) for q in ch.q} | dict(self.param_values)
        if ch.t is not None:
            point[ch.t] = 0.0
        u = [_number(self.u0.get(s, 0.0), self.param_values) for s in ch.u]
        if any(x is None for x in u):
            return  # u0 written with a parameter that has no value
        scale = max(1.0, *(abs(x) for x in u if x is not None))
        for a, row in enumerate(self.constraints.matrix.tolist()):
            coeffs = [_number(c, point) for c in row]
            if any(c is None for c in coeffs):
                continue  # a parameter without a value, or an undefined function: nothing to check numerically
            res = math.fsum(float(c) * float(x) for c, x in zip(coeffs, u, strict=True))  # type: ignore[arg-type]
            if abs(res) > U0_TOLERANCE * scale:
                raise self._fail(
                    "u0",
                    f"violates constraint {a + 1} at q0 (residual {res:.3g}); u0 must lie in D",
                    InconsistentInitialDataError,
                )

    def _check_plane(self) -> None:
        names = [s.name for s in self.chart.q]
        pl = self.plane
        if pl and (len(pl) != 2 or pl[0] == pl[1] or not all(isinstance(c, str) and c in names for c in pl)):
            raise self._fail("plane", f"{pl!r} must be two distinct coordinate names of {names} (x, then y)")

    def _check_group(self) -> None:
        n, m, grp = self.chart.dim, self.m, self.group
        if not all(_is_index(g) for g in grp) or len(set(grp)) != len(grp):
            raise self._fail("group", f"{grp!r} must be distinct integers")
        for g in grp:
            if not m <= g < n:
                raise self._fail(
                    "group", f"index {g} (field X{g + 1}) must be a transverse frame field, m = {m} ≤ index < n = {n}"
                )
        for pair, row in self.structure_constants.items():
            if not (isinstance(pair, tuple) and len(pair) == 2):
                raise self._fail("structure_constants", f"key {pair!r} must be a pair (a, b) of group indices")
            for idx in (*pair, *row):
                if not _is_index(idx) or idx not in grp:
                    raise self._fail("structure_constants", f"index {idx!r} of {pair} is not in the group {grp}")

    def _check_expressions(self) -> None:
        n, m = self.chart.dim, self.m
        for part, count in (("auxiliary", m), ("mvm_constraints", n - m), ("deltas", n - m), ("forces", n)):
            exprs = getattr(self, part)
            if exprs and len(exprs) != count:
                what = "m" if count == m else "n − m"
                raise self._fail(part, f"needs {what} = {count} expressions, got {len(exprs)}", ConstraintError)
            setattr(self, part, tuple(self._on_chart(part, i, e) for i, e in enumerate(exprs)))
        sc = {
            (a, b): {c: self._on_chart("structure_constants", (a, b, c), val) for c, val in row.items()}
            for (a, b), row in self.structure_constants.items()
        }
        self.structure_constants = sc
        for key in self.symbols:
            if not isinstance(key, str):
                raise self._fail("symbols", f"key {key!r} must be a string")
        syms = {key: self._on_chart("symbols", key, val) for key, val in self.symbols.items()}
        self.symbols = syms

    def _on_chart(self, part: str, where: object, expr: object) -> sp.Expr:
        """``expr`` as a sympy expression on the chart (q, u, t and parameters), or an error naming the part."""
        try:
            return self.chart.check_on_TQ(expr, f"{part}[{where!r}]")
        except InvalidExpressionError as exc:
            raise self._fail(part, str(exc)) from None

    def _check_loads(self) -> None:
        for k, ld in enumerate(self.loads):
            if not isinstance(ld, Load):
                raise self._fail("loads", f"loads[{k}]: {ld!r:.60} is not a PointForce or a BodyTorque")
        try:
            load_one_form(self.chart, self.loads, "loads")
        except InvalidExpressionError as exc:
            raise self._fail("loads", str(exc)) from None
        force_syms = set().union(*(sp.sympify(f, strict=True).free_symbols for f in self.force_form or ()))
        for k, w in enumerate(self.inputs):
            if not isinstance(w, str) or w not in self.params:
                raise self._fail(
                    "inputs",
                    f"inputs[{k}]: {w!r} is not a parameter (parameters: {sorted(self.params)})",
                    ParameterError,
                )
            if self.params[w] not in force_syms:
                raise self._fail(
                    "inputs", f"inputs[{k}]: the parameter {w!r} does not enter the forces or loads", ParameterError
                )
        if len(set(self.inputs)) != len(self.inputs):
            raise self._fail("inputs", f"{list(self.inputs)} repeats an input", ParameterError)

    def _check_operating_point(self) -> None:
        ch = self.chart
        allowed = {*ch.q, *ch.u, *(self.params[w] for w in self.inputs)}
        op: dict[sp.Symbol, sp.Expr] = {}
        for sym, val in self.operating_point.items():
            if sym not in allowed:
                raise self._fail(
                    "operating_point",
                    f"{sym!r} is neither a coordinate, a velocity nor an input {sorted(map(str, allowed))}",
                    StateError,
                )
            e = self._parameter_expr("operating_point", sym, val)
            op[sym] = e
        self.operating_point = op
        if not all(s in op for s in (*ch.q, *ch.u)):
            return
        for a, row in enumerate(self.constraints.matrix.tolist()):
            res = sp.Add(*[c * op[u] for c, u in zip(row, ch.u, strict=True)]).xreplace({q: op[q] for q in ch.q})
            if not is_zero(res):
                raise self._fail(
                    "operating_point",
                    f"the velocities are not in D there: constraint {a + 1} is {res} ≠ 0 (an operating point lies on C)",
                    ConstraintError,
                )

    @property
    def force_form(self) -> tuple[sp.Expr, ...] | None:
        """The force one-form of the model: ``forces`` plus the loads' one-form (None without either)."""
        if not self.loads:
            return self.forces or None
        total = load_one_form(self.chart, self.loads, f"Model {self.name!r}: loads")
        return tuple(a + b for a, b in zip(total, self.forces, strict=True)) if self.forces else total

    @property
    def n(self) -> int:
        """dim Q."""
        return self.chart.dim

    def nonholonomic(self) -> NonholonomicSystem:
        """The nonholonomic system in the model's adapted frame (one object per model, so that every user of
        the model, a report's sections and :meth:`frames.ChaplyginSystem.from_model`, shares its results)."""
        return self._nonholonomic

    @cached_property
    def _nonholonomic(self) -> NonholonomicSystem:
        return NonholonomicSystem(self.lagrangian, self.frame, self.m, forces=self.force_form)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the shared nonholonomic system (its caches hold sympy rings; it is rebuilt on use)."""
        state = dict(self.__dict__)
        state.pop("_nonholonomic", None)
        return state

    def to_mechanics(self, kind: str = "lagrange") -> Any:
        """The model as a sympy ``LagrangesMethod`` (``kind="lagrange"``) or ``KanesMethod`` (``"kane"``).

        See :mod:`frames.app._to_mechanics` for both constructions.
        """
        return to_mechanics(self, kind)

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
