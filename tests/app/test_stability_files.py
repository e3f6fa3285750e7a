"""Loads, inputs and operating points in system files; ``frames linearize``; the report's stability section (issue 44)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from _robot_trailer import frames_and_kane, robot_trailer_frames, robot_trailer_kane

import frames as fr
from frames.algebra import is_zero
from frames.app._cli import main
from frames.errors import SystemFileError

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "systems" / "robot_trailer.toml"


@pytest.fixture(scope="module")
def model():
    return fr.load_model(EXAMPLE)


def test_the_file_is_the_robot_with_a_trailer(model):
    nh = robot_trailer_frames()
    assert model.inputs == ("F", "tau") and len(model.loads) == 4
    mine, ref = model.nonholonomic().forces, nh.forces
    assert mine is not None and ref is not None
    assert [str(s) for s in model.chart.q] == [str(s) for s in nh.frame.chart.q]
    assert all(is_zero(a - b) for a, b in zip(mine, ref, strict=True))
    assert is_zero(model.lagrangian.expr - nh.lagrangian.expr)


def test_the_file_matches_kanes_method(model):
    """The file's natural q̈ equal KanesMethod's (drive force, yaw torque, drag on both axles), to 1e-12."""
    KM = robot_trailer_kane()
    ch = model.chart
    acc = model.nonholonomic().accelerations()
    rng = random.Random(7)
    for _ in range(3):
        vals = {p.name: rng.uniform(0.5, 2.0) for p in ch.params}
        vals |= {"x": 0.3, "y": -0.2, "theta": rng.uniform(-3, 3), "phi": rng.uniform(-1.4, 1.4)}
        fwd, w = rng.uniform(-2, 2), rng.uniform(-2, 2)
        mine, kane = frames_and_kane(acc, ch, KM, vals, fwd, w)
        assert np.max(np.abs(mine - kane)) <= 1e-12 * max(1.0, np.max(np.abs(kane)))


def test_loads_inputs_and_operating_point_round_trip(model):
    text = fr.dumps_model(model)
    assert "[[loads]]" in text and "[operating_point]" in text and 'inputs = ["F", "tau"]' in text
    back = fr.loads_model(text)
    assert back == model
    assert back.operating_point == model.operating_point and back.loads == model.loads


def _run(capsys, *argv):
    code = main(["linearize", str(EXAMPLE), *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_linearize_prints_eigenvalues_at_plus_and_minus_one(capsys):
    code, out, _ = _run(capsys, "--param", "V=1")
    assert code == 0
    assert "eigenvalues: -1, -0.666667" in out and "stability: asymptotically stable" in out
    assert "A =\n  [(-c - c_t)/(m + m_t), 0]\n  [0, -V/d]" in out
    assert "B (inputs F, tau) =" in out
    code, out, _ = _run(capsys, "--param", "V=-1")
    assert code == 0
    assert "eigenvalues: -0.666667, 1" in out and "stability: unstable" in out


def test_linearize_finds_the_critical_speed(capsys):
    code, out, _ = _run(capsys, "--sweep", "V=-2:2:81")
    assert code == 0
    assert "critical values of V in [-2, 2]: 0\n" in out
    assert "V in (-2, 0): unstable" in out and "V in (0, 2): asymptotically stable" in out


def test_linearize_json_and_overrides(capsys):
    code, out, _ = _run(capsys, "--sweep", "V=-2:2:41", "--format", "json", "--param", "d=2", "--inputs", "tau")
    assert code == 0
    res = json.loads(out)
    assert res["schema"] == "frames-linearize/1" and res["inputs"] == ["tau"]
    assert res["values"]["d"] == 2.0 and [round(z["re"], 9) for z in res["eigenvalues"]] == [-0.666666667, -0.5]
    assert abs(res["sweep"]["critical_values"][0]) < 1e-9
    code, out, _ = _run(capsys, "--at", "u_x=2*V", "F=2*(c + c_t)*V", "--param", "V=1")
    assert code == 0 and "eigenvalues: -2, -0.666667" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--sweep", "V=1:0:3"], "--sweep 'V=1:0:3': START < STOP"),
        (["--sweep", "V"], "expected NAME=START:STOP:COUNT"),
        (["--sweep", "W=0:1:3"], "--sweep W: not a parameter"),
        (["--plot", "x.png"], "--plot: needs --sweep"),
        (["--at", "psi=0"], "--at psi: not a coordinate"),
        (["--at", "u_x=__import__('os')"], "dunder"),
        (["--inputs", "m"], "inputs: 'm' is not a parameter of the system's forces"),
        (["--at", "u_y=1"], "velocities are not in D"),
        (["--param", "W=1"], "--param W: not a parameter"),
    ],
)
def test_linearize_bad_input_exits_2(capsys, argv, words):
    code, out, err = _run(capsys, *argv)
    assert code == 2 and words in err and out == ""


def test_linearize_plot_writes_the_locus(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    png = tmp_path / "locus.png"
    code, _, _ = _run(capsys, "--sweep", "V=-1:1:21", "--plot", str(png))
    assert code == 0 and png.stat().st_size > 1000


def test_analyze_has_a_stability_section(model):
    rep = fr.analyze(model, only=["stability"], jobs=1)
    (sec,) = rep.sections
    assert sec.status == "ok"
    text = rep.format("text")
    assert "asymptotically stable: yes" in text and "A = Matrix" in text
    other = fr.analyze(fr.models.knife_edge(), only=["stability"], jobs=1)
    assert other.sections[0].status == "skipped" and "operating point" in other.sections[0].note


BASE = EXAMPLE.read_text()


def _edit(old: str, new: str) -> str:
    assert old in BASE
    return BASE.replace(old, new, 1)


BAD_FILES = [
    ("kind", _edit('kind = "torque"', 'kind = "torq"'), "loads[1].kind", "did you mean 'torque'"),
    ("missing-force", _edit('force = ["-c*u_x", "-c*u_y", 0]', ""), "loads[2]", "needs force and one of"),
    (
        "both-places",
        _edit('point = ["x", "y", 0]\nforce = ["-c', 'point = ["x", "y", 0]\nvelocity = [0]\nforce = ["-c'),
        "loads[2]",
        "needs force and one of",
    ),
    ("length-4", _edit('torque = [0, 0, "tau"]', 'torque = [0, 0, 0, "tau"]'), "loads[1].torque", "1 to 3 expressions"),
    ("length-mismatch", _edit('torque = [0, 0, "tau"]', 'torque = [0, "tau"]'), "loads[1].torque", "has 2 components"),
    (
        "unknown-entry",
        _edit('torque = [0, 0, "tau"]', 'torque = [0, 0, "tau"]\ntorqe = 1'),
        "loads[1].torqe",
        "did you mean 'torque'",
    ),
    ("bad-symbol", _edit('torque = [0, 0, "tau"]', 'torque = [0, 0, "tau*psy"]'), "loads[1].torque[2]", "psy"),
    ("position-on-TQ", _edit('point = ["x", "y", 0]', 'point = ["u_x", "y", 0]'), "loads[0]", "fibre"),
    ("input-not-parameter", _edit('inputs = ["F", "tau"]', 'inputs = ["F", "tua"]'), "inputs[1]", "did you mean 'tau'"),
    ("input-not-in-forces", _edit('inputs = ["F", "tau"]', 'inputs = ["F", "m"]'), "inputs", "does not enter"),
    ("op-off-C", _edit("u_y = 0\n", "u_y = 1\n"), "operating_point", "not in D"),
    ("op-unknown", _edit("phi = 0\n", "psi = 0\n"), "operating_point.psi", "did you mean 'phi'"),
    ("op-coordinate-value", _edit('u_x = "V"', 'u_x = "theta"'), "operating_point.u_x", "theta"),
]


@pytest.mark.parametrize(("rid", "text", "key", "words"), BAD_FILES, ids=[r[0] for r in BAD_FILES])
def test_bad_loads_inputs_and_operating_points(rid, text, key, words):
    with pytest.raises(SystemFileError) as info:
        fr.loads_model(text, "robot.toml")
    err = info.value
    assert err.key == key, (rid, str(err))
    assert words in str(err), (rid, str(err))
    assert err.line is not None, (rid, str(err))


def test_to_mechanics_keeps_the_loads(model):
    """The loads reach SymPy's methods too: Lagrange's forcelist holds the one-form of the file's loads."""
    LM = model.to_mechanics("lagrange")
    assert len(LM.forcelist) == 4  # F_x, F_y, F_theta, F_phi are all nonzero
    KM = model.to_mechanics("kane")
    loads = [vec for _, vec in KM.forcelist]
    assert any(sp.sympify(v.to_matrix(v.args[0][1])).has(sp.Symbol("tau")) for v in loads if v != 0)
