r"""Catalogue of benchmark systems from the papers.

Each function returns a :class:`Model`: chart, Lagrangian, linear constraints,
an adapted frame (first ``m`` fields span D), parameters, default initial
conditions and a citation. The same objects are used by the tests, the
examples, the benchmarks and the ``frames`` command.

Papers:

* [CM] Crampin & Mestdag, *Anholonomic frames in constrained dynamics* (2010).
* [PGG] Pastore, Giammarini & Grillo, the modified vakonomic method (2024).
* [CdLMM] Cortés, de León, Martín de Diego & Martínez (2003).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from ..dynamics._lagrangian import Lagrangian
from ..dynamics._nonholonomic import NonholonomicSystem
from ..errors import FramesError
from ..geometry._chart import Chart
from ..geometry._distribution import LinearConstraints
from ..geometry._fields import VectorField
from ..geometry._frame import Frame

__all__ = [
    "Model",
    "carriage_section_data",
    "catalogue",
    "chaplygin_sleigh",
    "charged_skate",
    "class71",
    "get",
    "knife_edge",
    "nonholonomic_particle",
    "rolling_coin_incline",
    "rolling_penny",
    "two_wheeled_carriage",
    "vertical_rolling_disk",
]


@dataclass(frozen=True, eq=False)
class Model:
    """A benchmark system.

    Attributes
    ----------
    name : str
        Catalogue key, e.g. ``"two-wheeled-carriage"``.
    chart : Chart
    lagrangian : Lagrangian
    frame : Frame
        Adapted frame; its first ``m`` fields span D.
    m : int
        Rank of the constraint distribution.
    constraints : LinearConstraints
        The constraints as printed in the source.
    params : dict
        Parameter name -> Symbol.
    q0, u0 : dict
        Default initial conditions (Symbol -> number), with ``u0`` in D.
    param_values : dict
        Default numerical parameter values (Symbol -> number).
    citation : str
    group : tuple of int
        For Chaplygin systems: 0-based indices of frame fields that are the
        group generators ``Ẽ_a`` (empty otherwise).
    structure_constants : dict
        ``(a, b) -> {c: C^c_ab}`` with ``[Ẽ_a, Ẽ_b] = -C^c_ab Ẽ_c`` (Chaplygin).
    notes : str
    extras : dict
        Optional model-specific data. Conventions read by the library:
        ``"structure_constants"`` (Chaplygin, see above); ``"auxiliary"``: m
        auxiliary functions ``F^β(q, u)``, affine in the velocities, which with
        the constraints form a coframe, for the modified vakonomic method
        (``ModifiedVakonomic(L, constraints=..., auxiliary=extras["auxiliary"])``,
        also read as ``"mvm_auxiliary"``); ``"mvm_constraints"``: the constraints
        in the form used by the MVM (default: ``constraints.functions``);
        ``"units"``: parameter name -> unit string (set by system files).
    """

    name: str
    chart: Chart
    lagrangian: Lagrangian
    frame: Frame
    m: int
    constraints: LinearConstraints
    params: dict[str, sp.Symbol]
    q0: dict[sp.Symbol, float] = field(default_factory=dict)
    u0: dict[sp.Symbol, float] = field(default_factory=dict)
    param_values: dict[sp.Symbol, float] = field(default_factory=dict)
    citation: str = ""
    group: tuple[int, ...] = ()
    notes: str = ""
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def n(self) -> int:
        """dim Q."""
        return self.chart.dim

    def nonholonomic(self) -> NonholonomicSystem:
        """The nonholonomic system in the model's adapted frame."""
        return NonholonomicSystem(self.lagrangian, self.frame, self.m)

    @property
    def is_chaplygin(self) -> bool:
        """True if the model declares group generators (a Chaplygin system)."""
        return bool(self.group)

    def __repr__(self) -> str:
        return f"Model({self.name!r}, q={self.chart.q}, m={self.m}, params={list(self.params)})"

    def _repr_latex_(self) -> str:
        r"""LaTeX display for Jupyter: coordinates, Lagrangian and constraints.

        >>> print(nonholonomic_particle()._repr_latex_())
        $\begin{aligned}q &= \left(q_{1}, q_{2}, q_{3}\right)\\ L &= \frac{u_{1}^{2}}{2} + \frac{u_{2}^{2}}{2} + \frac{u_{3}^{2}}{2}\\ 0 &= q_{1} u_{2} + u_{3}\end{aligned}$
        """
        rows = [r"q &= \left(" + ", ".join(sp.latex(s) for s in self.chart.q) + r"\right)"]
        rows.append("L &= " + sp.latex(self.lagrangian.expr))
        rows += ["0 &= " + sp.latex(f) for f in self.constraints.functions]
        return r"$\begin{aligned}" + r"\\ ".join(rows) + r"\end{aligned}$"


