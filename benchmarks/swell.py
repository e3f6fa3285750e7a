"""Benchmark: the size and time of frames' results, as a user gets them, against SymPy's raw derivations (issue 42).

For each system and each result (``field()``, ``accelerations()``, ``multipliers()``) one row, side by side:

* **default**: the call exactly as a user writes it, ``nh.field()``, ``nh.accelerations()``, ``nh.multipliers()``
  (no ``canonical=`` argument);
* **canonical=True**: the canonical form on request; **canonical=False**: the fast path (``n/a`` where the
  method takes no ``canonical`` argument);
* **Lagrange**: ``LagrangesMethod(L, q, nonhol_coneqs=...)``, ``form_lagranges_equations()``, ``rhs()``;
  **Kane**: ``KanesMethod`` with dependent speeds, ``kanes_equations()``, ``rhs()`` — no simplification (a peer's
  time never includes a simplification of ours);
* ratios frames default ÷ SymPy for time and size, and the verdict against the issue's target for that row.

Sizes are :func:`frames.algebra.op_count` (``count_ops``' measure) summed over the result's elements, on both
sides; SymPy's results are first written in plain symbols (``q(t)`` → ``q``, ``q̇(t)`` → ``u``, Kane's speeds →
symbols), so that a function of time is not counted as an operation. The field and the accelerations are
compared with SymPy's q̈ (Kane: its ``u̇``, the rows of ``rhs()`` after the kinematic ones), the multipliers with
Lagrange's λ (Kane has none: with its ``rhs()``). The ``max`` of the multipliers' elements is printed under the table.
Sizes are counted up to 50 million operations (``> 50,000,000``: a lower bound, larger than any counted size).

The multipliers are not the same object on both sides: SymPy's λ is a function of ``(q, q̇)`` on all of TQ, with
the dependent velocities as free symbols; frames' are functions on the constraint manifold C, in ``(q, v^α)``, as
its API defines them. Under the table each multipliers row is therefore also compared like for like: SymPy's λ
restricted to C by substituting ``q̇ = v^α X_α`` (the D basis of frames' default frame; a substitution, no
simplification, after SymPy's clock stopped). The table's verdict is the issue's literal one (against the raw λ).

Systems:

* ``cmpN`` (N = 3…6): random systems drawn from a fixed seed (:func:`compound_system`) with the term kinds of
  ``frames.strategies.functions_on_Q(compound=True)``: ``sin(q1 − q3)``, ``cos(q2 + 2 q4)``, ``sin 2q``,
  ``exp(q/2)``, in the metric and in the constraints;
* ``randN`` (N = 3…6): ``benchmarks/engine.py``'s :func:`~benchmarks.engine.random_system`;
* ``carK`` (K = 1, 2, 3): the car with K trailers of ``examples/compound_angles.py``;
* ``rattleback``: ``benchmarks/rattleback.py`` (a ``KanesMethod``, read by ``fr.from_mechanics``);
* ``bicycle``: the Whipple bicycle of ``benchmarks/bicycle.py`` (``fr.from_mechanics``), not in ``--quick``.

frames' time includes building the system (``NonholonomicSystem.from_constraints``, the adapted frame with it) for
the systems given by L and constraints; for the two imported by ``from_mechanics`` the import is measured on its
own row (``from_mechanics``, against SymPy's ``KanesMethod`` + ``kanes_equations()``) and is not in the times of
the results. Every cell is a fresh subprocess, after a warm-up of the same method on the nonholonomic particle,
with a time limit (``--timeout``, default 120 s; ``> T s`` when exceeded). A size that could not be counted within
the limit is printed ``?`` (a SymPy result so large counts as larger than frames' counted one in the verdict).

Targets (issue 42): random systems — the default field, accelerations and multipliers no slower than Lagrange and
no larger; car with one trailer — the multipliers' elements at most 5,400 operations; cars with 2 and 3 trailers
and the rattleback — each result no larger than Kane's ``rhs()``; bicycle — the default field within 60 s, and
``from_mechanics`` no slower than 2× Kane's build with ``kanes_equations()``.

Run:  python benchmarks/swell.py [--timeout 120] [--clock wall|cpu] [--quick] [--cases cmp3 car1 ...]
      python benchmarks/swell.py --one METHOD CASE   (one measurement, JSON; limit in FRAMES_SWELL_TIMEOUT)
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import random
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import sympy as sp

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import frames as fr
from benchmarks._harness import fmt_t, in_subprocess, speed
from benchmarks.engine import dense_system, random_system
from frames.algebra import op_count
from frames.algebra.internal import tree_subs, tree_variables

SCRIPT = os.path.abspath(__file__)
TIMEOUT_ENV = "FRAMES_SWELL_TIMEOUT"
CLOCK_ENV = "FRAMES_SWELL_CLOCK"
#: the parent waits this long beyond the limit (the child stops itself at the limit unless it sits in a C call)
GRACE = 10.0
#: the systems imported by ``fr.from_mechanics`` (the import untimed), and the parent's extra wait for the import
MECHANICS = ("rattleback", "bicycle")
IMPORT_GRACE = 120.0
SEED = 42  # system cmpN is drawn from random.Random(SEED * 100 + N)
RANDOM_NS = (3, 4, 5, 6)
CASES = (
    [f"cmp{n}" for n in RANDOM_NS] + [f"rand{n}" for n in RANDOM_NS] + ["car1", "car2", "car3", "rattleback", "bicycle"]
)
QUICK = ["cmp3", "cmp4", "rand3", "rand4", "car1", "rattleback"]
RESULTS = ("field", "accelerations", "multipliers")
VARIANTS = ("default", "canonical", "fast")
CAR_ONE_LIMIT = 5400
BICYCLE_FIELD_LIMIT = 60.0


class _Timeout(BaseException):
    """SIGALRM in a measuring subprocess (a BaseException, so no ``except Exception`` swallows it)."""


def _on_alarm(signum: int, frame: object) -> None:
    raise _Timeout


def _clock() -> float:
    """The measuring clock: wall time, or with ``--clock cpu`` the process's CPU time (each measurement is one
    single-threaded subprocess, so on a loaded machine the CPU time is what it costs; the limit stays wall time)."""
    return time.process_time() if os.environ.get(CLOCK_ENV) == "cpu" else time.perf_counter()


def _limit() -> float:
    return float(os.environ.get(TIMEOUT_ENV, "120"))


# ------------------------------------------------------------------ systems given by L and constraints
@dataclass(frozen=True)
class Spec:
    """``L = ½ u^T (J^T J + I) u − V`` with ``J = ∂x/∂q`` (unit particles at ``q_i N.x`` and at the positions
    ``x(q)``, for Kane) and linear constraints whose last ``r`` velocities can be the dependent ones."""

    lagrangian: fr.Lagrangian
    constraints: fr.LinearConstraints
    m: int
    positions: tuple[sp.Expr, ...]
    potential: sp.Expr


def _angle(rng: random.Random, q: Sequence[sp.Symbol]) -> sp.Expr:
    """``k q_i + l q_j`` as ``frames.strategies.compound_angles`` draws them (``k ∈ {1, 2}``, ``l ∈ {−2…2}``)."""
    a, b = rng.sample(list(q), 2)
    ang = rng.choice((1, 2)) * a + (rng.choice((-2, -1, 1, 2)) * b if rng.random() < 0.75 else 0)
    return ang if ang != 0 else a


def _compound_term(rng: random.Random, q: Sequence[sp.Symbol], kinds: Sequence[str]) -> sp.Expr:
    c = rng.choice((1, -1, 2, -2))
    kind = rng.choice(kinds)
    a = rng.choice(list(q))
    if kind in ("sin", "cos"):  # sin(q1 − q3), cos(2 q2 + q1), …
        term = (sp.sin if kind == "sin" else sp.cos)(_angle(rng, q))
    elif kind == "double":  # sin 2q, cos 2q
        term = rng.choice((sp.sin, sp.cos))(2 * a)
    elif kind == "exp":  # exp(q/2)
        term = sp.exp(a / 2)
    elif kind == "poly_trig":  # q_i cos(k q_j + l q_k)
        term = a * rng.choice((sp.sin, sp.cos))(_angle(rng, q))
    else:
        term = sp.Integer(1) if kind == "const" else a
    return c * term


_POSITION = ("sin", "cos", "double", "exp", "poly_trig")
_POTENTIAL = ("cos", "exp", "double")
_CONSTRAINT = ("const", "lin", "sin", "cos", "double", "exp")


def compound_system(n: int) -> Spec:
    r"""A random system on ``q1 … qn`` with compound angles and exponentials (seeded: ``random.Random(4200 + n)``).

    Positions ``x(q) ∈ R^n``, each a sum of two terms among ``c sin(k q_i + l q_j)``, ``c cos(…)``, ``c sin 2q_i``,
    ``c exp(q_i/2)``, ``c q_i cos(k q_j + l q_k)``; ``V`` three terms; ``r = min(3, n − 2)`` constraints, row ``a``
    with ``exp(q_j/2)`` on ``u_{m+a}`` (never zero), such terms on the ``m`` first velocities and, half of the time,
    on the later dependent ones (so the rows are independent everywhere).
    """
    L, cons, m, pos, V = dense_system(
        n,
        random.Random(SEED * 100 + n),
        _compound_term,
        (_POSITION, _POTENTIAL, _CONSTRAINT),
        lead=lambda rng, q: sp.exp(rng.choice(q) / 2),
    )
    return Spec(L, cons, m, tuple(pos), V)


def _particle() -> Spec:
    """The nonholonomic particle (the warm-up)."""
    ch = fr.Chart("x y z")
    L = fr.Lagrangian(ch, sum(ui**2 for ui in ch.u) / 2)
    return Spec(L, fr.LinearConstraints(ch, [[-ch.q[1], 0, 1]]), 2, (), sp.S.Zero)


def _car_parts(k: int) -> tuple[fr.Lagrangian, fr.LinearConstraints]:
    """L and the constraints of ``examples/compound_angles.py``'s ``car_with_trailers(k)``."""
    return _example("compound_angles").car_with_trailers_parts(k)


