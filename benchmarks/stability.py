"""Stability at scale: a car pulling N on-axle trailers (N = 1..10), straight motion forwards and backwards.

For each N, in fresh subprocesses with a time limit:

- **frames**: ``examples/compound_angles.py``'s Lagrangian and constraints of a car with N trailers, on the
  classical N-trailer frame (``∂θ`` and the forward field ``cos θ ∂x + sin θ ∂y + Σ (Π cos) sin(θ_{i−1} − θ_i)/d
  ∂θ_i``, completed by ``∂y, ∂θ_i``; checked to span the constraints' kernel), built (column ``build``), then
  ``frames.linearize`` about straight motion at speed ``V`` (the position removed, exact in ``V`` and the five
  parameters), ``Linearization.charpoly`` (exact, the structural zeros named) and
  ``certified_critical_values(V, (-2, 2), ...)`` at rational parameters: the jackknife, exactly ``V = 0``
  (unstable reversing, asymptotically stable forwards once the structural zeros are set aside);
- **SymPy**: ``LagrangesMethod(L, q, nonhol_coneqs=...)``, ``form_lagranges_equations()`` and
  ``linearize(..., A_and_B=True, simplify=False)`` about the same motion (its time, not including our build).

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
        "structural | critical V | reversing | forwards |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    ns, tl, tc = [], [], []
    for n in range(1, top + 1):
        f = in_subprocess(__file__, "frames", str(n), timeout)
        s = in_subprocess(__file__, "sympy", str(n), timeout)
        if f.get("time") is not None:
            ns.append(n)
            tl.append(f["time"])
            tc.append(f["charpoly"])
        crit = "; ".join(f.get("critical", [])) or "—"
        cp = f"{f['charpoly']:.3f} s" if f.get("charpoly") is not None else "—"
        ce = f"{f['certify']:.3f} s" if f.get("certify") is not None else "—"
        bu = f"{f['build']:.2f} s" if f.get("build") is not None else "—"
        print(
            f"| {n} | {f.get('states', '—')} | {bu} | {fmt_t(f)} | {cp} | {ce} | {fmt_t(s)} | {speed(s, f)} | "
            f"{f.get('structural', '—')} | {crit} | {f.get('reverse', '—')} | {f.get('forward', '—')} |",
            flush=True,
        )
    print(f"\nfitted exponent t ∝ N^k: linearize k = {_exponent(ns, tl)}, charpoly k = {_exponent(ns, tc)}")


if __name__ == "__main__":
    main()
