"""Layer 4, natural: the natural-coordinate methods of the other papers, compared with the frame methods.

* ``_kozlov`` — Kozlov's vakonomic equations (Crampin–Mestdag section 4, in coordinates);
* ``_chetaev`` — Chetaev and vakonomic equations for nonlinear constraints (Talamucci);
* ``_mvm`` — the modified vakonomic method and its W tensor (Pastore–Giammarini–Grillo);
* ``_comparison`` — the Cortés et al. comparison algorithm, Lemos' motion comparison;
* ``_mechanics`` — the cross-check against ``sympy.physics.mechanics``.
"""

from ._chetaev import ChetaevSystem, CommutationTest, DisplacementClasses, MVMComparison, PropositionTest, talamucci_mvm
from ._comparison import (
    Candidate,
    ComparisonAlgorithm,
    ComparisonBranch,
    ComparisonStep,
    CortesComparison,
    MotionComparison,
    compare_motion,
    time_coefficients,
)
from ._kozlov import KozlovCheck, KozlovEquations, kozlov_vs_frame
from ._mechanics import from_dynamic, lagranges_method_accelerations, to_dynamic
from ._mvm import Ansatz2Result, ModifiedVakonomic, Theorem1Result, ansatz2, mvm_w_coordinate, mvm_w_frame

__all__ = [
    "Ansatz2Result",
    "Candidate",
    "ChetaevSystem",
    "CommutationTest",
    "ComparisonAlgorithm",
    "ComparisonBranch",
    "ComparisonStep",
    "CortesComparison",
    "DisplacementClasses",
    "KozlovCheck",
    "KozlovEquations",
    "MVMComparison",
    "ModifiedVakonomic",
    "MotionComparison",
    "PropositionTest",
    "Theorem1Result",
    "ansatz2",
    "compare_motion",
    "from_dynamic",
    "kozlov_vs_frame",
    "lagranges_method_accelerations",
    "mvm_w_coordinate",
    "mvm_w_frame",
    "talamucci_mvm",
    "time_coefficients",
    "to_dynamic",
]
