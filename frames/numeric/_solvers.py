"""Solvers as values: each numerical method is one immutable record of its own options, checked when it is built,
that declares what it supports (one trajectory, a batch, events, dense output, callable inputs).

``integrate(..., method=RK45(rtol=1e-10))`` takes one; ``method="RK45"`` with ``rtol=``, ``backend=``, ... is
sugar, mapped once at the door by :func:`solver_from`. An engine (scipy's stepping, the NumPy lock-step kernels,
the jitted kernels, the discrete Lagrange–d'Alembert scheme) reads the fields of the solver it is given; a new
option of a solver is a field here and its use in :meth:`ScipySolver.scipy_options` (or the engine).

Examples
--------
>>> import frames as fr
>>> fr.RK45(rtol=1e-6)
RK45(rtol=1e-06, atol=1e-12, max_step=inf, options=None, first_step=None, max_steps=1000000, timeout=120.0)
>>> fr.RK45().supports("events"), fr.RK4(n_steps=10).supports("events"), fr.RK4(n_steps=10).batch_engine
(True, False, 'rk')
>>> fr.Radau(rtol=2)
Traceback (most recent call last):
...
frames.errors.OptionError: Radau: rtol=2 must be below 1 (a relative tolerance of 100 % or more checks nothing)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import field, fields
from typing import Any, ClassVar

import numpy as np

from .._value import Value
from ..errors import OptionError
from ._options import DEFAULT_MAX_STEPS, DEFAULT_TIMEOUT, LDA, _check_solver_options
from ._scipy import SOLVERS

__all__ = [
    "BDF",
    "DOP853",
    "LSODA",
    "RK4",
    "RK23",
    "RK45",
    "LDAMidpoint",
    "NumbaRK4",
    "NumbaRK45",
    "Radau",
    "ScipySolver",
    "Solver",
    "solver_from",
    "solver_keys",
]

#: What a solver may support: one trajectory's events and dense output, callable inputs (laws).
FEATURES = ("events", "dense_output", "inputs")


def _positive(who: str, name: str, val: Any, *, finite: bool = True, integer: bool = False) -> None:
    kinds = (int, np.integer) if integer else (int, float, np.integer, np.floating)
    ok = not isinstance(val, bool) and isinstance(val, kinds) and val > 0 and (not finite or math.isfinite(val))
    if not ok:
        what = "a positive integer" if integer else ("a positive finite number" if finite else "positive")
        raise OptionError(f"{who}: {name}={val!r} must be {what}")


class Solver(Value):
    """A numerical method and its options (the base of every solver value).

    Every solver carries the budget of a run: ``max_steps`` (solver steps; a batch counts accepted and rejected
    steps) and ``timeout`` (wall-clock seconds, None for no limit), keyword only.
    """

    max_steps: int = field(default=DEFAULT_MAX_STEPS, kw_only=True)
    timeout: float | None = field(default=DEFAULT_TIMEOUT, kw_only=True)

    #: The name of the method on a trajectory (``Trajectory.method``).
    label: ClassVar[str] = ""
    #: The engine of one trajectory (None: the solver integrates batches only).
    single_engine: ClassVar[str | None] = None
    #: The engine of a batch (None: one trajectory only).
    batch_engine: ClassVar[str | None] = None
    #: Among :data:`FEATURES`, what the solver supports.
    features: ClassVar[frozenset[str]] = frozenset()

    def __check_init__(self) -> None:
        who = type(self).__name__
        _positive(who, "max_steps", self.max_steps, integer=True)
        if self.timeout is not None:
            if isinstance(self.timeout, bool) or not isinstance(self.timeout, int | float | np.number):
                raise OptionError(f"{who}: timeout={self.timeout!r} must be positive seconds (None for no limit)")
            if not self.timeout > 0:
                raise OptionError(f"{who}: timeout={self.timeout!r} must be positive seconds (None for no limit)")

    def __repr__(self) -> str:
        shown = sorted(fields(self), key=lambda f: bool(f.kw_only))  # type: ignore[arg-type]  # the budget last
        return f"{type(self).__name__}(" + ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in shown) + ")"

    def supports(self, feature: str) -> bool:
        """Whether the solver supports ``feature`` (one of ``"events"``, ``"dense_output"``, ``"inputs"``,
        ``"single"``, ``"batch"``)."""
        if feature == "single":
            return self.single_engine is not None
        if feature == "batch":
            return self.batch_engine is not None
        return feature in self.features

    def engine(self, batch: bool) -> str:
        """The engine that runs this solver on one trajectory (``batch=False``) or a batch; :class:`OptionError`
        when the solver has none for that mode."""
        eng = self.batch_engine if batch else self.single_engine
        if eng is None:
            mode = "a batch (q0 of shape (B, n))" if batch else "one trajectory"
            other = "one trajectory" if batch else "a batch (q0 of shape (B, n))"
            raise OptionError(f"integrate: {type(self).__name__} does not integrate {mode}; it integrates {other}")
        return eng


class ScipySolver(Solver):
    """One of scipy's solvers, stepped by the library under a budget (events, dense output, callable inputs).

    ``options``: further keyword options of scipy's solver class (``jac``, ``jac_sparsity``, ``min_step``, ...;
    see :func:`~frames.integrate`'s ``solver_options``).
    """

    rtol: float = 1e-9
    atol: float = 1e-12
    max_step: float = np.inf
    options: Mapping[str, Any] | None = field(default=None, compare=False)
    first_step: float | None = None

    single_engine: ClassVar[str | None] = "scipy"
    features: ClassVar[frozenset[str]] = frozenset(FEATURES)

    def __check_init__(self) -> None:
        who = type(self).__name__
        _tolerances(who, self.rtol, self.atol)
        if isinstance(self.max_step, bool) or not isinstance(self.max_step, int | float | np.number):
            raise OptionError(f"{who}: max_step={self.max_step!r} must be positive (np.inf for no limit)")
        if not self.max_step > 0:
            raise OptionError(f"{who}: max_step={self.max_step!r} must be positive (np.inf for no limit)")
        self.options = _check_solver_options(who, self.label, self.options) or None
        if self.first_step is not None:
            _positive(who, "first_step", self.first_step)
            if "first_step" in (self.options or {}):
                raise OptionError(f"{who}: first_step given twice (a field and in options); give it once")

    def scipy_options(self) -> dict[str, Any]:
        """The keyword options passed to scipy's solver class beside ``rtol``, ``atol``, ``max_step``."""
        first = {} if self.first_step is None else {"first_step": float(self.first_step)}
        return dict(self.options or {}) | first


