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
tree; ``eval`` and ``sympify`` never see the text. Sizes are bounded (text
length, node count, depth, exponents, integer size) so parsing never hangs.

Examples
--------
>>> import sympy as sp
>>> x, y = sp.symbols("x y")
>>> parse_expression("x**2/2 + sin(y)", {"x": x, "y": y})
x**2/2 + sin(y)
>>> parse_expression("__import__('os').system('echo pwned')", {"x": x})
Traceback (most recent call last):
...
frames.errors.SystemFileError: <string>: expression: '__import__' is a dunder name; dunder names are never allowed
"""

from __future__ import annotations

import ast
import json
import math
import tomllib
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any

import sympy as sp

from ..algebra import is_zero
from ..dynamics._lagrangian import Lagrangian
from ..errors import FramesError, SystemFileError
from ..geometry._chart import Chart
from ..geometry._distribution import LinearConstraints, complete_frame
from ..geometry._fields import VectorField
from ..geometry._frame import Frame
from ._models import Model

__all__ = [
    "SystemFileError",
    "dump_system",
    "load_system",
    "loads_system",
    "parse_expression",
    "write_system",
]

# ----------------------------------------------------------------- limits
MAX_TEXT = 20_000  #: characters in one expression
MAX_NODES = 5_000  #: AST nodes in one expression
MAX_DEPTH = 60  #: nesting depth of the AST
MAX_EXPONENT = 100  #: |numeric exponent| allowed in ``**``
MAX_BITS = 4_096  #: size of any exact integer built while parsing

#: Whitelisted functions (name -> sympy function).
FUNCTIONS: dict[str, Callable[..., sp.Expr]] = {
    "sin": sp.sin,
    "cos": sp.cos,
    "tan": sp.tan,
    "exp": sp.exp,
    "log": sp.log,
    "sqrt": sp.sqrt,
    "asin": sp.asin,
    "acos": sp.acos,
    "atan": sp.atan,
    "sinh": sp.sinh,
    "cosh": sp.cosh,
    "tanh": sp.tanh,
}
_ARITY = {"log": (1, 1)}
#: Named constants (used only when the file does not declare the name).
CONSTANTS: dict[str, sp.Expr] = {"pi": sp.pi, "E": sp.E}

_NODE_NAMES = {
    ast.Attribute: "attribute access",
    ast.Subscript: "subscripts",
    ast.Lambda: "lambda",
    ast.ListComp: "comprehensions",
    ast.SetComp: "comprehensions",
    ast.DictComp: "comprehensions",
    ast.GeneratorExp: "comprehensions",
    ast.Starred: "starred arguments",
    ast.NamedExpr: "assignment expressions",
    ast.IfExp: "conditional expressions",
    ast.Compare: "comparisons",
    ast.BoolOp: "boolean operators",
    ast.JoinedStr: "f-strings",
    ast.List: "lists",
    ast.Tuple: "tuples",
    ast.Dict: "dicts",
    ast.Set: "sets",
    ast.Await: "await",
    ast.Yield: "yield",
    ast.YieldFrom: "yield",
    ast.Slice: "slices",
}


# ------------------------------------------------------------ expression parser
class _Parser:
    def __init__(self, symbols: Mapping[str, sp.Expr], functions: Mapping[str, Any], source: str, key: str) -> None:
        self.symbols = symbols
        self.functions = functions
        self.source = source
        self.key = key
        self.nodes = 0

    def fail(self, reason: str) -> SystemFileError:
        return SystemFileError(self.source, self.key, reason)

    def _check_number(self, e: sp.Expr) -> sp.Expr:
        if e.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
            raise self.fail(f"the expression evaluates to {e} (division by zero or overflow)")
        if isinstance(e, sp.Integer) and int(e).bit_length() > MAX_BITS:
            raise self.fail(f"integer larger than 2**{MAX_BITS}")
        if isinstance(e, sp.Rational) and max(int(e.p).bit_length(), int(e.q).bit_length()) > MAX_BITS:
            raise self.fail(f"rational number larger than 2**{MAX_BITS}")
        return e

    def walk(self, node: ast.AST, depth: int) -> sp.Expr:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self.fail(f"expression too large (more than {MAX_NODES} syntax nodes)")
        if depth > MAX_DEPTH:
            raise self.fail(f"expression nested too deeply (more than {MAX_DEPTH} levels)")
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise self.fail(f"constant {v!r} is not a real number; only numbers are allowed")
            if isinstance(v, float):
                if not math.isfinite(v):
                    raise self.fail(f"number {v!r} is not finite")
                return sp.Float(repr(v))
            return self._check_number(sp.Integer(v))
        if isinstance(node, ast.Name):
            name = node.id
            if "__" in name:
                raise self.fail(f"{name!r} is a dunder name; dunder names are never allowed")
            if name in self.symbols:
                return self.symbols[name]
            if name in CONSTANTS:
                return CONSTANTS[name]
            if name in FUNCTIONS or name in self.functions:
                raise self.fail(f"function {name!r} used without arguments")
            raise self.fail(
                f"unknown name {name!r}; declare it as a coordinate, velocity, time or parameter "
                f"(known: {sorted(self.symbols)})"
            )
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.USub):
                return -self.walk(node.operand, depth + 1)
            if isinstance(node.op, ast.UAdd):
                return self.walk(node.operand, depth + 1)
            raise self.fail(f"operator {type(node.op).__name__} is not allowed; use + - * / **")
        if isinstance(node, ast.BinOp):
            a = self.walk(node.left, depth + 1)
            b = self.walk(node.right, depth + 1)
            op = node.op
            if isinstance(op, ast.Add):
                r = a + b
            elif isinstance(op, ast.Sub):
                r = a - b
            elif isinstance(op, ast.Mult):
                r = a * b
            elif isinstance(op, ast.Div):
                if b == 0:
                    raise self.fail("division by zero")
                r = a / b
            elif isinstance(op, ast.Pow):
                r = self._pow(a, b)
            else:
                raise self.fail(f"operator {type(op).__name__} is not allowed; use + - * / **")
            return self._check_number(r)
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name):
                kind = _NODE_NAMES.get(type(node.func), type(node.func).__name__)
                raise self.fail(f"only named functions may be called ({kind} is not allowed)")
            name = node.func.id
            if "__" in name:
                raise self.fail(f"{name!r} is a dunder name; dunder names are never allowed")
            if node.keywords:
                raise self.fail(f"keyword arguments are not allowed (in the call of {name!r})")
            if name in self.functions:
                f = self.functions[name]
                arity = f[1]
                fn = f[0]
            elif name in FUNCTIONS:
                fn = FUNCTIONS[name]
                arity = 1
            else:
                raise self.fail(
                    f"call of {name!r} is not allowed; allowed functions: {sorted(FUNCTIONS)} "
                    f"and the declared functions {sorted(self.functions)}"
                )
            for a in node.args:
                if isinstance(a, ast.Starred):
                    raise self.fail("starred arguments are not allowed")
            if len(node.args) != arity:
                raise self.fail(f"function {name!r} takes {arity} argument(s), {len(node.args)} given")
            args = [self.walk(a, depth + 1) for a in node.args]
            return self._check_number(fn(*args))
        kind = _NODE_NAMES.get(type(node), type(node).__name__)
        raise self.fail(f"{kind} not allowed in expressions; use numbers, declared names, + - * / ** and functions")

    def _pow(self, a: sp.Expr, b: sp.Expr) -> sp.Expr:
        if b.is_Number:
            if isinstance(b, sp.Rational) and (abs(b.p) > MAX_EXPONENT or b.q > MAX_EXPONENT):
                raise self.fail(f"exponent {b} too large (|p|, q of an exponent p/q must be ≤ {MAX_EXPONENT})")
            if abs(float(b)) > MAX_EXPONENT:
                raise self.fail(f"exponent {b} too large (at most {MAX_EXPONENT} in absolute value)")
            if a.is_Number and a != 0:
                bits = abs(float(b)) * max(math.log2(abs(float(a)) + 1), math.log2(1 / abs(float(a)) + 1))
                if bits > MAX_BITS:
                    raise self.fail(f"number {a}**{b} too large")
            if a == 0 and b.is_negative:
                raise self.fail("division by zero (0 to a negative power)")
        elif a.is_Number and not b.free_symbols:
            raise self.fail(f"exponent {b} must be a number or contain declared symbols")
        return sp.Pow(a, b)


def parse_expression(
    text: object,
    symbols: Mapping[str, sp.Expr],
    functions: Mapping[str, Any] | None = None,
    *,
    source: str = "<string>",
    key: str = "expression",
) -> sp.Expr:
    r"""Parse one expression safely into a sympy object.

    Parameters
    ----------
    text : str or int or float
        The expression. Numbers are accepted as they are.
    symbols : mapping
        Name -> sympy object for every name the expression may use.
    functions : mapping, optional
        Declared functions: name -> ``(callable, arity)``, or name -> arity
        (an undefined sympy function of that name is then used).
    source, key : str
        Where the text comes from, for error messages.

    Raises
    ------
    SystemFileError
        Naming ``source`` and ``key`` and the reason: a forbidden construct
        (attribute access, subscripts, dunder names, lambda, comprehensions,
        calls of non-whitelisted names, keywords, starred arguments, strings),
        an unknown name, or a size bound exceeded.

    Examples
    --------
    >>> import sympy as sp
    >>> q1 = sp.Symbol("q1")
    >>> parse_expression("-Delta3(q1)*2", {"q1": q1}, {"Delta3": 1}) == -2 * sp.Function("Delta3")(q1)
    True
    >>> parse_expression("q1.real", {"q1": q1})
    Traceback (most recent call last):
    ...
    frames.errors.SystemFileError: <string>: expression: attribute access not allowed in expressions; use numbers, declared names, + - * / ** and functions
    """
    funcs: dict[str, tuple[Any, int]] = {}
    for name, spec in (functions or {}).items():
        if isinstance(spec, int):
            funcs[name] = (sp.Function(name), spec)
        else:
            funcs[name] = (spec[0], int(spec[1]))
    p = _Parser(symbols, funcs, source, key)
    if isinstance(text, bool):
        raise p.fail(f"{text!r} is not an expression")
    if isinstance(text, int | float):
        if isinstance(text, float) and not math.isfinite(text):
            raise p.fail(f"number {text!r} is not finite")
        return sp.Float(repr(text)) if isinstance(text, float) else p._check_number(sp.Integer(text))
    if not isinstance(text, str):
        raise p.fail(f"expected an expression (a string or a number), got {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise p.fail(f"expression longer than {MAX_TEXT} characters")
    if not text.strip():
        raise p.fail("empty expression")
    try:
        tree = ast.parse(" ".join(text.split()), mode="eval")  # multi-line strings: newlines are spaces
    except SyntaxError as exc:
        raise p.fail(f"syntax error: {exc.msg}") from None
    except (RecursionError, MemoryError, ValueError) as exc:
        raise p.fail(f"expression cannot be parsed ({type(exc).__name__}); too deeply nested?") from None
    for node in ast.walk(tree):  # iterative; first report any dunder name anywhere in the text
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
        if "__" in name:
            raise p.fail(f"{name!r} is a dunder name; dunder names are never allowed")
    try:
        return p.walk(tree.body, 0)
    except RecursionError:
        raise p.fail("expression nested too deeply") from None


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
    "initial",
}


def _is_list(x: object) -> bool:
    return isinstance(x, list)


def loads_system(text: str, source: str = "<string>") -> Any:
    """Read a system from TOML text; returns a :class:`frames.models.Model`.

    Raises
    ------
    SystemFileError
        Naming ``source``, the key and the reason.
    """

    def fail(key: str, reason: str) -> SystemFileError:
        return SystemFileError(source, key, reason)

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise fail("(toml)", f"not valid TOML: {exc}") from None
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise fail(sorted(unknown)[0], f"unknown key; known keys are {sorted(_TOP_KEYS)}")

    def names_of(key: str, required: bool) -> list[str]:
        val = data.get(key)
        if val is None:
            if required:
                raise fail(key, "missing (a list of names)")
            return []
        if not _is_list(val) or not all(isinstance(s, str) for s in val):
            raise fail(key, "must be a list of names")
        for s in val:
            if not s.isidentifier() or "__" in s:
                raise fail(key, f"{s!r} is not a valid name")
        return list(val)

    qn = names_of("coordinates", True)
    if not qn:
        raise fail("coordinates", "at least one coordinate is required")
    un = names_of("velocities", False) or None
    time = data.get("time")
    if time is not None and (not isinstance(time, str) or not time.isidentifier()):
        raise fail("time", "must be the name of the time symbol")
    params_t = data.get("parameters", {})
    if not isinstance(params_t, dict):
        raise fail("parameters", "must be a table name = {unit = ..., value = ...}")
    params: dict[str, sp.Symbol] = {}
    units: dict[str, str] = {}
    pvals: dict[sp.Symbol, float] = {}
    for pn, spec in params_t.items():
        key = f"parameters.{pn}"
        if not pn.isidentifier() or "__" in pn:
            raise fail(key, f"{pn!r} is not a valid name")
        s = sp.Symbol(pn)
        params[pn] = s
        if isinstance(spec, dict):
            bad = set(spec) - {"unit", "value", "description"}
            if bad:
                raise fail(key, f"unknown entries {sorted(bad)}; use unit, value, description")
            if "unit" in spec:
                if not isinstance(spec["unit"], str):
                    raise fail(key + ".unit", "must be a string")
                units[pn] = spec["unit"]
            if "value" in spec:
                v = spec["value"]
                if isinstance(v, bool) or not isinstance(v, int | float):
                    raise fail(key + ".value", "must be a number")
                pvals[s] = float(v)
        elif isinstance(spec, int | float) and not isinstance(spec, bool):
            pvals[s] = float(spec)
        elif isinstance(spec, str):
            units[pn] = spec
        else:
            raise fail(key, "must be a table {unit = ..., value = ...}, a number or a unit string")
    try:
        ch = Chart(qn, un, time=time, params=list(params.values()))
    except FramesError as exc:
        raise fail("coordinates", str(exc)) from None

    funcs_t = data.get("functions", {})
    if not isinstance(funcs_t, dict):
        raise fail("functions", "must be a table name = [argument names]")
    functions: dict[str, tuple[Any, int]] = {}
    allowed_args = {s.name for s in (*ch.q, *([ch.t] if ch.t is not None else []))}
    for fn, args in funcs_t.items():
        key = f"functions.{fn}"
        if not fn.isidentifier() or "__" in fn or fn in FUNCTIONS:
            raise fail(key, f"{fn!r} is not a valid name for a declared function")
        if not _is_list(args) or not args or not all(isinstance(a, str) and a in allowed_args for a in args):
            raise fail(key, f"must list its arguments, names among {sorted(allowed_args)}")
        functions[fn] = (sp.Function(fn), len(args))

    symbols: dict[str, sp.Expr] = {s.name: s for s in (*ch.q, *ch.u, *ch.params)}
    if ch.t is not None:
        symbols[ch.t.name] = ch.t

    def expr(val: object, key: str) -> sp.Expr:
        return parse_expression(val, symbols, functions, source=source, key=key)

    def wrap(key: str, thunk: Callable[[], Any]) -> Any:
        try:
            return thunk()
        except SystemFileError:
            raise
        except FramesError as exc:
            raise fail(key, str(exc)) from None

    if "lagrangian" not in data:
        raise fail("lagrangian", "missing (an expression in the coordinates, velocities and parameters)")
    L = wrap("lagrangian", lambda: Lagrangian(ch, expr(data["lagrangian"], "lagrangian")))
    cons_raw = data.get("constraints")
    if not _is_list(cons_raw) or not cons_raw:
        raise fail("constraints", "missing or empty (a list of expressions linear in the velocities)")
    cons_e = [expr(c, f"constraints[{i}]") for i, c in enumerate(cons_raw)]
    cons = wrap("constraints", lambda: LinearConstraints(ch, cons_e))
    n = ch.dim
    m = data.get("m", n - cons.k)
    if not isinstance(m, int) or isinstance(m, bool):
        raise fail("m", "must be an integer (the rank of D)")

    def fields(key: str) -> list[VectorField]:
        rows = data[key]
        if not _is_list(rows) or not all(_is_list(r) for r in rows):
            raise fail(key, "must be a list of component lists")
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
        F = wrap("constraints", lambda: complete_frame(cons.distribution()))

    group_raw = data.get("group", [])
    if not _is_list(group_raw) or not all(isinstance(g, int) and not isinstance(g, bool) for g in group_raw):
        raise fail("group", "must be a list of 1-based frame indices")
    group = tuple(g - 1 for g in group_raw)
    sc: dict[tuple[int, int], dict[int, sp.Expr]] = {}
    aux_t: tuple[sp.Expr, ...] = ()
    sc_raw = data.get("structure_constants")
    if sc_raw is not None:
        if not _is_list(sc_raw):
            raise fail("structure_constants", "must be a list of tables {a, b, c, value}")
        for i, entry in enumerate(sc_raw):
            key = f"structure_constants[{i}]"
            if not isinstance(entry, dict) or set(entry) != {"a", "b", "c", "value"}:
                raise fail(key, "must be a table with keys a, b, c (1-based) and value")
            idx = [entry[k] for k in ("a", "b", "c")]
            if not all(isinstance(j, int) and 1 <= j <= n for j in idx):
                raise fail(key, f"indices must be integers in 1..{n}")
            sc.setdefault((idx[0] - 1, idx[1] - 1), {})[idx[2] - 1] = expr(entry["value"], key + ".value")
    if "auxiliary" in data:
        aux = data["auxiliary"]
        if not _is_list(aux):
            raise fail("auxiliary", "must be a list of expressions")
        aux_t = tuple(expr(a, f"auxiliary[{i}]") for i, a in enumerate(aux))

    init = data.get("initial", {})
    if not isinstance(init, dict) or set(init) - {"q", "u"}:
        raise fail("initial", "must be a table with subtables q and u")
    q0: dict[sp.Symbol, float] = {}
    u0: dict[sp.Symbol, float] = {}
    for part, syms, target in (("q", ch.q, q0), ("u", ch.u, u0)):
        tab = init.get(part, {})
        if not isinstance(tab, dict):
            raise fail(f"initial.{part}", "must be a table name = number")
        byname = {s.name: s for s in syms}
        for k, v in tab.items():
            if k not in byname:
                raise fail(f"initial.{part}.{k}", f"unknown name; expected one of {sorted(byname)}")
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise fail(f"initial.{part}.{k}", "must be a number")
            target[byname[k]] = float(v)
    for key in ("name", "citation", "notes"):
        if key in data and not isinstance(data[key], str):
            raise fail(key, "must be a string")
    name = data.get("name", Path(source).stem if source != "<string>" else "system")
    # the model checks its own invariants (m, the frame spans D, group, MVM data, u0 in D);
    # its error names the part, which is the file's key
    return _model_or_fail(
        fail,
        name,
        ch,
        L,
        F,
        m,
        cons,
        params,
        q0=q0,
        u0=u0,
        param_values=pvals,
        citation=data.get("citation", ""),
        group=group,
        notes=data.get("notes", ""),
        structure_constants=sc,
        auxiliary=aux_t,
        units=units,
        functions={k: tuple(v) for k, v in funcs_t.items()} if functions else {},
    )


_MODEL_PART_TO_KEY = {
    "q0": "initial.q",
    "u0": "initial.u",
    "param_values": "parameters",
    "params": "parameters",
    "units": "parameters",
}


def _model_or_fail(fail: Callable[[str, str], SystemFileError], *args: Any, **kwargs: Any) -> Model:
    """Build the :class:`Model`; its invariant errors become a SystemFileError keyed by the file's key."""
    try:
        return Model(*args, **kwargs)
    except SystemFileError:
        raise
    except FramesError as exc:
        part = getattr(exc, "part", "model")
        reason = str(exc).split(f": {part}: ", 1)[-1]
        raise fail(_MODEL_PART_TO_KEY.get(part, part), reason) from None


