r"""The one door from "a model or a nonholonomic system" to the nonholonomic system: :func:`nonholonomic_of`.

A :class:`frames.models.Model` lives in the app layer; the layers below it recognise one by
:func:`~frames.dynamics._method.is_model` (it answers ``nonholonomic()``) and reach its system here, so that
:func:`frames.linearize`, :func:`frames.relative_equilibria`, :meth:`frames.ChaplyginSystem.from_model`, the
numeric doors and the exports share one test and one error.
"""

from __future__ import annotations

from typing import Any

from ..algebra import expect
from ..errors import ObjectTypeError
from ._method import is_model
from ._nonholonomic import NonholonomicSystem

__all__ = ["nonholonomic_of"]


def nonholonomic_of(obj: Any, name: str, *, model: bool = False) -> NonholonomicSystem:
    """``obj`` if it is a :class:`~frames.NonholonomicSystem`, a model's system (``obj.nonholonomic()``), else an
    :class:`~frames.errors.ArgumentError` naming ``name``.

    Parameters
    ----------
    obj : NonholonomicSystem or Model
    name : str
        The argument's name in the error (``"linearize: system"``).
    model : bool
        True: only a model is accepted (a bare system is refused), for the callers that read the model's other
        parts (its name, group, loads).

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.knife_edge()
    >>> nonholonomic_of(mdl, "f: system") is mdl.nonholonomic()
    True
    >>> nonholonomic_of(mdl.lagrangian, "f: system")
    Traceback (most recent call last):
    ...
    frames.errors.ObjectTypeError: f: system: expected a NonholonomicSystem or a Model, got Lagrangian ...
    """
    if is_model(obj):
        obj = obj.nonholonomic()
    elif model:
        raise ObjectTypeError(f"{name}: expected a frames.models.Model, got {type(obj).__name__} {obj!r:.60}")
    return expect(obj, NonholonomicSystem, name=name, what="a NonholonomicSystem or a Model")  # type: ignore[no-any-return]
