r"""Invariant measures ``N(q) dq∧dv^α`` of nonholonomic systems (``frames.invariant_measure``).

Volume convention: densities are relative to ``dq^1∧…∧dq^n∧dv^1∧…∧dv^m`` on C (the coordinates
``(q, v^α)`` of the adapted frame); relative to ``dq∧dp_α`` (Crampin–Mestdag §7.1) they are divided
by ``det(g_αβ)``, ``g_αβ = X_α^V X_β^V L`` (``InvariantMeasure.density_momenta``). Each test
compares with a density or an obstruction derived by hand (in its docstring) or printed in the
literature.
"""

from pathlib import Path

import pytest
import sympy as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import frames as fr
from frames import strategies as fst
from frames.dynamics._measure import _ratint_primitive
from frames.dynamics._measure_linear import _linear_rows_ratfunc, _rref_small, _rref_solve

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _constant(e):
    """``e`` does not depend on any coordinate or quasi-velocity (a constant factor)."""
    e = sp.cancel(sp.powsimp(e, force=True))
    return not any(s.name.startswith(("q", "v")) for s in e.free_symbols)


# --------------------------------------------------------------------------------- helpers
def suslov(inertia, a, basis):
    r"""The Suslov problem on SO(3) in Euler angles (φ, θ, ψ), z-x-z.

    Left-invariant fields ``X_i`` (body angular velocity ``ω = v^i e_i``):
    ``ω1 = sinθ sinψ φ̇ + cosψ θ̇``, ``ω2 = sinθ cosψ φ̇ − sinψ θ̇``, ``ω3 = cosθ φ̇ + ψ̇``, so
    ``X1 = (sinψ/sinθ, cosψ, −cotθ sinψ)``, ``X2 = (cosψ/sinθ, −sinψ, −cotθ cosψ)``, ``X3 = ∂_ψ``;
    ``L = ½ ωᵀ 𝕀 ω``; the constraint ``⟨a, ω⟩ = 0`` is ``D = span(b_1·X, b_2·X)`` with ``b_k ⊥ a``,
    completed by ``a·X``.
    """
    params = sorted(sp.Matrix(inertia).free_symbols, key=str)
    ch = fr.Chart("phi theta psi", params=params)
    _ph, th, ps = ch.q
    s, c = sp.sin, sp.cos
    X = [
        fr.VectorField(ch, [s(ps) / s(th), c(ps), -c(th) * s(ps) / s(th)]),
        fr.VectorField(ch, [c(ps) / s(th), -s(ps), -c(th) * c(ps) / s(th)]),
        fr.VectorField(ch, [0, 0, 1]),
    ]
    u = ch.u
    w = sp.Matrix([s(th) * s(ps) * u[0] + c(ps) * u[1], s(th) * c(ps) * u[0] - s(ps) * u[1], c(th) * u[0] + u[2]])
    L = fr.Lagrangian(ch, sp.expand((w.T * sp.Matrix(inertia) * w)[0] / 2))
    fields = [e[0] * X[0] + e[1] * X[1] + e[2] * X[2] for e in [*basis, a]]
    return fr.NonholonomicSystem(L, fr.Frame(fields), 2)


# --------------------------------------------------------------------------------- results
def test_nonholonomic_particle_density_sqrt_one_plus_q1_squared():
    r"""Nonholonomic particle (CM §7.1): ``N = sqrt(1 + q1²)`` w.r.t. ``dq∧dv``, ``1/sqrt(1 + q1²)`` w.r.t. ``dq∧dp``.

    By hand: ``Γ^2 = −q1 v1 v2/(1 + q1²)``, ``Γ^1 = 0``, ``div_0 X_α = 0``, so
    ``div Γ = ∂Γ^2/∂v2 = −q1 v1/(1 + q1²)``: ``c_1 = −q1/(1 + q1²)``, ``c_2 = 0``, and
    ``X1(log N) = q1/(1 + q1²)``, ``X2(log N) = 0`` give ``N = (1 + q1²)^{1/2}``. With
    ``g_αβ = diag(1, 1 + q1²)`` the momentum density is ``(1 + q1²)^{−1/2}`` — not constant,
    as CM §7.1 says ("the invariant measure density is not a constant").
    """
    mdl = fr.models.nonholonomic_particle()
    q1 = mdl.chart.q[0]
    v1 = mdl.frame.v[0]
    res = fr.invariant_measure(mdl.nonholonomic())
    assert res.exists is True
    assert res.density == sp.sqrt(1 + q1**2)
    assert res.density_momenta == 1 / sp.sqrt(1 + q1**2)
    assert res.divergence == -q1 * v1 / (q1**2 + 1)
    assert res.coefficients == (-q1 / (q1**2 + 1), 0)
    assert res.hessian_determinant == q1**2 + 1
    assert res.obstruction == ()
    assert res.volume == "dq1∧dq2∧dq3∧dv1∧dv2 on C = {v3 = 0}"
    assert res.check() is True


