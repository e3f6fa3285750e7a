"""Vakonomic motion numerically: the two-wheeled carriage on its consistent sections (CM section 7.2).

The vakonomic field of Proposition 4 with free multipliers (state (q, v^α, μ), μ̇ = A) is integrated from
μ(0) = φ(q0, v0) and compared with the nonholonomic motion from the same (q0, u0). Strong consistency
(Theorem 2) makes the image of φ invariant, and then the motions coincide: at l = 0 with φ = p and at the
special l with φ = p + k (H = +(mR² + 2J2)/(2R), errata CM-5). At a generic l they separate.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

import frames as fr

_spec = importlib.util.spec_from_file_location(
    "carriage_consistency", Path(__file__).parents[2] / "examples" / "carriage_consistency.py"
)
cc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cc)


def test_vakonomic_ode_states_and_errors():
    mdl = fr.models.nonholonomic_particle()
    ode = fr.ode_system(fr.VakonomicSystem(mdl.lagrangian, mdl.frame, m=2))
    assert ode.form == "vakonomic" and ode.extra_inputs == {"mu": (sp.Symbol("mu3"),)}
    with pytest.raises(fr.FramesError):
        fr.ode_system("vk")
    with pytest.raises(fr.FramesError):
        fr.integrate(ode, (0, 1), mdl.q0, mdl.u0, params=mdl.param_values, mu0=[np.nan])


def test_carriage_l0_section_p_coincides():
    d, nh, _va = cc.compare(0, 0)
    print(f"carriage l = 0, phi = p: max |q_vk - q_nh| over T = 20: {d:.2e}")
    assert d <= 1e-9
    assert np.ptp(nh.q[:, 2]) > 0.5  # a real motion


@pytest.mark.slow
def test_carriage_special_l_section_p_plus_k_coincides():
    d, _nh, _va = cc.compare(cc.L_SPECIAL(), 1)
    print(f"carriage l = l_s, phi = p + k: max |q_vk - q_nh| over T = 20: {d:.2e}")
    assert d <= 1e-9


@pytest.mark.slow
@pytest.mark.parametrize(
    ("l_value", "which"), [(sp.Rational(1, 10), 0), (sp.Rational(1, 10), 1), (sp.sqrt(1595) / 80, 1)]
)
def test_carriage_generic_l_separates(l_value, which):
    d, _nh, _va = cc.compare(l_value, which)
    print(f"carriage l = {l_value}, section {['p', 'p + k'][which]}: max |q_vk - q_nh| over T = 20: {d:.2e}")
    assert d > 1e-2
