"""Library-level tests of Lagrangian dynamics in a frame: Proposition 1, ε, Hamel, Cartan forms."""

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy.physics.mechanics import LagrangesMethod, dynamicsymbols

import frames as fr
from frames import strategies as fst
from frames.algebra import is_zero, tidy


def _lagranges_accelerations(L):
    """q̈ from sympy.physics.mechanics.LagrangesMethod for the same L, written in (q, u, t)."""
    ch = L.chart
    n = ch.dim
    t = dynamicsymbols._t
    qf = dynamicsymbols(" ".join(f"qq{i}" for i in range(n)), seq=True)
    sub = {ch.q[i]: qf[i] for i in range(n)} | {ch.u[i]: qf[i].diff(t) for i in range(n)}
    if ch.t is not None:
        sub[ch.t] = t
    LM = LagrangesMethod(L.expr.xreplace(sub), qf)
    LM.form_lagranges_equations()
    rhs = LM.rhs()
    back = [(qf[i].diff(t), ch.u[i]) for i in range(n)]
    back2 = {qf[i]: ch.q[i] for i in range(n)}
    if ch.t is not None:
        back2[t] = ch.t
    return [rhs[n + i].subs(back).xreplace(back2) for i in range(n)]


# ----------------------------------------------------------------- Proposition 1
@settings(max_examples=5)
@given(st.data())
def test_prop1_any_frame_equals_coordinate_frame_and_sympy_mechanics(data):
    ch = data.draw(fst.charts(min_dim=1, max_dim=3))
    L = data.draw(fst.quadratic_lagrangians(ch))
    F = data.draw(fst.frames_on(ch))
    G_frame = L.euler_lagrange_field(F)
    G_coord = L.euler_lagrange_field()
    assert G_frame.frame is F and G_coord.frame.is_holonomic()
    assert G_frame.equals(G_coord)
    assert G_coord.equals(G_frame)
    expected = _lagranges_accelerations(L)
    for a, b, c in zip(G_frame.accelerations(), G_coord.accelerations(), expected):
        assert is_zero(a - c)
        assert is_zero(b - c)
    # the field written in the other frame has the same coefficients
    assert all(is_zero(x - y) for x, y in zip(G_coord.in_frame(F).Gamma, G_frame.Gamma))


def test_prop1_comparison_can_fail():
    ch = fr.Chart("q1 q2")
    q1, q2 = ch.q
    u1, u2 = ch.u
    L = fr.Lagrangian(ch, (u1**2 + (1 + q1**2) * u2**2) / 2)
    F = fr.Frame([fr.VectorField(ch, [1, q2]), fr.VectorField(ch, [0, 1])])
    G = L.euler_lagrange_field(F)
    assert not G.equals(L.with_expr(L.expr + q1 * u2).euler_lagrange_field())  # gyroscopic term, not a gauge
    assert not G.equals(L.with_expr(L.expr - q1**3).euler_lagrange_field())
    assert G.equals(L.with_expr(L.expr + 2 * q1 * u1).euler_lagrange_field())  # total derivative of q1²


def test_energy_hessian_momenta_in_frame():
    mdl = fr.models.nonholonomic_particle()
    L, F = mdl.lagrangian, mdl.frame
    q1 = mdl.chart.q[0]
    _v1, v2, v3 = F.v
    assert L.hessian(F) == sp.Matrix([[1, 0, 0], [0, 1 + q1**2, -q1], [0, -q1, 1]])
    assert is_zero(L.energy(F) - L.in_frame(F))  # purely kinetic: E = L
    assert is_zero(L.momenta(F)[1] - ((1 + q1**2) * v2 - q1 * v3))
    assert L.hessian_rank(F) == 3 and L.is_regular(F)
    L.check_regular(F)


def test_equations_display_of_second_order_field():
    mdl = fr.models.nonholonomic_particle()
    G = mdl.lagrangian.euler_lagrange_field(mdl.frame)
    eqs = G.equations()
    assert len(eqs) == 6
    t = sp.Symbol("t")
    v2 = sp.Function("v2")(t)
    q3 = sp.Function("q3")(t)
    q1 = sp.Function("q1")(t)
    v3 = sp.Function("v3")(t)
    assert sp.Eq(sp.Derivative(q3, t), -q1 * v2 + v3) in eqs
    assert r"X_{1}^C" in G._repr_latex_() and r"\Gamma =" in G._repr_latex_()
    assert "X1^C" in repr(G)


