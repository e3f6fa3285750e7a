"""Bad input to every public callable of the dynamics and natural layers: one table.

Each row makes one bad call on small fixtures (the nonholonomic particle, the knife edge for a
foreign chart, the Heisenberg distribution) and names the expected :class:`frames.FramesError`
subclass and a pattern that the message must match; the pattern contains the offending argument's
name. Rows with the code-injection payload check that no string reaches sympy's parser: the
sentinel file must never appear (last test). ``COVERED`` lists the public names with rows and
``RESULT_TYPES`` the result dataclasses (built by the library, not by users); a new public name of
the two layers in neither list fails :func:`test_every_public_dynamics_callable_has_rows`.
"""

from __future__ import annotations

import os
import tempfile

import pytest
import sympy as sp
from _bad_input import assert_payload_never_ran

import frames as fr
from frames import (
    CartanSystem,
    ChaplyginSystem,
    ChetaevSystem,
    CortesComparison,
    KozlovSystem,
    Lagrangian,
    ModifiedVakonomic,
    NonholonomicSystem,
    VakonomicSystem,
)
from frames.natural import Candidate, DisplacementClasses
from frames.results import Equations

SENTINEL = os.path.join(tempfile.mkdtemp(prefix="frames-bad-dynamics-"), "pwned")
INJ = f"__import__('pathlib').Path({SENTINEL!r}).touch()"

# ----------------------------------------------------------------------------- fixtures
_SLEIGH = fr.models.chaplygin_sleigh()
_LIN_SL = fr.linearize(
    _SLEIGH.nonholonomic(), {"theta": 0, "x": 0, "y": 0, "u_theta": 0, "u_x": sp.Symbol("V"), "u_y": 0}
)
_SL_VALS = {"m": 1, "I": 1, "a": 1, "V": 1}
P = fr.models.nonholonomic_particle()  # L = |u|²/2 on R³, D = span(∂1, ∂2 − q1 ∂3)
CH = P.chart
q1, q2, q3 = CH.q
u1, u2, u3 = CH.u
L = P.lagrangian
F = P.frame
X1, X2, X3 = F.fields
v1, v2, v3 = F.v
V = u3 + q1 * u2  # the constraint θ³(u) = 0
FY = fr.Frame([X1, X2 / sp.sqrt(1 + q1**2), X3], v="w")  # another adapted frame
FBAD = fr.Frame([X1, X3, X2])  # not adapted: X3 ∉ D
NH = NonholonomicSystem(L, F, 2)
VK = VakonomicSystem(L, F, 2)
LSING = Lagrangian(CH, u3**2 / 2)  # singular on D
VKSING = VakonomicSystem(LSING, F, 2)
CS = CartanSystem(F, L)
SOF = fr.SecondOrderField(F, [0, 0, 0], m=2)
SOF_TQ = fr.SecondOrderField(F, [0, 0, 0])
K = KozlovSystem(L, [V])
CHET = ChetaevSystem(L, [V])
MVM = ModifiedVakonomic(L, [V], [u1, u2])
CHAP = ChaplyginSystem(L, [X1, X2], [X3])
CC = CortesComparison(VK)
(PQ3,) = CC.p
CAND = Candidate((PQ3,), (PQ3,))

KE = fr.models.knife_edge()  # a foreign chart
LO, FO = KE.lagrangian, KE.frame
XO = FO.fields[0]

CH3 = fr.Chart("x y z")
x, y, z = CH3.q
HEIS = [fr.VectorField(CH3, [1, 0, -y / 2]), fr.VectorField(CH3, [0, 1, x / 2])]

t = sp.Symbol("t")
zz = sp.Symbol("zz")
CURVE = {q1: 1, q2: 2 * t, q3: -2 * t, v1: 0, v2: 2}
ZERO3 = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
BADW = [[INJ, 0, 0], [0, 0, 0], [0, 0, 0]]

E = fr.errors.InvalidExpressionError
A = fr.errors.ArgumentError
CM = fr.errors.ChartMismatchError
CE = fr.errors.ConstraintError
RE = fr.errors.RegularityError


