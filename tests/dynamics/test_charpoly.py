"""Characteristic polynomials, certified critical values and the exact stability verdict (issues 44, 45)."""

from __future__ import annotations

import importlib.util
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import frames as fr
from frames.algebra import is_zero
from frames.dynamics import CriticalValue, Stability
from frames.dynamics._charpoly import berkowitz, hurwitz_determinant, interpolate

S = sp.Symbol("s")
OMEGA = sp.Symbol("Omega")


def _sleigh(V):
    mdl = fr.models.chaplygin_sleigh()
    th, x, y = mdl.chart.q
    ut, ux, uy = mdl.chart.u
    return fr.linearize(mdl.nonholonomic(), {th: 0, x: 0, y: 0, ut: 0, ux: V, uy: 0})


def _disc():
    mdl = fr.models.rolling_disc()
    nh = mdl.nonholonomic()
    x, y, psi, th, ph = nh.lagrangian.chart.q
    ux, uy, ups, uth, uph = nh.lagrangian.chart.u
    r = mdl.params["r"]
    at = {x: 0, y: 0, psi: 0, th: 0, ph: 0, ux: r * OMEGA, uy: 0, ups: 0, uth: 0, uph: OMEGA}
    return mdl, fr.linearize(nh, at)


def test_berkowitz_and_hurwitz_on_exact_matrices():
    rng = np.random.default_rng(3)
    for n in range(1, 6):
        M = sp.Matrix(n, n, [sp.Rational(int(k), 3) for k in rng.integers(-6, 7, n * n)])
        c = berkowitz(M.tolist(), one=sp.S.One)
        assert sp.expand(sum(ci * S ** (n - i) for i, ci in enumerate(c)) - M.charpoly(S).as_expr()) == 0
    c1, c2, c3, c4 = sp.symbols("c1:5")
    assert sp.expand(hurwitz_determinant([1, c1, c2, c3, c4], 3, sp.S.Zero) - (c1 * c2 * c3 - c3**2 - c1**2 * c4)) == 0
    assert interpolate([Fraction(k) for k in range(4)], [Fraction(k**3 - 2) for k in range(4)]) == [1, 0, 0, -2]


def test_the_sleighs_charpoly_names_the_conserved_speed_and_its_critical_speed_is_exactly_zero():
    V = sp.Symbol("V")
    lin = _sleigh(V)
    cp = lin.charpoly()
    assert cp.structural == 1 and [(s.name, why) for s, why in cp.zero_states] == [("v2", "conserved")]
    assert is_zero(sp.expand(cp.expr - lin.A.charpoly(S).as_expr()))
    vals = {"m": 1, "I": sp.Rational(1, 2), "a": sp.Rational(3, 10)}
    (cv,) = lin.certified_critical_values(V, (-1, sp.Rational(13, 10)), vals)
    assert isinstance(cv, CriticalValue) and cv.exact and cv.lo == cv.hi == 0
    assert (cv.kind, cv.before, cv.after) == ("real", "unstable", "asymptotically stable")
    assert lin.critical_values(V, np.linspace(-1.0, 1.3, 24), vals) == [0.0]  # not ±1e-13
    assert lin.critical_values(V, [-1, 1.3], vals, certify=True) == [cv]


def test_routhes_disc_has_the_exact_critical_spin_g_over_3r():
    mdl, lin = _disc()
    r, g = mdl.params["r"], mdl.params["g"]
    cp = lin.charpoly()
    assert cp.structural == 2  # two zero eigenvalues for every spin
    c_last = sp.numer(sp.together(cp.coeffs[-1]))
    roots = sp.roots(sp.Poly(c_last, OMEGA))
    assert len(roots) == 2 and all(is_zero(w**2 - g / (3 * r)) for w in roots)
    assert is_zero(cp.hurwitz(len(cp.coeffs) - 2))  # the lean mode is conservative: Δ_{m−1} ≡ 0
    # at numbers: the certified value is sqrt(g/3r), to 40 digits
    vals = {"m": 1, "r": sp.Rational(1, 2), "g": sp.Rational(981, 100)}
    (cv,) = lin.certified_critical_values(OMEGA, (sp.Rational(1, 2), 5), vals)
    assert (cv.kind, cv.before, cv.after) == ("real", "unstable", "marginal")
    exact = sp.sqrt(sp.Rational(981, 100) / sp.Rational(3, 2))
    lo, hi = cv.interval(40)
    assert lo <= exact <= hi and hi - lo < sp.Rational(1, 10**40)


