"""Worked example: the rolling disc, from sympy.physics.mechanics to frames and back.

The disc of SymPy's ``test_kane.py::test_rolling_disc`` (yaw, lean, spin; angular-velocity speeds in the
lean frame), with the contact point's coordinates and the rolling constraints as dependent speeds.
``frames.from_mechanics`` reads the ``KanesMethod``; frames' nonholonomic field in Kane's frame is
compared with SymPy's own equations, and ``Model.to_mechanics`` rebuilds a ``KanesMethod`` and a
``LagrangesMethod`` whose equations are compared in turn. Run
``python examples/rolling_disc_interop.py [OUTDIR]``; a text report is printed and written to
``OUTDIR/rolling_disc_interop.txt``, the equations to ``OUTDIR/rolling_disc_equations.tex``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import sympy as sp
from sympy.physics.mechanics import (
    KanesMethod,
    Point,
    ReferenceFrame,
    RigidBody,
    cross,
    dot,
    dynamicsymbols,
    inertia,
)

import frames as fr


def rolling_disc() -> KanesMethod:
    """SymPy's rolling disc with the contact point's coordinates ``q4, q5`` and dependent speeds ``u4, u5``."""
    t = dynamicsymbols._t
    q1, q2, q3, q4, q5, u1, u2, u3, u4, u5 = dynamicsymbols("q1:6 u1:6")
    r, m, g = sp.symbols("r m g")
    N = ReferenceFrame("N")
    Y = N.orientnew("Y", "Axis", [q1, N.z])
    L = Y.orientnew("L", "Axis", [q2, Y.x])
    R = L.orientnew("R", "Axis", [q3, L.y])
    w_R_N_qd = R.ang_vel_in(N)
    R.set_ang_vel(N, u1 * L.x + u2 * L.y + u3 * L.z)
    O = Point("O")
    O.set_vel(N, 0)
    C = O.locatenew("C", q4 * N.x + q5 * N.y)  # the contact point
    C.set_vel(N, u4 * N.x + u5 * N.y)
    Dmc = C.locatenew("Dmc", r * L.z)  # the centre turns about the contact
    Dmc.set_vel(N, cross(R.ang_vel_in(N), Dmc.pos_from(C)))
    v0 = C.vel(N) + cross(R.ang_vel_in(L), C.pos_from(Dmc))  # rolling: v0 = 0
    disc = RigidBody("disc", Dmc, R, m, (inertia(L, m * r**2 / 4, m * r**2 / 2, m * r**2 / 4), Dmc))
    return KanesMethod(
        N,
        q_ind=[q1, q2, q3, q4, q5],
        u_ind=[u1, u2, u3],
        kd_eqs=[dot(R.ang_vel_in(N) - w_R_N_qd, e) for e in L] + [q4.diff(t) - u4, q5.diff(t) - u5],
        u_dependent=[u4, u5],
        velocity_constraints=[dot(v0, N.x), dot(v0, N.y)],
        bodies=[disc],
        forcelist=[(Dmc, -m * g * Y.z)],
    )


def report() -> tuple[str, str]:
    """The text report and the LaTeX equations."""
    km = rolling_disc()
    imp = fr.app.mechanics_import(km)
    mdl = imp.model("rolling-disc")
    G = mdl.nonholonomic().field().Gamma
    lines = ["SymPy -> frames", f"  {mdl!r}", f"  chart: {mdl.chart!r}", f"  quasi-velocities: {mdl.frame.v}"]
    lines += [f"  constraint: {c} = 0" for c in mdl.constraints.functions]
    lines += ["", "Name map (mechanics -> frames):"]
    lines += [f"  {k} -> {v}" for k, v in imp.names.items()]
    lines += ["", "Nonholonomic field (Proposition 2) in Kane's frame:"]
    lines += [f"  d{v}/dt = {fr.tidy(x)}" for v, x in zip(mdl.frame.v[: mdl.m], G[: mdl.m], strict=True)]
    rates = imp.method_rates()
    same = all(fr.is_zero(a - b) for a, b in zip(rates, G, strict=False))
    lines += ["", f"KanesMethod's own u-dot (mass matrix and forcing, solved exactly) equal Gamma: {same}"]
    km2 = mdl.to_mechanics("kane")
    km2.kanes_equations()
    same_k = all(fr.is_zero(a - b) for a, b in zip(fr.app.mechanics_rates(km2, mdl), G, strict=False))
    acc = mdl.nonholonomic().accelerations()
    on_c = mdl.frame.on_constraint(mdl.m)
    lm = mdl.to_mechanics("lagrange")
    same_l = all(
        fr.is_zero(mdl.frame.to_quasi(a - b).xreplace(on_c))
        for a, b in zip(fr.app.mechanics_rates(lm, mdl), acc, strict=True)
    )
    lines += [
        "",
        "frames -> SymPy",
        f"  Model.to_mechanics('kane'): speeds {list(km2.u)}; u-dot equal Gamma: {same_k}",
        f"  Model.to_mechanics('lagrange'): q-ddot equal the accelerations on C: {same_l}",
    ]
    return "\n".join(lines), fr.latex_equations(mdl.nonholonomic())


def main(outdir: str | Path | None = None) -> str:
    """Print the report; write it and the LaTeX equations to ``outdir``."""
    text, tex = report()
    print(text)
    if outdir is not None:
        out = Path(outdir)
        out.mkdir(parents=True, exist_ok=True)
        (out / "rolling_disc_interop.txt").write_text(text + "\n", encoding="utf-8")
        (out / "rolling_disc_equations.tex").write_text(tex + "\n", encoding="utf-8")
    return text


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
