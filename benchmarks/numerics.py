"""Numerics benchmark: generated right-hand sides, batches and backends against SymPy mechanics and scipy.

Prints three ratios, with the same solver and tolerances on both sides:

1. right-hand-side evaluations per second: the code ``frames`` generates (sympy.cse + code generation)
   against a SymPy-mechanics-derived, lambdified RHS (``LagrangesMethod`` with ``nonhol_coneqs``) of the
   same model: ``lambdify(LM.rhs(), cse=True)`` (chaplygin sleigh) and ``lambdify`` of ``mass_matrix_full`` /
   ``forcing_full`` followed by ``numpy.linalg.solve`` (sleigh and two-wheeled carriage);
2. trajectories per second for many initial conditions of the chaplygin sleigh: one vectorised, lock-step
   adaptive RK45 run (:func:`frames.integrate` with 2-d initial data) against a loop of per-trajectory
   ``scipy.integrate.solve_ivp(method="RK45")`` calls (with the frames-generated RHS, the fastest per-call RHS);
3. the constraint residual ``max_t dist(u, D_q)`` (Euclidean distance of u from D) over ``[0, T]``, T = 1000: reduced form ``(q, v^α)`` against the
   natural-coordinate multiplier form ``(q, u)``, both ``solve_ivp`` RK45 at the same rtol/atol;
4. the backends side by side, on 10⁴ initial conditions of the sleigh and of Pastore's coin, in one
   run: the NumPy batch (lock-step RK45), the numba batch (``backend="numba"``: jitted RHS and per-member
   Dormand–Prince 5(4), members in ``prange``), a ``solve_ivp`` loop with the frames RHS and a ``solve_ivp`` loop
   with SymPy mechanics' ``lambdify(LM.rhs(), cse=True)``; trajectories/s, RHS evaluations/s (during the
   integration: the NumPy batch counts one evaluation per member and batch call), wall and CPU seconds (CPU
   time shows how much of the machine the run had), and the ratio numba batch / NumPy batch with the jit
   compile time printed apart and not counted.

5. the time to the first trajectory of the car with a trailer (``examples/compound_angles.py``), each side in a
   fresh subprocess, RK45 at the same rtol/atol, the same initial data in D and the same output times: frames
   (``NonholonomicSystem.from_constraints`` then :func:`frames.integrate`; the energy and the multipliers are
   generated when first read, timed apart) against SymPy's route (``LagrangesMethod(L, q, nonhol_coneqs=...)``,
   ``form_lagranges_equations()``, ``lambdify(..., cse=True)`` of ``mass_matrix_full`` and ``forcing_full``, then
   ``solve_ivp`` with ``numpy.linalg.solve``; no simplification of ours enters it). Excluded on both sides, the
   same way: the imports, and the model's expressions (the Lagrangian and the constraint rows, built by
   ``car_with_trailers_parts``; for SymPy translated to dynamicsymbols). Best of ``--repeat`` fresh processes.

Targets: (1) ≥ 1, (2) ≥ 10, (3) ≥ 1e4, (4) numba / NumPy batch ≥ 10, (5) frames / SymPy ≤ 2.

Run: ``python benchmarks/numerics.py`` (``--quick`` for a smoke run; ``--backends`` for items 2 and 4 only;
``--first-trajectory`` for item 5 only; ``--n-ics`` and ``--loop`` to change the batch size and the number of trajectories timed in the loops; the
loop rates are per trajectory, so timing a subset of the initial conditions does not change them).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import sympy as sp
from scipy.integrate import solve_ivp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import frames as fr
from frames import models


def _rate(f, args_list, min_time=0.5):
    """Calls per second of f(*args) cycling through args_list."""
    n = 0
    k = len(args_list)
    t0 = time.perf_counter()
    while True:
        for _ in range(200):
            f(*args_list[n % k])
            n += 1
        dt = time.perf_counter() - t0
        if dt > min_time:
            return n / dt


def mechanics_rhs(mdl, with_rhs: bool):
    """SymPy mechanics: LagrangesMethod with nonhol_coneqs, lambdified (state (q, q̇) and params)."""
    from sympy.physics.mechanics import LagrangesMethod, dynamicsymbols

    ch = mdl.chart
    n = ch.dim
    qs = dynamicsymbols(" ".join(f"bq{i}" for i in range(n)))
    t = dynamicsymbols._t
    qds = [qi.diff(t) for qi in qs]
    sub = dict(zip(ch.q, qs, strict=True)) | dict(zip(ch.u, qds, strict=True))
    L = mdl.lagrangian.expr.xreplace(sub)
    cons = [c.xreplace(sub) for c in mdl.constraints.functions]
    t0 = time.perf_counter()
    LM = LagrangesMethod(L, qs, nonhol_coneqs=cons)
    LM.form_lagranges_equations()
    params = list(ch.params)
    out = {}
    Mf = sp.lambdify([*qs, *qds, *params], LM.mass_matrix_full, cse=True)
    Ff = sp.lambdify([*qs, *qds, *params], LM.forcing_full, cse=True)

    def solve_rhs(t, y, p):
        a = (*y, *p)
        return np.linalg.solve(Mf(*a), Ff(*a))[: 2 * n, 0]

    out["M_full/forcing_full + numpy.linalg.solve"] = solve_rhs
    if with_rhs:
        R = sp.lambdify([*qs, *qds, *params], LM.rhs(), cse=True)

        def rhs(t, y, p):
            return R(*y, *p)[: 2 * n, 0]

        out["lambdify(LM.rhs(), cse=True)"] = rhs
    return out, time.perf_counter() - t0


def bench_rhs(name, mdl, nh, with_rhs, quick):
    print(f"\n[1] RHS evaluations per second: {name}")
    pv = mdl.param_values
    t0 = time.perf_counter()
    red = fr.numeric.CompiledSystem(fr.ode_system(nh))
    nat = fr.numeric.CompiledSystem(fr.ode_system(nh, form="multiplier"))
    t_ours = time.perf_counter() - t0
    base, t_mech = mechanics_rhs(mdl, with_rhs)
    print(f"    setup: frames field + codegen {t_ours:.2f} s (field cached), sympy.mechanics {t_mech:.2f} s")
    rng = np.random.default_rng(0)
    n = mdl.n
    p = nat.bind(pv)
    pm = [float(pv[s]) for s in mdl.chart.params]
    Y = [np.concatenate([rng.normal(size=n), rng.normal(size=n)]) for _ in range(64)]
    # same natural states, projected to D for the reduced form
    fn = nat.fun(p)
    fr_ = red.fun(red.bind(pv))
    yr = []
    for y in Y:
        q, u = y[:n], y[n:]
        u = red.project("euclidean", 0.0, q, u, red.bind(pv))
        yr.append(red.initial_state(0.0, q, u, np.zeros(0), red.bind(pv)))
    # check the baselines agree with ours on the multiplier form (q, u) -> (u, q̈) on D
    for y, y_red in zip(Y[:4], yr[:4], strict=True):
        yy = np.concatenate([y[:n], red.observe(np.array([0.0]), y_red.reshape(-1, 1), red.bind(pv))["u"][:, 0]])
        ours = fn(0.0, yy)
        for f in base.values():
            np.testing.assert_allclose(f(0.0, yy, pm), ours, rtol=1e-9, atol=1e-9)
    mt = 0.2 if quick else 1.0
    r_nat = _rate(fn, [(0.0, y) for y in Y], mt)
    r_red = _rate(fr_, [(0.0, y) for y in yr], mt)
    print(f"    frames multiplier form (q, u):   {r_nat:12,.0f} evals/s")
    print(f"    frames reduced form (q, v^α):    {r_red:12,.0f} evals/s")
    ratios = []
    for label, f in base.items():
        r = _rate(f, [(0.0, y, pm) for y in Y], mt)
        ratios.append(r_nat / r)
        print(f"    sympy.mechanics {label}: {r:12,.0f} evals/s  -> ratio (frames multiplier form) {r_nat / r:6.2f}x")
    # batched evaluation (frames only: lambdified matrices do not broadcast)
    B = 10_000
    Yb = rng.normal(size=(nat.system.n_state, B))
    fb = nat.fun_batch(p)
    r_b = _rate(fb, [(0.0, Yb)], mt) * B
    print(f"    frames multiplier form, batch of {B}: {r_b:12,.0f} state evaluations/s")
    return min(ratios)


def _timed(f):
    """``(result, wall seconds, CPU seconds of this process)`` of ``f()``."""
    c0, t0 = time.process_time(), time.perf_counter()
    r = f()
    return r, time.perf_counter() - t0, time.process_time() - c0


def bench_backends(label, mdl, q0, u0, T, n_loop, rtol=1e-8, atol=1e-10):
    """Side by side on the same initial conditions, RK45 at the same rtol/atol everywhere.

    numpy batch (lock-step DP5(4)), numba batch (per-member DP5(4), jitted RHS; jit compile timed apart),
    a loop of ``solve_ivp`` with the frames-generated RHS, and a loop of ``solve_ivp`` with
    ``lambdify(LM.rhs(), cse=True)`` of SymPy mechanics (``LagrangesMethod`` with ``nonhol_coneqs``). The
    loops are timed on the first ``n_loop`` initial conditions; their rates are per trajectory.
    Returns ``{row: (trajectories/s, RHS evaluations/s)}`` and the jit compile time (None without numba).
    """
    from frames.numeric._numba import numba_available

    nh = mdl.nonholonomic()
    pv = mdl.param_values
    n_ics = len(q0)
    comp = fr.numeric.CompiledSystem(fr.ode_system(nh))
    p = comp.bind(pv)
    kw = dict(params=pv, rtol=rtol, atol=atol, t_eval=[0, T])
    print(
        f"\n[4] backends side by side: {label}, {n_ics} initial conditions, T = {T:g}, RK45 rtol={rtol:g} atol={atol:g}"
    )
    rows = {}
    b, tb, cb = _timed(lambda: fr.integrate(nh, (0, T), q0, u0, **kw))
    rows["numpy batch (lock-step)"] = (n_ics, tb, cb, b.info["nfev"] * n_ics, b.q[:, -1])
    t_jit = None
    if numba_available():
        from frames.numeric import _numba

        first = "drive" not in _numba._KERNELS
        _, t_jit, _ = _timed(lambda: fr.integrate(nh, (0, T), q0[:2], u0[:2], backend="numba", **kw))
        jit_what = "driver + RHS" if first else "RHS only: the driver was compiled earlier in this process"
        bn, tn, cn = _timed(lambda: fr.integrate(nh, (0, T), q0, u0, backend="numba", **kw))
        rows["numba batch (per member)"] = (n_ics, tn, cn, bn.info["nfev"], bn.q[:, -1])
    fun = comp.fun(p)

    def loop_frames():
        nfev, qT = 0, []
        for j in range(n_loop):
            y0 = comp.initial_state(0.0, q0[j], u0[j], np.zeros(0), p)
            sol = solve_ivp(fun, (0, T), y0, method="RK45", rtol=rtol, atol=atol, t_eval=[0, T])
            nfev += sol.nfev
            qT.append(comp.observe(np.array([T]), sol.y[:, -1:], p)["q"][:, 0])
        return nfev, np.array(qT)

    (nf, qT), tl, cl = _timed(loop_frames)
    rows["solve_ivp loop, frames RHS"] = (n_loop, tl, cl, nf, qT)
    base, t_mech = mechanics_rhs(mdl, True)
    lam = base["lambdify(LM.rhs(), cse=True)"]
    pm = [float(pv[s_]) for s_ in mdl.chart.params]
    n = mdl.chart.dim

    def loop_sympy():
        nfev, qT = 0, []
        for j in range(n_loop):
            y0 = np.concatenate([q0[j], u0[j]])
            sol = solve_ivp(lambda t, y: lam(t, y, pm), (0, T), y0, method="RK45", rtol=rtol, atol=atol, t_eval=[0, T])
            nfev += sol.nfev
            qT.append(sol.y[:n, -1])
        return nfev, np.array(qT)

    (nf, qT), ts, cs = _timed(loop_sympy)
    rows["solve_ivp loop, SymPy lambdify(cse=True)"] = (n_loop, ts, cs, nf, qT)
    ref = b.q[:, -1]
    rate_np = n_ics / tb
    if t_jit is not None:
        print(f"    (SymPy mechanics setup {t_mech:.2f} s; numba jit compile {t_jit:.1f} s ({jit_what}), not counted)")
    print(
        f"    {'':42s} {'timed':>6s} {'wall s':>8s} {'CPU s':>7s} {'traj/s':>10s} {'RHS evals/s':>13s} "
        f"{'vs numpy batch':>14s} {'max|Δq(T)|':>10s}"
    )
    out = {}
    for name, (m, wall, cpu, nfev, qT) in rows.items():
        rate = m / wall
        out[name] = (rate, nfev / wall)
        d = float(np.max(np.abs(qT - ref[: len(qT)])))
        note = "" if m == n_ics else " *"
        print(
            f"    {name:42s} {m:6d}{note:1s}{wall:8.2f} {cpu:7.2f} {rate:10,.0f} {nfev / wall:13,.0f} "
            f"{rate / rate_np:13.2f}x {d:10.1e}"
        )
    if n_loop < n_ics:
        print(f"    * timed on the first {n_loop} initial conditions; rates per trajectory (extrapolated to {n_ics})")
    if "numba batch (per member)" in out:
        print(
            f"    numba batch / numpy batch: {out['numba batch (per member)'][0] / rate_np:.1f}x (jit compile excluded)"
        )
    return out, t_jit


def _sleigh_ics(n_ics):
    rng = np.random.default_rng(2)
    th = rng.uniform(-np.pi, np.pi, n_ics)
    q0 = np.stack([th, rng.normal(size=n_ics), rng.normal(size=n_ics)], axis=1)
    w, s = rng.uniform(-2, 2, n_ics), rng.uniform(0.2, 2, n_ics)
    return q0, np.stack([w, s * np.cos(th), s * np.sin(th)], axis=1)


def _coin_ics(mdl, n_ics):
    """Pastore's coin (Table 1): random θ0, Ω, rolling rate; velocities in D."""
    R = float(mdl.param_values[mdl.params["R"]])
    rng = np.random.default_rng(3)
    th, Om, w = rng.uniform(-np.pi, np.pi, n_ics), rng.uniform(1, 2 * np.pi, n_ics), rng.uniform(-1, 1, n_ics)
    q0 = np.stack([np.zeros(n_ics), np.zeros(n_ics), np.zeros(n_ics), th], axis=1)
    return q0, np.stack([R * np.sin(th) * w, R * np.cos(th) * w, w, Om], axis=1)


