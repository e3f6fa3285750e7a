"""The safe expression parser of system files: a whitelisted walk of ``ast.parse(text, mode="eval")``.

Text becomes a sympy expression without ``eval`` or ``sympify``: numbers, declared symbols, ``+ - * / **``,
unary ``±`` and calls of whitelisted or declared functions, each size bounded (the ``MAX_*`` limits below,
documented in ``docs/system_files.md``). :func:`parse_expression` is the public door
(``frames.parse_expression``); :mod:`frames.app._sysfile` reads whole files with it.
"""

from __future__ import annotations

import ast
import difflib
import keyword
import math
import re
import unicodedata
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

import mpmath
import sympy as sp
from sympy.core.function import AppliedUndef

from ..errors import SystemFileError

# ----------------------------------------------------------------- limits
MAX_FILE_SIZE = 1_000_000  #: bytes of a system file (characters for :func:`loads_model`)
MAX_TOML_DEPTH = 32  #: nesting of ``[`` and ``{`` in the TOML text
MAX_TEXT = 20_000  #: characters in one expression
MAX_NODES = 5_000  #: AST nodes in one expression
MAX_FILE_NODES = 50_000  #: AST nodes of all the expressions of one file
MAX_DEPTH = 60  #: nesting depth of an expression (a chain ``a + b - c`` or ``a*b/c`` is one level)
MAX_EXPONENT = 100  #: |numeric exponent| allowed in ``**`` (``p/q``: |p| and q)
MAX_DEGREE = 100  #: effective polynomial degree after nesting of powers and products
MAX_TERMS = 50_000  #: terms of an expression multiplied out (a bound: ``(a + b + c)**n`` has ``C(n + 2, 2)``)
MAX_BITS = 4_096  #: size of the numerator and denominator of any exact number built while parsing
MAX_MAGNITUDE = 1e300  #: |value| of any number or constant sub-expression
MIN_MAGNITUDE = 1e-300  #: smallest |value| of a non-zero floating-point number
MAX_EXP_ARGUMENT = 690.0  #: |argument| of exp, sinh, cosh (|imaginary part| for sin, cos, tan)
MAX_COORDINATES = 64  #: coordinates of one system
LOAD_SECONDS = 1.5  #: default wall-clock limit of reading and checking one file (``timeout=``)

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
#: Named constants (used only when the file does not declare the name).
CONSTANTS: dict[str, sp.Expr] = {"pi": sp.pi, "E": sp.E}

# constant sub-expressions are evaluated in this private context (53 bits, unbounded exponent)
_MP = mpmath.MPContext()
_MP.prec = 53
_MP_FUNCTIONS: dict[str, Callable[[Any], Any]] = {
    "sin": _MP.sin,
    "cos": _MP.cos,
    "tan": _MP.tan,
    "exp": _MP.exp,
    "log": _MP.log,
    "sqrt": _MP.sqrt,
    "asin": _MP.asin,
    "acos": _MP.acos,
    "atan": _MP.atan,
    "sinh": _MP.sinh,
    "cosh": _MP.cosh,
    "tanh": _MP.tanh,
}
_MP_CONSTANTS = {"pi": _MP.pi, "E": _MP.e}
_GROWS_WITH_REAL = {"exp", "sinh", "cosh"}  # |f(x)| ~ e^|Re x|
_GROWS_WITH_IMAG = {"sin", "cos", "tan"}  # |f(x)| ~ e^|Im x|

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
_GROUP = {ast.Add: "+", ast.Sub: "+", ast.Mult: "*", ast.Div: "*"}
_ASCII_SPACE = str.maketrans("\t\n\r\f\v", "     ")


def _error(source: str, key: str, reason: str, where: tuple[int, int] | None = None) -> SystemFileError:
    """A :class:`SystemFileError`; with ``where = (line, column)`` the reason starts with the place."""
    if where is not None:
        reason = f"line {where[0]}, column {where[1]}: {reason}"
    err = SystemFileError(source, key, reason)
    err.line, err.column = where if where is not None else (None, None)  # type: ignore[attr-defined]
    return err


