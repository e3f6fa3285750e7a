r"""The compiled backend (``backend="numba"``): a jitted right-hand side fused with jitted integrators.

numba is optional (``pip install 'frames[numba]'``) and imported only inside the functions of this
module, when the backend is used: ``import frames`` does not import numba.

**Right-hand side.** For a :class:`~frames.numeric._compiled.CompiledSystem` the right-hand side
``f(t, y; p)`` is generated again as scalar code over raw ``float64`` pointers, after the same
``sympy.cse`` as the NumPy code (:func:`rhs_source`)::

    def _rhs(_t, _y, _p, _out):
        _y0 = _y[0]; ...; _c0 = math.cos(_y0); ...; _out[0] = ...

and compiled once per system and process as a ``numba.cfunc`` of the fixed signature
``void(float64, float64*, float64*, float64*)`` (cached by the system's key and by the generated
source). No list or array is boxed per call: this is the single-trajectory path without the
``CompiledSystem.fun`` overhead.

**Integrators.** Two serial member kernels (one member from ``t0`` to ``t1``, its state in private
arrays) are called from one ``numba.njit(parallel=True)`` driver that runs the members in ``prange``.
The driver takes the right-hand side as a first-class function of that signature, with one explicit
signature, so it is compiled once per process for every system (about 7 s of CPU; a further system
costs only its ``cfunc``). A batch of one (the single-trajectory path) runs the same kernels through a
serial ``nogil`` driver, because a parallel launch costs more than one member. Both member kernels are
generated from the Butcher tableaux of :mod:`frames.numeric._tableau` (the tables that also drive the
NumPy batch kernels), their coefficients written out as literals:

* ``"RK4"``: the classical fixed-step scheme, output at ``t_eval`` by cubic Hermite interpolation on
  the step, with the same arithmetic as the NumPy batch path (:func:`frames.numeric._rk.rk4_batch`);
* ``"RK45"``: Dormand–Prince 5(4) (Dormand & Prince 1980, scipy's ``RK45`` table) with scipy's step-size control **per member**: the error
  :math:`\mathrm{err}_i = h\sum_s E_s k_{s,i}` is measured in the RMS norm of
  :math:`\mathrm{err}_i/(\mathrm{atol} + \mathrm{rtol}\max(|y_i|, |y^{new}_i|))`, a step is accepted
  when the norm is below 1, and the step changes by :math:`\min(10, 0.9\,\mathrm{err}^{-1/5})` after an
  acceptance (at most 1 right after a rejection) and by :math:`\max(0.2, 0.9\,\mathrm{err}^{-1/5})`
  after a rejection; the first step is scipy's ``select_initial_step`` (Hairer–Nørsett–Wanner I,
  §II.4). Output at ``t_eval`` by the method's 4th-order dense output
  :math:`y(t + xh) = y + h\sum_s k_s \sum_{j=1}^{4} P_{s,j} x^j`.

The NumPy batch path (:func:`frames.numeric._rk.dp45_batch`) steps the whole batch in lock-step (a step
is accepted only when every member's error norm is ≤ 1); here each member takes its own steps, which
is what a loop of ``solve_ivp(method="RK45")`` calls does. Both meet the tolerance per member; at
``rtol=1e-12`` they agree to 1e-10 (``tests/numeric/test_numba.py``).

``info`` of a numba run: ``steps`` (most accepted steps of a member), ``rejected`` (rejected steps,
all members), ``nfev`` (single-state right-hand-side evaluations, summed over the members: the NumPy
path's ``nfev`` counts batch calls instead) and ``backend="numba"``.

Budget: ``max_steps`` (accepted and rejected steps) holds per member inside the kernel; ``timeout``
is checked between chunks of members (numba code cannot be interrupted; 2048 members first, then
chunks sized to about half a second of work), so a chunk that has started runs to its end. A member
whose mean step over 1000 accepted steps, projected over the rest of the span, exceeds the steps left on
two consecutive windows stops with :class:`~frames.errors.StiffnessError` (a step-size collapse: stiff).
"""

from __future__ import annotations

import math
import threading
import time
from typing import Any

import numpy as np
import sympy as sp
from sympy.printing.pycode import PythonCodePrinter

