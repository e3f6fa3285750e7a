"""What is integrated, as one value built once at the door: the compiled system, the span, the initial state of
shape ``(n_state, B)`` (one trajectory is a batch of one), the bound parameters, the input laws and the requests
(output times, events, dense output, progress) — checked here, once, against the solver that will run it.

Every engine answers ``run(problem, solver)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

import numpy as np

from .._value import Value
from ..errors import (
    ArgumentError,
    InconsistentInitialDataError,
    OptionError,
    SingularFrameError,
    SingularityError,
    StateError,
)
from ._inputs import (
    _batch_array,
    _extras,
    _initial_data,
    _merge_params,
    _singular_frame_message,
    _t_span,
    velocities_from_v0,
)
from ._laws import InputLaw, TimeLaw, input_law, split_inputs
from ._options import PROJECTIONS, _check_dense_output, _check_events, _check_t_eval, _check_tol
from ._progress import ProgressBar
from ._resolve import Target
from ._solvers import Solver

__all__ = ["Problem", "build_problem", "is_batch"]

#: The output grid of one trajectory when no ``t_eval`` is given (as ``frames simulate``'s 401 points).
DEFAULT_POINTS = 401
#: The output grid of a batch (and of the jitted kernels) when no ``t_eval`` is given.
BATCH_POINTS = 101


def is_batch(q0: Any) -> bool:
    """Initial data ``q0`` of a batch: a 2-d array ``(B, n)``, or a mapping with 1-d arrays ``(B,)`` as values."""
    if isinstance(q0, Mapping):
        return any(np.ndim(v) >= 1 and not isinstance(v, str | bytes) for v in q0.values())
    if isinstance(q0, str | bytes):
        return False
    try:
        return np.ndim(q0) >= 2
    except (TypeError, ValueError):  # ragged nested sequences
        return True


class Problem(Value):
    """One integration problem, the initial data checked (see :func:`build_problem`).

        ``Y0`` has shape ``(n_state, B)``: one trajectory is a batch of one (``batch`` False). ``p`` is the bound
        parameter vector (``(n_params,)`` or ``(n_params, B)``), ``params`` the numbers by name (the driven ones
        left out), ``laws`` the callable inputs. ``t_eval`` is the output grid (None: the nodes of
    ``lda-midpoint``); ``grid`` True when it is the default grid (a terminal event then adds its own sample).
    """

    target: Target = field(compare=False)
    t0: float
    t1: float
    Y0: np.ndarray = field(compare=False)
    p: np.ndarray = field(compare=False)
    params: dict[str, Any] = field(compare=False)
    laws: tuple[InputLaw, ...] = field(compare=False)
    batch: bool = False
    projection: dict[str, Any] | None = field(default=None, compare=False)
    t_eval: np.ndarray | None = field(default=None, compare=False)
    events: tuple[tuple[Any, float, float], ...] = field(default=(), compare=False)
    dense_output: bool = False
    progress: bool | ProgressBar | None = field(default=None, compare=False)
    grid: bool = False

    @property
    def comp(self) -> Any:
        """The compiled system."""
        return self.target.comp

    @property
    def size(self) -> int:
        """The number of members ``B``."""
        return int(self.Y0.shape[1])

    @property
    def y0(self) -> np.ndarray:
        """The initial state of one trajectory, ``(n_state,)``."""
        return self.Y0[:, 0]

    def info_inputs(self) -> dict[str, str]:
        """``{name: "t" or "(t, q, u)"}`` of the callable inputs (``Trajectory.info["inputs"]``)."""
        return {law.name: law.signature for law in self.laws}


def build_problem(
    target: Target,
    solver: Solver,
    t_span: Any,
    q0: Any,
    u0: Any,
    v0: Any,
    *,
    x: Any,
    params: Mapping[Any, Any] | None,
    inputs: Mapping[Any, Any] | None,
    extra0: Mapping[str, Any] | None,
    project: Any,
    constraint_tol: Any,
    t_eval: Any,
    events: Any,
    dense_output: Any,
    progress: Any,
) -> Problem:
    """The :class:`Problem` of ``integrate``: every input checked once, against ``solver``'s declared support."""
    if project not in PROJECTIONS:
        raise OptionError(f"project={project!r} must be one of {PROJECTIONS}")
    _check_tol(constraint_tol)
    _check_dense_output("integrate", dense_output)
    if progress is not None and not isinstance(progress, bool | ProgressBar):
        raise ArgumentError(f"integrate: progress: expected True, False, None or a ProgressBar, got {progress!r}")
    batch = is_batch(q0)
    engine = solver.engine(batch)
    what = _what(solver)
    if events is not None and (batch or not solver.supports("events")):
        if batch:
            raise OptionError(
                "integrate: events, dense_output and solver_options are options of a single run "
                "(one trajectory); a batch has none"
            )
        raise OptionError(f"integrate: events need one of scipy's methods; {what} has no events")
    if dense_output and (batch or not solver.supports("dense_output")):
        if batch:
            raise OptionError(
                "integrate: events, dense_output and solver_options are options of a single run "
                "(one trajectory); a batch has none"
            )
        raise OptionError(f"integrate: dense_output=True needs one of scipy's methods; {what} has no dense output")
    if batch and getattr(solver, "options", None):
        raise OptionError(
            "integrate: events, dense_output and solver_options are options of a single run "
            "(one trajectory); a batch has none"
        )
    if engine == "lda" and t_eval is not None:
        raise OptionError("integrate: method='lda-midpoint' returns the nodes t0 + k h; t_eval is not supported")
    ev = tuple(_check_events("integrate", events))
    t0, t1 = _t_span(t_span)
    if (u0 is None) == (v0 is None):
        raise StateError(
            "integrate: give the initial velocities once: u0 (the natural velocities) or v0 (the independent "
            "quasi-velocities of the method's frame)"
        )
    merged = _merge_params(target.defaults, params)
    if inputs is not None:
        merged = _with_inputs(merged, inputs)
    if v0 is not None:
        u0 = _u0_from_v0(x, target, q0, v0, merged, batch)
    numbers, laws = split_inputs(target.comp, merged)
    if laws and not solver.supports("inputs"):
        names = ", ".join(repr(law.name) for law in laws)
        raise OptionError(
            f"integrate: params[{names}] given as callables: {what} takes numbers only; callable inputs are "
            "evaluated by the numpy backend with scipy's methods or the NumPy batch (backend='numpy', the default)"
        )
    comp = target.comp
    driven = {law.name for law in laws}
    if batch:
        if t1 < t0:
            raise StateError(f"integrate: a batch integrates forward: t_span=({t0}, {t1}) must be increasing")
        p, Y0, projection = _batch_initial(comp, t0, q0, u0, numbers, extra0, project, constraint_tol)
        te: np.ndarray | None = _grid(t_eval, t0, t1, BATCH_POINTS)
    else:
        if engine in ("numba", "lda") and not t1 > t0:
            name = "backend='numba'" if engine == "numba" else "method='lda-midpoint'"
            raise StateError(f"integrate: {name} integrates forward: t_span=({t0}, {t1}) must be increasing")
        p, y0, projection = _initial_data(
            comp, t0, q0, u0, numbers, None if engine == "lda" else extra0, project, constraint_tol
        )
        if engine == "scipy":
            comp.check_initial_guard(t0, y0, p)
        Y0 = y0[:, None]
        te = _grid(t_eval, t0, t1, BATCH_POINTS if engine == "numba" else DEFAULT_POINTS) if engine != "lda" else None
    return Problem(
        target=target,
        t0=t0,
        t1=t1,
        Y0=Y0,
        p=p,
        params={k: v for k, v in numbers.items() if k not in driven},
        laws=laws,
        batch=batch,
        projection=projection,
        t_eval=te,
        events=ev,
        dense_output=bool(dense_output),
        progress=progress,
        grid=t_eval is None and te is not None,
    )


