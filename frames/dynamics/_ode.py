r"""The symbolic first-order system :class:`OdeSystem` and the builders that make one from a method.

Everything numeric in :mod:`frames` goes through one small interface, the symbolic first-order system

.. math::  \dot y = f(t, y; p),

given by its state symbols ``y``, right-hand sides ``f`` (sympy expressions), parameter symbols ``p``,
the map from natural initial data ``(q, u)`` (and extra initial data such as vakonomic multipliers
``μ``) to the state, the observables to record along the motion (``q``, ``u``, ``v``, energy,
multipliers, ...) and, optionally, the linear constraints ``A(q) u = 0`` and a *guard* expression that
vanishes where the system is singular. It lives in the dynamics layer so that every method can return
its own (``method.ode_system()``); the numeric layer only compiles and integrates it.

:func:`frames.ode_system` is the one door: a :class:`~frames.SecondOrderField` (two forms, below), or a
dynamics method (its ``ode_system(**options)``, the method protocol). The builders of this module are
private: the methods' ``ode_system()`` call them.

``form="reduced"`` (default for fields on C)
    the state is ``(q, v^α)``, α = 1..m, with ``q̇ = v^α X_α(q)`` and ``v̇^α = Γ^α`` (Crampin–Mestdag,
    Proposition 2). The natural velocities ``u = v^α X_α`` lie in ``D`` for every state, so the
    constraints ``θ^a(u) = 0`` hold to rounding *by construction*.
``form="multiplier"`` (alias ``"natural"``)
    the state is ``(q, u)`` with ``q̈ = accelerations()``, the classical natural-coordinate form
    (multipliers eliminated); the constraints are only preserved up to the integrator's truncation error.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field
from typing import Any, Protocol, runtime_checkable

import sympy as sp

from .._value import Value
from ..algebra import expect, hessian
from ..algebra.internal import as_expr, as_exprs, as_int, as_subs
from ..errors import ArgumentError, FramesError, InvalidExpressionError
from ..geometry import Chart, Frame, SecondOrderField
from ._lagrangian import Lagrangian

__all__ = [
    "OdeSystem",
    "assembled_ode",
    "check_ode_form",
    "check_ode_sources",
    "field_ode",
    "free_params",
    "natural_ode",
    "nonholonomic_ode",
    "reduced_ode",
    "specialised",
    "substituted",
    "vakonomic_ode",
]


def _symbols(x: Any, name: str) -> tuple[sp.Symbol, ...]:
    """A tuple of distinct sympy symbols, or an error naming ``name``."""
    if isinstance(x, str | bytes | Mapping) or not isinstance(x, Iterable):
        raise ArgumentError(f"{name}: expected a sequence of sympy Symbols, got {type(x).__name__}")
    out = tuple(x)
    for k, s in enumerate(out):
        if not isinstance(s, sp.Symbol):
            raise ArgumentError(f"{name}[{k}]: expected a sympy Symbol, got {type(s).__name__} {s!r:.60}")
    if len(set(out)) != len(out):
        raise ArgumentError(f"{name}: repeated symbols in {out}")
    return out


def _matrix(x: Any, name: str, cols: int, rows: int | None = None) -> sp.ImmutableMatrix | None:
    """An immutable matrix of expressions with ``cols`` columns (and ``rows`` rows), or None."""
    if x is None:
        return None
    if not isinstance(x, sp.MatrixBase):
        raise ArgumentError(f"{name}: expected a sympy Matrix or None, got {type(x).__name__}")
    M = sp.ImmutableMatrix(x)
    if M.shape[1] != cols or (rows is not None and M.shape[0] != rows):
        want = f"{rows} × {cols}" if rows is not None else f"{cols} columns"
        raise InvalidExpressionError(f"{name}: expected {want}, got shape {M.shape}")
    as_exprs(list(M), name=name)
    return M


class OdeSystem(Value):
    r"""A symbolic first-order system ``ẏ = f(t, y; p)`` with the data needed to integrate it.

    Every field is checked at construction (a wrong type raises :class:`~frames.errors.ArgumentError`, a
    wrong expression or shape :class:`~frames.errors.InvalidExpressionError`, each naming the field).

    Attributes
    ----------
    states : tuple of Symbol
        The state ``y`` (distinct symbols, at least one).
    rhs : tuple of Expr
        ``f``, in ``t``, ``states`` and ``params``.
    params : tuple of Symbol
        Parameters appearing in any expression (all must be given numbers); declared in the chart.
    time : Symbol
        The time symbol (``chart.t``, or a fresh ``t``).
    chart : Chart
        The natural chart: ``q``, ``u`` and the declared parameters.
    initial : tuple of Expr
        The state as functions of ``(t, q, u, extra inputs, params)``.
    extra_inputs : dict
        Name -> symbols of further initial data (``{"mu": (mu1, ...)}`` for vakonomic fields).
    observables : dict
        Name -> tuple of expressions in ``(t, states, params)``; must contain ``"q"``, ``"u"``,
        ``"v"``; ``"energy"`` (one entry) and ``"multipliers"`` are recognised, others are extras.
    constraint_matrix : ImmutableMatrix or None
        ``A(q, t)`` (k × n): the constraints are ``A u = 0`` (``θ^a_j u^j = 0``).
    metric : ImmutableMatrix or None
        The kinetic metric ``∂²L/∂u^i∂u^j`` (n × n) in ``(t, q, u)``, for the ``"kinetic"`` projection.
    guard : Expr or None
        Vanishes where the system is singular (e.g. ``det g_αβ``), in ``(t, states, params)``.
    form : str
        ``"reduced"``, ``"multiplier"``, or a name chosen by the method.
    names : dict
        Display names for observables' components (``{"v": ("v1", ...)}``).
    distribution_matrix : ImmutableMatrix or None
        Rows ``X_α^j(q, t)`` spanning D (m × n); used for the residual (distance of ``u`` from D),
        which is then computed from a basis of D rather than from ``A``.
    frame_matrix : ImmutableMatrix or None
        The adapted frame the system is written in, rows ``X_i^j(q, t)`` (n × n); the integrators watch its
        conditioning along the motion and stop where it degenerates (:class:`~frames.errors.SingularFrameError`).

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.knife_edge()
    >>> ode = fr.ode_system(mdl.nonholonomic().field())
    >>> ode.form, ode.n_state, ode.dim
    ('reduced', 5, 3)
    >>> fr.OdeSystem(states=ode.states, rhs=ode.rhs, params=(), time=ode.time, chart=mdl.lagrangian, initial=())
    Traceback (most recent call last):
    ...
    frames.errors.ObjectTypeError: OdeSystem: chart: expected a Chart, got Lagrangian ...
    """

    states: tuple[sp.Symbol, ...]
    rhs: tuple[sp.Expr, ...]
    params: tuple[sp.Symbol, ...]
    time: sp.Symbol
    chart: Chart
    initial: tuple[sp.Expr, ...]
    extra_inputs: dict[str, tuple[sp.Symbol, ...]] = field(default_factory=dict)
    observables: dict[str, tuple[sp.Expr, ...]] = field(default_factory=dict)
    constraint_matrix: sp.ImmutableMatrix | None = None
    metric: sp.ImmutableMatrix | None = None
    guard: sp.Expr | None = None
    form: str = "reduced"
    names: dict[str, tuple[str, ...]] = field(default_factory=dict)
    distribution_matrix: sp.ImmutableMatrix | None = None
    frame_matrix: sp.ImmutableMatrix | None = None

    def __check_init__(self) -> None:
        w = "OdeSystem"
        self.chart = expect(self.chart, Chart, name=f"{w}: chart")
        n = self.chart.dim
        self.states = _symbols(self.states, f"{w}: states")
        ns = len(self.states)
        if not ns:
            raise InvalidExpressionError(f"{w}: states: at least one state variable is needed")
        self.rhs = as_exprs(self.rhs, name=f"{w}: rhs")
        if len(self.rhs) != ns:
            raise InvalidExpressionError(f"{w}: {ns} states but {len(self.rhs)} right-hand sides")
        self.initial = as_exprs(self.initial, name=f"{w}: initial")
        if len(self.initial) != ns:
            raise InvalidExpressionError(f"{w}: {ns} states but {len(self.initial)} initial expressions")
        self.params = _symbols(self.params, f"{w}: params")
        undeclared = [p.name for p in self.params if p not in self.chart.params]
        if undeclared:
            raise InvalidExpressionError(f"{w}: params {undeclared} are not declared parameters of the chart")
        self.time = expect(self.time, sp.Symbol, name=f"{w}: time", what="a sympy Symbol")
        self.extra_inputs = self._named(self.extra_inputs, "extra_inputs", lambda v, nm: _symbols(v, nm))
        self.observables = self._named(self.observables, "observables", lambda v, nm: as_exprs(v, name=nm))
        for key in ("q", "u", "v"):
            if key not in self.observables:
                raise InvalidExpressionError(f"{w}: observables: {key!r} is required")
        if len(self.observables["q"]) != n or len(self.observables["u"]) != n:
            raise InvalidExpressionError(f"{w}: observables q and u need {n} components")
        if "energy" in self.observables and len(self.observables["energy"]) != 1:
            raise InvalidExpressionError(f"{w}: observables: 'energy' must have one entry")
        self.constraint_matrix = _matrix(self.constraint_matrix, f"{w}: constraint_matrix", n)
        self.metric = _matrix(self.metric, f"{w}: metric", n, n)
        self.distribution_matrix = _matrix(self.distribution_matrix, f"{w}: distribution_matrix", n)
        self.frame_matrix = _matrix(self.frame_matrix, f"{w}: frame_matrix", n, n)
        if self.guard is not None:
            self.guard = as_expr(self.guard, name=f"{w}: guard")
        if not isinstance(self.form, str) or not self.form:
            raise ArgumentError(f"{w}: form: expected a non-empty str, got {self.form!r}")
        self.names = self._named(self.names, "names", _strings)

    def _named(self, x: Any, what: str, conv: Any) -> dict[str, Any]:
        """A mapping ``str -> converted value`` (field ``what``), every key and value checked."""
        if not isinstance(x, Mapping):
            raise ArgumentError(f"OdeSystem: {what}: expected a mapping name -> values, got {type(x).__name__}")
        out = {}
        for k, v in x.items():
            if not isinstance(k, str):
                raise ArgumentError(f"OdeSystem: {what}: key {k!r} is not a str")
            out[k] = conv(v, f"OdeSystem: {what}[{k!r}]")
        return out

    @property
    def dim(self) -> int:
        """dim Q."""
        return self.chart.dim

    @property
    def n_state(self) -> int:
        """Number of state variables."""
        return len(self.states)

    def __repr__(self) -> str:
        return f"OdeSystem(form={self.form!r}, states={self.states}, params={self.params})"


def _strings(x: Any, name: str) -> tuple[str, ...]:
    if isinstance(x, str | bytes) or not isinstance(x, Iterable) or not all(isinstance(s, str) for s in x):
        raise ArgumentError(f"{name}: expected a sequence of str, got {x!r:.60}")
    return tuple(x)


# ----------------------------------------------------------------------------- builders
@runtime_checkable
class _MultiplierSource(Protocol):
    """What the field builder asks of a nonholonomic system (checked structurally: no import of the class)."""

    frame: Any
    lagrangian: Any

    def multipliers(self, canonical: bool = True) -> Any: ...
    def multipliers_natural(self) -> Any: ...
    def hessian_D(self) -> Any: ...


def free_params(exprs: Iterable[sp.Expr], known: set[sp.Symbol], chart: Chart) -> tuple[sp.Symbol, ...]:
    free: set[sp.Symbol] = set()
    for e in exprs:
        free |= {s for s in sp.sympify(e, strict=True).free_symbols if isinstance(s, sp.Symbol)}
    free -= known
    undeclared = free - set(chart.params)
    if undeclared:
        raise InvalidExpressionError(
            f"numeric system: symbols {sorted(map(str, undeclared))} are neither coordinates, velocities, "
            "time nor declared parameters of the chart"
        )
    return tuple(p for p in chart.params if p in free)


def assembled_ode(
    *,
    states: tuple[sp.Symbol, ...],
    rhs: tuple[Any, ...],
    time: sp.Symbol,
    chart: Chart,
    initial: tuple[Any, ...],
    observables: dict[str, tuple[sp.Expr, ...]],
    known: set[sp.Symbol],
    constraint_matrix: sp.ImmutableMatrix | None = None,
    metric: sp.ImmutableMatrix | None = None,
    guard: sp.Expr | None = None,
    **rest: Any,
) -> OdeSystem:
    """The :class:`OdeSystem` of a builder; its parameters are the free symbols, outside ``known``, of every
    expression it holds (right-hand sides, observables, initial map, constraint matrix, metric, guard)."""
    everything: list[Any] = list(rhs) + [e for vals in observables.values() for e in vals] + list(initial)
    for M in (constraint_matrix, metric, rest.get("frame_matrix")):
        everything += list(M) if M is not None else []
    everything += [guard] if guard is not None else []
    return OdeSystem(
        states=states,
        rhs=rhs,
        params=free_params(everything, known, chart),
        time=time,
        chart=chart,
        initial=initial,
        observables=observables,
        constraint_matrix=constraint_matrix,
        metric=metric,
        guard=guard,
        **rest,
    )


def _frame_ode(
    F: Frame,
    m: int,
    states: tuple[sp.Symbol, ...],
    rhs: tuple[Any, ...],
    initial: tuple[Any, ...],
    observables: dict[str, tuple[sp.Expr, ...]],
    **rest: Any,
) -> OdeSystem:
    """:func:`assembled_ode` of a system in the frame ``F`` constrained to its first ``m`` fields: the constraint
    rows ``θ^a`` (a > m) of the coframe, the frame's matrices, and ``q``, ``u``, the states and ``t`` known."""
    ch = F.chart
    t = ch.t if ch.t is not None else sp.Symbol("t")
    A = sp.ImmutableMatrix(F.coframe_matrix[m:, :]) if m < F.dim else None
    return assembled_ode(
        states=states,
        rhs=rhs,
        time=t,
        chart=ch,
        initial=initial,
        observables=observables,
        known=set(states) | set(ch.u) | set(ch.q) | {t},
        constraint_matrix=A,
        distribution_matrix=sp.ImmutableMatrix(F.matrix[:m, :]) if A is not None else None,
        frame_matrix=sp.ImmutableMatrix(F.matrix) if A is not None else None,
        **rest,
    )


