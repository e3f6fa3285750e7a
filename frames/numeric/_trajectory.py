"""Results of integration: :class:`Trajectory` and :class:`TrajectoryBatch`."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import (
    OptionalDependencyError,
)

# ----------------------------------------------------------------------------- trajectories
from ._compiled import CompiledSystem
from ._plot import Panel, plot_panels, write_csv

__all__ = ["Trajectory", "TrajectoryBatch"]


def _frozen(a: np.ndarray | None) -> np.ndarray | None:
    if a is None:
        return None
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a


@dataclass(frozen=True, eq=False, repr=False)
class Trajectory:
    r"""A computed motion.

    Equality is identity: a trajectory holds floating-point arrays, compare them with ``numpy.allclose``.

    Attributes
    ----------
    t : ndarray, shape (N,)
    q, u, v : ndarray, shape (N, n)
        Coordinates, natural velocities and quasi-velocities ``v = Θ(q) u``.
    state : ndarray, shape (N, n_state)
        The integrated state (``(q, v^α)`` in reduced form, ``(q, u)`` in multiplier form).
    multipliers : ndarray, shape (N, n − m), or None
        ``λ_a`` along the motion (when the system is known).
    energy : ndarray, shape (N,), or None
    constraint_values : ndarray, shape (N, n − m), or None
        ``θ^a_j(q) u^j`` evaluated numerically from ``q`` and ``u``.
    reactions : ndarray, shape (N, n), or None
        The constraint forces in natural coordinates, ``ρ_i = θ^a_i(q) λ_a``, so that
        ``d/dt ∂L/∂u^i − ∂L/∂q^i = ρ_i`` along the motion.
    residual : ndarray, shape (N,)
        The Euclidean distance of ``u`` from ``D_q``, ``|u − X_Dᵀ(X_D X_Dᵀ)⁻¹X_D u|`` with ``X_D`` the
        rows ``X_α^j`` (or ``|Aᵀ(AAᵀ)⁻¹A u|`` with ``A = (θ^a_j)`` when no basis of D is known): it does
        not depend on the choice of the complement ``X_a`` (zeros without constraints).
    extras : dict
        Further observables (``"mu"``, ``"lambda"`` for vakonomic / MVM systems).
    params : dict
        Parameter name -> value used.
    form, method : str
    projection : dict or None
        How ``u0`` was projected onto D, if it was (method, given and used ``u0``, residuals).
    info : dict
        Solver statistics (``nfev``, ``message``, ...).
    names : dict
        Component names for the dataframe and plots.
    """

    t: np.ndarray
    q: np.ndarray
    u: np.ndarray
    v: np.ndarray
    state: np.ndarray
    multipliers: np.ndarray | None
    energy: np.ndarray | None
    constraint_values: np.ndarray | None
    residual: np.ndarray
    extras: dict[str, np.ndarray]
    params: dict[str, float]
    form: str
    method: str
    reactions: np.ndarray | None = None
    projection: dict[str, Any] | None = None
    info: dict[str, Any] = field(default_factory=dict)
    names: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def __repr__(self) -> str:
        return (
            f"Trajectory(form={self.form!r}, method={self.method!r}, N={len(self.t)}, "
            f"t=[{self.t[0]:g}, {self.t[-1]:g}], max residual={float(np.max(self.residual)):.3g})"
        )

    def __len__(self) -> int:
        return len(self.t)

    @property
    def energy_drift(self) -> float:
        """``max |E(t) − E(t0)|`` (nan without energy)."""
        if self.energy is None:
            return float("nan")
        return float(np.max(np.abs(self.energy - self.energy[0])))

    def columns(self) -> dict[str, np.ndarray]:
        """Named 1-d columns: t, q's, u's, v's, energy, multipliers, residual, extras."""
        cols: dict[str, np.ndarray] = {"t": self.t}
        nm = self.names
        n = self.q.shape[1]
        for key, arr in (("q", self.q), ("u", self.u), ("v", self.v)):
            labels = nm.get(key, tuple(f"{key}{i + 1}" for i in range(n)))
            for i, lab in enumerate(labels):
                cols[lab] = arr[:, i]
        if self.energy is not None:
            cols["energy"] = self.energy
        if self.multipliers is not None:
            labels = nm.get("multipliers", tuple(f"lambda{i + 1}" for i in range(self.multipliers.shape[1])))
            for i, lab in enumerate(labels):
                cols[lab] = self.multipliers[:, i]
        cols["residual"] = self.residual
        for key, arr in self.extras.items():
            for i in range(arr.shape[1]):
                cols[f"{key}{i + 1}"] = arr[:, i]
        return cols

    def to_dataframe(self) -> Any:
        """A :class:`pandas.DataFrame` of :meth:`columns` (needs pandas)."""
        try:
            import pandas as pd
        except ImportError as exc:
            raise OptionalDependencyError(
                "Trajectory.to_dataframe needs pandas: pip install pandas (or use Trajectory.columns())"
            ) from exc
        return pd.DataFrame(self.columns())

    def plot(self, path: str | os.PathLike[str], title: str | None = None) -> Path:
        """Plot q, v, energy, multipliers and the residual against t; write to ``path`` (needs matplotlib)."""
        n = self.q.shape[1]
        panels: list[Panel] = []
        for key, arr in (("q", self.q), ("v", self.v)):
            labels = self.names.get(key, tuple(f"{key}{i + 1}" for i in range(n)))
            curves = [(labels[i], arr[:, i]) for i in range(n) if key == "q" or np.any(arr[:, i])]
            panels.append((key, curves, False))
        if self.energy is not None:
            panels.append(("E − E(0)", [("E − E(0)", self.energy - self.energy[0])], False))
        if self.multipliers is not None:
            labels = self.names.get("multipliers", ())
            k = self.multipliers.shape[1]
            panels.append(
                (
                    "λ",
                    [(labels[i] if i < len(labels) else f"λ{i + 1}", self.multipliers[:, i]) for i in range(k)],
                    False,
                )
            )
        if self.constraint_values is not None:
            label = "dist(u, D)\n(1e-20 = exact 0)"
            panels.append((label, [(label, np.maximum(self.residual, 1e-20))], True))
        return plot_panels(self.t, panels, path, title or f"{self.form} form, {self.method}")

    def to_csv(self, path: str | os.PathLike[str]) -> Path:
        """Write :meth:`columns` to ``path`` as CSV."""
        return write_csv(self.columns(), path)


