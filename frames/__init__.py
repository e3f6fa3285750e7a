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
from ._forms import CartanSolution, CartanSystem, Form
from ._frame import Frame, anholonomy_after_change
from ._kozlov import KozlovCheck, KozlovEquations, kozlov_vs_frame
from ._lagrangian import Equations, Lagrangian
from ._latex import latex_equations
from ._mechanics import lagranges_method_accelerations
from ._mvm import Ansatz2Result, ModifiedVakonomic, Theorem1Result, ansatz2, mvm_w_coordinate, mvm_w_frame
from ._nonholonomic import NonholonomicSystem, change_of_adapted_frame, transform_field, transform_multipliers
from ._numeric import (
    CompiledSystem,
    InconsistentInitialDataError,
    IntegrateJob,
    IntegrationError,
    OdeSystem,
    OptionalDependencyError,
    ParameterError,
    SingularityError,
    StateError,
    Trajectory,
    TrajectoryBatch,
    compile_system,
    grid_points,
    integrate,
    integrate_batch,
    integrate_system,
    ode_system,
    reduced_ode_system,
    sweep,
)
from ._numeric_plugins import mvm_ode_system, vakonomic_ode_system
from ._report import Report, build_report, display_form
from ._sysfile import SystemFileError, dump_system, load_system, loads_system, parse_expression, write_system
from ._tangent import SecondOrderField, TangentVectorField
from ._vakonomic import Theorem1Check, VakonomicField, VakonomicSystem, VakonomicTangentField

__version__ = "0.1.0"

__all__ = [
    "Ansatz2Result",
    "Candidate",
    "CartanSolution",
    "CartanSystem",
    "ChaplyginSystem",
    "Chart",
    "ChartMismatchError",
    "ChetaevSystem",
    "CommutationTest",
    "ComparisonStep",
    "CompiledSystem",
    "ConsistencyResult",
    "ConstraintError",
    "CortesComparison",
    "Distribution",
    "Equations",
    "Form",
    "Frame",
    "FramesError",
    "FrobeniusResult",
    "InconsistentInitialDataError",
    "IntegrateJob",
    "IntegrationError",
    "InvalidExpressionError",
    "KozlovCheck",
    "KozlovEquations",
    "Lagrangian",
    "LinearConstraints",
    "ModifiedVakonomic",
    "MotionComparison",
    "MotionConsistency",
    "NonholonomicSystem",
    "OdeSystem",
    "OneForm",
    "OptionalDependencyError",
    "ParameterError",
    "Proposition5",
    "RegularityError",
    "Report",
    "SecondOrderField",
    "SectionFamily",
    "SingularFrameError",
    "SingularityError",
    "StateError",
    "SystemFileError",
    "TangentVectorField",
    "Theorem1Check",
    "Theorem1Result",
    "Trajectory",
    "TrajectoryBatch",
    "VakonomicField",
    "VakonomicLift",
    "VakonomicSystem",
    "VakonomicTangentField",
    "VectorField",
    "anholonomy_after_change",
    "ansatz2",
    "bracket",
    "build_report",
    "change_of_adapted_frame",
    "compare_motion",
    "compile_system",
    "complete_frame",
    "consistency_along_motion",
    "dimension_terms",
    "display_form",
    "dump_system",
    "find_sections",
    "grid_points",
    "integrate",
    "integrate_batch",
    "integrate_system",
    "is_dimensionally_homogeneous",
    "kozlov_vs_frame",
    "lagranges_method_accelerations",
    "latex_equations",
    "load_system",
    "loads_system",
    "mvm_ode_system",
    "mvm_w_coordinate",
    "mvm_w_frame",
    "ode_system",
    "parse_expression",
    "reduced_ode_system",
    "split_conditions",
    "strong_consistency",
    "sweep",
    "time_coefficients",
    "transform_field",
    "transform_multipliers",
    "vakonomic_lift",
    "vakonomic_ode_system",
    "weak_consistency",
    "write_system",
]


def __getattr__(name: str):  # type: ignore[no-untyped-def]
    # lazy submodules: frames.models, frames.strategies (hypothesis is a test extra)
    if name in ("models", "strategies"):
        import importlib

        return importlib.import_module(f"frames.{name}")
    raise AttributeError(f"module 'frames' has no attribute {name!r}")
