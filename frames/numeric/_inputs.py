"""What the user hands to the integrators: the object to integrate (a field, a system, a Model or an
:class:`OdeSystem`, resolved and compiled once by :func:`compile_system`), initial data, parameters, time spans."""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import sympy as sp

from ..algebra import as_expr
from ..dynamics._lagrangian import Lagrangian
from ..dynamics._nonholonomic import NonholonomicSystem
from ..errors import (
    ArgumentError,
    InconsistentInitialDataError,
    IntegrationError,
    InvalidExpressionError,
    OptionError,
    ParameterError,
    SingularFrameError,
    StateError,
)
from ..geometry import SecondOrderField
from ..geometry._chart import Chart
from ._compiled import CompiledSystem
from ._rk import SOLVERS, solver_option_names
from ._system import _FORMS, OdeSystem, ode_system

__all__ = ["compile_system"]

_MODEL_SYSTEMS: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def _resolve(obj: Any, system: Any, lagrangian: Any) -> tuple[Any, Any, Any, dict[Any, Any]]:
    """(field, system, lagrangian, default params) from a field, NonholonomicSystem or Model."""
    defaults: dict[Any, Any] = {}
    if hasattr(obj, "nonholonomic") and hasattr(obj, "param_values"):  # a Model
        defaults = dict(obj.param_values)
        if obj not in _MODEL_SYSTEMS:
            _MODEL_SYSTEMS[obj] = obj.nonholonomic()
        obj = _MODEL_SYSTEMS[obj]
    if isinstance(obj, NonholonomicSystem):
        system = obj if system is None else system
        obj = obj.field()
    if not isinstance(obj, SecondOrderField):
        raise InvalidExpressionError(
            f"cannot integrate {obj!r}: expected a SecondOrderField, NonholonomicSystem, Model or OdeSystem"
        )
    _check_sources("field", system, lagrangian)
    return obj, system, lagrangian, defaults


def _check_sources(what: str, system: Any, lagrangian: Any) -> None:
    """``system=`` must be a NonholonomicSystem and ``lagrangian=`` a Lagrangian (or None)."""
    if system is not None and not isinstance(system, NonholonomicSystem):
        raise ArgumentError(f"{what}: system must be a NonholonomicSystem, got {type(system).__name__}")
    if lagrangian is not None and not isinstance(lagrangian, Lagrangian):
        raise ArgumentError(f"{what}: lagrangian must be a Lagrangian, got {type(lagrangian).__name__}")


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
            raise StateError(f"{what}: missing values for {missing}")
        vals = _numbers([byname[s.name] for s in syms], what, chart, params)
    else:
        if np.ndim(x) > 1:
            raise StateError(f"{what}: expected {n} numbers, got an array of shape {np.shape(x)}")
        vals = _numbers(list(x) if np.ndim(x) == 1 else [x], what, chart, params)
    try:
        arr = np.array(vals, dtype=float)
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
        except (TypeError, ValueError) as exc:
            raise StateError(f"{what}: values must be 1-d arrays of numbers of equal length") from exc
        if arr.ndim != 2:
            raise StateError(f"{what}: every entry must be a 1-d array of equal length")
    else:
        try:
            a = np.asarray(x, dtype=float)
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
    return t0, t1


def _singular_frame_message(q0: np.ndarray) -> str:
    return (
        f"the adapted frame is singular at q0 = {q0.tolist()}: its coframe, which gives the constraints "
        "θ^a(u) = 0 and the quasi-velocities, cannot be evaluated there (the initial data are not at fault). "
        "Use a frame regular at q0: LinearConstraints.adapted_frame() (the constraint rows as complement, "
        "regular wherever D is), complete_frame(D, at=q0), or an explicit complement"
    )


#: Values of the ``project`` option of the integrators.
PROJECTIONS = (False, True, "kinetic", "euclidean", "frame")


def _check_consistent(
    comp: CompiledSystem, t0: float, q0: np.ndarray, u0: np.ndarray, p: Any, project: Any, tol: float
) -> tuple[np.ndarray, dict[str, Any] | None]:
    if project not in PROJECTIONS:
        raise OptionError(f"project={project!r} must be one of {PROJECTIONS}")
    if isinstance(tol, bool) or not isinstance(tol, int | float | np.floating) or not (math.isfinite(tol) and tol >= 0):
        raise OptionError(f"constraint_tol={tol!r} must be a non-negative finite number")
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
        out[k.name if isinstance(k, sp.Symbol) else str(k)] = val
    return out


_COMPILE_CACHE: weakref.WeakKeyDictionary[Any, dict[Any, tuple[Any, Any, CompiledSystem]]] = weakref.WeakKeyDictionary()