@cache
def _example(name: str) -> Any:
    """The module ``examples/<name>.py``."""
    import importlib.util

    path = Path(__file__).resolve().parent.parent / "examples" / f"{name}.py"
    loader_spec = importlib.util.spec_from_file_location(f"_example_{name}", path)
    assert loader_spec is not None and loader_spec.loader is not None
    mod = importlib.util.module_from_spec(loader_spec)
    loader_spec.loader.exec_module(mod)
    return mod


def spec(case: str) -> Spec | None:
    """The :class:`Spec` of a case given by L and constraints with particles (``cmpN``, ``randN``, ``particle``)."""
    if case == "particle":
        return _particle()
    if case.startswith("cmp"):
        return compound_system(int(case[3:]))
    if case.startswith("rand"):
        L, cons, m, pos, V = random_system(int(case[4:]))
        return Spec(L, cons, m, tuple(pos), V)
    return None


def _mechanics_method(case: str) -> Any:
    """The ``KanesMethod`` (equations formed) of an imported case."""
    if case == "rattleback":
        from benchmarks.rattleback import rattleback

        return rattleback()
    from benchmarks.bicycle import bicycle

    return bicycle()


def label(case: str) -> str:
    if case.startswith("cmp"):
        n = int(case[3:])
        return f"compound n={n} (r={min(3, n - 2)})"
    if case.startswith("rand"):
        n = int(case[4:])
        return f"engine random n={n} (r={min(3, n - 2)})"
    if case.startswith("car"):
        k = int(case[3:])
        return f"car + {k} trailer{'s' if k > 1 else ''} (n={3 + k})"
    return {"rattleback": "rattleback (n=5, m=3)", "bicycle": "Whipple bicycle (n=8, m=3)"}[case]