from ..errors import (
    IntegrationBudgetError,
    IntegrationError,
    InvalidExpressionError,
    OptionalDependencyError,
    OptionError,
    SingularityError,
    StiffnessError,
)
from ._frame import frame_monitor
from ._stiff import collapse_message
from ._tableau import DP45, RK4, ButcherTableau

__all__ = ["dp45_numba", "integrate_one", "numba_available", "rhs_kernel", "rhs_source", "rk4_numba"]

_RHS_BY_KEY: dict[str, Any] = {}  # CompiledSystem.key -> cfunc
_RHS_BY_SOURCE: dict[str, Any] = {}  # generated source -> cfunc
_KERNELS: dict[str, Any] = {}  # "drive", "serial", "sig", ... (compiled once per process)
_LOCK = threading.RLock()  # compilation, and the parallel driver (numba's workqueue layer is not thread-safe)
_CHUNK = 2048  # members in the first kernel launch when a timeout is to be checked

_STEP_TOO_SMALL, _MAX_STEPS, _NOT_FINITE, _COLLAPSED = 1, 2, 3, 4
_WINDOW = 1000  # accepted steps between two checks of a step-size collapse (stiffness)


def _numba() -> Any:
    """The numba module, or :class:`OptionalDependencyError` with the install command."""
    try:
        import numba
    except ImportError as exc:
        raise OptionalDependencyError(
            "backend='numba' needs numba, which is not installed: pip install 'frames[numba]' (or use backend='numpy')"
        ) from exc
    return numba


def numba_available() -> bool:
    """True if numba can be imported (the ``numba`` extra is installed).

    Examples
    --------
    >>> from frames.numeric._numba import numba_available
    >>> isinstance(numba_available(), bool)
    True
    """
    try:
        _numba()
    except OptionalDependencyError:
        return False
    return True


# ----------------------------------------------------------------------------- right-hand side
def rhs_source(comp: Any) -> str:
    """Scalar source ``_rhs(_t, _y, _p, _out)`` of ``f(t, y; p)``, after ``sympy.cse``.

    ``_y``, ``_p`` and ``_out`` are indexed (pointers in the compiled kernel, arrays in Python).
    Pure SymPy: it does not need numba.

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.chaplygin_sleigh()
    >>> comp = fr.numeric.CompiledSystem(fr.ode_system(mdl.nonholonomic()))
    >>> src = rhs_source(comp)
    >>> src.splitlines()[0], "math.cos" in src
    ('def _rhs(_t, _y, _p, _out):', True)
    """
    S = comp.system
    t = sp.Symbol("_t")
    ys = [sp.Symbol(f"_y{i}") for i in range(len(S.states))]
    ps = [sp.Symbol(f"_p{j}") for j in range(len(S.params))]
    rep = {S.time: t} | dict(zip(S.states, ys, strict=True)) | dict(zip(S.params, ps, strict=True))
    exprs = [sp.sympify(e, strict=True).xreplace(rep) for e in S.rhs]
    subs, reduced = sp.cse(exprs, symbols=sp.numbered_symbols("_c"), order="none")
    pr = PythonCodePrinter({"fully_qualified_modules": True, "strict": True})
    used: set[sp.Basic] = set().union(*(e.free_symbols for _, e in subs), *(e.free_symbols for e in reduced))
    try:
        body = [f"    {s} = {pr.doprint(e)}" for s, e in subs]
        body += [f"    _out[{i}] = float({pr.doprint(e)})" for i, e in enumerate(reduced)]
    except Exception as exc:  # sympy's PrintMethodNotImplementedError: a function without a math-module form
        raise InvalidExpressionError(
            f"backend='numba': the right-hand side of {comp!r} uses a function that has no scalar math form ({exc})"
        ) from exc
    lines = ["def _rhs(_t, _y, _p, _out):"]
    lines += [f"    _y{i} = _y[{i}]" for i, s in enumerate(ys) if s in used]
    lines += [f"    _p{j} = _p[{j}]" for j, s in enumerate(ps) if s in used]
    return "\n".join([*lines, *body, "    return"]) + "\n"


def _signature() -> Any:
    if "sig" not in _KERNELS:
        types = _numba().types
        ptr = types.CPointer(types.float64)
        _KERNELS["sig"] = types.void(types.float64, ptr, ptr, ptr)
    return _KERNELS["sig"]


