"""The stability map of the benchmark Whipple bicycle over the forward speed ``V`` and the trail ``c``.

SymPy's bicycle (:mod:`whipple_bicycle`, the ``KanesMethod`` of ``test_kane3.py``) is read with
:func:`frames.from_mechanics` and linearised about upright straight running at speed ``V``; the benchmark's exact
parameters (Meijaard et al. 2007) are given with the trail ``c`` left free (the fork geometry follows from it),
and :meth:`~frames.dynamics.Linearization.stability_region` finds the exact weave curve (``Δ_3 = 0``) and capsize
curve (``c_4 = 0``) over ``V ∈ [0, 10] m/s``, ``c ∈ [0, 0.2] m`` and the class of each cell between them.
:func:`frames.plot_stability_region` draws the map: ``bicycle_map.png`` (the image of ``docs/stability.md``) and
the cells to ``bicycle_map.txt``.

Run:  python examples/bicycle_stability_map.py [OUT_DIR]      (default: docs/_static)
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

import sympy as sp

import frames as fr
from frames.algebra import op_count

HERE = Path(__file__).resolve().parent
_SPEC = importlib.util.spec_from_file_location("whipple_bicycle", HERE / "whipple_bicycle.py")
assert _SPEC is not None and _SPEC.loader is not None
bicycle = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bicycle)


def main(out: Path | str = HERE.parent / "docs" / "_static", n: int = 121) -> Path:
    """Write ``bicycle_map.png`` (and ``bicycle_map.txt``, the cells) to ``out``; return the text file's path.

    Parameters
    ----------
    out : path
        The directory written to (it must exist).
    n : int
        Grid points along each side of the box.
    """
    out = Path(out)
    t = time.monotonic()
    mdl = fr.from_mechanics(bicycle.bicycle(), name="whipple-bicycle")
    V, c = sp.Symbol("V"), sp.Symbol("c")
    lin = fr.linearize(mdl.nonholonomic(), bicycle.upright(mdl, V))
    print(f"built and linearised: {time.monotonic() - t:.1f} s")
    t = time.monotonic()
    region = lin.stability_region(
        {V: (0, 10), c: (0, sp.Rational(1, 5))}, bicycle.benchmark_parameters(None, trail=c), n=n
    )
    print(f"stability_region (n = {n}): {time.monotonic() - t:.1f} s")
    lines = [f"{name} = {expr}" for name, expr in (("V", "forward speed [m/s]"), ("c", "trail [m]"))]
    lines += [f"{kind} boundary: {op_count(e):,} operations" for kind, e in region.curves]
    lines += [f"{cell.stability:22s} sample V = {cell.sample[0]:.4g}, c = {cell.sample[1]:.4g} ({cell.area:.1%})"
              for cell in sorted(region.cells, key=lambda cell: -cell.area)]  # fmt: skip
    try:
        fr.plot_stability_region(
            region, out / "bicycle_map.png",
            title="Whipple bicycle (Meijaard et al. 2007): stability in forward speed V [m/s] and trail c [m]",
        )  # fmt: skip
    except fr.errors.OptionalDependencyError:
        lines.append("(no plot: install the plot extra)")
    path = out / "bicycle_map.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return path


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else HERE.parent / "docs" / "_static")
