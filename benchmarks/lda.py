"""Energy error against time: the LDA-midpoint integrator against RK45 on the reduced form.

For the Chaplygin sleigh, the nonholonomic particle and the vertical rolling disk, each as catalogued
(free motion) and in the harmonic potential ``V = (x² + y²)/2`` of the contact point (``(q1² + q2²)/2``
for the particle), integrate to T (default 10⁴) with ``method="lda-midpoint"`` (step 0.1) and with
scipy's RK45 on the reduced form at **equal cost**, two ways:

* *equal evaluations*: the loosest tolerance in 1e-5, 1e-6, ... at which RK45's right-hand-side
  evaluations (``nfev``) reach LDA's Newton iterations (one residual-and-Jacobian evaluation each);
* *equal wall time*: the loosest tolerance at which RK45's wall time reaches LDA's.

If no tolerance down to 1e-11 reaches the cost (free motion that RK45 crosses in long steps), the row
shows the tightest one, marked ``<``. Prints ``max |E − E(0)|`` over the windows [0, 10], [0, 100], ...,
[0, T] and the growth ``max over [0, T] / max over [0, T/10]`` (≤ 3 is the tests' "bounded"; linear
drift gives 10), and writes
``docs/_static/lda_energy.png`` (needs matplotlib).

Run:  python benchmarks/lda.py [--T 10000] [--step 0.1] [--quick]
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from pathlib import Path
from typing import Any

import numpy as np

import frames as fr

MODELS = ("chaplygin-sleigh", "nonholonomic-particle", "vertical-rolling-disk")
TOLS = (1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11)


def model(name: str, harmonic: bool) -> Any:
    """The catalogued model, or the same with ``L − V`` (harmonic potential of the contact point)."""
    mdl = fr.models.get(name)
    if not harmonic:
        return mdl
    s = {str(x): x for x in mdl.chart.q}
    x, y = (s["q1"], s["q2"]) if "q1" in s else (s["x"], s["y"])
    return dataclasses.replace(mdl, lagrangian=fr.Lagrangian(mdl.chart, mdl.lagrangian.expr - (x**2 + y**2) / 2))


def _rk45(mdl: Any, nh: Any, T: float, te: np.ndarray, rtol: float) -> tuple[Any, float]:
    t0 = time.perf_counter()
    rk = fr.integrate(
        nh, (0, T), mdl.q0, mdl.u0, params=mdl.param_values, rtol=rtol, atol=1e-3 * rtol, t_eval=te, max_steps=10**8
    )
    return rk, time.perf_counter() - t0


def run(name: str, harmonic: bool, T: float, step: float) -> dict[str, Any]:
    mdl = model(name, harmonic)
    nh = mdl.nonholonomic()
    t0 = time.perf_counter()
    lda = fr.integrate(nh, (0, T), mdl.q0, mdl.u0, params=mdl.param_values, method="lda-midpoint", step=step)
    t_lda = time.perf_counter() - t0
    rows = [("lda-midpoint", f"h = {step:g}", lda, t_lda, lda.info["newton_iterations"])]
    evals = wall = None
    for rtol in TOLS:
        rk, t_rk = _rk45(mdl, nh, T, lda.t, rtol)
        if evals is None and rk.info["nfev"] >= lda.info["newton_iterations"]:
            evals = ("RK45 =evals", f"rtol {rtol:g}", rk, t_rk, rk.info["nfev"])
        if wall is None and t_rk >= t_lda:
            wall = ("RK45 =wall", f"rtol {rtol:g}", rk, t_rk, rk.info["nfev"])
        if evals is not None and wall is not None:
            break
    last = (f"rtol {TOLS[-1]:g} <", rk, t_rk, rk.info["nfev"])
    rows.append(evals if evals is not None else ("RK45 =evals", *last))
    rows.append(wall if wall is not None else ("RK45 =wall", *last))
    return {"name": mdl.name + (" (harmonic)" if harmonic else ""), "t": lda.t, "rows": rows}


def growth(t: np.ndarray, e: np.ndarray) -> float:
    """``max |ΔE|`` over [0, T] divided by its maximum over the first tenth of the nodes."""
    n = max(1, len(t) // 10)
    first = float(np.max(e[:n]))
    return float(np.max(e)) / first if first > 0 else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--T", type=float, default=1.0e4)
    ap.add_argument("--step", type=float, default=0.1)
    ap.add_argument("--quick", action="store_true", help="T = 1000")
    args = ap.parse_args()
    T = 1.0e3 if args.quick else args.T
    windows = [w for w in (10.0, 100.0, 1000.0, 1.0e4, 1.0e5) if w <= T]
    results = [run(n, h, T, args.step) for h in (False, True) for n in MODELS]
    print(
        f"max |E(t) − E(0)| over [0, t]; T = {T:g}; LDA step {args.step:g}; RK45 on the reduced form at equal "
        "evaluations (nfev ≥ LDA's Newton iterations) and at equal wall time\n"
    )
    head = (
        f"{'model':36} {'method':13} {'setting':13} {'evals':>8} {'wall s':>7} "
        + " ".join(f"{'≤ t=' + format(w, 'g'):>10}" for w in windows)
        + f" {'growth':>7}"
    )
    print(head)
    for r in results:
        t = r["t"]
        for label, setting, tr, wall, ev in r["rows"]:
            e = np.abs(tr.energy - tr.energy[0])
            cells = " ".join(f"{np.max(e[t <= w]):10.2e}" for w in windows)
            print(f"{r['name']:36} {label:13} {setting:13} {ev:8d} {wall:7.2f} {cells} {growth(t, e):7.2f}")
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:  # pragma: no cover - matplotlib is optional
        return
    fig = Figure(figsize=(11, 8))
    FigureCanvasAgg(fig)
    axes = fig.subplots(len(MODELS), 2, sharex=True)
    styles = {"lda-midpoint": "-", "RK45 =evals": "--", "RK45 =wall": ":"}
    for i, r in enumerate(results):
        ax = axes[i % len(MODELS), i // len(MODELS)]
        t = r["t"]
        shown = set()
        for label, setting, tr, _, _ in r["rows"]:
            if id(tr) in shown:  # the same RK45 run at both costs
                continue
            shown.add(id(tr))
            e = np.abs(tr.energy - tr.energy[0])
            ax.loglog(t[1:], np.maximum(e[1:], 1e-17), styles[label], lw=1, label=f"{label} ({setting})")
        ax.set_title(r["name"], fontsize=9)
        ax.set_ylabel("|E − E(0)|", fontsize=8)
        ax.legend(fontsize=7, loc="lower right")
        ax.grid(True, alpha=0.3)
    for ax in axes[-1]:
        ax.set_xlabel("t")
    fig.tight_layout()
    out = Path(__file__).resolve().parent.parent / "docs" / "_static" / "lda_energy.png"
    fig.savefig(out, dpi=90)
    print(f"\nwrote {out}")


if __name__ == "__main__":
    main()