def bench_batch(quick, n_ics, n_loop):
    """Item 2 and 4 for the chaplygin sleigh, T = 10 (and a fixed-step RK4 check)."""
    mdl = models.chaplygin_sleigh()
    q0, u0 = _sleigh_ics(n_ics)
    out, t_jit = bench_backends("chaplygin sleigh", mdl, q0, u0, 10.0, n_loop)
    nh = mdl.nonholonomic()
    b = fr.integrate(nh, (0, 10), q0, u0, params=mdl.param_values, rtol=1e-8, atol=1e-10, t_eval=[0, 10])
    rk4 = fr.integrate(nh, (0, 10), q0, u0, params=mdl.param_values, method="RK4", n_steps=2000, t_eval=[0, 10])
    print(f"    (fixed-step RK4, 2000 steps: max |RK4 − RK45| final state {np.max(np.abs(rk4.state - b.state)):.1e})")
    return out, t_jit


def bench_batch_coin(n_ics, n_loop):
    """Batched vs looped trajectories for Pastore's coin (Table 1), random θ0, Ω, rolling rate; T = 2."""
    mdl = models.rolling_coin_incline()
    q0, u0 = _coin_ics(mdl, n_ics)
    return bench_backends("rolling coin (Pastore Table 1)", mdl, q0, u0, 2.0, n_loop)


