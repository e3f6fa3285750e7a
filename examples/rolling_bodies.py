"""Worked example: rigid bodies rolling or turning under a nonholonomic constraint, built with SymPy mechanics.

Each body is written as a SymPy user writes it (``ReferenceFrame``, ``RigidBody``, ``KanesMethod``) and imported
with :func:`frames.from_mechanics`:

- **Chaplygin's ball**: a dynamically asymmetric ball (principal moments ``I1, I2, I3`` about its centre) rolling
  without slipping on a plane. It has an invariant measure (Chaplygin 1903).
- **Veselova's body**: a body about a fixed point, with a product of inertia ``I12``, whose angular velocity stays
  orthogonal to the vertical (Veselova 1986). It has an invariant measure.
- **A rattleback**: a paraboloidal bottom with its inertia axes turned against its curvature axes.
- **A disc on an inclined plane**: SymPy's rolling disc, with gravity along the incline.

The report gives, for each, the size of the nonholonomic field and the invariant-measure verdict with its density
(symbolic parameters throughout).

Run ``python examples/rolling_bodies.py [OUTDIR]``; the report is printed and written to
``OUTDIR/rolling_bodies.txt``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import sympy as sp
from sympy.physics.mechanics import KanesMethod, Point, ReferenceFrame, RigidBody, cross, dot, dynamicsymbols, inertia

import frames as fr
from frames.algebra import op_count

t = dynamicsymbols._t


def _body_rates(B: ReferenceFrame, N: ReferenceFrame, us: list) -> list:
    """Kinematic equations that make ``us`` the body components of ``B``'s angular velocity in ``N``."""
    w = B.ang_vel_in(N)
    B.set_ang_vel(N, us[0] * B.x + us[1] * B.y + us[2] * B.z)
    return [dot(B.ang_vel_in(N) - w, e) for e in (B.x, B.y, B.z)]


def _euler(N: ReferenceFrame, q1, q2, q3, third: str = "z") -> ReferenceFrame:
    A = N.orientnew("A", "Axis", [q1, N.z])
    Bm = A.orientnew("Bm", "Axis", [q2, A.x])
    return Bm.orientnew("B", "Axis", [q3, Bm.z if third == "z" else Bm.y])


def chaplygin_ball(values: dict[str, sp.Expr] | None = None) -> tuple[KanesMethod, list]:
    """A ball with principal moments I1, I2, I3 about its centre, rolling without slipping on the plane z = 0
    (``values``: numbers for some of the parameters ``m r g I1 I2 I3``, by name)."""
    q1, q2, q3, x, y = dynamicsymbols("q1 q2 q3 x y")
    u1, u2, u3, u4, u5 = dynamicsymbols("u1:6")
    m, r, g, I1, I2, I3 = ((values or {}).get(s.name, s) for s in sp.symbols("m r g I1 I2 I3"))
    N = ReferenceFrame("N")
    B = _euler(N, q1, q2, q3)
    kd = [*_body_rates(B, N, [u1, u2, u3]), x.diff(t) - u4, y.diff(t) - u5]
    O = Point("O")
    O.set_vel(N, 0)
    G = O.locatenew("G", x * N.x + y * N.y + r * N.z)
    G.set_vel(N, u4 * N.x + u5 * N.y)
    contact = G.vel(N) + cross(B.ang_vel_in(N), -r * N.z)
    ball = RigidBody("ball", G, B, m, (inertia(B, I1, I2, I3), G))
    KM = KanesMethod(
        N, q_ind=[q1, q2, q3, x, y], u_ind=[u1, u2, u3], u_dependent=[u4, u5], kd_eqs=kd,
        velocity_constraints=[dot(contact, N.x), dot(contact, N.y)], bodies=[ball], forcelist=[(G, -m * g * N.z)],
    )  # fmt: skip
    KM.kanes_equations()
    return KM, [dot(N.z, e) for e in (B.x, B.y, B.z)]


def veselova() -> tuple[KanesMethod, list]:
    """A body about a fixed point with a product of inertia I12, its angular velocity orthogonal to the vertical."""
    q1, q2, q3 = dynamicsymbols("q1 q2 q3")
    u1, u2, u3 = dynamicsymbols("u1:4")
    m, I1, I2, I3, I12 = sp.symbols("m I1 I2 I3 I12")
    N = ReferenceFrame("N")
    B = _euler(N, q1, q2, q3)
    kd = _body_rates(B, N, [u1, u2, u3])
    O = Point("O")
    O.set_vel(N, 0)
    body = RigidBody("body", O, B, m, (inertia(B, I1, I2, I3, I12, 0, 0), O))
    KM = KanesMethod(
        N, q_ind=[q1, q2, q3], u_ind=[u1, u2], u_dependent=[u3], kd_eqs=kd,
        velocity_constraints=[dot(B.ang_vel_in(N), N.z)], bodies=[body], forcelist=[],
    )  # fmt: skip
    KM.kanes_equations()
    return KM, [dot(N.z, e) for e in (B.x, B.y, B.z)]


