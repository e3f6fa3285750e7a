"""Two-wheeled carriage (Crampin–Mestdag section 7.2): nonholonomic vs vakonomic motion on a consistent section.

The parameters are the catalogue defaults except l (m = 3, m0 = 2, J = 1/2, J2 = 1/20, R = 1/5, c = 3/10, exact
rationals, substituted before the symbolic work so that the vakonomic field is cheap). The vakonomic system is
integrated on C × R³ with the multipliers free (state (q, v^α, μ), μ̇ = A of Proposition 4,
``frames.ode_system`` of the VakonomicSystem) from μ(0) = φ(q0, v0):

* l = 0, φ = p (the nonholonomic momenta p_a = X_a^V L): strongly consistent, the motions coincide;
* l = l_s = √((mR² + 2J2)(R²J + 2c²J2))/(m0R²) (= √1595/40 ≈ 0.998 m here), φ = p + k with
  k3 = −K̂ sin θ (v1 − v2) + H cos θ (v1 + v2), k4 = K̂ cos θ (v1 − v2) + H sin θ (v1 + v2), k5 = 0,
  K̂ = m0 l R/(2c) and H = +(mR² + 2J2)/(2R) (the paper prints −; errata CM-5): the motions coincide;
* a generic l (l_s/2 and 0.1) with the same sections: the motions separate.

Run ``python examples/carriage_consistency.py [outdir]``; prints the separations, writes carriage_consistency.png.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import sympy as sp

import frames as fr

Rat = sp.Rational
T = 20.0
V0 = (1.0, 0.5)  # v1, v2 (wheel rates)


def carriage(l_value):
    """(nonholonomic system, vakonomic system, p + k section) at the default parameters and l = l_value."""
    mdl = fr.models.two_wheeled_carriage()
    P = mdl.params
    vals = {P["m"]: 3, P["m0"]: 2, P["J"]: Rat(1, 2), P["J2"]: Rat(1, 20), P["R"]: Rat(1, 5), P["c"]: Rat(3, 10)}
    vals[P["l"]] = sp.sympify(l_value)
    F = fr.Frame(
        [fr.VectorField(mdl.chart, [sp.sympify(e).subs(vals) for e in X.components]) for X in mdl.frame.fields]
    )
    L = mdl.lagrangian.with_expr(mdl.lagrangian.expr.subs(vals))
    vk = fr.VakonomicSystem(L, F, m=2)
    k = fr.models.carriage_section_data(mdl, vals)["k"]
    p = vk.nonholonomic.momenta()[2:]
    return vk, (tuple(p), tuple(pa + ka for pa, ka in zip(p, k, strict=True)))


def L_SPECIAL():
    return sp.sqrt(Rat(1595)) / 40


def compare(l_value, which: int, T: float = T, n: int = 401):
    """Max |q_vk − q_nh| over [0, T] for the section ``which`` (0: p, 1: p + k), and the trajectories."""
    vk, secs = carriage(l_value)
    F = vk.frame
    sec = secs[which]
    q0 = [0.0] * 5
    u_of_v = [sp.sympify(e).xreplace({F.v[2]: 0, F.v[3]: 0, F.v[4]: 0}) for e in F.u_in_v]
    subs0 = dict(zip(F.chart.q, q0, strict=True)) | {F.v[0]: V0[0], F.v[1]: V0[1]}
    u0 = [float(e.subs(subs0)) for e in u_of_v]
    mu0 = [float(sp.sympify(e).subs(subs0)) for e in sec]
    te = np.linspace(0.0, T, n)
    opts = {"rtol": 1e-12, "atol": 1e-13, "t_eval": te, "method": "DOP853"}
    nh = fr.integrate(vk.nonholonomic, (0, T), q0, u0, **opts)
    va = fr.integrate(fr.ode_system(vk), (0, T), q0, u0, mu0=mu0, **opts)
    return float(np.max(np.abs(va.q - nh.q))), nh, va


def main(outdir: str | Path = ".") -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    ls = L_SPECIAL()
    cases = [(0, 0, "l = 0, φ = p"), (ls, 1, "l = l_s, φ = p + k"), (ls / 2, 1, "l = l_s/2, φ = p + k")]
    fig, axes = plt.subplots(1, len(cases), figsize=(4 * len(cases), 4))
    for ax, (lv, which, lab) in zip(axes, cases, strict=True):
        d, nh, va = compare(lv, which)
        print(f"{lab:24s} max |q_vk - q_nh| over T = {T:g}: {d:.3e}")
        ax.plot(nh.q[:, 2], nh.q[:, 3], "k-", lw=3, label="nonholonomic")
        ax.plot(va.q[:, 2], va.q[:, 3], "r--", label="vakonomic")
        ax.set_title(f"{lab}\nmax|Δq| = {d:.1e}", fontsize=9)
        ax.set_xlabel("x [m]")
        ax.set_ylabel("y [m]")
        ax.set_aspect("equal", adjustable="datalim")
        ax.legend(fontsize=7)
    fig.tight_layout()
    path = out / "carriage_consistency.png"
    fig.savefig(path, dpi=90)
    plt.close(fig)
    print("wrote", path)
    return path


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
