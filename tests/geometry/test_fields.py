"""Property-based tests of the geometric identities of the geometric core.

Every identity is checked exactly with the library's zero test on
hypothesis-generated charts, fields, functions and frames.
"""

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import frames as fr
from frames import strategies as fst
from frames.algebra import is_zero
from frames.algebra._sparse import structure_functions
from frames.algebra.internal import canon, entries


@given(fst.chart_and_fields(count=2))
def test_bracket_skew_symmetry(data):
    _, (Y, Z) = data
    assert (fr.bracket(Y, Z) + fr.bracket(Z, Y)).is_zero()


@given(fst.chart_and_fields(count=3, max_dim=3))
def test_jacobi_identity(data):
    _, (X, Y, Z) = data
    J = fr.bracket(X, fr.bracket(Y, Z)) + fr.bracket(Y, fr.bracket(Z, X)) + fr.bracket(Z, fr.bracket(X, Y))
    assert J.is_zero()


@given(st.data())
def test_bracket_leibniz(data):
    ch, (Y, Z) = data.draw(fst.chart_and_fields(count=2))
    f = data.draw(fst.functions_on_Q(ch))
    lhs = fr.bracket(f * Y, Z)
    rhs = f * fr.bracket(Y, Z) - Z(f) * Y
    assert lhs.equals(rhs)


@given(st.data())
def test_bracket_is_commutator_of_derivations(data):
    ch, (Y, Z) = data.draw(fst.chart_and_fields(count=2))
    f = data.draw(fst.functions_on_Q(ch))
    assert is_zero(fr.bracket(Y, Z)(f) - (Y(Z(f)) - Z(Y(f))))


@given(fst.chart_and_fields(count=2))
def test_complete_lift_brackets(data):
    _, (Y, Z) = data
    assert fr.bracket(Y.complete_lift(), Z.complete_lift()).equals(fr.bracket(Y, Z).complete_lift())


@given(fst.chart_and_fields(count=2))
def test_complete_vertical_bracket(data):
    _, (Y, Z) = data
    assert fr.bracket(Y.complete_lift(), Z.vertical_lift()).equals(fr.bracket(Y, Z).vertical_lift())


@given(fst.chart_and_fields(count=2))
def test_vertical_lifts_commute(data):
    _, (Y, Z) = data
    B = fr.bracket(Y.vertical_lift(), Z.vertical_lift())
    assert B.is_vertical() and all(is_zero(c) for c in B.fibre)


@given(st.data())
def test_complete_lift_of_product(data):
    """(fZ)^C = f Z^C + ḟ Z^V (Crampin–Mestdag section 2.1)."""
    ch, (Z,) = data.draw(fst.chart_and_fields(count=1))
    f = data.draw(fst.functions_on_Q(ch))
    lhs = (f * Z).complete_lift()
    rhs = f * Z.complete_lift() + ch.total_derivative(f) * Z.vertical_lift()
    assert lhs.equals(rhs)


@given(st.data())
def test_lifts_on_fibre_linear_functions(data):
    """Z^C(v_θ) = v_{L_Z θ} and Z^V(v_θ) = θ(Z)."""
    ch, (Z,) = data.draw(fst.chart_and_fields(count=1))
    theta = fr.OneForm(ch, [data.draw(fst.functions_on_Q(ch)) for _ in ch.q])
    vth = theta.fibre_function()
    assert is_zero(Z.complete_lift()(vth) - theta.lie_derivative(Z).fibre_function())
    assert is_zero(Z.vertical_lift()(vth) - theta(Z))


@given(st.data())
def test_lifted_frame_on_quasi_velocities(data):
    """X_i^C(v^j) = −R^j_ik v^k and X_i^V(v^j) = δ_i^j, computed in natural coordinates."""
    ch = data.draw(fst.charts(min_dim=2, max_dim=3))
    F = data.draw(fst.frames_on(ch))
    R = F.anholonomy
    n = F.dim
    for i in range(n):
        XC = F.fields[i].complete_lift()
        XV = F.fields[i].vertical_lift()
        for j in range(n):
            vj = F.v_in_u[j]
            expected = -sum((R[j, i, k] * F.v[k] for k in range(n)), sp.S.Zero)
            assert is_zero(F.to_quasi(XC(vj)) - expected)
            assert is_zero(XV(vj) - (1 if i == j else 0))