def _denominator_guard(exprs: Iterable[sp.Expr]) -> sp.Expr | None:
    dens: list[sp.Expr] = []
    for e in exprs:
        d = sp.denom(sp.together(e))
        if d.free_symbols and all(d != x for x in dens):
            dens.append(d)
    return sp.Mul(*dens) if dens else None


_FORMS = {"reduced": "reduced", "multiplier": "multiplier", "natural": "multiplier"}


def check_ode_form(what: str, form: Any) -> str:
    if not isinstance(form, str):
        raise ArgumentError(f"{what}: form must be 'reduced' or 'multiplier', got {form!r}")
    if form not in _FORMS:
        raise FramesError(f"{what}: unknown form {form!r}; use 'reduced' or 'multiplier'")
    return _FORMS[form]


def check_ode_sources(what: str, system: Any, lagrangian: Any) -> None:
    """``system=`` must be a NonholonomicSystem and ``lagrangian=`` a Lagrangian (or None)."""
    if system is not None and not isinstance(system, _MultiplierSource):
        raise ArgumentError(f"{what}: system must be a NonholonomicSystem, got {type(system).__name__}")
    if lagrangian is not None and not isinstance(lagrangian, Lagrangian):
        raise ArgumentError(f"{what}: lagrangian must be a Lagrangian, got {type(lagrangian).__name__}")


