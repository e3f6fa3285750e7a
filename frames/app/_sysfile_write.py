"""Writing system files: the exact printer behind :func:`dumps_model` and :func:`dump_model`.

Every expression is printed so that the safe parser reads it back to the same sympy object (floats by
``repr``, ``E`` and ``pi`` by name, declared functions with their arguments); :func:`dumps_model` checks the
round trip before it returns, and :func:`dump_model` replaces the target atomically.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any

import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.printing.str import StrPrinter

from ..algebra import is_zero
from ..dynamics import BodyTorque, PointForce
from ..errors import ArgumentError, SystemFileError
from ._models import Model
from ._safe_parser import _parse

# ----------------------------------------------------------------- writing
_TOML_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _s(x: str) -> str:
    """A TOML basic string (control characters escaped, other characters as they are)."""
    out = ['"']
    for ch in x:
        o = ord(ch)
        if ch in _TOML_ESCAPES:
            out.append(_TOML_ESCAPES[ch])
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\u{o:04x}")
        elif 0xD800 <= o <= 0xDFFF:
            raise SystemFileError("<model>", "(string)", f"{x!r} contains a lone surrogate; it cannot be written")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() and k.isascii() else _s(k)


class _SystemPrinter(StrPrinter):
    """``str`` of an expression in the syntax of system files, read back to the same object.

    Floats are written with ``repr`` (17 significant digits at most, read back to the same double),
    Euler's number as ``exp(1)``, ``pi`` as ``acos(-1)`` when a name ``pi`` is declared, ``I`` as
    ``sqrt(-1)``; infinities and nan cannot be written.
    """

    def __init__(self, declared: set[str], reparse: Callable[[str], sp.Expr]) -> None:
        super().__init__({"order": "none"})
        self.declared = declared
        self.reparse = reparse

    def _reads_back(self, text: str, expr: sp.Expr) -> bool:
        try:
            return bool(self.reparse(text) == expr)
        except SystemFileError:
            return False

    def _print_Mul(self, expr: sp.Mul) -> str:
        # sympy distributes a number over a sum in a two-factor product: ``2*(a + b)*x`` is read as
        # ``(2*a + 2*b)*x``, ``1/(2*(a + b))`` as ``1/(2*a + 2*b)``; then the number is written last,
        # ``(a + b)*x*(2)``, ``1/(a + b)*(1/2)``
        text = str(super()._print_Mul(expr))
        c, rest = expr.as_coeff_Mul()
        if c == 1 or not any(f.is_Add or (f.is_Pow and f.base.is_Add) for f in sp.Mul.make_args(rest)):
            return text
        if self._reads_back(text, expr) and (not text.startswith("-") or self._reads_back(text[1:], -expr)):
            return text
        return f"{self._print(rest)}*({self._print(c)})"

    def _print_Float(self, expr: sp.Float) -> str:
        v = float(expr)
        if not math.isfinite(v) or sp.Float(v)._mpf_ != expr._mpf_:
            raise ValueError(f"the number {expr} is not a double (out of range or more precise)")
        return repr(v)

    def _print_Exp1(self, expr: Any) -> str:
        return "exp(1)"

    def _print_Pi(self, expr: Any) -> str:
        return "acos(-1)" if "pi" in self.declared else "pi"

    def _print_ImaginaryUnit(self, expr: Any) -> str:
        return "sqrt(-1)"

    def _print_not_writable(self, expr: Any) -> str:
        raise ValueError(f"{expr} cannot be written in a system file")

    _print_Infinity = _print_NegativeInfinity = _print_ComplexInfinity = _print_NaN = _print_not_writable


class _Writer:
    """Expressions of one model as text, each checked to read back to the same object."""

    def __init__(self, model: Model, functions: Mapping[str, tuple[str, ...]]) -> None:
        ch = model.chart
        self.name = model.name
        self.symbols: dict[str, sp.Expr] = {s.name: s for s in (*ch.q, *ch.u, *ch.params)}
        if ch.t is not None:
            self.symbols[ch.t.name] = ch.t
        self.functions = {fn: (sp.Function(fn), len(args)) for fn, args in functions.items()}
        self.printer = _SystemPrinter(
            set(self.symbols), partial(_parse, symbols=self.symbols, funcs=self.functions, source="", key="")
        )

    def __call__(self, e: object, key: str) -> str:
        try:
            obj = sp.sympify(e, strict=True)
            text = self.printer.doprint(obj)
        except Exception as exc:
            raise SystemFileError(self.name, key, f"cannot be written: {exc}") from None
        try:
            back = _parse(text, self.symbols, self.functions, source=self.name, key=key)
        except SystemFileError as exc:
            raise SystemFileError(self.name, key, f"{text!r} would not read back: {exc.reason}") from None
        if back != obj:
            raise SystemFileError(self.name, key, f"{obj} would read back as {back}; it cannot be written exactly")
        return _s(text)


def _num(x: object, key: str = "number") -> str:
    try:
        v = float(x)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        raise SystemFileError("<model>", key, f"{x!r} is not a number; it cannot be written") from None
    if not math.isfinite(v):
        raise SystemFileError("<model>", key, f"{x!r} is not finite; it cannot be written")
    return repr(v)


def _declared_functions(model: Model) -> dict[str, tuple[str, ...]]:
    """The model's declared functions and the undefined functions its expressions apply."""
    exprs: list[Any] = [model.lagrangian.expr, *model.frame.matrix, *model.constraints.matrix]
    exprs += list(model.auxiliary) + list(model.forces)
    for ld in model.loads:
        exprs += [x for part in dataclasses.astuple(ld) if part is not None for x in part]
    exprs += [v for row in model.structure_constants.values() for v in row.values()]
    out: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in model.functions.items()}
    for e in exprs:
        for f in sp.sympify(e, strict=True).atoms(AppliedUndef):
            if not all(isinstance(a, sp.Symbol) for a in f.args):
                raise SystemFileError(
                    model.name, "functions", f"declared function {f} must be applied to coordinates or time"
                )
            out.setdefault(str(f.func), tuple(str(a) for a in f.args))
    return out


