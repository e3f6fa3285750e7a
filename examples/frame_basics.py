"""Worked example: a frame, its object of anholonomy and its lifted frame.

Crampin & Mestdag (2010), sections 2.1 and 7.1: the nonholonomic particle.
Run ``python examples/frame_basics.py [OUTDIR]``; a text report is printed and
written to ``OUTDIR/frame_basics.txt``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import frames as fr


def report() -> str:
    """Build the text report."""
    ch = fr.Chart("q1 q2 q3")
    q1 = ch.q[0]
    X1 = fr.VectorField(ch, [1, 0, 0])
    X2 = fr.VectorField(ch, [0, 1, -q1])
    X3 = fr.VectorField(ch, [0, 0, 1])
    F = fr.Frame([X1, X2, X3])
    lines = ["Frame:", repr(F), "", "Coframe:"]
    lines += [f"  theta^{i + 1} = {th!r}" for i, th in enumerate(F.coframe)]
    lines += ["", f"[X1, X2] = {fr.bracket(X1, X2)!r}", "", "Object of anholonomy R[k, i, j]:", str(F.anholonomy)]
    XC, XV = F.lifted()
    lines += ["", "Lifted frame in (q, v):"]
    lines += [f"  X{i + 1}^C = {XC[i]!r}" for i in range(3)]
    lines += [f"  X{i + 1}^V = {XV[i]!r}" for i in range(3)]
    L = fr.Lagrangian(ch, sum(ui**2 for ui in ch.u) / 2)
    nh = fr.NonholonomicSystem(L, F, m=2)
    lines += [
        "",
        "Nonholonomic field (Proposition 2):",
        f"  {nh.field()!r}",
        f"  multiplier lambda_3 = {nh.multipliers()[0]}",
    ]
    return "\n".join(lines)


def main(outdir: str | Path | None = None) -> str:
    """Print the report and write it to ``outdir/frame_basics.txt``."""
    text = report()
    print(text)
    if outdir is not None:
        out = Path(outdir)
        out.mkdir(parents=True, exist_ok=True)
        (out / "frame_basics.txt").write_text(text + "\n", encoding="utf-8")
    return text


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
