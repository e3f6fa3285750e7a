"""Charts: coordinates on Q, natural fibre coordinates on TQ, optional time.

Conventions (DESIGN.md): coordinates ``q^1..q^n``; natural fibre coordinates
``u^i`` are *symbols*, not time derivatives; an optional time symbol ``t``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field
from typing import Any

import sympy as sp

from .._value import Value
from ..algebra import derivative, expect
from ..algebra.internal import as_expr, as_exprs, as_flag, as_subs
from ..errors import ArgumentError, ChartMismatchError, InvalidExpressionError

__all__ = ["Chart"]

_SymbolsSpec = str | Sequence[sp.Symbol | str] | None


def _check_name(n: str, what: str) -> str:
    if not n.isidentifier():
        raise InvalidExpressionError(
            f"{what}: {n!r} is not a valid symbol name (letters, digits and underscores, not starting with a digit)"
        )
    return n


def _to_symbols(spec: _SymbolsSpec, what: str) -> tuple[sp.Symbol, ...]:
    """Symbols from names (never parsed: each name must be an identifier) or sympy Symbols."""
    if spec is None:
        return ()
    if isinstance(spec, str):
        names = [s for s in re.split(r"[\s,]+", spec.strip()) if s]
        return tuple(sp.Symbol(_check_name(n, what)) for n in names)
    if isinstance(spec, sp.Symbol):
        return (spec,)
    if isinstance(spec, bytes | Mapping) or not isinstance(spec, Iterable):
        raise ArgumentError(f"{what}: expected a string of names or a sequence of Symbols, got {spec!r}")
    out = []
    for k, s in enumerate(spec):
        if isinstance(s, str):
            out.append(sp.Symbol(_check_name(s, f"{what}[{k}]")))
        elif isinstance(s, sp.Symbol):
            out.append(s)
        else:
            raise InvalidExpressionError(
                f"{what}[{k}]: {s!r} is not a symbol; coordinates and parameters must be sympy Symbols"
            )
    return tuple(out)


def _fibre_name(name: str) -> str:
    m = re.fullmatch(r"q_?(\d+)", name)
    if m:
        return f"u{m.group(1)}"
    return f"u_{name}"


class Chart(Value):
    r"""A coordinate chart on Q with its natural chart on TQ.

    Parameters
    ----------
    coordinates : str or sequence of Symbol
        The coordinates ``q^1..q^n``; a string is split on white space or commas.
    velocities : str or sequence of Symbol, optional
        Natural fibre coordinates ``u^i``. By default ``q1 -> u1`` and
        ``x -> u_x``.
    time : str or Symbol or bool, optional
        The time symbol for explicitly time-dependent systems (``True`` means ``t``).
    params : str or sequence of Symbol, optional
        Declared parameters: constant symbols that expressions on this chart may use.

    Examples
    --------
    >>> ch = Chart("q1 q2 q3")
    >>> ch.q, ch.u
    ((q1, q2, q3), (u1, u2, u3))
    >>> q1, q2, q3 = ch.q
    >>> ch.total_derivative(q1 * q2)
    q1*u2 + q2*u1
    """

    q: tuple[sp.Symbol, ...]
    u: tuple[sp.Symbol, ...]
    t: sp.Symbol | None
    params: tuple[sp.Symbol, ...] = field(default=())

    def __init__(
        self,
        coordinates: _SymbolsSpec,
        velocities: _SymbolsSpec = None,
        *,
        time: str | sp.Symbol | bool | None = None,
        params: _SymbolsSpec = None,
    ) -> None:
        q = _to_symbols(coordinates, "Chart: coordinates")
        if not q:
            raise InvalidExpressionError("Chart: coordinates: at least one coordinate is required")
        u = (
            _to_symbols(velocities, "Chart: velocities")
            if velocities is not None
            else tuple(sp.Symbol(_fibre_name(s.name)) for s in q)
        )
        if len(u) != len(q):
            raise InvalidExpressionError(f"Chart: velocities: {len(q)} coordinates but {len(u)} velocity symbols")
        if time is True:
            t: sp.Symbol | None = sp.Symbol("t")
        elif time is None or time is False:
            t = None
        elif isinstance(time, str):
            t = sp.Symbol(_check_name(time, "Chart: time"))
        elif isinstance(time, sp.Symbol):
            t = time
        else:
            raise ArgumentError(f"Chart: time: expected a Symbol, a name, True or None, got {time!r}")
        p = _to_symbols(params, "Chart: params")
        allsyms = list(q) + list(u) + ([t] if t is not None else []) + list(p)
        if len(set(allsyms)) != len(allsyms):
            dup = sorted(str(s) for s, c in Counter(allsyms).items() if c > 1)
            raise InvalidExpressionError(
                f"Chart: coordinates, velocities, time and params must be distinct symbols; {dup} repeated in {allsyms}"
            )
        self.q = q
        self.u = u
        self.t = t
        self.params = p

    # ------------------------------------------------------------------ basics
    @property
    def dim(self) -> int:
        """Dimension n of Q."""
        return len(self.q)

    def __repr__(self) -> str:
        s = f"Chart(q={self.q}, u={self.u}"
        if self.t is not None:
            s += f", t={self.t}"
        if self.params:
            s += f", params={self.params}"
        return s + ")"

    def _repr_latex_(self) -> str:
        return "$" + r"\left(" + ", ".join(sp.latex(s) for s in self.q) + r"\right)$"

    def with_params(self, params: _SymbolsSpec) -> Chart:
        """A chart with the same coordinates and the given parameters added."""
        extra = tuple(s for s in _to_symbols(params, "Chart.with_params: params") if s not in self.params)
        return Chart(self.q, self.u, time=self.t, params=self.params + extra)

    def with_time(self, time: str | sp.Symbol | bool = True) -> Chart:
        """A chart with the same coordinates and an explicit time symbol."""
        return Chart(self.q, self.u, time=time, params=self.params)

    def in_time(self, *extra: sp.Symbol) -> dict[sp.Symbol, sp.Expr]:
        r"""The substitution ``q → q(t)``, ``u → q̇(t)`` that writes a function on TQ along a motion.

        Each symbol of ``extra`` (quasi-velocities, extra states) becomes a function ``x(t)`` too; ``t`` is
        the chart's time, else ``Symbol("t")``. The one place where this substitution is built.

        Parameters
        ----------
        *extra : sympy.Symbol
            Further symbols written as functions of time.

        Returns
        -------
        dict
            ``{q^j: q^j(t), u^j: Derivative(q^j(t), t), x: x(t)}``.

        Examples
        --------
        >>> Chart("x").in_time(sp.Symbol("v1"))
        {x: x(t), u_x: Derivative(x(t), t), v1: v1(t)}
        """
        t = self.t if self.t is not None else sp.Symbol("t")
        qf = [sp.Function(str(q))(t) for q in self.q]
        sub: dict[sp.Symbol, sp.Expr] = dict(zip(self.q, qf, strict=True))
        sub |= {u: sp.Derivative(f, t) for u, f in zip(self.u, qf, strict=True)}
        for x in extra:
            if not isinstance(x, sp.Symbol):
                raise InvalidExpressionError(f"Chart.in_time: extra: {x!r} is not a sympy Symbol")
            sub[x] = sp.Function(str(x))(t)
        return sub

    # ------------------------------------------------------------ validation
    @property
    def _time_set(self) -> frozenset[sp.Symbol]:
        return frozenset([self.t]) if self.t is not None else frozenset()

    def check_on_Q(self, expr: object, what: str, extra: Iterable[sp.Symbol] = ()) -> sp.Expr:
        """Sympify ``expr`` and check it is a function on Q (and t, params).

        Raises
        ------
        InvalidExpressionError
            If ``expr`` depends on fibre coordinates or undeclared symbols.
        """
        e = _sympify_checked(expr, what)
        fs = e.free_symbols
        fib = fs & set(self.u)
        if fib:
            raise InvalidExpressionError(
                f"{what}: {e} depends on fibre coordinates {sorted(map(str, fib))}; a function on Q is required"
            )
        allowed = set(self.q) | self._time_set | set(self.params) | set(extra)
        bad = fs - allowed
        if bad:
            raise InvalidExpressionError(
                f"{what}: {e} uses symbols {sorted(map(str, bad))} that are neither "
                f"coordinates {self.q} nor declared parameters {self.params}; "
                "declare them with Chart(..., params=...)"
            )
        return e

    def check_on_TQ(self, expr: object, what: str, extra: Iterable[sp.Symbol] = ()) -> sp.Expr:
        """Sympify ``expr`` and check it is a function of (q, u, t) and params."""
        e = _sympify_checked(expr, what)
        allowed = set(self.q) | set(self.u) | self._time_set | set(self.params) | set(extra)
        bad = e.free_symbols - allowed
        if bad:
            raise InvalidExpressionError(
                f"{what}: {e} uses symbols {sorted(map(str, bad))} that are neither "
                f"coordinates {self.q}, velocities {self.u} nor declared parameters "
                f"{self.params}; declare them with Chart(..., params=...)"
            )
        return e

    def require_same(self, other: Chart, what: str, *, time: bool = True) -> None:
        """Raise :class:`ChartMismatchError` unless ``other`` has this chart's coordinates ``q``, ``u`` (and ``t``
        unless ``time=False``): the library's one check that objects live on one chart.

        ``what`` names the argument that lives on ``other``; an ``other`` that is not a chart is an
        :class:`~frames.errors.ArgumentError`.
        """
        expect(other, Chart, name=what)
        if other.q != self.q or other.u != self.u or (time and other.t != self.t):
            raise ChartMismatchError(f"{what}: lives on {other!r}, expected {self!r} (objects on different charts)")

    def merged(self, other: Chart, what: str) -> Chart:
        """The chart of a combination of objects on ``self`` and ``other`` (params united)."""
        self.require_same(other, what)
        if other.params == self.params:
            return self
        return self.with_params(other.params)

    # ------------------------------------------------------------ calculus
    def total_derivative(
        self,
        f: object,
        *,
        velocities: Sequence[Any] | None = None,
        accelerations: Sequence[Any] | None = None,
        extra: Mapping[sp.Symbol, Any] | None = None,
        time: bool = True,
    ) -> sp.Expr:
        r"""Total derivative along a curve: the library's one ``d/dt``.

        .. math::
            \dot f = \dot q^i \frac{\partial f}{\partial q^i}
            + \ddot q^i \frac{\partial f}{\partial u^i}
            + \dot x \frac{\partial f}{\partial x} + \frac{\partial f}{\partial t}

        Parameters
        ----------
        f : expression in ``(q, u, t)`` and possibly ``extra`` symbols
        velocities : sequence, optional
            ``q̇`` (default the fibre coordinates ``u``: for a function of (q, u) without the
            other terms this is the derivative along the complete lift of the identity, the
            q-part of any second-order field). Pass the velocities on a constraint
            submanifold, e.g. ``u = v^α X_α``, to differentiate along D.
        accelerations : sequence, optional
            ``q̈``; when given, the ``∂f/∂u`` terms are included (``E_k`` of the MVM, (31)).
        extra : mapping, optional
            Further time-dependent symbols ``x ↦ ẋ`` (multipliers and their rates).
        time : bool
            Include ``∂f/∂t`` (when the chart has a time symbol). ``False`` gives the
            autonomous part, as in the complete lift ``Z^C``.
        """
        e = as_expr(f, name="Chart.total_derivative: f")
        n = self.dim
        qd = self.u if velocities is None else as_exprs(velocities, name="Chart.total_derivative: velocities", length=n)
        if accelerations is not None:
            accelerations = as_exprs(accelerations, name="Chart.total_derivative: accelerations", length=n)
        if extra:
            extra = as_subs(extra, name="Chart.total_derivative: extra")
        time = as_flag(time, name="Chart.total_derivative: time")
        out = sp.Add(*[ui * derivative(e, qi) for qi, ui in zip(self.q, qd, strict=True)])
        if accelerations is not None:
            out += sp.Add(*[a * derivative(e, ui) for ui, a in zip(self.u, accelerations, strict=True)])
        if extra:
            out += sp.Add(*[xd * derivative(e, x) for x, xd in extra.items()])
        if time and self.t is not None:
            out += derivative(e, self.t)
        return out

    def coordinate_substitution(self, values: Mapping[Any, Any]) -> dict[sp.Symbol, Any]:
        """Translate a mapping keyed by symbols or names into one keyed by symbols."""
        expect(values, Mapping, name="Chart.coordinate_substitution: values", what="a mapping symbol or name -> value")
        by_name = {s.name: s for s in (*self.q, *self.u, *self.params)}
        if self.t is not None:
            by_name[self.t.name] = self.t
        out: dict[sp.Symbol, Any] = {}
        for k, v in values.items():
            if isinstance(k, str):
                if k not in by_name:
                    raise InvalidExpressionError(
                        f"Chart.coordinate_substitution: values: unknown name {k!r} for chart {self!r}"
                    )
                key = by_name[k]
            elif isinstance(k, sp.Symbol):
                key = k
            else:
                raise InvalidExpressionError(
                    f"Chart.coordinate_substitution: values: key {k!r} is neither a symbol nor a name of the chart"
                )
            if isinstance(v, str | bytes):
                as_expr(v, name=f"Chart.coordinate_substitution: values[{key}]")  # raises: strings are never parsed
            out[key] = v
        return out


def _sympify_checked(expr: object, what: str) -> sp.Expr:
    return as_expr(expr, name=what)
