r"""Linearisation of the nonholonomic motion about an equilibrium or a steady motion, on C.

The state is ``x = (q, v^α)`` with ``q̇ = v^α X_α(q)`` and ``g_αβ v̇^β = b_α(q, v, t)`` (Crampin–Mestdag
Proposition 2, in its mass-matrix form): the constraints hold for every state, so the linearisation lives on
C. At a point where the rates vanish, ``∂Γ/∂x = g⁻¹ ∂b/∂x`` (the term ``∂g/∂x Γ`` is zero there), so the
explicit field is never formed: the equations are taken on the fast path (trees,
:meth:`~frames.NonholonomicSystem.linear_system` with ``canonical=False``), every state but one is substituted
before differentiating along the remaining one, and only ``g`` at the point is inverted — a bicycle takes
seconds. The coordinates on which the linearised equations of the others do not depend (ignorable coordinates:
the position and heading of a vehicle, a wheel angle) are removed with their equations.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import pairwise
from typing import Any

import numpy as np
import sympy as sp

from .._value import Record, cached_method
from ..algebra import is_zero, op_count, solve_linear, step, tidy
from ..algebra.internal import (
    as_expr,
    attempt,
    tree_derivative,
    tree_subs,
    tree_values,
    visibly_nonzero,
)
from ..errors import (
    ArgumentError,
    BudgetExceededError,
    ConstraintError,
    RegularityError,
    StateError,
    UndecidedError,
)
from ._charpoly import (
    CharPoly,
    CriticalValue,
    _Inexact,
    charpoly_of,
    coefficients_at,
    critical_search,
    exact_point,
    iv_precision,
    structural_split,
)
from ._charpoly import classify as _classify
from ._method import ModelLike
from ._model_of import nonholonomic_of
from ._nonholonomic import NonholonomicSystem
from ._region import StabilityRegion, region_of

__all__ = ["Linearization", "Stability", "linearize", "nonholonomic_of"]

#: entries of ``A`` and ``B`` at most this large (operations) are put in the canonical form; larger ones (a
#: bicycle's, in its 27 parameters) stay exact trees, evaluated node by node
TIDY_LIMIT = 3000
#: above this size (operations) an entry of ``g(p)`` or ``∂b/∂x`` sends the solve to the trees (pivots proved
#: nonzero at a point), not the field of rational functions
SOLVE_LIMIT = 200


class Stability(str):
    """The verdict of :meth:`Linearization.stability`: the ``str`` ``"asymptotically stable"``,
    ``"unstable"`` or ``"marginal"``, with what decided it.

    Attributes
    ----------
    reduced : str
        The verdict on the reduced state (the structural zero states left out).
    structural : int
        The structural zero eigenvalues (:meth:`Linearization.charpoly`).
    zero_states : tuple of (Symbol, str)
        Their states and why (``"conserved"``, ``"ignorable"``).
    extra_zeros : int
        The other zero eigenvalues at the point, counted exactly (a marginal, possibly defective, mode).
    """

    reduced: str
    structural: int
    zero_states: tuple[tuple[sp.Symbol, str], ...]
    extra_zeros: int

    def __new__(cls, verdict: str, reduced: str, structural: int, zero_states: Any, extra_zeros: int) -> Stability:
        obj = super().__new__(cls, verdict)
        for k, v in (("reduced", reduced), ("structural", structural), ("zero_states", tuple(zero_states)),
                     ("extra_zeros", extra_zeros)):  # fmt: skip
            object.__setattr__(obj, k, v)
        return obj

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Stability is immutable: cannot set {name}")

    def explain(self) -> str:
        """One line: the verdict and the zero eigenvalues it set aside."""
        parts = [str(self)]
        if self.structural:
            zs = ", ".join(f"{x} {why}" for x, why in self.zero_states)
            parts.append(f"{self.structural} structural zero eigenvalue(s) ({zs}); the rest: {self.reduced}")
        if self.extra_zeros:
            parts.append(f"{self.extra_zeros} more zero eigenvalue(s) at this point (marginal)")
        return "; ".join(parts)


class Linearization(Record):
    r"""``δẋ = A δx + B δw`` about a point of C, in the reduced state ``x`` (the coordinates kept, then ``v^α``).

    Attributes
    ----------
    system : NonholonomicSystem
    states : tuple of Symbol
        The reduced state ``x``: the coordinates not removed, then the independent quasi-velocities.
    point : tuple of Expr
        The values of the states at the point (exact, possibly in the parameters).
    A : ImmutableMatrix
        ``∂ẋ/∂x`` at the point, exact (canonical when small, else an exact tree).
    removed : tuple of Symbol
        The coordinates removed: the linearised equations of the states kept do not depend on them, and their
        own block is nilpotent (its eigenvalues, all zero, are left out of ``A``).
    inputs : tuple of Symbol
        The input symbols (parameters of the forces) of ``B``, in order.
    B : ImmutableMatrix
        ``∂ẋ/∂w`` at the point, one column per input (no columns without inputs).
    """

    system: NonholonomicSystem
    states: tuple[sp.Symbol, ...]
    point: tuple[sp.Expr, ...]
    A: sp.ImmutableMatrix
    removed: tuple[sp.Symbol, ...]
    inputs: tuple[sp.Symbol, ...] = ()
    B: sp.ImmutableMatrix | None = None

    @cached_method
    def _symbols(self, which: str) -> tuple[frozenset[sp.Symbol], dict[str, sp.Symbol]]:
        """The free symbols of ``A`` or ``B`` (``which``), and every name ``subs`` may use (found once: a sweep
        and the bisections of :meth:`critical_values` evaluate the matrix again and again)."""
        M = getattr(self, which)
        free = frozenset().union(*[e.free_symbols for e in M]) if M else frozenset()
        point = set().union(*[sp.sympify(e, strict=True).free_symbols for e in self.point])
        return free, {s.name: s for s in (*free, *point, *self.system.lagrangian.chart.params)}

    def _numeric(self, which: str, subs: Mapping[Any, Any] | None, what: str) -> np.ndarray:
        """``A`` or ``B`` (``which``) at numeric values of its symbols (symbol or name -> real number), evaluated
        node by node."""
        M = getattr(self, which)
        free, known = self._symbols(which)
        if subs is not None and not isinstance(subs, Mapping):
            raise ArgumentError(f"Linearization.{what}: subs: expected a mapping name -> number, got {subs!r:.60}")
        at: dict[Any, Any] = {}
        for k, v in (subs or {}).items():
            sym = known.get(k.name if isinstance(k, sp.Symbol) else str(k))  # a symbol is matched by its name
            if sym is None:
                raise ArgumentError(f"Linearization.{what}: subs: {k!r} is not a symbol of the linearisation")
            if sym in at:
                raise ArgumentError(f"Linearization.{what}: subs: {sym.name} is given twice")
            val = as_expr(v, name=f"Linearization.{what}: subs[{sym.name}]")
            if val.free_symbols:
                raise ArgumentError(f"Linearization.{what}: subs[{sym.name}]: expected a number, got {val}")
            at[sym] = val
        missing = sorted(s.name for s in free if s not in at)
        if missing:
            raise ArgumentError(f"Linearization.{what}: subs: give values for {missing}")
        try:
            vals = np.array([complex(x) for x in tree_values(list(M), at, digits=30)]).reshape(M.shape)
        except (BudgetExceededError, UndecidedError):
            raise
        except ValueError as exc:
            raise ArgumentError(f"Linearization.{what}: subs: {exc}") from None
        if not np.all(np.isfinite(vals)):
            raise ArgumentError(
                f"Linearization.{what}: subs: the matrix is not finite at these values ({dict(at)}): the numbers "
                "overflow double precision"
            )
        if np.any(np.abs(vals.imag) > 1e-12 * max(1.0, float(np.max(np.abs(vals))))):
            raise ArgumentError(f"Linearization.{what}: subs: the matrix is not real at these values ({dict(at)})")
        return vals.real

    def matrices(self, subs: Mapping[Any, Any] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``A`` and ``B`` as float arrays at numeric parameter values (``subs``: symbol or name -> number)."""
        A = self._numeric("A", subs, "matrices")
        B = self._numeric("B", subs, "matrices") if self.B is not None else np.zeros((A.shape[0], 0))
        return A, B

    def eigenvalues(self, subs: Mapping[Any, Any] | None = None) -> np.ndarray:
        """The eigenvalues of ``A`` at numeric parameter values (``subs``: symbol or name -> number)."""
        A = self._numeric("A", subs, "eigenvalues")
        try:
            return np.linalg.eigvals(A)
        except np.linalg.LinAlgError as exc:
            raise ArgumentError(f"Linearization.eigenvalues: subs: no eigenvalues at these values ({exc})") from None

    @cached_method
    def charpoly(self, s: Any = None) -> CharPoly:
        r"""``det(sI − A)``, exact in ``s`` and the parameters, its structural factor ``s^k`` named.

        A state whose row of ``A`` is identically zero is conserved to first order (the forward speed of a
        bicycle or a sleigh), one whose column is is ignorable (nothing depends on it): each gives a factor
        ``s`` for every value of the parameters, taken out first (to a fixed point) and named in
        :attr:`CharPoly.zero_states`. The rest is formed by Berkowitz's division-free recurrence (sums and
        products of the entries, no simplification, the budget checked at each product).

        Parameters
        ----------
        s : Symbol or str, optional
            The variable (default ``s``).

        Returns
        -------
        CharPoly
        """
        if s is None:
            s = sp.Symbol("s")
        elif isinstance(s, str) and s.isidentifier():
            s = sp.Symbol(s)
        if not isinstance(s, sp.Symbol):
            raise ArgumentError(f"Linearization.charpoly: s: expected a symbol or a name, got {s!r:.60}")
        with step("Linearization.charpoly: det(sI − A) by Berkowitz's recurrence"):
            return charpoly_of(self.A, self.states, s)

    def _deflate(self) -> int:
        """The trailing coefficients of the reduced matrix's polynomial that vanish identically."""
        return self.charpoly().structural - (self.A.rows - len(self._kept()))

    @cached_method
    def _kept(self) -> tuple[int, ...]:
        """The indices of the states left once the structural zero states are removed."""
        return tuple(structural_split(self.A, self.states)[0])

    def _reduced_matrix(self) -> list[list[sp.Expr]]:
        keep = self._kept()
        return [[self.A[i, j] for j in keep] for i in keep]

    def _exact(
        self, subs: Mapping[Any, Any] | None, what: str, skip: Any = None, allow: frozenset[sp.Symbol] = frozenset()
    ) -> dict[sp.Symbol, sp.Expr]:
        """``subs`` as exact numbers (floats by their value), every free symbol of ``A`` but ``skip`` given; a
        value may contain the symbols ``allow`` (a parameter of a stability map that the values depend on)."""
        if subs is not None and not isinstance(subs, Mapping):
            raise ArgumentError(f"Linearization.{what}: subs: expected a mapping name -> number, got {subs!r:.60}")
        free, known = self._symbols("A")
        at: dict[sp.Symbol, sp.Expr] = {}
        for k, v in (subs or {}).items():
            sym = known.get(k.name if isinstance(k, sp.Symbol) else str(k))
            if sym is None:
                raise ArgumentError(f"Linearization.{what}: subs: {k!r} is not a symbol of the linearisation")
            if sym in at:
                raise ArgumentError(f"Linearization.{what}: subs: {sym.name} is given twice")
            val = as_expr(v, name=f"Linearization.{what}: subs[{sym.name}]")
            if val.free_symbols - allow or (not val.free_symbols and not (val.is_real and val.is_finite)):
                raise ArgumentError(f"Linearization.{what}: subs[{sym.name}]: expected a finite real number, got {val}")
            at[sym] = val
        skipped = set(skip) if isinstance(skip, tuple) else {skip}
        for x in skipped:
            at.pop(x, None)
        missing = sorted(s.name for s in free if s not in at and s not in skipped)
        if missing:
            raise ArgumentError(f"Linearization.{what}: subs: give values for {missing}")
        return at

    def _coefficients(self, at: Mapping[sp.Symbol, sp.Expr], what: str) -> tuple[list[Any], bool]:
        """``[1, c_1, …]`` of the reduced characteristic polynomial at ``at``: exact rationals when every value
        is rational, else rigorous intervals (300 bits)."""
        M = self._reduced_matrix()
        try:
            with iv_precision(300):
                pt, exact = exact_point(at)
                try:
                    return coefficients_at(M, pt, exact), exact
                except _Inexact:
                    return coefficients_at(M, pt, False), False
        except ZeroDivisionError as exc:
            raise ArgumentError(f"Linearization.{what}: subs: A is not defined at these values ({exc})") from None

    def stability(self, subs: Mapping[Any, Any] | None = None, tol: float = 1e-9) -> Stability:
        """``"asymptotically stable"`` (every eigenvalue has real part < −tol), ``"unstable"`` (one > tol), else
        ``"marginal"`` (the linearisation does not decide), decided on the exact characteristic polynomial.

        The structural zero eigenvalues (:meth:`charpoly`: a conserved quantity such as the forward speed of a
        sleigh or a bicycle, an ignorable direction) keep such a motion at best ``"marginal"``; the verdict (a
        :class:`Stability`, a ``str``) says which it found and the verdict on the rest (``.reduced``). The other
        zero eigenvalues are counted exactly (``.extra_zeros``: the trailing coefficients of the reduced
        polynomial that vanish at the point; a Jordan block is not split into ``±ε`` by rounding); the other
        roots are found at 60 digits from the exact (or enclosed) coefficients."""
        if isinstance(tol, bool) or not isinstance(tol, int | float | sp.Rational | sp.Float | np.floating):
            raise ArgumentError(f"Linearization.stability: tol: expected a real number >= 0, got {tol!r:.40}")
        if not (math.isfinite(float(tol)) and float(tol) >= 0):
            raise ArgumentError(f"Linearization.stability: tol: expected a finite real number >= 0, got {tol!r:.40}")
        at = self._exact(subs, "stability")
        c, exact = self._coefficients(at, "stability")
        j = self._deflate()
        reduced, zeros = _classify(c[: len(c) - j], exact, float(tol))
        cp = self.charpoly()
        if reduced == "unstable":
            verdict = "unstable"
        elif reduced == "asymptotically stable" and not cp.structural:
            verdict = "asymptotically stable"
        else:
            verdict = "marginal"
        return Stability(verdict, reduced, cp.structural, cp.zero_states, zeros)

    def sweep(self, parameter: Any, values: Any, subs: Mapping[Any, Any] | None = None) -> np.ndarray:
        """The eigenvalues at each value of ``parameter`` (the others from ``subs``): an array ``(len(values), k)``
        (a root locus, or eigenvalues against the parameter). The first row is sorted by real part; each next
        row is ordered to follow the previous one by continuity (each eigenvalue matched to the nearest of the
        previous sample's, nearest pairs first), so column ``k`` is one eigenvalue curve, also where two curves
        cross in real part."""
        vals = _samples(values, "sweep", 1)
        rows = [self.eigenvalues(_with(subs, parameter, x, "sweep")) for x in vals]
        out = [rows[0][np.argsort(np.real(rows[0]), kind="stable")]]
        for r in rows[1:]:
            out.append(_follow(out[-1], r))
        return np.array(out)

    def critical_values(
        self,
        parameter: Any,
        values: Any,
        subs: Mapping[Any, Any] | None = None,
        tol: float = 1e-12,
        *,
        certify: bool | int = False,
    ) -> list[Any]:
        """The values of ``parameter`` in the range of ``values`` (sorted) where the stability of the point
        changes, each refined by bisection to ``tol`` (relative): the weave and capsize speeds of a bicycle, the
        critical spin of a disc.

        The growth rate at a value is the largest real part of the eigenvalues once the ``k`` of smallest modulus
        are set aside, ``k`` being the number of eigenvalues that are zero (below ``1e-9`` of the norm of ``A``)
        at every sample: a conserved quantity such as the forward speed. An eigenvalue passing through zero (a
        capsize mode) is then seen crossing. Each sample is unstable (growth above ``1e-12`` of the norm of
        ``A``, the scale of the eigenvalues' rounding errors), asymptotically stable (below minus that) or marginal (a purely imaginary pair: a conservative
        system stabilised by its gyroscopic terms). Between an unstable and a stable sample the crossing is
        bisected on the sign of the growth rate; where one side is marginal, on the class. A marginal stretch
        between two samples of the same class (a touch) gives one value. A value within ``tol`` (absolute, times
        the range's scale) of 0 is reported as exactly ``0.0``.

        With ``certify=True`` (or a number of digits) the values are :class:`CriticalValue` s instead, every
        digit proved: :meth:`certified_critical_values` on ``[min(values), max(values)]`` (50 digits, or
        ``certify``).
        """
        if certify is not False:
            if isinstance(certify, bool):
                digits = 50
            elif isinstance(certify, int) and certify > 0:
                digits = certify
            else:
                raise ArgumentError(
                    f"Linearization.critical_values: certify: expected True, False or a number of digits, got "
                    f"{certify!r:.40}"
                )
            vv = _samples(values, "critical_values", 2)
            return self.certified_critical_values(parameter, (float(vv.min()), float(vv.max())), subs, digits=digits)
        vals = np.sort(_samples(values, "critical_values", 2))
        try:
            tol = float(tol)
        except (TypeError, ValueError):
            tol = float("nan")
        if not (np.isfinite(tol) and tol > 0):
            raise ArgumentError(f"Linearization.critical_values: tol: expected a positive number, got {tol!r}")

        def eig(x: float) -> tuple[np.ndarray, float]:
            """The eigenvalues and the norm of ``A`` (the scale of their rounding errors)."""
            A = self._numeric("A", _with(subs, parameter, x, "critical_values"), "critical_values")
            return np.linalg.eigvals(A), float(np.linalg.norm(A))

        samples = [eig(x) for x in vals]
        k = min(int(np.sum(np.abs(ev) <= 1e-9 * norm)) for ev, norm in samples)

        def growth(sample: tuple[np.ndarray, float]) -> tuple[float, int]:
            ev, norm = sample
            rest = ev[np.argsort(np.abs(ev))][k:]
            if not rest.size:
                return 0.0, 0
            g = float(np.max(np.real(rest)))
            return g, (0 if abs(g) <= 1e-12 * norm else (1 if g > 0 else -1))

        g = [growth(ev) for ev in samples]
        out: list[float] = []
        for (a, (ga, ca)), (b, (_gb, cb)) in pairwise(zip(vals.tolist(), g, strict=True)):
            if ca == cb:
                continue
            lo, hi = a, b
            while abs(hi - lo) > tol * max(1.0, abs(lo)):
                mid = (lo + hi) / 2
                if mid in (lo, hi):
                    break
                gm, cm = growth(eig(mid))
                below = (gm > 0) == (ga > 0) if ca and cb else cm == ca
                lo, hi = (mid, hi) if below else (lo, mid)
            x = (lo + hi) / 2
            if abs(x) <= 4 * tol * max(1.0, float(np.max(np.abs(vals)))):
                x = 0.0  # a crossing at 0 to within the bisection's resolution (the sleigh, a disc at Ω = 0)
            if not out or abs(x - out[-1]) > 2 * tol * max(1.0, abs(x)):
                out.append(x)
        return out

    def certified_critical_values(
        self, parameter: Any, interval: Any, subs: Mapping[Any, Any] | None = None, *, digits: int = 50
    ) -> list[CriticalValue]:
        r"""The values of ``parameter`` in ``interval`` where the stability of the reduced state changes, as
        certified algebraic numbers (:class:`CriticalValue`).

        With the other symbols at the exact values ``subs`` (floats are taken at their exact binary value; an
        irrational value such as ``pi/10`` is enclosed in intervals), the constant coefficient ``c_m(p)`` and the
        Hurwitz determinant ``Δ_{m−1}(p)`` of the reduced characteristic polynomial (:meth:`charpoly`, the
        structural zeros out) are polynomials in the parameter ``p`` when ``A`` is; their degrees are bounded
        from those of the entries of ``A``, and they are interpolated from ``A`` at rational nodes in exact (or
        rigorous interval) arithmetic. Their real roots in ``interval`` are isolated (sign change and a derivative
        of one sign, proved) and kept where the stability class (found at a point between consecutive roots)
        changes. ``.evalf(digits)`` refines one by exact bisection.

        Parameters
        ----------
        parameter : Symbol or str
            A symbol of ``A`` in which it is polynomial (a speed, a spin; not a mass that enters ``g⁻¹``).
        interval : (number, number)
            The range searched, ``lo < hi``.
        subs : mapping, optional
            Values of the other symbols of ``A``.
        digits : int, keyword only
            The digits the coefficients must support (the working precision of the intervals).

        Returns
        -------
        list of CriticalValue
            Sorted, each with its kind (``"real"``: an eigenvalue through 0; ``"complex"``: a pair through the
            imaginary axis) and the classes on either side.
        """
        what = "certified_critical_values"
        if not isinstance(parameter, sp.Symbol | str):
            raise ArgumentError(
                f"Linearization.{what}: parameter: expected a symbol or its name, got {parameter!r:.60}"
            )
        name = parameter.name if isinstance(parameter, sp.Symbol) else parameter
        _free, known = self._symbols("A")
        p = known.get(name)
        if p is None:
            raise ArgumentError(f"Linearization.{what}: parameter: {name} is not a symbol of the linearisation")
        if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= 10000:
            raise ArgumentError(f"Linearization.{what}: digits: expected an int in 1..10000, got {digits!r:.40}")
        try:
            lo, hi = (as_expr(x, name=f"Linearization.{what}: interval") for x in interval)
        except (TypeError, ValueError):
            raise ArgumentError(
                f"Linearization.{what}: interval: expected two numbers lo < hi, got {interval!r:.60}"
            ) from None
        if lo.free_symbols or hi.free_symbols or not (lo.is_real and hi.is_real and lo.is_finite and hi.is_finite):
            raise ArgumentError(f"Linearization.{what}: interval: expected two finite numbers, got {interval!r:.60}")

        def frac(x: sp.Expr) -> Fraction:
            q = sp.Rational(x) if (x.is_Rational or x.is_Float) else sp.Rational(sp.Float(x, 40))
            return Fraction(int(q.p), int(q.q))

        flo, fhi = frac(lo), frac(hi)
        if not flo < fhi:
            raise ArgumentError(f"Linearization.{what}: interval: expected lo < hi, got {interval!r:.60}")
        at = self._exact(subs, what, skip=p)
        with step(f"Linearization.{what}: c_m and Δ_(m−1) in {name}, their roots"):
            try:
                return critical_search(self._reduced_matrix(), p, flo, fhi, at, digits, self._deflate())
            except ZeroDivisionError as exc:
                raise ArgumentError(f"Linearization.{what}: A is not defined on the interval ({exc})") from None

    def stability_region(
        self, params: Mapping[Any, Any], subs: Mapping[Any, Any] | None = None, *, n: int = 121
    ) -> StabilityRegion:
        r"""The stability map over a box of two parameters: the exact boundary curves and the class of each cell.

        Parameters
        ----------
        params : mapping
            Two symbols of ``A`` (or names) to their ranges ``(lo, hi)``: ``{V: (0, 10), c: (0, 0.2)}``.
        subs : mapping, optional
            Exact values of the other symbols of ``A`` (floats at their binary value).
        n : int, keyword only
            Grid points along each side (the cells are found on the grid; ``3 ≤ n ≤ 2001``).

        Returns
        -------
        StabilityRegion
            ``curves``: the constant coefficient ``c_m`` and the Hurwitz determinant ``Δ_{m−1}`` of the reduced
            characteristic polynomial (structural zeros out) and the denominators of ``A`` (poles), exact in the
            two parameters; ``cells``: the connected cells of one sign pattern of the curves on the grid, each
            classified at a sample point on the exact (or enclosed) characteristic polynomial.
            :func:`frames.plot_stability_region` draws it.
        """
        what = "stability_region"
        if not isinstance(params, Mapping) or len(params) != 2:
            raise ArgumentError(f"Linearization.{what}: params: expected two symbols to (lo, hi), got {params!r:.60}")
        if isinstance(n, bool) or not isinstance(n, int) or not 3 <= n <= 2001:
            raise ArgumentError(f"Linearization.{what}: n: expected an int in 3..2001, got {n!r:.40}")
        _free, known = self._symbols("A")
        syms, box = [], []
        for k, rng in params.items():
            name = k.name if isinstance(k, sp.Symbol) else k if isinstance(k, str) else None
            sym = known.get(name) if name is not None else None
            if sym is None and isinstance(k, sp.Symbol):
                sym = k  # a new parameter: the values of subs are expressions in it (a trail that sets the geometry)
            if sym is None:
                raise ArgumentError(f"Linearization.{what}: params: {k!r} is not a symbol of the linearisation")
            try:
                lo, hi = (Fraction(float(x)) if not isinstance(x, int) else Fraction(x) for x in rng)
            except (TypeError, ValueError, OverflowError):
                raise ArgumentError(
                    f"Linearization.{what}: params[{name}]: expected (lo, hi), got {rng!r:.60}"
                ) from None
            if not lo < hi:
                raise ArgumentError(f"Linearization.{what}: params[{name}]: expected lo < hi, got {rng!r:.60}")
            syms.append(sym)
            box.append((lo, hi))
        at = self._exact(subs, what, skip=(syms[0], syms[1]), allow=frozenset(syms))
        with step(f"Linearization.{what}: the boundary curves and the cells"):
            try:
                return region_of(self._reduced_matrix(), (syms[0], syms[1]), tuple(box), at, self._deflate(), n)
            except ZeroDivisionError as exc:
                raise ArgumentError(f"Linearization.{what}: A is not defined in the box ({exc})") from None

    def __repr__(self) -> str:
        small = all(op_count(e, 200) <= 200 for e in self.A)
        A = self.A.tolist() if small else f"<{self.A.shape[0]}x{self.A.shape[1]} exact matrix>"
        extra = f", inputs={self.inputs}" if self.inputs else ""
        return f"Linearization(states={self.states}, removed={self.removed}{extra}, A={A})"


