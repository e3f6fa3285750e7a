"""``frames/natural/_mvm_chetaev.py``: the MVM against Chetaev's equations (Talamucci (60)–(66))."""

import pytest
import sympy as sp

import frames as fr


@pytest.fixture(scope="module")
def coin():
    mdl = fr.models.rolling_coin_incline()
    R = mdl.params["R"]
    th = mdl.chart.q[3]
    ux, uy, uph, uth = mdl.chart.u
    return fr.ModifiedVakonomic(mdl.lagrangian, [ux - R * sp.sin(th) * uph, uy - R * sp.cos(th) * uph], [uph, uth])


def test_the_inclined_coin_satisfies_the_momentum_condition(coin):
    r = fr.compare_mvm_with_chetaev(coin)
    assert r.momentum_condition and r.d1_constraints.is_zero_matrix
    assert r.omega.shape == (4, 4)


def test_only_an_mvm_is_compared():
    with pytest.raises(fr.errors.ArgumentError, match="compare_mvm_with_chetaev"):
        fr.compare_mvm_with_chetaev(fr.models.knife_edge().nonholonomic())
