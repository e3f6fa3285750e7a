"""The one door of the numeric layer: :func:`integrate` (one trajectory, or a batch when the initial data are 2-d).

It normalises everything once — the method and its options into a solver value (:mod:`frames.numeric._solvers`),
the object into a compiled system (:func:`~frames.numeric._resolve.resolve`), the span, the initial data, the
parameters and the inputs into one :class:`~frames.numeric._problem.Problem` — and hands both to the engine the
solver names (:func:`run`): one trajectory (:mod:`frames.numeric._single`) or a batch (:mod:`frames.numeric._batch`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..dynamics import DynamicsMethod, ModelLike, OdeSystem
from ..errors import OptionError, StateError
from ..geometry import SecondOrderField
from ._batch import run_batch
from ._compiled import CompiledSystem
from ._problem import Problem, build_problem, is_batch
from ._progress import ProgressBar, reporting
from ._resolve import resolve
from ._single import run_lda, run_numba, run_scipy
from ._solvers import LDAMidpoint, Solver, solver_from, solver_keys
from ._trajectory import Trajectory, TrajectoryBatch, labelled

__all__ = ["integrate", "run"]


def integrate(
    x: DynamicsMethod | ModelLike | SecondOrderField | OdeSystem | CompiledSystem,
    t_span: Sequence[float],
    q0: Any,
    u0: Any = None,
    params: Mapping[Any, Any] | None = None,
    *,
    v0: Any = None,
    inputs: Mapping[Any, Any] | None = None,
    method: str | Solver = "RK45",
    t_eval: Any = None,
    events: Any = None,
    progress: bool | ProgressBar | None = None,
    **options: Any,
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
    params : mapping, optional
        Parameter symbol or name -> number (overrides a model's ``param_values``); for a batch also an
        array ``(B,)`` (a parameter sweep in one run). A callable value is an input (the sugar of
        ``inputs=``: a law of ``t`` when it requires one positional argument, of ``(t, q, u)`` when three).
    v0 : sequence or mapping, or array (B, m), optional (keyword only)
        Instead of ``u0``, for a system with an adapted frame: the independent quasi-velocities
        ``v^1..v^m`` (one row per member for a batch); then ``u0 = v0^α X_α(q0)``, in D by construction
        (a Kane user's independent speeds).
    inputs : mapping, optional (keyword only)
        Parameter name or symbol -> a law ``law(t, q, u)`` (the word of :func:`~frames.linearize`), always
        called so, ``q`` and ``u`` the natural coordinates and velocities (``(n,)``; ``(n, B)`` in a
        batch); :class:`~frames.TimeLaw` ``(f)`` for a law of ``t`` alone. See :mod:`frames.numeric._laws`.
    method : str or Solver
        A solver value (:class:`~frames.RK45`, :class:`~frames.Radau`, :class:`~frames.LSODA`,
        :class:`~frames.DOP853`, :class:`~frames.RK23`, :class:`~frames.BDF`, :class:`~frames.RK4`,
        :class:`~frames.LDAMidpoint`, :class:`~frames.NumbaRK45`, :class:`~frames.NumbaRK4`) with its own
        options, or its name with the options below (the sugar, mapped once to the solver). One trajectory:
        one of scipy's solvers ``"RK45"``, ``"RK23"``, ``"DOP853"``, ``"Radau"``, ``"BDF"``,
        ``"LSODA"`` (use "Radau" or "BDF" for stiff systems), or ``"lda-midpoint"``: the discrete
        Lagrange–d'Alembert integrator of Cortés–Martínez (2001) in the midpoint form of
        McLachlan–Perlmutter (2006) (:mod:`frames.numeric._lda`): fixed step ``step``, constraints exact at
        the nodes, symmetric; it needs a system (the Lagrangian and the constraints), an autonomous L,
        and returns the nodes ``t0 + k h`` (``t_eval``, ``rtol``, ``atol`` unused).
        A batch: ``"RK45"`` (adaptive Dormand–Prince 5(4) with a step common to the batch, accepted only
        when *every* member's error norm is ≤ 1, so each member meets the tolerance of a per-trajectory
        ``solve_ivp(method="RK45")``), ``"RK4"`` (classical fixed-step Runge–Kutta with ``n_steps``
        steps) or ``"lda-midpoint"`` (member by member).
    t_eval : array, optional
        The output times: finite, sorted, inside ``t_span``. Default: one trajectory of scipy's solvers
        401 equally spaced times (dense output on a grid, as ``frames simulate``); a batch and the jitted
        kernels 101.
    events : callable or sequence of callables, optional
        One trajectory, scipy's methods only. Event functions ``event(t, q, u) -> float`` in **natural**
        coordinates (``q``, ``u`` arrays in chart order, whatever the internal state): an event occurs
        where its value crosses zero, located as in :func:`scipy.integrate.solve_ivp` (Brent's method on
        the step's dense output, to ``4 ε``). The attributes of :func:`~scipy.integrate.solve_ivp` apply:
        ``event.terminal`` (True: stop at the first occurrence; a positive integer ``k``: at the
        ``k``-th) and ``event.direction`` (> 0 upward crossings only, < 0 downward only, 0 both). Results
        in :attr:`Trajectory.t_events`, :attr:`Trajectory.y_events` (natural ``(q, u)`` rows) and
        :attr:`Trajectory.status` (1 when a terminal event stopped the run; the last sample is then at the
        event).
    progress : bool or None, default None
        A :mod:`tqdm` bar on stderr, as :func:`sweep`'s. A batch: ``True`` always, ``None`` only when stderr
        is a terminal, ``False`` never; the NumPy ``"RK45"`` and ``"RK4"`` paths step all members together,
        so the bar follows the common time ``t`` (one update per step); ``"lda-midpoint"`` counts the
        members; ``backend="numba"`` completes the bar when it returns. One trajectory: ``True`` shows a bar
        in model time (one update per accepted step of scipy's solvers). A :class:`~frames.numeric.ProgressBar`
        is driven as it is and left open (the caller's bar: ``frames simulate``'s).
    **options
        The further keyword options below: what is integrated, how the initial data are taken, and the sugar
        of ``method="..."`` (each a field of the solver it names; an option the solver does not have is
        refused, :class:`OptionError`). Adding an option to a solver is a field of that solver.
    form : {"reduced", "multiplier"}
        For a field, a nonholonomic system or a model: see :func:`~frames.ode_system`. The reduced form
        ``(q, v^α)`` keeps ``θ^a(u) = 0`` to rounding.
    system, lagrangian : optional
        For a field: the :class:`~frames.NonholonomicSystem` (multipliers, energy) or the Lagrangian
        (energy, kinetic metric).
    subs : mapping, optional
        For a vakonomic or MVM system: a substitution applied before compiling (see :func:`~frames.ode_system`).
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
    rtol, atol, max_step
        As for :func:`scipy.integrate.solve_ivp` (fields of the scipy solvers and of ``NumbaRK45``).
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
    with reporting(_reporter(progress)):  # code generation reports through the run's progress reporter
        return _integrate(x, t_span, q0, u0, params, v0, inputs, method, t_eval, events, progress, options)


def _reporter(progress: Any) -> Any:
    """Where the heartbeat lines of code generation go: the caller's bar, stderr for ``progress=True``, else
    nowhere."""
    if isinstance(progress, ProgressBar):
        return progress.write
    if progress is True:
        return lambda line: print(line, file=sys.stderr, flush=True)
    return None


def _integrate(
    x: Any,
    t_span: Any,
    q0: Any,
    u0: Any,
    params: Any,
    v0: Any,
    inputs: Any,
    method: Any,
    t_eval: Any,
    events: Any,
    progress: Any,
    options: dict[str, Any],
) -> Trajectory | TrajectoryBatch:
    """The body of :func:`integrate` (its arguments as given)."""
    unknown = sorted(set(options) - _DOOR_KEYS - solver_keys())
    if unknown:
        raise OptionError(
            f"integrate: unknown option(s) {unknown}; the options are {sorted(_DOOR_KEYS | solver_keys())}"
        )
    door = {k: options.pop(k) for k in list(options) if k in _DOOR_KEYS}
    backend = door.get("backend", "numpy")
    solver = solver_from(method, backend, is_batch(q0), options)
    extra0, mu0 = door.get("extra0"), door.get("mu0")
    if mu0 is not None:
        if extra0 is not None and not isinstance(extra0, Mapping):
            raise StateError(f"extra0: expected a mapping name -> initial values, got {extra0!r:.80}")
        extra0 = dict(extra0 or {}) | {"mu": mu0}
    more = {} if door.get("subs") is None else {"subs": door["subs"]}
    lda = isinstance(solver, LDAMidpoint)
    form = "multiplier" if lda else door.get("form", "reduced")
    target = resolve(x, form, door.get("system"), door.get("lagrangian"), lda, **more)
    problem = build_problem(
        target,
        solver,
        t_span,
        q0,
        u0,
        v0,
        x=x,
        params=params,
        inputs=inputs,
        extra0=extra0,
        project=door.get("project", False),
        constraint_tol=door.get("constraint_tol", 1e-9),
        t_eval=t_eval,
        events=events,
        dense_output=door.get("dense_output", False),
        progress=progress,
    )
    return labelled(ENGINES[solver.engine(problem.batch), problem.batch](problem, solver), x)


#: The keyword options of :func:`integrate` that are not a solver's fields: what is integrated and how the
#: initial data are taken.
_DOOR_KEYS = frozenset(
    {"form", "system", "lagrangian", "subs", "extra0", "mu0", "project", "constraint_tol", "dense_output", "backend"}
)

#: The engines, by name (a solver's ``single_engine`` / ``batch_engine``): each answers ``run(problem, solver)``.
ENGINES: dict[tuple[str, bool], Callable[[Problem, Solver], Trajectory | TrajectoryBatch]] = {
    ("scipy", False): run_scipy,
    ("numba", False): run_numba,
    ("lda", False): run_lda,
    ("rk", True): run_batch,
    ("numba", True): run_batch,
    ("lda", True): run_batch,
}


def run(problem: Problem, solver: Solver) -> Trajectory | TrajectoryBatch:
    """Integrate ``problem`` with ``solver``: the engine the solver names for the problem's mode."""
    return ENGINES[solver.engine(problem.batch), problem.batch](problem, solver)
