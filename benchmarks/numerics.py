"""Numerics benchmark (issue 8, acceptance item 7).

Prints three ratios, with the same solver and tolerances on both sides:

1. right-hand-side evaluations per second: the code ``frames`` generates (sympy.cse + code generation)
   against a SymPy-mechanics-derived, lambdified RHS (``LagrangesMethod`` with ``nonhol_coneqs``) of the
   same model: ``lambdify(LM.rhs(), cse=True)`` (chaplygin sleigh) and ``lambdify`` of ``mass_matrix_full`` /
   ``forcing_full`` followed by ``numpy.linalg.solve`` (sleigh and two-wheeled carriage);
2. trajectories per second for many initial conditions of the chaplygin sleigh: one vectorised, lock-step
   adaptive RK45 run (:func:`frames.integrate_batch`) against a loop of per-trajectory
   ``scipy.integrate.solve_ivp(method="RK45")`` calls (with the frames-generated RHS, the fastest per-call RHS);
3. the constraint residual ``max_t dist(u, D_q)`` (Euclidean distance of u from D) over ``[0, T]``, T = 1000: reduced form ``(q, v^α)`` against the
   natural-coordinate multiplier form ``(q, u)``, both ``solve_ivp`` RK45 at the same rtol/atol.

Targets: (1) ≥ 1, (2) ≥ 10, (3) ≥ 1e4.

Run: ``python benchmarks/numerics.py`` (``--quick`` for a smoke run; ``--n-ics`` and ``--loop`` to change the
batch size and the number of trajectories timed in the loop; the loop rate is per trajectory, so timing a
subset of the initial conditions does not change it).
"""

from __future__ import annotations

import argparse
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
    red = fr.compile_system(nh, "reduced", system=nh)
    nat = fr.compile_system(nh, "multiplier", system=nh)
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


def _numba_rows(nh, T, q0, u0, pv, rtol, atol, b, rate_b):
    """numba batch (per-member DP5(4), jitted RHS): compile time apart, then trajectories/s and the ratio."""
    from frames.numeric._numba import numba_available

    if not numba_available():
        print("    numba batch: numba not installed (pip install 'frames[numba]')")
        return None
    t0 = time.perf_counter()
    fr.integrate_batch(nh, (0, T), q0[:2], u0[:2], params=pv, rtol=rtol, atol=atol, t_eval=[0, T], backend="numba")
    tc = time.perf_counter() - t0
    t0 = time.perf_counter()
    bn = fr.integrate_batch(nh, (0, T), q0, u0, params=pv, rtol=rtol, atol=atol, t_eval=[0, T], backend="numba")
    tn = time.perf_counter() - t0
    rate_n = len(q0) / tn
    print(
        f"    numba batch (per-member DP5(4)): {tn:8.2f} s, {rate_n:10,.0f} trajectories/s "
        f"(jit compile {tc:.1f} s, not counted); numba / numpy batch {rate_n / rate_b:.1f}x; "
        f"max |numba − numpy| final state {np.max(np.abs(bn.state[:, -1] - b.state[:, -1])):.1e}"
    )
    return rate_n / rate_b


def bench_batch(quick, n_ics, n_loop):
    print(
        f"\n[2] trajectories per second, chaplygin sleigh, {n_ics} initial conditions, T = 10, RK45 rtol=1e-8 atol=1e-10"
    )
    mdl = models.chaplygin_sleigh()
    nh = mdl.nonholonomic()
    comp = fr.compile_system(nh, system=nh)
    pv = mdl.param_values
    p = comp.bind(pv)
    rng = np.random.default_rng(2)
    th = rng.uniform(-np.pi, np.pi, n_ics)
    q0 = np.stack([th, rng.normal(size=n_ics), rng.normal(size=n_ics)], axis=1)
    w, s = rng.uniform(-2, 2, n_ics), rng.uniform(0.2, 2, n_ics)
    u0 = np.stack([w, s * np.cos(th), s * np.sin(th)], axis=1)
    T, rtol, atol = 10.0, 1e-8, 1e-10
    t0 = time.perf_counter()
    b = fr.integrate_batch(nh, (0, T), q0, u0, params=pv, rtol=rtol, atol=atol, t_eval=[0, T])
    tb = time.perf_counter() - t0
    rate_b = n_ics / tb
    print(f"    batched (lock-step RK45): {tb:8.2f} s, {rate_b:10,.0f} trajectories/s ({b.info['steps']} steps)")
    _numba_rows(nh, T, q0, u0, pv, rtol, atol, b, rate_b)
    fun = comp.fun(p)
    t0 = time.perf_counter()
    worst = 0.0
    for j in range(n_loop):
        y0 = comp.initial_state(0.0, q0[j], u0[j], np.zeros(0), p)
        sol = solve_ivp(fun, (0, T), y0, method="RK45", rtol=rtol, atol=atol, t_eval=[0, T])
        worst = max(worst, float(np.max(np.abs(sol.y[:, -1] - b.state[j, -1]))))
    tl = time.perf_counter() - t0
    rate_l = n_loop / tl
    print(f"    solve_ivp loop over {n_loop}: {tl:8.2f} s, {rate_l:10,.0f} trajectories/s")
    print(f"    max |batched − loop| final state: {worst:.2e}")
    print(f"    ratio batched / loop: {rate_b / rate_l:.1f}x")
    rk4 = fr.integrate_batch(nh, (0, T), q0, u0, params=pv, method="RK4", n_steps=2000, t_eval=[0, T])
    print(f"    (fixed-step RK4, 2000 steps: max |RK4 − RK45| final state {np.max(np.abs(rk4.state - b.state)):.1e})")
    return rate_b / rate_l


