"""A car towing a trailer hitched behind its axle, in frames' default frame and as SymPy's ``KanesMethod`` (issue 42).

The car's rear axle is at ``P = (x, y)``, its heading θ; the hitch is ``H = P − b B.x`` (``b > 0``: behind the
axle), and the trailer's axle ``Q = H − d T.x``, the trailer's heading ψ. Neither axle slips sideways:
``v_P · B.y = 0`` and ``v_Q · T.y = 0``. The car (mass ``m``, moment ``J``) has its mass centre ``a`` ahead of its axle, the
trailer (mass ``m_t``, moment ``J_t``) ``c`` ahead of its own. No forces: the system coasts.

frames builds it from the Lagrangian and the constraints alone, on the *default* frame of
``NonholonomicSystem.from_constraints`` (the generic null space basis of D used to have rank 1 on every straight
configuration of this trailer); SymPy builds it from the bodies, with the speeds ``u1 = v_P · B.x``, ``u2 = θ̇``
and the dependent ``u3 = v_P · B.y``, ``u4 = ψ̇``. At seeded random states on C with rational values (angles
with rational sine and cosine) every quantity is rational and the comparisons are equalities of rationals.
"""

from __future__ import annotations

import random
import warnings
from fractions import Fraction

import pytest
import sympy as sp
from _rational_state import RationalState
from sympy.physics.mechanics import KanesMethod, Point, ReferenceFrame, RigidBody, dot, dynamicsymbols, inertia

import frames as fr
from frames.errors import SingularFrameWarning

T = dynamicsymbols._t
NAMES = ("m", "J", "m_t", "J_t", "a", "b", "c", "d")
#: rational parameters for the default suite (the symbolic system is in the slow test)
VALUES = dict(zip(NAMES, (sp.Integer(3), sp.Rational(1, 2), sp.Integer(2), sp.Rational(1, 3), sp.Rational(1, 4),
                          sp.Rational(1, 2), sp.Rational(1, 2), sp.Rational(3, 2)), strict=True))  # fmt: skip
HITCHES = (0, sp.pi / 2, -sp.pi / 2, sp.pi)


# ----------------------------------------------------------------------------- the two builds
def trailer_frames(values: dict | None = None) -> fr.NonholonomicSystem:
    """frames: ``L`` = the kinetic energy, the two no-slip rows, the default frame (a singular one is an error)."""
    ch = fr.Chart("x y theta psi", params=" ".join(NAMES) if values is None else None)
    _, _, th, ps = ch.q
    ux, uy, w, wp = ch.u
    m, J, mt, Jt, a, b, c, d = ch.params if values is None else (values[k] for k in NAMES)
    hitch = (ux + b * sp.sin(th) * w, uy - b * sp.cos(th) * w)
    axle = (hitch[0] + d * sp.sin(ps) * wp, hitch[1] - d * sp.cos(ps) * wp)
    car = (ux - a * sp.sin(th) * w, uy + a * sp.cos(th) * w)  # the mass centres' velocities
    tr = (axle[0] - c * sp.sin(ps) * wp, axle[1] + c * sp.cos(ps) * wp)
    L = m / 2 * (car[0] ** 2 + car[1] ** 2) + J / 2 * w**2 + mt / 2 * (tr[0] ** 2 + tr[1] ** 2) + Jt / 2 * wp**2
    rows = [-sp.sin(th) * ux + sp.cos(th) * uy, sp.expand(-sp.sin(ps) * axle[0] + sp.cos(ps) * axle[1])]
    with warnings.catch_warnings():
        warnings.simplefilter("error", SingularFrameWarning)
        return fr.NonholonomicSystem.from_constraints(fr.Lagrangian(ch, sp.expand(L)), fr.LinearConstraints(ch, rows))


