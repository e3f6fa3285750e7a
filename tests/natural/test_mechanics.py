"""``frames/natural/_mechanics.py``: SymPy's ``LagrangesMethod`` as a reference, and the passage to dynamic symbols."""

import frames as fr
from frames.algebra import is_zero
from frames.natural import lagranges_method_accelerations
from frames.natural.internal import from_dynamic, to_dynamic


def test_lagranges_method_agrees_with_proposition_2_on_the_constraint():
    nh = fr.models.nonholonomic_particle().nonholonomic()
    ref = lagranges_method_accelerations(nh.lagrangian, nh.constraints.functions)
    F = nh.frame
    on_c = {F.v[a]: 0 for a in range(nh.m, F.dim)}
    sub = dict(zip(F.chart.u, [x.xreplace(on_c) for x in F.u_in_v], strict=True))
    assert all(is_zero((a - b).xreplace(sub)) for a, b in zip(nh.accelerations(), ref, strict=True))


def test_to_dynamic_and_back_is_the_identity():
    mdl = fr.models.knife_edge()
    ch = mdl.chart
    sub, qf, qd, t = to_dynamic(ch)
    e = mdl.lagrangian.expr + ch.q[0] * ch.u[1]
    dyn = e.xreplace(sub)
    assert not (dyn.free_symbols & (set(ch.q) | set(ch.u)))
    assert is_zero(from_dynamic(dyn, ch, qf, qd, t) - e)