# ------------------------------------------------------------------ frames
def _system(case: str) -> tuple[fr.NonholonomicSystem, float]:
    """The system and the time its clock started (the build is timed, except an import by ``from_mechanics``)."""
    if case in MECHANICS:
        mdl = fr.from_mechanics(_mechanics_method(case), name=case)
        if signal.getitimer(signal.ITIMER_REAL)[0] > 0:  # the limit counts from here: the import is not measured
            signal.setitimer(signal.ITIMER_REAL, _limit())
        t0 = _clock()
        return mdl.nonholonomic(), t0
    if case.startswith("car"):
        L, cons = _car_parts(int(case[3:]))
    else:
        s = spec(case)
        assert s is not None
        L, cons = s.lagrangian, s.constraints
    t0 = _clock()
    return fr.NonholonomicSystem.from_constraints(L, cons), t0


def _takes_canonical(method: Callable) -> bool:
    try:
        return "canonical" in inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False


def _elements(what: str, res: Any) -> list[sp.Expr]:
    if what == "field":
        return list(res.Gamma)
    return list(res)


def run_frames(what: str, variant: str, case: str) -> dict:
    """``nh.<what>()`` as a user calls it (``default``), or with ``canonical=True`` / ``canonical=False``."""
    nh, t0 = _system(case)
    method = getattr(nh, what)
    if variant != "default" and not _takes_canonical(method):
        return {"time": None, "na": True}
    res = method() if variant == "default" else method(canonical=variant == "canonical")
    out: dict = {"time": _clock() - t0}
    els = _elements(what, res)
    return _sized(out, lambda: _sizes(els) | (_count_ops(els) if what == "multipliers" else {}))


