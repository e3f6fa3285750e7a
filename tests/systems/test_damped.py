"""Damped nonholonomic systems built with SymPy's ``KanesMethod`` and a forcelist, imported by ``from_mechanics``.

Two systems: the Chaplygin sleigh with a viscous force ``−c v_P`` at the contact point ``P`` and a
rotational damper ``−c_r ω`` on the body, and the rolling disc (with the contact point's coordinates)
under gravity and a torque ``−c ω`` on the disc. The loads that are not constant in N become the model's
generalised forces, gravity stays in the Lagrangian. At seeded random states on C with rational values
(angles with rational sine and cosine, ``(cos θ, sin θ) = ((1 − s²)/(1 + s²), 2s/(1 + s²))``), every
quantity is a rational number, and the comparisons are equalities of rationals:

- frames' ``Γ^α`` and natural ``q̈`` equal the rates of KanesMethod's own ``mass_matrix``/``forcing``
  (solved exactly at the state) and the derivative of its kinematic equations;
- ``dE/dt`` along frames' field equals the power of the loads in closed form (``−c u1² − c_r u2²``,
  ``−c |ω|²``), and equals ``dE/dt`` computed from SymPy's bodies along KanesMethod's rates;
- the round trip ``Model.to_mechanics("kane")`` keeps the rates.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
import sympy as sp
from _rational_state import RationalState as State
from _sympy_systems import chaplygin_sleigh, rolling_disc
from sympy.physics.mechanics import (
    KanesMethod,
    dot,
    dynamicsymbols,
)

import frames as fr

T = dynamicsymbols._t


# ----------------------------------------------------------------------------- the two systems
def damped_sleigh() -> dict:
    """The sleigh (:func:`_sympy_systems.chaplygin_sleigh`) with ``−c v_P`` at the contact point and ``−c_r ω`` on
    the body. Returns the method, its bodies, the potential energy and the loads' power on C in closed form."""
    m, I, a, c, cr = sp.symbols("m I a c c_r", positive=True)
    s = chaplygin_sleigh(m, I, a, lambda s: [(s.P, -c * s.P.vel(s.N)), (s.B, -cr * s.B.ang_vel_in(s.N))])
    u1, u2, _ = s.u
    return {"KM": s.KM, "bodies": [s.body], "V": sp.S.Zero, "power": -c * u1**2 - cr * u2**2}


def damped_disc() -> dict:
    """SymPy's rolling disc (``test_kane.py``) with the contact point's coordinates ``q4, q5``, gravity, and a
    torque ``−c ω`` on the disc; power on C ``−c (u1² + u2² + u3²)`` (``u`` = ω in the lean frame)."""
    r, m, g, c = sp.symbols("r m g c", positive=True)
    d = rolling_disc(m, r, g, loads=lambda d: [(d.D, -m * g * d.N.z), (d.R, -c * d.R.ang_vel_in(d.N))])
    u1, u2, u3 = d.u[:3]
    V = m * g * dot(d.D.pos_from(d.O), d.N.z)  # the height of the centre, r cos q2
    return {"KM": d.KM, "bodies": [d.body], "V": V, "power": -c * (u1**2 + u2**2 + u3**2)}


SYSTEMS = {"sleigh": damped_sleigh, "disc": damped_disc}
ANGLES = {"sleigh": ("theta",), "disc": ("q1", "q2", "q3")}


# ----------------------------------------------------------------------------- exact evaluation
def _rat(k: int) -> sp.Rational:
    return sp.Rational(k, 3)