def linearize(
    system: NonholonomicSystem | ModelLike, at: Mapping[Any, Any], *, inputs: Sequence[Any] = ()
) -> Linearization:
    r"""Linearise the nonholonomic motion about ``at``, a point of C.

    Parameters
    ----------
    system : NonholonomicSystem or Model
        With or without forces (a model stands for :meth:`Model.nonholonomic`).
    at : mapping
        Every coordinate ``q`` to a value, and the velocities: either every natural velocity ``u`` (they must
        lie in D) or every independent quasi-velocity ``v^α`` of the system's frame (a Kane user's independent
        speeds; ``u = v^α X_α``). Keys are symbols or their names (a name that is both a velocity and a
        quasi-velocity means the velocity). Values are numbers or expressions in the parameters: a steady
        motion at speed ``V`` has ``u = V …``. Input symbols may be given their operating values (default 0).
    inputs : sequence of Symbol or str, optional (keyword only)
        Parameters of the forces that are inputs (a torque ``τ``): ``B = ∂ẋ/∂w`` has one column for each.

    Returns
    -------
    Linearization
        ``δẋ = A δx + B δw`` in the reduced state (the coordinates kept, then ``v^1..v^m``); ``A`` is exact.

    Notes
    -----
    The rates ``q̇^j = v^α X_α^j`` and ``Γ^α = g^{αβ} b_β`` must vanish at the point for the states kept (an
    equilibrium, or a steady motion once the ignorable coordinates are removed). Then
    ``∂Γ/∂x = g(p)⁻¹ ∂b/∂x (p)``. A coordinate is removed when neither the quasi-velocities' linearised
    equations nor those of the coordinates kept depend on it (to a fixed point) and the removed block is
    nilpotent, so that it only adds zero eigenvalues. A removed coordinate that moves at the point must not enter
    the equations of the states kept at all (else they change along the motion: not steady).

    For a time-dependent Lagrangian or forces ``t`` stays in ``A``: its eigenvalues at a value of ``t`` are those of
    the matrix frozen there, which in general decide nothing about a time-varying linearisation.

    Raises
    ------
    StateError
        If a coordinate or velocity is missing, or the point is not an equilibrium or a steady motion.
    ConstraintError
        If the natural velocities given are not in D.
    RegularityError
        If ``g_αβ`` is singular at the point.
    ArgumentError
        If ``at`` or ``inputs`` is malformed.

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
    nh = nonholonomic_of(system, "linearize: system")
    chart, F, m = nh.lagrangian.chart, nh.frame, nh.m
    if not isinstance(at, Mapping):
        raise ArgumentError(f"linearize: at: expected a mapping of the coordinates and velocities, got {at!r:.60}")
    ws = _inputs(nh, inputs)
    here = _point(nh, at, ws)
    vs = F.v[:m]
    with step("linearize: the equations in mass-matrix form"):
        g, b = nh.linear_system(canonical=False)
    kin = [sp.Add(*[vs[al] * F.matrix[al, j] for al in range(m)]) for j in range(F.dim)]
    rows = [*kin, *b]
    with step("linearize: the equations at the point"):
        gp = sp.Matrix(m, m, tree_subs(list(g), here))
        at_p = tree_subs(rows, here)
    for al in range(m):  # Γ(p) = g(p)⁻¹ b(p) vanishes iff b(p) does
        if not _vanishes(at_p[F.dim + al], f"b_{al + 1}"):
            raise StateError(
                f"linearize: at: not an equilibrium or a steady motion: b_{al + 1} = {_show(at_p[F.dim + al])} ≠ 0 "
                f"there, so {vs[al]} changes"
            )
    cols: dict[sp.Symbol, list[sp.Expr]] = {}
    with step("linearize: the Jacobian at the point"):
        # the states renamed: the point's values may contain their symbols (a family of steady motions in θ)
        dummy = {x: sp.Dummy(x.name) for x in here}
        rows_d = tree_subs(rows, dummy)
        here_d = {dummy[x]: val for x, val in here.items()}
        for x in (*chart.q, *vs, *ws):
            cols[x] = _column(rows_d, dummy[x], here_d)
    nz = {x: [not _vanishes(e, f"∂(rate)/∂{x}") for e in c] for x, c in cols.items()}
    # the coordinates kept: those the kept equations depend on, to a fixed point (the v̇ equations always are)
    index = {q: j for j, q in enumerate(chart.q)}
    keep: set[sp.Symbol] = set()
    while True:
        kept_rows = [*range(F.dim, F.dim + m), *(index[q] for q in keep)]
        new = {q for q in chart.q if any(nz[q][r] for r in kept_rows)}
        if new <= keep:
            break
        keep |= new
    removed = [q for q in chart.q if q not in keep]
    if removed and not _nilpotent([[cols[c][index[r]] for c in removed] for r in removed]):
        # the closure removed a coupled block (a trailer's hitch angle, on which the v̇ equations do not depend
        # at the point but which follows the heading): remove only what nothing depends on
        removed = [q for q in chart.q if not any(nz[q][r] for r in range(F.dim + m))]
        keep = set(chart.q) - set(removed)
    kept = [q for q in chart.q if q in keep]
    _steady_along_removed(rows, [*range(F.dim, F.dim + m), *(index[q] for q in kept)], removed, index, at_p)
    for q in kept:
        if not _vanishes(at_p[index[q]], f"the rate of {q}"):
            raise StateError(
                f"linearize: at: not an equilibrium or a steady motion: the rate of {q} is {_show(at_p[index[q]])} "
                f"there (the coordinates removed: {removed})"
            )
    states = (*kept, *vs)
    with step("linearize: the quasi-velocities' rows, g(p)⁻¹ ∂b/∂x"):
        db = sp.Matrix([[cols[x][F.dim + al] for x in (*states, *ws)] for al in range(m)])
        big = any(op_count(e, SOLVE_LIMIT) > SOLVE_LIMIT for e in (*gp, *db))
        try:
            sol = (solve_linear(gp, db, method="tree") if big else None) or solve_linear(gp, db)
        except (BudgetExceededError, UndecidedError):  # a spent budget or an undecided test is not a singular g
            raise
        except (ZeroDivisionError, RegularityError, ValueError) as exc:
            raise RegularityError(
                f"linearize: at: g_αβ = X_α^V X_β^V L is singular at the point ({exc}); the field is not defined there"
            ) from None
    k = len(states)
    A = [[cols[x][index[r]] for x in states] for r in kept] + [list(sol.row(al)[:k]) for al in range(m)]
    B = [[sp.S.Zero] * len(ws) for _ in kept] + [list(sol.row(al)[k:]) for al in range(m)]
    return Linearization(
        nh,
        states,
        tuple(here[x] for x in states),
        sp.ImmutableMatrix(len(states), len(states), [_final(e) for r in A for e in r]),
        tuple(removed),
        ws,
        sp.ImmutableMatrix(len(states), len(ws), [_final(e) for r in B for e in r]) if ws else None,
    )


def _follow(prev: np.ndarray, new: np.ndarray) -> np.ndarray:
    """``new`` reordered so that entry ``k`` is the one nearest to ``prev[k]`` (greedy on the nearest pairs)."""
    d = np.abs(prev[:, None] - new[None, :])
    order = np.argsort(d, axis=None, kind="stable")
    out = np.empty_like(new)
    used_p: set[int] = set()
    used_n: set[int] = set()
    for flat in order:
        i, j = divmod(int(flat), len(new))
        if i in used_p or j in used_n:
            continue
        out[i] = new[j]
        used_p.add(i)
        used_n.add(j)
        if len(used_p) == len(new):
            break
    return out


def _samples(values: Any, what: str, least: int) -> np.ndarray:
    """``values`` as a finite 1-d float array of at least ``least`` entries, or an error naming it."""
    try:
        vals = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        vals = np.array([np.nan])
    if vals.ndim != 1 or vals.size < least or not np.all(np.isfinite(vals)):
        raise ArgumentError(
            f"Linearization.{what}: values: expected a finite 1-d sequence of {least} or more numbers, "
            f"got {values!r:.60}"
        )
    return vals


def _with(subs: Mapping[Any, Any] | None, parameter: Any, x: float, what: str) -> dict[Any, Any]:
    """``subs`` with ``parameter`` (a symbol or its name) set to ``x``."""
    if not isinstance(parameter, sp.Symbol | str):
        raise ArgumentError(f"Linearization.{what}: parameter: expected a symbol or its name, got {parameter!r:.60}")
    if subs is not None and not isinstance(subs, Mapping):
        raise ArgumentError(f"Linearization.{what}: subs: expected a mapping name -> number, got {subs!r:.60}")
    name = parameter.name if isinstance(parameter, sp.Symbol) else parameter
    rest = {k: v for k, v in (subs or {}).items() if (k.name if isinstance(k, sp.Symbol) else str(k)) != name}
    return rest | {name: float(x)}


def _vanishes(e: sp.Expr, what: str) -> bool:
    """``is_zero(e)`` for a value at the point; undecided (floats in the point) is the point's fault."""
    try:
        return is_zero(e)
    except UndecidedError:
        raise StateError(
            f"linearize: at: cannot decide whether {what} vanishes at the point; give the point exactly (integers, "
            "rationals, symbols or exact constants such as pi, not floats)"
        ) from None


