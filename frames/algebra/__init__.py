"""Layer 1, algebra: normal forms, the rational functions, and the one exact linear solver.

Knows no geometry. Everything above calls these instead of ``sympy.simplify``:

* normal forms — :func:`canon` (``cancel``), :func:`trig_normal` (``sin² + cos² = 1``),
  :func:`tidy` (final results), :func:`is_zero` (exact zero test; :func:`decide_zero` with its certificate);
  :func:`harmonic_form` (display: sines and cosines of sums and differences of angles); :func:`factor`
  (``sympy.factor``'s result, FLINT's factorisation when installed); ``canon`` and ``tidy`` of a matrix
  act entrywise;
* the rational functions ``QQ(x, sin a, cos a, f(t), …)`` — :class:`RationalFunctions` (``_ratfunc.py``;
  conversion in ``_convert.py``, generic points in ``_witness.py``), uncancelled fractions
  :class:`PolyFraction`;
* exact linear algebra — :func:`solve_linear`, one solver whose options select the algorithm
  (``_solve.py``, ``_solve_general.py``); :func:`determinant`, :func:`structure_functions` (``_sparse.py``);
* the one door from a user's value to sympy — :func:`as_expr` and the argument checks
  (``_coerce.py``; strings are never parsed);
* time budgets and progress for every long computation — :func:`budget`, :func:`step` (``_budget.py``).
"""

from ._budget import Budget, budget, budgeted, checkpoint, current_budget, publishing_steps, step
from ._coerce import _short as short_repr
from ._coerce import as_expr, as_exprs, as_flag, as_int, as_matrix, as_subs, expect
from ._convert import is_known_tidy, replace_atoms
from ._diff import derivative, hessian
from ._diff_field import _brief as _brief  # the differential algebras of the measure and drift code (internal)
from ._diff_field import _depends as _depends
from ._diff_field import _ExprAlgebra as _ExprAlgebra
from ._diff_field import _norm as _norm
from ._diff_field import _RationalAlgebra as _RationalAlgebra
from ._factor import factor
from ._harmonic import harmonic_form
from ._normal import (
    COMPACT_OPS,
    COMPACT_SECONDS,
    canon,
    canon_element,
    compact,
    entries,
    is_zero,
    op_count,
    tidy,
    trig_normal,
)
from ._ratfunc import PolyFraction, RationalFunctions, UnsupportedExpression
from ._solve import cramer_size_bound, solve_linear, tidy_affine
from ._solve_general import reduce_conditions
from ._sparse import determinant, structure_functions
from ._tree import tree_derivative, tree_subs, tree_values
from ._zero import ZeroDecision, decide_zero, generic_rank, proved_full_rank, proved_nonsingular

__all__ = [
    "COMPACT_OPS",
    "COMPACT_SECONDS",
    "Budget",
    "PolyFraction",
    "RationalFunctions",
    "UnsupportedExpression",
    "ZeroDecision",
    "as_expr",
    "as_exprs",
    "as_flag",
    "as_int",
    "as_matrix",
    "as_subs",
    "budget",
    "budgeted",
    "canon",
    "canon_element",
    "compact",
    "checkpoint",
    "cramer_size_bound",
    "current_budget",
    "decide_zero",
    "derivative",
    "determinant",
    "entries",
    "expect",
    "factor",
    "generic_rank",
    "harmonic_form",
    "hessian",
    "is_known_tidy",
    "is_zero",
    "op_count",
    "proved_full_rank",
    "publishing_steps",
    "proved_nonsingular",
    "reduce_conditions",
    "replace_atoms",
    "short_repr",
    "solve_linear",
    "step",
    "structure_functions",
    "tidy",
    "tidy_affine",
    "tree_derivative",
    "tree_subs",
    "tree_values",
    "trig_normal",
]
