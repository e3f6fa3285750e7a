r"""Analysis reports: a table of small section functions, formatted as text, Markdown, LaTeX or JSON.

Each section of ``frames analyze`` is produced by one function registered in
:data:`SECTIONS` with the :func:`section` decorator. A section that does not apply
to the model (no symmetry group declared for the Chaplygin section, no auxiliary
functions for the MVM) is *skipped* with a note instead of failing.

Examples
--------
>>> from frames import models
>>> rep = analyze(models.nonholonomic_particle(), only=["anholonomy"])
>>> print(rep.to_text().splitlines()[-1])
R^3_12 = -1
>>> rep.to_json()["sections"][0]["items"][0]["latex"]
'-1'
"""

from __future__ import annotations

import json
import math
import textwrap
from collections.abc import Callable, Iterable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import sympy as sp

from .._version import __version__
from ..algebra import budget as _budget
from ..algebra import op_count, step, tidy
from ..algebra.internal import current_budget, trig_normal
from ..dynamics import ChaplyginSystem, VakonomicSystem, invariant_measure, strong_consistency, weak_consistency
from ..errors import ArgumentError, FramesError
from ..geometry import bracket_flag
from ..natural import ModifiedVakonomic, compare_mvm_with_nonholonomic
from . import _parallel
from ._display import display_form
from ._errata import ERRATA
from ._latex import mathjax_text as _mathjax_text
from ._latex import tex_escape as _tex_escape
from ._latex import vlatex
from ._model import Model
from ._stability import stability_report

__all__ = [
    "ERRATA",
    "SECTIONS",
    "Analysis",
    "Item",
    "Report",
    "Section",
    "analyze",
    "display_form",
    "section",
]

#: the vakonomic field is written out when :meth:`~frames.VakonomicSystem.field_size_bound` (a bound on the terms of its
#: numerators by Cramer's rule) is at most this; above it the report gives the linear system ``g Γ = b`` instead. The
#: catalogue's systems are below 4·10⁴, a random dense system with n = 3 near 2·10⁵ and one with n = 4 near 3·10⁸.
EXPLICIT_FIELD_TERMS = 10**6

#: expressions with more operations than this are not printed by a report (``analyze(max_ops=...)``); a
#: consistency test whose conditions would exceed it is decided at generic points instead of forming them. The
#: catalogue's largest printed expression has about 1,100 operations, a random dense system with n = 3 about 41,000.
DISPLAY_OPS_LIMIT = 50_000
_MAX_OPS: ContextVar[int | None] = ContextVar("frames_report_max_ops", default=DISPLAY_OPS_LIMIT)

#: expressions with more operations than this are printed as computed, not in :func:`display_form` (angles
#: recombined, factored): on the dense 4-dof file of issue 42 that form of a 1,000-10,000-operation expression took
#: 1-10 s each, without a progress line, and was often larger. The catalogue's largest printed expression has about
#: 1,100 operations.
DISPLAY_FORM_OPS = 3000


# ----------------------------------------------------------------- data
@dataclass(frozen=True)
class Item:
    """One line of a report.

    ``kind`` is ``"equation"`` (``label = expr``), ``"verdict"`` (a yes/no
    statement with ``value`` True/False/None) or ``"text"``.
    """

    kind: str
    label: str
    #: LaTeX of the label, or the label as an expression (printed in dot notation on request)
    label_latex: str | sp.Expr = ""
    expr: sp.Expr | None = None
    text: str = ""
    value: bool | None = None

    @property
    def label_tex(self) -> str:
        """LaTeX of the label (an expression label in dot notation, as :attr:`latex`)."""
        return self.label_latex if isinstance(self.label_latex, str) else vlatex(self.label_latex)

    @property
    def latex(self) -> str:
        """LaTeX of the displayed expression in dot notation (``\\dot{q}`` for ``dq/dt``, ``q`` for
        ``q(t)``, as :mod:`sympy.physics.mechanics` prints); empty for text items."""
        done = _written(self, "latex")
        if done is not None:
            return done
        return vlatex(self.expr) if self.expr is not None else ""

    def plain(self) -> str:
        if self.kind == "equation":
            done = _written(self, "plain")
            if done is not None:
                return done
            return f"{self.label} = {sp.sstr(self.expr)}"
        if self.kind == "verdict":
            mark = {True: "yes", False: "no", None: "undecided"}[self.value]
            return f"{self.label}: {mark}" + (f" ({self.text})" if self.text else "")
        return f"{self.label}: {self.text}" if self.label else self.text


