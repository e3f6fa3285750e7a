"""Figures 1–4 of Pastore, Giammarini & Grillo (2024): the rolling coin on the inclined plane.

Table 1 parameters (R = 11.625 mm, m = 7.5 g, g = 9.81 m/s², α = π/6), t ∈ [0, 2] s, q(0) = 0 except
θ0 = q⁴(0), u(0) = (0, 0, 0, Ω), λ(0) = 0.

* Figure 1: centre-of-mass paths for Ω ∈ {π/2, π, 2π}.
* Figure 2: Ω ∈ {π, 2π}: (a)–(c) the pairs (q^k, ρ_k), k = 1..3, continuous and dotted; (d) λ1 (continuous)
  and λ2 (dotted).
* Figure 3: paths for θ0 ∈ {0, π/2} at Ω = 2π.
* Figure 4: as Figure 2 for θ0 ∈ {0, π/2} at Ω = 2π.

q and the reactions ρ_k = θ^a_k λ_a (93) come from the library's nonholonomic field in reduced form; λ comes
from integrating the MVM equations (51a–b) with the W of (68) (``frames.ode_system`` of the ModifiedVakonomic), whose q(t)
coincides with the nonholonomic one (Corollary 1). Run ``python examples/pastore_figures.py [outdir]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import sympy as sp

import frames as fr

PARAMS = {"m": 7.5e-3, "R": 11.625e-3, "g": 9.81, "alpha": np.pi / 6}
T = 2.0
OMEGAS = (np.pi / 2, np.pi, 2 * np.pi)  # Figs 1-2: θ0 = 0
THETA0S = (0.0, np.pi / 2)  # Figs 3-4: Ω = 2π


def _systems():
    mdl = fr.models.rolling_coin_incline()
    R = mdl.params["R"]
    _x, _y, _phi, th = mdl.chart.q
    ux, uy, uph, uth = mdl.chart.u
    mvm = fr.ModifiedVakonomic(mdl.lagrangian, [ux - R * sp.sin(th) * uph, uy - R * sp.cos(th) * uph], [uph, uth])
    return mdl.nonholonomic(), fr.numeric.CompiledSystem(fr.ode_system(mvm))


SYSTEMS = None


def systems():
    """The nonholonomic system and the compiled MVM ODE system (51a–b), built once."""
    global SYSTEMS
    if SYSTEMS is None:
        SYSTEMS = _systems()
    return SYSTEMS


def simulate(Om: float, th0: float, n: int = 2001):
    """(t, q, ρ, λ, max |q_MVM − q_NH|) for one initial condition; λ from the MVM integrator."""
    nh, mvm = systems()
    te = np.linspace(0.0, T, n)
    q0, u0 = [0.0, 0.0, 0.0, th0], [0.0, 0.0, 0.0, Om]
    tr = fr.integrate(nh, (0, T), q0, u0, params=PARAMS, rtol=1e-10, atol=1e-14, t_eval=te)
    tm = fr.integrate(mvm, (0, T), q0, u0, params=PARAMS, rtol=1e-10, atol=1e-14, t_eval=te, extra0={"lambda": [0, 0]})
    return te, tr.q, tr.reactions, tm.extras["lambda"], float(np.max(np.abs(tm.q - tr.q)))


def figure_data() -> dict[str, dict[float, tuple]]:
    """The runs behind the figures: ``"omega"`` (θ0 = 0, Ω ∈ {π/2, π, 2π}: Figs 1, 2) and
    ``"theta0"`` (Ω = 2π, θ0 ∈ {0, π/2}: Figs 3, 4), each mapping the varied value to :func:`simulate`'s tuple."""
    return {
        "omega": {Om: simulate(Om, 0.0) for Om in OMEGAS},
        "theta0": {th0: simulate(2 * np.pi, th0) for th0 in THETA0S},
    }


def _pairs_figure(plt, runs, labels, title, path):
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    names = [
        ("$q^1 = x_G$ [m]", r"$\rho_1$ [N]"),
        ("$q^2 = y_G$ [m]", r"$\rho_2$ [N]"),
        (r"$q^3 = \varphi$ [rad]", r"$\rho_3$ [N m]"),
    ]
    colors = ["C0", "C3", "C2"]
    for k, (ax, (qn, rn)) in enumerate(zip(axes.flat[:3], names, strict=True)):
        ax2 = ax.twinx()
        for (t, q, rho, _lam, _d), lab, col in zip(runs, labels, colors, strict=False):
            ax.plot(t, q[:, k], "-", color=col, label=f"$q^{k + 1}$, {lab}")
            ax2.plot(t, rho[:, k], ":", color=col, label=rf"$\rho_{k + 1}$, {lab}")
        ax.set_xlabel("t [s]")
        ax.set_ylabel(qn + " (continuous)")
        ax2.set_ylabel(rn + " (dotted)")
        ax.set_title(f"({'abc'[k]})")
        ax.legend(loc="upper left", fontsize=7)
        ax2.legend(loc="lower right", fontsize=7)
    ax = axes.flat[3]
    for (t, _q, _rho, lam, _d), lab, col in zip(runs, labels, colors, strict=False):
        ax.plot(t, lam[:, 0], "-", color=col, label=rf"$\lambda_1$, {lab}")
        ax.plot(t, lam[:, 1], ":", color=col, label=rf"$\lambda_2$, {lab}")
    ax.set_xlabel("t [s]")
    ax.set_ylabel(r"$\lambda$ [N s]")
    ax.set_title("(d)")
    ax.legend(fontsize=7)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _paths_figure(plt, runs, labels, title, path):
    fig, ax = plt.subplots(figsize=(7, 5))
    for (_t, q, _rho, _lam, _d), lab in zip(runs, labels, strict=True):
        ax.plot(q[:, 0] * 1e3, q[:, 1] * 1e3, label=lab)
    ax.set_xlabel("$x_G$ [mm]")
    ax.set_ylabel("$y_G$ [mm] (down the slope)")
    ax.invert_yaxis()
    ax.set_aspect("equal", adjustable="datalim")
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(outdir: str | Path = ".") -> list[Path]:
    """Write pastore_fig1.png … pastore_fig4.png to ``outdir``; returns the paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    pi = np.pi
    data = figure_data()
    runs1, runs3 = data["omega"], data["theta0"]
    worst = max(r[4] for r in list(runs1.values()) + list(runs3.values()))
    print(f"max |q_MVM - q_NH| over all runs: {worst:.2e} (Corollary 1: the coin's MVM is the TNHM)")
    paths = [out / f"pastore_fig{i}.png" for i in (1, 2, 3, 4)]
    om_lab = {pi / 2: r"$\Omega = \pi/2$", pi: r"$\Omega = \pi$", 2 * pi: r"$\Omega = 2\pi$"}
    _paths_figure(
        plt, list(runs1.values()), [om_lab[k] for k in runs1], "Fig. 1: centre of mass, $\\theta_0 = 0$", paths[0]
    )
    _pairs_figure(plt, [runs1[pi], runs1[2 * pi]], [om_lab[pi], om_lab[2 * pi]], "Fig. 2: $\\theta_0 = 0$", paths[1])
    th_lab = [r"$\theta_0 = 0$", r"$\theta_0 = \pi/2$"]
    _paths_figure(plt, list(runs3.values()), th_lab, "Fig. 3: centre of mass, $\\Omega = 2\\pi$", paths[2])
    _pairs_figure(plt, list(runs3.values()), th_lab, "Fig. 4: $\\Omega = 2\\pi$", paths[3])
    for p in paths:
        print("wrote", p)
    return paths


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
