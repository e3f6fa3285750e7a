"""The ``frames`` command never shows a traceback, never leaves a partial file, never destroys one.

Exit codes: 2 for bad input (including output paths that cannot be written), 130 for Ctrl-C,
1 for an internal error. Outputs are written to a temporary file beside the target and renamed
when every output of the run is ready; an existing file is replaced only with ``--force``.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from frames import app as cli
from frames.app import _cli

SIM = ["simulate", "knife-edge", "--t-end", "0.5", "--points", "20"]


def _run(capsys, argv):
    code = cli.main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "Traceback" not in out
    return code, out, err


def _files(d):
    return sorted(p.name for p in d.iterdir())


def test_output_in_missing_directory(tmp_path, capsys):
    code, _, err = _run(capsys, ["export", "knife-edge", "-o", str(tmp_path / "nope" / "k.toml")])
    assert code == 2 and "does not exist" in err
    code, _, err = _run(capsys, [*SIM, "--csv", str(tmp_path / "nope" / "x.csv")])
    assert code == 2 and "--csv" in err and "does not exist" in err


def test_output_onto_a_directory(tmp_path, capsys):
    code, _, err = _run(capsys, ["export", "knife-edge", "-o", str(tmp_path)])
    assert code == 2 and "is a directory" in err


def test_existing_file_needs_force_and_read_only_is_refused(tmp_path, capsys):
    target = tmp_path / "k.toml"
    target.write_text("original")
    code, _, err = _run(capsys, ["export", "knife-edge", "-o", str(target)])
    assert code == 2 and "--force" in err and target.read_text() == "original"
    code, _, err = _run(capsys, ["export", "knife-edge", "-o", str(target), "--force"])
    assert code == 0, err
    assert target.read_text().startswith("#") or "lagrangian" in target.read_text()
    if os.geteuid() != 0:  # root may write read-only files; os.access then says writable
        target.chmod(0o444)
        code, _, err = _run(capsys, ["export", "knife-edge", "-o", str(target), "--force"])
        assert code == 2 and "read-only" in err
    assert _files(tmp_path) == ["k.toml"]


@pytest.mark.parametrize("points", ["0", "-5", "1", "1000000000"])
def test_points_out_of_range(points, tmp_path, capsys):
    code, _, err = _run(capsys, ["simulate", "knife-edge", "--t-end", "1", "--points", points])
    assert code == 2 and "--points" in err


@pytest.mark.parametrize("t_end", ["0", "-1", "nan", "inf"])
def test_t_end_out_of_range(t_end, capsys):
    code, _, err = _run(capsys, ["simulate", "knife-edge", "--t-end", t_end])
    assert code == 2 and "--t-end" in err


def test_bad_plot_path_leaves_no_csv(tmp_path, capsys):
    csv = tmp_path / "out.csv"
    code, _, err = _run(capsys, [*SIM, "--csv", str(csv), "--plot", "/nonexistent-dir/x.png"])
    assert code == 2 and "--plot" in err
    assert _files(tmp_path) == []


def test_failure_after_the_first_output_leaves_nothing(tmp_path, capsys, monkeypatch):
    """The CSV is written, then the plot fails: neither appears (all or none)."""

    def boom(*_a, **_k):
        raise OSError(28, "No space left on device", "x.png")

    monkeypatch.setattr(_cli, "_plot", boom)
    code, _, err = _run(capsys, [*SIM, "--csv", str(tmp_path / "o.csv"), "--plot", str(tmp_path / "o.png")])
    assert code == 2 and "No space left" in err
    assert _files(tmp_path) == []


def test_export_failing_mid_write_keeps_the_original(tmp_path, capsys, monkeypatch):
    target = tmp_path / "k.toml"
    target.write_text("original")

    def half(path, text):
        path.write_text(text[: len(text) // 2])
        raise OSError(5, "Input/output error", str(path))

    monkeypatch.setattr(_cli, "_write_text", half)
    code, _, err = _run(capsys, ["export", "knife-edge", "-o", str(target), "--force"])
    assert code == 2 and "Input/output error" in err
    assert target.read_text() == "original" and _files(tmp_path) == ["k.toml"]


def test_ctrl_c_exits_130_and_cleans_up(tmp_path, capsys, monkeypatch):
    def interrupted(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(_cli, "simulate", interrupted)
    code, _, err = _run(capsys, [*SIM, "--csv", str(tmp_path / "o.csv")])
    assert code == 130 and "interrupted" in err
    assert _files(tmp_path) == []


def test_internal_error_is_one_line(capsys, monkeypatch):
    def bug(*_a, **_k):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(_cli, "analyze", bug)
    code, _, err = _run(capsys, ["analyze", "knife-edge"])
    assert code == 1 and "internal error: ZeroDivisionError" in err and len(err.strip().splitlines()) == 1


def test_console_script_shows_no_traceback(tmp_path):
    """The real process: a bad file and a bad option end with exit 2 and one message."""
    bad = tmp_path / "bad.toml"
    bad.write_text("[system\nname = ")
    for argv in (["analyze", str(bad)], ["simulate", "knife-edge", "--t-end", "1", "--points", "0"]):
        proc = subprocess.run(
            [sys.executable, "-c", "import sys; from frames.app import main; sys.exit(main(sys.argv[1:]))", *argv],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 2, proc.stderr
        assert "Traceback" not in proc.stderr and proc.stderr.startswith("frames: error:")
