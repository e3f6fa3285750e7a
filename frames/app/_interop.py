r"""In from :mod:`sympy.physics.mechanics`: :func:`from_mechanics` (the way out, ``Model.to_mechanics``, is :mod:`._to_mechanics`).

**From SymPy** (:func:`from_mechanics`, :func:`mechanics_import`). A
:class:`~sympy.physics.mechanics.LagrangesMethod` brings its Lagrangian and its ``nonhol_coneqs``
(and the derivatives of its ``hol_coneqs``); the frame is ``LinearConstraints(...).adapted_frame()``.
A :class:`~sympy.physics.mechanics.KanesMethod` brings its generalized speeds: with the kinematic
differential equations ``u = W(q) q̇`` they are quasi-velocities, and the frame is built from them.
The independent speeds are the first ``m`` quasi-velocities ``v^α``, and the velocity constraints
``B(q) u = 0`` are the others ``v^a``. The frame is dual to the coframe ``(W_ind, B W)``: its first
``m`` fields span D, and on ``C = {v^a = 0}`` the rates of Kane's independent speeds are the
``Γ^α`` of the nonholonomic field.

Kane's method takes no Lagrangian, so one is built from the configuration. The velocity of each mass
centre is the time derivative of its position from a point at rest in the inertial frame. The angular
velocity of each body comes from its direction cosine matrix. The potential is ``−F·r`` for each force
that is constant in the inertial frame, such as gravity. Every other load (damping, friction, inputs,
torques) is a generalised force, a one-form ``Q = Q_i dq^i`` on Q with ``Q_i = F·∂v_P/∂q̇^i`` for a force
on a point and ``T·∂ω_B/∂q̇^i`` for a torque on a frame, the velocities written in ``q̇`` through
``u = W q̇`` (Kane) — the model's ``forces``, for either method. On C, ``Q(X_α)`` is Kane's generalized
active force of the independent speed ``v^α``. The velocities set on the method must equal these true
velocities on C. A
``v2pt_theory`` about a rolling contact point breaks this: it hides a constraint that the method does
not list, and such a method is refused with a message saying so (SymPy's ``test_kane.py`` rolling
disc is one).

A :class:`~sympy.physics.mechanics.System` is read through its ``eom_method`` when its equations are
formed, else as the method ``System.form_eoms`` would build (Kane with speeds, Lagrange without), unformed.

**To SymPy** (:func:`to_mechanics`, ``Model.to_mechanics``). ``kind="lagrange"`` gives
``LagrangesMethod(L, q, nonhol_coneqs=constraints)``. ``kind="kane"`` gives a ``KanesMethod`` whose
generalized speeds are the frame's quasi-velocities (``u = Θ q̇``), with the transverse ones
``v^a`` dependent (``velocity_constraints = v^a``). A general Lagrangian has no bodies, so the
inertia is carried by ``n`` particles moving along ``N.x`` with velocities ``w = K q̇`` and masses
``D``, where ``∂²L/∂q̇² = Kᵀ D K`` is the LDLᵀ factorisation. Every other term of the
Euler–Lagrange expressions acts as a generalized force on ``n`` points moving along ``N.y`` with
velocities ``q̇``: the potential, the gyroscopic terms, and the terms that come from a
configuration-dependent ``K`` or ``D``. For a constant mass matrix these are plain particles and
forces. SymPy's Kane pipeline then does what it does for any system: partial velocities, elimination
of the dependent speeds and acceleration constraints.
"""

from __future__ import annotations

import math
import re
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, cast

import sympy as sp
from sympy.core.function import AppliedUndef

from .._lazy import LazyModule
from .._value import Multipliers, Record
from ..algebra import compact, is_zero, op_count, solve_linear, step, tidy
from ..algebra.internal import canon, checkpoint, trig_normal, visibly_nonzero
from ..dynamics import CartanSystem, DynamicsMethod, Equations, Lagrangian, NonholonomicSystem, OdeSystem
from ..errors import (
    ArgumentError,
    BudgetExceededError,
    ConstraintError,
    FramesError,
    InvalidExpressionError,
    NoMultipliersError,
    UndecidedError,
)
from ..geometry import Chart, Frame, LinearConstraints, SecondOrderField
from ._model import Model

if TYPE_CHECKING:
    from sympy.physics import mechanics as me
else:  # imported on first use: sympy.physics loads its units (~0.2 s)
    me = LazyModule("sympy.physics.mechanics")

__all__ = ["MechanicsImport", "from_mechanics", "mechanics_import", "mechanics_rates"]

_T = sp.Symbol("t")  # = dynamicsymbols._t (without importing sympy.physics)
#: the imported Lagrangian is not tidied when its expansion has more terms than this (estimated): its canonical form
#: is then slow to reach (the Whipple bicycle's: about 900,000 terms, 3 s, and larger than the bodies' tree)
_TIDY_TERMS = 100_000
#: a kinematic mismatch is shown tidied up to this many operations, else its start and its size
_SHOWN_OPS = 2000


# ----------------------------------------------------------------------------- names
def _is_dynamic(x: Any) -> bool:
    return isinstance(x, AppliedUndef) and x.args == (_T,)


def _dynamic_list(seq: Any, what: str) -> list[Any]:
    out = list(seq)
    for k, x in enumerate(out):
        if not _is_dynamic(x):
            raise InvalidExpressionError(f"{what}[{k}]: {x!r} is not a dynamicsymbol (an undefined function of t)")
    names = [x.func.__name__ for x in out]
    if len(set(names)) != len(names):
        raise InvalidExpressionError(f"{what}: repeated names in {names}")
    return out


def _dot_name(name: str) -> str:
    """``q1 -> qdot1``, ``theta -> thetadot`` (printed as ``\\dot q_1``, ``\\dot θ``)."""
    m = re.fullmatch(r"([A-Za-z]+)_?(\d+)", name)
    return f"{m.group(1)}dot{m.group(2)}" if m else f"{name}dot"


