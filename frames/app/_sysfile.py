r"""System files: a mechanical system written in TOML, read by a safe expression parser.

A system file declares coordinates, parameters (with units and values), declared
functions, the Lagrangian, the constraints, an optional frame or complement,
optional group generators, optional MVM auxiliary functions and initial
conditions. See ``docs/system_files.md`` for the format.

Nothing in a file is ever executed. Each expression is parsed with
``ast.parse(text, mode="eval")`` and the tree is walked against a whitelist:
numbers, declared symbols, ``+ - * / **``, unary ``±``, and calls of
whitelisted functions (``sin cos tan exp log sqrt`` and a few more) or of the
functions the file declares. The sympy expression is built directly from the
tree; ``eval`` and ``sympify`` never see the text.

Every size is bounded, so that reading a file never hangs and never builds
anything huge: the file (``MAX_FILE_SIZE``), the nesting of its TOML arrays and
tables (``MAX_TOML_DEPTH``), the length, node count and nesting depth of each
expression (``MAX_TEXT``, ``MAX_NODES``, ``MAX_DEPTH``) and of all expressions of
a file together (``MAX_FILE_NODES``), numeric exponents (``MAX_EXPONENT``), the
*effective* polynomial degree after nesting (``MAX_DEGREE``: ``(x**10)**10`` has
degree 100), exact numbers (``MAX_BITS``), the magnitude of every number and
constant sub-expression (``MAX_MAGNITUDE``), and the argument of ``exp``,
``sinh``, ``cosh`` (``MAX_EXP_ARGUMENT``). Constant sub-expressions are
evaluated alongside, in 53-bit floating point with an unbounded exponent, before
sympy sees them. Reading and checking a file is limited in time
(``LOAD_SECONDS``, the ``timeout`` argument): sympy's exact checks of hostile
but bounded expressions can still run long.

Every failure is a :class:`~frames.errors.SystemFileError` naming the file (``source``),
the key and the reason; where a place in the text is at fault the reason starts
with ``line L, column C:`` (1-based, in the file; for :func:`parse_expression`,
in the expression) and the error has the attributes ``line`` and ``column``
(``None`` when there is no such place).

Names are NFKC-normalised (as Python normalises identifiers), so ``ｍ`` and
``m`` are one name, ``ℓ`` is ``l`` and the micro sign ``µ`` is the Greek ``μ``.

Examples
--------
>>> import sympy as sp
>>> x, y = sp.symbols("x y")
>>> parse_expression("x**2/2 + sin(y)", {"x": x, "y": y})
x**2/2 + sin(y)
>>> parse_expression("__import__('os').system('echo pwned')", {"x": x})
Traceback (most recent call last):
...
frames.errors.SystemFileError: <string>: expression: line 1, column 1: '__import__' is a dunder name; dunder names are never allowed
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import math
import os
import re
import stat
import tomllib
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import sympy as sp

from ..algebra import budget
from ..dynamics import BodyTorque, Lagrangian, PointForce
from ..errors import BudgetExceededError, FramesError, SystemFileError
from ..geometry import Chart, Frame, LinearConstraints, VectorField, complete_frame
from ._model import unit_label_error
from ._models import Model
from ._safe_parser import (
    FUNCTIONS,
    LOAD_SECONDS,
    MAX_COORDINATES,
    MAX_FILE_NODES,
    MAX_FILE_SIZE,
    MAX_TOML_DEPTH,
    _error,
    _line_col,
    _parse,
    normalize_name,
    parse_expression,
)
from ._sysfile_write import dump_model, dumps_model, models_equal
from ._toml_pos import _Locator, _toml_depth_error

__all__ = [
    "SystemFileError",
    "dumps_model",
    "load_model",
    "loads_model",
    "models_equal",
    "parse_expression",
    "dump_model",
]


# ----------------------------------------------------------------- time limit
@contextlib.contextmanager
def _deadline(seconds: float | None) -> Iterator[None]:
    """A wall-clock limit for the block: the library's checkpoints (:func:`frames.budget`) stop the work
    between two elementary operations. Nothing is raised from a signal handler; the parser's bounds
    (:data:`~frames.app._safe_parser.MAX_TERMS`, ``MAX_DEGREE`` …) keep each operation short."""
    if seconds is None:
        yield
        return
    with budget(seconds):
        yield


# ----------------------------------------------------------------- reading
_TOP_KEYS = {
    "name",
    "citation",
    "notes",
    "coordinates",
    "velocities",
    "time",
    "parameters",
    "functions",
    "lagrangian",
    "constraints",
    "frame",
    "complement",
    "m",
    "group",
    "structure_constants",
    "auxiliary",
    "forces",
    "initial",
    "units",
    "plane",
    "loads",
    "inputs",
    "operating_point",
}


def _unit_error(unit: object) -> str | None:
    """Why ``unit`` is not a unit label, or None (the model's own check: a label only, never parsed or sympified)."""
    return unit_label_error(unit)


def _is_list(x: object) -> bool:
    return isinstance(x, list)


def _toml_error_position(exc: tomllib.TOMLDecodeError, src: str) -> tuple[str, tuple[int, int] | None]:
    """The message of a TOML error without its position, and the position (line, column)."""
    msg = str(exc)
    line, col = getattr(exc, "lineno", None), getattr(exc, "colno", None)
    m = re.search(r"\s*\(at line (\d+), column (\d+)\)", msg)
    if m:
        msg = msg[: m.start()] + msg[m.end() :]
        line, col = line or int(m.group(1)), col or int(m.group(2))
    elif "(at end of document)" in msg:
        msg = msg.replace(" (at end of document)", " at the end of the document")
        line, col = _line_col(src, len(src))
    return msg, ((line, col) if line and col else None)


def loads_model(
    text: str, source: str = "<string>", *, timeout: float | None = LOAD_SECONDS, check_u0: bool = True
) -> Model:
    """Read a system from TOML text.

    Parameters
    ----------
    text : str
        The TOML text of a system file (at most ``MAX_FILE_SIZE`` characters).
    source : str
        Where the text comes from (a file name), for error messages and the default name.
    timeout : float or None
        Wall-clock seconds allowed for reading and checking the system (``None``: no limit). The
        sizes of a file are bounded, but the checks of hostile expressions (the exact zero tests of
        large rational functions) can still take long; past the limit the file is refused, at the next
        checkpoint of the library's computations (:func:`frames.budget`).
    check_u0 : bool, default True
        False: ``[initial.u]`` is read but not checked against D (``frames simulate --project``, ``--v0``).

    Returns
    -------
    Model
        The validated model (:class:`frames.models.Model`).

    Raises
    ------
    SystemFileError
        For every failure: naming ``source``, the key and the reason, with ``line L, column C:``
        where a place in the text is at fault (also in the attributes ``line`` and ``column``).
    """
    if not isinstance(source, str):
        source = str(source)
    if not isinstance(text, str):
        hint = " (decode bytes as UTF-8 first, or use load_model)" if isinstance(text, bytes | bytearray) else ""
        raise _error(source, "(text)", f"text must be str, got {type(text).__name__}{hint}")
    if len(text) > MAX_FILE_SIZE:
        raise _error(source, "(text)", f"text longer than {MAX_FILE_SIZE} characters")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int | float) or not timeout > 0):
        raise _error(source, "(timeout)", f"timeout={timeout!r} must be a positive number of seconds or None")
    src = text.replace("\r\n", "\n")
    locate = _Locator(src)
    state = {"key": "(toml)"}
    slow = (
        f"reading and checking the system took longer than {timeout} s (timeout); the expressions "
        "are too costly to check"
    )
    try:
        with _deadline(timeout):
            return _loads(text, src, source, locate, state, check_u0)
    except SystemFileError:
        raise
    except BudgetExceededError:
        raise _error(source, state["key"], slow, locate(state["key"])) from None
    except RecursionError:
        raise _error(source, state["key"], "too deeply nested", locate(state["key"])) from None
    except MemoryError:
        raise _error(source, state["key"], "too large (out of memory)", locate(state["key"])) from None
    except FramesError as exc:
        raise _error(source, state["key"], str(exc), locate(state["key"])) from None
    except Exception as exc:  # a safety net: any other failure is still a SystemFileError
        raise _error(
            source,
            state["key"],
            f"internal error while reading ({type(exc).__name__}: {exc}); please report it",
            locate(state["key"]),
        ) from exc


