"""Lemos (2022): Kozlov's vakonomic equations (17) and the inclined rolling coin (section IV).

The text lost its displayed equations; the coin is Pastore et al. section 3 (same L, same
constraints), and the general nonholonomic solution is (L31)-(L37) of the extraction notes
(= Pastore (75)-(81)).
"""

import pytest
import sympy as sp

import frames as fr
from frames import models

FAST_MODELS = [
    "nonholonomic-particle",
    "vertical-rolling-disk",
    "knife-edge",
    "chaplygin-sleigh",
    "abelian_chaplygin",
    "rolling-penny",
    "rolling-coin-incline",
    "charged-skate",
]


@pytest.mark.parametrize("name", FAST_MODELS)
def test_kozlov_equations_are_section4_field(name):
    mdl = models.get(name)
    chk = fr.compare_kozlov_with_frame(fr.VakonomicSystem(mdl.lagrangian, mdl.frame, mdl.m))
    assert chk.holds
    assert all(e == 0 for e in chk.frame_identity + chk.tangent_residuals)


def test_kozlov_equations_time_dependent_skate():
    mdl = models.charged_skate(time_dependent=True)
    assert fr.compare_kozlov_with_frame(fr.VakonomicSystem(mdl.lagrangian, mdl.frame, mdl.m)).holds


@pytest.mark.slow
def test_kozlov_equations_are_section4_field_carriage():
    mdl = models.two_wheeled_carriage()
    assert fr.compare_kozlov_with_frame(fr.VakonomicSystem(mdl.lagrangian, mdl.frame, mdl.m)).holds


def test_kozlov_check_can_fail():
    # a wrong multiplier identification (λ = −μ) breaks the identity
    mdl = models.nonholonomic_particle()
    vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, mdl.m)
    K = fr.KozlovSystem(mdl.lagrangian, [-mdl.frame.v_in_u[2]], lam=vk.mu)
    tf = vk.tangent_field()
    acc = tf.field.accelerations()
    F = mdl.frame
    on_c = {u: F.u_in_v[j].xreplace(vk.on_C) for j, u in enumerate(mdl.chart.u)}
    sub = dict(zip(K.qdd, acc)) | dict(zip(K.lamdot, tf.A))
    res = [fr.tidy(e.xreplace(sub).xreplace(on_c)) for e in K.residuals()]
    assert any(r != 0 for r in res)


# ----------------------------------------------------------------- the coin
@pytest.fixture(scope="module")
def coin():
    mdl = models.rolling_coin_incline()
    m, R, g, al = (mdl.params[k] for k in ("m", "R", "g", "alpha"))
    x, y, ph, th = mdl.chart.q
    ux, uy, uph, _uth = mdl.chart.u
    V = [ux - R * sp.sin(th) * uph, uy - R * sp.cos(th) * uph]  # (L26)
    return mdl, (m, R, g, al), (x, y, ph, th), V


T, OM, TH0, OMEGA, PH0, X0, Y0 = sp.symbols("t Omega theta0 omega phi0 x0 y0")


def general_solution(R, g, al):
    """(L31), (L35)-(L37): the nonholonomic motions with Ω ≠ 0."""
    A = 2 * g * sp.sin(al) / (3 * R)
    U = OM * T + TH0
    return {
        "theta": U,
        "phi": -A / OM**2 * sp.cos(U) + OMEGA * T + PH0,
        "x": R * A / (2 * OM) * (T - sp.sin(2 * U) / (2 * OM)) - R * OMEGA / OM * sp.cos(U) + X0,
        "y": R * A / (2 * OM**2) * sp.sin(U) ** 2 + R * OMEGA / OM * sp.sin(U) + Y0,
    }


def _motion(q, sol):
    x, y, ph, th = q
    return {x: sol["x"], y: sol["y"], ph: sol["phi"], th: sol["theta"]}


def test_coin_general_solution_is_nonholonomic(coin):
    mdl, (_m, R, g, al), q, V = coin
    mot = _motion(q, general_solution(R, g, al))
    nh = mdl.nonholonomic()
    acc = nh.accelerations()
    ch = mdl.chart
    sub = mot | {u: sp.diff(mot[qq], T) for qq, u in zip(ch.q, ch.u)}
    for j, qq in enumerate(ch.q):
        assert sp.simplify(sp.diff(mot[qq], T, 2) - acc[j].xreplace(sub)) == 0
    for v in V:
        assert sp.simplify(v.xreplace(sub)) == 0


