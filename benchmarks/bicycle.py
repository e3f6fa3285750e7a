"""The Whipple bicycle (Meijaard et al. 2007) with 8 coordinates: frames' import and field beside KanesMethod.

SymPy's ``test_kane3.py`` model, with the wheel angles ``q3``, ``q6`` and the rear contact point ``(x, y)`` added as
coordinates so that every speed is a quasi-velocity: 8 coordinates, the holonomic front-contact constraint
(with the square root of ``.normalize()``) and 5 velocity constraints (the two wheels' contact points at rest).

One run prints: SymPy's ``KanesMethod`` + ``kanes_equations()`` time (unsimplified), then ``fr.from_mechanics``
and ``NonholonomicSystem.field()`` under a budget (``--budget``, default 300 s), with the step reached when it
runs out.

Run: ``python benchmarks/bicycle.py [--budget 300]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from pathlib import Path

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


if __name__ == "__main__":
    main()
