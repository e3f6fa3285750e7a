"""Worked example: Lagrangian dynamics relative to an anholonomic frame.

Crampin & Mestdag (2010), sections 2.2-2.3 and 4, on the nonholonomic particle
``L = (u1² + u2² + u3²)/2`` with the frame ``X1 = ∂1, X2 = ∂2 − q1 ∂3, X3 = ∂3``.
Run ``python examples/lagrangian_frame.py [OUTDIR]``; a text report is printed and
written to ``OUTDIR/lagrangian_frame.txt``. The docs page "Lagrangian dynamics in a
frame" includes this file, and ``tests/test_examples.py`` runs it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import sympy as sp

import frames as fr


def report() -> str:
    """Build the text report."""
    ch = fr.Chart("q1 q2 q3")
    q1 = ch.q[0]
    F = fr.Frame([fr.VectorField(ch, [1, 0, 0]), fr.VectorField(ch, [0, 1, -q1]), fr.VectorField(ch, [0, 0, 1])])
    L = fr.Lagrangian(ch, sum(ui**2 for ui in ch.u) / 2)

    lines = [f"L in the frame:   {L.in_frame(F)}"]
    lines.append(f"Hessian g_ij = X_i^V X_j^V L: {L.hessian(F).tolist()}")
    lines.append(f"Energy E = v^i X_i^V(L) - L: {L.energy(F)}")

    # Proposition 1 in the frame and in the coordinate frame: the same field
    G = L.euler_lagrange_field(F)
    assert G.equals(L.euler_lagrange_field())
    lines += ["", "Proposition 1:", f"  {G!r}", f"  accelerations: {list(G.accelerations())}"]

    # epsilon(Z) = Γ(Z^V L) − Z^C L vanishes for every Z, and is C∞(Q)-linear
    Z = fr.VectorField(ch, [q1, 1, 0])
    assert sp.simplify(L.epsilon(q1 * Z, G)) == 0

    # Hamel's equations, with LaTeX
    hamel = L.hamel_equations(F)
    lines += ["", "Hamel's equations:"] + [f"  {eq}" for eq in hamel]
    lines += ["  LaTeX: " + hamel.latex()]

    # Cartan forms: ω, and the solution of Γ ⌟ ω = −dE
    cs = fr.CartanSystem(F, L)
    lines += ["", f"Cartan 1-form: {cs.cartan_one_form()!r}", f"Cartan 2-form: {cs.cartan_two_form()!r}"]
    sol = cs.solution()
    assert sol.as_second_order_field().equals(G)
    lines += [f"Cartan solution: {sol!r}"]

    # the vakonomic Lagrangian L̂ = L − μ3 v3 is singular: solutions exist only on v3 = 0
    vk = fr.CartanSystem.vakonomic(L, F, m=2)
    vsol = vk.solution()
    lines += ["", "Vakonomic L^ = L - mu3 v3:", f"  {vsol!r}", f"  locus: {vsol.locus}"]
    return "\n".join(lines)


def main(out_dir: str | Path = ".") -> Path:
    """Print the report and write it to ``out_dir/lagrangian_frame.txt``."""
    text = report()
    print(text)
    out = Path(out_dir) / "lagrangian_frame.txt"
    out.write_text(text + "\n", encoding="utf-8")
    return out


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
