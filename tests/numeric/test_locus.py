"""Eigenvalues against a parameter (``frames.numeric.plot_eigenvalues``): the file, and the curves equal the sweep."""

import sys

import numpy as np
import pytest
import sympy as sp

import frames as fr
from frames.numeric import draw_eigenvalues, plot_eigenvalues

matplotlib = pytest.importorskip("matplotlib")

V = sp.Symbol("V")
VALS = {"m": 1.0, "I": 0.5, "a": 0.3}
SPEEDS = np.linspace(-1.0, 1.3, 24)


@pytest.fixture(scope="module")
def sleigh_lin():
    mdl = fr.models.chaplygin_sleigh()
    th, x, y = mdl.chart.q
    ut, ux, uy = mdl.chart.u
    return fr.linearize(mdl.nonholonomic(), {th: 0, x: 0, y: 0, ut: 0, ux: V, uy: 0})


def _axes():
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure()
    FigureCanvasAgg(fig)
    return fig.subplots(2, 1, sharex=True)


def test_the_curves_are_the_sweep_and_the_critical_value_is_marked(sleigh_lin):
    re_ax, im_ax = draw_eigenvalues(sleigh_lin, V, SPEEDS, _axes(), subs=VALS)
    eig = sleigh_lin.sweep(V, SPEEDS, VALS)
    curves = [ln for ln in re_ax.lines if len(ln.get_xdata()) == len(SPEEDS)]
    assert len(curves) == eig.shape[1] == 2
    for k, ln in enumerate(curves):
        np.testing.assert_array_equal(ln.get_xdata(), SPEEDS)
        np.testing.assert_array_equal(ln.get_ydata(), np.real(eig[:, k]))
    im = [ln for ln in im_ax.lines if len(ln.get_xdata()) == len(SPEEDS)]
    for k, ln in enumerate(im):
        np.testing.assert_array_equal(ln.get_ydata(), np.imag(eig[:, k]))
    (crit,) = sleigh_lin.critical_values(V, SPEEDS, VALS)
    marks = [ln for ln in re_ax.lines if len(ln.get_xdata()) == 2 and ln.get_xdata()[0] == ln.get_xdata()[1]]
    assert [m.get_xdata()[0] for m in marks] == [crit]
    assert "V = " in re_ax.get_title() and im_ax.get_xlabel() == "V"


def test_plot_eigenvalues_writes_a_png(sleigh_lin, tmp_path):
    before = matplotlib.get_backend()
    out = plot_eigenvalues(sleigh_lin, V, SPEEDS, tmp_path / "locus.png", subs=VALS, critical=[0.0])
    assert out == tmp_path / "locus.png"
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert matplotlib.get_backend() == before


def test_refusals(sleigh_lin, tmp_path, monkeypatch):
    with pytest.raises(fr.errors.ArgumentError, match="does not exist"):
        plot_eigenvalues(sleigh_lin, V, SPEEDS, tmp_path / "nowhere" / "x.png", subs=VALS)
    with pytest.raises(fr.errors.ArgumentError, match="two matplotlib Axes"):
        draw_eigenvalues(sleigh_lin, V, SPEEDS, ["a", "b"], subs=VALS)
    with pytest.raises(fr.errors.ArgumentError, match="critical"):
        plot_eigenvalues(sleigh_lin, V, SPEEDS, tmp_path / "x.png", subs=VALS, critical=[np.nan])
    with pytest.raises(fr.errors.ArgumentError, match="plot_eigenvalues: lin"):
        plot_eigenvalues("not a linearization", V, SPEEDS, tmp_path / "x.png")
    with pytest.raises(fr.errors.ArgumentError, match=r"plot_eigenvalues: path: .*'\.txt'.*\.png"):
        plot_eigenvalues(sleigh_lin, V, SPEEDS, tmp_path / "x.txt", subs=VALS)
    assert not (tmp_path / "x.txt").exists()
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(fr.errors.OptionalDependencyError, match=r"frames\[plot\]"):
        plot_eigenvalues(sleigh_lin, V, SPEEDS, tmp_path / "x.png", subs=VALS)