def _sized(out: dict, count: Callable[[], dict]) -> dict:
    """``out`` (the time) with the sizes ``count()`` gives, or marked uncounted if the limit runs out meanwhile."""
    try:
        return out | count()
    except _Timeout:
        return out | {"ops": None, "ops_timeout": True}


#: sizes are counted up to this many operations (a larger one is printed ``> …`` and is a lower bound)
COUNT_CAP = 50_000_000


def _sizes(exprs: Sequence[sp.Expr]) -> dict:
    """``ops`` (the sum of ``op_count``) and ``max`` (the largest element's); past :data:`COUNT_CAP` the count stops
    and ``capped`` marks ``ops`` as a lower bound."""
    counts = []
    for e in exprs:
        counts.append(op_count(e, limit=COUNT_CAP - sum(counts)))
        if sum(counts) > COUNT_CAP:
            return {"ops": sum(counts), "max": max(counts), "capped": True}
    return {"ops": sum(counts), "max": max(counts, default=0)}


def _count_ops(exprs: Sequence[sp.Expr], most: int = 100_000) -> dict:
    """``count_ops`` of the largest element (the issue's figures), when the elements are small enough to count."""
    if sum(op_count(e, limit=most) for e in exprs) > most:
        return {}
    return {"max_count_ops": max((int(sp.count_ops(e)) for e in exprs), default=0)}


def run_import(case: str) -> dict:
    """``fr.from_mechanics`` of the built ``KanesMethod`` (its build not timed)."""
    KM = _mechanics_method(case)
    t0 = _clock()
    fr.from_mechanics(KM, name=case)
    return {"time": _clock() - t0}


# ------------------------------------------------------------------ SymPy
def _plain(exprs: Sequence[sp.Expr]) -> list[sp.Expr]:
    """Functions of time and their derivatives as plain symbols (``q(t)`` → ``q``, ``q̇(t)`` → ``u_q``), so that
    ``op_count`` counts the operations of the result only. Each distinct sub-expression is visited once (SymPy's
    results share sub-trees: a walk of every path, as ``atoms`` or ``xreplace`` do, took 189 s at n = 5)."""
    mapping: dict[sp.Basic, sp.Symbol] = {}
    for x in tree_variables(exprs):
        if isinstance(x, sp.core.function.AppliedUndef):
            mapping[x] = sp.Symbol(x.func.__name__)
        elif isinstance(x, sp.Derivative) and isinstance(x.expr, sp.core.function.AppliedUndef):
            mapping[x] = sp.Symbol(f"u_{x.expr.func.__name__}")
    return tree_subs(exprs, mapping)


def _dynamic(ch: fr.Chart) -> tuple[dict, list, list]:
    from sympy.physics import mechanics as me

    t = me.dynamicsymbols._t
    qf = [sp.Function(str(q))(t) for q in ch.q]
    qd = [x.diff(t) for x in qf]
    return dict(zip(ch.q, qf, strict=True)) | dict(zip(ch.u, qd, strict=True)), qf, qd


def _lagrange_parts(case: str) -> tuple[fr.Lagrangian, fr.LinearConstraints]:
    if case.startswith("car"):
        return _car_parts(int(case[3:]))
    s = spec(case)
    assert s is not None
    return s.lagrangian, s.constraints


