"""Layer internals of ``frames.app`` for the layers above, not user API (the ``equinox.internal`` pattern)."""

from ._cli import find_model

__all__ = [
    "find_model",
]