ROWS = [
    # ---------------------------------------------------------------------- Lagrangian
    ("Lagrangian-expr-injection", lambda: Lagrangian(CH, INJ), E, r"^Lagrangian: expr: got the string"),
    ("Lagrangian-chart-injection", lambda: Lagrangian(INJ, u1), A, r"^Lagrangian: chart: expected a Chart"),
    ("Lagrangian-chart-int", lambda: Lagrangian(3, u1**2), A, r"^Lagrangian: chart: expected a Chart, got int"),
    ("Lagrangian-expr-nan", lambda: Lagrangian(CH, sp.nan), E, r"^Lagrangian: expr: .*not finite"),
    ("Lagrangian-expr-float-nan", lambda: Lagrangian(CH, float("nan")), E, r"^Lagrangian: expr: .*not finite"),
    ("Lagrangian-expr-zoo", lambda: Lagrangian(CH, u1 + sp.zoo), E, r"^Lagrangian: expr: .*not finite"),
    ("Lagrangian-expr-I", lambda: Lagrangian(CH, sp.I * u1**2), E, r"^Lagrangian: expr: .*complex"),
    ("Lagrangian-expr-None", lambda: Lagrangian(CH, None), E, r"^Lagrangian: expr: expected an expression"),
    ("Lagrangian-expr-bool", lambda: Lagrangian(CH, True), E, r"^Lagrangian: expr: expected an expression"),
    (
        "Lagrangian-expr-matrix",
        lambda: Lagrangian(CH, sp.Matrix([u1])),
        E,
        r"^Lagrangian: expr: expected a sympy expression",
    ),
    ("Lagrangian-expr-undeclared", lambda: Lagrangian(CH, zz * u1**2), E, r"^Lagrangian: expr: .*uses symbols"),
    (
        "Lagrangian-params-injection",
        lambda: Lagrangian(CH, u1**2, params=INJ),
        E,
        r"^Lagrangian: params: .*not a valid",
    ),
    ("Lagrangian.in_frame-frame-int", lambda: L.in_frame(3), A, r"^Lagrangian.in_frame: frame: expected a Frame"),
    ("Lagrangian.in_frame-frame-injection", lambda: L.in_frame(INJ), A, r"^Lagrangian.in_frame: frame: expected"),
    ("Lagrangian.hessian-frame-chart", lambda: L.hessian(FO), CM, r"^Lagrangian.hessian: frame: lives on"),
    ("Lagrangian.energy-frame-list", lambda: L.energy([X1, X2, X3]), A, r"^Lagrangian.energy: frame: expected"),
    ("Lagrangian.momenta-frame-chart", lambda: L.momenta(FO), CM, r"^Lagrangian.momenta: frame: lives on"),
    ("Lagrangian.is_regular-frame-int", lambda: L.is_regular(1), A, r"^Lagrangian.is_regular: frame: expected"),
    ("Lagrangian.hessian_rank-frame-chart", lambda: L.hessian_rank(FO), CM, r"^Lagrangian.hessian_rank: frame"),
    (
        "Lagrangian.euler_lagrange_field-frame-chart",
        lambda: L.euler_lagrange_field(FO),
        CM,
        r"^Lagrangian.euler_lagrange_field: frame: lives on",
    ),
    (
        "Lagrangian.euler_lagrange_field-singular",
        lambda: LSING.euler_lagrange_field(),
        RE,
        r"^Lagrangian .* is not regular: .*rank 1 < 3",
    ),
    ("Lagrangian.check_regular-singular", lambda: LSING.check_regular(F), RE, r"^Lagrangian .* not regular.*rank 1"),
    (
        "Lagrangian.hamel_equations-kinematic-int",
        lambda: L.hamel_equations(kinematic=1),
        A,
        r"^Lagrangian.hamel_equations: kinematic: expected True or False",
    ),
    (
        "Lagrangian.hamel_equations-kinematic-injection",
        lambda: L.hamel_equations(kinematic=INJ),
        A,
        r"^Lagrangian.hamel_equations: kinematic: expected True or False",
    ),
    ("Lagrangian.epsilon-Z-int", lambda: L.epsilon(3, SOF), A, r"^Lagrangian.epsilon: Z: expected a VectorField"),
    ("Lagrangian.epsilon-Gamma-injection", lambda: L.epsilon(X1, INJ), A, r"^Lagrangian.epsilon: Gamma: expected"),
    ("Lagrangian.epsilon-Z-chart", lambda: L.epsilon(XO, SOF), CM, r"^Lagrangian.epsilon: Z: lives on"),
    ("Lagrangian.with_expr-injection", lambda: L.with_expr(INJ), E, r"^Lagrangian.with_expr: expr: got the string"),
    ("Lagrangian.with_expr-nan", lambda: L.with_expr(sp.nan), E, r"^Lagrangian.with_expr: expr: .*not finite"),
    # ---------------------------------------------------------------------- Equations
    ("Equations-injection", lambda: Equations(INJ), E, r"^Equations: eqs: got the string"),
    ("Equations-int", lambda: Equations(3), A, r"^Equations: eqs: expected a sequence of sympy equations"),
    ("Equations-dict", lambda: Equations({}), A, r"^Equations: eqs: expected a sequence"),
    ("Equations-item-int", lambda: Equations([1]), A, r"^Equations: eqs\[0\]: expected a sympy equation"),
    ("Equations-item-injection", lambda: Equations([INJ]), A, r"^Equations: eqs\[0\]: expected a sympy equation"),
    ("Equations-item-expr", lambda: Equations([sp.Eq(q1, 1), q1]), A, r"^Equations: eqs\[1\]: expected"),
    # ---------------------------------------------------------------------- CartanSystem
    ("CartanSystem-frame-int", lambda: CartanSystem(3, L), A, r"^CartanSystem: frame: expected a Frame"),
    ("CartanSystem-frame-injection", lambda: CartanSystem(INJ, L), A, r"^CartanSystem: frame: expected a Frame"),
    ("CartanSystem-lagrangian-injection", lambda: CartanSystem(F, INJ), E, r"^CartanSystem: lagrangian: got the"),
    ("CartanSystem-lagrangian-None", lambda: CartanSystem(F, None), E, r"^CartanSystem: lagrangian: expected an"),
    ("CartanSystem-lagrangian-nan", lambda: CartanSystem(F, v1 + sp.nan), E, r"^CartanSystem: lagrangian: .*finite"),
    ("CartanSystem-lagrangian-chart", lambda: CartanSystem(F, LO), CM, r"^CartanSystem: lagrangian: lives on"),
    ("CartanSystem-lagrangian-u", lambda: CartanSystem(F, u1**2), E, r"^CartanSystem: lagrangian: .*natural velo"),
    ("CartanSystem-extra-injection", lambda: CartanSystem(F, L, INJ), E, r"^CartanSystem: extra: got the string"),
    ("CartanSystem-extra-int", lambda: CartanSystem(F, L, [1]), A, r"^CartanSystem: extra\[0\]: expected a sympy"),
    ("CartanSystem-extra-clash", lambda: CartanSystem(F, L, [q1]), E, r"^CartanSystem: extra: .*clash"),
    (
        "CartanSystem.vakonomic-m-bool",
        lambda: CartanSystem.vakonomic(L, F, True),
        A,
        r"^CartanSystem.vakonomic: m: expected an integer",
    ),
    ("CartanSystem.vakonomic-m-range", lambda: CartanSystem.vakonomic(L, F, 3), CE, r"^CartanSystem.vakonomic: m: "),
    (
        "CartanSystem.vakonomic-mu-injection",
        lambda: CartanSystem.vakonomic(L, F, 2, mu=INJ),
        E,
        r"^CartanSystem.vakonomic: mu: .*not a valid name prefix",
    ),
    (
        "CartanSystem.vakonomic-lagrangian-expr",
        lambda: CartanSystem.vakonomic(u1**2, F, 2),
        A,
        r"^CartanSystem.vakonomic: lagrangian: expected a Lagrangian",
    ),
    ("CartanSystem.theta-i-range", lambda: CS.theta(5), A, r"^CartanSystem.theta: i: must be ≤ 2"),
    ("CartanSystem.apply-f-injection", lambda: CS.apply([0] * 6, INJ), E, r"^CartanSystem.apply: f: got the string"),
    ("CartanSystem.apply-Y-length", lambda: CS.apply([0], q1), E, r"^CartanSystem.apply: Y: expected 6 entries"),
    (
        "CartanSystem.residual-Gamma-injection",
        lambda: CS.residual([INJ] * 6),
        E,
        r"^CartanSystem.residual: Gamma\[0\]: got the string",
    ),
    # ---------------------------------------------------------------------- NonholonomicSystem
    ("NonholonomicSystem-m-bool", lambda: NonholonomicSystem(L, F, True), A, r"^NonholonomicSystem: m: expected an"),
    ("NonholonomicSystem-m-injection", lambda: NonholonomicSystem(L, F, INJ), A, r"^NonholonomicSystem: m: expected"),
    ("NonholonomicSystem-m-float", lambda: NonholonomicSystem(L, F, 2.0), A, r"^NonholonomicSystem: m: expected"),
    ("NonholonomicSystem-m-range", lambda: NonholonomicSystem(L, F, 3), CE, r"^NonholonomicSystem: m: .*0 < m < n"),
    ("NonholonomicSystem-m-zero", lambda: NonholonomicSystem(L, F, 0), CE, r"^NonholonomicSystem: m: m = 0 must"),
    (
        "NonholonomicSystem-forces-injection",
        lambda: NonholonomicSystem(L, F, 2, forces=INJ),
        E,
        r"^NonholonomicSystem: forces: expected a sequence",
    ),
    (
        "NonholonomicSystem-forces-element-injection",
        lambda: NonholonomicSystem(L, F, 2, forces=[INJ, 0, 0]),
        E,
        r"^NonholonomicSystem: forces\[0\]: got the string",
    ),
    (
        "NonholonomicSystem-forces-length",
        lambda: NonholonomicSystem(L, F, 2, forces=[0]),
        E,
        r"^NonholonomicSystem: forces",
    ),
    (
        "NonholonomicSystem-forces-undeclared",
        lambda: NonholonomicSystem(L, F, 2, forces=[sp.Symbol("zz9"), 0, 0]),
        E,
        r"^NonholonomicSystem: forces\[0\]: .*declared parameters",
    ),
    (
        "NonholonomicSystem-lagrangian-expr",
        lambda: NonholonomicSystem(u1**2, F, 2),
        A,
        r"^NonholonomicSystem: lagrangian: expected a Lagrangian",
    ),
    (
        "NonholonomicSystem-lagrangian-injection",
        lambda: NonholonomicSystem(INJ, F, 2),
        A,
        r"^NonholonomicSystem: lagrangian: expected a Lagrangian",
    ),
    ("NonholonomicSystem-frame-list", lambda: NonholonomicSystem(L, [X1, X2, X3], 2), A, r"^NonholonomicSystem: frame"),
    ("NonholonomicSystem-frame-chart", lambda: NonholonomicSystem(L, FO, 2), CM, r"^NonholonomicSystem: frame: lives"),
    (
        "NonholonomicSystem.field-singular",
        lambda: NonholonomicSystem(LSING, F, 2).field(),
        RE,
        r"^NonholonomicSystem.field: lagrangian: .*not regular with respect to D",
    ),
    (
        "NonholonomicSystem.from_constraints-constraints-list",
        lambda: NonholonomicSystem.from_constraints(L, [V]),
        A,
        r"^NonholonomicSystem.from_constraints: constraints: expected LinearConstraints",
    ),
    (
        "NonholonomicSystem.from_constraints-constraints-injection",
        lambda: NonholonomicSystem.from_constraints(L, INJ),
        A,
        r"^NonholonomicSystem.from_constraints: constraints: expected",
    ),
    (
        "NonholonomicSystem.from_constraints-lagrangian-int",
        lambda: NonholonomicSystem.from_constraints(1, P.constraints),
        A,
        r"^NonholonomicSystem.from_constraints: lagrangian: expected a Lagrangian",
    ),
    (
        "NonholonomicSystem.from_constraints-chart",
        lambda: NonholonomicSystem.from_constraints(L, KE.constraints),
        CM,
        r"^NonholonomicSystem.from_constraints: constraints: lives on",
    ),
    ("NonholonomicSystem.in_frame-frame-int", lambda: NH.in_frame(3), A, r"^NonholonomicSystem.in_frame: frame: exp"),
    ("NonholonomicSystem.in_frame-chart", lambda: NH.in_frame(FO), CM, r"^NonholonomicSystem.in_frame: frame: lives"),
    (
        "NonholonomicSystem.in_frame-not-in-D",
        lambda: NH.in_frame(FBAD),
        CE,
        r"^NonholonomicSystem.in_frame: frame: field 2 .* not in D",
    ),
    (
        "NonholonomicSystem.transformed-frame-injection",
        lambda: NH.transformed(INJ),
        A,
        r"^NonholonomicSystem.transformed: frame: expected a Frame",
    ),
    (
        "NonholonomicSystem.transformed-not-adapted",
        lambda: NH.transformed(FBAD),
        CE,
        r"^NonholonomicSystem.transformed: frame: Y2 .* not in D",
    ),
    # ---------------------------------------------------------------------- frame changes
    (
        "change_of_adapted_frame-m-range",
        lambda: fr.dynamics.change_of_adapted_frame(F, F, 7),
        CE,
        r"^change_of_adapted_frame: m",
    ),
    (
        "change_of_adapted_frame-m-bool",
        lambda: fr.dynamics.change_of_adapted_frame(F, F, True),
        A,
        r"^change_of_adapted_frame: m",
    ),
    (
        "change_of_adapted_frame-m-injection",
        lambda: fr.dynamics.change_of_adapted_frame(F, F, INJ),
        A,
        r"^change_of_adapted_frame: m: expected an integer",
    ),
    (
        "change_of_adapted_frame-old-int",
        lambda: fr.dynamics.change_of_adapted_frame(3, F, 2),
        A,
        r"^change_of_adapted_frame: old: expected a Frame",
    ),
    (
        "change_of_adapted_frame-new-injection",
        lambda: fr.dynamics.change_of_adapted_frame(F, INJ, 2),
        A,
        r"^change_of_adapted_frame: new: expected a Frame",
    ),
    (
        "change_of_adapted_frame-chart",
        lambda: fr.dynamics.change_of_adapted_frame(F, FO, 2),
        CM,
        r"^change_of_adapted_frame: new",
    ),
    (
        "change_of_adapted_frame-not-in-D",
        lambda: fr.dynamics.change_of_adapted_frame(F, FBAD, 2),
        CE,
        r"^change_of_adapted_frame: new: Y2 .* not in D",
    ),
    (
        "transform_field-field-int",
        lambda: fr.dynamics.transform_field(3, F),
        A,
        r"^transform_field: field: expected a Second",
    ),
    (
        "transform_field-field-injection",
        lambda: fr.dynamics.transform_field(INJ, F),
        A,
        r"^transform_field: field: expected",
    ),
    (
        "transform_field-new-int",
        lambda: fr.dynamics.transform_field(SOF, 3),
        A,
        r"^transform_field: new: expected a Frame",
    ),
    (
        "transform_field-field-on-TQ",
        lambda: fr.dynamics.transform_field(SOF_TQ, FY),
        CE,
        r"^transform_field: field: .*m is None",
    ),
    (
        "transform_field-not-adapted",
        lambda: fr.dynamics.transform_field(SOF, FBAD),
        CE,
        r"^transform_field: new: Y2 .*not in D",
    ),
    ("transform_field-chart", lambda: fr.dynamics.transform_field(SOF, FO), CM, r"^transform_field: new: lives on"),
    (
        "transform_multipliers-multipliers-injection",
        lambda: fr.dynamics.transform_multipliers([INJ], F, FY, 2),
        E,
        r"^transform_multipliers: multipliers\[0\]: got the string",
    ),
    (
        "transform_multipliers-multipliers-length",
        lambda: fr.dynamics.transform_multipliers([0, 0], F, FY, 2),
        E,
        r"^transform_multipliers: multipliers: expected 1 entries",
    ),
    (
        "transform_multipliers-multipliers-nan",
        lambda: fr.dynamics.transform_multipliers([sp.nan], F, FY, 2),
        E,
        r"^transform_multipliers: multipliers\[0\]: .*not finite",
    ),
    (
        "transform_multipliers-m-range",
        lambda: fr.dynamics.transform_multipliers([0], F, FY, 5),
        CE,
        r"^transform_multipliers: m",
    ),
    (
        "transform_multipliers-old-int",
        lambda: fr.dynamics.transform_multipliers([0], 1, FY, 2),
        A,
        r"^transform_multipliers: old",
    ),
    (
        "transform_multipliers-not-adapted",
        lambda: fr.dynamics.transform_multipliers([0], F, FBAD, 2),
        CE,
        r"^transform_multipliers: new: Y2 .*not in D",
    ),
    # ---------------------------------------------------------------------- VakonomicSystem
    ("VakonomicSystem-m-bool", lambda: VakonomicSystem(L, F, True), A, r"^VakonomicSystem: m: expected an integer"),
    ("VakonomicSystem-m-range", lambda: VakonomicSystem(L, F, 3), CE, r"^VakonomicSystem: m: m = 3 must"),
    ("VakonomicSystem-lagrangian-expr", lambda: VakonomicSystem(u1, F, 2), A, r"^VakonomicSystem: lagrangian: exp"),
    ("VakonomicSystem-frame-chart", lambda: VakonomicSystem(L, FO, 2), CM, r"^VakonomicSystem: frame: lives on"),
    ("VakonomicSystem-mu-injection", lambda: VakonomicSystem(L, F, 2, mu=INJ), E, r"^VakonomicSystem: mu: .*prefix"),
    ("VakonomicSystem-A-int", lambda: VakonomicSystem(L, F, 2, A=3), A, r"^VakonomicSystem: A: expected a sequence"),
    ("VakonomicSystem-mu-clash", lambda: VakonomicSystem(L, F, 2, mu=[q1]), E, r"^VakonomicSystem: mu, A: .*clash"),
    (
        "VakonomicSystem-mu-length",
        lambda: VakonomicSystem(L, F, 2, mu=sp.symbols("a b")),
        E,
        r"^VakonomicSystem: mu: need 1 symbols",
    ),
    (
        "VakonomicSystem.from_nonholonomic-nh-lagrangian",
        lambda: VakonomicSystem.from_nonholonomic(L),
        A,
        r"^VakonomicSystem.from_nonholonomic: nh: expected a NonholonomicSystem",
    ),
    ("VakonomicSystem.section-phi-injection", lambda: VK.section(INJ), E, r"^VakonomicSystem.section: phi: got the"),
    (
        "VakonomicSystem.section-phi-item-injection",
        lambda: VK.section([INJ]),
        E,
        r"^VakonomicSystem.section: phi\[0\]: got the string",
    ),
    ("VakonomicSystem.section-phi-length", lambda: VK.section([0, 0]), E, r"^VakonomicSystem.section: phi: expected 1"),
    ("VakonomicSystem.section-phi-u", lambda: VK.section([u1]), E, r"^VakonomicSystem.section: phi\[0\]: .*natural"),
    ("VakonomicSystem.section-phi-nan", lambda: VK.section([sp.nan]), E, r"^VakonomicSystem.section: phi\[0\]: .*fin"),
    ("VakonomicSystem.section-phi-dict", lambda: VK.section({}), A, r"^VakonomicSystem.section: phi: expected a seq"),
    ("VakonomicSystem.field-section-injection", lambda: VK.field([INJ]), E, r"^VakonomicSystem.field: section\[0\]"),
    ("VakonomicSystem.field-A-injection", lambda: VK.field(None, [INJ]), E, r"^VakonomicSystem.field: A\[0\]: got"),
    ("VakonomicSystem.field-A-length", lambda: VK.field(None, [0, 0]), E, r"^VakonomicSystem.field: A: expected 1"),
    ("VakonomicSystem.field-singular", lambda: VKSING.field(), RE, r"^VakonomicSystem.field: lagrangian: .*regular"),
    (
        "VakonomicSystem.tangent_field-section-injection",
        lambda: VK.tangent_field(INJ),
        E,
        r"^VakonomicSystem.tangent_field: section: got the string",
    ),
    (
        "VakonomicSystem.tangent_field-singular",
        lambda: VKSING.tangent_field(),
        RE,
        r"^VakonomicSystem: lagrangian: .*not regular with respect to D",
    ),
    (
        "VakonomicSystem.check_regularity-singular",
        lambda: VKSING.check_regularity(),
        RE,
        r"^VakonomicSystem: lagrangian: .*not regular with respect to D",
    ),
    (
        "VakonomicSystem.tangency_conditions-section-length",
        lambda: VK.tangency_conditions([0, 1]),
        E,
        r"^VakonomicSystem.tangency_conditions: section: expected 1",
    ),
    (
        "VakonomicSystem.extension-section-injection",
        lambda: VK.extension([INJ]),
        E,
        r"^VakonomicSystem.extension: section\[0\]: got the string",
    ),
    (
        "VakonomicSystem.variational_lagrangian-extension-injection",
        lambda: VK.variational_lagrangian(None, [INJ]),
        E,
        r"^VakonomicSystem.variational_lagrangian: extension\[0\]: got the string",
    ),
    (
        "VakonomicSystem.variational_lagrangian-extension-off-section",
        lambda: VK.variational_lagrangian([0], [q1]),
        CE,
        r"^VakonomicSystem.variational_lagrangian: extension\[0\]: q1 does not restrict",
    ),
    (
        "VakonomicSystem.variational_lagrangian-extension-length",
        lambda: VK.variational_lagrangian([0], [0, 0]),
        E,
        r"^VakonomicSystem.variational_lagrangian: extension: expected 1",
    ),
    (
        "VakonomicSystem.variational_check-el_field-int",
        lambda: VK.variational_check([0], el_field=1),
        A,
        r"^VakonomicSystem.variational_check: el_field: expected True or False",
    ),
    (
        "VakonomicSystem.variational_check-subs-injection",
        lambda: VK.variational_check([0], subs={q1: INJ}),
        E,
        r"^VakonomicSystem.variational_check: subs\[q1\]: got the string",
    ),
    (
        "VakonomicSystem.variational_check-subs-key-string",
        lambda: VK.variational_check([0], subs={"q1": 1}),
        E,
        r"^VakonomicSystem.variational_check: subs: key 'q1' is not a sympy symbol",
    ),
    (
        "VakonomicSystem.variational_check-section-injection",
        lambda: VK.variational_check(INJ),
        E,
        r"^VakonomicSystem.variational_check: section: got the string",
    ),
    (
        "VakonomicSystem.vakonomic_residuals-Gamma-length",
        lambda: VK.vakonomic_residuals([0], [0], [0]),
        E,
        r"^VakonomicSystem.vakonomic_residuals: Gamma: expected 3 entries",
    ),
    (
        "VakonomicSystem.vakonomic_residuals-A-injection",
        lambda: VK.vakonomic_residuals([0, 0, 0], [INJ], [0]),
        E,
        r"^VakonomicSystem.vakonomic_residuals: A\[0\]: got the string",
    ),
    # ---------------------------------------------------------------------- ChaplyginSystem
    ("ChaplyginSystem-lagrangian-int", lambda: ChaplyginSystem(3, [X1, X2], [X3]), A, r"^ChaplyginSystem: lagrangian"),
    (
        "ChaplyginSystem-horizontal-injection",
        lambda: ChaplyginSystem(L, INJ, [X3]),
        E,
        r"^ChaplyginSystem: horizontal: got the string",
    ),
    (
        "ChaplyginSystem-generators-item-int",
        lambda: ChaplyginSystem(L, [X1, X2], [3]),
        A,
        r"^ChaplyginSystem: generators\[0\]: expected a VectorField",
    ),
    (
        "ChaplyginSystem-horizontal-chart",
        lambda: ChaplyginSystem(L, [XO, X2], [X3]),
        CM,
        r"^ChaplyginSystem: horizontal\[0\]: lives on",
    ),
    (
        "ChaplyginSystem-generators-empty",
        lambda: ChaplyginSystem(L, [X1, X2], []),
        CE,
        r"^ChaplyginSystem: horizontal, generators: need at least one",
    ),
    (
        "ChaplyginSystem-structure_constants-injection",
        lambda: ChaplyginSystem(L, [X1, X2], [X3], {(0, 0): {0: INJ}}),
        E,
        r"^ChaplyginSystem: structure_constants\[\(0, 0\)\]\[0\]: got the string",
    ),
    (
        "ChaplyginSystem-structure_constants-index",
        lambda: ChaplyginSystem(L, [X1, X2], [X3], {(0, 5): {0: 1}}),
        A,
        r"^ChaplyginSystem: structure_constants: key \(0, 5\): must be ≤ 0",
    ),
    (
        "ChaplyginSystem-structure_constants-int",
        lambda: ChaplyginSystem(L, [X1, X2], [X3], 3),
        A,
        r"^ChaplyginSystem: structure_constants: expected a mapping",
    ),
    (
        "ChaplyginSystem-check-int",
        lambda: ChaplyginSystem(L, [X1, X2], [X3], check=1),
        A,
        r"^ChaplyginSystem: check: expected True or False",
    ),
    (
        "ChaplyginSystem-v-injection",
        lambda: ChaplyginSystem(L, [X1, X2], [X3], v=INJ),
        E,
        r"^ChaplyginSystem: v: .*not a valid name prefix",
    ),
    (
        "ChaplyginSystem-lagrangian-not-invariant",
        lambda: ChaplyginSystem(Lagrangian(CH, u1**2 / 2 + u2**2 / 2 + q3 * u3**2 / 2), [X1, X2], [X3]),
        CE,
        r"^ChaplyginSystem: lagrangian: L is not invariant",
    ),
    (
        "ChaplyginSystem.from_model-model-int",
        lambda: ChaplyginSystem.from_model(3),
        A,
        r"^ChaplyginSystem.from_model: model: expected a frames.models.Model",
    ),
    (
        "ChaplyginSystem.momenta-on_C-string",
        lambda: CHAP.momenta(on_C="yes"),
        A,
        r"^ChaplyginSystem.momenta: on_C: expected True or False",
    ),
    (
        "ChaplyginSystem.consistency-kind",
        lambda: CHAP.consistency("medium"),
        A,
        r"^ChaplyginSystem.consistency: kind: must be one of 'strong', 'weak'",
    ),
    (
        "ChaplyginSystem.invariant_measure_density-volume",
        lambda: CHAP.invariant_measure_density(INJ),
        A,
        r"^ChaplyginSystem.invariant_measure_density: volume: must be one of",
    ),
    (
        "ChaplyginSystem.is_invariant_density-N-injection",
        lambda: CHAP.is_invariant_density(INJ),
        E,
        r"^ChaplyginSystem.is_invariant_density: N: got the string",
    ),
    (
        "ChaplyginSystem.is_invariant_density-volume",
        lambda: CHAP.is_invariant_density(1, volume="mass"),
        A,
        r"^ChaplyginSystem.is_invariant_density: volume: must be one of",
    ),
    # ---------------------------------------------------------------------- consistency
    ("weak_consistency-vk-nh", lambda: fr.weak_consistency(NH, [0]), A, r"^weak_consistency: vk: expected a Vakon"),
    ("weak_consistency-vk-object", lambda: fr.weak_consistency(object(), [0]), A, r"^weak_consistency: vk: expected"),
    ("weak_consistency-section-injection", lambda: fr.weak_consistency(VK, [INJ]), E, r"^weak_consistency: section\[0"),
    ("weak_consistency-section-string", lambda: fr.weak_consistency(VK, INJ), E, r"^weak_consistency: section: got"),
    ("weak_consistency-section-length", lambda: fr.weak_consistency(VK, [0, 0]), E, r"^weak_consistency: section: ex"),
    ("weak_consistency-section-u", lambda: fr.weak_consistency(VK, [u2]), E, r"^weak_consistency: section\[0\]: .*nat"),
    (
        "weak_consistency-subs-injection",
        lambda: fr.weak_consistency(VK, [0], {q1: INJ}),
        E,
        r"^weak_consistency: subs\[q1\]: got the string",
    ),
    ("weak_consistency-subs-int", lambda: fr.weak_consistency(VK, [0], 3), E, r"^weak_consistency: subs: expected a"),
    ("strong_consistency-vk-int", lambda: fr.strong_consistency(1, [0]), A, r"^strong_consistency: vk: expected a Vak"),
    (
        "strong_consistency-section-injection",
        lambda: fr.strong_consistency(VK, [INJ]),
        E,
        r"^strong_consistency: section\[0\]: got the string",
    ),
    ("strong_consistency-section-nan", lambda: fr.strong_consistency(VK, [sp.zoo]), E, r"^strong_consistency: section"),
    (
        "strong_consistency-subs-injection",
        lambda: fr.strong_consistency(VK, [0], {q1: INJ}),
        E,
        r"^strong_consistency: subs\[q1\]: got the string",
    ),
    ("vakonomic_lift-vk-int", lambda: fr.vakonomic_lift(2, [0]), A, r"^vakonomic_lift: vk: expected a VakonomicSystem"),
    ("vakonomic_lift-section-injection", lambda: fr.vakonomic_lift(VK, [INJ]), E, r"^vakonomic_lift: section\[0\]: go"),
    ("vakonomic_lift-section-length", lambda: fr.vakonomic_lift(VK, []), E, r"^vakonomic_lift: section: expected 1"),
    ("vakonomic_lift-section-I", lambda: fr.vakonomic_lift(VK, [sp.I]), E, r"^vakonomic_lift: section\[0\]: .*complex"),
    ("find_sections-vk-nh", lambda: fr.find_sections(NH, [0]), A, r"^find_sections: vk: expected a VakonomicSystem"),
    ("find_sections-ansatz-injection", lambda: fr.find_sections(VK, [INJ]), E, r"^find_sections: ansatz\[0\]: got the"),
    ("find_sections-ansatz-string", lambda: fr.find_sections(VK, INJ), E, r"^find_sections: ansatz: got the string"),
    ("find_sections-ansatz-length", lambda: fr.find_sections(VK, [0, 0]), E, r"^find_sections: ansatz: expected 1"),
    (
        "find_sections-unknowns-injection",
        lambda: fr.find_sections(VK, [0], [INJ]),
        E,
        r"^find_sections: unknowns\[0\]: got the string",
    ),
    (
        "find_sections-unknowns-int",
        lambda: fr.find_sections(VK, [0], [1]),
        A,
        r"^find_sections: unknowns\[0\]: expected",
    ),
    ("find_sections-kind", lambda: fr.find_sections(VK, [0], kind="medium"), A, r"^find_sections: kind: must be one"),
    ("find_sections-kind-injection", lambda: fr.find_sections(VK, [0], kind=INJ), A, r"^find_sections: kind: must be"),
    (
        "find_sections-functions-symbol",
        lambda: fr.find_sections(VK, [0], functions=[q1]),
        A,
        r"^find_sections: functions\[0\]: expected an unknown function of one variable",
    ),
    (
        "find_sections-solve_for-injection",
        lambda: fr.find_sections(VK, [0], solve_for=INJ),
        E,
        r"^find_sections: solve_for: got the string",
    ),
    (
        "consistency_along_motion-vk-int",
        lambda: fr.consistency_along_motion(3, CURVE, [0], t),
        A,
        r"^consistency_along_motion: vk: expected a VakonomicSystem",
    ),
    (
        "consistency_along_motion-curve-int",
        lambda: fr.consistency_along_motion(VK, 3, [0], t),
        A,
        r"^consistency_along_motion: curve: expected a mapping",
    ),
    (
        "consistency_along_motion-curve-injection",
        lambda: fr.consistency_along_motion(VK, CURVE | {q1: INJ}, [0], t),
        E,
        r"^consistency_along_motion: curve\[q1\]: got the string",
    ),
    (
        "consistency_along_motion-curve-missing",
        lambda: fr.consistency_along_motion(VK, {q1: 1}, [0], t),
        E,
        r"^consistency_along_motion: curve: gives no value for \[q2, q3, v1, v2\]",
    ),
    (
        "consistency_along_motion-curve-key-string",
        lambda: fr.consistency_along_motion(VK, CURVE | {"q1": 1}, [0], t),
        A,
        r"^consistency_along_motion: curve: key 'q1' is not a sympy Symbol",
    ),
    (
        "consistency_along_motion-curve-unknown-key",
        lambda: fr.consistency_along_motion(VK, CURVE | {zz: 1}, [0], t),
        A,
        r"^consistency_along_motion: curve: unknown key zz",
    ),
    (
        "consistency_along_motion-curve-off-C",
        lambda: fr.consistency_along_motion(VK, CURVE | {v3: 1}, [0], t),
        CE,
        r"^consistency_along_motion: curve: v3 = 1 ≠ 0; the curve must lie on C",
    ),
    (
        "consistency_along_motion-curve-not-in-D",
        lambda: fr.consistency_along_motion(VK, CURVE | {q3: 5 * t}, [0], t),
        CE,
        r"^consistency_along_motion: curve: dq3/dt .* not tangent to D",
    ),
    (
        "consistency_along_motion-psi0-injection",
        lambda: fr.consistency_along_motion(VK, CURVE, [INJ], t),
        E,
        r"^consistency_along_motion: psi0\[0\]: got the string",
    ),
    (
        "consistency_along_motion-psi0-length",
        lambda: fr.consistency_along_motion(VK, CURVE, [0, 0], t),
        E,
        r"^consistency_along_motion: psi0: expected 1 entries",
    ),
    (
        "consistency_along_motion-t-injection",
        lambda: fr.consistency_along_motion(VK, CURVE, [0], INJ),
        E,
        r"^consistency_along_motion: t: got the string",
    ),
    (
        "consistency_along_motion-t-int",
        lambda: fr.consistency_along_motion(VK, CURVE, [0], 3),
        A,
        r"^consistency_along_motion: t: expected a sympy Symbol",
    ),
    (
        "split_conditions-conditions-injection",
        lambda: fr.dynamics.split_conditions([INJ], [v1]),
        E,
        r"^split_conditions: condit",
    ),
    (
        "split_conditions-conditions-string",
        lambda: fr.dynamics.split_conditions(INJ, [v1]),
        E,
        r"^split_conditions: conditions: ",
    ),
    (
        "split_conditions-conditions-nan",
        lambda: fr.dynamics.split_conditions([sp.nan], [v1]),
        E,
        r"^split_conditions: conditions",
    ),
    (
        "split_conditions-variables-injection",
        lambda: fr.dynamics.split_conditions([q1], INJ),
        E,
        r"^split_conditions: variables",
    ),
    (
        "split_conditions-variables-int",
        lambda: fr.dynamics.split_conditions([q1], [1]),
        A,
        r"^split_conditions: variables\[0\]",
    ),
    (
        "split_conditions-functions_of-expr",
        lambda: fr.dynamics.split_conditions([q1], [v1], [q1 + 1]),
        A,
        r"^split_conditions: functions_of\[0\]: expected a sympy Symbol",
    ),
    (
        "dimension_terms-expr-injection",
        lambda: fr.dynamics.dimension_terms(INJ, {}),
        E,
        r"^dimension_terms: expr: got the str",
    ),
    (
        "dimension_terms-expr-None",
        lambda: fr.dynamics.dimension_terms(None, {}),
        E,
        r"^dimension_terms: expr: expected an exp",
    ),
    (
        "dimension_terms-dims-int",
        lambda: fr.dynamics.dimension_terms(q1, 3),
        A,
        r"^dimension_terms: dims: expected a mapping",
    ),
    (
        "dimension_terms-dims-injection",
        lambda: fr.dynamics.dimension_terms(q1, {q1: INJ}),
        E,
        r"^dimension_terms: dims\[q1\]: got the string",
    ),
    (
        "dimension_terms-dims-key-string",
        lambda: fr.dynamics.dimension_terms(q1, {"q1": 1}),
        E,
        r"^dimension_terms: dims: key 'q1' is not a sympy symbol",
    ),
    (
        "is_dimensionally_homogeneous-expr-injection",
        lambda: fr.dynamics.is_dimensionally_homogeneous(INJ, {}),
        E,
        r"^is_dimensionally_homogeneous: expr: got the string",
    ),
    (
        "is_dimensionally_homogeneous-expr-zoo",
        lambda: fr.dynamics.is_dimensionally_homogeneous(sp.zoo, {}),
        E,
        r"^is_dimensionally_homogeneous: expr: .*not finite",
    ),
    (
        "is_dimensionally_homogeneous-dims-list",
        lambda: fr.dynamics.is_dimensionally_homogeneous(q1, [q1]),
        A,
        r"^is_dimensionally_homogeneous: dims: expected a mapping",
    ),
    (
        "is_dimensionally_homogeneous-dims-injection",
        lambda: fr.dynamics.is_dimensionally_homogeneous(q1, {q1: INJ}),
        E,
        r"^is_dimensionally_homogeneous: dims\[q1\]: got the string",
    ),
    (
        "is_dimensionally_homogeneous-dims-key-string",
        lambda: fr.dynamics.is_dimensionally_homogeneous(q1, {INJ: 1}),
        E,
        r"^is_dimensionally_homogeneous: dims: key .* is not a sympy symbol",
    ),
    # ---------------------------------------------------------------------- sub-Riemannian
    ("subriemannian-fields-injection", lambda: fr.subriemannian(INJ), A, r"^subriemannian: fields: must be VectorF"),
    ("subriemannian-fields-int", lambda: fr.subriemannian(3), A, r"^subriemannian: fields: must be VectorFields"),
    ("subriemannian-fields-item", lambda: fr.subriemannian([HEIS[0], 1]), A, r"^subriemannian: fields: must be Vec"),
    (
        "subriemannian-metric-injection",
        lambda: fr.subriemannian(HEIS, [[INJ, 0], [0, 1]]),
        E,
        r"^subriemannian: metric\[0,0\]: got the string",
    ),
    (
        "subriemannian-metric-shape",
        lambda: fr.subriemannian(HEIS, [[1]]),
        E,
        r"^subriemannian: metric: expected a 2×2 matrix",
    ),
    (
        "subriemannian-metric-not-symmetric",
        lambda: fr.subriemannian(HEIS, [[1, 1], [0, 1]]),
        RE,
        r"^subriemannian: metric .* is not symmetric",
    ),
    (
        "subriemannian-metric-indefinite",
        lambda: fr.subriemannian(HEIS, [[1, 0], [0, -1]]),
        RE,
        r"^subriemannian: metric .* not positive definite",
    ),
    ("subriemannian-mu-injection", lambda: fr.subriemannian(HEIS, mu=INJ), E, r"^subriemannian: mu: .*name prefix"),
    ("subriemannian-v-injection", lambda: fr.subriemannian(HEIS, v=INJ), E, r"^subriemannian: v: .*name prefix"),
    ("subriemannian-A-int", lambda: fr.subriemannian(HEIS, A=[1]), A, r"^subriemannian: A\[0\]: expected a sympy"),
    (
        "subriemannian-complement-int",
        lambda: fr.subriemannian(HEIS, complement=3),
        A,
        r"^subriemannian: complement: must be VectorFields",
    ),
    (
        "subriemannian-fields-whole",
        lambda: fr.subriemannian([*HEIS, fr.VectorField(CH3, [0, 0, 1])]),
        CE,
        r"^subriemannian: fields: D is the whole tangent bundle",
    ),
    ("martinet_abnormals-fields-injection", lambda: fr.martinet_abnormals(INJ), A, r"^martinet_abnormals: fields: "),
    ("martinet_abnormals-fields-int", lambda: fr.martinet_abnormals(7), A, r"^martinet_abnormals: fields: must be"),
    ("martinet_abnormals-fields-item", lambda: fr.martinet_abnormals([X1, 3]), A, r"^martinet_abnormals: fields: must"),
    (
        "martinet_abnormals-fields-rank",
        lambda: fr.martinet_abnormals([HEIS[0]]),
        CE,
        r"^martinet_abnormals: fields: needs a rank-2 distribution on a 3-manifold",
    ),
    # ---------------------------------------------------------------------- Kozlov, Chetaev
    ("KozlovSystem-lagrangian-int", lambda: KozlovSystem(3, [V]), A, r"^KozlovSystem: lagrangian: expected"),
    (
        "KozlovSystem-constraints-injection",
        lambda: KozlovSystem(L, [INJ]),
        E,
        r"^KozlovSystem: constraints\[0\]: got the string",
    ),
    ("KozlovSystem-constraints-string", lambda: KozlovSystem(L, INJ), E, r"^KozlovSystem: constraints: got"),
    ("KozlovSystem-constraints-empty", lambda: KozlovSystem(L, []), E, r"^KozlovSystem: constraints: at le"),
    ("KozlovSystem-constraints-nan", lambda: KozlovSystem(L, [sp.nan]), E, r"^KozlovSystem: constraints\[0"),
    ("KozlovSystem-constraints-int", lambda: KozlovSystem(L, 5), A, r"^KozlovSystem: constraints: expected"),
    (
        "KozlovSystem-constraints-undeclared",
        lambda: KozlovSystem(L, [zz * u3]),
        E,
        r"^KozlovSystem: constraints\[0\]: .*uses symbols \['zz'\]",
    ),
    (
        "KozlovSystem-constraints-dependent",
        lambda: KozlovSystem(L, [V, 2 * V]),
        CE,
        r"^KozlovSystem: constraints: .*not independent in the velocities",
    ),
    ("KozlovSystem-lam-injection", lambda: KozlovSystem(L, [V], INJ), E, r"^KozlovSystem: lam: .*prefix"),
    ("KozlovSystem-lam-length", lambda: KozlovSystem(L, [V], sp.symbols("a b")), E, r"^KozlovSystem: lam: 2"),
    ("KozlovSystem-lam-clash", lambda: KozlovSystem(L, [V], [q1]), E, r"^KozlovSystem: lam: .*clash"),
    (
        "KozlovSystem.accelerations-singular",
        lambda: KozlovSystem(LSING, [V]).accelerations(),
        RE,
        r"^KozlovSystem.solution: lagrangian, constraints: Kozlov equations: the matrix .* is singular",
    ),
    ("KozlovSystem.ddt-f-injection", lambda: K.ddt(INJ), E, r"^KozlovSystem.ddt: f: got the string"),
    (
        "compare_kozlov_with_frame-vk-nh",
        lambda: fr.compare_kozlov_with_frame(NH),
        A,
        r"^compare_kozlov_with_frame: vk: expected a VakonomicSystem",
    ),
    (
        "compare_kozlov_with_frame-vk-injection",
        lambda: fr.compare_kozlov_with_frame(INJ),
        A,
        r"^compare_kozlov_with_frame: vk: expected a Vakonomic",
    ),
    (
        "compare_kozlov_with_frame-vk-None",
        lambda: fr.compare_kozlov_with_frame(None),
        A,
        r"^compare_kozlov_with_frame: vk: expected a Vakonomic",
    ),
    ("ChetaevSystem-lagrangian-expr", lambda: ChetaevSystem(u1, [V]), A, r"^ChetaevSystem: lagrangian: expected a"),
    (
        "ChetaevSystem-constraints-injection",
        lambda: ChetaevSystem(L, [INJ]),
        E,
        r"^ChetaevSystem: constraints\[0\]: got the string",
    ),
    ("ChetaevSystem-constraints-empty", lambda: ChetaevSystem(L, ()), E, r"^ChetaevSystem: constraints: at least"),
    ("ChetaevSystem-constraints-dependent", lambda: ChetaevSystem(L, [V, -V]), CE, r"^ChetaevSystem: constraints: "),
    (
        "ChetaevSystem.lagrangian_derivative-f-injection",
        lambda: CHET.lagrangian_derivative(INJ),
        E,
        r"^ChetaevSystem.lagrangian_derivative: f: got the string",
    ),
    (
        "ChetaevSystem.accelerations-on_constraint-int",
        lambda: CHET.accelerations(on_constraint=1),
        A,
        r"^ChetaevSystem.accelerations: on_constraint: expected True or False",
    ),
    (
        "ChetaevSystem.multipliers-singular",
        lambda: ChetaevSystem(LSING, [V]).multipliers(),
        RE,
        r"^ChetaevSystem.solution: lagrangian, constraints: Chetaev equations: the matrix .* is singular",
    ),
    (
        "ChetaevSystem.commutation_test-accelerations-injection",
        lambda: CHET.commutation_test(INJ),
        A,
        r"^ChetaevSystem.commutation_test: accelerations: must be one of 'chetaev'",
    ),
    (
        "ChetaevSystem.commutation_test-accelerations-value-injection",
        lambda: CHET.commutation_test({CHET.qdd[0]: INJ}),
        E,
        r"^ChetaevSystem.commutation_test: accelerations\[a_q1\]: got the string",
    ),
    (
        "ChetaevSystem.commutation_test-accelerations-int",
        lambda: CHET.commutation_test(3),
        A,
        r"^ChetaevSystem.commutation_test: accelerations: expected a mapping",
    ),
    # ---------------------------------------------------------------------- Talamucci's displacement classes
    ("DisplacementClasses-system-str", lambda: DisplacementClasses("S"), A, r"^DisplacementClasses: system: expected"),
    (
        "DisplacementClasses-omega-shape",
        lambda: DisplacementClasses(CHET, omega=[[0]]),
        E,
        r"^DisplacementClasses: omega: expected a 3×3",
    ),
    (
        "DisplacementClasses-omega-injection",
        lambda: DisplacementClasses(CHET, omega=INJ),
        E,
        r"^DisplacementClasses: omega: expected a matrix",
    ),
    (
        "DisplacementClasses-omega-foreign",
        lambda: DisplacementClasses(CHET, omega=sp.eye(3) * zz),
        E,
        r"^DisplacementClasses: omega\[0,0\]: zz",
    ),
    (
        "DisplacementClasses-alpha-shape",
        lambda: DisplacementClasses(CHET, alpha=[[1, 2]]),
        E,
        r"^DisplacementClasses: alpha: expected a 1×3",
    ),
    (
        "DisplacementClasses-mu-int",
        lambda: DisplacementClasses(CHET, mu=5),
        A,
        r"^DisplacementClasses: mu: expected a sequence",
    ),
    (
        "DisplacementClasses.compatibility-accelerations-injection",
        lambda: DisplacementClasses(CHET).compatibility(INJ),
        A,
        r"^DisplacementClasses.compatibility: accelerations: must be one of 'chetaev'",
    ),
    (
        "compare_chetaev_with_vakonomic-omega-shape",
        lambda: fr.natural.compare_chetaev_with_vakonomic(CHET, omega=[[1]]),
        E,
        r"^DisplacementClasses: omega: expected",
    ),
    (
        "compare_chetaev_with_vakonomic-accelerations-int",
        lambda: fr.natural.compare_chetaev_with_vakonomic(CHET, accelerations=3),
        A,
        r"^DisplacementClasses.compatibility: accelerations: expected a mapping",
    ),
    (
        "ChetaevSystem.lagrangian_derivative_1-f-injection",
        lambda: CHET.lagrangian_derivative_1(INJ),
        E,
        r"^ChetaevSystem.lagrangian_derivative_1: f: got the string",
    ),
    (
        "ChetaevSystem.lagrangian_derivative_1-omega-shape",
        lambda: CHET.lagrangian_derivative_1(u1, omega=sp.eye(2)),
        E,
        r"^ChetaevSystem.lagrangian_derivative_1: omega: expected a 3×3",
    ),
    (
        "DisplacementClasses-omega-str",
        lambda: DisplacementClasses(CHET, omega="x"),
        E,
        r"^DisplacementClasses: omega: expected a matrix",
    ),
    ("linearize-system-int", lambda: fr.linearize(3, {}), A, r"^linearize: system: expected a NonholonomicSystem"),
    ("linearize-system-injection", lambda: fr.linearize(INJ, {}), A, r"^linearize: system: expected"),
    ("linearize-at-list", lambda: fr.linearize(NH, [0]), A, r"^linearize: at: expected a mapping"),
    (
        "linearize-at-missing",
        lambda: fr.linearize(NH, {q1: 0}),
        fr.errors.StateError,
        r"^linearize: at: missing values",
    ),
    (
        "linearize-at-injection",
        lambda: fr.linearize(
            NH, {s: (INJ if s == q1 else 0) for s in (*NH.lagrangian.chart.q, *NH.lagrangian.chart.u)}
        ),
        E,
        r"^linearize: at\[q1\]: got the string",
    ),
    (
        "relative_equilibria-system-int",
        lambda: fr.dynamics.relative_equilibria(3),
        A,
        r"^relative_equilibria: system: expected a NonholonomicSystem",
    ),
    *(
        (
            f"Linearization.stability-tol-{i}",
            lambda tol=tol: _LIN_SL.stability(_SL_VALS, tol=tol),
            A,
            r"^Linearization\.stability: tol",
        )
        for i, tol in enumerate(("a", None, -1, float("nan"), float("inf"), INJ))
    ),
    (
        "Linearization.eigenvalues-subs-overflow",
        lambda: _LIN_SL.eigenvalues({"m": 1e308, "V": 1e308, "a": 1e-10, "I": 1e-30}),
        A,
        r"^Linearization\.eigenvalues: subs: the matrix is not finite",
    ),
    (
        "Linearization.eigenvalues-subs-huge-int",
        lambda: _LIN_SL.eigenvalues(_SL_VALS | {"V": 10**400}),
        A,
        r"^Linearization\.eigenvalues: subs",
    ),
    (
        "Linearization.certified_critical_values-subs-injection",
        lambda: _LIN_SL.certified_critical_values("V", (0, 1), {"m": INJ, "I": 1, "a": 1}),
        E,
        r"^Linearization\.certified_critical_values: subs\[m\]",
    ),
    (
        "Linearization.stability_region-params-injection",
        lambda: _LIN_SL.stability_region({INJ: (0, 1), "a": (0, 1)}, {"m": 1, "I": 1}),
        A,
        r"^Linearization\.stability_region: params",
    ),
    ("Linearization.charpoly-s", lambda: _LIN_SL.charpoly(INJ), A, r"^Linearization\.charpoly: s"),
    ("relative_equilibria-system-injection", lambda: fr.dynamics.relative_equilibria(INJ), A, r"^relative_equilibria"),
    (
        "relative_equilibria-known-list",
        lambda: fr.dynamics.relative_equilibria(NH, known=[0]),
        A,
        r"^relative_equilibria: known: expected a mapping",
    ),
    (
        "relative_equilibria-known-removed",
        lambda: fr.dynamics.relative_equilibria(NH, known={q3: 0}),
        A,
        r"^relative_equilibria: known: q3 is not one of",
    ),
    (
        "relative_equilibria-known-injection",
        lambda: fr.dynamics.relative_equilibria(NH, known={q1: INJ}),
        E,
        r"^relative_equilibria: known\[q1\]: got the string",
    ),
    (
        "compare_mvm_with_nonholonomic-mvm-int",
        lambda: fr.compare_mvm_with_nonholonomic(3),
        A,
        r"^compare_mvm_with_nonholonomic: mvm: expected a ModifiedVakonomic",
    ),
    (
        "compare_mvm_with_nonholonomic-mvm-chetaev",
        lambda: fr.compare_mvm_with_nonholonomic(CHET),
        A,
        r"^compare_mvm_with_nonholonomic: mvm: expected a ModifiedVakonomic",
    ),
    (
        "compare_mvm_with_nonholonomic-mvm-injection",
        lambda: fr.compare_mvm_with_nonholonomic(INJ),
        A,
        r"^compare_mvm_with_nonholonomic: mvm: expected a ModifiedVakonomic",
    ),
    (
        "compare_mvm_with_chetaev-mvm-chetaev",
        lambda: fr.compare_mvm_with_chetaev(CHET),
        A,
        r"^compare_mvm_with_chetaev: mvm: expected a ModifiedVakonomic",
    ),
    (
        "compare_mvm_with_chetaev-mvm-injection",
        lambda: fr.compare_mvm_with_chetaev(INJ),
        A,
        r"^compare_mvm_with_chetaev: mvm: expected a ModifiedVakonomic",
    ),
    (
        "compare_mvm_with_chetaev-mvm-forces",
        lambda: fr.compare_mvm_with_chetaev(ModifiedVakonomic(L, [V], [u1, u2], forces=[q1, 0, 0])),
        A,
        r"^compare_mvm_with_chetaev: mvm: polygenic forces",
    ),
    # ---------------------------------------------------------------------- modified vakonomic method
    ("ModifiedVakonomic-lagrangian-int", lambda: ModifiedVakonomic(1, [V], [u1, u2]), A, r"^ModifiedVakonomic: lagr"),
    (
        "ModifiedVakonomic-constraints-injection",
        lambda: ModifiedVakonomic(L, [INJ], [u1, u2]),
        E,
        r"^ModifiedVakonomic: constraints\[0\]: got the string",
    ),
    (
        "ModifiedVakonomic-auxiliary-injection",
        lambda: ModifiedVakonomic(L, [V], INJ),
        E,
        r"^ModifiedVakonomic: auxiliary: got the string",
    ),
    (
        "ModifiedVakonomic-constraints-nonlinear",
        lambda: ModifiedVakonomic(L, [u3**2], [u1, u2]),
        CE,
        r"^ModifiedVakonomic: constraints, auxiliary: quasi-velocity 1, u3\*\*2, is not affine",
    ),
    (
        "ModifiedVakonomic-auxiliary-count",
        lambda: ModifiedVakonomic(L, [V], [u1]),
        CE,
        r"^ModifiedVakonomic: auxiliary: 1 constraints \+ 1 auxiliaries != n = 3",
    ),
    (
        "ModifiedVakonomic-auxiliary-singular",
        lambda: ModifiedVakonomic(L, [V], [u1, 2 * V]),
        CE,
        r"^ModifiedVakonomic: auxiliary: the Jacobian H .* is singular",
    ),
    (
        "ModifiedVakonomic-forces-length",
        lambda: ModifiedVakonomic(L, [V], [u1, u2], forces=[0]),
        E,
        r"^ModifiedVakonomic: forces: expected 3 entries",
    ),
    (
        "ModifiedVakonomic-forces-injection",
        lambda: ModifiedVakonomic(L, [V], [u1, u2], forces=[INJ, 0, 0]),
        E,
        r"^ModifiedVakonomic: forces\[0\]: got the string",
    ),
    (
        "ModifiedVakonomic-W-injection",
        lambda: ModifiedVakonomic(L, [V], [u1, u2], W=BADW),
        E,
        r"^ModifiedVakonomic: W\[0,0\]: got the string",
    ),
    (
        "ModifiedVakonomic-W-shape",
        lambda: ModifiedVakonomic(L, [V], [u1, u2], W=[[0]]),
        E,
        r"^ModifiedVakonomic: W: expected a 3×3 matrix",
    ),
    (
        "ModifiedVakonomic-W-undeclared",
        lambda: ModifiedVakonomic(L, [V], [u1, u2], W=[[zz, 0, 0], [0, 0, 0], [0, 0, 0]]),
        E,
        r"^ModifiedVakonomic: W\[0,0\]: zz uses symbols",
    ),
    (
        "ModifiedVakonomic-extra_symbols-int",
        lambda: ModifiedVakonomic(L, [V], [u1, u2], W=ZERO3, extra_symbols=[1]),
        A,
        r"^ModifiedVakonomic: extra_symbols\[0\]: expected a sympy Symbol",
    ),
    (
        "ModifiedVakonomic.accelerations-singular",
        lambda: ModifiedVakonomic(LSING, [V], [u1, u2]).accelerations(),
        RE,
        r"^ModifiedVakonomic: lagrangian: the mass matrix .* is singular",
    ),
    ("ModifiedVakonomic.E-f-injection", lambda: MVM.E(INJ, 0), E, r"^ModifiedVakonomic.E: f: got the string"),
    ("ModifiedVakonomic.E-k-range", lambda: MVM.E(q1, 5), A, r"^ModifiedVakonomic.E: k: must be ≤ 2"),
    ("ModifiedVakonomic.D-W-shape", lambda: MVM.D(q1, 0, [[0]]), E, r"^ModifiedVakonomic.D: W: expected a 3×3"),
    ("ModifiedVakonomic.D-k-bool", lambda: MVM.D(q1, True), A, r"^ModifiedVakonomic.D: k: expected an integer"),
    (
        "ModifiedVakonomic.on_constraint-expr-injection",
        lambda: MVM.on_constraint(INJ),
        E,
        r"^ModifiedVakonomic.on_constraint: expr: got the string",
    ),
    (
        "ModifiedVakonomic.frame_components-covector-length",
        lambda: MVM.frame_components([1]),
        E,
        r"^ModifiedVakonomic.frame_components: covector: expected 3 entries",
    ),
    (
        "ModifiedVakonomic.with_W-W-injection",
        lambda: MVM.with_W(BADW),
        E,
        r"^ModifiedVakonomic: W\[0,0\]: got the string",
    ),
    (
        "ModifiedVakonomic.solvability_conditions-W-injection",
        lambda: MVM.solvability_conditions(BADW),
        E,
        r"^ModifiedVakonomic.solvability_conditions: W\[0,0\]: got the string",
    ),
    (
        "w_from_partial_auxiliaries-lagrangian-int",
        lambda: fr.natural.w_from_partial_auxiliaries(1, [V], [], [u1, u2]),
        A,
        r"^w_from_partial_auxiliaries: lagrangian: expected a Lagr",
    ),
    (
        "w_from_partial_auxiliaries-constraints-injection",
        lambda: fr.natural.w_from_partial_auxiliaries(L, [INJ], [], [u1, u2]),
        E,
        r"^w_from_partial_auxiliaries: constraints\[0\]: ",
    ),
    (
        "w_from_partial_auxiliaries-auxiliary-string",
        lambda: fr.natural.w_from_partial_auxiliaries(L, [V], INJ, [u1, u2]),
        E,
        r"^w_from_partial_auxiliaries: auxiliary: got the string",
    ),
    (
        "w_from_partial_auxiliaries-completion-injection",
        lambda: fr.natural.w_from_partial_auxiliaries(L, [V], [], [INJ, u2]),
        E,
        r"^w_from_partial_auxiliaries: completion\[0\]: got",
    ),
    (
        "w_from_partial_auxiliaries-names-injection",
        lambda: fr.natural.w_from_partial_auxiliaries(L, [V], [], [u1, u2], names=INJ),
        E,
        r"^w_from_partial_auxiliaries: names: .*prefix",
    ),
    (
        "w_from_partial_auxiliaries-free-item",
        lambda: fr.natural.w_from_partial_auxiliaries(L, [V], [], [u1, u2], free=[(0, "x")]),
        A,
        r"^w_from_partial_auxiliaries: free\[0\]: expected an integer",
    ),
    (
        "w_from_partial_auxiliaries-free-range",
        lambda: fr.natural.w_from_partial_auxiliaries(L, [V], [], [u1, u2], free=[(0, 9)]),
        A,
        r"^w_from_partial_auxiliaries: free\[0\]: must be",
    ),
    (
        "w_from_partial_auxiliaries-forces-length",
        lambda: fr.natural.w_from_partial_auxiliaries(L, [V], [], [u1, u2], forces=[0]),
        E,
        r"^w_from_partial_auxiliaries: forces: expected 3",
    ),
    (
        "w_from_coordinates-chart-int",
        lambda: fr.natural.w_from_coordinates(3, [V, u1, u2]),
        A,
        r"^w_from_coordinates: chart: exp",
    ),
    (
        "w_from_coordinates-omegas-injection",
        lambda: fr.natural.w_from_coordinates(CH, [INJ, u1, u2]),
        E,
        r"^w_from_coordinates: omegas\[0\]: got the string",
    ),
    (
        "w_from_coordinates-omegas-count",
        lambda: fr.natural.w_from_coordinates(CH, [V]),
        CE,
        r"^w_from_coordinates: omegas: 1 quasi-velocities given on a chart of dimension 3",
    ),
    (
        "w_from_coordinates-omegas-nonlinear",
        lambda: fr.natural.w_from_coordinates(CH, [u1**2, u2, u3]),
        CE,
        r"^w_from_coordinates: omegas: quasi-velocity 1, u1\*\*2, is not affine",
    ),
    (
        "w_from_coordinates-omegas-singular",
        lambda: fr.natural.w_from_coordinates(CH, [u1, u1, u2]),
        CE,
        r"^w_from_coordinates: omegas: the Jacobian H .* is singular",
    ),
    (
        "w_from_frame-chart-injection",
        lambda: fr.natural.w_from_frame(INJ, [V, u1, u2]),
        A,
        r"^w_from_frame: chart: expected a",
    ),
    (
        "w_from_frame-omegas-injection",
        lambda: fr.natural.w_from_frame(CH, [V, INJ, u2]),
        E,
        r"^w_from_frame: omegas\[1\]: got",
    ),
    (
        "w_from_frame-omegas-string",
        lambda: fr.natural.w_from_frame(CH, INJ),
        E,
        r"^w_from_frame: omegas: got the string",
    ),
    (
        "w_from_frame-v-injection",
        lambda: fr.natural.w_from_frame(CH, [V, u1, u2], v=INJ),
        E,
        r"^w_from_frame: v: .*name prefix",
    ),
    (
        "w_from_frame-omegas-singular",
        lambda: fr.natural.w_from_frame(CH, [u1, u1, u2]),
        CE,
        r"^w_from_frame: omegas: the Jaco",
    ),
    # ---------------------------------------------------------------------- comparisons
    (
        "compare_motion-kozlov-vk",
        lambda: fr.compare_motion(VK, {q1: t, q2: 0, q3: 0}, t),
        A,
        r"^compare_motion: kozlov: expected a KozlovSystem",
    ),
    (
        "compare_motion-motion-int",
        lambda: fr.compare_motion(K, 3, t),
        A,
        r"^compare_motion: motion: expected a mapping",
    ),
    (
        "compare_motion-motion-injection",
        lambda: fr.compare_motion(K, {q1: INJ, q2: 0, q3: 0}, t),
        E,
        r"^compare_motion: motion\[q1\]: got the string",
    ),
    (
        "compare_motion-motion-missing",
        lambda: fr.compare_motion(K, {q1: t}, t),
        E,
        r"^compare_motion: motion: gives no value for \[q2, q3\]",
    ),
    (
        "compare_motion-motion-key-string",
        lambda: fr.compare_motion(K, {"q1": t, q2: 0, q3: 0}, t),
        A,
        r"^compare_motion: motion: key 'q1' is not a sympy Symbol",
    ),
    (
        "compare_motion-motion-off-constraint",
        lambda: fr.compare_motion(K, {q1: 1, q2: t, q3: 0}, t),
        CE,
        r"^compare_motion: motion: the motion violates the constraint",
    ),
    (
        "compare_motion-motion-velocity",
        lambda: fr.compare_motion(K, {q1: u1, q2: 0, q3: 0}, t),
        E,
        r"^compare_motion: motion\[q1\]: u1 uses the velocity symbols",
    ),
    (
        "compare_motion-motion-nan",
        lambda: fr.compare_motion(K, {q1: sp.nan, q2: 0, q3: 0}, t),
        E,
        r"^compare_motion: motion\[q1\]: .*not finite",
    ),
    (
        "compare_motion-t-injection",
        lambda: fr.compare_motion(K, {q1: t, q2: 0, q3: 0}, INJ),
        E,
        r"^compare_motion: t: got the string",
    ),
    (
        "compare_motion-constants-injection",
        lambda: fr.compare_motion(K, {q1: t, q2: 0, q3: 0}, t, constants=INJ),
        E,
        r"^compare_motion: constants: .*not a valid name prefix",
    ),
    ("CortesComparison-vk-nh", lambda: CortesComparison(NH), A, r"^CortesComparison: vk: expected a VakonomicSystem"),
    ("CortesComparison-vk-injection", lambda: CortesComparison(INJ), A, r"^CortesComparison: vk: expected a Vakonom"),
    ("CortesComparison-p-injection", lambda: CortesComparison(VK, INJ), E, r"^CortesComparison: p: .*name prefix"),
    ("CortesComparison-p-int", lambda: CortesComparison(VK, 3), E, r"^CortesComparison: p: 3 is not a valid name"),
    ("CortesComparison.X-f-injection", lambda: CC.X(INJ), E, r"^CortesComparison.X: f: got the string"),
    ("CortesComparison.step-candidate-int", lambda: CC.step(3), A, r"^CortesComparison.step: candidate: expected a C"),
    (
        "CortesComparison.run-candidate-injection",
        lambda: CC.run(INJ),
        A,
        r"^CortesComparison.run: candidate: expected a Candidate",
    ),
    (
        "CortesComparison.run-max_steps-bool",
        lambda: CC.run(CAND, max_steps=True),
        A,
        r"^CortesComparison.run: max_steps: expected an integer",
    ),
    (
        "CortesComparison.run-choose-int",
        lambda: CC.run(CAND, choose=3),
        A,
        r"^CortesComparison.run: choose: expected a callable or None",
    ),
    ("Candidate-equations-injection", lambda: Candidate((INJ,), (PQ3,)), E, r"^Candidate: equations\[0\]: got the str"),
    ("Candidate-equations-string", lambda: Candidate(INJ, (PQ3,)), E, r"^Candidate: equations: got the string"),
    ("Candidate-equations-empty", lambda: Candidate((), (PQ3,)), E, r"^Candidate: equations: at least one equation"),
    ("Candidate-equations-eq", lambda: Candidate((sp.Eq(PQ3, 1),), (PQ3,)), E, r"^Candidate: equations\[0\]: .*scalar"),
    ("Candidate-solve_for-injection", lambda: Candidate((PQ3,), INJ), E, r"^Candidate: solve_for: got the string"),
    (
        "Candidate-solve_for-int",
        lambda: Candidate((PQ3,), (1,)),
        A,
        r"^Candidate: solve_for\[0\]: expected a sympy Sym",
    ),
    ("Candidate-name-int", lambda: Candidate((PQ3,), (PQ3,), 3), A, r"^Candidate: name: expected a string"),
    # ---------------------------------------------------------------------- sympy.physics.mechanics cross-check
    (
        "lagranges_method_accelerations-lagrangian-expr",
        lambda: fr.natural.lagranges_method_accelerations(u1**2, [V]),
        A,
        r"^lagranges_method_accelerations: lagrangian: expected a Lagrangian",
    ),
    (
        "lagranges_method_accelerations-constraints-injection",
        lambda: fr.natural.lagranges_method_accelerations(L, [INJ]),
        E,
        r"^lagranges_method_accelerations: constraints\[0\]: got the string",
    ),
    (
        "lagranges_method_accelerations-constraints-string",
        lambda: fr.natural.lagranges_method_accelerations(L, INJ),
        E,
        r"^lagranges_method_accelerations: constraints: got the string",
    ),
    (
        "lagranges_method_accelerations-constraints-empty",
        lambda: fr.natural.lagranges_method_accelerations(L, []),
        E,
        r"^lagranges_method_accelerations: constraints: no constraints given",
    ),
    (
        "lagranges_method_accelerations-constraints-nonlinear",
        lambda: fr.natural.lagranges_method_accelerations(L, [u3**2 - u1 * u2]),
        CE,
        r"^lagranges_method_accelerations: constraints\[0\]: .*not linear in the velocities",
    ),
    (
        "lagranges_method_accelerations-full_rhs-int",
        lambda: fr.natural.lagranges_method_accelerations(L, [V], full_rhs=1),
        A,
        r"^lagranges_method_accelerations: full_rhs: expected True or False",
    ),
    (
        "invariant_measure-string",
        lambda: fr.invariant_measure("x"),
        A,
        r"^invariant_measure: system: expected",
    ),
    (
        "invariant_measure-injection",
        lambda: fr.invariant_measure(INJ),
        A,
        r"^invariant_measure: system: expected",
    ),
    ("invariant_measure-ansatz", lambda: fr.invariant_measure(NH, ansatz="y"), A, r"^invariant_measure: ansatz"),
    (
        "invariant_measure-ansatz-injection",
        lambda: fr.invariant_measure(NH, ansatz=INJ),
        A,
        r"^invariant_measure: ansatz",
    ),
    # loads (issue 44)
    ("PointForce-both", lambda: fr.PointForce([1], [0], velocity=[0]), A, r"^PointForce: give exactly one"),
    ("PointForce-force-injection", lambda: fr.PointForce(INJ, [0]), A, r"^PointForce: force: expected a vector"),
    ("PointForce-force-item-injection", lambda: fr.PointForce([INJ], [0]), E, r"^PointForce: force"),
    ("PointForce-position-length", lambda: fr.PointForce([1, 0], [0]), E, r"^PointForce: the force has 2"),
    ("PointForce-force-4", lambda: fr.PointForce([1, 0, 0, 0], [0, 0, 0, 0]), E, r"^PointForce: force: a vector"),
    ("BodyTorque-torque-injection", lambda: fr.BodyTorque([0], [INJ]), E, r"^BodyTorque: torque"),
    ("BodyTorque-length", lambda: fr.BodyTorque([0, 0, 1], [1]), E, r"^BodyTorque: the angular velocity has 3"),
    ("BodyTorque-angular_velocity-none", lambda: fr.BodyTorque(None, [1]), A, r"^BodyTorque: angular_velocity"),
]

