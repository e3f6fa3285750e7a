r"""The stability of a model about its operating point, outside Python: ``frames linearize`` and the report's section.

A model (a system file) names an operating point (``[operating_point]``: coordinates, velocities, the inputs'
operating values; values may be expressions in the parameters) and its inputs (``inputs``). Here the point is
completed from the command line (``--at name=value``, read by the safe parser), the model is linearised
(:func:`frames.linearize`), and the result is summarised at numeric parameter values (the file's values,
``--param``): the exact ``A`` and ``B``, the eigenvalues, the verdict (with the structural zero eigenvalues it
set aside: :meth:`Stability.explain <frames.dynamics.Stability.explain>`), the critical values of a parameter
swept over a range (``--sweep V=a:b:n``) with the verdict on each side, certified to ``--certify DIGITS`` digits
(:meth:`~frames.dynamics.Linearization.certified_critical_values`), and the stability map over two parameters
(``--region V=0:10 c=0:0.2``: :meth:`~frames.dynamics.Linearization.stability_region`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import pairwise
from typing import Any

import numpy as np
import sympy as sp

from ..algebra import budget, op_count
from ..algebra.internal import current_budget
from ..dynamics import CriticalValue, Linearization, StabilityRegion, linearize
from ..errors import ArgumentError, BudgetExceededError, ConstraintError, RegularityError, StateError
from ._model import Model
from ._safe_parser import normalize_name, parse_expression

__all__ = [
    "Sweep",
    "model_point",
    "parse_range",
    "parse_sweep",
    "stability_report",
    "stability_summary",
    "summary_lines",
]

#: entries of ``A`` and ``B`` above this many operations are not printed (their size is)
PRINT_OPS = 400
#: the most samples of a sweep
MAX_SWEEP = 100_000
#: the digits ``--certify`` accepts
MAX_DIGITS = 1000
#: the digits of the certified critical values in the report's stability section
REPORT_DIGITS = 30
#: the seconds the report's stability section gives the certified critical values (within the report's budget)
REPORT_CERTIFY_SECONDS = 30.0


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


def parse_range(text: str, option: str) -> tuple[str, float, float]:
    """``V=0:10`` as ``(name, lo, hi)``, or an :class:`~frames.errors.ArgumentError` naming ``option`` and the text."""
    name, sep, rng = text.partition("=")
    parts = rng.split(":")
    if not sep or not name.strip() or len(parts) != 2:
        raise ArgumentError(f"{option} {text!r}: expected NAME=LO:HI (e.g. V=0:10)")
    try:
        lo, hi = float(parts[0]), float(parts[1])
    except ValueError:
        raise ArgumentError(f"{option} {text!r}: LO and HI must be numbers") from None
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo >= hi:
        raise ArgumentError(f"{option} {text!r}: LO < HI, both finite")
    return normalize_name(name.strip()), lo, hi


def check_digits(digits: int) -> int:
    """``--certify DIGITS``: an int in ``1..MAX_DIGITS``."""
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= MAX_DIGITS:
        raise ArgumentError(f"--certify {digits!r}: DIGITS must be an integer between 1 and {MAX_DIGITS}")
    return digits


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
    lin: Linearization,
    model: Model,
    values: Mapping[str, float],
    sweep: Sweep | None,
    region: Sequence[tuple[str, float, float]] = (),
) -> tuple[dict[str, float], list[str]]:
    """The parameter values ``A`` needs (the file's, then ``values``), and the names still without one."""
    free = {s.name for s in lin.A.free_symbols}
    have = {s.name: float(v) for s, v in model.param_values.items()} | dict(values)
    unknown = sorted(set(values) - set(model.params))
    if unknown:
        raise ArgumentError(f"--param {unknown[0]}: not a parameter of {model.name} ({sorted(model.params)})")
    if sweep is not None and sweep.name not in model.params:
        raise ArgumentError(f"--sweep {sweep.name}: not a parameter of {model.name} ({sorted(model.params)})")
    for name, _lo, _hi in region:
        if name not in model.params:
            raise ArgumentError(f"--region {name}: not a parameter of {model.name} ({sorted(model.params)})")
    out = {k: v for k, v in have.items() if k in free}
    scanned = ({sweep.name} if sweep is not None else set()) | {r[0] for r in region}
    missing = sorted(free - set(out) - scanned)
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
    certify: int | None = None,
    region: Sequence[tuple[str, float, float]] | None = None,
    grid: int = 121,
) -> dict[str, Any]:
    """Linearise ``model`` about its operating point (``at`` on top) and summarise the result (JSON-ready).

    Parameters
    ----------
    model : Model
    at : mapping, optional
        Name -> text (the safe parser): the point on top of the file's ``[operating_point]``.
    inputs : sequence of str, optional
        The inputs (``B``'s columns); default the file's.
    values : mapping, optional
        Parameter values on top of the file's.
    sweep : Sweep, optional
        The parameter scanned for critical values, its range and samples.
    certify : int, optional
        With ``sweep``: the digits of the certified critical values over the sweep's range.
    region : sequence of (str, float, float), optional
        Two parameters and their ranges: the stability map.
    grid : int
        The map's grid points along each side.

    Returns
    -------
    dict
        ``states``, ``removed``, ``inputs``, ``A`` and ``B`` (rows of strings), ``values`` (the parameter values
        used), ``eigenvalues`` (``{"re", "im"}``), ``stability`` and ``explanation`` (the structural zeros set
        aside) when every symbol of ``A`` has a value, ``missing`` otherwise; ``sweep`` (parameter, range,
        ``critical_values``, the verdict on each interval, and ``certified`` with ``certify``) and ``region``
        (``curves``, ``cells``) when asked. ``linearization`` holds the :class:`~frames.results.Linearization`
        and ``region_value`` the :class:`~frames.dynamics.StabilityRegion` (not JSON).
    """
    if certify is not None:
        check_digits(certify)
        if sweep is None:
            raise ArgumentError("--certify: needs --sweep NAME=START:STOP:COUNT (the parameter and its range)")
    if region is not None and len(region) != 2:
        raise ArgumentError(
            f"--region: expected two parameters NAME=LO:HI (e.g. --region V=0:10 c=0:0.2), got {len(region)}"
        )
    if region is not None and region[0][0] == region[1][0]:
        raise ArgumentError(f"--region: the two parameters must differ, got {region[0][0]} twice")
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
    nums, missing = _numbers(lin, model, values or {}, sweep, region or ())
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
        out["explanation"] = out["stability"].explain()
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
        if certify is not None:
            cvs = certified(lin, model, sweep.name, (sweep.start, sweep.stop), rest, certify)
            out["sweep"]["certified"] = {"digits": certify, "critical_values": cvs}
    if region is not None:
        if missing:
            raise ArgumentError(f"--region: give values for {', '.join(missing)} (--param NAME=VALUE)")
        reg = _region(lin, model, region, nums, grid)
        out["region_value"] = reg
        out["region"] = {
            "parameters": [str(p) for p in reg.parameters],
            "box": [list(b) for b in reg.box],
            "curves": [{"kind": k, "expr": _show(e)} for k, e in reg.curves],
            "cells": [
                {"stability": c.stability, "sample": list(c.sample), "area": c.area}
                for c in sorted(reg.cells, key=lambda c: -c.area)
            ],
        }
    return out


