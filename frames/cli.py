"""The ``frames`` command.

``frames models`` lists the catalogue; ``frames analyze MODEL`` prints an
analysis of a catalogue model: chart, frame, object of anholonomy, lifted
frame, Frobenius verdict, L in quasi-velocities, nonholonomic field and
multipliers.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import models
from ._errors import FramesError
from ._simplify import tidy


def _analyze_text(mdl: models.Model) -> str:
    F = mdl.frame
    out = [f"# {mdl.name}", f"citation: {mdl.citation}", "", "## Chart", f"q = {mdl.chart.q}", f"u = {mdl.chart.u}"]
    if mdl.params:
        out.append(f"params = {tuple(mdl.params)}")
    out += ["", f"## Frame (first m = {mdl.m} fields span D)"]
    out += [f"X{i + 1} = {X!r}" for i, X in enumerate(F.fields)]
    out += ["", "## Object of anholonomy  [X_i, X_j] = R^k_ij X_k"]
    R = F.anholonomy
    n = F.dim
    nz = [(k, i, j) for k in range(n) for i in range(n) for j in range(i + 1, n) if R[k, i, j] != 0]
    out += [f"R^{k + 1}_{i + 1}{j + 1} = {R[k, i, j]}" for k, i, j in nz] or ["R = 0 (holonomic frame)"]
    out += ["", "## Lifted frame in (q, v)"]
    XC, XV = F.lifted()
    out += [f"X{i + 1}^C = {XC[i]!r}" for i in range(n)]
    out += [f"X{i + 1}^V = {XV[i]!r}" for i in range(n)]
    nh = mdl.nonholonomic()
    out += ["", "## Frobenius", str(nh.frobenius())]
    out += ["", "## Lagrangian in quasi-velocities", f"L = {tidy(mdl.lagrangian.in_frame(F))}"]
    out += [f"L_c = {nh.constrained_lagrangian()}"]
    G = nh.field()
    out += ["", "## Nonholonomic field (Proposition 2)", repr(G)]
    out += [f"λ_{a + 1} = {lam}" for a, lam in zip(nh.a, nh.multipliers(), strict=True)]
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``frames`` console script."""
    parser = argparse.ArgumentParser(prog="frames", description="Constrained mechanics in anholonomic frames.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("models", help="list the catalogue of models")
    pa = sub.add_parser("analyze", help="print a full analysis of a model")
    pa.add_argument("model", help="catalogue name, e.g. two-wheeled-carriage")
    args = parser.parse_args(argv)
    try:
        if args.command == "models":
            for name, ctor in models.catalogue().items():
                doc = (ctor.__doc__ or "").strip().splitlines()[0]
                print(f"{name:28s} {doc}")
            return 0
        if args.command == "analyze":
            print(_analyze_text(models.get(args.model)))
            return 0
    except FramesError as exc:
        print(f"frames: error: {exc}", file=sys.stderr)
        return 2
    return 1


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
