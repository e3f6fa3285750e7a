"""Exception hierarchy of :mod:`frames`.

Every error raised on bad input is a :class:`FramesError`. The subclasses say
what kind of input was wrong; the message names the offending object and the
reason.
"""

from __future__ import annotations

__all__ = [
    "ChartMismatchError",
    "ConstraintError",
    "FramesError",
    "InvalidExpressionError",
    "RegularityError",
    "SingularFrameError",
]


class FramesError(ValueError):
    """Base class of every error raised by :mod:`frames` on bad input."""


class InvalidExpressionError(FramesError):
    """An expression uses symbols it may not use, or is malformed."""


class ChartMismatchError(FramesError):
    """Objects that must live on one chart live on different charts."""


class SingularFrameError(FramesError):
    """A list of vector fields is not a frame (wrong number, or not independent)."""


class RegularityError(FramesError):
    """A Lagrangian is not regular where the construction needs it to be."""


class ConstraintError(FramesError):
    """Constraints are malformed: wrong rank, wrong shape, or not linear."""
