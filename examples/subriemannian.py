"""Controllability and sub-Riemannian geodesics from brackets.

* growth vectors of the catalogue's distributions and of the classical examples (Heisenberg, Engel,
  Martinet on and off its surface, the rolling ball);
* Heisenberg normal geodesics as vakonomic motions (:func:`frames.subriemannian`): helices over
  circles, the height gained over one turn equal to the enclosed area;
* the Martinet surface and its abnormal line field (:func:`frames.martinet_abnormals`).

Writes ``heisenberg_geodesics.png``. Run: ``python examples/subriemannian.py [OUTDIR]``.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import sympy as sp

import frames as fr


def growth_table() -> list[tuple[str, tuple[int, ...]]]:
    ch = fr.Chart("x y z")
    x, y, _z = ch.q
    rows = []
    heis = fr.Distribution([fr.VectorField(ch, [1, 0, -y / 2]), fr.VectorField(ch, [0, 1, x / 2])])
    mart = fr.Distribution([fr.VectorField(ch, [1, 0, y**2 / 2]), fr.VectorField(ch, [0, 1, 0])])
    rows.append(("Heisenberg", heis.growth_vector()))
    rows.append(("Martinet, generic", mart.growth_vector()))
    rows.append(("Martinet, on y = 0", mart.growth_vector({x: 0, y: 0, _z: 0})))
    c4 = fr.Chart("x y z w")
    rows.append(
        (
            "Engel",
            fr.Distribution(
                [fr.VectorField(c4, [1, 0, c4.q[1], c4.q[2]]), fr.VectorField(c4, [0, 1, 0, 0])]
            ).growth_vector(),
        )
    )
    for name in ("knife_edge", "vertical_rolling_disk", "two_wheeled_carriage"):
        mdl = getattr(fr.models, name)()
        rows.append((name, fr.Distribution(mdl.frame.fields[: mdl.m]).growth_vector()))
    return rows


def heisenberg_geodesics(speed: float = 0.5, mus: tuple[float, ...] = (1.0, 2.0, 4.0)) -> list[fr.results.Trajectory]:
    ch = fr.Chart("x y z")
    x, y, _z = ch.q
    vk = fr.subriemannian(
        [fr.VectorField(ch, [1, 0, -y / 2]), fr.VectorField(ch, [0, 1, x / 2])],
        complement=[fr.VectorField(ch, [0, 0, 1])],
    )
    ode = fr.ode_system(vk)
    out = []
    for mu in mus:
        T = 2 * math.pi / mu
        tr = fr.integrate(ode, (0, T), [0.0, 0.0, 0.0], [speed, 0.0, 0.0], mu0=[mu], rtol=1e-10, atol=1e-12)
        r = speed / mu
        print(f"μ = {mu:g}: one turn, radius {r:.4f}, z gained {tr.q[-1, 2]:+.6f}, π r² = {math.pi * r * r:.6f}")
        out.append(tr)
    return out


def main(outdir: str | Path = ".") -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    for name, g in growth_table():
        print(f"{name:24s} growth vector {g}")
    ch = fr.Chart("x y z")
    _x, y, _z = ch.q
    ab = fr.martinet_abnormals([fr.VectorField(ch, [1, 0, y**2 / 2]), fr.VectorField(ch, [0, 1, 0])])
    print(f"Martinet surface {sp.Eq(ab.surface, 0)}, abnormal direction {ab.direction!r}")
    fig = plt.figure(figsize=(6, 5))
    ax = fig.add_subplot(projection="3d")
    for tr in heisenberg_geodesics():
        ax.plot(tr.q[:, 0], tr.q[:, 1], tr.q[:, 2])
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.set_zlabel("z")
    ax.set_title("Heisenberg normal geodesics (one turn each)")
    path = out / "heisenberg_geodesics.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
