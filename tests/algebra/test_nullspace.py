"""The null space basis computed in the ring is SymPy's, in canonical form, term for term; the lcm is SymPy's."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
import sympy as sp
from sympy.matrices.utilities import dotprodsimp

from frames.algebra import is_zero
from frames.algebra._flint import enabled as flint_enabled
from frames.algebra._normal import canon_of_value
from frames.algebra.internal import canon, canonical_nullspace, lcm_as_sympy

ROOT = Path(__file__).resolve().parents[2]

x, y, d, b = sp.symbols("x y d b")
th, t1, t2 = sp.symbols("theta theta1 theta2")
s, c = sp.sin, sp.cos


def _example(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _sympy_path(M: sp.Matrix) -> list[list[sp.Expr]]:
    """What the default basis of a distribution computed before: SymPy's elimination, then canon."""
    with dotprodsimp(False):
        basis = sp.Matrix(M).nullspace(iszerofunc=is_zero, simplify=False)
    return [[canon(e) for e in v] for v in basis]


MATRICES = {
    "knife edge": sp.Matrix([[-s(th), c(th), 0]]),
    "two rows, a parameter": sp.Matrix([[-s(th), c(th), 0, 0], [-s(t1), c(t1), -b * c(th - t1), -d]]),
    "snakeboard": sp.Matrix([[-s(th + t1), c(th + t1), -d * c(t1), 0, 0], [-s(th - t1), c(th - t1), d * c(t1), 0, 0]]),
    # entries that vanish only by sin² + cos² = 1: not a pivot, and not eliminated (as SymPy skips them)
    "a zero by Pythagoras": sp.Matrix([[s(th) ** 2 + c(th) ** 2 - 1, x, y], [1, y, x * s(th) ** 2 + x * c(th) ** 2]]),
    # a row that needs a swap, a free column before a pivot
    "a swap": sp.Matrix([[0, 0, x, 1], [0, y, 1, s(th)], [x * y, 1, 0, c(th)]]),
    "rational entries": sp.Matrix([[1 / (1 + x**2), y, 0], [0, x / d, 1]]),
    "a zero row entry": sp.Matrix([[x, y, 0, 0], [0, 0, x, y]]),
}


@pytest.mark.parametrize("name", list(MATRICES))
def test_same_basis_as_sympy(name):
    M = MATRICES[name]
    fast = canonical_nullspace(M)
    assert fast is not None
    assert fast == _sympy_path(M)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_same_basis_as_sympy_for_a_car_with_trailers(n):
    _, cons = _example("compound_angles").car_with_trailers_parts(n)
    fast = canonical_nullspace(cons.matrix)
    assert fast is not None  # the trailers take the ring's path (a car with six: 0.3 s where SymPy's took 35 s)
    assert fast == _sympy_path(cons.matrix)


def test_same_basis_as_sympy_on_random_sparse_matrices():
    rng = random.Random(7)
    atoms = [x, y, d, s(th), c(th), s(t1), c(t1), s(th - t1)]
    for _ in range(12):
        k, n = rng.choice([(1, 3), (2, 4), (2, 5), (3, 5)])
        rows = []
        for _ in range(k):
            row = []
            for _ in range(n):
                if rng.random() < 0.4:
                    row.append(sp.S.Zero)
                else:
                    row.append(sp.Add(*(rng.randint(-2, 2) * rng.choice(atoms) * rng.choice(atoms) for _ in range(2))))
            rows.append(row)
        M = sp.Matrix(rows)
        fast = canonical_nullspace(M)
        assert fast is None or fast == _sympy_path(M), M


@pytest.mark.parametrize(
    "M",
    [
        sp.Matrix([[1, 2, 3]]),  # SymPy eliminates over QQ there
        sp.Matrix([[sp.exp(x), y, 1]]),
        sp.Matrix([[sp.tan(th), 1, 0]]),
        sp.Matrix([[sp.sqrt(x), 1, 0]]),
        # the basis reads a row left of its pivot, where a zero by Pythagoras was not eliminated: SymPy's entry
        # there carries the row's products of pivots, which the mirror does not track
        sp.Matrix([[x, s(th) ** 2 + c(th) ** 2 - 1, y, 1], [1, 0, s(th) ** 2 + c(th) ** 2, x * y]]),
    ],
)
def test_outside_the_mirrored_case_none(M):
    assert canonical_nullspace(M) is None


def test_canon_of_value_is_canon():
    big = sp.expand((s(th) + c(t1) + x) ** 6) / (s(th) * c(t1) + 1)  # large: the ring's sign convention
    small = (x**2 - 1) / (1 - x) + s(th) / (2 * x)  # small: sympy's cancel
    poly = (x + s(th)) * (y - c(th))
    for e in (big, small, poly, -small):
        value = sp.cancel(e)  # the same rational function, written otherwise
        assert canon_of_value(e, value) == canon(e)


def test_canon_of_value_refuses_a_fraction_without_denominator():
    from frames.algebra.internal import UnsupportedExpression

    with pytest.raises(UnsupportedExpression):
        canon_of_value(sp.tan(th) * c(th), s(th))


LCM_CASES = [
    [-s(th) * c(t1) + x * y, sp.S.One, 2 * s(th) * c(t1) - 2 * x * y],
    [-(x + y) * (x - y), (x + y) * d],
    [3 * x * y + 3 * y**2, -2 * x - 2 * y],
    [-x - y],
    [sp.S.One, -x * y - 1],
    [sp.S(2), sp.S(3)],
    [x + 1, x**2 - 1],  # one generator: SymPy's own
    [(x * s(th) - c(th)) ** 2 * d, -(x * s(th) - c(th)) * d**2, y - d],
]


@pytest.fixture
def flint_lcm_always(monkeypatch):
    """Small polynomials go to FLINT's gcds too (by default ``sympy.lcm`` takes them)."""
    from frames.algebra import _nullspace

    monkeypatch.setattr(_nullspace, "SYMPY_LCM_OPS", 0)


@pytest.mark.parametrize("exprs", LCM_CASES)
def test_lcm_as_sympy(exprs, flint_lcm_always):
    assert lcm_as_sympy([sp.expand(e) for e in exprs]) == sp.lcm([sp.expand(e) for e in exprs])


def test_lcm_as_sympy_takes_flint(flint_lcm_always):
    if not flint_enabled():
        pytest.skip("python-flint not installed")
    rng = random.Random(3)
    gens = [x, y, d, s(th), c(th)]
    for _ in range(20):
        base = [
            sp.Add(*(rng.randint(-3, 3) * rng.choice(gens) ** rng.randint(0, 2) for _ in range(3))) for _ in range(3)
        ]
        exprs = [sp.expand(rng.choice([-1, 1, 2]) * base[i] * base[rng.randrange(3)]) for i in range(3)]
        exprs = [e for e in exprs if e != 0]
        if exprs:
            assert lcm_as_sympy(exprs) == sp.lcm(exprs), exprs
