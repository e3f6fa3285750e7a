r"""Chaplygin systems (Crampin–Mestdag section 6).

A Chaplygin system: G acts freely on Q, L is G-invariant and D is the
horizontal distribution of a principal connection. The frame is
``{X_α, Ẽ_a}`` with ``X_α`` invariant horizontal fields and ``Ẽ_a`` the
fundamental fields, ``[Ẽ_a, Ẽ_b] = −C^c_ab Ẽ_c``, ``[Ẽ_a, X_α] = 0``. Then

* ``p_a = Ẽ_a^V(L)`` and ``Γ(p_a) = λ_a`` (multiplier equation);
* ``Ẽ_a^C(p_b) + C^c_ab p_c = 0`` and ``Ẽ_a^C(λ_b) + C^c_ab λ_c = 0`` (coadjoint);
* Proposition 5: ``L̃ = L − p_a v^a`` (the Routhian) is regular near C, invariant,
  and its Euler–Lagrange field ``Γ̃`` is tangent to C;
* Proposition 6: ``Γ̃|_C = Γ`` iff ``R^a_αβ v^β p_a = 0`` (weak = strong consistency at φ = p);
* Corollary 3: ``φ_* Γ̃^0`` solves the vakonomic problem on ``im φ`` (φ = p);
* ``[Ẽ_a^C, Γ] = 0`` (Γ invariant on C); the lift ``e_a = Ẽ_a^C + Ẽ_a^(1)`` to ``TD°`` with
  ``Ẽ_a^(1)(μ_b) = −C^c_ab μ_c`` leaves ``L̂ = L − μ_a v^a`` invariant and
  ``e_a(p_b − μ_b) = −C^c_ab (p_c − μ_c)``;
* the Routhians: ``L̃ − p̃_a v^a = L − p_a v^a + g_ab v^a v^b`` (``p̃_a = −g_ab v^b``) and
  ``L̂ − p̂_a v^a = L̃`` (``p̂_a = p_a − μ_a``);
* invariant measures by a terminating exact method (:func:`frames.invariant_measure`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any

import sympy as sp

from .._value import Record, cached_method
from ..algebra import derivative, expect, hessian, is_zero, solve_linear, tidy
from ..algebra.internal import as_expr, as_exprs, as_flag, as_int, budgeted, canon, checkpoint, trig_normal
from ..errors import ArgumentError, BudgetExceededError, ConstraintError
from ..geometry import Frame, SecondOrderField, TangentVectorField, VectorField
from ..geometry.internal import AdaptedIndices
from ._checks import check_flag_choice, prefix_symbols, sequence
from ._consistency import ConsistencyResult, strong_consistency, weak_consistency
from ._lagrangian import Equations, Lagrangian, frame_el_terms
from ._measure import InvariantMeasure, _divergence, invariant_measure
from ._method import DynamicsMethod
from ._model_of import nonholonomic_of
from ._nonholonomic import NonholonomicSystem
from ._ode import OdeSystem
from ._vakonomic import VakonomicSystem, _decide

__all__ = ["ChaplyginSystem", "RouthianReduction"]


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


class RouthianReduction(Record):
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
    field_on_C : SecondOrderField
        The Euler–Lagrange field ``Γ̃`` of ``L̃`` restricted to C (all n components, functions of
        ``q`` and ``v^α``). It is computed on C directly: the Hessian rows and right-hand sides of
        ``Γ̃(X_i^V L̃) = X_i^C L̃`` are differentiated on TQ and then evaluated at ``v^a = 0``
        before the linear solve (evaluation commutes with the solve where the Hessian is regular).
    tangent : bool
        ``Γ̃^a = 0`` on C.
    """

    routhian: Lagrangian
    hessian_on_C: sp.ImmutableMatrix
    regular: bool
    invariant: bool
    field_on_C: SecondOrderField
    tangent: bool

    @property
    def field(self) -> SecondOrderField:
        """The Euler–Lagrange field ``Γ̃`` of ``L̃`` on all of TQ (Proposition 1; computed on request)."""
        return self.routhian.euler_lagrange_field(self.field_on_C.frame)

    @property
    def holds(self) -> bool:
        """All three statements of Proposition 5."""
        return self.regular and self.invariant and self.tangent


