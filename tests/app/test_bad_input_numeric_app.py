"""Bad input to every public callable of the numeric and app layers: one table, one row per bad call.

Each row makes one bad call and names the expected :class:`frames.FramesError` subclass and a pattern
that the message must match; the pattern contains the offending argument's name. Rows with the
code-injection payload check that no string reaches sympy's parser (the sentinel file must never appear).
"""

from __future__ import annotations

import dataclasses
import math
import os
import tempfile

import numpy as np
import pytest
import sympy as sp

import frames as fr
from frames import models
from frames.dynamics._ode import reduced_ode

SENTINEL = os.path.join(tempfile.mkdtemp(prefix="frames-bad-input-"), "pwned")
INJ = f"__import__('pathlib').Path({SENTINEL!r}).touch()"

KE = models.knife_edge()
NH = KE.nonholonomic()
FIELD = NH.field()
COMP = fr.numeric.CompiledSystem(fr.ode_system(NH))
ODE = fr.ode_system(FIELD, system=NH)
TR = fr.integrate(ODE, (0, 0.1), [0.1, 0.0, 0.0], [1.0, math.cos(0.1), math.sin(0.1)], {"m": 1.0, "J": 0.2})
MISSING_DIR = os.path.join(tempfile.mkdtemp(prefix="frames-bad-input-"), "no-such-dir")
VK = fr.VakonomicSystem(KE.lagrangian, KE.frame, KE.m)
P = {"m": 1.0, "J": 0.2}
Q0 = [0.1, 0.0, 0.0]
U0 = [1.0, math.cos(0.1), math.sin(0.1)]
F = KE.frame
m_sym = KE.chart.params[0]
_SL = models.chaplygin_sleigh()
_LIN = fr.linearize(_SL.nonholonomic(), {"theta": 0, "x": 0, "y": 0, "u_theta": 0, "u_x": sp.Symbol("V"), "u_y": 0})
_REGION = _LIN.stability_region({"V": (-1, 1), "a": (-1, 1)}, {"m": 1, "I": 1}, n=5)


def _ode(**changes):
    """The knife edge's OdeSystem with some fields replaced (each bad field must be named)."""
    fields = {f.name: getattr(ODE, f.name) for f in dataclasses.fields(ODE)}
    return fr.OdeSystem(**(fields | changes))


def _event(terminal=None, direction=None, fails=False):
    """An event ``x − 1/2`` (optionally raising) carrying solve_ivp's attributes."""

    def x_half(t, q, u):
        if fails:
            raise KeyError("boom")
        return q[1] - 0.5

    if terminal is not None:
        x_half.terminal = terminal
    if direction is not None:
        x_half.direction = direction
    return x_half


E = fr.errors.InvalidExpressionError
A = fr.errors.ArgumentError
St = fr.errors.StateError
Pa = fr.errors.ParameterError
O = fr.errors.OptionError
SF = fr.errors.SystemFileError

_KE = fr.models.knife_edge()

