r"""The NumPy batch kernels: lock-step Dormand–Prince 5(4) and fixed-step RK4 over a batch of states
``(n_state, batch)``, both driven by the Butcher tableaux of :mod:`frames.numeric._tableau`."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..errors import IntegrationBudgetError, IntegrationError, SingularityError
from ._frame import FrameMonitor
from ._stiff import StiffnessMonitor
from ._tableau import DP45, RK4, ButcherTableau

__all__ = ["dp45_batch", "rk4_batch"]


def _lincomb(coeffs: Sequence[float] | np.ndarray, K: np.ndarray) -> np.ndarray:
    """``Σ_j c_j K[j]`` by in-place element-wise updates (faster than BLAS for tall batches)."""
    out = np.zeros(K.shape[1:])
    for c, k in zip(coeffs, K, strict=False):
        if c != 0:
            out += float(c) * k
    return out


def _stages(
    f: Callable[[float, np.ndarray], np.ndarray], tab: ButcherTableau, t: float, y: np.ndarray, h: float, K: np.ndarray
) -> None:
    """Fill the stages ``K[1:]`` of one step of ``tab`` (``K[0] = f(t, y)`` given): ``k_s = f(t + c_s h, y + h Σ a_sj k_j)``."""
    for s in range(1, tab.stages):
        K[s] = f(t + tab.c[s] * h, y + _lincomb(tab.a[s], K[:s]) * h)


def _advance(tab: ButcherTableau, y: np.ndarray, h: float, K: np.ndarray) -> np.ndarray:
    """``y + (h / b_scale) Σ_s b_s k_s``: the new state of one step of ``tab``."""
    return y + h / tab.b_scale * _lincomb(tab.b, K[: tab.stages])  # type: ignore[no-any-return]


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
    frame: FrameMonitor | None = None,
) -> tuple[np.ndarray, dict[str, Any]]:
    """Lock-step Dormand–Prince 5(4) over a batch: every member's RMS error norm must be ≤ 1.

    ``on_step(t)`` (optional) is called with the new time after every accepted step (a progress bar).

    ``guard(t, Y)`` (one value per member, zero where the system is singular) classifies a
    step-size failure: members whose guard has dropped to ``1e-6`` of its initial size make it a
    :class:`~frames.errors.SingularityError`.

    The step-size control is scipy's RK45 (safety 0.9, factors 0.2..10, exponent −1/5); the step is
    common to the batch. Output at ``t_eval`` by the method's 4th-order dense output.

    A stiff batch (a member's step held at the stability boundary, the rest of the span beyond the
    budget) is refused early with :class:`~frames.errors.StiffnessError` (:mod:`frames.numeric._stiff`).

    ``frame`` (:mod:`frames.numeric._frame`) watches the adapted frame, first, after every accepted step: a
    member whose frame degenerates stops the batch with :class:`~frames.errors.DegenerateFrameError`, located
    on the step's dense output; stiffness, a collapsed step or the budget where a frame is ill-conditioned are
    refused as the frame's.
    """
    tab = DP45
    E, P = np.array(tab.e), np.array(tab.p)
    ns, nb = y0.shape
    out = np.empty((len(t_eval), ns, nb))
    K = np.empty((tab.stages + 1, ns, nb))
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
    stiff = StiffnessMonitor("batch RK45", "RK45", t0, t1, max_steps, timeout, frame)
    while t < t1:
        over = nsteps + nrej >= max_steps or (deadline is not None and time.monotonic() > deadline)
        if frame is not None and (over or h < 10 * np.spacing(t)):
            frame.refuse_if_ill(t, y, "a run out of its budget" if over else "a collapse of the step size")
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
        _stages(f, tab, t, y, h, K)
        y_new = _advance(tab, y, h, K)
        f_new = f(t + h, y_new)
        K[tab.stages] = f_new
        nfev += tab.stages
        err = h * _lincomb(E, K)
        scale = atol + np.maximum(np.abs(y), np.abs(y_new)) * rtol
        en = _rms(err / scale)
        en = np.where(np.isfinite(en) & ~_bad(f_new), en, np.inf)
        worst = float(np.max(en))
        if worst < 1:
            tn = t + h
            if frame is not None:

                def dense(s: float, t: float = t, y: np.ndarray = y, h: float = h) -> np.ndarray:
                    x = (s - t) / h
                    return y + h * _lincomb(P @ np.array([x, x * x, x**3, x**4]), K)  # type: ignore[no-any-return]

                frame.check(tn, y_new, t, dense)
            while k_out < len(t_eval) and t_eval[k_out] <= tn:
                x = (t_eval[k_out] - t) / h
                pw = np.array([x, x * x, x**3, x**4])
                out[k_out] = y + h * _lincomb(P @ pw, K)  # dense output: Σ_s K_s Σ_j P[s, j] x^(j+1)
                k_out += 1
            t, y, f0 = tn, y_new, f_new
            nsteps += 1
            if on_step is not None:
                on_step(t)
            stiff.check(f, t, y, h, nsteps, nsteps + nrej)
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
    frame: FrameMonitor | None = None,
) -> tuple[np.ndarray, dict[str, Any]]:
    """Classical fixed-step RK4 over a batch; output at ``t_eval`` by cubic Hermite interpolation.

    ``on_step(t)`` (optional) is called with the new time after every step (a progress bar). ``frame``
    (:mod:`frames.numeric._frame`) is checked after every step, as in :func:`dp45_batch`.
    """
    deadline = None if timeout is None or not np.isfinite(timeout) else time.monotonic() + timeout
    tab = RK4
    h = (t1 - t0) / n_steps
    ns, nb = y0.shape
    out = np.empty((len(t_eval), ns, nb))
    K = np.empty((tab.stages, ns, nb))
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
        K[0] = k1
        _stages(f, tab, t, y, h, K)
        y_new = _advance(tab, y, h, K)
        tn = t0 + (i + 1) * h
        f_new = f(tn, y_new)
        bad = _bad(y_new) | _bad(f_new)
        if frame is not None:
            if np.any(bad):
                frame.refuse_if_ill(t, y, "a state that is not finite")
            else:
                frame.check(tn, y_new, t)
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
    return out, {"steps": n_steps, "rejected": 0, "nfev": tab.stages * n_steps + 1}
