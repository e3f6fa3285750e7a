"""Every documentation page's examples are doctests, and every one of them runs and passes.

The pages reproduce the papers' displayed results (docs/cortes.md, docs/lemos.md, docs/talamucci.md,
the Crampin–Mestdag pages, ...): a page whose ``>>>`` examples stop matching the library fails here,
named by its id. Pages are discovered, so a new page is covered without editing this file.
"""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
#: pages whose doctests take longer than the default suite should spend (run in the slow CI step)
SLOW = {"examples_section7.md"}
PAGES = sorted(p.name for p in DOCS.glob("*.md") if ">>> " in p.read_text(encoding="utf-8"))


def test_the_paper_pages_have_doctests():
    assert {"cortes.md", "lemos.md", "talamucci.md", "vakonomic.md", "consistency.md", "chaplygin.md"} <= set(PAGES)
    assert len(PAGES) >= 9


@pytest.mark.parametrize("page", [pytest.param(p, marks=pytest.mark.slow) if p in SLOW else p for p in PAGES])
def test_docs_page_doctests(page, monkeypatch, tmp_path):
    monkeypatch.chdir(DOCS.parent)  # pages refer to examples/... relative to the repository
    res = doctest.testfile(
        str(DOCS / page),
        module_relative=False,
        optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS,
        verbose=False,
    )
    assert res.attempted > 0
    assert res.failed == 0, f"docs/{page}: {res.failed} of {res.attempted} examples failed (output above)"
