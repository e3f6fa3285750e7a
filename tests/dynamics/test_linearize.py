"""Linearisation on C about an equilibrium or a steady motion (``frames.linearize``), exact in the parameters."""

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import frames as fr
from frames import strategies as fst
from frames.algebra import derivative, is_zero


def _sleigh_at(V):
    mdl = fr.models.chaplygin_sleigh()
    th, x, y = mdl.chart.q
    ut, ux, uy = mdl.chart.u
    return mdl, {th: 0, x: 0, y: 0, ut: 0, ux: V, uy: 0}


def test_sleigh_straight_motion_has_the_eigenvalue_minus_aVm_over_I_plus_a2m():
    """The Chaplygin sleigh moving straight at speed V: the ignorable θ, x, y are removed and the turning rate
    decays with the eigenvalue −aVm/(I + a²m), exactly; the forward speed gives 0 (the energy)."""
    V = sp.Symbol("V")
    mdl, at = _sleigh_at(V)
    lin = fr.linearize(mdl.nonholonomic(), at)
    m, I, a = (mdl.params[k] for k in ("m", "I", "a"))
    assert set(lin.removed) == set(mdl.chart.q)
    eig = lin.A.eigenvals()
    assert len(eig) == 2 and 0 in eig
    assert any(is_zero(e + a * V * m / (I + a**2 * m)) for e in eig)
    assert fr.linearize(mdl, at) == lin  # a model stands for its nonholonomic system
    vals = {"m": 1.0, "I": 0.5, "a": 0.3}
    assert lin.stability(vals | {V: 2.0}) == "marginal"  # the energy direction: no asymptotic stability
    assert lin.stability(vals | {V: -2.0}) == "unstable"  # backwards: the sleigh turns round
    ev = np.sort(np.real(lin.eigenvalues(vals | {V: 2.0})))
    np.testing.assert_allclose(ev, [-0.3 * 2.0 * 1.0 / (0.5 + 0.09), 0.0], atol=1e-14)


def test_linearize_refuses_a_point_that_is_not_steady_or_not_on_C():
    mdl, at = _sleigh_at(1)
    nh = mdl.nonholonomic()
    ut, _ux, uy = mdl.chart.u
    with pytest.raises(fr.errors.ConstraintError, match="not in D"):
        fr.linearize(nh, at | {uy: 1})
    with pytest.raises(fr.errors.StateError, match="not an equilibrium or a steady motion"):
        fr.linearize(nh, at | {ut: 1})  # turning while moving: the forward speed changes


def test_linearize_agrees_with_a_finite_difference_of_the_field():
    """``A`` is the Jacobian of the reduced right-hand sides: a central difference of the field agrees."""
    mdl = fr.models.knife_edge()
    nh = mdl.nonholonomic()
    phi, x, y = mdl.chart.q
    up, ux, uy = mdl.chart.u
    lin = fr.linearize(nh, {phi: 0, x: 0, y: 0, up: 0, ux: 0, uy: 0})
    G = nh.field().Gamma
    vals = dict(mdl.param_values)
    f = [*(sp.Add(*[nh.frame.v[al] * nh.frame.matrix[al, j] for al in range(nh.m)]) for j in range(3)), *G[: nh.m]]
    rows = [f[list(mdl.chart.q).index(q)] for q in lin.states if q in mdl.chart.q] + list(f[3:])
    h = 1e-6
    num = np.zeros((len(lin.states), len(lin.states)))
    for j, s in enumerate(lin.states):
        for i, e in enumerate(rows):
            plus = {x_: (h if x_ == s else 0) for x_ in lin.states} | vals
            minus = {x_: (-h if x_ == s else 0) for x_ in lin.states} | vals
            num[i, j] = (float(e.subs(plus)) - float(e.subs(minus))) / (2 * h)
    np.testing.assert_allclose(np.array(lin.A.subs(vals).tolist(), dtype=float), num, atol=1e-8)