def _fresh(name: str, taken: set[str]) -> str:
    while name in taken:
        name += "_"
    taken.add(name)
    return name


@dataclass
class _Names:
    """Translation of mechanics expressions (dynamicsymbols) into frames symbols."""

    coords: dict[Any, sp.Symbol]  # q(t) -> q
    rates: dict[Any, sp.Symbol]  # q'(t) -> chart velocity u
    speeds: dict[Any, sp.Expr] = field(default_factory=dict)  # Kane's u(t) -> expression in the frame's v
    zero: dict[Any, sp.Expr] = field(default_factory=dict)  # auxiliary speeds -> 0

    def __call__(self, expr: Any, what: str) -> sp.Expr:
        try:
            e = sp.sympify(expr, strict=True).xreplace(self.zero)  # sympy objects and numbers only, never text
        except (sp.SympifyError, TypeError):
            raise InvalidExpressionError(f"{what}: {expr!r} is not a sympy expression") from None
        own = set(self.coords) | set(self.speeds)
        bad = [d for d in e.atoms(sp.Derivative) if d not in self.rates and d.expr in own]
        if bad:
            raise InvalidExpressionError(
                f"{what}: {e} contains {bad}: accelerations (second derivatives, rates of the speeds) cannot be "
                "written on TQ; only q(t), q'(t) and the generalized speeds are translated"
            )
        return e.xreplace(self.rates).xreplace(self.speeds).xreplace(self.coords)  # derivatives first

    def reverse(self) -> dict[Any, Any]:
        """The documented map: dynamicsymbol (or derivative) -> frames symbol or expression."""
        return {**self.coords, **self.rates, **self.speeds}


def _chart_for(
    qsyms: list[sp.Symbol], exprs: Sequence[sp.Expr], dummies: Sequence[sp.Symbol], taken: set[str], what: str
) -> tuple[Chart, dict[str, Any]]:
    """The chart of an import: coordinates, free parameters, time and velocity names that clash with nothing.

    Undefined functions of t left in the expressions are specified inputs (parameters on a chart with time).
    """
    syms: set[sp.Symbol] = set()
    funcs: set[Any] = set()
    for e in exprs:
        syms |= e.free_symbols
        funcs |= {f.func for f in e.atoms(AppliedUndef) if f.args == (_T,)}
    syms -= set(qsyms) | set(dummies) | {_T}
    params = sorted(syms, key=lambda s: s.name)
    reserved = {q.name for q in qsyms} | taken | {_T.name}
    pnames = [s.name for s in params] + [f.__name__ for f in funcs]
    clash = sorted((set(pnames) & reserved) | {x for x in pnames if pnames.count(x) > 1})
    if clash:
        raise InvalidExpressionError(f"{what}: the names {clash} are used by several parameters, coordinates or speeds")
    names = reserved | set(pnames)
    unames = [u.name for u in Chart(qsyms).u]
    if any(x in names for x in unames):
        unames = [_fresh(_dot_name(q.name), names) for q in qsyms]
    time = _T if (funcs or any(_T in e.free_symbols for e in exprs)) else None
    try:
        chart = Chart(qsyms, unames, time=time, params=params)
    except (BudgetExceededError, UndecidedError):  # a spent budget or an undecided test is not bad input
        raise
    except FramesError as exc:
        raise InvalidExpressionError(f"{what}: cannot build the chart: {exc}") from None
    return chart, {f.__name__: f for f in funcs}


def _linear_rows(chart: Chart, exprs: Sequence[sp.Expr], labels: Sequence[str]) -> list[sp.Expr]:
    """Check that each constraint is linear and homogeneous in the velocities and free of explicit time."""
    us = set(chart.u)
    for e, lab in zip(exprs, labels, strict=True):
        if chart.t is not None and e.has(chart.t):
            raise InvalidExpressionError(
                f"{lab}: {e} depends explicitly on time; time-dependent (rheonomic) constraints are not supported"
            )
        coeffs = [sp.diff(e, u) for u in chart.u]
        rest = e - sum((c * u for c, u in zip(coeffs, chart.u, strict=True)), sp.S.Zero)
        if any(c.free_symbols & us for c in coeffs) or not is_zero(rest):
            raise ConstraintError(
                f"{lab}: the constraint {e} = 0 is not linear and homogeneous in the velocities {chart.u}; "
                "frames needs constraints a(q)·q̇ = 0"
            )
    return list(exprs)


def _expansion_terms(e: sp.Expr, limit: int = _TIDY_TERMS) -> int:
    """An estimate of the terms of ``e`` expanded (``sin``/``cos`` of a sum of ``r`` terms: ``2^(r-1)``), each
    shared node walked once; any value above ``limit`` may be returned as soon as it is reached."""
    memo: dict[sp.Expr, int] = {}

    def walk(x: sp.Expr) -> int:
        got = memo.get(x)
        if got is not None:
            return got
        if x.is_Add:
            out = sum(walk(a) for a in x.args)
        elif x.is_Mul:
            out = 1
            for a in x.args:
                out = min(out * walk(a), limit + 1)
        elif x.is_Pow and x.exp.is_Integer:
            t, k = walk(x.base), abs(int(x.exp))
            out = min(math.comb(t + k - 1, k) if t <= limit else limit + 1, limit + 1)
        elif isinstance(x, sp.sin | sp.cos) and x.args[0].is_Add:
            out = 2 ** min(len(x.args[0].args) - 1, 64)
        else:
            out = 1
        memo[x] = out = min(out, limit + 1)
        return out

    return walk(e)


