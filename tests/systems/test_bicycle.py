"""SymPy's Whipple bicycle (``test_kane3.py``) with 8 coordinates through ``from_mechanics``.

The model is built by ``examples/whipple_bicycle.py``: the wheel angles and the rear contact point added as
coordinates, the front contact point written with ``.normalize()`` (a square root), 5 velocity constraints and
the holonomic front-contact constraint.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
import sympy as sp

import frames as fr
from frames.algebra import tree_values

_SPEC = importlib.util.spec_from_file_location(
    "whipple_bicycle", Path(__file__).resolve().parents[2] / "examples" / "whipple_bicycle.py"
)
assert _SPEC is not None and _SPEC.loader is not None
bicycle = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bicycle)


@pytest.mark.slow
def test_the_whipple_bicycle_imports_with_its_kinetic_energy_and_constraints():
    KM = bicycle.bicycle()
    with fr.budget(240):
        imp = fr.app.mechanics_import(KM)
    assert imp.chart.dim == 8 and imp.m == 3 and len(imp.configuration_constraints) == 1
    assert imp.constraints is not None and imp.constraints.matrix.rows == 5
    # an independent check of the Lagrangian: T = L(q, u) − L(q, 0) (L = T − V, T quadratic in u) against the
    # bodies' kinetic energy computed by SymPy, at a rational state (u = q̇ by the kinematic equations)
    ch = imp.chart
    speed = {u.func.__name__: u for u in KM.u}  # the kinematic equations are q̇_k = u_k (u1 for q1, ux for x)
    qs = list(KM.q)
    us = [speed["u" + q.func.__name__.lstrip("q")] for q in qs]
    qv = [sp.Rational(k, 7) for k in (2, -3, 5, 1, -4, 6, 3, -2)]
    uv = [sp.Rational(k, 3) for k in (1, 2, -1, 3, -2, 1, 2, -1)]
    pv = {p: sp.Rational(3 + i, 5 + 2 * i) for i, p in enumerate(sorted(ch.params, key=str))}
    T = sum(b.kinetic_energy(KM._inertial) for b in KM.bodies)
    kane = T.xreplace(dict(zip(us, uv, strict=True))).xreplace(dict(zip(qs, qv, strict=True))).xreplace(pv)
    L = imp.lagrangian.expr
    assert [q.name for q in ch.q] == [q.func.__name__ for q in qs]
    ours = (L - L.xreplace(dict.fromkeys(ch.u, 0))).xreplace(
        dict(zip(ch.u, uv, strict=True)) | dict(zip(ch.q, qv, strict=True)) | pv
    )
    assert kane.free_symbols == set() and ours.free_symbols == set()
    assert abs(sp.N(ours - kane, 30)) < sp.Float(10) ** -20 * (1 + abs(sp.N(kane, 30)))


def _state(KM, hc, vc, pv, seed):
    """A random state on C: the independent coordinates and speeds at random, the pitch ``q4`` solved from the
    holonomic front-contact constraint, the dependent speeds from the velocity constraints (40 digits)."""
    rng = random.Random(seed)
    qv = {q: sp.Rational(rng.choice((-1, 1)) * rng.randint(1, 6), 17) for q in KM.q}
    q4 = next(q for q in KM.q if q.func.__name__ == "q4")
    pitch = sp.Dummy("pitch")
    h = hc.xreplace(pv).xreplace({q: x for q, x in qv.items() if q != q4} | {q4: pitch})
    qv[q4] = sp.nsolve(h, pitch, 0, prec=40)
    u_ind = list(KM.u[:3])
    uv = {u: sp.Rational(rng.choice((-1, 1)) * rng.randint(1, 6), 5) for u in u_ind}
    eqs = [c.xreplace(pv).xreplace(qv).xreplace(uv) for c in vc]
    dep = [u for u in KM.u if u not in uv]
    sol = (
        sp.Matrix(sp.linear_eq_to_matrix(eqs, dep)[0])
        .evalf(40)
        .LUsolve(sp.Matrix(sp.linear_eq_to_matrix(eqs, dep)[1]).evalf(40))
    )
    uv |= dict(zip(dep, sol, strict=True))
    return qv, uv


@pytest.mark.slow
def test_the_bicycles_nonholonomic_field_equals_kanes_rates_at_random_states_on_C():
    """The bicycle's field (the fast path, ``canonical=False``) and its q̈ equal KanesMethod's
    own rates ``u̇`` at random states on C, the pitch solved from the holonomic constraint."""
    KM = bicycle.bicycle()
    with fr.budget(240):
        mdl = fr.from_mechanics(KM, name="whipple-bicycle")
        nh = mdl.nonholonomic()
        G = nh.field(canonical=False)
        acc = nh.accelerations(canonical=False)
    rates = KM.rhs()[len(KM.q) :]  # u̇ in the order of KM.u (independent speeds first)
    ch, F = nh.lagrangian.chart, nh.frame
    pv = {p: sp.Rational(3 + i, 5 + 2 * i) for i, p in enumerate(sorted(ch.params, key=str))}
    hc = KM._f_h[0]
    vc = list(KM._k_nh * sp.Matrix(KM.u) + KM._f_nh)
    by_name = {s.name: s for s in (*ch.q, *ch.u, *F.v)}
    for seed in range(3):
        qv, uv = _state(KM, hc, vc, pv, seed)
        kane = tree_values(list(rates), {**pv, **qv, **uv})
        point = pv | {by_name[q.func.__name__]: x for q, x in qv.items()}
        ours = tree_values(list(G.Gamma[: nh.m]), point | {F.v[a]: uv[KM.u[a]] for a in range(nh.m)})
        # the independent speeds are the quasi-velocities v^α: Γ^α = u̇_α
        assert [F.v[a].name for a in range(nh.m)] == [u.func.__name__ for u in KM.u[: nh.m]]
        for x, y in zip(ours, kane[: nh.m], strict=True):
            assert abs(x - y) < 1e-25 * (1 + abs(y))
        # q̈ in natural coordinates: q̇_k = u_k, so q̈ is u̇ of the speed named after the coordinate
        speed_of = {u.func.__name__: i for i, u in enumerate(KM.u)}
        natural = point | {uk: uv[KM.u[speed_of["u" + q.name.lstrip("q")]]] for q, uk in zip(ch.q, ch.u, strict=True)}
        qdd = tree_values(list(acc), natural)
        for q, x in zip(ch.q, qdd, strict=True):
            y = kane[speed_of["u" + q.name.lstrip("q")]]
            assert abs(x - y) < 1e-25 * (1 + abs(y))
