"""The `frames` command: analyze (every model, every format), export, simulate; JSON schema; LaTeX structure."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import jsonschema
import numpy as np
import pytest
import sympy as sp
from sympy.physics.vector.printing import vlatex

import frames as fr
import frames.app._report as rep_mod
from frames import app as cli
from frames import models
from frames.app import _cli
from frames.app._report import ERRATA, SECTIONS, analyze, display_form

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "analyze.schema.json").read_text())
EXAMPLE = ROOT / "examples" / "systems" / "sleigh_offset_mass.toml"
FORMATS = ["text", "markdown", "latex", "json"]
# fast default subset; the full matrix (the carriage's report is the slowest) is marked slow
FAST = ["nonholonomic-particle", "knife-edge", "abelian-chaplygin"]
SLOW = [n for n in models.catalogue() if n not in FAST]

_real_build = rep_mod.analyze


@cache
def _cached(spec: str, only: tuple[str, ...] | None):
    return _real_build(cli.find_model(spec), only=list(only) if only else None)


@pytest.fixture
def cached_reports(monkeypatch):
    """Build each model's report once; every format reuses it (main() still runs end to end)."""

    def build(model, only=None):
        return _cached(
            model.name if not model.name.startswith("abelian-chaplygin") else "abelian-chaplygin",
            tuple(only) if only else None,
        )

    monkeypatch.setattr(rep_mod, "analyze", build)


def _run(capsys, argv):
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _check_output(fmt: str, out: str) -> None:
    if fmt == "json":
        jsonschema.validate(json.loads(out), SCHEMA)
    elif fmt == "latex":
        check_latex_structure(out)
    else:
        assert out.startswith("# ")


def check_latex_structure(tex: str) -> None:
    """Balanced braces (ignoring escaped ones) and properly nested begin/end pairs."""
    body = tex.replace(r"\{", "").replace(r"\}", "")
    depth = 0
    for ch in body:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        assert depth >= 0, "unbalanced }"
    assert depth == 0, "unbalanced {"
    stack = []
    for kind, env in re.findall(r"\\(begin|end)\{([^}]*)\}", tex):
        if kind == "begin":
            stack.append(env)
        else:
            assert stack and stack.pop() == env, f"\\end{{{env}}} without matching begin"
    assert not stack
    assert tex.lstrip().startswith(r"\documentclass") and r"\end{document}" in tex


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("name", FAST)
def test_analyze_every_format_fast(name, fmt, cached_reports, capsys):
    code, out, err = _run(capsys, ["analyze", name, "--format", fmt])
    assert code == 0, err
    _check_output(fmt, out)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("name", SLOW)
def test_analyze_every_format_full(name, fmt, cached_reports, capsys):
    code, out, err = _run(capsys, ["analyze", name, "--format", fmt])
    assert code == 0, err
    _check_output(fmt, out)


def test_json_sections_and_latex_match_library(capsys):
    mdl = models.knife_edge()
    code, out, _ = _run(capsys, ["analyze", "knife-edge", "--format", "json"])
    assert code == 0
    data = json.loads(out)
    jsonschema.validate(data, SCHEMA)
    ids = [s["id"] for s in data["sections"]]
    assert ids == list(SECTIONS)
    by = {s["id"]: s for s in data["sections"]}
    for sid in ("chart", "frame", "anholonomy", "frobenius", "lagrangian", "nonholonomic", "errata"):
        assert by[sid]["status"] == "ok" and by[sid]["items"], sid
    nh = mdl.nonholonomic()
    items = {it["label"]: it for it in by["nonholonomic"]["items"]}
    # each equation's LaTeX is sympy.latex of the library's (factored) expression
    assert items["λ_3"]["latex"] == sp.latex(display_form(nh.multipliers()[0]))
    assert items["Γ^1"]["latex"] == sp.latex(display_form(nh.field().Gamma[0]))
    assert sp.simplify(display_form(nh.multipliers()[0]) - nh.multipliers()[0]) == 0
    assert by["frobenius"]["items"][0]["value"] is False
    # the schema rejects a malformed report
    bad = dict(data, sections=[dict(data["sections"][0], status="weird")])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, SCHEMA)


