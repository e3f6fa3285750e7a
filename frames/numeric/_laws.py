"""Inputs as callables: a parameter given as a function of ``t`` or of ``(t, q, u)`` (a time law or a feedback law),
evaluated at each right-hand-side call.

``integrate(..., params={"tau": law})`` with ``law`` callable makes the parameter ``tau`` an input:

* ``law(t)`` when its signature requires exactly one positional argument (``lambda t: sin(t)``,
  ``math.sin``, ``numpy.sin``);
* ``law(t, q, u)`` when it requires exactly three (``lambda t, q, u: -k * u[2]``): ``q`` and ``u`` are the
  natural coordinates and velocities (arrays ``(n,)``; in a batch ``(n, B)``, one column per member, and the
  law returns one number or ``B`` numbers).

The law is evaluated at every right-hand-side evaluation (and at the output times for the observables it
enters: the multipliers, the energy), so it must return a finite real number; anything else raises
:class:`~frames.errors.ArgumentError` naming the parameter, the time and the value. An input may enter the
right-hand side and the observables (the forces) only: one that enters the constraints, the frame, the metric,
the guard or the initial map is refused. Number-valued parameters keep the fast path (nothing is wrapped).

Examples
--------
A knife edge whose spin is damped by the feedback torque ``τ = −u_φ`` (``J = 1``): ``u_φ(t) = u_φ(0) e^{−t}``.

>>> import math
>>> import sympy as sp
>>> import frames as fr
>>> ch = fr.Chart("phi x y", params="J m tau")
>>> (phi, _, _), (uphi, ux, uy), (J, m, tau) = ch.q, ch.u, ch.params
>>> L = fr.Lagrangian(ch, J * uphi**2 / 2 + m * (ux**2 + uy**2) / 2)
>>> C = fr.LinearConstraints(ch, [-sp.sin(phi) * ux + sp.cos(phi) * uy])
>>> nh = fr.NonholonomicSystem.from_constraints(L, C, forces=[tau, 0, 0])
>>> law = lambda t, q, u: -u[0]
>>> tr = fr.integrate(nh, (0, 2), [0, 0, 0], [1, 1, 0], params={"J": 1, "m": 1, "tau": law}, rtol=1e-10, atol=1e-12)
>>> bool(abs(tr.u[-1, 0] - math.exp(-2)) < 1e-8), tr.info["inputs"]
(True, {'tau': '(t, q, u)'})
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import sympy as sp

from ..errors import ArgumentError, FramesError, OptionError, ParameterError
from ._compiled import KINEMATIC, CompiledSystem

__all__ = ["InputLaw", "TimeLaw", "batch_laws_along", "check_engine", "input_law", "laws_along", "split_inputs"]


class TimeLaw:
    """A law of ``t`` alone given as an input: ``integrate(..., inputs={"tau": TimeLaw(math.sin)})``.

    The sugar of ``inputs=``, whose laws are otherwise always called ``law(t, q, u)``; called with
    ``(t, q, u)`` it returns ``fn(t)``.
    """

    __slots__ = ("fn",)

    def __init__(self, fn: Any) -> None:
        if not callable(fn):
            raise ArgumentError(f"TimeLaw: {fn!r:.60} is not callable: expected a function of t")
        self.fn = fn

    def __repr__(self) -> str:
        return f"TimeLaw({self.fn!r:.60})"

    def __call__(self, t: Any, q: Any = None, u: Any = None) -> Any:
        return self.fn(t)


class _StateLaw:
    """An ``inputs=`` law: called ``law(t, q, u)``, never told apart by counting its arguments."""

    __slots__ = ("fn",)

    def __init__(self, fn: Any) -> None:
        self.fn = fn


def input_law(law: Any) -> TimeLaw | _StateLaw:
    """A law given in ``inputs=``, marked with how it is called (``TimeLaw``: ``fn(t)``; else ``law(t, q, u)``)."""
    return law if isinstance(law, TimeLaw) else _StateLaw(law)


def _is_law(val: Any) -> bool:
    """A user callable (not a number, an array, a sympy object or a class), or a law given in ``inputs=``."""
    if isinstance(val, TimeLaw | _StateLaw):
        return True
    return callable(val) and not isinstance(val, sp.Basic | type | np.ndarray)


def _law_of(val: Any, name: str) -> tuple[Any, int]:
    """``(fn, arity)``: an ``inputs=`` law as marked; a callable in ``params=`` by its required arguments (the
    documented sugar of ``params=``: one for ``law(t)``, three for ``law(t, q, u)``)."""
    if isinstance(val, TimeLaw):
        return val.fn, 1
    if isinstance(val, _StateLaw):
        return val.fn, 3
    return val, _arity(val, name)


def _arity(fn: Any, name: str) -> int:
    """1 for ``fn(t)``, 3 for ``fn(t, q, u)``, decided by the positional parameters the signature requires."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        if getattr(fn, "nin", None) == 1:  # a NumPy ufunc such as numpy.sin
            return 1
        raise ArgumentError(
            f"params[{name!r}]: cannot read the signature of {fn!r:.60}; wrap it: lambda t: ... or lambda t, q, u: ..."
        ) from None
    ps = list(sig.parameters.values())
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    required = [p for p in ps if p.kind in positional and p.default is p.empty]
    if any(p.kind == inspect.Parameter.KEYWORD_ONLY and p.default is p.empty for p in ps):
        raise ArgumentError(f"params[{name!r}]: an input law takes t or (t, q, u), not required keyword arguments")
    if len(required) in (1, 3):
        return len(required)
    raise ArgumentError(
        f"params[{name!r}]: an input law is a function of t or of (t, q, u); {fn!r:.60} requires "
        f"{len(required)} positional argument(s)"
    )


