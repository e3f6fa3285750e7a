"""The validated Model: invariants at construction, typed parts, structural equality.

Each invariant test builds a valid model and ``dataclasses.replace``-s it into an invalid one; the
error has exactly the documented type, and its message names the model and the part.
"""

from __future__ import annotations

import dataclasses
import math

import pytest
import sympy as sp

import frames as fr
from frames import models


@pytest.fixture(scope="module")
def particle():
    return models.nonholonomic_particle()


@pytest.fixture(scope="module")
def knife():
    return models.knife_edge()


@pytest.fixture(scope="module")
def carriage():
    return models.two_wheeled_carriage()


@pytest.fixture(scope="module")
def coin():
    return models.rolling_coin_incline()


def _invalid(kind, part, model, **changes):
    """``replace(model, **changes)`` raises exactly ``kind``, naming the model and ``part``; returns the error."""
    with pytest.raises(fr.FramesError) as info:
        dataclasses.replace(model, **changes)
    err = info.value
    assert type(err) is kind, f"{type(err).__name__} raised, {kind.__name__} expected: {err}"
    assert f"Model {model.name!r}: {part}: " in str(err), str(err)
    assert err.part == part
    return err


# ----------------------------------------------------------------------------- catalogue
ALL_MODELS = [
    *(pytest.param(ctor, id=name) for name, ctor in sorted(models.catalogue().items())),
    pytest.param(lambda: models.abelian_chaplygin(3), id="abelian_chaplygin-k3"),
    pytest.param(lambda: models.abelian_chaplygin(2, deltas=lambda q1, a: q1**a), id="abelian_chaplygin-concrete"),
    pytest.param(lambda: models.charged_skate(time_dependent=True), id="charged-skate-t"),
]


@pytest.mark.parametrize("ctor", ALL_MODELS)
def test_every_catalogue_model_constructs_and_equals_a_fresh_copy(ctor):
    a, b = ctor(), ctor()
    assert isinstance(a, models.Model)
    assert a == b and hash(a) == hash(b) and a is not b
    assert dataclasses.replace(a) == a
    assert a.constraints.k == a.n - a.m


def test_different_models_differ():
    assert models.abelian_chaplygin(1) != models.abelian_chaplygin(2)
    assert models.knife_edge() != models.chaplygin_sleigh()
    assert models.charged_skate() != models.charged_skate(time_dependent=True)
    assert models.abelian_chaplygin(1) != models.abelian_chaplygin(1, deltas=[sp.Symbol("q1")])
    assert len({models.knife_edge(), models.knife_edge(), models.vertical_rolling_disk()}) == 2
    assert models.knife_edge() != "knife-edge"


def test_every_part_takes_part_in_equality(knife):
    (msym,) = [s for s in knife.params.values() if s.name == "m"]
    x = knife.chart.q[1]
    for changes in (
        {"name": "other"},
        {"citation": "other"},
        {"notes": "n"},
        {"q0": {x: 1.0}},
        {"param_values": {msym: 2.0}},
        {"units": {"m": "kg"}},
        {"symbols": {"two_m": 2 * msym}},
    ):
        other = dataclasses.replace(knife, **changes)
        assert other != knife, changes
    assert dataclasses.replace(knife, units={"m": "kg"}) == dataclasses.replace(knife, units={"m": "kg"})


def test_a_model_owns_its_mappings(particle):
    q1 = particle.chart.q[0]
    q0 = dict(particle.q0)
    mdl = dataclasses.replace(particle, q0=q0)
    h = hash(mdl)
    q0[q1] = 123.0
    assert mdl.q0[q1] == particle.q0[q1] and hash(mdl) == h


@pytest.mark.parametrize(
    "name", ["nonholonomic-particle", "knife-edge", "chaplygin-sleigh", "vertical-rolling-disk", "two-wheeled-carriage"]
)
def test_dump_and_load_of_a_system_file_gives_an_equal_model(name):
    mdl = models.get(name)
    back = fr.loads_model(fr.dumps_model(mdl))
    assert back == mdl and hash(back) == hash(mdl)


