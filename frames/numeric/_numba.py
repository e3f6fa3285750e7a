r"""The compiled backend (``backend="numba"``): jitted right-hand sides and integrators.

numba is optional (``pip install 'frames[numba]'``) and imported only here, when the backend is
used. For a :class:`~frames.numeric._compiled.CompiledSystem` the right-hand side is generated
again as scalar Python (``math`` functions, after ``sympy.cse``), writing into an output array,
and compiled with ``numba.njit``. The integrators are jitted too and run every batch member in
parallel (``prange``):

* ``"RK4"``: the classical fixed-step scheme with cubic Hermite output at ``t_eval``, the same
  arithmetic as the NumPy batch path (:func:`frames.numeric._rk.rk4_batch`);
* ``"RK45"``: Dormand–Prince 5(4) with scipy's step-size control (safety 0.9, factors 0.2..10,
  exponent −1/5, RMS norm of ``atol + rtol |y|``) **per member** (the NumPy batch path steps the
  batch in lock-step; both meet the tolerance of a per-trajectory ``solve_ivp``), with the
  method's 4th-order dense output at ``t_eval``.

Compiled kernels are cached per generated source, so a system is compiled once per process.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
import sympy as sp
from sympy.printing.pycode import PythonCodePrinter

from ..errors import IntegrationError, OptionalDependencyError, SingularityError

__all__ = ["numba_available", "rhs_kernel", "rk4_numba", "dp45_numba"]

_KERNELS: dict[str, Any] = {}
_INTEGRATORS: dict[str, Any] = {}


def _numba() -> Any:
    try:
        import numba
    except ImportError as exc:
        raise OptionalDependencyError(
            "backend='numba' needs numba: pip install 'frames[numba]' (or use backend='numpy')"
        ) from exc
    return numba


def numba_available() -> bool:
    """True if numba can be imported."""
    try:
        _numba()
    except OptionalDependencyError:
        return False
    return True


def rhs_kernel(comp: Any) -> Any:
    """The jitted ``rhs(t, y, p, out)`` of a compiled system (cached by its generated source)."""
    numba = _numba()
    S = comp.system
    t = sp.Symbol("t_")
    ys = [sp.Symbol(f"y_{i}") for i in range(len(S.states))]
    ps = [sp.Symbol(f"p_{j}") for j in range(len(S.params))]
    rep = {S.time: t} | dict(zip(S.states, ys, strict=True)) | dict(zip(S.params, ps, strict=True))
    exprs = [sp.sympify(e, strict=True).xreplace(rep) for e in S.rhs]
    subs, reduced = sp.cse(exprs, symbols=sp.numbered_symbols("c_"))
    pr = PythonCodePrinter({"fully_qualified_modules": True})
    lines = ["def _rhs(t_, y, p, out):"]
    lines += [f"    y_{i} = y[{i}]" for i in range(len(ys))]
    lines += [f"    p_{j} = p[{j}]" for j in range(len(ps))]
    lines += [f"    {s} = {pr.doprint(e)}" for s, e in subs]
    lines += [f"    out[{i}] = {pr.doprint(e)}" for i, e in enumerate(reduced)]
    lines += ["    return None"]
    src = "\n".join(lines)
    if src in _KERNELS:
        return _KERNELS[src]
    ns: dict[str, Any] = {"math": math}
    exec(compile(src, "<frames numba rhs>", "exec"), ns)  # generated from sympy expressions, never user text
    fn = numba.njit(cache=False, fastmath=False, error_model="numpy")(ns["_rhs"])
    _KERNELS[src] = fn
    return fn


def _integrators() -> tuple[Any, Any]:
    if "rk4" in _INTEGRATORS:
        return _INTEGRATORS["rk4"], _INTEGRATORS["dp45"]
    numba = _numba()
    from scipy.integrate import RK45

    A = np.ascontiguousarray(RK45.A, dtype=float)
    Bc = np.ascontiguousarray(RK45.B, dtype=float)
    C = np.ascontiguousarray(RK45.C, dtype=float)
    E = np.ascontiguousarray(RK45.E, dtype=float)
    P = np.ascontiguousarray(RK45.P, dtype=float)
    prange = numba.prange

    @numba.njit(parallel=True, cache=False)
    def rk4(rhs, t0, t1, Y0, Pm, te, n_steps):  # type: ignore[no-untyped-def]
        nb, ns = Y0.shape
        out = np.empty((te.shape[0], ns, nb))
        status = np.zeros(nb, dtype=np.int64)
        h = (t1 - t0) / n_steps
        for j in prange(nb):
            y = Y0[j].copy()
            p = Pm[j]
            k1 = np.empty(ns)
            k2 = np.empty(ns)
            k3 = np.empty(ns)
            k4 = np.empty(ns)
            fn = np.empty(ns)
            tmp = np.empty(ns)
            yn = np.empty(ns)
            t = t0
            rhs(t, y, p, k1)
            ko = 0
            while ko < te.shape[0] and te[ko] <= t0:
                out[ko, :, j] = y
                ko += 1
            for i in range(n_steps):
                for s in range(ns):
                    tmp[s] = y[s] + h / 2 * k1[s]
                rhs(t + h / 2, tmp, p, k2)
                for s in range(ns):
                    tmp[s] = y[s] + h / 2 * k2[s]
                rhs(t + h / 2, tmp, p, k3)
                for s in range(ns):
                    tmp[s] = y[s] + h * k3[s]
                rhs(t + h, tmp, p, k4)
                for s in range(ns):
                    yn[s] = y[s] + h / 6 * (k1[s] + 2 * k2[s] + 2 * k3[s] + k4[s])
                tn = t0 + (i + 1) * h
                rhs(tn, yn, p, fn)
                ok = True
                for s in range(ns):
                    if not (np.isfinite(yn[s]) and np.isfinite(fn[s])):
                        ok = False
                if not ok:
                    status[j] = 1
                    break
                while ko < te.shape[0] and te[ko] <= tn:
                    x = (te[ko] - t) / h
                    h00 = 2 * x**3 - 3 * x**2 + 1
                    h10 = x**3 - 2 * x**2 + x
                    h01 = -2 * x**3 + 3 * x**2
                    h11 = x**3 - x**2
                    for s in range(ns):
                        out[ko, s, j] = h00 * y[s] + h10 * h * k1[s] + h01 * yn[s] + h11 * h * fn[s]
                    ko += 1
                t = tn
                for s in range(ns):
                    y[s] = yn[s]
                    k1[s] = fn[s]
            while ko < te.shape[0]:
                out[ko, :, j] = y
                ko += 1
        return out, status

    @numba.njit(parallel=True, cache=False)
    def dp45(rhs, t0, t1, Y0, Pm, te, rtol, atol, max_steps):  # type: ignore[no-untyped-def]
        nb, ns = Y0.shape
        out = np.empty((te.shape[0], ns, nb))
        status = np.zeros(nb, dtype=np.int64)
        nsteps_all = np.zeros(nb, dtype=np.int64)
        nrej_all = np.zeros(nb, dtype=np.int64)
        for j in prange(nb):
            y = Y0[j].copy()
            p = Pm[j]
            K = np.empty((7, ns))
            yn = np.empty(ns)
            tmp = np.empty(ns)
            f0 = np.empty(ns)
            f1 = np.empty(ns)
            t = t0
            rhs(t, y, p, f0)
            # initial step (Hairer–Nørsett–Wanner II.4), as scipy
            d0 = 0.0
            d1 = 0.0
            for s in range(ns):
                sc = atol + abs(y[s]) * rtol
                d0 += (y[s] / sc) ** 2
                d1 += (f0[s] / sc) ** 2
            d0 = math.sqrt(d0 / ns)
            d1 = math.sqrt(d1 / ns)
            h0 = 1e-6 if (d0 < 1e-5 or d1 < 1e-5) else 0.01 * d0 / d1
            for s in range(ns):
                tmp[s] = y[s] + h0 * f0[s]
            rhs(t + h0, tmp, p, f1)
            d2 = 0.0
            for s in range(ns):
                sc = atol + abs(y[s]) * rtol
                d2 += ((f1[s] - f0[s]) / sc) ** 2
            d2 = math.sqrt(d2 / ns) / h0
            dm = max(d1, d2)
            h1 = max(1e-6, h0 * 1e-3) if dm <= 1e-15 else (0.01 / dm) ** 0.2
            h = min(100 * h0, h1, t1 - t0)
            ko = 0
            while ko < te.shape[0] and te[ko] <= t0:
                out[ko, :, j] = y
                ko += 1
            rejected = False
            nst = 0
            nrej = 0
            while t < t1:
                if nst + nrej >= max_steps:
                    status[j] = 2
                    break
                if h < 10 * np.spacing(t):
                    status[j] = 1
                    break
                h = min(h, t1 - t)
                for s in range(ns):
                    K[0, s] = f0[s]
                for st in range(1, 6):
                    for s in range(ns):
                        acc = 0.0
                        for r in range(st):
                            acc += A[st, r] * K[r, s]
                        tmp[s] = y[s] + h * acc
                    rhs(t + C[st] * h, tmp, p, K[st])
                for s in range(ns):
                    acc = 0.0
                    for r in range(6):
                        acc += Bc[r] * K[r, s]
                    yn[s] = y[s] + h * acc
                rhs(t + h, yn, p, K[6])
                en = 0.0
                for s in range(ns):
                    acc = 0.0
                    for r in range(7):
                        acc += E[r] * K[r, s]
                    sc = atol + max(abs(y[s]), abs(yn[s])) * rtol
                    en += (h * acc / sc) ** 2
                en = math.sqrt(en / ns)
                fin = np.isfinite(en)
                for s in range(ns):
                    if not np.isfinite(K[6, s]):
                        fin = False
                if fin and en < 1:
                    tn = t + h
                    while ko < te.shape[0] and te[ko] <= tn:
                        x = (te[ko] - t) / h
                        for s in range(ns):
                            acc = 0.0
                            for r in range(7):
                                q = P[r, 0] * x + P[r, 1] * x**2 + P[r, 2] * x**3 + P[r, 3] * x**4
                                acc += K[r, s] * q
                            out[ko, s, j] = y[s] + h * acc
                        ko += 1
                    t = tn
                    for s in range(ns):
                        y[s] = yn[s]
                        f0[s] = K[6, s]
                    nst += 1
                    fac = 10.0 if en == 0 else min(10.0, 0.9 * en ** (-0.2))
                    if rejected:
                        fac = min(1.0, fac)
                    h *= fac
                    rejected = False
                else:
                    nrej += 1
                    h *= 0.2 if not fin else max(0.2, 0.9 * en ** (-0.2))
                    rejected = True
            while ko < te.shape[0]:
                out[ko, :, j] = y
                ko += 1
            nsteps_all[j] = nst
            nrej_all[j] = nrej
        return out, status, nsteps_all, nrej_all

    _INTEGRATORS["rk4"], _INTEGRATORS["dp45"] = rk4, dp45
    return rk4, dp45


def _params_matrix(p: np.ndarray, nb: int) -> np.ndarray:
    p = np.asarray(p, dtype=float)
    if p.ndim == 2:
        return np.ascontiguousarray(p.T)
    return np.ascontiguousarray(np.broadcast_to(p, (nb, p.shape[0])))


def rk4_numba(
    comp: Any, t0: float, t1: float, Y0: np.ndarray, p: np.ndarray, t_eval: np.ndarray, n_steps: int
) -> tuple[np.ndarray, dict[str, Any]]:
    """Fixed-step RK4 for a batch ``Y0`` of shape ``(n_state, batch)``; output ``(len(t_eval), n_state, batch)``."""
    rhs = rhs_kernel(comp)
    rk4, _ = _integrators()
    nb = Y0.shape[1]
    out, status = rk4(
        rhs,
        float(t0),
        float(t1),
        np.ascontiguousarray(Y0.T),
        _params_matrix(p, nb),
        np.asarray(t_eval, dtype=float),
        int(n_steps),
    )
    bad = np.nonzero(status)[0]
    if bad.size:
        raise SingularityError(
            f"numba RK4: state or right-hand side not finite for batch members {bad[:10].tolist()}", t0, Y0[:, bad[0]]
        )
    return out, {"steps": n_steps, "rejected": 0, "nfev": 4 * n_steps + 1, "backend": "numba"}


def dp45_numba(
    comp: Any,
    t0: float,
    t1: float,
    Y0: np.ndarray,
    p: np.ndarray,
    t_eval: np.ndarray,
    rtol: float,
    atol: float,
    max_steps: int,
    timeout: float | None = None,
) -> tuple[np.ndarray, dict[str, Any]]:
    """Per-member adaptive Dormand–Prince 5(4) for a batch; see the module docstring."""
    rhs = rhs_kernel(comp)
    _, dp45 = _integrators()
    nb = Y0.shape[1]
    start = time.monotonic()
    out, status, nst, nrej = dp45(
        rhs,
        float(t0),
        float(t1),
        np.ascontiguousarray(Y0.T),
        _params_matrix(p, nb),
        np.asarray(t_eval, dtype=float),
        float(rtol),
        float(atol),
        int(max_steps),
    )
    if timeout is not None and np.isfinite(timeout) and time.monotonic() - start > timeout:
        raise IntegrationError(f"numba RK45: the run took longer than timeout={timeout:g} s", t1, None)
    for code, what in (
        (2, f"max_steps = {max_steps} steps taken before t = {t1}"),
        (1, "required step size below the spacing of floats (singular or stiff)"),
    ):
        bad = np.nonzero(status == code)[0]
        if bad.size:
            cls = IntegrationError if code == 2 else SingularityError
            raise cls(f"numba RK45: {what} for batch members {bad[:10].tolist()}", t0, Y0[:, bad[0]])
    return out, {
        "steps": int(nst.max()),
        "rejected": int(nrej.sum()),
        "nfev": int(6 * (nst + nrej).sum() + 2 * nb),
        "backend": "numba",
    }