def rhs_kernel(comp: Any) -> Any:
    """The compiled ``numba.cfunc`` of :func:`rhs_source` (cached per system and per source).

    Raises
    ------
    OptionalDependencyError
        numba is not installed.
    InvalidExpressionError
        numba cannot compile the generated code.
    """
    numba = _numba()
    with _LOCK:
        hit = _RHS_BY_KEY.get(comp.key)
        if hit is not None:
            return hit
        src = rhs_source(comp)
        fn = _RHS_BY_SOURCE.get(src)
        if fn is None:
            ns: dict[str, Any] = {"math": math}
            exec(compile(src, "<frames numba rhs>", "exec"), ns)  # generated from sympy expressions, never user text
            try:
                fn = numba.cfunc(_signature(), cache=False, error_model="numpy")(ns["_rhs"])
            except Exception as exc:  # numba's TypingError / LoweringError
                first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                raise InvalidExpressionError(
                    f"backend='numba': numba cannot compile the right-hand side of {comp!r}: {first}"
                ) from exc
            _RHS_BY_SOURCE[src] = fn
        _RHS_BY_KEY[comp.key] = fn
        return fn


# ----------------------------------------------------------------------------- integrator kernels
def _lit(c: float) -> str:
    return repr(float(c))


def _comb(coeffs: Any, names: list[str]) -> str:
    """``(c0 * k0[s] + c1 * k1[s] + ...)`` with the zero coefficients left out (left to right, as ``_lincomb``)."""
    terms = [f"{_lit(c)} * {n}[s]" for c, n in zip(coeffs, names, strict=False) if c != 0]
    return "(" + " + ".join(terms) + ")" if terms else "0.0"


def _stage_lines(tab: ButcherTableau, k: list[str], indent: str) -> list[str]:
    """The stages ``k_s = f(t + c_s h, y + h Σ_j a_sj k_j)``, s ≥ 1, of ``tab`` as kernel source lines."""
    lines = []
    for st in range(1, tab.stages):
        lines += [
            f"{indent}for s in range(ns):",
            f"{indent}    tmp[s] = y[s] + {_comb(tab.a[st], k[:st])} * h",
            f"{indent}rhs(t + {_lit(tab.c[st])} * h, tmp_p, p_p, {k[st]}_p)",
        ]
    return lines


def _advance_line(tab: ButcherTableau, k: list[str], indent: str) -> str:
    """``yn = y + (h / b_scale) Σ_s b_s k_s`` as a kernel source line (inside ``for s in range(ns)``)."""
    return f"{indent}yn[s] = y[s] + h / {_lit(tab.b_scale)} * {_comb(tab.b, k[: tab.stages])}"


def _arrays(names: list[str]) -> str:
    return "\n".join(f"    {n} = np.empty(ns)\n    {n}_p = _ptr({n})" for n in names)


def _fixed_source(tab: ButcherTableau) -> str:
    """The fixed-step kernel of ``tab`` (RK4), output at ``t_eval`` by cubic Hermite interpolation on the step."""
    k = [f"k{i}" for i in range(tab.stages)]
    return f"""
def rk4_member(j, rhs, t0, t1, Y0, Pm, te, n_steps, out, status, tfail, yfail):
    ns = Y0.shape[1]
    nte = te.shape[0]
    h = (t1 - t0) / n_steps
    y = Y0[j].copy()
{_arrays([*k, "fn", "tmp", "yn"])}
    y_p = _ptr(y)
    p_p = _ptr(Pm[j])  # a row of the argument: alive for the whole call
    t = t0
    code = 0
    rhs(t, y_p, p_p, k0_p)
    ko = 0
    while ko < nte and te[ko] <= t0:
        for s in range(ns):
            out[j, ko, s] = y[s]
        ko += 1
    for i in range(n_steps):
{chr(10).join(_stage_lines(tab, k, "        "))}
        for s in range(ns):
{_advance_line(tab, k, "            ")}
        tn = t0 + (i + 1) * h
        rhs(tn, yn_p, p_p, fn_p)
        for s in range(ns):
            if not (math.isfinite(yn[s]) and math.isfinite(fn[s])):
                code = 3
        if code != 0:
            break
        while ko < nte and te[ko] <= tn:
            x = (te[ko] - t) / h
            h00 = 2 * x**3 - 3 * x**2 + 1
            h10 = x**3 - 2 * x**2 + x
            h01 = -2 * x**3 + 3 * x**2
            h11 = x**3 - x**2
            for s in range(ns):
                out[j, ko, s] = h00 * y[s] + h10 * h * k0[s] + h01 * yn[s] + h11 * h * fn[s]
            ko += 1
        t = tn
        for s in range(ns):
            y[s] = yn[s]
            k0[s] = fn[s]
    while ko < nte:
        for s in range(ns):
            out[j, ko, s] = y[s]
        ko += 1
    status[j] = code
    tfail[j] = t
    for s in range(ns):
        yfail[j, s] = y[s]
"""


