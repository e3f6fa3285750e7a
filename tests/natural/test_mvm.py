"""``frames/natural/_mvm.py``: the modified vakonomic method (Pastore, Giammarini, Grillo)."""

import pytest
import sympy as sp
from _natural_protocol import check_protocol

import frames as fr
from frames.algebra import is_zero
from frames.natural import w_from_frame


def test_the_mvm_answers_the_protocol(knife):
    mdl, V = knife
    mvm = fr.ModifiedVakonomic(mdl.lagrangian, constraints=[V], auxiliary=list(mdl.chart.u[:2]))
    check_protocol(mvm, mdl, {"lambda": [0.0]})
    with pytest.raises(fr.errors.NoMultipliersError):
        mvm.multipliers()


def test_its_w_is_the_frame_w_of_the_coframe(knife):
    mdl, V = knife
    aux = list(mdl.chart.u[:2])
    mvm = fr.ModifiedVakonomic(mdl.lagrangian, constraints=[V], auxiliary=aux)
    W = w_from_frame(mdl.chart, [V, *aux])
    assert mvm.W.shape == (3, 3)
    assert all(is_zero(a - b) for a, b in zip(mvm.W, W, strict=True))


def test_the_inclined_coin_w_row():
    mdl = fr.models.rolling_coin_incline()
    _x, _y, _phi, th = mdl.chart.q
    ux, uy, uphi, uth = mdl.chart.u
    R = mdl.params["R"]
    mvm = fr.ModifiedVakonomic(
        mdl.lagrangian, constraints=[ux - R * sp.sin(th) * uphi, uy - R * sp.cos(th) * uphi], auxiliary=[uphi, uth]
    )
    row = mvm.W.row(0)
    assert row[0] == 0 and row[1] == 0
    assert is_zero(row[2] + R * uth * sp.cos(th)) and is_zero(row[3] - R * uphi * sp.cos(th))