def field_ode(
    field: SecondOrderField, form: str = "reduced", *, system: Any = None, lagrangian: Lagrangian | None = None
) -> OdeSystem:
    r"""The :class:`OdeSystem` of a second-order field (see :func:`ode_system`).

    Without a system the guard is the product of the denominators of the right-hand sides.
    """
    if not isinstance(field, SecondOrderField):
        raise InvalidExpressionError(f"ode_system: field: {field!r} is not a SecondOrderField")
    check_ode_sources("ode_system", system, lagrangian)
    form = check_ode_form("ode_system", form)
    F = field.frame
    ch = F.chart
    n = F.dim
    m = n if field.m is None else field.m
    q, u, v = ch.q, ch.u, F.v
    if system is not None:
        if system.frame != F:
            raise InvalidExpressionError("ode_system: the system's frame differs from the field's frame")
        lagrangian = system.lagrangian
    on_C = F.on_constraint(m)
    Th = F.coframe_matrix
    Gam = tuple(sp.sympify(field.Gamma[i], strict=True).xreplace(on_C) for i in range(m))
    if form == "reduced":
        return reduced_ode(
            F,
            m,
            Gam,
            lagrangian=lagrangian,
            multipliers=None if system is None else system.multipliers(canonical=False),
            guard=None if system is None else sp.Matrix(system.hessian_D()).det(method="bareiss"),
        )
    energy = None if lagrangian is None else lagrangian.energy()
    metric = None if lagrangian is None else sp.ImmutableMatrix(sp.hessian(lagrangian.expr, u))
    obs: dict[str, tuple[sp.Expr, ...]] = {"q": tuple(q)}
    names: dict[str, tuple[str, ...]] = {"q": tuple(map(str, q)), "u": tuple(map(str, u)), "v": tuple(map(str, v))}
    acc = tuple(field.accelerations())
    states = tuple(q) + tuple(u)
    rhs = tuple(u) + acc
    initial = states
    obs["u"] = tuple(u)
    obs["v"] = tuple(sp.Add(*[Th[i, j] * u[j] for j in range(n)]) for i in range(n))
    if energy is not None:
        obs["energy"] = (energy,)
    guard: sp.Expr | None
    if system is not None:
        obs["multipliers"] = tuple(system.multipliers_natural())
        guard = F.to_natural(sp.Matrix(system.hessian_D()).det(method="bareiss"))
    else:
        guard = _denominator_guard(acc)
    if "multipliers" in obs:
        names["multipliers"] = tuple(f"lambda{a + 1}" for a in range(m, n))
    return _frame_ode(F, m, states, rhs, initial, obs, metric=metric, guard=guard, form=form, names=names)