def _params(names: str) -> dict[str, sp.Symbol]:
    return {s.name: s for s in sp.symbols(names, seq=True)}


# ----------------------------------------------------------------- [CM] 7.1
def nonholonomic_particle() -> Model:
    r"""The nonholonomic particle, [CM] section 7.1.

    ``L = (u1² + u2² + u3²)/2``, constraint ``u3 + q1 u2 = 0``; frame
    ``X1 = ∂1, X2 = ∂2 − q1 ∂3, X3 = ∂3`` with ``[X1, X2] = −X3``. No parameters.
    """
    ch = Chart("q1 q2 q3")
    q1, q2, q3 = ch.q
    u1, u2, u3 = ch.u
    L = Lagrangian(ch, (u1**2 + u2**2 + u3**2) / 2)
    F = Frame([VectorField(ch, [1, 0, 0]), VectorField(ch, [0, 1, -q1]), VectorField(ch, [0, 0, 1])])
    return Model(
        "nonholonomic-particle",
        ch,
        L,
        F,
        2,
        LinearConstraints(ch, [u3 + q1 * u2]),
        {},
        q0={q1: 0.5, q2: 0.0, q3: 0.0},
        u0={u1: 1.0, u2: 0.5, u3: -0.25},
        citation="Crampin & Mestdag (2010), section 7.1",
    )


def class71(k: int = 1, deltas: Sequence[Any] | Callable[[sp.Symbol, int], Any] | None = None) -> Model:
    r"""The [CM] section 7.1 family on R^{k+2}.

    ``L = ½(I1 u1² + I2 u2² + Σ_a I_a u_a²)``, constraints ``u_a + Δ_a(q1) u2 = 0``.
    Frame ``X1 = ∂1, X2 = ∂2 − Σ Δ_a ∂_a, X_a = ∂_a`` (a Chaplygin system with
    group R^k generated by the ``∂_a``).

    Parameters
    ----------
    k : int
        Number of constrained coordinates (k ≥ 1).
    deltas : sequence of expressions in q1, or callable ``(q1, a) -> expr``, optional
        Default: undefined functions ``Delta3(q1), …``. Parameters ``I1, I2, I3, …``
        are the inertia coefficients (kg for a length coordinate, kg m² for an angle).
        Default initial conditions ``q1 = 0.5``, ``u1 = 1``, ``u2 = 0.5`` and, when the
        Δ_a are concrete, ``u_a = −Δ_a u2`` (in D).
    """
    if not isinstance(k, int) or k < 1:
        raise FramesError(f"class71: k = {k!r} must be a positive integer")
    names = ["q1", "q2"] + [f"q{a}" for a in range(3, k + 3)]
    Inames = " ".join(f"I{i}" for i in range(1, k + 3))
    params = _params(Inames)
    ch = Chart(names, params=list(params.values()))
    q = ch.q
    u = ch.u
    q1 = q[0]
    if deltas is None:
        D = [sp.Function(f"Delta{a}")(q1) for a in range(3, k + 3)]
    elif callable(deltas):
        D = [sp.sympify(deltas(q1, a)) for a in range(3, k + 3)]
    else:
        D = [sp.sympify(d) for d in deltas]
        if len(D) != k:
            raise FramesError(f"class71: {len(D)} deltas given for k = {k}")
    I = [params[f"I{i}"] for i in range(1, k + 3)]
    L = Lagrangian(ch, sum((I[i] * u[i] ** 2 for i in range(k + 2)), sp.S.Zero) / 2)
    n = k + 2
    X1 = VectorField(ch, [1] + [0] * (n - 1))
    X2 = VectorField(ch, [0, 1] + [-d for d in D])
    Xa = [VectorField.coordinate(ch, i) for i in range(2, n)]
    F = Frame([X1, X2, *Xa])
    cons = LinearConstraints(ch, [u[2 + a] + D[a] * u[1] for a in range(k)])
    q0: dict[sp.Symbol, float] = {qi: 0.0 for qi in q}
    q0[q1] = 0.5
    u0: dict[sp.Symbol, float] = {u[0]: 1.0, u[1]: 0.5}
    for a in range(k):  # u_a = -Δ_a(q1) u2, when Δ_a is concrete
        val = (-D[a] * u0[u[1]]).subs(q1, q0[q1])
        if val.is_number:
            u0[u[2 + a]] = float(val)
    return Model(
        f"class71-k{k}",
        ch,
        L,
        F,
        2,
        cons,
        params,
        q0=q0,
        u0=u0,
        param_values={Ii: 1.0 for Ii in I},
        citation="Crampin & Mestdag (2010), section 7.1; Bloch, Fernandez & Mestdag (2009)",
        group=tuple(range(2, n)),
        extras={"deltas": tuple(D), "structure_constants": {}},
    )


