"""Layer internals of ``frames.algebra`` for the layers above, not user API (the ``equinox.internal`` pattern)."""

from ._budget import attempt, budgeted, checkpoint, current_budget, publishing_steps
from ._coerce import _short as short_repr
from ._coerce import as_expr, as_exprs, as_flag, as_int, as_matrix, as_subs
from ._convert import is_known_tidy, replace_atoms
from ._diff_field import _brief, _depends, _ExprAlgebra, _norm, _RationalAlgebra
from ._factor import factor
from ._normal import COMPACT_OPS, COMPACT_SECONDS, COMPACT_TRY_OPS, canon, canon_element, entries, trig_normal
from ._nullspace import canonical_nullspace, lcm_as_sympy
from ._ratfunc import PolyFraction, UnsupportedExpression
from ._solve import cramer_size_bound, tidy_affine
from ._solve_general import reduce_conditions
from ._sparse import determinant, structure_functions
from ._tree import tree_derivative, tree_gather, tree_gather_all, tree_subs, tree_values, visibly_nonzero
from ._zero import proved_full_rank, proved_nonsingular, tree_variables

__all__ = [
    "UnsupportedExpression",
    "_ExprAlgebra",
    "_RationalAlgebra",
    "_brief",
    "_depends",
    "_norm",
    "COMPACT_OPS",
    "COMPACT_SECONDS",
    "COMPACT_TRY_OPS",
    "PolyFraction",
    "as_expr",
    "as_exprs",
    "as_flag",
    "as_int",
    "as_matrix",
    "as_subs",
    "attempt",
    "budgeted",
    "canon",
    "canon_element",
    "canonical_nullspace",
    "checkpoint",
    "cramer_size_bound",
    "current_budget",
    "determinant",
    "entries",
    "factor",
    "is_known_tidy",
    "lcm_as_sympy",
    "proved_full_rank",
    "proved_nonsingular",
    "publishing_steps",
    "reduce_conditions",
    "replace_atoms",
    "short_repr",
    "structure_functions",
    "tidy_affine",
    "tree_derivative",
    "tree_gather",
    "tree_gather_all",
    "tree_subs",
    "tree_values",
    "tree_variables",
    "visibly_nonzero",
    "trig_normal",
]