def _load_lines(ld: Any, i: int, e: _Writer) -> list[str]:
    """One ``[[loads]]`` table: a PointForce (``point`` or ``velocity``, ``force``) or a BodyTorque."""

    def vec(name: str, xs: Any) -> str:
        return f"{name} = [" + ", ".join(e(x, f"loads[{i}].{name}[{j}]") for j, x in enumerate(xs)) + "]"

    if isinstance(ld, PointForce):
        where = vec("point", ld.position) if ld.position is not None else vec("velocity", ld.velocity)
        return ["", "[[loads]]", 'kind = "force"', where, vec("force", ld.force)]
    if isinstance(ld, BodyTorque):
        return [
            "",
            "[[loads]]",
            'kind = "torque"',
            vec("angular_velocity", ld.angular_velocity),
            vec("torque", ld.torque),
        ]
    raise SystemFileError("<model>", f"loads[{i}]", f"{ld!r:.60} is not a PointForce or a BodyTorque")


def dumps_model(model: Model) -> str:
    """Write a model as a system file (TOML text) that :func:`loads_model` reads back.

    The adapted frame is written in full, so the model read back has the same
    chart, Lagrangian, constraints and frame. MVM auxiliary functions are taken
    from ``model.auxiliary``. Floats are written with ``repr`` (exactly the same
    double is read back), rationals as ``p/q``, Euler's number as ``exp(1)``,
    and ``pi`` as ``acos(-1)`` when a parameter is named ``pi``; each expression
    is parsed back before it is written, so the text reads back to the same
    objects. A model read from a file is written and read back to an equal
    model (``loads_model(dumps_model(model)) == model``).

    Parameters
    ----------
    model : Model

    Returns
    -------
    str
        The TOML text.

    Raises
    ------
    ArgumentError
        If ``model`` is not a :class:`~frames.models.Model`.
    SystemFileError
        If a part cannot be written so that it reads back exactly (a function outside the
        whitelist, a non-finite number, an expression beyond the reader's bounds).

    Examples
    --------
    >>> from frames import loads_model, models
    >>> text = dumps_model(models.nonholonomic_particle())
    >>> print(text.splitlines()[4])
    lagrangian = "u1**2/2 + u2**2/2 + u3**2/2"
    >>> loads_model(text).lagrangian.expr == models.nonholonomic_particle().lagrangian.expr
    True
    """
    if not isinstance(model, Model):
        raise ArgumentError(f"dumps_model: model must be a Model, got {type(model).__name__}")
    ch = model.chart
    funcs = _declared_functions(model)
    e = _Writer(model, funcs)
    lines = [f"name = {_s(model.name)}"]
    if model.citation:
        lines.append(f"citation = {_s(model.citation)}")
    lines.append("coordinates = [" + ", ".join(_s(s.name) for s in ch.q) + "]")
    lines.append("velocities = [" + ", ".join(_s(s.name) for s in ch.u) + "]")
    if ch.t is not None:
        lines.append(f"time = {_s(ch.t.name)}")
    lines.append(f"lagrangian = {e(model.lagrangian.expr, 'lagrangian')}")
    lines.append("constraints = [")
    lines += [f"  {e(f, f'constraints[{i}]')}," for i, f in enumerate(model.constraints.functions)]
    lines.append("]")
    lines.append(f"m = {model.m}")
    lines.append("# adapted frame: rows are the components X_i^j; the first m fields span D")
    lines.append("frame = [")
    M = model.frame.matrix
    for i in range(M.rows):
        lines.append("  [" + ", ".join(e(M[i, j], f"frame[{i}][{j}]") for j in range(M.cols)) + "],")
    lines.append("]")
    if model.group:
        lines.append("group = [" + ", ".join(str(g + 1) for g in model.group) + "]  # 1-based frame indices")
    if model.plane:
        lines.append("plane = [" + ", ".join(_s(c) for c in model.plane) + "]")
    aux = model.auxiliary
    if aux:
        lines.append("auxiliary = [" + ", ".join(e(a, f"auxiliary[{i}]") for i, a in enumerate(aux)) + "]")
    if model.notes:
        lines.append(f"notes = {_s(model.notes)}")
    if model.inputs:
        lines.append("inputs = [" + ", ".join(_s(w) for w in model.inputs) + "]  # parameters that are inputs")
    if model.forces:
        lines += ["", "[forces]  # the force one-form F_i dq^i"]
        lines += [
            f"{_s(q.name)} = {e(fq, f'forces.{q.name}')}" for q, fq in zip(ch.q, model.forces, strict=True) if fq != 0
        ]
    for i, ld in enumerate(model.loads):
        lines += _load_lines(ld, i, e)
    if model.operating_point:
        lines += ["", "[operating_point]  # coordinates, velocities and inputs; values may use the parameters"]
        lines += [f"{_key(s.name)} = {e(v, f'operating_point.{s.name}')}" for s, v in model.operating_point.items()]
    sc = model.structure_constants
    k = 0
    for (a, b), row in sorted(sc.items()):
        for c, val in sorted(row.items()):
            lines += [
                "",
                "[[structure_constants]]",
                f"a = {a + 1}",
                f"b = {b + 1}",
                f"c = {c + 1}",
                f"value = {e(val, f'structure_constants[{k}].value')}",
            ]
            k += 1
    units = model.units
    if model.params:
        lines += ["", "[parameters]"]
        for pn, s in model.params.items():
            parts = [f"unit = {_s(units[pn])}"] if pn in units else []
            if s in model.param_values:
                parts.append(f"value = {_num(model.param_values[s], f'parameters.{pn}.value')}")
            lines.append(f"{_key(pn)} = {{ " + ", ".join(parts) + " }" if parts else f"{_key(pn)} = {{}}")
    other_units = [(k, v) for k, v in units.items() if k not in model.params]
    if other_units:
        lines += ["", "[units]"]
        lines += [f"{_key(k)} = {_s(v)}" for k, v in other_units]
    if funcs:
        lines += ["", "[functions]"]
        lines += [f"{_key(k)} = [" + ", ".join(_s(a) for a in v) + "]" for k, v in sorted(funcs.items())]
    for part, vals in (("q", model.q0), ("u", model.u0)):
        if vals:
            lines += ["", f"[initial.{part}]"]
            pv = dict(model.param_values)
            for sym, v in vals.items():
                val = v if isinstance(v, int | float) else sp.sympify(v, strict=True).xreplace(pv)
                lines.append(f"{_key(str(sym))} = {_num(val, f'initial.{part}.{sym}')}")
    return "\n".join(lines) + "\n"


