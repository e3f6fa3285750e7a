r"""Layer 5, numeric: code generation, integrators, trajectories, batches and sweeps.

One concern per module: ``_resolve`` (the door :func:`ode_system`, and what to integrate, compiled once),
``_compiled`` (code generation), ``_options`` (the options record), ``_inputs`` (initial data, parameters,
time span), ``_integrate`` (the door :func:`integrate`), ``_single`` and ``_batch`` (one trajectory, a
batch), the engines ``_scipy`` (scipy's solvers), ``_rk`` (NumPy batch kernels), ``_numba`` (jitted
kernels), ``_lda`` (discrete Lagrange–d'Alembert), their tableaux ``_tableau``, and ``_trajectory``,
``_plot``, ``_sweep``, ``_locus`` (eigenvalues against a parameter), ``_stiff`` (stiffness of the explicit
methods) and ``_frame`` (the adapted frame watched along the motion: a frame that degenerates is refused as
such, never called stiff).

Everything numeric in :mod:`frames` goes through one small interface, the
symbolic first-order system :class:`OdeSystem`

.. math::  \dot y = f(t, y; p),

given by its state symbols ``y``, right-hand sides ``f`` (sympy expressions),
parameter symbols ``p``, the map from natural initial data ``(q, u)`` (and
extra initial data such as vakonomic multipliers ``μ``) to the state, the
observables to record along the motion (``q``, ``u``, ``v``, energy,
multipliers, ...) and, optionally, the linear constraints ``A(q) u = 0`` and a
*guard* expression that vanishes where the system is singular.
:func:`ode_system` builds one from any :class:`~frames.SecondOrderField`, in two
forms:

``form="reduced"`` (default for fields on C)
    the state is ``(q, v^α)``, α = 1..m, with ``q̇ = v^α X_α(q)`` and
    ``v̇^α = Γ^α`` (Crampin–Mestdag, Proposition 2). The natural velocities
    ``u = v^α X_α`` lie in ``D`` for every state, so the constraints
    ``θ^a(u) = 0`` hold to rounding *by construction*.
``form="multiplier"`` (alias ``"natural"``)
    the state is ``(q, u)`` with ``q̈ = accelerations()``, the classical
    natural-coordinate form (multipliers eliminated); the constraints are only
    preserved up to the integrator's truncation error.

:class:`CompiledSystem` turns an :class:`OdeSystem` into fast numeric
functions: ``sympy.cse`` followed by code generation (a ``math``-module
version for one state, a NumPy version vectorised over a batch of states of
shape ``(n_state, batch)``), with the parameters bound at call time.

Other methods (vakonomic, MVM)
------------------------------
:func:`ode_system` (and :func:`integrate`) take the methods themselves: a :class:`~frames.VakonomicSystem`
(Proposition 4, state ``(q, v^α, μ_a)``, initial ``mu0=...``) or a :class:`~frames.ModifiedVakonomic`
((51a–b), state ``(q, u, λ)``, initial ``extra0={"lambda": ...}``)::

    integrate(vk, t_span, q0, u0, params=..., mu0=[...])

or an :class:`OdeSystem` built directly, e.g. with states ``(q, v^α, μ_a)``::

    OdeSystem(states=q + v_alpha + mu, rhs=qdot + Gamma_alpha + A_a, params=...,
              time=t, chart=chart,
              initial=q + theta_alpha_u + mu, extra_inputs={"mu": mu},
              observables={"q": q, "u": u_of_state, "v": v_of_state, "mu": mu, "energy": (E,)},
              constraint_matrix=Theta[m:, :], metric=hessian, guard=det_g, form="vakonomic")

Observables other than ``q, u, v, energy, multipliers`` end up in :attr:`Trajectory.extras` (e.g.
``"mu"``, ``"lambda"``). Initial data of shape ``(B, n)`` make :func:`integrate` a batch run
(:class:`TrajectoryBatch`).

Examples
--------
>>> import frames as fr
>>> mdl = fr.models.knife_edge()
>>> nh = mdl.nonholonomic()
>>> tr = fr.integrate(nh, (0.0, 1.0), mdl.q0, mdl.u0, params=mdl.param_values, rtol=1e-10, atol=1e-12)
>>> tr.q.shape[1], bool(tr.residual.max() < 1e-14)
(3, True)
>>> round(float(tr.q[-1, 0]), 10)  # φ = φ0 + u_φ t
0.5
"""

from ..dynamics import OdeSystem
from ._compiled import CompiledSystem
from ._integrate import integrate
from ._laws import TimeLaw
from ._locus import draw_eigenvalues, plot_eigenvalues
from ._region_plot import draw_stability_region, plot_stability_region
from ._resolve import ode_system
from ._solvers import BDF, DOP853, LSODA, RK4, RK23, RK45, LDAMidpoint, NumbaRK4, NumbaRK45, Radau, ScipySolver, Solver
from ._sweep import IntegrateJob, grid_points, sweep
from ._trajectory import Trajectory, TrajectoryBatch

__all__ = [
    "BDF",
    "CompiledSystem",
    "DOP853",
    "IntegrateJob",
    "LDAMidpoint",
    "LSODA",
    "NumbaRK4",
    "NumbaRK45",
    "OdeSystem",
    "RK23",
    "RK4",
    "RK45",
    "Radau",
    "ScipySolver",
    "Solver",
    "TimeLaw",
    "Trajectory",
    "TrajectoryBatch",
    "draw_eigenvalues",
    "draw_stability_region",
    "grid_points",
    "integrate",
    "ode_system",
    "plot_eigenvalues",
    "plot_stability_region",
    "sweep",
]
