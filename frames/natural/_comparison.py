r"""Comparison of nonholonomic and vakonomic motions.

Two tools:

* :func:`compare_motion` — given a motion ``q(t)`` known in closed form (possibly a
  family with symbolic constants), do multiplier histories ``λ(t)`` exist that make
  it a solution of Kozlov's vakonomic equations ([L] (17))? The motion is
  substituted, the multiplier derivatives are eliminated (the ``λ̇``-free
  combinations are the contractions with the null space of ``∂V/∂u``; the other
  equations give ``λ̇ = M(t) λ + h(t)``, integrated with constants ``c_a``), and the
  residual conditions are reported as functions of t.
* :class:`CortesComparison` — the comparison algorithm of Cortés, de León,
  Martín de Diego & Martínez (2003), section 6: the functions ``g_β`` of
  Proposition 6.1 from the object of anholonomy of the adapted frame, the set
  ``S_1 = {g = 0}``, and the iteration ``C ↦ C̃ = {X_vk tangent}`` with the
  submanifolds chosen by the user (:class:`Candidate`).

Momenta: [C] works on ``W_1`` with coordinates ``(q, q̇^a, p_α)``. In an adapted frame
whose complementary fields are coordinate fields ``X_a = ∂/∂q^a`` (the frame (N1) of the
extraction notes) the library's multiplier is ``μ_a = X_a^V L − p_a``, i.e.
``p_a = π_a − μ_a`` with ``π_a = X_a^V L`` on C.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import sympy as sp

from .._value import Value, latex_of
from ..algebra import as_expr, as_exprs, as_int, canon, is_zero, tidy
from ..dynamics._checks import check_symbols, expect_obj, optional_time, sequence, symbol_values
from ..dynamics._vakonomic import VakonomicSystem
from ..errors import ArgumentError, ConstraintError, InvalidExpressionError
from ._kozlov import KozlovEquations

__all__ = [
    "Candidate",
    "ComparisonStep",
    "CortesComparison",
    "MotionComparison",
    "compare_motion",
    "time_coefficients",
]


# ------------------------------------------------------------ closed-form motions
def time_coefficients(expr: Any, t: sp.Symbol) -> list[sp.Expr]:
    r"""Coefficients of ``expr`` in the functions ``t^k exp(ω t)``.

    Trigonometric and hyperbolic functions are rewritten as exponentials, the numerator
    is expanded, every ``exp(ω t + b)`` becomes ``exp(b) E_ω`` and the result is read as a
    polynomial in ``t`` and the ``E_ω``. For distinct nonzero rates ``ω`` these functions
    are linearly independent, so ``expr ≡ 0`` in t iff every coefficient vanishes (each
    coefficient is returned without its rational content: an equation ``c = 0`` up to scale)
    (generically in the parameters: special values, e.g. a rate becoming 0, must be
    studied as separate families).

    Examples
    --------
    >>> import sympy as sp
    >>> t, a, b, w = sp.symbols("t a b w")
    >>> sorted(time_coefficients(a * sp.cos(w * t) + b * t, t), key=str)
    [a, a, b]
    """
    e = as_expr(expr, name="time_coefficients: expr")
    if not isinstance(t, sp.Symbol):
        raise ArgumentError(f"time_coefficients: t: expected a sympy Symbol, got {type(t).__name__} {t!r}")
    if t not in e.free_symbols:
        return [canon(e)] if not is_zero(e) else []
    trig = (sp.sin, sp.cos, sp.tan, sp.sinh, sp.cosh, sp.tanh, sp.sec, sp.csc, sp.sech, sp.csch)
    e = e.replace(lambda f: isinstance(f, trig) and t in f.free_symbols, lambda f: f.rewrite(sp.exp))
    num, _ = sp.fraction(sp.together(e))
    num = sp.expand(num, power_exp=True, mul=True, multinomial=True)
    gens: dict[sp.Expr, sp.Symbol] = {}

    def _rep(arg: sp.Expr) -> sp.Expr:
        arg = sp.expand(arg)
        rate = sp.diff(arg, t)
        if t in rate.free_symbols or rate == 0:
            return sp.exp(arg)
        rest = sp.expand(arg - rate * t)
        if rate not in gens:
            gens[rate] = sp.Dummy(f"E{len(gens)}")
        return sp.exp(rest) * gens[rate]

    num = num.replace(sp.exp, _rep)
    num = sp.expand(num)
    poly = sp.Poly(num, t, *gens.values())
    out = []
    for c in poly.coeffs():
        c = canon(sp.expand(c.replace(sp.exp, lambda a: sp.exp(a).rewrite(sp.cos))))
        if not is_zero(c):
            # each coefficient is an equation c = 0: drop its rational content, so the result does
            # not depend on which common denominator the numerator was taken over
            out.append(c.as_content_primitive()[1])
    return out


@dataclass(frozen=True, eq=False)
class MotionComparison(Value):
    r"""Outcome of :func:`compare_motion`.

    Attributes
    ----------
    multipliers : tuple
        ``λ_a(t)`` solving the ``λ̇``-equations along the motion, with integration constants.
    constants : tuple
        The integration constants ``c_a`` (free multiplier data).
    conditions : tuple
        The ``λ̇``-free residual conditions (functions of t and the constants); the motion is
        vakonomic with these multipliers iff all vanish for all t.
    equations : tuple
        Their coefficients in ``t^k exp(ω t)`` (:func:`time_coefficients`), linear in the constants.
    obstructions : tuple
        Coefficient equations free of the constants that do not vanish: no multiplier data helps.
    solutions : tuple of dict
        Values of the constants making every condition vanish identically (empty if none).
    vakonomic : bool
        True if some multiplier data works (generically in the parameters).
    """

    multipliers: tuple[sp.Expr, ...]
    constants: tuple[sp.Symbol, ...]
    conditions: tuple[sp.Expr, ...]
    equations: tuple[sp.Expr, ...]
    obstructions: tuple[sp.Expr, ...]
    solutions: tuple[dict[sp.Symbol, sp.Expr], ...]
    vakonomic: bool


def compare_motion(
    kozlov: KozlovEquations, motion: Mapping[sp.Symbol, Any], t: sp.Symbol | None = None, constants: str = "c"
) -> MotionComparison:
    r"""Can the motion ``q(t)`` be a vakonomic motion for some multiplier history?

    Parameters
    ----------
    kozlov : KozlovEquations
        The vakonomic equations ([L] (17)) with the constraints ``V^a``.
    motion : mapping
        ``q^j -> q^j(t)`` for every coordinate (closed form; symbolic constants allowed).
    t : Symbol, optional
        The time symbol (default: the chart's, else ``t``).
    constants : str
        Prefix of the integration constants of ``λ``.

    Raises
    ------
    ConstraintError
        If the motion violates the constraints.

    Examples
    --------
    >>> import frames as fr, sympy as sp
    >>> ch = fr.Chart("x y z"); x, y, z = ch.q; ux, uy, uz = ch.u
    >>> K = fr.KozlovEquations(fr.Lagrangian(ch, (ux**2 + uy**2 + uz**2) / 2), [uz - y * ux])
    >>> t = sp.Symbol("t")
    >>> res = fr.compare_motion(K, {x: t, y: 0, z: 0}, t)   # a straight line in D: free motion
    >>> res.vakonomic, res.solutions
    (True, ({c1: 0},))
    """
    expect_obj(kozlov, KozlovEquations, name="compare_motion: kozlov")
    ch = kozlov.chart
    t = optional_time(t, ch, name="compare_motion: t")
    if not isinstance(constants, str) or not constants.isidentifier():
        raise InvalidExpressionError(f"compare_motion: constants: {constants!r} is not a valid name prefix")
    qt = symbol_values(motion, name="compare_motion: motion", required=ch.q, allowed=ch.q)
    for q in ch.q:
        if qt[q].free_symbols & set(ch.u):
            raise InvalidExpressionError(
                f"compare_motion: motion[{q}]: {qt[q]} uses the velocity symbols; give q(t) as a function of {t}"
            )
    sub: dict[sp.Symbol, sp.Expr] = dict(qt)
    sub |= {u: sp.diff(qt[q], t) for q, u in zip(ch.q, ch.u, strict=True)}
    sub |= {a: sp.diff(qt[q], t, 2) for q, a in zip(ch.q, kozlov.acc, strict=True)}
    if ch.t is not None and ch.t != t:
        sub[ch.t] = t
    for v in kozlov.constraints:
        r = v.xreplace(sub)
        if not is_zero(r) and not is_zero(sp.simplify(r)):
            raise ConstraintError(
                f"compare_motion: motion: the motion violates the constraint {v} = 0 (along it, {v} = {canon(r)})"
            )
    E = sp.Matrix(kozlov.residuals())
    k = len(kozlov.lam)
    n = ch.dim
    J = sp.Matrix(kozlov.jacobian())
    # λ̇-free combinations: E = J^T λ̇ + (terms in λ, q, u, q̈)
    null = []
    for w in J.nullspace(iszerofunc=is_zero):
        den = sp.lcm([sp.fraction(sp.together(e))[1] for e in w])
        null.append((w * den).applyfunc(canon))
    conds = [sp.Add(*[w[i] * E[i] for i in range(n)]) for w in null]
    rows = next(
        (
            list(I)
            for I in combinations(range(n), k)
            if not is_zero(sp.simplify(J.extract(list(range(k)), list(I)).det(method="bareiss").xreplace(sub)))
        ),
        None,
    )
    if rows is None:  # pragma: no cover - excluded by KozlovEquations
        raise ConstraintError("compare_motion: ∂V/∂u has no invertible k×k minor")
    ld = list(kozlov.lamdot)
    lam = list(kozlov.lam)
    Er = sp.Matrix([E[i] for i in rows])
    B = Er.jacobian(ld)
    rest = Er - B * sp.Matrix(ld)
    P = rest.jacobian(lam)
    h = rest - P * sp.Matrix(lam)
    # λ̇ = −B^{-1}(P λ + h) along the motion
    Binv = B.inv()
    Mt = (-Binv * P).applyfunc(lambda e: tidy(e.xreplace(sub)))
    ht = (-Binv * h).applyfunc(lambda e: tidy(e.xreplace(sub)))
    cs = tuple(sp.Symbol(f"{constants}{i + 1}") for i in range(k))
    if all(is_zero(x) for x in Mt):
        lam_t = [cs[i] + sp.integrate(ht[i], t, conds="none") for i in range(k)]
    else:
        fs = [sp.Function(f"lam{i + 1}")(t) for i in range(k)]
        odes = [sp.Eq(sp.diff(fs[i], t), sum(Mt[i, j] * fs[j] for j in range(k)) + ht[i]) for i in range(k)]
        sol = sp.dsolve(odes if k > 1 else odes[0])
        sol = sol if isinstance(sol, list) else [sol]
        lam_t = [next(s.rhs for s in sol if s.lhs == f) for f in fs]
        csyms = sorted({s for x in lam_t for s in x.free_symbols if s.name.startswith("C")}, key=str)
        lam_t = [x.xreplace(dict(zip(csyms, cs, strict=False))) for x in lam_t]
    lam_t = [tidy(x) for x in lam_t]
    lsub = dict(zip(lam, lam_t, strict=True)) | {d: sp.diff(x, t) for d, x in zip(ld, lam_t, strict=True)}
    cond_t = [sp.factor(tidy(c.xreplace(sub).xreplace(lsub))) for c in conds]
    eqs: list[sp.Expr] = []
    for c in cond_t:
        eqs += time_coefficients(c, t)
    obstructions = tuple(e for e in eqs if not (set(cs) & e.free_symbols))
    sols: tuple[dict[sp.Symbol, sp.Expr], ...] = ()
    if not obstructions:
        lin = [e for e in eqs if set(cs) & e.free_symbols]
        if not lin:
            sols = ({},)
        else:
            ls = sp.linsolve(lin, list(cs))
            sols = tuple(
                {c: tidy(v) for c, v in zip(cs, s, strict=True) if c != v or c in {x for e in lin for x in [c]}}
                for s in ls
            )
            sols = tuple({c: v for c, v in s.items() if v != c} for s in sols)
    return MotionComparison(
        tuple(lam_t), cs, tuple(cond_t), tuple(eqs), obstructions, sols, bool(sols) and not obstructions
    )


# ------------------------------------------------------------ Cortés et al., section 6
@dataclass(frozen=True, eq=False)
class Candidate(Value):
    r"""A submanifold of ``W_1`` chosen by the user: ``equations = 0``, solved for ``solve_for``.

    The equations are functions of ``(q, v^α, p)`` and must be solvable (linearly or
    explicitly) for the listed symbols; the solution parametrises the candidate.
    """

    equations: tuple[Any, ...]
    solve_for: tuple[sp.Symbol, ...]
    name: str = ""

    def __post_init__(self) -> None:
        eqs = as_exprs(sequence(self.equations, name="Candidate: equations"), name="Candidate: equations")
        if not eqs:
            raise InvalidExpressionError("Candidate: equations: at least one equation is required")
        sf = check_symbols(self.solve_for, name="Candidate: solve_for")
        if not sf:
            raise InvalidExpressionError("Candidate: solve_for: at least one symbol is required")
        if not isinstance(self.name, str):
            raise ArgumentError(f"Candidate: name: expected a string, got {type(self.name).__name__}")
        object.__setattr__(self, "equations", eqs)
        object.__setattr__(self, "solve_for", sf)


@dataclass(frozen=True, eq=False)
class ComparisonStep(Value):
    r"""One step of the comparison algorithm on a candidate C.

    Attributes
    ----------
    candidate : Candidate
    parametrisation : dict
        The solved equations (``solve_for`` symbols as functions of the others).
    s1_residuals : tuple
        The functions ``g_β`` of Proposition 6.1 on C (all zero iff ``C ⊂ S_1``).
    defects : tuple
        ``X_vk(f_i)`` on C for every defining function ``f_i`` (all zero iff X_vk is tangent to C).
    in_S1 : bool
    final : bool
        ``C ⊂ S_1`` and X_vk tangent to C: a final constraint submanifold.
    """

    candidate: Candidate
    parametrisation: dict[sp.Symbol, sp.Expr]
    s1_residuals: tuple[sp.Expr, ...]
    defects: tuple[sp.Expr, ...]
    in_S1: bool
    final: bool


class CortesComparison:
    r"""The comparison algorithm of [C] section 6 for a vakonomic system in an adapted frame.

    Parameters
    ----------
    vk : VakonomicSystem
        Its complementary fields should be coordinate fields ``∂/∂q^a`` for the momenta
        ``p_a`` to be those of [C]; otherwise ``p_a := X_a^V L − μ_a``.
    p : str
        Prefix of the momentum symbols (``p_x`` for a coordinate field ``∂/∂x``).

    Examples
    --------
    >>> import frames as fr
    >>> mdl = fr.models.rolling_penny()
    >>> cc = fr.CortesComparison(fr.VakonomicSystem(mdl.lagrangian, mdl.frame, mdl.m))
    >>> cc.g()
    (v2*(-p_x*sin(phi) + p_y*cos(phi)), -v1*(-p_x*sin(phi) + p_y*cos(phi)))
    """

    def __init__(self, vk: Any, p: str = "p") -> None:
        expect_obj(vk, VakonomicSystem, name="CortesComparison: vk")
        if not isinstance(p, str) or not p.isidentifier():
            raise InvalidExpressionError(f"CortesComparison: p: {p!r} is not a valid name prefix (an identifier)")
        self.vk = vk
        F = vk.frame
        ch = F.chart
        names = []
        for a in vk.a:
            comps = list(F.matrix.row(a))
            ones = [j for j, c in enumerate(comps) if c == 1]
            coord = len(ones) == 1 and all(c == 0 for j, c in enumerate(comps) if j != ones[0])
            names.append(f"{p}_{ch.q[ones[0]].name}" if coord else f"{p}{a + 1}")
        self.p = tuple(sp.Symbol(s) for s in names)
        Lv = vk.lagrangian.in_frame(F)
        self.pi = tuple(tidy(sp.diff(Lv, F.v[a]).xreplace(vk.on_C)) for a in vk.a)
        self.mu_of_p = {mu: pi - p for mu, pi, p in zip(vk.mu, self.pi, self.p, strict=True)}
        self.p_of_mu = {p: pi - mu for mu, pi, p in zip(vk.mu, self.pi, self.p, strict=True)}

    def __repr__(self) -> str:
        return f"CortesComparison({self.vk!r}, p = {self.p})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CortesComparison):
            return NotImplemented
        return (self.vk, self.p) == (other.vk, other.p)

    def __hash__(self) -> int:
        return hash(("CortesComparison", self.vk, self.p))

    def _repr_latex_(self) -> str:
        rows = [(rf"\pi_{{{a + 1}}}", sp.latex(pi)) for a, pi in enumerate(self.pi)]
        body = r" \\ ".join(f"{lab} &= {tex}" for lab, tex in rows)
        return rf"$\text{{CortesComparison}}:\ p = {latex_of(self.p)},\ \begin{{aligned}} {body} \end{{aligned}}$"

    def g(self) -> tuple[sp.Expr, ...]:
        r"""Proposition 6.1: ``g_β = v^α (p_a − π_a) R^a_αβ`` for β = 1..m (``R`` the object of anholonomy)."""
        vk = self.vk
        R = vk.frame.anholonomy
        v = vk.frame.v
        out = []
        for be in vk.alpha:
            e = sp.Add(
                *[v[al] * (self.p[k] - self.pi[k]) * R[a, al, be] for k, a in enumerate(vk.a) for al in vk.alpha]
            )
            out.append(sp.factor(tidy(e)))
        return tuple(out)

    def difference_identity(self) -> tuple[sp.Expr, ...]:
        r"""``g_αβ (Γ_vk^β − Γ_nh^β) − g_α`` on ``W_1`` ((N6), the proof of Proposition 6.1); all vanish."""
        vk = self.vk
        gvk = vk.tangent_field().Gamma
        gnh = vk.nonholonomic.field().Gamma
        H = vk.hessian()
        gs = self.g()
        out = []
        for al in vk.alpha:
            e = sp.Add(*[H[al, be] * (gvk[be] - gnh[be]) for be in vk.alpha])
            out.append(tidy(e.xreplace(self.mu_of_p) - gs[al]))
        return tuple(out)

    def X(self, f: Any) -> sp.Expr:
        r"""``X_vk(f)`` for ``f(q, v^α, p)`` on ``W_1``: ``Γ_C(f) + μ̇_a ∂f/∂μ_a`` (Proposition 4)."""
        vk = self.vk
        tf = vk.tangent_field()
        fm = as_expr(f, name="CortesComparison.X: f").xreplace(self.p_of_mu)
        e = tf.field(fm) + sp.Add(*[A * sp.diff(fm, mu) for A, mu in zip(tf.A, vk.mu, strict=True)])
        return canon(e.xreplace(self.mu_of_p))

    def step(self, candidate: Candidate) -> ComparisonStep:
        """Test a candidate: contained in ``S_1``? is ``X_vk`` tangent to it?"""
        expect_obj(candidate, Candidate, name="CortesComparison.step: candidate")
        eqs = list(candidate.equations)
        sol = sp.solve(eqs, list(candidate.solve_for), dict=True)
        if not sol:
            raise ConstraintError(f"CortesComparison.step: cannot solve {eqs} for {candidate.solve_for}")
        par = {k: tidy(v) for k, v in sol[0].items()}

        def on(e: sp.Expr) -> sp.Expr:
            return tidy(e.xreplace(par))

        s1 = tuple(on(g) for g in self.g())
        defects = tuple(on(self.X(e)) for e in eqs)
        in_s1 = all(is_zero(x) for x in s1)
        return ComparisonStep(candidate, par, s1, defects, in_s1, in_s1 and all(is_zero(x) for x in defects))

    def run(
        self,
        candidate: Candidate,
        choose: Callable[[ComparisonStep], Candidate | None] | None = None,
        max_steps: int = 5,
    ) -> list[ComparisonStep]:
        r"""Iterate the algorithm from ``candidate``.

        After a step that is not final, ``choose(step)`` returns the refined candidate
        ``C̃`` (the human choice of submanifold inside ``{defects = 0}``) or None to discard.
        Without ``choose`` the nonzero defects are appended to the equations and solved for
        the same symbols. Returns the list of steps; the last one is final if the algorithm
        stopped at a final constraint submanifold.
        """
        expect_obj(candidate, Candidate, name="CortesComparison.run: candidate")
        if choose is not None and not callable(choose):
            raise ArgumentError(
                f"CortesComparison.run: choose: expected a callable or None, got {type(choose).__name__}"
            )
        max_steps = as_int(max_steps, name="CortesComparison.run: max_steps", min=0)
        hist: list[ComparisonStep] = []
        cur: Candidate | None = candidate
        for _ in range(max_steps):
            if cur is None:
                break
            st = self.step(cur)
            hist.append(st)
            if st.final or not st.in_S1:
                break
            if choose is not None:
                cur = choose(st)
                if cur is not None and not isinstance(cur, Candidate):
                    raise ArgumentError(
                        f"CortesComparison.run: choose: returned {type(cur).__name__}, expected a Candidate or None"
                    )
            else:
                new = [d for d in st.defects if not is_zero(d)]
                cur = Candidate(tuple(cur.equations) + tuple(new), cur.solve_for, cur.name)
        return hist
