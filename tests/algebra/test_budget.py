"""Every long symbolic computation runs under a budget: it stops with BudgetExceededError naming the step."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import pytest
import sympy as sp
from _budget_clock import counted_budgets
from hypothesis import given, settings
from hypothesis import strategies as st

import frames as fr


def test_budget_stops_a_long_computation_and_names_the_step(budget_clock):
    mdl = fr.models.two_wheeled_carriage()
    vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, mdl.m)
    seen = []

    def slow(name):
        # the budget is spent inside the library's step, whatever the machine's speed (the budget's clock is
        # the test's: it moves only here)
        seen.append(name)
        if name == "VakonomicSystem.field":
            budget_clock.advance(0.3)

    with pytest.raises(fr.errors.BudgetExceededError, match=r"during step 'VakonomicSystem\.field'") as info:
        with fr.budget(0.2, progress=slow):
            with fr.algebra.step("vakonomic field"):
                vk.field()
    # the innermost step reached is named; the user's own step encloses it
    assert info.value.step == "VakonomicSystem.field" and seen == ["vakonomic field", "VakonomicSystem.field"]


def test_budget_is_generous_when_there_is_time():
    mdl = fr.models.nonholonomic_particle()
    with fr.budget(120) as b:
        with fr.algebra.step("field"):
            G = mdl.nonholonomic().field()
        with fr.algebra.step("multipliers"):
            mdl.nonholonomic().multipliers()
    assert b.steps[0] == "field" and "multipliers" in b.steps and b.remaining > 0
    assert "NonholonomicSystem.field" in b.steps and "NonholonomicSystem.multipliers" in b.steps
    assert G.equals(mdl.nonholonomic().field())


def test_budgets_nest_and_the_inner_cannot_outlive_the_outer():
    with fr.budget(10) as outer, fr.budget(1000) as inner:
        assert inner.deadline <= outer.deadline
    with fr.budget(None) as none:
        assert none is None


@pytest.mark.parametrize("bad", [0, -1, float("nan"), True, "10"])
def test_bad_budget(bad):
    with pytest.raises(fr.errors.OptionError, match="budget"):
        with fr.budget(bad):
            pass


def test_a_single_sympy_call_is_stopped_by_the_hard_limit_of_the_console_script():
    """``expand((x+y+z+1)**300)`` is one sympy call, never interrupted in-process (no signal handler raises):
    the console script's supervisor kills its child 0.5 s past the budget and names the step it published."""
    code = (
        "import sys, time, sympy as sp, frames as fr\n"
        "from frames.app._hardlimit import supervise\n"
        "x, y, z = sp.symbols('x y z')\n"
        "def work():\n"
        "    with fr.budget(0.5), fr.algebra.step('expand'):\n"
        "        sp.expand((x + y + z + 1) ** 300)\n"
        "    return 0\n"
        "print('status', supervise(work, 0.5, grace=0.5))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.startswith("status 3"), out.stdout + out.stderr
    # the expansion takes minutes: the status and the message say the child was killed, not that it finished
    assert "exceeded during step 'expand'" in out.stderr and "could not be interrupted" in out.stderr


def test_the_hard_limit_passes_the_childs_status_through():
    code = (
        "import frames as fr\n"
        "from frames.app._hardlimit import supervise\n"
        "print('status', supervise(lambda: 7, 30.0), supervise(lambda: 0, float('inf')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split()[-2:] == ["7", "0"], out.stdout + out.stderr


def test_a_budget_installs_no_signal_handler_and_reports_a_long_step(monkeypatch, budget_clock):
    import signal

    from frames.algebra import _budget

    before = signal.getsignal(signal.SIGALRM)
    monkeypatch.setattr(_budget, "HEARTBEAT", 0.05)
    seen: list[str] = []
    with fr.budget(30, progress=seen.append):
        assert signal.getsignal(signal.SIGALRM) is before
        with fr.algebra.step("long"):
            budget_clock.tick = 0.01  # 30 checkpoints are 0.3 s of the budget's clock, whatever the machine's load
            for _ in range(30):
                fr.algebra.internal.checkpoint()
    assert seen[0] == "long" and any(s.startswith("long (running, ") for s in seen[1:]), seen
    assert len(seen) < 10  # every HEARTBEAT seconds, not at every checkpoint


def test_a_system_file_that_multiplies_out_to_too_many_terms_is_refused_at_load_time():
    text = 'coordinates = ["x", "y", "z"]\nlagrangian = "(u_x + u_y + x + y + 1)**60 + u_z**2/2"\nconstraints = ["u_z - x*u_y"]\n'
    # refused by counting the terms before any expansion (were it expanded, the reader's timeout would end it, with
    # another message)
    with pytest.raises(fr.errors.SystemFileError, match=r"lagrangian: .*about 6.35e\+05 terms once multiplied out"):
        fr.loads_model(text)
    # a power that stays small is accepted
    fr.loads_model(text.replace("**60", "**3"))


def test_build_report_runs_under_a_budget_and_names_the_section(budget_clock):
    seen: list[str] = []

    def progress(name):
        seen.append(name)
        if name == "section controllability":  # the budget is spent here, whatever the machine's speed
            budget_clock.advance(1.0)

    with pytest.raises(fr.errors.BudgetExceededError, match=r"section controllability") as ei:
        fr.analyze(fr.models.two_wheeled_carriage(), budget=0.25, progress=progress)
    assert "section " in str(ei.value)
    assert seen[:3] == ["section chart", "section frame", "section anholonomy"]
    rep = fr.analyze(fr.models.knife_edge(), budget=120, progress=seen.append)
    assert rep.sections[0].id == "chart"


def test_cli_analyze_budget_exit_3_names_the_step_and_prints_progress(capsys):
    from frames.app import main

    assert main(["analyze", "two-wheeled-carriage", "--budget", "0.25", "--progress"]) == 3
    err = capsys.readouterr().err
    assert "exceeded during step '" in err and "section " in err and "--budget" in err and "Traceback" not in err
    assert "s] section chart" in err
    assert main(["analyze", "knife-edge", "--budget", "-1"]) == 2
    assert main(["analyze", "knife-edge", "--budget", "nan"]) == 2
    assert main(["analyze", "knife-edge", "--budget", "inf", "--no-progress", "--only", "chart"]) == 0


def test_step_opens_a_budget_only_when_asked():
    from frames.algebra import step
    from frames.algebra.internal import current_budget

    with step("alone"):
        assert current_budget() is None
    seen: list[str] = []
    with step("outer", budget=30, progress=seen.append):
        assert current_budget() is not None and current_budget().current == "outer"
    assert seen == ["outer"]


def _carriage_vk():
    md = fr.models.two_wheeled_carriage()
    return fr.VakonomicSystem(md.lagrangian, md.frame, md.m)


LONG_CALLS = {
    "VakonomicSystem.variational_check": lambda vk, **kw: vk.variational_check(**kw),
    "VakonomicSystem.tangent_field": lambda vk, **kw: vk.tangent_field(**kw),
    "VakonomicSystem.field": lambda vk, **kw: vk.field(**kw),
    "strong_consistency": lambda vk, **kw: fr.strong_consistency(vk, [0] * (vk.n - vk.m), **kw),
    "find_sections": lambda vk, **kw: fr.find_sections(vk, [sp.Symbol("c0")] * (vk.n - vk.m), [sp.Symbol("c0")], **kw),
}


@pytest.mark.parametrize("name", sorted(LONG_CALLS))
def test_long_symbolic_calls_take_a_budget_and_name_the_step(name):
    call = LONG_CALLS[name]
    seen: list[str] = []
    with pytest.raises(fr.errors.BudgetExceededError, match="time budget of 1e-06 s exceeded during step") as ei:
        call(_carriage_vk(), budget=1e-6, progress=seen.append)
    assert ei.value.step == name and seen[0] == name
    assert (
        "budget"
        in inspect.signature(getattr(fr.VakonomicSystem, name.split(".")[-1], None) or getattr(fr, name)).parameters
    )
    ke = fr.models.knife_edge()
    vk = fr.VakonomicSystem(ke.lagrangian, ke.frame, ke.m)
    seen.clear()
    with_budget = call(vk, budget=120, progress=seen.append)
    assert seen[0] == name
    assert with_budget == call(fr.VakonomicSystem(ke.lagrangian, ke.frame, ke.m))
    for bad in (-1, 0, float("nan"), "10", True):
        with pytest.raises(fr.errors.OptionError, match="budget"):
            call(vk, budget=bad)
    with pytest.raises(fr.errors.OptionError, match="progress must be callable"):
        call(vk, budget=5, progress="print")


def test_nonholonomic_field_budget_and_steps():
    md = fr.models.two_wheeled_carriage()
    with pytest.raises(fr.errors.BudgetExceededError) as ei:
        fr.NonholonomicSystem(md.lagrangian, md.frame, md.m).accelerations(budget=1e-6)
    assert ei.value.step == "NonholonomicSystem.accelerations"
    nh = fr.NonholonomicSystem(md.lagrangian, md.frame, md.m)
    seen: list[str] = []
    acc = nh.accelerations(budget=300, progress=seen.append)
    # the default (compact) accelerations try the canonical form, which solves for the canonical field
    assert seen[0] == "NonholonomicSystem.accelerations"
    assert any(s.startswith("NonholonomicSystem.field") for s in seen)
    assert acc == md.nonholonomic().accelerations()


def test_budget_is_honoured_inside_one_long_polynomial_division(monkeypatch):
    """A budget stops fraction-free elimination inside a single exact division (the heap division checks
    it every 1024 quotient terms), not only between sympy operations. (With python-flint, the ``fast``
    extra, a division is one C call of milliseconds; the Python heap division is the one that can be long.)"""
    monkeypatch.setenv("FRAMES_FLINT", "0")
    from sympy.polys.domains import QQ
    from sympy.polys.orderings import lex
    from sympy.polys.rings import ring

    from frames.algebra._poly import exact_quotient

    _R, x, y, z = ring("x,y,z", QQ, lex)
    f = (x + 2 * y + 3 * z + 1) ** 4
    q = (x - y + z + 5) ** 16
    p = q * (x + y + 1) ** 3 * f  # the quotient p/f has more than 1024 terms
    assert len(p.exquo(f)) > 1024
    assert exact_quotient(q * f, f) == q
    with pytest.raises(fr.errors.BudgetExceededError):
        with fr.budget(1e-9):
            exact_quotient(p, f)


def test_an_uninterruptible_c_product_that_would_overrun_the_budget_is_refused_before_it_starts():
    """With python-flint (the ``fast`` extra) one polynomial product is one C call that no signal interrupts:
    when its estimated cost exceeds what is left of the budget, the library's error is raised before it."""
    from frames.algebra._flint import _afford

    _afford(10**15)  # no budget open: nothing is checked
    with fr.budget(60) as b:
        with fr.algebra.step("a long product"):
            _afford(10)  # cheap: allowed
            with pytest.raises(
                fr.errors.BudgetExceededError, match="would be exceeded during step 'a long product'"
            ) as exc:
                _afford(10**15)
    assert exc.value.step == "a long product"
    assert b.steps == ["a long product"]


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_bareiss_gives_the_solve_den_pair_and_the_determinant(data):
    """:func:`~frames.algebra._poly.bareiss` (the checkpointed elimination that replaced ``DomainMatrix.solve_den``
    and ``det``) gives ``(adj(A) B, det A)`` exactly, in Python and in FLINT, and the triangular form the
    determinant alone (zero for a singular matrix)."""
    from sympy.polys.matrices import DomainMatrix

    from frames.algebra._flint import enabled, flint_solve_den
    from frames.algebra._poly import bareiss

    q = sp.symbols("q1:4")
    R, *_ = sp.ring(q, sp.QQ, sp.lex)
    n = data.draw(st.integers(1, 4))

    def entry():
        k = data.draw(st.integers(0, 3))
        return R.from_expr(
            sp.Add(*[data.draw(st.integers(-2, 2)) * data.draw(st.sampled_from([1, *q])) ** 2 for _ in range(k)])
            if k
            else 0
        )

    A = [[entry() for _ in range(n)] for _ in range(n)]
    B = [[entry() for _ in range(2)] for _ in range(n)]
    det = DomainMatrix(A, (n, n), R.to_domain()).det()
    assert bareiss(A, one=R.one, jordan=False)[1] == det
    if not det:
        with pytest.raises(ZeroDivisionError):
            bareiss(A, B, one=R.one)
        return
    xnum, xden = bareiss(A, B, one=R.one)
    assert xden == det
    for i in range(n):
        for j in range(2):
            assert sum((A[i][r] * xnum[r][j] for r in range(n)), R.zero) == xden * B[i][j]
    if enabled():
        assert flint_solve_den(A, B, force=True) == (xnum, xden)


def test_the_exact_solve_checks_the_budget_at_every_entry_update(monkeypatch):
    """A fraction-free solve is never one uninterruptible sympy call: without FLINT, the elimination checks the budget
    before every entry update (a spent budget stops it at the first), as FLINT's does."""
    monkeypatch.setenv("FRAMES_FLINT", "0")
    import frames.algebra._poly as poly

    calls = []
    real = poly.checkpoint
    monkeypatch.setattr(poly, "checkpoint", lambda: (calls.append(1), real())[1])
    x, y, z = sp.symbols("x y z")
    A = sp.Matrix([[x, y, 1, z], [y, x + z, x, 1], [1, z, y, x], [z, 1, x * y, y]])
    b = sp.Matrix([1, x, y, z])
    sol = fr.algebra.solve_linear(A, b)
    assert sp.cancel(A * sol - b) == sp.zeros(4, 1)
    assert len(calls) >= 4 * 4 * 3  # before every entry update of every step
    R, u, v = sp.ring("u v", sp.QQ, sp.lex)
    calls.clear()
    with pytest.raises(fr.errors.BudgetExceededError), fr.budget(1e-9):  # spent at the first check
        poly.bareiss([[u, v], [v, u]], [[u], [v]], one=R.one)
    assert calls == [1]


def test_from_mechanics_reports_its_steps():
    """``from_mechanics`` reports where its time goes: the kinematic equations, the bodies, the loads, the chart,
    the frame, the constraints, the kinematics checked and the Lagrangian."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from _sympy_systems import rolling_disc

    m, r, g = sp.symbols("m r g", positive=True)
    seen: list[str] = []
    with fr.budget(600, progress=seen.append):
        fr.from_mechanics(rolling_disc(m, r, g).KM)
    assert seen == [
        "from_mechanics: the kinematic equations (u = W q̇)",
        "from_mechanics: the velocity constraints",
        "from_mechanics: reading the bodies (kinetic energy)",
        "from_mechanics: potential energy, generalised forces",
        "from_mechanics: the chart",
        "from_mechanics: the frame dual to the speeds",
        "from_mechanics: the constraints on the chart",
        "from_mechanics: the kinematics checked",
        "from_mechanics: the Lagrangian",
        "from_mechanics: the model",
    ]


@pytest.mark.slow
def test_a_budget_of_5_s_stops_the_rotor_driven_sphere_and_names_the_step():
    """The rotor-driven sphere (a ``KanesMethod``, ``tests/_sympy_sphere.py``): its exact field once sat in one
    sympy call past any budget. Under a budget of 5 s its canonical accelerations (the canonical field, then the
    natural form) stop with the library's error naming the step reached (the overrun itself is measured by
    benchmarks/budgets.py, not asserted here); the default (compact) field and accelerations return within a
    budget of 60 s (issue 42's acceptance)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from _sympy_sphere import rotor_sphere

    nh = fr.from_mechanics(rotor_sphere().KM).nonholonomic()
    # the budget counted in clock readings (1 ms each: 5,000 readings; the canonical accelerations take about
    # 18,000), so the outcome does not depend on the machine's speed
    with (
        counted_budgets(0.001),
        pytest.raises(fr.errors.BudgetExceededError, match=r"time budget of 5 s exceeded during step '") as exc,
    ):
        nh.accelerations(canonical=True, budget=5)
    assert exc.value.step.startswith("NonholonomicSystem.")
    fresh = fr.from_mechanics(rotor_sphere().KM).nonholonomic()
    assert len(fresh.field(budget=60).Gamma) == fresh.n and len(fresh.accelerations(budget=60)) == fresh.n