def normalize_name(name: str) -> str:
    """The NFKC normal form of a name, as Python normalises identifiers (``ｍ`` -> ``m``, ``ℓ`` -> ``l``)."""
    return unicodedata.normalize("NFKC", name)


def _line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset in ``text``."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return line + 1, offset - start + 1


# ------------------------------------------------------------ expression parser
@dataclass
class _Node:
    """A parsed sub-expression: the sympy object, its effective degree, if constant its value, and a bound of
    the number of its terms once multiplied out (function calls count as one term)."""

    expr: sp.Expr
    degree: float
    value: Any  # an mpmath mpf/mpc for a constant sub-expression, None otherwise
    terms: int = 1


class _Parser:
    def __init__(
        self,
        symbols: Mapping[str, sp.Expr],
        functions: Mapping[str, tuple[Any, int]],
        source: str,
        key: str,
        where: Callable[[int | None], tuple[int, int] | None],
        budget: list[int],
    ) -> None:
        self.symbols = symbols
        self.functions = functions
        self.source = source
        self.key = key
        self.where = where  # expression offset -> (line, column) for messages
        self.budget = budget  # [AST nodes still allowed in this file]
        self.nodes = 0
        self.offset: Callable[[ast.AST], int | None] = lambda node: None
        self.placeholders: dict[str, str] = {}

    def fail(self, reason: str, at: ast.AST | int | None = None) -> SystemFileError:
        off = self.offset(at) if isinstance(at, ast.AST) else at
        return _error(self.source, self.key, reason, self.where(off))

    # ----------------------------------------------------------- numbers
    def _check_number(self, e: sp.Expr, at: ast.AST | None) -> sp.Expr:
        if e.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
            raise self.fail(f"the expression evaluates to {e} (division by zero or overflow)", at)
        if isinstance(e, sp.Rational) and max(int(e.p).bit_length(), int(e.q).bit_length()) > MAX_BITS:
            raise self.fail(f"exact number larger than 2**{MAX_BITS}", at)
        return e

    def _check_value(self, v: Any, at: ast.AST | None) -> Any:
        if v is None:
            return None
        if _MP.isnan(v) or _MP.isinf(v):
            raise self.fail("the expression is not finite (division by zero, log(0) or overflow)", at)
        if abs(v) > MAX_MAGNITUDE:
            raise self.fail(f"number too large: {_MP.nstr(v, 6)} (at most {MAX_MAGNITUDE:g} in absolute value)", at)
        return v

    def _evaluate(self, thunk: Callable[[], Any], at: ast.AST) -> Any:
        try:
            v = thunk()
        except (ZeroDivisionError, OverflowError, ValueError, TypeError) as exc:
            raise self.fail(f"constant sub-expression cannot be evaluated ({type(exc).__name__})", at) from None
        return self._check_value(v, at)

    def _within(self, value: Any, limit: float, reason: str, at: ast.AST) -> Any:
        """``value`` if it is at most ``limit``; otherwise the error ``reason`` at ``at``."""
        if value > limit:
            raise self.fail(reason, at)
        return value

    def _terms(self, n: int, at: ast.AST) -> int:
        reason = (
            f"about {n:.3g} terms once multiplied out, too many (at most {MAX_TERMS}; the library works with "
            "expanded polynomials): write the expression with fewer or smaller powers of sums"
        )
        return self._within(n, MAX_TERMS, reason, at)  # type: ignore[no-any-return]

    def _degree(self, d: float, at: ast.AST) -> float:
        reason = (
            f"effective polynomial degree {d:.6g} too large (at most {MAX_DEGREE}; nested powers and products "
            "multiply degrees)"
        )
        return self._within(d, MAX_DEGREE, reason, at)  # type: ignore[no-any-return]

    def constant(self, v: object, at: ast.AST | None) -> _Node:
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise self.fail(f"constant {v!r} is not a real number; only numbers are allowed", at)
        if isinstance(v, float):
            if not math.isfinite(v):
                raise self.fail(f"number {v!r} is not finite", at)
            if v != 0 and not MIN_MAGNITUDE <= abs(v) <= MAX_MAGNITUDE:
                raise self.fail(f"number {v!r} out of range ({MIN_MAGNITUDE:g} ≤ |x| ≤ {MAX_MAGNITUDE:g})", at)
            return _Node(sp.Float(v), 0.0, _MP.mpf(v))
        if v.bit_length() > MAX_BITS:
            raise self.fail(f"integer larger than 2**{MAX_BITS}", at)
        return _Node(sp.Integer(v), 0.0, self._check_value(_MP.mpf(v), at))

    # ----------------------------------------------------------- the walk
    def count(self, node: ast.AST) -> None:
        self.nodes += 1
        self.budget[0] -= 1
        if self.nodes > MAX_NODES:
            raise self.fail(f"expression too large (more than {MAX_NODES} syntax nodes)", node)
        if self.budget[0] < 0:
            raise self.fail(f"the expressions of this file are too large (more than {MAX_FILE_NODES} nodes)", node)

    def walk(self, node: ast.AST, depth: int) -> _Node:
        self.count(node)
        if depth > MAX_DEPTH:
            raise self.fail(f"expression nested too deeply (more than {MAX_DEPTH} levels)", node)
        if isinstance(node, ast.Constant):
            return self.constant(node.value, node)
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.USub | ast.UAdd):
                a = self.walk(node.operand, depth + 1)
                if isinstance(node.op, ast.UAdd):
                    return a
                return _Node(-a.expr, a.degree, None if a.value is None else -a.value, a.terms)
            raise self.fail(f"operator {type(node.op).__name__} is not allowed; use + - * / **", node)
        if isinstance(node, ast.BinOp):
            group = _GROUP.get(type(node.op))
            if group is None:
                if not isinstance(node.op, ast.Pow):
                    raise self.fail(f"operator {type(node.op).__name__} is not allowed; use + - * / **", node)
                base = self.walk(node.left, depth + 1)
                return self._pow(base, self.walk(node.right, depth + 1), node)
            # a chain a + b - c + ... (or a*b/c*...) is walked iteratively, as one level
            chain: list[ast.BinOp] = []
            cur: ast.AST = node
            while isinstance(cur, ast.BinOp) and _GROUP.get(type(cur.op)) == group:
                if cur is not node:
                    self.count(cur)
                chain.append(cur)
                cur = cur.left
            acc = self.walk(cur, depth + 1)
            if group == "+":  # one sympy Add of all the terms (adding them one by one is quadratic)
                terms = [acc.expr]
                degree, value, count = acc.degree, acc.value, acc.terms
                for op_node in reversed(chain):
                    b = self.walk(op_node.right, depth + 1)
                    sign = 1 if isinstance(op_node.op, ast.Add) else -1
                    terms.append(b.expr if sign == 1 else -b.expr)
                    degree = max(degree, b.degree)
                    count = self._terms(count + b.terms, op_node)
                    if value is not None and b.value is not None:
                        value = self._evaluate(partial(lambda v, w, k: v + k * w, value, b.value, sign), op_node)
                    else:
                        value = None
                return _Node(self._check_number(sp.Add(*terms), node), degree, value, count)
            for op_node in reversed(chain):  # products one by one, as Python (and sympy's distribution) does
                acc = self._binop(op_node, acc, self.walk(op_node.right, depth + 1))
            return acc
        if isinstance(node, ast.Call):
            return self.call(node, depth)
        kind = _NODE_NAMES.get(type(node), type(node).__name__)
        raise self.fail(
            f"{kind} not allowed in expressions; use numbers, declared names, + - * / ** and functions", node
        )

    def name(self, node: ast.Name) -> _Node:
        name = self.placeholders.get(node.id, node.id)
        if "__" in name:
            raise self.fail(f"{name!r} is a dunder name; dunder names are never allowed", node)
        if name in self.symbols:
            return _Node(self.symbols[name], 1.0, None)
        if name in CONSTANTS:
            return _Node(CONSTANTS[name], 0.0, _MP_CONSTANTS[name])
        if name in FUNCTIONS or name in self.functions:
            raise self.fail(f"function {name!r} used without arguments", node)
        raise self.fail(
            f"unknown name {name!r}{_did_you_mean(name, [*self.symbols, *CONSTANTS])}; declare it as a coordinate, "
            f"velocity, time or parameter (known: {sorted(self.symbols)})",
            node,
        )

    def _binop(self, node: ast.BinOp, a: _Node, b: _Node) -> _Node:
        op = node.op
        both = a.value is not None and b.value is not None
        if isinstance(op, ast.Add | ast.Sub):
            sign = 1 if isinstance(op, ast.Add) else -1
            value = self._evaluate(lambda: a.value + sign * b.value, node) if both else None
            r = a.expr + b.expr if sign == 1 else a.expr - b.expr
            count = self._terms(a.terms + b.terms, node)
            return _Node(self._check_number(r, node), max(a.degree, b.degree), value, count)
        degree = self._degree(a.degree + b.degree, node)
        count = self._terms(a.terms * b.terms, node)
        if isinstance(op, ast.Mult):
            value = self._evaluate(lambda: a.value * b.value, node) if both else None
            return _Node(self._check_number(a.expr * b.expr, node), degree, value, count)
        if b.expr.is_zero or (b.value is not None and b.value == 0):
            raise self.fail("division by zero", node)
        value = self._evaluate(lambda: a.value / b.value, node) if both else None
        return _Node(self._check_number(a.expr / b.expr, node), degree, value, count)

    def _pow(self, a: _Node, b: _Node, node: ast.BinOp) -> _Node:
        base, ex = a.expr, b.expr
        if b.value is not None:  # a constant exponent
            if isinstance(ex, sp.Rational) and (abs(ex.p) > MAX_EXPONENT or ex.q > MAX_EXPONENT):
                raise self.fail(f"exponent {ex} too large (|p|, q of an exponent p/q must be ≤ {MAX_EXPONENT})", node)
            if abs(b.value) > MAX_EXPONENT:
                raise self.fail(f"exponent {ex} too large (at most {MAX_EXPONENT} in absolute value)", node)
            if a.value is not None and a.value == 0 and _MP.re(b.value) < 0:
                raise self.fail("division by zero (0 to a negative power)", node)
            if base.is_zero and ex.is_negative:
                raise self.fail("division by zero (0 to a negative power)", node)
            if isinstance(base, sp.Rational) and isinstance(ex, sp.Integer):
                bits = abs(int(ex)) * max(int(base.p).bit_length(), int(base.q).bit_length())
                if bits > MAX_BITS:
                    raise self.fail(f"exact number {base}**{ex} too large (more than 2**{MAX_BITS})", node)
            degree = self._degree(a.degree * float(abs(b.value)), node)
            n = abs(ex.p) if isinstance(ex, sp.Rational) and ex.q == 1 else 1
            count = self._terms(math.comb(n + a.terms - 1, n) if a.terms > 1 else 1, node)
        else:
            if base.is_Number and not ex.free_symbols and not ex.atoms(AppliedUndef):
                raise self.fail(f"exponent {ex} must be a number or contain declared symbols", node)
            degree = self._degree(a.degree + b.degree, node)
            count = 1
        value = self._evaluate(lambda: a.value**b.value, node) if a.value is not None and b.value is not None else None
        return _Node(self._check_number(sp.Pow(base, ex), node), degree, value, count)

    def call(self, node: ast.Call, depth: int) -> _Node:
        if not isinstance(node.func, ast.Name):
            kind = _NODE_NAMES.get(type(node.func), type(node.func).__name__)
            raise self.fail(f"only named functions may be called ({kind} is not allowed)", node)
        name = self.placeholders.get(node.func.id, node.func.id)
        if "__" in name:
            raise self.fail(f"{name!r} is a dunder name; dunder names are never allowed", node)
        if node.keywords:
            raise self.fail(f"keyword arguments are not allowed (in the call of {name!r})", node)
        if name in self.functions:
            fn, arity = self.functions[name]
        elif name in FUNCTIONS:
            fn, arity = FUNCTIONS[name], 1
        else:
            raise self.fail(
                f"call of {name!r} is not allowed{_did_you_mean(name, [*FUNCTIONS, *self.functions])}; allowed "
                f"functions: {sorted(FUNCTIONS)} "
                f"and the declared functions {sorted(self.functions)}",
                node,
            )
        for a in node.args:
            if isinstance(a, ast.Starred):
                raise self.fail("starred arguments are not allowed", a)
        if len(node.args) != arity:
            raise self.fail(f"function {name!r} takes {arity} argument(s), {len(node.args)} given", node)
        args = [self.walk(a, depth + 1) for a in node.args]
        degree = max(a.degree for a in args)
        value = None
        if name not in self.functions:
            degree = max(degree, 0.0 if args[0].value is not None else 1.0)
            v = args[0].value
            if v is not None:
                if name in _GROWS_WITH_REAL and abs(v) > MAX_EXP_ARGUMENT:
                    raise self.fail(
                        f"argument of {name} too large in magnitude (at most {MAX_EXP_ARGUMENT:g})", node.args[0]
                    )
                if name in _GROWS_WITH_IMAG and abs(_MP.im(v)) > MAX_EXP_ARGUMENT:
                    raise self.fail(
                        f"imaginary part of the argument of {name} too large (at most {MAX_EXP_ARGUMENT:g})",
                        node.args[0],
                    )
                if name == "log" and v == 0:
                    raise self.fail("log(0) is not finite", node)
                value = self._evaluate(partial(_MP_FUNCTIONS[name], v), node)
        else:
            degree = max(degree, 1.0)
        return _Node(self._check_number(fn(*(a.expr for a in args)), node), degree, value)

    def finish(self, e: sp.Expr, at: ast.AST) -> sp.Expr:
        """Check the numbers of the finished expression (coefficients grow when sympy merges them)."""
        for n in e.atoms(sp.Number):
            if isinstance(n, sp.Float):
                if n != 0 and not (MIN_MAGNITUDE <= abs(n) <= MAX_MAGNITUDE):
                    raise self.fail(
                        f"number {n} out of range ({MIN_MAGNITUDE:g} ≤ |x| ≤ {MAX_MAGNITUDE:g}) after simplification",
                        at,
                    )
            elif isinstance(n, sp.Rational) and abs(int(n.p)) > int(MAX_MAGNITUDE) * int(n.q):
                raise self.fail(f"number too large after simplification (at most {MAX_MAGNITUDE:g})", at)
        return e


