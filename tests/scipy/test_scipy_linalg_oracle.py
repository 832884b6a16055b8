"""``mindspore_hl.scipy.linalg`` against real MindSpore 2.10 (tools/oracle/record_linalg.py, cases ``sp.*``).

Tolerances: float32 rtol 1e-4 / atol 1e-5 (LAPACK builds differ in the last bits).
"""
import pytest

from mindspore_hl.scipy import linalg
from tests.oracle import case_params
from tests.sweep import replay


@pytest.mark.parametrize("case", [p for p in case_params("linalg.npz") if p.values[0].meta["module"] == "scipy"])
def test_scipy_linalg_matches_mindspore(case):
    f32 = case.outputs and str(case.outputs[0].dtype) == "float32"
    replay(case, linalg, rtol=1e-4 if f32 else None, atol=1e-5 if f32 else None)