def _dp45_source(tab: ButcherTableau = DP45) -> str:
    """The adaptive kernel of the embedded pair ``tab`` (Dormand–Prince 5(4)) with its coefficients as literals."""
    k = [f"k{i}" for i in range(tab.stages + 1)]
    P = np.array(tab.p)
    stages = _stage_lines(tab, k, "            ")
    dense = [
        f"                    q{r} = " + " + ".join(f"{_lit(P[r, i])} * x{i + 1}" for i in range(P.shape[1]))
        for r in range(len(k))
        if np.any(P[r] != 0)
    ]
    dterms = " + ".join(f"q{r} * k{r}[s]" for r in range(len(k)) if np.any(P[r] != 0))
    return f"""
def dp45_member(j, rhs, t0, t1, Y0, Pm, te, rtol, atol, max_step, max_steps, out, status, tfail, yfail, nst_a, nrej_a):
    ns = Y0.shape[1]
    nte = te.shape[0]
    y = Y0[j].copy()
{_arrays([*k, "tmp", "yn"])}
    y_p = _ptr(y)
    p_p = _ptr(Pm[j])  # a row of the argument: alive for the whole call
    t = t0
    code = 0
    nst = 0
    nrej = 0
    t_mark = t0
    n_mark = 0
    strikes = 0
    rhs(t, y_p, p_p, k0_p)
    for s in range(ns):
        if not math.isfinite(k0[s]):
            code = 3
    ko = 0
    while ko < nte and te[ko] <= t0:
        for s in range(ns):
            out[j, ko, s] = y[s]
        ko += 1
    if code == 0 and t1 > t0:
        # scipy's select_initial_step (Hairer-Norsett-Wanner I, II.4), error estimator order 4
        d0 = 0.0
        d1 = 0.0
        for s in range(ns):
            sc = atol + abs(y[s]) * rtol
            d0 += (y[s] / sc) ** 2
            d1 += (k0[s] / sc) ** 2
        d0 = math.sqrt(d0 / ns)
        d1 = math.sqrt(d1 / ns)
        h0 = 1e-6 if (d0 < 1e-5 or d1 < 1e-5) else 0.01 * d0 / d1
        h0 = min(h0, t1 - t0)
        for s in range(ns):
            tmp[s] = y[s] + h0 * k0[s]
        rhs(t + h0, tmp_p, p_p, k1_p)
        d2 = 0.0
        for s in range(ns):
            sc = atol + abs(y[s]) * rtol
            d2 += ((k1[s] - k0[s]) / sc) ** 2
        d2 = math.sqrt(d2 / ns) / h0
        if d1 <= 1e-15 and d2 <= 1e-15:
            h1 = max(1e-6, h0 * 1e-3)
        elif math.isfinite(d2):
            h1 = (0.01 / max(d1, d2)) ** 0.2
        else:
            h1 = h0
        h = min(100 * h0, h1, t1 - t0, max_step)
        rejected = False
        bad = False
        while t < t1:
            if h < 10 * abs(np.spacing(t)):
                code = 3 if bad else 1
                break
            if nst + nrej >= max_steps:
                code = 2
                break
            tn = t + h
            if tn > t1:
                tn = t1
            h = tn - t
{chr(10).join(stages)}
            for s in range(ns):
{_advance_line(tab, k, "                ")}
            rhs(tn, yn_p, p_p, {k[-1]}_p)
            en = 0.0
            fin = True
            for s in range(ns):
                e = h * {_comb(tab.e, k)}
                sc = atol + max(abs(y[s]), abs(yn[s])) * rtol
                en += (e / sc) ** 2
                if not math.isfinite({k[-1]}[s]):
                    fin = False
            en = math.sqrt(en / ns)
            if not math.isfinite(en):
                fin = False
            if fin and en < 1:
                while ko < nte and te[ko] <= tn:
                    x1 = (te[ko] - t) / h
                    x2 = x1 * x1
                    x3 = x2 * x1
                    x4 = x3 * x1
{chr(10).join(dense)}
                    for s in range(ns):
                        out[j, ko, s] = y[s] + h * ({dterms})
                    ko += 1
                t = tn
                for s in range(ns):
                    y[s] = yn[s]
                    k0[s] = {k[-1]}[s]
                nst += 1
                if nst - n_mark >= {_WINDOW}:  # step-size collapse: the mean step would overrun max_steps
                    hm = (t - t_mark) / (nst - n_mark)
                    t_mark = t
                    n_mark = nst
                    if hm <= 0.0 or (t1 - t) / hm > max_steps - nst - nrej:
                        strikes += 1
                    else:
                        strikes = 0
                    if strikes >= 2:
                        code = 4
                        break
                fac = 10.0 if en == 0 else min(10.0, 0.9 * en ** -0.2)
                if rejected:
                    fac = min(1.0, fac)
                h = min(h * fac, max_step)
                rejected = False
                bad = False
            else:
                nrej += 1
                if fin:
                    h *= max(0.2, 0.9 * en ** -0.2)
                    bad = False
                else:
                    h *= 0.2
                    bad = True
                rejected = True
    if code == 0:
        while ko < nte:
            for s in range(ns):
                out[j, ko, s] = y[s]
            ko += 1
    status[j] = code
    tfail[j] = t
    for s in range(ns):
        yfail[j, s] = y[s]
    nst_a[j] = nst
    nrej_a[j] = nrej
"""