def test_the_stability_verdict_separates_structural_zeros_and_stays_a_string():
    V = sp.Symbol("V")
    lin = _sleigh(V)
    vals = {"m": 1, "I": 0.5, "a": 0.3}
    st_ = lin.stability(vals | {"V": 2})
    assert isinstance(st_, Stability) and st_ == "marginal" and st_.reduced == "asymptotically stable"
    assert st_.structural == 1 and st_.extra_zeros == 0 and "v2 conserved" in st_.explain()
    with pytest.raises(AttributeError):
        st_.reduced = "x"  # type: ignore[misc]
    at0 = lin.stability(vals | {"V": 0})
    assert at0 == "marginal" and at0.extra_zeros == 1  # the turning rate is neutral at rest: counted exactly


def _off_axle():
    spec = importlib.util.spec_from_file_location(
        "off_axle", Path(__file__).resolve().parents[1] / "systems" / "test_off_axle_trailer.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_defective_zero_eigenvalue_is_marginal_not_unstable():
    """The off-axle trailer with a = c = 0 at V = 2: eigenvalues {0, 0, 0, −28/29} with a Jordan block at 0;
    numpy splits it into ±1.3e-8 (> the tolerance 1e-9), the exact characteristic polynomial does not."""
    mod = _off_axle()
    nh = mod.trailer_frames(mod.VALUES | {"a": sp.S.Zero, "c": sp.S.Zero})
    x, y, th, ps = nh.frame.chart.q
    ux, uy, w, wp = nh.frame.chart.u
    lin = fr.linearize(nh, {x: 0, y: 0, th: 0, ps: 0, ux: 2, uy: 0, w: 0, wp: 0})
    ev = sp.Matrix(lin.A).eigenvals()
    assert ev.get(0, 0) >= 2
    verdict = lin.stability()
    assert verdict == "marginal" and verdict.reduced != "unstable"
    assert verdict.structural + verdict.extra_zeros == ev[0]
    assert lin.stability({}, tol=0) == "marginal"  # zeros counted exactly: no tolerance needed


@pytest.mark.parametrize("tol", ["a", None, -1, float("nan"), float("inf"), True])
def test_stability_refuses_a_bad_tolerance(tol):
    lin = _sleigh(sp.Symbol("V"))
    with pytest.raises(fr.errors.ArgumentError, match=r"Linearization.stability: tol"):
        lin.stability({"m": 1, "I": 1, "a": 1, "V": 1}, tol=tol)


@pytest.mark.parametrize("vals", [{"m": 1e308, "V": 1e308, "a": 1e-10, "I": 1e-30}, {"V": 10**400}])
def test_eigenvalues_out_of_double_range_are_the_librarys_error(vals):
    """``A`` overflows double precision (numpy's LinAlgError before): the library's error naming subs."""
    lin = _sleigh(sp.Symbol("V"))
    with pytest.raises(fr.errors.ArgumentError, match=r"Linearization\.eigenvalues: subs"):
        lin.eigenvalues({"m": 1, "I": 1, "a": 1} | vals)


def test_certified_critical_values_refusals():
    V = sp.Symbol("V")
    lin = _sleigh(V)
    vals = {"m": 1, "I": 1, "a": 1}
    with pytest.raises(fr.errors.ArgumentError, match="parameter: W is not"):
        lin.certified_critical_values("W", (0, 1), vals)
    with pytest.raises(fr.errors.ArgumentError, match="not polynomial in m"):
        lin.certified_critical_values("m", (0, 1), {"V": 1, "I": 1, "a": 1})
    with pytest.raises(fr.errors.ArgumentError, match="lo < hi"):
        lin.certified_critical_values(V, (1, 0), vals)
    with pytest.raises(fr.errors.ArgumentError, match="digits"):
        lin.certified_critical_values(V, (0, 1), vals, digits=0)
    with pytest.raises(fr.errors.ArgumentError, match="certify"):
        lin.critical_values(V, [0, 1], vals, certify="yes")


# ----------------------------------------------------------------------------- property test
def _eig_class(M: sp.Matrix, x: Fraction, p: sp.Symbol) -> str:
    with mpmath.workdps(60):
        A = mpmath.matrix(M.xreplace({p: sp.Rational(x.numerator, x.denominator)}).tolist())
        re = [mpmath.re(e) for e in mpmath.eig(A, left=False, right=False)]
    if max(re) > mpmath.mpf(10) ** -40:
        return "unstable"
    return "asymptotically stable" if max(re) < -(mpmath.mpf(10) ** -40) else "marginal"


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(-4, 4), min_size=12, max_size=12))
def test_every_certified_value_brackets_a_class_change_and_none_is_missed(ks):
    """A random 3×3 ``A(p) = A0 + p A1 + p² A2`` with small integer entries (a companion-free, generic
    family): each certified value separates two classes seen by 60-digit eigenvalues on both sides, and on a
    fine sample the class changes only across certified values."""
    p = sp.Symbol("p")
    A = sp.Matrix(
        3,
        3,
        lambda i, j: ks[(3 * i + j) % 12] + p * ks[(3 * i + j + 5) % 12] - int(i == j) * p**2 * (1 + int(i + j) % 2),
    )
    from frames.dynamics._charpoly import critical_search

    lo, hi = Fraction(-3), Fraction(3)
    cvs = critical_search(A.tolist(), p, lo, hi, {}, 30)
    for cv in cvs:
        a, b = cv.interval(25)
        eps = Fraction(1, 10**20)
        left = _eig_class(A, Fraction(int(a.p), int(a.q)) - eps, p)
        right = _eig_class(A, Fraction(int(b.p), int(b.q)) + eps, p)
        assert (left, right) == (cv.before, cv.after) and left != right
    grid = [lo + (hi - lo) * Fraction(k, 97) for k in range(98)]
    classes = [_eig_class(A, x, p) for x in grid]
    for (x0, c0), (x1, c1) in zip(zip(grid, classes), zip(grid[1:], classes[1:])):
        if c0 != c1 and "marginal" not in (c0, c1):
            assert any(x0 <= float(cv.lo) and float(cv.hi) <= x1 for cv in cvs), (x0, x1, c0, c1)


