"""plot_stability_region: the map of a StabilityRegion written to a file, and its refusals."""

from __future__ import annotations

import pytest
import sympy as sp

import frames as fr
from frames.numeric import draw_stability_region, plot_stability_region

pytest.importorskip("matplotlib")


@pytest.fixture(scope="module")
def region():
    mdl = fr.models.chaplygin_sleigh()
    th, x, y = mdl.chart.q
    V = sp.Symbol("V")
    lin = fr.linearize(mdl.nonholonomic(), {th: 0, x: 0, y: 0, mdl.chart.u[0]: 0, mdl.chart.u[1]: V, mdl.chart.u[2]: 0})
    return lin.stability_region({"V": (-2, 3), "a": (-1, 1)}, {"m": 1, "I": 1}, n=31)


def test_plot_stability_region_writes_png_and_svg(region, tmp_path):
    out = plot_stability_region(region, tmp_path / "map.png", title="sleigh")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = plot_stability_region(region, tmp_path / "map.svg")
    assert b"<svg" in svg.read_bytes()[:400]
    assert fr.plot_stability_region is plot_stability_region


def test_refusals(region, tmp_path):
    with pytest.raises(fr.errors.ArgumentError, match=r"plot_stability_region: path: .*'\.txt'.*\.png"):
        plot_stability_region(region, tmp_path / "map.txt")
    with pytest.raises(fr.errors.ArgumentError, match="does not exist"):
        plot_stability_region(region, tmp_path / "nowhere" / "map.png")
    with pytest.raises(fr.errors.ArgumentError, match="plot_stability_region: region"):
        plot_stability_region("not a region", tmp_path / "map.png")
    with pytest.raises(fr.errors.ArgumentError, match="draw_stability_region: ax"):
        draw_stability_region(region, ax="axes")