@pytest.mark.parametrize("deltas", [None, "concrete"], ids=["Delta_a(q1)", "q1, q1**2"])
def test_class71_density_is_crampin_mestdag_N(deltas):
    r"""CM §7.1 class (k = 2): ``N = 1/sqrt(I2 + Σ_a I_a Δ_a²)`` w.r.t. ``dq∧dp``, up to a constant.

    The library gives ``sqrt(I2 + Σ I_a Δ_a²)`` w.r.t. ``dq∧dv`` and, dividing by
    ``det g_αβ = I1 (I2 + Σ I_a Δ_a²)``, ``1/(I1 sqrt(I2 + Σ I_a Δ_a²))``: CM's density times
    the constant ``1/I1``. It also agrees with ``ChaplyginSystem.invariant_measure_density``.
    """
    q1 = sp.Symbol("q1")
    mdl = fr.models.abelian_chaplygin(2, None if deltas is None else [q1, q1**2])
    I2, I3, I4 = (mdl.params[k] for k in ("I2", "I3", "I4"))
    D3, D4 = mdl.deltas
    g = I2 + I3 * D3**2 + I4 * D4**2
    res = fr.invariant_measure(mdl.nonholonomic())
    assert res.exists is True
    N_cm = 1 / sp.sqrt(g)
    assert sp.expand(res.density**2 - g) == 0
    assert _constant(res.density_momenta / N_cm)
    assert sp.simplify(res.density_momenta / N_cm) == 1 / mdl.params["I1"]
    assert res.check() is True
    cs = fr.ChaplyginSystem.from_model(mdl)
    assert sp.simplify(cs.invariant_measure_density(volume="velocities") - res.density) == 0


@pytest.mark.parametrize(
    ("inertia", "a", "basis"),
    [
        (
            sp.Matrix([[sp.Symbol("I1"), sp.Symbol("I12"), 0], [sp.Symbol("I12"), sp.Symbol("I2"), 0], [0, 0, 7]]),
            [0, 0, 1],
            [[1, 0, 0], [0, 1, 0]],
        ),
        (sp.diag(1, 2, 3), [0, 1, 0], [[1, 0, 0], [0, 0, 1]]),
    ],
    ids=["a=e3 eigenvector of a non-diagonal I", "a=e2, I diagonal"],
)
def test_suslov_a_eigenvector_density_is_haar_sin_theta(inertia, a, basis):
    r"""Suslov problem, ``a`` an eigenvector of 𝕀: ``N = sin θ`` (the Haar density in Euler angles).

    By hand: with ``a`` an eigenvector, ``𝕀ω × ω ∥ a`` for ``ω ⊥ a``, so ``Γ^α = 0`` and
    ``div Γ = v^α div_0 X_α = −v^α X_α(log sin θ)`` (left-invariant fields are divergence free
    for the Haar volume ``sin θ dφ dθ dψ``).
    """
    res = fr.invariant_measure(suslov(inertia, a, basis))
    theta = sp.Symbol("theta")
    assert res.exists is True
    assert res.density == sp.sin(theta)
    assert res.check() is True


