"""Generators of random system files, valid and hostile, and the classification of how the reader handles them.

Shared by ``tests/app/test_sysfile_fuzz.py`` (hypothesis drives the generators through ``st.randoms()``) and the
stand-alone fuzzer ``benchmarks/fuzz_sysfile.py`` (a seeded ``random.Random``, :func:`summary`).

Each case is a TOML text (or raw bytes, read through ``frames.load_model``), made from a random
source of choices (:class:`Source`: a ``random.Random``, or hypothesis's). Kinds:

* ``valid`` — a random small system: 2–4 coordinates, optional time, parameters with tricky names
  (``E I pi N S beta gamma lambda µ …``), a polynomial/trigonometric Lagrangian with rational and
  float coefficients, one linear constraint, an explicit frame or none, declared functions,
  auxiliary functions, initial data;
* ``payload`` — a valid file whose expression is replaced by a hostile one (code that would touch the
  sentinel file, attribute access, lambda, comprehensions, huge exponents and degrees, deep nesting,
  huge numbers in transcendental functions, odd unicode): must be refused;
* ``extreme`` — a valid file whose Lagrangian holds a legal expression at the edge of the bounds
  (``x**100``, ``1e300*x``, ``exp(690.0)``, ``tan(1e300)``): must load and round-trip exactly;
* ``soup`` — an expression of the file replaced by a random valid-syntax expression over tricky
  numbers (``0.0``, ``5e-324``, ``1e308``, ``10**50``), the names and every whitelisted function;
* ``nonfinite`` — a parameter or initial value ``inf``/``nan``/``1e400``/a huge integer: must be refused;
* ``names`` — declared names replaced by NFKC variants or colliding names;
* ``splice`` — a valid text cut and spliced with TOML and Python tokens;
* ``toml`` — random TOML of random types under the known keys;
* ``deep`` — deeply nested TOML arrays or inline tables;
* ``bytes`` — random bytes (often not UTF-8) written to a file and read with ``load_model``.

Outcomes of a case (:func:`run_case`):

* ``ok`` — loaded, and ``loads_model(dumps_model(model)) == model``;
* ``clean`` — refused with a :class:`frames.SystemFileError`;
* ``raw`` — any other exception, or a SystemFileError of the reader's safety net ("internal error");
* ``hang`` — took longer than the limit (10 s);
* ``accepted`` — silent acceptance of an invalid file: a case that must be refused loaded, or a
  loaded model holds a non-finite number;
* ``executed`` — the sentinel file appeared (code ran);
* ``corrupted`` — the round trip ``dumps_model`` -> ``loads_model`` failed or changed the model.
"""

from __future__ import annotations

import math
import os
import random
import signal
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sympy as sp

import frames as fr

SENTINEL = os.path.join(tempfile.mkdtemp(prefix="frames-fuzz-"), "pwned")
LIMIT = 10.0  #: seconds per case: a hang, not a slow case (sympy alone takes 4 s to build tanh(sinh(u**-100)))

COORDS = ["x", "y", "z", "q1", "q2", "q3", "theta", "phi", "r", "s", "ψ", "ξ"]
PARAMS = ["E", "I", "pi", "N", "S", "beta", "gamma", "lambda", "oo", "nan", "zoo", "Q", "O", "exp", "sin"]
PARAMS += ["m", "k", "g", "a", "b", "c1", "ℓ", "µ", "Ω", "ｍ2", "ﬁ", "None", "True", "def", "Symbol", "Float"]
FUNCS = ["F", "G", "V", "Delta", "f1"]
_NAMES = ["sys", 'a "quoted" name', "ünïcode", "tab\there", "x" * 30]
_CITATIONS = ["", "Bloch (2003)", "line\nbreak", "del\x7f"]
_NOTES = ["note", "\\ backslash", "\U0001f600 emoji"]
_UNICODE_JUNK = ["ｍ", "ℓ", "µ", "μ", "Å", "Å", "ﬁ", "ⅸ", "𝑥", "x\u0301", "\u200bx", "٣", "x²", "½"]