def test_coin_inclined_not_vakonomic_for_any_multipliers(coin):
    mdl, (m, R, g, al), q, V = coin
    K = fr.KozlovSystem(mdl.lagrangian, V)
    res = fr.compare_motion(K, _motion(q, general_solution(R, g, al)), T)
    assert res.vakonomic is False and res.solutions == ()
    # an obstruction free of the multiplier constants and of the motion constants:
    assert any(sp.simplify(e + OM * g**2 * m * sp.sin(al) ** 2) == 0 for e in res.obstructions)
    # the multipliers integrate (L41)-(L42): λ1 = m ẋ + c1, λ2 = m ẏ − m g t sin α + c2   ((L45), (L46))
    x, y, _, _ = q
    mot = _motion(q, general_solution(R, g, al))
    c1, c2 = res.constants
    # (up to the constant of integration)
    assert sp.simplify(sp.diff(res.multipliers[0] - m * sp.diff(mot[x], T), T)) == 0
    assert sp.simplify(sp.diff(res.multipliers[1] - m * sp.diff(mot[y], T) + m * g * T * sp.sin(al), T)) == 0
    assert sp.diff(res.multipliers[0], c1) == 1 and sp.diff(res.multipliers[1], c2) == 1


def test_coin_horizontal_multipliers_that_work(coin):
    mdl, (m, R, g, al), q, V = coin
    L0 = fr.Lagrangian(mdl.chart, mdl.lagrangian.expr.subs(al, 0))
    K = fr.KozlovSystem(L0, V)
    mot = {k: v.subs(al, 0) for k, v in _motion(q, general_solution(R, g, al)).items()}
    res = fr.compare_motion(K, mot, T)
    assert res.vakonomic is True
    c1, c2 = res.constants
    assert res.solutions == ({c1: 0, c2: 0},)
    # Lemos' remark: λ = m (ẋ, ẏ), i.e. λ = ∂L/∂q̇ of the dependent velocities
    x, y, _, _ = q
    lam = [e.xreplace(res.solutions[0]) for e in res.multipliers]
    assert sp.simplify(lam[0] - m * sp.diff(mot[x], T)) == 0
    assert sp.simplify(lam[1] - m * sp.diff(mot[y], T)) == 0


def test_coin_omega_zero(coin):
    mdl, (m, R, g, al), q, V = coin
    x, y, ph, th = q
    A = 2 * g * sp.sin(al) / (3 * R)
    phi = A * sp.cos(TH0) * T**2 / 2 + OMEGA * T
    mot = {th: TH0, ph: phi + PH0, x: R * sp.sin(TH0) * phi + X0, y: R * sp.cos(TH0) * phi + Y0}
    K = fr.KozlovSystem(mdl.lagrangian, V)
    res = fr.compare_motion(K, mot, T)
    # generic Ω = 0 motion: not vakonomic; the obstruction is sin θ0 cos θ0 (rolling neither along
    # nor across the fall line)
    assert res.vakonomic is False
    assert len(res.obstructions) == 1
    assert sp.simplify(res.obstructions[0] + g**2 * m * sp.sin(al) ** 2 * sp.sin(TH0) * sp.cos(TH0)) == 0
    # along the fall line (θ0 = 0): vakonomic iff c1 = 0 (c2 free)
    res0 = fr.compare_motion(K, {k: v.subs(TH0, 0) for k, v in mot.items()}, T)
    c1, _c2 = res0.constants
    assert res0.vakonomic is True and res0.solutions == ({c1: 0},)
    # rolling direction horizontal and at rest (θ0 = π/2, ω = 0): vakonomic for any multipliers
    res1 = fr.compare_motion(K, {k: v.subs({TH0: sp.pi / 2, OMEGA: 0}) for k, v in mot.items()}, T)
    assert res1.vakonomic is True and res1.solutions == ({},)


def test_compare_motion_rejects_non_motion(coin):
    mdl, (_m, _R, _g, _al), q, V = coin
    x, y, ph, th = q
    K = fr.KozlovSystem(mdl.lagrangian, V)
    with pytest.raises(fr.errors.ConstraintError):
        fr.compare_motion(K, {x: T, y: 0, ph: 0, th: 0}, T)
