"""The validated Model: invariants at construction, typed parts, structural equality."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

import frames as fr
from frames import models


@pytest.fixture(scope="module")
def particle():
    return models.nonholonomic_particle()


@pytest.mark.parametrize("name", sorted(models.catalogue()))
def test_every_catalogue_model_constructs_and_equals_a_fresh_copy(name):
    a, b = models.get(name), models.get(name)
    assert a == b and hash(a) == hash(b) and a is not b


def test_different_models_differ():
    assert models.class71(1) != models.class71(2)
    assert models.knife_edge() != models.chaplygin_sleigh()
    assert models.charged_skate() != models.charged_skate(time_dependent=True)
    assert len({models.knife_edge(), models.knife_edge(), models.vertical_rolling_disk()}) == 2


def test_round_trip_through_a_system_file_gives_an_equal_model():
    for mdl in (models.knife_edge(), models.nonholonomic_particle(), models.two_wheeled_carriage()):
        back = fr.loads_system(fr.dump_system(mdl))
        back = dataclasses.replace(back, name=mdl.name)
        assert back.chart == mdl.chart and back.frame == mdl.frame and back.m == mdl.m
        assert back.structure_constants == mdl.structure_constants and back.group == mdl.group


def _bad(model, **changes):
    return lambda: dataclasses.replace(model, **changes)


def test_chart_mismatch(particle):
    other = fr.Chart("a b c")
    with pytest.raises(fr.ChartMismatchError, match="'nonholonomic-particle': lagrangian"):
        _bad(particle, lagrangian=fr.Lagrangian(other, other.u[0] ** 2))()
    with pytest.raises(fr.ChartMismatchError, match="frame"):
        _bad(particle, frame=fr.Frame.coordinate(other))()
    with pytest.raises(fr.InvalidExpressionError, match="chart"):
        _bad(particle, chart="q1 q2 q3")()


@pytest.mark.parametrize("m", [0, 3, 5, True, 1.0, "2"])
def test_m_is_the_rank_of_D(particle, m):
    with pytest.raises(fr.ConstraintError, match="m"):
        _bad(particle, m=m)()


def test_wrong_number_of_constraints(particle):
    with pytest.raises(fr.ConstraintError, match=r"m: must equal n − \(number of constraints\)"):
        _bad(particle, m=1)()


def test_first_m_fields_must_span_D(particle):
    ch = particle.chart
    F = fr.Frame([fr.VectorField.coordinate(ch, i) for i in range(3)])
    with pytest.raises(fr.ConstraintError, match=r"frame\[1\].*violates the constraints"):
        _bad(particle, frame=F)()


def test_params_and_values(particle):
    x = sp.Symbol("x_unknown")
    with pytest.raises(fr.InvalidExpressionError, match="params"):
        _bad(particle, params={"x": x})()
    with pytest.raises(fr.InvalidExpressionError, match="param_values"):
        _bad(particle, param_values={x: 1.0})()
    k = models.knife_edge()
    (msym,) = [s for s in k.params.values() if s.name == "m"]
    with pytest.raises(fr.InvalidExpressionError, match=r"param_values.*finite"):
        _bad(k, param_values={msym: float("nan")})()


def test_initial_data(particle):
    q1, q2, q3 = particle.chart.q
    u1, u2, u3 = particle.chart.u
    with pytest.raises(fr.InvalidExpressionError, match="q0"):
        _bad(particle, q0={u1: 0.0})()
    with pytest.raises(fr.InvalidExpressionError, match="u0"):
        _bad(particle, u0={q1: 0.0})()
    with pytest.raises(fr.ConstraintError, match="u0: violates constraint 1"):
        _bad(particle, q0={q1: 1.0, q2: 0.0, q3: 0.0}, u0={u1: 0.0, u2: 1.0, u3: 0.0})()
    ok = _bad(particle, q0={q1: 1.0, q2: 0.0, q3: 0.0}, u0={u1: 0.0, u2: 1.0, u3: -1.0})()
    assert ok != particle


def test_group_structure_constants_and_mvm_data():
    car = models.two_wheeled_carriage()
    with pytest.raises(fr.InvalidExpressionError, match="group"):
        _bad(car, group=(0, 3, 4))()
    with pytest.raises(fr.InvalidExpressionError, match="group"):
        _bad(car, group=(2, 2, 4))()
    with pytest.raises(fr.InvalidExpressionError, match="structure_constants"):
        _bad(car, structure_constants={(2, 1): {3: 1}})()
    coin = models.rolling_coin_incline()
    with pytest.raises(fr.ConstraintError, match="auxiliary"):
        _bad(coin, auxiliary=coin.auxiliary[:1])()
    with pytest.raises(fr.ConstraintError, match="mvm_constraints"):
        _bad(coin, mvm_constraints=coin.mvm_constraints[:1])()


def test_extras_is_a_deprecated_view_of_the_typed_parts():
    car = models.two_wheeled_carriage()
    with pytest.warns(DeprecationWarning, match="typed fields"):
        ex = car.extras
    assert ex["structure_constants"] == car.structure_constants
    coin = models.rolling_coin_incline()
    with pytest.warns(DeprecationWarning):
        assert coin.extras["auxiliary"] == coin.auxiliary
    with pytest.warns(DeprecationWarning):
        assert models.class71(2).extras["deltas"] == models.class71(2).symbols["deltas"]


def test_user_file_invariant_errors_name_the_key(tmp_path):
    good = fr.dump_system(models.two_wheeled_carriage())
    bad = good.replace("group = [3, 4, 5]", "group = [1, 4, 5]")
    assert bad != good
    with pytest.raises(fr.SystemFileError) as info:
        fr.loads_system(bad)
    assert info.value.key == "group" and "transverse" in info.value.reason