def test_suslov_generic_a_obstruction_is_off_diagonal_inertia():
    r"""Suslov problem, ``a = e3``, 𝕀 with ``I13, I23``: no basic density; obstruction ``(I13/I1, I23/I2)``.

    ``e3`` is an eigenvector iff ``I13 = I23 = 0``, exactly where the obstruction vanishes (the
    Kozlov / Fedorov–García-Naranjo–Marrero criterion). By hand, ``v̇1 = −(I13 v1 + I23 v2) v2/I1``,
    ``v̇2 = (I13 v1 + I23 v2) v1/I2``, so ``div Γ = v^α div_0 X_α + k_α v^α`` with
    ``k = (I23/I2, −I13/I1)`` (a sleigh-like part). The Haar part is exact (``log sin θ``); for the
    rest the flag gives ``w_3 = 0`` and, with ``[X1, X3] = −X2``, ``[X2, X3] = X1``,
    ``dω(X1, X3) = −R^2_13 w_2 = I13/I1`` and ``dω(X2, X3) = −R^1_23 w_1 = I23/I2``.
    """
    I1, I2, I3, I13, I23 = sp.symbols("I1 I2 I3 I13 I23")
    inertia = sp.Matrix([[I1, 0, I13], [0, I2, I23], [I13, I23, I3]])
    res = fr.invariant_measure(suslov(inertia, [0, 0, 1], [[1, 0, 0], [0, 1, 0]]))
    assert res.exists is False
    assert res.density is None
    assert res.obstruction == (I13 / I1, I23 / I2)
    assert res.obstruction_labels == ("dω(X1, X3)", "dω(X2, X3)")


def test_suslov_numeric_generic_a_has_obstruction():
    """Suslov problem with 𝕀 = diag(1, 2, 3) and a = (1, 2, 2) (not an eigenvector): no basic density."""
    res = fr.invariant_measure(suslov(sp.diag(1, 2, 3), [1, 2, 2], [[2, -1, 0], [2, 2, -3]]))
    assert res.exists is False
    assert res.obstruction == (sp.Rational(-27, 13), sp.Rational(-54, 13))


def test_chaplygin_sleigh_has_no_basic_density():
    r"""Chaplygin sleigh: no smooth ``N(q)`` (its reduced motion is asymptotically stable).

    By hand: ``Γ^1 = −m a v1 v2/(I + m a²)``, ``Γ^2 = a v1²``, ``div Γ = −κ v2`` with
    ``κ = m a/(I + m a²)``, so ``w = (0, κ, w_3)``; ``[X1, X2] = X3`` gives ``w_3 = X1(w_2) − X2(w_1) = 0``
    and ``[X1, X3] = −X2`` gives ``dω(X1, X3) = −R^2_13 w_2 = κ ≠ 0`` (zero only for a = 0, the knife edge).
    """
    mdl = fr.models.chaplygin_sleigh()
    m, I, a = (mdl.params[k] for k in ("m", "I", "a"))
    res = fr.invariant_measure(mdl.nonholonomic())
    assert res.exists is False
    assert res.obstruction == (a * m / (I + a**2 * m),)
    assert res.obstruction_labels == ("dω(X1, X3)",)
    assert res.divergence == -a * m * mdl.frame.v[1] / (I + a**2 * m)
    with pytest.raises(fr.FramesError, match=r"^InvariantMeasure\.check: no density"):
        res.check()
    knife = fr.invariant_measure(fr.models.knife_edge().nonholonomic())
    assert knife.exists is True and knife.density == 1


def test_two_wheeled_carriage_density_is_local_exponential():
    r"""Two-wheeled carriage (CM §7.2): a local density ``exp(−κ(ψ1 + ψ2))``, not periodic in the wheel angles.

    ``κ = R³ l m0/(2 J R² + 4 J2 c²)``; ``θ + R(ψ1 − ψ2)/(2c)`` is a function of q annihilated by D
    (the constraints have a holonomic combination), so the density is not unique.
    """
    mdl = fr.models.two_wheeled_carriage()
    p = mdl.params
    psi1, psi2 = mdl.chart.q[:2]
    res = fr.invariant_measure(mdl.nonholonomic())
    kappa = p["R"] ** 3 * p["l"] * p["m0"] / (2 * p["J"] * p["R"] ** 2 + 4 * p["J2"] * p["c"] ** 2)
    assert res.exists is True
    assert isinstance(res.density, sp.exp)
    assert sp.cancel(res.density.args[0] + kappa * (psi1 + psi2)) == 0
    assert "not unique" in res.reason
    assert res.check() is True


