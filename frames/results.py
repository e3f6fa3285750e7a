"""The result types: what the library's computations return.

Users read these (their fields, ``repr`` and ``_repr_latex_``) but do not construct them; they are
gathered here so that the top level of :mod:`frames` holds the vocabulary users write with. Every one
is a value object (:class:`frames._value.Value`: declared fields, structural equality), except the
numerical results that hold arrays (:class:`Trajectory`, :class:`TrajectoryBatch`, :class:`Report`).

Examples
--------
>>> import frames as fr
>>> nh = fr.models.knife_edge().nonholonomic()
>>> isinstance(fr.weak_consistency(fr.VakonomicSystem.from_nonholonomic(nh), [0]), fr.results.ConsistencyResult)
True
"""

from ._value import Multipliers
from .algebra import ZeroDecision
from .app import MechanicsImport, Report
from .dynamics import (
    CartanSolution,
    ConsistencyResult,
    Equations,
    EquilibriumFamilies,
    EquilibriumObstruction,
    InvariantMeasure,
    Linearization,
    MartinetAbnormals,
    MotionConsistency,
    RelativeEquilibrium,
    RouthianReduction,
    SectionFamily,
    VakonomicField,
    VakonomicLift,
    VakonomicTangentField,
    VariationalCheck,
)
from .geometry import BracketFlag, FrobeniusResult, NilpotentApproximation
from .natural import (
    CommutationTest,
    ComparisonAlgorithm,
    ComparisonBranch,
    ComparisonStep,
    DisplacementClassTest,
    KozlovFrameComparison,
    MotionComparison,
    MVMChetaevComparison,
    MVMEquivalence,
    PartialAuxiliaries,
)
from .numeric import Trajectory, TrajectoryBatch

__all__ = [
    # geometry
    "BracketFlag",
    "FrobeniusResult",
    "NilpotentApproximation",
    # equations of motion and their parts
    "CartanSolution",
    "Equations",
    "Multipliers",
    "VakonomicField",
    "VakonomicTangentField",
    # verdicts
    "ConsistencyResult",
    "InvariantMeasure",
    "Linearization",
    "MartinetAbnormals",
    "MotionConsistency",
    "RelativeEquilibrium",
    "EquilibriumFamilies",
    "EquilibriumObstruction",
    "RouthianReduction",
    "SectionFamily",
    "VakonomicLift",
    "VariationalCheck",
    "ZeroDecision",
    # comparisons between methods
    "CommutationTest",
    "ComparisonAlgorithm",
    "ComparisonBranch",
    "ComparisonStep",
    "DisplacementClassTest",
    "KozlovFrameComparison",
    "MVMChetaevComparison",
    "MVMEquivalence",
    "MotionComparison",
    "PartialAuxiliaries",
    # numerics, files and reports
    "MechanicsImport",
    "Report",
    "Trajectory",
    "TrajectoryBatch",
]
