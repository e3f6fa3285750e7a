"""The result records of :mod:`frames.results` check their fields: nonsense is refused at construction with an
:class:`~frames.errors.ArgumentError` naming the record and the field, never a ``TypeError`` deep inside later."""

from __future__ import annotations

import dataclasses
import inspect
import typing

import numpy as np
import pytest
import sympy as sp

import frames as fr
from frames import models, results
from frames._value import Record, Value, _field_specs, check_fields

#: the results that are not value records, and check their arguments themselves
NOT_RECORDS = {"Equations", "Multipliers", "Report", "Trajectory", "TrajectoryBatch", "EquilibriumFamilies"}
CLASSES = [getattr(results, n) for n in results.__all__]


def test_every_value_result_is_a_record():
    for cls in CLASSES:
        if cls.__name__ in NOT_RECORDS:
            assert not (isinstance(cls, type) and issubclass(cls, Value)), cls
        else:
            assert issubclass(cls, Record), f"{cls.__name__} is a result value but not a Record"


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_nonsense_is_refused_naming_the_record_and_a_field(cls):
    if dataclasses.is_dataclass(cls):
        required = [
            f for f in dataclasses.fields(cls) if f.init and f.default is f.default_factory is dataclasses.MISSING
        ]
    else:
        required = [p for p in inspect.signature(cls).parameters.values() if p.default is inspect.Parameter.empty]
    with pytest.raises(fr.errors.ArgumentError, match=rf"^{cls.__name__}: \w+"):
        cls(*([42] * max(len(required), 1)))


@pytest.mark.parametrize("cls", [c for c in CLASSES if c.__name__ not in NOT_RECORDS], ids=lambda c: c.__name__)
def test_every_field_of_a_record_is_checked(cls):
    """Every declared field is read by the check, but a field typed ``Any``."""
    checked = {name for name, _ in _field_specs(cls)}
    for f in dataclasses.fields(cls):
        assert f.name in checked or f.type == "Any", f"{cls.__name__}.{f.name} ({f.type}) is not checked"


def _instances():
    mdl = models.nonholonomic_particle()
    L, F, m = mdl.lagrangian, mdl.frame, mdl.m
    u1, u2, u3 = mdl.chart.u
    q1 = mdl.chart.q[0]
    vk = fr.VakonomicSystem(L, F, m)
    section = (sp.S.Zero,)
    sleigh = models.chaplygin_sleigh().nonholonomic()
    x = sp.Symbol("x")
    return [
        vk.field(),
        vk.tangent_field(section),
        fr.weak_consistency(vk, section),
        fr.vakonomic_lift(vk, section),
        fr.CartanSystem(F, L).solution(),
        fr.compare_kozlov_with_frame(vk),
        fr.natural.compare_mvm_with_nonholonomic(
            fr.ModifiedVakonomic(L, constraints=(q1 * u2 + u3,), auxiliary=[u1, u2])
        ),
        fr.relative_equilibria(sleigh)[0],
        fr.linearize(sleigh, fr.relative_equilibria(sleigh)[0].at({"v2": 1})),
        fr.algebra.decide_zero(sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1),
    ]


@pytest.fixture(scope="module")
def instances():
    return _instances()


def test_real_records_rebuild_and_each_wrong_field_is_named(instances):
    wrong = object()
    for rec in instances:
        cls = type(rec)
        assert dataclasses.replace(rec) == rec  # the check accepts what the library builds
        for name, _spec in _field_specs(cls):
            with pytest.raises(fr.errors.ArgumentError, match=rf"^{cls.__name__}: {name}\b"):
                dataclasses.replace(rec, **{name: wrong})


def test_entries_of_containers_are_named_by_index(instances):
    fam = next(r for r in instances if isinstance(r, results.RelativeEquilibrium))
    with pytest.raises(fr.errors.ArgumentError, match=r"^RelativeEquilibrium: values\[1\]: expected a sympy"):
        dataclasses.replace(fam, values=(fam.values[0], "v2"))
    with pytest.raises(fr.errors.ArgumentError, match=r"^RelativeEquilibrium: values: 1 values for the 2 states"):
        dataclasses.replace(fam, values=fam.values[:1])
    with pytest.raises(fr.errors.ArgumentError, match=r"^RelativeEquilibrium: given\[0\]: expected a tuple of 2"):
        dataclasses.replace(fam, given=((sp.Symbol("a"), 1, 2),))


def test_the_rules_of_declared_types():
    class Probe(Record):
        a: int
        b: float | None
        c: tuple[sp.Symbol, sp.Expr]
        d: dict[str, sp.Expr]
        e: typing.Literal["x", "y"]
        f: np.ndarray
        g: typing.Any
        h: NotImportedAnywhere  # type: ignore[name-defined]  # noqa: F821 - unresolvable: not checked

    x = sp.Symbol("x")
    ok = dict(a=1, b=None, c=(x, x + 1), d={"k": x}, e="x", f=np.zeros(2), g=object(), h=object())
    Probe(**ok)
    bad = {
        "a": (True, r"^Probe: a: expected a int, got bool"),
        "b": ("1", r"^Probe: b: expected a float or None"),
        "c": ((x,), r"^Probe: c: expected a tuple of 2 entries, got 1"),
        "d": ({1: x}, r"^Probe: d key 1: expected a str"),
        "e": ("z", r"^Probe: e: expected 'x' or 'y'"),
        "f": ([0.0], r"^Probe: f: expected a ndarray"),
    }
    for field, (value, pattern) in bad.items():
        with pytest.raises(fr.errors.ArgumentError, match=pattern):
            Probe(**(ok | {field: value}))


def test_check_fields_of_a_plain_dataclass_leaves_lazy_fields_unread():
    @dataclasses.dataclass
    class Plain:
        n: int

    check_fields(Plain(3))
    with pytest.raises(fr.errors.ArgumentError, match=r"^Plain: n: expected a int, got str"):
        check_fields(Plain("3"))  # type: ignore[arg-type]
    mdl = models.knife_edge()
    tr = fr.integrate(mdl.nonholonomic(), (0.0, 0.1), mdl.q0, mdl.u0, params=mdl.param_values)
    assert isinstance(tr, results.Trajectory) and np.all(np.isfinite(tr.q))
