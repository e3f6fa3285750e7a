"""Stability at scale: a car pulling N on-axle trailers (N = 1..10), straight motion forwards and backwards.

For each N, in fresh subprocesses with a time limit:

- **frames**: ``examples/compound_angles.py``'s Lagrangian and constraints of a car with N trailers, on the
  classical N-trailer frame (``∂θ`` and the forward field ``cos θ ∂x + sin θ ∂y + Σ (Π cos) sin(θ_{i−1} − θ_i)/d
  ∂θ_i``, completed by ``∂y, ∂θ_i``; checked to span the constraints' kernel), built (column ``build``), then
  ``frames.linearize`` about straight motion at speed ``V`` (the position removed, exact in ``V`` and the five
  parameters), ``Linearization.charpoly`` (exact, the structural zeros named) and
  ``certified_critical_values(V, (-2, 2), ...)`` at rational parameters: the jackknife, exactly ``V = 0``
  (unstable reversing, asymptotically stable forwards once the structural zeros are set aside);
- **SymPy Lagrange**: ``LagrangesMethod(L, q, nonhol_coneqs=...)``, ``form_lagranges_equations()`` and
  ``linearize(..., A_and_B=True, simplify=False)`` about the same motion (its time, not including our build);
- **SymPy Kane**: the same car and trailers as rigid bodies (:func:`chain_kane`: ``u = q̇``, the no-slip
  conditions as ``velocity_constraints``, ``u_x, u_θ`` independent), ``kanes_equations()`` and
  ``linearize(A_and_B=True, op_point=..., simplify=False)`` (its time includes building the model). Once a SymPy
  column exceeds the limit, the larger N are not run for it (``> limit``).

The fitted exponent ``t ∝ N^k`` of ``linearize`` and of ``charpoly`` is printed (a least-squares line through
``log t`` against ``log N`` over the N that finished).

Run: ``python benchmarks/stability.py [--timeout 120] [--max 10]``.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
if str(ROOT) not in sys.path:  # the subprocesses measure this checkout's ``frames``, not an installed one
    sys.path.insert(1, str(ROOT))


def _example():
    import importlib.util

    spec = importlib.util.spec_from_file_location("compound_angles", ROOT / "examples" / "compound_angles.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    return example


VALUES = {"m": 1, "J": "1/2", "d": "3/2", "m_t": "1/2", "J_t": "1/5"}


def chain(n: int):
    """The car with ``n`` trailers on the N-trailer frame (regular near straight motion; the default frame of
    ``from_constraints`` is proved regular everywhere but its choice grows fast with ``n``)."""
    import sympy as sp

    import frames as fr
    from frames.algebra import is_zero

    L, cons = _example().car_with_trailers_parts(n)
    ch = L.chart
    q, d, th = ch.q, ch.params[2], ch.q[2]
    comps = [sp.cos(th), sp.sin(th), sp.S.Zero]
    speed, prev = sp.S.One, th
    for i in range(1, n + 1):
        comps.append(speed * sp.sin(prev - q[2 + i]) / d)
        speed, prev = speed * sp.cos(prev - q[2 + i]), q[2 + i]
    fields = [fr.VectorField(ch, [0, 0, 1] + [0] * n), fr.VectorField(ch, comps)]
    for row in cons.matrix.tolist():
        assert all(is_zero(sum(a * b for a, b in zip(row, X.components, strict=True))) for X in fields)

    def coord(k: int):
        return fr.VectorField(ch, [1 if j == k else 0 for j in range(ch.dim)])

    complement = [coord(1)] + [coord(2 + i) for i in range(1, n + 1)]
    return fr.NonholonomicSystem.from_constraints(L, fr.Distribution(fields), complement)


def chain_kane(n: int, values: dict | None = None):
    """SymPy's ``KanesMethod`` for the car with ``n`` trailers of :func:`chain`, equations formed.

    The car (mass ``m``, inertia ``J``) is a body at ``(x, y)`` with heading ``θ``; trailer ``i`` (mass ``m_t``,
    inertia ``J_t`` at its axle) has heading ``θ_i`` and its axle a distance ``d`` behind the previous axle. The
    generalized speeds are ``u = q̇``; ``u_x, u_θ`` are independent, ``u_y, u_{θ_i}`` dependent through the no-slip
    conditions (the velocity of each axle along its body's ``y``), given as ``velocity_constraints``.
    """
    import sympy as sp
    from sympy.physics.mechanics import KanesMethod, Point, ReferenceFrame, RigidBody, dot, dynamicsymbols, inertia

    names = ("m", "J", "d", "m_t", "J_t")
    m, J, d, mt, Jt = sp.symbols(names) if values is None else (values[k] for k in names)
    q = dynamicsymbols(" ".join(["x", "y", "theta"] + [f"theta{i}" for i in range(1, n + 1)]))
    u = dynamicsymbols(" ".join(f"u{i}" for i in range(n + 3)))
    t = dynamicsymbols._t
    N = ReferenceFrame("N")
    O = Point("O")
    O.set_vel(N, 0)
    P = O.locatenew("P", q[0] * N.x + q[1] * N.y)
    P.set_vel(N, u[0] * N.x + u[1] * N.y)
    B = N.orientnew("B", "Axis", [q[2], N.z])
    B.set_ang_vel(N, u[2] * N.z)
    bodies = [RigidBody("car", P, B, m, (inertia(B, 0, 0, J), P))]
    cons = [dot(P.vel(N), B.y)]
    prev = P
    for i in range(1, n + 1):
        Ti = N.orientnew(f"T{i}", "Axis", [q[2 + i], N.z])
        Ti.set_ang_vel(N, u[2 + i] * N.z)
        Qi = prev.locatenew(f"Q{i}", -d * Ti.x)
        Qi.v2pt_theory(prev, N, Ti)
        bodies.append(RigidBody(f"trailer{i}", Qi, Ti, mt, (inertia(Ti, 0, 0, Jt), Qi)))
        cons.append(dot(Qi.vel(N), Ti.y))
        prev = Qi
    KM = KanesMethod(
        N, q, [u[0], u[2]], kd_eqs=[ui - qi.diff(t) for ui, qi in zip(u, q, strict=True)],
        u_dependent=[u[1], *u[3:]], velocity_constraints=cons, bodies=bodies, forcelist=[],
    )  # fmt: skip
    KM.kanes_equations()
    return KM


def kane_linearize(KM, V):
    """``KM.linearize(A_and_B=True, simplify=False)`` about straight motion at speed ``V`` along ``x`` (all
    coordinates and the other speeds zero, ``u̇ = 0``): ``(A, B)``."""
    import sympy as sp
    from sympy.physics.mechanics import dynamicsymbols

    t = dynamicsymbols._t
    qs, us = list(KM.q), list(KM.u)
    op = {q: 0 for q in qs} | {q.diff(t): 0 for q in qs} | {u: 0 for u in us} | {u.diff(t): 0 for u in us}
    op |= {us[0]: V, qs[0].diff(t): V}
    A, B, _r = KM.linearize(A_and_B=True, op_point=op, simplify=False)
    return sp.Matrix(A), B


def one(method: str, case: str) -> dict:
    import sympy as sp

    import frames as fr

    n = int(case)
    V = sp.Symbol("V")
    vals = {k: sp.Rational(v) for k, v in VALUES.items()}
    if method == "frames":
        t0 = time.perf_counter()
        nh = chain(n)
        ch = nh.lagrangian.chart
        t1 = time.perf_counter()
        lin = fr.linearize(nh, {q: 0 for q in ch.q} | {u: 0 for u in ch.u} | {ch.u[0]: V})
        t2 = time.perf_counter()
        cp = lin.charpoly()
        t3 = time.perf_counter()
        crit = lin.certified_critical_values(V, (-2, 2), vals)
        t4 = time.perf_counter()
        back, fwd = lin.stability(vals | {"V": -1}), lin.stability(vals | {"V": 1})
        return {
            "time": t2 - t1,
            "build": t1 - t0,
            "charpoly": t3 - t2,
            "certify": t4 - t3,
            "states": len(lin.states),
            "structural": cp.structural,
            "critical": [f"{c.evalf(15)} ({c.kind}: {c.before} -> {c.after})" for c in crit],
            "reverse": f"{back.reduced}",
            "forward": f"{fwd.reduced}",
        }
    if method == "kane":
        t0 = time.perf_counter()
        A, _B = kane_linearize(chain_kane(n), V)
        t1 = time.perf_counter()
        return {"time": t1 - t0, "states": A.shape[0]}
    from sympy.physics.mechanics import LagrangesMethod, dynamicsymbols

    L, cons = _example().car_with_trailers_parts(n)
    ch = L.chart
    qs = dynamicsymbols(" ".join(f"Q{i}" for i in range(ch.dim)))
    t = dynamicsymbols._t
    sub = {q: f for q, f in zip(ch.q, qs, strict=True)} | {u: f.diff(t) for u, f in zip(ch.u, qs, strict=True)}
    t0 = time.perf_counter()
    rows = [sp.Add(*[c * u for c, u in zip(row, ch.u, strict=True)]).xreplace(sub) for row in cons.matrix.tolist()]
    lm = LagrangesMethod(L.expr.xreplace(sub), qs, nonhol_coneqs=rows)
    lm.form_lagranges_equations()
    qd = [q.diff(t) for q in qs]
    op = (
        {q: 0 for q in qs}
        | dict.fromkeys(qd, 0)
        | {qd[0]: V}
        | {d.diff(t): 0 for d in qd}
        | dict.fromkeys(lm.lam_vec, 0)
    )
    A, _B, _r = lm.linearize(
        q_ind=qs, qd_ind=[qd[0], qd[2]], qd_dep=[qd[1], *qd[3:]], op_point=op, A_and_B=True, simplify=False
    )
    t1 = time.perf_counter()
    return {"time": t1 - t0, "states": A.shape[0]}


def _exponent(ns: list[int], ts: list[float]) -> str:
    pts = [(math.log(n), math.log(t)) for n, t in zip(ns, ts, strict=True) if t and t > 0]
    if len(pts) < 2:
        return "—"
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    k = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
    return f"{k:.2f}"


def main(argv: list[str] | None = None) -> None:
    import argparse

    from _harness import fmt_t, in_subprocess, speed, table_or_one

    argv = list(sys.argv[1:] if argv is None else argv)
    top = 10
    if "--max" in argv:
        i = argv.index("--max")
        top = int(argv[i + 1])
        del argv[i : i + 2]
    timeout = table_or_one(__doc__, one, argv, 120.0)
    if timeout is None:
        return
    del argparse
    print(
        "| N | states | build | frames linearize | charpoly | certify | SymPy Lagrange linearize | speed-up | "
        "SymPy Kane linearize | speed-up | structural | critical V | reversing | forwards |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    ns, tl, tc = [], [], []
    sympy_ns: dict[str, list[int]] = {"sympy": [], "kane": []}
    sympy_ts: dict[str, list[float]] = {"sympy": [], "kane": []}
    over: set[str] = set()  # the SymPy columns that exceeded the limit: not run for larger N
    for n in range(1, top + 1):
        f = in_subprocess(__file__, "frames", str(n), timeout)
        col = {}
        for m in ("sympy", "kane"):
            if m in over:
                col[m] = "> limit"
                continue
            r = in_subprocess(__file__, m, str(n), timeout)
            if r.get("time") is None and "timeout" in r:
                over.add(m)
            elif r.get("time") is not None:
                sympy_ns[m].append(n)
                sympy_ts[m].append(r["time"])
            col[m] = f"{fmt_t(r)} | {speed(r, f)}"
        if f.get("time") is not None:
            ns.append(n)
            tl.append(f["time"])
            tc.append(f["charpoly"])
        crit = "; ".join(f.get("critical", [])) or "—"
        cp = f"{f['charpoly']:.3f} s" if f.get("charpoly") is not None else "—"
        ce = f"{f['certify']:.3f} s" if f.get("certify") is not None else "—"
        bu = f"{f['build']:.2f} s" if f.get("build") is not None else "—"
        lag = col["sympy"] if col["sympy"] != "> limit" else "> limit | —"
        kan = col["kane"] if col["kane"] != "> limit" else "> limit | —"
        print(
            f"| {n} | {f.get('states', '—')} | {bu} | {fmt_t(f)} | {cp} | {ce} | {lag} | {kan} | "
            f"{f.get('structural', '—')} | {crit} | {f.get('reverse', '—')} | {f.get('forward', '—')} |",
            flush=True,
        )
    print(f"\nfitted exponent t ∝ N^k: linearize k = {_exponent(ns, tl)}, charpoly k = {_exponent(ns, tc)}")
    print(
        f"SymPy (over the N that finished): Lagrange linearize k = {_exponent(sympy_ns['sympy'], sympy_ts['sympy'])}, "
        f"Kane linearize k = {_exponent(sympy_ns['kane'], sympy_ts['kane'])}"
    )


if __name__ == "__main__":
    main()
