"""Solvers as values, the one Problem built at the door, and the numerics-door points of issue 44."""

from __future__ import annotations

import contextlib
import inspect
import math
import uuid

import numpy as np
import pytest

import frames as fr

KE = fr.models.knife_edge()
Q0 = [0.0, 0.0, 0.0]
U0 = [0.5, 1.0, 0.0]


def test_solvers_are_values_that_check_their_fields():
    a, b = fr.RK45(rtol=1e-6), fr.RK45(rtol=1e-6)
    assert a == b and hash(a) == hash(b) and a != fr.RK45()
    with pytest.raises(Exception, match="cannot assign"):
        a.rtol = 1.0  # type: ignore[misc]
    assert fr.Radau() != fr.RK45()  # same fields, another method
    with pytest.raises(fr.errors.OptionError, match=r"LSODA: rtol=2 must be below 1"):
        fr.LSODA(rtol=2)


def test_solvers_declare_what_they_support():
    assert fr.RK45().supports("batch") and fr.RK45().supports("events") and fr.RK45().supports("inputs")
    assert not fr.Radau().supports("batch")
    assert fr.RK4(n_steps=4).supports("batch") and not fr.RK4(n_steps=4).supports("single")
    lda = fr.LDAMidpoint(step=0.1)
    assert lda.supports("single") and lda.supports("batch") and not lda.supports("inputs")
    assert not fr.NumbaRK45().supports("events") and not fr.NumbaRK45().supports("dense_output")


def test_a_solver_value_gives_the_same_run_as_its_sugar():
    sugar = fr.integrate(KE, (0, 1), Q0, U0, method="DOP853", rtol=1e-10, atol=1e-12)
    value = fr.integrate(KE, (0, 1), Q0, U0, method=fr.DOP853(rtol=1e-10, atol=1e-12))
    assert value.method == sugar.method == "DOP853"
    np.testing.assert_array_equal(value.q, sugar.q)
    batch = fr.integrate(KE, (0, 1), [Q0, Q0], [U0, U0], method=fr.RK4(n_steps=20), progress=False)
    assert batch.method == "RK4" and batch.q.shape == (2, 101, 3)


def test_solver_refusals_name_the_solver():
    with pytest.raises(fr.errors.OptionError, match=r"events need one of scipy's methods; method='lda-midpoint'"):
        fr.integrate(KE, (0, 1), KE.q0, KE.u0, method=fr.LDAMidpoint(step=0.1), events=lambda t, q, u: q[1])
    with pytest.raises(fr.errors.OptionError, match=r"integrate: step= is not|step=0.1 is the fixed step"):
        fr.integrate(KE, (0, 1), Q0, U0, step=0.1)


def test_integrate_takes_at_most_13_parameters():
    assert len(inspect.signature(fr.integrate).parameters) <= 13


def test_the_problem_holds_the_initial_state_of_a_batch_of_one():
    from frames.numeric._problem import build_problem
    from frames.numeric._resolve import resolve

    target = resolve(KE, "reduced", None, None, False)
    kw = dict(x=KE, params=None, inputs=None, extra0=None, project=False, constraint_tol=1e-9, t_eval=None)
    one = build_problem(target, fr.RK45(), (0, 1), Q0, U0, None, events=None, dense_output=False, progress=None, **kw)
    two = build_problem(
        target, fr.RK45(), (0, 1), [Q0, Q0], [U0, U0], None, events=None, dense_output=False, progress=None, **kw
    )
    assert one.Y0.shape == (5, 1) and not one.batch
    assert two.Y0.shape == (5, 2) and two.batch
    np.testing.assert_array_equal(one.Y0[:, 0], two.Y0[:, 1])


def test_inputs_are_laws_of_t_q_u_with_time_law_sugar():
    import sympy as sp

    ch = fr.Chart("phi x y", params="J m tau")
    (phi, _, _), (uphi, ux, uy), (J, m, tau) = ch.q, ch.u, ch.params
    L = fr.Lagrangian(ch, J * uphi**2 / 2 + m * (ux**2 + uy**2) / 2)
    C = fr.LinearConstraints(ch, [-sp.sin(phi) * ux + sp.cos(phi) * uy])
    nh = fr.NonholonomicSystem.from_constraints(L, C, forces=[tau, 0, 0])
    P = {"J": 1, "m": 1}
    calls = []

    def law(*args):  # no argument counting: called (t, q, u)
        calls.append(len(args))
        return -args[2][0]

    tr = fr.integrate(nh, (0, 2), [0, 0, 0], [1, 1, 0], P, inputs={"tau": law}, rtol=1e-10, atol=1e-12)
    assert set(calls) == {3} and abs(tr.u[-1, 0] - math.exp(-2)) < 1e-8
    assert tr.info["inputs"] == {"tau": "(t, q, u)"}
    tr = fr.integrate(nh, (0, 1), [0, 0, 0], [0, 1, 0], P, inputs={tau: fr.TimeLaw(lambda t: 1.0)}, rtol=1e-10)
    assert abs(tr.u[-1, 0] - 1.0) < 1e-8 and tr.info["inputs"] == {"tau": "t"}
    with pytest.raises(fr.errors.OptionError, match=r"params\['tau'\] given as callables: backend='numba'"):
        fr.integrate(nh, (0, 1), [[0, 0, 0]], [[0, 1, 0]], P, inputs={"tau": law}, backend="numba")


def test_v0_works_for_a_batch():
    tr = fr.integrate(KE, (0, 1), [Q0, [0.3, 0.0, 0.0]], v0=[[1.0, 0.5], [1.0, 0.5]], progress=False)
    one = fr.integrate(KE, (0, 1), [0.3, 0.0, 0.0], v0=[1.0, 0.5])
    np.testing.assert_allclose(tr.u[1, 0], one.u[0], atol=1e-14)
    assert float(tr.residual.max()) < 1e-12


