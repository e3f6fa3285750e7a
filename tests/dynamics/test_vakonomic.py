"""Library-level tests of the vakonomic, consistency and Chaplygin modules (not a paper's displayed result)."""

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import frames as fr
from frames import models
from frames import strategies as fst
from frames.algebra import is_zero


# ----------------------------------------------------------------- random abelian Chaplygin systems
@st.composite
def abelian_chaplygin(draw, k):
    """R^2 × R^k with X_α = ∂_{r_α} − A^a_α(r) ∂_{s_a}, Ẽ_a = ∂_{s_a}, L = ½ uᵀG(r)u, G(r) positive definite."""
    names = ["r1", "r2"] + [f"s{a + 1}" for a in range(k)]
    ch = fr.Chart(names)
    base = fr.Chart("r1 r2")
    r = ch.q[:2]
    n = 2 + k
    conn = [[draw(fst.functions_on_Q(base, trig=False, max_terms=1)) for _ in range(2)] for _ in range(k)]
    conn = [[c.xreplace(dict(zip(base.q, r))) for c in row] for row in conn]
    X = [
        fr.VectorField(ch, [1 if j == al else 0 for j in range(2)] + [-conn[a][al] for a in range(k)]) for al in (0, 1)
    ]
    E = [fr.VectorField.coordinate(ch, 2 + a) for a in range(k)]
    S = sp.zeros(n, n)
    for i in range(n):
        for j in range(i + 1, n):
            if draw(st.booleans()):
                S[i, j] = sp.Integer(1)
    D = sp.diag(*[draw(st.integers(1, 3)) + draw(st.sampled_from([0, *r])) ** 2 for _ in range(n)])
    G = D + S.T * S
    u = sp.Matrix(ch.u)
    L = fr.Lagrangian(ch, sp.expand((u.T * G * u)[0] / 2))
    return fr.ChaplyginSystem(L, X, E)


def _check_prop5_prop6(ch):
    assert all(is_zero(x) for x in ch.multiplier_identity())
    assert all(is_zero(x) for x in ch.coadjoint_momenta())
    p5 = ch.routhian_reduction()
    assert p5.regular and p5.invariant and p5.tangent
    same, cond = ch.routhian_agreement()
    weak = fr.weak_consistency(ch.vakonomic(), ch.momenta()).holds
    strong = fr.strong_consistency(ch.vakonomic(), ch.momenta()).holds
    assert same == cond == weak == strong
    assert same is not None
    return same


def test_fixed_abelian_chaplygin():
    """One fixed abelian Chaplygin system on R^2 × R (fast companion of the property test)."""
    ch = fr.Chart("r1 r2 s1")
    r1, r2, _ = ch.q
    u = ch.u
    L = fr.Lagrangian(ch, ((1 + r1**2) * u[0] ** 2 + 2 * u[1] ** 2 + u[2] ** 2) / 2 + u[0] * u[2])
    X = [fr.VectorField(ch, [1, 0, -r2]), fr.VectorField(ch, [0, 1, r1])]
    assert _check_prop5_prop6(fr.ChaplyginSystem(L, X, [fr.VectorField.coordinate(ch, 2)])) is False
    # connection with vanishing curvature: holonomic, consistency trivially holds
    X = [fr.VectorField(ch, [1, 0, -r2]), fr.VectorField(ch, [0, 1, -r1])]
    assert _check_prop5_prop6(fr.ChaplyginSystem(L, X, [fr.VectorField.coordinate(ch, 2)])) is True


@pytest.mark.slow
@pytest.mark.parametrize("k", [1, 2])
def test_random_abelian_chaplygin(k):
    """Proposition 5, Γ(p_a) = λ_a, and Proposition 6 ⇔ weak consistency at φ = p."""

    @settings(max_examples=3)
    @given(abelian_chaplygin(k))
    def check(ch):
        _check_prop5_prop6(ch)

    check()


