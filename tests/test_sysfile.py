"""System files: safe expression parser, TOML reading/writing, round trip of the catalogue."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import frames as fr
from frames import models
from frames.app._sysfile import SystemFileError, dump_system, loads_system, models_equal, parse_expression

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "systems" / "sleigh_offset_mass.toml"
x, y, t = sp.symbols("x y t")
SYMS = {"x": x, "y": y, "t": t}

# Payloads that would execute code or leak objects if anything evaluated them.
PAYLOADS = [
    "__import__('os').system('echo pwned')",
    "__import__('os').system",
    "().__class__.__bases__[0].__subclasses__()",
    "x.__class__",
    "x.real",
    "x[0]",
    "(lambda: 1)()",
    "[c for c in 'ab']",
    "{1: 2}",
    "open('/etc/passwd')",
    "eval('1')",
    "exec('import os')",
    "getattr(x, 'real')",
    "sympify('x')",
    "import os",
    "sin(x=1)",
    "sin(*[x])",
    "'abc'",
    "b'abc'",
    "x if y else t",
    "x < y",
    "x and y",
    "f'{x}'",
    "(y := 2)",
    "__builtins__",
    "globals()",
    "x @ y",
    "x // y",
    "x % y",
    "~x",
    "not x",
    "True",
    "None",
    "1j",
    "Symbol('z')",
    "z",
]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_payloads_are_rejected(payload, tmp_path, capfd):
    with pytest.raises(SystemFileError) as info:
        parse_expression(payload, SYMS, source="f.toml", key="lagrangian")
    msg = str(info.value)
    assert msg.startswith("f.toml: lagrangian: ")
    assert "pwned" not in capfd.readouterr().out


def test_classic_payload_in_a_file_never_runs(tmp_path, capfd):
    marker = tmp_path / "pwned"
    text = dump_system(models.knife_edge()).replace(
        'lagrangian = "', f"lagrangian = \"__import__('pathlib').Path({str(marker)!r}).touch() + "
    )
    path = tmp_path / "evil.toml"
    path.write_text(text)
    with pytest.raises(SystemFileError, match=r"evil\.toml: lagrangian: .*dunder"):
        fr.load_system(path)
    assert not marker.exists()
    text2 = dump_system(models.knife_edge()).replace(
        'constraints = [\n  "', "constraints = [\n  \"__import__('os').system('echo pwned') + "
    )
    with pytest.raises(SystemFileError, match=r"constraints\[0\]"):
        loads_system(text2, "evil2.toml")
    assert "pwned" not in capfd.readouterr().out


def test_valid_expressions():
    assert parse_expression("x**2/2 + sin(y)", SYMS) == x**2 / 2 + sp.sin(y)
    assert parse_expression("-(x - 1)*+y", SYMS) == -(x - 1) * y
    assert parse_expression("sqrt(x)*exp(t)*log(y)*tan(x)*cos(pi)", SYMS) == -sp.sqrt(x) * sp.exp(t) * sp.log(
        y
    ) * sp.tan(x)
    assert parse_expression("x**(1/2)", SYMS) == sp.sqrt(x)
    assert parse_expression(2.5, SYMS) == sp.Float("2.5")
    assert parse_expression("F(x, t) + G(t)", SYMS, {"F": 2, "G": 1}) == sp.Function("F")(x, t) + sp.Function("G")(t)
    # a declared symbol shadows a constant name
    E = sp.Symbol("E")
    assert parse_expression("E*x", {"E": E, "x": x}) == E * x


@pytest.mark.parametrize(
    "text, reason",
    [
        ("2**10**10", "exponent"),
        ("x**1000", "exponent"),
        ("x**(1/1000)", "exponent"),
        ("(2**100)**100", "too large"),
        ("(" * 300 + "x" + ")" * 300, "nested|syntax"),
        ("-" * 5000 + "x", "nested"),
        ("+".join(["x"] * 6000), "too large|nested|longer"),
        ("9" * 5000, "integer|syntax|parsed"),
        ("1/0", "division by zero"),
        ("0**-1", "division by zero"),
        ("1e999", "finite"),
        ("sin(x, y)", "argument"),
        ("F(x)", "not allowed"),
        ("sin", "without arguments"),
        ("", "empty"),
    ],
    ids=lambda v: v[:20] if isinstance(v, str) else None,
)
def test_bounds_and_errors(text, reason):
    t0 = time.perf_counter()
    with pytest.raises(SystemFileError, match=reason):
        parse_expression(text, SYMS)
    assert time.perf_counter() - t0 < 5


_TOKENS = [
    "x",
    "y",
    "t",
    "1",
    "2.5",
    "+",
    "-",
    "*",
    "/",
    "**",
    "(",
    ")",
    "sin(",
    "cos(",
    "sqrt(",
    ",",
    " ",
    "__import__",
    ".",
    "[",
    "]",
    "lambda",
    ":",
    "'",
    "os",
    "system",
    "99",
    "**99",
    "=",
    "import",
    "z",
]


def _check_parse(text: str) -> None:
    t0 = time.perf_counter()
    try:
        e = parse_expression(text, SYMS)
    except SystemFileError:
        pass
    else:
        assert isinstance(e, sp.Expr)
        assert e.free_symbols <= {x, y, t}
    assert time.perf_counter() - t0 < 5, f"parsing {text!r} took too long"


@given(st.text(max_size=200))
def test_fuzz_arbitrary_text(text):
    _check_parse(text)


@given(st.lists(st.sampled_from(_TOKENS), max_size=40).map("".join))
def test_fuzz_token_soup(text):
    _check_parse(text)


_VALID = dump_system(models.knife_edge())


@settings(max_examples=25)
@given(
    st.integers(0, len(_VALID)),
    st.integers(0, 20),
    st.sampled_from([*_TOKENS, "\n", '"', "[", "]", "=", "#", "__class__", "x.__init__", "\\", "{", "}"]),
)
def test_fuzz_mutated_files(pos, cut, token):
    text = _VALID[:pos] + token + _VALID[pos + cut :]
    t0 = time.perf_counter()
    try:
        mdl = loads_system(text, "mutated.toml")
    except SystemFileError as exc:
        assert str(exc).startswith("mutated.toml: ")
    else:
        assert isinstance(mdl, models.Model)
    assert time.perf_counter() - t0 < 30


@pytest.mark.parametrize("name", list(models.catalogue()))
def test_round_trip_every_model(name):
    mdl = models.get(name)
    back = loads_system(dump_system(mdl), f"{name}.toml")
    assert models_equal(mdl, back)
    assert back.name == mdl.name and back.m == mdl.m and back.group == mdl.group
    assert is_zero_all(mdl.lagrangian.expr - back.lagrangian.expr)
    assert mdl.frame.matrix.shape == back.frame.matrix.shape
    assert all(sp.simplify(a - b) == 0 for a, b in zip(mdl.constraints.matrix, back.constraints.matrix, strict=True))
    assert {k.name: v for k, v in back.param_values.items()} == {k.name: float(v) for k, v in mdl.param_values.items()}
    assert set(back.structure_constants) == set(mdl.structure_constants)


def is_zero_all(e):
    return sp.expand(e) == 0


def test_models_equal_detects_differences():
    a = models.knife_edge()
    text = dump_system(a).replace("m*(u_x**2 + u_y**2)/2", "m*(u_x**2 + 2*u_y**2)/2")
    assert text != dump_system(a)
    assert not models_equal(a, loads_system(text))


def test_class71_declared_functions_round_trip(tmp_path):
    mdl = models.class71(2)
    path = fr.write_system(mdl, tmp_path / "c.toml")
    text = path.read_text()
    assert "[functions]" in text and 'Delta3 = ["q1"]' in text
    back = fr.load_system(path)
    assert models_equal(mdl, back)
    d3 = sp.Function("Delta3")(mdl.chart.q[0])
    assert back.frame.matrix[1, 2] == -d3


def test_file_errors_name_file_key_and_reason(tmp_path):
    good = dump_system(models.knife_edge())
    cases = {
        "lagrangian": good.replace('lagrangian = "', 'lagrangian = "zz + '),
        "constraints": good.replace("constraints = [", 'constraints = [\n  "u_x**2",'),
        "frame[0]": good.replace('["1", "0", "0"]', '["1", "1", "0"]'),
        "m": good.replace("m = 2", "m = 1"),
        "(toml)": good + "\n[[[",
        "coordinates": good.replace('coordinates = ["phi", "x", "y"]', 'coordinates = ["phi", "x", "x"]'),
        "initial.q.w": good + "\n",  # replaced below
    }
    cases["initial.q.w"] = good.replace("[initial.q]", "[initial.q]\nw = 1.0")
    for key, text in cases.items():
        p = tmp_path / "bad.toml"
        p.write_text(text)
        with pytest.raises(SystemFileError) as info:
            fr.load_system(p)
        assert info.value.source == str(p)
        assert info.value.key == key, (key, str(info.value))
        assert str(info.value).startswith(f"{p}: {key}: ") and info.value.reason
    with pytest.raises(SystemFileError, match="cannot be read"):
        fr.load_system(tmp_path / "missing.toml")
    with pytest.raises(SystemFileError, match="unknown key"):
        loads_system('surprise = "1"\n' + good)


def test_frame_defaults_complement_and_units():
    mdl = fr.load_system(EXAMPLE)
    assert mdl.name == "sleigh-offset-mass" and mdl.n == 3 and mdl.m == 2
    assert mdl.units["I"] == "kg m^2"
    th = mdl.chart.q[0]
    assert mdl.frame.matrix.row(2).tolist() == [[0, -sp.sin(th), sp.cos(th)]]
    assert len(mdl.auxiliary) == 2
    # without frame or complement: coordinate fields complete D
    text = EXAMPLE.read_text().replace('complement = [["0", "-sin(theta)", "cos(theta)"]]', "")
    m2 = loads_system(text)
    assert m2.frame.dim == 3 and m2.frame.matrix[:2, :] == mdl.frame.matrix[:2, :]
    assert models_equal(mdl, loads_system(dump_system(mdl)))
