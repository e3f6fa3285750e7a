"""The scipy engine: one trajectory with a scipy :class:`~scipy.integrate.OdeSolver`, stepped here under a
budget, with events, dense output and the guard (:func:`solve_single`)."""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from ..errors import FramesError, IntegrationBudgetError, IntegrationError, OptionError, SingularityError
from ._frame import FrameMonitor
from ._stiff import StiffnessMonitor

__all__ = ["MESSAGES", "SOLVERS", "SingleSolution", "solve_single", "solver_option_names"]

SOLVERS = ("RK23", "RK45", "DOP853", "Radau", "BDF", "LSODA")

#: Constructor arguments of scipy's solvers that :func:`solve_single` sets itself.
_SET_HERE = ("self", "fun", "t0", "y0", "t_bound", "max_step", "rtol", "atol", "vectorized", "extraneous")

#: ``solve_ivp``'s messages for ``status`` 0 and 1.
MESSAGES = {
    0: "The solver successfully reached the end of the integration interval.",
    1: "A termination event occurred.",
}


def solver_option_names(method: str) -> tuple[str, ...]:
    """The keyword options of scipy's solver class ``method`` that may be passed through ``solver_options``.

    They are the arguments of the class's ``__init__`` except those set by :func:`solve_single`
    (``fun``, ``t0``, ``y0``, ``t_bound``, ``max_step``, ``rtol``, ``atol``) and ``vectorized`` (the
    right-hand side takes one state at a time): e.g. ``first_step`` for the Runge–Kutta methods, and
    ``jac``, ``jac_sparsity`` for ``Radau`` and ``BDF``, ``min_step``, ``lband``, ``uband`` for ``LSODA``.
    """
    import scipy.integrate as si

    params = inspect.signature(getattr(si, method).__init__).parameters
    return tuple(
        k
        for k, par in params.items()
        if k not in _SET_HERE and par.kind not in (inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL)
    )


class SingleSolution(NamedTuple):
    """What :func:`solve_single` returns (the fields of :func:`scipy.integrate.solve_ivp`'s result)."""

    t: np.ndarray
    """Output times ``(N,)``."""
    y: np.ndarray
    """States ``(n_state, N)``."""
    info: dict[str, Any]
    """``nfev``, ``njev``, ``steps``, ``message``."""
    status: int
    """0: reached the end of the interval; 1: stopped by a terminal event."""
    message: str
    sol: Any
    """scipy's :class:`~scipy.integrate.OdeSolution` (state ``(n_state,)`` at a time), or None."""
    t_events: list[np.ndarray]
    """Per event, the times ``(k,)`` at which it occurred."""
    y_events: list[np.ndarray]
    """Per event, the states ``(k, n_state)`` at those times."""


def _event_name(event: Any, k: int) -> str:
    name = getattr(event, "__name__", None) or type(event).__name__
    return f"events[{k}] ({name})"


def _natural_event(comp: Any, p: np.ndarray, event: Any, k: int) -> Callable[[float, np.ndarray], float]:
    """``event(t, q, u)`` in natural coordinates as ``g(t, y)`` on the internal state (for the solver).

    The state is mapped to ``(q, u)`` by the compiled observables (the map that fills
    :attr:`Trajectory.q` and :attr:`Trajectory.u`). An exception raised by the event, or a value
    that is not one finite real number, becomes an :class:`IntegrationError` naming ``events[k]``,
    with the time and the state.
    """
    label = _event_name(event, k)

    def g(t: float, y: np.ndarray) -> float:
        obs = comp.observe(np.asarray(t, dtype=float), y, p, keys=("q", "u"))
        q, u = np.array(obs["q"], dtype=float), np.array(obs["u"], dtype=float)
        try:
            val = event(t, q, u)
        except Exception as exc:
            raise IntegrationError(
                f"integrate: {label} raised {type(exc).__name__} at t = {t!r}, q = {q.tolist()}, "
                f"u = {u.tolist()}: {exc}",
                t,
                y,
            ) from exc
        try:
            a = np.asarray(val, dtype=float)
        except (TypeError, ValueError):
            a = np.asarray(np.nan)
            ok = False
        else:
            ok = a.size == 1 and bool(np.isfinite(a).all())
        if not ok:
            raise IntegrationError(
                f"integrate: {label} returned {val!r:.60} at t = {t!r}, q = {q.tolist()}, u = {u.tolist()}: "
                "expected one finite real number",
                t,
                y,
            )
        return float(a.reshape(()))

    g.terminal = getattr(event, "terminal", None)  # type: ignore[attr-defined]
    g.direction = getattr(event, "direction", 0)  # type: ignore[attr-defined]
    return g


