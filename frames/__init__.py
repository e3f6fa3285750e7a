"""frames: constrained mechanics in anholonomic frames.

The public API is re-exported here; ``frames.models`` is the catalogue of
benchmark systems and ``frames.strategies`` holds hypothesis strategies.
"""

from __future__ import annotations

from ._chaplygin import ChaplyginSystem, Proposition5
from ._chart import Chart
from ._chetaev import ChetaevSystem, CommutationTest
from ._comparison import (
    Candidate,
    ComparisonStep,
    CortesComparison,
    MotionComparison,
    compare_motion,
    time_coefficients,
)
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
from ._constraints import Distribution, FrobeniusResult, LinearConstraints, complete_frame
from ._errors import (
    ChartMismatchError,
    ConstraintError,
    FramesError,
    InvalidExpressionError,
    RegularityError,
    SingularFrameError,
)
from ._fields import OneForm, VectorField, bracket
from ._frame import Frame, anholonomy_after_change
from ._kozlov import KozlovCheck, KozlovEquations, kozlov_vs_frame
from ._lagrangian import Lagrangian
from ._mvm import Ansatz2Result, ModifiedVakonomic, Theorem1Result, ansatz2, mvm_w_coordinate, mvm_w_frame
from ._nonholonomic import NonholonomicSystem
from ._tangent import SecondOrderField, TangentVectorField
from ._vakonomic import Theorem1Check, VakonomicField, VakonomicSystem, VakonomicTangentField

__version__ = "0.1.0"

__all__ = [
    "Ansatz2Result",
    "Chart",
    "ChartMismatchError",
    "ConstraintError",
    "Distribution",
    "Frame",
    "FramesError",
    "FrobeniusResult",
    "InvalidExpressionError",
    "Lagrangian",
    "LinearConstraints",
    "ModifiedVakonomic",
    "NonholonomicSystem",
    "OneForm",
    "RegularityError",
    "SecondOrderField",
    "SingularFrameError",
    "TangentVectorField",
    "Theorem1Result",
    "VectorField",
    "anholonomy_after_change",
    "ansatz2",
    "bracket",
    "complete_frame",
    "ChaplyginSystem",
    "Proposition5",
    "ConsistencyResult",
    "MotionConsistency",
    "SectionFamily",
    "VakonomicLift",
    "consistency_along_motion",
    "dimension_terms",
    "find_sections",
    "is_dimensionally_homogeneous",
    "split_conditions",
    "strong_consistency",
    "vakonomic_lift",
    "weak_consistency",
    "Theorem1Check",
    "VakonomicField",
    "VakonomicSystem",
    "VakonomicTangentField",
    "mvm_w_coordinate",
    "mvm_w_frame",
    "Candidate",
    "ComparisonStep",
    "CortesComparison",
    "MotionComparison",
    "compare_motion",
    "time_coefficients",
    "KozlovCheck",
    "KozlovEquations",
    "kozlov_vs_frame",
    "ChetaevSystem",
    "CommutationTest",
]


def __getattr__(name: str):  # type: ignore[no-untyped-def]
    # lazy submodules: frames.models, frames.strategies (hypothesis is a test extra)
    if name in ("models", "strategies"):
        import importlib

        return importlib.import_module(f"frames.{name}")
    raise AttributeError(f"module 'frames' has no attribute {name!r}")
