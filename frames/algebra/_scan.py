"""One walk of an expression tree: the function atoms, the undefined functions and the symbols that are the
generators of :class:`~frames.algebra.RationalFunctions`, and the first node outside its class."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy as sp
from sympy.core.function import AppliedUndef

from ._budget import checkpoint
from ._lattice import _EXP_TYPES, _HYPERBOLIC, _TRIG_TYPES

__all__ = ["_scan_all"]


#: what :func:`_scan` found in a large tree: ``expr -> (atoms, functions, symbols, first unsupported node)``
_SCANS: dict[sp.Expr, tuple[frozenset[Any], frozenset[Any], frozenset[Any], Any]] = {}
_SCANS_MAX = 512
#: sums and products with at least this many arguments have their scans remembered
_SCANS_MIN_ARGS = 32
_ATOM_TYPES = (*_TRIG_TYPES, *_EXP_TYPES, AppliedUndef, sp.Derivative, sp.Subs)


def _is_undefined_derivative(e: sp.Expr) -> bool:
    """``f'(t)`` (a derivative of an undefined function), or ``f'(x − y)`` (sympy's ``Subs`` of one): an
    independent generator, as the derivative of an arbitrary function is arbitrary."""
    if isinstance(e, sp.Subs):
        e = e.expr
    return isinstance(e, sp.Derivative) and isinstance(e.expr, AppliedUndef)


def _scan_all(es: Sequence[sp.Expr]) -> tuple[set[Any], set[Any], set[Any], Any]:
    """:func:`_scan` of several expressions: the union of what each found, and the first unsupported node."""
    found: set[Any] = set()
    funcs: set[Any] = set()
    syms: set[Any] = set()
    bad = None
    memo: dict[int, Any] = {}
    for e in es:
        f, u, s, b = _scan(e, memo)
        found |= f
        funcs |= u
        syms |= s
        bad = b if bad is None else bad
    return found, funcs, syms, bad


def _scan(e: sp.Expr, memo: dict[int, Any]) -> tuple[frozenset[Any], frozenset[Any], frozenset[Any], Any]:
    """One walk of ``e``: the atoms ``sin``, ``cos``, ``exp``, undefined functions and derivatives anywhere in
    it (as ``e.atoms(...)``), the functions ``f(t)``, ``f'(t)`` and the symbols outside ``sin``/``cos``/``exp``
    (the polynomial generators), and the first node that keeps ``e`` from being a rational function of
    those (None if there is none).

    Each distinct node is walked once per call (``memo``, by identity); the scans of large sums and
    products are remembered across calls (:data:`_SCANS`): the results of one computation enter the next
    ones' rings without walking their trees again.
    """
    hit = memo.get(id(e))
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    big = len(e.args) >= _SCANS_MIN_ARGS
    if big:
        hit = _SCANS.get(e)
        if hit is not None:
            memo[id(e)] = hit
            return hit
    empty: frozenset[Any] = frozenset()
    if e.is_Symbol:
        out: Any = (empty, empty, frozenset((e,)), None)
    elif e is sp.E:  # exp(1)
        out = (frozenset((e,)), empty, empty, None)
    elif e.is_Rational:
        out = (empty, empty, empty, None)
    elif isinstance(e, _ATOM_TYPES):
        inner = [_scan(a, memo)[0] for a in e.args]  # atoms nested in the arguments count (``atoms``)
        found = frozenset((e,)).union(*inner)
        if isinstance(e, _TRIG_TYPES):  # an unevaluated sin(x + π/2) too: the lattice takes the quarter turn
            terminal = True
        elif isinstance(e, _HYPERBOLIC):  # unless it evaluates to another form
            terminal = type(e)(e.args[0]) == e
        else:
            terminal = isinstance(e, sp.exp | AppliedUndef) or _is_undefined_derivative(e)
        out = (
            found,
            frozenset((e,)) if isinstance(e, AppliedUndef | sp.Derivative | sp.Subs) and terminal else empty,
            empty,
            None if terminal else e,
        )
    elif isinstance(e, sp.Add | sp.Mul) or (isinstance(e, sp.Pow) and e.exp.is_Integer):
        parts = [_scan(a, memo) for a in (e.args if not isinstance(e, sp.Pow) else (e.base,))]
        found = frozenset().union(*(p[0] for p in parts))
        if isinstance(e, sp.Pow):
            found |= _scan(e.exp, memo)[0]
        bad = next((p[3] for p in parts if p[3] is not None), None)
        out = (found, frozenset().union(*(p[1] for p in parts)), frozenset().union(*(p[2] for p in parts)), bad)
    else:
        found = frozenset().union(*(_scan(a, memo)[0] for a in e.args))
        out = (found, empty, empty, e)
    memo[id(e)] = out
    if not len(memo) % 4096:
        checkpoint()  # a walk of a large tree: the budget is checked every 4096 distinct nodes
    if big:
        if len(_SCANS) >= _SCANS_MAX:
            _SCANS.pop(next(iter(_SCANS)))
        _SCANS[e] = out
    return out  # type: ignore[no-any-return]
