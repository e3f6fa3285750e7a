"""The dense 4-dof system file of issue 42 (``tests/app/data/dense4.toml``): compound, product and nested
arguments in L and in the constraints. Its full ``frames analyze`` (formerly > 400 s, most of it in the vakonomic
field) keeps every section; the wall time and the gaps between progress lines are measured by
``benchmarks/dense_file.py``, not asserted here."""

from __future__ import annotations

from pathlib import Path

import pytest

import frames as fr
from frames.app import main
from frames.app._report import SECTIONS, analyze

DENSE = Path(__file__).resolve().parent / "data" / "dense4.toml"


@pytest.mark.slow
def test_analyze_of_the_dense_file_has_every_section(capsys):
    code = main(["analyze", str(DENSE), "--progress", "--jobs", "1"])
    out, err = capsys.readouterr()
    assert code == 0
    for spec in SECTIONS.values():
        assert spec.title in out
    # the report is written section by section, each announced (never a silent minute at the end)
    assert "writing section vakonomic" in err and "writing section consistency" in err
    assert "VakonomicSystem.field: g⁻¹ b on trees" in err


@pytest.mark.slow
def test_dense_report_sections_are_computed():
    rep = analyze(fr.load_model(DENSE), jobs=1)
    status = {s.id: s.status for s in rep.sections}
    # no group, no auxiliary functions, no operating point
    applicable = {sid for sid in SECTIONS if sid not in ("chaplygin", "mvm", "stability")}
    assert all(status[sid] == "ok" for sid in applicable), status
    vak = {i.label: i for s in rep.sections if s.id == "vakonomic" for i in s.items}
    assert all(f"Γ^{i}" in vak for i in range(1, 5))


def test_format_with_progress_announces_each_section_and_writes_the_same_text():
    rep = analyze(fr.models.knife_edge(), only=["nonholonomic", "vakonomic"])
    seen: list[str] = []
    assert rep.format("text", progress=seen.append) == rep.format("text")
    assert seen == ["writing section nonholonomic", "writing section vakonomic"]
    assert rep.format("latex", progress=seen.append) == rep.format("latex")


def test_format_rejects_a_progress_that_is_not_callable():
    rep = analyze(fr.models.knife_edge(), only=["chart"])
    with pytest.raises(fr.errors.ArgumentError, match=r"^Report\.format: progress must be callable"):
        rep.format("text", progress="yes")