# ----------------------------------------------------------------- time dependence
def test_time_dependent_lagrangian_has_time_term_and_matches_sympy_mechanics():
    ch = fr.Chart("x y", time=dynamicsymbols._t, params="e")
    x, y = ch.q
    ux, uy = ch.u
    t = ch.t
    e = ch.params[0]
    # charged particle in the time-dependent magnetic field B(t) = sin t: A = (0, B x)
    L = fr.Lagrangian(ch, (ux**2 + uy**2) / 2 + e * sp.sin(t) * x * uy - y**2 / 2)
    assert L.time_dependent
    F = fr.Frame([fr.VectorField(ch, [1, y]), fr.VectorField(ch, [0, 1])])
    G = L.euler_lagrange_field(F)
    assert G.time_dependent
    assert G.as_vector_field().time == 1
    assert "∂/∂t" in repr(G)
    assert r"\frac{\partial}{\partial t}" in G._repr_latex_()
    expected = _lagranges_accelerations(L)
    assert all(is_zero(a - b) for a, b in zip(G.accelerations(), expected))
    # ∂_t appears: q̈_x = e B(t) u_y + ... ; q̈_y = −e (B x)˙ = −e(cos t x + sin t u_x) − y
    assert is_zero(L.euler_lagrange_field().accelerations()[1] - (-e * sp.cos(t) * x - e * sp.sin(t) * ux - y))
    hamel = L.hamel_equations(F)
    assert all(eq.has(sp.cos(t)) or eq.has(sp.sin(t)) for eq in hamel)


# ----------------------------------------------------------------- bad input
def test_singular_hessian_raises_regularity_error_with_rank():
    ch = fr.Chart("q1 q2 q3")
    u1, u2, u3 = ch.u
    L = fr.Lagrangian(ch, (u1 + u2) ** 2 / 2 + u3**2 / 2)
    with pytest.raises(fr.errors.RegularityError, match=r"rank 2 < 3"):
        L.euler_lagrange_field()
    F = fr.Frame([fr.VectorField(ch, [1, ch.q[0], 0]), fr.VectorField(ch, [0, 1, 0]), fr.VectorField(ch, [0, 0, 1])])
    with pytest.raises(fr.errors.RegularityError, match=r"rank 2 < 3"):
        L.euler_lagrange_field(F)
    with pytest.raises(fr.errors.RegularityError, match=r"rank 2 < 3"):
        L.check_regular()
    assert L.hessian_rank() == 2 and not L.is_regular()


def test_undeclared_symbol_in_lagrangian_is_rejected():
    ch = fr.Chart("q1 q2")
    k = sp.Symbol("k")
    with pytest.raises(fr.errors.InvalidExpressionError, match=r"uses symbols \['k'\].*declared parameters"):
        fr.Lagrangian(ch, ch.u[0] ** 2 / 2 - k * ch.q[0] ** 2)
    L = fr.Lagrangian(ch, ch.u[0] ** 2 / 2 + ch.u[1] ** 2 / 2 - k * ch.q[0] ** 2, params=[k])
    assert k in L.chart.params
    with pytest.raises(fr.errors.InvalidExpressionError, match="strings are never parsed"):
        fr.Lagrangian(ch, "u1**2")
    with pytest.raises(fr.errors.InvalidExpressionError, match="frame: expected a Frame"):
        L.euler_lagrange_field("frame")
    with pytest.raises(fr.errors.ChartMismatchError):
        L.euler_lagrange_field(fr.Frame.coordinate(fr.Chart("a b")))


def test_cartan_system_rejects_bad_input():
    ch = fr.Chart("q1 q2", time=True)
    F = fr.Frame.coordinate(ch)
    u1 = ch.u[0]
    with pytest.raises(fr.errors.InvalidExpressionError, match="natural velocities"):
        fr.CartanSystem(F, u1**2)
    with pytest.raises(fr.errors.InvalidExpressionError, match="depends explicitly on t"):
        fr.CartanSystem(F, fr.Lagrangian(ch, u1**2 * ch.t))
    with pytest.raises(fr.errors.InvalidExpressionError, match="neither"):
        fr.CartanSystem(F, F.v[0] ** 2 * sp.Symbol("z"))


