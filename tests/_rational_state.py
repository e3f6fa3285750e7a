"""Exact evaluation at rational states, shared by the tests against SymPy's KanesMethod (tests/systems)."""

from __future__ import annotations

from fractions import Fraction

import sympy as sp


class RationalState:
    """A rational state: angles by their rational (cos, sin), other coordinates, parameters and speeds as rationals."""

    def __init__(self, angles: dict[str, tuple[Fraction, Fraction]], values: dict[str, sp.Rational]):
        self.angles = angles
        self.values = values

    def _z(self, arg: sp.Expr) -> tuple[Fraction, Fraction]:
        """``exp(i·arg) = cos + i sin`` as a pair of Fractions, for an integer combination of the angles."""
        re, im = Fraction(1), Fraction(0)
        for term in sp.Add.make_args(sp.expand(arg)):
            k, s = term.as_coeff_Mul()
            assert k.is_Integer and s.name in self.angles, f"not an integer combination of angles: {arg}"
            c0, s0 = self.angles[s.name]
            if k < 0:
                s0, k = -s0, -k
            for _ in range(int(k)):
                re, im = re * c0 - im * s0, re * s0 + im * c0
        return re, im

    def __call__(self, e: sp.Expr) -> sp.Rational:
        """``e`` (in plain symbols) at the state: an exact rational, or the test fails."""

        def trig(f):
            def repl(arg):
                cz, sz = self._z(arg)
                val = {sp.sin: sz, sp.cos: cz}.get(f)
                return sp.Rational(val) if val is not None else sp.Rational(sz) / sp.Rational(cz)

            return repl

        e = sp.sympify(e, strict=True)
        for f in (sp.sin, sp.cos, sp.tan):
            e = e.replace(f, trig(f))
        out = e.xreplace({s: self.values[s.name] for s in e.free_symbols if s.name in self.values})
        assert out.is_Rational, f"not a rational number at the state: {out}"
        return out