def test_progress_for_one_trajectory(capsys):
    fr.integrate(KE, (0, 1), Q0, U0, progress=True)
    err = capsys.readouterr().err
    assert "t = 1/1" in err


def test_one_trajectory_defaults_to_a_grid_of_401_points():
    tr = fr.integrate(KE, (0, 2), Q0, U0)
    np.testing.assert_allclose(tr.t, np.linspace(0, 2, 401))
    assert tr.info["steps"] < 401  # the solver took its own steps; the output is on the grid

    def x_half(t, q, u):
        return q[1] - 0.5

    x_half.terminal = True
    tr = fr.integrate(KE, (0, 5), Q0, U0, events=x_half)
    assert tr.status == 1 and tr.t[-1] == tr.t_events[0][0] and len(tr.t) > 2


def test_first_step_is_an_option_of_the_scipy_solvers():
    tr = fr.integrate(KE, (0, 1), Q0, U0, method=fr.Radau(first_step=1e-3))
    assert tr.info["solver_options"] == {"first_step": 1e-3}
    sugar = fr.integrate(KE, (0, 1), Q0, U0, method="Radau", first_step=1e-3)
    np.testing.assert_array_equal(sugar.q, tr.q)
    with pytest.raises(fr.errors.OptionError, match=r"RK45: first_step=0 must be a positive finite number"):
        fr.RK45(first_step=0)
    with pytest.raises(fr.errors.OptionError, match=r"first_step given twice"):
        fr.RK45(first_step=0.1, options={"first_step": 0.1})
    with pytest.raises(fr.errors.OptionError, match=r"first_step is passed to scipy's solvers"):
        fr.integrate(KE, (0, 1), KE.q0, KE.u0, method="lda-midpoint", step=0.1, first_step=0.1)


def test_trajectory_and_batch_share_one_field_list():
    import dataclasses

    single = [f.name for f in dataclasses.fields(fr.numeric.Trajectory)]
    batch = [f.name for f in dataclasses.fields(fr.numeric.TrajectoryBatch)]
    assert single[: len(batch)] == batch


def test_plot_returns_the_file_written_and_refuses_a_non_image_suffix(tmp_path):
    pytest.importorskip("matplotlib")
    tr = fr.integrate(KE, (0, 1), Q0, U0)
    out = tr.plot(tmp_path / "out")
    assert out == tmp_path / "out.png" and out.is_file() and not (tmp_path / "out").exists()
    with pytest.raises(fr.errors.ArgumentError, match=r"'txt' is not an image format; use one of \[.*'png'"):
        tr.plot(tmp_path / "x.txt")
    assert not (tmp_path / "x.txt").exists()


def test_a_trajectory_with_inputs_plots_the_control_effort():
    import sympy as sp

    ch = fr.Chart("phi x y", params="J m tau")
    (phi, _, _), (uphi, ux, uy), (J, m, tau) = ch.q, ch.u, ch.params
    L = fr.Lagrangian(ch, J * uphi**2 / 2 + m * (ux**2 + uy**2) / 2)
    C = fr.LinearConstraints(ch, [-sp.sin(phi) * ux + sp.cos(phi) * uy])
    nh = fr.NonholonomicSystem.from_constraints(L, C, forces=[tau, 0, 0])
    tr = fr.integrate(nh, (0, 1), [0, 0, 0], [1, 1, 0], {"J": 1, "m": 1}, inputs={"tau": lambda t, q, u: -u[0]})
    np.testing.assert_allclose(tr.inputs["tau"], -tr.u[:, 0])
    assert "inputs" in [p.key for p in tr.panels()]
    plain = fr.integrate(KE, (0, 1), Q0, U0)
    assert plain.inputs == {} and "inputs" not in [p.key for p in plain.panels()]


def test_code_generation_reports_through_the_progress_reporter(monkeypatch, capsys):
    import sympy as sp

    from frames.numeric import _progress

    lines: list[str] = []
    with _progress.reporting(lines.append), _progress.heartbeat("code generation of rhs/math", every=0.01):
        for _ in range(3000):  # up to 30 s for the thread's first turn
            if lines:
                break
            threading_event_wait(0.01)
    assert lines and lines[0].startswith("code generation of rhs/math: still running after")
    with _progress.heartbeat("quiet"):  # no reporter: no line, no thread
        pass
    # integrate(progress=True) wires code generation to the reporter: decided by what the heartbeat sees, not by
    # whether its thread gets a turn while the code is generated (a loaded machine may not give it one)
    from frames.numeric import _compiled

    seen: list[tuple[str, bool]] = []
    real = _compiled.heartbeat

    @contextlib.contextmanager
    def spy(label: str, every: float | None = None):
        seen.append((label, _progress._REPORTER.get() is not None))
        with real(label, every):
            yield

    monkeypatch.setattr(_compiled, "heartbeat", spy)
    ch = fr.Chart("x", params=f"k_heartbeat_{uuid.uuid4().hex[:8]}")  # a fresh system: generated in this call
    x, u, k = ch.q[0], ch.u[0], ch.params[0]
    G = fr.Lagrangian(ch, u**2 / 2 - k * sp.cos(x) ** 7 * x**3).euler_lagrange_field()
    fr.integrate(G, (0, 0.1), [0.1], [0.0], {k.name: 1.0}, progress=True)
    assert ("code generation of rhs/math", True) in seen, seen


def threading_event_wait(s: float) -> None:
    import threading

    threading.Event().wait(s)
