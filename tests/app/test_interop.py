"""Interop with sympy.physics.mechanics: from_mechanics, mechanics_import and Model.to_mechanics.

The rolling discs are SymPy's own (``sympy/physics/mechanics/tests``): ``test_kane5`` (imported from
the installed package), ``test_kane.py::test_rolling_disc`` and ``test_linearize.py`` (their set-up
code copied verbatim where it is inside the test function). Every comparison is exact
(:func:`frames.is_zero`), except the numbers that SymPy's ``test_kane5`` itself prints.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from _sympy_systems import chaplygin_sleigh, rolling_disc
from sympy import Matrix, cos, sin, symbols, tan
from sympy.physics.mechanics import (
    KanesMethod,
    LagrangesMethod,
    Particle,
    Point,
    ReferenceFrame,
    RigidBody,
    System,
    cross,
    dot,
    dynamicsymbols,
    inertia,
)

import frames as fr
from frames.natural.internal import from_dynamic, to_dynamic

T = dynamicsymbols._t
DOCS = Path(__file__).resolve().parents[2] / "docs"


def zero(e) -> bool:
    return fr.is_zero(sp.sympify(e, strict=True).replace(tan, lambda a: sin(a) / cos(a)))


# ----------------------------------------------------------------------------- SymPy's rolling discs
def kane_py_disc(contact_coordinates: bool = False) -> KanesMethod:
    """``test_kane.py::test_rolling_disc``; with ``contact_coordinates`` the same disc and speeds plus the
    contact point's coordinates ``q4, q5`` and the rolling constraints (dependent speeds ``u4, u5``)."""
    r, m, g = symbols("r m g")
    if contact_coordinates:
        return rolling_disc(m, r, g).KM  # gravity −m g N.z, and N.z = Y.z
    q1, q2, q3, u1, u2, u3 = dynamicsymbols("q1:4 u1:4")
    N = ReferenceFrame("N")
    Y = N.orientnew("Y", "Axis", [q1, N.z])
    L = Y.orientnew("L", "Axis", [q2, Y.x])
    R = L.orientnew("R", "Axis", [q3, L.y])
    w_R_N_qd = R.ang_vel_in(N)
    R.set_ang_vel(N, u1 * L.x + u2 * L.y + u3 * L.z)
    kd = [dot(R.ang_vel_in(N) - w_R_N_qd, uv) for uv in L]
    I = inertia(L, m / 4 * r**2, m / 2 * r**2, m / 4 * r**2)
    C = Point("C")  # verbatim
    C.set_vel(N, 0)
    Dmc = C.locatenew("Dmc", r * L.z)
    Dmc.v2pt_theory(C, N, R)
    BodyD = RigidBody("BodyD", Dmc, R, m, (I, Dmc))
    KM = KanesMethod(N, q_ind=[q1, q2, q3], u_ind=[u1, u2, u3], kd_eqs=kd)
    KM.kanes_equations([BodyD], [(Dmc, -m * g * Y.z)])
    return KM


def kane5_disc() -> KanesMethod:
    """``test_kane5.py::test_kane_rolling_disc_lu`` (the set-up function is SymPy's)."""
    from sympy.physics.mechanics.tests.test_kane5 import _create_rolling_disc

    p = _create_rolling_disc()
    kane = KanesMethod(
        p["frame"],
        p["q_ind"],
        p["u_ind"],
        p["kdes"],
        u_dependent=p["u_dep"],
        velocity_constraints=p["fnh"],
        bodies=p["bodies"],
        forcelist=p["loads"],
        explicit_kinematics=False,
        constraint_solver="LU",
    )
    kane.kanes_equations()
    return kane