# ------------------------------------------------------------------ kinematics from the configuration
def _rest_point(P: me.Point, N: me.ReferenceFrame, what: str) -> me.Point:
    """A point at rest in N connected to ``P`` by positions (breadth first).

    A point whose velocity in N is set to 0; failing that, a point with no velocity set at all (the
    "inertial origin" of SymPy's examples, ``NO = Point('NO')``). The velocities set on the method
    are checked against the derivatives of these positions afterwards.
    """
    seen = [P]
    queue = deque([P])
    while queue:
        X = queue.popleft()
        for Y in X._pos_dict:
            if Y not in seen:
                seen.append(Y)
                queue.append(Y)
    for X in seen:
        vel = X._vel_dict.get(N)
        if vel is not None and vel == 0:
            return X
    for X in seen:
        if not X._vel_dict:
            return X
    raise InvalidExpressionError(
        f"{what}: point {P.name} has no position relative to a point at rest in {N.name}; locate it from a fixed "
        f"point (O.set_vel({N.name}, 0); P = O.locatenew(...)) so that its velocity is the derivative of a position"
    )


def _true_velocity(P: me.Point, N: me.ReferenceFrame, what: str) -> tuple[sp.Matrix, sp.Matrix]:
    """``(r, ṙ)``: position of ``P`` from a point at rest in N and its time derivative, in N components."""
    O = _rest_point(P, N, what)
    r = me.express(P.pos_from(O), N).to_matrix(N)
    return r, r.diff(_T)


def _true_omega(F: me.ReferenceFrame, N: me.ReferenceFrame, what: str) -> sp.Matrix:
    """Angular velocity of F in N from the direction cosine matrix, in F components (``[ω]× = Rᵀ Ṙ``)."""
    try:
        R = N.dcm(F)
    except ValueError as exc:
        raise InvalidExpressionError(f"{what}: frame {F.name} is not oriented relative to {N.name}: {exc}") from None
    W = R.T * R.diff(_T)
    return sp.Matrix([W[2, 1], W[0, 2], W[1, 0]])


def _constant(x: Any, what: str) -> Any:
    e = tidy(sp.sympify(x, strict=True))  # an inertia given in another frame is constant only modulo sin² + cos² = 1
    if any(_is_dynamic(f) for f in e.atoms(AppliedUndef)) or e.has(_T):
        raise InvalidExpressionError(
            f"{what}: {e} varies in time; only constant masses and central inertias are supported"
        )
    return e


def _kinetic_energy(bodies: Sequence[Any], N: me.ReferenceFrame, what: str) -> tuple[sp.Expr, list[Any]]:
    """Kinetic energy from positions and orientations, and the (set, true) velocity pairs to check."""
    T = sp.S.Zero
    checks: list[Any] = []
    for k, b in enumerate(bodies):
        checkpoint()
        where = f"{what}.bodies[{k}] ({getattr(b, 'name', b)})"
        if isinstance(b, me.RigidBody):
            P, mass = b.masscenter, _constant(b.mass, f"{where}: mass")
            F = b.frame
            I = b.central_inertia.to_matrix(F).applyfunc(lambda x, w=where: _constant(x, f"{w}: central inertia"))
            w = _true_omega(F, N, where)
            T += (w.T * I * w)[0] / 2
            checks.append((f"{where}: angular velocity of {F.name}", F.ang_vel_in(N).to_matrix(F), w))
        elif isinstance(b, me.Particle):
            P, mass = b.point, _constant(b.mass, f"{where}: mass")
        else:
            raise ArgumentError(f"{where}: expected a RigidBody or a Particle, got {type(b).__name__}")
        _r, v = _true_velocity(P, N, where)
        T += mass * (v.T * v)[0] / 2
        checks.append((f"{where}: velocity of {P.name}", me.express(P.vel(N), N).to_matrix(N), v))
    return T, checks


def _potential(
    loads: Sequence[Any],
    N: me.ReferenceFrame | None,
    what: str,
    qdots: Sequence[Any],
    aux: Mapping[Any, Any] | None = None,
    speeds: Mapping[Any, Any] | None = None,
) -> tuple[sp.Expr, list[Any], list[sp.Expr] | None]:
    r"""``V = −Σ F·r`` for forces constant in N; every other load is a generalised force on Q.

    A force ``F`` on a point ``P`` gives ``Q_i = F·∂v_P/∂q̇^i``, a torque ``T`` on a frame ``B`` gives
    ``Q_i = T·∂ω_B/∂q̇^i``: the components of the one-form ``Q = Q_i dq^i`` whose value on a velocity is
    the power of the load. ``v_P`` and ``ω_B`` are the velocities set on the method, written in the
    ``q̇`` (``qdots``): Kane's generalized speeds through ``speeds`` (``u = W(q) q̇``, on all of TQ).
    On C they are the true velocities (checked for the bodies), so ``Q(X_α)`` is Kane's generalized
    active force of the independent speed ``v^α``.

    A force on a point that moves with Kane's auxiliary speeds ``aux`` only (a contact force brought
    into evidence) does no work in the motion and is skipped; the auxiliary speeds are zero elsewhere.
    Returns ``(V, checks, Q or None)``.
    """
    V = sp.S.Zero
    checks: list[Any] = []
    Q: list[sp.Expr] | None = None
    sub = dict(aux or {}) | dict(speeds or {})

    def add(vec: sp.Matrix, vel: Any) -> list[sp.Expr]:
        w = me.express(vel, N).to_matrix(N).xreplace(sub)
        f = vec.xreplace(sub)
        return [(Q[i] if Q else sp.S.Zero) + (f.T * w.diff(qd))[0] for i, qd in enumerate(qdots)]

    for k, load in enumerate(loads or ()):
        checkpoint()
        where = f"{what}.loads[{k}]"
        try:
            loc, vec = load
        except (TypeError, ValueError):
            raise ArgumentError(
                f"{where}: {load!r} is not a (Point, Vector) or (ReferenceFrame, Vector) load"
            ) from None
        if N is None:
            raise ArgumentError(f"{where}: the method has loads but no inertial frame")
        if not isinstance(loc, me.Point | me.ReferenceFrame):
            raise ArgumentError(f"{where}: {loc!r} is neither a Point nor a ReferenceFrame")
        if vec == 0:
            continue
        try:
            vel = loc.ang_vel_in(N) if isinstance(loc, me.ReferenceFrame) else loc.vel(N)
        except ValueError as exc:
            raise InvalidExpressionError(
                f"{where}: the velocity of {loc.name} in {N.name} is not known ({exc}); a load needs it"
            ) from None
        Fv = me.express(vec, N).to_matrix(N)
        if isinstance(loc, me.ReferenceFrame):  # a torque: a generalised force (constant ones included)
            Q = add(Fv, vel)
            continue
        if aux and me.express(vel, N).to_matrix(N).xreplace(aux) == sp.zeros(3, 1):
            continue
        if Fv.atoms(AppliedUndef, sp.Derivative):  # not constant in N: a generalised force, not a potential
            Q = add(Fv, vel)
            continue
        r, v = _true_velocity(loc, N, where)
        V -= (Fv.T * r)[0]
        checks.append((f"{where}: velocity of {loc.name}", me.express(vel, N).to_matrix(N), v))
    return V, checks, Q


