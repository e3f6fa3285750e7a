"""Layer 6, app: what users run — the model catalogue, system files, reports, LaTeX and the CLI.

* ``_models`` — the catalogue of benchmark systems (:mod:`frames.models` is its public door);
* ``_errata`` — the errata found in the papers, keyed by model;
* ``_sysfile`` — reading TOML system files; ``_safe_parser`` — the whitelisted-AST expression parser
  (never ``eval``/``sympify``); ``_toml_pos`` — line and column of a key; ``_sysfile_write`` — the exact writer;
* ``_report`` — ``frames analyze``: the report sections; ``_display`` — the displayed form of an expression;
  ``_parallel`` — a report's second process (``jobs=2``);
* ``_latex`` — LaTeX of equations;
* ``_cli`` — the ``frames`` console script (:func:`console`, which runs :func:`main`);
* ``_interop`` — :mod:`sympy.physics.mechanics` interop (``from_mechanics``, ``Model.to_mechanics``).
"""

from ._cli import console, load_model, main
from ._latex import latex_equations
from ._report import Report, build_report, display_form
from ._sysfile import dump_system, load_system, loads_system, parse_expression, write_system

__all__ = [
    "Report",
    "build_report",
    "console",
    "display_form",
    "dump_system",
    "latex_equations",
    "load_system",
    "loads_system",
    "load_model",
    "main",
    "parse_expression",
    "write_system",
]