def vertical_rolling_disk() -> Model:
    r"""Vertically rolling disk, [CM] section 7.1.

    Coordinates ``(φ, θ, x, y)`` = ``(q1, q2; q_a)`` of the class; constraints
    ``u_x = R cos φ u_θ``, ``u_y = R sin φ u_θ``;
    ``L = ½ M (u_x² + u_y²) + ½ I u_θ² + ½ J u_φ²``. Params: M [kg], I, J [kg m²], R [m].
    """
    params = _params("M I J R")
    M, I, J, R = params.values()
    ch = Chart("phi theta x y", params=list(params.values()))
    phi, th, x, y = ch.q
    uphi, uth, ux, uy = ch.u
    L = Lagrangian(ch, M * (ux**2 + uy**2) / 2 + I * uth**2 / 2 + J * uphi**2 / 2)
    F = Frame(
        [
            VectorField(ch, [1, 0, 0, 0]),
            VectorField(ch, [0, 1, R * sp.cos(phi), R * sp.sin(phi)]),
            VectorField(ch, [0, 0, 1, 0]),
            VectorField(ch, [0, 0, 0, 1]),
        ]
    )
    cons = LinearConstraints(ch, [ux - R * sp.cos(phi) * uth, uy - R * sp.sin(phi) * uth])
    return Model(
        "vertical-rolling-disk",
        ch,
        L,
        F,
        2,
        cons,
        params,
        q0={phi: 0.0, th: 0.0, x: 0.0, y: 0.0},
        u0={uphi: 0.3, uth: 1.0, ux: 1.0, uy: 0.0},
        param_values={M: 1.0, I: 0.5, J: 0.25, R: 1.0},
        citation="Crampin & Mestdag (2010), section 7.1; Bloch (2003)",
        group=(2, 3),
        extras={"structure_constants": {}},
    )


def knife_edge() -> Model:
    r"""Knife edge (skate) on a horizontal plane, a member of the [CM] section 7.1 class.

    Coordinates ``(φ, x, y)``: heading φ and contact point (x, y); constraint
    ``−sin φ u_x + cos φ u_y = 0`` (no sideways slip); ``L = ½ m (u_x² + u_y²) + ½ J u_φ²``.
    Frame ``X1 = ∂_φ, X2 = cos φ ∂_x + sin φ ∂_y, X3 = −sin φ ∂_x + cos φ ∂_y``.
    Params: m [kg], J [kg m²].
    """
    params = _params("m J")
    m, J = params.values()
    ch = Chart("phi x y", params=list(params.values()))
    phi, x, y = ch.q
    uphi, ux, uy = ch.u
    L = Lagrangian(ch, m * (ux**2 + uy**2) / 2 + J * uphi**2 / 2)
    F = Frame(
        [
            VectorField(ch, [1, 0, 0]),
            VectorField(ch, [0, sp.cos(phi), sp.sin(phi)]),
            VectorField(ch, [0, -sp.sin(phi), sp.cos(phi)]),
        ]
    )
    cons = LinearConstraints(ch, [-sp.sin(phi) * ux + sp.cos(phi) * uy])
    return Model(
        "knife-edge",
        ch,
        L,
        F,
        2,
        cons,
        params,
        q0={phi: 0.0, x: 0.0, y: 0.0},
        u0={uphi: 0.5, ux: 1.0, uy: 0.0},
        param_values={m: 1.0, J: 0.2},
        citation="Bloch (2003), section 1.6; Crampin & Mestdag (2010), section 7.1",
    )


