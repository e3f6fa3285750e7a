r"""The change of adapted frame (Crampin–Mestdag section 3): how a field tangent to C and its multipliers transform.

With ``Y_i = A_i^j X_j`` both adapted to D, a second-order field tangent to C is rewritten in the new frame
(:func:`transform_field`) and the multipliers, the components of ``ε = λ_b θ^b`` on C, transform as
``λ'_a = A_a^b λ_b`` (:func:`transform_multipliers`).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from ..algebra import expect, is_zero, tidy
from ..algebra.internal import as_exprs, canon
from ..errors import ConstraintError
from ..geometry import (
    Frame,
    SecondOrderField,
)
from ._checks import check_m

__all__ = ["change_of_adapted_frame", "transform_field", "transform_multipliers"]


def change_of_adapted_frame(old: Frame, new: Frame, m: int) -> sp.ImmutableMatrix:
    r"""The matrix ``A`` of ``Y_i = A_i^j X_j`` between two frames adapted to the same D.

    ``A = Y X^{-1} = Y Θ^T``; adaptedness means ``A_α^a = 0`` (``Y_α`` in D), so
    ``Y_α = A_α^β X_β`` and ``Y_a = A_a^b X_b + A_a^α X_α`` (Crampin–Mestdag, section 3).

    Raises
    ------
    ConstraintError
        If a field ``Y_α`` of the new frame is not in the span of the ``X_β``.
    """
    return _change_of_adapted_frame(old, new, m, "change_of_adapted_frame")


def _check_frames(old: Any, new: Any, m: Any, what: str, new_name: str = "new") -> int:
    """Validate ``old``, ``new`` (frames on one chart) and ``m`` (``0 < m < n``); return ``m``."""
    expect(old, Frame, name=f"{what}: old")
    expect(new, Frame, name=f"{what}: {new_name}")
    old.chart.require_same(new.chart, f"{what}: {new_name}")
    return check_m(m, old.dim, name=f"{what}: m")


def _change_of_adapted_frame(old: Frame, new: Frame, m: int, what: str, new_name: str = "new") -> sp.ImmutableMatrix:
    m = _check_frames(old, new, m, what, new_name)
    A = canon(new.matrix * old.coframe_matrix.T)
    n = old.dim
    for al in range(m):
        for a in range(m, n):
            if not is_zero(A[al, a]):
                raise ConstraintError(
                    f"{what}: {new_name}: Y{al + 1} = {new.fields[al]!r} has component {A[al, a]} "
                    f"along X{a + 1}; it is not in D = span(X1..X{m})"
                )
    return A


def transform_field(field: SecondOrderField, new: Frame) -> SecondOrderField:
    r"""Rewrite a second-order field tangent to C in another adapted frame by the rule of section 3.

    With ``Y_α = A_α^β X_β`` and, on C, ``v^β = w^α A_α^β``,

    .. math::

        Γ = v^α X_α^C + Γ^α X_α^V = w^α Y_α^C + \bar A^α_β (Γ^β − \dot A^β_γ w^γ) Y_α^V,

    where ``\bar A`` is the inverse of the m×m block ``(A_α^β)`` and ``\dot A = Γ(A)``
    is the total derivative along ``u = w^α Y_α``. No equation is re-solved.

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.nonholonomic_particle()
    >>> nh = mdl.nonholonomic()
    >>> X1, X2, X3 = mdl.frame.fields
    >>> q1 = mdl.chart.q[0]
    >>> Y = fr.Frame([X1, X2 / sp.sqrt(1 + q1**2), X3], v="w")
    >>> transform_field(nh.field(), Y).Gamma[1]
    0
    """
    expect(field, SecondOrderField, name="transform_field: field")
    expect(new, Frame, name="transform_field: new")
    if field.m is None:
        raise ConstraintError(
            "transform_field: field: the field is not declared on a constraint submanifold (m is None)"
        )
    m = field.m
    old = field.frame
    A = _change_of_adapted_frame(old, new, m, "transform_field")
    Aab = sp.Matrix(A[:m, :m])
    Abar = Aab.inv(method="LU")
    w = new.v
    on_C_new = new.on_constraint(m)
    v_of_w = {old.v[be]: sp.Add(*[w[al] * Aab[al, be] for al in range(m)]) for be in range(m)}
    v_of_w |= old.on_constraint(m)
    u = [x.xreplace(on_C_new) for x in new.u_in_v]

    def dot(f: sp.Expr) -> sp.Expr:
        return old.chart.total_derivative(f, velocities=u, time=False)

    G_old = [field.Gamma[be].xreplace(v_of_w) for be in range(m)]
    G_new = []
    for al in range(m):
        e = sp.Add(
            *[(G_old[be] - sp.Add(*[dot(Aab[ga, be]) * w[ga] for ga in range(m)])) * Abar[be, al] for be in range(m)]
        )
        G_new.append(tidy(e))
    return SecondOrderField(new, G_new + [sp.S.Zero] * (new.dim - m), m=m, time_dependent=field.time_dependent)


def transform_multipliers(multipliers: Any, old: Frame, new: Frame, m: int) -> tuple[sp.Expr, ...]:
    r"""Multipliers in a new adapted frame: ``λ'_a = ε(Y_a) = A_a^b λ_b`` (``ε = λ_b θ^b`` on C).

    The multipliers are the components of ``ε`` in the coframe (Crampin–Mestdag, section 3),
    so they transform with the rows ``A_a^b`` of the complementary block; the result is
    written in the new quasi-velocities (``v^β = w^α A_α^β`` on C).
    """
    m = _check_frames(old, new, m, "transform_multipliers")
    lam = list(as_exprs(multipliers, name="transform_multipliers: multipliers", length=old.dim - m))
    A = _change_of_adapted_frame(old, new, m, "transform_multipliers")
    w = new.v
    v_of_w = {old.v[be]: sp.Add(*[w[al] * A[al, be] for al in range(m)]) for be in range(m)}
    v_of_w |= old.on_constraint(m)
    out = []
    for a in range(m, new.dim):
        e = sp.Add(*[A[a, b] * lam[b - m] for b in range(m, old.dim)])
        out.append(tidy(e.xreplace(v_of_w)))
    return tuple(out)