PAYLOADS = [
    "__import__('os').system('touch {s}')",
    "__import__('pathlib').Path('{s}').touch()",
    "open('{s}', 'w')",
    "exec(\"open('{s}', 'w')\")",
    "eval(\"__import__('os').system('touch {s}')\")",
    "().__class__.__bases__[0].__subclasses__()",
    "x.__class__.__init__.__globals__",
    "(lambda: __import__('os').system('touch {s}'))()",
    "[open('{s}', 'w') for _ in 'a']",
    "{{c: open('{s}', 'w') for c in 'a'}}",
    "(f := open('{s}', 'w'))",
    "getattr(x, '__class__')",
    "x.real",
    "x[0]",
    "sin(x=1)",
    "sin(*[x])",
    "f'{{x}}'",
    "2**10**10",
    "x**1000",
    "x**(1/1000)",
    "(((x**100)**100)**100)**100",
    "((x**10)**10)**2",
    "x**60*x**60",
    "(x*x*x*x*x*x*x*x*x*x)**11",
    "9" * 5000,
    "10**300*10**300",
    "1e308*1e308",
    "0.0**-1",
    "0.0/0.0",
    "1/(x-x)",
    "log(0)",
    "exp(exp(exp(1e5)))",
    "sin(exp(1e7))",
    "cosh(1e5)",
    "sinh(-800)",
    "exp(710.0)*x",
    "1e-320*x",
    "1e-200*1e-200*x",
    "x*1e300*1e300",
    "(" * 300 + "x" + ")" * 300,
    "sin(" * 80 + "x" + ")" * 80,
    "-" * 5000 + "x",
    "+".join(["x"] * 6000),
    "x # comment",
    "x if y else 1",
    "x < y",
    "not x",
    "~x",
    "x // 2",
    "x % 2",
    "x @ x",
    "1j*x",
    "'abc'",
    "b'abc'",
    "import os",
    "x;y",
    "\\",
    "\x00x",
    "x\u2028+y",
    "\u00a0x",
    "__builtins__",
    "globals()",
    "Symbol('z')",
    "sympify('x')",
    "zz",
    "",
    "   ",
]

#: legal expressions at the edges of the bounds (``X`` is a coordinate): they must load and round-trip exactly
EXTREMES = [
    "tan(1e300)*X",
    "exp(690.0)*X",
    "sinh(-690)*X",
    "1e300*X",
    "1e-300*X",
    "X**100",
    "X**(1/100)",
    "(X**10)**10",
    "X**-100",
    "0.30000000000000004*X + 1/3",
    "2**100*X",
    "(1/3)**100*X",
    "exp(1)*X + pi",
    "E*X",
    "sin(" * 20 + "X" + ")" * 20,
    "+".join(["X"] * 400),
    "-(-(-(-X)))",
    "X**0.5 + X**2.5",
    "ｓｉｎ(X)**2",
]

_TOKENS = ['"', "'", "[", "]", "{", "}", "=", ",", "\n", "#", ".", "\\", '"""', "'''", "x", "1", "-", "inf", "nan"]
_TOKENS += [
    "__import__",
    "lambda",
    "**99",
    "(",
    ")",
    "true",
    "1979-05-27",
    "0x10",
    "+",
    "ｍ",
    "[[structure_constants]]",
]


class Source:
    """The random choices of a generator (a ``random.Random``, or hypothesis's ``st.randoms()``)."""

    def __init__(self, rnd: random.Random) -> None:
        self.r = rnd

    def int(self, a: int, b: int) -> int:
        return self.r.randint(a, b)

    def pick(self, seq: Any) -> Any:
        return seq[self.r.randint(0, len(seq) - 1)]

    def chance(self, p: float) -> bool:
        return self.r.random() < p

    def sample(self, seq: list[Any], k: int) -> list[Any]:
        pool = list(seq)
        out = []
        for _ in range(min(k, len(pool))):
            out.append(pool.pop(self.r.randint(0, len(pool) - 1)))
        return out


# ----------------------------------------------------------------- TOML text
def toml_str(x: str) -> str:
    """A TOML basic string."""
    out = ['"']
    for ch in x:
        o = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\u{o:04x}")
        else:
            out.append(ch)
    return "".join(out) + '"'


def toml_key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() and k.isascii() else toml_str(k)