def _what(solver: Solver) -> str:
    eng = solver.single_engine or solver.batch_engine
    if eng == "numba":
        return "backend='numba'"
    if eng == "lda":
        return "method='lda-midpoint'"
    return f"{type(solver).__name__}"


def _grid(t_eval: Any, t0: float, t1: float, n: int) -> np.ndarray:
    te = _check_t_eval("integrate", t_eval, t0, t1)
    return np.linspace(t0, t1, n) if te is None else te


def _with_inputs(merged: dict[str, Any], inputs: Any) -> dict[str, Any]:
    """``params`` with the laws of ``inputs`` (name or symbol -> ``law(t, q, u)`` or :func:`time_law`)."""
    if not isinstance(inputs, Mapping):
        raise OptionError(f"integrate: inputs must be a mapping name -> law(t, q, u), got {type(inputs).__name__}")
    out = dict(merged)
    for k, law in inputs.items():
        name = getattr(k, "name", k)
        if not isinstance(name, str):
            raise OptionError(f"integrate: inputs key {k!r:.60} is not a parameter name (str) or symbol")
        if not callable(law) and not isinstance(law, TimeLaw):
            raise OptionError(
                f"integrate: inputs[{name!r}] = {law!r:.60} is not callable: an input is a law(t, q, u) "
                "(a constant goes in params=)"
            )
        out[name] = input_law(law)
    return out