def _check_kinematics(
    checks: Sequence[Any], names: _Names, frame: Frame, m: int, speeds: Mapping[Any, Any] | None = None
) -> None:
    """The velocities set on the method equal the true ones on C (else a constraint is hidden).

    Each component is first compared on all of TQ, in ``q`` and ``q̇`` (Kane's speeds written ``u = W q̇``
    through ``speeds``), by the ring's exact test: a difference that vanishes identically on TQ vanishes
    on C. Only a component that does not (a velocity set about a rolling contact point, true on C only,
    or outside the ring) is tested on C, where the chart velocities are the frame's fields in the
    independent quasi-velocities: larger expressions (the solved constraints, radicals). There a value far
    from 0 at a rational point proves a mismatch at once; otherwise the exact test of
    :func:`~frames.algebra.is_zero` decides. A component checked once is not checked again (a load on a
    mass centre repeats its body's velocity).
    """
    u_on_c: dict[Any, Any] | None = None
    done: set[tuple[Any, Any]] = set()
    for where, vset, vtrue in checks:
        for i in range(3):
            checkpoint()
            if (vset[i], vtrue[i]) in done:
                continue
            done.add((vset[i], vtrue[i]))
            diff = vset[i] - vtrue[i]
            if is_zero(names(diff.xreplace(speeds) if speeds else diff, where), ring_only=True):
                continue  # on all of TQ, hence on C
            if u_on_c is None:
                on_c = frame.on_constraint(m)
                # on C: u = Σ_α v^α X_α, and v^a = 0 where the speeds bring v in
                u_on_c = dict(zip(frame.chart.u, (u.xreplace(on_c) for u in frame.u_in_v), strict=True)) | on_c
            d = names(diff, where).xreplace(u_on_c)
            if visibly_nonzero(d) or not is_zero(d):
                shown = (
                    tidy(d) if op_count(d, _SHOWN_OPS) <= _SHOWN_OPS else f"{str(d)[:200]}… ({op_count(d)} operations)"
                )
                raise ConstraintError(
                    f"{where}: the value set on the method differs from the time derivative of the "
                    f"configuration by {shown} (component {i}) on the constraint submanifold: the kinematics encode "
                    "a constraint that is not among the velocity constraints (for example v2pt_theory about a rolling "
                    "contact point). Give the contact point coordinates and state the rolling constraints as "
                    "u_dependent/velocity_constraints"
                )


# ----------------------------------------------------------------------------- the import
class MechanicsImport(DynamicsMethod, Record):
    r"""What :func:`mechanics_import` reads from a sympy method: frames objects and the name map.

    Attributes
    ----------
    kind : str
        ``"lagrange"`` or ``"kane"``.
    method : LagrangesMethod or KanesMethod
        The method read (not copied).
    chart : Chart
        Coordinates named after the dynamicsymbols (``q1(t) -> q1``); velocities ``u1, …`` (or
        ``qdot1, …`` when Kane's speeds already use the names ``u1, …``).
    lagrangian : Lagrangian
    frame : Frame
        Adapted frame (Kane: the first ``m`` quasi-velocities are the independent speeds).
    m : int
        Rank of D; ``m = n`` when the method has no constraints (then there is no Model, see
        :meth:`model`, but :meth:`field` gives the Euler–Lagrange field in the frame).
    constraints : LinearConstraints or None
    names : mapping
        ``q(t) -> q``, ``q'(t) -> u`` and (Kane) ``u_k(t) ->`` its expression in the frame's ``v``.
    params : mapping
        Parameter name -> Symbol (or undefined function of t for a specified input).
    configuration_constraints : tuple
        Kane's configuration constraints ``f(q) = 0`` (implied by the velocity constraints; the
        motion keeps them when it starts on them).
    """

    kind: str
    method: Any
    chart: Chart
    lagrangian: Lagrangian
    frame: Frame
    m: int
    constraints: LinearConstraints | None
    names: Mapping[Any, sp.Expr]
    params: Mapping[str, Any]
    configuration_constraints: tuple[sp.Expr, ...] = ()
    _names: _Names | None = field(default=None, repr=False, compare=False)
    forces: tuple[sp.Expr, ...] | None = None

    # ------------------------------------------------------------ the method protocol
    @cached_property
    def system(self) -> NonholonomicSystem | CartanSystem:
        """The frames method of the imported system: the nonholonomic system (with constraints), else the
        Cartan-form method of the Lagrangian in :attr:`frame` (Euler–Lagrange)."""
        if self.m < self.chart.dim:
            return NonholonomicSystem(self.lagrangian, self.frame, self.m, forces=self.forces)
        if self.forces is not None:
            raise ConstraintError(
                "MechanicsImport.system: an unconstrained method with forces: its field is "
                "lagrangian.euler_lagrange_field(frame, forces=imp.forces)"
            )
        return CartanSystem(self.frame, self.lagrangian)

    def equations(self) -> Equations:
        """The equations of motion (the method protocol; see :meth:`frames.NonholonomicSystem.equations`)."""
        return self.system.equations()

    def accelerations(self, *, canonical: bool | None = None) -> sp.ImmutableMatrix:
        """The natural accelerations ``q̈`` (the method protocol)."""
        return self.system.accelerations()

    def multipliers(self, *, canonical: bool | None = None) -> Multipliers:
        """The constraint multipliers ``λ_a`` (the method protocol); none without constraints."""
        system = self.system
        if not isinstance(system, NonholonomicSystem):
            raise NoMultipliersError("MechanicsImport.multipliers: the imported method has no constraints (m = n)")
        return system.multipliers()

    def ode_system(self, *, subs: Mapping[Any, Any] | None = None, **options: Any) -> OdeSystem:
        """The first-order system of the imported motion (the method protocol; ``options``: the imported system's
        own, such as a nonholonomic system's ``form``)."""
        return self.system.ode_system(subs=subs, **options)

    def to_frames(self, expr: Any) -> sp.Expr:
        """A mechanics expression in frames symbols (q, the chart's u and, for Kane, the frame's v)."""
        assert self._names is not None
        return self._names(expr, "MechanicsImport.to_frames: expr")

    def field(self) -> SecondOrderField:
        """The nonholonomic field in :attr:`frame` (Euler–Lagrange field when ``m = n``)."""
        if self.m < self.chart.dim:  # then the system is the nonholonomic one
            return cast(NonholonomicSystem, self.system).field()
        return self.lagrangian.euler_lagrange_field(self.frame, forces=self.forces)

    def model(self, name: str | None = None) -> Model:
        """The validated :class:`~frames.app._model.Model` (needs at least one constraint)."""
        what = f"from_mechanics: method ({type(self.method).__name__})"
        if self.constraints is None:
            raise ConstraintError(
                f"{what}: the method has no nonholonomic constraints (m = n = {self.chart.dim}); a frames Model "
                "needs at least one. Use frames.app.mechanics_import(method).field() for the unconstrained system"
            )
        notes = f"Imported from sympy.physics.mechanics.{type(self.method).__name__} by frames.from_mechanics."
        if self.configuration_constraints:
            notes += f" Configuration constraints (kept by the motion): {list(self.configuration_constraints)}."
        return Model(
            name=name if name is not None else f"mechanics-{self.kind}",
            chart=self.chart,
            lagrangian=self.lagrangian,
            frame=self.frame,
            m=self.m,
            constraints=self.constraints,
            params=dict(self.params),
            notes=notes,
            forces=self.forces or (),
        )

    def method_rates(self) -> sp.ImmutableMatrix:
        r"""The method's own equations of motion solved exactly, in frames symbols (see :func:`mechanics_rates`)."""
        assert self._names is not None
        return _rates(self.method, self._names, self.frame, self.m, "MechanicsImport.method_rates")


