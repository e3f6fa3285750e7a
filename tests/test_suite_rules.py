"""Rules of the test suite itself: no default-suite test asserts on wall-clock time.

A test that asserts ``elapsed < 1.0`` fails on a loaded machine and proves nothing on a fast one. A bound on time
belongs to ``benchmarks/``; a test checks a spent budget with the budget's clock (the ``budget_clock`` fixture of
``tests/conftest.py``) or bounds the work in checkpoints. The check is static (the AST of every test module): an
``assert`` that uses ``time.time()``, ``time.monotonic()`` or ``time.perf_counter()`` (or their ``_ns`` forms), or a
name assigned from one in the same function, is refused unless the function (or its module) is marked slow.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
CLOCKS = {"time", "monotonic", "perf_counter", "time_ns", "monotonic_ns", "perf_counter_ns"}


def _is_clock_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    if isinstance(f, ast.Attribute):
        return f.attr in CLOCKS and isinstance(f.value, ast.Name) and f.value.id == "time"
    return isinstance(f, ast.Name) and f.id in CLOCKS - {"time"}


def _marked_slow(decorators: list[ast.expr]) -> bool:
    return any("slow" in ast.unparse(d) for d in decorators)


def _uses_clock(node: ast.AST, tainted: set[str]) -> bool:
    return any(_is_clock_call(n) or (isinstance(n, ast.Name) and n.id in tainted) for n in ast.walk(node))


def wall_clock_asserts(source: str, filename: str = "<test>") -> list[str]:
    """``file:line`` of every assert on wall-clock time in functions not marked slow."""
    tree = ast.parse(source, filename)
    for stmt in tree.body:  # pytestmark = pytest.mark.slow: the whole module is slow
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in stmt.targets):
            if "slow" in ast.unparse(stmt.value):
                return []
    found: list[str] = []
    slow_classes = [c for c in ast.walk(tree) if isinstance(c, ast.ClassDef) and _marked_slow(c.decorator_list)]
    skipped = {id(f) for c in slow_classes for f in ast.walk(c)}
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) or id(fn) in skipped:
            continue
        if _marked_slow(fn.decorator_list):
            skipped.update(id(n) for n in ast.walk(fn))
            continue
        tainted: set[str] = set()
        changed = True
        while changed:  # names assigned from a clock reading, or from such a name (t0, elapsed = now - t0, …)
            changed = False
            for n in ast.walk(fn):
                if isinstance(n, ast.Assign | ast.AnnAssign | ast.AugAssign | ast.NamedExpr) and n.value is not None:
                    targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                    if _uses_clock(n.value, tainted):
                        for t in targets:
                            for name in ast.walk(t):
                                if isinstance(name, ast.Name) and name.id not in tainted:
                                    tainted.add(name.id)
                                    changed = True
        for n in ast.walk(fn):
            if isinstance(n, ast.Assert) and _uses_clock(n.test, tainted):
                found.append(f"{filename}:{n.lineno}")
    return sorted(set(found))


def test_no_default_suite_test_asserts_on_wall_clock_time():
    found: list[str] = []
    for path in sorted(TESTS.rglob("*.py")):
        found += wall_clock_asserts(path.read_text(encoding="utf-8"), str(path.relative_to(TESTS.parent)))
    assert not found, "wall-clock asserts in the default suite (move them to benchmarks/): " + ", ".join(found)


def test_the_check_finds_a_wall_clock_assert_and_spares_a_slow_test():
    bad = (
        "import time\n"
        "def test_fast():\n"
        "    t0 = time.perf_counter()\n"
        "    work()\n"
        "    elapsed = time.perf_counter() - t0\n"
        "    assert elapsed < 1.0\n"
        "def _helper():\n"
        "    start = time.monotonic()\n"
        "    assert time.monotonic() - start < 5, 'slow'\n"
    )
    assert wall_clock_asserts(bad, "t.py") == ["t.py:6", "t.py:9"]
    slow = "import pytest, time\n@pytest.mark.slow\ndef test_slow():\n    t0 = time.time()\n    assert time.time() - t0 < 9\n"
    assert wall_clock_asserts(slow) == []
    assert wall_clock_asserts("pytestmark = pytest.mark.slow\n" + bad) == []
    # a clock used to run a loop for a while, not asserted on, is fine
    loop = "import time\ndef test_loop():\n    end = time.monotonic() + 0.3\n    while time.monotonic() < end:\n        pass\n"
    assert wall_clock_asserts(loop) == []


def test_test_file_names_are_unique():
    """Test modules are imported by basename (no ``__init__.py`` in tests/): two files of one name break collection."""
    from collections import Counter
    from pathlib import Path

    names = Counter(p.name for p in Path(__file__).parent.rglob("test_*.py"))
    assert [n for n, c in names.items() if c > 1] == []


def test_no_test_imports_a_conftest_by_name():
    """Importing names from ``conftest`` resolves to whichever ``conftest`` was imported first once two directories have one."""
    from pathlib import Path

    pattern = "from conftest" + " import"  # split: this file would match itself
    hits = [p.name for p in Path(__file__).parent.rglob("*.py") if pattern in p.read_text(encoding="utf-8")]
    assert hits == []
