r"""Eigenvalues of a linearisation against a parameter, drawn in two panels (real parts, imaginary parts).

The data are :meth:`Linearization.sweep <frames.dynamics.Linearization.sweep>`'s: at each parameter value the
eigenvalues of ``A``, each curve followed by continuity; column ``k`` of the sweep is the ``k``-th curve of each
panel.
The values where the motion changes stability (:meth:`~frames.dynamics.Linearization.critical_values`, or
given) are marked by vertical lines. matplotlib is optional (the ``plot`` extra) and imported only here, when a
plot is drawn; files are written with the non-interactive Agg backend of a private figure.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..algebra import expect
from ..dynamics import Linearization
from ..errors import ArgumentError, OptionalDependencyError
from ._plot import _target

__all__ = ["agg_figure", "draw_eigenvalues", "plot_eigenvalues"]


def _data(
    lin: Linearization, parameter: Any, values: Any, subs: Mapping[Any, Any] | None, critical: Any
) -> tuple[np.ndarray, np.ndarray, list[float]]:
    expect(lin, Linearization, name="plot_eigenvalues: lin")
    try:
        xs = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ArgumentError(f"plot_eigenvalues: values: expected a sequence of numbers, got {values!r:.60}") from None
    eig = lin.sweep(parameter, xs, subs)
    if critical is None:
        crit = lin.critical_values(parameter, xs, subs)
    else:
        try:
            crit = [float(c) for c in np.atleast_1d(np.asarray(critical, dtype=float))]
        except (TypeError, ValueError):
            crit = [float("nan")]
        if not all(np.isfinite(crit)):
            raise ArgumentError(f"plot_eigenvalues: critical: expected finite numbers, got {critical!r:.60}")
    return xs, eig, crit


def _draw(axes: Sequence[Any], xs: np.ndarray, eig: np.ndarray, crit: list[float], name: str) -> None:
    re_ax, im_ax = axes
    for k in range(eig.shape[1]):
        re_ax.plot(xs, np.real(eig[:, k]), ".-", ms=3, lw=0.8, label=f"λ{k + 1}")
        im_ax.plot(xs, np.imag(eig[:, k]), ".-", ms=3, lw=0.8, label=f"λ{k + 1}")
    for ax, label in ((re_ax, "Re λ"), (im_ax, "Im λ")):
        ax.axhline(0.0, color="0.5", lw=0.6)
        for c in crit:
            ax.axvline(c, color="tab:red", ls="--", lw=0.8)
        ax.set_ylabel(label)
        ax.grid(True, alpha=0.3)
    if crit:
        re_ax.set_title("critical: " + ", ".join(f"{name} = {c:.6g}" for c in crit), fontsize=8)
    if eig.shape[1] <= 8:
        re_ax.legend(fontsize=7, ncol=min(eig.shape[1], 4))
    im_ax.set_xlabel(name)


def draw_eigenvalues(
    lin: Linearization,
    parameter: Any,
    values: Any,
    ax: Any = None,
    *,
    subs: Mapping[Any, Any] | None = None,
    critical: Any = None,
) -> Any:
    r"""Draw the real and imaginary parts of the eigenvalues of ``lin.A`` against ``parameter`` on two axes.

    ``ax`` is a pair of matplotlib axes (real parts, imaginary parts), or None for a new ``pyplot`` figure
    (the caller's backend). Curve ``k`` of each panel is column ``k`` of ``lin.sweep(parameter, values, subs)``;
    ``critical`` (default ``lin.critical_values(parameter, values, subs)``) is marked by dashed lines. Returns
    the two axes.
    """
    xs, eig, crit = _data(lin, parameter, values, subs, critical)
    if ax is None:
        try:
            import matplotlib.pyplot as plt
        except ImportError as exc:
            raise OptionalDependencyError("plotting needs matplotlib: pip install 'frames[plot]'") from exc
        _fig, grid = plt.subplots(2, 1, figsize=(7, 5), sharex=True)
        axes = list(grid)
    else:
        axes = list(np.ravel(np.asarray(ax, dtype=object)))
        if len(axes) != 2 or not all(hasattr(a, "plot") and hasattr(a, "axvline") for a in axes):
            raise ArgumentError("draw_eigenvalues: ax: expected two matplotlib Axes (real parts, imaginary parts)")
    _draw(axes, xs, eig, crit, str(parameter))
    return np.asarray(axes, dtype=object)


def agg_figure(out: Path, what: str, size: tuple[float, float]) -> Any:
    """A matplotlib figure on its own Agg canvas for the file ``out``, whose extension must be one the canvas
    writes (else an :class:`~frames.errors.ArgumentError` naming the supported ones)."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise OptionalDependencyError("plotting needs matplotlib: pip install 'frames[plot]'") from exc
    fig = Figure(figsize=size)
    canvas = FigureCanvasAgg(fig)
    supported = sorted(canvas.get_supported_filetypes())
    if out.suffix.lstrip(".").lower() not in supported:
        raise ArgumentError(
            f"{what}: path: cannot write {str(out)!r}: the extension {out.suffix or '(none)'!r} is not a supported "
            f"image format; use one of {', '.join('.' + e for e in supported)}"
        )
    return fig


def plot_eigenvalues(
    lin: Linearization,
    parameter: Any,
    values: Any,
    path: str | os.PathLike[str],
    *,
    subs: Mapping[Any, Any] | None = None,
    critical: Any = None,
    title: str | None = None,
) -> Path:
    r"""Write the eigenvalues of ``lin.A`` against ``parameter`` to the PNG ``path``: real parts above,
    imaginary parts below, the critical values marked (see :func:`draw_eigenvalues`).

    Needs matplotlib (:class:`~frames.errors.OptionalDependencyError` otherwise); the directory of ``path``
    must exist. The global pyplot backend is not touched (a private Agg figure). Returns the path written.
    """
    out = _target(path, "plot_eigenvalues")
    fig = agg_figure(out, "plot_eigenvalues", (7, 5))
    xs, eig, crit = _data(lin, parameter, values, subs, critical)
    grid = fig.subplots(2, 1, sharex=True)
    _draw(list(grid), xs, eig, crit, str(parameter))
    fig.suptitle(title or f"eigenvalues against {parameter}")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    return out