def test_closed_rational_form_integrated_by_ratint():
    """A closed rational ``d log N`` outside the log ansatz (an arctangent) is integrated exactly."""
    x, y = sp.symbols("q1 q2")
    f = _ratint_primitive([1 / (1 + x**2), 2 * y], (x, y))
    assert f == sp.atan(x) + y**2
    assert _ratint_primitive([y, 0], (x, y)) is None  # not closed


@st.composite
def natural_systems(draw):
    ch = draw(fst.charts(min_dim=3, max_dim=3))
    F = draw(fst.frames_on(ch))
    L = draw(fst.quadratic_lagrangians(ch, gyroscopic=draw(st.booleans())))
    return fr.NonholonomicSystem(L, F, 2)


@settings(max_examples=5, deadline=None)
@given(natural_systems())
def test_random_natural_systems_found_density_is_invariant(nh):
    """Where a density is found, ``div(NΓ) = 0`` holds; otherwise the result is an obstruction or undecided."""
    res = fr.invariant_measure(nh, budget=0.5)
    if res.density is not None:
        assert res.exists is True
        assert res.check() is True
    elif res.exists is False:
        assert res.obstruction
    else:
        assert res.reason


def test_undecided_when_budget_runs_out(budget_clock):
    """A budget spent during a step gives ``exists=None`` and a reason naming the step, not an exception."""
    steps = []

    def slow(name):
        steps.append(name)
        if name == "invariant_measure: divergence":
            budget_clock.advance(0.3)  # spent in this step, whatever the machine's speed

    res = fr.invariant_measure(fr.models.nonholonomic_particle().nonholonomic(), budget=0.2, progress=slow)
    assert res.exists is None and res.density is None
    assert res.reason.startswith("undecided: time budget of 0.2 s exceeded during step 'invariant_measure: divergence'")
    assert steps[0] == "invariant_measure"


def test_bad_input_names_the_argument():
    nh = fr.models.nonholonomic_particle().nonholonomic()
    with pytest.raises(fr.errors.ArgumentError, match=r"^invariant_measure: system: expected a NonholonomicSystem"):
        fr.invariant_measure(fr.models.nonholonomic_particle())
    with pytest.raises(fr.errors.ArgumentError, match=r"^invariant_measure: system"):
        fr.invariant_measure("nh = __import__('os')")
    with pytest.raises(fr.errors.ArgumentError, match=r"^invariant_measure: ansatz: must be one of 'basic'"):
        fr.invariant_measure(nh, ansatz="fibre")
    with pytest.raises(fr.errors.ArgumentError, match=r"^invariant_measure: ansatz"):
        fr.invariant_measure(nh, ansatz=None)
    with pytest.raises(fr.errors.ArgumentError, match=r"^InvariantMeasure: exists"):
        fr.results.InvariantMeasure(exists="yes")
    with pytest.raises(fr.errors.ArgumentError, match=r"^InvariantMeasure: obstruction"):
        fr.results.InvariantMeasure(exists=False)


def test_value_semantics_and_display():
    nh = fr.models.nonholonomic_particle().nonholonomic()
    r1, r2 = fr.invariant_measure(nh), fr.invariant_measure(nh)
    assert r1 == r2 and hash(r1) == hash(r2)
    assert repr(r1).startswith("InvariantMeasure(exists=True, N = sqrt(q1**2 + 1)")
    assert r"\wedge" in r1._repr_latex_()
    assert ("verdict", "invariant measure N(q) exists", True) in r1.report_items()


# ------------------------------------------------------------------ the flag steps at generic points
def _pointwise(nh, **kw):
    """``invariant_measure`` with the generic-point flag steps forced (normally only for large ``c_α``)."""
    from unittest import mock

    from frames.dynamics import _measure

    with mock.patch.object(_measure, "POINTWISE_TERMS", -1):
        return fr.invariant_measure(nh, **kw)


