"""The ``frames`` command.

* ``frames models`` lists the catalogue, with citations.
* ``frames analyze MODEL|FILE.toml [--format text|markdown|latex|json] [--only SECTION ...]
  [--budget SECONDS] [--progress] [--max-ops N]`` prints a full analysis (see ``frames/app/_report.py`` for the
  sections). The analysis runs under a time budget (default 900 s; ``--budget inf`` for none) and
  ``--progress`` (default: when stderr is a terminal) prints each step as it starts, with the
  elapsed time, on stderr. ``--max-ops N`` (default 50,000; ``inf`` for none) leaves out expressions with more
  operations (a line says so) and decides consistency conditions that large at generic points instead.
* ``frames simulate MODEL|FILE.toml --t-end T [--ic name=value ...] [--param name=value ...]
  [--method RK45|RK23|DOP853|Radau|BDF|LSODA] [--plot out.png] [--csv out.csv]`` integrates the nonholonomic
  field; ``--plot`` draws the panels of :meth:`~frames.Trajectory.plot` (the x–y path of a planar system, q,
  u, energy, multipliers, the residual; the name, the method and the file's units on the figure).
* ``frames linearize MODEL|FILE.toml [--at name=value ...] [--inputs NAME ...] [--param name=value ...]
  [--sweep NAME=START:STOP:COUNT [--certify DIGITS]] [--region NAME=LO:HI NAME=LO:HI [--grid N]] [--plot out.png]
  [--format text|json]`` linearises about the file's ``[operating_point]`` (``--at`` on top; its ``inputs``
  unless ``--inputs``) and prints ``A``, ``B``, the eigenvalues and the stability verdict at the file's parameter
  values (``--param`` on top) with the structural zero eigenvalues it set aside, the critical values of the swept
  parameter with the verdict between them (certified to ``DIGITS`` digits with ``--certify``), and the stability
  map over two parameters (``--region``: the exact boundary curves and the class of each cell; ``--plot`` draws
  it) (:mod:`frames.app._stability`).
* ``frames export MODEL [-o FILE.toml]`` writes a catalogue model as a system file.

Every command is also callable in-process: ``main(["analyze", "knife-edge"])``
returns the exit status.

Failure behaviour (one error path, no traceback ever):

* exit 0 on success; 3 when a time budget runs out (the message names the step), or when ``simulate`` meets a
  stiff system under an explicit method (the message says to give ``--method Radau``); 4 when ``simulate`` meets a
  point where the model's adapted frame degenerates (:class:`~frames.errors.DegenerateFrameError`: the message
  names the time, the coordinates and the frame's fields, and asks for a ``frame`` or ``complement`` regular
  there; another method would not help); 2 on bad input (a :class:`~frames.FramesError`, an output path that cannot
  be written, argparse's own usage errors); 130 on Ctrl-C; 1 on an internal error (a bug: the
  message asks for a report; ``FRAMES_DEBUG=1`` shows the traceback);
* output files are written to a temporary file in the target's directory and renamed into place
  when every output of the run is ready, so a run's outputs appear all or none and a failed run
  leaves no partial file and no destroyed original;
* an existing output file is replaced only with ``--force``, keeping its mode; a new one gets the mode the
  user's umask gives (``0o666 & ~umask``).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import math
import os
import stat
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import sympy as sp
from sympy.core.function import AppliedUndef

from .._version import __version__
from ..dynamics import NonholonomicSystem
from ..errors import (
    BudgetExceededError,
    DegenerateFrameError,
    FramesError,
    InconsistentInitialDataError,
    IntegrationBudgetError,
)
from ..geometry import Frame, VectorField
from ..numeric import Trajectory, integrate, plot_eigenvalues, plot_stability_region
from ..numeric.internal import MAX_SPAN, ProgressBar, image_path, labelled, write_csv
from . import _models as models
from ._hardlimit import supervise
from ._report import DISPLAY_OPS_LIMIT, SECTIONS, analyze
from ._stability import MAX_DIGITS, parse_range, parse_sweep, stability_summary, summary_lines
from ._sysfile import dumps_model, load_model, parse_expression

__all__ = ["find_model", "main"]

MAX_POINTS = 1_000_000


class _Outputs:
    """The output files of one run, written all or none.

    :meth:`target` checks a path before any work is done; :meth:`temp` gives the temporary file
    to write (in the target's directory, same suffix); :meth:`commit` renames every temporary file
    into place; :meth:`discard` removes whatever was not committed.
    """

    def __init__(self, force: bool) -> None:
        self.force = force
        self._pending: list[tuple[Path, Path]] = []

    def target(self, path: str, option: str) -> Path:
        out = Path(path)
        parent = out.parent if str(out.parent) else Path(".")
        if out.is_dir():
            raise FramesError(f"{option} {path}: is a directory")
        if not parent.is_dir():
            raise FramesError(f"{option} {path}: directory {str(parent)!r} does not exist")
        if not os.access(parent, os.W_OK):
            raise FramesError(f"{option} {path}: directory {str(parent)!r} is not writable")
        if out.exists() or out.is_symlink():
            if not self.force:
                raise FramesError(f"{option} {path}: file exists (use --force to replace it)")
            if not os.access(out, os.W_OK):
                raise FramesError(f"{option} {path}: file is read-only")
        return out

    def temp(self, target: Path) -> Path:
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=target.suffix, dir=target.parent)
        os.close(fd)
        tmp = Path(name)
        self._pending.append((tmp, target))
        return tmp

    def commit(self) -> None:
        """Rename each temporary file into place with the mode a new file gets under the user's umask, or the
        replaced file's own mode (``mkstemp`` makes its files ``-rw-------`` whatever the umask)."""
        for tmp, target in self._pending:
            try:
                mode = stat.S_IMODE(os.stat(target).st_mode)
            except FileNotFoundError:
                mode = 0o666 & ~_umask()
            os.chmod(tmp, mode)
            os.replace(tmp, target)
        self._pending = []

    def discard(self) -> None:
        for tmp, _ in self._pending:
            tmp.unlink(missing_ok=True)
        self._pending = []


def _umask() -> int:
    """The process's umask (read by setting it and setting it back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _write_text(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def find_model(spec: str, check_u0: bool = True) -> models.Model:
    """A catalogue model by name, or a system file (``*.toml`` or an existing path; ``check_u0``: see
    :func:`~frames.load_model`)."""
    if spec.endswith(".toml") or Path(spec).is_file():
        return load_model(spec, check_u0=check_u0)  # type: ignore[no-any-return]
    known = sorted(models.catalogue())
    if spec.replace("_", "-") not in known:
        close = difflib.get_close_matches(spec.replace("_", "-"), known, n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        raise FramesError(
            f"unknown model {spec!r}{hint} (`frames models` lists the catalogue; a system file must end in .toml)"
        )
    return models.get(spec)


def _texts(items: Sequence[str] | None, what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for it in items or ():
        name, sep, val = it.partition("=")
        if not sep or not name.strip() or not val.strip():
            raise FramesError(f"{what} {it!r}: expected name=expression")
        if name.strip() in out:
            raise FramesError(f"{what} {it!r}: {name.strip()} given twice; give each name once")
        out[name.strip()] = val.strip()
    return out


def _assignments(items: Sequence[str] | None, what: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for it in items or ():
        name, sep, val = it.partition("=")
        if not sep or not name.strip():
            raise FramesError(f"{what} {it!r}: expected name=value")
        if name.strip() in out:
            raise FramesError(f"{what} {it!r}: {name.strip()} given twice; give each name once")
        try:
            out[name.strip()] = float(val)
        except ValueError:
            raise FramesError(f"{what} {it!r}: {val!r} is not a number") from None
    return out


def simulate(
    model: models.Model,
    t_end: float,
    ic: dict[str, float] | None = None,
    params: dict[str, float] | None = None,
    points: int = 400,
    chunks: int = 20,
    progress: ProgressBar | None = None,
    subs: dict[str, str] | None = None,
    project: str | None = None,
    method: str = "RK45",
    v0: dict[str, float] | None = None,
) -> dict[str, Any]:
    """Integrate the model's nonholonomic field from its (overridden) initial data.

    The initial velocities are the model's ``[initial.u]`` overridden by ``ic``, and must then all be known, as
    :func:`frames.integrate` wants them; or ``v0``, the independent quasi-velocities of the model's frame (every
    one of them; the model's ``[initial.u]`` is then not used).

    Returns a dict with arrays ``t`` (N,), ``q`` (N, n), ``u`` (N, n), the
    ``names`` of the columns and the whole ``trajectory`` (a :class:`~frames.Trajectory` carrying the model's
    name and units: its :meth:`~frames.Trajectory.plot` is ``--plot``). The run is one integration over
    ``[0, t_end]`` at ``points + 1`` equally spaced times, under one budget, driving ``progress`` at every
    accepted step (``chunks`` is no longer used: pieces had one budget each and restarted the solver).

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
    u0: dict[sp.Symbol, Any] = {} if v0 else dict(model.u0)
    byname = {s.name: s for s in (*ch.q, *ch.u)}
    for name, val in (ic or {}).items():
        if name not in byname:
            raise FramesError(f"--ic {name}: not a coordinate or velocity of {model.name}; names: {sorted(byname)}")
        s = byname[name]
        if s in q0:
            q0[s] = val
        elif v0:
            raise FramesError(f"--ic {name}: give the initial velocities once: --ic {name}=… or --v0, not both")
        else:
            u0[s] = val
    vnames = [s.name for s in model.frame.v[: model.m]]
    if v0:
        unknown = sorted(set(v0) - set(vnames))
        missing_v = [n for n in vnames if n not in v0]
        if unknown or missing_v:
            raise FramesError(
                f"--v0: the independent quasi-velocities of {model.name} are {vnames}"
                + (f"; {unknown} are not among them" if unknown else "")
                + (f"; missing {missing_v}" if missing_v else "")
            )

    def num(x: Any) -> float:
        try:
            return float(sp.sympify(x, strict=True).xreplace(pv))
        except TypeError:
            raise FramesError(f"simulate {model.name}: initial value {x} is not numeric") from None

    q = [num(q0[s]) for s in ch.q]
    nh = _specialized_system(model, subs or {})
    missing_u = [s.name for s in ch.u if s not in u0]
    if missing_u and not v0:
        raise FramesError(
            f"simulate {model.name}: no value for the initial velocities {missing_u}: give them with --ic "
            + " ".join(f"{n}=VALUE" for n in missing_u)
            + ", or give the independent quasi-velocities instead: --v0 "
            + " ".join(f"{n}=VALUE" for n in vnames)
        )
    u: list[float] | None = None if v0 else [num(u0[s]) for s in ch.u]
    G = nh.field()
    if t_end <= 0:
        raise FramesError(f"--t-end {t_end}: must be positive")
    # one integration over the whole span: one budget for the run, and its messages name the run's span
    try:
        tr = integrate(
            G,
            (0.0, float(t_end)),
            q,
            u,
            v0=[float(v0[n]) for n in vnames] if v0 else None,
            params=pv,
            system=nh,
            t_eval=np.linspace(0.0, float(t_end), max(2, points + 1)),
            project=project or False,
            method=method,
            progress=progress if progress is not None else False,
        )
    except DegenerateFrameError as exc:  # name the model (its frame is the file's `frame` or `complement`)
        raise DegenerateFrameError(f"simulate {model.name}: {exc}", exc.t, exc.state, exc.q, exc.ratio) from None
    except InconsistentInitialDataError as exc:
        raise InconsistentInitialDataError(
            str(exc).replace(
                "pass project='kinetic', 'euclidean' or 'frame'", "give --project kinetic, euclidean or frame"
            )
        ) from None
    assert isinstance(tr, Trajectory)  # one trajectory (q0 is 1-d)
    if progress is not None:
        progress.update(t_end)
        progress.close()
    whole = labelled(tr, model)
    assert isinstance(whole, Trajectory)
    return {
        "t": whole.t,
        "q": whole.q,
        "u": whole.u,
        "names": [s.name for s in ch.q] + [s.name for s in ch.u],
        "trajectory": whole,
    }


def _specialized_system(model: models.Model, subs: dict[str, str]) -> NonholonomicSystem:
    """The model's nonholonomic system with each free function ``F`` replaced by ``--subs F=EXPR``.

    ``EXPR`` is read by the safe parser (:func:`frames.parse_expression`) over the chart's names; it is
    written in the arguments of ``F`` as they appear in the model (``Delta3(q1)``: ``--subs Delta3=q1**2``).
    """
    L, F = model.lagrangian, model.frame
    exprs = [L.expr, *F.matrix]
    free = {f.func.__name__: f for e in exprs for f in sp.sympify(e, strict=True).atoms(AppliedUndef)}
    unknown = sorted(set(subs) - set(free))
    if unknown:
        listed = ", ".join(sorted(str(f) for f in free.values())) or "none"
        raise FramesError(f"--subs {unknown[0]}: not a free function of {model.name}; free functions: {listed}")
    left = sorted(str(f) for n, f in free.items() if n not in subs)
    if left:
        first = next(n for n in sorted(free) if n not in subs)
        raise FramesError(
            f"simulate {model.name}: free function(s) {', '.join(left)} need concrete expressions; "
            f"give --subs {first}=EXPR (e.g. --subs {first}={free[first].args[0] if free[first].args else 1}**2)"
        )
    if not subs:
        return model.nonholonomic()  # with the model's forces
    ch = model.chart
    names = {s.name: s for s in (*ch.q, *ch.u, *ch.params)}
    rule: dict[Any, Any] = {}
    for name, text in subs.items():
        app = free[name]
        if not all(isinstance(a, sp.Symbol) for a in app.args):
            raise FramesError(f"--subs {name}: {app} has non-symbol arguments; cannot substitute by name")
        # the function's own arguments (and the parameters) only: --subs tau=t**2 for tau(t), not tau=x
        own = {a.name: a for a in app.args if isinstance(a, sp.Symbol)}
        body = parse_expression(text, names | own)
        outside = sorted(str(x) for x in body.free_symbols if x not in set(app.args) | set(ch.params))
        if outside:
            raise FramesError(
                f"--subs {name}={text}: {app} is a function of {sorted(own)} only; {outside} are not among them"
            )
        rule[app.func] = sp.Lambda(app.args, body)

    def put(e: Any) -> Any:
        return (
            sp.sympify(e, strict=True)
            .replace(lambda x: isinstance(x, AppliedUndef) and x.func in rule, lambda x: rule[x.func](*x.args))
            .doit()
        )

    frame = Frame([VectorField(X.chart, [put(c) for c in X.components]) for X in F.fields], v=F.v)
    forces = [put(f) for f in model.force_form] if model.force_form else None
    return NonholonomicSystem(L.with_expr(put(L.expr)), frame, model.m, forces=forces)


def _write_csv(res: dict[str, Any], path: str) -> None:
    cols = {"t": res["t"]}
    n = res["q"].shape[1]
    cols |= {name: res["q"][:, j] for j, name in enumerate(res["names"][:n])}
    cols |= {name: res["u"][:, j] for j, name in enumerate(res["names"][n:])}
    write_csv(cols, path)


def _image(path: str) -> Path:
    """``--plot`` as the file written: ``.png`` added to a name without a suffix; a non-image suffix refused."""
    return image_path(Path(path), what="--plot")  # an ArgumentError (a FramesError: exit status 2) naming them


def _plot(res: dict[str, Any], path: str) -> None:
    """``--plot``: the library's own plot of the trajectory (the same panels, title and units as
    :meth:`Trajectory.plot`)."""
    res["trajectory"].plot(path)


#: Default wall-clock budget of ``frames analyze`` (seconds).
DEFAULT_BUDGET = 900.0


class _StepPrinter:
    """Progress of ``frames analyze``: one stderr line per step, with the elapsed time."""

    def __init__(self, stream: Any = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.t0 = time.monotonic()

    def __call__(self, name: str) -> None:
        print(f"[{time.monotonic() - self.t0:7.1f} s] {name}", file=self.stream, flush=True)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="frames", description="Constrained mechanics in anholonomic frames.")
    parser.add_argument("--version", action="version", version=f"frames {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("models", help="list the catalogue of models")
    pa = sub.add_parser("analyze", help="print a full analysis of a model or system file")
    pa.add_argument("model", help="catalogue name (e.g. two-wheeled-carriage) or a system file FILE.toml")
    pa.add_argument("--format", choices=["text", "markdown", "latex", "json"], default="text")
    pa.add_argument("--only", nargs="+", metavar="SECTION", choices=list(SECTIONS), help="sections to include")
    pa.add_argument(
        "--budget",
        type=float,
        default=DEFAULT_BUDGET,
        metavar="SECONDS",
        help=f"wall-clock budget of the analysis (default {DEFAULT_BUDGET:g}; inf for none)",
    )
    pa.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help="print each step")
    pa.add_argument(
        "--jobs",
        default="auto",
        metavar="N",
        help="processes (1 or 2): with 2 a second process computes sections and writes equations, taking them from "
        "the end of the list (default auto: 2 where the machine has two cores and the process can fork)",
    )
    pa.add_argument(
        "--max-ops",
        default=str(DISPLAY_OPS_LIMIT),
        metavar="N",
        help=f"expressions with more operations are not printed (default {DISPLAY_OPS_LIMIT}; inf for none)",
    )
    ps = sub.add_parser("simulate", help="integrate the nonholonomic equations of motion")
    ps.add_argument("model", help="catalogue name or system file")
    ps.add_argument("--t-end", type=float, required=True, help="final time")
    ps.add_argument("--ic", nargs="+", metavar="NAME=VALUE", help="initial coordinates/velocities (natural u)")
    ps.add_argument(
        "--v0",
        nargs="+",
        action="extend",
        metavar="NAME=VALUE",
        help="instead of the natural velocities: the independent quasi-velocities of the model's frame (all of them)",
    )
    ps.add_argument("--param", nargs="+", metavar="NAME=VALUE", help="parameter values")
    ps.add_argument("--points", type=int, default=400, help="number of output samples")
    ps.add_argument(
        "--subs",
        nargs="+",
        action="extend",
        metavar="F=EXPR",
        help="replace a free function of the model (abelian_chaplygin's Delta3(q1): Delta3=q1**2); EXPR read by the safe parser",
    )
    ps.add_argument(
        "--project",
        choices=["kinetic", "euclidean", "frame"],
        help="project the initial velocity onto D (kinetic metric, Euclidean, or drop the v^a in the frame)",
    )
    ps.add_argument(
        "--method",
        default="RK45",
        choices=["RK45", "RK23", "DOP853", "Radau", "BDF", "LSODA"],
        help="scipy's solver (Radau, BDF or LSODA for a stiff system; default RK45)",
    )
    ps.add_argument("--plot", metavar="OUT.png")
    ps.add_argument("--csv", metavar="OUT.csv")
    ps.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help="show a progress bar")
    ps.add_argument("--force", action="store_true", help="replace existing output files")
    pl = sub.add_parser("linearize", help="linearise about an operating point: A, B, eigenvalues, critical values")
    pl.add_argument("model", help="catalogue name or system file (its [operating_point] and inputs are the defaults)")
    pl.add_argument("--at", nargs="+", metavar="NAME=VALUE", help="the point: coordinates, velocities (or v^α), inputs")
    pl.add_argument(
        "--inputs", nargs="+", metavar="NAME", help="parameters of the forces that are inputs (B's columns)"
    )
    pl.add_argument("--param", nargs="+", metavar="NAME=VALUE", help="parameter values for the eigenvalues")
    pl.add_argument("--sweep", metavar="NAME=START:STOP:COUNT", help="critical values of a parameter over a range")
    pl.add_argument(
        "--certify", metavar="DIGITS", help=f"certified critical values over --sweep's range (1..{MAX_DIGITS} digits)"
    )
    pl.add_argument(
        "--region", nargs="+", metavar="NAME=LO:HI", help="stability map over two parameters (V=0:10 c=0:0.2)"
    )
    pl.add_argument("--grid", metavar="N", help="grid points along each side of the --region map (default 121)")
    pl.add_argument(
        "--plot", metavar="OUT.png", help="eigenvalues against the swept parameter (--sweep), or the --region map"
    )
    pl.add_argument("--format", choices=["text", "json"], default="text")
    pl.add_argument("--force", action="store_true", help="replace an existing output file")
    pe = sub.add_parser("export", help="write a model as a TOML system file")
    pe.add_argument("model", help="catalogue name or system file")
    pe.add_argument("-o", "--output", metavar="FILE.toml", help="write here instead of stdout")
    pe.add_argument("--force", action="store_true", help="replace an existing output file")
    return parser


