"""Time the object of anholonomy for random polynomial frames.

Frames are ``P·U`` with ``U`` unipotent upper triangular with random polynomial
entries (degree ≤ 2, up to 3 terms, integer coefficients; by default about two
non-zero entries per row) and ``P`` a random permutation, so every frame is
invertible everywhere with a polynomial coframe.
Dimensions 4, 8, 12, 16, 24. Usage::

    python benchmarks/anholonomy.py [--dims 4 8 12 16 24] [--seed 0] [--density P] [--compare]

Prints, per dimension: time to build the frame (determinant check), time for
the coframe, time for the object of anholonomy, the number of non-zero
``R^k_ij`` and their total ``count_ops``. With ``--compare`` also the time of the
expression-level computation (the general fallback: brackets as expressions,
``canon`` of ``Θ [X_i, X_j]``) and whether its entries are the same expressions.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import sympy as sp

try:
    import frames as fr
except ImportError:  # running from a source checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import frames as fr
from frames.algebra.internal import entries


def random_frame(n: int, rng: random.Random, density: float) -> fr.Frame:
    ch = fr.Chart(" ".join(f"q{i + 1}" for i in range(n)))
    q = ch.q
    U = sp.eye(n)
    for i in range(n):
        for j in range(i + 1, n):
            if rng.random() < (density if density > 0 else 2.0 / n):
                terms = []
                for _ in range(rng.randint(1, 3)):
                    mono = sp.Integer(rng.randint(-3, 3) or 1)
                    for _ in range(rng.randint(1, 2)):
                        mono *= rng.choice(q)
                    terms.append(mono)
                U[i, j] = sp.Add(*terms)
    perm = list(range(n))
    rng.shuffle(perm)
    rows = [list(U.row(p)) for p in perm]
    return fr.Frame([fr.VectorField(ch, r) for r in rows])


def run(dims: list[int], seed: int, density: float, compare: bool = False) -> list[dict[str, float]]:
    rng = random.Random(seed)
    out = []
    for n in dims:
        t0 = time.perf_counter()
        F = random_frame(n, rng, density)
        t1 = time.perf_counter()
        _ = F.coframe_matrix
        t2 = time.perf_counter()
        R = F.anholonomy
        t3 = time.perf_counter()
        nz = [r for r in entries(R) if r != 0]
        row = {
            "n": n,
            "frame_s": t1 - t0,
            "coframe_s": t2 - t1,
            "anholonomy_s": t3 - t2,
            "nonzero": len(nz) // 2,
            "ops": sum(sp.count_ops(r) for r in nz) // 2,
        }
        if compare:
            t4 = time.perf_counter()
            R_expr = F._anholonomy_from_brackets()
            row["expression_s"] = time.perf_counter() - t4
            row["same"] = entries(R_expr) == entries(R)
        out.append(row)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--dims", type=int, nargs="+", default=[4, 8, 12, 16, 24])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--density",
        type=float,
        default=0.0,
        help="probability of a non-zero off-diagonal entry; 0 (default) means 2/n, about two per row",
    )
    ap.add_argument(
        "--compare",
        action="store_true",
        help="also time the expression-level computation and check that it gives the same entries",
    )
    args = ap.parse_args(argv)
    rows = run(args.dims, args.seed, args.density, args.compare)
    extra = f" {'R expr [s]':>11} {'same':>5}" if args.compare else ""
    print(
        f"{'n':>4} {'frame [s]':>10} {'coframe [s]':>12} {'R [s]':>10} {'R^k_ij≠0 (i<j)':>16} {'count_ops':>10}{extra}"
    )
    for r in rows:
        more = f" {r['expression_s']:>11.3f} {r['same']!s:>5}" if args.compare else ""
        print(
            f"{r['n']:>4} {r['frame_s']:>10.3f} {r['coframe_s']:>12.3f} {r['anholonomy_s']:>10.3f} "
            f"{r['nonzero']:>16} {r['ops']:>10}{more}"
        )


if __name__ == "__main__":
    main()
