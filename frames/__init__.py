"""frames: constrained mechanics in anholonomic frames.

The public API is re-exported here; ``frames.models`` is the catalogue of
benchmark systems and ``frames.strategies`` holds hypothesis strategies.
"""

from __future__ import annotations

from ._chaplygin import ChaplyginSystem, Proposition5
from ._chart import Chart
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
from ._lagrangian import Equations, Lagrangian
from ._lagrangian import Lagrangian
from ._mvm import Ansatz2Result, ModifiedVakonomic, Theorem1Result, ansatz2, mvm_w_coordinate, mvm_w_frame
from ._nonholonomic import NonholonomicSystem
from ._lagrangian import Lagrangian
from ._mechanics import lagranges_method_accelerations
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
from ._lagrangian import Lagrangian
from ._latex import latex_equations
from ._nonholonomic import NonholonomicSystem
from ._report import Report, build_report, display_form
from ._sysfile import SystemFileError, dump_system, load_system, loads_system, parse_expression, write_system
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
    "CartanSolution",
    "CartanSystem",
    "Equations",
    "Form",
    "LinearConstraints",
    "ModifiedVakonomic",
    "NonholonomicSystem",
    "OneForm",
    "RegularityError",
    "SecondOrderField",
    "SingularFrameError",
    "SystemFileError",
    "Report",
    "build_report",
    "display_form",
    "dump_system",
    "latex_equations",
    "load_system",
    "loads_system",
    "parse_expression",
    "write_system",
    "TangentVectorField",
    "Theorem1Result",
    "VectorField",
    "anholonomy_after_change",
    "ansatz2",
    "bracket",
    "change_of_adapted_frame",
    "complete_frame",
    "lagranges_method_accelerations",
    "transform_field",
    "transform_multipliers",
    # numerics (frames/_numeric.py)
    "CompiledSystem",
    "InconsistentInitialDataError",
    "IntegrateJob",
    "IntegrationError",
    "OdeSystem",
    "OptionalDependencyError",
    "ParameterError",
    "SingularityError",
    "StateError",
    "Trajectory",
    "TrajectoryBatch",
    "compile_system",
    "grid_points",
    "integrate",
    "integrate_batch",
    "integrate_system",
    "ode_system",
    "reduced_ode_system",
    "sweep",
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
]


def __getattr__(name: str):  # type: ignore[no-untyped-def]
    # lazy submodules: frames.models, frames.strategies (hypothesis is a test extra)
    if name in ("models", "strategies"):
        import importlib

        return importlib.import_module(f"frames.{name}")
    raise AttributeError(f"module 'frames' has no attribute {name!r}")