@pytest.mark.parametrize("ctor", ALL_MODELS)
def test_a_loaded_system_file_round_trips_exactly(ctor):
    # parts a file cannot carry (mvm_constraints, deltas, symbols, exact parameter values) are
    # dropped by the first trip; from then on dump/load is the identity
    once = fr.loads_model(fr.dumps_model(ctor()))
    assert fr.loads_model(fr.dumps_model(once)) == once


# ----------------------------------------------------------------------------- charts
def test_chart_must_be_a_chart(particle):
    _invalid(fr.errors.InvalidExpressionError, "chart", particle, chart="q1 q2 q3")


def test_lagrangian_on_the_chart(particle):
    other = fr.Chart("a b c")
    _invalid(fr.errors.ChartMismatchError, "lagrangian", particle, lagrangian=fr.Lagrangian(other, other.u[0] ** 2))


def test_frame_on_the_chart(particle):
    _invalid(fr.errors.ChartMismatchError, "frame", particle, frame=fr.Frame.coordinate(fr.Chart("a b c")))


def test_constraints_on_the_chart(particle):
    other = fr.Chart("a b c")
    _invalid(
        fr.errors.ChartMismatchError, "constraints", particle, constraints=fr.LinearConstraints(other, [other.u[0]])
    )


def test_parts_on_the_chart_with_its_velocities_and_time(particle):
    ch = particle.chart
    timed = fr.Chart([s.name for s in ch.q], time=True)
    _invalid(fr.errors.ChartMismatchError, "lagrangian", particle, chart=timed)
    renamed = fr.Chart([s.name for s in ch.q], ["w1", "w2", "w3"])
    _invalid(fr.errors.ChartMismatchError, "lagrangian", particle, chart=renamed)


def test_parts_have_their_types(particle):
    _invalid(fr.errors.InvalidExpressionError, "lagrangian", particle, lagrangian=particle.lagrangian.expr)
    _invalid(fr.errors.InvalidExpressionError, "frame", particle, frame=list(particle.frame.fields))
    _invalid(fr.errors.InvalidExpressionError, "constraints", particle, constraints=particle.constraints.functions)
    _invalid(fr.errors.InvalidExpressionError, "citation", particle, citation=None)


# ----------------------------------------------------------------------------- rank and D
@pytest.mark.parametrize("m", [0, 3, 5, -1, True, 2.0, "2"])
def test_m_is_an_int_with_0_lt_m_lt_n(particle, m):
    err = _invalid(fr.errors.ConstraintError, "m", particle, m=m)
    assert "0 < m < n = 3" in str(err)


def test_m_is_n_minus_the_number_of_constraints(particle):
    err = _invalid(fr.errors.ConstraintError, "m", particle, m=1)
    assert "n − (number of constraints) = 3 − 1 = 2" in str(err)


def test_the_first_m_frame_fields_span_D(particle):
    ch = particle.chart
    F = fr.Frame([fr.VectorField.coordinate(ch, i) for i in range(3)])
    err = _invalid(fr.errors.ConstraintError, "frame[1]", particle, frame=F)
    assert "violates the constraints" in str(err)


def test_a_frame_dual_to_a_coframe_ending_with_the_constraints_spans_D(particle):
    """A frame told its coframe (``Frame.from_coframe``, as the import of a KanesMethod builds it) whose last rows
    are the constraints spans D by duality; the same rows first, or scaled, are checked field by field."""
    ch, q1 = particle.chart, particle.chart.q[0]
    ok = fr.Frame.from_coframe(ch, [[1, 0, 0], [0, 1, 0], [0, q1, 1]])
    assert dataclasses.replace(particle, frame=ok).frame is ok
    scaled = fr.Frame.from_coframe(ch, [[1, 0, 0], [0, 1, 0], [0, 2 * q1, 2]])
    assert dataclasses.replace(particle, frame=scaled).frame is scaled
    first = fr.Frame.from_coframe(ch, [[0, q1, 1], [0, 1, 0], [1, 0, 0]])
    err = _invalid(fr.errors.ConstraintError, "frame[0]", particle, frame=first)
    assert "violates the constraints" in str(err)


