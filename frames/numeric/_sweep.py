"""Parameter sweeps over a process pool or a dask cluster."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import field
from typing import Any

import numpy as np

# ----------------------------------------------------------------------------- sweeps
from .._value import Value
from ..algebra.internal import as_flag, as_int
from ..dynamics import OdeSystem
from ..errors import ArgumentError, ParameterError
from ._compiled import CompiledSystem
from ._inputs import _merge_params, _t_span
from ._integrate import integrate

__all__ = ["IntegrateJob", "grid_points", "sweep"]


def grid_points(grid: Mapping[str, Sequence[Any]] | Iterable[Any]) -> list[Any]:
    """The points of a grid: a mapping ``name -> values`` gives the Cartesian product as dicts
    (last name fastest); any other iterable is taken as the list of points.

    Raises
    ------
    ArgumentError
        If ``grid`` is not a mapping or an iterable of points, or a mapping's values are not sequences.
    """
    if isinstance(grid, Mapping):
        keys = list(grid)
        for k in keys:
            if not isinstance(k, str):
                raise ArgumentError(f"grid: key {k!r} is not a parameter name (str)")
            vals = grid[k]
            if isinstance(vals, str | bytes | Mapping) or not isinstance(vals, Iterable):
                raise ArgumentError(f"grid[{k!r}]: expected a sequence of values, got {vals!r}")
        return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*(list(grid[k]) for k in keys))]
    if isinstance(grid, str | bytes) or not isinstance(grid, Iterable):
        raise ArgumentError(f"grid: expected a mapping name -> values or an iterable of points, got {grid!r}")
    return list(grid)


def sweep(
    func: Callable[[Any], Any],
    grid: Mapping[str, Sequence[Any]] | Iterable[Any],
    executor: Executor | None = None,
    *,
    max_workers: int | None = None,
    progress: bool | None = False,
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
    max_workers : int, optional
        Size of the default process pool.
    progress : bool or None, default False
        A :mod:`tqdm` bar on stderr counting finished points: ``True`` always, ``None`` only when
        stderr is a terminal, ``False`` never.

    Returns
    -------
    list
        Results in grid order.
    """
    if not callable(func):
        raise ArgumentError(f"sweep: func must be callable, got {type(func).__name__}")
    if max_workers is not None:
        max_workers = as_int(max_workers, name="sweep: max_workers", min=1)
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise ArgumentError(f"sweep: executor must have a submit method, got {type(executor).__name__}")
    if progress is not None and not isinstance(progress, bool):
        raise ArgumentError(f"sweep: progress: expected True, False or None, got {progress!r}")
    points = grid_points(grid)
    own = executor is None
    ex: Executor = (
        ProcessPoolExecutor(max_workers=max_workers or max(1, min(len(points), os.cpu_count() or 1)))
        if executor is None
        else executor
    )
    try:
        futures = [ex.submit(func, pt) for pt in points]
        if progress is not False:
            from tqdm import tqdm

            with tqdm(total=len(futures), desc="sweep", unit="pt", disable=None if progress is None else False) as bar:
                for _ in as_completed(futures):
                    bar.update(1)
        return [fu.result() for fu in futures]
    finally:
        if own:
            ex.shutdown()


class IntegrateJob(Value):
    """A picklable job for :func:`sweep`: integrate one grid point.

    ``compiled`` is an :class:`OdeSystem` or its :class:`CompiledSystem`; ``options`` are keyword options of
    :func:`~frames.integrate`. ``job(point)`` merges ``point`` (parameter name -> value; the keys ``"q0"``, ``"u0"`` replace the
    initial data) into ``params`` and returns the :class:`Trajectory` (or, with ``final_only``, the
    final state as an array).
    """

    compiled: CompiledSystem | OdeSystem
    t_span: tuple[float, float]
    q0: Any
    u0: Any
    params: Mapping[str, Any] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    final_only: bool = False

    def __check_init__(self) -> None:
        if not isinstance(self.compiled, CompiledSystem | OdeSystem):
            raise ArgumentError(
                f"IntegrateJob: compiled must be an OdeSystem or a CompiledSystem, got {type(self.compiled).__name__}"
            )
        self.t_span = _t_span(self.t_span)
        if not isinstance(self.params, Mapping):
            raise ParameterError(f"IntegrateJob: params must be a mapping name -> value, got {self.params!r}")
        if not isinstance(self.options, Mapping) or not all(isinstance(k, str) for k in self.options):
            raise ArgumentError(f"IntegrateJob: options must be a mapping of keyword options, got {self.options!r}")
        as_flag(self.final_only, name="IntegrateJob: final_only")

    def __call__(self, point: Mapping[str, Any]) -> Any:
        pt = dict(point)
        q0 = pt.pop("q0", self.q0)
        u0 = pt.pop("u0", self.u0)
        tr = integrate(self.compiled, self.t_span, q0, u0, _merge_params(self.params, pt), **self.options)
        return np.array(tr.state[-1]) if self.final_only else tr