COVERED = [
    "PointForce",
    "BodyTorque",
    "Lagrangian",
    "Equations",
    "CartanSystem",
    "NonholonomicSystem",
    "change_of_adapted_frame",
    "transform_field",
    "transform_multipliers",
    "VakonomicSystem",
    "ChaplyginSystem",
    "weak_consistency",
    "strong_consistency",
    "vakonomic_lift",
    "find_sections",
    "consistency_along_motion",
    "split_conditions",
    "dimension_terms",
    "is_dimensionally_homogeneous",
    "subriemannian",
    "martinet_abnormals",
    "KozlovSystem",
    "compare_kozlov_with_frame",
    "ChetaevSystem",
    "DisplacementClasses",
    "compare_mvm_with_chetaev",
    "compare_mvm_with_nonholonomic",
    "linearize",
    "relative_equilibria",
    "ModifiedVakonomic",
    "w_from_partial_auxiliaries",
    "w_from_coordinates",
    "w_from_frame",
    "compare_motion",
    "CortesComparison",
    "Candidate",
    "invariant_measure",
]

# Results built by the library (frozen dataclasses returned by the callables above), not entry points.


@pytest.mark.parametrize(("rid", "call", "exc", "pattern"), ROWS, ids=[r[0] for r in ROWS])
def test_bad_input_raises_a_frames_error_naming_the_argument(rid, call, exc, pattern):
    with pytest.raises(exc, match=pattern) as info:
        call()
    assert isinstance(info.value, fr.FramesError), f"{rid}: {type(info.value).__name__} is not a FramesError"
    assert not os.path.exists(SENTINEL), f"{rid}: the payload ran"