def _symbolic(nh, **kw):
    """``invariant_measure`` with every flag step formed symbolically (no generic-point shortcut)."""
    from unittest import mock

    from frames.dynamics import _measure

    with (
        mock.patch.object(_measure, "POINTWISE_TERMS", float("inf")),
        mock.patch.object(_measure._RationalAlgebra, "LARGE_TERMS", float("inf")),
    ):
        return fr.invariant_measure(nh, **kw)


def _closedness_at_points(nh, **kw):
    """``invariant_measure`` with the symbolic compatibility step and every closedness condition decided at
    generic points first (normally only when the ``w_i`` are large)."""
    from unittest import mock

    from frames.dynamics import _measure

    with (
        mock.patch.object(_measure, "POINTWISE_TERMS", float("inf")),
        mock.patch.object(_measure._RationalAlgebra, "LARGE_TERMS", -1),
    ):
        return fr.invariant_measure(nh, **kw)


def _certified(sym, pt):
    """Every obstruction of the forced generic-point run ``pt`` is the symbolic obstruction of ``sym`` with the
    same label, evaluated at ``pt.witness_point`` (the certificate is exact and checkable)."""
    assert pt.exists is False and sym.exists is False
    assert pt.witness_point
    subs = dict(pt.witness_point)
    by_label = dict(zip(sym.obstruction_labels, sym.obstruction, strict=True))
    for label, value in zip(pt.obstruction_labels, pt.obstruction, strict=True):
        assert label.endswith(" at the generic point")
        assert value != 0 and value.is_Rational
        assert sp.cancel(by_label[label.removesuffix(" at the generic point")].xreplace(subs) - value) == 0
    # and every symbolic obstruction that is nonzero at the point is listed
    listed = {lab.removesuffix(" at the generic point") for lab in pt.obstruction_labels}
    assert {lab for lab, e in by_label.items() if sp.cancel(e.xreplace(subs)) != 0} == listed


def test_generic_point_flag_certifies_sleigh_obstruction():
    """Chaplygin sleigh: the generic-point steps give ``dω(X1, X3) = κ`` at the witness point, ``κ = ma/(I + ma²)``."""
    nh = fr.models.chaplygin_sleigh().nonholonomic()
    _certified(_symbolic(nh), _pointwise(nh))
    _certified(_symbolic(nh), _closedness_at_points(nh))


def test_generic_point_flag_certifies_suslov_obstructions():
    """Suslov problem, symbolic 𝕀 with ``I13, I23`` and numeric generic ``a``: the values at the witness point are
    the symbolic obstructions ``(I13/I1, I23/I2)`` and ``(−27/13, −54/13)`` evaluated there."""
    I1, I2, I3, I13, I23 = sp.symbols("I1 I2 I3 I13 I23")
    inertia = sp.Matrix([[I1, 0, I13], [0, I2, I23], [I13, I23, I3]])
    nh = suslov(inertia, [0, 0, 1], [[1, 0, 0], [0, 1, 0]])
    _certified(_symbolic(nh), _pointwise(nh))
    nh = suslov(sp.diag(1, 2, 3), [1, 2, 2], [[2, -1, 0], [2, 2, -3]])
    _certified(_symbolic(nh), _pointwise(nh))


def test_generic_point_flag_leaves_densities_to_the_symbolic_steps():
    """Where a density exists the generic-point steps prove nothing, and the result is the symbolic one."""
    for mdl in (fr.models.nonholonomic_particle(), fr.models.two_wheeled_carriage()):
        nh = mdl.nonholonomic()
        assert _pointwise(nh) == _symbolic(nh)
    nh = suslov(sp.diag(1, 2, 3), [0, 0, 1], [[1, 0, 0], [0, 1, 0]])
    assert _pointwise(nh) == _symbolic(nh)


