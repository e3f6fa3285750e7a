"""Layer 3, dynamics: the Crampin–Mestdag frame methods.

* ``_cartan`` — the Cartan forms and ``Γ ⌟ ω = −dE`` (section 2.3);
* ``_loads`` — forces on points and torques on bodies turned into the force one-form;
* ``_lagrangian`` — Lagrangians in any frame, Proposition 1, Hamel's equations (section 2);
* ``_nonholonomic`` — Proposition 2, multipliers; ``_drift`` — its drift in the field of the data;
* ``_frame_change`` — the change of adapted frame, the section 3 transformation rule;
* ``_vakonomic`` — ``L̂ = L − μ_a v^a``, Propositions 3–4, Theorem 1 (section 4);
* ``_consistency`` — weak and strong consistency, the vakonomic lift, Theorem 2 (section 5);
* ``_sections`` — sections solving the consistency conditions, by undetermined coefficients (section 5);
* ``_motion_consistency`` — consistency along one motion (end of section 5);
* ``_dimensions`` — dimensional analysis of expressions (each term's dimension, homogeneity);
* ``_ode`` — the first-order system :class:`OdeSystem` of a method, and its private builders;
* ``_linearize`` — linearisation on C about an equilibrium or a steady motion;
* ``_equilibria`` — relative equilibria (steady motions) from the reduced equations;
* ``_chaplygin`` — Chaplygin systems, Propositions 5–6, Corollary 3 (section 6).
"""

from ._cartan import CartanSolution, CartanSystem
from ._chaplygin import ChaplyginSystem, RouthianReduction
from ._charpoly import CharPoly, CriticalValue
from ._checks import check_forces
from ._consistency import ConsistencyResult, VakonomicLift, strong_consistency, vakonomic_lift, weak_consistency
from ._dimensions import dimension_terms, is_dimensionally_homogeneous
from ._equilibria import (
    EquilibriumFamilies,
    EquilibriumObstruction,
    RelativeEquilibrium,
    reduced_equations,
    relative_equilibria,
)
from ._frame_change import change_of_adapted_frame, transform_field, transform_multipliers
from ._lagrangian import Equations, Lagrangian
from ._linearize import Linearization, Stability, linearize
from ._loads import BodyTorque, PointForce, load_one_form
from ._measure import InvariantMeasure, invariant_measure
from ._method import DynamicsMethod, ModelLike, canonical_option, is_model
from ._model_of import nonholonomic_of
from ._motion_consistency import MotionConsistency, consistency_along_motion
from ._nonholonomic import NonholonomicSystem
from ._ode import OdeSystem, specialised, substituted
from ._region import StabilityCell, StabilityRegion
from ._sections import SectionFamily, find_sections, split_conditions
from ._subriemannian import MartinetAbnormals, martinet_abnormals, subriemannian
from ._vakonomic import VakonomicField, VakonomicSystem, VakonomicTangentField, VariationalCheck

__all__ = [
    "change_of_adapted_frame",
    "transform_multipliers",
    "split_conditions",
    "CartanSolution",
    "CartanSystem",
    "ChaplyginSystem",
    "ConsistencyResult",
    "DynamicsMethod",
    "Equations",
    "InvariantMeasure",
    "Lagrangian",
    "Linearization",
    "CharPoly",
    "CriticalValue",
    "Stability",
    "StabilityCell",
    "StabilityRegion",
    "MartinetAbnormals",
    "MotionConsistency",
    "NonholonomicSystem",
    "OdeSystem",
    "RelativeEquilibrium",
    "EquilibriumFamilies",
    "EquilibriumObstruction",
    "RouthianReduction",
    "SectionFamily",
    "VakonomicField",
    "VakonomicLift",
    "VakonomicSystem",
    "VakonomicTangentField",
    "VariationalCheck",
    "consistency_along_motion",
    "dimension_terms",
    "find_sections",
    "invariant_measure",
    "linearize",
    "is_dimensionally_homogeneous",
    "martinet_abnormals",
    "reduced_equations",
    "relative_equilibria",
    "strong_consistency",
    "subriemannian",
    "substituted",
    "transform_field",
    "vakonomic_lift",
    "weak_consistency",
    "BodyTorque",
    "PointForce",
    "load_one_form",
    "ModelLike",
    "canonical_option",
    "check_forces",
    "is_model",
    "nonholonomic_of",
    "specialised",
]
