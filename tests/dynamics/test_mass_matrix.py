"""The fast path: equations derived on trees, never canonicalised, equal the canonical ones.

* the tree primitives of :mod:`frames.algebra._tree` against sympy (``diff``, ``xreplace``, ``LUsolve``), exactly;
* ``NonholonomicSystem.field(canonical=False)`` and ``accelerations(canonical=False)`` against the default
  (canonical) path, exactly, on every catalogue model and on random systems from :mod:`frames.strategies`
  with compound angles;
* :meth:`frames.Frame.with_coframe`.
"""

from __future__ import annotations

import hypothesis.strategies as st
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings

import frames as fr
from frames import strategies as fst
from frames.algebra import is_zero, op_count, solve_linear
from frames.algebra.internal import tree_derivative, tree_gather, tree_subs, tree_values

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------ the tree primitives
@SETTINGS
@given(st.data())
def test_tree_derivative_is_sympys_directional_derivative(data):
    ch = data.draw(fst.charts(min_dim=2, max_dim=3))
    f = data.draw(fst.functions_on_Q(ch, trig=True, compound=True))
    g = f * data.draw(fst.functions_on_Q(ch, trig=True, compound=True)) + sp.exp(ch.q[0]) / (2 + ch.q[-1] ** 2)
    rates = [data.draw(st.sampled_from([0, 1, *ch.u])) for _ in ch.q]
    direction = dict(zip(ch.q, rates, strict=True))
    (ours,) = tree_derivative([g], direction)
    expected = sp.Add(*[sp.diff(g, q) * r for q, r in direction.items()])
    assert is_zero(ours - expected)


@SETTINGS
@given(st.data())
def test_tree_subs_is_xreplace(data):
    ch = data.draw(fst.charts(min_dim=2, max_dim=3))
    f = data.draw(fst.functions_on_Q(ch, trig=True, compound=True))
    shared = f * (f + ch.q[0]) + sp.sin(f) ** 2  # the same sub-expression referenced several times
    sub = {ch.q[0]: ch.q[-1] + 1, ch.q[1]: 2 * ch.q[0]}
    assert tree_subs([shared], sub) == [shared.xreplace(sub)]


@SETTINGS
@given(st.data())
def test_tree_gather_is_exact_and_no_larger(data):
    ch = data.draw(fst.charts(min_dim=2, max_dim=3))
    f = data.draw(fst.functions_on_Q(ch, trig=True, compound=True))
    g = data.draw(fst.functions_on_Q(ch, trig=True, compound=True))
    v = ch.u[0]
    e = -2 * v * f * (f + g) - 4 * v * f * g * ch.q[0] + (-(f + 1)) * (-(f + 1)) * v**2 / 3 + 6 * g
    out = tree_gather(e)
    assert is_zero(out - e)
    assert op_count(out) <= op_count(e)


def test_tree_gather_pulls_the_common_factors_sign_and_content():
    x, y, z = sp.symbols("x y z")
    assert tree_gather(6 * x * y * sp.sin(z) - 4 * x**2 * sp.sin(z)) == 2 * x * sp.sin(z) * (3 * y - 2 * x)
    assert op_count(tree_gather(-x * y - x * z)) == 3  # -x*(y + z)
    assert tree_gather(x + y) == x + y
    big = sp.Add(*[x**k * y for k in range(2000)])
    assert tree_gather(big, most=100) is big  # over the limit: as it is


def test_tree_gather_leaves_non_commuting_sums_and_function_arguments():
    A, B, C = sp.symbols("A B C", commutative=False)
    x, y, z = sp.symbols("x y z")
    f = sp.Function("f")
    assert tree_gather(A * B * A + A, most=None) == A * B * A + A
    assert tree_gather(B * A + C * A, most=None) == B * A + C * A
    assert tree_gather(z * f(x * y + x) + 2 * z, most=None) == z * (f(x * y + x) + 2)


def test_fast_field_with_an_unknown_potential_equals_the_canonical_one():
    # the arguments of V stay as derived (a gathered 2 (x + y z) and 2 x + 2 y z are different to every zero test)
    ch = fr.Chart("x y z")
    x, y, z = ch.q
    u = ch.u
    L = (u[0] ** 2 + u[1] ** 2 + u[2] ** 2) / 2 - sp.Function("V")(2 * x + 2 * y * z)
    nh = fr.NonholonomicSystem.from_constraints(fr.Lagrangian(ch, L), fr.LinearConstraints(ch, [x * u[1] + u[2]]))
    fast, exact = nh.field(canonical=False).Gamma, nh.field(canonical=True).Gamma
    assert all(is_zero(a - b) for a, b in zip(fast, exact, strict=True))


@SETTINGS
@given(st.data())
def test_tree_solve_solves_nonsingular_systems_exactly(data):
    ch = data.draw(fst.charts(min_dim=2, max_dim=3))
    F = data.draw(fst.frames_on(ch, trig=True, compound=True))
    b = sp.Matrix([data.draw(fst.functions_on_Q(ch, trig=True, max_terms=2)) for _ in ch.q])
    X = solve_linear(F.matrix, b, method="tree")
    assert X is not None
    assert all(is_zero(r) for r in F.matrix * X - b)


