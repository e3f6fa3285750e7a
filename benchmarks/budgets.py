"""How far past its budget ``frames analyze`` runs, on hostile system files.

Each measurement is one fresh ``frames analyze FILE --budget B`` (the console script: the cooperative budget
and the hard limit of its supervised child). The overrun is the wall time minus the budget minus the start-up
time of the command (``frames analyze knife-edge --only chart``, measured first, the import of sympy and
frames included). The files:

- ``potential40``: ``L = |u|²/2 − (x + y + z + 1)**40`` with one constraint (12,341 terms once multiplied out);
- ``lagrangian60``: ``L = (u_x + u_y + x + y + 1)**60 + u_z²/2`` (about 635,000 terms): refused when it is read.

Run: ``python benchmarks/budgets.py [--budgets 5 10 20]``.
"""

from __future__ import annotations

import argparse
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


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budgets", type=float, nargs="+", default=[5.0, 10.0, 20.0])
    args = ap.parse_args(argv)
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
