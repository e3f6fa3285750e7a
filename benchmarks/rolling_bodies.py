"""Rigid bodies built with SymPy mechanics (``examples/rolling_bodies.py``): frames beside KanesMethod.

For each body (Chaplygin's ball, Veselova's body, a rattleback, a disc on an inclined plane; symbolic parameters),
one fresh subprocess per measurement:

- **Kane**: ``KanesMethod`` with the body, ``kanes_equations()`` and ``rhs()``, unsimplified (the model as built);
- **frames**: ``from_mechanics`` of that model, the nonholonomic field (fast path, ``canonical=False``), the field
  in canonical form, and ``invariant_measure`` with its verdict, each timed; then the full report (``analyze``,
  every section), timed on its own.

Run: ``python benchmarks/rolling_bodies.py [--timeout 900]``.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

CASES = {
    "ball": "Chaplygin's ball",
    "veselova": "Veselova's body",
    "rattleback": "rattleback",
    "disc": "disc on an incline",
}


def _bodies():
    spec = importlib.util.spec_from_file_location("rolling_bodies", ROOT / "examples" / "rolling_bodies.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def one(method: str, case: str) -> dict:
    import frames as fr
    from frames.algebra import op_count

    build = _bodies().BODIES[CASES[case]]
    if method == "kane":
        t0 = time.perf_counter()
        KM = build()
        KM.rhs()
        return {"time": time.perf_counter() - t0}
    KM = build()
    out: dict = {}
    t0 = time.perf_counter()
    model = fr.from_mechanics(KM, name=CASES[case])
    nh = model.nonholonomic()
    out["import"] = time.perf_counter() - t0
    if method == "report":
        t0 = time.perf_counter()
        fr.analyze(model, budget=900, jobs=1)
        out["time"] = time.perf_counter() - t0
        return out
    t0 = time.perf_counter()
    nh.field(canonical=False)
    out["fast"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    G = nh.field()
    out["canonical"] = time.perf_counter() - t0
    out["ops"] = max(op_count(g) for g in G.Gamma[: nh.m])
    t0 = time.perf_counter()
    with fr.budget(120):
        res = fr.invariant_measure(nh)
    out["measure"] = time.perf_counter() - t0
    out["exists"] = res.exists
    out["time"] = out["import"] + out["fast"]
    return out


def main(argv: list[str] | None = None) -> None:
    from _harness import fmt_t, in_subprocess, table_or_one

    timeout = table_or_one(__doc__, one, argv, 900.0)
    if timeout is None:
        return
    print(
        "| body | Kane (build + rhs) | from_mechanics | field, fast | field, canonical | ops (largest Γ) "
        "| invariant measure | exists | full report |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for case in CASES:
        k = in_subprocess(__file__, "kane", case, timeout)
        f = in_subprocess(__file__, "frames", case, timeout)
        r = in_subprocess(__file__, "report", case, timeout)

        def cell(key: str, f: dict = f) -> str:
            if f.get("time") is None:
                return fmt_t(f)
            return "—" if f.get(key) is None else f"{f[key]:.2f} s"

        print(
            f"| {CASES[case]} | {fmt_t(k)} | {cell('import')} | {cell('fast')} | {cell('canonical')} "
            f"| {f.get('ops', '—')} | {cell('measure')} | {f.get('exists', '—')} | {fmt_t(r)} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