# ----------------------------------------------------------------- regularity and input errors
def test_regularity_errors():
    ch = fr.Chart("q1 q2 q3")
    q1 = ch.q[0]
    u1, u2, u3 = ch.u
    F = models.nonholonomic_particle().frame
    F = fr.Frame([fr.VectorField(ch, list(X.components)) for X in F.fields])
    # singular on D: X2^V X2^V L = 1 − q1²/q1² = 0
    L = fr.Lagrangian(ch, (u1**2 + u2**2 - u3**2 / q1**2) / 2)
    vk = fr.VakonomicSystem(L, F, m=2)
    with pytest.raises(fr.errors.RegularityError, match="D"):
        vk.tangent_field()
    # regular w.r.t. D but not w.r.t. D^⊥: g_33 − g_32 g^22 g_23 = 1 − 1 = 0
    v1, v2, v3 = F.v
    Lv = (v1**2 + v2**2 + v3**2) / 2 + v2 * v3
    L2 = fr.Lagrangian(ch, F.to_natural(Lv))
    vk2 = fr.VakonomicSystem(L2, F, m=2)
    with pytest.raises(fr.errors.RegularityError, match="D\\^⊥"):
        vk2.check_regularity()
    with pytest.raises(fr.errors.InvalidExpressionError):
        vk2.section([u1])
    with pytest.raises(fr.errors.InvalidExpressionError):
        vk2.section([0, 0])
    with pytest.raises(fr.errors.InvalidExpressionError):
        fr.weak_consistency(object(), [0])
    with pytest.raises(fr.errors.InvalidExpressionError):
        fr.VakonomicSystem(L2, F, m=2, mu=[q1])


def test_chaplygin_checks():
    mdl = models.nonholonomic_particle()
    X1, X2, X3 = mdl.frame.fields
    ch = mdl.chart
    q1 = ch.q[0]
    with pytest.raises(fr.errors.ConstraintError, match="invariant"):
        fr.ChaplyginSystem(mdl.lagrangian, [X1, X2], [fr.VectorField(ch, [0, 0, 1 + q1**2])])
    L = fr.Lagrangian(ch, (ch.u[0] ** 2 + ch.u[1] ** 2 + ch.q[2] * ch.u[2] ** 2) / 2)
    with pytest.raises(fr.errors.ConstraintError, match="not invariant"):
        fr.ChaplyginSystem(L, [X1, X2], [X3])


# ----------------------------------------------------------------- Theorem 2 (iii) and Theorem 1 as properties
@given(st.integers(-2, 2), st.integers(-2, 2), st.integers(0, 2))
@settings(max_examples=5)
def test_lift_satisfies_iff_weak(a, b, c):
    """Γ̄ is vakonomic on im φ exactly when the weak condition holds (Theorem 2), particle, φ = (a + b q1) v1^c."""
    mdl = models.nonholonomic_particle()
    vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, m=2)
    q1 = mdl.chart.q[0]
    phi = [(a + b * q1) * mdl.frame.v[0] ** c]
    assert fr.vakonomic_lift(vk, phi).satisfies == fr.weak_consistency(vk, phi).holds
    # Theorem 1: residuals of the EL equations of L̃ on C are (0, 0, −tangency)
    t1 = vk.variational_check(phi, el_field=False)
    assert is_zero(t1.residuals[0]) and is_zero(t1.residuals[1])
    assert is_zero(t1.residuals[2] + t1.tangency[0])


def test_find_sections_particle_weak_and_strong():
    """Weak consistency of the particle forces φ = 0 in the span of {1, q1, v1, v2}; strong has no solution."""
    mdl = models.nonholonomic_particle()
    vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, m=2)
    q1 = mdl.chart.q[0]
    v1, v2, _ = mdl.frame.v
    c = sp.symbols("c1:5")
    ans = [c[0] * v1 + c[1] * v2 + c[2] * q1 * v1 + c[3] * q1 * v2]
    (weak,) = fr.find_sections(vk, ans, c, kind="weak")
    assert weak.section == (0,) and weak.result.holds is True
    assert fr.find_sections(vk, ans, c, kind="strong") == []


def test_find_sections_with_functions():
    """Unknown functions of one variable on the particle: weak forces f(q1) v1 = 0, strong has no solution."""
    mdl = models.nonholonomic_particle()
    vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, m=2)
    q1 = mdl.chart.q[0]
    f = sp.Function("f")(q1)
    (fam,) = fr.find_sections(vk, [f * mdl.frame.v[0]], kind="weak", functions=[f])
    # φ R^3_αβ v^β = 0 is linear in f without derivatives: solved, f = 0
    assert fam.solution == {f: 0} and fam.section == (0,) and fam.result.holds is True
    assert fam.free == () and fam.relations == ()
    assert fr.find_sections(vk, [f * mdl.frame.v[0]], kind="strong", functions=[f]) == []