class RK45(ScipySolver):
    """Explicit Runge–Kutta 5(4) (Dormand–Prince): scipy's ``RK45`` for one trajectory; a batch steps all its
    members together with a common step, accepted when every member's error norm is ≤ 1 (NumPy kernels)."""

    label: ClassVar[str] = "RK45"
    batch_engine: ClassVar[str | None] = "rk"


class RK23(ScipySolver):
    """Explicit Runge–Kutta 3(2) (Bogacki–Shampine), scipy's ``RK23``."""

    label: ClassVar[str] = "RK23"


class DOP853(ScipySolver):
    """Explicit Runge–Kutta of order 8 (Dormand–Prince), scipy's ``DOP853``."""

    label: ClassVar[str] = "DOP853"


class Radau(ScipySolver):
    """Implicit Runge–Kutta of order 5 (Radau IIA), scipy's ``Radau``: for stiff systems."""

    label: ClassVar[str] = "Radau"


class BDF(ScipySolver):
    """Implicit multistep (backward differentiation formulas), scipy's ``BDF``: for stiff systems."""

    label: ClassVar[str] = "BDF"


class LSODA(ScipySolver):
    """Adams/BDF with automatic stiffness detection, scipy's ``LSODA``."""

    label: ClassVar[str] = "LSODA"


class RK4(Solver):
    """Classical fixed-step Runge–Kutta with ``n_steps`` steps over the span: a batch (NumPy kernels)."""

    n_steps: int | None = None

    label: ClassVar[str] = "RK4"
    batch_engine: ClassVar[str | None] = "rk"
    features: ClassVar[frozenset[str]] = frozenset({"inputs"})

    def __check_init__(self) -> None:
        _n_steps(self)


class LDAMidpoint(Solver):
    """The discrete Lagrange–d'Alembert integrator (Cortés–Martínez 2001, midpoint form of McLachlan–Perlmutter
    2006) with the fixed step ``step``: constraints exact at the nodes; one trajectory or a batch, member by member.
    """

    step: float | None = None

    label: ClassVar[str] = LDA
    single_engine: ClassVar[str | None] = "lda"
    batch_engine: ClassVar[str | None] = "lda"

    def __check_init__(self) -> None:
        if self.step is None:
            raise OptionError("integrate: method='lda-midpoint' needs the fixed step: pass step=<seconds>")
        _positive(type(self).__name__, "step", self.step)


class NumbaRK45(Solver):
    """Jitted Dormand–Prince 5(4) (``backend="numba"``): no Python call per step; a batch runs its members in
    parallel, each with its own step control. Output at the requested times; numbers only (no callable inputs)."""

    rtol: float = 1e-9
    atol: float = 1e-12
    max_step: float = np.inf

    label: ClassVar[str] = "RK45"
    single_engine: ClassVar[str | None] = "numba"
    batch_engine: ClassVar[str | None] = "numba"

    def __check_init__(self) -> None:
        _tolerances(type(self).__name__, self.rtol, self.atol)
        if isinstance(self.max_step, bool) or not isinstance(self.max_step, int | float | np.number):
            raise OptionError(
                f"{type(self).__name__}: max_step={self.max_step!r} must be positive (np.inf for no limit)"
            )
        if not self.max_step > 0:
            raise OptionError(
                f"{type(self).__name__}: max_step={self.max_step!r} must be positive (np.inf for no limit)"
            )


class NumbaRK4(Solver):
    """Jitted classical Runge–Kutta with ``n_steps`` fixed steps (``backend="numba"``): a batch."""

    n_steps: int | None = None

    label: ClassVar[str] = "RK4"
    batch_engine: ClassVar[str | None] = "numba"

    def __check_init__(self) -> None:
        _n_steps(self)


