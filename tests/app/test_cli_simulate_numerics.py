"""``frames simulate`` and the numerics door (issue 44): one budget for the run, the output files checked before
any work, names given twice and ``--subs`` outside the law's arguments refused."""

from __future__ import annotations

from pathlib import Path

import pytest

import frames as fr
from frames.app import _cli as cli

ROOT = Path(__file__).resolve().parents[2]
DRIVEN = str(ROOT / "examples" / "systems" / "driven_knife_edge.toml")


def test_plot_without_a_suffix_writes_a_png(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "noext"
    assert cli.main(["simulate", "knife-edge", "--t-end", "1", "--points", "20", "--plot", str(out)]) == 0
    assert (tmp_path / "noext.png").is_file() and not out.exists()


@pytest.mark.parametrize(
    ("argv", "pattern"),
    [
        (["--plot", "x.txt"], r"'txt' is not an image format"),
        (["--csv", "same.png", "--plot", "same.png"], r"the same file"),
        (["--v0", "v1=1", "--v0", "v1=2"], r"--v0 'v1=2': v1 given twice"),
        (["--param", "m=1", "m=2"], r"--param 'm=2': m given twice"),
    ],
)
def test_bad_simulate_options_are_refused_before_any_work(tmp_path, monkeypatch, capsys, argv, pattern):
    import re

    monkeypatch.chdir(tmp_path)
    ran = []
    monkeypatch.setattr(cli, "integrate", lambda *a, **k: ran.append(1))
    assert cli.main(["simulate", "knife-edge", "--t-end", "1", *argv]) == 2
    assert re.search(pattern, capsys.readouterr().err) and not ran
    assert list(tmp_path.iterdir()) == []


def test_subs_given_twice_or_outside_the_arguments_is_refused(capsys):
    assert cli.main(["simulate", DRIVEN, "--t-end", "1", "--subs", "tau=t", "--subs", "tau=t**2"]) == 2
    assert "tau given twice" in capsys.readouterr().err
    assert cli.main(["simulate", DRIVEN, "--t-end", "1", "--subs", "tau=x"]) == 2
    assert "['x'] are not among them" in capsys.readouterr().err


def test_simulate_is_one_run_under_one_budget():
    mdl = fr.models.knife_edge()
    res = cli.simulate(mdl, 2.0, points=40)
    tr = res["trajectory"]
    assert len(tr.t) == 41 and tr.t[-1] == 2.0
    assert tr.info["steps"] < 400  # one solver run, not 20 restarted pieces


OFF_D = (
    'name = "off-d-knife"\ncoordinates = ["phi", "x", "y"]\nparameters = { m = 1, J = 1 }\n'
    'lagrangian = "J*u_phi**2/2 + m*(u_x**2 + u_y**2)/2"\nconstraints = ["-sin(phi)*u_x + cos(phi)*u_y"]\n'
    "[initial.u]\nu_phi = 0.5\nu_x = 1.0\nu_y = 0.3\n"
)


def test_project_and_v0_apply_before_the_files_initial_u_is_checked(tmp_path, capsys):
    """docs/cli.md: ``--project kinetic`` rescues a file whose ``[initial.u]`` leaves D; ``--v0`` replaces it."""
    path = tmp_path / "off_d.toml"
    path.write_text(OFF_D, encoding="utf-8")
    assert cli.main(["simulate", str(path), "--t-end", "1", "--points", "10"]) == 2
    assert "violates constraint 1" in capsys.readouterr().err
    assert cli.main(["simulate", str(path), "--t-end", "1", "--points", "10", "--project", "kinetic"]) == 0
    assert "integrated to t = 1" in capsys.readouterr().out
    assert cli.main(["simulate", str(path), "--t-end", "1", "--points", "10", "--v0", "v1=0.5", "v2=1"]) == 0
    with pytest.raises(fr.errors.SystemFileError, match="violates constraint 1"):
        fr.load_model(path)
    assert fr.load_model(path, check_u0=False).u0  # read, unchecked