_DRIVER_SRC = """
def drive(method, rhs, t0, t1, Y0, Pm, te, rtol, atol, max_step, max_steps, n_steps, lo, hi,
          out, status, tfail, yfail, nst_a, nrej_a):
    for jj in prange(hi - lo):
        if method == 0:
            rk4_member(lo + jj, rhs, t0, t1, Y0, Pm, te, n_steps, out, status, tfail, yfail)
        else:
            dp45_member(lo + jj, rhs, t0, t1, Y0, Pm, te, rtol, atol, max_step, max_steps,
                        out, status, tfail, yfail, nst_a, nrej_a)
"""


def _driver() -> Any:
    """The parallel driver: members of ``range(lo, hi)`` in ``prange``, each by the serial RK4 or DP5(4) kernel.

    Compiled on first use, once per process for every system (the right-hand side is a first-class
    function of a fixed signature); one ``parallel=True`` compilation serves both methods.
    """
    numba = _numba()
    with _LOCK:
        if "drive" in _KERNELS:
            return _KERNELS["drive"]
        from numba.core import types
        from numba.extending import intrinsic

        @intrinsic  # type: ignore[misc]
        def _ptr(typingctx: Any, arr: Any) -> Any:
            """The data pointer of a contiguous float64 array (no copy, no reference counting)."""

            def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
                return context.make_array(arr)(context, builder, value=args[0]).data

            return types.CPointer(arr.dtype)(arr), codegen

        serial = numba.njit(cache=False, error_model="numpy")
        ns: dict[str, Any] = {"np": np, "math": math, "_ptr": _ptr}
        exec(compile(_fixed_source(RK4), "<frames numba rk4>", "exec"), ns)  # the tableau as literals
        exec(compile(_dp45_source(DP45), "<frames numba dp45>", "exec"), ns)  # the tableau as literals
        dns: dict[str, Any] = {
            "prange": numba.prange,
            "rk4_member": serial(ns["rk4_member"]),
            "dp45_member": serial(ns["dp45_member"]),
        }
        exec(compile(_DRIVER_SRC, "<frames numba driver>", "exec"), dns)
        f8, i8 = types.float64, types.int64
        a1, a2, a3, i1 = f8[::1], f8[:, ::1], f8[:, :, ::1], i8[::1]
        # method, rhs, t0, t1, Y0, Pm, te, rtol, atol, max_step, max_steps, n_steps, lo, hi, out, status, ...
        sig = [i8, types.FunctionType(_signature()), f8, f8, a2, a2, a1, f8, f8, f8, i8, i8, i8, i8]
        sig += [a3, i1, a1, a2, i1, i1]
        _KERNELS["types"] = types.void(*sig)
        _KERNELS["source"] = dns
        # one explicit signature: compiled eagerly here, never again for another system or array flags
        _KERNELS["drive"] = numba.njit(_KERNELS["types"], parallel=True, cache=False, error_model="numpy")(dns["drive"])
        return _KERNELS["drive"]