def bench_residual(name, mdl, nh, T, params=None):
    print(f"\n[3] constraint residual max_t dist(u, D) over [0, {T:g}], {name}, solve_ivp RK45 rtol=1e-9 atol=1e-12")
    pv = dict(mdl.param_values) | dict(params or {})
    out = {}
    for form in ("reduced", "multiplier"):
        t0 = time.perf_counter()
        tr = fr.integrate(nh, (0, T), mdl.q0, mdl.u0, params=pv, form=form, rtol=1e-9, atol=1e-12)
        out[form] = tr
        print(
            f"    {form:10s}: max residual {tr.residual.max():.2e}, at T {tr.residual[-1]:.2e}, "
            f"energy drift {tr.energy_drift:.1e}, {time.perf_counter() - t0:.1f} s"
        )
    rr = max(out["reduced"].residual.max(), np.finfo(float).eps * 1e-3)
    ratio = out["multiplier"].residual.max() / rr
    if out["reduced"].residual.max() == 0:
        print("    (reduced residual is exactly 0.0 in floating point; ratio computed with 2.2e-19)")
    print(f"    ratio multiplier / reduced: {ratio:.1e}")
    return ratio


def _backend_summary(r2, r2k):
    for label, res in (("sleigh", r2), ("coin", r2k)):
        if res is None:
            continue
        out, t_jit = res
        np_rate = out["numpy batch (lock-step)"][0]
        for k, v in out.items():
            print(f"    {label}: {k:42s} {v[0]:10,.0f} traj/s {v[1]:14,.0f} RHS evals/s")
        ratio = (
            f"numba / numpy batch {out['numba batch (per member)'][0] / np_rate:.1f}x (jit compile {t_jit:.1f} s apart)"
            if "numba batch (per member)" in out
            else "numba not installed"
        )
        print(
            f"    {label}: numpy batch / solve_ivp loop {np_rate / out['solve_ivp loop, frames RHS'][0]:.1f}x; {ratio}"
        )