def linearize_disc() -> KanesMethod:
    """``test_linearize.py::test_linearize_rolling_disc_kane`` up to ``kanes_equations`` (verbatim):
    a dependent coordinate ``q6`` with a configuration constraint, speeds in the disc frame."""
    from sympy.solvers.solvers import solve

    t, r, m, g = symbols("t r m g")
    q1, q2, q3, q4, q5, q6 = q = dynamicsymbols("q1:7")
    qd = [qi.diff(t) for qi in q]
    u1, u2, u3, u4, u5, u6 = dynamicsymbols("u1:7")
    N = ReferenceFrame("N")
    NO = Point("NO")
    A = N.orientnew("A", "Axis", [q1, N.z])
    B = A.orientnew("B", "Axis", [q2, A.x])
    C = B.orientnew("C", "Axis", [q3, B.y])
    CO = NO.locatenew("CO", q4 * N.x + q5 * N.y + q6 * N.z)
    w_c_n_qd = C.ang_vel_in(N)
    w_b_n_qd = B.ang_vel_in(N)
    C.set_ang_vel(N, u1 * B.x + u2 * B.y + u3 * B.z)
    v_co_n_qd = CO.pos_from(NO).dt(N)
    CO.set_vel(N, u4 * C.x + u5 * C.y + u6 * C.z)
    P = CO.locatenew("P", r * B.z)
    P.v2pt_theory(CO, N, C)
    f_c = Matrix([q6 - dot(CO.pos_from(P), N.z)])
    f_v = Matrix([dot(P.vel(N), uv) for uv in C])
    kindiffs = Matrix([dot(w_c_n_qd - C.ang_vel_in(N), uv) for uv in B] + [dot(v_co_n_qd - CO.vel(N), uv) for uv in N])
    qdots = solve(kindiffs, qd)
    B.set_ang_vel(N, w_b_n_qd.subs(qdots))
    C.set_ang_acc(N, C.ang_vel_in(N).dt(B) + cross(B.ang_vel_in(N), C.ang_vel_in(N)))
    I_C_CO = inertia(C, (m * r**2) / 4, (m * r**2) / 2, (m * r**2) / 4)
    Disc = RigidBody("Disc", CO, C, m, (I_C_CO, CO))
    KM = KanesMethod(
        N,
        [q1, q2, q3, q4, q5],
        [u1, u2, u3],
        kd_eqs=kindiffs,
        q_dependent=[q6],
        configuration_constraints=f_c,
        u_dependent=[u4, u5, u6],
        velocity_constraints=f_v,
    )
    KM.kanes_equations([Disc], [(CO, m * g * A.z)])
    return KM


Q1, Q2, Q3, U1, U2, U3, R_, M_, G_ = symbols("q1 q2 q3 u1 u2 u3 r m g")
#: the right-hand side asserted by SymPy's test_kane.py::test_rolling_disc (u1, u2, u3 in the lean frame L)
KANE_PY_RHS = [
    (6 * U2 * U3 * R_ - U3**2 * R_ * tan(Q2) + 4 * G_ * sin(Q2)) / (5 * R_),
    -2 * U1 * U3 / 3,
    U1 * (-2 * U2 + U3 * tan(Q2)),
]


def test_kane_py_rolling_disc_round_trip():
    """test_kane.py's disc: its u̇ equals frames' Γ in Kane's frame, exactly.

    SymPy's set-up locates the centre from a contact point C at rest and takes its velocity by
    ``v2pt_theory(C, N, R)``: that hides the rolling constraint, so the three-coordinate method has no
    Lagrangian (kinetic energy from positions) and is refused with a message saying why. With the
    contact point's coordinates and the rolling constraints stated, the same disc and speeds import,
    and frames' nonholonomic field equals both SymPy's printed rhs and the 3-coordinate method's own
    mass matrix and forcing.
    """
    km3 = kane_py_disc()
    with pytest.raises(
        fr.errors.ConstraintError, match=r"^from_mechanics: method\.bodies\[0\] \(BodyD\): velocity of Dmc"
    ):
        fr.from_mechanics(km3)
    imp = fr.app.mechanics_import(kane_py_disc(contact_coordinates=True))
    assert imp.m == 3 and imp.frame.v[:3] == (U1, U2, U3)
    G = imp.field().Gamma
    assert all(zero(G[i] - KANE_PY_RHS[i]) for i in range(3))
    assert all(G[a] == 0 for a in (3, 4))
    ud3 = fr.algebra.solve_linear(
        km3.mass_matrix.applyfunc(imp.to_frames), km3.forcing.applyfunc(imp.to_frames)
    )  # the 3-coordinate method's own equations, in the same symbols
    assert all(zero(ud3[i] - G[i]) for i in range(3))
    assert all(zero(x - y) for x, y in zip(imp.method_rates(), G[:3], strict=True))
    mdl = imp.model("rolling-disc")
    assert mdl.m == 3 and mdl.n == 5 and set(mdl.params) == {"g", "m", "r"}


def test_kinematics_true_on_tq_or_only_on_c_import_and_wrong_on_c_is_refused():
    """The velocities set on a method are compared with the derivatives of the positions on all of TQ first, then
    on C. The disc's centre set about the contact point (``ω × r``) is true on C only (the contact point moves off
    C): it imports through the test on C. Set with the contact point's velocity added it is true on TQ, and the
    model is the same. With half the rotation it is wrong on C too: refused, the body and the point named."""
    r, m, g = symbols("r m g")
    on_c = fr.from_mechanics(rolling_disc(m, r, g).KM)
    ns = rolling_disc(m, r, g)
    ns.D.set_vel(ns.N, ns.P.vel(ns.N) + cross(ns.L.ang_vel_in(ns.N), ns.D.pos_from(ns.P)))
    on_tq = fr.from_mechanics(ns.KM)
    assert on_tq.frame == on_c.frame and zero(on_tq.lagrangian.expr - on_c.lagrangian.expr)
    for wrong in (
        cross(ns.R.ang_vel_in(ns.N), ns.D.pos_from(ns.P)) / 2,
        ns.P.vel(ns.N) + cross(ns.R.ang_vel_in(ns.N), ns.D.pos_from(ns.P)) + ns.u[3] * ns.N.z,
    ):
        ns.D.set_vel(ns.N, wrong)
        with pytest.raises(
            fr.errors.ConstraintError, match=r"^from_mechanics: method\.bodies\[0\] \(disc\): velocity of D"
        ):
            fr.from_mechanics(ns.KM)