def test_the_sweep_finds_where_the_sleigh_changes_stability():
    """The turning eigenvalue −aVm/(I + a²m) crosses zero at V = 0: the sweep's critical value, to 1e-12."""
    V = sp.Symbol("V")
    mdl, at = _sleigh_at(V)
    lin = fr.linearize(mdl.nonholonomic(), at)
    vals = {"m": 1.0, "I": 0.5, "a": 0.3}
    speeds = np.linspace(-1.0, 1.3, 24)
    eig = lin.sweep(V, speeds, vals)
    assert eig.shape == (24, 2)
    np.testing.assert_allclose(np.real(eig).min(), -0.3 * 1.3 / 0.59, rtol=1e-12)
    # the columns follow the eigenvalues by continuity: the turning one stays in one column through 0
    turning = int(np.argmax(np.abs(np.real(eig[0]))))
    np.testing.assert_allclose(np.real(eig[:, turning]), -0.3 * speeds / 0.59, rtol=1e-12, atol=1e-14)
    (crit,) = lin.critical_values(V, speeds, vals)
    assert abs(crit) < 1e-12


def _driven_knife():
    """The knife edge with a steering torque τ, a thrust P along the blade and viscous damping ``−c u``."""
    mdl = fr.models.knife_edge()
    tau, P, c = sp.symbols("tau P c")
    L = fr.Lagrangian(mdl.chart, mdl.lagrangian.expr, params=[tau, P, c])
    F = fr.Frame([fr.VectorField(L.chart, X.components) for X in mdl.frame.fields], v=mdl.frame.v)
    phi = L.chart.q[0]
    up, ux, uy = L.chart.u
    forces = [tau - c * up, P * sp.cos(phi) - c * ux, P * sp.sin(phi) - c * uy]
    return mdl, fr.NonholonomicSystem(L, F, mdl.m, forces=forces), (tau, P, c)


def test_inputs_give_B_and_the_point_may_be_given_by_the_independent_quasi_velocities():
    """The driven knife edge sliding straight at speed V with the thrust that balances the damping, P = cV: the
    point given by ``v1 = 0, v2 = V`` (no natural velocities), ``B = ∂ẋ/∂(τ, P)`` exact."""
    mdl, nh, (tau, P, c) = _driven_knife()
    J, m = mdl.params["J"], mdl.params["m"]
    V = sp.Symbol("V")
    lin = fr.linearize(nh, {"phi": 0, "x": 0, "y": 0, "v1": 0, "v2": V, P: c * V}, inputs=["tau", P])
    assert lin.states == nh.frame.v[:2] and set(lin.removed) == set(mdl.chart.q)
    assert lin.inputs == (tau, P)
    assert lin.A == sp.ImmutableMatrix([[-c / J, 0], [0, -c / m]])
    assert lin.B == sp.ImmutableMatrix([[1 / J, 0], [0, 1 / m]])
    A, B = lin.matrices({"J": 2, "m": 4, "c": 1, "V": 3})
    np.testing.assert_allclose(A, [[-0.5, 0], [0, -0.25]], atol=1e-15)
    np.testing.assert_allclose(B, [[0.5, 0], [0, 0.25]], atol=1e-15)
    assert lin.stability({"J": 2, "m": 4, "c": 1, "V": 3}) == "asymptotically stable"
    with pytest.raises(fr.errors.StateError, match="not an equilibrium or a steady motion"):
        fr.linearize(nh, {"phi": 0, "x": 0, "y": 0, "v1": 0, "v2": V}, inputs=["tau", P])  # P = 0: it slows
    with pytest.raises(fr.errors.ArgumentError, match="not a parameter"):
        fr.linearize(nh, {"phi": 0, "x": 0, "y": 0, "v1": 0, "v2": V}, inputs=["phi"])
    with pytest.raises(fr.errors.ArgumentError, match="not both"):
        fr.linearize(nh, {"phi": 0, "x": 0, "y": 0, "v1": 0, "v2": V, "u_x": V, "u_y": 0, "u_phi": 0})
    with pytest.raises(fr.errors.ArgumentError, match="give values for"):
        lin.eigenvalues({"J": 2, "m": 4})


def test_a_point_whose_values_contain_a_state_symbol_is_linearised_at_that_state():
    """A family of steady motions in the lean θ (the point's values contain θ): the columns are derivatives along
    the state, not along the family (along which the rates stay zero)."""
    mdl = fr.models.rolling_disc()
    nh = mdl.nonholonomic()
    fam = next(f for f in fr.relative_equilibria(nh) if len(f.free) == 2)
    lin = fr.linearize(nh, fam.at(removed={"psi": 0}))
    th = mdl.chart.q[3]
    assert th in lin.states and th not in lin.removed
    num = lin.eigenvalues({"m": 1, "r": sp.Rational(1, 2), "g": 10, "theta": sp.Rational(1, 5), "v1": 3})
    assert np.count_nonzero(np.abs(num) > 1e-9) >= 2  # the lean mode is not lost


