r"""Stiffness detection for the explicit methods: the step held at the stability boundary, refused early.

An explicit Runge–Kutta method is stable on ``y' = λ y`` only while ``h λ`` lies in its stability region,
which meets the negative real axis at ``−β`` (``β ≈ 2.5`` for Bogacki–Shampine 3(2), ``3.3`` for
Dormand–Prince 5(4), ``6`` for DOP853, ``2.8`` for RK4). On a stiff system the step-size controller keeps
``h ρ(∂f/∂y)`` near ``β`` however smooth the solution is, so the number of steps grows like
``ρ (t_1 − t)/β``: with a damping or spring constant of ``10^{12}`` that is ``10^{12}`` steps.

:class:`StiffnessMonitor` looks at a run every :data:`CHECK_EVERY` accepted steps. The check costs nothing
unless the mean step of the last window, projected over the rest of the span, would exceed the budget
(``max_steps``, or the time left before ``timeout`` at the current pace) and has not shrunk below half the
previous window's (a finite-time blow-up shrinks it geometrically; stiffness holds it steady). Only then
the spectral radius ``ρ`` of the Jacobian is estimated (:func:`spectral_radius`, a few right-hand-side
evaluations), and when ``h ρ ≥`` :data:`STIFF_FRACTION` ``· β`` (``h`` the last step) on two consecutive
checks the run stops with a
:class:`~frames.errors.StiffnessError` that names the estimate and the implicit methods to use instead.
A non-stiff run is never refused: its step is limited by accuracy (``h ρ ≪ β``), and a run within its
budget is never looked at.

The spectrum also tells a run held by a fast time scale that is *not* damped: an undamped stiff spring (``k =
10^{12}``, eigenvalues ``±i 10^6``) keeps every method, explicit or implicit, at steps ``h ~ 1/ρ`` set by
accuracy, so the span needs about ``ρ (t_1 − t)/(h ρ)`` steps. When the rest of the span is beyond the budget at
a steady step and ``h ρ ≥`` :data:`FAST_FRACTION` on two consecutive checks, the run stops with a
:class:`~frames.errors.StiffnessError` naming ``ρ``, ``1/ρ`` against the span and the steps needed (for any
method: ``Radau``, ``BDF`` and ``LSODA`` included, which resolve the oscillation as well).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np

from ..errors import FramesError, StiffnessError
from ._frame import FrameMonitor

__all__ = [
    "CHECK_EVERY",
    "FAST_FRACTION",
    "IMPLICIT_HINT",
    "STABILITY_BOUNDARY",
    "STIFF_FRACTION",
    "StiffnessMonitor",
    "collapse_message",
    "oscillatory",
    "spectral_radius",
]

#: Where the stability region of each explicit method meets the negative real axis (``−β``).
STABILITY_BOUNDARY = {"RK23": 2.5, "RK45": 3.3, "DOP853": 6.0, "RK4": 2.78}

#: A step with ``h ρ`` at least this fraction of ``β`` is held by stability, not by accuracy.
STIFF_FRACTION = 0.25

#: A step with ``h ρ`` at least this is set by the fastest time scale ``1/ρ`` (not by a slower motion).
FAST_FRACTION = 1e-2

#: Accepted steps between two checks.
CHECK_EVERY = 100

#: The advice that ends every stiffness refusal.
IMPLICIT_HINT = "the system is stiff: use an implicit method, method='Radau', 'BDF' or 'LSODA' (one trajectory)"

_START = np.random.default_rng(20260101)  # a fixed start vector for the power iteration (deterministic)


def spectral_radius(
    f: Callable[[float, np.ndarray], np.ndarray], t: float, y: np.ndarray, iterations: int = 8
) -> np.ndarray:
    r"""An estimate of ``ρ(∂f/∂y)`` at ``(t, y)`` by power iteration on finite differences.

    ``J v ≈ (f(t, y + ε v) − f(t, y))/ε`` with ``|v| = 1`` and ``ε = \sqrt{\epsilon_{mach}} \max(1, |y|)``;
    after ``iterations`` products the estimate is ``\sqrt{|J^2 v|/|v|}`` over the last two (exact for a
    complex pair ``±iω`` of a normal block, where ``|J v|`` alone does not converge). ``y`` is one state
    ``(n,)`` or a batch ``(n, B)`` (the columns are independent; one estimate per column). A non-finite
    value, or a right-hand side that refuses a perturbed state, gives ``nan`` (no verdict).
    """
    y = np.asarray(y, dtype=float)
    try:
        return _power_iteration(f, t, y, iterations)
    except (FramesError, ArithmeticError, ValueError):  # a perturbed state off the domain (a singular set)
        return np.full(y.shape[1:], np.nan)


def _power_iteration(
    f: Callable[[float, np.ndarray], np.ndarray], t: float, y: np.ndarray, iterations: int
) -> np.ndarray:
    fy = np.asarray(f(t, y), dtype=float)
    v = np.asarray(_START.standard_normal(y.shape[0]), dtype=float)
    v = np.broadcast_to(v.reshape((-1,) + (1,) * (y.ndim - 1)), y.shape).copy()
    v /= np.linalg.norm(v, axis=0)
    eps = math.sqrt(np.finfo(float).eps) * np.maximum(1.0, np.linalg.norm(y, axis=0))
    norms: list[np.ndarray] = []
    with np.errstate(all="ignore"):
        for _ in range(max(2, iterations)):
            w = (np.asarray(f(t, y + eps * v), dtype=float) - fy) / eps
            nw = np.linalg.norm(w, axis=0)
            norms.append(nw)
            v = w / np.where(nw > 0, nw, 1.0)
        rho = np.sqrt(norms[-1] * norms[-2])
    return np.where(np.isfinite(rho), rho, np.nan)  # type: ignore[no-any-return]


def oscillatory(f: Callable[[float, np.ndarray], np.ndarray], t: float, y: np.ndarray, iterations: int = 8) -> bool:
    r"""Whether the dominant eigenvalues of ``∂f/∂y`` at ``(t, y)`` are a complex pair near the imaginary axis
    (an undamped fast oscillation) rather than real (a decaying stiff mode).

    After the power iteration of :func:`spectral_radius` the vector ``v`` lies in the dominant invariant
    subspace; there ``J^2 v ≈ λ^2 v``: along ``v`` for real ``λ``, against it for ``λ = ±iω`` (``−ω^2``). The
    sign of ``⟨v, J^2 v⟩`` tells them apart (one state ``(n,)``, or a batch's column ``(n, 1)``).
    """
    y = np.asarray(y, dtype=float)
    try:
        with np.errstate(all="ignore"):
            fy = np.asarray(f(t, y), dtype=float)
            eps = math.sqrt(np.finfo(float).eps) * max(1.0, float(np.linalg.norm(y)))

            def jv(v: np.ndarray) -> np.ndarray:
                nv = float(np.linalg.norm(v))
                if nv == 0:
                    return v
                return (np.asarray(f(t, y + eps * v / nv), dtype=float) - fy) / eps * nv

            v = np.asarray(_START.standard_normal(y.shape[0]), dtype=float).reshape(y.shape[0], *y.shape[1:2])
            v = np.broadcast_to(v, y.shape).copy() / np.linalg.norm(v)
            for _ in range(max(2, iterations)):
                w = jv(v)
                nw = float(np.linalg.norm(w))
                if not (nw > 0 and math.isfinite(nw)):
                    return False
                v = w / nw
            w2 = jv(jv(v))
            return bool(float(np.sum(v * w2)) < 0)
    except (FramesError, ArithmeticError, ValueError):
        return False


class StiffnessMonitor:
    """Watches an explicit run (one trajectory or a lock-step batch) and refuses it when it is stiff.

    Parameters
    ----------
    what : str
        The run's name in messages (``"RK45"``, ``"batch RK45"``).
    method : str
        A key of :data:`STABILITY_BOUNDARY` (an explicit method: held at its stability boundary, or by a fast
        time scale), or another (an implicit method: held by a fast time scale only).
    t0, t1 : float
        The span of the run (a run integrated in pieces gives its whole span: the messages name it).
    max_steps : int
        The step budget (accepted steps, or accepted and rejected for a batch: as the caller counts).
    timeout : float or None
        The wall-clock budget in seconds.
    frame : FrameMonitor or None
        The run's adapted frame (:mod:`frames.numeric._frame`): where it is ill-conditioned, a stiff-looking run is
        refused as a degenerate frame (:class:`~frames.errors.DegenerateFrameError`), never as stiff.
    """

    def __init__(
        self,
        what: str,
        method: str,
        t0: float,
        t1: float,
        max_steps: int,
        timeout: float | None,
        frame: FrameMonitor | None = None,
    ) -> None:
        self.what = what
        self.frame = frame
        self.beta = STABILITY_BOUNDARY.get(method)
        self.t1 = float(t1)
        self.max_steps = max_steps
        self.timeout = timeout
        self.start = time.monotonic()
        self.deadline = None if timeout is None or not math.isfinite(timeout) else self.start + timeout
        self.t_mark = float(t0)
        self.steps_mark = 0
        self.h_mark = 0.0
        self.strikes = 0

    def check(
        self,
        f: Callable[[float, np.ndarray], np.ndarray],
        t: float,
        y: np.ndarray,
        h_last: float,
        steps: int,
        used: int,
    ) -> None:
        """After an accepted step of size ``h_last``: ``steps`` accepted so far, ``used`` counted against ``max_steps``.

        Raises
        ------
        DegenerateFrameError
            Where a stiffness verdict would be given but the run's frame is ill-conditioned.
        StiffnessError
            On the second consecutive check that finds the step held by stability (``h ρ ≥ STIFF_FRACTION β``
            with ``h`` the last step) and steady (the mean step of the window at least half the previous
            window's: a finite-time blow-up shrinks it geometrically) with the rest of the span beyond the budget.
        """
        if steps - self.steps_mark < CHECK_EVERY:
            return
        h = abs(t - self.t_mark) / (steps - self.steps_mark)
        steady = h >= 0.5 * self.h_mark
        self.t_mark, self.steps_mark, self.h_mark = float(t), steps, h
        left = abs(self.t1 - t)
        need = math.inf if h == 0 else left / h
        now = time.monotonic()
        pace = (now - self.start) / max(steps, 1)
        over = need > self.max_steps - used or (self.deadline is not None and need * pace > self.deadline - now)
        if not (over and steady):
            self.strikes = 0
            return
        rho = spectral_radius(f, t, y)
        j = int(np.nanargmax(rho)) if rho.ndim and np.any(np.isfinite(rho)) else 0
        r = float(rho.reshape(-1)[j]) if rho.size else math.nan
        hr = abs(h_last) * r
        held = self.beta is not None and hr >= STIFF_FRACTION * self.beta
        if not held:  # a fast undamped oscillation (imaginary dominant eigenvalues) sets the step of any method
            col = y if y.ndim == 1 else y[:, j : j + 1]
            if not (max(hr, h * r) >= FAST_FRACTION and oscillatory(f, t, col)):
                self.strikes = 0
                return
        self.strikes += 1
        if self.strikes < 2:
            return
        if self.frame is not None:  # stiffness is diagnosed only where the frame is well conditioned
            self.frame.refuse_if_ill(t, y, "stiffness", member=None if y.ndim == 1 else j)
        state = y if y.ndim == 1 else y[:, j]
        member = "" if y.ndim == 1 else f" (batch member {j}, its state attached)"
        budget = f"max_steps = {self.max_steps}" + ("" if self.timeout is None else f", timeout = {self.timeout:g} s")
        if not held:
            raise StiffnessError(
                f"{self.what}: stopped at t = {t:.6g} of {self.t1:g} after {steps} steps{member}: the step is set by "
                f"the fastest time scale of the system (spectral radius of ∂f/∂y ρ ≈ {r:.3g}, 1/ρ ≈ {1 / r:.3g} "
                f"against the remaining span {left:.3g}; step h = {abs(h_last):.3g}, h·ρ ≈ {hr:.3g}), so the span "
                f"would need about {need:.3g} more steps, beyond the budget ({budget}); the system is stiff "
                "(an undamped fast mode: a stiff spring without damping): every method must resolve it, implicit "
                "ones too; shorten the span, raise the budget, or model the fast mode as a constraint",
                t,
                state,
            )
        raise StiffnessError(
            f"{self.what}: stopped at t = {t:.6g} of {self.t1:g} after {steps} steps{member}: the step is held at "
            f"the stability boundary (step h = {abs(h_last):.3g}, spectral radius of ∂f/∂y ρ ≈ {r:.3g}, "
            f"h·ρ ≈ {abs(h_last) * r:.3g}, "
            f"boundary {self.beta:g}), so the remaining span {left:.3g} would need about {need:.3g} more steps, "
            f"beyond the budget ({budget}); {IMPLICIT_HINT}",
            t,
            state,
        )


def collapse_message(what: str, t: float, t1: float, max_steps: int, window: int) -> str:
    """The message of a step-size collapse found by a kernel without a stiffness estimate (numba's): the mean
    step of the last ``window`` accepted steps, projected over the rest of the span, exceeded the steps left
    in ``max_steps`` on two consecutive windows."""
    return (
        f"{what}: stopped at t = {t:.6g} of {t1:g}: the step size has collapsed (the mean step of the last "
        f"{window} steps would need more than max_steps = {max_steps} steps for the rest of the span); "
        f"probably {IMPLICIT_HINT.removeprefix('the system is ')}, backend='numpy'"
    )