def _depends(rows: Sequence[sp.Expr], syms: set[sp.Symbol]) -> list[set[sp.Symbol]]:
    """The symbols of ``syms`` each row contains, every distinct node of the trees visited once."""
    memo: dict[sp.Basic, frozenset[sp.Symbol]] = {}

    def walk(e: sp.Basic) -> frozenset[sp.Symbol]:
        hit = memo.get(e)
        if hit is None:
            hit = frozenset({e} & syms) if not e.args else frozenset().union(*(walk(a) for a in e.args))
            memo[e] = hit
        return hit

    return [set(walk(sp.sympify(r, strict=True))) for r in rows]


def _steady_along_removed(
    rows: Sequence[sp.Expr], kept_rows: Sequence[int], removed: Sequence[sp.Symbol], index: Mapping[Any, int],
    at_p: Sequence[sp.Expr],
) -> None:  # fmt: skip
    """A removed coordinate that moves at the point (its rate is not zero there, or depends on one that moves)
    must not enter the kept equations at all: otherwise they change along the motion and it is not steady."""
    deps = _depends(rows, set(removed))
    moving = {q for q in removed if not _vanishes(at_p[index[q]], f"the rate of {q}")}
    while True:
        more = {q for q in removed if q not in moving and deps[index[q]] & moving}
        if not more:
            break
        moving |= more
    for q in sorted(moving, key=str):
        entering = [r for r in kept_rows if q in deps[r]]
        if not entering:
            continue
        with step(f"linearize: the kept equations do not depend on the moving {q}"):
            d = tree_derivative([rows[r] for r in entering], {q: 1})
        if not all(_vanishes_identically(e, f"∂/∂{q} of the kept equations") for e in d):
            raise StateError(
                f"linearize: at: not a steady motion: {q} moves there (it is removed: the linearised equations of the "
                f"states kept do not depend on it at the point) but the equations of the states kept depend on it, "
                "so they change along the motion"
            )


