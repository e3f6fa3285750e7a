"""Invariant measures N(q) dq∧dv of the catalogue's nonholonomic systems, and their obstructions.

For each system, :func:`frames.invariant_measure` either finds a basic density (the nonholonomic particle,
the section 7.1 class, the knife edge, the rolling disk, ...) or proves that there is none (the Chaplygin
sleigh, whose obstruction is ``m a/(I + m a²)``). The script writes a table ``invariant_measures.txt``.
It also integrates the sleigh and writes ``sleigh_phase_volume.png``: a small ball of initial states in the
plane of its reduced velocities (ω, v) shrinks, so no density of q alone can make the flow preserve volume.

Run: ``python examples/invariant_measure.py [OUTDIR]``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import sympy as sp

import frames as fr

SYSTEMS = (
    "nonholonomic_particle",
    "abelian_chaplygin",
    "knife_edge",
    "vertical_rolling_disk",
    "rolling_penny",
    "chaplygin_sleigh",
    "two_wheeled_carriage",
)


def table() -> list[str]:
    """One block per system: the verdict, the densities (w.r.t. dq∧dv and dq∧dp) or the obstruction."""
    lines = []
    for name in SYSTEMS:
        mdl = getattr(fr.models, name)()
        t0 = time.perf_counter()
        res = fr.invariant_measure(mdl.nonholonomic(), budget=60)
        dt = time.perf_counter() - t0
        lines.append(f"{mdl.name}  ({dt:.2f} s)")
        lines.append(f"  volume         {res.volume}")
        lines.append(f"  div Γ          {res.divergence}")
        if res.exists:
            lines.append(f"  N (dq∧dv)      {res.density}")
            lines.append(f"  N (dq∧dp)      {res.density_momenta}")
            lines.append(f"  check          {res.check()}")
        elif res.exists is False:
            for lab, e in zip(res.obstruction_labels, res.obstruction, strict=True):
                lines.append(f"  obstruction    {lab} = {e}")
        else:
            lines.append(f"  undecided      {res.reason}")
    return lines


def sleigh_areas(n_points: int = 64, radius: float = 0.05, t_end: float = 20.0) -> tuple[np.ndarray, np.ndarray]:
    """Area in the (ω, v) plane of a small circle of initial states of the sleigh, transported by the flow."""
    mdl = fr.models.chaplygin_sleigh()
    G = mdl.nonholonomic().field().subs(mdl.param_values)
    w, v = mdl.frame.v[:2]
    rates = sp.lambdify((w, v), [G.Gamma[0], G.Gamma[1]], "numpy")
    angles = np.linspace(0.0, 2 * np.pi, n_points, endpoint=False)
    pts = np.stack([0.6 + radius * np.cos(angles), 0.4 + radius * np.sin(angles)], axis=1)
    times = np.linspace(0.0, t_end, 401)
    dt = times[1] - times[0]
    areas = []
    for k in range(len(times)):
        x, y = pts[:, 0], pts[:, 1]
        areas.append(0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))
        if k == len(times) - 1:
            break
        for _ in range(10):  # RK4 substeps
            h = dt / 10

            def f(p: np.ndarray) -> np.ndarray:
                return np.stack(rates(p[:, 0], p[:, 1]), axis=1)

            k1 = f(pts)
            k2 = f(pts + h / 2 * k1)
            k3 = f(pts + h / 2 * k2)
            k4 = f(pts + h * k3)
            pts = pts + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return times, np.array(areas)


def main(outdir: str | Path = ".") -> Path:
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    lines = table()
    print("\n".join(lines))
    path = out / "invariant_measures.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    times, areas = sleigh_areas()
    print(f"sleigh: area of the (ω, v) blob {areas[0]:.3e} at t = 0, {areas[-1]:.3e} at t = {times[-1]:g}")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - matplotlib is optional
        return path
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.semilogy(times, areas / areas[0])
    ax.set_xlabel("t")
    ax.set_ylabel("area / initial area")
    ax.set_title("Chaplygin sleigh: phase area in (ω, v) is not preserved")
    fig.tight_layout()
    fig.savefig(out / "sleigh_phase_volume.png", dpi=100)
    plt.close(fig)
    return path


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
