"""SymPy mechanics systems built once for the tests that compare frames with them (the interop, the damped
systems, the disc's critical spin).

- :func:`rolling_disc`: SymPy's rolling disc (``sympy/physics/mechanics/tests/test_kane.py``) with the contact
  point's coordinates: yaw ``q1``, lean ``q2``, spin ``q3``, contact point ``(q4, q5)``; speeds ``u1, u2, u3`` (the
  angular velocity in the lean frame) and the dependent ``u4, u5`` (the contact point's velocity), bound by
  rolling without slipping.
- :func:`chaplygin_sleigh`: the sleigh as a ``KanesMethod``: contact point ``P = (x, y)``, heading θ, mass centre
  ``G = P + a B.x``; speeds ``u1 = v_P·B.x``, ``u2 = θ̇`` and the dependent ``u3 = v_P·B.y = 0``.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

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

T = dynamicsymbols._t


def rolling_disc(
    m: Any, r: Any, g: Any, A: Any = None, C: Any = None, loads: Callable[[SimpleNamespace], list] | None = None
) -> SimpleNamespace:
    """The disc of mass ``m``, radius ``r`` (moments ``A`` about a diameter and ``C`` about the axle; default the
    uniform disc's ``m r²/4``, ``m r²/2``) as a ``KanesMethod``, its equations not formed. ``loads(ns)`` gives the
    forcelist from the namespace (default gravity ``−m g N.z`` on the centre ``D``). Returns the namespace: the
    method ``KM``, the frames ``N, Y, L, R``, the points ``O, P`` (contact), ``D`` (centre), the body, ``q``,
    ``u``."""
    q1, q2, q3, q4, q5, u1, u2, u3, u4, u5 = dynamicsymbols("q1:6 u1:6")
    A = m * r**2 / 4 if A is None else A
    C = m * r**2 / 2 if C is None else C
    N = ReferenceFrame("N")
    Y = N.orientnew("Y", "Axis", [q1, N.z])
    L = Y.orientnew("L", "Axis", [q2, Y.x])
    R = L.orientnew("R", "Axis", [q3, L.y])
    w = R.ang_vel_in(N)
    R.set_ang_vel(N, u1 * L.x + u2 * L.y + u3 * L.z)
    O = Point("O")
    O.set_vel(N, 0)
    P = O.locatenew("P", q4 * N.x + q5 * N.y)
    P.set_vel(N, u4 * N.x + u5 * N.y)
    D = P.locatenew("D", r * L.z)
    D.set_vel(N, cross(R.ang_vel_in(N), D.pos_from(P)))  # the centre turns about the contact
    contact = P.vel(N) + cross(R.ang_vel_in(L), P.pos_from(D))  # the contact follows the rolling
    body = RigidBody("disc", D, R, m, (inertia(L, A, C, A), D))
    ns = SimpleNamespace(
        N=N, Y=Y, L=L, R=R, O=O, P=P, D=D, body=body, q=[q1, q2, q3, q4, q5], u=[u1, u2, u3, u4, u5], m=m, g=g
    )
    ns.KM = KanesMethod(
        N,
        q_ind=[q1, q2, q3, q4, q5],
        u_ind=[u1, u2, u3],
        kd_eqs=[*(dot(R.ang_vel_in(N) - w, e) for e in L), q4.diff(T) - u4, q5.diff(T) - u5],
        u_dependent=[u4, u5],
        velocity_constraints=[dot(contact, N.x), dot(contact, N.y)],
        bodies=[body],
        forcelist=loads(ns) if loads is not None else [(D, -m * g * N.z)],
    )
    return ns


def chaplygin_sleigh(m: Any, I: Any, a: Any, loads: Callable[[SimpleNamespace], list]) -> SimpleNamespace:
    """The sleigh of mass ``m``, moment ``I`` about ``G``, ``a`` from the contact point to ``G``, as a
    ``KanesMethod`` with the forcelist ``loads(ns)``, its equations not formed. Returns the namespace: ``KM``, the
    frames ``N, B``, the points ``O, P, G``, the body, ``q = [x, y, θ]``, ``u = [u1, u2, u3]``."""
    x, y, th = dynamicsymbols("x y theta")
    u1, u2, u3 = dynamicsymbols("u1:4")
    N = ReferenceFrame("N")
    B = N.orientnew("B", "Axis", [th, N.z])
    B.set_ang_vel(N, u2 * N.z)
    O = Point("O")
    O.set_vel(N, 0)
    P = O.locatenew("P", x * N.x + y * N.y)
    P.set_vel(N, u1 * B.x + u3 * B.y)
    G = P.locatenew("G", a * B.x)
    G.v2pt_theory(P, N, B)
    body = RigidBody("sleigh", G, B, m, (inertia(B, 0, 0, I), G))
    xd, yd = x.diff(T), y.diff(T)
    kd = [u1 - (sp.cos(th) * xd + sp.sin(th) * yd), u2 - th.diff(T), u3 + sp.sin(th) * xd - sp.cos(th) * yd]
    ns = SimpleNamespace(N=N, B=B, O=O, P=P, G=G, body=body, q=[x, y, th], u=[u1, u2, u3])
    ns.KM = KanesMethod(
        N, [x, y, th], [u1, u2], kd_eqs=kd, u_dependent=[u3], velocity_constraints=[u3], bodies=[body],
        forcelist=loads(ns),
    )  # fmt: skip
    return ns
