"""Trajectory as a data object: plotting on the caller's axes, xarray/pandas export, Jupyter summaries."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import frames as fr
from frames import models

matplotlib = pytest.importorskip("matplotlib")


@pytest.fixture(scope="module")
def sleigh_traj():
    mdl = models.chaplygin_sleigh()
    nh = mdl.nonholonomic()
    return fr.integrate(nh, (0, 2), mdl.q0, mdl.u0, params=mdl.param_values, t_eval=np.linspace(0, 2, 21))


def test_plot_draws_on_the_callers_axes_and_returns_them(sleigh_traj):
    from matplotlib.figure import Figure

    fig = Figure()
    axes = fig.subplots(2, 1)
    before = matplotlib.get_backend()
    out = sleigh_traj.plot(ax=axes, panels=("q", "energy"))
    assert matplotlib.get_backend() == before, "plot must not switch the caller's backend"
    assert list(out) == list(axes)
    q_lines = axes[0].get_lines()
    assert len(q_lines) == 3  # theta, x, y
    np.testing.assert_array_equal(q_lines[0].get_ydata(), sleigh_traj.q[:, 0])
    e = axes[1].get_lines()[0].get_ydata()
    np.testing.assert_allclose(e, sleigh_traj.energy - sleigh_traj.energy[0])
    one = Figure().subplots()
    assert sleigh_traj.plot(ax=one, panels=["v"]) is one
    assert len(one.get_lines()) >= 1


def test_plot_bad_axes_and_panels_are_argument_errors(sleigh_traj, tmp_path):
    from matplotlib.figure import Figure

    ax = Figure().subplots()
    with pytest.raises(fr.errors.ArgumentError, match=r"plot: ax: expected 2 axes"):
        sleigh_traj.plot(ax=ax, panels=("q", "v"))
    with pytest.raises(fr.errors.ArgumentError, match=r"plot: ax: expected matplotlib Axes, got str"):
        sleigh_traj.plot(ax="axes", panels=("q",))
    with pytest.raises(fr.errors.ArgumentError, match=r"panels: unknown panel 'speed'"):
        sleigh_traj.plot(ax=ax, panels=("speed",))
    with pytest.raises(fr.errors.ArgumentError, match=r"panels: expected a sequence"):
        sleigh_traj.plot(ax=ax, panels="q")
    with pytest.raises(fr.errors.ArgumentError, match=r"either path .* or ax"):
        sleigh_traj.plot(tmp_path / "x.png", ax=ax)
    assert not (tmp_path / "x.png").exists()


def test_plot_to_file_keeps_working(sleigh_traj, tmp_path):
    out = sleigh_traj.plot(tmp_path / "s.png", panels=("q", "residual"))
    assert out.exists() and out.stat().st_size > 1000


def test_to_xarray_has_every_column_and_the_parameters(sleigh_traj):
    xr = pytest.importorskip("xarray")
    ds = sleigh_traj.to_xarray()
    assert isinstance(ds, xr.Dataset)
    cols = sleigh_traj.columns()
    np.testing.assert_array_equal(ds["t"].values, cols["t"])
    assert set(ds.data_vars) == set(cols) - {"t"}
    np.testing.assert_array_equal(ds["energy"].values, sleigh_traj.energy)
    assert ds.attrs["form"] == sleigh_traj.form
    assert {f"param_{k}" for k in sleigh_traj.params} <= set(ds.attrs)


def test_to_xarray_without_xarray_is_a_clean_error(sleigh_traj, monkeypatch):
    monkeypatch.setitem(sys.modules, "xarray", None)
    with pytest.raises(fr.errors.OptionalDependencyError, match=r"frames\[data\]"):
        sleigh_traj.to_xarray()


def test_trajectory_html_summary(sleigh_traj):
    html = sleigh_traj._repr_html_()
    assert html.startswith("<table><caption>Trajectory</caption>")
    assert "theta, x, y" in html and "max |E − E(0)|" in html and "reduced" in html
    assert html.count("<tr>") >= 7


def test_batch_html_summary():
    mdl = models.chaplygin_sleigh()
    th = np.array([0.0, 0.5, 1.0])
    q0 = np.stack([th, np.zeros(3), np.zeros(3)], axis=1)
    u0 = np.stack([np.full(3, 0.3), np.cos(th), np.sin(th)], axis=1)
    b = fr.integrate(mdl.nonholonomic(), (0, 1), q0, u0, params=mdl.param_values, t_eval=[0, 0.5, 1])
    html = b._repr_html_()
    assert "<caption>TrajectoryBatch</caption>" in html and "<td>3</td>" in html


def _square(x):
    return x * x


def test_sweep_progress_bar_counts_points_and_keeps_order(capsys):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as ex:
        out = fr.sweep(_square, [3, 1, 2], executor=ex, progress=True)
    assert out == [9, 1, 4]
    err = capsys.readouterr().err
    assert "sweep" in err and "3/3" in err
    with ThreadPoolExecutor(2) as ex:
        assert fr.sweep(_square, [2], executor=ex) == [4]
    assert capsys.readouterr().err == ""  # progress=False by default: silent
    with pytest.raises(fr.errors.ArgumentError, match=r"sweep: progress: expected True, False or None"):
        fr.sweep(_square, [1], progress="yes")
