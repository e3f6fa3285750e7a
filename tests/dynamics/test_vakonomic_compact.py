"""The default vakonomic results are compact and exact: they equal the canonical forms.

``VakonomicSystem.field()`` and ``tangent_field()`` hold exact trees derived in mass-matrix form (the canonical form
only when small or no larger, :func:`frames.algebra.compact`); ``canonical=True`` gives the canonical form, which
decides. As ``tests/dynamics/test_compact.py`` for the nonholonomic method: random systems whose metric and frame mix
compound angles, and the dense 4-dof system file of issue 42.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import frames as fr
from frames import strategies as fst
from frames.algebra import is_zero, op_count

DENSE = Path(__file__).resolve().parents[1] / "app" / "data" / "dense4.toml"


def _equal(xs, ys) -> bool:
    return all(is_zero(a - b) for a, b in zip(xs, ys, strict=True))


def _check(vk: fr.VakonomicSystem) -> None:
    F, Fc = vk.field(), vk.field(canonical=True)
    assert _equal(F.Gamma, Fc.Gamma) and F.A == Fc.A and F.mu == Fc.mu
    T, Tc = vk.field(canonical=False), vk.field(canonical=True)
    assert _equal(T.Gamma, Tc.Gamma)
    k = vk.n - vk.m
    phi, A = [vk.frame.v[0]] * k, [vk.frame.chart.q[0]] * k  # a section and values of A_a
    assert _equal(vk.field(phi, A, canonical=False).Gamma, vk.field(phi, A, canonical=True).Gamma)
    tf, tfc = vk.tangent_field(canonical=False), vk.tangent_field(canonical=True)
    assert _equal(tf.Gamma, tfc.Gamma) and _equal(tf.A, tfc.A) and _equal(tf.Lambda, tfc.Lambda)
    assert _equal(vk.tangent_field().A, tfc.A)
    g, b = vk.linear_system(canonical=False)
    assert _equal(sp.Matrix(g) * sp.Matrix(list(Fc.Gamma)) - sp.Matrix(b), [0] * vk.n)


@st.composite
def compound_systems(draw):
    ch = fr.Chart("q1 q2 q3")
    F = draw(fst.frames_on(ch, compound=True))
    L = draw(fst.quadratic_lagrangians(ch, gyroscopic=draw(st.booleans())))
    return fr.VakonomicSystem(L, F, m=draw(st.sampled_from([1, 2])))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(compound_systems())
def test_default_vakonomic_results_equal_the_canonical_ones_on_random_compound_systems(vk):
    try:
        vk.field(canonical=True)
    except fr.errors.RegularityError:  # a random metric singular on C: the default says so as well
        with pytest.raises(fr.errors.RegularityError):
            vk.field()
        return
    _check(vk)


@pytest.mark.parametrize("name", ["nonholonomic-particle", "knife-edge", "chaplygin-sleigh"])
def test_small_vakonomic_results_are_the_canonical_forms(name):
    mdl = fr.models.get(name)
    vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, mdl.m)
    assert vk.field() == vk.field(canonical=True)
    assert vk.tangent_field() == vk.tangent_field(canonical=True)


def _dense_with_values() -> fr.VakonomicSystem:
    """The dense file's system with its parameters replaced by their (rational) values: the canonical form of the
    symbolic one takes minutes; the structure (compound, product and nested arguments) is the same."""
    mdl = fr.load_model(DENSE)
    vals = {p: sp.Rational(str(v)) for p, v in mdl.param_values.items()}
    L = fr.Lagrangian(mdl.lagrangian.chart, mdl.lagrangian.expr.xreplace(vals))
    return fr.VakonomicSystem(L, mdl.frame, mdl.m)


def test_dense_file_default_field_is_held_as_trees_and_solves_the_canonical_system():
    """The symbolic dense file: the default field is the trees (compound arguments: the canonical form is not
    tried), well below the canonical form's 316,497 operations (36,462); its equality with the canonical form is
    decided on the same system with the parameters' values (the slow test below)."""
    mdl = fr.load_model(DENSE)
    vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, mdl.m)
    F = vk.field()
    assert F is vk.field(canonical=False)
    assert sum(op_count(x) for x in F.Gamma) < 100_000


@pytest.mark.slow
def test_dense_file_default_vakonomic_results_equal_the_canonical_ones():
    _check(_dense_with_values())


def test_time_dependent_vakonomic_trees_equal_the_canonical_forms():
    """A Lagrangian with ``tau(t) phi`` (examples/systems/driven_knife_edge.toml): the trees carry ``∂_t`` terms."""
    mdl = fr.load_model(Path(__file__).resolve().parents[2] / "examples" / "systems" / "driven_knife_edge.toml")
    vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, mdl.m)
    assert mdl.lagrangian.time_dependent
    _check(vk)
