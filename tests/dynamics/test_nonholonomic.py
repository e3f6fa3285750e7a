"""Nonholonomic dynamics (Crampin–Mestdag section 3): library-level tests.

* independent check of Proposition 2 against sympy.physics.mechanics (LagrangesMethod with
  ``nonhol_coneqs``) for every non-Pastore catalogue model and for hypothesis-generated systems;
* the identities of section 3 (coordinate form, L_c form, Hamel form);
* frame independence and the transformation rules of Γ and of the multipliers;
* constraints, distributions, the Frobenius test, adapted frames, and bad input.
"""

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import frames as fr
from frames import models
from frames import strategies as fst
from frames.algebra import is_zero
from frames.dynamics import change_of_adapted_frame, transform_field, transform_multipliers
from frames.natural import lagranges_method_accelerations


def _on_C_natural(frame, m):
    """Substitution u = v^α X_α (natural velocities in D, in terms of (q, v^α))."""
    on_c = {frame.v[a]: 0 for a in range(m, frame.dim)}
    return dict(zip(frame.chart.u, [x.xreplace(on_c) for x in frame.u_in_v]))


def _agrees_with_sympy_mechanics(lagrangian, constraints, nh):
    """q̈ from Proposition 2 equals q̈ from LagrangesMethod on C (exact zero test)."""
    ref = lagranges_method_accelerations(lagrangian, constraints)
    acc = nh.accelerations()
    sub = _on_C_natural(nh.frame, nh.m)
    return all(is_zero((a - b).xreplace(sub)) for a, b in zip(acc, ref, strict=True))


# ------------------------------------------------------- SymPy mechanics
FAST_MODELS = [models.nonholonomic_particle, models.knife_edge, models.chaplygin_sleigh]
SLOW_MODELS = [
    models.vertical_rolling_disk,
    models.rolling_penny,
    lambda: models.abelian_chaplygin(1),
    lambda: models.abelian_chaplygin(2),
    lambda: models.abelian_chaplygin(3, deltas=lambda q1, a: sp.sin(q1) ** (a - 2)),
]


@pytest.mark.parametrize("make", FAST_MODELS, ids=lambda f: f.__name__)
def test_model_agrees_with_sympy_mechanics(make):
    mdl = make()
    assert _agrees_with_sympy_mechanics(mdl.lagrangian, mdl.constraints.functions, mdl.nonholonomic())


@pytest.mark.slow
@pytest.mark.parametrize(
    "make", SLOW_MODELS, ids=["disk", "penny", "abelian_chaplygin-1", "abelian_chaplygin-2", "abelian_chaplygin-3-sin"]
)
def test_model_agrees_with_sympy_mechanics_slow(make):
    mdl = make()
    assert _agrees_with_sympy_mechanics(mdl.lagrangian, mdl.constraints.functions, mdl.nonholonomic())


@pytest.mark.slow
def test_carriage_agrees_with_sympy_mechanics():
    """Settles the signs of erratum CM-6 (the field Γ_α of section 7.2) independently of the frame route."""
    mdl = models.two_wheeled_carriage()
    assert _agrees_with_sympy_mechanics(mdl.lagrangian, mdl.constraints.functions, mdl.nonholonomic())


@st.composite
def _random_system(draw, n):
    """Random positive-definite metric (plus gyroscopic and potential terms) and k = n − m constraint rows of rank k."""
    ch = fr.Chart(" ".join(f"q{i + 1}" for i in range(n)))
    L = draw(fst.quadratic_lagrangians(ch))
    k = draw(st.integers(min_value=1, max_value=n - 2))
    M = draw(fst.frames_on(ch)).matrix  # det ±1: any k rows have rank k everywhere
    rows = [list(M.row(i)) for i in range(k)]
    return L, fr.LinearConstraints(ch, rows)


@given(_random_system(3))
@settings(max_examples=5)
def test_random_systems_R3_agree_with_sympy_mechanics(data):
    L, cons = data
    nh = fr.NonholonomicSystem.from_constraints(L, cons)
    assert _agrees_with_sympy_mechanics(L, cons.functions, nh)


@pytest.mark.slow
@given(_random_system(4))
@settings(max_examples=10)
def test_random_systems_R4_agree_with_sympy_mechanics(data):
    L, cons = data
    nh = fr.NonholonomicSystem.from_constraints(L, cons)
    assert _agrees_with_sympy_mechanics(L, cons.functions, nh)


