"""``analyze(jobs=2)``: a forked second process takes sections from the end of the list, the same report.

The report of two processes must equal the serial one item for item (sympy's structural equality, and every
format's text), whatever the sections raise, and whether or not the child manages to report.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import threading
import warnings

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import frames as fr
import frames.app._parallel as par
import frames.app._report as rep_mod
import frames.strategies as fst
from frames import models
from frames.algebra.internal import checkpoint
from frames.app._report import Item, Section, analyze

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork on this platform")

FAST = ["knife-edge", "chaplygin-sleigh", "two-wheeled-carriage"]
SLOW = [n for n in models.catalogue() if n not in FAST]


@pytest.fixture
def forking(monkeypatch):
    """Fork even under pytest-xdist, whose workers run a second (I/O) thread: the child never touches it."""
    monkeypatch.setattr(par, "available", lambda: True)


def _parallel_report(model, **kw):
    steps: list[str] = []
    rep = analyze(model, jobs=2, progress=steps.append, **kw)
    return rep, steps


def _same(a, b) -> None:
    assert a == b  # dataclass equality: every item's expression structurally equal
    for fmt in ("text", "markdown", "latex", "json"):
        assert a.format(fmt, jobs=2) == b.format(fmt)  # the equations written in two processes, the same text


def _shared(steps: list[str], order: list[str]) -> tuple[list[str], list[str]]:
    """The sections computed by the parent and by the child, from the progress steps."""
    mine = [s.removeprefix("section ") for s in steps if s.startswith("section ")]
    child = [s.removeprefix("[2] section ") for s in steps if s.startswith("[2] section ")]
    assert sorted(mine + child) == sorted(order)  # every section computed once, by one of the two
    assert child and mine == order[: len(mine)] and child == order[len(mine) :][::-1]  # from the two ends
    return mine, child


def _check_model(name: str) -> None:
    m = models.catalogue()[name]()
    serial = analyze(m)
    parallel, steps = _parallel_report(models.catalogue()[name]())
    _same(parallel, serial)
    _shared(steps, list(rep_mod.SECTIONS))


@pytest.mark.parametrize("name", FAST)
def test_two_processes_give_the_serial_report(name, forking):
    _check_model(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", SLOW)
def test_two_processes_give_the_serial_report_whole_catalogue(name, forking):
    _check_model(name)


@st.composite
def _random_models(draw):
    ch = draw(fst.charts(min_dim=3, max_dim=3))
    F = draw(fst.frames_on(ch))
    L = draw(fst.quadratic_lagrangians(ch))
    cons = fr.LinearConstraints(ch, [list(F.coframe_matrix.row(2))])
    return models.Model("random", ch, L, F, 2, cons, {})


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_random_models())
def test_two_processes_on_random_systems(forking, m):
    only = ["lagrangian", "nonholonomic", "invariant_measure", "vakonomic", "consistency", "mvm"]
    parallel, steps = _parallel_report(m, only=only)
    _same(parallel, analyze(m, only=only))
    _shared(steps, only)


def test_a_single_section_runs_in_one_process(forking):
    _rep, steps = _parallel_report(models.knife_edge(), only=["vakonomic"])
    assert steps[0] == "section vakonomic" and not any(s.startswith("[2]") for s in steps)


def _patch_last(monkeypatch, fn):
    """Replace the last section (``errata``: the child's first claim) by ``fn``."""
    sid = list(rep_mod.SECTIONS)[-1]
    real = rep_mod.SECTIONS[sid]
    monkeypatch.setitem(rep_mod.SECTIONS, sid, rep_mod._Spec(sid, real.title, fn))
    return sid, real


def test_an_error_in_the_child_is_raised_in_the_parent(forking, monkeypatch):
    parent = os.getpid()

    def boom(a):
        if os.getpid() == parent:
            return Section("errata", "E")
        raise fr.errors.BudgetExceededError(f"spent in {os.getpid()}", step="section errata")

    _patch_last(monkeypatch, boom)
    with pytest.raises(fr.errors.BudgetExceededError) as info:
        analyze(models.knife_edge(), jobs=2)
    assert info.value.step == "section errata"
    assert str(info.value) != f"spent in {parent}"  # raised in the child, carried over


def test_a_child_that_dies_is_replaced_by_the_parent(forking, monkeypatch):
    parent = os.getpid()

    def die_in_child(a):
        if os.getpid() != parent:
            os._exit(3)
        return real.fn(a)

    sid, real = _patch_last(monkeypatch, die_in_child)
    rep, steps = _parallel_report(models.knife_edge())
    assert f"section {sid}" in steps and not any(
        s.startswith("[2] section") and s != f"[2] section {sid}" for s in steps
    )
    monkeypatch.setitem(rep_mod.SECTIONS, sid, real)
    _same(rep, analyze(models.knife_edge()))


def test_a_section_that_does_not_pickle_is_computed_in_the_parent(forking, monkeypatch):
    parent = os.getpid()

    def odd(a):
        unpicklable = threading.Lock() if os.getpid() != parent else None
        return Section("errata", "E", (Item("text", "x", "x", unpicklable, "t"),))

    _patch_last(monkeypatch, odd)
    rep, steps = _parallel_report(models.knife_edge())
    assert rep.sections[-1].items[0].expr is None  # the parent's
    assert any(s.startswith("[2] section") for s in steps) and "section errata" in steps


def test_a_budget_spent_in_the_child_names_its_step(forking, monkeypatch, budget_clock):
    def slow(a):  # in whichever process claims it (a forked child has its copy of the budget's clock)
        budget_clock.advance(2.0)
        checkpoint()
        return Section("errata", "E")

    _patch_last(monkeypatch, slow)
    # the budget's clock moves only in slow(): the other sections never spend the budget, whatever the machine's load
    with pytest.raises(fr.errors.BudgetExceededError) as info:
        analyze(models.knife_edge(), only=["chart", "frame", "errata"], jobs=2, budget=1.0)
    assert info.value.step == "section errata"


def test_jobs_is_checked():
    rep = analyze(models.knife_edge(), only=["lagrangian"])
    for bad in (0, -1, True, 1.5, "2"):
        with pytest.raises(fr.errors.ArgumentError, match="jobs"):
            analyze(models.knife_edge(), jobs=bad)
        with pytest.raises(fr.errors.ArgumentError, match="jobs"):
            rep.format("text", jobs=bad)


def test_formats_written_in_two_processes_share_the_equations(forking):
    rep = analyze(models.two_wheeled_carriage())
    serial = {fmt: rep.format(fmt) for fmt in ("text", "markdown", "latex", "json")}
    fresh = analyze(models.two_wheeled_carriage())
    for fmt in ("json", "text", "latex", "markdown"):  # the cache of one format serves the next
        assert fresh.format(fmt, jobs=2) == serial[fmt]
    eqs = [it for s in fresh.sections for it in s.items if it.kind == "equation"]
    assert not any(it.__dict__.keys() - {f.name for f in dataclasses.fields(it)} for it in eqs)  # nothing kept
    assert fresh == rep


def test_no_fork_next_to_another_thread():
    done = threading.Event()
    t = threading.Thread(target=done.wait)
    t.start()
    try:
        assert not par.available()
    finally:
        done.set()
        t.join()


x, y, t = sp.symbols("x y t")
f = sp.Function("f")
_leaves = st.sampled_from(
    [x, y, sp.Integer(2), sp.Rational(-3, 4), sp.Float(0.5), f(t), sp.sin(x), sp.Symbol("p", positive=True), sp.pi]
)


def _tree(children):
    ops = st.sampled_from(["add", "mul", "pow", "cos", "diff"])

    def build(op, a, b):
        if op == "add":
            return sp.Add(a, b, evaluate=False)
        if op == "mul":
            return sp.Mul(a, b, evaluate=False)
        if op == "pow":
            return sp.Pow(a, -2, evaluate=False)
        if op == "cos":
            return sp.cos(a, evaluate=False)
        return sp.Derivative(f(t), t) * a

    return st.tuples(ops, children, children).map(lambda t: build(*t))


@settings(max_examples=200, deadline=None)
@given(st.recursive(_leaves, _tree, max_leaves=12))
def test_expressions_cross_the_pipe_unchanged(e):
    back = par.loads(par.dumps(e))
    assert sp.srepr(back) == sp.srepr(e)
    assert back == e


def test_a_displayed_form_is_not_evaluated_again():
    e = sp.factor(2 * x + 2 * y)  # Mul(2, x + y), which Mul(2, x + y) would distribute
    assert sp.srepr(par.loads(par.dumps(e))) == sp.srepr(e)
    assert sp.srepr(par.loads(par.dumps(e))) != sp.srepr(sp.Mul(*e.args))


def test_cli_jobs_option(capsys):
    from frames import app as cli

    assert cli.main(["analyze", "knife-edge", "--only", "lagrangian", "--jobs", "1"]) == 0
    serial = capsys.readouterr().out
    assert cli.main(["analyze", "knife-edge", "--only", "lagrangian", "--jobs", "auto"]) == 0
    assert capsys.readouterr().out == serial
    for bad in ("0", "two", "-1"):
        assert cli.main(["analyze", "knife-edge", "--jobs", bad]) != 0
        assert f"--jobs {bad}" in capsys.readouterr().err


def test_the_childs_warnings_output_and_traceback_reach_the_parent(forking, monkeypatch, tmp_path):
    parent = os.getpid()

    def noisy(a):
        if os.getpid() != parent:
            warnings.warn("warned in the second process", UserWarning, stacklevel=1)
        return Section("errata", "E")

    _patch_last(monkeypatch, noisy)
    with pytest.warns(UserWarning, match="warned in the second process"):
        _rep, steps = _parallel_report(models.knife_edge())
    assert "[2] section errata" in steps

    def failing_helper():
        return 1 // 0

    def failing(a):
        if os.getpid() == parent:
            return Section("errata", "E")
        try:
            failing_helper()
        except ZeroDivisionError as exc:
            raise fr.FramesError("section failed") from exc

    _patch_last(monkeypatch, failing)
    with pytest.raises(fr.FramesError, match="section failed") as info:
        analyze(models.knife_edge(), jobs=2)
    assert "failing_helper" in str(info.value.__cause__)  # the child's traceback

    script = (
        "import os, frames as fr, frames.app._parallel as par, frames.app._report as rep\n"
        "par.available = lambda: True\n"
        "real = rep.SECTIONS['errata']\n"
        "def loud(a):\n"
        "    print('printed in', 'parent' if os.getpid() == PARENT else 'child')\n"
        "    return real.fn(a)\n"
        "PARENT = os.getpid()\n"
        "rep.SECTIONS['errata'] = rep._Spec('errata', real.title, loud)\n"
        "fr.analyze(fr.models.knife_edge(), jobs=2)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # stdout into a file: buffered
    out = tmp_path / "out.txt"
    with out.open("w") as fh:
        assert subprocess.run([sys.executable, "-c", script], stdout=fh, env=env).returncode == 0
    assert out.read_text() == "printed in child\n"  # flushed before the child ends


class _TwoParts(Exception):
    def __init__(self, a, b):
        super().__init__(f"{a}: {b}")


def test_an_exception_that_does_not_unpickle_is_raised_by_the_parent_itself(forking, monkeypatch):
    import pickle

    def bad(a):
        raise _TwoParts("f.toml", "bad")  # pickles, does not unpickle (its __init__ takes two arguments)

    _patch_last(monkeypatch, bad)
    with pytest.raises(_TwoParts, match=r"f\.toml"):
        analyze(models.knife_edge(), jobs=2)
    err = pickle.loads(pickle.dumps(fr.errors.SystemFileError("f.toml", "L", "bad")))  # frames' own does
    assert (err.source, err.key, err.reason, str(err)) == ("f.toml", "L", "bad", "f.toml: L: bad")


def test_an_enclosing_budgets_progress_sees_every_section(forking):
    seen: list[str] = []
    with fr.budget(120, progress=seen.append):
        analyze(models.knife_edge(), jobs=2)
    _shared(seen, list(rep_mod.SECTIONS))
