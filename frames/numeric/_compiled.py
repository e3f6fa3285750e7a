"""Code generation: ``sympy.cse`` then NumPy/``math`` source, compiled once per system (:class:`CompiledSystem`)."""

from __future__ import annotations

import hashlib
import math
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.printing.numpy import NumPyPrinter
from sympy.printing.pycode import PythonCodePrinter
from sympy.simplify.cse_main import tree_cse

from ..dynamics import OdeSystem
from ..errors import (
    ArgumentError,
    FramesError,
    InvalidExpressionError,
    ParameterError,
    SingularityError,
)
from ._progress import heartbeat

# ----------------------------------------------------------------------------- code generation
__all__ = ["CompiledSystem", "srepr_key"]

_MODULES = {"numpy": np, "math": math}


class _SlotNames:
    """Prints the argument symbols by their slot names (``_y_3``), so the expressions need no renaming."""

    names: dict[sp.Basic, str]

    def _print_Symbol(self, expr: sp.Symbol) -> str:
        name = self.names.get(expr)
        return name if name is not None else super()._print_Symbol(expr)  # type: ignore[misc, no-any-return]


class _Printer(_SlotNames, NumPyPrinter):
    pass


class _MathPrinter(_SlotNames, PythonCodePrinter):
    pass


#: an ``Add`` or ``Mul`` with more terms than this is printed through partial results (Python's compiler
#: recurses once per operand of a chain ``a + b + ...``, and refuses chains of a few thousand)
_WIDE = 64


def _split_wide(e: sp.Basic, fresh: Any, out: list[tuple[sp.Symbol, sp.Basic]]) -> sp.Basic:
    """``e`` with every ``Add``/``Mul`` of more than :data:`_WIDE` operands cut into partial results.

    The partial results are appended to ``out`` as assignments ``(symbol, chunk)`` in evaluation order.
    """
    if not e.args:
        return e
    args = [_split_wide(a, fresh, out) for a in e.args]
    if (e.is_Add or e.is_Mul) and len(args) > _WIDE:
        while len(args) > _WIDE:
            parts = []
            for i in range(0, len(args), _WIDE):
                s = next(fresh)
                out.append((s, e.func(*args[i : i + _WIDE], evaluate=False)))
                parts.append(s)
            args = parts
        return e.func(*args, evaluate=False)
    if all(a is b for a, b in zip(args, e.args, strict=True)):
        return e
    return e.func(*args, evaluate=False)


def _checked(exprs: Sequence[Any], allowed: set[sp.Symbol]) -> list[sp.Expr]:
    """``exprs`` as sympy expressions, refused if they hold an undefined function or a symbol not in ``allowed``."""
    out = [sp.sympify(e, strict=True) for e in exprs]
    for e in out:
        undef = e.atoms(AppliedUndef)
        if undef:
            raise InvalidExpressionError(
                f"cannot generate numeric code: undefined function(s) {sorted(map(str, undef))}; "
                "substitute concrete expressions first"
            )
    free: set[sp.Basic] = set().union(*(e.free_symbols for e in out)) if out else set()
    stray = free - allowed
    if stray:
        raise InvalidExpressionError(f"cannot generate numeric code: unbound symbols {sorted(map(str, stray))}")
    return out


#: above this many nodes, ``sympy.cse``'s search for common sub-sums and sub-products (superlinear: seconds on
#: the tens of thousands of operations of a multiplier in natural coordinates) gives way to the common subtrees
_FULL_CSE = 6000
#: up to this many nodes no common subexpressions are sought (the state itself, a constraint row)
_NO_CSE = 24


def _size_exceeds(exprs: Sequence[sp.Basic], limit: int) -> bool:
    """Whether ``exprs`` hold more than ``limit`` nodes (the count stops at ``limit``)."""
    k = 0
    for e in exprs:
        for _ in sp.preorder_traversal(e):
            k += 1
            if k > limit:
                return True
    return False


