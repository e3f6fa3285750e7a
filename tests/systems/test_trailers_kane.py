"""The car with N trailers of ``benchmarks/stability.py`` built a second time with SymPy's ``KanesMethod`` (rigid
bodies, the no-slip conditions as velocity constraints): its ``linearize`` about straight motion has the
eigenvalues of ``frames.linearize`` on the N-trailer frame, apart from the zero eigenvalues of the position
``(x, y)`` that frames removes."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

import frames as fr
from benchmarks.stability import VALUES, chain, chain_kane, kane_linearize

V = sp.Symbol("V")


def _split(eigs: np.ndarray) -> tuple[int, np.ndarray]:
    """The number of (numerically) zero eigenvalues and the others, sorted."""
    zero = np.abs(eigs) < 1e-9
    return int(zero.sum()), np.sort_complex(eigs[~zero])


@pytest.mark.parametrize("n", [1, 2])
def test_kane_linearization_has_the_eigenvalues_of_frames(n):
    nh = chain(n)
    ch = nh.lagrangian.chart
    lin = fr.linearize(nh, {q: 0 for q in ch.q} | {u: 0 for u in ch.u} | {ch.u[0]: V})
    A, _B = kane_linearize(chain_kane(n), V)
    assert A.shape == (n + 5, n + 5) and len(lin.states) == n + 3 and len(lin.removed) == 2
    vals = {k: sp.Rational(v) for k, v in VALUES.items()}
    for speed in (sp.Integer(-1), sp.Rational(3, 5), sp.Integer(2)):
        kane = np.linalg.eigvals(np.array(A.xreplace({sp.Symbol(k): v for k, v in vals.items()} | {V: speed}), float))
        ours = lin.eigenvalues(vals | {"V": speed})
        (kz, kn), (oz, on) = _split(kane), _split(np.asarray(ours, complex))
        assert kz == oz + 2  # x and y: cyclic, removed by frames
        assert len(kn) == n and np.allclose(kn, on)
        assert np.allclose(kn, -float(speed / vals["d"]))  # each trailer: θ_i relaxes at rate V/d forwards