# --------------------------------------------- section 3 identities
@pytest.mark.parametrize("make", [models.nonholonomic_particle, models.knife_edge, models.chaplygin_sleigh])
def test_identities_of_section_3(make):
    """Coordinate form Γ(∂L/∂u^i) − ∂L/∂q^i = X̄_i^a λ_a, the L_c form with X̄_α^C, the Hamel form."""
    nh = make().nonholonomic()
    assert all(is_zero(r) for r in nh.coordinate_residuals())
    assert all(is_zero(r) for r in nh.constrained_equations())
    assert all(is_zero(r) for r in nh.hamel_residuals())
    eps = nh.epsilon_components()
    assert all(is_zero(e) for e in eps[: nh.m])
    assert all(is_zero(e - lam) for e, lam in zip(eps[nh.m :], nh.multipliers(), strict=True))


def test_identities_fail_for_a_wrong_field(monkeypatch):
    """The residual checks can fail: perturb Γ and the coordinate identity breaks."""
    nh = models.nonholonomic_particle().nonholonomic()
    G = nh.field()
    bad = fr.SecondOrderField(G.frame, [G.Gamma[0] + 1, G.Gamma[1], 0], m=2)
    monkeypatch.setattr(fr.NonholonomicSystem, "field", lambda self, canonical=True: bad)
    assert not all(is_zero(r) for r in nh.coordinate_residuals())


def test_hamel_equations_on_C_particle():
    nh = models.nonholonomic_particle().nonholonomic()
    eqs = nh.hamel_equations()
    assert len(eqs) == 2
    t = sp.Symbol("t")
    assert not any(eq.lhs.has(sp.Function("v3")(t)) for eq in eqs)


def test_default_initial_conditions_lie_in_D():
    for name, make in models.catalogue().items():
        mdl = make()
        if not mdl.u0 or len(mdl.u0) < mdl.n:
            continue
        sub = {**mdl.q0, **mdl.u0, **mdl.param_values}
        for f in mdl.constraints.functions:
            assert abs(float(f.subs(sub))) < 1e-12, (name, f)


@pytest.mark.parametrize("make", [models.nonholonomic_particle, models.knife_edge, models.abelian_chaplygin])
def test_model_frame_spans_the_constraint_distribution(make):
    mdl = make()
    for X in mdl.frame.fields[: mdl.m]:
        assert all(is_zero(f.xreplace(dict(zip(mdl.chart.u, X.components)))) for f in mdl.constraints.functions)


# ---------------------------------------------------- frame independence
def _other_frames(mdl):
    """Rescaled/mixed X_α and a different complement, for a model with m = 2."""
    F = mdl.frame
    q1 = mdl.chart.q[0]
    X = F.fields
    n = F.dim
    Y1 = X[0] + q1 * X[1]
    Y2 = (1 + q1**2) * X[1]
    comp_shift = [X[a] + (a + 1) * X[0] - q1 * X[1] for a in range(2, n)]
    comp_coord = list(fr.complete_frame([Y1, Y2]).fields[2:])
    return [fr.Frame([Y1, Y2, *comp_shift], v="w"), fr.Frame([Y1, Y2, *comp_coord], v="w")]


@pytest.mark.parametrize(
    "make",
    [
        models.nonholonomic_particle,
        pytest.param(models.knife_edge, marks=pytest.mark.slow),
        pytest.param(models.chaplygin_sleigh, marks=pytest.mark.slow),
    ],
)
def test_frame_independence_and_transformation_rules(make):
    mdl = make()
    nh = mdl.nonholonomic()
    G = nh.field()
    lam = nh.multipliers()
    for Fnew in _other_frames(mdl):
        nh2 = nh.in_frame(Fnew)
        G2 = nh2.field()
        # same field in coordinates (q̈ on C)
        assert G2.equals(G) and G.equals(G2)
        # section 3 rule Γ = w^α Y_α^C + Ā^α_β(Γ^β − Ȧ^β_γ w^γ) Y_α^V, against recomputation
        Gt, lam_t = nh.transformed(Fnew)
        assert all(is_zero(a - b) for a, b in zip(Gt.Gamma, G2.Gamma, strict=True))
        # λ'_a = ε(Y_a) = A_a^b λ_b: multipliers are the components of ε in the coframe
        assert all(is_zero(a - b) for a, b in zip(lam_t, nh2.multipliers(), strict=True))
        # and independently: ε = λ_a θ^a as a covector in natural coordinates is frame independent
        eps_old = [sum(lam[a - nh.m] * nh.frame.coframe_matrix[a, i] for a in nh.a) for i in range(nh.n)]
        eps_new = [sum(nh2.multipliers()[a - nh.m] * Fnew.coframe_matrix[a, i] for a in nh.a) for i in range(nh.n)]
        eps_old = [nh.frame.to_natural(e) for e in eps_old]
        eps_new = [Fnew.to_natural(e) for e in eps_new]
        sub = _on_C_natural(nh.frame, nh.m)
        assert all(is_zero((a - b).xreplace(sub)) for a, b in zip(eps_old, eps_new, strict=True))


