r"""Stability maps over two parameters: the cells of a :class:`~frames.dynamics.StabilityRegion` filled by class,
its exact boundary polynomials drawn as their zero contours.

The boundaries are the zero sets of the exact expressions of the region (``c_m``, ``Δ_{m−1}``, the poles of
``A``), contoured from their values on the region's grid; the colours are the classes of the cells, each decided
once on the exact characteristic polynomial (not a grid of eigenvalue signs). matplotlib is optional (the
``plot`` extra) and imported only when a map is drawn, on a private Agg figure.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from ..algebra import expect
from ..dynamics import StabilityRegion
from ..errors import ArgumentError, OptionalDependencyError
from ._locus import agg_figure
from ._plot import _target

__all__ = ["draw_stability_region", "plot_stability_region"]

_CLASSES = ("asymptotically stable", "marginal", "unstable", "undefined")
_COLOURS = ("#b7e4c7", "#fff3b0", "#f4a6a6", "#d9d9d9")
_LINES = {"real": ("tab:red", "-"), "complex": ("tab:blue", "--"), "leading": ("k", ":")}


def draw_stability_region(region: StabilityRegion, ax: Any = None) -> Any:
    """Draw ``region`` on a matplotlib ``ax`` (None: a new pyplot figure): cells coloured by class, the boundary
    curves as zero contours (red: an eigenvalue through 0; blue dashed: a pair through the imaginary axis;
    dotted: a pole of ``A``). Returns the axes."""
    expect(region, StabilityRegion, name="draw_stability_region: region")
    if ax is None:
        try:
            import matplotlib.pyplot as plt
        except ImportError as exc:
            raise OptionalDependencyError("plotting needs matplotlib: pip install 'frames[plot]'") from exc
        _fig, ax = plt.subplots(figsize=(7, 5))
    elif not (hasattr(ax, "contour") and hasattr(ax, "pcolormesh")):
        raise ArgumentError("draw_stability_region: ax: expected a matplotlib Axes")
    _draw(region, ax)
    return ax


def _draw(region: StabilityRegion, ax: Any) -> None:
    from matplotlib.colors import ListedColormap
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    xs, ys, values, labels = region.grid
    index = np.array([_CLASSES.index(c.stability) for c in region.cells])
    ax.pcolormesh(xs, ys, index[labels], cmap=ListedColormap(_COLOURS), vmin=-0.5, vmax=3.5, shading="nearest")
    handles: list[Any] = []
    for (kind, _expr), v in zip(region.curves, values, strict=True):
        colour, style = _LINES[kind]
        if np.nanmin(v) < 0 < np.nanmax(v):
            ax.contour(xs, ys, v, levels=[0.0], colors=colour, linestyles=style, linewidths=1.2)
        handles.append(Line2D([], [], color=colour, ls=style, label={"real": "c_m = 0 (eigenvalue 0)",
                       "complex": "Δ_(m−1) = 0 (pair on iR)", "leading": "pole of A"}[kind]))  # fmt: skip
    seen = sorted({c.stability for c in region.cells}, key=_CLASSES.index)
    handles += [Patch(color=_COLOURS[_CLASSES.index(c)], label=c) for c in seen]
    ax.legend(handles=handles, fontsize=7, loc="best")
    ax.set_xlabel(str(region.parameters[0]))
    ax.set_ylabel(str(region.parameters[1]))


def plot_stability_region(region: StabilityRegion, path: str | os.PathLike[str], *, title: str | None = None) -> Path:
    r"""Write the stability map ``region`` (:meth:`Linearization.stability_region
    <frames.dynamics.Linearization.stability_region>`) to ``path`` (PNG, PDF, SVG, …: the extension picks the
    format). Needs matplotlib; the directory of ``path`` must exist. Returns the path written."""
    expect(region, StabilityRegion, name="plot_stability_region: region")
    out = _target(path, "plot_stability_region")
    fig = agg_figure(out, "plot_stability_region", (7, 5))
    ax = fig.subplots()
    _draw(region, ax)
    p, q = region.parameters
    ax.set_title(title or f"stability in ({p}, {q})", fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    return out
