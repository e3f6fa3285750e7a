"""Results of integration: :class:`Trajectory` and :class:`TrajectoryBatch`."""

from __future__ import annotations

import dataclasses
import html
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

import numpy as np

from .._value import check_fields
from ..errors import ArgumentError, OptionalDependencyError

# ----------------------------------------------------------------------------- trajectories
from ._compiled import KINEMATIC, CompiledSystem
from ._plot import PANELS, Panel, draw_panels, panel_title, plot_panels, trajectory_panels, write_csv

__all__ = ["DenseOutput", "Trajectory", "TrajectoryBatch", "labelled"]


def _frozen(a: np.ndarray | None) -> np.ndarray | None:
    if a is None:
        return None
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a


_T = TypeVar("_T")


class Deferred(Generic[_T]):
    """A value computed on its first read: ``fn()`` (held by a :class:`_LazyField` until then)."""

    __slots__ = ("fn",)

    def __init__(self, fn: Callable[[], _T]) -> None:
        self.fn = fn


def deferred(fn: Callable[[], Any]) -> Any:
    """``Deferred(fn)``, typed as the field it fills (a lazy field's value as the dataclass declares it)."""
    return Deferred(fn)


class _LazyField:
    """A field of a frozen dataclass that may be given as a :class:`Deferred`: evaluated on first read, then kept.

    Installed on the class after the dataclass is made (:func:`_lazy_fields`): the generated ``__init__`` stores
    the value through it, and reads go through it. The observables of a trajectory (energy, multipliers,
    residual, ...) are fields of this kind, so the code that evaluates them is generated only when they are read
    (:class:`~frames.numeric.CompiledSystem`).
    """

    def __init__(self, name: str) -> None:
        self.slot = "_lazy_" + name

    def __get__(self, obj: object | None, owner: Any = None) -> Any:
        if obj is None:
            return self
        d = obj.__dict__
        val = d[self.slot]
        if isinstance(val, Deferred):
            val = d[self.slot] = val.fn()
        return val

    def __set__(self, obj: object, value: Any) -> None:
        obj.__dict__[self.slot] = value


def _lazy_fields(cls: type, *names: str) -> None:
    """Make the dataclass fields ``names`` of ``cls`` lazy (:class:`_LazyField`)."""
    for name in names:
        setattr(cls, name, _LazyField(name))


def _resolved_state(obj: object) -> dict[str, Any]:
    """``obj.__dict__`` with every :class:`Deferred` evaluated (pickling and copying)."""
    d = dict(obj.__dict__)
    for k, val in d.items():
        if isinstance(val, Deferred):
            d[k] = obj.__dict__[k] = val.fn()
    return d


@dataclass(frozen=True, eq=False, repr=False)
class DenseOutput:
    r"""The continuous solution of a scipy solver (:attr:`Trajectory.sol`): the state at any time of the run.

    It wraps the :class:`scipy.integrate.OdeSolution` built from every accepted step's interpolant
    (for ``RK45`` the step's quartic, for ``DOP853`` its 7th-order polynomial, ...), so between the
    steps it has the solver's own accuracy, and at the output times it reproduces
    :attr:`Trajectory.state` to rounding (the samples are computed from the same interpolants).

    ``sol(t)`` is the state in the trajectory's layout: shape ``(n_state,)`` for a scalar ``t`` and
    ``(N, n_state)`` (one row per time, like :attr:`Trajectory.state`) for an array of ``N`` times.
    :meth:`natural` gives the natural coordinates and velocities ``(q, u)`` instead.

    Attributes
    ----------
    ode_solution : scipy.integrate.OdeSolution
        scipy's object (its ``__call__`` returns ``(n_state, N)``, scipy's layout).
    t_min, t_max : float
        The time interval covered (the ends of the run; a terminal event's time ends it).
    """

    ode_solution: Any
    compiled: CompiledSystem
    p: np.ndarray

    @property
    def t_min(self) -> float:
        return float(self.ode_solution.t_min)

    @property
    def t_max(self) -> float:
        return float(self.ode_solution.t_max)

    def __repr__(self) -> str:
        return f"DenseOutput(t=[{self.t_min:g}, {self.t_max:g}], n_state={self.compiled.system.n_state})"

    def _times(self, t: Any) -> np.ndarray:
        try:
            ta = np.asarray(t, dtype=float)
        except (TypeError, ValueError) as exc:
            raise ArgumentError(f"sol: t must be a number or a 1-d array of numbers, got {t!r:.60}") from exc
        if ta.ndim > 1:
            raise ArgumentError(f"sol: t must be a number or a 1-d array of numbers, got shape {ta.shape}")
        if not np.all(np.isfinite(ta)):
            raise ArgumentError(f"sol: t must be finite, got {ta.tolist()}")
        lo, hi = self.t_min, self.t_max
        tol = 8 * np.finfo(float).eps * max(1.0, abs(lo), abs(hi))
        if ta.size and (ta.min() < lo - tol or ta.max() > hi + tol):
            raise ArgumentError(
                f"sol: t = {ta.tolist() if ta.ndim else float(ta)} outside the integrated interval [{lo}, {hi}] "
                "(the dense output does not extrapolate)"
            )
        return ta

    def __call__(self, t: Any) -> np.ndarray:
        """The state at ``t``: ``(n_state,)`` for a scalar, ``(N, n_state)`` for ``N`` times."""
        ta = self._times(t)
        y = np.asarray(self.ode_solution(ta), dtype=float)
        return y if ta.ndim == 0 else y.T

    def natural(self, t: Any) -> tuple[np.ndarray, np.ndarray]:
        """``(q, u)`` at ``t``: arrays ``(n,)`` for a scalar, ``(N, n)`` for ``N`` times."""
        ta = self._times(t)
        y = np.asarray(self.ode_solution(ta), dtype=float)
        obs = self.compiled.observe(ta, y, self.p, keys=("q", "u"))
        if ta.ndim == 0:
            return np.array(obs["q"]), np.array(obs["u"])
        return np.array(obs["q"].T), np.array(obs["u"].T)