def _decimal(values: Mapping[str, float]) -> dict[str, sp.Rational]:
    """The values as the rationals their shortest decimal text names (``0.1`` -> ``1/10``, not the binary double):
    the exact parameters the certified computations take."""
    out = {}
    for k, v in values.items():
        f = Fraction(repr(float(v)))
        out[k] = sp.Rational(f.numerator, f.denominator)
    return out


def certified(
    lin: Linearization,
    model: Model,
    name: str,
    interval: tuple[float, float],
    rest: Mapping[str, float],
    digits: int,
) -> list[dict[str, Any]]:
    """The certified critical values of the parameter ``name`` over ``interval`` (the others at ``rest``), each as
    ``{"value", "kind", "before", "after", "polynomial"}`` (``value`` the decimal string to ``digits`` digits)."""
    p = model.params[name]
    if p not in lin.A.free_symbols:  # a parameter A does not depend on: the class does not change along it
        return []
    cvs: list[CriticalValue] = lin.certified_critical_values(p, interval, _decimal(rest), digits=digits)
    return [
        {
            "value": str(cv.evalf(digits)),
            "kind": cv.kind,
            "before": cv.before,
            "after": cv.after,
            "polynomial": _show(cv.polynomial),
        }
        for cv in cvs
    ]


def _region(
    lin: Linearization,
    model: Model,
    region: Sequence[tuple[str, float, float]],
    nums: Mapping[str, float],
    grid: int,
) -> StabilityRegion:
    """``lin.stability_region`` over the two parameters of ``region`` (the others at ``nums``)."""
    if isinstance(grid, bool) or not isinstance(grid, int) or not 3 <= grid <= 2001:
        raise ArgumentError(f"--grid {grid!r}: must be an integer between 3 and 2001")
    box = {model.params[n]: (lo, hi) for n, lo, hi in region}
    subs = _decimal({k: v for k, v in nums.items() if k not in {n for n, _lo, _hi in region}})
    return lin.stability_region(box, subs, n=grid)


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
        lines.append(f"stability: {s.get('explanation', s['stability'])}")
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
        if "certified" in sw:
            cert = sw["certified"]
            lines.append(
                f"certified critical values of {sw['parameter']} in [{_fmt(sw['start'])}, {_fmt(sw['stop'])}] "
                f"({cert['digits']} digits):" + ("" if cert["critical_values"] else " none")
            )
            lines += [_cv_line(sw["parameter"], cv) for cv in cert["critical_values"]]
    rg = s.get("region")
    if rg:
        (p, (plo, phi)), (q, (qlo, qhi)) = zip(rg["parameters"], rg["box"], strict=True)
        lines.append(
            f"stability map over {p} in [{_fmt(plo)}, {_fmt(phi)}], {q} in [{_fmt(qlo)}, {_fmt(qhi)}]: boundary curves"
        )
        lines += [f"  {c['kind']}: {c['expr']} = 0" for c in rg["curves"]]
        lines.append(f"cells ({len(rg['cells'])}):")
        lines += [
            f"  {c['stability']} ({c['area']:.1%} of the box) at {p} = {_fmt(c['sample'][0])}, "
            f"{q} = {_fmt(c['sample'][1])}"
            for c in rg["cells"]
        ]
    return lines


