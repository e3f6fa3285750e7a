"""The contract of :class:`frames.dynamics.DynamicsMethod`, run over every subclass of the library.

For each method class: its signatures accept the base's (same parameters, keyword-only, same defaults; further
options only keyword-only), ``equations()`` and ``accelerations()`` have the documented shapes, ``multipliers()``
answers or raises :class:`~frames.errors.NoMultipliersError`, ``canonical`` is checked, ``ode_system(subs=None)``
works and ``subs`` specialises it, and the instance is a value (equality and hash by its fields).
"""

from __future__ import annotations

import inspect

import pytest
import sympy as sp

import frames as fr
from frames._value import Multipliers
from frames.app import mechanics_import
from frames.dynamics import DynamicsMethod, is_model, nonholonomic_of
from frames.errors import ArgumentError, NoMultipliersError

BASE_METHODS = ("equations", "accelerations", "multipliers", "ode_system")


def _all_subclasses(cls: type) -> set[type]:
    out: set[type] = set()
    for sub in cls.__subclasses__():
        out |= {sub} | _all_subclasses(sub)
    return out


def _knife():
    mdl = fr.models.knife_edge()
    phi, _x, _y = mdl.chart.q
    _uphi, ux, uy = mdl.chart.u
    return mdl, -sp.sin(phi) * ux + sp.cos(phi) * uy


def _particle_chart():
    """The nonholonomic particle with a mass parameter (``subs`` has something to specialise)."""
    k = sp.Symbol("k", positive=True)
    ch = fr.Chart("x y z", params=[k])
    _x, y, z = ch.q
    ux, uy, uz = ch.u
    L = fr.Lagrangian(ch, (ux**2 + uy**2 + uz**2) / 2 - k * z)
    return ch, L, k, uz - y * ux


def _build(kind: str) -> tuple[DynamicsMethod, int, sp.Symbol | None]:
    """A small instance of each method class, its dimension n and a parameter ``subs`` can set (or None)."""
    if kind == "NonholonomicSystem":
        mdl = fr.models.rolling_coin_incline()
        return mdl.nonholonomic(), 4, mdl.params["g"]
    if kind == "VakonomicSystem":
        mdl = fr.models.nonholonomic_particle()
        return fr.VakonomicSystem(mdl.lagrangian, mdl.frame, m=2), 3, None
    if kind == "CartanSystem":
        mdl = fr.models.chaplygin_sleigh()
        return fr.CartanSystem(mdl.frame, mdl.lagrangian), 3, None
    if kind == "ChaplyginSystem":
        mdl = fr.models.nonholonomic_particle()
        X1, X2, X3 = mdl.frame.fields
        return fr.ChaplyginSystem(mdl.lagrangian, [X1, X2], [X3]), 3, None
    if kind in ("KozlovSystem", "ChetaevSystem", "ModifiedVakonomic"):
        ch, L, k, V = _particle_chart()
        if kind == "KozlovSystem":
            return fr.KozlovSystem(L, [V]), 3, k
        if kind == "ChetaevSystem":
            return fr.ChetaevSystem(L, [V]), 3, k
        return fr.ModifiedVakonomic(L, constraints=[V], auxiliary=list(ch.u[:2])), 3, k
    if kind == "MechanicsImport":
        mdl = fr.models.knife_edge()
        return mechanics_import(mdl.to_mechanics("lagrange")), 3, None
    raise AssertionError(f"no instance for {kind}: add one to the contract test")


KINDS = sorted(c.__name__ for c in _all_subclasses(DynamicsMethod))


def test_every_method_class_is_covered():
    expected = {
        "CartanSystem",
        "ChaplyginSystem",
        "ChetaevSystem",
        "KozlovSystem",
        "MechanicsImport",
        "ModifiedVakonomic",
        "NonholonomicSystem",
        "VakonomicSystem",
    }
    assert set(KINDS) >= expected, expected - set(KINDS)


def _params(f) -> dict[str, inspect.Parameter]:
    return dict(list(inspect.signature(f).parameters.items())[1:])  # without self


@pytest.mark.parametrize("kind", KINDS)
def test_signatures_accept_the_base(kind):
    cls = next(c for c in _all_subclasses(DynamicsMethod) if c.__name__ == kind)
    for name in BASE_METHODS:
        base, own = _params(getattr(DynamicsMethod, name)), _params(getattr(cls, name))
        var_kw = any(p.kind is p.VAR_KEYWORD for p in own.values())
        for pname, p in base.items():
            if pname in own:
                assert own[pname].kind is inspect.Parameter.KEYWORD_ONLY, (kind, name, pname)
                assert own[pname].default == p.default, (kind, name, pname)
            else:  # the base's options are declared, not passed through **options
                raise AssertionError(f"{kind}.{name} does not declare {pname}= (var keyword: {var_kw})")
        # no positional parameters beyond self: every option is keyword-only
        assert all(p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD) for p in own.values()), (kind, name, own)


@pytest.fixture(scope="module", params=KINDS)
def built(request):
    return request.param, *_build(request.param)


