r"""Loads as a SymPy user writes them: a force on a point, a torque on a body, turned into the force one-form.

A force ``F`` on a point ``P`` (its position ``r_P(q, t)`` or its velocity ``v_P(q, u, t)``, in an inertial
basis) and a torque ``T`` on a body (its angular velocity ``ω(q, u, t)`` in an inertial basis) do the power
``F·v_P`` and ``T·ω``. Their force one-form ``Q = Q_i dq^i`` has the components

.. math::
    Q_i = F \cdot \frac{\partial v_P}{\partial u^i}, \qquad Q_i = T \cdot \frac{\partial \omega}{\partial u^i},

(with ``v_P = ∂r_P/∂q^i u^i + ∂r_P/∂t`` from a position, so ``Q_i = F·∂r_P/∂q^i``): Kane's generalised active
forces written in the natural velocities. The sum over loads is exact; nothing is simplified.

Examples
--------
>>> import sympy as sp
>>> from frames import Chart
>>> ch = Chart("x theta", params="F c")
>>> x, th = ch.q
>>> ux, uth = ch.u
>>> F, c = ch.params
>>> load_one_form(ch, [PointForce([F - c * ux, 0, 0], position=[x, 0, 0]), BodyTorque([0, 0, uth], [0, 0, -c * uth])])
(F - c*u_x, -c*u_theta)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy as sp

from .._value import Value
from ..algebra import derivative
from ..algebra.internal import as_exprs, canon
from ..errors import ArgumentError, InvalidExpressionError
from ..geometry import Chart

__all__ = ["BodyTorque", "Load", "PointForce", "is_load", "load_one_form"]


def _vector(xs: Any, name: str) -> tuple[sp.Expr, ...]:
    """An inertial vector: 1 to 3 expressions (a planar load has 2); strings are never parsed."""
    if isinstance(xs, str | bytes) or not (isinstance(xs, Sequence) or isinstance(xs, sp.MatrixBase)):
        raise ArgumentError(f"{name}: expected a vector (a sequence of 1 to 3 expressions), got {xs!r:.60}")
    items = list(xs)
    if not 1 <= len(items) <= 3:
        raise InvalidExpressionError(f"{name}: a vector has 1 to 3 components in an inertial basis, got {len(items)}")
    return as_exprs(items, name=name)


class Load(Value):
    """A load on the system: it gives the components of its force one-form on a chart (:meth:`one_form`)."""

    def one_form(self, chart: Chart) -> tuple[sp.Expr, ...]:  # pragma: no cover - abstract
        raise NotImplementedError


class PointForce(Load):
    r"""A force ``F(q, u, t)`` on a point given by its position ``r_P(q, t)`` or its velocity ``v_P(q, u, t)``.

    Parameters
    ----------
    force : sequence of expressions
        The force's components in an inertial basis (1 to 3).
    position : sequence of expressions, optional
        The point's position ``r_P(q, t)`` in the same basis (its velocity is ``∂r_P/∂q^i u^i + ∂r_P/∂t``).
    velocity : sequence of expressions, optional
        Instead of the position: the point's velocity ``v_P(q, u, t)`` (Kane's ``P.vel(N)`` in the natural
        velocities). Exactly one of ``position`` and ``velocity`` is given.

    Notes
    -----
    The one-form is ``Q_i = F·∂v_P/∂u^i``. Symbols are checked against the chart when the load is used
    (:meth:`one_form`): ``position`` on Q, ``velocity`` and ``force`` on TQ (and time, parameters).
    """

    force: tuple[sp.Expr, ...]
    position: tuple[sp.Expr, ...] | None = None
    velocity: tuple[sp.Expr, ...] | None = None

    def __init__(self, force: Any, position: Any = None, *, velocity: Any = None) -> None:
        if (position is None) == (velocity is None):
            raise ArgumentError("PointForce: give exactly one of position (r_P(q)) and velocity (v_P(q, u))")
        self.force = _vector(force, "PointForce: force")
        where = position if position is not None else velocity
        vec = _vector(where, f"PointForce: {'position' if position is not None else 'velocity'}")
        if len(vec) != len(self.force):
            raise InvalidExpressionError(
                f"PointForce: the force has {len(self.force)} components and the "
                f"{'position' if position is not None else 'velocity'} {len(vec)}; they must be vectors of one basis"
            )
        self.position = vec if position is not None else None
        self.velocity = vec if velocity is not None else None

    def point_velocity(self, chart: Chart) -> tuple[sp.Expr, ...]:
        """``v_P`` on ``chart``: the given velocity, or the total derivative of the position."""
        if self.position is not None:
            r = [chart.check_on_Q(x, f"PointForce: position[{k}]") for k, x in enumerate(self.position)]
            return tuple(chart.total_derivative(x) for x in r)
        assert self.velocity is not None
        return tuple(chart.check_on_TQ(x, f"PointForce: velocity[{k}]") for k, x in enumerate(self.velocity))

    def one_form(self, chart: Chart) -> tuple[sp.Expr, ...]:
        """``Q_i = F·∂v_P/∂u^i``, one component per coordinate of ``chart``."""
        F = [chart.check_on_TQ(f, f"PointForce: force[{k}]") for k, f in enumerate(self.force)]
        v = self.point_velocity(chart)
        return _power_form(chart, F, v)


class BodyTorque(Load):
    r"""A torque ``T(q, u, t)`` on a body whose angular velocity is ``ω(q, u, t)``, both in an inertial basis.

    Parameters
    ----------
    angular_velocity : sequence of expressions
        ``ω`` of the body (1 to 3 components; a planar body's ``[0, 0, θ̇]`` or ``[θ̇]``).
    torque : sequence of expressions
        ``T`` in the same basis.

    Notes
    -----
    The one-form is ``Q_i = T·∂ω/∂u^i``.
    """

    angular_velocity: tuple[sp.Expr, ...]
    torque: tuple[sp.Expr, ...]

    def __init__(self, angular_velocity: Any, torque: Any) -> None:
        self.angular_velocity = _vector(angular_velocity, "BodyTorque: angular_velocity")
        self.torque = _vector(torque, "BodyTorque: torque")
        if len(self.torque) != len(self.angular_velocity):
            raise InvalidExpressionError(
                f"BodyTorque: the angular velocity has {len(self.angular_velocity)} components and the torque "
                f"{len(self.torque)}; they must be vectors of one basis"
            )

    def one_form(self, chart: Chart) -> tuple[sp.Expr, ...]:
        """``Q_i = T·∂ω/∂u^i``, one component per coordinate of ``chart``."""
        w = [chart.check_on_TQ(x, f"BodyTorque: angular_velocity[{k}]") for k, x in enumerate(self.angular_velocity)]
        T = [chart.check_on_TQ(x, f"BodyTorque: torque[{k}]") for k, x in enumerate(self.torque)]
        return _power_form(chart, T, w)


def _power_form(chart: Chart, F: Sequence[sp.Expr], v: Sequence[sp.Expr]) -> tuple[sp.Expr, ...]:
    return tuple(
        sp.Add(*[f * d for f, x in zip(F, v, strict=True) if f != 0 and (d := derivative(x, ui)) != 0])
        for ui in chart.u
    )


def is_load(x: Any) -> bool:
    """True for a :class:`PointForce` or a :class:`BodyTorque`."""
    return isinstance(x, Load)


def load_one_form(chart: Chart, loads: Any, what: str = "loads") -> tuple[sp.Expr, ...]:
    """The sum of the force one-forms of ``loads`` (a load or a sequence of loads) on ``chart``, canonical."""
    items = [loads] if is_load(loads) else loads
    if isinstance(items, str | bytes) or not isinstance(items, Sequence):
        raise ArgumentError(f"{what}: expected a load or a sequence of loads, got {loads!r:.60}")
    total = [sp.S.Zero] * chart.dim
    for k, ld in enumerate(items):
        if not is_load(ld):
            raise ArgumentError(f"{what}[{k}]: expected a PointForce or a BodyTorque, got {ld!r:.60}")
        try:
            comps = ld.one_form(chart)
        except InvalidExpressionError as exc:
            raise type(exc)(f"{what}[{k}]: {exc}") from None
        total = [a + b for a, b in zip(total, comps, strict=True)]
    return tuple(canon(c) for c in total)
