"""backend="numba": jitted right-hand side and integrators agree with the NumPy path."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import frames as fr
from frames import models

numba = pytest.importorskip("numba")


def _sleigh_batch(n, seed=0):
    rng = np.random.default_rng(seed)
    th = rng.uniform(-1, 1, n)
    q0 = np.stack([th, rng.normal(size=n), rng.normal(size=n)], axis=1)
    w, s = rng.uniform(-1, 1, n), rng.uniform(0.2, 2, n)
    return q0, np.stack([w, s * np.cos(th), s * np.sin(th)], axis=1)


@pytest.fixture(scope="module")
def sleigh():
    mdl = models.chaplygin_sleigh()
    return mdl, mdl.nonholonomic()


def test_numba_rk4_equals_numpy_rk4(sleigh):
    mdl, nh = sleigh
    q0, u0 = _sleigh_batch(16)
    kw = dict(params=mdl.param_values, method="RK4", n_steps=400, t_eval=np.linspace(0, 4, 9))
    a = fr.integrate_batch(nh, (0, 4), q0, u0, **kw)
    b = fr.integrate_batch(nh, (0, 4), q0, u0, backend="numba", **kw)
    assert np.max(np.abs(a.state - b.state)) < 1e-12  # the same arithmetic, member by member
    assert b.info["backend"] == "numba"


def test_numba_rk45_agrees_with_numpy_and_solve_ivp(sleigh):
    mdl, nh = sleigh
    q0, u0 = _sleigh_batch(12, seed=1)
    te = np.linspace(0, 5, 11)
    kw = dict(params=mdl.param_values, rtol=1e-12, atol=1e-13, t_eval=te)
    a = fr.integrate_batch(nh, (0, 5), q0, u0, **kw)
    b = fr.integrate_batch(nh, (0, 5), q0, u0, backend="numba", **kw)
    assert np.max(np.abs(a.state - b.state)) < 1e-10
    one = fr.integrate(nh, (0, 5), q0[3], u0[3], backend="numba", **kw)
    assert np.max(np.abs(one.state - b.state[3])) < 1e-14 and one.method == "RK45"
    ref = fr.integrate(nh, (0, 5), q0[3], u0[3], **kw)
    assert np.max(np.abs(one.q - ref.q)) < 1e-10


@pytest.mark.slow
def test_numba_parameter_sweep_and_other_models():
    mdl = models.vertical_rolling_disk()
    nh = mdl.nonholonomic()
    n = 6
    q0 = np.tile(np.asarray([float(mdl.q0[k]) for k in mdl.chart.q]), (n, 1))
    u0 = np.tile(np.asarray([float(mdl.u0[k]) for k in mdl.chart.u]), (n, 1))
    pv = {k.name: np.full(n, float(v)) for k, v in mdl.param_values.items()}
    first = next(iter(pv))
    pv[first] = np.linspace(0.5, 2.0, n)
    kw = dict(params=pv, rtol=1e-11, atol=1e-12, t_eval=[0, 1, 2])
    a = fr.integrate_batch(nh, (0, 2), q0, u0, **kw)
    b = fr.integrate_batch(nh, (0, 2), q0, u0, backend="numba", **kw)
    assert np.max(np.abs(a.state - b.state)) < 1e-9


def test_numba_bad_backend_and_missing_numba(sleigh, monkeypatch):
    mdl, nh = sleigh
    q0, u0 = _sleigh_batch(2)
    with pytest.raises(fr.OptionError, match=r"backend='cuda' is not one of \['numpy', 'numba'\]"):
        fr.integrate_batch(nh, (0, 1), q0, u0, params=mdl.param_values, backend="cuda")
    with pytest.raises(fr.OptionError, match=r"backend=5 is not one of"):
        fr.integrate(nh, (0, 1), q0[0], u0[0], params=mdl.param_values, backend=5)
    with pytest.raises(fr.OptionError, match=r"method='LSODA' is not one of \['RK45'\]"):
        fr.integrate(nh, (0, 1), q0[0], u0[0], params=mdl.param_values, backend="numba", method="LSODA")
    with pytest.raises(fr.OptionError, match=r"no backend='numba'"):
        fr.integrate(
            nh, (0, 1), q0[0], u0[0], params=mdl.param_values, backend="numba", method="lda-midpoint", step=0.1
        )
    monkeypatch.setitem(sys.modules, "numba", None)
    import frames.numeric._numba as nb

    monkeypatch.setattr(nb, "_KERNELS", {})
    with pytest.raises(fr.OptionalDependencyError, match=r"pip install 'frames\[numba\]'"):
        fr.integrate_batch(nh, (0, 1), q0, u0, params=mdl.param_values, backend="numba")
