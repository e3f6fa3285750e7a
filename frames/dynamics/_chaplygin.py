r"""Chaplygin systems (Crampin–Mestdag section 6).

A Chaplygin system: G acts freely on Q, L is G-invariant and D is the
horizontal distribution of a principal connection. The frame is
``{X_α, Ẽ_a}`` with ``X_α`` invariant horizontal fields and ``Ẽ_a`` the
fundamental fields, ``[Ẽ_a, Ẽ_b] = −C^c_ab Ẽ_c``, ``[Ẽ_a, X_α] = 0``. Then

* ``p_a = Ẽ_a^V(L)`` and ``Γ(p_a) = λ_a`` (multiplier equation);
* ``Ẽ_a^C(p_b) + C^c_ab p_c = 0`` and ``Ẽ_a^C(λ_b) + C^c_ab λ_c = 0`` (coadjoint);
* Proposition 5: ``L̃ = L − p_a v^a`` (the Routhian) is regular near C, invariant,
  and its Euler–Lagrange field ``Γ̃`` is tangent to C;
* Proposition 6: ``Γ̃|_C = Γ`` iff ``R^a_αβ v^β p_a = 0`` (weak = strong consistency at φ = p).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from .._value import Value
from ..algebra import as_expr, as_flag, as_int, budgeted, canon, is_zero, tidy
from ..errors import ArgumentError, ConstraintError
from ..geometry._distribution import AdaptedIndices
from ..geometry._fields import VectorField
from ..geometry._frame import Frame
from ..geometry._tangent import SecondOrderField
from ._checks import check_flag_choice, check_same_chart, expect_obj, prefix_symbols, sequence
from ._consistency import ConsistencyResult, strong_consistency, weak_consistency
from ._lagrangian import Lagrangian
from ._measure import invariant_measure
from ._nonholonomic import NonholonomicSystem
from ._vakonomic import VakonomicSystem, _decide

__all__ = ["ChaplyginSystem", "Proposition5"]


def _structure_constants(sc: Any, k: int) -> dict[tuple[int, int, int], sp.Expr]:
    """``{(a, b): {c: C^c_ab}}`` checked: indices in ``0..k-1``, values expressions; keyed ``(a, b, c)``."""
    what = "ChaplyginSystem: structure_constants"
    if not isinstance(sc, Mapping):
        raise ArgumentError(f"{what}: expected a mapping (a, b) -> {{c: C^c_ab}}, got {type(sc).__name__}")
    out: dict[tuple[int, int, int], sp.Expr] = {}
    for key, row in sc.items():
        if not isinstance(key, tuple) or len(key) != 2:
            raise ArgumentError(f"{what}: key {key!r} is not a pair (a, b) of generator indices")
        a, b = (as_int(i, name=f"{what}: key {key!r}", min=0, max=k - 1) for i in key)
        if not isinstance(row, Mapping):
            raise ArgumentError(f"{what}[{key!r}]: expected a mapping c -> C^c_ab, got {type(row).__name__}")
        for c, val in row.items():
            ci = as_int(c, name=f"{what}[{key!r}]: index {c!r}", min=0, max=k - 1)
            out[(a, b, ci)] = as_expr(val, name=f"{what}[{key!r}][{c!r}]")
    return out


@dataclass(frozen=True, eq=False)
class Proposition5(Value):
    r"""Outcome of Proposition 5 for ``L̃ = L − p_a v^a``.

    Attributes
    ----------
    routhian : Lagrangian
        ``L̃`` in natural coordinates.
    hessian_on_C : ImmutableMatrix
        Hessian of ``L̃`` in the frame on C: blocks ``g_αβ``, ``0``, ``−g_ab``.
    regular : bool
        Hessian nonsingular on C.
    invariant : bool
        ``Ẽ_a^C(L̃) = 0`` for all a.
    field : SecondOrderField
        The Euler–Lagrange field ``Γ̃`` of ``L̃`` (Proposition 1).
    tangent : bool
        ``Γ̃^a = 0`` on C.
    """

    routhian: Lagrangian
    hessian_on_C: sp.ImmutableMatrix
    regular: bool
    invariant: bool
    field: SecondOrderField
    tangent: bool

    @property
    def holds(self) -> bool:
        """All three statements of Proposition 5."""
        return self.regular and self.invariant and self.tangent


@dataclass(frozen=True, eq=False, repr=False)
class ChaplyginSystem(AdaptedIndices, Value):
    r"""A Chaplygin system in the frame ``{X_α, Ẽ_a}`` (Crampin–Mestdag section 6).

    Parameters
    ----------
    lagrangian : Lagrangian
        A G-invariant Lagrangian.
    horizontal : sequence of VectorField
        Invariant fields ``X_α`` spanning D.
    generators : sequence of VectorField
        Fundamental vector fields ``Ẽ_a`` of the action.
    structure_constants : mapping, optional
        ``{(a, b): {c: C^c_ab}}`` with 0-based indices into ``generators`` and
        ``[Ẽ_a, Ẽ_b] = −C^c_ab Ẽ_c``; derived from the brackets if omitted.
    v : str
        Quasi-velocity prefix.
    check : bool
        Verify ``[Ẽ_a, X_α] = 0``, the structure constants and ``Ẽ_a^C(L) = 0``.

    Raises
    ------
    ConstraintError
        If a check fails (the message names the bracket or field).

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.nonholonomic_particle()
    >>> X1, X2, X3 = mdl.frame.fields
    >>> ch = fr.ChaplyginSystem(mdl.lagrangian, [X1, X2], [X3])
    >>> ch.momenta()
    (-q1*v2,)
    >>> ch.proposition6_conditions()
    (q1*v2**2, -q1*v1*v2)
    """

    lagrangian: Lagrangian
    frame: Frame
    m: int
    C: sp.ImmutableDenseNDimArray
    _cache: dict[str, Any] = field(default_factory=dict, compare=False)

    def _latex_rows(self) -> list[tuple[str, str]]:
        F = self.frame
        rows = [("L", sp.latex(self.lagrangian.expr))]
        rows += [(rf"X_{{{i + 1}}}", F.fields[i]._repr_latex_().strip("$")) for i in range(F.dim)]
        rows.append((r"D", r"\operatorname{span}\{" + ", ".join(f"X_{{{i + 1}}}" for i in range(self.m)) + r"\}"))
        rows.append((r"C", ", ".join(f"{sp.latex(F.v[a])} = 0" for a in range(self.m, F.dim)) or r"\text{TQ}"))
        return rows

    def __init__(
        self,
        lagrangian: Lagrangian,
        horizontal: Sequence[VectorField],
        generators: Sequence[VectorField],
        structure_constants: Mapping[tuple[int, int], Mapping[int, Any]] | None = None,
        v: str | Sequence[sp.Symbol] = "v",
        check: bool = True,
    ) -> None:
        what = "ChaplyginSystem"
        expect_obj(lagrangian, Lagrangian, name=f"{what}: lagrangian")
        hor = sequence(horizontal, name=f"{what}: horizontal", what="a sequence of VectorFields")
        gen = sequence(generators, name=f"{what}: generators", what="a sequence of VectorFields")
        for arg, fields in (("horizontal", hor), ("generators", gen)):
            for i, X in enumerate(fields):
                expect_obj(X, VectorField, name=f"{what}: {arg}[{i}]")
                check_same_chart(lagrangian.chart, X.chart, name=f"{what}: {arg}[{i}]")
        if not hor or not gen:
            raise ConstraintError(
                f"{what}: horizontal, generators: need at least one horizontal field and one generator"
            )
        check = as_flag(check, name=f"{what}: check")
        m = len(hor)
        k = len(gen)
        sc = None if structure_constants is None else _structure_constants(structure_constants, k)
        prefix_symbols(v, [str(i + 1) for i in range(m + k)], name=f"{what}: v")
        F = Frame(hor + gen, v=v)
        C = sp.MutableDenseNDimArray.zeros(k, k, k)
        if structure_constants is None:
            R = F.anholonomy
            for a in range(k):
                for b in range(k):
                    for c in range(k):
                        C[c, a, b] = -R[m + c, m + a, m + b]
        else:
            for (a, b, c), val in sc.items():  # type: ignore[union-attr]
                C[c, a, b] = val
                C[c, b, a] = -val
        object.__setattr__(self, "lagrangian", lagrangian)
        object.__setattr__(self, "frame", F)
        object.__setattr__(self, "m", m)
        object.__setattr__(self, "C", sp.ImmutableDenseNDimArray(C))
        object.__setattr__(self, "_cache", {"nh": NonholonomicSystem(lagrangian, F, m)})
        if check:
            self.check()

    @classmethod
    def from_model(cls, model: Any, check: bool = True) -> ChaplyginSystem:
        """Build from a :class:`frames.models.Model` that declares ``group`` and structure constants."""
        if not all(hasattr(model, a) for a in ("group", "frame", "lagrangian", "structure_constants", "name")):
            raise ArgumentError(
                f"ChaplyginSystem.from_model: model: expected a frames.models.Model, got {type(model).__name__}"
            )
        if not model.group:
            raise ConstraintError(f"ChaplyginSystem.from_model: {model.name} declares no group generators")
        F = model.frame
        grp = list(model.group)
        hor = [F.fields[i] for i in range(F.dim) if i not in grp]
        sc_raw = model.structure_constants
        pos = {g: j for j, g in enumerate(grp)}
        sc = {(pos[a], pos[b]): {pos[c]: val for c, val in row.items()} for (a, b), row in sc_raw.items()}
        return cls(model.lagrangian, hor, [F.fields[i] for i in grp], sc, v=F.v, check=check)

    # ---------------------------------------------------------------- checks
    def check(self) -> None:
        """Verify the Chaplygin structure; raise :class:`ConstraintError` on failure."""
        F = self.frame
        m = self.m
        for ia, E in enumerate(self.generators):
            for al, X in enumerate(F.fields[:m]):
                if not E.bracket(X).is_zero():
                    raise ConstraintError(
                        f"ChaplyginSystem: generators, horizontal: [E_{ia + 1}, X_{al + 1}] = {E.bracket(X)!r} ≠ 0; X_α must be invariant"
                    )
        k = len(self.generators)
        for a in range(k):
            for b in range(a + 1, k):
                B = self.generators[a].bracket(self.generators[b])
                expect = sum(
                    (-self.C[c, a, b] * self.generators[c] for c in range(k)),
                    VectorField(F.chart, [0] * F.dim),
                )
                if not B.equals(expect):
                    raise ConstraintError(
                        f"ChaplyginSystem: structure_constants: [E_{a + 1}, E_{b + 1}] = {B!r} but the structure constants give {expect!r}"
                    )
        bad = [a for a in self.a if not is_zero(F.apply_complete(a, self._Lv))]
        if bad:
            raise ConstraintError(f"ChaplyginSystem: lagrangian: L is not invariant: E^C(L) ≠ 0 for generators {bad}")

    # ---------------------------------------------------------------- basics
    @property
    def generators(self) -> tuple[VectorField, ...]:
        """The fundamental fields ``Ẽ_a``."""
        return self.frame.fields[self.m :]

    @property
    def nonholonomic(self) -> NonholonomicSystem:
        """The nonholonomic system (Proposition 2)."""
        return self._cache["nh"]  # type: ignore[no-any-return]

    def vakonomic(self, **kw: Any) -> VakonomicSystem:
        """The vakonomic system in the same frame."""
        return VakonomicSystem(self.lagrangian, self.frame, self.m, **kw)

    @property
    def _Lv(self) -> sp.Expr:
        return self.lagrangian.in_frame(self.frame)

    def __repr__(self) -> str:
        return f"ChaplyginSystem(L = {self.lagrangian.expr}, m = {self.m}, group dim = {self.n - self.m})"

    # ----------------------------------------------------------------- momenta
    def momenta(self, on_C: bool = True) -> tuple[sp.Expr, ...]:
        r"""``p_a = Ẽ_a^V(L)`` (on C by default, else on TQ in ``(q, v)``)."""
        on_C = as_flag(on_C, name="ChaplyginSystem.momenta: on_C")
        out = [sp.diff(self._Lv, self.frame.v[a]) for a in self.a]
        if on_C:
            out = [x.xreplace(self.on_C) for x in out]
        return tuple(tidy(x) for x in out)

    def multiplier_identity(self) -> tuple[sp.Expr, ...]:
        r"""Residuals ``Γ(p_a) − λ_a`` (vanish: the multiplier equation of section 6)."""
        nh = self.nonholonomic
        G = nh.field()
        lam = nh.multipliers()
        return tuple(tidy(G(p) - l) for p, l in zip(self.momenta(on_C=False), lam, strict=True))

    def _coadjoint(self, fs: Sequence[sp.Expr], on_C: bool) -> tuple[sp.Expr, ...]:
        k = self.n - self.m
        out = []
        for a in range(k):
            for b in range(k):
                e = self.frame.apply_complete(self.m + a, fs[b]) + sum(
                    (self.C[c, a, b] * fs[c] for c in range(k)), sp.S.Zero
                )
                out.append(tidy(e.xreplace(self.on_C) if on_C else e))
        return tuple(out)

    def coadjoint_momenta(self) -> tuple[sp.Expr, ...]:
        r"""Residuals ``Ẽ_a^C(p_b) + C^c_ab p_c`` on TQ, flattened over (a, b)."""
        return self._coadjoint(self.momenta(on_C=False), on_C=False)

    def coadjoint_multipliers(self) -> tuple[sp.Expr, ...]:
        r"""Residuals ``Ẽ_a^C(λ_b) + C^c_ab λ_c`` on C, flattened over (a, b)."""
        return self._coadjoint(self.nonholonomic.multipliers(), on_C=True)

    def is_regular_wrt_group(self) -> bool:
        """``g_ab = Ẽ_a^V Ẽ_b^V L`` nonsingular on C."""
        g = sp.Matrix(self.lagrangian.hessian(self.frame)).xreplace(self.on_C)
        return not is_zero(g[self.m :, self.m :].det(method="bareiss"))

    # ---------------------------------------------------------------- Routhian
    def routhian_in_frame(self) -> sp.Expr:
        r"""``L̃ = L − p_a v^a`` in ``(q, v)``."""
        p = self.momenta(on_C=False)
        return sp.expand(self._Lv - sum((pa * self.frame.v[a] for pa, a in zip(p, self.a, strict=True)), sp.S.Zero))

    def routhian(self) -> Lagrangian:
        r"""``L̃ = L − p_a v^a`` as a Lagrangian in natural coordinates."""
        return Lagrangian(self.lagrangian.chart, canon(self.frame.to_natural(self.routhian_in_frame())))

    def proposition5(self) -> Proposition5:
        r"""Proposition 5: ``L̃`` regular on C, invariant, its Euler–Lagrange field tangent to C."""
        if "p5" in self._cache:
            return self._cache["p5"]  # type: ignore[no-any-return]
        Lt = self.routhian()
        Ltv = self.routhian_in_frame()
        H = sp.hessian(Ltv, self.frame.v).xreplace(self.on_C).applyfunc(tidy)
        regular = not is_zero(H.det(method="bareiss"))
        invariant = all(is_zero(self.frame.apply_complete(a, Ltv)) for a in self.a)
        fld = Lt.euler_lagrange_field(self.frame)
        tangent = all(is_zero(fld.Gamma[a].xreplace(self.on_C)) for a in self.a)
        out = Proposition5(Lt, sp.ImmutableMatrix(H), regular, invariant, fld, tangent)
        self._cache["p5"] = out
        return out

    # ---------------------------------------------------------------- Prop. 6
    def proposition6_conditions(self) -> tuple[sp.Expr, ...]:
        r"""``R^a_αβ v^β p_a`` on C, α = 1..m."""
        R = self.frame.anholonomy
        v = self.frame.v
        p = self.momenta()
        return tuple(
            tidy(sp.Add(*[R[a, al, be] * v[be] * p[k] for k, a in enumerate(self.a) for be in self.alpha]))
            for al in self.alpha
        )

    def proposition6(self) -> tuple[bool | None, bool | None]:
        r"""``(Γ̃|_C == Γ, R^a_αβ v^β p_a == 0)``: Proposition 6 says both agree."""
        fld = self.proposition5().field
        G = self.nonholonomic.field()
        diff = [canon(fld.Gamma[i].xreplace(self.on_C) - G.Gamma[i]) for i in range(self.n)]
        return _decide(diff), _decide(self.proposition6_conditions())

    def consistency(self, kind: str = "strong") -> ConsistencyResult:
        """Weak or strong consistency on the section ``φ_a = p_a``."""
        kind = check_flag_choice(kind, ("strong", "weak"), name="ChaplyginSystem.consistency: kind")
        vk = self.vakonomic()
        test = strong_consistency if kind == "strong" else weak_consistency
        return test(vk, self.momenta())

    # ----------------------------------------------------- invariant measure
    @budgeted("ChaplyginSystem.invariant_measure_density")
    def invariant_measure_density(self, volume: str = "momenta") -> sp.Expr:
        r"""A density ``N(q)`` of an invariant measure of the nonholonomic field on C.

        With ``div = Σ_j ∂_{q^j}(v^α X_α^j) + Σ_α ∂Γ^α/∂v^α = c_α v^α`` (divergence
        w.r.t. ``dq ∧ dv^α``), ``N_v = e^h`` with ``dh = −c_α θ^α``, ``Ẽ_a(h) = 0``
        makes ``N_v dq ∧ dv`` invariant. With ``volume="momenta"`` the density
        relative to ``dq ∧ dp_α`` (``p_α = ∂L_c/∂v^α``) is returned,
        ``N = N_v / det(∂²L_c/∂v^α∂v^β)`` (the convention of Crampin–Mestdag 7.1
        and Bloch–Fernandez–Mestdag). Densities are determined up to a constant factor.

        Raises
        ------
        ConstraintError
            If the divergence is not linear in ``v^α`` or ``−c_α θ^α`` is not closed.
        """
        volume = check_flag_choice(
            volume, ("momenta", "velocities"), name="ChaplyginSystem.invariant_measure_density: volume"
        )
        F = self.frame
        ch = F.chart
        G = self.nonholonomic.field()
        v_al = [F.v[i] for i in self.alpha]
        div = sum((sp.diff(F.u_in_v[j].xreplace(self.on_C), ch.q[j]) for j in range(self.n)), sp.S.Zero)
        div += sum((sp.diff(G.Gamma[i], F.v[i]) for i in self.alpha), sp.S.Zero)
        div = canon(div)
        c = [canon(sp.diff(div, x)) for x in v_al]
        if not is_zero(div - sum((ci * x for ci, x in zip(c, v_al, strict=True)), sp.S.Zero)):
            raise ConstraintError(f"invariant_measure_density: divergence {div} is not linear in {v_al}")
        Th = F.coframe_matrix
        omega = [canon(-sum((c[al] * Th[al, j] for al in self.alpha), sp.S.Zero)) for j in range(self.n)]
        for i in range(self.n):
            for j in range(i + 1, self.n):
                if not is_zero(sp.diff(omega[j], ch.q[i]) - sp.diff(omega[i], ch.q[j])):
                    raise ConstraintError("invariant_measure_density: −c_α θ^α is not closed; no density N(q) exists")
        # a terminating method: X_α(log N) = −c_α solved exactly by frames.invariant_measure (rational,
        # logarithmic and exponential ansatz with an exact check), never an unbounded sp.integrate
        res = invariant_measure(self.nonholonomic)
        if not res.exists or res.density is None:
            raise ConstraintError(f"invariant_measure_density: no density N(q) found: {res.reason}")
        Nv = res.density
        if volume == "velocities":
            return Nv  # type: ignore[no-any-return]
        Lc = self.nonholonomic.constrained_lagrangian()
        gc = sp.hessian(Lc, v_al)
        return Nv / sp.factor(canon(gc.det()))  # type: ignore[no-any-return]

    def is_invariant_density(self, N: Any, volume: str = "momenta") -> bool:
        r"""Check that ``N(q)`` is an invariant density: ``Γ(N_v) + N_v div Γ = 0``."""
        Nv = as_expr(N, name="ChaplyginSystem.is_invariant_density: N")
        volume = check_flag_choice(
            volume, ("momenta", "velocities"), name="ChaplyginSystem.is_invariant_density: volume"
        )
        F = self.frame
        ch = F.chart
        G = self.nonholonomic.field()
        v_al = [F.v[i] for i in self.alpha]
        if volume == "momenta":
            Lc = self.nonholonomic.constrained_lagrangian()
            Nv = Nv * sp.hessian(Lc, v_al).det()
        div = sum((sp.diff(F.u_in_v[j].xreplace(self.on_C), ch.q[j]) for j in range(self.n)), sp.S.Zero)
        div += sum((sp.diff(G.Gamma[i], F.v[i]) for i in self.alpha), sp.S.Zero)
        return is_zero(G(Nv) + Nv * div)
