"""The Chaplygin sleigh with the discrete Lagrange–d'Alembert integrator (method="lda-midpoint").

The sleigh of ``frames.models`` with its contact point in the harmonic potential ``V = (x² + y²)/2``
(free, it settles into uniform straight motion; in the potential it keeps turning). Integrates to
T = 300 with the symmetric DLA scheme (step 0.1) and with RK45 on the reduced form at equal cost (at
least as many right-hand-side evaluations as the scheme's Newton iterations), and draws the energy
error of both and the path of the contact point. Run:  python examples/lda_sleigh.py [OUTDIR]
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np

import frames as fr


def harmonic_sleigh() -> fr.models.Model:
    """The catalogued sleigh with ``L − (x² + y²)/2``."""
    mdl = fr.models.chaplygin_sleigh()
    _, x, y = mdl.chart.q
    return dataclasses.replace(mdl, lagrangian=fr.Lagrangian(mdl.chart, mdl.lagrangian.expr - (x**2 + y**2) / 2))


def main(outdir: str | Path = ".") -> Path:
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    mdl = harmonic_sleigh()
    nh = mdl.nonholonomic()
    T = 300.0
    lda = fr.integrate(nh, (0, T), mdl.q0, mdl.u0, params=mdl.param_values, method="lda-midpoint", step=0.1)
    for rtol in (1e-5, 1e-6, 1e-7):  # equal cost: RK45's nfev reaches LDA's Newton iterations
        rk = fr.integrate(
            nh, (0, T), mdl.q0, mdl.u0, params=mdl.param_values, t_eval=lda.t, rtol=rtol, atol=1e-3 * rtol
        )
        if rk.info["nfev"] >= lda.info["newton_iterations"]:
            break
    e_lda = np.abs(lda.energy - lda.energy[0])
    e_rk = np.abs(rk.energy - rk.energy[0])
    n = len(e_lda) // 10
    print(
        f"max |E − E(0)| over the first / last tenth: lda-midpoint {e_lda[:n].max():.2e} / {e_lda[-n:].max():.2e} "
        f"({lda.info['newton_iterations']} Newton iterations), RK45 rtol {rtol:g} {e_rk[:n].max():.2e} / "
        f"{e_rk[-n:].max():.2e} ({rk.info['nfev']} evaluations); max dist(u, D) {lda.residual.max():.1e}"
    )
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:  # pragma: no cover - matplotlib is optional
        path = out / "lda_sleigh.csv"
        np.savetxt(path, np.column_stack([lda.t, e_lda, e_rk]), delimiter=",", header="t,lda,rk45")
        return path
    fig = Figure(figsize=(9, 3.6))
    FigureCanvasAgg(fig)
    ax1, ax2 = fig.subplots(1, 2)
    ax1.plot(lda.t, e_lda, lw=0.8, label="lda-midpoint, h = 0.1")
    ax1.plot(rk.t, e_rk, lw=0.8, label=f"RK45, rtol {rtol:g} (equal cost)")
    ax1.set_xlabel("t")
    ax1.set_ylabel("|E − E(0)|")
    ax1.set_title("sleigh in V = (x² + y²)/2: energy error", fontsize=9)
    ax1.legend(fontsize=7)
    ax2.plot(lda.q[:, 1], lda.q[:, 2], lw=0.5)
    ax2.set_aspect("equal")
    ax2.set_title("contact point (x, y)", fontsize=9)
    fig.tight_layout()
    path = out / "lda_sleigh.png"
    fig.savefig(path, dpi=100)
    print(f"wrote {path}")
    return path


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