# ----------------------------------------------------------------- ε
@settings(max_examples=5)
@given(st.data())
def test_epsilon_is_C_infinity_Q_linear(data):
    ch = data.draw(fst.charts(min_dim=1, max_dim=2))
    L = data.draw(fst.quadratic_lagrangians(ch))
    F = data.draw(fst.frames_on(ch))
    # any second-order field: Γ = v^i X_i^C + Γ^i X_i^V with arbitrary Γ^i(q, v)
    Gam = [data.draw(fst.functions_on_TQ(ch)) for _ in ch.q]
    G = fr.SecondOrderField(F, [F.to_quasi(g) for g in Gam])
    Y = data.draw(fst.vector_fields(ch, trig=False))
    Z = data.draw(fst.vector_fields(ch, trig=False))
    f = data.draw(fst.functions_on_Q(ch, trig=True))
    eps = L.epsilon
    assert is_zero(eps(f * Z, G) - f * eps(Z, G))
    assert is_zero(eps(Y + Z, G) - eps(Y, G) - eps(Z, G))
    # components: ε(X_i) = g_ij Γ^j − r_i vanish exactly for the Euler–Lagrange field
    EL = L.euler_lagrange_field(F)
    assert all(is_zero(eps(X, EL)) for X in F.fields)


def test_epsilon_linearity_is_not_trivially_true():
    """Z ↦ Z^C L alone is only R-linear: the Γ(Z^V L) term is what cancels ḟ Z^V L."""
    ch = fr.Chart("q1 q2")
    q1, _ = ch.q
    L = fr.Lagrangian(ch, (ch.u[0] ** 2 + ch.u[1] ** 2) / 2)
    F = fr.Frame.coordinate(ch)
    Z = fr.VectorField(ch, [1, 0])
    Zc = (q1 * Z).complete_lift().in_frame(F)
    assert not is_zero(Zc(L.in_frame(F)) - q1 * Z.complete_lift().in_frame(F)(L.in_frame(F)))


# ----------------------------------------------------------------- Hamel / rigid body
def test_hamel_equations_of_free_rigid_body_are_eulers_equations():
    """Left-invariant frame on SO(3) in ZXZ Euler angles: Hamel's equations are Euler's equations."""
    ch = fr.Chart("phi theta psi", params="I1 I2 I3")
    phi, th, psi = ch.q
    I1, I2, I3 = ch.params

    def rot(axis, a):
        c, s = sp.cos(a), sp.sin(a)
        if axis == "z":
            return sp.Matrix([[c, -s, 0], [s, c, 0], [0, 0, 1]])
        return sp.Matrix([[1, 0, 0], [0, c, -s], [0, s, c]])

    Rm = rot("z", phi) * rot("x", th) * rot("z", psi)
    # body angular velocity: hat(ω) = R^T Ṙ, linear in u: ω = A(q) u; A is the coframe
    Rdot = sum((sp.diff(Rm, qi) * ui for qi, ui in zip(ch.q, ch.u)), sp.zeros(3, 3))
    W = (Rm.T * Rdot).applyfunc(tidy)
    omega = [W[2, 1], W[0, 2], W[1, 0]]
    A = sp.Matrix([[sp.diff(w, ui) for ui in ch.u] for w in omega])
    Xmat = (A.inv().T).applyfunc(tidy)  # rows X_i^j with Θ = (X^T)^{-1} = A
    F = fr.Frame([fr.VectorField(ch, list(Xmat.row(i))) for i in range(3)], v="w")
    R = F.anholonomy
    # left-invariant fields: [E1, E2] = E3 and cyclic
    assert is_zero(R[2, 0, 1] - 1) and is_zero(R[0, 1, 2] - 1) and is_zero(R[1, 2, 0] - 1)
    L = fr.Lagrangian(ch, sum((Ii * w**2 for Ii, w in zip(ch.params, omega)), sp.S.Zero) / 2)
    eqs = L.hamel_equations(F)
    t = sp.Symbol("t")
    w1, w2, w3 = (sp.Function(f"w{i}")(t) for i in (1, 2, 3))
    euler = [
        I1 * w1.diff(t) - (I2 - I3) * w2 * w3,
        I2 * w2.diff(t) - (I3 - I1) * w3 * w1,
        I3 * w3.diff(t) - (I1 - I2) * w1 * w2,
    ]
    # compare with derivatives and functions replaced by symbols (exact, trig-aware zero test)
    d = sp.symbols("d1:4")
    ws = sp.symbols("W1:4")
    qs = {sp.Function(str(qi))(t): qi for qi in ch.q}
    dq = sp.symbols("dq1:4")
    rep = {w1.diff(t): d[0], w2.diff(t): d[1], w3.diff(t): d[2]}
    rep |= {sp.Function(str(qi))(t).diff(t): dq[i] for i, qi in enumerate(ch.q)}
    rep2 = {w1: ws[0], w2: ws[1], w3: ws[2], **qs}
    for eq, ex in zip(eqs, euler):
        lhs = eq.lhs.doit().subs(rep).xreplace(rep2)
        assert is_zero(lhs - ex.subs(rep).xreplace(rep2))
    assert r"\frac{d}{d t}" in eqs.latex()
    assert eqs._repr_latex_().startswith("$\\begin{aligned}")
    kin = L.hamel_equations(F, kinematic=True)
    assert len(kin) == 6


