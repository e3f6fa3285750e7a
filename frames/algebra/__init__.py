"""Layer 1, algebra: normal forms and the one family of exact linear solves.

Knows no geometry. Everything above calls these instead of ``sympy.simplify``:

* normal forms — :func:`canon` (``cancel``), :func:`trig_normal` (``sin² + cos² = 1``),
  :func:`tidy` (final results), :func:`is_zero` (exact zero test); :func:`harmonic_form` (display: sines and
  cosines of sums and differences of angles); :func:`factor` (``sympy.factor``'s result,
  FLINT's factorisation when installed);
* the field ``QQ(x, sin a, cos a, f(t), …)`` — :class:`RationalFunctions`;
* exact linear algebra — :func:`exact_solve` and its family (``_solve.py``);
* the one door from a user's value to sympy — :func:`as_expr` and the argument checks
  (``_coerce.py``; strings are never parsed);
* time budgets and progress for every long computation — :func:`budget`, :func:`step` (``_budget.py``).
"""

from ._budget import Budget, budget, budgeted, budgeted_step, checkpoint, current_budget, step
from ._coerce import as_expr, as_exprs, as_flag, as_int, as_matrix, as_subs, expect
from ._diff import derivative, hessian
from ._factor import factor
from ._field import RationalFunctions, UnsupportedExpression, generic_rank, is_known_tidy, replace_atoms
from ._harmonic import harmonic_form
from ._normal import (
    canon,
    canon_element,
    canon_matrix,
    entries,
    is_zero,
    op_count,
    ring_is_zero,
    tidy,
    tidy_matrix,
    trig_normal,
)
from ._solve import (
    cramer_size_bound,
    exact_inverse,
    exact_solve,
    linsolve_frozen,
    solve_affine,
    solve_exact,
    solve_linear,
    solve_linear_general,
    solve_rational,
    tidy_affine,
    tidy_inverse,
)
from ._sparse import domain_determinant, structure_functions
from ._tree import tree_derivative, tree_solve, tree_subs, tree_values
from ._zero import ZeroDecision, decide_zero

__all__ = [
    "as_expr",
    "as_exprs",
    "as_flag",
    "as_int",
    "as_matrix",
    "as_subs",
    "expect",
    "Budget",
    "budget",
    "budgeted",
    "budgeted_step",
    "checkpoint",
    "current_budget",
    "step",
    "structure_functions",
    "RationalFunctions",
    "UnsupportedExpression",
    "ZeroDecision",
    "canon",
    "canon_element",
    "canon_matrix",
    "cramer_size_bound",
    "decide_zero",
    "entries",
    "derivative",
    "domain_determinant",
    "exact_inverse",
    "exact_solve",
    "factor",
    "generic_rank",
    "harmonic_form",
    "hessian",
    "is_known_tidy",
    "is_zero",
    "op_count",
    "replace_atoms",
    "ring_is_zero",
    "linsolve_frozen",
    "solve_exact",
    "solve_affine",
    "solve_linear",
    "solve_linear_general",
    "solve_rational",
    "tidy",
    "tidy_affine",
    "tidy_inverse",
    "tree_derivative",
    "tree_solve",
    "tree_subs",
    "tree_values",
    "tidy_matrix",
    "trig_normal",
]