def test_the_expansion_estimate_that_decides_whether_the_imported_lagrangian_is_tidied():
    """Sums add, products multiply, ``p**k`` has ``C(t + k − 1, k)`` terms, ``sin`` of a sum of ``r`` terms
    ``2^(r−1)``; a large estimate stops at the limit (the bicycle's Lagrangian is kept as its bodies give it)."""
    from frames.app._interop import _expansion_terms

    a, b, c, x, y = symbols("a b c x y")
    assert _expansion_terms((x + y) ** 2) == 3
    assert _expansion_terms((x + y) * (a + b + c) + 1) == 7
    assert _expansion_terms(sin(a + b + c) * cos(a + b) * x) == 8
    assert _expansion_terms(sp.sqrt(x + y) * x) == 1
    assert _expansion_terms(sp.Mul(*(s + 1 for s in symbols("z:30"))), limit=1000) == 1001


def test_kane5_rolling_disc_round_trip():
    """test_kane5's disc (dependent speeds, LU constraint solver): Kane's u̇ = frames' Γ^α exactly, and
    frames' Γ reproduces the numbers SymPy's test prints."""
    kane = kane5_disc()
    mdl = fr.from_mechanics(kane, name="kane5-disc")
    imp = fr.app.mechanics_import(kane)
    assert mdl.frame == imp.frame and mdl.m == 3
    G = imp.field().Gamma
    rates = imp.method_rates()
    assert all(zero(rates[i] - G[i]) for i in range(3))
    # SymPy's own numbers (_verify_rolling_disc_numerically): u̇1..u̇3 are entries 5..7 of its rhs
    q = sp.symbols("q1:6")
    g, r, m = sp.symbols("g r m")
    for qv, uv, expected in (
        ((0.3, 0.1, 1.97, -0.35, 2.27), (-0.2, 1.3, 0.15), (-0.925848952664489, -0.0181350656532944, 2.91695398184589)),
        (
            (3.97, -0.28, 8.2, -0.35, 2.27),
            (-0.25, -2.2, 0.62),
            (1.45030568179066, -0.0110924422400793, -8.3561784018604),
        ),
    ):
        point = dict(zip(q, qv, strict=True)) | dict(zip(imp.frame.v, uv, strict=False)) | {g: 9.81, r: 0.26, m: 3.43}
        got = [float(G[i].xreplace(point)) for i in range(3)]
        assert got == pytest.approx(expected, abs=1e-10)


def test_linearize_rolling_disc_dependent_coordinate():
    """test_linearize.py's disc: a dependent coordinate q6 with its configuration constraint (implied by
    the velocity constraints), speeds in the disc frame; same Γ as test_kane.py's printed rhs."""
    imp = fr.app.mechanics_import(linearize_disc())
    assert imp.chart.dim == 6 and imp.m == 3
    q2, r = imp.chart.q[1], imp.chart.params[2]
    assert imp.configuration_constraints == (imp.chart.q[5] + r * cos(q2),)
    G = imp.field().Gamma
    assert all(zero(x - y) for x, y in zip(imp.method_rates(), G[:3], strict=True))
    assert all(zero(G[i] - KANE_PY_RHS[i]) for i in range(3))


# ----------------------------------------------------------------------------- LagrangesMethod in
def test_lagranges_method_knife_edge():
    """from_mechanics(LagrangesMethod with nonhol_coneqs): frames' accelerations = LagrangesMethod.rhs() on C."""
    x, y, th = dynamicsymbols("x y theta")
    xd, yd, thd = (s.diff(T) for s in (x, y, th))
    m, J = symbols("m J", positive=True)
    LM = LagrangesMethod(
        m * (xd**2 + yd**2) / 2 + J * thd**2 / 2, [x, y, th], nonhol_coneqs=[-sin(th) * xd + cos(th) * yd]
    )
    LM.form_lagranges_equations()
    rhs = LM.rhs()
    imp = fr.app.mechanics_import(LM)
    mdl = fr.from_mechanics(LM, name="knife")
    assert mdl.chart.q == sp.symbols("x y theta") and mdl.params == {"J": J, "m": m}
    acc = mdl.nonholonomic().accelerations()
    F = mdl.frame
    on_c = F.on_constraint(mdl.m)
    for i in range(3):
        assert zero(F.to_quasi(imp.to_frames(rhs[3 + i]) - acc[i]).xreplace(on_c))
    assert all(zero(F.to_quasi(a - b).xreplace(on_c)) for a, b in zip(imp.method_rates(), acc, strict=True))
    # the import answers the method protocol: the same accelerations as LagrangesMethod.rhs() on C
    assert all(
        zero(F.to_quasi(a - imp.to_frames(rhs[3 + i])).xreplace(on_c)) for i, a in enumerate(imp.accelerations())
    )
    assert len(imp.multipliers()) == 1 and len(imp.equations()) == 4
    assert imp.ode_system().states[:3] == mdl.chart.q


