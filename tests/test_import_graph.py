"""The architecture is physical: layers, no cycles, no hidden imports, small modules.

The package is layered ``algebra < geometry < dynamics < natural < numeric < app`` (see
``docs/architecture.md``). This test reads every module under ``frames/`` with :mod:`ast` (nothing is
imported) and fails on

* an import of a higher layer (type-checking imports included);
* a cycle among the run-time imports of frames modules;
* a frames module imported inside a function (optional third-party imports are not affected);
* a module longer than 800 lines.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "frames"
MAX_LINES = 800

# rank of each layer; the base modules (errors, version) sit below everything, the public
# doors (frames/__init__.py, frames/models.py, frames/strategies.py) above everything.
LAYERS = {"algebra": 1, "geometry": 2, "dynamics": 3, "natural": 4, "numeric": 5, "app": 6}
BASE = {"frames.errors": 0, "frames._version": 0, "frames._value": 0, "frames._lazy": 0}
DOORS = 7


def _modules() -> dict[str, Path]:
    out = {}
    for p in sorted(PKG.rglob("*.py")):
        parts = list(p.relative_to(PKG.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


MODULES = _modules()


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _rank(name: str) -> int:
    if name in BASE:
        return BASE[name]
    parts = name.split(".")
    if len(parts) >= 2 and parts[1] in LAYERS:
        return LAYERS[parts[1]]
    return DOORS


def _resolve(module: str, node: ast.ImportFrom | ast.Import) -> list[str]:
    """Frames modules named by an import statement in ``module``."""
    targets: list[str] = []
    if isinstance(node, ast.Import):
        for a in node.names:
            if a.name == "frames" or a.name.startswith("frames."):
                targets.append(a.name)
        return [t for t in targets if t in MODULES]
    if node.level:
        base = module.split(".") if _is_package(module) else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        stem = ".".join(base + ([node.module] if node.module else []))
    else:
        stem = node.module or ""
        if not (stem == "frames" or stem.startswith("frames.")):
            return []
    for a in node.names:
        sub = f"{stem}.{a.name}"
        targets.append(sub if sub in MODULES else stem)
    return [t for t in targets if t in MODULES]


class _Visitor(ast.NodeVisitor):
    def __init__(self, module: str) -> None:
        self.module = module
        self.runtime: set[str] = set()
        self.typing: set[str] = set()
        self.in_function: list[tuple[int, str]] = []
        self._depth = 0
        self._type_checking = 0

    def _imp(self, node: ast.Import | ast.ImportFrom) -> None:
        for t in _resolve(self.module, node):
            if self._depth:
                self.in_function.append((node.lineno, t))
            (self.typing if self._type_checking else self.runtime).add(t)

    visit_Import = _imp
    visit_ImportFrom = _imp

    def _func(self, node: ast.AST) -> None:
        self._depth += 1
        self.generic_visit(node)
        self._depth -= 1

    visit_FunctionDef = _func
    visit_AsyncFunctionDef = _func
    visit_Lambda = _func

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        is_tc = (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
            isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
        )
        if is_tc:
            self._type_checking += 1
            for n in node.body:
                self.visit(n)
            self._type_checking -= 1
            for n in node.orelse:
                self.visit(n)
        else:
            self.generic_visit(node)


def _graph() -> dict[str, _Visitor]:
    out = {}
    for name, path in MODULES.items():
        v = _Visitor(name)
        v.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        out[name] = v
    return out


GRAPH = _graph()


def test_layers_exist():
    for layer in LAYERS:
        assert f"frames.{layer}" in MODULES, f"missing layer package frames/{layer}/"


def test_no_import_of_a_higher_layer():
    bad = []
    for name, v in GRAPH.items():
        for t in v.runtime | v.typing:
            if t == "frames" and name != "frames":
                bad.append(f"{name} imports the top-level package")
            elif _rank(t) > _rank(name):
                bad.append(f"{name} (rank {_rank(name)}) imports {t} (rank {_rank(t)})")
    assert not bad, "\n".join(sorted(bad))


def test_no_import_inside_functions():
    bad = [f"{name}:{line} imports {t} inside a function" for name, v in GRAPH.items() for line, t in v.in_function]
    assert not bad, "\n".join(sorted(bad))


def _cycles() -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    edges = {
        n: {t for t in v.runtime if t != n and not (_is_package(t) and n.startswith(t + "."))} for n, v in GRAPH.items()
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(n: str) -> None:
        index[n] = low[n] = counter[0]
        counter[0] += 1
        stack.append(n)
        on.add(n)
        for t in edges[n]:
            if t not in index:
                strong(t)
                low[n] = min(low[n], low[t])
            elif t in on:
                low[n] = min(low[n], index[t])
        if low[n] == index[n]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == n:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for n in edges:
        if n not in index:
            strong(n)
    return out


def test_no_import_cycle():
    assert _cycles() == []


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_size(name):
    n = len(MODULES[name].read_text(encoding="utf-8").splitlines())
    assert n <= MAX_LINES, f"{MODULES[name]} has {n} lines (limit {MAX_LINES})"


def test_the_checks_can_fail(tmp_path):
    """The visitor sees an in-function import, an upward import and a type-checking import."""
    src = (
        "from typing import TYPE_CHECKING\n"
        "from ..app._report import Report\n"
        "if TYPE_CHECKING:\n    from ._frame import Frame\n"
        "def f():\n    from ._tangent import SecondOrderField\n"
    )
    v = _Visitor("frames.geometry._fields")
    v.visit(ast.parse(src))
    assert "frames.app._report" in v.runtime
    assert "frames.geometry._frame" in v.typing
    assert v.in_function == [(6, "frames.geometry._tangent")]
    assert _rank("frames.app._report") > _rank("frames.geometry._fields")


def test_architecture_doc_names_every_module():
    """``docs/architecture.md`` places every module of the package (the README points there)."""
    doc = (PKG.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = [name for name, path in MODULES.items() if path.name != "__init__.py" and path.stem not in doc]
    assert not missing, f"docs/architecture.md does not mention {missing}"
    readme = (PKG.parent / "README.md").read_text(encoding="utf-8")
    assert "algebra < geometry < dynamics < natural < numeric < app" in readme


def test_cold_import_loads_no_heavy_optional_module():
    """``import frames`` loads neither matplotlib, scipy.integrate, galgebra, dask, pandas, hypothesis nor
    sympy.physics (its units cost ~0.2 s; mechanics and ``vlatex`` are imported on first use)."""
    import subprocess
    import sys

    code = (
        "import sys, frames\n"
        "heavy = ('matplotlib', 'galgebra', 'dask', 'pandas', 'hypothesis', 'scipy.integrate', 'sympy.physics')\n"
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "[]", out.stdout