def _states(imp: fr.app.MechanicsImport, name: str, count: int, seed: int) -> list[State]:
    """Seeded random states on C in the frame's quasi-velocities (``v^a = 0``), rational throughout."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        angles = {}
        for a in ANGLES[name]:
            s = Fraction(0)
            while s in (0, 1, -1):  # away from the singular angles of the disc's kinematics (cos q2 = 0)
                s = Fraction(rng.randint(-5, 5), rng.randint(1, 4))
            angles[a] = ((1 - s * s) / (1 + s * s), 2 * s / (1 + s * s))
        values = {p.name: _rat(rng.randint(1, 9)) for p in imp.chart.params}
        values |= {q.name: _rat(rng.randint(-6, 6)) for q in imp.chart.q if q.name not in angles}
        for i, v in enumerate(imp.frame.v):
            values[v.name] = _rat(rng.randint(-6, 6)) if i < imp.m else sp.S.Zero
        st = State(angles, values)
        for u, e in zip(imp.chart.u, imp.frame.u_in_v, strict=True):  # the chart velocities q̇ on C
            st.values[u.name] = st(e)
        out.append(st)
    return out


class KaneAt:
    """KanesMethod's own rates at a state: its mass matrix and forcing, the state substituted first, solved.

    The speeds' values come from Kane's kinematic equations ``k_ku u + k_kq̇ q̇ = 0`` at the state's ``q̇``, and
    satisfy its velocity constraints (asserted).
    """

    def __init__(self, KM: KanesMethod, imp: fr.app.MechanicsImport, st: State):
        self.KM, self.st = KM, st
        qs, us = list(KM.q), list(KM.u)
        self.qsym = {q: sp.Symbol(q.func.__name__) for q in qs}
        self.qdot = {q.diff(T): st.values[imp.chart.u[i].name] for i, q in enumerate(qs)}
        self.udot: dict = {}
        self.uval: dict = {}
        kku = KM._k_ku_implicit.applyfunc(self.at)
        kkq = KM._k_kqdot_implicit.applyfunc(self.at)
        uval = (-kku).LUsolve(kkq * sp.Matrix([self.qdot[q.diff(T)] for q in qs]))
        self.uval = {u: uval[i] for i, u in enumerate(us)}
        assert [self.uval[u] for u in us[: imp.m]] == [st.values[v.name] for v in imp.frame.v[: imp.m]]
        assert all(self.at(e) == 0 for e in KM._k_nh * KM.u + KM._f_nh)  # on C for Kane too
        if KM._fr is None:  # formed once
            KM.kanes_equations()
        ud = KM.mass_matrix.applyfunc(self.at).LUsolve(KM.forcing.applyfunc(self.at))
        self.udot = {u.diff(T): ud[i] for i, u in enumerate(us)}

    def at(self, e: sp.Expr) -> sp.Rational:
        """A mechanics expression at the state: rates first (a Derivative of q(t) must not meet q(t) -> symbol)."""
        e = sp.sympify(e, strict=True).xreplace(self.udot).xreplace(self.qdot)
        assert not e.atoms(sp.Derivative), e
        return self.st(e.xreplace(self.uval).xreplace(self.qsym))

    def qddot(self) -> list[sp.Rational]:
        """``q̈ = d/dt (q̇(q, u))`` from the kinematic equations, at Kane's ``u̇``."""
        kd = self.KM.kindiffdict()
        return [self.at(kd[q.diff(T)].diff(T)) for q in self.KM.q]


# ----------------------------------------------------------------------------- the tests
@pytest.fixture(scope="module", params=sorted(SYSTEMS))
def case(request):
    sysd = SYSTEMS[request.param]()
    return request.param, sysd, fr.app.mechanics_import(sysd["KM"])


def test_loads_become_forces_and_gravity_stays_a_potential(case):
    name, _sysd, imp = case
    ch = imp.chart
    assert imp.forces is not None
    if name == "sleigh":
        c, cr = imp.params["c"], imp.params["c_r"]
        assert imp.forces == (-c * ch.u[0], -c * ch.u[1], -cr * ch.u[2])  # F = −c (ẋ dx + ẏ dy) − c_r θ̇ dθ
    else:
        g = imp.params["g"]
        assert not any(f.has(g) for f in imp.forces) and imp.lagrangian.expr.has(g)
        assert all(f.has(imp.params["c"]) for f in imp.forces[:3]) and imp.forces[3:] == (0, 0)


def test_accelerations_equal_kanes_method_at_rational_states(case):
    """Γ^α = Kane's u̇ of the independent speeds, and natural q̈ = d/dt of Kane's kinematics, exactly."""
    name, sysd, imp = case
    KM = sysd["KM"]
    nh = imp.model(name).nonholonomic()
    G = nh.field().Gamma
    acc = nh.accelerations()
    rates = imp.method_rates()
    for st in _states(imp, name, 3, seed=34):
        k = KaneAt(KM, imp, st)
        udot = [k.udot[KM.u[i].diff(T)] for i in range(imp.m)]
        assert [st(G[i]) for i in range(imp.m)] == udot
        assert [st(a) for a in acc] == k.qddot()
        assert [st(x) for x in rates] == udot
        assert any(x != 0 for x in udot)


def test_energy_decays_at_the_power_of_the_loads(case):
    """``dE/dt`` along frames' field = the loads' power in closed form = ``dE/dt`` of SymPy's bodies along Kane."""
    name, sysd, imp = case
    KM = sysd["KM"]
    nh = imp.model(name).nonholonomic()
    dE = nh.field()(nh.lagrangian.energy(nh.frame))
    N = KM._inertial
    dE_kane = (sum(b.kinetic_energy(N) for b in sysd["bodies"]) + sysd["V"]).diff(T)
    for st in _states(imp, name, 3, seed=35):
        k = KaneAt(KM, imp, st)
        closed = k.at(sysd["power"])
        assert closed < 0
        assert st(dE) == closed
        assert k.at(dE_kane) == closed
    # without damping the energy is conserved: the decay is the forces' alone
    undamped = {p: 0 for key, p in imp.params.items() if key in ("c", "c_r")}
    assert fr.is_zero(dE.xreplace(undamped)) and not fr.is_zero(dE)


def test_round_trip_to_mechanics_keeps_the_accelerations(case):
    """KanesMethod with loads -> Model -> ``to_mechanics("kane")``: the exported method's rates equal the
    original method's at rational states on C (the forces exported as generalised-force loads)."""
    name, sysd, imp = case
    KM = sysd["KM"]
    mdl = imp.model(name)
    km2 = mdl.to_mechanics("kane")
    km2.kanes_equations()
    rates2 = fr.app.mechanics_rates(km2, mdl)
    for st in _states(imp, name, 2, seed=36):
        k = KaneAt(KM, imp, st)
        assert [st(x) for x in rates2] == [k.udot[KM.u[i].diff(T)] for i in range(imp.m)]