def test_lagranges_method_rolling_coin_with_gravity():
    """A coin rolling down an incline: the potential comes from a uniform force on a located point."""
    x, y, ph, th = dynamicsymbols("x y phi theta")
    xd, yd, phd, thd = (s.diff(T) for s in (x, y, ph, th))
    m, R, g, al, I, J = symbols("m R g alpha I J", positive=True)
    N = ReferenceFrame("N")
    O = Point("O")
    O.set_vel(N, 0)
    P = O.locatenew("P", x * N.x + y * N.y)
    P.set_vel(N, xd * N.x + yd * N.y)
    T_ = m * (xd**2 + yd**2) / 2 + I * thd**2 / 2 + J * phd**2 / 2
    cons = [xd - R * cos(ph) * thd, yd - R * sin(ph) * thd]
    LM = LagrangesMethod(T_, [x, y, ph, th], nonhol_coneqs=cons, forcelist=[(P, m * g * sin(al) * N.x)], frame=N)
    imp = fr.app.mechanics_import(LM)
    assert zero(imp.lagrangian.expr - (T_ + m * g * sin(al) * x).xreplace(imp.names))
    mdl = imp.model()
    acc = mdl.nonholonomic().accelerations()
    on_c = mdl.frame.on_constraint(mdl.m)
    rates = imp.method_rates()
    assert all(zero(mdl.frame.to_quasi(a - b).xreplace(on_c)) for a, b in zip(rates, acc, strict=True))


def test_time_dependent_lagrangian_and_specified_input():
    """An input f(t) that is not a coordinate becomes a parameter function on a chart with time."""
    x, y, th = dynamicsymbols("x y theta")
    f = dynamicsymbols("f")
    xd, yd, thd = (s.diff(T) for s in (x, y, th))
    LM = LagrangesMethod((xd**2 + yd**2 + thd**2) / 2 + f * x, [x, y, th], nonhol_coneqs=[-sin(th) * xd + cos(th) * yd])
    mdl = fr.from_mechanics(LM)
    assert mdl.chart.t == T and mdl.params == {"f": f.func}
    field = mdl.nonholonomic().field()
    assert field.time_dependent
    rates = fr.app.mechanics_import(LM).method_rates()
    on_c = mdl.frame.on_constraint(mdl.m)
    acc = mdl.nonholonomic().accelerations()
    assert all(zero(mdl.frame.to_quasi(a - b).xreplace(on_c)) for a, b in zip(rates, acc, strict=True))


def test_unconstrained_method_is_m_equals_n():
    """No constraints: the import works with m = n (Euler–Lagrange field), the Model needs one constraint."""
    q1, q2 = dynamicsymbols("q1 q2")
    LM = LagrangesMethod((q1.diff(T) ** 2 + q2.diff(T) ** 2) / 2 - q1**2 / 2, [q1, q2])
    imp = fr.app.mechanics_import(LM)
    assert imp.m == 2 and imp.constraints is None
    assert imp.field().Gamma[0] == -imp.chart.q[0]
    with pytest.raises(
        fr.errors.ConstraintError, match=r"^from_mechanics: method \(LagrangesMethod\): .*no nonholonomic"
    ):
        fr.from_mechanics(LM)
    N = ReferenceFrame("N")
    O = Point("O")
    O.set_vel(N, 0)
    P = O.locatenew("P", q1 * N.x)
    u1 = dynamicsymbols("u1")
    P.set_vel(N, u1 * N.x)
    KM = KanesMethod(N, [q1], [u1], kd_eqs=[q1.diff(T) - u1], bodies=[Particle("p", P, 1)], forcelist=[(P, -N.x)])
    imp = fr.app.mechanics_import(KM)
    assert imp.m == 1 and imp.lagrangian.expr == imp.chart.u[0] ** 2 / 2 - imp.chart.q[0]
    with pytest.raises(fr.errors.ConstraintError, match=r"^from_mechanics: method \(KanesMethod\)"):
        fr.from_mechanics(KM)


# ----------------------------------------------------------------------------- Model.to_mechanics
def _kane_rates(model, km: KanesMethod) -> sp.Matrix:
    km.kanes_equations()
    ch, F = model.chart, model.frame
    speeds = {dynamicsymbols(v.name): v for v in F.v}
    _sub, qf, qd, t = to_dynamic(ch)
    on_c = F.on_constraint(model.m)

    def tr(e):
        return fr.algebra.internal.canon(from_dynamic(e.xreplace(speeds), ch, qf, qd, t).xreplace(on_c))

    return fr.algebra.solve_linear(km.mass_matrix.applyfunc(tr), km.forcing.applyfunc(tr))