def _check_run(args: argparse.Namespace) -> None:
    """Numeric options of ``simulate`` that argparse's types do not bound."""
    if not (math.isfinite(args.t_end) and args.t_end > 0):
        raise FramesError(f"--t-end {args.t_end}: must be a positive finite number")
    if args.t_end > MAX_SPAN:
        raise FramesError(f"--t-end {args.t_end:g}: beyond {MAX_SPAN:g} time units (simulate a shorter span)")
    if not 2 <= args.points <= MAX_POINTS:
        raise FramesError(f"--points {args.points}: must be between 2 and {MAX_POINTS}")


def _max_ops(text: str) -> int | None:
    """``--max-ops``: a positive integer, or ``inf`` for no limit."""
    if text.strip().lower() == "inf":
        return None
    if not text.strip().isdigit() or int(text) < 1:
        raise FramesError(f"--max-ops {text}: must be a positive integer number of operations (inf for none)")
    return int(text)


def _jobs(text: str) -> int:
    """``--jobs``: a positive integer, or ``auto`` (2 when two cores are available to this process, else 1)."""
    if text.strip().lower() == "auto":
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        return 2 if cores >= 2 else 1
    try:
        jobs = int(text) if text.strip().isascii() else 0
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise FramesError(f"--jobs {text}: must be a positive integer number of processes (or auto)")
    return jobs