# ----------------------------------------------------------------- forms
@st.composite
def _forms_in(draw, coords, degree):
    n = len(coords)
    from itertools import combinations

    ch = fr.Chart(list(coords))
    terms = {}
    for idx in combinations(range(n), degree):
        if draw(st.booleans()):
            terms[idx] = draw(fst.functions_on_Q(ch, trig=False, max_terms=2))
    return fr.Form(coords, degree, terms)


def _to_ga(form, ga, es):
    out = 0
    for idx, c in form.terms.items():
        blade = 1
        for i in idx:
            blade = blade ^ es[i] if blade != 1 else es[i]
        out = out + c * blade
    return out


def _ga_coeffs(mv, es, degree, n):
    from itertools import combinations

    res = {}
    for idx in combinations(range(n), degree):
        blade = es[idx[0]]
        for i in idx[1:]:
            blade = blade ^ es[i]
        # coefficient of the blade via the scalar product with its reverse (orthonormal basis)
        res[idx] = sp.expand((mv < blade.rev()).scalar())
    return res


def _import_galgebra_ga():
    """Import galgebra's Ga without keeping its global printing patches.

    Importing galgebra replaces ``sympy.Basic.__repr__``, ``MatrixBase.__repr__`` and
    ``builtins.print`` for the whole process (its own printer), which would change the
    output of every later doctest in the same worker. Restore them.
    """
    import builtins

    saved = (sp.Basic.__repr__, sp.MatrixBase.__repr__, builtins.print)
    try:
        from galgebra.ga import Ga
    finally:
        sp.Basic.__repr__, sp.MatrixBase.__repr__, builtins.print = saved
    return Ga


@settings(max_examples=8)
@given(st.data())
def test_forms_agree_with_galgebra(data):
    """d, ∧ and ⌟ of Form against galgebra's ∇∧, ^ and left contraction (Euclidean, dx^i ↔ e_i)."""
    Ga = _import_galgebra_ga()

    xs = sp.symbols("x1:4")
    ga = Ga("e", g=[1, 1, 1], coords=xs)
    es = ga.mv()
    a = data.draw(_forms_in(xs, 1))
    b = data.draw(_forms_in(xs, 1))
    c = data.draw(_forms_in(xs, 2))
    Z = [data.draw(fst.functions_on_Q(fr.Chart(list(xs)), trig=False, max_terms=1)) for _ in xs]
    Zga = sum((z * e for z, e in zip(Z, es)), 0 * es[0])
    checks = [
        (a.d(), ga.grad ^ _to_ga(a, ga, es), 2),
        (a ^ b, _to_ga(a, ga, es) ^ _to_ga(b, ga, es), 2),
        (c.interior(Z), Zga < _to_ga(c, ga, es), 1),
        (c.d(), ga.grad ^ _to_ga(c, ga, es), 3),
    ]
    for mine, theirs, deg in checks:
        if not mine.terms and theirs == 0:
            continue
        ref = _ga_coeffs(theirs + 0 * es[0], es, deg, 3)
        for idx, val in ref.items():
            assert is_zero(mine.terms.get(idx, 0) - val)
    assert a.d().d().is_zero()
    assert (a ^ a).is_zero()
    assert ((a ^ b) + (b ^ a)).is_zero()