@dataclass(frozen=True)
class Section:
    """A titled block of items; ``status`` is ``"ok"`` or ``"skipped"`` (then ``note`` says why)."""

    id: str
    title: str
    items: tuple[Item, ...] = ()
    status: str = "ok"
    note: str = ""


def eq(label: str, expr: object, label_latex: str | sp.Expr | None = None, factor: bool = True) -> Item:
    """An equation item ``label = expr`` (expr shown in :func:`display_form`).

    Above the report's ``max_ops`` (:data:`DISPLAY_OPS_LIMIT` by default) a text item says so instead: such an
    expression is megabytes of text, and writing it costs more than computing it.
    """
    e = sp.sympify(expr, strict=True)
    tex = label_latex if label_latex is not None else label
    if _too_large(e):
        return Item("text", label, tex, None, f"not printed: more than {_MAX_OPS.get():,} operations {_LIMIT_HINT}")
    return Item("equation", label, tex, display_form(e) if factor and not _large_for_display(e) else e)


def _large_for_display(e: sp.Expr) -> bool:
    """True if ``e`` has more than :data:`DISPLAY_FORM_OPS` operations (printed as computed)."""
    return op_count(e, DISPLAY_FORM_OPS) > DISPLAY_FORM_OPS


_LIMIT_HINT = "(the report's limit: analyze(max_ops=...), frames analyze --max-ops)"


def _too_large(e: sp.Expr) -> bool:
    """True if ``e`` has more operations than the report's ``max_ops`` (counted up to the limit only)."""
    limit = _MAX_OPS.get()
    return limit is not None and op_count(e, limit) > limit


def verdict(label: str, value: bool | None, text: str = "") -> Item:
    """A verdict item."""
    return Item("verdict", label, label, None, text, value)


def note(text: str, label: str = "") -> Item:
    """A text item."""
    return Item("text", label, label, None, text)


# --------------------------------------------------------------- context
class Analysis:
    """Lazily computed objects shared by the sections of one report (each computed once)."""

    def __init__(self, model: Any) -> None:
        self.model = model

    @cached_property
    def nh(self) -> Any:
        return self.model.nonholonomic()

    @cached_property
    def field(self) -> Any:
        return self.nh.field()

    @cached_property
    def nh_bound(self) -> int:
        """:meth:`~frames.NonholonomicSystem.field_size_bound`: is the field written out (at most
        :data:`EXPLICIT_FIELD_TERMS`) or given as its linear system?"""
        return int(self.nh.field_size_bound())

    @property
    def nh_explicit(self) -> bool:
        return self.nh_bound <= EXPLICIT_FIELD_TERMS

    @cached_property
    def large_conditions(self) -> bool:
        """Would the consistency conditions (as large as the multipliers) not be printed? Then they are decided at
        generic points first (``pointwise=True``)."""
        return not self.nh_explicit or any(_too_large(lam) for lam in self.nh.multipliers())

    @cached_property
    def vk(self) -> Any:
        return VakonomicSystem.from_nonholonomic(self.nh)  # shares the momenta and L_c on C

    @cached_property
    def transverse_momenta(self) -> tuple[sp.Expr, ...]:
        """``p_a = X_a^V L`` on C, a = m+1..n (the section φ = p)."""
        p = self.nh.momenta()
        return tuple(p[a] for a in self.nh.a)


SectionFn = Callable[[Analysis], Section]


@dataclass(frozen=True)
class _Spec:
    id: str
    title: str
    fn: SectionFn


#: Ordered section table: id -> spec. Register new sections with :func:`section`.
SECTIONS: dict[str, _Spec] = {}


def section(id: str, title: str) -> Callable[[Callable[[Analysis], Iterable[Item]]], SectionFn]:
    """Register a section function (it yields :class:`Item` objects)."""

    def deco(fn: Callable[[Analysis], Iterable[Item]]) -> SectionFn:
        def run(a: Analysis) -> Section:
            return Section(id, title, tuple(fn(a)))

        SECTIONS[id] = _Spec(id, title, run)
        return run

    return deco


class SectionSkipped(Exception):
    """Raised by a section function that does not apply to the model (the message says why)."""


def _free_motion_only(a: Analysis, what: str) -> None:
    """Skip a section whose theory is that of the free motion when the model has forces."""
    if a.model.forces or a.model.loads:
        raise SectionSkipped(f"the system has forces; {what} is a theory of the motion without forces")


