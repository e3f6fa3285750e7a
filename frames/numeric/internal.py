"""Layer internals of ``frames.numeric`` for the layers above, not user API (the ``equinox.internal`` pattern)."""

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