class _Prepared:
    """Expressions reduced by ``sympy.cse``, their symbols bound to argument slots: printed once per mode."""

    __slots__ = ("argnames", "bind", "groups", "red", "repl", "slots", "used")

    def __init__(
        self, exprs: Sequence[sp.Expr], groups: Sequence[tuple[str, Sequence[sp.Symbol], bool]], check: bool = True
    ) -> None:
        ren = _checked(exprs, {s for _, syms, _ in groups for s in syms}) if check else list(exprs)
        self.slots: dict[sp.Basic, str] = {}  # argument symbol -> its local name (printed in its place)
        self.bind: dict[str, str] = {}  # local name -> where it is read from
        for gname, syms, scalar in groups:
            for i, s in enumerate(syms):
                if s in self.slots:
                    continue
                self.slots[s] = f"_{gname}_{i}"
                self.bind[self.slots[s]] = gname if scalar else f"{gname}[{i}]"
        if not _size_exceeds(ren, _NO_CSE):  # a few symbols and operations: nothing worth sharing
            repl, red = [], ren
        elif _size_exceeds(ren, _FULL_CSE):  # common subtrees only: linear time on large expressions
            repl, red = tree_cse(ren, sp.numbered_symbols("_c"), opt_subs={}, order="none")
        else:  # also common sub-sums and sub-products: faster code, superlinear time
            repl, red = sp.cse(ren, symbols=sp.numbered_symbols("_c"), order="none")
        fresh = sp.numbered_symbols("_w")
        self.repl: list[tuple[sp.Symbol, sp.Basic]] = []
        for s, e in repl:
            e = _split_wide(e, fresh, self.repl)
            self.repl.append((s, e))
        self.red = [_split_wide(e, fresh, self.repl) for e in red]
        self.used: set[sp.Basic] = set().union(
            *(e.free_symbols for _, e in self.repl), *(e.free_symbols for e in self.red)
        )
        self.groups = [(g[0], g[2]) for g in groups]
        self.argnames = [g[0] for g in groups]

    def emit(self, mode: str, fname: str) -> tuple[Callable[..., Any], str]:
        """Print and compile ``fname(*groups)`` (see :func:`_codegen`)."""
        settings = {"order": "none"}  # the terms as they are: sorting them costs more than the rest of the printing
        printer: PythonCodePrinter = _Printer(settings) if mode == "numpy" else _MathPrinter(settings)
        printer.names = self.slots  # type: ignore[attr-defined]
        lines = [f"def {fname}({', '.join(self.argnames)}):"]
        used = {self.slots[x] for x in self.used if x in self.slots}
        lines += [f"    {name} = {src}" for name, src in self.bind.items() if name in used]
        lines += [f"    {s} = {printer.doprint(e)}" for s, e in self.repl]
        if mode == "numpy":
            shape_parts = [f"numpy.shape({g})" if scalar else f"numpy.shape({g})[1:]" for g, scalar in self.groups]
            lines.append(f"    _shape = numpy.broadcast_shapes({', '.join(shape_parts)})")
            lines.append(f"    _out = numpy.empty(({len(self.red)},) + _shape)")
            lines += [f"    _out[{i}] = {printer.doprint(e)}" for i, e in enumerate(self.red)]
            lines.append("    return _out")
        else:
            lines.append("    return [" + ", ".join(f"{printer.doprint(e)}" for e in self.red) + "]")
        src = "\n".join(lines) + "\n"
        ns: dict[str, Any] = dict(_MODULES)
        exec(compile(src, f"<frames generated {fname}>", "exec"), ns)
        return ns[fname], src


def _codegen(
    exprs: Sequence[sp.Expr], groups: Sequence[tuple[str, Sequence[sp.Symbol], bool]], mode: str, fname: str
) -> tuple[Callable[..., Any], str]:
    """Generate ``fname(*groups)`` evaluating ``exprs`` after common-subexpression elimination.

    ``groups`` are ``(argname, symbols, scalar)``; a scalar group binds its single symbol to the
    argument itself, a vector group binds ``symbols[i]`` to ``arg[i]``. ``mode="math"`` returns a
    list of Python floats (one state); ``mode="numpy"`` returns an array of shape
    ``(len(exprs),) + batch`` where ``batch`` broadcasts the trailing shapes of the arguments.
    Sums and products of many operands are evaluated through partial results (:data:`_WIDE`).
    """
    return _Prepared(exprs, groups).emit(mode, fname)


