"""Code generation: ``sympy.cse`` then NumPy/``math`` source, compiled once per system (:class:`CompiledSystem`)."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.printing.numpy import NumPyPrinter
from sympy.printing.pycode import PythonCodePrinter

from ..dynamics import OdeSystem
from ..errors import (
    ArgumentError,
    FramesError,
    InvalidExpressionError,
    ParameterError,
    SingularityError,
)

# ----------------------------------------------------------------------------- code generation
__all__ = ["CompiledSystem", "srepr_key"]

_MODULES = {"numpy": np, "math": math}


class _Printer(NumPyPrinter):
    pass


def _codegen(
    exprs: Sequence[sp.Expr], groups: Sequence[tuple[str, Sequence[sp.Symbol], bool]], mode: str, fname: str
) -> tuple[Callable[..., Any], str]:
    """Generate ``fname(*groups)`` evaluating ``exprs`` after common-subexpression elimination.

    ``groups`` are ``(argname, symbols, scalar)``; a scalar group binds its single symbol to the
    argument itself, a vector group binds ``symbols[i]`` to ``arg[i]``. ``mode="math"`` returns a
    list of Python floats (one state); ``mode="numpy"`` returns an array of shape
    ``(len(exprs),) + batch`` where ``batch`` broadcasts the trailing shapes of the arguments.
    """
    exprs = [sp.sympify(e, strict=True) for e in exprs]
    for e in exprs:
        undef = e.atoms(AppliedUndef)
        if undef:
            raise InvalidExpressionError(
                f"cannot generate numeric code: undefined function(s) {sorted(map(str, undef))}; "
                "substitute concrete expressions first"
            )
    rename: dict[sp.Symbol, sp.Symbol] = {}
    bind: dict[sp.Symbol, str] = {}
    for gname, syms, scalar in groups:
        for i, s in enumerate(syms):
            if s in rename:
                continue
            new = sp.Symbol(f"_{gname}_{i}")
            rename[s] = new
            bind[new] = gname if scalar else f"{gname}[{i}]"
    free: set[sp.Basic] = set().union(*(e.free_symbols for e in exprs)) if exprs else set()
    stray = free - set(rename)
    if stray:
        raise InvalidExpressionError(f"cannot generate numeric code: unbound symbols {sorted(map(str, stray))}")
    ren = [e.xreplace(rename) for e in exprs]
    repl, red = sp.cse(ren, symbols=sp.numbered_symbols("_c"), order="none")
    printer: PythonCodePrinter = _Printer() if mode == "numpy" else PythonCodePrinter()
    used: set[sp.Basic] = set().union(*(e.free_symbols for _, e in repl), *(e.free_symbols for e in red))
    argnames = [g[0] for g in groups]
    lines = [f"def {fname}({', '.join(argnames)}):"]
    lines += [f"    {s} = {src}" for s, src in bind.items() if s in used]
    lines += [f"    {s} = {printer.doprint(e)}" for s, e in repl]
    if mode == "numpy":
        shape_parts = [f"numpy.shape({g[0]})" if g[2] else f"numpy.shape({g[0]})[1:]" for g in groups]
        lines.append(f"    _shape = numpy.broadcast_shapes({', '.join(shape_parts)})")
        lines.append(f"    _out = numpy.empty(({len(red)},) + _shape)")
        lines += [f"    _out[{i}] = {printer.doprint(e)}" for i, e in enumerate(red)]
        lines.append("    return _out")
    else:
        lines.append("    return [" + ", ".join(f"{printer.doprint(e)}" for e in red) + "]")
    src = "\n".join(lines) + "\n"
    ns: dict[str, Any] = dict(_MODULES)
    exec(compile(src, f"<frames generated {fname}>", "exec"), ns)
    return ns[fname], src


# ----------------------------------------------------------------------------- compiled system
class CompiledSystem:
    r"""Numeric functions generated from an :class:`OdeSystem`.

    Equality is identity: it holds generated code; compare the ``system`` (an :class:`OdeSystem`, a value).

    ``rhs(t, y, p)`` evaluates ``f``: for ``y`` of shape ``(n_state,)`` through generated
    ``math``-module code (fast for one state), for ``y`` of shape ``(n_state, batch)`` through
    generated NumPy code (``p`` of shape ``(n_params,)`` or ``(n_params, batch)``). Both are
    generated after ``sympy.cse``; :attr:`source` holds the generated code. Instances pickle by
    their :class:`OdeSystem` (the code is regenerated on unpickling), so they can be shipped to
    process pools and dask workers.
    """

    def __init__(self, system: OdeSystem) -> None:
        if not isinstance(system, OdeSystem):
            raise ArgumentError(f"CompiledSystem: system must be an OdeSystem, got {type(system).__name__}")
        self.system = system
        S = system
        ch = S.chart
        tg = ("t", (S.time,), True)
        yg = ("y", S.states, False)
        pg = ("p", S.params, False)
        self._rhs_math, src1 = _codegen(S.rhs, [tg, yg, pg], "math", "rhs_one")
        self._rhs_np, src2 = _codegen(S.rhs, [tg, yg, pg], "numpy", "rhs_batch")
        self._obs_keys = list(S.observables)
        self._obs_len = [len(S.observables[k]) for k in self._obs_keys]
        flat = [e for k in self._obs_keys for e in S.observables[k]]
        self._obs, _ = _codegen(flat, [tg, yg, pg], "numpy", "observe")
        extra_syms = tuple(s for syms in S.extra_inputs.values() for s in syms)
        self._init, _ = _codegen(
            S.initial, [tg, ("q", ch.q, False), ("u", ch.u, False), ("x", extra_syms, False), pg], "numpy", "initial"
        )
        self._A = None
        if S.constraint_matrix is not None:
            self._A, _ = _codegen(list(S.constraint_matrix), [tg, ("q", ch.q, False), pg], "numpy", "A")
        self._D = None
        if S.distribution_matrix is not None:
            self._D, _ = _codegen(list(S.distribution_matrix), [tg, ("q", ch.q, False), pg], "numpy", "D")
        self._M = None
        if S.metric is not None:
            self._M, _ = _codegen(list(S.metric), [tg, ("q", ch.q, False), ("u", ch.u, False), pg], "numpy", "M")
        self._guard = None
        self.guard_depends_on_state = False
        if S.guard is not None:
            self._guard, _ = _codegen([S.guard], [tg, yg, pg], "numpy", "guard")
            self.guard_depends_on_state = bool(S.guard.free_symbols & (set(S.states) | {S.time}))
        self.source = src1 + "\n" + src2
        self.key = hashlib.sha256(srepr_key(S).encode()).hexdigest()
        _LOADED.setdefault(self.key, self)
        self.param_names = tuple(p.name for p in S.params)

    def __reduce__(self) -> tuple[Any, ...]:
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
            return np.array(self._rhs_math(float(t), y.tolist(), np.asarray(p, dtype=float).tolist()))
        with np.errstate(all="ignore"):
            return self._rhs_np(t, y, p)  # type: ignore[no-any-return]

    def fun(self, p: Any, check: bool = True) -> Callable[[float, np.ndarray], np.ndarray]:
        """``f(t, y)`` for one state with the parameters ``p`` bound (for ``solve_ivp``).

        With ``check`` a non-finite value or a floating-point exception raises
        :class:`SingularityError` naming the time and the state.
        """
        plist = np.asarray(p, dtype=float).tolist()
        f = self._rhs_math
        if not check:

            def fast(t: float, y: np.ndarray) -> np.ndarray:
                return np.array(f(t, y.tolist(), plist))

            return fast
        isfinite = math.isfinite

        def checked(t: float, y: np.ndarray) -> np.ndarray:
            try:
                r = f(t, y.tolist(), plist)
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

    def fun_batch(self, p: Any) -> Callable[[float, np.ndarray], np.ndarray]:
        """``f(t, Y)`` for ``Y`` of shape ``(n_state, batch)`` with ``p`` bound."""
        f = self._rhs_np

        def batch(t: float, Y: np.ndarray) -> np.ndarray:
            with np.errstate(all="ignore"):
                return f(t, Y, p)  # type: ignore[no-any-return]

        return batch

    def guard(self, t: Any, y: Any, p: Any) -> np.ndarray | None:
        """The guard (vanishes where the system is singular), or None."""
        if self._guard is None:
            return None
        with np.errstate(all="ignore"):
            return self._guard(t, np.asarray(y, dtype=float), p)[0]  # type: ignore[no-any-return]

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

    def observe(self, t: np.ndarray, Y: np.ndarray, p: Any) -> dict[str, np.ndarray]:
        """Observables along states ``Y`` (``(n_state, N)``) at times ``t`` (``(N,)``)."""
        with np.errstate(all="ignore"):
            out = self._obs(t, Y, p)
        res: dict[str, np.ndarray] = {}
        k = 0
        for key, ln in zip(self._obs_keys, self._obs_len, strict=True):
            res[key] = out[k : k + ln]
            k += ln
        return res

    def constraint_values(self, t: Any, q: np.ndarray, u: np.ndarray, p: Any) -> np.ndarray | None:
        """``A(q) u`` for ``q, u`` of shape ``(n, ...)``; None without constraints."""
        if self._A is None:
            return None
        n = self.system.dim
        Af = self._A(t, q, p)
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
        if self._A is None:
            return np.zeros(N)
        if self._D is not None:  # least squares on a basis X_α of D: u − X_Dᵀ(X_D X_Dᵀ)⁻¹X_D u
            Df = self._D(t, q, p)
            Df = np.broadcast_to(Df, (Df.shape[0], N))
            Xd = Df.reshape(Df.shape[0] // n, n, N).transpose(2, 0, 1)  # (N, m, n)
            c = np.einsum("Naj,jN->Na", Xd, u)
            w = np.linalg.solve(Xd @ Xd.transpose(0, 2, 1), c[..., None])[..., 0]
            r = u.T - np.einsum("Naj,Na->Nj", Xd, w)
            return np.sqrt(np.sum(r * r, axis=1))  # type: ignore[no-any-return]
        Af = np.broadcast_to(self._A(t, q, p), (self._A(t, q, p).shape[0], N))
        Am = Af.reshape(Af.shape[0] // n, n, N).transpose(2, 0, 1)  # (N, k, n)
        c = np.einsum("Naj,jN->Na", Am, u)
        G = Am @ Am.transpose(0, 2, 1)
        lam = np.linalg.solve(G, c[..., None])[..., 0]
        r = np.einsum("Naj,Na->Nj", Am, lam)
        return np.sqrt(np.sum(r * r, axis=1))  # type: ignore[no-any-return]

    def initial_state(self, t0: float, q0: np.ndarray, u0: np.ndarray, x0: np.ndarray, p: Any) -> np.ndarray:
        """The state from natural data (``(n,)`` or ``(n, batch)`` arrays)."""
        return self._init(t0, q0, u0, x0, p)  # type: ignore[no-any-return]

    def project(self, how: str, t0: float, q0: np.ndarray, u0: np.ndarray, p: Any) -> np.ndarray:
        r"""Project ``u0`` onto ``D_{q0} = ker A(q0)``.

        ``"kinetic"``: ``u − M⁻¹Aᵀ(AM⁻¹Aᵀ)⁻¹Au`` with ``M = ∂²L/∂u∂u`` (orthogonal for the kinetic
        metric; the velocity right after an ideal constraint impulse). ``"euclidean"``: the same with
        ``M = I``. ``"frame"``: drop the transverse quasi-velocities, ``u ↦ Σ_α (θ^α u) X_α``.
        """
        n = self.system.dim
        Af = self._A(t0, q0, p) if self._A is not None else None
        if Af is None:
            return u0
        A = Af.reshape(-1, n)
        if how == "frame":
            S = self.system
            if S.form != "reduced":
                raise FramesError("projection 'frame' is available in the reduced form only")
            # the reduced state keeps θ^α(u) only; its u = v^α X_α drops the transverse part
            y0 = self._init(t0, q0, u0, np.zeros(sum(len(s) for s in S.extra_inputs.values())), p)
            obs = self.observe(np.array([t0]), y0.reshape(-1, 1), p)
            return obs["u"][:, 0]  # type: ignore[no-any-return]
        if how == "kinetic":
            if self._M is None:
                raise FramesError(
                    "projection 'kinetic' needs the Lagrangian: pass system= or lagrangian=, or use 'euclidean'"
                )
            M = self._M(t0, q0, u0, p).reshape(n, n)
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
        for x in (S.constraint_matrix, S.metric, S.guard, S.time, S.chart.q, S.chart.u, S.distribution_matrix)
    ]
    parts += [k + sp.srepr(val) for k, val in S.extra_inputs.items()]
    return "|".join(parts)


def _load_compiled(system: OdeSystem, key: str) -> CompiledSystem:
    """Unpickle: reuse code already generated in this process for the same system."""
    hit = _LOADED.get(key)
    return hit if hit is not None else CompiledSystem(system)
