"""Shared check of the table-driven bad-input tests (``tests/test_bad_input_*.py``)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import pytest

import frames as fr

Row = tuple[str, Callable[[], Any], type, str]


def assert_payload_never_ran(rows: Sequence[Row], sentinel: str, minimum: int) -> None:
    """Re-run every ``injection`` row (independent of test order): each raises, none touched ``sentinel``."""
    inj = [r for r in rows if "injection" in r[0]]
    assert len(inj) >= minimum
    for rid, call, _exc, _pattern in inj:
        with pytest.raises(fr.FramesError):
            call()
        assert not os.path.exists(sentinel), f"{rid}: the payload ran"
    assert not os.path.exists(sentinel)
