"""Input normalisation at the door of :func:`~frames.integrate`: initial data (one state or a batch), extra
initial data, parameters and the time span, each checked once with an error naming the argument."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import sympy as sp

from ..algebra.internal import as_expr
from ..errors import InconsistentInitialDataError, ParameterError, SingularFrameError, StateError
from ..geometry import Chart
from ._compiled import CompiledSystem

__all__ = ["velocities_from_v0"]


# ----------------------------------------------------------------------------- input checks
def _numbers(vals: list[Any], what: str, chart: Chart | None, params: Mapping[Any, Any] | None) -> list[Any]:
    """Evaluate sympy entries (e.g. a model's ``u0`` written with parameters) at the given parameters."""
    if not any(isinstance(x, sp.Basic) for x in vals):
        return vals
    sub: dict[sp.Symbol, Any] = {}
    if chart is not None:
        byname = {(k.name if isinstance(k, sp.Symbol) else str(k)): val for k, val in (params or {}).items()}
        sub = {s: as_expr(byname[s.name], name=f"params[{s.name}]") for s in chart.params if s.name in byname}
    out = []
    for x in vals:
        if isinstance(x, sp.Basic):
            e = x.xreplace(sub)
            if e.free_symbols:
                raise StateError(f"{what}: {x} depends on {sorted(map(str, e.free_symbols))}, which have no values")
            try:
                x = float(e)
            except (TypeError, ValueError):
                raise StateError(f"{what}: {x} is not a real number") from None
        out.append(x)
    return out


def _vector(
    x: Any, syms: Sequence[sp.Symbol], what: str, chart: Chart | None = None, params: Mapping[Any, Any] | None = None
) -> np.ndarray:
    n = len(syms)
    if isinstance(x, Mapping):
        byname = {(k.name if isinstance(k, sp.Symbol) else str(k)): val for k, val in x.items()}
        known = {s.name for s in syms}
        unknown = sorted(set(byname) - known)
        if unknown:
            raise StateError(f"{what}: unknown keys {unknown}; expected {sorted(known)}")
        missing = [s.name for s in syms if s.name not in byname]
        if missing:
            hint = (
                "; or give the independent quasi-velocities instead: integrate(..., v0=[...])" if what == "u0" else ""
            )
            raise StateError(f"{what}: missing values for {missing}{hint}")
        vals = _numbers([byname[s.name] for s in syms], what, chart, params)
    else:
        if np.ndim(x) > 1:
            raise StateError(f"{what}: expected {n} numbers, got an array of shape {np.shape(x)}")
        vals = _numbers(list(x) if np.ndim(x) == 1 else [x], what, chart, params)
    try:
        arr = np.array(vals, dtype=float)
    except OverflowError as exc:
        raise StateError(f"{what}: a value is too large for a float (beyond 1.8e308): {vals!r:.120}") from exc
    except (TypeError, ValueError) as exc:
        raise StateError(f"{what}: not numbers: {vals!r}") from exc
    if arr.shape != (n,):
        raise StateError(f"{what}: expected {n} values ({', '.join(s.name for s in syms)}), got {arr.shape[0]}")
    if not np.all(np.isfinite(arr)):
        raise StateError(f"{what}: not finite: {arr.tolist()}")
    return arr


def _batch_array(x: Any, syms: Sequence[sp.Symbol], what: str) -> np.ndarray:
    """``(B, n)`` data -> ``(n, B)`` array (a dict of per-symbol arrays is accepted)."""
    n = len(syms)
    if isinstance(x, Mapping):
        byname = {(k.name if isinstance(k, sp.Symbol) else str(k)): val for k, val in x.items()}
        missing = [s.name for s in syms if s.name not in byname]
        if missing:
            raise StateError(f"{what}: missing values for {missing}")
        try:
            arr = np.array([np.asarray(byname[s.name], dtype=float) for s in syms], dtype=float)
        except OverflowError as exc:
            raise StateError(f"{what}: a value is too large for a float (beyond 1.8e308)") from exc
        except (TypeError, ValueError) as exc:
            raise StateError(f"{what}: values must be 1-d arrays of numbers of equal length") from exc
        if arr.ndim != 2:
            raise StateError(f"{what}: every entry must be a 1-d array of equal length")
    else:
        try:
            a = np.asarray(x, dtype=float)
        except OverflowError as exc:
            raise StateError(f"{what}: a value is too large for a float (beyond 1.8e308)") from exc
        except (TypeError, ValueError) as exc:
            raise StateError(f"{what}: not an array of numbers: {x!r:.80}") from exc
        if a.ndim != 2 or a.shape[1] != n:
            raise StateError(f"{what}: expected an array of shape (batch, {n}), got {a.shape}")
        arr = a.T.copy()
    if not np.all(np.isfinite(arr)):
        bad = np.nonzero(~np.all(np.isfinite(arr), axis=0))[0]
        raise StateError(f"{what}: non-finite values in batch members {bad[:10].tolist()}")
    return arr


def _t_span(t_span: Any) -> tuple[float, float]:
    try:
        t0, t1 = (float(x) for x in t_span)
    except (TypeError, ValueError) as exc:
        raise StateError(f"t_span must be a pair of numbers, got {t_span!r}") from exc
    if not (math.isfinite(t0) and math.isfinite(t1)) or t0 == t1:
        raise StateError(f"t_span must be two distinct finite numbers, got {t_span!r}")
    if abs(t1 - t0) > MAX_SPAN or max(abs(t0), abs(t1)) > MAX_SPAN:
        raise StateError(
            f"t_span = {t_span!r}: a span beyond {MAX_SPAN:g} time units is refused (no integration of a mechanical "
            "system reaches it within a budget a person would wait for; integrate a shorter span)"
        )
    return t0, t1


#: the longest time span (and the largest time) ``integrate`` accepts
MAX_SPAN = 1e9


def _singular_frame_message(q0: np.ndarray) -> str:
    return (
        f"the adapted frame is singular at q0 = {q0.tolist()}: its coframe, which gives the constraints "
        "θ^a(u) = 0 and the quasi-velocities, cannot be evaluated there (the initial data are not at fault). "
        "Use a frame regular at q0: LinearConstraints.adapted_frame() (the constraint rows as complement, "
        "regular wherever D is), complete_frame(D, at=q0), or an explicit complement"
    )


def _check_consistent(
    comp: CompiledSystem, t0: float, q0: np.ndarray, u0: np.ndarray, p: Any, project: Any, tol: float
) -> tuple[np.ndarray, dict[str, Any] | None]:
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # a pole is reported below, by name
        c = comp.constraint_values(t0, q0, u0, p)
    if c is None:
        return u0, None
    if not np.all(np.isfinite(c)):
        raise SingularFrameError(_singular_frame_message(q0))
    scale = max(1.0, float(np.max(np.abs(u0))))
    worst = float(np.max(np.abs(c))) if c.size else 0.0
    if worst <= tol * scale:
        return u0, None
    if not project:
        raise InconsistentInitialDataError(
            f"initial velocities u0 = {u0.tolist()} violate the constraints A(q0) u0 = 0: residuals {c.tolist()} "
            f"(tolerance {tol:g} × {scale:g}); pass project='kinetic', 'euclidean' or 'frame' to project u0 onto D"
        )
    how = "kinetic" if project is True else str(project)
    up = comp.project(how, t0, q0, u0, p)
    after = comp.constraint_values(t0, q0, up, p)
    return up, {
        "method": how,
        "u0_given": u0.copy(),
        "u0_used": up,
        "residual_before": worst,
        "residual_after": float(np.max(np.abs(after))) if after is not None and after.size else 0.0,
    }


def _extras(comp: CompiledSystem, extra0: Mapping[str, Any] | None, batch: int | None) -> np.ndarray:
    S = comp.system
    if extra0 is not None and not isinstance(extra0, Mapping):
        raise StateError(f"extra0: expected a mapping name -> initial values, got {extra0!r:.80}")
    extra0 = dict(extra0 or {})
    unknown = sorted(set(extra0) - set(S.extra_inputs))
    if unknown:
        raise StateError(f"unknown extra initial data {unknown}; this system takes {sorted(S.extra_inputs)}")
    parts = []
    for name, syms in S.extra_inputs.items():
        if name not in extra0:
            raise StateError(f"missing initial data {name}0 for {[s.name for s in syms]}")
        parts.append(
            _vector(extra0[name], syms, f"{name}0") if batch is None else _batch_array(extra0[name], syms, f"{name}0")
        )
    if not parts:
        return np.zeros((0,) if batch is None else (0, batch))
    return np.concatenate(parts, axis=0)


def _merge_params(defaults: Mapping[Any, Any], params: Mapping[Any, Any] | None) -> dict[str, Any]:
    if params is not None and not isinstance(params, Mapping):
        raise ParameterError(f"params: expected a mapping name -> value, got {type(params).__name__}")
    out = {(k.name if isinstance(k, sp.Symbol) else str(k)): val for k, val in defaults.items()}
    for k, val in (params or {}).items():
        if not isinstance(k, str | sp.Symbol):
            raise ParameterError(f"params: key {k!r:.60} is not a parameter name (str) or symbol")
        out[k.name if isinstance(k, sp.Symbol) else k] = val
    return out


def _initial_data(
    comp: CompiledSystem,
    t0: float,
    q0: Any,
    u0: Any,
    params: Mapping[Any, Any] | None,
    extra0: Mapping[str, Any] | None,
    project: bool | str,
    constraint_tol: float,
) -> tuple[np.ndarray, np.ndarray, dict[str, Any] | None]:
    """``(p, y0, projection)``: parameters bound, initial data checked (and projected) and the initial state."""
    S = comp.system
    p = comp.bind(params)
    qv = _vector(q0, S.chart.q, "q0", S.chart, params)
    uv = _vector(u0, S.chart.u, "u0", S.chart, params)
    x0 = _extras(comp, extra0, None)
    uv, projection = _check_consistent(comp, t0, qv, uv, p, project, constraint_tol)
    y0 = np.asarray(comp.initial_state(t0, qv, uv, x0, p), dtype=float)
    if not np.all(np.isfinite(y0)):
        raise StateError(f"initial state not finite: {y0.tolist()}")
    return p, y0, projection


def velocities_from_v0(frame: Any, m: int, q0: Any, v0: Any, params: Mapping[str, Any] | None) -> np.ndarray:
    r"""The natural velocities ``u0 = v0^α X_α(q0)`` (α = 1..m) from the independent quasi-velocities ``v0``.

    ``frame`` is the method's adapted frame: the first ``m`` fields span D, so ``u0`` lies in D by construction.
    """
    chart = frame.chart
    qv = _vector(q0, chart.q, "q0", chart, params)
    vv = _vector(v0, frame.v[:m], "v0", chart, params)
    at: dict[Any, Any] = dict(zip(chart.q, (sp.Float(x) for x in qv), strict=True))
    # ``params`` by name (:func:`_merge_params`); a string value is never parsed
    at |= {
        s: params[s.name]
        for s in chart.params
        if params and s.name in params and isinstance(params[s.name], int | float | np.number | sp.Basic)
    }
    X = frame.matrix[:m, :].xreplace(at)
    try:
        u = np.array([[float(X[al, j]) for j in range(chart.dim)] for al in range(m)], dtype=float).T @ vv
    except (TypeError, ValueError) as exc:
        free = sorted(map(str, set().union(*[e.free_symbols for e in X])))
        raise ParameterError(f"v0: the frame at q0 needs values for {free}: give them in params") from exc
    if not np.all(np.isfinite(u)):
        raise StateError(f"v0: the frame is not finite at q0 = {qv.tolist()}")
    return u
