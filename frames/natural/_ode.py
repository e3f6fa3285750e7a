r"""The modified vakonomic method (Pastore et al., equations (51a–b)) as a first-order :class:`~frames.OdeSystem`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy as sp

from ..dynamics import OdeSystem, substituted
from ..dynamics.internal import assembled_ode
from ..errors import InvalidExpressionError

__all__ = ["mvm_ode"]


def mvm_ode(mvm: Any, *, subs: Mapping[Any, Any] | None = None, form: str = "mvm") -> OdeSystem:
    r"""The MVM equations (51a–b) of a :class:`~frames.ModifiedVakonomic` system as an :class:`OdeSystem`.

    State ``(q, u, λ)``: ``q̇ = u``, ``u̇ = q̈(q, u, t)`` and ``λ̇ = λ̇(q, u, t)`` from
    :meth:`ModifiedVakonomic.accelerations`, :meth:`ModifiedVakonomic.rates` (Schur complement of the saddle-point system (50)). Initial
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
    >>> mdl = fr.models.rolling_coin_incline(); R = mdl.params["R"]
    >>> x, y, phi, th = mdl.chart.q; ux, uy, uphi, uth = mdl.chart.u
    >>> mvm = fr.ModifiedVakonomic(mdl.lagrangian, [ux - R*sp.sin(th)*uphi, uy - R*sp.cos(th)*uphi], [uphi, uth])
    >>> ode = fr.ode_system(mvm)
    >>> len(ode.states), ode.extra_inputs["lambda"]
    (10, (lambda1, lambda2))
    """
    if not isinstance(form, str):
        raise InvalidExpressionError(f"ode_system: form must be a str, got {form!r}")
    ch = mvm.chart
    q, u = tuple(ch.q), tuple(ch.u)
    t = ch.t if ch.t is not None else sp.Symbol("t")
    qdd, lamd = mvm.accelerations(), mvm.rates()
    lam = tuple(mvm.lam)
    states = q + u + lam
    rhs = tuple(u) + tuple(substituted(e, subs) for e in qdd) + tuple(substituted(e, subs) for e in lamd)
    omega = tuple(substituted(e, subs) for e in mvm.omega)
    obs: dict[str, tuple[sp.Expr, ...]] = {
        "q": q,
        "u": u,
        "v": omega,
        "lambda": lam,
        "p": tuple(substituted(e, subs) for e in mvm.p),
        "energy": (substituted(mvm.lagrangian.energy(), subs),),
    }
    A = None if mvm.is_affine else sp.ImmutableMatrix(mvm.A.applyfunc(lambda e: substituted(e, subs)))
    Dm = (
        None
        if A is None
        else sp.ImmutableMatrix(sp.Matrix(mvm.X)[mvm.k :, :].applyfunc(lambda e: substituted(e, subs)))
    )
    metric = sp.ImmutableMatrix(sp.hessian(substituted(mvm.lagrangian.expr, subs), u))
    free = set().union(*[sp.sympify(e, strict=True).free_symbols for e in rhs])
    bad = sorted(map(str, free & set(mvm.extra_symbols)))
    if bad:
        raise InvalidExpressionError(f"ode_system: W contains the free functions {bad}; substitute them (subs=)")
    names = {
        "q": tuple(map(str, q)),
        "u": tuple(map(str, u)),
        "v": tuple(f"V{a + 1}" for a in range(mvm.k)) + tuple(f"F{b + 1}" for b in range(mvm.k, mvm.n)),
    }
    return assembled_ode(
        states=states,
        rhs=rhs,
        time=t,
        chart=ch,
        initial=states,
        observables=obs,
        known=set(states) | {t},
        constraint_matrix=A,
        metric=metric,
        extra_inputs={"lambda": lam},
        form=form,
        names=names,
        distribution_matrix=Dm,
    )