# ----------------------------------------------------------------------------- [5] time to the first trajectory
FIRST = {"T": 10.0, "rtol": 1e-8, "atol": 1e-10, "params": (1.0, 0.5, 1.0, 0.7, 0.3), "q0": (0.0, 0.0, 0.1, 0.3)}


def _trailer_parts():
    """``(Lagrangian, LinearConstraints)`` of the car with one trailer (``examples/compound_angles.py``)."""
    path = Path(__file__).resolve().parent.parent / "examples" / "compound_angles.py"
    spec = importlib.util.spec_from_file_location("compound_angles", path)
    ex = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ex)
    return ex.car_with_trailers_parts(1)


def _trailer_u0(q0, d, speed=1.0, omega=0.2):
    """Natural velocities in D at ``q0 = (x, y, θ, θ1)``: the car rolls along θ, the trailer's axle along θ1."""
    th, th1 = q0[2], q0[3]
    return (speed * np.cos(th), speed * np.sin(th), omega, speed * np.sin(th - th1) / d)


def first_trajectory_one(side):
    """One side of item 5 in this (fresh) process: ``{"time": s, ...}`` as JSON-able dict."""
    from sympy.physics.mechanics import LagrangesMethod, dynamicsymbols

    lag, cons = _trailer_parts()  # the model's expressions: excluded on both sides
    ch = lag.chart
    pv = dict(zip(ch.params, FIRST["params"], strict=True))
    q0 = FIRST["q0"]
    u0 = _trailer_u0(q0, pv[ch.params[2]])
    T, rtol, atol = FIRST["T"], FIRST["rtol"], FIRST["atol"]
    t_eval = np.linspace(0.0, T, 101)
    if side == "frames":
        t0 = time.perf_counter()
        nh = fr.NonholonomicSystem.from_constraints(lag, cons)
        tr = fr.integrate(nh, (0.0, T), q0, u0, params=pv, method="RK45", rtol=rtol, atol=atol, t_eval=t_eval)
        t1 = time.perf_counter()
        tr.multipliers, tr.energy  # noqa: B018 -- generated and evaluated on this first read
        t2 = time.perf_counter()
        return {"time": t1 - t0, "observables": t2 - t1, "qT": tr.q[-1].tolist(), "nfev": tr.info.get("nfev")}
    qs = dynamicsymbols(" ".join(f"Q{i}" for i in range(ch.dim)))
    tsym = dynamicsymbols._t
    qd = [qi.diff(tsym) for qi in qs]
    sub = dict(zip(ch.q, qs, strict=True)) | dict(zip(ch.u, qd, strict=True))
    L = lag.expr.xreplace(sub)
    rows = [c.xreplace(sub) for c in cons.functions]  # translated to dynamicsymbols: excluded, like frames' input
    t0 = time.perf_counter()
    lm = LagrangesMethod(L, qs, nonhol_coneqs=rows)
    lm.form_lagranges_equations()
    args = [*qs, *qd, *ch.params]
    M = sp.lambdify(args, lm.mass_matrix_full, cse=True)
    F = sp.lambdify(args, lm.forcing_full, cse=True)
    n = ch.dim
    p = [pv[s_] for s_ in ch.params]

    def rhs(t, y):
        a = (*y, *p)
        return np.linalg.solve(M(*a), F(*a))[: 2 * n, 0]

    sol = solve_ivp(rhs, (0.0, T), [*q0, *u0], method="RK45", rtol=rtol, atol=atol, t_eval=t_eval)
    t1 = time.perf_counter()
    return {"time": t1 - t0, "qT": sol.y[:n, -1].tolist(), "nfev": int(sol.nfev)}


