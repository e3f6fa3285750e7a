"""How far past its budget ``frames analyze`` runs, on hostile system files; budgets and progress inside a process.

Each measurement is one fresh ``frames analyze FILE --budget B`` (the console script: the cooperative budget
and the hard limit of its supervised child). The overrun is the wall time minus the budget minus the start-up
time of the command (``frames analyze knife-edge --only chart``, measured first, the import of sympy and
frames included). The files:

- ``potential40``: ``L = |u|²/2 − (x + y + z + 1)**40`` with one constraint (12,341 terms once multiplied out);
- ``lagrangian60``: ``L = (u_x + u_y + x + y + 1)**60 + u_z²/2`` (about 635,000 terms): refused when it is read.

Run: ``python benchmarks/budgets.py [--budgets 5 10 20]``.

``--calls`` (or ``--only-calls``) measures, in one fresh process per case, a library call under
``budget=B, progress=...`` (``NonholonomicSystem.field``, ``accelerations``, ``multipliers``, ``from_mechanics``):
the wall time, the overrun past the budget (wall − B when it raised :class:`~frames.errors.BudgetExceededError`,
else how far it returned past B), and the largest gap between two progress messages (the start and the end of
the call included). The target: an overrun within 10 % or 2 s, no gap over 5 s. The systems:

- ``sphere``: the rotor-driven sphere (``tests/_sympy_sphere.py``, a ``KanesMethod``) through ``from_mechanics``;
- ``rand5``: ``benchmarks/engine.py``'s random system ``n = 5``; ``compound4``/``compound5``: random systems whose
  metric and constraints mix compound angles and exponentials (``sin(q1 − q3)``, ``cos(q2 + 2 q4)``, ``exp(q/2)``);
- ``bicycle``: the Whipple bicycle (``examples/whipple_bicycle.py``) through ``from_mechanics``.

``--frames-path DIR`` imports ``frames`` from ``DIR`` in the measuring processes (a checkout of another commit:
the before/after figures).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FILES = {
    "potential40": (
        'coordinates = ["x", "y", "z"]\n'
        'lagrangian = "(u_x**2 + u_y**2 + u_z**2)/2 - (x + y + z + 1)**40"\n'
        'constraints = ["u_z - x*u_y"]\n'
    ),
    "lagrangian60": (
        'coordinates = ["x", "y", "z"]\n'
        'lagrangian = "(u_x + u_y + x + y + 1)**60 + u_z**2/2"\n'
        'constraints = ["u_z - x*u_y"]\n'
    ),
}


def _run(args: list[str]) -> tuple[float, int, str]:
    start = time.monotonic()
    out = subprocess.run(
        [sys.executable, "-c", "from frames.app._cli import console; console()", *args],
        capture_output=True,
        text=True,
        timeout=600,
    )
    last = (out.stderr.strip().splitlines() or [""])[-1]
    return time.monotonic() - start, out.returncode, last


ROOT = Path(__file__).resolve().parent.parent

#: (system, call, budget) measured by ``--calls``
CALLS = [
    ("sphere", "from_mechanics", 30.0),
    ("sphere", "field", 30.0),
    ("sphere", "field", 5.0),
    ("sphere", "accelerations", 30.0),
    ("sphere", "multipliers", 30.0),
    ("rand5", "field", 5.0),
    ("rand5", "accelerations", 5.0),
    ("rand5", "multipliers", 5.0),
    ("compound4", "field", 5.0),
    ("compound5", "field", 5.0),
    ("compound5", "accelerations", 5.0),
    ("bicycle", "from_mechanics", 60.0),
    ("bicycle", "field", 60.0),
]


def _compound_system(n: int, seed: int = 42) -> tuple[object, object, int]:
    """A random system whose metric and constraints mix compound angles and exponentials (seeded)."""
    import sympy as sp

    import frames as fr

    rng = random.Random(seed * 100 + n)
    ch = fr.Chart(" ".join(f"q{i + 1}" for i in range(n)))
    q = list(ch.q)

    def term() -> sp.Expr:
        a, b = rng.sample(q, 2)
        c = rng.choice((1, -1, 2))
        kind = rng.choice(("sin-", "cos+2", "sin2", "exp/2", "prod"))
        return {
            "sin-": c * sp.sin(a - b),
            "cos+2": c * sp.cos(a + 2 * b),
            "sin2": c * sp.sin(2 * a),
            "exp/2": c * sp.exp(a / 2),
            "prod": c * a * sp.cos(b),
        }[kind]

    r = min(2, n - 2)
    m = n - r
    pos = [term() + term() for _ in range(n)]
    Ju = sp.Matrix(pos).jacobian(q) * sp.Matrix(ch.u)
    L = fr.Lagrangian(ch, (Ju.dot(Ju) + sum(ui**2 for ui in ch.u)) / 2 - term())
    rows = []
    for a in range(r):
        row = [term() for _ in range(m)] + [sp.S.Zero] * r
        row[m + a] = sp.S.One
        rows.append(row)
    return L, fr.LinearConstraints(ch, rows), m


def _measure_call(system: str, call: str, seconds: float) -> dict:
    """One measurement (in the measuring process): see the module's docstring."""
    import frames as fr

    def prepare() -> object:
        if system == "sphere":
            sys.path.insert(0, str(ROOT / "tests"))
            from _sympy_sphere import rotor_sphere

            return rotor_sphere().KM
        if system == "bicycle":
            from benchmarks.bicycle import bicycle

            return bicycle()
        if system.startswith("rand"):
            from benchmarks.engine import random_system

            L, cons, m, _pos, _V = random_system(int(system.removeprefix("rand")))
        else:
            L, cons, m = _compound_system(int(system.removeprefix("compound")))
        return fr.NonholonomicSystem(L, cons.adapted_frame(), m=m)

    obj = prepare()
    if call != "from_mechanics":
        if system in ("sphere", "bicycle"):
            obj = fr.from_mechanics(obj).nonholonomic()
    stamps: list[float] = []
    msgs: list[str] = []

    def progress(msg: str) -> None:
        stamps.append(time.monotonic())
        msgs.append(msg)

    start = time.monotonic()
    outcome = "returned"
    try:
        if call == "from_mechanics":
            with fr.budget(seconds, progress=progress):
                fr.from_mechanics(obj)
        else:
            getattr(obj, call)(budget=seconds, progress=progress)
    except fr.errors.BudgetExceededError as exc:
        outcome = f"raised in {exc.step!r}"
    end = time.monotonic()
    times = [start, *stamps, end]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    worst = max(range(len(gaps)), key=gaps.__getitem__)
    return {
        "wall": end - start,
        "overrun": end - start - seconds,
        "gap": gaps[worst],
        "gap_after": (["start", *msgs][worst])[:60],
        "outcome": outcome,
        "messages": len(msgs),
    }