@dataclass(frozen=True, eq=False, repr=False)
class _Motion:
    """The one field list of :class:`Trajectory` and :class:`TrajectoryBatch` (a batch adds a leading member axis
    to the arrays); a trajectory adds the fields only one run has (events, dense output, projection, status)."""

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
    name: str = ""
    units: dict[str, str] = field(default_factory=dict)
    time_name: str = "t"
    plane: tuple[str, ...] = ()


@dataclass(frozen=True, eq=False, repr=False)
class Trajectory(_Motion):
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
    sol : DenseOutput or None
        The continuous solution, ``sol(t)`` -> state (layout of :attr:`state`; ``sol.natural(t)`` ->
        ``(q, u)``), as :func:`scipy.integrate.solve_ivp`'s ``sol``. None unless
        ``integrate(..., dense_output=True)`` was asked for a scipy method; always None for
        ``method="lda-midpoint"``, ``backend="numba"`` and batch members (no dense output there).
    t_events : tuple of ndarray, or None
        One array per event given to :func:`integrate`: the times ``(k,)`` at which it occurred
        (None when no events were given).
    y_events : tuple of ndarray, or None
        One array per event: the natural state at those times, shape ``(k, 2n)``, rows
        ``(q, u)`` in chart order (unlike scipy's ``y_events``, which hold the internal state;
        that is ``sol(t_events[i])`` when ``sol`` is kept).
    status : int
        As :func:`scipy.integrate.solve_ivp`: 0 the end of ``t_span`` was reached, 1 a terminal
        event stopped the integration (its time is then ``t[-1]`` when ``t_eval`` was not given). A
        failure (scipy's −1) raises :class:`~frames.errors.IntegrationError` instead.
    message : str
        Why the integration stopped, in words.
    name : str
        The system's name (a model's; empty otherwise), in the title of :meth:`plot`.
    units : dict
        Name -> unit label of coordinates, velocities, time and parameters (a model's
        :attr:`~frames.models.Model.units`, from a system file's ``[units]``), on the axes of :meth:`plot`.
    time_name : str
        The name of time (the chart's time symbol, ``t`` by default).
    plane : tuple of str
        The coordinates ``(x, y)`` of the path panel when a model declares them (its ``plane``).

    Equality stays identity (``eq=False``), so the callable :attr:`sol` never enters a comparison or a hash.
    """

    constraint_values: np.ndarray | None = None
    reactions: np.ndarray | None = None
    projection: dict[str, Any] | None = None
    sol: DenseOutput | None = field(default=None, compare=False)
    t_events: tuple[np.ndarray, ...] | None = field(default=None, compare=False)
    y_events: tuple[np.ndarray, ...] | None = field(default=None, compare=False)
    status: int = 0
    message: str = ""
    inputs: dict[str, np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:  # the fields' declared types (frames._value.check_fields)
        check_fields(self)

    def __getstate__(self) -> dict[str, Any]:
        return _resolved_state(self)

    def __repr__(self) -> str:
        if not len(self.t):  # a terminal event before the first of the requested t_eval
            return f"Trajectory(form={self.form!r}, method={self.method!r}, N=0, status={self.status})"
        return (
            f"Trajectory(form={self.form!r}, method={self.method!r}, N={len(self.t)}, "
            f"t=[{self.t[0]:g}, {self.t[-1]:g}], max residual={float(np.max(self.residual)):.3g})"
        )

    def __len__(self) -> int:
        return len(self.t)

    @property
    def energy_drift(self) -> float:
        """``max |E(t) − E(t0)|`` (nan without energy)."""
        if self.energy is None or not len(self.energy):
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

    #: the panel keys of :meth:`plot`, in drawing order
    PANELS = PANELS

    def panels(self, keys: Sequence[str] | None = None) -> list[Panel]:
        """The panels :meth:`plot` draws (the list ``frames simulate --plot`` draws too): see
        :func:`frames.numeric._plot.trajectory_panels`.

        The path ``y`` against ``x`` for a chart with coordinates named ``x`` and ``y``, then ``q`` and the
        natural velocities ``u`` against t, energy, multipliers and ``dist(u, D)``; ``"v"`` (the
        quasi-velocities) on request. Axis labels carry :attr:`units`.
        """
        return trajectory_panels(
            self.t,
            self.q,
            self.u,
            self.names,
            v=self.v,
            energy=self.energy,
            multipliers=self.multipliers,
            residual=self.residual if self.constraint_values is not None else None,
            units=self.units,
            time=self.time_name,
            plane_names=self.plane,
            keys=keys,
            what="Trajectory.plot",
            inputs=self.inputs,
        )

    @property
    def title(self) -> str:
        """The title of :meth:`plot`: the system's name, the form and the method."""
        return panel_title(self.name, self.form, self.method)

    def plot(
        self,
        path: str | os.PathLike[str] | None = None,
        title: str | None = None,
        *,
        ax: Any = None,
        panels: Sequence[str] | None = None,
    ) -> Any:
        """Plot the motion (needs matplotlib): the x–y path of a planar system, then q, u, energy, multipliers and
        the residual against t, with the units of a system file on the axes.

        Parameters
        ----------
        path : path, optional
            Write the figure to this file (its own Agg canvas; the pyplot backend is not touched)
            and return the path. Its directory must exist: no directory is created (a missing one
            raises :class:`~frames.errors.ArgumentError` naming the path). Without it the panels are drawn on ``ax`` and the axes returned.
        title : str, optional
            Default :attr:`title` (``"name: reduced form, RK45"``).
        ax : matplotlib Axes, or a sequence of them, optional
            One axes per panel drawn (a single ``Axes`` for one panel). Default: a new pyplot figure.
        panels : sequence of str, optional
            Which panels, from :attr:`PANELS` (``"xy"``, ``"q"``, ``"u"``, ``"v"``, ``"inputs"``, ``"energy"``,
            ``"multipliers"``, ``"residual"``); default all that the trajectory has except ``"v"``
            (:meth:`panels`).

        Returns
        -------
        pathlib.Path of the file written if ``path`` is given (``path``, or ``path.png`` when it has no suffix;
        a suffix that is not an image format raises :class:`~frames.errors.ArgumentError` naming the formats),
        else the axes drawn on (one ``Axes`` or an array).
        """
        chosen = self.panels(panels)
        title = title or self.title
        if path is not None:
            if ax is not None:
                raise ArgumentError("Trajectory.plot: give either path (write a file) or ax (draw on axes), not both")
            return plot_panels(self.t, chosen, path, title, "Trajectory.plot")
        return draw_panels(self.t, chosen, ax, title)

    @classmethod
    def concatenate(cls, parts: Sequence[Trajectory]) -> Trajectory:
        """One trajectory from consecutive pieces (each starting where the previous one ends, as
        ``frames simulate`` integrates): the samples joined, the first sample of each later piece dropped.

        The attributes other than the arrays (form, method, names, units, parameters, ...) are the first
        piece's; ``sol``, events and ``projection`` are not joined (the first piece's projection is kept).

        Raises
        ------
        ArgumentError
            No pieces, or a piece that is not a :class:`Trajectory`.
        """
        parts = list(parts)
        if not parts or not all(isinstance(p, Trajectory) for p in parts):
            raise ArgumentError("Trajectory.concatenate: expected a non-empty sequence of Trajectory objects")

        def cat(get: Any) -> Any:
            arrays = [get(p) for p in parts]
            if any(a is None for a in arrays):
                return None
            return _frozen(np.concatenate([a if k == 0 else a[1:] for k, a in enumerate(arrays)]))

        first = parts[0]
        return dataclasses.replace(
            first,
            t=cat(lambda p: p.t),
            q=cat(lambda p: p.q),
            u=cat(lambda p: p.u),
            v=cat(lambda p: p.v),
            state=cat(lambda p: p.state),
            multipliers=cat(lambda p: p.multipliers),
            energy=cat(lambda p: p.energy),
            constraint_values=cat(lambda p: p.constraint_values),
            residual=cat(lambda p: p.residual),
            reactions=cat(lambda p: p.reactions),
            extras={k: cat(lambda p, k=k: p.extras.get(k)) for k in first.extras},
            inputs={k: cat(lambda p, k=k: p.inputs.get(k)) for k in first.inputs},
            info=dict(parts[-1].info),
            sol=None,
            t_events=None,
            y_events=None,
            status=parts[-1].status,
            message=parts[-1].message,
        )

    def to_xarray(self) -> Any:
        """An :class:`xarray.Dataset` with coordinate ``t`` and one variable per column (needs xarray).

        Variables are the columns of :meth:`columns`; ``attrs`` hold the form, the method and the
        parameters, so the dataset is self-describing (``ds.to_netcdf(...)`` keeps them).
        """
        try:
            import xarray as xr
        except ImportError as exc:
            raise OptionalDependencyError(
                "Trajectory.to_xarray needs xarray: pip install 'frames[data]' (or use Trajectory.columns())"
            ) from exc
        cols = self.columns()
        t = cols.pop("t")
        attrs: dict[str, Any] = {"form": self.form, "method": self.method}
        attrs.update({f"param_{k}": float(val) for k, val in self.params.items()})
        return xr.Dataset({k: ("t", np.asarray(val)) for k, val in cols.items()}, coords={"t": t}, attrs=attrs)

    def _summary_rows(self) -> list[tuple[str, str]]:
        rows = [
            ("form", self.form),
            ("method", self.method),
            ("samples", str(len(self.t))),
            ("t", f"[{self.t[0]:g}, {self.t[-1]:g}]" if len(self.t) else "[]"),
            ("coordinates", ", ".join(self.names.get("q", tuple(f"q{i + 1}" for i in range(self.q.shape[1]))))),
            ("max dist(u, D)", f"{float(np.max(self.residual)):.3g}" if len(self.t) else "nan"),
        ]
        if self.energy is not None:
            rows.append(("max |E − E(0)|", f"{self.energy_drift:.3g}"))
        if self.params:
            rows.append(("parameters", ", ".join(f"{k} = {val:g}" for k, val in self.params.items())))
        if "nfev" in self.info:
            rows.append(("nfev", str(self.info["nfev"])))
        rows.append(("status", str(self.status)))
        message = self.message or self.info.get("message", "")
        if message:
            rows.append(("message", str(message)))
        if self.t_events is not None:
            rows.append(("events", ", ".join(str(len(te)) for te in self.t_events)))
        return rows

    def _repr_html_(self) -> str:
        """A small summary table for Jupyter."""
        body = "".join(
            f"<tr><th style='text-align:left'>{html.escape(k)}</th><td>{html.escape(val)}</td></tr>"
            for k, val in self._summary_rows()
        )
        return f"<table><caption>Trajectory</caption>{body}</table>"

    def to_csv(self, path: str | os.PathLike[str]) -> Path:
        """Write :meth:`columns` to ``path`` as CSV."""
        return write_csv(self.columns(), path, "Trajectory.to_csv")


_lazy_fields(Trajectory, "multipliers", "energy", "constraint_values", "residual", "extras", "reactions", "inputs")


def _make_trajectory(
    comp: CompiledSystem,
    t: np.ndarray,
    Y: np.ndarray,
    p: Any,
    method: str,
    projection: dict[str, Any] | None,
    info: dict[str, Any],
    params: dict[str, float],
    *,
    status: int = 0,
    message: str = "",
    sol: Any = None,
    t_events: Sequence[np.ndarray] | None = None,
    y_events: Sequence[np.ndarray] | None = None,
    p_along: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray] | None = None,
    input_slots: Mapping[str, int] | None = None,
) -> Trajectory:
    """The trajectory of states ``Y`` ``(n_state, N)`` at ``t``: the natural state now, the observables lazily.

    ``q``, ``u`` and ``v`` are evaluated here; the energy, the multipliers, the reactions, the constraint
    values, the residual and the extras are :class:`Deferred` (generated and evaluated on first read).
    ``p_along(t, q, u)`` gives the parameters at the samples (``(n_params, N)``) when some are callable inputs;
    ``input_slots`` (name -> row of the parameter vector) names them, read into :attr:`Trajectory.inputs`.
    ``sol`` (scipy's ``OdeSolution``) is wrapped as :class:`DenseOutput`; ``y_events`` (per event,
    internal states ``(k, n_state)``) are mapped to the natural ``(q, u)`` rows.
    """
    kin = comp.observe(t, Y, p, keys=KINEMATIC)
    S = comp.system
    q, u = kin["q"], kin["u"]
    lazy = _Observed(comp, t, Y, p, q, u, p_along)
    return Trajectory(
        t=_frozen(t),  # type: ignore[arg-type]
        q=_frozen(q.T),  # type: ignore[arg-type]
        u=_frozen(u.T),  # type: ignore[arg-type]
        v=_frozen(kin["v"].T),  # type: ignore[arg-type]
        state=_frozen(Y.T),  # type: ignore[arg-type]
        multipliers=deferred(lambda: _frozen(lazy.get("multipliers").T) if "multipliers" in S.observables else None),
        energy=deferred(lambda: _frozen(lazy.get("energy")[0]) if "energy" in S.observables else None),
        constraint_values=deferred(lambda: _frozen(_transposed(lazy.constraints()))),
        residual=deferred(lazy.residual),
        extras=deferred(lambda: {k: _frozen(lazy.get(k).T) for k in S.observables if k not in _NOT_EXTRAS}),
        params=params,
        reactions=deferred(lazy.reactions),
        form=S.form,
        method=method,
        projection=projection,
        info=info,
        names=dict(S.names),
        sol=None if sol is None else DenseOutput(sol, comp, np.array(p, dtype=float)),
        t_events=None if t_events is None else tuple(_frozen(np.asarray(te, dtype=float)) for te in t_events),  # type: ignore[misc]
        y_events=None
        if y_events is None
        else tuple(_natural_rows(comp, te, ye, p) for te, ye in zip(t_events or (), y_events, strict=True)),
        status=int(status),
        message=str(message),
        inputs=deferred(lambda: {k: _frozen(np.asarray(lazy.params())[i]) for k, i in (input_slots or {}).items()}),
    )


def _transposed(a: np.ndarray | None) -> np.ndarray | None:
    return None if a is None else a.T


#: the observables that are fields of their own (the rest are a trajectory's extras)
_NOT_EXTRAS = frozenset({"q", "u", "v", "energy", "multipliers"})


class _Observed:
    """The observables of one set of samples, each evaluated once, when first asked for."""

    def __init__(
        self,
        comp: CompiledSystem,
        t: np.ndarray,
        Y: np.ndarray,
        p: Any,
        q: np.ndarray,
        u: np.ndarray,
        p_along: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray] | None,
    ) -> None:
        self.comp, self.t, self.Y, self.p, self.q, self.u = comp, t, Y, p, q, u
        self.p_along = p_along
        self.memo: dict[str, Any] = {}

    def params(self) -> Any:
        """The parameters at the samples (callable inputs evaluated there), else the bound vector."""
        if self.p_along is None:
            return self.p
        if "p" not in self.memo:
            self.memo["p"] = self.p_along(self.t, self.q, self.u)
        return self.memo["p"]

    def get(self, key: str) -> np.ndarray:
        if key not in self.memo:
            self.memo[key] = self.comp.observe(self.t, self.Y, self.params(), keys=(key,))[key]
        return self.memo[key]  # type: ignore[no-any-return]

    def constraints(self) -> np.ndarray | None:
        if "cv" not in self.memo:
            self.memo["cv"] = self.comp.constraint_values(self.t, self.q, self.u, self.p)
        return self.memo["cv"]  # type: ignore[no-any-return]

    def residual(self) -> np.ndarray:
        cv = self.constraints()
        if cv is None or not cv.shape[0]:
            return _frozen(np.zeros(len(self.t)))  # type: ignore[return-value]
        return _frozen(self.comp.distance_to_D(self.t, self.q, self.u, self.p))  # type: ignore[return-value]

    def reactions(self) -> np.ndarray | None:
        if "multipliers" not in self.comp.system.observables:
            return None
        return _frozen(self.comp.reactions(self.t, self.q, self.get("multipliers"), self.p))