class InputLaw:
    """One parameter given as a callable: its name, its slot in the parameter vector, the law and its arity."""

    __slots__ = ("arity", "fn", "index", "name")

    def __init__(self, name: str, index: int, fn: Any) -> None:
        self.name = name
        self.index = index
        self.fn, self.arity = _law_of(fn, name)

    def __repr__(self) -> str:
        return f"InputLaw({self.name!r}, {'t' if self.arity == 1 else '(t, q, u)'})"

    @property
    def signature(self) -> str:
        """``"t"`` or ``"(t, q, u)"``."""
        return "t" if self.arity == 1 else "(t, q, u)"

    def _error(self, t: Any, what: str) -> ArgumentError:
        return ArgumentError(f"params[{self.name!r}]: the input law {what} at t = {t!r}; expected one finite number")

    def _call(self, t: float, q: Any, u: Any, where: str = "") -> Any:
        """The law's value as it returns it; an exception inside it becomes an :class:`ArgumentError`."""
        try:
            return self.fn(t) if self.arity == 1 else self.fn(t, q, u)
        except FramesError:
            raise
        except Exception as exc:
            raise ArgumentError(
                f"params[{self.name!r}]: the input law raised {type(exc).__name__} at t = {t!r}{where}: {exc}"
            ) from exc

    def value(self, t: float, q: Any, u: Any) -> float:
        """The law at one state: a finite float (else :class:`ArgumentError` naming the parameter)."""
        val = self._call(t, q, u)
        if type(val) is float:  # the fast path
            if not math.isfinite(val):
                raise self._error(t, f"returned {val!r}")
            return val
        try:
            a = np.asarray(val, dtype=float)
        except (TypeError, ValueError):
            raise self._error(t, f"returned {val!r:.60}, not a number") from None
        if a.shape != ():
            raise self._error(t, f"returned an array of shape {a.shape}")
        if not np.isfinite(a):
            raise self._error(t, f"returned {float(a)!r}")
        return float(a)

    def values(self, t: float, q: np.ndarray, u: np.ndarray, batch: int) -> np.ndarray:
        """The law for a batch (``q, u`` of shape ``(n, B)``): one number or ``B`` numbers, finite."""
        val = self._call(t, q, u, f" (in a batch q and u have shape (n, {batch}), one column per member)")
        try:
            a = np.asarray(val, dtype=float)
        except (TypeError, ValueError):
            raise self._error(t, f"returned {val!r:.60}, not a number") from None
        if a.shape not in ((), (batch,)):
            raise self._error(
                t, f"returned an array of shape {a.shape} for a batch of {batch} (expected () or ({batch},))"
            )
        if not np.all(np.isfinite(a)):
            raise self._error(t, f"returned non-finite values {a.ravel()[:5].tolist()}")
        return np.broadcast_to(a, (batch,))


