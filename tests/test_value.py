"""Every system and symbolic result is a value: structural equality, a consistent hash, LaTeX display.

Numerical results (Trajectory, TrajectoryBatch, CompiledSystem) compare by identity, as documented.
"""

from __future__ import annotations

import pytest
import sympy as sp

import frames as fr
from frames import models


def _particle_objects(mdl):
    """Systems and results built from the nonholonomic particle (cheap); one call per object."""
    L, F, m = mdl.lagrangian, mdl.frame, mdl.m
    q1, _q2, _q3 = mdl.chart.q
    u1, u2, u3 = mdl.chart.u
    nh = fr.NonholonomicSystem(L, F, m)
    vk = fr.VakonomicSystem(L, F, m)
    (v1, v2, _v3) = F.v
    section = (sp.S.Zero,)
    cons = (q1 * u2 + u3,)
    return {
        "NonholonomicSystem": nh,
        "SecondOrderField": nh.field(),
        "VakonomicSystem": vk,
        "VakonomicField": vk.field(),
        "VakonomicTangentField": vk.tangent_field(section),
        "ConsistencyResult": fr.weak_consistency(vk, section),
        "VakonomicLift": fr.vakonomic_lift(vk, section),
        "CartanSystem": fr.CartanSystem(F, L),
        "CartanSolution": fr.CartanSystem(F, L).solution(),
        "Form": fr.CartanSystem(F, L).cartan_two_form(),
        "KozlovSystem": fr.KozlovSystem(L, cons),
        "KozlovFrameComparison": fr.compare_kozlov_with_frame(vk),
        "ChetaevSystem": fr.ChetaevSystem(L, cons),
        "ModifiedVakonomic": fr.ModifiedVakonomic(L, constraints=cons, auxiliary=[u1, u2]),
        "MVMEquivalence": fr.natural.compare_mvm_with_nonholonomic(
            fr.ModifiedVakonomic(L, constraints=cons, auxiliary=[u1, u2])
        ),
        "OdeSystem": fr.ode_system(nh.field(), system=nh),
        "CortesComparison": fr.CortesComparison(vk),
        "v1": v1,
        "v2": v2,
    }


@pytest.fixture(scope="module")
def pairs():
    a = _particle_objects(models.nonholonomic_particle())
    b = _particle_objects(models.nonholonomic_particle())
    return a, b


NAMES = [
    "NonholonomicSystem",
    "SecondOrderField",
    "VakonomicSystem",
    "VakonomicField",
    "VakonomicTangentField",
    "ConsistencyResult",
    "VakonomicLift",
    "CartanSystem",
    "CartanSolution",
    "Form",
    "KozlovSystem",
    "KozlovFrameComparison",
    "ChetaevSystem",
    "ModifiedVakonomic",
    "MVMEquivalence",
    "OdeSystem",
    "CortesComparison",
]


@pytest.mark.parametrize("name", NAMES)
def test_equal_inputs_give_equal_values_with_equal_hashes(pairs, name):
    a, b = pairs
    x, y = a[name], b[name]
    assert x is not y
    assert x == y and hash(x) == hash(y)
    assert len({x, y}) == 1
    assert x != object() and x != 0


@pytest.mark.parametrize("name", NAMES)
def test_latex_display(pairs, name):
    tex = pairs[0][name]._repr_latex_()
    assert tex.startswith("$") and tex.endswith("$") and len(tex) > 10
    assert "\\" in tex


def test_different_inputs_differ():
    p, k = models.nonholonomic_particle(), models.knife_edge()
    assert p.nonholonomic() != k.nonholonomic()
    assert fr.VakonomicSystem(p.lagrangian, p.frame, 2) != fr.VakonomicSystem(
        p.lagrangian.with_expr(2 * p.lagrangian.expr), p.frame, 2
    )
    assert p.nonholonomic().field() != k.nonholonomic().field()
    q1, q2, _q3 = p.chart.q
    u1, u2, u3 = p.chart.u
    assert fr.KozlovSystem(p.lagrangian, [q1 * u2 + u3]) != fr.KozlovSystem(p.lagrangian, [q2 * u1 + u3])


def test_systems_show_the_mathematics():
    p = models.nonholonomic_particle()
    nh = p.nonholonomic()
    tex = nh._repr_latex_()
    assert sp.latex(p.lagrangian.expr) in tex and r"\operatorname{span}" in tex and "v_{3} = 0" in tex
    vk = fr.VakonomicSystem(p.lagrangian, p.frame, p.m)
    assert r"\hat L" in vk._repr_latex_() and r"\mu_{3} v_{3}" in vk._repr_latex_()
    assert "X_{1}^C" in vk.field()._repr_latex_() and r"\frac{\partial}{\partial \mu_{3}}" in vk.field()._repr_latex_()
    car = models.two_wheeled_carriage()
    ch = fr.ChaplyginSystem.from_model(car)
    assert ch == fr.ChaplyginSystem.from_model(models.two_wheeled_carriage())
    assert sp.latex(car.lagrangian.expr) in ch._repr_latex_()


def test_numerical_results_compare_by_identity():
    mdl = models.knife_edge()
    nh = mdl.nonholonomic()
    a = fr.integrate(nh, (0.0, 0.2), mdl.q0, mdl.u0, params=mdl.param_values)
    b = fr.integrate(nh, (0.0, 0.2), mdl.q0, mdl.u0, params=mdl.param_values)
    assert a == a and a != b
    assert "identity" in (fr.results.Trajectory.__doc__ or "") and "identity" in (
        fr.numeric.CompiledSystem.__doc__ or ""
    )
    assert fr.ode_system(nh) == fr.ode_system(mdl.nonholonomic())  # OdeSystem is a value


def test_multipliers_show_as_latex_equations_and_stay_tuples():
    """The multipliers tuple has ``_repr_latex_`` (λ_a = …, a = m+1..n) and is a tuple."""
    import frames as fr

    nh = fr.models.knife_edge().nonholonomic()
    lam = nh.multipliers()
    assert isinstance(lam, tuple) and lam == tuple(lam) and hash(lam) == hash(tuple(lam))
    tex = lam._repr_latex_()
    assert tex.startswith("$\\begin{aligned}") and "\\lambda_{3} &=" in tex
    assert sp.latex(lam[0]) in tex
