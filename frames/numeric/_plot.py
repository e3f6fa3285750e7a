"""The one plotting and CSV path of the library (used by :class:`Trajectory` and the ``frames simulate`` command):
the panel list of a trajectory (:func:`trajectory_panels`), drawing it, and CSV.

matplotlib is optional (the ``plot`` extra) and imported only when a plot is drawn; figures are
written to files with the non-interactive Agg backend.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from ..errors import ArgumentError, OptionalDependencyError

__all__ = [
    "PANELS",
    "Panel",
    "draw_panels",
    "IMAGE_FORMATS",
    "image_path",
    "panel_title",
    "plane",
    "plot_panels",
    "trajectory_panels",
    "velocity_unit",
    "write_csv",
]

#: The panels of a trajectory plot, in drawing order: the x–y path (planar systems), the coordinates, the
#: natural velocities, the quasi-velocities (on request only), energy, multipliers and ``dist(u, D)``.
PANELS = ("xy", "q", "u", "v", "inputs", "energy", "multipliers", "residual")

#: The panels drawn when none are chosen (all those the trajectory has).
DEFAULT_PANELS = ("xy", "q", "u", "inputs", "energy", "multipliers", "residual")


def plane(names: Sequence[str]) -> tuple[int, int] | None:
    """The indices of the coordinates of a planar vehicle's position, or None: the first pair named ``x``
    and ``y`` with one suffix, empty or after an underscore (``x, y``; ``X, Y``; ``x_G, y_G``)."""
    for i, a in enumerate(names):
        if a[:1] not in ("x", "X") or not (len(a) == 1 or a[1] == "_"):
            continue
        other = ("y" if a[0] == "x" else "Y") + a[1:]
        if other in names:
            return i, list(names).index(other)
    return None


class Panel(NamedTuple):
    """One panel of a plot: curves against the time axis (``x`` None), or one curve against another (the path)."""

    key: str
    """Which panel (one of :data:`PANELS`)."""
    ylabel: str
    curves: tuple[tuple[str, np.ndarray], ...]
    """``(label, values)`` per curve."""
    log: bool = False
    """A logarithmic y axis."""
    xlabel: str = "t"
    x: np.ndarray | None = None
    """The abscissa, or None for the time axis (shared by the time panels)."""


def _with_unit(label: str, unit: str | None) -> str:
    return f"{label} [{unit}]" if unit else label


def _common(units: Sequence[str | None]) -> str | None:
    """The unit shared by every curve of a panel, or None."""
    first = units[0] if units else None
    return first if first and all(u == first for u in units) else None


def velocity_unit(units: Mapping[str, str], q: str, u: str, t: str) -> str | None:
    """The unit of the velocity ``u`` of the coordinate ``q``: declared, or ``unit(q)/unit(t)`` (``s`` when
    time has no declared unit), or None when ``q`` has none."""
    if u in units:
        return units[u]
    if q not in units:
        return None
    return f"{units[q]}/{units.get(t, 's')}"


def trajectory_panels(
    t: np.ndarray,
    q: np.ndarray,
    u: np.ndarray,
    names: Mapping[str, Sequence[str]],
    *,
    v: np.ndarray | None = None,
    energy: np.ndarray | None = None,
    multipliers: np.ndarray | None = None,
    residual: np.ndarray | None = None,
    units: Mapping[str, str] | None = None,
    time: str = "t",
    plane_names: Sequence[str] = (),
    keys: Sequence[str] | None = None,
    what: str = "plot",
    inputs: Mapping[str, np.ndarray] | None = None,
) -> list[Panel]:
    """The panels of a trajectory plot: the one list that :meth:`Trajectory.plot` and ``frames simulate`` draw.

    ``q, u`` (and ``v``) are ``(N, n)``; ``names`` maps ``"q"``, ``"u"``, ``"v"``, ``"multipliers"`` to the
    component names; ``units`` maps names (coordinates, velocities, time) to unit labels, shown on the axes
    (a velocity's unit defaults to ``unit(q)/unit(t)``, see :func:`velocity_unit`). A chart with coordinates
    named ``x`` and ``y`` (or ``X, Y``, ``x_G, y_G``: :func:`plane`) gets the path panel ``"xy"`` (``y``
    against ``x``); ``plane_names`` (a model's ``plane``, declared in its file) names the pair instead. ``energy`` is drawn as
    ``E − E(0)``; ``residual`` on a log axis (exact zeros at 1e-20); ``inputs`` (name -> values along the motion,
    the callable inputs) the control effort. ``keys`` chooses panels from
    :data:`PANELS` (default: those of :data:`DEFAULT_PANELS` that the data have).

    Raises
    ------
    ArgumentError
        ``keys`` not a sequence of panel names, an unknown name, or a panel without data.
    """
    units = dict(units or {})
    n = q.shape[1]
    qn = tuple(names.get("q", ())) or tuple(f"q{i + 1}" for i in range(n))
    un = tuple(names.get("u", ())) or tuple(f"u{i + 1}" for i in range(n))
    q_units = [units.get(x) for x in qn]
    u_units = [velocity_unit(units, x, y, time) for x, y in zip(qn, un, strict=True)]
    tlabel = _with_unit(time, units.get(time))
    out: dict[str, Panel] = {}
    xy = (qn.index(plane_names[0]), qn.index(plane_names[1])) if len(plane_names) == 2 else plane(qn)
    if xy is not None:
        ix, iy = xy
        out["xy"] = Panel(
            "xy",
            _with_unit(qn[iy], q_units[iy]),
            (("path", q[:, iy]),),
            xlabel=_with_unit(qn[ix], q_units[ix]),
            x=q[:, ix],
        )
    for key, arr, labels, us in (("q", q, qn, q_units), ("u", u, un, u_units)):
        common = _common(us)
        curves = tuple((labels[i] if common else _with_unit(labels[i], us[i]), arr[:, i]) for i in range(n))
        out[key] = Panel(key, _with_unit(key, common), curves, xlabel=tlabel)
    if v is not None:
        vn = tuple(names.get("v", ())) or tuple(f"v{i + 1}" for i in range(v.shape[1]))
        out["v"] = Panel("v", "v", tuple((vn[i], v[:, i]) for i in range(v.shape[1]) if np.any(v[:, i])), xlabel=tlabel)
    if inputs:
        out["inputs"] = Panel(
            "inputs",
            "inputs",
            tuple((_with_unit(k, units.get(k)), np.asarray(val)) for k, val in inputs.items()),
            xlabel=tlabel,
        )
    if energy is not None and len(energy):
        out["energy"] = Panel("energy", "E − E(0)", (("E − E(0)", energy - energy[0]),), xlabel=tlabel)
    if multipliers is not None:
        ln = tuple(names.get("multipliers", ()))
        k = multipliers.shape[1]
        out["multipliers"] = Panel(
            "multipliers",
            "λ",
            tuple((ln[i] if i < len(ln) else f"λ{i + 1}", multipliers[:, i]) for i in range(k)),
            xlabel=tlabel,
        )
    if residual is not None:
        label = "dist(u, D)\n(1e-20 = exact 0)"
        out["residual"] = Panel("residual", label, ((label, np.maximum(residual, 1e-20)),), True, xlabel=tlabel)
    if keys is None:
        return [out[k] for k in DEFAULT_PANELS if k in out]
    if isinstance(keys, str) or not all(isinstance(k, str) for k in keys):
        raise ArgumentError(f"{what}: panels: expected a sequence of panel names {PANELS}, got {keys!r}")
    unknown = [k for k in keys if k not in PANELS]
    if unknown:
        raise ArgumentError(f"{what}: panels: unknown panel {unknown[0]!r}; choose from {PANELS}")
    absent = [k for k in keys if k not in out]
    if absent:
        why = " (no coordinates named x and y, X and Y, or x_G and y_G)" if absent[0] == "xy" else ""
        raise ArgumentError(f"{what}: panels: this trajectory has no {absent[0]!r} data{why}")
    return [out[k] for k in keys]


def panel_title(name: str, form: str, method: str) -> str:
    """The title of a trajectory plot: the system's name (when known), the form and the method."""
    return f"{name}: {form} form, {method}" if name else f"{form} form, {method}"


def _draw(axes: Sequence[Any], t: np.ndarray, panels: Sequence[Panel]) -> None:
    time_axes = []
    for ax, panel in zip(axes, panels, strict=True):
        if panel.x is None:
            for label, y in panel.curves:
                (ax.semilogy if panel.log else ax.plot)(t, y, label=label)
            if len(panel.curves) > 1 or (panel.curves and panel.curves[0][0] != panel.ylabel):
                ax.legend(fontsize=7, ncol=min(len(panel.curves), 5))
            time_axes.append((ax, panel.xlabel))
        else:
            for label, y in panel.curves:
                ax.plot(panel.x, y, label=label)
                ax.plot(panel.x[:1], y[:1], "o", color="C0", markersize=4)
            ax.set_aspect("equal", adjustable="datalim")
            ax.set_xlabel(panel.xlabel)
        ax.set_ylabel(panel.ylabel)
        ax.grid(True, alpha=0.3)
    first = time_axes[0][0] if time_axes else None
    for ax, _ in time_axes[1:]:
        if len(ax.get_shared_x_axes().get_siblings(ax)) == 1:  # the caller's axes may be shared already
            ax.sharex(first)
    for ax, _ in time_axes[:-1]:
        ax.tick_params(labelbottom=False)
    if time_axes:
        time_axes[-1][0].set_xlabel(time_axes[-1][1])


def _heights(panels: Sequence[Panel]) -> list[float]:
    return [2.0 if p.x is not None else 1.0 for p in panels]


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
        hr = _heights(panels)
        fig, grid = plt.subplots(len(panels), 1, figsize=(7, 2.2 * sum(hr) + 0.6), squeeze=False, height_ratios=hr)
        axes = list(grid[:, 0])
        if title:
            fig.suptitle(title)
    else:
        axes = list(np.ravel(np.asarray(ax, dtype=object)))
        if len(axes) != len(panels):
            raise ArgumentError(
                f"plot: ax: expected {len(panels)} axes, one per panel ({', '.join(p.key for p in panels)}), "
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


#: The image formats of matplotlib's Agg canvas (the suffixes ``plot`` writes; checked before any work is done).
IMAGE_FORMATS = ("eps", "jpeg", "jpg", "pdf", "pgf", "png", "ps", "raw", "rgba", "svg", "svgz", "tif", "tiff", "webp")


def image_path(path: Path, formats: Sequence[str] = IMAGE_FORMATS, what: str = "plot") -> Path:
    """The file an image is written to: ``path`` when its suffix names one of ``formats``, ``path`` + ``.png``
    without a suffix (the file matplotlib writes then, returned as it is).

    Raises
    ------
    ArgumentError
        A suffix that is not an image format (``x.txt``), naming the formats.
    """
    suffix = path.suffix[1:].lower()
    if not suffix:
        return path.with_name(path.name + ".png")
    if suffix not in formats:
        raise ArgumentError(
            f"{what}: path {str(path)!r}: {suffix!r} is not an image format; use one of {list(formats)} "
            "(or no suffix for .png)"
        )
    return path


def plot_panels(
    t: np.ndarray, panels: Sequence[Panel], path: str | os.PathLike[str], title: str, what: str = "plot"
) -> Path:
    """Stacked panels sharing the t axis, written to ``path`` (needs matplotlib; its directory must exist);
    returns the file written (``path``, or ``path.png`` when it has no suffix, :func:`image_path`).

    Uses a :class:`matplotlib.figure.Figure` with its own Agg canvas: the global pyplot backend
    of the caller (a notebook, say) is neither switched nor touched.
    """
    out = _target(path, what)
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise OptionalDependencyError("plotting needs matplotlib: pip install 'frames[plot]'") from exc
    hr = _heights(panels)
    fig = Figure(figsize=(7, 2.2 * sum(hr) + 0.6))
    canvas = FigureCanvasAgg(fig)
    out = image_path(out, sorted(canvas.get_supported_filetypes()), what)
    grid = fig.subplots(len(panels), 1, squeeze=False, height_ratios=hr)
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
