r"""Hypothesis strategies for property-based tests of geometric identities.

Every strategy draws exact sympy objects on a small chart, so identities can be
checked with exact zero tests. Typical use::

    from hypothesis import given
    import frames as fr
    from frames import strategies as fst

    @given(fst.chart_and_fields(count=3))
    def test_jacobi(data):
        chart, (X, Y, Z) = data
        J = fr.bracket(X, fr.bracket(Y, Z)) + fr.bracket(Y, fr.bracket(Z, X)) + fr.bracket(Z, fr.bracket(X, Y))
        assert J.is_zero()

Strategies
----------
charts(min_dim=1, max_dim=4)
    Charts ``Chart("q1 … qn")``.
functions_on_Q(chart, trig=True, compound=False)
    Polynomials of low degree in q, optionally with ``sin``/``cos`` of one coordinate, or (``compound=True``) of
    compound angles ``k q_i + l q_j + c`` (sums, differences, multiples, constant shifts).
compound_angles(chart)
    Angles ``k q_i + l q_j + c`` with small integers.
rewritten(expr)
    The same function written differently: compound angles expanded (``sin(a + b)``, ``sin 2a``), products
    turned into sums (``2 sin a cos b = sin(a + b) + sin(a − b)``), ``cos² = 1 − sin²``: for invariance tests.
functions_on_TQ(chart)
    Polynomials in q and u, at most quadratic in u.
vector_fields(chart, trig=True)
    Vector fields with components from :func:`functions_on_Q`.
chart_and_fields(count, ...)
    A chart with ``count`` vector fields on it.
frames_on(chart)
    Invertible frames: ``P · U`` with ``U`` unipotent upper triangular with random
    polynomial entries and ``P`` a permutation, so the determinant is ±1.
quadratic_lagrangians(chart)
    ``L = ½ u^T G(q) u + Z_i(q) u^i − V(q)`` with ``G`` positive definite.
"""

from __future__ import annotations

from typing import Any

import sympy as sp
from hypothesis import strategies as st

from .dynamics._lagrangian import Lagrangian
from .geometry._chart import Chart
from .geometry._fields import VectorField
from .geometry._frame import Frame

__all__ = [
    "chart_and_fields",
    "charts",
    "compound_angles",
    "frames_on",
    "functions_on_Q",
    "functions_on_TQ",
    "quadratic_lagrangians",
    "rewritten",
    "vector_fields",
]

_SMALL = st.integers(min_value=-2, max_value=2)


@st.composite
def charts(draw: Any, min_dim: int = 1, max_dim: int = 4) -> Chart:
    """A chart ``q1 … qn`` with ``min_dim <= n <= max_dim``."""
    n = draw(st.integers(min_value=min_dim, max_value=max_dim))
    return Chart(" ".join(f"q{i + 1}" for i in range(n)))


@st.composite
def compound_angles(draw: Any, chart: Chart, constants: bool = True) -> sp.Expr:
    """An angle ``k q_i + l q_j + c``: ``k ∈ {1, 2}``, ``l ∈ {−2, …, 2}``, ``c ∈ {0, 1}`` (if ``constants``)."""
    q = chart.q
    a = draw(st.sampled_from([1, 2])) * draw(st.sampled_from(q))
    if len(q) > 1 and draw(st.booleans()):
        a += draw(st.integers(min_value=-2, max_value=2)) * draw(st.sampled_from(q))
    if constants and draw(st.integers(min_value=0, max_value=3)) == 0:
        a += 1
    return a if a != 0 else q[0]


def rewritten(expr: sp.Expr) -> sp.Expr:
    """``expr`` written differently but equal as a function: every ``sin``/``cos``/``exp`` of a sum expanded
    (``sin(a + b) = sin a cos b + cos a sin b``, ``sin 2a = 2 sin a cos a``, ``exp(a + b) = exp a exp b``), then
    ``cos² x`` replaced by ``1 − sin² x``. Built from sympy's own ``expand_trig`` (an independent computation)."""
    e = sp.expand_trig(sp.sympify(expr, strict=True))
    e = sp.expand(e, power_exp=True)
    cos_sq = {p: 1 - sp.sin(p.base.args[0]) ** 2 for p in e.atoms(sp.Pow) if isinstance(p.base, sp.cos) and p.exp == 2}
    return e.xreplace(cos_sq)


