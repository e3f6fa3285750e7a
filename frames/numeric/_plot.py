"""The one plotting and CSV path of the library (used by :class:`Trajectory` and the ``frames simulate`` command).

matplotlib is optional (the ``plot`` extra) and imported only when a plot is drawn; figures are
written to files with the non-interactive Agg backend.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from ..errors import OptionalDependencyError

__all__ = ["Panel", "plot_panels", "write_csv"]

# (y-axis label, curves as (label, values), logarithmic y axis)
Panel = tuple[str, Sequence[tuple[str, np.ndarray]], bool]


def plot_panels(t: np.ndarray, panels: Sequence[Panel], path: str | os.PathLike[str], title: str) -> Path:
    """Stacked panels sharing the t axis, written to ``path`` (needs matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise OptionalDependencyError("plotting needs matplotlib: pip install 'frames[plot]'") from exc
    fig, axes = plt.subplots(len(panels), 1, figsize=(7, 2.2 * len(panels) + 0.6), sharex=True, squeeze=False)
    for ax, (ylabel, curves, log) in zip(axes[:, 0], panels, strict=True):
        for label, y in curves:
            (ax.semilogy if log else ax.plot)(t, y, label=label)
        if len(curves) > 1 or (curves and curves[0][0] != ylabel):
            ax.legend(fontsize=7, ncol=min(len(curves), 5))
        ax.set_ylabel(ylabel)
        ax.grid(True, alpha=0.3)
    axes[-1, 0].set_xlabel("t")
    fig.suptitle(title)
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def write_csv(columns: Mapping[str, np.ndarray], path: str | os.PathLike[str]) -> Path:
    """Write named 1-d columns of equal length as CSV with a header row (full float precision)."""
    names = list(columns)
    data = np.column_stack([np.asarray(columns[k], dtype=float) for k in names])
    out = Path(path)
    np.savetxt(out, data, delimiter=",", header=",".join(names), comments="", fmt="%.17g")
    return out