def _finite(v: object) -> float | None:
    """A TOML number as a finite float, or None (not a number, not finite, or too large)."""
    if isinstance(v, bool) or not isinstance(v, int | float):
        return None
    try:
        f = float(v)
    except OverflowError:
        return None
    return f if math.isfinite(f) else None


def _loads(text: str, src: str, source: str, locate: _Locator, state: dict[str, str], check_u0: bool = True) -> Model:
    def fail(key: str, reason: str, where: tuple[int, int] | None = None) -> SystemFileError:
        return _error(source, key, reason, where if where is not None else locate(key))

    deep = _toml_depth_error(src)
    if deep is not None:
        raise fail("(toml)", f"arrays and tables nested more than {MAX_TOML_DEPTH} deep", locate.line_col(deep))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg, where = _toml_error_position(exc, src)
        raise _error(source, "(toml)", f"not valid TOML: {msg}", where) from None
    except RecursionError:
        raise fail("(toml)", f"arrays and tables nested too deeply (at most {MAX_TOML_DEPTH})") from None
    unknown = set(data) - _TOP_KEYS
    if unknown:
        first = sorted(unknown)[0]
        raise fail(first, f"unknown key{_did_you_mean(first, _TOP_KEYS)}; known keys are {sorted(_TOP_KEYS)}")

    # --------------------------------------------------------- names (NFKC-normalised)
    declared: dict[str, tuple[str, str]] = {}  # normal form -> (raw name, key)

    def declare(raw: str, key: str, *, at: str | None = None, function: bool = False) -> str:
        """The normal form of a declared name; ``at`` is the key of the name in a list, else ``key`` is the name."""
        where = locate(at) if at is not None else locate(key, at_key=key.startswith(("parameters.", "functions.")))
        name = normalize_name(raw)
        if not name.isidentifier() or "__" in name or (name != raw and not raw.isidentifier()):
            raise fail(key, f"{raw!r} is not a valid name (an identifier without '__')", where)
        seen = declared.get(name)
        if seen is not None:
            raw0, key0 = seen
            if function and raw0 == raw and key0.startswith("parameters."):
                return name  # a parameter that is also a declared function (a parameter of time, B0(t))
            if raw0 == raw:
                raise fail(key, f"{raw!r} is declared twice (also in {key0})", where)
            raise fail(
                key,
                f"{raw!r} and {raw0!r} (in {key0}) are the same name after NFKC normalisation ({name!r})",
                where,
            )
        declared[name] = (raw, key)
        return name

    def names_of(key: str, required: bool) -> list[str]:
        state["key"] = key
        val = data.get(key)
        if val is None:
            if required:
                raise fail(key, "missing (a list of names)")
            return []
        if not _is_list(val) or not all(isinstance(s, str) for s in val):
            raise fail(key, "must be a list of names")
        if len(val) > MAX_COORDINATES:
            raise fail(key, f"at most {MAX_COORDINATES} names")
        return [declare(s, key, at=f"{key}[{i}]") for i, s in enumerate(val)]

    qn = names_of("coordinates", True)
    if not qn:
        raise fail("coordinates", "at least one coordinate is required")
    un = names_of("velocities", False) or None
    state["key"] = "time"
    time_raw = data.get("time")
    if time_raw is not None and not isinstance(time_raw, str):
        raise fail("time", "must be the name of the time symbol")
    time = declare(time_raw, "time") if time_raw is not None else None
    state["key"] = "parameters"
    params_t = data.get("parameters", {})
    if not isinstance(params_t, dict):
        raise fail("parameters", "must be a table name = {unit = ..., value = ...}")
    params: dict[str, sp.Symbol] = {}
    units: dict[str, str] = {}
    pvals: dict[sp.Symbol, float] = {}
    for raw, spec in params_t.items():
        key = f"parameters.{raw}"
        state["key"] = key
        pn = declare(raw, key)
        s = sp.Symbol(pn)
        params[pn] = s
        if isinstance(spec, dict):
            bad = set(spec) - {"unit", "value", "description"}
            if bad:
                raise fail(key, f"unknown entries {sorted(bad)}; use unit, value, description")
            if "unit" in spec:
                why = _unit_error(spec["unit"])
                if why is not None:
                    raise fail(key + ".unit", why)
                units[pn] = spec["unit"]
            if "description" in spec and not isinstance(spec["description"], str):
                raise fail(key + ".description", "must be a string")
            if "value" in spec:
                v = _finite(spec["value"])
                if v is None:
                    raise fail(key + ".value", "must be a finite number")
                pvals[s] = v
        elif isinstance(spec, int | float) and not isinstance(spec, bool):
            v = _finite(spec)
            if v is None:
                raise fail(key, "must be a finite number")
            pvals[s] = v
        elif isinstance(spec, str):
            why = _unit_error(spec)
            if why is not None:
                raise fail(key, why)
            units[pn] = spec
        else:
            raise fail(key, "must be a table {unit = ..., value = ...}, a number or a unit string")
    state["key"] = "coordinates"
    try:
        ch = Chart(qn, un, time=time, params=list(params.values()))
    except FramesError as exc:
        raise fail("coordinates", str(exc)) from None
    for i, s in enumerate(ch.u if un is None else ()):  # default velocity names are declared names too
        declare(s.name, f"velocities (default u for {qn[i]!r})")

    state["key"] = "functions"
    funcs_t = data.get("functions", {})
    if not isinstance(funcs_t, dict):
        raise fail("functions", "must be a table name = [argument names]")
    functions: dict[str, tuple[Any, int]] = {}
    function_args: dict[str, tuple[str, ...]] = {}
    allowed_args = {s.name for s in (*ch.q, *([ch.t] if ch.t is not None else []))}
    for raw, args in funcs_t.items():
        key = f"functions.{raw}"
        state["key"] = key
        fn = normalize_name(raw)
        if fn in FUNCTIONS:
            raise fail(key, f"{raw!r} is a built-in function and cannot be declared")
        fn = declare(raw, key, function=True)
        if not _is_list(args) or not args or not all(isinstance(a, str) for a in args):
            raise fail(key, f"must list its arguments, names among {sorted(allowed_args)}")
        norm_args = tuple(normalize_name(a) for a in args)
        if not all(a in allowed_args for a in norm_args):
            raise fail(key, f"must list its arguments, names among {sorted(allowed_args)}")
        functions[fn] = (sp.Function(fn), len(args))
        function_args[fn] = norm_args

    symbols: dict[str, sp.Expr] = {s.name: s for s in (*ch.q, *ch.u, *ch.params)}
    if ch.t is not None:
        symbols[ch.t.name] = ch.t
    budget = [MAX_FILE_NODES]

    def expr(val: object, key: str) -> sp.Expr:
        state["key"] = key
        return _parse(
            val,
            symbols,
            functions,
            source=source,
            key=key,
            where=lambda off: locate(key, off),
            budget=budget,
        )

    def wrap(key: str, thunk: Callable[[], Any]) -> Any:
        state["key"] = key
        try:
            return thunk()
        except (SystemFileError, BudgetExceededError):
            raise
        except FramesError as exc:
            raise fail(key, str(exc)) from None

    if "lagrangian" not in data:
        raise fail("lagrangian", "missing (an expression in the coordinates, velocities and parameters)")
    L = wrap("lagrangian", lambda: Lagrangian(ch, expr(data["lagrangian"], "lagrangian")))
    state["key"] = "constraints"
    cons_raw = data.get("constraints")
    if not _is_list(cons_raw) or not cons_raw:
        raise fail("constraints", "missing or empty (a list of expressions linear in the velocities)")
    cons_e = [expr(c, f"constraints[{i}]") for i, c in enumerate(cons_raw)]
    velocities = set(ch.u)
    for i, c in enumerate(cons_e):  # a cheap test first: sympy's exact zero test of a residual can be slow
        state["key"] = f"constraints[{i}]"
        if any(sp.diff(c, ui).free_symbols & velocities for ui in ch.u):
            raise fail(
                "constraints",
                f"constraints[{i}]: the constraint {c} = 0 is not linear in the velocities {ch.u}",
                locate(f"constraints[{i}]"),
            )
    cons = wrap("constraints", lambda: LinearConstraints(ch, cons_e))
    n = ch.dim
    state["key"] = "m"
    m = data.get("m", n - cons.k)
    if not isinstance(m, int) or isinstance(m, bool):
        raise fail("m", "must be an integer (the rank of D)")

    def fields(key: str) -> list[VectorField]:
        state["key"] = key
        rows = data[key]
        if not _is_list(rows) or not all(_is_list(r) for r in rows):
            raise fail(key, "must be a list of component lists")
        if len(rows) > n:
            raise fail(key, f"has {len(rows)} fields, the chart has dimension {n}")
        out = []
        for i, r in enumerate(rows):
            if len(r) != n:
                raise fail(f"{key}[{i}]", f"has {len(r)} components, the chart has dimension {n}")
            comps = [expr(c, f"{key}[{i}][{j}]") for j, c in enumerate(r)]
            out.append(wrap(f"{key}[{i}]", partial(VectorField, ch, comps)))
        return out

    if "frame" in data and "complement" in data:
        raise fail("frame", "give either frame or complement, not both")
    if "frame" in data:
        Xs = fields("frame")
        F = wrap("frame", lambda: Frame(Xs))
    elif "complement" in data:
        comp = fields("complement")
        F = wrap("complement", lambda: complete_frame(cons.distribution(), comp))
    else:
        # as NonholonomicSystem.from_constraints: D's basis (chosen regular wherever the constraints are, else a
        # SingularFrameWarning names the singular set), then the constraint rows
        F = wrap("constraints", lambda: cons.adapted_frame())

    state["key"] = "group"
    group_raw = data.get("group", [])
    if not _is_list(group_raw) or not all(isinstance(g, int) and not isinstance(g, bool) for g in group_raw):
        raise fail("group", "must be a list of 1-based frame indices")
    if not all(1 <= g <= n for g in group_raw):
        raise fail("group", f"indices must be integers in 1..{n}")
    group = tuple(g - 1 for g in group_raw)
    sc: dict[tuple[int, int], dict[int, sp.Expr]] = {}
    aux_t: tuple[sp.Expr, ...] = ()
    state["key"] = "structure_constants"
    sc_raw = data.get("structure_constants")
    if sc_raw is not None:
        if not _is_list(sc_raw):
            raise fail("structure_constants", "must be a list of tables {a, b, c, value}")
        for i, entry in enumerate(sc_raw):
            key = f"structure_constants[{i}]"
            state["key"] = key
            if not isinstance(entry, dict) or set(entry) != {"a", "b", "c", "value"}:
                raise fail(key, "must be a table with keys a, b, c (1-based) and value")
            idx = [entry[k] for k in ("a", "b", "c")]
            if not all(isinstance(j, int) and not isinstance(j, bool) and 1 <= j <= n for j in idx):
                raise fail(key, f"indices must be integers in 1..{n}")
            sc.setdefault((idx[0] - 1, idx[1] - 1), {})[idx[2] - 1] = expr(entry["value"], key + ".value")
    if "auxiliary" in data:
        state["key"] = "auxiliary"
        aux = data["auxiliary"]
        if not _is_list(aux):
            raise fail("auxiliary", "must be a list of expressions")
        aux_t = tuple(expr(a, f"auxiliary[{i}]") for i, a in enumerate(aux))

    forces_t: tuple[sp.Expr, ...] = ()
    if "forces" in data:
        state["key"] = "forces"
        ftab = data["forces"]
        if not isinstance(ftab, dict):
            raise fail("forces", "must be a table: coordinate = expression (the force one-form F_i dq^i)")
        byq = {s.name: i for i, s in enumerate(ch.q)}
        comps: list[sp.Expr] = [sp.S.Zero] * n
        seen_forces: dict[int, str] = {}
        for k, v in ftab.items():
            key = f"forces.{k}"
            state["key"] = key
            at = byq.get(normalize_name(k))
            if at is None:
                raise fail(
                    key, f"unknown coordinate{_did_you_mean(normalize_name(k), byq)}; expected one of {sorted(byq)}"
                )
            if at in seen_forces:
                raise fail(
                    key,
                    f"{k!r} and {seen_forces[at]!r} are the same coordinate after NFKC normalisation "
                    f"({ch.q[at].name!r}); its force is given twice",
                )
            seen_forces[at] = k
            comps[at] = expr(v, key)
        forces_t = tuple(comps)

    loads_t = _read_loads(data, ch, expr, fail, state, wrap)
    inputs_t: tuple[str, ...] = ()
    if "inputs" in data:
        state["key"] = "inputs"
        raw_inputs = data["inputs"]
        if not _is_list(raw_inputs) or not all(isinstance(w, str) for w in raw_inputs):
            raise fail("inputs", "must be a list of parameter names (the inputs of the forces, e.g. a torque)")
        inputs_t = tuple(normalize_name(w) for w in raw_inputs)
        for i, w in enumerate(inputs_t):
            if w not in params:
                raise fail(
                    f"inputs[{i}]",
                    f"{raw_inputs[i]!r} is not a parameter{_did_you_mean(w, params)}; inputs are parameters "
                    f"declared in [parameters] ({sorted(params)})",
                )
    op_t: dict[sp.Symbol, sp.Expr] = {}
    if "operating_point" in data:
        state["key"] = "operating_point"
        otab = data["operating_point"]
        if not isinstance(otab, dict):
            raise fail("operating_point", "must be a table name = value (coordinates, velocities, inputs)")
        opnames = {s.name: s for s in (*ch.q, *ch.u)} | {w: params[w] for w in inputs_t}
        only_params = {s.name: s for s in ch.params}
        for k, v in otab.items():
            key = f"operating_point.{k}"
            state["key"] = key
            sym = opnames.get(normalize_name(k))
            if sym is None:
                raise fail(
                    key,
                    f"unknown name{_did_you_mean(normalize_name(k), opnames)}; expected a coordinate, a velocity or "
                    f"an input: {sorted(opnames)}",
                    locate(key, at_key=True),
                )
            if sym in op_t:
                raise fail(key, f"{sym.name!r} is given twice (names are NFKC-normalised)")
            state["key"] = key
            op_t[sym] = _parse(v, only_params, {}, source=source, key=key, where=partial(locate, key), budget=budget)

    state["key"] = "units"
    units_t = data.get("units", {})
    if not isinstance(units_t, dict):
        raise fail("units", 'must be a table name = "unit" (coordinates, velocities, time, parameters)')
    unit_names = {s.name: s.name for s in (*ch.q, *ch.u)} | {pn: pn for pn in params}
    unit_names.setdefault(ch.t.name if ch.t is not None else "t", ch.t.name if ch.t is not None else "t")
    for raw, unit in units_t.items():
        key = f"units.{raw}"
        state["key"] = key
        un_ = unit_names.get(normalize_name(raw))
        if un_ is None:
            raise fail(key, f"unknown name; expected a coordinate, velocity, time or parameter: {sorted(unit_names)}")
        if un_ in units:
            raise fail(key, f"the unit of {un_!r} is given twice (also in [parameters] or [units])")
        why = _unit_error(unit)
        if why is not None:
            raise fail(key, why)
        units[un_] = unit

    plane_t: tuple[str, ...] = ()
    if "plane" in data:
        state["key"] = "plane"
        pl = data["plane"]
        if not _is_list(pl) or len(pl) != 2 or not all(isinstance(c, str) for c in pl):
            raise fail("plane", "must be a list of two coordinate names [x, y] (the position of a planar vehicle)")
        qnames = {s.name for s in ch.q}
        plane_t = tuple(normalize_name(c) for c in pl)
        if not all(c in qnames for c in plane_t) or plane_t[0] == plane_t[1]:
            raise fail("plane", f"{pl!r}: expected two distinct coordinates of {sorted(qnames)}")

    state["key"] = "initial"
    init = data.get("initial", {})
    if not isinstance(init, dict) or set(init) - {"q", "u"}:
        raise fail("initial", "must be a table with subtables q and u")
    q0: dict[sp.Symbol, float] = {}
    u0: dict[sp.Symbol, float] = {}
    for part, syms, target in (("q", ch.q, q0), ("u", ch.u, u0)):
        state["key"] = f"initial.{part}"
        tab = init.get(part, {})
        if not isinstance(tab, dict):
            raise fail(f"initial.{part}", "must be a table name = number")
        byname = {s.name: s for s in syms}
        for k, v in tab.items():
            key = f"initial.{part}.{k}"
            state["key"] = key
            sym = byname.get(normalize_name(k))
            if sym is None:
                raise fail(key, f"unknown name; expected one of {sorted(byname)}")
            if sym in target:
                raise fail(key, f"{sym.name!r} is given twice (names are NFKC-normalised)")
            fv = _finite(v)
            if fv is None:
                raise fail(key, "must be a finite number")
            target[sym] = fv
    for key in ("name", "citation", "notes"):
        if key in data and not isinstance(data[key], str):
            raise fail(key, "must be a string")
    name = data.get("name", Path(source).stem if source != "<string>" else "system")
    state["key"] = "model"
    # the model checks its own invariants (m, the frame spans D, group, MVM data, u0 in D);
    # its error names the part, which is the file's key
    model = _model_or_fail(
        fail,
        name,
        ch,
        L,
        F,
        m,
        cons,
        params,
        q0=q0,
        u0=u0 if check_u0 else {},
        param_values=pvals,
        citation=data.get("citation", ""),
        group=group,
        notes=data.get("notes", ""),
        structure_constants=sc,
        auxiliary=aux_t,
        forces=forces_t,
        units=units,
        functions=function_args,
        plane=plane_t,
        loads=loads_t,
        inputs=inputs_t,
        operating_point=op_t,
    )
    if not check_u0 and u0:  # [initial.u] kept unchecked: the caller projects it onto D or replaces it
        model = Model._from_fields(**{f.name: getattr(model, f.name) for f in dataclasses.fields(model)} | {"u0": u0})
    # the model's own forms (the constraints as coefficient rows, the frame) may hold numbers the file
    # does not show (1e-249**2 once a product is expanded); a model that cannot be written back exactly
    # is refused, so that every model read is written and read back to an equal model
    state["key"] = "model"
    try:
        dumps_model(model)
    except SystemFileError as exc:
        raise fail(exc.key, f"the system read cannot be written back exactly: {exc.reason}") from None
    return model