@st.composite
def _system_at_rest(draw):
    """A random system with compound angles, at rest at q = 0 where its potential is critical: the kinetic metric
    of :func:`frames.strategies.quadratic_lagrangians`, ``V = Σ k (1 − cos a) + Σ k' q_i²`` with ``a`` a compound
    angle through 0, a frame with compound angles (unipotent, so regular everywhere), one constraint."""
    ch = draw(fst.charts(min_dim=2, max_dim=3))
    T = draw(fst.quadratic_lagrangians(ch, gyroscopic=False, potential=False)).expr
    V = sp.S.Zero
    for _ in range(draw(st.integers(min_value=1, max_value=2))):
        V += draw(st.integers(1, 3)) * (1 - sp.cos(draw(fst.compound_angles(ch, constants=False))))
    V += sum(draw(st.integers(0, 2)) * q**2 for q in ch.q)
    F = draw(fst.frames_on(ch, compound=True))
    return fr.NonholonomicSystem(fr.Lagrangian(ch, T - V), F, ch.dim - 1)


def _at_rest(nh):
    return {q: 0 for q in nh.lagrangian.chart.q} | {u: 0 for u in nh.lagrangian.chart.u}


@given(_system_at_rest())
@settings(max_examples=8, deadline=None)
def test_A_equals_the_jacobian_of_the_canonical_field_on_random_systems_with_compound_angles(nh):
    """Independent computations: ``A`` from the mass-matrix trees at the point against the derivative of the
    explicit canonical field, exactly."""
    lin = fr.linearize(nh, _at_rest(nh))
    F, m, chart = nh.frame, nh.m, nh.lagrangian.chart
    G = nh.field().Gamma
    rates = {q: sp.Add(*[F.v[al] * F.matrix[al, j] for al in range(m)]) for j, q in enumerate(chart.q)}
    rates |= {F.v[al]: G[al] for al in range(m)}
    here = dict(zip(lin.states, lin.point, strict=True)) | {q: 0 for q in lin.removed}
    for i, x in enumerate(lin.states):
        for j, y in enumerate(lin.states):
            assert is_zero(lin.A[i, j] - derivative(rates[x], y).xreplace(here)), (x, y)
    for q in lin.removed:  # nothing kept depends on a removed coordinate, at the linear level
        assert all(is_zero(derivative(rates[x], q).xreplace(here)) for x in lin.states)


@given(_system_at_rest(), st.data())
@settings(max_examples=6, deadline=None)
def test_the_spectrum_does_not_depend_on_the_adapted_frame(nh, data):
    """``X_1 → h X_1`` with ``h = 2 + sin² a`` (a compound angle): the same motion in another adapted frame; the
    characteristic polynomial of the whole linearisation, ``s^(removed) det(s − A)``, is the same, exactly."""
    F = nh.frame
    chart = nh.lagrangian.chart
    h = 2 + sp.sin(data.draw(fst.compound_angles(chart))) ** 2
    G = fr.Frame([fr.VectorField(chart, [h * c for c in F.fields[0].components]), *F.fields[1:]], v="w")
    other = fr.NonholonomicSystem(nh.lagrangian, G, nh.m)
    s = sp.Symbol("s")
    polys = []
    for sys_ in (nh, other):
        lin = fr.linearize(sys_, _at_rest(sys_))
        polys.append(sp.Poly(s ** len(lin.removed) * lin.A.charpoly(s).as_expr(), s))
    assert polys[0].degree() == polys[1].degree() == chart.dim + nh.m
    assert all(is_zero(a - b) for a, b in zip(polys[0].all_coeffs(), polys[1].all_coeffs(), strict=True))


def test_critical_values_at_the_ends_on_a_sample_and_at_a_touch():
    """The sleigh's crossing at V = 0 found to tol wherever the samples fall: at an end of the range, on a sample
    inside the band of rounding, and a touch (stable, 0, stable) reported once."""
    V = sp.Symbol("V")
    mdl, at = _sleigh_at(V)
    lin = fr.linearize(mdl.nonholonomic(), at)
    vals = {"m": 1.0, "I": 0.5, "a": 0.3}
    for grid in ([-1, 0], [0, 1], [-1, 1e-10, 1], [1, -1]):
        (c,) = lin.critical_values(V, grid, vals)
        assert abs(c) < 1e-12, (grid, c)
    assert len(lin.critical_values(V, [1, 0, 2], vals)) == 1  # a touch of the axis: one value
    assert lin.critical_values(V, [1, 2], vals) == []


