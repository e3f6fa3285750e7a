"""Layer 3, dynamics: the Crampin–Mestdag frame methods.

* ``_cartan`` — the Cartan forms and ``Γ ⌟ ω = −dE`` (section 2.3);
* ``_lagrangian`` — Lagrangians in any frame, Proposition 1, Hamel's equations (section 2);
* ``_nonholonomic`` — Proposition 2, multipliers, the section 3 transformation rule;
* ``_vakonomic`` — ``L̂ = L − μ_a v^a``, Propositions 3–4, Theorem 1 (section 4);
* ``_ode`` — the first-order system :class:`OdeSystem` of a method, and its private builders;
* ``_consistency`` — weak and strong consistency, sections, Theorem 2 (section 5);
* ``_chaplygin`` — Chaplygin systems, Propositions 5–6, Corollary 3 (section 6).
"""

from ._cartan import CartanSolution, CartanSystem
from ._chaplygin import ChaplyginSystem, Proposition5
from ._consistency import (
    ConsistencyResult,
    MotionConsistency,
    SectionFamily,
    VakonomicLift,
    consistency_along_motion,
    dimension_terms,
    find_sections,
    is_dimensionally_homogeneous,
    split_conditions,
    strong_consistency,
    vakonomic_lift,
    weak_consistency,
)
from ._lagrangian import Equations, Lagrangian
from ._measure import InvariantMeasure as InvariantMeasure
from ._measure import invariant_measure as invariant_measure
from ._nonholonomic import NonholonomicSystem, change_of_adapted_frame, transform_field, transform_multipliers
from ._ode import OdeSystem
from ._vakonomic import Theorem1Check, VakonomicField, VakonomicSystem, VakonomicTangentField

__all__ = [
    "CartanSolution",
    "CartanSystem",
    "ChaplyginSystem",
    "ConsistencyResult",
    "Equations",
    "Lagrangian",
    "MotionConsistency",
    "NonholonomicSystem",
    "OdeSystem",
    "Proposition5",
    "SectionFamily",
    "Theorem1Check",
    "VakonomicField",
    "VakonomicLift",
    "VakonomicSystem",
    "VakonomicTangentField",
    "change_of_adapted_frame",
    "consistency_along_motion",
    "dimension_terms",
    "find_sections",
    "is_dimensionally_homogeneous",
    "split_conditions",
    "strong_consistency",
    "transform_field",
    "transform_multipliers",
    "vakonomic_lift",
    "weak_consistency",
]