ROWS = [
    # ---------------------------------------------------------------- ode_system (fields and methods)
    ("ode_system-injection", lambda: fr.ode_system(INJ), E, r"ode_system: .*is not a SecondOrderField"),
    ("ode_system-none", lambda: fr.ode_system(None), E, r"ode_system: None is not a SecondOrderField"),
    ("ode_system-form-type", lambda: fr.ode_system(FIELD, form=3), A, r"ode_system: form"),
    ("ode_system-form-value", lambda: fr.ode_system(FIELD, form="bogus"), fr.FramesError, r"form 'bogus'"),
    ("ode_system-system", lambda: fr.ode_system(FIELD, system=3), A, r"ode_system: system must be a Nonholonomic"),
    ("ode_system-lagrangian", lambda: fr.ode_system(FIELD, lagrangian="L"), A, r"ode_system: lagrangian"),
    ("ode_system-nh-lagrangian", lambda: fr.ode_system(NH, lagrangian=5), A, r"ode_system: lagrangian must be"),
    ("ode_system-nh-option", lambda: fr.ode_system(NH, bogus={}), A, r"ode_system: unknown options \['bogus'\]"),
    ("ode_system-nh-subs", lambda: fr.ode_system(NH, subs={m_sym: INJ}), E, r"ode_system: subs\[m\]: got the string"),
    ("ode_system-ode-options", lambda: fr.ode_system(ODE, form="reduced"), A, r"an OdeSystem takes no options"),
    ("ode_system-vk-subs", lambda: fr.ode_system(VK, subs={m_sym: INJ}), E, r"subs\[m\]: got the string"),
    ("ode_system-vk-subs-key", lambda: fr.ode_system(VK, subs={"m": 1}), E, r"subs: key 'm'"),
    # ---------------------------------------------------------------- the reduced builder behind the methods
    ("reduced-frame", lambda: reduced_ode("F", 2, [0, 0]), A, r"ode_system: frame"),
    ("reduced-m-bool", lambda: reduced_ode(F, True, [0, 0]), A, r"ode_system: m: expected an integer"),
    ("reduced-m-range", lambda: reduced_ode(F, 7, [0, 0]), A, r"ode_system: m: must be ≤ 3"),
    ("reduced-m-zero", lambda: reduced_ode(F, 0, []), A, r"ode_system: m: must be ≥ 1"),
    ("reduced-Gamma-injection", lambda: reduced_ode(F, 2, [INJ, 0]), E, r"Gamma\[0\]: got the string"),
    ("reduced-Gamma-nan", lambda: reduced_ode(F, 2, [sp.nan, 0]), E, r"Gamma\[0\]: .*not finite"),
    ("reduced-Gamma-length", lambda: reduced_ode(F, 2, [0]), E, r"Gamma: 1 components"),
    ("reduced-Gamma-type", lambda: reduced_ode(F, 2, 5), E, r"Gamma: expected a sequence"),
    ("reduced-guard", lambda: reduced_ode(F, 2, [0, 0], guard=INJ), E, r"guard: got the string"),
    ("reduced-multipliers", lambda: reduced_ode(F, 2, [0, 0], multipliers=[INJ]), E, r"multipliers\[0\]"),
    (
        "reduced-extra_observables",
        lambda: reduced_ode(F, 2, [0, 0], extra_observables={"a": [INJ]}),
        E,
        r"extra_observables\['a'\]\[0\]",
    ),
    ("reduced-extra_states-shape", lambda: reduced_ode(F, 2, [0, 0], extra_states={"mu": 5}), E, r"extra_states"),
    (
        "reduced-extra_states-injection",
        lambda: reduced_ode(F, 2, [0, 0], extra_states={"mu": ([sp.Symbol("mu")], [INJ])}),
        E,
        r"extra_states\['mu'\]\[0\]: got the string",
    ),
    ("reduced-lagrangian", lambda: reduced_ode(F, 2, [0, 0], lagrangian=1), A, r"lagrangian must be"),
    ("reduced-form", lambda: reduced_ode(F, 2, [0, 0], form=1), A, r"form must be a str"),
    # ---------------------------------------------------------------- OdeSystem (every field checked) / CompiledSystem
    ("OdeSystem-lengths", lambda: _ode(rhs=()), E, r"OdeSystem: 5 states but 0 right-hand sides"),
    ("OdeSystem-chart", lambda: _ode(chart=KE.lagrangian), A, r"OdeSystem: chart: expected a Chart, got Lagrangian"),
    ("OdeSystem-states-type", lambda: _ode(states=KE.lagrangian), A, r"OdeSystem: states: expected a sequence"),
    ("OdeSystem-states-entry", lambda: _ode(states=("x",) * 5), A, r"OdeSystem: states\[0\]: expected a sympy"),
    ("OdeSystem-states-empty", lambda: _ode(states=(), rhs=(), initial=()), E, r"OdeSystem: states: at least one"),
    ("OdeSystem-rhs-injection", lambda: _ode(rhs=(INJ,) * 5), E, r"OdeSystem: rhs\[0\]: got the string"),
    ("OdeSystem-initial", lambda: _ode(initial=ODE.initial[:2]), E, r"OdeSystem: 5 states but 2 initial"),
    ("OdeSystem-params-type", lambda: _ode(params=("m",)), A, r"OdeSystem: params\[0\]: expected a sympy Symbol"),
    ("OdeSystem-params-undeclared", lambda: _ode(params=(sp.Symbol("zz"),)), E, r"OdeSystem: params \['zz'\]"),
    ("OdeSystem-time", lambda: _ode(time=KE.lagrangian), A, r"OdeSystem: time: expected a sympy Symbol"),
    ("OdeSystem-extra_inputs", lambda: _ode(extra_inputs=KE.lagrangian), A, r"OdeSystem: extra_inputs: expected"),
    ("OdeSystem-extra_inputs-key", lambda: _ode(extra_inputs={1: ()}), A, r"OdeSystem: extra_inputs: key 1"),
    ("OdeSystem-observables", lambda: _ode(observables=KE.lagrangian), A, r"OdeSystem: observables: expected"),
    ("OdeSystem-observables-q", lambda: _ode(observables={"u": (), "v": ()}), E, r"observables: 'q' is required"),
    (
        "OdeSystem-observables-entry",
        lambda: _ode(observables=dict(ODE.observables, v=(INJ,))),
        E,
        r"OdeSystem: observables\['v'\]\[0\]: got the string",
    ),
    (
        "OdeSystem-observables-energy",
        lambda: _ode(observables=dict(ODE.observables, energy=(1, 2))),
        E,
        r"observables: 'energy' must have one entry",
    ),
    ("OdeSystem-constraint_matrix", lambda: _ode(constraint_matrix=[[1]]), A, r"OdeSystem: constraint_matrix: exp"),
    (
        "OdeSystem-constraint_matrix-shape",
        lambda: _ode(constraint_matrix=sp.Matrix([[1, 0]])),
        E,
        r"OdeSystem: constraint_matrix: expected 3 columns",
    ),
    ("OdeSystem-metric-shape", lambda: _ode(metric=sp.eye(2)), E, r"OdeSystem: metric: expected 3 × 3"),
    ("OdeSystem-distribution_matrix", lambda: _ode(distribution_matrix=5), A, r"OdeSystem: distribution_matrix"),
    ("OdeSystem-guard", lambda: _ode(guard=INJ), E, r"OdeSystem: guard: got the string"),
    ("OdeSystem-form", lambda: _ode(form=5), A, r"OdeSystem: form: expected a non-empty str"),
    ("OdeSystem-names", lambda: _ode(names={"q": 5}), A, r"OdeSystem: names\['q'\]: expected a sequence of str"),
    ("CompiledSystem-type", lambda: fr.numeric.CompiledSystem("x"), A, r"CompiledSystem: system must be an OdeSystem"),
    # ---------------------------------------------------------------- integrate
    ("integrate-field", lambda: fr.integrate("x", (0, 1), Q0, U0, P), E, r"cannot integrate 'x'"),
    ("integrate-t_span-str", lambda: fr.integrate(COMP, "ab", Q0, U0, P), St, r"t_span must be a pair"),
    ("integrate-t_span-3", lambda: fr.integrate(COMP, (0, 1, 2), Q0, U0, P), St, r"t_span must be a pair"),
    ("integrate-t_span-nan", lambda: fr.integrate(COMP, (0, math.nan), Q0, U0, P), St, r"t_span must be two distinct"),
    ("integrate-q0-injection", lambda: fr.integrate(COMP, (0, 1), [INJ, 0, 0], U0, P), St, r"q0: not numbers"),
    ("integrate-q0-length", lambda: fr.integrate(COMP, (0, 1), [0, 0], U0, P), St, r"q0: expected 3 values"),
    (
        "integrate-rtol-huge",
        lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, rtol=1e6),
        O,
        r"rtol=1000000.0 must be below 1",
    ),
    (
        "integrate-q0-complex",
        lambda: fr.integrate(COMP, (0, 1), [sp.I, 0, 0], U0, P),
        St,
        r"q0: I is not a real number",
    ),
    ("integrate-u0-zoo", lambda: fr.integrate(COMP, (0, 1), Q0, [sp.zoo, 0, 0], P), St, r"u0: .*zoo"),
    ("integrate-q0-nan", lambda: fr.integrate(COMP, (0, 1), [math.nan, 0, 0], U0, P), St, r"q0: not finite"),
    ("integrate-u0-none", lambda: fr.integrate(COMP, (0, 1), Q0, None, P), St, r"give the initial velocities once: u0"),
    (
        "integrate-u0-off-D",
        lambda: fr.integrate(COMP, (0, 1), Q0, [1, 0, 1], P),
        fr.errors.InconsistentInitialDataError,
        r"u0 = .* violate the constraints",
    ),
    ("integrate-params-type", lambda: fr.integrate(COMP, (0, 1), Q0, U0, [1, 2]), Pa, r"params: expected a mapping"),
    ("integrate-params-injection", lambda: fr.integrate(COMP, (0, 1), Q0, U0, {"m": INJ, "J": 0.2}), Pa, r"'m'"),
    ("integrate-params-nan", lambda: fr.integrate(COMP, (0, 1), Q0, U0, {"m": math.nan, "J": 0.2}), Pa, r"'m'"),
    ("integrate-params-unknown", lambda: fr.integrate(COMP, (0, 1), Q0, U0, {**P, "zz": 1}), Pa, r"'zz'"),
    ("integrate-params-missing", lambda: fr.integrate(COMP, (0, 1), Q0, U0), Pa, r"missing values for parameters"),
    ("integrate-rtol", lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, rtol=-1), O, r"rtol=-1"),
    ("integrate-atol", lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, atol=math.nan), O, r"atol=nan"),
    ("integrate-method", lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, method="bogus"), O, r"method='bogus'"),
    ("integrate-max_step", lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, max_step=0), O, r"max_step=0"),
    ("integrate-max_steps", lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, max_steps=True), O, r"max_steps=True"),
    ("integrate-timeout", lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, timeout=-1), O, r"timeout=-1"),
    ("integrate-t_eval-nan", lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, t_eval=[math.nan]), O, r"t_eval"),
    ("integrate-t_eval-injection", lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, t_eval=INJ), O, r"t_eval"),
    ("integrate-project", lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, project="bogus"), O, r"project='bogus'"),
    (
        "integrate-constraint_tol",
        lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, constraint_tol=-1),
        O,
        r"constraint_tol",
    ),
    ("integrate-extra0-unknown", lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, extra0={"zz": [1]}), St, r"'zz'"),
    ("integrate-mu0", lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, mu0=INJ), St, r"\['mu'\]"),
    ("integrate-system", lambda: fr.integrate(FIELD, (0, 1), Q0, U0, P, system=1), A, r"system must be"),
    # ---------------------------------------------------------------- integrate: events, dense output, solver options
    ("integrate-events-type", lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, events=5), O, r"integrate: events must"),
    ("integrate-events-str", lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, events=INJ), O, r"integrate: events must"),
    (
        "integrate-events-not-callable",
        lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, events=[_event(), 5]),
        O,
        r"integrate: events\[1\] = 5 is not callable",
    ),
    (
        "integrate-events-terminal",
        lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, events=_event(terminal=-1)),
        O,
        r"events\[0\]\.terminal = -1",
    ),
    (
        "integrate-events-direction",
        lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, events=_event(direction="up")),
        O,
        r"events\[0\]\.direction = 'up'",
    ),
    (
        "integrate-events-raises",
        lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, events=_event(fails=True)),
        fr.errors.IntegrationError,
        r"events\[0\] \(x_half\) raised KeyError",
    ),
    (
        "integrate-events-lda",
        lambda: fr.integrate(NH, (0, 1), Q0, U0, P, method="lda-midpoint", step=0.1, events=_event()),
        O,
        r"events need one of scipy's methods",
    ),
    (
        "integrate-dense_output",
        lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, dense_output="yes"),
        O,
        r"dense_output='yes'",
    ),
    (
        "integrate-dense_output-lda",
        lambda: fr.integrate(NH, (0, 1), Q0, U0, P, method="lda-midpoint", step=0.1, dense_output=True),
        O,
        r"dense_output=True needs one of scipy's methods",
    ),
    (
        "integrate-solver_options-type",
        lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, solver_options=[("first_step", 0.1)]),
        O,
        r"solver_options must be a mapping",
    ),
    (
        "integrate-solver_options-key-type",
        lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, solver_options={1: 2}),
        O,
        r"solver_options key 1 is not an option name",
    ),
    *[
        (
            f"integrate-solver_options-clash-{key}",
            lambda key=key: fr.integrate(COMP, (0, 1), Q0, U0, P, solver_options={key: 1}),
            O,
            rf"solver_options\['{key}'\] is a parameter of integrate",
        )
        for key in ("rtol", "atol", "t_eval", "max_step", "method", "events", "dense_output")
    ],
    (
        "integrate-solver_options-set-here",
        lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, solver_options={"fun": print}),
        O,
        r"solver_options\['fun'\] is set by integrate",
    ),
    (
        "integrate-solver_options-vectorized",
        lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, solver_options={"vectorized": True}),
        O,
        r"solver_options\['vectorized'\] is not supported",
    ),
    (
        "integrate-solver_options-unknown",
        lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, solver_options={"jac": None}),
        O,
        r"solver_options\['jac'\] is not an option of scipy's RK45; it accepts \['first_step'\]",
    ),
    (
        "integrate-solver_options-value",
        lambda: fr.integrate(COMP, (0, 1), Q0, U0, P, solver_options={"first_step": -1.0}),
        O,
        r"solver_options \['first_step'\] refused by scipy's RK45",
    ),
    (
        "integrate-solver_options-lda",
        lambda: fr.integrate(NH, (0, 1), Q0, U0, P, method="lda-midpoint", step=0.1, solver_options={}),
        O,
        r"solver_options are passed to scipy's solvers",
    ),
    # ---------------------------------------------------------------- integrate: the params, the OdeSystem path
    ("integrate-ode-q0", lambda: fr.integrate(ODE, (0, 1), "abc", U0, P), St, r"q0: not numbers"),
    ("integrate-extra0", lambda: fr.integrate(ODE, (0, 1), Q0, U0, P, extra0=5), St, r"extra0"),
    ("integrate-extra0-mu0", lambda: fr.integrate(VK, (0, 1), Q0, U0, P, extra0=5, mu0=[0]), St, r"extra0"),
    ("integrate-method-type", lambda: fr.integrate(ODE, (0, 1), Q0, U0, P, method=3), O, r"method=3"),
    ("integrate-ode-system", lambda: fr.integrate(ODE, (0, 1), Q0, U0, P, system=NH), O, r"OdeSystem is integrated"),
    ("integrate-params-list", lambda: fr.integrate(ODE, (0, 1), Q0, U0, [1.0]), Pa, r"params: expected a mapping"),
    ("integrate-params-key", lambda: fr.integrate(ODE, (0, 1), Q0, U0, {5: 1.0}), Pa, r"params: key 5"),
    ("integrate-params-unknown", lambda: fr.integrate(ODE, (0, 1), Q0, U0, {"zz": 1.0}), Pa, r"unknown parameter 'zz'"),
    ("integrate-params-missing", lambda: fr.integrate(ODE, (0, 1), Q0, U0, {"m": 1.0}), Pa, r"missing values"),
    ("integrate-params-value", lambda: fr.integrate(ODE, (0, 1), Q0, U0, {"m": INJ, "J": 1}), Pa, r"parameter 'm'"),
    ("integrate-params-nan", lambda: fr.integrate(ODE, (0, 1), Q0, U0, {"m": math.nan, "J": 1}), Pa, r"'m' is not fin"),
    ("integrate-progress-value", lambda: fr.integrate(ODE, (0, 1), Q0, U0, P, progress="yes"), A, r"progress: exp"),
    ("integrate-unknown-option", lambda: fr.integrate(ODE, (0, 1), Q0, U0, P, rtoll=1e-3), O, r"unknown option.*rtoll"),
    ("integrate-v0-overflow", lambda: fr.integrate(KE, (0, 1), Q0, v0=[10**400, 1]), St, r"v0: a value is too large"),
    ("integrate-u0-overflow", lambda: fr.integrate(ODE, (0, 1), Q0, [10**400, 0, 0], P), St, r"u0: a value is too l"),
    ("integrate-q0-batch-overflow", lambda: fr.integrate(ODE, (0, 1), [Q0, [10**400, 0, 0]], [U0, U0], P), St, r"q0"),
    (
        "integrate-v0-batch-rows",
        lambda: fr.integrate(KE, (0, 1), [Q0, Q0], v0=[[1.0, 0.0]]),
        St,
        r"q0 and v0 batches differ: 2 and 1 members",
    ),
    (
        "integrate-solver-and-option",
        lambda: fr.integrate(ODE, (0, 1), Q0, U0, P, method=fr.RK45(), rtol=1e-3),
        O,
        r"\['rtol'\] given beside the solver RK45: set them on the solver",
    ),
    (
        "integrate-solver-batch-only",
        lambda: fr.integrate(ODE, (0, 1), Q0, U0, P, method=fr.RK4(n_steps=10)),
        O,
        r"RK4 does not integrate one trajectory",
    ),
    (
        "integrate-solver-no-batch",
        lambda: fr.integrate(ODE, (0, 1), [Q0, Q0], [U0, U0], P, method=fr.Radau()),
        O,
        r"Radau does not integrate a batch",
    ),
    ("integrate-inputs-type", lambda: fr.integrate(ODE, (0, 1), Q0, U0, P, inputs=[1]), O, r"inputs must be a mapping"),
    ("integrate-inputs-value", lambda: fr.integrate(ODE, (0, 1), Q0, U0, P, inputs={"m": 2.0}), O, r"inputs\['m'\]"),
    ("integrate-inputs-key", lambda: fr.integrate(ODE, (0, 1), Q0, U0, P, inputs={5: abs}), O, r"inputs key 5"),
    ("RK45-rtol", lambda: fr.RK45(rtol=-1.0), O, r"RK45: rtol=-1.0 must be a positive finite number"),
    ("RK45-rtol-one", lambda: fr.RK45(rtol=1.0), O, r"RK45: rtol=1.0 must be below 1"),
    ("RK45-options", lambda: fr.RK45(options={"jac": None}), O, r"solver_options\['jac'\] is not an option of scipy"),
    ("RK45-max_steps", lambda: fr.RK45(max_steps=0), O, r"RK45: max_steps=0 must be a positive integer"),
    ("RK45-timeout", lambda: fr.RK45(timeout=-1), O, r"RK45: timeout=-1 must be positive seconds"),
    ("RK23-atol", lambda: fr.RK23(atol=math.nan), O, r"RK23: atol=nan must be a positive finite number"),
    ("DOP853-max_step", lambda: fr.DOP853(max_step=0), O, r"DOP853: max_step=0 must be positive"),
    ("Radau-rtol", lambda: fr.Radau(rtol="1e-3"), O, r"Radau: rtol='1e-3' must be a positive finite number"),
    ("BDF-atol", lambda: fr.BDF(atol=True), O, r"BDF: atol=True must be a positive finite number"),
    ("LSODA-options", lambda: fr.LSODA(options=[1]), O, r"solver_options must be a mapping"),
    ("RK4-n_steps", lambda: fr.RK4(), O, r"RK4: n_steps=None must be a positive integer"),
    ("RK4-n_steps-budget", lambda: fr.RK4(n_steps=50, max_steps=10), O, r"RK4: n_steps=50 exceeds max_steps=10"),
    ("LDAMidpoint-step", lambda: fr.LDAMidpoint(), O, r"needs the fixed step: pass step="),
    ("LDAMidpoint-step-value", lambda: fr.LDAMidpoint(step=-0.1), O, r"LDAMidpoint: step=-0.1 must be a positive fin"),
    ("NumbaRK45-rtol", lambda: fr.NumbaRK45(rtol=0), O, r"NumbaRK45: rtol=0 must be a positive finite number"),
    ("NumbaRK4-n_steps", lambda: fr.NumbaRK4(n_steps=1.5), O, r"NumbaRK4: n_steps=1.5 must be a positive integer"),
    ("Solver-timeout", lambda: fr.Solver(timeout="1"), O, r"Solver: timeout='1' must be positive seconds"),
    ("TimeLaw-fn", lambda: fr.TimeLaw(3), A, r"TimeLaw: 3 is not callable"),
    (
        "integrate-events",
        lambda: fr.integrate(ODE, (0, 1), Q0, U0, P, events=[None]),
        O,
        r"events\[0\] = None is not callable",
    ),
    (
        "integrate-solver_options-radau",
        lambda: fr.integrate(ODE, (0, 1), Q0, U0, P, method="Radau", solver_options={"min_step": 0.1}),
        O,
        r"solver_options\['min_step'\] is not an option of scipy's Radau",
    ),
    # ---------------------------------------------------------------- integrate: a batch (2-d initial data)
    ("integrate-batch-empty", lambda: fr.integrate(COMP, (0, 1), np.zeros((0, 3)), np.zeros((0, 3)), P), St, r"empty"),
    (
        "integrate-batch-events",
        lambda: fr.integrate(COMP, (0, 1), [Q0], [U0], P, events=_event()),
        O,
        r"events, dense_output and solver_options are options of a single run",
    ),
    (
        "integrate-batch-progress",
        lambda: fr.integrate(COMP, (0, 1), [Q0], [U0], P, progress="yes"),
        A,
        r"integrate: progress: expected True, False, None or a ProgressBar, got 'yes'",
    ),
    (
        "integrate-batch-progress-int",
        lambda: fr.integrate(COMP, (0, 1), [Q0], [U0], P, progress=1),
        A,
        r"integrate: progress: expected True, False, None or a ProgressBar, got 1",
    ),
    ("integrate-batch-q0-shape", lambda: fr.integrate(COMP, (0, 1), [[0, 0]], [U0], P), St, r"q0: expected an"),
    (
        "integrate-batch-q0-injection",
        lambda: fr.integrate(COMP, (0, 1), [[INJ, 0, 0]], [U0], P),
        St,
        r"q0: not an array of numbers",
    ),
    (
        "integrate-batch-q0-nan",
        lambda: fr.integrate(COMP, (0, 1), [[np.nan, 0, 0]], [U0], P),
        St,
        r"q0: non-finite",
    ),
    ("integrate-batch-params", lambda: fr.integrate(COMP, (0, 1), [Q0], [U0], {"m": INJ, "J": 0.2}), Pa, r"'m'"),
    ("integrate-batch-n_steps-rk45", lambda: fr.integrate(COMP, (0, 1), [Q0], [U0], P, n_steps=0), O, r"n_steps"),
    (
        "integrate-batch-n_steps-rk4",
        lambda: fr.integrate(COMP, (0, 1), [Q0], [U0], P, method="RK4", n_steps=0),
        O,
        r"n_steps=0",
    ),
    ("integrate-batch-method", lambda: fr.integrate(COMP, (0, 1), [Q0], [U0], P, method="LSODA"), O, r"method"),
    # ---------------------------------------------------------------- trajectory files
    (
        "Trajectory.plot-missing-dir",
        lambda: TR.plot(os.path.join(MISSING_DIR, "x.png")),
        A,
        r"Trajectory.plot: path: the directory '.*no-such-dir' of .* does not exist",
    ),
    ("Trajectory.plot-path-type", lambda: TR.plot(5), A, r"Trajectory.plot: path: expected a file path"),
    (
        "Trajectory.plot-suffix",
        lambda: TR.plot(os.path.join(tempfile.mkdtemp(prefix="frames-bad-input-"), "x.txt")),
        A,
        r"Trajectory.plot: path '.*x.txt': 'txt' is not an image format; use one of \[.*'png'",
    ),
    (
        "integrate-events-lda-solver",
        lambda: fr.integrate(NH, (0, 1), Q0, U0, P, method=fr.LDAMidpoint(step=0.1), events=_event()),
        O,
        r"events need one of scipy's methods; method='lda-midpoint' has no events",
    ),
    (
        "integrate-inputs-numba",
        lambda: fr.integrate(COMP, (0, 1), [Q0], [U0], P, inputs={"m": abs}, backend="numba"),
        Pa,
        r"params\['m'\]: a callable input may enter the right-hand side",
    ),
    (
        "Trajectory.to_csv-missing-dir",
        lambda: TR.to_csv(os.path.join(MISSING_DIR, "x.csv")),
        A,
        r"Trajectory.to_csv: path: the directory '.*no-such-dir' of .* does not exist",
    ),
    # ---------------------------------------------------------------- sweep
    ("sweep-func", lambda: fr.sweep(3, {"a": [1]}), A, r"sweep: func must be callable"),
    ("plot_eigenvalues-lin", lambda: fr.plot_eigenvalues(3, "V", [0, 1], "x.png"), A, r"^plot_eigenvalues: lin"),
    (
        "plot_eigenvalues-values",
        lambda: fr.plot_eigenvalues(_LIN, "V", ["a", INJ], "x.png"),
        A,
        r"^plot_eigenvalues: values: expected a sequence of numbers",
    ),
    (
        "plot_eigenvalues-parameter",
        lambda: fr.plot_eigenvalues(_LIN, "W", [0, 1], "x.png", subs={"m": 1, "I": 1, "a": 1}),
        A,
        r"is not a symbol of the linearisation",
    ),
    (
        "plot_eigenvalues-critical",
        lambda: fr.plot_eigenvalues(_LIN, "V", [0, 1], "x.png", subs={"m": 1, "I": 1, "a": 1}, critical=INJ),
        A,
        r"^plot_eigenvalues: critical: expected finite numbers",
    ),
    (
        "plot_eigenvalues-path-extension",
        lambda: fr.plot_eigenvalues(_LIN, "V", [0, 1], "x.txt", subs={"m": 1, "I": 1, "a": 1}),
        A,
        r"^plot_eigenvalues: path: cannot write 'x.txt'.*use one of .*\.png",
    ),
    (
        "plot_stability_region-region",
        lambda: fr.plot_stability_region(INJ, "x.png"),
        A,
        r"^plot_stability_region: region",
    ),
    (
        "plot_stability_region-path-extension",
        lambda: fr.plot_stability_region(_REGION, "x.txt"),
        A,
        r"^plot_stability_region: path: cannot write 'x.txt'",
    ),
    ("sweep-grid", lambda: fr.sweep(print, 5), A, r"grid: expected a mapping"),
    ("sweep-grid-str", lambda: fr.sweep(print, "abc"), A, r"grid: expected a mapping"),
    ("sweep-progress", lambda: fr.sweep(print, [1], progress="yes"), A, r"sweep: progress: expected"),
    ("sweep-max_workers", lambda: fr.sweep(print, {"a": [1]}, max_workers=0), A, r"max_workers: must be ≥ 1"),
    ("sweep-executor", lambda: fr.sweep(print, {"a": [1]}, executor=5), A, r"executor must have a submit"),
    ("grid_points-int", lambda: fr.numeric.grid_points(5), A, r"grid: expected"),
    ("grid_points-values-str", lambda: fr.numeric.grid_points({"a": "xyz"}), A, r"grid\['a'\]: expected a sequence"),
    ("grid_points-key", lambda: fr.numeric.grid_points({1: [1]}), A, r"grid: key 1"),
    ("IntegrateJob-compiled", lambda: fr.numeric.IntegrateJob("c", (0, 1), Q0, U0), A, r"IntegrateJob: compiled"),
    ("IntegrateJob-t_span", lambda: fr.numeric.IntegrateJob(COMP, "ab", Q0, U0), St, r"t_span"),
    (
        "IntegrateJob-params",
        lambda: fr.numeric.IntegrateJob(COMP, (0, 1), Q0, U0, params=[1]),
        Pa,
        r"IntegrateJob: params",
    ),
    (
        "IntegrateJob-options",
        lambda: fr.numeric.IntegrateJob(COMP, (0, 1), Q0, U0, options=5),
        A,
        r"IntegrateJob: options",
    ),
    ("IntegrateJob-final_only", lambda: fr.numeric.IntegrateJob(COMP, (0, 1), Q0, U0, final_only=1), A, r"final_only"),
    # ---------------------------------------------------------------- report, LaTeX, budgets
    ("analyze-model", lambda: fr.analyze("knife-edge"), A, r"analyze: model must be"),
    ("analyze-only-str", lambda: fr.analyze(KE, only="chart"), A, r"analyze: only must be"),
    ("analyze-only-unknown", lambda: fr.analyze(KE, only=["zz"]), fr.FramesError, r"only: unknown .*'zz'"),
    ("analyze-budget", lambda: fr.analyze(KE, budget=-1), O, r"budget: seconds=-1"),
    ("analyze-budget-str", lambda: fr.analyze(KE, budget="10"), O, r"budget: seconds='10'"),
    ("analyze-progress", lambda: fr.analyze(KE, progress=5), A, r"analyze: progress must be callable"),
    ("Report-types", lambda: fr.results.Report(5, 6, 7), A, r"Report: model and citation"),
    ("Report-sections", lambda: fr.results.Report("a", "b", ("x",)), A, r"Report: sections"),
    ("Report.format", lambda: fr.analyze(KE, only=["chart"]).format("pdf"), A, r"fmt: unknown report format"),
    ("display_form-injection", lambda: fr.app.display_form(INJ), E, r"display_form: expr: got the string"),
    ("display_form-none", lambda: fr.app.display_form(None), E, r"display_form: expr"),
    ("display_form-nan", lambda: fr.app.display_form(sp.nan), E, r"display_form: expr: .*not finite"),
    ("latex_equations-obj", lambda: fr.latex_equations(INJ), fr.FramesError, r"latex_equations: .*no equations"),
    ("latex_equations-environment", lambda: fr.latex_equations(FIELD, environment="al}ign"), A, r"environment"),
    ("latex_equations-environment-type", lambda: fr.latex_equations(FIELD, environment=5), A, r"environment"),
    ("budget-seconds", lambda: fr.budget("x").__enter__(), O, r"budget: seconds='x'"),
    ("budget-progress", lambda: fr.budget(1, progress=3).__enter__(), O, r"budget: progress must be callable"),
    ("step-name", lambda: fr.algebra.step(5).__enter__(), O, r"step: name must be a str"),
    # ---------------------------------------------------------------- system files (strings are text, not code)
    ("parse_expression-injection", lambda: fr.parse_expression(INJ, {}), SF, r"__import__"),
    ("loads_model-none", lambda: fr.loads_model(None), SF, r"str"),
    (
        "loads_model-injection",
        lambda: fr.loads_model(f'name = "x"\ncoordinates = ["x"]\nlagrangian = "{INJ}"\n'),
        SF,
        r"lagrangian: .*'__import__' is a dunder name",
    ),
    ("load_model-type", lambda: fr.load_model(5), SF, r"5"),
    ("dumps_model-type", lambda: fr.dumps_model("x"), A, r"dumps_model: model"),
    ("dump_model-type", lambda: fr.dump_model("x", os.path.join(tempfile.gettempdir(), "x.toml")), A, r"model"),
    # ---------------------------------------------------------------- sympy.physics.mechanics interop
    ("from_mechanics-string", lambda: fr.from_mechanics("x"), A, r"^from_mechanics: method: expected"),
    ("from_mechanics-injection", lambda: fr.from_mechanics(INJ), A, r"^from_mechanics: method: expected"),
    ("from_mechanics-none", lambda: fr.from_mechanics(None), A, r"^from_mechanics: method: .*NoneType"),
    ("mechanics_import-injection", lambda: fr.app.mechanics_import(INJ), A, r"^from_mechanics: method: expected"),
    ("mechanics_import-int", lambda: fr.app.mechanics_import(5), A, r"^from_mechanics: method: .*int"),
    ("mechanics_rates-injection", lambda: fr.app.mechanics_rates(INJ, KE), A, r"^mechanics_rates: method: expected"),
    (
        "mechanics_rates-model",
        lambda: fr.app.mechanics_rates(None, 5),
        A,
        r"^mechanics_rates: (method|model): expected",
    ),
    ("dump_model-path-int", lambda: fr.dump_model(_KE, 5), A, r"^dump_model: path must be a file path"),
    ("dump_model-path-empty", lambda: fr.dump_model(_KE, ""), A, r"^dump_model: path must be a file path"),
    ("Model-params-int", lambda: dataclasses.replace(_KE, params=5), fr.errors.ParameterError, r"^Model 'knife-edge'"),
    ("Model-m-7", lambda: dataclasses.replace(_KE, m=7), fr.errors.ConstraintError, r"^Model 'knife-edge': m: 7"),
    (
        "Model-lagrangian-string",
        lambda: dataclasses.replace(_KE, lagrangian="L"),
        E,
        r"^Model 'knife-edge': lagrangian: 'L' is not a Lagrangian",
    ),
    ("Model-name-int", lambda: dataclasses.replace(_KE, name=3), E, r"^Model: name 3 must be a non-empty string"),
]

