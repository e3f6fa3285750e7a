"""Benchmark: the shape of the numerics door, counted rather than timed.

Prints three figures of ``frames.integrate`` (issue 43):

* ``parameters``: the number of parameters of ``integrate`` (:func:`inspect.signature`);
* ``q0 walk``: following ``q0`` through one ``integrate`` call (the knife edge, RK45, one trajectory): every call
  into a module of ``frames`` whose arguments hold the initial data (the user's ``q0`` object itself, or an
  argument named ``q0``, ``Q0``, ``y0``, ``Y0`` or ``problem``) is traced with :func:`sys.settrace`; the modules
  of those calls, in order, with consecutive repeats collapsed, form the walk, and ``returns`` counts how many
  times the walk comes back to a module it had left (``len(walk) - len(set(walk))``);
* the same for a batch of two (``q0`` of shape ``(2, 3)``), and each walk module by module.

Run: ``python benchmarks/numerics_walk.py`` (about a second after the import; no wall-clock figure).
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import frames as fr

_NAMES = ("q0", "Q0", "y0", "Y0", "problem")


def walk(call: Any, q0: Any) -> list[str]:
    """The modules of ``frames`` visited by calls that carry the initial data, consecutive repeats collapsed."""
    root = str(Path(fr.__file__).parent)
    seen: list[str] = []

    def tracer(frame: Any, event: str, arg: Any) -> None:
        if event != "call":
            return None
        fname = frame.f_code.co_filename
        if not fname.startswith(root):
            return None
        loc = frame.f_locals
        code = frame.f_code
        args = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
        if any(a in _NAMES for a in args) or any(loc.get(a) is q0 for a in args):
            mod = str(Path(fname).relative_to(root).with_suffix("")).replace("/", ".")
            if not seen or seen[-1] != mod:
                seen.append(mod)
        return None

    sys.settrace(tracer)
    try:
        call()
    finally:
        sys.settrace(None)
    return seen


def main() -> None:
    mdl = fr.models.knife_edge()
    q0 = [0.0, 0.0, 0.0]  # (phi, x, y)
    u0 = [0.5, 1.0, 0.0]
    fr.integrate(mdl, (0.0, 1.0), q0, u0)  # compile once, outside the walk
    path = walk(lambda: fr.integrate(mdl, (0.0, 1.0), q0, u0), q0)
    n_params = len(inspect.signature(fr.integrate).parameters)
    print(f"integrate parameters: {n_params}")
    print(f"q0 walk: {len(path)} module visits, {len(set(path))} modules, returns {len(path) - len(set(path))}")
    print("walk: " + " -> ".join(path))
    qb, ub = [q0, [0.3, 0.0, 0.0]], [u0, [0.5, 0.955336489125606, 0.29552020666133955]]
    fr.integrate(mdl, (0.0, 1.0), qb, ub, progress=False)
    path = walk(lambda: fr.integrate(mdl, (0.0, 1.0), qb, ub, progress=False), qb)
    print(f"batch q0 walk: {len(path)} module visits, {len(set(path))} modules, returns {len(path) - len(set(path))}")
    print("walk: " + " -> ".join(path))


if __name__ == "__main__":
    main()