def nonholonomic_ode(
    system: Any,
    form: str = "reduced",
    *,
    lagrangian: Lagrangian | None = None,
    subs: Mapping[Any, Any] | None = None,
    **options: Any,
) -> OdeSystem:
    """The :class:`OdeSystem` of a :class:`~frames.NonholonomicSystem`: its field, with its multipliers and energy
    (``subs`` specialises every expression, :func:`specialised`)."""
    if options:
        raise ArgumentError(f"ode_system: unknown options {sorted(options)} for a NonholonomicSystem")
    check_ode_sources("ode_system", system, lagrangian)
    return specialised(field_ode(system.field(), form, system=system, lagrangian=lagrangian), subs)


def specialised(ode: OdeSystem, subs: Mapping[Any, Any] | None) -> OdeSystem:
    """``ode`` with the (checked) substitution ``subs`` applied to every expression it holds (right-hand sides,
    initial map, observables, matrices, guard); its parameters are recomputed. ``ode`` itself when ``subs`` is
    empty or None.

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.rolling_coin_incline()
    >>> ode = mdl.nonholonomic().ode_system()
    >>> g = mdl.params["g"]
    >>> g in ode.params, g in specialised(ode, {g: 10}).params
    (True, False)
    """
    if not subs:
        return ode
    as_subs(subs, name="ode_system: subs")

    def sub(e: Any) -> sp.Expr:
        return substituted(e, subs)

    def mat(M: sp.ImmutableMatrix | None) -> sp.ImmutableMatrix | None:
        return None if M is None else sp.ImmutableMatrix(M.shape[0], M.shape[1], [sub(x) for x in M])

    ch = ode.chart
    extra = {s for syms in ode.extra_inputs.values() for s in syms}
    return assembled_ode(
        states=ode.states,
        rhs=tuple(sub(e) for e in ode.rhs),
        time=ode.time,
        chart=ch,
        initial=tuple(sub(e) for e in ode.initial),
        observables={k: tuple(sub(e) for e in v) for k, v in ode.observables.items()},
        known=set(ode.states) | set(ch.q) | set(ch.u) | {ode.time} | extra,
        constraint_matrix=mat(ode.constraint_matrix),
        metric=mat(ode.metric),
        guard=None if ode.guard is None else sub(ode.guard),
        extra_inputs=ode.extra_inputs,
        form=ode.form,
        names=ode.names,
        distribution_matrix=mat(ode.distribution_matrix),
        frame_matrix=mat(ode.frame_matrix),
    )


