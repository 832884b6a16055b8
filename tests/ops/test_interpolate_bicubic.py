"""Bicubic interpolation. ``ops.interpolate(mode='bicubic')`` is replayed against real MindSpore 2.10
(tools/oracle/record_interpolate_bicubic.py): values, dtypes and the errors for a scale factor without
``recompute_scale_factor``, integer and 3-D input. MindSpore's kernel reads the cubic weights from a 1024-entry
table, as ours does, so float32 agrees to about 4e-7 relative; float16 is compared at its own resolution.

``mint.nn.functional.interpolate(mode='bicubic')`` is PyTorch's algorithm (a different kernel): MindSpore's CPU
build cannot run it, so PyTorch's outputs are the truth (tools/oracle/record_mint_bicubic_torch.py).
"""
import pytest

import mindspore_hl as ms
from mindspore_hl import ops
from mindspore_hl.mint.nn import functional as F
from tests.oracle import assert_outputs, case_params


@pytest.mark.parametrize("case", case_params("interpolate_bicubic.npz"))
def test_bicubic_matches_mindspore(case):
    x = ms.Tensor(case.inputs["input"])
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in case.kwargs.items()}
    if case.error:
        with pytest.raises((TypeError, ValueError)):
            ops.interpolate(x, **kwargs)
        return
    tolerance = {"rtol": 2e-3, "atol": 2e-3} if case.outputs[0].dtype.name == "float16" else {"rtol": 1e-5,
                                                                                               "atol": 1e-5}
    assert_outputs(ops.interpolate(x, **kwargs), case, **tolerance)


@pytest.mark.parametrize("case", case_params("mint_bicubic_torch.npz"))
def test_mint_bicubic_matches_pytorch(case):
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in case.kwargs.items()}
    assert_outputs(F.interpolate(ms.Tensor(case.inputs["input"]), **kwargs), case, rtol=1e-5, atol=1e-5)