# -------------------------------------------------------------- sections
def _sym_list(xs: Sequence[Any]) -> str:
    return "(" + ", ".join(str(x) for x in xs) + ")"


@section("chart", "Chart")
def _chart(a: Analysis) -> Iterable[Item]:
    ch = a.model.chart
    yield note(_sym_list(ch.q), "coordinates q")
    yield note(_sym_list(ch.u), "velocities u")
    if ch.t is not None:
        yield note(str(ch.t), "time")
    units = a.model.units
    for name, s in a.model.params.items():
        txt = f"[{units[name]}]" if units.get(name) else ""
        if s in a.model.param_values:
            txt = (txt + f" default {a.model.param_values[s]}").strip()
        yield note(txt or "symbolic", f"parameter {name}")


@section("frame", "Frame")
def _frame(a: Analysis) -> Iterable[Item]:
    F = a.model.frame
    yield note(f"the first m = {a.model.m} fields span D; C = {{v^a = 0, a > {a.model.m}}}")
    for i, X in enumerate(F.fields):
        yield note(repr(X), f"X{i + 1}")
    Th = F.coframe_matrix
    for i in range(F.dim):
        terms = [f"({tidy(Th[i, j])})*d{q}" for j, q in enumerate(a.model.chart.q) if Th[i, j] != 0]
        yield note(" + ".join(terms) or "0", f"θ^{i + 1}")


@section("anholonomy", "Object of anholonomy [X_i, X_j] = R^k_ij X_k")
def _anholonomy(a: Analysis) -> Iterable[Item]:
    R = a.model.frame.anholonomy
    n = a.model.n
    nz = False
    for k in range(n):
        for i in range(n):
            for j in range(i + 1, n):
                r = trig_normal(R[k, i, j])  # sin² + cos² = 1 (a frame completed by constraint rows)
                if r != 0:
                    nz = True
                    yield eq(f"R^{k + 1}_{i + 1}{j + 1}", r, f"R^{{{k + 1}}}_{{{i + 1}{j + 1}}}")
    if not nz:
        yield note("R = 0 (holonomic frame)")


@section("frobenius", "Frobenius")
def _frobenius(a: Analysis) -> Iterable[Item]:
    res = a.nh.frobenius()
    yield verdict("D integrable", bool(res.integrable), str(res))


@section("controllability", "Bracket flag and controllability (growth vector)")
def _controllability(a: Analysis) -> Iterable[Item]:
    flag = bracket_flag(a.model.frame.fields[: a.model.m])
    yield note(f"{flag.growth} (dim Q = {flag.dim})", "growth vector of D")
    text = (
        f"D^{flag.step} = TQ: the driftless system q̇ = w^α X_α is controllable (Chow–Rashevskii)"
        if flag.bracket_generating
        else f"the flag stops at dimension {flag.growth[-1]} < {flag.dim}: the motions stay on leaves of an "
        "integrable distribution (some combination of the constraints is holonomic)"
    )
    yield verdict("D bracket generating", flag.bracket_generating, text)


@section("lagrangian", "Lagrangian in quasi-velocities")
def _lagrangian(a: Analysis) -> Iterable[Item]:
    yield eq("L", tidy(a.model.lagrangian.in_frame(a.model.frame)))
    yield eq("L_c", a.nh.constrained_lagrangian(), "L_{c}")
    for q, f in zip(a.model.chart.q, a.model.force_form or (), strict=False):
        if f != 0:  # the force one-form F_i dq^i, component by component
            yield eq(f"F_{q}", f, f"F_{{{sp.latex(q)}}}")


