"""Layer 2, geometry: charts, vector fields, frames, distributions, lifts and forms on Q and TQ.

Crampin–Mestdag section 2. Knows no Lagrangian.

* ``_chart`` — coordinates ``q``, fibre coordinates ``u``, time ``t`` and the one total derivative ``d/dt``;
* ``_tangent`` — fields on TQ (:class:`TangentVectorField`) and second-order fields (:class:`SecondOrderField`);
* ``_fields`` — vector fields and 1-forms on Q, the bracket, complete and vertical lifts;
* ``_frame`` — frames, coframes, the object of anholonomy ``R[k, i, j]``, quasi-velocities, adapted frames;
* ``_distribution`` — distributions, Frobenius, linear constraints, the index ranges of an adapted frame;
* ``_forms`` — differential forms on TQ (× R^k) for the Cartan-form method.
"""

from ._chart import Chart
from ._distribution import Distribution, FrobeniusResult, LinearConstraints
from ._fields import OneForm, VectorField, bracket
from ._forms import Form
from ._frame import Frame, anholonomy_after_change, complete_frame
from ._growth import BracketFlag, bracket_flag
from ._nilpotent import NilpotentApproximation
from ._second_order import SecondOrderField
from ._tangent import TangentVectorField, derivation

__all__ = [
    "anholonomy_after_change",
    "BracketFlag",
    "Chart",
    "Distribution",
    "Form",
    "Frame",
    "FrobeniusResult",
    "LinearConstraints",
    "NilpotentApproximation",
    "OneForm",
    "SecondOrderField",
    "TangentVectorField",
    "VectorField",
    "bracket",
    "bracket_flag",
    "complete_frame",
    "derivation",
]
