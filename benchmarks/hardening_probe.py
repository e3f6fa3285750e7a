"""Bad-input probe of the public API: every argument slot of every entry point gets hostile values.

For each entry point a valid call is written out (small fixtures: the knife edge, a 2-D chart). Each
argument (positional and keyword) is then replaced, one at a time, by each hostile value — a code
injection string, another string, ``None``, ``True``, ``nan``, ``zoo``, ``I``, ``-1``, ``10**6``,
an empty list and a bare ``object()`` — and the call's outcome is classified:

* clean — a :class:`frames.FramesError` (the library's own error);
* raw — any other exception (a bug: TypeError, KeyError, sympy internals …);
* hang — no answer within ``--timeout`` seconds;
* accepted — the call returned (not necessarily wrong: ``-1`` is a fine coefficient; listed with
  ``--show-accepted`` for review);
* executed — the injection payload ran (the sentinel file appeared).

It then times the parser's bounds (:data:`BOUNDS`: hostile expressions each bound refuses): every refusal must
come in under ``--bound-seconds`` (1 s), a threshold on the machine's speed that the test suite no longer asserts
(``tests/app/test_sysfile.py`` checks the same refusals by the library's checkpoints, a count of work).

Run: ``python benchmarks/hardening_probe.py [--timeout 10] [--bound-seconds 1] [--show-accepted] [--show-raw]``.
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import sympy as sp

import frames as fr
from frames import models

SENTINEL = os.path.join(tempfile.mkdtemp(prefix="frames-probe-"), "pwned")
INJECTION = f"__import__('pathlib').Path({SENTINEL!r}).touch()"
HOSTILE: list[tuple[str, Any]] = [
    ("injection", INJECTION),
    ("string", "x**2"),
    ("None", None),
    ("True", True),
    ("nan", float("nan")),
    ("zoo", sp.zoo),
    ("I", sp.I),
    ("-1", -1),
    ("1e6", 10**6),
    ("[]", []),
    ("object", object()),
]


class _Timeout(Exception):
    pass


def _fixtures() -> dict[str, Any]:
    ke = models.knife_edge()
    ch = ke.chart
    q1 = ch.q[0]
    u1, u2, u3 = ch.u
    F = ke.frame
    L = ke.lagrangian
    nh = ke.nonholonomic()
    fld = nh.field()
    vk = fr.VakonomicSystem(L, F, ke.m)
    c2 = fr.Chart(["x", "y"])
    x, y = c2.q
    X = fr.VectorField(c2, [1, 0])
    Y = fr.VectorField(c2, [y, x])
    cons = [sp.sin(q1) * u2 - sp.cos(q1) * u3]
    comp = fr.numeric.CompiledSystem(fr.ode_system(fld, system=nh))
    return dict(
        ke=ke,
        ch=ch,
        q=ch.q,
        u=ch.u,
        F=F,
        L=L,
        nh=nh,
        fld=fld,
        vk=vk,
        c2=c2,
        x=x,
        y=y,
        X=X,
        Y=Y,
        cons=cons,
        comp=comp,
        u1=u1,
        u2=u2,
        u3=u3,
        q1=q1,
        t=sp.Symbol("t"),
        P={"m": 1.0, "J": 0.2},
        Q0=[0.1, 0.0, 0.0],
        U0=[1.0, math.cos(0.1), math.sin(0.1)],
    )


def _entry_points(f: dict[str, Any]) -> dict[str, tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]]:
    """name -> (callable, valid args, valid kwargs)."""
    ch, F, L, vk, c2 = f["ch"], f["F"], f["L"], f["vk"], f["c2"]
    x, y = f["x"], f["y"]
    kz = fr.KozlovSystem(L, f["cons"])
    return {
        "Chart": (fr.Chart, (["a", "b"],), {"params": ["k"]}),
        "VectorField": (fr.VectorField, (c2, [y, x]), {}),
        "VectorField.__call__": (f["Y"], (x**2,), {}),
        "OneForm": (fr.OneForm, (c2, [y, x]), {}),
        "bracket": (fr.bracket, (f["X"], f["Y"]), {}),
        "Frame": (fr.Frame, ([f["X"], f["Y"]],), {}),
        "Frame.to_quasi": (F.to_quasi, (f["u1"],), {}),
        "complete_frame": (fr.complete_frame, ([F.fields[0], F.fields[1]],), {}),
        "anholonomy_after_change": (fr.geometry.anholonomy_after_change, (F, sp.eye(3)), {}),
        "LinearConstraints": (fr.LinearConstraints, (ch, [[0, sp.sin(f["q1"]), -sp.cos(f["q1"])]]), {}),
        "Distribution": (fr.Distribution, ([F.fields[0], F.fields[1]],), {}),
        "TangentVectorField": (fr.TangentVectorField, (ch, list(ch.u), [0, 0, 0]), {}),
        "SecondOrderField": (fr.SecondOrderField, (F, [0, 0, 0]), {}),
        "Form": (fr.Form, ([x, y], 1, {(x,): y}), {}),
        "tidy": (fr.tidy, (x**2,), {}),
        "is_zero": (fr.is_zero, (x - x,), {}),
        "Lagrangian": (fr.Lagrangian, (ch, L.expr), {}),
        "CartanSystem": (fr.CartanSystem, (F, L), {}),
        "NonholonomicSystem": (fr.NonholonomicSystem, (L, F, 2), {}),
        "change_of_adapted_frame": (fr.dynamics.change_of_adapted_frame, (F, F, 2), {}),
        "transform_field": (fr.dynamics.transform_field, (f["fld"], F), {}),
        "transform_multipliers": (fr.dynamics.transform_multipliers, ([0], F, F, 2), {}),
        "VakonomicSystem": (fr.VakonomicSystem, (L, F, 2), {}),
        "weak_consistency": (fr.weak_consistency, (vk, [0]), {}),
        "strong_consistency": (fr.strong_consistency, (vk, [0]), {}),
        "vakonomic_lift": (fr.vakonomic_lift, (vk, [0]), {}),
        "split_conditions": (fr.dynamics.split_conditions, ([x * y + y], [x]), {}),
        "dimension_terms": (fr.dynamics.dimension_terms, (x + y, {x: sp.Symbol("L"), y: sp.Symbol("L")}), {}),
        "is_dimensionally_homogeneous": (
            fr.dynamics.is_dimensionally_homogeneous,
            (x + y, {x: sp.Symbol("L"), y: sp.Symbol("L")}),
            {},
        ),
        "KozlovSystem": (fr.KozlovSystem, (L, f["cons"]), {}),
        "ChetaevSystem": (fr.ChetaevSystem, (L, f["cons"]), {}),
        "ModifiedVakonomic": (fr.ModifiedVakonomic, (L, f["cons"], [f["u1"]]), {}),
        "w_from_coordinates": (fr.natural.w_from_coordinates, (ch, [f["cons"][0]]), {}),
        "w_from_frame": (fr.natural.w_from_frame, (ch, [f["cons"][0]]), {}),
        "compare_motion": (fr.compare_motion, (kz, {q: 0 for q in ch.q}), {}),
        "lagranges_method_accelerations": (fr.natural.lagranges_method_accelerations, (L, f["cons"]), {}),
        "ode_system": (fr.ode_system, (f["fld"],), {"system": f["nh"]}),
        "integrate": (fr.integrate, (f["comp"], (0, 0.1), f["Q0"], f["U0"], f["P"]), {"rtol": 1e-6}),
        "integrate-batch": (fr.integrate, (f["comp"], (0, 0.1), [f["Q0"]], [f["U0"]], f["P"]), {}),
        "grid_points": (fr.numeric.grid_points, ({"a": [1, 2]},), {}),
        "analyze": (fr.analyze, (f["ke"],), {"only": ["chart"]}),
        "display_form": (fr.app.display_form, (x**2 - y**2,), {}),
        "latex_equations": (fr.latex_equations, (f["fld"],), {}),
        "parse_expression": (fr.parse_expression, ("x**2", {"x": x}), {}),
        "loads_model": (fr.loads_model, (fr.dumps_model(f["ke"]),), {}),
        "dumps_model": (fr.dumps_model, (f["ke"],), {}),
    }


def _run(call: Callable[[], Any], timeout: float) -> str:
    def on_alarm(signum: int, frame: Any) -> None:
        raise _Timeout

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        call()
        return "accepted"
    except _Timeout:
        return "hang"
    except fr.FramesError:
        return "clean"
    except Exception as exc:  # classifying is the point
        return f"raw:{type(exc).__name__}: {str(exc)[:100]}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


#: expressions refused by the bounds of :func:`frames.app._safe_parser.parse_expression` (those of
#: ``tests/app/test_sysfile.py::test_every_bound_is_a_clean_fast_error_with_a_position``)
BOUNDS = [
    "0.0**-1",
    "x/(y - y)",
    "log(0.0)",
    "exp(exp(exp(1e5)))",
    "sin(exp(1e7))",
    "cosh(1e5)",
    "sin(1000j)",
    "(((x**100)**100)**100)**100",
    "x**60*x**60",
    "(x*y)**51",
    "10**300*10",
    "x*1e300*1e300",
    "1e-320*x",
    "sin(" * 70 + "x" + ")" * 70,
    "x" + "+x" * 3000,
    "+".join(f"x**{k % 50}" for k in range(1500)),
]


def _time_bounds(limit: float) -> int:
    """Seconds each bound takes to refuse its expression; the number slower than ``limit`` (or not refused)."""
    from frames.app._safe_parser import parse_expression

    x, y = sp.symbols("x y")
    syms = {"x": x, "y": y}
    slow = 0
    worst = (0.0, "")
    for text in BOUNDS:
        start = time.perf_counter()
        try:
            parse_expression(text, syms)
            refused = False
        except fr.errors.SystemFileError:
            refused = True
        seconds = time.perf_counter() - start
        worst = max(worst, (seconds, text[:40]))
        if not refused or seconds > limit:
            slow += 1
            print(f"  bound {text[:40]!r}: {'refused' if refused else 'ACCEPTED'} in {seconds:.3f} s")
    print(
        f"bounds: {len(BOUNDS)} expressions, slowest refusal {worst[0]:.3f} s ({worst[1]!r}), over {limit:g} s: {slow}"
    )
    return slow


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--bound-seconds", type=float, default=1.0)
    ap.add_argument("--show-accepted", action="store_true")
    ap.add_argument("--show-raw", action="store_true")
    args = ap.parse_args(argv)
    fx = _fixtures()
    eps = _entry_points(fx)
    counts: Counter[str] = Counter()
    raw: list[str] = []
    accepted: list[str] = []
    executed = 0
    t0 = time.perf_counter()
    for name, (fn, a, kw) in eps.items():
        slots: list[tuple[str, int | str]] = [(f"arg{i}", i) for i in range(len(a))] + [(k, k) for k in kw]
        for slot, key in slots:
            for hname, hval in HOSTILE:
                aa, kk = list(a), dict(kw)
                if isinstance(key, int):
                    aa[key] = hval
                else:
                    kk[key] = hval
                out = _run(lambda fn=fn, aa=aa, kk=kk: fn(*aa, **kk), args.timeout)
                if os.path.exists(SENTINEL):
                    executed += 1
                    os.remove(SENTINEL)
                    counts["executed"] += 1
                kind = out.split(":")[0]
                counts[kind] += 1
                counts["tried"] += 1
                tag = f"{name}({slot}={hname})"
                if kind == "raw":
                    raw.append(f"{tag}: {out[4:]}")
                elif kind == "accepted":
                    accepted.append(tag)
    wall = time.perf_counter() - t0
    print(f"entry points {len(eps)}, calls {counts['tried']}, wall {wall:.1f} s")
    print("| tried | clean error | raw exception | hang | accepted (review) | executed |")
    print("|---|---|---|---|---|---|")
    print(
        f"| {counts['tried']} | {counts['clean']} | {counts['raw']} | {counts['hang']} | "
        f"{counts['accepted']} | {counts['executed']} |"
    )
    if args.show_raw or raw:
        print("\nraw exceptions:")
        for r in raw:
            print("  " + r)
    if args.show_accepted:
        print("\naccepted:")
        for r in accepted:
            print("  " + r)
    slow_bounds = _time_bounds(args.bound_seconds)
    return 1 if raw or executed or counts["hang"] or slow_bounds else 0


if __name__ == "__main__":
    sys.exit(main())