@section("nonholonomic", "Nonholonomic field and multipliers (Proposition 2)")
def _nonholonomic(a: Analysis) -> Iterable[Item]:
    if not a.nh_explicit:  # the mass-matrix form: exact, and as large as the data
        g, b = a.nh.linear_system()
        yield note(
            f"not written out: by Cramer's rule the numerators of Γ^α would have up to {a.nh_bound:.2e} terms "
            f"before cancellation (the report's limit is {EXPLICIT_FIELD_TERMS:.0e}; "
            "NonholonomicSystem.field_size_bound). Γ^α is the unique solution of g_αβ Γ^β = b_α (Proposition 2; "
            "NonholonomicSystem.linear_system), g_αβ nonsingular on C",
            "Γ^α",
        )
        yield from _linear_system_items(g, b)
        yield note("λ_a = g_aβ Γ^β − b_a (b_a as b_α, for a > m); not formed, the same size as the field", "λ_a")
        yield note("q̇ = v^α X_α, v̇^α = Γ^α (α ≤ m), v^a = 0 on C", "equations of motion")
        return
    G = a.field
    # results held as trees (compact: the canonical form multiplies compound angles out) are written as derived:
    # recombining their angles (display_form) makes them several times larger and costs seconds each
    trees = G is a.nh.field(canonical=False)
    for i in range(a.model.m):
        yield eq(f"Γ^{i + 1}", G.Gamma[i], rf"\Gamma^{{{i + 1}}}", factor=not trees)
    lams = tuple(a.nh.multipliers())
    lam_trees = trees and lams == tuple(a.nh.multipliers(canonical=False))
    for k, lam in zip(a.nh.a, lams, strict=True):
        yield eq(f"λ_{k + 1}", lam, rf"\lambda_{{{k + 1}}}", factor=not lam_trees)
    for e in G.equations():
        yield eq(sp.sstr(e.lhs), e.rhs, e.lhs, factor=not trees)  # the LaTeX label is printed only when asked for


def _linear_system_items(g: sp.MatrixBase, b: sp.MatrixBase) -> Iterable[Item]:
    """The items of a field given as its linear system ``g Γ = b``: ``g_ij`` (i ≤ j, nonzero; g is symmetric), ``b_i``."""
    for i in range(g.rows):
        for j in range(i, g.rows):
            if g[i, j] != 0:
                yield eq(f"g_{i + 1}{j + 1}", g[i, j], f"g_{{{i + 1}{j + 1}}}")
    for i in range(g.rows):
        yield eq(f"b_{i + 1}", b[i], f"b_{{{i + 1}}}")


@section("invariant_measure", "Invariant measure N(q) dq∧dv of the nonholonomic field (basic density)")
def _invariant_measure(a: Analysis) -> Iterable[Item]:
    _free_motion_only(a, "the invariant measure")
    if not a.nh_explicit:
        yield note(
            f"the nonholonomic field is not formed here (its Cramer numerators would have up to {a.nh_bound:.2e} "
            "terms): decided at generic points from g_αβ Γ^β = r_α (invariant_measure(nh, pointwise=True); "
            "invariant_measure(nh) forms the field)",
            "method",
        )
    res = invariant_measure(a.nh, pointwise=not a.nh_explicit)
    for kind, label, value in res.report_items():
        if kind == "verdict":  # None is "undecided", not "no"
            yield verdict(label, None if value is None else bool(value))
        elif kind == "equation":
            yield eq(label, value)
        else:
            yield note(str(value), label)


@section("vakonomic", "Vakonomic field (Propositions 3-4)")
def _vakonomic(a: Analysis) -> Iterable[Item]:
    _free_motion_only(a, "the vakonomic method (a variational principle)")
    vk = a.vk
    yield note(", ".join(map(str, vk.mu)) + " multipliers; " + ", ".join(map(str, vk.A)) + " = Γ(μ)")
    with step("vakonomic: size of the field from its mass-matrix form"):
        bound = vk.field_size_bound(canonical=False)  # on trees: no canonical r_i written out
    if bound > EXPLICIT_FIELD_TERMS:  # the mass-matrix form: exact, and as large as the data
        g, b = vk.linear_system(canonical=False)
        yield note(
            f"not written out: by Cramer's rule the numerators of Γ^i would have up to {bound:.2e} terms before "
            f"cancellation (the report's limit is {EXPLICIT_FIELD_TERMS:.0e}; VakonomicSystem.field_size_bound). "
            "Γ is the unique solution of g Γ = b (Proposition 3; VakonomicSystem.linear_system), g nonsingular on C",
            "Γ^i",
        )
        yield from _linear_system_items(g, b)
        vk.check_regularity()  # Proposition 4 from the same system: regular w.r.t. D and D^⊥ (raises otherwise)
        yield note(
            "L is regular with respect to D and D^⊥ on C; Γ^a = 0 (a > m), Γ^α solves rows α ≤ m of g Γ = b, "
            "and rows a > m then give A_a (not written out: the same size as the field)",
            "Proposition 4",
        )
        return
    G = vk.field()
    trees = G is vk.field(canonical=False)  # held as trees (compact): written as derived, not recombined
    for i, g in enumerate(tuple(G)):
        yield eq(f"Γ^{i + 1}", g, rf"\hat\Gamma^{{{i + 1}}}", factor=not trees)
    tf = vk.tangent_field()
    tf_trees = tf is vk.tangent_field(canonical=False)
    for s, val in zip(vk.A, getattr(tf, "A", ()), strict=False):
        yield eq(f"{s} (tangent to C)", val, sp.latex(s), factor=not tf_trees)


