"""Generalised forces ``F = F_i dq^i`` in the nonholonomic method (Lagrange–d'Alembert with forces):
``Γ(X_α^V L) − X_α^C L = F(X_α)`` on C and ``λ_a = Γ(X_a^V L) − X_a^C L − F(X_a)``."""

import pytest
import sympy as sp
from sympy import cos, sin, symbols
from sympy.physics.mechanics import LagrangesMethod, Point, ReferenceFrame, dynamicsymbols

import frames as fr
from frames.algebra import is_zero

NAMES = sorted(fr.models.catalogue())


def _damped(mdl, c):
    """The model's system with Rayleigh damping ``F_i = −c u_i`` (``c`` declared as a parameter)."""
    L = fr.Lagrangian(mdl.chart, mdl.lagrangian.expr, params=[c])
    F = fr.Frame([fr.VectorField(L.chart, X.components) for X in mdl.frame.fields], v=mdl.frame.v)
    return fr.NonholonomicSystem(L, F, mdl.m, forces=[-c * u for u in L.chart.u])


def _damped_knife_lm():
    """SymPy's knife edge with damping: a force −c v on the contact point and a torque −c θ̇ on the blade."""
    x, y, th = dynamicsymbols("x y theta")
    T = dynamicsymbols._t
    xd, yd, thd = (s.diff(T) for s in (x, y, th))
    m, J, c = symbols("m J c", positive=True)
    N = ReferenceFrame("N")
    B = N.orientnew("B", "Axis", [th, N.z])  # the blade, turning with θ: a torque on it is a force on θ
    P = Point("P")
    P.set_vel(N, xd * N.x + yd * N.y)
    LM = LagrangesMethod(
        m * (xd**2 + yd**2) / 2 + J * thd**2 / 2,
        [x, y, th],
        nonhol_coneqs=[-sin(th) * xd + cos(th) * yd],
        forcelist=[(P, -c * (xd * N.x + yd * N.y)), (B, -c * thd * N.z)],
        frame=N,
    )
    LM.form_lagranges_equations()
    return LM, (x, y, th), (xd, yd, thd)


@pytest.mark.parametrize("name", [n for n in NAMES if not fr.models.get(n).lagrangian.time_dependent])
def test_damping_dissipates_the_energy_at_the_rate_of_its_power(name):
    """Power balance, exactly: along the damped field ``dE/dt = F(q̇) = −c |u|²`` on C (``E`` the energy)."""
    mdl = fr.models.get(name)
    c = sp.Symbol("c_damp", positive=True)
    nh = _damped(mdl, c)
    F = nh.frame
    E = nh.lagrangian.energy(F)
    u_on_C = [F.to_quasi(u).xreplace(nh.on_C) for u in nh.lagrangian.chart.u]
    power = -c * sum(x**2 for x in u_on_C)
    assert is_zero(nh.field()(E) - power), name
    assert all(is_zero(r) for r in nh.coordinate_residuals())
    assert all(is_zero(r) for r in nh.hamel_residuals())
    # the fast path (trees) is the same field
    assert all(is_zero(a - b) for a, b in zip(nh.field(canonical=False).Gamma, nh.field().Gamma, strict=True))


def test_damped_knife_edge_agrees_with_lagranges_method_with_a_forcelist():
    """An independent computation: ``LagrangesMethod`` with the same damping in its forcelist; the accelerations
    and the multiplier agree exactly on C."""
    LM, (x, y, th), (xd, yd, _thd) = _damped_knife_lm()
    c = symbols("c", positive=True)
    rhs = LM.rhs()
    imp = fr.app.mechanics_import(LagrangesMethod(LM._L, [x, y, th], nonhol_coneqs=[-sin(th) * xd + cos(th) * yd]))
    ch = imp.chart
    L = fr.Lagrangian(ch, imp.lagrangian.expr, params=[c])
    F = fr.Frame([fr.VectorField(L.chart, X.components) for X in imp.frame.fields], v=imp.frame.v)
    forces = [-c * u for u in L.chart.u]  # the forcelist's generalised forces: −c ẋ, −c ẏ, and −c θ̇ (a torque)
    nh = fr.NonholonomicSystem(L, F, imp.m, forces=forces)
    acc = nh.accelerations()
    on_c = F.on_constraint(nh.m)
    for i in range(3):
        assert is_zero(F.to_quasi(imp.to_frames(rhs[3 + i]) - acc[i]).xreplace(on_c))
    lam_lm = F.to_quasi(imp.to_frames(rhs[6])).xreplace(on_c)
    # LagrangesMethod's multiplier multiplies the constraint row as written, −sin θ dx + cos θ dy; here that row is
    # the coframe's θ^3, whose component of ε is frames' multiplier: the two agree (damping included)
    th_ = ch.q[2]
    assert F.coframe_matrix.row(2) == sp.ImmutableMatrix([[-sp.sin(th_), sp.cos(th_), 0]])
    assert is_zero(nh.multipliers()[0] - lam_lm)


