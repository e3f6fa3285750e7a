"""The one door of the numeric layer: :func:`integrate` (one trajectory, or a batch when the initial data are 2-d).

It normalises everything once — the options into an :class:`~frames.numeric._options.IntegrationOptions`
record, the object into a compiled system (:func:`~frames.numeric._resolve.resolve`), the time span — and
hands them to a single run (:mod:`frames.numeric._single`) or a batch run (:mod:`frames.numeric._batch`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..dynamics import DynamicsMethod, ModelLike, OdeSystem
from ..errors import OptionError, StateError
from ..geometry import SecondOrderField
from ._batch import run_batch
from ._compiled import CompiledSystem
from ._inputs import _merge_params, _t_span, is_batch, velocities_from_v0
from ._options import DEFAULT_MAX_STEPS, DEFAULT_TIMEOUT, IntegrationOptions
from ._resolve import resolve
from ._single import run_single
from ._trajectory import Trajectory, TrajectoryBatch, labelled

__all__ = ["integrate"]


def integrate(
    x: DynamicsMethod | ModelLike | SecondOrderField | OdeSystem | CompiledSystem,
    t_span: Sequence[float],
    q0: Any,
    u0: Any = None,
    params: Mapping[Any, Any] | None = None,
    *,
    v0: Any = None,
    form: str = "reduced",
    system: Any = None,
    lagrangian: Any = None,
    method: str = "RK45",
    rtol: float = 1e-9,
    atol: float = 1e-12,
    t_eval: Any = None,
    max_step: float = np.inf,
    project: bool | str = False,
    constraint_tol: float = 1e-9,
    extra0: Mapping[str, Any] | None = None,
    mu0: Any = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    timeout: float | None = DEFAULT_TIMEOUT,
    step: float | None = None,
    backend: str = "numpy",
    events: Any = None,
    dense_output: bool = False,
    solver_options: Mapping[str, Any] | None = None,
    n_steps: int | None = None,
    progress: bool | None = None,
    subs: Mapping[Any, Any] | None = None,
) -> Trajectory | TrajectoryBatch:
    r"""Integrate a field, a dynamics method, a model or an :class:`~frames.OdeSystem` from natural initial data.

    One trajectory from ``q0, u0`` of shape ``(n,)``; a batch, integrated together, from ``q0, u0`` of
    shape ``(B, n)`` (or mappings symbol -> array ``(B,)``), returned as a :class:`TrajectoryBatch`.

    Parameters
    ----------
    x : SecondOrderField, NonholonomicSystem, VakonomicSystem, ModifiedVakonomic, Model or OdeSystem
        Anything :func:`~frames.ode_system` accepts, or a model. A system or model also supplies
        multipliers, energy and (for a model) default parameters.
    t_span : (t0, t1)
    q0, u0 : sequence or mapping; or array (B, n), or mapping symbol -> array (B,)
        Natural coordinates and velocities, in chart order or keyed by symbol (or name); one row per
        batch member for a batch.
    v0 : sequence or mapping, optional (keyword only)
        Instead of ``u0``, for one trajectory of a system with an adapted frame: the independent
        quasi-velocities ``v^1..v^m``; then ``u0 = v0^α X_α(q0)``, in D by construction (a Kane user's
        independent speeds).
    params : mapping, optional
        Parameter symbol or name -> number (overrides a model's ``param_values``); for a batch also an
        array ``(B,)`` (a parameter sweep in one run).
    form : {"reduced", "multiplier"}
        For a field, a nonholonomic system or a model: see :func:`~frames.ode_system`. The reduced form
        ``(q, v^α)`` keeps ``θ^a(u) = 0`` to rounding.
    system, lagrangian : optional
        For a field: the :class:`~frames.NonholonomicSystem` (multipliers, energy) or the Lagrangian
        (energy, kinetic metric).
    subs : mapping, optional
        For a vakonomic or MVM system: a substitution applied before compiling (see :func:`~frames.ode_system`).
    method : str
        One trajectory: one of scipy's solvers ``"RK45"``, ``"RK23"``, ``"DOP853"``, ``"Radau"``, ``"BDF"``,
        ``"LSODA"`` (use "Radau" or "BDF" for stiff systems), or ``"lda-midpoint"``: the discrete
        Lagrange–d'Alembert integrator of Cortés–Martínez (2001) in the midpoint form of
        McLachlan–Perlmutter (2006) (:mod:`frames.numeric._lda`): fixed step ``step``, constraints exact at
        the nodes, symmetric; it needs a system (the Lagrangian and the constraints), an autonomous L,
        and returns the nodes ``t0 + k h`` (``t_eval``, ``rtol``, ``atol`` unused).
        A batch: ``"RK45"`` (adaptive Dormand–Prince 5(4) with a step common to the batch, accepted only
        when *every* member's error norm is ≤ 1, so each member meets the tolerance of a per-trajectory
        ``solve_ivp(method="RK45")``), ``"RK4"`` (classical fixed-step Runge–Kutta with ``n_steps``
        steps) or ``"lda-midpoint"`` (member by member).
    step : float, optional
        The fixed step of ``method="lda-midpoint"`` (required there; the step used is
        ``(t1 − t0)/ceil((t1 − t0)/step)``).
    n_steps : int, optional
        The number of steps of a batch with ``method="RK4"`` (required there).
    backend : {"numpy", "numba"}
        ``"numba"`` (needs the ``numba`` extra): a jitted right-hand side and jitted Dormand–Prince 5(4)
        (RK4) kernels (:mod:`frames.numeric._numba`), no Python call per step; a batch runs its members in
        parallel, each with its own step control. The output is at ``t_eval`` (default 101 equally spaced
        times) and a state-dependent guard is checked there.
    rtol, atol, t_eval, max_step
        As for :func:`scipy.integrate.solve_ivp`; ``t_eval`` must be finite, sorted and inside ``t_span``
        (a batch's default: 101 equally spaced points).
    max_steps : int
        At most this many solver steps (default 10⁶; a batch counts accepted and rejected steps).
    timeout : float or None
        At most this many wall-clock seconds (default 120; None for no limit). An explicit method
        (``RK45``, ``RK23``, ``DOP853``, a batch's ``RK45``) held at its stability boundary by a stiff
        system, with the rest of the span beyond this budget, is stopped within a few hundred steps
        (:class:`~frames.errors.StiffnessError`).
    project : False, True, "kinetic", "euclidean" or "frame"
        What to do with ``u0`` violating the constraints (beyond ``constraint_tol`` relative to
        ``max(1, |u0|_∞)``): False raises :class:`InconsistentInitialDataError`; otherwise ``u0`` is
        projected onto ``D_{q0}`` (True means ``"kinetic"``): ``"kinetic"`` is the orthogonal
        projection for the kinetic metric ``M = ∂²L/∂u∂u``, ``u − M⁻¹Aᵀ(AM⁻¹Aᵀ)⁻¹Au``;
        ``"euclidean"`` the same with ``M = I``; ``"frame"`` keeps the components along ``X_α``
        (``v^a := 0``). The projection is recorded in :attr:`Trajectory.projection`.
    extra0, mu0 : optional
        Further initial data of systems with extra states (``mu0`` is ``extra0={"mu": mu0}``, the
        vakonomic multipliers; an MVM system takes ``extra0={"lambda": ...}``).
    events : callable or sequence of callables, optional
        One trajectory, scipy's methods only. Event functions ``event(t, q, u) -> float`` in **natural**
        coordinates (``q``, ``u`` arrays in chart order, whatever the internal state): an event occurs
        where its value crosses zero, located as in :func:`scipy.integrate.solve_ivp` (Brent's method on
        the step's dense output, to ``4 ε``). The attributes of :func:`~scipy.integrate.solve_ivp` apply:
        ``event.terminal`` (True: stop at the first occurrence; a positive integer ``k``: at the
        ``k``-th) and ``event.direction`` (> 0 upward crossings only, < 0 downward only, 0 both). Results
        in :attr:`Trajectory.t_events`, :attr:`Trajectory.y_events` (natural ``(q, u)`` rows) and
        :attr:`Trajectory.status` (1 when a terminal event stopped the run; with ``t_eval=None`` the
        last sample is then at the event, with ``t_eval`` the samples stop before it).
    dense_output : bool, default False
        One trajectory, scipy's methods only. Keep every step's interpolant: :attr:`Trajectory.sol` is
        then a :class:`DenseOutput`, ``sol(t)`` the state (layout of :attr:`Trajectory.state`) at any
        ``t`` of the run, as ``solve_ivp(dense_output=True).sol``.
    solver_options : mapping, optional
        One trajectory, scipy's methods only. Further keyword options of the scipy solver class, passed
        to its constructor as ``solve_ivp(**options)`` does: e.g. ``first_step`` (every method), ``jac``,
        ``jac_sparsity`` (``Radau``, ``BDF``, ``LSODA``; in the internal state's coordinates),
        ``min_step``, ``lband``, ``uband`` (``LSODA``). A key the chosen solver does not accept, a
        non-str key, a key that is a parameter here (``rtol``, ``atol``, ``t_eval``, ``max_step``,
        ``method``, ``events``, ``dense_output``) and ``vectorized`` are refused (:class:`OptionError`).
    progress : bool or None, default None
        A batch only: a :mod:`tqdm` bar on stderr, as :func:`sweep`'s: ``True`` always, ``None`` only
        when stderr is a terminal, ``False`` never. The NumPy ``"RK45"`` and ``"RK4"`` paths step all
        members together, so the bar follows the common time ``t`` (one update per step);
        ``"lda-midpoint"`` counts the members; ``backend="numba"`` completes the bar when it returns.

    Returns
    -------
    Trajectory or TrajectoryBatch
        With :attr:`~Trajectory.status` and :attr:`~Trajectory.message` (``"lda-midpoint"`` and
        ``backend="numba"`` always report status 0 and name the method).

    Raises
    ------
    StateError, ParameterError
        Bad initial data (an empty batch included) or parameters (``params`` not a mapping, a key not a
        name, an unknown, missing or non-finite value).
    InconsistentInitialDataError
        ``u0`` not in D and ``project`` is False.
    SingularityError
        Singular Hessian (the guard changes sign or vanishes) or a non-finite right-hand side;
        carries ``t`` and ``state``.
    IntegrationError
        The solver failed (the message is the solver's), or an event raised or returned something
        other than one finite number (the message names ``events[k]``); carries ``t`` and ``state``.
    IntegrationBudgetError
        ``max_steps`` or ``timeout`` exceeded; carries ``t`` and ``state``.
    StiffnessError
        (an :class:`IntegrationBudgetError`) A stiff system under an explicit method: the step is held
        at the stability boundary and the rest of the span would exceed the budget; the message
        suggests ``method="Radau"``, ``"BDF"`` or ``"LSODA"``.
    OptionalDependencyError
        ``backend="numba"`` without numba installed (``pip install 'frames[numba]'``).
    OptionError
        An invalid option, or one that the chosen method, backend or mode (single or batch) does not take.

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.knife_edge()
    >>> tr = fr.integrate(mdl, (0, 1), mdl.q0, mdl.u0, method="lda-midpoint", step=0.1)
    >>> len(tr.t), tr.info["nsteps"], bool(tr.residual.max() < 1e-12)
    (11, 10, True)

    An event in natural coordinates, terminal, with the dense output kept:

    >>> def x_reaches_half(t, q, u):
    ...     return q[1] - 0.5
    >>> x_reaches_half.terminal = True
    >>> tr = fr.integrate(mdl, (0, 5), mdl.q0, mdl.u0, events=x_reaches_half, dense_output=True)
    >>> tr.status, tr.message
    (1, 'A termination event occurred.')
    >>> bool(tr.t[-1] == tr.t_events[0][0]), bool(abs(tr.y_events[0][0, 1] - 0.5) < 1e-12)
    (True, True)
    >>> bool(abs(tr.sol(tr.t[-1])[1] - 0.5) < 1e-12)
    True

    A batch: two knife edges, one row each:

    >>> q0 = [[0.0, 0.0, 0.0], [0.3, 0.0, 0.0]]  # (phi, x, y)
    >>> u0 = [[0.5, 1.0, 0.0], [0.5, 0.955336489125606, 0.29552020666133955]]  # rolling along phi
    >>> fr.integrate(mdl, (0, 1), q0, u0, progress=False).q.shape
    (2, 101, 3)
    """
    opts = IntegrationOptions(
        method=method,
        rtol=rtol,
        atol=atol,
        t_eval=t_eval,
        max_step=max_step,
        project=project,
        constraint_tol=constraint_tol,
        max_steps=max_steps,
        timeout=timeout,
        step=step,
        backend=backend,
        events=events,
        dense_output=dense_output,
        solver_options=solver_options,
        n_steps=n_steps,
        progress=progress,
    )
    if mu0 is not None:
        if extra0 is not None and not isinstance(extra0, Mapping):
            raise StateError(f"extra0: expected a mapping name -> initial values, got {extra0!r:.80}")
        extra0 = dict(extra0 or {}) | {"mu": mu0}
    more = {} if subs is None else {"subs": subs}
    target = resolve(x, "multiplier" if opts.lda else form, system, lagrangian, opts.lda, **more)
    t0, t1 = _t_span(t_span)
    if (u0 is None) == (v0 is None):
        raise StateError(
            "integrate: give the initial velocities once: u0 (the natural velocities) or v0 (the independent "
            "quasi-velocities of the method's frame)"
        )
    if v0 is not None:
        frame, m = _frame_of(x, target)
        if is_batch(q0):
            raise OptionError("integrate: v0 is for one trajectory; a batch takes u0 of shape (B, n)")
        u0 = velocities_from_v0(frame, m, q0, v0, _merge_params(target.defaults, params))
    if is_batch(q0):
        return labelled(run_batch(target, t0, t1, q0, u0, params, extra0, opts), x)
    if opts.progress:
        raise OptionError("integrate: progress is an option of a batch run (q0 of shape (B, n))")
    return labelled(run_single(target, t0, t1, q0, u0, params, extra0, opts), x)


def _frame_of(x: Any, target: Any) -> tuple[Any, int]:
    """The adapted frame and the rank ``m`` of D behind what is integrated (for ``v0``)."""
    for obj in (x, getattr(x, "system", None), getattr(target, "system", None)):
        frame, m = getattr(obj, "frame", None), getattr(obj, "m", None)
        if frame is not None and hasattr(frame, "matrix") and hasattr(frame, "v"):
            return frame, (m if isinstance(m, int) else frame.dim)
    if hasattr(x, "nonholonomic"):
        nh = x.nonholonomic()
        return nh.frame, nh.m
    raise OptionError(f"integrate: v0 needs a system with an adapted frame; {type(x).__name__} has none: give u0")