def test_transformation_rule_can_fail():
    """Dropping the Ȧ term of the rule gives a wrong Γ' (the test is sensitive to it)."""
    mdl = models.nonholonomic_particle()
    nh = mdl.nonholonomic()
    X1, X2, X3 = mdl.frame.fields
    q1 = mdl.chart.q[0]
    Fnew = fr.Frame([X1, (1 + q1**2) * X2, X3], v="w")
    G2 = nh.in_frame(Fnew).field()
    w1, w2 = Fnew.v[:2]
    # without Ȧ: Ā(Γ) only
    naive = nh.field().Gamma[1].xreplace({mdl.frame.v[0]: w1, mdl.frame.v[1]: (1 + q1**2) * w2}) / (1 + q1**2)
    assert not is_zero(naive - G2.Gamma[1])
    assert is_zero(transform_field(nh.field(), Fnew).Gamma[1] - G2.Gamma[1])


@given(st.data())
@settings(max_examples=4)
def test_frame_independence_random_change(data):
    """Random A (unipotent times diagonal constants, polynomial entries): rule = recomputation."""
    mdl = models.nonholonomic_particle()
    ch = mdl.chart
    nh = mdl.nonholonomic()
    X = mdl.frame.fields
    a12 = data.draw(fst.functions_on_Q(ch, trig=False, max_terms=2))
    a31 = data.draw(fst.functions_on_Q(ch, trig=False, max_terms=2))
    s1 = data.draw(st.sampled_from([1, 2, -3]))
    Y = [s1 * X[0] + a12 * X[1], X[1], X[2] + a31 * X[0]]
    Fnew = fr.Frame(Y, v="w")
    A = change_of_adapted_frame(nh.frame, Fnew, 2)
    assert A[0, 2] == 0 and A[1, 2] == 0
    G2 = nh.in_frame(Fnew).field()
    assert all(is_zero(a - b) for a, b in zip(transform_field(nh.field(), Fnew).Gamma, G2.Gamma, strict=True))
    lam_t = transform_multipliers(nh.multipliers(), nh.frame, Fnew, 2)
    assert all(is_zero(a - b) for a, b in zip(lam_t, nh.in_frame(Fnew).multipliers(), strict=True))


# ---------------------------------------- constraints, distributions, Frobenius
def test_from_constraints_automatic_and_given_complement():
    mdl = models.nonholonomic_particle()
    ch = mdl.chart
    q1 = ch.q[0]
    cons = fr.LinearConstraints(ch, [ch.u[2] + q1 * ch.u[1]])
    D = cons.distribution()
    assert D.rank == 2
    assert all(cons.functions[0].xreplace(dict(zip(ch.u, X.components))) == 0 for X in D.fields)
    nh_auto = fr.NonholonomicSystem.from_constraints(mdl.lagrangian, cons)
    nh_given = fr.NonholonomicSystem.from_constraints(mdl.lagrangian, cons, complement=[fr.VectorField(ch, [1, 1, 1])])
    G = mdl.nonholonomic().field()
    assert nh_auto.field().equals(G) and nh_given.field().equals(G)
    assert not D.contains(nh_auto.frame.fields[2])
    with pytest.raises(fr.errors.SingularFrameError):
        fr.complete_frame(D, [fr.VectorField(ch, [1, 0, 0])])  # the complement lies in D