def test_latex_report_equations_are_sympy_latex(capsys):
    code, out, _ = _run(capsys, ["analyze", "nonholonomic-particle", "--format", "latex", "--only", "nonholonomic"])
    assert code == 0
    check_latex_structure(out)
    nh = models.nonholonomic_particle().nonholonomic()
    lam = sp.latex(display_form(nh.multipliers()[0]))
    assert f"\\lambda_{{3}} = {lam}" in out
    with pytest.raises(AssertionError):
        check_latex_structure(out.replace(r"\end{equation*}", "", 1))


def test_only_and_errors(capsys):
    code, out, _ = _run(capsys, ["analyze", "knife-edge", "--only", "anholonomy", "errata"])
    assert code == 0
    assert "## Object of anholonomy" in out and "## Frame\n" not in out and "## Errata" in out
    code, _, err = _run(capsys, ["analyze", "no-such-model"])
    assert code == 2 and "unknown model" in err
    with pytest.raises(SystemExit):
        cli.main(["analyze", "knife-edge", "--only", "nonsense"])
    with pytest.raises(fr.FramesError):
        analyze(models.knife_edge(), only=["nonsense"])


def test_missing_modules_are_skipped_with_a_note():
    rep = analyze(models.knife_edge(), only=["vakonomic", "consistency", "mvm", "chaplygin"])
    st = {s.id: s for s in rep.sections}
    assert st["chaplygin"].status == "skipped" and "Chaplygin" in st["chaplygin"].note
    for sid in ("vakonomic", "consistency"):
        assert st[sid].status == "ok", st[sid].note
    assert st["mvm"].status == "skipped" and "auxiliary" in st["mvm"].note


def test_errata_registry_matches_docs(capsys):
    errata = (ROOT / "docs" / "errata.md").read_text()
    for name, entries in ERRATA.items():
        assert name in models.catalogue()
        for eid, _ in entries:
            assert f"### {eid}:" in errata
    _code, out, _ = _run(capsys, ["analyze", "knife-edge", "--only", "errata"])
    assert "no known errata" in out


def test_export_and_analyze_file(tmp_path, capsys):
    path = tmp_path / "k.toml"
    code, _, _ = _run(capsys, ["export", "knife-edge", "-o", str(path)])
    assert code == 0
    code, out, _ = _run(capsys, ["export", "knife-edge"])
    assert code == 0 and out == path.read_text()
    code, out, err = _run(capsys, ["analyze", str(path), "--only", "nonholonomic"])
    assert code == 0, err
    _code2, out2, _ = _run(capsys, ["analyze", "knife-edge", "--only", "nonholonomic"])
    assert out == out2
    bad = tmp_path / "bad.toml"
    bad.write_text(
        path.read_text().replace('lagrangian = "', "lagrangian = \"__import__('os').system('echo pwned') + ")
    )
    code, out, err = _run(capsys, ["analyze", str(bad)])
    assert code == 2 and "bad.toml: lagrangian:" in err and "pwned" not in out


def test_user_written_system_gets_a_complete_report(capsys):
    code, out, err = _run(capsys, ["analyze", str(EXAMPLE), "--format", "json"])
    assert code == 0, err
    data = json.loads(out)
    jsonschema.validate(data, SCHEMA)
    assert data["model"] == "sleigh-offset-mass"
    by = {s["id"]: s for s in data["sections"]}
    for sid in ("chart", "frame", "anholonomy", "frobenius", "lagrangian", "nonholonomic", "errata"):
        assert by[sid]["status"] == "ok" and by[sid]["items"], sid
    for sid in ("vakonomic", "consistency", "mvm"):
        assert by[sid]["status"] == "ok", by[sid]["note"]
    assert by["chaplygin"]["status"] == "skipped"  # no group declared
    labels = [it["label"] for it in by["nonholonomic"]["items"]]
    assert {"Γ^1", "Γ^2", "λ_3"} <= set(labels)
    units = [it["text"] for it in by["chart"]["items"] if it["label"] == "parameter I"]
    assert units == ["[kg m^2] default 0.1"]