@settings(max_examples=8, deadline=None)
@given(natural_systems())
def test_random_systems_generic_point_flag_agrees_with_symbolic(nh):
    """On random systems the forced generic-point steps reach the symbolic verdict, with certified values."""
    pt = _pointwise(nh, budget=5)
    from frames.dynamics._measure import POINTWISE_TERMS

    terms = sum(len(sp.Add.make_args(sp.expand(part))) for c in pt.coefficients for part in sp.fraction(c))
    if pt.exists is None or terms > POINTWISE_TERMS:
        # undecided, or so large that the library itself starts at generic points: the symbolic reference
        # would take minutes inside single polynomial products (which a budget cannot interrupt)
        return
    sym = _symbolic(nh, budget=5)
    if sym.exists is None:  # a budget ran out: nothing to compare
        return
    assert pt.exists == sym.exists
    if pt.witness_point and any(lab.startswith("dω") for lab in pt.obstruction_labels):
        _certified(sym, pt)
    cl = _closedness_at_points(nh, budget=5)
    if cl.exists is not None:
        assert cl.exists == sym.exists
        if cl.witness_point:
            _certified(sym, cl)


# ------------------------------------------------------ without the nonholonomic field (pointwise=True)
def test_field_free_route_certifies_sleigh_and_suslov_obstructions():
    """``invariant_measure(nh, pointwise=True)`` forms no field: the 2-jets of ``c_α`` come from ``g`` and ``r`` at
    the point, and its obstructions are the symbolic ones evaluated at the witness point (sleigh: ``dω(X1, X3) = κ``;
    Suslov with ``I13, I23``)."""
    nh = fr.models.chaplygin_sleigh().nonholonomic()
    pw = fr.invariant_measure(nh, pointwise=True)
    assert nh.computed("_canonical_field") is None  # the field was not formed
    _certified(_symbolic(nh), pw)
    I1, I2, I3, I13, I23 = sp.symbols("I1 I2 I3 I13 I23")
    nh = suslov(sp.Matrix([[I1, 0, I13], [0, I2, I23], [I13, I23, I3]]), [0, 0, 1], [[1, 0, 0], [0, 1, 0]])
    _certified(_symbolic(nh), fr.invariant_measure(nh, pointwise=True))


def _field_free_jets_agree(nh):
    """The jets of ``c_α`` built from the data at each generic point equal the jets of the symbolic ``c_α``
    (``∂(div Γ)/∂v^α`` of the formed field), and the symbolic ``div Γ`` vanishes at ``v = 0`` (which the
    field-free route assumes for a Lagrangian quadratic in the velocities)."""
    from frames.dynamics._measure import _divergence, _velocity_jet
    from frames.dynamics._measure_pointwise import pointwise_measure

    at0, coefficients, _ = _velocity_jet(_divergence(nh), nh.frame.v[: nh.m])
    assert fr.algebra.is_zero(at0)
    res = pointwise_measure(nh, extra=list(coefficients))
    assert not isinstance(res, str), res
    alg, n, checked = res.alg, nh.n, 0
    units = [[alg.el(1 if k == l else 0) for k in range(n)] for l in range(n)]
    for point in alg.points(2):
        jets = res.c_jets(point)
        if jets is None:
            continue
        cj, ch = jets
        for al, c in enumerate(coefficients):
            f = alg.el(c)
            value, grad = alg.qjet(f, point)
            assert (value, list(grad)) == (cj[al][0], list(cj[al][1]))
            for l in range(n):
                dv, dgrad = alg.qjet(alg.apply(units[l], f), point)
                assert (dv, list(dgrad)) == (ch[al][l][0], list(ch[al][l][1]))
            checked += 1
    return checked


def test_field_free_coefficient_jets_equal_the_symbolic_ones_on_the_catalogue():
    """Exact agreement of value, gradient and Hessian of every ``c_α`` at two generic points, for every model."""
    for name in fr.models.catalogue():
        assert _field_free_jets_agree(fr.models.get(name).nonholonomic()) > 0, name


@st.composite
def field_free_systems(draw):
    ch = draw(fst.charts(min_dim=3, max_dim=4))
    F = draw(fst.frames_on(ch, trig=draw(st.booleans())))
    L = draw(fst.quadratic_lagrangians(ch, gyroscopic=draw(st.booleans())))
    return fr.NonholonomicSystem(L, F, draw(st.sampled_from([2, 1])))


