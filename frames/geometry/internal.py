"""Layer internals of ``frames.geometry`` for the layers above, not user API (the ``equinox.internal`` pattern)."""

from ._distribution import AdaptedIndices
from ._forms import vector_components
from ._second_order import natural_accelerations

__all__ = [
    "AdaptedIndices",
    "natural_accelerations",
    "vector_components",
]
