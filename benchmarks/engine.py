"""Benchmark: the frames engine against sympy.physics.mechanics, side by side in one run.

Systems: the [CM] section 7.1 class ``abelian_chaplygin(k)`` with ``Δ_a = q1^(a-2)`` (k = 1, 2, 3, 4, 8, 16, 32),
the two-wheeled carriage, random dense systems on n = 3, 4, 5, 6 coordinates built from fixed
seeds with the library's public API (:func:`random_system`), and the Whipple bicycle of ``benchmarks/bicycle.py``
(8 coordinates, imported by ``from_mechanics``; the default and fast paths against KanesMethod only, not in
``--quick``). Sizes, and ``field()`` and ``multipliers()`` beside ``accelerations()``: ``benchmarks/swell.py``.

Columns, each measured in a fresh subprocess after a warm-up on the nonholonomic particle, with a
time limit (``--timeout``, default 120 s; ``>120 s`` when it is exceeded):

* ``frames q̈, default path``: ``NonholonomicSystem(L, frame, m).accelerations()`` exactly as a user calls it (no
  ``canonical=`` argument: whatever the library returns by default; for the random systems the adapted frame
  ``LinearConstraints.adapted_frame()`` is computed in the timing; for the bicycle the import is not);
* ``frames field + q̈, fast path``: ``field(canonical=False)`` and ``accelerations(canonical=False)`` — the same
  exact functions as trees, never expanded, as SymPy derives them (for the random systems the adapted frame is
  computed in the timing; for the bicycle the import is not timed and is printed below the table);
* ``frames analyze``: the model (with its adapted frame) and ``frames.analyze(model, budget=timeout)``,
  the work of ``frames analyze`` in one process; ``frames analyze, 2 processes``: the same with ``jobs=2`` (the
  vakonomic and consistency sections in a forked second process, as the command does by default on two cores);
* ``Lagrange``: ``LagrangesMethod(L, q, nonhol_coneqs=...)``, ``form_lagranges_equations()``, ``rhs()``,
  *no* simplification; ``Lagrange + tidy``: the same, then q̈ back in the chart's symbols and
  ``frames.algebra.tidy`` on every q̈ (the raw time plus the simplification; same subprocess);
* ``Kane`` / ``Kane + tidy``: ``KanesMethod`` with dependent speeds (bodies carrying the model's
  kinetic energy, the potential as generalized forces), ``kanes_equations()``, ``rhs()``, likewise.

Ratios are SymPy time / ``frames q̈`` (default path) time, and SymPy's time without simplification / the fast
path's. Also printed: the cold start of ``import frames`` and ``import sympy`` (median of 5 subprocesses), the
object of anholonomy of the n = 24 frame of ``benchmarks/anholonomy.py`` (seed 0), and the wall clock of the command ``frames analyze two-wheeled-carriage``
itself (interpreter start, import, analysis, printing; median of 5), with ``--jobs auto`` and ``--jobs 1``.

Run:  python benchmarks/engine.py [--timeout 120] [--ks 1 2 3 4 8 16 32] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import sympy as sp

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import frames as fr
from benchmarks._harness import fmt_t, in_subprocess, speed
from benchmarks.anholonomy import random_frame
from benchmarks.bicycle import bicycle as whipple_bicycle
from benchmarks.nonholonomic import _kane_bodies
from benchmarks.nonholonomic import build as build_catalogue
from frames.algebra import tidy
from frames.natural.internal import from_dynamic, to_dynamic

SCRIPT = os.path.abspath(__file__)
#: the per-measurement limit, handed to the measuring subprocesses
TIMEOUT_ENV = "FRAMES_ENGINE_TIMEOUT"
#: seconds the parent waits beyond the limit before it kills a subprocess (the child stops itself first)
GRACE = 30.0
SEED = 16  # fixed, so that the figures are reproducible: system n uses random.Random(SEED * 100 + n)
RANDOM_NS = (3, 4, 5, 6)
QUICK = {"ks": [1, 2, 4], "random": [3, 4]}


class _Timeout(BaseException):
    """SIGALRM in a measuring subprocess (a BaseException, so no ``except Exception`` swallows it)."""


def _on_alarm(signum: int, frame: object) -> None:
    raise _Timeout


def _limit() -> float:
    return float(os.environ.get(TIMEOUT_ENV, "120"))


# ------------------------------------------------------------------ random dense systems
_TERMS: dict[str, Callable[[int, sp.Symbol, sp.Symbol], sp.Expr]] = {
    "const": lambda c, a, b: sp.Integer(c),
    "lin": lambda c, a, b: c * a,
    "poly": lambda c, a, b: c * a * b,
    "square": lambda c, a, b: c * a**2,
    "sin": lambda c, a, b: c * sp.sin(a),
    "cos": lambda c, a, b: c * sp.cos(a),
    "exp": lambda c, a, b: c * sp.exp(a),
    "mixed": lambda c, a, b: c * a * sp.cos(b),
}
#: the kinds of term in the position map (hence the metric), the potential and the constraints
_POSITION = ("poly", "square", "sin", "cos", "exp", "mixed")
_POTENTIAL = ("poly", "cos", "exp")
_CONSTRAINT = ("const", "lin", "sin", "cos", "exp", "square")


def _term(rng: random.Random, q: list[sp.Symbol], kinds: tuple[str, ...]) -> sp.Expr:
    a, b = rng.sample(q, 2)
    return _TERMS[rng.choice(kinds)](rng.choice((1, -1, 2, -2)), a, b)


def random_system(n: int) -> tuple[fr.Lagrangian, fr.LinearConstraints, int, list[sp.Expr], sp.Expr]:
    r"""A random dense system on ``q1 … qn`` with ``r = min(3, n − 2)`` constraints (seeded, deterministic).

    * positions ``x(q) ∈ R^n``, each component a sum of two random terms (polynomial, sin, cos, exp);
      ``L = ½ u^T (J^T J + I) u − V(q)`` with ``J = ∂x/∂q`` (positive definite everywhere) and ``V``
      a sum of three random terms;
    * constraint ``a`` has coefficient 1 on ``u_{m+a}``, random terms on the ``m = n − r`` first
      velocities and (half of the time) on the later dependent velocities: the dependent block is
      unipotent, so the rows are independent everywhere and the last ``r`` speeds can be dependent.

    Returns ``(L, constraints, m, positions, V)``; the positions and ``V`` serve Kane's method.
    """
    return dense_system(n, random.Random(SEED * 100 + n), _term, (_POSITION, _POTENTIAL, _CONSTRAINT))


def dense_system(
    n: int,
    rng: random.Random,
    term: Callable[[random.Random, list[sp.Symbol], tuple[str, ...]], sp.Expr],
    kinds: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]],
    lead: Callable[[random.Random, list[sp.Symbol]], sp.Expr] = lambda rng, q: sp.S.One,
) -> tuple[fr.Lagrangian, fr.LinearConstraints, int, list[sp.Expr], sp.Expr]:
    """The construction of :func:`random_system` with the terms drawn by ``term(rng, q, kinds)`` (``kinds``: those of
    the positions, the potential and the constraints) and ``lead(rng, q)`` the coefficient of ``u_{m+a}`` in
    constraint ``a`` (never zero): ``benchmarks/swell.py`` draws its compound-angle systems with it."""
    position, potential, constraint = kinds
    ch = fr.Chart(" ".join(f"q{i + 1}" for i in range(n)))
    q = list(ch.q)
    r = min(3, n - 2)
    m = n - r
    pos = [term(rng, q, position) + term(rng, q, position) for _ in range(n)]
    V = sum((term(rng, q, potential) for _ in range(3)), sp.S.Zero)
    Ju = sp.Matrix(pos).jacobian(q) * sp.Matrix(ch.u)
    L = fr.Lagrangian(ch, (Ju.dot(Ju) + sum(ui**2 for ui in ch.u)) / 2 - V)
    rows = []
    for a in range(r):
        row = [term(rng, q, constraint) for _ in range(m)] + [sp.S.Zero] * r
        row[m + a] = lead(rng, q)
        for b in range(a + 1, r):
            if rng.random() < 0.5:
                row[m + b] = term(rng, q, constraint)
        rows.append(row)
    return L, fr.LinearConstraints(ch, rows), m, pos, V


def _random_model(n: int, frame: fr.Frame | None = None) -> fr.models.Model:
    """The :class:`Model` of :func:`random_system` (adapted frame computed unless given)."""
    L, cons, m, _pos, _V = random_system(n)
    ch = L.chart
    frame = cons.adapted_frame() if frame is None else frame
    q0 = {qi: round(0.1 * (i + 1), 1) for i, qi in enumerate(ch.q)}
    X1 = frame.fields[0].components  # u0 = X1(q0) lies in D
    u0 = {ui: float(sp.sympify(c).subs(q0)) for ui, c in zip(ch.u, X1, strict=True)}
    return fr.models.Model(f"random-n{n}", ch, L, frame, m, cons, {}, q0=q0, u0=u0, citation=f"seed {SEED * 100 + n}")


def build(case: str) -> fr.models.Model:
    """``kK``, ``carriage``, ``particle`` (catalogue) or ``randN`` (:func:`random_system`)."""
    return _random_model(int(case.removeprefix("rand"))) if case.startswith("rand") else build_catalogue(case)


def label(case: str) -> str:
    if case.startswith("rand"):
        n = int(case.removeprefix("rand"))
        return f"random n={n} (r={min(3, n - 2)})"
    if case == "bicycle":
        return "Whipple bicycle (n=8, m=3)"
    if case.startswith("k"):
        k = int(case.removeprefix("k"))
        return f"abelian_chaplygin k={k} (n={k + 2})"
    return "two-wheeled carriage (n=5)"


# ------------------------------------------------------------------ frames
def _system_timed(case: str) -> tuple[fr.NonholonomicSystem, float]:
    """The system of ``case`` and the time its clock started: for the random systems the adapted frame is part
    of the library's work and is timed; the bicycle's import is not (it is reported)."""
    if case == "bicycle":
        mdl = fr.from_mechanics(whipple_bicycle(), name="whipple-bicycle")
        L, m, t0 = mdl.lagrangian, mdl.m, time.perf_counter()
        frame = mdl.frame
    elif case.startswith("rand"):
        L, cons, m, _pos, _V = random_system(int(case.removeprefix("rand")))
        t0 = time.perf_counter()
        frame = cons.adapted_frame()
    else:
        mdl = build(case)
        L, m, t0 = mdl.lagrangian, mdl.m, time.perf_counter()
        frame = mdl.frame
    return fr.NonholonomicSystem(L, frame, m), t0


def run_frames(case: str) -> dict:
    """The default path: ``accelerations()`` as a user calls it (no ``canonical=`` argument)."""
    nh, t0 = _system_timed(case)
    nh.accelerations()
    return {"time": time.perf_counter() - t0}


def run_fast(case: str) -> dict:
    """The fast path: ``field(canonical=False)`` and ``accelerations(canonical=False)`` (exact trees, as SymPy's
    unsimplified equations). The bicycle: its model imported by ``from_mechanics`` first (not timed, reported)."""
    t_import = time.perf_counter()
    nh, t0 = _system_timed(case)
    nh.field(canonical=False)
    nh.accelerations(canonical=False)
    out = {"time": time.perf_counter() - t0}
    return out | {"import": t0 - t_import} if case == "bicycle" else out


def _kane_bicycle() -> dict:
    """SymPy's bicycle: ``KanesMethod`` (the model built), ``kanes_equations()`` and ``rhs()``, unsimplified."""
    t0 = time.perf_counter()
    whipple_bicycle().rhs()
    return {"time": time.perf_counter() - t0, "timeout": _limit(), "tidy_time": None}