def test_tree_solve_refuses_a_singular_system_and_tree_values_refuses_a_pole():
    x, y = sp.symbols("x y")
    assert (
        solve_linear(sp.Matrix([[sp.sin(x) ** 2, 1], [1 - sp.cos(x) ** 2, 1]]), sp.Matrix([1, 2]), method="tree")
        is None
    )
    with pytest.raises(ValueError, match="cannot evaluate"):
        tree_values([1 / (x - y)], {x: 1, y: 1})
    with pytest.raises(ValueError, match="cannot evaluate"):
        tree_values([sp.Function("f")(x)], {x: 1})


# ------------------------------------------------------------------ the fast path of the dynamics
def _natural_force_by_substitution(nh: fr.NonholonomicSystem, k: int) -> sp.Expr:
    """``∂L/∂q^k − u^l ∂²L/∂q^l∂u^k − ∂²L/∂t∂u^k`` with ``u = v^α X_α`` substituted as it is."""
    L, ch = nh.lagrangian, nh.lagrangian.chart
    dLdu = tree_derivative([L.expr], {ch.u[k]: 1})[0]
    e = tree_derivative([L.expr], {ch.q[k]: 1})[0] - tree_derivative([dLdu], dict(zip(ch.q, ch.u, strict=True)))[0]
    if L.time_dependent:
        e -= sp.diff(dLdu, ch.t)
    return tree_subs([e], nh._mass_matrix.on_C)[0]


def _agree(nh: fr.NonholonomicSystem) -> None:
    fast, exact = nh.field(canonical=False), nh.field()
    assert fast.frame == exact.frame and fast.m == exact.m
    assert all(is_zero(a - b) for a, b in zip(fast.Gamma, exact.Gamma, strict=True))
    canonical = fast.canonical()
    assert canonical.frame == exact.frame and all(
        is_zero(a - b) for a, b in zip(canonical.Gamma, exact.Gamma, strict=True)
    )
    acc_fast, acc = nh.accelerations(canonical=False), nh.accelerations()
    on_C = {u: x for u, x in nh.u_on_C.items()}  # q̈ is valid on C: compare there
    assert all(is_zero((a - b).xreplace(on_C)) for a, b in zip(acc_fast, acc, strict=True))
    M, f = nh.linear_system(canonical=False)
    g, b = nh.linear_system()
    assert all(is_zero(x - y) for x, y in zip(M, g, strict=True)) and all(
        is_zero(x - y) for x, y in zip(f, b, strict=True)
    )
    # the canonical system (of the rows when small) equals the lifts' derivation, g = X_α^V X_β^V L and b = −drift
    assert all(is_zero(x - y) for x, y in zip(g, nh.hessian_D(), strict=True))
    assert all(is_zero(x + nh._drift(al)) for x, al in zip(b, nh.alpha, strict=True))


@pytest.mark.parametrize("name", sorted(fr.models.catalogue()))
def test_the_fast_field_equals_the_canonical_field_on_every_catalogue_model(name):
    mdl = fr.models.get(name)
    if mdl.m is None or mdl.m == mdl.chart.dim:
        pytest.skip("no constraints")
    _agree(mdl.nonholonomic())


def test_the_fast_field_of_a_time_dependent_lagrangian():
    _agree(fr.models.charged_skate(time_dependent=True).nonholonomic())


@SETTINGS
@given(st.data())
def test_the_fast_field_equals_the_canonical_field_on_random_systems_with_compound_angles(data):
    ch = data.draw(fst.charts(min_dim=2, max_dim=3))
    L = data.draw(fst.quadratic_lagrangians(ch))
    F = data.draw(fst.frames_on(ch, compound=True))
    m = data.draw(st.integers(min_value=1, max_value=ch.dim - 1))
    nh = fr.NonholonomicSystem(L, F, m)
    _agree(nh)
    # E_k collected in the velocities before C (L is quadratic): exact, and no larger than substituted as it is
    assert nh._mass_matrix._quadratic
    for k in range(ch.dim):
        direct = _natural_force_by_substitution(nh, k)
        assert is_zero(nh._mass_matrix.natural_force(k) - direct)
        assert op_count(nh._mass_matrix.natural_force(k)) <= op_count(tree_gather(direct))


def test_the_fast_path_refers_a_singular_block_to_the_exact_decision():
    ch = fr.Chart("x y z")
    ux, _, uz = ch.u
    L = fr.Lagrangian(ch, (ux**2 + uz**2) / 2)  # degenerate along y
    F = fr.Frame([fr.VectorField(ch, [0, 1, 0]), fr.VectorField(ch, [1, 0, 0]), fr.VectorField(ch, [0, 0, 1])])
    with pytest.raises(fr.errors.RegularityError, match="not regular"):
        fr.NonholonomicSystem(L, F, 1).field(canonical=False)


