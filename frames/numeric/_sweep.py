"""Parameter sweeps over a process pool or a dask cluster."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

# ----------------------------------------------------------------------------- sweeps
from ._compiled import CompiledSystem
from ._inputs import _merge_params
from ._integrate import integrate_system

__all__ = ["IntegrateJob", "grid_points", "sweep"]


def grid_points(grid: Mapping[str, Sequence[Any]] | Iterable[Any]) -> list[Any]:
    """The points of a grid: a mapping ``name -> values`` gives the Cartesian product as dicts
    (last name fastest); any other iterable is taken as the list of points."""
    if isinstance(grid, Mapping):
        keys = list(grid)
        return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*(list(grid[k]) for k in keys))]
    return list(grid)


def sweep(
    func: Callable[[Any], Any],
    grid: Mapping[str, Sequence[Any]] | Iterable[Any],
    executor: Executor | None = None,
    *,
    max_workers: int | None = None,
) -> list[Any]:
    """Run ``func(point)`` for every grid point through a :class:`concurrent.futures.Executor`.

    Parameters
    ----------
    func : callable
        Must be picklable for a process pool (a module-level function or an :class:`IntegrateJob`).
    grid : mapping or iterable
        See :func:`grid_points`.
    executor : Executor, optional
        Default: a :class:`~concurrent.futures.ProcessPoolExecutor` created and shut down here. Any
        executor with ``submit`` works unchanged, e.g. a dask ``Client.get_executor()``.

    Returns
    -------
    list
        Results in grid order.
    """
    points = grid_points(grid)
    own = executor is None
    ex: Executor = (
        ProcessPoolExecutor(max_workers=max_workers or max(1, min(len(points), os.cpu_count() or 1)))
        if executor is None
        else executor
    )
    try:
        futures = [ex.submit(func, pt) for pt in points]
        return [fu.result() for fu in futures]
    finally:
        if own:
            ex.shutdown()


@dataclass(frozen=True)
class IntegrateJob:
    """A picklable job for :func:`sweep`: integrate one grid point.

    ``job(point)`` merges ``point`` (parameter name -> value; the keys ``"q0"``, ``"u0"`` replace the
    initial data) into ``params`` and returns the :class:`Trajectory` (or, with ``final_only``, the
    final state as an array).
    """

    compiled: CompiledSystem
    t_span: tuple[float, float]
    q0: Any
    u0: Any
    params: Mapping[str, Any] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    final_only: bool = False

    def __call__(self, point: Mapping[str, Any]) -> Any:
        pt = dict(point)
        q0 = pt.pop("q0", self.q0)
        u0 = pt.pop("u0", self.u0)
        tr = integrate_system(self.compiled, self.t_span, q0, u0, _merge_params(self.params, pt), **self.options)
        return np.array(tr.state[-1]) if self.final_only else tr
