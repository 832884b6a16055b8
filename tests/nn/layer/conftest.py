"""Layer tests draw inputs from their module's ``RNG``: reset it per test, so the GRAPH and PYNATIVE runs of a
test see the same inputs (and ``layer_harness`` can reuse the reference computed for the first of them)."""
import numpy as np
import pytest


@pytest.fixture(autouse=True)
def _fresh_module_rng(request):
    if hasattr(request.module, "RNG"):
        request.module.RNG = np.random.default_rng(0)