def test_the_span_test_is_exact_not_numerical(carriage):
    # X2 and the constraints agree only up to sin²θ + cos²θ = 1: an exact zero test accepts it
    ch = carriage.chart
    th = ch.q[4]
    R, c = carriage.params["R"], carriage.params["c"]
    X2 = fr.VectorField(
        ch,
        [0, 1, -R / 2 * sp.cos(th) * (sp.sin(th) ** 2 + sp.cos(th) ** 2), -R / 2 * sp.sin(th), R / (2 * c)],
    )
    F = fr.Frame([carriage.frame.fields[0], X2, *carriage.frame.fields[2:]])
    assert dataclasses.replace(carriage, frame=F).frame == F


# ----------------------------------------------------------------------------- parameters
def test_params_are_the_charts_parameter_symbols(particle, knife):
    _invalid(fr.errors.ParameterError, "params", particle, params={"x": sp.Symbol("x")})
    (msym,) = [s for s in knife.params.values() if s.name == "m"]
    err = _invalid(fr.errors.ParameterError, "params", knife, params={**knife.params, "mass": msym})
    assert "'mass'" in str(err)
    _invalid(fr.errors.ParameterError, "params", knife, params=[msym])


def test_units_name_declared_parameters(knife):
    assert dataclasses.replace(knife, units={"m": "kg", "J": "kg m^2"}).units == {"m": "kg", "J": "kg m^2"}
    _invalid(fr.errors.ParameterError, "units", knife, units={"mass": "kg"})
    _invalid(fr.errors.ParameterError, "units", knife, units={"m": 1})


def test_functions_name_their_arguments(particle):
    assert dataclasses.replace(particle, functions={"F": ["q1"]}).functions == {"F": ("q1",)}
    _invalid(fr.errors.InvalidExpressionError, "functions", particle, functions={"F": "q1"})
    _invalid(fr.errors.InvalidExpressionError, "functions", particle, functions={"F": (1,)})


def test_param_values_keys_are_declared_parameters(knife):
    err = _invalid(fr.errors.ParameterError, "param_values", knife, param_values={sp.Symbol("x_unknown"): 1.0})
    assert "x_unknown" in str(err)


@pytest.mark.parametrize("value", [math.nan, math.inf, "1.0", None, sp.Symbol("z"), sp.I])
def test_param_values_are_finite_real_numbers(knife, value):
    (msym,) = [s for s in knife.params.values() if s.name == "m"]
    err = _invalid(fr.errors.ParameterError, "param_values", knife, param_values={msym: value})
    assert "finite real number" in str(err)


def test_param_values_may_be_exact(coin):
    assert any(isinstance(v, sp.Basic) and not v.is_Float for v in coin.param_values.values())  # alpha = pi/6


# ----------------------------------------------------------------------------- initial data
def test_q0_keys_are_coordinates(particle):
    _invalid(fr.errors.StateError, "q0", particle, q0={particle.chart.u[0]: 0.0})


def test_u0_keys_are_velocities(particle):
    _invalid(fr.errors.StateError, "u0", particle, u0={particle.chart.q[0]: 0.0})


@pytest.mark.parametrize("value", [math.inf, math.nan, "0.5", sp.Symbol("z")])
def test_initial_values_are_finite_numbers(particle, value):
    q1, u1 = particle.chart.q[0], particle.chart.u[0]
    _invalid(fr.errors.StateError, "q0", particle, q0={q1: value})
    _invalid(fr.errors.StateError, "u0", particle, u0={u1: value})


def test_u0_lies_in_D_at_q0(particle):
    q1, q2, q3 = particle.chart.q
    u1, u2, u3 = particle.chart.u
    q0 = {q1: 1.0, q2: 0.0, q3: 0.0}
    err = _invalid(fr.errors.InconsistentInitialDataError, "u0", particle, q0=q0, u0={u1: 0.0, u2: 1.0, u3: 0.0})
    assert "violates constraint 1" in str(err)
    ok = dataclasses.replace(particle, q0=q0, u0={u1: 0.0, u2: 1.0, u3: -1.0})
    assert ok != particle
    # the test is numerical, with a relative tolerance ~1e-9
    dataclasses.replace(particle, q0=q0, u0={u1: 0.0, u2: 1.0, u3: -1.0 + 1e-12})
    _invalid(fr.errors.InconsistentInitialDataError, "u0", particle, q0=q0, u0={u1: 0.0, u2: 1.0, u3: -1.0 + 1e-6})