def _float(src: Source) -> str:
    r = src.int(0, 5)
    if r == 0:
        return src.pick(["0.1", "0.2", "0.30000000000000004", "1e-07", "123456.789", "2.5", "1.0", "-0.5", "9.81"])
    if r == 1:
        return repr(src.r.uniform(-10, 10))
    if r == 2:
        return repr(src.r.uniform(0, 1) * 10.0 ** src.int(-5, 5))
    return repr(float(src.int(-9, 9)) / src.int(1, 7))


def _coeff(src: Source, params: list[str]) -> str:
    r = src.int(0, 6)
    if r == 0:
        return f"{src.int(1, 9)}/{src.int(2, 9)}"
    if r == 1:
        return _float(src)
    if r == 2 and params:
        return src.pick(params)
    if r == 3:
        return str(src.int(-5, 5) or 1)
    if r == 4 and params:
        return f"{src.pick(params)}*{src.int(1, 5)}/{src.int(2, 7)}"
    return str(src.int(1, 3))


def _function_of(src: Source, q: list[str], params: list[str], funcs: dict[str, list[str]], depth: int = 0) -> str:
    """A random expression in the coordinates (polynomial and trigonometric, small)."""
    qi = src.pick(q)
    r = src.int(0, 9 if depth < 2 else 4)
    if r == 0:
        return _coeff(src, params)
    if r == 1:
        return f"{qi}**{src.int(1, 4)}"
    if r == 2:
        return f"{src.pick(['sin', 'cos'])}({qi})"
    if r == 3:
        return f"{_coeff(src, params)}*{qi}"
    if r == 4:
        return qi
    if r == 5:
        return f"({_function_of(src, q, params, funcs, depth + 1)})*({_function_of(src, q, params, funcs, depth + 1)})"
    if r == 6:
        return f"{_function_of(src, q, params, funcs, depth + 1)} + {_function_of(src, q, params, funcs, depth + 1)}"
    if r == 7:
        return f"{src.pick(['exp', 'sqrt', 'cosh', 'atan', 'tanh'])}({_coeff(src, params)}*{qi})"
    if r == 8 and funcs:
        name = src.pick(sorted(funcs))
        return f"{name}({', '.join(funcs[name])})"
    if r == 9:
        return f"({qi} - {_coeff(src, params)})**{src.int(2, 3)}/{src.int(2, 5)}"
    return qi


def _velocity(name: str) -> str:
    import re

    m = re.fullmatch(r"q_?(\d+)", name)
    return f"u{m.group(1)}" if m else f"u_{name}"


@dataclass
class Case:
    kind: str
    text: str | bytes
    must_fail: bool = False