def _natural_rows(comp: CompiledSystem, t: np.ndarray, Y: np.ndarray, p: Any) -> np.ndarray:
    """Internal states ``Y`` ``(k, n_state)`` at times ``t`` -> rows ``(q, u)`` ``(k, 2n)``, read-only."""
    n = comp.system.chart.dim
    if len(t) == 0:
        out = np.zeros((0, 2 * n))
    else:
        obs = comp.observe(np.asarray(t, dtype=float), np.asarray(Y, dtype=float).T, p, keys=("q", "u"))
        out = np.hstack([obs["q"].T, obs["u"].T])
    return _frozen(out)  # type: ignore[return-value]


# ----------------------------------------------------------------------------- batches
@dataclass(frozen=True, eq=False, repr=False)
class TrajectoryBatch(_Motion):
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
    name, units, time_name, plane
        As :class:`Trajectory`'s (a member ``batch[i]`` keeps them).
    """

    def __post_init__(self) -> None:  # the fields' declared types (frames._value.check_fields)
        check_fields(self)

    def __getstate__(self) -> dict[str, Any]:
        return _resolved_state(self)

    def __len__(self) -> int:
        return int(self.q.shape[0])

    def __repr__(self) -> str:
        return f"TrajectoryBatch(B={len(self)}, N={len(self.t)}, form={self.form!r}, method={self.method!r})"

    def _repr_html_(self) -> str:
        """A small summary table for Jupyter."""
        rows = [
            ("form", self.form),
            ("method", self.method),
            ("trajectories", str(len(self))),
            ("samples", str(len(self.t))),
            ("t", f"[{self.t[0]:g}, {self.t[-1]:g}]"),
            ("max dist(u, D)", f"{float(np.max(self.residual)):.3g}"),
        ]
        if self.energy is not None:
            rows.append(("max |E − E(0)|", f"{float(np.max(np.abs(self.energy - self.energy[:, :1]))):.3g}"))
        body = "".join(
            f"<tr><th style='text-align:left'>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in rows
        )
        return f"<table><caption>TrajectoryBatch</caption>{body}</table>"

    def __getitem__(self, i: int) -> Trajectory:
        pi = {k: (float(np.asarray(val)[i]) if np.ndim(val) else float(val)) for k, val in self.params.items()}
        return Trajectory(
            t=self.t,
            q=self.q[i],
            u=self.u[i],
            v=self.v[i],
            state=self.state[i],
            multipliers=deferred(lambda: None if self.multipliers is None else self.multipliers[i]),
            energy=deferred(lambda: None if self.energy is None else self.energy[i]),
            constraint_values=None,
            residual=deferred(lambda: self.residual[i]),
            extras=deferred(lambda: {k: val[i] for k, val in self.extras.items()}),
            params=pi,
            form=self.form,
            method=self.method,
            info=self.info,
            names=self.names,
            name=self.name,
            units=self.units,
            time_name=self.time_name,
            plane=self.plane,
        )


_lazy_fields(TrajectoryBatch, "energy", "multipliers", "residual", "extras")


def labelled(result: Trajectory | TrajectoryBatch, x: Any) -> Trajectory | TrajectoryBatch:
    """``result`` with the name, the units, the time name and the plane of ``x`` when it is a model (unchanged
    otherwise)."""
    name, units, chart = getattr(x, "name", None), getattr(x, "units", None), getattr(x, "chart", None)
    if not isinstance(name, str) or not isinstance(units, Mapping) or chart is None:
        return result
    t = getattr(chart, "t", None)
    # a copy of the stored fields as they are (``dataclasses.replace`` would read, so evaluate, the lazy ones)
    new = object.__new__(type(result))
    new.__dict__.update(result.__dict__)
    labels = {
        "name": name,
        "units": dict(units),
        "time_name": t.name if t is not None else "t",
        "plane": tuple(getattr(x, "plane", ())),
    }
    for k, v in labels.items():
        object.__setattr__(new, k, v)
    return new