def _rates(method: Any, names: _Names, frame: Frame, m: int, what: str) -> sp.ImmutableMatrix:
    """Kane: u̇ of the independent speeds on C; Lagrange: q̈ with the multipliers eliminated (module docs)."""
    n = frame.dim
    if isinstance(method, me.KanesMethod):
        if method._fr is None:
            method.kanes_equations()
        on_c = frame.on_constraint(m)
        A = method.mass_matrix.applyfunc(lambda e: trig_normal(names(e, what).xreplace(on_c)))
        b = method.forcing.applyfunc(lambda e: trig_normal(names(e, what).xreplace(on_c)))
        return sp.ImmutableMatrix([tidy(x) for x in solve_linear(A, b)[:m]])
    if method.eom is None:
        method.form_lagranges_equations()
    MF = method.mass_matrix_full.applyfunc(lambda e: canon(names(e, what)))
    FF = method.forcing_full.applyfunc(lambda e: canon(names(e, what)))
    # rows n..2n: M q̈ + (multiplier columns) = f; rows 2n..: the differentiated constraints. The D fields
    # annihilate the multiplier columns (the constraint covectors), so contracting with them is exact.
    XD = sp.Matrix(frame.matrix[:m, :])
    for a in range(2 * n, MF.rows):
        if not all(is_zero((MF[a, n : 2 * n] * XD.row(al).T)[0]) for al in range(m)):
            raise ArgumentError(f"{what}: method: its constraint {a - 2 * n} does not vanish on the frame's D fields")
    A = (XD * MF[n : 2 * n, n : 2 * n]).col_join(MF[2 * n :, n : 2 * n]).applyfunc(canon)
    b = (XD * FF[n : 2 * n, 0]).col_join(FF[2 * n :, 0]).applyfunc(canon)
    return sp.ImmutableMatrix([tidy(x) for x in solve_linear(A, b)])


def mechanics_rates(method: Any, model: Model) -> sp.ImmutableMatrix:
    r"""A sympy method's own equations of motion, solved exactly in the symbols of ``model``.

    Coordinates are matched by name (``q1(t) -> q1``, ``q1'(t) ->`` the chart's velocity) and, for
    Kane, the generalized speeds by name with the frame's quasi-velocities, as
    :meth:`Model.to_mechanics` names them. A ``System`` stands for its ``eom_method`` (or the method
    ``form_eoms`` would build).

    Returns
    -------
    Matrix
        ``KanesMethod``: the rates ``u̇`` of the independent speeds on C, from ``mass_matrix`` and
        ``forcing`` (``kanes_equations()`` is called if it was not); they are the ``Γ^α`` of the
        nonholonomic field. ``LagrangesMethod``: ``q̈`` on TQ, from ``mass_matrix_full`` and
        ``forcing_full`` (``form_lagranges_equations()`` is called if it was not), the multipliers
        eliminated by contracting the dynamic equations with the fields ``X_α`` that span D, which
        annihilate the multiplier columns, so the result is exact on all of TQ. This is much cheaper
        than solving for ``(q̈, λ)``.

    Raises
    ------
    ArgumentError
        If ``method`` or ``model`` has the wrong type, or their names do not match.
    """
    what = "mechanics_rates"
    if not isinstance(model, Model):
        raise ArgumentError(f"{what}: model: expected a frames Model, got {type(model).__name__}")
    if isinstance(method, me.System):
        method = _system_method(method, f"{what}: method (System)")
    if not isinstance(method, me.KanesMethod | me.LagrangesMethod):
        raise ArgumentError(
            f"{what}: method: expected a KanesMethod, LagrangesMethod or System, got {type(method).__name__}"
        )
    ch, F = model.chart, model.frame
    qs = _dynamic_list(method.q, f"{what}: method.q")
    by_name = {q.name: q for q in ch.q}
    if sorted(q.func.__name__ for q in qs) != sorted(by_name):
        raise ArgumentError(f"{what}: method: coordinates {list(qs)} are not the model's {list(ch.q)}")
    coords = {q: by_name[q.func.__name__] for q in qs}
    rates = {q.diff(_T): ch.u[ch.q.index(coords[q])] for q in qs}
    speeds: dict[Any, sp.Expr] = {}
    if isinstance(method, me.KanesMethod):
        us = _dynamic_list(method.u, f"{what}: method.u")
        vnames = [v.name for v in F.v]
        if [u.func.__name__ for u in us] != vnames or len(method._udep) != model.n - model.m:
            raise ArgumentError(
                f"{what}: method: the speeds {list(us)} are not the model's quasi-velocities {list(F.v)} "
                f"(independent first, {model.n - model.m} dependent); use mechanics_import(method).method_rates()"
            )
        speeds = dict(zip(us, F.v, strict=True))
    names = _Names(coords, rates, speeds, {ua: sp.S.Zero for ua in getattr(method, "_uaux", [])})
    return _rates(method, names, F, model.m, what)


