"""A differential-drive robot towing a trailer hitched at its axle, with loads: in frames and as SymPy's KanesMethod.

The robot's axle centre is ``P = (x, y)``, its heading θ; the trailer's axle is ``Q = P − d T.x`` with the trailer's
heading ``θ + φ`` (φ the hitch angle). Neither axle slips sideways. The robot (mass ``m``, moment ``J``) has its mass
centre at ``P``, the trailer (mass ``m_t``, moment ``J_t``) at ``Q``. Loads: a drive force ``F B.x`` on ``P``, a yaw
torque ``τ N.z`` on the robot, a viscous drag ``−c v_P`` on ``P`` and ``−c_t v_Q`` on ``Q``. ``F`` and ``τ`` are the
inputs; straight motion at speed ``V`` needs ``F = c V + c_t V``.
"""

from __future__ import annotations

import numpy as np
import sympy as sp
from sympy.physics.mechanics import KanesMethod, Point, ReferenceFrame, RigidBody, dot, dynamicsymbols, inertia

import frames as fr

T = dynamicsymbols._t
NAMES = ("m", "J", "m_t", "J_t", "d", "c", "c_t", "F", "tau", "V")


def robot_trailer_frames(loads: bool = True, velocity_form: bool = True) -> fr.NonholonomicSystem:
    """frames: the Lagrangian, the two no-slip rows, the default frame, the loads as PointForce/BodyTorque."""
    ch = fr.Chart("x y theta phi", params=" ".join(NAMES))
    x, y, th, ph = ch.q
    ux, uy, w, wp = ch.u
    m, J, mt, Jt, d, c, ct, F, tau, _V = ch.params
    ps = th + ph
    vQ = (ux + d * sp.sin(ps) * (w + wp), uy - d * sp.cos(ps) * (w + wp))
    L = m / 2 * (ux**2 + uy**2) + J / 2 * w**2 + mt / 2 * (vQ[0] ** 2 + vQ[1] ** 2) + Jt / 2 * (w + wp) ** 2
    rows = [-sp.sin(th) * ux + sp.cos(th) * uy, -sp.sin(ps) * ux + sp.cos(ps) * uy - d * (w + wp)]
    drag_Q = (
        fr.PointForce([-ct * vQ[0], -ct * vQ[1], 0], velocity=[vQ[0], vQ[1], 0])
        if velocity_form
        else fr.PointForce([-ct * vQ[0], -ct * vQ[1], 0], position=[x - d * sp.cos(ps), y - d * sp.sin(ps), 0])
    )
    forces = [
        fr.PointForce([F * sp.cos(th), F * sp.sin(th), 0], position=[x, y, 0]),
        fr.BodyTorque([0, 0, w], [0, 0, tau]),
        fr.PointForce([-c * ux, -c * uy, 0], position=[x, y, 0]),
        drag_Q,
    ]
    return fr.NonholonomicSystem.from_constraints(
        fr.Lagrangian(ch, sp.expand(L)), fr.LinearConstraints(ch, rows), forces=forces if loads else None
    )


def robot_trailer_kane() -> KanesMethod:
    """SymPy: the robot and the trailer as rigid bodies, the loads in the forcelist, the equations formed."""
    m, J, mt, Jt, d, c, ct, F, tau, _V = sp.symbols(NAMES)
    x, y, th, ph = dynamicsymbols("x y theta phi")
    u1, u2, u3, u4 = dynamicsymbols("u1:5")
    N = ReferenceFrame("N")
    B = N.orientnew("B", "Axis", [th, N.z])
    Tr = B.orientnew("T", "Axis", [ph, B.z])
    B.set_ang_vel(N, u2 * N.z)
    Tr.set_ang_vel(N, (u2 + u4) * N.z)
    O = Point("O")
    O.set_vel(N, 0)
    P = O.locatenew("P", x * N.x + y * N.y)
    P.set_vel(N, u1 * B.x + u3 * B.y)
    Q = P.locatenew("Q", -d * Tr.x)
    Q.v2pt_theory(P, N, Tr)
    robot = RigidBody("robot", P, B, m, (inertia(B, 0, 0, J), P))
    trailer = RigidBody("trailer", Q, Tr, mt, (inertia(Tr, 0, 0, Jt), Q))
    xd, yd = x.diff(T), y.diff(T)
    kd = [
        u1 - (sp.cos(th) * xd + sp.sin(th) * yd),
        u2 - th.diff(T),
        u3 - (-sp.sin(th) * xd + sp.cos(th) * yd),
        u4 - ph.diff(T),
    ]
    loads = [(P, F * B.x), (B, tau * N.z), (P, -c * P.vel(N)), (Q, -ct * Q.vel(N))]
    KM = KanesMethod(
        N, [x, y, th, ph], [u1, u2], kd_eqs=kd, u_dependent=[u3, u4], velocity_constraints=[u3, dot(Q.vel(N), Tr.y)],
        bodies=[robot, trailer], forcelist=loads,
    )  # fmt: skip
    KM.kanes_equations()
    return KM


def kane_qddot(KM: KanesMethod, values: dict[str, float], fwd: float, w: float) -> list[float]:
    """Kane's ``q̈`` at a state on C (``values``: q and the parameters by name; forward speed, yaw rate), from its
    full mass matrix and forcing (the dependent speeds' rates included) solved at the state, to 30 digits."""
    qs, us = list(KM.q), list(KM.u)
    # on C: u3 = 0, and the trailer's no-slip condition −sin φ u1 − d (u2 + u4) = 0
    u4 = -fwd * sp.sin(values["phi"]) / values["d"] - w
    uval = {us[0]: sp.Float(fwd, 30), us[1]: sp.Float(w, 30), us[2]: sp.S.Zero, us[3]: sp.Float(u4, 30)}
    plain = {q: sp.Float(values[q.func.__name__], 30) for q in qs} | {
        sp.Symbol(k): sp.Float(v, 30) for k, v in values.items()
    }

    def at(e: sp.Expr) -> sp.Expr:
        return sp.sympify(e).xreplace(uval).xreplace(plain).evalf(30)

    rates = KM.mass_matrix_full.applyfunc(at).LUsolve(KM.forcing_full.applyfunc(at))  # (q̇, u̇)
    kd = KM.kindiffdict()
    xs = [*qs, *us]
    out = []
    for q in qs:
        qd = kd[q.diff(T)]
        out.append(float(sum(at(qd.diff(s)) * rates[k] for k, s in enumerate(xs))))
    return out


def frames_and_kane(
    acc: sp.MatrixBase, chart: fr.Chart, KM: KanesMethod, vals: dict[str, float], fwd: float, w: float
) -> tuple[np.ndarray, np.ndarray]:
    """frames' accelerations ``acc`` and Kane's ``q̈`` at the state on C with forward speed ``fwd`` and yaw rate ``w``
    (``vals``: the coordinates and the parameters), evaluated with 30 digits."""
    th, ph = vals["theta"], vals["phi"]
    u = {"u_x": fwd * np.cos(th), "u_y": fwd * np.sin(th), "u_theta": w, "u_phi": -fwd * np.sin(ph) / vals["d"] - w}
    sub = {s: sp.Float((vals | u)[s.name], 30) for s in (*chart.q, *chart.u, *chart.params)}
    mine = np.array([float(sp.sympify(a).xreplace(sub).evalf(30)) for a in acc])
    return mine, np.array(kane_qddot(KM, vals, fwd, w))