def _keyword_placeholders(s: str, declared: set[str]) -> tuple[str, dict[str, str], list[tuple[int, int, int, int]]]:
    """Replace declared names that are Python keywords (``lambda``) by identifiers the parser accepts.

    Returns the new text, placeholder -> declared name, and ``(new_start, old_start, old_length,
    new_length)`` of
    every replacement (to map offsets back). A placeholder contains ``__``, which no declared name
    does, and does not occur in the text.
    """
    kws = {w for w in declared if keyword.iskeyword(w)}
    if not kws:
        return s, {}, []
    out: list[str] = []
    subs: list[tuple[int, int, int, int]] = []
    names: dict[str, str] = {}
    pos = 0
    length = 0
    for m in re.finditer(r"\w+", s):
        w = m.group()
        if w not in kws:
            continue
        ph = names.get(w)
        if ph is None:
            k = 0
            while f"{w}__{k}" in s:
                k += 1
            ph = f"{w}__{k}"
            names[w] = ph
        chunk = s[pos : m.start()]
        out.append(chunk)
        length += len(chunk)
        subs.append((length, m.start(), len(w), len(ph)))
        out.append(ph)
        length += len(ph)
        pos = m.end()
    out.append(s[pos:])
    return "".join(out), {ph: w for w, ph in names.items()}, subs


