"""A car towing N trailers: the default frame of ``NonholonomicSystem.from_constraints`` beside SymPy's null space.

For N = 1 … 7 (``examples/compound_angles.py``: ``car_with_trailers_parts(N)``, N + 3 coordinates, N + 1
constraints) one fresh subprocess per measurement, CPU time (``time.process_time``):

- **from_constraints**: ``NonholonomicSystem.from_constraints(L, constraints)``: the default basis of D (the null
  space basis in canonical form, cleared of denominators; tested for regularity up to eight coordinates) and the
  frame; the constraints are built before the clock starts;
- **D basis**: the first part of it alone, ``LinearConstraints(...).distribution()``, in a fresh subprocess;
- **SymPy nullspace**: ``Matrix(constraints.matrix).nullspace()`` with SymPy's defaults, its entries as SymPy
  leaves them (no canonical form, no cleared denominators): the reference cost of the elimination itself.

The size is the largest ``op_count`` of an entry of the D basis that ``from_constraints`` chose.

Run: ``python benchmarks/trailers.py [--timeout 300]``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))  # this checkout's frames

CASES = [str(n) for n in range(1, 8)]


def _parts(case: str):
    """``(L, constraints)`` of the car with ``case`` trailers, built by the worked example."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("compound_angles", ROOT / "examples" / "compound_angles.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    return example.car_with_trailers_parts(int(case))


def one(method: str, case: str) -> dict:
    import sympy as sp

    import frames as fr
    from frames.algebra import op_count

    L, cons = _parts(case)
    if method == "frames":
        t0 = time.process_time()
        nh = fr.NonholonomicSystem.from_constraints(L, cons)
        t1 = time.process_time()
        ops = max(op_count(c) for X in nh.frame.fields[: nh.m] for c in X.components)
        return {"time": t1 - t0, "ops": ops}
    if method == "basis":
        fresh = fr.LinearConstraints(cons.chart, cons.matrix)
        t0 = time.process_time()
        D = fresh.distribution()
        t1 = time.process_time()
        return {"time": t1 - t0, "ops": max(op_count(c) for X in D.fields for c in X.components)}
    M = sp.Matrix(cons.matrix)
    t0 = time.process_time()
    basis = M.nullspace()
    t1 = time.process_time()
    return {"time": t1 - t0, "ops": max(op_count(c) for b in basis for c in b)}


def main(argv: list[str] | None = None) -> None:
    from _harness import fmt_o, fmt_t, in_subprocess, table_or_one

    timeout = table_or_one(__doc__, one, argv, 300.0)
    if timeout is None:
        return
    print("| N | n | from_constraints | D basis | SymPy nullspace | ops D basis | ops SymPy nullspace |")
    print("|---|---|---|---|---|---|---|")
    for case in CASES:
        f = in_subprocess(__file__, "frames", case, timeout)
        b = in_subprocess(__file__, "basis", case, timeout)
        s = in_subprocess(__file__, "sympy", case, timeout)
        print(
            f"| {case} | {int(case) + 3} | {fmt_t(f)} | {fmt_t(b)} | {fmt_t(s)} | {fmt_o(f)} | {fmt_o(s)} |", flush=True
        )


if __name__ == "__main__":
    main()