def _lagrange_residuals(model, lm: LagrangesMethod) -> list[sp.Expr]:
    """The LagrangesMethod's equations at frames' accelerations, on C: the D-components of the dynamic
    equations (the multiplier terms drop out) and the differentiated constraints."""
    lm.form_lagranges_equations()
    ch, F, n, m = model.chart, model.frame, model.n, model.m
    _sub, qf, qd, t = to_dynamic(ch)
    MF = lm.mass_matrix_full.applyfunc(lambda e: from_dynamic(e, ch, qf, qd, t))
    FF = lm.forcing_full.applyfunc(lambda e: from_dynamic(e, ch, qf, qd, t))
    acc = sp.Matrix(model.nonholonomic().accelerations())
    r = MF[n:, n : 2 * n] * acc - FF[n:, 0]
    out = [(F.matrix.row(al) * r[:n, 0])[0] for al in range(m)] + list(r[n:, 0])
    on_c = F.on_constraint(m)
    return [F.to_quasi(e).xreplace(on_c) for e in out]


CATALOGUE = ["knife_edge", "nonholonomic_particle", "two_wheeled_carriage", "chaplygin_sleigh", "rolling_penny"]


@pytest.mark.parametrize("name", CATALOGUE)
def test_to_mechanics_agrees_with_the_nonholonomic_field(name):
    mdl = getattr(fr.models, name)()
    G = mdl.nonholonomic().field().Gamma
    km = mdl.to_mechanics("kane")
    assert isinstance(km, KanesMethod) and [s.name for s in km.u] == [v.name for v in mdl.frame.v]
    ud = _kane_rates(mdl, km)
    assert all(zero(ud[i] - G[i]) for i in range(mdl.n))  # Γ^α, and u̇^a = 0 = Γ^a on C
    assert all(zero(x - y) for x, y in zip(fr.app.mechanics_rates(km, mdl), G[: mdl.m], strict=True))
    lm = mdl.to_mechanics("lagrange")
    assert isinstance(lm, LagrangesMethod)
    assert all(zero(e) for e in _lagrange_residuals(mdl, lm))
    F, on_c = mdl.frame, mdl.frame.on_constraint(mdl.m)
    acc = mdl.nonholonomic().accelerations()
    assert all(
        zero(F.to_quasi(a - b).xreplace(on_c)) for a, b in zip(fr.app.mechanics_rates(lm, mdl), acc, strict=True)
    )


@pytest.mark.parametrize("name", ["knife_edge", "nonholonomic_particle", "rolling_penny", "vertical_rolling_disk"])
def test_to_mechanics_round_trip_to_a_model(name):
    mdl = getattr(fr.models, name)()
    back = fr.from_mechanics(mdl.to_mechanics("lagrange"), name=mdl.name)
    assert back.chart.q == mdl.chart.q and back.chart.u == mdl.chart.u and back.m == mdl.m
    assert back.lagrangian.expr == mdl.lagrangian.expr
    assert back.constraints.matrix == mdl.constraints.matrix
    acc, acc0 = back.nonholonomic().accelerations(), mdl.nonholonomic().accelerations()
    on_c = mdl.frame.on_constraint(mdl.m)
    assert all(zero(mdl.frame.to_quasi(a - b).xreplace(on_c)) for a, b in zip(acc, acc0, strict=True))
    if name in ("knife_edge", "nonholonomic_particle"):  # constant mass matrix: particles with positions
        kb = fr.app.mechanics_import(mdl.to_mechanics("kane"))
        assert kb.frame.matrix == mdl.frame.matrix and kb.frame.v == mdl.frame.v
        assert zero(kb.lagrangian.expr - mdl.lagrangian.expr)


# ----------------------------------------------------------------------------- bad input
def _nonlinear_lm():
    x, y = dynamicsymbols("x y")
    return LagrangesMethod((x.diff(T) ** 2 + y.diff(T) ** 2) / 2, [x, y], nonhol_coneqs=[x.diff(T) ** 2 - y.diff(T)])


def _rheonomic_lm():
    x, y = dynamicsymbols("x y")
    return LagrangesMethod((x.diff(T) ** 2 + y.diff(T) ** 2) / 2, [x, y], nonhol_coneqs=[x.diff(T) - T * y.diff(T)])


def _affine_lm():
    x, y = dynamicsymbols("x y")
    return LagrangesMethod((x.diff(T) ** 2 + y.diff(T) ** 2) / 2, [x, y], nonhol_coneqs=[x.diff(T) - 1])


