"""The symbolic first-order system :class:`OdeSystem` and its builders from second-order fields.

See the numeric layer's package docstring for the two forms (reduced, multiplier)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field
from typing import Any

import sympy as sp

from .._value import Value
from ..algebra import as_expr, as_exprs, as_int, expect
from ..dynamics._lagrangian import Lagrangian
from ..dynamics._nonholonomic import NonholonomicSystem
from ..errors import (
    ArgumentError,
    FramesError,
    InvalidExpressionError,
)
from ..geometry import SecondOrderField
from ..geometry._chart import Chart
from ..geometry._frame import Frame

# ----------------------------------------------------------------------------- the symbolic system
from ._compiled import CompiledSystem

__all__ = ["OdeSystem", "ode_system", "reduced_ode_system"]


class OdeSystem(Value):
    r"""A symbolic first-order system ``ẏ = f(t, y; p)`` with the data needed to integrate it.

    Attributes
    ----------
    states : tuple of Symbol
        The state ``y``.
    rhs : tuple of Expr
        ``f``, in ``t``, ``states`` and ``params``.
    params : tuple of Symbol
        Parameters appearing in any expression (all must be given numbers).
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
        The kinetic metric ``∂²L/∂u^i∂u^j`` in ``(t, q, u)``, for the ``"kinetic"`` projection.
    guard : Expr or None
        Vanishes where the system is singular (e.g. ``det g_αβ``), in ``(t, states, params)``.
    form : str
        ``"reduced"``, ``"multiplier"``, or a name chosen by the plug-in.
    names : dict
        Display names for observables' components (``{"v": ("v1", ...)}``).
    distribution_matrix : ImmutableMatrix or None
        Rows ``X_α^j(q, t)`` spanning D (m × n); used for the residual (distance of ``u`` from D),
        which is then computed from a basis of D rather than from ``A``.
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

    def __post_init__(self) -> None:
        ns = len(self.states)
        if len(self.rhs) != ns:
            raise InvalidExpressionError(f"OdeSystem: {ns} states but {len(self.rhs)} right-hand sides")
        if len(self.initial) != ns:
            raise InvalidExpressionError(f"OdeSystem: {ns} states but {len(self.initial)} initial expressions")
        for key in ("q", "u", "v"):
            if key not in self.observables:
                raise InvalidExpressionError(f"OdeSystem: observable {key!r} is required")
        n = self.chart.dim
        if len(self.observables["q"]) != n or len(self.observables["u"]) != n:
            raise InvalidExpressionError(f"OdeSystem: observables q and u need {n} components")
        if self.constraint_matrix is not None and self.constraint_matrix.shape[1] != n:
            raise InvalidExpressionError(f"OdeSystem: constraint matrix must have {n} columns")

    @property
    def dim(self) -> int:
        """dim Q."""
        return self.chart.dim

    @property
    def n_state(self) -> int:
        """Number of state variables."""
        return len(self.states)

    def compile(self) -> CompiledSystem:
        """Generate the numeric functions (see :class:`CompiledSystem`)."""
        return CompiledSystem(self)

    def __repr__(self) -> str:
        return f"OdeSystem(form={self.form!r}, states={self.states}, params={self.params})"


def _free_params(exprs: Iterable[sp.Expr], known: set[sp.Symbol], chart: Chart) -> tuple[sp.Symbol, ...]:
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


def _denominator_guard(exprs: Iterable[sp.Expr]) -> sp.Expr | None:
    dens: list[sp.Expr] = []
    for e in exprs:
        d = sp.denom(sp.together(e))
        if d.free_symbols and all(d != x for x in dens):
            dens.append(d)
    return sp.Mul(*dens) if dens else None


_FORMS = {"reduced": "reduced", "multiplier": "multiplier", "natural": "multiplier"}


