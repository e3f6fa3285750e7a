"""What :func:`~frames.integrate` is given, resolved once: the one door :func:`ode_system` (a field, a method
or an :class:`~frames.OdeSystem`) and the compiled system with its default parameters (cached)."""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from typing import Any, NamedTuple

from ..dynamics import DynamicsMethod, NonholonomicSystem, OdeSystem, VakonomicSystem
from ..dynamics import is_model as _is_model
from ..dynamics.internal import check_ode_form, check_ode_sources, field_ode
from ..errors import ArgumentError, InvalidExpressionError, OptionError
from ..geometry import SecondOrderField
from ..natural import ModifiedVakonomic
from ._compiled import CompiledSystem

__all__ = ["Target", "compiled", "ode_system", "resolve"]


def ode_system(x: DynamicsMethod | SecondOrderField | OdeSystem, **options: Any) -> OdeSystem:
    r"""The first-order :class:`~frames.OdeSystem` of a field or of a dynamics method: the one way to make one.

    Parameters
    ----------
    x : SecondOrderField, NonholonomicSystem, VakonomicSystem, ModifiedVakonomic, OdeSystem, or any object with an ``ode_system(**options)`` method
        An :class:`~frames.OdeSystem` is returned as it is.
    **options
        For a field or a :class:`~frames.NonholonomicSystem`: ``form`` (``"reduced"``: state ``(q, v^α)``,
        ``q̇ = v^α X_α``, ``v̇^α = Γ^α``, the constraints kept to rounding; ``"multiplier"``: state ``(q, u)``,
        ``u̇ = q̈(q, u)``), ``lagrangian`` (energy and kinetic metric) and, for a field, ``system`` (the
        :class:`~frames.NonholonomicSystem`: multipliers, energy and the guard ``det g_αβ``). For a
        :class:`~frames.VakonomicSystem` (Proposition 4, state ``(q, v^α, μ_a)``, initial ``mu0``):
        ``subs``. For a :class:`~frames.ModifiedVakonomic` ((51a–b), state ``(q, u, λ)``, initial
        ``extra0={"lambda": ...}``): ``subs`` and ``form`` (the label).

    Raises
    ------
    InvalidExpressionError
        ``x`` is none of these.

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.knife_edge()
    >>> nh = mdl.nonholonomic()
    >>> fr.ode_system(nh, form="multiplier").states
    (phi, x, y, u_phi, u_x, u_y)
    >>> mdl = fr.models.nonholonomic_particle()
    >>> ode = fr.ode_system(fr.VakonomicSystem(mdl.lagrangian, mdl.frame, m=2))
    >>> ode.states, ode.form
    ((q1, q2, q3, v1, v2, mu3), 'vakonomic')
    """
    if isinstance(x, OdeSystem):
        if options:
            raise ArgumentError(f"ode_system: an OdeSystem takes no options, got {sorted(options)}")
        return x
    if isinstance(x, SecondOrderField):
        return field_ode(x, **options)
    method = getattr(x, "ode_system", None)
    if callable(method):  # the method protocol
        return method(**options)  # type: ignore[no-any-return]
    raise InvalidExpressionError(
        f"ode_system: {x!r:.80} is not a SecondOrderField, a dynamics method (NonholonomicSystem, "
        "VakonomicSystem, ModifiedVakonomic, ...) or an OdeSystem"
    )


class Target(NamedTuple):
    """What to integrate: the compiled system, the default parameters (a model's), and the system and
    Lagrangian behind it when known (``method="lda-midpoint"`` needs them)."""

    comp: CompiledSystem
    defaults: dict[Any, Any]
    system: Any
    lagrangian: Any


_MODEL_SYSTEMS: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
_BY_SOURCE: weakref.WeakKeyDictionary[Any, dict[Any, tuple[Any, Any, CompiledSystem]]] = weakref.WeakKeyDictionary()
_COMPILED: weakref.WeakKeyDictionary[OdeSystem, CompiledSystem] = weakref.WeakKeyDictionary()


def compiled(ode: OdeSystem) -> CompiledSystem:
    """The numeric functions of ``ode``, generated once per system (equal systems share them)."""
    hit = _COMPILED.get(ode)
    if hit is None:
        hit = _COMPILED[ode] = CompiledSystem(ode)
    return hit