def _u0_from_v0(x: Any, target: Target, q0: Any, v0: Any, params: dict[str, Any], batch: bool) -> Any:
    """``u0`` from the independent quasi-velocities ``v0`` (one row, or one row per batch member)."""
    frame, m = _frame_of(x, target)
    if not batch:
        return velocities_from_v0(frame, m, q0, v0, params)
    Q0 = _batch_array(q0, frame.chart.q, "q0")
    V0 = _batch_array(v0, frame.v[:m], "v0")
    if V0.shape[1] != Q0.shape[1]:
        raise StateError(f"q0 and v0 batches differ: {Q0.shape[1]} and {V0.shape[1]} members")
    return np.array([velocities_from_v0(frame, m, Q0[:, j], V0[:, j], params) for j in range(Q0.shape[1])])


def _frame_of(x: Any, target: Any) -> tuple[Any, int]:
    """The adapted frame and the rank ``m`` of D behind what is integrated (for ``v0``)."""
    for obj in (x, getattr(x, "system", None), getattr(target, "system", None)):
        frame, m = getattr(obj, "frame", None), getattr(obj, "m", None)
        if frame is not None and hasattr(frame, "matrix") and hasattr(frame, "v"):
            return frame, (m if isinstance(m, int) else frame.dim)
    if hasattr(x, "nonholonomic"):
        nh = x.nonholonomic()
        return nh.frame, nh.m
    raise OptionError(f"integrate: v0 needs a system with an adapted frame; {type(x).__name__} has none: give u0")


def _batch_initial(
    comp: Any,
    t0: float,
    q0: Any,
    u0: Any,
    numbers: dict[str, Any],
    extra0: Mapping[str, Any] | None,
    project: Any,
    tol: float,
) -> tuple[np.ndarray, np.ndarray, dict[str, Any] | None]:
    """``(p, Y0, projection)`` of a batch: the rows checked, projected onto D when asked, the guard checked."""
    S = comp.system
    Q0 = _batch_array(q0, S.chart.q, "q0")
    U0 = _batch_array(u0, S.chart.u, "u0")
    if Q0.shape != U0.shape:
        raise StateError(f"q0 and u0 batches differ: {Q0.shape[1]} and {U0.shape[1]} members")
    nb = Q0.shape[1]
    if nb == 0:
        raise StateError("q0, u0: an empty batch (0 members); give at least one row (q0 of shape (B, n), B ≥ 1)")
    p = comp.bind(numbers, batch=nb)
    X0 = _extras(comp, extra0, nb)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # a pole is reported below, by member
        c = comp.constraint_values(t0, Q0, U0, p)
    projection = None
    if c is not None and c.size and not np.all(np.isfinite(c)):
        j = int(np.nonzero(~np.all(np.isfinite(c), axis=0))[0][0])
        raise SingularFrameError(f"batch member {j}: " + _singular_frame_message(Q0[:, j]))
    if c is not None and c.size:
        scale = np.maximum(1.0, np.max(np.abs(U0), axis=0))
        bad = np.nonzero(np.max(np.abs(c), axis=0) > tol * scale)[0]
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
            projection = {"method": how, "members": bad.tolist()}
    Y0 = np.asarray(comp.initial_state(t0, Q0, U0, X0, p), dtype=float)
    g0 = comp.guard(t0, Y0, p)
    if g0 is not None:
        g0 = np.broadcast_to(g0, (nb,))
        badg = np.nonzero(~np.isfinite(g0) | (g0 == 0))[0]
        if badg.size:
            raise SingularityError(f"singular initial point for batch members {badg[:10].tolist()}", t0, Y0[:, badg[0]])
    return p, Y0, projection