def test_simulate(tmp_path, capsys):
    png, csv = tmp_path / "out.png", tmp_path / "out.csv"
    argv = [
        "simulate",
        "knife-edge",
        "--t-end",
        "2",
        "--plot",
        str(png),
        "--csv",
        str(csv),
        "--param",
        "m=2",
        "--ic",
        "u_phi=0.3",
        "--points",
        "50",
        "--progress",
    ]
    code, _out, err = _run(capsys, argv)
    assert code == 0, err
    assert png.stat().st_size > 1000
    rows = csv.read_text().splitlines()
    assert rows[0] == "t,phi,x,y,u_phi,u_x,u_y" and len(rows) > 40
    assert "100%" in err  # progress bar
    code, _, err = _run(capsys, ["simulate", "knife-edge", "--t-end", "1", "--param", "zz=1"])
    assert code == 2 and "zz" in err
    code, _, err = _run(capsys, ["simulate", "abelian-chaplygin", "--t-end", "1"])
    assert code == 2 and ("no value" in err or "--subs Delta3=EXPR" in err)


def test_repr_latex_on_main_objects():
    mdl = models.nonholonomic_particle()
    nh = mdl.nonholonomic()
    objs = [mdl, mdl.chart, mdl.frame, mdl.frame.fields[1], mdl.lagrangian, nh.field(), mdl.constraints, nh.frobenius()]
    for obj in objs:
        tex = obj._repr_latex_()
        assert tex.startswith("$") and tex.endswith("$"), type(obj)
        body = tex.replace(r"\{", "").replace(r"\}", "")
        assert body.count("{") == body.count("}"), type(obj)
    assert sp.latex(mdl.lagrangian.expr) in mdl._repr_latex_()
    tex = fr.latex_equations(nh)
    check_latex_structure("\\documentclass{x}\n\\begin{document}\n" + tex + "\n\\end{document}")
    for e in nh.field().equations():
        assert f"{vlatex(e.lhs)} &= {vlatex(e.rhs)}" in tex
    # dot notation, no explicit time dependence: q̇3 = −q1 v2
    assert r"\dot{q}_{3} &= - q_{1} v_{2}" in tex and r"\left(t" not in tex
    with pytest.raises(fr.FramesError):
        fr.latex_equations(42)


def test_version_and_did_you_mean(capsys):
    with pytest.raises(SystemExit) as ei:
        cli.main(["--version"])
    assert ei.value.code == 0 and capsys.readouterr().out.strip() == f"frames {fr.__version__}"
    assert cli.main(["analyze", "knife-edg"]) == 2
    err = capsys.readouterr().err
    assert "did you mean 'knife-edge'?" in err and "Traceback" not in err
    assert cli.main(["analyze", "zzz"]) == 2
    assert "did you mean" not in capsys.readouterr().err


def test_simulate_hints_are_options_that_exist(capsys, tmp_path):
    """Every hint names an option of `frames simulate`: --subs for free functions, --project for u0 off D."""
    assert cli.main(["simulate", "abelian-chaplygin", "--t-end", "0.5"]) == 2
    err = capsys.readouterr().err
    assert "give --subs Delta3=EXPR" in err
    # u3 has no value (Δ3 unknown when the model was made): the two routes are named, as integrate's v0= is
    assert cli.main(["simulate", "abelian-chaplygin", "--t-end", "0.5", "--subs", "Delta3=q1**2"]) == 2
    err = capsys.readouterr().err
    assert (
        "no value for the initial velocities ['u3']" in err
        and "--ic u3=VALUE" in err
        and "--v0 v1=VALUE v2=VALUE" in err
    )
    sub = ["simulate", "abelian-chaplygin", "--t-end", "0.5", "--subs", "Delta3=q1**2"]
    assert cli.main([*sub, "--ic", "u3=0"]) == 2  # off D
    err = capsys.readouterr().err
    assert "give --project kinetic, euclidean or frame" in err and "project='kinetic'" not in err
    assert cli.main([*sub, "--ic", "u3=0", "--project", "kinetic", "--points", "20"]) == 0
    assert "integrated to t = 0.5" in capsys.readouterr().out
    assert cli.main([*sub, "--v0", "v1=1", "v2=0.5", "--points", "20"]) == 0  # in D by construction
    assert "integrated to t = 0.5" in capsys.readouterr().out
    assert cli.main([*sub, "--v0", "v1=1"]) == 2
    assert "missing ['v2']" in capsys.readouterr().err
    assert cli.main([*sub, "--v0", "v1=1", "v2=0", "--ic", "u1=2"]) == 2
    assert "not both" in capsys.readouterr().err
    sentinel = tmp_path / "pwned"
    bad = f"Delta3=__import__('os').system('touch {sentinel}')"
    assert cli.main(["simulate", "abelian-chaplygin", "--t-end", "0.5", "--subs", bad]) == 2
    assert "dunder" in capsys.readouterr().err and not sentinel.exists()
    assert cli.main(["simulate", "abelian-chaplygin", "--t-end", "0.5", "--subs", "Nope=1"]) == 2
    assert "not a free function of abelian-chaplygin" in capsys.readouterr().err