def rattleback() -> KanesMethod:
    """A body with the paraboloidal bottom ζ = ξ²/2ρ1 + η²/2ρ2, its centre of mass at height h above the vertex and
    its inertia axes turned against the curvature axes (I12), rolling on the plane z = 0 under gravity."""
    q1, q2, q3, x, y = dynamicsymbols("q1 q2 q3 x y")
    u1, u2, u3, u4, u5 = dynamicsymbols("u1:6")
    m, g, h, rho1, rho2, I1, I2, I3, I12 = sp.symbols("m g h rho1 rho2 I1 I2 I3 I12")
    N = ReferenceFrame("N")
    B = _euler(N, q1, q2, q3, third="y")
    qs = [q1, q2, q3, x, y]
    kd = [*_body_rates(B, N, [u1, u2, u3]), x.diff(t) - u4, y.diff(t) - u5]
    g1, g2, g3 = (dot(N.z, e) for e in (B.x, B.y, B.z))
    s = -rho1 * g1 / g3 * B.x - rho2 * g2 / g3 * B.y + (rho1 * g1**2 + rho2 * g2**2) / (2 * g3**2) * B.z
    O = Point("O")
    O.set_vel(N, 0)
    C = O.locatenew("C", x * N.x + y * N.y)
    C.set_vel(N, u4 * N.x + u5 * N.y)
    G = C.locatenew("G", h * B.z - s)
    qd = [q.diff(t) for q in qs]
    A, b = sp.linear_eq_to_matrix(kd, qd)
    G.set_vel(N, G.pos_from(O).dt(N).xreplace(dict(zip(qd, A.LUsolve(b), strict=True))))
    contact = G.vel(N) + cross(B.ang_vel_in(N), s - h * B.z)
    body = RigidBody("body", G, B, m, (inertia(B, I1, I2, I3, I12, 0, 0), G))
    KM = KanesMethod(
        N, q_ind=qs, u_ind=[u1, u2, u3], u_dependent=[u4, u5], kd_eqs=kd,
        velocity_constraints=[dot(contact, N.x), dot(contact, N.y)], bodies=[body], forcelist=[(G, -m * g * N.z)],
    )  # fmt: skip
    KM.kanes_equations()
    return KM


def disc_on_incline() -> KanesMethod:
    """SymPy's rolling disc (yaw, lean, spin; speeds in the lean frame) on a plane inclined at α."""
    q1, q2, q3, q4, q5, u1, u2, u3, u4, u5 = dynamicsymbols("q1:6 u1:6")
    r, m, g, alpha = sp.symbols("r m g alpha")
    N = ReferenceFrame("N")
    Y = N.orientnew("Y", "Axis", [q1, N.z])
    L = Y.orientnew("L", "Axis", [q2, Y.x])
    R = L.orientnew("R", "Axis", [q3, L.y])
    w = R.ang_vel_in(N)
    R.set_ang_vel(N, u1 * L.x + u2 * L.y + u3 * L.z)
    O = Point("O")
    O.set_vel(N, 0)
    C = O.locatenew("C", q4 * N.x + q5 * N.y)
    C.set_vel(N, u4 * N.x + u5 * N.y)
    D = C.locatenew("D", r * L.z)
    D.set_vel(N, cross(R.ang_vel_in(N), D.pos_from(C)))
    contact = C.vel(N) + cross(R.ang_vel_in(L), C.pos_from(D))
    disc = RigidBody("disc", D, R, m, (inertia(L, m * r**2 / 4, m * r**2 / 2, m * r**2 / 4), D))
    KM = KanesMethod(
        N, q_ind=[q1, q2, q3, q4, q5], u_ind=[u1, u2, u3], u_dependent=[u4, u5],
        kd_eqs=[dot(R.ang_vel_in(N) - w, e) for e in L] + [q4.diff(t) - u4, q5.diff(t) - u5],
        velocity_constraints=[dot(contact, N.x), dot(contact, N.y)], bodies=[disc],
        forcelist=[(D, m * g * (sp.sin(alpha) * N.x - sp.cos(alpha) * N.z))],
    )  # fmt: skip
    KM.kanes_equations()
    return KM


BODIES = {
    "Chaplygin's ball": lambda: chaplygin_ball()[0],
    "Veselova's body": lambda: veselova()[0],
    "rattleback": rattleback,
    "disc on an incline": disc_on_incline,
}


def describe(name: str, KM: KanesMethod, measure: bool) -> list[str]:
    """The imported system's sizes and, when asked, its invariant measure."""
    t0 = time.perf_counter()
    nh = fr.from_mechanics(KM, name=name).nonholonomic()
    G = nh.field()
    lines = [
        f"{name}: n = {nh.n}, m = {nh.m}; field {max(op_count(g) for g in G.Gamma[: nh.m])} operations "
        f"(largest component), {time.perf_counter() - t0:.1f} s"
    ]
    if measure:
        with fr.budget(120):
            res = fr.invariant_measure(nh)
        lines.append(f"  invariant measure: exists = {res.exists}; density N = {res.density}")
    return lines


def report() -> str:
    """Build the text report: every body's field, and the invariant measures of the ball and Veselova's body."""
    lines: list[str] = []
    for name, build in BODIES.items():
        lines += describe(name, build(), measure=name in ("Chaplygin's ball", "Veselova's body"))
    return "\n".join(lines)


def main(outdir: str | Path = ".") -> Path:
    """Print the report and write it to ``outdir/rolling_bodies.txt``."""
    text = report()
    print(text)
    out = Path(outdir) / "rolling_bodies.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text + "\n", encoding="utf-8")
    return out


if __name__ == "__main__":
    main(*sys.argv[1:2])