def test_rows_are_well_formed():
    ids = [r[0] for r in ROWS]
    assert len(ids) == len(set(ids)), "duplicate row ids"
    assert len(ROWS) >= 120
    for rid, _call, exc, pattern in ROWS:
        assert issubclass(exc, fr.FramesError) and exc is not fr.FramesError, rid
        assert pattern.startswith("^"), f"{rid}: the pattern should anchor the argument's name"


def _top_level_names() -> set[str]:
    """The top-level names that the dynamics and natural layers define (OdeSystem has its rows in the numeric
    table); result types live in :mod:`frames.results` and need no rows."""
    out = set()
    for name in fr.__all__:
        mod = getattr(getattr(fr, name), "__module__", "") or ""
        if mod.startswith(("frames.dynamics", "frames.natural")) and name != "OdeSystem":
            out.add(name)
    return out


def test_every_public_dynamics_callable_has_rows():
    missing = _top_level_names() - set(COVERED)
    assert not missing, f"top-level names of the dynamics/natural layers without bad-input rows: {sorted(missing)}"
    layers = set(fr.dynamics.__all__) | set(fr.natural.__all__)
    assert not set(COVERED) - layers, f"COVERED names something not public: {sorted(set(COVERED) - layers)}"
    for name in COVERED:
        rows = [r for r in ROWS if r[0].startswith((f"{name}-", f"{name}."))]
        assert len(rows) >= 3, f"{name}: only {len(rows)} rows"
        assert any("injection" in r[0] or "string" in r[0] for r in rows), f"{name}: no string row"


