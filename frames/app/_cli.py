"""The ``frames`` command.

* ``frames models`` lists the catalogue, with citations.
* ``frames analyze MODEL|FILE.toml [--format text|markdown|latex|json] [--only SECTION ...]``
  prints a full analysis (see ``frames/app/_report.py`` for the sections).
* ``frames simulate MODEL|FILE.toml --t-end T [--ic name=value ...] [--param name=value ...]
  [--plot out.png] [--csv out.csv]`` integrates the nonholonomic field.
* ``frames export MODEL [-o FILE.toml]`` writes a catalogue model as a system file.

Every command is also callable in-process: ``main(["analyze", "knife-edge"])``
returns the exit status (0 success, 2 bad input).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from ..errors import FramesError
from ..numeric._integrate import integrate
from ..numeric._plot import Panel, plot_panels, write_csv
from . import _models as models
from ._report import SECTIONS, build_report
from ._sysfile import dump_system, load_system

__all__ = ["load_model", "main"]


def load_model(spec: str) -> models.Model:
    """A catalogue model by name, or a system file (``*.toml`` or an existing path)."""
    if spec.endswith(".toml") or Path(spec).is_file():
        return load_system(spec)  # type: ignore[no-any-return]
    return models.get(spec)


def _assignments(items: Sequence[str] | None, what: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for it in items or ():
        name, sep, val = it.partition("=")
        if not sep or not name.strip():
            raise FramesError(f"{what} {it!r}: expected name=value")
        try:
            out[name.strip()] = float(val)
        except ValueError:
            raise FramesError(f"{what} {it!r}: {val!r} is not a number") from None
    return out


class ProgressBar:
    """A minimal text progress bar on a stream (default stderr).

    >>> import io
    >>> s = io.StringIO(); bar = ProgressBar(10.0, stream=s, width=10); bar.update(5.0); bar.close()
    >>> s.getvalue().strip()
    '[#####.....]  50%  t = 5 / 10'
    """

    def __init__(self, total: float, stream: TextIO | None = None, width: int = 40, enabled: bool = True) -> None:
        self.total = float(total) if total else 1.0
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.enabled = enabled

    def update(self, done: float) -> None:
        if not self.enabled:
            return
        frac = min(max(done / self.total, 0.0), 1.0)
        k = round(frac * self.width)
        self.stream.write(f"\r[{'#' * k}{'.' * (self.width - k)}] {100 * frac:3.0f}%  t = {done:g} / {self.total:g}")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


def simulate(
    model: models.Model,
    t_end: float,
    ic: dict[str, float] | None = None,
    params: dict[str, float] | None = None,
    points: int = 400,
    chunks: int = 20,
    progress: ProgressBar | None = None,
) -> dict[str, Any]:
    """Integrate the model's nonholonomic field from its (overridden) initial data.

    Returns a dict with arrays ``t`` (N,), ``q`` (N, n), ``u`` (N, n) and the
    ``names`` of the columns. The run is split in ``chunks`` pieces so a
    progress bar can be shown; each piece restarts from the end state of the
    previous one.

    Raises
    ------
    FramesError
        If the numerics module is missing, a name is unknown or a parameter has no value.
    """
    import numpy as np
    import sympy as sp

    ch = model.chart
    pv: dict[sp.Symbol, float] = {s: float(v) for s, v in model.param_values.items()}
    for name, val in (params or {}).items():
        if name not in model.params:
            raise FramesError(f"--param {name}: not a parameter of {model.name}; parameters: {sorted(model.params)}")
        pv[model.params[name]] = val
    missing = [n for n, s in model.params.items() if s not in pv]
    if missing:
        raise FramesError(f"simulate {model.name}: parameters {missing} have no value; give --param name=value")
    q0 = {s: model.q0.get(s, 0.0) for s in ch.q}
    u0 = {s: model.u0.get(s, 0.0) for s in ch.u}
    byname = {s.name: s for s in (*ch.q, *ch.u)}
    for name, val in (ic or {}).items():
        if name not in byname:
            raise FramesError(f"--ic {name}: not a coordinate or velocity of {model.name}; names: {sorted(byname)}")
        s = byname[name]
        (q0 if s in q0 else u0)[s] = val

    def num(x: Any) -> float:
        try:
            return float(sp.sympify(x).xreplace(pv))
        except TypeError:
            raise FramesError(f"simulate {model.name}: initial value {x} is not numeric") from None

    q = [num(q0[s]) for s in ch.q]
    u = [num(u0[s]) for s in ch.u]
    nh = model.nonholonomic()
    G = nh.field()
    if t_end <= 0:
        raise FramesError(f"--t-end {t_end}: must be positive")
    chunks = max(1, int(chunks))
    per = max(2, points // chunks + 1)
    ts: list[Any] = []
    qs: list[Any] = []
    us: list[Any] = []
    edges = np.linspace(0.0, t_end, chunks + 1)
    for c in range(chunks):
        t0, t1 = float(edges[c]), float(edges[c + 1])
        tr = integrate(G, (t0, t1), q, u, params=pv, system=nh, t_eval=np.linspace(t0, t1, per))
        tq, qq, uq = np.asarray(tr.t), np.asarray(tr.q), np.asarray(tr.u)
        skip = 1 if c > 0 else 0
        ts.append(tq[skip:])
        qs.append(qq[skip:])
        us.append(uq[skip:])
        q, u = [float(x) for x in qq[-1]], [float(x) for x in uq[-1]]
        if progress is not None:
            progress.update(t1)
    if progress is not None:
        progress.close()
    return {
        "t": np.concatenate(ts),
        "q": np.concatenate(qs),
        "u": np.concatenate(us),
        "names": [s.name for s in ch.q] + [s.name for s in ch.u],
    }


def _write_csv(res: dict[str, Any], path: str) -> None:
    cols = {"t": res["t"]}
    n = res["q"].shape[1]
    cols |= {name: res["q"][:, j] for j, name in enumerate(res["names"][:n])}
    cols |= {name: res["u"][:, j] for j, name in enumerate(res["names"][n:])}
    write_csv(cols, path)


def _plot(res: dict[str, Any], path: str, title: str) -> None:
    n = res["q"].shape[1]
    panels: list[Panel] = [
        ("q", [(res["names"][j], res["q"][:, j]) for j in range(n)], False),
        ("u", [(res["names"][n + j], res["u"][:, j]) for j in range(n)], False),
    ]
    plot_panels(res["t"], panels, path, title)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="frames", description="Constrained mechanics in anholonomic frames.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("models", help="list the catalogue of models")
    pa = sub.add_parser("analyze", help="print a full analysis of a model or system file")
    pa.add_argument("model", help="catalogue name (e.g. two-wheeled-carriage) or a system file FILE.toml")
    pa.add_argument("--format", choices=["text", "markdown", "latex", "json"], default="text")
    pa.add_argument("--only", nargs="+", metavar="SECTION", choices=list(SECTIONS), help="sections to include")
    ps = sub.add_parser("simulate", help="integrate the nonholonomic equations of motion")
    ps.add_argument("model", help="catalogue name or system file")
    ps.add_argument("--t-end", type=float, required=True, help="final time")
    ps.add_argument("--ic", nargs="+", metavar="NAME=VALUE", help="initial coordinates/velocities (natural u)")
    ps.add_argument("--param", nargs="+", metavar="NAME=VALUE", help="parameter values")
    ps.add_argument("--points", type=int, default=400, help="number of output samples")
    ps.add_argument("--plot", metavar="OUT.png")
    ps.add_argument("--csv", metavar="OUT.csv")
    ps.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help="show a progress bar")
    pe = sub.add_parser("export", help="write a model as a TOML system file")
    pe.add_argument("model", help="catalogue name or system file")
    pe.add_argument("-o", "--output", metavar="FILE.toml", help="write here instead of stdout")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``frames`` console script; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "models":
            for name, ctor in models.catalogue().items():
                doc = (ctor.__doc__ or "").strip().splitlines()[0]
                print(f"{name:28s} {doc}")
            return 0
        if args.command == "analyze":
            rep = build_report(load_model(args.model), only=args.only)
            print(rep.format(args.format))
            return 0
        if args.command == "export":
            text = dump_system(load_model(args.model))
            if args.output:
                Path(args.output).write_text(text, encoding="utf-8")
            else:
                sys.stdout.write(text)
            return 0
        if args.command == "simulate":
            mdl = load_model(args.model)
            show = args.progress if args.progress is not None else sys.stderr.isatty()
            res = simulate(
                mdl,
                args.t_end,
                ic=_assignments(args.ic, "--ic"),
                params=_assignments(args.param, "--param"),
                points=args.points,
                progress=ProgressBar(args.t_end, enabled=bool(show)),
            )
            if args.csv:
                _write_csv(res, args.csv)
            if args.plot:
                _plot(res, args.plot, f"{mdl.name}: nonholonomic motion")
            t, q = res["t"], res["q"]
            print(f"{mdl.name}: integrated to t = {t[-1]:g} ({len(t)} samples)")
            print("final q: " + ", ".join(f"{n} = {x:.6g}" for n, x in zip(res["names"], q[-1], strict=False)))
            return 0
    except FramesError as exc:
        print(f"frames: error: {exc}", file=sys.stderr)
        return 2
    return 1


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