def chaplygin_sleigh() -> Model:
    r"""Chaplygin sleigh: a rigid body on a plane with a knife edge at distance a from its centre of mass.

    Coordinates ``(θ, x, y)`` of the contact point; constraint
    ``−sin θ u_x + cos θ u_y = 0``;
    ``L = ½ m ((u_x − a sin θ u_θ)² + (u_y + a cos θ u_θ)²) + ½ I u_θ²``
    (I about the centre of mass). Params: m [kg], I [kg m²], a [m].
    """
    params = _params("m I a")
    m, I, a = params.values()
    ch = Chart("theta x y", params=list(params.values()))
    th, x, y = ch.q
    uth, ux, uy = ch.u
    L = Lagrangian(ch, m * ((ux - a * sp.sin(th) * uth) ** 2 + (uy + a * sp.cos(th) * uth) ** 2) / 2 + I * uth**2 / 2)
    F = Frame(
        [
            VectorField(ch, [1, 0, 0]),
            VectorField(ch, [0, sp.cos(th), sp.sin(th)]),
            VectorField(ch, [0, -sp.sin(th), sp.cos(th)]),
        ]
    )
    cons = LinearConstraints(ch, [-sp.sin(th) * ux + sp.cos(th) * uy])
    return Model(
        "chaplygin-sleigh",
        ch,
        L,
        F,
        2,
        cons,
        params,
        q0={th: 0.0, x: 0.0, y: 0.0},
        u0={uth: 1.0, ux: 1.0, uy: 0.0},
        param_values={m: 1.0, I: 0.1, a: 0.5},
        citation="Bloch (2003), section 1.7; Neimark & Fufaev (1972)",
    )


def two_wheeled_carriage() -> Model:
    r"""Two-wheeled carriage, [CM] section 7.2 (the planar mobile robot of [CdLMM] Ex. 6.7).

    Coordinates ``(ψ1, ψ2, x, y, θ)``;
    ``L = ½ m (u_x² + u_y²) + m0 l u_θ (cos θ u_y − sin θ u_x) + ½ J u_θ² + ½ J2 (u_ψ1² + u_ψ2²)``.
    Constraints ``u_x = −(R/2) cos θ (u_ψ1 + u_ψ2)``, ``u_y = −(R/2) sin θ (u_ψ1 + u_ψ2)``,
    ``u_θ = (R/2c)(u_ψ2 − u_ψ1)``. Frame X1, X2 span D; ``X3 = ∂_x, X4 = ∂_y,
    X5 = ∂_θ − y ∂_x + x ∂_y`` generate SE(2).

    Params: m total mass [kg], m0 body mass [kg], l offset of the centre of mass [m],
    J moment of inertia about the vertical through (x, y) [kg m²], J2 axial moment of
    inertia of a wheel [kg m²], R wheel radius [m], c half axle length [m].
    """
    params = _params("m m0 l J J2 R c")
    m, m0, l, J, J2, R, c = params.values()
    ch = Chart("psi1 psi2 x y theta", params=list(params.values()))
    p1, p2, x, y, th = ch.q
    up1, up2, ux, uy, uth = ch.u
    L = Lagrangian(
        ch,
        m * (ux**2 + uy**2) / 2
        + m0 * l * uth * (sp.cos(th) * uy - sp.sin(th) * ux)
        + J * uth**2 / 2
        + J2 * (up1**2 + up2**2) / 2,
    )
    X1 = VectorField(ch, [1, 0, -R / 2 * sp.cos(th), -R / 2 * sp.sin(th), -R / (2 * c)])
    X2 = VectorField(ch, [0, 1, -R / 2 * sp.cos(th), -R / 2 * sp.sin(th), R / (2 * c)])
    X3 = VectorField(ch, [0, 0, 1, 0, 0])
    X4 = VectorField(ch, [0, 0, 0, 1, 0])
    X5 = VectorField(ch, [0, 0, -y, x, 1])
    F = Frame([X1, X2, X3, X4, X5])
    cons = LinearConstraints(
        ch,
        [
            ux + R / 2 * sp.cos(th) * (up1 + up2),
            uy + R / 2 * sp.sin(th) * (up1 + up2),
            uth - R / (2 * c) * (up2 - up1),
        ],
    )
    pv = {m: 3.0, m0: 2.0, l: 0.1, J: 0.5, J2: 0.05, R: 0.2, c: 0.3}
    return Model(
        "two-wheeled-carriage",
        ch,
        L,
        F,
        2,
        cons,
        params,
        q0={p1: 0.0, p2: 0.0, x: 0.0, y: 0.0, th: 0.0},
        u0={up1: 1.0, up2: 0.5, ux: -0.15, uy: 0.0, uth: -1.0 / 6.0},  # in D for the default param_values
        param_values=pv,
        citation="Crampin & Mestdag (2010), section 7.2; Neimark & Fufaev (1972); Cortés et al. (2003), Example 6.7",
        group=(2, 3, 4),
        # [E_a, E_b] = -C^c_ab E_c: [X3, X5] = X4, [X4, X5] = -X3
        extras={"structure_constants": {(2, 4): {3: -1}, (3, 4): {2: 1}}},
    )


