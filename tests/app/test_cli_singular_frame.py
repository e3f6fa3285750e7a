"""`frames simulate` on a system file whose explicit `frame` degenerates along the motion: exit status 4 with a
message naming the model, the state and the frame (not "stiff", not after the budget); with a regular frame the
same motion runs to the end (see tests/numeric/test_singular_frame.py for the integrators)."""

from __future__ import annotations

from pathlib import Path

import pytest

from frames import app as cli

# A car towing a trailer (hitch angle theta1 − theta). In the singular frame the first field of D is cos(hitch)
# times the car's forward motion: det F = −cos(theta1 − theta), zero where the hitch passes ±90° (t ≈ 1.52).
SYSTEM = """
name = "car-trailer-{which}"
coordinates = ["x", "y", "theta", "theta1"]
lagrangian = '''
  m/2*(u_x**2 + u_y**2) + J/2*u_theta**2
  + m_t/2*((u_x + d*sin(theta1)*u_theta1)**2 + (u_y - d*cos(theta1)*u_theta1)**2) + J_t/2*u_theta1**2
'''
constraints = [
  "-sin(theta)*u_x + cos(theta)*u_y",
  "-sin(theta1)*u_x + cos(theta1)*u_y - d*u_theta1",
]
frame = [
  ["cos(theta)*{c}", "sin(theta)*{c}", "0", "sin(theta - theta1)*{c}/d"],
  ["0", "0", "1", "0"],
  ["-sin(theta)", "cos(theta)", "0", "0"],
  ["0", "0", "0", "1"],
]
[parameters]
m = 1.0
J = 0.5
d = 1.0
m_t = 1.0
J_t = 0.2
[initial.q]
x = 0.0
y = 0.0
theta = 0.0
theta1 = 0.3
[initial.u]
u_x = 1.0
u_y = 0.0
u_theta = 2.0
u_theta1 = -0.29552020666133955
"""


def _file(tmp_path: Path, which: str) -> str:
    c = "cos(theta1 - theta)" if which == "singular" else "1"
    path = tmp_path / f"{which}.toml"
    path.write_text(SYSTEM.format(which=which, c=c))
    return str(path)


@pytest.mark.parametrize("method", ["RK45", "Radau"])
def test_simulate_stops_with_status_4_where_the_frame_degenerates(tmp_path, capsys, method):
    code = cli.main(["simulate", _file(tmp_path, "singular"), "--t-end", "3", "--method", method])
    _, err = capsys.readouterr()
    assert code == 4
    assert err.startswith("frames: error: simulate car-trailer-singular: ")
    assert "the adapted frame degenerates at t = 1.5" in err and "(x, y, theta, theta1) = [" in err
    assert "X1 = (cos(theta)*cos(theta - theta1)" in err  # the frame, by its fields
    assert "system file's `frame` (or `complement`)" in err
    assert "give --method" not in err and "Traceback" not in err
    assert err.count("\n") == 1  # one line


def test_simulate_runs_the_same_motion_to_the_end_in_a_regular_frame(tmp_path, capsys):
    code = cli.main(["simulate", _file(tmp_path, "regular"), "--t-end", "3"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "integrated to t = 3" in out