@settings(max_examples=12, deadline=None)
@given(field_free_systems())
def test_field_free_route_agrees_with_the_symbolic_route_on_random_systems(nh):
    """Random systems (n = 3, 4; m = 1, 2; gyroscopic terms; trig frames): the jets of ``c_α`` agree exactly with
    those of the formed field, ``div Γ`` vanishes at ``v = 0``, and an obstruction of the field-free route is the
    symbolic obstruction at its witness point (the symbolic flag steps find it before any ansatz)."""
    assert _field_free_jets_agree(nh) > 0
    pw = fr.invariant_measure(nh, pointwise=True)
    if nh.m == 1:  # one equation X_1(log N) = −c_1 along a field: local existence
        assert pw.exists is True
    if pw.exists is False:
        sym = _symbolic(nh, budget=20)
        assume(sym.exists is not None)  # the reference route ran out of its budget: nothing to compare with
        _certified(sym, pw)


def test_report_decides_the_invariant_measure_without_the_field(monkeypatch):
    """A report whose nonholonomic field is over the limit runs the invariant-measure section at generic points:
    the sleigh's obstruction, with the method stated, instead of a skipped section."""
    from frames.app import _report

    monkeypatch.setattr(_report, "EXPLICIT_FIELD_TERMS", 0)
    rep = fr.analyze(fr.models.chaplygin_sleigh(), ["invariant_measure"])
    sec = rep.sections[0]
    assert sec.status == "ok"
    items = {it.label: it for it in sec.items}
    assert items["invariant measure N(q) exists"].value is False
    assert "generic points" in items["method"].text
    assert any(lab.endswith("at the generic point") for lab in items)


def test_field_free_route_refuses_a_singular_hessian_and_a_time_dependent_frame():
    """Review findings: with ``g_αβ`` singular the field does not exist, and the route raises as the formed route
    does (it must not answer "exists", also for m = 1); a frame depending on t is refused (``c_α`` would depend on t)."""
    ch = fr.Chart("x y z")
    F = fr.Frame.coordinate(ch)
    nh = fr.NonholonomicSystem(fr.Lagrangian(ch, ch.u[1] ** 2 / 2 + ch.u[2] ** 2 / 2), F, 1)
    with pytest.raises(fr.errors.RegularityError, match="not regular with respect to D"):
        fr.invariant_measure(nh, pointwise=True)
    cht = fr.Chart("x y z", time="t")
    x, t = cht.q[0], cht.t
    Ft = fr.Frame(
        [fr.VectorField(cht, [1 + t * x**2, 0, 0]), fr.VectorField(cht, [0, 1, 0]), fr.VectorField(cht, [0, 0, 1])]
    )
    res = fr.invariant_measure(
        fr.NonholonomicSystem(fr.Lagrangian(cht, sum(u**2 for u in cht.u) / 2), Ft, 1), pointwise=True
    )
    assert res.exists is None and "depends on time" in res.reason


def test_the_ansatz_equations_solved_on_independent_rows_equal_the_full_elimination():
    """The linear equations of the ansatz are solved on rows independent at a rational point, and the solution is
    checked exactly on every row: the same particular solution and null space as the elimination of all rows."""
    a, b, q = sp.symbols("a b q")
    # unknowns x1, x2, x3; many redundant equations (one per monomial of q), one parameter-dependent
    terms = [
        [-(a + b) * sp.sin(q), sp.sin(q), sp.S.Zero, sp.S.Zero],
        [-2 * (a + b) * sp.sin(q) * sp.cos(q), 2 * sp.sin(q) * sp.cos(q), sp.S.Zero, sp.S.Zero],
        [-a * q**2, sp.S.Zero, a * q**2, a * q**2],
        [-a * q, sp.S.Zero, a * q, a * q],
    ]
    table = _linear_rows_ratfunc(terms, (q,))
    fast = _rref_solve(table, 3)
    full = _rref_small([[table.ctx.to_expr(p) for p in r] for r in table.rows], 3)
    assert fast is not None and full is not None
    assert all(sp.cancel(x - y) == 0 for x, y in zip(fast[0], full[0], strict=True))
    assert fast[1] == full[1]
    assert fast[0][0] == a + b and len(fast[1]) == 1
    # an inconsistent system: no solution either way
    bad = _linear_rows_ratfunc([[sp.S.One, sp.S.Zero, sp.S.Zero, sp.S.Zero], *terms], (q,))
    assert _rref_solve(bad, 3) is None
