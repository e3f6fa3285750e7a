"""The options of :func:`~frames.integrate`: one record (:class:`IntegrationOptions`), shared by single and
batch runs, checked once at the door."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any

import numpy as np

from .._value import Value
from ..errors import ArgumentError, OptionError
from ._scipy import SOLVERS, solver_option_names

__all__ = ["DEFAULT_MAX_STEPS", "DEFAULT_TIMEOUT", "PROJECTIONS", "IntegrationOptions"]

#: The default budget of one run, one a person waits for (docs/numerics.md, "Budgets and stiffness"): two minutes
#: of wall clock and a million steps (about a minute of scipy's RK45 on a small system). A stiff system under an
#: explicit method is refused long before either ends (:mod:`frames.numeric._stiff`).
DEFAULT_MAX_STEPS = 1_000_000  # solver steps
DEFAULT_TIMEOUT = 120.0  # wall-clock seconds

#: Values of the ``project`` option of the integrators.
PROJECTIONS = (False, True, "kinetic", "euclidean", "frame")

#: The methods of a batch run (NumPy or numba kernels, or the discrete Lagrange–d'Alembert scheme).
BATCH_METHODS = ("RK45", "RK4")

LDA = "lda-midpoint"


class IntegrationOptions(Value):
    """How to integrate: the solver and its options, shared by single and batch runs (see :func:`~frames.integrate`).

    Built once by :func:`~frames.integrate` from its keyword arguments; the checks that do not depend on the
    mode (single or batch) run here, the others in :meth:`single` and :meth:`batch`.
    """

    method: str = "RK45"
    rtol: float = 1e-9
    atol: float = 1e-12
    t_eval: Any = field(default=None, compare=False)
    max_step: float = np.inf
    project: bool | str = False
    constraint_tol: float = 1e-9
    max_steps: int = DEFAULT_MAX_STEPS
    timeout: float | None = DEFAULT_TIMEOUT
    step: float | None = None
    backend: str = "numpy"
    events: Any = field(default=None, compare=False)
    dense_output: bool = False
    solver_options: Any = field(default=None, compare=False)
    n_steps: int | None = None
    progress: bool | None = None

    def __check_init__(self) -> None:
        if not isinstance(self.backend, str) or self.backend.lower() not in ("numpy", "numba"):
            raise OptionError(f"integrate: backend={self.backend!r} is not one of ['numpy', 'numba']")
        self.backend = self.backend.lower()
        if self.project not in PROJECTIONS:
            raise OptionError(f"project={self.project!r} must be one of {PROJECTIONS}")
        tol = self.constraint_tol
        if (
            isinstance(tol, bool)
            or not isinstance(tol, int | float | np.floating)
            or not (math.isfinite(tol) and tol >= 0)
        ):
            raise OptionError(f"constraint_tol={tol!r} must be a non-negative finite number")
        _check_dense_output("integrate", self.dense_output)
        if self.progress is not None and not isinstance(self.progress, bool):
            raise ArgumentError(f"integrate: progress: expected True, False or None, got {self.progress!r}")
        if self.lda:
            self.method = LDA
            _scipy_only("method='lda-midpoint'", self.events, self.dense_output, self.solver_options)
            _lda_options("integrate", self.step, self.t_eval, self.backend, self.max_steps, self.timeout)
        elif self.step is not None:
            raise OptionError(
                f"integrate: step={self.step!r} is the fixed step of method='lda-midpoint'; "
                f"{self.method!r} chooses its own steps (max_step= bounds them)"
            )
        elif self.backend == "numba":
            _scipy_only("backend='numba'", self.events, self.dense_output, self.solver_options)

    @property
    def lda(self) -> bool:
        """The discrete Lagrange–d'Alembert integrator is asked for."""
        return isinstance(self.method, str) and self.method.lower() == LDA

    def single(self) -> tuple[str, dict[str, Any], list[tuple[Any, float, float]]]:
        """Checks of a single run: ``(method, solver options, events)`` (method in its canonical spelling)."""
        if self.lda:
            return LDA, {}, []
        if self.n_steps is not None:
            raise OptionError("integrate: n_steps is the step count of a batch run with method='RK4'")
        methods = ("RK45",) if self.backend == "numba" else SOLVERS
        method = self._check("integrate", methods)
        return (
            method,
            _check_solver_options("integrate", method, self.solver_options),
            _check_events("integrate", self.events),
        )

    def batch(self) -> str:
        """Checks of a batch run: the method (``"RK45"``, ``"RK4"`` or ``"lda-midpoint"``)."""
        if self.lda:
            return LDA
        if self.events is not None or self.dense_output or self.solver_options is not None:
            raise OptionError(
                "integrate: events, dense_output and solver_options are options of a single run "
                "(one trajectory); a batch has none"
            )
        method = self._check("integrate", BATCH_METHODS)
        _check_n_steps(method, self.n_steps, self.max_steps, self.backend)
        return method

    def _check(self, what: str, methods: Sequence[str]) -> str:
        return _check_options(
            what,
            method=self.method,
            methods=methods,
            rtol=self.rtol,
            atol=self.atol,
            max_step=self.max_step,
            max_steps=self.max_steps,
            timeout=self.timeout,
        )


def _lda_options(what: str, step: Any, t_eval: Any, backend: Any, max_steps: Any, timeout: Any) -> None:
    """Options of ``method="lda-midpoint"``: a positive finite ``step``, no ``t_eval``, the NumPy backend."""
    if backend != "numpy":
        raise OptionError(f"{what}: method='lda-midpoint' has no backend={backend!r}; use backend='numpy'")
    if step is None:
        raise OptionError(f"{what}: method='lda-midpoint' needs the fixed step: pass step=<seconds>")
    if (
        isinstance(step, bool)
        or not isinstance(step, int | float | np.floating)
        or not (np.isfinite(step) and step > 0)
    ):
        raise OptionError(f"{what}: step={step!r} must be a positive finite number")
    if t_eval is not None:
        raise OptionError(f"{what}: method='lda-midpoint' returns the nodes t0 + k h; t_eval is not supported")
    _check_options(what, method="RK45", methods=SOLVERS, rtol=1e-9, atol=1e-12, max_steps=max_steps, timeout=timeout)


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
            raise OptionError("integrate: n_steps is the step count of method='RK4'; RK45 chooses its own steps")
        return
    if isinstance(n_steps, bool) or not isinstance(n_steps, int | np.integer) or n_steps < 1:
        raise OptionError(f"integrate(method='RK4'): n_steps={n_steps!r} must be a positive integer")
    if backend == "numpy" and n_steps > max_steps:
        raise OptionError(f"integrate(method='RK4'): n_steps={n_steps} exceeds max_steps={max_steps}")