def _import_lagrange(method: me.LagrangesMethod, what: str) -> MechanicsImport:
    qs = _dynamic_list(method.q, f"{what}.q")
    qsyms = [sp.Symbol(q.func.__name__) for q in qs]
    dummies = [sp.Dummy(f"u_{s.name}") for s in qsyms]
    names = _Names(dict(zip(qs, qsyms, strict=True)), dict(zip([q.diff(_T) for q in qs], dummies, strict=True)))
    L = names(method._L[0], f"{what}: Lagrangian")
    V, checks, Q = _potential(method.forcelist, method.inertial, what, [q.diff(_T) for q in qs])
    if V != 0:
        L -= names(V, f"{what}: loads")
    forces = [names(x, f"{what}: loads (generalised forces)") for x in Q] if Q else []
    nhol = len(method._hol_coneqs)
    labels = [f"{what}: hol_coneqs[{k}] (differentiated)" for k in range(nhol)]
    labels += [f"{what}: nonhol_coneqs[{k}]" for k in range(len(method.coneqs) - nhol)]
    cons = [names(c, lab) for c, lab in zip(method.coneqs, labels, strict=True)]
    chart, funcs = _chart_for(qsyms, [L, *cons, *forces], dummies, set(), what)
    back = dict(zip(dummies, chart.u, strict=True))
    L, cons = L.xreplace(back), [c.xreplace(back) for c in cons]
    forces = [f.xreplace(back) for f in forces]
    names.rates = {d: back[s] for d, s in names.rates.items()}
    _linear_rows(chart, cons, labels)
    taken = {s.name for s in (*chart.q, *chart.u, *chart.params)}
    prefix = next(p for p in ("v", "w", "nu", "vq") if not {f"{p}{i + 1}" for i in range(chart.dim)} & taken)
    if cons:
        try:
            constraints: LinearConstraints | None = LinearConstraints(chart, cons)
        except (BudgetExceededError, UndecidedError):  # a spent budget or an undecided test is not bad input
            raise
        except FramesError as exc:
            raise type(exc)(f"{what}: coneqs: {exc}") from None
        assert constraints is not None
        frame = constraints.adapted_frame(v=prefix)
        m = chart.dim - constraints.k
    else:
        constraints, frame, m = None, Frame.coordinate(chart, v=prefix), chart.dim
    _check_kinematics(checks, names, frame, chart.dim)
    lag = Lagrangian(chart, L)  # as given (a round trip Model -> LagrangesMethod -> Model keeps it)
    params = {s.name: s for s in chart.params} | funcs
    return MechanicsImport(
        "lagrange", method, chart, lag, frame, m, constraints, names.reverse(), params, (), names,
        tuple(canon(f) for f in forces) if any(f != 0 for f in forces) else None,
    )  # fmt: skip