def _make_trajectory(
    comp: CompiledSystem,
    t: np.ndarray,
    Y: np.ndarray,
    p: Any,
    method: str,
    projection: dict[str, Any] | None,
    info: dict[str, Any],
    params: dict[str, float],
) -> Trajectory:
    obs = comp.observe(t, Y, p)
    S = comp.system
    q, u = obs["q"], obs["u"]
    cv = comp.constraint_values(t, q, u, p)
    residual = comp.distance_to_D(t, q, u, p) if cv is not None and cv.shape[0] else np.zeros(len(t))
    extras = {k: _frozen(val.T) for k, val in obs.items() if k not in ("q", "u", "v", "energy", "multipliers")}
    reactions = None
    if "multipliers" in obs and comp._A is not None:
        Af = comp._A(t, q, p)
        Am = Af.reshape((Af.shape[0] // S.dim, S.dim, *Af.shape[1:]))
        reactions = np.einsum("ajN,aN->Nj", Am, obs["multipliers"])
    return Trajectory(
        t=_frozen(t),  # type: ignore[arg-type]
        q=_frozen(q.T),  # type: ignore[arg-type]
        u=_frozen(u.T),  # type: ignore[arg-type]
        v=_frozen(obs["v"].T),  # type: ignore[arg-type]
        state=_frozen(Y.T),  # type: ignore[arg-type]
        multipliers=_frozen(obs["multipliers"].T) if "multipliers" in obs else None,
        energy=_frozen(obs["energy"][0]) if "energy" in obs else None,
        constraint_values=_frozen(cv.T) if cv is not None else None,
        residual=_frozen(residual),  # type: ignore[arg-type]
        extras=extras,  # type: ignore[arg-type]
        params=params,
        reactions=_frozen(reactions),
        form=S.form,
        method=method,
        projection=projection,
        info=info,
        names=dict(S.names),
    )


# ----------------------------------------------------------------------------- batches
@dataclass(frozen=True, eq=False, repr=False)
class TrajectoryBatch:
    """Many motions on one time grid: arrays with a leading batch axis.

    Equality is identity: a batch holds floating-point arrays.

    Attributes
    ----------
    t : ndarray (N,)
    q, u, v : ndarray (B, N, n)
    state : ndarray (B, N, n_state)
    energy : ndarray (B, N) or None
    multipliers : ndarray (B, N, k) or None
    residual : ndarray (B, N)
    params : dict
        Name -> scalar or (B,) array.
    info : dict
        Steps taken, rejected, evaluations.
    """

    t: np.ndarray
    q: np.ndarray
    u: np.ndarray
    v: np.ndarray
    state: np.ndarray
    energy: np.ndarray | None
    multipliers: np.ndarray | None
    residual: np.ndarray
    extras: dict[str, np.ndarray]
    params: dict[str, Any]
    form: str
    method: str
    info: dict[str, Any] = field(default_factory=dict)
    names: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.q.shape[0])

    def __repr__(self) -> str:
        return f"TrajectoryBatch(B={len(self)}, N={len(self.t)}, form={self.form!r}, method={self.method!r})"

    def __getitem__(self, i: int) -> Trajectory:
        pi = {k: (float(np.asarray(val)[i]) if np.ndim(val) else float(val)) for k, val in self.params.items()}
        return Trajectory(
            t=self.t,
            q=self.q[i],
            u=self.u[i],
            v=self.v[i],
            state=self.state[i],
            multipliers=None if self.multipliers is None else self.multipliers[i],
            energy=None if self.energy is None else self.energy[i],
            constraint_values=None,
            residual=self.residual[i],
            extras={k: val[i] for k, val in self.extras.items()},
            params=pi,
            form=self.form,
            method=self.method,
            info=self.info,
            names=self.names,
        )
