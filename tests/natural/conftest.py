"""Fixtures of the natural-layer tests (one test file per module of ``frames/natural``)."""

import pytest
import sympy as sp

import frames as fr


@pytest.fixture(scope="module")
def knife():
    """The knife edge and its constraint ``V = −sin φ u_x + cos φ u_y`` (linear in the velocities)."""
    mdl = fr.models.knife_edge()
    phi, _x, _y = mdl.chart.q
    _uphi, ux, uy = mdl.chart.u
    return mdl, -sp.sin(phi) * ux + sp.cos(phi) * uy


@pytest.fixture(scope="module")
def heisenberg():
    """The free particle in R³ with ``u_z = y u_x`` (Kozlov's and Chetaev's examples)."""
    ch = fr.Chart("x y z")
    _x, y, _z = ch.q
    ux, uy, uz = ch.u
    return fr.Lagrangian(ch, (ux**2 + uy**2 + uz**2) / 2), uz - y * ux


@pytest.fixture(scope="module")
def coin():
    """The MVM of the coin rolling on an inclined plane, auxiliaries ``u_φ, u_θ`` ([PGG] section 5)."""
    mdl = fr.models.rolling_coin_incline()
    R = mdl.params["R"]
    th = mdl.chart.q[3]
    ux, uy, uph, uth = mdl.chart.u
    return fr.ModifiedVakonomic(mdl.lagrangian, [ux - R * sp.sin(th) * uph, uy - R * sp.cos(th) * uph], [uph, uth])