def run_lagrange(case: str) -> dict:
    """``LagrangesMethod(L, q, nonhol_coneqs=...)``, ``form_lagranges_equations()``, ``rhs()``: q̈ and λ."""
    from sympy.physics import mechanics as me

    if case in MECHANICS:
        return {"time": None, "na": True}
    L, cons = _lagrange_parts(case)
    ch = L.chart
    t0 = _clock()
    sub, qf, _qd = _dynamic(ch)
    LM = me.LagrangesMethod(L.expr.xreplace(sub), qf, nonhol_coneqs=[c.xreplace(sub) for c in cons.functions])
    LM.form_lagranges_equations()
    rhs = LM.rhs()
    out: dict = {"time": _clock() - t0}
    n = ch.dim

    def count() -> dict:
        lam_exprs = _plain(rhs[2 * n :])
        lam = _sizes(lam_exprs)
        out = _sizes(_plain(rhs[n : 2 * n])) | {"ops_mult": lam["ops"], "max_mult": lam["max"]}
        out |= {"capped_mult": True} if lam.get("capped") else _count_ops(lam_exprs)
        on_c = _sizes(tree_subs(lam_exprs, _on_C(L, cons)))
        return out | {"ops_mult_C": on_c["ops"]} | ({"capped_mult_C": True} if on_c.get("capped") else {})

    return _sized(out, count)


def _on_C(L: fr.Lagrangian, cons: fr.LinearConstraints) -> dict[sp.Symbol, sp.Expr]:
    """``u_q → (v^α X_α)^q``: SymPy's plain velocity symbols on C, in the velocities ``v^α`` of frames' default
    frame (``NonholonomicSystem.from_constraints``), the variables frames' multipliers are written in. Built after
    SymPy's clock stopped; a substitution only (no simplification)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nh = fr.NonholonomicSystem.from_constraints(L, cons)
    vel = nh.frame.velocities(nh.m)
    return {sp.Symbol(f"u_{q}"): x for q, x in zip(L.chart.q, vel, strict=True)}


def _kane_spec(s: Spec) -> Any:
    """``KanesMethod`` with the speeds ``w = q̇``, the last ``r`` dependent; unit particles at ``q_i N.x`` (carrying
    ``−∂V/∂q_i``) and at the positions ``x(q)``, three coordinates each."""
    from sympy.physics import mechanics as me

    ch = s.lagrangian.chart
    n = ch.dim
    t = me.dynamicsymbols._t
    sub, qf, qd = _dynamic(ch)
    ws = [sp.Function(f"w{i + 1}")(t) for i in range(n)]
    N, O = me.ReferenceFrame("N"), me.Point("O")
    O.set_vel(N, 0)
    bodies = []
    for i, qi in enumerate(qf):
        P = O.locatenew(f"P{i + 1}", qi * N.x)
        P.set_vel(N, P.pos_from(O).dt(N))
        bodies.append(me.Particle(f"p{i + 1}", P, 1))
    pos = [x.xreplace(sub) for x in s.positions] + [sp.S.Zero] * (-len(s.positions) % 3)
    for j in range(0, len(pos), 3):
        P = O.locatenew(f"X{j // 3}", pos[j] * N.x + pos[j + 1] * N.y + pos[j + 2] * N.z)
        P.set_vel(N, P.pos_from(O).dt(N))
        bodies.append(me.Particle(f"x{j // 3}", P, 1))
    Vt = s.potential.xreplace(sub)
    loads = [(bodies[i].masscenter, -sp.diff(Vt, qi) * N.x) for i, qi in enumerate(qf) if Vt.has(qi)]
    on_w = dict(zip(ch.u, ws, strict=True)) | dict(zip(ch.q, qf, strict=True))
    KM = me.KanesMethod(
        N,
        q_ind=qf,
        u_ind=ws[: s.m],
        u_dependent=ws[s.m :],
        kd_eqs=[qd[i] - ws[i] for i in range(n)],
        velocity_constraints=[c.xreplace(on_w) for c in s.constraints.functions],
    )
    KM.kanes_equations(bodies, loads)
    return KM


def _kane_car(k: int) -> Any:
    """The car with ``k`` trailers as rigid bodies: the car (mass ``m``, inertia ``J``) at its axle ``(x, y)``,
    trailer ``i`` (``m_t``, ``J_t``) at its axle, a distance ``d`` behind the one before; speeds ``w = q̇``, the
    independent ``ẋ, θ̇``, the dependent ``ẏ`` and the trailers' ``θ̇_i``."""
    from sympy.physics import mechanics as me

    L, cons = _car_parts(k)
    ch = L.chart
    n = ch.dim
    m, J, d, mt, Jt = ch.params
    t = me.dynamicsymbols._t
    _sub, qf, qd = _dynamic(ch)
    ws = [sp.Function(f"w{i + 1}")(t) for i in range(n)]
    N, O = me.ReferenceFrame("N"), me.Point("O")
    O.set_vel(N, 0)
    x, y, th = qf[:3]
    frames_ = [N.orientnew("C", "Axis", [th, N.z])] + [
        N.orientnew(f"T{i}", "Axis", [qf[2 + i], N.z]) for i in range(1, k + 1)
    ]
    P = O.locatenew("P", x * N.x + y * N.y)
    points = [P]
    for i in range(1, k + 1):
        ti = qf[2 + i]
        points.append(points[-1].locatenew(f"A{i}", -d * sp.cos(ti) * N.x - d * sp.sin(ti) * N.y))
    for Pt in points:
        Pt.set_vel(N, Pt.pos_from(O).dt(N))
    bodies = [me.RigidBody("car", P, frames_[0], m, (me.inertia(frames_[0], 0, 0, J), P))] + [
        me.RigidBody(f"trailer{i}", points[i], frames_[i], mt, (me.inertia(frames_[i], 0, 0, Jt), points[i]))
        for i in range(1, k + 1)
    ]
    on_w = dict(zip(ch.u, ws, strict=True)) | dict(zip(ch.q, qf, strict=True))
    dep = [1, *range(3, n)]  # ẏ and the trailers' rates
    ind = [0, 2]
    KM = me.KanesMethod(
        N,
        q_ind=qf,
        u_ind=[ws[i] for i in ind],
        u_dependent=[ws[i] for i in dep],
        kd_eqs=[qd[i] - ws[i] for i in range(n)],
        velocity_constraints=[c.xreplace(on_w) for c in cons.functions],
    )
    KM.kanes_equations(bodies, [])
    return KM