def test_the_sleighs_stability_region_over_speed_and_offset():
    """The sleigh's turning eigenvalue −aVm/(I + a²m): stable where aV > 0, unstable where aV < 0; the boundary
    is c_m = aVm/(I + a²m), exactly; the denominator I + a² m has no zero in the box, so it is no boundary."""
    V = sp.Symbol("V")
    lin = _sleigh(V)
    reg = lin.stability_region({"V": (-2, 3), "a": (-1, 1)}, {"m": 1, "I": 1}, n=41)
    ((kind, c_m),) = reg.curves
    a = next(s for s in c_m.free_symbols if s.name == "a")
    assert kind == "real" and is_zero(c_m - V * a / (a**2 + 1))
    assert reg.classify({"V": 1, "a": 0.5}) == "asymptotically stable" == reg.classify({"V": -1, "a": -0.5})
    assert reg.classify({"V": -1, "a": 0.5}) == "unstable" == reg.classify({"V": 1, "a": -0.5})
    big = sorted(reg.cells, key=lambda c: -c.area)[:4]
    assert sorted(c.stability for c in big) == ["asymptotically stable"] * 2 + ["unstable"] * 2
    for cell in reg.cells:  # each class confirmed by the closed form at the sample
        v, aa = cell.sample
        ev = -aa * v / (1 + aa**2)
        assert cell.stability == ("unstable" if ev > 0 else "asymptotically stable" if ev < 0 else "marginal")
    with pytest.raises(fr.errors.ArgumentError, match=r"stability_region: params"):
        lin.stability_region({"V": (0, 1)}, {"m": 1, "I": 1})
    with pytest.raises(fr.errors.ArgumentError, match=r"stability_region: params\[V\]: expected lo < hi"):
        lin.stability_region({"V": (1, 0), "a": (0, 1)}, {"m": 1, "I": 1})
    with pytest.raises(fr.errors.ArgumentError, match=r"stability_region: subs: give values for \['I'\]"):
        lin.stability_region({"V": (0, 1), "a": (0, 1)}, {"m": 1})


@pytest.mark.parametrize("n", [1, 2])
def test_a_car_with_trailers_jackknifes_when_reversing_exactly_at_zero_speed(n):
    """``examples/compound_angles.py``'s car with n on-axle trailers about straight motion at speed V: the
    position is removed, the hitch angles kept (they follow the heading); the reduced polynomial's roots have the
    sign of −V, so the critical speed is exactly 0: unstable reversing (the jackknife), stable forwards."""
    spec = importlib.util.spec_from_file_location(
        "compound_angles", Path(__file__).resolve().parents[2] / "examples" / "compound_angles.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    nh = mod.car_with_trailers(n)
    ch = nh.lagrangian.chart
    V = sp.Symbol("V")
    lin = fr.linearize(nh, {q: 0 for q in ch.q} | {u: 0 for u in ch.u} | {ch.u[0]: V})
    assert [s.name for s in lin.removed] == ["x", "y"]
    cp = lin.charpoly()
    assert len(cp.coeffs) - 1 == n and cp.structural == len(lin.states) - n
    vals = {"m": 1, "J": sp.Rational(1, 2), "d": sp.Rational(3, 2), "m_t": sp.Rational(1, 2), "J_t": sp.Rational(1, 5)}
    (cv,) = lin.certified_critical_values(V, (-2, 2), vals)
    assert cv.exact and cv.lo == cv.hi == 0 and (cv.before, cv.after) == ("unstable", "asymptotically stable")
    assert lin.stability(vals | {"V": -1}) == "unstable" and lin.stability(vals | {"V": 1}).reduced == (
        "asymptotically stable"
    )