def _disk_function_ansatz():
    """The vertical rolling disk with the ansatz φ_a = f_a(φ) v2 (unknown f, g of the angle φ)."""
    mdl = models.vertical_rolling_disk()
    vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, m=2)
    ang = mdl.chart.q[0]
    f, g = sp.Function("f")(ang), sp.Function("g")(ang)
    return vk, ang, mdl.frame.v[1], f, g


def test_find_sections_functions_disk_strong_is_momentum_section():
    """Disk, φ_a = f_a(φ) v2: dsolve integrates f_a' and the constants vanish, giving φ = p (section 7.1)."""
    vk, _ang, v2, f, g = _disk_function_ansatz()
    (fam,) = fr.find_sections(vk, [f * v2, g * v2], kind="strong", functions=[f, g])
    p = vk.nonholonomic.momenta()[2:]
    assert all(is_zero(a - b) for a, b in zip(fam.section, p, strict=True))
    assert is_zero(fam.solution[f] * v2 - p[0]) and is_zero(fam.solution[g] * v2 - p[1])
    consts = [k for k in fam.solution if isinstance(k, sp.Symbol)]
    assert len(consts) == 2 and all(fam.solution[k] == 0 for k in consts)  # both integration constants
    assert fam.free == () and fam.result.holds is True
    assert fr.strong_consistency(vk, fam.section).holds is True


def test_find_sections_functions_disk_weak_leaves_a_free_function():
    """Disk, weak: φ_3 sin φ = φ_4 cos φ is solved for f; g stays a free function."""
    vk, ang, v2, f, g = _disk_function_ansatz()
    (fam,) = fr.find_sections(vk, [f * v2, g * v2], kind="weak", functions=[f, g])
    assert fam.free == (g,) and set(fam.solution) == {f}
    assert is_zero(fam.section[0] * sp.sin(ang) - fam.section[1] * sp.cos(ang))
    assert fam.result.holds is True and fr.weak_consistency(vk, fam.section).holds is True


def test_consistency_along_motion_particle():
    """Single motions of the particle (end of section 5): ψ̇ = λ along γ; consistent iff v1 = 0 and ψ0 = 0."""
    mdl = models.nonholonomic_particle()
    vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, m=2)
    t = sp.Symbol("t")
    q1, q2, q3 = mdl.chart.q
    v1, v2, _ = mdl.frame.v
    # v1 = 0: q1 = 1 constant, v2 = 2 constant
    curve = {q1: 1, q2: 2 * t, q3: -2 * t, v1: 0, v2: 2}
    mc = fr.consistency_along_motion(vk, curve, [0], t)
    assert all(r == 0 for r in mc.curve_residuals)
    assert mc.holds is True
    mc2 = fr.consistency_along_motion(vk, curve, [1], t)
    assert mc2.holds is False and mc2.initial != (0, 0)
    # v1 = 1: q1 = t, v2 = 1/sqrt(1 + t²): λ ≠ 0 so ψ R v cannot vanish for all t
    curve3 = {q1: t, q2: sp.asinh(t), q3: -sp.sqrt(1 + t**2) + 1, v1: 1, v2: 1 / sp.sqrt(1 + t**2)}
    mc3 = fr.consistency_along_motion(vk, curve3, [0], t)
    assert all(r == 0 for r in mc3.curve_residuals)
    assert mc3.holds is False


def test_dimension_terms():
    m, R, M, L = sp.symbols("m R M L", positive=True)
    assert fr.dynamics.is_dimensionally_homogeneous(m * R**2 + 3 * m * R**2, {m: M, R: L})
    assert not fr.dynamics.is_dimensionally_homogeneous(m * R**2 + m, {m: M, R: L})


# documentation pages run as doctests: tests/test_docs.py


# ----------------------------------------------------------------- large systems: linear-system form, pointwise tests
def _vk_cases():
    out = []
    for name, make in models.catalogue().items():
        mdl = make()
        if mdl.n > mdl.m:
            out.append(pytest.param(mdl, id=name))
    return out


def _formed_at(test, vk, phi, witness):
    """The formed conditions of ``test`` evaluated at ``witness`` (``xreplace`` replaces ``sin θ`` and ``cos θ``
    whole, so ``θ`` inside them is not substituted twice)."""
    return [sp.sympify(c).xreplace(dict(witness)) for c in test(vk, phi).conditions]


