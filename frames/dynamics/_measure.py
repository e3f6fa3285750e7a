r"""Invariant measures of nonholonomic systems with a basic density ``N(q)``.

The nonholonomic field lives on ``C = {v^a = 0}`` with coordinates ``(q^1..q^n, v^1..v^m)``
(the chart and the first ``m`` quasi-velocities of the adapted frame):

.. math::

    \dot q^j = v^α X_α^j(q), \qquad \dot v^α = Γ^α(q, v).

**Volume convention.** Densities are relative to ``μ = dq^1 ∧ … ∧ dq^n ∧ dv^1 ∧ … ∧ dv^m`` on C.
``N μ`` is invariant iff ``div(N Γ) = Γ(N) + N div Γ = 0`` with the coordinate divergence

.. math::

    \operatorname{div} Γ = Σ_j ∂_{q^j}(v^α X_α^j) + Σ_α ∂Γ^α/∂v^α
                      = v^α \operatorname{div}_0 X_α + Σ_α ∂Γ^α/∂v^α,

``div_0 X = Σ_j ∂_j X^j``. Relative to ``dq ∧ dp_α`` (``p_α = ∂L_c/∂v^α = X_α^V L`` on C, the
convention of Crampin–Mestdag §7.1 and of Bloch–Fernandez–Mestdag) the density is
``N / det(g_αβ)``, ``g_αβ = X_α^V X_β^V L`` (:attr:`InvariantMeasure.density_momenta`). In another
adapted frame ``Y_α = A_α^β X_β`` it is multiplied by ``det(A_α^β)``.

**The basic ansatz.** For ``N = e^f`` with ``f(q)``, ``Γ(f) = v^α X_α(f)`` is linear and homogeneous
in ``v``, so ``div Γ`` must be ``c_α(q) v^α`` (true for natural Lagrangians ``½ g(u, u) + ⟨Z, u⟩ −
V``: gyroscopic terms have zero trace) and

.. math::

    X_α(f) = −c_α, \qquad α = 1..m.

Writing ``w_i = X_i(f)`` (``w_α = −c_α`` known, ``w_a`` unknown), ``df = w_i θ^i`` is closed iff

.. math::

    X_i(w_j) − X_j(w_i) − R^k_{ij} w_k = 0 .

For ``i, j = α, β`` these equations are *algebraic* in the unknown ``w_a``
(``R^a_{αβ} w_a = X_α(w_β) − X_β(w_α) − R^γ_{αβ} w_γ``): their solvability conditions are
obstructions, and where they fix every ``w_a`` (the first step of the bracket flag fills TQ) the
remaining equations decide existence. This is the coordinate form of the criterion of
Fedorov–García-Naranjo–Marrero (2015): a basic invariant volume exists iff the 1-form defined on
D by the divergence extends to an exact 1-form on Q. ``f`` itself is found exactly, never with an
unbounded ``integrate``: an ansatz ``f = Σ e_k log P_k + Σ d_m M_m`` over the irreducible factors
``P_k`` of the data (``c_α``, the frame, ``det g_αβ``) and low-degree monomials ``M_m`` gives a
linear system for ``e_k, d_m`` (coefficients collected modulo ``sin² + cos² = 1``); a closed
rational 1-form is also integrated by ``sympy.integrals.rationaltools.ratint``.

**Large systems.** When the ``c_α`` are large (more than :data:`POINTWISE_TERMS` terms), the
symbolic ``w_a`` and their derivatives grow beyond use; the two steps are then first decided at
generic points of the ring (sin/cos pairs on the unit circle, every other generator an independent
rational): the values, gradients and Hessians of the data give ``w_a`` and ``∂w_a`` there by a
rational linear solve, and a nonzero residual or ``dω(X_i, X_j)`` at the point proves that no basic
density exists (evaluation is a ring homomorphism). The obstructions are then those numbers, labelled
"at the generic point", and :attr:`InvariantMeasure.witness_point` gives the point, so that the
symbolic function, if a user forms it, can be checked against them. A zero value proves nothing:
the symbolic steps run.

>>> import frames as fr
>>> res = invariant_measure(fr.models.nonholonomic_particle().nonholonomic())
>>> res.exists, res.density, res.density_momenta
(True, sqrt(q1**2 + 1), 1/sqrt(q1**2 + 1))
>>> res.check()
True
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import field
from typing import Any

import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.integrals.rationaltools import ratint
from sympy.polys.polyerrors import BasePolynomialError

from .._value import Record, latex_of
from ..algebra import RationalFunctions, derivative, expect, harmonic_form, is_zero, op_count, step, tidy
from ..algebra.internal import (
    UnsupportedExpression,
    _brief,
    _depends,
    _ExprAlgebra,
    _norm,
    _RationalAlgebra,
    as_flag,
    budgeted,
    canon,
    checkpoint,
    entries,
    tree_values,
    trig_normal,
)
from ..errors import ArgumentError, BudgetExceededError, ConstraintError, FramesError
from ..geometry import VectorField
from ._checks import check_flag_choice
from ._measure_flag import _flag_steps, _pointwise_flag
from ._measure_linear import _in_ratfunc, _linear_rows_ratfunc, _rref_solve, _sampled_solve
from ._measure_pointwise import analyse_pointwise
from ._nonholonomic import NonholonomicSystem

__all__ = ["ANSATZE", "InvariantMeasure", "invariant_measure"]

#: The ansätze :func:`invariant_measure` knows: ``"basic"`` is a density ``N(q)`` on Q.
ANSATZE = ("basic",)

#: Most unknown coefficients in the exact ansatz for ``log N`` (factors and monomials).
MAX_UNKNOWNS = 60
#: numerators of the data with more operations than this give no candidate factors to the ansatz (factoring
#: a numerator of thousands of terms takes minutes; the poles of log N's derivative are the denominators')
FACTOR_NUMERATOR_OPS = 2000
#: the same bound in terms of the ring: numerators with more terms give no candidate factors
FACTOR_NUMERATOR_TERMS = 300


def _apply(X: VectorField, f: sp.Expr) -> sp.Expr:
    """``X(f) = X^j ∂_j f`` (internal: no argument check, Dummy symbols allowed)."""
    return sp.Add(*[c * derivative(f, x) for c, x in zip(X.components, X.chart.q, strict=True) if c != 0])


class InvariantMeasure(Record):
    r"""Outcome of :func:`invariant_measure`: a density ``N(q)``, or why there is none.

    Attributes
    ----------
    exists : bool or None
        True: an invariant measure ``N μ`` with ``N(q)`` exists (at least locally); False: proved
        that none exists, for generic values of the parameters (``obstruction`` lists the functions
        that would have to vanish); None: undecided (``reason`` says why).
    density : Expr or None
        ``N(q)`` relative to ``volume``, up to a constant factor; None when none exists or when
        existence is proved but no closed form was found (``log_form`` then gives ``d log N``).
    volume : str
        The reference volume ``dq^1∧…∧dq^n∧dv^1∧…∧dv^m`` on C.
    obstruction : tuple of Expr
        Functions on Q (or on C) that vanish when a basic density exists; nonzero here.
    obstruction_labels : tuple of str
        What each obstruction is, e.g. ``"dω(X1, X3)"``.
    reason : str
        What was proved and how, in words.
    ansatz : str
        The ansatz (``"basic"``: ``N`` depends on q only).
    divergence : Expr or None
        ``div Γ`` with respect to ``volume``.
    coefficients : tuple of Expr
        ``c_α`` with ``div Γ = c_α v^α`` (empty when div Γ is not of that form).
    log_form : tuple of Expr or None
        Components ``ω_j`` of ``d log N = ω_j dq^j`` when they are determined.
    hessian_determinant : Expr or None
        ``det(g_αβ)``, ``g_αβ = X_α^V X_β^V L`` on C (``dq∧dp = det(g) dq∧dv``, ``p_α = X_α^V L``).
    witness_point : tuple of (Expr, Rational)
        For a large system, the generic point at which the obstructions labelled "at the generic
        point" were evaluated: ``sin θ``, ``cos θ`` (on the unit circle), ``θ``, parameters … as
        independent values. ``f.xreplace(dict(witness_point))`` of the symbolic obstruction gives the
        printed number, a certificate that it is not identically zero. Empty otherwise.
    system : NonholonomicSystem or None
        The system (not compared; used by :meth:`check`).
    """

    exists: bool | None
    density: sp.Expr | None = None
    volume: str = ""
    obstruction: tuple[sp.Expr, ...] = ()
    obstruction_labels: tuple[str, ...] = ()
    reason: str = ""
    ansatz: str = "basic"
    divergence: sp.Expr | None = None
    coefficients: tuple[sp.Expr, ...] = ()
    log_form: tuple[sp.Expr, ...] | None = None
    hessian_determinant: sp.Expr | None = None
    witness_point: tuple[tuple[sp.Expr, sp.Expr], ...] = ()
    system: NonholonomicSystem | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        what = "InvariantMeasure"
        if not (self.exists is None or isinstance(self.exists, bool)):
            raise ArgumentError(f"{what}: exists: expected True, False or None, got {self.exists!r}")
        for name in ("density", "divergence", "hessian_determinant"):
            x = getattr(self, name)
            if x is not None and not isinstance(x, sp.Expr):
                raise ArgumentError(f"{what}: {name}: expected a sympy expression or None, got {x!r}")
        if self.exists is not True and self.density is not None:
            raise ArgumentError(f"{what}: density: given although exists = {self.exists}")
        for name in ("volume", "reason", "ansatz"):
            if not isinstance(getattr(self, name), str):
                raise ArgumentError(f"{what}: {name}: expected a str, got {getattr(self, name)!r}")
        for name in ("obstruction", "coefficients", "log_form"):
            xs = getattr(self, name)
            if xs is None and name == "log_form":
                continue
            if not isinstance(xs, tuple | list) or not all(isinstance(x, sp.Expr) for x in xs):
                raise ArgumentError(f"{what}: {name}: expected a tuple of sympy expressions, got {xs!r}")
            setattr(self, name, tuple(xs))
        if self.exists is False and not self.obstruction:
            raise ArgumentError(f"{what}: obstruction: exists = False needs the obstruction")
        labels = self.obstruction_labels
        if not isinstance(labels, tuple | list) or not all(isinstance(x, str) for x in labels):
            raise ArgumentError(f"{what}: obstruction_labels: expected a tuple of str, got {labels!r}")
        if labels and len(labels) != len(self.obstruction):
            raise ArgumentError(
                f"{what}: obstruction_labels: {len(labels)} labels for {len(self.obstruction)} obstructions"
            )
        self.obstruction_labels = tuple(labels)
        wp = self.witness_point
        if not isinstance(wp, tuple | list) or not all(
            isinstance(x, tuple) and len(x) == 2 and all(isinstance(y, sp.Expr) for y in x) for x in wp
        ):
            raise ArgumentError(f"{what}: witness_point: expected (expression, value) pairs, got {wp!r}")
        self.witness_point = tuple(wp)
        if self.system is not None:
            expect(self.system, NonholonomicSystem, name=f"{what}: system")

    # ------------------------------------------------------------ display
    def __repr__(self) -> str:
        if self.exists:
            body = f"N = {self.density}" if self.density is not None else "N = exp(∫ω), no closed form"
        elif self.exists is False:
            body = f"obstruction = {self.obstruction}"
        else:
            body = "undecided"
        return f"InvariantMeasure(exists={self.exists}, {body}, w.r.t. {self.volume})"

    def _latex_rows(self) -> list[tuple[str, str]]:
        rows = [(r"\text{exists}", latex_of(self.exists))]
        if self.density is not None:
            rows.append(("N", sp.latex(self.density)))
        rows.append((r"\text{volume}", self._volume_latex()))
        if self.divergence is not None:
            rows.append((r"\operatorname{div}\Gamma", sp.latex(self.divergence)))
        rows += [(rf"\text{{obstruction {k + 1}}}", sp.latex(e)) for k, e in enumerate(self.obstruction)]
        return rows

    def _volume_latex(self) -> str:
        if self.system is None:
            txt = self.volume.replace("\\", "").replace("_", r"\_").replace("{", r"\{").replace("}", r"\}")
            return rf"\text{{{txt}}}"
        nh = self.system
        F = nh.frame
        coords = [*F.chart.q, *F.v[: nh.m]]
        cons = ", ".join(f"{sp.latex(F.v[a])} = 0" for a in nh.a)
        return r" \wedge ".join(f"d{sp.latex(x)}" for x in coords) + rf" \text{{ on }} C = \{{{cons}\}}"

    def _labels(self) -> tuple[str, ...]:
        return self.obstruction_labels or tuple(f"obstruction {k + 1}" for k in range(len(self.obstruction)))

    # ------------------------------------------------------------ derived
    @property
    def density_momenta(self) -> sp.Expr | None:
        r"""The density relative to ``dq ∧ dp_α``: ``N / det(g_αβ)`` (Crampin–Mestdag §7.1)."""
        if self.density is None or self.hessian_determinant is None:
            return None
        return self.density / _factored(self.hessian_determinant)  # type: ignore[no-any-return]

    def report_items(self) -> tuple[tuple[str, str, Any], ...]:
        """Plain rows for a report: ``(kind, label, value)`` with kind ``verdict``, ``equation`` or ``text``."""
        rows: list[tuple[str, str, Any]] = [("verdict", "invariant measure N(q) exists", self.exists)]
        if self.divergence is not None:
            rows.append(("equation", "div Γ", self.divergence))
        if self.density is not None:
            rows.append(("equation", "N (w.r.t. dq∧dv)", self.density))
            if self.density_momenta is not None:
                rows.append(("equation", "N (w.r.t. dq∧dp)", self.density_momenta))
        rows += [("equation", lab, e) for lab, e in zip(self._labels(), self.obstruction, strict=True)]
        rows.append(("text", "volume", self.volume))
        rows.append(("text", "reason", self.reason))
        return tuple(rows)

    def check(self) -> bool:
        r"""Verify ``div(N Γ) = N (Γ(log N) + div Γ) = 0`` on C symbolically.

        ``div Γ`` is recomputed from the field; ``Γ(log N) + div Γ`` (a rational function after
        ``log`` of the product ``N`` is expanded) gets an exact zero test.

        Raises
        ------
        FramesError
            If there is no density (or no system) to check.
        """
        if self.density is None or self.system is None:
            raise FramesError(f"InvariantMeasure.check: no density to verify (exists = {self.exists}): {self.reason}")
        nh = self.system
        G = nh.field(canonical=True)
        log_N = sp.expand_log(sp.log(self.density), force=True)  # N = Π P_k^{e_k} e^h: Σ e_k log P_k + h
        return is_zero(_norm(G(log_N) + _divergence(nh)))


# -------------------------------------------------------------------- pieces
def _factored(e: sp.Expr) -> sp.Expr:
    """``e`` as a product of its irreducible factors (so powers of a factor combine with N's)."""
    try:
        coeff, fl = sp.factor_list(sp.together(e))
    except (sp.PolynomialError, NotImplementedError):  # pragma: no cover - exotic input
        return e
    return sp.Mul(coeff, *[f**k for f, k in fl])


def _divergence(nh: NonholonomicSystem) -> sp.Expr:
    r"""``div Γ = Σ_j ∂_{q^j}(v^α X_α^j) + Σ_α ∂Γ^α/∂v^α`` in the coordinates ``(q, v^α)`` of C."""
    F = nh.frame
    q = F.chart.q
    G = nh.field(canonical=True)
    v = F.v[: nh.m]
    frame_part = [v[al] * derivative(F.matrix[al, j], q[j]) for al in range(nh.m) for j in range(nh.n)]
    try:  # ∂Γ^α/∂v^α in the ring (the quotient rule on numerator and denominator, one cancellation)
        ctx = RationalFunctions([*frame_part, *G.Gamma[: nh.m]], exp=True)
        total = ctx.from_expr(sp.Add(*frame_part))
        parts: dict[Any, Any] = {total.denom: total.numer}  # denominator -> numerator (shared denominators added)
        for al in range(nh.m):
            f = ctx.from_expr(G.Gamma[al])
            gen = ctx.generator(v[al])
            if gen is None:
                continue
            dd = f.denom.diff(gen)
            # Γ^α = N/D with D free of v (the Hessian's determinant): ∂_v Γ^α = ∂_v N / D, over the shared D
            key, dn = (
                (f.denom, f.numer.diff(gen)) if not dd else (f.denom**2, f.numer.diff(gen) * f.denom - f.numer * dd)
            )
            if dn:
                parts[key] = parts.get(key, ctx.ring.zero) + dn
        return ctx.to_expr(ctx.normal_sum(parts))
    except (UnsupportedExpression, BasePolynomialError):
        pass
    e = sp.Add(*frame_part) + sp.Add(*[derivative(G.Gamma[al], v[al]) for al in range(nh.m)])
    return _norm(e)


def _velocity_jet(div: sp.Expr, v: Sequence[sp.Symbol]) -> tuple[sp.Expr, list[sp.Expr], list[list[sp.Expr]]]:
    r"""``div`` at ``v = 0``, its first derivatives ``∂div/∂v^α`` and its second ones ``∂²div/∂v^α∂v^β``, normalised.

    In the ring when the denominator ``D`` of ``div = N/D`` is free of ``v`` (the Hessian's determinant: the
    usual case): only ``N`` is differentiated or evaluated, and each result cancelled once over ``D``
    (sympy's ``diff`` of a large quotient builds the quotient rule's tree first). Otherwise by ``diff``.
    """
    try:
        ctx = RationalFunctions([div, *v], exp=True)
        f = ctx.from_expr(div)
        gens = [ctx.generator(x) for x in v]
        if any(f.denom.diff(g) for g in gens if g is not None):
            raise UnsupportedExpression("the denominator depends on v")
    except (UnsupportedExpression, BasePolynomialError):
        c = [_norm(derivative(div, x)) for x in v]
        return _norm(div.xreplace(dict.fromkeys(v, 0))), c, [[_norm(derivative(ca, y)) for y in v] for ca in c]
    zero = ctx.ring.zero

    def over_d(num: Any) -> sp.Expr:
        return ctx.normal_sum_expr({f.denom: num}) if num else sp.S.Zero

    def d(num: Any, g: Any) -> Any:
        return num.diff(g) if g is not None and num else zero

    index = [ctx.ring.gens.index(g) for g in gens if g is not None]
    at0 = ctx.ring.from_dict({mon: k for mon, k in f.numer.items() if not any(mon[i] for i in index)})
    first = [d(f.numer, g) for g in gens]
    return over_d(at0), [over_d(p) for p in first], [[over_d(d(p, g)) for g in gens] for p in first]


def _volume(nh: NonholonomicSystem) -> str:
    F = nh.frame
    coords = list(F.chart.q) + list(F.v[: nh.m])
    cons = ", ".join(f"{F.v[a]} = 0" for a in nh.a)
    return "∧".join(f"d{x}" for x in coords) + f" on C = {{{cons}}}"


def _candidate_factors(exprs: list[sp.Expr], q: tuple[sp.Symbol, ...]) -> list[sp.Expr]:
    """Irreducible q-dependent factors of the numerators and denominators of ``exprs`` (up to sign)."""
    out: list[sp.Expr] = []
    for e in exprs:
        checkpoint()
        if not _depends(e, q):
            continue
        for f in _factors(e, q):
            if _depends(f, q) and _depends(trig_normal(f), q) and not any(f == g or is_zero(f + g) for g in out):
                out.append(f)
    for a in sorted({x.args[0] for e in exprs for x in e.atoms(sp.sin, sp.cos)}, key=sp.default_sort_key):
        if _depends(a, q):
            for f in (sp.sin(a), sp.cos(a)):
                if f not in out:
                    out.append(f)
    return out


def _factors(e: sp.Expr, q: tuple[sp.Symbol, ...]) -> list[sp.Expr]:
    """The irreducible factors of the numerator and denominator of ``e``: in the ring (FLINT's factoring when
    installed), else by sympy. A large numerator is not factored (minutes); denominators always are."""
    try:
        ctx = RationalFunctions([e])
        f = ctx.normal(ctx.from_expr(e))
    except UnsupportedExpression:
        parts = sp.fraction(sp.together(e))
        out = []
        for k, part in enumerate(parts):
            if not _depends(part, q) or (k == 0 and op_count(part, FACTOR_NUMERATOR_OPS) > FACTOR_NUMERATOR_OPS):
                continue
            try:
                out += [g for g, _k in sp.factor_list(part)[1]]
            except (sp.PolynomialError, NotImplementedError):
                continue
        return out
    return [
        ctx.to_expr(g)
        for k, part in enumerate((f.numer, f.denom))
        if not part.is_ground and (k == 1 or len(part) <= FACTOR_NUMERATOR_TERMS)
        for g, _k in ctx.factor_list(part)[1]
    ]


def _real_base(P: sp.Expr, e: sp.Expr) -> sp.Expr:
    """``P``, or ``−P`` when ``P**e`` is a root (``e`` not an integer) and ``P`` is negative at a point where every
    symbol is positive: the density is fixed up to a constant factor, and ``(−P)**e`` is then real there."""
    if e.is_Integer or not P.free_symbols:
        return P
    syms = sorted(P.free_symbols, key=sp.default_sort_key)
    try:
        (value,) = tree_values([P], {s: sp.Rational(k + 11, 7) for k, s in enumerate(syms)})
    except ValueError:
        return P
    return -P if value.imag == 0 and value.real < 0 else P


def _monomials(exprs: list[sp.Expr], q: tuple[sp.Symbol, ...]) -> list[sp.Expr]:
    """``q_j``, ``q_i q_j`` for the non-angular ``q``, ``sin a``, ``cos a`` for the trig arguments."""
    args = sorted(
        {x.args[0] for e in exprs for x in e.atoms(sp.sin, sp.cos) if _depends(x, q)}, key=sp.default_sort_key
    )
    angles = {s for a in args for s in a.free_symbols}
    plain = [x for x in q if x not in angles]
    out: list[sp.Expr] = list(q)
    out += [a * b for a, b in itertools.combinations_with_replacement(plain, 2)]
    out += [f(a) for a in args for f in (sp.sin, sp.cos)]
    return out


def _ansatz(
    nh: NonholonomicSystem, c: list[sp.Expr], data: list[sp.Expr], sampled_only: bool = False
) -> tuple[sp.Expr, sp.Expr, list[sp.Expr]] | str:
    r"""Solve ``X_α(f) = −c_α`` with ``f = Σ e_k log P_k + Σ d_m M_m``; ``(N, f, homogeneous f's)`` or why not.

    ``sampled_only``: only from samples (:func:`_sampled_solve`), without the coefficient table."""
    F = nh.frame
    q = F.chart.q
    X = F.fields[: nh.m]
    not_rational = "the data are not rational functions of q, sin/cos of q and undefined functions"
    try:  # the c_α are the equations' constant terms: outside the field, no table exists (before any factoring)
        RationalFunctions(list(c))
    except UnsupportedExpression:
        return not_rational
    factors = _candidate_factors(data, q)
    monos = _monomials(data, q)
    if len(factors) + len(monos) > MAX_UNKNOWNS:
        monos = monos[: max(0, MAX_UNKNOWNS - len(factors))]
        factors = factors[:MAX_UNKNOWNS]
    basis = [sp.log(P) for P in factors] + monos
    terms = [
        [c[al]] + [_apply(X[al], P) / P for P in factors] + [_apply(X[al], M) for M in monos] for al in range(nh.m)
    ]
    field = _in_ratfunc(terms, q)
    if field is None:
        return not_rational
    sampled = _sampled_solve(field, len(basis))
    if sampled is True and sampled_only:
        return _UNDECIDED[0]
    if sampled is True:  # undecided from samples: the coefficient table of every monomial
        table = _linear_rows_ratfunc(field, q)
        if table is None:  # pragma: no cover - the terms are in the field
            return not_rational
        solved = _rref_solve(table, len(basis))
    else:
        solved = sampled if sampled is not False else None
    if solved is None:
        return (
            f"no log N = Σ e_k log P_k + Σ d_m M_m solves X_α(log N) = −c_α, with P_k in "
            f"[{', '.join(_brief(harmonic_form(P)) for P in factors)}] and M_m in {monos}"
        )
    x, null = solved
    x = [canon(v) for v in x]
    f = sp.Add(*[v * b for v, b in zip(x[: len(factors)], basis, strict=False)])
    h = sp.factor_terms(canon(sp.Add(*[v * M for v, M in zip(x[len(factors) :], monos, strict=True)])))
    N = sp.Mul(*[_real_base(P, v) ** v for v, P in zip(x, factors, strict=False)]) * sp.exp(h)
    homog = []
    for z in null:
        fz = sp.Add(*[canon(v) * b for v, b in zip(z, basis, strict=True)])
        if not all(is_zero(derivative(fz, y)) for y in q):
            homog.append(fz)
    return N, f + h, homog


def _ratint_primitive(omega: list[sp.Expr], q: tuple[sp.Symbol, ...]) -> sp.Expr | None:
    """A primitive of the closed rational 1-form ``ω_j dq^j`` by ``ratint``, or None.

    ``ratint`` is the exact (terminating) algorithm for rational functions; results with
    ``RootSum``, ``I`` or ``Piecewise`` are refused.
    """
    omega = [sp.sympify(w, strict=True) for w in omega]
    if any(w.has(sp.sin, sp.cos, AppliedUndef, sp.Derivative) for w in omega):
        return None
    f = sp.S.Zero
    for j, x in enumerate(q):
        checkpoint()
        rest = canon(omega[j] - derivative(f, x))
        if rest == 0:
            continue
        if _depends(rest, q[:j]):  # ω was not closed after all
            return None
        try:
            f += ratint(rest, x)
        except BudgetExceededError:
            raise
        except (sp.PolynomialError, NotImplementedError, ValueError):
            return None
        if f.has(sp.RootSum, sp.I, sp.Piecewise):
            return None
    return f


# ------------------------------------------------------------------ analysis
#: above this many terms in the ``c_α`` (numerators and denominators) the flag steps are first decided at
#: generic points (:func:`_pointwise_flag`): the symbolic ``w_a`` and their derivatives grow too large
POINTWISE_TERMS = 150


#: the messages of an early ansatz that decided nothing
_UNDECIDED = ("undecided from samples", "the ansatz from samples failed")


def _found(out: dict[str, Any], found: tuple[sp.Expr, sp.Expr, list[sp.Expr]], q: tuple[sp.Symbol, ...]) -> None:
    """Record the density ``N = exp f`` that the ansatz found (with the first integrals that may multiply it)."""
    N, f, homog = found
    out["density"] = N
    out["log_form"] = tuple(tidy(derivative(f, x)) for x in q)
    note = ""
    if homog:
        note = (
            f"; the density is not unique: exp of {tuple(homog)} (functions of q annihilated by every X_α, "
            "first integrals of the motion) may multiply it"
        )
    out.update(exists=True, reason=f"solved X_α(log N) = −c_α exactly (log N = {f}){note}")


def _analyse(nh: NonholonomicSystem, out: dict[str, Any]) -> None:
    """Fill ``out`` (the fields of the result) step by step; what is known survives a spent budget."""
    F = nh.frame
    ch = F.chart
    q = ch.q
    m, n = nh.m, nh.n
    v = F.v[:m]
    with step("invariant_measure: divergence"):
        div = _divergence(nh)
        out["divergence"] = tidy(div)
        gD = sp.Matrix(nh.hessian_D())
        out["hessian_determinant"] = tidy(gD.det(method="bareiss"))
        at0, c, second = _velocity_jet(div, v)
        bad = [("div Γ at v = 0", at0)]
        bad += [(f"∂²(div Γ)/∂{x}∂{y}", second[i][j]) for i, x in enumerate(v) for j, y in enumerate(v)]
        if ch.t is not None:
            bad += [(f"∂²(div Γ)/∂{x}∂{ch.t}", _norm(derivative(ca, ch.t))) for x, ca in zip(v, c, strict=True)]
        bad = [(lab, e) for lab, e in bad if e != 0 and not is_zero(e)]
        if bad:
            out.update(
                exists=False,
                obstruction=tuple(tidy(e) for _, e in bad),
                obstruction_labels=tuple(lab for lab, _ in bad),
                reason=(
                    f"div Γ = {out['divergence']} is not of the form c_α(q) v^α (its value at v = 0, its second "
                    "v-derivatives and its t-derivatives are listed), while Γ(log N) = v^α X_α(log N) is for every "
                    "N(q): no basic density exists"
                ),
            )
            return
        out["coefficients"] = tuple(tidy(x) for x in c)
    data = list(c) + [x for x in F.matrix if x != 0] + [F.determinant]
    if not out["hessian_determinant"].has(*F.v, *([ch.t] if ch.t is not None else [])):
        data.append(out["hessian_determinant"])
    with step("invariant_measure: ansatz for log N from samples"):  # a density found needs no flag steps
        try:
            early = _ansatz(nh, c, data, sampled_only=True)
        except (BasePolynomialError, NotImplementedError, ArithmeticError):
            early = _UNDECIDED[1]
    if not isinstance(early, str):
        _found(out, early, q)
        return
    R = F.anholonomy
    try:
        alg = _RationalAlgebra([*c, *F.matrix, *entries(R)], q)
        flag = None
        if sum(alg.size(alg.el(x)) for x in c) > POINTWISE_TERMS:
            with step("invariant_measure: flag steps at generic points"):
                flag = _pointwise_flag(nh, c, R, alg)
        if flag is None:
            flag = _flag_steps(nh, c, R, alg)
    except BudgetExceededError:
        raise
    except (UnsupportedExpression, ValueError, BasePolynomialError):  # outside the field: expression level
        flag = _flag_steps(nh, c, R, _ExprAlgebra(q))
    if flag.point:
        out["witness_point"] = flag.point
    if flag.conds:
        out.update(
            exists=False,
            obstruction=flag.conds,
            obstruction_labels=flag.cond_labels
            or tuple(f"compatibility on D∧D, {k + 1}" for k in range(len(flag.conds))),
            reason=(
                "the equations X_α(w_β) − X_β(w_α) − R^k_αβ w_k = 0 (d(d log N)(X_α, X_β) = 0, w_α = −c_α) have "
                "no solution w_a: the listed combinations of them must vanish"
                + (
                    f"; 'at the generic point' entries are residuals of the equations at {flag.witness}, after "
                    "solving the others there (a ring homomorphism: a nonzero value proves that no w_a exists)"
                    if flag.witness
                    else ""
                )
            ),
        )
        return
    free = flag.free
    if flag.obs:
        obs = tuple(e for _, e in flag.obs)
        out.update(
            exists=False,
            obstruction=obs,
            obstruction_labels=tuple(lab for lab, _ in flag.obs),
            reason=(
                "the first step of the bracket flag fixes d log N: ω = w_i θ^i with w_α = −c_α and "
                f"w_a = ({', '.join(flag.w[m:])}) (a > {m}); ω is not closed: "
                + ", ".join(f"{lab} = {_brief(e)}" for lab, e in flag.obs)
                + " (not all zero for generic parameter values), so no density N(q) exists, even locally"
                " (Fedorov–García-Naranjo–Marrero 2015)"
                + (
                    f"; an entry 'at the generic point' is the value of a large dω(X_i, X_j) at {flag.witness} "
                    "(each sin/cos pair on the unit circle, the other generators independent: a ring homomorphism, "
                    "so a nonzero value proves the function nonzero; the function itself is not formed)"
                    if flag.witness
                    else ""
                )
            ),
        )
        return
    if flag.omega is not None:
        out["log_form"] = flag.omega
        data += [x for x in flag.omega if x != 0]
    integrable = flag.integrable
    with step("invariant_measure: exact ansatz for log N"):
        try:  # the samples' exact "no solution" stands when the flag steps add no data
            found = early if flag.omega is None and early not in _UNDECIDED else _ansatz(nh, c, data)
        except (BasePolynomialError, NotImplementedError, ArithmeticError) as exc:
            found = f"the exact ansatz failed ({type(exc).__name__}: {exc})"
    if not isinstance(found, str):
        _found(out, found, q)
        return
    if not free:
        with step("invariant_measure: rational primitive"):
            prim = _ratint_primitive(list(out["log_form"]), q)
        if prim is not None:
            out["density"] = sp.exp(prim)
            out.update(exists=True, reason=f"ω = d log N is closed and rational; log N = {prim} (ratint)")
            return
        out.update(
            exists=True,
            reason=(
                f"ω = d log N (log_form) is closed, so N = exp(∫ω) exists locally; no closed form was found: {found}"
            ),
        )
        return
    if integrable:
        out.update(
            exists=True,
            reason=(
                "D is integrable and the compatibility conditions hold, so X_α(log N) = −c_α has local solutions "
                f"(Frobenius; m = {m}); no closed form was found: {found}"
            ),
        )
        return
    out.update(
        exists=None,
        reason=(
            f"undecided: the compatibility equations on D fix only {n - m - free} of the {n - m} transverse "
            f"components w_a of d log N, and {found}"
        ),
    )


@budgeted("invariant_measure")
def invariant_measure(system: Any, ansatz: str = "basic", *, pointwise: bool = False) -> InvariantMeasure:
    r"""An invariant measure ``N(q) dq∧dv^α`` of the nonholonomic field on C, or its obstruction.

    Solves ``div(N Γ) = 0`` for a density depending on the configuration only (``ansatz="basic"``),
    see the module docstring for the method and the volume convention. Densities are determined up
    to a constant factor; relative to ``dq∧dp_α`` use :attr:`InvariantMeasure.density_momenta`.

    Parameters
    ----------
    system : NonholonomicSystem
        The system (its adapted frame fixes the coordinates ``v^α`` of C).
    ansatz : str
        ``"basic"``: ``N = N(q)``.
    pointwise : bool
        Do not form the nonholonomic field: decide at generic points from the data of ``g_αβ Γ^β = r_α``
        (:mod:`frames.dynamics._measure_pointwise`; a Lagrangian quadratic in the velocities). Only an
        obstruction can be proved so (``exists`` False, with ``witness_point``); otherwise ``exists`` is None.
        For systems whose field is too large to write out (``NonholonomicSystem.field_size_bound``).

    Returns
    -------
    InvariantMeasure
        ``exists`` True (with ``density``), False (with ``obstruction``) or None (undecided, also
        when the budget runs out during one of the steps: ``reason`` names the step).

    Raises
    ------
    ArgumentError
        If ``system`` is not a :class:`~frames.NonholonomicSystem` or ``ansatz`` is unknown.
    RegularityError
        If the nonholonomic field does not exist (L not regular with respect to D).
    BudgetExceededError
        Only if the budget is already spent when the call starts.

    Examples
    --------
    >>> import frames as fr
    >>> res = invariant_measure(fr.models.chaplygin_sleigh().nonholonomic())
    >>> res.exists, res.obstruction
    (False, (a*m/(I + a**2*m),))
    """
    nh = expect(system, NonholonomicSystem, name="invariant_measure: system")
    if nh.forces is not None:
        raise ConstraintError(
            "invariant_measure: system: a system with forces; the invariant measures here are those of the free "
            "nonholonomic motion (a force such as damping changes the divergence; not supported yet)"
        )
    ansatz = check_flag_choice(ansatz, ANSATZE, name="invariant_measure: ansatz")
    pointwise = as_flag(pointwise, name="invariant_measure: pointwise")
    out: dict[str, Any] = {"volume": _volume(nh), "ansatz": ansatz, "system": nh}
    try:
        if pointwise:
            analyse_pointwise(nh, out)
        else:
            with step("invariant_measure: nonholonomic field"):
                nh.field(canonical=True)
            _analyse(nh, out)
    except BudgetExceededError as exc:
        out.pop("density", None)
        out.update(exists=None, obstruction=(), reason=f"undecided: {exc}")
    out.setdefault("exists", None)
    return InvariantMeasure(**out)
