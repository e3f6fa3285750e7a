"""A batch run: many initial conditions and parameter sets integrated together, by the NumPy lock-step kernels
(:mod:`frames.numeric._rk`), the numba kernels (:mod:`frames.numeric._numba`) or the discrete
Lagrange–d'Alembert scheme member by member; the result is one :class:`TrajectoryBatch`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..errors import SingularityError
from ._compiled import KINEMATIC
from ._frame import frame_monitor
from ._laws import InputLaw, batch_laws_along
from ._lda import lda_midpoint
from ._numba import dp45_numba, rk4_numba
from ._problem import Problem
from ._progress import ProgressBar
from ._rk import dp45_batch, rk4_batch
from ._single import lda_scheme
from ._solvers import RK4, RK45, LDAMidpoint, NumbaRK4, NumbaRK45, Solver
from ._trajectory import _NOT_EXTRAS, TrajectoryBatch, _frozen, deferred

__all__ = ["run_batch"]


def run_batch(problem: Problem, solver: Solver) -> TrajectoryBatch:
    """Integrate the batch of ``problem`` (initial state ``(n_state, B)``) with the engine of ``solver``."""
    comp, p, te = problem.comp, problem.p, problem.t_eval
    assert te is not None
    S = comp.system
    nb = problem.size
    engine = solver.engine(True)
    with ProgressBar.for_run(problem.progress, engine == "rk", nb, problem.t0, problem.t1) as bar:
        te, Ys, info = _kernels(problem, solver, bar)
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
    info |= {"rtol": getattr(solver, "rtol", 1e-9), "atol": getattr(solver, "atol", 1e-12)}
    if problem.laws:
        info["inputs"] = problem.info_inputs()
    return _batch_result(comp, te, Ys, p, problem.params, solver.label, info, problem.laws)


def _batch_result(
    comp: Any,
    te: np.ndarray,
    Ys: np.ndarray,
    p: np.ndarray,
    pd_: dict[str, Any],
    meth: str,
    info: dict[str, Any],
    laws: tuple[InputLaw, ...] = (),
) -> TrajectoryBatch:
    """The natural state on all (time, member) pairs now, the other observables when read, as a :class:`TrajectoryBatch`.

    Callable inputs ``laws`` are evaluated at the samples for the observables they enter.
    """
    S = comp.system
    nb = Ys.shape[2]
    N = len(te)
    Yf = Ys.transpose(1, 2, 0).reshape(S.n_state, nb * N)  # member-major
    tf = np.tile(te, nb)
    pf = np.repeat(p, N, axis=1) if p.ndim == 2 else p
    kin = comp.observe(tf, Yf, pf, keys=KINEMATIC)

    def shape3(a: np.ndarray) -> np.ndarray:
        return a.reshape(a.shape[0], nb, N).transpose(1, 2, 0)

    memo: dict[str, Any] = {}

    def obs(key: str) -> np.ndarray:
        if key not in memo:
            if "p" not in memo:
                memo["p"] = batch_laws_along(laws, te, kin["q"], kin["u"], pf, nb) if laws else pf
            memo[key] = comp.observe(tf, Yf, memo["p"], keys=(key,))[key]
        return memo[key]  # type: ignore[no-any-return]

    def residual() -> np.ndarray:
        cv = comp.constraint_values(tf, kin["q"], kin["u"], pf)
        if cv is None or not cv.shape[0]:
            return np.zeros((nb, N))
        return comp.distance_to_D(tf, kin["q"], kin["u"], pf).reshape(nb, N)  # type: ignore[no-any-return]

    params_out = {k: (np.asarray(val) if np.ndim(val) else float(val)) for k, val in pd_.items()}
    return TrajectoryBatch(
        t=_frozen(te),  # type: ignore[arg-type]
        q=_frozen(shape3(kin["q"])),  # type: ignore[arg-type]
        u=_frozen(shape3(kin["u"])),  # type: ignore[arg-type]
        v=_frozen(shape3(kin["v"])),  # type: ignore[arg-type]
        state=_frozen(Ys.transpose(2, 0, 1)),  # type: ignore[arg-type]
        energy=deferred(lambda: _frozen(obs("energy")[0].reshape(nb, N)) if "energy" in S.observables else None),
        multipliers=deferred(lambda: _frozen(shape3(obs("multipliers"))) if "multipliers" in S.observables else None),
        residual=deferred(lambda: _frozen(residual())),
        extras=deferred(lambda: {k: _frozen(shape3(obs(k))) for k in S.observables if k not in _NOT_EXTRAS}),
        params=params_out,
        form=S.form,
        method=meth,
        info=info,
        names=dict(S.names),
    )


def _kernels(problem: Problem, solver: Solver, bar: ProgressBar) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """The integration of a batch: ``(t, Ys (N, n_state, B), info)``."""
    comp, p, Y0, t0, t1 = problem.comp, problem.p, problem.Y0, problem.t0, problem.t1
    te = problem.t_eval
    assert te is not None
    nb = Y0.shape[1]
    if isinstance(solver, LDAMidpoint):
        scheme = lda_scheme(problem.target)
        n = comp.system.chart.dim
        parts = []
        step = float(solver.step)  # type: ignore[arg-type]
        for j in range(nb):
            pj = p if p.ndim == 1 else p[:, j]
            fj = frame_monitor(comp, pj, f"lda-midpoint (batch member {j})", t0, Y0[:, j])
            te, Qj, Uj, info = lda_midpoint(
                scheme,
                t0,
                t1,
                Y0[:n, j],
                Y0[n : 2 * n, j],
                pj,
                step,
                max_steps=solver.max_steps,
                timeout=solver.timeout,
                frame=fj,
            )
            parts.append(np.hstack([Qj, Uj]))
            bar.advance()
        return te, np.stack(parts, axis=2), info
    numba = solver.engine(True) == "numba"
    fm = frame_monitor(comp, p, f"numba {solver.label}" if numba else f"batch {solver.label}", t0, Y0)
    if isinstance(solver, NumbaRK45):
        Ys, info = dp45_numba(comp, t0, t1, Y0, p, te, solver.rtol, solver.atol, solver.max_steps, solver.timeout)
    elif isinstance(solver, NumbaRK4):
        Ys, info = rk4_numba(comp, t0, t1, Y0, p, te, int(solver.n_steps), solver.timeout, solver.max_steps)  # type: ignore[arg-type]
    if numba:
        if fm is not None:  # the jitted kernels do not see the frame: checked at the output times
            fm.check_samples(te, Ys)
        return te, Ys, info
    fb = comp.fun_batch(p, problem.laws)
    if isinstance(solver, RK45):
        gb: Callable[[float, np.ndarray], np.ndarray] | None = None
        if comp.guard_depends_on_state:

            def gb(t: float, Y: np.ndarray) -> np.ndarray:
                return np.asarray(comp.guard(t, Y, p))

        Ys, info = dp45_batch(
            fb, t0, t1, Y0, te, solver.rtol, solver.atol, solver.max_steps, solver.timeout, gb, on_step=bar.on_step,
            frame=fm,
        )  # fmt: skip
        return te, Ys, info
    assert isinstance(solver, RK4)
    Ys, info = rk4_batch(fb, t0, t1, Y0, te, int(solver.n_steps), solver.timeout, on_step=bar.on_step, frame=fm)  # type: ignore[arg-type]
    return te, Ys, info
