"""Benchmark: Theorem 1 / Corollary 2 for the two-wheeled carriage, frames vs SymPy's LagrangesMethod.

For the section ``φ = p`` at ``l = 0`` and the section ``φ = p + k`` of section 7.2 at the special
``l`` (``J = J_s(l)``, every other parameter symbolic), measure the time to the restriction to C of
the Euler–Lagrange field of ``L̃ = L − φ_a θ^a(u)``:

* ``frames``: ``VakonomicSystem.variational_check(section, subs=...)`` (residuals of Γ_C, the field of L̃
  solved on C only in the frame, fraction-free over the polynomial ring, and the comparison);
* ``frames-gj``: the same with the linear solve forced onto the expression-level Gauss–Jordan
  fallback (the expression-level engine);
* ``Lagrange``: ``LagrangesMethod(L̃, q).form_lagranges_equations()``, ``rhs()`` (all of TQ),
  then ``q̈`` restricted to C (``u = v^α X_α``) and simplified with ``tidy``.

Each run is a fresh subprocess with a time limit (``--timeout``); the library's q̈ on C and
SymPy's agree exactly where both finish (checked, untimed, in the SymPy run: ``agree``).

Run:  python benchmarks/variational_check.py [--timeout 300]
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
from frames.algebra import _ratfunc as _simplify  # RationalFunctions, UnsupportedExpression
from frames.algebra import is_zero, tidy
from frames.natural.internal import from_dynamic, to_dynamic


def build(case: str) -> tuple[fr.VakonomicSystem, tuple, dict]:
    mdl = fr.models.two_wheeled_carriage()
    L = mdl.lagrangian
    if case == "l0":
        L = L.with_expr(L.expr.subs(mdl.params["l"], 0))
    vk = fr.VakonomicSystem(L, mdl.frame, m=2)
    p = vk.nonholonomic.momenta()[2:]
    if case == "l0":
        return vk, tuple(p), {}
    d = fr.models.carriage_section_data(mdl)
    return vk, tuple(a + b for a, b in zip(p, d["k"], strict=True)), {mdl.params["J"]: d["J_special"]}


def size(exprs) -> int:
    return int(sum(sp.count_ops(e) for e in exprs))


def _on_c(vk: fr.VakonomicSystem, exprs) -> list[sp.Expr]:
    F = vk.frame
    return [tidy(F.to_quasi(e).xreplace(vk.on_C)) for e in exprs]


def run_frames(case: str) -> dict:
    vk, sec, subs = build(case)
    t0 = time.perf_counter()
    th = vk.variational_check(sec, subs=subs)
    acc = _on_c(vk, th.el_field.accelerations())
    dt = time.perf_counter() - t0
    assert th.holds is True and th.restriction_equal is True
    return {"time": dt, "ops": size(acc)}


def run_frames_gj(case: str) -> dict:
    def refuse(*_a, **_k):
        raise _simplify.UnsupportedExpression("forced fallback")

    _simplify.RationalFunctions.__init__ = refuse  # type: ignore[method-assign]
    return run_frames(case)


def run_lagrange(case: str) -> dict:
    from sympy.physics import mechanics as me

    vk, sec, subs = build(case)
    ch = vk.lagrangian.chart
    t0 = time.perf_counter()
    Lt = vk.variational_lagrangian(sec).expr.subs(subs)
    sub, qf, qd, t = to_dynamic(ch)
    LM = me.LagrangesMethod(Lt.xreplace(sub), qf)
    LM.form_lagranges_equations()
    rhs = LM.rhs()
    n = ch.dim
    acc = [from_dynamic(rhs[n + i], ch, qf, qd, t) for i in range(n)]
    acc = _on_c(vk, acc)
    dt = time.perf_counter() - t0
    # untimed: the library's field on C, for the agreement column
    mine = _on_c(vk, vk.variational_check(sec, subs=subs).el_field.accelerations())
    agree = all(is_zero(a - b) for a, b in zip(acc, mine, strict=True))
    return {"time": dt, "ops": size(acc), "agree": agree}


RUNNERS = {"frames": run_frames, "frames-gj": run_frames_gj, "lagrange": run_lagrange}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timeout", type=float, default=300.0, help="per-case limit for each run, seconds")
    ap.add_argument("--cases", nargs="*", default=["l0", "special"])
    ap.add_argument("--one", nargs=2, metavar=("METHOD", "CASE"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        method, case = args.one
        print(json.dumps(RUNNERS[method](case)))
        return
    print(
        "| case | frames | frames (Gauss–Jordan fallback) | Lagrange | speed-up vs fallback | speed-up vs Lagrange "
        "| ops frames | ops Lagrange | agree |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    me = os.path.abspath(__file__)
    for case in args.cases:
        res = {m: in_subprocess(me, m, case, args.timeout) for m in RUNNERS}
        f, g, la = res["frames"], res["frames-gj"], res["lagrange"]
        agree = str(la.get("agree", "—"))
        label = "l = 0, φ = p" if case == "l0" else "special l, φ = p + k"
        print(
            f"| {label} | {fmt_t(f)} | {fmt_t(g)} | {fmt_t(la)} | {speed(g, f)} | {speed(la, f)} "
            f"| {fmt_o(f)} | {fmt_o(la)} | {agree} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