def carriage_section_data(mdl: Model, values: dict[Any, Any] | None = None) -> dict[str, Any]:
    r"""The section 7.2 data of :func:`two_wheeled_carriage`, at parameter ``values``.

    Returns a dict with

    * ``"Khat"``: ``K̂ = m0 l R/(2c)``; ``"H"``: ``H = +(mR² + 2J2)/(2R)`` (the paper prints
      ``−``, erratum CM-5);
    * ``"k"``: ``(k3, k4, k5)`` with ``k3 = −K̂ sin θ (v1 − v2) + H cos θ (v1 + v2)``,
      ``k4 = K̂ cos θ (v1 − v2) + H sin θ (v1 + v2)``, ``k5 = 0`` in the model's frame
      coordinates: ``φ = p + k`` is strongly consistent exactly at the special ``l``;
    * ``"J_special"``: the ``J`` that makes the symbolic ``l`` special,
      the root of ``R²(P² − Q²) = 4c²K²`` (linear in J; P, Q, K of section 7.2).

    Examples
    --------
    >>> mdl = two_wheeled_carriage()
    >>> d = carriage_section_data(mdl)
    >>> d["H"]
    (2*J2 + R**2*m)/(2*R)
    """
    vals = dict(values or {})
    m, m0, l, J, J2, R, c = (mdl.params[s] for s in "m m0 l J J2 R c".split())
    th = mdl.chart.q[4]
    v1, v2 = mdl.frame.v[:2]
    Khat = (m0 * l * R / (2 * c)).subs(vals)
    H = ((m * R**2 + 2 * J2) / (2 * R)).subs(vals)
    k = (
        -Khat * sp.sin(th) * (v1 - v2) + H * sp.cos(th) * (v1 + v2),
        Khat * sp.cos(th) * (v1 - v2) + H * sp.sin(th) * (v1 + v2),
        sp.S.Zero,
    )
    P = R**2 / (4 * c**2) * (J + m * c**2) + J2
    Q = R**2 / (4 * c**2) * (J - m * c**2)
    K = m0 * l * R**3 / (4 * c**2)
    (Js,) = sp.solve(R**2 * (P**2 - Q**2) - 4 * c**2 * K**2, J)
    return {"Khat": Khat, "H": H, "k": k, "J_special": Js.subs(vals)}


def rolling_penny() -> Model:
    r"""Rolling penny, [CdLMM] Example 6.6.

    Coordinates ``(x, y, θ, φ)``: contact point, rolling angle θ, heading φ;
    ``L = ½ (u_x² + u_y² + u_θ² + u_φ²)``; constraints ``u_x = cos φ u_θ``,
    ``u_y = sin φ u_θ`` (unit mass, radius and inertias, as in the source; no parameters).
    Frame ``X1 = cos φ ∂_x + sin φ ∂_y + ∂_θ``, ``X2 = ∂_φ`` (spanning D), ``X3 = ∂_x``, ``X4 = ∂_y``.
    """
    ch = Chart("x y theta phi")
    x, y, th, ph = ch.q
    ux, uy, uth, uph = ch.u
    L = Lagrangian(ch, (ux**2 + uy**2 + uth**2 + uph**2) / 2)
    F = Frame(
        [
            VectorField(ch, [sp.cos(ph), sp.sin(ph), 1, 0]),
            VectorField(ch, [0, 0, 0, 1]),
            VectorField(ch, [1, 0, 0, 0]),
            VectorField(ch, [0, 1, 0, 0]),
        ]
    )
    cons = LinearConstraints(ch, [ux - sp.cos(ph) * uth, uy - sp.sin(ph) * uth])
    return Model(
        "rolling-penny",
        ch,
        L,
        F,
        2,
        cons,
        {},
        q0={x: 0.0, y: 0.0, th: 0.0, ph: 0.0},
        u0={ux: 1.0, uy: 0.0, uth: 1.0, uph: 0.5},
        notes="L and constraints checked against Cortés et al. (2003), Example 6.6 (m = I = J = R = 1).",
        citation="Cortés, de León, Martín de Diego & Martínez (2003), Example 6.6",
        group=(2, 3),
        extras={"structure_constants": {}},
    )