#: seconds of the exact zero test of a derivative of the kept equations (:func:`_vanishes_identically`)
STEADY_SECONDS = 5.0


def _vanishes_identically(e: sp.Expr, what: str) -> bool:
    """Whether ``e`` (a function of the states and the parameters) vanishes identically.

    A value far from 0 at a generic rational point (30 digits, :func:`~frames.algebra.internal.visibly_nonzero`)
    proves it does not. Otherwise the exact test decides
    within :data:`STEADY_SECONDS`; past that (a bicycle's trees in 27 parameters, whose canonical form does not fit in
    memory) the answer rests on the values at two generic rational points, both 0 to 30 digits."""
    if visibly_nonzero(sp.sympify(e, strict=True), above=1e-20):
        return False
    return attempt(STEADY_SECONDS, lambda: _vanishes(e, what), True)


def _final(e: sp.Expr) -> sp.Expr:
    return tidy(e) if op_count(e, TIDY_LIMIT) <= TIDY_LIMIT else e


def _show(e: sp.Expr) -> Any:
    return tidy(e) if op_count(e, 200) <= 200 else f"<an expression of {op_count(e)} operations>"


def _column(rows: Sequence[sp.Expr], x: sp.Symbol, here: Mapping[Any, Any]) -> list[sp.Expr]:
    """``∂rows/∂x`` at the point: every other variable substituted first, then the derivative along ``x``."""
    rest = {k: v for k, v in here.items() if k != x}
    return tree_subs(tree_derivative(tree_subs(rows, rest), {x: 1}), {x: here[x]})


