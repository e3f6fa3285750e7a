"""Worked example: vehicles whose constraints mix angles (a car with trailers, the snakeboard).

The car's rear axle is at ``(x, y)`` with heading ``θ``; trailer ``i`` (heading ``θ_i``) is hitched at the axle of
the one before it, at distance ``d``, and its wheels roll without slipping sideways. The snakeboard (Ostrowski) has
two wheel pairs steered by ``±φ``. Their constraints involve ``sin(θ + φ)``, ``sin(θ − φ)`` and the headings of
consecutive bodies: the exact zero test works on the lattice the angles span (``frames.algebra.is_zero`` is
complete there), and the results print as sines and cosines of differences of angles
(``frames.algebra.harmonic_form``).

Run ``python examples/compound_angles.py [OUTDIR]``; a text report is printed and written to
``OUTDIR/compound_angles.txt``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import sympy as sp

import frames as fr
from frames.algebra import harmonic_form, op_count


def car_with_trailers(k: int) -> fr.NonholonomicSystem:
    """A car (mass ``m``, inertia ``J``) pulling ``k`` trailers (mass ``m_t``, inertia ``J_t``, hitch length ``d``)."""
    return fr.NonholonomicSystem.from_constraints(*car_with_trailers_parts(k))


def car_with_trailers_parts(k: int) -> tuple[fr.Lagrangian, fr.LinearConstraints]:
    """The Lagrangian and the constraints of :func:`car_with_trailers` (the system is built from them)."""
    ch = fr.Chart("x y theta " + " ".join(f"theta{i}" for i in range(1, k + 1)), params="m J d m_t J_t")
    q, u = ch.q, ch.u
    th = q[2]
    m, J, d, mt, Jt = ch.params
    L = m / 2 * (u[0] ** 2 + u[1] ** 2) + J / 2 * u[2] ** 2
    rows = [-sp.sin(th) * u[0] + sp.cos(th) * u[1]]
    vx, vy = u[0], u[1]  # velocity of the hitch of trailer i
    for i in range(1, k + 1):
        ti, wi = q[2 + i], u[2 + i]
        vx, vy = vx + d * sp.sin(ti) * wi, vy - d * sp.cos(ti) * wi  # its axle, a distance d behind
        L += mt / 2 * (vx**2 + vy**2) + Jt / 2 * wi**2
        rows.append(sp.expand(-sp.sin(ti) * vx + sp.cos(ti) * vy))
    return fr.Lagrangian(ch, sp.expand(L)), fr.LinearConstraints(ch, rows)


def snakeboard() -> fr.NonholonomicSystem:
    """The snakeboard: board at ``(x, y)``, heading ``θ``, rotor ``ψ``, wheel pairs steered by ``±φ``."""
    ch = fr.Chart("x y theta psi phi", params="m J J_r J_w r")
    th, ph = ch.q[2], ch.q[4]
    ux, uy, uth, upsi, uph = ch.u
    m, J, Jr, Jw, r = ch.params
    L = m / 2 * (ux**2 + uy**2) + J / 2 * uth**2 + Jr / 2 * upsi**2 + Jr * upsi * uth + Jw * uph**2
    rows = [
        -sp.sin(th + ph) * ux + sp.cos(th + ph) * uy - r * sp.cos(ph) * uth,
        -sp.sin(th - ph) * ux + sp.cos(th - ph) * uy + r * sp.cos(ph) * uth,
    ]
    return fr.NonholonomicSystem.from_constraints(fr.Lagrangian(ch, L), fr.LinearConstraints(ch, rows))


def describe(name: str, nh: fr.NonholonomicSystem) -> list[str]:
    """Verdicts, and the multipliers with their sizes in canonical and displayed form."""
    lam = nh.multipliers()
    lines = [
        f"{name}: n = {nh.n}, m = {nh.m}",
        f"  D integrable: {nh.distribution.is_integrable()}, growth vector {nh.distribution.growth_vector()}",
    ]
    for k, (canonical, shown) in enumerate(zip(lam, lam.shown(), strict=True)):
        lines.append(f"  lambda_{nh.m + 1 + k}: {op_count(canonical)} operations canonical, {op_count(shown)} shown")
    small = min(lam.shown(), key=op_count)
    lines.append(f"  shortest shown: {small}")
    return lines


def report() -> str:
    """Build the text report."""
    lines = describe("car with one trailer", car_with_trailers(1))
    nh = snakeboard()
    lines += ["", *describe("snakeboard", nh)]
    lines += ["  frame field X1 shown: " + ", ".join(str(harmonic_form(c)) for c in nh.frame.fields[0].components)]
    return "\n".join(lines)


def main(outdir: str | Path = ".") -> Path:
    """Print the report and write it to ``outdir/compound_angles.txt``."""
    text = report()
    print(text)
    out = Path(outdir) / "compound_angles.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text + "\n", encoding="utf-8")
    return out


if __name__ == "__main__":
    main(*sys.argv[1:2])
