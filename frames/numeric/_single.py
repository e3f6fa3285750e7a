"""One trajectory, by each engine: scipy's solvers (:func:`run_scipy`), the jitted Dormand–Prince 5(4)
(:func:`run_numba`) and the discrete Lagrange–d'Alembert scheme (:func:`run_lda`).

Every engine answers ``run(problem, solver)``: the door :func:`~frames.integrate` has built the
:class:`~frames.numeric._problem.Problem` (initial data checked, a batch of one) and the solver value."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._frame import frame_monitor
from ._laws import InputLaw, laws_along
from ._lda import LDAScheme, lda_midpoint
from ._numba import integrate_one
from ._problem import Problem
from ._progress import ProgressBar
from ._resolve import Target
from ._scipy import _natural_event, solve_single
from ._solvers import LDAMidpoint, NumbaRK45, ScipySolver, Solver
from ._trajectory import Trajectory, _make_trajectory

__all__ = ["lda_scheme", "run_lda", "run_numba", "run_scipy"]


def _pdict(comp: Any, p: np.ndarray, laws: tuple[InputLaw, ...] = ()) -> dict[str, float]:
    """The parameters by name (the numbers; the callable inputs are in ``info["inputs"]``)."""
    driven = {law.name for law in laws}
    return {k: v for k, v in zip(comp.param_names, np.asarray(p, dtype=float).tolist(), strict=True) if k not in driven}


def run_scipy(problem: Problem, solver: Solver) -> Trajectory:
    """One of scipy's solvers, under the solver's budget (callable inputs evaluated at each call)."""
    assert isinstance(solver, ScipySolver)
    comp, p, laws, t0, y0 = problem.comp, problem.p, problem.laws, problem.t0, problem.y0
    method = solver.label
    frame = frame_monitor(comp, p, method, t0, y0)
    fun = comp.fun(p, laws=laws)
    fun(t0, y0)

    def guard(t: float, y: np.ndarray) -> float:
        return float(comp.guard(t, y, p))  # type: ignore[arg-type]

    options = solver.scipy_options()
    with ProgressBar.for_run(problem.progress or False, True, 1, t0, problem.t1) as bar:
        res = solve_single(
            fun,
            t0,
            problem.t1,
            y0,
            method=method,
            rtol=solver.rtol,
            atol=solver.atol,
            max_step=solver.max_step,
            t_eval=problem.t_eval,
            guard=guard if comp.guard_depends_on_state else None,
            guard_label=_Printed(comp.system.guard),
            max_steps=solver.max_steps,
            timeout=solver.timeout,
            events=[(_natural_event(comp, p, ev, k), n_max, d) for k, (ev, n_max, d) in enumerate(problem.events)],
            dense_output=problem.dense_output,
            solver_options=options,
            frame=frame,
            on_step=bar.on_step,
            end_at_event=problem.grid,
        )
    info = res.info | {"rtol": solver.rtol, "atol": solver.atol}
    if options:
        info["solver_options"] = dict(options)
    if laws:
        info["inputs"] = problem.info_inputs()
    return _make_trajectory(
        comp,
        res.t,
        res.y,
        p,
        method,
        problem.projection,
        info,
        _pdict(comp, p, laws),
        status=res.status,
        message=res.message,
        sol=res.sol,
        t_events=res.t_events if problem.events else None,
        y_events=res.y_events if problem.events else None,
        p_along=(lambda t, q, u: laws_along(comp, laws, t, q, u, p)) if laws else None,
        input_slots={law.name: law.index for law in laws},
    )


def run_numba(problem: Problem, solver: Solver) -> Trajectory:
    """``backend="numba"``: one member of the jitted batch integrator."""
    assert isinstance(solver, NumbaRK45)
    comp, p, te = problem.comp, problem.p, problem.t_eval
    assert te is not None
    Y, info = integrate_one(
        comp, problem.t0, problem.t1, problem.y0, p, te, solver.rtol, solver.atol, solver.max_steps, solver.timeout,
        solver.max_step,
    )  # fmt: skip
    info |= {"rtol": solver.rtol, "atol": solver.atol}
    message = "backend='numba' (jitted Dormand–Prince 5(4)) reached the end of the integration interval."
    return _make_trajectory(
        comp, te, Y, p, solver.label, problem.projection, info, _pdict(comp, p), status=0, message=message
    )


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


def run_lda(problem: Problem, solver: Solver) -> Trajectory:
    """``method="lda-midpoint"``: see :mod:`frames.numeric._lda` (the target is in the multiplier form)."""
    assert isinstance(solver, LDAMidpoint)
    scheme = lda_scheme(problem.target)
    comp, p, y0 = problem.comp, problem.p, problem.y0
    n = comp.system.chart.dim
    qv, uv = y0[:n], y0[n : 2 * n]  # the multiplier form's state is (q, u)
    step = float(solver.step)  # type: ignore[arg-type]
    frame = frame_monitor(comp, p, "lda-midpoint", problem.t0, y0)
    ts, Q, U, info = lda_midpoint(
        scheme, problem.t0, problem.t1, qv, uv, p, step, max_steps=solver.max_steps, timeout=solver.timeout,
        frame=frame,
    )  # fmt: skip
    Y = np.vstack([Q.T, U.T])
    message = (
        f"method='lda-midpoint' reached the end of the integration interval "
        f"({info.get('nsteps', len(ts) - 1)} steps of h = {info.get('step', step):.6g})."
    )
    return _make_trajectory(
        comp, ts, Y, p, "lda-midpoint", problem.projection, info, _pdict(comp, p), status=0, message=message
    )