def _consistency_items(a: Analysis, label: str, phi: Sequence[Any]) -> Iterable[Item]:
    for kind in ("weak", "strong"):
        test = weak_consistency if kind == "weak" else strong_consistency
        res = test(a.vk, list(phi), pointwise=a.large_conditions)
        yield verdict(f"{kind} consistency at {label}", res.holds)
        for j, c in enumerate(res.conditions):
            if c != 0:
                yield eq(f"{kind} condition {j + 1} at {label}", c, rf"\text{{{kind} condition {j + 1}}}")
        if res.witness:
            pt = ", ".join(f"{x} = {v}" for x, v in res.witness)
            vals = ", ".join(str(v) for v in res.witness_values)
            yield note(
                f"decided at a generic point, not formed (as large as the multipliers, over the report's limit): at "
                f"{pt} the conditions (in order) take the values ({vals}); a nonzero value proves its condition "
                "nonzero exactly",
                f"{kind} conditions at {label}",
            )


@section("consistency", "Weak and strong consistency (Theorem 2, Corollaries 1-2)")
def _consistency(a: Analysis) -> Iterable[Item]:
    _free_motion_only(a, "consistency with the vakonomic motion")
    k = a.model.n - a.model.m
    yield from _consistency_items(a, "φ = 0", [0] * k)
    p = a.transverse_momenta
    for s, val in zip(a.vk.mu, p, strict=True):
        yield eq(f"φ = p: {s}", val, sp.latex(s))
    yield from _consistency_items(a, "φ = p", p)


@section("chaplygin", "Chaplygin system (section 6, Propositions 5-6)")
def _chaplygin(a: Analysis) -> Iterable[Item]:
    mdl = a.model
    if not mdl.group:
        raise SectionSkipped("not a Chaplygin system (Model.group is empty)")
    _free_motion_only(a, "the Chaplygin reduction")
    yield note(", ".join(f"X{g + 1}" for g in mdl.group), "group generators")
    cs = ChaplyginSystem.from_model(mdl)
    same, cond = cs.routhian_agreement()
    yield verdict("Proposition 6: Routhian field restricted to C equals the nonholonomic field", same)
    yield verdict("Proposition 6: R^a_αβ v^β p_a = 0 on C", cond)
    for j, c in enumerate(cs.routhian_conditions()):
        if c != 0:
            yield eq(f"R^a_{j + 1}β v^β p_a", c)


def mvm_data(model: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]] | None:
    """``(constraints, auxiliary)`` for the MVM, or None if the model gives no auxiliary functions.

    Convention: ``Model.auxiliary`` (m functions, affine in the
    velocities, which with the constraints form a coframe); the constraints are
    ``Model.mvm_constraints`` or the model's constraint functions.
    """
    aux = model.auxiliary
    if not aux:
        return None
    cons = model.mvm_constraints or model.constraints.functions
    return tuple(cons), tuple(aux)


@section("mvm", "Modified vakonomic method: W and equivalence (Pastore et al.)")
def _mvm(a: Analysis) -> Iterable[Item]:
    _free_motion_only(a, "the modified vakonomic method (as built from the model)")
    data = mvm_data(a.model)
    if data is None:
        raise SectionSkipped("the model provides no auxiliary functions (Model.auxiliary)")
    cons, aux = data
    mvm = ModifiedVakonomic(a.model.lagrangian, constraints=list(cons), auxiliary=list(aux))
    yield note(", ".join(map(str, aux)), "auxiliary functions F")
    W = mvm.W
    for h in range(W.rows):
        for k in range(W.cols):
            if W[h, k] != 0:
                yield eq(f"W^{h + 1}_{k + 1}", W[h, k], f"W^{{{h + 1}}}_{{{k + 1}}}")
    res = compare_mvm_with_nonholonomic(mvm)
    yield verdict("Theorem 1 (55a): MVM equivalent to the nonholonomic (TNHM) motion", res.holds)


