"""``frames/natural/_kozlov.py``: Kozlov's (vakonomic) equations in natural coordinates."""

import pytest
import sympy as sp
from _natural_protocol import check_protocol

import frames as fr
from frames.algebra import is_zero


def test_kozlov_answers_the_protocol_and_its_multipliers_are_states(knife):
    mdl, V = knife
    K = fr.KozlovSystem(mdl.lagrangian, [V])
    check_protocol(K, mdl, {"lambda": [0.0]})
    with pytest.raises(fr.errors.NoMultipliersError):
        K.multipliers()


def test_the_residuals_carry_the_multiplier_and_its_rate(heisenberg):
    """``E(L + λ(u_z − y u_x))``: the ``x`` residual is ``a_x + λ u_y + λ̇ y`` (Kozlov, free particle)."""
    L, V = heisenberg
    K = fr.KozlovSystem(L, [V])
    res = K.residuals()
    assert len(res) == 3
    syms = {s.name: s for s in res[0].free_symbols}
    assert {"lam1", "lamdot1", "a_x"} <= set(syms)
    assert is_zero(res[0] - (syms["a_x"] + syms["lam1"] * L.chart.u[1] + syms["lamdot1"] * L.chart.q[1]))


def test_a_string_constraint_is_refused(heisenberg):
    L, _V = heisenberg
    with pytest.raises(fr.errors.InvalidExpressionError):
        fr.KozlovSystem(L, ["u_z - y*u_x"])
    assert sp.Symbol("x") not in L.expr.free_symbols