def _damped_lm():
    x, y = dynamicsymbols("x y")
    N = ReferenceFrame("N")
    O = Point("O")
    O.set_vel(N, 0)
    P = O.locatenew("P", x * N.x + y * N.y)
    P.set_vel(N, x.diff(T) * N.x + y.diff(T) * N.y)
    return LagrangesMethod(
        (x.diff(T) ** 2 + y.diff(T) ** 2) / 2,
        [x, y],
        nonhol_coneqs=[x.diff(T) - y * y.diff(T)],
        forcelist=[(P, -3 * P.vel(N))],
        frame=N,
    )


def _torqued_lm():
    x, y = dynamicsymbols("x y")
    N = ReferenceFrame("N")
    return LagrangesMethod(
        (x.diff(T) ** 2 + y.diff(T) ** 2) / 2,
        [x, y],
        nonhol_coneqs=[x.diff(T) - y * y.diff(T)],
        forcelist=[(N, N.z)],
        frame=N,
    )


def _free_particle():
    x = dynamicsymbols("x")
    return LagrangesMethod(x.diff(T) ** 2 / 2, [x])


def _other_knife():
    """The knife edge's coordinates with a different constraint."""
    ph, x, y = dynamicsymbols("phi x y")
    L = (ph.diff(T) ** 2 + x.diff(T) ** 2 + y.diff(T) ** 2) / 2
    return LagrangesMethod(L, [ph, x, y], nonhol_coneqs=[x.diff(T) - ph.diff(T)])


def _knife_system(speeds: bool = True) -> System:
    """A damped knife edge as a sympy ``System``: the blade's contact point ``P`` (force ``−c v_P``) and the blade's
    frame ``B`` (torque ``−c ω``). With ``speeds``: forward and turning speeds ``u1, u2`` and the dependent lateral
    speed ``u3 = 0`` (Kane); without: the constraint in ``q̇`` (Lagrange)."""
    x, y, th = dynamicsymbols("x y theta")
    m, J, c = symbols("m J c", positive=True)
    N, O = ReferenceFrame("N"), Point("O")
    system = System(N, O)
    B = N.orientnew("B", "Axis", [th, N.z])
    P = O.locatenew("P", x * N.x + y * N.y)
    xd, yd = x.diff(T), y.diff(T)
    system.add_coordinates(x, y, th)
    if speeds:
        u1, u2, u3 = dynamicsymbols("u1:4")
        B.set_ang_vel(N, u2 * N.z)
        P.set_vel(N, u1 * B.x + u3 * B.y)
        system.add_speeds(u1, u2)
        system.add_speeds(u3, independent=False)
        system.add_kdes(u1 - (cos(th) * xd + sin(th) * yd), u2 - th.diff(T), u3 - (-sin(th) * xd + cos(th) * yd))
        system.add_nonholonomic_constraints(u3)
    else:
        system.add_nonholonomic_constraints(-sin(th) * xd + cos(th) * yd)
    system.add_bodies(RigidBody("blade", P, B, m, (inertia(B, 0, 0, J), P)))
    system.add_loads((P, -c * P.vel(N)), (B, -c * B.ang_vel_in(N)))
    return system


def _unreadable_system() -> System:
    system = _knife_system()
    system.add_kdes(dynamicsymbols("x").diff(T))  # four kinematic equations for three coordinates
    return system


def _kane_without_bodies():
    q, u = dynamicsymbols("q u")
    return KanesMethod(ReferenceFrame("N"), [q], [u], kd_eqs=[q.diff(T) - u])


def _aux_dep_disc():
    """test_kane2's disc: six speeds for four coordinates (the centre's velocity is not a coordinate rate)."""
    q = dynamicsymbols("q:4")
    u = dynamicsymbols("u:6")
    N = ReferenceFrame("N")
    A = N.orientnew("A", "Axis", [q[0], N.z])
    kd = [q[i].diff(T) - u[i] for i in range(4)]
    P = Point("P")
    O = P.locatenew("O", q[3] * A.z)
    O.set_vel(N, u[3] * A.x + u[4] * A.y + u[5] * A.z)
    return KanesMethod(N, q_ind=q, u_ind=u, kd_eqs=kd, bodies=[Particle("p", O, 1)])