def test_report_displays_in_jupyter_as_latex_and_markdown():
    rep = analyze(models.chaplygin_sleigh(), only=["nonholonomic", "invariant_measure"])
    tex = rep._repr_latex_()
    assert tex.startswith("$\\begin{aligned}") and tex.endswith("\\end{aligned}$")
    body = tex.replace(r"\{", "").replace(r"\}", "")
    assert body.count("{") == body.count("}")
    assert r"\dot{v}_{2} &= a v_{1}^{2}" in tex  # dot notation, the sleigh's v̇2 = a v1²
    assert r"\text{invariant measure N(q) exists: no}" in tex
    assert r"w\_i" in tex  # TeX specials in text rows are escaped
    assert rep._repr_markdown_() == rep.to_markdown()


def test_text_report_wraps_long_expressions_between_terms():
    rep = analyze(models.two_wheeled_carriage(), only=["nonholonomic"])
    text = rep.to_text()
    long_lines = [ln for ln in text.splitlines() if len(ln) > 100]
    assert not long_lines, long_lines[:1]
    lam = text[text.index("λ_3 = ") :].split("\nλ_4")[0]
    assert lam.count("\n") >= 3  # the multiplier spans several lines ...
    assert all(ln.startswith("      ") for ln in lam.splitlines()[1:])  # ... indented under its expression
    # joined back, it is the unwrapped sympy string (wrapping only at the spaces between terms)
    item = next(it for s in rep.sections for it in s.items if it.label == "λ_3")
    assert " ".join(x.strip() for x in lam.splitlines()) == item.plain()
    assert len(rep.to_text(width=60).splitlines()) > len(text.splitlines())


def _verdicts(report):
    return [(i.label, i.value) for s in report.sections for i in s.items if i.kind == "verdict"]


def _items(report):
    return {i.label: i for s in report.sections for i in s.items}


def test_large_expressions_are_not_printed_and_large_conditions_are_decided_at_points():
    """``max_ops``: with a limit of 200 operations the carriage's λ_a (222 and 502) are not printed, the strong
    consistency tests are decided at generic points, and every verdict and printed equation is the full report's."""
    mdl = models.two_wheeled_carriage()
    only = ["nonholonomic", "consistency"]
    full = analyze(mdl, only=only, max_ops=None)
    small = analyze(mdl, only=only, max_ops=200)
    assert _verdicts(small) == _verdicts(full)
    items, ref = _items(small), _items(full)
    assert items["λ_5"].kind == "text" and items["λ_5"].text.startswith("not printed: more than 200 operations")
    assert ref["λ_5"].kind == "equation"
    witness = [i for i in items.values() if "decided at a generic point" in i.text]
    assert witness and "cos(theta) = " in witness[0].text  # the point is given: the certificate can be checked
    for label, it in items.items():
        if it.kind == "equation":
            assert it.expr == ref[label].expr
    default = analyze(mdl, only=only)  # the default limit prints the whole catalogue report
    assert [(i.label, i.kind) for s in default.sections for i in s.items] == [
        (i.label, i.kind) for s in full.sections for i in s.items
    ]
    with pytest.raises(fr.errors.ArgumentError, match=r"^analyze: max_ops must be a positive integer or None"):
        analyze(mdl, only=only, max_ops=0)


