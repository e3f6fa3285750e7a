r"""Linearisation of the nonholonomic motion about an equilibrium or a steady motion, on C.

The reduced state is ``x = (q, v^α)`` with ``q̇ = v^α X_α(q)`` and ``v̇^α = Γ^α(q, v)`` (Crampin–Mestdag
Proposition 2): the constraints hold for every state, so the linearisation lives on C. A coordinate on which
the right-hand sides do not depend (an ignorable coordinate: a symmetry direction, such as the position of a
vehicle) is removed with its equation; about a steady motion (a relative equilibrium) the remaining
right-hand sides vanish at the point, and ``A = ∂f/∂x`` there is exact, in the parameters.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import pairwise
from typing import Any

import numpy as np
import sympy as sp

from .._value import Value
from ..algebra import as_expr, canon, derivative, is_zero, tidy
from ..errors import ArgumentError, ConstraintError, StateError
from ._checks import expect_obj
from ._nonholonomic import NonholonomicSystem

__all__ = ["Linearization", "linearize"]


class Linearization(Value):
    r"""``δẋ = A δx`` about a point of C, in the reduced state ``x`` (the coordinates not ignorable, then ``v^α``).

    Attributes
    ----------
    system : NonholonomicSystem
    states : tuple of Symbol
        The reduced state ``x``.
    point : tuple of Expr
        The values of the states at the point (exact, possibly in the parameters).
    A : ImmutableMatrix
        ``∂f/∂x`` at the point, exact.
    removed : tuple of Symbol
        The ignorable coordinates removed (the right-hand sides do not depend on them).
    """

    system: NonholonomicSystem
    states: tuple[sp.Symbol, ...]
    point: tuple[sp.Expr, ...]
    A: sp.ImmutableMatrix
    removed: tuple[sp.Symbol, ...]

    def eigenvalues(self, subs: Mapping[Any, Any] | None = None) -> np.ndarray:
        """The eigenvalues of ``A`` at numeric parameter values (``subs``: symbol or name -> number)."""
        chart = self.system.lagrangian.chart
        at: dict[Any, Any] = {}
        for k, v in (subs or {}).items():
            sym = k if isinstance(k, sp.Symbol) else next((s for s in chart.params if s.name == str(k)), None)
            if sym is None:
                raise ArgumentError(f"Linearization.eigenvalues: subs: {k!r} is not a parameter of the system")
            at[sym] = v
        M = self.A.xreplace(at)
        try:
            num = np.array(M.tolist(), dtype=float)
        except (TypeError, ValueError):
            free = sorted(map(str, set().union(*[e.free_symbols for e in M])))
            raise ArgumentError(f"Linearization.eigenvalues: subs: give values for {free}") from None
        return np.linalg.eigvals(num)

    def stability(self, subs: Mapping[Any, Any] | None = None, tol: float = 1e-9) -> str:
        """``"asymptotically stable"`` (every eigenvalue has real part < −tol), ``"unstable"`` (one > tol), else
        ``"marginal"`` (the linearisation does not decide)."""
        re = np.real(self.eigenvalues(subs))
        if np.any(re > tol):
            return "unstable"
        return "asymptotically stable" if np.all(re < -tol) else "marginal"

    def sweep(self, parameter: Any, values: Any, subs: Mapping[Any, Any] | None = None) -> np.ndarray:
        """The eigenvalues at each value of ``parameter`` (the others from ``subs``): an array ``(len(values), k)``,
        each row sorted by real part (a root locus, or eigenvalues against the parameter)."""
        vals = np.asarray(values, dtype=float)
        if vals.ndim != 1 or not np.all(np.isfinite(vals)):
            raise ArgumentError(f"Linearization.sweep: values: expected a finite 1-d sequence, got {values!r:.60}")
        rows = [self.eigenvalues(dict(subs or {}) | {parameter: float(x)}) for x in vals]
        return np.array([r[np.argsort(np.real(r))] for r in rows])

    def critical_values(
        self, parameter: Any, values: Any, subs: Mapping[Any, Any] | None = None, tol: float = 1e-12
    ) -> list[float]:
        """The values of ``parameter`` in the range of ``values`` where an eigenvalue crosses the imaginary axis
        (the largest real part, above a zero eigenvalue that persists, changes sign), each refined by bisection to
        ``tol`` (relative): the weave and capsize speeds of a bicycle, the critical spin of a disc."""
        vals = np.asarray(values, dtype=float)

        def growth(x: float) -> float:
            re = np.real(self.eigenvalues(dict(subs or {}) | {parameter: float(x)}))
            nonzero = re[np.abs(re) > 1e-9 * max(1.0, float(np.max(np.abs(re))))]
            return float(np.max(nonzero)) if nonzero.size else 0.0

        g = [growth(x) for x in vals]
        signed = [(float(x), gx) for x, gx in zip(vals, g, strict=True) if gx != 0]
        out: list[float] = []
        for (a, ga), (b, gb) in pairwise(signed):
            if ga * gb > 0:
                continue
            exact = [float(x) for x, gx in zip(vals, g, strict=True) if gx == 0 and a < x < b]
            if exact:  # a sample on the crossing itself
                out.append(exact[len(exact) // 2])
                continue
            lo, hi, glo = a, b, ga
            while abs(hi - lo) > tol * max(1.0, abs(lo)):
                mid = (lo + hi) / 2
                gm = growth(mid)
                if gm * glo > 0:
                    lo, glo = mid, gm
                else:
                    hi = mid
            out.append((lo + hi) / 2)
        return out

    def __repr__(self) -> str:
        return f"Linearization(states={self.states}, removed={self.removed}, A={self.A.tolist()})"


def linearize(system: Any, at: Mapping[Any, Any]) -> Linearization:
    r"""Linearise the nonholonomic motion about ``at``, a point of C in natural coordinates and velocities.

    ``at`` maps every ``q`` and ``u`` of the chart to a value (numbers or expressions in the parameters: a steady
    motion at speed ``V`` has ``u = V …``). The velocities must lie in D; the right-hand sides of the coordinates
    kept and of the quasi-velocities must vanish there (an equilibrium, or a steady motion once the ignorable
    coordinates are removed).

    Examples
    --------
    >>> import frames as fr, sympy as sp
    >>> mdl = fr.models.chaplygin_sleigh()
    >>> th, x, y = mdl.chart.q
    >>> V = sp.Symbol("V", positive=True)
    >>> lin = linearize(mdl.nonholonomic(), {th: 0, x: 0, y: 0, mdl.chart.u[0]: 0, mdl.chart.u[1]: V,
    ...                                       mdl.chart.u[2]: 0})
    >>> lin.removed, lin.states
    ((theta, x, y), (v1, v2))
    >>> sorted(lin.A.eigenvals(), key=str)
    [-V*a*m/(I + a**2*m), 0]
    """
    nh = expect_obj(system, NonholonomicSystem, name="linearize: system")
    chart, F, m = nh.lagrangian.chart, nh.frame, nh.m
    if not isinstance(at, Mapping):
        raise ArgumentError(f"linearize: at: expected a mapping of the coordinates and velocities, got {at!r:.60}")
    byname = {(k.name if isinstance(k, sp.Symbol) else str(k)): v for k, v in at.items()}
    missing = [s.name for s in (*chart.q, *chart.u) if s.name not in byname]
    if missing:
        raise StateError(f"linearize: at: missing values for {missing}")
    point = {s: as_expr(byname[s.name], name=f"linearize: at[{s.name}]") for s in (*chart.q, *chart.u)}
    qpt = {q: point[q] for q in chart.q}
    for a in range(m, F.dim):  # the velocities lie in D
        if not is_zero(F.v_in_u[a].xreplace(point)):
            raise ConstraintError(
                f"linearize: at: the velocities are not in D: θ^{a + 1}(u) = {F.v_in_u[a].xreplace(point)}"
            )
    vpt = {F.v[al]: canon(F.v_in_u[al].xreplace(point)) for al in range(m)}
    G = nh.field().Gamma
    f = [sp.Add(*[F.v[al] * F.matrix[al, j] for al in range(m)]) for j in range(F.dim)] + [G[al] for al in range(m)]
    # a coordinate is kept when a kept equation depends on it (the v̇ equations always are): to a fixed point
    keep: set[sp.Symbol] = set()
    while True:
        eqs = f[F.dim :] + [f[chart.q.index(q)] for q in keep]
        new = {q for q in chart.q if any(derivative(e, q) != 0 for e in eqs)}
        if new <= keep:
            break
        keep |= new
    kept = [q for q in chart.q if q in keep]
    removed = tuple(q for q in chart.q if q not in keep)
    states = (*kept, *F.v[:m])
    rows = [f[chart.q.index(q)] for q in kept] + f[F.dim :]
    here = qpt | vpt
    for x, e in zip(states, rows, strict=True):
        val = e.xreplace(here)
        if not is_zero(val):
            raise StateError(
                f"linearize: at: not an equilibrium or a steady motion: the rate of {x} is {tidy(val)} there "
                "(the ignorable coordinates removed)"
            )
    A = sp.ImmutableMatrix([[tidy(derivative(e, x).xreplace(here)) for x in states] for e in rows])
    return Linearization(nh, tuple(states), tuple(here[x] for x in states), A, removed)
