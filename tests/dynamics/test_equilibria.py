"""Relative equilibria from the reduced equations (``frames.dynamics.relative_equilibria``), exact families."""

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import frames as fr
from frames.algebra import is_zero, op_count
from frames.algebra.internal import trig_normal
from frames.dynamics import RelativeEquilibrium, reduced_equations, relative_equilibria


def test_the_sleigh_slides_straight_at_any_speed_and_linearize_takes_the_family():
    mdl = fr.models.chaplygin_sleigh()
    nh = mdl.nonholonomic()
    (fam,) = relative_equilibria(nh)
    v1, v2 = nh.frame.v[:2]
    assert fam.solution == {v1: 0, v2: v2} and fam.free == (v2,) and fam.removed == mdl.chart.q
    V = sp.Symbol("V")
    at = fam.at({"v2": V}, removed={"theta": 0})
    assert at[mdl.chart.u[1]] == V and at[mdl.chart.u[0]] == 0 and at[mdl.chart.u[2]] == 0
    lin = fr.linearize(nh, at)
    m, I, a = (mdl.params[k] for k in ("m", "I", "a"))
    assert any(is_zero(e + a * V * m / (I + a**2 * m)) for e in lin.A.eigenvals())
    # turned by a quarter: the same family, the velocities rotated
    at = fam.at({v2: V}, removed={"theta": sp.pi / 2})
    assert at[mdl.chart.u[1]] == 0 and at[mdl.chart.u[2]] == V


def test_the_reduced_equations_are_those_linearize_removes_and_keeps():
    nh = fr.models.rolling_disc().nonholonomic()
    states, rates, removed = reduced_equations(nh)
    assert [s.name for s in states] == ["theta", "v1", "v2", "v3"]
    assert [s.name for s in removed] == ["x", "y", "psi", "phi"]
    assert rates[0] == states[2]  # θ̇ = v2
    lin = fr.linearize(nh, relative_equilibria(nh)[0].at({"v3": 2}))
    assert lin.states == states and lin.removed == removed
    assert all(is_zero(r.xreplace({s: 0 for s in states[:-1]})) for r in rates)  # upright rolling: steady


def test_known_values_select_the_upright_motions_of_the_disc():
    """At θ = 0 the steady motions are rolling at any spin and spinning in place about the vertical."""
    nh = fr.models.rolling_disc().nonholonomic()
    fams = relative_equilibria(nh, known={"theta": 0})
    v1, v2, v3 = nh.frame.v[:3]
    got = {(f.solution[v1], f.solution[v3]) for f in fams}
    assert got == {(0, v3), (v1, 0)}
    assert all(f.solution[v2] == 0 and not f.conditions for f in fams)


def test_a_branch_the_solver_cannot_split_is_kept_as_a_condition():
    """The nonholonomic particle in the potential (q1² + q2² − 1)²/4: equilibria at the origin and on the unit
    circle, which is returned as a condition of a two-parameter family (its points are not listed again)."""
    mdl = fr.models.nonholonomic_particle()
    q1, q2, _q3 = mdl.chart.q
    L = fr.Lagrangian(mdl.chart, mdl.lagrangian.expr - (q1**2 + q2**2 - 1) ** 2 / 4)
    nh = fr.NonholonomicSystem(L, mdl.frame, 2)
    fams = relative_equilibria(nh)
    assert len(fams) == 2
    point, circle = fams
    assert point.free == () and set(point.values) == {0}
    assert set(circle.free) == {q1, q2}
    (cond,) = circle.conditions
    assert is_zero(cond - (q1**2 + q2**2 - 1)) or is_zero(cond + (q1**2 + q2**2 - 1))
    lin = fr.linearize(nh, point.at())  # the top of the hat: unstable
    assert lin.stability() == "unstable"


