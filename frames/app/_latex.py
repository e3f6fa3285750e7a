r"""LaTeX export of equations of motion.

Examples
--------
>>> from frames import models
>>> mdl = models.nonholonomic_particle()
>>> tex = latex_equations(mdl.nonholonomic())
>>> tex.splitlines()[0], tex.splitlines()[-1]
('\\begin{align*}', '\\end{align*}')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import sympy as sp

from .._lazy import LazyModule
from ..errors import ArgumentError, FramesError

if TYPE_CHECKING:
    from sympy.physics.vector.printing import vlatex
else:  # imported on first use: sympy.physics loads its units (~0.2 s)
    _printing = LazyModule("sympy.physics.vector.printing")

    def vlatex(expr: Any, **settings: Any) -> str:
        return _printing.vlatex(expr, **settings)  # type: ignore[no-any-return]


__all__ = ["equations_of", "latex_equations", "vlatex"]


def equations_of(obj: Any) -> list[sp.Eq]:
    """The equations of motion of a second-order field, a system with ``field()``, or a list of equations."""
    if isinstance(obj, Sequence) and all(isinstance(e, sp.Equality) for e in obj):
        return list(obj)
    if hasattr(obj, "equations") and callable(obj.equations) and hasattr(obj, "Gamma"):
        return list(obj.equations())
    if hasattr(obj, "field") and callable(obj.field):
        fld = obj.field()
        if hasattr(fld, "equations"):
            return list(fld.equations())
    raise FramesError(f"latex_equations: {obj!r} has no equations of motion (pass a SecondOrderField or a system)")


def latex_equations(obj: Any, environment: str = "align*") -> str:
    r"""The equations of motion of ``obj`` as a LaTeX ``align*`` block.

    Each line is ``lhs &= rhs`` in the dot notation of :mod:`sympy.physics.mechanics`
    (``\dot{\theta}`` for ``dθ/dt``, ``\theta`` for ``θ(t)``; ``vlatex``), with the
    equations ``q̇ = v^i X_i``, ``v̇^α = Γ^α`` of
    :meth:`frames.SecondOrderField.equations`.

    Parameters
    ----------
    obj : SecondOrderField, NonholonomicSystem (anything with ``field()``) or list of sympy Eq
    environment : str
        The LaTeX environment (``align*`` by default): letters and an optional ``*``.

    Raises
    ------
    FramesError
        If ``obj`` has no equations of motion or ``environment`` is not an environment name.
    """
    if not isinstance(environment, str) or not re.fullmatch(r"[A-Za-z]+\*?", environment):
        raise ArgumentError(f"latex_equations: environment must be a LaTeX environment name, got {environment!r}")
    eqs = equations_of(obj)
    rows = [f"{vlatex(e.lhs)} &= {vlatex(e.rhs)}" for e in eqs]
    return "\n".join([rf"\begin{{{environment}}}", " \\\\\n".join(rows), rf"\end{{{environment}}}"])


def mathjax_text(x: str) -> str:
    """Escape text for ``\\text{…}`` in MathJax/KaTeX (braces, backslash, and TeX specials)."""
    out = x.replace("\\", "∖").replace("{", r"\{").replace("}", r"\}")  # ∖: no text-mode backslash in MathJax
    for ch in "$&#%_^~":
        out = out.replace(ch, "\\" + ch)
    return out


_TEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def tex_escape(s: str) -> str:
    """Escape text for LaTeX's text mode."""
    return "".join(_TEX.get(c, c) for c in s)
