r"""The protocol of the dynamics methods: equations, accelerations, multipliers and the ODE system.

Every method of constrained dynamics in the library — the nonholonomic, vakonomic and Cartan-form
methods of Crampin–Mestdag, the modified vakonomic method of Pastore–Giammarini–Grillo, Kozlov's
equations, Talamucci's Chetaev system, and a system read from :mod:`sympy.physics.mechanics` — answers
the same four questions, with the same shapes:

``equations()``
    :class:`~frames.results.Equations`: first the second-order equations ``q̈^j(t) = f^j`` in functions of
    time (``q^j(t)``, ``u^j = q̇^j``), then ``ẋ(t) = …`` for each extra state of the method (vakonomic
    multipliers ``μ``, MVM multipliers ``λ``), then the constraints the motion keeps (``θ^a_j q̇^j = 0``).
``accelerations()``
    ``sympy.ImmutableMatrix`` of the ``n`` natural accelerations ``q̈^j`` in the chart's ``q, u`` (``t``, the
    parameters, and the method's extra states where it has them), valid on the constraint set.
``multipliers()``
    :class:`~frames.results.Multipliers`, where the method has multipliers.
``ode_system(**options)``
    :class:`~frames.OdeSystem`, which :func:`frames.integrate` integrates.

The comparisons of :mod:`frames.natural` and :func:`frames.integrate` are written against this protocol.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import sympy as sp

from .._value import Multipliers
from ..algebra import canon, tidy
from ..geometry import Chart, Frame
from ._lagrangian import Equations

__all__ = ["DynamicsMethod", "motion_equations", "natural_constraints"]


class DynamicsMethod(Protocol):
    """What every dynamics method of the library provides (see the module docstring for the shapes)."""

    def equations(self) -> Equations: ...

    def accelerations(self) -> sp.ImmutableMatrix: ...

    def multipliers(self) -> Multipliers: ...

    def ode_system(self, **options: Any) -> Any: ...


def _time(chart: Chart) -> sp.Symbol:
    return chart.t if chart.t is not None else sp.Symbol("t")


def motion_equations(
    chart: Chart,
    accelerations: Sequence[sp.Expr],
    rates: Sequence[tuple[sp.Symbol, sp.Expr]] = (),
    constraints: Sequence[sp.Expr] = (),
) -> Equations:
    r"""``q̈^j(t) = f^j``, ``ẋ(t) = r`` for each ``(x, r)`` in ``rates``, then ``c = 0`` for each constraint.

    The chart's ``q^j`` become functions ``q^j(t)``, its ``u^j`` the derivatives ``q̇^j(t)``, and each extra state
    ``x`` a function ``x(t)`` (``t`` the chart's time, else ``t``).

    Examples
    --------
    >>> ch = Chart("x")
    >>> motion_equations(ch, [-ch.q[0]])
    (Eq(Derivative(x(t), (t, 2)), -x(t)),)
    """
    t = _time(chart)
    qf = [sp.Function(str(q))(t) for q in chart.q]
    sub: dict[sp.Basic, sp.Basic] = dict(zip(chart.q, qf, strict=True))
    sub |= {u: sp.Derivative(f, t) for u, f in zip(chart.u, qf, strict=True)}
    sub |= {x: sp.Function(str(x))(t) for x, _ in rates}
    eqs = [
        sp.Eq(sp.Derivative(f, (t, 2)), sp.sympify(a, strict=True).xreplace(sub), evaluate=False)
        for f, a in zip(qf, accelerations, strict=True)
    ]
    eqs += [sp.Eq(sp.Derivative(sub[x], t), sp.sympify(r, strict=True).xreplace(sub), evaluate=False) for x, r in rates]
    eqs += [sp.Eq(sp.sympify(c, strict=True).xreplace(sub), 0, evaluate=False) for c in constraints]
    return Equations(eqs)


def natural_constraints(frame: Frame, m: int) -> list[sp.Expr]:
    r"""The constraints ``v^a = θ^a_j u^j = 0`` (a = m+1..n) in natural coordinates, each tidied."""
    return [tidy(canon(frame.v_in_u[a])) for a in range(m, frame.dim)]