def _serial_driver() -> Any:
    """The same driver without threads, for a batch of one (a parallel launch costs more than it saves there)."""
    numba = _numba()
    with _LOCK:
        if "serial" not in _KERNELS:
            _driver()
            dns = dict(_KERNELS["source"])
            dns["prange"] = range
            exec(compile(_DRIVER_SRC, "<frames numba serial driver>", "exec"), dns)
            serial = numba.njit(_KERNELS["types"], cache=False, nogil=True, error_model="numpy")
            _KERNELS["serial"] = serial(dns["drive"])
        return _KERNELS["serial"]


# ----------------------------------------------------------------------------- drivers
def _members(Y0: np.ndarray, p: Any) -> tuple[np.ndarray, np.ndarray]:
    """Member-major copies: states ``(B, n_state)`` and parameters ``(B, n_params)``."""
    Y = np.array(np.asarray(Y0, dtype=float).T, dtype=float, order="C")  # writable copies, as the kernel's signature
    nb = Y.shape[0]
    pa = np.asarray(p, dtype=float)
    Pm = pa.T if pa.ndim == 2 else np.broadcast_to(pa, (nb, pa.shape[0]))
    return Y, np.array(Pm, dtype=float, order="C")


def _launch(run: Any, nb: int, timeout: float | None, what: str, t0: float, Y: np.ndarray) -> None:
    """Run ``run(lo, hi)`` over the members, in chunks when a timeout is to be checked.

    A batch of one runs the serial driver (``nogil``: threads of the caller run side by side); the
    parallel driver is entered by one thread at a time.
    """
    if nb == 1:
        run(0, 1)
        return
    if timeout is None or not np.isfinite(timeout) or nb <= _CHUNK:
        with _LOCK:
            run(0, nb)
        return
    deadline = time.monotonic() + timeout
    lo, size = 0, _CHUNK
    while lo < nb:
        if lo and time.monotonic() > deadline:
            raise IntegrationBudgetError(
                f"{what}: timeout of {timeout:g} s reached after {lo} of {nb} batch members; "
                "initial state of the next member attached",
                t0,
                Y[lo],
            )
        hi = min(nb, lo + size)
        start = time.monotonic()
        with _LOCK:
            run(lo, hi)
        # next chunk: about half a second of work (fewer launches), never past the deadline's granularity
        size = int(min(max(_CHUNK, size * 0.5 / max(time.monotonic() - start, 1e-3)), 64 * _CHUNK))
        lo = hi