# ------------------------------------------------------------------ Frame.with_coframe
def test_with_coframe_keeps_the_given_coframe_and_checks_it():
    ch = fr.Chart("x y")
    x, _ = ch.q
    F = fr.Frame([fr.VectorField(ch, [1, 0]), fr.VectorField(ch, [-sp.sin(2 * x), 1])])
    G = F.with_coframe([[1, 2 * sp.sin(x) * sp.cos(x)], [0, 1]])
    assert G == F and G.coframe_matrix == sp.Matrix([[1, 2 * sp.sin(x) * sp.cos(x)], [0, 1]])
    with pytest.raises(fr.errors.SingularFrameError, match="not the dual coframe"):
        F.with_coframe([[1, 0], [0, 1]])


def test_from_coframe_is_the_exact_dual_frame():
    ch = fr.Chart("x y")
    x, _ = ch.q
    Th = [[1, sp.sin(x)], [0, sp.exp(x)]]
    F = fr.Frame.from_coframe(ch, Th)
    assert F == fr.Frame([fr.VectorField(ch, [1, 0]), fr.VectorField(ch, [-sp.sin(x) * sp.exp(-x), sp.exp(-x)])])
    assert F.given_coframe == sp.Matrix(Th)
    with pytest.raises(fr.errors.RegularityError, match="from_coframe"):
        fr.Frame.from_coframe(ch, [[1, x], [2, 2 * x]])


# ------------------------------------------------------------------ the multipliers as Lagrange eliminates them
def test_simplest_pivots_eliminate_through_a_constant_entry():
    x, y = sp.symbols("x y")
    A = sp.Matrix([[sp.sin(x) + y**2 + 2, 1], [1, 0]])
    b = sp.Matrix([sp.cos(y), x])
    X = solve_linear(A, b, method="tree", pivots="simplest")
    assert all(is_zero(r) for r in A * X - b)
    assert X[0] == x  # the constant pivot of the second row solves the first unknown without a division
    with pytest.raises(fr.errors.OptionError, match="pivots"):
        solve_linear(A, b, method="tree", pivots="smallest")


@SETTINGS
@given(st.data())
def test_lagranges_multipliers_equal_the_canonical_ones_on_random_constrained_systems(data):
    ch = data.draw(fst.charts(min_dim=3, max_dim=3))
    L = data.draw(fst.quadratic_lagrangians(ch))
    q1, q2, q3 = ch.q
    u1, u2, u3 = ch.u
    row = data.draw(st.sampled_from([sp.sin(q1 - q3), sp.exp(q2 / 2), q1**2 + 1]))
    cons = fr.LinearConstraints(ch, [u1 - row * u2 + u3])
    nh = fr.NonholonomicSystem.from_constraints(L, cons)
    lam = nh._mass_matrix.multipliers()
    assert lam is not None  # the complement is the constraint row, orthogonal to D
    canonical = nh.multipliers(canonical=True)
    assert all(is_zero(a - b) for a, b in zip(lam, canonical, strict=True))
    assert all(is_zero(a - b) for a, b in zip(nh.multipliers(), canonical, strict=True))


# ------------------------------------------------------------------ E_k collected in the velocities before C
def test_the_natural_force_collected_on_a_compound_system_and_not_beyond_degree_two():
    ch = fr.Chart("x y z")
    x, y, z = ch.q
    ux, uy, uz = ch.u
    # a particle moved by compound angles; the constraint's dependent velocity ux is a sum on C
    xdot = sp.cos(x + 2 * z) * ux + sp.sin(y - z) * uy + sp.exp(z / 2) * uz
    ydot = sp.sin(2 * x - y) * ux - sp.cos(y + z) * uz
    L = fr.Lagrangian(ch, (xdot**2 + ydot**2 + ux**2 + uy**2 + uz**2) / 2 - sp.cos(x - y))
    cons = fr.LinearConstraints(ch, [ux - sp.cos(y + 2 * z) * uy + sp.exp(z / 2) * uz])
    nh = fr.NonholonomicSystem.from_constraints(L, cons)
    sizes = []
    for k in range(3):
        direct = _natural_force_by_substitution(nh, k)
        assert is_zero(nh._mass_matrix.natural_force(k) - direct)
        sizes.append((op_count(nh._mass_matrix.natural_force(k)), op_count(tree_gather(direct))))
    assert sum(a for a, _ in sizes) < sum(b for _, b in sizes), sizes
    # quartic in the velocities: E_k is not its quadratic Taylor polynomial, so nothing is collected
    quartic = fr.NonholonomicSystem.from_constraints(fr.Lagrangian(ch, L.expr + ux**4 / 4), cons)
    assert not quartic._mass_matrix._quadratic
    for k in range(3):
        assert is_zero(quartic._mass_matrix.natural_force(k) - _natural_force_by_substitution(quartic, k))