@section("stability", "Stability about the operating point (frames linearize)")
def _stability(a: Analysis) -> Iterable[Item]:
    if not a.model.operating_point:
        raise SectionSkipped("the model names no operating point ([operating_point] in a system file)")
    for kind, label, x in stability_report(a.model):  # the rows of frames.app._stability
        yield (
            eq(label, x, factor=False)
            if kind == "equation"
            else verdict(label, *x)
            if kind == "verdict"
            else note(x, label)
        )


@section("errata", "Errata notes")
def _errata(a: Analysis) -> Iterable[Item]:
    entries = ERRATA.get(a.model.name, ())
    if not entries:
        yield note("no known errata concern this model")
    for eid, text in entries:
        yield note(text + " See docs/errata.md.", eid)


# ---------------------------------------------------------------- report
def _wrap(line: str, width: int) -> str:
    """Wrap ``label = long expression`` at spaces, continuation lines indented under the expression."""
    if len(line) <= width:
        return line
    sep = min((i for i in (line.find(" = "), line.find(": ")) if i >= 0), default=-1)
    head = sep + (3 if line[sep : sep + 3] == " = " else 2) if 0 <= sep < width // 2 else 4
    return textwrap.fill(
        line,
        width=width,
        subsequent_indent=" " * head,
        break_long_words=False,
        break_on_hyphens=False,
    )


#: the strings of the equations written by the second process of one :meth:`Report.format` call, by item ``id``
_RENDERED: ContextVar[dict[int, dict[str, str]]] = ContextVar("frames_report_rendered", default={})  # noqa: B039


def _written(item: Item, what: str) -> str | None:
    """The string ``what`` (``plain`` or ``latex``) of ``item``, if the running ``Report.format(jobs=2)`` wrote it."""
    return _RENDERED.get().get(id(item), {}).get(what)


#: the strings of an equation item each format writes (:meth:`Report.format` with ``jobs=2``)
_RENDER = {"text": ("plain",), "json": ("plain", "latex"), "markdown": ("latex",), "latex": ("latex",)}