def compile_system(
    field: Any,
    form: str = "reduced",
    *,
    system: NonholonomicSystem | None = None,
    lagrangian: Lagrangian | None = None,
) -> CompiledSystem:
    """Compile (and cache) the numeric system of a field, :class:`NonholonomicSystem`, Model or OdeSystem."""
    if not isinstance(form, str):
        raise ArgumentError(f"compile_system: form must be 'reduced' or 'multiplier', got {form!r}")
    if isinstance(field, OdeSystem):
        return field.compile()
    field, system, lagrangian, _ = _resolve(field, system, lagrangian)
    key = (_FORMS.get(form, form), id(system), id(lagrangian))
    per = _COMPILE_CACHE.setdefault(field, {})
    hit = per.get(key)
    if hit is not None:
        sref, lref, comp = hit
        if (sref() if sref is not None else None) is system and (lref() if lref is not None else None) is lagrangian:
            return comp
    comp = CompiledSystem(ode_system(field, form, system=system, lagrangian=lagrangian))
    per[key] = (
        weakref.ref(system) if system is not None else None,
        weakref.ref(lagrangian) if lagrangian is not None else None,
        comp,
    )
    return comp


def _check_options(
    what: str,
    *,
    method: str,
    methods: Sequence[str],
    rtol: float,
    atol: float,
    max_step: float = np.inf,
    max_steps: int = 1,
    timeout: float | None = None,
) -> str:
    """Validate solver options; return the method's canonical spelling. Raises :class:`OptionError`."""
    canon_m = {m.upper(): m for m in methods}
    if not isinstance(method, str) or method.upper() not in canon_m:
        raise OptionError(f"{what}: method={method!r} is not one of {list(methods)}")
    for name, val in (("rtol", rtol), ("atol", atol)):
        if (
            isinstance(val, bool)
            or not isinstance(val, int | float | np.floating)
            or not (math.isfinite(val) and val > 0)
        ):
            raise OptionError(f"{what}: {name}={val!r} must be a positive finite number")
    if rtol >= 1:
        raise OptionError(
            f"{what}: rtol={rtol!r} must be below 1 (a relative tolerance of 100 % or more checks nothing)"
        )
    if isinstance(max_step, bool) or not isinstance(max_step, int | float | np.floating) or not max_step > 0:
        raise OptionError(f"{what}: max_step={max_step!r} must be positive (np.inf for no limit)")
    if isinstance(max_steps, bool) or not isinstance(max_steps, int | np.integer) or max_steps < 1:
        raise OptionError(f"{what}: max_steps={max_steps!r} must be a positive integer")
    if timeout is not None and (
        isinstance(timeout, bool) or not isinstance(timeout, int | float | np.floating) or not timeout > 0
    ):
        raise OptionError(f"{what}: timeout={timeout!r} must be positive seconds (None or np.inf for no limit)")
    return canon_m[method.upper()]


def _check_t_eval(what: str, t_eval: Any, t0: float, t1: float) -> np.ndarray | None:
    """Output times: finite, monotone in the direction of integration, inside ``t_span``."""
    if t_eval is None:
        return None
    try:
        te = np.asarray(t_eval, dtype=float)
    except (TypeError, ValueError) as exc:
        raise OptionError(f"{what}: t_eval must be an array of numbers, got {t_eval!r}") from exc
    if te.ndim != 1 or te.size == 0:
        raise OptionError(f"{what}: t_eval must be a non-empty 1-d array, got shape {te.shape}")
    if not np.all(np.isfinite(te)):
        raise OptionError(f"{what}: t_eval has non-finite entries {te[~np.isfinite(te)][:5].tolist()}")
    d = np.sign(t1 - t0)
    if np.any(d * np.diff(te) < 0):
        raise OptionError(f"{what}: t_eval must be sorted in the direction of integration ({t0} to {t1})")
    lo, hi = min(t0, t1), max(t0, t1)
    if te.min() < lo or te.max() > hi:
        raise OptionError(f"{what}: t_eval must lie inside t_span [{lo}, {hi}], got [{te.min()}, {te.max()}]")
    return te


#: Parameters of the integrators that ``solver_options`` may not set again.
_EXPLICIT = ("rtol", "atol", "t_eval", "max_step", "method", "events", "dense_output")
#: Arguments of scipy's solvers that the integrator sets itself.
_SET_BY_INTEGRATOR = ("fun", "t0", "y0", "t_bound", "t_span", "args")


def _check_solver_options(what: str, method: str, solver_options: Any) -> dict[str, Any]:
    """Extra keyword options for scipy's solver class ``method``: str keys it accepts, none set elsewhere.

    Raises :class:`OptionError` naming the key: a non-str key, a key that is a parameter of the
    integrator (``rtol``, ``atol``, ``t_eval``, ``max_step``, ``method``, ``events``,
    ``dense_output``) or set by it (``fun``, ``t0``, ``y0``, ``t_bound``), ``vectorized`` (the
    right-hand side takes one state), or a key the solver's constructor does not accept.
    """
    if solver_options is None:
        return {}
    if not isinstance(solver_options, Mapping):
        raise OptionError(
            f"{what}: solver_options must be a mapping option name -> value, got {type(solver_options).__name__}"
        )
    accepted = solver_option_names(method)
    out: dict[str, Any] = {}
    for key, val in solver_options.items():
        if not isinstance(key, str):
            raise OptionError(f"{what}: solver_options key {key!r} is not an option name (str)")
        if key in _EXPLICIT:
            raise OptionError(f"{what}: solver_options[{key!r}] is a parameter of {what}: pass {key}= directly")
        if key in _SET_BY_INTEGRATOR:
            raise OptionError(f"{what}: solver_options[{key!r}] is set by {what} itself")
        if key == "vectorized":
            raise OptionError(
                f"{what}: solver_options['vectorized'] is not supported: the compiled right-hand side "
                "is evaluated one state at a time"
            )
        if key not in accepted:
            raise OptionError(
                f"{what}: solver_options[{key!r}] is not an option of scipy's {method}; it accepts {list(accepted)}"
            )
        out[key] = val
    return out