def _nilpotent(block: list[list[sp.Expr]]) -> bool:
    """``N^k = 0`` (exactly) for the ``k × k`` block ``N``."""
    N = sp.Matrix(block)
    P = N
    for _ in range(1, N.rows):
        P = (P * N).applyfunc(lambda e: sp.S.Zero if is_zero(e) else e)
    return all(is_zero(e) for e in P)


def _inputs(nh: NonholonomicSystem, inputs: Any) -> tuple[sp.Symbol, ...]:
    if isinstance(inputs, (str, sp.Basic)) or not isinstance(inputs, Sequence):
        raise ArgumentError(f"linearize: inputs: expected a sequence of symbols or names, got {inputs!r:.60}")
    chart = nh.lagrangian.chart
    byname = {s.name: s for f in (nh.forces or ()) for s in sp.sympify(f, strict=True).free_symbols}
    taken = {s.name for s in (*chart.q, *chart.u, *nh.frame.v, *([chart.t] if chart.t is not None else []))}
    out = []
    for w in inputs:
        name = w.name if isinstance(w, sp.Symbol) else w if isinstance(w, str) else None
        if name is None or name not in byname or name in taken:
            raise ArgumentError(f"linearize: inputs: {w!r} is not a parameter of the system's forces")
        out.append(byname[name])
    if len(set(out)) != len(out):
        raise ArgumentError(f"linearize: inputs: {list(inputs)} repeats an input")
    return tuple(out)