def _import_kane(method: me.KanesMethod, what: str) -> MechanicsImport:
    N = method._inertial
    qs = _dynamic_list(method.q, f"{what}.q")
    us = _dynamic_list(method.u, f"{what}.u")
    n, o, k = len(qs), len(us), len(method._udep)
    p = o - k
    if o != n:
        without = [u.func.__name__ for j, u in enumerate(us) if all(x == 0 for x in method._k_ku_implicit.col(j))]
        raise InvalidExpressionError(
            f"{what}: {o} generalized speeds for {n} coordinates; frames needs one speed per coordinate "
            "(u = W(q) q̇ with W invertible) so that the speeds are quasi-velocities"
            + (
                f". The speeds {without} have no coordinate: add one for each (a wheel angle θ with θ̇ = u), and give "
                "every point whose velocity is set by fiat (a contact point with set_vel(N, 0)) its position, "
                "as benchmarks/bicycle.py does for SymPy's bicycle"
                if without
                else ""
            )
        )
    if not method._k_kqdot:
        raise ArgumentError(f"{what}: the KanesMethod has no kinematic differential equations (kd_eqs)")
    if method.bodies is None:
        raise ArgumentError(
            f"{what}: the KanesMethod has no bodies; pass bodies=... to KanesMethod or call kanes_equations(bodies, loads)"
        )
    qsyms = [sp.Symbol(q.func.__name__) for q in qs]
    dummies = [sp.Dummy(f"u_{s.name}") for s in qsyms]
    names = _Names(
        dict(zip(qs, qsyms, strict=True)),
        dict(zip([q.diff(_T) for q in qs], dummies, strict=True)),
        zero={ua: sp.S.Zero for ua in method._uaux},
    )
    with step("from_mechanics: the kinematic equations (u = W q̇)"):
        # u = W q̇ from the implicit kinematic equations k_ku u + k_kq̇ q̇ + f_k = 0
        fk = [names(x, f"{what}: kd_eqs") for x in method._f_k_implicit]
        kku = method._k_ku_implicit.applyfunc(lambda e: names(e, f"{what}: kd_eqs"))
        kkq = method._k_kqdot_implicit.applyfunc(lambda e: names(e, f"{what}: kd_eqs"))
        if not all(is_zero(x) for x in fk) or any(e.has(_T) for e in (*kku, *kkq)):
            raise InvalidExpressionError(
                f"{what}: kd_eqs: the kinematic differential equations are affine or depend explicitly on time; "
                "frames needs u = W(q) q̇"
            )
        try:
            W = (-solve_linear(kku, kkq)).applyfunc(tidy)
        except (BudgetExceededError, UndecidedError):  # a spent budget or an undecided test is not bad input
            raise
        except (ZeroDivisionError, FramesError, ValueError) as exc:
            raise InvalidExpressionError(f"{what}: kd_eqs cannot be solved for the speeds: {exc}") from None
    with step("from_mechanics: the velocity constraints"):
        if k:
            B = method._k_nh.applyfunc(lambda e: tidy(names(e, f"{what}: velocity_constraints")))
            if not all(is_zero(names(x, f"{what}: velocity_constraints")) for x in method._f_nh) or B.has(_T):
                raise ConstraintError(
                    f"{what}: velocity_constraints are affine or depend explicitly on time; frames needs B(q) u = 0"
                )
        else:
            B = sp.zeros(0, n)
    P = sp.eye(n)
    P[p:, :] = B
    qdots = [q.diff(_T) for q in qs]
    W_dyn = W.xreplace(dict(zip(qsyms, qs, strict=True)))  # u = W q̇ in the method's own symbols
    speeds_in_qdot = {u: (W_dyn.row(j) * sp.Matrix(qdots))[0] for j, u in enumerate(us)}
    with step("from_mechanics: reading the bodies (kinetic energy)"):
        bodies_T, checks = _kinetic_energy(method.bodies, N, what)
    with step("from_mechanics: potential energy, generalised forces"):
        V, checks2, Q = _potential(method.loads, N, what, qdots, names.zero, speeds_in_qdot)
    with step("from_mechanics: the chart"):
        L = names(bodies_T - V, f"{what}: kinetic and potential energy")
        forces = [names(x, f"{what}: loads (generalised forces)") for x in Q] if Q else []
        chart, funcs = _chart_for(qsyms, [L, *W, *B, *forces], dummies, {u.func.__name__ for u in us}, what)
        back = dict(zip(dummies, chart.u, strict=True))
        L = L.xreplace(back)
        forces = [tidy(f.xreplace(back)) for f in forces]
    names.rates = {d: back[s] for d, s in names.rates.items()}
    # quasi-velocities: the independent speeds, then the velocity constraints (named after the dependent
    # speed when the constraint is that speed itself)
    taken = {s.name for s in (*chart.q, *chart.u, *chart.params)} | {u.func.__name__ for u in us}
    vnames = [u.func.__name__ for u in us[:p]]
    for a in range(k):
        exact = all(B[a, j] == (1 if j == p + a else 0) for j in range(n))
        vnames.append(us[p + a].func.__name__ if exact else _fresh(f"c{a + 1}", taken))
    v = sp.symbols(vnames)
    Theta = (P * W).applyfunc(tidy)
    try:
        with step("from_mechanics: the frame dual to the speeds"):
            frame = Frame.from_coframe(chart, Theta, v=v)
            # Θ = P W, so P⁻¹ = W Θ⁻¹ = W Xᵀ: a product when W is constant (u = q̇: a permutation), else solved
            constant = not any(x.free_symbols for x in W)
            Pinv = W * frame.matrix.T if constant else solve_linear(P)
    except (BudgetExceededError, UndecidedError):  # a spent budget or an undecided test is not bad input
        raise
    except (ZeroDivisionError, FramesError) as exc:
        raise InvalidExpressionError(
            f"{what}: the speeds and velocity constraints do not form a coframe: {exc}"
        ) from None
    # the speeds in the v: with W constant the frame's tidied entries (Pinv[j, i] = Σ W[j, l] X[i, l]), as they are
    if constant and all(sum(x != 0 for x in W.row(j)) == 1 for j in range(n)):
        speeds = [sp.Add(*(Pinv[j, i] * v[i] for i in range(n))) for j in range(n)]
    else:
        speeds = [canon(x) for x in Pinv * sp.Matrix(v)]
    names.speeds = dict(zip(us, speeds, strict=True))
    m = p
    try:
        with step("from_mechanics: the constraints on the chart"):
            constraints = LinearConstraints(chart, (B * W).applyfunc(tidy)) if k else None
    except (BudgetExceededError, UndecidedError):  # a spent budget or an undecided test is not bad input
        raise
    except FramesError as exc:
        raise type(exc)(f"{what}: velocity_constraints: {exc}") from None
    cfg = tuple(names(c, f"{what}: configuration_constraints") for c in method._f_h)
    for c in cfg:
        for al in range(m):
            checkpoint()
            if not is_zero(frame.fields[al](c)):
                raise ConstraintError(
                    f"{what}: configuration_constraints: the derivative of {c} = 0 is not implied by the "
                    "velocity constraints; frames needs them among the velocity constraints"
                )
    with step("from_mechanics: the kinematics checked"):
        _check_kinematics([*checks, *checks2], names, frame, m, speeds_in_qdot)
    with step("from_mechanics: the Lagrangian"):
        # tidied when small, or when that is quick and no larger (compact) and its expansion is not large;
        # else as the bodies give it
        tidied = compact([L], lambda: [tidy(L)]) if _expansion_terms(L) <= _TIDY_TERMS else None
        lag = Lagrangian(chart, L if tidied is None else tidied[0])
    params = {s.name: s for s in chart.params} | funcs
    with step("from_mechanics: the model"):
        out = MechanicsImport(
            "kane", method, chart, lag, frame, m, constraints, names.reverse(), params, cfg, names,
            tuple(canon(f) for f in forces) if any(not is_zero(f) for f in forces) else None,
        )  # fmt: skip
    return out


