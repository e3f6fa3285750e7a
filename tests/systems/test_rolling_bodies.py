"""Rigid bodies from outside the catalogue, written with sympy.physics.mechanics (``examples/rolling_bodies.py``)
and imported by ``from_mechanics``.

- Chaplygin's ball (dynamically asymmetric, rolling on a plane) and Veselova's body (a general inertia tensor, with
  a product of inertia): the invariant measure is decided, with symbolic parameters, and its density equals the
  classical one (Chaplygin 1903; Veselova 1986) up to a constant factor, exactly.
- The ball, a rattleback and a disc rolling on an inclined plane: the nonholonomic field equals KanesMethod's rates at
  random states on C, to 30 digits.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import mpmath
import pytest
import sympy as sp
from sympy.physics.mechanics import KanesMethod, dynamicsymbols

import frames as fr
from frames.algebra import derivative, is_zero
from frames.algebra.internal import tree_subs, tree_values

_spec = importlib.util.spec_from_file_location(
    "rolling_bodies", Path(__file__).resolve().parents[2] / "examples" / "rolling_bodies.py"
)
assert _spec is not None and _spec.loader is not None
bodies = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bodies)

t = dynamicsymbols._t


def _on_chart(e: sp.Expr, chart: fr.Chart) -> sp.Expr:
    """``e`` with the dynamic symbols ``q(t)`` replaced by the chart's coordinates of the same name."""
    names = {s.name: s for s in chart.q}
    return e.xreplace({f: names[f.func.__name__] for f in e.atoms(sp.Function) if f.func.__name__ in names})


def _measured(KM: KanesMethod, name: str, params: str) -> tuple[fr.results.InvariantMeasure, fr.Chart, list[sp.Symbol]]:
    """The invariant measure of the imported body (within a 120 s budget), its chart, and the named parameters."""
    nh = fr.from_mechanics(KM, name=name).nonholonomic()
    ch = nh.lagrangian.chart
    with fr.budget(120):
        res = fr.invariant_measure(nh)
    return res, ch, [next(p for p in ch.params if p.name == s) for s in params.split()]


def _constant_multiple(a: sp.Expr, b: sp.Expr, q) -> bool:
    """True if ``a / b`` has no q-derivative (both nonzero): compared through ``(a/b)²``, free of square roots."""
    ratio = a**2 / b**2
    return all(is_zero(derivative(ratio, x)) for x in q)


def test_chaplygins_ball_has_the_classical_invariant_measure_with_symbolic_inertia():
    """Chaplygin: the density relative to dq∧dω is ``sin q2 · (1 − m r² ⟨γ, J⁻¹ γ⟩)^{1/2}``, ``J = I + m r²``
    (the Euler-angle volume factor ``sin q2`` times Chaplygin's density in ``(ω, γ)``); decided in a budget."""
    KM, gamma = bodies.chaplygin_ball()
    res, ch, (I1, I2, I3, m, r) = _measured(KM, "Chaplygin's ball", "I1 I2 I3 m r")
    assert res.exists is True
    g1, g2, g3 = (_on_chart(x, ch) for x in gamma)
    J = (I1 + m * r**2, I2 + m * r**2, I3 + m * r**2)
    closed = sp.sin(ch.q[1]) * sp.sqrt(1 - m * r**2 * (g1**2 / J[0] + g2**2 / J[1] + g3**2 / J[2]))
    assert _constant_multiple(res.density, closed, ch.q)
    assert not _constant_multiple(res.density, sp.sin(ch.q[1]), ch.q)  # the test can fail


def test_a_density_with_a_root_is_real_where_the_body_is_physical():
    """With numbers for the parameters the polynomial under the root can be negative everywhere as factored; the
    density, fixed up to a constant factor, is then written with its negative: real, not ``i`` times real."""
    values = {"m": sp.Rational(3, 2), "r": sp.Rational(2, 3), "g": 10, "I1": sp.Rational(2, 7), "I2": sp.Rational(3, 7)}
    KM, _ = bodies.chaplygin_ball(values | {"I3": sp.Rational(4, 7)})
    nh = fr.from_mechanics(KM).nonholonomic()
    res = fr.invariant_measure(nh)
    assert res.exists is True
    q = nh.lagrangian.chart.q
    for point in ({q[1]: sp.Rational(1, 3), q[2]: sp.Rational(2, 5)}, {q[1]: 2, q[2]: -1}):
        (value,) = tree_values([res.density], point)
        assert value.imag == 0
        assert value.real != 0