#: Public callables of the numeric and app layers (and the budget functions) that the table covers.
COVERED = {
    "plot_eigenvalues",
    "RK45",
    "RK23",
    "DOP853",
    "Radau",
    "BDF",
    "LSODA",
    "RK4",
    "LDAMidpoint",
    "NumbaRK45",
    "NumbaRK4",
    "Solver",
    "TimeLaw",
    "plot_stability_region",
    "ode_system",
    "OdeSystem",
    "CompiledSystem",
    "integrate",
    "sweep",
    "grid_points",
    "IntegrateJob",
    "analyze",
    "Report",
    "display_form",
    "latex_equations",
    "budget",
    "step",
    "parse_expression",
    "loads_model",
    "load_model",
    "dumps_model",
    "dump_model",
    "from_mechanics",
    "Model",
    "mechanics_import",
    "mechanics_rates",
}

#: Results of computations, built by the library (their constructors are not an input surface).
RESULTS = {"Trajectory", "TrajectoryBatch", "MechanicsImport"}


@pytest.mark.parametrize("row", ROWS, ids=[r[0] for r in ROWS])
def test_bad_input_raises_a_frames_error_naming_the_argument(row):
    _id, call, exc, pattern = row
    with pytest.raises(exc, match=pattern) as info:
        call()
    assert isinstance(info.value, fr.FramesError)


def test_every_public_callable_of_these_layers_has_rows():
    mine = {
        n
        for n in fr.__all__
        if callable(getattr(fr, n))
        and not (isinstance(getattr(fr, n), type) and issubclass(getattr(fr, n), BaseException))
        and getattr(getattr(fr, n), "__module__", "").startswith(
            ("frames.numeric", "frames.app", "frames.algebra._budget")
        )
    }
    assert mine - COVERED - RESULTS == set()
    named = {r[0].split("-")[0].split(".")[0] for r in ROWS}
    assert COVERED <= named


def test_no_row_executed_code():
    assert not os.path.exists(SENTINEL)
