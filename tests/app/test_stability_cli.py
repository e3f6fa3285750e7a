"""``frames linearize --certify / --region``, the verdict's structural zeros and the report's certified values
(issue 45, part 5), through ``main(argv)`` on the robot with a trailer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import frames as fr
from frames.app._cli import main
from frames.app._stability import speed_parameter, stability_report

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "systems" / "robot_trailer.toml"


@pytest.fixture(scope="module")
def sleigh_file(tmp_path_factory):
    """The Chaplygin sleigh sliding straight at speed V: a system file with an operating point."""
    text = fr.dumps_model(fr.models.chaplygin_sleigh())
    path = tmp_path_factory.mktemp("sleigh") / "sleigh.toml"
    path.write_text(
        text.replace(
            "[parameters]",
            '[operating_point]\ntheta = 0\nx = 0\ny = 0\nu_theta = 0\nu_x = "V"\nu_y = 0\n\n'
            '[parameters]\nV = { unit = "m/s", value = 1.0 }',
        )
    )
    return path


def _run(capsys, *argv, path=EXAMPLE):
    code = main(["linearize", str(path), *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_certify_prints_the_certified_critical_speed(capsys):
    code, out, err = _run(capsys, "--sweep", "V=-2:2:41", "--certify", "30")
    assert code == 0, err
    assert "critical values of V in [-2, 2]: 0\n" in out  # the float ones are kept
    assert "certified critical values of V in [-2, 2] (30 digits):\n" in out
    assert "  V = 0 (real crossing: unstable -> asymptotically stable)" in out.replace("V = 0.0 ", "V = 0 ")


def test_certify_json(capsys):
    code, out, _ = _run(capsys, "--sweep", "V=-2:2:41", "--certify", "12", "--format", "json")
    assert code == 0
    cert = json.loads(out)["sweep"]["certified"]
    assert cert["digits"] == 12
    (cv,) = cert["critical_values"]
    assert float(cv["value"]) == 0 and cv["kind"] == "real"
    assert (cv["before"], cv["after"]) == ("unstable", "asymptotically stable") and cv["polynomial"] == "V"


def test_certify_a_parameter_the_class_does_not_depend_on(capsys):
    code, out, _ = _run(capsys, "--sweep", "c=0:2:5", "--certify", "10")
    assert code == 0 and "certified critical values of c in [0, 2] (10 digits): none" in out


def test_region_prints_the_exact_curves_and_the_cells(capsys):
    code, out, err = _run(capsys, "--region", "V=-2:2", "c=0:2", "--grid", "41")
    assert code == 0, err
    assert "stability map over V in [-2, 2], c in [0, 2]: boundary curves" in out
    assert "  real: V*(c/3 + 1/3) = 0" in out  # exact: the file's 1.0 taken as 1
    cells = out.split("cells (")[1]
    assert "asymptotically stable" in cells and "unstable" in cells


def test_region_json_and_plot(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "map.png"
    code, out, _ = _run(capsys, "--region", "V=-2:2", "c=0:2", "--grid", "21", "--plot", str(png), "--format", "json")
    assert code == 0
    reg = json.loads(out)["region"]
    assert reg["parameters"] == ["V", "c"] and reg["box"] == [[-2.0, 2.0], [0.0, 2.0]]
    assert [c["kind"] for c in reg["curves"]][:2] == ["real", "complex"]
    big = reg["cells"][0]
    assert big["stability"] == "asymptotically stable" and big["sample"][0] > 0 and 0.4 < big["area"] < 0.6
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_verdict_names_the_structural_zeros(capsys):
    """The sleigh conserves its forward speed: the verdict says so, and that the rest is asymptotically stable."""
    code, out, err = _run(capsys, "--at", "theta=0", "x=0", "y=0", "v1=0", "v2=1", path="chaplygin-sleigh")
    assert code == 0, err
    line = next(x for x in out.splitlines() if x.startswith("stability: "))
    assert (
        line == "stability: marginal; 1 structural zero eigenvalue(s) (v2 conserved); the rest: asymptotically stable"
    )


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--sweep", "V=-1:1:5", "--certify", "0"], "--certify 0: must be an integer between 1 and 1000"),
        (["--sweep", "V=-1:1:5", "--certify", "1001"], "--certify 1001: must be an integer between 1 and 1000"),
        (["--sweep", "V=-1:1:5", "--certify", "ten"], "--certify ten: must be an integer"),
        (["--certify", "10"], "--certify: needs --sweep"),
        (["--sweep", "d=0.5:2:5", "--certify", "10"], "A is not polynomial in d (it enters a denominator"),
        (["--region", "V=0:1"], "--region: expected two parameters"),
        (["--region", "V=0:1", "c=0:1", "d=0:1"], "--region: expected two parameters"),
        (["--region", "V=0:1", "V=0:2"], "the two parameters must differ"),
        (["--region", "V=1:0", "c=0:1"], "--region 'V=1:0': LO < HI"),
        (["--region", "V=0:1:2", "c=0:1"], "expected NAME=LO:HI"),
        (["--region", "V=a:1", "c=0:1"], "LO and HI must be numbers"),
        (["--region", "V=0:inf", "c=0:1"], "LO < HI, both finite"),
        (["--region", "W=0:1", "c=0:1"], "--region W: not a parameter"),
        (["--region", "V=0:1", "c=0:1", "--grid", "2"], "--grid 2: must be an integer between 3 and 2001"),
        (["--grid", "11"], "--grid: needs --region"),
        (["--sweep", "V=0:1:3", "--region", "V=0:1", "c=0:1", "--plot", "x.png"], "draws either"),
    ],
)
def test_bad_input_exits_2(capsys, argv, words):
    code, out, err = _run(capsys, *argv)
    assert code == 2 and words in err and out == "", err


@pytest.mark.parametrize(
    "argv",
    [
        ["--sweep", "d=0.5:2:5", "--certify", "10"],  # refused by certification, after the plot's target is checked
        ["--region", "V=0:1", "W=0:1"],
    ],
)
def test_a_refused_run_writes_no_plot(capsys, tmp_path, argv):
    png = tmp_path / "out.png"
    code, out, _ = _run(capsys, *argv, "--plot", str(png))
    assert code == 2 and out == ""
    assert list(tmp_path.iterdir()) == []  # neither the file nor a temporary one


def test_the_report_has_the_certified_critical_speed():
    model = fr.load_model(EXAMPLE)
    assert speed_parameter(model) == "V"
    rows = {label: x for kind, label, x in stability_report(model) if kind == "text"}
    label = next(k for k in rows if k.startswith("certified critical values of V in [-10, 10]"))
    assert "V = 0" in rows[label] and "unstable -> asymptotically stable" in rows[label]


def test_the_report_names_the_structural_zeros(sleigh_file):
    model = fr.load_model(sleigh_file)
    rows = {label: x for kind, label, x in stability_report(model) if kind == "text"}
    assert "(v2 conserved); the rest: " in rows["structural zeros"]
    assert any(k.startswith("certified critical values of V") for k in rows), rows


def test_analyze_prints_the_certified_critical_speed(capsys):
    code = main(["analyze", str(EXAMPLE), "--only", "stability", "--jobs", "1"])
    out, _ = capsys.readouterr()
    assert code == 0
    assert "certified critical values of V in [-10, 10]: V = 0.0 (real crossing: unstable -> asymptotically" in out


def test_the_reports_certification_is_bounded_in_time(monkeypatch):
    import frames.app._stability as stab

    monkeypatch.setattr(stab, "REPORT_CERTIFY_SECONDS", 1e-9)
    rows = {label: x for kind, label, x in stability_report(fr.load_model(EXAMPLE)) if kind == "text"}
    assert rows["certified critical values of V in [-10, 10]"] == "skipped: not found within 1e-09 s"


def test_the_report_notes_a_refused_certification(tmp_path):
    """A speed given as 1/W puts W in a denominator of A: certification refuses it, the report says why."""
    text = fr.dumps_model(fr.models.chaplygin_sleigh())
    point = '[operating_point]\ntheta = 0\nx = 0\ny = 0\nu_theta = 0\nu_x = "1/W"\nu_y = 0\n\n'
    path = tmp_path / "sleigh.toml"
    path.write_text(text.replace("[parameters]", point + "[parameters]\nW = { value = 1.0 }", 1))
    rows = {label: x for kind, label, x in stability_report(fr.load_model(path)) if kind == "text"}
    note = rows["certified critical values of W in [-10, 10]"]
    assert note.startswith("skipped: ") and "not polynomial in W" in note