def _tolerances(who: str, rtol: Any, atol: Any) -> None:
    for name, val in (("rtol", rtol), ("atol", atol)):
        _positive(who, name, val)
    if rtol >= 1:
        raise OptionError(
            f"{who}: rtol={rtol!r} must be below 1 (a relative tolerance of 100 % or more checks nothing)"
        )


def _n_steps(s: Any) -> None:
    who = type(s).__name__
    _positive(who, "n_steps", s.n_steps, integer=True)
    if s.n_steps > s.max_steps:
        raise OptionError(f"{who}: n_steps={s.n_steps} exceeds max_steps={s.max_steps}")


#: ``method=`` names -> solver classes, by backend.
_BY_NAME: dict[str, dict[str, type[Solver]]] = {
    "numpy": {
        **{c.label: c for c in (RK45, RK23, DOP853, Radau, BDF, LSODA)},
        "RK4": RK4,
        LDA: LDAMidpoint,
    },
    "numba": {"RK45": NumbaRK45, "RK4": NumbaRK4},
}

#: Keys documented as unused by the fixed-step methods (accepted and ignored, as before solvers were values).
_UNUSED = ("rtol", "atol", "max_step")


def solver_from(method: Any, backend: Any, batch: bool, given: Mapping[str, Any]) -> Solver:
    """The solver of ``integrate(method=..., backend=..., **given)``: ``method`` itself when it is a
    :class:`Solver` (then ``given`` must be empty and ``backend`` the default), else the class named by
    ``method`` (case-insensitive) for ``backend`` and the mode, built from ``given`` (the :data:`SOLVER_KEYS`)."""
    if isinstance(method, Solver):
        if given:
            raise OptionError(
                f"integrate: {sorted(given)} given beside the solver {type(method).__name__}: set them on the solver"
            )
        if backend != "numpy":
            raise OptionError(
                f"integrate: backend={backend!r} given beside a solver value; the solver names its engine"
            )
        return method
    if not isinstance(backend, str) or backend.lower() not in _BY_NAME:
        raise OptionError(f"integrate: backend={backend!r} is not one of ['numpy', 'numba']")
    backend = backend.lower()
    lda = isinstance(method, str) and method.lower() == LDA
    if lda and backend != "numpy":
        raise OptionError(f"integrate: method='lda-midpoint' has no backend={backend!r}; use backend='numpy'")
    names = [LDA] if lda else _names(backend, batch)
    canon = {n.upper(): n for n in names}
    if not isinstance(method, str) or method.upper() not in canon:
        raise OptionError(f"integrate: method={method!r} is not one of {_names(backend, batch)}")
    cls = _BY_NAME[backend][canon[method.upper()]]
    own = _field_names(cls)
    kw: dict[str, Any] = {}
    for key, val in given.items():
        name = "options" if key == "solver_options" else key
        if name in own:
            kw[name] = val
        elif key in _UNUSED:
            continue
        else:
            raise OptionError(_not_an_option(key, val, cls, batch))
    try:
        return cls(**kw)
    except OptionError as exc:  # the sugar's own words: the option as it was spelt at the door
        msg, prefix = str(exc), f"{cls.__name__}: "
        if not msg.startswith(prefix):
            raise
        raise OptionError(f"integrate: {msg[len(prefix) :]}") from None


def _names(backend: str, batch: bool) -> list[str]:
    if backend == "numba":
        return ["RK45", "RK4"] if batch else ["RK45"]
    return ["RK45", "RK4"] if batch else list(SOLVERS)


def _not_an_option(key: str, val: Any, cls: type[Solver], batch: bool) -> str:
    """Why ``key=val`` is refused by the solver ``cls`` (the messages of the sugar, as before solvers were values)."""
    if key == "step":
        return (
            f"integrate: step={val!r} is the fixed step of method='lda-midpoint'; {cls.label!r} chooses its own "
            "steps (max_step= bounds them)"
        )
    if key == "n_steps":
        if batch:
            return f"integrate: n_steps is the step count of method='RK4'; {cls.label} chooses its own steps"
        return "integrate: n_steps is the step count of a batch run with method='RK4'"
    if key == "solver_options" or key in _field_names(ScipySolver):
        return (
            f"integrate: {key}{' are' if key == 'solver_options' else ' is'} passed to scipy's solvers "
            f"{list(SOLVERS)}; {cls.__name__} (method={cls.label!r}) takes none"
        )
    own = sorted(_field_names(cls))
    return f"integrate: {key}= is not an option of {cls.__name__}; its options are {own}"


def _field_names(cls: type[Solver]) -> set[str]:
    return {f.name for f in fields(cls)}  # type: ignore[arg-type]


def solver_keys() -> set[str]:
    """Every option name of the ``method="..."`` sugar: the fields of the solver classes (``options`` spelt
    ``solver_options``)."""
    out = {"solver_options"}
    for by_name in _BY_NAME.values():
        for cls in by_name.values():
            out |= _field_names(cls) - {"options"}
    return out
