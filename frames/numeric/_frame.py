r"""The adapted frame watched along the motion: a frame that degenerates is refused, and never called stiff.

A system integrated in an adapted frame (the reduced form ``q̇ = v^α X_α``, ``v̇^α = Γ^α``, and the natural form
built from the same frame) is only as regular as the frame: where its fields become dependent, or one of them
vanishes, the quasi-velocities, the coframe (the constraint rows ``θ^a``) and the multipliers blow up although the
motion itself may be perfectly regular. The integrators then crawl (the step shrinks with the distance to the
singular set) and the stiffness check sees a huge spectral radius. :class:`FrameMonitor` tells the two apart.

**The measure.** At coordinates ``q`` with frame matrix ``F`` (rows ``X_i(q)``),

.. math::  r(q) = \frac{\det F(q)}{\prod_i \max(\lVert X_i(q)\rVert, \lVert X_i(q_0)\rVert, s_i)},

the Hadamard ratio ``det F / Π‖X_i‖`` (``|r| ≤ 1``, ``1`` for orthogonal fields, independent of the units of each
field) with each field's norm floored at its norm at the start and at its typical size ``s_i`` (the median of
``‖X_i‖`` over :data:`SAMPLES` fixed points with coordinates in ``[−π, π]``), so that a field that shrinks to nothing
counts as a degeneration just as two fields that become parallel do, also in a run that starts close to the
singular set. ``r`` is signed and continuous: it vanishes exactly on the frame's singular set.

**The check**, after every accepted step (one evaluation of the compiled frame matrix and an ``n × n``
determinant): the run stops with :class:`~frames.errors.DegenerateFrameError` (a
:class:`~frames.errors.SingularFrameError`)

* when ``|r|`` falls below :data:`SINGULAR`, is not finite, or changes sign over the step (a step that jumped
  over the singular set; the crossing is then located on the step's dense output);
* when the step collapses as the frame degenerates: every :data:`WINDOW` accepted steps the window's mean step
  is compared with the longest window's; below :data:`COLLAPSE` of it, with ``|r|`` below
  :data:`WELL_CONDITIONED` of its largest value so far (or below :data:`ILL_CONDITIONED`), the run is refused
  there. Near a frame singularity the
  solvers crawl (the quasi-velocities blow up like ``1/r``) long before ``|r|`` gets small: on a car with a
  trailer whose frame is singular at a hitch angle of 90°, Radau took 20,000 steps (50 s) to bring ``|r|`` from
  ``10^{-2}`` to ``3·10^{-3}``; this test stops it after some 600 steps.
* when the run crawls towards the singular set: ``|r|`` below :data:`WELL_CONDITIONED`, falling by less than
  :data:`CRAWL` of itself per step, and the window's mean step shorter than the previous window's, on two
  consecutive windows (a run restarted close to the singular set, which has no longer steps to compare with).

A run that is about to be refused for another reason (stiffness, a step-size failure, the step or time budget)
is first asked :meth:`FrameMonitor.refuse_if_ill`: where ``|r|`` is below :data:`WELL_CONDITIONED` of its largest
value so far, or below :data:`ILL_CONDITIONED`, the frame is blamed, not the system; so stiffness is only ever diagnosed in a well-conditioned
frame. The message names the time, the coordinates and the frame's fields and asks for a frame regular there.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ..errors import DegenerateFrameError

__all__ = [
    "COLLAPSE",
    "ILL_CONDITIONED",
    "SINGULAR",
    "WELL_CONDITIONED",
    "WINDOW",
    "FrameMonitor",
    "frame_monitor",
    "frame_ratio",
]

#: ``|r|`` below this: the frame is singular there (condition numbers of order ``1/r``), the run stops at once.
SINGULAR = 1e-6

#: ``|r|`` below this fraction of its largest value along the run so far: the frame is too ill-conditioned for a
#: verdict on the system (stiffness, a failed step, a collapse of the step).
WELL_CONDITIONED = 1e-2

#: ``|r|`` below this: ill-conditioned whatever its values before (a run restarted close to the singular set).
ILL_CONDITIONED = 1e-3

#: ``|r|`` (below :data:`WELL_CONDITIONED`) falling by less than this fraction per step, with a shrinking step, on
#: two consecutive windows: the run crawls towards the singular set.
CRAWL = 1e-3

#: Points at which each field's typical size is sampled.
SAMPLES = 16

#: Accepted steps per window of the step-collapse test.
WINDOW = 50

#: A window's mean step below this fraction of the longest window's mean step: the step has collapsed.
COLLAPSE = 1e-2

#: The advice that ends every refusal.
REGULAR_HINT = (
    "This is a singularity of the frame, not of the motion (nor stiffness): integrate in a frame regular there, "
    "e.g. NonholonomicSystem(L, frame=Frame([...]), m=m) with other fields, NonholonomicSystem.from_constraints(L, "
    "constraints, complement=[...]), or a system file's `frame` (or `complement`) table"
)


def frame_ratio(F: np.ndarray, floor: np.ndarray) -> np.ndarray:
    """``det F / Π_i max(‖X_i‖, floor_i)`` for frame matrices ``F`` (``(..., n, n)``, rows ``X_i``); ``nan`` where
    not finite."""
    F = np.asarray(F, dtype=float)
    with np.errstate(all="ignore"):
        ok = np.all(np.isfinite(F), axis=(-2, -1))
        G = np.where(ok[..., None, None], F, 0.0)
        scale = np.prod(np.maximum(np.linalg.norm(G, axis=-1), floor), axis=-1)
        r = np.linalg.det(G) / scale
    return np.where(ok & np.isfinite(r), r, np.nan)  # type: ignore[no-any-return]


def _row(X: Any) -> str:
    text = "(" + ", ".join(str(c) for c in X) + ")"
    return text if len(text) <= 160 else text[:157] + "…)"


class FrameMonitor:
    """Watches the adapted frame of one run (one trajectory, or a lock-step batch ``(n_state, B)``).

    Parameters
    ----------
    comp : CompiledSystem
        The compiled system; its ``frame_watched`` must be true.
    p : numpy.ndarray
        The parameters, ``(n_params,)`` or ``(n_params, B)``.
    what : str
        The run's name in messages (``"RK45"``, ``"batch RK45"``).
    t0 : float
    y0 : numpy.ndarray
        The initial state (``q`` first), ``(n_state,)`` or ``(n_state, B)``.

    Raises
    ------
    DegenerateFrameError
        The frame is singular at the initial point.
    """

    def __init__(self, comp: Any, p: Any, what: str, t0: float, y0: np.ndarray) -> None:
        self.comp = comp
        self.p = p
        self.what = what
        self.n = comp.system.dim
        y0 = np.asarray(y0, dtype=float)
        self.batch = y0.ndim == 2
        F0 = self._matrices(t0, y0)
        with np.errstate(all="ignore"):
            at_start = np.where(np.isfinite(F0).all(axis=-1), np.linalg.norm(np.nan_to_num(F0), axis=-1), 0.0)
        self.floor = np.maximum(at_start, self._typical(t0, np.broadcast_to(at_start, F0.shape[:-1]).shape))
        self.r0: Any = frame_ratio(F0, self.floor)  # a float for one state, an array (B,) for a batch
        self.prev: Any = self.r0
        if not self.batch:  # the one-state path works on floats
            self.r0 = self.prev = float(self.r0)
            self._floor1 = [float(x) for x in self.floor]
            self._plist = np.asarray(p, dtype=float).tolist()
            self._one = comp.frame_function()
        self.steps = 0
        self.t_mark = float(t0)
        self.h_ref = 0.0
        self.h_prev = np.inf
        self.r_max: Any = abs(self.r0) if not self.batch else np.abs(self.r0)
        self.r_mark: Any = self.r_max
        self.crawls = np.zeros(np.shape(self.r0), dtype=int)
        self.sampled = False
        self.check(t0, y0)

    def _typical(self, t0: float, shape: tuple[int, ...]) -> np.ndarray:
        """Each field's typical norm: the median of ``‖X_i‖`` over :data:`SAMPLES` fixed points with coordinates in
        ``[−π, π]`` (not finite where the frame has a pole; 0 if nowhere finite), of shape ``shape`` (``(n,)`` or
        ``(B, n)``)."""
        n, k = self.n, SAMPLES
        Qs = np.random.default_rng(20261129).uniform(-np.pi, np.pi, (n, k))
        p = np.asarray(self.p, dtype=float)
        B = shape[0] if len(shape) == 2 and p.ndim == 2 else 1
        Q = np.tile(Qs, B)
        P = np.repeat(p, k, axis=1) if p.ndim == 2 else p
        try:
            F = self.comp.frame_matrices(t0, Q, P)
        except (ArithmeticError, ValueError):  # pragma: no cover - the NumPy code does not raise on poles
            return np.zeros(shape)
        with np.errstate(all="ignore"):
            norms = np.linalg.norm(F, axis=-1).reshape(B, k, n)
            norms = np.where(np.isfinite(norms), norms, np.nan)
            if np.all(np.isnan(norms)):
                return np.zeros(shape)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # a field with a pole at every sample: all nan
                typical = np.nan_to_num(np.nanmedian(norms, axis=1), nan=0.0)
        return np.broadcast_to(typical if len(shape) == 2 else typical[0], shape)

    def _matrices(self, t: float, y: np.ndarray) -> np.ndarray:
        q = y[: self.n]
        try:
            return self.comp.frame_matrices(t, q, self.p)  # type: ignore[no-any-return]
        except (ArithmeticError, ValueError):  # math-module code at a pole of the frame
            return np.full((self.n, self.n), np.nan)

    def _ratio_one(self, t: float, y: np.ndarray) -> float:
        """:meth:`ratio` of one state, on Python floats (``nan`` where the frame is not finite)."""
        n = self.n
        try:
            F = self._one(float(t), y[:n].tolist(), self._plist)
        except (ArithmeticError, ValueError):  # math-module code at a pole of the frame
            return math.nan
        scale = 1.0
        for i, floor in enumerate(self._floor1):
            scale *= max(math.hypot(*F[i * n : (i + 1) * n]), floor)
        if not math.isfinite(scale) or scale == 0.0:  # an entry not finite (hypot and max keep nan and inf)
            return math.nan
        r = float(np.linalg.det(np.array(F, dtype=float).reshape(n, n))) / scale
        return r if math.isfinite(r) else math.nan

    def ratio(self, t: float, y: np.ndarray) -> np.ndarray:
        """The measure ``r`` at state ``y`` (a number, or one per batch member)."""
        return frame_ratio(self._matrices(t, np.asarray(y, dtype=float)), self.floor)

    def check(
        self,
        t: float,
        y: np.ndarray,
        t_old: float | None = None,
        dense: Callable[[float], np.ndarray] | None = None,
    ) -> None:
        """After an accepted step from ``t_old`` to ``(t, y)`` (``dense(s)``: the step's interpolant, optional).

        Raises
        ------
        DegenerateFrameError
            ``|r| <`` :data:`SINGULAR`, ``r`` not finite, or ``r`` changed sign over the step; or the step
            collapsed as the frame degenerated (see the module docstring).
        """
        if not self.batch:  # one state: plain floats (a few microseconds a step)
            r1 = self._ratio_one(t, y)
            if abs(r1) >= SINGULAR and (r1 > 0) == (self.prev > 0):  # False for nan
                self.prev = r1
                self.r_max = max(self.r_max, abs(r1))
                if t_old is not None and not self.sampled:
                    self.steps += 1
                    if self.steps % WINDOW == 0:
                        self._collapse(t, np.asarray(y, dtype=float), np.asarray(r1))
                return
        r = self.ratio(t, y)
        flip = np.sign(r) != np.sign(self.prev)
        bad = ~np.isfinite(r) | (np.abs(r) < SINGULAR) | flip
        if not np.any(bad):
            self.prev = r
            self.r_max = np.maximum(self.r_max, np.abs(r))
            if t_old is not None and not self.sampled:
                self.steps += 1
                if self.steps % WINDOW == 0:
                    self._collapse(t, np.asarray(y, dtype=float), r)
            return
        j = int(np.nonzero(np.atleast_1d(bad))[0][0])
        rj, crossing = float(np.atleast_1d(r)[j]), bool(np.atleast_1d(flip)[j]) and bool(np.isfinite(r).all())
        te, ye = t, np.asarray(y, dtype=float)
        where = ""
        if crossing and t_old is not None:
            where = f"; r changes sign between t = {t_old:.12g} and {t:.12g}"
            if dense is not None:
                from scipy.optimize import brentq

                def g(s: float) -> float:
                    return float(np.atleast_1d(self.ratio(s, dense(s)))[j])

                try:
                    te = float(brentq(g, t_old, t, xtol=1e-14, rtol=1e-12))
                except ValueError:  # no sign change of the interpolant itself: keep the step's end
                    te = t
                ye = np.asarray(dense(te), dtype=float)
                rj = float(np.atleast_1d(self.ratio(te, ye))[j])
                where = f"; r changes sign over the step from t = {t_old:.12g} to {t:.12g}, at t = {te:.12g}"
        raise self.error(te, ye, j, rj, "the frame is singular there" + where)

    def _ill(self, r: np.ndarray) -> np.ndarray:
        """Members whose frame is ill-conditioned at ``r``: not finite, below :data:`WELL_CONDITIONED` of the largest
        value so far, or below :data:`ILL_CONDITIONED`."""
        r = np.atleast_1d(r)
        with np.errstate(invalid="ignore"):
            return ~np.isfinite(r) | (
                np.abs(r) < np.maximum(WELL_CONDITIONED * np.atleast_1d(self.r_max), ILL_CONDITIONED)
            )  # type: ignore[no-any-return]

    def _collapse(self, t: float, y: np.ndarray, r: np.ndarray) -> None:
        """The step-collapse and crawl tests, every :data:`WINDOW` accepted steps."""
        h = abs(t - self.t_mark) / WINDOW
        h_prev, self.h_prev, self.t_mark = self.h_prev, h, float(t)
        ar, ar_mark = np.abs(r), self.r_mark
        self.r_mark = ar
        # crawling towards the singular set: |r| small and falling by less than CRAWL per step, the step shrinking
        with np.errstate(all="ignore"):
            crawl = (ar < WELL_CONDITIONED) & (ar < ar_mark) & ((ar_mark - ar) < CRAWL * WINDOW * ar) & (h < h_prev)
        self.crawls = np.where(crawl, self.crawls + 1, 0)
        if np.any(self.crawls >= 2):
            j = int(np.nonzero(np.atleast_1d(self.crawls >= 2))[0][0])
            rj, rm = float(np.atleast_1d(ar)[j]), float(np.atleast_1d(ar_mark)[j])
            raise self.error(
                t,
                y,
                j,
                float(np.atleast_1d(r)[j]),
                f"the run crawls towards the frame's singular set (|det F| / Π‖X_i‖ fell from {rm:.3g} to {rj:.3g} "
                f"over the last {WINDOW} steps, mean step {h:.3g}, shrinking: at this pace the singular set is never "
                "reached nor passed)",
            )
        if h > self.h_ref:
            self.h_ref = h
            return
        if h >= COLLAPSE * self.h_ref:
            return
        ill = self._ill(r)
        if np.any(ill):
            j = int(np.nonzero(ill)[0][0])
            raise self.error(
                t,
                y,
                j,
                float(np.atleast_1d(r)[j]),
                f"the step has collapsed as the frame degenerates (mean step of the last {WINDOW} steps {h:.3g}, "
                f"{self.h_ref:.3g} at most before; det F / Π‖X_i‖ at most {float(np.atleast_1d(self.r_max)[j]):.3g} "
                "before)",
            )

    def check_samples(self, ts: np.ndarray, Ys: np.ndarray) -> None:
        """:meth:`check` at the output times ``ts`` of a finished run, ``Ys[k]`` the state at ``ts[k]`` (for the
        jitted kernels, which do not see the frame; a crossing is located between two output times)."""
        self.prev = self.r0
        self.sampled = True
        for k in range(len(ts)):
            self.check(float(ts[k]), Ys[k], float(ts[k - 1]) if k else None)

    def blame(self, exc: Exception, instead: str) -> None:
        """Before ``exc`` (an :class:`~frames.errors.IntegrationError` with its ``t`` and ``state``, one trajectory)
        is raised: :meth:`refuse_if_ill` at its point."""
        t, state = getattr(exc, "t", None), getattr(exc, "state", None)
        if not self.batch and t is not None and state is not None and np.ndim(state) == 1:
            self.refuse_if_ill(float(t), np.asarray(state, dtype=float), instead)

    def refuse_if_ill(self, t: float, y: np.ndarray, instead: str, member: int | None = None) -> None:
        """Raise :class:`DegenerateFrameError` if the frame is ill-conditioned at ``(t, y)`` (``|r|`` below
        :data:`WELL_CONDITIONED` of its largest value so far): ``instead`` says what the run would have been refused
        for."""
        r = np.atleast_1d(self.ratio(t, y))
        ill = self._ill(r)
        if member is not None:
            ill = ill & (np.arange(r.size) == member)
        if np.any(ill):
            j = int(np.nonzero(ill)[0][0])
            raise self.error(
                t,
                np.asarray(y, dtype=float),
                j,
                float(r[j]),
                f"the frame is ill-conditioned there (below {WELL_CONDITIONED:g} of its largest value so far, or "
                f"below {ILL_CONDITIONED:g}), so this is not {instead}",
            )

    def error(self, t: float, y: np.ndarray, j: int, r: float, why: str) -> DegenerateFrameError:
        """The refusal at ``(t, y)`` (batch member ``j``) with measure ``r``."""
        state = y[:, j] if self.batch else y
        q = state[: self.n]
        r0 = float(np.atleast_1d(self.r0)[j])
        member = f" (batch member {j})" if self.batch else ""
        S = self.comp.system
        F = S.frame_matrix
        names = ", ".join(s.name for s in S.chart.q)
        fields = "; ".join(f"X{i + 1} = {_row(F.row(i))}" for i in range(F.shape[0]))
        return DegenerateFrameError(
            f"{self.what}: the adapted frame degenerates at t = {t:.12g}{member}, ({names}) = {q.tolist()}: "
            f"det F / Π‖X_i‖ = {r:.3g} ({r0:.3g} at the start); {why}. The frame: {fields}. {REGULAR_HINT}",
            t,
            state,
            q=q,
            ratio=r,
        )


def frame_monitor(comp: Any, p: Any, what: str, t0: float, y0: np.ndarray) -> FrameMonitor | None:
    """A :class:`FrameMonitor` for a run of ``comp`` from ``(t0, y0)``, or None when the system carries no moving
    frame (see ``CompiledSystem.frame_watched``)."""
    if not comp.frame_watched:
        return None
    return FrameMonitor(comp, p, what, t0, y0)
