"""The rattleback: a rigid body with a paraboloidal bottom rolling without slipping on a horizontal plane.

A ``KanesMethod`` built with ``sympy.physics.mechanics`` (nothing from frames), for ``benchmarks/swell.py`` and for
``fr.from_mechanics(rattleback())``. Five coordinates: yaw ``q1``, roll ``q2``, pitch ``q3`` (body-fixed z–x–y
rotations) and the horizontal position ``(x, y)`` of the mass centre ``G``. Near the contact the body's bottom is
the paraboloid ``z = −h + ξ²/(2 ρ1) + η²/(2 ρ2)`` in axes ``(ξ, η)`` turned by ``δ`` about the body's z axis
against its principal axes of inertia (the misalignment that makes the body rattle). The contact point is where
the paraboloid's normal is vertical: with ``ν`` the components of ``N.z`` in the paraboloid's axes,
``ξ = −ρ1 ν1/ν3``, ``η = −ρ2 ν2/ν3`` (rational in the angles, no square root), and ``G`` is at height
``−r_GP · N.z``. Rolling without slipping: the contact point of the body has zero horizontal velocity (the
vertical component vanishes identically), two velocity constraints, with ``ẋ``, ``ẏ`` the dependent speeds.
Gravity ``−m g N.z`` acts at ``G``.

Run ``python benchmarks/rattleback.py`` to print the sizes of SymPy's ``rhs()`` and of frames' import.
"""

from __future__ import annotations

import time

import sympy as sp
from sympy.physics.mechanics import KanesMethod, Point, ReferenceFrame, RigidBody, dynamicsymbols, inertia


def rattleback() -> KanesMethod:
    """The rattleback as a ``KanesMethod`` with its equations formed (``kanes_equations`` called)."""
    q1, q2, q3, x, y = dynamicsymbols("q1 q2 q3 x y")
    u1, u2, u3, ux, uy = dynamicsymbols("u1 u2 u3 ux uy")
    m, g, h, rho1, rho2, delta = sp.symbols("m g h rho1 rho2 delta", positive=True)
    A, B, C = sp.symbols("A B C", positive=True)  # principal moments of inertia about G
    N = ReferenceFrame("N")
    Bf = N.orientnew("B", "Body", [q1, q2, q3], "zxy")
    P_ax = Bf.orientnew("S", "Axis", [delta, Bf.z])  # the paraboloid's axes
    nu = [N.z.dot(e) for e in (P_ax.x, P_ax.y, P_ax.z)]
    xi, eta = -rho1 * nu[0] / nu[2], -rho2 * nu[1] / nu[2]
    r_GP = xi * P_ax.x + eta * P_ax.y + (-h + xi**2 / (2 * rho1) + eta**2 / (2 * rho2)) * P_ax.z
    O = Point("O")
    O.set_vel(N, 0)
    G = O.locatenew("G", x * N.x + y * N.y - r_GP.dot(N.z) * N.z)
    kd = [q1.diff() - u1, q2.diff() - u2, q3.diff() - u3, x.diff() - ux, y.diff() - uy]
    G.set_vel(N, G.pos_from(O).dt(N))
    w = Bf.ang_vel_in(N)
    v_contact = G.vel(N) + w.cross(r_GP)
    body = RigidBody("body", G, Bf, m, (inertia(Bf, A, B, C), G))
    KM = KanesMethod(
        N,
        q_ind=[q1, q2, q3, x, y],
        u_ind=[u1, u2, u3],
        u_dependent=[ux, uy],
        kd_eqs=kd,
        velocity_constraints=[v_contact.dot(N.x), v_contact.dot(N.y)],
    )
    KM.kanes_equations([body], [(G, -m * g * N.z)])
    return KM


def main() -> None:
    import os
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import frames as fr
    from frames.algebra import op_count

    print(f"frames from {fr.__file__}")

    t0 = time.perf_counter()
    KM = rattleback()
    t1 = time.perf_counter()
    rhs = KM.rhs()
    t2 = time.perf_counter()
    print(
        f"KanesMethod + kanes_equations: {t1 - t0:.2f} s; rhs(): {t2 - t1:.2f} s, {sum(op_count(e) for e in rhs)} operations"
    )
    mdl = fr.from_mechanics(KM, name="rattleback")
    print(f"from_mechanics: {time.perf_counter() - t2:.2f} s; n = {mdl.n}, m = {mdl.m}")


if __name__ == "__main__":
    main()
