"""The polynomial-domain engine equals expression-level sympy on random input (hypothesis)."""

from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import frames as fr
from frames.algebra import canon, is_zero, solve_rational, trig_normal
from frames.algebra._field import RationalFunctions

Q = sp.symbols("q1:4")
ATOMS = [Q[0], Q[1], sp.sin(Q[0]), sp.cos(Q[0]), sp.exp(Q[1]), sp.exp(2 * Q[1]), sp.exp(-Q[2] / 2), Q[2]]


@st.composite
def entries(draw):
    """Small polynomials in q, sin q1, cos q1 and exponentials with related exponents."""
    terms = draw(
        st.lists(st.tuples(st.integers(-3, 3), st.sampled_from(ATOMS), st.sampled_from(ATOMS)), min_size=1, max_size=3)
    )
    return sum((c * a * b for c, a, b in terms), sp.S.Zero)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.data())
def test_solve_rational_solves_random_systems_exactly(data):
    n = data.draw(st.integers(2, 3))
    M = sp.Matrix(n, n, lambda i, j: data.draw(entries()) + (5 if i == j else 0))
    b = sp.Matrix(n, 1, lambda i, j: data.draw(entries()))
    try:
        x = solve_rational(M, b, "random system")
    except fr.RegularityError:
        assert is_zero(M.det(method="berkowitz"))
        return
    # the defining equations hold exactly (Pythagoras and exp(2q) = exp(q)² included)
    assert all(is_zero(e) for e in (M * sp.Matrix(x) - b))


@settings(max_examples=30, deadline=None)
@given(entries(), entries(), entries())
def test_exp_generators_keep_identities(a, b, c):
    """exp(2 q2) and exp(q2)² are one element of the field; the normal form is canonical."""
    e = (a * b - c) / (1 + sp.exp(Q[1]) ** 2)
    same = (a * b - c) / (1 + sp.exp(2 * Q[1]))
    ctx = RationalFunctions([e, same], exp=True)
    assert ctx.normal(ctx.from_expr(e)) == ctx.normal(ctx.from_expr(same))
    assert is_zero(trig_normal(e) - canon(same)) or is_zero(sp.simplify(trig_normal(e) - same))
