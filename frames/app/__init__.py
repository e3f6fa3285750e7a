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

from ._cli import console, main
from ._interop import MechanicsImport, from_mechanics, mechanics_import, mechanics_rates
from ._latex import latex_equations
from ._model import Model
from ._report import Report, analyze, display_form
from ._sysfile import dump_model, dumps_model, load_model, loads_model, parse_expression

__all__ = [
    "MechanicsImport",
    "Model",
    "Report",
    "analyze",
    "console",
    "display_form",
    "dump_model",
    "dumps_model",
    "from_mechanics",
    "latex_equations",
    "load_model",
    "loads_model",
    "main",
    "mechanics_import",
    "mechanics_rates",
    "parse_expression",
]