#: An event for :func:`solve_single`: ``(g(t, y), occurrences before stopping (inf: never), direction)``.
Event = tuple[Callable[[float, np.ndarray], float], float, float]


def _active_events(g: Sequence[float], g_new: Sequence[float], direction: np.ndarray) -> np.ndarray:
    """Events whose function changes sign (or reaches zero) over the step in their direction (as solve_ivp)."""
    ga, gb = np.asarray(g), np.asarray(g_new)
    up = (ga <= 0) & (gb >= 0)
    down = (ga >= 0) & (gb <= 0)
    mask = up & (direction > 0) | down & (direction < 0) | (up | down) & (direction == 0)
    return np.nonzero(mask)[0]


def _event_roots(
    dense: Callable[[float], np.ndarray],
    funs: Sequence[Callable[[float, np.ndarray], float]],
    active: np.ndarray,
    count: np.ndarray,
    max_events: np.ndarray,
    t_old: float,
    t_new: float,
) -> tuple[np.ndarray, np.ndarray, bool]:
    """The roots of the active events on the step's dense output (brentq to 4 ε), and whether to stop.

    As :func:`scipy.integrate.solve_ivp`: when an event reaches its count of occurrences, the roots
    are ordered in the direction of integration and those after the first such event are dropped.
    """
    from scipy.optimize import brentq

    eps = 4 * np.finfo(float).eps
    roots = np.array(
        [brentq(lambda s, g=funs[i]: g(s, dense(s)), t_old, t_new, xtol=eps, rtol=eps) for i in active], dtype=float
    )
    if not np.any(count[active] >= max_events[active]):
        return active, roots, False
    order = np.argsort(roots) if t_new > t_old else np.argsort(-roots)
    active, roots = active[order], roots[order]
    first = int(np.nonzero(count[active] >= max_events[active])[0][0])
    return active[: first + 1], roots[: first + 1], True


def _ode_solution(ts: list[float], interpolants: list[Any], method: str) -> Any:
    """scipy's :class:`~scipy.integrate.OdeSolution` over the accepted steps (None without a step)."""
    from scipy.integrate import OdeSolution

    if not interpolants:
        return None
    if "alt_segment" in inspect.signature(OdeSolution).parameters:  # scipy >= 1.15: BDF/LSODA segments
        return OdeSolution(ts, interpolants, alt_segment=method in ("BDF", "LSODA"))
    return OdeSolution(ts, interpolants)