def _parse(
    text: object,
    symbols: Mapping[str, sp.Expr],
    funcs: Mapping[str, tuple[Any, int]],
    *,
    source: str,
    key: str,
    where: Callable[[int | None], tuple[int, int] | None] | None = None,
    budget: list[int] | None = None,
) -> sp.Expr:
    """Parse one expression; ``where`` maps an offset in ``text`` to a (line, column) for messages."""
    if where is None:

        def where(off: int | None) -> tuple[int, int] | None:
            return _line_col(text, off) if isinstance(text, str) and off is not None else None

    p = _Parser(symbols, funcs, source, key, where, budget if budget is not None else [MAX_FILE_NODES])
    if isinstance(text, bool):
        raise p.fail(f"{text!r} is not an expression", 0)
    if isinstance(text, int | float):
        return p.constant(text, None).expr
    if not isinstance(text, str):
        raise p.fail(f"expected an expression (a string or a number), got {type(text).__name__}", 0)
    if len(text) > MAX_TEXT:
        raise p.fail(f"expression longer than {MAX_TEXT} characters", 0)
    # one line of the same length (newlines are spaces), without leading blanks
    s = text.translate(_ASCII_SPACE)
    lead = len(s) - len(s.lstrip(" "))
    s = s[lead:]
    if not s.strip():
        raise p.fail("empty expression", 0)
    hash_at = s.find("#")
    if hash_at >= 0:
        raise p.fail("'#' is not allowed in expressions (no comments inside an expression)", lead + hash_at)
    s2, p.placeholders, subs = _keyword_placeholders(s, set(symbols) | set(funcs))
    raw = s2.encode("utf-8", "surrogatepass")

    def back(off2: int) -> int:
        """Offset in ``s2`` -> offset in ``text``."""
        shift = 0
        for new_start, old_start, old_len, new_len in subs:
            if off2 < new_start:
                break
            if off2 < new_start + new_len:
                return lead + old_start
            shift = (new_start + new_len) - (old_start + old_len)
        return lead + off2 - shift

    def offset(node: ast.AST) -> int | None:
        col = getattr(node, "col_offset", None)
        if col is None:
            return None
        if isinstance(node, ast.Attribute) and getattr(node, "end_col_offset", None) is not None:
            col = max(0, node.end_col_offset - len(node.attr.encode("utf-8", "surrogatepass")))  # type: ignore[operator]
        return back(len(raw[:col].decode("utf-8", "ignore")))

    p.offset = offset
    try:
        with warnings.catch_warnings():  # "invalid decimal literal" and the like: the text is refused anyway
            warnings.simplefilter("ignore")
            tree = ast.parse(s2, mode="eval")
    except SyntaxError as exc:
        off = (exc.offset - 1) if exc.offset and exc.lineno == 1 else 0
        raise p.fail(f"syntax error: {exc.msg}", back(max(0, min(off, len(s2))))) from None
    except (RecursionError, MemoryError, ValueError) as exc:
        raise p.fail(f"expression cannot be parsed ({type(exc).__name__}); too deeply nested?", 0) from None
    size = 0
    for node in ast.walk(tree):  # iterative; first report any dunder name anywhere in the text
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
        if "__" in name and name not in p.placeholders:
            raise p.fail(f"{name!r} is a dunder name; dunder names are never allowed", node)
        size += isinstance(node, ast.expr)
    if size > MAX_NODES:  # refused before sympy builds anything
        raise p.fail(f"expression too large ({size} syntax nodes, at most {MAX_NODES})", 0)
    if size > p.budget[0]:
        raise p.fail(f"the expressions of this file are too large (more than {MAX_FILE_NODES} nodes)", 0)
    try:
        return p.finish(p.walk(tree.body, 0).expr, tree.body)
    except RecursionError:
        raise p.fail("expression nested too deeply", 0) from None


