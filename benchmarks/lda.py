"""Energy error against time: the LDA-midpoint integrator against RK45 on the reduced form (issue 18).

For the Chaplygin sleigh, the nonholonomic particle and the vertical rolling disk, integrate to
T (default 10⁴) with ``method="lda-midpoint"`` (step 0.1) and with scipy's RK45 on the reduced form
at a tolerance chosen so that its wall time is of the same order (rtol 1e-6, atol 1e-9), and print
``max |E − E(0)|`` over the windows [0, 10], [0, 100], ..., [0, T] with the wall time of each run.
Writes ``docs/_static/lda_energy.png`` (needs matplotlib).

Run:  python benchmarks/lda.py [--T 10000] [--quick]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

import frames as fr

MODELS = ("chaplygin-sleigh", "nonholonomic-particle", "vertical-rolling-disk")


def run(name: str, T: float, step: float) -> dict[str, object]:
    mdl = fr.models.get(name)
    nh = mdl.nonholonomic()
    t0 = time.perf_counter()
    lda = fr.integrate(nh, (0, T), mdl.q0, mdl.u0, params=mdl.param_values, method="lda-midpoint", step=step)
    t_lda = time.perf_counter() - t0
    t0 = time.perf_counter()
    rk = fr.integrate(
        nh, (0, T), mdl.q0, mdl.u0, params=mdl.param_values, rtol=1e-6, atol=1e-9, t_eval=lda.t, max_steps=10**7
    )
    t_rk = time.perf_counter() - t0
    return {
        "name": name,
        "t": lda.t,
        "lda": np.abs(lda.energy - lda.energy[0]),
        "rk": np.abs(rk.energy - rk.energy[0]),
        "t_lda": t_lda,
        "t_rk": t_rk,
        "nfev": rk.info.get("nfev"),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--T", type=float, default=1.0e4)
    ap.add_argument("--step", type=float, default=0.1)
    ap.add_argument("--quick", action="store_true", help="T = 1000")
    args = ap.parse_args()
    T = 1.0e3 if args.quick else args.T
    windows = [w for w in (10.0, 100.0, 1000.0, 1.0e4, 1.0e5) if w <= T]
    rows = [run(n, T, args.step) for n in MODELS]
    head = f"{'model':24} {'method':12} {'wall s':>7} " + " ".join(f"{'≤ t=' + format(w, 'g'):>10}" for w in windows)
    print(f"max |E(t) − E(0)| over [0, t]; LDA step {args.step}, RK45 rtol 1e-6 atol 1e-9 (reduced form)\n")
    print(head)
    for r in rows:
        t = r["t"]
        for key, wall in (("lda", r["t_lda"]), ("rk", r["t_rk"])):
            e = r[key]
            cells = " ".join(f"{np.max(e[t <= w]):10.2e}" for w in windows)
            print(f"{r['name']:24} {'lda-midpoint' if key == 'lda' else 'RK45':12} {wall:7.2f} {cells}")
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:  # pragma: no cover
        return
    fig = Figure(figsize=(7, 2.4 * len(rows)))
    FigureCanvasAgg(fig)
    axes = fig.subplots(len(rows), 1, sharex=True)
    for ax, r in zip(axes, rows, strict=True):
        ax.loglog(r["t"][1:], np.maximum(r["lda"][1:], 1e-17), label=f"lda-midpoint (h = {args.step:g})")
        ax.loglog(r["t"][1:], np.maximum(r["rk"][1:], 1e-17), label="RK45 (rtol 1e-6)")
        ax.set_ylabel("|E − E(0)|")
        ax.set_title(r["name"], fontsize=9)
        ax.legend(fontsize=7)
        ax.grid(True, alpha=0.3)
    axes[-1].set_xlabel("t")
    fig.tight_layout()
    out = Path(__file__).resolve().parent.parent / "docs" / "_static" / "lda_energy.png"
    fig.savefig(out, dpi=100)
    print(f"\nwrote {out}")


if __name__ == "__main__":
    main()
