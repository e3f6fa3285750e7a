"""Integration: one trajectory (:func:`integrate`, :func:`integrate_system`) and batches (:func:`integrate_batch`).

Importing this module installs :func:`integrate` as :meth:`frames.SecondOrderField.integrate`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ..dynamics._lagrangian import Lagrangian
from ..dynamics._nonholonomic import NonholonomicSystem
from ..errors import (
    ArgumentError,
    InconsistentInitialDataError,
    InvalidExpressionError,
    OptionError,
    SingularFrameError,
    SingularityError,
    StateError,
)
from ._compiled import CompiledSystem
from ._inputs import (
    _batch_array,
    _check_consistent,
    _check_dense_output,
    _check_events,
    _check_n_steps,
    _check_options,
    _check_solver_options,
    _check_t_eval,
    _extras,
    _merge_params,
    _natural_event,
    _resolve,
    _scipy_only,
    _singular_frame_message,
    _t_span,
    _vector,
    compile_system,
)
from ._lda import LDAScheme, lda_midpoint
from ._numba import dp45_numba, integrate_one, rk4_numba
from ._progress import ProgressBar
from ._rk import SOLVERS, dp45_batch, rk4_batch, solve_single
from ._system import OdeSystem
from ._trajectory import Trajectory, TrajectoryBatch, _frozen, _make_trajectory

__all__ = ["DEFAULT_MAX_STEPS", "DEFAULT_TIMEOUT", "integrate", "integrate_batch", "integrate_system"]

DEFAULT_MAX_STEPS = 1_000_000  # accepted solver steps
DEFAULT_TIMEOUT = 600.0  # wall-clock seconds


# ----------------------------------------------------------------------------- single integration
def _initial_data(
    comp: CompiledSystem,
    t0: float,
    q0: Any,
    u0: Any,
    params: Mapping[Any, Any] | None,
    extra0: Mapping[str, Any] | None,
    project: bool | str,
    constraint_tol: float,
) -> tuple[np.ndarray, np.ndarray, dict[str, Any] | None]:
    """``(p, y0, projection)``: parameters bound, initial data checked (and projected) and the initial state."""
    S = comp.system
    p = comp.bind(params)
    qv = _vector(q0, S.chart.q, "q0", S.chart, params)
    uv = _vector(u0, S.chart.u, "u0", S.chart, params)
    x0 = _extras(comp, extra0, None)
    uv, projection = _check_consistent(comp, t0, qv, uv, p, project, constraint_tol)
    y0 = np.asarray(comp.initial_state(t0, qv, uv, x0, p), dtype=float)
    if not np.all(np.isfinite(y0)):
        raise StateError(f"initial state not finite: {y0.tolist()}")
    return p, y0, projection


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
    max_steps: int = DEFAULT_MAX_STEPS,
    timeout: float | None = DEFAULT_TIMEOUT,
    events: Any = None,
    dense_output: bool = False,
    solver_options: Mapping[str, Any] | None = None,
) -> Trajectory:
    """Integrate a compiled system with one of scipy's solvers, under a budget (see :func:`integrate`)."""
    if isinstance(comp, OdeSystem):
        comp = comp.compile()
    if not isinstance(comp, CompiledSystem):
        raise InvalidExpressionError(f"integrate_system: {comp!r} is not an OdeSystem or CompiledSystem")
    S = comp.system
    method = _check_options(
        "integrate",
        method=method,
        methods=SOLVERS,
        rtol=rtol,
        atol=atol,
        max_step=max_step,
        max_steps=max_steps,
        timeout=timeout,
    )
    _check_dense_output("integrate", dense_output)
    opts = _check_solver_options("integrate", method, solver_options)
    evs = _check_events("integrate", events)
    t0, t1 = _t_span(t_span)
    t_eval = _check_t_eval("integrate", t_eval, t0, t1)
    p, y0, projection = _initial_data(comp, t0, q0, u0, params, extra0, project, constraint_tol)
    comp.check_initial_guard(t0, y0, p)
    fun = comp.fun(p)
    fun(t0, y0)

    def guard(t: float, y: np.ndarray) -> float:
        return float(comp.guard(t, y, p))  # type: ignore[arg-type]

    res = solve_single(
        fun,
        t0,
        t1,
        y0,
        method=method,
        rtol=rtol,
        atol=atol,
        max_step=max_step,
        t_eval=t_eval,
        guard=guard if comp.guard_depends_on_state else None,
        guard_label=str(S.guard),
        max_steps=max_steps,
        timeout=timeout,
        events=[(_natural_event(comp, p, ev, k), n_max, d) for k, (ev, n_max, d) in enumerate(evs)],
        dense_output=bool(dense_output),
        solver_options=opts,
    )
    info = res.info | {"rtol": rtol, "atol": atol}
    if opts:
        info["solver_options"] = dict(opts)
    pdict = dict(zip(comp.param_names, np.asarray(p, dtype=float).tolist(), strict=True))
    return _make_trajectory(
        comp,
        res.t,
        res.y,
        p,
        method,
        projection,
        info,
        pdict,
        status=res.status,
        message=res.message,
        sol=res.sol,
        t_events=res.t_events if evs else None,
        y_events=res.y_events if evs else None,
    )


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
    max_steps: int = DEFAULT_MAX_STEPS,
    timeout: float | None = DEFAULT_TIMEOUT,
    step: float | None = None,
    backend: str = "numpy",
    events: Any = None,
    dense_output: bool = False,
    solver_options: Mapping[str, Any] | None = None,
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
    method : {"RK45", "RK23", "DOP853", "Radau", "BDF", "LSODA", "lda-midpoint"}
        One of scipy's solvers (use "Radau" or "BDF" for stiff systems), or ``"lda-midpoint"``: the
        discrete Lagrange–d'Alembert integrator of Cortés–Martínez (2001) in the midpoint form of
        McLachlan–Perlmutter (2006) (:mod:`frames.numeric._lda`): fixed step ``step``, constraints
        exact at the nodes, symmetric; it needs a system (the Lagrangian and the constraints), an
        autonomous L, and returns the nodes ``t0 + k h`` (``t_eval``, ``rtol``, ``atol`` unused).
    step : float, optional
        The fixed step of ``method="lda-midpoint"`` (required there; the step used is
        ``(t1 − t0)/ceil((t1 − t0)/step)``).
    backend : {"numpy", "numba"}
        ``"numba"`` (needs the ``numba`` extra) runs ``method="RK45"`` as a jitted Dormand–Prince 5(4)
        with a jitted right-hand side (:mod:`frames.numeric._numba`), no Python call per step; the output
        is at ``t_eval`` (default 101 equally spaced times) and a state-dependent guard is checked there.
    rtol, atol, t_eval, max_step
        As for :func:`scipy.integrate.solve_ivp`; ``t_eval`` must be finite, sorted and inside ``t_span``.
    max_steps : int
        At most this many accepted solver steps (default 10⁶).
    timeout : float or None
        At most this many wall-clock seconds (default 600; None for no limit).
    project : False, True, "kinetic", "euclidean" or "frame"
        What to do with ``u0`` violating the constraints (beyond ``constraint_tol`` relative to
        ``max(1, |u0|_∞)``): False raises :class:`InconsistentInitialDataError`; otherwise ``u0`` is
        projected onto ``D_{q0}`` (True means ``"kinetic"``): ``"kinetic"`` is the orthogonal
        projection for the kinetic metric ``M = ∂²L/∂u∂u``, ``u − M⁻¹Aᵀ(AM⁻¹Aᵀ)⁻¹Au``;
        ``"euclidean"`` the same with ``M = I``; ``"frame"`` keeps the components along ``X_α``
        (``v^a := 0``). The projection is recorded in :attr:`Trajectory.projection`.
    extra0, mu0 : optional
        Further initial data of plug-in systems (``mu0`` is ``extra0={"mu": mu0}``).
    events : callable or sequence of callables, optional
        Event functions ``event(t, q, u) -> float`` in **natural** coordinates (``q``, ``u`` arrays
        in chart order, whatever the internal state): an event occurs where its value crosses zero,
        located as in :func:`scipy.integrate.solve_ivp` (Brent's method on the step's dense output,
        to ``4 ε``). The attributes of :func:`~scipy.integrate.solve_ivp` apply: ``event.terminal``
        (True: stop at the first occurrence; a positive integer ``k``: at the ``k``-th) and
        ``event.direction`` (> 0 upward crossings only, < 0 downward only, 0 both). Results in
        :attr:`Trajectory.t_events`, :attr:`Trajectory.y_events` (natural ``(q, u)`` rows) and
        :attr:`Trajectory.status` (1 when a terminal event stopped the run; with ``t_eval=None`` the
        last sample is then at the event, with ``t_eval`` the samples stop before it). Only for scipy's
        methods.
    dense_output : bool, default False
        Keep every step's interpolant: :attr:`Trajectory.sol` is then a :class:`DenseOutput`,
        ``sol(t)`` the state (layout of :attr:`Trajectory.state`) at any ``t`` of the run, as
        ``solve_ivp(dense_output=True).sol``. Off by default (it holds one interpolant per step);
        ``sol`` is None without it. Only for scipy's methods (``"lda-midpoint"`` and
        ``backend="numba"`` have no dense output and refuse ``dense_output=True``).
    solver_options : mapping, optional
        Further keyword options of the scipy solver class, passed to its constructor as
        ``solve_ivp(**options)`` does: e.g. ``first_step`` (every method), ``jac``, ``jac_sparsity``
        (``Radau``, ``BDF``, ``LSODA``; in the internal state's coordinates), ``min_step``, ``lband``,
        ``uband`` (``LSODA``). A key the chosen solver does not accept, a non-str key, a key that is a
        parameter here (``rtol``, ``atol``, ``t_eval``, ``max_step``, ``method``, ``events``,
        ``dense_output``) and ``vectorized`` are refused (:class:`OptionError` naming the key).

    Returns
    -------
    Trajectory
        With :attr:`~Trajectory.status` and :attr:`~Trajectory.message` (``"lda-midpoint"`` and
        ``backend="numba"`` always report status 0 and name the method).

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
        The solver failed (the message is the solver's), or an event raised or returned something
        other than one finite number (the message names ``events[k]``); carries ``t`` and ``state``.
    IntegrationBudgetError
        ``max_steps`` or ``timeout`` exceeded; carries ``t`` and ``state``.
    OptionalDependencyError
        ``backend="numba"`` without numba installed (``pip install 'frames[numba]'``).
    OptionError
        An invalid ``method``, tolerance, ``max_step``, ``max_steps``, ``timeout``, ``t_eval`` or ``backend``;
        ``method="lda-midpoint"`` without a positive finite ``step``, with ``t_eval`` or another
        backend, for an ODE without its system, or with a time-dependent Lagrangian; ``step`` given
        to another method; a non-callable ``events[k]`` or a bad ``terminal`` / ``direction``
        attribute; a refused ``solver_options`` key; ``dense_output`` not a bool; ``events``,
        ``solver_options`` or ``dense_output=True`` with ``"lda-midpoint"`` or ``backend="numba"``.

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.knife_edge()
    >>> tr = fr.integrate(mdl, (0, 1), mdl.q0, mdl.u0, method="lda-midpoint", step=0.1)
    >>> len(tr.t), tr.info["nsteps"], bool(tr.residual.max() < 1e-12)
    (11, 10, True)

    An event in natural coordinates, terminal, with the dense output kept:

    >>> def x_reaches_half(t, q, u):
    ...     return q[1] - 0.5
    >>> x_reaches_half.terminal = True
    >>> tr = fr.integrate(mdl, (0, 5), mdl.q0, mdl.u0, events=x_reaches_half, dense_output=True)
    >>> tr.status, tr.message
    (1, 'A termination event occurred.')
    >>> bool(tr.t[-1] == tr.t_events[0][0]), bool(abs(tr.y_events[0][0, 1] - 0.5) < 1e-12)
    (True, True)
    >>> bool(abs(tr.sol(tr.t[-1])[1] - 0.5) < 1e-12)
    True
    """
    if mu0 is not None:
        extra0 = dict(extra0 or {}) | {"mu": mu0}
    lda = isinstance(method, str) and method.lower() == "lda-midpoint"
    if lda or (isinstance(backend, str) and backend.lower() == "numba"):
        _scipy_only("method='lda-midpoint'" if lda else "backend='numba'", events, dense_output, solver_options)
    if lda:
        if backend != "numpy":
            raise OptionError(f"integrate: method='lda-midpoint' has no backend={backend!r}; use backend='numpy'")
        return _integrate_lda(
            field, t_span, q0, u0, params, system, lagrangian, step, project, constraint_tol, t_eval, max_steps, timeout
        )
    backend = _check_backend("integrate", backend)
    if backend == "numba":
        return _integrate_numba(
            field,
            t_span,
            q0,
            u0,
            params,
            form,
            system,
            lagrangian,
            method,
            rtol,
            atol,
            t_eval,
            project,
            constraint_tol,
            extra0,
            max_steps,
            timeout,
            step,
            max_step,
        )
    if step is not None:
        raise OptionError(
            f"integrate: step={step!r} is the fixed step of method='lda-midpoint'; {method!r} chooses its own steps (max_step= bounds them)"
        )
    comp, allp = _compiled_and_params(field, form, system, lagrangian, params)
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
        max_steps=max_steps,
        timeout=timeout,
        events=events,
        dense_output=dense_output,
        solver_options=solver_options,
    )


def _compiled_and_params(
    field: Any, form: str, system: Any, lagrangian: Any, params: Mapping[Any, Any] | None
) -> tuple[CompiledSystem, dict[Any, Any]]:
    """The compiled system of ``field`` (an ODE, field, system or model) and its parameters (model defaults first)."""
    if isinstance(field, OdeSystem | CompiledSystem):
        comp = field if isinstance(field, CompiledSystem) else field.compile()
        return comp, _merge_params({}, params)
    f, system, lagrangian, defaults = _resolve(field, system, lagrangian)
    return compile_system(f, form, system=system, lagrangian=lagrangian), _merge_params(defaults, params)


def _check_backend(what: str, backend: Any) -> str:
    if not isinstance(backend, str) or backend.lower() not in ("numpy", "numba"):
        raise OptionError(f"{what}: backend={backend!r} is not one of ['numpy', 'numba']")
    return backend.lower()


def _integrate_numba(
    field: Any,
    t_span: Sequence[float],
    q0: Any,
    u0: Any,
    params: Mapping[Any, Any] | None,
    form: str,
    system: NonholonomicSystem | None,
    lagrangian: Lagrangian | None,
    method: str,
    rtol: float,
    atol: float,
    t_eval: Any,
    project: bool | str,
    constraint_tol: float,
    extra0: Mapping[str, Any] | None,
    max_steps: int,
    timeout: float | None,
    step: Any,
    max_step: float = np.inf,
) -> Trajectory:
    """``integrate(..., backend="numba")``: one member of the jitted batch integrator."""
    if step is not None:
        raise OptionError("integrate: step= is the fixed step of method='lda-midpoint', not of backend='numba'")
    meth = _check_options(
        "integrate",
        method=method,
        methods=("RK45",),
        rtol=rtol,
        atol=atol,
        max_step=max_step,
        max_steps=max_steps,
        timeout=timeout,
    )
    comp, allp = _compiled_and_params(field, form, system, lagrangian, params)
    t0, t1 = _t_span(t_span)
    if not t1 > t0:
        raise StateError(f"integrate: backend='numba' integrates forward: t_span={t_span!r} must be increasing")
    te = np.linspace(t0, t1, 101) if t_eval is None else _check_t_eval("integrate", t_eval, t0, t1)
    assert te is not None
    p, y0, projection = _initial_data(comp, t0, q0, u0, allp, extra0, project, constraint_tol)
    Y, info = integrate_one(comp, t0, t1, y0, p, te, rtol, atol, max_steps, timeout, max_step)
    info |= {"rtol": rtol, "atol": atol}
    pdict = dict(zip(comp.param_names, np.asarray(p, dtype=float).tolist(), strict=True))
    message = "backend='numba' (jitted Dormand–Prince 5(4)) reached the end of the integration interval."
    return _make_trajectory(comp, te, Y, p, meth, projection, info, pdict, status=0, message=message)


def _lda_options(what: str, step: Any, t_eval: Any, backend: Any, field: Any, max_steps: Any, timeout: Any) -> None:
    """Options of ``method="lda-midpoint"``: a positive finite ``step``, no ``t_eval``, the NumPy backend, a system."""
    if step is None:
        raise OptionError(f"{what}: method='lda-midpoint' needs the fixed step: pass step=<seconds>")
    if (
        isinstance(step, bool)
        or not isinstance(step, int | float | np.floating)
        or not (np.isfinite(step) and step > 0)
    ):
        raise OptionError(f"{what}: step={step!r} must be a positive finite number")
    if t_eval is not None:
        raise OptionError(f"{what}: method='lda-midpoint' returns the nodes t0 + k h; t_eval is not supported")
    if backend != "numpy":
        raise OptionError(f"{what}: method='lda-midpoint' has no backend={backend!r}; use backend='numpy'")
    if isinstance(field, OdeSystem | CompiledSystem):
        raise OptionError(f"{what}: method='lda-midpoint' needs a system (its Lagrangian and constraints), not an ODE")
    _check_options(what, method="RK45", methods=SOLVERS, rtol=1e-9, atol=1e-12, max_steps=max_steps, timeout=timeout)


def _integrate_lda(
    field: Any,
    t_span: Sequence[float],
    q0: Any,
    u0: Any,
    params: Mapping[Any, Any] | None,
    system: NonholonomicSystem | None,
    lagrangian: Lagrangian | None,
    step: Any,
    project: bool | str,
    constraint_tol: float,
    t_eval: Any,
    max_steps: int,
    timeout: float | None,
) -> Trajectory:
    """``integrate(..., method="lda-midpoint")``: see :mod:`frames.numeric._lda`."""
    _lda_options("integrate", step, t_eval, "numpy", field, max_steps, timeout)
    f, system, lagrangian, defaults = _resolve(field, system, lagrangian)
    if lagrangian is None and system is not None:
        lagrangian = system.lagrangian
    if system is None or lagrangian is None:
        raise OptionError(
            "integrate: method='lda-midpoint' needs a NonholonomicSystem or a Model (the Lagrangian and the constraints)"
        )
    if lagrangian.time_dependent:
        raise OptionError(
            "integrate: method='lda-midpoint' needs an autonomous Lagrangian (L depends on t); "
            "use method='RK45' or another scipy solver"
        )
    comp = compile_system(f, "multiplier", system=system, lagrangian=lagrangian)
    S = comp.system
    allp = _merge_params(defaults, params)
    t0, t1 = _t_span(t_span)
    if not t1 > t0:
        raise StateError(f"integrate: method='lda-midpoint' integrates forward: t_span={t_span!r} must be increasing")
    p, y0, projection = _initial_data(comp, t0, q0, u0, allp, None, project, constraint_tol)
    n = S.chart.dim
    qv, uv = y0[:n], y0[n : 2 * n]  # the multiplier form's state is (q, u)
    scheme = LDAScheme(lagrangian, system.frame, system.m, S.params)
    ts, Q, U, info = lda_midpoint(scheme, t0, t1, qv, uv, p, float(step), max_steps=max_steps, timeout=timeout)
    Y = np.vstack([Q.T, U.T])
    pdict = dict(zip(comp.param_names, np.asarray(p, dtype=float).tolist(), strict=True))
    message = (
        f"method='lda-midpoint' reached the end of the integration interval "
        f"({info.get('nsteps', len(ts) - 1)} steps of h = {info.get('step', float(step)):.6g})."
    )
    return _make_trajectory(comp, ts, Y, p, "lda-midpoint", projection, info, pdict, status=0, message=message)


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
    max_steps: int = DEFAULT_MAX_STEPS,
    timeout: float | None = DEFAULT_TIMEOUT,
    backend: str = "numpy",
    step: float | None = None,
    progress: bool | None = None,
) -> TrajectoryBatch:
    r"""Integrate many initial conditions / parameter sets in one vectorised run.

    Parameters
    ----------
    field : as for :func:`integrate`
    q0, u0 : array (B, n), or mapping symbol -> array (B,)
        One row per batch member.
    params : mapping
        Symbol or name -> number or array (B,) (a parameter sweep in one run).
    method : {"RK45", "RK4", "lda-midpoint"}
        ``"RK45"``: adaptive Dormand–Prince 5(4) with a step common to the batch, accepted only when
        *every* member's error norm (scipy's RMS norm with ``rtol``, ``atol``) is ≤ 1 — so each
        member meets the tolerance of a per-trajectory ``solve_ivp(method="RK45")``.
        ``"RK4"``: classical fixed-step Runge–Kutta with ``n_steps`` steps.
        ``"lda-midpoint"``: the discrete Lagrange–d'Alembert integrator with the fixed step ``step``,
        member by member, as in :func:`integrate`.
    t_eval : array, optional
        Output times (default: 101 equally spaced points).
    max_steps, timeout
        Budget of steps (accepted and rejected, for RK45) and wall seconds; exceeding either raises
        :class:`IntegrationBudgetError` with the time and the state of the first member.
    step : float, optional
        The fixed step of ``method="lda-midpoint"`` (each member is run by the discrete
        Lagrange–d'Alembert integrator, :mod:`frames.numeric._lda`; output at the nodes).
    backend : {"numpy", "numba"}
        ``"numba"`` (the ``numba`` extra): a jitted right-hand side and jitted RK4 / Dormand–Prince 5(4)
        kernels, members in parallel (``prange``); RK45 then controls the step per member
        (:mod:`frames.numeric._numba`).
    progress : bool or None, default None
        A :mod:`tqdm` bar on stderr, as :func:`sweep`'s: ``True`` always, ``None`` only when stderr is a
        terminal, ``False`` never. The NumPy ``"RK45"`` and ``"RK4"`` paths step all members together,
        so the bar follows the common time ``t`` from ``t0`` to ``t1`` (one update per step);
        ``"lda-midpoint"`` runs the members one after another and counts them; ``backend="numba"``
        runs inside one jitted call and completes the bar (counting members) when it returns.

    Returns
    -------
    TrajectoryBatch

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.knife_edge()
    >>> q0 = [[0.0, 0.0, 0.0], [0.3, 0.0, 0.0]]  # (phi, x, y) of two knife edges
    >>> u0 = [[0.5, 1.0, 0.0], [0.5, 0.955336489125606, 0.29552020666133955]]  # rolling along phi
    >>> tb = fr.integrate_batch(mdl, (0, 1), q0, u0, progress=False)
    >>> tb.q.shape
    (2, 101, 3)
    """
    if progress is not None and not isinstance(progress, bool):
        raise ArgumentError(f"integrate_batch: progress: expected True, False or None, got {progress!r}")
    lda = isinstance(method, str) and method.lower() == "lda-midpoint"
    if lda:
        _lda_options("integrate_batch", step, t_eval, backend, field, max_steps, timeout)
        form = "multiplier"
    elif step is not None:
        raise OptionError(f"integrate_batch: step={step!r} is the fixed step of method='lda-midpoint'")
    if isinstance(field, OdeSystem | CompiledSystem):
        comp = field if isinstance(field, CompiledSystem) else field.compile()
        defaults: dict[Any, Any] = {}
    else:
        f, system, lagrangian, defaults = _resolve(field, system, lagrangian)
        comp = compile_system(f, form, system=system, lagrangian=lagrangian)
    S = comp.system
    meth = (
        "lda-midpoint"
        if lda
        else _check_options(
            "integrate_batch",
            method=method,
            methods=("RK45", "RK4"),
            rtol=rtol,
            atol=atol,
            max_steps=max_steps,
            timeout=timeout,
        )
    )
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
    if c is not None and c.size and not np.all(np.isfinite(c)):
        j = int(np.nonzero(~np.all(np.isfinite(c), axis=0))[0][0])
        raise SingularFrameError(f"batch member {j}: " + _singular_frame_message(Q0[:, j]))
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
    te = np.linspace(t0, t1, 101) if t_eval is None else _check_t_eval("integrate_batch", t_eval, t0, t1)
    assert te is not None
    g0 = comp.guard(t0, Y0, p)
    if g0 is not None:
        g0 = np.broadcast_to(g0, (nb,))
        badg = np.nonzero(~np.isfinite(g0) | (g0 == 0))[0]
        if badg.size:
            raise SingularityError(f"singular initial point for batch members {badg[:10].tolist()}", t0, Y0[:, badg[0]])
    backend = _check_backend("integrate_batch", backend)
    fb = comp.fun_batch(p)
    if not lda:
        _check_n_steps(meth, n_steps, max_steps, backend)
    with ProgressBar.for_batch(progress, not lda and backend == "numpy", nb, t0, t1) as bar:
        te, Ys, info = _run_batch(
            comp, fb, p, Y0, te, t0, t1, meth, lda, backend, system, lagrangian, step, n_steps,
            rtol, atol, max_steps, timeout, bar,
        )  # fmt: skip
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


def _run_batch(
    comp: CompiledSystem,
    fb: Callable[[float, np.ndarray], np.ndarray],
    p: np.ndarray,
    Y0: np.ndarray,
    te: np.ndarray,
    t0: float,
    t1: float,
    meth: str,
    lda: bool,
    backend: str,
    system: Any,
    lagrangian: Any,
    step: Any,
    n_steps: Any,
    rtol: float,
    atol: float,
    max_steps: int,
    timeout: float | None,
    bar: ProgressBar,
) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """The integration of :func:`integrate_batch` (options checked): ``(t, Ys (N, n_state, B), info)``."""
    S = comp.system
    nb = Y0.shape[1]
    if lda:
        assert system is not None and step is not None
        lag = lagrangian if lagrangian is not None else system.lagrangian
        if lag.time_dependent:
            raise OptionError("integrate_batch: method='lda-midpoint' needs an autonomous Lagrangian (L depends on t)")
        scheme = LDAScheme(lag, system.frame, system.m, S.params)
        n = S.chart.dim
        parts = []
        for j in range(nb):
            pj = p if p.ndim == 1 else p[:, j]
            te, Qj, Uj, info = lda_midpoint(
                scheme, t0, t1, Y0[:n, j], Y0[n : 2 * n, j], pj, float(step), max_steps=max_steps, timeout=timeout
            )
            parts.append(np.hstack([Qj, Uj]))
            bar.advance()
        return te, np.stack(parts, axis=2), info
    if backend == "numba":
        if meth == "RK45":
            Ys, info = dp45_numba(comp, t0, t1, Y0, p, te, rtol, atol, max_steps, timeout)
        else:
            Ys, info = rk4_numba(comp, t0, t1, Y0, p, te, int(n_steps), timeout, max_steps)
        return te, Ys, info
    if meth == "RK45":

        def gb(t: float, Y: np.ndarray) -> np.ndarray:
            return np.asarray(comp.guard(t, Y, p))

        Ys, info = dp45_batch(
            fb,
            t0,
            t1,
            Y0,
            te,
            rtol,
            atol,
            max_steps,
            timeout,
            gb if comp.guard_depends_on_state else None,
            on_step=bar.on_step,
        )
        return te, Ys, info
    Ys, info = rk4_batch(fb, t0, t1, Y0, te, int(n_steps), timeout, on_step=bar.on_step)
    return te, Ys, info
