"""One panel list for both doors: :meth:`Trajectory.plot` and ``frames simulate --plot`` draw the same panels,
titled with the system's name and method, with the units of the system file and an x–y path panel."""

from pathlib import Path

import numpy as np
import pytest

import frames as fr
from frames.app import _cli
from frames.numeric import _trajectory

pytest.importorskip("matplotlib")

KNIFE = """
name = "damped-knife"
coordinates = ["phi", "x", "y"]
lagrangian = "J*u_phi**2/2 + m*(u_x**2 + u_y**2)/2"
constraints = ["u_y*cos(phi) - u_x*sin(phi)"]

[forces]
phi = "-c*u_phi"

[units]
phi = "rad"
x = "m"
y = "m"
u_phi = "1/s"
t = "s"

[parameters]
m = { value = 1.0, unit = "kg" }
J = { value = 0.2, unit = "kg m^2" }
c = { value = 0.1, unit = "N m s" }

[initial.q]
phi = 0.0
x = 0.0
y = 0.0

[initial.u]
u_phi = 0.5
u_x = 1.0
u_y = 0.0
"""


def _shape(panels):
    """What a panel list shows, without the data: key, axis labels, curve labels, a path panel or not."""
    return [(p.key, p.ylabel, p.xlabel, tuple(c[0] for c in p.curves), p.x is not None, p.log) for p in panels]


@pytest.fixture
def knife_file(tmp_path):
    path = tmp_path / "knife.toml"
    path.write_text(KNIFE, encoding="utf-8")
    return path


def _captured(monkeypatch):
    seen = []
    real = _trajectory.plot_panels

    def spy(t, panels, path, title, what="plot"):
        seen.append((np.asarray(t), list(panels), title))
        return real(t, panels, path, title, what)

    monkeypatch.setattr(_trajectory, "plot_panels", spy)
    return seen


def test_the_library_and_the_cli_draw_the_same_panels_with_units_name_and_path(knife_file, tmp_path, monkeypatch):
    seen = _captured(monkeypatch)
    mdl = fr.load_model(knife_file)
    tr = fr.integrate(mdl, (0, 4), mdl.q0, mdl.u0, t_eval=np.linspace(0, 4, 41))
    lib_png = tr.plot(tmp_path / "lib.png")
    cli_png = tmp_path / "cli.png"
    assert _cli.main(["simulate", str(knife_file), "--t-end", "4", "--plot", str(cli_png), "--no-progress"]) == 0
    assert Path(lib_png).stat().st_size > 1000 and cli_png.stat().st_size > 1000
    (t_lib, lib, title_lib), (t_cli, cli, title_cli) = seen
    assert title_lib == title_cli == "damped-knife: reduced form, RK45"
    assert _shape(lib) == _shape(cli)
    assert _shape(lib) == [
        ("xy", "y [m]", "x [m]", ("path",), True, False),
        ("q", "q", "t [s]", ("phi [rad]", "x [m]", "y [m]"), False, False),
        ("u", "u", "t [s]", ("u_phi [1/s]", "u_x [m/s]", "u_y [m/s]"), False, False),
        ("energy", "E − E(0)", "t [s]", ("E − E(0)",), False, False),
        ("multipliers", "λ", "t [s]", ("lambda3",), False, False),
        ("residual", "dist(u, D)\n(1e-20 = exact 0)", "t [s]", ("dist(u, D)\n(1e-20 = exact 0)",), False, True),
    ]
    # the same motion: the CLI's chunks join into the library's trajectory (to the tolerance)
    x_lib, y_lib = lib[0].x, lib[0].curves[0][1]
    x_cli = np.interp(t_lib, t_cli, cli[0].x)
    assert np.max(np.abs(x_cli - x_lib)) < 1e-6 and y_lib[-1] > 0.5


def test_a_model_without_units_or_a_plane_gets_plain_labels_and_no_path_panel():
    mdl = fr.models.chaplygin_sleigh()
    tr = fr.integrate(mdl.nonholonomic(), (0, 1), mdl.q0, mdl.u0, params=mdl.param_values)
    keys = [p.key for p in tr.panels()]
    assert keys[0] == "xy" and tr.title == "reduced form, RK45"  # x, y coordinates; a bare system has no name
    tr2 = fr.integrate(mdl, (0, 1), mdl.q0, mdl.u0)
    assert tr2.title == f"{mdl.name}: reduced form, RK45"
    assert [p.ylabel for p in tr2.panels(("q", "u"))] == ["q", "u"]
    particle = fr.models.nonholonomic_particle()  # q1, q2, q3: no plane
    trp = fr.integrate(particle, (0, 0.1), particle.q0, particle.u0)
    assert "xy" not in [p.key for p in trp.panels()]
    with pytest.raises(fr.errors.ArgumentError, match="no 'xy' data"):
        trp.panels(("xy",))


def test_the_position_of_a_planar_vehicle_is_found_by_its_names():
    from frames.numeric._plot import plane

    assert plane(["phi", "x", "y"]) == (1, 2)
    assert plane(["X", "Y", "phi"]) == (0, 1)
    assert plane(["x_G", "y_G", "theta"]) == (0, 1)
    assert plane(["xi", "yi"]) is None and plane(["x", "Y"]) is None and plane(["q1", "q2"]) is None


def test_the_panels_draw_on_the_callers_axes_shared_or_not():
    from matplotlib.figure import Figure

    mdl = fr.models.knife_edge()
    tr = fr.integrate(mdl, (0, 1), mdl.q0, mdl.u0)
    shared = Figure().subplots(2, 1, sharex=True)
    tr.plot(ax=shared, panels=("q", "u"))
    axes = Figure().subplots(3, 1)
    out = tr.plot(ax=axes, panels=("xy", "q", "u"))
    np.testing.assert_array_equal(out[0].get_lines()[0].get_xdata(), tr.q[:, 1])  # the path: y against x
    np.testing.assert_array_equal(out[0].get_lines()[0].get_ydata(), tr.q[:, 2])
    assert out[2].get_xlabel() == "t" and out[0].get_xlabel() == "x"
