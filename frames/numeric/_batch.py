"""A batch run: many initial conditions and parameter sets integrated together, by the NumPy lock-step kernels
(:mod:`frames.numeric._rk`), the numba kernels (:mod:`frames.numeric._numba`) or the discrete
Lagrange–d'Alembert scheme member by member; the result is one :class:`TrajectoryBatch`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ..errors import InconsistentInitialDataError, SingularFrameError, SingularityError, StateError
from ._compiled import KINEMATIC
from ._frame import frame_monitor
from ._inputs import _batch_array, _extras, _merge_params, _singular_frame_message
from ._laws import InputLaw, batch_laws_along, check_engine, split_inputs
from ._lda import lda_midpoint
from ._numba import dp45_numba, rk4_numba
from ._options import IntegrationOptions, _check_t_eval
from ._progress import ProgressBar
from ._resolve import Target
from ._rk import dp45_batch, rk4_batch
from ._single import lda_scheme
from ._trajectory import _NOT_EXTRAS, TrajectoryBatch, _frozen, deferred

__all__ = ["run_batch"]


def run_batch(
    target: Target,
    t0: float,
    t1: float,
    q0: Any,
    u0: Any,
    params: Mapping[Any, Any] | None,
    extra0: Mapping[str, Any] | None,
    opts: IntegrationOptions,
) -> TrajectoryBatch:
    """Integrate the batch ``q0, u0`` (``(B, n)``) of ``target`` with the engine that ``opts`` names."""
    meth = opts.batch()
    lda = meth == "lda-midpoint"
    comp = target.comp
    S = comp.system
    if t1 < t0:
        raise StateError(f"integrate: a batch integrates forward: t_span=({t0}, {t1}) must be increasing")
    Q0 = _batch_array(q0, S.chart.q, "q0")
    U0 = _batch_array(u0, S.chart.u, "u0")
    if Q0.shape != U0.shape:
        raise StateError(f"q0 and u0 batches differ: {Q0.shape[1]} and {U0.shape[1]} members")
    nb = Q0.shape[1]
    if nb == 0:
        raise StateError("q0, u0: an empty batch (0 members); give at least one row (q0 of shape (B, n), B ≥ 1)")
    pd_, laws = split_inputs(comp, _merge_params(target.defaults, params))
    if lda:
        check_engine(laws, "method='lda-midpoint'")
    elif opts.backend == "numba":
        check_engine(laws, "backend='numba'")
    p = comp.bind(pd_, batch=nb)
    X0 = _extras(comp, extra0, nb)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # a pole is reported below, by member
        c = comp.constraint_values(t0, Q0, U0, p)
    if c is not None and c.size and not np.all(np.isfinite(c)):
        j = int(np.nonzero(~np.all(np.isfinite(c), axis=0))[0][0])
        raise SingularFrameError(f"batch member {j}: " + _singular_frame_message(Q0[:, j]))
    if c is not None and c.size:
        scale = np.maximum(1.0, np.max(np.abs(U0), axis=0))
        bad = np.nonzero(np.max(np.abs(c), axis=0) > opts.constraint_tol * scale)[0]
        if bad.size:
            if not opts.project:
                raise InconsistentInitialDataError(
                    f"initial velocities of batch members {bad[:10].tolist()} violate the constraints "
                    f"(max residual {float(np.max(np.abs(c))):.3g}); pass project= to project them onto D"
                )
            how = "kinetic" if opts.project is True else str(opts.project)
            for jb in bad:
                pj = p if p.ndim == 1 else p[:, jb]
                U0[:, jb] = comp.project(how, t0, Q0[:, jb], U0[:, jb], pj)
    Y0 = np.asarray(comp.initial_state(t0, Q0, U0, X0, p), dtype=float)
    te = np.linspace(t0, t1, 101) if opts.t_eval is None else _check_t_eval("integrate", opts.t_eval, t0, t1)
    assert te is not None
    g0 = comp.guard(t0, Y0, p)
    if g0 is not None:
        g0 = np.broadcast_to(g0, (nb,))
        badg = np.nonzero(~np.isfinite(g0) | (g0 == 0))[0]
        if badg.size:
            raise SingularityError(f"singular initial point for batch members {badg[:10].tolist()}", t0, Y0[:, badg[0]])
    with ProgressBar.for_batch(opts.progress, not lda and opts.backend == "numpy", nb, t0, t1) as bar:
        te, Ys, info = _kernels(target, p, Y0, te, t0, t1, meth, opts, bar, laws)
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
    info |= {"rtol": opts.rtol, "atol": opts.atol}
    if laws:
        info["inputs"] = {law.name: law.signature for law in laws}
        driven = {law.name for law in laws}
        pd_ = {k: v for k, v in pd_.items() if k not in driven}
    return _batch_result(comp, te, Ys, p, pd_, meth, info, laws)


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


def _kernels(
    target: Target,
    p: np.ndarray,
    Y0: np.ndarray,
    te: np.ndarray,
    t0: float,
    t1: float,
    meth: str,
    opts: IntegrationOptions,
    bar: ProgressBar,
    laws: tuple[InputLaw, ...] = (),
) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """The integration of a batch (options checked): ``(t, Ys (N, n_state, B), info)``."""
    comp = target.comp
    nb = Y0.shape[1]
    if meth == "lda-midpoint":
        scheme = lda_scheme(target)
        n = comp.system.chart.dim
        parts = []
        step = float(opts.step)  # type: ignore[arg-type]
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
                max_steps=opts.max_steps,
                timeout=opts.timeout,
                frame=fj,
            )
            parts.append(np.hstack([Qj, Uj]))
            bar.advance()
        return te, np.stack(parts, axis=2), info
    fm = frame_monitor(comp, p, f"batch {meth}" if opts.backend != "numba" else f"numba {meth}", t0, Y0)
    if opts.backend == "numba":
        if meth == "RK45":
            Ys, info = dp45_numba(comp, t0, t1, Y0, p, te, opts.rtol, opts.atol, opts.max_steps, opts.timeout)
        else:
            Ys, info = rk4_numba(comp, t0, t1, Y0, p, te, int(opts.n_steps), opts.timeout, opts.max_steps)  # type: ignore[arg-type]
        if fm is not None:  # the jitted kernels do not see the frame: checked at the output times
            fm.check_samples(te, Ys)
        return te, Ys, info
    fb = comp.fun_batch(p, laws)
    if meth == "RK45":
        gb: Callable[[float, np.ndarray], np.ndarray] | None = None
        if comp.guard_depends_on_state:

            def gb(t: float, Y: np.ndarray) -> np.ndarray:
                return np.asarray(comp.guard(t, Y, p))

        Ys, info = dp45_batch(
            fb, t0, t1, Y0, te, opts.rtol, opts.atol, opts.max_steps, opts.timeout, gb, on_step=bar.on_step, frame=fm
        )
        return te, Ys, info
    Ys, info = rk4_batch(fb, t0, t1, Y0, te, int(opts.n_steps), opts.timeout, on_step=bar.on_step, frame=fm)  # type: ignore[arg-type]
    return te, Ys, info
