"""Vehicles whose constraints mix angles: frames beside SymPy's LagrangesMethod, and the displayed sizes.

For each system (``examples/compound_angles.py``: a car with 1 and 2 trailers, the snakeboard) one fresh
subprocess per measurement:

- **frames**: ``NonholonomicSystem.from_constraints``, the nonholonomic field and the multipliers, canonical
  (the exact ring form); then their display form (``harmonic_form``: sines and cosines of sums and differences of
  angles), timed separately;
- **Lagrange**: ``LagrangesMethod(L, q, nonhol_coneqs=...)``, ``form_lagranges_equations()`` and ``rhs()``
  (accelerations and multipliers), unsimplified; its time does not include any simplification of ours.

Sizes are operation counts (``frames.algebra.op_count``): the largest multiplier canonical and shown, and
SymPy's largest multiplier as ``rhs()`` returns it.

Run: ``python benchmarks/vehicles.py [--timeout 300]``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

CASES = ["trailer1", "trailer2", "snakeboard"]


def _system(case: str):
    """The system of ``case``, built by the worked example ``examples/compound_angles.py``."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("compound_angles", ROOT / "examples" / "compound_angles.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    return example.car_with_trailers(int(case[-1])) if case.startswith("trailer") else example.snakeboard()


def one(method: str, case: str) -> dict:
    import sympy as sp

    from frames.algebra import harmonic_form, op_count

    if method == "frames":
        t0 = time.perf_counter()
        nh = _system(case)
        nh.field()
        lam = nh.multipliers()
        t1 = time.perf_counter()
        shown = [harmonic_form(x) for x in lam]
        t2 = time.perf_counter()
        return {
            "time": t1 - t0,
            "display": t2 - t1,
            "ops": max(op_count(x) for x in lam),
            "shown": max(op_count(x) for x in shown),
        }
    from sympy.physics.mechanics import LagrangesMethod, dynamicsymbols

    nh = _system(case)
    ch = nh.lagrangian.chart
    qs = dynamicsymbols(" ".join(f"Q{i}" for i in range(ch.dim)))
    sub = {q: f for q, f in zip(ch.q, qs, strict=True)} | {u: f.diff() for u, f in zip(ch.u, qs, strict=True)}
    t0 = time.perf_counter()
    L = nh.lagrangian.expr.xreplace(sub)
    cons = [
        sp.Add(*[c * u for c, u in zip(row, ch.u, strict=True)]).xreplace(sub) for row in nh.constraints.matrix.tolist()
    ]
    lm = LagrangesMethod(L, qs, nonhol_coneqs=cons)
    lm.form_lagranges_equations()
    rhs = lm.rhs()
    t1 = time.perf_counter()
    lam = list(rhs)[-len(cons) :]
    return {"time": t1 - t0, "ops": max(op_count(x) for x in lam)}


def main(argv: list[str] | None = None) -> None:
    from _harness import fmt_o, fmt_t, in_subprocess, speed, table_or_one

    timeout = table_or_one(__doc__, one, argv, 300.0)
    if timeout is None:
        return
    print(
        "| system | frames (field + λ) | display | Lagrange (rhs) | speed-up | ops λ canonical | ops λ shown | ops λ Lagrange |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for case in CASES:
        f = in_subprocess(__file__, "frames", case, timeout)
        lg = in_subprocess(__file__, "lagrange", case, timeout)
        shown = "—" if f.get("shown") is None else str(f["shown"])
        disp = "—" if f.get("display") is None else f"{f['display']:.2f} s"
        print(
            f"| {case} | {fmt_t(f)} | {disp} | {fmt_t(lg)} | {speed(lg, f)} | {fmt_o(f)} | {shown} | {fmt_o(lg)} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