def test_veselovas_body_with_a_product_of_inertia_has_its_invariant_measure():
    """Veselova: relative to dq∧du1∧du2 (u3 dependent) the density is ``tan q2 · ⟨γ, I⁻¹ γ⟩^{1/2}``: the Euler-angle
    volume ``sin q2``, the factor ``1/γ3`` of the coordinates ``ω1, ω2`` on the constraint, and Veselova's
    ``√⟨γ, I⁻¹γ⟩``, with ``I`` the full inertia tensor (``I12 ≠ 0``)."""
    KM, gamma = bodies.veselova()
    res, ch, (I1, I2, I3, I12) = _measured(KM, "Veselova", "I1 I2 I3 I12")
    assert res.exists is True
    g = sp.Matrix([_on_chart(x, ch) for x in gamma])
    Iinv = sp.Matrix([[I1, I12, 0], [I12, I2, 0], [0, 0, I3]]).inv()
    closed = sp.sin(ch.q[1]) / sp.cos(ch.q[1]) * sp.sqrt((g.T * Iinv * g)[0])
    assert _constant_multiple(res.density, closed, ch.q)


def _kane_rates(KM: KanesMethod, state: dict) -> tuple[list, list]:
    """``u̇`` and ``q̈`` of KanesMethod at ``state`` (40 digits): ``M u̇ = f``, then ``q̈`` from ``q̇ = k(q, u)``."""
    kin = KM.kindiffdict()
    qdot = sp.Matrix([kin[q.diff(t)] for q in KM.q])
    Jq, Ju = qdot.jacobian(list(KM.q)), qdot.jacobian(list(KM.u))
    M, f = KM.mass_matrix, KM.forcing
    plain = {x: sp.Symbol(f"_{x.func.__name__}") for x in [*KM.q, *KM.u]}
    exprs = tree_subs([*M, *f, *qdot, *Jq, *Ju], plain)
    vals = iter(mpmath.mpf(v) for v in tree_values(exprs, {plain.get(k, k): v for k, v in state.items()}))
    n, k = len(KM.u), len(KM.q)
    Mn = mpmath.matrix([[next(vals) for _ in range(n)] for _ in range(n)])
    udot = mpmath.lu_solve(Mn, mpmath.matrix([next(vals) for _ in range(n)]))
    qd = [next(vals) for _ in range(k)]
    Jqn = [[next(vals) for _ in range(k)] for _ in range(k)]
    Jun = [[next(vals) for _ in range(n)] for _ in range(k)]
    qdd = [sum(Jqn[j][i] * qd[i] for i in range(k)) + sum(Jun[j][i] * udot[i] for i in range(n)) for j in range(k)]
    return [udot[i] for i in range(n)], [qd, qdd]


@pytest.mark.parametrize("name", ["Chaplygin's ball", "rattleback", "disc on an incline"])
def test_the_nonholonomic_field_equals_kanes_rates_at_random_states(name):
    """Γ^α (the rates of the independent speeds, frames' quasi-velocities) and q̈, fast path, against KanesMethod."""
    mpmath.mp.dps = 40
    KM = bodies.BODIES[name]()
    nh = fr.from_mechanics(KM).nonholonomic()
    ch, F, m = nh.lagrangian.chart, nh.frame, nh.m
    G, acc = nh.field(canonical=False), nh.accelerations(canonical=False)
    rng = random.Random(7)
    names = {p.name for p in ch.params} | {
        s.name for e in (KM.mass_matrix, KM.forcing) for s in e.free_symbols if s != t
    }
    value = {name: sp.Rational(rng.randint(2, 9), rng.randint(2, 9)) for name in sorted(names)}
    params = {sp.Symbol(name): v for name, v in value.items()}
    for _ in range(2):
        qv = {q: sp.Rational(rng.randint(-9, 9), 13) for q in KM.q}
        uv = {u: sp.Rational(rng.randint(-9, 9), 7) for u in KM.u[:m]}
        vc = [c.xreplace(params | qv | uv) for c in KM._k_nh * sp.Matrix(KM.u) + KM._f_nh]
        A, b = sp.linear_eq_to_matrix(vc, list(KM.u[m:]))
        uv |= dict(zip(KM.u[m:], A.evalf(50).LUsolve(b.evalf(50)), strict=True))
        udot, (qd, qdd) = _kane_rates(KM, params | qv | uv)
        point = {p: value[p.name] for p in ch.params} | {ch.q[k]: qv[q] for k, q in enumerate(KM.q)}
        ours = [mpmath.mpf(x) for x in tree_values(list(G.Gamma[:m]), point | {F.v[a]: uv[KM.u[a]] for a in range(m)})]
        assert max(abs(x - udot[a]) for a, x in enumerate(ours)) < mpmath.mpf(10) ** -30
        ours_q = [
            mpmath.mpf(x)
            for x in tree_values(list(acc), point | {ch.u[k]: sp.Float(qd[k], 40) for k in range(len(KM.q))})
        ]
        assert max(abs(x - y) for x, y in zip(ours_q, qdd, strict=True)) < mpmath.mpf(10) ** -30