def _quasi_velocities_at(F: Any, here: Mapping[sp.Symbol, sp.Expr], u: Sequence[sp.Expr]) -> list[sp.Expr]:
    """Every ``θ^i(u)`` at the point: ``X(p)ᵀ v = u`` solved at the point (the frame's matrix there, exact),
    not the coframe as functions of ``q`` (its inverse in closed form, costly for a long chain of trailers)."""
    if F.__dict__.get("v_in_u") is not None:  # already known: one substitution
        return tree_subs(list(F.v_in_u), dict(here) | dict(zip(F.chart.u, u, strict=True)))
    Xp = sp.Matrix(F.dim, F.dim, tree_subs(list(F.matrix), dict(here)))
    try:
        sol = solve_linear(Xp.T, sp.Matrix(list(u)))
    except (BudgetExceededError, UndecidedError):
        raise
    except (ZeroDivisionError, RegularityError, ValueError) as exc:
        raise StateError(
            f"linearize: at: the frame is singular at the point ({exc}); give the quasi-velocities"
        ) from None
    return [tidy(e) for e in sol]


def _point(nh: NonholonomicSystem, at: Mapping[Any, Any], ws: Sequence[sp.Symbol]) -> dict[sp.Symbol, sp.Expr]:
    """The point as values of ``q``, the independent ``v^α`` and the inputs (0 unless given)."""
    chart, F, m = nh.lagrangian.chart, nh.frame, nh.m
    byname: dict[str, Any] = {}
    for key, given in at.items():
        name = key.name if isinstance(key, sp.Symbol) else key if isinstance(key, str) else None
        if name is None:
            raise ArgumentError(f"linearize: at: {key!r} is not a symbol or a name")
        if name in byname:
            raise ArgumentError(f"linearize: at: {name} is given twice")
        byname[name] = given
    unames = {s.name for s in chart.u}
    vnames = {s.name for s in F.v[:m]} - unames
    known = {s.name for s in (*chart.q, *chart.u, *ws)} | vnames
    unknown = sorted(set(byname) - known)
    if unknown:
        raise ArgumentError(f"linearize: at: {unknown} are not coordinates, velocities or inputs of the system")
    by_v = bool(vnames & set(byname))
    if by_v and unames & set(byname):
        raise ArgumentError("linearize: at: give the natural velocities or the independent quasi-velocities, not both")
    need = [s.name for s in (*chart.q, *(F.v[:m] if by_v else chart.u))]
    missing = [s for s in need if s not in byname]
    if missing:
        raise StateError(f"linearize: at: missing values for {missing}")

    def val(name: str) -> sp.Expr:
        return as_expr(byname[name], name=f"linearize: at[{name}]")

    here: dict[sp.Symbol, sp.Expr] = {q: val(q.name) for q in chart.q}
    if by_v:
        here |= {v: val(v.name) for v in F.v[:m]}
    else:
        upt = {u: val(u.name) for u in chart.u}
        v_at = _quasi_velocities_at(F, here, [upt[u] for u in chart.u])
        for a in range(m, F.dim):
            if not _vanishes(v_at[a], f"θ^{a + 1}(u)"):
                raise ConstraintError(f"linearize: at: the velocities are not in D: θ^{a + 1}(u) = {_show(v_at[a])}")
        here |= {F.v[al]: _final(v_at[al]) for al in range(m)}
    here |= {w: (val(w.name) if w.name in byname else sp.S.Zero) for w in ws}
    return here