def run_analyze(case: str, jobs: int = 1) -> dict:
    t0 = time.perf_counter()
    try:
        fr.analyze(build(case), budget=_limit(), jobs=jobs)
    except fr.errors.BudgetExceededError as exc:
        return {"time": None, "timeout": _limit(), "step": str(exc.step)}
    return {"time": time.perf_counter() - t0}


def command_times(case: str, jobs: tuple[str, ...] = ("auto", "1"), runs: int = 5) -> dict[str, float]:
    """Median wall time of the command ``frames analyze CASE --jobs J`` for each ``J`` (a fresh interpreter each
    run: start, ``import frames``, the analysis and the printing, output discarded), the settings alternating run
    by run so that a drift of the machine's speed affects them alike; after a warm-up run of each."""
    script = Path(sys.executable).with_name("frames")
    cmd = (
        [str(script)]
        if script.exists()
        else [sys.executable, "-c", "import sys; from frames.app import console; console()"]
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # as a user's: bytecode cached
    times: dict[str, list[float]] = {j: [] for j in jobs}
    for i in range(runs + 1):  # the first round (writing the bytecode caches) is a warm-up
        for j in jobs:
            t0 = time.perf_counter()
            subprocess.run([*cmd, "analyze", case, "--jobs", j], check=True, stdout=subprocess.DEVNULL, env=env)
            if i:
                times[j].append(time.perf_counter() - t0)
    return {j: statistics.median(ts) for j, ts in times.items()}


# ------------------------------------------------------------------ SymPy
def _lagrange(mdl: fr.models.Model, case: str) -> tuple[list[sp.Expr], Callable[[sp.Expr], sp.Expr]]:
    """``rhs()`` of ``LagrangesMethod`` with ``nonhol_coneqs``: q̈ (functions of t), and the way back to the chart."""
    from sympy.physics import mechanics as me

    ch = mdl.chart
    sub, qf, qd, t = to_dynamic(ch)
    LM = me.LagrangesMethod(
        mdl.lagrangian.expr.xreplace(sub), qf, nonhol_coneqs=[c.xreplace(sub) for c in mdl.constraints.functions]
    )
    LM.form_lagranges_equations()
    rhs = LM.rhs()
    return list(rhs[ch.dim : 2 * ch.dim]), lambda e: from_dynamic(e, ch, qf, qd, t)


def _kane_loads(case: str, mdl: fr.models.Model, qf: list, N, O) -> tuple[list, list]:
    """Bodies and loads: those of ``benchmarks/nonholonomic.py``, or for a random system unit particles
    at ``q_i N.x`` (carrying ``−∂V/∂q_i``) and particles at the positions ``x(q)``, three coordinates each."""
    from sympy.physics import mechanics as me

    bodies = _kane_bodies(
        case, mdl, qf, N, O
    )  # the random systems' particles q_i N.x come from abelian_chaplygin's branch
    if not case.startswith("rand"):
        return bodies, []
    _L, _cons, _m, pos, V = random_system(mdl.n)
    back = dict(zip(mdl.chart.q, qf, strict=True))
    pos = [x.xreplace(back) for x in pos] + [sp.S.Zero] * (-len(pos) % 3)
    for j in range(0, len(pos), 3):
        P = O.locatenew(f"X{j // 3}", pos[j] * N.x + pos[j + 1] * N.y + pos[j + 2] * N.z)
        P.set_vel(N, P.pos_from(O).dt(N))
        bodies.append(me.Particle(f"x{j // 3}", P, 1))
    Vt = V.xreplace(back)
    loads = [(bodies[i].masscenter, -sp.diff(Vt, qi) * N.x) for i, qi in enumerate(qf)]
    return bodies, loads


def _kane(mdl: fr.models.Model, case: str) -> tuple[list[sp.Expr], Callable[[sp.Expr], sp.Expr]]:
    """``rhs()`` of ``KanesMethod`` with dependent speeds ``w = q̇``: q̈ = ẇ, and the way back to the chart."""
    from sympy.physics import mechanics as me

    ch, n, m = mdl.chart, mdl.n, mdl.m
    _sub, qf, qd, t = to_dynamic(ch)
    ws = [sp.Function(f"w{i + 1}")(t) for i in range(n)]
    N, O = me.ReferenceFrame("N"), me.Point("O")
    O.set_vel(N, 0)
    bodies, loads = _kane_loads(case, mdl, qf, N, O)
    on_w = dict(zip(ch.u, ws, strict=True)) | dict(zip(ch.q, qf, strict=True))
    KM = me.KanesMethod(
        N,
        q_ind=qf,
        u_ind=ws[:m],
        u_dependent=ws[m:],
        kd_eqs=[qd[i] - ws[i] for i in range(n)],
        velocity_constraints=[c.xreplace(on_w) for c in mdl.constraints.functions],
    )
    KM.kanes_equations(bodies, loads)
    rhs = KM.rhs()
    to_u = dict(zip(ws, ch.u, strict=True))
    return list(rhs[n : 2 * n]), lambda e: from_dynamic(e.xreplace(to_u), ch, qf, qd, t)


def staged(method: Callable, case: str) -> dict:
    """SymPy's q̈ without simplification (``time``), then with ``tidy`` (``tidy_time``, the total).

    Under the subprocess's alarm: a stage cut off by it is reported as a time-out.
    """
    mdl = build(case)
    out: dict = {"time": None, "timeout": _limit(), "tidy_time": None}
    t0 = time.perf_counter()
    try:
        acc, back = method(mdl, case)
        out["time"] = time.perf_counter() - t0
        for e in acc:
            tidy(back(e))
        out["tidy_time"] = time.perf_counter() - t0
    except _Timeout:
        pass
    return out


def run_anholonomy(_case: str) -> dict:
    """``frame.anholonomy`` (coframe included) for the n = 24 frame of ``anholonomy.py`` (seed 0, default density)."""
    rng = random.Random(0)
    frames_ = {n: random_frame(n, rng, 0.0) for n in (4, 8, 12, 16, 24)}  # the draws of its default run
    t0 = time.perf_counter()
    _ = frames_[24].anholonomy
    return {"time": time.perf_counter() - t0}


RUNNERS: dict[str, Callable[[str], dict]] = {
    "frames": run_frames,
    "fast": run_fast,
    "analyze": run_analyze,
    "analyze2": lambda case: run_analyze(case, jobs=2),
    "lagrange": lambda case: staged(_lagrange, case),
    "kane": lambda case: _kane_bicycle() if case == "bicycle" else staged(_kane, case),
    "anholonomy": run_anholonomy,
}


def measure(method: str, case: str, timeout: float) -> dict:
    """One measurement in a fresh subprocess; it stops itself at ``timeout``, the parent kills it later."""
    r = in_subprocess(SCRIPT, method, case, timeout + GRACE)
    if "timeout" in r:
        r["timeout"] = timeout
    return r


def cold_start(module: str, runs: int = 5) -> float:
    """Median wall time of ``python -c "import module"`` over ``runs`` fresh interpreters."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", f"import {module}"], check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


# ------------------------------------------------------------------ report
COLUMNS = (
    "frames q̈",
    "frames fast",
    "frames analyze",
    "frames analyze, 2 processes",
    "Lagrange",
    "Lagrange + tidy",
    "Kane",
    "Kane + tidy",
)
HEAD = (
    "| system | frames q̈ (default path) | frames field + q̈, fast path | frames analyze | frames analyze, 2 processes "
    "| Lagrange (no simplification) | Lagrange + tidy "
    "| Kane (no simplification) | Kane + tidy | Lagrange ÷ frames | Lagrange+tidy ÷ frames "
    "| Kane ÷ frames | Kane+tidy ÷ frames | Lagrange ÷ fast path | Kane ÷ fast path |"
)


def _tidied(r: dict) -> dict:
    """The ``+ tidy`` stage of a staged SymPy result as a result of its own."""
    if "error" in r or r.get("time") is None:
        return r
    return (
        {"time": r.get("tidy_time"), "timeout": r["timeout"]}
        if r.get("tidy_time") is None
        else {"time": r["tidy_time"]}
    )


def row(case: str, timeout: float) -> dict[str, dict]:
    if case == "bicycle":  # the default and fast paths against KanesMethod only (see the module docstring)
        skip = {"time": None, "skipped": True}
        return (
            dict.fromkeys(COLUMNS, skip)
            | {"frames q̈": measure("frames", case, timeout)}
            | {"frames fast": measure("fast", case, timeout)}
            | {"Kane": measure("kane", case, timeout)}
        )
    lag, kane = (measure(m, case, timeout) for m in ("lagrange", "kane"))
    return {
        "frames q̈": measure("frames", case, timeout),
        "frames fast": measure("fast", case, timeout),
        "frames analyze": measure("analyze", case, timeout),
        "frames analyze, 2 processes": measure("analyze2", case, timeout),
        "Lagrange": lag,
        "Lagrange + tidy": _tidied(lag),
        "Kane": kane,
        "Kane + tidy": _tidied(kane),
    }


def _cell(r: dict) -> str:
    return "—" if r.get("skipped") else fmt_t(r)


def line(case: str, res: dict[str, dict]) -> str:
    f, fast = res["frames q̈"], res["frames fast"]
    times = " | ".join(_cell(res[c]) for c in COLUMNS)
    ratios = " | ".join(speed(res[c], f) for c in COLUMNS[4:])
    fast_ratios = " | ".join(speed(res[c], fast) for c in ("Lagrange", "Kane"))
    return f"| {label(case)} | {times} | {ratios} | {fast_ratios} |"


def _le(a: dict, b: dict) -> bool:
    """``a`` finished and took no longer than ``b`` (which may have timed out)."""
    if a.get("time") is None:
        return False
    return "timeout" in b if b.get("time") is None else b["time"] >= a["time"]


def targets(results: dict[str, dict[str, dict]], anh: dict, cmd: dict[str, float] | None = None) -> list[str]:
    out = []
    car = results.get("carriage")
    if car:
        t, t2 = car["frames analyze"], car["frames analyze, 2 processes"]
        ok = t2.get("time") is not None and t2["time"] <= 3.0
        out.append(
            f"- `frames analyze two-wheeled-carriage` ≤ 3 s: {'met' if ok else 'NOT met'} in-process "
            f"({fmt_t(t2)} with 2 processes, the command's default; {fmt_t(t)} in one)"
        )
        if cmd:
            ok = all(v <= 3.0 for v in cmd.values())
            out.append(
                f"  the command itself, wall clock (interpreter, import, analysis, printing; median of 5): "
                f"{cmd['auto']:.2f} s by default, {cmd['1']:.2f} s with --jobs 1: {'met' if ok else 'NOT met'}"
            )
    for kind in ("", " + tidy"):
        slower = [
            label(c).split(" (")[0]
            for c, res in results.items()
            if c.startswith("k") and not all(_le(res["frames q̈"], res[s + kind]) for s in ("Lagrange", "Kane"))
        ]
        verdict = "met" if not slower else "NOT met at " + ", ".join(slower)
        out.append(
            f"- frames q̈ (default path) no slower than SymPy (Lagrange and Kane{kind or ', no simplification'}) on the "
            f"§7.1 class: {verdict}"
        )
    # the default path (what users get) and the fast path against SymPy without simplification, on every system
    counted = [c for c in results if c.startswith(("k", "rand")) or c in ("carriage", "bicycle")]
    kinds = sorted({"random" if c.startswith("rand") else "§7.1" if c.startswith("k") else c for c in counted})
    scope = f"{len(counted)} systems ({', '.join(kinds)}; {sum(c.startswith('rand') for c in counted)} random)"
    slower = [
        label(c).split(" (")[0]
        for c in counted
        if not all(
            _le(results[c]["frames q̈"], results[c][s]) for s in ("Lagrange", "Kane") if not results[c][s].get("skipped")
        )
    ]
    out.append(
        f"- frames q̈ (default path, as users call it) no slower than SymPy without simplification on all {scope}: "
        + ("met" if not slower else "NOT met at " + ", ".join(slower))
    )
    slower = [
        label(c).split(" (")[0]
        for c in counted
        if not all(
            _le(results[c]["frames fast"], results[c][s])
            for s in ("Lagrange", "Kane")
            if not results[c][s].get("skipped")
        )
    ]
    out.append(
        f"- frames field + q̈ (fast path) no slower than SymPy without simplification on all {scope}: "
        + ("met" if not slower else "NOT met at " + ", ".join(slower))
    )
    rand = {c: res["frames analyze"] for c, res in results.items() if c.startswith("rand") and int(c[4:]) <= 5}
    if rand:
        late = [label(c) for c, r in rand.items() if r.get("time") is None or r["time"] > 60.0]
        measured = ", ".join(c[4:] for c in rand)
        missing = [n for n in range(3, 6) if f"rand{n}" not in rand]
        scope = f" (measured here: n = {measured}" + (
            f"; n = {', '.join(map(str, missing))} not run)" if missing else ")"
        )
        out.append(
            f"- random systems up to n = 5 analysed within 60 s: "
            f"{('met' if not missing else 'met for the n measured') if not late else 'NOT met: ' + ', '.join(late)}"
            + scope
        )
    ok = anh.get("time") is not None and anh["time"] <= 1.0
    out.append(f"- anholonomy at n = 24 ≤ 1 s: {'met' if ok else 'NOT met'} ({fmt_t(anh)})")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timeout", type=float, default=120.0, help="limit of each measurement, seconds")
    ap.add_argument("--ks", type=int, nargs="+", default=[1, 2, 3, 4, 8, 16, 32], help="abelian_chaplygin sizes k")
    ap.add_argument("--quick", action="store_true", help="smoke run: k = 1, 2, 4, the carriage, random n = 3, 4")
    ap.add_argument("--one", nargs=2, metavar=("METHOD", "CASE"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        method, case = args.one
        if method != "anholonomy":  # warm-up on another system: exclude import and cold-cache costs
            RUNNERS[method]("particle")
        signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, _limit() + (5.0 if method == "analyze" else 0.0))  # analyze: budget first
        try:
            res = RUNNERS[method](case)
        except _Timeout:
            res = {"time": None, "timeout": _limit()}
        print(json.dumps(res))
        return
    os.environ[TIMEOUT_ENV] = str(args.timeout)
    ks, ns = (QUICK["ks"], QUICK["random"]) if args.quick else (args.ks, list(RANDOM_NS))
    cases = [f"k{k}" for k in ks] + ["carriage"] + [f"rand{n}" for n in ns] + ([] if args.quick else ["bicycle"])
    print(f"# frames {fr.__version__}, sympy {sp.__version__}, Python {sys.version.split()[0]}, {os.cpu_count()} cores")
    print(f"# limit {args.timeout:.0f} s per measurement; ratios are SymPy time ÷ frames q̈ (default path) time\n")
    print(HEAD)
    print("|---" * 15 + "|", flush=True)
    results = {}
    for case in cases:
        results[case] = row(case, args.timeout)
        print(line(case, results[case]), flush=True)
    print()
    if "bicycle" in results and "import" in results["bicycle"]["frames fast"]:
        imp_t = results["bicycle"]["frames fast"]["import"]
        print(f"- Whipple bicycle: from_mechanics (not in the fast-path column): {imp_t:.1f} s")
    for case, res in results.items():
        for col, r in res.items():
            if "error" in r or "step" in r:
                print(f"- {label(case)}, {col}: {r.get('error') or 'budget ran out in ' + r['step']}")
    imp = {mod: cold_start(mod) for mod in ("frames", "sympy")}
    print(f"\ncold start (median of 5): import frames {imp['frames']:.2f} s, import sympy {imp['sympy']:.2f} s")
    anh = measure("anholonomy", "n24", args.timeout)
    print(f"object of anholonomy, n = 24 (benchmarks/anholonomy.py, seed 0, coframe included): {fmt_t(anh)}\n")
    cmd = command_times("two-wheeled-carriage") if "carriage" in results else None
    if cmd:
        print(
            f"`frames analyze two-wheeled-carriage` (the command, wall clock, median of 5, alternating): {cmd['auto']:.2f} s "
            f"(default, --jobs auto), {cmd['1']:.2f} s (--jobs 1)\n"
        )
    print("targets:")
    print("\n".join(targets(results, anh, cmd)))


if __name__ == "__main__":
    main()