def _cv_line(name: str, cv: Mapping[str, str]) -> str:
    return f"  {name} = {cv['value']} ({cv['kind']} crossing: {cv['before']} -> {cv['after']})"


def speed_parameter(model: Model) -> str | None:
    """The one parameter the velocities of the model's operating point depend on (a forward speed ``V``), if one."""
    params = {s for s in model.params.values() if isinstance(s, sp.Symbol)}
    vel = set(model.chart.u) | set(model.frame.v[: model.m])
    free = {
        x for s, v in model.operating_point.items() if s in vel for x in sp.sympify(v, strict=True).free_symbols
    } & params
    return next(iter(free)).name if len(free) == 1 else None


def report_interval(model: Model, name: str) -> tuple[float, float]:
    """The range searched for the certified critical values of ``name`` in the report: ``±10·max(1, |value|)``
    about 0 (the file's value of ``name``; a speed's sign matters, so both directions)."""
    val = next((float(v) for s, v in model.param_values.items() if s.name == name), 1.0)
    r = 10 * max(1.0, abs(val))
    return -r, r


def _certified_row(model: Model, s: Mapping[str, Any]) -> tuple[str, str, Any] | None:
    """The report's row of certified critical values of the operating point's one speed parameter, or a note why
    not (refused, or over :data:`REPORT_CERTIFY_SECONDS`); None when the point has no such parameter."""
    name = speed_parameter(model)
    if name is None or s["missing"]:
        return None
    lo, hi = report_interval(model, name)
    label = f"certified critical values of {name} in [{_fmt(lo)}, {_fmt(hi)}]"
    rest = {k: v for k, v in s["values"].items() if k != name}
    outer = current_budget()
    try:
        with budget(REPORT_CERTIFY_SECONDS):
            cvs = certified(s["linearization"], model, name, (lo, hi), rest, REPORT_DIGITS)
    except BudgetExceededError:
        if outer is not None and time.monotonic() >= outer.deadline:
            raise  # the report's own budget: not this row's
        return ("text", label, f"skipped: not found within {REPORT_CERTIFY_SECONDS:g} s")
    except ArgumentError as exc:
        return ("text", label, f"skipped: {exc}")
    if not cvs:
        return ("text", label, "none (the class does not change)")
    return ("text", label, "; ".join(_cv_line(name, cv).strip() for cv in cvs))


def stability_report(model: Model) -> list[tuple[str, str, Any]]:
    """The report's stability section as ``(kind, label, payload)`` rows: ``("equation", "A", matrix)``,
    ``("verdict", label, (value, text))``, ``("text", label, text)``. A point that cannot be linearised (not
    steady, not on C) is a text row saying why, not a failed report. The verdict names the structural zero
    eigenvalues it set aside; when the point's velocities depend on one parameter (a forward speed), its
    certified critical values (:data:`REPORT_DIGITS` digits, over :func:`report_interval`) follow."""
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
        if s["explanation"] != s["stability"]:
            rows.append(("text", "structural zeros", s["explanation"]))
    else:
        rows.append(("text", "eigenvalues", f"give parameter values for {', '.join(s['missing'])}"))
    row = _certified_row(model, s)
    if row is not None:
        rows.append(row)
    return rows
