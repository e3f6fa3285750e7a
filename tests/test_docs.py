"""Every documentation page's examples are doctests, and every one of them runs and passes.

The pages reproduce the papers' displayed results (docs/cortes.md, docs/lemos.md, docs/talamucci.md,
docs/mvm.md, the Crampin–Mestdag pages, ...): a page whose ``>>>`` examples stop matching the library fails
here, named by its id. Pages are discovered, so a new page is covered without editing this file. A page
that another test module already runs with ``doctest.testfile`` is left to that module (no double work).
"""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: pages whose doctests take longer than 5 s (run in the slow CI step)
SLOW = {"examples_section7.md"}
ALL_PAGES = sorted(p.name for p in DOCS.glob("*.md") if ">>> " in p.read_text(encoding="utf-8"))


def _doctested_elsewhere() -> set[str]:
    """Pages another test module runs itself: it calls ``doctest.testfile`` and names the page."""
    out = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        if path.name == Path(__file__).name:
            continue
        text = path.read_text(encoding="utf-8")
        if "testfile(" in text:
            out |= {p for p in ALL_PAGES if p in text}
    return out


ELSEWHERE = _doctested_elsewhere()
PAGES = [p for p in ALL_PAGES if p not in ELSEWHERE]


def test_the_paper_pages_have_doctests():
    required = {
        "cortes.md", "lemos.md", "talamucci.md", "mvm.md", "vakonomic.md", "consistency.md", "chaplygin.md",
        "controllability.md", "getting_started.md",
    }  # fmt: skip
    assert required <= set(ALL_PAGES)
    assert required.isdisjoint(ELSEWHERE)
    assert len(ALL_PAGES) >= 13
    assert SLOW <= set(PAGES)


@pytest.mark.parametrize("page", [pytest.param(p, marks=pytest.mark.slow) if p in SLOW else p for p in PAGES])
def test_docs_page_doctests(page, monkeypatch):
    monkeypatch.chdir(ROOT)  # pages refer to examples/... relative to the repository
    res = doctest.testfile(
        str(DOCS / page),
        module_relative=False,
        optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS,
        verbose=False,
    )
    assert res.attempted > 0
    assert res.failed == 0, f"docs/{page}: {res.failed} of {res.attempted} examples failed (output above)"


def test_readme_python_examples_run(tmp_path, monkeypatch):
    """The README's Python blocks (the first steps, and building a system from L, constraints and forces) run."""
    import re

    pytest.importorskip("matplotlib")
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    assert any("from_constraints" in b for b in blocks)
    monkeypatch.chdir(tmp_path)  # a block writes its plot to the working directory
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
    assert (tmp_path / "sleigh.png").stat().st_size > 1000
