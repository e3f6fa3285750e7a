"""examples/tour.ipynb runs top to bottom in a fresh kernel and every object displays as mathematics."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOK = Path(__file__).resolve().parents[1] / "examples" / "tour.ipynb"


@pytest.fixture(scope="module")
def executed():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}}
    ).execute()
    return [c for c in nb.cells if c.cell_type == "code"]


def _mimes(cell) -> set[str]:
    out: set[str] = set()
    for o in cell.outputs:
        assert o.output_type != "error", "".join(o.get("traceback", []))
        out |= set(o.get("data", {}))
    return out


def test_tour_notebook_displays_latex_html_and_a_figure(executed):
    mimes = [_mimes(c) for c in executed]
    # model, frame, system, field, consistency result, report: LaTeX
    for i in range(6):
        assert "text/latex" in mimes[i], (i, executed[i].source, mimes[i])
    assert "text/html" in mimes[6]  # the trajectory's summary table
    assert "image/png" in mimes[7]  # the figure drawn on the user's axes
    report = "".join(o["data"]["text/latex"] for o in executed[5].outputs if "text/latex" in o.get("data", {}))
    assert r"\dot{x}" in report and r"\begin{aligned}" in report
    html = "".join(o["data"]["text/html"] for o in executed[6].outputs if "text/html" in o.get("data", {}))
    assert "<caption>Trajectory</caption>" in html and "phi, x, y" in html
