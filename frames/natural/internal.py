"""Layer internals of ``frames.natural`` for the layers above, not user API (the ``equinox.internal`` pattern)."""

from ._mechanics import from_dynamic, to_dynamic
from ._mvm_equivalence import d_block_holonomic, weak_consistency_expression

__all__ = [
    "d_block_holonomic",
    "from_dynamic",
    "to_dynamic",
    "weak_consistency_expression",
]