def run_kane(case: str) -> dict:
    """``KanesMethod`` (bodies, dependent speeds), ``kanes_equations()``, ``rhs()``: the rows of ``u̇``."""
    t0 = _clock()
    if case in MECHANICS:
        KM = _mechanics_method(case)
    elif case.startswith("car"):
        KM = _kane_car(int(case[3:]))
    else:
        s = spec(case)
        assert s is not None
        KM = _kane_spec(s)
    t_build = _clock() - t0
    rhs = KM.rhs()
    out: dict = {"time": _clock() - t0, "build": t_build}
    return _sized(out, lambda: _sizes(_plain(list(rhs[len(KM.q) :]))))


def _runner(method: str) -> Callable[[str], dict]:
    if method in ("lagrange", "kane", "import"):
        return {"lagrange": run_lagrange, "kane": run_kane, "import": run_import}[method]
    what, variant = method.split(":")
    return lambda case: run_frames(what, variant, case)


def one(method: str, case: str) -> dict:
    """One measurement (the subprocess side): a warm-up on the particle, then ``case`` under the alarm."""
    if method != "import":  # warm-up: exclude import and cold-cache costs
        _runner(method)("particle")
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, _limit())
    try:
        return _runner(method)(case)
    except _Timeout:
        return {"time": None, "timeout": _limit()}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def measure(method: str, case: str, timeout: float) -> dict:
    """One measurement in a fresh subprocess; it stops itself at ``timeout``, the parent kills it later."""
    extra = IMPORT_GRACE if case in MECHANICS and ":" in method else 0.0
    r = in_subprocess(SCRIPT, method, case, timeout + GRACE + extra)
    if "timeout" in r:
        r["timeout"] = timeout
    return r


# ------------------------------------------------------------------ report
def _capped(r: dict, key: str) -> bool:
    """The size under ``key`` is a lower bound (the count stopped at :data:`COUNT_CAP`)."""
    return bool(r.get("capped" + key[3:]))


def _fmt_ops(r: dict, key: str = "ops") -> str:
    if r.get("na"):
        return "n/a"
    if r.get(key) is None:
        return "?" if r.get("ops_timeout") else "—"
    return f"> {COUNT_CAP:,}" if _capped(r, key) else f"{r[key]:,}"


