r"""The base of the dynamics methods: equations, accelerations, multipliers and the ODE system.

Every method of constrained dynamics in the library — the nonholonomic, vakonomic and Cartan-form
methods of Crampin–Mestdag, the Chaplygin systems (the nonholonomic motion with a symmetry), the modified
vakonomic method of Pastore–Giammarini–Grillo, Kozlov's equations, Talamucci's Chetaev system, and a system
read from :mod:`sympy.physics.mechanics` — derives from :class:`DynamicsMethod` and answers the same four
questions, with one set of signatures and the same shapes:

``equations()``
    :class:`~frames.results.Equations`: first the second-order equations ``q̈^j(t) = f^j`` in functions of
    time (``q^j(t)``, ``u^j = q̇^j``), then ``ẋ(t) = …`` for each extra state of the method (vakonomic
    multipliers ``μ``, MVM multipliers ``λ``), then the constraints the motion keeps (``θ^a_j q̇^j = 0``).
    The natural methods of :mod:`frames.natural` state their equations as ``residual = 0``.
``accelerations(*, canonical=None)``
    ``sympy.ImmutableMatrix`` (``n × 1``) of the natural accelerations ``q̈^j`` in the chart's ``q, u`` (``t``,
    the parameters, and the method's extra states where it has them), valid on the constraint set.
``multipliers(*, canonical=None)``
    :class:`~frames.results.Multipliers`, where the method has algebraic multipliers; else
    :class:`~frames.errors.NoMultipliersError` (the default of the base: the Cartan-form method has none,
    Kozlov's and the MVM's multipliers are states).
``ode_system(*, subs=None)``
    :class:`~frames.OdeSystem`, which :func:`frames.integrate` integrates; ``subs`` specialises its
    right-hand sides (e.g. an input ``B0(t) -> sin(t)``).

One option vocabulary: ``canonical`` is None (the compact form the method returns by default), True (the
canonical form, which decides equality) or False (trees, whatever their size: what compiled code needs);
a method that computes only one form returns it for every value. Time budgets and progress come from the
:func:`frames.budget` context, never from per-call options. Further keyword arguments a method accepts
(``form=`` of the nonholonomic system, ``on_constraint=`` of the Chetaev system) are its own, keyword-only.

:func:`frames.integrate`, :func:`frames.ode_system`, :func:`frames.linearize`, :func:`frames.relative_equilibria`,
:func:`frames.analyze` and the comparisons of :mod:`frames.natural` are written against this base.
:func:`nonholonomic_of` is the one test of "a model or a nonholonomic system" (a model is anything that
answers ``nonholonomic()``).
"""

from __future__ import annotations

import dataclasses
import functools
from abc import ABCMeta, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, dataclass_transform, runtime_checkable

import sympy as sp

from .._value import Value, _ValueMeta
from ..algebra import tidy
from ..algebra.internal import as_flag, canon
from ..errors import NoMultipliersError
from ..geometry import Chart, Frame
from ._lagrangian import Equations
from ._ode import OdeSystem

__all__ = ["DynamicsMethod", "ModelLike", "canonical_option", "is_model", "motion_equations", "natural_constraints"]


@dataclass_transform(eq_default=False, field_specifiers=(dataclasses.field, dataclasses.Field))
class _MethodMeta(_ValueMeta, ABCMeta):
    """The metaclass of the values that are also abstract bases (the dataclass machinery and ``abc``)."""


class DynamicsMethod(Value, metaclass=_MethodMeta):
    r"""The abstract value base of every dynamics method (see the module docstring for the shapes).

    A subclass declares its fields (it is a :class:`~frames._value.Value`: structural equality and hash) and
    implements :meth:`equations`, :meth:`accelerations` and :meth:`ode_system`; :meth:`multipliers` raises
    :class:`~frames.errors.NoMultipliersError` unless the method has algebraic multipliers.

    Examples
    --------
    >>> import frames as fr
    >>> nh = fr.models.knife_edge().nonholonomic()
    >>> isinstance(nh, fr.dynamics.DynamicsMethod), nh.accelerations().shape
    (True, (3, 1))
    >>> fr.CartanSystem(nh.frame, nh.lagrangian).multipliers()
    Traceback (most recent call last):
    ...
    frames.errors.NoMultipliersError: CartanSystem.multipliers: the method has no algebraic multipliers ...
    """

    def __init_subclass__(cls, **kw: Any) -> None:
        """Every subclass's ``accelerations`` and ``multipliers`` check ``canonical`` the one way
        (:func:`canonical_option`), whatever their bodies do with it."""
        super().__init_subclass__(**kw)
        for name in ("accelerations", "multipliers"):
            f = cls.__dict__.get(name)
            if callable(f) and not getattr(f, "_checks_canonical", False):
                setattr(cls, name, _checking_canonical(f, f"{cls.__name__}.{name}"))

    @abstractmethod
    def equations(self) -> Equations:
        """The equations of motion in functions of time (the accelerations, the extra states' rates, the
        constraints)."""

    @abstractmethod
    def accelerations(self, *, canonical: bool | None = None) -> sp.ImmutableMatrix:
        """The ``n`` natural accelerations ``q̈`` (an ``n × 1`` matrix) on the constraint set."""

    def multipliers(self, *, canonical: bool | None = None) -> tuple[sp.Expr, ...]:
        """The algebraic multipliers of the method (a :class:`~frames.results.Multipliers`, a tuple).

        Raises
        ------
        NoMultipliersError
            By default: the method has none (or its multipliers are states of the motion).
        """
        raise NoMultipliersError(
            f"{type(self).__name__}.multipliers: the method has no algebraic multipliers "
            "(its motion is given by accelerations() and equations())"
        )

    @abstractmethod
    def ode_system(self, *, subs: Mapping[Any, Any] | None = None) -> OdeSystem:
        """The first-order system of the motion (``subs`` specialises its right-hand sides)."""


def canonical_option(canonical: Any, name: str) -> bool | None:
    """The option ``canonical`` of the method base checked: None (the compact default), True or False, else an
    :class:`~frames.errors.ArgumentError` naming ``name``."""
    return None if canonical is None else as_flag(canonical, name=name)


@runtime_checkable
class ModelLike(Protocol):
    """What the lower layers see of a :class:`frames.models.Model` (the annotation of the functions that take a
    model or a method): its nonholonomic system and its parameter values. :func:`is_model` is the test."""

    param_values: Mapping[Any, Any]

    def nonholonomic(self) -> Any: ...


def _checking_canonical(f: Callable[..., Any], what: str) -> Callable[..., Any]:
    """``f`` with its option ``canonical`` checked first (an error naming ``what``)."""

    @functools.wraps(f)
    def method(self: Any, *args: Any, canonical: Any = None, **kwargs: Any) -> Any:
        return f(self, *args, canonical=canonical_option(canonical, f"{what}: canonical"), **kwargs)

    method._checks_canonical = True  # type: ignore[attr-defined]
    return method


def is_model(obj: Any) -> bool:
    """True if ``obj`` is a model: an instance (not a class, not a method) that answers ``nonholonomic()``.

    The one duck test of the library for :class:`frames.models.Model` (which lives in a higher layer);
    :func:`nonholonomic_of` uses it.
    """
    return (
        not isinstance(obj, type | DynamicsMethod)
        and callable(getattr(type(obj), "nonholonomic", None))
        and hasattr(obj, "param_values")
    )


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
    sub: dict[sp.Basic, sp.Basic] = dict(chart.in_time(*(x for x, _ in rates)))
    qf = [sub[q] for q in chart.q]
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
