"""``frames/natural/_motion_comparison.py``: is a given motion vakonomic (Kozlov) for some multiplier?"""

import sympy as sp

import frames as fr


def test_a_straight_line_in_d_is_free_motion(heisenberg):
    L, V = heisenberg
    x, y, z = L.chart.q
    t = sp.Symbol("t")
    res = fr.compare_motion(fr.KozlovSystem(L, [V]), {x: t, y: 0, z: 0}, t)
    assert res.vakonomic and len(res.solutions) == 1
    assert all(v == 0 for v in res.solutions[0].values())


def test_an_accelerated_line_is_not_a_motion(heisenberg):
    L, V = heisenberg
    x, y, z = L.chart.q
    t = sp.Symbol("t")
    res = fr.compare_motion(fr.KozlovSystem(L, [V]), {x: t**2, y: 0, z: 0}, t)
    assert not res.vakonomic and res.obstructions