def _system_method(system: Any, what: str) -> Any:
    r"""The method of a :class:`sympy.physics.mechanics.System`: its ``eom_method`` when its equations are formed,
    else the method that ``System.form_eoms`` would build, not formed (the import does not need the equations).

    With generalized speeds that is ``form_eoms(KanesMethod)``'s ``KanesMethod``: ``q_ind``, ``q_dep``,
    ``u_ind``, ``u_dep``, ``u_aux``, ``kdes``, ``holonomic_constraints``, ``velocity_constraints``,
    ``bodies``, and the loads together with those of the actuators. Without speeds it is
    ``form_eoms(LagrangesMethod)``'s ``LagrangesMethod``: the Lagrangian of the bodies (their
    ``potential_energy`` included), ``q``, ``holonomic_constraints``, ``nonholonomic_constraints``, loads.
    """
    method = system.eom_method
    if method is not None:
        if not isinstance(method, me.KanesMethod | me.LagrangesMethod):
            raise ArgumentError(
                f"{what}: System.eom_method is a {type(method).__name__}; expected a KanesMethod or LagrangesMethod"
            )
        return method
    try:
        loads = tuple(system.loads) + tuple(ld for act in system.actuators for ld in act.to_loads())
        if not len(system.u):
            return me.LagrangesMethod(
                me.Lagrangian(system.frame, *system.bodies),
                system.q,
                forcelist=loads or None,
                bodies=list(system.bodies),
                frame=system.frame,
                hol_coneqs=system.holonomic_constraints,
                nonhol_coneqs=system.nonholonomic_constraints,
            )
        return me.KanesMethod(
            system.frame,
            q_ind=system.q_ind,
            u_ind=system.u_ind,
            kd_eqs=system.kdes,
            q_dependent=system.q_dep,
            u_dependent=system.u_dep,
            configuration_constraints=system.holonomic_constraints,
            velocity_constraints=system.velocity_constraints,
            u_auxiliary=system.u_aux,
            forcelist=loads or None,
            bodies=list(system.bodies),
            explicit_kinematics=False,
        )
    except (ValueError, TypeError, AttributeError, IndexError) as exc:
        raise ArgumentError(
            f"{what}: the System cannot be read as a {'KanesMethod' if len(system.u) else 'LagrangesMethod'} "
            f"({type(exc).__name__}: {exc}); form its "
            "equations (system.form_eoms(KanesMethod) or form_eoms(LagrangesMethod)) and pass the System again, or "
            "pass System.eom_method"
        ) from None


def mechanics_import(method: Any) -> MechanicsImport:
    r"""Read a :class:`~sympy.physics.mechanics.LagrangesMethod`, ``KanesMethod`` or ``System`` into frames objects.

    See :func:`from_mechanics`; this also works without constraints (``m = n``) and keeps the name map.

    Raises
    ------
    ArgumentError
        If ``method`` is not one of the two methods or a System, or lacks what the import needs (Kane:
        kd_eqs, bodies), or is a System that cannot be read (the message names ``System.eom_method``).
    ConstraintError
        If a constraint is not linear and homogeneous in the velocities, or the method's kinematics
        hide a constraint it does not list.
    InvalidExpressionError
        For what frames cannot represent: time-dependent constraints or kinematics, more speeds than
        coordinates, accelerations or variable masses, a load on a point whose velocity is unknown.
    """
    what = "from_mechanics: method"
    if isinstance(method, me.System):
        method = _system_method(method, f"{what} (System)")
    if isinstance(method, me.KanesMethod):
        return _import_kane(method, what)
    if isinstance(method, me.LagrangesMethod):
        return _import_lagrange(method, what)
    raise ArgumentError(
        f"{what}: expected a sympy.physics.mechanics LagrangesMethod, KanesMethod or System, got {type(method).__name__} "
        f"{str(method)[:60]!r}"
    )


def from_mechanics(method: Any, *, name: str | None = None) -> Model:
    r"""A validated :class:`Model` from a sympy ``LagrangesMethod``, ``KanesMethod`` or ``System``.

    The dynamicsymbols ``q(t)`` become the chart's coordinates (same names), ``q'(t)`` its velocities,
    and Kane's generalized speeds the frame's quasi-velocities (independent speeds first). Forces
    constant in the inertial frame (gravity) enter the Lagrangian as ``−F·r``; every other load
    becomes the model's generalised forces ``Q_i = F·∂v_P/∂q̇^i`` (a torque: ``T·∂ω/∂q̇^i``). A
    ``System`` is read through ``System.eom_method``, or as the method ``form_eoms`` would build. Use
    :func:`mechanics_import` for the name map and :meth:`MechanicsImport.method_rates`.

    Examples
    --------
    >>> import sympy as sp
    >>> from sympy.physics.mechanics import LagrangesMethod, dynamicsymbols
    >>> import frames as fr
    >>> x, y, th = dynamicsymbols("x y theta")
    >>> xd, yd, thd = (s.diff() for s in (x, y, th))
    >>> LM = LagrangesMethod((xd**2 + yd**2 + thd**2) / 2, [x, y, th],
    ...                      nonhol_coneqs=[-sp.sin(th) * xd + sp.cos(th) * yd])
    >>> mdl = fr.from_mechanics(LM, name="knife")
    >>> mdl.chart.q, mdl.m
    ((x, y, theta), 2)
    >>> mdl.constraints
    LinearConstraints(-u_x*sin(theta) + u_y*cos(theta) = 0)
    """
    if name is not None and (not isinstance(name, str) or not name):
        raise ArgumentError(f"from_mechanics: name: expected a non-empty string, got {name!r}")
    return mechanics_import(method).model(name)


# ----------------------------------------------------------------------------- the other way
