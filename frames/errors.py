"""Exception hierarchy of :mod:`frames`.

Every error raised on bad input is a :class:`FramesError`. The subclasses say
what kind of input was wrong; the message names the offending object and the
reason.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "ArgumentError",
    "ChartMismatchError",
    "ConstraintError",
    "DegenerateFrameError",
    "FramesError",
    "InconsistentInitialDataError",
    "IntegrationError",
    "InvalidExpressionError",
    "OptionalDependencyError",
    "ParameterError",
    "RegularityError",
    "SingularFrameError",
    "SingularFrameWarning",
    "SingularityError",
    "StateError",
    "SystemFileError",
    "BudgetExceededError",
    "IntegrationBudgetError",
    "StiffnessError",
    "OptionError",
    "UndecidedError",
    "NoMultipliersError",
    "ObjectTypeError",
    "UnsupportedExpression",
]


class FramesError(ValueError):
    """Base class of every error raised by :mod:`frames` on bad input."""


class InvalidExpressionError(FramesError):
    """An expression uses symbols it may not use, or is malformed."""


class ArgumentError(FramesError, TypeError):
    """An argument has the wrong type or an invalid value (a count, a flag, an index, an object).

    Also a :class:`TypeError`, so code that caught ``TypeError`` for a wrong type keeps working.
    """


class ChartMismatchError(FramesError):
    """Objects that must live on one chart live on different charts."""


class SingularFrameError(FramesError):
    """A list of vector fields is not a frame (wrong number, or not independent), or a frame is singular where it
    is used (at the initial point of an integration; along the motion: :class:`DegenerateFrameError`)."""


class SingularFrameWarning(UserWarning):
    """A default frame is singular at points where the constraints are regular (no candidate frame was proved
    regular there); the message names the singular set and how to give a frame of one's own."""


class RegularityError(FramesError):
    """A Lagrangian is not regular where the construction needs it to be."""


class ConstraintError(FramesError):
    """Constraints are malformed: wrong rank, wrong shape, or not linear."""


# ----------------------------------------------------------------------------- errors
class StateError(FramesError):
    """Initial data of the wrong length or shape, missing, or not finite."""


class ParameterError(FramesError):
    """Parameters missing, unknown, or not finite."""


class InconsistentInitialDataError(ConstraintError):
    """Initial velocities violate the constraints (and no projection was asked for)."""


class OptionalDependencyError(FramesError, ImportError):
    """An optional dependency (pandas, matplotlib, dask) is not installed."""


class IntegrationError(FramesError):
    """The integrator failed; ``t`` and ``state`` say where, the message says why.

    Attributes
    ----------
    t : float or None
        Time of the failure.
    state : numpy.ndarray or None
        State at that time.
    """

    def __init__(self, message: str, t: float | None = None, state: Any = None) -> None:
        super().__init__(message)
        self.t = t
        self.state = None if state is None else np.array(state, dtype=float)


class SingularityError(IntegrationError, RegularityError):
    """The system became singular along the motion (singular Hessian, non-finite RHS)."""


class DegenerateFrameError(SingularFrameError, IntegrationError):
    """The adapted frame a system is integrated in degenerated along the motion (its fields became dependent or
    one vanished: the frame matrix's determinant, relative to the fields' sizes, fell below a threshold or
    changed sign). A :class:`SingularFrameError` raised by an integrator, also an :class:`IntegrationError`: the
    motion may well be regular there, the frame is not. The message names the time, the coordinates and the
    frame's fields, and asks for a frame regular there.

    Attributes
    ----------
    t : float or None
        Time at which the integration stopped (the crossing of the singular set when it was located).
    state : numpy.ndarray or None
        The integrator's state there.
    q : numpy.ndarray or None
        The coordinates there.
    ratio : float or None
        The frame's conditioning measure there (see :mod:`frames.numeric._frame`).
    """

    def __init__(
        self, message: str, t: float | None = None, state: Any = None, q: Any = None, ratio: float | None = None
    ) -> None:
        IntegrationError.__init__(self, message, t, state)
        self.q = None if q is None else np.array(q, dtype=float)
        self.ratio = ratio

    def __reduce__(self) -> tuple[Any, ...]:  # pickles with its parts (a batch's worker process sends it)
        return type(self), (str(self), self.t, self.state, self.q, self.ratio)


class SystemFileError(FramesError):
    """A system file (or one expression in it) is malformed or unsafe.

    The message names the file, the key and the reason; the parts are also
    available as attributes ``source``, ``key`` and ``reason``.
    """

    def __init__(self, source: str, key: str, reason: str) -> None:
        self.source = source
        self.key = key
        self.reason = reason
        super().__init__(f"{source}: {key}: {reason}")

    def __reduce__(self) -> tuple[Any, ...]:  # pickles with its three parts (a report's second process sends it)
        return type(self), (self.source, self.key, self.reason)


class OptionError(FramesError):
    """A solver or run option is invalid (method, tolerances, step limits, output times, budgets)."""


class BudgetExceededError(FramesError):
    """A computation ran out of its budget (wall time or step count).

    Attributes
    ----------
    step : str
        The step of the computation that was running when the budget ran out.
    """

    def __init__(self, message: str, step: str = "") -> None:
        super().__init__(message)
        self.step = step


class IntegrationBudgetError(IntegrationError, BudgetExceededError):
    """An integration exceeded ``max_steps`` or ``timeout``; ``t`` and ``state`` say where it stopped."""

    def __init__(self, message: str, t: float | None = None, state: Any = None, step: str = "integration") -> None:
        IntegrationError.__init__(self, message, t, state)
        self.step = step


class StiffnessError(IntegrationBudgetError):
    """An explicit method met a stiff system and was stopped early: its step is held at the method's stability
    boundary (``h ρ(∂f/∂y)`` of order one), so the rest of the span would need more steps or more time than the
    budget allows. The message names the estimate and suggests an implicit method (``method="Radau"``, ``"BDF"``
    or ``"LSODA"``); ``t`` and ``state`` say where the run stopped."""

    def __init__(self, message: str, t: float | None = None, state: Any = None) -> None:
        super().__init__(message, t, state, step="stiffness")


class UndecidedError(FramesError):
    """An exact zero test could not decide an expression outside the library's canonical class (radicals,
    ``log``, ``Abs``, a ``sin`` of an irrational shift …): neither an identity of independent generators nor a
    visibly nonzero value. The verdict that needed it is undecided.

    Attributes
    ----------
    expr : Expr
        The expression whose zero test is undecided.
    """

    def __init__(self, message: str, expr: Any = None) -> None:
        super().__init__(message)
        self.expr = expr

    def __reduce__(self) -> tuple[Any, ...]:  # pickles with the expression (a report's second process sends it)
        return type(self), (str(self), self.expr)


class NoMultipliersError(FramesError):
    """A dynamics method has no algebraic multipliers: its multipliers are states (their rates are part of
    ``accelerations()``) or the method has none."""


class ObjectTypeError(ArgumentError, InvalidExpressionError):
    """A wrong object where a library object is needed (an :class:`ArgumentError`).

    Also an :class:`InvalidExpressionError`, which these calls raised before, so code that
    caught that keeps working.
    """


class UnsupportedExpression(ValueError):
    """An expression outside the class handled by :class:`~frames.algebra.RationalFunctions` (internal: the
    exact routes raise it to hand over to the expression-level one; never raised to a user)."""
