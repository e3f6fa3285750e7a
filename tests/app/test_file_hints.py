"""System-file and CLI bad-input points of issue 44: "did you mean", unit labels, NFKC clashes, the parser's
declared functions, and the modes of the CLI's output files."""

from __future__ import annotations

import os
import stat

import pytest
import sympy as sp

import frames as fr
from frames.app._cli import main
from frames.errors import ParameterError, SystemFileError

BASE = """name = "particle"
coordinates = ["x", "y", "psi"]
velocities = ["u_x", "u_y", "u_psi"]
lagrangian = "(u_x**2 + u_y**2 + u_psi**2)/2"
constraints = ["u_y - x*u_psi"]
"""


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        (
            BASE.replace("lagrangian =", "lagrangain =") + 'lagrangian = "u_x"\n',
            "lagrangain",
            "did you mean 'lagrangian'",
        ),
        (BASE + '\n[force]\nx = "1"\n', "force", "did you mean 'forces'"),
        (BASE.replace("(u_x**2", "sinn(x)*(u_x**2"), "lagrangian", "did you mean 'sin' or 'sinh'"),
        (BASE.replace("(u_x**2", "psy*(u_x**2"), "lagrangian", "did you mean 'psi'"),
        (BASE + '\n[forces]\nx = "1"\n"ｘ" = "2"\n', "forces.ｘ", "same coordinate after NFKC normalisation"),
        (BASE + '\n[forces]\npsy = "1"\n', "forces.psy", "did you mean 'psi'"),
        (BASE + '\n[units]\nx = "$x^$"\n', "units.x", "not a unit label"),
        (BASE + '\n[units]\nx = "m"\nt = "s"\nu_x = "km/h"\n', "units", "expected m/s"),
        (BASE + '\n[parameters]\nk = { unit = "kg**2" }\n', "parameters.k.unit", "not a unit label"),
    ],
)
def test_file_errors_say_what_was_meant(text, key, words):
    with pytest.raises(SystemFileError) as info:
        fr.loads_model(text, "p.toml")
    assert info.value.key == key, str(info.value)
    assert words in str(info.value)
    assert info.value.line is not None


def test_consistent_units_are_accepted_and_written_back():
    text = BASE + '\n[units]\nx = "km"\nt = "h"\nu_x = "km/h"\nu_psi = "rad/s"\n'
    mdl = fr.loads_model(text)
    assert mdl.units["u_x"] == "km/h"
    assert fr.loads_model(fr.dumps_model(mdl)) == mdl


def test_model_runs_the_same_label_checks():
    m = fr.models.knife_edge()
    with pytest.raises(ParameterError, match=r"units: x: '\$x\^\$': not a unit label"):
        fr.models.Model(m.name, m.chart, m.lagrangian, m.frame, m.m, m.constraints, m.params, units={"x": "$x^$"})
    with pytest.raises(ParameterError, match="expected m/s"):
        fr.models.Model(
            m.name, m.chart, m.lagrangian, m.frame, m.m, m.constraints, m.params,
            units={"x": "m", "t": "s", "u_x": "km/h"},
        )  # fmt: skip


@pytest.mark.parametrize("spec", [("a", "b"), (print, 1), (sp.Function("f"), "2"), True, 0, "f"])
def test_parse_expression_refuses_malformed_functions(spec):
    with pytest.raises(SystemFileError, match=r"functions\['f'\]"):
        fr.parse_expression("f(x)", {"x": sp.Symbol("x")}, {"f": spec})


def test_parse_expression_accepts_declared_functions():
    x = sp.Symbol("x")
    assert fr.parse_expression("f(x)", {"x": x}, {"f": 1}) == sp.Function("f")(x)
    assert fr.parse_expression("g(x)", {"x": x}, {"g": (sp.Function("g"), 1)}) == sp.Function("g")(x)


@pytest.fixture
def umask():
    old = os.umask(0o022)
    os.umask(old)

    def set_(mask: int) -> None:
        os.umask(mask)

    yield set_
    os.umask(old)


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_output_files_keep_the_users_umask(tmp_path, umask, capsys, mask, mode):
    umask(mask)
    out = tmp_path / "k.toml"
    assert main(["export", "knife-edge", "-o", str(out)]) == 0
    assert stat.S_IMODE(out.stat().st_mode) == mode


def test_force_keeps_the_mode_of_the_replaced_file(tmp_path, umask, capsys):
    umask(0o022)
    out = tmp_path / "k.toml"
    out.write_text("old")
    out.chmod(0o640)
    assert main(["export", "knife-edge", "-o", str(out), "--force"]) == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o640 and out.read_text() != "old"
