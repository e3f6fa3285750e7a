"""``frames/natural/_mvm_equivalence.py``: [PGG] Theorem 1, the MVM against the nonholonomic method."""

import pytest

import frames as fr
from frames.algebra import is_zero
from frames.natural import compare_mvm_with_nonholonomic, hamel_transpositional
from frames.natural.internal import d_block_holonomic, weak_consistency_expression


def test_the_inclined_coin_is_equivalent_and_its_d_block_is_holonomic(coin):
    assert compare_mvm_with_nonholonomic(coin).holds
    assert d_block_holonomic(coin)
    assert all(is_zero(e) for e in weak_consistency_expression(coin))


def test_hamel_transpositional_has_one_entry_per_coordinate(coin):
    P = hamel_transpositional(coin)
    assert len(P) == 4
    assert not all(is_zero(e) for e in P)  # the coin's frame is anholonomic


def test_only_an_mvm_is_taken():
    with pytest.raises(fr.errors.ArgumentError, match="d_block_holonomic: mvm"):
        d_block_holonomic(3)
