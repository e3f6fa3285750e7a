r"""Numeric plug-ins: vakonomic (Crampin–Mestdag Proposition 4) and MVM (Pastore et al. (51a–b)) systems.

Both build an :class:`~frames.OdeSystem` that :func:`~frames.integrate` and
:func:`~frames.integrate_batch` accept.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy as sp

from ..algebra import as_subs
from ..dynamics._vakonomic import VakonomicSystem
from ..errors import InvalidExpressionError
from ..natural import ModifiedVakonomic
from ._system import OdeSystem, _free_params, reduced_ode_system

__all__ = ["mvm_ode_system", "vakonomic_ode_system"]


def _sub(e: Any, subs: Mapping[Any, Any] | None) -> sp.Expr:
    e = sp.sympify(e, strict=True)
    if subs:
        e = e.subs(as_subs(subs, name="subs")).doit()
    return e  # type: ignore[no-any-return]


def vakonomic_ode_system(vk: Any, subs: Mapping[Any, Any] | None = None) -> OdeSystem:
    r"""The vakonomic field of Proposition 4 on ``C × R^{n−m}`` as an :class:`OdeSystem`.

    State ``(q, v^α, μ_a)``: ``q̇ = v^α X_α``, ``v̇^α = Γ^α(q, v, μ)``, ``μ̇_a = A_a(q, v, μ)``
    (:meth:`VakonomicSystem.tangent_field` with the multipliers free). Integrate with
    ``integrate(ode, t_span, q0, u0, params=..., mu0=[...])``; ``μ`` lands in
    ``Trajectory.extras["mu"]``. A trajectory started at ``μ(0) = φ(q0, v0)`` stays on the image of a
    section ``φ`` iff the section is invariant (Theorem 2).

    Parameters
    ----------
    vk : VakonomicSystem
    subs : mapping, optional
        Substitution applied to the right-hand sides before compiling (e.g. ``B0(t) -> ...``).

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.nonholonomic_particle()
    >>> ode = fr.vakonomic_ode_system(fr.VakonomicSystem(mdl.lagrangian, mdl.frame, m=2))
    >>> ode.states, ode.form
    ((q1, q2, q3, v1, v2, mu3), 'vakonomic')
    """
    if not isinstance(vk, VakonomicSystem):
        raise InvalidExpressionError(f"vakonomic_ode_system: {vk!r} is not a VakonomicSystem")
    tf = vk.tangent_field()
    m = vk.m
    Gam = [_sub(tf.Gamma[al], subs) for al in range(m)]
    A = [_sub(a, subs) for a in tf.A]
    return reduced_ode_system(
        vk.frame,
        m,
        Gam,
        lagrangian=vk.lagrangian,
        extra_states={"mu": (vk.mu, A)},
        form="vakonomic",
    )


def mvm_ode_system(mvm: Any, subs: Mapping[Any, Any] | None = None, form: str = "mvm") -> OdeSystem:
    r"""The MVM equations (51a–b) of a :class:`ModifiedVakonomic` system as an :class:`OdeSystem`.

    State ``(q, u, λ)``: ``q̇ = u``, ``u̇ = q̈(q, u, t)`` and ``λ̇ = λ̇(q, u, t)`` from
    :meth:`ModifiedVakonomic.solution` (Schur complement of the saddle-point system (50)). Initial
    ``λ`` is the extra input ``"lambda"`` (``extra0={"lambda": [...]}``); ``λ`` is recorded in
    ``Trajectory.extras["lambda"]``, the canonical momenta ``p`` in ``extras["p"]`` and the
    quasi-velocities ``ω = (V, F)`` in ``Trajectory.v``. For linear constraints the constraint
    residual is recorded; the constraints are kept only to the integrator's accuracy.

    Parameters
    ----------
    mvm : ModifiedVakonomic
        Its W must contain no free functions (substitute them with ``subs``, e.g. ``{ϱ: 0}``).
    subs : mapping, optional
        Substitution applied before compiling (free functions of W, ``B0(t) -> ...``).
    form : str
        Label of the system.

    Examples
    --------
    >>> import frames as fr, sympy as sp
    >>> mdl = fr.models.rolling_coin_incline()
    >>> x, y, phi, th = mdl.chart.q; ux, uy, uphi, uth = mdl.chart.u
    >>> R = mdl.params["R"]
    >>> mvm = fr.ModifiedVakonomic(mdl.lagrangian, [ux - R*sp.sin(th)*uphi, uy - R*sp.cos(th)*uphi], [uphi, uth])
    >>> ode = fr.mvm_ode_system(mvm)
    >>> len(ode.states), ode.extra_inputs["lambda"]
    (10, (lambda1, lambda2))
    """
    if not isinstance(mvm, ModifiedVakonomic):
        raise InvalidExpressionError(f"mvm_ode_system: {mvm!r} is not a ModifiedVakonomic system")
    ch = mvm.chart
    q, u = tuple(ch.q), tuple(ch.u)
    t = ch.t if ch.t is not None else sp.Symbol("t")
    qdd, lamd = mvm.solution()
    lam = tuple(mvm.lam)
    states = q + u + lam
    rhs = tuple(u) + tuple(_sub(e, subs) for e in qdd) + tuple(_sub(e, subs) for e in lamd)
    omega = tuple(_sub(e, subs) for e in mvm.omega)
    obs: dict[str, tuple[sp.Expr, ...]] = {
        "q": q,
        "u": u,
        "v": omega,
        "lambda": lam,
        "p": tuple(_sub(e, subs) for e in mvm.p),
        "energy": (_sub(mvm.lagrangian.energy(), subs),),
    }
    A = None if mvm.is_affine else sp.ImmutableMatrix(mvm.A.applyfunc(lambda e: _sub(e, subs)))
    Dm = None if A is None else sp.ImmutableMatrix(sp.Matrix(mvm.X)[mvm.k :, :].applyfunc(lambda e: _sub(e, subs)))
    metric = sp.ImmutableMatrix(sp.hessian(_sub(mvm.lagrangian.expr, subs), u))
    known = set(states) | {t}
    everything = list(rhs) + [e for vals in obs.values() for e in vals] + list(metric)
    everything += list(A) if A is not None else []
    free = set().union(*[sp.sympify(e, strict=True).free_symbols for e in rhs])
    bad = sorted(map(str, free & set(mvm.extra_symbols)))
    if bad:
        raise InvalidExpressionError(f"mvm_ode_system: W contains the free functions {bad}; substitute them (subs=)")
    params = _free_params(everything, known, ch)
    names = {
        "q": tuple(map(str, q)),
        "u": tuple(map(str, u)),
        "v": tuple(f"V{a + 1}" for a in range(mvm.k)) + tuple(f"F{b + 1}" for b in range(mvm.k, mvm.n)),
    }
    return OdeSystem(
        states=states,
        rhs=rhs,
        params=params,
        time=t,
        chart=ch,
        initial=states,
        extra_inputs={"lambda": lam},
        observables=obs,
        constraint_matrix=A,
        metric=metric,
        guard=None,
        form=form,
        names=names,
        distribution_matrix=Dm,
    )