@dataclass(frozen=True)
class Report:
    """A built report; format it with :meth:`to_text`, :meth:`to_markdown`, :meth:`to_latex`, :meth:`to_json`."""

    model: str
    citation: str
    sections: tuple[Section, ...] = field(default=())

    def __post_init__(self) -> None:
        if not isinstance(self.model, str) or not isinstance(self.citation, str):
            raise ArgumentError(f"Report: model and citation must be str, got {self.model!r}, {self.citation!r}")
        if not isinstance(self.sections, tuple) or not all(isinstance(s, Section) for s in self.sections):
            raise ArgumentError(f"Report: sections must be a tuple of Section, got {self.sections!r}")

    def format(self, fmt: str, jobs: int = 1, progress: Callable[[str], Any] | None = None) -> str:
        """Format as ``text``, ``markdown``, ``latex`` or ``json``; with ``jobs=2`` the equations are written in two
        processes (where :func:`frames.app._parallel.available`), the text the same. Nothing is kept on the report.

        With ``progress`` (a callable receiving step names, as :func:`analyze`'s) the equations are written in this
        process, section by section, each section announced as ``"writing section <id>"``: writing a large
        report takes seconds, and is never silent."""
        if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
            raise ArgumentError(f"Report.format: jobs must be a positive integer number of processes, got {jobs!r}")
        if progress is not None and not callable(progress):
            raise ArgumentError(
                f"Report.format: progress must be callable (it receives each step's name), got {progress!r}"
            )
        if progress is not None and fmt in _RENDER:
            written = self._render_by_section(_RENDER[fmt], progress)
        else:
            written = self._render(_RENDER[fmt]) if fmt in _RENDER and jobs > 1 else {}
        token = _RENDERED.set(written)
        try:
            if fmt == "text":
                return self.to_text()
            if fmt == "markdown":
                return self.to_markdown()
            if fmt == "latex":
                return self.to_latex()
            if fmt == "json":
                return json.dumps(self.to_json(), indent=2, ensure_ascii=False)
        finally:
            _RENDERED.reset(token)
        raise ArgumentError(f"Report.format: fmt: unknown report format {fmt!r}; use text, markdown, latex or json")

    def _render_by_section(self, what: tuple[str, ...], progress: Callable[[str], Any]) -> dict[int, dict[str, str]]:
        """The equations' strings (as :meth:`_render`), written here section by section, each announced."""
        out: dict[int, dict[str, str]] = {}
        for s in self.sections:
            items = [it for it in s.items if it.kind == "equation"]
            if not items:
                continue
            progress(f"writing section {s.id}")
            for it in items:
                out[id(it)] = {w: it.plain() if w == "plain" else it.latex for w in what}
        return out

    def _render(self, what: tuple[str, ...]) -> dict[int, dict[str, str]]:
        """The equations' ``plain`` and (or) ``latex`` strings, written in two processes, each item once, by
        ``id`` of the item (used by this one :meth:`format` call only)."""
        items = [it for s in self.sections for it in s.items if it.kind == "equation"]
        if len(items) < 2 or not _parallel.available():
            return {}

        def render(i: int) -> tuple[str, ...]:
            return tuple(items[i].plain() if w == "plain" else items[i].latex for w in what)

        done = _parallel.Worker(range(len(items)), render).run_all()
        return {id(items[i]): dict(zip(what, strings, strict=True)) for i, strings in done.items()}

    def to_text(self, width: int = 100) -> str:
        """Plain text; lines longer than ``width`` wrap at spaces (between terms), continuations indented."""
        out = [f"# {self.model}"]
        if self.citation:
            out.append(_wrap(f"citation: {self.citation}", width))
        for s in self.sections:
            out += ["", f"## {s.title}"]
            if s.status != "ok":
                out.append(f"(skipped: {s.note})")
            out += [_wrap(it.plain(), width) for it in s.items]
        return "\n".join(out)

    def to_markdown(self) -> str:
        out = [f"# {self.model}"]
        if self.citation:
            out.append(f"*{self.citation}*")
        for s in self.sections:
            out += ["", f"## {s.title}", ""]
            if s.status != "ok":
                out.append(f"> skipped: {s.note}")
            for it in s.items:
                if it.kind == "equation":
                    out.append(f"$$ {it.label_tex} = {it.latex} $$")
                elif it.kind == "verdict":
                    mark = {True: "**yes**", False: "**no**", None: "*undecided*"}[it.value]
                    out.append(f"- {it.label}: {mark}" + (f" — {it.text}" if it.text else ""))
                else:
                    out.append(f"- {it.label + ': ' if it.label else ''}`{it.text}`" if it.label else f"- {it.text}")
        return "\n".join(out) + "\n"

    def _repr_markdown_(self) -> str:
        """Jupyter: the Markdown form (equations as ``$$ … $$``)."""
        return self.to_markdown()

    def _repr_latex_(self) -> str:
        r"""Jupyter/MathJax: one ``aligned`` block, a row per item, section titles in bold.

        >>> import frames as fr
        >>> rep = fr.analyze(fr.models.knife_edge(), only=["nonholonomic"])
        >>> print(rep._repr_latex_().splitlines()[1])
        \textbf{knife-edge} \\
        """

        def txt(x: str) -> str:
            return r"\text{" + _mathjax_text(x) + "}"

        rows = [r"\textbf{" + _mathjax_text(self.model) + "}"]
        for s in self.sections:
            rows.append(r"\textbf{" + _mathjax_text(s.title) + "}")
            if s.status != "ok":
                rows.append(txt(f"skipped: {s.note}"))
            for it in s.items:
                if it.kind == "equation":
                    rows.append(f"{it.label_tex} &= {it.latex}")
                elif it.kind == "verdict":
                    rows.append(txt(f"{it.label}: " + {True: "yes", False: "no", None: "undecided"}[it.value]))
                else:
                    rows.append(txt(it.plain()))
        return "$\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}$"

    def to_latex(self) -> str:
        out = [
            r"\documentclass{article}",
            r"\usepackage{amsmath}",
            r"\usepackage[utf8]{inputenc}",
            r"\begin{document}",
            rf"\section*{{{_tex_escape(self.model)}}}",
        ]
        if self.citation:
            out.append(_tex_escape(self.citation))
        for s in self.sections:
            out.append(rf"\subsection*{{{_tex_escape(s.title)}}}")
            if s.status != "ok":
                out.append(r"\emph{skipped: " + _tex_escape(s.note) + "}")
            for it in s.items:
                if it.kind == "equation":
                    out += [r"\begin{equation*}", f"{it.label_tex} = {it.latex}", r"\end{equation*}"]
                elif it.kind == "verdict":
                    mark = {True: "yes", False: "no", None: "undecided"}[it.value]
                    out.append(r"\par\noindent " + _tex_escape(f"{it.label}: {mark}"))
                else:
                    out.append(r"\par\noindent " + _tex_escape(it.plain()))
        out.append(r"\end{document}")
        return "\n".join(out) + "\n"

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": "frames-analyze/1",
            "frames_version": __version__,
            "model": self.model,
            "citation": self.citation,
            "sections": [
                {
                    "id": s.id,
                    "title": s.title,
                    "status": s.status,
                    "note": s.note,
                    "items": [
                        {
                            "kind": it.kind,
                            "label": it.label,
                            "label_latex": it.label_tex,
                            "text": it.plain() if it.kind != "text" else it.text,
                            "latex": it.latex,
                            "value": it.value,
                        }
                        for it in s.items
                    ],
                }
                for s in self.sections
            ],
        }