def _check_events(what: str, events: Any) -> list[tuple[Any, float, float]]:
    """``events``: None, one callable or a sequence of callables ``event(t, q, u)``.

    Returns ``(event, max_events, direction)`` per event: ``max_events`` from the event's
    ``terminal`` attribute (False/None/0: never stop, True: stop at the first occurrence, a positive
    integer n: stop at the n-th), ``direction`` from its ``direction`` attribute (default 0). Raises
    :class:`OptionError` naming ``events[k]`` (or its attribute) for a non-callable entry or a bad attribute.
    """
    if events is None:
        return []
    if callable(events):
        events = [events]
    elif isinstance(events, str | bytes | Mapping) or not isinstance(events, Sequence):
        raise OptionError(
            f"{what}: events must be a callable event(t, q, u) or a sequence of them, got {type(events).__name__}"
        )
    out = []
    for k, ev in enumerate(events):
        if not callable(ev):
            raise OptionError(f"{what}: events[{k}] = {ev!r:.60} is not callable: expected event(t, q, u) -> float")
        terminal = getattr(ev, "terminal", None)
        if terminal is None or terminal is False:
            n_max = math.inf
        elif terminal is True:
            n_max = 1.0
        elif isinstance(terminal, int | np.integer) and terminal >= 0:
            n_max = float(terminal) if terminal > 0 else math.inf
        else:
            raise OptionError(
                f"{what}: events[{k}].terminal = {terminal!r} must be a bool or a non-negative integer "
                "(stop at that occurrence)"
            )
        direction = getattr(ev, "direction", 0)
        if (
            isinstance(direction, bool)
            or not isinstance(direction, int | float | np.integer | np.floating)
            or not math.isfinite(direction)
        ):
            raise OptionError(
                f"{what}: events[{k}].direction = {direction!r} must be a finite number "
                "(> 0: upward crossings only, < 0: downward only, 0: both)"
            )
        out.append((ev, n_max, float(direction)))
    return out


def _check_dense_output(what: str, dense_output: Any) -> None:
    if not isinstance(dense_output, bool | np.bool_):
        raise OptionError(f"{what}: dense_output={dense_output!r} must be True or False")


def _event_name(event: Any, k: int) -> str:
    name = getattr(event, "__name__", None) or type(event).__name__
    return f"events[{k}] ({name})"


def _natural_event(comp: CompiledSystem, p: np.ndarray, event: Any, k: int) -> Callable[[float, np.ndarray], float]:
    """``event(t, q, u)`` in natural coordinates as ``g(t, y)`` on the internal state (for the solver).

    The state is mapped to ``(q, u)`` by the compiled observables (the map that fills
    :attr:`Trajectory.q` and :attr:`Trajectory.u`). An exception raised by the event, or a value
    that is not one finite real number, becomes an :class:`IntegrationError` naming ``events[k]``,
    with the time and the state.
    """
    label = _event_name(event, k)

    def g(t: float, y: np.ndarray) -> float:
        obs = comp.observe(np.asarray(t, dtype=float), y, p)
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


def _scipy_only(what: str, events: Any, dense_output: Any, solver_options: Any) -> None:
    """``events``, ``dense_output=True`` and ``solver_options`` need one of scipy's solvers."""
    _check_dense_output("integrate", dense_output)
    if events is not None:
        raise OptionError(f"integrate: events need one of scipy's methods {list(SOLVERS)}; {what} has no events")
    if dense_output:
        raise OptionError(
            f"integrate: dense_output=True needs one of scipy's methods {list(SOLVERS)}; {what} has no dense output"
        )
    if solver_options is not None:
        raise OptionError(f"integrate: solver_options are passed to scipy's solvers {list(SOLVERS)}; {what} takes none")


def _check_n_steps(meth: str, n_steps: Any, max_steps: int, backend: str) -> None:
    """``n_steps``: only for RK4, a positive integer (at most ``max_steps`` on the NumPy path)."""
    if meth == "RK45":
        if n_steps is not None:
            raise OptionError("integrate_batch: n_steps is the step count of method='RK4'; RK45 chooses its own steps")
        return
    if isinstance(n_steps, bool) or not isinstance(n_steps, int | np.integer) or n_steps < 1:
        raise OptionError(f"integrate_batch(method='RK4'): n_steps={n_steps!r} must be a positive integer")
    if backend == "numpy" and n_steps > max_steps:
        raise OptionError(f"integrate_batch(method='RK4'): n_steps={n_steps} exceeds max_steps={max_steps}")