@st.composite
def functions_on_Q(draw: Any, chart: Chart, trig: bool = True, max_terms: int = 3, compound: bool = False) -> sp.Expr:
    """A small polynomial in q (degree ≤ 2), optionally times ``sin``/``cos`` of a coordinate (or of a compound
    angle, :func:`compound_angles`, with ``compound=True``)."""
    q = chart.q
    nterms = draw(st.integers(min_value=0, max_value=max_terms))
    expr: sp.Expr = sp.Integer(draw(_SMALL))
    for _ in range(nterms):
        c = draw(_SMALL)
        mono = sp.Integer(1)
        for _ in range(draw(st.integers(min_value=1, max_value=2))):
            mono *= draw(st.sampled_from(q))
        if trig and draw(st.booleans()) and draw(st.booleans()):
            f = draw(st.sampled_from([sp.sin, sp.cos]))
            mono *= f(draw(compound_angles(chart)) if compound else draw(st.sampled_from(q)))
        expr += c * mono
    return sp.expand(expr)


@st.composite
def functions_on_TQ(draw: Any, chart: Chart, trig: bool = False) -> sp.Expr:
    """A function of (q, u), at most quadratic in u, with coefficients from :func:`functions_on_Q`."""
    u = chart.u
    expr = draw(functions_on_Q(chart, trig=trig))
    for _ in range(draw(st.integers(min_value=0, max_value=2))):
        k = draw(st.integers(min_value=1, max_value=2))
        mono = sp.Integer(1)
        for _ in range(k):
            mono *= draw(st.sampled_from(u))
        expr += draw(functions_on_Q(chart, trig=trig, max_terms=2)) * mono
    return sp.expand(expr)


@st.composite
def vector_fields(draw: Any, chart: Chart, trig: bool = True, compound: bool = False) -> VectorField:
    """A vector field on ``chart`` with components from :func:`functions_on_Q`."""
    return VectorField(chart, [draw(functions_on_Q(chart, trig=trig, compound=compound)) for _ in chart.q])


@st.composite
def chart_and_fields(
    draw: Any, count: int = 2, min_dim: int = 1, max_dim: int = 3, trig: bool = True
) -> tuple[Chart, tuple[VectorField, ...]]:
    """A chart together with ``count`` vector fields on it."""
    ch = draw(charts(min_dim=min_dim, max_dim=max_dim))
    return ch, tuple(draw(vector_fields(ch, trig=trig)) for _ in range(count))


@st.composite
def frames_on(draw: Any, chart: Chart, trig: bool = False, v: str = "v", compound: bool = False) -> Frame:
    """An invertible frame ``P · U`` (U unipotent upper triangular, P a permutation); with ``compound=True`` its
    entries have sines and cosines of compound angles."""
    n = chart.dim
    U = sp.eye(n)
    for i in range(n):
        for j in range(i + 1, n):
            if draw(st.booleans()):
                U[i, j] = draw(functions_on_Q(chart, trig=trig or compound, max_terms=2, compound=compound))
    perm = draw(st.permutations(list(range(n))))
    M = sp.Matrix([list(U.row(p)) for p in perm])
    return Frame([VectorField(chart, list(M.row(i))) for i in range(n)], v=v)


@st.composite
def quadratic_lagrangians(draw: Any, chart: Chart, gyroscopic: bool = True, potential: bool = True) -> Lagrangian:
    r"""``L = ½ u^T G(q) u + Z_i(q) u^i − V(q)`` with ``G = D + S^T S`` positive definite.

    ``D`` is a diagonal of positive constants plus squares, ``S`` upper triangular with
    polynomial entries, so ``G`` is positive definite everywhere.
    """
    n = chart.dim
    q = chart.q
    S = sp.zeros(n, n)
    for i in range(n):
        for j in range(i + 1, n):
            if draw(st.booleans()):
                S[i, j] = draw(st.sampled_from([sp.Integer(1), *q]))
    D = sp.diag(
        *[draw(st.integers(min_value=1, max_value=3)) + (draw(st.sampled_from([0, *q])) ** 2) for _ in range(n)]
    )
    G = D + S.T * S
    u = sp.Matrix(chart.u)
    L = (u.T * G * u)[0] / 2
    if gyroscopic:
        L += sum((draw(functions_on_Q(chart, trig=False, max_terms=1)) * ui for ui in chart.u), sp.S.Zero)
    if potential:
        L -= draw(functions_on_Q(chart, trig=False, max_terms=2))
    return Lagrangian(chart, sp.expand(L))