def _cell_t(r: dict) -> str:
    return "n/a" if r.get("na") else fmt_t(r)


def _ratio_ops(a: dict, b: dict, key_b: str = "ops") -> str:
    if a.get("ops") is None or b.get(key_b) in (None, 0) or _capped(a, "ops"):
        return "—"
    return f"{'<' if _capped(b, key_b) else ''}{a['ops'] / b[key_b]:.2f}×"


def _ratio_t(a: dict, b: dict) -> str:
    """frames ÷ SymPy in time (a lower bound ``>`` when frames ran out, an upper bound ``<`` when SymPy did)."""
    if b.get("na") or a.get("na"):
        return "—"
    if a.get("time") is not None and b.get("time") is None and "timeout" in b:
        return f"<{a['time'] / b['timeout']:.2f}×"
    return speed(a, b)


def _le_t(a: dict, b: dict) -> bool:
    if a.get("time") is None:
        return False
    return "timeout" in b if b.get("time") is None else a["time"] <= b["time"]


def _le_ops(a: dict, b: dict, key_b: str = "ops") -> bool:
    """``a`` no larger than ``b``; a SymPy result too large to be counted within the limit (``?``) or past
    :data:`COUNT_CAP` is larger than any counted one."""
    if a.get("ops") is None or _capped(a, "ops"):
        return False
    if b.get(key_b) is None:
        return bool(b.get("ops_timeout", False))
    return _capped(b, key_b) or a["ops"] <= b[key_b]


def verdict(case: str, what: str, res: dict[str, dict]) -> tuple[str, str]:
    """``(target, PASS/FAIL/—)`` for one row."""
    d, lag, kane = res[f"{what}:default"], res["lagrange"], res["kane"]
    if case.startswith(("cmp", "rand")):
        key = "ops_mult" if what == "multipliers" else "ops"
        ok = _le_t(d, lag) and _le_ops(d, lag, key)
        return "≤ Lagrange in time and size", "PASS" if ok else "FAIL"
    if case == "car1":
        if what != "multipliers":
            return "—", "—"
        ok = d.get("max") is not None and d["max"] <= CAR_ONE_LIMIT
        return f"each λ ≤ {CAR_ONE_LIMIT:,} ops", "PASS" if ok else "FAIL"
    if case in ("car2", "car3", "rattleback"):
        return "size ≤ Kane rhs()", "PASS" if _le_ops(d, kane) else "FAIL"
    if case == "bicycle" and what == "field":
        ok = d.get("time") is not None and d["time"] <= BICYCLE_FIELD_LIMIT
        return f"≤ {BICYCLE_FIELD_LIMIT:.0f} s", "PASS" if ok else "FAIL"
    return "—", "—"


HEAD = (
    "| system | result | default: time | size | canonical=True: time | size | canonical=False: time | size "
    "| Lagrange raw: time | size | Kane raw: time | size | default ÷ Lagrange: time | size "
    "| default ÷ Kane: time | size | target | verdict |"
)


def line(case: str, what: str, res: dict[str, dict]) -> str:
    d, c, f = (res[f"{what}:{v}"] for v in VARIANTS)
    lag, kane = res["lagrange"], res["kane"]
    lkey = "ops_mult" if what == "multipliers" else "ops"
    target, ok = verdict(case, what, res)
    cells = [
        label(case),
        what,
        _cell_t(d),
        _fmt_ops(d),
        _cell_t(c),
        _fmt_ops(c),
        _cell_t(f),
        _fmt_ops(f),
        _cell_t(lag),
        _fmt_ops(lag, lkey) if not lag.get("na") else "n/a",
        _cell_t(kane),
        _fmt_ops(kane),
        _ratio_t(d, lag),
        _ratio_ops(d, lag, lkey),
        _ratio_t(d, kane),
        _ratio_ops(d, kane),
        target,
        ok,
    ]
    return "| " + " | ".join(cells) + " |"


def run_case(case: str, timeout: float, results: tuple[str, ...] = RESULTS) -> dict[str, dict]:
    res = {"lagrange": measure("lagrange", case, timeout), "kane": measure("kane", case, timeout)}
    for what in results:
        for v in VARIANTS:
            res[f"{what}:{v}"] = measure(f"{what}:{v}", case, timeout)
    if case in MECHANICS:
        res["import"] = measure("import", case, timeout)
    return res


