"""``frames/natural/_ode.py``: the MVM equations as a first-order system."""

import numpy as np
import pytest

import frames as fr
from frames.natural._ode import mvm_ode


def test_the_state_is_q_u_lambda_and_the_constraint_is_kept(knife):
    mdl, V = knife
    mvm = fr.ModifiedVakonomic(mdl.lagrangian, constraints=[V], auxiliary=list(mdl.chart.u[:2]))
    ode = mvm_ode(mvm)
    n = mdl.chart.dim
    assert len(ode.states) == 2 * n + 1
    assert ode.states[: 2 * n] == (*mdl.chart.q, *mdl.chart.u)
    assert ode == mvm.ode_system()
    tr = fr.integrate(mvm, (0.0, 0.5), mdl.q0, mdl.u0, params=mdl.param_values, extra0={"lambda": [0.0]})
    assert np.max(np.abs(tr.constraint_values)) < 1e-6
    assert tr.extras["lambda"].shape[-1] == tr.t.shape[0] or tr.extras["lambda"].shape[0] == tr.t.shape[0]


def test_a_form_that_is_not_a_string_is_refused(knife):
    mdl, V = knife
    mvm = fr.ModifiedVakonomic(mdl.lagrangian, constraints=[V], auxiliary=list(mdl.chart.u[:2]))
    with pytest.raises(fr.errors.FramesError, match="form"):
        mvm_ode(mvm, form=3)