def _check_pointwise(vk, phi, drift_route=True):
    """Both routes of the generic points: the drift's field (the data already there) and the expressions'."""
    import frames.dynamics._pointwise as pointwise

    applies = pointwise._points_in_drift_field(vk, vk.section(phi), True, 1) is not None
    assert applies is drift_route
    for route in ("drift field", "expressions"):
        with pytest.MonkeyPatch.context() as mp:
            if route == "expressions":
                mp.setattr(pointwise, "_points_in_drift_field", lambda *args: None)
            for test in (fr.weak_consistency, fr.strong_consistency):
                ref = test(vk, phi)
                res = test(vk, phi, pointwise=True)
                assert res.holds is ref.holds, route
                if res.witness:
                    assert res.holds is False and res.conditions == () and any(x != 0 for x in res.witness_values)
                    assert _formed_at(test, vk, phi, res.witness) == list(res.witness_values), route
                else:
                    assert res.conditions == ref.conditions and not res.witness_values


@pytest.mark.parametrize("mdl", _vk_cases())
def test_pointwise_consistency_agrees_with_the_formed_conditions(mdl):
    """``weak_consistency``/``strong_consistency(pointwise=True)`` give the verdicts of the formed conditions at
    φ = 0 and φ = p; when a generic point decides, the formed conditions take the reported values there (an exact
    certificate)."""
    nh = mdl.nonholonomic()
    vk = fr.VakonomicSystem.from_nonholonomic(nh)
    p = nh.momenta()
    for phi in ([0] * (vk.n - vk.m), [p[a] for a in vk.a]):
        _check_pointwise(vk, phi)


@settings(max_examples=6, deadline=None)
@given(st.data())
def test_pointwise_consistency_on_random_systems(data):
    """The same on random systems of :mod:`frames.strategies` (n = 3, 4; trig frames), at φ = p and at a random
    section linear in v^α."""
    ch = data.draw(fst.charts(min_dim=3, max_dim=4))
    L = data.draw(fst.quadratic_lagrangians(ch))
    F = data.draw(fst.frames_on(ch, trig=True))
    m = data.draw(st.integers(1, ch.dim - 1))
    nh = fr.NonholonomicSystem(L, F, m)
    vk = fr.VakonomicSystem.from_nonholonomic(nh)
    p = nh.momenta()
    extra = data.draw(fst.functions_on_Q(ch, trig=True, max_terms=2))
    for phi in ([p[a] for a in vk.a], [extra * F.v[0]] * (vk.n - vk.m)):
        _check_pointwise(vk, phi)


def test_pointwise_consistency_with_brackets_between_constraint_directions():
    """A system whose ``R^b_aα`` (a, b > m) do not vanish, so that ``φ_b R^b_aα v^α`` enters the strong conditions
    (it vanishes on the whole catalogue): ``X_1 = ∂x``, ``X_2 = ∂y + x ∂z``, ``X_3 = ∂z``, m = 1, has
    ``[X_2, X_1] = −X_3``."""
    ch = fr.Chart("x y z")
    x, y, z = ch.q
    F = fr.Frame([fr.VectorField(ch, [1, 0, 0]), fr.VectorField(ch, [0, 1, x]), fr.VectorField(ch, [0, 0, 1])])
    L = fr.Lagrangian(ch, sum(u**2 for u in ch.u) / 2 + y * ch.u[0] - x**2 - z**2)
    vk = fr.VakonomicSystem(L, F, 1)
    _, ra = vk._phiR([1, x])
    assert not all(is_zero(e) for e in ra)
    v1 = vk.frame.v[0]
    f = sp.Function("f")  # f(x − y): its derivative is not a generator of the field (the expressions decide)
    for phi in ([1, x], [v1, y * z], [v1 / (1 + v1**2), x / (1 + y**2)], [f(x - y), 0], [0, 0]):
        _check_pointwise(vk, phi)