def run_calls(frames_path: str | None, timeout: float) -> None:
    """Each case of :data:`CALLS` in a fresh process (stopped after ``timeout`` s): overrun and largest gap."""
    print(
        f"{'system':10s} {'call':15s} {'budget':>6s} {'wall':>7s} {'overrun':>8s} {'max gap':>7s}  outcome / gap after"
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (frames_path, str(ROOT), env.get("PYTHONPATH")) if p)
    for system, call, seconds in CALLS:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--child", system, call, f"{seconds:g}"]
        start = time.monotonic()
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT)
        except subprocess.TimeoutExpired:
            wall = time.monotonic() - start
            print(
                f"{system:10s} {call:15s} {seconds:6g} {wall:7.1f} {wall - seconds:8.1f} {'-':>7s}  killed after {timeout:g} s"
            )
            continue
        lines = [ln for ln in out.stdout.splitlines() if ln.startswith("{")]
        if not lines:
            err = (out.stderr.strip().splitlines() or ["?"])[-1]
            print(f"{system:10s} {call:15s} {seconds:6g} {'':7s} {'':8s} {'':7s}  failed: {err[:80]}")
            continue
        r = json.loads(lines[-1])
        print(
            f"{system:10s} {call:15s} {seconds:6g} {r['wall']:7.2f} {r['overrun']:8.2f} {r['gap']:7.2f}  "
            f"{r['outcome']} / {r['gap_after']!r}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budgets", type=float, nargs="+", default=[5.0, 10.0, 20.0])
    ap.add_argument("--calls", action="store_true", help="also the library calls under a budget (see the docstring)")
    ap.add_argument("--only-calls", action="store_true", help="only the library calls")
    ap.add_argument("--frames-path", default=None, help="import frames from this directory in the measuring processes")
    ap.add_argument("--timeout", type=float, default=240.0, help="stop a measuring process after this many s")
    ap.add_argument("--child", nargs=3, metavar=("SYSTEM", "CALL", "BUDGET"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        system, call, seconds = args.child
        print(json.dumps(_measure_call(system, call, float(seconds))), flush=True)
        return
    if args.calls or args.only_calls:
        run_calls(args.frames_path, args.timeout)
        if args.only_calls:
            return
    startup, _, _ = _run(["analyze", "knife-edge", "--only", "chart", "--no-progress"])
    print(f"start-up of the command: {startup:.2f} s")
    print(f"{'file':14s} {'budget':>7s} {'wall':>7s} {'overrun':>8s} {'exit':>4s}  message")
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in FILES.items():
            path = Path(tmp) / f"{name}.toml"
            path.write_text(text)
            for b in args.budgets:
                wall, code, msg = _run(["analyze", str(path), "--budget", f"{b:g}", "--no-progress"])
                over = wall - startup - b
                print(f"{name:14s} {b:7g} {wall:7.2f} {over:8.2f} {code:4d}  {msg[:90]}")
                if code != 3:  # refused (2) or finished (0): a larger budget changes nothing
                    break


if __name__ == "__main__":
    main()