def split_inputs(comp: CompiledSystem, params: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[InputLaw, ...]]:
    """``params`` (by name) as numbers, the callables replaced by a placeholder 0.0, and the laws of the callables.

    Raises
    ------
    ParameterError
        A callable given for a parameter that enters more than the right-hand side and the observables.
    ArgumentError
        A callable that is a function neither of ``t`` nor of ``(t, q, u)``.
    """
    if not any(_is_law(v) for v in params.values()):
        return dict(params), ()
    S = comp.system
    index = {name: i for i, name in enumerate(comp.param_names)}
    numbers: dict[str, Any] = {}
    laws: list[InputLaw] = []
    for name, val in params.items():
        if not _is_law(val):
            numbers[name] = val
            continue
        if name not in index:  # declared but not used by this system (unknown names: bind's error)
            if name not in {p.name for p in S.chart.params}:
                numbers[name] = val
            continue
        sym = S.params[index[name]]
        where = _fixed_uses(S, sym)
        if where:
            raise ParameterError(
                f"params[{name!r}]: a callable input may enter the right-hand side and the observables only "
                f"(forces); {name} enters {', '.join(where)}: give it a number"
            )
        laws.append(InputLaw(name, index[name], val))
        numbers[name] = 0.0  # a placeholder: every use of the slot is overwritten by the law
    return numbers, tuple(laws)


def _fixed_uses(S: Any, sym: sp.Symbol) -> list[str]:
    """Where ``sym`` enters what is evaluated without the laws (the initial map, constraints, metric, guard, q u v)."""
    out = []
    parts: Sequence[tuple[str, Any]] = (
        ("the initial map", S.initial),
        ("the constraints", S.constraint_matrix),
        ("the basis of D", S.distribution_matrix),
        ("the metric", S.metric),
        ("the guard", None if S.guard is None else [S.guard]),
        *((f"the observable {k}", S.observables[k]) for k in KINEMATIC),
    )
    for label, exprs in parts:
        if exprs is not None and any(sym in sp.sympify(e, strict=True).free_symbols for e in exprs):
            out.append(label)
    return out


def check_engine(laws: Sequence[InputLaw], what: str) -> None:
    """Refuse callable inputs for an engine that takes numbers only (``backend='numba'``, ``'lda-midpoint'``)."""
    if laws:
        names = ", ".join(repr(law.name) for law in laws)
        raise OptionError(
            f"integrate: params[{names}] given as callables: {what} takes numbers only; callable inputs are "
            "evaluated by the numpy backend with scipy's methods or the NumPy batch (backend='numpy', the default)"
        )


def laws_along(
    comp: CompiledSystem, laws: Sequence[InputLaw], t: np.ndarray, q: np.ndarray, u: np.ndarray, p: np.ndarray
) -> np.ndarray:
    """The parameters at the samples of one trajectory, ``(n_params, N)``: ``p`` with the laws evaluated at each
    ``(t_k, q_k, u_k)`` (``q, u`` of shape ``(n, N)``)."""
    N = len(t)
    P = np.repeat(np.asarray(p, dtype=float).reshape(-1, 1), N, axis=1)
    for k in range(N):
        for law in laws:
            P[law.index, k] = law.value(float(t[k]), q[:, k], u[:, k])
    return P


def batch_laws_along(
    laws: Sequence[InputLaw], te: np.ndarray, q: np.ndarray, u: np.ndarray, pf: np.ndarray, nb: int
) -> np.ndarray:
    """As :func:`laws_along` on a batch's member-major samples (``q, u`` of shape ``(n, nb·N)``)."""
    N = len(te)
    P = np.array(np.broadcast_to(pf.reshape(pf.shape[0], -1), (pf.shape[0], nb * N)), dtype=float)
    for k in range(N):
        cols = np.arange(nb) * N + k
        for law in laws:
            P[law.index, cols] = law.values(float(te[k]), q[:, cols], u[:, cols], nb)
    return P
