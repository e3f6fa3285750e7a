"""Bad input raises the library's own exceptions, naming the object and the reason."""

import pytest
import sympy as sp

import frames as fr


@pytest.fixture
def ch():
    return fr.Chart("q1 q2 q3")


def test_singular_frame_reports_determinant(ch):
    q1, q2, _ = ch.q
    X1 = fr.VectorField(ch, [1, q1, 0])
    X2 = fr.VectorField(ch, [q2, q1 * q2, 0])
    X3 = fr.VectorField(ch, [0, 0, 1])
    with pytest.raises(fr.errors.SingularFrameError, match="determinant of the frame matrix = 0"):
        fr.Frame([X1, X2, X3])


def test_wrong_number_of_fields(ch):
    with pytest.raises(fr.errors.SingularFrameError, match="2 fields given on a chart of dimension 3"):
        fr.Frame([fr.VectorField(ch, [1, 0, 0]), fr.VectorField(ch, [0, 1, 0])])


def test_fields_from_different_charts(ch):
    other = fr.Chart("x y z")
    with pytest.raises(fr.errors.ChartMismatchError, match="field 2 lives on"):
        fr.Frame([fr.VectorField(ch, [1, 0, 0]), fr.VectorField(other, [0, 1, 0]), fr.VectorField(ch, [0, 0, 1])])


def test_bracket_across_charts(ch):
    other = fr.Chart("x y z")
    with pytest.raises(fr.errors.ChartMismatchError, match="different charts"):
        fr.bracket(fr.VectorField(ch, [1, 0, 0]), fr.VectorField(other, [0, 1, 0]))


def test_bracket_of_field_on_Q_with_field_on_TQ(ch):
    X = fr.VectorField(ch, [1, 0, 0])
    with pytest.raises(fr.errors.ChartMismatchError, match="not both vector fields on Q or both on TQ"):
        fr.bracket(X, X.complete_lift())


def test_coordinates_that_are_not_symbols():
    with pytest.raises(fr.errors.InvalidExpressionError, match="is not a symbol"):
        fr.Chart([sp.Symbol("x") + 1, sp.Symbol("y")])


def test_components_depending_on_fibre_coordinates(ch):
    u1 = ch.u[0]
    with pytest.raises(fr.errors.InvalidExpressionError, match=r"depends on fibre coordinates \['u1'\]"):
        fr.VectorField(ch, [u1, 0, 0])


def test_undeclared_symbol_in_field(ch):
    a = sp.Symbol("a")
    with pytest.raises(fr.errors.InvalidExpressionError, match=r"uses symbols \['a'\].*declared parameters"):
        fr.VectorField(ch, [a, 0, 0])


def test_wrong_number_of_components(ch):
    with pytest.raises(fr.errors.InvalidExpressionError, match="2 components given on a chart of dimension 3"):
        fr.VectorField(ch, [1, 0])


def test_string_components_are_not_parsed(ch):
    with pytest.raises(fr.errors.InvalidExpressionError, match="strings are never parsed"):
        fr.VectorField(ch, ["__import__('os')", 0, 0])


def test_all_errors_are_frames_errors():
    for exc in (
        fr.errors.SingularFrameError,
        fr.errors.ChartMismatchError,
        fr.errors.InvalidExpressionError,
        fr.errors.RegularityError,
        fr.errors.ConstraintError,
    ):
        assert issubclass(exc, fr.FramesError)
