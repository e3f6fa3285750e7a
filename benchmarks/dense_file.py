"""Benchmark: ``frames analyze`` of the dense 4-dof system file of issue 42, and the size of its vakonomic field.

The file (``tests/app/data/dense4.toml``) has compound, product and nested arguments in L (``sin(a + b)``,
``cos(c*d)``, ``sin(a*b*c*d)``, ``exp(sin(a))``, ``cos(a + b*c)``) and two linear constraints with such
coefficients. Printed, in one table:

* **analyze**: the wall time of ``frames analyze FILE --progress`` in a child process (``--timeout``, default 420 s),
  and the largest gap between two progress lines on stderr, counting the start of the process and its exit (the
  issue's targets: within 120 s, a line at least every 5 s);
* **sizes**: :func:`frames.algebra.op_count` (``count_ops``' measure) summed over the vakonomic field
  ``VakonomicSystem.field()`` (default: compact), its ``tangent_field().A``, and, as the size reference, SymPy's raw
  :class:`~sympy.physics.mechanics.LagrangesMethod` of the same L: ``rhs()`` of the unconstrained equations and of
  the constraint-augmented ones (``nonhol_coneqs``), no simplification, written in plain symbols (``q(t)`` → ``q``,
  ``q̇(t)`` → ``u``) so that a function of time is not counted as an operation. Each size is measured in a child
  process with the same time limit (``> T s`` when exceeded).

Run:  python benchmarks/dense_file.py [--timeout 420] [--file FILE.toml]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DENSE = ROOT / "tests" / "app" / "data" / "dense4.toml"


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def run_analyze(path: Path, timeout: float) -> dict[str, object]:
    """Wall time, exit code, number of progress lines and the largest gap between them (with start and exit)."""
    code = "import sys; from frames.app import console; sys.exit(console())"
    cmd = [sys.executable, "-c", code, "analyze", str(path), "--progress"]
    t0 = time.monotonic()
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8"
    )
    stamps: list[tuple[float, str]] = []
    out: list[str] = []

    def read_err() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            stamps.append((time.monotonic() - t0, line.rstrip("\n")))

    def read_out() -> None:
        assert proc.stdout is not None
        out.append(proc.stdout.read())

    threads = [threading.Thread(target=read_err, daemon=True), threading.Thread(target=read_out, daemon=True)]
    for th in threads:
        th.start()
    try:
        rc: int | None = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        rc = None
    wall = time.monotonic() - t0
    for th in threads:
        th.join(5)
    times = [0.0, *(t for t, _ in stamps), wall]
    gaps = [(times[i + 1] - times[i], i) for i in range(len(times) - 1)]
    gap, at = max(gaps)
    after = "start" if at == 0 else stamps[at - 1][1].strip()
    return {
        "wall": wall,
        "rc": rc,
        "lines": len(stamps),
        "gap": gap,
        "gap_after": after,
        "output_bytes": len("".join(out).encode()),
    }


def _sizes_frames(path: str) -> dict[str, int]:
    import frames as fr
    from frames.algebra import op_count

    mdl = fr.load_model(path)
    vk = fr.VakonomicSystem.from_nonholonomic(mdl.nonholonomic())
    F = vk.field()
    tf = vk.tangent_field()
    return {
        "vakonomic field (default)": sum(op_count(x) for x in F.Gamma),
        "tangent_field().A (default)": sum(op_count(x) for x in tf.A),
    }


def _sizes_lagrange(path: str, constrained: bool) -> dict[str, int]:
    import sympy as sp
    from sympy.physics.mechanics import LagrangesMethod, dynamicsymbols

    import frames as fr
    from frames.algebra import op_count

    mdl = fr.load_model(path)
    ch = mdl.lagrangian.chart
    t = sp.Symbol("t")
    qs = [dynamicsymbols(str(q)) for q in ch.q]
    to_t = {**dict(zip(ch.q, qs, strict=True)), **{u: q.diff(t) for u, q in zip(ch.u, qs, strict=True)}}
    L = mdl.lagrangian.expr.xreplace(to_t)
    kw = {}
    if constrained:
        A = mdl.constraints.matrix  # rows: the constraints A u = 0
        kw["nonhol_coneqs"] = [sum(A[i, j] * u for j, u in enumerate(ch.u)).xreplace(to_t) for i in range(A.rows)]
    lm = LagrangesMethod(L, qs, **kw)
    lm.form_lagranges_equations()
    rhs = lm.rhs()
    back = {q.diff(t): u for q, u in zip(qs, ch.u, strict=True)}
    back.update(dict(zip(qs, ch.q, strict=True)))
    plain = [x.subs(back) for x in rhs]
    key = "LagrangesMethod rhs() with constraints" if constrained else "LagrangesMethod rhs() unconstrained"
    return {key: sum(op_count(x) for x in plain)}


def _child(what: str, path: str, timeout: float) -> dict[str, object]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--one", what, "--file", path]
    t0 = time.monotonic()
    try:
        res = subprocess.run(cmd, cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {what: f"> {timeout:g} s"}
    if res.returncode != 0:
        return {what: "error: " + (res.stderr.strip().splitlines() or ["?"])[-1]}
    out: dict[str, object] = json.loads(res.stdout.strip().splitlines()[-1])
    out[f"{what} time (s)"] = round(time.monotonic() - t0, 1)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=420.0)
    ap.add_argument("--file", default=str(DENSE))
    ap.add_argument("--one", choices=["frames", "lagrange", "lagrange-constrained"], help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        if args.one == "frames":
            res = _sizes_frames(args.file)
        else:
            res = _sizes_lagrange(args.file, args.one == "lagrange-constrained")
        print(json.dumps(res))
        return 0
    a = run_analyze(Path(args.file), args.timeout)
    rows: list[tuple[str, object]] = [
        ("frames analyze wall time (s)", f"{a['wall']:.1f}" + ("" if a["rc"] is not None else " (killed)")),
        ("exit code", a["rc"]),
        ("progress lines", a["lines"]),
        ("largest gap between progress lines (s)", f"{a['gap']:.1f} (after: {a['gap_after']})"),
        ("report size (bytes)", a["output_bytes"]),
    ]
    for what in ("frames", "lagrange", "lagrange-constrained"):
        rows += list(_child(what, args.file, args.timeout).items())
    width = max(len(k) for k, _ in rows)
    print(f"dense file: {Path(args.file).name}")
    print(f"{'measure':<{width}}  value")
    print(f"{'-' * width}  {'-' * 40}")
    for k, v in rows:
        print(f"{k:<{width}}  {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