def _check_linear_system_items(items, g, b):
    """The report's ``g_ij`` (i ≤ j, nonzero) and ``b_i`` items equal the library's linear system entry for entry."""
    for i in range(g.rows):
        assert fr.algebra.is_zero(items[f"b_{i + 1}"].expr - b[i])
        for j in range(i, g.rows):
            if g[i, j] != 0:
                assert fr.algebra.is_zero(items[f"g_{i + 1}{j + 1}"].expr - g[i, j])


def test_vakonomic_field_over_the_limit_is_reported_as_its_linear_system(monkeypatch):
    """Above ``EXPLICIT_FIELD_TERMS`` the report gives Proposition 3 as ``g Γ = b`` (the library's linear_system,
    entry for entry) and Proposition 4 in words, instead of the explicit field."""
    monkeypatch.setattr(rep_mod, "EXPLICIT_FIELD_TERMS", 1)
    mdl = models.knife_edge()
    items = _items(analyze(mdl, only=["vakonomic"]))
    vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, mdl.m)
    g, b = vk.linear_system()
    assert "not written out" in items["Γ^i"].text and "Γ^1" not in items
    _check_linear_system_items(items, g, b)
    assert "regular with respect to D and D^⊥" in items["Proposition 4"].text


def test_max_ops_option(capsys):
    code, out, _ = _run(capsys, ["analyze", "two-wheeled-carriage", "--only", "nonholonomic", "--max-ops", "200"])
    assert code == 0 and "λ_5: not printed: more than 200 operations" in out
    code, out, _ = _run(capsys, ["analyze", "knife-edge", "--only", "nonholonomic", "--max-ops", "inf"])
    assert code == 0 and "not printed" not in out
    for bad in ("0", "-3", "1e3", "many"):
        code, _, err = _run(capsys, ["analyze", "knife-edge", "--max-ops", bad])
        assert code == 2 and f"--max-ops {bad}: must be a positive integer" in err


@pytest.mark.parametrize("name", ["knife-edge", "two-wheeled-carriage"])
def test_nonholonomic_field_over_the_limit_keeps_every_verdict(name, monkeypatch):
    """Above ``EXPLICIT_FIELD_TERMS`` for the nonholonomic field too: Proposition 2 as ``g_αβ Γ^β = b_α`` (the
    library's ``NonholonomicSystem.linear_system``), the invariant measure decided at generic points without the
    field (never contradicting the full report: "undecided" at worst), and every consistency verdict the same as
    the full report's (decided at generic points from the data alone)."""
    mdl = models.get(name)
    only = ["nonholonomic", "invariant_measure", "consistency"]
    full = analyze(mdl, only=only)
    monkeypatch.setattr(rep_mod, "EXPLICIT_FIELD_TERMS", -1)  # even a zero field (bound 0) is over it
    small = analyze(mdl, only=only)
    measure = "invariant measure N(q) exists"
    assert [v for v in _verdicts(small) if v[0] != measure] == [v for v in _verdicts(full) if v[0] != measure]
    assert dict(_verdicts(small))[measure] in (None, dict(_verdicts(full))[measure])
    sec = {s.id: s for s in small.sections}
    assert sec["invariant_measure"].status == "ok"
    assert "generic points" in {i.label: i for i in sec["invariant_measure"].items}["method"].text
    items = {i.label: i for i in sec["nonholonomic"].items}
    g, b = mdl.nonholonomic().linear_system()
    assert "not written out" in items["Γ^α"].text and "Γ^1" not in items
    _check_linear_system_items(items, g, b)


