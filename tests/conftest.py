import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

# the shared helpers (_bad_input, _sysfile_fuzz_gen) sit here, beside the layer directories that use them
sys.path.insert(0, str(Path(__file__).resolve().parent))

settings.register_profile(
    "default",
    deadline=None,
    derandomize=True,  # the same examples on every machine: the README's test command is reproducible
    max_examples=int(os.environ.get("FRAMES_HYPOTHESIS_EXAMPLES", "25")),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("slow", deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow])
# random examples, to explore beyond the fixed ones: FRAMES_HYPOTHESIS_PROFILE=explore
settings.register_profile(
    "explore", deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
settings.load_profile(os.environ.get("FRAMES_HYPOTHESIS_PROFILE", "default"))