#: the entries of a ``[[loads]]`` table of each kind: (required vectors, one-of vectors)
_LOAD_KINDS = {
    "force": ("force", ("point", "velocity")),
    "torque": ("torque", ("angular_velocity",)),
}


def _did_you_mean(name: str, known: Any) -> str:
    """``"; did you mean 'x'?"`` for the closest of ``known`` (difflib), or ``""``."""
    close = difflib.get_close_matches(name, sorted(map(str, known)), n=2, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""


def _read_loads(
    data: dict[str, Any],
    ch: Chart,
    expr: Callable[[object, str], sp.Expr],
    fail: Callable[..., SystemFileError],
    state: dict[str, str],
    wrap: Callable[[str, Callable[[], Any]], Any],
) -> tuple[Any, ...]:
    """The ``[[loads]]`` array of tables as PointForce and BodyTorque objects (checked on the chart by the model)."""
    if "loads" not in data:
        return ()
    state["key"] = "loads"
    raw = data["loads"]
    if not _is_list(raw) or not all(isinstance(t, dict) for t in raw):
        raise fail("loads", 'must be an array of tables [[loads]] with kind = "force" or "torque"')
    out = []
    for i, tab in enumerate(raw):
        key = f"loads[{i}]"
        state["key"] = key
        kind = tab.get("kind")
        if kind not in _LOAD_KINDS:
            raise fail(
                f"{key}.kind" if "kind" in tab else key,
                f'kind must be "force" (with point or velocity, and force) or "torque" (with angular_velocity and '
                f"torque), got {kind!r}{_did_you_mean(str(kind), _LOAD_KINDS) if isinstance(kind, str) else ''}",
            )
        main, where = _LOAD_KINDS[kind]
        allowed = {"kind", main, *where}
        bad = sorted(set(tab) - allowed)
        if bad:
            raise fail(
                f"{key}.{bad[0]}",
                f"unknown entry of a {kind} load{_did_you_mean(bad[0], allowed)}; a {kind} load has {sorted(allowed)}",
            )
        given = [w for w in where if w in tab]
        if len(given) != 1 or main not in tab:
            need = f"{main} and one of {list(where)}" if len(where) > 1 else f"{main} and {where[0]}"
            raise fail(key, f"a {kind} load needs {need}")
        vecs = {}
        for part in (given[0], main):
            vkey = f"{key}.{part}"
            state["key"] = vkey
            vec = tab[part]
            if not _is_list(vec) or not 1 <= len(vec) <= 3:
                raise fail(vkey, "must be a vector: a list of 1 to 3 expressions in an inertial basis")
            vecs[part] = [expr(x, f"{vkey}[{j}]") for j, x in enumerate(vec)]
        a, b = vecs[given[0]], vecs[main]
        if len(a) != len(b):
            raise fail(
                f"{key}.{main}", f"has {len(b)} components and {given[0]} {len(a)}; both are vectors of one basis"
            )
        make: Callable[[], Any]
        if kind == "force":
            make = partial(PointForce, b, a) if given[0] == "point" else partial(PointForce, b, velocity=a)
        else:
            make = partial(BodyTorque, a, b)
        load = wrap(key, make)
        wrap(key, partial(load.one_form, ch))  # its symbols on the chart (a position on Q), named by the table
        out.append(load)
    return tuple(out)


_MODEL_PART_TO_KEY = {
    "q0": "initial.q",
    "u0": "initial.u",
    "param_values": "parameters",
    "params": "parameters",
    "units": "units",
    "inputs": "inputs",
    "operating_point": "operating_point",
    "loads": "loads",
}


def _model_or_fail(fail: Callable[[str, str], SystemFileError], *args: Any, **kwargs: Any) -> Model:
    """Build the :class:`Model`; its invariant errors become a SystemFileError keyed by the file's key."""
    try:
        return Model(*args, **kwargs)
    except (SystemFileError, BudgetExceededError):
        raise
    except FramesError as exc:
        part = getattr(exc, "part", "model")
        reason = str(exc).split(f": {part}: ", 1)[-1]
        raise fail(_MODEL_PART_TO_KEY.get(part, part), reason) from None


def _read_bounded(path: Path) -> bytes:
    """At most ``MAX_FILE_SIZE + 1`` bytes of a regular file (never blocks on a FIFO or a device)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = (
                "a directory"
                if stat.S_ISDIR(st.st_mode)
                else "a FIFO"
                if stat.S_ISFIFO(st.st_mode)
                else "a device"
                if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
                else "a socket"
                if stat.S_ISSOCK(st.st_mode)
                else "not a regular file"
            )
            raise _NotRegular(kind)
        if st.st_size > MAX_FILE_SIZE:
            raise _TooLarge
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_FILE_SIZE:
            chunk = os.read(fd, MAX_FILE_SIZE + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


class _NotRegular(Exception):
    pass


class _TooLarge(Exception):
    pass


def load_model(path: str | os.PathLike[str], *, timeout: float | None = LOAD_SECONDS, check_u0: bool = True) -> Model:
    """Read a system file (TOML).

    At most ``MAX_FILE_SIZE + 1`` bytes are read; directories, FIFOs, devices (a symlink to
    ``/dev/zero``) and sockets are refused without reading, and the bytes must be UTF-8.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    timeout, check_u0
        As for :func:`loads_model`.

    Returns
    -------
    Model
        The validated model, as :func:`loads_model` returns it.

    Raises
    ------
    SystemFileError
        If the file cannot be read, is too large, is not UTF-8 text or is malformed; the message
        names the file, the key and the reason (with the line and column where one is at fault).
    """
    if isinstance(path, bytes) or not isinstance(path, str | os.PathLike):
        raise _error(str(path), "(file)", f"path must be a str or os.PathLike, got {type(path).__name__} {path!r}")
    p = Path(path)
    try:
        data = _read_bounded(p)
    except _NotRegular as exc:
        raise _error(str(p), "(file)", f"is {exc}, not a regular file") from None
    except _TooLarge:
        raise _error(str(p), "(file)", f"is larger than {MAX_FILE_SIZE} bytes") from None
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise _error(str(p), "(file)", f"cannot be read: {reason}") from None
    if len(data) > MAX_FILE_SIZE:
        raise _error(str(p), "(file)", f"is larger than {MAX_FILE_SIZE} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        col = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        raise _error(str(p), "(file)", f"is not UTF-8 text (byte 0x{data[exc.start]:02x})", (line, col)) from None
    if text.startswith("\ufeff"):
        text = text[1:]  # a UTF-8 byte-order mark
    return loads_model(text, source=str(p), timeout=timeout, check_u0=check_u0)