def valid_file(src: Source) -> tuple[str, dict[str, Any]]:
    """A random valid system file, and the pieces used to write it (for the mutations)."""
    import unicodedata

    n = src.int(2, 4)
    q = src.sample(COORDS, n)
    u = [_velocity(unicodedata.normalize("NFKC", s)) for s in q]
    taken = {unicodedata.normalize("NFKC", s) for s in q + u}
    time_name = "t" if src.chance(0.3) else None
    if time_name:
        taken.add("t")
    params: list[str] = []
    for p in src.sample(PARAMS, src.int(0, 5)):
        norm = unicodedata.normalize("NFKC", p)
        if norm not in taken:
            taken.add(norm)
            params.append(p)
    funcs: dict[str, list[str]] = {}
    if src.chance(0.3):
        fname = src.pick(FUNCS)
        if fname not in taken:
            args = [src.pick(q)] + ([time_name] if time_name and src.chance(0.5) else [])
            funcs[fname] = args
            taken.add(fname)
    pnames = [unicodedata.normalize("NFKC", p) if src.chance(0.5) else p for p in params]  # as used in expressions
    kinetic = " + ".join(f"{_coeff(src, pnames)}*{ui}**2" for ui in u)
    potential = _function_of(src, q, pnames, funcs)
    if time_name and src.chance(0.5):
        potential += f" + {_coeff(src, pnames)}*{time_name}*{src.pick(q)}"
    lagrangian = f"{kinetic} + ({potential})" if src.chance(0.8) else kinetic
    c = _function_of(src, q, pnames, funcs)
    constraint = f"{u[-1]} - ({c})*{u[0]}"
    lines = []
    if src.chance(0.7):
        lines.append(f"name = {toml_str(src.pick(_NAMES))}")
    if src.chance(0.3):
        lines.append(f"citation = {toml_str(src.pick(_CITATIONS))}")
    if src.chance(0.2):
        lines.append(f"notes = {toml_str(src.pick(_NOTES))}")
    lines.append("coordinates = [" + ", ".join(toml_str(s) for s in q) + "]")
    if src.chance(0.5):
        lines.append("velocities = [" + ", ".join(toml_str(s) for s in u) + "]")
    if time_name:
        lines.append(f"time = {toml_str(time_name)}")
    if src.chance(0.3):
        lines.append(f'lagrangian = """\n  {kinetic}\n  + ({potential})\n"""')
    else:
        lines.append(f"lagrangian = {toml_str(lagrangian)}")
    lines.append(f"constraints = [{toml_str(constraint)}]")
    frame_kind = src.int(0, 2)
    if frame_kind == 0:
        rows = []
        for i in range(n):
            row = ["0"] * n
            row[i] = "1"
            if i == 0:
                row[-1] = c
            rows.append("  [" + ", ".join(toml_str(v) for v in row) + "],")
        lines += ["frame = [", *rows, "]"]
    elif frame_kind == 1:
        row = ["0"] * n
        row[-1] = "1"
        lines.append("complement = [[" + ", ".join(toml_str(v) for v in row) + "]]")
    if src.chance(0.3):
        aux = [u[0]] + [u[i] for i in range(1, n - 1)]
        lines.append("auxiliary = [" + ", ".join(toml_str(a) for a in aux) + "]")
    if params:
        lines += ["", "[parameters]"]
        for p in params:
            r = src.int(0, 3)
            if r == 0:
                lines.append(f"{toml_key(p)} = {_float(src)}")
            elif r == 1:
                lines.append(f"{toml_key(p)} = {toml_str(src.pick(['kg', 'm', 'kg m^2', 's^-1']))}")
            elif r == 2:
                lines.append(f"{toml_key(p)} = {{ unit = {toml_str('kg')}, value = {_float(src)}, description = 'd' }}")
            else:
                lines.append(f"{toml_key(p)} = {{}}")
    if funcs:
        lines += ["", "[functions]"]
        lines += [f"{toml_key(k)} = [" + ", ".join(toml_str(a) for a in v) + "]" for k, v in funcs.items()]
    if src.chance(0.5):
        lines += ["", "[initial.q]"]
        lines += [f"{toml_key(s)} = {_float(src)}" for s in q if src.chance(0.7)]
    if src.chance(0.5):
        lines += ["", "[initial.u]"]
        lines += [f"{toml_key(s)} = {_float(src) if 0 < i < n - 1 else '0.0'}" for i, s in enumerate(u)]
    text = "\n".join(lines) + "\n"
    return text, {"q": q, "u": u, "params": params, "lagrangian": lagrangian, "constraint": constraint, "c": c}


def _replace_expression(src: Source, text: str, parts: dict[str, Any], new: str) -> str:
    """Replace one expression string of a valid file (the constraint when the chosen one is not there)."""
    old = toml_str(parts[src.pick(["lagrangian", "constraint", "c"])])
    if old not in text:
        old = toml_str(parts["constraint"])
    return text.replace(old, toml_str(new), 1)


_ATOMS = ["0", "0.0", "-0.0", "1", "2", "1/2", "0.5", "1e308", "1e-308", "5e-324", "1e300", "1e-300", "690.0"]
_ATOMS += ["10**50", "2**100", "pi", "E", "3.141592653589793", "0.1", "-1", "99999999999999999999", "1e16"]
_FUNCS1 = ["sin", "cos", "tan", "exp", "log", "sqrt", "asin", "acos", "atan", "sinh", "cosh", "tanh"]