def test_forces_are_checked_and_refused_where_there_is_no_theory():
    mdl = fr.models.knife_edge()
    L, F = mdl.lagrangian, mdl.frame
    with pytest.raises(fr.errors.InvalidExpressionError, match=r"^NonholonomicSystem: forces: expected a sequence"):
        fr.NonholonomicSystem(L, F, 2, forces="__import__('os')")
    with pytest.raises(fr.errors.InvalidExpressionError, match=r"^NonholonomicSystem: forces"):
        fr.NonholonomicSystem(L, F, 2, forces=[0, 0])
    with pytest.raises(fr.errors.InvalidExpressionError, match=r"forces\[1\]: .*declared parameters"):
        fr.NonholonomicSystem(L, F, 2, forces=[0, -sp.Symbol("zeta") * mdl.chart.u[1], 0])
    nh = fr.NonholonomicSystem(L, F, 2, forces=[0, -mdl.chart.u[1], 0])
    assert nh != fr.NonholonomicSystem(L, F, 2) and nh == fr.NonholonomicSystem(L, F, 2, forces=[0, -mdl.chart.u[1], 0])
    with pytest.raises(fr.errors.ConstraintError, match="no theory with nonconservative forces"):
        fr.VakonomicSystem.from_nonholonomic(nh)
    with pytest.raises(fr.errors.ConstraintError, match="invariant_measure: system: a system with forces"):
        fr.invariant_measure(nh)
    assert fr.NonholonomicSystem.from_constraints(L, mdl.constraints, forces=[0, -mdl.chart.u[1], 0]).forces is not None


def test_euler_lagrange_field_with_forces_is_lagranges_equations_in_any_frame():
    """Proposition 1 with forces, in a non-coordinate frame: the natural accelerations equal an independent solve
    of Lagrange's equations ``M q̈ = ∂L/∂q − (∂²L/∂u∂q) u + F``; the damped oscillator is ``Γ = −c v − k x``."""
    ch = fr.Chart("x", params="c k")
    (x,), (u,), (c, k) = ch.q, ch.u, ch.params
    G = fr.Lagrangian(ch, u**2 / 2 - k * x**2 / 2).euler_lagrange_field(forces=[-c * u])
    assert G.Gamma == sp.ImmutableMatrix([-c * G.frame.v[0] - k * x])
    ch2 = fr.Chart("r theta", params="c m")
    (r, th), (ur, uth), (c2, m) = ch2.q, ch2.u, ch2.params
    L = fr.Lagrangian(ch2, m * (ur**2 + r**2 * uth**2) / 2 + sp.cos(th))
    F = fr.Frame([fr.VectorField(ch2, [1, 0]), fr.VectorField(ch2, [r, 1])])
    forces = [-c2 * ur, -c2 * r**2 * uth + sp.sin(th)]
    acc = L.euler_lagrange_field(F, forces=forces).accelerations()
    M = sp.Matrix(2, 2, lambda i, j: sp.diff(L.expr, ch2.u[i], ch2.u[j]))
    rhs = sp.Matrix(
        [
            sp.diff(L.expr, q) - sum(sp.diff(L.expr, uu, q2) * u2 for q2, u2 in zip(ch2.q, ch2.u)) + f
            for q, uu, f in zip(ch2.q, ch2.u, forces)
        ]
    )
    assert all(is_zero(a - b) for a, b in zip(acc, M.LUsolve(rhs), strict=True))


def test_from_mechanics_imports_a_forcelist_as_generalised_forces():
    """A LagrangesMethod's nonconservative loads (a damping force on a point, a torque on a body) become the
    model's forces ``Q_i = F·∂v/∂q̇^i``: frames' accelerations equal ``LagrangesMethod.rhs()`` on C, exactly."""
    LM, _q, _qd = _damped_knife_lm()
    rhs = LM.rhs()
    mdl = fr.from_mechanics(LM, name="damped-knife")
    u = mdl.chart.u
    cc = mdl.params["c"]
    assert mdl.forces == (-cc * u[0], -cc * u[1], -cc * u[2])
    imp = fr.app.mechanics_import(LM)
    F = mdl.frame
    on_c = F.on_constraint(mdl.m)
    acc = mdl.nonholonomic().accelerations()
    assert all(is_zero(F.to_quasi(imp.to_frames(rhs[3 + i]) - acc[i]).xreplace(on_c)) for i in range(3))
    back = fr.loads_model(fr.dumps_model(mdl))  # a file's parameters carry no assumptions: compare by name
    assert [str(f) for f in back.forces] == [str(f) for f in mdl.forces]
