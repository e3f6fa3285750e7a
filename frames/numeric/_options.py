"""The checks of :func:`~frames.integrate`'s requests that are not a solver's fields: output times, events,
scipy's further options, the projection and the constraint tolerance; the default budget of a run."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import OptionError
from ._scipy import solver_option_names

__all__ = ["DEFAULT_MAX_STEPS", "DEFAULT_TIMEOUT", "LDA", "PROJECTIONS"]

#: The default budget of one run, one a person waits for (docs/numerics.md, "Budgets and stiffness"): two minutes
#: of wall clock and a million steps (about a minute of scipy's RK45 on a small system). A stiff system under an
#: explicit method is refused long before either ends (:mod:`frames.numeric._stiff`).
DEFAULT_MAX_STEPS = 1_000_000  # solver steps
DEFAULT_TIMEOUT = 120.0  # wall-clock seconds

#: Values of the ``project`` option of the integrators.
PROJECTIONS = (False, True, "kinetic", "euclidean", "frame")

LDA = "lda-midpoint"


def _check_tol(tol: Any) -> None:
    """``constraint_tol``: a non-negative finite number."""
    if isinstance(tol, bool) or not isinstance(tol, int | float | np.floating) or not (math.isfinite(tol) and tol >= 0):
        raise OptionError(f"constraint_tol={tol!r} must be a non-negative finite number")


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
            raise OptionError(
                f"{what}: solver_options[{key!r}] is a parameter of integrate (or a field of the solver): "
                f"pass {key}= directly"
            )
        if key in _SET_BY_INTEGRATOR:
            raise OptionError(f"{what}: solver_options[{key!r}] is set by integrate itself")
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