def random_expression(src: Source, names: list[str], depth: int = 0) -> str:
    """A random, syntactically valid expression over tricky numbers, the names and every function."""
    r = src.int(0, 3 if depth >= 4 else 9)
    if r in (0, 1):
        return src.pick(_ATOMS)
    if r in (2, 3):
        return src.pick(names)
    if r in (4, 5):
        op = src.pick(["+", "-", "*", "/", "**"])
        return f"({random_expression(src, names, depth + 1)}){op}({random_expression(src, names, depth + 1)})"
    if r == 6:
        return f"-({random_expression(src, names, depth + 1)})"
    if r == 7:
        return f"({random_expression(src, names, depth + 1)})**{src.pick(['2', '-1', '1/3', '-1/2', '0.5', '100', '-100', '0'])}"
    return f"{src.pick(_FUNCS1)}({random_expression(src, names, depth + 1)})"


def hostile_expression(src: Source, parts: dict[str, Any]) -> str:
    base = src.pick(PAYLOADS).format(s=SENTINEL)
    r = src.int(0, 3)
    var = src.pick(parts["q"])
    base = base.replace("x", var) if r == 0 and "__" not in base else base
    if r == 1:
        return f"{src.pick(parts['u'])}**2 + {base}"
    if r == 2:
        return f"sin({base})"
    return base


def generate(src: Source) -> Case:
    """One random case (see the module docstring for the kinds)."""
    kind = src.pick(
        ["valid"] * 5
        + ["payload"] * 4
        + ["extreme", "soup", "soup", "nonfinite", "names", "splice", "splice", "toml", "deep"]
    )
    kind = kind if src.int(0, 30) else "bytes"
    text, parts = valid_file(src)
    if kind == "valid":
        return Case("valid", text)
    if kind == "payload":
        hostile = hostile_expression(src, parts)
        new = _replace_expression(src, text, parts, hostile)
        return Case("payload", new, must_fail=new != text)
    if kind == "extreme":
        var = src.pick(parts["q"])
        new = f"{src.pick(parts['u'])}**2 + {src.pick(EXTREMES).replace('X', var)}"
        return Case("extreme", text.replace(toml_str(parts["lagrangian"]), toml_str(new), 1))
    if kind == "soup":
        names = parts["q"] + parts["params"] + parts["u"]
        new = f"{parts['u'][0]}**2 + {random_expression(src, names)}"
        return Case("soup", _replace_expression(src, text, parts, new))
    if kind == "nonfinite":
        bad = src.pick(["inf", "-inf", "nan", "1e400", "9" * 400, "0x7fffffffffffffff" + "0" * 0])
        where = src.int(0, 1)
        if where == 0:
            extra = f"\n[parameters.zzz_bad]\nvalue = {bad}\n" if "[parameters]" not in text else ""
            new = text.replace("[parameters]\n", f"[parameters]\nzzz_bad = {bad}\n", 1) if not extra else text + extra
        else:
            new = text.replace("[initial.u]\n", f"[initial.u]\n{toml_key(parts['u'][0])} = {bad}\n", 1)
            new = new if new != text else text + f"\n[initial.q]\n{toml_key(parts['q'][0])} = {bad}\n"
        must = bad not in ("0x7fffffffffffffff",)
        return Case("nonfinite", new, must_fail=must)
    if kind == "names":
        junk = src.pick(_UNICODE_JUNK)
        r = src.int(0, 3)
        if r == 0:  # a colliding parameter (NFKC) or a duplicate
            q0 = parts["q"][0]
            return Case("names", text + f"\n[parameters.{toml_key(src.pick([q0, junk]))}]\n", must_fail=False)
        if r == 1:
            return Case("names", text.replace(toml_str(parts["q"][0]), toml_str(junk), 1))
        if r == 2:
            return Case("names", text.replace('coordinates = ["', f'coordinates = ["{junk}", "', 1))
        return Case("names", _replace_expression(src, text, parts, f"{junk} + {parts['lagrangian']}"))
    if kind == "splice":
        out = text
        for _ in range(src.int(1, 4)):
            pos = src.int(0, len(out))
            cut = src.int(0, 12)
            out = out[:pos] + src.pick(_TOKENS) + out[pos + cut :]
        return Case("splice", out)
    if kind == "toml":
        return Case("toml", random_toml(src))
    if kind == "deep":
        d = src.int(20, 3000)
        r = src.int(0, 2)
        if r == 0:
            return Case("deep", "a = " + "[" * d + "]" * d, must_fail=True)
        if r == 1:
            return Case("deep", "lagrangian = " + "{a=" * d + "1" + "}" * d, must_fail=True)
        return Case("deep", text.replace("constraints = [", "constraints = [" + "[" * d + "]" * d + ",", 1), True)
    # bytes: random, or a valid file with bytes damaged
    raw = text.encode()
    if src.chance(0.5):
        raw = bytes(src.int(0, 255) for _ in range(src.int(0, 200)))
    else:
        for _ in range(src.int(1, 4)):
            pos = src.int(0, len(raw))
            raw = raw[:pos] + bytes([src.pick([0x80, 0xFF, 0xC3, 0xE2, 0x00, 0xFE])]) + raw[pos:]
    return Case("bytes", raw)