def test_u0_in_D_uses_the_parameter_values(carriage):
    pv = dict(carriage.param_values)
    pv[carriage.params["R"]] = 0.3  # the default u0 is in D for R = 0.2 only
    _invalid(fr.errors.InconsistentInitialDataError, "u0", carriage, param_values=pv)
    # without a value for R nothing can be checked numerically
    del pv[carriage.params["R"]]
    assert dataclasses.replace(carriage, param_values=pv).param_values == pv


# ----------------------------------------------------------------------------- group and MVM data
@pytest.mark.parametrize("group", [(0, 3, 4), (2, 3, 5), (2, 2, 4), (2, True, 4), (2.0,)])
def test_group_indices_are_distinct_transverse_frame_indices(carriage, group):
    _invalid(fr.errors.InvalidExpressionError, "group", carriage, group=group)


@pytest.mark.parametrize("sc", [{(2, 1): {3: 1}}, {(2, 4): {0: 1}}, {(2,): {3: 1}}, {(2, 4): 1}])
def test_structure_constants_refer_to_group_fields(carriage, sc):
    _invalid(fr.errors.InvalidExpressionError, "structure_constants", carriage, structure_constants=sc)


def test_auxiliary_has_m_functions(coin):
    err = _invalid(fr.errors.ConstraintError, "auxiliary", coin, auxiliary=coin.auxiliary[:1])
    assert "m = 2" in str(err)


def test_mvm_constraints_have_n_minus_m_rows(coin):
    _invalid(fr.errors.ConstraintError, "mvm_constraints", coin, mvm_constraints=coin.mvm_constraints[:1])


def test_deltas_one_per_constraint():
    mdl = models.abelian_chaplygin(2)
    _invalid(fr.errors.ConstraintError, "deltas", mdl, deltas=mdl.deltas[:1])


def test_expressions_live_on_the_chart(coin):
    z = sp.Symbol("z_unknown")
    err = _invalid(fr.errors.InvalidExpressionError, "auxiliary", coin, auxiliary=(coin.auxiliary[0], z))
    assert "z_unknown" in str(err)
    _invalid(fr.errors.InvalidExpressionError, "mvm_constraints", coin, mvm_constraints=(z, coin.mvm_constraints[1]))
    _invalid(fr.errors.InvalidExpressionError, "symbols", coin, symbols={"s": "not parsed"})
    _invalid(fr.errors.InvalidExpressionError, "symbols", coin, symbols={1: sp.S.One})


# ----------------------------------------------------------------------------- typed parts and extras
def test_typed_parts():
    assert models.two_wheeled_carriage().structure_constants == {(2, 4): {3: -1}, (3, 4): {2: 1}}
    assert len(models.abelian_chaplygin(3).deltas) == 3 and models.knife_edge().deltas == ()
    skate = models.charged_skate()
    assert set(skate.symbols) == {"B0", "I3"} and skate.symbols["B0"] == skate.params["B0"]
    coin = models.rolling_coin_incline()
    assert len(coin.auxiliary) == coin.m and len(coin.mvm_constraints) == coin.n - coin.m


# ----------------------------------------------------------------------------- system files
@pytest.mark.parametrize(
    "old, new, key, reason",
    [
        ("group = [3, 4, 5]", "group = [1, 4, 5]", "group", "transverse"),
        ("m = 2", "m = 3", "m", "number of constraints"),
        ("u_x = -0.15", "u_x = 0.15", "initial.u", "u0 must lie in D"),
    ],
)
def test_user_file_invariant_errors_name_the_key(carriage, old, new, key, reason):
    good = fr.dumps_model(carriage)
    bad = good.replace(old, new)
    assert bad != good
    with pytest.raises(fr.errors.SystemFileError) as info:
        fr.loads_model(bad)
    assert info.value.key == key and reason in info.value.reason