BAD = [
    ("string", lambda: fr.from_mechanics("LagrangesMethod(L, q)"), fr.errors.ArgumentError, r"^from_mechanics: method: expected"),
    ("model", lambda: fr.from_mechanics(fr.models.knife_edge()), fr.errors.ArgumentError, r"^from_mechanics: method: expected"),
    ("nonlinear", lambda: fr.from_mechanics(_nonlinear_lm()), fr.errors.ConstraintError, r"^from_mechanics: method: nonhol_coneqs\[0\]: .*not linear"),
    ("affine", lambda: fr.from_mechanics(_affine_lm()), fr.errors.ConstraintError, r"^from_mechanics: method: nonhol_coneqs\[0\]"),
    ("rheonomic", lambda: fr.from_mechanics(_rheonomic_lm()), fr.errors.InvalidExpressionError, r"^from_mechanics: method: nonhol_coneqs\[0\]: .*time"),
    ("no-bodies", lambda: fr.from_mechanics(_kane_without_bodies()), fr.errors.ArgumentError, r"^from_mechanics: method: .*no bodies"),
    ("speeds", lambda: fr.from_mechanics(_aux_dep_disc()), fr.errors.InvalidExpressionError, r"^from_mechanics: method: 6 generalized speeds for 4.* The speeds \['u4', 'u5'\] have no coordinate: add one"),
    ("system", lambda: fr.from_mechanics(_unreadable_system()), fr.errors.ArgumentError, r"^from_mechanics: method \(System\): the System cannot be read as a KanesMethod \(ValueError: .*System\.eom_method"),
    ("name", lambda: fr.from_mechanics(_affine_lm(), name=3), fr.errors.ArgumentError, r"^from_mechanics: name"),
    ("kind", lambda: fr.models.knife_edge().to_mechanics("hamel"), fr.errors.ArgumentError, r"^to_mechanics: kind"),
    ("kind-injection", lambda: fr.models.knife_edge().to_mechanics("__import__('os')"), fr.errors.ArgumentError, r"^to_mechanics: kind"),
    ("to-model", lambda: fr.app._to_mechanics.to_mechanics("knife_edge"), fr.errors.ArgumentError, r"^to_mechanics: model"),
    ("rates-model", lambda: fr.app.mechanics_rates(_free_particle(), "knife_edge"), fr.errors.ArgumentError, r"^mechanics_rates: model"),
    ("rates-method", lambda: fr.app.mechanics_rates("LM", fr.models.knife_edge()), fr.errors.ArgumentError, r"^mechanics_rates: method"),
    ("rates-names", lambda: fr.app.mechanics_rates(_free_particle(), fr.models.knife_edge()), fr.errors.ArgumentError, r"^mechanics_rates: method: coordinates"),
    ("rates-constraints", lambda: fr.app.mechanics_rates(_other_knife(), fr.models.knife_edge()), fr.errors.ArgumentError, r"^mechanics_rates: method: its constraint 0"),
    ("to_frames", lambda: fr.app.mechanics_import(_free_particle()).to_frames("x"), fr.errors.InvalidExpressionError, r"^MechanicsImport\.to_frames: expr"),
    ("to_frames-acceleration", lambda: fr.app.mechanics_import(_free_particle()).to_frames(dynamicsymbols("x").diff(T, 2)), fr.errors.InvalidExpressionError, r"^MechanicsImport\.to_frames: expr: .*accelerations"),
]  # fmt: skip


@pytest.mark.parametrize("row", BAD, ids=[r[0] for r in BAD])
def test_bad_input_names_the_argument(row):
    _id, call, exc, pattern = row
    with pytest.raises(exc, match=pattern):
        call()


def test_nonquadratic_lagrangian_has_no_kane_form():
    mdl = fr.models.knife_edge()
    u = mdl.chart.u[0]
    quartic = fr.models.Model(
        "quartic", mdl.chart, fr.Lagrangian(mdl.chart, mdl.lagrangian.expr + u**4), mdl.frame, mdl.m, mdl.constraints,
        mdl.params,
    )  # fmt: skip
    with pytest.raises(fr.errors.RegularityError, match=r"^to_mechanics: model 'quartic': .*not quadratic"):
        quartic.to_mechanics("kane")
    assert isinstance(quartic.to_mechanics("lagrange"), LagrangesMethod)


def test_a_spent_budget_in_the_mechanics_import_is_a_budget_error():
    """``from_mechanics`` under a spent budget raises BudgetExceededError naming the step, not a claim that the
    speeds do not form a coframe."""
    kane = kane_py_disc(contact_coordinates=True)
    assert fr.from_mechanics(kane).m == 3  # it imports
    with pytest.raises(fr.errors.BudgetExceededError) as info, fr.budget(1e-9):
        fr.from_mechanics(kane)
    assert not isinstance(info.value, fr.errors.InvalidExpressionError)


def test_an_unconstrained_import_answers_the_protocol_with_euler_lagrange():
    """m = n: the imported method is the Euler–Lagrange system (Cartan form); no multipliers; it integrates."""
    q = dynamicsymbols("q")
    imp = fr.app.mechanics_import(LagrangesMethod(q.diff(T) ** 2 / 2 - q**2 / 2, [q]))
    assert imp.accelerations() == sp.ImmutableMatrix([-imp.chart.q[0]])
    with pytest.raises(fr.errors.NoMultipliersError, match="no constraints"):
        imp.multipliers()
    tr = fr.integrate(imp, (0.0, 1.0), [1.0], [0.0], rtol=1e-12, atol=1e-14)
    assert abs(tr.q[-1, 0] - np.cos(1.0)) < 1e-9


