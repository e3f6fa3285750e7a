r"""The stability of a model about its operating point, outside Python: ``frames linearize`` and the report's section.

A model (a system file) names an operating point (``[operating_point]``: coordinates, velocities, the inputs'
operating values; values may be expressions in the parameters) and its inputs (``inputs``). Here the point is
completed from the command line (``--at name=value``, read by the safe parser), the model is linearised
(:func:`frames.linearize`), and the result is summarised at numeric parameter values (the file's values,
``--param``): the exact ``A`` and ``B``, the eigenvalues, the verdict, and the critical values of a parameter
swept over a range (``--sweep V=a:b:n``) with the verdict on each side.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

import numpy as np
import sympy as sp

from ..algebra import op_count
from ..dynamics import Linearization, linearize
from ..errors import ArgumentError, ConstraintError, RegularityError, StateError
from ._model import Model
from ._safe_parser import normalize_name, parse_expression

__all__ = ["Sweep", "model_point", "parse_sweep", "stability_report", "stability_summary", "summary_lines"]

#: entries of ``A`` and ``B`` above this many operations are not printed (their size is)
PRINT_OPS = 400
#: the most samples of a sweep
MAX_SWEEP = 100_000


class Sweep:
    """``NAME=START:STOP:COUNT`` of ``--sweep``: a parameter and its samples."""

    def __init__(self, name: str, start: float, stop: float, count: int) -> None:
        self.name, self.start, self.stop, self.count = name, start, stop, count

    @property
    def values(self) -> np.ndarray:
        return np.linspace(self.start, self.stop, self.count)


def parse_sweep(text: str) -> Sweep:
    """``V=0:10:101`` as a :class:`Sweep`, or an :class:`~frames.errors.ArgumentError` naming the text."""
    name, sep, rng = text.partition("=")
    parts = rng.split(":")
    if not sep or not name.strip() or len(parts) != 3:
        raise ArgumentError(f"--sweep {text!r}: expected NAME=START:STOP:COUNT (e.g. V=0:10:101)")
    try:
        start, stop = float(parts[0]), float(parts[1])
        count = int(parts[2])
    except ValueError:
        raise ArgumentError(f"--sweep {text!r}: START and STOP must be numbers and COUNT an integer") from None
    if not (math.isfinite(start) and math.isfinite(stop)) or start >= stop:
        raise ArgumentError(f"--sweep {text!r}: START < STOP, both finite")
    if not 2 <= count <= MAX_SWEEP:
        raise ArgumentError(f"--sweep {text!r}: COUNT between 2 and {MAX_SWEEP}")
    return Sweep(normalize_name(name.strip()), start, stop, count)


def model_point(model: Model, at: Mapping[str, str] | None = None) -> dict[sp.Symbol, sp.Expr]:
    """The model's operating point with ``at`` (name -> text, read by the safe parser over the parameters) on top.

    Keys are coordinates, velocities, the independent quasi-velocities of the model's frame and inputs.
    """
    ch = model.chart
    names: dict[str, sp.Symbol] = {s.name: s for s in (*ch.q, *ch.u, *model.frame.v[: model.m])}
    names |= {pn: s for pn, s in model.params.items() if isinstance(s, sp.Symbol)}
    params = {pn: s for pn, s in model.params.items() if isinstance(s, sp.Symbol)}
    point: dict[sp.Symbol, sp.Expr] = dict(model.operating_point)
    given_v = False
    for raw, text in (at or {}).items():
        name = normalize_name(raw)
        sym = names.get(name)
        if sym is None:
            raise ArgumentError(
                f"--at {raw}: not a coordinate, velocity, quasi-velocity or input of {model.name} "
                f"({sorted(n for n in names if n not in params or n in model.inputs)})"
            )
        point[sym] = parse_expression(text, params)
        given_v = given_v or (sym in model.frame.v[: model.m] and sym not in ch.u)
    if given_v:  # quasi-velocities replace the natural velocities of the file's point
        point = {s: v for s, v in point.items() if s not in ch.u}
    return point


def _numbers(
    lin: Linearization, model: Model, values: Mapping[str, float], sweep: Sweep | None
) -> tuple[dict[str, float], list[str]]:
    """The parameter values ``A`` needs (the file's, then ``values``), and the names still without one."""
    free = {s.name for s in lin.A.free_symbols}
    have = {s.name: float(v) for s, v in model.param_values.items()} | dict(values)
    unknown = sorted(set(values) - set(model.params))
    if unknown:
        raise ArgumentError(f"--param {unknown[0]}: not a parameter of {model.name} ({sorted(model.params)})")
    if sweep is not None and sweep.name not in model.params:
        raise ArgumentError(f"--sweep {sweep.name}: not a parameter of {model.name} ({sorted(model.params)})")
    out = {k: v for k, v in have.items() if k in free}
    missing = sorted(free - set(out) - ({sweep.name} if sweep is not None else set()))
    return out, missing


def _show(e: sp.Expr) -> str:
    return sp.sstr(e) if op_count(e, PRINT_OPS) <= PRINT_OPS else f"<{op_count(e):,} operations>"


def _complex(z: complex) -> dict[str, float]:
    return {"re": float(np.real(z)), "im": float(np.imag(z))}


def stability_summary(
    model: Model,
    at: Mapping[str, str] | None = None,
    inputs: Sequence[str] | None = None,
    values: Mapping[str, float] | None = None,
    sweep: Sweep | None = None,
) -> dict[str, Any]:
    """Linearise ``model`` about its operating point (``at`` on top) and summarise the result (JSON-ready).

    Returns a mapping with ``states``, ``removed``, ``inputs``, ``A`` and ``B`` (rows of strings), ``values``
    (the parameter values used), ``eigenvalues`` (``{"re", "im"}``) and ``stability`` when every symbol of ``A``
    has a value, ``missing`` otherwise, and ``sweep`` (parameter, range, ``critical_values``, the verdict on each
    interval) when asked; ``linearization`` holds the :class:`~frames.results.Linearization` (not JSON).
    """
    point = model_point(model, at)
    if not point:
        raise StateError(
            f"{model.name}: no operating point; give one in the file ([operating_point]) or with --at name=value"
        )
    ins = tuple(model.inputs if inputs is None else (normalize_name(w) for w in inputs))
    # parameters with an operating value (the file's inputs) stay inputs of the linearisation; B shows ``ins``
    held = [s.name for s in point if s in set(model.params.values()) and s.name not in ins]
    lin = linearize(model.nonholonomic(), point, inputs=(*ins, *held))
    B = lin.B[:, : len(ins)] if lin.B is not None and ins else None
    nums, missing = _numbers(lin, model, values or {}, sweep)
    out: dict[str, Any] = {
        "model": model.name,
        "point": {s.name: sp.sstr(v) for s, v in point.items()},
        "states": [s.name for s in lin.states],
        "removed": [s.name for s in lin.removed],
        "inputs": [s.name for s in lin.inputs[: len(ins)]],
        "A": [[_show(e) for e in lin.A.row(i)] for i in range(lin.A.rows)],
        "B": [[_show(e) for e in B.row(i)] for i in range(B.rows)] if B is not None else [],
        "values": nums,
        "missing": missing,
        "linearization": lin,
        "B_matrix": B,
    }
    free = {x.name for x in lin.A.free_symbols}
    if free <= set(nums):  # the point's eigenvalues at the values given
        ev = lin.eigenvalues(nums)
        out["eigenvalues"] = [_complex(z) for z in ev[np.argsort(np.real(ev))]]
        out["stability"] = lin.stability(nums)
    if sweep is not None and not missing:
        rest = {k: v for k, v in nums.items() if k != sweep.name}
        crit = lin.critical_values(sweep.name, sweep.values, rest)
        edges = [sweep.start, *crit, sweep.stop]
        out["sweep"] = {
            "parameter": sweep.name,
            "start": sweep.start,
            "stop": sweep.stop,
            "count": sweep.count,
            "critical_values": [float(c) for c in crit],
            "intervals": [
                {"from": lo, "to": hi, "stability": lin.stability(rest | {sweep.name: (lo + hi) / 2})}
                for lo, hi in pairwise(edges)
            ],
        }
    return out


def _fmt(x: float) -> str:
    return f"{0.0 if abs(x) < 1e-9 else x:.6g}"


def summary_lines(s: Mapping[str, Any]) -> list[str]:
    """The text of ``frames linearize``: the point, A and B, the eigenvalues and verdict, the critical values."""
    lines = [f"{s['model']}: linearised about " + ", ".join(f"{k} = {v}" for k, v in s["point"].items())]
    lines.append(
        f"states: ({', '.join(s['states'])})" + (f"; removed: ({', '.join(s['removed'])})" if s["removed"] else "")
    )
    lines.append("A =")
    lines += ["  [" + ", ".join(r) + "]" for r in s["A"]]
    if s["inputs"]:
        lines.append(f"B (inputs {', '.join(s['inputs'])}) =")
        lines += ["  [" + ", ".join(r) + "]" for r in s["B"]]
    if s["values"]:
        lines.append("at " + ", ".join(f"{k} = {_fmt(v)}" for k, v in sorted(s["values"].items())))
    if "eigenvalues" in s:
        ev = [complex(z["re"], z["im"]) for z in s["eigenvalues"]]
        lines.append(
            "eigenvalues: "
            + ", ".join(
                _fmt(z.real) if abs(z.imag) < 1e-12 else f"{_fmt(z.real)} {'+-'[z.imag < 0]} {_fmt(abs(z.imag))}i"
                for z in ev
            )
        )
        lines.append(f"stability: {s['stability']}")
    if s["missing"]:
        lines.append(f"no eigenvalues: give values for {', '.join(s['missing'])} (--param NAME=VALUE)")
    sw = s.get("sweep")
    if sw and not s["missing"]:
        crit = sw["critical_values"]
        lines.append(
            f"critical values of {sw['parameter']} in [{_fmt(sw['start'])}, {_fmt(sw['stop'])}]: "
            + (", ".join(_fmt(c) for c in crit) if crit else "none")
        )
        for piece in sw["intervals"]:
            lines.append(f"  {sw['parameter']} in ({_fmt(piece['from'])}, {_fmt(piece['to'])}): {piece['stability']}")
    return lines


def stability_report(model: Model) -> list[tuple[str, str, Any]]:
    """The report's stability section as ``(kind, label, payload)`` rows: ``("equation", "A", matrix)``,
    ``("verdict", label, (value, text))``, ``("text", label, text)``. A point that cannot be linearised (not
    steady, not on C) is a text row saying why, not a failed report."""
    try:
        s = stability_summary(model)
    except (StateError, ArgumentError, ConstraintError, RegularityError) as exc:
        return [("text", "not linearised", str(exc))]
    lin: Linearization = s["linearization"]
    rows: list[tuple[str, str, Any]] = [
        ("text", "point", ", ".join(f"{k} = {v}" for k, v in s["point"].items())),
        ("text", "states", f"({', '.join(s['states'])}); removed ({', '.join(s['removed'])})"),
        ("equation", "A", lin.A),
    ]
    if s["B_matrix"] is not None:
        rows.append(("equation", f"B (inputs {', '.join(s['inputs'])})", s["B_matrix"]))
    if "eigenvalues" in s:
        lines = summary_lines(s)
        rows.append(("text", "eigenvalues", next(x for x in lines if x.startswith("eigenvalues: "))[13:]))
        verdict = {"asymptotically stable": True, "unstable": False}.get(s["stability"])
        at = ", ".join(f"{k} = {_fmt(v)}" for k, v in sorted(s["values"].items()))
        rows.append(
            ("verdict", "asymptotically stable", (verdict, f"{s['stability']} at {at}" if at else s["stability"]))
        )
    else:
        rows.append(("text", "eigenvalues", f"give parameter values for {', '.join(s['missing'])}"))
    return rows
