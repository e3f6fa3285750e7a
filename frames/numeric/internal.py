"""Layer internals of ``frames.numeric``: the plotting and output helpers the app layer uses.

Not the user vocabulary (that is :mod:`frames.numeric`): a plain module re-exporting, for the layers
above, the names they need from this layer's private modules (the ``equinox.internal`` pattern).
"""

from ._inputs import MAX_SPAN
from ._plot import IMAGE_FORMATS, PANELS, Panel, image_path, plot_panels, trajectory_panels, write_csv
from ._progress import ProgressBar
from ._trajectory import labelled

__all__ = [
    "IMAGE_FORMATS",
    "MAX_SPAN",
    "PANELS",
    "Panel",
    "ProgressBar",
    "image_path",
    "labelled",
    "plot_panels",
    "trajectory_panels",
    "write_csv",
]