def reduced_ode(
    frame: Any,
    m: int,
    Gamma: Sequence[Any],
    *,
    lagrangian: Lagrangian | None = None,
    multipliers: Sequence[Any] | None = None,
    extra_states: Mapping[str, tuple[Sequence[sp.Symbol], Sequence[Any]]] | None = None,
    extra_observables: Mapping[str, Sequence[Any]] | None = None,
    guard: Any = None,
    form: str = "reduced",
) -> OdeSystem:
    r"""The reduced-form system on ``C = {v^a = 0}`` of a frame, with optional extra states.

    State ``(q, v^α, z)``: ``q̇ = v^α X_α(q)``, ``v̇^α = Γ^α``, ``ż = Z(q, v^α, z)``. This is the
    building block of the methods' systems: the vakonomic field on ``C × R^{n−m}`` (Proposition 4)
    is ``reduced_ode(F, m, Gamma_alpha, extra_states={"mu": (mu, A_a)}, form="vakonomic")``.

    Parameters
    ----------
    frame : Frame
        Adapted frame (the first ``m`` fields span D).
    m : int
        Rank of D (``m = n`` for a field on all of TQ).
    Gamma : sequence
        ``Γ^α`` (α < m), in ``q, v^α`` (``v^a`` are set to 0), extra state symbols, ``t``, params.
    lagrangian : Lagrangian, optional
        Energy (recorded) and kinetic metric (for ``project="kinetic"``).
    multipliers : sequence, optional
        ``λ_a`` in the state variables, recorded as ``Trajectory.multipliers``.
    extra_states : mapping, optional
        ``name -> (symbols, right-hand sides)``; their initial values are extra input ``name``
        (``extra0={name: values}``) and they are recorded as ``Trajectory.extras[name]``.
    extra_observables : mapping, optional
        Further ``name -> expressions`` recorded in ``Trajectory.extras``.
    guard : expression, optional
        Vanishes where the system is singular (default: product of the denominators of ``Γ``).
    form : str
        Label stored on the system and its trajectories.
    """
    w = "ode_system"
    F = expect(frame, Frame, name=f"{w}: frame")
    ch = F.chart
    n = F.dim
    m = as_int(m, name=f"{w}: m", min=1, max=n)
    Gamma = as_exprs(Gamma, name=f"{w}: Gamma")
    if len(Gamma) != m:
        raise InvalidExpressionError(f"{w}: Gamma: {len(Gamma)} components Γ^α for m = {m}")
    if lagrangian is not None and not isinstance(lagrangian, Lagrangian):
        raise ArgumentError(f"{w}: lagrangian must be a Lagrangian, got {type(lagrangian).__name__}")
    if multipliers is not None:
        multipliers = as_exprs(multipliers, name=f"{w}: multipliers")
    if guard is not None:
        guard = as_expr(guard, name=f"{w}: guard")
    if not isinstance(form, str):
        raise ArgumentError(f"{w}: form must be a str, got {form!r}")
    q, u, v = ch.q, ch.u, F.v
    on_C = F.on_constraint(m)
    Th = F.coframe_matrix
    u_of_v = tuple(sp.sympify(e, strict=True).xreplace(on_C) for e in F.u_in_v)
    Gam = tuple(g.xreplace(on_C) for g in Gamma)
    ex_syms: list[sp.Symbol] = []
    ex_rhs: list[sp.Expr] = []
    extra_inputs: dict[str, tuple[sp.Symbol, ...]] = {}
    obs: dict[str, tuple[sp.Expr, ...]] = {"q": tuple(q), "u": u_of_v, "v": tuple(v[:m]) + (sp.S.Zero,) * (n - m)}
    for name, pair in dict(extra_states or {}).items():
        if not isinstance(name, str) or not isinstance(pair, Sequence) or len(pair) != 2:
            raise InvalidExpressionError(f"{w}: extra_states[{name!r}] must be name -> (symbols, right-hand sides)")
        syms, rhs_ = pair
        syms = tuple(syms)
        if not all(isinstance(s, sp.Symbol) for s in syms):
            raise InvalidExpressionError(f"{w}: extra_states[{name!r}]: the state variables must be symbols")
        rhs_ = tuple(e.xreplace(on_C) for e in as_exprs(rhs_, name=f"{w}: extra_states[{name!r}]"))
        if len(syms) != len(rhs_):
            raise InvalidExpressionError(f"{w}: extra state {name!r} has {len(syms)} symbols, {len(rhs_)} RHS")
        ex_syms += syms
        ex_rhs += rhs_
        extra_inputs[name] = syms
        obs[name] = syms
    states = tuple(q) + tuple(v[:m]) + tuple(ex_syms)
    rhs = u_of_v + Gam + tuple(ex_rhs)
    initial = tuple(q) + tuple(sp.Add(*[Th[al, j] * u[j] for j in range(n)]) for al in range(m)) + tuple(ex_syms)
    metric = None
    if lagrangian is not None:
        obs["energy"] = (lagrangian.energy().xreplace(dict(zip(u, u_of_v, strict=True))),)
        metric = sp.ImmutableMatrix(sp.hessian(lagrangian.expr, u))
    names: dict[str, tuple[str, ...]] = {"q": tuple(map(str, q)), "u": tuple(map(str, u)), "v": tuple(map(str, v))}
    if multipliers is not None:
        obs["multipliers"] = tuple(e.xreplace(on_C) for e in multipliers)
        names["multipliers"] = tuple(f"lambda{a + 1}" for a in range(m, n))
    for name, exprs in (extra_observables or {}).items():
        vals = as_exprs(exprs, name=f"{w}: extra_observables[{name!r}]")
        obs[name] = tuple(e.xreplace(on_C) for e in vals)
    if guard is None:
        guard = _denominator_guard(Gam + tuple(ex_rhs))
    return _frame_ode(
        F, m, states, rhs, initial, obs, metric=metric, guard=guard, extra_inputs=extra_inputs, form=form, names=names
    )