# ------------------------------------------------------------- [PGG] 3 and 4
def rolling_coin_incline() -> Model:
    r"""A coin (thin disk) rolling without slipping on an inclined plane, [PGG] section 3.

    Coordinates ``(x_G, y_G, φ, θ)``: the centre of mass in the plane (the y axis
    points down the steepest slope), the rolling angle φ and the heading θ (angle
    between the y axis and the rolling direction ``τ = sin θ e_x + cos θ e_y``).

    ``L = ½ m (u_x² + u_y² + ½ R² u_φ² + ¼ R² u_θ²) + m g sin α · y_G``   ([PGG] (60)),
    constraints ``u_x − R sin θ u_φ = 0``, ``u_y − R cos θ u_φ = 0``   ([PGG] (61a–b)).

    Adapted frame ``X1 = R sin θ ∂_x + R cos θ ∂_y + ∂_φ``, ``X2 = ∂_θ`` (spanning D),
    ``X3 = ∂_x``, ``X4 = ∂_y``; its coframe has ``θ^3 = dx − R sin θ dφ`` and
    ``θ^4 = dy − R cos θ dφ``, the constraint rows, so the library's multipliers
    ``(λ_3, λ_4)`` are the paper's TNHM multipliers ``(μ_1, μ_2)`` of (62).

    Params (Table 1 defaults): m mass [kg] (7.5e-3), R radius [m] (11.625e-3),
    g gravity [m/s²] (9.81), alpha inclination [rad] (π/6).
    """
    params = _params("m R g alpha")
    m, R, g, alpha = params.values()
    ch = Chart("x_G y_G phi theta", params=list(params.values()))
    x, y, ph, th = ch.q
    ux, uy, uph, uth = ch.u
    L = Lagrangian(
        ch,
        m * (ux**2 + uy**2 + R**2 * uph**2 / 2 + R**2 * uth**2 / 4) / 2 + m * g * sp.sin(alpha) * y,
    )
    F = Frame(
        [
            VectorField(ch, [R * sp.sin(th), R * sp.cos(th), 1, 0]),
            VectorField(ch, [0, 0, 0, 1]),
            VectorField(ch, [1, 0, 0, 0]),
            VectorField(ch, [0, 1, 0, 0]),
        ]
    )
    cons = LinearConstraints(ch, [ux - R * sp.sin(th) * uph, uy - R * sp.cos(th) * uph])
    pv = {m: 7.5e-3, R: 11.625e-3, g: 9.81, alpha: sp.pi / 6}
    Om = float(sp.pi)
    return Model(
        "rolling-coin-incline",
        ch,
        L,
        F,
        2,
        cons,
        params,
        q0={x: 0.0, y: 0.0, ph: 0.0, th: 0.0},
        u0={ux: 0.0, uy: 0.0, uph: 0.0, uth: Om},
        param_values=pv,
        citation="Pastore, Giammarini & Grillo (2024), section 3, eqs. (60)-(62), Table 1",
        extras={
            "mvm_constraints": (ux - R * sp.sin(th) * uph, uy - R * sp.cos(th) * uph),
            "mvm_auxiliary": (uph, uth),
        },
    )


