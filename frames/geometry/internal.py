"""Layer internals of ``frames.geometry``: the geometry helpers the layers above use.

Not the user vocabulary (that is :mod:`frames.geometry`): a plain module re-exporting, for the layers
above, the names they need from this layer's private modules (the ``equinox.internal`` pattern).
"""

from ._distribution import AdaptedIndices
from ._forms import vector_components
from ._second_order import natural_accelerations

__all__ = [
    "AdaptedIndices",
    "natural_accelerations",
    "vector_components",
]