def ode_system(
    field: SecondOrderField,
    form: str = "reduced",
    *,
    system: NonholonomicSystem | None = None,
    lagrangian: Lagrangian | None = None,
) -> OdeSystem:
    r"""The :class:`OdeSystem` of a second-order field.

    Parameters
    ----------
    field : SecondOrderField
        ``Γ = v^i X_i^C + Γ^i X_i^V``; if ``field.m`` is set the field lives on
        ``C = {v^a = 0}``.
    form : {"reduced", "multiplier"}
        ``"reduced"``: state ``(q, v^α)``, ``q̇ = v^α X_α(q)``, ``v̇^α = Γ^α`` (all ``v^i`` when
        ``field.m`` is None). ``"multiplier"``: state ``(q, u)``, ``q̇ = u``, ``u̇ = q̈(q, u)``
        from :meth:`~frames.SecondOrderField.accelerations`.
    system : NonholonomicSystem, optional
        Source of the multipliers ``λ_a`` (recorded along the motion), the Lagrangian
        (energy, kinetic metric) and the guard ``det g_αβ`` (Proposition 2's regularity).
    lagrangian : Lagrangian, optional
        For the energy and the kinetic metric when no ``system`` is given.

    Notes
    -----
    Without a system the guard is the product of the denominators of the right-hand sides.
    """
    if not isinstance(field, SecondOrderField):
        raise InvalidExpressionError(f"ode_system: field: {field!r} is not a SecondOrderField")
    if system is not None and not isinstance(system, NonholonomicSystem):
        raise ArgumentError(f"ode_system: system must be a NonholonomicSystem, got {type(system).__name__}")
    if lagrangian is not None and not isinstance(lagrangian, Lagrangian):
        raise ArgumentError(f"ode_system: lagrangian must be a Lagrangian, got {type(lagrangian).__name__}")
    if not isinstance(form, str):
        raise ArgumentError(f"ode_system: form must be 'reduced' or 'multiplier', got {form!r}")
    if form not in _FORMS:
        raise FramesError(f"ode_system: unknown form {form!r}; use 'reduced' or 'multiplier'")
    form = _FORMS[form]
    F = field.frame
    ch = F.chart
    n = F.dim
    m = n if field.m is None else field.m
    q, u, v = ch.q, ch.u, F.v
    t = ch.t if ch.t is not None else sp.Symbol("t")
    if system is not None:
        if system.frame != F:
            raise InvalidExpressionError("ode_system: the system's frame differs from the field's frame")
        lagrangian = system.lagrangian
    on_C = F.on_constraint(m)
    Th = F.coframe_matrix
    Gam = tuple(sp.sympify(field.Gamma[i], strict=True).xreplace(on_C) for i in range(m))
    energy = None if lagrangian is None else lagrangian.energy()
    metric = None if lagrangian is None else sp.ImmutableMatrix(sp.hessian(lagrangian.expr, u))
    A = sp.ImmutableMatrix(Th[m:, :]) if m < n else None
    obs: dict[str, tuple[sp.Expr, ...]] = {"q": tuple(q)}
    names: dict[str, tuple[str, ...]] = {"q": tuple(map(str, q)), "u": tuple(map(str, u)), "v": tuple(map(str, v))}
    if form == "reduced":
        return reduced_ode_system(
            F,
            m,
            Gam,
            lagrangian=lagrangian,
            multipliers=None if system is None else system.multipliers(),
            guard=None if system is None else sp.Matrix(system.hessian_D()).det(method="bareiss"),
        )
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
    known = set(states) | set(u) | set(q) | {t}
    everything: list[sp.Expr] = list(rhs) + [e for vals in obs.values() for e in vals] + list(initial)
    if A is not None:
        everything += list(A)
    if metric is not None:
        everything += list(metric)
    if guard is not None:
        everything.append(guard)
    params = _free_params(everything, known, ch)
    return OdeSystem(
        states=states,
        rhs=rhs,
        params=params,
        time=t,
        chart=ch,
        initial=initial,
        observables=obs,
        constraint_matrix=A,
        metric=metric,
        guard=guard,
        form=form,
        names=names,
        distribution_matrix=sp.ImmutableMatrix(F.matrix[:m, :]) if A is not None else None,
    )