def test_pointwise_consistency_with_a_lagrangian_not_polynomial_in_the_velocities():
    """``L = u1²/2 + cos u1 + u2²/2 − x²/2``: ``cos v1`` is a generator of the drift's field that depends on a
    velocity, so ``∂/∂v^β`` along the generator ``v^β`` alone would be wrong there; the expressions decide. The
    section is the energy of the reduced motion, a first integral: strongly consistent."""
    ch = fr.Chart("x y")
    x, _ = ch.q
    u1, u2 = ch.u
    F = fr.Frame([fr.VectorField(ch, [1, 0]), fr.VectorField(ch, [0, 1])])
    vk = fr.VakonomicSystem(fr.Lagrangian(ch, u1**2 / 2 + sp.cos(u1) + u2**2 / 2 - x**2 / 2), F, 1)
    v1 = vk.frame.v[0]
    energy = v1**2 / 2 - v1 * sp.sin(v1) - sp.cos(v1) + x**2 / 2
    assert fr.strong_consistency(vk, [energy], pointwise=True).holds is True
    for phi in ([energy], [x * v1], [0]):
        _check_pointwise(vk, phi, drift_route=False)


def test_pointwise_consistency_refuses_subs():
    mdl = models.nonholonomic_particle()
    vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, m=2)
    with pytest.raises(fr.errors.ArgumentError, match=r"^strong_consistency: pointwise=True"):
        fr.strong_consistency(vk, [0], {mdl.chart.q[0]: 1}, pointwise=True)
    with pytest.raises(fr.errors.ArgumentError, match=r"^weak_consistency: pointwise=True"):
        fr.weak_consistency(vk, [0], {mdl.chart.q[0]: 1}, pointwise=True)
    with pytest.raises(fr.errors.ArgumentError, match=r"^strong_consistency: pointwise: expected True or False"):
        fr.strong_consistency(vk, [0], pointwise="yes")


@pytest.mark.parametrize("mdl", _vk_cases())
def test_linear_system_is_solved_by_the_vakonomic_field(mdl):
    """Proposition 3 in mass-matrix form: ``g Γ̂ = b`` holds for the explicit field, with μ and A free."""
    vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, mdl.m)
    g, b = vk.linear_system()
    assert g == vk.hessian()
    G = sp.Matrix(list(vk.field()))
    assert all(is_zero(e) for e in sp.Matrix(g) * G - sp.Matrix(b))
    assert vk.field_size_bound() >= 1


def test_field_size_bound_is_a_bound_of_the_cramer_numerators():
    """The permanent of the term counts bounds the terms of the Cramer numerators ``det g_(i)`` (``b`` in column
    i), computed here by sympy's Berkowitz determinant, expanded, with μ and A as generators."""
    for mdl in (models.nonholonomic_particle(), models.chaplygin_sleigh(), models.vertical_rolling_disk()):
        _check_cramer_bound(fr.VakonomicSystem(mdl.lagrangian, mdl.frame, mdl.m))


def _check_cramer_bound(vk):
    """Every Cramer numerator of ``g Γ = b`` (Berkowitz, expanded, not reduced modulo sin² + cos² − 1, μ and A as
    generators) has at most ``field_size_bound()`` terms."""
    from frames.algebra import RationalFunctions

    g, b = vk.linear_system()
    bound = vk.field_size_bound()
    ctx = RationalFunctions([*g, *b], pythagoras=False, exp=True)
    for i in range(vk.n):
        M = sp.Matrix(g)
        M[:, i] = sp.Matrix(b)
        assert len(ctx.from_expr(M.det(method="berkowitz")).numer) <= bound


@settings(max_examples=5, deadline=None)
@given(st.data())
def test_field_size_bound_on_random_systems(data):
    """The bound holds on random systems of :mod:`frames.strategies` (n = 3, trig frames)."""
    ch = data.draw(fst.charts(min_dim=3, max_dim=3))
    L = data.draw(fst.quadratic_lagrangians(ch))
    F = data.draw(fst.frames_on(ch, trig=True))
    _check_cramer_bound(fr.VakonomicSystem(L, F, data.draw(st.integers(1, 2))))


def test_a_spent_budget_is_not_remembered_as_data_outside_the_drift_field():
    """Review finding: ``BudgetExceededError`` is a ``ValueError``; the drift's field caught it as "outside the
    field" and cached None on the model's shared system. It now propagates and nothing is cached."""
    import pickle

    mdl = fr.models.two_wheeled_carriage()
    nh = mdl.nonholonomic()
    with pytest.raises(fr.errors.BudgetExceededError), fr.budget(1e-9):
        nh.drift_ring  # noqa: B018  # spent at the first checkpoint of building the field
    assert nh.drift_ring is not None
    fr.invariant_measure(mdl.nonholonomic())
    assert pickle.loads(pickle.dumps(mdl)).name == mdl.name  # a used model still pickles
