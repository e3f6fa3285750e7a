"""Layer internals of ``frames.app``: the app helpers not in the user vocabulary.

Not the user vocabulary (that is :mod:`frames.app`): a plain module re-exporting, for the layers
above, the names they need from this layer's private modules (the ``equinox.internal`` pattern).
"""

from ._cli import find_model

__all__ = [
    "find_model",
]
