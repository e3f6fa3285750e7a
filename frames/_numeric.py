r"""Numerics: code generation, integrators, trajectories, batches and sweeps.

Everything numeric in :mod:`frames` goes through one small interface, the
symbolic first-order system :class:`OdeSystem`

.. math::  \dot y = f(t, y; p),

given by its state symbols ``y``, right-hand sides ``f`` (sympy expressions),
parameter symbols ``p``, the map from natural initial data ``(q, u)`` (and
extra initial data such as vakonomic multipliers ``μ``) to the state, the
observables to record along the motion (``q``, ``u``, ``v``, energy,
multipliers, ...) and, optionally, the linear constraints ``A(q) u = 0`` and a
*guard* expression that vanishes where the system is singular.
:func:`ode_system` builds one from any :class:`~frames.SecondOrderField`, in two
forms:

``form="reduced"`` (default for fields on C)
    the state is ``(q, v^α)``, α = 1..m, with ``q̇ = v^α X_α(q)`` and
    ``v̇^α = Γ^α`` (Crampin–Mestdag, Proposition 2). The natural velocities
    ``u = v^α X_α`` lie in ``D`` for every state, so the constraints
    ``θ^a(u) = 0`` hold to rounding *by construction*.
``form="multiplier"`` (alias ``"natural"``)
    the state is ``(q, u)`` with ``q̈ = accelerations()``, the classical
    natural-coordinate form (multipliers eliminated); the constraints are only
    preserved up to the integrator's truncation error.

:class:`CompiledSystem` turns an :class:`OdeSystem` into fast numeric
functions: ``sympy.cse`` followed by code generation (a ``math``-module
version for one state, a NumPy version vectorised over a batch of states of
shape ``(n_state, batch)``), with the parameters bound at call time.

Plugging in other fields (vakonomic, MVM)
-----------------------------------------
For fields on C with extra states use :func:`reduced_ode_system`, e.g. the vakonomic field of
Proposition 4 (``μ̇_a = A_a``)::

    reduced_ode_system(F, m, Gamma_alpha, lagrangian=L, extra_states={"mu": (mu, A_a)}, form="vakonomic")

or build an :class:`OdeSystem` directly, e.g. with states ``(q, v^α, μ_a)``::

    OdeSystem(states=q + v_alpha + mu, rhs=qdot + Gamma_alpha + A_a, params=...,
              time=t, chart=chart,
              initial=q + theta_alpha_u + mu, extra_inputs={"mu": mu},
              observables={"q": q, "u": u_of_state, "v": v_of_state, "mu": mu, "energy": (E,)},
              constraint_matrix=Theta[m:, :], metric=hessian, guard=det_g, form="vakonomic")

and call :func:`integrate_system` (``extra0={"mu": mu0}``) or
:func:`integrate_batch`. Observables other than ``q, u, v, energy,
multipliers`` end up in :attr:`Trajectory.extras` (e.g. ``"mu"``, ``"lambda"``).

Examples
--------
>>> import frames as fr
>>> mdl = fr.models.knife_edge()
>>> nh = mdl.nonholonomic()
>>> tr = fr.integrate(nh, (0.0, 1.0), mdl.q0, mdl.u0, params=mdl.param_values, rtol=1e-10, atol=1e-12)
>>> tr.q.shape[1], bool(tr.residual.max() < 1e-14)
(3, True)
>>> round(float(tr.q[-1, 0]), 10)  # φ = φ0 + u_φ t
0.5
"""

from __future__ import annotations

import hashlib
import itertools
import math
import os
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.printing.numpy import NumPyPrinter
from sympy.printing.pycode import PythonCodePrinter

from ._chart import Chart
from ._errors import ConstraintError, FramesError, InvalidExpressionError, RegularityError

if TYPE_CHECKING:
    from ._lagrangian import Lagrangian
    from ._nonholonomic import NonholonomicSystem
    from ._tangent import SecondOrderField

__all__ = [
    "CompiledSystem",
    "InconsistentInitialDataError",
    "IntegrateJob",
    "IntegrationError",
    "OdeSystem",
    "OptionalDependencyError",
    "ParameterError",
    "SingularityError",
    "StateError",
    "Trajectory",
    "TrajectoryBatch",
    "compile_system",
    "grid_points",
    "integrate",
    "integrate_batch",
    "integrate_system",
    "ode_system",
    "reduced_ode_system",
    "sweep",
]


# ----------------------------------------------------------------------------- errors
class StateError(FramesError):
    """Initial data of the wrong length or shape, missing, or not finite."""


class ParameterError(FramesError):
    """Parameters missing, unknown, or not finite."""


class InconsistentInitialDataError(ConstraintError):
    """Initial velocities violate the constraints (and no projection was asked for)."""


class OptionalDependencyError(FramesError, ImportError):
    """An optional dependency (pandas, matplotlib, dask) is not installed."""


class IntegrationError(FramesError):
    """The integrator failed; ``t`` and ``state`` say where, the message says why.

    Attributes
    ----------
    t : float or None
        Time of the failure.
    state : numpy.ndarray or None
        State at that time.
    """

    def __init__(self, message: str, t: float | None = None, state: Any = None) -> None:
        super().__init__(message)
        self.t = t
        self.state = None if state is None else np.array(state, dtype=float)


class SingularityError(IntegrationError, RegularityError):
    """The system became singular along the motion (singular Hessian, non-finite RHS)."""


# ----------------------------------------------------------------------------- code generation
_MODULES = {"numpy": np, "math": math}


class _Printer(NumPyPrinter):
    pass


def _codegen(
    exprs: Sequence[sp.Expr], groups: Sequence[tuple[str, Sequence[sp.Symbol], bool]], mode: str, fname: str
) -> tuple[Callable[..., Any], str]:
    """Generate ``fname(*groups)`` evaluating ``exprs`` after common-subexpression elimination.

    ``groups`` are ``(argname, symbols, scalar)``; a scalar group binds its single symbol to the
    argument itself, a vector group binds ``symbols[i]`` to ``arg[i]``. ``mode="math"`` returns a
    list of Python floats (one state); ``mode="numpy"`` returns an array of shape
    ``(len(exprs),) + batch`` where ``batch`` broadcasts the trailing shapes of the arguments.
    """
    exprs = [sp.sympify(e) for e in exprs]
    for e in exprs:
        undef = e.atoms(AppliedUndef)
        if undef:
            raise InvalidExpressionError(
                f"cannot generate numeric code: undefined function(s) {sorted(map(str, undef))}; "
                "substitute concrete expressions first"
            )
    rename: dict[sp.Symbol, sp.Symbol] = {}
    bind: dict[sp.Symbol, str] = {}
    for gname, syms, scalar in groups:
        for i, s in enumerate(syms):
            if s in rename:
                continue
            new = sp.Symbol(f"_{gname}_{i}")
            rename[s] = new
            bind[new] = gname if scalar else f"{gname}[{i}]"
    free: set[sp.Basic] = set().union(*(e.free_symbols for e in exprs)) if exprs else set()
    stray = free - set(rename)
    if stray:
        raise InvalidExpressionError(f"cannot generate numeric code: unbound symbols {sorted(map(str, stray))}")
    ren = [e.xreplace(rename) for e in exprs]
    repl, red = sp.cse(ren, symbols=sp.numbered_symbols("_c"), order="none")
    printer: PythonCodePrinter = _Printer() if mode == "numpy" else PythonCodePrinter()
    used: set[sp.Basic] = set().union(*(e.free_symbols for _, e in repl), *(e.free_symbols for e in red))
    argnames = [g[0] for g in groups]
    lines = [f"def {fname}({', '.join(argnames)}):"]
    lines += [f"    {s} = {src}" for s, src in bind.items() if s in used]
    lines += [f"    {s} = {printer.doprint(e)}" for s, e in repl]
    if mode == "numpy":
        shape_parts = [f"numpy.shape({g[0]})" if g[2] else f"numpy.shape({g[0]})[1:]" for g in groups]
        lines.append(f"    _shape = numpy.broadcast_shapes({', '.join(shape_parts)})")
        lines.append(f"    _out = numpy.empty(({len(red)},) + _shape)")
        lines += [f"    _out[{i}] = {printer.doprint(e)}" for i, e in enumerate(red)]
        lines.append("    return _out")
    else:
        lines.append("    return [" + ", ".join(f"{printer.doprint(e)}" for e in red) + "]")
    src = "\n".join(lines) + "\n"
    ns: dict[str, Any] = dict(_MODULES)
    exec(compile(src, f"<frames generated {fname}>", "exec"), ns)
    return ns[fname], src


