"""Lemos (2022): nonholonomic vs vakonomic motion of the coin on the inclined plane.

The coin of Pastore et al. (``frames.models.rolling_coin_incline``, Table 1 parameters) is started from the same
(q, u) and integrated (i) with the library's nonholonomic field (reduced form) and (ii) with the vakonomic field of
Crampin–Mestdag Proposition 4 on C × R² (state (q, v^α, μ), μ̇ = A, ``frames.ode_system`` of the VakonomicSystem) for several
μ(0). The separation is the largest distance between the two centre-of-mass paths over [0, T].

When Ω = θ̇(0) ≠ 0 no μ(0) reproduces the nonholonomic motion (Lemos' complete inequivalence): the minimum of the
separation over μ(0) (``min_separation``: Nelder–Mead, slow) stays of the order of the motion itself. With Ω = 0 and
θ0 = 0 (rolling straight down the fall line) μ(0) = (m ẋ(0), anything) does reproduce it (note
cortes_talamucci_lemos.md §5.3: λ1 = m ẋ + c1 with c1 = 0).

Run ``python examples/lemos_coin.py [outdir]``; writes lemos_coin.png and prints the table used in docs/numerics.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import frames as fr

PARAMS = {"m": 7.5e-3, "R": 11.625e-3, "g": 9.81, "alpha": np.pi / 6}
T = 2.0
MU0S = [(0.0, 0.0), (0.01, -0.01)]


def systems():
    """(nonholonomic system, compiled vakonomic system) of the coin."""
    mdl = fr.models.rolling_coin_incline()
    vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, m=2)
    return mdl.nonholonomic(), fr.numeric.CompiledSystem(fr.ode_system(vk))


def initial(Om: float, th0: float = 0.0, phidot: float = 0.5):
    """q0, u0 in D: rolling rate ``phidot``, turning rate Ω."""
    R = PARAMS["R"]
    return [0.0, 0.0, 0.0, th0], [R * np.sin(th0) * phidot, R * np.cos(th0) * phidot, phidot, Om]


def separation(nh_tr, vk_sys, q0, u0, mu0, te):
    """max_t |(x, y)_vk − (x, y)_nh| [m] and the vakonomic trajectory."""
    b = fr.integrate(vk_sys, (0, T), q0, u0, params=PARAMS, rtol=1e-11, atol=1e-14, t_eval=te, mu0=list(mu0))
    return float(np.max(np.hypot(*(b.q[:, :2] - nh_tr.q[:, :2]).T))), b


def min_separation(nh_tr, vk_sys, q0, u0, te, starts=MU0S[:2]):
    """Minimum over μ(0) of the separation (Nelder–Mead from several starts): (value, argmin)."""
    from scipy.optimize import minimize

    best = (np.inf, None)
    for s in starts:
        r = minimize(lambda mu: separation(nh_tr, vk_sys, q0, u0, mu, te)[0], np.array(s), method="Nelder-Mead",
                     options={"xatol": 1e-7, "fatol": 1e-9, "maxfev": 40})  # fmt: skip
        if r.fun < best[0]:
            best = (float(r.fun), r.x)
    return best


def main(outdir: str | Path = ".") -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    nh, vk = systems()
    te = np.linspace(0.0, T, 401)
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    fig, axes = plt.subplots(1, 2, figsize=(13, 5))
    for ax, (Om, th0) in zip(axes, [(2 * np.pi, 0.0), (0.0, 0.0)], strict=True):
        q0, u0 = initial(Om, th0)
        a = fr.integrate(nh, (0, T), q0, u0, params=PARAMS, rtol=1e-11, atol=1e-14, t_eval=te)
        ax.plot(a.q[:, 0] * 1e3, a.q[:, 1] * 1e3, "k-", lw=3, label="nonholonomic")
        print(f"Omega = {Om:.4f}, theta0 = {th0}:")
        mus = list(MU0S) + ([(PARAMS["m"] * u0[0], 0.02)] if Om == 0 else [])
        for mu0 in mus:
            d, b = separation(a, vk, q0, u0, mu0, te)
            print(f"  mu(0) = ({mu0[0]:+.4f}, {mu0[1]:+.4f}): max separation {d:.3e} m")
            ax.plot(b.q[:, 0] * 1e3, b.q[:, 1] * 1e3, "--", label=f"vakonomic, μ(0)=({mu0[0]:.3g}, {mu0[1]:.3g})")
        ax.set_title(f"Ω = {Om:.3g} rad/s, θ0 = {th0}")
        ax.set_xlabel("$x_G$ [mm]")
        ax.set_ylabel("$y_G$ [mm] (down the slope)")
        ax.invert_yaxis()
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    path = out / "lemos_coin.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    print("wrote", path)
    return path


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