def bench_batch_coin(n_ics, n_loop):
    """Batched vs looped trajectories for Pastore's coin (Table 1), random θ0, Ω, rolling rate; T = 2."""
    print(f"\n[2b] trajectories per second, rolling coin, {n_ics} initial conditions, T = 2, RK45 rtol=1e-8 atol=1e-10")
    mdl = models.rolling_coin_incline()
    nh = mdl.nonholonomic()
    comp = fr.compile_system(nh, system=nh)
    pv = mdl.param_values
    p = comp.bind(pv)
    R = float(pv[mdl.params["R"]])
    rng = np.random.default_rng(3)
    th, Om, w = rng.uniform(-np.pi, np.pi, n_ics), rng.uniform(1, 2 * np.pi, n_ics), rng.uniform(-1, 1, n_ics)
    q0 = np.stack([np.zeros(n_ics), np.zeros(n_ics), np.zeros(n_ics), th], axis=1)
    u0 = np.stack([R * np.sin(th) * w, R * np.cos(th) * w, w, Om], axis=1)
    T, rtol, atol = 2.0, 1e-8, 1e-10
    t0 = time.perf_counter()
    b = fr.integrate_batch(nh, (0, T), q0, u0, params=pv, rtol=rtol, atol=atol, t_eval=[0, T])
    tb = time.perf_counter() - t0
    rate_b = n_ics / tb
    print(f"    batched (lock-step RK45): {tb:8.2f} s, {rate_b:10,.0f} trajectories/s ({b.info['steps']} steps)")
    _numba_rows(nh, T, q0, u0, pv, rtol, atol, b, rate_b)
    fun = comp.fun(p)
    t0 = time.perf_counter()
    worst = 0.0
    for j in range(n_loop):
        y0 = comp.initial_state(0.0, q0[j], u0[j], np.zeros(0), p)
        sol = solve_ivp(fun, (0, T), y0, method="RK45", rtol=rtol, atol=atol, t_eval=[0, T])
        worst = max(worst, float(np.max(np.abs(sol.y[:, -1] - b.state[j, -1]))))
    tl = time.perf_counter() - t0
    rate_l = n_loop / tl
    print(f"    solve_ivp loop over {n_loop}: {tl:8.2f} s, {rate_l:10,.0f} trajectories/s")
    print(f"    max |batched − loop| final state: {worst:.2e}")
    print(f"    ratio batched / loop: {rate_b / rate_l:.1f}x")
    return rate_b / rate_l


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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--n-ics", type=int, default=10_000)
    ap.add_argument("--loop", type=int, default=1000, help="trajectories timed in the solve_ivp loop")
    a = ap.parse_args(argv)
    n_ics = 500 if a.quick else a.n_ics
    n_loop = 50 if a.quick else min(a.loop, n_ics)
    T = 50.0 if a.quick else 1000.0
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
    print("\nSummary (targets: RHS ≥ 1x, batch ≥ 10x, residual ≥ 1e4)")
    print(
        f"    RHS evals/s frames / sympy.mechanics (worst baseline): sleigh {r1:.2f}x"
        + (f", carriage {r1c:.2f}x" if r1c else "")
        + (f", coin {r1k:.2f}x" if r1k else "")
    )
    print(f"    trajectories/s batched / solve_ivp loop: sleigh {r2:.1f}x" + (f", coin {r2k:.1f}x" if r2k else ""))
    print(
        f"    residual multiplier / reduced at T = {T:g}: sleigh {r3:.1e}"
        + (f", carriage {r3c:.1e}" if r3c else "")
        + (f", coin {r3k:.1e}" if r3k else "")
    )


if __name__ == "__main__":
    main()
