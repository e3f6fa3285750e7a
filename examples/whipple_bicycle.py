"""SymPy's Whipple bicycle (``sympy/physics/mechanics/tests/test_kane3.py``) read into frames.

The bicycle of Meijaard et al. (2007) as SymPy builds it with ``KanesMethod`` — eight coordinates (the rear
contact point, yaw, roll, rear wheel angle, pitch, steer, front wheel angle), the pitch fixed by the
holonomic contact constraint and three nonholonomic speeds — is read with :func:`frames.from_mechanics`;
its nonholonomic field is derived on the fast path (``canonical=False``) and the run is written to
``whipple_bicycle.txt``. The benchmark ``benchmarks/bicycle.py`` times the same steps against SymPy.

Run:  python examples/whipple_bicycle.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from sympy import symbols
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


def main(out: Path | str = ".") -> Path:
    """Build the bicycle with SymPy, read it into frames, derive its field; write the summary."""
    t = time.monotonic()
    KM = bicycle()
    lines = [f"KanesMethod + kanes_equations: {time.monotonic() - t:.1f} s"]
    t = time.monotonic()
    mdl = fr.from_mechanics(KM, name="whipple-bicycle")
    lines.append(f"frames.from_mechanics: {time.monotonic() - t:.1f} s; n = {mdl.n}, m = {mdl.m}")
    t = time.monotonic()
    G = mdl.nonholonomic().field(canonical=False)
    lines.append(f"nonholonomic field (fast path): {time.monotonic() - t:.1f} s; {len(G.Gamma)} coefficients")
    path = Path(out) / "whipple_bicycle.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return path


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