def _run(args: argparse.Namespace, outputs: _Outputs) -> int:
    if args.command == "models":
        for name, ctor in models.catalogue().items():
            doc = (ctor.__doc__ or "").strip().splitlines()[0]
            print(f"{name:28s} {doc}")
        return 0
    if args.command == "analyze":
        if math.isnan(args.budget) or args.budget <= 0:
            raise FramesError(f"--budget {args.budget}: must be a positive number of seconds (inf for none)")
        show = args.progress if args.progress is not None else sys.stderr.isatty()
        jobs = _jobs(args.jobs)
        printer = _StepPrinter() if show else None
        rep = analyze(
            find_model(args.model),
            only=args.only,
            budget=args.budget,
            progress=printer,
            max_ops=_max_ops(args.max_ops),
            jobs=jobs,
        )
        print(rep.format(args.format, jobs=jobs, progress=printer))  # with progress: "writing section <id>" lines
        return 0
    if args.command == "linearize":
        return _linearize(args, outputs)
    if args.command == "export":
        target = outputs.target(args.output, "--output") if args.output else None
        text = dumps_model(find_model(args.model))
        if target is None:
            sys.stdout.write(text)
            return 0
        _write_text(outputs.temp(target), text)
        outputs.commit()
        return 0
    # simulate
    _check_run(args)
    csv = outputs.target(args.csv, "--csv") if args.csv else None
    png = outputs.target(str(_image(args.plot)), "--plot") if args.plot else None
    if csv is not None and png is not None and csv.resolve() == png.resolve():
        raise FramesError(f"--csv {args.csv} and --plot {args.plot}: the same file {str(png)!r}; give two files")
    mdl = find_model(args.model, check_u0=not (args.project or args.v0))  # --project, --v0 apply first
    res = simulate(
        mdl,
        args.t_end,
        ic=_assignments(args.ic, "--ic"),
        params=_assignments(args.param, "--param"),
        points=args.points,
        progress=ProgressBar(args.t_end, enabled=args.progress),
        subs=_texts(args.subs, "--subs"),
        project=args.project,
        method=args.method,
        v0=_assignments(args.v0, "--v0"),
    )
    if csv is not None:
        _write_csv(res, str(outputs.temp(csv)))
    if png is not None:
        _plot(res, str(outputs.temp(png)))
    outputs.commit()
    t, q = res["t"], res["q"]
    print(f"{mdl.name}: integrated to t = {t[-1]:g} ({len(t)} samples)")
    print("final q: " + ", ".join(f"{n} = {x:.6g}" for n, x in zip(res["names"], q[-1], strict=False)))
    return 0


