"""The architecture is physical: layers, no cycles, no hidden imports, small modules.

The package is layered ``algebra < geometry < dynamics < natural < numeric < app`` (see
``docs/architecture.md``). This test reads every module under ``frames/`` with :mod:`ast` (nothing is
imported) and fails on

* an import of a higher layer (type-checking imports included);
* a cycle among the run-time imports of frames modules;
* a frames module imported inside a function (optional third-party imports are not affected);
* a ``TYPE_CHECKING`` import of a frames module (it would hide a cycle: there are none);
* a registry: a ``global`` statement, or a module-level call of a ``register*`` function, by which a lower
  layer would be handed an object of a higher one at import time;
* an import of another layer's private module (``from ..geometry._frame import Frame``): other layers are
  reached through each package's ``__init__`` (the user vocabulary) or its ``internal`` module;
* a name of a door's ``__all__`` (``frames`` and each layer package) missing from ``docs/api.md``;
* a module without a docstring stating its one concern (modules are split by concern, not by length).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "frames"

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
        self.globals: list[int] = []
        self.registrations: list[tuple[int, str]] = []
        self.imported: set[str] = set()
        self._depth = 0
        self._type_checking = 0

    def _imp(self, node: ast.Import | ast.ImportFrom) -> None:
        self.imported |= {(a.asname or a.name).split(".")[0] for a in node.names}
        for t in _resolve(self.module, node):
            if self._depth:
                self.in_function.append((node.lineno, t))
            (self.typing if self._type_checking else self.runtime).add(t)

    def visit_Global(self, node: ast.Global) -> None:
        self.globals.append(node.lineno)

    def visit_Assign(self, node: ast.Assign) -> None:
        # ``Model._hook = function`` at import time: a module installing itself into an imported class or module
        for t in node.targets:
            if not self._depth and isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name):
                if t.value.id in self.imported:
                    self.registrations.append((node.lineno, f"assignment to {t.value.id}.{t.attr}"))
        self.generic_visit(node)

    def visit_Expr(self, node: ast.Expr) -> None:
        call = node.value
        if not self._depth and isinstance(call, ast.Call):
            f = call.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if name.startswith("register"):
                self.registrations.append((node.lineno, name))
        self.generic_visit(node)

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


def test_no_type_checking_import_of_a_frames_module():
    """``TYPE_CHECKING`` imports of frames modules are counted: there are none (one would hide a cycle)."""
    hidden = sorted(f"{name} -> {t}" for name, v in GRAPH.items() for t in v.typing)
    assert len(hidden) == 0, "\n".join(hidden)


def test_no_registry_inverts_a_dependency():
    bad = [f"{name}:{line} global statement" for name, v in GRAPH.items() for line in v.globals]
    bad += [f"{name}:{line} calls {fn} at import time" for name, v in GRAPH.items() for line, fn in v.registrations]
    assert not bad, "\n".join(sorted(bad))


def _layer(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if len(parts) >= 2 and parts[1] in LAYERS else None


def test_other_layers_are_reached_through_their_package():
    """``from ..geometry import Frame``, never ``from ..geometry._frame import Frame`` (outside geometry).

    A layer's package is its door (``frames.geometry``, the user vocabulary) and its ``internal`` module
    (``frames.geometry.internal``, what the layers above need besides).
    """
    bad = []
    for name, v in GRAPH.items():
        for t in v.runtime | v.typing:
            lt = _layer(t)
            door = t in (f"frames.{lt}", f"frames.{lt}.internal")
            if lt is not None and lt != _layer(name) and not door and _rank(name) < DOORS:
                bad.append(f"{name} imports {t}")
    assert not bad, f"{len(bad)} imports of another layer's private modules:\n" + "\n".join(sorted(bad))


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_states_its_concern(name):
    """Every module opens with a docstring whose first line says what it is about (one concern per module)."""
    doc = ast.get_docstring(ast.parse(MODULES[name].read_text(encoding="utf-8")))
    assert doc and doc.splitlines()[0].strip(), f"{MODULES[name]} has no docstring stating its concern"


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
    reg = _Visitor("frames.geometry._tangent")
    src = "from ._model import M\n_X = None\ndef install(f):\n    global _X\n    _X = f\nregister_frame_type(object)\nM._h = f\n"
    reg.visit(ast.parse(src))
    assert reg.globals == [4] and reg.registrations == [(6, "register_frame_type"), (7, "assignment to M._h")]


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


def _door_names(path: Path) -> list[str]:
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets):
            assert isinstance(node.value, (ast.List, ast.Tuple))
            return [e.value for e in node.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def _undocumented(doors: dict[str, list[str]], api: str) -> list[str]:
    return [f"{door}.{n}" for door, names in doors.items() for n in names if not re.search(rf"\b{re.escape(n)}\b", api)]


def test_every_door_name_is_in_the_api_reference():
    """Every name of ``frames.__all__`` and of each layer door's ``__all__`` appears in ``docs/api.md``:
    a door carries only the documented user vocabulary (the rest is in ``frames.<layer>.internal``)."""
    doors = {"frames": _door_names(PKG / "__init__.py")}
    doors |= {f"frames.{layer}": _door_names(PKG / layer / "__init__.py") for layer in LAYERS}
    assert all(doors.values())
    api = (PKG.parent / "docs" / "api.md").read_text(encoding="utf-8")
    missing = _undocumented(doors, api)
    assert not missing, f"{len(missing)} door names missing from docs/api.md: {missing}"
    assert _undocumented({"frames.x": ["not_a_documented_name"]}, api) == ["frames.x.not_a_documented_name"]
