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

from ._budget import Budget, budget, step
from ._coerce import expect
from ._diff import derivative, hessian
from ._harmonic import harmonic_form
from ._normal import compact, is_zero, op_count, tidy
from ._ratfunc import RationalFunctions
from ._solve import solve_linear
from ._zero import ZeroDecision, decide_zero, generic_rank

__all__ = [
    "Budget",
    "RationalFunctions",
    "ZeroDecision",
    "budget",
    "compact",
    "decide_zero",
    "derivative",
    "expect",
    "generic_rank",
    "harmonic_form",
    "hessian",
    "is_zero",
    "op_count",
    "solve_linear",
    "step",
    "tidy",
]