# ----------------------------------------------------------------------------- the symbolic system
@dataclass(frozen=True, eq=False)
class OdeSystem:
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
        free |= {s for s in sp.sympify(e).free_symbols if isinstance(s, sp.Symbol)}
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
    from ._tangent import SecondOrderField

    if not isinstance(field, SecondOrderField):
        raise InvalidExpressionError(f"ode_system: {field!r} is not a SecondOrderField")
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
    on_C = {v[a]: sp.S.Zero for a in range(m, n)}
    Th = F.coframe_matrix
    Gam = tuple(sp.sympify(field.Gamma[i]).xreplace(on_C) for i in range(m))
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
    F = frame
    ch = F.chart
    n = F.dim
    if not 0 < m <= n:
        raise InvalidExpressionError(f"reduced_ode_system: m = {m} outside 1..{n}")
    if len(Gamma) != m:
        raise InvalidExpressionError(f"reduced_ode_system: {len(Gamma)} components Γ^α for m = {m}")
    q, u, v = ch.q, ch.u, F.v
    t = ch.t if ch.t is not None else sp.Symbol("t")
    on_C = {v[a]: sp.S.Zero for a in range(m, n)}
    Th = F.coframe_matrix
    u_of_v = tuple(sp.sympify(e).xreplace(on_C) for e in F.u_in_v)
    Gam = tuple(sp.sympify(g).xreplace(on_C) for g in Gamma)
    extra_states = dict(extra_states or {})
    ex_syms: list[sp.Symbol] = []
    ex_rhs: list[sp.Expr] = []
    extra_inputs: dict[str, tuple[sp.Symbol, ...]] = {}
    obs: dict[str, tuple[sp.Expr, ...]] = {"q": tuple(q), "u": u_of_v, "v": tuple(v[:m]) + (sp.S.Zero,) * (n - m)}
    for name, (syms, rhs_) in extra_states.items():
        syms, rhs_ = tuple(syms), tuple(sp.sympify(e).xreplace(on_C) for e in rhs_)
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
        obs["multipliers"] = tuple(sp.sympify(e).xreplace(on_C) for e in multipliers)
        names["multipliers"] = tuple(f"lambda{a + 1}" for a in range(m, n))
    for name, exprs in (extra_observables or {}).items():
        obs[name] = tuple(sp.sympify(e).xreplace(on_C) for e in exprs)
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


