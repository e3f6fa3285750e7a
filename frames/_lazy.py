"""Deferred imports of heavy third-party modules (layer 0).

``import sympy.physics`` loads ``sympy.physics.units`` (about 0.2 s); the library needs
``sympy.physics.mechanics`` and ``vlatex`` only when a user converts to or from
:mod:`sympy.physics.mechanics` or prints LaTeX, so those modules are imported on first use.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

__all__ = ["LazyModule"]


class LazyModule:
    """A module imported on first attribute access.

    Examples
    --------
    >>> math = LazyModule("math")
    >>> math.sqrt(4.0)
    2.0
    """

    __slots__ = ("_module", "_name")

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str) -> Any:
        mod = self._module
        if mod is None:
            mod = importlib.import_module(self._name)
            self._module = mod
        return getattr(mod, attr)

    def __repr__(self) -> str:
        return f"LazyModule({self._name!r}, loaded={self._module is not None})"