class ChaplyginSystem(AdaptedIndices, DynamicsMethod):
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

    Notes
    -----
    A Chaplygin system is a :class:`~frames.dynamics.DynamicsMethod`, not a separate reduction type: its motion
    is the nonholonomic motion of :attr:`nonholonomic` (same Lagrangian, frame and ``m``), so
    :meth:`equations`, :meth:`accelerations`, :meth:`multipliers` and :meth:`ode_system` are that system's, and
    :func:`frames.integrate` takes it. What the symmetry adds (the Routhian, its reduced field, the coadjoint
    momenta, the invariant measure) is in its own methods (:meth:`routhian_reduction`, ...).

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.nonholonomic_particle()
    >>> X1, X2, X3 = mdl.frame.fields
    >>> ch = fr.ChaplyginSystem(mdl.lagrangian, [X1, X2], [X3])
    >>> ch.momenta()
    (-q1*v2,)
    >>> ch.routhian_conditions()
    (q1*v2**2, -q1*v1*v2)
    """

    lagrangian: Lagrangian
    frame: Frame
    m: int
    C: sp.ImmutableDenseNDimArray
    nonholonomic: NonholonomicSystem = field(compare=False, repr=False)

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
        *,
        nonholonomic: NonholonomicSystem | None = None,
    ) -> None:
        what = "ChaplyginSystem"
        expect(lagrangian, Lagrangian, name=f"{what}: lagrangian")
        hor = sequence(horizontal, name=f"{what}: horizontal", what="a sequence of VectorFields")
        gen = sequence(generators, name=f"{what}: generators", what="a sequence of VectorFields")
        for arg, fields in (("horizontal", hor), ("generators", gen)):
            for i, X in enumerate(fields):
                expect(X, VectorField, name=f"{what}: {arg}[{i}]")
                lagrangian.chart.require_same(X.chart, f"{what}: {arg}[{i}]")
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
        if nonholonomic is not None and (nonholonomic.frame, nonholonomic.m, nonholonomic.lagrangian) == (
            F,
            m,
            lagrangian,
        ):
            # the same data: its frame (with what it has computed, e.g. the anholonomy) and results are reused
            F = nonholonomic.frame
        else:
            nonholonomic = NonholonomicSystem(lagrangian, F, m)
        self.lagrangian = lagrangian
        self.frame = F
        self.m = m
        self.C = sp.ImmutableDenseNDimArray(C)
        self.nonholonomic = nonholonomic  # the nonholonomic system (Proposition 2)
        if check:
            self.check()

    @classmethod
    def from_model(cls, model: Any, check: bool = True) -> ChaplyginSystem:
        """Build from a :class:`frames.models.Model` that declares ``group`` and structure constants."""
        # the model's nonholonomic system: its frame's anholonomy and its field, computed on the model (by a
        # report's earlier sections), are reused when the group fields come last
        nh = nonholonomic_of(model, "ChaplyginSystem.from_model: model", model=True)
        if not getattr(model, "group", None):
            raise ConstraintError(f"ChaplyginSystem.from_model: {model.name} declares no group generators")
        F = model.frame
        grp = list(model.group)
        hor = [F.fields[i] for i in range(F.dim) if i not in grp]
        sc_raw = model.structure_constants
        pos = {g: j for j, g in enumerate(grp)}
        sc = {(pos[a], pos[b]): {pos[c]: val for c, val in row.items()} for (a, b), row in sc_raw.items()}
        out = cls(model.lagrangian, hor, [F.fields[i] for i in grp], sc, v=F.v, check=False, nonholonomic=nh)
        if check:
            out.check()
        return out

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
        # E^C(L) in natural coordinates (the same function on TQ as X_a^C(L) in (q, v), with the smaller L)
        L = self.lagrangian.expr
        bad = [a for a, E in zip(self.a, self.generators, strict=True) if not is_zero(E.complete_lift()(L))]
        if bad:
            raise ConstraintError(f"ChaplyginSystem: lagrangian: L is not invariant: E^C(L) ≠ 0 for generators {bad}")

    # ------------------------------------------------- the method base: the motion is the nonholonomic one
    def equations(self) -> Equations:
        """The equations of motion of :attr:`nonholonomic` (the Chaplygin system is that motion with a symmetry; its
        reduction is :meth:`routhian_reduction`)."""
        return self.nonholonomic.equations()

    def accelerations(self, *, canonical: bool | None = None) -> sp.ImmutableMatrix:
        """The natural accelerations ``q̈`` of the nonholonomic motion (:meth:`NonholonomicSystem.accelerations`)."""
        return self.nonholonomic.accelerations(canonical=canonical)

    def multipliers(self, *, canonical: bool | None = None) -> tuple[sp.Expr, ...]:
        """The multipliers ``λ_a = Γ(p_a)`` of the nonholonomic motion (:meth:`NonholonomicSystem.multipliers`)."""
        return self.nonholonomic.multipliers(canonical=canonical)

    def ode_system(self, *, subs: Mapping[Any, Any] | None = None, form: str = "reduced") -> OdeSystem:
        """The first-order system of the nonholonomic motion (:meth:`NonholonomicSystem.ode_system`)."""
        return self.nonholonomic.ode_system(form=form, subs=subs)

    # ---------------------------------------------------------------- basics
    @property
    def generators(self) -> tuple[VectorField, ...]:
        """The fundamental fields ``Ẽ_a``."""
        return self.frame.fields[self.m :]

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
        return self._momenta(as_flag(on_C, name="ChaplyginSystem.momenta: on_C"))

    @cached_method
    def _momenta(self, on_C: bool) -> tuple[sp.Expr, ...]:
        out = [derivative(self._Lv, self.frame.v[a]) for a in self.a]
        if on_C:
            out = [x.xreplace(self.on_C) for x in out]
        return tuple(tidy(x) for x in out)

    def multiplier_identity(self) -> tuple[sp.Expr, ...]:
        r"""Residuals ``Γ(p_a) − λ_a`` (vanish: the multiplier equation of section 6)."""
        nh = self.nonholonomic
        G = nh.field(canonical=True)
        lam = nh.multipliers(canonical=True)
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
        return self._coadjoint(self.nonholonomic.multipliers(canonical=True), on_C=True)

    def is_regular_wrt_group(self) -> bool:
        """``g_ab = Ẽ_a^V Ẽ_b^V L`` nonsingular on C."""
        g = sp.Matrix(self.lagrangian.hessian(self.frame)).xreplace(self.on_C)
        return not is_zero(g[self.m :, self.m :].det(method="bareiss"))

    # ---------------------------------------------------------------- Routhian
    @cached_method
    def routhian_in_frame(self) -> sp.Expr:
        r"""``L̃ = L − p_a v^a`` in ``(q, v)``."""
        p = self.momenta(on_C=False)
        v = self.frame.v
        Lt = sp.expand(self._Lv - sum((pa * v[a] for pa, a in zip(p, self.a, strict=True)), sp.S.Zero))
        return Lt

    def routhian(self) -> Lagrangian:
        r"""``L̃ = L − p_a v^a`` as a Lagrangian in natural coordinates."""
        return Lagrangian(self.lagrangian.chart, canon(self.frame.to_natural(self.routhian_in_frame())))

    @cached_method
    def routhian_reduction(self) -> RouthianReduction:
        r"""Proposition 5: ``L̃`` regular on C, invariant, its Euler–Lagrange field tangent to C."""
        Lt = self.routhian()
        Ltv = self.routhian_in_frame()
        H = self.routhian_hessian(on_C=True)
        regular = not is_zero(H.det(method="bareiss"))
        invariant = all(is_zero(self.frame.apply_complete(a, Ltv)) for a in self.a)
        F = self.frame
        t = Lt.chart.t if Lt.time_dependent else None
        g, r = frame_el_terms(Ltv, F, range(self.n), dict(self.on_C), t)
        G = solve_linear(g, r, what=f"Proposition 5: Euler-Lagrange field of the Routhian {Lt.expr} on C")
        fld = SecondOrderField(F, [tidy(x) for x in G], m=self.m, time_dependent=Lt.time_dependent)
        tangent = all(is_zero(fld.Gamma[a]) for a in self.a)
        out = RouthianReduction(Lt, sp.ImmutableMatrix(H), regular, invariant, fld, tangent)
        return out

    # ---------------------------------------------------------------- Prop. 6
    def routhian_conditions(self) -> tuple[sp.Expr, ...]:
        r"""``R^a_αβ v^β p_a`` on C, α = 1..m."""
        R = self.frame.anholonomy
        v = self.frame.v
        p = self.momenta()
        return tuple(
            tidy(sp.Add(*[R[a, al, be] * v[be] * p[k] for k, a in enumerate(self.a) for be in self.alpha]))
            for al in self.alpha
        )

    def routhian_agreement(self) -> tuple[bool | None, bool | None]:
        r"""``(Γ̃|_C == Γ, R^a_αβ v^β p_a == 0)``: Proposition 6 says both agree."""
        fld = self.routhian_reduction().field_on_C
        G = self.nonholonomic.field(canonical=True)
        diff = [canon(fld.Gamma[i] - G.Gamma[i]) for i in range(self.n)]
        return _decide(diff), _decide(self.routhian_conditions())

    def consistency(self, kind: str = "strong") -> ConsistencyResult:
        """Weak or strong consistency on the section ``φ_a = p_a``."""
        kind = check_flag_choice(kind, ("strong", "weak"), name="ChaplyginSystem.consistency: kind")
        vk = self.vakonomic()
        test = strong_consistency if kind == "strong" else weak_consistency
        return test(vk, self.momenta())

    # ------------------------------------------ off C: Hessian, Routhians
    def routhian_hessian(self, on_C: bool = False) -> sp.ImmutableMatrix:
        r"""The Hessian ``X_i^V X_j^V L̃`` of ``L̃ = L − p_a v^a`` in the frame, on TQ (or on C).

        The proof of Proposition 5 gives it in blocks, with ``E = v^a Ẽ_a^V``:

        .. math::

            X_α^V X_β^V L̃ = g_{αβ} − E(g_{αβ}), \quad X_α^V Ẽ_a^V L̃ = −E(g_{αa}), \quad
            Ẽ_a^V Ẽ_b^V L̃ = −g_{ab} − E(g_{ab}),

        so on C (where ``E = 0``) it is ``diag(g_αβ, −g_ab)`` up to the zero off-diagonal block.
        """
        on_C = as_flag(on_C, name="ChaplyginSystem.routhian_hessian: on_C")
        H = hessian(self.routhian_in_frame(), self.frame.v)
        if on_C:
            return sp.ImmutableMatrix(H.xreplace(self.on_C).applyfunc(tidy))
        return sp.ImmutableMatrix(H.applyfunc(sp.expand))  # polynomial in v: expanded, no trig reduction

    def routhian_momenta(self) -> tuple[sp.Expr, ...]:
        r"""``p̃_a = Ẽ_a^V(L̃)`` on TQ; the proof of Proposition 5 gives ``p̃_a = −g_ab v^b``."""
        Lt = self.routhian_in_frame()
        return tuple(tidy(derivative(Lt, self.frame.v[a])) for a in self.a)

    def routhian_of_routhian(self) -> sp.Expr:
        r"""The Routhian of ``L̃``, ``L̃ − p̃_a v^a`` on TQ (section 6: ``= L − p_a v^a + g_ab v^a v^b``)."""
        pt = self.routhian_momenta()
        v = self.frame.v
        return sp.expand(self.routhian_in_frame() - sp.Add(*[p * v[a] for p, a in zip(pt, self.a, strict=True)]))

    def vakonomic_routhian(self, mu: Sequence[Any] | None = None) -> sp.Expr:
        r"""The Routhian of ``L̂ = L − μ_a v^a``: ``L̂ − p̂_a v^a`` with ``p̂_a = Ẽ_a^V(L̂)``.

        Section 6: ``p̂_a = p_a − μ_a`` and ``L̂ − p̂_a v^a = L̃``, independent of ``μ``.
        ``mu`` defaults to the symbols of :meth:`vakonomic`.
        """
        mus = self._mu(mu, "ChaplyginSystem.vakonomic_routhian: mu")
        v = self.frame.v
        Lh = self._Lv - sp.Add(*[x * v[a] for x, a in zip(mus, self.a, strict=True)])
        ph = [derivative(Lh, v[a]) for a in self.a]
        return sp.expand(Lh - sp.Add(*[p * v[a] for p, a in zip(ph, self.a, strict=True)]))

    def _mu(self, mu: Sequence[Any] | None, what: str) -> tuple[sp.Expr, ...]:
        if mu is None:
            return tuple(self.vakonomic().mu)
        return as_exprs(sequence(mu, name=what, what="a sequence of symbols μ_a"), name=what, length=self.n - self.m)

    # ----------------------------------------------- invariance of Γ on C
    @cached_method
    def complete_lift_brackets(self) -> tuple[TangentVectorField, ...]:
        r"""``[Ẽ_a^C, Γ]`` on C, one field per generator (section 6: all vanish).

        Both fields are tangent to C, so the restriction of the bracket to C does not depend on
        how Γ (given on C) is extended off C. The paper argues that the bracket is vertical,
        tangent to C and annihilates ``X_α^V(L)``, hence zero when L is regular w.r.t. D: Γ is
        invariant under the action of G on C. Components in the frame coordinates ``(q, v)``.
        """
        F = self.frame
        G = self.nonholonomic.field(canonical=True).as_vector_field()
        out = []
        for a in self.a:
            checkpoint()
            B = F.complete_lift(a).bracket(G)
            base = [tidy(x.xreplace(self.on_C)) for x in B.base]
            fib = [tidy(x.xreplace(self.on_C)) for x in B.fibre]
            out.append(TangentVectorField(F.chart, base, fib, frame=F))
        res = tuple(out)
        return res

    # ------------------------------------- the action lifted to D° and TD°
    def cotangent_lift_action(self, mu: Sequence[Any] | None = None) -> sp.ImmutableMatrix:
        r"""``Ẽ_a^(1)(μ_b)`` on ``D° ≅ Q × g*``, entry ``[a, b]`` (0-based generator indices).

        Computed from the definition: on T*Q with fibre coordinates ``π``, the cotangent lift of
        W is ``W^(1) = W^i ∂_{q^i} − π_j ∂_i W^j ∂_{π_i}`` and ``μ_X = π_i X^i``, so that
        ``W^(1)(μ_X) = μ_{[W, X]}``; on ``D°`` one puts ``π = μ_c θ^c`` (c over the generators).
        Section 6 states ``Ẽ_a^(1)(μ_b) = −C^c_ab μ_c`` (the coadjoint action).

        Examples
        --------
        >>> import frames as fr
        >>> ch = fr.ChaplyginSystem.from_model(fr.models.two_wheeled_carriage())  # SE(2)
        >>> ch.cotangent_lift_action().tolist()
        [[0, 0, mu4], [0, 0, -mu3], [-mu4, mu3, 0]]
        """
        mus = self._mu(mu, "ChaplyginSystem.cotangent_lift_action: mu")
        F = self.frame
        q = F.chart.q
        n = self.n
        pi = sp.symbols(f"pi_0:{n}", cls=sp.Dummy)
        Th = F.coframe_matrix
        on_D0 = {pi[k]: sp.Add(*[mus[c] * Th[self.m + c, k] for c in range(n - self.m)]) for k in range(n)}
        gens = self.generators
        rows = []
        for W in gens:
            row = []
            for X in gens:
                muX = sp.Add(*[pi[k] * X.components[k] for k in range(n)])
                e = sp.Add(*[W.components[i] * derivative(muX, q[i]) for i in range(n)])
                e -= sp.Add(
                    *[
                        pi[j] * derivative(W.components[j], q[i]) * derivative(muX, pi[i])
                        for i in range(n)
                        for j in range(n)
                    ]
                )
                row.append(tidy(e.xreplace(on_D0)))
            rows.append(row)
        return sp.ImmutableMatrix(rows)

    def lifted_generator(self, a: int, f: Any, mu: Sequence[Any] | None = None) -> sp.Expr:
        r"""``e_a(f) = Ẽ_a^C(f) + Ẽ_a^(1)(μ_b) ∂f/∂μ_b`` for ``f(q, v, μ)`` on ``TD°`` (section 6).

        ``a`` is a 0-based generator index; ``Ẽ_a^(1)(μ_b)`` is :meth:`cotangent_lift_action`.
        """
        k = self.n - self.m
        a = as_int(a, name="ChaplyginSystem.lifted_generator: a", min=0, max=k - 1)
        e = as_expr(f, name="ChaplyginSystem.lifted_generator: f")
        mus = self._mu(mu, "ChaplyginSystem.lifted_generator: mu")
        act = self.cotangent_lift_action(mus)
        out = self.frame.apply_complete(self.m + a, e)
        out += sp.Add(*[act[a, b] * derivative(e, mus[b]) for b in range(k)])
        return tidy(out)

    # ---------------------------------------------------------- Corollary 3
    def momentum_section_residuals(self) -> tuple[sp.Expr, ...]:
        r"""Corollary 3: residuals of the vakonomic equations for ``φ_* Γ̃^0`` on ``im φ``, ``φ = p``.

        ``Γ̃^0`` is the restriction to C of the Euler–Lagrange field of ``L̃`` (Proposition 5);
        its push-forward by ``φ_a = p_a`` has ``A_a = Γ̃^0(p_a)``. Returned are
        ``Γ̃^0(X_i^V L) − X_i^C L − p_a R^a_iα v^α − A_a δ^a_i`` on C, i = 1..n (all zero).
        """
        fld = self.routhian_reduction().field_on_C
        Gt = list(fld.Gamma)
        G0 = SecondOrderField(self.frame, Gt, m=self.m)
        p = self.momenta()
        A = [G0(x) for x in self.momenta(on_C=False)]
        return self.vakonomic().vakonomic_residuals(Gt, A, p)

    # ----------------------------------------------------- invariant measure
    @budgeted("ChaplyginSystem.invariant_measure")
    def invariant_measure(self) -> InvariantMeasure:
        r"""The invariant-measure analysis of the nonholonomic field (:func:`frames.invariant_measure`).

        A terminating method: the divergence, the compatibility and closedness equations of
        ``d log N``, an exact linear ansatz for ``log N`` over the factors of the data (the
        Hessian determinant and the frame among them) and ``ratint`` for a closed rational
        1-form; never an unbounded integration. When the budget runs out the result is
        undecided (``exists is None``) and ``reason`` names the step.
        """
        return invariant_measure(self.nonholonomic)

    @budgeted("ChaplyginSystem.invariant_measure_density")
    def invariant_measure_density(self, volume: str = "momenta") -> sp.Expr:
        r"""A density ``N(q)`` of an invariant measure of the nonholonomic field on C.

        With ``div Γ = Σ_j ∂_{q^j}(v^α X_α^j) + Σ_α ∂Γ^α/∂v^α = c_α v^α`` (divergence w.r.t.
        ``dq ∧ dv^α``), ``N_v dq ∧ dv`` is invariant iff ``X_α(log N_v) = −c_α``. ``N_v`` is found
        by :meth:`invariant_measure` (a terminating exact method, see there). With
        ``volume="momenta"`` the density relative to ``dq ∧ dp_α`` (``p_α = ∂L_c/∂v^α``) is
        returned, ``N = N_v / det(∂²L_c/∂v^α∂v^β)`` (the convention of Crampin–Mestdag 7.1 and
        Bloch–Fernandez–Mestdag). Densities are determined up to a constant factor.

        Raises
        ------
        ConstraintError
            If no density ``N(q)`` exists (the obstruction is named) or none was found in closed
            form (the reason is given).
        BudgetExceededError
            If the budget runs out before a density is found; the message names the step.
        """
        volume = check_flag_choice(
            volume, ("momenta", "velocities"), name="ChaplyginSystem.invariant_measure_density: volume"
        )
        res = invariant_measure(self.nonholonomic)
        what = f"ChaplyginSystem.invariant_measure_density: {self!r}"
        if res.density is None:
            try:
                checkpoint()
            except BudgetExceededError as exc:
                raise BudgetExceededError(f"{what}: no density within the budget: {res.reason}", exc.step) from exc
            if res.exists is False:
                raise ConstraintError(f"{what}: no invariant density N(q) exists: {res.reason}")
            raise ConstraintError(f"{what}: no density N(q) in closed form: {res.reason}")
        N = res.density if volume == "velocities" else res.density_momenta
        return _tidy_density(N)

    def is_invariant_density(self, N: Any, volume: str = "momenta") -> bool:
        r"""Check that ``N(q)`` is an invariant density: ``div(N_v Γ) = N_v (Γ(log N_v) + div Γ) = 0``.

        ``N_v = N`` for ``volume="velocities"`` and ``N det(∂²L_c/∂v^α∂v^β)`` for ``"momenta"``.
        The test is on ``Γ(log N_v) + div Γ`` with the logarithm of products and powers expanded:
        for densities built from powers of functions (``det^{-1/2}`` …) it is a rational function
        (trig included), whose zero test is exact and fast.
        """
        Nv = as_expr(N, name="ChaplyginSystem.is_invariant_density: N")
        volume = check_flag_choice(
            volume, ("momenta", "velocities"), name="ChaplyginSystem.is_invariant_density: volume"
        )
        if is_zero(Nv):
            raise ArgumentError(f"ChaplyginSystem.is_invariant_density: N: {Nv} is zero, not a density")
        nh = self.nonholonomic
        G = nh.field(canonical=True)
        dlog = _log_derivative(G, Nv)
        if volume == "momenta":  # det(∂²L_c/∂v^α∂v^β) = det(g_αβ) on C
            dlog += _log_derivative(G, sp.factor(sp.Matrix(nh.hessian_D()).det(method="bareiss")))
        return is_zero(dlog + _divergence(nh))


def _log_derivative(G: SecondOrderField, N: sp.Expr) -> sp.Expr:
    """``Γ(log N) = Γ(N)/N`` computed factor by factor: ``Σ k Γ(f)/f`` for ``N = Π f^k`` and ``Γ(g)`` for
    ``exp(g)`` (no logarithm is formed, so no branch of ``log`` of a negative factor enters)."""
    out = sp.S.Zero
    for f in sp.Mul.make_args(N):
        if f.is_number:
            continue
        if isinstance(f, sp.exp):
            out += G(f.args[0])
            continue
        base, k = f.as_base_exp()
        out += k * G(base) / base
    return out


def _tidy_density(N: sp.Expr) -> sp.Expr:
    """``N`` with its rational part (trig included) in normal form: ``sin² + cos² = 1``, factored.

    The factors with a non-integer exponent and the exponentials are kept as they are.
    """
    rat: list[sp.Expr] = []
    rest: list[sp.Expr] = []
    for f in sp.Mul.make_args(N):
        if isinstance(f, sp.exp) or (f.is_Pow and not f.exp.is_Integer):
            rest.append(f)
        else:
            rat.append(f)
    r = trig_normal(sp.Mul(*rat))
    try:
        r = sp.factor(r)
    except (sp.PolynomialError, NotImplementedError):  # pragma: no cover - exotic input
        pass
    return sp.Mul(r, *rest)
