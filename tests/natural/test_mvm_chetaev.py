"""``frames/natural/_mvm_chetaev.py``: the MVM against Chetaev's equations (Talamucci (60)–(66))."""

import pytest

import frames as fr


def test_the_inclined_coin_satisfies_the_momentum_condition(coin):
    r = fr.compare_mvm_with_chetaev(coin)
    assert r.momentum_condition and r.d1_constraints.is_zero_matrix
    assert r.omega.shape == (4, 4)


def test_only_an_mvm_is_compared():
    with pytest.raises(fr.errors.ArgumentError, match="compare_mvm_with_chetaev"):
        fr.compare_mvm_with_chetaev(fr.models.knife_edge().nonholonomic())
