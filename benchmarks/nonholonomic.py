"""Benchmark: nonholonomic equations of motion, frames vs sympy.physics.mechanics.

For ``abelian_chaplygin(k)`` with ``Δ_a = q1^a`` (k = 1, 2, 3, 4, 8, 16) and for the two-wheeled
carriage, measure the wall time to *simplified* equations of motion and their size
(``count_ops``):

* ``frames``: ``NonholonomicSystem(L, frame, m).accelerations()`` (Proposition 2 in the
  model's adapted frame; q̈ in natural coordinates on C, simplified with ``tidy``);
  the size of the library's own first-order form ``v̇^α = Γ^α`` is reported too;
* ``Lagrange``: ``LagrangesMethod(L, q, nonhol_coneqs=...)``, ``form_lagranges_equations()``,
  ``rhs()``, then ``tidy`` on every q̈;
* ``Kane``: ``KanesMethod`` with dependent speeds (bodies with the model's kinetic
  energy), ``kanes_equations()``, ``rhs()``, then ``tidy`` on every q̈.

Every measurement runs in a fresh subprocess after a warm-up on the nonholonomic particle
(so interpreter start-up and sympy's cold caches are not counted for anyone). Each SymPy case runs in a subprocess with a time limit (``--timeout``, default 300 s), so
the run always ends; a case over the limit is reported as ``>limit``.

Run:  python benchmarks/nonholonomic.py [--timeout 300] [--ks 1 2 3 4 8 16]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import sympy as sp

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import frames as fr
from benchmarks._harness import fmt_o, fmt_t, in_subprocess, speed
from frames import models
from frames.algebra import tidy
from frames.natural.internal import from_dynamic, to_dynamic


def build(case: str) -> fr.models.Model:
    if case == "carriage":
        return models.two_wheeled_carriage()
    if case == "particle":
        return models.nonholonomic_particle()
    k = int(case.removeprefix("k"))
    return models.abelian_chaplygin(k, deltas=lambda q1, a: q1 ** (a - 2))


def size(exprs) -> int:
    return int(sum(sp.count_ops(e) for e in exprs))


# ------------------------------------------------------------------ frames
def run_frames(case: str) -> dict:
    mdl = build(case)
    t0 = time.perf_counter()
    nh = fr.NonholonomicSystem(mdl.lagrangian, mdl.frame, mdl.m)
    acc = nh.accelerations()
    dt = time.perf_counter() - t0
    return {"time": dt, "ops": size(acc), "ops_gamma": size(nh.field().Gamma)}


# ------------------------------------------------------------------ SymPy
def run_lagrange(case: str) -> dict:
    from sympy.physics import mechanics as me

    mdl = build(case)
    ch = mdl.chart
    t0 = time.perf_counter()
    sub, qf, qd, t = to_dynamic(ch)
    LM = me.LagrangesMethod(
        mdl.lagrangian.expr.xreplace(sub), qf, nonhol_coneqs=[c.xreplace(sub) for c in mdl.constraints.functions]
    )
    LM.form_lagranges_equations()
    rhs = LM.rhs()
    n = ch.dim
    acc = [tidy(from_dynamic(rhs[n + i], ch, qf, qd, t)) for i in range(n)]
    return {"time": time.perf_counter() - t0, "ops": size(acc)}


def _kane_bodies(case: str, mdl, qf, N, O):
    """Bodies whose kinetic energy is the model's Lagrangian."""
    from sympy.physics import mechanics as me

    if case == "carriage":
        p = mdl.params
        psi1, psi2, x, y, th = qf
        B = N.orientnew("B", "Axis", [th, N.z])
        P = O.locatenew("P", x * N.x + y * N.y)
        G = P.locatenew("G", p["l"] * B.x)
        W1 = N.orientnew("W1", "Axis", [psi1, N.x])
        W2 = N.orientnew("W2", "Axis", [psi2, N.x])
        for fr_ in (B, W1, W2):
            fr_.set_ang_vel(N, fr_.ang_vel_in(N))
        P.set_vel(N, P.pos_from(O).dt(N))
        G.v2pt_theory(P, N, B)
        bodies = [
            me.Particle("Pm", P, p["m"] - p["m0"]),
            me.Particle("Gm", G, p["m0"]),
            me.RigidBody("body", P, B, 0, (me.inertia(B, 0, 0, p["J"] - p["m0"] * p["l"] ** 2), P)),
            me.RigidBody("wheel1", P, W1, 0, (me.inertia(N, p["J2"], 0, 0), P)),
            me.RigidBody("wheel2", P, W2, 0, (me.inertia(N, p["J2"], 0, 0), P)),
        ]
        return bodies
    # abelian_chaplygin: L = ½ Σ I_i u_i², one particle of mass I_i per coordinate
    bodies = []
    for i, qi in enumerate(qf):
        Pi = O.locatenew(f"P{i + 1}", qi * N.x)
        Pi.set_vel(N, Pi.pos_from(O).dt(N))
        bodies.append(me.Particle(f"m{i + 1}", Pi, mdl.params.get(f"I{i + 1}", 1)))
    return bodies