def trailer_kane(values: dict | None = None) -> KanesMethod:
    """SymPy: the car and the trailer as rigid bodies, the no-slip conditions as velocity constraints, the
    equations formed."""
    m, J, mt, Jt, a, b, c, d = sp.symbols(NAMES) if values is None else (values[k] for k in NAMES)
    x, y, th, ps = dynamicsymbols("x y theta psi")
    u1, u2, u3, u4 = dynamicsymbols("u1:5")
    N = ReferenceFrame("N")
    B = N.orientnew("B", "Axis", [th, N.z])
    Tr = N.orientnew("T", "Axis", [ps, N.z])
    B.set_ang_vel(N, u2 * N.z)
    Tr.set_ang_vel(N, u4 * N.z)
    O = Point("O")
    O.set_vel(N, 0)
    P = O.locatenew("P", x * N.x + y * N.y)
    P.set_vel(N, u1 * B.x + u3 * B.y)
    H = P.locatenew("H", -b * B.x)
    H.v2pt_theory(P, N, B)
    Q = H.locatenew("Q", -d * Tr.x)
    Q.v2pt_theory(H, N, Tr)
    Gc = P.locatenew("G_c", a * B.x)
    Gc.v2pt_theory(P, N, B)
    Gt = Q.locatenew("G_t", c * Tr.x)
    Gt.v2pt_theory(Q, N, Tr)
    car = RigidBody("car", Gc, B, m, (inertia(B, 0, 0, J), Gc))
    trailer = RigidBody("trailer", Gt, Tr, mt, (inertia(Tr, 0, 0, Jt), Gt))
    xd, yd = x.diff(T), y.diff(T)
    kd = [
        u1 - (sp.cos(th) * xd + sp.sin(th) * yd),
        u2 - th.diff(T),
        u3 - (-sp.sin(th) * xd + sp.cos(th) * yd),
        u4 - ps.diff(T),
    ]
    KM = KanesMethod(
        N, [x, y, th, ps], [u1, u2], kd_eqs=kd, u_dependent=[u3, u4], velocity_constraints=[u3, dot(Q.vel(N), Tr.y)],
        bodies=[car, trailer], forcelist=[],
    )  # fmt: skip
    KM.kanes_equations()
    return KM


# ----------------------------------------------------------------------------- exact evaluation at rational states
class State(RationalState):
    """A rational state on C: the angles θ, ψ by rational (cos, sin), the parameters, ``q̇`` in D, Kane's ``u``."""

    def __init__(self, nh: fr.NonholonomicSystem, rng: random.Random, values: dict | None):
        ch = nh.frame.chart
        self.sym = {s.name: s for s in (*ch.q, *ch.u, *ch.params)}
        self.angles = {}
        for a in ("theta", "psi"):
            s = Fraction(rng.randint(-5, 5), rng.randint(1, 4))
            self.angles[a] = ((1 - s * s) / (1 + s * s), 2 * s / (1 + s * s))
        self.values = {p.name: sp.Rational(rng.randint(1, 9), 3) for p in ch.params}
        self.values |= {"x": sp.Rational(rng.randint(-6, 6), 3), "y": sp.Rational(rng.randint(-6, 6), 3)}
        par = self.values if values is None else values
        c, s = self.angles["theta"]
        fwd, w = sp.Rational(rng.randint(-6, 6), 3), sp.Rational(rng.randint(-6, 6), 3)
        cr, sr = self._z(sp.Symbol("theta") - sp.Symbol("psi"))
        wp = (fwd * sp.Rational(sr) - par["b"] * w * sp.Rational(cr)) / par["d"]  # the trailer's no-slip condition
        self.values |= {"u_x": fwd * sp.Rational(c), "u_y": fwd * sp.Rational(s), "u_theta": w, "u_psi": wp}
        self.kane_u = (fwd, w, sp.S.Zero, wp)
        for row in nh.frame.fields[nh.m :]:  # on C: the constraint rows vanish
            assert self(sum(a * u for a, u in zip(row.components, ch.u, strict=True))) == 0


def kane_qddot(KM: KanesMethod, st: State) -> list[sp.Rational]:
    """Kane's ``q̈ = d/dt q̇(q, u)`` at the state, ``u̇`` from its mass matrix and forcing solved at the state."""
    qs, us = list(KM.q), list(KM.u)
    qsym = {q: st.sym[q.func.__name__] for q in qs}
    qdot = {q.diff(T): st.values[f"u_{'x y theta psi'.split()[i]}"] for i, q in enumerate(qs)}
    uval = dict(zip(us, st.kane_u, strict=True))

    def at(e, udot=None):
        e = sp.sympify(e).xreplace(udot or {}).xreplace(qdot)
        assert not e.atoms(sp.Derivative), e
        return st(e.xreplace(uval).xreplace(qsym).xreplace({sp.Symbol(k): v for k, v in st.values.items()}))

    assert all(at(e) == 0 for e in KM._k_nh * KM.u + KM._f_nh)  # the state is on C for Kane too
    ud = KM.mass_matrix.applyfunc(at).LUsolve(KM.forcing.applyfunc(at))
    udot = {u.diff(T): ud[i] for i, u in enumerate(us)}
    kd = KM.kindiffdict()
    return [at(kd[q.diff(T)].diff(T), udot) for q in qs]


# ----------------------------------------------------------------------------- the tests
@pytest.fixture(scope="module")
def rational():
    return trailer_frames(VALUES), trailer_kane(VALUES)