# ----------------------------------------------------------------------------- compiled system
#: the observables compiled with the trajectory itself (the state in natural coordinates); the others
#: (energy, multipliers, a method's extras) are compiled on first use
KINEMATIC = ("q", "u", "v")
#: the functions whose expressions are checked (undefined functions, unbound symbols) when the system is compiled
_CHECKED_AT_INIT = ("rhs", "initial")


class CompiledSystem:
    r"""Numeric functions generated from an :class:`OdeSystem`, each on first use.

    Equality is identity: it holds generated code; compare the ``system`` (an :class:`OdeSystem`, a value).

    ``rhs(t, y, p)`` evaluates ``f``: for ``y`` of shape ``(n_state,)`` through generated
    ``math``-module code (fast for one state), for ``y`` of shape ``(n_state, batch)`` through
    generated NumPy code (``p`` of shape ``(n_params,)`` or ``(n_params, batch)``). Both are
    printed from one ``sympy.cse`` of the right-hand side; :attr:`source` holds the generated code.

    **What is compiled when.** Constructing a :class:`CompiledSystem` generates nothing. The one-state
    right-hand side is generated on the first call of :meth:`rhs` or :meth:`fun` (the first thing an
    integration needs); the batch right-hand side on the first batch call; the initial map, the
    constraint matrix, the basis of D, the metric and the guard when first evaluated; and each
    observable (``q``, ``u``, ``v``, ``energy``, ``multipliers``, a method's extras) separately, when
    :meth:`observe` is first asked for it. A trajectory asks for ``energy`` and ``multipliers`` only
    when they are read (:class:`~frames.numeric.Trajectory` evaluates them lazily), so the large
    expressions of the multipliers cost nothing to a user who does not look at them;
    :meth:`compile_all` generates everything at once (e.g. before shipping to workers).

    Instances pickle by their :class:`OdeSystem` (the code is regenerated on unpickling, or reused
    from an instance already loaded in the process), so they can be shipped to process pools and dask
    workers.
    """

    def __init__(self, system: OdeSystem) -> None:
        if not isinstance(system, OdeSystem):
            raise ArgumentError(f"CompiledSystem: system must be an OdeSystem, got {type(system).__name__}")
        self.system = system
        S = system
        self._lock = threading.RLock()
        self._fns: dict[str, Callable[..., Any]] = {}
        self._sources: dict[str, str] = {}
        self._prepared: dict[str, _Prepared] = {}
        self._key: str | None = None
        self._obs_keys = list(S.observables)
        self.guard_depends_on_state = S.guard is not None and bool(S.guard.free_symbols & (set(S.states) | {S.time}))
        n = S.chart.dim
        #: whether the integrators watch the frame along the motion: the system carries its adapted frame, the
        #: frame moves with ``(t, q)``, and the state begins with ``q`` (:mod:`frames.numeric._frame`)
        self.frame_watched = (
            S.frame_matrix is not None
            and tuple(S.states[:n]) == tuple(S.chart.q)
            and bool(S.frame_matrix.free_symbols & (set(S.chart.q) | {S.time}))
        )
        self.param_names = tuple(p.name for p in S.params)
        for what in _CHECKED_AT_INIT:  # refused now, not at first use (the others are checked when generated)
            exprs, groups = self._groups(what)
            _checked(exprs, {s for _, syms, _ in groups for s in syms})

    # ---------------------------------------------------------------- generated functions, on first use
    def _groups(self, what: str) -> tuple[list[Any], list[tuple[str, Sequence[sp.Symbol], bool]]]:
        """The expressions and argument groups of the function ``what``."""
        S = self.system
        ch = S.chart
        tg = ("t", (S.time,), True)
        yg = ("y", S.states, False)
        pg = ("p", S.params, False)
        if what == "rhs":
            return list(S.rhs), [tg, yg, pg]
        if what.startswith("obs:"):
            return list(S.observables[what[4:]]), [tg, yg, pg]
        if what == "natural":
            return [*S.observables["q"], *S.observables["u"]], [tg, yg, pg]
        if what == "initial":
            extra_syms = tuple(s for syms in S.extra_inputs.values() for s in syms)
            return list(S.initial), [tg, ("q", ch.q, False), ("u", ch.u, False), ("x", extra_syms, False), pg]
        if what == "A":
            return ([] if S.constraint_matrix is None else list(S.constraint_matrix)), [tg, ("q", ch.q, False), pg]
        if what == "D":
            return ([] if S.distribution_matrix is None else list(S.distribution_matrix)), [tg, ("q", ch.q, False), pg]
        if what == "M":
            return ([] if S.metric is None else list(S.metric)), [tg, ("q", ch.q, False), ("u", ch.u, False), pg]
        if what == "guard":
            return ([] if S.guard is None else [S.guard]), [tg, yg, pg]
        if what == "frame":
            return ([] if S.frame_matrix is None else list(S.frame_matrix)), [tg, ("q", ch.q, False), pg]
        raise FramesError(f"CompiledSystem: no generated function {what!r}")  # pragma: no cover

    def _fn(self, what: str, mode: str = "numpy") -> Callable[..., Any]:
        """The generated function ``what`` in ``mode`` (``"math"``: one state; ``"numpy"``: arrays), built once."""
        name = f"{what}/{mode}"
        hit = self._fns.get(name)
        if hit is not None:
            return hit
        with self._lock:
            hit = self._fns.get(name)
            if hit is None:
                with heartbeat(f"code generation of {name}"):
                    prep = self._prepared.get(what)
                    if prep is None:
                        exprs, groups = self._groups(what)
                        prep = _Prepared(exprs, groups, check=what not in _CHECKED_AT_INIT)
                        if what == "rhs":  # printed in both modes: keep the one cse
                            self._prepared[what] = prep
                    fname = {"rhs/math": "rhs_one", "rhs/numpy": "rhs_batch"}.get(name, what.replace(":", "_"))
                    hit, src = prep.emit(mode, fname)
                self._sources[name] = src
                self._fns[name] = hit
        return hit

    def compile_all(self) -> CompiledSystem:
        """Generate every function now (normally each is generated on first use); returns ``self``."""
        S = self.system
        self._fn("rhs", "math")
        self._fn("rhs")
        for k in self._obs_keys:
            self._fn(f"obs:{k}")
        self._fn("initial")
        for what, x in (
            ("A", S.constraint_matrix),
            ("D", S.distribution_matrix),
            ("M", S.metric),
            ("guard", S.guard),
            ("frame", S.frame_matrix),
        ):
            if x is not None:
                self._fn(what)
        return self

    @property
    def compiled_functions(self) -> tuple[str, ...]:
        """The names of the functions generated so far (``"rhs/math"``, ``"obs:multipliers/numpy"``, ...)."""
        return tuple(self._fns)

    @property
    def source(self) -> str:
        """The generated right-hand-side code: one state (``math``) and batch (NumPy)."""
        self._fn("rhs", "math")
        self._fn("rhs")
        return self._sources["rhs/math"] + "\n" + self._sources["rhs/numpy"]

    @property
    def key(self) -> str:
        """A hash of the system's content (the same system in another process has the same key)."""
        if self._key is None:
            self._key = hashlib.sha256(srepr_key(self.system).encode()).hexdigest()
        return self._key

    @property
    def has_constraints(self) -> bool:
        """Whether the system carries a constraint matrix ``A`` (with at least one row)."""
        A = self.system.constraint_matrix
        return A is not None and A.shape[0] > 0

    def __reduce__(self) -> tuple[Any, ...]:
        _LOADED.setdefault(self.key, self)
        return (_load_compiled, (self.system, self.key))

    def __repr__(self) -> str:
        return f"CompiledSystem({self.system!r})"

    # ---------------------------------------------------------------- parameters
    def bind(self, params: Mapping[Any, Any] | None = None, batch: int | None = None) -> np.ndarray:
        """Parameter vector from a mapping ``Symbol or name -> number`` (or length-``batch`` array).

        Raises
        ------
        ParameterError
            Missing, unknown or non-finite parameters.
        """
        given: dict[str, Any] = {}
        declared = {p.name for p in self.system.chart.params}
        for k, val in (params or {}).items():
            name = k.name if isinstance(k, sp.Symbol) else str(k)
            if name not in declared:
                raise ParameterError(f"unknown parameter {name!r}; the system's parameters are {sorted(declared)}")
            given[name] = val
        missing = [p for p in self.param_names if p not in given]
        if missing:
            raise ParameterError(f"missing values for parameters {missing} (needed: {list(self.param_names)})")
        cols = []
        for p in self.param_names:
            val = given[p]
            if isinstance(val, sp.Basic):
                try:
                    val = float(val)
                except TypeError as exc:
                    raise ParameterError(f"parameter {p!r}: {val!r} is not a number") from exc
            try:
                a = np.asarray(val, dtype=float)
            except (TypeError, ValueError) as exc:
                raise ParameterError(f"parameter {p!r}: {val!r} is not a number") from exc
            if a.ndim > 1 or (a.ndim == 1 and batch is None):
                raise ParameterError(f"parameter {p!r}: expected a number, got an array of shape {a.shape}")
            if a.ndim == 1 and a.shape[0] != batch:
                raise ParameterError(f"parameter {p!r}: {a.shape[0]} values for a batch of {batch}")
            if not np.all(np.isfinite(a)):
                raise ParameterError(f"parameter {p!r} is not finite: {given[p]!r}")
            cols.append(a)
        if not cols:
            return np.zeros((0,))
        if any(c.ndim == 1 for c in cols):
            return np.stack([np.broadcast_to(c, (batch,)) for c in cols]).astype(float)  # type: ignore[arg-type]
        return np.array([float(c) for c in cols])

    # ---------------------------------------------------------------- evaluation
    def rhs(self, t: float, y: Any, p: Any) -> np.ndarray:
        """``f(t, y; p)`` for one state ``(n_state,)`` or a batch ``(n_state, batch)``."""
        y = np.asarray(y, dtype=float)
        if y.ndim == 1:
            return np.array(self._fn("rhs", "math")(float(t), y.tolist(), np.asarray(p, dtype=float).tolist()))
        with np.errstate(all="ignore"):
            return self._fn("rhs")(t, y, p)  # type: ignore[no-any-return]

    def fun(self, p: Any, check: bool = True, laws: Sequence[Any] = ()) -> Callable[[float, np.ndarray], np.ndarray]:
        """``f(t, y)`` for one state with the parameters ``p`` bound (for ``solve_ivp``).

        With ``check`` a non-finite value or a floating-point exception raises
        :class:`SingularityError` naming the time and the state. ``laws`` (see :mod:`frames.numeric._laws`)
        overwrite their slots of ``p`` at each call: ``law.value(t, q, u)`` with the natural ``q, u`` of ``y``.
        """
        plist = np.asarray(p, dtype=float).tolist()
        f = self._fn("rhs", "math")
        if laws:
            f = self._driven(f, plist, laws)
        if not check:

            def fast(t: float, y: np.ndarray) -> np.ndarray:
                return np.array(f(t, y.tolist(), plist))

            return fast
        isfinite = math.isfinite

        def checked(t: float, y: np.ndarray) -> np.ndarray:
            try:
                r = f(t, y.tolist(), plist)
            except FramesError:  # an input law's own error (it names the parameter)
                raise
            except (ZeroDivisionError, ValueError, OverflowError) as exc:
                raise SingularityError(
                    f"right-hand side not defined at t = {t!r}, state {y.tolist()} ({type(exc).__name__}: {exc})",
                    t,
                    y,
                ) from exc
            if not all(map(isfinite, r)):
                raise SingularityError(f"right-hand side not finite at t = {t!r}, state {y.tolist()}: {r}", t, y)
            return np.array(r)

        return checked

    def _driven(self, f: Callable[..., Any], plist: list[float], laws: Sequence[Any]) -> Callable[..., Any]:
        """``f(t, y, p)`` with the laws' slots of ``p`` filled in at each call."""
        n = self.system.dim
        natural = self._fn("natural", "math") if any(law.arity == 3 for law in laws) else None

        def driven(t: float, y: list[float], p: list[float]) -> Any:
            pl = list(plist)
            q = u = None
            if natural is not None:
                qu = natural(t, y, plist)
                q, u = np.array(qu[:n]), np.array(qu[n:])
            for law in laws:
                pl[law.index] = law.value(t, q, u)
            return f(t, y, pl)

        return driven

    def fun_batch(self, p: Any, laws: Sequence[Any] = ()) -> Callable[[float, np.ndarray], np.ndarray]:
        """``f(t, Y)`` for ``Y`` of shape ``(n_state, batch)`` with ``p`` bound (and ``laws`` evaluated per call)."""
        f = self._fn("rhs")
        if not laws:

            def batch(t: float, Y: np.ndarray) -> np.ndarray:
                with np.errstate(all="ignore"):
                    return f(t, Y, p)  # type: ignore[no-any-return]

            return batch
        p0 = np.asarray(p, dtype=float)
        need_natural = any(law.arity == 3 for law in laws)

        def driven(t: float, Y: np.ndarray) -> np.ndarray:
            nb = Y.shape[1]
            P = np.array(np.broadcast_to(p0.reshape(p0.shape[0], -1), (p0.shape[0], nb)))
            q = u = None
            if need_natural:
                kin = self.observe(np.asarray(t, dtype=float), Y, p0 if p0.ndim == 1 else P, keys=("q", "u"))
                q, u = (
                    np.broadcast_to(kin["q"], (self.system.dim, nb)),
                    np.broadcast_to(kin["u"], (self.system.dim, nb)),
                )
            for law in laws:
                P[law.index] = law.values(t, q, u, nb)  # type: ignore[arg-type]
            with np.errstate(all="ignore"):
                return f(t, Y, P)  # type: ignore[no-any-return]

        return driven

    def guard(self, t: Any, y: Any, p: Any) -> np.ndarray | None:
        """The guard (vanishes where the system is singular), or None."""
        if self.system.guard is None:
            return None
        with np.errstate(all="ignore"):
            return self._fn("guard")(t, np.asarray(y, dtype=float), p)[0]  # type: ignore[no-any-return]

    def frame_function(self) -> Callable[[float, list[float], list[float]], list[float]]:
        """The generated one-state frame matrix: ``f(t, q, p)`` on Python floats and lists, the ``n²`` entries row by
        row (``math``-module code: what the integrators call at every step)."""
        return self._fn("frame", "math")

    def frame_matrices(self, t: Any, q: Any, p: Any) -> np.ndarray:
        """The adapted frame's matrix (rows ``X_i``) at coordinates ``q``: ``(n, n)`` for ``q`` of shape ``(n,)``,
        ``(B, n, n)`` for a batch ``(n, B)``. Only for a system that carries its frame (``frame_matrix``)."""
        n = self.system.dim
        q = np.asarray(q, dtype=float)
        if q.ndim == 1:
            F1 = self._fn("frame", "math")(float(t), q.tolist(), np.asarray(p, dtype=float).tolist())
            return np.array(F1, dtype=float).reshape(n, n)
        with np.errstate(all="ignore"):
            F = np.asarray(self._fn("frame")(t, q, p), dtype=float)
        F = np.broadcast_to(F.reshape(F.shape[0], -1), (n * n, q.shape[1]))
        return F.T.reshape(q.shape[1], n, n)  # type: ignore[no-any-return]

    def check_initial_guard(self, t0: float, y0: np.ndarray, p: Any) -> None:
        """Raise :class:`SingularityError` if the system is singular at the initial point (guard zero or not finite)."""
        g0 = self.guard(t0, y0, p)
        if g0 is not None and (not np.isfinite(g0) or g0 == 0):
            raise SingularityError(
                f"the system is singular at the initial point t = {t0}, state {y0.tolist()} "
                f"(guard {self.system.guard} = {g0})",
                t0,
                y0,
            )

    def observe(self, t: np.ndarray, Y: np.ndarray, p: Any, keys: Sequence[str] | None = None) -> dict[str, np.ndarray]:
        """Observables along states ``Y`` (``(n_state, N)``) at times ``t`` (``(N,)``).

        ``keys`` names the observables wanted (default all of them); each is generated on its first use.
        """
        if keys is None:
            keys = self._obs_keys
        res: dict[str, np.ndarray] = {}
        with np.errstate(all="ignore"):
            for key in keys:
                if key not in self.system.observables:
                    raise ArgumentError(
                        f"CompiledSystem.observe: no observable {key!r}; the system has {self._obs_keys}"
                    )
                res[key] = self._fn(f"obs:{key}")(t, Y, p)
        return res

    def natural_one(self, t: float, y: Sequence[float], p: Sequence[float]) -> list[float]:
        """``q`` then ``u`` (a list of ``2n`` floats) of one state ``y`` (``math``-module code)."""
        return self._fn("natural", "math")(t, y, p)  # type: ignore[no-any-return]

    def reactions(self, t: np.ndarray, q: np.ndarray, lam: np.ndarray, p: Any) -> np.ndarray | None:
        """``ρ_j = θ^a_j(q) λ_a`` (shape ``(N, n)``) from multipliers ``lam`` ``(k, N)``; None without constraints."""
        if self.system.constraint_matrix is None:
            return None
        n = self.system.dim
        Af = self._fn("A")(t, q, p)
        Am = Af.reshape((Af.shape[0] // n, n, *Af.shape[1:]))
        Am = np.broadcast_to(Am, (*Am.shape[:2], lam.shape[-1]))
        return np.einsum("ajN,aN->Nj", Am, lam)  # type: ignore[no-any-return]

    def constraint_values(self, t: Any, q: np.ndarray, u: np.ndarray, p: Any) -> np.ndarray | None:
        """``A(q) u`` for ``q, u`` of shape ``(n, ...)``; None without constraints."""
        if self.system.constraint_matrix is None:
            return None
        n = self.system.dim
        Af = self._fn("A")(t, q, p)
        Am = Af.reshape((Af.shape[0] // n, n, *Af.shape[1:]))
        return np.einsum("aj...,j...->a...", Am, u)  # type: ignore[no-any-return]

    def distance_to_D(self, t: Any, q: np.ndarray, u: np.ndarray, p: Any) -> np.ndarray:
        r"""Euclidean distance of ``u`` from ``D_q`` for ``q, u`` of shape ``(n, N)``.

        Computed from the basis ``X_α`` of D when known (well conditioned), otherwise as
        ``|Aᵀ(AAᵀ)⁻¹A u|``. Unlike ``A u`` it does not depend on the choice of annihilator rows;
        zeros without constraints.
        """
        n = self.system.dim
        N = q.shape[1]
        if self.system.constraint_matrix is None:
            return np.zeros(N)
        if self.system.distribution_matrix is not None:  # least squares on a basis X_α of D: u − X_Dᵀ(X_D X_Dᵀ)⁻¹X_D u
            Df = self._fn("D")(t, q, p)
            Df = np.broadcast_to(Df, (Df.shape[0], N))
            Xd = Df.reshape(Df.shape[0] // n, n, N).transpose(2, 0, 1)  # (N, m, n)
            c = np.einsum("Naj,jN->Na", Xd, u)
            w = np.linalg.solve(Xd @ Xd.transpose(0, 2, 1), c[..., None])[..., 0]
            r = u.T - np.einsum("Naj,Na->Nj", Xd, w)
            return np.sqrt(np.sum(r * r, axis=1))  # type: ignore[no-any-return]
        Af0 = self._fn("A")(t, q, p)
        Af = np.broadcast_to(Af0, (Af0.shape[0], N))
        Am = Af.reshape(Af.shape[0] // n, n, N).transpose(2, 0, 1)  # (N, k, n)
        c = np.einsum("Naj,jN->Na", Am, u)
        G = Am @ Am.transpose(0, 2, 1)
        lam = np.linalg.solve(G, c[..., None])[..., 0]
        r = np.einsum("Naj,Na->Nj", Am, lam)
        return np.sqrt(np.sum(r * r, axis=1))  # type: ignore[no-any-return]

    def initial_state(self, t0: float, q0: np.ndarray, u0: np.ndarray, x0: np.ndarray, p: Any) -> np.ndarray:
        """The state from natural data (``(n,)`` or ``(n, batch)`` arrays)."""
        return self._fn("initial")(t0, q0, u0, x0, p)  # type: ignore[no-any-return]

    def project(self, how: str, t0: float, q0: np.ndarray, u0: np.ndarray, p: Any) -> np.ndarray:
        r"""Project ``u0`` onto ``D_{q0} = ker A(q0)``.

        ``"kinetic"``: ``u − M⁻¹Aᵀ(AM⁻¹Aᵀ)⁻¹Au`` with ``M = ∂²L/∂u∂u`` (orthogonal for the kinetic
        metric; the velocity right after an ideal constraint impulse). ``"euclidean"``: the same with
        ``M = I``. ``"frame"``: drop the transverse quasi-velocities, ``u ↦ Σ_α (θ^α u) X_α``.
        """
        n = self.system.dim
        Af = self._fn("A")(t0, q0, p) if self.system.constraint_matrix is not None else None
        if Af is None:
            return u0
        A = Af.reshape(-1, n)
        if how == "frame":
            S = self.system
            if S.form != "reduced":
                raise FramesError("projection 'frame' is available in the reduced form only")
            # the reduced state keeps θ^α(u) only; its u = v^α X_α drops the transverse part
            y0 = self._fn("initial")(t0, q0, u0, np.zeros(sum(len(s) for s in S.extra_inputs.values())), p)
            obs = self.observe(np.array([t0]), y0.reshape(-1, 1), p, keys=("u",))
            return obs["u"][:, 0]  # type: ignore[no-any-return]
        if how == "kinetic":
            if self.system.metric is None:
                raise FramesError(
                    "projection 'kinetic' needs the Lagrangian: pass system= or lagrangian=, or use 'euclidean'"
                )
            M = self._fn("M")(t0, q0, u0, p).reshape(n, n)
        elif how == "euclidean":
            M = np.eye(n)
        else:
            raise FramesError(f"unknown projection {how!r}; use 'kinetic', 'euclidean' or 'frame'")
        MiAt = np.linalg.solve(M, A.T)
        lam = np.linalg.solve(A @ MiAt, A @ u0)
        return u0 - MiAt @ lam  # type: ignore[no-any-return]


_LOADED: dict[str, CompiledSystem] = {}


def srepr_key(S: OdeSystem) -> str:
    """A text key identifying an OdeSystem's content (used to reuse compiled code after unpickling)."""
    parts = [S.form, sp.srepr(S.states), sp.srepr(S.rhs), sp.srepr(S.params), sp.srepr(S.initial)]
    parts += [k + sp.srepr(val) for k, val in S.observables.items()]
    parts += [
        sp.srepr(x)
        for x in (
            S.constraint_matrix,
            S.metric,
            S.guard,
            S.time,
            S.chart.q,
            S.chart.u,
            S.distribution_matrix,
            S.frame_matrix,
        )
    ]
    parts += [k + sp.srepr(val) for k, val in S.extra_inputs.items()]
    return "|".join(parts)


def _load_compiled(system: OdeSystem, key: str) -> CompiledSystem:
    """Unpickle: reuse code already generated in this process for the same system."""
    hit = _LOADED.get(key)
    if hit is None:
        hit = _LOADED.setdefault(key, CompiledSystem(system))
    return hit
