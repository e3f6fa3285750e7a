"""Relative equilibria from the reduced equations (``frames.dynamics.relative_equilibria``), exact families."""

import pytest
import sympy as sp

import frames as fr
from frames.algebra import is_zero
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