def test_refusals():
    nh = fr.models.chaplygin_sleigh().nonholonomic()
    with pytest.raises(fr.errors.ArgumentError, match="not one of"):
        relative_equilibria(nh, known={"theta": 0})  # removed: not a reduced state
    (fam,) = relative_equilibria(nh)
    with pytest.raises(fr.errors.ArgumentError, match="not one of"):
        fam.at({"v1": 1})  # not free
    with pytest.raises(fr.errors.ArgumentError):
        RelativeEquilibrium(nh, fam.states, fam.values[:1], fam.free, (), (), fam.removed)
    with pytest.raises(fr.errors.ArgumentError, match="relative_equilibria: system"):
        relative_equilibria("sleigh")


# ---------------------------------------------------------------- inputs: a robot towing a trailer


def _robot_with_trailer(force: str) -> fr.NonholonomicSystem:
    """A two-wheeled robot (hitch at ``(x, y)``, heading ``θ``) towing a trailer (heading ``ψ``, axle a distance
    ``d`` behind the hitch), both rolling without side slip. ``force``: ``"drive"`` a force ``τ`` along the
    heading, ``"yaw"`` a torque ``τ`` about the vertical, ``"drag"`` the drive force against a drag ``c`` times
    the forward speed."""
    ch = fr.Chart("x y theta psi", params="m J m_t J_t d c tau")
    _x, _y, th, ps = ch.q
    ux, uy, uth, ups = ch.u
    m, J, mt, Jt, d, c, tau = ch.params
    vx, vy = ux + d * sp.sin(ps) * ups, uy - d * sp.cos(ps) * ups
    L = m / 2 * (ux**2 + uy**2) + J / 2 * uth**2 + mt / 2 * (vx**2 + vy**2) + Jt / 2 * ups**2
    rows = [-sp.sin(th) * ux + sp.cos(th) * uy, sp.expand(-sp.sin(ps) * vx + sp.cos(ps) * vy)]
    push = {"drive": tau, "drag": tau - c * (sp.cos(th) * ux + sp.sin(th) * uy)}.get(force)
    F = [0, 0, tau, 0] if push is None else [push * sp.cos(th), push * sp.sin(th), 0, 0]
    return fr.NonholonomicSystem.from_constraints(
        fr.Lagrangian(ch, sp.expand(L)), fr.LinearConstraints(ch, rows), forces=F
    )


@pytest.fixture(scope="module")
def drive():
    return _robot_with_trailer("drive")


@pytest.fixture(scope="module")
def drag():
    return _robot_with_trailer("drag")


def _param(nh, name):
    return next(p for p in nh.lagrangian.chart.params if p.name == name)


def test_a_pushed_robot_has_no_steady_motion_and_says_which_equation_has_no_zero(drive):
    tau = _param(drive, "tau")
    fams = relative_equilibria(drive, known={"theta": 0, "psi": 0})
    assert len(fams) == 0 and fams.obstructions
    (obs,) = fams.obstructions
    assert obs.rate.name == "v2" and obs.residual.free_symbols == {tau} and not obs.real
    assert dict(obs.at) == {drive.lagrangian.chart.q[2]: 0, drive.lagrangian.chart.q[3]: 0}
    assert "tau" in fams.reason and "dv2/dt" in fams.reason
    # without known values: every branch ends at the push, and the answer says so compactly
    fams = relative_equilibria(drive)
    assert len(fams) == 0 and fams.obstructions
    assert all(o.residual.free_symbols == {tau} for o in fams.obstructions)
    assert len(fams.reason) < 400