# ----------------------------------------------------------------------------- compiled system
class CompiledSystem:
    r"""Numeric functions generated from an :class:`OdeSystem`.

    ``rhs(t, y, p)`` evaluates ``f``: for ``y`` of shape ``(n_state,)`` through generated
    ``math``-module code (fast for one state), for ``y`` of shape ``(n_state, batch)`` through
    generated NumPy code (``p`` of shape ``(n_params,)`` or ``(n_params, batch)``). Both are
    generated after ``sympy.cse``; :attr:`source` holds the generated code. Instances pickle by
    their :class:`OdeSystem` (the code is regenerated on unpickling), so they can be shipped to
    process pools and dask workers.
    """

    def __init__(self, system: OdeSystem) -> None:
        self.system = system
        S = system
        ch = S.chart
        tg = ("t", (S.time,), True)
        yg = ("y", S.states, False)
        pg = ("p", S.params, False)
        self._rhs_math, src1 = _codegen(S.rhs, [tg, yg, pg], "math", "rhs_one")
        self._rhs_np, src2 = _codegen(S.rhs, [tg, yg, pg], "numpy", "rhs_batch")
        self._obs_keys = list(S.observables)
        self._obs_len = [len(S.observables[k]) for k in self._obs_keys]
        flat = [e for k in self._obs_keys for e in S.observables[k]]
        self._obs, _ = _codegen(flat, [tg, yg, pg], "numpy", "observe")
        extra_syms = tuple(s for syms in S.extra_inputs.values() for s in syms)
        self._init, _ = _codegen(
            S.initial, [tg, ("q", ch.q, False), ("u", ch.u, False), ("x", extra_syms, False), pg], "numpy", "initial"
        )
        self._A = None
        if S.constraint_matrix is not None:
            self._A, _ = _codegen(list(S.constraint_matrix), [tg, ("q", ch.q, False), pg], "numpy", "A")
        self._D = None
        if S.distribution_matrix is not None:
            self._D, _ = _codegen(list(S.distribution_matrix), [tg, ("q", ch.q, False), pg], "numpy", "D")
        self._M = None
        if S.metric is not None:
            self._M, _ = _codegen(list(S.metric), [tg, ("q", ch.q, False), ("u", ch.u, False), pg], "numpy", "M")
        self._guard = None
        self.guard_depends_on_state = False
        if S.guard is not None:
            self._guard, _ = _codegen([S.guard], [tg, yg, pg], "numpy", "guard")
            self.guard_depends_on_state = bool(S.guard.free_symbols & (set(S.states) | {S.time}))
        self.source = src1 + "\n" + src2
        self.key = hashlib.sha256(srepr_key(S).encode()).hexdigest()
        _LOADED.setdefault(self.key, self)
        self.param_names = tuple(p.name for p in S.params)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_load_compiled, (self.system, self.key))

    def __repr__(self) -> str:
        return f"CompiledSystem({self.system!r})"

    # ---------------------------------------------------------------- parameters
    def bind(self, params: Mapping[Any, Any] | None = None, batch: int | None = None) -> np.ndarray:
        """Parameter vector from a mapping ``Symbol or name -> number`` (or length-``batch`` array).

        Raises
        ------
        ParameterError
            Missing, unknown or non-finite parameters.
        """
        given: dict[str, Any] = {}
        declared = {p.name for p in self.system.chart.params}
        for k, val in (params or {}).items():
            name = k.name if isinstance(k, sp.Symbol) else str(k)
            if name not in declared:
                raise ParameterError(f"unknown parameter {name!r}; the system's parameters are {sorted(declared)}")
            given[name] = val
        missing = [p for p in self.param_names if p not in given]
        if missing:
            raise ParameterError(f"missing values for parameters {missing} (needed: {list(self.param_names)})")
        cols = []
        for p in self.param_names:
            val = given[p]
            if isinstance(val, sp.Basic):
                try:
                    val = float(val)
                except TypeError as exc:
                    raise ParameterError(f"parameter {p!r}: {val!r} is not a number") from exc
            try:
                a = np.asarray(val, dtype=float)
            except (TypeError, ValueError) as exc:
                raise ParameterError(f"parameter {p!r}: {val!r} is not a number") from exc
            if a.ndim > 1 or (a.ndim == 1 and batch is None):
                raise ParameterError(f"parameter {p!r}: expected a number, got an array of shape {a.shape}")
            if a.ndim == 1 and a.shape[0] != batch:
                raise ParameterError(f"parameter {p!r}: {a.shape[0]} values for a batch of {batch}")
            if not np.all(np.isfinite(a)):
                raise ParameterError(f"parameter {p!r} is not finite: {given[p]!r}")
            cols.append(a)
        if not cols:
            return np.zeros((0,))
        if any(c.ndim == 1 for c in cols):
            return np.stack([np.broadcast_to(c, (batch,)) for c in cols]).astype(float)  # type: ignore[arg-type]
        return np.array([float(c) for c in cols])

    # ---------------------------------------------------------------- evaluation
    def rhs(self, t: float, y: Any, p: Any) -> np.ndarray:
        """``f(t, y; p)`` for one state ``(n_state,)`` or a batch ``(n_state, batch)``."""
        y = np.asarray(y, dtype=float)
        if y.ndim == 1:
            return np.array(self._rhs_math(float(t), y.tolist(), np.asarray(p, dtype=float).tolist()))
        with np.errstate(all="ignore"):
            return self._rhs_np(t, y, p)  # type: ignore[no-any-return]

    def fun(self, p: Any, check: bool = True) -> Callable[[float, np.ndarray], np.ndarray]:
        """``f(t, y)`` for one state with the parameters ``p`` bound (for ``solve_ivp``).

        With ``check`` a non-finite value or a floating-point exception raises
        :class:`SingularityError` naming the time and the state.
        """
        plist = np.asarray(p, dtype=float).tolist()
        f = self._rhs_math
        if not check:

            def fast(t: float, y: np.ndarray) -> np.ndarray:
                return np.array(f(t, y.tolist(), plist))

            return fast
        isfinite = math.isfinite

        def checked(t: float, y: np.ndarray) -> np.ndarray:
            try:
                r = f(t, y.tolist(), plist)
            except (ZeroDivisionError, ValueError, OverflowError) as exc:
                raise SingularityError(
                    f"right-hand side not defined at t = {t!r}, state {y.tolist()} ({type(exc).__name__}: {exc})",
                    t,
                    y,
                ) from exc
            if not all(map(isfinite, r)):
                raise SingularityError(f"right-hand side not finite at t = {t!r}, state {y.tolist()}: {r}", t, y)
            return np.array(r)

        return checked

    def fun_batch(self, p: Any) -> Callable[[float, np.ndarray], np.ndarray]:
        """``f(t, Y)`` for ``Y`` of shape ``(n_state, batch)`` with ``p`` bound."""
        f = self._rhs_np

        def batch(t: float, Y: np.ndarray) -> np.ndarray:
            with np.errstate(all="ignore"):
                return f(t, Y, p)  # type: ignore[no-any-return]

        return batch

    def guard(self, t: Any, y: Any, p: Any) -> np.ndarray | None:
        """The guard (vanishes where the system is singular), or None."""
        if self._guard is None:
            return None
        with np.errstate(all="ignore"):
            return self._guard(t, np.asarray(y, dtype=float), p)[0]  # type: ignore[no-any-return]

    def observe(self, t: np.ndarray, Y: np.ndarray, p: Any) -> dict[str, np.ndarray]:
        """Observables along states ``Y`` (``(n_state, N)``) at times ``t`` (``(N,)``)."""
        with np.errstate(all="ignore"):
            out = self._obs(t, Y, p)
        res: dict[str, np.ndarray] = {}
        k = 0
        for key, ln in zip(self._obs_keys, self._obs_len, strict=True):
            res[key] = out[k : k + ln]
            k += ln
        return res

    def constraint_values(self, t: Any, q: np.ndarray, u: np.ndarray, p: Any) -> np.ndarray | None:
        """``A(q) u`` for ``q, u`` of shape ``(n, ...)``; None without constraints."""
        if self._A is None:
            return None
        n = self.system.dim
        Af = self._A(t, q, p)
        Am = Af.reshape((Af.shape[0] // n, n, *Af.shape[1:]))
        return np.einsum("aj...,j...->a...", Am, u)  # type: ignore[no-any-return]

    def distance_to_D(self, t: Any, q: np.ndarray, u: np.ndarray, p: Any) -> np.ndarray:
        r"""Euclidean distance of ``u`` from ``D_q`` for ``q, u`` of shape ``(n, N)``.

        Computed from the basis ``X_α`` of D when known (well conditioned), otherwise as
        ``|Aᵀ(AAᵀ)⁻¹A u|``. Unlike ``A u`` it does not depend on the choice of annihilator rows;
        zeros without constraints.
        """
        n = self.system.dim
        N = q.shape[1]
        if self._A is None:
            return np.zeros(N)
        if self._D is not None:  # least squares on a basis X_α of D: u − X_Dᵀ(X_D X_Dᵀ)⁻¹X_D u
            Df = self._D(t, q, p)
            Df = np.broadcast_to(Df, (Df.shape[0], N))
            Xd = Df.reshape(Df.shape[0] // n, n, N).transpose(2, 0, 1)  # (N, m, n)
            c = np.einsum("Naj,jN->Na", Xd, u)
            w = np.linalg.solve(Xd @ Xd.transpose(0, 2, 1), c[..., None])[..., 0]
            r = u.T - np.einsum("Naj,Na->Nj", Xd, w)
            return np.sqrt(np.sum(r * r, axis=1))  # type: ignore[no-any-return]
        Af = np.broadcast_to(self._A(t, q, p), (self._A(t, q, p).shape[0], N))
        Am = Af.reshape(Af.shape[0] // n, n, N).transpose(2, 0, 1)  # (N, k, n)
        c = np.einsum("Naj,jN->Na", Am, u)
        G = Am @ Am.transpose(0, 2, 1)
        lam = np.linalg.solve(G, c[..., None])[..., 0]
        r = np.einsum("Naj,Na->Nj", Am, lam)
        return np.sqrt(np.sum(r * r, axis=1))  # type: ignore[no-any-return]

    def initial_state(self, t0: float, q0: np.ndarray, u0: np.ndarray, x0: np.ndarray, p: Any) -> np.ndarray:
        """The state from natural data (``(n,)`` or ``(n, batch)`` arrays)."""
        return self._init(t0, q0, u0, x0, p)  # type: ignore[no-any-return]

    def project(self, how: str, t0: float, q0: np.ndarray, u0: np.ndarray, p: Any) -> np.ndarray:
        r"""Project ``u0`` onto ``D_{q0} = ker A(q0)``.

        ``"kinetic"``: ``u − M⁻¹Aᵀ(AM⁻¹Aᵀ)⁻¹Au`` with ``M = ∂²L/∂u∂u`` (orthogonal for the kinetic
        metric; the velocity right after an ideal constraint impulse). ``"euclidean"``: the same with
        ``M = I``. ``"frame"``: drop the transverse quasi-velocities, ``u ↦ Σ_α (θ^α u) X_α``.
        """
        n = self.system.dim
        Af = self._A(t0, q0, p) if self._A is not None else None
        if Af is None:
            return u0
        A = Af.reshape(-1, n)
        if how == "frame":
            S = self.system
            if S.form != "reduced":
                raise FramesError("projection 'frame' is available in the reduced form only")
            # the reduced state keeps θ^α(u) only; its u = v^α X_α drops the transverse part
            y0 = self._init(t0, q0, u0, np.zeros(sum(len(s) for s in S.extra_inputs.values())), p)
            obs = self.observe(np.array([t0]), y0.reshape(-1, 1), p)
            return obs["u"][:, 0]  # type: ignore[no-any-return]
        if how == "kinetic":
            if self._M is None:
                raise FramesError(
                    "projection 'kinetic' needs the Lagrangian: pass system= or lagrangian=, or use 'euclidean'"
                )
            M = self._M(t0, q0, u0, p).reshape(n, n)
        elif how == "euclidean":
            M = np.eye(n)
        else:
            raise FramesError(f"unknown projection {how!r}; use 'kinetic', 'euclidean' or 'frame'")
        MiAt = np.linalg.solve(M, A.T)
        lam = np.linalg.solve(A @ MiAt, A @ u0)
        return u0 - MiAt @ lam  # type: ignore[no-any-return]


_LOADED: dict[str, CompiledSystem] = {}


def srepr_key(S: OdeSystem) -> str:
    """A text key identifying an OdeSystem's content (used to reuse compiled code after unpickling)."""
    parts = [S.form, sp.srepr(S.states), sp.srepr(S.rhs), sp.srepr(S.params), sp.srepr(S.initial)]
    parts += [k + sp.srepr(val) for k, val in S.observables.items()]
    parts += [
        sp.srepr(x)
        for x in (S.constraint_matrix, S.metric, S.guard, S.time, S.chart.q, S.chart.u, S.distribution_matrix)
    ]
    parts += [k + sp.srepr(val) for k, val in S.extra_inputs.items()]
    return "|".join(parts)


def _load_compiled(system: OdeSystem, key: str) -> CompiledSystem:
    """Unpickle: reuse code already generated in this process for the same system."""
    hit = _LOADED.get(key)
    return hit if hit is not None else CompiledSystem(system)


_COMPILE_CACHE: weakref.WeakKeyDictionary[Any, dict[Any, tuple[Any, Any, CompiledSystem]]] = weakref.WeakKeyDictionary()
_MODEL_SYSTEMS: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def compile_system(
    field: Any,
    form: str = "reduced",
    *,
    system: NonholonomicSystem | None = None,
    lagrangian: Lagrangian | None = None,
) -> CompiledSystem:
    """Compile (and cache) the numeric system of a field, :class:`NonholonomicSystem`, Model or OdeSystem."""
    if isinstance(field, OdeSystem):
        return field.compile()
    field, system, lagrangian, _ = _resolve(field, system, lagrangian)
    key = (_FORMS.get(form, form), id(system), id(lagrangian))
    per = _COMPILE_CACHE.setdefault(field, {})
    hit = per.get(key)
    if hit is not None:
        sref, lref, comp = hit
        if (sref() if sref is not None else None) is system and (lref() if lref is not None else None) is lagrangian:
            return comp
    comp = CompiledSystem(ode_system(field, form, system=system, lagrangian=lagrangian))
    per[key] = (
        weakref.ref(system) if system is not None else None,
        weakref.ref(lagrangian) if lagrangian is not None else None,
        comp,
    )
    return comp


def _resolve(obj: Any, system: Any, lagrangian: Any) -> tuple[Any, Any, Any, dict[Any, Any]]:
    """(field, system, lagrangian, default params) from a field, NonholonomicSystem or Model."""
    from ._nonholonomic import NonholonomicSystem
    from ._tangent import SecondOrderField

    defaults: dict[Any, Any] = {}
    if hasattr(obj, "nonholonomic") and hasattr(obj, "param_values"):  # a Model
        defaults = dict(obj.param_values)
        if obj not in _MODEL_SYSTEMS:
            _MODEL_SYSTEMS[obj] = obj.nonholonomic()
        obj = _MODEL_SYSTEMS[obj]
    if isinstance(obj, NonholonomicSystem):
        system = obj if system is None else system
        obj = obj.field()
    if not isinstance(obj, SecondOrderField):
        raise InvalidExpressionError(
            f"cannot integrate {obj!r}: expected a SecondOrderField, NonholonomicSystem, Model or OdeSystem"
        )
    return obj, system, lagrangian, defaults


# ----------------------------------------------------------------------------- input checks
def _numbers(vals: list[Any], what: str, chart: Chart | None, params: Mapping[Any, Any] | None) -> list[Any]:
    """Evaluate sympy entries (e.g. a model's ``u0`` written with parameters) at the given parameters."""
    if not any(isinstance(x, sp.Basic) for x in vals):
        return vals
    sub: dict[sp.Symbol, Any] = {}
    if chart is not None:
        byname = {(k.name if isinstance(k, sp.Symbol) else str(k)): val for k, val in (params or {}).items()}
        sub = {s: sp.sympify(byname[s.name]) for s in chart.params if s.name in byname}
    out = []
    for x in vals:
        if isinstance(x, sp.Basic):
            e = x.xreplace(sub)
            if e.free_symbols:
                raise StateError(f"{what}: {x} depends on {sorted(map(str, e.free_symbols))}, which have no values")
            x = float(e)
        out.append(x)
    return out


def _vector(
    x: Any, syms: Sequence[sp.Symbol], what: str, chart: Chart | None = None, params: Mapping[Any, Any] | None = None
) -> np.ndarray:
    n = len(syms)
    if isinstance(x, Mapping):
        byname = {(k.name if isinstance(k, sp.Symbol) else str(k)): val for k, val in x.items()}
        known = {s.name for s in syms}
        unknown = sorted(set(byname) - known)
        if unknown:
            raise StateError(f"{what}: unknown keys {unknown}; expected {sorted(known)}")
        missing = [s.name for s in syms if s.name not in byname]
        if missing:
            raise StateError(f"{what}: missing values for {missing}")
        vals = _numbers([byname[s.name] for s in syms], what, chart, params)
    else:
        if np.ndim(x) > 1:
            raise StateError(f"{what}: expected {n} numbers, got an array of shape {np.shape(x)}")
        vals = _numbers(list(x) if np.ndim(x) == 1 else [x], what, chart, params)
    try:
        arr = np.array(vals, dtype=float)
    except (TypeError, ValueError) as exc:
        raise StateError(f"{what}: not numbers: {vals!r}") from exc
    if arr.shape != (n,):
        raise StateError(f"{what}: expected {n} values ({', '.join(s.name for s in syms)}), got {arr.shape[0]}")
    if not np.all(np.isfinite(arr)):
        raise StateError(f"{what}: not finite: {arr.tolist()}")
    return arr


def _batch_array(x: Any, syms: Sequence[sp.Symbol], what: str) -> np.ndarray:
    """``(B, n)`` data -> ``(n, B)`` array (a dict of per-symbol arrays is accepted)."""
    n = len(syms)
    if isinstance(x, Mapping):
        byname = {(k.name if isinstance(k, sp.Symbol) else str(k)): val for k, val in x.items()}
        missing = [s.name for s in syms if s.name not in byname]
        if missing:
            raise StateError(f"{what}: missing values for {missing}")
        arr = np.array([np.asarray(byname[s.name], dtype=float) for s in syms], dtype=float)
        if arr.ndim != 2:
            raise StateError(f"{what}: every entry must be a 1-d array of equal length")
    else:
        a = np.asarray(x, dtype=float)
        if a.ndim != 2 or a.shape[1] != n:
            raise StateError(f"{what}: expected an array of shape (batch, {n}), got {a.shape}")
        arr = a.T.copy()
    if not np.all(np.isfinite(arr)):
        bad = np.nonzero(~np.all(np.isfinite(arr), axis=0))[0]
        raise StateError(f"{what}: non-finite values in batch members {bad[:10].tolist()}")
    return arr


def _t_span(t_span: Any) -> tuple[float, float]:
    try:
        t0, t1 = (float(x) for x in t_span)
    except (TypeError, ValueError) as exc:
        raise StateError(f"t_span must be a pair of numbers, got {t_span!r}") from exc
    if not (math.isfinite(t0) and math.isfinite(t1)) or t0 == t1:
        raise StateError(f"t_span must be two distinct finite numbers, got {t_span!r}")
    return t0, t1


def _check_consistent(
    comp: CompiledSystem, t0: float, q0: np.ndarray, u0: np.ndarray, p: Any, project: Any, tol: float
) -> tuple[np.ndarray, dict[str, Any] | None]:
    c = comp.constraint_values(t0, q0, u0, p)
    if c is None:
        return u0, None
    scale = max(1.0, float(np.max(np.abs(u0))))
    worst = float(np.max(np.abs(c))) if c.size else 0.0
    if worst <= tol * scale:
        return u0, None
    if not project:
        raise InconsistentInitialDataError(
            f"initial velocities u0 = {u0.tolist()} violate the constraints A(q0) u0 = 0: residuals {c.tolist()} "
            f"(tolerance {tol:g} × {scale:g}); pass project='kinetic', 'euclidean' or 'frame' to project u0 onto D"
        )
    how = "kinetic" if project is True else str(project)
    up = comp.project(how, t0, q0, u0, p)
    after = comp.constraint_values(t0, q0, up, p)
    return up, {
        "method": how,
        "u0_given": u0.copy(),
        "u0_used": up,
        "residual_before": worst,
        "residual_after": float(np.max(np.abs(after))) if after is not None and after.size else 0.0,
    }


def _extras(comp: CompiledSystem, extra0: Mapping[str, Any] | None, batch: int | None) -> np.ndarray:
    S = comp.system
    extra0 = dict(extra0 or {})
    unknown = sorted(set(extra0) - set(S.extra_inputs))
    if unknown:
        raise StateError(f"unknown extra initial data {unknown}; this system takes {sorted(S.extra_inputs)}")
    parts = []
    for name, syms in S.extra_inputs.items():
        if name not in extra0:
            raise StateError(f"missing initial data {name}0 for {[s.name for s in syms]}")
        parts.append(
            _vector(extra0[name], syms, f"{name}0") if batch is None else _batch_array(extra0[name], syms, f"{name}0")
        )
    if not parts:
        return np.zeros((0,) if batch is None else (0, batch))
    return np.concatenate(parts, axis=0)


# ----------------------------------------------------------------------------- trajectories
def _frozen(a: np.ndarray | None) -> np.ndarray | None:
    if a is None:
        return None
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a


@dataclass(frozen=True, eq=False, repr=False)
class Trajectory:
    r"""A computed motion.

    Attributes
    ----------
    t : ndarray, shape (N,)
    q, u, v : ndarray, shape (N, n)
        Coordinates, natural velocities and quasi-velocities ``v = Θ(q) u``.
    state : ndarray, shape (N, n_state)
        The integrated state (``(q, v^α)`` in reduced form, ``(q, u)`` in multiplier form).
    multipliers : ndarray, shape (N, n − m), or None
        ``λ_a`` along the motion (when the system is known).
    energy : ndarray, shape (N,), or None
    constraint_values : ndarray, shape (N, n − m), or None
        ``θ^a_j(q) u^j`` evaluated numerically from ``q`` and ``u``.
    reactions : ndarray, shape (N, n), or None
        The constraint forces in natural coordinates, ``ρ_i = θ^a_i(q) λ_a``, so that
        ``d/dt ∂L/∂u^i − ∂L/∂q^i = ρ_i`` along the motion.
    residual : ndarray, shape (N,)
        The Euclidean distance of ``u`` from ``D_q``, ``|u − X_Dᵀ(X_D X_Dᵀ)⁻¹X_D u|`` with ``X_D`` the
        rows ``X_α^j`` (or ``|Aᵀ(AAᵀ)⁻¹A u|`` with ``A = (θ^a_j)`` when no basis of D is known): it does
        not depend on the choice of the complement ``X_a`` (zeros without constraints).
    extras : dict
        Further observables (``"mu"``, ``"lambda"`` for vakonomic / MVM systems).
    params : dict
        Parameter name -> value used.
    form, method : str
    projection : dict or None
        How ``u0`` was projected onto D, if it was (method, given and used ``u0``, residuals).
    info : dict
        Solver statistics (``nfev``, ``message``, ...).
    names : dict
        Component names for the dataframe and plots.
    """

    t: np.ndarray
    q: np.ndarray
    u: np.ndarray
    v: np.ndarray
    state: np.ndarray
    multipliers: np.ndarray | None
    energy: np.ndarray | None
    constraint_values: np.ndarray | None
    residual: np.ndarray
    extras: dict[str, np.ndarray]
    params: dict[str, float]
    form: str
    method: str
    reactions: np.ndarray | None = None
    projection: dict[str, Any] | None = None
    info: dict[str, Any] = field(default_factory=dict)
    names: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def __repr__(self) -> str:
        return (
            f"Trajectory(form={self.form!r}, method={self.method!r}, N={len(self.t)}, "
            f"t=[{self.t[0]:g}, {self.t[-1]:g}], max residual={float(np.max(self.residual)):.3g})"
        )

    def __len__(self) -> int:
        return len(self.t)

    @property
    def energy_drift(self) -> float:
        """``max |E(t) − E(t0)|`` (nan without energy)."""
        if self.energy is None:
            return float("nan")
        return float(np.max(np.abs(self.energy - self.energy[0])))

    def columns(self) -> dict[str, np.ndarray]:
        """Named 1-d columns: t, q's, u's, v's, energy, multipliers, residual, extras."""
        cols: dict[str, np.ndarray] = {"t": self.t}
        nm = self.names
        n = self.q.shape[1]
        for key, arr in (("q", self.q), ("u", self.u), ("v", self.v)):
            labels = nm.get(key, tuple(f"{key}{i + 1}" for i in range(n)))
            for i, lab in enumerate(labels):
                cols[lab] = arr[:, i]
        if self.energy is not None:
            cols["energy"] = self.energy
        if self.multipliers is not None:
            labels = nm.get("multipliers", tuple(f"lambda{i + 1}" for i in range(self.multipliers.shape[1])))
            for i, lab in enumerate(labels):
                cols[lab] = self.multipliers[:, i]
        cols["residual"] = self.residual
        for key, arr in self.extras.items():
            for i in range(arr.shape[1]):
                cols[f"{key}{i + 1}"] = arr[:, i]
        return cols

    def to_dataframe(self) -> Any:
        """A :class:`pandas.DataFrame` of :meth:`columns` (needs pandas)."""
        try:
            import pandas as pd
        except ImportError as exc:
            raise OptionalDependencyError(
                "Trajectory.to_dataframe needs pandas: pip install pandas (or use Trajectory.columns())"
            ) from exc
        return pd.DataFrame(self.columns())

    def plot(self, path: str | os.PathLike[str], title: str | None = None) -> Path:
        """Plot q, v, energy, multipliers and the residual against t; write to ``path`` (needs matplotlib)."""
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError as exc:
            raise OptionalDependencyError("Trajectory.plot needs matplotlib: pip install matplotlib") from exc
        panels = ["q", "v"] + (["energy"] if self.energy is not None else [])
        panels += ["multipliers"] if self.multipliers is not None else []
        panels += ["residual"] if self.constraint_values is not None else []
        fig, axes = plt.subplots(len(panels), 1, figsize=(7, 2.2 * len(panels)), sharex=True, squeeze=False)
        n = self.q.shape[1]
        for ax, key in zip(axes[:, 0], panels, strict=True):
            if key in ("q", "v"):
                arr = self.q if key == "q" else self.v
                labels = self.names.get(key, tuple(f"{key}{i + 1}" for i in range(n)))
                for i in range(n):
                    if key == "v" and not np.any(arr[:, i]):
                        continue
                    ax.plot(self.t, arr[:, i], label=labels[i])
                ax.legend(fontsize=7, ncol=min(n, 5))
                ax.set_ylabel(key)
            elif key == "energy":
                assert self.energy is not None
                ax.plot(self.t, self.energy - self.energy[0])
                ax.set_ylabel("E − E(0)")
            elif key == "multipliers":
                assert self.multipliers is not None
                labels = self.names.get("multipliers", ())
                for i in range(self.multipliers.shape[1]):
                    ax.plot(self.t, self.multipliers[:, i], label=labels[i] if i < len(labels) else f"λ{i + 1}")
                ax.legend(fontsize=7)
                ax.set_ylabel("λ")
            else:
                ax.semilogy(self.t, np.maximum(self.residual, 1e-20))
                ax.set_ylabel("dist(u, D)\n(1e-20 = exact 0)")
        axes[-1, 0].set_xlabel("t")
        fig.suptitle(title or f"{self.form} form, {self.method}")
        fig.tight_layout()
        out = Path(path)
        fig.savefig(out, dpi=110)
        plt.close(fig)
        return out


def _make_trajectory(
    comp: CompiledSystem,
    t: np.ndarray,
    Y: np.ndarray,
    p: Any,
    method: str,
    projection: dict[str, Any] | None,
    info: dict[str, Any],
    params: dict[str, float],
) -> Trajectory:
    obs = comp.observe(t, Y, p)
    S = comp.system
    q, u = obs["q"], obs["u"]
    cv = comp.constraint_values(t, q, u, p)
    residual = comp.distance_to_D(t, q, u, p) if cv is not None and cv.shape[0] else np.zeros(len(t))
    extras = {k: _frozen(val.T) for k, val in obs.items() if k not in ("q", "u", "v", "energy", "multipliers")}
    reactions = None
    if "multipliers" in obs and comp._A is not None:
        Af = comp._A(t, q, p)
        Am = Af.reshape((Af.shape[0] // S.dim, S.dim, *Af.shape[1:]))
        reactions = np.einsum("ajN,aN->Nj", Am, obs["multipliers"])
    return Trajectory(
        t=_frozen(t),  # type: ignore[arg-type]
        q=_frozen(q.T),  # type: ignore[arg-type]
        u=_frozen(u.T),  # type: ignore[arg-type]
        v=_frozen(obs["v"].T),  # type: ignore[arg-type]
        state=_frozen(Y.T),  # type: ignore[arg-type]
        multipliers=_frozen(obs["multipliers"].T) if "multipliers" in obs else None,
        energy=_frozen(obs["energy"][0]) if "energy" in obs else None,
        constraint_values=_frozen(cv.T) if cv is not None else None,
        residual=_frozen(residual),  # type: ignore[arg-type]
        extras=extras,  # type: ignore[arg-type]
        params=params,
        reactions=_frozen(reactions),
        form=S.form,
        method=method,
        projection=projection,
        info=info,
        names=dict(S.names),
    )


# ----------------------------------------------------------------------------- single integration
def integrate_system(
    comp: CompiledSystem | OdeSystem,
    t_span: Sequence[float],
    q0: Any,
    u0: Any,
    params: Mapping[Any, Any] | None = None,
    *,
    extra0: Mapping[str, Any] | None = None,
    method: str = "RK45",
    rtol: float = 1e-9,
    atol: float = 1e-12,
    t_eval: Any = None,
    max_step: float = np.inf,
    project: bool | str = False,
    constraint_tol: float = 1e-9,
) -> Trajectory:
    """Integrate a compiled system with :func:`scipy.integrate.solve_ivp` (see :func:`integrate`)."""
    from scipy.integrate import solve_ivp

    if isinstance(comp, OdeSystem):
        comp = comp.compile()
    S = comp.system
    t0, t1 = _t_span(t_span)
    p = comp.bind(params)
    qv = _vector(q0, S.chart.q, "q0", S.chart, params)
    uv = _vector(u0, S.chart.u, "u0", S.chart, params)
    x0 = _extras(comp, extra0, None)
    uv, projection = _check_consistent(comp, t0, qv, uv, p, project, constraint_tol)
    y0 = np.asarray(comp.initial_state(t0, qv, uv, x0, p), dtype=float)
    if not np.all(np.isfinite(y0)):
        raise StateError(f"initial state not finite: {y0.tolist()}")
    g0 = comp.guard(t0, y0, p)
    if g0 is not None and (not np.isfinite(g0) or g0 == 0):
        raise SingularityError(
            f"the system is singular at the initial point t = {t0}, state {y0.tolist()} (guard {S.guard} = {g0})",
            t0,
            y0,
        )
    fun = comp.fun(p)
    fun(t0, y0)
    events = None
    if comp.guard_depends_on_state:

        def singular(t: float, y: np.ndarray) -> float:
            return float(comp.guard(t, y, p))  # type: ignore[arg-type]

        singular.terminal = True  # type: ignore[attr-defined]
        events = [singular]
    if t_eval is not None:
        t_eval = np.asarray(t_eval, dtype=float)
    sol = solve_ivp(
        fun, (t0, t1), y0, method=method, rtol=rtol, atol=atol, t_eval=t_eval, events=events, max_step=max_step
    )
    if sol.status == -1:
        tl = float(sol.t[-1]) if len(sol.t) else t0
        yl = sol.y[:, -1] if sol.y.size else y0
        raise IntegrationError(f"solve_ivp ({method}) failed at t = {tl:.17g} of {t1:g}: {sol.message}", tl, yl)
    if sol.status == 1:
        te = float(sol.t_events[0][0])
        ye = sol.y_events[0][0]
        raise SingularityError(
            f"the system becomes singular at t = {te:.12g} (guard {S.guard} changes sign), state {ye.tolist()}",
            te,
            ye,
        )
    info = {"nfev": int(sol.nfev), "njev": int(sol.njev), "message": sol.message, "rtol": rtol, "atol": atol}
    pdict = dict(zip(comp.param_names, np.asarray(p, dtype=float).tolist(), strict=True))
    return _make_trajectory(comp, sol.t, sol.y, p, method, projection, info, pdict)


def integrate(
    field: Any,
    t_span: Sequence[float],
    q0: Any,
    u0: Any,
    params: Mapping[Any, Any] | None = None,
    *,
    form: str = "reduced",
    system: NonholonomicSystem | None = None,
    lagrangian: Lagrangian | None = None,
    method: str = "RK45",
    rtol: float = 1e-9,
    atol: float = 1e-12,
    t_eval: Any = None,
    max_step: float = np.inf,
    project: bool | str = False,
    constraint_tol: float = 1e-9,
    extra0: Mapping[str, Any] | None = None,
    mu0: Any = None,
) -> Trajectory:
    r"""Integrate a second-order field from natural initial data.

    Parameters
    ----------
    field : SecondOrderField, NonholonomicSystem, Model or OdeSystem
        A system or model also supplies multipliers, energy and (for a model) default parameters.
    t_span : (t0, t1)
    q0, u0 : sequence or mapping
        Natural coordinates and velocities, in chart order or keyed by symbol (or name).
    params : mapping, optional
        Parameter symbol or name -> number (overrides a model's ``param_values``).
    form : {"reduced", "multiplier"}
        See :func:`ode_system`. The reduced form ``(q, v^α)`` keeps ``θ^a(u) = 0`` to rounding.
    method, rtol, atol, t_eval, max_step
        Passed to :func:`scipy.integrate.solve_ivp`.
    project : False, True, "kinetic", "euclidean" or "frame"
        What to do with ``u0`` violating the constraints (beyond ``constraint_tol`` relative to
        ``max(1, |u0|_∞)``): False raises :class:`InconsistentInitialDataError`; otherwise ``u0`` is
        projected onto ``D_{q0}`` (True means ``"kinetic"``): ``"kinetic"`` is the orthogonal
        projection for the kinetic metric ``M = ∂²L/∂u∂u``, ``u − M⁻¹Aᵀ(AM⁻¹Aᵀ)⁻¹Au``;
        ``"euclidean"`` the same with ``M = I``; ``"frame"`` keeps the components along ``X_α``
        (``v^a := 0``). The projection is recorded in :attr:`Trajectory.projection`.
    extra0, mu0 : optional
        Further initial data of plug-in systems (``mu0`` is ``extra0={"mu": mu0}``).

    Returns
    -------
    Trajectory

    Raises
    ------
    StateError, ParameterError
        Bad initial data or parameters.
    InconsistentInitialDataError
        ``u0`` not in D and ``project`` is False.
    SingularityError
        Singular Hessian (the guard changes sign or vanishes) or a non-finite right-hand side;
        carries ``t`` and ``state``.
    IntegrationError
        The solver failed; the message is the solver's.
    """
    if mu0 is not None:
        extra0 = dict(extra0 or {}) | {"mu": mu0}
    if isinstance(field, OdeSystem | CompiledSystem):
        comp = field if isinstance(field, CompiledSystem) else field.compile()
        defaults: dict[Any, Any] = {}
    else:
        f, system, lagrangian, defaults = _resolve(field, system, lagrangian)
        comp = compile_system(f, form, system=system, lagrangian=lagrangian)
    allp = _merge_params(defaults, params)
    return integrate_system(
        comp,
        t_span,
        q0,
        u0,
        allp,
        extra0=extra0,
        method=method,
        rtol=rtol,
        atol=atol,
        t_eval=t_eval,
        max_step=max_step,
        project=project,
        constraint_tol=constraint_tol,
    )


def _merge_params(defaults: Mapping[Any, Any], params: Mapping[Any, Any] | None) -> dict[str, Any]:
    out = {(k.name if isinstance(k, sp.Symbol) else str(k)): val for k, val in defaults.items()}
    for k, val in (params or {}).items():
        out[k.name if isinstance(k, sp.Symbol) else str(k)] = val
    return out


# ----------------------------------------------------------------------------- batches
@dataclass(frozen=True, eq=False, repr=False)
class TrajectoryBatch:
    """Many motions on one time grid: arrays with a leading batch axis.

    Attributes
    ----------
    t : ndarray (N,)
    q, u, v : ndarray (B, N, n)
    state : ndarray (B, N, n_state)
    energy : ndarray (B, N) or None
    multipliers : ndarray (B, N, k) or None
    residual : ndarray (B, N)
    params : dict
        Name -> scalar or (B,) array.
    info : dict
        Steps taken, rejected, evaluations.
    """

    t: np.ndarray
    q: np.ndarray
    u: np.ndarray
    v: np.ndarray
    state: np.ndarray
    energy: np.ndarray | None
    multipliers: np.ndarray | None
    residual: np.ndarray
    extras: dict[str, np.ndarray]
    params: dict[str, Any]
    form: str
    method: str
    info: dict[str, Any] = field(default_factory=dict)
    names: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.q.shape[0])

    def __repr__(self) -> str:
        return f"TrajectoryBatch(B={len(self)}, N={len(self.t)}, form={self.form!r}, method={self.method!r})"

    def __getitem__(self, i: int) -> Trajectory:
        pi = {k: (float(np.asarray(val)[i]) if np.ndim(val) else float(val)) for k, val in self.params.items()}
        return Trajectory(
            t=self.t,
            q=self.q[i],
            u=self.u[i],
            v=self.v[i],
            state=self.state[i],
            multipliers=None if self.multipliers is None else self.multipliers[i],
            energy=None if self.energy is None else self.energy[i],
            constraint_values=None,
            residual=self.residual[i],
            extras={k: val[i] for k, val in self.extras.items()},
            params=pi,
            form=self.form,
            method=self.method,
            info=self.info,
            names=self.names,
        )


def _lincomb(coeffs: Any, K: np.ndarray) -> np.ndarray:
    """``Σ_j c_j K[j]`` by in-place element-wise updates (faster than BLAS for tall batches)."""
    out = np.zeros(K.shape[1:])
    for c, k in zip(coeffs, K, strict=False):
        if c != 0:
            out += float(c) * k
    return out


def _rms(x: np.ndarray) -> np.ndarray:
    return np.sqrt(np.mean(x * x, axis=0))  # type: ignore[no-any-return]


def _bad(Y: np.ndarray) -> np.ndarray:
    return ~np.all(np.isfinite(Y), axis=0)  # type: ignore[no-any-return]


def _dp45_batch(
    f: Callable[[float, np.ndarray], np.ndarray],
    t0: float,
    t1: float,
    y0: np.ndarray,
    t_eval: np.ndarray,
    rtol: float,
    atol: float,
    max_steps: int,
) -> tuple[np.ndarray, dict[str, Any]]:
    """Lock-step Dormand–Prince 5(4) over a batch: every member's RMS error norm must be ≤ 1.

    The step-size control is scipy's RK45 (safety 0.9, factors 0.2..10, exponent −1/5); the step is
    common to the batch. Output at ``t_eval`` by the method's 4th-order dense output.
    """
    from scipy.integrate import RK45

    A, Bc, C, E, P = RK45.A, RK45.B, RK45.C, RK45.E, RK45.P
    ns, nb = y0.shape
    out = np.empty((len(t_eval), ns, nb))
    K = np.empty((7, ns, nb))
    y = y0.copy()
    t = t0
    f0 = f(t, y)
    if np.any(_bad(f0)):
        i = int(np.nonzero(_bad(f0))[0][0])
        raise SingularityError(f"right-hand side not finite at t = {t0} for batch member {i}", t0, y0[:, i])
    # initial step (Hairer–Nørsett–Wanner II.4), most restrictive member
    scale = atol + np.abs(y) * rtol
    d0, d1 = _rms(y / scale), _rms(f0 / scale)
    h0 = np.where((d0 < 1e-5) | (d1 < 1e-5), 1e-6, 0.01 * d0 / np.maximum(d1, 1e-300))
    hm = float(np.min(h0))
    f1 = f(t + hm, y + hm * f0)
    d2 = _rms((f1 - f0) / scale) / hm
    dm = np.maximum(d1, d2)
    h1 = np.where(dm <= 1e-15, np.maximum(1e-6, h0 * 1e-3), (0.01 / np.maximum(dm, 1e-300)) ** (1 / 5))
    h = float(min(np.min(100 * h0), np.min(h1), t1 - t0))
    k_out = 0
    while k_out < len(t_eval) and t_eval[k_out] <= t0:
        out[k_out] = y0
        k_out += 1
    nsteps = nrej = 0
    nfev = 2
    rejected = False
    bad_members: np.ndarray | None = None
    while t < t1:
        if nsteps + nrej >= max_steps:
            raise IntegrationError(f"batch RK45: more than {max_steps} steps before t = {t1} (stopped at t = {t})", t)
        if h < 10 * np.spacing(t):
            if bad_members is not None:
                raise SingularityError(
                    f"batch RK45: right-hand side not finite near t = {t} for batch members "
                    f"{bad_members[:10].tolist()}, state of member {int(bad_members[0])}: "
                    f"{y[:, bad_members[0]].tolist()}",
                    t,
                    y[:, bad_members[0]],
                )
            raise IntegrationError(
                f"batch RK45: required step size {h:.3g} is less than spacing between numbers at t = {t}", t
            )
        h = min(h, t1 - t)
        K[0] = f0
        for s in range(1, 6):
            dy = _lincomb(A[s, :s], K[:s]) * h
            K[s] = f(t + C[s] * h, y + dy)
        y_new = y + h * _lincomb(Bc, K[:6])
        f_new = f(t + h, y_new)
        K[6] = f_new
        nfev += 6
        err = h * _lincomb(E, K)
        scale = atol + np.maximum(np.abs(y), np.abs(y_new)) * rtol
        en = _rms(err / scale)
        en = np.where(np.isfinite(en) & ~_bad(f_new), en, np.inf)
        worst = float(np.max(en))
        if worst < 1:
            tn = t + h
            while k_out < len(t_eval) and t_eval[k_out] <= tn:
                x = (t_eval[k_out] - t) / h
                pw = np.array([x, x * x, x**3, x**4])
                out[k_out] = y + h * _lincomb(P @ pw, K)  # dense output: Σ_s K_s Σ_j P[s, j] x^(j+1)
                k_out += 1
            t, y, f0 = tn, y_new, f_new
            nsteps += 1
            fac = 10.0 if worst == 0 else min(10.0, 0.9 * worst ** (-0.2))
            if rejected:
                fac = min(1.0, fac)
            h *= fac
            rejected = False
            bad_members = None
        else:
            nrej += 1
            if not np.isfinite(worst):
                bad_members = np.nonzero(~np.isfinite(en))[0]
                h *= 0.2
            else:
                bad_members = None
                h *= max(0.2, 0.9 * worst ** (-0.2))
            rejected = True
    while k_out < len(t_eval):
        out[k_out] = y
        k_out += 1
    return out, {"steps": nsteps, "rejected": nrej, "nfev": nfev}


def _rk4_batch(
    f: Callable[[float, np.ndarray], np.ndarray], t0: float, t1: float, y0: np.ndarray, t_eval: np.ndarray, n_steps: int
) -> tuple[np.ndarray, dict[str, Any]]:
    """Classical fixed-step RK4 over a batch; output at ``t_eval`` by cubic Hermite interpolation."""
    h = (t1 - t0) / n_steps
    ns, nb = y0.shape
    out = np.empty((len(t_eval), ns, nb))
    y = y0.copy()
    t = t0
    k1 = f(t, y)
    k_out = 0
    while k_out < len(t_eval) and t_eval[k_out] <= t0:
        out[k_out] = y0
        k_out += 1
    for i in range(n_steps):
        k2 = f(t + h / 2, y + h / 2 * k1)
        k3 = f(t + h / 2, y + h / 2 * k2)
        k4 = f(t + h, y + h * k3)
        y_new = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        tn = t0 + (i + 1) * h
        f_new = f(tn, y_new)
        bad = _bad(y_new) | _bad(f_new)
        if np.any(bad):
            j = int(np.nonzero(bad)[0][0])
            raise SingularityError(
                f"batch RK4: state or right-hand side not finite at t = {tn} for batch members "
                f"{np.nonzero(bad)[0][:10].tolist()}; last finite state of member {j}: {y[:, j].tolist()}",
                t,
                y[:, j],
            )
        while k_out < len(t_eval) and t_eval[k_out] <= tn:
            s = (t_eval[k_out] - t) / h
            h00, h10, h01, h11 = 2 * s**3 - 3 * s**2 + 1, s**3 - 2 * s**2 + s, -2 * s**3 + 3 * s**2, s**3 - s**2
            out[k_out] = h00 * y + h10 * h * k1 + h01 * y_new + h11 * h * f_new
            k_out += 1
        t, y, k1 = tn, y_new, f_new
    while k_out < len(t_eval):
        out[k_out] = y
        k_out += 1
    return out, {"steps": n_steps, "rejected": 0, "nfev": 4 * n_steps + 1}


def integrate_batch(
    field: Any,
    t_span: Sequence[float],
    q0: Any,
    u0: Any,
    params: Mapping[Any, Any] | None = None,
    *,
    form: str = "reduced",
    system: NonholonomicSystem | None = None,
    lagrangian: Lagrangian | None = None,
    method: str = "RK45",
    rtol: float = 1e-9,
    atol: float = 1e-12,
    n_steps: int | None = None,
    t_eval: Any = None,
    project: bool | str = False,
    constraint_tol: float = 1e-9,
    extra0: Mapping[str, Any] | None = None,
    max_steps: int = 1_000_000,
) -> TrajectoryBatch:
    r"""Integrate many initial conditions / parameter sets in one vectorised run.

    Parameters
    ----------
    field : as for :func:`integrate`
    q0, u0 : array (B, n), or mapping symbol -> array (B,)
        One row per batch member.
    params : mapping
        Symbol or name -> number or array (B,) (a parameter sweep in one run).
    method : {"RK45", "RK4"}
        ``"RK45"``: adaptive Dormand–Prince 5(4) with a step common to the batch, accepted only when
        *every* member's error norm (scipy's RMS norm with ``rtol``, ``atol``) is ≤ 1 — so each
        member meets the tolerance of a per-trajectory ``solve_ivp(method="RK45")``.
        ``"RK4"``: classical fixed-step Runge–Kutta with ``n_steps`` steps.
    t_eval : array, optional
        Output times (default: 101 equally spaced points).

    Returns
    -------
    TrajectoryBatch
    """
    if isinstance(field, OdeSystem | CompiledSystem):
        comp = field if isinstance(field, CompiledSystem) else field.compile()
        defaults: dict[Any, Any] = {}
    else:
        f, system, lagrangian, defaults = _resolve(field, system, lagrangian)
        comp = compile_system(f, form, system=system, lagrangian=lagrangian)
    S = comp.system
    t0, t1 = _t_span(t_span)
    if t1 < t0:
        raise StateError(f"integrate_batch: t_span must be increasing, got {t_span!r}")
    Q0 = _batch_array(q0, S.chart.q, "q0")
    U0 = _batch_array(u0, S.chart.u, "u0")
    if Q0.shape != U0.shape:
        raise StateError(f"q0 and u0 batches differ: {Q0.shape[1]} and {U0.shape[1]} members")
    nb = Q0.shape[1]
    pd_ = _merge_params(defaults, params)
    p = comp.bind(pd_, batch=nb)
    X0 = _extras(comp, extra0, nb)
    c = comp.constraint_values(t0, Q0, U0, p)
    if c is not None and c.size:
        scale = np.maximum(1.0, np.max(np.abs(U0), axis=0))
        bad = np.nonzero(np.max(np.abs(c), axis=0) > constraint_tol * scale)[0]
        if bad.size:
            if not project:
                raise InconsistentInitialDataError(
                    f"initial velocities of batch members {bad[:10].tolist()} violate the constraints "
                    f"(max residual {float(np.max(np.abs(c))):.3g}); pass project= to project them onto D"
                )
            how = "kinetic" if project is True else str(project)
            for jb in bad:
                pj = p if p.ndim == 1 else p[:, jb]
                U0[:, jb] = comp.project(how, t0, Q0[:, jb], U0[:, jb], pj)
    Y0 = np.asarray(comp.initial_state(t0, Q0, U0, X0, p), dtype=float)
    te = np.linspace(t0, t1, 101) if t_eval is None else np.asarray(t_eval, dtype=float)
    if te.ndim != 1 or np.any(np.diff(te) < 0) or te[0] < t0 or te[-1] > t1:
        raise StateError("t_eval must be increasing and inside t_span")
    g0 = comp.guard(t0, Y0, p)
    if g0 is not None:
        g0 = np.broadcast_to(g0, (nb,))
        badg = np.nonzero(~np.isfinite(g0) | (g0 == 0))[0]
        if badg.size:
            raise SingularityError(f"singular initial point for batch members {badg[:10].tolist()}", t0, Y0[:, badg[0]])
    fb = comp.fun_batch(p)
    meth = method.upper()
    if meth == "RK45":
        Ys, info = _dp45_batch(fb, t0, t1, Y0, te, rtol, atol, max_steps)
    elif meth == "RK4":
        if n_steps is None or n_steps < 1:
            raise StateError("integrate_batch(method='RK4') needs n_steps >= 1")
        Ys, info = _rk4_batch(fb, t0, t1, Y0, te, int(n_steps))
    else:
        raise FramesError(f"integrate_batch: unknown method {method!r}; use 'RK45' or 'RK4'")
    if comp.guard_depends_on_state:
        G = np.broadcast_to(
            np.asarray(comp.guard(te[:, None], Ys.transpose(1, 0, 2), p[:, None] if p.ndim == 2 else p)), (len(te), nb)
        )
        flips = np.nonzero(np.any(np.sign(G) != np.sign(G[0]), axis=0))[0]
        if flips.size:
            j = int(flips[0])
            k = int(np.nonzero(np.sign(G[:, j]) != np.sign(G[0, j]))[0][0])
            raise SingularityError(
                f"the system becomes singular (guard {S.guard} changes sign) between t = {te[k - 1]} and "
                f"{te[k]} for batch members {flips[:10].tolist()}",
                float(te[k]),
                Ys[k, :, j],
            )
    # observables on all (time, member) pairs
    N = len(te)
    Yf = Ys.transpose(1, 2, 0).reshape(S.n_state, nb * N)  # member-major
    tf = np.tile(te, nb)
    pf = np.repeat(p, N, axis=1) if p.ndim == 2 else p
    obs = comp.observe(tf, Yf, pf)

    def shape3(a: np.ndarray) -> np.ndarray:
        return a.reshape(a.shape[0], nb, N).transpose(1, 2, 0)

    cv = comp.constraint_values(tf, obs["q"], obs["u"], pf)
    res = (
        comp.distance_to_D(tf, obs["q"], obs["u"], pf).reshape(nb, N)
        if cv is not None and cv.shape[0]
        else np.zeros((nb, N))
    )
    params_out = {k: (np.asarray(val) if np.ndim(val) else float(val)) for k, val in pd_.items()}
    return TrajectoryBatch(
        t=_frozen(te),  # type: ignore[arg-type]
        q=_frozen(shape3(obs["q"])),  # type: ignore[arg-type]
        u=_frozen(shape3(obs["u"])),  # type: ignore[arg-type]
        v=_frozen(shape3(obs["v"])),  # type: ignore[arg-type]
        state=_frozen(Ys.transpose(2, 0, 1)),  # type: ignore[arg-type]
        energy=_frozen(obs["energy"][0].reshape(nb, N)) if "energy" in obs else None,
        multipliers=_frozen(shape3(obs["multipliers"])) if "multipliers" in obs else None,
        residual=_frozen(res),  # type: ignore[arg-type]
        extras={
            k: _frozen(shape3(val))  # type: ignore[misc]
            for k, val in obs.items()
            if k not in ("q", "u", "v", "energy", "multipliers")
        },
        params=params_out,
        form=S.form,
        method=meth,
        info=info | {"rtol": rtol, "atol": atol},
        names=dict(S.names),
    )


# ----------------------------------------------------------------------------- sweeps
def grid_points(grid: Mapping[str, Sequence[Any]] | Iterable[Any]) -> list[Any]:
    """The points of a grid: a mapping ``name -> values`` gives the Cartesian product as dicts
    (last name fastest); any other iterable is taken as the list of points."""
    if isinstance(grid, Mapping):
        keys = list(grid)
        return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*(list(grid[k]) for k in keys))]
    return list(grid)


def sweep(
    func: Callable[[Any], Any],
    grid: Mapping[str, Sequence[Any]] | Iterable[Any],
    executor: Executor | None = None,
    *,
    max_workers: int | None = None,
) -> list[Any]:
    """Run ``func(point)`` for every grid point through a :class:`concurrent.futures.Executor`.

    Parameters
    ----------
    func : callable
        Must be picklable for a process pool (a module-level function or an :class:`IntegrateJob`).
    grid : mapping or iterable
        See :func:`grid_points`.
    executor : Executor, optional
        Default: a :class:`~concurrent.futures.ProcessPoolExecutor` created and shut down here. Any
        executor with ``submit`` works unchanged, e.g. a dask ``Client.get_executor()``.

    Returns
    -------
    list
        Results in grid order.
    """
    points = grid_points(grid)
    own = executor is None
    ex: Executor = (
        ProcessPoolExecutor(max_workers=max_workers or max(1, min(len(points), os.cpu_count() or 1)))
        if executor is None
        else executor
    )
    try:
        futures = [ex.submit(func, pt) for pt in points]
        return [fu.result() for fu in futures]
    finally:
        if own:
            ex.shutdown()


@dataclass(frozen=True)
class IntegrateJob:
    """A picklable job for :func:`sweep`: integrate one grid point.

    ``job(point)`` merges ``point`` (parameter name -> value; the keys ``"q0"``, ``"u0"`` replace the
    initial data) into ``params`` and returns the :class:`Trajectory` (or, with ``final_only``, the
    final state as an array).
    """

    compiled: CompiledSystem
    t_span: tuple[float, float]
    q0: Any
    u0: Any
    params: Mapping[str, Any] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    final_only: bool = False

    def __call__(self, point: Mapping[str, Any]) -> Any:
        pt = dict(point)
        q0 = pt.pop("q0", self.q0)
        u0 = pt.pop("u0", self.u0)
        tr = integrate_system(self.compiled, self.t_span, q0, u0, _merge_params(self.params, pt), **self.options)
        return np.array(tr.state[-1]) if self.final_only else tr