def _raise_status(
    comp: Any, what: str, status: np.ndarray, tfail: np.ndarray, yfail: np.ndarray, p: Any, t1: float, max_steps: int
) -> None:
    """Turn the kernels' per-member status codes into the library's exceptions (as the NumPy path)."""
    bad = np.nonzero(status == _NOT_FINITE)[0]
    if bad.size:
        j = int(bad[0])
        raise SingularityError(
            f"{what}: state or right-hand side not finite near t = {tfail[j]!r} for batch members "
            f"{bad[:10].tolist()}; last finite state of member {j}: {yfail[j].tolist()}",
            float(tfail[j]),
            yfail[j].copy(),
        )
    bad = np.nonzero(status == _STEP_TOO_SMALL)[0]
    if bad.size:
        j = int(bad[0])
        if comp.guard_depends_on_state:
            pa = np.asarray(p, dtype=float)
            pj = pa[:, j] if pa.ndim == 2 else pa
            g = float(np.asarray(comp.guard(tfail[j], yfail[j], pj)))
            if not np.isfinite(g) or abs(g) <= 1e-6:
                raise SingularityError(
                    f"{what}: stopped at t = {tfail[j]!r} approaching the singular set (guard {comp.system.guard} "
                    f"= {g:.3g}) for batch members {bad[:10].tolist()}; state of member {j} attached",
                    float(tfail[j]),
                    yfail[j].copy(),
                )
        raise IntegrationError(
            f"{what}: required step size is less than the spacing between numbers at t = {tfail[j]!r} "
            f"for batch members {bad[:10].tolist()}; state of member {j} attached",
            float(tfail[j]),
            yfail[j].copy(),
        )
    bad = np.nonzero(status == _COLLAPSED)[0]
    if bad.size:
        j = int(bad[0])
        raise StiffnessError(
            collapse_message(what, float(tfail[j]), t1, max_steps, _WINDOW)
            + (f" (batch members {bad[:10].tolist()}; the state of member {j} attached)" if len(status) > 1 else ""),
            float(tfail[j]),
            yfail[j].copy(),
        )
    bad = np.nonzero(status == _MAX_STEPS)[0]
    if bad.size:
        j = int(bad[0])
        raise IntegrationBudgetError(
            f"{what}: max_steps = {max_steps} steps (accepted and rejected) taken before t = {t1} for batch "
            f"members {bad[:10].tolist()}; member {j} stopped at t = {tfail[j]!r}, its state attached",
            float(tfail[j]),
            yfail[j].copy(),
        )


def _run_members(
    comp: Any,
    method: int,
    t0: float,
    t1: float,
    Y0: np.ndarray,
    p: Any,
    t_eval: np.ndarray,
    args: tuple[float, float, float, int],
    n_steps: int,
    timeout: float | None,
    what: str,
    limit: int,
) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray], int]:
    """Run the compiled driver (``method`` 0: RK4, 1: RK45) over the members of ``Y0``, in chunks.

    Returns the output ``(B, len(t_eval), n_state)``, the per-member accepted and rejected step counts and
    ``B``; a member's failure is raised by :func:`_raise_status` (``limit``: the step limit it names).
    """
    rhs = rhs_kernel(comp)
    drive = _driver() if Y0.shape[1] != 1 else _serial_driver()
    Y, Pm = _members(Y0, p)
    nb, ns = Y.shape
    te = np.array(t_eval, dtype=float, order="C")
    out = np.empty((nb, te.shape[0], ns))
    status = np.zeros(nb, dtype=np.int64)
    tfail = np.zeros(nb)
    yfail = np.zeros((nb, ns))
    nst = np.zeros(nb, dtype=np.int64)
    nrej = np.zeros(nb, dtype=np.int64) if method else nst

    def run(lo: int, hi: int) -> None:
        drive(
            method, rhs, float(t0), float(t1), Y, Pm, te, *args, n_steps, lo, hi, out, status, tfail, yfail, nst, nrej
        )

    _launch(run, nb, timeout, what, float(t0), Y)
    _raise_status(comp, what, status, tfail, yfail, p, t1, limit)
    return out, (nst, nrej), nb


def rk4_numba(
    comp: Any,
    t0: float,
    t1: float,
    Y0: np.ndarray,
    p: Any,
    t_eval: np.ndarray,
    n_steps: int,
    timeout: float | None = None,
    max_steps: int | None = None,
) -> tuple[np.ndarray, dict[str, Any]]:
    """Fixed-step RK4 for a batch ``Y0`` of shape ``(n_state, B)``; output ``(len(t_eval), n_state, B)``.

    ``p`` is ``(n_params,)`` or ``(n_params, B)``. The arithmetic is that of
    :func:`frames.numeric._rk.rk4_batch`, member by member.

    Raises
    ------
    OptionError
        ``n_steps`` not a positive integer, or above ``max_steps``.
    SingularityError
        A state or right-hand side stops being finite (time and last finite state attached).
    IntegrationBudgetError
        ``timeout`` reached between chunks of members.
    """
    if isinstance(n_steps, bool) or not isinstance(n_steps, int | np.integer) or n_steps < 1:
        raise OptionError(f"integrate(method='RK4'): n_steps={n_steps!r} must be a positive integer")
    if max_steps is not None and n_steps > max_steps:
        raise OptionError(f"integrate(method='RK4'): n_steps={n_steps} exceeds max_steps={max_steps}")
    unused = (1.0, 1.0, 1.0, 1)  # rtol, atol, max_step, max_steps of RK45
    out, _, nb = _run_members(comp, 0, t0, t1, Y0, p, t_eval, unused, int(n_steps), timeout, "numba RK4", int(n_steps))
    info = {"steps": int(n_steps), "rejected": 0, "nfev": (4 * int(n_steps) + 1) * nb, "backend": "numba"}
    return np.ascontiguousarray(out.transpose(1, 2, 0)), info