def test_an_undecided_invariant_measure_is_reported_as_undecided(monkeypatch, budget_clock):
    """``exists=None`` is "undecided" in the report, not "no" (a random n = 4 system printed "no" with the reason
    "undecided: …")."""

    def slow(name):
        if name == "invariant_measure: divergence":
            budget_clock.advance(0.3)  # the budget is spent in this step, whatever the machine's speed

    res = fr.invariant_measure(models.nonholonomic_particle().nonholonomic(), budget=0.2, progress=slow)
    assert res.exists is None
    monkeypatch.setattr(rep_mod, "invariant_measure", lambda nh, **kw: res)
    rep = analyze(models.nonholonomic_particle(), only=["invariant_measure"])
    item = next(i for i in rep.sections[0].items if i.kind == "verdict")
    assert item.value is None and item.plain() == "invariant measure N(q) exists: undecided"


def test_console_script_writes_everything_and_keeps_the_status(tmp_path, capsys):
    """``frames`` (``console``) skips the interpreter's teardown after ``analyze``: the output must still be
    complete (flushed, here into a file) and the exit status main's."""
    import os
    import subprocess
    import sys

    assert cli.main(["analyze", "knife-edge", "--only", "lagrangian", "frobenius"]) == 0
    expected = capsys.readouterr().out
    run = [sys.executable, "-c", "from frames.app import console; console()"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # buffered, as by default
    out = tmp_path / "report.txt"
    with out.open("w") as fh:
        argv = [*run, "analyze", "knife-edge", "--only", "lagrangian", "frobenius"]
        rc = subprocess.run(argv, stdout=fh, env=env).returncode
    assert rc == 0 and out.read_text() == expected
    bad = subprocess.run([*run, "analyze", "no-such-model"], capture_output=True, text=True)
    assert bad.returncode == 2 and "unknown model 'no-such-model'" in bad.stderr
    models_run = subprocess.run([*run, "models"], capture_output=True, text=True)
    assert models_run.returncode == 0 and "knife-edge" in models_run.stdout


def test_simulate_subs_knows_the_time_and_a_file_without_a_frame_is_regular(capsys):
    """``--subs tau=t**2`` (the CLI's own hint) parses ``t``; the file gives no frame, and the default one is
    regular at φ = 0 (D's basis, then the constraint rows): ``J φ̈ = t²`` gives ``φ(1) = 0.5 + 5/12``."""
    path = str(ROOT / "examples" / "systems" / "driven_knife_edge.toml")
    assert cli.main(["simulate", path, "--t-end", "1", "--subs", "tau=t**2"]) == 0
    out = capsys.readouterr().out
    assert "phi = 0.916667" in out


def test_missing_initial_velocities_are_refused_alike_by_both_doors_and_v0_is_the_route(tmp_path, capsys):
    """A system file with a partial ``[initial.u]``: ``frames simulate`` and ``frames.integrate`` both refuse it,
    each naming the route of the independent quasi-velocities (``--v0``, ``v0=``), and both reach the same state
    by that route."""
    path = tmp_path / "partial.toml"
    path.write_text(
        'name = "partial-knife"\ncoordinates = ["phi", "x", "y"]\nparameters = { m = 1, J = 1 }\n'
        'lagrangian = "J*u_phi**2/2 + m*(u_x**2 + u_y**2)/2"\nconstraints = ["-sin(phi)*u_x + cos(phi)*u_y"]\n'
        "[initial.u]\nu_phi = 0.5\n",
        encoding="utf-8",
    )
    mdl = fr.load_model(path)
    assert cli.main(["simulate", str(path), "--t-end", "1"]) == 2
    assert "--v0 v1=VALUE v2=VALUE" in capsys.readouterr().err
    with pytest.raises(fr.errors.StateError, match=r"missing values for \['u_x', 'u_y'\].*v0="):
        fr.integrate(mdl, (0, 1), [0, 0, 0], mdl.u0)
    res = _cli.simulate(mdl, 1.0, v0={"v1": 0.5, "v2": 1.0}, points=20, chunks=1)
    tr = fr.integrate(mdl, (0, 1), [0, 0, 0], v0=[0.5, 1.0])
    assert np.allclose(res["q"][-1], tr.q[-1], atol=1e-8)
    assert np.allclose(tr.q[-1], [0.5, 2 * np.sin(0.5), 2 * (1 - np.cos(0.5))], atol=1e-8)  # rolls along φ = t/2