def test_bad_numeric_arguments_of_a_linearisation_are_named():
    V = sp.Symbol("V", positive=True)
    mdl, at = _sleigh_at(V)
    lin = fr.linearize(mdl.nonholonomic(), at)
    vals = {"m": 1.0, "I": 0.5, "a": 0.3}
    Err = fr.errors.ArgumentError
    for tol in (0, -1, float("nan"), "x"):
        with pytest.raises(Err, match="tol: expected a positive number"):
            lin.critical_values(V, [0, 1], vals, tol=tol)
    for values in ([1, "a"], "ab", [1, 1j], [[1, 2]], [1]):
        with pytest.raises(Err, match="values: expected a finite 1-d sequence"):
            lin.critical_values(V, values, vals)
    with pytest.raises(Err, match="parameter: expected a symbol"):
        lin.sweep([V], [0, 1], vals)
    for bad in (float("nan"), float("inf"), 1j, sp.Symbol("w")):
        with pytest.raises(fr.errors.FramesError, match=r"subs\[V\]"):
            lin.eigenvalues(vals | {"V": bad})
    # a symbol key is matched by its name (whatever its assumptions); twice is refused
    np.testing.assert_allclose(
        sorted(lin.eigenvalues(vals | {sp.Symbol("V"): 2.0}).real), [-0.6 / 0.59, 0.0], atol=1e-14
    )
    with pytest.raises(Err, match="given twice"):
        lin.eigenvalues(vals | {"V": 2.0, sp.Symbol("V"): 2.0})
    c = sp.Symbol("c")
    lin_c = fr.linearize(
        fr.NonholonomicSystem(
            fr.Lagrangian(mdl.chart, mdl.lagrangian.expr, params=[c]),
            fr.Frame([fr.VectorField(mdl.chart, X.components) for X in mdl.frame.fields], v=mdl.frame.v),
            mdl.m,
        ),
        _sleigh_at(sp.sqrt(c))[1],
    )
    with pytest.raises(Err, match="not real at these values"):
        lin_c.eigenvalues(vals | {"c": -4})


def test_a_removed_coordinate_that_moves_must_not_enter_the_kept_equations():
    """``L = |u|²/2 + x² y`` with ``u_z = 0``, at ``x = y = 0`` moving along x: the linearised equations do not see
    x at the point, but v̇₂ = x² grows along the motion, so the point is not steady and is refused."""
    ch = fr.Chart("x y z")
    x, y, z = ch.q
    ux, uy, uz = ch.u
    L = fr.Lagrangian(ch, (ux**2 + uy**2 + uz**2) / 2 + x**2 * y)
    F = fr.Frame([fr.VectorField.coordinate(ch, i) for i in range(3)])
    nh = fr.NonholonomicSystem(L, F, 2)
    with pytest.raises(fr.errors.StateError, match="not a steady motion: x moves"):
        fr.linearize(nh, {x: 0, y: 0, z: 0, ux: 1, uy: 0, uz: 0})
    lin = fr.linearize(nh, {x: 0, y: 0, z: 0, ux: 0, uy: 0, uz: 0})  # at rest it is an equilibrium
    assert lin.A.shape[0] + len(lin.removed) == 5


def test_the_time_is_not_an_input_and_a_float_point_is_named():
    mdl, nh, _inputs = _driven_knife()
    with pytest.raises(fr.errors.ArgumentError, match="not a parameter of the system's forces"):
        fr.linearize(nh, {"phi": 0, "x": 0, "y": 0, "v1": 0, "v2": 0}, inputs=["t"])
    with pytest.raises(fr.errors.ArgumentError, match="given twice"):
        fr.linearize(nh, {"phi": 0, mdl.chart.q[0]: 0, "x": 0, "y": 0, "v1": 0, "v2": 0})
    disc = fr.models.rolling_disc().nonholonomic()
    circle = next(f for f in fr.relative_equilibria(disc) if len(f.free) == 2)
    with pytest.raises(fr.errors.StateError, match="give the point exactly"):
        fr.linearize(disc, circle.at({"theta": 0.2, "v1": 3.0}))
