"""Ball on a rotating table (Cortés et al. 2003, Example 6.8; Lewis & Murray 1995).

The library derives the nonholonomic field in the table's co-rotating frame (where the rolling
constraints are linear), checks the classical result exactly (the centre's inertial velocity
turns at the rate Ω I/(I + m r²), 2Ω/7 for a homogeneous ball), integrates one revolution and
draws the centre's path in the inertial and in the table's frame.

Run:  python examples/ball_on_rotating_table.py [OUTDIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import sympy as sp

import frames as fr


def rate_of_turning() -> sp.Expr:
    """κΩ from the library's accelerations: w' = iκΩ w for the inertial velocity w (exact)."""
    mdl = fr.models.ball_on_rotating_table()
    X, Y = mdl.chart.q[:2]
    uX, uY = mdl.chart.u[:2]
    uth, ups = mdl.chart.u[3:]
    Om = mdl.params["Omega"]
    acc = mdl.nonholonomic().accelerations(canonical=True)  # a closed form is wanted: the canonical form
    on_D = sp.solve(list(mdl.constraints.functions), [uth, ups], dict=True)[0]
    Z, Zd = X + sp.I * Y, uX + sp.I * uY
    Zdd = acc[0].xreplace(on_D) + sp.I * acc[1].xreplace(on_D)
    w, wdot = Zd + sp.I * Om * Z, Zdd + 2 * sp.I * Om * Zd - Om**2 * Z  # times e^{iΩt}
    return fr.tidy(sp.expand(wdot / (sp.I * w)))


def main(outdir: str | Path = ".") -> Path:
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    rate = rate_of_turning()
    print(f"inertial velocity turns at the rate {rate}")
    mdl = fr.models.ball_on_rotating_table()
    pv = mdl.param_values
    Om = float(pv[mdl.params["Omega"]])
    print(f"homogeneous ball (I = 2 m r²/5): {sp.nsimplify(rate.subs({k: v for k, v in pv.items()}) / Om)} Ω")
    T = 7 * np.pi / Om  # one revolution of the centre at 2Ω/7
    t = np.linspace(0, T, 600)
    tr = fr.integrate(mdl.nonholonomic(), (0, T), mdl.q0, mdl.u0, params=pv, t_eval=t, rtol=1e-10, atol=1e-12)
    Z = tr.q[:, 0] + 1j * tr.q[:, 1]
    z = np.exp(1j * Om * t) * Z
    path = out / "ball_on_rotating_table.png"
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:  # pragma: no cover - matplotlib is optional
        path = out / "ball_on_rotating_table.csv"
        np.savetxt(path, np.column_stack([t, z.real, z.imag, Z.real, Z.imag]), delimiter=",")
        return path
    fig = Figure(figsize=(9, 4.2))
    FigureCanvasAgg(fig)
    ax1, ax2 = fig.subplots(1, 2)
    ax1.plot(z.real, z.imag)
    ax1.plot([z.real[0]], [z.imag[0]], "o")
    ax1.set_title("centre, inertial frame: a circle at 2Ω/7")
    ax2.plot(Z.real, Z.imag, color="C1")
    ax2.set_title("centre, table's frame")
    for ax in (ax1, ax2):
        ax.set_aspect("equal")
        ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"wrote {path}")
    return path


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