def dp45_numba(
    comp: Any,
    t0: float,
    t1: float,
    Y0: np.ndarray,
    p: Any,
    t_eval: np.ndarray,
    rtol: float,
    atol: float,
    max_steps: int,
    timeout: float | None = None,
    max_step: float = np.inf,
) -> tuple[np.ndarray, dict[str, Any]]:
    """Per-member adaptive Dormand–Prince 5(4) for a batch ``Y0`` of shape ``(n_state, B)``.

    Output ``(len(t_eval), n_state, B)``; see the module docstring for the step control.

    Raises
    ------
    SingularityError
        The right-hand side stops being finite, or the step collapses where the guard vanishes.
    IntegrationError
        The step collapses elsewhere.
    IntegrationBudgetError
        ``max_steps`` (per member) or ``timeout`` (between chunks of members) exceeded.
    """
    args = (float(rtol), float(atol), float(max_step), int(max_steps))
    out, (nst, nrej), nb = _run_members(comp, 1, t0, t1, Y0, p, t_eval, args, 1, timeout, "numba RK45", max_steps)
    info = {
        "steps": int(nst.max()) if nb else 0,
        "rejected": int(nrej.sum()),
        "nfev": int(6 * (nst + nrej).sum() + 2 * nb),
        "backend": "numba",
    }
    return np.ascontiguousarray(out.transpose(1, 2, 0)), info


def integrate_one(
    comp: Any,
    t0: float,
    t1: float,
    y0: np.ndarray,
    p: Any,
    t_eval: np.ndarray,
    rtol: float,
    atol: float,
    max_steps: int,
    timeout: float | None = None,
    max_step: float = np.inf,
) -> tuple[np.ndarray, dict[str, Any]]:
    """One trajectory by the jitted RK45 (a batch of one): ``Y`` of shape ``(n_state, len(t_eval))`` and ``info``.

    Checks the guard as the single-trajectory NumPy path does: singular at ``t0`` or a change of sign
    between output times raises :class:`SingularityError`. The adapted frame (:mod:`frames.numeric._frame`) is
    checked at the output times, and where it is ill-conditioned a failure of the kernel is the frame's
    (:class:`~frames.errors.DegenerateFrameError`).
    """
    y0 = np.asarray(y0, dtype=float)
    S = comp.system
    comp.check_initial_guard(t0, y0, p)
    frame = frame_monitor(comp, p, "numba RK45", t0, y0)
    try:
        out, info = dp45_numba(comp, t0, t1, y0[:, None], p, t_eval, rtol, atol, max_steps, timeout, max_step)
    except IntegrationError as exc:  # stiff, collapsed, out of budget: the frame first
        if frame is not None:
            frame.blame(exc, type(exc).__name__)
        raise
    Y = np.ascontiguousarray(out[:, :, 0].T)
    if frame is not None:  # the jitted kernel does not see the frame: checked at the output times
        frame.check_samples(t_eval, Y.T)
    if comp.guard_depends_on_state and len(t_eval):
        G = np.broadcast_to(np.asarray(comp.guard(np.asarray(t_eval), Y, p), dtype=float), (len(t_eval),))
        flip = np.nonzero((np.sign(G) != np.sign(G[0])) | ~np.isfinite(G))[0]
        if flip.size:
            k = int(flip[0])
            raise SingularityError(
                f"the system becomes singular (guard {S.guard} vanishes or changes sign) between t = "
                f"{t_eval[max(k - 1, 0)]} and {t_eval[k]}, state {Y[:, k].tolist()}",
                float(t_eval[k]),
                Y[:, k],
            )
    info["message"] = "The solver successfully reached the end of the integration interval."
    return Y, info