def test_form_basics():
    x, y = sp.symbols("x y")
    dx, dy = fr.Form.differential((x, y), x), fr.Form.differential((x, y), y)
    w = (x * dx) ^ dy
    assert w.coefficient(y, x) == -x
    assert w([1, 0], [0, 1]) == x
    assert w.matrix() == sp.Matrix([[0, x], [-x, 0]])
    assert repr(w) == "x*dx∧dy"
    assert fr.Form.exact((x, y), x * y).equals(y * dx + x * dy)
    with pytest.raises(fr.errors.ChartMismatchError):
        w + fr.Form.zero((x, sp.Symbol("z")), 2)
    with pytest.raises(fr.errors.InvalidExpressionError):
        w([1, 0])


@settings(max_examples=6)
@given(st.data())
def test_lift_identities_for_coframe(data):
    """θ(Z^C) = θ(Z), θ(Z^V) = 0, X_i^C ⌟ dθ^j = −R^j_ik θ^k (section 2.3)."""
    ch = data.draw(fst.charts(min_dim=2, max_dim=3))
    F = data.draw(fst.frames_on(ch))
    cs = fr.CartanSystem(F, sum(v**2 for v in F.v) / 2)
    Ys = cs.lifted_frame()
    n = F.dim
    R = F.anholonomy
    cof = cs.lifted_coframe()
    for j in range(n):
        th = cs.theta(j)
        for i in range(n):
            assert is_zero(th(Ys[i]) - (1 if i == j else 0))
            assert th(Ys[n + i]) == 0
            lhs = th.d().interior(Ys[i])
            rhs = sum((-R[j, i, k] * cs.theta(k) for k in range(n)), fr.Form.zero(cs.coords, 1))
            assert lhs.equals(rhs)
    for I, eta in enumerate(cof):
        for K, Y in enumerate(Ys):
            assert is_zero(eta(Y) - (1 if I == K else 0))


# ----------------------------------------------------------------- Cartan route
@settings(max_examples=4)
@given(st.data())
def test_cartan_route_reproduces_prop1_for_regular_lagrangians(data):
    ch = data.draw(fst.charts(min_dim=1, max_dim=2))
    L = data.draw(fst.quadratic_lagrangians(ch))
    F = data.draw(fst.frames_on(ch))
    sol = fr.CartanSystem(F, L).solution()
    assert sol.is_unique and sol.exists_everywhere
    assert all(c == 0 for c in sol.second_order_coefficients())
    assert sol.as_second_order_field().equals(L.euler_lagrange_field(F))
    assert fr.CartanSystem(F, L).residual(sol.vector()).is_zero()


def test_cartan_solver_singular_lagrangian_gives_conditions_and_parameters():
    """L = u1²/2 − q2²/2 − q1 q2: ω = du1∧dq1 is degenerate; q2 is fixed by q1 + q2 = 0."""
    ch = fr.Chart("q1 q2")
    q1, q2 = ch.q
    L = fr.Lagrangian(ch, ch.u[0] ** 2 / 2 - q2**2 / 2 - q1 * q2)
    with pytest.raises(fr.errors.RegularityError, match="rank 1 < 2"):
        L.euler_lagrange_field()
    sol = fr.CartanSystem(fr.Frame.coordinate(ch), L).solution()
    v1, _ = sol.system.frame.v
    assert [sp.factor(c) for c in sol.conditions] == [q1 + q2] or [sp.factor(-c) for c in sol.conditions] == [q1 + q2]
    assert sol.locus == {}
    assert [p.name for p in sol.parameters] == ["k2", "Gamma2"]
    k1, _k2, G1, _G2 = sol.components
    assert k1 == v1 and G1 == -q2
    assert sol.components[1] == sol.parameters[0] and sol.components[3] == sol.parameters[1]
    with pytest.raises(fr.errors.InvalidExpressionError, match="not a unique field"):
        sol.as_second_order_field()
    # the residual of Γ ⌟ ω + dE is (q1 + q2) dq2: it vanishes exactly on the condition
    res = sol.system.residual(sol.vector())
    assert res.equals(fr.Form.differential(sol.system.coords, q2) * (q1 + q2))
    assert "exists only where" in repr(sol)
