"""``frames/natural/_displacements.py``: classes of virtual displacements (Talamucci) and Chetaev vs vakonomic."""

import sympy as sp

import frames as fr
from frames.natural import compare_chetaev_with_vakonomic


def test_the_heisenberg_constraint_is_neither_compatible_nor_commuting(heisenberg):
    L, V = heisenberg
    d = fr.natural.DisplacementClasses(fr.ChetaevSystem(L, [V]))
    assert (d.compatibility().holds, d.commutation().holds) == (False, False)


def test_a_holonomic_constraint_commutes():
    ch = fr.Chart("x y")
    ux, uy = ch.u
    d = fr.natural.DisplacementClasses(fr.ChetaevSystem(fr.Lagrangian(ch, (ux**2 + uy**2) / 2), [ux - uy]))
    assert d.commutation().holds


def test_a_skew_transpositional_matrix_reconciles_chetaev_and_vakonomic():
    m, g, c = sp.symbols("m g c", positive=True)
    ch = fr.Chart("x y", params=[m, g, c])
    ux, uy = ch.u
    S = fr.ChetaevSystem(fr.Lagrangian(ch, m * (ux**2 + uy**2) / 2 - m * g * ch.q[1]), [ux**2 + uy**2 - c**2])
    assert not compare_chetaev_with_vakonomic(S).holds
    k = -g * ux / c**2
    r = compare_chetaev_with_vakonomic(S, [[0, k], [-k, 0]])
    assert r.holds and len(r.multipliers) == 1