def test_valid_input_still_works():
    assert Equations([sp.Eq(q1, 1)]).latex() == r"\begin{aligned} q_{1} &= 1 \end{aligned}"
    assert NonholonomicSystem(L, F, sp.Integer(2)).m == 2
    assert fr.dynamics.change_of_adapted_frame(F, FY, 2)[1, 1] == 1 / sp.sqrt(1 + q1**2)
    assert VK.section(0) == (0,) and VK.section([q1 * v3]) == (0,)
    assert fr.weak_consistency(VK, [0], subs={q1: 2}).holds is True
    assert fr.dynamics.split_conditions([q1 * v1 + v2], [v1, v2]) == [q1, 1]
    assert fr.dynamics.dimension_terms(q1 + q2, {q1: zz, q2: zz}) == [(q1, zz), (q2, zz)]
    assert CC.step(Candidate([PQ3], [PQ3])).candidate.equations == (PQ3,)
    assert K.ddt(q1) == u1
    assert MVM.E(q1 * u1, 0) == 0
    mc = fr.consistency_along_motion(VK, CURVE, [0], t)
    assert mc.holds is True


def test_the_injection_payload_never_ran():
    """No row made sympy's parser evaluate the payload (rows re-run here: independent of test order)."""
    assert_payload_never_ran(ROWS, SENTINEL, minimum=40)
