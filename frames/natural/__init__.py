"""Layer 4, natural: the natural-coordinate methods of the other papers, compared with the frame methods.

Methods (each offers ``equations()``, ``accelerations()`` and ``multipliers()``):

* ``_kozlov`` — Kozlov's vakonomic equations (Lemos; Crampin–Mestdag section 4, in coordinates);
* ``_chetaev`` — Chetaev equations for nonlinear constraints, the commutation test (Talamucci);
* ``_mvm`` — the modified vakonomic method (Pastore–Giammarini–Grillo);

W of the modified vakonomic method:

* ``_mvm_w`` — W from the solvability conditions or from the frame's object of anholonomy;

Comparisons:

* ``_mvm_equivalence`` — the MVM against the nonholonomic method (PGG Theorem 1, Ansatz 2, the
  Crampin–Mestdag bridge);
* ``_mvm_chetaev`` — the MVM against the Chetaev equations (Talamucci (60)–(66));
* ``_displacements`` — Talamucci's displacement classes, Chetaev against vakonomic;
* ``_kozlov_frame`` — Kozlov's equations against the Crampin–Mestdag vakonomic field;
* ``_motion_comparison`` — closed-form motions against Kozlov's equations (Lemos);
* ``_cortes`` — the comparison algorithm of Cortés et al.;
* ``_mechanics`` — the cross-check against ``sympy.physics.mechanics``.
"""

from ._chetaev import ChetaevSystem, CommutationTest
from ._cortes import Candidate, ComparisonAlgorithm, ComparisonBranch, ComparisonStep, CortesComparison
from ._displacements import DisplacementClasses, DisplacementClassTest, compare_chetaev_with_vakonomic
from ._kozlov import KozlovSystem
from ._kozlov_frame import KozlovFrameComparison, compare_kozlov_with_frame
from ._mechanics import lagranges_method_accelerations
from ._motion_comparison import MotionComparison, compare_motion
from ._mvm import ModifiedVakonomic
from ._mvm_chetaev import MVMChetaevComparison, compare_mvm_with_chetaev
from ._mvm_equivalence import (
    MVMEquivalence,
    PartialAuxiliaries,
    compare_mvm_with_nonholonomic,
    hamel_transpositional,
    w_from_partial_auxiliaries,
)
from ._mvm_w import w_from_coordinates, w_from_frame

__all__ = [
    "Candidate",
    "ChetaevSystem",
    "CommutationTest",
    "ComparisonAlgorithm",
    "ComparisonBranch",
    "ComparisonStep",
    "CortesComparison",
    "DisplacementClassTest",
    "DisplacementClasses",
    "KozlovFrameComparison",
    "KozlovSystem",
    "MVMChetaevComparison",
    "MVMEquivalence",
    "ModifiedVakonomic",
    "MotionComparison",
    "PartialAuxiliaries",
    "compare_chetaev_with_vakonomic",
    "compare_kozlov_with_frame",
    "compare_motion",
    "compare_mvm_with_chetaev",
    "compare_mvm_with_nonholonomic",
    "hamel_transpositional",
    "lagranges_method_accelerations",
    "w_from_coordinates",
    "w_from_frame",
    "w_from_partial_auxiliaries",
]