def resolve(
    x: Any, form: str = "reduced", system: Any = None, lagrangian: Any = None, lda: bool = False, **options: Any
) -> Target:
    """The compiled system of ``x`` (a Model, field, method, :class:`OdeSystem` or :class:`CompiledSystem`).

    ``form``, ``system`` and ``lagrangian`` apply to fields, nonholonomic systems and models; further
    ``options`` go to the method's :func:`ode_system`. Compiled code is cached per source and options.
    With ``lda`` (``method="lda-midpoint"``) the system and an autonomous Lagrangian are required first.
    """
    if lda and isinstance(x, CompiledSystem | OdeSystem):
        raise OptionError(
            "integrate: method='lda-midpoint' needs a system (its Lagrangian and constraints), not an ODE"
        )
    if isinstance(x, CompiledSystem | OdeSystem):
        if options or system is not None or lagrangian is not None:
            raise OptionError(
                "integrate: an OdeSystem is integrated as it is: form, system and lagrangian are not used"
            )
        return Target(x if isinstance(x, CompiledSystem) else compiled(x), {}, None, None)
    defaults: dict[Any, Any] = {}
    if _is_model(x):
        defaults = dict(x.param_values)
        if x not in _MODEL_SYSTEMS:
            _MODEL_SYSTEMS[x] = x.nonholonomic()
        x = _MODEL_SYSTEMS[x]
    if isinstance(x, NonholonomicSystem):
        system = x if system is None else system
        x = x.field()
    if isinstance(x, SecondOrderField):
        check_ode_sources("field", system, lagrangian)
        if options:
            raise ArgumentError(f"integrate: unknown options {sorted(options)} for a field")
        lag = system.lagrangian if lagrangian is None and system is not None else lagrangian
        if lda:
            _check_lda(system, lag)
        return Target(_field_compiled(x, form, system, lagrangian), defaults, system, lag)
    if not callable(getattr(x, "ode_system", None)) and not isinstance(x, VakonomicSystem | ModifiedVakonomic):
        raise InvalidExpressionError(
            f"cannot integrate {x!r:.80}: expected a SecondOrderField, a dynamics method "
            "(NonholonomicSystem, VakonomicSystem, ModifiedVakonomic, ...), a Model or an OdeSystem"
        )
    if system is not None or lagrangian is not None:
        raise ArgumentError("integrate: system= and lagrangian= apply to a field; a method brings its own")
    if lda:
        _check_lda(None, None)
    key = _options_key(options)
    per = _BY_SOURCE.setdefault(x, {}) if key is not None else {}
    hit = per.get(("method", key))
    if hit is None:
        hit = per[("method", key)] = (None, None, compiled(ode_system(x, **options)))
    return Target(hit[2], defaults, None, getattr(x, "lagrangian", None))


def _options_key(options: Mapping[str, Any]) -> Any:
    """A hashable key of ``options``, or None when one is not hashable (then nothing is cached)."""
    key = tuple(sorted(options.items()))
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _field_compiled(field: SecondOrderField, form: str, system: Any, lagrangian: Any) -> CompiledSystem:
    """The compiled system of a field (cached per field, form, system and Lagrangian)."""
    key = (check_ode_form("integrate", form), id(system), id(lagrangian))
    per = _BY_SOURCE.setdefault(field, {})
    hit = per.get(key)
    if hit is not None:
        sref, lref, comp = hit
        if (sref() if sref is not None else None) is system and (lref() if lref is not None else None) is lagrangian:
            return comp
    comp = compiled(field_ode(field, form, system=system, lagrangian=lagrangian))
    per[key] = (
        weakref.ref(system) if system is not None else None,
        weakref.ref(lagrangian) if lagrangian is not None else None,
        comp,
    )
    return comp


def _check_lda(system: Any, lagrangian: Any) -> None:
    """``method="lda-midpoint"`` needs a nonholonomic system and an autonomous Lagrangian."""
    if system is None or lagrangian is None:
        raise OptionError(
            "integrate: method='lda-midpoint' needs a NonholonomicSystem or a Model (the Lagrangian and the constraints)"
        )
    if lagrangian.time_dependent:
        raise OptionError(
            "integrate: method='lda-midpoint' needs an autonomous Lagrangian (L depends on t); "
            "use method='RK45' or another scipy solver"
        )
