"""One trajectory, by each engine: scipy's solvers (:func:`~frames.numeric._scipy.solve_single`), the jitted
Dormand–Prince 5(4) (``backend="numba"``) and the discrete Lagrange–d'Alembert scheme (``"lda-midpoint"``).

The door :func:`~frames.integrate` has normalised the options (:class:`IntegrationOptions`) and resolved
the system (:class:`~frames.numeric._resolve.Target`); the initial data are checked here, against the
compiled system."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import StateError
from ._frame import frame_monitor
from ._inputs import _initial_data, _merge_params
from ._laws import InputLaw, check_engine, laws_along, split_inputs
from ._lda import LDAScheme, lda_midpoint
from ._numba import integrate_one
from ._options import IntegrationOptions, _check_t_eval
from ._resolve import Target
from ._scipy import _natural_event, solve_single
from ._trajectory import Trajectory, _make_trajectory

__all__ = ["run_single"]


def run_single(
    target: Target,
    t0: float,
    t1: float,
    q0: Any,
    u0: Any,
    params: Mapping[Any, Any] | None,
    extra0: Mapping[str, Any] | None,
    opts: IntegrationOptions,
) -> Trajectory:
    """Integrate one trajectory of ``target`` from ``(q0, u0)`` with the engine that ``opts`` names."""
    method, solver_options, events = opts.single()
    allp, laws = split_inputs(target.comp, _merge_params(target.defaults, params))
    if opts.lda:
        check_engine(laws, "method='lda-midpoint'")
        return _lda(target, t0, t1, q0, u0, allp, opts)
    if opts.backend == "numba":
        check_engine(laws, "backend='numba'")
        return _numba(target, t0, t1, q0, u0, allp, extra0, opts, method)
    return _scipy(target, t0, t1, q0, u0, allp, extra0, opts, method, solver_options, events, laws)


def _pdict(comp: Any, p: np.ndarray, laws: tuple[InputLaw, ...] = ()) -> dict[str, float]:
    """The parameters by name (the numbers; the callable inputs are in ``info["inputs"]``)."""
    driven = {law.name for law in laws}
    return {k: v for k, v in zip(comp.param_names, np.asarray(p, dtype=float).tolist(), strict=True) if k not in driven}


def _scipy(
    target: Target,
    t0: float,
    t1: float,
    q0: Any,
    u0: Any,
    params: dict[str, Any],
    extra0: Mapping[str, Any] | None,
    opts: IntegrationOptions,
    method: str,
    solver_options: dict[str, Any],
    events: list[tuple[Any, float, float]],
    laws: tuple[InputLaw, ...] = (),
) -> Trajectory:
    """One of scipy's solvers, under a budget (callable inputs ``laws`` evaluated at each call)."""
    comp = target.comp
    t_eval = _check_t_eval("integrate", opts.t_eval, t0, t1)
    p, y0, projection = _initial_data(comp, t0, q0, u0, params, extra0, opts.project, opts.constraint_tol)
    comp.check_initial_guard(t0, y0, p)
    frame = frame_monitor(comp, p, method, t0, y0)
    fun = comp.fun(p, laws=laws)
    fun(t0, y0)

    def guard(t: float, y: np.ndarray) -> float:
        return float(comp.guard(t, y, p))  # type: ignore[arg-type]

    res = solve_single(
        fun,
        t0,
        t1,
        y0,
        method=method,
        rtol=opts.rtol,
        atol=opts.atol,
        max_step=opts.max_step,
        t_eval=t_eval,
        guard=guard if comp.guard_depends_on_state else None,
        guard_label=_Printed(comp.system.guard),
        max_steps=opts.max_steps,
        timeout=opts.timeout,
        events=[(_natural_event(comp, p, ev, k), n_max, d) for k, (ev, n_max, d) in enumerate(events)],
        dense_output=bool(opts.dense_output),
        solver_options=solver_options,
        frame=frame,
    )
    info = res.info | {"rtol": opts.rtol, "atol": opts.atol}
    if solver_options:
        info["solver_options"] = dict(solver_options)
    if laws:
        info["inputs"] = {law.name: law.signature for law in laws}
    return _make_trajectory(
        comp,
        res.t,
        res.y,
        p,
        method,
        projection,
        info,
        _pdict(comp, p, laws),
        status=res.status,
        message=res.message,
        sol=res.sol,
        t_events=res.t_events if events else None,
        y_events=res.y_events if events else None,
        p_along=(lambda t, q, u: laws_along(comp, laws, t, q, u, p)) if laws else None,
    )


