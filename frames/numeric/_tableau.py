r"""The Butcher tableaux of the library's own Runge–Kutta kernels, written once.

Both engines are driven by these tables: the NumPy batch kernels (:mod:`frames.numeric._rk`) step with
them, and the numba kernels (:mod:`frames.numeric._numba`) are generated from them as literal
coefficients. A stage is ``y + h Σ_j a_sj k_j`` at ``t + c_s h``; a step is
``y + (h / b_scale) Σ_s b_s k_s`` (``b_scale`` keeps RK4's ``h/6 (k1 + 2k2 + 2k3 + k4)`` exact).

* :data:`RK4`: the classical fourth-order scheme (fixed step);
* :data:`DP45`: Dormand–Prince 5(4) (Dormand & Prince 1980) with the error weights ``e`` and the
  4th-order dense output ``p`` of Shampine (1986) — scipy's ``RK45`` table, the same floats
  (``tests/numeric/test_numba.py`` compares them).
"""

from __future__ import annotations

from .._value import Value
from ..errors import ArgumentError

__all__ = ["DP45", "RK4", "ButcherTableau"]


class ButcherTableau(Value):
    """An explicit Runge–Kutta scheme: nodes ``c``, stage rows ``a``, weights ``b / b_scale``.

    ``e`` (error weights over the stages and the FSAL stage) and ``p`` (dense-output polynomial
    coefficients, one row per stage) are given for the embedded adaptive pairs.
    """

    name: str
    c: tuple[float, ...]
    a: tuple[tuple[float, ...], ...]
    b: tuple[float, ...]
    b_scale: float = 1.0
    e: tuple[float, ...] | None = None
    p: tuple[tuple[float, ...], ...] | None = None

    def __check_init__(self) -> None:
        s = len(self.c)
        if len(self.a) != s or any(len(row) != k for k, row in enumerate(self.a)) or len(self.b) != s:
            raise ArgumentError(f"ButcherTableau {self.name}: {s} nodes need rows a_s of length s and {s} weights")
        if self.e is not None and len(self.e) != s + 1:
            raise ArgumentError(f"ButcherTableau {self.name}: e needs {s + 1} entries (the stages and the FSAL stage)")
        if self.p is not None and len(self.p) != s + 1:
            raise ArgumentError(f"ButcherTableau {self.name}: p needs {s + 1} rows")

    @property
    def stages(self) -> int:
        """The number of stages ``s``."""
        return len(self.c)


RK4 = ButcherTableau(
    name="RK4",
    c=(0.0, 1 / 2, 1 / 2, 1.0),
    a=((), (1 / 2,), (0.0, 1 / 2), (0.0, 0.0, 1.0)),
    b=(1.0, 2.0, 2.0, 1.0),
    b_scale=6.0,
)

DP45 = ButcherTableau(
    name="DP45",
    c=(0.0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0),
    a=(
        (),
        (1 / 5,),
        (3 / 40, 9 / 40),
        (44 / 45, -56 / 15, 32 / 9),
        (19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729),
        (9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656),
    ),
    b=(35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84),
    e=(-71 / 57600, 0.0, 71 / 16695, -71 / 1920, 17253 / 339200, -22 / 525, 1 / 40),
    p=(
        (1.0, -8048581381 / 2820520608, 8663915743 / 2820520608, -12715105075 / 11282082432),
        (0.0, 0.0, 0.0, 0.0),
        (0.0, 131558114200 / 32700410799, -68118460800 / 10900136933, 87487479700 / 32700410799),
        (0.0, -1754552775 / 470086768, 14199869525 / 1410260304, -10690763975 / 1880347072),
        (0.0, 127303824393 / 49829197408, -318862633887 / 49829197408, 701980252875 / 199316789632),
        (0.0, -282668133 / 205662961, 2019193451 / 616988883, -1453857185 / 822651844),
        (0.0, 40617522 / 29380423, -110615467 / 29380423, 69997945 / 29380423),
    ),
)
