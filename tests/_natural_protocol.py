"""The method protocol of the natural layer: a natural method answers like the frame methods."""

import numpy as np

import frames as fr


def check_protocol(method, mdl, extra):
    """``method`` answers the protocol of the frame methods and ``frames.integrate`` takes it."""
    n = mdl.chart.dim
    assert method.accelerations().shape == (n, 1)
    assert len(method.equations()) >= n
    ode = method.ode_system()
    assert ode.states[: 2 * n] == tuple(mdl.chart.q) + tuple(mdl.chart.u)
    assert fr.ode_system(method) == ode
    tr = fr.integrate(method, (0.0, 0.2), mdl.q0, mdl.u0, params=mdl.param_values, extra0=extra)
    assert np.all(np.isfinite(tr.q))
    return tr