def load_system(path: str | Path) -> Any:
    """Read a system file (TOML); returns a :class:`frames.models.Model`.

    Raises
    ------
    SystemFileError
        If the file cannot be read or is malformed; the message names the file,
        the key and the reason.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise SystemFileError(str(p), "(file)", f"cannot be read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise SystemFileError(str(p), "(file)", "is not UTF-8 text") from None
    return loads_system(text, source=str(p))


# ----------------------------------------------------------------- writing
def _s(x: str) -> str:
    return json.dumps(x)  # TOML basic strings accept JSON escapes


def _key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() and k.isascii() else _s(k)


def _e(e: object) -> str:
    """An expression as text the safe parser reads back to the same expression."""
    return _s(sp.sstr(sp.sympify(e), order="none"))


def _num(x: float) -> str:
    return repr(float(x))


def _declared_functions(model: Any) -> dict[str, list[str]]:
    exprs: list[sp.Expr] = [model.lagrangian.expr, *model.frame.matrix, *model.constraints.matrix]
    exprs += list(model.auxiliary)
    out: dict[str, list[str]] = {}
    for e in exprs:
        for f in sp.sympify(e).atoms(sp.core.function.AppliedUndef):
            args = [str(a) for a in f.args]
            if not all(isinstance(a, sp.Symbol) for a in f.args):
                raise SystemFileError(
                    model.name, "functions", f"declared function {f} must be applied to coordinates or time"
                )
            out[str(f.func)] = args
    return out


def dump_system(model: Any) -> str:
    """Write a model as a system file (TOML text) that :func:`loads_system` reads back.

    The adapted frame is written in full, so the model read back has the same
    chart, Lagrangian, constraints and frame. MVM auxiliary functions are taken
    from ``model.auxiliary``.

    Examples
    --------
    >>> from frames import models
    >>> text = dump_system(models.nonholonomic_particle())
    >>> print(text.splitlines()[4])
    lagrangian = "u1**2/2 + u2**2/2 + u3**2/2"
    >>> loads_system(text).lagrangian.expr == models.nonholonomic_particle().lagrangian.expr
    True
    """
    ch = model.chart
    lines = [f"name = {_s(model.name)}"]
    if model.citation:
        lines.append(f"citation = {_s(model.citation)}")
    lines.append("coordinates = [" + ", ".join(_s(s.name) for s in ch.q) + "]")
    lines.append("velocities = [" + ", ".join(_s(s.name) for s in ch.u) + "]")
    if ch.t is not None:
        lines.append(f"time = {_s(ch.t.name)}")
    lines.append(f"lagrangian = {_e(model.lagrangian.expr)}")
    lines.append("constraints = [")
    lines += [f"  {_e(f)}," for f in model.constraints.functions]
    lines.append("]")
    lines.append(f"m = {model.m}")
    lines.append("# adapted frame: rows are the components X_i^j; the first m fields span D")
    lines.append("frame = [")
    M = model.frame.matrix
    for i in range(M.rows):
        lines.append("  [" + ", ".join(_e(M[i, j]) for j in range(M.cols)) + "],")
    lines.append("]")
    if model.group:
        lines.append("group = [" + ", ".join(str(g + 1) for g in model.group) + "]  # 1-based frame indices")
    aux = model.auxiliary
    if aux:
        lines.append("auxiliary = [" + ", ".join(_e(a) for a in aux) + "]")
    if model.notes:
        lines.append(f"notes = {_s(model.notes)}")
    sc = model.structure_constants
    for (a, b), row in sorted(sc.items()):
        for c, val in sorted(row.items()):
            lines += [
                "",
                "[[structure_constants]]",
                f"a = {a + 1}",
                f"b = {b + 1}",
                f"c = {c + 1}",
                f"value = {_e(val)}",
            ]
    units = model.units
    if model.params:
        lines += ["", "[parameters]"]
        for pn, s in model.params.items():
            parts = [f"unit = {_s(units[pn])}"] if pn in units else []
            if s in model.param_values:
                parts.append(f"value = {_num(model.param_values[s])}")
            lines.append(f"{_key(pn)} = {{ " + ", ".join(parts) + " }" if parts else f"{_key(pn)} = {{}}")
    funcs = _declared_functions(model)
    if funcs:
        lines += ["", "[functions]"]
        lines += [f"{_key(k)} = [" + ", ".join(_s(a) for a in v) + "]" for k, v in sorted(funcs.items())]
    for part, vals in (("q", model.q0), ("u", model.u0)):
        if vals:
            lines += ["", f"[initial.{part}]"]
            pv = dict(model.param_values)
            lines += [f"{_key(str(k))} = {_num(sp.sympify(v).xreplace(pv))}" for k, v in vals.items()]
    return "\n".join(lines) + "\n"


def write_system(model: Any, path: str | Path) -> Path:
    """Write ``model`` as a system file at ``path``; returns the path."""
    p = Path(path)
    p.write_text(dump_system(model), encoding="utf-8")
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
