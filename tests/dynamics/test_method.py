"""The method protocol: ``equations()``, ``accelerations()``, ``multipliers()`` agree across methods."""

import pytest
import sympy as sp

import frames as fr
from frames.algebra import is_zero

NAMES = sorted(fr.models.catalogue())


def _rhs_in_symbols(eqs, chart, extra=()):
    """The right-hand sides of ``equations()`` with the functions of time written back as the chart's symbols."""
    t = chart.t if chart.t is not None else sp.Symbol("t")
    back = {}
    for q, u in zip(chart.q, chart.u, strict=True):
        f = sp.Function(str(q))(t)
        back[sp.Derivative(f, t)] = u
        back[f] = q
    for x in extra:
        back[sp.Function(str(x))(t)] = x
    return [e.rhs.subs(back) for e in eqs], [e.lhs.subs(back) for e in eqs]


@pytest.mark.parametrize("name", NAMES)
def test_nonholonomic_equations_are_the_accelerations_and_the_constraints(name):
    mdl = fr.models.get(name)
    nh = mdl.nonholonomic()
    eqs = nh.equations()
    n, m = nh.n, nh.m
    assert len(eqs) == n + (n - m)
    rhs, lhs = _rhs_in_symbols(eqs, mdl.chart)
    acc = nh.accelerations()
    assert all(is_zero(rhs[j] - acc[j]) for j in range(n))
    # the constraint rows vanish on D: u = v^α X_α
    on_D = {u: sum(nh.frame.v[al] * nh.frame.matrix[al, j] for al in range(m)) for j, u in enumerate(mdl.chart.u)}
    assert all(is_zero(lhs[n + a].subs(on_D)) for a in range(n - m))


@pytest.mark.parametrize("name", NAMES)
def test_vakonomic_accelerations_at_zero_multipliers_are_the_nonholonomic_ones(name):
    """``μ = 0`` is a weakly consistent section (``φ_a R^a_αβ v^β = 0``), so there ``Γ_C`` is the nonholonomic Γ."""
    mdl = fr.models.get(name)
    nh = mdl.nonholonomic()
    vk = fr.VakonomicSystem.from_nonholonomic(nh)
    at_zero = vk.accelerations().subs({mu: 0 for mu in vk.mu})
    # natural accelerations are valid on C (u in D), where they are compared
    on_C = nh.u_on_C
    assert all(is_zero((a - b).xreplace(on_C)) for a, b in zip(at_zero, nh.accelerations(), strict=True))
    assert tuple(vk.multipliers()) == vk.mu
    eqs = vk.equations()
    assert len(eqs) == nh.n + 2 * (nh.n - nh.m)


def test_cartan_accelerations_are_the_unconstrained_nonholonomic_ones():
    """Without constraints the Cartan-form method gives the Euler–Lagrange accelerations, ``M⁻¹(∂L/∂q − …)``."""
    mdl = fr.models.chaplygin_sleigh()
    F, L = mdl.frame, mdl.lagrangian
    cartan = fr.CartanSystem(F, L).accelerations()
    ch = mdl.chart
    M = sp.Matrix(3, 3, lambda i, j: sp.diff(L.expr, ch.u[i], ch.u[j]))
    rhs = sp.Matrix(
        [
            sp.diff(L.expr, q) - sum(sp.diff(L.expr, u, q2) * u2 for q2, u2 in zip(ch.q, ch.u))
            for q, u in zip(ch.q, ch.u)
        ]
    )
    el = M.LUsolve(rhs)
    assert all(is_zero(a - b) for a, b in zip(cartan, el, strict=True))
    assert len(fr.CartanSystem(F, L).equations()) == F.dim
