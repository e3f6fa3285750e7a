r"""Consistency of nonholonomic and vakonomic dynamics (Crampin–Mestdag section 5).

* Theorem 2 (ii), weak consistency on a section ``μ_a = φ_a``:
  ``φ_a R^a_αβ v^β = 0`` (α = 1..m), i.e. ``Γ_C`` of Proposition 4 is the
  nonholonomic field Γ.
* Corollary 1, strong consistency: in addition
  ``Γ(φ_a) + φ_b R^b_aα v^α = λ_a`` (the vakonomic lift is tangent to ``im φ``).
* Theorem 2 (iii): the vakonomic lift ``Γ̄ = Γ + (λ_a − φ_b R^b_aα v^α) ∂/∂μ_a``.

Section search is in :mod:`._sections`, consistency along one motion in :mod:`._motion_consistency`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sympy as sp

from .._value import Record
from ..algebra import expect, step, tidy
from ..algebra.internal import as_flag, as_subs, budgeted
from ..errors import ArgumentError
from ._pointwise import conditions_at_points
from ._vakonomic import VakonomicField, VakonomicSystem, _decide

__all__ = ["ConsistencyResult", "VakonomicLift", "strong_consistency", "vakonomic_lift", "weak_consistency"]


class ConsistencyResult(Record):
    r"""Outcome of a consistency test.

    Attributes
    ----------
    kind : str
        ``"weak"`` (Theorem 2 (ii)) or ``"strong"`` (Corollary 1).
    section : tuple
        The section ``φ_a``.
    conditions : tuple
        Simplified expressions that must all vanish on C: first
        ``φ_a R^a_αβ v^β`` for α = 1..m, then (strong only)
        ``Γ(φ_a) + φ_b R^b_aα v^α − λ_a`` for a = m+1..n.
    holds : bool or None
        True if every condition vanishes identically, False if one does not,
        None if undecidable with exact arithmetic.
    witness : tuple of (Expr, Rational)
        Only for a test asked to decide at generic points (``pointwise=True``) that was decided there:
        the point, as ``(generator, value)`` pairs (``sin θ``, ``cos θ`` on the unit circle, every other
        generator rational). The conditions were then *not* formed: ``conditions`` is empty.
    witness_values : tuple of Rational
        The values of the conditions at :attr:`witness`, in the order of ``conditions`` (the weak ones,
        then for the strong test ``Γ(φ_a) + φ_b R^b_aα v^α − λ_a``); one nonzero value proves its
        condition nonzero exactly, hence ``holds`` is False.
    """

    kind: str
    section: tuple[sp.Expr, ...]
    conditions: tuple[sp.Expr, ...]
    holds: bool | None
    witness: tuple[tuple[sp.Expr, sp.Expr], ...] = ()
    witness_values: tuple[sp.Expr, ...] = ()

    def __bool__(self) -> bool:
        return self.holds is True


def _weak_conditions(vk: VakonomicSystem, phi: Sequence[sp.Expr]) -> list[sp.Expr]:
    ral, _ = vk._phiR(phi)
    return [tidy(x) for x in ral]


def _strong_extra(vk: VakonomicSystem, phi: Sequence[sp.Expr]) -> list[sp.Expr]:
    nh = vk.nonholonomic
    G = nh.field(canonical=True)
    lam = nh.multipliers(canonical=True)
    _, ra = vk._phiR(phi)
    return [tidy(G(phi[k]) + ra[k] - lam[k]) for k in range(vk.n - vk.m)]


def _pointwise(
    vk: VakonomicSystem, phi: Sequence[sp.Expr], sub: dict[Any, Any], pointwise: Any, strong: bool, what: str
) -> tuple[Any, ...] | None:
    """The ``pointwise=`` option of the consistency tests: ``(point, values)`` if a generic point decides."""
    if not as_flag(pointwise, name=f"{what}: pointwise"):
        return None
    if sub:
        raise ArgumentError(f"{what}: pointwise=True decides at generic points; it does not take subs")
    with step(f"{what}: conditions at generic points"):
        return conditions_at_points(vk, phi, strong)


def _check_vk(vk: Any, what: str) -> VakonomicSystem:
    return expect(vk, VakonomicSystem, name=f"{what}: vk")  # type: ignore[no-any-return]


def _specialize(conds: Sequence[sp.Expr], subs: dict[sp.Basic, sp.Expr]) -> tuple[sp.Expr, ...]:
    if not subs:
        return tuple(conds)
    return tuple(tidy(sp.sympify(c, strict=True).subs(subs)) for c in conds)


def _consistency(kind: str, vk: Any, section: Any, subs: Any, pointwise: bool) -> ConsistencyResult:
    """The weak or strong test (``kind``): the pointwise witness first when asked, else the conditions."""
    what = f"{kind}_consistency"
    vk = _check_vk(vk, what)
    phi = vk._section(section, f"{what}: section")
    sub = as_subs(subs, name=f"{what}: subs")
    found = _pointwise(vk, phi, sub, pointwise, strong=kind == "strong", what=what)
    if found is not None:
        return ConsistencyResult(kind, phi, (), False, found[0], found[1])
    conds = _weak_conditions(vk, phi)
    if kind == "strong":
        conds = conds + _strong_extra(vk, phi)
    out = _specialize(conds, sub)
    return ConsistencyResult(kind, phi, out, _decide(out))


@budgeted("weak_consistency")
def weak_consistency(
    vk: VakonomicSystem, section: Any, subs: Mapping[Any, Any] | None = None, pointwise: bool = False
) -> ConsistencyResult:
    r"""Weak consistency on ``μ_a = φ_a`` (Theorem 2 (ii)): ``φ_a R^a_αβ v^β = 0``.

    ``subs`` (optional) specializes parameters *after* the conditions are computed with
    symbolic parameters, e.g. ``{J: J_s(l)}`` for a parameter relation; this is much cheaper
    than building the system with the relation substituted.

    ``pointwise=True`` decides at generic points first, without forming the conditions (see
    :func:`strong_consistency`); not combined with ``subs``.

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.nonholonomic_particle()
    >>> vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, m=2)
    >>> fr.weak_consistency(vk, [0]).holds
    True
    >>> r = fr.weak_consistency(vk, [-mdl.chart.q[0] * vk.frame.v[1]]); r.holds, r.conditions
    (False, (q1*v2**2, -q1*v1*v2))
    """
    return _consistency("weak", vk, section, subs, pointwise)


@budgeted("strong_consistency")
def strong_consistency(
    vk: VakonomicSystem, section: Any, subs: Mapping[Any, Any] | None = None, pointwise: bool = False
) -> ConsistencyResult:
    r"""Strong consistency on ``μ_a = φ_a`` (Corollary 1).

    ``subs`` specializes parameters after the computation (see :func:`weak_consistency`).

    With ``pointwise=True`` the conditions are first evaluated at generic points of the ring, from the
    data of the nonholonomic field (Proposition 2, solved at the point), without forming the field, the
    multipliers or the conditions (for large systems they are rational functions of 10⁵–10⁶ operations).
    A nonzero value proves the test fails, exactly; the result then carries the point and the values
    (:attr:`ConsistencyResult.witness`) and no conditions. When no point decides, the conditions are
    formed as without it. Not combined with ``subs``.

    Conditions: ``φ_a R^a_αβ v^β = 0`` and ``Γ(φ_a) + φ_b R^b_aα v^α − λ_a = 0``
    with Γ, λ the nonholonomic field and multipliers (Proposition 2).

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.nonholonomic_particle()
    >>> vk = fr.VakonomicSystem(mdl.lagrangian, mdl.frame, m=2)
    >>> r = fr.strong_consistency(vk, [0]); r.holds, r.conditions
    (False, (0, 0, v1*v2/(q1**2 + 1)))
    """
    return _consistency("strong", vk, section, subs, pointwise)


# ------------------------------------------------------------ Theorem 2 (iii)
class VakonomicLift(Record):
    r"""The vakonomic lift ``Γ̄ = Γ + (λ_a − φ_b R^b_aα v^α) ∂/∂μ_a`` of Theorem 2 (iii).

    Attributes
    ----------
    field : VakonomicField
        ``Γ̄`` (its ``Γ^i`` are those of the nonholonomic field, ``A_a = λ_a − φ_b R^b_aα v^α``).
    residuals : tuple
        Residuals of the vakonomic equations (Proposition 3) on ``im φ``.
    satisfies : bool or None
        Whether ``Γ̄`` satisfies the vakonomic equations; by Theorem 2 this is
        equivalent to weak consistency.
    tangent_to_section : bool or None
        Whether ``Γ̄`` is tangent to ``im φ`` (strong consistency).
    """

    field: VakonomicField
    residuals: tuple[sp.Expr, ...]
    satisfies: bool | None
    tangent_to_section: bool | None


def vakonomic_lift(vk: VakonomicSystem, section: Any) -> VakonomicLift:
    r"""Theorem 2 (iii): build ``Γ̄`` and test it against the vakonomic equations on ``im φ``."""
    vk = _check_vk(vk, "vakonomic_lift")
    phi = vk._section(section, "vakonomic_lift: section")
    nh = vk.nonholonomic
    G = nh.field(canonical=True)
    lam = nh.multipliers(canonical=True)
    _, ra = vk._phiR(phi)
    A = tuple(tidy(lam[k] - ra[k]) for k in range(vk.n - vk.m))
    fld = VakonomicField(vk, G.Gamma, A, phi)
    res = vk.vakonomic_residuals(G.Gamma, A, phi)
    tang = tuple(tidy(G(phi[k]) - A[k]) for k in range(vk.n - vk.m))
    return VakonomicLift(fld, res, _decide(res), _decide(tang))