def test_known_parameters_and_inputs_solved_for(drive):
    th, ps = drive.lagrangian.chart.q[2:]
    tau = _param(drive, "tau")
    v1, v2 = drive.frame.v[:2]
    (fam,) = relative_equilibria(drive, known={"theta": 0, "psi": 0, "tau": 0})
    assert fam.solution == {th: 0, ps: 0, v1: 0, v2: v2} and fam.given == ((tau, 0),)
    (fam,) = relative_equilibria(drive, known={th: 0, ps: 0}, solve_for=[tau])
    assert fam.inputs == (tau,) and fam.solution[tau] == 0 and fam.free == (v2,)
    fams = relative_equilibria(drive, solve_for=["tau"])
    shapes = {(f.solution[ps] - f.solution[th], f.solution[v2] == 0) for f in fams}
    assert shapes == {(ps - th, True), (0, False), (sp.pi, False)}  # at rest anywhere; towing straight or jackknifed
    assert all(f.solution[tau] == 0 and f.solution[v1] == 0 for f in fams)


def test_a_drive_balancing_drag_is_the_input_of_a_steady_motion(drag):
    th, ps = drag.lagrangian.chart.q[2:]
    tau, c, d = (_param(drag, k) for k in ("tau", "c", "d"))
    v2 = drag.frame.v[1]
    (fam,) = relative_equilibria(drag, known={"theta": 0, "psi": 0}, solve_for=["tau"])
    assert is_zero(fam.solution[tau] - c * d * v2) and fam.free == (v2,)
    (fam,) = relative_equilibria(drag, known={"theta": 0, "psi": 0})  # tau given: the speed follows
    assert is_zero(fam.solution[v2] - tau / (c * d)) and fam.free == ()
    at = fam.at()  # towing straight along x at the speed where the drive balances the drag
    ux, uy = drag.lagrangian.chart.u[:2]
    assert is_zero(at[ux] - tau / c) and at[uy] == 0 and at[drag.lagrangian.chart.u[2]] == 0
    for f in relative_equilibria(drag):  # compact: short values and conditions, in the combined angle
        assert all(op_count(e) <= 12 for e in (*f.values, *f.conditions, *f.nonzero))
        assert is_zero(f.solution[ps] - th) or is_zero(f.solution[ps] - th - sp.pi)


def test_a_yaw_torque_has_no_steady_turn_unless_it_is_zero():
    nh = _robot_with_trailer("yaw")
    fams = relative_equilibria(nh)
    assert len(fams) == 0 and [o.rate.name for o in fams.obstructions] == ["v1"]
    assert all(f.solution[_param(nh, "tau")] == 0 for f in relative_equilibria(nh, solve_for=["tau"]))


def test_input_refusals(drive):
    with pytest.raises(fr.errors.ArgumentError, match="also in solve_for"):
        relative_equilibria(drive, known={"tau": 0}, solve_for=["tau"])
    with pytest.raises(fr.errors.ArgumentError, match=r"solve_for: 'theta' is not one of"):
        relative_equilibria(drive, solve_for=["theta"])
    with pytest.raises(fr.errors.ArgumentError, match="solve_for: expected a sequence"):
        relative_equilibria(drive, solve_for="tau")
    with pytest.raises(fr.errors.ArgumentError, match="repeats"):
        relative_equilibria(drive, solve_for=["tau", "tau"])
    with pytest.raises(fr.errors.ArgumentError, match="EquilibriumFamilies: families"):
        fr.results.EquilibriumFamilies(42)
    with pytest.raises(fr.errors.ArgumentError, match=r"EquilibriumFamilies: obstructions\[0\]"):
        fr.results.EquilibriumFamilies((), [42])


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=st.integers(-3, 3), k=st.sampled_from([0, 1]))
def test_at_any_heading_the_towing_speed_solves_the_rates(drag, a, k):
    """θ = a and ψ = a + kπ given: the drive that holds a speed v2 is c d v2, and every rate vanishes there."""
    _states, rates, _removed = reduced_equations(drag)
    (fam,) = relative_equilibria(drag, known={"theta": a, "psi": a + k * sp.pi}, solve_for=["tau"])
    sub = fam.solution
    assert all(is_zero(trig_normal(r.xreplace(sub))) for r in rates)
    assert is_zero(sub[_param(drag, "tau")] - _param(drag, "c") * _param(drag, "d") * drag.frame.v[1])
