"""The one plotting and CSV path of the library (used by :class:`Trajectory` and the ``frames simulate`` command).

matplotlib is optional (the ``plot`` extra) and imported only when a plot is drawn; figures are
written to files with the non-interactive Agg backend.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ArgumentError, OptionalDependencyError

__all__ = ["Panel", "draw_panels", "plot_panels", "write_csv"]

# (y-axis label, curves as (label, values), logarithmic y axis)
Panel = tuple[str, Sequence[tuple[str, np.ndarray]], bool]


def _draw(axes: Sequence[Any], t: np.ndarray, panels: Sequence[Panel]) -> None:
    for ax, (ylabel, curves, log) in zip(axes, panels, strict=True):
        for label, y in curves:
            (ax.semilogy if log else ax.plot)(t, y, label=label)
        if len(curves) > 1 or (curves and curves[0][0] != ylabel):
            ax.legend(fontsize=7, ncol=min(len(curves), 5))
        ax.set_ylabel(ylabel)
        ax.grid(True, alpha=0.3)
    axes[-1].set_xlabel("t")


def draw_panels(t: np.ndarray, panels: Sequence[Panel], ax: Any = None, title: str | None = None) -> Any:
    """Draw stacked panels on the caller's matplotlib axes and return them.

    ``ax`` is one ``Axes`` per panel (a sequence or array of ``len(panels)`` axes), a single ``Axes``
    when there is one panel, or None for a new ``pyplot`` figure (the caller's backend: nothing is
    switched, nothing is written).
    """
    if ax is None:
        try:
            import matplotlib.pyplot as plt
        except ImportError as exc:
            raise OptionalDependencyError("plotting needs matplotlib: pip install 'frames[plot]'") from exc
        fig, grid = plt.subplots(len(panels), 1, figsize=(7, 2.2 * len(panels) + 0.6), sharex=True, squeeze=False)
        axes = list(grid[:, 0])
        if title:
            fig.suptitle(title)
    else:
        axes = list(np.ravel(np.asarray(ax, dtype=object)))
        if len(axes) != len(panels):
            raise ArgumentError(
                f"plot: ax: expected {len(panels)} axes, one per panel ({', '.join(p[0] for p in panels)}), "
                f"got {len(axes)}; select panels with panels=(...)"
            )
        for a in axes:
            if not hasattr(a, "plot") or not hasattr(a, "set_ylabel"):
                raise ArgumentError(f"plot: ax: expected matplotlib Axes, got {type(a).__name__}")
    _draw(axes, t, panels)
    return axes[0] if len(axes) == 1 else np.asarray(axes, dtype=object)


def _target(path: Any, what: str) -> Path:
    """``path`` as a :class:`~pathlib.Path` whose directory exists (no directory is created).

    Raises
    ------
    ArgumentError
        ``path`` is not a path, or its directory does not exist (the message names the path).
    """
    if not isinstance(path, str | os.PathLike) or isinstance(path, bytes):
        raise ArgumentError(f"{what}: path: expected a file path (str or os.PathLike), got {type(path).__name__}")
    out = Path(path)
    parent = out.parent
    if not parent.is_dir():
        raise ArgumentError(
            f"{what}: path: the directory {str(parent)!r} of {str(out)!r} does not exist; create it first"
        )
    return out


def plot_panels(
    t: np.ndarray, panels: Sequence[Panel], path: str | os.PathLike[str], title: str, what: str = "plot"
) -> Path:
    """Stacked panels sharing the t axis, written to ``path`` (needs matplotlib; its directory must exist).

    Uses a :class:`matplotlib.figure.Figure` with its own Agg canvas: the global pyplot backend
    of the caller (a notebook, say) is neither switched nor touched.
    """
    out = _target(path, what)
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise OptionalDependencyError("plotting needs matplotlib: pip install 'frames[plot]'") from exc
    fig = Figure(figsize=(7, 2.2 * len(panels) + 0.6))
    FigureCanvasAgg(fig)
    grid = fig.subplots(len(panels), 1, sharex=True, squeeze=False)
    _draw(list(grid[:, 0]), t, panels)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    return out


def write_csv(columns: Mapping[str, np.ndarray], path: str | os.PathLike[str], what: str = "to_csv") -> Path:
    """Write named 1-d columns of equal length as CSV with a header row (full float precision).

    The directory of ``path`` must exist (:class:`~frames.errors.ArgumentError` naming the path otherwise).
    """
    out = _target(path, what)
    names = list(columns)
    data = np.column_stack([np.asarray(columns[k], dtype=float) for k in names])
    np.savetxt(out, data, delimiter=",", header=",".join(names), comments="", fmt="%.17g")
    return out
