"""Shared benchmark harness: one measurement per fresh subprocess, with a time limit."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable


def in_subprocess(script: str, method: str, case: str, timeout: float) -> dict:
    """Run ``script --one method case`` and parse the JSON it prints last; ``>timeout`` on expiry."""
    cmd = [sys.executable, script, "--one", method, case]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return {"time": None, "ops": None, "timeout": timeout}
    except subprocess.CalledProcessError as exc:
        return {"time": None, "ops": None, "error": exc.stderr.strip().splitlines()[-1:]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def fmt_t(r: dict) -> str:
    """``1.23 s``, ``>300 s`` after a time-out, or ``error``."""
    if r.get("time") is None:
        return f">{r['timeout']:.0f} s" if "timeout" in r else "error"
    return f"{r['time']:.2f} s"


def fmt_o(r: dict) -> str:
    """The ``count_ops`` size, or a dash."""
    return "—" if r.get("ops") is None else str(r["ops"])


def speed(r: dict, f: dict) -> str:
    """Ratio of the time of ``r`` to the library's ``f`` (a lower bound after a time-out)."""
    if f.get("time") is None:
        return "—"
    if r.get("time") is None:
        return f">{r['timeout'] / f['time']:.0f}×" if "timeout" in r else "—"
    return f"{r['time'] / f['time']:.1f}×"


def table_or_one(doc: str, one: Callable[[str, str], dict], argv: list[str] | None, timeout: float) -> float | None:
    """Parse ``[--timeout S] [--one METHOD CASE]``: with ``--one``, print that measurement's JSON and return None
    (the subprocess side); otherwise return the time limit for the table."""
    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    p.add_argument("--timeout", type=float, default=timeout)
    p.add_argument("--one", nargs=2, metavar=("METHOD", "CASE"))
    a = p.parse_args(argv)
    if a.one:
        print(json.dumps(one(*a.one)))
        return None
    return float(a.timeout)