def substituted(e: Any, subs: Mapping[Any, Any] | None) -> sp.Expr:
    """``e`` with the (checked) substitution ``subs`` applied."""
    e = sp.sympify(e, strict=True)
    if subs:
        e = e.subs(as_subs(subs, name="subs")).doit()
    return e  # type: ignore[no-any-return]


def vakonomic_ode(vk: Any, *, subs: Mapping[Any, Any] | None = None) -> OdeSystem:
    r"""The vakonomic field of Proposition 4 on ``C × R^{n−m}`` as an :class:`OdeSystem`.

    State ``(q, v^α, μ_a)``: ``q̇ = v^α X_α``, ``v̇^α = Γ^α(q, v, μ)``, ``μ̇_a = A_a(q, v, μ)``
    (:meth:`~frames.VakonomicSystem.tangent_field` with the multipliers free). Integrate with
    ``integrate(vk, t_span, q0, u0, params=..., mu0=[...])``; ``μ`` lands in
    ``Trajectory.extras["mu"]``. A trajectory started at ``μ(0) = φ(q0, v0)`` stays on the image of a
    section ``φ`` iff the section is invariant (Theorem 2).

    Parameters
    ----------
    vk : VakonomicSystem
    subs : mapping, optional
        Substitution applied to the right-hand sides before compiling (e.g. ``B0(t) -> ...``).
    """
    tf = vk.tangent_field()
    m = vk.m
    Gam = [substituted(tf.Gamma[al], subs) for al in range(m)]
    A = [substituted(a, subs) for a in tf.A]
    return reduced_ode(vk.frame, m, Gam, lagrangian=vk.lagrangian, extra_states={"mu": (vk.mu, A)}, form="vakonomic")


