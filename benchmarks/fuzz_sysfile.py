"""Fuzzing of system files: random valid files and hostile ones, each read by ``frames.loads_model``.

The generators and the classification of outcomes are those of the test suite, ``tests/_sysfile_fuzz_gen.py``
(see its docstring for the kinds of case and the outcomes); ``tests/app/test_sysfile_fuzz.py`` drives them with
hypothesis, this script with a seeded ``random.Random`` over many cases, and prints the count of each outcome.
The exit status is 1 if any case raised a raw exception, hung, was silently accepted, ran code or did not
round-trip.

Run: ``python benchmarks/fuzz_sysfile.py [--n 4000] [--seed 0] [--show 5]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# the generators live beside the tests (``tests/`` is not a package: put its directory on the path)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from _sysfile_fuzz_gen import summary


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=4000, help="number of random cases")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--show", type=int, default=5, help="examples of each bad outcome to print")
    args = ap.parse_args(argv)
    return summary(args.n, args.seed, args.show)


if __name__ == "__main__":
    sys.exit(main())