def analyze(
    model: Any,
    only: Sequence[str] | None = None,
    *,
    budget: float | None = None,
    progress: Callable[[str], Any] | None = None,
    max_ops: int | None = DISPLAY_OPS_LIMIT,
    jobs: int = 1,
) -> Report:
    """Run the registered sections on ``model`` (all, or those in ``only``, in table order).

    A section which does not apply to the model is included with ``status="skipped"``
    and a note.

    Parameters
    ----------
    model : Model
        A model of the catalogue (:mod:`frames.models`) or one read from a system file.
    only : sequence of str, optional
        Section ids (``frames.app._report.SECTIONS``) to include.
    budget : float, optional
        Wall-clock seconds for the whole report (``None``: no limit). Each section is a step
        ``"section <id>"`` of the budget (see :func:`frames.budget`).
    progress : callable, optional
        Called with the name of each step as it starts (sections and the library's inner steps).
    max_ops : int or None, optional
        Expressions with more operations are not printed (a text item says so), and consistency
        conditions that large are decided at generic points without being formed
        (``strong_consistency(pointwise=True)``). ``None``: print everything. Default
        :data:`DISPLAY_OPS_LIMIT`.
    jobs : int, optional
        Processes (at most 2 are used; default 1). With 2, where the process can fork, a second process takes
        sections from the end of the list while this one takes them from the front (:mod:`frames.app._parallel`);
        the report is the same, item for item.

    Raises
    ------
    FramesError
        If ``model`` is not a model or ``only`` names an unknown section.
    BudgetExceededError
        If ``budget`` runs out; its ``step`` names the section (and inner step) that was running.
    """
    if not isinstance(model, Model):
        raise ArgumentError(f"analyze: model must be a frames Model, got {type(model).__name__}")
    if progress is not None and not callable(progress):
        raise ArgumentError(f"analyze: progress must be callable (it receives each step's name), got {progress!r}")
    if only is not None:
        if isinstance(only, str) or not isinstance(only, Sequence):
            raise ArgumentError(f"analyze: only must be a list of section ids, got {only!r}")
        bad = [s for s in only if s not in SECTIONS]
        if bad:
            raise FramesError(f"analyze: only: unknown report section(s) {bad}; known sections: {list(SECTIONS)}")
    if max_ops is not None and (isinstance(max_ops, bool) or not isinstance(max_ops, int) or max_ops < 1):
        raise ArgumentError(f"analyze: max_ops must be a positive integer or None, got {max_ops!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ArgumentError(f"analyze: jobs must be a positive integer number of processes, got {jobs!r}")
    a = Analysis(model)
    order = [sid for sid in SECTIONS if not only or sid in only]
    worker: _parallel.Worker | None = None

    def run(sid: str) -> Section:
        spec = SECTIONS[sid]
        try:
            with step(f"section {sid}"):
                return spec.fn(a)
        except SectionSkipped as exc:
            return Section(sid, spec.title, (), "skipped", str(exc))

    outer = current_budget()
    shown = progress if progress is not None else (outer.progress if outer is not None else None)

    def report(name: str) -> None:  # the progress callback: the worker's steps first
        if worker is not None:
            worker.forward(shown)
        shown(name)  # type: ignore[misc]  # (report is used only with a progress callback)

    token = _MAX_OPS.set(max_ops)
    try:
        with _budget(math.inf if budget is None else budget, progress=report if shown is not None else None):
            if jobs > 1 and len(order) > 1 and _parallel.available():
                worker = _parallel.Worker(order, run)
                done = worker.run_all(shown)
            else:
                done = {sid: run(sid) for sid in order}
    finally:
        _MAX_OPS.reset(token)
    return Report(model.name, model.citation, tuple(done[sid] for sid in order))