def _int_option(text: str | None, option: str, lo: int, hi: int, default: int | None) -> int | None:
    """An integer option in ``lo..hi`` (``None``: ``default``), or a :class:`FramesError` naming it."""
    if text is None:
        return default
    t = text.strip()
    if not (t.isascii() and t.isdigit()) or not lo <= int(t) <= hi:
        raise FramesError(f"{option} {text}: must be an integer between {lo} and {hi}")
    return int(t)


def _linearize(args: argparse.Namespace, outputs: _Outputs) -> int:
    """``frames linearize``: the summary of :func:`~frames.app._stability.stability_summary`, as text or JSON."""
    sweep = parse_sweep(args.sweep) if args.sweep else None
    region = [parse_range(r, "--region") for r in args.region] if args.region else None
    digits = _int_option(args.certify, "--certify", 1, MAX_DIGITS, None)
    grid = _int_option(args.grid, "--grid", 3, 2001, 121)
    if digits is not None and sweep is None:
        raise FramesError("--certify: needs --sweep NAME=START:STOP:COUNT (the parameter and its range)")
    if args.grid is not None and region is None:
        raise FramesError("--grid: needs --region NAME=LO:HI NAME=LO:HI (the map's grid)")
    if args.plot and sweep is None and region is None:
        raise FramesError("--plot: needs --sweep NAME=START:STOP:COUNT (the eigenvalues) or --region (the map)")
    if args.plot and sweep is not None and region is not None:
        raise FramesError("--plot: draws either the --sweep eigenvalues or the --region map; give one of them")
    png = outputs.target(str(_image(args.plot)), "--plot") if args.plot else None
    mdl = find_model(args.model)
    res = stability_summary(
        mdl,
        _texts(args.at, "--at"),
        args.inputs,
        _assignments(args.param, "--param"),
        sweep,
        certify=digits,
        region=region,
        grid=grid or 121,
    )
    if png is not None and sweep is not None:
        if res["missing"]:
            raise FramesError(f"--plot: give values for {', '.join(res['missing'])} (--param NAME=VALUE)")
        crit = res["sweep"]["critical_values"]
        rest = {k: v for k, v in res["values"].items() if k != sweep.name}
        plot_eigenvalues(res["linearization"], sweep.name, sweep.values, outputs.temp(png), subs=rest, critical=crit)
    if png is not None and region is not None:
        plot_stability_region(res["region_value"], outputs.temp(png), title=f"{mdl.name}: stability map")
    outputs.commit()
    if args.format == "json":
        body = {k: v for k, v in res.items() if k not in ("linearization", "B_matrix", "region_value")}
        print(json.dumps({"schema": "frames-linearize/1", "frames_version": __version__} | body, indent=2))
    else:
        print("\n".join(summary_lines(res)))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``frames`` console script; returns the exit status (see the module docstring)."""
    args = _parser().parse_args(argv)
    outputs = _Outputs(force=bool(getattr(args, "force", False)))
    try:
        return _run(args, outputs)
    except DegenerateFrameError as exc:  # simulate: the model's frame is singular along the motion (not stiff)
        print(f"frames: error: {exc}", file=sys.stderr)
        return 4
    except IntegrationBudgetError as exc:  # simulate: a stiff system, or the run's budget (no --budget here)
        hint = " (give --method Radau, BDF or LSODA)" if "stiff" in str(exc) else ""
        print(f"frames: error: {exc}{hint}", file=sys.stderr)
        return 3
    except BudgetExceededError as exc:
        print(f"frames: {exc} (raise it with --budget)", file=sys.stderr)
        return 3
    except FramesError as exc:
        print(f"frames: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"frames: error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nframes: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # an internal error: one line, never a traceback (unless FRAMES_DEBUG)
        if os.environ.get("FRAMES_DEBUG"):
            traceback.print_exc()
        print(
            f"frames: internal error: {type(exc).__name__}: {exc} "
            "(please report it; FRAMES_DEBUG=1 shows the traceback)",
            file=sys.stderr,
        )
        return 1
    finally:
        outputs.discard()


def console() -> None:
    """The ``frames`` console script: :func:`main` on the command line, then the process ends with its status.

    ``analyze`` runs under a hard limit as well as its budget (:func:`~frames.app._hardlimit.supervise`: in a child
    process, killed if it does not stop at its checkpoints within two seconds of the deadline).
    After ``analyze``, which writes nothing but its output (flushed here), the interpreter's teardown is skipped
    (``os._exit``): freeing the 10⁶ sympy objects and caches of a report took 0.3 s of the two-wheeled carriage's
    3 s. Every other command ends normally.
    """
    argv = sys.argv[1:]
    analyzing = next((a for a in argv if not a.startswith("-")), None) == "analyze"
    seconds = math.inf
    if analyzing:
        with contextlib.suppress(SystemExit):  # bad arguments: main reports them
            known, _ = _parser().parse_known_args(argv)
            seconds = known.budget if known.budget > 0 else math.inf
    code = supervise(lambda: main(argv), seconds) if analyzing else main(argv)
    if analyzing:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):  # a closed pipe (frames analyze … | head): nothing more to write
                code = code or 1
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    console()