def random_toml(src: Source) -> str:
    keys = ["name", "coordinates", "velocities", "time", "parameters", "functions", "lagrangian", "constraints"]
    keys += ["frame", "complement", "m", "group", "structure_constants", "auxiliary", "initial", "citation", "zzz"]

    def value(depth: int) -> str:
        r = src.int(0, 11 if depth < 3 else 7)
        if r == 0:
            return str(src.int(-(2**70), 2**70))
        if r == 1:
            return src.pick(["inf", "nan", "-inf", "1e400", "0.0", "-0.0", "1.5", "1e-320"])
        if r == 2:
            return src.pick(["true", "false"])
        if r == 3:
            return src.pick(["1979-05-27", "1979-05-27T07:32:00Z", "07:32:00"])
        if r in (4, 5, 6, 7):
            return toml_str(src.pick(["x", "u_x", "x**2", "", "__import__('os')", "ｍ", "q1", "1/0", "sin(x)"]))
        if r in (8, 9):
            return "[" + ", ".join(value(depth + 1) for _ in range(src.int(0, 3))) + "]"
        inner = [*keys, "a", "b", "c", "value", "unit", "q", "u"]
        return "{" + ", ".join(f"{src.pick(inner)} = {value(depth + 1)}" for _ in range(src.int(0, 2))) + "}"

    lines = []
    for k in src.sample(keys, src.int(1, 8)):
        lines.append(f"{k} = {value(0)}")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------- running a case
def _nonfinite(model: Any) -> bool:
    exprs: list[Any] = [model.lagrangian.expr, *model.frame.matrix, *model.constraints.matrix, *model.auxiliary]
    if any(sp.sympify(e, strict=True).has(sp.nan, sp.zoo, sp.oo, -sp.oo) for e in exprs):
        return True
    vals = [*model.param_values.values(), *model.q0.values(), *model.u0.values()]
    return not all(math.isfinite(float(v)) for v in vals)


@dataclass
class Outcome:
    kind: str  # ok, clean, raw, hang, accepted, executed, corrupted
    detail: str
    seconds: float


def run_case(case: Case, tmpdir: str | os.PathLike[str], limit: float = LIMIT) -> Outcome:
    """Read one case, then (if it loaded) write it and read it back; classify the outcome.

    A case slower than ``limit`` seconds is a ``hang``: the benchmark's classification. The test suite passes
    ``math.inf`` (no wall-clock threshold in a test: a loaded machine is slow, not wrong; pytest-timeout catches
    a real hang).
    """
    t0 = time.perf_counter()
    model = None
    detail = ""
    try:
        if isinstance(case.text, bytes):
            path = Path(tmpdir) / "case.toml"
            path.write_bytes(case.text)
            model = fr.load_model(path)
        else:
            model = fr.loads_model(case.text, "case.toml")
        kind = "ok"
    except fr.errors.SystemFileError as exc:
        kind, detail = ("raw", str(exc)) if "internal error" in exc.reason else ("clean", str(exc))
    except Exception as exc:
        kind, detail = "raw", f"{type(exc).__name__}: {exc}"
    if kind == "ok" and model is not None:
        if case.must_fail or _nonfinite(model):
            kind, detail = "accepted", "an invalid file was accepted"
        else:
            try:
                back = fr.loads_model(fr.dumps_model(model), "back.toml")
                if back != model:
                    kind, detail = "corrupted", "the round trip changed the model"
            except Exception as exc:
                kind, detail = "corrupted", f"round trip failed: {type(exc).__name__}: {exc}"
    seconds = time.perf_counter() - t0
    if os.path.exists(SENTINEL):
        os.remove(SENTINEL)
        kind, detail = "executed", "the sentinel file appeared"
    elif seconds > limit and kind in ("ok", "clean"):
        kind, detail = "hang", f"took {seconds:.2f} s"
    return Outcome(kind, detail[:300], seconds)


