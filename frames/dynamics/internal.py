"""Layer internals of ``frames.dynamics`` for the layers above, not user API (the ``equinox.internal`` pattern)."""

from ._checks import (
    check_flag_choice,
    check_symbols,
    exprs_on_TQ,
    index_pairs,
    n_exprs_on_TQ,
    optional_time,
    prefix_symbols,
    sequence,
    symbol_values,
)
from ._loads import Load
from ._method import motion_equations
from ._ode import assembled_ode, check_ode_form, check_ode_sources, field_ode, free_params, natural_ode

__all__ = [
    "Load",
    "assembled_ode",
    "check_flag_choice",
    "check_ode_form",
    "check_ode_sources",
    "check_symbols",
    "exprs_on_TQ",
    "field_ode",
    "free_params",
    "index_pairs",
    "motion_equations",
    "n_exprs_on_TQ",
    "natural_ode",
    "optional_time",
    "prefix_symbols",
    "sequence",
    "symbol_values",
]