def bench_first_trajectory(repeat=3):
    """Item 5: both sides, each in ``repeat`` fresh subprocesses (best time kept), and the ratio."""
    print(
        f"\n[5] time to the first trajectory: car with one trailer, RK45 rtol={FIRST['rtol']:g} atol={FIRST['atol']:g}, "
        f"t in [0, {FIRST['T']:g}], 101 output times, best of {repeat} fresh processes"
    )
    print(
        "    counted: frames NonholonomicSystem.from_constraints + integrate; SymPy LagrangesMethod + "
        "form_lagranges_equations + lambdify(mass_matrix_full, forcing_full, cse=True) + solve_ivp"
    )
    print("    excluded on both sides: imports, the model's Lagrangian and constraint rows (car_with_trailers_parts)")
    res = {}
    for side in ("frames", "sympy"):
        runs = []
        for _ in range(repeat):
            out = subprocess.run(
                [sys.executable, __file__, "--first-one", side], capture_output=True, text=True, check=True
            )
            runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
        res[side] = min(runs, key=lambda r: r["time"])
        times = ", ".join(f"{r['time']:.2f}" for r in runs)
        extra = ""
        if side == "frames":
            extra = f"; then energy + multipliers on first read {res[side]['observables']:.2f} s (not counted)"
        print(f"    {side:6s}: {res[side]['time']:6.2f} s (runs: {times} s; nfev {res[side]['nfev']}){extra}")
    dq = float(np.max(np.abs(np.subtract(res["frames"]["qT"], res["sympy"]["qT"]))))
    ratio = res["frames"]["time"] / res["sympy"]["time"]
    print(f"    ratio frames / SymPy: {ratio:.2f}x (target ≤ 2); max |Δq(T)| between the two: {dq:.1e}")
    return ratio


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--n-ics", type=int, default=10_000)
    ap.add_argument("--loop", type=int, default=200, help="trajectories timed in the solve_ivp loops")
    ap.add_argument("--backends", action="store_true", help="only the backends side by side (items 2 and 4)")
    ap.add_argument("--first-trajectory", action="store_true", help="only the time to the first trajectory (item 5)")
    ap.add_argument("--repeat", type=int, default=3, help="fresh processes per side in item 5 (best kept)")
    ap.add_argument("--first-one", choices=("frames", "sympy"), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.first_one:
        print(json.dumps(first_trajectory_one(a.first_one)))
        return
    if a.first_trajectory:
        bench_first_trajectory(a.repeat)
        return
    n_ics = 500 if a.quick else a.n_ics
    n_loop = 20 if a.quick else min(a.loop, n_ics)
    T = 50.0 if a.quick else 1000.0
    if a.backends:
        _backend_summary(bench_batch(a.quick, n_ics, n_loop), bench_batch_coin(n_ics, n_loop))
        return
    sl = models.chaplygin_sleigh()
    nhs = sl.nonholonomic()
    r1 = bench_rhs("chaplygin sleigh", sl, nhs, True, a.quick)
    r1c = None
    ca = None
    if not a.quick:
        ca = models.two_wheeled_carriage()
        nhc = ca.nonholonomic()
        r1c = bench_rhs("two-wheeled carriage", ca, nhc, False, a.quick)
    r2 = bench_batch(a.quick, n_ics, n_loop)
    r3 = bench_residual("chaplygin sleigh", sl, nhs, T)
    r3c = bench_residual("two-wheeled carriage (l = 0.1)", ca, nhc, T) if ca is not None else None
    r3k = None
    r1k = r2k = None
    if hasattr(models, "rolling_coin_incline"):  # Pastore's coin
        co = models.rolling_coin_incline()
        nhk = co.nonholonomic()
        r1k = bench_rhs("rolling coin (Table 1)", co, nhk, False, a.quick)
        r2k = bench_batch_coin(n_ics, n_loop)
        r3k = bench_residual("rolling coin (Table 1, Ω = 2π)", co, nhk, T)
    r5 = bench_first_trajectory(1 if a.quick else a.repeat)
    print(
        "\nSummary (targets: RHS ≥ 1x, batch ≥ 10x, residual ≥ 1e4, numba / numpy batch ≥ 10x, first trajectory ≤ 2x)"
    )
    print(
        f"    RHS evals/s frames / sympy.mechanics (worst baseline): sleigh {r1:.2f}x"
        + (f", carriage {r1c:.2f}x" if r1c else "")
        + (f", coin {r1k:.2f}x" if r1k else "")
    )
    _backend_summary(r2, r2k)
    print(
        f"    residual multiplier / reduced at T = {T:g}: sleigh {r3:.1e}"
        + (f", carriage {r3c:.1e}" if r3c else "")
        + (f", coin {r3k:.1e}" if r3k else "")
    )
    print(f"    time to the first trajectory frames / SymPy (car with a trailer): {r5:.2f}x")


if __name__ == "__main__":
    main()