def test_frobenius_reports_offending_bracket():
    mdl = models.nonholonomic_particle()
    res = mdl.nonholonomic().frobenius()
    assert not res.integrable
    i, j, B = res.offending[0]
    assert (i, j) == (0, 1) and B.equals(-mdl.frame.fields[2])
    assert "[X1, X2]" in str(res) and "not in D" in str(res)
    assert not mdl.nonholonomic().is_holonomic


def test_integrable_distribution_is_reported_holonomic_and_field_computed():
    ch = fr.Chart("q1 q2 q3")
    q1, q2, q3 = ch.q
    u1, u2, u3 = ch.u
    # u3 − q2 u1 − q1 u2 = 0 is d(q3 − q1 q2) = 0: holonomic
    cons = fr.LinearConstraints(ch, [u3 - q2 * u1 - q1 * u2])
    L = fr.Lagrangian(ch, (u1**2 + u2**2 + u3**2) / 2 - q3)
    nh = fr.NonholonomicSystem.from_constraints(L, cons)
    res = nh.frobenius()
    assert res.integrable and nh.is_holonomic
    assert "integrable" in str(res) and "holonomic" in str(res)
    assert _agrees_with_sympy_mechanics(L, cons.functions, nh)


# --------------------------------------------------------------------- bad input
def test_deficient_rank_rows_raise():
    ch = fr.Chart("q1 q2 q3")
    q1 = ch.q[0]
    with pytest.raises(fr.errors.ConstraintError, match=r"rank 1 \(deficient\)"):
        fr.LinearConstraints(ch, [[0, q1, 1], [0, 2 * q1, 2]])
    _u1, u2, u3 = ch.u
    with pytest.raises(fr.errors.ConstraintError, match="rank 1"):
        fr.LinearConstraints(ch, [u3 + q1 * u2, -2 * u3 - 2 * q1 * u2])
    with pytest.raises(fr.errors.ConstraintError, match="not linear and homogeneous"):
        fr.LinearConstraints(ch, [u3**2 + u2])
    with pytest.raises(fr.errors.ConstraintError, match="leave no motion"):
        fr.LinearConstraints(ch, [[1, 0, 0], [0, 1, 0], [0, 0, 1]])


def test_dependent_distribution_fields_raise():
    ch = fr.Chart("q1 q2 q3")
    q1 = ch.q[0]
    X = fr.VectorField(ch, [1, q1, 0])
    with pytest.raises(fr.errors.ConstraintError, match="rank 1"):
        fr.Distribution([X, q1 * X])


def test_not_regular_with_respect_to_D_names_the_block():
    ch = fr.Chart("q1 q2 q3")
    q1 = ch.q[0]
    u1, u2, u3 = ch.u
    # regular on TQ (Hessian determinant −1) but L|_D = v1²/2 on D = span(∂1, ∂2 − q1 ∂3)
    L = fr.Lagrangian(ch, u1**2 / 2 + (q1 * u2 + u3) ** 2 / 2 + (q1 * u2 + u3) * u2)
    assert L.is_regular()
    X1 = fr.VectorField(ch, [1, 0, 0])
    X2 = fr.VectorField(ch, [0, 1, -q1])
    F = fr.Frame([X1, X2, fr.VectorField(ch, [0, 0, 1])])
    nh = fr.NonholonomicSystem(L, F, 2)
    with pytest.raises(
        fr.errors.RegularityError, match=r"not regular with respect to D: the block g_αβ = X_α\^V X_β\^V L"
    ):
        nh.field()


def test_wrong_m_and_foreign_frame_raise():
    mdl = models.nonholonomic_particle()
    with pytest.raises(fr.errors.ConstraintError, match="0 < m < n"):
        fr.NonholonomicSystem(mdl.lagrangian, mdl.frame, 3)
    other = models.knife_edge()
    with pytest.raises(fr.errors.ChartMismatchError):
        fr.NonholonomicSystem(mdl.lagrangian, other.frame, 2)
    X1, X2, X3 = mdl.frame.fields
    with pytest.raises(fr.errors.ConstraintError, match="not in D"):
        mdl.nonholonomic().in_frame(fr.Frame([X1, X3, X2]))
    with pytest.raises(fr.errors.ConstraintError, match="not in D"):
        change_of_adapted_frame(mdl.frame, fr.Frame([X1, X3, X2]), 2)
