"""Replay real MindSpore 2.10's ``ops.fractional_max_pool2d`` / ``ops.fractional_max_pool3d`` and
``ops.deformable_conv2d`` (tools/oracle/record_ops_fractional.py; MindSpore's CPU build runs all three). For the
pools, explicit ``_random_samples`` make the pooling regions deterministic, so outputs and argmax indices are
compared exactly; error cases expect the exception type MindSpore raised. Each new shape / dtype costs the pools
eager compiles, so by default their error cases and a few returning ones run (both return_indices settings, the
unbatched inputs) and their other shapes, ratios and dtypes are marked slow; deformable_conv2d (one compile per
geometry) runs all its cases."""
import pytest

from mindspore_hl import ops
from tests.oracle import assert_close, case_params
from tests.sweep import call_recorded, flatten

FIXTURE = "ops_fractional.npz"
RAISES = {"TypeError": TypeError, "ValueError": ValueError}
#: Returning cases run by default (the /1 and /2 cases share shapes, so the second one is cheap).
DEFAULT = {"ops.fractional_max_pool2d/1", "ops.fractional_max_pool2d/2", "ops.fractional_max_pool2d/4",
           "ops.fractional_max_pool3d/1", "ops.fractional_max_pool3d/2", "ops.fractional_max_pool3d/4"}
#: deformable_conv2d sums bilinear samples in another order than MindSpore's kernels (float16 there in float16).
TOLERANCE = {("ops.deformable_conv2d", "float32"): (1e-4, 1e-5), ("ops.deformable_conv2d", "float16"): (1e-2, 1e-2)}


def _params() -> list:
    return [pytest.param(*p.values, id=p.id,
                         marks=[] if p.values[0].error or p.id in DEFAULT or p.values[0].name == "ops.deformable_conv2d"
                         else [pytest.mark.slow])
            for p in case_params(FIXTURE)]


@pytest.mark.parametrize("case", _params())
def test_oracle_case(case):
    if case.error:
        with pytest.raises(RAISES[case.error]):
            call_recorded(case, ops)
        return
    outs = flatten(call_recorded(case, ops))
    assert len(outs) == len(case.outputs), f"{case.id}: {len(outs)} outputs, recorded {len(case.outputs)}"
    for i, (got, want) in enumerate(zip(outs, case.outputs)):
        rtol, atol = TOLERANCE.get((case.name, str(want.dtype)), (None, None))
        assert_close(got, want, rtol=rtol, atol=atol, what=f"{case.id} output {i}")