class _Alarm(BaseException):
    """The fuzzer's own watchdog (a BaseException: the reader's safety net must not catch it)."""


def summary(n: int = 4000, seed: int = 0, show: int = 5, *, limit: float = LIMIT, watchdog: bool = True) -> int:
    """Run ``n`` random cases from ``seed``; print the count of each outcome and examples of the bad ones.

    Returns 0 if every case loaded or was refused cleanly, 1 otherwise (the exit status of the benchmark).
    ``limit``: the seconds past which a case is a ``hang`` (see :func:`run_case`). ``watchdog``: stop a case after
    20 s with a SIGALRM (the stand-alone benchmark; the test suite runs without it, so that no exception is raised
    from a signal handler inside pytest).
    """
    rnd = random.Random(seed)
    counts: Counter[str] = Counter()
    by_kind: Counter[tuple[str, str]] = Counter()
    examples: dict[str, list[str]] = {}
    slowest = 0.0
    have_alarm = watchdog and hasattr(signal, "setitimer")

    def on_alarm(signum: int, frame: Any) -> None:
        raise _Alarm

    # a watchdog of 20 s per case; a timer already armed (pytest-timeout) is re-armed afterwards
    old_handler = signal.getsignal(signal.SIGALRM) if have_alarm else None
    old_delay, old_interval = signal.getitimer(signal.ITIMER_REAL) if have_alarm else (0.0, 0.0)
    if have_alarm:
        signal.signal(signal.SIGALRM, on_alarm)
    t0 = time.perf_counter()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for _ in range(n):
                case = generate(Source(rnd))
                if have_alarm:
                    signal.setitimer(signal.ITIMER_REAL, 20.0)
                try:
                    out = run_case(case, tmp, limit)
                except _Alarm:
                    out = Outcome("hang", "no answer within 20 s", 20.0)
                finally:
                    if have_alarm:
                        signal.setitimer(signal.ITIMER_REAL, 0)
                counts["tried"] += 1
                counts[out.kind] += 1
                by_kind[(case.kind, out.kind)] += 1
                slowest = max(slowest, out.seconds)
                if out.kind not in ("ok", "clean"):
                    examples.setdefault(out.kind, []).append(f"[{case.kind}] {case.text!r:.300} -> {out.detail}")
    finally:
        if have_alarm:
            signal.signal(signal.SIGALRM, old_handler)
            if old_delay > 0:
                left = old_delay - (time.perf_counter() - t0)
                signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3), old_interval)
    wall = time.perf_counter() - t0
    rows = [
        ("tried", counts["tried"]),
        ("loaded, round trip exact", counts["ok"]),
        ("clean error (SystemFileError)", counts["clean"]),
        ("raw exception", counts["raw"]),
        (f"hang (> {limit:g} s)", counts["hang"]),
        ("silent acceptance of an invalid file", counts["accepted"]),
        ("executed (sentinel file appeared)", counts["executed"]),
        ("corrupted (round trip changed or failed)", counts["corrupted"]),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"fuzz_sysfile: n={n} seed={seed} wall={wall:.1f} s slowest case={slowest:.3f} s")
    for label, v in rows:
        print(f"  {label:<{width}}  {v:>6}")
    print("by generator kind (kind: outcome=count):")
    for kind in sorted({k for k, _ in by_kind}):
        parts = ", ".join(f"{o}={c}" for (k, o), c in sorted(by_kind.items()) if k == kind)
        print(f"  {kind:<10} {parts}")
    for kind, exs in examples.items():
        print(f"examples of {kind}:")
        for e in exs[:show]:
            print("   ", e)
    bad = sum(counts[k] for k in ("raw", "hang", "accepted", "executed", "corrupted"))
    return 1 if bad else 0