def test_default_frame_regular_at_the_special_hitch_angles():
    nh = trailer_frames()  # symbolic parameters: only the frame is built
    F = nh.frame
    _, _, th, ps = F.chart.q
    params = {p: sp.Rational(2 + k, 3 + k) for k, p in enumerate(F.chart.params)}
    for heading in (0, sp.pi / 3, sp.pi / 2, sp.pi):
        for hitch in HITCHES:
            pt = {F.chart.q[0]: 0, F.chart.q[1]: 0, th: heading, ps: heading - hitch} | params
            assert sp.simplify(sp.expand(F.determinant.xreplace(pt))) != 0, pt
            XD = sp.Matrix([list(X.components) for X in F.fields[: nh.m]]).xreplace(pt).applyfunc(sp.simplify)
            assert XD.rank() == 2, pt  # D's basis spans D, which has rank 2 everywhere


@pytest.mark.parametrize("canonical", [None, True])
def test_accelerations_equal_kanes_method_at_rational_states(rational, canonical):
    """frames' natural ``q̈`` (the compact default, and the canonical form) = Kane's, exactly."""
    nh, KM = rational
    acc = nh.accelerations(canonical=canonical)
    rng = random.Random(42)
    for _ in range(4):
        st = State(nh, rng, VALUES)
        kane = kane_qddot(KM, st)
        assert [st(a) for a in acc] == kane
        assert any(k != 0 for k in kane)


def _linearise(nh: fr.NonholonomicSystem, KM: KanesMethod) -> tuple[sp.Symbol, fr.Linearization, sp.Matrix]:
    """Straight motion at speed ``V`` (any sign) along x, hitch angle 0, by frames and by SymPy's linearize."""
    V = sp.Symbol("V", real=True)
    x, y, th, ps = nh.frame.chart.q
    ux, uy, w, wp = nh.frame.chart.u
    lin = fr.linearize(nh, {x: 0, y: 0, th: 0, ps: 0, ux: V, uy: 0, w: 0, wp: 0})
    op = {q: 0 for q in KM.q} | {q.diff(T): 0 for q in KM.q} | {u: 0 for u in KM.u} | {u.diff(T): 0 for u in KM.u}
    op |= {KM.u[0]: V, KM.q[0].diff(T): V}
    Ak, _, _ = KM.linearize(op_point=op, A_and_B=True)  # state (x, y, θ, ψ, u1, u2)
    return V, lin, sp.Matrix(Ak)


@pytest.fixture(scope="module")
def linearised(rational):
    return _linearise(*rational)


LAM = sp.Symbol("lam")


def test_linearize_on_the_default_frame_agrees_with_kanes_method(linearised):
    V, lin, Ak = linearised
    A = sp.Matrix(lin.A)
    assert all(a.is_finite for a in A.xreplace({V: 2}))  # no nan, no zoo (the old default frame gave nan)
    assert [s.name for s in lin.removed] == ["x", "y"]  # ignorable: Kane keeps them, with two more zeros
    assert sp.expand(Ak.charpoly(LAM).as_expr() - LAM**2 * A.charpoly(LAM).as_expr()) == 0
    # the spectrum: λ = 0 twice in frames' state (θ, ψ, v1, v2): the heading (δθ = δψ, a rotation of the whole
    # rig) and the speed v1 (conserved, no forces); then two roots of 337 λ² + 490 V λ + 120 V², the hitch angle
    # and the turning rate. Both are real with the sign of −V (sum −490 V/337, product 120 V²/337 > 0).
    assert sp.expand(337 * A.charpoly(LAM).as_expr()) == sp.expand(LAM**2 * (337 * LAM**2 + 490 * V * LAM + 120 * V**2))


@pytest.mark.parametrize("speed", [2, -2])
def test_reversing_jackknifes(linearised, speed):
    """Forwards the hitch angle and the turning rate decay; in reverse both grow (the jackknife): the two nonzero
    eigenvalues are real and positive for ``V < 0``, in frames and in Kane's linearisation alike."""
    V, lin, Ak = linearised
    ev = sp.roots(sp.Matrix(lin.A).xreplace({V: speed}).charpoly(LAM).as_expr(), LAM, multiple=True)
    assert sorted(ev, key=abs) == sorted(sp.roots(Ak.xreplace({V: speed}).charpoly(LAM).as_expr(), LAM,
                                                  multiple=True), key=abs)[2:]  # fmt: skip
    nonzero = [e for e in ev if e != 0]
    assert len(nonzero) == 2 and all(e.is_real and sp.sign(e) == -sp.sign(speed) for e in nonzero)
    num = sorted(lin.eigenvalues({V: speed}).real, key=abs)  # numerically the same
    assert all(abs(n - float(e)) < 1e-12 for n, e in zip(num[2:], sorted(nonzero, key=abs), strict=True))
    assert lin.stability({V: speed}) == ("unstable" if speed < 0 else "marginal")
