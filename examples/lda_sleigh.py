"""The Chaplygin sleigh with the discrete Lagrange–d'Alembert integrator (method="lda-midpoint").

Integrates the sleigh to T = 200 with the symmetric DLA scheme (step 0.1) and with RK45, and draws the
energy error of both and the sleigh's path. Run:  python examples/lda_sleigh.py [OUTDIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import frames as fr


def main(outdir: str | Path = ".") -> Path:
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    mdl = fr.models.chaplygin_sleigh()
    nh = mdl.nonholonomic()
    T = 200.0
    lda = fr.integrate(nh, (0, T), mdl.q0, mdl.u0, params=mdl.param_values, method="lda-midpoint", step=0.1)
    rk = fr.integrate(nh, (0, T), mdl.q0, mdl.u0, params=mdl.param_values, t_eval=lda.t, rtol=1e-6, atol=1e-9)
    e_lda = np.abs(lda.energy - lda.energy[0])
    e_rk = np.abs(rk.energy - rk.energy[0])
    print(
        f"max |E − E(0)|: lda-midpoint {e_lda.max():.2e}, RK45 {e_rk.max():.2e}; max dist(u, D) {lda.residual.max():.1e}"
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
    ax1.semilogy(lda.t[1:], np.maximum(e_lda[1:], 1e-17), label="lda-midpoint, h = 0.1")
    ax1.semilogy(rk.t[1:], np.maximum(e_rk[1:], 1e-17), label="RK45, rtol 1e-6")
    ax1.set_xlabel("t")
    ax1.set_ylabel("|E − E(0)|")
    ax1.legend(fontsize=7)
    ax2.plot(lda.q[:, 1], lda.q[:, 2])
    ax2.set_aspect("equal")
    ax2.set_title("contact point (x, y)")
    fig.tight_layout()
    path = out / "lda_sleigh.png"
    fig.savefig(path, dpi=100)
    print(f"wrote {path}")
    return path


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
