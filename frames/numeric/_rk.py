"""Runge–Kutta kernels: scipy's solvers stepped under a budget (one trajectory), and vectorised
Dormand–Prince 5(4) and RK4 over a batch of states."""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from ..errors import FramesError, IntegrationBudgetError, IntegrationError, OptionError, SingularityError

__all__ = ["SOLVERS", "SingleSolution", "dp45_batch", "rk4_batch", "solve_single", "solver_option_names"]

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


def dp45_batch(
    f: Callable[[float, np.ndarray], np.ndarray],
    t0: float,
    t1: float,
    y0: np.ndarray,
    t_eval: np.ndarray,
    rtol: float,
    atol: float,
    max_steps: int,
    timeout: float | None = None,
    guard: Callable[[float, np.ndarray], np.ndarray] | None = None,
    on_step: Callable[[float], None] | None = None,
) -> tuple[np.ndarray, dict[str, Any]]:
    """Lock-step Dormand–Prince 5(4) over a batch: every member's RMS error norm must be ≤ 1.

    ``on_step(t)`` (optional) is called with the new time after every accepted step (a progress bar).

    ``guard(t, Y)`` (one value per member, zero where the system is singular) classifies a
    step-size failure: members whose guard has dropped to ``1e-6`` of its initial size make it a
    :class:`~frames.SingularityError`.

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
    deadline = None if timeout is None or not np.isfinite(timeout) else time.monotonic() + timeout
    g_start = None if guard is None else np.broadcast_to(np.asarray(guard(t0, y0), dtype=float), (nb,))
    while t < t1:
        if nsteps + nrej >= max_steps:
            raise IntegrationBudgetError(
                f"batch RK45: max_steps = {max_steps} steps taken before t = {t1} (stopped at t = {t}); "
                "state of member 0 attached",
                t,
                y[:, 0],
            )
        if deadline is not None and time.monotonic() > deadline:
            raise IntegrationBudgetError(
                f"batch RK45: timeout of {timeout:g} s reached at t = {t} of {t1} after {nsteps} steps; "
                "state of member 0 attached",
                t,
                y[:, 0],
            )
        if h < 10 * np.spacing(t):
            if bad_members is not None:
                raise SingularityError(
                    f"batch RK45: right-hand side not finite near t = {t} for batch members "
                    f"{bad_members[:10].tolist()}, state of member {int(bad_members[0])}: "
                    f"{y[:, bad_members[0]].tolist()}",
                    t,
                    y[:, bad_members[0]],
                )
            if guard is not None:
                g_now = np.broadcast_to(np.asarray(guard(t, y), dtype=float), (nb,))
                near = np.nonzero(
                    ~np.isfinite(g_now)
                    | (np.abs(g_now) <= 1e-6 * np.maximum(1.0, np.abs(g_start if g_start is not None else 0.0)))
                )[0]
                if near.size:
                    j = int(near[0])
                    raise SingularityError(
                        f"batch RK45: stopped at t = {t} approaching the singular set for batch members "
                        f"{near[:10].tolist()} (guard of member {j}: {g_now[j]:.3g}); state of member {j} attached",
                        t,
                        y[:, j],
                    )
            raise IntegrationError(
                f"batch RK45: required step size {h:.3g} is less than spacing between numbers at t = {t}; "
                "state of member 0 attached",
                t,
                y[:, 0],
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
            if on_step is not None:
                on_step(t)
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


def rk4_batch(
    f: Callable[[float, np.ndarray], np.ndarray],
    t0: float,
    t1: float,
    y0: np.ndarray,
    t_eval: np.ndarray,
    n_steps: int,
    timeout: float | None = None,
    on_step: Callable[[float], None] | None = None,
) -> tuple[np.ndarray, dict[str, Any]]:
    """Classical fixed-step RK4 over a batch; output at ``t_eval`` by cubic Hermite interpolation.

    ``on_step(t)`` (optional) is called with the new time after every step (a progress bar).
    """
    deadline = None if timeout is None or not np.isfinite(timeout) else time.monotonic() + timeout
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
        if deadline is not None and time.monotonic() > deadline:
            raise IntegrationBudgetError(
                f"batch RK4: timeout of {timeout:g} s reached at t = {t} after {i} of {n_steps} steps; "
                "state of member 0 attached",
                t,
                y[:, 0],
            )
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
        if on_step is not None:
            on_step(t)
    while k_out < len(t_eval):
        out[k_out] = y
        k_out += 1
    return out, {"steps": n_steps, "rejected": 0, "nfev": 4 * n_steps + 1}


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
    guard_label: str,
    max_steps: int,
    timeout: float | None,
    events: Sequence[Event] = (),
    dense_output: bool = False,
    solver_options: Mapping[str, Any] | None = None,
) -> SingleSolution:
    """One trajectory with a scipy :class:`~scipy.integrate.OdeSolver`, stepped here under a budget.

    The loop is :func:`scipy.integrate.solve_ivp`'s (same solvers, same dense output at
    ``t_eval``, same event location, same ``sol``) with three additions: at most ``max_steps``
    accepted steps and ``timeout`` wall seconds (else :class:`~frames.IntegrationBudgetError` with
    the time and state reached); a solver failure is an :class:`~frames.IntegrationError` carrying
    the time and state; and a sign change or non-finite value of ``guard`` (zero where the system is
    singular) is located on the dense output and raised as :class:`~frames.SingularityError` with
    its time and state.

    ``events`` are ``(g, max_events, direction)``: ``g(t, y)`` is evaluated after every step; where
    it changes sign (only upwards for ``direction > 0``, only downwards for ``direction < 0``) the
    root is found on the step's dense output by Brent's method to ``4 ε``, and after ``max_events``
    occurrences the integration stops there (status 1; with ``t_eval=None`` the last output time is
    the event's). A singularity past a terminal event within the same step is not reported.

    ``dense_output`` keeps every step's interpolant and returns them as an
    :class:`~scipy.integrate.OdeSolution` (``sol``). ``solver_options`` are passed to the solver's
    constructor (see :func:`solver_option_names`); a value the solver refuses is an
    :class:`~frames.OptionError`.
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
    while solver.status == "running":
        t_old = solver.t
        message = solver.step()
        if solver.status == "failed":
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
        if status == 1:
            break
        if solver.status == "running":
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