def charged_skate(time_dependent: bool = False) -> Model:
    r"""A charged skate (knife edge) on an inclined plane in a magnetic field, [PGG] section 4.

    Coordinates ``(x_G, y_G, θ)``: centre of mass (the x axis points down the
    steepest slope) and the angle θ between the x axis and the blade
    ``n = cos θ e_x + sin θ e_y``. With ``I3 = m (ℓ² + σ²)/12`` and the field
    ``B = B0 e_z`` (vector potential ``A = ½ B0 (−y, x)``),

    ``L = ½ m (u_x² + u_y²) + ½ I3 u_θ² + m g sin α x_G
    + ½ Q B0 (x_G u_y − y_G u_x) + Q B0 (ℓ² + σ²) u_θ / 24``   ([PGG] (97)),

    constraint ``sin θ u_x − cos θ u_y = 0``   ([PGG] (98)).

    Adapted frame ``X1 = cos θ ∂_x + sin θ ∂_y``, ``X2 = ∂_θ`` (spanning D),
    ``X3 = sin θ ∂_x − cos θ ∂_y``; its coframe has ``θ^3 = sin θ dx − cos θ dy``,
    the constraint row, so ``λ_3`` is the paper's TNHM multiplier ``μ_1`` of (100).

    Parameters
    ----------
    time_dependent : bool
        If True the chart has time ``t`` and ``B0 = B0(t)`` is an undefined function
        (``params["B0"]`` is then the function ``B0``); otherwise B0 is a constant symbol.

    Params: m mass [kg], ell length [m], sigma side of the square cross-section [m],
    g gravity [m/s²], alpha inclination [rad], Q charge [C], B0 magnetic field [T].
    """
    names = "m ell sigma g alpha Q" + ("" if time_dependent else " B0")
    params: dict[str, Any] = _params(names)
    ch = Chart("x_G y_G theta", time=True if time_dependent else None, params=list(params.values()))
    if time_dependent:
        B0f = sp.Function("B0")
        params["B0"] = B0f
        assert ch.t is not None
        B0: Any = B0f(ch.t)
    else:
        B0 = params["B0"]
    m, ell, sigma, g, alpha, Q = (params[k] for k in ("m", "ell", "sigma", "g", "alpha", "Q"))
    x, y, th = ch.q
    ux, uy, uth = ch.u
    I3 = m * (ell**2 + sigma**2) / 12
    L = Lagrangian(
        ch,
        m * (ux**2 + uy**2) / 2
        + I3 * uth**2 / 2
        + m * g * sp.sin(alpha) * x
        + Q * B0 * (x * uy - y * ux) / 2
        + Q * B0 * (ell**2 + sigma**2) * uth / 24,
    )
    s, c = sp.sin(th), sp.cos(th)
    F = Frame([VectorField(ch, [c, s, 0]), VectorField(ch, [0, 0, 1]), VectorField(ch, [s, -c, 0])])
    cons = LinearConstraints(ch, [s * ux - c * uy])
    pv: dict[Any, Any] = {
        params["m"]: 0.1,
        params["ell"]: 0.3,
        params["sigma"]: 0.01,
        params["g"]: 9.81,
        params["alpha"]: sp.pi / 6,
        params["Q"]: 1.0e-2,
    }
    if not time_dependent:
        pv[params["B0"]] = 1.0
    return Model(
        "charged-skate" + ("-t" if time_dependent else ""),
        ch,
        L,
        F,
        2,
        cons,
        params,
        q0={x: 0.0, y: 0.0, th: 0.0},
        u0={ux: 1.0, uy: 0.0, uth: 0.5},
        param_values=pv,
        citation="Pastore, Giammarini & Grillo (2024), section 4, eqs. (97)-(102)",
        extras={"B0": B0, "I3": I3, "mvm_constraints": (s * ux - c * uy,), "mvm_auxiliary": (uth, c * ux + s * uy)},
    )


_CATALOGUE: dict[str, Callable[[], Model]] = {
    "nonholonomic-particle": nonholonomic_particle,
    "vertical-rolling-disk": vertical_rolling_disk,
    "knife-edge": knife_edge,
    "chaplygin-sleigh": chaplygin_sleigh,
    "class71": class71,
    "two-wheeled-carriage": two_wheeled_carriage,
    "rolling-penny": rolling_penny,
    "rolling-coin-incline": rolling_coin_incline,
    "charged-skate": charged_skate,
}


def catalogue() -> Mapping[str, Callable[[], Model]]:
    """Name -> constructor for every model in the catalogue."""
    return dict(_CATALOGUE)


def get(name: str) -> Model:
    """Build a catalogue model by name (``-`` or ``_`` separators accepted)."""
    key = name.replace("_", "-")
    if key not in _CATALOGUE:
        raise FramesError(f"unknown model {name!r}; known models: {sorted(_CATALOGUE)}")
    return _CATALOGUE[key]()