@given(st.data())
def test_lifted_frame_in_quasi_coordinates_matches_natural_lifts(data):
    ch = data.draw(fst.charts(min_dim=2, max_dim=3))
    F = data.draw(fst.frames_on(ch))
    XCs, XVs = F.lifted()
    for i in range(F.dim):
        assert XCs[i].equals(F.fields[i].complete_lift())
        assert XVs[i].equals(F.fields[i].vertical_lift())
        assert XCs[i].in_natural().equals(F.fields[i].complete_lift())


@given(fst.charts(min_dim=1, max_dim=4))
def test_coordinate_frame_has_zero_anholonomy(ch):
    F = fr.Frame.coordinate(ch)
    assert F.is_holonomic()
    assert all(r == 0 for r in entries(F.anholonomy))


@given(st.data())
def test_anholonomy_is_skew_and_defines_brackets(data):
    ch = data.draw(fst.charts(min_dim=2, max_dim=3))
    F = data.draw(fst.frames_on(ch))
    R = F.anholonomy
    n = F.dim
    for i in range(n):
        for j in range(n):
            B = fr.bracket(F.fields[i], F.fields[j])
            combo = sum((R[k, i, j] * F.fields[k] for k in range(n)), fr.VectorField(ch, [0] * n))
            assert B.equals(combo)
            for k in range(n):
                assert is_zero(R[k, i, j] + R[k, j, i])


@given(st.data())
def test_anholonomy_transforms_under_change_of_frame(data):
    ch = data.draw(fst.charts(min_dim=2, max_dim=3))
    F = data.draw(fst.frames_on(ch))
    A = data.draw(fst.frames_on(ch)).matrix  # an invertible matrix of functions
    direct = F.change(A).anholonomy
    via_rule = fr.geometry.anholonomy_after_change(F, A)
    assert all(is_zero(a - b) for a, b in zip(entries(direct), entries(via_rule)))


@given(st.data())
def test_bracket_of_complete_lift_and_second_order_field_is_vertical(data):
    ch = data.draw(fst.charts(min_dim=1, max_dim=3))
    Z = data.draw(fst.vector_fields(ch))
    F_acc = [data.draw(fst.functions_on_TQ(ch)) for _ in ch.q]
    Gamma = fr.TangentVectorField.natural(ch, ch.u, F_acc)
    assert Gamma.is_second_order()
    assert fr.bracket(Z.complete_lift(), Gamma).is_vertical()


@given(st.data())
def test_coframe_is_dual(data):
    ch = data.draw(fst.charts(min_dim=1, max_dim=4))
    F = data.draw(fst.frames_on(ch))
    for i, th in enumerate(F.coframe):
        for j, X in enumerate(F.fields):
            assert is_zero(th(X) - (1 if i == j else 0))


@given(st.data())
def test_quasi_velocity_substitutions_are_inverse(data):
    ch = data.draw(fst.charts(min_dim=1, max_dim=3))
    F = data.draw(fst.frames_on(ch))
    f = data.draw(fst.functions_on_TQ(ch))
    assert is_zero(F.to_natural(F.to_quasi(f)) - f)


# ---------------------------------------------------------------- anholonomy: sparse polynomial path


def _reference_anholonomy(F):
    """``R^k_ij`` with plain sympy: brackets by ``diff``, coframe by ``Matrix.inv``."""
    q, n = F.chart.q, F.dim
    X = F.matrix
    Th = X.T.inv()
    R = sp.MutableDenseNDimArray.zeros(n, n, n)
    for i in range(n):
        for j in range(n):
            B = sp.Matrix(
                [
                    sum(X[i, m] * sp.diff(X[j, c], q[m]) - X[j, m] * sp.diff(X[i, c], q[m]) for m in range(n))
                    for c in range(n)
                ]
            )
            for k, r in enumerate(Th * B):
                R[k, i, j] = r
    return R