def import_verdict(case: str, res: dict[str, dict]) -> str:
    """The bicycle's target: ``from_mechanics`` no slower than 2× SymPy's ``KanesMethod`` + ``kanes_equations()``."""
    if case != "bicycle" or "import" not in res:
        return "—"
    imp, build = res["import"], res["kane"].get("build")
    return "PASS" if imp.get("time") is not None and build and imp["time"] <= 2.0 * build else "FAIL"


def notes(results: dict[str, dict[str, dict]]) -> list[str]:
    out = []
    for case, res in results.items():
        m = res["multipliers:default"]
        if m.get("max") is not None:
            lag = res["lagrange"]
            lm = f"; Lagrange's largest λ {lag['max_mult']:,}" if lag.get("max_mult") is not None else ""
            co = f" (count_ops {m['max_count_ops']:,})" if "max_count_ops" in m else ""
            lco = f" (count_ops {lag['max_count_ops']:,})" if "max_count_ops" in lag and lm else ""
            big = f"more than {COUNT_CAP:,}" if m.get("capped") else f"{m['max']:,}"
            out.append(f"- {label(case)}: largest element of the default multipliers {big} operations{co}{lm}{lco}")
            if lag.get("ops_mult_C") is not None and m.get("ops") is not None:
                ok = "PASS" if _le_ops(m, lag, "ops_mult_C") else "FAIL"
                out.append(
                    f"  - like for like, on C: frames' multipliers {m['ops']:,} operations in (q, v^α); Lagrange's λ "
                    f"{_fmt_ops(lag, 'ops_mult')} in (q, q̇) on all of TQ, {_fmt_ops(lag, 'ops_mult_C')} restricted "
                    f"to C (q̇ = v^α X_α, a substitution): {_ratio_ops(m, lag, 'ops_mult_C')} ({ok})"
                )
        if "import" in res:
            imp, build = res["import"], res["kane"].get("build")
            ratio = f" ({imp['time'] / build:.2f}×)" if imp.get("time") is not None and build else ""
            kane = f", SymPy's KanesMethod + kanes_equations() {build:.2f} s{ratio}" if build else ""
            tgt = f"; target ≤ 2×: {import_verdict(case, res)}" if case == "bicycle" else ""
            out.append(f"- {label(case)}: from_mechanics {fmt_t(imp)}{kane}{tgt}")
        for col, r in res.items():
            if "error" in r:
                out.append(f"- {label(case)}, {col}: error {r['error']}")
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timeout", type=float, default=120.0, help="limit of each measurement, seconds")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall", help="time measured (cpu: process time)")
    ap.add_argument("--quick", action="store_true", help="cmp3, cmp4, rand3, rand4, car1, rattleback (no bicycle)")
    ap.add_argument("--cases", nargs="+", choices=CASES, help="the systems (default: all)")
    ap.add_argument("--one", nargs=2, metavar=("METHOD", "CASE"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(one(*args.one)))
        return
    os.environ[TIMEOUT_ENV] = str(args.timeout)
    os.environ[CLOCK_ENV] = args.clock
    cases = args.cases or (QUICK if args.quick else CASES)
    print(f"# frames {fr.__version__}, sympy {sp.__version__}, Python {sys.version.split()[0]}, {os.cpu_count()} cores")
    print(
        f"# limit {args.timeout:.0f} s per measurement, {args.clock} clock; size = op_count summed over the elements; "
        "ratios are frames default ÷ SymPy\n"
    )
    print(HEAD)
    print("|---" * 18 + "|", flush=True)
    results = {}
    for case in cases:
        results[case] = run_case(case, args.timeout)
        for what in RESULTS:
            print(line(case, what, results[case]), flush=True)
    print()
    print("\n".join(notes(results)))
    verdicts = [verdict(c, w, r)[1] for c, r in results.items() for w in RESULTS]
    verdicts += [import_verdict(c, r) for c, r in results.items()]
    print(f"\ntargets: {verdicts.count('PASS')} PASS, {verdicts.count('FAIL')} FAIL")


if __name__ == "__main__":
    main()
