"""SymPy's Whipple bicycle (``sympy/physics/mechanics/tests/test_kane3.py``) read into frames.

The bicycle of Meijaard et al. (2007) as SymPy builds it with ``KanesMethod`` — eight coordinates (the rear
contact point, yaw, roll, rear wheel angle, pitch, steer, front wheel angle), the pitch fixed by the
holonomic contact constraint and three nonholonomic speeds — is read with :func:`frames.from_mechanics`,
linearised by :func:`frames.linearize` about upright straight running at speed ``V`` (rear wheel rate
``u3 = V/r_R``), and its lean/steer eigenvalues at the benchmark's parameters (:func:`benchmark_parameters`) are
printed for V = 0…10 m/s with the weave and capsize speeds, the bounds of the self-stable range (Meijaard et al.
2007, Table 2: 4.292 and 6.024 m/s). The run is written to ``whipple_bicycle.txt`` and the eigenvalues against
the speed to ``whipple_bicycle_eigenvalues.png`` (with the ``plot`` extra). The benchmark
``benchmarks/bicycle.py`` times the import and the field against SymPy.

Run:  python examples/whipple_bicycle.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from sympy import Float, N, Rational, Symbol, acos, cos, pi, sin, sqrt, symbols
from sympy.physics.mechanics import KanesMethod, Point, ReferenceFrame, RigidBody, dot, dynamicsymbols, inertia

import frames as fr


def bicycle() -> KanesMethod:
    """The 8-coordinate Whipple bicycle as a ``KanesMethod`` with its equations formed."""
    q1, q2, q3, q4, q5, q6, qx, qy = dynamicsymbols("q1 q2 q3 q4 q5 q6 x y")
    u1, u2, u3, u4, u5, u6, ux, uy = dynamicsymbols("u1 u2 u3 u4 u5 u6 ux uy")
    WFrad, WRrad, htangle, forkoffset = symbols("WFrad WRrad htangle forkoffset")
    forklength, framelength, forkcg1 = symbols("forklength framelength forkcg1")
    forkcg3, framecg1, framecg3, Iwr11 = symbols("forkcg3 framecg1 framecg3 Iwr11")
    Iwr22, Iwf11, Iwf22, Iframe11 = symbols("Iwr22 Iwf11 Iwf22 Iframe11")
    Iframe22, Iframe33, Iframe31, Ifork11 = symbols("Iframe22 Iframe33 Iframe31 Ifork11")
    Ifork22, Ifork33, Ifork31, g = symbols("Ifork22 Ifork33 Ifork31 g")
    mframe, mfork, mwf, mwr = symbols("mframe mfork mwf mwr")
    N = ReferenceFrame("N")
    Y = N.orientnew("Y", "Axis", [q1, N.z])
    R = Y.orientnew("R", "Axis", [q2, Y.x])
    Frame = R.orientnew("Frame", "Axis", [q4 + htangle, R.y])
    WR = Frame.orientnew("WR", "Axis", [q3, Frame.y])
    TempFrame = Frame.orientnew("TempFrame", "Axis", [-htangle, Frame.y])
    Fork = Frame.orientnew("Fork", "Axis", [q5, Frame.x])
    TempFork = Fork.orientnew("TempFork", "Axis", [-htangle, Fork.y])
    WF = Fork.orientnew("WF", "Axis", [q6, Fork.y])
    O = Point("O")
    O.set_vel(N, 0)
    WR_cont = O.locatenew("WR_cont", qx * N.x + qy * N.y)
    WR_mc = WR_cont.locatenew("WR_mc", WRrad * R.z)
    Steer = WR_mc.locatenew("Steer", framelength * Frame.z)
    Frame_mc = WR_mc.locatenew("Frame_mc", -framecg1 * Frame.x + framecg3 * Frame.z)
    Fork_mc = Steer.locatenew("Fork_mc", -forkcg1 * Fork.x + forkcg3 * Fork.z)
    WF_mc = Steer.locatenew("WF_mc", forklength * Fork.x + forkoffset * Fork.z)
    WF_cont = WF_mc.locatenew("WF_cont", WFrad * (dot(Fork.y, Y.z) * Fork.y - Y.z).normalize())
    Y.set_ang_vel(N, u1 * Y.z)
    R.set_ang_vel(Y, u2 * R.x)
    WR.set_ang_vel(Frame, u3 * Frame.y)
    Frame.set_ang_vel(R, u4 * Frame.y)
    Fork.set_ang_vel(Frame, u5 * Fork.x)
    WF.set_ang_vel(Fork, u6 * Fork.y)
    WR_cont.set_vel(N, ux * N.x + uy * N.y)
    WR_mc.v2pt_theory(WR_cont, N, R)
    Steer.v2pt_theory(WR_mc, N, Frame)
    Frame_mc.v2pt_theory(WR_mc, N, Frame)
    Fork_mc.v2pt_theory(Steer, N, Fork)
    WF_mc.v2pt_theory(Steer, N, Fork)
    # the contact points of the wheels (material points): their velocities vanish
    WR_pt = WR_mc.locatenew("WR_pt", -WRrad * R.z)
    WR_pt.v2pt_theory(WR_mc, N, WR)
    WF_pt = WF_mc.locatenew("WF_pt", WF_cont.pos_from(WF_mc))
    WF_pt.v2pt_theory(WF_mc, N, WF)
    Frame_I = (inertia(TempFrame, Iframe11, Iframe22, Iframe33, 0, 0, Iframe31), Frame_mc)
    Fork_I = (inertia(TempFork, Ifork11, Ifork22, Ifork33, 0, 0, Ifork31), Fork_mc)
    WR_I = (inertia(Frame, Iwr11, Iwr22, Iwr11), WR_mc)
    WF_I = (inertia(Fork, Iwf11, Iwf22, Iwf11), WF_mc)
    BL = [
        RigidBody("BodyFrame", Frame_mc, Frame, mframe, Frame_I),
        RigidBody("BodyFork", Fork_mc, Fork, mfork, Fork_I),
        RigidBody("BodyWR", WR_mc, WR, mwr, WR_I),
        RigidBody("BodyWF", WF_mc, WF, mwf, WF_I),
    ]
    FL = [(Frame_mc, -mframe * g * Y.z), (Fork_mc, -mfork * g * Y.z), (WF_mc, -mwf * g * Y.z), (WR_mc, -mwr * g * Y.z)]
    qs = [q1, q2, q3, q4, q5, q6, qx, qy]
    us = [u1, u2, u3, u4, u5, u6, ux, uy]
    kd = [q.diff() - u for q, u in zip(qs, us)]
    vc = [WR_pt.vel(N) & Y.x, WR_pt.vel(N) & Y.y, WF_pt.vel(N) & Y.x, WF_pt.vel(N) & Y.y, WF_pt.vel(N) & Y.z]
    hc = [WF_cont.pos_from(WR_cont) & Y.z]
    KM = KanesMethod(
        N,
        q_ind=[q1, q2, q3, q5, q6, qx, qy],
        q_dependent=[q4],
        configuration_constraints=hc,
        u_ind=[u2, u3, u5],
        u_dependent=[u1, u4, u6, ux, uy],
        velocity_constraints=vc,
        kd_eqs=kd,
        constraint_solver="CRAMER",
    )
    KM.kanes_equations(BL, FL)
    return KM


def benchmark_parameters(digits: int | None = 30, trail: object = None) -> dict[str, Float]:
    """The benchmark bicycle of Meijaard et al. (2007, Table 1) in the parameters of SymPy's model, to ``digits``.

    The conversion is the one of SymPy's ``test_kane3.py`` (wheelbase, trail, head angle and centres of mass
    into the frame and fork lengths and offsets), evaluated here exactly and then to ``digits`` digits, not in
    double precision; ``digits=None`` gives the exact values (square roots, ``pi/10`` and its cosines), and
    ``trail`` replaces the trail ``c = 0.08`` (a symbol gives the parameters as expressions in it).
    """
    rR, rF, w, c = Rational(3, 10), Rational(35, 100), Rational(102, 100), Rational(8, 100)
    c = c if trail is None else trail
    hta = pi / 2 - pi / 10  # the head angle from the horizontal (λ = π/10 from the vertical)
    xB, zB, xH, zH = Rational(3, 10), Rational(9, 10), Rational(9, 10), Rational(7, 10)  # heights, upwards
    rake = -(c * sin(hta) - rF * cos(hta))
    ta, tb = zH - rF, w - xH
    tc = sqrt(ta**2 + tb**2)
    fork_length = w * cos(hta) - (rF - rR) * sin(hta)
    exact = {
        "WFrad": rF,
        "WRrad": rR,
        "htangle": hta,
        "forkoffset": rake,
        "forklength": fork_length,
        "framelength": w * sin(hta) - (rake - (rF - rR) * cos(hta)),
        "forkcg1": tc * cos((pi / 2 - hta) - acos(ta / tc)) - fork_length,
        "forkcg3": rake + tc * sin(pi / 2 - hta - acos(ta / tc)),
        "framecg1": (zB - rR - (xB / sin(hta)) * cos(hta)) * sin(hta),
        "framecg3": xB / sin(hta) + (zB - rR - xB / sin(hta) * cos(hta)) * cos(hta),
        "Iwr11": Rational(603, 10000),
        "Iwr22": Rational(12, 100),
        "Iwf11": Rational(1405, 10000),
        "Iwf22": Rational(28, 100),
        "Ifork11": Rational(5892, 100000),
        "Ifork22": Rational(6, 100),
        "Ifork33": Rational(708, 100000),
        "Ifork31": Rational(756, 100000),
        "Iframe11": Rational(92, 10),
        "Iframe22": Rational(11),
        "Iframe33": Rational(28, 10),
        "Iframe31": Rational(-24, 10),
        "mfork": Rational(4),
        "mframe": Rational(85),
        "mwf": Rational(3),
        "mwr": Rational(2),
        "g": Rational(981, 100),
    }
    if digits is None:
        return exact
    return {k: Float(N(v, digits + 10), digits) for k, v in exact.items()}


def upright(mdl: fr.Model, speed: object) -> dict[str, object]:
    """Upright straight running at forward speed ``speed``: every angle and the position 0, the roll and steer
    rates 0, the rear wheel rate ``u3 = speed / r_R`` (SymPy's sign)."""
    at: dict[str, object] = {q.name: 0 for q in mdl.chart.q}
    return at | {"u2": 0, "u3": speed / mdl.params["WRrad"], "u5": 0}


def main(out: Path | str = ".") -> Path:
    """Build the bicycle with SymPy, read it into frames, linearise it; write the eigenvalues and the speeds."""
    out = Path(out)
    t = time.monotonic()
    KM = bicycle()
    lines = [f"KanesMethod + kanes_equations: {time.monotonic() - t:.1f} s"]
    t = time.monotonic()
    mdl = fr.from_mechanics(KM, name="whipple-bicycle")
    lines.append(f"frames.from_mechanics: {time.monotonic() - t:.1f} s; n = {mdl.n}, m = {mdl.m}")
    t1 = time.monotonic()
    V = Symbol("V")
    lin = fr.linearize(mdl.nonholonomic(), upright(mdl, V))
    lines.append(f"frames.linearize: {time.monotonic() - t1:.1f} s; states {lin.states}, removed {lin.removed}")
    par = benchmark_parameters()
    speeds = np.arange(11.0)
    eig = lin.sweep(V, speeds, par)
    lines.append(f"from_mechanics to eigenvalues: {time.monotonic() - t:.1f} s")
    lines.append("V [m/s]  eigenvalues of the lean/steer dynamics [1/s] (the forward speed's 0 left out)")
    for v, row in zip(speeds, eig, strict=True):
        row = row[np.argsort(np.abs(row))][1:]
        lines.append(f"{v:5.1f}   " + "  ".join(f"{z.real:+.14f}{z.imag:+.14f}j" for z in np.sort_complex(row)))
    weave, capsize = lin.critical_values(V, np.linspace(0, 10, 21), par)
    lines.append(f"weave speed {weave:.14f} m/s, capsize speed {capsize:.14f} m/s (self-stable between)")
    certified = lin.certified_critical_values(V, (0, 10), benchmark_parameters(None), digits=50)
    lines += [f"certified ({c.kind} crossing, {c.before} -> {c.after}): {c.evalf(50)} m/s" for c in certified]
    try:
        fr.plot_eigenvalues(
            lin, V, np.linspace(0, 10, 201), out / "whipple_bicycle_eigenvalues.png", subs=par,
            critical=[weave, capsize],  # found above: not searched again over the 201 samples
            title="Whipple bicycle (Meijaard et al. 2007): eigenvalues against the forward speed V [m/s]",
        )  # fmt: skip
    except fr.errors.OptionalDependencyError:
        lines.append("(no plot: install the plot extra)")
    path = out / "whipple_bicycle.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return path


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