def solve_single(
    fun: Callable[[float, np.ndarray], np.ndarray],
    t0: float,
    t1: float,
    y0: np.ndarray,
    *,
    method: str,
    rtol: float,
    atol: float,
    max_step: float,
    t_eval: np.ndarray | None,
    guard: Callable[[float, np.ndarray], float] | None,
    guard_label: object,
    max_steps: int,
    timeout: float | None,
    events: Sequence[Event] = (),
    dense_output: bool = False,
    solver_options: Mapping[str, Any] | None = None,
    frame: FrameMonitor | None = None,
    on_step: Callable[[float], None] | None = None,
    end_at_event: bool = False,
) -> SingleSolution:
    """One trajectory with a scipy :class:`~scipy.integrate.OdeSolver`, stepped here under a budget.

    The loop is :func:`scipy.integrate.solve_ivp`'s (same solvers, same dense output at
    ``t_eval``, same event location, same ``sol``) with three additions: at most ``max_steps``
    accepted steps and ``timeout`` wall seconds (else :class:`~frames.errors.IntegrationBudgetError` with
    the time and state reached; an explicit method held at its stability boundary with the rest of the span
    beyond that budget is stopped early, :class:`~frames.errors.StiffnessError`, see
    :mod:`frames.numeric._stiff`); a solver failure is an :class:`~frames.errors.IntegrationError` carrying
    the time and state; and a sign change or non-finite value of ``guard`` (zero where the system is
    singular) is located on the dense output and raised as :class:`~frames.errors.SingularityError` with
    its time and state.

    ``events`` are ``(g, max_events, direction)``: ``g(t, y)`` is evaluated after every step; where
    it changes sign (only upwards for ``direction > 0``, only downwards for ``direction < 0``) the
    root is found on the step's dense output by Brent's method to ``4 ε``, and after ``max_events``
    occurrences the integration stops there (status 1; with ``t_eval=None`` the last output time is
    the event's). A singularity past a terminal event within the same step is not reported.

    ``dense_output`` keeps every step's interpolant and returns them as an
    :class:`~scipy.integrate.OdeSolution` (``sol``). ``solver_options`` are passed to the solver's
    constructor (see :func:`solver_option_names`); a value the solver refuses is an
    :class:`~frames.errors.OptionError`.

    ``frame`` (:mod:`frames.numeric._frame`) watches the adapted frame the system is written in, checked first
    after every accepted step: where it degenerates the run stops with
    :class:`~frames.errors.DegenerateFrameError` (a :class:`~frames.errors.SingularFrameError`), and a run about
    to be refused for stiffness, a solver failure or its budget where the frame is ill-conditioned is refused for
    the frame instead.

    ``end_at_event``: with ``t_eval`` (a default grid), a terminal event adds its own last sample.

    ``on_step(t)`` (a progress bar's) is called after every accepted step with the time reached.
    """
    import scipy.integrate as si

    opts = dict(solver_options or {})
    try:
        solver = getattr(si, method)(fun, t0, y0, t1, rtol=rtol, atol=atol, max_step=max_step, **opts)
    except FramesError:
        raise
    except (TypeError, ValueError) as exc:
        if not opts:
            raise
        raise OptionError(f"integrate: solver_options {sorted(opts)} refused by scipy's {method}: {exc}") from exc
    direction = 1.0 if t1 > t0 else -1.0
    deadline = None if timeout is None or not np.isfinite(timeout) else time.monotonic() + timeout
    if t_eval is None:
        ts: list[float] = [t0]
        ys: list[np.ndarray] = [np.array(y0, dtype=float)]
        k_out = 0
    else:
        ts, ys = [], []
        k_out = 0
        while k_out < len(t_eval) and t_eval[k_out] == t0:
            ts.append(t0)
            ys.append(np.array(y0, dtype=float))
            k_out += 1
    g_prev = None if guard is None else float(guard(t0, y0))
    g0 = g_prev or 0.0
    ev_funs = [e[0] for e in events]
    max_events = np.array([e[1] for e in events], dtype=float)
    ev_dir = np.array([e[2] for e in events], dtype=float)
    ev_count = np.zeros(len(events))
    ev_g = [g(t0, y0) for g in ev_funs]
    t_events: list[list[float]] = [[] for _ in events]
    y_events: list[list[np.ndarray]] = [[] for _ in events]
    nodes: list[float] = [t0]
    interpolants: list[Any] = []
    status = 0
    steps = 0
    stiff = StiffnessMonitor(method, method, t0, t1, max_steps, timeout, frame)
    while solver.status == "running":
        t_old = solver.t
        message = solver.step()
        if solver.status == "failed":
            if frame is not None:
                frame.refuse_if_ill(solver.t, solver.y, f"a failure of the solver ({message})")
            if guard is not None and g_prev is not None:
                g = float(guard(solver.t, solver.y))
                if not np.isfinite(g) or abs(g) <= 1e-6 * max(1.0, abs(g0)):
                    raise SingularityError(
                        f"{method} stopped at t = {solver.t:.12g} approaching the singular set "
                        f"(guard {guard_label} = {g:.3g}, {g0:.3g} at the start): {message}; state {solver.y.tolist()}",
                        solver.t,
                        solver.y,
                    )
            raise IntegrationError(
                f"{method} failed at t = {solver.t:.17g} of {t1:g}: {message}; state {solver.y.tolist()}",
                solver.t,
                solver.y,
            )
        steps += 1
        t_new, y_new = float(solver.t), solver.y
        dense = solver.dense_output() if dense_output else None
        if frame is not None:  # first: a degenerate frame is neither an event nor a singular system nor stiff

            def step_dense(s: float, d: Any = dense) -> np.ndarray:
                return np.asarray((d if d is not None else solver.dense_output())(s), dtype=float)

            frame.check(t_new, y_new, t_old, step_dense)
        if events:
            g_new = [g(t_new, y_new) for g in ev_funs]
            active = _active_events(ev_g, g_new, ev_dir)
            if active.size:
                dense = dense if dense is not None else solver.dense_output()
                ev_count[active] += 1
                idx, roots, stop = _event_roots(dense, ev_funs, active, ev_count, max_events, t_old, t_new)
                for i, te in zip(idx.tolist(), roots.tolist(), strict=True):
                    t_events[i].append(te)
                    y_events[i].append(np.asarray(dense(te), dtype=float))
                if stop:
                    status = 1
                    t_new = float(roots[-1])
                    y_new = np.asarray(dense(t_new), dtype=float)
            ev_g = g_new
        if guard is not None:
            g = float(guard(t_new, y_new))
            if not np.isfinite(g) or g == 0 or np.sign(g) != np.sign(g_prev or 0.0):
                dense = dense if dense is not None else solver.dense_output()
                te = t_new
                if np.isfinite(g) and g != 0:
                    from scipy.optimize import brentq

                    te = float(brentq(lambda s, d=dense: float(guard(s, d(s))), t_old, t_new, xtol=1e-14, rtol=1e-12))
                ye = dense(te)
                raise SingularityError(
                    f"the system becomes singular at t = {te:.12g} (guard {guard_label} vanishes or changes sign), "
                    f"state {ye.tolist()}",
                    te,
                    ye,
                )
            g_prev = g
        if t_eval is None:
            if t_new != ts[-1]:
                ts.append(t_new)
                ys.append(np.array(y_new, dtype=float))
        else:
            k_end = k_out
            while k_end < len(t_eval) and direction * (t_eval[k_end] - t_new) <= 0:
                k_end += 1
            if k_end > k_out:
                dense = dense if dense is not None else solver.dense_output()
                pts = t_eval[k_out:k_end]
                vals = dense(pts)
                ts.extend(float(x) for x in pts)
                ys.extend(np.asarray(vals).T)
                k_out = k_end
        if dense_output and t_new != nodes[-1]:
            interpolants.append(dense)
            nodes.append(t_new)
        if on_step is not None:
            on_step(t_new)
        if status == 1:
            if end_at_event and t_eval is not None and (not ts or t_new != ts[-1]):
                ts.append(t_new)
                ys.append(np.array(y_new, dtype=float))
            break
        if solver.status == "running":
            stiff.check(fun, t_new, y_new, t_new - t_old, steps, steps)
            if frame is not None and (steps >= max_steps or (deadline is not None and time.monotonic() > deadline)):
                frame.refuse_if_ill(t_new, y_new, "a run out of its budget")
            if steps >= max_steps:
                raise IntegrationBudgetError(
                    f"{method}: max_steps = {max_steps} steps taken, stopped at t = {t_new:.17g} of {t1:g} "
                    f"(raise max_steps, or check for stiffness: try method='Radau' or 'BDF')",
                    t_new,
                    y_new,
                )
            if deadline is not None and time.monotonic() > deadline:
                raise IntegrationBudgetError(
                    f"{method}: timeout of {timeout:g} s reached at t = {t_new:.17g} of {t1:g} after {steps} steps",
                    t_new,
                    y_new,
                )
    info = {"nfev": int(solver.nfev), "njev": int(solver.njev), "steps": steps, "message": MESSAGES[status]}
    n_state = len(y0)
    return SingleSolution(
        t=np.asarray(ts, dtype=float),
        y=np.array(ys, dtype=float).T.reshape(n_state, len(ts)),
        info=info,
        status=status,
        message=MESSAGES[status],
        sol=_ode_solution(nodes, interpolants, method) if dense_output else None,
        t_events=[np.asarray(te, dtype=float) for te in t_events],
        y_events=[np.asarray(ye, dtype=float).reshape(len(ye), n_state) for ye in y_events],
    )
