r"""Sub-Riemannian geodesics as vakonomic motions: normal extremals and the Martinet abnormal.

A sub-Riemannian structure is a distribution D spanned by ``X_1 … X_m`` with a metric
``g_αβ = g(X_α, X_β)`` on D. Its *normal* extremals are the vakonomic motions of the energy

.. math::
    L = \tfrac12\, g_{αβ}\, v^α v^β + \tfrac12 \sum_a (v^a)^2, \qquad C = \{v^a = 0\},

in the adapted frame ``(X_α, X_a)`` (Crampin–Mestdag section 4; the complement's term only shifts
the multipliers, ``p_a = v^a − μ_a = −μ_a`` on C, so the normal extremals do not depend on it).
:func:`subriemannian` builds that :class:`VakonomicSystem`; its :meth:`~VakonomicSystem.tangent_field`
with the multipliers free is the normal geodesic flow on ``C × ℝ^{n−m}`` (``A_a = μ̇_a``).

*Abnormal* extremals are curves tangent to D carrying a covector ``λ ≠ 0`` that annihilates D and
satisfies the characteristic equations with no energy term. For a rank-2 distribution on a
3-manifold, ``λ`` spans the annihilator and the bracket condition ``λ([X_1, X_2]) = 0`` confines them
to the *Martinet surface* ``Σ = {det(X_1, X_2, [X_1, X_2]) = 0}``, along the line field ``D ∩ TΣ``
(Montgomery, *A Tour of Subriemannian Geometries*, §3.4): :func:`martinet_abnormals`.

>>> import frames as fr
>>> ch = fr.Chart("x y z")
>>> x, y, z = ch.q
>>> heisenberg = [fr.VectorField(ch, [1, 0, -y / 2]), fr.VectorField(ch, [0, 1, x / 2])]
>>> vk = fr.subriemannian(heisenberg, complement=[fr.VectorField(ch, [0, 0, 1])])
>>> tf = vk.tangent_field()
>>> tuple(tf.field.Gamma[:2]), tf.A
((mu3*v2, -mu3*v1), (0,))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import sympy as sp

from .._value import Record
from ..algebra import is_zero, tidy
from ..algebra.internal import as_matrix, canon, trig_normal
from ..errors import ArgumentError, ConstraintError, RegularityError
from ..geometry import Distribution, VectorField, complete_frame
from ._checks import prefix_symbols
from ._lagrangian import Lagrangian
from ._vakonomic import VakonomicSystem

__all__ = ["MartinetAbnormals", "martinet_abnormals", "subriemannian"]


def subriemannian(
    fields: Sequence[VectorField] | Distribution,
    metric: Any = None,
    *,
    complement: Sequence[VectorField] | None = None,
    v: Any = "v",
    mu: Any = "mu",
    A: Any = "A",
) -> VakonomicSystem:
    r"""The vakonomic system whose motions are the normal sub-Riemannian geodesics of ``(D, g)``.

    Parameters
    ----------
    fields : sequence of VectorField or Distribution
        ``X_1 … X_m`` spanning D.
    metric : m×m matrix, optional
        ``g_αβ(q) = g(X_α, X_β)``, symmetric positive definite (default the identity: the fields
        are orthonormal).
    complement : sequence of VectorField, optional
        Fields completing the frame (default: the Euclidean orthogonal complement of D in the
        coordinates, regular wherever D is).
    v, mu, A : str or symbols
        Names of the quasi-velocities, the multipliers ``μ_a`` and ``A_a``.

    Raises
    ------
    ArgumentError
        If ``fields`` are not vector fields.
    RegularityError
        If ``metric`` is not symmetric with positive leading minors (checked where decidable).
    """
    gens = _generators(fields, "subriemannian")
    D = Distribution(gens)
    m = D.rank
    G = sp.eye(m) if metric is None else as_matrix(metric, name="subriemannian: metric", shape=(m, m))
    if any(not is_zero(G[i, j] - G[j, i]) for i in range(m) for j in range(i)):
        raise RegularityError(f"subriemannian: metric {G.tolist()} is not symmetric")
    for k in range(1, m + 1):
        minor = trig_normal(sp.Matrix(G[:k, :k]).det(method="bareiss"))
        if minor.is_number and not minor > 0:
            raise RegularityError(f"subriemannian: metric {G.tolist()} is not positive definite (minor {k} = {minor})")
    n = D.chart.dim
    prefix_symbols(v, [str(i + 1) for i in range(n)], name="subriemannian: v")
    if n == m:
        raise ConstraintError("subriemannian: fields: D is the whole tangent bundle; there is no constraint")
    for arg, val in (("mu", mu), ("A", A)):
        prefix_symbols(val, [str(a + 1) for a in range(m, n)], name=f"subriemannian: {arg}")
    if complement is not None:
        complement = _generators(complement, "subriemannian: complement")
    F = complete_frame(D.fields, _orthogonal_complement(D) if complement is None else complement, v=v)
    vq = F.v_in_u
    energy = sp.Rational(1, 2) * sum(
        (G[al, be] * vq[al] * vq[be] for al in range(m) for be in range(m)), sp.S.Zero
    ) + sp.Rational(1, 2) * sum((vq[a] ** 2 for a in range(m, n)), sp.S.Zero)
    L = Lagrangian(F.chart, canon(sp.expand(energy)))
    return VakonomicSystem(L, F, m, mu=mu, A=A)


def _generators(fields: Any, what: str) -> tuple[VectorField, ...]:
    """The fields spanning D, from a sequence of VectorFields or a Distribution."""
    name = what if ":" in what else f"{what}: fields"
    if isinstance(fields, Distribution):
        return tuple(fields.fields)
    if isinstance(fields, str | bytes | Mapping) or not isinstance(fields, Iterable):
        raise ArgumentError(f"{name}: must be VectorFields spanning D, got {type(fields).__name__} {fields!r}")
    gens = tuple(fields)
    if not gens or not all(isinstance(X, VectorField) for X in gens):
        raise ArgumentError(f"{name}: must be VectorFields spanning D, got {fields!r}")
    return gens


def _orthogonal_complement(D: Distribution) -> tuple[VectorField, ...]:
    """Fields spanning the Euclidean orthogonal complement of D (null space of the rows ``X_α``)."""
    M = sp.Matrix([list(X.components) for X in D.fields])
    out = []
    for b in M.nullspace(iszerofunc=is_zero, simplify=False):
        b = b.applyfunc(canon)
        den = sp.lcm([sp.fraction(sp.together(c))[1] for c in b])
        out.append(VectorField(D.chart, list((b * den).applyfunc(canon))))
    return tuple(out)


class MartinetAbnormals(Record):
    """Abnormal extremals of a rank-2 distribution on a 3-manifold.

    Attributes
    ----------
    surface : Expr
        ``f = det(X_1, X_2, [X_1, X_2])``; the Martinet surface is ``Σ = {f = 0}``.
    direction : VectorField
        ``Z = X_2(f) X_1 − X_1(f) X_2``: in D and tangent to every level set of ``f``, so on Σ it
        spans the line field ``D ∩ TΣ`` along which the abnormal curves run (where ``df ≠ 0`` on D).
    """

    surface: sp.Expr
    direction: VectorField

    def __repr__(self) -> str:
        return f"MartinetAbnormals(Σ: {self.surface} = 0, direction {self.direction!r})"


def martinet_abnormals(fields: Sequence[VectorField] | Distribution) -> MartinetAbnormals:
    """The Martinet surface and the abnormal line field of a rank-2 distribution in dimension 3.

    >>> import frames as fr
    >>> ch = fr.Chart("x y z")
    >>> x, y, z = ch.q
    >>> ab = fr.martinet_abnormals([fr.VectorField(ch, [1, 0, y**2 / 2]), fr.VectorField(ch, [0, 1, 0])])
    >>> ab.surface, ab.direction
    (-y, -∂/∂x - y**2/2*∂/∂z)

    Raises
    ------
    ConstraintError
        Unless D has rank 2 on a 3-dimensional chart.
    """
    gens = _generators(fields, "martinet_abnormals")
    D = Distribution(gens)
    X1, X2 = D.fields if D.rank == 2 else (None, None)
    if X1 is None or X2 is None or D.chart.dim != 3:
        raise ConstraintError(
            f"martinet_abnormals: fields: needs a rank-2 distribution on a 3-manifold, got rank {D.rank} in dimension {D.chart.dim}"
        )
    B = X1.bracket(X2)
    f = tidy(sp.Matrix([list(X1.components), list(X2.components), list(B.components)]).det(method="bareiss"))
    Z = X1 * X2(f) - X2 * X1(f)
    return MartinetAbnormals(f, Z)