def _expression_level_anholonomy(F):
    """The expression-level computation (library brackets, ``canon`` of ``Θ [X_i, X_j]``): the fallback."""
    n = F.dim
    R = sp.MutableDenseNDimArray.zeros(n, n, n)
    for (i, j), B in F.brackets.items():
        for k, r in enumerate(F.coframe_matrix * B.components):
            R[k, i, j] = canon(r)
            R[k, j, i] = -canon(r)
    return R


def _assert_equal_to_reference(F):
    R, ref = F.anholonomy, _reference_anholonomy(F)
    for a, b in zip(entries(R), entries(ref), strict=True):
        d = sp.cancel(a - b)
        assert d == 0 or sp.simplify(d) == 0, (a, b)


@st.composite
def _rational_frames(draw, min_dim=2, max_dim=4, trig=False):
    """``P·U`` frames with each field divided by ``1 + q_j²`` or a parameter (rational coframe)."""
    ch = fr.Chart(" ".join(f"q{i + 1}" for i in range(draw(st.integers(min_dim, max_dim)))), params="a")
    F = draw(fst.frames_on(ch, trig=trig))
    scale = [draw(st.sampled_from([sp.Integer(1), 1 + x**2, ch.params[0], x + 2 * ch.params[0]])) for x in ch.q]
    return fr.Frame([X / s for X, s in zip(F.fields, scale, strict=True)])


@settings(max_examples=12)
@given(st.data())
def test_anholonomy_of_polynomial_frames_matches_sympy(data):
    ch = data.draw(fst.charts(min_dim=3, max_dim=6))
    F = data.draw(fst.frames_on(ch))
    assert structure_functions(F.matrix, ch.q, F.coframe_matrix) is not None  # the sparse path is taken
    _assert_equal_to_reference(F)


@settings(max_examples=6)
@given(st.data())
def test_anholonomy_of_trigonometric_frames_matches_sympy(data):
    ch = data.draw(fst.charts(min_dim=2, max_dim=4))
    F = data.draw(fst.frames_on(ch, trig=True))
    _assert_equal_to_reference(F)


@settings(max_examples=15)
@given(st.one_of(_rational_frames(), _rational_frames(max_dim=3, trig=True), st.data()))
def test_anholonomy_sparse_path_gives_the_expression_level_canonical_form(frame_or_data):
    """Same canonical entries (structurally) as the expression-level code, and the same determinant."""
    if isinstance(frame_or_data, fr.Frame):
        F = frame_or_data
    else:
        ch = frame_or_data.draw(fst.charts(min_dim=3, max_dim=6))
        F = frame_or_data.draw(fst.frames_on(ch, trig=frame_or_data.draw(st.booleans())))
    assert list(entries(F.anholonomy)) == list(entries(_expression_level_anholonomy(F)))
    assert F.determinant == canon(F.matrix.det(method="bareiss"))


@pytest.mark.parametrize(
    "entry",
    [
        sp.exp(sp.Symbol("q1")),
        sp.Float(0.5) * sp.Symbol("q1"),
        sp.sqrt(1 + sp.Symbol("q1") ** 2),
        sp.Function("g")(sp.Symbol("q1")),
    ],
)
def test_anholonomy_outside_rational_functions_uses_the_expression_level_code(entry):
    ch = fr.Chart("q1 q2 q3")
    F = fr.Frame([fr.VectorField(ch, [1, 0, 0]), fr.VectorField(ch, [0, 1, entry]), fr.VectorField(ch, [0, 0, 1])])
    assert structure_functions(F.matrix, ch.q, F.coframe_matrix) is None
    R = F.anholonomy
    assert R[2, 0, 1] == canon(sp.diff(entry, ch.q[0])) and R[2, 1, 0] == -R[2, 0, 1]
    assert sum(1 for r in entries(R) if r != 0) == 2
