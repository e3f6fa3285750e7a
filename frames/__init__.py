"""frames: constrained mechanics in anholonomic frames.

The top level holds the vocabulary, in families (as :mod:`sympy.physics.mechanics` groups its names):

- **geometry** — charts, vector fields on Q and TQ, forms, frames, distributions, constraints, brackets;
- **systems** — a Lagrangian and the methods of constrained dynamics, each with ``equations()``,
  ``accelerations()``, ``multipliers()`` (where it has them) and ``ode_system()``;
- **verdicts** — consistency of the nonholonomic and vakonomic motions, sections, invariant measures,
  comparisons between methods;
- **numerics** — the ODE system of a method and the one ``integrate``, the solvers as values;
- **stability** — steady motions, the linearisation about them, eigenvalues against a parameter;
- **files and reports** — models, system files, reports, LaTeX and the SymPy mechanics interop;
- **exact algebra** — the exact zero test, the tidy display form and time budgets;
- **errors** — :class:`FramesError`, the base of every error of the library.

Namespaces: :mod:`frames.results` (the result types), :mod:`frames.errors` (every error),
:mod:`frames.models` (the catalogue), :mod:`frames.strategies` (hypothesis strategies, loaded on first
use), and the layers :mod:`frames.algebra`, :mod:`frames.geometry`, :mod:`frames.dynamics`,
:mod:`frames.natural`, :mod:`frames.numeric`, :mod:`frames.app` for everything else.
"""

from importlib import import_module as _import_module

from . import errors, models, results
from ._version import __version__
from .algebra import budget, is_zero, tidy
from .app import (
    Model,
    analyze,
    dump_model,
    dumps_model,
    from_mechanics,
    latex_equations,
    load_model,
    loads_model,
    parse_expression,
)
from .dynamics import (
    BodyTorque,
    CartanSystem,
    ChaplyginSystem,
    Lagrangian,
    NonholonomicSystem,
    OdeSystem,
    PointForce,
    VakonomicSystem,
    consistency_along_motion,
    find_sections,
    invariant_measure,
    linearize,
    martinet_abnormals,
    relative_equilibria,
    strong_consistency,
    subriemannian,
    vakonomic_lift,
    weak_consistency,
)
from .errors import FramesError
from .geometry import (
    Chart,
    Distribution,
    Form,
    Frame,
    LinearConstraints,
    OneForm,
    SecondOrderField,
    TangentVectorField,
    VectorField,
    bracket,
    complete_frame,
)
from .natural import (
    ChetaevSystem,
    CortesComparison,
    KozlovSystem,
    ModifiedVakonomic,
    compare_kozlov_with_frame,
    compare_motion,
    compare_mvm_with_chetaev,
    compare_mvm_with_nonholonomic,
)
from .numeric import (
    BDF,
    DOP853,
    LSODA,
    RK4,
    RK23,
    RK45,
    LDAMidpoint,
    NumbaRK4,
    NumbaRK45,
    Radau,
    Solver,
    TimeLaw,
    integrate,
    ode_system,
    plot_eigenvalues,
    plot_stability_region,
    sweep,
)

__all__ = [
    # geometry
    "Chart",
    "VectorField",
    "TangentVectorField",
    "OneForm",
    "Form",
    "Frame",
    "Distribution",
    "LinearConstraints",
    "SecondOrderField",
    "bracket",
    "complete_frame",
    # systems: the methods of constrained dynamics
    "Lagrangian",
    "NonholonomicSystem",
    "VakonomicSystem",
    "ChaplyginSystem",
    "CartanSystem",
    "ModifiedVakonomic",
    "KozlovSystem",
    "ChetaevSystem",
    "subriemannian",
    # forces: loads as a SymPy user writes them
    "PointForce",
    "BodyTorque",
    # verdicts: consistency, sections, invariant measures, comparisons
    "weak_consistency",
    "strong_consistency",
    "vakonomic_lift",
    "find_sections",
    "consistency_along_motion",
    "invariant_measure",
    "martinet_abnormals",
    "compare_motion",
    "compare_mvm_with_nonholonomic",
    "compare_mvm_with_chetaev",
    "compare_kozlov_with_frame",
    "CortesComparison",
    # numerics
    "ode_system",
    "OdeSystem",
    "integrate",
    "sweep",
    "Solver",
    "RK45",
    "RK23",
    "DOP853",
    "Radau",
    "BDF",
    "LSODA",
    "RK4",
    "LDAMidpoint",
    "NumbaRK45",
    "NumbaRK4",
    "TimeLaw",
    # stability
    "relative_equilibria",
    "linearize",
    "plot_eigenvalues",
    "plot_stability_region",
    # files and reports
    "Model",
    "load_model",
    "loads_model",
    "dump_model",
    "dumps_model",
    "parse_expression",
    "analyze",
    "latex_equations",
    "from_mechanics",
    # exact algebra
    "is_zero",
    "tidy",
    "budget",
    # errors
    "FramesError",
    # namespaces
    "errors",
    "models",
    "results",
    "__version__",
]


def __getattr__(name: str):  # type: ignore[no-untyped-def]
    # frames.strategies needs hypothesis (a test extra), so it is loaded on first use only
    if name == "strategies":
        return _import_module("frames.strategies")
    raise AttributeError(f"module 'frames' has no attribute {name!r}")