def dump_model(model: Model, path: str | os.PathLike[str]) -> Path:
    """Write ``model`` as a system file at ``path`` (UTF-8).

    Parameters
    ----------
    model : Model
    path : str or os.PathLike

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    ArgumentError
        If ``model`` is not a :class:`~frames.models.Model` or ``path`` is not a path.
    SystemFileError
        If the model cannot be written exactly (see :func:`dumps_model`) or the file cannot be written.
    """
    if not isinstance(model, Model):
        raise ArgumentError(f"dump_model: model must be a Model, got {type(model).__name__}")
    if not isinstance(path, str | os.PathLike) or (isinstance(path, str) and not path):
        raise ArgumentError(f"dump_model: path must be a file path (str or os.PathLike), got {path!r:.60}")
    p = Path(path)
    text = dumps_model(model)
    try:
        p.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise SystemFileError(str(p), "(file)", f"cannot be written: {exc.strerror or exc}") from None
    return p


def models_equal(a: Any, b: Any) -> bool:
    """True if two models describe the same constrained system: chart, Lagrangian, constraints, frame, m, group.

    Expressions are compared exactly up to equivalence (``is_zero`` of differences); names, citations,
    initial data and parameter values are ignored. ``a == b`` (:class:`Model` equality) is stricter:
    every part, structurally.
    """
    if a.chart.q != b.chart.q or a.chart.u != b.chart.u or a.chart.t != b.chart.t:
        return False
    if set(a.chart.params) != set(b.chart.params) or a.m != b.m or tuple(a.group) != tuple(b.group):
        return False
    if not is_zero(a.lagrangian.expr - b.lagrangian.expr):
        return False
    A, B = a.constraints.matrix, b.constraints.matrix
    if A.shape != B.shape or not all(is_zero(x - y) for x, y in zip(A, B, strict=True)):
        return False
    Fa, Fb = a.frame.matrix, b.frame.matrix
    return Fa.shape == Fb.shape and all(is_zero(x - y) for x, y in zip(Fa, Fb, strict=True))
