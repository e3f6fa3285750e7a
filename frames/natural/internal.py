"""Layer internals of ``frames.natural``: the natural-coordinate helpers the layers above use.

Not the user vocabulary (that is :mod:`frames.natural`): a plain module re-exporting, for the layers
above, the names they need from this layer's private modules (the ``equinox.internal`` pattern).
"""

from ._mechanics import from_dynamic, to_dynamic
from ._mvm_equivalence import d_block_holonomic, weak_consistency_expression

__all__ = [
    "d_block_holonomic",
    "from_dynamic",
    "to_dynamic",
    "weak_consistency_expression",
]
