"""A tour of the user-facing tools: system files, reports in four formats, LaTeX equations.

Run ``python examples/cli_tour.py OUTDIR``; writes the files listed by ``main``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import frames as fr
from frames import app as cli
from frames import models

HERE = Path(__file__).resolve().parent


def main(outdir: str | Path = "cli_tour_out") -> list[Path]:
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    # 1. a catalogue model written as a system file, and read back
    knife = models.knife_edge()
    toml = fr.dump_model(knife, out / "knife_edge.toml")
    back = fr.load_model(toml)
    assert back.lagrangian.expr == knife.lagrangian.expr
    written.append(toml)
    # 2. the report in every format, through the command itself
    for fmt, ext in (("text", "txt"), ("markdown", "md"), ("latex", "tex"), ("json", "json")):
        path = out / f"knife_edge_report.{ext}"
        rep = fr.analyze(back)
        path.write_text(rep.format(fmt), encoding="utf-8")
        written.append(path)
    assert json.loads((out / "knife_edge_report.json").read_text())["model"] == "knife-edge"
    # 3. a user-written system not in the catalogue
    sleigh = fr.load_model(HERE / "systems" / "sleigh_offset_mass.toml")
    path = out / "sleigh_offset_mass.md"
    path.write_text(fr.analyze(sleigh, only=["chart", "anholonomy", "frobenius"]).to_markdown())
    written.append(path)
    # 4. LaTeX of the equations of motion
    path = out / "knife_edge_equations.tex"
    path.write_text(fr.latex_equations(back.nonholonomic()), encoding="utf-8")
    written.append(path)
    # 5. the command line, in-process
    assert cli.main(["analyze", str(toml), "--only", "anholonomy", "--format", "markdown"]) == 0
    return written


if __name__ == "__main__":  # pragma: no cover
    for p in main(sys.argv[1] if len(sys.argv) > 1 else "cli_tour_out"):
        print(p)
