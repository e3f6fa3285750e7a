"""The exact linear algebra and normal forms of ``frames.algebra`` (the engine under every field).

``solve_linear`` works fraction-free over a polynomial ring with sin² + cos² = 1 (DomainMatrix);
it is checked against the expression-level Gauss–Jordan fallback, against substitution back
into ``G x = b``, and against numbers.
"""

import random

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import frames as fr
from frames import strategies as fst
from frames.algebra import RationalFunctions, is_zero, solve_linear
from frames.algebra._solve import _gauss_jordan
from frames.algebra.internal import trig_normal

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _numeric_equal(a, b, syms, trials=3):
    rng = random.Random(0)
    for _ in range(trials):
        pt = {s: sp.Rational(rng.randint(1, 97), rng.randint(1, 13)) for s in syms}
        x, y = sp.N(sp.sympify(a).subs(pt), 30), sp.N(sp.sympify(b).subs(pt), 30)
        if abs(x - y) > 1e-20 * (1 + abs(x)):
            return False
    return True


@st.composite
def invertible_systems(draw):
    ch = draw(fst.charts(min_dim=1, max_dim=3))
    n = draw(st.integers(1, 3))
    G = sp.Matrix(n, n, lambda i, j: draw(fst.functions_on_Q(ch, trig=True, max_terms=2)))
    # make it generically invertible: add a multiple of the identity with a fresh symbol
    G = G + sp.Symbol("k", positive=True) * sp.eye(n)
    b = sp.Matrix(n, 1, lambda i, j: draw(fst.functions_on_Q(ch, trig=True, max_terms=2)))
    return ch, G, b


@SETTINGS
@given(invertible_systems())
def test_solve_linear_solves_and_agrees_with_gauss_jordan(sys_):
    _ch, G, b = sys_
    x, det = solve_linear(G, b, det=True)
    assert all(is_zero(e) for e in G * x - b)
    xg, detg = _gauss_jordan(sp.Matrix(G), sp.Matrix(b))
    assert all(is_zero(e) for e in x - xg)
    assert is_zero(det - detg)
    syms = sorted(G.free_symbols | b.free_symbols, key=str)
    assert _numeric_equal(det, G.det(), syms)


def test_singular_only_by_pythagoras_is_detected():
    """det = sin² − (1 − cos²) vanishes only through sin² + cos² = 1: reported singular."""
    th = sp.Symbol("theta")
    G = sp.Matrix([[sp.sin(th) ** 2, 1 - sp.cos(th) ** 2], [1, 1]])
    with pytest.raises(fr.errors.RegularityError, match=r"sin² \+ cos² = 1"):
        solve_linear(G, sp.Matrix([1, 0]))
    with pytest.raises(fr.errors.RegularityError):
        solve_linear(sp.Matrix([[1, 2], [2, 4]]))


def test_solve_linear_names_the_singular_matrix():
    th = sp.Symbol("theta")
    G = sp.Matrix([[sp.sin(th) ** 2 + sp.cos(th) ** 2 - 1]])
    with pytest.raises(fr.errors.RegularityError, match=r"my system.*singular"):
        solve_linear(G, sp.Matrix([1]), what="my system")


def test_undefined_functions_are_generators():
    """B0(t) and B0'(t) are independent generators (the rheonomic coin of Pastore et al.)."""
    t = sp.Symbol("t")
    B = sp.Function("B0")(t)
    G = sp.Matrix([[B, B.diff(t)], [1, sp.cos(t)]])
    x, det = solve_linear(G, sp.Matrix([0, 1]), det=True)
    assert is_zero(det - (B * sp.cos(t) - B.diff(t)))
    assert all(is_zero(e) for e in G * x - sp.Matrix([0, 1]))


def test_radicals_fall_back_to_expression_elimination():
    """sqrt(2)² = 2 is a relation the polynomial ring does not know: the fallback decides singularity."""
    r = sp.sqrt(2)
    with pytest.raises(fr.errors.RegularityError):
        solve_linear(sp.Matrix([[r, 1], [2, r]]), sp.Matrix([1, 0]))
    x = solve_linear(sp.Matrix([[r, 1], [1, r]]), sp.Matrix([1, 0]))
    assert is_zero(x[0] - r) and is_zero(x[1] + 1)


@SETTINGS
@given(st.data())
def test_trig_normal_is_an_identity_and_kills_pythagoras(data):
    ch = data.draw(fst.charts(min_dim=1, max_dim=2))
    e = data.draw(fst.functions_on_Q(ch, trig=True, max_terms=3))
    q = ch.q[0]
    padded = e + (sp.sin(q) ** 2 + sp.cos(q) ** 2 - 1) * data.draw(fst.functions_on_Q(ch, trig=True, max_terms=2))
    assert _numeric_equal(trig_normal(e), e, ch.q)
    assert is_zero(trig_normal(padded) - trig_normal(e))
    assert trig_normal(padded - e) == 0