def test_nonconservative_loads_of_a_lagranges_method_are_generalised_forces():
    """A damping force imports as the forces ``Q = −3 u``; a torque on the inertial frame does no work (none)."""
    mdl = fr.from_mechanics(_damped_lm())
    assert mdl.forces == tuple(-3 * u for u in mdl.chart.u)
    assert fr.from_mechanics(_torqued_lm()).forces == ()


@pytest.mark.parametrize("name", ["knife_edge", "chaplygin_sleigh", "rolling_penny"])
def test_to_mechanics_exports_the_forces(name):
    """A model with Rayleigh damping ``F = −c_d u_i dq^i``: the exported KanesMethod and LagrangesMethod give the
    damped field (the forces as generalised-force loads), exactly on C."""
    base = getattr(fr.models, name)()
    cd = sp.Symbol("c_d", positive=True)
    L = fr.Lagrangian(base.chart, base.lagrangian.expr, params=[cd])
    ch = L.chart
    mdl = dataclasses.replace(
        base,
        chart=ch,
        lagrangian=L,
        frame=fr.Frame([fr.VectorField(ch, X.components) for X in base.frame.fields], v=base.frame.v),
        constraints=fr.LinearConstraints(ch, base.constraints.matrix),
        params=dict(base.params) | {"c_d": cd},
        forces=tuple(-cd * u for u in ch.u),
    )
    G = mdl.nonholonomic().field().Gamma
    assert not zero(G[0] - base.nonholonomic().field().Gamma[0]) or not zero(
        G[1] - base.nonholonomic().field().Gamma[1]
    )
    ud = _kane_rates(mdl, mdl.to_mechanics("kane"))
    assert all(zero(ud[i] - G[i]) for i in range(mdl.n))
    assert all(zero(e) for e in _lagrange_residuals(mdl, mdl.to_mechanics("lagrange")))


@pytest.mark.parametrize("speeds", [True, False], ids=["kane", "lagrange"])
def test_a_sympy_system_is_read_directly(speeds):
    """A ``System`` with loads, before and after ``form_eoms``: the same model (the loads as the forces
    ``−c q̇``), the same accelerations on C as the other kind of System, and ``mechanics_rates(system, model)``
    (the System's own equations, formed) equal to frames' field."""
    system = _knife_system(speeds)
    mdl = fr.from_mechanics(system, name="knife")
    c = mdl.params["c"]
    assert mdl.forces == tuple(-c * u for u in mdl.chart.u) and mdl.m == 2
    system.form_eoms(KanesMethod if speeds else LagrangesMethod)
    formed = fr.from_mechanics(system, name="knife")
    assert formed.frame == mdl.frame and formed.forces == mdl.forces
    assert zero(formed.lagrangian.expr - mdl.lagrangian.expr)
    F, on_c = mdl.frame, mdl.frame.on_constraint(mdl.m)
    acc = mdl.nonholonomic().accelerations()
    other = fr.from_mechanics(_knife_system(not speeds)).nonholonomic().accelerations()
    assert all(zero(F.to_quasi(a - b).xreplace(on_c)) for a, b in zip(acc, other, strict=True))
    rates = fr.app.mechanics_rates(system, formed)
    if speeds:  # Kane: u̇ of the independent speeds = Γ^α (u̇1 = −c u1/m, u̇2 = −c u2/J)
        G = formed.nonholonomic().field().Gamma
        assert all(zero(rates[i] - G[i]) for i in range(2)) and zero(G[0] + c * F.v[0] / mdl.params["m"])
    else:
        assert all(zero(F.to_quasi(a - b).xreplace(on_c)) for a, b in zip(rates, acc, strict=True))


def test_kane_loads_depending_on_coordinates_and_an_input_are_generalised_forces():
    """A KanesMethod sleigh with a spring force ``−k x N.x`` on the contact point and an input torque ``τ(t)``: the
    forces ``(−k x, 0, τ)`` on a chart with time, ``τ`` a parameter function; Γ^α = the method's own u̇."""
    tau = dynamicsymbols("tau")
    m, I, a, k = symbols("m I a k", positive=True)
    KM = chaplygin_sleigh(m, I, a, lambda s: [(s.B, tau * s.N.z), (s.P, -k * s.q[0] * s.N.x)]).KM
    imp = fr.app.mechanics_import(KM)
    xs = imp.chart.q[0]
    assert imp.forces == (-k * xs, 0, tau) and imp.chart.t == T and imp.params["tau"] == tau.func
    G_ = imp.field().Gamma
    assert all(zero(r - G_[i]) for i, r in enumerate(imp.method_rates()))
    assert zero(G_[1] - (-a * m * imp.frame.v[0] * imp.frame.v[1] + tau) / (I + a**2 * m))
