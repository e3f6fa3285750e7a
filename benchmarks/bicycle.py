"""The Whipple bicycle (Meijaard et al. 2007) with 8 coordinates: frames' import and field beside KanesMethod.

SymPy's ``test_kane3.py`` model, with the wheel angles ``q3``, ``q6`` and the rear contact point ``(x, y)`` added as
coordinates so that every speed is a quasi-velocity: 8 coordinates, the holonomic front-contact constraint
(with the square root of ``.normalize()``) and 5 velocity constraints (the two wheels' contact points at rest).

One run prints: SymPy's ``KanesMethod`` + ``kanes_equations()`` time (unsimplified), then ``fr.from_mechanics``
and ``NonholonomicSystem.field()`` under a budget (``--budget``, default 300 s), with the step reached when it
runs out; then, side by side, the time from the built method to the benchmark's eigenvalues at 0…10 m/s
(Meijaard et al. 2007): frames (``from_mechanics`` + ``frames.linearize`` + ``Linearization.sweep``) against
SymPy's route (``KanesMethod.linearize(A_and_B=True, op_point=…, linear_solver="CRAMER")``, the parameters
substituted, the lean/steer block's eigenvalues with numpy, as SymPy's ``test_kane3.py`` does), and the largest
difference between the two sets of eigenvalues. Neither side simplifies.

Run: ``python benchmarks/bicycle.py [--budget 300] [--no-sympy-linearize] [--sympy-limit 1800]`` (SymPy's route
runs in a child process, stopped after the limit).
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing
import queue
import time
from pathlib import Path

import numpy as np
import sympy as sp

import frames as fr

_EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "whipple_bicycle.py"
_SPEC = importlib.util.spec_from_file_location("whipple_bicycle", _EXAMPLE)
assert _SPEC is not None and _SPEC.loader is not None
_whipple = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_whipple)
bicycle = _whipple.bicycle


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=300.0)
    ap.add_argument("--canonical", action="store_true", help="also the canonical field, in the rest of the budget")
    ap.add_argument("--no-sympy-linearize", action="store_true", help="skip SymPy's KanesMethod.linearize route")
    ap.add_argument("--sympy-limit", type=float, default=1800.0, help="stop SymPy's linearize after this many s")
    args = ap.parse_args(argv)
    t = time.monotonic()
    KM = bicycle()
    print(f"KanesMethod + kanes_equations:          {time.monotonic() - t:.1f} s", flush=True)
    t1 = time.monotonic()
    KM.rhs()
    print(f"KanesMethod rhs() (unsimplified):       {time.monotonic() - t1:.1f} s", flush=True)
    t = time.monotonic()
    try:
        with fr.budget(args.budget):
            mdl = fr.from_mechanics(KM, name="whipple-bicycle")
            print(f"frames from_mechanics:                  {time.monotonic() - t:.1f} s", flush=True)
            nh = mdl.nonholonomic()
            t1 = time.monotonic()
            nh.field(canonical=False)
            print(f"frames field(canonical=False):          {time.monotonic() - t1:.1f} s", flush=True)
            t1 = time.monotonic()
            nh.accelerations(canonical=False)
            print(
                f"frames accelerations(canonical=False):  {time.monotonic() - t1:.1f} s (after the field)", flush=True
            )
            if args.canonical:
                t1 = time.monotonic()
                nh.field()
                print(f"frames field() (canonical):             {time.monotonic() - t1:.1f} s", flush=True)
    except fr.errors.BudgetExceededError as exc:
        print(f"frames: budget of {args.budget:g} s spent after {time.monotonic() - t:.1f} s in step {exc.step!r}")
    eigenvalues_side_by_side(KM, skip_sympy=args.no_sympy_linearize, sympy_limit=args.sympy_limit)


def _sympy_eigenvalues(KM, par, speeds, V, out) -> None:
    """SymPy's route, in a child process: ``KanesMethod.linearize`` (CRAMER), the parameters, numpy's eigenvalues."""
    q = {q.func.__name__: q for q in KM.q}
    u = {u.func.__name__: u for u in KM.u}
    rR, rF = sp.Symbol("WRrad"), sp.Symbol("WFrad")
    op = {q[k]: 0 for k in ("q1", "q2", "q4", "q5")} | {x.diff(): 0 for x in KM.u}
    op |= {u[k]: 0 for k in ("u1", "u2", "u4", "u5")} | {u["u3"]: V / rR, u["u6"]: V / rF}
    A, _B, _r = KM.linearize(A_and_B=True, op_point=op, linear_solver="CRAMER")
    names = [x.func.__name__ for x in (*KM.q, *KM.u)]
    rows = [names.index(k) for k in ("q2", "q5", "u2", "u5")]
    A4 = A.extract(rows, rows).xreplace({sp.Symbol(k): v for k, v in par.items()})
    theirs = []
    for v in speeds:
        num = np.array(A4.xreplace({V: v}).evalf(30).tolist(), dtype=complex).real
        theirs.append(np.sort_complex(np.linalg.eigvals(num)))
    out.put(theirs)


def eigenvalues_side_by_side(KM, skip_sympy: bool = False, sympy_limit: float = 1800.0) -> None:
    """Time from the built KanesMethod to the eigenvalues at 0..10 m/s, frames beside SymPy (SymPy's route in a
    child process, stopped after ``sympy_limit`` seconds)."""
    par = _whipple.benchmark_parameters()
    speeds = np.arange(11.0)
    t = time.monotonic()
    mdl = fr.from_mechanics(KM, name="whipple-bicycle")
    V = sp.Symbol("V")
    lin = fr.linearize(mdl.nonholonomic(), _whipple.upright(mdl, V))
    ours = [np.sort_complex(row[np.argsort(np.abs(row))][1:]) for row in lin.sweep(V, speeds, par)]
    t_ours = time.monotonic() - t
    print(f"frames from_mechanics + linearize + eigenvalues (11 speeds): {t_ours:.1f} s", flush=True)
    if skip_sympy:
        return
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    t = time.monotonic()
    child = ctx.Process(target=_sympy_eigenvalues, args=(KM, par, speeds, V, out))
    child.start()
    try:
        theirs = out.get(timeout=sympy_limit)
    except queue.Empty:
        child.terminate()
        print(
            f"SymPy KanesMethod.linearize + eigenvalues (11 speeds):       not finished in {sympy_limit:.0f} s "
            f"(stopped); ratio SymPy / frames > {sympy_limit / t_ours:.0f}",
            flush=True,
        )
        return
    child.join()
    t_sympy = time.monotonic() - t
    diff = max(float(np.max(np.abs(a - b) / np.abs(b))) for a, b in zip(ours, theirs, strict=True))
    print(f"SymPy KanesMethod.linearize + eigenvalues (11 speeds):       {t_sympy:.1f} s", flush=True)
    print(f"ratio SymPy / frames: {t_sympy / t_ours:.2f}; largest relative difference of the eigenvalues: {diff:.1e}")


if __name__ == "__main__":
    main()