def test_equations_and_accelerations_have_the_documented_shapes(built):
    kind, method, n, _ = built
    acc = method.accelerations()
    assert isinstance(acc, sp.ImmutableMatrix) and acc.shape == (n, 1), kind
    eqs = method.equations()
    assert isinstance(eqs, fr.results.Equations) and len(eqs) >= n, kind
    assert all(isinstance(e, sp.Eq) for e in eqs), kind


def test_canonical_is_one_checked_option(built):
    _kind, method, _n, _ = built
    assert method.accelerations(canonical=True).shape == method.accelerations().shape
    with pytest.raises(ArgumentError, match="canonical"):
        method.accelerations(canonical="yes")


def test_multipliers_answer_or_raise_no_multipliers(built):
    kind, method, n, _ = built
    try:
        lam = method.multipliers()
    except NoMultipliersError as exc:
        assert kind in str(exc)
        assert kind in {"CartanSystem", "KozlovSystem", "ModifiedVakonomic"}, kind
        return
    assert isinstance(lam, Multipliers) and 0 < len(lam) <= n, kind
    for canonical in (True, False):
        assert isinstance(method.multipliers(canonical=canonical), Multipliers), (kind, canonical)
        assert len(method.multipliers(canonical=canonical)) == len(lam), (kind, canonical)


def test_ode_system_with_and_without_subs(built):
    kind, method, n, param = built
    ode = method.ode_system(subs=None)
    assert isinstance(ode, fr.OdeSystem) and ode.dim == n
    assert fr.ode_system(method) == ode
    if param is not None:
        assert param in ode.params, kind
        special = method.ode_system(subs={param: 2})
        assert param not in special.params, kind
        assert special.states == ode.states


def test_values_compare_and_hash_by_their_fields(built):
    kind, method, _n, _ = built
    # an import holds the SymPy method it read, which compares by identity: the same method read twice
    again = mechanics_import(method.method) if kind == "MechanicsImport" else _build(kind)[0]
    assert again == method and hash(again) == hash(method), kind
    assert method != fr.models.knife_edge().lagrangian


def test_the_base_is_abstract_and_refuses_a_partial_method():
    class Partial(DynamicsMethod):
        def equations(self):
            return fr.results.Equations(())

    with pytest.raises(TypeError, match="abstract"):
        Partial()


def test_nonholonomic_of_is_the_one_model_test():
    mdl = fr.models.knife_edge()
    nh = mdl.nonholonomic()
    assert is_model(mdl) and not is_model(nh) and not is_model(type(mdl))
    assert nonholonomic_of(mdl, "f: system") is nh and nonholonomic_of(nh, "f: system") is nh
    with pytest.raises(ArgumentError, match="f: system: expected a NonholonomicSystem or a Model, got Lagrangian"):
        nonholonomic_of(mdl.lagrangian, "f: system")
    with pytest.raises(ArgumentError, match=r"f: model: expected a frames\.models\.Model, got NonholonomicSystem"):
        nonholonomic_of(nh, "f: model", model=True)
    with pytest.raises(ArgumentError, match=r"ChaplyginSystem\.from_model: model: expected a frames\.models\.Model"):
        fr.ChaplyginSystem.from_model(nh)


@pytest.mark.parametrize("kind", ["ChetaevSystem", "KozlovSystem", "ModifiedVakonomic"])
def test_solution_is_a_deprecated_alias(kind):
    """``solution()`` is ``(accelerations(), multipliers())`` (Chetaev) or ``(accelerations(), rates())`` (the
    methods whose multipliers are states), with a DeprecationWarning."""
    method = _build(kind)[0]
    with pytest.warns(DeprecationWarning, match=r"accelerations\(\) and"):
        acc, second = method.solution()
    assert acc == method.accelerations()
    if kind == "ChetaevSystem":
        assert tuple(second) == tuple(method.multipliers())
    else:
        assert second == method.rates() and second.shape == (1, 1)


def test_no_forces_has_one_spelling():
    """None, an empty sequence and an all-zero one-form are one value: no forces (``forces is None``)."""
    mdl = fr.models.knife_edge()
    L, F = mdl.lagrangian, mdl.frame
    bare = fr.NonholonomicSystem(L, F, 2)
    for none in (None, (), [], [0, 0, 0], (sp.S.Zero, 0, 0 * mdl.chart.u[1])):
        nh = fr.NonholonomicSystem(L, F, 2, forces=none)
        assert nh.forces is None and nh == bare and hash(nh) == hash(bare), none
    damped = fr.NonholonomicSystem(L, F, 2, forces=[0, -mdl.chart.u[1], 0])
    assert damped.forces is not None and damped != bare
    _ch, Lp, _k, V = _particle_chart()
    aux = list(_ch.u[:2])
    assert fr.ModifiedVakonomic(Lp, [V], aux, forces=[]) == fr.ModifiedVakonomic(Lp, [V], aux)
    assert fr.ModifiedVakonomic(Lp, [V], aux, forces=[0, 0, 0]).forces is None