def _did_you_mean(name: str, known: Any) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``known`` (:func:`difflib.get_close_matches`), or ``""``."""
    close = difflib.get_close_matches(name, sorted({str(k) for k in known}), n=2, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""


def _normalized_functions(
    functions: Mapping[str, Any] | None, source: str = "<string>", key: str = "functions"
) -> dict[str, tuple[Any, int]]:
    """Declared functions as name -> (sympy function class, arity); a malformed entry is a SystemFileError."""
    if functions is not None and not isinstance(functions, Mapping):
        raise _error(source, key, f"functions must be a mapping name -> arity, got {type(functions).__name__}")
    funcs: dict[str, tuple[Any, int]] = {}
    for name, spec in (functions or {}).items():
        if not isinstance(name, str) or not name.isidentifier() or "__" in name:
            raise _error(source, key, f"functions: {name!r} is not a valid function name")
        if isinstance(spec, int) and not isinstance(spec, bool) and 0 < spec <= 8:
            funcs[normalize_name(name)] = (sp.Function(name), spec)
            continue
        ok = (
            isinstance(spec, tuple | list)
            and len(spec) == 2
            and isinstance(spec[0], sp.FunctionClass)
            and isinstance(spec[1], int)
            and not isinstance(spec[1], bool)
            and 0 < spec[1] <= 8
        )
        if not ok:
            raise _error(
                source,
                key,
                f"functions[{name!r}]: {spec!r:.60} must be an arity (an integer 1..8) or a pair (sympy function, "
                "arity)",
            )
        funcs[normalize_name(name)] = (spec[0], spec[1])
    return funcs


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
        Name -> sympy object for every name the expression may use. Names are
        NFKC-normalised, as Python normalises the identifiers of the text.
    functions : mapping, optional
        Declared functions: name -> ``(callable, arity)``, or name -> arity
        (an undefined sympy function of that name is then used).
    source, key : str
        Where the text comes from, for error messages.

    Returns
    -------
    sympy.Expr

    Raises
    ------
    SystemFileError
        Naming ``source`` and ``key`` and the reason: a forbidden construct
        (attribute access, subscripts, dunder names, lambda, comprehensions,
        calls of non-whitelisted names, keywords, starred arguments, strings,
        comments), an unknown name, a division by zero, a non-finite value, or
        a bound exceeded (length, nodes, depth, exponent, effective degree,
        exact-number size, magnitude, argument of ``exp``). The reason starts
        with ``line L, column C:``, the place in ``text``; the error's
        attributes ``line`` and ``column`` hold it too.

    Examples
    --------
    >>> import sympy as sp
    >>> q1 = sp.Symbol("q1")
    >>> parse_expression("-Delta3(q1)*2", {"q1": q1}, {"Delta3": 1}) == -2 * sp.Function("Delta3")(q1)
    True
    >>> parse_expression("q1.real", {"q1": q1})
    Traceback (most recent call last):
    ...
    frames.errors.SystemFileError: <string>: expression: line 1, column 4: attribute access not allowed in expressions; use numbers, declared names, + - * / ** and functions
    >>> parse_expression("(((q1**10)**10)**10)", {"q1": q1})
    Traceback (most recent call last):
    ...
    frames.errors.SystemFileError: <string>: expression: line 1, column 2: effective polynomial degree 1000 too large (at most 100; nested powers and products multiply degrees)
    """
    if not isinstance(symbols, Mapping):
        raise _error(source, key, f"symbols must be a mapping name -> symbol, got {type(symbols).__name__}")
    syms = {normalize_name(str(k)): v for k, v in symbols.items()}
    return _parse(text, syms, _normalized_functions(functions, source, key), source=source, key=key)
