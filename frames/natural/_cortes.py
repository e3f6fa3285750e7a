r"""The comparison algorithm of Cortés, de León, Martín de Diego & Martínez (2003), section 6.

:class:`CortesComparison` — the functions ``g_β`` of Proposition 6.1 from the object of anholonomy
of the adapted frame, the set ``S_1 = {g = 0}``, and the iteration ``C ↦ C̃ = {X_vk tangent}``,
either derived by the library (:meth:`CortesComparison.algorithm`: the sets ``S_1, S_2, …`` split
into branches, down to the final constraint submanifolds) or on submanifolds chosen by the user
(:class:`Candidate`, :meth:`CortesComparison.step`).

Momenta: [C] works on ``W_1`` with coordinates ``(q, q̇^a, p_α)``. In an adapted frame
whose complementary fields are coordinate fields ``X_a = ∂/∂q^a`` (the frame (N1) of the
extraction notes) the library's multiplier is ``μ_a = X_a^V L − p_a``, i.e.
``p_a = π_a − μ_a`` with ``π_a = X_a^V L`` on C.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property
from typing import Any

import sympy as sp

from .._value import Record, Value, latex_of
from ..algebra import derivative, expect, is_zero, tidy
from ..algebra import step as budget_step
from ..algebra.internal import as_expr, as_exprs, as_int, budgeted, canon, checkpoint
from ..dynamics import VakonomicSystem
from ..dynamics.internal import check_symbols, sequence
from ..errors import ArgumentError, ConstraintError, InvalidExpressionError

__all__ = [
    "Candidate",
    "ComparisonAlgorithm",
    "ComparisonBranch",
    "ComparisonStep",
    "CortesComparison",
]


class Candidate(Value):
    r"""A submanifold of ``W_1`` chosen by the user: ``equations = 0``, solved for ``solve_for``.

    The equations are functions of ``(q, v^α, p)`` and must be solvable (linearly or
    explicitly) for the listed symbols; the solution parametrises the candidate.
    """

    equations: tuple[Any, ...]
    solve_for: tuple[sp.Symbol, ...]
    name: str = ""

    def __post_init__(self) -> None:
        self.equations = as_exprs(sequence(self.equations, name="Candidate: equations"), name="Candidate: equations")
        self.solve_for = check_symbols(self.solve_for, name="Candidate: solve_for")

    def __check_init__(self) -> None:
        if not self.equations:
            raise InvalidExpressionError("Candidate: equations: at least one equation is required")
        if not self.solve_for:
            raise InvalidExpressionError("Candidate: solve_for: at least one symbol is required")
        if not isinstance(self.name, str):
            raise ArgumentError(f"Candidate: name: expected a string, got {type(self.name).__name__}")


class ComparisonStep(Record):
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


class ComparisonBranch(Record):
    r"""One branch (a piece of some ``S_k``) found by :meth:`CortesComparison.algorithm`.

    The branch is the graph ``{x = h(y)}`` over the remaining coordinates ``y`` of ``W_1``
    (``q``, the quasi-velocities ``v^α`` on D and the momenta ``p_a``): its defining functions
    ``x − h(y)`` are independent, so ``X_vk`` is tangent to it iff ``X_vk(x − h) = 0`` on it.

    Attributes
    ----------
    parametrisation : dict
        ``x -> h(y)``: the solved coordinates as functions of the free ones.
    step : int
        ``k``: the branch is a piece of ``S_k`` (``S_1 = {g = 0}``, ``S_{k+1}`` where ``X_vk`` is
        tangent to the pieces of ``S_k``).
    defects : tuple
        ``X_vk(x − h)`` on the branch, one per solved coordinate (all zero iff final).
    final : bool
        ``X_vk`` is tangent: a final constraint submanifold.
    """

    parametrisation: dict[sp.Symbol, sp.Expr]
    step: int
    defects: tuple[sp.Expr, ...]
    final: bool

    @property
    def equations(self) -> tuple[sp.Expr, ...]:
        """The defining functions ``x − h(y)`` (the branch is their common zero set)."""
        return tuple(x - h for x, h in self.parametrisation.items())

    def contains(self, other: ComparisonBranch | dict[sp.Symbol, Any]) -> bool:
        """Is the set ``other`` (a branch or a parametrisation) contained in this branch?"""
        if isinstance(other, ComparisonBranch):
            par = other.parametrisation
        else:
            par = {k: as_expr(v, name="ComparisonBranch.contains: other") for k, v in dict(other).items()}
        return all(_vanishes_on(x - h, par) for x, h in self.parametrisation.items())


class ComparisonAlgorithm(Record):
    r"""Outcome of :meth:`CortesComparison.algorithm` ([C] section 6).

    Attributes
    ----------
    S : tuple of tuples of ComparisonBranch
        ``S[k-1]`` lists the maximal pieces of ``S_k`` (final pieces are carried to the next sets).
    final : tuple of ComparisonBranch
        The final constraint submanifolds (maximal ones): ``X_vk`` is tangent to each, and on each
        the vakonomic motions with these multipliers project onto nonholonomic motions.
    assumptions : tuple
        Expressions assumed nonzero (coefficients divided by while solving, parameter factors
        of a defect): the result holds where none vanishes (generic points and parameters).
        A parameter combination here marks special parameter values that may add branches.
    unresolved : tuple
        Equations the library could not solve for any coordinate; their branches are left out.
    closed : bool
        The iteration stabilised (``S_{k+1} = S_k``) within ``max_steps``.
    """

    S: tuple[tuple[ComparisonBranch, ...], ...]
    final: tuple[ComparisonBranch, ...]
    assumptions: tuple[sp.Expr, ...]
    unresolved: tuple[sp.Expr, ...]
    closed: bool

    @property
    def empty(self) -> bool:
        """No final constraint submanifold: no vakonomic motion (with these multipliers) is nonholonomic."""
        return self.closed and not self.final

    @property
    def steps(self) -> int:
        """The number of sets ``S_1, …, S_k`` computed."""
        return len(self.S)

    def find(self, parametrisation: Mapping[sp.Symbol, Any], final: bool = True) -> ComparisonBranch | None:
        """The branch equal to the set ``{x = h(y)}`` given by ``parametrisation`` (None if there is none).

        Equality is mutual containment, so the set may be solved for other coordinates than the
        library's. Searches the final submanifolds (``final=True``) or every set ``S_k``.
        """
        par = {k: as_expr(v, name="ComparisonAlgorithm.find: parametrisation") for k, v in parametrisation.items()}
        pool = self.final if final else tuple(b for level in self.S for b in level)
        for b in pool:
            if b.contains(par) and all(_vanishes_on(x - h, b.parametrisation) for x, h in par.items()):
                return b
        return None


class CortesComparison(Value):
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

    vk: VakonomicSystem
    p: tuple[sp.Symbol, ...]

    def __init__(self, vk: VakonomicSystem, p: str = "p") -> None:
        expect(vk, VakonomicSystem, name="CortesComparison: vk")
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

    @cached_property
    def pi(self) -> tuple[sp.Expr, ...]:
        """``π_a = X_a^V L`` on C, a = m+1..n."""
        vk = self.vk
        F = vk.frame
        Lv = vk.lagrangian.in_frame(F)
        return tuple(tidy(derivative(Lv, F.v[a]).xreplace(vk.on_C)) for a in vk.a)

    @cached_property
    def mu_of_p(self) -> dict[sp.Symbol, sp.Expr]:
        """``μ_a = π_a − p_a``."""
        return {mu: pi - p for mu, pi, p in zip(self.vk.mu, self.pi, self.p, strict=True)}

    @cached_property
    def p_of_mu(self) -> dict[sp.Symbol, sp.Expr]:
        """``p_a = π_a − μ_a``."""
        return {p: pi - mu for mu, pi, p in zip(self.vk.mu, self.pi, self.p, strict=True)}

    def __repr__(self) -> str:
        return f"CortesComparison({self.vk!r}, p = {self.p})"

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
        gnh = vk.nonholonomic.field(canonical=True).Gamma
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
        e = tf.field(fm) + sp.Add(*[A * derivative(fm, mu) for A, mu in zip(tf.A, vk.mu, strict=True)])
        return canon(e.xreplace(self.mu_of_p))

    def step(self, candidate: Candidate) -> ComparisonStep:
        """Test a candidate: contained in ``S_1``? is ``X_vk`` tangent to it?"""
        expect(candidate, Candidate, name="CortesComparison.step: candidate")
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
        expect(candidate, Candidate, name="CortesComparison.run: candidate")
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

    # ------------------------------------------------------------ the algorithm itself
    @property
    def coordinates(self) -> tuple[sp.Symbol, ...]:
        """Coordinates of ``W_1`` in the order the algorithm solves for them: ``p_a``, ``v^α``, ``q``."""
        vk = self.vk
        return tuple(self.p) + tuple(vk.frame.v[al] for al in vk.alpha) + tuple(vk.frame.chart.q)

    @budgeted("CortesComparison.algorithm")
    def algorithm(self, max_steps: int | None = None) -> ComparisonAlgorithm:
        r"""The comparison algorithm of [C] section 6, derived: ``S_1, S_2, …`` down to the final submanifolds.

        ``S_1 = {g_β = 0}`` (Proposition 6.1: where ``X_vk`` projects onto ``X_nh``) is split into
        branches: the numerator of the first ``g_β`` that does not vanish on a branch is factored and
        every factor that involves the coordinates of ``W_1`` opens a branch, on which it is solved
        for one coordinate (linearly if possible, preferring the momenta ``p_a``, then the
        velocities ``v^α``, then ``q``); a real sum of squares imposes each square. Branches contained
        in others are dropped (the paper's submanifolds "of maximal dimension"). Step ``k``: on each
        branch C of ``S_k`` the defects ``X_vk(x − h)`` of its defining functions are computed; if
        all vanish C is a final constraint submanifold, otherwise ``C̃ = {defects = 0}`` is split in
        the same way and its pieces form ``S_{k+1}`` with the final ones. Each step lowers the
        dimension, so the iteration closes after at most ``dim W_1 = 2n`` steps.

        The result is generic: coefficients divided by and parameter factors of a defect are assumed
        nonzero and listed in ``assumptions`` (substitute special parameter values in the Lagrangian
        to study them).

        Parameters
        ----------
        max_steps : int, optional
            Stop after ``S_max_steps`` (default ``2n + 1``, enough to close); ``closed`` says whether
            the iteration stabilised.

        Raises
        ------
        BudgetExceededError
            If ``budget=`` runs out; the message names the step (``S_k``, the branch, the task).

        Examples
        --------
        >>> import frames as fr
        >>> mdl = fr.models.rolling_penny()
        >>> res = fr.CortesComparison(fr.VakonomicSystem(mdl.lagrangian, mdl.frame, mdl.m)).algorithm()
        >>> res.closed, len(res.final)
        (True, 3)
        >>> [b.parametrisation for b in res.final]  # doctest: +NORMALIZE_WHITESPACE
        [{v1: 0, v2: 0}, {p_x: p_y*cos(phi)/sin(phi), v2: 0}, {p_x: 0, p_y: 0}]
        """
        n = self.vk.n
        if max_steps is None:
            max_steps = 2 * n + 1
        max_steps = as_int(max_steps, name="CortesComparison.algorithm: max_steps", min=1)
        state: dict[str, Any] = {"assume": [], "unresolved": []}
        with budget_step("S_1: g = 0 (Proposition 6.1)"):
            pending = self._maximal(self._impose({}, list(self.g()), state))
        levels: list[tuple[ComparisonBranch, ...]] = []
        finals: list[ComparisonBranch] = []
        closed = not pending
        for k in range(1, max_steps + 1):
            if not pending:
                closed = True
                break
            new: list[ComparisonBranch] = []
            nxt: list[dict[sp.Symbol, sp.Expr]] = []
            for i, par in enumerate(pending):
                with budget_step(f"S_{k}: tangency of X_vk on branch {i + 1} of {len(pending)}"):
                    defects = tuple(tidy(self.X(x - h).xreplace(par)) for x, h in par.items())
                    final = all(is_zero(d) for d in defects)
                br = ComparisonBranch(par, k, defects, final)
                new.append(br)
                if final:
                    finals.append(br)
                    continue
                with budget_step(f"S_{k + 1}: zeros of the defects on branch {i + 1} of {len(pending)}"):
                    nxt += self._impose(par, [d for d in defects if not is_zero(d)], state)
            levels.append(tuple(b for b in finals if b not in new) + tuple(new))
            with budget_step(f"S_{k + 1}: maximal branches"):
                pending = [par for par in self._maximal(nxt) if not any(f.contains(par) for f in finals)]
        else:
            closed = not pending
        if closed and levels and not all(b.final for b in levels[-1]):
            levels.append(tuple(finals))  # S_{k+1}: the final pieces only (the others emptied)
        keep = [b for b in finals if not any(o is not b and o.contains(b) and not b.contains(o) for o in finals)]
        assume = tuple(sorted(set(state["assume"]), key=sp.default_sort_key))
        unresolved = tuple(state["unresolved"])
        return ComparisonAlgorithm(tuple(levels), tuple(keep), assume, unresolved, closed)

    def _impose(
        self, par: dict[sp.Symbol, sp.Expr], funcs: list[sp.Expr], state: dict[str, Any]
    ) -> list[dict[sp.Symbol, sp.Expr]]:
        """Split the zero set of ``funcs`` inside the graph ``par`` into graphs (branches)."""
        coords = self.coordinates
        vk = self.vk
        kinds = (tuple(self.p), tuple(vk.frame.v[al] for al in vk.alpha), tuple(vk.frame.chart.q))
        moving = set(kinds[0] + kinds[1])
        out: list[dict[sp.Symbol, sp.Expr]] = []
        stack: list[tuple[dict[sp.Symbol, sp.Expr], tuple[sp.Expr, ...]]] = [(dict(par), ())]
        while stack:
            checkpoint()
            cur, extra = stack.pop()
            bad = None
            outside = False
            for f in (*extra, *funcs):
                r = f.xreplace(cur)
                if r.has(sp.nan, sp.zoo, sp.oo):
                    outside = True  # a divisor of an earlier solve vanishes here (assumed nonzero)
                    break
                r = tidy(r)
                if not is_zero(r):
                    bad = r
                    break
            if outside:
                continue
            if bad is None:
                out.append(cur)
                continue
            num = sp.numer(sp.together(bad))
            _, facs = sp.factor_list(num)
            for fac, _mult in facs:
                if not set(coords) & fac.free_symbols:
                    if not fac.is_number:
                        state["assume"].append(canon(fac))
                    continue
                ways = _solve_factor(fac, kinds)
                if not ways:
                    state["unresolved"].append(fac)
                for sub, divisors, more in ways:
                    if sub is None:  # a sum of squares: impose every square
                        stack.append((cur, (*more, *extra)))
                        continue
                    for d in divisors:
                        if d.free_symbols & moving:  # the degenerate case a = b = 0 is a branch too
                            stack.append((cur, (*more, *extra)))
                            continue
                        state["assume"].extend(
                            canon(f) for f, _ in sp.factor_list(sp.numer(sp.together(d)))[1] if not f.is_number
                        )
                    x, h = sub
                    new = {y: tidy(e.xreplace({x: h})) for y, e in cur.items()}
                    if any(e.has(sp.zoo, sp.nan, sp.oo) for e in new.values()):
                        continue  # outside the chart of the parametrisation (a divisor vanishes)
                    new[x] = tidy(h)
                    stack.append(({y: new[y] for y in coords if y in new}, extra))
        return out

    @staticmethod
    def _maximal(pars: list[dict[sp.Symbol, sp.Expr]]) -> list[dict[sp.Symbol, sp.Expr]]:
        """Drop repeated branches and branches contained in others."""

        def inside(a: dict[sp.Symbol, sp.Expr], b: dict[sp.Symbol, sp.Expr]) -> bool:
            return all(_vanishes_on(x - h, a) for x, h in b.items())

        keep: list[dict[sp.Symbol, sp.Expr]] = []
        for a in pars:
            checkpoint()
            if any(inside(a, b) for b in keep):
                continue
            keep = [b for b in keep if not inside(b, a)] + [a]
        return keep


def _vanishes_on(f: sp.Expr, par: Mapping[sp.Symbol, sp.Expr]) -> bool:
    """Does ``f`` vanish on the graph ``par``? (False where the substitution is undefined.)"""
    r = sp.sympify(f, strict=True).xreplace(dict(par))
    if r.has(sp.nan, sp.zoo, sp.oo):
        return False
    return is_zero(r)


def _solve_factor(
    fac: sp.Expr, kinds: tuple[tuple[sp.Symbol, ...], ...]
) -> list[tuple[tuple[sp.Symbol, sp.Expr] | None, tuple[sp.Expr, ...], tuple[sp.Expr, ...]]]:
    """Ways to solve ``fac = 0``: ``[((x, h), divisors, degenerate)]``, or ``[(None, (), squares)]``.

    For a linear solution ``x = −b/a`` the divisors are ``(a,)`` and ``degenerate = (a, b)`` (the
    case ``a = b = 0``); for a real sum of squares the squared terms are imposed one by one.

    ``kinds`` are the coordinates of ``W_1`` in groups ``(p, v, q)``. Linear solutions are preferred
    (for ``p``, then ``v``, then ``q``; within a group the coefficient with the fewest coordinates);
    otherwise the real roots of a quadratic in one ``p`` or ``v``, or, for a factor of ``q`` alone,
    the real roots that sympy finds.
    """
    coords = tuple(x for group in kinds for x in group)
    cands = [x for x in coords if x in fac.free_symbols]
    kind = {x: k for k, group in enumerate(kinds) for x in group}
    best: tuple[tuple[int, int, int], sp.Symbol, sp.Expr, sp.Expr] | None = None
    for i, x in enumerate(cands):
        try:
            P = sp.Poly(fac, x)
        except sp.PolynomialError:
            continue
        if P.degree() != 1:
            continue
        a, b = P.all_coeffs()
        if x in a.free_symbols or x in b.free_symbols:
            continue
        key = (kind[x], len(a.free_symbols & set(coords)), i)
        if best is None or key < best[0]:
            best = (key, x, a, b)
    if best is not None:
        _, x, a, b = best
        return [((x, tidy(-b / a)), (a,) if not a.is_number else (), (a, b))]
    terms = sp.Add.make_args(sp.expand(fac))
    squares: list[sp.Expr] = []
    positive = False
    for t in terms:
        c, rest = t.as_coeff_Mul()
        if c.is_positive and rest == 1:
            positive = True
        elif c.is_positive and isinstance(rest, sp.Pow) and rest.exp.is_even and rest.exp.is_Integer:
            squares.append(rest.base ** (rest.exp // 2))
        else:
            break
    else:
        if positive:  # a positive constant plus squares: never zero
            return [(None, (), (sp.S.One,))]
        if len(terms) > 1:
            return [(None, (), tuple(squares))]
    only_q = not (fac.free_symbols & set(kinds[0] + kinds[1]))
    for x in cands:
        if kind[x] < 2:
            try:
                if sp.Poly(fac, x).degree() > 2:
                    continue
            except sp.PolynomialError:
                continue
        elif not only_q:
            continue
        try:
            sols = sp.solve(fac, x, dict=False)
        except (NotImplementedError, ValueError, TypeError):  # pragma: no cover - sympy gave up
            continue
        roots = [r for r in sols if not r.has(sp.I) and x not in r.free_symbols]
        if roots:
            return [((x, r), (), ()) for r in roots]
    return []
