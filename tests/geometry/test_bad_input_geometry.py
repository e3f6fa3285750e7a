"""Bad input to every public callable of the geometry layer (and ``tidy``, ``is_zero``): one table.

Each row makes one bad call on small fixtures and names the expected :class:`frames.FramesError`
subclass and a pattern that the message must match; the pattern contains the offending argument's
name. Rows with the code-injection payload check that no string reaches sympy's parser: the
sentinel file must never appear (last test). ``COVERED`` lists the public names with rows; a new
public callable of the layer without rows fails :func:`test_every_public_geometry_callable_has_rows`.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile

import pytest
import sympy as sp
from _bad_input import assert_payload_never_ran

import frames as fr
from frames import (
    Chart,
    Distribution,
    Form,
    Frame,
    LinearConstraints,
    OneForm,
    SecondOrderField,
    TangentVectorField,
    VectorField,
)
from frames.results import BracketFlag, FrobeniusResult

SENTINEL = os.path.join(tempfile.mkdtemp(prefix="frames-bad-geometry-"), "pwned")
INJ = f"__import__('pathlib').Path({SENTINEL!r}).touch()"

# ----------------------------------------------------------------------------- fixtures
k = sp.Symbol("k")
CH = Chart("x y", params=[k])
x, y = CH.q
ux, uy = CH.u
OTHER = Chart("a b")
CH3 = Chart("q1 q2 q3")
q1, q2, q3 = CH3.q
u1, u2, u3 = CH3.u

X = VectorField(CH, [1, 0])
Y = VectorField(CH, [0, x])
XO = VectorField(OTHER, [1, 0])
X3 = VectorField(CH3, [1, 0, 0])
TH = OneForm(CH, [y, 0])
THO = OneForm(OTHER, [1, 0])
F = Frame([X, VectorField(CH, [y, 1])])
F3 = Frame.coordinate(CH3)
TV = X.complete_lift()
TVO = XO.complete_lift()
LC = LinearConstraints(CH3, [[0, q1, 1]])
D3 = LC.distribution()
SOF = SecondOrderField(F, [-k * x, 0])
H3 = Chart("hx hy hz")
HEIS = Distribution([VectorField(H3, [1, 0, -H3.q[1] / 2]), VectorField(H3, [0, 1, H3.q[0] / 2])])
NIL = HEIS.nilpotent_approximation({s: 0 for s in H3.q})
C4 = (x, y, ux, uy)
W = Form.differential(C4, x)
W2 = W ^ Form.differential(C4, y)
WO = Form.differential((x, y), x)
EYE = [[1, 0], [0, 1]]

E = fr.errors.InvalidExpressionError
A = fr.errors.ArgumentError
CM = fr.errors.ChartMismatchError
SF = fr.errors.SingularFrameError
CE = fr.errors.ConstraintError

ROWS = [
    # ------------------------------------------------------------------------- Chart
    ("Chart-coordinates-injection", lambda: Chart(INJ), E, r"Chart: coordinates: .*not a valid symbol name"),
    ("Chart-coordinates-injection-item", lambda: Chart([INJ, "y"]), E, r"Chart: coordinates\[0\]: .*not a valid"),
    ("Chart-coordinates-int", lambda: Chart(3), A, r"Chart: coordinates: expected a string of names"),
    ("Chart-coordinates-none", lambda: Chart(None), E, r"Chart: coordinates: at least one coordinate"),
    ("Chart-coordinates-empty", lambda: Chart(" "), E, r"Chart: coordinates: at least one coordinate"),
    ("Chart-coordinates-expr", lambda: Chart([x + 1, y]), E, r"Chart: coordinates\[0\]: .*is not a symbol"),
    ("Chart-coordinates-float", lambda: Chart([1.5]), E, r"Chart: coordinates\[0\]: 1.5 is not a symbol"),
    ("Chart-coordinates-duplicate", lambda: Chart("x x"), E, r"coordinates, velocities.*distinct.*\['u_x', 'x'\]"),
    ("Chart-coordinates-digit", lambda: Chart("1x y"), E, r"Chart: coordinates: '1x' is not a valid symbol name"),
    ("Chart-velocities-length", lambda: Chart("x y", "v"), E, r"Chart: velocities: 2 coordinates but 1"),
    ("Chart-velocities-injection", lambda: Chart("x y", [INJ, "w"]), E, r"Chart: velocities\[0\]"),
    ("Chart-velocities-clash", lambda: Chart("x y", "y x"), E, r"velocities.*must be distinct symbols"),
    ("Chart-velocities-mapping", lambda: Chart("x y", {"x": "v"}), A, r"Chart: velocities: expected"),
    ("Chart-time-int", lambda: Chart("x", time=3), A, r"Chart: time: expected a Symbol"),
    ("Chart-time-injection", lambda: Chart("x", time=INJ), E, r"Chart: time: .*not a valid symbol name"),
    ("Chart-time-clash", lambda: Chart("x y", time="x"), E, r"time and params must be distinct"),
    ("Chart-params-injection", lambda: Chart("x", params=INJ), E, r"Chart: params: .*not a valid symbol name"),
    ("Chart-params-float", lambda: Chart("x", params=[1.5]), E, r"Chart: params\[0\]: 1.5 is not a symbol"),
    ("Chart-params-clash", lambda: Chart("x", params="x"), E, r"time and params must be distinct.*\['x'\]"),
    ("Chart.with_params-injection", lambda: CH.with_params(INJ), E, r"Chart.with_params: params: .*not a valid"),
    ("Chart.with_params-int", lambda: CH.with_params(5), A, r"Chart.with_params: params: expected"),
    ("Chart.with_params-clash", lambda: CH.with_params([x]), E, r"params must be distinct symbols; \['x'\]"),
    ("Chart.with_time-float", lambda: CH.with_time(2.5), A, r"Chart: time: expected"),
    ("Chart.with_time-injection", lambda: CH.with_time(INJ), E, r"Chart: time: .*not a valid symbol name"),
    ("Chart.total_derivative-injection", lambda: CH.total_derivative(INJ), E, r"total_derivative: f: got the string"),
    ("Chart.total_derivative-none", lambda: CH.total_derivative(None), E, r"total_derivative: f: expected an expr"),
    (
        "Chart.total_derivative-velocities",
        lambda: CH.total_derivative(x, velocities=[1]),
        E,
        r"total_derivative: velocities: expected 2 entries",
    ),
    (
        "Chart.total_derivative-accelerations-nan",
        lambda: CH.total_derivative(x, accelerations=[sp.nan, 0]),
        E,
        r"total_derivative: accelerations\[0\]: .*not finite",
    ),
    (
        "Chart.total_derivative-extra-injection",
        lambda: CH.total_derivative(x, extra={x: INJ}),
        E,
        r"total_derivative: extra\[x\]: got the string",
    ),
    ("Chart.total_derivative-time-int", lambda: CH.total_derivative(x, time=1), A, r"total_derivative: time: expected"),
    ("Chart.check_on_Q-injection", lambda: CH.check_on_Q(INJ, "f"), E, r"^f: got the string"),
    ("Chart.check_on_Q-fibre", lambda: CH.check_on_Q(ux, "f"), E, r"^f: .*depends on fibre coordinates"),
    ("Chart.check_on_TQ-undeclared", lambda: CH.check_on_TQ(sp.Symbol("c"), "g"), E, r"^g: .*uses symbols \['c'\]"),
    ("Chart.check_on_TQ-I", lambda: CH.check_on_TQ(sp.I * x, "g"), E, r"^g: .*complex"),
    ("Chart.require_same-chart", lambda: CH.require_same(OTHER, "other"), CM, r"^other: .*different charts"),
    ("Chart.require_same-type", lambda: CH.require_same("x y", "other"), A, r"^other: expected a Chart"),
    (
        "Chart.coordinate_substitution-unknown",
        lambda: CH.coordinate_substitution({"zz": 1}),
        E,
        r"coordinate_substitution: values: unknown name 'zz'",
    ),
    (
        "Chart.coordinate_substitution-injection",
        lambda: CH.coordinate_substitution({"x": INJ}),
        E,
        r"coordinate_substitution: values\[x\]: got the string",
    ),
    (
        "Chart.coordinate_substitution-type",
        lambda: CH.coordinate_substitution([1, 2]),
        A,
        r"coordinate_substitution: values: expected a mapping",
    ),
    # ------------------------------------------------------------------------- VectorField
    ("VectorField-injection", lambda: VectorField(CH, [INJ, 0]), E, r"VectorField: components\[0\]: got the string"),
    ("VectorField-string", lambda: VectorField(CH, INJ), E, r"VectorField: components must be a sequence"),
    ("VectorField-nan", lambda: VectorField(CH, [sp.nan, 0]), E, r"VectorField: components\[0\]: .*not finite"),
    ("VectorField-float-nan", lambda: VectorField(CH, [float("nan"), 0]), E, r"components\[0\]: .*not finite"),
    ("VectorField-zoo", lambda: VectorField(CH, [0, sp.zoo]), E, r"VectorField: components\[1\]: .*not finite"),
    ("VectorField-oo", lambda: VectorField(CH, [sp.oo * x, 0]), E, r"VectorField: components\[0\]: .*not finite"),
    ("VectorField-I", lambda: VectorField(CH, [sp.I, 0]), E, r"VectorField: components\[0\]: .*complex"),
    ("VectorField-none", lambda: VectorField(CH, [None, 0]), E, r"VectorField: components\[0\]: expected an expr"),
    ("VectorField-bool", lambda: VectorField(CH, [True, 0]), E, r"VectorField: components\[0\]: expected an expr"),
    ("VectorField-object", lambda: VectorField(CH, [object(), 0]), E, r"VectorField: components\[0\]: expected"),
    ("VectorField-length", lambda: VectorField(CH, [1]), E, r"VectorField: components: 1 components given"),
    ("VectorField-int", lambda: VectorField(CH, 1), E, r"VectorField: components must be a sequence"),
    ("VectorField-chart", lambda: VectorField("x y", [1, 0]), A, r"VectorField: chart: expected a Chart"),
    ("VectorField-fibre", lambda: VectorField(CH, [ux, 0]), E, r"VectorField: components\[0\]: .*fibre"),
    ("VectorField-undeclared", lambda: VectorField(CH, [sp.Symbol("c"), 0]), E, r"components\[0\]: .*\['c'\]"),
    ("VectorField.__call__-injection", lambda: X(INJ), E, r"VectorField.__call__: f: got the string"),
    ("VectorField.__call__-none", lambda: X(None), E, r"VectorField.__call__: f: expected an expression"),
    ("VectorField.__call__-list", lambda: X([x]), E, r"VectorField.__call__: f: expected a sympy expression"),
    ("VectorField.__mul__-injection", lambda: X * INJ, E, r"VectorField.__mul__: f: got the string"),
    ("VectorField.__rmul__-injection", lambda: INJ * X, E, r"VectorField.__mul__: f: got the string"),
    ("VectorField.__mul__-field", lambda: X * Y, A, r"VectorField.__mul__: f: the product of two vector fields"),
    ("VectorField.__mul__-fibre", lambda: X * ux, E, r"VectorField.__mul__: f: .*fibre"),
    ("VectorField.__mul__-nan", lambda: X * sp.nan, E, r"VectorField.__mul__: f: .*not finite"),
    ("VectorField.__truediv__-zero", lambda: X / 0, E, r"VectorField.__truediv__: f: division .* by zero"),
    ("VectorField.__truediv__-injection", lambda: X / INJ, E, r"VectorField.__truediv__: f: got the string"),
    ("VectorField.__add__-int", lambda: X + 1, A, r"VectorField.__add__: other: expected a VectorField"),
    ("VectorField.__add__-chart", lambda: X + XO, CM, r"VectorField.__add__: other: .*different charts"),
    ("VectorField.__sub__-none", lambda: X - None, A, r"VectorField.__sub__: other: expected a VectorField"),
    ("VectorField.bracket-type", lambda: X.bracket(TV), A, r"VectorField.bracket: other: expected a VectorField"),
    ("VectorField.bracket-chart", lambda: X.bracket(XO), CM, r"VectorField.bracket: other: .*different charts"),
    ("VectorField.equals-type", lambda: X.equals([1, 0]), A, r"VectorField.equals: other: expected a VectorField"),
    ("VectorField.equals-chart", lambda: X.equals(XO), CM, r"VectorField.equals: other: .*different charts"),
    ("VectorField.coordinate-range", lambda: VectorField.coordinate(CH, 2), A, r"coordinate: i: must be ≤ 1"),
    ("VectorField.coordinate-bool", lambda: VectorField.coordinate(CH, True), A, r"coordinate: i: expected an int"),
    ("VectorField.coordinate-chart", lambda: VectorField.coordinate("x", 0), A, r"coordinate: chart: expected"),
    # ------------------------------------------------------------------------- OneForm
    ("OneForm-injection", lambda: OneForm(CH, [INJ, 0]), E, r"OneForm: components\[0\]: got the string"),
    ("OneForm-nan", lambda: OneForm(CH, [0, sp.nan]), E, r"OneForm: components\[1\]: .*not finite"),
    ("OneForm-length", lambda: OneForm(CH, [0, 0, 0]), E, r"OneForm: components: 3 components given"),
    ("OneForm-chart", lambda: OneForm(None, [0, 0]), A, r"OneForm: chart: expected a Chart"),
    ("OneForm-string", lambda: OneForm(CH, "y 0"), E, r"OneForm: components must be a sequence"),
    ("OneForm.__call__-type", lambda: TH(3), A, r"OneForm.__call__: Z: expected a VectorField"),
    ("OneForm.__call__-injection", lambda: TH(INJ), A, r"OneForm.__call__: Z: expected a VectorField"),
    ("OneForm.__call__-chart", lambda: TH(XO), CM, r"OneForm.__call__: Z: .*different charts"),
    ("OneForm.__add__-type", lambda: TH + X, A, r"OneForm.__add__: other: expected a OneForm"),
    ("OneForm.__add__-chart", lambda: TH + THO, CM, r"OneForm.__add__: other: .*different charts"),
    ("OneForm.__sub__-type", lambda: TH - 1, A, r"OneForm.__sub__: other: expected a OneForm"),
    ("OneForm.__mul__-injection", lambda: TH * INJ, E, r"OneForm.__mul__: f: got the string"),
    ("OneForm.__mul__-form", lambda: TH * TH, A, r"OneForm.__mul__: f: the product of two 1-forms"),
    ("OneForm.lie_derivative-type", lambda: TH.lie_derivative("X"), A, r"lie_derivative: Z: expected a VectorField"),
    ("OneForm.lie_derivative-chart", lambda: TH.lie_derivative(XO), CM, r"lie_derivative: Z: .*different charts"),
    # ------------------------------------------------------------------------- bracket
    ("bracket-Y-injection", lambda: fr.bracket(INJ, X), A, r"bracket: Y: expected a VectorField"),
    ("bracket-Z-none", lambda: fr.bracket(X, None), A, r"bracket: Z: expected a VectorField"),
    ("bracket-ints", lambda: fr.bracket(1, 2), A, r"bracket: Y: expected"),
    ("bracket-mixed", lambda: fr.bracket(X, TV), CM, r"bracket: Y, Z: .*not both vector fields on Q or both on TQ"),
    ("bracket-chart", lambda: fr.bracket(X, XO), CM, r"bracket: Y, Z: .*different charts"),
    ("bracket-chart-TQ", lambda: fr.bracket(TV, TVO), CM, r"TangentVectorField.bracket: other: .*different charts"),
    # ------------------------------------------------------------------------- Frame
    ("Frame-fields-injection", lambda: Frame(INJ), A, r"Frame: fields: expected a sequence of VectorFields"),
    ("Frame-fields-none", lambda: Frame(None), A, r"Frame: fields: expected a sequence"),
    ("Frame-fields-item", lambda: Frame([X, "y"]), A, r"Frame: fields\[1\]: expected a VectorField"),
    ("Frame-fields-empty", lambda: Frame([]), SF, r"Frame: fields: no vector fields"),
    ("Frame-fields-singular", lambda: Frame([X, 2 * X]), SF, r"Frame: fields: .*linearly dependent"),
    ("Frame-fields-count", lambda: Frame([X]), SF, r"Frame: fields: 1 fields given on a chart of dimension 2"),
    ("Frame-fields-chart", lambda: Frame([X, XO]), CM, r"Frame: fields: field 2 lives on"),
    ("Frame-v-injection", lambda: Frame([X, Y], v=INJ), E, r"Frame: v: .*not a valid name prefix"),
    ("Frame-v-int", lambda: Frame([X, Y], v=3), A, r"Frame: v: expected a name prefix"),
    ("Frame-v-clash", lambda: Frame([X, Y], v=[x, y]), E, r"Frame: v: quasi-velocity symbols .* clash"),
    ("Frame-v-count", lambda: Frame([X, Y], v=[sp.Symbol("w")]), E, r"Frame: v: need 2 quasi-velocity symbols"),
    ("Frame.to_quasi-injection", lambda: F.to_quasi(INJ), E, r"Frame.to_quasi: expr: got the string"),
    ("Frame.to_quasi-nan", lambda: F.to_quasi(sp.nan), E, r"Frame.to_quasi: expr: .*not finite"),
    ("Frame.to_natural-none", lambda: F.to_natural(None), E, r"Frame.to_natural: expr: expected an expression"),
    ("Frame.to_natural-injection", lambda: F.to_natural(INJ), E, r"Frame.to_natural: expr: got the string"),
    ("Frame.on_constraint-bool", lambda: F.on_constraint(True), E, r"Frame.on_constraint: m: True is not an int"),
    ("Frame.on_constraint-range", lambda: F.on_constraint(3), E, r"Frame.on_constraint: m: 3 is not an integer"),
    ("Frame.on_constraint-string", lambda: F.on_constraint("1"), E, r"Frame.on_constraint: m: '1' is not"),
    ("Frame.__getitem__-range", lambda: F[2], A, r"Frame.__getitem__: i: must be ≤ 1"),
    ("Frame.__getitem__-string", lambda: F["0"], A, r"Frame.__getitem__: i: expected an integer"),
    ("Frame.apply_complete-i", lambda: F.apply_complete(2, x), A, r"Frame.apply_complete: i: must be ≤ 1"),
    ("Frame.apply_complete-injection", lambda: F.apply_complete(0, INJ), E, r"apply_complete: f: got the string"),
    ("Frame.apply_vertical-none", lambda: F.apply_vertical(0, None), E, r"apply_vertical: f: expected an expr"),
    ("Frame.apply_vertical-i", lambda: F.apply_vertical(1.0, x), A, r"apply_vertical: i: expected an integer"),
    ("Frame.complete_lift-bool", lambda: F.complete_lift(True), A, r"Frame.complete_lift: i: expected an integer"),
    ("Frame.vertical_lift-range", lambda: F.vertical_lift(-3), A, r"Frame.vertical_lift: i: must be ≥ -2"),
    ("Frame.change-injection", lambda: F.change([[INJ, 0], [0, 1]]), E, r"Frame.change: A\[0,0\]: got the string"),
    ("Frame.change-string", lambda: F.change(INJ), E, r"Frame.change: A: expected a matrix"),
    ("Frame.change-shape", lambda: F.change([[1]]), SF, r"Frame.change: A: the matrix must be 2x2, got 1x1"),
    ("Frame.change-singular", lambda: F.change([[1, 1], [1, 1]]), SF, r"Frame.change: A: .* is singular"),
    ("Frame.change-nan", lambda: F.change([[sp.nan, 0], [0, 1]]), E, r"Frame.change: A\[0,0\]: .*not finite"),
    ("Frame.change-fibre", lambda: F.change([[ux, 0], [0, 1]]), E, r"Frame.change: A\[0,0\]: .*fibre"),
    ("Frame.change-v", lambda: F.change(EYE, v=5), A, r"Frame.change: v: expected a name prefix"),
    ("Frame.components_of-type", lambda: F.components_of([1, 0]), A, r"components_of: Z: expected a VectorField"),
    ("Frame.components_of-chart", lambda: F.components_of(XO), CM, r"components_of: Z: .*different charts"),
    ("Frame.coordinate-chart", lambda: Frame.coordinate("x y"), A, r"Frame.coordinate: chart: expected a Chart"),
    ("Frame.adapted-complement", lambda: Frame.adapted([X], [INJ]), A, r"complete_frame: complement\[0\]: expected"),
    ("Frame.adapted-distribution", lambda: Frame.adapted(None), A, r"complete_frame: distribution: expected"),
    # ------------------------------------------------------------------------- complete_frame
    ("complete_frame-injection", lambda: fr.complete_frame(INJ), A, r"complete_frame: distribution: expected"),
    ("complete_frame-none", lambda: fr.complete_frame(None), A, r"complete_frame: distribution: expected"),
    ("complete_frame-item", lambda: fr.complete_frame([X, 3]), A, r"complete_frame: distribution\[1\]: expected"),
    ("complete_frame-empty", lambda: fr.complete_frame([]), CE, r"complete_frame: distribution: no spanning fields"),
    ("complete_frame-chart", lambda: fr.complete_frame([X, XO]), CM, r"complete_frame: distribution\[1\]: field on"),
    ("complete_frame-complement-string", lambda: fr.complete_frame([X], INJ), A, r"complete_frame: complement: exp"),
    ("complete_frame-complement-chart", lambda: fr.complete_frame([X], [XO]), CM, r"complete_frame: complement\[0\]"),
    (
        "complete_frame-complement-count",
        lambda: fr.complete_frame([X], [Y, Y]),
        SF,
        r"complete_frame: complement: 1 fields for D plus 2",
    ),
    (
        "complete_frame-complement-singular",
        lambda: fr.complete_frame([X], [2 * X]),
        SF,
        r"complete_frame: complement: D and the complement do not form a frame",
    ),
    ("complete_frame-at-type", lambda: fr.complete_frame([X], at=5), A, r"complete_frame: at: expected a mapping"),
    (
        "complete_frame-at-injection",
        lambda: fr.complete_frame([X], at={x: INJ, y: 0}),
        E,
        r"complete_frame: at\[x\]: got the string",
    ),
    ("complete_frame-at-nan", lambda: fr.complete_frame([X], at={x: sp.nan, y: 0}), E, r"at\[x\]: .*not finite"),
    (
        "complete_frame-at-missing",
        lambda: fr.complete_frame([X], at={x: 0}),
        E,
        r"complete_frame: at: .*gives no value for \['y'\]",
    ),
    (
        "complete_frame-dependent-at",
        lambda: fr.complete_frame([X, Y], at={x: 0, y: 0}),
        SF,
        r"complete_frame: distribution: .*dependent at",
    ),
    ("complete_frame-v", lambda: fr.complete_frame([X], v=None), A, r"complete_frame: v: expected a name prefix"),
    # ------------------------------------------------------------------------- anholonomy_after_change
    (
        "anholonomy_after_change-frame",
        lambda: fr.geometry.anholonomy_after_change("F", EYE),
        A,
        r"change: frame: expected",
    ),
    (
        "anholonomy_after_change-injection",
        lambda: fr.geometry.anholonomy_after_change(F, [[INJ, 0], [0, 1]]),
        E,
        r"anholonomy_after_change: A\[0,0\]: got the string",
    ),
    (
        "anholonomy_after_change-string",
        lambda: fr.geometry.anholonomy_after_change(F, INJ),
        E,
        r"anholonomy_after_change: A: expected a matrix",
    ),
    (
        "anholonomy_after_change-none",
        lambda: fr.geometry.anholonomy_after_change(F, None),
        E,
        r"after_change: A: expected",
    ),
    (
        "anholonomy_after_change-shape",
        lambda: fr.geometry.anholonomy_after_change(F, [[1, 0, 0]]),
        SF,
        r"anholonomy_after_change: A: the matrix must be 2x2",
    ),
    (
        "anholonomy_after_change-singular",
        lambda: fr.geometry.anholonomy_after_change(F, [[x, 1], [x, 1]]),
        SF,
        r"anholonomy_after_change: A: .*singular",
    ),
    (
        "anholonomy_after_change-nan",
        lambda: fr.geometry.anholonomy_after_change(F, [[1, 0], [sp.zoo, 1]]),
        E,
        r"anholonomy_after_change: A\[1,0\]: .*not finite",
    ),
    (
        "anholonomy_after_change-fibre",
        lambda: fr.geometry.anholonomy_after_change(F, [[1, uy], [0, 1]]),
        E,
        r"anholonomy_after_change: A\[0,1\]: .*fibre",
    ),
    # ------------------------------------------------------------------------- LinearConstraints
    ("LinearConstraints-injection", lambda: LinearConstraints(CH3, [INJ]), E, r"rows\[0\]: got the string"),
    ("LinearConstraints-string", lambda: LinearConstraints(CH3, INJ), A, r"LinearConstraints: rows: expected"),
    ("LinearConstraints-none", lambda: LinearConstraints(CH3, None), A, r"LinearConstraints: rows: expected"),
    ("LinearConstraints-chart", lambda: LinearConstraints("q", [[1, 0, 0]]), A, r"LinearConstraints: chart: exp"),
    ("LinearConstraints-empty", lambda: LinearConstraints(CH3, []), CE, r"LinearConstraints: rows: no constraints"),
    ("LinearConstraints-row-length", lambda: LinearConstraints(CH3, [[1, 0]]), CE, r"rows\[0\] has 2 entries"),
    (
        "LinearConstraints-rank",
        lambda: LinearConstraints(CH3, [[0, q1, 1], [0, 2 * q1, 2]]),
        CE,
        r"LinearConstraints: rows: .*rank 1 \(deficient\)",
    ),
    (
        "LinearConstraints-rank-expressions",
        lambda: LinearConstraints(CH3, [u3 + q1 * u2, -2 * u3 - 2 * q1 * u2]),
        CE,
        r"LinearConstraints: rows: .*rank 1",
    ),
    (
        "LinearConstraints-nonlinear",
        lambda: LinearConstraints(CH3, [u3**2 + u2]),
        CE,
        r"rows\[0\]: .*not linear and homogeneous",
    ),
    ("LinearConstraints-affine", lambda: LinearConstraints(CH3, [u3 + 1]), CE, r"rows\[0\]: .*not linear and homog"),
    (
        "LinearConstraints-too-many",
        lambda: LinearConstraints(CH3, [[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
        CE,
        r"LinearConstraints: rows: 3 independent constraints .*leave no motion",
    ),
    ("LinearConstraints-nan", lambda: LinearConstraints(CH3, [[sp.nan, 0, 1]]), E, r"rows\[0\]\[0\]: .*not finite"),
    ("LinearConstraints-fibre", lambda: LinearConstraints(CH3, [[u1, 0, 1]]), E, r"rows\[0\]\[0\]: .*fibre"),
    ("LinearConstraints-none-row", lambda: LinearConstraints(CH3, [None]), E, r"rows\[0\]: expected an expression"),
    ("LinearConstraints.adapted_frame-complement", lambda: LC.adapted_frame(INJ), A, r"complement: expected"),
    ("LinearConstraints.adapted_frame-v", lambda: LC.adapted_frame(v=3), A, r"complete_frame: v: expected"),
    # ------------------------------------------------------------------------- Distribution
    ("Distribution-injection", lambda: Distribution(INJ), A, r"Distribution: fields: expected a sequence"),
    ("Distribution-none", lambda: Distribution(None), A, r"Distribution: fields: expected a sequence"),
    ("Distribution-item", lambda: Distribution([X3, "y"]), A, r"Distribution: fields\[1\]: expected a VectorField"),
    ("Distribution-empty", lambda: Distribution([]), CE, r"Distribution: fields: no spanning fields"),
    ("Distribution-dependent", lambda: Distribution([X3, q1 * X3]), CE, r"Distribution: fields: .*rank 1"),
    ("Distribution-chart", lambda: Distribution([X, XO]), CM, r"Distribution: fields\[1\]: .*different charts"),
    ("Distribution.contains-type", lambda: D3.contains(INJ), A, r"Distribution.contains: Z: expected a VectorField"),
    ("Distribution.contains-chart", lambda: D3.contains(X), CM, r"Distribution.contains: Z: .*different charts"),
    ("Distribution.adapted_frame-complement", lambda: D3.adapted_frame([INJ]), A, r"complement\[0\]: expected"),
    ("Distribution.adapted_frame-v", lambda: D3.adapted_frame(v=[q1]), E, r"complete_frame: v: need 3"),
    # ------------------------------------------------------------------------- FrobeniusResult
    ("FrobeniusResult-integrable-string", lambda: FrobeniusResult("yes", ()), A, r"FrobeniusResult: integrable"),
    ("FrobeniusResult-integrable-none", lambda: FrobeniusResult(None, ()), A, r"FrobeniusResult: integrable"),
    ("FrobeniusResult-offending-injection", lambda: FrobeniusResult(False, INJ), A, r"offending: expected a seq"),
    ("FrobeniusResult-offending-none", lambda: FrobeniusResult(True, None), A, r"offending: expected a sequence"),
    ("FrobeniusResult-offending-item", lambda: FrobeniusResult(False, ((0, 1, "B"),)), A, r"offending\[0\]"),
    ("FrobeniusResult-offending-bool", lambda: FrobeniusResult(False, ((True, 1, X),)), A, r"offending\[0\]"),
    ("FrobeniusResult-inconsistent", lambda: FrobeniusResult(True, ((0, 1, X),)), A, r"offending: .*contradict"),
    # ------------------------------------------------------------------------- TangentVectorField
    ("TangentVectorField-injection", lambda: TangentVectorField(CH, [INJ, 0], [0, 0]), E, r"base\[0\]: got the str"),
    ("TangentVectorField-string", lambda: TangentVectorField(CH, [0, 0], INJ), E, r"fibre: expected a sequence"),
    ("TangentVectorField-time", lambda: TangentVectorField(CH, [0, 0], [0, 0], INJ), E, r"time: got the string"),
    ("TangentVectorField-length", lambda: TangentVectorField(CH, [0], [0, 0]), E, r"base: expected 2 entries"),
    ("TangentVectorField-zoo", lambda: TangentVectorField(CH, [0, 0], [sp.zoo, 0]), E, r"fibre\[0\]: .*not finite"),
    ("TangentVectorField-none", lambda: TangentVectorField(CH, None, [0, 0]), E, r"base: expected a sequence"),
    ("TangentVectorField-chart", lambda: TangentVectorField(None, [0, 0], [0, 0]), A, r"chart: expected a Chart"),
    ("TangentVectorField-frame", lambda: TangentVectorField(CH, [0, 0], [0, 0], frame="F"), A, r"frame: expected"),
    (
        "TangentVectorField-frame-chart",
        lambda: TangentVectorField(CH, [0, 0], [0, 0], frame=F3),
        CM,
        r"TangentVectorField: frame: frame on",
    ),
    ("TangentVectorField.natural-injection", lambda: TangentVectorField.natural(CH, [0, 0], [0, INJ]), E, r"fibre"),
    ("TangentVectorField.__call__-injection", lambda: TV(INJ), E, r"TangentVectorField.__call__: f: got the str"),
    ("TangentVectorField.__mul__-injection", lambda: TV * INJ, E, r"TangentVectorField.__mul__: f: got the str"),
    ("TangentVectorField.__mul__-field", lambda: TV * TV, A, r"TangentVectorField.__mul__: f: the product"),
    ("TangentVectorField.__mul__-I", lambda: TV * sp.I, E, r"TangentVectorField.__mul__: f: .*complex"),
    ("TangentVectorField.__add__-type", lambda: TV + 1, A, r"TangentVectorField.__add__: other: expected"),
    ("TangentVectorField.__add__-chart", lambda: TV + TVO, CM, r"TangentVectorField.__add__: other: .*different"),
    ("TangentVectorField.__sub__-type", lambda: TV - X, A, r"TangentVectorField.__sub__: other: expected"),
    ("TangentVectorField.bracket-type", lambda: TV.bracket(X), A, r"TangentVectorField.bracket: other: expected"),
    ("TangentVectorField.equals-type", lambda: TV.equals(None), A, r"TangentVectorField.equals: other: expected"),
    ("TangentVectorField.in_frame-type", lambda: TV.in_frame("F"), A, r"TangentVectorField.in_frame: frame: exp"),
    ("TangentVectorField.in_frame-chart", lambda: TV.in_frame(F3), CM, r"TangentVectorField.in_frame: frame: "),
    # ------------------------------------------------------------------------- SecondOrderField
    ("SecondOrderField-injection", lambda: SecondOrderField(F, [INJ, 0]), E, r"SecondOrderField: Gamma\[0\]: got"),
    ("SecondOrderField-string", lambda: SecondOrderField(F, INJ), E, r"SecondOrderField: Gamma: expected a seq"),
    ("SecondOrderField-length", lambda: SecondOrderField(F, [0]), E, r"SecondOrderField: Gamma: expected 2 entries"),
    ("SecondOrderField-nan", lambda: SecondOrderField(F, [0, sp.nan]), E, r"Gamma\[1\]: .*not finite"),
    ("SecondOrderField-frame", lambda: SecondOrderField(CH, [0, 0]), A, r"SecondOrderField: frame: expected a Frame"),
    ("SecondOrderField-m-bool", lambda: SecondOrderField(F, [0, 0], m=True), A, r"SecondOrderField: m: expected"),
    ("SecondOrderField-m-range", lambda: SecondOrderField(F, [0, 0], m=3), A, r"SecondOrderField: m: must be ≤ 2"),
    ("SecondOrderField-m-string", lambda: SecondOrderField(F, [0, 0], m="1"), A, r"SecondOrderField: m: expected"),
    (
        "SecondOrderField-time_dependent",
        lambda: SecondOrderField(F, [0, 0], time_dependent="yes"),
        A,
        r"SecondOrderField: time_dependent: expected True or False",
    ),
    ("SecondOrderField.__call__-injection", lambda: SOF(INJ), E, r"SecondOrderField.__call__: f: got the string"),
    ("SecondOrderField.in_frame-type", lambda: SOF.in_frame(None), A, r"SecondOrderField.in_frame: frame: exp"),
    ("SecondOrderField.in_frame-chart", lambda: SOF.in_frame(F3), CM, r"SecondOrderField.in_frame: frame: frame"),
    ("SecondOrderField.equals-type", lambda: SOF.equals(3), A, r"SecondOrderField.equals: other: expected"),
    ("SecondOrderField.subs-injection", lambda: SOF.subs({k: INJ}), E, r"subs: values\[k\]: got the string"),
    ("SecondOrderField.subs-type", lambda: SOF.subs([1]), A, r"SecondOrderField.subs: values: expected a mapping"),
    ("SecondOrderField.subs-key", lambda: SOF.subs({"k": 1}), E, r"SecondOrderField.subs: values: key 'k'"),
    ("SecondOrderField.subs-not-param", lambda: SOF.subs({x: 1}), E, r"subs: values: \[x\] are not parameters"),
    ("SecondOrderField.subs-nan", lambda: SOF.subs({k: sp.nan}), E, r"subs: values\[k\]: .*not finite"),
    # ------------------------------------------------------------------------- Form
    ("Form-coords-injection", lambda: Form(INJ, 1), A, r"Form: coords: expected a sequence of Symbols"),
    ("Form-coords-none", lambda: Form(None, 0), A, r"Form: coords: expected a sequence of Symbols"),
    ("Form-coords-item", lambda: Form([x, 1], 1), E, r"Form: coords: coordinates must be .*Symbols"),
    ("Form-coords-duplicate", lambda: Form([x, x], 1), E, r"Form: coords: repeated coordinates"),
    ("Form-degree-bool", lambda: Form(C4, True), A, r"Form: degree: expected an integer"),
    ("Form-degree-range", lambda: Form(C4, 5), A, r"Form: degree: must be ≤ 4"),
    ("Form-degree-string", lambda: Form(C4, "1"), A, r"Form: degree: expected an integer"),
    ("Form-terms-type", lambda: Form(C4, 1, INJ), A, r"Form: terms: expected a mapping"),
    ("Form-terms-injection", lambda: Form(C4, 1, {(0,): INJ}), E, r"Form: terms\[\(0,\)\]: got the string"),
    ("Form-terms-index", lambda: Form(C4, 1, {(7,): 1}), E, r"Form: terms: bad index"),
    ("Form-terms-bool-index", lambda: Form(C4, 1, {(True,): 1}), E, r"Form: terms: bad index"),
    ("Form-terms-string-index", lambda: Form(C4, 1, {"0": 1}), E, r"Form: terms: bad index"),
    ("Form-terms-length", lambda: Form(C4, 2, {(0,): 1}), E, r"Form: terms: index \(0,\) has length 1"),
    ("Form-terms-nan", lambda: Form(C4, 1, {(0,): sp.nan}), E, r"Form: terms\[\(0,\)\]: .*not finite"),
    ("Form.function-injection", lambda: Form.function(C4, INJ), E, r"Form.function: f: got the string"),
    ("Form.exact-none", lambda: Form.exact(C4, None), E, r"Form.exact: f: expected an expression"),
    ("Form.differential-x", lambda: Form.differential(C4, "x"), E, r"Form.differential: x: 'x' is not one of"),
    ("Form.differential-coords", lambda: Form.differential(3, x), A, r"Form.differential: coords: expected"),
    ("Form.one_form-length", lambda: Form.one_form(C4, [1]), E, r"Form.one_form: components: 1 components"),
    ("Form.one_form-injection", lambda: Form.one_form(C4, [INJ, 0, 0, 0]), E, r"one_form: components\[0\]: got"),
    ("Form.one_form-int", lambda: Form.one_form(C4, 3), E, r"Form.one_form: components: expected a sequence"),
    ("Form.zero-coords", lambda: Form.zero(None, 1), A, r"Form.zero: coords: expected a sequence"),
    ("Form.__add__-type", lambda: W + 1, A, r"Form.__add__: other: expected a Form"),
    ("Form.__add__-coords", lambda: W + WO, CM, r"Form.__add__: other: forms over different coordinates"),
    ("Form.__add__-degree", lambda: W + W2, E, r"Form.__add__: other: degrees 1 and 2 differ"),
    ("Form.__sub__-type", lambda: W - None, A, r"Form.__sub__: other: expected a Form"),
    ("Form.__mul__-injection", lambda: W * INJ, E, r"Form.__mul__: f: got the string"),
    ("Form.__mul__-zoo", lambda: W * sp.zoo, E, r"Form.__mul__: f: .*not finite"),
    ("Form.wedge-type", lambda: W.wedge(3), A, r"Form.wedge: other: expected a Form"),
    ("Form.__xor__-coords", lambda: W ^ WO, CM, r"Form.wedge: other: forms over different coordinates"),
    ("Form.interior-injection", lambda: W.interior([INJ, 0, 0, 0]), E, r"Form.interior: Z\[0\]: got the string"),
    ("Form.interior-length", lambda: W.interior([1]), E, r"Form.interior: Z: a vector with 1 components"),
    ("Form.interior-mapping", lambda: W.interior({sp.Symbol("zz"): 1}), E, r"Form.interior: Z: \[zz\] are not"),
    ("Form.interior-mapping-injection", lambda: W.interior({x: INJ}), E, r"Form.interior: Z\[x\]: got the string"),
    ("Form.interior-none", lambda: W.interior(None), E, r"Form.interior: Z: None is not a vector"),
    (
        "Form.interior-time",
        lambda: W.interior(TangentVectorField(CH, [0, 0], [0, 0], 1)),
        E,
        r"Form.interior: Z: the vector has a ∂/∂t component",
    ),
    ("Form.__call__-count", lambda: W(), E, r"Form.__call__: vectors: a 1-form evaluated on 0 vectors"),
    ("Form.__call__-injection", lambda: W([INJ, 0, 0, 0]), E, r"Form.__call__: vectors\[0\]\[0\]: got the str"),
    ("Form.coefficient-string", lambda: W.coefficient("x"), E, r"Form.coefficient: xs: 'x' is not a coordinate"),
    ("Form.coefficient-count", lambda: W.coefficient(), E, r"Form.coefficient: xs: 0 coordinates for a 1-form"),
    ("Form.xreplace-injection", lambda: W2.xreplace({x: INJ}), E, r"Form.xreplace: rule\[x\]: got the string"),
    ("Form.xreplace-type", lambda: W.xreplace([1]), A, r"Form.xreplace: rule: expected a mapping"),
    ("Form.equals-type", lambda: W.equals("w"), A, r"Form.equals: other: expected a Form"),
    # ------------------------------------------------------------------------- tidy / is_zero
    ("tidy-injection", lambda: fr.tidy(INJ), E, r"^tidy: expr: got the string"),
    ("tidy-none", lambda: fr.tidy(None), E, r"^tidy: expr: expected an expression"),
    ("tidy-bool", lambda: fr.tidy(True), E, r"^tidy: expr: expected an expression"),
    ("tidy-nan", lambda: fr.tidy(sp.nan), E, r"^tidy: expr: the expression is nan"),
    ("tidy-float-nan", lambda: fr.tidy(float("nan")), E, r"^tidy: expr: the expression is nan"),
    ("tidy-list", lambda: fr.tidy([x]), E, r"^tidy: expr: expected a sympy expression"),
    ("tidy-array", lambda: fr.tidy(sp.Array([x])), E, r"^tidy: expr: .*not a scalar"),  # a matrix: entrywise
    ("is_zero-injection", lambda: fr.is_zero(INJ), E, r"^is_zero: expr: got the string"),
    ("is_zero-none", lambda: fr.is_zero(None), E, r"^is_zero: expr: expected an expression"),
    ("is_zero-bool", lambda: fr.is_zero(False), E, r"^is_zero: expr: expected an expression"),
    ("is_zero-nan", lambda: fr.is_zero(sp.nan), E, r"^is_zero: expr: the expression is nan"),
    ("is_zero-object", lambda: fr.is_zero(object()), E, r"^is_zero: expr: expected a sympy expression"),
    ("is_zero-matrix", lambda: fr.is_zero(sp.zeros(2, 2)), E, r"^is_zero: expr"),
    ("is_zero-relation", lambda: fr.is_zero(sp.Eq(x, 0)), E, r"^is_zero: expr: .*not a scalar"),
    # ---------------------------------------------------------------- NilpotentApproximation
    (
        "NilpotentApproximation-point-injection",
        lambda: dataclasses.replace(NIL, point=((H3.q[0], INJ),)),
        E,
        r"NilpotentApproximation: point\[hx\]: got the string",
    ),
    ("NilpotentApproximation-point-none", lambda: dataclasses.replace(NIL, point=None), A, r"point: expected"),
    ("NilpotentApproximation-weights-string", lambda: dataclasses.replace(NIL, weights="112"), A, r"weights: expected"),
    (
        "NilpotentApproximation-weights-order",
        lambda: dataclasses.replace(NIL, weights=(2, 1, 1)),
        A,
        r"must start at 1",
    ),
    ("NilpotentApproximation-chart", lambda: dataclasses.replace(NIL, chart="z1 z2 z3"), A, r"chart"),
    ("NilpotentApproximation-fields-none", lambda: dataclasses.replace(NIL, fields=()), A, r"fields: expected"),
    (
        "NilpotentApproximation-fields-inhomogeneous",
        lambda: dataclasses.replace(NIL, fields=(VectorField(NIL.chart, [1, 0, NIL.chart.q[0] ** 2]), NIL.fields[1])),
        fr.FramesError,
        r"fields\[0\]",
    ),
    (
        "Distribution.nilpotent_approximation-string",
        lambda: HEIS.nilpotent_approximation({"hx": "0", "hy": 0, "hz": 0}),
        E,
        r"point\[hx\]: got the string",
    ),
    (
        "Distribution.nilpotent_approximation-missing",
        lambda: HEIS.nilpotent_approximation({H3.q[0]: 0}),
        fr.FramesError,
        r"point",
    ),
    # ------------------------------------------------------------------------- BracketFlag
    ("BracketFlag-growth-string", lambda: BracketFlag("23", 3, None, (2, 3)), A, r"BracketFlag: growth: expected"),
    ("BracketFlag-growth-none", lambda: BracketFlag(None, 3, None, (2, 3)), A, r"BracketFlag: growth: expected"),
    ("BracketFlag-growth-range", lambda: BracketFlag((2, 4), 3, None, (2, 4)), A, r"BracketFlag: growth\[1\]: must"),
    (
        "BracketFlag-growth-decreasing",
        lambda: BracketFlag((3, 2), 3, None, (2, 3)),
        A,
        r"BracketFlag: growth: .*must not decrease",
    ),
    ("BracketFlag-dim-bool", lambda: BracketFlag((1,), True, None, (1,)), A, r"BracketFlag: dim: expected an int"),
    ("BracketFlag-point", lambda: BracketFlag((2, 3), 3, INJ, (2, 3)), A, r"BracketFlag: point: expected None"),
    ("BracketFlag-generic", lambda: BracketFlag((2, 3), 3, None, None), A, r"BracketFlag: generic: expected"),
    ("BracketFlag-basis", lambda: BracketFlag((2, 3), 3, None, (2, 3), ("X",)), A, r"BracketFlag: basis\[0\]"),
]

#: Public names of the layer with rows in the table (a row id starts with the name).
COVERED = [
    "BracketFlag",
    "NilpotentApproximation",
    "Chart",
    "Distribution",
    "Form",
    "Frame",
    "FrobeniusResult",
    "LinearConstraints",
    "OneForm",
    "SecondOrderField",
    "TangentVectorField",
    "VectorField",
    "anholonomy_after_change",
    "bracket",
    "complete_frame",
    "is_zero",
    "tidy",
]


@pytest.mark.parametrize(("call", "exc", "pattern"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_bad_input_raises_a_frames_error_naming_the_argument(call, exc, pattern):
    with pytest.raises(exc, match=pattern) as info:
        call()
    assert isinstance(info.value, fr.FramesError)
    assert type(info.value) not in (TypeError, ValueError, KeyError, IndexError, AttributeError)


def test_rows_are_unique_and_name_the_argument():
    ids = [r[0] for r in ROWS]
    assert len(ids) == len(set(ids))
    assert len(ROWS) >= 100
    for rid, _call, exc, _pattern in ROWS:
        assert issubclass(exc, fr.FramesError), rid


def _public_geometry_names() -> set[str]:
    out = set()
    for name in fr.__all__:
        obj = getattr(fr, name)
        mod = getattr(obj, "__module__", "") or ""
        if callable(obj) and (mod.startswith("frames.geometry") or name in ("tidy", "is_zero")):
            out.add(name)
    return out


def test_every_public_geometry_callable_has_rows():
    public = _public_geometry_names()
    missing = public - set(COVERED)
    assert not missing, f"public callables of the geometry layer without bad-input rows: {sorted(missing)}"
    for name in COVERED:
        rows = [r for r in ROWS if r[0] == name or r[0].startswith((f"{name}-", f"{name}."))]
        assert len(rows) >= 5, f"{name}: only {len(rows)} rows"
        assert any("injection" in r[0] or "string" in r[0] for r in rows), f"{name}: no string row"


def test_valid_input_still_works():
    assert VectorField(CH, [sp.Rational(1, 2), 2]).components[1] == 2
    assert fr.tidy(sp.sin(x) ** 2 + sp.cos(x) ** 2) == 1
    assert fr.is_zero(sp.I - sp.I) and not fr.is_zero(sp.oo)
    assert F[-1] is F.fields[1] and F[:1] == F.fields[:1]
    assert F.on_constraint(1) == {F.v[1]: 0}
    assert SOF.subs({k: 4}).Gamma[0] == -4 * x
    assert Form(C4, 1, {0: x}).equals(x * W)
    assert fr.complete_frame([X], at={"x": 0, "y": 1}).dim == 2
    assert CH.total_derivative(x * y, velocities=[1, 2], time=False) == y + 2 * x


def test_the_injection_payload_never_ran():
    """No row made sympy's parser evaluate the payload (rows re-run here: independent of test order)."""
    assert_payload_never_ran(ROWS, SENTINEL, minimum=30)
