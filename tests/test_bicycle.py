"""SymPy's Whipple bicycle (``test_kane3.py``) with 8 coordinates through ``from_mechanics`` (issue 33, part 3).

The model is built by ``benchmarks/bicycle.py``: the wheel angles and the rear contact point added as
coordinates, the front contact point written with ``.normalize()`` (a square root), 5 velocity constraints and
the holonomic front-contact constraint.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import sympy as sp

import frames as fr

_SPEC = importlib.util.spec_from_file_location(
    "bicycle_benchmark", Path(__file__).resolve().parent.parent / "benchmarks" / "bicycle.py"
)
assert _SPEC is not None and _SPEC.loader is not None
bicycle = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bicycle)


@pytest.mark.slow
def test_the_whipple_bicycle_imports_with_its_kinetic_energy_and_constraints():
    KM = bicycle.bicycle()
    with fr.budget(240):
        imp = fr.mechanics_import(KM)
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