def run_kane(case: str) -> dict:
    from sympy.physics import mechanics as me

    mdl = build(case)
    ch = mdl.chart
    n = ch.dim
    t0 = time.perf_counter()
    _sub, qf, qd, t = to_dynamic(ch)
    us = [sp.Function(f"w{i + 1}")(t) for i in range(n)]
    N = me.ReferenceFrame("N")
    O = me.Point("O")
    O.set_vel(N, 0)
    bodies = _kane_bodies(case, mdl, qf, N, O)
    kd = [qd[i] - us[i] for i in range(n)]
    usub = dict(zip(ch.u, us, strict=True)) | dict(zip(ch.q, qf, strict=True))
    vc = [c.xreplace(usub) for c in mdl.constraints.functions]
    KM = me.KanesMethod(N, q_ind=qf, u_ind=us[: mdl.m], u_dependent=us[mdl.m :], kd_eqs=kd, velocity_constraints=vc)
    KM.kanes_equations(bodies, [])
    rhs = KM.rhs()
    # state (q, u); u = q̇, so q̈ = u̇
    back = dict(zip(us, ch.u, strict=True))
    acc = []
    for i in range(n):
        e = rhs[n + i].xreplace({sp.Derivative(us[j], t): sp.Symbol(f"_d{j}") for j in range(n)})
        e = from_dynamic(e.xreplace(back), ch, qf, qd, t)
        acc.append(tidy(e))
    return {"time": time.perf_counter() - t0, "ops": size(acc)}


RUNNERS = {"frames": run_frames, "lagrange": run_lagrange, "kane": run_kane}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timeout", type=float, default=300.0, help="per-case limit for each run, seconds")
    ap.add_argument("--ks", type=int, nargs="*", default=[1, 2, 3, 4, 8, 16])
    ap.add_argument("--no-carriage", action="store_true")
    ap.add_argument("--one", nargs=2, metavar=("METHOD", "CASE"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        method, case = args.one
        RUNNERS[method]("particle")  # warm-up on another system: exclude import and cold-cache costs
        print(json.dumps(RUNNERS[method](case)))
        return
    cases = [f"k{k}" for k in args.ks] + ([] if args.no_carriage else ["carriage"])
    head = (
        "| case | frames | Lagrange | Kane | speed-up vs Lagrange | speed-up vs Kane "
        "| ops frames (q̈) | ops frames (Γ^α) | ops Lagrange | ops Kane |"
    )
    print(head)
    print("|---|---|---|---|---|---|---|---|---|---|")
    for case in cases:
        res = {
            m: in_subprocess(os.path.abspath(__file__), m, case, args.timeout) for m in ("frames", "lagrange", "kane")
        }
        f = res["frames"]

        label = "carriage" if case == "carriage" else f"abelian_chaplygin k={case[1:]}"
        print(
            f"| {label} | {fmt_t(f)} | {fmt_t(res['lagrange'])} | {fmt_t(res['kane'])} | {speed(res['lagrange'], f)} "
            f"| {speed(res['kane'], f)} | {fmt_o(f)} | {f.get('ops_gamma', '—')} | {fmt_o(res['lagrange'])} "
            f"| {fmt_o(res['kane'])} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