def natural_ode(
    chart: Chart,
    lagrangian: Lagrangian | None,
    accelerations: Sequence[Any],
    *,
    extra: Sequence[sp.Symbol] = (),
    rates: Sequence[Any] = (),
    extra_name: str = "lambda",
    form: str = "natural",
    subs: Mapping[Any, Any] | None = None,
) -> OdeSystem:
    r"""A method's equations in natural form as an :class:`OdeSystem`: state ``(q, u, x)``.

    ``q̇ = u``, ``u̇ = q̈`` (``accelerations``, in ``q, u, t``, the parameters and ``x``), ``ẋ = rates`` for the
    method's extra states ``x`` (``extra``: multipliers that the method integrates, given initially as the extra
    input ``extra_name``). The energy of ``lagrangian`` (when given) and the extra states are recorded. The
    constraints are kept only to the integrator's accuracy (no reduced form). Used by the methods whose
    ``ode_system()`` has no reduced form (Kozlov's, Chetaev's, the Cartan-form method).
    """
    q, u = tuple(chart.q), tuple(chart.u)
    n = len(q)
    if len(accelerations) != n or len(rates) != len(extra):
        raise InvalidExpressionError(
            f"ode_system: {len(accelerations)} accelerations for {n} coordinates, {len(rates)} rates for "
            f"{len(extra)} extra states"
        )
    t = chart.t if chart.t is not None else sp.Symbol("t")
    extra = tuple(extra)
    states = q + u + extra
    rhs = u + tuple(substituted(a, subs) for a in accelerations) + tuple(substituted(r, subs) for r in rates)
    obs: dict[str, tuple[sp.Expr, ...]] = {"q": q, "u": u, "v": u}  # no frame: the velocities are u
    metric = None
    if lagrangian is not None:
        obs["energy"] = (substituted(lagrangian.energy(), subs),)
        metric = sp.ImmutableMatrix(hessian(substituted(lagrangian.expr, subs), u))
    if extra:
        obs[extra_name] = extra
    return assembled_ode(
        states=states,
        rhs=rhs,
        time=t,
        chart=chart,
        initial=states,
        observables=obs,
        known=set(states) | {t},
        metric=metric,
        extra_inputs={extra_name: extra} if extra else {},
        form=form,
        names={"q": tuple(map(str, q)), "u": tuple(map(str, u)), "v": tuple(map(str, u))},
    )