def test_rational_functions_normal_form_is_linear_in_sine():
    th, a = sp.symbols("theta a")
    ctx = RationalFunctions([sp.sin(th) ** 3 * a])
    f = ctx.normal(ctx.from_expr(sp.sin(th) ** 3 * a))
    assert sp.expand(ctx.to_expr(f) - a * sp.sin(th) * (1 - sp.cos(th) ** 2)) == 0


@SETTINGS
@given(st.data())
def test_constant_pivot_path_inverts_unipotent_frames(data):
    """Permutation × unipotent matrices (constant pivots): the field Gauss–Jordan path, checked by G G⁻¹ = 1."""
    ch = data.draw(fst.charts(min_dim=2, max_dim=3))
    n = data.draw(st.integers(2, 4))
    U = sp.Matrix(n, n, lambda i, j: 1 if i == j else (0 if i > j else data.draw(fst.functions_on_Q(ch, max_terms=2))))
    perm = data.draw(st.permutations(range(n)))
    G = sp.Matrix([U.row(p) for p in perm])
    Ginv = solve_linear(G)
    assert all(is_zero(e) for e in G * Ginv - sp.eye(n))
    _, det = solve_linear(G, sp.zeros(n, 1), det=True)
    assert det == sp.Matrix(sp.eye(n).permute(perm, orientation="rows")).det()


def test_is_zero_with_an_unevaluated_shifted_angle():
    """Regression: ``sin(q2 + π/2)`` left unevaluated (as a parser may build it) next to
    ``cos(q2)`` made the Pythagorean reduction use sin q2, cos q2, cos q2, −sin q2 as four generators
    (sympy ``GeneratorsError``); angles shifted by a constant are expanded onto one pair."""
    q1, q2 = sp.symbols("q1 q2")
    s = sp.sin(q2 + sp.pi / 2, evaluate=False)
    assert is_zero(s - sp.cos(q2))
    assert is_zero(sp.sqrt(q1) * (s**2 - sp.cos(q2) ** 2))
    assert not is_zero(s**2 + sp.cos(q2) ** 2 - 1)  # 2 cos² q2 − 1
    assert fr.tidy(sp.sqrt(q1) * (s**2 + sp.sin(q2) ** 2) / sp.cos(q2)) == sp.sqrt(q1) / sp.cos(q2)
    # a shift that does not evaluate: sin(q2 + π/3) = sin q2 / 2 + √3 cos q2 / 2
    assert is_zero(sp.sin(q2 + sp.pi / 3) - sp.sin(q2) / 2 - sp.sqrt(3) * sp.cos(q2) / 2)
    assert is_zero(trig_normal(sp.cos(q2 + 1) ** 2 + sp.sin(q2 + 1) ** 2 * (sp.sin(q2) ** 2 + sp.cos(q2) ** 2) - 1))


def test_canon_and_tidy_of_a_matrix_act_entrywise():
    th, x = sp.symbols("theta x")
    M = sp.Matrix([[sp.sin(th) ** 2 + sp.cos(th) ** 2, (x**2 - 1) / (x - 1)]])
    assert fr.algebra.internal.canon(M) == sp.ImmutableMatrix([[fr.algebra.internal.canon(e) for e in M]])
    assert fr.tidy(M) == sp.ImmutableMatrix([[1, x + 1]])


def test_solve_linear_options():
    """The inverse without ``b``, ``tidy``, the general solution with ``unknowns`` (both methods), refused options."""
    th, x, y = sp.symbols("theta x y")
    G = sp.Matrix([[sp.cos(th), -sp.sin(th)], [sp.sin(th), sp.cos(th)]])
    assert solve_linear(G, tidy=True) == sp.ImmutableMatrix(G.T)
    A, b = sp.Matrix([[1, 1], [2, 2]]), sp.Matrix([th, 2 * th])
    for method in ("rational", "sympy"):
        sol, free, conds, _ = solve_linear(A, b, unknowns=[x, y], method=method)
        assert free == (y,) and not conds and is_zero(sol[x] - (th - y))
    _, _, conds, _ = solve_linear(A, sp.Matrix([th, 0]), unknowns=[x, y], method="sympy")
    assert conds
    with pytest.raises(fr.errors.OptionError):
        solve_linear(G, method="gauss")
    with pytest.raises(fr.errors.OptionError):
        solve_linear(G, sp.Matrix([1, 0]), det=True, method="tree")
    with pytest.raises(fr.errors.InvalidExpressionError):
        solve_linear(A[:1, :], sp.Matrix([1]))
