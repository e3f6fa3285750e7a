"""Every example script has a main() and runs."""

import importlib.util
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.py"))
#: examples that take more than a few seconds run in the slow step
SLOW = {"whipple_bicycle", "bicycle_stability_map"}


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=pytest.mark.slow) if p.stem in SLOW else p for p in EXAMPLES],
    ids=[p.stem for p in EXAMPLES],
)
def test_example_runs(path, tmp_path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert hasattr(mod, "main"), f"{path.name} has no main()"
    mod.main(tmp_path)
    assert any(tmp_path.iterdir()), f"{path.name} wrote no output"
