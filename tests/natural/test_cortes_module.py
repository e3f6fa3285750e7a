"""``frames/natural/_cortes.py``: the comparison algorithm of Cortés, de León, Martín de Diego & Martínez."""

import sympy as sp

import frames as fr
from frames.algebra import is_zero


def _penny():
    mdl = fr.models.rolling_penny()
    return fr.CortesComparison(fr.VakonomicSystem(mdl.lagrangian, mdl.frame, mdl.m))


def test_the_penny_closes_in_three_final_branches_that_contain_their_special_cases():
    res = _penny().algorithm()
    assert res.closed and len(res.final) == 3
    v1, v2 = sp.symbols("v1 v2")
    rest = res.find({v1: 0, v2: 0})
    assert rest is not None and rest.final
    assert not res.empty
    assert all(b.contains(b) for b in res.final)


def test_g_vanishes_where_the_momenta_are_orthogonal_to_the_blade():
    cc = _penny()
    g = cc.g()
    assert len(g) == 2
    px, py, phi = sp.symbols("p_x p_y phi")
    on = {px: sp.cos(phi), py: sp.sin(phi)}  # −p_x sin φ + p_y cos φ = 0
    assert all(is_zero(e.xreplace(on)) for e in g)
    assert not all(is_zero(e) for e in g)
