"""No string from a user reaches sympy's parser: a static check of every module under ``frames/``.

``sympify`` (non-strict), ``S(x)`` and ``parse_expr`` evaluate strings as Python. The one door
from a user's value to sympy is :func:`frames.algebra.as_expr` (``frames/algebra/_coerce.py``).
Elsewhere a call is allowed only on a literal constant, or as ``sympify(x, strict=True)`` (which
refuses strings). ``eval``/``exec``/``compile`` and ``sympy.parsing`` are forbidden everywhere.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import sympy as sp

import frames as fr
from frames.algebra.internal import as_expr

PKG = Path(fr.__file__).resolve().parent
DOOR = PKG / "algebra" / "_coerce.py"
MODULES = sorted(p for p in PKG.rglob("*.py"))

PARSERS = {"sympify", "parse_expr", "S"}
BUILTINS = {"eval", "exec", "compile", "__import__"}
# The numeric back end turns sympy expressions (never text) into Python with sympy's code printer, after
# renaming every symbol to ``_{group}_{i}`` and refusing undefined functions; that generated source is the one
# thing ``exec``'d. Nothing a user typed reaches it except through the safe parser and ``as_expr``.
# The numba backend regenerates the same right-hand side (an OdeSystem built by ode_system) with every
# symbol renamed ``y_i``/``p_j``/``t_``/``c_i`` before printing, and jit-compiles that source.
CODEGEN = {
    ("numeric/_compiled.py", "exec"),
    ("numeric/_compiled.py", "compile"),
    ("numeric/_numba.py", "exec"),
    ("numeric/_numba.py", "compile"),
}


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _constant(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return not isinstance(node.value, str)
    if isinstance(node, ast.UnaryOp):
        return _constant(node.operand)
    return False


def _violations(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out = []
    rel = path.relative_to(PKG.parent)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("sympy.parsing"):
            out.append(f"{rel}:{node.lineno}: imports {node.module}")
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        if name in BUILTINS and isinstance(node.func, ast.Name):
            if (path.relative_to(PKG).as_posix(), name) in CODEGEN:
                continue
            out.append(f"{rel}:{node.lineno}: calls {name}()")
        if name not in PARSERS or path == DOOR:
            continue
        if (
            name == "S"
            and isinstance(node.func, ast.Attribute)
            and not (isinstance(node.func.value, ast.Name) and node.func.value.id in {"sp", "sympy"})
        ):
            continue  # some other object's attribute S
        strict = any(
            k.arg == "strict" and isinstance(k.value, ast.Constant) and k.value.value is True for k in node.keywords
        )
        if name == "sympify" and strict:
            continue
        if node.args and all(_constant(a) for a in node.args) and name != "parse_expr":
            continue
        out.append(f"{rel}:{node.lineno}: {name}({ast.unparse(node.args[0]) if node.args else ''}) on a non-constant")
    return out


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PKG.parent)))
def test_no_module_parses_user_strings(path):
    assert _violations(path) == []


def test_the_checker_catches_what_it_must(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import sympy as sp\nfrom sympy.parsing.sympy_parser import parse_expr\n"
        "def f(x):\n    a = sp.sympify(x)\n    b = sp.S(x)\n    c = parse_expr(x)\n    return eval(x)\n"
        "ok = sp.sympify(1), sp.S(2), sp.sympify(3, strict=True), sp.S.One\n"
    )
    global PKG
    old, PKG = PKG, tmp_path.parent
    try:
        v = _violations(bad)
    finally:
        PKG = old
    assert len(v) == 5, v


def test_as_expr_refuses_strings_and_non_finite_values():
    with pytest.raises(fr.errors.InvalidExpressionError, match=r"^f: got the string"):
        as_expr("__import__('os').system('true')", name="f")
    for bad in (sp.nan, sp.zoo, sp.oo, float("nan"), sp.I, None, True, [1], sp.Eq(sp.Symbol("x"), 1)):
        with pytest.raises(fr.FramesError, match=r"^g: "):
            as_expr(bad, name="g")
    assert as_expr(sp.I, name="z", complex_ok=True) == sp.I