def _numba(
    target: Target,
    t0: float,
    t1: float,
    q0: Any,
    u0: Any,
    params: dict[str, Any],
    extra0: Mapping[str, Any] | None,
    opts: IntegrationOptions,
    method: str,
) -> Trajectory:
    """``backend="numba"``: one member of the jitted batch integrator."""
    comp = target.comp
    if not t1 > t0:
        raise StateError(f"integrate: backend='numba' integrates forward: t_span=({t0}, {t1}) must be increasing")
    te = np.linspace(t0, t1, 101) if opts.t_eval is None else _check_t_eval("integrate", opts.t_eval, t0, t1)
    assert te is not None
    p, y0, projection = _initial_data(comp, t0, q0, u0, params, extra0, opts.project, opts.constraint_tol)
    Y, info = integrate_one(comp, t0, t1, y0, p, te, opts.rtol, opts.atol, opts.max_steps, opts.timeout, opts.max_step)
    info |= {"rtol": opts.rtol, "atol": opts.atol}
    message = "backend='numba' (jitted Dormand–Prince 5(4)) reached the end of the integration interval."
    return _make_trajectory(comp, te, Y, p, method, projection, info, _pdict(comp, p), status=0, message=message)


class _Printed:
    """An expression printed when a message needs it (not before: printing a large guard takes milliseconds)."""

    __slots__ = ("expr",)

    def __init__(self, expr: Any) -> None:
        self.expr = expr

    def __str__(self) -> str:
        return str(self.expr)


def lda_scheme(target: Target) -> LDAScheme:
    """The discrete Lagrange–d'Alembert scheme of the target's system (checked by the door's :func:`resolve`)."""
    system = target.system
    return LDAScheme(target.lagrangian, system.frame, system.m, target.comp.system.params)


def _lda(
    target: Target, t0: float, t1: float, q0: Any, u0: Any, params: dict[str, Any], opts: IntegrationOptions
) -> Trajectory:
    """``method="lda-midpoint"``: see :mod:`frames.numeric._lda` (the target is in the multiplier form)."""
    scheme = lda_scheme(target)
    comp = target.comp
    if not t1 > t0:
        raise StateError(f"integrate: method='lda-midpoint' integrates forward: t_span=({t0}, {t1}) must be increasing")
    p, y0, projection = _initial_data(comp, t0, q0, u0, params, None, opts.project, opts.constraint_tol)
    n = comp.system.chart.dim
    qv, uv = y0[:n], y0[n : 2 * n]  # the multiplier form's state is (q, u)
    step = float(opts.step)  # type: ignore[arg-type]
    frame = frame_monitor(comp, p, "lda-midpoint", t0, y0)
    ts, Q, U, info = lda_midpoint(
        scheme, t0, t1, qv, uv, p, step, max_steps=opts.max_steps, timeout=opts.timeout, frame=frame
    )
    Y = np.vstack([Q.T, U.T])
    message = (
        f"method='lda-midpoint' reached the end of the integration interval "
        f"({info.get('nsteps', len(ts) - 1)} steps of h = {info.get('step', step):.6g})."
    )
    return _make_trajectory(
        comp, ts, Y, p, "lda-midpoint", projection, info, _pdict(comp, p), status=0, message=message
    )