def reduced_ode_system(
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
    building block for plug-in fields: a vakonomic field on ``C × R^{n−m}`` (Proposition 4) is
    ``reduced_ode_system(F, m, Gamma_alpha, extra_states={"mu": (mu, A_a)}, form="vakonomic")`` and
    is integrated with ``integrate(system, ..., mu0=...)``.

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
    F = expect(frame, Frame, name="reduced_ode_system: frame")
    ch = F.chart
    n = F.dim
    m = as_int(m, name="reduced_ode_system: m", min=1, max=n)
    Gamma = as_exprs(Gamma, name="reduced_ode_system: Gamma")
    if len(Gamma) != m:
        raise InvalidExpressionError(f"reduced_ode_system: Gamma: {len(Gamma)} components Γ^α for m = {m}")
    if lagrangian is not None and not isinstance(lagrangian, Lagrangian):
        raise ArgumentError(f"reduced_ode_system: lagrangian must be a Lagrangian, got {type(lagrangian).__name__}")
    if multipliers is not None:
        multipliers = as_exprs(multipliers, name="reduced_ode_system: multipliers")
    if guard is not None:
        guard = as_expr(guard, name="reduced_ode_system: guard")
    if not isinstance(form, str):
        raise ArgumentError(f"reduced_ode_system: form must be a str, got {form!r}")
    q, u, v = ch.q, ch.u, F.v
    t = ch.t if ch.t is not None else sp.Symbol("t")
    on_C = F.on_constraint(m)
    Th = F.coframe_matrix
    u_of_v = tuple(sp.sympify(e, strict=True).xreplace(on_C) for e in F.u_in_v)
    Gam = tuple(g.xreplace(on_C) for g in Gamma)
    extra_states = dict(extra_states or {})
    ex_syms: list[sp.Symbol] = []
    ex_rhs: list[sp.Expr] = []
    extra_inputs: dict[str, tuple[sp.Symbol, ...]] = {}
    obs: dict[str, tuple[sp.Expr, ...]] = {"q": tuple(q), "u": u_of_v, "v": tuple(v[:m]) + (sp.S.Zero,) * (n - m)}
    for name, pair in extra_states.items():
        if not isinstance(name, str) or not isinstance(pair, Sequence) or len(pair) != 2:
            raise InvalidExpressionError(
                f"reduced_ode_system: extra_states[{name!r}] must be name -> (symbols, right-hand sides)"
            )
        syms, rhs_ = pair
        syms = tuple(syms)
        if not all(isinstance(s, sp.Symbol) for s in syms):
            raise InvalidExpressionError(
                f"reduced_ode_system: extra_states[{name!r}]: the state variables must be symbols"
            )
        rhs_ = tuple(e.xreplace(on_C) for e in as_exprs(rhs_, name=f"reduced_ode_system: extra_states[{name!r}]"))
        if len(syms) != len(rhs_):
            raise InvalidExpressionError(
                f"reduced_ode_system: extra state {name!r} has {len(syms)} symbols, {len(rhs_)} RHS"
            )
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
        vals = as_exprs(exprs, name=f"reduced_ode_system: extra_observables[{name!r}]")
        obs[name] = tuple(e.xreplace(on_C) for e in vals)
    if guard is None:
        guard = _denominator_guard(Gam + tuple(ex_rhs))
    A = sp.ImmutableMatrix(Th[m:, :]) if m < n else None
    known = set(states) | set(u) | set(q) | {t}
    everything: list[sp.Expr] = list(rhs) + [e for vals in obs.values() for e in vals] + list(initial)
    everything += list(A) if A is not None else []
    everything += list(metric) if metric is not None else []
    everything += [guard] if guard is not None else []
    params = _free_params(everything, known, ch)
    return OdeSystem(
        states=states,
        rhs=rhs,
        params=params,
        time=t,
        chart=ch,
        initial=initial,
        extra_inputs=extra_inputs,
        observables=obs,
        constraint_matrix=A,
        metric=metric,
        guard=guard,
        form=form,
        names=names,
        distribution_matrix=sp.ImmutableMatrix(F.matrix[:m, :]) if A is not None else None,
    )
