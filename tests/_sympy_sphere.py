"""The rotor-driven sphere as a SymPy ``KanesMethod``, built once for the tests and benchmarks that use it.

A rigid ball of radius ``r`` and mass ``m`` (centre of mass at its centre, principal moments ``I1, I2, I3`` along the
body axes ``B.x, B.y, B.z``) rolls without slipping on the plane ``z = 0``. Three rotors (wheels) of mass ``mw``,
axial moment ``J`` and transverse moment ``K``, centred at the ball's centre, spin about the body axes. The rotor
torques ``T1, T2, T3`` (functions of time: inputs) act between the ball and each rotor, or are absent.

Coordinates: the centre ``(x, y)``, the body orientation by the body-fixed angles ``q1, q2, q3`` (XYZ), and the rotor
angles ``a1, a2, a3`` relative to the ball (8 in all). Speeds: ``w1, w2, w3`` (the ball's angular velocity in the
body frame), ``s1, s2, s3`` (the rotor rates), and the dependent ``vx, vy`` (the centre's velocity), bound by rolling
without slipping: ``v_centre = ω × r N.z``.
"""

from __future__ import annotations

from types import SimpleNamespace

import sympy as sp
from sympy.physics.mechanics import KanesMethod, Point, ReferenceFrame, RigidBody, cross, dot, dynamicsymbols, inertia

T = dynamicsymbols._t


def rotor_sphere(torques: bool = True) -> SimpleNamespace:
    """The rotor-driven sphere as a ``KanesMethod``, its equations not formed.

    ``torques``: the rotor torques ``T1, T2, T3`` (dynamicsymbols, inputs) as loads; False: no loads. Returns the
    namespace: ``KM``, the frames ``N, B, R1, R2, R3``, the centre ``C``, the bodies, ``q``, ``u``, the torques
    ``T`` (empty without them) and the parameters ``params``.
    """
    x, y, q1, q2, q3, a1, a2, a3 = dynamicsymbols("x y q1 q2 q3 a1 a2 a3")
    w1, w2, w3, s1, s2, s3, vx, vy = dynamicsymbols("w1 w2 w3 s1 s2 s3 vx vy")
    m, mw, r, I1, I2, I3, J, K, g = sp.symbols("m m_w r I1 I2 I3 J K g", positive=True)
    N = ReferenceFrame("N")
    B = N.orientnew("B", "Body", [q1, q2, q3], "XYZ")
    w_def = B.ang_vel_in(N)
    B.set_ang_vel(N, w1 * B.x + w2 * B.y + w3 * B.z)
    axes = (B.x, B.y, B.z)
    rotors = [B.orientnew(f"R{i + 1}", "Axis", [a, e]) for i, (a, e) in enumerate(zip((a1, a2, a3), axes, strict=True))]
    for R, s, e in zip(rotors, (s1, s2, s3), axes, strict=True):
        R.set_ang_vel(B, s * e)
    O = Point("O")
    O.set_vel(N, 0)
    C = O.locatenew("C", x * N.x + y * N.y + r * N.z)
    C.set_vel(N, vx * N.x + vy * N.y)
    # rolling without slipping: the contact point C − r N.z is at rest
    rolling = C.vel(N) + cross(B.ang_vel_in(N), -r * N.z)
    ball = RigidBody("ball", C, B, m, (inertia(B, I1, I2, I3), C))
    wheels = []
    for i, R in enumerate(rotors):
        moments = [K, K, K]
        moments[i] = J
        wheels.append(RigidBody(f"rotor{i + 1}", C, R, mw, (inertia(R, *moments), C)))
    Ts = list(dynamicsymbols("T1 T2 T3")) if torques else []
    loads: list = [(C, -(m + 3 * mw) * g * N.z)]
    for R, Ti, e in zip(rotors, Ts, axes, strict=True):
        loads += [(R, Ti * e), (B, -Ti * e)]
    kd = [dot(B.ang_vel_in(N) - w_def, e) for e in axes]
    kd += [s1 - a1.diff(T), s2 - a2.diff(T), s3 - a3.diff(T), vx - x.diff(T), vy - y.diff(T)]
    q = [x, y, q1, q2, q3, a1, a2, a3]
    KM = KanesMethod(
        N,
        q_ind=q,
        u_ind=[w1, w2, w3, s1, s2, s3],
        kd_eqs=kd,
        u_dependent=[vx, vy],
        velocity_constraints=[dot(rolling, N.x), dot(rolling, N.y)],
        bodies=[ball, *wheels],
        forcelist=loads,
    )
    return SimpleNamespace(
        KM=KM, N=N, B=B, R1=rotors[0], R2=rotors[1], R3=rotors[2], C=C, bodies=[ball, *wheels], q=q,
        u=[w1, w2, w3, s1, s2, s3, vx, vy], T=Ts, params=(m, mw, r, I1, I2, I3, J, K, g),
    )  # fmt: skip
